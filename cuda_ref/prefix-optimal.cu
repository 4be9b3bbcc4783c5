/*
 * prefix-optimal.cu -- case study "prefix-optimal": the optimal two-stage
 * prefix-sum algorithm in global memory.
 *
 * Follows: dmm-umm-chapter section 7 (Theorem 3).  With n = 2^k and arrays
 * a_t of 2^t words (a_k = the input):
 *   stage 1 (interval sums), t = k-1 down to 0:
 *       a_t[i] <- a_{t+1}[2i] + a_{t+1}[2i+1],             i < 2^t;
 *   stage 2 (sums of interval sums), t = 0 .. k-1:
 *       a_{t+1}[2i+1] <- a_t[i],                           i < 2^t,
 *       a_{t+1}[2i+2] <- a_{t+1}[2i+2] + a_t[i],           i < 2^t - 1.
 * One kernel per step with ceil(2^t / l) blocks: 2 log2 n launches.
 *
 * Choices: a_0 .. a_{k-1} live in one work array (a_t at offset 2^t - 1);
 * the last step of stage 2 writes the result into a second array instead of
 * overwriting the input (thread 0 also copies a_k[0]), so the input stays
 * intact across runs.  Words are added modulo 2^32.
 *
 * Check: against cpu_inclusive_scan_u32.
 * Usage: prefix-optimal [--n LIST] [--l 256] [--runs R] [--warmup W]
 *                       [--seed S] [--no-header]
 */
#include "common/sums_main.cuh"

/* stage 1: lower[i] = upper[2i] + upper[2i+1], i < count */
__global__ void interval_sum_kernel(const uint32_t *upper, uint32_t *lower,
                                    long count)
{
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count)
        lower[i] = upper[2 * i] + upper[2 * i + 1];
}

/*
 * stage 2: from the finished level a_t (count = 2^t words) and the interval
 * sums of level t+1 (upper_in), write the prefix sums of level t+1 to
 * upper_out (upper_in == upper_out allowed).
 */
__global__ void interval_prefix_kernel(const uint32_t *level,
                                       const uint32_t *upper_in,
                                       uint32_t *upper_out, long count)
{
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count)
        return;
    if (i == 0)
        upper_out[0] = upper_in[0];
    upper_out[2 * i + 1] = level[i];
    if (i < count - 1)
        upper_out[2 * i + 2] = upper_in[2 * i + 2] + level[i];
}

static void prefix_optimal_run(void *p)
{
    sums_ctx *c = (sums_ctx *)p;
    int k = log2_exact(c->n);
    uint32_t *levels = c->d_work0;        /* a_t at levels + 2^t - 1 */
#define LEVEL(t) (levels + (1L << (t)) - 1)
    for (int t = k - 1; t >= 0; t--) {
        const uint32_t *upper = (t == k - 1) ? c->d_input : LEVEL(t + 1);
        LAUNCH(interval_sum_kernel, (unsigned)ceil_div(1L << t, c->l), c->l, 0,
               upper, LEVEL(t), 1L << t);
    }
    for (int t = 0; t < k; t++) {
        const uint32_t *upper_in = (t == k - 1) ? c->d_input : LEVEL(t + 1);
        uint32_t *upper_out = (t == k - 1) ? c->d_work1 : LEVEL(t + 1);
        LAUNCH(interval_prefix_kernel, (unsigned)ceil_div(1L << t, c->l), c->l,
               0, LEVEL(t), upper_in, upper_out, 1L << t);
    }
#undef LEVEL
    c->d_result = c->d_work1;
}

int main(int argc, char **argv)
{
    static const sums_program prog = {"prefix-optimal", prefix_optimal_run, 1};
    return sums_main(&prog, argc, argv);
}
