/*
 * test_card.c — the card terms (machine.h, "Card terms") on hand-checked
 * DAGs: lanes and operation classes (Brent's principle inside the SM),
 * resident blocks sharing an SM's lanes and port, the L2, stream and graph
 * launches; their run-file keys; and that with every term off a block
 * costs what the MCM says.
 */
#include "card.h"
#include "exec.h"
#include "card_terms.h"
#include "helpers.h"
#include "rng.h"
#include "user_program.h"

#include <math.h>
#include <stddef.h>

/* A DAG of one kernel k. */
static kernel_dag *one_kernel(const kernel *k)
{
    kernel_dag *dag = kernel_dag_new("card");
    cr_assert(kernel_dag_add(dag, k) >= 0, "%s", fail_message());
    return dag;
}

/* A kernel whose span breaks down into classes, plain the rest of S(B). */
static kernel classed_kernel(long blocks, int threads, double span, double mulmod, double addmod,
                             double private_ops, double barriers)
{
    kernel k = test_kernel("k", blocks, threads, span, 0, 0);
    k.cost.classes = 1;
    for (int i = 0; i < OP_CLASSES; i++)
        k.cost.span_ops[i] = k.cost.work_ops[i] = -1;
    k.cost.span_ops[OP_MULMOD] = mulmod;
    k.cost.span_ops[OP_ADDMOD] = addmod;
    k.cost.span_ops[OP_PRIVATE] = private_ops;
    k.cost.span_ops[OP_BARRIER] = barriers;
    return k;
}

static double simulated_T(const kernel_dag *dag, const machine *m)
{
    sim_result r = simulate(dag, m);
    double t = r.T;
    sim_result_free(&r);
    return t;
}

/* ---- lanes and classes -------------------------------------------------- */

Test(card, lanes_brent_inside_the_sm)
{
    /* ℓ = 256, S(B) = 10, W(B) = 2560 on 128 lanes: max(10, 2560/128) = 20 */
    kernel k = test_kernel("k", 1, 256, 10, 0, 0);
    kernel_dag *dag = one_kernel(&k);
    machine m = test_machine(1, 1);
    cr_expect_eq(simulated_T(dag, &m), 10, "no lanes: S(B)");
    m.lanes = 128;
    sim_result r = simulate(dag, &m);
    cr_expect_eq(r.T, 20);
    cr_expect_eq(r.costs.C, 20, "C is what a block takes alone");
    cr_expect_eq(r.costs.W, 2560, "W stays the model's work");
    cr_expect_eq(r.costs.S, 10, "S stays the model's span");
    sim_result_free(&r);
    m.lanes = 512; /* 2560/512 = 5 < 10: the span binds */
    cr_expect_eq(simulated_T(dag, &m), 10);
    kernel_dag_free(dag);
}

Test(card, class_latencies_along_the_span)
{
    /* S(B) = 12: 3 mulmod, 1 addmod, 4 private, 2 barriers, 2 plain (the rest) */
    kernel k = classed_kernel(1, 32, 12, 3, 1, 4, 2);
    kernel_dag *dag = one_kernel(&k);
    cr_expect_eq(dag->kernels[0].cost.span_ops[OP_PLAIN], 2, "plain is what the classes leave");
    cr_expect_eq(dag->kernels[0].cost.work_ops[OP_MULMOD], 96, "work_X defaults to ℓ·span_X");
    cr_expect_eq(dag->kernels[0].cost.work_ops[OP_PLAIN], 64);
    machine m = test_machine(1, 1);
    cr_expect_eq(simulated_T(dag, &m), 12, "card terms off: S(B) whatever the classes");
    m.cycles_mulmod = 20;
    m.cycles_addmod = 6;
    m.cycles_private = 3;
    m.cycles_barrier = 50;
    /* 2·1 + 3·20 + 1·6 + 4·3 + 2·50 = 180 */
    cr_expect_eq(simulated_T(dag, &m), 180);
    m.cycles_plain = 4; /* + 2·3 */
    cr_expect_eq(simulated_T(dag, &m), 186);
    kernel_dag_free(dag);
}

Test(card, default_class_costs_give_back_the_span)
{
    /* lanes on, every latency 1: a breakdown of S(B) takes S(B) cycles */
    kernel k = classed_kernel(3, 32, 12, 3, 1, 4, 2);
    kernel_dag *dag = one_kernel(&k);
    machine m = test_machine(1, 1);
    m.lanes = 1e6;
    cr_expect_eq(simulated_T(dag, &m), 36);
    kernel_dag_free(dag);
}

Test(card, class_throughputs_in_the_work_term)
{
    /* ℓ = 256, span: 1 mulmod + 1 plain; work 256 of each.  lanes = 128,
     * lanes_mulmod = 4: 256/128 + 256/4 = 66 cycles > span 2 */
    kernel k = classed_kernel(1, 256, 2, 1, 0, 0, 0);
    kernel_dag *dag = one_kernel(&k);
    machine m = test_machine(1, 1);
    m.lanes = 128;
    m.lanes_mulmod = 4;
    cr_expect_eq(simulated_T(dag, &m), 66);
    m.lanes_mulmod = 0; /* as lanes: 512/128 = 4 */
    cr_expect_eq(simulated_T(dag, &m), 4);
    kernel_dag_free(dag);
}

Test(card, a_breakdown_larger_than_the_span_is_refused)
{
    kernel k = classed_kernel(1, 32, 3, 2, 2, 0, 0);
    kernel_dag *dag = kernel_dag_new("bad");
    cr_expect_eq(kernel_dag_add(dag, &k), -1);
    cr_expect(strstr(fail_message(), "breakdown of S(B)") != NULL, "%s", fail_message());
    kernel_dag_free(dag);
}

/* ---- resident blocks ---------------------------------------------------- */

Test(card, two_resident_blocks_share_the_lanes)
{
    /* Two blocks, each 20 cycles alone (W/lanes = 2560/128 = 20 > S = 10),
     * on one SM: one at a time 40; resident together they share the lanes,
     * half each: still 40. */
    kernel k = test_kernel("k", 2, 256, 10, 0, 0);
    kernel_dag *dag = one_kernel(&k);
    machine m = test_machine(1, 1);
    m.lanes = 128;
    cr_expect_eq(simulated_T(dag, &m), 40);
    m.blocks_per_sm = 2;
    cr_expect_float_eq(simulated_T(dag, &m), 40, 1e-6);
    /* Latency-bound blocks (S = 20 > W/lanes = 2560/256 = 10) use half the
     * lanes each: two resident ones overlap completely, 20. */
    kernel_dag_free(dag);
    k = test_kernel("k", 2, 256, 20, 0, 0);
    k.cost.work = 2560;
    dag = one_kernel(&k);
    m.lanes = 256;
    m.blocks_per_sm = 1;
    cr_expect_eq(simulated_T(dag, &m), 40);
    m.blocks_per_sm = 2;
    cr_expect_float_eq(simulated_T(dag, &m), 20, 1e-6);
    kernel_dag_free(dag);
}

Test(card, resident_blocks_overlap_transfer_and_compute)
{
    /* Independent kernels on one SM, U = 1: a computes 20 cycles, b reads
     * 20 words.  One block at a time: 40.  Two resident: b's transfer runs
     * on the port while a computes: 20. */
    kernel_dag *dag = kernel_dag_new("overlap");
    kernel a = test_kernel("a", 1, 1, 20, 0, 0), b = test_kernel("b", 1, 1, 0, 20, 0);
    kernel_dag_add(dag, &a);
    kernel_dag_add(dag, &b);
    machine m = test_machine(1, 1);
    cr_expect_eq(simulated_T(dag, &m), 40);
    m.blocks_per_sm = 2;
    sim_result r = simulate(dag, &m);
    cr_expect_float_eq(r.T, 20, 1e-6);
    cr_expect_float_eq(r.utilization, 1, 1e-6, "the SM holds a block throughout");
    sim_result_free(&r);
    kernel_dag_free(dag);
}

Test(card, resident_blocks_share_the_port)
{
    /* Two blocks reading 10 words each at U = 1 and computing 10 cycles:
     * resident together they read at half speed (both done at 20), then
     * compute side by side (no lanes): 30, against 40 one at a time. */
    kernel k = test_kernel("k", 2, 1, 10, 10, 0);
    kernel_dag *dag = one_kernel(&k);
    machine m = test_machine(1, 1);
    cr_expect_eq(simulated_T(dag, &m), 40);
    m.blocks_per_sm = 2;
    cr_expect_float_eq(simulated_T(dag, &m), 30, 1e-6);
    m.policy = MEM_SHARED; /* the SM's port is its link: the same */
    cr_expect_float_eq(simulated_T(dag, &m), 30, 1e-6);
    m.policy = MEM_EXCLUSIVE; /* one transfer at a time: 10, 20, then compute: 30 */
    cr_expect_float_eq(simulated_T(dag, &m), 30, 1e-6);
    kernel_dag_free(dag);
}

Test(card, resident_blocks_keep_theorem1_on_random_chains)
{
    /* Many blocks, several kernels, 3 resident per SM: sim_run checks the
     * card's bound (N/(kP) + L)·(kC + δ) + L·λ and fails on a violation. */
    kernel_dag *dag = kernel_dag_new("chain");
    for (int i = 0; i < 4; i++) {
        kernel k = test_kernel("k", 37 + 11 * i, 64, 5 + i, 1 + i % 2, 1);
        kernel_dag_chain(dag, &k);
    }
    machine m = test_machine(4, 2);
    m.blocks_per_sm = 3;
    m.lanes = 16;
    m.block_dispatch = 3;
    m.launch_latency = 7;
    sim_result r = simulate(dag, &m);
    cr_expect(r.T > 0);
    sim_result_free(&r);
    kernel_dag_free(dag);
}

/* ---- memory: the L2 ----------------------------------------------------- */

Test(card, working_set_under_and_over_the_l2)
{
    /* 4 blocks of ℓ = 8 reading and writing 1 word per thread: working set
     * 4·8·2 = 64 words; coalesced O(B) = 2 words·U.  U = 1, u_dram = 5. */
    kernel k = test_kernel("k", 4, 8, 0, 1, 1);
    kernel_dag *dag = one_kernel(&k);
    machine m = test_machine(4, 1);
    cr_expect_eq(simulated_T(dag, &m), 2, "no cache: U");
    m.u_dram = 5;
    m.l2_words = 64;
    cr_expect_eq(simulated_T(dag, &m), 2, "64 words fit in 64: U");
    m.l2_words = 63;
    sim_result r = simulate(dag, &m);
    cr_expect_eq(r.T, 10, "64 words exceed 63: u_dram");
    cr_expect_eq(r.costs.O, 4 * 10);
    sim_result_free(&r);
    kernel_dag_free(dag);
}

/* T of kernel k alone on machine m. */
static double kernel_T(const kernel *k, const machine *m)
{
    kernel_dag *dag = one_kernel(k);
    double t = simulated_T(dag, m);
    kernel_dag_free(dag);
    return t;
}

Test(card, an_unaligned_kernel_beyond_the_l2_streams_at_its_own_rate)
{
    /* the kernel above, beyond an L2 of 63 words: u_dram = 5 aligned,
     * u_dram_unaligned = 8 when its warps' words start off the line;
     * within the L2 both move at U; with u_dram_unaligned 0, u_dram */
    kernel k = test_kernel("k", 4, 8, 0, 1, 1);
    k.unaligned = 1;
    machine m = test_machine(4, 1);
    m.u_dram = 5;
    m.l2_words = 63;
    cr_expect_eq(kernel_T(&k, &m), 10, "u_dram_unaligned 0: as u_dram");
    m.u_dram_unaligned = 8;
    cr_expect_eq(kernel_T(&k, &m), 16, "2 words at 8");
    m.l2_words = 64;
    cr_expect_eq(kernel_T(&k, &m), 2, "within the L2: U");
    m.l2_words = 63;
    k.unaligned = 0;
    cr_expect_eq(kernel_T(&k, &m), 10, "aligned: u_dram");
}

Test(card, a_kernel_that_reads_and_writes_beyond_the_l2_streams_at_the_mixed_rate)
{
    /* 4 blocks of 8 threads beyond an L2 of 63 words, u_dram = 5,
     * u_dram_mixed = 7: reading a word and writing one a thread, 2 words
     * at 7; reading 2 words a thread, at 5; off the line, u_dram_unaligned
     * (8) before the mixed rate; within the L2, U */
    machine m = test_machine(4, 1);
    m.u_dram = 5;
    m.l2_words = 63;
    m.u_dram_mixed = 7;
    kernel both = test_kernel("k", 4, 8, 0, 1, 1), reads = test_kernel("k", 4, 8, 0, 2, 0);
    cr_expect_eq(kernel_T(&both, &m), 14, "2 words at 7");
    cr_expect_eq(kernel_T(&reads, &m), 10, "a kernel that only reads: u_dram");
    m.l2_words = 64;
    cr_expect_eq(kernel_T(&both, &m), 2, "within the L2: U");
    m.l2_words = 63;
    m.u_dram_mixed = 0;
    cr_expect_eq(kernel_T(&both, &m), 10, "u_dram_mixed 0: as u_dram");
    m.u_dram_mixed = 7;
    both.unaligned = 1;
    m.u_dram_unaligned = 8;
    cr_expect_eq(kernel_T(&both, &m), 16, "off the line: u_dram_unaligned");
}

Test(card, run_file_key_aligned)
{
    kernel_dag *dag = test_run_file_kernels(
        "kernels = ( { name = \"a\"; blocks = 1; threads = 32; span = 1; reads = 1; aligned = false; },\n"
        "            { name = \"b\"; blocks = 1; threads = 32; span = 1; reads = 1; } );", 1);
    cr_assert_not_null(dag, "%s", fail_message());
    cr_expect_eq(dag->kernels[0].unaligned, 1);
    cr_expect_eq(dag->kernels[1].unaligned, 0, "aligned by default");
    kernel_dag_free(dag);
    dag = test_run_file_kernels("kernels = ( { name = \"a\"; blocks = 1; threads = 32; span = 1; aligned = 0; } );", 1);
    cr_expect_null(dag);
    cr_expect(strstr(fail_message(), "kernel 'a' aligned must be true or false") != NULL, "%s", fail_message());
}

Test(card, plain_multiplication_addkers_are_off_the_line)
{
    /* cuda_ref/plain-mult.cu, add_ker: rows of n + s − 1 words, each added
     * into the row 2^i·s words on.  n = 1024, s = 1: rows of 1024 words,
     * shifts 1, 2, 4, 8, 16 off the line, 32 … 512 on it; s = 4: rows of
     * 1027 words, every AddKer off the line; MulKer is not an AddKer */
    machine m = test_preset("mcm");
    kernel_dag *dag = build_builtin("plain-mult", test_params("n m s l", 1024, 0, 1, 64), &m);
    cr_assert_eq(dag->n, 11, "MulKer and 10 AddKers");
    cr_expect_eq(dag->kernels[0].unaligned, 0);
    for (int i = 1; i < dag->n; i++)
        cr_expect_eq(dag->kernels[i].unaligned, i <= 5, "%s", dag->kernels[i].name);
    kernel_dag_free(dag);
    dag = build_builtin("plain-mult", test_params("n m s l", 1024, 0, 4, 64), &m);
    for (int i = 1; i < dag->n; i++)
        cr_expect_eq(dag->kernels[i].unaligned, 1, "%s", dag->kernels[i].name);
    kernel_dag_free(dag);
}

Test(card, sector_words_charge_every_word_of_every_thread)
{
    /* One block of ℓ = 8 reading and writing 1 coalesced word per thread,
     * U = 1.  The MCM: O(B) = (1 + 1)·U = 2.  sector_words = 4: each of the
     * 8 threads' words costs U, 8 + 8 = 16. */
    kernel k = test_kernel("k", 1, 8, 0, 1, 1);
    kernel_dag *dag = one_kernel(&k);
    machine m = test_machine(4, 1);
    cr_expect_eq(simulated_T(dag, &m), 2, "the MCM's rule");
    m.sector_words = 4;
    sim_result r = simulate(dag, &m);
    cr_expect_eq(r.T, 16, "a word per thread");
    cr_expect_eq(r.costs.O, 16);
    sim_result_free(&r);
    kernel_dag_free(dag);
    /* Uncoalesced: 1 word read per thread, none written.  The MCM:
     * ℓ·U = 8; sector_words = 4: every word a sector, 8·4·U = 32. */
    kernel s = test_kernel("s", 1, 8, 0, 0, 0);
    s.cost.uncoalesced_reads = 1;
    dag = one_kernel(&s);
    m.sector_words = 0;
    cr_expect_eq(simulated_T(dag, &m), 8, "the MCM's rule");
    m.sector_words = 4;
    cr_expect_eq(simulated_T(dag, &m), 32, "a sector per scattered word");
    m.sector_words = -1;
    cr_expect_eq(machine_validate(&m), -1);
    kernel_dag_free(dag);
}

/* ---- memory: the read latency ----------------------------------------- */

Test(card, a_block_that_reads_waits_for_its_first_word)
{
    /* One SM, U = 1, two blocks of ℓ = 1 reading 5 words and computing 10.
     * The MCM: 2·(5 + 10) = 30.  read_latency = 7: each block waits 7 before
     * its words come, 2·22 = 44; a kernel that reads nothing waits for
     * nothing (2·10 = 20 either way). */
    kernel k = test_kernel("k", 2, 1, 10, 5, 0);
    kernel_dag *dag = one_kernel(&k);
    machine m = test_machine(1, 1);
    cr_expect_eq(simulated_T(dag, &m), 30, "the MCM");
    m.read_latency = 7;
    sim_result r = simulate(dag, &m);
    cr_expect_eq(r.T, 44);
    cr_expect_eq(r.costs.O, 2 * 5, "a latency is a wait, not parallelism overhead");
    sim_result_free(&r);
    kernel_dag_free(dag);
    kernel quiet = test_kernel("quiet", 2, 1, 10, 0, 1);
    dag = one_kernel(&quiet);
    cr_expect_eq(simulated_T(dag, &m), 2 * (10 + 1), "no reads: no wait");
    kernel_dag_free(dag);
}

Test(card, beyond_the_l2_the_dram_latency)
{
    /* The kernel above (working set 2·1·5 = 10 words) against an L2 of 9
     * words: read_latency_dram = 20 and u_dram = 2: 2·(20 + 10 + 10) = 80;
     * an L2 of 10 words holds it: 2·(7 + 5 + 10) = 44.  Without a DRAM
     * latency, the L2's. */
    kernel k = test_kernel("k", 2, 1, 10, 5, 0);
    kernel_dag *dag = one_kernel(&k);
    machine m = test_machine(1, 1);
    m.read_latency = 7;
    m.read_latency_dram = 20;
    m.u_dram = 2;
    m.l2_words = 10;
    cr_expect_eq(simulated_T(dag, &m), 44);
    m.l2_words = 9;
    cr_expect_eq(simulated_T(dag, &m), 80);
    m.read_latency_dram = 0;
    cr_expect_eq(simulated_T(dag, &m), 2 * (7 + 10 + 10));
    m.read_latency_dram = -1;
    cr_expect_eq(machine_validate(&m), -1);
    kernel_dag_free(dag);
}

Test(card, resident_blocks_hide_each_others_latency)
{
    /* The same two blocks resident together (blocks_per_sm = 2): they wait
     * 7 side by side, read their 5 + 5 words on the one port (done at 17),
     * then compute side by side (no lanes): 27, against 44 one at a time
     * and 20 without the latency. */
    kernel k = test_kernel("k", 2, 1, 10, 5, 0);
    kernel_dag *dag = one_kernel(&k);
    machine m = test_machine(1, 1);
    m.blocks_per_sm = 2;
    cr_expect_float_eq(simulated_T(dag, &m), 20, 1e-6);
    m.read_latency = 7;
    cr_expect_float_eq(simulated_T(dag, &m), 27, 1e-6);
    kernel_dag_free(dag);
}

Test(card, an_l2_needs_a_dram_cost)
{
    machine m = test_machine(4, 1);
    m.l2_words = 100;
    cr_expect_eq(machine_validate(&m), -1);
    cr_expect(strstr(fail_message(), "u_dram") != NULL, "%s", fail_message());
    m.u_dram = 3;
    cr_expect_eq(machine_validate(&m), 0, "%s", fail_message());
    m.blocks_per_sm = 0;
    cr_expect_eq(machine_validate(&m), -1);
}

/* ---- launches ----------------------------------------------------------- */

Test(card, graph_and_stream_launches)
{
    /* A chain of 3 one-block kernels of span 10: each waits for its launch. */
    kernel_dag *dag = kernel_dag_new("launches");
    for (int i = 0; i < 3; i++) {
        kernel k = test_kernel("k", 1, 32, 10, 0, 0);
        kernel_dag_chain(dag, &k);
    }
    machine m = test_machine(2, 1);
    m.launch_latency = 100;
    m.graph_launch_latency = 7;
    sim_result r = simulate(dag, &m);
    cr_expect_eq(r.T, 3 * 110, "stream: launch_latency");
    cr_expect_eq(r.launch_term, 300);
    sim_result_free(&r);
    m.launch = LAUNCH_GRAPH;
    r = simulate(dag, &m);
    cr_expect_eq(r.T, 3 * 17, "graph: graph_launch_latency");
    cr_expect_eq(r.launch_term, 21);
    sim_result_free(&r);
    /* a graph's start, once, before the first kernel; none in a stream */
    m.graph_start_latency = 50;
    r = simulate(dag, &m);
    cr_expect_eq(r.T, 50 + 3 * 17, "graph: start, then graph_launch_latency per kernel");
    cr_expect_eq(r.launch_term, 50 + 21);
    sim_result_free(&r);
    m.graph_launch_latency = 0;
    r = simulate(dag, &m);
    cr_expect_eq(r.T, 50 + 3 * 10, "a start alone still delays the first kernel");
    sim_result_free(&r);
    m.launch = LAUNCH_STREAM;
    r = simulate(dag, &m);
    cr_expect_eq(r.T, 3 * 110, "stream: no graph start");
    sim_result_free(&r);
    kernel_dag_free(dag);
}

Test(card, a_graphs_kernel_launches_later_the_more_sms_its_grid_spans)
{
    /* graph_launch_per_sm = 3 on p = 4 SMs: a kernel of 1 block launches
     * after graph_launch_latency, one of 2 blocks 3 cycles later, one of
     * 4 or of 9 blocks (every SM) 9 cycles later; a stream ignores it */
    machine m = test_machine(4, 1);
    m.launch = LAUNCH_GRAPH;
    m.graph_launch_latency = 7;
    m.graph_launch_per_sm = 3;
    cr_expect_eq(machine_kernel_launch_latency(&m, 1), 7);
    cr_expect_eq(machine_kernel_launch_latency(&m, 2), 7 + 3);
    cr_expect_eq(machine_kernel_launch_latency(&m, 4), 7 + 9);
    cr_expect_eq(machine_kernel_launch_latency(&m, 9), 7 + 9, "at most p SMs");
    /* a chain of a kernel of 1 block and one of 9 (span 10, nothing read):
     * 7 + 10, then 16 + 3 waves of 10 */
    kernel_dag *dag = kernel_dag_new("spans");
    kernel one = test_kernel("one", 1, 32, 10, 0, 0), wide = test_kernel("wide", 9, 32, 10, 0, 0);
    kernel_dag_chain(dag, &one);
    kernel_dag_chain(dag, &wide);
    sim_result r = simulate(dag, &m);
    cr_expect_eq(r.T, 7 + 10 + 16 + 3 * 10);
    cr_expect_eq(r.launch_term, 2 * 16, "a bound: every kernel at the widest grid's launch");
    sim_result_free(&r);
    m.launch = LAUNCH_STREAM;
    m.launch_latency = 100;
    cr_expect_eq(machine_kernel_launch_latency(&m, 9), 100, "a stream's launch is the same for any grid");
    kernel_dag_free(dag);
}

/* ---- keys --------------------------------------------------------------- */

Test(card, machine_keys_by_name)
{
    machine m;
    machine_defaults(&m);
    cr_expect(!machine_card_compute(&m) && !machine_card_residency(&m), "every term off by default");
    const char *keys[][2] = {
        {"lanes", "128"}, {"lanes_mulmod", "4"}, {"lanes_addmod", "16"}, {"lanes_private", "32"},
        {"cycles_plain", "4"}, {"cycles_mulmod", "30"}, {"cycles_addmod", "8"},
        {"cycles_private", "30"}, {"cycles_barrier", "40"}, {"blocks_per_sm", "8"}, {"threads_per_sm", "2048"},
        {"l2_words", "12582912"}, {"u_dram", "0.3"}, {"graph_launch_latency", "2000"}, {"sector_words", "8"}, {"graph_start_latency", "5500"},
        {"launch", "graph"},
    };
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        cr_expect_eq(machine_set_field(&m, keys[i][0], keys[i][1]), 1, "%s: %s", keys[i][0], fail_message());
    cr_expect_eq(m.lanes, 128);
    cr_expect_eq(m.lanes_mulmod, 4);
    cr_expect_eq(m.cycles_barrier, 40);
    cr_expect_eq(m.blocks_per_sm, 8);
    cr_expect_eq(m.threads_per_sm, 2048);
    cr_expect_eq(m.l2_words, 12582912);
    cr_expect_eq(m.launch, LAUNCH_GRAPH);
    cr_expect_eq(machine_validate(&m), 0, "%s", fail_message());
    cr_expect_eq(machine_set_field(&m, "launch", "bus"), -1);
    cr_expect(strstr(fail_message(), "stream, graph") != NULL, "%s", fail_message());
    cr_expect_eq(machine_set_field(&m, "cycles_mulmod", "-1"), -1);
    cr_expect(strstr(fail_message(), "cycles_mulmod = -1 is out of range: it takes a number >= 0") != NULL, "%s",
              fail_message());
    m.cycles_mulmod = -1;
    cr_expect_eq(machine_validate(&m), -1);
    /* a DMM/UMM machine has no card terms */
    machine d;
    machine_defaults(&d);
    d.kind = KIND_DMM;
    d.latency = 4;
    cr_expect_eq(machine_validate(&d), 0, "%s", fail_message());
    d.blocks_per_sm = 2;
    cr_expect_eq(machine_validate(&d), -1);
    cr_expect(strstr(fail_message(), "'blocks_per_sm' is an MCM setting") != NULL, "%s", fail_message());
}

Test(card, run_file_class_keys)
{
    kernel_dag *dag = test_run_file_kernels(
        "kernels = ( { name = \"mul\"; blocks = 2; threads = 8; span = \"3*s\";"
        "  span_mulmod = \"s\"; span_addmod = \"s\"; span_barriers = 1; work_private = 5; },"
        " { name = \"plain\"; blocks = 1; threads = 8; span = 2; } );", 4);
    cr_assert(dag, "%s", fail_message());
    const block_cost *c = &dag->kernels[0].cost;
    cr_expect_eq(c->classes, 1);
    cr_expect_eq(c->span_ops[OP_MULMOD], 4);
    cr_expect_eq(c->span_ops[OP_ADDMOD], 4);
    cr_expect_eq(c->span_ops[OP_BARRIER], 1);
    cr_expect_eq(c->span_ops[OP_PRIVATE], 0, "a class not given is 0");
    cr_expect_eq(c->span_ops[OP_PLAIN], 12 - 9, "plain: the rest of S(B)");
    cr_expect_eq(c->work_ops[OP_MULMOD], 32, "work_X: ℓ·span_X");
    cr_expect_eq(c->work_ops[OP_PRIVATE], 5);
    cr_expect_eq(c->work_ops[OP_PLAIN], 96 - 32 - 32 - 8 - 5, "plain: the rest of W(B)");
    cr_expect_eq(dag->kernels[1].cost.classes, 0, "no class key: plain operations");
    kernel_dag_free(dag);

    cr_expect_null(test_run_file_kernels("kernels = ( { name = \"k\"; blocks = 1; threads = 8; span = 2;"
                                         " span_mulmod = -1; } );", 4));
    cr_expect(strstr(fail_message(), "span_mulmod = -1") != NULL, "%s", fail_message());
    cr_expect_null(test_run_file_kernels("kernels = ( { name = \"k\"; blocks = 1; threads = 8; span = 2;"
                                         " span_mulmul = 1; } );", 4));
    cr_expect(strstr(fail_message(), "unknown key 'span_mulmul'") != NULL, "%s", fail_message());
    cr_expect_null(test_run_file_kernels("kernels = ( { name = \"k\"; blocks = 1; threads = 8; span = 2;"
                                         " span_mulmod = 3; } );", 4));
    cr_expect(strstr(fail_message(), "breakdown of S(B)") != NULL, "%s", fail_message());
}

/* ---- exec mode measures the classes ------------------------------------- */

typedef struct axpy_args { gmem x, y; } axpy_args;

/* step 0: each thread reads x[i] into private memory and does 3 plain ops */
static void axpy_load(exec_thread *t, void *args)
{
    axpy_args *a = args;
    long i = t->bid * t->threads + t->tid;
    exec_pwrite(t, t->tid, exec_gread(t, a->x, i));
    exec_ops(t, 3);
}

/* step 1: y[i] = x[i]·x[i] + x[i] mod p, and thread 0 one more multiplication */
static void axpy_compute(exec_thread *t, void *args)
{
    axpy_args *a = args;
    long i = t->bid * t->threads + t->tid;
    word v = exec_pread(t, t->tid);
    word r = exec_zp_add(t, exec_zp_mul(t, v, v), v);
    if (t->tid == 0)
        r = exec_zp_mul(t, r, 2);
    exec_gwrite(t, a->y, i, r);
}

static const exec_step axpy_steps[] = {axpy_load, axpy_compute};
static const exec_kernel axpy_kernel = {"axpy", 2, axpy_steps, 16};

Test(card, exec_mode_dags_carry_measured_classes)
{
    machine m = test_machine(2, 1);
    exec_run *r = exec_begin("classes", &m);
    axpy_args a = {exec_alloc(r, "x", 32), exec_alloc(r, "y", 32)};
    cr_assert_eq(exec_launch(r, &axpy_kernel, 2, 16, &a), 0, "%s", fail_message());
    const block_cost *c = kernel_block_cost(&exec_dag(r)->kernels[0], 1);
    cr_expect_eq(c->classes, 1);
    /* thread 0 makes S(B): 3 plain + 2 private + 2 mulmod (11 each) + 1 addmod (5) = 32 */
    cr_expect_eq(c->span, 32);
    cr_expect_eq(c->span_ops[OP_MULMOD], 2);
    cr_expect_eq(c->span_ops[OP_ADDMOD], 1);
    cr_expect_eq(c->span_ops[OP_PRIVATE], 2);
    cr_expect_eq(c->span_ops[OP_BARRIER], 1, "one barrier between the two steps");
    cr_expect_eq(c->span_ops[OP_PLAIN], 3);
    cr_expect_eq(c->work_ops[OP_MULMOD], 17, "16 threads, one of them twice");
    cr_expect_eq(c->work_ops[OP_ADDMOD], 16);
    cr_expect_eq(c->work_ops[OP_PRIVATE], 32);
    cr_expect_eq(c->work_ops[OP_BARRIER], 16);
    cr_expect_eq(c->work_ops[OP_PLAIN], 48);
    /* simulated with class costs: span 3 + 2·30 + 8 + 2·2 + 100 = 175 per
     * block, both blocks at once on 2 SMs, after 1 word in and 1 out */
    m.cycles_mulmod = 30;
    m.cycles_addmod = 8;
    m.cycles_private = 2;
    m.cycles_barrier = 100;
    sim_result res = simulate(exec_dag(r), &m);
    cr_expect_eq(res.T, 1 + 175 + 1);
    sim_result_free(&res);
    exec_end(r);
}

/* ---- the case studies' classes ------------------------------------------ */

/* The built-in program's default params ("n=1000 m=0 s=256 l=256"). */
static vars default_params(const builtin_program *b)
{
    vars v;
    cr_assert_eq(builtin_params(b, 0, &v), 0, "%s: %s", b->name, fail_message());
    return v;
}

Test(card, every_case_study_kernel_carries_classes)
{
    machine m = test_preset("h100");
    int programs = 0;
    for (const builtin_program *const *b = builtin_programs(); *b; b++) {
        if (!(*b)->build || !(*b)->closed_form)
            continue; /* the DMM/UMM chapter's programs have no MCM kernels of their own */
        kernel_dag *dag = build_builtin((*b)->name, default_params(*b), &m);
        for (int i = 0; i < dag->n; i++) {
            const block_cost *c = &dag->kernels[i].cost;
            cr_expect_eq(c->classes, 1, "%s, kernel %s: no classes", (*b)->name, dag->kernels[i].name);
            double ops = 0;
            for (int k = 0; k < OP_CLASSES; k++) {
                cr_expect(c->span_ops[k] >= 0 && c->work_ops[k] >= 0, "%s, kernel %s, class %s",
                          (*b)->name, dag->kernels[i].name, op_class_names[k]);
                ops += c->span_ops[k];
            }
            cr_expect(ops > 0, "%s, kernel %s: no operation", (*b)->name, dag->kernels[i].name);
        }
        kernel_dag_free(dag);
        programs++;
    }
    cr_expect_geq(programs, 10, "the ten case studies");
}

Test(card, plain_multiplication_counts_s_squared_multiply_adds)
{
    /* cuda_ref/plain-mult.cu, MulKer: s² zp_mul and s² zp_add per thread,
     * a barrier after the loads and one after the products; the worksheet's
     * S(B) = s(2s − 1) kept */
    machine m = test_preset("mcm");
    for (double s = 1; s <= 8; s *= 2) {
        kernel_dag *dag = build_builtin("plain-mult", test_params("n m s l", 1024, 0, s, 64), &m);
        const block_cost *c = &dag->kernels[0].cost;
        cr_expect_eq(c->span, s * (2 * s - 1));
        cr_expect_eq(c->span_ops[OP_MULMOD], s * s);
        cr_expect_eq(c->span_ops[OP_ADDMOD], s * s);
        cr_expect_eq(c->span_ops[OP_BARRIER], 2);
        kernel_dag_free(dag);
    }
}

Test(card, mulmod_cost_makes_large_s_costly_for_plain_multiplication)
{
    /* On a card with few lanes for Z/pZ products, MulKer's work term grows
     * as s² per thread: the time per product stops falling with s. */
    machine m = test_preset("mcm");
    m.p = 4;
    double t_model[2], t_card[2];
    for (int i = 0; i < 2; i++) {
        double s = i ? 16 : 4;
        t_model[i] = builtin_time("plain-mult", test_params("n m s l", 4096, 0, s, 64), &m);
    }
    m.lanes = 64;
    m.lanes_mulmod = 2;
    m.cycles_mulmod = 20;
    for (int i = 0; i < 2; i++) {
        double s = i ? 16 : 4;
        t_card[i] = builtin_time("plain-mult", test_params("n m s l", 4096, 0, s, 64), &m);
    }
    cr_expect_lt(t_model[1], t_model[0], "the pure model prefers the larger s");
    cr_expect_gt(t_card[0], t_model[0]);
    cr_expect_gt(t_card[1] / t_card[0], t_model[1] / t_model[0], "the card term penalises large s");
}

Test(card, resident_blocks_spread_over_the_sms)
{
    /* P = 2, 2 resident blocks per SM, lanes = ℓ: a block of S = 10,
     * W = 10ℓ takes 10 alone and 20 beside another.  Kernel a (4 blocks,
     * no lanes needed: S = 10, W = 10ℓ too) fills all 4 slots; kernel b's 2
     * blocks must go to different SMs: 10 + 10, not 10 + 20. */
    kernel_dag *dag = kernel_dag_new("spread");
    kernel a = test_kernel("a", 4, 32, 10, 0, 0), b = test_kernel("b", 2, 32, 10, 0, 0);
    kernel_dag_chain(dag, &a);
    kernel_dag_chain(dag, &b);
    machine m = test_machine(2, 1);
    m.blocks_per_sm = 2;
    m.lanes = 32;
    sim_result r = simulate(dag, &m);
    cr_expect_float_eq(r.kernels[0].end, 20, 1e-6, "a: two per SM, sharing the lanes");
    cr_expect_float_eq(r.T, 30, 1e-6, "b: one per SM (T = %g)", r.T);
    sim_result_free(&r);
    kernel_dag_free(dag);
    /* a lone kernel of 2 blocks: one per SM from the start */
    kernel c = test_kernel("c", 2, 32, 10, 0, 0);
    dag = one_kernel(&c);
    cr_expect_float_eq(simulated_T(dag, &m), 10, 1e-6);
    kernel_dag_free(dag);
}

/* ---- the card's bound on random DAGs ------------------------------------ */

Test(card, resident_blocks_bound_on_random_dags)
{
    /* Seeded random DAGs with random class costs, lanes, L2, dispatch,
     * read latencies, launch, 2-4 resident blocks per SM, limited by threads and private
     * memory: every run must stay within (N/(rP) + L)·(kC + δ) + L·λ
     * (sim_run refuses it otherwise). */
    rng g;
    rng_seed(&g, 20261123);
    int limited = 0;
    for (int trial = 0; trial < 200; trial++) {
        int n = 1 + (int)rng_below(&g, 6);
        kernel_dag *dag = kernel_dag_new("random-card");
        for (int i = 0; i < n; i++) {
            char name[16];
            snprintf(name, sizeof name, "k%d", i);
            kernel k = classed_kernel(1 + (long)rng_below(&g, 40), 1 + (int)rng_below(&g, 64),
                                      20, (double)rng_below(&g, 4), (double)rng_below(&g, 4),
                                      (double)rng_below(&g, 4), (double)rng_below(&g, 3));
            k.cost.reads = (double)rng_below(&g, 4);
            k.cost.writes = (double)rng_below(&g, 3);
            kernel_dag_add(dag, &k);
            for (int j = 0; j < i; j++)
                if (rng_below(&g, 3) == 0)
                    kernel_dag_after(dag, i, j);
        }
        machine m = test_machine(1 + (int)rng_below(&g, 6), 0.5 + (double)rng_below(&g, 4));
        m.blocks_per_sm = 2 + (int)rng_below(&g, 3);
        m.lanes = 8 + (double)rng_below(&g, 64);
        m.lanes_mulmod = 1 + (double)rng_below(&g, 8);
        m.cycles_mulmod = 1 + (double)rng_below(&g, 30);
        m.cycles_barrier = (double)rng_below(&g, 50);
        m.block_dispatch = (double)rng_below(&g, 3);
        m.launch_latency = (double)rng_below(&g, 20);
        m.read_latency = (double)rng_below(&g, 12);
        m.read_latency_dram = (double)rng_below(&g, 25);
        m.l2_words = (double)rng_below(&g, 2000);
        m.u_dram = 1 + (double)rng_below(&g, 5);
        m.threads_per_sm = rng_below(&g, 2) ? 32 + (int)rng_below(&g, 128) : 0;
        double most = 1; /* Z: room for 1 to 4 of the largest block */
        for (int i = 0; i < dag->n; i++)
            most = fmax(most, dag->kernels[i].private_words);
        m.z = most * (1 + (double)rng_below(&g, 4));
        sim_result r = simulate(dag, &m); /* fails the test on a broken bound */
        double k = m.blocks_per_sm, least = k;
        for (int i = 0; i < dag->n; i++)
            least = fmin(least, kernel_resident_blocks(&dag->kernels[i], &m));
        double delta = m.block_dispatch + fmax(m.read_latency, m.read_latency_dram);
        double bound = (r.costs.N / (least * m.p) + r.costs.L_kernels) * (k * r.costs.C + delta) + r.launch_term;
        cr_expect_leq(r.T, bound * (1 + 1e-6) + 1e-9, "trial %d", trial);
        limited += least < k;
        sim_result_free(&r);
        kernel_dag_free(dag);
    }
    cr_expect_geq(limited, 20, "limits took effect in %d trials only", limited);
}

Test(card, residency_limited_by_threads_and_private_memory)
{
    /* 4 blocks of span 10 (no lanes: they overlap fully when resident), one
     * SM with 4 slots: all at once 10; threads_per_sm = 64 and ℓ = 32 let
     * 2 in: 20; Z = 100 words and 40 per block let 2 in: 20. */
    kernel k = test_kernel("k", 4, 32, 10, 0, 0);
    k.private_words = 40;
    kernel_dag *dag = one_kernel(&k);
    machine m = test_machine(1, 1);
    m.blocks_per_sm = 4;
    cr_expect_eq(kernel_resident_blocks(&dag->kernels[0], &m), 4);
    cr_expect_float_eq(simulated_T(dag, &m), 10, 1e-6);
    m.threads_per_sm = 64;
    cr_expect_eq(kernel_resident_blocks(&dag->kernels[0], &m), 2);
    cr_expect_float_eq(simulated_T(dag, &m), 20, 1e-6);
    m.threads_per_sm = 0;
    m.z = 100;
    cr_expect_eq(kernel_resident_blocks(&dag->kernels[0], &m), 2);
    cr_expect_float_eq(simulated_T(dag, &m), 20, 1e-6);
    m.z = 40;
    cr_expect_eq(kernel_resident_blocks(&dag->kernels[0], &m), 1);
    cr_expect_float_eq(simulated_T(dag, &m), 40, 1e-6);
    kernel_dag_free(dag);
}

Test(card, a_kernel_waits_for_room_on_the_sm)
{
    /* Independent kernels on one SM of 4 slots, threads_per_sm = 64: a's 4
     * blocks of ℓ = 16 fill the SM (0-10); b's blocks of ℓ = 64 need the SM
     * alone: one 10-20, the other 20-30. */
    kernel_dag *dag = kernel_dag_new("room");
    kernel a = test_kernel("a", 4, 16, 10, 0, 0), b = test_kernel("b", 2, 64, 10, 0, 0);
    kernel_dag_add(dag, &a);
    kernel_dag_add(dag, &b);
    machine m = test_machine(1, 1);
    m.blocks_per_sm = 4;
    m.threads_per_sm = 64;
    sim_result r = simulate(dag, &m);
    cr_expect_float_eq(r.kernels[0].end, 10, 1e-6);
    cr_expect_float_eq(r.kernels[1].start, 10, 1e-6);
    cr_expect_float_eq(r.T, 30, 1e-6);
    sim_result_free(&r);
    kernel_dag_free(dag);
}

/* ---- a card's machine from a measured session (validate/card.c) -------- */

/* The touch chains a session's kernel boundary is read from, microseconds
 * a kernel: the cases' protocol's (protocol_cases_touch_{1,card}_per_kernel,
 * every repetition a reading) where the session has both, else the bare
 * replays' (protocol_bare_touch_*) where it has both, else the replayed
 * chains' (card.c's header). */
static void boundary_chains(const session *s, double *one_block, double *card_wide)
{
    if (card_constant(s, "protocol_cases_touch_1_per_kernel", one_block) == 0 &&
        card_constant(s, "protocol_cases_touch_card_per_kernel", card_wide) == 0)
        return;
    if (card_constant(s, "protocol_bare_touch_1_per_kernel", one_block) == 0 &&
        card_constant(s, "protocol_bare_touch_card_per_kernel", card_wide) == 0)
        return;
    cr_assert_eq(card_constant(s, "chain_touch_block_per_kernel", one_block), 0);
    cr_assert_eq(card_constant(s, "chain_touch_card_per_kernel", card_wide), 0);
}

Test(card, a_cards_machine_needs_no_machine_file_an_earlier_run_wrote)
{
    /* built from the defaults, each card's machine is the one built over
     * the machine file make validate wrote: that file holds no key the
     * sessions do not give (a key no longer derived would stay on there) */
    cr_assert_eq(chdir(MCMSIM_DATADIR), 0);
    session *h100, *h200;
    int n100, n200;
    char passed[512];
    cr_assert_eq(sessions_load("h100", &h100, &n100), 0, "%s", fail_message());
    cr_assert_eq(sessions_load("h200", &h200, &n200), 0, "%s", fail_message());
    const session *ref100 = &h100[card_reference(h100, n100, passed, sizeof passed)];
    const session *ref200 = &h200[card_reference(h200, n200, passed, sizeof passed)];
    const struct {
        const char *name;
        const session *s, *other;
    } cards[] = {{"h100", ref100, NULL}, {"h200", ref200, ref100}};
    for (int c = 0; c < 2; c++) {
        machine fresh, over, base = test_preset(cards[c].name);
        cr_assert_eq(card_machine_named(cards[c].s, cards[c].other, cards[c].name, &fresh), 0, "%s", fail_message());
        cr_assert_eq(card_machine(cards[c].s, cards[c].other, &base, &over), 0, "%s", fail_message());
        cr_expect_str_eq(fresh.name, cards[c].name);
        cr_expect_eq(fresh.z, 58112, "Z: the 227 KiB of shared memory a block may hold, a fact of the SM");
        memset(over.source, 0, sizeof over.source); /* the file's label of its session, read by no simulation */
        cr_expect(memcmp(&fresh, &over, sizeof fresh) == 0, "%s: the machine file adds to what the session gives",
                  cards[c].name);
    }
    sessions_free(h100, n100);
    sessions_free(h200, n200);
}

Test(card, machine_from_the_h100_reference_session)
{
    cr_assert_eq(chdir(MCMSIM_DATADIR), 0);
    session *s;
    int n;
    cr_assert_eq(sessions_load("h100", &s, &n), 0, "%s", fail_message());
    char passed[512];
    int newest = card_reference(s, n, passed, sizeof passed);
    cr_assert(newest >= 0);
    machine base = test_preset("h100"), m;
    cr_assert_eq(card_machine(&s[newest], NULL, &base, &m), 0, "%s", fail_message());
    double mhz, touch, u, l2_load, dram_load, touch_card, add;
    cr_assert_eq(card_constant(&s[newest], "sm_clock_measured", &mhz), 0);
    boundary_chains(&s[newest], &touch, &touch_card);
    cr_assert_eq(card_constant(&s[newest], "op_latency", &add), 0);
    cr_assert_eq(card_constant(&s[newest], "l2_load_latency", &l2_load), 0);
    cr_assert_eq(card_constant(&s[newest], "dram_load_latency", &dram_load), 0);
    cr_assert_eq(card_constant(&s[newest], "U_l2_all_sms", &u), 0);
    cr_expect_eq(m.p, 132);
    cr_expect_float_eq(m.clock_hz, mhz * 1e6, 1e-9 * m.clock_hz);
    cr_expect_float_eq(m.graph_launch_latency, touch * mhz - (l2_load + m.block_dispatch + 2 * 256 * u + add),
                       1e-9 * m.graph_launch_latency, "µs -> cycles, less what the engine charges the chain's block");
    cr_expect_float_eq(m.graph_launch_per_sm, (touch_card - touch) * mhz / 131, 1e-9 * m.graph_launch_per_sm,
                       "the card-wide chain's kernel beyond the one block's, per SM beyond the first");
    cr_expect_eq(m.read_latency, l2_load);
    cr_expect_eq(m.read_latency_dram, dram_load);
    cr_expect_eq(m.u, u);
    cr_expect_eq(m.sector_words, 8);
    cr_expect_eq(m.threads_per_sm, 2048, "from device.txt");
    cr_expect(m.blocks_per_sm >= 1 && m.blocks_per_sm <= 32, "from occupancy.csv: %d", m.blocks_per_sm);
    double turnaround, steady;
    cr_assert_eq(card_constant(&s[newest], "block_turnaround", &turnaround), 0);
    cr_assert_eq(card_constant(&s[newest], "block_dispatch_steady", &steady), 0);
    cr_expect_float_eq(m.block_retire, steady * mhz / 1e3, 1e-9 * m.block_retire, "ns -> cycles");
    cr_expect_float_eq(m.block_dispatch, (turnaround - steady) * mhz / 1e3, 1e-9 * m.block_dispatch,
                       "one block at a time, end to end, less the SM's retiring of it");
    cr_expect(m.block_dispatch > 0, "a block alone takes longer than the SM's steady rate");
    cr_expect_eq(machine_validate(&m), 0, "%s", fail_message());
    sessions_free(s, n);
}

/* Cycles per kernel of a graph of touch kernels (constants.cu's chains:
 * `blocks` blocks of 256 threads, each thread reading a word and writing
 * one) on machine m: T(32 kernels) − T(1 kernel), over 31. */
static double touch_chain_cycles_per_kernel(const machine *card, long blocks)
{
    machine m = *card;
    m.launch = LAUNCH_GRAPH;
    double T[2];
    for (int i = 0; i < 2; i++) {
        kernel_dag *dag = kernel_dag_new("touch chain");
        for (int k = 0; k < (i ? 32 : 1); k++) {
            kernel touch = test_kernel("touch", blocks, 256, 1, 1, 1);
            kernel_dag_chain(dag, &touch);
        }
        sim_result r = simulate(dag, &m);
        T[i] = r.T;
        sim_result_free(&r);
        kernel_dag_free(dag);
    }
    return (T[1] - T[0]) / 31;
}

/* touch_chain_cycles_per_kernel on a code machine: the touch kernel
 * written once (validate/stream/touch.c, constants.cu's touch_kernel) run
 * in exec mode on m, its instructions charged by the code's costs. */
static double code_touch_chain_cycles_per_kernel(const machine *code, long blocks)
{
    machine m = *code;
    m.launch = LAUNCH_GRAPH;
    char source[1024];
    snprintf(source, sizeof source, "%s/validate/stream/touch.c", MCMSIM_DATADIR);
    double T[2];
    for (int i = 0; i < 2; i++) {
        vars params;
        vars_clear(&params);
        vars_set(&params, "k", i ? 32 : 1);
        vars_set(&params, "b", (double)blocks);
        kernel_dag *dag = user_program_build(source, &params, &m);
        cr_assert(dag, "%s", fail_message());
        sim_result r = simulate(dag, &m);
        T[i] = r.T;
        sim_result_free(&r);
        kernel_dag_free(dag);
    }
    return (T[1] - T[0]) / 31;
}

/* The machines whose boundary the touch chains give. */
enum { CARDS_MACHINE, CODE_MACHINE, CODE_MACHINE_WITHOUT_CACHES };

/* On each card's reference machine of kind `which`, a graph's kernel of
 * one block and of a block on every SM costs what the touch chains its
 * session measured say (graphs of 1 to 32 kernels, timed as the cases
 * are). */
static void expect_touch_chains_reproduced(int which)
{
    int code = which != CARDS_MACHINE;
    cr_assert_eq(chdir(MCMSIM_DATADIR), 0);
    session *h100, *h200;
    int n100, n200;
    cr_assert_eq(sessions_load("h100", &h100, &n100), 0, "%s", fail_message());
    cr_assert_eq(sessions_load("h200", &h200, &n200), 0, "%s", fail_message());
    char passed[512];
    const session *ref100 = &h100[card_reference(h100, n100, passed, sizeof passed)],
                  *ref200 = &h200[card_reference(h200, n200, passed, sizeof passed)];
    const struct { const session *s, *other; const char *base; } cards[] = {
        {ref100, NULL, "h100"}, {ref200, ref100, "h200"}};
    for (int c = 0; c < 2; c++) {
        machine base = test_preset(cards[c].base), card, m;
        cr_assert_eq(card_machine(cards[c].s, cards[c].other, &base, &card), 0, "%s", fail_message());
        m = card;
        if (which == CODE_MACHINE)
            cr_assert_eq(card_code_machine(cards[c].s, cards[c].other, &card, &m), 0, "%s", fail_message());
        if (which == CODE_MACHINE_WITHOUT_CACHES) {
            cr_assert_eq(card_code_machine_without_caches(cards[c].s, cards[c].other, &card, &m), 0, "%s",
                         fail_message());
            cr_assert(!machine_caches(&m), "%s: without the caches", cards[c].s->dir);
        }
        double mhz, one_block, card_wide;
        cr_assert_eq(card_constant(cards[c].s, "sm_clock_measured", &mhz), 0);
        boundary_chains(cards[c].s, &one_block, &card_wide);
        double one = code ? code_touch_chain_cycles_per_kernel(&m, 1) : touch_chain_cycles_per_kernel(&m, 1);
        double wide = code ? code_touch_chain_cycles_per_kernel(&m, m.p) : touch_chain_cycles_per_kernel(&m, m.p);
        cr_expect_float_eq(one, one_block * mhz, 1e-9 * one_block * mhz, "%s: a kernel of one block",
                           cards[c].s->dir);
        cr_expect_float_eq(wide, card_wide * mhz, 1e-9 * card_wide * mhz, "%s: a kernel of a block on every SM",
                           cards[c].s->dir);
    }
    sessions_free(h100, n100);
    sessions_free(h200, n200);
}

Test(card, each_cards_machine_reproduces_its_sessions_touch_chains)
{
    /* The engine charges the chain's block what card.c takes off the
     * measured time. */
    expect_touch_chains_reproduced(CARDS_MACHINE);
}

Test(card, each_cards_code_machine_reproduces_its_sessions_touch_chains, .timeout = 300)
{
    /* The same chains on each card's code machine, whose kernels are charged
     * by their compiled code: its boundary leaves out what the code's costs
     * charge the chain's block, not what the paper counts (card.c,
     * code_kernel_boundary), so a graph's kernel costs the chain's line
     * there too. */
    expect_touch_chains_reproduced(CODE_MACHINE);
}

Test(card, each_cards_code_machine_without_the_caches_reproduces_the_touch_chains, .timeout = 300)
{
    /* The code machine make validate simulates the points on without the
     * caches: its boundary leaves out what it charges the chains' blocks
     * without them (the working-set rule), so it reproduces the chains as
     * well, not the machine with the caches' boundary under other charges */
    expect_touch_chains_reproduced(CODE_MACHINE_WITHOUT_CACHES);
}

/* A copy of the H100's reference session in a fresh folder, one of its
 * files (`file`) passed through a shell `filter`: the copy to read, the
 * reference it came from, and the sessions loaded (free_session_copy). */
typedef struct session_copy {
    session *all;
    int n;
    const session *ref;
    session copy;
} session_copy;

static void copy_reference_session(session_copy *c, const char *file, const char *filter)
{
    cr_assert_eq(chdir(MCMSIM_DATADIR), 0);
    cr_assert_eq(sessions_load("h100", &c->all, &c->n), 0, "%s", fail_message());
    char passed[512];
    c->ref = &c->all[card_reference(c->all, c->n, passed, sizeof passed)];
    memset(&c->copy, 0, sizeof c->copy);
    snprintf(c->copy.dir, sizeof c->copy.dir, "/tmp/mcmsim-session-XXXXXX");
    cr_assert(mkdtemp(c->copy.dir) != NULL);
    snprintf(c->copy.name, sizeof c->copy.name, "copy");
    const char *ref = c->ref->dir, *dir = c->copy.dir;
    char cmd[8000];
    snprintf(cmd, sizeof cmd, "cp %s/device.txt %s/occupancy.csv %s/constants.csv %s/ && %s < %s/%s > %s/%s", ref,
             ref, ref, dir, filter, ref, file, dir, file);
    cr_assert_eq(system(cmd), 0, "%s", cmd);
}

static void free_session_copy(session_copy *c)
{
    char cmd[1100];
    snprintf(cmd, sizeof cmd, "rm -rf %s", c->copy.dir);
    cr_expect_eq(system(cmd), 0);
    sessions_free(c->all, c->n);
}

Test(card, the_writers_terms_move_the_boundary_with_the_caches_only, .timeout = 300)
{
    /* the writers' terms (card.c, WRITERS) act through the caches alone: the
     * code machine without them has the same kernel boundary, to the bit,
     * whether card_writers_derived derives them or not; with the caches the
     * boundary follows their charge of the touch blocks (the H100's
     * reference session, which measured their four rows) */
    session_copy c;
    copy_reference_session(&c, "constants.csv", "cat");
    const session *s = &c.copy;
    machine base = test_preset("h100"), card[2], code[2], off[2];
    int derived = card_writers_derived;
    for (int on = 0; on < 2; on++) {
        card_writers_derived = on;
        cr_assert_eq(card_machine(s, NULL, &base, &card[on]), 0, "%s", fail_message());
        cr_assert_eq(card_code_machine(s, NULL, &card[on], &code[on]), 0, "%s", fail_message());
        cr_assert_eq(card_code_machine_without_caches(s, NULL, &card[on], &off[on]), 0, "%s", fail_message());
    }
    card_writers_derived = derived;
    cr_assert(card[1].u_l2_write_warps4 > 0 && card[0].u_l2_write_warps4 == 0, "the writers on, then off");
    cr_expect(code[1].graph_launch_latency != code[0].graph_launch_latency,
              "with the caches: %.17g either way", code[0].graph_launch_latency);
    cr_expect_eq(off[1].graph_launch_latency, off[0].graph_launch_latency);
    cr_expect_eq(off[1].graph_launch_per_sm, off[0].graph_launch_per_sm);
    free_session_copy(&c);
}

Test(card, a_session_without_the_block_constants_borrows_the_other_cards)
{
    /* a copy of the H100's reference session without block_turnaround and
     * block_dispatch_steady (as the H200's sessions of 2026-11-23 are):
     * alone it is refused; given another session it takes that one's two
     * block terms and nothing else, and its preset says so */
    session_copy c;
    copy_reference_session(&c, "constants.csv", "grep -v '^block_turnaround,\\|^block_dispatch_steady,'");
    const session *older = &c.copy, *ref = c.ref;
    machine base = test_preset("h100"), alone, borrowed, own;
    cr_expect_eq(card_machine(older, NULL, &base, &alone), -1);
    cr_expect(strstr(fail_message(), "no block_turnaround") != NULL, "%s", fail_message());
    cr_assert_eq(card_machine(older, ref, &base, &borrowed), 0, "%s", fail_message());
    cr_assert_eq(card_machine(ref, NULL, &base, &own), 0, "%s", fail_message());
    cr_expect_eq(borrowed.block_retire, own.block_retire);
    cr_expect_eq(borrowed.block_dispatch, own.block_dispatch);
    cr_expect_eq(borrowed.u, own.u, "the rest from its own constants (here the same numbers)");
    char preset[1100];
    snprintf(preset, sizeof preset, "%s/preset.cfg", older->dir);
    cr_assert_eq(card_write_preset(&borrowed, older, ref, preset), 0, "%s", fail_message());
    long len;
    char *text = read_file(preset, &len);
    char want[1200];
    snprintf(want, sizeof want, "[not measured in this session: from %s]", ref->dir);
    cr_expect(strstr(text, want) != NULL, "%s", text);
    int borrowed_terms = 0;
    for (const char *at = text; (at = strstr(at, "[not measured in this session: from")) != NULL; at++)
        borrowed_terms++;
    cr_expect_eq(borrowed_terms, 2, "block_dispatch and block_retire only: %s", text);
    free(text);
    free_session_copy(&c);
}

/* Write `text` to file `name` of session s's folder. */
static void write_text(const session *s, const char *name, const char *text)
{
    char path[1100];
    snprintf(path, sizeof path, "%s/%s", s->dir, name);
    FILE *f = fopen(path, "w");
    cr_assert(f != NULL, "%s", path);
    fputs(text, f);
    cr_assert_eq(fclose(f), 0);
}

/* A made-up session in a new temporary folder with these constants.csv
 * and graph-start.csv rows (name,value; NULL: no graph-start.csv). */
static void readings_session(session *s, const char *constants, const char *graph_start)
{
    memset(s, 0, sizeof *s);
    snprintf(s->dir, sizeof s->dir, "/tmp/mcmsim-readings-XXXXXX");
    cr_assert(mkdtemp(s->dir) != NULL);
    char text[1024];
    snprintf(text, sizeof text, "name,value,unit,phase,how\n%s", constants);
    write_text(s, "constants.csv", text);
    if (graph_start) {
        snprintf(text, sizeof text, "name,value,unit,phase,how\n%s", graph_start);
        write_text(s, "graph-start.csv", text);
    }
}

static void remove_readings_session(const session *s)
{
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "rm -rf %s", s->dir);
    cr_expect_eq(system(cmd), 0);
}

Test(card, a_constant_is_the_mean_of_every_reading_in_the_session)
{
    /* graph_start read before and after the cases (2 and 4 µs), and again
     * before two cases (3 and 7 µs) in graph-start.csv: the mean of the
     * four is 4; a constant graph-start.csv does not hold keeps its own
     * readings; without graph-start.csv the mean of constants.csv's two */
    static const char constants[] = "graph_start,2,us,before,x\nop_latency,6,cycles,before,x\n"
                                    "graph_start,4,us,after,x\n";
    session s;
    readings_session(&s, constants, "graph_start,3,us,before-a,x\ngraph_start,7,us,before-b,x\n");
    double start, op;
    cr_assert_eq(card_constant(&s, "graph_start", &start), 0);
    cr_expect_float_eq(start, 4.0, 1e-12, "(2 + 4 + 3 + 7) / 4: %g", start);
    cr_assert_eq(card_constant(&s, "op_latency", &op), 0);
    cr_expect_float_eq(op, 6.0, 1e-12);
    remove_readings_session(&s);
    readings_session(&s, constants, NULL);
    cr_assert_eq(card_constant(&s, "graph_start", &start), 0);
    cr_expect_float_eq(start, 3.0, 1e-12, "(2 + 4) / 2: %g", start);
    cr_expect_eq(card_constant(&s, "graph_start_protocol", &start), -1, "a constant not read is absent");
    remove_readings_session(&s);
}

Test(card, a_reading_above_twice_its_median_is_a_disturbance_left_out_of_the_mean)
{
    /* graph_start read 2, 4 (constants.csv) and 3, 30 (graph-start.csv):
     * the median is 3.5, so 30 > 2 x 3.5 is a disturbance and the mean is
     * (2 + 4 + 3) / 3 = 3, one reading left out.  A constant whose median
     * is not positive (-1, -1, 5: median -1) keeps every reading: its mean
     * is 1.  Two readings are never judged (each is within twice their
     * mean): 1 and 9 give 5. */
    session s;
    readings_session(&s,
                     "graph_start,2,us,before,x\ncold,-1,us,before,x\npair,1,us,before,x\n"
                     "graph_start,4,us,after,x\ncold,-1,us,after,x\npair,9,us,after,x\n",
                     "graph_start,3,us,before-a,x\ngraph_start,30,us,before-b,x\ncold,5,us,before-a,x\n");
    double value;
    int left_out = -1;
    cr_assert_eq(card_constant_readings(&s, "graph_start", &value, &left_out), 0);
    cr_expect_float_eq(value, 3.0, 1e-12, "(2 + 4 + 3) / 3: %g", value);
    cr_expect_eq(left_out, 1);
    cr_assert_eq(card_constant_readings(&s, "cold", &value, &left_out), 0);
    cr_expect_float_eq(value, 1.0, 1e-12, "(-1 - 1 + 5) / 3: %g", value);
    cr_expect_eq(left_out, 0);
    cr_assert_eq(card_constant(&s, "pair", &value), 0);
    cr_expect_float_eq(value, 5.0, 1e-12, "(1 + 9) / 2: %g", value);
    remove_readings_session(&s);
}

Test(card, blocks_per_sm_is_the_most_any_kernel_held)
{
    /* occupancy.csv of the reference session with one more row, a kernel
     * of a program whose name begins with a p (the reader once took such
     * rows for the header) holding 29 blocks an SM */
    session_copy c;
    copy_reference_session(&c, "occupancy.csv", "{ grep -v ',3[0-9]$\\|,29$'; echo 'plain-toy,toy_kernel,64,0,29'; }");
    machine base = test_preset("h100"), m;
    cr_assert_eq(card_machine(&c.copy, NULL, &base, &m), 0, "%s", fail_message());
    cr_expect_eq(m.blocks_per_sm, 29);
    free_session_copy(&c);
}

/* A DRAM term read from a whole-card rate (words a cycle), `key` at
 * `field` of the machine: the reference session without the row leaves
 * it 0 (off), even over a base preset holding 0.7, and the preset it
 * writes says so; with a made-up row of `rate` it is 132 SMs / rate. */
static void expect_card_rate_term(const char *row, double rate, const char *key, size_t field)
{
    char filter[128];
    snprintf(filter, sizeof filter, "grep -v '^%s,'", row);
    session_copy c;
    copy_reference_session(&c, "constants.csv", filter);
    const session *s = &c.copy;
    machine base = test_preset("h100"), m;
    *(double *)((char *)&base + field) = 0.7; /* as a preset written from an earlier session says */
    cr_assert_eq(card_machine(s, NULL, &base, &m), 0, "%s", fail_message());
    cr_expect_eq(*(double *)((char *)&m + field), 0, "%s: off, whatever the base preset said", key);
    char preset[1100], cmd[1400], off[128];
    snprintf(preset, sizeof preset, "%s/preset.cfg", s->dir);
    cr_assert_eq(card_write_preset(&m, s, NULL, preset), 0, "%s", fail_message());
    long len;
    char *text = read_file(preset, &len);
    snprintf(off, sizeof off, "# %s: off, not measured in this session", key);
    cr_expect(strstr(text, off) != NULL, "%s", text);
    free(text);
    snprintf(cmd, sizeof cmd, "echo '%s,%g,words/cycle,once,made up' >> %s/constants.csv", row, rate, s->dir);
    cr_assert_eq(system(cmd), 0);
    cr_assert_eq(card_machine(s, NULL, &base, &m), 0, "%s", fail_message());
    cr_expect_float_eq(*(double *)((char *)&m + field), 132 / rate, 1e-12, "%s", key);
    free_session_copy(&c);
}

Test(card, u_dram_unaligned_is_off_until_a_session_measures_it)
{
    /* gmem_rmw_shift4_card of 264 words a cycle: 0.5 cycles per word per SM */
    expect_card_rate_term("gmem_rmw_shift4_card", 264, "u_dram_unaligned", offsetof(machine, u_dram_unaligned));
}

Test(card, u_dram_mixed_is_the_copy_rate_and_off_without_it)
{
    /* gmem_copy_card (words read + written a cycle, the whole card) of 330:
     * 0.4 cycles per word per SM */
    expect_card_rate_term("gmem_copy_card", 330, "u_dram_mixed", offsetof(machine, u_dram_mixed));
}

Test(card, the_caches_come_on_only_with_every_one_of_their_constants)
{
    /* the reference session less the caches' rows: off, and the preset
     * says so; with made-up rows for all four (two readings of one) the
     * keys follow them; without one of the four, all off again */
    session_copy c;
    copy_reference_session(&c, "constants.csv",
                           "grep -v -E '^(l1_bytes|l1_line_read_per_sm_cycle|l1_load_latency|gmem_partial_write_card),'");
    const session *s = &c.copy;
    machine base = test_preset("h100"), m;
    base.l1_words = 999; /* as a preset written from an earlier session says */
    cr_assert_eq(card_machine(s, NULL, &base, &m), 0, "%s", fail_message());
    cr_expect_eq(m.l1_words, 0, "off, whatever the base preset said");
    cr_expect_eq(m.u_l1 + m.read_latency_l1 + m.u_dram_partial, 0);
    cr_expect_eq(m.line_words, 32, "a documented fact, inert with the caches off");
    char preset[1100], cmd[1400];
    snprintf(preset, sizeof preset, "%s/preset.cfg", s->dir);
    cr_assert_eq(card_write_preset(&m, s, NULL, preset), 0, "%s", fail_message());
    long len;
    char *text = read_file(preset, &len);
    cr_expect(strstr(text, "# l1_words: off, not measured in this session") != NULL, "%s", text);
    free(text);
    snprintf(cmd, sizeof cmd,
             "printf 'l1_bytes,229376,bytes,before,x\nl1_bytes,229376,bytes,after,x\n"
             "l1_line_read_per_sm_cycle,30,words/SM/cycle,before,x\nl1_line_read_per_sm_cycle,34,words/SM/cycle,after,x\n"
             "l1_load_latency,33,cycles,once,x\ngmem_partial_write_card,66,sectors/cycle,once,x\n' >> %s/constants.csv",
             s->dir);
    cr_assert_eq(system(cmd), 0);
    cr_assert_eq(card_machine(s, NULL, &base, &m), 0, "%s", fail_message());
    cr_expect_eq(m.l1_words, 229376 / 4);
    cr_expect_float_eq(m.u_l1, 1.0 / 32, 1e-15, "the mean of the readings, 32 words a cycle");
    cr_expect_eq(m.read_latency_l1, 33);
    cr_expect_float_eq(m.u_dram_partial, 132.0 / (66 * 8), 1e-15, "SMs / (sectors a cycle · 8 words)");
    cr_expect_eq(machine_validate(&m), 0, "%s", fail_message());
    cr_assert_eq(card_write_preset(&m, s, NULL, preset), 0, "%s", fail_message());
    text = read_file(preset, &len);
    cr_expect(strstr(text, "l1_words = 57344;") != NULL, "%s", text);
    free(text);
    snprintf(cmd, sizeof cmd, "sed -i '/^l1_load_latency,/d' %s/constants.csv", s->dir);
    cr_assert_eq(system(cmd), 0);
    cr_assert_eq(card_machine(s, NULL, &base, &m), 0, "%s", fail_message());
    cr_expect_eq(m.l1_words + m.u_l1 + m.u_dram_partial, 0, "one missing: all off");
    cr_assert_eq(card_write_preset(&m, s, NULL, preset), 0, "%s", fail_message());
    text = read_file(preset, &len);
    cr_expect(strstr(text, "# u_l1: off, measured, but the caches need every one of their constants") != NULL,
              "%s", text);
    free(text);
    free_session_copy(&c);
}

Test(card, the_boundary_follows_the_chains_timed_as_the_cases_are_where_measured, .timeout = 300)
{
    /* a copy of the H100's reference session with its
     * protocol_cases_touch_{1,card}_per_kernel rows made up, two repetitions
     * a phase as constants.cu writes them (_r0, _r1: 1.22 and 1.24 us, 1.42
     * and 1.44 us, before and after): both machines reproduce those chains
     * (1.23 and 1.43 us a kernel, every repetition a reading) in place of
     * the bare and the replayed ones, and the presets name the rows; with
     * only one of the two, the bare replays'; with neither pair whole, the
     * replayed */
    session_copy c;
    copy_reference_session(&c, "constants.csv",
                           "{ sed '/^protocol_cases_touch_1_per_kernel_r/d; "
                           "/^protocol_cases_touch_card_per_kernel_r/d'; "
                           "for phase in before after; do "
                           "printf 'protocol_cases_touch_1_per_kernel_r0,1.22,us,%s,x\n"
                           "protocol_cases_touch_1_per_kernel_r1,1.24,us,%s,x\n"
                           "protocol_cases_touch_card_per_kernel_r0,1.42,us,%s,x\n"
                           "protocol_cases_touch_card_per_kernel_r1,1.44,us,%s,x\n' "
                           "$phase $phase $phase $phase; done; }");
    const session *s = &c.copy;
    machine base = test_preset("h100"), card, code;
    cr_assert_eq(card_machine(s, NULL, &base, &card), 0, "%s", fail_message());
    cr_assert_eq(card_code_machine(s, NULL, &card, &code), 0, "%s", fail_message());
    double mhz;
    cr_assert_eq(card_constant(s, "sm_clock_measured", &mhz), 0);
    cr_expect_float_eq(card.graph_launch_per_sm, (1.43 - 1.23) * mhz / 131, 1e-9);
    cr_expect_float_eq(touch_chain_cycles_per_kernel(&card, 1), 1.23 * mhz, 1e-9 * mhz, "the paper's machine");
    cr_expect_float_eq(touch_chain_cycles_per_kernel(&card, card.p), 1.43 * mhz, 1e-9 * mhz);
    cr_expect_float_eq(code_touch_chain_cycles_per_kernel(&code, 1), 1.23 * mhz, 1e-9 * mhz, "the code machine");
    cr_expect_float_eq(code_touch_chain_cycles_per_kernel(&code, code.p), 1.43 * mhz, 1e-9 * mhz);
    char preset[1100], cmd[1400];
    snprintf(preset, sizeof preset, "%s/preset.cfg", s->dir);
    long len;
    for (int m = 0; m < 2; m++) {
        cr_assert_eq(card_write_preset(m ? &code : &card, s, NULL, preset), 0, "%s", fail_message());
        char *text = read_file(preset, &len);
        const char *line = strstr(text, "graph_launch_per_sm =");
        cr_assert(line != NULL, "%s", text);
        cr_expect(strncmp(strchr(line, '#'), "# protocol_cases_touch_card_per_kernel: ", 40) == 0, "%s", line);
        line = strstr(text, "graph_launch_latency =");
        cr_assert(line != NULL, "%s", text);
        cr_expect(strncmp(strchr(line, '#'), "# protocol_cases_touch_1_per_kernel: ", 37) == 0, "%s", line);
        free(text);
    }
    double one_block, card_wide;
    snprintf(cmd, sizeof cmd, "sed -i '/^protocol_cases_touch_card_per_kernel_r[0-9]*,/d' %s/constants.csv", s->dir);
    cr_assert_eq(system(cmd), 0);
    cr_assert_eq(card_constant(s, "protocol_bare_touch_1_per_kernel", &one_block), 0);
    cr_assert_eq(card_constant(s, "protocol_bare_touch_card_per_kernel", &card_wide), 0);
    cr_assert_eq(card_machine(s, NULL, &base, &card), 0, "%s", fail_message());
    cr_expect_float_eq(touch_chain_cycles_per_kernel(&card, 1), one_block * mhz, 1e-9 * mhz, "one row: the bare");
    cr_expect_float_eq(card.graph_launch_per_sm, (card_wide - one_block) * mhz / 131, 1e-9);
    snprintf(cmd, sizeof cmd, "sed -i '/^protocol_bare_touch_card_per_kernel_r[0-9]*,/d' %s/constants.csv", s->dir);
    cr_assert_eq(system(cmd), 0);
    cr_assert_eq(card_constant(s, "chain_touch_block_per_kernel", &one_block), 0);
    cr_assert_eq(card_constant(s, "chain_touch_card_per_kernel", &card_wide), 0);
    cr_assert_eq(card_machine(s, NULL, &base, &card), 0, "%s", fail_message());
    cr_expect_float_eq(card.graph_launch_per_sm, (card_wide - one_block) * mhz / 131, 1e-9, "one row alone: off");
    free_session_copy(&c);
}

Test(card, the_l2s_write_and_partial_rates_follow_their_rows_and_the_copy_rate_stays_off)
{
    /* u_l2_write follows gmem_write_l2_card (u_l2_partial its row, below);
     * u_l2_copy, and with it the write rule (card_terms.c), stays off even
     * where the session measured gmem_copy_l2_card: a made-up copy row
     * leaves it at 0 */
    session_copy c;
    copy_reference_session(&c, "constants.csv", "grep -v -E '^gmem_copy_l2_card,'");
    const session *s = &c.copy;
    machine base = test_preset("h100"), m;
    cr_assert_eq(card_machine(s, NULL, &base, &m), 0, "%s", fail_message());
    double rate = 0;
    cr_assert_eq(card_constant(s, "gmem_write_l2_card", &rate), 0);
    cr_expect_float_eq(m.u_l2_write, m.p / rate, 1e-12, "SMs / words a cycle");
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "printf 'gmem_copy_l2_card,264,words/cycle,once,x\n' >> %s/constants.csv", s->dir);
    cr_assert_eq(system(cmd), 0);
    cr_assert_eq(card_machine(s, NULL, &base, &m), 0, "%s", fail_message());
    cr_expect_eq(m.u_l2_copy, 0, "measured, not derived: off");
    /* u_l2_partial, the partial sectors' term, follows its row:
     * gmem_partial_write_l2_card, sectors a cycle, SMs / (8 · sectors)
     * (cache-hierarchy.md, session 46) */
    cr_assert_eq(card_constant(s, "gmem_partial_write_l2_card", &rate), 0);
    cr_expect_float_eq(m.u_l2_partial, m.p / (8 * rate), 1e-12, "SMs / (8 words a sector · sectors a cycle)");
    free_session_copy(&c);
}

Test(card, an_sms_own_write_rate_stays_off_where_the_session_measured_it)
{
    /* the machine leaves u_l2_write_sm at 0 (every launch's writes as
     * before) where the session measured gmem_write_l2_sms8 but not the
     * rest of the writers' terms (session 48's rows): alone, some cases
     * get worse with the caches (cache-hierarchy.md, session 47) */
    session_copy c;
    copy_reference_session(&c, "constants.csv", "cat");
    machine base = test_preset("h100"), m;
    cr_assert_eq(card_machine(&c.copy, NULL, &base, &m), 0, "%s", fail_message());
    double rate = 0;
    cr_assert_eq(card_constant(&c.copy, "gmem_write_l2_sms8", &rate), 0, "the row is measured");
    cr_expect_eq(m.u_l2_write_sm, 0, "measured, not derived: off");
    free_session_copy(&c);
}

/* The preset card_machine writes for session s and machine m, read back
 * (the caller frees). */
static char *written_preset(const session *s, const machine *m)
{
    char preset[1100];
    long len;
    snprintf(preset, sizeof preset, "%s/preset.cfg", s->dir);
    cr_assert_eq(card_write_preset(m, s, NULL, preset), 0, "%s", fail_message());
    return read_file(preset, &len);
}

Test(card, the_writers_terms_follow_their_rows_all_four_or_none)
{
    /* u_l2_write_sm, u_l2_write_warps4, u_l2_copy, u_l2_copy_sm: on
     * together where the session measured all four rows, else all off; a
     * session without session 48's two rows (the reference's, those rows
     * taken out) says nothing of them, one with some of them says which are
     * off and why */
    session_copy c;
    card_writers_derived = 1; /* held off in validate (card.h); the rule itself here */
    copy_reference_session(&c, "constants.csv", "grep -v '^gmem_write_l2_sms8_warps4,\\|^gmem_copy_l2_sms8,'");
    const session *s = &c.copy;
    machine base = test_preset("h100"), m;
    base.u_l2_copy = 0.7; /* as a preset written from an earlier session says */
    cr_assert_eq(card_machine(s, NULL, &base, &m), 0, "%s", fail_message());
    cr_expect(m.u_l2_write_sm == 0 && m.u_l2_write_warps4 == 0 && m.u_l2_copy == 0 && m.u_l2_copy_sm == 0);
    char *text = written_preset(s, &m);
    cr_expect(strstr(text, "u_l2_write_warps4") == NULL && strstr(text, "u_l2_copy_sm") == NULL, "%s", text);
    free(text);
    char cmd[1400];
    snprintf(cmd, sizeof cmd, "echo 'gmem_write_l2_sms8_warps4,1.75,words/SM/cycle,once,made up' >> %s/constants.csv",
             s->dir);
    cr_assert_eq(system(cmd), 0);
    cr_assert_eq(card_machine(s, NULL, &base, &m), 0, "%s", fail_message());
    cr_expect(m.u_l2_write_sm == 0 && m.u_l2_write_warps4 == 0 && m.u_l2_copy == 0 && m.u_l2_copy_sm == 0,
              "three of four: off");
    text = written_preset(s, &m);
    cr_expect(strstr(text, "# u_l2_write_warps4: off, measured, but the writers' terms need every one of their "
                           "constants") != NULL, "%s", text);
    cr_expect(strstr(text, "# u_l2_copy_sm: off, not measured in this session") != NULL, "%s", text);
    free(text);
    snprintf(cmd, sizeof cmd, "echo 'gmem_copy_l2_sms8,4,words/SM/cycle,once,made up' >> %s/constants.csv", s->dir);
    cr_assert_eq(system(cmd), 0);
    cr_assert_eq(card_machine(s, NULL, &base, &m), 0, "%s", fail_message());
    double port = 0, copy = 0;
    cr_assert_eq(card_constant(s, "gmem_write_l2_sms8", &port), 0);
    cr_assert_eq(card_constant(s, "gmem_copy_l2_card", &copy), 0);
    cr_expect_float_eq(m.u_l2_write_sm, 1 / port, 1e-12, "1 / words an SM a cycle, 32 warps");
    cr_expect_float_eq(m.u_l2_write_warps4, 1 / 1.75, 1e-12, "1 / words an SM a cycle, 4 warps");
    cr_expect_float_eq(m.u_l2_copy, m.p / copy, 1e-12, "SMs / words copied a cycle");
    cr_expect_float_eq(m.u_l2_copy_sm, 0.25, 1e-12, "1 / words an SM copies a cycle, 8 SMs");
    text = written_preset(s, &m);
    cr_expect(strstr(text, "u_l2_copy_sm = 0.25;") != NULL, "%s", text);
    free(text);
    /* held off (validate's setting): all four rows, all four keys 0 */
    card_writers_derived = 0;
    cr_assert_eq(card_machine(s, NULL, &base, &m), 0, "%s", fail_message());
    cr_expect(m.u_l2_write_sm == 0 && m.u_l2_write_warps4 == 0 && m.u_l2_copy == 0 && m.u_l2_copy_sm == 0);
    text = written_preset(s, &m);
    cr_expect(strstr(text, "# u_l2_copy_sm: off, measured, but the writers' terms are held off") != NULL, "%s", text);
    free(text);
    free_session_copy(&c);
}

Test(card, the_write_issue_overlap_stays_off_where_the_session_measured_it)
{
    /* the code machine leaves write_issue_overlap at 0 (the writes after
     * the compute) even where the session has its row: a made-up one */
    session_copy c;
    copy_reference_session(&c, "constants.csv", "grep -v -E '^write_issue_overlap,'");
    const session *s = &c.copy;
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "printf 'write_issue_overlap,0.86,fraction,once,x\n' >> %s/constants.csv", s->dir);
    cr_assert_eq(system(cmd), 0);
    machine base = test_preset("h100"), card, code;
    cr_assert_eq(card_machine(s, NULL, &base, &card), 0, "%s", fail_message());
    cr_assert_eq(card_code_machine(s, NULL, &card, &code), 0, "%s", fail_message());
    cr_expect_eq(code.write_issue_overlap, 0, "measured, not derived: off");
    free_session_copy(&c);
}

Test(card, a_session_without_a_constant_is_refused)
{
    char dir[] = "/tmp/mcmsim-card-XXXXXX";
    cr_assert(mkdtemp(dir) != NULL);
    char path[128];
    snprintf(path, sizeof path, "%s/constants.csv", dir);
    FILE *f = fopen(path, "w");
    cr_assert(f != NULL);
    fprintf(f, "name,value,unit,phase\nsm_clock_measured,1979,MHz,before\nsm_count,132,SMs,before\n");
    fclose(f);
    session s = {0};
    snprintf(s.dir, sizeof s.dir, "%s", dir);
    machine base = test_preset("h100"), m;
    cr_expect_eq(card_machine(&s, NULL, &base, &m), -1);
    cr_expect(strstr(fail_message(), "constants.csv: no launch_latency") != NULL, "%s", fail_message());
    remove(path);
    rmdir(dir);
}

/* ---- which session each case's points come from (validate/sessions.c) --- */

/* File `file` of made-up session `name` of card "t" under dir, holding text. */
static void write_session_file(const char *dir, const char *name, const char *file, const char *text)
{
    char path[700];
    snprintf(path, sizeof path, "%s/validate/data/t/%s/%s", dir, name, file);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f, "%s", path);
    fputs(text, f);
    fclose(f);
}

/* The header of a case's CSV (cuda_ref/common/csv.h). */
#define SERIES_HEADER                                                                                     \
    "case,params,n,m,l,s,wall_median_ms,wall_q1_ms,wall_q3_ms,wall_min_ms,wall_max_ms,graph_median_ms,"  \
    "graph_q1_ms,graph_q3_ms,graph_min_ms,graph_max_ms,runs,clock_mhz,launches,check\n"

/* A session directory of card "t" under dir with one CSV per case, each
 * row "case,n" of the new protocol. */
static void write_session(const char *dir, const char *name, const char *const *cases)
{
    char path[512];
    snprintf(path, sizeof path, "%s/validate/data/t/%s", dir, name);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "mkdir -p %s", path);
    cr_assert_eq(system(cmd), 0);
    for (int i = 0; cases[i]; i++) {
        char file[700];
        snprintf(file, sizeof file, "%s/%s.csv", path, cases[i]);
        FILE *f = fopen(file, "w");
        cr_assert_not_null(f);
        fprintf(f, SERIES_HEADER);
        for (int n = 1024; n <= 4096; n *= 2)
            fprintf(f, "%s,n=%d,%d,0,256,0,1,1,1,1,1,0.5,0.5,0.5,0.5,0.5,25,1980,3,ok\n", cases[i], n, n);
        fclose(f);
    }
}

/* Into the folder of made-up sessions (from the current one, kept in
 * here), and out of it again, removing it. */
static void enter_sessions_dir(const char *dir, char *here, size_t size)
{
    cr_assert_not_null(getcwd(here, size));
    cr_assert_eq(chdir(dir), 0);
}

/* Into dir, its card "t"'s sessions loaded: `count` of them. */
static void load_made_up_sessions(const char *dir, char *here, size_t size, session **s, int *n, int count)
{
    enter_sessions_dir(dir, here, size);
    cr_assert_eq(sessions_load("t", s, n), 0, "%s", fail_message());
    cr_assert_eq(*n, count);
}

static void leave_sessions_dir(const char *dir, const char *here)
{
    cr_assert_eq(chdir(here), 0);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    cr_expect_eq(system(cmd), 0);
}

Test(card, each_case_comes_from_the_newest_session_that_measured_it)
{
    char dir[] = "/tmp/mcmsim-sessions-XXXXXX";
    cr_assert(mkdtemp(dir) != NULL);
    write_session(dir, "2026-01-01a", (const char *[]){"euclid", "sum", NULL});
    write_session(dir, "2026-01-02a", (const char *[]){"sum", NULL});
    write_session(dir, "2026-01-03a", (const char *[]){"user-x", NULL});
    char here[1024];
    enter_sessions_dir(dir, here, sizeof here);
    session *s;
    int n;
    cr_assert_eq(sessions_load("t", &s, &n), 0, "%s", fail_message());
    cr_assert_eq(n, 3);
    cr_expect_eq(sessions_reference(s, n), 0, "the session that measured the most cases, not the newest");

    session a, b;
    cr_assert_eq(sessions_compose(s, n, 0, &a), 0);
    cr_assert_eq(a.n, 9, "three cases of three rows");
    const char *from[] = {"2026-01-01a", "2026-01-02a", "2026-01-03a"}; /* euclid, sum, user-x */
    for (int i = 0; i < a.n; i++) {
        char name[64];
        measured_row_session(&a.rows[i], name, sizeof name);
        cr_expect_str_eq(name, from[i / 3], "row %d (%s)", i, a.rows[i].program);
    }
    cr_expect_str_eq(a.name, "2026-01-01a, 2026-01-02a, 2026-01-03a");

    cr_assert_eq(sessions_compose(s, n, 1, &b), 0);
    cr_assert_eq(b.n, 3, "only the sum was measured twice");
    cr_expect_str_eq(b.rows[0].program, "sum");
    cr_expect_str_eq(b.name, "2026-01-01a");
    free(a.rows);
    free(b.rows);
    sessions_free(s, n);
    leave_sessions_dir(dir, here);
}

Test(card, a_disturbed_series_counts_as_not_measured)
{
    /* the sum in 02a: n = 1024 with quartiles 0.45 and 0.55 of a median of
     * 0.5 (20 % apart: steady), n = 2048 with 0.4 and 0.6 (40 %: disturbed,
     * over DISTURBED_SPREAD's 30 %); so set a takes the sum from 01a and
     * names 02a's series, and set b has no second steady session of it */
    char dir[] = "/tmp/mcmsim-sessions-XXXXXX";
    cr_assert(mkdtemp(dir) != NULL);
    write_session(dir, "2026-01-01a", (const char *[]){"sum", NULL});
    write_session(dir, "2026-01-02a", (const char *[]){"sum", "euclid", NULL});
    write_session_file(dir, "2026-01-02a", "sum.csv",
                       SERIES_HEADER "sum,n=1024,1024,0,256,0,1,1,1,1,1,0.5,0.45,0.55,0.4,0.6,25,1980,3,ok\n"
                                     "sum,n=2048,2048,0,256,0,1,1,1,1,1,0.5,0.4,0.6,0.4,0.6,25,1980,3,ok\n");
    char here[1024];
    session *s;
    int n;
    load_made_up_sessions(dir, here, sizeof here, &s, &n, 2);
    cr_expect_eq(session_disturbed(&s[1], "sum"), 1);
    cr_expect_eq(session_disturbed(&s[1], "euclid"), 0, "a series is judged by its own points");
    cr_expect_eq(session_disturbed(&s[0], "sum"), 0);
    session a, b;
    cr_assert_eq(sessions_compose(s, n, 0, &a), 0);
    cr_assert_eq(a.n, 6, "euclid's three rows from 02a, the sum's three from 01a");
    char name[64];
    measured_row_session(&a.rows[3], name, sizeof name);
    cr_expect_str_eq(a.rows[3].program, "sum");
    cr_expect_str_eq(name, "2026-01-01a");
    cr_expect_str_eq(a.disturbed, "sum (2026-01-02a)");
    cr_assert_eq(sessions_compose(s, n, 1, &b), 0);
    cr_expect_eq(b.n, 0, "euclid was measured once; the sum steadily once");
    free(a.rows);
    free(b.rows);
    sessions_free(s, n);
    leave_sessions_dir(dir, here);
}

Test(card, a_session_that_read_a_constant_unsteadily_is_not_the_reference)
{
    /* two made-up sessions of the same cases: the newer read the chain of
     * one-block kernels 1.0 and 1.3 us a kernel (30 % apart, over
     * STEADY_SPREAD's 25 %), so the older is the reference and the newer
     * is named; a graph's start read 2.4 and 3.4 us (a draw of the host)
     * and the clock 1 979 and 1 980 MHz leave a session steady */
    char dir[] = "/tmp/mcmsim-sessions-XXXXXX";
    cr_assert(mkdtemp(dir) != NULL);
    write_session(dir, "2026-01-01a", (const char *[]){"sum", NULL});
    write_session(dir, "2026-01-02a", (const char *[]){"sum", NULL});
    static const char *const name[2] = {"2026-01-01a", "2026-01-02a"};
    static const double chain_after[2] = {1.1, 1.3};
    for (int i = 0; i < 2; i++) {
        char text[512];
        snprintf(text, sizeof text,
                 "name,value,unit,phase,how\nsm_clock_measured,1979,MHz,before,x\ngraph_start,2.4,us,before,x\n"
                 "chain_touch_block_per_kernel,1.0,us,before,x\nchain_touch_block_per_kernel,%.1f,us,after,x\n"
                 "sm_clock_measured,1980,MHz,after,x\ngraph_start,3.4,us,after,x\n",
                 chain_after[i]);
        write_session_file(dir, name[i], "constants.csv", text);
    }
    char here[1024];
    session *s;
    int n;
    load_made_up_sessions(dir, here, sizeof here, &s, &n, 2);
    char why[256], passed[512];
    cr_expect_eq(card_session_steady(&s[0], why, sizeof why), 1, "1.0 and 1.1: 10 %% apart");
    cr_expect_eq(card_session_steady(&s[1], why, sizeof why), 0);
    cr_expect_str_eq(why, "chain_touch_block_per_kernel read 1 and 1.3");
    cr_expect_eq(sessions_reference(s, n), 1, "the newest of those that measured the most cases");
    cr_expect_eq(card_reference(s, n, passed, sizeof passed), 0);
    cr_expect_str_eq(passed, "`2026-01-02a` (chain_touch_block_per_kernel read 1 and 1.3)");
    sessions_free(s, n);
    leave_sessions_dir(dir, here);
}

/* device.txt of a session of card "t" under dir, with or without the line
 * run-all.sh writes since graphs are timed one alive at a time */
static void write_device_txt(const char *dir, const char *name, int one_graph)
{
    char path[512];
    snprintf(path, sizeof path, "%s/validate/data/t/%s/device.txt", dir, name);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fprintf(f, "# protocol: warm-up to a stable clock, points of a series interleaved round robin,\n");
    if (one_graph)
        fprintf(f, "# wall time of the host algorithm and device time of its CUDA graph per round,\n"
                   "# one graph alive at a time, captured and uploaded in its round\n");
    fprintf(f, "name: a card, not one graph alive at a time\n");
    fclose(f);
}

Test(card, sessions_know_how_their_graphs_were_timed)
{
    char dir[] = "/tmp/mcmsim-sessions-XXXXXX";
    cr_assert(mkdtemp(dir) != NULL);
    write_session(dir, "2026-01-01a", (const char *[]){"euclid", "sum", NULL});
    write_session(dir, "2026-01-02a", (const char *[]){"sum", NULL});
    write_device_txt(dir, "2026-01-01a", 0);
    write_device_txt(dir, "2026-01-02a", 1);
    char here[1024];
    enter_sessions_dir(dir, here, sizeof here);
    session *s;
    int n;
    cr_assert_eq(sessions_load("t", &s, &n), 0, "%s", fail_message());
    cr_assert_eq(n, 2);
    cr_expect_eq(s[0].one_graph, 0, "the mark counts only on a comment line");
    cr_expect_eq(s[1].one_graph, 1);
    session a, b;
    cr_assert_eq(sessions_compose(s, n, 0, &a), 0);
    cr_expect_eq(a.n, 3, "the sum's three rows from 02a; euclid only 01a measured");
    cr_expect_eq(a.one_graph, 1);
    cr_expect_str_eq(a.name, "2026-01-02a");
    cr_expect_str_eq(a.older, "euclid", "a case measured only under the older protocol is named, not scored");
    cr_assert_eq(sessions_compose(s, n, 1, &b), 0);
    cr_expect_eq(b.n, 0, "no second session of the current protocol measured the sum");
    cr_expect_str_eq(b.older, "sum", "01a would have given it at depth 1; euclid was measured once");
    free(a.rows);
    free(b.rows);
    sessions_free(s, n);
    leave_sessions_dir(dir, here);

    cr_assert_eq(chdir(MCMSIM_DATADIR), 0);
    cr_assert_eq(sessions_load("h100", &s, &n), 0, "%s", fail_message());
    for (int i = 0; i < n; i++)
        cr_expect_eq(s[i].one_graph, strcmp(s[i].name, "2026-11-25e") >= 0,
                     "the committed H100 session %s", s[i].name);
    sessions_free(s, n);
}

/* The reference session's card and code machines (card, code), and the
 * code machine of its copy without constants.csv's row `row` (without):
 * a code term from that row is on in the one and off in the other. */
static void code_machines_without_row(session_copy *c, const char *row, machine *card, machine *code,
                                      machine *without)
{
    char filter[160];
    snprintf(filter, sizeof filter, "grep -v '^%s,'", row);
    copy_reference_session(c, "constants.csv", filter);
    machine base = test_preset("h100"), copy_card;
    cr_assert_eq(card_machine(c->ref, NULL, &base, card), 0, "%s", fail_message());
    cr_assert_eq(card_code_machine(c->ref, NULL, card, code), 0, "%s", fail_message());
    cr_assert_eq(card_machine(&c->copy, NULL, &base, &copy_card), 0, "%s", fail_message());
    cr_assert_eq(card_code_machine(&c->copy, NULL, &copy_card, without), 0, "%s", fail_message());
}

Test(card, a_taken_back_edge_waits_what_the_loop_chain_takes_beyond_its_chain)
{
    /* constants.cu's loop chain (a kernel of 132 blocks, each thread 1024
     * passes of x = x·x + j kept rolled) costs per kernel beyond the touch
     * chain's 1024 passes; of a pass, the stream charges the chain of the
     * counter's addition and the branch (2 links at issue_latency_warps1)
     * and between them the comparison the branch waits for
     * (cycles_predicate, 13); the rest is the taken branch's wait.  The
     * card's machine (the paper's costs) keeps it off; a session without
     * the loop chain leaves it off. */
    session_copy c;
    machine card, code, without;
    code_machines_without_row(&c, "chain_loop_card_per_kernel", &card, &code, &without);
    double mhz, loop, touch, link;
    cr_assert_eq(card_constant(c.ref, "sm_clock_measured", &mhz), 0);
    cr_assert_eq(card_constant(c.ref, "chain_loop_card_per_kernel", &loop), 0, "%s measured the loop chain", c.ref->dir);
    cr_assert_eq(card_constant(c.ref, "chain_touch_card_per_kernel", &touch), 0);
    cr_assert_eq(card_constant(c.ref, "issue_latency_warps1", &link), 0);
    double pass = (loop - touch) * mhz / 1024;
    cr_expect_eq(code.cycles_predicate, 13);
    cr_expect_float_eq(code.cycles_branch, pass - 2 * link - 13, 1e-9 * pass);
    cr_expect(code.cycles_branch > 0 && code.cycles_branch < pass, "%g of a pass of %g", code.cycles_branch, pass);
    cr_expect_eq(card.cycles_branch, 0, "the paper's costs: no branch term");
    cr_expect_eq(card.cycles_predicate, 0, "the paper's costs: no predicate term");
    cr_expect_eq(without.cycles_branch, 0, "off without the loop chain");
    free_session_copy(&c);
}

Test(card, a_division_by_a_number_is_off_until_a_session_measures_it)
{
    /* constants.cu's division chains (measure_stencil_rows): the code
     * machine's cycles_divide is sdiv64_fits32_latency as measured, and
     * cycles_divide32 udiv32_latency; a session without the rows leaves
     * both off (0: a division its instructions' links), and so does the
     * card's machine (the paper's costs) with them */
    session_copy c;
    copy_reference_session(&c, "constants.csv", "grep -v '^sdiv64_fits32_latency,\\|^udiv32_latency,'");
    machine base = test_preset("h100"), card, code;
    cr_assert_eq(card_machine(&c.copy, NULL, &base, &card), 0, "%s", fail_message());
    cr_assert_eq(card_code_machine(&c.copy, NULL, &card, &code), 0, "%s", fail_message());
    cr_expect_eq(code.cycles_divide, 0, "off: not measured");
    cr_expect_eq(code.cycles_divide32, 0, "off: not measured");
    char cmd[1400];
    snprintf(cmd, sizeof cmd,
             "printf 'sdiv64_fits32_latency,71.5,cycles,once,made up\\nudiv32_latency,58.25,cycles,once,made up\\n' "
             ">> %s/constants.csv",
             c.copy.dir);
    cr_assert_eq(system(cmd), 0);
    cr_assert_eq(card_machine(&c.copy, NULL, &base, &card), 0, "%s", fail_message());
    cr_assert_eq(card_code_machine(&c.copy, NULL, &card, &code), 0, "%s", fail_message());
    cr_expect_eq(code.cycles_divide, 71.5);
    cr_expect_eq(code.cycles_divide32, 58.25);
    cr_expect_eq(card.cycles_divide, 0, "the paper's costs: no division term");
    free_session_copy(&c);
}

Test(card, a_constant_line_costs_the_code_what_one_more_line_costs_the_chain)
{
    /* constants.cu's constant_cache chains: a kernel whose index first adds
     * one word of a 128-byte line of constants no other read brings, less
     * one that adds none, per kernel: the code machine's
     * constant_line_latency, in cycles at the session's clock.  The card's
     * machine (the paper's costs) keeps it off; a session without the row
     * leaves it off. */
    session_copy c;
    machine card, code, without;
    code_machines_without_row(&c, "constant_cache_first_line_per_kernel", &card, &code, &without);
    double mhz, line;
    cr_assert_eq(card_constant(c.ref, "sm_clock_measured", &mhz), 0);
    cr_assert_eq(card_constant(c.ref, "constant_cache_first_line_per_kernel", &line), 0, "%s measured the line",
                 c.ref->dir);
    cr_expect_float_eq(code.constant_line_latency, line * mhz / 1e3, 1e-9 * line * mhz / 1e3);
    cr_expect(code.constant_line_latency > 200 && code.constant_line_latency < 350, "%g cycles",
              code.constant_line_latency);
    cr_expect_eq(card.constant_line_latency, 0, "the paper's costs: no constant line");
    cr_expect_eq(without.constant_line_latency, 0, "off without the row");
    free_session_copy(&c);
}
