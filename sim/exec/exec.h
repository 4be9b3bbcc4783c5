/*
 * exec.h — exec mode: MCM kernels run for real, on simulated memory.
 *
 * A kernel is C code run by every thread of a block in synchronous steps:
 * a step is one function called once per thread; all reads of a step see
 * memory as it was before the step, and its writes are committed at the
 * end of the step.  Threads touch global memory and their block's private
 * memory only through this interface, which counts what they do:
 *
 *   static void load(exec_thread *t, void *args) {
 *       struct my_args *a = args;
 *       long i = t->bid * t->threads + t->tid;
 *       exec_pwrite(t, t->tid, exec_gread(t, a->x, i));
 *   }
 *   static const exec_step steps[] = {load, add, store};
 *   static const exec_kernel K = {"add", 3, steps, 256};
 *   ...
 *   exec_run *run = exec_begin("demo", &machine);
 *   gmem x = exec_alloc(run, "x", n);
 *   if (exec_launch(run, &K, n / 256, 256, &args) < 0) puts(fail_message());
 *   kernel_dag *dag = exec_dag(run);   // simulate it like any program
 *
 * Costs per block, measured: S(B) = the most local operations of one
 * thread, W(B) = their sum, α and β = the most global words one thread
 * reads and writes.  Global accesses are grouped per step, per warp (w
 * threads, the machine's `warp`) and per round (a thread's k-th access in
 * the step); a round costs the number of distinct address groups of w
 * words it touches (the UMM rule, SPEC §3).  Rounds pair accesses by their
 * rank in each thread's step, not by call site: a step whose threads make
 * different sequences of accesses is graded as the ranks line up, so a
 * kernel that wants its coalescing measured keeps one kind of access per
 * step.  The block's measured transfer,
 * in the model's unit, is (transactions)·w/ℓ coalesced words per thread: a
 * fully coalesced block costs (α+β)U, as in the paper, and a scattered one
 * up to w(α+β)U.  Private-memory rounds are graded by the DMM rule (the
 * most requests in one bank), reported as bank conflicts and charged to
 * the block (block_cost.bank_conflicts: the card model's banks).
 * The operations are also counted by class (sim/model/kernel_dag.h, for the card
 * model): exec_zp_mul (and pow, inv) mulmods, exec_zp_add/sub addmods,
 * exec_pread/pwrite private accesses, a barrier between each two steps, and
 * as plain what S(B) holds beyond them (S(B) charges a mulmod mul_ops and
 * an addmod add_ops operations); span classes are those of the thread that
 * makes S(B), work classes the sums over the block's threads.
 *
 * On a machine with the card's caches (l1_words > 0), each block's
 * global accesses are also recorded, warp by warp and round by round, and
 * replayed through an L1 per SM and the L2 (sim/exec/cache.h): each block's
 * cost then carries the sectors each level served (block_cost.sectors),
 * which the engine charges in place of the working-set rule.  Such a run's
 * launches take one thread (the caches replay the blocks in order).
 *
 * Rules enforced, each an error naming kernel, block, step and place: two
 * threads of a block writing one cell in one step (CREW); a private index
 * outside [0, Z) or outside the kernel's declared private memory; a global
 * index outside its array; a value of 2^32 or more written to memory (a
 * word of memory is 32 bits, as on the card: mem_word).
 *
 * Race-free runs (exec_set_race_free, before the first exec_alloc): the
 * rules of a card, which runs a step's threads and a launch's blocks in no
 * fixed order (sim/exec/mcm_kernel.h, a kernel written once for both).  A cell
 * that one thread writes and another reads or writes in the same step of a
 * block is an error naming both threads; so is a global cell that one
 * block writes and another reads or writes in the same launch, and a
 * private word read before the block wrote it; and a thread that reads a
 * cell it wrote earlier in the step reads its own write.  The built-in
 * case studies keep the synchronous steps above (their reads of a step
 * see memory before it, as in the papers); their CUDA twins in cuda_ref/
 * are written separately.
 */
#ifndef MCM_EXEC_H
#define MCM_EXEC_H

#include "kernel_dag.h"
#include "machine.h"

#include <stdint.h>

/* A value as kernels compute with it: 64 bits, for the arithmetic in
 * between two accesses. */
typedef uint64_t word;

/* A word of memory, global or private: 32 bits, the card's.  Storing a
 * value of 2^32 or more is an error (exec_gwrite, exec_pwrite; mcm_set). */
typedef uint32_t mem_word;

/* An array in global memory, with its cells' race-check shadows (a
 * race-free run) or write marks (a synchronous run), one per cell
 * (exec_block.h: cell_shadow, write_mark): an access reaches them from the
 * array it already holds. */
typedef struct gmem_array {
    mem_word *cells;
    long size;
    int id;
    char name[32];
    uint32_t *shadows;  /* cell_shadow: race-free runs, else NULL */
    uint16_t *marks;    /* write_mark: synchronous runs, else NULL */
} gmem_array, *gmem;

typedef struct exec_block exec_block; /* a block being run (exec.c) */

/* One thread of one block, during one step. */
typedef struct exec_thread {
    int tid;          /* thread index in the block, 0 .. threads-1 */
    int threads;      /* ℓ */
    long bid;         /* block index, 0 .. blocks-1 */
    long blocks;      /* the grid */
    int step;         /* the step being run */
    exec_block *block;
    int last;         /* exec mode's: a step may run threads tid + 1 .. last of tid's warp too
                       * (exec_block.h, EXEC_WARP_RUN); -1: tid's alone */
} exec_thread;

typedef void (*exec_step)(exec_thread *t, void *args);

typedef struct exec_kernel {
    const char *name;
    int n_steps;
    const exec_step *steps;
    long private_words;   /* private memory the block uses (<= Z) */
} exec_kernel;

/* ---- inside a step ------------------------------------------------------ */

word exec_gread(exec_thread *t, gmem a, long i);
void exec_gwrite(exec_thread *t, gmem a, long i, word v);
word exec_pread(exec_thread *t, long i);
void exec_pwrite(exec_thread *t, long i, word v);
/* n local operations (arithmetic, comparisons, ...). */
void exec_ops(exec_thread *t, long n);

/* Arithmetic in Z/pZ, p the run's prime (469762049 = 7·2^26 + 1 unless
 * set), counted as the thesis does: an addition or subtraction 5
 * operations, a multiplication 11 (exec_set_costs changes them). */
word exec_zp_add(exec_thread *t, word a, word b);
word exec_zp_sub(exec_thread *t, word a, word b);
word exec_zp_mul(exec_thread *t, word a, word b);
word exec_zp_pow(exec_thread *t, word a, uint64_t e);  /* square and multiply */
word exec_zp_inv(exec_thread *t, word a);              /* a^(p-2) */

/* The same without counting, for host code and serial references. */
word zp_add(uint64_t p, word a, word b);
word zp_sub(uint64_t p, word a, word b);
word zp_mul(uint64_t p, word a, word b);
word zp_pow(uint64_t p, word a, uint64_t e);

/* ---- host side ---------------------------------------------------------- */

typedef struct exec_run exec_run;

/* Per-kernel figures of a run (one per launch). */
typedef struct exec_kernel_report {
    char name[64];
    long blocks;
    int threads;
    double span, work;                 /* the largest S(B), the total W */
    double alpha, beta;                /* the largest per thread */
    double measured_overhead;          /* Σ O(B) by the UMM rule, cycles */
    double paper_overhead;             /* Σ (α+β)U: every access coalesced */
    double transactions;               /* global address groups, all rounds */
    double bank_conflicts;             /* Σ (most requests in one bank − 1) */
} exec_kernel_report;

exec_run *exec_begin(const char *program, const machine *m);
void exec_end(exec_run *r);

/* Prime and operation costs (defaults: 469762049, 5, 11). */
void exec_set_prime(exec_run *r, uint64_t p);
void exec_set_costs(exec_run *r, double add_ops, double mul_ops);
uint64_t exec_prime(const exec_run *r);
/* Check the card's race rules (above) from now on: before any exec_alloc. */
void exec_set_race_free(exec_run *r, int on);
/* Count the instruction stream of every kernel launched from now on, with
 * the table of the counted object that holds them (sim/exec/stream.h): each
 * block's counts into its block_cost.  NULL (the default): not counted. */
struct stream_table;
void exec_set_stream(exec_run *r, const struct stream_table *t);
/* Run each launch's blocks on up to `threads` threads (default 1).  The
 * results are the same bytes whatever the threads: the DAG, every
 * measured cost, the reports, and the first error of a launch (that of
 * its first failing block).  One exception, a race between blocks: with
 * several threads a launch where a cell one block writes is touched by
 * another stops without naming the pair, and exec_blocks_raced says so;
 * run the program again on one thread to name it. */
void exec_set_threads(exec_run *r, int threads);
int exec_blocks_raced(const exec_run *r);
/* A race between blocks met on one thread names the blocks and the cell
 * at once, and their threads when the run is repeated watching the cell
 * (a cell's shadow keeps no thread: 4 bytes a cell).  The cell, by the
 * ordinal of its run among those the process began since the last
 * exec_watch_race (from 1), its launch (r's launches, from 1), its
 * array (its id) and its index: */
typedef struct exec_race_cell {
    int run;
    uint32_t launch;
    int array;
    long index;
} exec_race_cell;
/* What the process's runs still owe of their races' messages: 0 nothing;
 * EXEC_RACE_UNPAIRED, blocks raced seen by several threads (run the
 * program again on one thread); EXEC_RACE_UNNAMED, a race met on one
 * thread, *cell its cell (run the program again the same way after
 * exec_watch_race(cell): its message then names the threads). */
enum { EXEC_RACE_UNPAIRED = 1, EXEC_RACE_UNNAMED = 2 };
int exec_race_pending(exec_race_cell *cell);
/* Watch `cell` (NULL: none) in the runs begun from now on, whose
 * ordinals count from here, and forget the races owed so far. */
void exec_watch_race(const exec_race_cell *cell);
/* Take a launch's threads beyond the first from `idle`, a count of idle
 * cores shared with other processes (a shared mapping): a launch borrows
 * what it finds there, up to threads − 1, and gives it back when done. */
void exec_set_core_pool(exec_run *r, int *idle);
/* Where a run is, for a watcher in another process (sim/exec/exec_process.h):
 * its phase (numbered by the watcher) and, kept by exec_launch, the
 * kernels launched so far, the name of the last, and whether its blocks
 * are running. */
typedef struct exec_whereabouts {
    int phase;
    int input;       /* the input the phase is at (a program that checks several) */
    int launches;
    int launching;   /* 1 while that kernel's blocks run */
    char kernel[64];
    volatile long refused; /* a call the process's filter refused: 1 + its number; 0: none (user_filter.h) */
    volatile long admitted; /* bytes of the process's arrays its ledger admitted (exec_set_ledger) */
    volatile int waiting;   /* 1 while its ledger makes it wait for room */
} exec_whereabouts;
void exec_set_whereabouts(exec_run *r, exec_whereabouts *w);
/* Where an array cannot be had (below), call give_up(ctx) instead of
 * returning NULL: it must not return (an exec process sends the message
 * and ends; sim/exec/exec_process.c). */
void exec_set_give_up(exec_run *r, void (*give_up)(void *ctx), void *ctx);

/* Measure now what the arrays of the runs of this process may take (the
 * memory available, or what the address-space limit leaves): a process
 * that will not be allowed to read /proc (user_filter.h) measures before;
 * otherwise the first exec_alloc of the process does. */
void exec_measure_memory(void);

/* The memory that the arrays of several processes running at once may
 * take in all (a sweep's points, each in its exec process), in a mapping
 * they share: measured when none runs, and what the running ones hold.
 * A process's arrays enter it before its next launch: at once where they
 * fit beside what the others hold, or where the process holds some
 * already (it never waits holding: no two wait for each other); else
 * the launch waits until the others have given back enough (an array
 * that would not fit alone is refused by exec_alloc, with the figure). */
typedef struct exec_ledger {
    double budget;     /* bytes, measured as exec_measure_memory does */
    char source[64];   /* where the figure comes from */
    long admitted;     /* bytes the running processes' arrays hold (atomic) */
} exec_ledger;
/* Measure the budget now (call it while no process holds arrays). */
void exec_ledger_measure(exec_ledger *l);
/* This process's arrays are counted in l (NULL: alone): its budget is
 * l's, but where its own address-space limit leaves less. */
void exec_set_ledger(exec_ledger *l);
/* A process that held `bytes` of l has ended (its parent says so). */
void exec_ledger_give_back(exec_ledger *l, long bytes);

/* A zeroed array of `size` words in global memory, owned by the run; NULL
 * with fail() when the process's arrays would pass the memory available (the
 * figure in the message: bytes needed against MemAvailable, or what the
 * address-space limit leaves; exec_measure_memory). */
gmem exec_alloc(exec_run *r, const char *name, long size);

/* Run every block of the kernel now; the launch joins the run's kernel DAG
 * after the previous launch (host order).  -1 with fail() on a broken rule. */
int exec_launch(exec_run *r, const exec_kernel *k, long blocks, int threads, void *args);

/* The same, t->step in step i being numbers[i] (a schedule's numbers,
 * sim/exec/mcm_kernel.h; the messages name a step by it). */
int exec_launch_numbered(exec_run *r, const exec_kernel *k, const int *numbers, long blocks, int threads,
                         void *args);

/* The launched kernels with their measured per-block costs (the run keeps
 * ownership; valid until exec_end), and their per-kernel reports. */
const kernel_dag *exec_dag(const exec_run *r);
const exec_kernel_report *exec_reports(const exec_run *r, int *n);

#endif
