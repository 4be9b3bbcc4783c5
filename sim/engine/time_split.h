/*
 * time_split.h — where a run's time goes: T split into parts that sum to T.
 *
 * A run keeps P SMs for T cycles: P·T SM-cycles.  Each SM-cycle is in
 * exactly one part, by what the SM did in it:
 *
 *   compute     a block of the SM computes (S(B) on the pure MCM; with
 *               the card's classes and lanes, its compute cycles)
 *   memory      a block moves its words (U per word: global memory on the
 *               MCM, the L2 on a card)
 *   dram        the same, for a kernel beyond the L2 (u_dram and its kin)
 *   contention  a block's transfer waits for the memory: under `exclusive`
 *               while another block's transfer is served, under `shared`
 *               the share of the SM's port the channel holds back
 *   latency     a block waits for its first word (read_latency)
 *   dispatch    a block waits for its dispatch (block_dispatch)
 *   retire      the SM retires a block that has ended (block_retire)
 *   launch      the SM holds no block while a kernel launch, or a graph's
 *               start, is pending (launch_latency and its kin)
 *   idle        the SM holds no block otherwise: no ready block (a
 *               kernel too narrow for P SMs, the tail of a kernel, a
 *               DAG's wait)
 *
 * With several resident blocks on an SM (blocks_per_sm > 1) an SM-cycle
 * still counts once, in the first part of that list that one of its
 * blocks is in: compute if any block computes, else memory if any moves
 * words (the part of the port the words fill; the rest is contention),
 * else latency, dispatch, retire.  So memory hidden behind another block's
 * compute counts as compute: what is left is what the SM waited for.
 *
 * sim_result.time_split[part] is the part's SM-cycles over P, in cycles:
 * the parts sum to T (run.c checks it on every run, as an internal error).
 * The engine keeps it with the block scheduler; the tests' SimGrid
 * reference (machine.sharing_by_simgrid) does not, and leaves it at 0.
 */
#ifndef MCM_TIME_SPLIT_H
#define MCM_TIME_SPLIT_H

typedef enum {
    SPLIT_COMPUTE,
    SPLIT_MEMORY,
    SPLIT_DRAM,
    SPLIT_CONTENTION,
    SPLIT_LATENCY,
    SPLIT_DISPATCH,
    SPLIT_RETIRE,
    SPLIT_LAUNCH,
    SPLIT_IDLE,
    SPLIT_PARTS
} split_part;

/* "compute", "memory", "dram", ...: the keys of --format json's
 * "time_split" object. */
extern const char *const split_keys[SPLIT_PARTS];

/* What each part is, for a picture's legend: "compute", "memory",
 * "memory (DRAM)", ... */
extern const char *const split_labels[SPLIT_PARTS];

#endif
