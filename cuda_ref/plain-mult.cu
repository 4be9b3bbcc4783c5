/*
 * plain-mult.cu -- case study "plain-mult": plain (long) polynomial
 * multiplication over Z/pZ with program parameter s.
 *
 * Follows: MCM paper section 5.1, Algorithms 2-4, and thesis Appendix B,
 * plain multiplication worksheet (l. 5483-5700).  a has size n, b size m
 * (n >= m); x = m/s rows, y = n + s - 1 columns.
 *   MulKer: x * ceil(y / (s l)) blocks (the worksheet's (n+s-1)m/(s^2 l));
 *           block (row r, column chunk) loads s coefficients of b and
 *           s l + s - 1 of a; each thread computes s consecutive entries of
 *           row r of M, each a sum of s products:
 *               M[r][c] = sum_{k<s} a[c-k] b[r s + k],
 *           so row r holds a * (b[rs .. rs+s-1]) and belongs at offset r s.
 *   AddKer: log2(x) rounds; round i adds the rows pairwise, with
 *           (x / 2^(i+1)) * ceil(y / (s l)) blocks, each thread s entries.
 * L = 1 + log2(m/s) launches per run.
 *
 * Choices (Algorithms 3-4 leave index details open; ours, with the same grid
 * shapes and words moved):
 *  - MulKer stages its s l results in shared memory and writes them
 *    coalesced; its threads also zero f (grid-stride), since AddKer
 *    accumulates into f;
 *  - AddKer, round i, pair j: lower row k = (2j+1) 2^i - 1 (holding rows
 *    k-2^i+1 .. k aligned at offset k s), upper row u = k + 2^i.  Entries
 *    h < 2^i s of row k fall below row u's offset and are added to f at
 *    k s + h; the others are added into M[u][h - 2^i s].  In the last round
 *    the upper row is added to f as well (f[u s + h]), which ends the
 *    product.  Each thread handles s entries h = base + e l + t (coalesced).
 *  - m and s are powers of two with m/s >= 2.
 *
 * Check: against the serial FFT-based product of common/cpu_ref.c.
 *
 * Usage: plain-mult [--n LIST] [--m M] [--s LIST] [--l 256] [--runs R]
 *                   [--warmup W] [--seed S] [--occupancy FILE] [--no-header]   (m = n by default)
 */
#include <stdio.h>
#include <string.h>

#include "common/cpu_ref.h"
#include "common/cuda_common.cuh"
#include "common/zp.h"

/*
 * Multiplication phase (Algorithm 3).  grid = (ceil(y / (s l)), x), shared
 * memory (2 s l + 2 s - 1) words.
 */
__global__ void mul_ker(const uint32_t *a, const uint32_t *b, uint32_t *M,
                        uint32_t *f, long n, long y, int s, long f_len)
{
    extern __shared__ uint32_t smem[];
    const int l = blockDim.x, t = threadIdx.x;
    const long row = blockIdx.y, col_start = (long)blockIdx.x * s * l;
    uint32_t *A = smem;                        /* s l + s - 1 coefficients of a */
    uint32_t *B = A + s * l + s - 1;           /* s coefficients of b */
    uint32_t *out = B + s;                     /* s l results */

    /* zero f: the addition phase accumulates into it */
    long tid = ((long)blockIdx.y * gridDim.x + blockIdx.x) * l + t;
    long nthreads = (long)gridDim.x * gridDim.y * l;
    for (long i = tid; i < f_len; i += nthreads)
        f[i] = 0;

    /* copying from global memory (coalesced) */
    if (t < s)
        B[t] = b[row * s + t];
    for (int j = t; j < s * l + s - 1; j += l) {
        long idx = col_start - (s - 1) + j;    /* A[j] = a[idx] */
        A[j] = (idx >= 0 && idx < n) ? a[idx] : 0;
    }
    __syncthreads();

    /* accumulating products: entries u = t s + e of this block */
    for (int e = 0; e < s; e++) {
        int u = t * s + e;
        uint32_t h = 0;
        for (int k = 0; k < s; k++)
            h = zp_add(h, zp_mul(A[u - k + s - 1], B[k]));
        out[u] = h;
    }
    __syncthreads();

    /* writing to global memory (coalesced) */
    for (int u = t; u < s * l; u += l) {
        long col = col_start + u;
        if (col < y)
            M[row * y + col] = out[u];
    }
}

/*
 * Addition phase, round i (Algorithm 4).  grid = (ceil(y / (s l)), x/2^(i+1)).
 * last = 1 in the final round (upper row goes to f).
 */
__global__ void add_ker(uint32_t *M, uint32_t *f, long y, int s, int i,
                        int last)
{
    const int l = blockDim.x, t = threadIdx.x;
    const long pair = blockIdx.y;
    const long k = (2 * pair + 1) * (1L << i) - 1;   /* lower row */
    const long u = k + (1L << i);                    /* upper row */
    const long shift = (1L << i) * s;                /* u s - k s */
    const long base = (long)blockIdx.x * s * l;
    for (int e = 0; e < s; e++) {
        long h = base + (long)e * l + t;
        if (h >= y)
            break;
        uint32_t v = M[k * y + h];
        if (h < shift)
            f[k * s + h] = zp_add(f[k * s + h], v);
        else if (!last)
            M[u * y + h - shift] = zp_add(M[u * y + h - shift], v);
        if (last) {
            uint32_t w = M[u * y + h];
            if (h + shift < y)
                w = zp_add(w, M[k * y + h + shift]);
            f[u * s + h] = zp_add(f[u * s + h], w);
        }
    }
}

typedef struct {
    long n, m;
    int s, l;
    uint32_t *d_a, *d_b, *d_M, *d_f;
    uint32_t *a, *b;         /* the inputs, on the host */
} plain_ctx;

static void plain_run(void *p)
{
    plain_ctx *c = (plain_ctx *)p;
    long x = c->m / c->s, y = c->n + c->s - 1;
    int rounds = log2_exact(x);
    unsigned col_blocks = (unsigned)ceil_div(y, (long)c->s * c->l);
    size_t smem = (size_t)(2 * c->s * c->l + 2 * c->s - 1) * sizeof(uint32_t);
    LAUNCH(mul_ker, dim3(col_blocks, (unsigned)x), c->l, smem, c->d_a, c->d_b,
           c->d_M, c->d_f, c->n, y, c->s, c->n + c->m - 1);
    for (int i = 0; i < rounds; i++) {
        unsigned pairs = (unsigned)(x >> (i + 1));
        LAUNCH(add_ker, dim3(col_blocks, pairs), c->l, 0, c->d_M, c->d_f, y,
               c->s, i, i == rounds - 1);
    }
}

/* check the last run's product against the serial one, print the row */
static int finish(void *p, const bench_result *res)
{
    plain_ctx *c = (plain_ctx *)p;
    const long n = c->n, m = c->m, f_len = n + m - 1;
    uint32_t *want = host_alloc_u32((size_t)f_len);
    uint32_t *got = host_alloc_u32((size_t)f_len);
    to_host(got, c->d_f, (size_t)f_len);
    cpu_mul_fft(c->a, (size_t)n, c->b, (size_t)m, want);
    int ok = same_words("plain-mult", got, want, (size_t)f_len);

    char params[128];
    snprintf(params, sizeof params, "n=%ld;m=%ld;l=%d;s=%d", n, m, c->l, c->s);
    report("plain-mult", params, n, m, c->l, c->s, res, ok);
    CUDA_CHECK(cudaFree(c->d_a));
    CUDA_CHECK(cudaFree(c->d_b));
    CUDA_CHECK(cudaFree(c->d_M));
    CUDA_CHECK(cudaFree(c->d_f));
    free(c->a);
    free(c->b);
    free(c);
    free(want);
    free(got);
    return ok;
}

/* a point of the series: random inputs on the device */
static bench_point prepare(long n, long m, int s, int l, rng_t *rng)
{
    plain_ctx *c = (plain_ctx *)calloc(1, sizeof *c);
    long f_len = n + m - 1, x = m / s, y = n + s - 1;
    c->a = host_alloc_u32((size_t)n);
    c->b = host_alloc_u32((size_t)m);
    for (long i = 0; i < n; i++)
        c->a[i] = rng_zp(rng);
    for (long i = 0; i < m; i++)
        c->b[i] = rng_zp(rng);
    c->n = n;
    c->m = m;
    c->s = s;
    c->l = l;
    c->d_a = dev_alloc_u32((size_t)n);
    c->d_b = dev_alloc_u32((size_t)m);
    c->d_M = dev_alloc_u32((size_t)(x * y));
    c->d_f = dev_alloc_u32((size_t)f_len);
    to_device(c->d_a, c->a, (size_t)n);
    to_device(c->d_b, c->b, (size_t)m);
    dev_poison(c->d_M, (size_t)(x * y));
    dev_poison(c->d_f, (size_t)f_len);
    bench_point p = {{NULL, plain_run, c}, finish};
    return p;
}

int main(int argc, char **argv)
{
    static const char *const keys[] = {"--n", "--m", "--s", "--l", COMMON_KEYS,
                                       NULL};
    static const char *const flags[] = {COMMON_FLAGS, NULL};
    const char *usage = "plain-mult [--n LIST] [--m M] [--s LIST] [--l 256] "
                        "[--runs R] [--warmup W] [--seed S] [--occupancy FILE] [--no-header]";
    cli_require_known(argc, argv, keys, flags, usage);
    common_opts o = common_parse(argc, argv);
    long ns[CLI_MAX_LIST], ss[CLI_MAX_LIST];
    static const long default_n[] = {1L << 10, 1L << 11, 1L << 12,
                                     1L << 13, 1L << 14, 1L << 15};
    static const long default_s[] = {1, 2, 4, 8, 16};
    int count_n = cli_list(argc, argv, "--n", ns, default_n, 6);
    int count_s = cli_list(argc, argv, "--s", ss, default_s, 5);
    long m_opt = cli_long(argc, argv, "--m", 0);
    int l = (int)cli_long(argc, argv, "--l", 256);
    if (log2_exact(l) < 0 || l > 1024) {
        fprintf(stderr, "--l must be a power of two <= 1024\n");
        return 2;
    }
    rng_t rng = {o.seed};
    bench_point pts[CLI_MAX_LIST];
    int count_pts = 0;
    for (int i = 0; i < count_n; i++) {
        for (int j = 0; j < count_s; j++) {
            long n = ns[i], m = m_opt ? m_opt : ns[i], s = ss[j];
            if (log2_exact(m) < 0 || log2_exact(s) < 0 || m < 2 * s || n < m ||
                s * l > 4096) {
                fprintf(stderr, "need m, s powers of two, m >= 2s, n >= m, "
                                "s*l <= 4096 (n=%ld m=%ld s=%ld)\n", n, m, s);
                return 2;
            }
            if (count_pts == CLI_MAX_LIST) {
                fprintf(stderr, "at most %d points per series\n", CLI_MAX_LIST);
                return 2;
            }
            pts[count_pts++] = prepare(n, m, (int)s, l, &rng);
        }
    }
    if (o.header)
        csv_print_header(stdout);
    return bench_series(pts, count_pts, &o) ? 0 : 1;
}
