/*
 * prefix_naive_exec.c — the simple (Hillis–Steele) prefix sums in exec
 * mode: the kernels of programs/prefix_naive.c run for real on simulated
 * global memory (sim/exec.h).
 *
 * Source: the DMM/UMM chapter (dmm-umm-chapter.txt), §6 "A Simple
 * Prefix-Sum Algorithm" (line 134):
 *
 *     for t = 0 to m−1:  for i = 2^t to n−1 in parallel:  a[i] ← a[i] + a[i − 2^t]
 *
 * No MCM paper treats this algorithm and the thesis has no Appendix B
 * worksheet for it; the model-mode costs are programs/prefix_naive.c's own.
 *
 * Kernels: the same as prefix_naive.c.  Kernel step[t], for every t with
 * 2^t < n, has n threads in ⌈n/ℓ⌉ blocks of ℓ threads and works out of
 * place (the chapter's step is synchronous: every thread must see the old
 * a, and blocks of one kernel do not synchronise with each other): thread
 * i < n reads in[i], and when i >= 2^t also in[i − 2^t] and adds; it
 * writes out[i].  The two arrays swap roles after every kernel; the
 * inclusive prefix sums end in the array written last.  One kernel is one
 * synchronous step.  Any whole n >= 2 works (⌈log n⌉ kernels), as in
 * prefix_naive.c.
 *
 * Arithmetic: additions of 32-bit unsigned words with wrap-around (mod
 * 2^32), one local operation each, as prefix_naive.c counts W(B) = its
 * additions and S(B) = 1; a copy is a memory move, no operation.  Index
 * arithmetic is not counted.  Numbers random in [1, 2^32), seeded by the
 * machine's seed; checked against the serial inclusive scan mod 2^32.
 *
 * Measured costs against prefix_naive.c's declared ones
 * (tests/test_exec_prefix.c asserts each of these exactly):
 *   - grids, threads, kernel names and the number of kernels: equal.
 *   - α = 2, β = 1 (the most words of one thread): equal.
 *   - S(B) = 1: equal, except blocks whose threads all copy (every i <
 *     2^t: the first ⌊2^t/ℓ⌋ blocks of kernel t): S = W = 0 and α = 1, so
 *     a full such block measures 2U where the model declares S = 1, 3U.
 *   - W(B): the model spreads the kernel's n − 2^t additions evenly over
 *     its blocks; a block measures its own adders.  Totals equal.
 *   - O(B): declared 3U.  Measured by the UMM rule: 3U for a full block of
 *     adders when 2^t is a multiple of w (ℓ a multiple of w); 2U for a
 *     full block of copies; when w ∤ 2^t the reads of in[i − 2^t] straddle
 *     two address groups per warp, up to 4U (the UMM's price of an access
 *     off a group boundary, which prefix_naive.c's DMM/UMM note describes
 *     too); a block across i = 2^t, or a
 *     last partial block, has fewer active warps and costs less.  With n
 *     <= ℓ <= w (one block of one warp per kernel) every cost is equal.
 *
 * Params (as prefix_naive.c): n (numbers, whole, >= 2), l (ℓ).  Z
 * constraint 3ℓ <= Z, checked with prefix_naive.c's function.  The kernel
 * uses no private memory.
 */
#include "exec_programs.h"
#include "rng.h"
#include "scan_exec.h"
#include "fail.h"
#include "sum_prefix.h"

#include <stdio.h>
#include <stdlib.h>

#define NAIVE_WORDS_PER_THREAD 3 /* α + β, as prefix_naive.c */

/* Step t: out[i] ← in[i] + in[i − 2^t] (i >= 2^t), out[i] ← in[i] else. */
typedef struct step_args {
    gmem in, out;
    long n, distance; /* 2^t */
} step_args;

static void add_at_distance(exec_thread *t, void *args)
{
    const step_args *a = args;
    long i = t->bid * t->threads + t->tid;
    if (i >= a->n)
        return; /* past the last number, in a last partial block */
    word x = exec_gread(t, a->in, i);
    if (i >= a->distance) {
        word y = exec_gread(t, a->in, i - a->distance);
        exec_ops(t, 1); /* one addition mod 2^32 */
        x = (uint32_t)(x + y);
    }
    exec_gwrite(t, a->out, i, x);
}

static const exec_step naive_steps[] = {add_at_distance};

static int read_params(const vars *params, const machine *m, double *n, double *l)
{
    if (!vars_get(params, "n") || !vars_get(params, "l"))
        return fail("program 'prefix-naive' (exec mode): needs the params n and l");
    if (sum_prefix_params("prefix-naive", params, n, l) < 0 ||
        sum_prefix_z_check("prefix-naive", NAIVE_WORDS_PER_THREAD, *l, m) < 0)
        return -1;
    return 0;
}

/* The kernels step[0], step[1], ...; returns the array holding the sums,
 * or NULL. */
static gmem launch_steps(exec_run *run, gmem a, gmem b, long n, int l)
{
    for (int t = 0; (1L << t) < n; t++) {
        char name[32];
        snprintf(name, sizeof name, "step[%d]", t);
        step_args s = {a, b, n, 1L << t};
        exec_kernel k = {name, 1, naive_steps, 0};
        if (exec_launch(run, &k, (n + l - 1) / l, l, &s) < 0)
            return NULL;
        a = b; /* the sums so far; the old input is the next output */
        b = s.in;
    }
    return a;
}

static int host(const vars *params, const machine *m, exec_run *run)
{
    double n_value = 0, l_value = 0;
    if (read_params(params, m, &n_value, &l_value) < 0)
        return -1;
    long n = (long)n_value;
    gmem a = exec_alloc(run, "a", n), b = exec_alloc(run, "b", n);
    word *input = malloc(sizeof *input * (size_t)n);
    rng state;
    rng_seed(&state, m->seed);
    for (long i = 0; i < n; i++)
        input[i] = a->cells[i] = 1 + rng_next(&state) % 0xFFFFFFFFu;
    gmem result = launch_steps(run, a, b, n, (int)l_value);
    int rc = result ? scan_check("prefix-naive", result, input, n) : -1;
    free(input);
    return rc;
}

const exec_program exec_prefix_naive = {"prefix-naive", host};
