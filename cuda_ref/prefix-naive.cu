/*
 * prefix-naive.cu -- case study "prefix-naive": the simple (Hillis-Steele)
 * prefix-sum algorithm in global memory.
 *
 * Follows: dmm-umm-chapter section 6, "A simple prefix-sum algorithm": for
 * t = 0 .. log2(n) - 1, for i >= 2^t in parallel, a[i] <- a[i] + a[i - 2^t].
 * One kernel per t with n/l blocks (one thread per element): log2 n
 * launches, O(n log n) work.
 *
 * Choice: the synchronous step of the model reads the old array, so the
 * kernels alternate between two work arrays (the first reads the input);
 * threads i < 2^t copy their element.  Words are added modulo 2^32.
 *
 * Check: against cpu_inclusive_scan_u32.
 * Usage: prefix-naive [--n LIST] [--l 256] [--runs R] [--warmup W] [--seed S]
 *                     [--no-header]
 */
#include "common/sums_main.cuh"

/* out[i] = in[i] + in[i - d] (i >= d), in[i] otherwise */
__global__ void hillis_steele_kernel(const uint32_t *in, uint32_t *out, long n,
                                     long d)
{
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = (i >= d) ? in[i] + in[i - d] : in[i];
}

static void prefix_naive_run(void *p)
{
    sums_ctx *c = (sums_ctx *)p;
    const uint32_t *src = c->d_input;
    uint32_t *dst = c->d_work0;
    for (long d = 1; d < c->n; d *= 2) {
        LAUNCH(hillis_steele_kernel, (unsigned)ceil_div(c->n, c->l), c->l, 0,
               src, dst, c->n, d);
        src = dst;
        dst = (dst == c->d_work0) ? c->d_work1 : c->d_work0;
    }
    c->d_result = src;
}

int main(int argc, char **argv)
{
    static const sums_program prog = {"prefix-naive", prefix_naive_run, 1};
    return sums_main(&prog, argc, argv);
}
