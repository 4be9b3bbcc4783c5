/*
 * mcm_kernel.h — your own kernel, written once: run by mcmsim in exec mode
 * (compiled as C by the system compiler) and built for the card by nvcc
 * (compiled as CUDA with cuda_ref/common/mcm_kernel_cuda.cuh, the
 * header's CUDA mapping, included first).
 *
 * A program is a C file that includes this header and defines:
 *
 *   typedef struct { gmem a; long pairs, half; } halving;   // a kernel's args
 *
 *   MCM_STEP(add_pair, halving, h) {                 // one synchronous step:
 *       long i = t->bid * t->threads + t->tid;       // `t` is the thread,
 *       if (i >= h->pairs) return;                   // `h` the args
 *       word x = exec_gread(t, h->a, i), y = exec_gread(t, h->a, i + h->half);
 *       exec_ops(t, 1);
 *       exec_gwrite(t, h->a, i, (uint32_t)(x + y));
 *   }
 *   MCM_KERNEL(halve, halving, add_pair);            // steps, in order (1 to 16)
 *
 * or, for a kernel whose number of steps is a param (version 2):
 *
 *   MCM_KERNEL_LOOP(divide, state, division_step);   // one step, run `steps` times
 *   mcm_launch_steps(run, &divide, 2 * s + 1, blocks, threads, private_words, &args);
 *
 * (t->step counts the runs, 0 .. steps-1; a barrier ends each one), or,
 * for a kernel whose steps come from loops, as a hand-written CUDA kernel
 * has them with a barrier inside (version 2):
 *
 *   MCM_KERNEL_SCHEDULE(scan, scan_args, a, s) {     // its schedule
 *       mcm_step(s, load, 0);                        // step `load`, t->step = 0
 *       for (int d = 1; d < s->threads; d *= 2)
 *           mcm_step(s, up_sweep, d);                // t->step = d in up_sweep
 *       mcm_step(s, store, 0);
 *   }
 *   mcm_launch(run, &scan, blocks, threads, private_words, &args);
 *
 * (a schedule is the block's control flow: it may read the args `a` and
 * the launch's shape, s->threads and s->blocks, and nothing else, neither
 * a thread nor memory; it calls mcm_step once per step, in order, 1 to
 * MCM_STEPS_MAX of them, and t->step in that step is the number it
 * passes: a level, a bit, a chunk (exec mode's messages name the step by
 * it).  A barrier ends each step.  Exec mode
 * runs the schedule once per launch and then the steps it listed; the
 * card runs it in every thread, so its loops cost what the hand-written
 * kernel's do).
 *
 *   static int setup(exec_run *run, const mcm_params *p)  { ... mcm_alloc, mcm_set }
 *   static int launches(exec_run *run)                     { ... mcm_launch }
 *   static int check(exec_run *run)                        { ... mcm_get, return mcm_fail(...) }
 *   MCM_PROGRAM("sum", setup, launches, check);
 *
 * and a run file names it: program = { source = "sum.c"; params = { n = 65536; l = 256; }; };
 *
 * The three phases are what the card's protocol needs (cuda_ref/README.md):
 * `setup` allocates global arrays and fills the inputs (host code, params
 * from the run file or the command line); `launches` launches the kernels
 * in order and nothing else: on the card it is captured into a CUDA graph
 * and replayed, so it may not read or write array cells (mcm_get and
 * mcm_set there are errors, in both builds), and which kernels it launches
 * may depend on the params only; `check` reads the results and compares
 * them with a serial reference (0: equal; mcm_fail otherwise).
 *
 * Inside a step, a thread reaches memory only through exec_gread/gwrite
 * (global), exec_pread/pwrite (the block's private memory, as many words
 * as mcm_launch gives it; shared memory on the card) and counts its work
 * with exec_ops and the Z/pZ operations (sim/exec/exec.h).  A step ends with a
 * barrier (__syncthreads on the card).  A word of memory, global or
 * private, is 32 bits, as on the card's cells (`word` is 64 bits, for the
 * arithmetic in between): storing a larger value is an error.  Exec mode rejects what the card
 * would run differently, naming both threads: a cell one thread writes and
 * another reads or writes in the same step of a block, and a global cell
 * one block writes and another block reads or writes in the same launch.
 *
 * `gmem` is opaque: a pointer here, a small struct on the card; pass it,
 * store it in args, ask mcm_size, never dereference or compare it.  Setup
 * may depend on its params and mcm_seed only: the card calls it once to
 * prepare a point and again before its check.  Private memory starts
 * undefined on the card: exec mode refuses a read of a private word that
 * no thread of the block wrote before.
 *
 * Everything here is C that is also C++ (nvcc compiles the file as C++):
 * no designated initialisers, no implicit conversion from void *.
 */
#ifndef MCM_KERNEL_H
#define MCM_KERNEL_H

/* The header's version: it grows, it does not break.  1: MCM_KERNEL,
 * mcm_launch and the rest below; 2 adds MCM_KERNEL_LOOP and
 * mcm_launch_steps, MCM_KERNEL_SCHEDULE and mcm_step, mcm_input,
 * MCM_PRIME and MCM_UNROLL.  A file built against any version up to this
 * one runs. */
#define MCM_API_VERSION 2

#include <stdint.h>

/* The most steps one launch of a looped kernel may run. */
#define MCM_STEPS_MAX 1000000

/* The most inputs a program checks at each point (mcm_input). */
#define MCM_INPUTS_MAX 16

/* The prime of exec_zp_* in both builds (version 2): 7·2^26 + 1, whose
 * multiplicative group has 3 as a generator, so that every power of two
 * up to 2^26 has a root of unity: 3^((p − 1)/n). */
#define MCM_PRIME 469762049ull

#ifdef __CUDACC__
/* The same names, mapped to CUDA: cuda_ref/common/mcm_kernel_cuda.cuh,
 * which the card's build includes first (nvcc -include; cuda_ref/cuda.mk)
 * and which includes this header. */
#ifndef MCM_KERNEL_CUDA_CUH
#error "mcm_kernel.h under nvcc: build with -include mcm_kernel_cuda.cuh (cuda_ref/cuda.mk)"
#endif
#else
#include "exec.h"
#if defined(MCM_EXEC_INLINE) && !defined(MCM_COUNTED)
#include "exec_block.h" /* exec mode's build: the accesses' common case inline */
#endif

/* A function of the kernel's file that its steps call.  nvcc inlines every
 * one into the kernel (the card's code has no CALL but to the Z/pZ slow
 * paths), and so the build whose instructions are counted (MCM_COUNTED)
 * inlines them too: a call's own instructions, and the tests of an
 * argument a call site passes as a constant, are none on the card. */
#ifdef MCM_COUNTED
#define MCM_DEVICE __attribute__((always_inline))
#else
#define MCM_DEVICE
#endif
#define MCM_UNUSED __attribute__((unused))
/* Before a loop whose bound is a constant once inlined (version 2): nvcc
 * unrolls it whole, so that an array indexed by its counter stays in
 * registers; nothing in exec mode.  The build whose instructions are
 * counted (MCM_COUNTED, sim/exec/stream.h) unrolls it whole too, as nvcc's
 * `#pragma unroll` does (clang's plain `unroll` may unroll in part). */
#ifdef MCM_COUNTED
#define MCM_UNROLL _Pragma("clang loop unroll(full)")
#else
#define MCM_UNROLL
#endif

typedef struct mcm_params mcm_params; /* the point's params (user_program.c) */

/* A kernel's schedule as it runs (MCM_KERNEL_SCHEDULE): the launch's
 * shape, and where mcm_step records the steps (user_program.c). */
typedef struct mcm_schedule {
    int threads;  /* ℓ */
    long blocks;
    struct mcm_steps_record *record;
} mcm_schedule;

/* A kernel: its steps, in order; or, `looped`, its one step run as many
 * times as mcm_launch_steps says; or the steps its `schedule` lists. */
typedef struct mcm_kernel {
    const char *name;
    int n_steps;
    const exec_step *steps;
    int looped;
    void (*schedule)(mcm_schedule *s, const void *args);
} mcm_kernel;

/* A user program: what MCM_PROGRAM defines, under the name mcm_program. */
typedef struct mcm_program_entry {
    int api_version; /* MCM_API_VERSION of the header it was built with */
    const char *name;
    int (*setup)(exec_run *run, const mcm_params *p);
    int (*launches)(exec_run *run);
    int (*check)(exec_run *run);
} mcm_program_entry;

#define MCM_PROGRAM(name_, setup_, launches_, check_) \
    const mcm_program_entry mcm_program = {MCM_API_VERSION, name_, setup_, launches_, check_}

#define MCM_KERNEL(name_, args_type_, ...)                              \
    static const exec_step name_##_steps_[] = {__VA_ARGS__};            \
    static const mcm_kernel name_ = {#name_, (int)(sizeof name_##_steps_ / sizeof name_##_steps_[0]), \
                                     name_##_steps_, 0, NULL}

#define MCM_KERNEL_LOOP(name_, args_type_, step_)                       \
    static const exec_step name_##_steps_[] = {step_};                  \
    static const mcm_kernel name_ = {#name_, 1, name_##_steps_, 1, NULL}

#define MCM_KERNEL_SCHEDULE(name_, args_type_, a_, s_)                                          \
    static void name_##_schedule_(mcm_schedule *s_ MCM_UNUSED, const args_type_ *a_ MCM_UNUSED); \
    static void name_##_schedule_any_(mcm_schedule *s, const void *a)                          \
    {                                                                                           \
        name_##_schedule_(s, (const args_type_ *)a);                                            \
    }                                                                                           \
    static const mcm_kernel name_ = {#name_, 0, NULL, 0, name_##_schedule_any_};                \
    static void name_##_schedule_(mcm_schedule *s_ MCM_UNUSED, const args_type_ *a_ MCM_UNUSED)

/* In a schedule: the next step is `step`, with t->step = k. */
void mcm_step(mcm_schedule *s, exec_step step, int k);

/* ---- host side: the functions a program's phases call ------------------- */

/* The param `name` at this point, or `fallback` when the run file gives none. */
double mcm_param(const mcm_params *p, const char *name, double fallback);
/* The point's random seed (the machine's `seed`; `--seed` on the card). */
uint64_t mcm_seed(const mcm_params *p);

/* Called by setup (version 2): the program checks `inputs` inputs at each
 * point (1 to MCM_INPUTS_MAX, from the params only; 1 when setup never
 * calls this), and this call of setup makes input number mcm_input's
 * result.  Input 0 is the one measured (exec mode) and timed (the card);
 * each other one is set up, launched and checked once more after it
 * (exec mode; its costs not reported; in a sweep, at the first value of
 * its last param only, for each value of the keys before it) or before
 * the timed rounds (the card, untimed).  The point passes when every
 * input's check does. */
int mcm_input(const mcm_params *p, int inputs);

/* A zeroed global array of `size` words (setup only). */
gmem mcm_alloc(exec_run *run, const char *name, long size);
long mcm_size(gmem a);
void mcm_set(gmem a, long i, word v); /* setup only */
word mcm_get(gmem a, long i);         /* check only */

/* Launch kernel k (of MCM_KERNEL or MCM_KERNEL_SCHEDULE) on `blocks`
 * blocks of `threads` threads, each block with `private_words` words of
 * private memory; `args` is the kernel's args struct, copied as the launch
 * starts.  0, or -1 (exec: a broken rule). */
int mcm_launch(exec_run *run, const mcm_kernel *k, long blocks, int threads, long private_words,
               void *args);

/* The same for a kernel of MCM_KERNEL_LOOP: its step runs `steps` times
 * (1 to MCM_STEPS_MAX), t->step = 0 .. steps-1, a barrier after each. */
int mcm_launch_steps(exec_run *run, const mcm_kernel *k, int steps, long blocks, int threads,
                     long private_words, void *args);

/* Record why the program failed (printf format); returns -1. */
int mcm_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
#endif

/* ---- in both builds ------------------------------------------------------- */

/* A step's args, to the build whose instructions are counted: nvcc's are
 * constants for the whole launch (kernel params), which no call changes,
 * so a step reads each once and a loop bounded by one has trips it
 * knows; `restrict` tells clang the same (no exec_* call is passed them). */
#if defined(MCM_COUNTED) && !defined(__CUDACC__)
#define MCM_ARGS_ restrict
#else
#define MCM_ARGS_
#endif

/* A step of a kernel: `t` the thread, `a` a pointer to the kernel's args.
 * In exec mode's plain build the step runs the later threads of t's warp
 * too when exec mode asks (exec_block.h, EXEC_WARP_RUN): the same bodies
 * in the same order, with no call per thread. */
#if defined(MCM_EXEC_INLINE) && !defined(MCM_COUNTED) && !defined(__CUDACC__)
#define MCM_STEP_CALL_(name_, args_type_) EXEC_WARP_RUN(t, name_##_body_(t, (args_type_ *)args_))
#else
#define MCM_STEP_CALL_(name_, args_type_) name_##_body_(t, (args_type_ *)args_)
#endif
#define MCM_STEP(name_, args_type_, a_)                                                   \
    static MCM_DEVICE void name_##_body_(exec_thread *t MCM_UNUSED, args_type_ *MCM_ARGS_ a_ MCM_UNUSED); \
    static MCM_DEVICE void name_(exec_thread *t, void *args_) { MCM_STEP_CALL_(name_, args_type_); } \
    static MCM_DEVICE void name_##_body_(exec_thread *t MCM_UNUSED, args_type_ *MCM_ARGS_ a_ MCM_UNUSED)

/* splitmix64: random words for inputs, the same in both builds. */
static inline uint64_t mcm_random(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

#endif
