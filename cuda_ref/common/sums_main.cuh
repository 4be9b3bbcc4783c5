/*
 * sums_main.cuh -- the driver shared by the three DMM/UMM case studies
 * (sum, prefix-naive, prefix-optimal): options, random input, timing, check
 * and CSV row.  Each program supplies its run function and its checker.
 *
 * Follows: dmm-umm-chapter (Nakano et al.) section 8: the algorithms run in
 * global memory, one kernel per synchronous step, on n 32-bit numbers.
 * Choice: the numbers are 32-bit unsigned words added modulo 2^32
 * (wrap-around), so results are exact and checkable; inputs are random
 * words.  Default sweep: n = 2^10, 2^12, ..., 2^24 with l = 256.
 */
#ifndef MCM_SUMS_MAIN_CUH
#define MCM_SUMS_MAIN_CUH

#include <stdio.h>
#include <string.h>

#include "cpu_ref.h"
#include "cuda_common.cuh"

typedef struct {
    long n;
    int l;
    const uint32_t *d_input;   /* never written */
    uint32_t *d_work0, *d_work1;
    const uint32_t *d_result;  /* set by the run: n words (1 for the sum) */
    uint32_t *x;               /* the input, on the host */
    const struct sums_program *prog;
} sums_ctx;

typedef struct sums_program {
    const char *case_name;
    void (*run)(void *ctx);
    int result_is_scan;        /* 1: n prefix sums, 0: a single sum */
} sums_program;

/* check the last run's result against the serial one, print the row */
static int sums_finish(void *p, const bench_result *res)
{
    sums_ctx *c = (sums_ctx *)p;
    const sums_program *prog = c->prog;
    const long n = c->n;
    uint32_t *want = host_alloc_u32((size_t)n), *got = host_alloc_u32((size_t)n);
    int ok;
    if (prog->result_is_scan) {
        to_host(got, c->d_result, (size_t)n);
        cpu_inclusive_scan_u32(c->x, want, (size_t)n);
        ok = same_words(prog->case_name, got, want, (size_t)n);
    } else {
        to_host(got, c->d_result, 1);
        want[0] = cpu_sum_u32(c->x, (size_t)n);
        ok = same_words(prog->case_name, got, want, 1);
    }

    char params[64];
    snprintf(params, sizeof params, "n=%ld;l=%d", n, c->l);
    report(prog->case_name, params, n, 0, c->l, 0, res, ok);
    CUDA_CHECK(cudaFree((void *)c->d_input));
    CUDA_CHECK(cudaFree(c->d_work0));
    CUDA_CHECK(cudaFree(c->d_work1));
    free(c->x);
    free(want);
    free(got);
    free(c);
    return ok;
}

/* a point of the series: random input on the device */
static bench_point sums_prepare(const sums_program *prog, long n, int l,
                                rng_t *rng)
{
    sums_ctx *c = (sums_ctx *)calloc(1, sizeof *c);
    c->x = host_alloc_u32((size_t)n);
    uint32_t *d_input = dev_alloc_u32((size_t)n);
    for (long i = 0; i < n; i++)
        c->x[i] = rng_u32(rng);
    c->n = n;
    c->l = l;
    c->prog = prog;
    c->d_work0 = dev_alloc_u32((size_t)n);
    c->d_work1 = dev_alloc_u32((size_t)n);
    to_device(d_input, c->x, (size_t)n);
    c->d_input = d_input;
    dev_poison(c->d_work0, (size_t)n);
    dev_poison(c->d_work1, (size_t)n);
    bench_point p = {{NULL, prog->run, c}, sums_finish};
    return p;
}

static int sums_main(const sums_program *prog, int argc, char **argv)
{
    static const char *const keys[] = {"--n", "--l", COMMON_KEYS, NULL};
    static const char *const flags[] = {COMMON_FLAGS, NULL};
    char usage[160];
    snprintf(usage, sizeof usage,
             "%s [--n LIST] [--l 256] [--runs R] [--warmup W] [--seed S] "
             "[--occupancy FILE] [--no-header]", prog->case_name);
    cli_require_known(argc, argv, keys, flags, usage);
    common_opts o = common_parse(argc, argv);
    long ns[CLI_MAX_LIST];
    static const long default_n[] = {1L << 10, 1L << 12, 1L << 14, 1L << 16,
                                     1L << 18, 1L << 20, 1L << 22, 1L << 24};
    int count = cli_list(argc, argv, "--n", ns, default_n, 8);
    int l = (int)cli_long(argc, argv, "--l", 256);
    if (log2_exact(l) < 0 || l > 1024) {
        fprintf(stderr, "--l must be a power of two <= 1024\n");
        return 2;
    }
    rng_t rng = {o.seed};
    bench_point pts[CLI_MAX_LIST];
    for (int i = 0; i < count; i++) {
        if (log2_exact(ns[i]) < 1 || ns[i] > (1L << 28)) {
            fprintf(stderr, "n must be a power of two in [2, 2^28]\n");
            return 2;
        }
    }
    for (int i = 0; i < count; i++) {
        pts[i] = sums_prepare(prog, ns[i], l, &rng);
    }
    if (o.header)
        csv_print_header(stdout);
    return bench_series(pts, count, &o) ? 0 : 1;
}

#endif /* MCM_SUMS_MAIN_CUH */
