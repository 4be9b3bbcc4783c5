/*
 * contiguous.c — the contiguous memory access of the DMM/UMM chapter, as a
 * built-in program for DMM and UMM machines.
 *
 * Source: dmm-umm-chapter.txt §3 (Nakano et al.), lines 58–81:
 *
 *     for t = 0 to n/p − 1:  for i = 0 to p − 1 in parallel:
 *         T(i) accesses a[p·t + i]
 *
 * with a[0] at cell 0.  Lemma 1's proof counts it exactly when w | p and
 * p | n (lines 67–71):
 *     nl/p + p/w − 1   when p/w <= l  (case 1: W(0) waits for its requests)
 *     n/w + l − 1      when p/w > l   (case 2: the warps inject back to back)
 * and the lemma covers n < p with n of the p threads, O(n/w + l) (line 77; the
 * chapter writes "the prefix-sums" there, meaning the contiguous access).
 * Beyond those cases (p ∤ n, w ∤ p, n < p) the chapter gives only the O()
 * bound; this program prints our exact ⌈⌉ form (lemma1_time, dmm_umm.h)
 * instead: with R = ⌈n/p⌉ rounds, q = ⌈p/w⌉ warps and q' warps in the last
 * round, T = (R − 1)·max(l, q) + l + q' − 1.  It is exact on the DMM, and
 * on the UMM when w | p or n <= p: otherwise a round starts off an
 * address-group boundary and the UMM may take longer (flagged "not
 * exact").
 *
 * Params: n (cells, whole >= 1) and p (threads).  p = 0 (the default)
 * takes the machine's p; a param p >= 1 wins over the machine's, and the
 * point runs (and is reported) on p threads.  So `--set p=64` and a sweep
 * over p set the threads.  On an MCM machine the program is refused.
 */
#include "fail.h"
#include "program.h"

#include <math.h>
#include <stdio.h>

static kernel_dag *build(const vars *params, const machine *m)
{
    (void)params;
    (void)m;
    fail("program 'contiguous' is the chapter's contiguous access (Lemma 1) for a DMM or a UMM "
         "machine; it has no MCM kernels (use machine = { kind = \"dmm\"; p = ...; w = ...; l = ...; })");
    return NULL;
}

/* Lemma 1 at this point: the chapter's own formula where its proof is
 * exact, our ⌈⌉ form elsewhere. */
static void lemma1_bound(access_program *out, double n, double p, double w, double l, int umm)
{
    int w_divides_p = fmod(p, w) == 0, exact = !umm || w_divides_p || n <= p;
    if (w_divides_p && fmod(n, p) == 0) {
        if (p / w <= l)
            access_bound(out, "Lemma 1", "nl/p + p/w - 1 (p/w <= l)", n * l / p + p / w - 1, 1);
        else
            access_bound(out, "Lemma 1", "n/w + l - 1 (p/w > l)", n / w + l - 1, 1);
        return;
    }
    char formula[96];
    snprintf(formula, sizeof formula, "%s(R-1)max(l,q) + l + q' - 1 (ours)", exact ? "" : "not exact: ");
    access_bound(out, "Lemma 1", formula, lemma1_time(n, p, w, l), exact);
}

static int accesses(const vars *params, const machine *m, access_program *out)
{
    double n = *vars_get(params, "n"), p = *vars_get(params, "p");
    if (n < 1 || n != floor(n) || n > 1e12)
        return fail("program 'contiguous': needs a whole number of cells n >= 1 (got n = %g)", n);
    if (p < 0 || p != floor(p) || p > 1e9)
        return fail("program 'contiguous': p is the number of threads, a whole number >= 1, or 0 for "
                    "the machine's p (got p = %g)", p);
    if (p >= 1 && access_threads(out, (int)p) < 0)
        return -1;
    p = access_program_threads(out);
    if (access_contiguous(out, 0, 1, (long)n) < 0)
        return -1;
    lemma1_bound(out, n, p, m->warp, m->latency, m->kind == KIND_UMM);
    return 0;
}

const builtin_program program_contiguous = {
    .name = "contiguous",
    .summary = "contiguous access of n cells by p threads (DMM/UMM only; chapter §3, Lemma 1)",
    .defaults = "n=4096 p=0",
    .build = build,
    .accesses = accesses,
};
