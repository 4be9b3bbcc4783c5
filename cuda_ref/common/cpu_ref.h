/*
 * cpu_ref.h -- serial CPU references that every CUDA program checks its
 * result against (and that tests/test_cuda_ref.c checks against each other).
 *
 * Owns: the naive DFT and a serial radix-2 FFT over Z/pZ, schoolbook and
 * FFT-based polynomial products, polynomial division with remainder, the
 * classical Euclidean GCD, and sum / inclusive prefix sums of 32-bit words.
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

/*
 * Division with remainder a = q b + r.  a has size_a coefficients, b has
 * degree deg_b (b[deg_b] != 0) and size_a > deg_b.  q gets size_a - deg_b
 * coefficients, r gets deg_b coefficients (deg r < deg b).
 */
void cpu_divide(const uint32_t *a, size_t size_a, const uint32_t *b,
                size_t deg_b, uint32_t *q, uint32_t *r);

/* degree of a (highest non-zero index) among its first size coefficients; -1 if zero */
int poly_degree(const uint32_t *a, int size);

/* divide a (of degree deg >= 0) by its leading coefficient */
void poly_make_monic(uint32_t *a, int deg);

/*
 * Monic gcd of a (degree deg_a) and b (degree deg_b) by the classical
 * Euclidean algorithm.  g must hold max(deg_a, deg_b) + 1 coefficients.
 * Returns deg g (0 when the inputs are coprime), or -1 if both are zero.
 */
int cpu_gcd(const uint32_t *a, int deg_a, const uint32_t *b, int deg_b,
            uint32_t *g);

/* 32-bit unsigned sums, wrapping modulo 2^32 */
uint32_t cpu_sum_u32(const uint32_t *x, size_t n);
void cpu_inclusive_scan_u32(const uint32_t *x, uint32_t *y, size_t n);

#ifdef __cplusplus
}
#endif

#endif /* MCM_CPU_REF_H */
