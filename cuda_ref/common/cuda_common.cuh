/*
 * cuda_common.cuh -- what every CUDA program of cuda_ref/ shares on the host:
 * error checking, launch counting, device buffers and the timing loop.
 *
 * Owns:
 *  - CUDA_CHECK(call): prints file:line and the CUDA error string, exits 1.
 *  - LAUNCH(kernel, grid, block, shmem, args...): launches on the default
 *    stream, checks the launch and counts it in g_launches (the "launches"
 *    column of the CSV is g_launches after one run).
 *  - bench(): warm-up runs, then timed runs; each run is bracketed by two CUDA
 *    events around the whole host-side algorithm (all its launches, inputs
 *    already on the device); an optional reset callback restores the inputs
 *    before each run, outside the timed region.  Warm-up lasts at least
 *    --warmup runs and at least BENCH_WARMUP_MS of wall time: an idle card
 *    sits at a low clock (345 MHz seen on the H100) and needs tens of
 *    milliseconds of work to reach its boost clock; without this the first
 *    timed runs of sub-millisecond algorithms were several times slower.
 *  - the options every program takes: --runs --warmup --seed --no-header.
 *
 * Each program is a single translation unit, so these are static inline.
 */
#ifndef MCM_CUDA_COMMON_CUH
#define MCM_CUDA_COMMON_CUH

#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "csv.h"
#include "rng.h"

#define CUDA_CHECK(call)                                                      \
    do {                                                                      \
        cudaError_t err_ = (call);                                            \
        if (err_ != cudaSuccess) {                                            \
            fprintf(stderr, "%s:%d: CUDA error %s: %s\n", __FILE__, __LINE__,  \
                    cudaGetErrorName(err_), cudaGetErrorString(err_));        \
            exit(1);                                                          \
        }                                                                     \
    } while (0)

/* kernel launches since the last reset (one run of an algorithm) */
static long g_launches = 0;

#define LAUNCH(kernel, grid, block, shmem, ...)                               \
    do {                                                                      \
        kernel<<<(grid), (block), (shmem)>>>(__VA_ARGS__);                    \
        CUDA_CHECK(cudaGetLastError());                                       \
        g_launches++;                                                         \
    } while (0)

/* ceil(a / b) for positive integers */
static inline long ceil_div(long a, long b)
{
    return (a + b - 1) / b;
}

/* log2 of a power of two; -1 if x is not one */
static inline int log2_exact(long x)
{
    int k = 0;
    if (x <= 0)
        return -1;
    while ((1L << k) < x)
        k++;
    return (1L << k) == x ? k : -1;
}

/* ---- device buffers ---------------------------------------------------- */

static inline uint32_t *dev_alloc_u32(size_t count)
{
    void *p = NULL;
    CUDA_CHECK(cudaMalloc(&p, count * sizeof(uint32_t)));
    return (uint32_t *)p;
}

static inline uint32_t *host_alloc_u32(size_t count)
{
    uint32_t *p = (uint32_t *)malloc(count * sizeof(uint32_t));
    if (!p) {
        fprintf(stderr, "out of host memory (%zu words)\n", count);
        exit(1);
    }
    return p;
}

static inline void to_device(uint32_t *dst, const uint32_t *src, size_t count)
{
    CUDA_CHECK(cudaMemcpy(dst, src, count * sizeof(uint32_t),
                          cudaMemcpyHostToDevice));
}

static inline void to_host(uint32_t *dst, const uint32_t *src, size_t count)
{
    CUDA_CHECK(cudaMemcpy(dst, src, count * sizeof(uint32_t),
                          cudaMemcpyDeviceToHost));
}

static inline void dev_copy(uint32_t *dst, const uint32_t *src, size_t count)
{
    CUDA_CHECK(cudaMemcpy(dst, src, count * sizeof(uint32_t),
                          cudaMemcpyDeviceToDevice));
}

/* fill with 0xffffffff, a value no result in Z/pZ can take */
static inline void dev_poison(uint32_t *p, size_t count)
{
    CUDA_CHECK(cudaMemset(p, 0xff, count * sizeof(uint32_t)));
}

/* ---- common options ----------------------------------------------------- */

typedef struct {
    int runs;        /* timed runs (>= 20) */
    int warmup;      /* untimed runs first */
    uint64_t seed;   /* random inputs */
    int header;      /* print the CSV header first */
} common_opts;

#define COMMON_KEYS "--runs", "--warmup", "--seed"
#define COMMON_FLAGS "--no-header"

static inline common_opts common_parse(int argc, char **argv)
{
    common_opts o;
    o.runs = (int)cli_long(argc, argv, "--runs", 25);
    o.warmup = (int)cli_long(argc, argv, "--warmup", 3);
    o.seed = (uint64_t)cli_long(argc, argv, "--seed",
                                (long)(time(NULL) ^ ((long)getpid() << 16)));
    o.header = !cli_flag(argc, argv, "--no-header");
    if (o.runs < 1 || o.warmup < 0) {
        fprintf(stderr, "--runs must be >= 1 and --warmup >= 0\n");
        exit(2);
    }
    fprintf(stderr, "seed %llu\n", (unsigned long long)o.seed);
    return o;
}

/* ---- timing ------------------------------------------------------------- */

typedef struct {
    void (*reset)(void *ctx);  /* restore inputs; untimed; may be NULL */
    void (*run)(void *ctx);    /* enqueue one whole run on the default stream */
    void *ctx;
} bench_job;

typedef struct {
    timing_stats timing;
    int runs;
    long launches;             /* kernel launches of one run */
} bench_result;

#define BENCH_MAX_RUNS 1000
#define BENCH_WARMUP_MS 200.0

/* host wall clock in milliseconds */
static inline double wall_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

/* one run of job between two events; returns its elapsed milliseconds */
static inline double bench_one(bench_job job, cudaEvent_t start,
                               cudaEvent_t stop)
{
    float elapsed = 0.0f;
    if (job.reset)
        job.reset(job.ctx);
    CUDA_CHECK(cudaDeviceSynchronize());
    g_launches = 0;
    CUDA_CHECK(cudaEventRecord(start, 0));
    job.run(job.ctx);
    CUDA_CHECK(cudaEventRecord(stop, 0));
    CUDA_CHECK(cudaEventSynchronize(stop));
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaEventElapsedTime(&elapsed, start, stop));
    return elapsed;
}

static inline bench_result bench(bench_job job, int warmup, int runs)
{
    static double ms[BENCH_MAX_RUNS];
    bench_result res;
    cudaEvent_t start, stop;
    if (runs > BENCH_MAX_RUNS)
        runs = BENCH_MAX_RUNS;
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    double warm_start = wall_ms();
    for (int r = 0; r < warmup || wall_ms() - warm_start < BENCH_WARMUP_MS; r++)
        bench_one(job, start, stop);
    for (int r = 0; r < runs; r++)
        ms[r] = bench_one(job, start, stop);
    res.launches = g_launches;
    CUDA_CHECK(cudaEventDestroy(start));
    CUDA_CHECK(cudaEventDestroy(stop));
    res.timing = timing_stats_of(ms, runs);
    res.runs = runs;
    return res;
}

/* print one CSV row from a bench result */
static inline void report(const char *case_name, const char *params, long n,
                          long m, long l, long s, bench_result b, int ok)
{
    csv_row row;
    row.case_name = case_name;
    row.params = params;
    row.n = n;
    row.m = m;
    row.l = l;
    row.s = s;
    row.timing = b.timing;
    row.runs = b.runs;
    row.launches = b.launches;
    row.check_ok = ok;
    csv_print_row(stdout, &row);
}

/* compare two word arrays; prints the first mismatch to stderr */
static inline int same_words(const char *what, const uint32_t *got,
                             const uint32_t *want, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        if (got[i] != want[i]) {
            fprintf(stderr, "%s: mismatch at %zu: got %u, want %u\n", what, i,
                    got[i], want[i]);
            return 0;
        }
    }
    return 1;
}

#endif /* MCM_CUDA_COMMON_CUH */
