// issue-ilp.cu -- the exploratory run behind validate/notes/instruction-stream.md,
// "One warp's issue" (output: issue-ilp-h100.txt): how fast one warp issues
// when its instructions do not wait for each other, and how many warps an
// SM really holds in the rows issue_latency_warpsN of cuda_ref/constants.cu.
//
// chain_kernel<Op, K>: every thread runs K independent dependent chains of
// Op (constants.cu's OpAdd: 32-bit additions in PTX, IADD3 and IMAD.IADD as
// ptxas alternates them; OpMulmod: common/zp.h's Z/pZ product), 16 steps a
// loop iteration.  Lane 0 of every warp writes its SM, its start and its
// stop (clock64).  For each K and each number W of warps per SM, the grid
// is W warps times the SMs, in blocks of min(W, 8) warps; the host then
// reads, on every SM, the warps that really ran at once (the most whose
// [start, stop] overlap), each warp's cycles per instruction (median over
// the warps), and the SM's warp instructions per cycle (all its warps'
// instructions over the span from the first start to the last stop).
// Built and run on the device as
//   nvcc -O3 -arch=sm_90 -I cuda_ref/common -o /tmp/ilp validate/notes/profiles/issue-ilp.cu && /tmp/ilp
// Not part of the sessions (constants.cu is): printed, not kept as data.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "zp.h"

#define CHECK(x)                                                                          \
    do {                                                                                  \
        cudaError_t e_ = (x);                                                             \
        if (e_ != cudaSuccess) {                                                          \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));   \
            return 1;                                                                     \
        }                                                                                 \
    } while (0)

static __device__ __forceinline__ uint32_t add_u32(uint32_t a, uint32_t b)
{
    uint32_t c;
    asm volatile("add.u32 %0, %1, %2;" : "=r"(c) : "r"(a), "r"(b));
    return c;
}
struct OpAdd {
    enum { OPS = 2 };   /* SASS instructions a step (one each) */
    static const char *name() { return "add"; }
    static __device__ void step(uint32_t &x, uint32_t &y)
    {
        x = add_u32(x, y);
        y = add_u32(y, x);
    }
};
struct OpMulmod {
    enum { OPS = 1 };   /* Z/pZ products a step */
    static const char *name() { return "mulmod"; }
    static __device__ void step(uint32_t &x, uint32_t &y) { x = zp_mul(x, y); }
};

enum { UNROLL = 16 };

struct warp_record {
    long long start, stop;
    int sm;
};

static __device__ __forceinline__ int sm_id()
{
    int id;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
    return id;
}

template <class Op, int K>
__global__ void chain_kernel(const uint32_t *seed, long iters, uint32_t *sink, warp_record *rec)
{
    uint32_t x[K], y[K];
#pragma unroll
    for (int c = 0; c < K; c++) {
        x[c] = seed[(threadIdx.x + c + 1) & 31];
        y[c] = seed[(threadIdx.x + 7 * c) & 31];
    }
    __syncwarp();
    long long start = clock64();
    for (long k = 0; k < iters; k++) {
#pragma unroll
        for (int u = 0; u < UNROLL; u++)
#pragma unroll
            for (int c = 0; c < K; c++)
                Op::step(x[c], y[c]);
    }
    long long stop = clock64();
    uint32_t acc = 0;
#pragma unroll
    for (int c = 0; c < K; c++)
        acc ^= x[c] ^ y[c];
    if (acc == 0x9e3779b9u)
        *sink = acc;
    if ((threadIdx.x & 31) == 0) {
        warp_record r = {start, stop, sm_id()};
        rec[(blockIdx.x * blockDim.x + threadIdx.x) / 32] = r;
    }
}

struct result {
    int resident_max, resident_min; /* warps at once on an SM, over the SMs */
    double per_warp;                /* cycles between two instructions of a warp (median) */
    double sm_rate;                 /* warp instructions an SM issues per cycle (median over SMs) */
};

static result read_back(const std::vector<warp_record> &rec, int sms, double instrs_per_warp)
{
    std::vector<std::vector<warp_record>> by_sm(sms);
    std::vector<double> per_warp;
    for (const warp_record &r : rec) {
        if (r.sm >= 0 && r.sm < sms)
            by_sm[r.sm].push_back(r);
        per_warp.push_back((double)(r.stop - r.start) / instrs_per_warp);
    }
    std::sort(per_warp.begin(), per_warp.end());
    result out = {0, 1 << 30, per_warp[per_warp.size() / 2], 0};
    std::vector<double> rates;
    for (auto &w : by_sm) {
        if (w.empty())
            continue;
        std::vector<std::pair<long long, int>> ev;
        long long first = w[0].start, last = w[0].stop;
        for (auto &r : w) {
            ev.push_back({r.start, +1});
            ev.push_back({r.stop, -1});
            first = std::min(first, r.start);
            last = std::max(last, r.stop);
        }
        std::sort(ev.begin(), ev.end());
        int now = 0, most = 0;
        for (auto &e : ev)
            most = std::max(most, now += e.second);
        out.resident_max = std::max(out.resident_max, most);
        out.resident_min = std::min(out.resident_min, most);
        rates.push_back(instrs_per_warp * (double)w.size() / (double)(last - first));
    }
    std::sort(rates.begin(), rates.end());
    out.sm_rate = rates[rates.size() / 2];
    return out;
}

template <class Op, int K>
static int measure(const uint32_t *seed, uint32_t *sink, warp_record *d_rec, int sms, int warps, long iters)
{
    int per_block = std::min(warps, 8);
    int blocks = sms * (warps / per_block);
    int occ = 0;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, chain_kernel<Op, K>, per_block * 32, 0));
    std::vector<warp_record> rec((size_t)blocks * per_block);
    for (int r = 0; r < 2; r++) { /* r = 0: warm-up */
        chain_kernel<Op, K><<<blocks, per_block * 32>>>(seed, iters, sink, d_rec);
        CHECK(cudaGetLastError());
        CHECK(cudaDeviceSynchronize());
    }
    CHECK(cudaMemcpy(rec.data(), d_rec, rec.size() * sizeof(warp_record), cudaMemcpyDeviceToHost));
    double instrs = (double)iters * UNROLL * K * Op::OPS;
    result res = read_back(rec, sms, instrs);
    printf("%s,%d,%d,%d,%d,%d,%.3f,%.3f\n", Op::name(), K, warps, occ * per_block, res.resident_min,
           res.resident_max, res.per_warp, res.sm_rate);
    return 0;
}

template <class Op>
static int sweep(const uint32_t *seed, uint32_t *sink, warp_record *rec, int sms, long iters)
{
    const int warps[] = {1, 2, 4, 8, 16, 32, 48, 64};
    for (int w : warps) {
        if (measure<Op, 1>(seed, sink, rec, sms, w, iters) || measure<Op, 2>(seed, sink, rec, sms, w, iters / 2) ||
            measure<Op, 4>(seed, sink, rec, sms, w, iters / 4) || measure<Op, 8>(seed, sink, rec, sms, w, iters / 8))
            return 1;
    }
    return 0;
}

int main()
{
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    int sms = prop.multiProcessorCount;
    printf("# %s, %d SMs\n", prop.name, sms);
    uint32_t host_seed[32];
    for (int i = 0; i < 32; i++)
        host_seed[i] = 12345u + 7919u * (uint32_t)i; /* in [0, p) */
    uint32_t *seed, *sink;
    warp_record *rec;
    CHECK(cudaMalloc(&seed, sizeof host_seed));
    CHECK(cudaMalloc(&sink, sizeof(uint32_t)));
    CHECK(cudaMalloc(&rec, (size_t)sms * 64 * sizeof(warp_record)));
    CHECK(cudaMemcpy(seed, host_seed, sizeof host_seed, cudaMemcpyHostToDevice));
    printf("# op: add (SASS instructions) or mulmod (Z/pZ products); K: independent chains a thread;\n"
           "# W: warps asked per SM; occupancy: warps the occupancy API allows per SM;\n"
           "# resident: the most warps seen running at once on an SM (least and most over the SMs);\n"
           "# per_warp: cycles between two of a warp's instructions (median over warps);\n"
           "# sm_rate: warp instructions an SM issues per cycle (median over the SMs)\n");
    printf("op,K,W,occupancy,resident_min,resident_max,per_warp_cycles,sm_rate\n");
    if (sweep<OpAdd>(seed, sink, rec, sms, 1 << 12) || sweep<OpMulmod>(seed, sink, rec, sms, 1 << 9))
        return 1;
    return 0;
}
