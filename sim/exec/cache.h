/*
 * cache.h — the memory between the SM and DRAM, simulated from the
 * addresses exec mode's kernels touch: an L1 per SM, an L2 of
 * l2_partitions partitions, DRAM behind (a machine with l1_words > 0;
 * machine.h).
 *
 * What it keeps true (the card's documented behaviour; the sources are in
 * validate/notes/cache-hierarchy.md):
 *   - memory moves in sectors of sector_words words (32 bytes), kept in
 *     lines of line_words words (128 bytes); a warp's access round touches
 *     the distinct sectors of its lanes' words, and a cache fetches only
 *     the sectors that missed, never the rest of the line;
 *   - loads are cached in the L1 of their SM and in the L2 (Hopper's
 *     default); the L1 serves a round's hits a line's worth (a wavefront)
 *     at a time, and no faster than one word of each of its 32 banks a
 *     wavefront (the words of different lines in one bank conflict); a
 *     miss is a sector of the L2, and a miss there a sector of DRAM,
 *     which moves it with the rest of its atom (dram_atom_words, 64
 *     bytes on the H100: two sectors) into the L2; both caches keep
 *     their least recently used lines;
 *   - the L2 is l2_partitions partitions (two on the H100), SM sm asking
 *     partition sm mod l2_partitions, each fetching from DRAM what it
 *     lacks, so a line SMs of two partitions read is held in both; a word
 *     written lives in its writer's partition, leaving the others' copies,
 *     and that partition serves it to every SM until it is written back;
 *   - stores go through to the L2 and allocate nothing in the L1; a
 *     sector its SM's L1 holds stays there, written through (a load after
 *     a store into its sector waits the L1's latency:
 *     l1_load_after_store_latency).  The L2 writes back: a
 *     stored sector stays there, dirty, its words merged with the words
 *     later stores add, until the line is evicted; then it goes to DRAM
 *     whole, or partial when some of its words were neither written nor
 *     read (DRAM reads the rest first).  A read of a sector the L2 holds
 *     only in part reads it from DRAM;
 *   - a sector is in the L1 only once its fill returns: a read of sectors
 *     another warp (or block) of the wave asked for in the same step,
 *     and that its own warp has not waited as far for since (no read round
 *     of the warp, from the asking round on, that waited for the fill's
 *     level), waits for the level that fills them (the L2 or DRAM), though
 *     the L1 serves its sectors (one request to the L2); the replay places
 *     reads only by position, so such a read waits the fill's whole
 *     latency.  A fill asked in an earlier step has returned (a barrier
 *     ends each step);
 *   - a read that is a link of a chain of its warp's code (a load the
 *     chain waits for, cache_note_chain) waits as above, but only a wait
 *     of an earlier link of the warp's chains covers its fill: a load the
 *     warp issued beside the chain does not hold it up, so a link reading
 *     a line such a load asked for in the same step waits for its fill
 *     (the L2, or DRAM), where a link re-reading a line an earlier link
 *     waited for is an L1 hit.  Its level is counted in chain_loads,
 *     beside warp_loads (sim/model/card_terms.h);
 *   - every L1 starts a launch empty (the card invalidates them at each
 *     kernel, its L1s not being coherent); the L2 lives across launches;
 *   - an L1 holds l1_words less the private memory (shared memory) of
 *     the blocks resident on its SM: the two share one array;
 *   - before the first launch after it is allocated, an array enters the
 *     L2 as cuda_ref's protocol leaves it before each timed run: copied
 *     from its input copy, in the order the arrays were allocated.
 *
 * The order of the accesses.  A launch's blocks run at once on the card,
 * `resident` to an SM: the cache state a block meets is the one its SM's
 * other resident blocks, and the whole card, make at the same time, not
 * the one a replay of block after block would leave (which would flatter
 * the reuse between a block and the next).  So the blocks are taken in
 * waves of P·resident, block b on SM b mod P (the dispatcher's round robin
 * over the SMs, as the engine places them), and within a wave the accesses
 * are replayed position by position: step by step, the reads of a step
 * before its writes, round by round, warp by warp, and at each position
 * the wave's blocks in their order.  A read round is one load instruction
 * of the warp: its lanes' reads of one site (the same point of the code in
 * the same loop pass, stream_read_site), as the card issues one
 * instruction for the warp's active lanes and coalesces their addresses;
 * a lane that made more reads in a guarded block does not shift its later
 * reads into other rounds than its warp's.  The warp's read rounds go in
 * an order that keeps each lane's reads in its order: a site's place is
 * one more than the latest place of a read any lane made before it (ties
 * in the order the sites were first made).  Where a read's site is
 * unknown (no stream counted), a lane's two reads share a site, or the
 * lanes' orders disagree, the warp's read rounds are each lane's k-th
 * read; write rounds are always each lane's k-th write.  Every resident
 * block and every SM thus make their k-th access of a step together, as
 * far as a sequence can say it.  A wave
 * after the first stands for the blocks that take the slots the first
 * ones leave.  A moment is one step of one wave: the fills asked in it are
 * on their way until the next.
 *
 *   cache *c = cache_new(&machine);            // NULL: no caches
 *   cache_restore_array(c, a->id, a->size);    // each new array, in order
 *   cache_launch_begin(c, blocks, resident, private_words);
 *   for each block b:                          // exec.c
 *       for each step, each warp:
 *           (its lanes run, exec mode noting their accesses)
 *           cache_warp_done(t, step, warp, &its_notes);
 *       cache_block_done(c, b, t, &cost[b].sectors);
 *   cache_launch_end(c);                       // every cost[b].sectors filled
 *
 * One call at a time (not thread-safe).  Within a wave blocks may come in
 * any order; a block of the next wave may come once the wave is whole.
 */
#ifndef MCM_CACHE_H
#define MCM_CACHE_H

#include "kernel_dag.h"
#include "machine.h"

#include <stdint.h>

typedef struct cache cache;             /* the L1s and the L2 of one exec run */
typedef struct cache_trace cache_trace; /* one block's accesses, as exec mode records them */

/* The caches of machine m, all empty; NULL when m has none. */
cache *cache_new(const machine *m);
void cache_free(cache *c);

/* Array `array` of `words` words enters the L2, copied from its input. */
void cache_restore_array(cache *c, int array, long words);

/* A launch of `blocks` blocks, `resident` at once on an SM, each using
 * `private_words` of its SM's L1: every L1 starts empty. */
void cache_launch_begin(cache *c, long blocks, int resident, double private_words);

/* The launch's last wave replayed: every block handed in has its counts. */
void cache_launch_end(cache *c);

/* A block's recorder for the caches c, for warps of `warp` lanes. */
cache_trace *cache_trace_new(const cache *c, int warp);
void cache_trace_free(cache_trace *t);

/* A lane's note of one access, as exec mode keeps it (exec_block.h); of
 * a global access, its array and its word (access_key); of a global read
 * where the caches are counted, its site too (stream_read_site; 0:
 * unknown). */
typedef struct access_note {
    long key;
    uint64_t site;
} access_note;

/* The key of word `index` of array `array` (>= 0; an index below 2^40
 * and an array below 2^23, as exec mode numbers them): the array above
 * ACCESS_INDEX_BITS, the index below (ACCESS_INDEX). */
#define ACCESS_INDEX_BITS 40
#define ACCESS_INDEX ((1L << ACCESS_INDEX_BITS) - 1)
static inline long access_key(int array, long index) { return (long)array << ACCESS_INDEX_BITS | index; }

/* The running warp's global accesses of the step, as exec mode notes
 * them: of kind k (0 reads, 1 writes), lane i made its rounds 0 ..
 * made[k][i] − 1 (its r-th access of the kind in the step is its r-th
 * note), its r-th note at notes[k][r · stride + i] (a round's lanes side
 * by side); rounds[k] is the most made[k][i], all[k] the fewest.  The caches make the read rounds of the
 * reads' sites (above). */
typedef struct warp_notes {
    const access_note *notes[2];
    const int *made[2];
    int rounds[2], all[2];
    long stride;
    int lanes;
} warp_notes;

/* The running warp's lanes' `round`-th reads of the step are links of a
 * chain of its code: a lane's is (sim/exec/stream.h, stream_read_site;
 * where the reads' sites are known, their STREAM_SITE_CHAIN bit says it
 * of each).  Its load is then counted in chain_loads too,
 * by the level the chain waits for (above). */
void cache_note_chain(cache_trace *t, int round);

/* The warp `warp` (its index in the block) has run step `step`, making
 * the accesses `w` (read here, not kept): its rounds become the distinct
 * lines they touch, with the words touched. */
void cache_warp_done(cache_trace *t, int step, int warp, const warp_notes *w);

/* Block `bid` has run: its accesses join its wave and the trace is empty
 * again; *out is filled when the wave is replayed, until cache_launch_end
 * at the latest, and must stay valid until then.  -1 with fail() when the
 * wave's records pass CACHE_WAVE_BYTES (the launch cannot go on). */
int cache_block_done(cache *c, long bid, cache_trace *t, cache_sectors *out);

/* The most a wave's records may hold: about 1.5 GB, a hundred million
 * lines touched by its rounds. */
#ifndef CACHE_WAVE_BYTES
#define CACHE_WAVE_BYTES 1.5e9
#endif

#endif
