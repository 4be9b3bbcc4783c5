/*
 * sum_exec.c — the sum of n numbers by halving, in exec mode: the kernels
 * of programs/sum.c run for real on simulated global memory (sim/exec.h).
 *
 * Source: the DMM/UMM chapter (dmm-umm-chapter.txt), §4 "An Optimal
 * Parallel Algorithm for Computing the Sum" (line 89):
 *
 *     for t = m−1 downto 0:  for i < 2^t in parallel:  a[i] ← a[i] + a[i + 2^t]
 *
 * No MCM paper treats this algorithm and the thesis has no Appendix B
 * worksheet for it; the model-mode costs are programs/sum.c's own.
 *
 * Kernels: the same as sum.c.  With L numbers left (L = n first), kernel
 * add[j] has ⌈L/2⌉ threads in ⌈⌈L/2⌉/ℓ⌉ blocks of ℓ threads; thread i <
 * ⌊L/2⌋ does a[i] ← a[i] + a[i + ⌈L/2⌉] in place (it reads a[i], then
 * a[i + ⌈L/2⌉], adds, writes a[i]); when L is odd, thread ⌊L/2⌋ is the
 * number that passes through and does nothing; threads past ⌈L/2⌉ in a
 * last block do nothing.  One kernel is one synchronous step; in place is
 * safe: the cells written, a[0 .. ⌊L/2⌋−1], are not the cells read at
 * a[⌈L/2⌉ ..].  For n = 2^m this is the chapter's algorithm exactly.
 *
 * Arithmetic: additions of 32-bit unsigned words with wrap-around (mod
 * 2^32), one local operation each, as sum.c counts W(B) = its additions and
 * S(B) = 1 (an addition in Z/pZ would be 5 operations, exec_zp_add).  Index
 * arithmetic is not counted, as in the model.  The numbers are random in
 * [1, 2^32) from a generator seeded by the machine's seed; the result a[0]
 * is checked against the serial sum mod 2^32.
 *
 * Measured costs against sum.c's declared ones (tests/test_exec_sum.c
 * asserts each of these exactly):
 *   - grids, threads, kernel names and the number of kernels: equal.
 *   - α = 2, β = 1 (the most words of one thread): equal.
 *   - S(B): equal (1), except a block in which no thread adds: when L is
 *     odd and ⌈L/2⌉ = kℓ + 1, the last block holds only the number that
 *     passes through, and measures S = W = 0 and no words, where sum.c
 *     declares S = 1 and 3U.
 *   - W(B): sum.c spreads a kernel's ⌊L/2⌋ additions evenly over its
 *     blocks (W(B) = ⌊L/2⌋/blocks); a block measures its own adders: ℓ in
 *     full blocks, the rest in the last.  Each kernel's total is equal.
 *   - O(B): sum.c declares 3U per block (every access coalesced, α+β = 3
 *     words).  Measured by the UMM rule (sim/exec.c): a round of a warp
 *     costs w/ℓ·U per address group it touches.  Equal (3U) for a full
 *     block whose reads start on group boundaries: every block when
 *     ⌈L/2⌉ is a multiple of w and ℓ a multiple of w (n = 2^m, ℓ <= 2^t).
 *     Less in a block with fewer than ℓ/w active warps (the last log(ℓ/w)
 *     kernels for n = 2^m: 3U·⌈2^t/w⌉·w/ℓ; the model charges a block for
 *     its ℓ threads whatever they do); more where a[i + ⌈L/2⌉] straddles
 *     two groups per warp (⌈L/2⌉ not a multiple of w: up to 4U).  With ℓ
 *     a power of two <= w every block of n = 2^m costs exactly 3U, and the
 *     simulated T equals sum.c's.
 *
 * Params (as sum.c): n (numbers, whole, >= 2), l (ℓ).  Z constraint as
 * sum.c: 3ℓ <= Z (checked with its own function).  The kernel itself uses
 * no private memory (a thread holds its two words within its one step).
 */
#include "exec_programs.h"
#include "rng.h"
#include "fail.h"
#include "sum_prefix.h"

#include <stdio.h>
#include <stdlib.h>

#define SUM_WORDS_PER_THREAD 3 /* α + β, as sum.c */

/* One halving kernel: a[i] ← a[i] + a[i + half] for i < pairs. */
typedef struct halving_args {
    gmem a;
    long pairs; /* ⌊L/2⌋ threads add */
    long half;  /* ⌈L/2⌉: the distance */
} halving_args;

static void add_pair(exec_thread *t, void *args)
{
    const halving_args *h = args;
    long i = t->bid * t->threads + t->tid;
    if (i >= h->pairs)
        return; /* the number passing through, or past the last pair */
    word x = exec_gread(t, h->a, i);
    word y = exec_gread(t, h->a, i + h->half);
    exec_ops(t, 1); /* one addition mod 2^32 */
    exec_gwrite(t, h->a, i, (uint32_t)(x + y));
}

static const exec_step halving_steps[] = {add_pair};

static int read_params(const vars *params, const machine *m, double *n, double *l)
{
    if (!vars_get(params, "n") || !vars_get(params, "l"))
        return fail("program 'sum' (exec mode): needs the params n and l");
    if (sum_prefix_params("sum", params, n, l) < 0 ||
        sum_prefix_z_check("sum", SUM_WORDS_PER_THREAD, *l, m) < 0)
        return -1;
    return 0;
}

/* The kernels of sum.c, launched in order: add[0], add[1], ... */
static int launch_halvings(exec_run *run, gmem a, long n, int l)
{
    long left = n; /* numbers not yet added together */
    for (int j = 0; left > 1; j++) {
        char name[32];
        snprintf(name, sizeof name, "add[%d]", j);
        halving_args h = {a, left / 2, (left + 1) / 2};
        exec_kernel k = {name, 1, halving_steps, 0};
        if (exec_launch(run, &k, (h.half + l - 1) / l, l, &h) < 0)
            return -1;
        left = h.half;
    }
    return 0;
}

static int host(const vars *params, const machine *m, exec_run *run)
{
    double n_value = 0, l_value = 0;
    if (read_params(params, m, &n_value, &l_value) < 0)
        return -1;
    long n = (long)n_value;
    gmem a = exec_alloc(run, "a", n);
    rng state;
    rng_seed(&state, m->seed);
    uint32_t expected = 0; /* the serial sum, mod 2^32 */
    for (long i = 0; i < n; i++) {
        a->cells[i] = 1 + rng_next(&state) % 0xFFFFFFFFu;
        expected += (uint32_t)a->cells[i];
    }
    if (launch_halvings(run, a, n, (int)l_value) < 0)
        return -1;
    if (a->cells[0] != expected)
        return fail("program 'sum' (exec mode): result differs from the serial reference: "
                    "%llu, expected %llu at index 0", (unsigned long long)a->cells[0],
                    (unsigned long long)expected);
    return 0;
}

const exec_program exec_sum = {"sum", host};
