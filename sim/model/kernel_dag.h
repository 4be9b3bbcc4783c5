/*
 * kernel_dag.h — an MCM program: a DAG of kernels, each a grid of
 * thread-blocks with the same per-block costs (SPEC §1).
 *
 * The thread-block DAG is never stored: a kernel of a million blocks is one
 * `kernel` record, and the engine issues its blocks one by one.  Memory is
 * proportional to the number of kernels, never to the number of blocks
 * (exec mode adds its measured costs, as runs of equal blocks: kernel.runs).
 *
 * Per block B (costs per block, words per thread):
 *   span    S(B)  local operations of the longest thread
 *   work    W(B)  local operations of all ℓ threads
 *   reads, writes            α, β: words per thread moved coalesced
 *   uncoalesced_reads/writes  words per thread moved one thread at a time
 *   O(B) = U·(reads + writes) + ℓ·U·(uncoalesced_reads + uncoalesced_writes)
 * so a fully coalesced block costs (α+β)U and an uncoalesced one ℓ(α+β)U,
 * as in the papers, and a mixed one (Cooley–Tukey's transposition) the sum.
 * A block reads before it computes and writes after.
 *
 * Operation classes (the card model; sim/README.md, "Card terms").  A block may
 * also break its operations down by class: plain local operations, Z/pZ
 * multiplications (mulmod), Z/pZ additions and subtractions (addmod),
 * private-memory accesses, and barriers (one between synchronous steps).
 * span_ops[c] counts the operations of class c along the longest thread's
 * path, work_ops[c] those of all ℓ threads (a barrier counts once per
 * thread).  Each operation counts once, whatever it costs.  The rule that
 * ties them to S(B) and W(B):
 *   - S(B) and W(B) stay the model's span and work: the MCM's figures, its
 *     bounds and the closed forms never read the classes;
 *   - the classes are a breakdown of them: where the plain count is not
 *     given (< 0) it is what the other classes leave, S(B) − Σ span_ops of
 *     the other classes (W(B) − Σ work_ops), and a breakdown larger than
 *     S(B) (W(B)) is refused.  A program that counts otherwise than its
 *     S(B) gives the plain count itself, and its classes are then its own
 *     count, not checked against S(B): exec mode (its S(B) charges a mulmod
 *     11 operations) and the built-in case studies (classes from their CUDA
 *     kernels, S(B) and W(B) from the thesis' worksheets);
 *   - a block that declares no class (`classes` = 0) is S(B) and W(B) plain
 *     operations;
 *   - work_ops not given (< 0) are ℓ·span_ops, as W(B) defaults to ℓ·S(B).
 * Only the card's compute time reads the classes (card_terms.h).
 */
#ifndef MCM_KERNEL_DAG_H
#define MCM_KERNEL_DAG_H

#include "machine.h"

typedef enum { OP_PLAIN, OP_MULMOD, OP_ADDMOD, OP_PRIVATE, OP_BARRIER, OP_CLASSES } op_class;

/* "plain", "mulmod", "addmod", "private", "barriers": the run-file key
 * suffixes (span_mulmod, work_private, ...). */
extern const char *const op_class_names[OP_CLASSES];

/* The levels of the card's caches (sim/exec/cache.h), nearest first. */
typedef enum { LEVEL_NONE, LEVEL_L1, LEVEL_L2, LEVEL_DRAM } cache_level;

/* Where a block's global accesses were served, when exec mode ran it
 * through the card's caches (machine key l1_words > 0; sim/exec/cache.h); all
 * 0 otherwise.  Sectors are sector_words words, wavefronts a line's worth
 * of the sectors the L1 serves to one round of a warp, or, where more, the
 * words the round's fullest bank holds (sim/exec/cache.h). */
typedef struct cache_sectors {
    int measured;              /* 1: the block ran through the caches */
    int first_read;            /* the level (cache_level) its first read round waited for */
    double l1_wavefronts;      /* read sectors the L1 served, a line's worth (or a word a bank) at a time */
    double l2_reads, dram_reads; /* read sectors the L2 served, and DRAM */
    double warp_loads[LEVEL_DRAM + 1]; /* read rounds (a warp's load) by the farthest level
                                        * any of their sectors came from ([LEVEL_NONE]: 0) */
    double chain_loads[LEVEL_DRAM + 1]; /* of them, the rounds that are links of a chain of the
                                         * warp's code (sim/exec/stream.h) but its first read, by
                                         * the level the chain waited for (sim/exec/cache.h) */
    double l2_requests, dram_requests; /* lines a read round asked of the L2 (sectors it served),
                                        * and of DRAM (sectors DRAM moved) */
    double l2_writes;          /* sectors written into the L2, */
    double l2_partial_writes;  /*   of them those a write held in part (some of its words, not all) */
    double writebacks;         /* dirty sectors its accesses evicted from the L2 to DRAM, */
    double partial_writebacks; /*   whole, and partial (DRAM reads the rest of the sector first) */
} cache_sectors;

typedef struct block_cost {
    double span;
    double work;
    double reads, writes;
    double uncoalesced_reads, uncoalesced_writes;
    int classes;                    /* 1: span_ops/work_ops are given */
    double span_ops[OP_CLASSES];    /* per class, along the span path */
    double work_ops[OP_CLASSES];    /* per class, all threads together */
    double bank_conflicts;          /* extra rounds of the private banks (below); 0 */
    cache_sectors sectors;          /* exec mode with the card's caches (above) */
    /* The instruction stream (sim/exec/stream.h), counted by exec mode from the
     * kernel's compiled code; 0 when not counted: */
    int stream;                     /* 1: counted */
    double stream_work;             /* warp instructions of all its warps, every step */
    double stream_span[OP_CLASSES]; /* along its path (each step's slowest warp), the
                                     * links of the dependent chains of the basic
                                     * blocks it passes (sim/exec/stream.h): plain
                                     * instructions, mulmods, addmods, private
                                     * accesses; and its barriers */
    double stream_issued;           /* along the same path, the instructions of the
                                     * passes whose chain is shorter than their
                                     * issue by one warp alone (card_terms.h), */
    double stream_issued_mulmod;    /* less their Z/pZ products where the machine
                                     * times those apart (cycles_mulmod_independent):
                                     * those products */
    double stream_reads;            /* the global reads on those chains */
    double stream_predicates;       /* on those chains, the comparisons a conditional
                                     * branch waits for */
    double stream_mulmod_beside;    /* on those chains, the Z/pZ products in flight
                                     * beside a chain's own (stream.h,
                                     * STREAM_CHAIN_BESIDE) */
    double stream_branches;         /* along the same path, its taken back edges (a
                                     * loop's pass after the first) */
    double stream_divisions[2];     /* of those chains' plain links, the divisions (or
                                     * remainders) by a runtime number: [0] of long
                                     * operands, [1] of 32-bit ones (card_terms.h,
                                     * stream_divide_extra_cycles) */
    double stream_division_links[2]; /* the plain links of one such division, [0] long,
                                      * [1] 32-bit, as the instruction stream weighs it
                                      * (sim/exec/stream.h, STREAM_DIVIDE_INST; 0 where
                                      * the chains have none) */
    double stream_constant_lines;   /* the 128-byte lines of the card's constant bank its
                                     * code read beyond the line the kernel boundary's
                                     * touch kernel reads (its parameters, stream.h):
                                     * paid once a kernel, with its launch
                                     * (kernel_constant_lines; machine.h,
                                     * constant_line_latency) */
} block_cost;

/* Blocks first .. (the next run's first) − 1 (the last run: to the end)
 * cost `cost`. */
typedef struct cost_run {
    long first;
    block_cost cost;
} cost_run;

typedef struct kernel {
    char *name;
    long blocks;          /* grid size, >= 1 */
    int threads;          /* ℓ, >= 1 */
    block_cost cost;
    double private_words; /* private memory one block needs; <= Z */
    int unaligned;        /* 1: its warps' words start off the 128-byte line (rows whose
                           * length or shift is not a multiple of 32 words): beyond the L2
                           * they stream at u_dram_unaligned (machine.h); 0: aligned */
    int *after;           /* kernels that must finish first */
    int n_after;
    /* Exec mode (sim/exec/exec.c): the blocks' measured costs as runs of
     * consecutive blocks with equal costs, in block order (runs[0].first
     * = 0), owned by the kernel, then by the DAG it is added to.  NULL:
     * every block costs `cost`.  A kernel of 10^8 equal blocks is one run:
     * memory follows the changes of cost, not the blocks. */
    cost_run *runs;
    long n_runs;
} kernel;

/* The costs of block b of kernel k (a binary search of its runs). */
static inline const block_cost *kernel_block_cost(const kernel *k, long b)
{
    if (!k->runs)
        return &k->cost;
    long lo = 0, hi = k->n_runs - 1;
    while (lo < hi) {
        long mid = lo + (hi - lo + 1) / 2;
        if (k->runs[mid].first <= b)
            lo = mid;
        else
            hi = mid - 1;
    }
    return &k->runs[lo].cost;
}

/* The constant lines kernel k's code read beyond the touch kernel's
 * (block_cost's stream_constant_lines): the most any of its blocks read,
 * since a kernel's constant caches start cold once, whatever its blocks. */
static inline double kernel_constant_lines(const kernel *k)
{
    double most = k->cost.stream_constant_lines;
    for (long r = 0; k->runs && r < k->n_runs; r++)
        most = k->runs[r].cost.stream_constant_lines > most ? k->runs[r].cost.stream_constant_lines : most;
    return most;
}

/* The number of blocks of run r of kernel k. */
static inline long kernel_run_blocks(const kernel *k, long r)
{
    return (r + 1 < k->n_runs ? k->runs[r + 1].first : k->blocks) - k->runs[r].first;
}

/* The blocks of k from `first` on (those before it appended already) cost
 * c: a new run, unless the last run's costs are the same bytes (then it
 * reaches on to the next run appended, or to the last block). */
void kernel_append_costs(kernel *k, long first, const block_cost *c);

typedef struct kernel_dag {
    char *name;
    kernel *kernels;
    int n, cap;
} kernel_dag;

/* The program's costs (SPEC §1).  L counts kernels on the critical path
 * (the papers' convention); L_edges counts the edges between them. */
typedef struct dag_costs {
    double W, S, O, C;
    double N, K;
    int L_kernels, L_edges;
} dag_costs;

/* The paper's closed forms of a program at one parameter point: W, S, O,
 * N, L, C and the estimated running time T (Corollary 1, (N/K + L)·C, with
 * the papers' rounding).  Where a paper gives none, the program file
 * derives them from its kernels and says so. */
typedef struct closed_form {
    double W, S, O, N, L, C, T;
} closed_form;

kernel_dag *kernel_dag_new(const char *name);
void kernel_dag_free(kernel_dag *dag);

/* The most kernels a program may have.  Every kernel is a record in
 * memory (blocks are not: they are generated as the SMs take them), about
 * KERNEL_BYTES with its name and edge; the limit keeps a program under
 * about 300 MB, and is refused before it is allocated. */
#ifndef KERNELS_MAX /* `make fuzz` lowers it, so that an input builds in milliseconds */
#define KERNELS_MAX 1000000
#endif
#define KERNEL_BYTES 300

/* The most blocks of one kernel: N, W and O are sums over blocks kept in
 * doubles, exact while they stay under 2^53 ≈ 9·10^15. */
#define BLOCKS_MAX 1e15

/* Fail, naming the limit, when a program needs `kernels` > KERNELS_MAX. */
int kernel_dag_check_count(const char *program, double kernels);

/* Append a kernel (copied, name duplicated, runs taken over) with no
 * predecessor; returns its index, or -1 on a bad kernel (message names it
 * and the rule) or when the program would pass KERNELS_MAX. */
int kernel_dag_add(kernel_dag *dag, const kernel *k);
/* Append a kernel that runs after the last one added (a chain). */
int kernel_dag_chain(kernel_dag *dag, const kernel *k);
/* Kernel `k` must wait for kernel `before` (both indices). */
int kernel_dag_after(kernel_dag *dag, int k, int before);

/* Fill in defaults: work = ℓ·span when not given (< 0), private_words =
 * ℓ·(words per thread), at least ℓ, when not given (< 0), and the class
 * counts as stated above. */
void kernel_defaults(kernel *k);

/* Fill in the class counts of a block of ℓ threads as stated above (work
 * and span first).  Idempotent. */
void cost_class_defaults(block_cost *c, int threads);

/* Give c the classes of a block whose ℓ threads each do, along the span,
 * the given operations (work_ops = ℓ·span_ops; plain given, so not checked
 * against S(B)).  A caller may then adjust work_ops where threads differ. */
void cost_set_classes(block_cost *c, int threads, double plain, double mulmod, double addmod,
                      double private_ops, double barriers);

/* Global-memory cycles of a block of ℓ threads with costs c: before its
 * compute (reads), after it (writes), and O(B) = both. */
double cost_read_cycles(const block_cost *c, int threads, double u);
double cost_write_cycles(const block_cost *c, int threads, double u);

/* The same for kernel k's declared per-block cost (k->cost). */
double block_read_cycles(const kernel *k, double u);
double block_write_cycles(const kernel *k, double u);
double block_overhead(const kernel *k, double u);

/* Check the DAG against the machine: no cycle in `after` (the message names
 * a kernel on it), every block fits in Z.  Then compute a topological order
 * into `order` (n ints, may be NULL). */
int kernel_dag_check(const kernel_dag *dag, const machine *m, int *order);

/* The costs of the DAG on a machine with U = u (the DAG must be checked). */
void kernel_dag_costs(const kernel_dag *dag, double u, dag_costs *out);

/* K: the largest number of blocks in an anti-chain of the thread-block DAG,
 * i.e. the largest total grid of kernels none of which precedes another
 * (sim/model/width.c; exact, by a minimum flow). */
double kernel_dag_width(const kernel_dag *dag, const int *order);

#endif
