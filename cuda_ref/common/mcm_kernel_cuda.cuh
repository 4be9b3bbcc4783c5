/*
 * mcm_kernel_cuda.cuh -- sim/exec/mcm_kernel.h for nvcc: a kernel written once
 * (programs/user/NAME.c) built as a CUDA program that checks its result with
 * the file's own `check` and times itself with cuda_ref's protocol
 * (common/cuda_common.cuh, bench_series).  Included first, before the
 * user's file (it includes sim/exec/mcm_kernel.h itself): build with
 * nvcc -x cu -Isim/exec -Icuda_ref/common -include mcm_kernel_cuda.cuh
 * (cuda_ref/cuda.mk, cuda_ref/README.md "Your own kernel on the card").
 *
 * Owns: the same names as the C side of mcm_kernel.h, mapped to CUDA:
 *  - `word` (uint64_t); `gmem`, a small struct passed by value inside a
 *    kernel's args (device pointer to 32-bit cells, size, id: a word of
 *    memory is 32 bits, as in exec mode); `exec_thread` (tid, threads,
 *    bid, blocks, step, and the block's private memory = dynamic shared
 *    memory);
 *  - inside a step: exec_gread/gwrite (device memory), exec_pread/pwrite
 *    (shared memory), exec_ops (nothing), exec_zp_* (p = 469762049,
 *    bit-identical to sim/exec/exec.c's results for every input);
 *  - MCM_KERNEL: one __global__ function per kernel, its steps inlined in
 *    order with a __syncthreads() between each two; MCM_KERNEL_LOOP, its
 *    step in a loop; MCM_KERNEL_SCHEDULE, its schedule run by every
 *    thread, mcm_step inlining a step and the barrier after it;
 *  - the host side (mcm_param ... mcm_fail) and MCM_PROGRAM, whose main()
 *    is mcm_cuda_main below.
 *
 * The driver, for each point of the sweep (the cross product of every
 * `--key LIST` that is not a protocol option):
 *  1. setup (host mirrors of the arrays; each array has its device copy
 *     from mcm_alloc on) -> every array uploaded, and kept a second time
 *     on the device as the point's inputs;
 *  2. launches, called once: each mcm_launch checks its configuration and
 *     records the launch (kernel, grid, shared bytes, a copy of the args);
 *     then each further input the program checks (mcm_input: 1 .. k−1) is
 *     a point of its own for a moment: set up, launched, run once
 *     (untimed), checked and freed; the row's check needs every one ok;
 *  3. bench_series: a run of the point replays the recorded launches with
 *     cudaLaunchKernel on g_stream (what the wall time measures, and what
 *     the stream capture turns into the point's CUDA graph); every array is
 *     restored from the inputs before each run, outside the timed region;
 *  4. after the rounds: setup is called a second time for the point (a
 *     program keeps its arrays and its expected results in static
 *     variables, which the later points' setups overwrote), mcm_alloc
 *     giving back the point's arrays in the same order; the device arrays
 *     (the last run's results) are copied into the host mirrors; check.
 * So setup must depend on its params and mcm_seed only, and launches on
 * what setup left only (mcm_kernel.h asks both of every program).
 */
#ifndef MCM_KERNEL_CUDA_CUH
#define MCM_KERNEL_CUDA_CUH

#include "mcm_kernel.h" /* the header mapped: its version, prime, limits and MCM_STEP */

#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_common.cuh"

/* g++ -O3, behind nvcc, sees through the inlined host side a path on which
 * a program's long n (checked >= 1 in setup) is negative, and warns that
 * calloc((size_t)n, ...) is too large (programs/user/matvec.c); gcc on the
 * same file as C or C++ does not.  A false positive of the class that
 * -Walloc-size-larger-than= is known for: off for the user's file. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Walloc-size-larger-than="
#endif

typedef uint64_t word;

#define MCM_DEVICE __device__
#define MCM_UNUSED __attribute__((unused))
#define MCM_UNROLL _Pragma("unroll")

/* MCM_PRIME (sim/exec/mcm_kernel.h) is sim/exec/exec.c's prime */
#define MCM_BARRETT 39268272336ull   /* floor(2^64 / p) */

/* An array in global memory: passed by value inside a kernel's args.  Use
 * mcm_size(a), not its fields: on the C side gmem is a pointer. */
typedef struct gmem {
    uint32_t *cells; /* device memory: a cell is 32 bits, as in exec mode */
    long size;
    int id;      /* index in the driver's table of arrays (>= 1) */
} gmem;

/* One thread of one block, during one step. */
typedef struct exec_thread {
    int tid;      /* threadIdx.x */
    int threads;  /* blockDim.x: ℓ */
    long bid;     /* blockIdx.x */
    long blocks;  /* gridDim.x */
    int step;     /* the step being run, 0 .. K-1 */
    uint32_t *priv; /* the block's private memory: dynamic shared memory */
} exec_thread;

/* ---- inside a step ------------------------------------------------------- */

static __device__ __forceinline__ word exec_gread(exec_thread *t, gmem a, long i)
{
    (void)t;
    return (word)a.cells[i];
}

static __device__ __forceinline__ void exec_gwrite(exec_thread *t, gmem a, long i, word v)
{
    (void)t;
    a.cells[i] = (uint32_t)v; /* exec mode refuses a v of more than 32 bits */
}

static __device__ __forceinline__ word exec_pread(exec_thread *t, long i)
{
    return t->priv[i];
}

static __device__ __forceinline__ void exec_pwrite(exec_thread *t, long i, word v)
{
    t->priv[i] = (uint32_t)v;
}

/* counting only, in exec mode */
static __device__ __forceinline__ void exec_ops(exec_thread *t, long n)
{
    (void)t;
    (void)n;
}

/* Z/pZ: the fast path for a, b < p, in 32 bits (p < 2^29); any other
 * input is reduced the way sim/exec/exec.c's zp_* do it, by a call out of the
 * way (the slow path: exec mode's words, not a kernel's usual ones), so
 * both builds give the same words.  Every result is below p, and the
 * compiler is told so once both paths meet (MCM_BELOW_P_): an operation on
 * results, or on words read from memory (32 bits) for a multiplication,
 * checks nothing and stays in 32 bits, as a hand-written kernel's would. */
#define MCM_BELOW_P_(r) __builtin_assume((r) < (uint32_t)MCM_PRIME)

static __device__ __noinline__ uint32_t mcm_zp_add_slow_(word a, word b)
{
    return (uint32_t)((a + b) % MCM_PRIME);
}

static __device__ __noinline__ uint32_t mcm_zp_sub_slow_(word a, word b)
{
    return (uint32_t)((a + MCM_PRIME - b) % MCM_PRIME);
}

static __device__ __forceinline__ word exec_zp_add(exec_thread *t, word a, word b)
{
    (void)t;
    uint32_t c;
    if (__builtin_expect(a >= MCM_PRIME || b >= MCM_PRIME, 0)) {
        c = mcm_zp_add_slow_(a, b);
    } else {
        c = (uint32_t)a + (uint32_t)b; /* < 2p */
        c = c >= (uint32_t)MCM_PRIME ? c - (uint32_t)MCM_PRIME : c;
    }
    MCM_BELOW_P_(c);
    return c;
}

static __device__ __forceinline__ word exec_zp_sub(exec_thread *t, word a, word b)
{
    (void)t;
    uint32_t c;
    if (__builtin_expect(a >= MCM_PRIME || b >= MCM_PRIME, 0)) {
        c = mcm_zp_sub_slow_(a, b);
    } else {
        uint32_t x = (uint32_t)a, y = (uint32_t)b;
        c = x >= y ? x - y : x + (uint32_t)MCM_PRIME - y;
    }
    MCM_BELOW_P_(c);
    return c;
}

/* Barrett: for any x < 2^64, q = ⌊x·⌊2^64/p⌋/2^64⌋ is ⌊x/p⌋ or one less,
 * so factors of up to 32 bits need no reduction first; wider ones are
 * reduced by a call out of the way. */
static __device__ __noinline__ word mcm_zp_reduce_slow_(word a)
{
    return a % MCM_PRIME;
}

static __device__ __forceinline__ word exec_zp_mul(exec_thread *t, word a, word b)
{
    (void)t;
    if (__builtin_expect((a | b) >> 32 != 0, 0)) {
        a = mcm_zp_reduce_slow_(a);
        b = mcm_zp_reduce_slow_(b);
    }
    word x = (word)(uint32_t)a * (uint32_t)b; /* both < 2^32: one 32 x 32 -> 64-bit product */
    word q = __umul64hi(x, MCM_BARRETT);      /* floor(x/p) or one less */
    uint32_t r = (uint32_t)(x - q * MCM_PRIME); /* < 2p */
    r = r >= (uint32_t)MCM_PRIME ? r - (uint32_t)MCM_PRIME : r;
    MCM_BELOW_P_(r);
    return r;
}

/* square and multiply, as exec_zp_pow */
static __device__ __forceinline__ word exec_zp_pow(exec_thread *t, word a, uint64_t e)
{
    word x = 1;
    if (__builtin_expect(a >= MCM_PRIME, 0))
        a = mcm_zp_reduce_slow_(a);
    for (; e; e >>= 1) {
        if (e & 1)
            x = exec_zp_mul(t, x, a);
        if (e > 1)
            a = exec_zp_mul(t, a, a);
    }
    return x;
}

static __device__ __forceinline__ word exec_zp_inv(exec_thread *t, word a)
{
    return exec_zp_pow(t, a, MCM_PRIME - 2);
}

/* ---- the host side's Z/pZ (sim/exec/exec.h): serial references in check ------ */

static inline word zp_add(uint64_t p, word a, word b) { return (a + b) % p; }
static inline word zp_sub(uint64_t p, word a, word b) { return (a + p - b) % p; }
static inline word zp_mul(uint64_t p, word a, word b)
{
    return (word)(((unsigned __int128)a * b) % p);
}
static inline word zp_pow(uint64_t p, word a, uint64_t e)
{
    word x = 1;
    for (a %= p; e; e >>= 1, a = zp_mul(p, a, a))
        if (e & 1)
            x = zp_mul(p, x, a);
    return x;
}

/* ---- kernels ------------------------------------------------------------- */

/* the private memory of every kernel: mcm_launch's private_words 32-bit words */
extern __shared__ uint32_t mcm_private_[];

typedef struct mcm_kernel {
    const char *name;
    int n_steps;        /* its steps; 0: looped (MCM_KERNEL_LOOP), as many as the launch says;
                         * MCM_SCHEDULED: as many as its schedule lists */
    const void *func;   /* the __global__ function */
    size_t args_size;   /* sizeof the args type */
} mcm_kernel;

#define MCM_CAT_(a, b) MCM_CAT2_(a, b)
#define MCM_CAT2_(a, b) a##b
#define MCM_NARGS_(...) MCM_NARGS2_(__VA_ARGS__, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)
#define MCM_NARGS2_(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, n, ...) n

/* the exec_thread of this CUDA thread, at step 0 */
#define MCM_THIS_THREAD_(t_)               \
    exec_thread t_;                        \
    t_.tid = (int)threadIdx.x;             \
    t_.threads = (int)blockDim.x;          \
    t_.bid = (long)blockIdx.x;             \
    t_.blocks = (long)gridDim.x;           \
    t_.step = 0;                           \
    t_.priv = mcm_private_

/* step k (k >= 1) after the barrier that ends step k-1 */
#define MCM_NEXT_(k, s) __syncthreads(); t_.step = k; s(&t_, &args_);
#define MCM_STEPS_1(a) a(&t_, &args_);
#define MCM_STEPS_2(a, b) MCM_STEPS_1(a) MCM_NEXT_(1, b)
#define MCM_STEPS_3(a, b, c) MCM_STEPS_2(a, b) MCM_NEXT_(2, c)
#define MCM_STEPS_4(a, b, c, d) MCM_STEPS_3(a, b, c) MCM_NEXT_(3, d)
#define MCM_STEPS_5(a, b, c, d, e) MCM_STEPS_4(a, b, c, d) MCM_NEXT_(4, e)
#define MCM_STEPS_6(a, b, c, d, e, f) MCM_STEPS_5(a, b, c, d, e) MCM_NEXT_(5, f)
#define MCM_STEPS_7(a, b, c, d, e, f, g) MCM_STEPS_6(a, b, c, d, e, f) MCM_NEXT_(6, g)
#define MCM_STEPS_8(a, b, c, d, e, f, g, h) MCM_STEPS_7(a, b, c, d, e, f, g) MCM_NEXT_(7, h)
#define MCM_STEPS_9(a, b, c, d, e, f, g, h, i) MCM_STEPS_8(a, b, c, d, e, f, g, h) MCM_NEXT_(8, i)
#define MCM_STEPS_10(a, b, c, d, e, f, g, h, i, j) \
    MCM_STEPS_9(a, b, c, d, e, f, g, h, i) MCM_NEXT_(9, j)
#define MCM_STEPS_11(a, b, c, d, e, f, g, h, i, j, k) \
    MCM_STEPS_10(a, b, c, d, e, f, g, h, i, j) MCM_NEXT_(10, k)
#define MCM_STEPS_12(a, b, c, d, e, f, g, h, i, j, k, l) \
    MCM_STEPS_11(a, b, c, d, e, f, g, h, i, j, k) MCM_NEXT_(11, l)
#define MCM_STEPS_13(a, b, c, d, e, f, g, h, i, j, k, l, m) \
    MCM_STEPS_12(a, b, c, d, e, f, g, h, i, j, k, l) MCM_NEXT_(12, m)
#define MCM_STEPS_14(a, b, c, d, e, f, g, h, i, j, k, l, m, n) \
    MCM_STEPS_13(a, b, c, d, e, f, g, h, i, j, k, l, m) MCM_NEXT_(13, n)
#define MCM_STEPS_15(a, b, c, d, e, f, g, h, i, j, k, l, m, n, o) \
    MCM_STEPS_14(a, b, c, d, e, f, g, h, i, j, k, l, m, n) MCM_NEXT_(14, o)
#define MCM_STEPS_16(a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p) \
    MCM_STEPS_15(a, b, c, d, e, f, g, h, i, j, k, l, m, n, o) MCM_NEXT_(15, p)

/* One __global__ function of one parameter, the args (by value): every
 * thread runs every step (a step's `return` ends that thread's step only),
 * with a barrier between each two steps.  1 to 16 steps. */
#define MCM_KERNEL(name_, args_type_, ...)                                        \
    static __global__ void name_##_mcm_global_(args_type_ args_)                  \
    {                                                                             \
        MCM_THIS_THREAD_(t_);                                                     \
        MCM_CAT_(MCM_STEPS_, MCM_NARGS_(__VA_ARGS__))(__VA_ARGS__)                \
    }                                                                             \
    static const mcm_kernel name_ = {#name_, MCM_NARGS_(__VA_ARGS__),             \
                                     (const void *)name_##_mcm_global_, sizeof(args_type_)}

/* A looped kernel: a __global__ function of two parameters, the args and
 * the number of steps, running its one step that many times with a
 * barrier between each two.  Step 0 is inlined apart (steps_ >= 1), so
 * that both copies of the step know more of t->step: the loop's, >= 1. */
#define MCM_KERNEL_LOOP(name_, args_type_, step_)                                 \
    static __global__ void name_##_mcm_global_(args_type_ args_, int steps_)      \
    {                                                                             \
        MCM_THIS_THREAD_(t_);                                                     \
        step_(&t_, &args_);                                                       \
        for (t_.step = 1; t_.step < steps_; t_.step++) {                          \
            __syncthreads();                                                      \
            step_(&t_, &args_);                                                   \
        }                                                                         \
    }                                                                             \
    static const mcm_kernel name_ = {#name_, 0, (const void *)name_##_mcm_global_, \
                                     sizeof(args_type_)}

/* A scheduled kernel (MCM_KERNEL_SCHEDULE): a __global__ function of one
 * parameter, the args, whose every thread runs the schedule, the block's
 * control flow, with the steps inlined where mcm_step names them and a
 * barrier after each: the loops of a hand-written kernel, barriers inside. */
#define MCM_SCHEDULED (-1)

typedef struct mcm_schedule {
    int threads;    /* ℓ */
    long blocks;
    exec_thread *t; /* this thread */
    void *args;
} mcm_schedule;

#define MCM_KERNEL_SCHEDULE(name_, args_type_, a_, s_)                                                 \
    static __device__ void name_##_schedule_(mcm_schedule *s_ MCM_UNUSED, const args_type_ *a_ MCM_UNUSED); \
    static __global__ void name_##_mcm_global_(args_type_ args_)                                       \
    {                                                                                                  \
        MCM_THIS_THREAD_(t_);                                                                          \
        mcm_schedule schedule_ = {t_.threads, t_.blocks, &t_, &args_};                                 \
        name_##_schedule_(&schedule_, &args_);                                                         \
    }                                                                                                  \
    static const mcm_kernel name_ = {#name_, MCM_SCHEDULED, (const void *)name_##_mcm_global_,        \
                                     sizeof(args_type_)};                                              \
    static __device__ void name_##_schedule_(mcm_schedule *s_ MCM_UNUSED, const args_type_ *a_ MCM_UNUSED)

/* In a schedule: run `step` with t->step = k, then the barrier. */
#define mcm_step(s_, step_, k_)                 \
    do {                                        \
        (s_)->t->step = (k_);                   \
        step_((s_)->t, (s_)->args);             \
        __syncthreads();                        \
    } while (0)

/* ---- the driver's state ---------------------------------------------------- */

enum { MCM_PHASE_NONE, MCM_PHASE_SETUP, MCM_PHASE_LAUNCHES, MCM_PHASE_CHECK };

static inline const char *mcm_phase_name(int phase)
{
    switch (phase) {
    case MCM_PHASE_SETUP: return "setup";
    case MCM_PHASE_LAUNCHES: return "launches";
    case MCM_PHASE_CHECK: return "check";
    default: return "no phase (the driver's own code)";
    }
}

/* The CSV's case is the program's name after this prefix: "user-" for a
 * user's file, "" for a case study of programs/CASE/ (cuda_ref/cuda.mk). */
#ifndef MCM_CASE_PREFIX
#define MCM_CASE_PREFIX "user-"
#endif

#define MCM_MAX_PARAMS 32
#define MCM_NAME_MAX 64
#define MCM_MAX_POINTS 4096

typedef struct exec_run exec_run;

/* the point's params: what setup receives */
typedef struct mcm_params {
    exec_run *run;
} mcm_params;

typedef struct mcm_param_entry {
    char name[MCM_NAME_MAX];
    double value;
    int given;   /* on the command line */
    int asked;   /* 0, or 1 + the rank of setup's first mcm_param for it */
} mcm_param_entry;

typedef struct mcm_launch_rec {
    const mcm_kernel *k;
    unsigned blocks;
    int threads;
    int steps;   /* a looped kernel's steps (its second parameter) */
    size_t shmem;
    void *args;  /* a copy of the args, k->args_size bytes */
} mcm_launch_rec;

typedef struct mcm_program_entry {
    int api_version;
    const char *name;
    int (*setup)(exec_run *run, const mcm_params *p);
    int (*launches)(exec_run *run);
    int (*check)(exec_run *run);
} mcm_program_entry;

/* One point of the sweep. */
struct exec_run {
    const mcm_program_entry *prog;
    int phase;                        /* MCM_PHASE_*: which phase runs */
    mcm_params params;
    mcm_param_entry param[MCM_MAX_PARAMS];
    int n_params, n_asked;
    uint64_t seed;
    int *arrays;                      /* ids, in mcm_alloc order */
    int n_arrays, arrays_cap;
    int replaying;                    /* setup's second call (step 4) */
    int replay_next;
    mcm_launch_rec *launch;
    int n_launches, launches_cap;
    char *params_text;                /* k=v;k=v */
    long n, m, l, s;
    int input, inputs;                /* mcm_input: which input setup makes, of how many (0: not said) */
    int inputs_ok;                    /* inputs 1 .. inputs-1 checked ok (step 2) */
};

typedef struct mcm_array {
    char name[32];
    long size;
    uint32_t *host;      /* the mirror: setup writes it, check reads it */
    uint32_t *dev;       /* what the kernels use */
    uint32_t *dev_input; /* the array as setup left it: restored before each run */
    exec_run *run;
} mcm_array;

static mcm_array *g_mcm_arrays = NULL;  /* [0] unused: a zeroed gmem is no array */
static int g_mcm_n_arrays = 0, g_mcm_arrays_cap = 0;
static char g_mcm_case[96] = "user";
static exec_run *g_mcm_current = NULL;  /* the point whose phase runs (messages) */

static inline void mcm_die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static inline void mcm_die(const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "%s: ", g_mcm_case);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(1);
}

static inline void *mcm_xalloc(size_t bytes)
{
    void *p = calloc(1, bytes ? bytes : 1);
    if (!p)
        mcm_die("out of host memory (%zu bytes)", bytes);
    return p;
}

static inline void *mcm_xrealloc(void *p, size_t bytes)
{
    p = realloc(p, bytes ? bytes : 1);
    if (!p)
        mcm_die("out of host memory (%zu bytes)", bytes);
    return p;
}

/* ---- host side: the functions a program's phases call ------------------- */

static inline int mcm_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static inline int mcm_fail(const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "%s", g_mcm_case);
    if (g_mcm_current && g_mcm_current->params_text)
        fprintf(stderr, " (%s)", g_mcm_current->params_text);
    fprintf(stderr, ": ");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return -1;
}

static inline double mcm_param(const mcm_params *p, const char *name, double fallback)
{
    exec_run *r = p->run;
    if (strlen(name) >= MCM_NAME_MAX)
        mcm_die("mcm_param: the name '%s' is longer than %d characters", name, MCM_NAME_MAX - 1);
    for (int i = 0; i < r->n_params; i++)
        if (strcmp(r->param[i].name, name) == 0) {
            if (!r->param[i].asked)
                r->param[i].asked = ++r->n_asked;
            return r->param[i].value;
        }
    if (r->n_params == MCM_MAX_PARAMS)
        mcm_die("mcm_param: more than %d params", MCM_MAX_PARAMS);
    mcm_param_entry *e = &r->param[r->n_params++];
    snprintf(e->name, sizeof e->name, "%s", name);
    e->value = fallback;
    e->given = 0;
    e->asked = ++r->n_asked;
    return fallback;
}

static inline int mcm_input(const mcm_params *p, int inputs)
{
    exec_run *r = p->run;
    if (r->phase != MCM_PHASE_SETUP)
        mcm_die("mcm_input called in %s: setup says how many inputs it checks", mcm_phase_name(r->phase));
    if (inputs < 1 || inputs > MCM_INPUTS_MAX)
        mcm_die("mcm_input(p, %d): a program checks 1 to %d inputs", inputs, MCM_INPUTS_MAX);
    if (r->inputs && r->inputs != inputs)
        mcm_die("mcm_input: setup said %d inputs, then %d: the count may depend on the params only", r->inputs,
                inputs);
    r->inputs = inputs;
    return r->input;
}

/* --seed S (or the clock's), the same for every point: with the same seed
 * as the machine's `seed`, the card sees the inputs exec mode saw */
static inline uint64_t mcm_seed(const mcm_params *p)
{
    return p->run->seed;
}

static inline mcm_array *mcm_array_of(gmem a, const char *fn)
{
    if (a.id < 1 || a.id > g_mcm_n_arrays || g_mcm_arrays[a.id].dev != a.cells)
        mcm_die("%s: the gmem was not made by mcm_alloc", fn);
    return &g_mcm_arrays[a.id];
}

static inline gmem mcm_alloc(exec_run *run, const char *name, long size)
{
    if (run->phase != MCM_PHASE_SETUP)
        mcm_die("mcm_alloc(\"%s\") called in %s: arrays are allocated in setup only", name,
                mcm_phase_name(run->phase));
    if (size < 0)
        mcm_die("mcm_alloc(\"%s\", %ld): a size is >= 0", name, size);
    gmem g;
    if (run->replaying) { /* setup's second call: the same arrays, in order */
        const mcm_array *a = run->replay_next < run->n_arrays
                                 ? &g_mcm_arrays[run->arrays[run->replay_next]]
                                 : NULL;
        if (!a || strncmp(a->name, name, sizeof a->name - 1) != 0 || a->size != size)
            mcm_die("setup allocated other arrays when called again for the check (array %d: "
                    "\"%s\" of %ld words): setup must depend on its params and mcm_seed only",
                    run->replay_next, name, size);
        g.cells = a->dev;
        g.size = a->size;
        g.id = run->arrays[run->replay_next++];
        memset(a->host, 0, (size_t)(size > 0 ? size : 1) * sizeof(uint32_t));
        return g;
    }
    if (g_mcm_n_arrays + 2 > g_mcm_arrays_cap) {
        g_mcm_arrays_cap = g_mcm_arrays_cap ? 2 * g_mcm_arrays_cap : 16;
        g_mcm_arrays = (mcm_array *)mcm_xrealloc(g_mcm_arrays, sizeof(mcm_array) * (size_t)g_mcm_arrays_cap);
    }
    int id = ++g_mcm_n_arrays;
    mcm_array *a = &g_mcm_arrays[id];
    memset(a, 0, sizeof *a);
    snprintf(a->name, sizeof a->name, "%s", name);
    a->size = size;
    a->run = run;
    a->host = (uint32_t *)mcm_xalloc((size_t)size * sizeof(uint32_t));
    CUDA_CHECK(cudaMalloc(&a->dev, (size_t)(size > 0 ? size : 1) * sizeof(uint32_t)));
    if (run->n_arrays == run->arrays_cap) {
        run->arrays_cap = run->arrays_cap ? 2 * run->arrays_cap : 8;
        run->arrays = (int *)mcm_xrealloc(run->arrays, sizeof(int) * (size_t)run->arrays_cap);
    }
    run->arrays[run->n_arrays++] = id;
    g.cells = a->dev;
    g.size = size;
    g.id = id;
    return g;
}

static inline long mcm_size(gmem a)
{
    return a.size;
}

static inline void mcm_set(gmem a, long i, word v)
{
    mcm_array *arr = mcm_array_of(a, "mcm_set");
    if (arr->run->phase != MCM_PHASE_SETUP)
        mcm_die("mcm_set(%s, %ld) called in %s: mcm_set is allowed in setup only", arr->name, i,
                mcm_phase_name(arr->run->phase));
    if (i < 0 || i >= arr->size)
        mcm_die("mcm_set(%s, %ld): outside its %ld cells", arr->name, i, arr->size);
    if (v > UINT32_MAX)
        mcm_die("mcm_set(%s, %ld) to %llu: a word of memory is 32 bits on the card", arr->name, i,
                (unsigned long long)v);
    arr->host[i] = (uint32_t)v;
}

static inline word mcm_get(gmem a, long i)
{
    mcm_array *arr = mcm_array_of(a, "mcm_get");
    if (arr->run->phase != MCM_PHASE_CHECK)
        mcm_die("mcm_get(%s, %ld) called in %s: mcm_get is allowed in check only", arr->name, i,
                mcm_phase_name(arr->run->phase));
    if (i < 0 || i >= arr->size)
        mcm_die("mcm_get(%s, %ld): outside its %ld cells", arr->name, i, arr->size);
    return (word)arr->host[i];
}

/* Checks the launch and records it (the driver replays it, step 3);
 * `steps`: a looped kernel's, else 0. */
static inline int mcm_record_launch(exec_run *run, const mcm_kernel *k, int steps, long blocks, int threads,
                                    long private_words, void *args)
{
    if (run->phase != MCM_PHASE_LAUNCHES)
        mcm_die("mcm_launch(%s) called in %s: kernels are launched in launches only", k->name,
                mcm_phase_name(run->phase));
    if (blocks < 1 || threads < 1)
        return mcm_fail("kernel '%s': a launch needs at least 1 block of 1 thread (got %ld of %d)",
                        k->name, blocks, threads);
    if (blocks > INT_MAX)
        return mcm_fail("kernel '%s': %ld blocks, more than a CUDA grid's %d", k->name, blocks, INT_MAX);
    cudaFuncAttributes attr;
    CUDA_CHECK(cudaFuncGetAttributes(&attr, k->func));
    if (threads > attr.maxThreadsPerBlock)
        return mcm_fail("kernel '%s': %d threads per block, but the card runs it with at most %d "
                        "(%d registers per thread)",
                        k->name, threads, attr.maxThreadsPerBlock, attr.numRegs);
    int optin = 0;
    CUDA_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0));
    if (private_words < 0 ||
        (double)private_words * sizeof(uint32_t) + attr.sharedSizeBytes > (double)optin)
        return mcm_fail("kernel '%s': %ld words of private memory (%ld bytes of shared memory), the "
                        "card gives a block at most %d bytes",
                        k->name, private_words, private_words * (long)sizeof(uint32_t), optin);
    size_t shmem = (size_t)private_words * sizeof(uint32_t);
    if (shmem > (size_t)attr.maxDynamicSharedSizeBytes)
        CUDA_CHECK(cudaFuncSetAttribute(k->func, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                        (int)shmem));
    if (g_occupancy)
        occupancy_note(k->name, k->func, threads, shmem);
    if (run->n_launches == run->launches_cap) {
        run->launches_cap = run->launches_cap ? 2 * run->launches_cap : 64;
        run->launch = (mcm_launch_rec *)mcm_xrealloc(run->launch,
                                                     sizeof(mcm_launch_rec) * (size_t)run->launches_cap);
    }
    mcm_launch_rec *rec = &run->launch[run->n_launches++];
    rec->k = k;
    rec->blocks = (unsigned)blocks;
    rec->threads = threads;
    rec->steps = steps;
    rec->shmem = shmem;
    rec->args = mcm_xalloc(k->args_size);
    memcpy(rec->args, args, k->args_size);
    return 0;
}

static inline int mcm_launch(exec_run *run, const mcm_kernel *k, long blocks, int threads, long private_words,
                             void *args)
{
    if (k->n_steps == 0)
        return mcm_fail("mcm_launch of kernel '%s': a kernel of MCM_KERNEL_LOOP is launched with "
                        "mcm_launch_steps, which says how many times its step runs", k->name);
    return mcm_record_launch(run, k, 0, blocks, threads, private_words, args);
}

static inline int mcm_launch_steps(exec_run *run, const mcm_kernel *k, int steps, long blocks, int threads,
                                   long private_words, void *args)
{
    if (k->n_steps != 0)
        return mcm_fail("mcm_launch_steps of kernel '%s': its steps are its %s (launch it with "
                        "mcm_launch); mcm_launch_steps is for a kernel of MCM_KERNEL_LOOP", k->name,
                        k->n_steps == MCM_SCHEDULED ? "MCM_KERNEL_SCHEDULE's schedule" : "MCM_KERNEL list");
    if (steps < 1 || steps > MCM_STEPS_MAX)
        return mcm_fail("mcm_launch_steps of kernel '%s': %d steps, outside 1 .. %d", k->name, steps,
                        MCM_STEPS_MAX);
    return mcm_record_launch(run, k, steps, blocks, threads, private_words, args);
}

/* ---- the driver ------------------------------------------------------------ */

/* bench_job.run: one run of the point, enqueued on g_stream */
static inline void mcm_replay(void *ctx)
{
    exec_run *r = (exec_run *)ctx;
    for (int i = 0; i < r->n_launches; i++) {
        mcm_launch_rec *rec = &r->launch[i];
        void *argv_[2] = {rec->args, &rec->steps}; /* a looped kernel's two parameters */
        CUDA_CHECK(cudaLaunchKernel(rec->k->func, dim3(rec->blocks), dim3((unsigned)rec->threads),
                                    argv_, rec->shmem, g_stream));
        g_launches++;
    }
}

/* bench_job.reset: every array as setup left it */
static inline void mcm_restore(void *ctx)
{
    exec_run *r = (exec_run *)ctx;
    for (int i = 0; i < r->n_arrays; i++) {
        const mcm_array *a = &g_mcm_arrays[r->arrays[i]];
        if (a->size > 0)
            CUDA_CHECK(cudaMemcpyAsync(a->dev, a->dev_input, (size_t)a->size * sizeof(uint32_t),
                                       cudaMemcpyDeviceToDevice, g_stream));
    }
}

static inline void mcm_call_setup(exec_run *r)
{
    g_mcm_current = r;
    r->phase = MCM_PHASE_SETUP;
    r->replay_next = 0;
    int rc = r->prog->setup(r, &r->params);
    r->phase = MCM_PHASE_NONE;
    if (rc < 0)
        mcm_die("setup failed%s%s", r->params_text ? " at " : "", r->params_text ? r->params_text : "");
    if (r->replaying && r->replay_next != r->n_arrays)
        mcm_die("setup allocated %d arrays when called again for the check, %d the first time: "
                "setup must depend on its params and mcm_seed only",
                r->replay_next, r->n_arrays);
}

/* k=v;k=v: the params setup asked for, in that order (with the values used,
 * fallbacks included), then those given but never asked for */
static inline void mcm_params_text(exec_run *r)
{
    size_t cap = 64, len = 0;
    char *text = (char *)mcm_xalloc(cap);
    for (int pass = 0; pass < 2; pass++) {
        for (int rank = 1; rank <= (pass == 0 ? r->n_asked : r->n_params); rank++) {
            const mcm_param_entry *e = NULL;
            if (pass == 0) {
                for (int i = 0; i < r->n_params; i++)
                    if (r->param[i].asked == rank)
                        e = &r->param[i];
            } else if (!r->param[rank - 1].asked) {
                e = &r->param[rank - 1];
            }
            if (!e)
                continue;
            char one[MCM_NAME_MAX + 40];
            int w = snprintf(one, sizeof one, "%s%s=%.15g", len ? ";" : "", e->name, e->value);
            while (len + (size_t)w + 1 > cap)
                cap *= 2;
            text = (char *)mcm_xrealloc(text, cap);
            memcpy(text + len, one, (size_t)w + 1);
            len += (size_t)w;
            if (!strcmp(e->name, "n"))
                r->n = (long)e->value;
            else if (!strcmp(e->name, "m"))
                r->m = (long)e->value;
            else if (!strcmp(e->name, "l"))
                r->l = (long)e->value;
            else if (!strcmp(e->name, "s"))
                r->s = (long)e->value;
        }
    }
    r->params_text = text;
}

/* steps 1 and 2 for one point */
static inline void mcm_prepare(exec_run *r, int warn_unasked)
{
    mcm_call_setup(r);
    mcm_params_text(r);
    for (int i = 0; i < r->n_params; i++)
        if (warn_unasked && r->param[i].given && !r->param[i].asked)
            fprintf(stderr, "%s: warning: --%s is given but setup never asks for it (mcm_param)\n",
                    g_mcm_case, r->param[i].name);
    for (int i = 0; i < r->n_arrays; i++) {
        mcm_array *a = &g_mcm_arrays[r->arrays[i]];
        size_t bytes = (size_t)(a->size > 0 ? a->size : 1) * sizeof(uint32_t);
        CUDA_CHECK(cudaMalloc(&a->dev_input, bytes));
        if (a->size > 0) {
            CUDA_CHECK(cudaMemcpy(a->dev_input, a->host, (size_t)a->size * sizeof(uint32_t),
                                  cudaMemcpyHostToDevice));
            CUDA_CHECK(cudaMemcpy(a->dev, a->dev_input, (size_t)a->size * sizeof(uint32_t),
                                  cudaMemcpyDeviceToDevice));
        }
    }
    r->phase = MCM_PHASE_LAUNCHES;
    int rc = r->prog->launches(r);
    r->phase = MCM_PHASE_NONE;
    if (rc < 0)
        mcm_die("launches failed (%s)", r->params_text);
    if (r->n_launches == 0)
        mcm_die("launches launched no kernel (%s)", r->params_text);
}

/* The device arrays into the host mirrors, then check: 1 if it passed. */
static inline int mcm_check_results(exec_run *r)
{
    for (int i = 0; i < r->n_arrays; i++) {
        const mcm_array *a = &g_mcm_arrays[r->arrays[i]];
        if (a->size > 0)
            CUDA_CHECK(cudaMemcpy(a->host, a->dev, (size_t)a->size * sizeof(uint32_t),
                                  cudaMemcpyDeviceToHost));
    }
    r->phase = MCM_PHASE_CHECK;
    int ok = r->prog->check(r) == 0;
    r->phase = MCM_PHASE_NONE;
    return ok;
}

static inline void mcm_free_point(exec_run *r);

/* Input `input` >= 1 of point r (mcm_input), after r's steps 1 and 2: set
 * up, launched and run once (untimed), checked, freed.  1 if it passed. */
static inline int mcm_check_input(const exec_run *r, int input)
{
    exec_run *more = (exec_run *)mcm_xalloc(sizeof *more);
    more->prog = r->prog;
    more->params.run = more;
    more->seed = r->seed;
    more->input = input;
    for (int i = 0; i < r->n_params; i++)
        if (r->param[i].given) {
            more->param[more->n_params] = r->param[i];
            more->param[more->n_params++].asked = 0;
        }
    mcm_prepare(more, 0);
    if (more->inputs != r->inputs)
        mcm_die("mcm_input: setup said %d inputs for input 0 and %d for input %d (%s): the count may depend on "
                "the params only", r->inputs, more->inputs, input, r->params_text);
    mcm_restore(more);
    mcm_replay(more);
    CUDA_CHECK(cudaStreamSynchronize(g_stream));
    int ok = mcm_check_results(more);
    if (!ok)
        fprintf(stderr, "%s (%s): input %d of the point fails its check\n", g_mcm_case, r->params_text, input);
    mcm_free_point(more);
    return ok;
}

/* bench_point.finish: step 4, the row, and the point's memory freed */
static inline int mcm_finish(void *ctx, const bench_result *res)
{
    exec_run *r = (exec_run *)ctx;
    r->replaying = 1;
    mcm_call_setup(r);
    int ok = mcm_check_results(r) && r->inputs_ok;
    bench_result b = *res;
    b.launches = r->n_launches; /* one run's, whatever --warmup */
    report(g_mcm_case, r->params_text, r->n, r->m, r->l, r->s, &b, ok);
    mcm_free_point(r);
    return ok;
}

/* A point's arrays, launches and record freed. */
static inline void mcm_free_point(exec_run *r)
{
    for (int i = 0; i < r->n_arrays; i++) {
        mcm_array *a = &g_mcm_arrays[r->arrays[i]];
        CUDA_CHECK(cudaFree(a->dev));
        CUDA_CHECK(cudaFree(a->dev_input));
        free(a->host);
        a->host = NULL;
        a->dev = a->dev_input = NULL;
    }
    for (int i = 0; i < r->n_launches; i++)
        free(r->launch[i].args);
    free(r->launch);
    free(r->arrays);
    free(r->params_text);
    free(r);
    g_mcm_current = NULL;
}

static inline void mcm_usage(FILE *out, const char *prog)
{
    fprintf(out,
            "usage: %s [--PARAM LIST ...] [--runs R] [--warmup W] [--seed S] [--occupancy FILE] "
            "[--no-header]\n"
            "  every --PARAM is a param of the program (mcm_param), a LIST an integer, a list "
            "1,2,4, a range lo:hi:+step or lo:hi:*factor, or one number (0.5); the points are "
            "the cross product of the lists\n",
            prog);
}

static inline int mcm_cuda_main(const mcm_program_entry *prog, int argc, char **argv)
{
    static const char *const protocol_keys[] = {"--runs", "--warmup", "--seed", "--occupancy"};
    struct {
        const char *name;
        long ints[CLI_MAX_LIST];
        double values[CLI_MAX_LIST];
        int count;
    } *keys = NULL;
    int n_keys = 0;
    snprintf(g_mcm_case, sizeof g_mcm_case, "%s%s", MCM_CASE_PREFIX, prog->name);
    if (prog->api_version != MCM_API_VERSION)
        mcm_die("built for mcm_kernel.h API %d, this driver has %d", prog->api_version, MCM_API_VERSION);
    keys = (decltype(keys))mcm_xalloc(sizeof *keys * MCM_MAX_PARAMS);
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
            mcm_usage(stdout, g_mcm_case);
            return 0;
        }
        if (!strcmp(arg, "--no-header"))
            continue;
        int protocol = 0;
        for (size_t j = 0; j < sizeof protocol_keys / sizeof *protocol_keys; j++)
            protocol |= !strcmp(arg, protocol_keys[j]);
        size_t len = strlen(arg);
        int name_ok = len > 2 && len - 2 < MCM_NAME_MAX && arg[0] == '-' && arg[1] == '-';
        for (size_t j = 2; name_ok && j < len; j++)
            name_ok = (arg[j] >= 'a' && arg[j] <= 'z') || (arg[j] >= 'A' && arg[j] <= 'Z') ||
                      (arg[j] >= '0' && arg[j] <= '9') || arg[j] == '_' || arg[j] == '.' ||
                      (arg[j] == '-' && j > 2);
        if (!name_ok || i + 1 >= argc) {
            fprintf(stderr, "%s: unknown or incomplete option '%s'\n", g_mcm_case, arg);
            mcm_usage(stderr, g_mcm_case);
            return 2;
        }
        i++;
        if (protocol)
            continue;
        for (int k = 0; k < n_keys; k++)
            if (!strcmp(keys[k].name, arg + 2)) {
                fprintf(stderr, "%s: %s given twice\n", g_mcm_case, arg);
                return 2;
            }
        if (n_keys == MCM_MAX_PARAMS) {
            fprintf(stderr, "%s: more than %d params\n", g_mcm_case, MCM_MAX_PARAMS);
            return 2;
        }
        keys[n_keys].name = arg + 2;
        int count = cli_parse_list(argv[i], keys[n_keys].ints, CLI_MAX_LIST);
        if (count > 0) {
            for (int v = 0; v < count; v++)
                keys[n_keys].values[v] = (double)keys[n_keys].ints[v];
        } else {
            char *end = NULL;
            keys[n_keys].values[0] = strtod(argv[i], &end);
            if (end == argv[i] || *end) {
                fprintf(stderr, "%s: bad value for %s: '%s' (an integer, a list 1,2,4, a range "
                                "lo:hi:+step or lo:hi:*factor, or one number)\n",
                        g_mcm_case, arg, argv[i]);
                return 2;
            }
            count = 1;
        }
        keys[n_keys++].count = count;
    }
    long n_points = 1;
    for (int k = 0; k < n_keys; k++)
        if ((n_points *= keys[k].count) > MCM_MAX_POINTS) {
            fprintf(stderr, "%s: more than %d points in the sweep\n", g_mcm_case, MCM_MAX_POINTS);
            return 2;
        }

    common_opts o = common_parse(argc, argv);
    bench_point *pts = (bench_point *)mcm_xalloc(sizeof *pts * (size_t)n_points);
    for (long p = 0; p < n_points; p++) {
        exec_run *r = (exec_run *)mcm_xalloc(sizeof *r);
        r->prog = prog;
        r->params.run = r;
        r->seed = o.seed;
        long rest = p; /* the first key varies slowest */
        for (int k = n_keys - 1; k >= 0; k--) {
            mcm_param_entry *e = &r->param[k];
            snprintf(e->name, sizeof e->name, "%s", keys[k].name);
            e->value = keys[k].values[rest % keys[k].count];
            e->given = 1;
            rest /= keys[k].count;
        }
        r->n_params = n_keys;
        mcm_prepare(r, p == 0);
        r->inputs_ok = 1;
        for (int i = 1; i < r->inputs; i++)
            r->inputs_ok &= mcm_check_input(r, i);
        pts[p].job.reset = mcm_restore;
        pts[p].job.run = mcm_replay;
        pts[p].job.ctx = r;
        pts[p].finish = mcm_finish;
    }
    g_mcm_current = NULL;
    free(keys);
    if (o.header)
        csv_print_header(stdout);
    int ok = bench_series(pts, (int)n_points, &o);
    free(pts);
    free(g_mcm_arrays);
    return ok ? 0 : 1;
}

/* main(): the sweep, the protocol, check, one CSV row per point */
extern const mcm_program_entry mcm_program;
#define MCM_PROGRAM(name_, setup_, launches_, check_)                                   \
    int main(int argc, char **argv) { return mcm_cuda_main(&mcm_program, argc, argv); } \
    const mcm_program_entry mcm_program = {MCM_API_VERSION, name_, setup_, launches_, check_}

#endif /* MCM_KERNEL_CUDA_CUH */
