/*
 * model.c — plain (schoolbook) division of a polynomial a of m
 * coefficients by a polynomial b of n coefficients over Z/pZ (m > n), with
 * program parameter s, as an MCM program: the model a student computes (its
 * kernels written once are kernels.c).
 *
 * Source: no MCM paper analyses this algorithm; SPEC §2 lists it as a
 * tutorial case study ("⌈(m−n)/s⌉ kernel calls of ⌈n/(2s)⌉ blocks; each
 * call does ≤ s division steps; ≤ 6s² ops per block"; work O((m−n)n), span
 * O(m−n); conclusion: time linear in m − n).  The kernel below is OURS: it
 * is the ping-ping phase of the Euclidean kernel OptGcdKer (thesis §4.3,
 * Algorithm 1 at line 1536, Figure 4.4 and line 1604) with the divisor b
 * fixed, and its costs are counted the way the Appendix B worksheet
 * "Euclidean" counts them (line 4846; "3 steps along the span per
 * coefficient": multiplication factor, multiplication, subtraction).  All
 * closed forms below are derived from these kernel costs, not taken from a
 * paper.
 *
 * The algorithm.  A division step cancels the leading coefficient of the
 * current remainder a (degree da): q = a[da]/b[n−1], a −= q·X^(da−n+1)·b.
 * From deg a = m−1 down to deg a = n−2 takes m − n + 1 steps (one per
 * quotient coefficient).  One kernel call makes s of them, so the host makes
 *   ⌈(m − n + 1)/s⌉ calls
 * (SPEC writes ⌈(m−n)/s⌉, dropping the +1; every call, the last one too, is
 * charged s steps: the kernel loops s times).  Within a call each
 * thread-block of ℓ threads (ℓ = 2s by default, so each block owns 2s
 * coefficients) owns ℓ consecutive coefficients of the n coefficients of a
 * just below its s leading ones, so a call has ⌈n/ℓ⌉ thread-blocks
 * (⌈n/(2s)⌉).  As in OptGcdKer, every block reads the s leading
 * coefficients of a and b and recomputes the s quotient coefficients
 * itself (thesis line 1608: "duplication of data access and ... of work").
 *
 * Per thread-block, thread t:
 *   reads  a's and b's leading coefficient t (t < s), its own coefficient
 *          A[t] of a, and its share of the ℓ + s coefficients of b that
 *          the s steps multiply into the block's window (2 words, s <= ℓ):
 *          α = 5 words, coalesced;
 *   each step k < s: updates A[t] (3 operations), and, if k < t < s, the
 *          leading coefficient t (3 more);
 *   writes A[t] and (t < s) quotient coefficient t: β = 2 words, coalesced
 *          (only block 0 needs to write the quotient; the MCM charges the
 *          same O(B) to every block of a kernel, as App. B's 8U does).
 *   S(B) = 3s + 3(s − 1) = 6s − 3
 *   W(B) = 3ℓs + 3s(s − 1)/2     (= 6s² + 3s(s−1)/2 for ℓ = 2s: the
 *          owned coefficients are SPEC's 6s²; the duplicated leading
 *          part, which SPEC's "≤ 6s²" leaves out, adds 3s(s−1)/2)
 *   O(B) = (α + β)U = 7U
 *   private memory: s + s leading coefficients, ℓ of a, ℓ + s of b:
 *   Z constraint (ours)  3s + 2ℓ <= Z   (7s <= Z for ℓ = 2s).
 *   Also s <= ℓ: a leading coefficient per thread (impossible otherwise).
 *
 * Closed forms (ours, exact, ceilings kept): with d = m − n,
 *   L = ⌈(d + 1)/s⌉ kernel calls, a chain;  K = ⌈n/ℓ⌉;  N = L·K
 *   W = N·(3ℓs + 3s(s−1)/2)     S = L·(6s − 3)     O = 7U·N
 *   C = 6s − 3 + 7U             T = (N/K + L)·C = 2L·C   (Corollary 1)
 * Read without ceilings, ℓ = 2s: W ≈ (15s − 3)(m − n)n/(4s) = O((m−n)n),
 * S ≈ 6(m − n) = O(m − n), T ≈ 2(m − n)(6s − 3 + 7U)/s: linear in m − n
 * (SPEC's claims).  Corollary 1 counts N/K = L rounds on top of the L
 * kernels of the chain: on P = K SMs every call runs in one round of C, so
 * the simulated T is L·C, half the estimate.
 *
 * Params: n (size of b), m (size of a; m = 0, the default, means m = n + d),
 * d (m − n, so that a run file sweeps m − n for a fixed n), s, l (ℓ; l = 0,
 * the default, means ℓ = 2s, so that a run file sweeping s keeps ℓ = 2s).
 * A given m > 0 wins over d.
 */
#include "fail.h"
#include "program.h"

#include <math.h>
#include <stdio.h>

#define OPS_PER_COEFFICIENT 3 /* multiplication factor, multiplication, subtraction */
#define WORDS_READ_PER_THREAD 5
#define WORDS_WRITTEN_PER_THREAD 2

typedef struct division_params {
    double n, m, s, l;
} division_params;

static int whole(double x) { return x == floor(x); }

/* The value of param `name` (the registry always gives every default). */
static int param(const vars *params, const char *name, double *out)
{
    const double *v = vars_get(params, name);
    if (!v)
        return fail("program 'plain-division': param '%s' is missing", name);
    *out = *v;
    return 0;
}

/* n, m, s, ℓ from the params: m = 0 means n + d, l = 0 means 2s. */
static int read_params(const vars *params, division_params *p)
{
    double d = 0;
    if (param(params, "n", &p->n) < 0 || param(params, "m", &p->m) < 0 || param(params, "d", &d) < 0 ||
        param(params, "s", &p->s) < 0 || param(params, "l", &p->l) < 0)
        return -1;
    if (p->m == 0)
        p->m = p->n + d;
    if (p->l == 0)
        p->l = 2 * p->s;
    if (!whole(p->n) || !whole(p->m) || !whole(p->s) || !whole(p->l) || p->n < 1 || p->m <= p->n ||
        p->s < 1 || p->m > 1e9)
        return fail("program 'plain-division': needs whole m > n >= 1 and s >= 1 "
                    "(got n = %g, m = %g, s = %g)", p->n, p->m, p->s);
    if (p->l < p->s)
        return fail("program 'plain-division': needs s <= ℓ, one thread per leading "
                    "coefficient (s = %g, ℓ = %g)", p->s, p->l);
    return 0;
}

/* The s leading coefficients of a and of b, ℓ coefficients of a, ℓ + s of b. */
static double private_words(const division_params *p) { return 3 * p->s + 2 * p->l; }

static int check_z(const division_params *p, const machine *m)
{
    if (private_words(p) > m->z)
        return fail("program 'plain-division': constraint 3s + 2ℓ <= Z does not hold "
                    "(s = %g, ℓ = %g: %g > Z = %g)", p->s, p->l, private_words(p), m->z);
    return 0;
}

static double kernel_calls(const division_params *p) { return ceil((p->m - p->n + 1) / p->s); }
static double thread_blocks(const division_params *p) { return ceil(p->n / p->l); }

/* S(B): s updates of the thread's own coefficient, s − 1 of a leading one. */
static double span_per_block(double s) { return OPS_PER_COEFFICIENT * (s + (s - 1)); }

/* W(B): ℓ own coefficients s times, leading coefficient t updated t times. */
static double work_per_block(double s, double l)
{
    return OPS_PER_COEFFICIENT * (l * s + s * (s - 1) / 2);
}

/* Operation classes (the card model; programs/cuda_counts.h) from
 * division_kernel in cuda_ref/plain-division.cu, S(B) and W(B) kept as
 * above.  Along thread s − 1 (the longest): s − 1 updates of its leading
 * coefficient (zp_mul, zp_sub, 4 shared accesses, a barrier each) while
 * thread 0 makes the s quotient coefficients (a zp_mul each), then s
 * updates of its own coefficient (zp_mul, zp_sub, 1 shared read); a
 * barrier after the loads and two per step.  In the work, every thread
 * updates its own coefficient s times and thread t its leading one t
 * times. */
static void set_classes(block_cost *c, double s, int l)
{
    double leading = s * (s - 1) / 2;
    cost_set_classes(c, l, 6 * s + 9, 2 * s - 1, 2 * s - 1, 5 * s, 2 * s + 1);
    c->work_ops[OP_MULMOD] = l * s + leading + s;
    c->work_ops[OP_ADDMOD] = l * s + leading;
    c->work_ops[OP_PRIVATE] = l * (s + 4) + 4 * leading + 2 * s;
}

static kernel division_call(const char *name, const division_params *p)
{
    kernel k = {
        .name = (char *)name,
        .blocks = (long)thread_blocks(p),
        .threads = (int)p->l,
        .cost = {.span = span_per_block(p->s),
                 .work = work_per_block(p->s, p->l),
                 .reads = WORDS_READ_PER_THREAD,
                 .writes = WORDS_WRITTEN_PER_THREAD},
        .private_words = private_words(p),
    };
    set_classes(&k.cost, p->s, (int)p->l);
    return k;
}

static kernel_dag *build(const vars *params, const machine *m)
{
    division_params p;
    if (read_params(params, &p) < 0 || check_z(&p, m) < 0)
        return NULL;
    double calls = kernel_calls(&p);
    if (kernel_dag_check_count("plain-division", calls) < 0)
        return NULL;
    kernel_dag *dag = kernel_dag_new("plain-division");
    for (long c = 0; c < (long)calls; c++) {
        char name[48];
        snprintf(name, sizeof name, "division[%ld]", c);
        kernel k = division_call(name, &p);
        if (kernel_dag_chain(dag, &k) < 0) {
            kernel_dag_free(dag);
            return NULL;
        }
    }
    return dag;
}

/* Our closed forms (see the comment at the top): exact. */
static int closed_form_of(const vars *params, const machine *mach, closed_form *out)
{
    division_params p;
    if (read_params(params, &p) < 0)
        return -1;
    double L = kernel_calls(&p), K = thread_blocks(&p), U = mach->u;
    double words = WORDS_READ_PER_THREAD + WORDS_WRITTEN_PER_THREAD;
    out->L = L;
    out->N = L * K;
    out->W = out->N * work_per_block(p.s, p.l);
    out->S = L * span_per_block(p.s);
    out->O = words * U * out->N;
    out->C = span_per_block(p.s) + words * U;
    out->T = (out->N / K + out->L) * out->C;
    return 0;
}

const builtin_program program_plain_division = {
    .name = "plain-division",
    .summary = "plain division over Z/pZ, s steps per kernel call (tutorial; the ping-ping "
               "phase of thesis §4.3's Euclid kernel)",
    .defaults = "n=2000 m=0 d=500 s=16 l=0",
    .kernels = "programs/plain-division/kernels.c",
    .build = build,
    .closed_form = closed_form_of,
};
