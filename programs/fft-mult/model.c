/*
 * model.c — FFT-based multiplication of two polynomials over Z/pZ as an
 * MCM program: the model a student computes (its kernels written once are
 * kernels.c).
 *
 * Sources: paper §5.2 (mcm-paper-2015.txt, line 493), thesis §4.5.2 (line
 * 1873), and the Appendix B worksheet "FFT-based multiplication" (thesis
 * line 5822: the FFT's kernels 5835-5945, point-wise multiplication from
 * line 5950, scaling 5976, totals 5999-6027).
 *
 * f = a × b with deg a = n − 1, deg b = m − 1 (n >= m), ω a primitive
 * N-th root of unity whose powers are pre-computed (the paper assumes so:
 * no prefix-sum kernels here, unlike the `stockham` program):
 *   (i)   a' = DFT_ω(a), b' = DFT_ω(b)   two Stockham FFTs of size N
 *   (ii)  f' = a' × b'                    pointwise: N/ℓ blocks, S(B) = 6,
 *                                         W(B) = 6ℓ, α = 2, β = 1 (3U)
 *   (iii) f' = DFT_{ω^-1}(f')             a third Stockham FFT
 *   (iv)  f = f'/N                        scale: N/ℓ blocks, S(B) = 5,
 *                                         W(B) = 5ℓ, α = 1, β = 1 (2U)
 * each FFT being the 3 log N − 2 kernels of stockham.h (the worksheet's
 * FFT_* costs, without the roots).  One chain, as the worksheet counts it
 * (FFTbased_span = 3·FFT_span + ..., line 6007): the two forward FFTs run
 * one after the other.  (Run side by side they would give L = 6 log N − 2
 * and K = 2N/ℓ; the paper's L and K are those of the chain.)
 *
 * What n means.  The worksheet (line 5824) takes inputs "with degree less
 * than n = 2^k" and an n-th root of unity: its n is the FFT size, and the
 * product it returns is f mod x^n − 1, which is a × b only when
 * deg a + deg b < n; §5.3 then compares it with plain multiplication of
 * inputs of the same n.  Here n and m are the INPUT sizes (numbers of
 * coefficients, as for plain-mult), and the FFT size is the least power of
 * two N >= n + m − 1, i.e. N = 2n when n = m is a power of two.  The
 * closed forms below are the paper's with its n read as N.  m = 0 (the
 * default) means m = n, so that a run file can sweep n alone.
 *
 * Closed forms (paper §5.2, as printed, n := N), K = N/ℓ:
 *   W = 129 N log N − 94 N       exact for these kernels
 *   S = 129 log N − 94           exact
 *   O = NU(15 log N − 4)/ℓ       exact
 *   N = N(12 log N − 5)/(2ℓ)     exact (the paper prints (12 n log n − 5)/(2ℓ),
 *                                a typo: the worksheet, line 6019, has n(12 log n − 5))
 *   L = 9 log N − 4              exact
 *   C = 4U + 25                  the DAG's C is max(25 + 2U, 8 + 4U) (see below)
 *   T = (N/K + L)·C = (15 log N − 13/2)(4U + 25)
 * Disagreement: the worksheet's C (line 6027) is the largest span (a stride
 * block, 25) plus the largest overhead (a butterfly block, 4U), which no
 * single block has; max S(B) + O(B) = max(25 + 2U, 8 + 4U) = 41 at U = 8,
 * where the paper says 57.  The Stockham kernels' own quirks (twiddle and
 * butterfly blocks with W(B) = 2ℓ·S(B)) are listed in stockham.c.
 *
 * Constraints: n >= m >= 1 whole; ℓ a power of two; N >= 2ℓ; Z bounds the
 * words one block moves (ours, SPEC §1): the butterflies' 4 per thread,
 * 4ℓ <= Z.
 *
 * Params: n, m (input sizes; m = 0: m = n), l (ℓ).
 */
#include "fail.h"
#include "program.h"
#include "stockham.h"

#include <math.h>
#include <stdio.h>

typedef struct mult_params {
    double n, m, l;
    double size; /* N, the FFT size */
} mult_params;

static int read_params(const vars *params, mult_params *p)
{
    p->n = *vars_get(params, "n");
    p->m = *vars_get(params, "m");
    p->l = *vars_get(params, "l");
    if (p->m == 0)
        p->m = p->n;
    if (p->n < 1 || p->m < 1 || p->n != floor(p->n) || p->m != floor(p->m) || p->m > p->n ||
        p->n > 0x1p40)
        return fail("program 'fft-mult': needs whole n >= m >= 1 (n = %g, m = %g)", p->n, p->m);
    if (p->l < 2 || p->l > 0x1p20 || p->l != floor(p->l))
        return fail("program 'fft-mult': ℓ must be a power of two >= 2 (ℓ = %g)", p->l);
    p->size = ldexp(1.0, (int)ceil(log2(p->n + p->m - 1)));
    return 0;
}

static int chain(kernel_dag *dag, const char *name, double blocks, int l, block_cost cost)
{
    kernel k = {.name = (char *)name, .blocks = (long)blocks, .threads = l, .cost = cost,
                .private_words = -1};
    return kernel_dag_chain(dag, &k);
}

static int append_fft(kernel_dag *dag, const char *label, const mult_params *p)
{
    stockham_fft fft = {.label = label, .n = p->size, .l = (int)p->l, .with_roots = 0};
    return stockham_append(dag, &fft, dag->n - 1) < 0 ? -1 : 0;
}

static kernel_dag *build(const vars *params, const machine *m)
{
    mult_params p;
    if (read_params(params, &p) < 0)
        return NULL;
    stockham_fft fft = {.n = p.size, .l = (int)p.l, .with_roots = 0};
    if (stockham_check("fft-mult", &fft, m) < 0)
        return NULL;
    int l = (int)p.l;
    block_cost pointwise = {.span = 6, .work = 6 * p.l, .reads = 2, .writes = 1};
    block_cost scale = {.span = 5, .work = 5 * p.l, .reads = 1, .writes = 1};
    /* classes from cuda_ref/fft-mult.cu (pointwise_mul_kernel, scale_kernel):
     * one zp_mul, an index and a bound each; the FFTs' as in stockham.c */
    cost_set_classes(&pointwise, l, 2, 1, 0, 0, 0);
    cost_set_classes(&scale, l, 2, 1, 0, 0, 0);
    kernel_dag *dag = kernel_dag_new("fft-mult");
    if (append_fft(dag, "fft-a", &p) < 0 || append_fft(dag, "fft-b", &p) < 0 ||
        chain(dag, "pointwise", p.size / p.l, l, pointwise) < 0 ||
        append_fft(dag, "inverse-fft", &p) < 0 || chain(dag, "scale", p.size / p.l, l, scale) < 0) {
        kernel_dag_free(dag);
        return NULL;
    }
    return dag;
}

/* Paper §5.2, as printed, at the FFT size N. */
static int closed_form_fft(const vars *params, const machine *m, closed_form *out)
{
    mult_params p;
    if (read_params(params, &p) < 0)
        return -1;
    double N = p.size, lg = log2(N), l = p.l, U = m->u;
    out->W = 129 * N * lg - 94 * N;
    out->S = 129 * lg - 94;
    out->O = N * U * (15 * lg - 4) / l;
    out->N = N * (12 * lg - 5) / (2 * l);
    out->L = 9 * lg - 4;
    out->C = 4 * U + 25;
    out->T = (15 * lg - 13.0 / 2) * (4 * U + 25);
    return 0;
}

const builtin_program program_fft_mult = {
    .name = "fft-mult",
    .summary = "FFT-based multiplication: 3 Stockham FFTs of size N >= n+m-1, pointwise, scaling "
               "(paper §5.2, thesis App. B l.5822)",
    .defaults = "n=4096 m=0 l=256",
    .kernels = "programs/fft-mult/kernels.c",
    .build = build,
    .closed_form = closed_form_fft,
};
