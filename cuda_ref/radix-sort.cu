/*
 * radix-sort.cu -- case study "radix-sort": LSD radix sort of n 32-bit keys
 * with program parameter s (bits per pass).
 *
 * Follows: thesis section 4.6 and Appendix B, radix sort worksheet
 * (l. 6067-6300), after Satish, Harris and Garland.  c/s passes (c = 32),
 * each of five kernels:
 *   phase 1  local sort: n/(4l) blocks; each thread loads 4 keys; the block
 *            sorts its tile of 4l keys by the pass's s-bit digit with s
 *            iterations of 1-bit split (flags, block scan, scatter in shared
 *            memory), writes the sorted tile and its 2^s-entry digit
 *            histogram (column-major: hist[digit * tiles + tile]);
 *   phase 2  exclusive prefix sum of the histogram (2^s n/(4l) words) with
 *            the three scan kernels of common/block_scan.cuh ("inclusive",
 *            "mediate", "exclusive": 2^s n/(16 l^2), 1 and that minus 1
 *            blocks);
 *   phase 3  scatter: n/(4l) blocks; each key goes to
 *            offset[digit][tile] + (its rank among equal digits in the tile).
 * L = 5 c/s launches per run.
 *
 * Choices: the histogram of a sorted tile is read off the tile by binary
 * search (count(d) = first(d+1) - first(d)), which needs no 2^s-word
 * counter array in shared memory (2^s = 65536 words would not fit at
 * s = 16); the rank in phase 3 is likewise i - first(digit).  The mediate
 * scan loops over the tile totals, which need not fit in one block.  Keys
 * alternate between two buffers; the input buffer is never written.  n must
 * be a multiple of 4l and s must divide 32.
 *
 * Check: against qsort of the same keys.
 * Usage: radix-sort [--n 1048576] [--s LIST] [--l 256] [--runs R]
 *                   [--warmup W] [--seed S] [--occupancy FILE] [--no-header]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/block_scan.cuh"
#include "common/cpu_ref.h"
#include "common/cuda_common.cuh"

#define RADIX_KEY_BITS 32

static __device__ __forceinline__ uint32_t digit_of(uint32_t key, int shift,
                                                    uint32_t mask)
{
    return (key >> shift) & mask;
}

/* first index j in the sorted tile with digit(tile[j]) >= d (tile_len if none) */
static __device__ int first_with_digit(const uint32_t *tile, int tile_len,
                                       uint32_t d, int shift, uint32_t mask)
{
    int lo = 0, hi = tile_len;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (digit_of(tile[mid], shift, mask) < d)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/*
 * One 1-bit split of keys_in (4l keys in shared memory) into keys_out:
 * keys whose bit is 0 first, both groups in their original order.
 */
static __device__ void split_by_bit(const uint32_t *keys_in, uint32_t *keys_out,
                                    uint32_t *flags, uint32_t *partial, int bit)
{
    const int tile_len = 4 * blockDim.x;
    for (int j = threadIdx.x; j < tile_len; j += blockDim.x)
        flags[j] = ((keys_in[j] >> bit) & 1u) == 0u;
    uint32_t total_false = tile_exclusive_scan<ScanAddU32>(flags, partial);
    for (int j = threadIdx.x; j < tile_len; j += blockDim.x) {
        uint32_t key = keys_in[j];
        uint32_t dest = ((key >> bit) & 1u) ? total_false + (j - flags[j]) : flags[j];
        keys_out[dest] = key;
    }
    __syncthreads();
}

/* phase 1: sort each tile by its s-bit digit, write it and its histogram */
__global__ void local_sort_kernel(const uint32_t *keys, uint32_t *sorted_tiles,
                                  uint32_t *hist, int shift, int s, long tiles)
{
    extern __shared__ uint32_t smem[];
    const int l = blockDim.x, tile_len = 4 * l;
    const long tile = blockIdx.x, base = tile * tile_len;
    const uint32_t mask = (1u << s) - 1u;
    uint32_t *cur = smem, *next = smem + tile_len;
    uint32_t *flags = next + tile_len, *partial = flags + tile_len;

    for (int j = threadIdx.x; j < tile_len; j += l)
        cur[j] = keys[base + j];
    __syncthreads();
    for (int b = 0; b < s; b++) {
        split_by_bit(cur, next, flags, partial, shift + b);
        uint32_t *swap = cur;
        cur = next;
        next = swap;
    }
    for (int j = threadIdx.x; j < tile_len; j += l)
        sorted_tiles[base + j] = cur[j];
    for (uint32_t d = threadIdx.x; d <= mask; d += l) {
        int first = first_with_digit(cur, tile_len, d, shift, mask);
        int end = (d == mask) ? tile_len
                              : first_with_digit(cur, tile_len, d + 1, shift, mask);
        hist[(long)d * tiles + tile] = (uint32_t)(end - first);
    }
}

/* phase 3: move every key of a sorted tile to its place in the output */
__global__ void scatter_kernel(const uint32_t *sorted_tiles,
                               const uint32_t *offsets, uint32_t *keys_out,
                               int shift, int s, long tiles)
{
    extern __shared__ uint32_t smem[];
    const int l = blockDim.x, tile_len = 4 * l;
    const long tile = blockIdx.x, base = tile * tile_len;
    const uint32_t mask = (1u << s) - 1u;
    for (int j = threadIdx.x; j < tile_len; j += l)
        smem[j] = sorted_tiles[base + j];
    __syncthreads();
    for (int j = threadIdx.x; j < tile_len; j += l) {
        uint32_t key = smem[j];
        uint32_t d = digit_of(key, shift, mask);
        int rank = j - first_with_digit(smem, tile_len, d, shift, mask);
        keys_out[offsets[(long)d * tiles + tile] + rank] = key;
    }
}

typedef struct {
    long n;
    int s, l;
    uint32_t *d_input, *d_keys0, *d_keys1, *d_tiles;
    uint32_t *d_hist, *d_offsets, *d_tile_totals;
    uint32_t *d_result;
    uint32_t *keys;          /* the input, on the host */
} radix_ctx;

static void radix_run(void *p)
{
    radix_ctx *c = (radix_ctx *)p;
    const int l = c->l, tile_len = 4 * l;
    const long tiles = c->n / tile_len, hist_len = (1L << c->s) * tiles;
    const uint32_t *src = c->d_input;
    uint32_t *dst = c->d_keys0;
    for (int shift = 0; shift < RADIX_KEY_BITS; shift += c->s) {
        LAUNCH(local_sort_kernel, (unsigned)tiles, l,
               (size_t)(3 * tile_len + l) * sizeof(uint32_t), src, c->d_tiles,
               c->d_hist, shift, c->s, tiles);
        scan_exclusive<ScanAddU32>(c->d_hist, c->d_offsets, c->d_tile_totals,
                                   hist_len, l);
        LAUNCH(scatter_kernel, (unsigned)tiles, l,
               (size_t)tile_len * sizeof(uint32_t), c->d_tiles, c->d_offsets,
               dst, shift, c->s, tiles);
        src = dst;
        dst = (dst == c->d_keys0) ? c->d_keys1 : c->d_keys0;
    }
    c->d_result = (uint32_t *)src;
}

/* check the last run's keys against qsort, print the row */
static int finish(void *p, const bench_result *res)
{
    radix_ctx *c = (radix_ctx *)p;
    const long n = c->n;
    uint32_t *got = host_alloc_u32((size_t)n);
    to_host(got, c->d_result, (size_t)n);
    qsort(c->keys, (size_t)n, sizeof *c->keys, cpu_cmp_u32);
    int ok = same_words("radix-sort", got, c->keys, (size_t)n);

    char params[128];
    snprintf(params, sizeof params, "n=%ld;l=%d;s=%d;c=%d", n, c->l, c->s,
             RADIX_KEY_BITS);
    report("radix-sort", params, n, 0, c->l, c->s, res, ok);
    uint32_t *bufs[] = {c->d_input, c->d_keys0, c->d_keys1, c->d_tiles, c->d_hist,
                        c->d_offsets, c->d_tile_totals};
    for (size_t i = 0; i < sizeof bufs / sizeof *bufs; i++)
        CUDA_CHECK(cudaFree(bufs[i]));
    free(c->keys);
    free(c);
    free(got);
    return ok;
}

/* a point of the series: random keys on the device */
static bench_point prepare(long n, int s, int l, rng_t *rng)
{
    radix_ctx *c = (radix_ctx *)calloc(1, sizeof *c);
    const long tiles = n / (4L * l), hist_len = (1L << s) * tiles;
    c->keys = host_alloc_u32((size_t)n);
    for (long i = 0; i < n; i++)
        c->keys[i] = rng_u32(rng);
    c->n = n;
    c->s = s;
    c->l = l;
    c->d_input = dev_alloc_u32((size_t)n);
    c->d_keys0 = dev_alloc_u32((size_t)n);
    c->d_keys1 = dev_alloc_u32((size_t)n);
    c->d_tiles = dev_alloc_u32((size_t)n);
    c->d_hist = dev_alloc_u32((size_t)hist_len);
    c->d_offsets = dev_alloc_u32((size_t)hist_len);
    c->d_tile_totals = dev_alloc_u32((size_t)scan_tiles(hist_len, l));
    to_device(c->d_input, c->keys, (size_t)n);
    dev_poison(c->d_keys0, (size_t)n);
    dev_poison(c->d_keys1, (size_t)n);
    bench_point p = {{NULL, radix_run, c}, finish};
    return p;
}

int main(int argc, char **argv)
{
    static const char *const keys[] = {"--n", "--s", "--l", COMMON_KEYS, NULL};
    static const char *const flags[] = {COMMON_FLAGS, NULL};
    cli_require_known(argc, argv, keys, flags,
                      "radix-sort [--n LIST] [--s LIST] [--l 256] [--runs R] "
                      "[--warmup W] [--seed S] [--occupancy FILE] [--no-header]");
    common_opts o = common_parse(argc, argv);
    long ns[CLI_MAX_LIST], ss[CLI_MAX_LIST];
    static const long default_n[] = {1L << 20};
    static const long default_s[] = {1, 2, 4, 8, 16};
    int count_n = cli_list(argc, argv, "--n", ns, default_n, 1);
    int count_s = cli_list(argc, argv, "--s", ss, default_s, 5);
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
            long n = ns[i], s = ss[j];
            if (n <= 0 || n % (4L * l) != 0 || s < 1 || s > 16 ||
                RADIX_KEY_BITS % s != 0) {
                fprintf(stderr, "need n a multiple of 4l and s in {1,2,4,8,16}\n");
                return 2;
            }
            if (count_pts == CLI_MAX_LIST) {
                fprintf(stderr, "at most %d points per series\n", CLI_MAX_LIST);
                return 2;
            }
            pts[count_pts++] = prepare(n, (int)s, l, &rng);
        }
    }
    if (o.header)
        csv_print_header(stdout);
    return bench_series(pts, count_pts, &o) ? 0 : 1;
}
