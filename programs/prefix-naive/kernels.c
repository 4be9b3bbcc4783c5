/*
 * kernels.c — the simple (Hillis–Steele) prefix sums, its kernels written
 * once (sim/exec/mcm_kernel.h): mcmsim runs them in exec mode (`--exec`), nvcc
 * builds them for the card (cuda_ref/run-all.sh, case prefix-naive).  The
 * model a student computes, with its closed forms, is model.c.
 *
 * The algorithm of the DMM/UMM chapter, §6: for t = 0 .. ⌈log n⌉ − 1, with
 * d = 2^t, a[i] ← a[i] + a[i − d] for every i >= d, all at once.  The
 * chapter's step is synchronous (every thread reads the old a) and blocks
 * of one kernel do not wait for each other, so a kernel works out of place:
 * kernel `step` has n threads in ⌈n/ℓ⌉ blocks of ℓ, thread i < n reads
 * in[i], and when i >= d also in[i − d] and adds; it writes out[i].  The
 * first kernel reads the input, which no kernel writes; the others read
 * what the kernel before wrote, the two work arrays taking turns.  Numbers
 * are 32-bit words added with wrap-around, one operation each; index
 * arithmetic is not counted, as in the model.
 *
 * Measured costs against model.c's declared ones (test_exec_prefix_naive.c
 * asserts each of these exactly):
 *   - grids, threads and the number of kernels (⌈log n⌉): equal; each
 *     launch is named after its kernel, "step" (the model: "step[t]").
 *   - α = 2, β = 1 (the most words of one thread): equal.
 *   - S(B) = 1: equal, but in a block whose threads all copy (i < d: the
 *     first ⌊d/ℓ⌋ blocks of kernel t), which measures S = W = 0.
 *   - W(B): model.c spreads the kernel's n − d additions evenly over its
 *     blocks; a block measures its own adders.  Each kernel's total is
 *     equal.
 *   - O(B): model.c declares 3U per block (every access coalesced).
 *     Measured by the UMM rule (sim/exec/exec.c): a round of a warp costs w/ℓ·U
 *     per address group it touches; in[i] and out[i] are one group per
 *     warp.  So 3U for a full block of adders when w | d; 2U for a full
 *     block of copies; 4U for a full block of adders when w ∤ d (in[i − d]
 *     straddles two groups per warp: the UMM's price of an access off a
 *     group boundary, which model.c's DMM/UMM note describes too); less in
 *     a block across i = d or a last partial block (fewer active warps in
 *     a round).  With n <= ℓ <= w (one block of one warp per kernel) every
 *     cost is equal.
 *
 * Params: n (numbers, whole, >= 2), l (threads per block, ℓ).  Any n works
 * (⌈log n⌉ kernels), as in model.c.  The model's Z constraint (3ℓ <= Z)
 * is the model's own: the kernels keep their words in registers.  The
 * check: the serial inclusive scan, mod 2^32 (../scan_reference.h, shared
 * with prefix-optimal).
 */
#include "mcm_kernel.h"
#include "../common/scan_reference.h"

#include <math.h>

typedef struct step_args {
    gmem in, out;
    long n;
    long distance; /* d = 2^t */
} step_args;

/* out[i] ← in[i] + in[i − d] (i >= d), out[i] ← in[i] (i < d) */
MCM_STEP(add_at_distance, step_args, s)
{
    long i = t->bid * t->threads + t->tid;
    if (i >= s->n)
        return; /* past the last number, in a last partial block */
    word x = exec_gread(t, s->in, i);
    if (i >= s->distance) {
        word y = exec_gread(t, s->in, i - s->distance);
        exec_ops(t, 1); /* one addition mod 2^32 */
        x = (uint32_t)(x + y);
    }
    exec_gwrite(t, s->out, i, x);
}

MCM_KERNEL(step, step_args, add_at_distance);

static gmem input, work[2], result;
static long n;
static int l;

static int setup(exec_run *run, const mcm_params *p)
{
    double n_value = mcm_param(p, "n", 1 << 20), l_value = mcm_param(p, "l", 256);
    if (n_value < 2 || n_value != floor(n_value) || l_value < 1 || l_value != floor(l_value))
        return mcm_fail("prefix-naive: needs whole n >= 2 and l >= 1 (got n = %g, l = %g)", n_value, l_value);
    n = (long)n_value;
    l = (int)l_value;
    input = mcm_alloc(run, "in", n);
    work[0] = mcm_alloc(run, "work0", n);
    work[1] = mcm_alloc(run, "work1", n);
    uint64_t state = mcm_seed(p);
    for (long i = 0; i < n; i++)
        mcm_set(input, i, 1 + mcm_random(&state) % 0xFFFFFFFFu);
    int kernels = 0;
    for (long d = 1; d < n; d *= 2)
        kernels++;
    result = work[(kernels - 1) % 2]; /* kernel k writes work[k % 2] */
    return 0;
}

static int launches(exec_run *run)
{
    gmem from = input;
    int k = 0;
    for (long d = 1; d < n; d *= 2, k++) {
        step_args s = {from, work[k % 2], n, d};
        if (mcm_launch(run, &step, (n + l - 1) / l, l, 0, &s) < 0)
            return -1;
        from = s.out;
    }
    return 0;
}

/* The serial inclusive scan of the input, mod 2^32 (../scan_reference.h). */
static int check(exec_run *run)
{
    (void)run;
    return scan_check("prefix-naive", input, result, n);
}

MCM_PROGRAM("prefix-naive", setup, launches, check);
