/*
 * test_cache.c — the card's caches in exec mode (sim/exec/cache.h) on
 * hand-checked traces: a warp's words become sectors of lines, each served
 * by the L1, the L2 or DRAM; least recently used lines leave first;
 * stores go to the L2, keep what the L1 holds of them and merge there;
 * the blocks of a wave meet in their SM's L1 and in the L2.  Then what
 * the sectors cost (kernel_dag.h), exec mode's hook, and that with the
 * caches off every cost is today's.
 *
 * The small machine: warp 32, sectors of 8 words in lines of 32, an L1 of
 * 4 lines (128 words), an L2 of 16 lines (512 words).
 */
#include "cache.h"
#include "exec.h"
#include "card_terms.h"
#include "helpers.h"
#include "stream.h"

#include <math.h>
#include <string.h>

static machine small_card(int p)
{
    return test_cache_machine(p, 1, 128, 512);
}

/* The running warp's accesses as exec mode notes them (cache.h,
 * warp_notes): note() makes the next lane's access of a round (lanes of
 * 32, rounds made in order from 0), warp_done hands them to the trace. */
#define NOTED_ROUNDS 256
static struct {
    access_note notes[2][32 * NOTED_ROUNDS];
    int made[2][32];
    int lanes_in[2][NOTED_ROUNDS];
} noted;

static void note(int write, int round, int array, long index)
{
    int k = write != 0, lane = noted.lanes_in[k][round]++;
    cr_assert(round < NOTED_ROUNDS && lane < 32);
    noted.notes[k][round * 32 + lane].key = access_key(array, index);
    if (noted.made[k][lane] < round + 1)
        noted.made[k][lane] = round + 1;
}

static void warp_done(cache_trace *t, int step, int warp)
{
    warp_notes w = {{noted.notes[0], noted.notes[1]}, {noted.made[0], noted.made[1]}, {0, 0}, {NOTED_ROUNDS, NOTED_ROUNDS},
                    32, 32};
    for (int k = 0; k < 2; k++)
        for (int lane = 0; lane < 32; lane++) {
            w.rounds[k] = noted.made[k][lane] > w.rounds[k] ? noted.made[k][lane] : w.rounds[k];
            w.all[k] = noted.made[k][lane] < w.all[k] ? noted.made[k][lane] : w.all[k];
        }
    cache_warp_done(t, step, warp, &w);
    memset(&noted, 0, sizeof noted);
}

/* What one block does in the tests below: its warp 0, in step 0, reads
 * (write 0) or writes (write 1) word index[lane] of array 0 for lanes
 * 0 .. lanes-1, one round. */
typedef struct one_round {
    int write;
    const long *index;
    int lanes;
} one_round;

/* A launch of `blocks` blocks, `resident` to an SM, block b doing
 * round[b]: their counts in out[]. */
static void launch_rounds(cache *c, int resident, const one_round *round, long blocks, cache_sectors *out)
{
    cache_trace *t = cache_trace_new(c, 32);
    cache_launch_begin(c, blocks, resident, 0);
    for (long b = 0; b < blocks; b++) {
        for (int lane = 0; lane < round[b].lanes; lane++)
            note(round[b].write, 0, 0, round[b].index[lane]);
        warp_done(t, 0, 0);
        cache_block_done(c, b, t, &out[b]);
    }
    cache_launch_end(c);
    cache_trace_free(t);
}

/* A launch of one block doing one round; its counts. */
static cache_sectors one_block(cache *c, int write, const long *index, int lanes)
{
    cache_sectors out;
    one_round r = {write, index, lanes};
    launch_rounds(c, 1, &r, 1, &out);
    return out;
}

/* A launch of `blocks` blocks one at a time on one SM (a wave each), all
 * reading index[] in one round; their counts in out[]. */
static void blocks_in_turn(cache *c, long blocks, const long *index, int lanes, cache_sectors *out)
{
    one_round r[4];
    for (long b = 0; b < blocks; b++)
        r[b] = (one_round){0, index, lanes};
    launch_rounds(c, 1, r, blocks, out);
}

/* A launch of one block, `resident` to an SM using `private_words` each,
 * that reads lines first .. first + lines - 1, one word each (a warp's
 * round a line, word 32k of line k), in each of `passes` steps. */
static cache_sectors sweep(cache *c, long first, long lines, int passes, int resident, double private_words)
{
    cache_trace *t = cache_trace_new(c, 32);
    for (int step = 0; step < passes; step++) {
        for (long k = 0; k < lines; k++)
            note(0, (int)k, 0, 32 * (first + k));
        warp_done(t, step, 0);
    }
    cache_sectors out;
    cache_launch_begin(c, 1, resident, private_words);
    cache_block_done(c, 0, t, &out);
    cache_launch_end(c);
    cache_trace_free(t);
    return out;
}

static long consecutive[32], stride32[32], stride33[32], stride16[32], same_word[32];

static void fill_patterns(long base)
{
    for (int i = 0; i < 32; i++) {
        consecutive[i] = base + i;
        stride32[i] = base + 32L * i;
        stride33[i] = base + 33L * i;
        stride16[i] = base + 16L * i;
        same_word[i] = base + 5;
    }
}

/* ---- reads ---------------------------------------------------------------- */

Test(cache, a_warp_reading_32_consecutive_words_moves_one_line_of_4_sectors)
{
    machine m = small_card(1);
    cache *c = cache_new(&m);
    fill_patterns(0);
    cache_sectors s = one_block(c, 0, consecutive, 32);
    cr_expect_eq(s.measured, 1);
    cr_expect_eq(s.dram_reads, 4, "4 sectors of one line, none held yet");
    cr_expect_eq(s.l2_reads + s.l1_wavefronts, 0);
    cr_expect_eq(s.first_read, LEVEL_DRAM);
    cache_free(c);
}

/* A launch of one block whose warp reads, in one round, words 24 .. 39
 * of array 0 (the last sector of its line 0, the first of its line 1) in
 * 16 lanes and the same words of array 1 in the other 16, array 1's lanes
 * first where `array_1_first` (the cells then go down at lane 16); its
 * counts. */
static cache_sectors across_arrays(cache *c, int array_1_first)
{
    cache_trace *t = cache_trace_new(c, 32);
    for (int half = 0; half < 2; half++)
        for (long i = 0; i < 16; i++)
            note(0, 0, half ^ array_1_first, 24 + i);
    warp_done(t, 0, 0);
    cache_sectors out;
    cache_launch_begin(c, 1, 1, 0);
    cache_block_done(c, 0, t, &out);
    cache_launch_end(c);
    cache_trace_free(t);
    return out;
}

Test(cache, a_round_across_two_lines_and_two_arrays_touches_each_line_apart)
{
    /* Every lane made the round: its lines are made from the cells' keys
     * (add_lines_every_lane).  Lines 0 and 1 of array 0 and lines 0 and 1
     * of array 1 are four lines, one request each, a sector each (an atom
     * of one sector): array 1's are not array 0's, whose words they share;
     * the cells going down at lane 16 make the same lines (sorted). */
    machine m = small_card(1);
    for (int array_1_first = 0; array_1_first < 2; array_1_first++) {
        cache *c = cache_new(&m);
        cache_sectors s = across_arrays(c, array_1_first);
        cr_expect_eq(s.dram_requests, 4, "four lines (array 1 first: %d)", array_1_first);
        cr_expect_eq(s.dram_reads, 4, "sector 3 of each line 0, sector 0 of each line 1");
        cr_expect_eq(s.l1_wavefronts, 0);
        cr_expect_eq(s.warp_loads[LEVEL_DRAM], 1, "one load instruction");
        s = across_arrays(c, array_1_first); /* a new launch: the L1s empty, the L2 holds the 4 sectors */
        cr_expect_eq(s.l2_requests, 4);
        cr_expect_eq(s.l2_reads, 4);
        cr_expect_eq(s.dram_reads, 0);
        cache_free(c);
    }
}

Test(cache, the_same_words_again_are_l1_hits_within_a_launch_and_l2_hits_after_it)
{
    machine m = small_card(1);
    cache *c = cache_new(&m);
    fill_patterns(0);
    cache_sectors s[2];
    blocks_in_turn(c, 2, consecutive, 32, s); /* one SM, one block at a time: two waves */
    cr_expect_eq(s[0].dram_reads, 4);
    cr_expect_eq(s[1].l1_wavefronts, 1, "4 sectors of one line: one wavefront of the L1");
    cr_expect_eq(s[1].l2_reads + s[1].dram_reads, 0);
    cr_expect_eq(s[1].first_read, LEVEL_L1);
    cache_sectors later = one_block(c, 0, consecutive, 32); /* a new launch: the L1s start empty */
    cr_expect_eq(later.l2_reads, 4);
    cr_expect_eq(later.l1_wavefronts + later.dram_reads, 0);
    cr_expect_eq(later.first_read, LEVEL_L2);
    cache_free(c);
}

/* Two blocks of one warp in turn on a one-SM card whose L1 holds
 * `l1_lines` lines and L2 `l2_lines`, each lane reading word index[lane]:
 * the first block fills the caches, the second reads what they hold. */
static void two_blocks_in_turn(long l1_lines, long l2_lines, const long *index, cache_sectors s[2])
{
    machine m = small_card(1);
    m.l1_words = l1_lines * 32;
    m.l2_words = l2_lines * 32;
    cache *c = cache_new(&m);
    fill_patterns(0);
    blocks_in_turn(c, 2, index, 32, s);
    cache_free(c);
}

Test(cache, a_stride_of_32_words_touches_32_sectors)
{
    cache_sectors s[2];
    two_blocks_in_turn(32, 64, stride32, s); /* room for the 32 lines */
    cr_expect_eq(s[0].dram_reads, 32, "one sector of each of 32 lines");
    cr_expect_eq(s[1].l1_wavefronts, 32, "32 sectors the L1 serves, every word in bank 0: a word a bank a wavefront");
}

/* measure_l1_lines' rows: 32 lines whose words lie in 32 banks, 8.8 cycles
 * a round (8 wavefronts, 4 sectors each); 16 lines of two sectors whose
 * words lie in 2 banks (Cooley-Tukey's dft_m), 16.0 (16 wavefronts: 16
 * words in each bank), where a line's worth of sectors a wavefront alone
 * gives 8. */
Test(cache, the_l1_serves_a_round_a_line_of_sectors_and_a_word_of_each_bank_a_wavefront)
{
    cache_sectors s[2];
    two_blocks_in_turn(64, 128, stride33, s); /* room for the lines */
    cr_expect_eq(s[0].dram_reads, 32, "one sector of each of 32 lines");
    cr_expect_eq(s[1].l1_wavefronts, 8, "32 sectors in 32 banks: 4 sectors a wavefront");
    two_blocks_in_turn(64, 128, stride16, s);
    cr_expect_eq(s[0].dram_reads, 32, "two sectors of each of 16 lines");
    cr_expect_eq(s[1].l1_wavefronts, 16, "16 words in bank 0 and 16 in bank 16");
}

Test(cache, thirty_two_threads_reading_one_word_move_one_sector)
{
    machine m = small_card(1);
    cache *c = cache_new(&m);
    fill_patterns(0);
    cache_sectors s[2];
    blocks_in_turn(c, 2, same_word, 32, s);
    cr_expect_eq(s[0].dram_reads, 1);
    cr_expect_eq(s[1].l1_wavefronts, 1, "a broadcast: one sector, one wavefront");
    cache_free(c);
}

Test(cache, dram_moves_a_sector_with_the_rest_of_its_atom_into_the_l2)
{
    machine m = small_card(1);
    m.dram_atom_words = 16; /* two sectors of 8 words */
    cache *c = cache_new(&m);
    long word0[1] = {0}, word8[1] = {8}, word16[1] = {16};
    cache_sectors s = one_block(c, 0, word0, 1);
    cr_expect_eq(s.dram_reads, 2, "sector 0 and the rest of its atom, sector 1");
    s = one_block(c, 0, word8, 1);
    cr_expect_eq(s.dram_reads, 0, "sector 1 came with sector 0");
    cr_expect_eq(s.l2_reads, 1);
    s = one_block(c, 0, word16, 1);
    cr_expect_eq(s.dram_reads, 2, "sector 2: the other atom of the line, with sector 3");
    fill_patterns(32);
    s = one_block(c, 0, consecutive, 32);
    cr_expect_eq(s.dram_reads, 4, "a whole line: its two atoms, nothing more than its sectors");
    cache_free(c);
}

Test(cache, an_atom_of_one_sector_is_todays_rule)
{
    machine m = small_card(1);
    long word0[1] = {0};
    m.dram_atom_words = 8;
    cache *c = cache_new(&m);
    cr_expect_eq(one_block(c, 0, word0, 1).dram_reads, 1);
    cache_free(c);
    m.dram_atom_words = 0;
    c = cache_new(&m);
    cr_expect_eq(one_block(c, 0, word0, 1).dram_reads, 1);
    cache_free(c);
}

Test(cache, an_atom_already_half_in_the_l2_fetches_only_what_is_missing)
{
    machine m = small_card(1);
    m.dram_atom_words = 16;
    cache *c = cache_new(&m);
    long sector1[8] = {8, 9, 10, 11, 12, 13, 14, 15}, word0[1] = {0};
    cache_sectors s = one_block(c, 1, sector1, 8); /* sector 1 written whole: in the L2 */
    s = one_block(c, 0, word0, 1);
    cr_expect_eq(s.dram_reads, 1, "sector 0 only: the L2 holds sector 1 whole");
    cache_free(c);
}

Test(cache, a_footprint_just_under_the_l1_is_read_again_from_it_and_just_over_from_the_l2)
{
    machine m = small_card(1); /* L1: 4 lines; L2: 16 */
    cache *c = cache_new(&m);
    cache_sectors under = sweep(c, 0, 4, 2, 1, 0);
    cr_expect_eq(under.dram_reads, 4, "the first pass");
    cr_expect_eq(under.l1_wavefronts, 4, "the second: 4 lines held, one sector each");
    cache_free(c);
    c = cache_new(&m);
    cache_sectors over = sweep(c, 0, 5, 2, 1, 0);
    cr_expect_eq(over.dram_reads, 5);
    cr_expect_eq(over.l1_wavefronts, 0, "5 lines in 4: each is evicted before it comes again");
    cr_expect_eq(over.l2_reads, 5);
    cache_free(c);
}

Test(cache, a_footprint_just_under_the_l2_is_read_again_from_it_and_just_over_from_dram)
{
    machine m = small_card(1);
    m.l1_words = 32; /* one line: the L1 holds none of the sweep */
    cache *c = cache_new(&m);
    cache_sectors under = sweep(c, 0, 16, 2, 1, 0);
    cr_expect_eq(under.dram_reads, 16);
    cr_expect_eq(under.l2_reads, 16);
    cache_free(c);
    c = cache_new(&m);
    cache_sectors over = sweep(c, 0, 17, 2, 1, 0);
    cr_expect_eq(over.dram_reads, 34, "17 lines in 16: every one read twice from DRAM");
    cr_expect_eq(over.l2_reads, 0);
    cache_free(c);
}

/* ---- the L2's partitions ------------------------------------------------- */

/* The small machine with its L2 in two partitions of 8 lines, SM 0 on
 * partition 0 and SM 1 on partition 1, and an L1 of one line. */
static machine two_partitions(void)
{
    machine m = small_card(2);
    m.l2_partitions = 2;
    m.l1_words = 32;
    return m;
}

Test(cache, each_partition_holds_its_share_of_the_l2_for_its_sms)
{
    machine m = two_partitions();
    cr_expect_eq(machine_validate(&m), 0, "%s", fail_message());
    cache *c = cache_new(&m);
    cache_sectors under = sweep(c, 0, 8, 2, 1, 0); /* one block: SM 0, partition 0 */
    cr_expect_eq(under.dram_reads, 8, "8 lines, one sector each, first pass");
    cr_expect_eq(under.l2_reads, 8, "8 lines fit the 8 of partition 0");
    cache_free(c);
    c = cache_new(&m);
    cache_sectors over = sweep(c, 0, 9, 2, 1, 0);
    cr_expect_eq(over.dram_reads, 18, "9 lines in 8: every one read twice from DRAM, the other partition unused");
    cr_expect_eq(over.l2_reads, 0);
    cache_free(c);
}

Test(cache, a_line_read_by_sms_of_two_partitions_is_fetched_into_each)
{
    machine m = two_partitions();
    cache *c = cache_new(&m);
    fill_patterns(0);
    const one_round r = {0, consecutive, 32}, rounds[2] = {r, r};
    cache_sectors s[2];
    launch_rounds(c, 1, rounds, 2, s); /* block b on SM b */
    cr_expect_eq(s[0].dram_reads, 4, "SM 0 first: partition 0 fetches the line");
    cr_expect_eq(s[1].dram_reads, 4, "SM 1: partition 1 has not got it, and a line read is not served across");
    cr_expect_eq(s[1].l2_reads, 0);
    cache_free(c);
    m.l2_partitions = 1; /* one L2: the second SM meets the line there */
    c = cache_new(&m);
    launch_rounds(c, 1, rounds, 2, s);
    cr_expect_eq(s[1].l2_reads, 4);
    cr_expect_eq(s[1].dram_reads, 0);
    cache_free(c);
}

Test(cache, a_word_written_on_one_partition_is_served_to_the_others_by_the_l2)
{
    machine m = two_partitions();
    cache *c = cache_new(&m);
    fill_patterns(0);
    const long elsewhere[1] = {32 * 5};
    const one_round write[2] = {{1, consecutive, 32}, {0, elsewhere, 1}};
    const one_round read[2] = {{0, elsewhere, 1}, {0, consecutive, 32}};
    cache_sectors s[2];
    launch_rounds(c, 1, write, 2, s); /* SM 0 writes line 0 */
    launch_rounds(c, 1, read, 2, s);  /* SM 1 reads it */
    cr_expect_eq(s[1].l2_reads, 4, "the written words live in partition 0, which serves them");
    cr_expect_eq(s[1].dram_reads, 0);
    cache_free(c);
}

Test(cache, a_write_leaves_no_stale_copy_in_another_partition)
{
    machine m = two_partitions();
    cache *c = cache_new(&m);
    fill_patterns(0);
    const long elsewhere[1] = {32 * 5};
    const one_round read[2] = {{0, elsewhere, 1}, {0, consecutive, 32}};
    const one_round write[2] = {{1, consecutive, 32}, {0, elsewhere, 1}};
    cache_sectors s[2];
    launch_rounds(c, 1, read, 2, s);  /* partition 1 holds line 0, clean */
    launch_rounds(c, 1, write, 2, s); /* SM 0 writes it: partition 0 holds it, dirty */
    cache_sectors evict = sweep(c, 100, 8, 1, 1, 0); /* SM 0 fills partition 0: line 0 written back */
    cr_expect_eq(evict.writebacks, 4);
    launch_rounds(c, 1, read, 2, s);  /* SM 1 reads line 0 again */
    cr_expect_eq(s[1].dram_reads, 4, "partition 1's copy went stale at the write: DRAM has the words now");
    cr_expect_eq(s[1].l2_reads, 0);
    cache_free(c);
}

Test(cache, a_machine_needs_a_line_in_each_partition_of_its_l2)
{
    machine m = two_partitions();
    m.l2_words = 32; /* one line for two partitions */
    cr_expect_eq(machine_validate(&m), -1);
    cr_expect(strstr(fail_message(), "l2_partitions") != NULL, "%s", fail_message());
}

/* ---- writes ---------------------------------------------------------------- */

/* Reads of lines 100.. as many as the L2 holds: every line there before is
 * evicted, its dirty sectors written back, counted to the returned block. */
static cache_sectors evict_everything(cache *c, const machine *m)
{
    return sweep(c, 100, (long)(m->l2_words / m->line_words), 1, 1, 0);
}

Test(cache, partial_writes_merge_in_the_l2_before_they_are_written_back)
{
    machine m = small_card(1);
    cache *c = cache_new(&m);
    long low[4] = {0, 1, 2, 3}, high[4] = {4, 5, 6, 7};
    cache_sectors a = one_block(c, 1, low, 4), b = one_block(c, 1, high, 4);
    cr_expect_eq(a.l2_writes, 1, "four words of one sector");
    cr_expect_eq(b.l2_writes, 1);
    cr_expect_eq(a.l2_partial_writes, 1, "four of its eight words: a partial sector");
    cr_expect_eq(b.l2_partial_writes, 1, "the other four, partial too");
    cr_expect_eq(a.dram_reads + b.dram_reads, 0, "a write reads nothing from DRAM");
    cache_sectors out = evict_everything(c, &m);
    cr_expect_eq(out.writebacks, 1, "the two halves merged: one whole sector goes to DRAM");
    cr_expect_eq(out.partial_writebacks, 0);
    cache_free(c);

    c = cache_new(&m);
    one_block(c, 1, low, 4);
    out = evict_everything(c, &m);
    cr_expect_eq(out.writebacks, 0);
    cr_expect_eq(out.partial_writebacks, 1, "half a sector written: DRAM reads the rest first");
    cache_free(c);
}

/* The write cycles of a block of 32 threads with counts s on m. */
static double write_cycles(const cache_sectors *s, const machine *m)
{
    block_cost c = {.writes = 1};
    c.sectors = *s;
    return block_transfer_cycles(&c, 32, m, m->u, 1);
}

Test(cache, a_partial_sector_written_merged_and_written_back_costs_each_steps_rate)
{
    /* U = 0.5, DRAM 2, the L2's partial sectors 0.75 a word (u_l2_partial,
     * no write rule and no u_l2_write: a whole sector's word at U, a
     * partial one's 0.5 · 0.75 / 0.5), DRAM's 3 */
    machine m = small_card(1);
    m.u = 0.5;
    m.u_dram = 2;
    m.u_l2_partial = 0.75;
    m.u_dram_partial = 3;
    cache *c = cache_new(&m);
    long low[4] = {0, 1, 2, 3}, high[4] = {4, 5, 6, 7};
    cache_sectors a = one_block(c, 1, low, 4), b = one_block(c, 1, high, 4);
    /* each half a partial sector into the L2: 8·0.75 = 6 */
    cr_expect_float_eq(write_cycles(&a, &m), 6, 1e-12);
    cr_expect_float_eq(write_cycles(&b, &m), 6, 1e-12);
    /* merged there: the block that evicts it writes one whole sector back,
     * the rest of DRAM's rate, 8·(2 − 0.5) = 12 */
    cache_sectors out = evict_everything(c, &m);
    cr_expect_eq(out.writebacks, 1);
    cr_expect_eq(out.l2_writes, 0, "the evicting block writes nothing itself");
    cr_expect_float_eq(write_cycles(&out, &m), 12, 1e-12);
    cache_free(c);

    /* one half alone goes back partial: 8·(3 − 0.75) = 18, so the sector
     * costs DRAM's partial rate in all, 6 + 18 = 24 = 8·3 */
    c = cache_new(&m);
    a = one_block(c, 1, low, 4);
    out = evict_everything(c, &m);
    cr_expect_eq(out.partial_writebacks, 1);
    cr_expect_float_eq(write_cycles(&a, &m) + write_cycles(&out, &m), 24, 1e-12);
    cache_free(c);

    /* a whole sector in one round: 8·0.5 = 4, the partial rate not taken */
    c = cache_new(&m);
    fill_patterns(0);
    a = one_block(c, 1, consecutive, 8);
    cr_expect_eq(a.l2_partial_writes, 0);
    cr_expect_float_eq(write_cycles(&a, &m), 4, 1e-12);
    cache_free(c);

    /* as the presets: u_l2_write measured, the write rule off (w = U): a
     * partial sector U · u_l2_partial / u_l2_write, 8·0.5·(1.2 / 1) = 4.8 */
    machine preset = m;
    preset.u_l2_write = 1;
    preset.u_l2_partial = 1.2;
    cr_expect_float_eq(write_cycles(&(cache_sectors){.measured = 1, .l2_writes = 1, .l2_partial_writes = 1}, &preset),
                       4.8, 1e-12);

    /* the hierarchy off: the block's words at U, as today, whatever its counts */
    machine off = m;
    off.l1_words = 0;
    block_cost today = {.writes = 1};
    today.sectors = a;
    cr_expect_float_eq(block_transfer_cycles(&today, 32, &off, off.u, 1), 0.5 * 32 * 1, 1e-12);
}

Test(cache, a_sector_read_then_partly_written_goes_back_whole)
{
    machine m = small_card(1);
    cache *c = cache_new(&m);
    long third[1] = {3};
    fill_patterns(0);
    one_block(c, 0, consecutive, 8); /* sector 0 into the L2 */
    one_block(c, 1, third, 1);
    cache_sectors out = evict_everything(c, &m);
    cr_expect_eq(out.writebacks, 1, "the L2 held the whole sector");
    cr_expect_eq(out.partial_writebacks, 0);
    cache_free(c);
}

Test(cache, a_read_of_a_sector_held_in_part_goes_to_dram)
{
    machine m = small_card(1);
    cache *c = cache_new(&m);
    long low[4] = {0, 1, 2, 3};
    one_block(c, 1, low, 4);
    fill_patterns(0);
    cache_sectors s = one_block(c, 0, consecutive, 8);
    cr_expect_eq(s.dram_reads, 1, "words 4..7 were never there");
    cr_expect_eq(s.l2_reads, 0);
    s = one_block(c, 0, consecutive, 8);
    cr_expect_eq(s.l2_reads, 1, "now the whole sector is");
    cache_free(c);
}

Test(cache, a_store_leaves_its_sector_in_the_l1_and_allocates_nothing_there)
{
    /* The card's L1 keeps a sector it holds when a store writes into it
     * (written through to the L2): a load after a store into the sector
     * it reads waits the L1's latency, l1_load_after_store_latency 44.6
     * cycles against l1_load_latency's 41.9, in every session. */
    machine m = small_card(1);
    cache *c = cache_new(&m);
    fill_patterns(0);
    long stored[1] = {9}; /* sector 1 of line 0 */
    long other[8] = {64, 65, 66, 67, 68, 69, 70, 71}; /* sector 0 of line 2, never read */
    const one_round rounds[5] = {{0, consecutive, 32}, {1, stored, 1}, {0, consecutive, 32}, {1, other, 8},
                                 {0, other, 8}};
    cache_sectors s[5]; /* one SM, one block at a time */
    launch_rounds(c, 1, rounds, 5, s);
    cr_expect_eq(s[1].l2_writes, 1);
    cr_expect_eq(s[2].l1_wavefronts, 1, "all four sectors from the L1, sector 1 stored since included");
    cr_expect_eq(s[2].l2_reads, 0);
    cr_expect_eq(s[2].first_read, LEVEL_L1);
    cr_expect_eq(s[4].l2_reads, 1, "a store allocates nothing in the L1");
    cr_expect_eq(s[4].l1_wavefronts, 0);
    cache_free(c);
}

Test(cache, a_warp_load_counts_at_the_farthest_level_any_of_its_sectors_came_from)
{
    machine m = small_card(1);
    cache *c = cache_new(&m);
    fill_patterns(0);
    long sector3[8] = {24, 25, 26, 27, 28, 29, 30, 31}; /* sector 3 of line 0: into the L2, not the L1 */
    const one_round rounds[4] = {{0, consecutive, 24}, {1, sector3, 8}, {0, consecutive, 32}, {0, consecutive, 32}};
    cache_sectors s[4]; /* one SM, one block at a time */
    launch_rounds(c, 1, rounds, 4, s);
    cr_expect_eq(s[0].warp_loads[LEVEL_DRAM], 1, "3 sectors from DRAM: one load");
    cr_expect_eq(s[1].warp_loads[LEVEL_L1] + s[1].warp_loads[LEVEL_L2] + s[1].warp_loads[LEVEL_DRAM], 0,
                 "a store is no load");
    cr_expect_eq(s[2].warp_loads[LEVEL_L2], 1, "3 sectors from the L1, 1 from the L2: a load of the L2");
    cr_expect_eq(s[2].warp_loads[LEVEL_L1], 0);
    cr_expect_eq(s[3].warp_loads[LEVEL_L1], 1, "all 4 from the L1 now");
    cr_expect_eq(s[3].warp_loads[LEVEL_L2], 0);
    cache_free(c);
}

/* ---- waves ------------------------------------------------------------------ */

Test(cache, resident_blocks_share_their_sms_l1_and_other_sms_meet_in_the_l2)
{
    /* 2 SMs, 2 resident blocks each: one wave of 4, block b on SM b mod 2.
     * Each block reads line 0 in its first round. */
    machine m = small_card(2);
    cache *c = cache_new(&m);
    fill_patterns(0);
    const one_round r = {0, consecutive, 32}, rounds[4] = {r, r, r, r};
    cache_sectors s[4];
    launch_rounds(c, 2, rounds, 4, s);
    cr_expect_eq(s[0].dram_reads, 4, "block 0 first, on SM 0");
    cr_expect_eq(s[1].l2_reads, 4, "block 1, on SM 1: its L1 is empty, the L2 has the line");
    cr_expect_eq(s[2].l1_wavefronts, 1, "block 2 shares SM 0 with block 0");
    cr_expect_eq(s[3].l1_wavefronts, 1, "block 3 shares SM 1 with block 1");
    cr_expect_eq(s[2].first_read, LEVEL_DRAM, "block 2 reads with block 0: it waits for block 0's fill");
    cr_expect_eq(s[3].first_read, LEVEL_L2, "block 3 waits for block 1's");
    cache_free(c);
}

/* One block of two warps, in step `step`: warp 0 reads word 0 of line 0
 * and warp 1 the whole line, recorded in the order `warp_1_first` says;
 * its counts. */
static cache_sectors two_warps_of_one_line(const machine *m, int step, int warp_1_first)
{
    cache *c = cache_new(m);
    cache_trace *t = cache_trace_new(c, 32);
    for (int k = 0; k < 2; k++) {
        int warp = k ^ warp_1_first;
        for (long i = 0; i < (warp == 0 ? 1 : 32); i++)
            note(0, 0, 0, i);
        warp_done(t, step, warp);
    }
    cache_sectors s;
    cache_launch_begin(c, 1, 1, 0);
    cache_block_done(c, 0, t, &s);
    cache_launch_end(c);
    cache_trace_free(t);
    cache_free(c);
    return s;
}

Test(cache, a_blocks_warps_are_replayed_in_warp_order_whatever_order_they_came_in)
{
    /* Warp 0 first (position_order): its sector 0 from DRAM, then warp 1's
     * other 3 sectors from DRAM (a second request) and sector 0 from the
     * L1, in flight.  Warp 1 first would ask DRAM once, for the 4 sectors.
     * Warps handed in out of order leave the counting sort's rounds out of
     * position_order (sort_rounds: then qsort); at step 5000 the keys span
     * too many values for a count (qsort at once). */
    machine m = small_card(1);
    for (int step = 0; step <= 5000; step += 5000)
        for (int warp_1_first = 0; warp_1_first < 2; warp_1_first++) {
            cache_sectors s = two_warps_of_one_line(&m, step, warp_1_first);
            cr_expect_eq(s.dram_requests, 2, "step %d, warp 1 first: %d", step, warp_1_first);
            cr_expect_eq(s.dram_reads, 4);
            cr_expect_eq(s.l1_wavefronts, 1, "warp 1's sector 0");
        }
}

Test(cache, a_wave_is_replayed_position_by_position_not_block_after_block)
{
    /* 1 SM, 2 resident blocks; each reads line k (k its index) in step 0
     * and line 1 - k in step 1.  Block after block, block 1 would find
     * both lines in the L1; step by step, both blocks miss in step 0 and
     * hit in step 1. */
    machine m = small_card(1);
    cache *c = cache_new(&m);
    cache_trace *t = cache_trace_new(c, 32);
    cache_sectors s[2];
    cache_launch_begin(c, 2, 2, 0);
    for (long b = 0; b < 2; b++) {
        for (int step = 0; step < 2; step++) {
            long line = step == 0 ? b : 1 - b;
            note(0, 0, 0, 32 * line);
            warp_done(t, step, 0);
        }
        cache_block_done(c, b, t, &s[b]);
    }
    cr_expect_eq(s[1].measured, 1);
    cache_launch_end(c);
    for (int b = 0; b < 2; b++) {
        cr_expect_eq(s[b].dram_reads, 1, "block %d: its own line in step 0", b);
        cr_expect_eq(s[b].l1_wavefronts, 1, "block %d: the other's, read in step 0, in step 1", b);
    }
    cache_trace_free(t);
    cache_free(c);
}

/* One block of `warps` warps: warp w reads, in step step[i] and round
 * round[i], line line[i] (its 32 words), for the n accesses i in order of
 * warp; its counts. */
typedef struct warp_read {
    int warp, step, round;
    long line;
    int chain; /* 1: the read is a link of a chain of the warp's code (cache_note_chain) */
} warp_read;

static cache_sectors warps_reading(cache *c, const warp_read *reads, int n)
{
    cache_trace *t = cache_trace_new(c, 32);
    cache_sectors out;
    cache_launch_begin(c, 1, 1, 0);
    for (int i = 0; i < n; i++) {
        for (int lane = 0; lane < 32; lane++)
            note(0, reads[i].round, 0, 32 * reads[i].line + lane);
        if (reads[i].chain)
            cache_note_chain(t, reads[i].round);
        if (i == n - 1 || reads[i + 1].warp != reads[i].warp || reads[i + 1].step != reads[i].step)
            warp_done(t, reads[i].step, reads[i].warp);
    }
    cache_block_done(c, 0, t, &out);
    cache_launch_end(c);
    cache_trace_free(t);
    return out;
}

/* The small card with an L1 hit of 30 cycles and an L2 hit of 250. */
static machine latency_card(void)
{
    machine m = small_card(1);
    m.read_latency_l1 = 30;
    m.read_latency = 250;
    return m;
}

/* Line `line` (its 32 words) into the L2, by a launch before. */
static void into_l2(cache *c, long line)
{
    fill_patterns(32 * line);
    one_block(c, 0, consecutive, 32);
    fill_patterns(0);
}

Test(cache, two_warps_reading_one_line_at_once_both_wait_for_its_fill)
{
    /* Line 0 is in the L2 (a launch before read it) and in no L1.  Warps 0
     * and 1 of one block make their first read of step 0 on it: the card
     * issues both at once, warp 0's miss asks the L2 and warp 1's request
     * finds the line on its way (one request to the L2; the L1 then
     * serves warp 1's four sectors), and warp 1 waits for the same fill. */
    machine m = latency_card();
    cache *c = cache_new(&m);
    into_l2(c, 0);
    const warp_read reads[] = {{0, 0, 0, 0, 0}, {1, 0, 0, 0, 0}};
    cache_sectors s = warps_reading(c, reads, 2);
    cr_expect_eq(s.l2_reads, 4, "warp 0's four sectors, asked of the L2 once");
    cr_expect_eq(s.l2_requests, 1);
    cr_expect_eq(s.l1_wavefronts, 1, "warp 1's four sectors, from the L1 when the fill arrives");
    cr_expect_eq(s.warp_loads[LEVEL_L2], 2, "both loads wait for the L2");
    cr_expect_eq(s.warp_loads[LEVEL_L1], 0);
    cr_expect_eq(s.first_read, LEVEL_L2);
    kernel k = test_kernel("k", 1, 64, 1, 1, 0);
    k.cost.sectors = s;
    cr_expect_eq(block_read_latency(&k, &k.cost, &m), 250, "the L2's latency, not the L1's 30");
    cache_free(c);
}

Test(cache, a_read_the_l1_missed_waits_the_l2s_own_latency_not_the_chases)
{
    /* Lines 0 and 1 are in the L2 (a launch before read them) and in no
     * L1.  Warp 0 reads line 0 (its first read: the block's), then line 1
     * in round 1, a link of its chain; nobody else asked for line 1, so
     * both are misses of the L1 that the L2 serves.  With the caches, the
     * link waits read_latency_l2 (320, a cached whole line past the L1),
     * not read_latency (250, a one-thread chase whose loads the L1 partly
     * serves); the block's first read waits read_latency, as the touch
     * block of graph_launch_latency's calibration does; without
     * read_latency_l2, read_latency; a block that did not run through the
     * caches, read_latency as before. */
    machine m = latency_card();
    m.read_latency_l2 = 320;
    m.issue_rate = 1; /* the stream charged: its one link beyond the first read */
    cache *c = cache_new(&m);
    into_l2(c, 0);
    into_l2(c, 1);
    const warp_read reads[] = {{0, 0, 0, 0, 0}, {0, 0, 1, 1, 1}};
    cache_sectors s = warps_reading(c, reads, 2);
    cr_expect_eq(s.l2_reads, 8, "both lines, four sectors each, from the L2");
    cr_expect_eq(s.l1_wavefronts, 0);
    cr_expect_eq(s.first_read, LEVEL_L2);
    cr_expect_eq(s.chain_loads[LEVEL_L2], 1, "round 1, the link; the first read is the block's");
    kernel k = test_kernel("k", 1, 32, 1, 1, 0);
    k.cost.sectors = s;
    k.cost.stream = 1;
    k.cost.stream_reads = 2;
    cr_expect_eq(block_read_latency(&k, &k.cost, &m), 250, "the first read: graph_launch_latency's");
    cr_expect_eq(block_span_cycles(&k.cost, &m), 320, "the link waits the L2's own latency");
    m.read_latency_l2 = 0;
    cr_expect_eq(block_read_latency(&k, &k.cost, &m), 250);
    cr_expect_eq(block_span_cycles(&k.cost, &m), 250);
    m.read_latency_l2 = 320;
    k.cost.sectors.measured = 0; /* not run through the caches: the working-set rule's latency */
    cr_expect_eq(block_read_latency(&k, &k.cost, &m), 250);
    cr_expect_eq(block_span_cycles(&k.cost, &m), 250);
    cache_free(c);
}

Test(cache, a_fill_from_dram_is_waited_for_at_drams_level)
{
    machine m = small_card(1);
    cache *c = cache_new(&m);
    const warp_read reads[] = {{0, 0, 0, 3, 0}, {1, 0, 0, 3, 0}};
    cache_sectors s = warps_reading(c, reads, 2);
    cr_expect_eq(s.dram_reads, 4, "line 3 was never read: DRAM, once");
    cr_expect_eq(s.l1_wavefronts, 1);
    cr_expect_eq(s.warp_loads[LEVEL_DRAM], 2);
    cache_free(c);
}

Test(cache, a_warp_that_waited_itself_since_the_fill_was_asked_finds_it_returned)
{
    /* Step 0: warps 0 and 1 each read their own line (0, 1) in round 0,
     * both from DRAM; in round 1 warp 1 reads line 0, which warp 0 asked
     * for in round 0.  Warp 1 issues in order: its round 1 follows its
     * round 0, which waited for DRAM as long as warp 0's did, so line 0 is
     * there: an L1 hit.  In step 1 (after the barrier) warp 0 reads line 1:
     * every fill of step 0 has returned. */
    machine m = small_card(1);
    cache *c = cache_new(&m);
    const warp_read reads[] = {{0, 0, 0, 0, 0}, {0, 1, 0, 1, 0}, {1, 0, 0, 1, 0}, {1, 0, 1, 0, 0}};
    cache_sectors s = warps_reading(c, reads, 4);
    cr_expect_eq(s.dram_reads, 8);
    cr_expect_eq(s.l1_wavefronts, 2);
    cr_expect_eq(s.warp_loads[LEVEL_DRAM], 2, "the two rounds 0");
    cr_expect_eq(s.warp_loads[LEVEL_L1], 2, "warp 1's round 1 and warp 0's step 1");
    cache_free(c);
}

Test(cache, a_warp_that_waited_for_nothing_since_the_fill_was_asked_waits_for_it)
{
    /* Step 0: warp 1 reads line 1 (DRAM).  Step 1: warp 0 reads line 0 in
     * round 0 (DRAM); warp 1 reads line 1 in round 0 (the L1: filled in
     * step 0) and line 0 in round 1.  Its round 0 waited for the L1 only,
     * so nothing says warp 0's fill has arrived: warp 1 waits for DRAM. */
    machine m = small_card(1);
    cache *c = cache_new(&m);
    const warp_read reads[] = {{0, 1, 0, 0, 0}, {1, 0, 0, 1, 0}, {1, 1, 0, 1, 0}, {1, 1, 1, 0, 0}};
    cache_sectors s = warps_reading(c, reads, 4);
    cr_expect_eq(s.dram_reads, 8);
    cr_expect_eq(s.l1_wavefronts, 2);
    cr_expect_eq(s.warp_loads[LEVEL_DRAM], 3, "warp 1 in step 0, warp 0 and warp 1's round 1 in step 1");
    cr_expect_eq(s.warp_loads[LEVEL_L1], 1, "warp 1's round 0 of step 1");
    cache_free(c);
}

Test(cache, the_blocks_of_a_wave_may_come_in_any_order)
{
    /* 2 SMs, 2 resident blocks: waves of 4.  Eight blocks reading lines
     * b mod 3, handed in order and then each wave backwards (as exec mode
     * on several cores may): the same counts, block by block. */
    machine m = small_card(2);
    long index[8][32];
    for (int b = 0; b < 8; b++)
        for (int lane = 0; lane < 32; lane++)
            index[b][lane] = 32 * (b % 3) + lane;
    cache_sectors in_order[8], backwards[8];
    for (int order = 0; order < 2; order++) {
        cache *c = cache_new(&m);
        cache_trace *t = cache_trace_new(c, 32);
        cache_launch_begin(c, 8, 2, 0);
        for (int j = 0; j < 8; j++) {
            int b = order == 0 ? j : 4 * (j / 4) + 3 - j % 4;
            for (int lane = 0; lane < 32; lane++)
                note(0, 0, 0, index[b][lane]);
            warp_done(t, 0, 0);
            cache_block_done(c, b, t, order == 0 ? &in_order[b] : &backwards[b]);
        }
        cache_launch_end(c);
        cache_trace_free(t);
        cache_free(c);
    }
    for (int b = 0; b < 8; b++)
        cr_expect(memcmp(&in_order[b], &backwards[b], sizeof in_order[b]) == 0, "block %d", b);
    cr_expect_eq(in_order[0].dram_reads, 4, "the first wave: lines 0, 1, 2 (blocks 0, 1, 2) and 0 again (3)");
    cr_expect_eq(in_order[3].l2_reads, 4, "block 3, on SM 1, finds line 0 in the L2");
    cr_expect_eq(in_order[6].l1_wavefronts, 1, "block 6, on SM 0 in the second wave: line 0 is in its L1 (block 0)");
}

Test(cache, the_l1_holds_what_resident_blocks_leave_of_the_shared_array)
{
    /* an L1 of 4 lines (128 words); two resident blocks of 32 private words
     * each leave it 2 lines: a sweep of 3 lines no longer fits */
    machine m = small_card(1);
    cache *c = cache_new(&m);
    cache_sectors out = sweep(c, 0, 3, 2, 2, 32);
    cr_expect_eq(out.l1_wavefronts, 0);
    cr_expect_eq(out.l2_reads, 3);
    cache_free(c);
}

/* ---- what the sectors cost --------------------------------------------------- */

Test(cache, sectors_cost_the_rate_of_the_farthest_level_they_crossed)
{
    machine m = small_card(1);
    m.u = 0.5;
    m.u_dram = 2;
    m.u_l1 = 0.125;
    block_cost c = {.reads = 1, .writes = 1};
    c.sectors = (cache_sectors){.measured = 1, .l1_wavefronts = 2, .l2_reads = 3, .dram_reads = 5, .l2_writes = 7};
    /* reads: 32·0.125·2 + 8·(0.5·3 + 2·5) = 8 + 92 = 100 */
    cr_expect_float_eq(block_transfer_cycles(&c, 64, &m, 99, 0), 100, 1e-12);
    /* writes: 8·0.5·7 = 28 */
    cr_expect_float_eq(block_transfer_cycles(&c, 64, &m, 99, 1), 28, 1e-12);
    c.sectors.writebacks = 1;
    c.sectors.partial_writebacks = 2;
    m.u_dram_mixed = 3; /* DRAM reads and write-backs: the mixed rate for both */
    m.u_dram_partial = 6;
    /* reads: 8 + 8·(1.5 + 15) = 140; writes: 8·(3.5 + (3 - 0.5)·1 + (6 - 0.5)·2) = 136 */
    cr_expect_float_eq(block_transfer_cycles(&c, 64, &m, 99, 0), 140, 1e-12);
    cr_expect_float_eq(block_transfer_cycles(&c, 64, &m, 99, 1), 136, 1e-12);
    machine off = m;
    off.l1_words = 0; /* no caches: the block's words, as today */
    cr_expect_float_eq(block_transfer_cycles(&c, 64, &off, 0.5, 0), 0.5 * 64 * 1, 1e-12);
}

Test(cache, written_words_cost_the_l2s_write_rate_and_overlap_the_reads_up_to_the_copy_rate)
{
    machine m = small_card(1);
    m.u = 0.5;
    m.u_dram = 2;
    m.u_l2_write = 1.25; /* a word written alone */
    m.u_l2_copy = 1.5;   /* a word copied: read at 0.5, its write 1 more beside the reads */
    block_cost c = {.reads = 1, .writes = 1};
    c.sectors = (cache_sectors){.measured = 1, .l2_writes = 4};
    /* a write stream: max(1.5 - 0.5, 1.25 - 0 / 32) = 1.25 a word, 8·4·1.25 = 40 */
    cr_expect_float_eq(block_transfer_cycles(&c, 64, &m, 99, 1), 40, 1e-12);
    /* a copy, 32 words read (8·4·0.5 = 16) and written: max(1, 1.25 - 16/32) = 1, 32;
     * 16 + 32 = 48 = 32 words at u_l2_copy */
    c.sectors.l2_reads = 4;
    cr_expect_float_eq(block_transfer_cycles(&c, 64, &m, 99, 0), 16, 1e-12);
    cr_expect_float_eq(block_transfer_cycles(&c, 64, &m, 99, 1), 32, 1e-12);
    /* reads of 96 words (48 cycles) cover the write rate: the port's share, 32 */
    c.sectors.l2_reads = 12;
    cr_expect_float_eq(block_transfer_cycles(&c, 64, &m, 99, 1), 32, 1e-12);
    /* written back to DRAM: the rest of DRAM's rate beyond 1.25, 8·(4·1.25 + 2·(2 - 1.25)) = 52 */
    c.sectors.l2_reads = 0;
    c.sectors.writebacks = 2;
    cr_expect_float_eq(block_transfer_cycles(&c, 64, &m, 99, 1), 52, 1e-12);
    /* without the copy's rate (the presets: u_l2_copy is not derived): w = U, 8·(4·0.5 + 2·1.5) = 40 */
    m.u_l2_copy = 0;
    cr_expect_float_eq(block_transfer_cycles(&c, 64, &m, 99, 1), 40, 1e-12);
}

/* T of a program of the one kernel k on machine m. */
static double one_kernel_T(const kernel *k, const machine *m)
{
    kernel_dag *dag = kernel_dag_new(k->name);
    kernel_dag_add(dag, k);
    sim_result r = simulate(dag, m);
    double T = r.T;
    sim_result_free(&r);
    kernel_dag_free(dag);
    return T;
}

/* T of one launch of `blocks` blocks of one warp on a card of 4 SMs (one
 * block an SM at a time), each block writing 4 whole sectors into the L2
 * through the caches (32 words) and nothing else; U = 0.5, the card's
 * write rate 4 words a cycle (u_l2_write 1 an SM, every SM writing), an
 * SM's own `own` cycles a word (u_l2_write_sm; 0: off). */
static double writing_launch_T(long blocks, double own)
{
    machine m = small_card(4);
    m.u = 0.5;
    m.u_l2_write = 1;
    m.u_l2_write_sm = own;
    kernel k = test_kernel("w", blocks, 32, 1, 0, 1);
    k.cost.sectors = (cache_sectors){.measured = 1, .l2_writes = 4};
    return one_kernel_T(&k, &m);
}

Test(cache, an_sms_own_write_rate_is_refused_where_the_caches_do_not_write)
{
    /* the key acts only beside the caches' write rate: alone it would be
     * a value read as nothing */
    machine m = small_card(4);
    m.u_l2_write = 1;
    m.u_l2_write_sm = 0.5;
    cr_expect_eq(machine_validate(&m), 0, "%s", fail_message());
    machine off = m;
    off.l1_words = 0; /* validate's machine without the caches: every write key read as nothing */
    cr_expect_eq(machine_validate(&off), 0, "%s", fail_message());
    m.u_l2_write = 0;
    cr_expect_eq(machine_validate(&m), -1);
    cr_expect(strstr(fail_message(), "u_l2_write_sm = 0.5 needs the caches' write rate, u_l2_write > 0") != NULL,
              "%s", fail_message());
    machine plain = test_machine(4, 0.5);
    plain.u_l2_write_sm = 0.5;
    cr_expect_eq(machine_validate(&plain), -1, "no caches at all");
}

Test(cache, an_sm_writes_at_its_own_rate_or_its_share_of_the_cards_when_many_write)
{
    /* off: every block's 32 words at U, 16 cycles, whatever the SMs writing */
    double one = writing_launch_T(1, 0), all = writing_launch_T(4, 0);
    cr_expect_float_eq(all, one, 1e-9, "blocks on distinct SMs at once");
    /* on, the SM's own rate 0.5 a word: one SM writing takes max(0.5, 1·1/4)
     * = 0.5 a word, 16 cycles, as off; two SMs max(0.5, 2/4) = 0.5, the
     * same; three max(0.5, 3/4) = 0.75, 24 (8 more); four, the whole card,
     * u_l2_write = 1, 32 (16 more: the card's 4 words a cycle over 128) */
    cr_expect_float_eq(writing_launch_T(1, 0.5), one, 1e-9);
    cr_expect_float_eq(writing_launch_T(2, 0.5), one, 1e-9);
    cr_expect_float_eq(writing_launch_T(3, 0.5) - one, 8, 1e-9);
    cr_expect_float_eq(writing_launch_T(4, 0.5) - all, 16, 1e-9);
    /* 8 blocks cover the 4 SMs twice: each block's writes 32, 2·16 more */
    cr_expect_float_eq(writing_launch_T(8, 0.5) - writing_launch_T(8, 0), 32, 1e-9);
    /* an SM's own rate slower than its share (0.8 a word): 25.6 a block at one SM */
    cr_expect_float_eq(writing_launch_T(1, 0.8) - one, 8 * 4 * 0.8 - 16, 1e-9);
}

Test(cache, a_launchs_writers_are_the_sms_its_blocks_cover_and_the_warps_each_holds)
{
    machine m = small_card(4);
    m.blocks_per_sm = 2;
    kernel k = test_kernel("w", 8, 32, 1, 0, 1);
    l2_writers w = kernel_l2_writers(&k, &m);
    cr_expect_float_eq(w.sms, 4, 1e-12, "8 blocks cover the 4 SMs");
    cr_expect_float_eq(w.warps, 2, 1e-12, "min(2 resident, ⌈8 / 4⌉) blocks of one warp");
    k = test_kernel("w", 3, 128, 1, 0, 1);
    w = kernel_l2_writers(&k, &m);
    cr_expect_float_eq(w.sms, 3, 1e-12);
    cr_expect_float_eq(w.warps, 4, 1e-12, "one block of 4 warps an SM");
    m.blocks_per_sm = 8;
    m.threads_per_sm = 1024;
    k = test_kernel("w", 100, 256, 1, 0, 1);
    w = kernel_l2_writers(&k, &m);
    cr_expect_float_eq(w.warps, 32, 1e-12, "min(8, 1024 / 256, ⌈100 / 4⌉) = 4 blocks of 8 warps");
    k = test_kernel("w", 100, 48, 1, 0, 1);
    m.threads_per_sm = 0;
    w = kernel_l2_writers(&k, &m);
    cr_expect_float_eq(w.warps, 16, 1e-12, "8 blocks of ⌈48 / 32⌉ = 2 warps");
    l2_writers every = every_sm_writing(&m);
    cr_expect_float_eq(every.sms, 4, 1e-12);
    cr_expect_float_eq(every.warps, 0, 1e-12, "not known: the port's rate");
}

/* A block that writes 4 whole sectors (32 words) into the L2 and, with
 * `reads`, reads 4 (a copy), on a card of 4 SMs: U = 0.5, the card's
 * write rate u_l2_write 1, an SM's own 0.5 (its port's) and 1 with 4 warps
 * (u_l2_write_warps4); the write rule's copy rate 1.25 (every SM) and an
 * SM's own 0.75 where `copy_sm`. */
static machine writers_card(int copy, int copy_sm)
{
    machine m = small_card(4);
    m.u = 0.5;
    m.u_l2_write = 1;
    m.u_l2_write_sm = 0.5;
    m.u_l2_write_warps4 = 1;
    m.u_l2_copy = copy ? 1.25 : 0;
    m.u_l2_copy_sm = copy_sm ? 0.75 : 0;
    return m;
}

static double writers_block_cycles(const machine *m, int reads, double sms, double warps)
{
    block_cost c = {.writes = 1, .reads = reads};
    c.sectors = (cache_sectors){.measured = 1, .l2_writes = 4, .l2_reads = reads ? 4 : 0};
    return block_transfer_cycles_writing(&c, 32, m, 99, 1, (l2_writers){sms, warps});
}

Test(cache, an_sms_own_write_rate_is_its_warps_where_they_are_few)
{
    machine m = writers_card(0, 0);
    /* one SM writing: max(0.5, 1 · 4 / v, 1 · 1 / 4) a word, 32 words */
    cr_expect_float_eq(writers_block_cycles(&m, 0, 1, 1), 32 * 4.0, 1e-12, "one warp: 4 a word");
    cr_expect_float_eq(writers_block_cycles(&m, 0, 1, 2), 32 * 2.0, 1e-12, "two warps: 2");
    cr_expect_float_eq(writers_block_cycles(&m, 0, 1, 4), 32 * 1.0, 1e-12, "four: the row's own, 1");
    cr_expect_float_eq(writers_block_cycles(&m, 0, 1, 8), 32 * 0.5, 1e-12, "eight: the port's, 0.5");
    cr_expect_float_eq(writers_block_cycles(&m, 0, 1, 32), 32 * 0.5, 1e-12, "32: the port's");
    cr_expect_float_eq(writers_block_cycles(&m, 0, 1, 0), 32 * 0.5, 1e-12, "warps not known: the port's");
    /* every SM writing: the card's share, 1 a word, whatever the warps at 4 and more */
    cr_expect_float_eq(writers_block_cycles(&m, 0, 4, 32), 32 * 1.0, 1e-12);
    cr_expect_float_eq(writers_block_cycles(&m, 0, 4, 2), 32 * 2.0, 1e-12, "two warps: their own, slower");
    /* without u_l2_write_warps4 every launch at the port's rate, as session 47's term */
    m.u_l2_write_warps4 = 0;
    cr_expect_float_eq(writers_block_cycles(&m, 0, 1, 1), 32 * 0.5, 1e-12);
}

/* T of one block of one warp writing 4 whole sectors (32 words) into the
 * L2 after `span` cycles of compute, on writers_card, less T where the
 * machine lacks u_l2_write_warps4 (the writes then at the port's 0.5 a
 * word, 16 cycles after the compute). */
static double own_write_floor_T(double span)
{
    machine e = writers_card(0, 0);
    kernel k = test_kernel("w", 1, 32, span, 0, 1);
    k.cost.sectors = (cache_sectors){.measured = 1, .l2_writes = 4};
    double with = one_kernel_T(&k, &e);
    e.u_l2_write_warps4 = 0;
    return with - one_kernel_T(&k, &e);
}

Test(cache, an_sms_own_write_rate_by_its_warps_is_a_floor_beside_its_compute_not_a_cost_after_it)
{
    /* one warp: its 32 words take 4 a word, 128 cycles in all, while it
     * computes; after the compute the writes take max(16, 128 − span) */
    cr_expect_float_eq(own_write_floor_T(1), 128 - 1 - 16, 1e-9, "a write stream: the warp's rate, 128 in all");
    cr_expect_float_eq(own_write_floor_T(100), 128 - 100 - 16, 1e-9, "28 left after 100 cycles of compute");
    cr_expect_float_eq(own_write_floor_T(112), 0, 1e-9, "compute hides all but the port's 16");
    cr_expect_float_eq(own_write_floor_T(500), 0, 1e-9, "more compute: the port's 16, no less");
}

Test(cache, a_copy_costs_an_sms_own_copy_rate_or_its_share_of_the_cards_by_the_sms_copying)
{
    /* a copy block (4 sectors read at U, 16 cycles; 4 written): under the
     * write rule a written word costs max(C_k − U, W_k − 16 / 32) */
    machine m = writers_card(1, 1);
    /* one SM: C = max(0.75, 1.25 / 4) = 0.75, W = 0.5 (32 warps): max(0.25, 0) */
    cr_expect_float_eq(writers_block_cycles(&m, 1, 1, 32), 32 * 0.25, 1e-12, "the copy at 0.75 a word in all");
    cr_expect_float_eq(writers_block_cycles(&m, 1, 2, 32), 32 * 0.25, 1e-12, "two: C = max(0.75, 0.625)");
    /* every SM: C = 1.25, W = 1: max(0.75, 0.5), the card's copy row */
    cr_expect_float_eq(writers_block_cycles(&m, 1, 4, 32), 32 * 0.75, 1e-12, "the copy at 1.25 a word in all");
    /* 4 warps on one SM: W = 1, max(0.25, 0.5): their own write rate bounds the copy */
    cr_expect_float_eq(writers_block_cycles(&m, 1, 1, 4), 32 * 0.5, 1e-12);
    /* without u_l2_copy_sm: C = u_l2_copy at every k */
    m.u_l2_copy_sm = 0;
    cr_expect_float_eq(writers_block_cycles(&m, 1, 1, 32), 32 * 0.75, 1e-12);
    /* without the write rule the copy's own rate is not read: W alone */
    machine off = writers_card(0, 0);
    cr_expect_float_eq(writers_block_cycles(&off, 1, 1, 32), 32 * 0.5, 1e-12);
}

Test(cache, the_own_rates_by_warps_and_of_a_copy_are_refused_without_what_they_refine)
{
    machine m = writers_card(1, 1);
    cr_expect_eq(machine_validate(&m), 0, "%s", fail_message());
    m.u_l2_write_sm = 0;
    cr_expect_eq(machine_validate(&m), -1);
    cr_expect(strstr(fail_message(), "u_l2_write_warps4 = 1 needs u_l2_write_sm > 0") != NULL, "%s", fail_message());
    m = writers_card(1, 1);
    m.u_l2_write_warps4 = 0;
    cr_expect_eq(machine_validate(&m), 0, "the copy's own rate without the warps': %s", fail_message());
    m.u_l2_write_sm = 0;
    cr_expect_eq(machine_validate(&m), -1);
    cr_expect(strstr(fail_message(), "u_l2_copy_sm = 0.75 needs u_l2_write_sm > 0 and u_l2_copy > 0") != NULL,
              "%s", fail_message());
    m = writers_card(0, 1);
    cr_expect_eq(machine_validate(&m), -1, "without the write rule's copy rate");
    cr_expect(strstr(fail_message(), "u_l2_copy_sm = 0.75 needs") != NULL, "%s", fail_message());
    machine plain = test_machine(4, 0.5);
    plain.u_l2_copy_sm = 0.75;
    cr_expect_eq(machine_validate(&plain), -1, "no caches at all");
}

Test(cache, a_partial_sector_written_into_the_l2_costs_the_l2s_partial_rate)
{
    machine m = small_card(1);
    m.u = 0.5;
    m.u_dram = 2;
    m.u_l2_partial = 0.75; /* a word of a partial sector, the L2's own rate */
    block_cost c = {.writes = 1};
    c.sectors = (cache_sectors){.measured = 1, .l2_writes = 4, .l2_partial_writes = 1};
    /* 3 whole sectors at U, one partial at U · 0.75 / U (no u_l2_write):
     * 8·(3·0.5 + 0.75) = 18 */
    cr_expect_float_eq(block_transfer_cycles(&c, 64, &m, 99, 1), 18, 1e-12);
    /* a stream of partial sectors alone: 8·4·0.75 = 24, the row by construction */
    c.sectors.l2_partial_writes = 4;
    cr_expect_float_eq(block_transfer_cycles(&c, 64, &m, 99, 1), 24, 1e-12);
    /* and written back: DRAM's partial rate in all, 8·4·(0.75 + (3 − 0.75)) = 96 = 32·3 */
    m.u_dram_partial = 3;
    c.sectors.partial_writebacks = 4;
    cr_expect_float_eq(block_transfer_cycles(&c, 64, &m, 99, 1), 96, 1e-12);
    /* under the write rule, w = 1.25 (u_l2_write, no reads): a partial
     * rate below the whole one's adds nothing, 8·4·1.25 + 8·4·(3 − 1.25) = 40 + 56 = 96 */
    m.u_l2_write = 1.25;
    m.u_l2_copy = 1.5;
    cr_expect_float_eq(block_transfer_cycles(&c, 64, &m, 99, 1), 96, 1e-12);
    c.sectors.partial_writebacks = 0;
    cr_expect_float_eq(block_transfer_cycles(&c, 64, &m, 99, 1), 40, 1e-12);
    /* a partial rate of 1.5: 1.2 times u_l2_write; a stream of them
     * alone, 8·4·1.25·1.2 = 48 = 32 words at u_l2_partial */
    m.u_l2_partial = 1.5;
    cr_expect_float_eq(block_transfer_cycles(&c, 64, &m, 99, 1), 48, 1e-12);
    /* beside 96 words read from the L2 (48 cycles) w is the port's share,
     * u_l2_copy − U = 1, and the partial sectors 1.2 times it: 8·4·1.2 = 38.4 */
    c.sectors.l2_reads = 12;
    cr_expect_float_eq(block_transfer_cycles(&c, 64, &m, 99, 1), 38.4, 1e-12);
    c.sectors.l2_reads = 0;
    /* off (the key 0): a partial sector is a whole one, 8·4·0.5 = 16 as before */
    m = small_card(1);
    m.u = 0.5;
    cr_expect_eq(m.u_l2_partial, 0, "off by default");
    cr_expect_float_eq(block_transfer_cycles(&c, 64, &m, 99, 1), 16, 1e-12);
}

/* `blocks` blocks of one warp, all resident on one SM, whose instruction
 * stream is charged (stream_work instructions at one a cycle) and which
 * ran through the caches: 2 sectors read from the L2, 4 written into it. */
static double written_blocks_T(double overlap, double stream_work, int blocks)
{
    machine m = small_card(1);
    m.blocks_per_sm = blocks;
    m.u = 0.5;
    m.issue_rate = 1;
    m.write_issue_overlap = overlap;
    kernel k = test_kernel("k", blocks, 32, 1, 1, 1);
    k.cost.stream = 1;
    k.cost.stream_work = stream_work;
    k.cost.sectors = (cache_sectors){.measured = 1, .l2_reads = 2, .l2_writes = 4, .first_read = LEVEL_L2};
    return one_kernel_T(&k, &m);
}

Test(cache, the_issue_hides_its_share_of_the_blocks_writes)
{
    /* reads 8·0.5·2 = 8 cycles beside the work, writes 8·0.5·4 = 16 after
     * it; the compute max(span, 100 − 8) = 92 hides 0.75·min(16, 92) = 12 */
    double off = written_blocks_T(0, 100, 1), on = written_blocks_T(0.75, 100, 1);
    cr_expect_float_eq(off - on, 12, 1e-9, "%.17g against %.17g", on, off);
    /* all of them where the key is 1 */
    cr_expect_float_eq(off - written_blocks_T(1, 100, 1), 16, 1e-9);
    /* a compute shorter than the writes hides only its own length: 12 of
     * work less 8 of reads beside it, 4 cycles (the span, 1 link, is less) */
    double short_off = written_blocks_T(0, 12, 1);
    cr_expect_float_eq(short_off - written_blocks_T(1, 12, 1), 4, 1e-9);
    /* two blocks resident together share the lanes and the port: each
     * computes 200 cycles with its reads and its hidden writes beside
     * (2·(8 + 12) = 40 on the port), then they write the rest, 2·4: 24
     * cycles less than 2·16 of writes after the compute */
    cr_expect_float_eq(written_blocks_T(0, 100, 2) - written_blocks_T(0.75, 100, 2), 24, 1e-9);
    /* off: today's T, to the bit, whatever the stream */
    machine today = small_card(1);
    cr_expect_eq(today.write_issue_overlap, 0, "off by default");
    cr_expect_eq(written_blocks_T(0, 100, 1), off);
}

Test(cache, a_levels_reads_take_the_longer_of_their_sectors_and_their_requests)
{
    machine m = small_card(1);
    m.u = 0.5;
    m.u_dram = 2;
    m.u_l1 = 0.125;
    block_cost c = {.reads = 1};
    c.sectors = (cache_sectors){.measured = 1, .l2_reads = 3, .l2_requests = 3, .dram_reads = 4, .dram_requests = 2};
    /* no limit: 8·(0.5·3 + 2·4) = 76 */
    cr_expect_float_eq(block_transfer_cycles(&c, 64, &m, 99, 0), 76, 1e-12);
    /* the L2's 3 requests at 5 (15 > 12), DRAM's 2 at 10 (20 < 64) */
    m.u_l2_request = 5;
    m.u_dram_request = 10;
    cr_expect_float_eq(block_transfer_cycles(&c, 64, &m, 99, 0), 15 + 64, 1e-12);
    m.u_dram_request = 40; /* 80 > 64 */
    cr_expect_float_eq(block_transfer_cycles(&c, 64, &m, 99, 0), 15 + 80, 1e-12);
}

Test(cache, a_request_is_one_line_of_one_round_at_the_level_that_served_it)
{
    machine m = small_card(1);
    m.l1_words = 32 * 32;
    m.l2_words = 64 * 32;
    cache *c = cache_new(&m);
    fill_patterns(0);
    cache_sectors s = one_block(c, 0, stride32, 32);
    cr_expect_eq(s.dram_requests, 32, "32 lines, one sector each");
    cr_expect_eq(s.l2_requests, 0);
    s = one_block(c, 0, consecutive, 32);
    cr_expect_eq(s.dram_requests, 1, "one line: its 3 sectors not yet held");
    cr_expect_eq(s.l2_requests, 1, "and its sector 0, held since the round before");
    cr_expect_eq(s.dram_reads, 3);
    cache_free(c);
}

Test(cache, a_block_waits_for_the_level_of_its_first_read)
{
    machine m = small_card(1);
    m.read_latency_l1 = 30;
    m.read_latency = 250;
    m.read_latency_dram = 400;
    kernel k = test_kernel("k", 1, 32, 1, 1, 0);
    block_cost c = k.cost;
    c.sectors.measured = 1;
    const double expected[] = {0, 30, 250, 400};
    for (int level = LEVEL_NONE; level <= LEVEL_DRAM; level++) {
        c.sectors.first_read = level;
        cr_expect_eq(block_read_latency(&k, &c, &m), expected[level], "level %d", level);
    }
    m.read_latency_dram = 0; /* as read_latency */
    cr_expect_eq(block_read_latency(&k, &c, &m), 250);
    c.sectors.measured = 0; /* not run through the caches: the kernel's working set decides */
    cr_expect_eq(block_read_latency(&k, &c, &m), 250);
}

/* ---- machines ----------------------------------------------------------------- */

Test(cache, a_machine_with_caches_needs_lines_an_l2_and_an_l1_rate)
{
    machine m = small_card(1);
    cr_expect_eq(machine_validate(&m), 0, "%s", fail_message());
    m.line_words = 12; /* not a multiple of 8 */
    cr_expect_eq(machine_validate(&m), -1);
    cr_expect(strstr(fail_message(), "line_words") != NULL, "%s", fail_message());
    m = small_card(1);
    m.line_words = 64;
    cr_expect_eq(machine_validate(&m), -1, "at most 32 words a line");
    m = small_card(1);
    m.l2_words = 0;
    cr_expect_eq(machine_validate(&m), -1);
    cr_expect(strstr(fail_message(), "L2") != NULL, "%s", fail_message());
    m = small_card(1);
    m.u_l1 = 0;
    cr_expect_eq(machine_validate(&m), -1);
    cr_expect(strstr(fail_message(), "u_l1") != NULL, "%s", fail_message());
    m = small_card(1);
    m.dram_atom_words = 12; /* not whole sectors */
    cr_expect_eq(machine_validate(&m), -1);
    cr_expect(strstr(fail_message(), "dram_atom_words") != NULL, "%s", fail_message());
    m.dram_atom_words = 64; /* more than a line */
    cr_expect_eq(machine_validate(&m), -1);
    m.dram_atom_words = 16;
    cr_expect_eq(machine_validate(&m), 0, "%s", fail_message());
    m = small_card(1);
    m.l1_words = 0; /* off: the other keys are inert */
    m.line_words = 7;
    cr_expect_eq(machine_validate(&m), 0, "%s", fail_message());
    cr_expect_null(cache_new(&m));
}

/* ---- exec mode ------------------------------------------------------------------ */

typedef struct io { gmem x, y; } io;

/* y[i] = x[i] + x[i + 1] + x[i + 2]: three rounds over one line or two */
static void triple(exec_thread *t, void *args)
{
    io *a = args;
    long i = t->bid * t->threads + t->tid;
    word v = exec_gread(t, a->x, i) + exec_gread(t, a->x, i + 1) + exec_gread(t, a->x, i + 2);
    exec_ops(t, 2);
    exec_gwrite(t, a->y, i, v % 1000003);
}

static const exec_step triple_steps[] = {triple};
static const exec_kernel triple_kernel = {"triple", 1, triple_steps, 0};

/* The kernel launched in run r on new arrays: n = 64·blocks words out of
 * n + 2. */
static void launch_triple(exec_run *r, long blocks)
{
    long n = 64 * blocks;
    io a = {exec_alloc(r, "x", n + 2), exec_alloc(r, "y", n)};
    for (long i = 0; i < n + 2; i++)
        a.x->cells[i] = (word)(i * 7 + 1);
    cr_assert_eq(exec_launch(r, &triple_kernel, blocks, 64, &a), 0, "%s", fail_message());
    for (long i = 0; i < n; i++)
        cr_assert_eq(a.y->cells[i], (a.x->cells[i] + a.x->cells[i + 1] + a.x->cells[i + 2]) % 1000003);
}

/* The kernel run on machine m, one launch of `blocks` blocks. */
static exec_run *run_triple(const machine *m, long blocks, int race_free)
{
    exec_run *r = exec_begin("triple", m);
    exec_set_race_free(r, race_free);
    launch_triple(r, blocks);
    return r;
}

Test(cache, exec_mode_fills_each_blocks_sectors_from_its_accesses)
{
    /* 1 SM, 1 block at a time.  The arrays enter the L2 before the launch:
     * x, 66 words, is lines 0 and 1 and words 64, 65 of line 2 (2 of the 8
     * words of its sector 0).  Block 0's warps w = 0, 1 read x[32w + j],
     * x[32w + j + 1], x[32w + j + 2] (j the lane) in rounds 0, 1, 2, replayed
     * round by round, warp 0 before warp 1:
     *   round 0  warp 0: line 0, 4 sectors from the L2;
     *            warp 1: line 1, 4 from the L2;
     *   round 1  warp 0: line 0 and sector 0 of line 1, 5 hits: 2 wavefronts;
     *            warp 1: line 1, 4 hits (1 wavefront), and sector 0 of line 2,
     *            which the L2 holds in part: from DRAM;
     *   round 2  warp 0: 5 hits, 2 wavefronts; warp 1: 5 hits, 2 wavefronts. */
    machine m = small_card(1);
    m.l1_words = 32 * 8;
    m.l2_words = 32 * 16;
    m.blocks_per_sm = 1;
    exec_run *r = run_triple(&m, 1, 1);
    const cache_sectors *s = &kernel_block_cost(&exec_dag(r)->kernels[0], 0)->sectors;
    cr_expect_eq(s->measured, 1);
    cr_expect_eq(s->first_read, LEVEL_L2, "the arrays were copied in before the launch");
    cr_expect_eq(s->l2_reads, 8, "%g", s->l2_reads);
    cr_expect_eq(s->dram_reads, 1, "%g", s->dram_reads);
    cr_expect_eq(s->l1_wavefronts, 2 + 1 + 2 + 2, "%g", s->l1_wavefronts);
    cr_expect_eq(s->l2_writes, 8, "64 words written: 8 sectors");
    cr_expect_eq(s->l2_partial_writes, 0, "each of them whole");
    exec_end(r);
}

Test(cache, with_the_caches_off_every_cost_is_todays)
{
    machine on = small_card(4);
    on.blocks_per_sm = 2;
    on.lanes = 32;
    on.read_latency = 100;
    machine off = on;
    off.l1_words = 0;
    exec_run *with = run_triple(&on, 16, 1), *without = run_triple(&off, 16, 1);
    const kernel *kw = &exec_dag(with)->kernels[0], *ko = &exec_dag(without)->kernels[0];
    for (long b = 0; b < 16; b++) {
        block_cost cw = *kernel_block_cost(kw, b);
        const block_cost *co = kernel_block_cost(ko, b);
        cr_expect_eq(cw.sectors.measured, 1);
        cr_expect_eq(co->sectors.measured, 0, "no caches: nothing measured");
        cw.sectors = co->sectors;
        cr_expect(memcmp(&cw, co, sizeof cw) == 0, "block %ld: the same costs besides", b);
    }
    sim_result a = simulate(exec_dag(with), &off), b = simulate(exec_dag(without), &off);
    cr_expect_eq(a.T, b.T, "a DAG run through the caches, on a machine without: today's T");
    cr_expect_eq(a.costs.O, b.costs.O);
    sim_result c = simulate(exec_dag(with), &on);
    cr_expect_neq(c.T, b.T, "with them, the sectors decide");
    sim_result_free(&a);
    sim_result_free(&b);
    sim_result_free(&c);
    exec_end(with);
    exec_end(without);
}

Test(cache, each_launch_of_a_run_costs_what_it_costs_alone_however_many_blocks_came_before)
{
    /* Launches of 4, 16 and 2 blocks in one run, each on arrays of its own
     * (an L2 of 4096 lines keeps them all, so no launch's lines meet
     * another's): the run holds its blocks' results from launch to launch,
     * growing at 16 and reusing at 2, and each launch's costs must be those
     * of the same launch run alone, byte for byte (a result not cleared
     * would add the launch before's sectors to its own). */
    machine m = small_card(2);
    m.blocks_per_sm = 2;
    m.l2_words = 32 * 4096;
    const long sizes[3] = {4, 16, 2};
    exec_run *many = exec_begin("triple", &m);
    exec_set_race_free(many, 1);
    for (int k = 0; k < 3; k++)
        launch_triple(many, sizes[k]);
    for (int k = 0; k < 3; k++) {
        exec_run *alone = run_triple(&m, sizes[k], 1);
        const kernel *km = &exec_dag(many)->kernels[k], *ka = &exec_dag(alone)->kernels[0];
        for (long b = 0; b < sizes[k]; b++) {
            const block_cost *cm = kernel_block_cost(km, b), *ca = kernel_block_cost(ka, b);
            cr_expect_eq(cm->sectors.measured, 1);
            cr_expect(memcmp(cm, ca, sizeof *cm) == 0, "launch %d, block %ld: its costs alone", k, b);
        }
        exec_end(alone);
    }
    exec_end(many);
}

Test(cache, the_fast_path_and_the_checked_path_record_the_same_sectors)
{
    /* not race-free: exec mode's fast path is off while it records, so the
     * counts are those of a race-free run */
    machine m = small_card(2);
    m.blocks_per_sm = 2;
    exec_run *fast = run_triple(&m, 8, 0), *checked = run_triple(&m, 8, 1);
    for (long b = 0; b < 8; b++)
        cr_expect(memcmp(&kernel_block_cost(&exec_dag(fast)->kernels[0], b)->sectors,
                         &kernel_block_cost(&exec_dag(checked)->kernels[0], b)->sectors, sizeof(cache_sectors)) == 0,
                  "block %ld", b);
    exec_end(fast);
    exec_end(checked);
}

/* A block of one warp and one step whose instruction stream is charged:
 * its span's reads are the block's first read and stream_reads − 1 links. */
static double chain_reads_cycles(const cache_sectors *s, const machine *m, double stream_reads)
{
    machine counted = *m;
    counted.issue_rate = 4;
    kernel k = test_kernel("k", 1, 32, 1, 1, 0);
    k.cost.stream = 1;
    k.cost.stream_reads = stream_reads;
    k.cost.sectors = *s;
    return block_read_latency(&k, &k.cost, &counted) + block_span_cycles(&k.cost, &counted);
}

Test(cache, a_chain_that_reads_a_word_from_the_l2_and_again_from_the_l1_waits_each_levels_latency)
{
    /* Line 0 is in the L2.  Warp 0's chain reads a word of it (round 0:
     * the L2's 250 cycles), then, needing that value, the word again
     * (round 1: the line is there, the L1's 30); between them the warp
     * reads the line twice more, beside its chain (rounds 2, 3, as Euclid
     * reads its state's words: L1 hits, as the warp waited already).  The
     * chain waits 250 + 30 = 280, not the first read and the mean of the
     * four loads, 250 + (250 + 3·30)/4 = 335, nor twice that mean. */
    machine m = latency_card();
    cache *c = cache_new(&m);
    into_l2(c, 0);
    const warp_read reads[] = {{0, 0, 0, 0, 1}, {0, 0, 1, 0, 1}, {0, 0, 2, 0, 0}, {0, 0, 3, 0, 0}};
    cache_sectors s = warps_reading(c, reads, 4);
    cr_expect_eq(s.warp_loads[LEVEL_L2], 1);
    cr_expect_eq(s.warp_loads[LEVEL_L1], 3);
    cr_expect_eq(s.chain_loads[LEVEL_L1], 1, "the chain's second read; its first is the block's read");
    cr_expect_eq(s.chain_loads[LEVEL_L2] + s.chain_loads[LEVEL_DRAM], 0);
    cr_expect_float_eq(chain_reads_cycles(&s, &m, 2), 250 + 30, 1e-9);
    /* without the links known (every read a link, as a table without
     * them): the mean of the loads after the first */
    const warp_read all[] = {{0, 0, 0, 0, 1}, {0, 0, 1, 0, 1}, {0, 0, 2, 0, 1}, {0, 0, 3, 0, 1}};
    cache_free(c);
    c = cache_new(&m);
    into_l2(c, 0);
    s = warps_reading(c, all, 4);
    cr_expect_eq(s.chain_loads[LEVEL_L1], 3);
    cr_expect_float_eq(chain_reads_cycles(&s, &m, 2), 250 + 30, 1e-9);
    cache_free(c);
}

Test(cache, a_link_reading_a_line_the_warp_asked_for_beside_its_chain_waits_for_the_fill)
{
    /* Lines 0 and 1 are in the L2.  Warp 0: round 0, a link, reads line 1
     * (the L2); round 1, beside the chain, reads line 0 (the L2); round 2,
     * a link, reads line 0 again.  The load of round 2 finds its sectors
     * on their way: the warp's own round 1 waited for them, so as a load it
     * is an L1 hit (warp_loads), but the chain did not wait for round 1:
     * it waits for the fill, the L2's latency (chain_loads). */
    machine m = latency_card();
    cache *c = cache_new(&m);
    into_l2(c, 1);
    into_l2(c, 0);
    const warp_read reads[] = {{0, 0, 0, 1, 1}, {0, 0, 1, 0, 0}, {0, 0, 2, 0, 1}};
    cache_sectors s = warps_reading(c, reads, 3);
    cr_expect_eq(s.warp_loads[LEVEL_L2], 2);
    cr_expect_eq(s.warp_loads[LEVEL_L1], 1);
    cr_expect_eq(s.chain_loads[LEVEL_L2], 1, "the link waits for the fill");
    cr_expect_eq(s.chain_loads[LEVEL_L1], 0);
    cr_expect_float_eq(chain_reads_cycles(&s, &m, 2), 250 + 250, 1e-9);
    cache_free(c);
}

/* A read's site (stream_read_site): counted block `block` (>= 1), the
 * lane's pass `pass` through it, the read's index `read` in that pass; a
 * link of a chain. */
static uint64_t site(uint64_t block, uint64_t pass, uint64_t read)
{
    return block << STREAM_SITE_BLOCK_SHIFT | pass << STREAM_SITE_PASS_SHIFT | read << STREAM_SITE_READ_SHIFT |
           STREAM_SITE_CHAIN;
}

/* Block 0's counts after its one warp's notes w, the launch ended and c
 * and t freed. */
static cache_sectors one_warps_block(cache *c, cache_trace *t, const warp_notes *w)
{
    cache_warp_done(t, 0, 0, w);
    cache_sectors out;
    cache_block_done(c, 0, t, &out);
    cache_launch_end(c);
    cache_trace_free(t);
    cache_free(c);
    return out;
}

/* A cache on m with lines 0 and 5 in its L2, and a warp's trace (*t) in
 * a launch of one block begun: one_warps_block's. */
static cache *lines_0_and_5_in_l2(const machine *m, cache_trace **t)
{
    cache *c = cache_new(m);
    into_l2(c, 5);
    into_l2(c, 0);
    *t = cache_trace_new(c, 32);
    cache_launch_begin(c, 1, 1, 0);
    return c;
}

/* One block of a warp of two lanes, one step: lane 0, in a guarded block
 * (counted block 1), reads word 0 of line 5; then both lanes, in counted
 * block 2, read words 0 and 1 of line 0, a link of their chain.  Lines 0
 * and 5 are in the L2.  With `sites` the notes carry their sites (the
 * stream counted), else none (0: unknown).  Its counts. */
static cache_sectors guarded_then_shared(const machine *m, int sites)
{
    cache_trace *t;
    cache *c = lines_0_and_5_in_l2(m, &t);
    access_note notes[2][4] = {{{access_key(0, 32 * 5), sites ? site(1, 1, 0) : 0}, {access_key(0, 1), sites ? site(2, 1, 0) : 0}},
                               {{access_key(0, 0), sites ? site(2, 1, 0) : 0}}}; /* rounds 0 and 1, lanes side by side */
    access_note writes[1] = {{0, 0}};
    int made[2][2] = {{2, 1}, {0, 0}};
    warp_notes w = {{&notes[0][0], writes}, {made[0], made[1]}, {2, 0}, {1, 0}, 4, 2};
    if (!sites)
        for (int r = 0; r < 2; r++)
            cache_note_chain(t, r);
    return one_warps_block(c, t, &w);
}

Test(cache, a_read_after_a_guarded_block_is_one_round_of_the_warps_lanes_from_the_l2)
{
    /* The card issues the read of line 0 as one load instruction of both
     * lanes (a warp issues one instruction for its active lanes, their
     * addresses coalesced): one round, whatever lane 0 read before it in
     * its guarded block; the line asked of the L2 once, and the chain's
     * link waits the L2's latency.  Lane 0's guarded read of line 5 is a
     * round of its own. */
    machine m = latency_card();
    cache_sectors s = guarded_then_shared(&m, 1);
    cr_expect_eq(s.warp_loads[LEVEL_L2], 2, "the guarded read, and line 0 read once by both lanes");
    cr_expect_eq(s.warp_loads[LEVEL_L1], 0);
    cr_expect_eq(s.l2_requests, 2);
    cr_expect_eq(s.chain_loads[LEVEL_L2], 1, "the link after the block's first read waits the L2");
    cr_expect_eq(s.chain_loads[LEVEL_L1], 0);
    cr_expect_float_eq(chain_reads_cycles(&s, &m, 2), 250 + 250, 1e-9);
    /* without the sites (no stream counted), a round is each lane's k-th
     * read: lane 1's word of line 0 goes with lane 0's guarded read, and
     * lane 0's word of it a round later, an L1 hit in the line its warp
     * waited for */
    s = guarded_then_shared(&m, 0);
    cr_expect_eq(s.warp_loads[LEVEL_L2], 1);
    cr_expect_eq(s.warp_loads[LEVEL_L1], 1);
    cr_expect_eq(s.chain_loads[LEVEL_L1], 1);
}

/* One block of a warp, one step: lanes 0 and 1 read words 0 and 1 of
 * line 0 at one site, then words 0 and 1 of line 5 at another, the second
 * read a link of a chain in lane 1's note only; with `idle_lane` a third
 * lane of the warp reads nothing.  Lines 0 and 5 are in the L2.  Its
 * counts. */
static cache_sectors two_sites_in_step(const machine *m, int idle_lane)
{
    cache_trace *t;
    cache *c = lines_0_and_5_in_l2(m, &t);
    uint64_t first = site(2, 1, 0) & ~STREAM_SITE_CHAIN, second = site(2, 1, 1) & ~STREAM_SITE_CHAIN;
    access_note notes[2 * 4] = {{access_key(0, 0), first}, {access_key(0, 1), first}}; /* round 0, lanes side by side */
    notes[4] = (access_note){access_key(0, 32 * 5), second};                          /* round 1 */
    notes[5] = (access_note){access_key(0, 32 * 5 + 1), second | STREAM_SITE_CHAIN};
    access_note writes[1] = {{0, 0}};
    int made[2][3] = {{2, 2, 0}, {0, 0, 0}};
    warp_notes w = {{notes, writes}, {made[0], made[1]}, {2, 0}, {idle_lane ? 0 : 2, 0}, 4, idle_lane ? 3 : 2};
    return one_warps_block(c, t, &w);
}

Test(cache, reads_in_lockstep_make_the_rounds_their_sites_make)
{
    /* Every lane's r-th read at the r-th site (lockstep_reads) skips the
     * sites' numbering: its rounds, their lines and their chains must be
     * the ones the numbering makes, which a lane that reads nothing
     * brings back into play. */
    machine m = latency_card();
    cache_sectors lockstep = two_sites_in_step(&m, 0), numbered = two_sites_in_step(&m, 1);
    cr_expect_eq(lockstep.warp_loads[LEVEL_L2], 2, "each site's round asks the L2 once");
    cr_expect_eq(lockstep.l2_requests, 2);
    cr_expect_eq(lockstep.chain_loads[LEVEL_L2], 1, "the second round is a link: one lane's note says so");
    cr_expect(memcmp(&lockstep, &numbered, sizeof lockstep) == 0, "the same counts as the sites' numbering");
}
