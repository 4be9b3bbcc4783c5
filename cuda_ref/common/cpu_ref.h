/*
 * cpu_ref.h -- serial CPU references that every CUDA program checks its
 * result against (and that tests/test_cuda_ref.c checks against each other).
 *
 * Owns: the naive DFT and a serial radix-2 FFT over Z/pZ, schoolbook and
 * FFT-based polynomial products, and an LSD radix sort of 32-bit keys.
 * (The other case studies' references are in their folders, programs/CASE/.)
 *
 * Conventions: a polynomial is a dense array of coefficients in Z/pZ, index =
 * degree.  "size" means number of coefficients (deg + 1), as in the MCM paper
 * (section 3: deg(a) = n - 1, deg(b) = m - 1).
 *
 * Compiled by gcc (tests) and by nvcc (the CUDA programs' host side), so it is
 * plain C with no CUDA in it.
 */
#ifndef MCM_CPU_REF_H
#define MCM_CPU_REF_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* y = DFT_n(x) at the root w: y[j] = sum_i x[i] w^(ij).  O(n^2). */
void cpu_dft_naive(const uint32_t *x, uint32_t *y, size_t n, uint32_t w);

/* in-place DFT_n at the root w (n a power of two), natural order in and out */
void cpu_fft(uint32_t *x, size_t n, uint32_t w);

/* f = a * b with a of size n, b of size m; f has size n + m - 1 */
void cpu_mul_schoolbook(const uint32_t *a, size_t n, const uint32_t *b,
                        size_t m, uint32_t *f);
void cpu_mul_fft(const uint32_t *a, size_t n, const uint32_t *b, size_t m,
                 uint32_t *f);


/* LSD radix sort, four passes of 8-bit digits */
void cpu_radix_sort_u32(uint32_t *keys, size_t n);

/* comparator for qsort on uint32_t */
int cpu_cmp_u32(const void *x, const void *y);

#ifdef __cplusplus
}
#endif

#endif /* MCM_CPU_REF_H */
