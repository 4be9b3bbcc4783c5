/*
 * fft_reference.h — the serial references of the FFT case studies
 * (programs/cooley-tukey/, programs/stockham/, programs/fft-mult/): host code, uncounted, that
 * their `check` compares the kernels' results with, and that their tests
 * check against the definition (the naive DFT, the schoolbook product).
 *
 * Z/pZ with p = 469762049 = 7·2^26 + 1, the prime of exec mode and of the
 * card's mapping (MCM_PRIME): 3 generates its multiplicative group, so
 * 3^((p−1)/n) is a primitive n-th root of unity for every n = 2^k <= 2^26.
 */
#ifndef MCM_FFT_REFERENCE_H
#define MCM_FFT_REFERENCE_H

#include "mcm_kernel.h"

#include <stdlib.h>
#include <string.h>

#define FFT_MAX_LOG2 26 /* 2^26 divides p − 1 */

/* A primitive n-th root of unity, n a power of two <= 2^26. */
static inline word fft_root_of_unity(long n)
{
    return zp_pow(MCM_PRIME, 3, (MCM_PRIME - 1) / (uint64_t)n);
}

/* x = DFT_ω(x) in place, x_j = Σ_i x_i ω^(ij): the iterative radix-2 FFT
 * (bit reversal, then log n rounds of butterflies), n a power of two. */
static inline void serial_fft(word *x, long n, word omega)
{
    for (long i = 1, j = 0; i < n; i++) {
        long bit = n >> 1;
        for (; j & bit; bit >>= 1)
            j ^= bit;
        j |= bit;
        if (i < j) {
            word swap = x[i];
            x[i] = x[j];
            x[j] = swap;
        }
    }
    for (long len = 2; len <= n; len *= 2) {
        word step = zp_pow(MCM_PRIME, omega, (uint64_t)(n / len)); /* a primitive len-th root */
        for (long start = 0; start < n; start += len) {
            word w = 1;
            for (long k = 0; k < len / 2; k++) {
                word u = x[start + k], v = zp_mul(MCM_PRIME, x[start + k + len / 2], w);
                x[start + k] = zp_add(MCM_PRIME, u, v);
                x[start + k + len / 2] = zp_sub(MCM_PRIME, u, v);
                w = zp_mul(MCM_PRIME, w, step);
            }
        }
    }
}

/* f = a·b (n and m coefficients; f gets n + m − 1) by serial FFTs of the
 * least size N = 2^k >= n + m − 1: the transforms, their product, the
 * inverse transform and 1/N. */
static inline void serial_fft_product(const word *a, long n, const word *b, long m, word *f)
{
    long size = 1;
    while (size < n + m - 1)
        size *= 2;
    word *fa = (word *)calloc((size_t)size, sizeof *fa), *fb = (word *)calloc((size_t)size, sizeof *fb);
    if (!fa || !fb)
        abort();
    memcpy(fa, a, sizeof *a * (size_t)n);
    memcpy(fb, b, sizeof *b * (size_t)m);
    word omega = fft_root_of_unity(size);
    serial_fft(fa, size, omega);
    serial_fft(fb, size, omega);
    for (long i = 0; i < size; i++)
        fa[i] = zp_mul(MCM_PRIME, fa[i], fb[i]);
    serial_fft(fa, size, zp_pow(MCM_PRIME, omega, (uint64_t)size - 1)); /* ω^-1 */
    word inverse_size = zp_pow(MCM_PRIME, (word)size, MCM_PRIME - 2);
    for (long i = 0; i < n + m - 1; i++)
        f[i] = zp_mul(MCM_PRIME, fa[i], inverse_size);
    free(fa);
    free(fb);
}

#endif
