/*
 * plain-mult.c — plain multiplication's two kernels (cuda_ref/plain-mult.cu,
 * MulKer and AddKer), written once against sim/exec/mcm_kernel.h line for line,
 * to check the instruction counts of exec mode (sim/exec/stream.h) against the
 * Nsight Compute counts of their CUDA twins (validate/stream/profiles.csv).
 * Not a case study: until the case studies are written once, the closest
 * thing to counting the code the card ran.
 *
 * Its Z/pZ arithmetic is the twin's (cuda_ref/common/zp.h: 32-bit words,
 * no range checks), not mcm_kernel.h's exec_zp_*, so that both count the
 * same operations.  The differences from the twin, each a few instructions
 * a warp: the grid is 1-D (mcm_kernel.h has no 2-D grid), so a block finds
 * its row and its column block by a 32-bit division; each step is a
 * function of its own, where the twin's kernel computes its indices once.
 *
 * MulKer, block (column block cb, row r) of a grid of ⌈y/(sℓ)⌉ × x blocks:
 * zero its share of f; A = the s ℓ + s − 1 coefficients of a its entries
 * need, B = the row's s coefficients of b, into private memory; entry
 * u = t s + e of the block is Σ_k A[u − k + s − 1]·B[k]; the block's s ℓ
 * entries out to M's row r.  AddKer, round i: rows k and u = k + 2^i of M
 * are added with the shift 2^i s (the thesis' Algorithm 4); the last round
 * writes f.  Run only for its counts: no check beyond the kernels' own.
 *
 * Params: n (= m, a power of two), s (a power of two, 2s <= n), l.
 */
#include "mcm_kernel.h"

/* cuda_ref/common/zp.h, for a, b < p */
#define P 469762049u
#define BARRETT 39268272336ull /* floor(2^64 / p) */

static MCM_DEVICE inline uint32_t zp_add32(uint32_t a, uint32_t b)
{
    uint32_t c = a + b;
    return c >= P ? c - P : c;
}

static MCM_DEVICE inline uint64_t mulhi64(uint64_t x, uint64_t y)
{
#ifdef __CUDA_ARCH__
    return __umul64hi(x, y);
#else
    return (uint64_t)(((unsigned __int128)x * y) >> 64);
#endif
}

static MCM_DEVICE inline uint32_t zp_mul32(uint32_t a, uint32_t b)
{
    uint64_t x = (uint64_t)a * b;
    uint64_t r = x - mulhi64(x, BARRETT) * P;
    return (uint32_t)(r >= P ? r - P : r);
}

typedef struct mul_args {
    gmem a, b, M, f;
    long n, y, f_len, col_blocks;
    int s;
} mul_args;

typedef struct add_args {
    gmem M, f;
    long y, col_blocks;
    int s, i, last;
} add_args;

/* Step 1: zero f, then A and B into private memory. */
MCM_STEP(mul_load, mul_args, a)
{
    const int l = t->threads, s = a->s;
    const long row = (unsigned)t->bid / (unsigned)a->col_blocks, cb = (unsigned)t->bid % (unsigned)a->col_blocks;
    const long col_start = cb * s * l;
    long tid = t->bid * l + t->tid, nthreads = t->blocks * l;
    for (long i = tid; i < a->f_len; i += nthreads)
        exec_gwrite(t, a->f, i, 0);
    if (t->tid < s)
        exec_pwrite(t, s * l + s - 1 + t->tid, exec_gread(t, a->b, row * s + t->tid));
    for (int j = t->tid; j < s * l + s - 1; j += l) {
        long idx = col_start - (s - 1) + j;
        exec_pwrite(t, j, idx >= 0 && idx < a->n ? exec_gread(t, a->a, idx) : 0);
    }
}

/* Step 2: the thread's s entries, each a sum of s products. */
MCM_STEP(mul_products, mul_args, a)
{
    const int l = t->threads, s = a->s;
    for (int e = 0; e < s; e++) {
        int u = t->tid * s + e;
        uint32_t h = 0;
        for (int k = 0; k < s; k++)
            h = zp_add32(h, zp_mul32((uint32_t)exec_pread(t, u - k + s - 1), (uint32_t)exec_pread(t, s * l + s - 1 + k)));
        exec_pwrite(t, s * l + 2 * s - 1 + u, h);
    }
}

/* Step 3: the block's entries out to M. */
MCM_STEP(mul_store, mul_args, a)
{
    const int l = t->threads, s = a->s;
    const long row = (unsigned)t->bid / (unsigned)a->col_blocks, cb = (unsigned)t->bid % (unsigned)a->col_blocks;
    const long col_start = cb * s * l;
    for (int u = t->tid; u < s * l; u += l) {
        long col = col_start + u;
        if (col < a->y)
            exec_gwrite(t, a->M, row * a->y + col, exec_pread(t, s * l + 2 * s - 1 + u));
    }
}

MCM_KERNEL(mul_ker, mul_args, mul_load, mul_products, mul_store);

/* Round i of the additions. */
MCM_STEP(add_rows, add_args, a)
{
    const int l = t->threads, s = a->s;
    const long pair = (unsigned)t->bid / (unsigned)a->col_blocks, cb = (unsigned)t->bid % (unsigned)a->col_blocks;
    const long k = (2 * pair + 1) * (1L << a->i) - 1, u = k + (1L << a->i), shift = (1L << a->i) * s;
    const long base = cb * s * l;
    for (int e = 0; e < s; e++) {
        long h = base + (long)e * l + t->tid;
        if (h >= a->y)
            break;
        uint32_t v = (uint32_t)exec_gread(t, a->M, k * a->y + h);
        if (h < shift)
            exec_gwrite(t, a->f, k * s + h, zp_add32((uint32_t)exec_gread(t, a->f, k * s + h), v));
        else if (!a->last)
            exec_gwrite(t, a->M, u * a->y + h - shift, zp_add32((uint32_t)exec_gread(t, a->M, u * a->y + h - shift), v));
        if (a->last) {
            uint32_t w = (uint32_t)exec_gread(t, a->M, u * a->y + h);
            if (h + shift < a->y)
                w = zp_add32(w, (uint32_t)exec_gread(t, a->M, k * a->y + h + shift));
            exec_gwrite(t, a->f, u * s + h, zp_add32((uint32_t)exec_gread(t, a->f, u * s + h), w));
        }
    }
}

MCM_KERNEL(add_ker, add_args, add_rows);

static gmem A, B, M, F;
static long n, x, y;
static int s, l;

static int setup(exec_run *run, const mcm_params *p)
{
    n = (long)mcm_param(p, "n", 4096);
    s = (int)mcm_param(p, "s", 4);
    l = (int)mcm_param(p, "l", 256);
    if (n < 2 || s < 1 || 2 * s > n || l < 1 || (n & (n - 1)) || (s & (s - 1)))
        return mcm_fail("plain-mult: needs n and s powers of two, 2s <= n, l >= 1 (got %ld, %d, %d)", n, s, l);
    x = n / s;
    y = n + s - 1;
    A = mcm_alloc(run, "a", n);
    B = mcm_alloc(run, "b", n);
    M = mcm_alloc(run, "M", x * y);
    F = mcm_alloc(run, "f", 2 * n - 1);
    uint64_t state = mcm_seed(p);
    for (long i = 0; i < n; i++) {
        mcm_set(A, i, mcm_random(&state) % P);
        mcm_set(B, i, mcm_random(&state) % P);
    }
    return 0;
}

static int launches(exec_run *run)
{
    long col_blocks = (y + (long)s * l - 1) / ((long)s * l);
    mul_args m = {A, B, M, F, n, y, 2 * n - 1, col_blocks, s};
    if (mcm_launch(run, &mul_ker, col_blocks * x, l, 2L * s * l + 2 * s - 1, &m) < 0)
        return -1;
    int rounds = 0;
    while ((1L << rounds) < x)
        rounds++;
    for (int i = 0; i < rounds; i++) {
        add_args a = {M, F, y, col_blocks, s, i, i == rounds - 1};
        if (mcm_launch(run, &add_ker, col_blocks * (x >> (i + 1)), l, 0, &a) < 0)
            return -1;
    }
    return 0;
}

static int check(exec_run *run)
{
    (void)run;
    return 0;
}

MCM_PROGRAM("plain-mult-twin", setup, launches, check);
