/*
 * plain_division_exec.c — plain division over Z/pZ in exec mode: the
 * kernels of programs/plain_division.c run for real (sim/exec.h).
 *
 * Source: the model-mode program programs/plain_division.c (our kernel: the
 * ping-ping phase of the thesis' Euclid kernel OptGcdKer, thesis §4.3,
 * Algorithm 1 at line 1536, with the divisor b fixed; costs counted as the
 * Appendix B worksheet "Euclidean" counts them, line 4846: 3 operations per
 * coefficient, multiplication factor, multiplication, subtraction).
 *
 * a has m coefficients, b has n (m > n); a = q·b + r, deg r < n − 1.  The
 * host makes ⌈(m − n + 1)/s⌉ kernel calls "division[c]" of ⌈n/ℓ⌉ blocks of
 * ℓ threads (the model's grid); call c starts at the top position d =
 * m − 1 − cs of the remainder (kept in place in a) and makes σ = min(s,
 * steps left) division steps.  In a block, thread t:
 *   load      (t < σ) the leading coefficient lead[t] = a[d − t] and
 *             btop[t] = b[n − 1 − t]; (lane idx = bid·ℓ + t < n − 1) its own
 *             coefficient A[t] = a[d − σ − idx]; and 1 or 2 of the block's
 *             ℓ + σ coefficients of b, bwin[j] = b[n − 1 − bid·ℓ − j] (the
 *             steps multiply bwin[1 …] into the lanes; bwin[0] is loaded
 *             to keep the model's ℓ + s words, aligned with btop);
 *   step k    q = lead[k]·inv(lc b) (the multiplication factor, every
 *             thread computes it); thread k keeps q in lead[k] (the
 *             quotient coefficient); if k < t < σ, lead[t] −= q·btop[t − k];
 *             an active lane does A[t] −= q·bwin[t + σ − k];
 *   write     A[t] back to a; block 0, t < σ: the quotient coefficient t.
 * Each load and write step touches one kind of cell, so that the k-th
 * access of the threads of a warp is one instruction (the UMM rule grades
 * such rounds, sim/exec.h).  Blocks write disjoint cells of a and read no
 * cell another block writes, so the remainder stays in place.  The inverse
 * of b's leading coefficient is computed once by the host (as
 * cuda_ref/plain-division.cu does); the model counts no inverse either.
 *
 * Measured against declared (tests/test_exec_plain_division.c asserts each):
 *  - kernels, grids, threads, private memory (3s + 2ℓ words): equal.
 *  - α = 5, β = 2: equal (β = 1 outside block 0, which alone writes the
 *    quotient; the model charges every block the same O(B), as App. B's
 *    8U does).
 *  - arithmetic, with the worksheet's unit costs (exec_set_costs(run, 1,
 *    1)): a thread computes the multiplication factor once per step even
 *    when it updates two coefficients with it, so the span thread t = s − 1
 *    does s factors, s own updates and s − 1 leading ones: 3s + 2(s − 1) =
 *    5s − 2 operations, the model's S(B) = 6s − 3 less the s − 1 shared
 *    factors; a full block's arithmetic work is 3ℓs + s(s − 1), the
 *    model's 3ℓs + 3s(s − 1)/2 less the s(s − 1)/2 shared factors.
 *  - private-memory accesses, each a local operation in the MCM (SPEC §1)
 *    but not in the worksheet's count: per step a lane reads lead[k], reads
 *    A[t] and bwin, writes A[t] (4); a leading update reads two words and
 *    writes one (3); the loads write and the write-back reads.  The span
 *    thread makes 7s + 4 of them: S(B) = 12s + 2 with unit arithmetic
 *    (block 0: 12s + 3, it reads its quotient back), 50s − 12 with the
 *    default costs (5 per addition, 11 per multiplication: 43s − 16 of
 *    arithmetic); W(B) = ℓ(7s + 3) + 5s(s − 1)/2 + 4s (block 0: + s).
 *  - the last call makes σ = (m − n + 1) mod s steps when s does not
 *    divide m − n + 1 (the model charges it s), and the last block has
 *    n − 1 − (K − 1)ℓ active lanes, not ℓ: both cost less than declared.
 *  - O(B), measured from the addresses (UMM rule): a warp's 32 consecutive
 *    cells straddle two address groups unless they start at a multiple of
 *    32, and the leading coefficients and the quotient fill only s of the
 *    ℓ threads.  Where everything is aligned (32 | s, ℓ, n, m) a full
 *    block costs (3 + 3s/ℓ)U (4.5U for ℓ = 2s) against the paper's 7U.
 *
 * Params (as programs/plain_division.c): n, m (0: n + d), d, s, l (0: 2s).
 */
#include "exec_programs.h"
#include "fail.h"
#include "rng.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct division_params {
    long n, m, s, l;
} division_params;

static int param(const vars *params, const char *name, double *out)
{
    const double *v = vars_get(params, name);
    if (!v)
        return fail("program 'plain-division' (exec mode): param '%s' is missing", name);
    *out = *v;
    return 0;
}

static int whole(double x) { return x == floor(x); }

/* n, m, s, ℓ as programs/plain_division.c reads them: m = 0 means n + d,
 * l = 0 means 2s. */
static int read_params(const vars *params, const machine *mach, division_params *p)
{
    double n = 0, m = 0, d = 0, s = 0, l = 0;
    if (param(params, "n", &n) < 0 || param(params, "m", &m) < 0 || param(params, "d", &d) < 0 ||
        param(params, "s", &s) < 0 || param(params, "l", &l) < 0)
        return -1;
    if (m == 0)
        m = n + d;
    if (l == 0)
        l = 2 * s;
    if (!whole(n) || !whole(m) || !whole(s) || !whole(l) || n < 1 || m <= n || s < 1 || m > 1e9)
        return fail("program 'plain-division': needs whole m > n >= 1 and s >= 1 "
                    "(got n = %g, m = %g, s = %g)", n, m, s);
    if (l < s)
        return fail("program 'plain-division': needs s <= ℓ, one thread per leading "
                    "coefficient (s = %g, ℓ = %g)", s, l);
    if (3 * s + 2 * l > mach->z)
        return fail("program 'plain-division': constraint 3s + 2ℓ <= Z does not hold "
                    "(s = %g, ℓ = %g: %g > Z = %g)", s, l, 3 * s + 2 * l, mach->z);
    *p = (division_params){(long)n, (long)m, (long)s, (long)l};
    return 0;
}

/* ---- the kernel ------------------------------------------------------------ */

#define FIRST_STEP 3 /* three load steps, then the division steps */

typedef struct call_args {
    gmem a, b, q;       /* a: the remainder, in place; q: the quotient */
    long n, d;          /* size of b; top position of the remainder */
    long s, l, steps;   /* σ = steps <= s division steps in this call */
    word inv;           /* 1 / lc(b), from the host */
} call_args;

/* Private memory: lead[s], btop[s], A[ℓ], bwin[ℓ + s]: 3s + 2ℓ words. */
static long lead_at(const call_args *c, long i) { (void)c; return i; }
static long btop_at(const call_args *c, long i) { return c->s + i; }
static long own_at(const call_args *c, long t) { return 2 * c->s + t; }
static long bwin_at(const call_args *c, long j) { return 2 * c->s + c->l + j; }

/* Lane idx = bid·ℓ + t owns offset σ + idx below the top: a coefficient
 * the division steps change when idx < n − 1. */
static long lane(const exec_thread *t) { return t->bid * t->threads + t->tid; }
static int active(const exec_thread *t, const call_args *c) { return lane(t) < c->n - 1; }

/* The load and write steps touch one kind of cell each, so that the k-th
 * access of every thread of a warp is the same instruction: the UMM rule
 * grades each such round (sim/exec.h). */
static void load_leading(exec_thread *t, void *args)
{
    call_args *c = args;
    long i = t->tid;
    if (i < c->steps) {
        exec_pwrite(t, lead_at(c, i), exec_gread(t, c->a, c->d - i));
        exec_pwrite(t, btop_at(c, i), c->n - 1 - i >= 0 ? exec_gread(t, c->b, c->n - 1 - i) : 0);
    }
}

static void load_own(exec_thread *t, void *args)
{
    call_args *c = args;
    if (active(t, c))
        exec_pwrite(t, own_at(c, t->tid), exec_gread(t, c->a, c->d - c->steps - lane(t)));
}

/* bwin[j] = b[n − 1 − bid·ℓ − j], j < ℓ + σ: the coefficients of b that the
 * σ steps multiply into the block's lanes (bwin[0] is never used: the
 * model's ℓ + s words). */
static void load_divisor_window(exec_thread *t, void *args)
{
    call_args *c = args;
    for (long j = t->tid; j < c->l + c->steps; j += c->l) {
        long at = c->n - 1 - t->bid * c->l - j;
        exec_pwrite(t, bwin_at(c, j), at >= 0 ? exec_gread(t, c->b, at) : 0);
    }
}

/* Division step k: cancel the leading coefficient lead[k]. */
static void division_step(exec_thread *t, void *args)
{
    call_args *c = args;
    long k = t->step - FIRST_STEP, i = t->tid;
    int leading = k <= i && i < c->steps;
    if (k >= c->steps || !(active(t, c) || leading))
        return;
    word factor = exec_zp_mul(t, exec_pread(t, lead_at(c, k)), c->inv);
    if (i == k)
        exec_pwrite(t, lead_at(c, k), factor); /* the quotient coefficient */
    else if (leading) {
        word x = exec_pread(t, lead_at(c, i)), y = exec_pread(t, btop_at(c, i - k));
        exec_pwrite(t, lead_at(c, i), exec_zp_sub(t, x, exec_zp_mul(t, factor, y)));
    }
    if (active(t, c)) {
        word x = exec_pread(t, own_at(c, i)), y = exec_pread(t, bwin_at(c, i + c->steps - k));
        exec_pwrite(t, own_at(c, i), exec_zp_sub(t, x, exec_zp_mul(t, factor, y)));
    }
}

static void write_own(exec_thread *t, void *args)
{
    call_args *c = args;
    if (active(t, c))
        exec_gwrite(t, c->a, c->d - c->steps - lane(t), exec_pread(t, own_at(c, t->tid)));
}

static void write_quotient(exec_thread *t, void *args)
{
    call_args *c = args;
    long i = t->tid;
    if (t->bid == 0 && i < c->steps)
        exec_gwrite(t, c->q, c->d - i - (c->n - 1), exec_pread(t, lead_at(c, i)));
}

/* ---- host ------------------------------------------------------------------- */

static void fill_random(word *x, long size, uint64_t p, rng *g)
{
    for (long i = 0; i < size; i++)
        x[i] = 1 + rng_below(g, p - 1);
}

/* Serial long division: q (m − n + 1 coefficients) and r (n − 1), a = q·b + r. */
static void serial_division(const word *a, long m, const word *b, long n, uint64_t p, word *q, word *r)
{
    word *rem = malloc(sizeof *rem * (size_t)m);
    for (long i = 0; i < m; i++)
        rem[i] = a[i];
    word inv = zp_pow(p, b[n - 1], p - 2);
    for (long top = m - 1; top >= n - 1; top--) {
        word f = zp_mul(p, rem[top], inv);
        q[top - (n - 1)] = f;
        for (long j = 0; j < n; j++)
            rem[top - (n - 1) + j] = zp_sub(p, rem[top - (n - 1) + j], zp_mul(p, f, b[j]));
    }
    for (long i = 0; i < n - 1; i++)
        r[i] = rem[i];
    free(rem);
}

/* q·b + r == a, by the schoolbook product; the first wrong index or -1. */
static long check_identity(const word *a, long m, const word *b, long n, const word *q, const word *r,
                           uint64_t p)
{
    word *f = calloc((size_t)m, sizeof *f);
    for (long i = 0; i < m - n + 1; i++)
        for (long j = 0; j < n; j++)
            f[i + j] = zp_add(p, f[i + j], zp_mul(p, q[i], b[j]));
    long bad = -1;
    for (long i = 0; i < m && bad < 0; i++)
        if (zp_add(p, f[i], i < n - 1 ? r[i] : 0) != a[i])
            bad = i;
    free(f);
    return bad;
}

static long first_difference(const word *x, const word *y, long size)
{
    for (long i = 0; i < size; i++)
        if (x[i] != y[i])
            return i;
    return -1;
}

static int compare(const division_params *p, const word *a, const word *b, gmem q, gmem r, uint64_t prime)
{
    long nq = p->m - p->n + 1, nr = p->n - 1;
    word *q_ref = malloc(sizeof *q_ref * (size_t)nq), *r_ref = malloc(sizeof *r_ref * (size_t)(nr + 1));
    serial_division(a, p->m, b, p->n, prime, q_ref, r_ref);
    long bad_q = first_difference(q->cells, q_ref, nq), bad_r = first_difference(r->cells, r_ref, nr);
    long bad_identity = check_identity(a, p->m, b, p->n, q->cells, r->cells, prime);
    int rc = 0;
    if (bad_q >= 0)
        rc = fail("program 'plain-division' (exec mode): result differs from the serial reference: "
                  "quotient at index %ld (%llu, expected %llu)", bad_q,
                  (unsigned long long)q->cells[bad_q], (unsigned long long)q_ref[bad_q]);
    else if (bad_r >= 0)
        rc = fail("program 'plain-division' (exec mode): result differs from the serial reference: "
                  "remainder at index %ld (%llu, expected %llu)", bad_r,
                  (unsigned long long)r->cells[bad_r], (unsigned long long)r_ref[bad_r]);
    else if (bad_identity >= 0)
        rc = fail("program 'plain-division' (exec mode): result differs from the serial reference: "
                  "q·b + r differs from a at index %ld", bad_identity);
    free(q_ref);
    free(r_ref);
    return rc;
}

static int launch_calls(const division_params *p, exec_run *run, gmem a, gmem b, gmem q)
{
    uint64_t prime = exec_prime(run);
    long s = p->s, calls = (p->m - p->n + 1 + s - 1) / s, blocks = (p->n + p->l - 1) / p->l;
    exec_step *steps = malloc(sizeof *steps * (size_t)(s + FIRST_STEP + 2));
    steps[0] = load_leading;
    steps[1] = load_own;
    steps[2] = load_divisor_window;
    for (long k = 0; k < s; k++)
        steps[FIRST_STEP + k] = division_step;
    steps[FIRST_STEP + s] = write_own;
    steps[FIRST_STEP + s + 1] = write_quotient;
    call_args c = {.a = a, .b = b, .q = q, .n = p->n, .s = s, .l = p->l,
                   .inv = zp_pow(prime, b->cells[p->n - 1], prime - 2)};
    int rc = 0;
    for (long call = 0; call < calls && rc == 0; call++) {
        char name[48];
        snprintf(name, sizeof name, "division[%ld]", call);
        exec_kernel k = {name, (int)(s + FIRST_STEP + 2), steps, 3 * s + 2 * p->l};
        c.d = p->m - 1 - call * s;
        c.steps = p->m - p->n + 1 - call * s < s ? p->m - p->n + 1 - call * s : s;
        rc = exec_launch(run, &k, blocks, (int)p->l, &c);
    }
    free(steps);
    return rc;
}

static int host(const vars *params, const machine *mach, exec_run *run)
{
    division_params p = {0, 0, 0, 0};
    if (read_params(params, mach, &p) < 0)
        return -1;
    uint64_t prime = exec_prime(run);
    gmem a = exec_alloc(run, "a", p.m), b = exec_alloc(run, "b", p.n), q = exec_alloc(run, "q", p.m - p.n + 1);
    rng g;
    rng_seed(&g, mach->seed);
    fill_random(a->cells, p.m, prime, &g);
    fill_random(b->cells, p.n, prime, &g);
    word *a0 = malloc(sizeof *a0 * (size_t)p.m);
    for (long i = 0; i < p.m; i++)
        a0[i] = a->cells[i];
    int rc = launch_calls(&p, run, a, b, q);
    if (rc == 0)
        rc = compare(&p, a0, b->cells, q, a, prime);
    free(a0);
    return rc;
}

const exec_program exec_plain_division = {"plain-division", host};
