/*
 * cpu_ref.c -- serial CPU references (see cpu_ref.h for the contracts).
 *
 * Owns: the ground truth every CUDA program compares against.  These are the
 * textbook serial algorithms (Knuth vol. II ch. 4.6 for division and the
 * Euclidean algorithm; the iterative radix-2 FFT), written for clarity.
 */
#include "cpu_ref.h"

#include <stdlib.h>
#include <string.h>

#include "zp.h"

void cpu_dft_naive(const uint32_t *x, uint32_t *y, size_t n, uint32_t w)
{
    for (size_t j = 0; j < n; j++) {
        uint32_t wj = zp_pow(w, j);     /* w^j */
        uint32_t wij = 1;               /* w^(ij), i = 0 */
        uint32_t acc = 0;
        for (size_t i = 0; i < n; i++) {
            acc = zp_add(acc, zp_mul(x[i], wij));
            wij = zp_mul(wij, wj);
        }
        y[j] = acc;
    }
}

/* reverse the low log2n bits of i */
static size_t bit_reverse(size_t i, int log2n)
{
    size_t r = 0;
    for (int b = 0; b < log2n; b++) {
        r = (r << 1) | (i & 1);
        i >>= 1;
    }
    return r;
}

void cpu_fft(uint32_t *x, size_t n, uint32_t w)
{
    int log2n = 0;
    while (((size_t)1 << log2n) < n)
        log2n++;
    for (size_t i = 0; i < n; i++) {
        size_t j = bit_reverse(i, log2n);
        if (i < j) {
            uint32_t t = x[i];
            x[i] = x[j];
            x[j] = t;
        }
    }
    /* butterflies of span len: root w^(n/len) */
    for (size_t len = 2; len <= n; len <<= 1) {
        uint32_t wlen = zp_pow(w, n / len);
        for (size_t start = 0; start < n; start += len) {
            uint32_t t = 1;
            for (size_t k = 0; k < len / 2; k++) {
                uint32_t lo = x[start + k];
                uint32_t hi = zp_mul(x[start + k + len / 2], t);
                x[start + k] = zp_add(lo, hi);
                x[start + k + len / 2] = zp_sub(lo, hi);
                t = zp_mul(t, wlen);
            }
        }
    }
}

void cpu_mul_schoolbook(const uint32_t *a, size_t n, const uint32_t *b,
                        size_t m, uint32_t *f)
{
    memset(f, 0, (n + m - 1) * sizeof *f);
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < m; j++)
            f[i + j] = zp_add(f[i + j], zp_mul(a[i], b[j]));
}

void cpu_mul_fft(const uint32_t *a, size_t n, const uint32_t *b, size_t m,
                 uint32_t *f)
{
    size_t size = 1;
    while (size < n + m - 1)
        size <<= 1;
    uint32_t *fa = calloc(size, sizeof *fa);
    uint32_t *fb = calloc(size, sizeof *fb);
    if (!fa || !fb)
        abort();
    memcpy(fa, a, n * sizeof *a);
    memcpy(fb, b, m * sizeof *b);
    uint32_t w = zp_root_of_unity(size);
    cpu_fft(fa, size, w);
    cpu_fft(fb, size, w);
    for (size_t i = 0; i < size; i++)
        fa[i] = zp_mul(fa[i], fb[i]);
    cpu_fft(fa, size, zp_inv(w));       /* inverse DFT up to the factor 1/size */
    uint32_t inv_size = zp_inv((uint32_t)size);
    for (size_t i = 0; i < n + m - 1; i++)
        f[i] = zp_mul(fa[i], inv_size);
    free(fa);
    free(fb);
}

void cpu_divide(const uint32_t *a, size_t size_a, const uint32_t *b,
                size_t deg_b, uint32_t *q, uint32_t *r)
{
    uint32_t *rem = malloc(size_a * sizeof *rem);
    if (!rem)
        abort();
    memcpy(rem, a, size_a * sizeof *a);
    uint32_t inv_lc = zp_inv(b[deg_b]);
    /* one division step per quotient coefficient, from the top degree down */
    for (size_t d = size_a - 1; d + 1 > deg_b; d--) {   /* d >= deg_b */
        size_t shift = d - deg_b;       /* subtract c X^shift b */
        uint32_t c = zp_mul(rem[d], inv_lc);
        q[shift] = c;
        for (size_t i = 0; i <= deg_b; i++)
            rem[shift + i] = zp_sub(rem[shift + i], zp_mul(c, b[i]));
    }
    memcpy(r, rem, deg_b * sizeof *r);
    free(rem);
}

int poly_degree(const uint32_t *a, int size)
{
    int d = size - 1;
    while (d >= 0 && a[d] == 0)
        d--;
    return d;
}

void poly_make_monic(uint32_t *a, int deg)
{
    uint32_t inv_lc = zp_inv(a[deg]);
    for (int i = 0; i <= deg; i++)
        a[i] = zp_mul(a[i], inv_lc);
}

/* a <- a mod b in place (b != 0); returns the new degree of a */
static int reduce_in_place(uint32_t *a, int deg_a, const uint32_t *b, int deg_b)
{
    uint32_t inv_lc = zp_inv(b[deg_b]);
    while (deg_a >= deg_b) {
        int shift = deg_a - deg_b;
        uint32_t c = zp_mul(a[deg_a], inv_lc);
        for (int i = 0; i <= deg_b; i++)
            a[shift + i] = zp_sub(a[shift + i], zp_mul(c, b[i]));
        deg_a = poly_degree(a, deg_a);  /* a[deg_a] is now 0 */
    }
    return deg_a;
}

int cpu_gcd(const uint32_t *a, int deg_a, const uint32_t *b, int deg_b,
            uint32_t *g)
{
    int size = (deg_a > deg_b ? deg_a : deg_b) + 1;
    uint32_t *u = calloc((size_t)size, sizeof *u);
    uint32_t *v = calloc((size_t)size, sizeof *v);
    if (!u || !v)
        abort();
    memcpy(u, a, (size_t)(deg_a + 1) * sizeof *a);
    memcpy(v, b, (size_t)(deg_b + 1) * sizeof *b);
    int du = poly_degree(u, deg_a + 1);
    int dv = poly_degree(v, deg_b + 1);
    /* invariant: gcd(u, v) = gcd(a, b); stop when v = 0 */
    while (dv >= 0) {
        du = reduce_in_place(u, du, v, dv);
        uint32_t *t = u;
        u = v;
        v = t;
        int dt = du;
        du = dv;
        dv = dt;
    }
    if (du >= 0) {
        poly_make_monic(u, du);
        memcpy(g, u, (size_t)(du + 1) * sizeof *g);
    }
    free(u);
    free(v);
    return du;
}

uint32_t cpu_sum_u32(const uint32_t *x, size_t n)
{
    uint32_t s = 0;
    for (size_t i = 0; i < n; i++)
        s += x[i];
    return s;
}

void cpu_inclusive_scan_u32(const uint32_t *x, uint32_t *y, size_t n)
{
    uint32_t s = 0;
    for (size_t i = 0; i < n; i++) {
        s += x[i];
        y[i] = s;
    }
}
