// block-throughput.cu -- the exploratory run of 2026-11-25 quoted in
// validate/notes/card-model.md ("Block throughput"): back-to-back kernels of
// 1, 4, 16, 64, 256 blocks per SM, empty or touching one word per thread,
// 32 ... 1024 threads a block; per block per SM, the time beyond the kernel
// of one block per SM.  Built and run on the device as
//   nvcc -O3 -arch=sm_90 -o /tmp/d block-throughput.cu && /tmp/d
// Not part of the sessions (constants.cu is): printed, not kept as data.
#include <cstdio>
__global__ void empty_kernel(void) {}
__global__ void touch(const unsigned *in, unsigned *out) { long i = (long)blockIdx.x * blockDim.x + threadIdx.x; out[i] = in[i] + 1; }
static float timeit(int kind, int blocks, int threads, unsigned *a, unsigned *b, int reps) {
  cudaEvent_t s, e; cudaEventCreate(&s); cudaEventCreate(&e);
  for (int w = 0; w < 3; w++) { if (kind) touch<<<blocks, threads>>>(a, b); else empty_kernel<<<blocks, threads>>>(); }
  cudaEventRecord(s);
  for (int r = 0; r < reps; r++) { if (kind) touch<<<blocks, threads>>>(a, b); else empty_kernel<<<blocks, threads>>>(); }
  cudaEventRecord(e); cudaEventSynchronize(e); float ms; cudaEventElapsedTime(&ms, s, e); return ms * 1000.0f / reps; }
int main() { int sms = 132; unsigned *a, *b; size_t words = (size_t)256 * sms * 1024; cudaMalloc(&a, words * 4); cudaMalloc(&b, words * 4); cudaMemset(a, 0, words * 4);
  for (int kind = 0; kind < 2; kind++) for (int t = 32; t <= 1024; t *= 2) for (int per = 1; per <= 256; per *= 4) {
    if ((size_t)per * sms * t > words) continue;
    float us1 = timeit(kind, sms, t, a, b, 2000), us = timeit(kind, per * sms, t, a, b, 500);
    printf("%s threads=%4d blocks_per_sm=%3d us=%8.3f per_block_per_sm_ns=%7.2f cycles=%7.1f\n", kind ? "touch" : "empty", t, per, us, per > 1 ? (us - us1) * 1e3 / (per - 1) : 0.0, per > 1 ? (us - us1) * 1.98e3 / (per - 1) : 0.0); }
  return 0; }
