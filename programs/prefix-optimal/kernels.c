/*
 * kernels.c — the optimal two-stage prefix sums, its kernels written once
 * (sim/exec/mcm_kernel.h): mcmsim runs them in exec mode (`--exec`), nvcc
 * builds them for the card (cuda_ref/run-all.sh, case prefix-optimal).
 * The model a student computes, with its closed forms, is model.c.
 *
 * The algorithm of the DMM/UMM chapter, §7, n = 2^m, arrays a_t of 2^t
 * numbers, the input a_m:
 *   stage 1 (interval sums), t = m−1 downto 0, i < 2^t:
 *       a_t[i] ← a_{t+1}[2i] + a_{t+1}[2i+1]                      kernel interval_sum
 *   stage 2 (sums of interval sums), t = 0 to m−1, i < 2^t:
 *       a_{t+1}[2i+1] ← a_t[i]
 *       a_{t+1}[2i+2] ← a_{t+1}[2i+2] + a_t[i]   (i < 2^t − 1)    kernel copy_add
 * one kernel per step, 2^t threads in ⌈2^t/ℓ⌉ blocks of ℓ: 2m kernels.
 * Layout (the card's): a_0 .. a_{m−1} live in one array `levels` of n − 1
 * words, a_t at offset 2^t − 1; the input, `in`, is never written: the
 * last step of stage 2 reads a_m from it and writes the prefix sums to
 * `out`, its thread 0 copying a_m[0] there too (every copy_add's thread 0
 * copies a_{t+1}[0], onto itself before the last step).  That copy comes
 * last in thread 0's step, so that each round of a warp is one kind of
 * access (sim/exec/exec.h).  Numbers are 32-bit words added with wrap-around,
 * one operation each; index arithmetic is not counted, as in the model.
 *
 * Measured costs against model.c's declared ones (test_exec_prefix_optimal.c
 * asserts each of these exactly):
 *   - grids, threads and the number of kernels (2 log n): equal; each
 *     launch is named after its kernel, "interval_sum" and "copy_add"
 *     (the model: "interval-sum[t]" and "copy-add[t]").
 *   - S(B) = 1 (0 in copy-add[0], which only copies): equal.
 *   - W(B): interval-sum: equal (its adders, ℓ in a full block).  copy-add:
 *     model.c spreads the kernel's 2^t − 1 additions evenly over its
 *     blocks; a block measures its own (ℓ, ℓ − 1 in the last).  Each
 *     kernel's total is equal.
 *   - α, β: interval-sum 2, 1: equal.  copy-add: 2, 2 declared; measured
 *     3, 3 from t = 1 on (thread 0 also copies a_{t+1}[0]), 2, 2 at t = 0.
 *   - O(B): model.c declares every access coalesced (the chapter:
 *     "essentially contiguous"): 3U and 4U a block.  Measured by the UMM
 *     rule (a round of a warp costs w/ℓ·U per address group it touches),
 *     with the card's layout: a_t at 2^t − 1 starts one word before a
 *     group boundary once 2^t >= w, so a contiguous round of a warp there
 *     touches 2 groups and a stride-2 round 3 (or 2, starting on the
 *     boundary's far side).  A full block, w = 32, ℓ a multiple of w:
 *       interval-sum, t < m−1:   reads 3 + 2, write 2   →  7U (declared 3U)
 *       interval-sum, t = m−1:   reads 2 + 2 (`in`, aligned), write 2  →  6U
 *       copy-add, t < m−1:       reads 2 + 2, writes 2 + 2  →  8U (declared 4U)
 *       copy-add, t = m−1:       reads 2 + 3, writes 2 + 3 (`out`, aligned)  →  10U
 *     plus, in block 0, thread 0's copy: one group read and one written
 *     (2·w/ℓ·U); the last block of a copy-add kernel, whose last thread does
 *     not add, pays one group less in each round of a_{t+1}[2i+2] where
 *     that round ends on a group boundary (at t = m−1); blocks of fewer
 *     than ℓ/w active warps (2^t < ℓ) cost less, the model charging a block
 *     for its ℓ threads whatever they do.  With n <= ℓ = w every array
 *     lies in one group: each round costs U, so only copy-add from t = 1 on
 *     differs, 6U against the declared 4U.
 *
 * Params: n (a power of two, n = 2^m >= 2, as model.c), l (threads per
 * block, ℓ).  The model's Z constraint (4ℓ <= Z) is the model's own: the
 * kernels keep their words in registers.  The check: the serial inclusive
 * scan, mod 2^32 (../scan_reference.h, shared with prefix-naive).
 */
#include "mcm_kernel.h"
#include "../common/scan_reference.h"

#include <math.h>

/* Step t of either stage: a_t is lower[lower_at ..] (2^t = count numbers);
 * a_{t+1} is read from upper_in[upper_in_at ..] and, in stage 2, written
 * to upper_out[upper_out_at ..]. */
typedef struct level_args {
    gmem lower;
    long lower_at;
    gmem upper_in;
    long upper_in_at;
    gmem upper_out;
    long upper_out_at;
    long count;
} level_args;

/* Stage 1: a_t[i] ← a_{t+1}[2i] + a_{t+1}[2i+1]. */
MCM_STEP(add_pair, level_args, a)
{
    long i = t->bid * t->threads + t->tid;
    if (i >= a->count)
        return; /* past 2^t, in a block of 2^t < ℓ threads */
    word left = exec_gread(t, a->upper_in, a->upper_in_at + 2 * i);
    word right = exec_gread(t, a->upper_in, a->upper_in_at + 2 * i + 1);
    exec_ops(t, 1); /* one addition mod 2^32 */
    exec_gwrite(t, a->lower, a->lower_at + i, (uint32_t)(left + right));
}

/* Stage 2: a_{t+1}[2i+1] ← a_t[i]; a_{t+1}[2i+2] += a_t[i] (i < 2^t − 1);
 * thread 0 also copies a_{t+1}[0]. */
MCM_STEP(copy_and_add, level_args, a)
{
    long i = t->bid * t->threads + t->tid;
    if (i >= a->count)
        return;
    word interval = exec_gread(t, a->lower, a->lower_at + i);
    exec_gwrite(t, a->upper_out, a->upper_out_at + 2 * i + 1, interval);
    if (i < a->count - 1) {
        word next = exec_gread(t, a->upper_in, a->upper_in_at + 2 * i + 2);
        exec_ops(t, 1); /* one addition mod 2^32 */
        exec_gwrite(t, a->upper_out, a->upper_out_at + 2 * i + 2, (uint32_t)(next + interval));
    }
    if (i == 0)
        exec_gwrite(t, a->upper_out, a->upper_out_at, exec_gread(t, a->upper_in, a->upper_in_at));
}

MCM_KERNEL(interval_sum, level_args, add_pair);
MCM_KERNEL(copy_add, level_args, copy_and_add);

static gmem input, levels, output;
static long n;
static int log_n, l;

static int setup(exec_run *run, const mcm_params *p)
{
    double n_value = mcm_param(p, "n", 1 << 20), l_value = mcm_param(p, "l", 256);
    if (n_value < 2 || n_value != floor(n_value) || l_value < 1 || l_value != floor(l_value))
        return mcm_fail("prefix-optimal: needs whole n >= 2 and l >= 1 (got n = %g, l = %g)", n_value, l_value);
    if (n_value > exp2(40) || exp2(floor(log2(n_value))) != n_value)
        return mcm_fail("prefix-optimal: n must be a power of two, n = 2^m (got n = %g)", n_value);
    n = (long)n_value;
    l = (int)l_value;
    log_n = (int)log2(n_value);
    input = mcm_alloc(run, "in", n);
    levels = mcm_alloc(run, "levels", n - 1); /* a_t at 2^t − 1, t < m */
    output = mcm_alloc(run, "out", n);
    uint64_t state = mcm_seed(p);
    for (long i = 0; i < n; i++)
        mcm_set(input, i, 1 + mcm_random(&state) % 0xFFFFFFFFu);
    return 0;
}

/* Step t of a stage: a_t in `levels`, a_{t+1} in `levels` but at t = m−1,
 * where it is the input (read) and the output (written). */
static int launch_level(exec_run *run, const mcm_kernel *k, int t)
{
    int last = t == log_n - 1;
    level_args a = {levels, (1L << t) - 1,
                    last ? input : levels, last ? 0 : (2L << t) - 1,
                    last ? output : levels, last ? 0 : (2L << t) - 1,
                    1L << t};
    return mcm_launch(run, k, (a.count + l - 1) / l, l, 0, &a);
}

static int launches(exec_run *run)
{
    for (int t = log_n - 1; t >= 0; t--)
        if (launch_level(run, &interval_sum, t) < 0)
            return -1;
    for (int t = 0; t < log_n; t++)
        if (launch_level(run, &copy_add, t) < 0)
            return -1;
    return 0;
}

/* The serial inclusive scan of the input, mod 2^32 (../scan_reference.h). */
static int check(exec_run *run)
{
    (void)run;
    return scan_check("prefix-optimal", input, output, n);
}

MCM_PROGRAM("prefix-optimal", setup, launches, check);
