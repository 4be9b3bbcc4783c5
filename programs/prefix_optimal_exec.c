/*
 * prefix_optimal_exec.c — the optimal two-stage prefix sums in exec mode:
 * the kernels of programs/prefix_optimal.c run for real on simulated
 * global memory (sim/exec.h).
 *
 * Source: the DMM/UMM chapter (dmm-umm-chapter.txt), §7 "An Optimal
 * Prefix-Sum Algorithm" (lines 159–195), n = 2^m, work arrays a_t of 2^t
 * numbers, the input in a_m:
 *
 *   stage 1 (line 163), t = m−1 downto 0, i < 2^t:
 *       a_t[i] ← a_{t+1}[2i] + a_{t+1}[2i+1]                       "interval-sum"
 *   stage 2 (line 171), t = 0 to m−1:
 *       a_{t+1}[2i+1] ← a_t[i]                  i < 2^t            "copy"
 *       a_{t+1}[2i+2] ← a_{t+1}[2i+2] + a_t[i]  i < 2^t − 1        "add"
 *
 * After stage 1, a_t[i] is the sum of the i-th of 2^t intervals of the
 * input; stage 2 turns each a_{t+1} into prefix sums of its intervals, and
 * a_m into the inclusive prefix sums.  No MCM paper treats this algorithm
 * and the thesis has no Appendix B worksheet for it; the model-mode costs
 * are programs/prefix_optimal.c's own.
 *
 * Kernels: the same as prefix_optimal.c, 2 log n in a chain: kernel
 * interval-sum[t] (t = m−1 .. 0), then copy-add[t] (t = 0 .. m−1), each of
 * 2^t threads in ⌈2^t/ℓ⌉ blocks of ℓ threads; thread i does the lines
 * above for its i, in one synchronous step (it reads a_t[i], then
 * a_{t+1}[2i+2]; writes a_{t+1}[2i+1], then a_{t+1}[2i+2]).  Each a_t is a
 * global array of its own (a_t[k] in cell k), so every array starts on an
 * address-group boundary; stage 2 works in place on a_m, the input.
 *
 * Arithmetic: additions of 32-bit unsigned words with wrap-around (mod
 * 2^32), one local operation each, as prefix_optimal.c counts W(B) = its
 * additions and S(B) = 1 (0 for copy-add[0], which only copies).  Index
 * arithmetic is not counted.  Numbers random in [1, 2^32), seeded by the
 * machine's seed; checked against the serial inclusive scan mod 2^32.
 *
 * Measured costs against prefix_optimal.c's declared ones
 * (tests/test_exec_prefix.c asserts each of these exactly):
 *   - grids, threads, kernel names and the number of kernels: equal.
 *   - S(B): equal everywhere (1; 0 in copy-add[0]).
 *   - W(B): interval-sum: equal (2^t additions, ℓ per full block).
 *     copy-add: the model spreads the kernel's 2^t − 1 additions evenly; a
 *     block measures its own (ℓ, and ℓ − 1 in the last block).  Totals
 *     equal.
 *   - α/β: equal (2/1 and 2/2), except copy-add[0]: its one thread reads 1
 *     word and writes 1 (declared 2/2).
 *   - O(B): prefix_optimal.c declares every access coalesced (the chapter:
 *     "essentially contiguous", line 182): 3U and 4U.  The UMM rule counts
 *     a warp's every-other-cell round as 2 address groups, and a round of
 *     cells 2i+2 (64a+2 .. 64a+64 for the warp of i = 32a ..) as 3.  A full
 *     block (ℓ a multiple of w) measures:
 *       interval-sum: reads 2 + 2 groups, write 1  →  5U  (declared 3U);
 *       copy-add:     reads 1 + 3, writes 2 + 3    →  9U  (declared 4U);
 *     the last block of a copy-add kernel pays one group less in each
 *     2i+2 round (its last thread does not add); blocks with fewer than
 *     ℓ/w active warps (2^t < ℓ) cost less, the model charging a block
 *     for its ℓ threads whatever they do.  With n <= ℓ = w every round is
 *     one group: only copy-add[0] differs (2U, declared 4U).  The
 *     constant factor the chapter allows is here 5/3 and 9/4.
 *
 * Params (as prefix_optimal.c): n (a power of two, n = 2^m >= 2), l (ℓ).
 * Z constraint 4ℓ <= Z, checked with prefix_optimal.c's function.  The
 * kernels use no private memory.
 */
#include "exec_programs.h"
#include "rng.h"
#include "scan_exec.h"
#include "fail.h"
#include "sum_prefix.h"

#include <stdio.h>
#include <stdlib.h>

#define STAGE2_WORDS_PER_THREAD 4 /* α + β of copy-add, as prefix_optimal.c */
#define MAX_LOG_N 48

/* Step t of either stage: `lower` is a_t (2^t numbers), `upper` a_{t+1}. */
typedef struct level_args {
    gmem lower, upper;
} level_args;

/* Stage 1: a_t[i] ← a_{t+1}[2i] + a_{t+1}[2i+1]. */
static void interval_sum(exec_thread *t, void *args)
{
    const level_args *a = args;
    long i = t->bid * t->threads + t->tid;
    if (i >= a->lower->size)
        return; /* past 2^t, in a block of 2^t < ℓ threads */
    word left = exec_gread(t, a->upper, 2 * i);
    word right = exec_gread(t, a->upper, 2 * i + 1);
    exec_ops(t, 1); /* one addition mod 2^32 */
    exec_gwrite(t, a->lower, i, (uint32_t)(left + right));
}

/* Stage 2: a_{t+1}[2i+1] ← a_t[i]; a_{t+1}[2i+2] += a_t[i] (i < 2^t − 1). */
static void copy_add(exec_thread *t, void *args)
{
    const level_args *a = args;
    long i = t->bid * t->threads + t->tid, last = a->lower->size - 1;
    if (i > last)
        return;
    word interval = exec_gread(t, a->lower, i);
    word next = i < last ? exec_gread(t, a->upper, 2 * i + 2) : 0;
    exec_gwrite(t, a->upper, 2 * i + 1, interval);
    if (i < last) {
        exec_ops(t, 1); /* one addition mod 2^32 */
        exec_gwrite(t, a->upper, 2 * i + 2, (uint32_t)(next + interval));
    }
}

static const exec_step interval_steps[] = {interval_sum};
static const exec_step copy_add_steps[] = {copy_add};

static int read_params(const vars *params, const machine *m, double *n, double *l)
{
    if (!vars_get(params, "n") || !vars_get(params, "l"))
        return fail("program 'prefix-optimal' (exec mode): needs the params n and l");
    if (sum_prefix_params("prefix-optimal", params, n, l) < 0)
        return -1;
    if (!is_power_of_two(*n) || *n > exp2(MAX_LOG_N))
        return fail("program 'prefix-optimal': n must be a power of two, n = 2^m (got n = %g)", *n);
    return sum_prefix_z_check("prefix-optimal", STAGE2_WORDS_PER_THREAD, *l, m);
}

/* Kernel `stage`[t] on a_t and a_{t+1}: 2^t threads. */
static int launch_level(exec_run *run, const char *stage, const exec_step *steps, int t, gmem *a, int l)
{
    char name[48];
    snprintf(name, sizeof name, "%s[%d]", stage, t);
    level_args args = {a[t], a[t + 1]};
    exec_kernel k = {name, 1, steps, 0};
    return exec_launch(run, &k, ((1L << t) + l - 1) / l, l, &args);
}

static int host(const vars *params, const machine *m, exec_run *run)
{
    double n_value = 0, l_value = 0;
    if (read_params(params, m, &n_value, &l_value) < 0)
        return -1;
    long n = (long)n_value;
    int log_n = (int)log2(n_value), l = (int)l_value;
    gmem a[MAX_LOG_N + 1];
    for (int t = 0; t <= log_n; t++) {
        char name[16];
        snprintf(name, sizeof name, "a%d", t);
        a[t] = exec_alloc(run, name, 1L << t);
    }
    word *input = malloc(sizeof *input * (size_t)n);
    rng state;
    rng_seed(&state, m->seed);
    for (long i = 0; i < n; i++)
        input[i] = a[log_n]->cells[i] = 1 + rng_next(&state) % 0xFFFFFFFFu;
    int rc = 0;
    for (int t = log_n - 1; t >= 0 && rc == 0; t--)
        rc = launch_level(run, "interval-sum", interval_steps, t, a, l);
    for (int t = 0; t < log_n && rc == 0; t++)
        rc = launch_level(run, "copy-add", copy_add_steps, t, a, l);
    if (rc == 0)
        rc = scan_check("prefix-optimal", a[log_n], input, n);
    free(input);
    return rc;
}

const exec_program exec_prefix_optimal = {"prefix-optimal", host};
