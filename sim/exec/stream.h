/*
 * stream.h — the instruction stream: what a kernel written once
 * (sim/exec/mcm_kernel.h) issues on the card, counted from its compiled code,
 * without a card.
 *
 * How a count is made (validate/notes/instruction-stream.md says why this
 * way):
 *  1. Compiling (stream_ir*.c).  clang compiles the user's C file to LLVM
 *     IR with a call at the top of every basic block (its coverage
 *     instrumentation, -fsanitize-coverage=bb,no-prune,trace-pc).  Each
 *     call becomes mcm_stream_block(ID), one ID per block, and each block
 *     is weighed by the card instructions its IR instructions become (the
 *     sm_90 rules in stream_ir_inst.c; a call of exec_zp_mul, exec_gread, ...
 *     the instructions of its CUDA twin in mcm_kernel_cuda.cuh).  The
 *     weights go into the IR as a table (mcm_stream_table) that the
 *     compiled object carries.
 *  2. Running (stream.c).  In exec mode every thread of a step counts the
 *     blocks it passes.  A warp issues the union of its threads' paths:
 *     each block as many times as the thread of the warp that passed it
 *     most, whatever the others did (a branch taken by half the warp costs
 *     the warp both sides).
 *  3. Per block of threads: its warps' instructions over all its steps
 *     (the SM's issue slots they take), and along its path, step by step,
 *     its slowest warp's passes, each basic block's dependent chain or,
 *     where they take longer, its instructions issued one a cycle (the
 *     latency a step waits for), and the passes it entered by a loop's back
 *     edge (a block entered from one after it), into block_cost (stream,
 *     stream_work, stream_span, stream_issued, stream_branches:
 *     kernel_dag.h says how the machine charges them).
 * Counts are sm_90 instructions (the H100's and the H200's) per warp.
 */
#ifndef MCM_STREAM_H
#define MCM_STREAM_H

#include "kernel_dag.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* What one pass through a basic block costs a warp: its instructions; of
 * them, those outside its calls of Z/pZ operations and private accesses
 * (the ones a warp issues at cycles_issue apart); its calls of each
 * counted class; and, a set of bits (STREAM_READS), the thread's indices
 * it reads (bit K: field K of exec_thread, tid, threads, bid, blocks;
 * bit 4 + K: that field widened to 64 bits; bit 8: the global memory's
 * descriptor; bits 9 to 31: the arrays' bases, by a hash of the array),
 * which a kernel reads once (a special register or a constant, S2R,
 * S2UR, LDC, ULDC; SHF.R.S32.HI to widen), whatever its steps, since they
 * are inlined into one kernel;
 * the loops nvcc unrolls whose trip count it computes once a kernel
 * (STREAM_TRIPS, a set of bits, one a loop: each costs a warp the
 * "loop:trip_count" row of stream_call_cost once, whatever its steps, as
 * STREAM_READS' bits cost one instruction; stream_ir_loops.c);
 * its branches to the step's return (STREAM_EXITS): in a step followed
 * by another, a branch over the rest of the step, which the card brackets
 * with BSSY and BSYNC (in the last step, an EXIT);
 * and its longest dependent chain (STREAM_CHAIN_*), as the links of each
 * class on it: plain instructions, Z/pZ multiplications, Z/pZ additions,
 * private accesses, global reads, comparisons a conditional branch waits
 * for (a call of a Z/pZ function or a private access one link of its
 * class, whose measured latency holds its CUDA twin's instructions; a
 * global read its address's instructions, plain, and its load; the
 * comparison a branch reads, the predicate's latency).
 * A warp issues an instruction once its operands are ready, so a pass
 * through the block takes its chain's latency, not its instructions' sum
 * (stream_ir_chain.c says how the chain is found; stream.c how it is charged).
 * Of the chain's global reads, those on chains that begin at a read no
 * read of the step reaches (its address, the tests that guard it, a
 * global write before it that waits for a read's value: a warp issues it
 * with the step's other such reads, each in flight while it issues the
 * next): STREAM_ROOT_LINKS, their links, and
 * STREAM_ROOT_LEVEL, the most on one such chain; a step's path charges
 * the deepest such chain of its blocks, not their sum (stream.c).
 * STREAM_UNROLL: for a block of a loop nvcc unrolls by 4 where the
 * counted build keeps it rolled (stream_ir_loops.c), 4, else 0: the card
 * issues the loads of 4 passes one after the other before any waits
 * (ptxas's schedule: radix sort's tile loads, four LDG then four STS),
 * so of each 4 passes the chain's global reads wait once (stream.c).  Only
 * the global waits fold: the passes' plain links stay one after another
 * on the chain, though the unrolled passes are independent (a term not
 * charged, named here).
 * STREAM_HOISTED: of a looped kernel's step (MCM_KERNEL_LOOP), the block's
 * plain instructions that compute free values (below) but comparisons:
 * ptxas hoists them before the loop over the steps, each warp issuing them
 * once (Euclid's layout values, 0x1950-0x1b90 of its executed SASS, 37
 * instructions a warp; profiles/probes/sa9), so in a step after a barrier
 * the block issues its instructions less these (stream.c).
 * STREAM_AFTER_*: the same block's longest chain where it runs in a step
 * after a barrier (a step but a kernel's first): its free values (the
 * thread's indices, the args, and arithmetic on them alone:
 * stream_ir_values.c; the step's number too where it is a constant on the
 * card, in a kernel of listed steps, MCM_NEXT_ inlining each with t_.step
 * = k) ready when the step starts, no links of it.  They read no memory a
 * step writes: the card computes them once, or folds them, not on the
 * path after the barrier; only the links that wait for memory, and what
 * needs them, are (stream.c charges these chains in steps after the
 * first; card-model.md, session 48: the reduce chain's level).  A looped
 * or scheduled kernel's step number changes each pass: its arithmetic
 * stays on the chain; and a looped step's comparison of free values that
 * its block's branch reads stays too (ptxas keeps the values in registers
 * across the step loop, not the predicate: it issues the comparison again
 * each pass after the barrier; stream_ir_chain.c, recomputed_comparison).  The instructions are still issued by the warp: a
 * block whose instructions outlast its chain past the barrier is charged
 * them all, as before it (stream.c). */
enum { STREAM_INST, STREAM_PLAIN, STREAM_MULMOD, STREAM_ADDMOD, STREAM_PRIVATE, STREAM_GLOBAL, STREAM_READS,
       STREAM_TRIPS, STREAM_EXITS, STREAM_ROOT_LINKS, STREAM_ROOT_LEVEL, STREAM_UNROLL, STREAM_HOISTED,
       STREAM_CHAIN_PLAIN, STREAM_CHAIN_MULMOD, STREAM_CHAIN_ADDMOD, STREAM_CHAIN_PRIVATE, STREAM_CHAIN_GLOBAL, STREAM_CHAIN_PREDICATE,
       STREAM_CHAIN_BESIDE, STREAM_CHAIN_DIVIDE, STREAM_CHAIN_DIVIDE32, STREAM_AFTER_PLAIN, STREAM_AFTER_MULMOD,
       STREAM_AFTER_ADDMOD, STREAM_AFTER_PRIVATE, STREAM_AFTER_GLOBAL, STREAM_AFTER_PREDICATE, STREAM_AFTER_BESIDE,
       STREAM_AFTER_DIVIDE, STREAM_AFTER_DIVIDE32, STREAM_FIELDS };
/* The chain's classes, STREAM_CHAIN_PLAIN to STREAM_CHAIN_BESIDE (and
 * STREAM_AFTER_PLAIN to STREAM_AFTER_BESIDE, the same order).
 * STREAM_CHAIN_BESIDE: the block's Z/pZ products in flight beside its
 * chain's own (not on the chain, neither waiting for nor waited for by a
 * chain product, issued within a product's latency of it: Euclid's
 * lc_y·x[i] beside lc_x·y[j]); the warp's scheduler has one more chain
 * of products on its multiply-add pipe while the chain's waits, so each
 * delays it by what one more chain a scheduler costs a product
 * (card_terms.h, stream_beside_mulmod_cycles; stream_ir_chain.c finds
 * them). */
enum { STREAM_CHAIN_CLASSES = STREAM_CHAIN_BESIDE + 1 - STREAM_CHAIN_PLAIN };
/* STREAM_CHAIN_DIVIDE, STREAM_CHAIN_DIVIDE32 (and STREAM_AFTER_*, as far
 * from them as STREAM_AFTER_PLAIN from STREAM_CHAIN_PLAIN): of the chain's
 * plain links, the divisions (or remainders) by a runtime number, long
 * operands and 32-bit ones, each STREAM_DIVIDE_INST (STREAM_DIVIDE32_INST)
 * plain links there (below; stream_ir_inst.c).  They weigh nothing at the
 * nominal latencies that choose a block's chain; where the machine has
 * cycles_divide (cycles_divide32), each division is charged that in place
 * of its plain links (card_terms.h, stream_divide_extra_cycles), else the links
 * stand. */
_Static_assert(STREAM_AFTER_PLAIN - STREAM_CHAIN_PLAIN == STREAM_AFTER_DIVIDE - STREAM_CHAIN_DIVIDE &&
                   STREAM_AFTER_DIVIDE32 - STREAM_CHAIN_DIVIDE32 == STREAM_AFTER_DIVIDE - STREAM_CHAIN_DIVIDE,
               "a block's chain past a barrier as far from its chain, field by field");
/* The card instructions of a division by a runtime number, all of them
 * links of its chain (stream_ir_inst.c, from nvcc's code): of long
 * operands, the test that both hold 32 bits (LOP3, ISETP, BSSY, BRA,
 * BSYNC), the 32-bit division and the quotient's high word zeroed; of
 * 32-bit ones, the 32-bit division (I2F.U32.RP, MUFU.RCP, F2I and the
 * products and corrections after them).  A block's costs carry them
 * (block_cost's stream_division_links), so that the card's terms take
 * them off where a division costs its measured latency. */
enum { STREAM_DIVIDE_INST = 24, STREAM_DIVIDE32_INST = 20 };

/* The table a counted object carries (mcm_stream_table, mcm_stream_blocks,
 * mcm_stream_chain_reads, mcm_stream_constants): per block its weights, its
 * global reads that are links of a chain, bit k its k-th read (NULL: every
 * read counts one), and the lines of the card's constant bank its loads of
 * the kernel's args read (NULL: none known), bit k the 128-byte line at
 * 0x200 + 128·k of bank 0, where the card's parameters start (0x210; bit
 * 0 the line the kernel boundary's touch kernel reads, 0x200-0x27f, with
 * the memory descriptor at 0x208): the args at the offsets nvcc lays them
 * out, each `gmem` a struct of 24 bytes where the C build's is a pointer
 * (stream_ir_args.c).  A kernel pays each line past bit 0 once, at its
 * start (block_cost's stream_constant_lines). */
typedef struct stream_table {
    int blocks;
    const uint32_t (*weight)[STREAM_FIELDS];
    const uint32_t *chain_reads;
    const uint32_t *constants;
} stream_table;

/* The line of the touch kernel's parameters (bit 0 of a block's constants). */
#define STREAM_TOUCH_LINE 1u

/* ---- compiling (stream_ir.c; stream_ir.h names its parts) ------------------ */

/* The clang options that make the IR stream_annotate reads. */
extern const char *const stream_clang_flags[];

/* Read clang's instrumented IR from `in` (named `where` in messages) and
 * write to `out` the same IR with each block's call numbered and the
 * table of weights appended.  0, or -1 with fail(). */
int stream_annotate(FILE *in, const char *where, FILE *out);

/* The card instructions of one call of an exec_* function (its CUDA twin,
 * sm_90), by name; -1 if `name` is not one.  (Tests, and the notes.) */
double stream_call_cost(const char *name);

/* ---- running (stream.c) --------------------------------------------------- */

typedef struct stream_counter stream_counter;

/* A counter for the blocks of one launch: warps of `warp` threads, blocks
 * of `threads` threads, `steps` steps, on machine m, whose latencies with
 * the block's warps on each scheduler (card_terms.h,
 * block_warps_per_scheduler) tell, per basic block, whether its chain or
 * its instructions at the warp's share of the issue take longer. */
stream_counter *stream_counter_new(const stream_table *t, int warp, int threads, int steps, const machine *m);
void stream_counter_free(stream_counter *c);

/* The next thread of the current warp runs its step now (until the next
 * call of stream_thread or stream_warp_end). */
void stream_thread(stream_counter *c);
/* The current warp has run the step. */
void stream_warp_end(stream_counter *c);
/* Every warp of the block has run the step. */
void stream_step_end(stream_counter *c);
/* The block (of `threads` threads) is done: its counts into *cost
 * (stream = 1), and back to zero. */
void stream_block_end(stream_counter *c, int threads, block_cost *cost);

/* Work of the running thread that no block of its code shows: `mulmods`
 * Z/pZ multiplications and `loops` iterations of exec_zp_pow's loop. */
void stream_extra(double mulmods, double loops);

/* What every counted block does at its top: the running thread passes
 * basic block `id`.  The counted object does it inline, with no call
 * (stream_ir.c writes these steps into its IR, reading the running
 * counter at the offsets below); this function is the same steps, for
 * the tests and as their statement. */
void mcm_stream_block(uint32_t id);

/* The counter whose thread runs now on this host thread (NULL outside a
 * step: the setup and check of a program count nothing).  Exported, so
 * that the counted object reads it inline (initial-exec TLS: mcmsim's
 * own, in the static block). */
extern _Thread_local stream_counter *mcm_stream_running;

/* The byte offsets of what mcm_stream_block reads and changes: in the
 * counter, its basic blocks' passes (an array of STREAM_PASS_WORDS
 * uint32_t a block), their number, the running thread's number in the
 * warp plus one, its last block plus one, its global reads in its pass
 * through that block, the blocks the warp passed and their number; in a
 * block's passes (uint32_t words), the thread they are of, its passes and
 * back edges, the warp's most of each.  stream.c asserts them. */
enum { STREAM_AT_PASSES = 0, STREAM_AT_BLOCKS = 8, STREAM_AT_THREAD = 12, STREAM_AT_LAST = 16,
       STREAM_AT_READS_IN_PASS = 20, STREAM_AT_TOUCHED = 24, STREAM_AT_N_TOUCHED = 32, STREAM_AT_TABLE = 40 };
enum { STREAM_PASS_THREAD, STREAM_PASS_PASS, STREAM_PASS_BACK, STREAM_PASS_MOST, STREAM_PASS_MOST_BACK,
       STREAM_PASS_WORDS };

/* The running thread makes a global read: its site, the warp
 * instruction it is a lane of (the caches make a read round of one site:
 * cache.h).  A site names the counted basic block the read is in, the
 * thread's pass through it and the read's index in that pass (the same
 * point of the code in the same loop pass: one instruction of the warp),
 * in the bits STREAM_SITE_* below; its block field is 0 for a read outside
 * a counted block or with no counter (a site unknown).  Bit
 * STREAM_SITE_CHAIN is 1 if the read is a link of a chain of its block's
 * code (the table's chain_reads; a read past a block's 32nd, a read
 * outside a counted block, or a table without them: 1).  The caches then
 * count the level its load waited for among the chains' (cache.h,
 * cache_note_chain).  Fields past their bits wrap (2^24 blocks or passes,
 * 2^15 reads a pass): two reads of one lane then share a site, and the
 * caches keep that warp's rounds by each lane's k-th read.
 * Inline (exec mode calls it at every global read where the caches and
 * the stream are counted): it reads the running counter at the offsets
 * above, STREAM_AT_TABLE its table. */
#define STREAM_SITE_CHAIN 1ull
#define STREAM_SITE_READ_SHIFT 1
#define STREAM_SITE_PASS_SHIFT 16
#define STREAM_SITE_BLOCK_SHIFT 40

static inline uint64_t stream_read_site(void)
{
    char *c = (char *)mcm_stream_running;
    if (!c)
        return STREAM_SITE_CHAIN;
    uint32_t last = *(uint32_t *)(c + STREAM_AT_LAST);
    if (last == 0)
        return STREAM_SITE_CHAIN;
    uint32_t k = (*(uint32_t *)(c + STREAM_AT_READS_IN_PASS))++;
    const uint32_t *chain_reads = (*(const stream_table **)(c + STREAM_AT_TABLE))->chain_reads;
    const uint32_t *passes; /* a block_passes *, its words read as uint32_t: the pointer copied, not punned */
    memcpy(&passes, c + STREAM_AT_PASSES, sizeof passes);
    uint64_t chain = !chain_reads || k >= 32 || (chain_reads[last - 1] >> k & 1);
    uint32_t pass = passes[(size_t)(last - 1) * STREAM_PASS_WORDS + STREAM_PASS_PASS];
    return (uint64_t)last << STREAM_SITE_BLOCK_SHIFT | (uint64_t)(pass & 0xffffff) << STREAM_SITE_PASS_SHIFT |
           (uint64_t)(k & 0x7fff) << STREAM_SITE_READ_SHIFT | chain;
}

#endif
