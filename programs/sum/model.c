/*
 * model.c — the sum of n numbers by halving, as an MCM program: the model
 * a student computes (its kernels written once are kernels.c).
 *
 * Source: the DMM/UMM chapter (Nakano et al., dmm-umm-chapter.txt), §4
 * "An Optimal Parallel Algorithm for Computing the Sum" (line 89), n = 2^m:
 *
 *     for t = m−1 downto 0:  for i < 2^t in parallel:  a[i] ← a[i] + a[i + 2^t]
 *
 * and its Theorem 1 (line 109): O(n/w + nl/p + l log n) on the DMM/UMM.
 * No MCM paper treats this algorithm and the thesis has no Appendix B
 * worksheet for it: the per-block costs and the closed forms below are
 * OURS, derived from the kernels (the style of App. B, thesis line 4840).
 *
 * As an MCM program.  Kernel j = 0, 1, ..., m−1 (a chain) is the chapter's
 * step t = m−1−j: 2^t threads, one per pair, in ⌈2^t/ℓ⌉ = ⌈n/(2^(j+1)ℓ)⌉
 * thread-blocks of ℓ threads.  A thread reads its two numbers, adds,
 * writes one word; the reads a[0..2^t−1] and a[2^t..2^(t+1)−1] are
 * contiguous, so coalesced.
 *   per block:  S(B) = 1, α = 2, β = 1, O(B) = 3U
 *               W(B) = the additions of its threads (one per active thread:
 *               the chapter's 2^t operations at step t, line 95), i.e.
 *               min(2^t, ℓ); threads past 2^t in a last, partial block
 *               do nothing and count nothing.  (The first version of
 *               this file took W(B) = ℓ·S(B) for every block; the two
 *               differ only in the last log ℓ kernels, of one block each.)
 *   Z constraint (ours): each thread holds its α + β = 3 words: 3ℓ <= Z.
 *
 * Closed forms (ours; exact when n and ℓ are powers of two):
 *   N = Σ_{t<m} ⌈2^t/ℓ⌉ = n/ℓ − 1 + log ℓ   (n >= ℓ; log n when n < ℓ)
 *   W = n − 1              (one addition per number absorbed)
 *   S = log n,  L = log n  (a chain of log n kernels of span 1)
 *   O = 3U·N,  C = 3U + 1
 *   K = n/(2ℓ) (the first kernel; 1 when n < 2ℓ)
 *   T = (N/K + L)·C        (Corollary 1, the papers' estimate)
 *
 * Any whole n >= 2 is accepted (as the first version of this file did):
 * kernel j then has ⌈n/2^(j+1)⌉ threads for the ⌈n/2^j⌉ numbers left, the
 * odd one out passing through, ⌊n_left/2⌋ additions; the closed forms are
 * then only approximate (they take log n as a real number).
 *
 * On a DMM or a UMM (sim/model/dmm_umm.h; `accesses` below), the chapter's own
 * analysis (lines 95–102): step t is three memory access operations, each
 * a contiguous access by the machine's p threads (cell k by thread k mod
 * p) and a synchronous step of its own:
 *     reading a[0 .. 2^t − 1], reading a[2^t .. 2^(t+1) − 1],
 *     writing a[0 .. 2^t − 1],                      a[i] in cell i.
 * So the time is exactly Σ_t 3·(Lemma 1 of 2^t cells) (tests/test_dmm_umm.c
 * checks it), printed beside Theorem 1's bound n/w + nl/p + l log n (its O()
 * with constant 1).  Any whole n >= 2 as above: with L numbers left, the
 * ⌊L/2⌋ pairs a[i], a[i + ⌈L/2⌉].  The param l (ℓ) is not used there: the
 * latency is the machine's l (`--set latency=...` or `machine.l=...`,
 * since `l` names this param).
 *
 * Params: n (numbers), l (ℓ, threads per block).
 */
#include "sum_prefix.h"

#include <stdio.h>

#define WORDS_PER_THREAD 3 /* α + β */

/* Kernel j of the sum: `threads` threads, `additions` of them adding. */
static kernel halving_kernel(const char *name, double threads, double additions, double l)
{
    long blocks = (long)ceil(threads / l);
    kernel k = {
        .name = (char *)name,
        .blocks = blocks,
        .threads = (int)l,
        .cost = {.span = 1, .work = additions / (double)blocks, .reads = 2, .writes = 1},
        .private_words = -1,
    };
    /* classes from sum_halving_kernel (cuda_ref/sum.cu): a 32-bit add, an
     * index, a bound and the partner's index, all plain; every thread of
     * the block computes its index and bound.  No barrier: the levels are
     * separated by kernel launches. */
    double adds = additions / (double)blocks;
    cost_set_classes(&k.cost, (int)l, 4, 0, 0, 0, 0);
    k.cost.work_ops[OP_PLAIN] = 2 * l + 2 * adds;
    return k;
}

static kernel_dag *build(const vars *params, const machine *m)
{
    double n, l;
    if (sum_prefix_params("sum", params, &n, &l) < 0 ||
        sum_prefix_z_check("sum", WORDS_PER_THREAD, l, m) < 0)
        return NULL;
    kernel_dag *dag = kernel_dag_new("sum");
    double left = n; /* numbers not yet added together */
    for (int j = 0; left > 1; j++) {
        char name[32];
        snprintf(name, sizeof name, "add[%d]", j);
        double threads = ceil(left / 2), additions = floor(left / 2);
        kernel k = halving_kernel(name, threads, additions, l);
        if (kernel_dag_chain(dag, &k) < 0) {
            kernel_dag_free(dag);
            return NULL;
        }
        left = threads;
    }
    return dag;
}

static int closed_form_of(const vars *params, const machine *m, closed_form *out)
{
    double n, l;
    if (sum_prefix_params("sum", params, &n, &l) < 0)
        return -1;
    double U = m->u, K = halving_width(n, l);
    out->N = halving_blocks(n, l);
    out->W = n - 1;
    out->S = log2(n);
    out->L = log2(n);
    out->O = WORDS_PER_THREAD * U * out->N;
    out->C = WORDS_PER_THREAD * U + 1;
    out->T = (out->N / K + out->L) * out->C;
    return 0;
}

/* The chapter's memory access operations (DMM/UMM machines). */
static int accesses(const vars *params, const machine *m, access_program *out)
{
    double n, unused_l;
    if (sum_prefix_params("sum", params, &n, &unused_l) < 0)
        return -1;
    for (long left = (long)n; left > 1; left = (left + 1) / 2) {
        long pairs = left / 2, second = (left + 1) / 2;
        if (access_operation(out, 0, 1, pairs) < 0 ||      /* reading a[0 .. pairs−1] */
            access_operation(out, second, 1, pairs) < 0 || /* reading a[⌈L/2⌉ ..] */
            access_operation(out, 0, 1, pairs) < 0)        /* writing a[0 .. pairs−1] */
            return -1;
    }
    double p = access_program_threads(out), w = m->warp, l = m->latency;
    access_bound(out, "Theorem 1", "n/w + nl/p + l log n", n / w + n * l / p + l * log2(n), 0);
    return 0;
}

const builtin_program program_sum = {
    .name = "sum",
    .summary = "sum of n numbers by halving, log n kernels (DMM/UMM chapter §4, Theorem 1)",
    .defaults = "n=1048576 l=256",
    .kernels = "programs/sum/kernels.c",
    .build = build,
    .closed_form = closed_form_of,
    .accesses = accesses,
};
