/*
 * test_time_split.c — where the time goes (sim/engine/time_split.h): T's parts on
 * hand-checked programs, each derived by hand from the schedule, and their
 * sum, which is T.  A part is an SM's cycles over P, so every expected
 * value below is (SM-cycles of the part) / P.
 */
#include "helpers.h"

#include <math.h>

static void expect_parts(const sim_result *r, const double *want)
{
    double sum = 0;
    for (int part = 0; part < SPLIT_PARTS; part++) {
        cr_expect_float_eq(r->time_split[part], want[part], 1e-9 * r->T, "%s: %.17g cycles, not %g",
                           split_keys[part], r->time_split[part], want[part]);
        sum += r->time_split[part];
    }
    cr_expect_float_eq(sum, r->T, 1e-9 * r->T, "the parts sum to %.17g, T = %.17g", sum, r->T);
}

/* a: 6 blocks of S(B) = 10 reading and writing one coalesced word per
 * thread (O(B) = 2U = 4), then b: 2 blocks of S(B) = 5, on P = 4 SMs.
 * a takes two rounds of 14 (4 blocks, then 2), b one of 5: T = 33. */
static kernel_dag *chain_of_two(void)
{
    kernel_dag *dag = kernel_dag_new("two");
    kernel a = test_kernel("a", 6, 32, 10, 1, 1), b = test_kernel("b", 2, 32, 5, 0, 0);
    kernel_dag_chain(dag, &a);
    kernel_dag_chain(dag, &b);
    return dag;
}

Test(time_split, on_the_pure_mcm_compute_memory_and_idle_sms_make_T)
{
    kernel_dag *dag = chain_of_two();
    machine m = test_machine(4, 2);
    sim_result r = simulate(dag, &m);
    cr_assert_eq(r.T, 33);
    double want[SPLIT_PARTS] = {0};
    want[SPLIT_COMPUTE] = (6 * 10 + 2 * 5) / 4.0;  /* 17.5 */
    want[SPLIT_MEMORY] = 6 * 4 / 4.0;              /* 6 */
    want[SPLIT_IDLE] = (4 * 33 - 6 * 14 - 2 * 5) / 4.0; /* 2 SMs for 14 cycles, 2 for 5: 9.5 */
    expect_parts(&r, want);
    sim_result_free(&r);
    kernel_dag_free(dag);
}

/* With a launch latency of 3 every SM waits 3 cycles before each kernel:
 * a runs 3 .. 31, b 34 .. 39.  The waits are the launch part, the rest as
 * above. */
Test(time_split, a_launch_latency_is_the_launch_part)
{
    kernel_dag *dag = chain_of_two();
    machine m = test_machine(4, 2);
    m.launch_latency = 3;
    sim_result r = simulate(dag, &m);
    cr_assert_eq(r.T, 39);
    double want[SPLIT_PARTS] = {0};
    want[SPLIT_COMPUTE] = 17.5;
    want[SPLIT_MEMORY] = 6;
    want[SPLIT_LAUNCH] = 4 * 3 * 2 / 4.0;
    want[SPLIT_IDLE] = 9.5;
    expect_parts(&r, want);
    sim_result_free(&r);
    kernel_dag_free(dag);
}

/* One block on one SM: dispatch 2, first word's latency 3, one word read
 * at U = 4, S(B) = 5: T = 14 in four parts. */
Test(time_split, a_block_waits_for_its_dispatch_then_its_first_word)
{
    kernel_dag *dag = kernel_dag_new("one");
    kernel k = test_kernel("k", 1, 32, 5, 1, 0);
    kernel_dag_add(dag, &k);
    machine m = test_machine(1, 4);
    m.block_dispatch = 2;
    m.read_latency = 3;
    sim_result r = simulate(dag, &m);
    cr_assert_eq(r.T, 14);
    double want[SPLIT_PARTS] = {0};
    want[SPLIT_DISPATCH] = 2;
    want[SPLIT_LATENCY] = 3;
    want[SPLIT_MEMORY] = 4;
    want[SPLIT_COMPUTE] = 5;
    expect_parts(&r, want);
    sim_result_free(&r);
    kernel_dag_free(dag);
}

/* Under `exclusive`, two blocks on two SMs each read one word (10 cycles
 * at U = 10) and compute 5: one is served 0 .. 10 while the other waits,
 * then served 10 .. 20; they compute until 15 and 25.  T = 25: memory 20,
 * waiting 10, compute 10, the first SM idle 15 .. 25. */
Test(time_split, under_exclusive_a_transfer_waits_for_the_memory)
{
    kernel_dag *dag = kernel_dag_new("readers");
    kernel k = test_kernel("read", 2, 32, 5, 1, 0);
    kernel_dag_add(dag, &k);
    machine m = test_machine(2, 10);
    m.policy = MEM_EXCLUSIVE;
    sim_result r = simulate(dag, &m);
    cr_assert_eq(r.T, 25);
    double want[SPLIT_PARTS] = {0};
    want[SPLIT_MEMORY] = 20 / 2.0;
    want[SPLIT_CONTENTION] = 10 / 2.0;
    want[SPLIT_COMPUTE] = 10 / 2.0;
    want[SPLIT_IDLE] = 10 / 2.0;
    expect_parts(&r, want);
    sim_result_free(&r);
    kernel_dag_free(dag);
}

/* Two independent one-block kernels of one thread: A reads 10 words, B 30,
 * then each computes S(B) = 10 (a delay: no lanes). */
static kernel_dag *reads_of_10_and_30(void)
{
    kernel_dag *dag = kernel_dag_new("readers");
    kernel a = test_kernel("a", 1, 1, 10, 10, 0), b = test_kernel("b", 1, 1, 10, 30, 0);
    kernel_dag_add(dag, &a);
    kernel_dag_add(dag, &b);
    return dag;
}

/* Two resident blocks on one SM, at U = 1.  They share the port: A's
 * reads end at 20, B has 20 left and takes the port alone until 40.  A
 * computes 20 .. 30 while B reads (compute: B's words are hidden), B
 * computes 40 .. 50.  T = 50: compute 20, memory 30. */
Test(time_split, a_resident_blocks_memory_behind_anothers_compute_counts_as_compute)
{
    kernel_dag *dag = reads_of_10_and_30();
    machine m = test_machine(1, 1);
    m.blocks_per_sm = 2;
    sim_result r = simulate(dag, &m);
    cr_assert_float_eq(r.T, 50, 1e-9);
    double want[SPLIT_PARTS] = {0};
    want[SPLIT_COMPUTE] = 20;
    want[SPLIT_MEMORY] = 30;
    expect_parts(&r, want);
    sim_result_free(&r);
    kernel_dag_free(dag);
}

/* The same two blocks under `shared` with a channel of a quarter of a
 * word a cycle (one block per SM now, on two SMs): each transfer moves at
 * 1/8 of its port while both read, so 7/8 of each SM's cycles then wait.
 * A reads its 10 by 80; B has read 10 of 30 and takes the channel alone at
 * 1/4 until 160.  A computes 80 .. 90, B 160 .. 170. */
Test(time_split, under_shared_the_port_the_channel_holds_back_is_waiting)
{
    kernel_dag *dag = reads_of_10_and_30();
    machine m = test_machine(2, 1);
    m.policy = MEM_SHARED;
    m.bandwidth = 0.25;
    sim_result r = simulate(dag, &m);
    cr_assert_float_eq(r.T, 170, 1e-9);
    double want[SPLIT_PARTS] = {0};
    want[SPLIT_MEMORY] = (10 + 30) / 2.0;          /* the words, at U each */
    want[SPLIT_CONTENTION] = (70 + 130) / 2.0;     /* A: 80 − 10; B: 160 − 30 */
    want[SPLIT_COMPUTE] = 20 / 2.0;
    want[SPLIT_IDLE] = (170 - 90) / 2.0;            /* A's SM after 90 */
    expect_parts(&r, want);
    sim_result_free(&r);
    kernel_dag_free(dag);
}
