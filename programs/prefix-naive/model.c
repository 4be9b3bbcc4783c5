/*
 * model.c — the simple (Hillis–Steele) prefix sums, as an MCM program: the
 * model a student computes (its kernels written once are kernels.c).
 *
 * Source: the DMM/UMM chapter (Nakano et al., dmm-umm-chapter.txt), §6
 * "A Simple Prefix-Sum Algorithm" (line 134), n = 2^m:
 *
 *     for t = 0 to m−1:  for i = 2^t to n−1 in parallel:  a[i] ← a[i] + a[i − 2^t]
 *
 * and its Lemma 2 (line 153): O(n log n/w + nl log n/p + l log n), not
 * optimal (a factor log n on the bandwidth and latency terms).  No MCM
 * paper treats this algorithm and the thesis has no Appendix B worksheet
 * for it: the per-block costs and the closed forms below are OURS, derived
 * from the kernels.
 *
 * As an MCM program.  The chapter's step is synchronous (every thread reads
 * the old a); in global memory, across thread-blocks, that means out of
 * place: step t reads array `in` and writes array `out`, the two swapping
 * roles each step.  So step t is one kernel of n threads (one per element),
 * ⌈n/ℓ⌉ thread-blocks of ℓ threads: thread i >= 2^t reads in[i] and
 * in[i − 2^t], adds, writes out[i]; thread i < 2^t copies in[i] to out[i].
 * The reads in[0..n−2^t−1] and in[2^t..n−1] are contiguous, so coalesced.
 *   per block:  S(B) = 1, α = 2, β = 1, O(B) = 3U
 *               W(B) = the additions of its threads; a kernel does n − 2^t
 *               of them (the chapter's count, line 147), spread evenly
 *               over its blocks (copies are memory moves, not local ops)
 *   Z constraint (ours): each thread holds its α + β = 3 words: 3ℓ <= Z.
 *
 * Closed forms (ours; exact when n and ℓ are powers of two):
 *   N = (n/ℓ)·log n        (⌈n/ℓ⌉ = 1 block per kernel when n < ℓ)
 *   W = Σ_t (n − 2^t) = n log n − n + 1
 *   S = log n,  L = log n  (a chain of log n kernels of span 1)
 *   O = 3U·N,  C = 3U + 1
 *   K = n/ℓ (every kernel is as wide; 1 when n < ℓ)
 *   T = (N/K + L)·C = 2 log n·(3U + 1)   (Corollary 1, the papers' estimate)
 *
 * Note: with P = K SMs (Corollary 1) the n log n work costs nothing more
 * than the optimal scan's n: every kernel runs in one round.  The estimate
 * T therefore never shows the naive scan losing; the simulator on a fixed
 * P (Theorem 1: N/P grows as n log n / ℓP) does.  See
 * programs/prefix-optimal/test_prefix.c.
 *
 * Any whole n >= 2 is accepted (⌈log n⌉ steps); the closed forms are exact
 * for powers of two only.
 *
 * On a DMM or a UMM (sim/model/dmm_umm.h; `accesses` below), the chapter's own
 * analysis (lines 140–147), in place in a[0 .. n−1] (cell i): step t is
 * three memory access operations, each a contiguous access by the
 * machine's p threads (cell k by thread k mod p) and a synchronous step of
 * its own:
 *     reading a[0 .. n − 2^t − 1], reading a[2^t .. n − 1],
 *     writing a[2^t .. n − 1].
 * The reads and writes at a[2^t ..] start off an address-group boundary
 * when w ∤ 2^t, so the UMM pays two groups where the DMM pays one bank
 * round: on the DMM the time is exactly Σ_t 3·(Lemma 1 of n − 2^t cells),
 * on the UMM more (tests/test_dmm_umm.c).  Printed beside Lemma 2's bound
 * n log n/w + nl log n/p + l log n (its O() with constant 1).  The param
 * l (ℓ) is not used there: the latency is the machine's l.
 *
 * Params: n (numbers), l (ℓ, threads per block).
 */
#include "sum_prefix.h"

#include <stdio.h>

#define WORDS_PER_THREAD 3 /* α + β */

/* Step t: n threads, the n − 2^t of them at i >= 2^t add. */
static kernel step_kernel(const char *name, double n, double distance, double l)
{
    long blocks = (long)ceil(n / l);
    kernel k = {
        .name = (char *)name,
        .blocks = blocks,
        .threads = (int)l,
        .cost = {.span = 1, .work = (n - distance) / (double)blocks, .reads = 2, .writes = 1},
        .private_words = -1,
    };
    /* classes from hillis_steele_kernel (cuda_ref/prefix-naive.cu): index,
     * bound, i >= d, i − d and a 32-bit add, all plain (3 for a thread that
     * only copies).  No barrier: the steps are separate kernels. */
    double adds = (n - distance) / (double)blocks;
    cost_set_classes(&k.cost, (int)l, 5, 0, 0, 0, 0);
    k.cost.work_ops[OP_PLAIN] = 3 * l + 2 * adds;
    return k;
}

static kernel_dag *build(const vars *params, const machine *m)
{
    double n, l;
    if (sum_prefix_params("prefix-naive", params, &n, &l) < 0 ||
        sum_prefix_z_check("prefix-naive", WORDS_PER_THREAD, l, m) < 0)
        return NULL;
    kernel_dag *dag = kernel_dag_new("prefix-naive");
    for (int t = 0; exp2(t) < n; t++) {
        char name[32];
        snprintf(name, sizeof name, "step[%d]", t);
        kernel k = step_kernel(name, n, exp2(t), l);
        if (kernel_dag_chain(dag, &k) < 0) {
            kernel_dag_free(dag);
            return NULL;
        }
    }
    return dag;
}

static int closed_form_of(const vars *params, const machine *m, closed_form *out)
{
    double n, l;
    if (sum_prefix_params("prefix-naive", params, &n, &l) < 0)
        return -1;
    double U = m->u, K = fmax(n / l, 1), log_n = log2(n);
    out->N = K * log_n;
    out->W = n * log_n - n + 1;
    out->S = log_n;
    out->L = log_n;
    out->O = WORDS_PER_THREAD * U * out->N;
    out->C = WORDS_PER_THREAD * U + 1;
    out->T = (out->N / K + out->L) * out->C;
    return 0;
}

/* The chapter's memory access operations (DMM/UMM machines). */
static int accesses(const vars *params, const machine *m, access_program *out)
{
    double n, unused_l;
    if (sum_prefix_params("prefix-naive", params, &n, &unused_l) < 0)
        return -1;
    long cells = (long)n;
    for (long d = 1; d < cells; d *= 2) /* d = 2^t */
        if (access_operation(out, 0, 1, cells - d) < 0 || /* reading a[0 .. n−2^t−1] */
            access_operation(out, d, 1, cells - d) < 0 || /* reading a[2^t .. n−1] */
            access_operation(out, d, 1, cells - d) < 0)   /* writing a[2^t .. n−1] */
            return -1;
    double p = access_program_threads(out), w = m->warp, l = m->latency, log_n = log2(n);
    access_bound(out, "Lemma 2", "n log n/w + nl log n/p + l log n",
                 n * log_n / w + n * l * log_n / p + l * log_n, 0);
    return 0;
}

const builtin_program program_prefix_naive = {
    .name = "prefix-naive",
    .summary = "naive (Hillis-Steele) prefix sums, log n kernels of n/l blocks (DMM/UMM chapter §6, Lemma 2)",
    .defaults = "n=1048576 l=256",
    .kernels = "programs/prefix-naive/kernels.c",
    .build = build,
    .closed_form = closed_form_of,
    .accesses = accesses,
};
