/*
 * cuda_common.cuh -- what every CUDA program of cuda_ref/ shares on the host:
 * error checking, launch counting, device buffers and the timing loop.
 *
 * Owns:
 *  - CUDA_CHECK(call): prints file:line and the CUDA error string, exits 1.
 *  - LAUNCH(kernel, grid, block, shmem, args...): launches on g_stream,
 *    checks the launch and counts it in g_launches (the "launches" column
 *    of the CSV is g_launches after one run); with --occupancy FILE, the
 *    first launch of each (kernel, threads, shared bytes) also appends the
 *    resident blocks per SM that cudaOccupancyMaxActiveBlocksPerMultiprocessor
 *    gives for it.
 *  - the measurement protocol (bench_series(), below): a program prepares
 *    every point of its sweep, then all are timed together, round robin,
 *    then each is checked and printed.
 *  - the options every program takes: --runs --warmup --seed --no-header
 *    --occupancy.
 *
 * Each program is a single translation unit, so these are static inline.
 */
#ifndef MCM_CUDA_COMMON_CUH
#define MCM_CUDA_COMMON_CUH

#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
/* the stream every run is enqueued on (a blocking stream: it waits for the
 * legacy default stream, where inputs are copied, and the reverse) */
static cudaStream_t g_stream = 0;
/* --occupancy FILE, or NULL */
static FILE *g_occupancy = NULL;
static const char *g_program = "";

/* appends "program,kernel,threads,shared_bytes,blocks_per_sm" once per
 * distinct (kernel, threads, shared bytes) */
static inline void occupancy_note(const char *name, const void *func,
                                  int threads, size_t shmem)
{
    enum { MAX_SEEN = 512 };
    static struct { const void *func; int threads; size_t shmem; } seen[MAX_SEEN];
    static int n_seen = 0;
    for (int i = 0; i < n_seen; i++)
        if (seen[i].func == func && seen[i].threads == threads &&
            seen[i].shmem == shmem)
            return;
    if (n_seen == MAX_SEEN)
        return;
    seen[n_seen].func = func;
    seen[n_seen].threads = threads;
    seen[n_seen].shmem = shmem;
    n_seen++;
    int blocks = 0;
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, func,
                                                             threads, shmem));
    fprintf(g_occupancy, "%s,%s,%d,%zu,%d\n", g_program, name, threads, shmem,
            blocks);
    fflush(g_occupancy);
}

#define LAUNCH(kernel, grid, block, shmem, ...)                               \
    do {                                                                      \
        if (g_occupancy)                                                      \
            occupancy_note(#kernel, (const void *)kernel, (int)(block),       \
                           (size_t)(shmem));                                  \
        kernel<<<(grid), (block), (shmem), g_stream>>>(__VA_ARGS__);          \
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
    int runs;        /* timed runs of each kind per point (>= 1) */
    int warmup;      /* untimed runs of each point before the rounds */
    uint64_t seed;   /* random inputs */
    int header;      /* print the CSV header first */
} common_opts;

#define COMMON_RUNS 25  /* --runs' default: the sessions' timed runs of each kind */
#define COMMON_WARMUP 3 /* --warmup's default */

#define COMMON_KEYS "--runs", "--warmup", "--seed", "--occupancy"
#define COMMON_FLAGS "--no-header"

static inline common_opts common_parse(int argc, char **argv)
{
    common_opts o;
    o.runs = (int)cli_long(argc, argv, "--runs", COMMON_RUNS);
    o.warmup = (int)cli_long(argc, argv, "--warmup", COMMON_WARMUP);
    o.seed = (uint64_t)cli_long(argc, argv, "--seed",
                                (long)(time(NULL) ^ ((long)getpid() << 16)));
    o.header = !cli_flag(argc, argv, "--no-header");
    if (o.runs < 1 || o.warmup < 0) {
        fprintf(stderr, "--runs must be >= 1 and --warmup >= 0\n");
        exit(2);
    }
    const char *slash = strrchr(argv[0], '/');
    g_program = slash ? slash + 1 : argv[0];
    const char *occ = cli_value(argc, argv, "--occupancy");
    if (occ && !(g_occupancy = fopen(occ, "a"))) {
        fprintf(stderr, "--occupancy %s: cannot open for appending\n", occ);
        exit(2);
    }
    CUDA_CHECK(cudaStreamCreate(&g_stream));
    fprintf(stderr, "seed %llu\n", (unsigned long long)o.seed);
    return o;
}

/* ---- the measurement protocol --------------------------------------------
 *
 * 1. Warm the card: spin every SM until two consecutive clock readings
 *    agree within 1 % (at least BENCH_WARM_MIN_MS, at most BENCH_WARM_MAX_MS
 *    of wall time).  An idle H100 sits at 345 MHz and needs tens of
 *    milliseconds of work to reach its 1980 MHz boost clock.
 * 2. Every point of the series is prepared by its program beforehand
 *    (inputs on the device).  Each point then runs --warmup times untimed.
 * 3. Rounds, round robin over the points, --runs rounds: for each point,
 *    one untimed run (so that each timed run finds the L2 as a run of the
 *    same point left it, whatever point ran before), then one wall-timed
 *    run (two events around the host code that enqueues the run); then its
 *    kernel sequence is captured into a CUDA graph (stream capture of one
 *    run, after its reset; kernels only, so a replay is the same launches
 *    with the same arguments), replayed once untimed (the first launch of
 *    a graph uploads it: 2x slower seen on the H100), replayed once timed
 *    (two events around cudaGraphLaunch) and destroyed; then a clock
 *    probe.  Each run is preceded by the point's reset (untimed).
 *    Programs whose host decides the next launch from results would need
 *    the sequence of a first run recorded; none here does: Euclid and the
 *    division compute their whole launch schedule on the host beforehand.
 * Interleaving the points spreads any drift of the card (clock, heat, a
 * neighbour's load) over all points instead of biasing one.  One graph is
 * alive at a time: with every point's graph instantiated for the whole
 * series (the protocol of the sessions up to 2026-11-25d), a graph's
 * kernels cost more the more graphs were alive (on the H100, the sum of
 * 2^10 numbers, 10 kernels: 12.4-13.0 us alone or beside 3 other points,
 * 14.1 us beside 7 small ones, 16.1-18.0 us in its series of 8 points),
 * which the program alone does not pay.  With one graph alive it takes
 * 14.2 us in its series; the rest depends on the points run between two
 * rounds and was not decomposed (validate/notes/card-model.md).
 */

typedef struct {
    void (*reset)(void *ctx);  /* restore inputs; untimed; may be NULL */
    void (*run)(void *ctx);    /* enqueue one whole run on g_stream */
    void *ctx;
} bench_job;

typedef struct {
    timing_stats wall, graph;
    int runs;
    long launches;             /* kernel launches of one run */
    double clock_mhz;          /* median of the clock probes */
} bench_result;

/* A point of a series: its job, and what to do once it is timed (check the
 * result of the last run, print the CSV row, free everything); finish
 * returns 1 when the check passed. */
typedef struct {
    bench_job job;
    int (*finish)(void *ctx, const bench_result *r);
} bench_point;

#define BENCH_MAX_RUNS 1000
#define BENCH_WARM_MIN_MS 200.0
#define BENCH_WARM_MAX_MS 3000.0
#define BENCH_PROBE_CYCLES 40000LL

/* host wall clock in milliseconds */
static inline double wall_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

/* one thread per block spins `cycles` SM cycles; block 0 writes the clock
 * cycles and %globaltimer nanoseconds it saw */
__global__ void bench_spin_kernel(long long cycles, long long *out)
{
    long long t0, t1;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
    long long start = clock64(), now = start;
    while (now - start < cycles)
        now = clock64();
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t1));
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        out[0] = now - start;
        out[1] = t1 - t0;
    }
}

/* SM clock in MHz: `blocks` blocks spin `cycles`, block 0 reports */
static inline double bench_clock_mhz(long long cycles, int blocks,
                                     long long *d_probe)
{
    long long h[2];
    bench_spin_kernel<<<blocks, 1, 0, g_stream>>>(cycles, d_probe);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpyAsync(h, d_probe, sizeof h, cudaMemcpyDeviceToHost,
                               g_stream));
    CUDA_CHECK(cudaStreamSynchronize(g_stream));
    return h[1] > 0 ? (double)h[0] / (double)h[1] * 1e3 : 0.0;
}

/* step 1: spin every SM until the clock is stable; returns it */
static inline double bench_warm_card(long long *d_probe)
{
    int sms = 0;
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    double start = wall_ms(), prev = 0.0, mhz = 0.0;
    for (;;) {
        mhz = bench_clock_mhz(20000000LL, 4 * sms, d_probe); /* ~10 ms */
        double spent = wall_ms() - start;
        int stable = prev > 0 && mhz > 0 && fabs(mhz - prev) <= 0.01 * prev;
        if ((stable && spent >= BENCH_WARM_MIN_MS) || spent >= BENCH_WARM_MAX_MS)
            break;
        prev = mhz;
    }
    fprintf(stderr, "warm: SM clock %.0f MHz after %.0f ms\n", mhz,
            wall_ms() - start);
    return mhz;
}

/* elapsed milliseconds between two recorded events */
static inline double event_ms(cudaEvent_t a, cudaEvent_t b)
{
    float ms = 0.0f;
    CUDA_CHECK(cudaEventSynchronize(b));
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaEventElapsedTime(&ms, a, b));
    return ms;
}

static inline void bench_reset(const bench_job *job)
{
    if (job->reset)
        job->reset(job->ctx);
    CUDA_CHECK(cudaDeviceSynchronize());
}

/* one run of the host code between two events */
static inline double bench_wall(const bench_job *job, cudaEvent_t a,
                                cudaEvent_t b)
{
    bench_reset(job);
    g_launches = 0;
    CUDA_CHECK(cudaEventRecord(a, g_stream));
    job->run(job->ctx);
    CUDA_CHECK(cudaEventRecord(b, g_stream));
    return event_ms(a, b);
}

/* one replay of the point's graph between two events */
static inline double bench_graph(const bench_job *job, cudaGraphExec_t exec,
                                 cudaEvent_t a, cudaEvent_t b)
{
    bench_reset(job);
    CUDA_CHECK(cudaEventRecord(a, g_stream));
    CUDA_CHECK(cudaGraphLaunch(exec, g_stream));
    CUDA_CHECK(cudaEventRecord(b, g_stream));
    return event_ms(a, b);
}

/* step 3's capture: one run's kernels as an executable graph */
static inline cudaGraphExec_t bench_capture(const bench_job *job)
{
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    bench_reset(job);
    CUDA_CHECK(cudaStreamBeginCapture(g_stream, cudaStreamCaptureModeThreadLocal));
    job->run(job->ctx);
    CUDA_CHECK(cudaStreamEndCapture(g_stream, &graph));
    CUDA_CHECK(cudaGraphInstantiate(&exec, graph, 0));
    CUDA_CHECK(cudaGraphDestroy(graph));
    return exec;
}

/* Times every point (steps 1-3), then calls each point's finish in order.
 * Returns 1 when every check passed. */
static inline int bench_series(bench_point *pts, int count, const common_opts *o)
{
    int runs = o->runs < BENCH_MAX_RUNS ? o->runs : BENCH_MAX_RUNS;
    size_t per_point = (size_t)runs * sizeof(double);
    double *wall = (double *)malloc(per_point * count);
    double *graph = (double *)malloc(per_point * count);
    double *clock = (double *)malloc(per_point * count);
    long *launches = (long *)malloc(sizeof *launches * count);
    long long *d_probe;
    cudaEvent_t a, b;
    if (!wall || !graph || !clock || !launches) {
        fprintf(stderr, "out of host memory (%d points)\n", count);
        exit(1);
    }
    CUDA_CHECK(cudaMalloc(&d_probe, 2 * sizeof(long long)));
    CUDA_CHECK(cudaEventCreate(&a));
    CUDA_CHECK(cudaEventCreate(&b));

    bench_warm_card(d_probe);
    for (int p = 0; p < count; p++) {
        for (int r = 0; r < o->warmup; r++)
            bench_wall(&pts[p].job, a, b);
        launches[p] = g_launches;
    }
    for (int r = 0; r < runs; r++)
        for (int p = 0; p < count; p++) {
            bench_wall(&pts[p].job, a, b);                 /* untimed */
            wall[p * runs + r] = bench_wall(&pts[p].job, a, b);
            cudaGraphExec_t exec = bench_capture(&pts[p].job);
            bench_graph(&pts[p].job, exec, a, b);          /* the upload, untimed */
            graph[p * runs + r] = bench_graph(&pts[p].job, exec, a, b);
            CUDA_CHECK(cudaGraphExecDestroy(exec));
            clock[p * runs + r] = bench_clock_mhz(BENCH_PROBE_CYCLES, 1, d_probe);
        }
    /* the last timed run of every point was its graph replay, which left
     * the same result as a run of the host code: finish checks that */
    int all_ok = 1;
    for (int p = 0; p < count; p++) {
        bench_result res;
        res.wall = timing_stats_of(wall + p * runs, runs);
        res.graph = timing_stats_of(graph + p * runs, runs);
        res.clock_mhz = timing_stats_of(clock + p * runs, runs).median_ms;
        res.runs = runs;
        res.launches = launches[p];
        all_ok &= pts[p].finish(pts[p].job.ctx, &res);
    }
    CUDA_CHECK(cudaEventDestroy(a));
    CUDA_CHECK(cudaEventDestroy(b));
    CUDA_CHECK(cudaFree(d_probe));
    free(wall);
    free(graph);
    free(clock);
    free(launches);
    return all_ok;
}

/* print one CSV row from a bench result */
static inline void report(const char *case_name, const char *params, long n,
                          long m, long l, long s, const bench_result *b, int ok)
{
    csv_row row;
    row.case_name = case_name;
    row.params = params;
    row.n = n;
    row.m = m;
    row.l = l;
    row.s = s;
    row.wall = b->wall;
    row.graph = b->graph;
    row.runs = b->runs;
    row.clock_mhz = b->clock_mhz;
    row.launches = b->launches;
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
