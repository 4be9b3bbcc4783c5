/*
 * test_schedulers.c — the warps of a block sharing the SM's schedulers
 * (card_terms.h, block_span_cycles_shared): how many share each, the
 * issue slots and the multiply-add pipe they share, each expected value
 * worked out by hand; and with the key off, or one warp a scheduler,
 * today's costs to the bit; and a counted block's reads moving while the
 * SM issues its instructions (block_reads_beside_compute).
 */
#include "card_terms.h"
#include "helpers.h"

#include <criterion/criterion.h>

/* A block the instruction stream counted: along its path 20 plain links,
 * 100 instructions and 10 Z/pZ products in passes bound by the warp's
 * issue; 800 warp instructions and 256 products over all its warps. */
static block_cost counted_block(void)
{
    block_cost c = {.span = 100, .work = 25600, .classes = 1, .stream = 1, .stream_work = 800};
    c.work_ops[OP_MULMOD] = 256;
    c.stream_span[OP_PLAIN] = 20;
    c.stream_issued = 100;
    c.stream_issued_mulmod = 10;
    return c;
}

/* An SM of 4 schedulers issuing 4 warp instructions a cycle (one each)
 * and completing 4 thread products a cycle (32 cycles a warp's product
 * per scheduler); a warp alone: 1.5 cycles an instruction, 43 a product,
 * 5 a plain link. */
static machine four_schedulers(void)
{
    machine m = test_machine(1, 1);
    m.issue_rate = 4;
    m.cycles_issue = 5;
    m.cycles_issue_independent = 1.5;
    m.cycles_mulmod = 68;
    m.cycles_mulmod_independent = 43;
    m.lanes_mulmod = 4;
    m.schedulers = 4;
    return m;
}

Test(schedulers, a_blocks_warps_are_spread_evenly_over_the_schedulers)
{
    machine m = four_schedulers();
    /* ⌈⌈ℓ/32⌉/4⌉: 1 warp, 4 warps, 5 warps, 8 warps, 32 warps */
    const int threads[] = {1, 128, 129, 256, 1024}, expected[] = {1, 1, 2, 2, 8};
    for (int i = 0; i < 5; i++)
        cr_expect_eq(block_warps_per_scheduler(threads[i], &m), expected[i], "%d threads", threads[i]);
    m.schedulers = 0; /* the key off: a warp alone on its scheduler */
    cr_expect_eq(block_warps_per_scheduler(1024, &m), 1);
}

Test(schedulers, warps_sharing_a_scheduler_share_its_issue_slots_and_its_multiply_add_pipe)
{
    block_cost c = counted_block();
    machine m = four_schedulers();
    /* alone: 100 · 1.5 + 10 · 43 + 20 · 5 = 680 */
    cr_expect_float_eq(block_span_cycles_shared(&c, &m, 1), 680, 1e-9);
    /* two warps a scheduler: an instruction every max(1.5, 2 · 4/4) = 2
     * cycles, a product every max(43, 2 · 4 · 32/4) = 64: 200 + 640 + 100 */
    cr_expect_float_eq(block_span_cycles_shared(&c, &m, 2), 940, 1e-9);
    /* four: 4 and 128 cycles: 400 + 1280 + 100 */
    cr_expect_float_eq(block_span_cycles_shared(&c, &m, 4), 1780, 1e-9);
    /* the work is the SM's, whoever shares: max(800/4, 256/4) = 200; the
     * block's compute the longer, its span */
    cr_expect_float_eq(block_work_cycles(&c, &m), 200, 1e-9);
    cr_expect_float_eq(block_compute_cycles_shared(&c, &m, 2), 940, 1e-9);
    /* a faster pipe: 2 · 4 · 32/16 = 16 < 43: a product its own interval */
    m.lanes_mulmod = 16;
    cr_expect_float_eq(block_span_cycles_shared(&c, &m, 2), 200 + 430 + 100, 1e-9);
}

Test(schedulers, a_plain_link_waits_its_latency_with_the_blocks_warps_on_its_scheduler)
{
    block_cost c = counted_block();
    c.stream_issued = c.stream_issued_mulmod = 0; /* the links alone: 20 · 5 */
    machine m = four_schedulers();
    cr_expect_float_eq(block_span_cycles_shared(&c, &m, 8), 100, 1e-9, "not measured: 5 whatever the warps");
    /* issue_latency_warps8, 16, 32 of H100 2026-11-27a, rounded */
    m.cycles_issue_warps2 = 5.1;
    m.cycles_issue_warps4 = 5.3;
    m.cycles_issue_warps8 = 8.7;
    cr_expect_float_eq(block_span_cycles_shared(&c, &m, 1), 20 * 5.0, 1e-9, "one a scheduler: alone");
    cr_expect_float_eq(block_span_cycles_shared(&c, &m, 2), 20 * 5.1, 1e-9);
    /* 3 a scheduler: halfway between 2's and 4's, 5.2 */
    cr_expect_float_eq(block_span_cycles_shared(&c, &m, 3), 20 * 5.2, 1e-9);
    cr_expect_float_eq(block_span_cycles_shared(&c, &m, 4), 20 * 5.3, 1e-9);
    /* 6: halfway between 4's and 8's, 7.0 */
    cr_expect_float_eq(block_span_cycles_shared(&c, &m, 6), 20 * 7.0, 1e-9);
    cr_expect_float_eq(block_span_cycles_shared(&c, &m, 8), 20 * 8.7, 1e-9);
    /* 16 (two blocks' worth): each takes its turn at 8's rate, 8.7 · 16/8 */
    cr_expect_float_eq(block_span_cycles_shared(&c, &m, 16), 20 * 17.4, 1e-9);
    /* 8 a scheduler not measured: 4's held beyond 4 */
    m.cycles_issue_warps8 = 0;
    cr_expect_float_eq(block_span_cycles_shared(&c, &m, 8), 20 * 5.3, 1e-9);
    /* without the SM's schedulers the warps are not spread: alone */
    m.schedulers = 0;
    cr_expect_float_eq(block_span_cycles_shared(&c, &m, 4), 100, 1e-9);
}

Test(schedulers, off_or_one_warp_a_scheduler_a_block_costs_what_it_did)
{
    block_cost c = counted_block();
    machine on = four_schedulers();
    on.cycles_issue_warps2 = 5.1;
    on.cycles_issue_warps8 = 8.7;
    machine off = on;
    off.schedulers = 0;
    for (int sharing = 1; sharing <= 8; sharing *= 2) {
        cr_expect_eq(block_span_cycles_shared(&c, &off, sharing), block_span_cycles(&c, &off));
        cr_expect_eq(block_compute_cycles_shared(&c, &off, sharing), block_compute_cycles(&c, &off));
    }
    cr_expect_eq(block_span_cycles_shared(&c, &on, 1), block_span_cycles(&c, &off));
    /* a block not counted (the paper's costs) keeps its classes' span */
    block_cost plain = c;
    plain.stream = 0;
    cr_expect_eq(block_span_cycles_shared(&plain, &on, 4), block_span_cycles(&plain, &off));
    /* no issue rate: the stream is never read */
    on.issue_rate = off.issue_rate = 0;
    cr_expect_eq(block_compute_cycles_shared(&c, &on, 4), block_compute_cycles(&c, &off));
}

/* T of one kernel of `blocks` blocks of `threads` threads of costs c (no
 * private memory), on one SM of machine m. */
static double blocks_time(const machine *m, const block_cost *c, long blocks, int threads)
{
    kernel k = test_kernel("k", blocks, threads, 100, 0, 0);
    k.cost = *c;
    k.private_words = 0;
    kernel_dag *dag = kernel_dag_new("schedulers");
    cr_assert(kernel_dag_add(dag, &k) >= 0, "%s", fail_message());
    sim_result r = simulate(dag, m);
    double t = r.T;
    sim_result_free(&r);
    kernel_dag_free(dag);
    return t;
}

/* The same, each block the counted block. */
static double kernel_time(const machine *m, long blocks, int threads)
{
    block_cost c = counted_block();
    return blocks_time(m, &c, blocks, threads);
}

Test(schedulers, the_engine_charges_a_block_its_span_with_its_warps_sharing)
{
    machine m = four_schedulers();
    /* one block of 8 warps: 940 cycles (680 with the key off); of 4
     * warps: one a scheduler, 680 either way */
    cr_expect_float_eq(kernel_time(&m, 1, 256), 940, 1e-9);
    cr_expect_float_eq(kernel_time(&m, 1, 128), 680, 1e-9);
    machine off = m;
    off.schedulers = 0;
    cr_expect_float_eq(kernel_time(&off, 1, 256), 680, 1e-9);
    /* an SM holding 8 blocks at once shares their work (resident.c):
     * 2 blocks take their span, 940 (their 400 cycles of issue fit in
     * it); 8 take 8 · 200 = 1600 of issue, the key or not */
    m.blocks_per_sm = off.blocks_per_sm = 8;
    cr_expect_float_eq(kernel_time(&m, 2, 256), 940, 1e-6);
    cr_expect_float_eq(kernel_time(&m, 8, 256), 1600, 1e-6);
    cr_expect_float_eq(kernel_time(&off, 8, 256), 1600, 1e-6);
}

Test(schedulers, a_counted_blocks_reads_move_while_the_sm_issues_its_instructions)
{
    /* the counted block reading 300 cycles of words (u = 1): alone its
     * reads and its span one after the other, 300 + 940, either way;
     * 8 at once on the SM: their reads take the port 8 · 300 = 2 400
     * cycles, their issue the lanes 8 · 200 = 1 600; read first, one after
     * the other, 4 000; beside (card_terms.h, block_reads_beside_compute),
     * at once, 2 400 */
    machine m = four_schedulers();
    m.read_latency = 0;
    m.blocks_per_sm = 8;
    block_cost c = counted_block();
    c.reads = 300;
    cr_expect(block_reads_beside_compute(&c, &m));
    cr_expect_float_eq(blocks_time(&m, &c, 1, 256), 1240, 1e-9);
    cr_expect_float_eq(blocks_time(&m, &c, 8, 256), 2400, 1e-6);
    /* one block an SM (waves.c): the same alone */
    machine one = m;
    one.blocks_per_sm = 1;
    cr_expect_float_eq(blocks_time(&one, &c, 1, 256), 1240, 1e-9);
    /* not counted (the paper's costs), or no issue rate: read first,
     * 2 400 + 8 · 200 of work on one lane */
    block_cost plain = c;
    plain.stream = 0;
    plain.work = 200;
    plain.classes = 0;
    m.lanes = 1;
    cr_expect(!block_reads_beside_compute(&plain, &m));
    cr_expect_float_eq(blocks_time(&m, &plain, 8, 256), 4000, 1e-6);
    machine no_issue = m;
    no_issue.issue_rate = 0;
    cr_expect(!block_reads_beside_compute(&c, &no_issue));
    /* nor under another memory policy, whose transfers wait for memory */
    machine shared = m;
    shared.policy = MEM_SHARED;
    cr_expect(!block_reads_beside_compute(&c, &shared));
}
