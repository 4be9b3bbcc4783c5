/*
 * zp.h -- arithmetic in the prime field Z/pZ, shared by the CPU references
 * (gcc) and by the CUDA kernels (nvcc).
 *
 * Owns: the prime p, modular add / sub / mul / pow / inverse, and the
 * primitive roots of unity used by every FFT-based case study.
 *
 * Paper: every polynomial case study of the MCM paper (Haque, Moreno Maza,
 * Xie 2015, sections 3-5) works over Z/pZ with p a 30-bit prime.  We take
 * p = 469762049 = 7 * 2^26 + 1, whose multiplicative group has order
 * divisible by 2^26, so DFTs of every size 2^k <= 2^26 exist.  3 is a
 * primitive root modulo p, so 3^((p-1)/N) is a primitive N-th root of unity.
 *
 * Multiplication uses Barrett reduction with the constant floor(2^64 / p):
 * for x = a*b < p^2 < 2^58 the estimated quotient is off by at most one, so a
 * single conditional subtraction gives the exact residue.
 */
#ifndef MCM_ZP_H
#define MCM_ZP_H

#include <stdint.h>

#ifdef __CUDACC__
#define ZP_FN static inline __host__ __device__
#else
#define ZP_FN static inline
#endif

#define ZP_P 469762049u                 /* 7 * 2^26 + 1 */
#define ZP_GENERATOR 3u                  /* a primitive root modulo p */
#define ZP_BARRETT 39268272336ull        /* floor(2^64 / p) */
#define ZP_MAX_LOG2_N 26                 /* largest FFT size is 2^26 */

/* (a + b) mod p, for a, b < p */
ZP_FN uint32_t zp_add(uint32_t a, uint32_t b)
{
    uint32_t c = a + b;                  /* < 2p < 2^32: no overflow */
    return c >= ZP_P ? c - ZP_P : c;
}

/* (a - b) mod p, for a, b < p */
ZP_FN uint32_t zp_sub(uint32_t a, uint32_t b)
{
    return a >= b ? a - b : a + ZP_P - b;
}

/* high 64 bits of the 128-bit product x * y */
ZP_FN uint64_t zp_mulhi64(uint64_t x, uint64_t y)
{
#ifdef __CUDA_ARCH__
    return __umul64hi(x, y);
#else
    return (uint64_t)(((unsigned __int128)x * y) >> 64);
#endif
}

/* (a * b) mod p, for a, b < p (Barrett reduction) */
ZP_FN uint32_t zp_mul(uint32_t a, uint32_t b)
{
    uint64_t x = (uint64_t)a * b;
    uint64_t q = zp_mulhi64(x, ZP_BARRETT);
    uint64_t r = x - q * ZP_P;          /* 0 <= r < 2p */
    return (uint32_t)(r >= ZP_P ? r - ZP_P : r);
}

/* a^e mod p by square-and-multiply */
ZP_FN uint32_t zp_pow(uint32_t a, uint64_t e)
{
    uint32_t result = 1;
    while (e > 0) {
        if (e & 1)
            result = zp_mul(result, a);
        a = zp_mul(a, a);
        e >>= 1;
    }
    return result;
}

/* a^(-1) mod p for a != 0 (Fermat: a^(p-2)) */
ZP_FN uint32_t zp_inv(uint32_t a)
{
    return zp_pow(a, ZP_P - 2);
}

/* a primitive N-th root of unity, N a power of two <= 2^26 */
ZP_FN uint32_t zp_root_of_unity(uint64_t N)
{
    return zp_pow(ZP_GENERATOR, (ZP_P - 1) / N);
}

#endif /* MCM_ZP_H */
