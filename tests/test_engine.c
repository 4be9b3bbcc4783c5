/*
 * test_engine.c — exact greedy times on hand-checked DAGs, the memory
 * policies, launch latency, block order, and the trace.
 */
#include "helpers.h"

#include <math.h>

Test(engine, one_kernel_of_100_blocks_on_8_sms)
{
    /* 100 blocks of cost 10 on 8 SMs: 13 rounds (12 full, one of 4) = 130 */
    kernel_dag *dag = kernel_dag_new("one");
    kernel k = test_kernel("k", 100, 32, 10, 0, 0);
    kernel_dag_add(dag, &k);
    machine m = test_machine(8, 1);
    sim_result r = simulate(dag, &m);
    cr_expect_eq(r.T, 130);
    cr_expect_eq(r.costs.N, 100);
    cr_expect_eq(r.costs.C, 10);
    cr_expect_eq(r.costs.L_kernels, 1);
    cr_expect_eq(r.costs.L_edges, 0);
    cr_expect_eq(r.costs.K, 100);
    cr_expect_eq(r.costs.W, 100 * 32 * 10);
    cr_expect_eq(r.bound_theorem1, (100.0 / 8 + 1) * 10);
    cr_expect_eq(r.bound_corollary1, (100.0 / 100 + 1) * 10);
    cr_expect_float_eq(r.utilization, 1000.0 / (8 * 130), 1e-12);
    sim_result_free(&r);
    kernel_dag_free(dag);
}

Test(engine, two_kernel_chain)
{
    /* k0: 100 blocks of 10 -> 130; k1 waits for all of k0: 16 blocks of 5 on
     * 8 SMs = 2 rounds -> 140.  k1 starts exactly when k0 ends. */
    kernel_dag *dag = kernel_dag_new("chain");
    kernel a = test_kernel("k0", 100, 32, 10, 0, 0), b = test_kernel("k1", 16, 32, 5, 0, 0);
    kernel_dag_chain(dag, &a);
    kernel_dag_chain(dag, &b);
    machine m = test_machine(8, 1);
    sim_result r = simulate(dag, &m);
    cr_expect_eq(r.T, 140);
    cr_expect_eq(r.kernels[0].start, 0);
    cr_expect_eq(r.kernels[0].end, 130);
    cr_expect_eq(r.kernels[1].start, 130);
    cr_expect_eq(r.kernels[1].end, 140);
    cr_expect_eq(r.costs.L_kernels, 2);
    cr_expect_eq(r.costs.L_edges, 1);
    cr_expect_eq(r.costs.S, 15);
    cr_expect_eq(r.costs.K, 100);
    sim_result_free(&r);
    kernel_dag_free(dag);
}

Test(engine, two_independent_kernels_share_the_sms)
{
    /* 12 blocks of 10 and 12 blocks of 10, independent, on 8 SMs: 24 blocks
     * in 3 rounds = 30 (the second kernel fills SMs the first leaves idle). */
    kernel_dag *dag = kernel_dag_new("pair");
    kernel a = test_kernel("a", 12, 32, 10, 0, 0), b = test_kernel("b", 12, 32, 10, 0, 0);
    kernel_dag_add(dag, &a);
    kernel_dag_add(dag, &b);
    machine m = test_machine(8, 1);
    sim_result r = simulate(dag, &m);
    cr_expect_eq(r.T, 30);
    cr_expect_eq(r.costs.K, 24, "two independent kernels form one anti-chain");
    cr_expect_eq(r.costs.L_kernels, 1);
    cr_expect_eq(r.kernels[1].start, 10, "FIFO: b's first block waits for a round");
    cr_expect_eq(r.kernels[0].end, 20);
    sim_result_free(&r);
    kernel_dag_free(dag);
}

Test(engine, overhead_coalesced_and_not)
{
    /* U = 4, ℓ = 8, α = 2, β = 1: coalesced O(B) = 3·4 = 12; uncoalesced
     * O(B) = 8·3·4 = 96; mixed (CT transposition: coalesced reads,
     * uncoalesced writes) = 2·4 + 8·1·4 = 40.  Span 10. */
    kernel_dag *dag = kernel_dag_new("o");
    kernel c = test_kernel("coalesced", 1, 8, 10, 2, 1);
    kernel u = test_kernel("uncoalesced", 1, 8, 10, 0, 0);
    u.cost.uncoalesced_reads = 2;
    u.cost.uncoalesced_writes = 1;
    kernel x = test_kernel("mixed", 1, 8, 10, 2, 0);
    x.cost.uncoalesced_writes = 1;
    kernel_dag_chain(dag, &c);
    kernel_dag_chain(dag, &u);
    kernel_dag_chain(dag, &x);
    machine m = test_machine(4, 4);
    sim_result r = simulate(dag, &m);
    cr_expect_eq(r.kernels[0].end - r.kernels[0].start, 22);
    cr_expect_eq(r.kernels[1].end - r.kernels[1].start, 106);
    cr_expect_eq(r.kernels[2].end - r.kernels[2].start, 50);
    cr_expect_eq(r.costs.O, 12 + 96 + 40);
    cr_expect_eq(r.costs.C, 106);
    cr_expect_eq(r.T, 22 + 106 + 50);
    sim_result_free(&r);
    kernel_dag_free(dag);
}

Test(engine, diamond_width_and_span)
{
    /* a -> {b, c} -> d with 1, 4, 4, 1 blocks: K = 8 (b and c), S = the
     * heaviest path of kernel spans, L = 3 kernels. */
    kernel_dag *dag = kernel_dag_new("diamond");
    kernel a = test_kernel("a", 1, 4, 1, 0, 0), b = test_kernel("b", 4, 4, 7, 0, 0);
    kernel c = test_kernel("c", 4, 4, 3, 0, 0), d = test_kernel("d", 1, 4, 2, 0, 0);
    int ia = kernel_dag_add(dag, &a), ib = kernel_dag_add(dag, &b);
    int ic = kernel_dag_add(dag, &c), id = kernel_dag_add(dag, &d);
    kernel_dag_after(dag, ib, ia);
    kernel_dag_after(dag, ic, ia);
    kernel_dag_after(dag, id, ib);
    kernel_dag_after(dag, id, ic);
    machine m = test_machine(8, 1);
    sim_result r = simulate(dag, &m);
    cr_expect_eq(r.costs.K, 8);
    cr_expect_eq(r.costs.S, 1 + 7 + 2);
    cr_expect_eq(r.costs.L_kernels, 3);
    cr_expect_eq(r.T, 1 + 7 + 2, "8 SMs run b and c together");
    sim_result_free(&r);
    kernel_dag_free(dag);
}

Test(engine, width_is_an_antichain_not_a_level)
{
    /* a(5) -> b(1); c(3) independent of both: the largest anti-chain is
     * {a, c} = 8, not {b, c} = 4. */
    kernel_dag *dag = kernel_dag_new("w");
    kernel a = test_kernel("a", 5, 4, 1, 0, 0), b = test_kernel("b", 1, 4, 1, 0, 0);
    kernel c = test_kernel("c", 3, 4, 1, 0, 0);
    kernel_dag_add(dag, &a);
    kernel_dag_chain(dag, &b);
    kernel_dag_add(dag, &c);
    int order[3];
    machine m = test_machine(2, 1);
    cr_assert_eq(kernel_dag_check(dag, &m, order), 0);
    cr_expect_eq(kernel_dag_width(dag, order), 8);
    kernel_dag_free(dag);
}

Test(engine, launch_latency_delays_each_kernel)
{
    kernel_dag *dag = kernel_dag_new("launch");
    kernel a = test_kernel("a", 8, 32, 10, 0, 0), b = test_kernel("b", 8, 32, 10, 0, 0);
    kernel_dag_chain(dag, &a);
    kernel_dag_chain(dag, &b);
    machine m = test_machine(8, 1);
    m.launch_latency = 5;
    sim_result r = simulate(dag, &m);
    cr_expect_eq(r.kernels[0].start, 5);
    cr_expect_eq(r.kernels[1].start, 20);
    cr_expect_eq(r.T, 30);
    cr_expect_eq(r.launch_term, 10);
    sim_result_free(&r);
    kernel_dag_free(dag);
}

static kernel_dag *two_readers(void)
{
    /* 2 blocks, each thread reads 1 word coalesced (10 cycles at U = 10),
     * no compute, no writes. */
    kernel_dag *dag = kernel_dag_new("readers");
    kernel k = test_kernel("read", 2, 32, 0, 1, 0);
    kernel_dag_add(dag, &k);
    return dag;
}

Test(engine, exclusive_serialises_transfers)
{
    kernel_dag *dag = two_readers();
    machine m = test_machine(2, 10);
    sim_result par = simulate(dag, &m);
    cr_expect_eq(par.T, 10, "parallel: both SMs read at once");
    m.policy = MEM_EXCLUSIVE;
    sim_result ex = simulate(dag, &m);
    cr_expect_eq(ex.T, 20, "exclusive: two blocks reading at once take twice the read time");
    sim_result_free(&par);
    sim_result_free(&ex);
    kernel_dag_free(dag);
}

Test(engine, exclusive_is_reproducible_for_a_seed)
{
    /* 24 blocks that each read, compute and write on 4 SMs: the order in
     * which the memory serves them depends on the seed, and only on it. */
    kernel_dag *dag = kernel_dag_new("ex");
    kernel k = test_kernel("k", 24, 32, 7, 2, 1);
    kernel_dag_add(dag, &k);
    machine m = test_machine(4, 3);
    m.policy = MEM_EXCLUSIVE;
    char *traces[3];
    double T[3];
    uint64_t seeds[3] = {11, 11, 12};
    for (int i = 0; i < 3; i++) {
        char *path = temp_file("", ".csv");
        sim_result r;
        m.seed = seeds[i];
        cr_assert_eq(sim_run(dag, &m, path, &r), 0, "%s", fail_message());
        T[i] = r.T;
        traces[i] = read_file(path, NULL);
        /* memory busy 24·(6+3) = 216 cycles at least: it serves one at a time */
        cr_expect_geq(r.T, 24 * 9);
        sim_result_free(&r);
        unlink(path);
        free(path);
    }
    cr_expect_eq(T[0], T[1]);
    cr_expect_str_eq(traces[0], traces[1], "same seed, same schedule");
    for (int i = 0; i < 3; i++)
        free(traces[i]);
    kernel_dag_free(dag);
}

Test(engine, shared_with_default_bandwidth_equals_parallel)
{
    kernel_dag *dag = kernel_dag_new("s");
    kernel a = test_kernel("a", 37, 16, 5, 3, 2), b = test_kernel("b", 11, 16, 9, 1, 1);
    kernel_dag_chain(dag, &a);
    kernel_dag_chain(dag, &b);
    machine m = test_machine(6, 4);
    sim_result par = simulate(dag, &m);
    m.policy = MEM_SHARED;
    sim_result sh = simulate(dag, &m);
    cr_expect_float_eq(sh.T, par.T, 1e-9 * par.T);
    sim_result_free(&par);
    sim_result_free(&sh);
    kernel_dag_free(dag);
}

Test(engine, shared_channel_of_one_sm_halves_two_readers)
{
    /* bandwidth 1/U: the channel carries one SM's worth; two blocks reading
     * together each get half of it and finish after twice the read time. */
    kernel_dag *dag = two_readers();
    machine m = test_machine(2, 10);
    m.policy = MEM_SHARED;
    m.bandwidth = 0.1;
    sim_result r = simulate(dag, &m);
    cr_expect_float_eq(r.T, 20, 1e-9);
    sim_result_free(&r);
    kernel_dag_free(dag);
}

Test(engine, random_order_is_seeded_and_greedy)
{
    kernel_dag *dag = kernel_dag_new("r");
    kernel a = test_kernel("a", 50, 8, 3, 0, 0), b = test_kernel("b", 30, 8, 20, 0, 0);
    kernel_dag_add(dag, &a);
    kernel_dag_add(dag, &b);
    machine m = test_machine(4, 1);
    m.order = ORDER_RANDOM;
    m.seed = 5;
    sim_result r1 = simulate(dag, &m), r2 = simulate(dag, &m);
    cr_expect_eq(r1.T, r2.T);
    cr_expect_eq(r1.kernels[1].start, r2.kernels[1].start);
    cr_expect_leq(r1.T, r1.bound_theorem1);
    cr_expect_eq(r1.costs.N, 80);
    sim_result_free(&r1);
    sim_result_free(&r2);
    kernel_dag_free(dag);
}

Test(engine, trace_has_one_row_per_block)
{
    kernel_dag *dag = kernel_dag_new("t");
    kernel a = test_kernel("a", 20, 8, 3, 1, 1);
    kernel_dag_add(dag, &a);
    machine m = test_machine(3, 2);
    char *path = temp_file("", ".csv");
    sim_result r;
    cr_assert_eq(sim_run(dag, &m, path, &r), 0, "%s", fail_message());
    FILE *f = fopen(path, "r");
    char line[256];
    cr_assert(fgets(line, sizeof line, f));
    cr_expect_str_eq(line, "kernel,block,sm,start,end,read_end,write_start\n");
    int rows = 0, seen[20] = {0};
    char name[32];
    long block;
    int sm;
    double start, end, read_end, write_start;
    while (fscanf(f, "%31[^,],%ld,%d,%lf,%lf,%lf,%lf\n", name, &block, &sm, &start, &end, &read_end,
                  &write_start) == 7) {
        rows++;
        cr_expect_eq(end - start, 3 + 2 * 2, "each block takes S(B) + O(B)");
        cr_expect_eq(read_end - start, 2, "reads: 1 word at U = 2");
        cr_expect_eq(write_start - read_end, 3, "then S(B) = 3, then the write");
        cr_expect(sm >= 0 && sm < 3);
        cr_assert(block >= 0 && block < 20);
        seen[block]++;
    }
    fclose(f);
    cr_expect_eq(rows, 20);
    for (int i = 0; i < 20; i++)
        cr_expect_eq(seen[i], 1, "block %d traced once", i);
    unlink(path);
    free(path);
    sim_result_free(&r);
    kernel_dag_free(dag);
}

Test(engine, block_dispatch_lengthens_every_block)
{
    /* 100 blocks of cost 10 on 8 SMs, each SM spending 2 cycles to take a
     * block: 13 rounds of 12 cycles */
    kernel_dag *dag = kernel_dag_new("dispatch");
    kernel k = test_kernel("k", 100, 32, 10, 0, 0);
    kernel_dag_add(dag, &k);
    machine m = test_machine(8, 1);
    m.block_dispatch = 2;
    sim_result r = simulate(dag, &m);
    cr_expect_eq(r.T, 13 * 12);
    cr_expect_eq(r.costs.C, 10, "C stays the model's S(B) + O(B)");
    m.policy = MEM_SHARED;
    sim_result s = simulate(dag, &m);
    cr_expect_eq(s.T, 13 * 12, "the same under `shared` at the default bandwidth");
    sim_result_free(&r);
    sim_result_free(&s);
    kernel_dag_free(dag);
}
