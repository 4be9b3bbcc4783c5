// l2-partitions.cu -- the exploratory run behind validate/notes/cache-hierarchy.md,
// "The L2's two partitions" (output: l2-partitions-h100.txt): how much of a
// footprint the L2 keeps, by who reads its lines.
//
// random_order_kernel: as random_sector_kernel of cuda_ref/constants.cu, 8
// blocks of 256 threads per SM, grid-stride, every sector of the footprint
// once a pass, over 4, 8, 16, 32 and 64 MiB, in these orders:
//   private       each sector read by the same thread at every pass; the four
//                 sectors of a line by four unrelated threads (constants.cu's);
//   shared        pass r shifts the sectors among the threads by r x 0.618 of
//                 the grid: a sector is read by another SM at every pass;
//   paged         as private, scattered only inside each 2 MiB page;
//   private-cg    as private with L2-only loads;
//   pairs, lines  2 or 4 lanes read the sectors of a 64-byte or 128-byte
//                 chunk together: a line is one SM's (lines-shared: as shared);
//   stream        whole lines in address order (stream-shared, stream-cg).
// Each configuration: a warm launch, then a timed one (cudaEvent), sectors per
// ns.  Run under Nsight Compute (-k regex:random) for the L2's hits, DRAM's
// sectors and the requests between the L2's partitions of each launch.  Built
// and run on the device as
//   nvcc -O3 -arch=sm_90 -o /tmp/l2p l2-partitions.cu && /tmp/l2p
// Not part of the sessions (constants.cu is): printed, not kept as data.
#include <cstdint>
#include <cstdio>

static __device__ __forceinline__ uint32_t load_ca(const uint32_t *p)
{
    uint32_t v;
    asm volatile("ld.global.ca.u32 %0, [%1];" : "=r"(v) : "l"(p));
    return v;
}

/* a bijection of the k-bit numbers that scatters neighbours (constants.cu's) */
static __device__ __forceinline__ uint32_t scatter_bits(uint32_t x, int k)
{
    const uint32_t mask = k >= 32 ? 0xffffffffu : (1u << k) - 1;
    x &= mask;
    x ^= x >> (k / 2 + 1);
    x = (x * 0x9e3779b1u) & mask;
    x ^= x >> (k / 3 + 1);
    x = (x * 0x85ebca6bu) & mask;
    x ^= x >> (k / 2 + 1);
    return x;
}

enum { PAGE_SECTOR_BITS = 16 }; /* 2 MiB = 2^16 sectors of 32 bytes */

static __device__ __forceinline__ uint32_t load_cg(const uint32_t *p)
{
    uint32_t v;
    asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(v) : "l"(p));
    return v;
}

/* 2^k chunks of `group` sectors (1, 2 or 4: a sector, 64 bytes, a line),
 * the `group` lanes of a chunk reading its sectors together; order bit 0:
 * shared, bit 1: paged, bit 2: streamed (chunks in address order, a warp's
 * round whole lines); cg: L2-only loads */
__global__ void random_order_kernel(const uint32_t *buf, int k, int group, int reps, int order, int cg,
                                    uint32_t *sink)
{
    const int shift_bits = __ffs(group) - 1;
    const long count = (long)group << k, step = (long)gridDim.x * blockDim.x;
    const long shift = ((long)(step * 0.618) / 32) * 32;
    uint32_t acc = 0;
    for (int r = 0; r < reps; r++)
        for (long t = (long)blockIdx.x * blockDim.x + threadIdx.x; t < count; t += step) {
            const long e = (order & 1) ? (t + r * shift) & (count - 1) : t;
            const long c = e >> shift_bits;
            long chunk;
            if (order & 4)
                chunk = c;
            else if ((order & 2) && k > PAGE_SECTOR_BITS - shift_bits)
                chunk = (c >> (PAGE_SECTOR_BITS - shift_bits) << (PAGE_SECTOR_BITS - shift_bits)) |
                        scatter_bits((uint32_t)c, PAGE_SECTOR_BITS - shift_bits);
            else
                chunk = scatter_bits((uint32_t)c, k);
            const uint32_t *p = buf + ((chunk << shift_bits) + (e & (group - 1))) * 8;
            acc += cg ? load_cg(p) : load_ca(p);
        }
    if (acc == 0x9e3779b9u)
        *sink = acc;
}

int main()
{
    int sms = 0;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    uint32_t *buf, *sink;
    cudaMalloc(&buf, 64u << 20);
    cudaMalloc(&sink, 4);
    cudaMemset(buf, 0x5a, 64u << 20);
    static const struct {
        const char *name;
        int order, group, cg;
    } runs[] = {
        {"private", 0, 1, 0},      {"shared", 1, 1, 0},       {"paged", 2, 1, 0},
        {"paged-shared", 3, 1, 0}, {"private-cg", 0, 1, 1},   {"pairs", 0, 2, 0},
        {"lines", 0, 4, 0},        {"lines-shared", 1, 4, 0}, {"stream", 4, 4, 0},
        {"stream-shared", 5, 4, 0}, {"stream-cg", 4, 4, 1},
    };
    static const int mib[] = {4, 8, 16, 32, 64}; /* powers of two: scatter_bits is a bijection of k bits */
    cudaEvent_t s, e;
    cudaEventCreate(&s);
    cudaEventCreate(&e);
    for (size_t o = 0; o < sizeof runs / sizeof runs[0]; o++)
        for (int f = 0; f < 5; f++) {
            const int g = runs[o].group;
            const int kk = 15 + __builtin_ctz((unsigned)mib[f]) - __builtin_ctz((unsigned)g); /* chunks */
            const int reps = mib[f] <= 16 ? 16 : 4;
            random_order_kernel<<<8 * sms, 256>>>(buf, kk, g, reps, runs[o].order, runs[o].cg, sink); /* warm */
            cudaEventRecord(s);
            random_order_kernel<<<8 * sms, 256>>>(buf, kk, g, reps, runs[o].order, runs[o].cg, sink);
            cudaEventRecord(e);
            cudaEventSynchronize(e);
            float ms;
            cudaEventElapsedTime(&ms, s, e);
            const double sectors = (double)((long)g << kk) * reps;
            printf("%-13s %3d MiB reps %2d  us %9.2f  sectors/ns %7.3f\n", runs[o].name, mib[f], reps,
                   ms * 1e3, sectors / (ms * 1e6));
        }
    cudaError_t err = cudaDeviceSynchronize();
    if (err != cudaSuccess) {
        fprintf(stderr, "%s\n", cudaGetErrorString(err));
        return 1;
    }
    return 0;
}
