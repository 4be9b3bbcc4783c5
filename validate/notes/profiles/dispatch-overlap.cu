// dispatch-overlap.cu -- an exploratory run for validate/notes/card-model.md
// ("Block dispatch and the resident blocks' overlap"): does an SM take its
// blocks one after the other at a steady rate *beside* the work of the blocks
// it holds, or *in addition* to it?  Kernels of B blocks per SM (B = 1 ... 256)
// of 128 threads; each thread reads `reads` words (coalesced, distinct), runs
// a chain of `iters` dependent integer multiply-adds and writes one word.  The
// blocks an SM holds at once (`slots`) are set by dynamic shared memory the
// kernel does not use: 0, 48 KiB, 100 KiB, 200 KiB give 16, 4, 2, 1 (printed
// as the occupancy API reports them).  Each line: the time of one kernel in a
// stream of back-to-back launches (cudaEvent, mean of `reps`), and the time
// per block per SM beyond the kernel of one block per SM.
// Built and run on the device as
//   nvcc -O3 -arch=sm_90 -o /tmp/o dispatch-overlap.cu && /tmp/o
// Not part of the sessions (constants.cu is): printed, not kept as data.
#include <cstdio>
#include <cstdlib>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

__global__ void work(const unsigned *in, unsigned *out, int reads, int iters, unsigned c)
{
    long threads = (long)gridDim.x * blockDim.x;
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    unsigned x = (unsigned)i;
    for (int r = 0; r < reads; r++)
        x += in[i + r * threads];
#pragma unroll 8
    for (int k = 0; k < iters; k++)
        x = x * 1664525u + c;
    out[i] = x;
}

static float time_kernel(int blocks, int smem, const unsigned *in, unsigned *out,
                         int reads, int iters, int reps)
{
    cudaEvent_t s, e;
    CHECK(cudaEventCreate(&s));
    CHECK(cudaEventCreate(&e));
    for (int w = 0; w < 3; w++)
        work<<<blocks, 128, smem>>>(in, out, reads, iters, 1013904223u);
    CHECK(cudaEventRecord(s));
    for (int r = 0; r < reps; r++)
        work<<<blocks, 128, smem>>>(in, out, reads, iters, 1013904223u);
    CHECK(cudaEventRecord(e));
    CHECK(cudaEventSynchronize(e));
    CHECK(cudaGetLastError());
    float ms;
    CHECK(cudaEventElapsedTime(&ms, s, e));
    CHECK(cudaEventDestroy(s));
    CHECK(cudaEventDestroy(e));
    return ms * 1000.0f / reps;
}

int main()
{
    int sms;
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    int clock_khz;
    CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0));
    double mhz = clock_khz / 1e3;
    CHECK(cudaFuncSetAttribute(work, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024));
    const int max_per_sm = 256, max_reads = 4;
    size_t words = (size_t)max_per_sm * sms * 128;
    unsigned *in, *out;
    CHECK(cudaMalloc(&in, words * max_reads * sizeof *in));
    CHECK(cudaMalloc(&out, words * sizeof *out));
    CHECK(cudaMemset(in, 1, words * max_reads * sizeof *in));
    printf("# sms=%d clock_rate_attribute=%.0f MHz; cycles below at that clock\n", sms, mhz);
    const int smems[] = {0, 48 * 1024, 100 * 1024, 200 * 1024};
    const int reads_list[] = {0, 1, 4};
    const int iters_list[] = {0, 64, 256, 1024};
    for (int si = 0; si < 4; si++) {
        int slots;
        CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&slots, work, 128, smems[si]));
        for (int ri = 0; ri < 3; ri++)
            for (int ii = 0; ii < 4; ii++) {
                float one = time_kernel(sms, smems[si], in, out, reads_list[ri], iters_list[ii], 400);
                for (int per = 1; per <= max_per_sm; per *= 4) {
                    int reps = per >= 64 ? 40 : 200;
                    float us = per == 1 ? one
                             : time_kernel(per * sms, smems[si], in, out, reads_list[ri], iters_list[ii], reps);
                    double extra = per > 1 ? (us - one) / (per - 1) : 0.0;
                    printf("slots=%2d reads=%d iters=%4d blocks_per_sm=%3d us=%9.3f "
                           "per_block_per_sm_ns=%8.2f cycles=%8.1f\n",
                           slots, reads_list[ri], iters_list[ii], per, us, extra * 1e3, extra * mhz);
                }
            }
    }
    CHECK(cudaFree(in));
    CHECK(cudaFree(out));
    return 0;
}
