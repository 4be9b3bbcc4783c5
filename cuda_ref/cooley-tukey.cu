/*
 * cooley-tukey.cu -- case study "cooley-tukey": the Cooley-Tukey FFT over
 * Z/pZ with base case DFT_m, m = 16.
 *
 * Follows: MCM paper section 4.1, factorization (5):
 *   DFT_n = M_{k,r} M'_{k,r} M''_{k,r},  k = log2 n, m = 2^r,
 *   M''  = prod_{i=k-r-1}^{0} I_{2^i} (x) L_2^{2^{k-i}}   (applied i = 0 first)
 *   M'   = I_{2^{k-r}} (x) DFT_m
 *   M    = prod_{i=0}^{k-r-1} (I_{2^i} (x) DFT_2 (x) I_{2^{k-i-1}})
 *                             (I_{2^i} (x) D_{2,2^{k-i-1}})   (i = k-r-1 first)
 * and thesis Appendix B, Cooley-Tukey worksheet (l. 5040-5340):
 *   log2 n - log2 m transposition kernels ("list_transpose2") of n/l blocks,
 *   one DFT_m kernel ("list_fft") of n/(m l) blocks, each thread one DFT_m,
 *   log2 n - log2 m butterfly kernels ("list_butterfly") of n/l blocks.
 * L = 2 log2 n - 2 log2 m + 1 launches per run.
 *
 * Choices (the worksheet leaves them open):
 *  - transposition: one thread per *input* element, coalesced reads and
 *    scattered writes (the worksheet's "coalesced reads, non-coalesced
 *    writes"), out of place;
 *  - DFT_m: each thread loads its m = 16 consecutive elements and computes
 *    the naive 16-point DFT (m^2 multiply-adds, the worksheet's 32 m^2 work
 *    term), in place, with the 16 powers of w_16 in constant memory;
 *  - butterflies with twiddles: one thread per *output* element (n/l
 *    blocks), reading both inputs of its butterfly, out of place; the twiddle
 *    w_N^t is computed by each thread by square-and-multiply (the worksheet's
 *    "without pre-computed jumped powers", O(log) multiplications per thread),
 *    with w_N = omega^(n/N) passed by the host.
 * The conventions for L_2^N and D_{2,q} are those of common/stockham.cuh.
 *
 * Check: against the serial radix-2 FFT of common/cpu_ref.c.
 *
 * Usage: cooley-tukey [--n LIST] [--l 128] [--m 16] [--runs R] [--warmup W]
 *                     [--seed S] [--no-header]
 */
#include <stdio.h>
#include <string.h>

#include "common/cpu_ref.h"
#include "common/cuda_common.cuh"
#include "common/zp.h"

#define CT_MAX_M 16

/* w_m^e for 0 <= e < m, set once per size by the host */
__constant__ uint32_t c_dft_m_powers[CT_MAX_M];

/*
 * (I_{n/N} (x) L_2^N) x with N = 2^log2N: inside each chunk of N elements,
 * even positions go to the first half, odd positions to the second half.
 * One thread per input element.
 */
__global__ void ct_transpose_kernel(const uint32_t *in, uint32_t *out, long n,
                                    int log2N)
{
    long g = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (g >= n)
        return;
    long N = 1L << log2N;
    long chunk_start = g & ~(N - 1), u = g & (N - 1);
    long dest = chunk_start + ((u & 1) ? N / 2 : 0) + (u >> 1);
    out[dest] = in[g];
}

/*
 * (I_{n/m} (x) DFT_m) x in place: one thread per chunk of m elements.  m is
 * a template parameter so that the loops unroll and v, y stay in registers.
 */
template <int M>
__global__ void ct_dft_m_kernel(uint32_t *x, long n)
{
    long chunk = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (chunk >= n / M)
        return;
    uint32_t v[M], y[M];
    uint32_t *base = x + chunk * M;
#pragma unroll
    for (int i = 0; i < M; i++)
        v[i] = base[i];
#pragma unroll
    for (int j = 0; j < M; j++) {
        uint32_t acc = 0;
#pragma unroll
        for (int i = 0; i < M; i++)
            acc = zp_add(acc, zp_mul(v[i], c_dft_m_powers[(i * j) & (M - 1)]));
        y[j] = acc;
    }
#pragma unroll
    for (int j = 0; j < M; j++)
        base[j] = y[j];
}

/* launch the DFT_m kernel instantiated for the run-time m */
static void launch_dft_m(uint32_t *x, long n, int m, int l)
{
    unsigned blocks = (unsigned)ceil_div(n / m, l);
    switch (m) {
    case 2: LAUNCH(ct_dft_m_kernel<2>, blocks, l, 0, x, n); break;
    case 4: LAUNCH(ct_dft_m_kernel<4>, blocks, l, 0, x, n); break;
    case 8: LAUNCH(ct_dft_m_kernel<8>, blocks, l, 0, x, n); break;
    default: LAUNCH(ct_dft_m_kernel<16>, blocks, l, 0, x, n); break;
    }
}

/*
 * (I_{n/N} (x) DFT_2 (x) I_{N/2}) (I_{n/N} (x) D_{2,N/2}) x with N = 2^log2N:
 * inside each chunk, lo = x[t], hi = x[N/2 + t] * w_N^t, outputs lo + hi and
 * lo - hi.  One thread per output element, out of place.
 */
__global__ void ct_butterfly_kernel(const uint32_t *in, uint32_t *out, long n,
                                    int log2N, uint32_t w_N)
{
    long g = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (g >= n)
        return;
    long N = 1L << log2N, half = N / 2;
    long chunk_start = g & ~(N - 1), u = g & (N - 1);
    long t = u & (half - 1);
    uint32_t twiddle = zp_pow(w_N, (uint64_t)t);
    uint32_t lo = in[chunk_start + t];
    uint32_t hi = zp_mul(in[chunk_start + half + t], twiddle);
    out[g] = (u < half) ? zp_add(lo, hi) : zp_sub(lo, hi);
}

typedef struct {
    long n;
    int l, m;
    uint32_t omega;
    uint32_t *d_input, *d_buf0, *d_buf1;
    uint32_t *d_result;
    uint32_t *x;             /* the input, on the host */
} ct_ctx;

static void ct_run(void *p)
{
    ct_ctx *c = (ct_ctx *)p;
    int k = log2_exact(c->n), r = log2_exact(c->m);
    unsigned blocks = (unsigned)ceil_div(c->n, c->l);
    const uint32_t *src = c->d_input;
    uint32_t *cur = c->d_buf0;
    /* M'': i = 0 .. k-r-1, chunk size 2^(k-i) */
    for (int i = 0; i < k - r; i++) {
        LAUNCH(ct_transpose_kernel, blocks, c->l, 0, src, cur, c->n, k - i);
        src = cur;
        cur = (cur == c->d_buf0) ? c->d_buf1 : c->d_buf0;
    }
    uint32_t *x = (uint32_t *)src;      /* k > r: at least one transposition */
    /* M': DFT_m on every chunk, in place */
    launch_dft_m(x, c->n, c->m, c->l);
    /* M: i = k-r-1 down to 0, chunk size N = 2^(k-i), w_N = omega^(2^i) */
    uint32_t *out = (x == c->d_buf0) ? c->d_buf1 : c->d_buf0;
    for (int i = k - r - 1; i >= 0; i--) {
        uint32_t w_N = zp_pow(c->omega, 1ull << i);
        LAUNCH(ct_butterfly_kernel, blocks, c->l, 0, x, out, c->n, k - i, w_N);
        uint32_t *swap = x;
        x = out;
        out = swap;
    }
    c->d_result = x;
}

/* check the last run's FFT against the serial one, print the row */
static int finish(void *p, const bench_result *res)
{
    ct_ctx *c = (ct_ctx *)p;
    const long n = c->n;
    uint32_t *got = host_alloc_u32((size_t)n);
    to_host(got, c->d_result, (size_t)n);
    cpu_fft(c->x, (size_t)n, c->omega);
    int ok = same_words("cooley-tukey", got, c->x, (size_t)n);

    char params[128];
    snprintf(params, sizeof params, "n=%ld;l=%d;m=%d", n, c->l, c->m);
    report("cooley-tukey", params, n, c->m, c->l, 0, res, ok);
    CUDA_CHECK(cudaFree(c->d_input));
    CUDA_CHECK(cudaFree(c->d_buf0));
    CUDA_CHECK(cudaFree(c->d_buf1));
    free(c->x);
    free(c);
    free(got);
    return ok;
}

/* a point of the series: random input on the device.  The DFT_m powers in
 * constant memory are the same for every n (ω_n^(n/m) = g^((p−1)/m)), so
 * the points of a series share them. */
static bench_point prepare(long n, int l, int m, rng_t *rng)
{
    ct_ctx *c = (ct_ctx *)calloc(1, sizeof *c);
    uint32_t w_m_powers[CT_MAX_M];
    c->x = host_alloc_u32((size_t)n);
    c->n = n;
    c->l = l;
    c->m = m;
    c->omega = zp_root_of_unity((uint64_t)n);
    for (int e = 0; e < m; e++)
        w_m_powers[e] = zp_pow(zp_pow(c->omega, (uint64_t)(n / m)), (uint64_t)e);
    CUDA_CHECK(cudaMemcpyToSymbol(c_dft_m_powers, w_m_powers,
                                  sizeof(uint32_t) * (size_t)m));
    for (long i = 0; i < n; i++)
        c->x[i] = rng_zp(rng);
    c->d_input = dev_alloc_u32((size_t)n);
    c->d_buf0 = dev_alloc_u32((size_t)n);
    c->d_buf1 = dev_alloc_u32((size_t)n);
    to_device(c->d_input, c->x, (size_t)n);
    dev_poison(c->d_buf0, (size_t)n);
    dev_poison(c->d_buf1, (size_t)n);
    bench_point p = {{NULL, ct_run, c}, finish};
    return p;
}

int main(int argc, char **argv)
{
    static const char *const keys[] = {"--n", "--l", "--m", COMMON_KEYS, NULL};
    static const char *const flags[] = {COMMON_FLAGS, NULL};
    cli_require_known(argc, argv, keys, flags,
                      "cooley-tukey [--n LIST] [--l 128] [--m 16] [--runs R] "
                      "[--warmup W] [--seed S] [--occupancy FILE] [--no-header]");
    common_opts o = common_parse(argc, argv);
    long ns[CLI_MAX_LIST];
    static const long default_n[] = {1L << 14, 1L << 15, 1L << 16, 1L << 17,
                                     1L << 18, 1L << 19, 1L << 20};
    int count = cli_list(argc, argv, "--n", ns, default_n, 7);
    int l = (int)cli_long(argc, argv, "--l", 128);
    int m = (int)cli_long(argc, argv, "--m", 16);
    if (log2_exact(l) < 0 || l > 1024 || log2_exact(m) < 1 || m > CT_MAX_M) {
        fprintf(stderr, "--l: power of two <= 1024; --m: power of two in [2, %d]\n",
                CT_MAX_M);
        return 2;
    }
    rng_t rng = {o.seed};
    bench_point pts[CLI_MAX_LIST];
    for (int i = 0; i < count; i++) {
        if (log2_exact(ns[i]) < 0 || ns[i] < 2 * m || ns[i] > (1L << ZP_MAX_LOG2_N)) {
            fprintf(stderr, "n must be a power of two in [2m, 2^26]\n");
            return 2;
        }
    }
    for (int i = 0; i < count; i++)
        pts[i] = prepare(ns[i], l, m, &rng);
    if (o.header)
        csv_print_header(stdout);
    return bench_series(pts, count, &o) ? 0 : 1;
}
