/*
 * kernels.c — plain division of polynomials over Z/pZ with parameter s, its
 * kernels written once (sim/exec/mcm_kernel.h): mcmsim runs them in exec mode
 * (`--exec`), nvcc builds them for the card (cuda_ref/run-all.sh, case
 * plain-division).  The model a student computes, with its closed forms, is
 * model.c.
 *
 * The divisor b has degree n (n + 1 coefficients, b[n] != 0), the dividend
 * a has m coefficients (degree m − 1, m > n): the quotient has m − n
 * coefficients, one a division step, and the remainder n.  One launch of
 * kernel `division` makes up to s steps: ⌈(m − n)/s⌉ launches of ⌈n/ℓ⌉
 * blocks, the grid of SPEC §2 (ℓ = 2s by default).  In the launch whose
 * top position is d (d = m − 1 − done), every block loads the `steps`
 * leading coefficients r[d − j] of the remainder and b[n − j] of b (j <
 * steps), and the window of b its lanes need; it recomputes the quotient
 * coefficients itself, one after another (thread 0 makes q_j = r[d − j]/b[n],
 * then threads j < t < steps take q_j·b[n − (t − j)] off their leading
 * coefficient: two barriers a step); then lane idx (< n) takes
 * Σ_j q_j·b[n − steps − idx + j] off position d − steps − idx, and block 0
 * writes the quotient coefficients.  The remainder is updated in place:
 * the lanes write only below the positions every block reads.  1/b[n] is
 * made on the host, in setup.  This is the algorithm, the launches, the
 * private memory (5s + ℓ words) and the arithmetic (Barrett Z/pZ,
 * p = 469762049) of cuda_ref's kernel (the former cuda_ref/plain-division.cu);
 * its 2·steps + 2 synchronous steps are the schedule of one kernel
 * (MCM_KERNEL_SCHEDULE: the hand-written kernel's own loop, a barrier
 * after each step).
 *
 * One kernel fewer than model.c where s | m − n.  model.c reads n as the
 * number of coefficients of b and so makes m − n + 1 steps, ⌈(m − n + 1)/s⌉
 * calls; cuda_ref reads n as b's degree (SPEC's ⌈(m − n)/s⌉ calls), and so
 * do these kernels, which the card times at the params of model.c's rows.
 * model.c's grid, ⌈n/ℓ⌉ blocks for "the n coefficients of a just below its
 * s leading ones", is the card's reading: with b of n coefficients, s steps
 * change only n − 1 coefficients below the leading ones.  So model.c mixes
 * the two readings, and at the card's params it counts one call more than
 * the card runs where s | m − n (501 against 500 at s = 1, m − n = 500).
 *
 * Measured costs against model.c's declared ones (test_exec_plain_division.c
 * asserts each of these exactly, and every block's figures against an
 * independent count):
 *   - launches: ⌈(m − n)/s⌉, model.c ⌈(m − n + 1)/s⌉ (above); each launch
 *     named after its kernel, "division" (model.c: "division[c]"); grids
 *     and threads equal (the last launch, of fewer steps, is as wide).
 *     Private memory 5s + ℓ words, cuda_ref's, where model.c declares
 *     3s + 2ℓ: equal at ℓ = 2s.
 *   - S(B), W(B): model.c counts 3 unit operations a coefficient and step
 *     (the factor, the multiplication, the subtraction): S(B) = 6s − 3.
 *     Exec mode charges a Z/pZ multiplication 11, a subtraction 5 and a
 *     private-memory access 1 (sim/exec/exec.h), and the factor q_j is made
 *     once a block, by thread 0: an update of a leading coefficient costs
 *     16 and 4 private accesses, a lane's term 16 and 2, the factor 11 and
 *     2.  So, for s >= 4, thread s − 1 of a block whose lanes all take s
 *     terms measures (s − 1)·20 + 18s + 3 = 38s − 17 (one more in block 0,
 *     which reads its quotient coefficient back to write it), against
 *     6s − 3; W(B) the same way, thread by thread.
 *   - α, β: model.c declares 5 and 2.  Measured: a thread reads its
 *     leading coefficient and b's (t < steps), one or two words of b's
 *     window and its lane's coefficient: up to 5 words, as declared; it
 *     writes its coefficient, and in block 0 a quotient coefficient: 2.
 *   - O(B): model.c declares 7U.  Measured by the UMM rule (a round of a
 *     warp costs w/ℓ·U per address group it touches): the rounds of the
 *     leading coefficients, of b's window and of the lanes' coefficients
 *     are consecutive words (the first and the last descending), one or
 *     two groups each; in a warp's first round its threads below `steps`
 *     read the remainder, the others b's window.  At n = 2000, m = 2500,
 *     s = 16, ℓ = w = 32 a block of the first launch reads 9U (r's leading
 *     words 2 groups beside the window's 2, b's leading words 1, the
 *     window's two more rounds 1 and 1, the lanes' coefficients 2) and
 *     writes 2U, 3U in block 0 (its quotient coefficients): 11U and 12U
 *     against 7U.
 *
 * Params (model.c's, asked in the order of the card's rows): n (b's
 * degree; model.c's b has n coefficients, above), m (a's coefficients;
 * m = 0 means n + d), d (m − n, asked only when m = 0), l (ℓ; l = 0 means
 * 2s), s.  Needs m > n >= 1, 1 <= s <= ℓ.
 */
#include "mcm_kernel.h"

#include <math.h>
#include <stdlib.h>

#define PRIME 469762049u

typedef struct division_args {
    gmem r, b, q; /* the remainder (a, in place), the divisor, the quotient */
    long n, d;    /* b's degree; the top position of this launch */
    int s, steps; /* steps <= s division steps in this launch */
    word inverse; /* 1/b[n] */
} division_args;

/* Private memory: lead[s], btop[s], qs[s], then b's window of ℓ + steps − 1. */
static MCM_DEVICE long lead_slot(long j) { return j; }
static MCM_DEVICE long btop_slot(int s, long j) { return s + j; }
static MCM_DEVICE long q_slot(int s, long j) { return 2L * s + j; }
static MCM_DEVICE long window_slot(int s, long w) { return 3L * s + w; }

/* The lowest coefficient of b in the block's window. */
static MCM_DEVICE long window_low(const exec_thread *t, const division_args *a)
{
    return a->n - a->steps - (t->bid * t->threads + t->threads - 1);
}

/* Step 0: the leading coefficients of r and b, and b's window. */
static MCM_DEVICE void load(exec_thread *t, division_args *a)
{
    const int l = t->threads, tid = t->tid;
    const long low = window_low(t, a);
    if (tid < a->steps) {
        exec_pwrite(t, lead_slot(tid), exec_gread(t, a->r, a->d - tid));
        exec_pwrite(t, btop_slot(a->s, tid), a->n - tid >= 0 ? exec_gread(t, a->b, a->n - tid) : 0);
    }
    for (long w = tid; w < l + a->steps - 1; w += l)
        exec_pwrite(t, window_slot(a->s, w), low + w >= 0 ? exec_gread(t, a->b, low + w) : 0);
}

/* Step 2j + 1: thread 0 makes q_j; step 2j + 2: the leading coefficients
 * below j lose q_j times b. */
static MCM_DEVICE void quotient_step(exec_thread *t, division_args *a, int j, int makes_factor)
{
    const int tid = t->tid, s = a->s;
    if (makes_factor) {
        if (tid == 0)
            exec_pwrite(t, q_slot(s, j), exec_zp_mul(t, exec_pread(t, lead_slot(j)), a->inverse));
    } else if (tid > j && tid < a->steps) {
        word product = exec_zp_mul(t, exec_pread(t, q_slot(s, j)), exec_pread(t, btop_slot(s, tid - j)));
        exec_pwrite(t, lead_slot(tid), exec_zp_sub(t, exec_pread(t, lead_slot(tid)), product));
    }
}

/* The last step: the lane's coefficient below the leading ones, and block
 * 0's quotient coefficients. */
static MCM_DEVICE void update(exec_thread *t, division_args *a)
{
    const int l = t->threads, tid = t->tid, s = a->s;
    const long idx = t->bid * l + tid, at = a->d - a->steps - idx, low = window_low(t, a);
    if (idx < a->n && at >= 0) {
        word v = exec_gread(t, a->r, at);
        for (int j = 0; j < a->steps; j++) {
            long bi = a->n - a->steps - idx + j;
            if (bi >= 0)
                v = exec_zp_sub(t, v, exec_zp_mul(t, exec_pread(t, q_slot(s, j)), exec_pread(t, window_slot(s, bi - low))));
        }
        exec_gwrite(t, a->r, at, v);
    }
    if (t->bid == 0 && tid < a->steps)
        exec_gwrite(t, a->q, a->d - a->n - tid, exec_pread(t, q_slot(s, tid)));
}

MCM_STEP(load_step, division_args, a) { load(t, a); }
MCM_STEP(factor_step, division_args, a) { quotient_step(t, a, t->step, 1); }
MCM_STEP(reduce_step, division_args, a) { quotient_step(t, a, t->step, 0); }
MCM_STEP(update_step, division_args, a) { update(t, a); }

/* The launch's steps: the load, then each division step's factor and its
 * reduction of the leading coefficients (t->step = j), then the update. */
MCM_KERNEL_SCHEDULE(division, division_args, a, sched)
{
    mcm_step(sched, load_step, 0);
    for (int j = 0; j < a->steps; j++) {
        mcm_step(sched, factor_step, j);
        mcm_step(sched, reduce_step, j);
    }
    mcm_step(sched, update_step, 0);
}

static gmem r, b, q;
static long n, m;
static int s, l;
static word inverse;
static word *dividend; /* a as setup made it, for the check */

static int setup(exec_run *run, const mcm_params *p)
{
    double vn = mcm_param(p, "n", 2000), vm = mcm_param(p, "m", 0);
    if (vm == 0)
        vm = vn + mcm_param(p, "d", 500);
    double vl = mcm_param(p, "l", 0), vs = mcm_param(p, "s", 16);
    if (vl == 0)
        vl = 2 * vs;
    if (vn != floor(vn) || vm != floor(vm) || vs != floor(vs) || vl != floor(vl) || vn < 1 || vm <= vn ||
        vm > 1e8 || vs < 1 || vl < vs)
        return mcm_fail("plain-division: needs whole m > n >= 1 and 1 <= s <= l (got n = %g, m = %g, l = %g, "
                        "s = %g)", vn, vm, vl, vs);
    n = (long)vn;
    m = (long)vm;
    s = (int)vs;
    l = (int)vl;
    r = mcm_alloc(run, "r", m);
    b = mcm_alloc(run, "b", n + 1);
    q = mcm_alloc(run, "q", m - n);
    free(dividend);
    dividend = (word *)malloc(sizeof *dividend * (size_t)m);
    if (!dividend)
        return mcm_fail("plain-division: no memory for a copy of the dividend");
    uint64_t state = mcm_seed(p);
    for (long i = 0; i < m; i++)
        mcm_set(r, i, dividend[i] = mcm_random(&state) % PRIME);
    for (long i = 0; i < n; i++)
        mcm_set(b, i, mcm_random(&state) % PRIME);
    word lead = 1 + mcm_random(&state) % (PRIME - 1);
    mcm_set(b, n, lead);
    inverse = zp_pow(PRIME, lead, PRIME - 2);
    return 0;
}

static int launches(exec_run *run)
{
    for (long done = 0; done < m - n; done += s) {
        division_args a = {r, b, q, n, m - 1 - done, s, (int)(m - n - done < s ? m - n - done : s), inverse};
        if (mcm_launch(run, &division, (n + l - 1) / l, l, 5L * s + l, &a) < 0)
            return -1;
    }
    return 0;
}

/* Division with remainder is unique (deg r < deg b): q and r are right
 * when q·b + r = a, the product made serially, its sums of products
 * reduced every 63 terms (a product is below p² < 2^58). */
static int check(exec_run *run)
{
    (void)run;
    word *quotient = (word *)malloc(sizeof *quotient * (size_t)(m - n));
    word *divisor = (word *)malloc(sizeof *divisor * (size_t)(n + 1));
    if (!quotient || !divisor) {
        free(quotient);
        free(divisor);
        return mcm_fail("plain-division: no memory for the serial product");
    }
    for (long i = 0; i < m - n; i++)
        quotient[i] = mcm_get(q, i);
    for (long i = 0; i <= n; i++)
        divisor[i] = mcm_get(b, i);
    int rc = 0;
    for (long i = 0; i < m && rc == 0; i++) {
        word sum = i < n ? mcm_get(r, i) : 0;
        int terms = 0;
        for (long j = i - n > 0 ? i - n : 0; j < m - n && j <= i; j++) {
            sum += quotient[j] * divisor[i - j];
            if (++terms == 63) {
                sum %= PRIME;
                terms = 0;
            }
        }
        if (sum % PRIME != dividend[i])
            rc = mcm_fail("plain-division: q·b + r differs from a at coefficient %ld: %llu, a has %llu", i,
                          (unsigned long long)(sum % PRIME), (unsigned long long)dividend[i]);
    }
    free(quotient);
    free(divisor);
    return rc;
}

MCM_PROGRAM("plain-division", setup, launches, check);
