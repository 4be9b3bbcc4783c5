/*
 * stockham.cuh -- the Stockham FFT over Z/pZ as MCM kernels, shared by the
 * stockham program and by fft-mult.
 *
 * Follows: MCM paper section 4.2 and thesis Appendix B, Stockham worksheet
 * (l. 5343-5470):
 *   DFT_n = prod_{i=0}^{k-1} (DFT_2 (x) I_{n/2}) (D_{2,2^{k-i-1}} (x) I_{2^i})
 *                             (L_2^{2^{k-i}} (x) I_{2^i}),     k = log2 n.
 * The rightmost factor (i = k-1) reduces to DFT_2 (x) I_{n/2} ("first compute
 * phase 3 once"); then for i = k-2 down to 0 three kernels:
 *   phase 1  stride permutation L_2^{2^{k-i}} (x) I_{2^i}: n/l blocks, one
 *            element per thread (1 read, 1 write);
 *   phase 2  twiddles D_{2,2^{k-i-1}} (x) I_{2^i}: n/(2l) blocks, one thread
 *            per element of the second half (1 read of x, 1 of a power, 1 write);
 *   phase 3  butterflies DFT_2 (x) I_{n/2}: n/(2l) blocks, one thread per pair
 *            (2 reads, 2 writes).
 * So one FFT is 3 log2(n) - 2 launches; with the three prefix-scan kernels
 * that compute the powers of omega, L = 3 log2(n) + 1 (worksheet (2.5.2)).
 *
 * Conventions (checked numerically against DFT_n): L_2^N maps x to
 * (x_0, x_2, ..., x_{N-2}, x_1, x_3, ..., x_{N-1}) (even-odd split), and
 * D_{2,q} = I_q (+) diag(1, w_N, ..., w_N^{q-1}) with w_N = omega^{n/N}.
 * All accesses are coalesced; phase 1 is out of place (two buffers), phases
 * 2 and 3 in place.  The inverse DFT uses omega^{-e} = omega^{n-e}, read from
 * the same table of powers; the 1/n factor is left to the caller.
 */
#ifndef MCM_STOCKHAM_CUH
#define MCM_STOCKHAM_CUH

#include <stdint.h>

#include "block_scan.cuh"
#include "cuda_common.cuh"
#include "zp.h"

/* phase 3, also the very first kernel: (x[t], x[t+half]) -> (u+v, u-v) */
__global__ void stockham_butterfly_kernel(const uint32_t *in, uint32_t *out,
                                          long half)
{
    long t = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= half)
        return;
    uint32_t u = in[t], v = in[t + half];
    out[t] = zp_add(u, v);
    out[t + half] = zp_sub(u, v);
}

/*
 * phase 1: y = (L_2^N (x) I_q) x with q = 2^log2q, N = n / q.  Viewing x as N
 * rows of q elements, output row r < N/2 is input row 2r and output row
 * N/2 + r is input row 2r + 1.  One thread per output element.
 */
__global__ void stockham_stride_kernel(const uint32_t *in, uint32_t *out,
                                       long n, int log2q)
{
    long g = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (g >= n)
        return;
    long row = g >> log2q, col = g & ((1L << log2q) - 1);
    long half_rows = (n >> log2q) / 2;
    long src_row = row < half_rows ? 2 * row : 2 * (row - half_rows) + 1;
    out[g] = in[(src_row << log2q) + col];
}

/*
 * phase 2: x = (D_{2,N/2} (x) I_q) x.  Element n/2 + t (second half) is
 * multiplied by w_N^(t / q) = omega^((t / q) * q).  One thread per element of
 * the second half.
 */
__global__ void stockham_twiddle_kernel(uint32_t *x, const uint32_t *powers,
                                        long n, int log2q, int inverse)
{
    long t = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n / 2)
        return;
    long e = (t >> log2q) << log2q;                 /* exponent of omega */
    long index = inverse ? ((n - e) & (n - 1)) : e;   /* omega^-e = omega^(n-e) */
    x[n / 2 + t] = zp_mul(x[n / 2 + t], powers[index]);
}

/* fill every word with omega (the input of the powers scan) */
__global__ void fill_kernel(uint32_t *x, long count, uint32_t value)
{
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count)
        x[i] = value;
}

/*
 * powers[e] = omega^e for 0 <= e < n, as the exclusive prefix product of
 * (omega, omega, ..., omega): the three scan kernels of block_scan.cuh.
 * omega_fill holds n copies of omega (set up once with fill_kernel);
 * tile_totals holds scan_tiles(n, l) words.
 */
static void stockham_powers(const uint32_t *omega_fill, uint32_t *powers,
                            uint32_t *tile_totals, long n, int l)
{
    scan_exclusive<ScanMulZp>(omega_fill, powers, tile_totals, n, l);
}

/*
 * DFT_n of in (left untouched) at omega (inverse = 0) or omega^-1
 * (inverse = 1, without the 1/n factor).  buf0 and buf1 are n-word work
 * buffers; returns the one holding the result.  3 log2(n) - 2 launches.
 */
static uint32_t *stockham_fft(const uint32_t *in, uint32_t *buf0,
                              uint32_t *buf1, const uint32_t *powers, long n,
                              int l, int inverse)
{
    int k = log2_exact(n);
    unsigned full_blocks = (unsigned)ceil_div(n, l);
    unsigned half_blocks = (unsigned)ceil_div(n / 2, l);
    uint32_t *cur = buf0, *other = buf1;
    LAUNCH(stockham_butterfly_kernel, half_blocks, l, 0, in, cur, n / 2);
    for (int i = k - 2; i >= 0; i--) {
        LAUNCH(stockham_stride_kernel, full_blocks, l, 0, cur, other, n, i);
        LAUNCH(stockham_twiddle_kernel, half_blocks, l, 0, other, powers, n,
               i, inverse);
        LAUNCH(stockham_butterfly_kernel, half_blocks, l, 0, other, other,
               n / 2);
        uint32_t *swap = cur;
        cur = other;
        other = swap;
    }
    return cur;
}

#endif /* MCM_STOCKHAM_CUH */
