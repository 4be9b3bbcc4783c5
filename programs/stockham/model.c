/*
 * model.c — the Stockham FFT over Z/pZ as an MCM program: the model a
 * student computes (its kernels written once are kernels.c).
 *
 * Sources: paper §4.2 (mcm-paper-2015.txt, line 308), thesis §4.4.2 (line
 * 1696), and the Appendix B worksheet "Stockham FFT algorithm" (thesis line
 * 5343; roots of unity from line 5369, N, L, C, T at lines 5449-5465).  The
 * FFT-based multiplication worksheet (line 5835) repeats the FFT's
 * per-block costs in full; lines 5863-5945 there fill the gaps of the
 * page-broken Stockham worksheet.
 *
 * DFT_n = Π_{i<k} (DFT_2 ⊗ I_{2^(k-1)}) (D_{2,2^(k-i-1)} ⊗ I_{2^i}) (L_2^{2^(k-i)} ⊗ I_{2^i}),
 * k = log n.  The worksheet's program, every access coalesced, ℓ threads
 * per block, one chain of kernels:
 *
 *   powers of ω by a prefix sum ("each thread deals with 4 data items"):
 *     roots-inclusive   n/(4ℓ) blocks  S(B) = 8 log ℓ + 17  W(B) = 16ℓ + 1  α = 4  β = 4
 *     roots-mediate     1 block        S(B) = 8 log ℓ + 17  W(B) = 16ℓ + 1  α = 4  β = 4
 *     roots-exclusive   n/(4ℓ) − 1     S(B) = 4             W(B) = 4ℓ       α = 5  β = 4
 *   butterfly[0]        n/(2ℓ) blocks  S(B) = 8   W(B) = 16ℓ  α = 2  β = 2   (DFT_2 ⊗ I, "once")
 *   then for each step i = 1 .. k−1 (the worksheet's sum over i = 0..k−2):
 *     stride[i]         n/ℓ blocks     S(B) = 25  W(B) = 25ℓ  α = 1  β = 1   (L_2 ⊗ I, phase 1)
 *     twiddle[i]        n/(2ℓ) blocks  S(B) = 10  W(B) = 20ℓ  α = 1  β = 1   (D_2 ⊗ I, phase 2)
 *     butterfly[i]      n/(2ℓ) blocks  S(B) = 8   W(B) = 16ℓ  α = 2  β = 2   (DFT_2 ⊗ I, phase 3)
 *
 * That is 3 + 1 + 3(k−1) = 3 log n + 1 kernels, the paper's L_sh.  The
 * paper's closed forms (§4.2), which closed_form() reports as printed:
 *   W = 43 n log n + n/(4ℓ) + 12ℓ + 1 − 30n      exact for these kernels
 *   S = 43 log n + 16 log ℓ + 3                    exact
 *   O = 5nU log n/ℓ + 5nU/(4ℓ)                     the kernels give exactly U less
 *   N = n(8 log n − 5)/(4ℓ)                        the kernels give n/(4ℓ) more (see 2.)
 *   L = 3 log n + 1                                exact
 *   C = 8 log ℓ + 4U + 17                          the kernels give 8 log ℓ + 8U + 17 (see 3.)
 *   K = n/ℓ (stride kernels),  T = (N/K + L)·C = log n (40 log ℓ + 20U + 85) − 2 log ℓ − U − 17/4
 *
 * Where the worksheet and the model disagree (kept as the worksheet has
 * them, so that W and S come out as the paper's; reported, not hidden):
 *  1. twiddle and butterfly blocks: W(B) = 20ℓ and 16ℓ (a thread makes 5 bit
 *     operations, 4 additions and a modular product = 20 operations, resp.
 *     3 + 3 + 2·5 = 16), but the worksheet's spans are 10 and 8: W(B) =
 *     2ℓ·S(B), more than the ℓ·S(B) the definitions allow.  With the
 *     per-thread counts as spans, S would be 61 log n + 16 log ℓ − 7.
 *  2. N: the worksheet (line 5449) counts the n/(4ℓ) blocks of the first
 *     prefix-sum kernel only, while W, O and L count all three; the DAG
 *     has N = n(8 log n − 4)/(4ℓ), n/(4ℓ) more than the paper's.
 *  3. C: the worksheet (line 5458) adds the inclusive scan's span to a
 *     butterfly block's overhead 4U; the inclusive scan's own block moves
 *     8 words per thread, so max S(B) + O(B) = 8 log ℓ + 17 + 8U (or
 *     4 + 9U, the exclusive scan, when U > 8 log ℓ + 13).  With U = 8 and
 *     ℓ = 128 the simulated C is 137, the paper's 105.
 *  4. O: the paper drops the −U of the roots' overhead 17nU/(4ℓ) − U.
 *  5. stride blocks cost 25 operations when 2^i < ℓ and 19 otherwise (line
 *     5361); the worksheet charges 25 at every step, and so do we.
 *  6. roots-mediate is one block, as in the worksheet, although one block
 *     of 4ℓ items cannot scan the n/(4ℓ) block sums once n > 16ℓ².
 *
 * Operation classes (the card model; sim/model/kernel_dag.h, convention in
 * programs/cuda_counts.h), from the CUDA kernels of
 * cuda_ref/common/stockham.cuh, per thread; S(B) and W(B) stay the
 * worksheet's.  Where they differ from the worksheet, the CUDA code wins:
 *   butterfly  2 addmods (zp_add, zp_sub), 2 plain (index, bound)
 *   stride     10 plain (index, bound, row, column, half, source row, address)
 *   twiddle    1 mulmod, 6 plain (index, bound, exponent, inverse select)
 *   roots      the CUDA code computes the powers of ω by a prefix *product*
 *              (ScanMulZp), not the worksheet's prefix sum: the tile scan's
 *              2 log ℓ + 7 mulmods and 2 log ℓ + 5 barriers
 *              (cuda_counts.c); roots-mediate scans the n/(4ℓ) tile totals
 *              in ⌈n/(16ℓ²)⌉ chunks of 4ℓ, each a tile scan plus 5 mulmods
 *              (the carry); roots-exclusive 4 mulmods (scan_apply_kernel).
 *
 * Constraints (ours, the paper gives none): n and ℓ powers of two, n >= 8ℓ
 * (so that roots-exclusive has a block); Z bounds the words one block
 * moves (SPEC §1), the largest being roots-exclusive's 9 per thread:
 * 9ℓ <= Z (4ℓ <= Z for an FFT without the roots, as fft-mult uses it).
 *
 * Params: n (FFT size), l (ℓ).
 */
#include "stockham.h"

#include "cuda_counts.h"
#include "fail.h"
#include "program.h"

#include <math.h>
#include <stdio.h>

static int is_power_of_two(double x)
{
    return x >= 1 && x <= 0x1p52 && x == floor(x) && x == ldexp(1.0, (int)log2(x));
}

/* Words one thread moves in the block that moves the most: roots-exclusive
 * (4 + 1 + 4) with the roots, a butterfly (2 + 2) without. */
static double words_per_thread(const stockham_fft *fft)
{
    return fft->with_roots ? 9 : 4;
}

int stockham_check(const char *program, const stockham_fft *fft, const machine *m)
{
    double n = fft->n, l = fft->l;
    if (!is_power_of_two(l) || l < 2)
        return fail("program '%s': ℓ must be a power of two >= 2 (ℓ = %g)", program, l);
    if (!is_power_of_two(n))
        return fail("program '%s': the FFT size n must be a power of two (n = %g)", program, n);
    double least = fft->with_roots ? 8 * l : 2 * l;
    if (n < least)
        return fail("program '%s': the Stockham FFT needs its size n >= %s (n = %g, ℓ = %g)", program,
                    fft->with_roots ? "8ℓ" : "2ℓ", n, l);
    double words = words_per_thread(fft) * l;
    if (words > m->z)
        return fail("program '%s': constraint %s <= Z does not hold (ℓ = %g: %g > Z = %g)", program,
                    fft->with_roots ? "9ℓ" : "4ℓ", l, words, m->z);
    return 0;
}

/* Append one kernel after `*last` (none when -1) and make it the last. */
static int append(kernel_dag *dag, int *last, const stockham_fft *fft, const char *what, int step,
                  double blocks, block_cost cost)
{
    char name[96];
    const char *label = fft->label ? fft->label : "";
    const char *colon = fft->label ? ":" : "";
    if (step >= 0)
        snprintf(name, sizeof name, "%s%s%s[%d]", label, colon, what, step);
    else
        snprintf(name, sizeof name, "%s%s%s", label, colon, what);
    kernel k = {.name = name, .blocks = (long)blocks, .threads = fft->l, .cost = cost,
                .private_words = -1};
    int i = kernel_dag_add(dag, &k);
    if (i < 0)
        return -1;
    if (*last >= 0)
        kernel_dag_after(dag, i, *last);
    *last = i;
    return 0;
}

/* The powers 1, ω, ..., ω^(n-1) by a three-kernel prefix sum (line 5369). */
static int append_roots(kernel_dag *dag, int *last, const stockham_fft *fft)
{
    double l = fft->l, scan_blocks = fft->n / (4 * l);
    block_cost scan = {.span = 8 * log2(l) + 17, .work = 16 * l + 1, .reads = 4, .writes = 4};
    block_cost add_sums = {.span = 4, .work = 4 * l, .reads = 5, .writes = 4};
    block_cost mediate = scan;
    cuda_tile_scan_classes(&scan, fft->l, 1);
    cuda_scan_apply_classes(&add_sums, fft->l, 1);
    double chunks = ceil(scan_blocks / (4 * l));
    cuda_tile_scan_classes(&mediate, fft->l, 1);
    for (int c = 0; c < OP_CLASSES; c++) {
        mediate.span_ops[c] *= chunks;
        mediate.work_ops[c] *= chunks;
    }
    mediate.bank_conflicts *= chunks;
    mediate.span_ops[OP_MULMOD] += 5 * chunks; /* 4 items and the carry, per chunk */
    mediate.work_ops[OP_MULMOD] += 5 * chunks * l;
    if (append(dag, last, fft, "roots-inclusive", -1, scan_blocks, scan) < 0 ||
        append(dag, last, fft, "roots-mediate", -1, 1, mediate) < 0 ||
        append(dag, last, fft, "roots-exclusive", -1, scan_blocks - 1, add_sums) < 0)
        return -1;
    return 0;
}

/* Phase 3, x -> (DFT_2 ⊗ I_{n/2}) x: n/2 butterflies, one per thread. */
static int append_butterfly(kernel_dag *dag, int *last, const stockham_fft *fft, int step)
{
    double l = fft->l;
    block_cost cost = {.span = 8, .work = 16 * l, .reads = 2, .writes = 2};
    cost_set_classes(&cost, fft->l, 2, 0, 2, 0, 0);
    return append(dag, last, fft, "butterfly", step, fft->n / (2 * l), cost);
}

/* Step i >= 1: phase 1 (stride permutation), phase 2 (twiddles), phase 3. */
static int append_step(kernel_dag *dag, int *last, const stockham_fft *fft, int step)
{
    double l = fft->l;
    block_cost stride = {.span = 25, .work = 25 * l, .reads = 1, .writes = 1};
    block_cost twiddle = {.span = 10, .work = 20 * l, .reads = 1, .writes = 1};
    cost_set_classes(&stride, fft->l, 10, 0, 0, 0, 0);
    cost_set_classes(&twiddle, fft->l, 6, 1, 0, 0, 0);
    if (append(dag, last, fft, "stride", step, fft->n / l, stride) < 0 ||
        append(dag, last, fft, "twiddle", step, fft->n / (2 * l), twiddle) < 0)
        return -1;
    return append_butterfly(dag, last, fft, step);
}

int stockham_append(kernel_dag *dag, const stockham_fft *fft, int after)
{
    int last = after, k = (int)log2(fft->n);
    if (fft->with_roots && append_roots(dag, &last, fft) < 0)
        return -1;
    if (append_butterfly(dag, &last, fft, 0) < 0)
        return -1;
    for (int step = 1; step < k; step++)
        if (append_step(dag, &last, fft, step) < 0)
            return -1;
    return last;
}

int stockham_kernels(const stockham_fft *fft)
{
    return 3 * (int)log2(fft->n) - 2 + (fft->with_roots ? 3 : 0);
}

/* ---- the `stockham` built-in program ---- */

static stockham_fft program_fft(const vars *params)
{
    stockham_fft fft = {.label = NULL, .n = *vars_get(params, "n"),
                        .l = (int)*vars_get(params, "l"), .with_roots = 1};
    return fft;
}

static kernel_dag *build(const vars *params, const machine *m)
{
    double l = *vars_get(params, "l");
    if (l != floor(l) || l < 2 || l > 0x1p20) { /* before ℓ becomes an int */
        fail("program 'stockham': ℓ must be a power of two >= 2 (ℓ = %g)", l);
        return NULL;
    }
    stockham_fft fft = program_fft(params);
    if (stockham_check("stockham", &fft, m) < 0)
        return NULL;
    kernel_dag *dag = kernel_dag_new("stockham");
    if (stockham_append(dag, &fft, -1) < 0) {
        kernel_dag_free(dag);
        return NULL;
    }
    return dag;
}

/* Paper §4.2, as printed. */
static int closed_form_sh(const vars *params, const machine *m, closed_form *out)
{
    double n = *vars_get(params, "n"), l = *vars_get(params, "l"), U = m->u;
    double lg = log2(n), ll = log2(l);
    out->W = 43 * n * lg + n / (4 * l) + 12 * l + 1 - 30 * n;
    out->S = 43 * lg + 16 * ll + 3;
    out->O = 5 * n * U * lg / l + 5 * n * U / (4 * l);
    out->N = n * (8 * lg - 5) / (4 * l);
    out->L = 3 * lg + 1;
    out->C = 8 * ll + 4 * U + 17;
    out->T = lg * (40 * ll + 20 * U + 85) - 2 * ll - U - 17.0 / 4;
    return 0;
}

const builtin_program program_stockham = {
    .name = "stockham",
    .summary = "Stockham FFT of size n, 3 log n + 1 kernels incl. the powers of ω (paper §4.2, thesis App. B l.5343)",
    .defaults = "n=65536 l=128",
    .kernels = "programs/stockham/kernels.c",
    .build = build,
    .closed_form = closed_form_sh,
};
