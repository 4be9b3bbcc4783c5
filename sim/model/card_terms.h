/*
 * card_terms.h — what a block costs on a card (sim/README.md, "Card
 * terms"): its compute time from its operation classes or its instruction
 * stream, its transfers by sector or by the caches' levels, the L2 and
 * DRAM's rates, its first word's latency, the blocks an SM holds.  Every
 * term is a machine key, off (0) by default: on the pure MCM each function
 * gives the model's figure (S(B), O(B), U), so the closed forms and the
 * bounds never see them.
 *
 * A block's compute time, from the classes of kernel_dag.h:
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
 *
 * The instruction stream (sim/exec/stream.h; the machine's issue_rate > 0 and a
 * block that exec mode counted, `stream` = 1) takes the place of the
 * classes' counts by those of the compiled code, warp by warp:
 *   span cycles = Σ_c stream_span[c]·cycles_c + stream_issued·
 *                 stream_issue_cycles + stream_issued_mulmod·
 *                 cycles_mulmod_independent + stream_branches·
 *                 cycles_branch + stream_predicates·cycles_predicate
 *                 (a comparison a conditional branch waits for; a plain
 *                 link where the machine lacks it) + stream_mulmod_beside·
 *                 stream_beside_mulmod_cycles (the products in flight
 *                 beside the chains' own) + stream_divisions·
 *                 stream_divide_extra_cycles (a division by a runtime
 *                 number at cycles_divide, cycles_divide32, in place of
 *                 its plain links, where the machine has them), the
 *                 plain links at
 *                 cycles_issue (cycles_plain when 0): a warp alone waits,
 *                 in each basic block it passes, for the longest chain of
 *                 instructions each of which needs the one before it (a
 *                 Z/pZ multiplication on it its whole latency), and issues
 *                 the independent ones beside it; where a block's
 *                 instructions at the warp's own issue (its products at
 *                 cycles_mulmod_independent) take longer than its chain,
 *                 for them (stream_issued, stream_issued_mulmod); and each global read
 *                 on those chains but the first (the block's read, which
 *                 block_read_latency charges) for a read's latency: a
 *                 warp's load waits for its last sector, so the mean
 *                 over the block's loads that are links of its warps'
 *                 chains (each warp's first read left out, the block's
 *                 read standing for it) of read_latency_l1,
 *                 read_latency_l2 (read_latency where 0) or
 *                 read_latency_dram, that of the level
 *                 the chain waited for: the farthest any of the load's
 *                 sectors came from, or the fill of its line still on
 *                 its way unless an earlier link of the warp's chains
 *                 waited for it (cache_sectors.chain_loads, cache.h;
 *                 the mean over all the block's warp loads where none
 *                 is known a link; read_latency where the block did not
 *                 run through the caches); and each
 *                 taken back edge on the path (a loop's pass after the
 *                 first) waits cycles_branch
 *                 beyond its predicate's chain; a Z/pZ multiplication
 *                 on the path waits, where the machine has schedulers
 *                 and cycles_mulmod_warps2, the latency measured with as
 *                 many warps on its scheduler as the block puts there, w
 *                 (the k below): cycles_mulmod for w = 1,
 *                 cycles_mulmod_warps2 for 2, cycles_mulmod_warps4 for 4
 *                 (the straight line between for 3; warps2 where warps4
 *                 is not measured), and beyond 4 the pipe's rate,
 *                 cycles_mulmod_warps4·w/4; and a plain link likewise
 *                 cycles_issue_warps2, _warps4, _warps8 for 2, 4, 8
 *                 (the straight line between; beyond 8 the issue's rate,
 *                 cycles_issue_warps8·w/8): the k warps of the same code
 *                 in step take turns at the scheduler's issue slot and
 *                 pipes (validate/notes/profiles/scheduler-share.py, a
 *                 list schedule of the SASS, gives these rows to 2.5 %
 *                 but 8 a scheduler's additions, +6 to +7 %);
 *   work cycles = max(stream_work/issue_rate, work_ops[mulmod]/lanes_mulmod,
 *                 work_ops[addmod]/lanes_addmod, banks, line_words·u_l1·
 *                 l1_wavefronts): the SM issues at most issue_rate warp
 *                 instructions a cycle, and no pipe goes faster than its
 *                 own rate, the L1's data path among them (a block that
 *                 ran through the caches; its reads then leave the L1's
 *                 wavefronts out, block_transfer_cycles).
 * A block not counted (the built-in case studies, a run file's kernels)
 * keeps the rule above.  With issue_rate = 0 the stream is never read.
 *
 * The span above is one warp's path alone on its scheduler.  A block alone
 * on its SM spreads its warps over the SM's `schedulers` (a machine key;
 * 0: off), k = ⌈⌈ℓ/warp⌉/schedulers⌉ on each, and the k warps of a
 * scheduler share its issue slots and its multiply-add pipe: where a
 * warp's passes are bound by its issue, an instruction of it waits
 *   max(stream_issue_cycles, k·schedulers/issue_rate)
 * and a Z/pZ product
 *   max(cycles_mulmod_independent, k·schedulers·warp/lanes_mulmod),
 * the scheduler's share of the SM's measured rates taken by all k (each
 * term its own rate when k = 1; with k = 2 on the H100's code machine
 * 2.67 cycles an instruction for 1.41, 60.0 a product for 43.3).  Which
 * passes are bound by their issue is decided at the same k (stream.c): a
 * pass takes the longer of its chain and its instructions, each at the
 * rates of k warps a scheduler.  The blocks that share the SM with it
 * share its work (resident.c); the span is what the block takes alone.
 */
#ifndef MCM_CARD_TERMS_H
#define MCM_CARD_TERMS_H

#include "kernel_dag.h"
#include "machine.h"

/* A warp issues at most one instruction a cycle: each of an SM's four
 * schedulers issues one instruction a cycle, from one of its warps, and a
 * warp stays on its scheduler (NVIDIA's CUDA C++ Programming Guide,
 * "Hardware Multithreading"; the Hopper Tuning Guide).  A fact of the SM,
 * not a fitted constant. */
#define WARP_ISSUE_CYCLES 1.0

/* Cycles between two instructions of one warp alone that do not wait for
 * each other: cycles_issue_independent (measured: issue_interval_one_warp),
 * or WARP_ISSUE_CYCLES where the machine has none. */
double stream_issue_cycles(const machine *m);

/* Cycles of one link of class c of a dependent chain of instructions on
 * machine m: cycles_issue for a plain one (cycles_plain when 0), the
 * class's latency otherwise. */
double stream_link_cycles(const machine *m, op_class c);

/* What a warp whose block puts `sharing` of its warps on its scheduler
 * (block_warps_per_scheduler) waits, as stated above: between two of its
 * instructions that do not wait for each other, for a Z/pZ product of its
 * issue-bound passes, and for one link of class c of a dependent chain.
 * With sharing = 1, stream_issue_cycles, cycles_mulmod_independent and
 * stream_link_cycles: a warp alone on its scheduler. */
double stream_shared_issue_cycles(const machine *m, int sharing);
double stream_shared_mulmod_cycles(const machine *m, int sharing);
double stream_shared_link_cycles(const machine *m, op_class c, int sharing);

/* What a Z/pZ product in flight beside a chain's product (stream.h,
 * STREAM_CHAIN_BESIDE) adds to the chain's, with `sharing` warps of the
 * block a scheduler: one more dependent chain of products on the
 * scheduler, the product link's latency with 2·sharing chains there less
 * that with sharing (cycles_mulmod_warps2 − cycles_mulmod alone, 17.6
 * cycles on the H100; cycles_mulmod_warps4 − cycles_mulmod_warps2 at 2
 * warps a scheduler, 45.1: the rows measure warps of one chain each, the
 * pipe's load the same); 0 where the machine has not measured them. */
double stream_beside_mulmod_cycles(const machine *m, double sharing);

/* What a division by a runtime number on a chain (block_cost's
 * stream_divisions; divide32: of 32-bit operands), weighed `links` plain
 * links (block_cost's stream_division_links), adds to them: where the
 * machine has cycles_divide (cycles_divide32), that latency less the
 * links at a warp alone on its scheduler (both measured so); else 0, the
 * links standing for it.  The same at every sharing: warps beside it slow
 * the division's instructions as they slow any links (their shared cost
 * is charged beside this), never below the division's measured latency.
 * Not in the choice of a block's chain: that is made at nominal weights
 * where a division weighs its links (sim/exec/stream_ir_chain.c), so a
 * chain through a division shorter than a rival by less than this (about
 * 57 cycles long, 29 of 32 bits on the H200) is not the one charged. */
double stream_divide_extra_cycles(const machine *m, int divide32, double links);

/* The card's compute time of a block (cycles), as stated above: S(B) when
 * the machine has no class cost and no lanes. */
double block_compute_cycles(const block_cost *c, const machine *m);
/* Its two parts: along the span, and the work spread over the lanes. */
double block_span_cycles(const block_cost *c, const machine *m);
double block_work_cycles(const block_cost *c, const machine *m);

/* 1 when the block's reads move while it computes: the machine charges
 * its instruction stream, of which its loads are instructions, and serves
 * global memory to each block apart (policy `parallel`).  Its warps issue
 * their instructions while the SM's port brings the sectors their loads
 * asked for, as the card does (the stencil's profile: its warps' five
 * loads issued among their instructions, the wait for them at the first
 * use of a value loaded, validate/notes/instruction-stream.md, "Reads
 * beside the issue").  Such a block is charged its reads and its work
 * side by side, each on its own resource, and along its path its span
 * after its reads: alone it computes for
 *   max(read + span, work)
 * cycles once its first word has come (block_compute_after_reads), where
 * a block that reads first computes for read + max(span, work).  Blocks
 * not counted, and every machine without issue_rate, keep the latter. */
int block_reads_beside_compute(const block_cost *c, const machine *m);
/* The cycles such a block computes after its reads, alone: max(span,
 * work − read), so that read + it = max(read + span, work). */
double block_compute_after_reads(double span, double work, double read);

/* Warps of a block of `threads` threads on each scheduler of an SM that
 * holds it alone: ⌈⌈threads/warp⌉/schedulers⌉, or 1 when the machine has
 * no schedulers key. */
int block_warps_per_scheduler(int threads, const machine *m);
/* The compute time and the span of a block whose warps share their
 * schedulers `sharing` to one (block_warps_per_scheduler); sharing = 1
 * gives block_compute_cycles and block_span_cycles. */
double block_compute_cycles_shared(const block_cost *c, const machine *m, int sharing);
double block_span_cycles_shared(const block_cost *c, const machine *m, int sharing);
/* A block's span while `blocks` blocks of `threads` threads (itself among
 * them) compute on its SM: block_span_cycles_shared at its own warps a
 * scheduler, but each link of its chains waits the latency measured with
 * the warps a scheduler there together (cycles_mulmod_warpsN,
 * cycles_issue_warpsN: the pipes shared): its own, and each other block's
 * own times the share of its span those warps spend issuing (all but the
 * waits for its global reads after the first and at its barriers, where
 * they leave the pipes to the others), counted up to the most a row
 * measures (SHARED_WARPS_MEASURED, cycles_issue_warps8; past it a link's
 * latency is the scheduler's issue rate, which the SM's share of
 * issue_rate already charges the blocks), or its own where those are
 * more.  Its independent instructions' issue stays its own warps' (the
 * SM's share of issue_rate among the blocks charges theirs).  One block:
 * block_span_cycles_shared's own. */
#define SHARED_WARPS_MEASURED 8
double block_span_cycles_resident(const block_cost *c, const machine *m, int threads, int blocks);

/* Blocks of kernel k one SM may hold at once on machine m: blocks_per_sm,
 * at most threads_per_sm/ℓ (when threads_per_sm > 0) and Z/(private words
 * of a block), at least 1. */
int kernel_resident_blocks(const kernel *k, const machine *m);

/* 1 when the machine has an L2 (l2_words > 0) and kernel k's working set,
 * blocks·ℓ·(words per thread, read and written), exceeds it; else 0. */
int kernel_beyond_l2(const kernel *k, const machine *m);

/* Who writes a launch's words into the L2 at once (kernel_l2_writers):
 * the SMs its blocks cover and the warps each of them holds of it. */
typedef struct {
    double sms;   /* SMs writing at once */
    double warps; /* warps an SM holds of the launch; 0: not known (its own rate is the port's) */
} l2_writers;

/* The writers of kernel k on machine m: its blocks cover min(blocks, p)
 * SMs (the card places a launch's blocks on distinct SMs first), each
 * holding min(kernel_resident_blocks, ⌈blocks / p⌉) blocks of ⌈ℓ / warp⌉
 * warps (warps 0 where the machine has no warp). */
l2_writers kernel_l2_writers(const kernel *k, const machine *m);

/* The writers of a launch on every SM, their warps not known: what
 * block_transfer_cycles takes. */
l2_writers every_sm_writing(const machine *m);

/* The number of warps an SM writes with in the row u_l2_write_warps4
 * comes from (constants.cu, gmem_write_l2_sms8_warps4). */
#define WRITE_WARPS_MEASURED 4

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

/* The same for a block of kernel k with costs c: on a machine with caches
 * (machine_caches) and a block that ran through them, the latency of the
 * level its first read round waited for (read_latency_l1, read_latency,
 * read_latency_dram or, when 0, read_latency: the L2's is read_latency,
 * not read_latency_l2, as graph_launch_latency's touch block takes it);
 * else kernel_read_latency. */
double block_read_latency(const kernel *k, const block_cost *c, const machine *m);

/* A block's global-memory cycles on machine m at u cycles per word: the
 * MCM's rule (kernel_dag.h, cost_read_cycles), or,
 * when m->sector_words > 0 (a card), every word of every thread at u and
 * an uncoalesced word a whole sector: u·ℓ·(coalesced + sector_words ·
 * uncoalesced words per thread).  `write`: 0 the reads, 1 the writes.
 * On a machine with caches, a block that ran through them pays instead
 * for its sectors where they were served (u is not read), each at the
 * rate of the farthest level it crossed:
 *   reads   line_words·u_l1 a wavefront the L1 served, sector_words·U a
 *           sector the L2 served, sector_words·D a sector from DRAM; but
 *           no less, at each of the L2 and DRAM, than u_l2_request or
 *           u_dram_request for each line a round asked of it;
 *   writes  sector_words·w a sector written into the L2, and for each
 *           dirty sector its accesses evicted to DRAM the rest of DRAM's
 *           rate, sector_words·max(0, D − w), or
 *           sector_words·max(0, u_dram_partial − w') for a partial one;
 *           a sector a write held in part (some of its words) costs
 *           sector_words·w' where w' is w·max(1, u_l2_partial / W1):
 *           the L2's rate of such sectors (every SM) over its rate of
 *           whole ones, W1 = u_l2_write (else U); w where the machine
 *           lacks u_l2_partial;
 *           w is W_k, or, where the machine has u_l2_write and u_l2_copy
 *           (the L2's rates of words written alone and copied, every SM),
 *           max(u_l2_copy − U, W_k − R / W): a written word's
 *           share of the SM's port beside the reads, but W words written
 *           no faster than W_k each, less what the block's reads
 *           from the L2 and DRAM take (R cycles), which they overlap;
 *           W_k is the rate of a word written into the L2 with k SMs
 *           writing at once (`writers`, kernel_l2_writers): where the
 *           machine has u_l2_write_sm and u_l2_write, max(O, u_l2_write ·
 *           k / p), the card's rate shared by the SMs writing, an SM no
 *           faster than its own, O; else U without the write rule and
 *           u_l2_write with it (every launch as the whole card); O, an
 *           SM's own rate with its v warps, is max(u_l2_write_sm,
 *           u_l2_write_warps4 · 4 / v): its port's, or its warps' (a
 *           warp's stores of 32 words each wait their turn), where the
 *           machine has u_l2_write_warps4 and v is known, else
 *           u_l2_write_sm; under the write rule, u_l2_copy is C_k where
 *           the machine has u_l2_copy_sm: max(u_l2_copy_sm, u_l2_copy · k
 *           / p), a copy's rate by the SMs copying as W_k is the write's;
 * D is u_dram_mixed (when > 0) for a block whose DRAM traffic both reads
 * and writes back, else u_dram.  A sector read from DRAM thus costs D in
 * all, a sector written and later written back D too (or w, the larger)
 * when the block that wrote it evicts it (a block pays its own w, another
 * block's eviction D less that block's w),
 * a word written alone into the L2 u_l2_write and a word copied within it
 * u_l2_copy, which are the microbenchmarks' streams
 * (validate/notes/cache-hierarchy.md).  Where the
 * machine charges the block's instruction stream (issue_rate > 0), the
 * L1's wavefronts leave the reads and join the work as a pipe of their
 * own (block_work_cycles): the loads that make them are instructions the
 * stream counts, and the L1 serves them while the SM issues the rest. */
double block_transfer_cycles(const block_cost *c, int threads, const machine *m, double u, int write);

/* The same with `writers` writing at once (block_transfer_cycles takes
 * every_sm_writing). */
double block_transfer_cycles_writing(const block_cost *c, int threads, const machine *m, double u, int write,
                                     l2_writers writers);

/* The cycles of a block's writes left after its compute: `write` (its
 * transfer cycles, above) less write_issue_overlap · min(write, compute),
 * where the block ran through the caches with its reads beside its
 * compute (its instruction stream charged) and the machine has
 * write_issue_overlap; else `write`.  A store leaves the SM at its issue
 * and drains into the L2 while the SM issues the block's other
 * instructions: of a stream of words written among k other instructions a
 * word, the card takes issue + write − overlap · write a word where the
 * issue is the longer (constants.cu, write_issue_k*: write_issue_overlap
 * is that share at k = 64; validate/notes/cache-hierarchy.md, session 44).
 * The rule takes the block's compute as the stores' issue (the model does
 * not place its stores in its stream). */
double block_writes_beside_compute(const block_cost *c, const machine *m, double compute, double write);

/* The cycles a block's words written into the L2 take at its warps' own
 * rate (W_k with O = max(u_l2_write_sm, u_l2_write_warps4 · 4 / v),
 * `writers` holding v; a partial sector as block_transfer_cycles_writing
 * takes it), where the block ran through the caches and the machine has
 * u_l2_write_warps4, u_l2_write_sm and u_l2_write and v is known; else 0.
 * A warp's store waits its turn (a store of 32 words every 73 cycles,
 * constants.cu's gmem_write_l2_sms8_warps{1,2,4}) while the warp goes on
 * issuing: the block's reads, compute and writes together take at least
 * this, a floor beside them, not a cost after them (engine.c,
 * block_times_on). */
double block_own_write_cycles(const block_cost *c, const machine *m, l2_writers writers);

#endif
