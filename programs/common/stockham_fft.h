/*
 * stockham_fft.h — the Stockham FFT over Z/pZ, its kernels written once
 * (sim/exec/mcm_kernel.h), for the case studies that transform: `stockham`
 * (programs/stockham/) and the three FFTs of `fft-mult`
 * (programs/fft-mult/).  The model of the same kernels, their declared
 * costs, is programs/stockham.h (stockham.c).
 *
 * Source: MCM paper §4.2 and the thesis' Appendix B worksheet "Stockham
 * FFT algorithm" (xie-thesis-2016.txt, line 5343):
 *   DFT_n = Π_{i<k} (DFT_2 ⊗ I_{n/2}) (D_{2,2^(k-i-1)} ⊗ I_{2^i}) (L_2^{2^(k-i)} ⊗ I_{2^i}),
 * k = log n.  The rightmost factor reduces to DFT_2 ⊗ I_{n/2}; then for
 * i = k−2 down to 0 (kernel step s = k−1−i, rows of q = 2^i words):
 *   stride[s]     n/ℓ blocks, a thread per word: L_2^{n/q} ⊗ I_q, output
 *                 row r < N/2 is input row 2r, row N/2 + r is row 2r + 1
 *                 (N = n/q rows), gathered: out[g] = in[source of g];
 *   twiddle[s]    n/(2ℓ) blocks, a thread per word of the second half:
 *                 D_{2,N/2} ⊗ I_q, word n/2 + j times ω^e, e = ⌊j/q⌋q,
 *                 read from the table of powers (ω^−e = ω^(n−e) for the
 *                 inverse transform);
 *   butterfly[s]  n/(2ℓ) blocks, a thread per pair, in place:
 *                 (x_j, x_{j+n/2}) → (x_j + x_{j+n/2}, x_j − x_{j+n/2}).
 * 3 log n − 2 kernels; the stride permutation is out of place (two
 * buffers), the rest in place.  These are the grids, accesses and
 * arithmetic of the hand-written CUDA they replace
 * (cuda_ref/common/stockham.cuh, before issue 26), kernel for kernel.
 *
 * Operations: exec mode counts the Z/pZ arithmetic (exec_zp_*); the index
 * arithmetic, which it cannot see, is charged as the worksheet counts it
 * per thread, as model.c's S(B) and W(B) do: 6 a butterfly (3 bit
 * operations, 3 additions, line 5357), 25 a stride word (line 5361: 14
 * bit operations, 10 additions, a multiplication; the worksheet charges
 * it at every step, and this gather does the same index arithmetic at
 * every step), 9 a twiddle (5 bit operations, 4 additions, line 5365).
 */
#ifndef MCM_STOCKHAM_FFT_H
#define MCM_STOCKHAM_FFT_H

#include "mcm_kernel.h"

#define BUTTERFLY_INDEX_OPS 6
#define STRIDE_INDEX_OPS 25
#define TWIDDLE_INDEX_OPS 9

typedef struct fft_args {
    gmem in, out;  /* the same array for twiddle and a butterfly in place */
    gmem powers;   /* ω^e, e < n */
    long n;
    int log_q;     /* rows of q = 2^log_q words */
    int inverse;   /* 1: the powers of ω^-1 */
} fft_args;

/* Phase 3, DFT_2 ⊗ I_{n/2}: thread j, the pair (j, j + n/2). */
MCM_STEP(butterflies, fft_args, a)
{
    long j = t->bid * t->threads + t->tid, half = a->n / 2;
    if (j >= half)
        return;
    exec_ops(t, BUTTERFLY_INDEX_OPS);
    word u = exec_gread(t, a->in, j), v = exec_gread(t, a->in, j + half);
    exec_gwrite(t, a->out, j, exec_zp_add(t, u, v));
    exec_gwrite(t, a->out, j + half, exec_zp_sub(t, u, v));
}

/* Phase 1, L_2^{n/q} ⊗ I_q: thread g, output word g. */
MCM_STEP(gather_rows, fft_args, a)
{
    long g = t->bid * t->threads + t->tid;
    if (g >= a->n)
        return;
    long row = g >> a->log_q, column = g & ((1L << a->log_q) - 1), half_rows = (a->n >> a->log_q) / 2;
    long from = row < half_rows ? 2 * row : 2 * (row - half_rows) + 1;
    exec_ops(t, STRIDE_INDEX_OPS);
    exec_gwrite(t, a->out, g, exec_gread(t, a->in, (from << a->log_q) + column));
}

/* Phase 2, D_{2,N/2} ⊗ I_q: thread j, word n/2 + j. */
MCM_STEP(twiddle_half, fft_args, a)
{
    long j = t->bid * t->threads + t->tid;
    if (j >= a->n / 2)
        return;
    long e = j >> a->log_q << a->log_q, power = a->inverse ? (a->n - e) & (a->n - 1) : e;
    exec_ops(t, TWIDDLE_INDEX_OPS);
    word x = exec_gread(t, a->out, a->n / 2 + j);
    exec_gwrite(t, a->out, a->n / 2 + j, exec_zp_mul(t, x, exec_gread(t, a->powers, power)));
}

MCM_KERNEL(butterfly, fft_args, butterflies);
MCM_KERNEL(stride, fft_args, gather_rows);
MCM_KERNEL(twiddle, fft_args, twiddle_half);

/* log2 of n, a power of two */
static inline int fft_log2(long n)
{
    int k = 0;
    while (1L << k < n)
        k++;
    return k;
}

/* The buffer that holds the transform: buf0 after an even number of
 * steps (log n − 1), buf1 after an odd one. */
static inline gmem stockham_result(gmem buf0, gmem buf1, long n)
{
    return (fft_log2(n) - 1) % 2 == 0 ? buf0 : buf1;
}

/* DFT_n of x (not written) at the root whose powers `powers` holds, or
 * (inverse) at its inverse, without the factor 1/n, into
 * stockham_result(buf0, buf1, n); blocks of ℓ threads, n a power of two
 * >= 2.  3 log n − 2 launches.  0, or -1 (exec mode: a broken rule). */
static int stockham_fft(exec_run *run, gmem x, gmem buf0, gmem buf1, gmem powers, long n, int l, int inverse)
{
    long full = (n + l - 1) / l, half = (n / 2 + l - 1) / l;
    fft_args first = {x, buf0, powers, n, 0, inverse};
    if (mcm_launch(run, &butterfly, half, l, 0, &first) < 0)
        return -1;
    gmem cur = buf0, other = buf1;
    for (int i = fft_log2(n) - 2; i >= 0; i--) {
        fft_args step = {cur, other, powers, n, i, inverse}, in_place = {other, other, powers, n, i, inverse};
        if (mcm_launch(run, &stride, full, l, 0, &step) < 0 || mcm_launch(run, &twiddle, half, l, 0, &in_place) < 0 ||
            mcm_launch(run, &butterfly, half, l, 0, &in_place) < 0)
            return -1;
        gmem swap = cur;
        cur = other;
        other = swap;
    }
    return 0;
}

#endif
