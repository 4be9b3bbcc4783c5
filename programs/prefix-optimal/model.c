/*
 * model.c — the optimal two-stage prefix sums, as an MCM program: the model
 * a student computes (its kernels written once are kernels.c).
 *
 * Source: the DMM/UMM chapter (Nakano et al., dmm-umm-chapter.txt), §7
 * "An Optimal Prefix-Sum Algorithm" (lines 159–195), n = 2^m, work arrays
 * a_t of 2^t numbers, the input in a_m:
 *
 *   stage 1, interval sums (line 163), t = m−1 downto 0, i < 2^t:
 *       a_t[i] ← a_{t+1}[2i] + a_{t+1}[2i+1]                      ("sum")
 *   stage 2, sums of interval sums (line 171), t = 0 to m−1:
 *       a_{t+1}[2i+1] ← a_t[i]                  i < 2^t           ("copy")
 *       a_{t+1}[2i+2] ← a_{t+1}[2i+2] + a_t[i]  i < 2^t − 1       ("add")
 *
 * and its Theorem 3 (line 195): O(n/w + nl/p + l log n), optimal, in
 * 2 log n steps.  No MCM paper treats this algorithm and the thesis has no
 * Appendix B worksheet for it: the per-block costs and the closed forms
 * below are OURS, derived from the kernels.
 *
 * As an MCM program: 2 log n kernels in a chain, step t of either stage
 * one kernel of 2^t threads (thread i does the lines above for its i) in
 * ⌈2^t/ℓ⌉ thread-blocks of ℓ threads.  The chapter's memory operations
 * (lines 177 and 187) are contiguous or every-other-word, so coalesced.
 *   stage 1 block:  S(B) = 1, α = 2, β = 1, O(B) = 3U,
 *                   W(B) = its additions (2^t per kernel)
 *   stage 2 block:  S(B) = 1 (0 at t = 0, which only copies), α = 2
 *                   (a_t[i], a_{t+1}[2i+2]), β = 2 (a_{t+1}[2i+1],
 *                   a_{t+1}[2i+2]), O(B) = 4U, W(B) = its additions
 *                   (2^t − 1 per kernel; copies are memory moves)
 *   Z constraint (ours): a stage 2 thread holds α + β = 4 words: 4ℓ <= Z.
 *
 * Closed forms (ours; exact when n and ℓ are powers of two).  Each stage is
 * a halving sweep of N½ = Σ_{t<m} ⌈2^t/ℓ⌉ = n/ℓ − 1 + log ℓ blocks (log n
 * when n < ℓ):
 *   N = 2·N½
 *   W = (n − 1) + (n − 1 − log n) = 2n − 2 − log n
 *   S = log n + (log n − 1) = 2 log n − 1,   L = 2 log n
 *   O = 3U·N½ + 4U·N½ = 7U·N½
 *   C = 4U + 1 (the stage 2 blocks; max(3U + 1, 4U) when n = 2)
 *   K = n/(2ℓ) (the widest kernels, t = m−1; 1 when n < 2ℓ)
 *   T = (N/K + L)·C ≈ (4 + 2 log n)(4U + 1)   (Corollary 1, the estimate)
 *
 * Against the naive scan (prefix-naive/model.c): twice the kernels on the
 * critical path (L = 2 log n against log n) and a larger C, but N about
 * 2n/ℓ against (n/ℓ) log n.  Corollary 1 (P = K) sees only the first, so it
 * ranks the naive scan first at every n; on a fixed P the simulator sees
 * both: the optimal scan loses for small n (latency, L·C) and wins for
 * large n (N·C/P).  See test_prefix.c.
 *
 * On a DMM or a UMM (sim/model/dmm_umm.h; `accesses` below), the chapter's own
 * analysis (the first stage from line 175, the second from line 184):
 * each step is three memory access operations, each by the machine's p
 * threads (element k by thread k mod p) and a synchronous step of its own.  Layout (ours): a_t[i] in cell 2^t + i
 * (t < m), the input a_m at cells n .. 2n − 1, so every a_t starts on an
 * address-group boundary once 2^t >= w (w a power of two).
 *   stage 1, t = m−1 .. 0:  reading a_{t+1}[0, 2, ..., 2^(t+1) − 2],
 *                           reading a_{t+1}[1, 3, ..., 2^(t+1) − 1],
 *                           writing a_t[0 .. 2^t − 1]
 *   stage 2, t = 0 .. m−1:  reading a_t[0 .. 2^t − 1],
 *                           reading a_{t+1}[2, 4, ..., 2^(t+1) − 2],
 *                           writing a_{t+1}[1 .. 2^(t+1) − 1]
 * The chapter lists the last write as a_{t+1}[0 .. 2^(t+1) − 1] (line 189);
 * the algorithm (line 171) never writes a_{t+1}[0], so we leave it out,
 * which puts those writes one cell off the group boundary on the UMM.
 * The every-other-cell reads cost 2 units per full warp on both machines
 * (w/2 banks twice; two groups): "essentially contiguous" (line 182), a
 * constant factor.  Printed beside Theorem 3's bound n/w + nl/p + l log n
 * (its O() with constant 1).  The param l (ℓ) is not used there.
 *
 * n must be a power of two (the chapter's n = 2^m: the arrays a_t halve).
 *
 * Params: n (numbers), l (ℓ, threads per block).
 */
#include "sum_prefix.h"

#include <stdio.h>

#define STAGE1_WORDS 3 /* α + β of an interval-sum thread */
#define STAGE2_WORDS 4 /* α + β of a copy-and-add thread */

/* Step t of a stage: 2^t threads, `additions` of them adding. */
static kernel step_kernel(const char *name, double t, double additions, double words, double l)
{
    double threads = exp2(t);
    long blocks = (long)ceil(threads / l);
    kernel k = {
        .name = (char *)name,
        .blocks = blocks,
        .threads = (int)l,
        .cost = {.span = additions > 0 ? 1 : 0, .work = additions / (double)blocks,
                 .reads = 2, .writes = words - 2},
        .private_words = -1,
    };
    /* classes from cuda_ref/prefix-optimal.cu, all plain 32-bit integer
     * operations: interval_sum_kernel (stage 1: index, bound, 2i, 2i + 1,
     * the add: 5), interval_prefix_kernel (stage 2, the copy-and-add: index,
     * bound, i == 0, 2i + 1, i < count − 1, 2i + 2, the add: 7).  No barrier:
     * the steps are separate kernels. */
    double per_thread = words == STAGE2_WORDS ? 7 : 5;
    cost_set_classes(&k.cost, (int)l, per_thread, 0, 0, 0, 0);
    k.cost.work_ops[OP_PLAIN] = per_thread * fmin(threads, l * (double)blocks) / (double)blocks;
    return k;
}

static int chain(kernel_dag *dag, const char *stage, int t, double additions, double words,
                 double l)
{
    char name[48];
    snprintf(name, sizeof name, "%s[%d]", stage, t);
    kernel k = step_kernel(name, t, additions, words, l);
    return kernel_dag_chain(dag, &k);
}

static kernel_dag *build(const vars *params, const machine *m)
{
    double n, l;
    if (sum_prefix_params("prefix-optimal", params, &n, &l) < 0)
        return NULL;
    if (!is_power_of_two(n)) {
        fail("program 'prefix-optimal': n must be a power of two, n = 2^m (got n = %g)", n);
        return NULL;
    }
    if (sum_prefix_z_check("prefix-optimal", STAGE2_WORDS, l, m) < 0)
        return NULL;
    int log_n = (int)log2(n);
    kernel_dag *dag = kernel_dag_new("prefix-optimal");
    int rc = 0;
    for (int t = log_n - 1; t >= 0 && rc >= 0; t--) /* stage 1: interval sums */
        rc = chain(dag, "interval-sum", t, exp2(t), STAGE1_WORDS, l);
    for (int t = 0; t < log_n && rc >= 0; t++) /* stage 2: sums of interval sums */
        rc = chain(dag, "copy-add", t, exp2(t) - 1, STAGE2_WORDS, l);
    if (rc < 0) {
        kernel_dag_free(dag);
        return NULL;
    }
    return dag;
}

static int closed_form_of(const vars *params, const machine *m, closed_form *out)
{
    double n, l;
    if (sum_prefix_params("prefix-optimal", params, &n, &l) < 0)
        return -1;
    double U = m->u, half = halving_blocks(n, l), log_n = log2(n);
    out->N = 2 * half;
    out->W = 2 * n - 2 - log_n;
    out->S = 2 * log_n - 1;
    out->L = 2 * log_n;
    out->O = (STAGE1_WORDS + STAGE2_WORDS) * U * half;
    out->C = n >= 4 ? STAGE2_WORDS * U + 1 : fmax(STAGE1_WORDS * U + 1, STAGE2_WORDS * U);
    out->T = (out->N / halving_width(n, l) + out->L) * out->C;
    return 0;
}

/* a_t[i] is cell 2^t + i (a_m, the input, at n .. 2n − 1). */
static long array_cell(int t) { return 1L << t; }

/* The chapter's memory access operations (DMM/UMM machines). */
static int accesses(const vars *params, const machine *m, access_program *out)
{
    double n, unused_l;
    if (sum_prefix_params("prefix-optimal", params, &n, &unused_l) < 0)
        return -1;
    if (!is_power_of_two(n))
        return fail("program 'prefix-optimal': n must be a power of two, n = 2^m (got n = %g)", n);
    int log_n = (int)log2(n), rc = 0;
    for (int t = log_n - 1; t >= 0 && rc == 0; t--) { /* stage 1: interval sums */
        long half = 1L << t, up = array_cell(t + 1);
        rc = access_operation(out, up, 2, half) < 0 ||          /* a_{t+1}[2i] */
             access_operation(out, up + 1, 2, half) < 0 ||      /* a_{t+1}[2i+1] */
             access_operation(out, array_cell(t), 1, half) < 0; /* a_t[i] */
    }
    for (int t = 0; t < log_n && rc == 0; t++) { /* stage 2: sums of interval sums */
        long half = 1L << t, up = array_cell(t + 1);
        rc = access_operation(out, array_cell(t), 1, half) < 0 || /* a_t[i] */
             access_operation(out, up + 2, 2, half - 1) < 0 ||    /* a_{t+1}[2i+2] */
             access_operation(out, up + 1, 1, 2 * half - 1) < 0;  /* a_{t+1}[1 ..] */
    }
    if (rc)
        return -1;
    double p = access_program_threads(out), w = m->warp, l = m->latency;
    access_bound(out, "Theorem 3", "n/w + nl/p + l log n", n / w + n * l / p + l * log_n, 0);
    return 0;
}

const builtin_program program_prefix_optimal = {
    .name = "prefix-optimal",
    .summary = "optimal two-stage prefix sums, 2 log n kernels (DMM/UMM chapter §7, Theorem 3)",
    .defaults = "n=1048576 l=256",
    .kernels = "programs/prefix-optimal/kernels.c",
    .build = build,
    .closed_form = closed_form_of,
    .accesses = accesses,
};
