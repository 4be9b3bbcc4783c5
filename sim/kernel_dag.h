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
 * Operation classes (the card model; README, "Card terms").  A block may
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
 * Only the card's compute time reads the classes (block_compute_cycles):
 *   span cycles = Σ_c span_ops[c]·cycles_c,
 *   work cycles = arithmetic + banks, or max(arithmetic, banks) on a
 *                 machine with private_port = 1 (the banks work beside the
 *                 arithmetic pipes), where
 *     arithmetic = Σ_c work_ops[c]/lanes_c over plain, mulmod, addmod,
 *     banks      = (work_ops[private] + w·bank_conflicts)/lanes_private,
 *   compute     = max(span cycles, work cycles)  when the machine has a
 *                 class cost or lanes (machine_card_compute), else S(B).
 * Barriers take no lane.  bank_conflicts is the DMM's rule for the private
 * memory (SPEC §3): a warp's access whose words fall k to the fullest of
 * its w banks takes k rounds of the banks, k − 1 more than a conflict-free
 * one; bank_conflicts is the block's Σ (k − 1), and each extra round
 * occupies all w banks, as a whole warp's access does.
 * With lanes = 128, a block of 256 threads with W(B) = 2560 and S(B) = 10
 * plain operations computes for max(10, 20) = 20 cycles.
 */
#ifndef MCM_KERNEL_DAG_H
#define MCM_KERNEL_DAG_H

#include "machine.h"

typedef enum { OP_PLAIN, OP_MULMOD, OP_ADDMOD, OP_PRIVATE, OP_BARRIER, OP_CLASSES } op_class;

/* "plain", "mulmod", "addmod", "private", "barriers": the run-file key
 * suffixes (span_mulmod, work_private, ...). */
extern const char *const op_class_names[OP_CLASSES];

typedef struct block_cost {
    double span;
    double work;
    double reads, writes;
    double uncoalesced_reads, uncoalesced_writes;
    int classes;                    /* 1: span_ops/work_ops are given */
    double span_ops[OP_CLASSES];    /* per class, along the span path */
    double work_ops[OP_CLASSES];    /* per class, all threads together */
    double bank_conflicts;          /* extra rounds of the private banks (below); 0 */
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
    /* Exec mode (sim/exec.c): the blocks' measured costs as runs of
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

/* The card's compute time of a block (cycles), as stated above: S(B) when
 * the machine has no class cost and no lanes. */
double block_compute_cycles(const block_cost *c, const machine *m);
/* Its two parts: along the span, and the work spread over the lanes. */
double block_span_cycles(const block_cost *c, const machine *m);
double block_work_cycles(const block_cost *c, const machine *m);

/* Blocks of kernel k one SM may hold at once on machine m: blocks_per_sm,
 * at most threads_per_sm/ℓ (when threads_per_sm > 0) and Z/(private words
 * of a block), at least 1. */
int kernel_resident_blocks(const kernel *k, const machine *m);

/* Cycles per word of kernel k on machine m: U, or, when the machine has an
 * L2 (l2_words > 0) and the kernel's working set, blocks·ℓ·(words per
 * thread, read and written), exceeds it, DRAM's rate: u_dram_unaligned
 * for a kernel off the 128-byte line (when the machine has one), else
 * u_dram_mixed for a kernel that reads and writes words (when it has
 * one), else u_dram. */
double kernel_word_cycles(const kernel *k, const machine *m);

/* Cycles a block of kernel k that reads global words waits for the first
 * one: read_latency, or read_latency_dram (when > 0) for a kernel beyond
 * the L2 as above; 0 on the MCM. */
double kernel_read_latency(const kernel *k, const machine *m);

/* Global-memory cycles of a block of ℓ threads with costs c: before its
 * compute (reads), after it (writes), and O(B) = both. */
double cost_read_cycles(const block_cost *c, int threads, double u);
double cost_write_cycles(const block_cost *c, int threads, double u);

/* The same on machine m at u cycles per word: the MCM's rule above, or,
 * when m->sector_words > 0 (a card), every word of every thread at u and
 * an uncoalesced word a whole sector: u·ℓ·(coalesced + sector_words ·
 * uncoalesced words per thread).  `write`: 0 the reads, 1 the writes. */
double block_transfer_cycles(const block_cost *c, int threads, const machine *m, double u, int write);

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
 * (sim/width.c; exact, by a minimum flow). */
double kernel_dag_width(const kernel_dag *dag, const int *order);

#endif
