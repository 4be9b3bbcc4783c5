/*
 * stockham.cu -- case study "stockham": the Stockham FFT over Z/pZ.
 *
 * Follows: MCM paper section 4.2; thesis Appendix B, Stockham worksheet
 * (l. 5343-5470).  One run = the three prefix-scan kernels computing the
 * powers of omega (n/(4l) blocks, 1 block, n/(4l)-1 blocks) + one DFT_2
 * kernel + (log2 n - 1) x {stride permutation (n/l blocks), twiddles
 * (n/(2l) blocks), butterflies (n/(2l) blocks)}: 3 log2 n + 1 launches.
 * Kernels: common/stockham.cuh and common/block_scan.cuh.
 *
 * Check: the DFT of fresh random input against the serial radix-2 FFT of
 * common/cpu_ref.c (itself tested against the naive DFT).
 *
 * Usage: stockham [--n LIST] [--l 128] [--runs 25] [--warmup 3] [--seed S]
 *                 [--no-header]
 * Default sweep: n = 2^14 .. 2^20, l = 128 (the paper's Table 1).
 */
#include <stdio.h>
#include <string.h>

#include "common/cpu_ref.h"
#include "common/cuda_common.cuh"
#include "common/stockham.cuh"

typedef struct {
    long n;
    int l;
    uint32_t *d_input;       /* random polynomial, never written */
    uint32_t *d_buf0, *d_buf1;
    uint32_t *d_omega_fill;  /* n copies of omega: the scan's input */
    uint32_t *d_powers;      /* omega^e, computed in every run */
    uint32_t *d_tile_totals;
    uint32_t *d_result;      /* d_buf0 or d_buf1 after a run */
    uint32_t *x;             /* the input, on the host */
    uint32_t omega;
} stockham_ctx;

static void stockham_run(void *p)
{
    stockham_ctx *c = (stockham_ctx *)p;
    stockham_powers(c->d_omega_fill, c->d_powers, c->d_tile_totals, c->n, c->l);
    c->d_result = stockham_fft(c->d_input, c->d_buf0, c->d_buf1, c->d_powers,
                               c->n, c->l, 0);
}

/* check the last run's FFT against the serial one, print the row */
static int finish(void *p, const bench_result *res)
{
    stockham_ctx *c = (stockham_ctx *)p;
    const long n = c->n;
    const int l = c->l;
    uint32_t *got = host_alloc_u32((size_t)n);
    to_host(got, c->d_result, (size_t)n);
    cpu_fft(c->x, (size_t)n, c->omega);
    int ok = same_words("stockham", got, c->x, (size_t)n);

    char params[128];
    snprintf(params, sizeof params, "n=%ld;l=%d", n, l);
    report("stockham", params, n, 0, l, 0, res, ok);
    CUDA_CHECK(cudaFree(c->d_input));
    CUDA_CHECK(cudaFree(c->d_buf0));
    CUDA_CHECK(cudaFree(c->d_buf1));
    CUDA_CHECK(cudaFree(c->d_omega_fill));
    CUDA_CHECK(cudaFree(c->d_powers));
    CUDA_CHECK(cudaFree(c->d_tile_totals));
    free(c->x);
    free(c);
    free(got);
    return ok;
}

/* a point of the series: random input on the device */
static bench_point prepare(long n, int l, rng_t *rng)
{
    stockham_ctx *c = (stockham_ctx *)calloc(1, sizeof *c);
    c->x = host_alloc_u32((size_t)n);
    c->omega = zp_root_of_unity((uint64_t)n);
    for (long i = 0; i < n; i++)
        c->x[i] = rng_zp(rng);
    c->n = n;
    c->l = l;
    c->d_input = dev_alloc_u32((size_t)n);
    c->d_buf0 = dev_alloc_u32((size_t)n);
    c->d_buf1 = dev_alloc_u32((size_t)n);
    c->d_omega_fill = dev_alloc_u32((size_t)n);
    c->d_powers = dev_alloc_u32((size_t)n);
    c->d_tile_totals = dev_alloc_u32((size_t)scan_tiles(n, l));
    to_device(c->d_input, c->x, (size_t)n);
    dev_poison(c->d_buf0, (size_t)n);
    dev_poison(c->d_buf1, (size_t)n);
    dev_poison(c->d_powers, (size_t)n);
    fill_kernel<<<(unsigned)ceil_div(n, 256), 256>>>(c->d_omega_fill, n, c->omega);
    CUDA_CHECK(cudaGetLastError());
    bench_point p = {{NULL, stockham_run, c}, finish};
    return p;
}

int main(int argc, char **argv)
{
    static const char *const keys[] = {"--n", "--l", COMMON_KEYS, NULL};
    static const char *const flags[] = {COMMON_FLAGS, NULL};
    cli_require_known(argc, argv, keys, flags,
                      "stockham [--n LIST] [--l 128] [--runs R] [--warmup W] "
                      "[--seed S] [--occupancy FILE] [--no-header]");
    common_opts o = common_parse(argc, argv);
    long ns[CLI_MAX_LIST];
    static const long default_n[] = {1L << 14, 1L << 15, 1L << 16, 1L << 17,
                                     1L << 18, 1L << 19, 1L << 20};
    int count = cli_list(argc, argv, "--n", ns, default_n, 7);
    int l = (int)cli_long(argc, argv, "--l", 128);
    if (log2_exact(l) < 0 || l > 1024) {
        fprintf(stderr, "--l must be a power of two <= 1024\n");
        return 2;
    }
    rng_t rng = {o.seed};
    bench_point pts[CLI_MAX_LIST];
    for (int i = 0; i < count; i++) {
        if (log2_exact(ns[i]) < 2 || ns[i] > (1L << ZP_MAX_LOG2_N)) {
            fprintf(stderr, "n must be a power of two in [4, 2^26]\n");
            return 2;
        }
    }
    for (int i = 0; i < count; i++)
        pts[i] = prepare(ns[i], l, &rng);
    if (o.header)
        csv_print_header(stdout);
    return bench_series(pts, count, &o) ? 0 : 1;
}
