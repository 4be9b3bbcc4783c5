/*
 * fft_reference.h — the serial DFT over Z/pZ (p = MCM_PRIME) that the FFT
 * case studies' kernels (written once, sim/mcm_kernel.h) check their
 * results against in `check`: the naive DFT up to 1024 points, the
 * iterative radix-2 FFT above.  Host code of both builds (exec mode and
 * nvcc); included by the kernels files.
 *
 * The DFT at a primitive n-th root of unity ω: y_j = Σ_i x_i ω^(ij).
 */
#ifndef MCM_FFT_REFERENCE_H
#define MCM_FFT_REFERENCE_H

#include "mcm_kernel.h"

#include <stdlib.h>

/* ω_n = 3^((p − 1)/n): 3 generates the multiplicative group of Z/pZ. */
static inline word fft_root_of_unity(long n)
{
    return zp_pow(MCM_PRIME, 3, (MCM_PRIME - 1) / (uint64_t)n);
}

/* y = DFT_ω(x), n a power of two; x and y distinct. */
static inline void fft_serial(const word *x, word *y, long n, word omega)
{
    if (n <= 1024) { /* naive: n² products */
        for (long j = 0; j < n; j++) {
            word w_j = zp_pow(MCM_PRIME, omega, (uint64_t)j), power = 1, sum = 0;
            for (long i = 0; i < n; i++, power = zp_mul(MCM_PRIME, power, w_j))
                sum = zp_add(MCM_PRIME, sum, zp_mul(MCM_PRIME, x[i], power));
            y[j] = sum;
        }
        return;
    }
    int bits = 0;
    while ((1L << bits) < n)
        bits++;
    for (long i = 0; i < n; i++) { /* bit reversal */
        long rev = 0;
        for (int b = 0; b < bits; b++)
            rev |= ((i >> b) & 1) << (bits - 1 - b);
        y[rev] = x[i];
    }
    for (long len = 2; len <= n; len *= 2) {
        word w_len = zp_pow(MCM_PRIME, omega, (uint64_t)(n / len));
        for (long start = 0; start < n; start += len) {
            word w = 1;
            for (long i = 0; i < len / 2; i++, w = zp_mul(MCM_PRIME, w, w_len)) {
                word u = y[start + i], v = zp_mul(MCM_PRIME, y[start + i + len / 2], w);
                y[start + i] = zp_add(MCM_PRIME, u, v);
                y[start + i + len / 2] = zp_sub(MCM_PRIME, u, v);
            }
        }
    }
}

/* 0 if `got` holds DFT_ω(`input`) (n words each), else mcm_fail naming
 * the first difference.  In `check`. */
static inline int fft_check(const char *program, gmem input, gmem got, long n, word omega)
{
    word *x = (word *)malloc(sizeof(word) * (size_t)n), *want = (word *)malloc(sizeof(word) * (size_t)n);
    for (long i = 0; i < n; i++)
        x[i] = mcm_get(input, i);
    fft_serial(x, want, n, omega);
    long at = -1;
    for (long i = 0; i < n && at < 0; i++)
        if (mcm_get(got, i) != want[i])
            at = i;
    int rc = at < 0 ? 0
                    : mcm_fail("%s: DFT[%ld] = %llu, the serial reference gives %llu (n = %ld)", program, at,
                               (unsigned long long)mcm_get(got, at), (unsigned long long)want[at], n);
    free(x);
    free(want);
    return rc;
}

#endif
