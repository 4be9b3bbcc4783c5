/*
 * machine.h — the MCM abstract machine (SPEC §1) and where it comes from.
 *
 * A machine is P streaming multiprocessors, each running one thread-block
 * at a time with a private memory of Z words, and a global memory reached at
 * U cycles per word.  How the global memory serves the requests of
 * different blocks is a policy:
 *   parallel   every SM moves its words on its own (Theorem 1 holds);
 *   exclusive  one block's transfer at a time; simultaneous requests are
 *              served in a seeded random order (thesis line 1442);
 *   shared     each SM moves at most 1/U words per cycle and all transfers
 *              in flight share `bandwidth` words per cycle fairly (default
 *              P/U, which makes `shared` equal to `parallel`).
 * Settings beyond the papers default to values that keep the pure model.
 *
 * Card terms (sim/README.md, "Card terms"): settings that describe a physical GPU,
 * every one off by default, so that the pure MCM, every closed form and
 * every bound stay exact.
 *   lanes              plain operations an SM issues per cycle (0: no limit);
 *   lanes_mulmod, lanes_addmod, lanes_private
 *                      Z/pZ multiplications, Z/pZ additions/subtractions and
 *                      private-memory accesses an SM completes per cycle
 *                      (0: as `lanes`);
 *   cycles_plain, cycles_mulmod, cycles_addmod, cycles_private, cycles_barrier
 *                      latency of one operation of the class along a thread's
 *                      path, in cycles (default 1: one of S(B)'s operations);
 *     a block's compute then takes max(span cycles, work cycles) (Brent's
 *     principle inside the SM; sim/model/kernel_dag.h, block_compute_cycles);
 *     "on" as soon as one lanes key is > 0 or one cycles key is not 1;
 *   issue_rate         warp instructions an SM issues per cycle (0: off).
 *                      When > 0, a kernel written once (sim/exec/mcm_kernel.h)
 *                      is compiled by clang with its instructions counted
 *                      (sim/exec/stream.h), and each of its blocks computes by
 *                      its instruction stream: its warps' instructions
 *                      over issue_rate, no pipe faster than its lanes,
 *                      and along its path, step by step, its busiest
 *                      warp's instructions at
 *   cycles_issue       cycles each (a warp alone waits for its operands;
 *                      0: cycles_plain), a Z/pZ operation or a private
 *                      access at its class's latency (kernel_dag.h);
 *   cycles_issue_independent  where a basic block's instructions outlast its
 *                      dependent chain: cycles between two of them that do
 *                      not wait for each other, one warp alone (0: one, the
 *                      scheduler's one instruction a cycle);
 *   cycles_mulmod_independent  and a Z/pZ multiplication among them, one
 *                      warp alone, its products not waiting for each other
 *                      (0: its instructions, as the others');
 *   schedulers         the warp schedulers of an SM, its warps spread over
 *                      them (0: a block's span is one warp's alone on its
 *                      scheduler); a block's warps that share one share
 *                      its issue slots and its multiply-add pipe
 *                      (card_terms.h, block_span_cycles_shared);
 *   cycles_mulmod_warps2, cycles_mulmod_warps4  a Z/pZ multiplication on the
 *                      path of a block whose warps put 2 (4) on each of the
 *                      SM's schedulers: its latency with that many warps
 *                      sharing the scheduler's multiply-add pipe (0: off,
 *                      cycles_mulmod; card_terms.h says how between);
 *   cycles_issue_warps2, cycles_issue_warps4, cycles_issue_warps8  a plain
 *                      link on the path of a block whose warps put 2 (4, 8)
 *                      on each of the SM's schedulers: cycles between two
 *                      dependent instructions of a warp with that many
 *                      sharing its scheduler's issue slot and pipes (0: off,
 *                      cycles_issue; card_terms.h says how between); each
 *                      row of these and the two above at most twice the one
 *                      given before it (the warps take turns at worst);
 *   cycles_predicate   a comparison whose predicate a conditional branch
 *                      waits for: cycles from the comparison's issue to the
 *                      branch's, its link on a chain (0: a plain link);
 *   cycles_divide, cycles_divide32  a division (or remainder) by a runtime
 *                      number on a chain, of long operands whose values fit
 *                      32 bits (nvcc's test, then its 32-bit path), and of
 *                      32-bit operands: cycles a division, in place of its
 *                      instructions' plain links (0: off, those links);
 *   cycles_branch      a warp's taken branch back to a basic block before it
 *                      (a loop's back edge): cycles it waits beyond the chain
 *                      of its predicate (the branch a link of it), before the
 *                      target's first instruction issues (0: none);
 *   constant_line_latency  cycles a kernel's start waits for each 128-byte
 *                      line of the card's constant bank its code reads
 *                      (its parameters: the counted build, stream.h) beyond
 *                      the line graph_launch_latency's touch kernel reads
 *                      (the constant caches start cold at every kernel);
 *                      charged once per kernel, with its launch (0: none);
 *   blocks_per_sm      resident blocks per SM (1: the MCM); they share the
 *                      SM's lanes and its port, and one block's transfers
 *                      overlap another's compute; per kernel, at most
 *   threads_per_sm     / ℓ (0: no limit), and at most Z / (private words
 *                      of a block): resident blocks share Z;
 *   issue_by_age       (with blocks_per_sm > 1) 1: an SM serves its resident
 *                      blocks' issue by age, the block that started first
 *                      taking its bound (work/span) or what is left of the
 *                      SM's lanes, then the next, so that its blocks end one
 *                      after another and the last runs alone at its bound
 *                      (0: max-min fairly, every block an equal share, the
 *                      blocks of a wave ending together);
 *   block_retire       (with blocks_per_sm > 1) cycles an SM takes to
 *                      retire a block that has ended before its slot can
 *                      take another; an SM retires one block at a time,
 *                      in the order they end, so once its first blocks
 *                      have ended it takes at most one block every
 *                      block_retire cycles (0: a slot is free at once);
 *   l2_words, u_dram   a kernel whose working set (blocks·ℓ·words per
 *                      thread) exceeds l2_words words moves its words at
 *                      u_dram cycles per word, otherwise at U (0: no cache);
 *   u_dram_unaligned   the same, for a kernel whose warps' words start off
 *                      the 128-byte line (run-file key `aligned = false`;
 *                      0: as u_dram);
 *   u_dram_mixed       the same, for a kernel that reads words and writes
 *                      words (DRAM turns between reading and writing;
 *                      0: as u_dram); u_dram_unaligned comes first;
 *   read_latency, read_latency_dram
 *                      cycles a block that reads global words waits for
 *                      the first (a dependent load's latency): from the
 *                      L2, or from DRAM for a kernel beyond l2_words
 *                      (read_latency_dram 0: as read_latency); a wait that
 *                      holds the block's slot but neither its lanes nor
 *                      its port, so other resident blocks hide it
 *                      (read_latency 0: the MCM, no wait);
 *   sector_words       words of one global-memory sector (0: the MCM's
 *                      transfers).  When > 0 every word a thread moves
 *                      goes through the SM's port: a block of ℓ threads
 *                      moving α coalesced words per thread takes ℓ·α·U
 *                      (the MCM: α·U), and an uncoalesced word takes a
 *                      whole sector, ℓ·α·sector_words·U (the MCM: ℓ·α·U);
 *   l1_words           > 0: the card's caches (sim/exec/cache.h) in exec mode: an
 *                      L1 per SM of l1_words words (the unified array, less
 *                      the shared memory of its resident blocks), the L2 of
 *                      l2_words, DRAM behind; a kernel run in exec mode then
 *                      pays each sector of its warps' accesses at the level
 *                      that served it, in place of the working-set rule
 *                      (0: no caches); with it
 *   line_words         words of a cache line (sector_words divides it, at
 *                      most 32);
 *   u_l1               cycles per word of reads the L1 serves, a line's worth
 *                      (a wavefront) at a time;
 *   read_latency_l1    cycles a block whose first read the L1 serves waits;
 *   read_latency_l2    cycles a link of a warp's chain reading a line the L1
 *                      lacks and the L2 holds waits (0: read_latency,
 *                      whose chase the L1 partly serves; a block's first
 *                      read keeps read_latency, as graph_launch_latency's
 *                      touch block);
 *   u_l2_write         cycles per word an SM writes into the L2, every SM
 *                      writing (0, or u_l2_copy 0: writes at u);
 *   u_l2_write_sm      cycles per word an SM writes into the L2 when few SMs
 *                      write (its own rate); with u_l2_write, an SM of a
 *                      launch whose blocks cover k SMs writes at
 *                      max(u_l2_write_sm, u_l2_write · k / p): the card's
 *                      rate shared by the SMs writing (0: every launch at
 *                      the rate its writes had without it);
 *   u_l2_write_warps4  cycles per word an SM writes into the L2 with 4 warps
 *                      of the launch, few SMs writing; with u_l2_write_sm,
 *                      an SM holding v warps of a launch writes on its own
 *                      at max(u_l2_write_sm, u_l2_write_warps4 · 4 / v):
 *                      its port's rate, or its warps' (0: the port's);
 *   u_l2_copy          cycles per word an SM copies within the L2, each word
 *                      read and written, every SM copying: u_l2_copy − u is
 *                      a written word's share of the SM's port beside its
 *                      reads (0, or u_l2_write 0: writes at u);
 *   u_l2_copy_sm       cycles per word an SM copies within the L2 when few
 *                      SMs copy (its own rate); with u_l2_copy and
 *                      u_l2_write_sm, a launch whose blocks cover k SMs
 *                      takes max(u_l2_copy_sm, u_l2_copy · k / p) in place
 *                      of u_l2_copy (0: u_l2_copy for every launch);
 *   write_issue_overlap  the share (0 to 1) of a block's write cycles its
 *                      compute hides: its stores drain while the SM issues
 *                      its other instructions (0: the writes after the
 *                      compute, as before; with l1_words and an instruction
 *                      stream charged);
 *   u_dram_partial     cycles per word of a sector written back to DRAM with
 *                      only some of its words written (DRAM reads the rest
 *                      first; 0: as a whole sector);
 *   u_l2_partial       cycles per word of a sector written into the L2 with
 *                      only some of its words written, every SM (the L2
 *                      merges the bytes under a mask; 0: as a whole sector);
 *   u_l2_request,      cycles per request (one line of one warp's round) the L2,
 *   u_dram_request     and DRAM, serve at most: a block's reads from each
 *                      level take the longer of its sectors at their rate and
 *                      its requests at this one (0: no limit);
 *   dram_atom_words    words DRAM reads at least: a sector read from DRAM
 *                      brings the rest of its aligned atom of this many
 *                      words into the L2, each sector of it paid as a
 *                      sector from DRAM (0: a sector);
 *   l2_partitions      the L2 is this many partitions of l2_words /
 *                      l2_partitions each, partition k serving the SMs with
 *                      sm mod l2_partitions = k and holding what they read:
 *                      a line SMs of two partitions read is held in both; a
 *                      word written lives in its writer's partition, which
 *                      serves it to the others until it is written back
 *                      (1, the default: one L2);
 *   launch             "stream" (launch_latency per kernel) or "graph"
 *                      (graph_launch_latency per kernel: the program is
 *                      replayed as a CUDA graph; graph_start_latency
 *                      once, before its first kernels);
 *   graph_launch_per_sm with launch = "graph": cycles more per kernel for
 *                      each SM beyond the first that its grid spans,
 *                      min(blocks, p) − 1 (0: the same for any grid).
 * The card-wide channel is the `shared` policy with `bandwidth`.
 *
 * Measured constant (validate/data/CARD/SESSION/constants.csv) -> key:
 *   SM clock                                   -> clock_hz
 *   kernel launch, back to back                -> launch_latency (cycles)
 *   dependent kernel inside a CUDA graph       -> graph_launch_latency
 *   the same, a grid on every SM against one
 *     block, per SM                            -> graph_launch_per_sm
 *   a graph of one kernel, beyond the kernel   -> graph_start_latency
 *   an SM's blocks one after the other, steady -> block_retire
 *   one block per SM at a time, end to end,
 *     less block_retire                        -> block_dispatch
 *   words/cycle per SM, all SMs, from L2       -> u = 1 / (words per cycle)
 *   words/cycle per SM, all SMs, from DRAM     -> u_dram = 1 / (words per cycle)
 *   the same, a read-modify-write off the line -> u_dram_unaligned (when measured)
 *   the same, a copy (words read + written)    -> u_dram_mixed (when measured)
 *   words/cycle, whole card                    -> bandwidth (policy "shared"; one
 *                                                 key: L2 and DRAM not told apart)
 *   L2 size in bytes                           -> l2_words = bytes / 4
 *   sector of 32 bytes (documented, not measured) -> sector_words = 8
 *   line of 128 bytes (documented, not measured)  -> line_words = 32
 *   L1 capacity (a pointer chase, growing)    -> l1_words = bytes / 4
 *   L1 hits, words per SM per cycle           -> u_l1 = 1 / (words per cycle)
 *   L1 hit latency (dependent loads)          -> read_latency_l1
 *   L2 hit latency, whole lines past the L1   -> read_latency_l2
 *   words written into the L2, every SM       -> u_l2_write
 *   words written into the L2, 8 SMs, per SM  -> u_l2_write_sm = 1 / (words per cycle)
 *                                                (with u_l2_write_warps4, u_l2_copy, u_l2_copy_sm: all or none)
 *   the same, 4 warps an SM (blocks of 128)   -> u_l2_write_warps4 = 1 / (words per cycle)
 *   words copied within the L2, every SM      -> u_l2_copy
 *   words copied within the L2, 8 SMs, per SM -> u_l2_copy_sm = 1 / (words per cycle)
 *   partial sectors written beyond the L2     -> u_dram_partial
 *   partial sectors the L2 keeps, every SM    -> u_l2_partial
 *   scattered sectors from DRAM cost as pairs -> dram_atom_words = 16 (64 bytes)
 *   L2 partitions (documented; scattered lines every
 *     SM reads: the L2 keeps half its size)   -> l2_partitions = 2
 *   scattered sectors, a line each, per cycle,
 *     whole card, from the L2, from DRAM       -> u_l2_request, u_dram_request
 *   L2 and DRAM latency (dependent loads)      -> read_latency, read_latency_dram
 *   warp instructions of integer code an SM
 *     issues per cycle, all warps               -> issue_rate (the code's costs)
 *   a dependent instruction of one warp alone  -> cycles_issue
 *   dependent int add, one thread (cycles)     -> cycles_plain
 *   int adds per SM per cycle                  -> lanes
 *   dependent Z/pZ mul (Barrett, zp.h)         -> cycles_mulmod
 *   Z/pZ muls per SM per cycle                 -> lanes_mulmod
 *   dependent Z/pZ add, per SM per cycle       -> cycles_addmod, lanes_addmod
 *   shared-memory access, latency, throughput  -> cycles_private, lanes_private
 *   Z/pZ multiply-adds with shared reads, as     -> private_port = 1 (the banks
 *     fast as without, until the banks are full     beside the arithmetic)
 *   __syncthreads cycles (at the kernels' ℓ)    -> cycles_barrier
 *   max resident blocks per SM (the card's)    -> blocks_per_sm
 *   max resident threads per SM                -> threads_per_sm
 *   shared memory per SM, in 4-byte words      -> z (also the MCM's Z)
 *   resident blocks per SM of a kernel (occupancy API): compare with
 *     kernel_resident_blocks() (registers are not modelled)
 *
 * The same record also describes the two machines of the DMM/UMM chapter
 * (Nakano et al., SPEC §3), chosen by `kind`:
 *   mcm   the MCM above (the default);
 *   dmm   the Discrete Memory Machine: p threads, width w (banks),
 *         latency l; a warp's request costs its largest number of cells
 *         in one bank;
 *   umm   the Unified Memory Machine: the same, but a warp's request costs
 *         its number of address groups.
 * On a dmm/umm machine `p` is the number of threads, `warp` (key `w`) the
 * width and `latency` (key `l`) the latency; the MCM-only settings (policy,
 * bandwidth, launch_latency, order) must keep their defaults, and u, z,
 * clock_hz and seed are ignored.  sim/model/dmm_umm.h runs such machines.
 *
 * `name` and `source` describe the machine: `source` says where a preset's
 * numbers come from (`mcmsim list` shows it; make validate writes it for
 * the card presets).  Every key has its type and its range, stated in the
 * message that refuses a value (machine.c's table).
 *
 * Machines are read from libconfig files (presets live next to this file)
 * or from an inline `machine` group of a run file, and any field can be
 * overridden by name (`--set p=32`).  This module knows nothing of SimGrid
 * except through machine_write_platform().
 */
#ifndef MCM_MACHINE_H
#define MCM_MACHINE_H

#include "config_file.h"

#include <libconfig.h>
#include <stdint.h>
#include <stdio.h>

typedef enum { MEM_PARALLEL, MEM_EXCLUSIVE, MEM_SHARED } memory_policy;
typedef enum { ORDER_FIFO, ORDER_RANDOM } block_order;
typedef enum { KIND_MCM, KIND_DMM, KIND_UMM } machine_kind;
typedef enum { LAUNCH_STREAM, LAUNCH_GRAPH } launch_mode;

typedef struct machine {
    char name[320];        /* as the run file wrote it: a preset, a path, or an inline group */
    char source[256];      /* where its numbers come from (a preset's measurement session), or "" */
    machine_kind kind;     /* mcm (default), dmm or umm */
    int p;                 /* P: streaming multiprocessors (dmm/umm: threads) */
    double u;              /* U: cycles to move one word global <-> private */
    double z;              /* Z: words of private memory per SM */
    memory_policy policy;  /* how global memory serves different blocks */
    double bandwidth;      /* `shared` only: words per cycle; 0 means P/U */
    double launch_latency; /* cycles between a kernel's release and launch */
    double block_dispatch; /* cycles an SM spends taking each block (beyond the papers; 0) */
    double clock_hz;       /* only to print times in seconds */
    block_order order;     /* which ready block an idle SM takes */
    uint64_t seed;         /* seeds `random` order and `exclusive` ties */
    int warp;              /* threads per warp (coalescing; dmm/umm: width w) */
    int latency;           /* dmm/umm: latency l in time units; 0 = not set */
    /* card terms (see above), each off by default */
    double lanes;          /* plain ops per SM per cycle; 0 = no limit */
    double lanes_mulmod, lanes_addmod, lanes_private; /* per SM per cycle; 0 = lanes */
    int private_port;      /* 1: the private memory's banks work beside the arithmetic
                            * (a block's work cycles are the larger of the two, not their
                            * sum); 0 = one pipe for every class */
    double cycles_plain, cycles_mulmod, cycles_addmod, cycles_private, cycles_barrier; /* 1 */
    double issue_rate;     /* warp instructions an SM issues per cycle: > 0 charges a counted
                            * kernel's instruction stream (sim/exec/stream.h); 0 = off */
    double cycles_issue;   /* cycles a warp waits between two dependent instructions; 0 =
                            * cycles_plain */
    double cycles_issue_independent;  /* cycles between two independent instructions of one
                                       * warp alone; 0 = WARP_ISSUE_CYCLES (card_terms.h) */
    double cycles_mulmod_independent; /* cycles a Z/pZ multiplication of one warp alone takes
                                       * beside others it does not wait for; 0 = its
                                       * instructions at cycles_issue_independent */
    double cycles_predicate; /* cycles from a comparison to the conditional branch that waits
                              * for its predicate; 0 = a plain link */
    double cycles_branch;  /* cycles a warp's taken back edge waits beyond its predicate's
                            * chain; 0 = none */
    double cycles_divide, cycles_divide32; /* a division by a runtime number on a chain, long
                            * operands that fit 32 bits, and 32-bit ones; 0 = its
                            * instructions' plain links */
    double constant_line_latency; /* cycles per constant line a kernel reads beyond the
                            * boundary's touch kernel's, once a kernel; 0 = none */
    int schedulers;        /* warp schedulers an SM has; 0 = a block's warps share none */
    double cycles_mulmod_warps2, cycles_mulmod_warps4; /* a dependent Z/pZ multiplication's
                            * latency when 2 (4) warps share its scheduler; 0 = cycles_mulmod */
    double cycles_issue_warps2, cycles_issue_warps4, cycles_issue_warps8; /* a dependent plain
                            * instruction's latency when 2 (4, 8) warps share its scheduler;
                            * 0 = cycles_issue */
    int blocks_per_sm;     /* resident blocks per SM; 1 = the MCM */
    int issue_by_age;      /* 1: an SM's lanes go to its resident blocks oldest first (with
                            * blocks_per_sm > 1); 0 = max-min fairly */
    int threads_per_sm;    /* resident threads per SM (with blocks_per_sm > 1); 0 = no limit */
    double block_retire;   /* cycles an SM takes to retire each block before its slot takes
                            * another, one block at a time (with blocks_per_sm > 1); 0 = none */
    double l2_words;       /* L2 capacity in words; 0 = no cache */
    double u_dram;         /* cycles per word beyond the L2 (needed when l2_words > 0) */
    double u_dram_unaligned; /* the same for a kernel whose warps' words start off the
                              * 128-byte line (kernel.unaligned); 0 = u_dram */
    double u_dram_mixed;     /* the same for a kernel that reads and writes words; 0 = u_dram */
    double sector_words;   /* > 0: U per word of every thread, a scattered word a sector; 0 = the MCM */
    double l1_words;       /* > 0: exec mode runs through the caches (sim/exec/cache.h); 0 = none */
    double line_words;     /* words of a cache line (with l1_words) */
    double u_l1;           /* cycles per word the L1 serves (with l1_words) */
    double read_latency_l1; /* cycles before a block's first word, from the L1 (with l1_words) */
    double read_latency_l2; /* a chain's read from the L2, past the L1 (with l1_words); 0 = read_latency */
    double u_l2_write;     /* cycles per word written into the L2, every SM (with u_l2_copy); 0 = u */
    double u_l2_write_sm;  /* cycles per word an SM writes into the L2, few SMs writing (with u_l2_write); 0 = off */
    double u_l2_write_warps4; /* cycles per word an SM of 4 warps writes into the L2 (with u_l2_write_sm); 0 = off */
    double u_l2_copy;      /* cycles per word copied within the L2, every SM (with u_l2_write); 0 = off */
    double u_l2_copy_sm;   /* cycles per word an SM copies within the L2, few SMs (with u_l2_copy); 0 = off */
    double write_issue_overlap; /* share of a block's write cycles its compute hides (with l1_words); 0 = off */
    double u_dram_partial; /* cycles per word of a partial sector written back; 0 = u_dram */
    double u_l2_partial;   /* cycles per word of a partial sector written into the L2, every SM; 0 = off */
    double dram_atom_words; /* words DRAM reads with a sector (with l1_words); 0 = a sector */
    int l2_partitions;     /* the L2's partitions, each serving SMs sm % l2_partitions (with l1_words) */
    double u_l2_request, u_dram_request; /* cycles per line request the L2, DRAM serve; 0 = no limit */
    double read_latency, read_latency_dram; /* cycles before a block's first word arrives; 0 = the MCM */
    double graph_launch_latency; /* cycles per kernel launched inside a graph */
    double graph_start_latency;  /* cycles before a graph's first kernels, once per run */
    double graph_launch_per_sm;  /* cycles more per kernel in a graph, per SM beyond the first its grid spans */
    launch_mode launch;    /* which launch latency applies: stream (default) or graph */
    int block_by_block;    /* 1: no waves (engine.c), not a run-file key: --block-by-block */
    int sharing_by_simgrid; /* 1: resident blocks, and transfers under `shared`, as SimGrid
                             * activities (engine.c): the reference the tests hold resident.c
                             * to; not a run-file key */
} machine;

/* The abstract default: the `mcm` preset's values. */
void machine_defaults(machine *m);

/* Read the machine fields of a libconfig group; `where` names the place in
 * messages (e.g. "run.cfg:3: machine").  Unknown keys are errors, and so
 * is a field given twice under two of its keys (p and P, w and warp). */
int machine_read_group(machine *m, const config_setting_t *group);

/* Load a machine file (a preset): the defaults, named by the file's path,
 * then the fields of the file's one `machine` group (its `name` wins). */
int machine_load_file(machine *m, const char *path);

/* Full path of the preset called `name` (e.g. "gtx670"), in `out`. */
void machine_preset_path(const char *name, char *out, size_t size);

/* Directory that holds the presets. */
const char *machine_preset_dir(void);

/* Set one field by name from text, as `--set` does.  Returns 1 if `key` is
 * a machine field and was set, 0 if it is not a machine field, -1 on a bad
 * value. */
int machine_set_field(machine *m, const char *key, const char *value);
/* The same, `where` naming the place in messages (e.g. "run.cfg:4: sweep p"). */
int machine_set_field_at(machine *m, const char *key, const char *value, const char *where);

/* The machine keys a config group or `--set` accepts, for messages:
 * "name, kind, p, ..., warp (or w), latency (or l)". */
const char *machine_field_names(void);

/* 1 if `key` is a machine field of numbers, 0 of names (name, source,
 * kind, policy, order, launch), -1 if it is no machine field. */
int machine_field_is_number(const char *key);

/* The field `key` names, by its own key ("p" for "P", "warp" for "w"),
 * or NULL if it is no machine field: two keys set one field when their
 * fields' keys are the same. */
const char *machine_field_key(const char *key);

/* The i-th machine key (0, 1, ...; NULL past the last), for the tests
 * that cover the grammar. */
const char *machine_key(int i);

/* Check the rules every machine obeys (P > 0, U > 0, Z > 0, ...; on a
 * dmm/umm machine p, w, l >= 1 and no MCM-only setting). */
int machine_validate(const machine *m);

/* The `shared` channel's bandwidth in words per cycle (P/U by default). */
double machine_bandwidth(const machine *m);

/* Card terms in force: the class costs and lanes (a block computes for
 * max(span cycles, work cycles) instead of S(B)), and several resident
 * blocks per SM (the engine's card path). */
int machine_card_compute(const machine *m);
int machine_card_residency(const machine *m);
/* The card's caches in exec mode (l1_words > 0; sim/exec/cache.h). */
int machine_caches(const machine *m);

/* The cycles between a kernel's release and its launch: launch_latency,
 * or graph_launch_latency when launch = "graph". */
double machine_launch_latency(const machine *m);
/* The same for a kernel of `blocks` blocks: with launch = "graph", plus
 * graph_launch_per_sm for each SM beyond the first that its grid spans,
 * min(blocks, p) − 1. */
double machine_kernel_launch_latency(const machine *m, long blocks);
/* What a kernel's start waits beyond that for `lines` lines of the
 * constant bank its code reads beyond the touch kernel's: lines ×
 * constant_line_latency. */
double machine_constant_lines_latency(const machine *m, int lines);
/* The cycles before the first kernels of a run may launch, once:
 * graph_start_latency when launch = "graph", else 0. */
double machine_start_latency(const machine *m);

const char *memory_policy_name(memory_policy p);
const char *launch_mode_name(launch_mode l);
const char *block_order_name(block_order o);
const char *machine_kind_name(machine_kind k); /* "mcm", "dmm", "umm" */

/* The one door to SimGrid: write a SimGrid platform (XML) for this machine.
 * It has hosts "sm0".."sm<sm_hosts-1>" (speed 1 op per cycle: one simulated
 * second is one cycle) and "global_memory"; each SM reaches global memory
 * through its own link of 1/U words per cycle and, for `shared`, through the
 * common channel of machine_bandwidth() words per cycle (computed from all P
 * SMs).  One byte of SimGrid traffic stands for one word.  sm_hosts <= P:
 * the engine leaves out SMs that can never be busy. */
int machine_write_platform(const machine *m, int sm_hosts, FILE *out);

#endif
