/*
 * reference.h — the Euclidean GCD's serial reference and its inputs, for
 * kernels.c (both builds: static functions on the host's zp_* of
 * sim/exec/exec.h, which the card's mapping also provides) and for the tests.
 *
 * Owns: the classical remainder sequence over Z/pZ (the gcd made monic),
 * the product of two polynomials (schoolbook), and random polynomials
 * whose leading coefficient is not zero.  A polynomial is its coefficients
 * from degree 0 up, one word each (below the prime).
 */
#ifndef EUCLID_REFERENCE_H
#define EUCLID_REFERENCE_H

#include <stdlib.h>
#include <string.h>


/* x − f·y over Z/pZ, p = MCM_PRIME: zp_sub(p, x, zp_mul(p, f, y)), with
 * no call where the three are below p (every coefficient here), the
 * remainder by the constant prime then a multiplication the compiler
 * makes (the reference's inner loop: its time is most of the check's). */
static inline word reference_sub_product(word x, word f, word y)
{
    if (x >= MCM_PRIME || f >= MCM_PRIME || y >= MCM_PRIME)
        return zp_sub(MCM_PRIME, x, zp_mul(MCM_PRIME, f, y));
    word fy = f * y % MCM_PRIME;
    return x >= fy ? x - fy : x + MCM_PRIME - fy;
}

/* The degree of x[0 .. d], at most d: its highest nonzero coefficient
 * (−1 for the zero polynomial). */
static int reference_degree(const word *x, int d)
{
    while (d >= 0 && x[d] == 0)
        d--;
    return d;
}

/* x[0 .. d] divided by its leading coefficient x[d] (not zero). */
static void reference_make_monic(word *x, int d)
{
    word inv = zp_pow(MCM_PRIME, x[d], MCM_PRIME - 2);
    for (int i = 0; i <= d; i++)
        x[i] = zp_mul(MCM_PRIME, x[i], inv);
}

/* The monic gcd of a (n coefficients) and b (m <= n coefficients) into
 * gcd (m words), by the classical algorithm: r0 ← r0 mod r1, then swap,
 * until r1 is zero.  Returns its degree (−1 when a = b = 0). */
static int reference_gcd(const word *a, int n, const word *b, int m, word *gcd)
{
    word *r0 = (word *)malloc(sizeof *r0 * (size_t)n), *r1 = (word *)malloc(sizeof *r1 * (size_t)n);
    memcpy(r0, a, sizeof *r0 * (size_t)n);
    memcpy(r1, b, sizeof *r1 * (size_t)m);
    int d0 = reference_degree(r0, n - 1), d1 = reference_degree(r1, m - 1);
    while (d1 >= 0) {
        word inv = zp_pow(MCM_PRIME, r1[d1], MCM_PRIME - 2);
        while (d0 >= d1) {
            word f = zp_mul(MCM_PRIME, r0[d0], inv);
            for (int j = 0; j <= d1; j++)
                r0[d0 - d1 + j] = reference_sub_product(r0[d0 - d1 + j], f, r1[j]);
            d0 = reference_degree(r0, d0 - 1);
        }
        word *r = r0;
        r0 = r1;
        r1 = r;
        int d = d0;
        d0 = d1;
        d1 = d;
    }
    if (d0 >= 0) {
        reference_make_monic(r0, d0);
        memcpy(gcd, r0, sizeof *gcd * (size_t)(d0 + 1));
    }
    free(r0);
    free(r1);
    return d0;
}

/* out (nx + ny − 1 words) = x·y. */
static void reference_product(const word *x, int nx, const word *y, int ny, word *out)
{
    for (int i = 0; i < nx + ny - 1; i++)
        out[i] = 0;
    for (int i = 0; i < nx; i++)
        for (int j = 0; j < ny; j++)
            out[i + j] = zp_add(MCM_PRIME, out[i + j], zp_mul(MCM_PRIME, x[i], y[j]));
}

/* size random coefficients below the prime, the leading one not zero. */
static void reference_random(word *x, int size, uint64_t *state)
{
    for (int i = 0; i + 1 < size; i++)
        x[i] = mcm_random(state) % MCM_PRIME;
    x[size - 1] = 1 + mcm_random(state) % (MCM_PRIME - 1);
}

#endif
