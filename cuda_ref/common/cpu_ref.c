/*
 * cpu_ref.c -- serial CPU references (see cpu_ref.h for the contracts).
 *
 * Owns: the ground truth every CUDA program compares against.  These are the
 * textbook serial algorithms (the iterative radix-2 FFT), written for
 * clarity.
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

void cpu_radix_sort_u32(uint32_t *keys, size_t n)
{
    uint32_t *tmp = malloc(n * sizeof *tmp);
    if (!tmp)
        abort();
    for (int shift = 0; shift < 32; shift += 8) {
        size_t count[257] = {0};
        for (size_t i = 0; i < n; i++)
            count[((keys[i] >> shift) & 0xff) + 1]++;
        for (int d = 0; d < 256; d++)
            count[d + 1] += count[d];    /* count[d] = start of digit d */
        for (size_t i = 0; i < n; i++)
            tmp[count[(keys[i] >> shift) & 0xff]++] = keys[i];
        memcpy(keys, tmp, n * sizeof *keys);
    }
    free(tmp);
}

int cpu_cmp_u32(const void *x, const void *y)
{
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    return (a > b) - (a < b);
}
