/*
 * model.c — the Euclidean GCD of two univariate polynomials over Z/pZ
 * with program parameter s, as an MCM program: the model a student
 * computes (its kernels written once are kernels.c).
 *
 * Source: Xie's thesis (xie-thesis-2016.txt) §4.3 "The Euclidean algorithm"
 * (line 1524; Algorithm 1 OptGcdKer at line 1536; the two phases at line
 * 1595; the Z constraint at line 1606; the closed forms at line 1612) and
 * the Appendix B worksheet "Euclidean" (line 4846 to line 5035).  The paper
 * version is §3 of mcm-paper-2015.txt.  SPEC §2 summarises it.
 *
 * The algorithm.  a and b have n and m coefficients (deg a = n−1 >= deg b =
 * m−1).  One kernel call (OptGcdKer) makes at most s division steps, each
 * cancelling the leading coefficient of the polynomial of larger degree
 * against the other one; the host calls it until one polynomial is zero.
 * Worst case (App. B, line 4857: "at each step, the degree of a or b
 * decreases by 1", and gcd(a, b) = 1): n + m − 1 steps, from degrees
 * (n−1, m−1) down to (−1, 0), hence ⌈(n + m − 1)/s⌉ kernel calls in all.
 *   ping-ping (line 1597): while deg a − deg b >= s, every step of a call
 *     reduces a; ⌊(n−m)/s⌋ calls (the thesis: at most ⌈(n−m)/s⌉), each of
 *     ⌈m/ℓ⌉ thread-blocks (line 1602);
 *   ping-pong: the divisor alternates; a call at degrees (da, db) has
 *     min(⌈(da+1)/ℓ⌉, ⌈(db+1)/ℓ⌉) thread-blocks (line 1602); at most
 *     ⌈2m/s⌉ calls.  A call that starts in ping-ping and ends in ping-pong
 *     (when s does not divide n − m) is counted as ping-pong.
 * Every call is charged s steps, the last one too (Algorithm 1 loops s
 * times; the paper's per-block costs are per call).
 *
 * Per thread-block (App. B, "3 steps along the span per coefficient":
 * multiplication factor, multiplication, subtraction):
 *   S(B) = 3s                                   (line 4977)
 *   W(B) = 3(s(s+1)/2 + 2ℓs)   ping-ping        (line 4916)
 *        = 9s²/4 + 9s/2 + 6ℓs  ping-pong        (line 4921)
 *   O(B) = 8U: 6 words read, 2 written per thread, coalesced (line 4954)
 *   private memory: s leading coefficients of a and of b, ℓ + s other
 *   coefficients of a and of b: 4s + 2ℓ words <= Z (line 1606).
 *
 * The paper's closed forms (closed_form() below; SPEC §2; W from App. B,
 * line 4933, since Ch. 4's W_s at line 1614 misses a factor m; "81m+161n"
 * in the worksheet's text is the OCR of 8ℓm + 16ℓn):
 *   W = 3m² + 6nm + 3ms + 3m(5ms + 4ns + 14m + 4n + 3s² + 6s)/(8ℓ)
 *   S = 3n + 3m                 O = 4mU(2n + m + s)/(sℓ)
 *   N = (2nm + m² + ms)/(2sℓ)   L = (n + m)/s      C = 3s + 8U
 *   K = m/ℓ                     T = (N/K + L)·C = (4n + 3m + s)(3s + 8U)/(2s)
 *
 * DISAGREEMENT with the paper (the simulator follows the block counts the
 * thesis states, the paper's N, O, W and T do not).  In the worst case the
 * degrees of a and b fall in turn, so min(da, db) falls by s/2 per
 * ping-pong call: the calls have m/ℓ, (m − s/2)/ℓ, (m − s)/ℓ, …, down to
 * one block of s/2 coefficients — exactly what the worksheet's own text
 * says (line 4873).  Its Maple sums for W, O and N (lines 4937,
 * 4963, 4989),
 *   2·Σ_{i=0}^{m/s−1} (m − i·s/2)/ℓ = (3m² + ms)/(2sℓ),
 * let the block count fall by s/2 only every second call; the sequence
 * it describes sums to Σ_{c=0}^{2m/s−1} (m − c·s/2)/ℓ = (2m² + ms)/(2sℓ).
 * So the blocks this program launches are, without ceilings,
 *   N = (n−m)m/(sℓ) + (2m² + ms)/(2sℓ) = m(2n + s)/(2sℓ),
 * the paper's N less m²/(2sℓ) (a third of the paper's ping-pong blocks), and
 *   O = 8U·N,   W = 3m(16ℓn + 8ℓs + 2ms + 8m + 4ns + 4n + 3s² + 6s)/(8ℓ)
 *   (the paper's W less 3m²(8ℓ + 3s + 6)/(8ℓ)),
 *   L = ⌈(n + m − 1)/s⌉ (= the paper's (n + m)/s when s >= 2 divides n + m;
 *   n + m − 1 for s = 1: the last remainder, a constant, needs no step),
 *   S = 3s·L, C = 3s + 8U, K = ⌈m/ℓ⌉,
 * and Corollary 1 gives (N/K + L)·C = (4n + 2m + s)(3s + 8U)/(2s): the
 * paper's T is about 7/6 of it when n = m >> s.  These are exact when
 * ℓ | m, s is even, ℓ | s/2, s | n − m and s | 2m (test_euclid.c
 * checks them).
 * Also noted, not changed: the worksheet's W(B) exceeds ℓ·S(B) = 3ℓs (each
 * thread is charged 2 coefficients per step in the work but 1 in the span),
 * and O(B) = 8U is kept for every s, ℓ although 6 reads per thread is
 * (4s + 2ℓ)/ℓ only when s = ℓ.
 *
 * Operation classes (the card model; sim/model/kernel_dag.h, convention in
 * programs/cuda_counts.h) follow the CUDA kernels (kernels.c, after cuda_ref/euclid.cu),
 * not the worksheet's "3 operations per step" (S(B) = 3s and W(B) are
 * kept as the worksheet has them).  Per division step, thread 0 (the
 * longest path: it also chooses the step) does
 *   ping-ping: c = lc(a)·lc(b)^−1 (1 zp_mul), then ⌈s/ℓ⌉ head and 1 window
 *     coefficients, each a zp_mul and a zp_sub on 3 shared words; 4 shared
 *     reads to choose the step; 2 barriers; once per call, lc(b)^−1 by
 *     Fermat (zp_inv: 57 zp_mul for p = 469762049);
 *   ping-pong: ⌈(2s − 1)/ℓ⌉ head and ⌈(ℓ + 2s − 2)/ℓ⌉ window coefficients,
 *     each lc_y·X − lc_x·Y: 2 zp_mul, a zp_sub, 3 shared words; 4 shared
 *     reads to choose; 2 barriers;
 * plus the loads into shared memory and 2 barriers per call.  The work
 * counts every coefficient of the block once per step, and the inverse
 * once.
 *
 * The conclusion (lines 1626-1647): T_1/T_s → (3 + 8U)s/(3s + 8U) > 1, so
 * s = Θ(ℓ) beats s = 1; Figure 4.5 measures s = ℓ = 256 against s = 1.
 *
 * Params: n, m (sizes of a and b; m = 0, the default, means m = n, so that
 * a run file sweeps n = m by sweeping n), s, l (ℓ).  Memory: one kernel
 * record per call (n + m − 1 calls for s = 1), never one per block.
 */
#include "fail.h"
#include "program.h"

#include <math.h>
#include <stdio.h>

#define SPAN_PER_STEP 3         /* multiplication factor, multiplication, subtraction */
#define WORDS_READ_PER_THREAD 6 /* App. B line 4954: "6 time to load data" */
#define WORDS_WRITTEN_PER_THREAD 2

typedef struct euclid_params {
    double n, m, s, l;
} euclid_params;

static int whole(double x) { return x == floor(x); }

/* The value of param `name` (the registry always gives every default). */
static int param(const vars *params, const char *name, double *out)
{
    const double *v = vars_get(params, name);
    if (!v)
        return fail("program 'euclid': param '%s' is missing", name);
    *out = *v;
    return 0;
}

/* n, m, s, ℓ from the params; m = 0 means m = n. */
static int read_params(const vars *params, euclid_params *p)
{
    if (param(params, "n", &p->n) < 0 || param(params, "m", &p->m) < 0 ||
        param(params, "s", &p->s) < 0 || param(params, "l", &p->l) < 0)
        return -1;
    if (p->m == 0)
        p->m = p->n;
    if (!whole(p->n) || !whole(p->m) || !whole(p->s) || !whole(p->l) || p->m < 1 || p->n < p->m ||
        p->s < 1 || p->l < 1 || p->n > 1e9)
        return fail("program 'euclid': needs whole n >= m >= 1, s >= 1, l >= 1 "
                    "(got n = %g, m = %g, s = %g, l = %g)", p->n, p->m, p->s, p->l);
    return 0;
}

/* Thesis line 1606: the s leading coefficients of a and b and ℓ + s other
 * coefficients of each must fit in the private memory of one SM. */
static double private_words(const euclid_params *p) { return 4 * p->s + 2 * p->l; }

static int check_z(const euclid_params *p, const machine *m)
{
    if (private_words(p) > m->z)
        return fail("program 'euclid': constraint 4s + 2ℓ <= Z does not hold "
                    "(s = %g, ℓ = %g: %g > Z = %g)", p->s, p->l, private_words(p), m->z);
    return 0;
}

/* The degrees of a and b in the worst case: each division step lowers the
 * degree of the dividend (the polynomial of larger degree) by one. */
typedef struct degrees {
    long da, db;
} degrees;

static int gcd_found(const degrees *d) { return d->da < 0 || d->db < 0; }

static void division_step(degrees *d)
{
    if (d->da >= d->db)
        d->da--;
    else
        d->db--;
}

/* Thread-blocks of the call made at degrees d (line 1602). */
static long thread_blocks(const degrees *d, double l)
{
    double blocks_a = ceil((double)(d->da + 1) / l), blocks_b = ceil((double)(d->db + 1) / l);
    return (long)fmin(blocks_a, blocks_b);
}

/* Ping-ping: all s steps of the call reduce a (a stays the dividend). */
static int is_ping_ping(const degrees *d, double s) { return d->da - d->db >= s; }

/* App. B work per block, lines 4916 and 4921. */
static double work_per_block(int ping_ping, double s, double l)
{
    if (ping_ping)
        return SPAN_PER_STEP * (s * (s + 1) / 2 + 2 * l * s);
    return 9 * s * s / 4 + 9 * s / 2 + 6 * l * s;
}

/* The classes of one call's block, as stated at the top. */
static void set_classes(block_cost *c, int ping_ping, const euclid_params *p)
{
    double s = p->s, l = p->l;
    double head = ping_ping ? ceil(s / l) : ceil((2 * s - 1) / l);
    double window = ping_ping ? 1 : ceil((l + 2 * s - 2) / l);
    double entries = head + window;                       /* per thread, per step */
    double block_entries = ping_ping ? s + l : (2 * s - 1) + (l + 2 * s - 2);
    double mul_per_entry = ping_ping ? 1 : 2, step_mul = ping_ping ? 1 : 0, inverse = ping_ping ? 57 : 0;
    double loads = 2 * head + window + 2 * ceil(s / l);
    cost_set_classes(c, (int)l, s * (8 + 4 * entries) + 10, s * (step_mul + mul_per_entry * entries) + inverse,
                     s * entries, s * (4 + 3 * entries) + loads, 2 * s + 2);
    c->work_ops[OP_MULMOD] = s * (step_mul * l + mul_per_entry * block_entries) + inverse;
    c->work_ops[OP_ADDMOD] = s * block_entries;
    c->work_ops[OP_PRIVATE] = s * (4 + 3 * block_entries) + l * loads;
}

static kernel gcd_kernel_call(const char *name, long blocks, int ping_ping, const euclid_params *p)
{
    kernel k = {
        .name = (char *)name,
        .blocks = blocks,
        .threads = (int)p->l,
        .cost = {.span = SPAN_PER_STEP * p->s,
                 .work = work_per_block(ping_ping, p->s, p->l),
                 .reads = WORDS_READ_PER_THREAD,
                 .writes = WORDS_WRITTEN_PER_THREAD},
        .private_words = private_words(p),
    };
    set_classes(&k.cost, ping_ping, p);
    return k;
}

static kernel_dag *build(const vars *params, const machine *m)
{
    euclid_params p;
    if (read_params(params, &p) < 0 || check_z(&p, m) < 0)
        return NULL;
    kernel_dag *dag = kernel_dag_new("euclid");
    degrees d = {(long)p.n - 1, (long)p.m - 1};
    for (long call = 0; !gcd_found(&d); call++) {
        int ping_ping = is_ping_ping(&d, p.s);
        char name[48];
        snprintf(name, sizeof name, "%s[%ld]", ping_ping ? "ping-ping" : "ping-pong", call);
        kernel k = gcd_kernel_call(name, thread_blocks(&d, p.l), ping_ping, &p);
        if (kernel_dag_chain(dag, &k) < 0) {
            kernel_dag_free(dag);
            return NULL;
        }
        for (long step = 0; step < (long)p.s && !gcd_found(&d); step++)
            division_step(&d);
    }
    return dag;
}

/* The paper's closed forms (thesis line 1612, App. B lines 4940-5010). */
static int closed_form_of(const vars *params, const machine *mach, closed_form *out)
{
    euclid_params p;
    if (read_params(params, &p) < 0)
        return -1;
    double n = p.n, m = p.m, s = p.s, l = p.l, U = mach->u;
    out->W = 3 * m * m + 6 * n * m + 3 * m * s +
             3 * m * (5 * m * s + 4 * n * s + 14 * m + 4 * n + 3 * s * s + 6 * s) / (8 * l);
    out->S = 3 * n + 3 * m;
    out->O = 4 * m * U * (2 * n + m + s) / (s * l);
    out->N = (2 * n * m + m * m + m * s) / (2 * s * l);
    out->L = (n + m) / s;
    out->C = 3 * s + 8 * U;
    out->T = (4 * n + 3 * m + s) * (3 * s + 8 * U) / (2 * s);
    return 0;
}

const builtin_program program_euclid = {
    .name = "euclid",
    .summary = "Euclidean GCD over Z/pZ, s steps per kernel call, ping-ping then ping-pong "
               "(thesis §4.3, App. B)",
    .defaults = "n=1000 m=0 s=256 l=256",
    .kernels = "programs/euclid/kernels.c",
    .build = build,
    .closed_form = closed_form_of,
};
