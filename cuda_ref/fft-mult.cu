/*
 * fft-mult.cu -- case study "fft-mult": polynomial product by FFTs (Stockham)
 * over Z/pZ.
 *
 * Follows: MCM paper section 5.2; thesis Appendix B, "FFT-based
 * multiplication" worksheet (l. 5822-5990).  For a and b of size n (degree
 * n - 1) the product has 2n - 1 coefficients, so the FFTs have size N = 2n:
 *   (i)   two forward Stockham FFTs of the zero-padded inputs,
 *   (ii)  point-wise product kernel (N/l blocks; 2 reads + 1 write a thread),
 *   (iii) one inverse Stockham FFT,
 *   (iv)  scaling by 1/N kernel (N/l blocks; 1 read + 1 write a thread).
 * Each FFT is 3 log2 N - 2 launches (common/stockham.cuh), so a run is
 * 9 log2 N - 4 launches, the worksheet's L_fft.
 *
 * Choice: as in the paper ("we assume that the successive powers are
 * pre-computed, say via a parallel prefix sum") the table of powers of omega
 * is computed once per size, before the timed runs, by the same three scan
 * kernels as the stockham program; it is not part of the timed region nor of
 * the launch count.  The zero-padded inputs are prepared once on the device;
 * the FFTs read them without writing them.
 *
 * Check: against the serial FFT-based product of common/cpu_ref.c (itself
 * tested against the schoolbook product).
 *
 * Usage: fft-mult [--n LIST] [--l 256] [--runs R] [--warmup W] [--seed S]
 *                 [--no-header]       (m = n: both factors have size n)
 */
#include <stdio.h>
#include <string.h>

#include "common/cpu_ref.h"
#include "common/cuda_common.cuh"
#include "common/stockham.cuh"

/* c[i] = x[i] * y[i] */
__global__ void pointwise_mul_kernel(const uint32_t *x, const uint32_t *y,
                                     uint32_t *c, long N)
{
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N)
        c[i] = zp_mul(x[i], y[i]);
}

/* f[i] = x[i] * inv_N */
__global__ void scale_kernel(const uint32_t *x, uint32_t *f, long N,
                             uint32_t inv_N)
{
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N)
        f[i] = zp_mul(x[i], inv_N);
}

typedef struct {
    long N;                       /* FFT size 2n */
    int l;
    uint32_t *d_a, *d_b;          /* zero-padded inputs (N words) */
    uint32_t *d_powers;           /* omega_N^e, e < N */
    uint32_t *d_w0, *d_w1, *d_w2, *d_w3, *d_c;
    uint32_t *d_f;                /* product (N words, 2n-1 used) */
    uint32_t *a, *b;              /* the inputs, on the host */
} fft_mult_ctx;

static void fft_mult_run(void *p)
{
    fft_mult_ctx *c = (fft_mult_ctx *)p;
    unsigned blocks = (unsigned)ceil_div(c->N, c->l);
    uint32_t *fa = stockham_fft(c->d_a, c->d_w0, c->d_w1, c->d_powers, c->N,
                                c->l, 0);
    uint32_t *fb = stockham_fft(c->d_b, c->d_w2, c->d_w3, c->d_powers, c->N,
                                c->l, 0);
    LAUNCH(pointwise_mul_kernel, blocks, c->l, 0, fa, fb, c->d_c, c->N);
    uint32_t *fc = stockham_fft(c->d_c, c->d_w0, c->d_w1, c->d_powers, c->N,
                                c->l, 1);
    LAUNCH(scale_kernel, blocks, c->l, 0, fc, c->d_f, c->N,
           zp_inv((uint32_t)c->N));
}

/* the table of powers of omega_N, once per size (untimed) */
static void compute_powers(fft_mult_ctx *c)
{
    uint32_t *fill = dev_alloc_u32((size_t)c->N);
    uint32_t *totals = dev_alloc_u32((size_t)scan_tiles(c->N, c->l));
    fill_kernel<<<(unsigned)ceil_div(c->N, 256), 256>>>(
        fill, c->N, zp_root_of_unity((uint64_t)c->N));
    CUDA_CHECK(cudaGetLastError());
    stockham_powers(fill, c->d_powers, totals, c->N, c->l);
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaFree(fill));
    CUDA_CHECK(cudaFree(totals));
}

/* check the last run's product against the serial one, print the row */
static int finish(void *p, const bench_result *res)
{
    fft_mult_ctx *c = (fft_mult_ctx *)p;
    const long n = c->N / 2;
    uint32_t *want = host_alloc_u32((size_t)(2 * n - 1));
    uint32_t *got = host_alloc_u32((size_t)(2 * n - 1));
    to_host(got, c->d_f, (size_t)(2 * n - 1));
    cpu_mul_fft(c->a, (size_t)n, c->b, (size_t)n, want);
    int ok = same_words("fft-mult", got, want, (size_t)(2 * n - 1));

    char params[128];
    snprintf(params, sizeof params, "n=%ld;m=%ld;l=%d", n, n, c->l);
    report("fft-mult", params, n, n, c->l, 0, res, ok);
    uint32_t *bufs[] = {c->d_a, c->d_b, c->d_powers, c->d_w0, c->d_w1,
                        c->d_w2, c->d_w3, c->d_c, c->d_f};
    for (size_t i = 0; i < sizeof bufs / sizeof *bufs; i++)
        CUDA_CHECK(cudaFree(bufs[i]));
    free(c->a);
    free(c->b);
    free(c);
    free(want);
    free(got);
    return ok;
}

/* a point of the series: random inputs and the powers of ω on the device */
static bench_point prepare(long n, int l, rng_t *rng)
{
    fft_mult_ctx *c = (fft_mult_ctx *)calloc(1, sizeof *c);
    long N = 2 * n;
    c->a = host_alloc_u32((size_t)N);
    c->b = host_alloc_u32((size_t)N);
    memset(c->a, 0, (size_t)N * 4);
    memset(c->b, 0, (size_t)N * 4);
    for (long i = 0; i < n; i++) {
        c->a[i] = rng_zp(rng);
        c->b[i] = rng_zp(rng);
    }
    c->N = N;
    c->l = l;
    uint32_t **bufs[] = {&c->d_a, &c->d_b, &c->d_powers, &c->d_w0, &c->d_w1,
                         &c->d_w2, &c->d_w3, &c->d_c, &c->d_f};
    for (size_t i = 0; i < sizeof bufs / sizeof *bufs; i++) {
        *bufs[i] = dev_alloc_u32((size_t)N);
        dev_poison(*bufs[i], (size_t)N);
    }
    to_device(c->d_a, c->a, (size_t)N);
    to_device(c->d_b, c->b, (size_t)N);
    compute_powers(c);
    bench_point p = {{NULL, fft_mult_run, c}, finish};
    return p;
}

int main(int argc, char **argv)
{
    static const char *const keys[] = {"--n", "--l", COMMON_KEYS, NULL};
    static const char *const flags[] = {COMMON_FLAGS, NULL};
    cli_require_known(argc, argv, keys, flags,
                      "fft-mult [--n LIST] [--l 256] [--runs R] [--warmup W] "
                      "[--seed S] [--occupancy FILE] [--no-header]");
    common_opts o = common_parse(argc, argv);
    long ns[CLI_MAX_LIST];
    static const long default_n[] = {1L << 8,  1L << 9,  1L << 10,
                                     1L << 11, 1L << 12, 1L << 13,
                                     1L << 14, 1L << 15, 1L << 16};
    int count = cli_list(argc, argv, "--n", ns, default_n, 9);
    int l = (int)cli_long(argc, argv, "--l", 256);
    if (log2_exact(l) < 0 || l > 1024) {
        fprintf(stderr, "--l must be a power of two <= 1024\n");
        return 2;
    }
    rng_t rng = {o.seed};
    bench_point pts[CLI_MAX_LIST];
    int count_pts = 0;
    for (int i = 0; i < count; i++) {
        if (log2_exact(ns[i]) < 1 || 2 * ns[i] > (1L << ZP_MAX_LOG2_N)) {
            fprintf(stderr, "n must be a power of two in [2, 2^25]\n");
            return 2;
        }
        pts[count_pts++] = prepare(ns[i], l, &rng);
    }
    if (o.header)
        csv_print_header(stdout);
    return bench_series(pts, count_pts, &o) ? 0 : 1;
}
