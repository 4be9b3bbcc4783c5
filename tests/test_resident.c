/*
 * test_resident.c — several resident blocks per SM under `parallel`:
 * resident.c's sharing of an SM's lanes and port on hand-checked cases,
 * and the block scheduler that plays them (sim/engine/engine.c) against the same
 * blocks as SimGrid activities shared by SimGrid's max-min solver
 * (sharing_by_simgrid), on the case studies on the card presets and on
 * seeded random DAGs.
 *
 * The two agree to SimGrid's precision, not bit for bit: SimGrid solves
 * the sharing to a relative 1e-5 of the rates (maxmin/precision) and ends
 * an activity whose work left is below 1e-9 cycles, and rounds differently.
 * Times are compared to a relative 1e-6.
 */
#include "helpers.h"
#include "resident.h"
#include "rng.h"

#include <math.h>

/* ---- one SM, by hand ---------------------------------------------------- */

/* Run SM s to its last event; returns the time, and counts the blocks
 * that ended. */
static double run_out(resident_sm *s, int *blocks)
{
    int ended[16];
    double t = 0;
    *blocks = 0;
    for (double next; (next = resident_next(s)) < INFINITY;) {
        t = next;
        *blocks += resident_advance(s, next, ended);
    }
    return t;
}

Test(resident, a_block_alone_takes_its_phases_in_turn)
{
    resident_sm s;
    cr_assert_eq(resident_init(&s, 4), 0);
    resident_times t = {.wait = 5, .read = 10, .write = 10, .work = 0, .span = 20};
    resident_start(&s, 0, 0, &t);
    cr_expect_eq(resident_next(&s), 5, "the wait ends at 5");
    int ended[4];
    cr_expect_eq(resident_advance(&s, 5, ended), 0);
    cr_expect_eq(resident_next(&s), 15, "the reads end at 15");
    resident_advance(&s, 15, ended);
    cr_expect_eq(s.slot[0].read_end, 15);
    cr_expect_eq(resident_next(&s), 35, "the compute (a delay of the span) ends at 35");
    resident_advance(&s, 35, ended);
    cr_expect_eq(s.slot[0].write_start, 35);
    cr_expect_eq(resident_next(&s), 45);
    cr_expect_eq(resident_advance(&s, 45, ended), 1);
    cr_expect_eq(ended[0], 0);
    cr_expect_eq(s.held, 0);
    cr_expect_eq(resident_next(&s), INFINITY);
    cr_expect_eq(resident_free_slot(&s), 0);
    resident_free(&s);
}

Test(resident, a_block_with_no_cycles_ends_where_it_starts_and_frees_its_slot)
{
    /* nothing to wait for, read, compute or write: a wait of none, so it
     * ends at the SM's next event, its start, and is held no more (it once
     * went straight to free, still held, and never ended) */
    resident_sm s;
    cr_assert_eq(resident_init(&s, 2), 0);
    resident_times none = {0};
    resident_start(&s, 0, 7, &none);
    cr_expect_eq(s.held, 1);
    cr_expect_eq(resident_next(&s), 7);
    int ended[2];
    cr_expect_eq(resident_advance(&s, 7, ended), 1);
    cr_expect_eq(ended[0], 0);
    cr_expect_eq(s.held, 0);
    cr_expect_eq(resident_free_slot(&s), 0);
    cr_expect_eq(resident_next(&s), INFINITY);
    /* with a retirement: it ends at its start, then the SM retires it */
    s.retire = 3;
    resident_start(&s, 0, 10, &none);
    cr_expect_eq(resident_advance(&s, 10, ended), 1, "it ends, reported once");
    cr_expect_eq(s.held, 1, "held while the SM retires it");
    cr_expect_eq(resident_next(&s), 13);
    cr_expect_eq(resident_advance(&s, 13, ended), 0);
    cr_expect_eq(s.held, 0);
    resident_free(&s);
}

Test(resident, two_blocks_share_the_port_equally)
{
    /* both read 100 cycles at once: half the port each, both by 200 */
    resident_sm s;
    cr_assert_eq(resident_init(&s, 2), 0);
    resident_times t = {.read = 100};
    resident_start(&s, 0, 0, &t);
    resident_start(&s, 1, 0, &t);
    int blocks;
    cr_expect_eq(run_out(&s, &blocks), 200);
    cr_expect_eq(blocks, 2);
    resident_free(&s);
}

Test(resident, lanes_are_shared_max_min_under_each_blocks_bound)
{
    /* A: work 100, span 50 (it may take 2 lane-cycles per cycle, the SM
     * has 1); B: work 10, span 100 (at most 0.1 per cycle).  Together B
     * takes its 0.1 and A the other 0.9: B ends at 100, when A has done 90;
     * A's last 10 at the whole SM: 110. */
    resident_sm s;
    cr_assert_eq(resident_init(&s, 2), 0);
    resident_times a = {.work = 100, .span = 50}, b = {.work = 10, .span = 100};
    resident_start(&s, 0, 0, &a);
    resident_start(&s, 1, 0, &b);
    cr_expect_float_eq(s.slot[0].rate, 0.9, 1e-15);
    cr_expect_float_eq(s.slot[1].rate, 0.1, 1e-15);
    int ended[2];
    cr_expect_float_eq(resident_next(&s), 100, 1e-12);
    cr_expect_eq(resident_advance(&s, resident_next(&s), ended), 1);
    cr_expect_eq(ended[0], 1, "B ends first");
    cr_expect_float_eq(resident_next(&s), 110, 1e-12);
    resident_free(&s);
}

/* Y (slot 1) starts computing at 0, X (slot 0) at 5, both `t`, served by
 * age or max-min fair: each one's share of the lanes once both run, as by
 * hand, and when each ends (Y first). */
static void y_then_x(const resident_times *t, int by_age, double y_rate, double x_rate, double *y_end,
                     double *x_end)
{
    resident_sm s;
    cr_assert_eq(resident_init(&s, 2), 0);
    s.by_age = by_age;
    resident_start(&s, 1, 0, t);
    resident_start(&s, 0, 5, t);
    cr_expect_float_eq(s.slot[1].rate, y_rate, 1e-15, "Y, %s", by_age ? "by age" : "max-min fair");
    cr_expect_float_eq(s.slot[0].rate, x_rate, 1e-15, "X, %s", by_age ? "by age" : "max-min fair");
    int ended[2];
    *y_end = resident_next(&s);
    cr_expect_eq(resident_advance(&s, *y_end, ended), 1);
    cr_expect_eq(ended[0], 1, "Y ends first");
    *x_end = resident_next(&s);
    cr_expect_eq(resident_advance(&s, *x_end, ended), 1);
    resident_free(&s);
}

/* By age (issue_by_age) the lanes go to the block that started first, not
 * to the lower slot: Y (slot 1, work 60, span 100: at most 0.6 a cycle)
 * alone from 0, X (slot 0, the same) from 5.  Y keeps its 0.6 and X takes
 * the 0.4 left; Y ends at 100, when X has done 0.4·95 = 38; X's last 22 at
 * its bound, 36.67 more.  Max-min fair, both 0.5 from 5: Y's 57 left end
 * at 119, X's last 3 at 0.6 at 124. */
Test(resident, by_age_the_block_that_started_first_takes_its_bound_and_the_next_what_is_left)
{
    resident_times t = {.work = 60, .span = 100};
    double y_end, x_end;
    y_then_x(&t, 0, 0.5, 0.5, &y_end, &x_end);
    cr_expect_float_eq(y_end, 119, 1e-9);
    cr_expect_float_eq(x_end, 124, 1e-9);
    y_then_x(&t, 1, 0.6, 0.4, &y_end, &x_end); /* the elder keeps its bound, the younger takes what is left */
    cr_expect_float_eq(y_end, 100, 1e-9);
    cr_expect_float_eq(x_end, 100 + 22 / 0.6, 1e-9);
}

/* Is unserved slot i served before slot j (-1: none yet), as by hand?
 * Max-min: the lesser bound first; by age: the earlier start first.  Ties
 * to the lower slot (i > j here when j is set, as the walk goes up). */
static int scratch_before(const resident_sm *s, const double *bound, int i, int j)
{
    if (j < 0)
        return 1;
    return s->by_age ? s->slot[i].start < s->slot[j].start : bound[i] < bound[j];
}

/* The lanes' rates worked out from scratch, as by hand: the unserved
 * block served first (max-min: of least bound; by age: of earliest start;
 * ties to the lower slot) takes its bound or, max-min, an equal share of
 * what is left, by age all that is left.  rates[i]: slot i's, or -1 if it
 * is not on the lanes. */
static void lanes_from_scratch(const resident_sm *s, double *rates)
{
    double bound[16];
    int n = 0, served[16] = {0};
    for (int i = 0; i < s->used; i++) {
        const resident_slot *b = &s->slot[i];
        rates[i] = -1;
        served[i] = 1;
        if (b->phase != RESIDENT_COMPUTE || b->t.work <= 0 || (b->t.beside && b->left <= 0))
            continue;
        double path = b->t.span + (b->t.beside ? b->t.read : 0);
        bound[i] = path > 0 ? b->t.work / path : INFINITY;
        served[i] = 0;
        n++;
    }
    double capacity = 1;
    for (int left = n; left > 0; left--) {
        int first = -1;
        for (int i = 0; i < s->used; i++)
            if (!served[i] && scratch_before(s, bound, i, first))
                first = i;
        rates[first] = fmin(bound[first], s->by_age ? capacity : capacity / left);
        capacity -= rates[first];
        served[first] = 1;
    }
}

/* Blocks of random work, span and reads (bounds often equal, some
 * `beside`) start on one SM at random events, the lanes max-min fair or
 * by age: at every event the rates on the lanes are, to the bit, those
 * worked out anew, and the transfers counted on the port those there. */
static void rates_against_scratch(uint64_t seed, int by_age)
{
    rng r;
    rng_seed(&r, seed);
    resident_sm s;
    cr_assert_eq(resident_init(&s, 8), 0);
    s.by_age = by_age;
    int ended[8], checked = 0;
    double now = 0;
    for (int step = 0; step < 4000; step++) {
        int slot = resident_free_slot(&s);
        if (slot >= 0 && rng_below(&r, 2)) {
            resident_times t = {.wait = (double)rng_below(&r, 3), .read = (double)rng_below(&r, 20),
                                .write = (double)rng_below(&r, 20), .work = (double)rng_below(&r, 4) * 25,
                                .span = (double)(1 + rng_below(&r, 3)) * 10, .beside = rng_below(&r, 4) == 0};
            resident_start(&s, slot, now, &t);
        } else if (resident_next(&s) < INFINITY) {
            now = resident_next(&s);
            resident_advance(&s, now, ended);
        }
        int on_port = 0; /* a transfer on the port, or reads beside a compute */
        for (int i = 0; i < s.used; i++) {
            const resident_slot *x = &s.slot[i];
            on_port += x->phase == RESIDENT_READ || x->phase == RESIDENT_WRITE ||
                       (x->phase == RESIDENT_COMPUTE && x->t.beside && x->port_left > 0);
        }
        cr_assert_eq(s.transfers[0], on_port, "step %d: %d on the port, counted %d", step, on_port, s.transfers[0]);
        double rates[8];
        lanes_from_scratch(&s, rates);
        for (int i = 0; i < s.used; i++)
            if (rates[i] >= 0) {
                cr_assert_eq(s.slot[i].rate, rates[i], "by age %d, step %d, slot %d: %.17g, from scratch %.17g",
                             by_age, step, i, s.slot[i].rate, rates[i]);
                checked++;
            }
    }
    cr_expect_gt(checked, 1000, "the lanes were busy: %d rates checked", checked);
    resident_free(&s);
}

Test(resident, the_rates_and_counts_kept_between_changes_are_those_worked_out_from_scratch)
{
    rates_against_scratch(41, 0);
}

/* Blocks often start at one instant here (several between two events), so
 * the slot breaks many ties of age. */
Test(resident, by_age_the_rates_kept_between_changes_are_those_worked_out_from_scratch)
{
    rates_against_scratch(41, 1);
    rates_against_scratch(43, 1);
}

Test(resident, alone_a_block_computes_for_max_of_span_and_work)
{
    /* issue 10's example, in lane-cycles: W(B) = 2 560 on 128 lanes is 20
     * work cycles; with S(B) = 10 the block takes 20; with S(B) = 40, 40 */
    resident_sm s;
    cr_assert_eq(resident_init(&s, 1), 0);
    resident_times t = {.work = 20, .span = 10};
    resident_start(&s, 0, 0, &t);
    int blocks;
    cr_expect_eq(run_out(&s, &blocks), 20);
    cr_expect_eq(blocks, 1);
    t.span = 40;
    resident_start(&s, 0, 20, &t); /* the slot again, a block with no write phase: it ends, counted */
    cr_expect_eq(run_out(&s, &blocks), 60);
    cr_expect_eq(blocks, 1);
    cr_expect_eq(s.held, 0);
    resident_free(&s);
}

Test(resident, a_blocks_span_is_the_one_given_for_the_blocks_computing_on_its_sm)
{
    /* span 100 alone, 150 with a second block computing beside it, 200
     * with two more, work 20: alone it takes 100; two together each take
     * their bound 20/150 of the lanes (0.27 together, below the SM's 1) and
     * end 150 after their start */
    resident_sm s;
    cr_assert_eq(resident_init(&s, 2), 0);
    resident_times t = {.work = 20, .span = 100, .span_with = {100, 150, 200, 200, 200, 200, 200, 200}};
    resident_start(&s, 0, 0, &t);
    int blocks;
    cr_expect_float_eq(run_out(&s, &blocks), 100, 1e-12);
    resident_start(&s, 0, 100, &t);
    resident_start(&s, 1, 100, &t);
    cr_expect_float_eq(run_out(&s, &blocks), 250, 1e-12);
    resident_free(&s);
    /* three: 200 each, 0.3 of the lanes together */
    cr_assert_eq(resident_init(&s, 3), 0);
    for (int i = 0; i < 3; i++)
        resident_start(&s, i, 0, &t);
    cr_expect_float_eq(run_out(&s, &blocks), 200, 1e-12);
    resident_free(&s);
    /* span_with[0] = 0: `span` whatever the blocks (every earlier rule) */
    cr_assert_eq(resident_init(&s, 2), 0);
    resident_times plain = {.work = 20, .span = 100};
    resident_start(&s, 0, 0, &plain);
    resident_start(&s, 1, 0, &plain);
    cr_expect_float_eq(run_out(&s, &blocks), 100, 1e-12);
    resident_free(&s);
}

/* By age the elder's chains wait for no younger block's warps: Y (slot
 * 1) computes alone from 0, X (slot 0) joins at 5; each has work 20, span
 * 100 alone and 150 with one block beside it.  Y, the elder, keeps span 100
 * (0.2 of the lanes) and ends at 100; X waits for Y's warps, span 150
 * (20/150 of the lanes): 95 · 2/15 = 12.67 done by 100, its last 7.33 alone
 * at 0.2, 36.67 more.  Max-min fair both count each other: Y's 1 done by
 * 5, its 19 left at 2/15 end at 147.5, when X has 1 left: 152.5. */
Test(resident, by_age_a_blocks_chains_wait_for_its_elders_warps_not_the_younger_ones)
{
    resident_times t = {.work = 20, .span = 100, .span_with = {100, 150, 150, 150, 150, 150, 150, 150}};
    double y_end, x_end;
    y_then_x(&t, 1, 0.2, 20.0 / 150, &y_end, &x_end); /* the elder at its span alone, the younger beside it */
    cr_expect_float_eq(y_end, 100, 1e-9);
    cr_expect_float_eq(x_end, 100 + (20 - 95 * 20.0 / 150) / 0.2, 1e-9);
    y_then_x(&t, 0, 20.0 / 150, 20.0 / 150, &y_end, &x_end);
    cr_expect_float_eq(y_end, 5 + 19 / (20.0 / 150), 1e-9);
    cr_expect_float_eq(x_end, 152.5, 1e-9);
}

Test(resident, one_blocks_transfer_overlaps_anothers_compute)
{
    /* A computes 100 (a delay), B reads 100 then computes: B's reads do
     * not slow A; a late C joins B on the port at 50 and halves it */
    resident_sm s;
    cr_assert_eq(resident_init(&s, 3), 0);
    resident_times a = {.span = 100}, b = {.read = 100}, c = {.read = 30};
    resident_start(&s, 0, 0, &a);
    resident_start(&s, 1, 0, &b);
    int ended[3];
    cr_expect_eq(resident_next(&s), 100);
    /* at 50, B has read 50; with C, each gets half: C ends at 50 + 60 = 110,
     * B has 50 left, of which 30 by 110 and 20 more at full rate: 130 */
    resident_start(&s, 2, 50, &c);
    cr_expect_eq(resident_next(&s), 100, "A's delay ends as before");
    cr_expect_eq(resident_advance(&s, 100, ended), 1);
    cr_expect_eq(ended[0], 0);
    cr_expect_float_eq(resident_next(&s), 110, 1e-12);
    cr_expect_eq(resident_advance(&s, resident_next(&s), ended), 1);
    cr_expect_eq(ended[0], 2);
    cr_expect_float_eq(resident_next(&s), 130, 1e-12);
    resident_free(&s);
}

/* ---- reads beside the compute (a counted stream, card_terms.h) ---------- */

Test(resident, alone_a_block_whose_reads_move_beside_its_compute_takes_its_reads_and_span_or_its_work)
{
    /* wait 5, reads 10, span 20, work 6: no read phase; the compute takes
     * the port for the 10 cycles of reads and the lanes at 6/30 a cycle,
     * and ends at 5 + max(10 + 20, 6) = 35; its writes by 45.  Read first,
     * the same block ends at 5 + 10 + 20 + 10 = 45 too: alone a block bound
     * by its path loses nothing. */
    resident_sm s;
    cr_assert_eq(resident_init(&s, 1), 0);
    resident_times t = {.wait = 5, .read = 10, .write = 10, .work = 6, .span = 20, .beside = 1};
    resident_start(&s, 0, 0, &t);
    int ended[1];
    cr_expect_eq(resident_next(&s), 5, "the wait ends at 5");
    resident_advance(&s, 5, ended);
    cr_expect_eq(s.slot[0].phase, RESIDENT_COMPUTE, "no read phase");
    cr_expect_eq(s.slot[0].read_end, 5);
    cr_expect_float_eq(resident_next(&s), 15, 1e-12, "its reads are done at 15, its work goes on");
    resident_advance(&s, resident_next(&s), ended);
    cr_expect_eq(s.slot[0].phase, RESIDENT_COMPUTE);
    cr_expect_float_eq(resident_next(&s), 35, 1e-12, "the compute ends at 5 + 10 + 20");
    resident_advance(&s, resident_next(&s), ended);
    cr_expect_float_eq(resident_next(&s), 45, 1e-12);
    cr_expect_eq(resident_advance(&s, resident_next(&s), ended), 1);
    /* bound by its work, 50: its 10 cycles of reads inside it, 5 + 50 */
    t.work = 50;
    resident_start(&s, 0, 100, &t);
    int blocks;
    double end = run_out(&s, &blocks);
    cr_expect_float_eq(end, 100 + 5 + 50 + 10, 1e-12);
    resident_free(&s);
}

Test(resident, blocks_in_step_read_while_they_compute_where_read_first_they_take_turns)
{
    /* two blocks at once, each reads 100 and works 100 (span 10): read
     * first, the port takes both for 200 cycles, then the lanes for 200:
     * 400.  Reads beside: the port and the lanes at once, 200. */
    for (int beside = 0; beside <= 1; beside++) {
        resident_sm s;
        cr_assert_eq(resident_init(&s, 2), 0);
        resident_times t = {.read = 100, .work = 100, .span = 10, .beside = beside};
        resident_start(&s, 0, 0, &t);
        resident_start(&s, 1, 0, &t);
        int blocks;
        double end = run_out(&s, &blocks);
        cr_expect_float_eq(end, beside ? 200 : 400, 1e-12, "beside %d", beside);
        cr_expect_eq(blocks, 2);
        resident_free(&s);
    }
}

Test(resident, a_block_done_reading_beside_its_compute_leaves_the_port_to_the_others)
{
    /* A reads 10 beside 100 of work (span 1: the whole lanes); B reads
     * 100 first.  Half the port each until A's reads are done at 20; B
     * then has 90 left at the whole port: 110.  A's work ends at 100. */
    resident_sm s;
    cr_assert_eq(resident_init(&s, 2), 0);
    resident_times a = {.read = 10, .work = 100, .span = 1, .beside = 1}, b = {.read = 100};
    resident_start(&s, 0, 0, &a);
    resident_start(&s, 1, 0, &b);
    int ended[2];
    cr_expect_float_eq(resident_next(&s), 20, 1e-12, "A's reads done");
    cr_expect_eq(resident_advance(&s, resident_next(&s), ended), 0);
    cr_expect_float_eq(resident_next(&s), 100, 1e-12, "A's work");
    cr_expect_eq(resident_advance(&s, resident_next(&s), ended), 1);
    cr_expect_eq(ended[0], 0);
    cr_expect_float_eq(resident_next(&s), 110, 1e-12, "B's reads, the port its own from 20");
    cr_expect_eq(resident_advance(&s, resident_next(&s), ended), 1);
    cr_expect_eq(ended[0], 1);
    resident_free(&s);
}

/* ---- the channel of `shared` ------------------------------------------- */

/* SM 0 reads twice, SM 1 once, 100 cycles each, from 0, on `channel`. */
static void three_reads(resident_card *c, double channel)
{
    cr_assert_eq(resident_card_init(c, 2, 2, channel, 1), 0);
    resident_times t = {.read = 100};
    resident_card_start(c, 0, 0, 0, &t);
    resident_card_start(c, 0, 1, 0, &t);
    resident_card_start(c, 1, 0, 0, &t);
    resident_card_settle(c, 0);
}

Test(resident, the_channel_fills_the_busiest_ports_first)
{
    /* SM 0 reads twice, SM 1 once, 100 cycles each, on a channel of 1.8
     * port-cycles per cycle.  SM 0's port is full at 0.5 a transfer; the
     * 0.8 left go to SM 1's one transfer (max-min, not 0.6 each).  SM 1
     * ends at 125; then the channel is no limit: SM 0's 37.5 left each at
     * 0.5, by 200. */
    resident_card c;
    three_reads(&c, 1.8);
    cr_expect_float_eq(c.level, 0.8, 1e-15);
    cr_expect_eq(c.sm[0].slot[0].rate, 0.5);
    cr_expect_float_eq(c.sm[1].slot[0].rate, 0.8, 1e-15);
    int sm, ended[2];
    cr_expect_float_eq(resident_card_next(&c, &sm), 125, 1e-12);
    cr_expect_eq(sm, 1);
    cr_expect_eq(resident_card_advance(&c, sm, ended), 1);
    resident_card_settle(&c, 125);
    cr_expect_eq(c.level, INFINITY, "one port on a channel of 1.8: no limit");
    cr_expect_float_eq(resident_card_next(&c, &sm), 200, 1e-12);
    cr_expect_eq(sm, 0);
    cr_expect_eq(resident_card_advance(&c, sm, ended), 2);
    cr_expect_eq(resident_card_next(&c, &sm), INFINITY);
    resident_card_free(&c);
}

Test(resident, a_narrow_channel_gives_every_transfer_the_same_rate)
{
    /* the same on a channel of 1.5: 0.5 each, all three end at 200 */
    resident_card c;
    three_reads(&c, 1.5);
    cr_expect_float_eq(c.level, 0.5, 1e-15);
    int sm;
    cr_expect_float_eq(resident_card_next(&c, &sm), 200, 1e-12);
    resident_card_free(&c);
}

Test(resident, under_shared_a_port_reads_and_writes_at_once)
{
    /* as SimGrid's cluster links: one block reads 100 while another writes
     * 100 on the same SM, each at the full port (both by 100), unless the
     * channel is one port wide (half each: by 200) */
    for (int wide = 0; wide <= 1; wide++) {
        resident_card c;
        cr_assert_eq(resident_card_init(&c, 1, 2, wide ? 10 : 1, 1), 0);
        resident_times in = {.read = 100}, out = {.write = 100};
        resident_card_start(&c, 0, 0, 0, &in);
        resident_card_start(&c, 0, 1, 0, &out);
        resident_card_settle(&c, 0);
        int sm, ended[2];
        cr_expect_eq(resident_card_next(&c, &sm), wide ? 100 : 200);
        cr_expect_eq(resident_card_advance(&c, sm, ended), 2, "both end at once");
        resident_card_free(&c);
    }
}

/* ---- the block scheduler: where blocks go ------------------------------- */

Test(resident, blocks_freed_at_one_instant_are_spread_over_the_sms)
{
    /* a: 8 blocks of 10 cycles fill 2 SMs of 4 slots at 0; at 10 all end,
     * and b's 4 blocks go to the SM holding the fewest, ties to the lower:
     * SM 0, 1, 0, 1.  Busy 20 and 20 (not 20 and 10, all on SM 0). */
    kernel_dag *dag = kernel_dag_new("spread");
    kernel a = test_kernel("a", 8, 32, 10, 0, 0), b = test_kernel("b", 4, 32, 10, 0, 0);
    kernel_dag_add(dag, &a);
    kernel_dag_add(dag, &b);
    machine m = test_machine(2, 1);
    m.blocks_per_sm = 4;
    char *trace;
    sim_result r = simulate_traced(dag, &m, &trace, NULL);
    cr_expect_eq(r.T, 20);
    cr_expect_eq(r.sm_busy[0], 20);
    cr_expect_eq(r.sm_busy[1], 20);
    cr_expect(strstr(trace, "\nb,0,0,10,20,10,20\nb,2,0,10,20,10,20\nb,1,1,10,20,10,20\nb,3,1,10,20,10,20\n") != NULL,
              "b's blocks by SM: %s", trace);
    cr_expect(strstr(trace, "\na,0,0,0,10,0,10\na,2,0,0,10,0,10\n") != NULL, "a's blocks by SM: %s", trace);
    free(trace);
    sim_result_free(&r);
    kernel_dag_free(dag);
}

Test(resident, a_kernel_holds_no_more_blocks_than_its_threads_allow)
{
    /* 256 threads a block, 512 threads an SM: 2 of the 4 slots; 6 blocks
     * of 10 cycles on 1 SM go 2 at a time: T = 30 */
    kernel_dag *dag = kernel_dag_new("threads");
    kernel k = test_kernel("k", 6, 256, 10, 0, 0);
    kernel_dag_add(dag, &k);
    machine m = test_machine(1, 1);
    m.blocks_per_sm = 4;
    m.threads_per_sm = 512;
    sim_result r = simulate(dag, &m);
    cr_expect_eq(r.T, 30);
    sim_result_free(&r);
    kernel_dag_free(dag);
}

Test(resident, resident_blocks_share_the_port_in_a_kernel)
{
    /* 4 blocks each reading 32 words at U = 1 (32 cycles alone) and
     * computing 8, on 1 SM of 4 slots: the 4 reads share the port, all end
     * at 128; then 8 of compute: T = 136 (alone a block takes 40) */
    kernel_dag *dag = kernel_dag_new("port");
    kernel k = test_kernel("k", 4, 32, 8, 32, 0);
    kernel_dag_add(dag, &k);
    machine m = test_machine(1, 1);
    m.blocks_per_sm = 4;
    sim_result r = simulate(dag, &m);
    cr_expect_eq(r.T, 136);
    sim_result_free(&r);
    kernel_dag_free(dag);
}

/* ---- the SM's retiring of its blocks (block_retire) ------------------- */

Test(resident, a_slot_is_free_once_its_sm_has_retired_its_block)
{
    /* two blocks of a 5-cycle delay end at 5; the SM retires them one at a
     * time, 10 cycles each: slot 0 is free at 15, slot 1 at 25 */
    resident_sm s;
    cr_assert_eq(resident_init(&s, 2), 0);
    s.retire = 10;
    resident_times t = {.span = 5};
    resident_start(&s, 0, 0, &t);
    resident_start(&s, 1, 0, &t);
    int ended[2];
    cr_expect_eq(resident_advance(&s, 5, ended), 2, "both blocks end at 5");
    cr_expect_eq(s.held, 2, "but hold their slots");
    cr_expect_eq(resident_free_slot(&s), -1);
    cr_expect_eq(resident_next(&s), 15);
    cr_expect_eq(resident_advance(&s, 15, ended), 0, "a retirement ends no block");
    cr_expect_eq(resident_free_slot(&s), 0);
    resident_start(&s, 0, 15, &t); /* a third block, 15 to 20: retired after slot 1's, 25 to 35 */
    cr_expect_eq(resident_next(&s), 20);
    cr_expect_eq(resident_advance(&s, 20, ended), 1);
    cr_expect_eq(resident_next(&s), 25);
    resident_advance(&s, 25, ended);
    cr_expect_eq(resident_free_slot(&s), 1);
    cr_expect_eq(resident_next(&s), 35);
    resident_advance(&s, 35, ended);
    cr_expect_eq(s.held, 0);
    resident_free(&s);
}

Test(resident, an_sm_takes_a_block_per_retirement_once_its_first_have_ended)
{
    /* 4 blocks of 5 cycles on 1 SM of 2 slots, block_retire 10: blocks 0
     * and 1 run 0-5, the SM retires them 5-15 and 15-25, blocks 2 and 3
     * run 15-20 and 25-30.  T = 30: the kernel ends with its last block,
     * not with its retirement.  Without retiring, T = 10. */
    kernel_dag *dag = kernel_dag_new("retire");
    kernel k = test_kernel("k", 4, 32, 5, 0, 0);
    kernel_dag_add(dag, &k);
    machine m = test_machine(1, 1);
    m.blocks_per_sm = 2;
    for (int by_simgrid = 0; by_simgrid < 2; by_simgrid++) {
        m.sharing_by_simgrid = by_simgrid;
        m.block_retire = 10;
        char *trace;
        sim_result r = simulate_traced(dag, &m, &trace, NULL);
        cr_expect_eq(r.T, 30, "by SimGrid: %d", by_simgrid);
        cr_expect(strstr(trace, ",15,20,") != NULL && strstr(trace, ",25,30,") != NULL, "%s", trace);
        free(trace);
        sim_result_free(&r);
        m.block_retire = 0;
        r = simulate(dag, &m);
        cr_expect_eq(r.T, 10);
        sim_result_free(&r);
    }
    kernel_dag_free(dag);
}

Test(resident, block_retire_needs_resident_blocks)
{
    machine m = test_machine(1, 1);
    m.block_retire = 10;
    cr_expect_eq(machine_validate(&m), -1);
    cr_expect(strstr(fail_message(), "block_retire = 10 needs blocks_per_sm > 1") != NULL, "%s", fail_message());
    m.blocks_per_sm = 2;
    cr_expect_eq(machine_validate(&m), 0, "%s", fail_message());
    m.block_retire = -1;
    cr_expect_eq(machine_validate(&m), -1);
    cr_expect(strstr(fail_message(), "block_retire = -1 must be >= 0") != NULL, "%s", fail_message());
    machine d;
    machine_defaults(&d);
    cr_expect_eq(d.block_retire, 0, "off by default");
}

Test(resident, a_links_latency_with_twice_the_warps_on_a_scheduler_is_at_most_twice_as_long)
{
    /* the span beside other blocks stays within Theorem 1's bound only
     * if the warps rows grow no faster than the warps (run.c) */
    machine m = test_machine(1, 2);
    m.cycles_mulmod = 80;
    m.cycles_mulmod_warps2 = 160;
    m.cycles_mulmod_warps4 = 320;
    m.cycles_issue = 5;
    m.cycles_issue_warps8 = 40; /* 8 times the one-warp row: the rows between not given */
    cr_expect_eq(machine_validate(&m), 0, "%s", fail_message());
    m.cycles_mulmod_warps2 = 2000;
    cr_expect_eq(machine_validate(&m), -1);
    cr_expect(strstr(fail_message(), "cycles_mulmod_warps2 = 2000 is more than 2 times cycles_mulmod = 80") != NULL,
              "%s", fail_message());
    m.cycles_mulmod_warps2 = 0; /* off: warps4 against the one-warp row, 4 times */
    cr_expect_eq(machine_validate(&m), 0, "%s", fail_message());
    m.cycles_issue_warps8 = 40.5;
    cr_expect_eq(machine_validate(&m), -1);
    cr_expect(strstr(fail_message(), "cycles_issue_warps8 = 40.5 is more than 8 times cycles_issue = 5") != NULL,
              "%s", fail_message());
}

Test(resident, issue_by_age_needs_resident_blocks_and_only_the_engines_sharing_serves_it)
{
    machine m = test_machine(1, 1);
    m.issue_by_age = 1;
    cr_expect_eq(machine_validate(&m), -1);
    cr_expect(strstr(fail_message(), "issue_by_age = 1 needs blocks_per_sm > 1") != NULL, "%s", fail_message());
    m.blocks_per_sm = 2;
    cr_expect_eq(machine_validate(&m), 0, "%s", fail_message());
    machine d;
    machine_defaults(&d);
    cr_expect_eq(d.issue_by_age, 0, "max-min fair by default");
    kernel_dag *dag = kernel_dag_new("by-age");
    kernel k = test_kernel("k", 4, 32, 5, 0, 0);
    kernel_dag_add(dag, &k);
    sim_result r = simulate(dag, &m);
    cr_expect_eq(r.T, 10, "4 blocks of 5 cycles, two at a time on one SM");
    sim_result_free(&r);
    m.sharing_by_simgrid = 1; /* the tests' SimGrid reference shares max-min only */
    cr_expect_eq(sim_run(dag, &m, NULL, &r), -1);
    cr_expect(strstr(fail_message(), "not by age") != NULL, "%s", fail_message());
    kernel_dag_free(dag);
}

/* A whole run where the two sharings part: one SM of 3 slots, 64 lanes;
 * 3 blocks of 32 threads, S(B) = 100 (cycles_plain 1), W(B) = 32 · 100 =
 * 3 200 operations, 50 cycles on 64 lanes: each takes at most 50/100 =
 * 0.5 of the lanes (the span binds, alone 100 cycles).  All three start at
 * 0.  Max-min fair: 1/3 each, below the bound; 50/(1/3) = 150 for all,
 * T = 150.  By age (ties to the lower slot): blocks 0 and 1 take their
 * 0.5, block 2 none; 0 and 1 end at 100, then block 2 alone at 0.5: its
 * 50 by 200, T = 200. */
Test(resident, by_age_a_wave_whose_span_binds_ends_one_block_after_another_and_lasts_longer)
{
    kernel_dag *dag = kernel_dag_new("by-age-wave");
    kernel k = test_kernel("k", 3, 32, 100, 0, 0);
    kernel_dag_add(dag, &k);
    machine m = test_machine(1, 1);
    m.blocks_per_sm = 3;
    m.lanes = 64;
    const double T[2] = {150, 200};
    for (int by_age = 0; by_age < 2; by_age++) {
        m.issue_by_age = by_age;
        sim_result r = simulate(dag, &m);
        cr_expect_float_eq(r.T, T[by_age], 1e-9, "by age %d: T %.17g, by hand %g", by_age, r.T, T[by_age]);
        sim_result_free(&r);
    }
    m.issue_by_age = 0;
    m.sharing_by_simgrid = 1; /* SimGrid's max-min solver agrees, to its precision */
    sim_result r = simulate(dag, &m);
    cr_expect_float_eq(r.T, 150, 1e-3, "by SimGrid: T %.17g", r.T);
    sim_result_free(&r);
    kernel_dag_free(dag);
}

/* ---- the block scheduler against SimGrid's sharing ---------------------- */

static sim_result run_sharing(const kernel_dag *dag, const machine *m, int by_simgrid)
{
    machine mode = *m;
    mode.sharing_by_simgrid = by_simgrid;
    return simulate(dag, &mode);
}

static int close_enough(double a, double b)
{
    return fabs(a - b) <= 1e-6 * fmax(fabs(a), fabs(b));
}

/* The block scheduler and SimGrid: the same figures to 1e-6, relative (a
 * kernel's instants relative to T).
 * Returns the relative difference of T. */
static double same_sharing(const kernel_dag *dag, const machine *m, const char *what)
{
    sim_result a = run_sharing(dag, m, 1), b = run_sharing(dag, m, 0);
    cr_expect(close_enough(a.T, b.T), "%s: T %.17g by SimGrid, %.17g", what, a.T, b.T);
    cr_expect_eq(a.costs.N, b.costs.N, "%s: N", what);
    cr_expect(close_enough(a.costs.W, b.costs.W), "%s: W", what);
    cr_expect(close_enough(a.costs.O, b.costs.O), "%s: O", what);
    cr_expect(close_enough(a.costs.C, b.costs.C), "%s: C", what);
    cr_expect(close_enough(a.utilization, b.utilization), "%s: utilisation %.17g, %.17g", what, a.utilization,
              b.utilization);
    /* A kernel's start and end are instants of the run: T is their scale.
     * (The two paths round differently, and sharing an SM's lanes and its
     * retire queue amplifies that: on plain-mult n = 1 024, s = 4, one SM
     * of the H100 preset of session 2026-11-26g, the blocks' times differ
     * by 5e-11 cycles at block 25, 5e-7 at block 100, 0.05 at 200, then
     * the kernel ends 0.46 cycles apart at 377 k: 1.2e-6 of that instant,
     * 8e-7 of T.) */
    double scale = fmax(fabs(a.T), fabs(b.T));
    for (int k = 0; k < a.n_kernels; k++) {
        cr_expect(fabs(a.kernels[k].start - b.kernels[k].start) <= 1e-6 * scale,
                  "%s: kernel %d's start %.17g, %.17g", what, k, a.kernels[k].start, b.kernels[k].start);
        cr_expect(fabs(a.kernels[k].end - b.kernels[k].end) <= 1e-6 * scale, "%s: kernel %d's end %.17g, %.17g",
                  what, k, a.kernels[k].end, b.kernels[k].end);
    }
    double diff = fabs(a.T - b.T) / fmax(a.T, b.T);
    sim_result_free(&a);
    sim_result_free(&b);
    return diff;
}

/* The case studies on the card presets, on one SM (where no block is
 * placed before another: the two paths differ only in how they share). */
Test(resident, case_studies_on_one_sm_of_the_card_presets, .timeout = 300)
{
    struct {
        const char *program, *names, *preset;
        double values[5];
        int n;
    } cases[] = {
        {"sum", "n l", "h100", {1 << 16, 256}, 2},
        {"prefix-optimal", "n l", "h200", {1 << 14, 256}, 2},
        {"plain-mult", "n m l s", "h100", {1024, 1024, 256, 4}, 4},
        {"plain-mult", "n m l s", "h200", {512, 256, 256, 1}, 4},
        {"stockham", "n l", "h100", {1 << 12, 128}, 2},
        {"cooley-tukey", "n l m", "h100", {1 << 12, 128, 16}, 3},
        {"radix-sort", "n c s l", "h100", {1 << 12, 32, 8, 256}, 4},
        {"euclid", "n m s l", "h100", {500, 500, 1, 256}, 4},
        {"plain-division", "n m l s d", "h200", {100, 180, 2, 1, 1}, 5},
        {"fft-mult", "n m l", "h100", {1024, 1024, 256}, 3},
    };
    double worst = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        machine m = test_preset(cases[i].preset);
        cr_assert_gt(m.blocks_per_sm, 1, "%s: a card preset holds several blocks per SM", cases[i].preset);
        kernel_dag *dag = build_builtin(cases[i].program,
                                        test_params_of(cases[i].names, cases[i].values, (size_t)cases[i].n), &m);
        m.p = 1;
        char what[128];
        snprintf(what, sizeof what, "%s on %s", cases[i].program, cases[i].preset);
        worst = fmax(worst, same_sharing(dag, &m, what));
        m.launch = LAUNCH_GRAPH;
        worst = fmax(worst, same_sharing(dag, &m, what));
        kernel_dag_free(dag);
    }
    cr_log_info("case studies: T within %.2g of SimGrid's", worst);
}

/* A random DAG whose blocks all cost differently (times not whole
 * numbers), so that no two blocks end at one instant: which kernel is
 * released first never rests on a tie rule.  Words moved: fractions of a
 * word, or whole words (see uniform_dag). */
static kernel_dag *random_dag(rng *g, int whole_words)
{
    int n = 1 + (int)rng_below(g, 8);
    kernel_dag *dag = kernel_dag_new("random");
    for (int i = 0; i < n; i++) {
        char name[16];
        snprintf(name, sizeof name, "k%d", i);
        double divide = whole_words ? 1 : 7;
        kernel k = test_kernel(name, 1 + (long)rng_below(g, 60), 32 * (1 + (int)rng_below(g, 8)), 1,
                               (double)rng_below(g, 300) / divide, (double)rng_below(g, 300) / divide);
        for (long b = 0; b < k.blocks; b++) {
            block_cost c = k.cost;
            c.span = 1 + (double)rng_below(g, 100000) / 41.0;
            c.work = k.threads * c.span * (1 + (double)rng_below(g, 400) / 100.0);
            kernel_append_costs(&k, b, &c);
        }
        cr_assert_eq(kernel_dag_add(dag, &k), i, "%s", fail_message());
        for (int j = 0; j < i; j++)
            if (rng_below(g, 3) == 0)
                kernel_dag_after(dag, i, j);
    }
    return dag;
}

/* A third of the time a launch latency, a third of the time a block
 * dispatch, neither of them a whole number of cycles. */
static void random_host_terms(rng *g, machine *m)
{
    if (rng_below(g, 3) == 0)
        m->launch_latency = (double)rng_below(g, 2000) / 3.0;
    if (rng_below(g, 3) == 0)
        m->block_dispatch = (double)rng_below(g, 50) / 7.0;
}

/* Two hundred seeded random DAGs on one SM of the card path, the block
 * scheduler against SimGrid's sharing; with `retire`, every SM also
 * retires its blocks (block_retire, not a whole number of cycles). */
static void random_dags_against_simgrid(uint64_t seed, int retire)
{
    rng g;
    rng_seed(&g, seed);
    double worst = 0;
    for (int trial = 0; trial < 200; trial++) {
        kernel_dag *dag = random_dag(&g, 0);
        machine m = test_machine(1, 0.5 + (double)rng_below(&g, 100) / 53.0); /* one SM: no placement */
        m.z = 1e9; /* residency limited by slots and threads */
        m.blocks_per_sm = 2 + (int)rng_below(&g, 15);
        if (rng_below(&g, 3) == 0)
            m.threads_per_sm = 256 * (1 + (int)rng_below(&g, 8));
        if (rng_below(&g, 2) == 0)
            m.lanes = 1 + (double)rng_below(&g, 128); /* compute shares the lanes */
        random_host_terms(&g, &m);
        if (retire)
            m.block_retire = (double)(1 + rng_below(&g, 400)) / 7.0;
        char what[64];
        snprintf(what, sizeof what, "random DAG %d", trial);
        worst = fmax(worst, same_sharing(dag, &m, what));
        kernel_dag_free(dag);
    }
    cr_log_info("200 random DAGs%s: T within %.2g of SimGrid's", retire ? " retiring their blocks" : "", worst);
}

Test(resident, two_hundred_random_dags, .timeout = 300)
{
    random_dags_against_simgrid(20261126, 0);
}

Test(resident, two_hundred_random_dags_retiring_their_blocks, .timeout = 300)
{
    random_dags_against_simgrid(20261127, 1);
}

/* `shared`, one block per SM, kernels whose blocks cost alike (which SM
 * takes which block changes no time): the block scheduler's channel
 * against SimGrid's network model, on up to 16 SMs.  Whole words only:
 * SimGrid's communications move whole bytes (a byte stands for a word),
 * so it drops the fraction of a word that the block scheduler moves. */
static kernel_dag *uniform_dag(rng *g)
{
    int n = 1 + (int)rng_below(g, 8);
    kernel_dag *dag = kernel_dag_new("uniform");
    for (int i = 0; i < n; i++) {
        char name[16];
        snprintf(name, sizeof name, "k%d", i);
        kernel k = test_kernel(name, 1 + (long)rng_below(g, 100), 32 * (1 + (int)rng_below(g, 8)),
                               1 + (double)rng_below(g, 1000) / 37.0, (double)rng_below(g, 60),
                               (double)rng_below(g, 40));
        cr_assert_eq(kernel_dag_add(dag, &k), i, "%s", fail_message());
        for (int j = 0; j < i; j++)
            if (rng_below(g, 3) == 0)
                kernel_dag_after(dag, i, j);
    }
    return dag;
}

Test(resident, the_shared_channel_against_simgrids_network, .timeout = 300)
{
    rng g;
    rng_seed(&g, 20261127);
    double worst = 0;
    for (int trial = 0; trial < 200; trial++) {
        int uniform = trial % 2 == 0;
        kernel_dag *dag = uniform ? uniform_dag(&g) : random_dag(&g, 1);
        machine m = test_machine(uniform ? 1 + (int)rng_below(&g, 16) : 1, 0.5 * (1 << rng_below(&g, 4)));
        m.z = 1e9;
        m.policy = MEM_SHARED;
        m.bandwidth = (0.2 + (double)rng_below(&g, 100) / 20.0) / m.u; /* 0.2 to 5 ports' worth */
        if (!uniform)
            m.blocks_per_sm = 2 + (int)rng_below(&g, 15); /* one SM: its blocks and the channel */
        random_host_terms(&g, &m);
        char what[64];
        snprintf(what, sizeof what, "shared DAG %d", trial);
        worst = fmax(worst, same_sharing(dag, &m, what));
        kernel_dag_free(dag);
    }
    cr_log_info("200 DAGs under shared: T within %.2g of SimGrid's", worst);
}

/* ---- the memory of `exclusive` ------------------------------------------- */

Test(resident, the_cards_next_event_is_its_earliest_sms_ties_to_the_lower)
{
    /* blocks of whole-cycle phases (a wait of at least one: a block of no
     * cycles at all is no block) start on random SMs of a card of 7 (not
     * a power of two) at random events, so that SMs often tie: at every
     * step the card's next event is the least of its SMs', from the lowest
     * SM among those that have it */
    rng r;
    rng_seed(&r, 41);
    resident_card c;
    cr_assert_eq(resident_card_init(&c, 7, 3, INFINITY, 0), 0);
    int ended[3], ties = 0;
    double now = 0;
    for (int step = 0; step < 4000; step++) {
        int sm = (int)rng_below(&r, 7), slot = resident_free_slot(&c.sm[sm]);
        int at;
        if (slot >= 0 && rng_below(&r, 2)) {
            resident_times t = {.wait = (double)(1 + rng_below(&r, 3)), .read = (double)rng_below(&r, 3) * 4,
                                .write = (double)rng_below(&r, 3) * 4, .span = (double)rng_below(&r, 3) * 5};
            resident_card_start(&c, sm, slot, now, &t);
        } else if (resident_card_next(&c, &at) < INFINITY) {
            now = resident_card_next(&c, &at);
            resident_card_advance(&c, at, ended);
        }
        double least = INFINITY;
        int first = -1, with_least = 0;
        for (int i = 0; i < 7; i++) {
            double next = resident_next(&c.sm[i]);
            if (next < least)
                least = next, first = i, with_least = 0;
            with_least += next == least && next < INFINITY;
        }
        ties += with_least > 1;
        at = -1;
        cr_assert_eq(resident_card_next(&c, &at), least, "step %d", step);
        if (least < INFINITY)
            cr_assert_eq(at, first, "step %d: SM %d, the lowest with the next event SM %d", step, at, first);
    }
    cr_expect_gt(ties, 100, "SMs tied on the next event at %d steps", ties);
    resident_card_free(&c);
}

Test(resident, the_exclusive_memory_serves_one_transfer_at_a_time)
{
    /* 3 SMs each read 10 at 0: served one after the other, by 10, 20, 30;
     * whichever goes first, each SM's read ends at a different one */
    resident_card c;
    cr_assert_eq(resident_card_init(&c, 3, 1, INFINITY, 0), 0);
    cr_assert_eq(resident_card_exclusive(&c, 7), 0);
    resident_times t = {.read = 10};
    for (int sm = 0; sm < 3; sm++)
        resident_card_start(&c, sm, 0, 0, &t);
    int ends_seen[3] = {0, 0, 0};
    for (double now = 10; now <= 30; now += 10) {
        resident_card_settle(&c, now - 10);
        int sm, ended[1];
        cr_expect_eq(resident_card_next(&c, &sm), now, "one transfer served, 10 cycles alone");
        cr_expect_eq(resident_card_advance(&c, sm, ended), 1);
        ends_seen[sm]++;
    }
    for (int sm = 0; sm < 3; sm++)
        cr_expect_eq(ends_seen[sm], 1, "SM %d was served once", sm);
    int sm;
    resident_card_settle(&c, 30);
    cr_expect_eq(resident_card_next(&c, &sm), INFINITY);
    resident_card_free(&c);
}

/* A chain of kernels whose blocks cost alike and move words one way only
 * (read or write): whichever waiting transfer the memory serves, the
 * times are the same.  The block scheduler's memory against SimGrid's
 * controller actor, on up to 8 SMs. */
Test(resident, the_exclusive_memory_against_simgrids_controller, .timeout = 300)
{
    rng g;
    rng_seed(&g, 20261128);
    double worst = 0;
    for (int trial = 0; trial < 100; trial++) {
        kernel_dag *dag = kernel_dag_new("one way");
        int n = 1 + (int)rng_below(&g, 6);
        for (int i = 0; i < n; i++) {
            char name[16];
            snprintf(name, sizeof name, "k%d", i);
            double words = 1 + (double)rng_below(&g, 40);
            int reads = rng_below(&g, 2) == 0;
            kernel k = test_kernel(name, 1 + (long)rng_below(&g, 60), 32, (double)rng_below(&g, 200) / 3.0,
                                   reads ? words : 0, reads ? 0 : words);
            kernel_dag_chain(dag, &k);
        }
        machine m = test_machine(1 + (int)rng_below(&g, 8), 0.5 * (1 << rng_below(&g, 4)));
        m.policy = MEM_EXCLUSIVE;
        m.seed = trial;
        if (rng_below(&g, 3) == 0)
            m.block_dispatch = (double)rng_below(&g, 50) / 7.0;
        char what[64];
        snprintf(what, sizeof what, "exclusive chain %d", trial);
        worst = fmax(worst, same_sharing(dag, &m, what));
        kernel_dag_free(dag);
    }
    cr_log_info("100 chains under exclusive: T within %.2g of SimGrid's", worst);
}

/* Under `exclusive`, with resident blocks and kernels side by side, the
 * memory's busy intervals (each block's reads end at read_end, its writes
 * at its end) never overlap, so T is at least the sum of all transfers. */
Test(resident, under_exclusive_no_two_transfers_overlap, .timeout = 300)
{
    rng g;
    rng_seed(&g, 20261129);
    for (int trial = 0; trial < 40; trial++) {
        kernel_dag *dag = kernel_dag_new("side by side");
        int n = 1 + (int)rng_below(&g, 4);
        double read[4], write[4], busy = 0;
        machine m = test_machine(1 + (int)rng_below(&g, 4), 1);
        m.policy = MEM_EXCLUSIVE;
        m.blocks_per_sm = 1 + (int)rng_below(&g, 4);
        m.seed = trial;
        for (int i = 0; i < n; i++) {
            char name[16];
            snprintf(name, sizeof name, "k%d", i);
            read[i] = (double)rng_below(&g, 20);
            write[i] = (double)rng_below(&g, 20);
            kernel k = test_kernel(name, 1 + (long)rng_below(&g, 30), 32, (double)rng_below(&g, 50), read[i], write[i]);
            busy += (double)k.blocks * (read[i] + write[i]);
            kernel_dag_add(dag, &k);
        }
        char *trace;
        sim_result r = simulate_traced(dag, &m, &trace, NULL);
        cr_expect_geq(r.T, busy, "trial %d: the memory serves %g cycles, one at a time", trial, busy);
        double from[4096], to[4096];
        int spans = 0;
        char name[16];
        long block;
        int sm;
        double start, end, read_end, write_start;
        for (char *line = strchr(trace, '\n') + 1; *line; line = strchr(line, '\n') + 1) {
            cr_assert_eq(sscanf(line, "k%15[0-9],%ld,%d,%lf,%lf,%lf,%lf", name, &block, &sm, &start, &end, &read_end,
                                &write_start), 7);
            int k = atoi(name);
            if (read[k] > 0) {
                from[spans] = read_end - read[k];
                to[spans++] = read_end;
            }
            if (write[k] > 0) {
                from[spans] = end - write[k];
                to[spans++] = end;
            }
            (void)write_start;
        }
        for (int i = 0; i < spans; i++)
            for (int j = i + 1; j < spans; j++)
                cr_expect(to[i] <= from[j] + 1e-9 || to[j] <= from[i] + 1e-9,
                          "trial %d: transfers [%g, %g] and [%g, %g] overlap", trial, from[i], to[i], from[j], to[j]);
        free(trace);
        sim_result_free(&r);
        kernel_dag_free(dag);
    }
}
