/*
 * kernels.c — the sum of n numbers by halving, its kernels written once
 * (sim/exec/mcm_kernel.h): mcmsim runs them in exec mode (`--exec`), nvcc
 * builds them for the card (cuda_ref/run-all.sh, case sum).  The model a
 * student computes, with its closed forms, is model.c.
 *
 * The algorithm of the DMM/UMM chapter, §4: with L numbers left, ⌈L/2⌉
 * threads in blocks of ℓ, thread i < ⌊L/2⌋ does a[i] ← a[i] + a[i + ⌈L/2⌉];
 * one kernel per halving, ⌈log2 n⌉ kernels.  In place is race-free: a
 * thread writes the cell it reads, and the cells written, a[0 .. ⌊L/2⌋−1],
 * are not the cells read at a[⌈L/2⌉ ..].  Numbers are 32-bit words added
 * with wrap-around, one operation each; index arithmetic is not counted,
 * as in the model.
 *
 * Measured costs against model.c's declared ones (test_exec_sum.c
 * asserts each of these exactly):
 *   - grids, threads, kernel names (each launch is named
 *     after its kernel, "add"; the model numbers them, "add[j]") and the
 *     number of kernels: equal.
 *   - α = 2, β = 1 (the most words of one thread): equal.
 *   - S(B): equal (1), except a block in which no thread adds: when L is
 *     odd and ⌈L/2⌉ = kℓ + 1, the last block holds only the number that
 *     passes through, and measures S = W = 0 and no words, where model.c
 *     declares S = 1 and 3U.
 *   - W(B): model.c spreads a kernel's ⌊L/2⌋ additions evenly over its
 *     blocks (W(B) = ⌊L/2⌋/blocks); a block measures its own adders: ℓ in
 *     full blocks, the rest in the last.  Each kernel's total is equal.
 *   - O(B): model.c declares 3U per block (every access coalesced, α+β = 3
 *     words).  Measured by the UMM rule (sim/exec/exec.c): a round of a warp
 *     costs w/ℓ·U per address group it touches.  Equal (3U) for a full
 *     block whose reads start on group boundaries: every block when
 *     ⌈L/2⌉ is a multiple of w and ℓ a multiple of w (n = 2^m, ℓ <= 2^t).
 *     Less in a block with fewer than ℓ/w active warps (the last log(ℓ/w)
 *     kernels for n = 2^m: 3U·⌈2^t/w⌉·w/ℓ; the model charges a block for
 *     its ℓ threads whatever they do); more where a[i + ⌈L/2⌉] straddles
 *     two groups per warp (⌈L/2⌉ not a multiple of w: up to 4U).  With ℓ
 *     a power of two <= w every block of n = 2^m costs exactly 3U, and the
 *     simulated T equals model.c's.
 *
 * Params: n (numbers, >= 2), l (threads per block, ℓ).
 */
#include "mcm_kernel.h"

#include <stdio.h>

typedef struct halving {
    gmem a;
    long pairs; /* ⌊L/2⌋ threads add */
    long half;  /* ⌈L/2⌉: the distance */
} halving;

MCM_STEP(add_pair, halving, h)
{
    long i = t->bid * t->threads + t->tid;
    if (i >= h->pairs)
        return; /* the number passing through, or past the last pair */
    word x = exec_gread(t, h->a, i);
    word y = exec_gread(t, h->a, i + h->half);
    exec_ops(t, 1); /* one addition mod 2^32 */
    exec_gwrite(t, h->a, i, (uint32_t)(x + y));
}

MCM_KERNEL(add, halving, add_pair);

static gmem a;
static long n;
static int l;
static uint32_t expected; /* the serial sum, mod 2^32 */

static int setup(exec_run *run, const mcm_params *p)
{
    n = (long)mcm_param(p, "n", 1 << 20);
    l = (int)mcm_param(p, "l", 256);
    if (n < 2 || l < 1)
        return mcm_fail("sum: needs n >= 2 and l >= 1 (got n = %ld, l = %d)", n, l);
    a = mcm_alloc(run, "a", n);
    uint64_t state = mcm_seed(p);
    expected = 0;
    for (long i = 0; i < n; i++) {
        word v = 1 + mcm_random(&state) % 0xFFFFFFFFu;
        mcm_set(a, i, v);
        expected += (uint32_t)v;
    }
    return 0;
}

static int launches(exec_run *run)
{
    for (long left = n; left > 1;) {
        halving h = {a, left / 2, (left + 1) / 2};
        if (mcm_launch(run, &add, (h.half + l - 1) / l, l, 0, &h) < 0)
            return -1;
        left = h.half;
    }
    return 0;
}

static int check(exec_run *run)
{
    (void)run;
    if (mcm_get(a, 0) != expected)
        return mcm_fail("sum: a[0] = %llu, the serial sum is %llu", (unsigned long long)mcm_get(a, 0),
                        (unsigned long long)expected);
    return 0;
}

MCM_PROGRAM("sum", setup, launches, check);
