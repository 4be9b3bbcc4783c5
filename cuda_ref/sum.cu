/*
 * sum.cu -- case study "sum": the sum of n numbers by repeated halving.
 *
 * Follows: dmm-umm-chapter section 4, "Optimal algorithm for computing the
 * sum": for t = log2(n) - 1 down to 0, for i < 2^t in parallel,
 * a[i] <- a[i] + a[i + 2^t].  One kernel per t with ceil(2^t / l) blocks,
 * one thread per i (contiguous, coalesced accesses): log2 n launches.
 *
 * Choice: the first step reads the input array and writes a work array, the
 * later steps work in place in the work array, so the input stays intact
 * across the timed runs.  Words are added modulo 2^32 (common/sums_main.cuh).
 *
 * Check: against cpu_sum_u32.
 * Usage: sum [--n LIST] [--l 256] [--runs R] [--warmup W] [--seed S] [--no-header]
 */
#include "common/sums_main.cuh"

/* out[i] = in[i] + in[i + half] for i < half (in == out allowed) */
__global__ void sum_halving_kernel(const uint32_t *in, uint32_t *out, long half)
{
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < half)
        out[i] = in[i] + in[i + half];
}

static void sum_run(void *p)
{
    sums_ctx *c = (sums_ctx *)p;
    const uint32_t *src = c->d_input;
    for (long half = c->n / 2; half >= 1; half /= 2) {
        LAUNCH(sum_halving_kernel, (unsigned)ceil_div(half, c->l), c->l, 0, src,
               c->d_work0, half);
        src = c->d_work0;
    }
    c->d_result = c->d_work0;
}

int main(int argc, char **argv)
{
    static const sums_program prog = {"sum", sum_run, 0};
    return sums_main(&prog, argc, argv);
}
