/*
 * plain-division.cu -- case study "plain-division": division with remainder
 * of univariate polynomials over Z/pZ, program parameter s.
 *
 * Follows: the tutorial case study of the spec (SPEC.md section 2, "Plain
 * division"): ceil((m - n)/s) kernel calls of ceil(n/(2s)) blocks of
 * l = 2s threads; each call performs at most s division steps, each block
 * does at most ~6 s^2 operations.  Same scheme as the ping-ping phase of the
 * Euclidean algorithm (MCM paper section 3, Algorithm 1): every block reads
 * the s leading coefficients of the current dividend and of b and recomputes
 * the s quotient coefficients itself (s sequential steps), then each thread
 * updates one coefficient below them by s multiply-subtracts.
 *
 * Conventions (our choice; the spec gives only the grid): b has degree n
 * (n + 1 coefficients, b[n] != 0) and a has m coefficients (degree m - 1),
 * so the quotient has exactly m - n coefficients, one per division step,
 * and ceil((m - n)/s) calls perform them all; the remainder has n
 * coefficients.  In the call whose current top position is d, the n lanes
 * of the grid own positions d - steps - idx, idx < n, exactly the positions
 * that the steps change below the top ones.
 *   quotient:  q_j = (lead_j - sum_{i<j} q_i b[n-(j-i)]) / b[n], j < steps,
 *              for the coefficient of X^(d - n - j);
 *   lane idx:  r[P] -= sum_{j<steps} q_j b[n - steps - idx + j],
 *              P = d - steps - idx (terms with a negative b index vanish).
 * 1/b[n] is computed once on the host at the start of each run.  The
 * dividend is updated in place (the top positions are read, the lanes write
 * only lower positions: no two blocks touch the same word), so each timed
 * run starts from a fresh copy made outside the timed region.
 *
 * Check: quotient and remainder against cpu_divide (tested to satisfy
 * a = q b + r).
 * Usage: plain-division [--n 2000] [--gap LIST] [--s LIST] [--runs R]
 *                       [--warmup W] [--seed S] [--occupancy FILE] [--no-header]
 *        (gap = m - n; l = 2s always)
 */
#include <stdio.h>
#include <string.h>

#include "common/cpu_ref.h"
#include "common/cuda_common.cuh"
#include "common/zp.h"

/*
 * One call: steps (<= s) division steps on rem, whose current top position
 * is d.  blockDim.x = 2s; shared memory 5s + 2s - 1 words.
 */
__global__ void division_kernel(uint32_t *rem, const uint32_t *b, uint32_t *q,
                                long n, long d, int s, int steps,
                                uint32_t inv_lc)
{
    extern __shared__ uint32_t smem[];
    const int l = blockDim.x, t = threadIdx.x;
    uint32_t *lead = smem;               /* rem[d - j], j < steps */
    uint32_t *btop = lead + s;           /* b[n - j],   j < steps */
    uint32_t *qs = btop + s;             /* quotient coefficients */
    uint32_t *bwin = qs + s;             /* b[wlo .. wlo + l + steps - 2] */
    const long first_lane = (long)blockIdx.x * l;
    const long wlo = n - steps - (first_lane + l - 1);

    /* copying from global memory */
    if (t < steps) {
        lead[t] = rem[d - t];
        btop[t] = (n - t >= 0) ? b[n - t] : 0;
    }
    for (int w = t; w < l + steps - 1; w += l)
        bwin[w] = (wlo + w >= 0) ? b[wlo + w] : 0;
    __syncthreads();

    /* the quotient coefficients: steps sequential division steps */
    for (int j = 0; j < steps; j++) {
        if (t == 0)
            qs[j] = zp_mul(lead[j], inv_lc);
        __syncthreads();
        if (t > j && t < steps)
            lead[t] = zp_sub(lead[t], zp_mul(qs[j], btop[t - j]));
        __syncthreads();
    }

    /* this thread's coefficient below the leading ones */
    const long idx = first_lane + t, P = d - steps - idx;
    if (idx < n && P >= 0) {
        uint32_t v = rem[P];
        for (int j = 0; j < steps; j++) {
            long bi = n - steps - idx + j;
            if (bi >= 0)
                v = zp_sub(v, zp_mul(qs[j], bwin[bi - wlo]));
        }
        rem[P] = v;
    }
    if (blockIdx.x == 0 && t < steps)
        q[d - n - t] = qs[t];
}

typedef struct {
    long n, m;          /* deg b, size of a */
    int s;
    uint32_t lc_b;
    const uint32_t *d_a_orig;
    uint32_t *d_rem, *d_b, *d_q;
    uint32_t *a, *b;         /* the inputs, on the host */
} division_ctx;

static void division_reset(void *p)
{
    division_ctx *c = (division_ctx *)p;
    dev_copy(c->d_rem, c->d_a_orig, (size_t)c->m);
}

static void division_run(void *p)
{
    division_ctx *c = (division_ctx *)p;
    const long total_steps = c->m - c->n;
    const int l = 2 * c->s;
    const unsigned blocks = (unsigned)ceil_div(c->n, l);
    const size_t smem = (size_t)(5 * c->s + l) * sizeof(uint32_t);
    const uint32_t inv_lc = zp_inv(c->lc_b);
    for (long done = 0; done < total_steps; done += c->s) {
        int steps = (int)(total_steps - done < c->s ? total_steps - done : c->s);
        long d = c->m - 1 - done;
        LAUNCH(division_kernel, blocks, l, smem, c->d_rem, c->d_b, c->d_q, c->n,
               d, c->s, steps, inv_lc);
    }
}

/* check the last run's quotient and remainder, print the row */
static int finish(void *p, const bench_result *res)
{
    division_ctx *c = (division_ctx *)p;
    const long n = c->n, m = c->m, gap = m - n;
    const int s = c->s;
    uint32_t *q_want = host_alloc_u32((size_t)gap), *r_want = host_alloc_u32((size_t)n);
    uint32_t *q_got = host_alloc_u32((size_t)gap), *r_got = host_alloc_u32((size_t)n);
    to_host(q_got, c->d_q, (size_t)gap);
    to_host(r_got, c->d_rem, (size_t)n);
    cpu_divide(c->a, (size_t)m, c->b, (size_t)n, q_want, r_want);
    int ok = same_words("plain-division quotient", q_got, q_want, (size_t)gap) &&
             same_words("plain-division remainder", r_got, r_want, (size_t)n);

    char params[128];
    snprintf(params, sizeof params, "n=%ld;m=%ld;l=%d;s=%d", n, m, 2 * s, s);
    report("plain-division", params, n, m, 2 * s, s, res, ok);
    CUDA_CHECK(cudaFree((void *)c->d_a_orig));
    CUDA_CHECK(cudaFree(c->d_rem));
    CUDA_CHECK(cudaFree(c->d_b));
    CUDA_CHECK(cudaFree(c->d_q));
    free(c->a);
    free(c->b);
    free(c);
    free(q_want);
    free(r_want);
    free(q_got);
    free(r_got);
    return ok;
}

/* a point of the series: random dividend and divisor on the device */
static bench_point prepare(long n, long gap, int s, rng_t *rng)
{
    division_ctx *c = (division_ctx *)calloc(1, sizeof *c);
    const long m = n + gap;
    c->a = host_alloc_u32((size_t)m);
    c->b = host_alloc_u32((size_t)n + 1);
    uint32_t *d_a_orig = dev_alloc_u32((size_t)m);
    for (long i = 0; i < m; i++)
        c->a[i] = rng_zp(rng);
    for (long i = 0; i < n; i++)
        c->b[i] = rng_zp(rng);
    c->b[n] = rng_zp_nonzero(rng);
    c->n = n;
    c->m = m;
    c->s = s;
    c->lc_b = c->b[n];
    c->d_rem = dev_alloc_u32((size_t)m);
    c->d_b = dev_alloc_u32((size_t)n + 1);
    c->d_q = dev_alloc_u32((size_t)gap);
    to_device(d_a_orig, c->a, (size_t)m);
    to_device(c->d_b, c->b, (size_t)n + 1);
    c->d_a_orig = d_a_orig;
    dev_poison(c->d_q, (size_t)gap);
    bench_point p = {{division_reset, division_run, c}, finish};
    return p;
}

int main(int argc, char **argv)
{
    static const char *const keys[] = {"--n", "--gap", "--s", COMMON_KEYS, NULL};
    static const char *const flags[] = {COMMON_FLAGS, NULL};
    cli_require_known(argc, argv, keys, flags,
                      "plain-division [--n 2000] [--gap LIST] [--s LIST] "
                      "[--runs R] [--warmup W] [--seed S] [--occupancy FILE] [--no-header]");
    common_opts o = common_parse(argc, argv);
    long gaps[CLI_MAX_LIST], ss[CLI_MAX_LIST];
    static const long default_gap[] = {500, 1000, 2000, 4000, 8000};
    static const long default_s[] = {1, 16, 128};
    int count_gap = cli_list(argc, argv, "--gap", gaps, default_gap, 5);
    int count_s = cli_list(argc, argv, "--s", ss, default_s, 3);
    long n = cli_long(argc, argv, "--n", 2000);
    rng_t rng = {o.seed};
    bench_point pts[CLI_MAX_LIST];
    int count_pts = 0;
    for (int j = 0; j < count_s; j++) {
        for (int i = 0; i < count_gap; i++) {
            if (n < 1 || gaps[i] < 1 || ss[j] < 1 || ss[j] > 512) {
                fprintf(stderr, "need n >= 1, gap >= 1, 1 <= s <= 512\n");
                return 2;
            }
            if (count_pts == CLI_MAX_LIST) {
                fprintf(stderr, "at most %d points per series\n", CLI_MAX_LIST);
                return 2;
            }
            pts[count_pts++] = prepare(n, gaps[i], (int)ss[j], &rng);
        }
    }
    if (o.header)
        csv_print_header(stdout);
    return bench_series(pts, count_pts, &o) ? 0 : 1;
}
