/*
 * block_scan.cuh -- the three-kernel exclusive scan used by Stockham (powers
 * of omega, a prefix *product*) and by radix sort (digit histogram, a prefix
 * *sum*).
 *
 * Follows: thesis Appendix B, Stockham worksheet "Prefix sum to compute the
 * powers of the n-th primitive root of unity" (l. 5367-5450) and radix sort
 * phase 2 (l. 6144-6200): each thread handles 4 items, so one block scans a
 * tile of 4*l items;
 *   kernel 1 "inclusive"  : ceil(len / 4l) blocks scan their tile and write
 *                           the tile total (4 reads + 4 writes per thread);
 *   kernel 2 "mediate"    : one block scans the tile totals;
 *   kernel 3 "exclusive"  : (tiles - 1) blocks combine their tile's prefix
 *                           into their 4l items (4 + 1 + 4 words per thread).
 * Inside a block, the l per-thread partial results are scanned with the
 * up-sweep / down-sweep (Blelloch) scheme of the worksheet.
 *
 * Choices: the scan produced is *exclusive* (item i gets op of items < i),
 * which is what both users need (omega^i = product of i copies of omega; the
 * start offset of a digit bucket).  The mediate kernel loops over the tile
 * totals in chunks of 4l with a running carry, so it works for any count
 * (the worksheet assumes the totals fit in one block).  Threads per block
 * must be a power of two.
 */
#ifndef MCM_BLOCK_SCAN_CUH
#define MCM_BLOCK_SCAN_CUH

#include <stdint.h>

#include "cuda_common.cuh"
#include "zp.h"

/* the two associative, commutative operators we scan with */
struct ScanAddU32 {
    static __device__ __forceinline__ uint32_t op(uint32_t a, uint32_t b) { return a + b; }
    static __device__ __forceinline__ uint32_t identity() { return 0u; }
};

struct ScanMulZp {
    static __device__ __forceinline__ uint32_t op(uint32_t a, uint32_t b) { return zp_mul(a, b); }
    static __device__ __forceinline__ uint32_t identity() { return 1u; }
};

/*
 * Exclusive scan of v[0 .. blockDim.x) in shared memory (Blelloch up-sweep
 * then down-sweep); returns the total to every thread.
 */
template <class Op>
__device__ uint32_t block_exclusive_scan(uint32_t *v)
{
    const int len = blockDim.x, t = threadIdx.x;
    for (int d = 1; d < len; d <<= 1) {          /* up-sweep */
        __syncthreads();
        int i = (t + 1) * 2 * d - 1;
        if (i < len)
            v[i] = Op::op(v[i - d], v[i]);
    }
    __syncthreads();
    uint32_t total = v[len - 1];
    __syncthreads();
    if (t == 0)
        v[len - 1] = Op::identity();
    for (int d = len / 2; d >= 1; d >>= 1) {     /* down-sweep */
        __syncthreads();
        int i = (t + 1) * 2 * d - 1;
        if (i < len) {
            uint32_t left = v[i - d];
            v[i - d] = v[i];
            v[i] = Op::op(v[i], left);
        }
    }
    __syncthreads();
    return total;
}

/*
 * Exclusive scan of a tile of 4 * blockDim.x items in shared memory; thread t
 * owns items 4t .. 4t+3.  partial is scratch of blockDim.x words.  Returns
 * the tile total.
 */
template <class Op>
__device__ uint32_t tile_exclusive_scan(uint32_t *tile, uint32_t *partial)
{
    const int t = threadIdx.x;
    uint32_t *mine = tile + 4 * t;
    __syncthreads();
    partial[t] = Op::op(Op::op(mine[0], mine[1]), Op::op(mine[2], mine[3]));
    uint32_t total = block_exclusive_scan<Op>(partial);
    uint32_t run = partial[t];
    for (int j = 0; j < 4; j++) {
        uint32_t item = mine[j];
        mine[j] = run;
        run = Op::op(run, item);
    }
    __syncthreads();
    return total;
}

/* kernel 1: scan each tile of 4l items of in[0..len) into out, tile totals */
template <class Op>
__global__ void scan_tiles_kernel(const uint32_t *in, uint32_t *out,
                                  uint32_t *tile_totals, long len)
{
    extern __shared__ uint32_t scan_smem[];
    uint32_t *tile = scan_smem, *partial = scan_smem + 4 * blockDim.x;
    long base = (long)blockIdx.x * 4 * blockDim.x;
    for (int j = threadIdx.x; j < 4 * (int)blockDim.x; j += blockDim.x)
        tile[j] = (base + j < len) ? in[base + j] : Op::identity();
    uint32_t total = tile_exclusive_scan<Op>(tile, partial);
    for (int j = threadIdx.x; j < 4 * (int)blockDim.x; j += blockDim.x)
        if (base + j < len)
            out[base + j] = tile[j];
    if (threadIdx.x == 0)
        tile_totals[blockIdx.x] = total;
}

/* kernel 2: one block, exclusive scan of the count tile totals in place */
template <class Op>
__global__ void scan_mediate_kernel(uint32_t *tile_totals, long count)
{
    extern __shared__ uint32_t scan_smem[];
    uint32_t *tile = scan_smem, *partial = scan_smem + 4 * blockDim.x;
    const long chunk = 4L * blockDim.x;
    uint32_t carry = Op::identity();
    for (long base = 0; base < count; base += chunk) {
        for (int j = threadIdx.x; j < chunk; j += blockDim.x)
            tile[j] = (base + j < count) ? tile_totals[base + j] : Op::identity();
        uint32_t total = tile_exclusive_scan<Op>(tile, partial);
        for (int j = threadIdx.x; j < chunk; j += blockDim.x)
            if (base + j < count)
                tile_totals[base + j] = Op::op(carry, tile[j]);
        carry = Op::op(carry, total);
        __syncthreads();
    }
}

/* kernel 3: blocks 1 .. tiles-1 combine their tile prefix into their items */
template <class Op>
__global__ void scan_apply_kernel(uint32_t *out, const uint32_t *tile_totals,
                                  long len)
{
    const long tile_index = blockIdx.x + 1;
    const long base = tile_index * 4 * blockDim.x;
    const uint32_t prefix = tile_totals[tile_index];
    for (int j = threadIdx.x; j < 4 * (int)blockDim.x; j += blockDim.x)
        if (base + j < len)
            out[base + j] = Op::op(prefix, out[base + j]);
}

/* number of tiles (and tile totals) for a scan of len items with l threads */
static inline long scan_tiles(long len, int l)
{
    return ceil_div(len, 4L * l);
}

/*
 * out[i] = op of in[0 .. i) for i < len (exclusive scan), with l threads per
 * block; tile_totals holds scan_tiles(len, l) words.  Three launches (two
 * when there is a single tile).
 */
template <class Op>
static void scan_exclusive(const uint32_t *in, uint32_t *out,
                           uint32_t *tile_totals, long len, int l)
{
    long tiles = scan_tiles(len, l);
    size_t smem = (size_t)5 * l * sizeof(uint32_t);
    LAUNCH(scan_tiles_kernel<Op>, (unsigned)tiles, l, smem, in, out,
           tile_totals, len);
    LAUNCH(scan_mediate_kernel<Op>, 1, l, smem, tile_totals, tiles);
    if (tiles > 1)
        LAUNCH(scan_apply_kernel<Op>, (unsigned)(tiles - 1), l, 0, out,
               tile_totals, len);
}

#endif /* MCM_BLOCK_SCAN_CUH */
