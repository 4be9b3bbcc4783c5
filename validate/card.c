/*
 * card.c — from measured constants to a card's machine (see card.h).
 *
 * The table below is the whole mapping: each machine key (sim/README.md, "Card
 * terms") and the constant of constants.csv it is read from, with the
 * factor that turns the constant's unit into the key's; then the keys
 * that are facts of the architecture (FACTS), each with its source (a
 * document, or microbenchmarks read once).  A card's machine is these
 * alone over the defaults (card_machine_named).  Cycles are the
 * card's SM cycles at the clock measured in the same session.  Two terms
 * (the block's own delay and the SM's retiring of blocks) may be borrowed
 * from the other card's reference session when a session predates their
 * microbenchmark; the preset then says so beside the value.  Two
 * (u_dram_unaligned, u_dram_mixed) are left off when the session did not
 * measure them; so are the caches of exec mode (l1_words and the keys
 * that come with it: sim/exec/cache.h), all together, unless the session
 * measured every one of their constants.
 *
 * A graph's kernel boundary is read from the chains of touch kernels
 * (constants.cu, graphs of 1 to 32 dependent kernels, timed three ways below): the
 * chain of one block gives graph_launch_latency, less what the engine
 * charges that block, so that the machine reproduces the chain's cost per
 * kernel; the chain of a block on every SM gives graph_launch_per_sm, its
 * excess over the first spread over the SMs beyond the first
 * (tests/test_card.c simulates both chains on each card's machine).  The
 * code machine charges that block by its compiled code, not as the paper
 * counts it: its boundary is the same chains less what the code's costs
 * charge their blocks, the touch kernel written once (validate/stream/
 * touch.c) run in exec mode on it (card_code_machine).  The code machine
 * without the caches of exec mode has its own boundary, the same chains
 * less what it charges their blocks without them
 * (card_code_machine_without_caches): each code machine a set is
 * simulated on reproduces the chains, and a term of the caches alone (the
 * writers') moves no time the code's costs simulate without them.  The
 * card's machine keeps one boundary, with the caches and without: its
 * block is the paper's count at U, the model without the caches.
 *
 * Where a session has the same two chains timed by the cases' own
 * protocol (constants.cu, measure_protocol_chains: bench_series, a fresh
 * graph each round after the inputs' reset; the rows
 * protocol_cases_touch_1_per_kernel_rK and
 * protocol_cases_touch_card_per_kernel_rK, every repetition K a reading),
 * the boundary is read from those (boundary_chain); else from the same
 * chains replayed with no host step between the replays
 * (protocol_bare_touch_*), else from the replayed chains.  The replayed
 * chains' card-wide kernel drifts with the host's step between replays;
 * the bare replays do not, and read as the cases' protocol does on both
 * cards but for the H200's one block of 256 threads, 0.09 us cheaper
 * there alone: the one row of the H200's 256-thread kernels below the
 * line through the others.  Its kernels of 2 to 32 blocks lie 0.07-0.11
 * us above the bare line, both ways, and within 0.05 of the line through
 * the cases' protocol's one-block and card-wide chains (probe-hb7, two
 * processes; the sessions' replayed 4- and 16-block chains alike); on the
 * H100 the two lines are one (card-model.md, "Session 47: the H200's
 * kernel boundary").  The sessions from H100 2026-11-27m and H200
 * 2026-11-27l on have both ways; earlier ones are read from the replayed
 * chains.
 *
 * A constant is the mean of every reading of it in the session: the
 * phases of constants.csv, and graph-start.csv where the session has it
 * (run-all.sh reads a graph's start again before each case: one process
 * reads it in one of two modes, about 0.6 µs apart, and a case's process
 * meets the same draw, so the mean over many processes is what a case
 * meets on average).
 */
#include "card.h"
#include "engine.h"
#include "fail.h"
#include "user_program.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* How a key's value follows from its constant. */
typedef enum {
    AS_IS,          /* the same unit */
    MHZ_TO_HZ,      /* MHz -> Hz */
    US_TO_CYCLES,   /* microseconds -> cycles at the measured clock */
    NS_TO_CYCLES,   /* nanoseconds -> cycles */
    BYTES_TO_WORDS, /* bytes -> 4-byte words */
    US_TO_CYCLES_LESS_TOUCH_BLOCK, /* microseconds -> cycles, less what the model charges a touch block */
    US_PER_SM_BEYOND_ONE_BLOCK,    /* microseconds -> cycles, less chain_touch_block_per_kernel, per SM beyond one */
    NS_TO_CYCLES_LESS_STEADY,  /* nanoseconds -> cycles, less block_dispatch_steady */
    CARD_RATE_TO_U,            /* words per cycle, whole card -> cycles per word per SM */
    SECTOR_RATE_TO_U,          /* sectors per cycle, whole card -> cycles per word of them per SM */
    PER_CYCLE_TO_U,            /* words per cycle per SM -> cycles per word */
    PER_WARP,                  /* per thread -> per warp of 32 */
    US_TO_LOOP_PASS_LESS_CHAIN, /* microseconds a kernel -> cycles a loop pass, less its chain */
} conversion;

/* The loop chain of constants.cu (loop_kernel: `#pragma unroll 1`, 1024
 * passes of x = x·x + j a thread, one block of 256 threads on every SM):
 * its passes, and the links of the longest dependent chain of one pass
 * as the instruction stream counts it (the counter's addition and the
 * branch, plain links, and between them the comparison the branch waits
 * for, at PREDICATE_CYCLES; the IMAD of x·x + j beside them:
 * tests/test_stream.c counts the loop's block). */
#define LOOP_PASSES 1024
#define LOOP_PASS_PLAIN_LINKS 2

/* Cycles from a comparison's issue to the issue of the conditional branch
 * that waits for its predicate, on sm_90: the stall count ptxas gives the
 * pair (its latency table), 13 between an ISETP and the branch or
 * predicated instruction that reads its predicate next (plain division's
 * cubin, 0x4d0, 0x790, 0xbd0, 0xe40; loop_kernel's pass ISETP, IADD3, then
 * 10: 13 in all), where an integer result is read after 4 to 5. */
#define PREDICATE_CYCLES 13

/* The kernel boundary's chains, per kernel: the one-block and the
 * card-wide touch chain timed by the cases' protocol, else replayed with no
 * host step between the replays, else as constants.cu's chains replay them
 * (the header); the first pair a session has both of. */
static const char *const CASES_CHAINS[2] = {"protocol_cases_touch_1_per_kernel",
                                            "protocol_cases_touch_card_per_kernel"};
static const char *const BARE_CHAINS[2] = {"protocol_bare_touch_1_per_kernel",
                                           "protocol_bare_touch_card_per_kernel"};
static const char *const REPLAYED_CHAINS[2] = {"chain_touch_block_per_kernel", "chain_touch_card_per_kernel"};
#define CASES_CHAINS_MEANING                                                                                 \
    "graphs of 5 and 45 dependent touch kernels (one block of 256 threads; one on every SM) timed by the cases' " \
    "protocol (a fresh graph each round, after the inputs' reset), per kernel"
#define BARE_CHAINS_MEANING                                                                                 \
    "graphs of 5 and 45 dependent touch kernels (one block of 256 threads; one on every SM) replayed with no host " \
    "step between the replays, per kernel"

/* What a session that did not measure a term's constant gets. */
typedef enum {
    REFUSED,  /* no machine: the constant is needed */
    BORROWED, /* the other card's reference session's value (card_machine's `other`) */
    OFF,      /* the key left at its default: the term off */
    CACHES,   /* off, with every other CACHES term, unless the session has them all */
    WRITERS,  /* off, with every other WRITERS term, unless the session has them all */
} when_absent;

/* The rows of the WRITERS terms a session before session 48 lacks
 * (constants.cu, measure_write_own): a session with none of them predates
 * the group, and its machine file says nothing of it. */
static const char *const WRITERS_ROWS[] = {"gmem_write_l2_sms8_warps4", "gmem_copy_l2_sms8"};

int card_writers_derived = 0; /* card.h */

typedef struct term {
    const char *key;        /* machine key */
    const char *constant;   /* name in constants.csv */
    conversion how;
    const char *meaning;
    when_absent absent;
} term;

static const term TERMS[] = {
    {"p", "sm_count", AS_IS, "streaming multiprocessors", REFUSED},
    {"clock_hz", "sm_clock_measured", MHZ_TO_HZ, "SM clock under load", REFUSED},
    {"launch_latency", "launch_latency", US_TO_CYCLES, "back-to-back kernel launches from the host, per launch", REFUSED},
    {"graph_start_latency", "graph_start", US_TO_CYCLES,
     "a graph's start beyond its kernels (a graph of one empty kernel minus the per-kernel launch)", REFUSED},
    {"block_dispatch", "block_turnaround", NS_TO_CYCLES_LESS_STEADY,
     "a block's own delay in its slot: one empty block per SM at a time, end to end, less block_retire", BORROWED},
    {"block_retire", "block_dispatch_steady", NS_TO_CYCLES,
     "an SM retiring its blocks one after the other: 256 empty blocks per SM against 64, per block", BORROWED},
    {"graph_launch_latency", "chain_touch_block_per_kernel", US_TO_CYCLES_LESS_TOUCH_BLOCK,
     "graphs of 1 to 32 dependent kernels of one block of 256 threads (one word per thread), timed as the "
     "cases are, per kernel, less what the model charges that block (read_latency, block_dispatch, its "
     "word read and written at u, one plain operation)", REFUSED},
    {"graph_launch_per_sm", "chain_touch_card_per_kernel", US_PER_SM_BEYOND_ONE_BLOCK,
     "the same kernels with one block on every SM, per kernel, less the one block's, per SM beyond the first",
     OFF},
    {"u", "U_l2_all_sms", AS_IS, "cycles per word per SM, all SMs streaming from L2", REFUSED},
    {"u_dram", "U_dram_all_sms", AS_IS, "cycles per word per SM, all SMs streaming from DRAM", REFUSED},
    {"u_dram_unaligned", "gmem_rmw_shift4_card", CARD_RATE_TO_U,
     "cycles per word per SM of a read-modify-write stream whose warps' words start 16 bytes off "
     "the 128-byte line, all SMs, from DRAM", OFF},
    {"u_dram_mixed", "gmem_copy_card", CARD_RATE_TO_U,
     "cycles per word per SM of a copy (each word read once and written once), all SMs, from DRAM", OFF},
    {"l1_words", "l1_bytes", BYTES_TO_WORDS,
     "the caches of exec mode: an SM's L1, the largest footprint a pointer chase still finds there", CACHES},
    {"u_l1", "l1_line_read_per_sm_cycle", PER_CYCLE_TO_U,
     "cycles per word an SM's L1 serves, 32-bit loads of whole lines unrolled so that the issue slots do not "
     "limit them, every SM", CACHES},
    {"read_latency_l1", "l1_load_latency", AS_IS, "a dependent global load served by the L1, one thread", CACHES},
    {"read_latency_l2", "l1_in_flight_line_latency_blocks1", AS_IS,
     "a dependent cached load of a whole line the L1 lacks and the L2 holds, one warp an SM on every SM "
     "(l2_load_latency's one-thread chase over 1 MiB finds part of its words in the L1)", OFF},
    {"u_l2_write", "gmem_write_l2_card", CARD_RATE_TO_U,
     "cycles per word per SM written into the L2 (32-bit words over 8 MiB), all SMs: the caches' writes with "
     "u_l2_copy", OFF},
    /* The writes by their writers (card_terms.h, W_k and C_k), all four or
     * none (WRITERS), and none while card_writers_derived is 0 (card.h:
     * held off, as scored): an SM's own write rate, its port's (one block
     * of 1024 an SM, 8 SMs) and its warps' (one block of 128), the card's
     * copy rate, and an SM's own copy rate (8 SMs).  A session of the rows
     * before session 48 lacks the second and fourth (cache-hierarchy.md,
     * "Session 47: the write rate by the SMs writing" and "Session 48: the
     * write rate by an SM's warps"). */
    {"u_l2_write_sm", "gmem_write_l2_sms8", PER_CYCLE_TO_U,
     "cycles per word an SM writes into the L2 (32-bit words over 8 MiB), one block of 1024 threads an SM on 8 "
     "SMs: its own rate, its port's", WRITERS},
    {"u_l2_write_warps4", "gmem_write_l2_sms8_warps4", PER_CYCLE_TO_U,
     "the same with one block of 128 threads an SM (4 warps): its own rate, its warps'", WRITERS},
    {"u_l2_copy", "gmem_copy_l2_card", CARD_RATE_TO_U,
     "cycles per word per SM copied within the L2 (4 MiB into another 4 MiB, each word read once and written "
     "once), 8 blocks of 256 threads an SM, all SMs", WRITERS},
    {"u_l2_copy_sm", "gmem_copy_l2_sms8", PER_CYCLE_TO_U,
     "cycles per word an SM copies within the L2, one block of 1024 threads an SM on 8 SMs: its own rate",
     WRITERS},
    {"u_l2_partial", "gmem_partial_write_l2_card", SECTOR_RATE_TO_U,
     "cycles per word per SM of sectors written one word each into the L2 (8 MiB, 64 passes: the L2 keeps "
     "them), all SMs: a sector a write holds in part costs u_l2_partial / u_l2_write times a whole one", OFF},
    {"u_dram_partial", "gmem_partial_write_card", SECTOR_RATE_TO_U,
     "cycles per word per SM of sectors written one word each and written back to DRAM, all SMs", CACHES},
    {"u_l2_request", "gmem_random_sector_read_cached_16m_card", CARD_RATE_TO_U,
     "cycles per request per SM the L2 serves at most: one sector of each of 32 lines a warp's round, cached "
     "loads as exec mode's, in a scattered order over 16 MiB (the L2 serves 99.5 % of them, the L1s 3 %: over "
     "8 MiB the L1s serve 43 %), all SMs", OFF},
    {"u_dram_request", "gmem_random_sector_read_card", CARD_RATE_TO_U,
     "cycles per request per SM DRAM serves at most: one sector of each of 32 lines a warp's round, in a "
     "scattered order over 1 GiB, all SMs", OFF},
    {"l2_words", "l2_bytes", BYTES_TO_WORDS, "L2 cache size", REFUSED},
    {"read_latency", "l2_load_latency", AS_IS, "a dependent global load served by the L2, one thread", REFUSED},
    {"read_latency_dram", "dram_load_latency", AS_IS, "a dependent global load over 256 MiB (mostly DRAM), one thread", REFUSED},
    {"cycles_plain", "op_latency", AS_IS, "a dependent 32-bit integer addition in one thread", REFUSED},
    {"lanes", "op_per_sm_cycle", AS_IS, "32-bit integer additions an SM completes per cycle", REFUSED},
    {"cycles_mulmod", "mulmod_latency", AS_IS, "a dependent Z/pZ multiplication in one thread", REFUSED},
    {"lanes_mulmod", "mulmod_per_sm_cycle", AS_IS, "Z/pZ multiplications an SM completes per cycle", REFUSED},
    {"cycles_addmod", "addmod_latency", AS_IS, "a dependent Z/pZ addition in one thread", REFUSED},
    {"lanes_addmod", "addmod_per_sm_cycle", AS_IS, "Z/pZ additions an SM completes per cycle", REFUSED},
    {"cycles_private", "shared_latency", AS_IS, "a dependent shared-memory load in one thread", REFUSED},
    {"lanes_private", "shared_per_sm_cycle", AS_IS, "shared-memory words an SM serves per cycle", REFUSED},
    {"cycles_barrier", "syncthreads_l256", AS_IS, "a __syncthreads of a block of 256 threads", REFUSED},
    {"threads_per_sm", "max_threads_per_sm", AS_IS, "threads an SM holds at once (device.txt)", REFUSED},
    {"blocks_per_sm", "max_blocks_per_sm", AS_IS, "blocks an SM holds at once: the most occupancy.csv reports", REFUSED},
};
#define N_TERMS (int)(sizeof TERMS / sizeof TERMS[0])

/* The instruction stream's terms (sim/exec/stream.h): the code's costs.  Only
 * the card's code machine has them (card_code_machine, the -code presets);
 * the card's machine keeps the costs the worksheets count. */
static const term CODE_TERMS[] = {
    {"issue_rate", "op_per_sm_cycle", PER_WARP,
     "warp instructions an SM issues per cycle: 32-bit additions (one SASS instruction each, over the integer "
     "and the multiply-add pipes), every SM full, per 32 threads", REFUSED},
    {"cycles_issue", "issue_latency_warps1", AS_IS,
     "cycles between two dependent instructions of one warp alone on its SM", OFF},
    {"cycles_issue_independent", "issue_interval_one_warp", AS_IS,
     "cycles between two instructions of one warp alone on its SM that do not wait for each other: 4 "
     "independent chains of additions a thread", OFF},
    {"cycles_mulmod_independent", "mulmod_interval_one_warp", AS_IS,
     "cycles a Z/pZ multiplication of one warp alone on its SM, 4 independent chains of them a thread (its "
     "scheduler's multiply-add pipe)", OFF},
    {"cycles_branch", "chain_loop_card_per_kernel", US_TO_LOOP_PASS_LESS_CHAIN,
     "graphs of 1 to 32 kernels of a loop of 1024 passes x = x*x + j a thread (#pragma unroll 1), one block "
     "of 256 threads on every SM, per kernel less chain_touch_card_per_kernel, per pass, less the pass's chain "
     "as the stream charges it (the counter's addition and the branch at issue_latency_warps1, the comparison "
     "between them at cycles_predicate): a taken back edge's wait",
     OFF},
    {"cycles_divide", "sdiv64_fits32_latency", AS_IS,
     "a division by a runtime number of long operands whose values fit 32 bits (the stencil's g / n: nvcc's "
     "test, then its 32-bit path, I2F.U32.RP, MUFU.RCP, F2I), a dependent chain in one thread, the divisor the "
     "chain's value: cycles a division", OFF},
    {"cycles_divide32", "udiv32_latency", AS_IS,
     "the same of 32-bit unsigned operands (plain multiplication's index / width)", OFF},
    {"cycles_mulmod_warps2", "mulmod_latency_warps8", AS_IS,
     "a dependent chain of Z/pZ multiplications a thread, 8 warps per SM (2 a scheduler): cycles a "
     "multiplication, the scheduler's multiply-add pipe shared by its warps", OFF},
    {"cycles_mulmod_warps4", "mulmod_latency_warps16", AS_IS,
     "the same, 16 warps per SM (4 a scheduler)", OFF},
    {"cycles_issue_warps2", "issue_latency_warps8", AS_IS,
     "8 warps per SM (2 a scheduler), each one dependent chain of additions: cycles between two instructions "
     "of one warp, the scheduler's issue slot and pipes shared by its warps", OFF},
    {"cycles_issue_warps4", "issue_latency_warps16", AS_IS, "the same, 16 warps per SM (4 a scheduler)", OFF},
    {"cycles_issue_warps8", "issue_latency_warps32", AS_IS, "the same, 32 warps per SM (8 a scheduler)", OFF},
    /* write_issue_overlap is not derived from constants.cu's row of that
     * name (measured in the full run): with it (and u_l2_copy) the cases
     * whose writes the caches charged at U get better, but radix sort (set
     * b) and plain multiplication (set c) go further below the card than
     * without the caches (cache-hierarchy.md, "Session 44: what a written
     * word costs a kernel that issues while its stores drain").  A probe
     * sets it with --set write_issue_overlap=. */
    {"constant_line_latency", "constant_cache_first_line_per_kernel", NS_TO_CYCLES,
     "graphs of 1 to 32 dependent kernels of one block (the touch kernel's work, each passed a 3840-byte "
     "argument), per kernel: those whose index first adds one word of the argument from a 128-byte line of "
     "the constant bank no other read brings (param1_block) less those that add none (param0_block); what a "
     "kernel's start pays for each line its code reads beyond the touch kernel's, the constant caches cold "
     "at every kernel",
     OFF},
};
#define N_CODE_TERMS (int)(sizeof CODE_TERMS / sizeof CODE_TERMS[0])

/* Keys that are facts of the architecture rather than measurements. */
typedef struct fact {
    const char *key;
    double value;
    const char *source;
} fact;

static const fact FACTS[] = {
    {"z", 58112,
     "an SM's shared memory a block may hold: 227 KiB, 232 448 bytes, 58 112 words of 32 bits (CUDA C++ "
     "Programming Guide, compute capability 9.0: maximum shared memory per thread block); the H200 has the "
     "same SM"},
    {"sector_words", 8,
     "global memory moves 32-byte sectors, 8 words (CUDA C++ Best Practices Guide, coalesced access)"},
    {"line_words", 32,
     "cache lines of 128 bytes, 4 sectors, of which a cache fetches only those that missed (Nsight "
     "Compute's memory tables; the caches of exec mode)"},
    {"dram_atom_words", 16,
     "DRAM reads 64 bytes, two sectors, for a sector the L2 lacks: sectors read in a scattered order cost "
     "what pairs of them cost (gmem_random_sector_read_card 16.1 sectors a cycle, gmem_random_pair_read_card "
     "31.7, H100 2026-11-26d), and Nsight Compute counts 1.78 DRAM sectors per L2 miss of user-gather at "
     "m = 2^24 (validate/notes/profiles/caches-h100-ncu.txt)"},
    {"l2_partitions", 2,
     "the L2 is two partitions, each caching the data the SMs of the GPCs attached to it access (NVIDIA's "
     "A100 and H100 whitepapers); Nsight Compute: scattered sectors whose lines SMs of both read keep 16 MiB "
     "in the L2 (99.7 % hits) but not 32 MiB (59 %), whole lines each SM reads alone keep 32 MiB (DRAM reads "
     "the footprint once), and a stream each SM re-reads alone keeps 48 MiB "
     "(validate/notes/profiles/l2-partitions-h100.txt; gmem_reread_card_*)"},
    {"private_port", 1,
     "shared-memory banks beside the arithmetic: Z/pZ multiply-adds reading shared memory run at "
     "0.97 of their rate from registers until the banks are full (mac_*_per_sm_cycle, H100 "
     "2026-11-25g and h; the H200 has the same SM)"},
};
#define N_FACTS (int)(sizeof FACTS / sizeof FACTS[0])

/* Facts of the architecture only the code's costs use (the card's code
 * machine; card_code_machine). */
static const fact CODE_FACTS[] = {
    {"cycles_predicate", PREDICATE_CYCLES,
     "a comparison a conditional branch waits for: 13 cycles from the ISETP's issue to the branch's, the stall "
     "count ptxas gives the pair for sm_90 (plain division's cubin, 0x4d0, 0x790, 0xbd0, 0xe40; the loop "
     "chain's pass, 0x130-0x160), where an integer result is read after 4 to 5 (issue_latency_warps1); the "
     "H200 has the same SM"},
    {"schedulers", 4,
     "an SM issues from 4 warp schedulers (sub-partitions), each holding its own warps: Nsight Compute counts "
     "each kernel's instructions on 528 = 4 x 132 of them (smsp__inst_executed.sum / .avg, H100 2026-11-26b, "
     "instructions.csv), and 4 warps an SM issue their dependent chains as one alone, 8 barely slower "
     "(issue_latency_warps1 to 8, 2026-11-26e: 5.05 to 5.10 cycles); the H200 has the same SM"},
    {"issue_by_age", 1,
     "an SM serves its resident blocks oldest first: constants.cu's resident-spread rows (K blocks of the "
     "spread kernel on every SM, the cases' arithmetic) end a wave's blocks apart by a spread that grows with "
     "their issue (K = 4: 686 cycles at 4 passes, 2 260 at 16; K = 8: 2 189, 6 928, H100 2026-11-27j), and "
     "their SM's busy time from the first block's first instruction at K = 4 and 8 is the code's costs' by "
     "age within -10 to -1 % (max-min fair: -14 to -33 %) on both cards (H200 2026-11-27i; "
     "instruction-stream.md, \"Session 44: an SM's blocks served by age\")"},
};
#define N_CODE_FACTS (int)(sizeof CODE_FACTS / sizeof CODE_FACTS[0])

/* Set the facts of `table` on machine m. */
static int set_facts(const fact *table, int n, machine *m)
{
    for (int i = 0; i < n; i++) {
        char text[64];
        snprintf(text, sizeof text, "%.17g", table[i].value);
        if (machine_set_field(m, table[i].key, text) <= 0)
            return fail("machine key %s = %s: %s", table[i].key, text, fail_message());
    }
    return 0;
}

/* The lines of the facts of `table`, each with its source. */
static void write_facts(FILE *f, const fact *table, int n)
{
    for (int i = 0; i < n; i++) {
        char setting[64];
        snprintf(setting, sizeof setting, "%s = %g;", table[i].key, table[i].value);
        fprintf(f, "    %-34s # %s\n", setting, table[i].source);
    }
}

/* The readings of one constant: how many, their sum, least and greatest,
 * and the values themselves (the first READINGS_KEPT). */
#define READINGS_KEPT 64
typedef struct readings {
    int count;
    double sum, least, most;
    double value[READINGS_KEPT];
} readings;

/* The value of a row whose name is read up to `rest`: ",VALUE..." (the
 * constant itself) or "_rK,VALUE..." (its K-th repetition in one phase,
 * as constants.cu writes the protocol rows: every repetition is a
 * reading); NULL for another name. */
static const char *repetition_value(const char *rest)
{
    if (rest[0] == '_' && rest[1] == 'r' && isdigit((unsigned char)rest[2])) {
        rest += 2;
        while (isdigit((unsigned char)*rest))
            rest++;
    }
    return *rest == ',' ? rest + 1 : NULL;
}

/* Add the readings of constant `name` in file `file` of session s to r (a
 * file the session lacks adds none). */
static void add_readings(const session *s, const char *file, const char *name, readings *r)
{
    char path[1100], line[1024];
    snprintf(path, sizeof path, "%s/%s", s->dir, file);
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    size_t len = strlen(name);
    while (fgets(line, sizeof line, f)) {
        const char *value = strncmp(line, name, len) == 0 ? repetition_value(line + len) : NULL;
        if (value) {
            double v = atof(value);
            r->least = r->count == 0 || v < r->least ? v : r->least;
            r->most = r->count == 0 || v > r->most ? v : r->most;
            r->sum += v;
            if (r->count < READINGS_KEPT)
                r->value[r->count] = v;
            r->count++;
        }
    }
    fclose(f);
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median of r's kept readings. */
static double readings_median(const readings *r)
{
    int n = r->count < READINGS_KEPT ? r->count : READINGS_KEPT;
    double v[READINGS_KEPT];
    memcpy(v, r->value, (size_t)n * sizeof v[0]);
    qsort(v, (size_t)n, sizeof v[0], by_value);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The bound above which a reading of r is disturbed: DISTURBED_READING
 * times the median of a constant read three times or more, whose median is
 * positive; HUGE_VAL (none is) otherwise. */
static double disturbed_above(const readings *r)
{
    if (r->count < 3 || r->count > READINGS_KEPT)
        return HUGE_VAL;
    double median = readings_median(r);
    return median > 0 ? DISTURBED_READING * median : HUGE_VAL;
}

int card_constant_readings(const session *s, const char *name, double *value, int *left_out)
{
    readings r = {0};
    add_readings(s, "constants.csv", name, &r);
    add_readings(s, "graph-start.csv", name, &r);
    if (r.count == 0)
        return -1;
    double above = disturbed_above(&r), sum = 0;
    int kept = 0;
    for (int i = 0; i < r.count && i < READINGS_KEPT; i++)
        if (r.value[i] <= above) {
            sum += r.value[i];
            kept++;
        }
    if (r.count > READINGS_KEPT) { /* too many to judge (disturbed_above): all of them */
        sum = r.sum;
        kept = r.count;
    }
    *value = sum / kept;
    if (left_out)
        *left_out = r.count - kept;
    return 0;
}

int card_constant(const session *s, const char *name, double *value)
{
    return card_constant_readings(s, name, value, NULL);
}

/* The row of the boundary's one-block chain (card_wide = 0) or card-wide
 * chain (1) in session s, microseconds a kernel: the cases' protocol's
 * where s has both, else the bare replays' where s has both, else the
 * replayed chains'. */
static const char *boundary_chain(const session *s, int card_wide)
{
    double v;
    if (card_constant(s, CASES_CHAINS[0], &v) == 0 && card_constant(s, CASES_CHAINS[1], &v) == 0)
        return CASES_CHAINS[card_wide];
    int bare = card_constant(s, BARE_CHAINS[0], &v) == 0 && card_constant(s, BARE_CHAINS[1], &v) == 0;
    return bare ? BARE_CHAINS[card_wide] : REPLAYED_CHAINS[card_wide];
}

/* What the boundary's chain `name` (boundary_chain) is, in words */
static const char *boundary_chain_meaning(const char *name)
{
    return strcmp(name, CASES_CHAINS[0]) == 0 || strcmp(name, CASES_CHAINS[1]) == 0 ? CASES_CHAINS_MEANING
                                                                                     : BARE_CHAINS_MEANING;
}

/* The row term t reads in session s: the boundary's chain where t is one
 * of the boundary's two terms (boundary_chain), else t's constant. */
static const char *term_constant(const session *s, const term *t)
{
    if (t->how == US_TO_CYCLES_LESS_TOUCH_BLOCK || t->how == US_PER_SM_BEYOND_ONE_BLOCK)
        return boundary_chain(s, t->how == US_PER_SM_BEYOND_ONE_BLOCK);
    return t->constant;
}

/* Is a constant one the host draws, a process at a time (a launch from the
 * host, a graph's start: card-model.md, "A graph's start, one process to
 * the next")? */
static int drawn_by_the_host(const char *constant)
{
    return strcmp(constant, "launch_latency") == 0 || strcmp(constant, "graph_start") == 0;
}

/* The first constant of `table` that s read unsteadily, into why. */
static int table_steady(const session *s, const term *table, int n, char *why, size_t size)
{
    for (int i = 0; i < n; i++) {
        readings r = {0}; /* before and after the cases */
        if (drawn_by_the_host(table[i].constant))
            continue;
        add_readings(s, "constants.csv", table[i].constant, &r);
        if (r.count >= 2 && r.least > 0 && r.most > (1 + STEADY_SPREAD) * r.least) {
            snprintf(why, size, "%s read %.4g and %.4g", table[i].constant, r.least, r.most);
            return 0;
        }
    }
    return 1;
}

int card_session_steady(const session *s, char *why, size_t size)
{
    return table_steady(s, TERMS, N_TERMS, why, size) && table_steady(s, CODE_TERMS, N_CODE_TERMS, why, size);
}

int card_reference(const session *s, int n, char *passed_over, size_t size)
{
    int best = sessions_reference(s, n);
    passed_over[0] = '\0';
    while (best >= 0) {
        char why[256];
        if (card_session_steady(&s[best], why, sizeof why))
            return best;
        size_t used = strlen(passed_over);
        snprintf(passed_over + used, size - used, "%s`%s` (%s)", used ? ", " : "", s[best].name, why);
        best = sessions_reference(s, best);
    }
    return -1;
}

/* Constants a session records outside constants.csv: the threads an SM
 * holds (device.txt, from cudaGetDeviceProperties) and the most blocks of
 * any kernel an SM held (occupancy.csv, from the occupancy API). */
static int other_constant(const session *s, const char *name, double *value)
{
    char path[1100], line[512];
    int from_occupancy = strcmp(name, "max_blocks_per_sm") == 0;
    if (!from_occupancy && strcmp(name, "max_threads_per_sm") != 0)
        return -1;
    snprintf(path, sizeof path, "%s/%s", s->dir, from_occupancy ? "occupancy.csv" : "device.txt");
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    int found = -1;
    double v;
    while (fgets(line, sizeof line, f)) {
        const char *last = strrchr(line, ',');
        if (from_occupancy && last && strncmp(line, "program,", 8) != 0 && (v = atof(last + 1)) > 0) {
            *value = found < 0 ? v : fmax(*value, v);
            found = 0;
        } else if (!from_occupancy && sscanf(line, "max threads per SM: %lf", &v) == 1) {
            *value = v;
            found = 0;
        }
    }
    fclose(f);
    return found;
}

static int term_from(const session *s, const session *other, const term *t, double *out, const session **from);

/* The machine's block_dispatch from session s (or borrowed from `other`,
 * as the block_dispatch term is); -1 when neither has it. */
static int block_dispatch_cycles(const session *s, const session *other, double *out)
{
    const session *from;
    for (int i = 0; i < N_TERMS; i++)
        if (strcmp(TERMS[i].key, "block_dispatch") == 0)
            return term_from(s, other, &TERMS[i], out, &from);
    return -1;
}

/* The value of term t in the key's unit; -1 when the session lacks it.
 * `other`: the session a borrowed term of the machine comes from (or NULL). */
static int term_value(const session *s, const session *other, const term *t, double mhz, double *out)
{
    double c;
    const char *constant = term_constant(s, t);
    if (card_constant(s, constant, &c) < 0 && other_constant(s, constant, &c) < 0)
        return -1;
    switch (t->how) {
    case AS_IS: *out = c; break;
    case MHZ_TO_HZ: *out = c * 1e6; break;
    case US_TO_CYCLES: *out = c * mhz; break;
    case NS_TO_CYCLES: *out = c * mhz / 1e3; break;
    case BYTES_TO_WORDS: *out = floor(c / 4); break;
    case US_TO_CYCLES_LESS_TOUCH_BLOCK: {
        /* the chain's block as the engine charges it alone on its SM: the
         * L2's latency, the block's own delay, 256 words read and 256
         * written at the L2's rate, one addition */
        double l2, dispatch, u, add;
        if (card_constant(s, "l2_load_latency", &l2) < 0 || block_dispatch_cycles(s, other, &dispatch) < 0 ||
            card_constant(s, "U_l2_all_sms", &u) < 0 || card_constant(s, "op_latency", &add) < 0)
            return -1;
        *out = c * mhz - (l2 + dispatch + 2 * 256 * u + add);
        break;
    }
    case US_PER_SM_BEYOND_ONE_BLOCK: {
        double one_block, sms;
        if (card_constant(s, boundary_chain(s, 0), &one_block) < 0 || card_constant(s, "sm_count", &sms) < 0 ||
            !(sms > 1))
            return -1;
        *out = fmax(0, (c - one_block) * mhz / (sms - 1)); /* a grid over more SMs never launches sooner */
        break;
    }
    case PER_WARP: *out = c / 32; break;
    case US_TO_LOOP_PASS_LESS_CHAIN: {
        /* a plain link as the code machine charges it (stream_link_cycles):
         * issue_latency_warps1, or op_latency where not measured */
        double touch, link;
        if (card_constant(s, "chain_touch_card_per_kernel", &touch) < 0 ||
            (card_constant(s, "issue_latency_warps1", &link) < 0 && card_constant(s, "op_latency", &link) < 0))
            return -1;
        *out = fmax(0, (c - touch) * mhz / LOOP_PASSES - LOOP_PASS_PLAIN_LINKS * link - PREDICATE_CYCLES);
        break;
    }
    case CARD_RATE_TO_U:
    case SECTOR_RATE_TO_U: {
        double sms;
        if (card_constant(s, "sm_count", &sms) < 0)
            return -1;
        *out = t->how == CARD_RATE_TO_U ? sms / c : sms / (c * 8); /* a sector: 8 words */
        break;
    }
    case PER_CYCLE_TO_U: *out = 1 / c; break;
    case NS_TO_CYCLES_LESS_STEADY: {
        double steady;
        if (card_constant(s, "block_dispatch_steady", &steady) < 0)
            return -1;
        *out = (c - steady) * mhz / 1e3;
        break;
    }
    }
    return 0;
}

/* Term t from session s, in cycles at its own clock; if s did not measure
 * it and the term may be borrowed, from `other` at other's clock.  *from
 * says which session gave it.  -1 when neither has it. */
static int term_from(const session *s, const session *other, const term *t, double *out, const session **from)
{
    double mhz;
    *from = s;
    if (card_constant(s, "sm_clock_measured", &mhz) == 0 && term_value(s, other, t, mhz, out) == 0)
        return 0;
    *from = other;
    if (t->absent != BORROWED || !other || card_constant(other, "sm_clock_measured", &mhz) < 0)
        return -1;
    return term_value(other, NULL, t, mhz, out);
}

/* The session measured every constant of the `group` terms of `table`. */
static int group_measured(const session *s, const term *table, int n, when_absent group)
{
    double mhz, v;
    if (card_constant(s, "sm_clock_measured", &mhz) < 0 || (group == WRITERS && !card_writers_derived))
        return 0;
    for (int i = 0; i < n; i++)
        if (table[i].absent == group && term_value(s, NULL, &table[i], mhz, &v) < 0)
            return 0;
    return 1;
}

/* The term t is one of a group (CACHES, WRITERS) the session lacks a
 * constant of (caches, writers: group_measured's answers). */
static int group_unmeasured(const term *t, int caches, int writers)
{
    return (t->absent == CACHES && !caches) || (t->absent == WRITERS && !writers);
}

/* The session measured some row only the WRITERS group reads
 * (WRITERS_ROWS). */
static int writers_rows_seen(const session *s)
{
    double v;
    for (size_t i = 0; i < sizeof WRITERS_ROWS / sizeof WRITERS_ROWS[0]; i++)
        if (card_constant(s, WRITERS_ROWS[i], &v) == 0)
            return 1;
    return 0;
}

/* The terms of `table` from session s (other: see term_from) onto *out. */
static int set_terms(const session *s, const session *other, const term *table, int n, machine *out)
{
    int caches = group_measured(s, table, n, CACHES), writers = group_measured(s, table, n, WRITERS);
    for (int i = 0; i < n; i++) {
        double v;
        char text[64];
        const session *from;
        int found = term_from(s, other, &table[i], &v, &from) == 0;
        if (group_unmeasured(&table[i], caches, writers))
            found = 0;
        if (!found && (table[i].absent == OFF || table[i].absent == CACHES || table[i].absent == WRITERS))
            v = 0; /* the term off, whatever the base preset said */
        else if (!found)
            return fail("%s/constants.csv: no %s (needed for the machine key %s: %s)", s->dir,
                        table[i].constant, table[i].key, table[i].meaning);
        snprintf(text, sizeof text, "%.17g", v);
        int rc = machine_set_field(out, table[i].key, text);
        if (rc <= 0)
            return fail("machine key %s = %s: %s", table[i].key, text,
                        rc == 0 ? "not a machine key" : fail_message());
    }
    return 0;
}

/* The touch chain's cycles a kernel on m (graph launches): graphs of 1 and
 * TOUCH_CHAIN kernels of `blocks` blocks of the touch kernel written once
 * (TOUCH_SOURCE), each run in exec mode on m and simulated on it,
 * T(TOUCH_CHAIN) − T(1) over TOUCH_CHAIN − 1, as constants.cu's slope
 * (the chain's first kernel, whose words come from the host, left out). */
#define TOUCH_SOURCE "validate/stream/touch.c"
#define TOUCH_CHAIN 32
static int touch_chain_per_kernel(const machine *m, long blocks, double *out)
{
    char source[1024];
    snprintf(source, sizeof source, "%s/%s", user_program_datadir(), TOUCH_SOURCE);
    double T[2];
    for (int i = 0; i < 2; i++) {
        vars params;
        vars_clear(&params);
        vars_set(&params, "k", i ? TOUCH_CHAIN : 1);
        vars_set(&params, "b", (double)blocks);
        kernel_dag *dag = user_program_build(source, &params, m);
        if (!dag)
            return fail("%s: %s", TOUCH_SOURCE, fail_message());
        sim_result r;
        int rc = sim_run(dag, m, NULL, &r);
        kernel_dag_free(dag);
        if (rc < 0)
            return fail("%s on %s: %s", TOUCH_SOURCE, m->name, fail_message());
        T[i] = r.T;
        sim_result_free(&r);
    }
    *out = (T[1] - T[0]) / (TOUCH_CHAIN - 1);
    return 0;
}

/* What the code's costs charge a kernel of the touch chain of one block
 * (*block) and of a block on every SM (*card) on the code machine `code`:
 * its chains with no boundary between their kernels. */
static int code_touch_charges(const machine *code, double *block, double *card)
{
    machine bare = *code; /* the chains' kernels back to back: only what their blocks cost */
    bare.launch = LAUNCH_GRAPH;
    bare.graph_launch_latency = 0;
    bare.graph_launch_per_sm = 0;
    if (touch_chain_per_kernel(&bare, 1, block) < 0 || touch_chain_per_kernel(&bare, bare.p, card) < 0)
        return -1;
    return 0;
}

/* The code machine's kernel boundary, as card_machine's (the chains of
 * touch kernels) but less what the code's costs charge the chains' blocks:
 * each chain simulated on m without a boundary (code_touch_charges), the
 * measured chain less that charge.  Then m reproduces both chains as the
 * card's machine does (tests/test_card.c). */
static int code_kernel_boundary(const session *s, machine *m)
{
    double mhz, one_block, card_wide, block_charge, card_charge;
    const char *one_block_row = boundary_chain(s, 0);
    if (card_constant(s, "sm_clock_measured", &mhz) < 0 || card_constant(s, one_block_row, &one_block) < 0)
        return fail("%s/constants.csv: no sm_clock_measured or %s (the code machine's graph_launch_latency)",
                    s->dir, one_block_row);
    if (code_touch_charges(m, &block_charge, &card_charge) < 0)
        return -1;
    m->graph_launch_latency = one_block * mhz - block_charge;
    if (m->graph_launch_per_sm > 0 && card_constant(s, boundary_chain(s, 1), &card_wide) == 0 && m->p > 1)
        /* a grid over more SMs never launches sooner (US_PER_SM_BEYOND_ONE_BLOCK) */
        m->graph_launch_per_sm =
            fmax(0, (card_wide * mhz - card_charge - m->graph_launch_latency) / (double)(m->p - 1));
    return 0;
}

int card_code_machine(const session *s, const session *other, const machine *card, machine *out)
{
    *out = *card;
    char name[sizeof out->name + 8];
    snprintf(name, sizeof name, "%s-code", card->name);
    snprintf(out->name, sizeof out->name, "%.*s", (int)sizeof out->name - 1, name);
    if (set_terms(s, other, CODE_TERMS, N_CODE_TERMS, out) < 0 || set_facts(CODE_FACTS, N_CODE_FACTS, out) < 0)
        return -1;
    return code_kernel_boundary(s, out);
}

int card_code_machine_without_caches(const session *s, const session *other, const machine *card, machine *out)
{
    machine bare = *card; /* every word at U or DRAM's rate: the working-set rule */
    if (machine_set_field(&bare, "l1_words", "0") <= 0)
        return fail("machine key l1_words = 0: %s", fail_message());
    return card_code_machine(s, other, &bare, out);
}

int card_machine(const session *s, const session *other, const machine *base, machine *out)
{
    double mhz;
    *out = *base;
    if (card_constant(s, "sm_clock_measured", &mhz) < 0)
        return fail("%s/constants.csv: no sm_clock_measured", s->dir);
    if (set_terms(s, other, TERMS, N_TERMS, out) < 0)
        return -1;
    return set_facts(FACTS, N_FACTS, out);
}

int card_machine_named(const session *s, const session *other, const char *name, machine *out)
{
    machine base;
    machine_defaults(&base);
    snprintf(base.name, sizeof base.name, "%s", name);
    return card_machine(s, other, &base, out);
}

/* A code machine's kernel boundary (code_kernel_boundary): 1 and its
 * value and meaning if `key` is one of its two keys, else 0. */
static int code_boundary_line(const machine *code, const session *s, const char *key, double *v, char *meaning,
                              size_t size)
{
    double mhz, one_block;
    const char *name = boundary_chain(s, 0);
    if (strcmp(key, "graph_launch_latency") == 0 && card_constant(s, "sm_clock_measured", &mhz) == 0 &&
        card_constant(s, name, &one_block) == 0) {
        *v = code->graph_launch_latency;
        snprintf(meaning, size,
                 "%s, per kernel, less what the code's costs charge that block (%.1f cycles: the touch "
                 "kernel written once, %s, in exec mode on this machine)",
                 strcmp(name, CASES_CHAINS[0]) == 0
                     ? "the one-block touch chain timed by the cases' protocol"
                 : strcmp(name, BARE_CHAINS[0]) == 0
                     ? "the one-block touch chain replayed with no host step between the replays"
                     : "graphs of 1 to 32 dependent kernels of one block of 256 threads (one word per thread), "
                       "replayed",
                 one_block * mhz - *v, TOUCH_SOURCE);
        return 1;
    }
    if (strcmp(key, "graph_launch_per_sm") == 0) {
        *v = code->graph_launch_per_sm;
        snprintf(meaning, size,
                 "the same kernels with one block on every SM, per kernel, less graph_launch_latency and what the "
                 "code's costs charge that kernel (the same touch kernel), per SM beyond the first");
        return 1;
    }
    return 0;
}

/* The lines of the terms of `table`, each naming its constant; `code`: the
 * code machine whose kernel boundary they say (NULL: the card's machine). */
static void write_terms(FILE *f, const session *s, const session *other, const term *table, int n,
                        const machine *code)
{
    int caches = group_measured(s, table, n, CACHES), writers = group_measured(s, table, n, WRITERS);
    for (int i = 0; i < n; i++) {
        double v;
        const session *from;
        int found = term_from(s, other, &table[i], &v, &from) == 0;
        if (!found || group_unmeasured(&table[i], caches, writers)) {
            if (table[i].absent == OFF || table[i].absent == CACHES ||
                (table[i].absent == WRITERS && writers_rows_seen(s)))
                fprintf(f, "    # %s: off, %s (%s: %s)\n", table[i].key,
                        !found ? "not measured in this session"
                        : table[i].absent == WRITERS && !card_writers_derived
                            ? "measured, but the writers' terms are held off (card.h, card_writers_derived)"
                        : table[i].absent == WRITERS ? "measured, but the writers' terms need every one of their constants"
                                                      : "measured, but the caches need every one of their constants",
                        table[i].constant, table[i].meaning);
            continue;
        }
        char setting[64], borrowed[1200] = "", disturbed[160] = "";
        if (from != s)
            snprintf(borrowed, sizeof borrowed, " [not measured in this session: from %s]", from->dir);
        double mean;
        int left_out = 0;
        const char *meaning = table[i].meaning, *constant = term_constant(from, &table[i]);
        char chains[600];
        if (strcmp(constant, table[i].constant) != 0) { /* the protocol rows' chain (boundary_chain) */
            snprintf(chains, sizeof chains, "%s, %s", boundary_chain_meaning(constant),
                     table[i].how == US_PER_SM_BEYOND_ONE_BLOCK
                         ? "the card-wide less the one-block, per SM beyond the first"
                         : "the one-block chain less what the model charges its block");
            meaning = chains;
        }
        if (card_constant_readings(from, constant, &mean, &left_out) == 0 && left_out > 0)
            snprintf(disturbed, sizeof disturbed, " [%d reading%s above twice the median left out as disturbed]",
                     left_out, left_out > 1 ? "s" : "");
        char own[512];
        if (code && code_boundary_line(code, s, table[i].key, &v, own, sizeof own))
            meaning = own;
        snprintf(setting, sizeof setting, "%s = %.6g;", table[i].key, v);
        fprintf(f, "    %-34s # %s: %s%s%s\n", setting, constant, meaning, borrowed, disturbed);
    }
}

int card_write_preset(const machine *m, const session *s, const session *other, const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return fail("%s: cannot write", path);
    int code = m->issue_rate > 0;
    fprintf(f, "# %s.cfg — written by `make validate` from the constants measured on the\n"
               "# card in session %s (%s/constants.csv; the mean of the\n"
               "# readings before and after the case studies).  Do not edit: re-measure.\n"
               "# Every card term is a measured constant (validate/card.c has the table).\n",
            m->name, s->name, s->dir);
    if (code)
        fprintf(f, "# The code's costs: a kernel written once (sim/exec/mcm_kernel.h) is charged by the\n"
                   "# instructions of its compiled code (sim/exec/stream.h), counted by a clang build.\n");
    const char *borrowed_from = NULL; /* the other session some constants come from, if any */
    for (int i = 0; i < N_TERMS; i++) {
        double v;
        const session *from;
        if (term_from(s, other, &TERMS[i], &v, &from) == 0 && from != s)
            borrowed_from = from->dir;
    }
    fprintf(f, "machine = {\n    name = \"%s\";\n    source = \"session %s (%s)%s%s\";\n"
               "    policy = \"%s\";\n    order = \"%s\";\n    seed = %llu;\n    warp = %d;\n",
            m->name, s->name, s->dir, borrowed_from ? "; some constants from " : "",
            borrowed_from ? borrowed_from : "", memory_policy_name(m->policy), block_order_name(m->order),
            (unsigned long long)m->seed, m->warp);
    write_terms(f, s, other, TERMS, N_TERMS, code ? m : NULL);
    if (code)
        write_terms(f, s, other, CODE_TERMS, N_CODE_TERMS, m);
    write_facts(f, FACTS, N_FACTS);
    if (code)
        write_facts(f, CODE_FACTS, N_CODE_FACTS);
    fprintf(f, "};\n");
    return fclose(f) == 0 ? 0 : fail("%s: write error", path);
}
