/*
 * test_waves.c — the block scheduler's waves (sim/engine/engine.c) against block
 * by block: the same T, kernel starts and ends, SM busy times, W, O, N, C
 * and trace rows, bit for bit, on hand-checked DAGs, on the case studies
 * and on hundreds of seeded random DAGs; and the tie rule both follow
 * (blocks that end at one instant: the lower SM takes first).
 */
#include "helpers.h"
#include "rng.h"

#include <math.h>

typedef struct mode_run {
    sim_result r;
    char *trace; /* the --trace file, whole; NULL when not asked */
    long trace_len;
} mode_run;

/* Simulate with waves (block_by_block 0) or without, with a trace or not. */
static mode_run run_in_mode(const kernel_dag *dag, const machine *m, int block_by_block, int traced)
{
    machine mode = *m;
    mode.block_by_block = block_by_block;
    mode_run x = {.trace = NULL};
    if (traced)
        x.r = simulate_traced(dag, &mode, &x.trace, &x.trace_len);
    else
        x.r = simulate(dag, &mode);
    return x;
}

static void expect_same_result(const sim_result *a, const sim_result *b, const char *what, const char *how)
{
    cr_expect_eq(a->T, b->T, "%s %s: T %.17g block by block, %.17g", what, how, a->T, b->T);
    cr_expect_eq(a->costs.W, b->costs.W, "%s %s: W", what, how);
    cr_expect_eq(a->costs.O, b->costs.O, "%s %s: O", what, how);
    cr_expect_eq(a->costs.N, b->costs.N, "%s %s: N", what, how);
    cr_expect_eq(a->costs.C, b->costs.C, "%s %s: C", what, how);
    cr_expect_eq(a->utilization, b->utilization, "%s %s: utilisation", what, how);
    for (int k = 0; k < a->n_kernels; k++) {
        cr_expect_eq(a->kernels[k].start, b->kernels[k].start, "%s %s: kernel %d's start", what, how, k);
        cr_expect_eq(a->kernels[k].end, b->kernels[k].end, "%s %s: kernel %d's end", what, how, k);
    }
    for (int i = 0; i < a->p; i++)
        cr_expect_eq(a->sm_busy[i], b->sm_busy[i], "%s %s: SM %d busy %.17g, %.17g", what, how, i, a->sm_busy[i],
                     b->sm_busy[i]);
}

/* Block by block, in waves with a trace and in waves without: the same
 * figures, and the same trace.  Returns the blocks the waves covered. */
static double same_in_both_modes(const kernel_dag *dag, const machine *m, const char *what)
{
    mode_run one = run_in_mode(dag, m, 1, 1), waves = run_in_mode(dag, m, 0, 1), untraced = run_in_mode(dag, m, 0, 0);
    cr_expect_eq(one.r.wave_blocks, 0, "%s: --block-by-block made waves", what);
    cr_expect_eq(waves.r.wave_blocks, untraced.r.wave_blocks, "%s: a trace changed the waves", what);
    expect_same_result(&one.r, &waves.r, what, "in waves, traced");
    expect_same_result(&one.r, &untraced.r, what, "in waves");
    cr_expect(one.trace_len == waves.trace_len && memcmp(one.trace, waves.trace, (size_t)one.trace_len) == 0,
              "%s: the traces differ (%ld and %ld bytes)", what, one.trace_len, waves.trace_len);
    double covered = waves.r.wave_blocks;
    free(one.trace);
    free(waves.trace);
    sim_result_free(&one.r);
    sim_result_free(&waves.r);
    sim_result_free(&untraced.r);
    return covered;
}

/* ---- hand-checked ------------------------------------------------------- */

Test(waves, ties_go_to_the_lower_sm)
{
    /* 10 blocks of 10 cycles on 4 SMs: rounds at 0, 10, 20; the last round
     * has 2 blocks, and SMs 0 and 1 take them: busy 30, 30, 20, 20. */
    kernel_dag *dag = kernel_dag_new("ties");
    kernel k = test_kernel("k", 10, 32, 10, 0, 0);
    kernel_dag_add(dag, &k);
    machine m = test_machine(4, 1);
    for (int block_by_block = 0; block_by_block <= 1; block_by_block++) {
        mode_run x = run_in_mode(dag, &m, block_by_block, 1);
        cr_expect_eq(x.r.T, 30);
        double busy[4] = {30, 30, 20, 20};
        for (int i = 0; i < 4; i++)
            cr_expect_eq(x.r.sm_busy[i], busy[i], "SM %d", i);
        cr_expect(strstr(x.trace, "\nk,8,0,20,30,20,30\nk,9,1,20,30,20,30\n") != NULL, "%s", x.trace);
        cr_expect(strstr(x.trace, "\nk,4,0,10,20,10,20\nk,5,1,10,20,10,20\nk,6,2,10,20,10,20\n") != NULL, "%s",
                  x.trace);
        cr_expect_eq(x.r.wave_blocks, block_by_block ? 0 : 4, "the wave: one round of 4 blocks");
        free(x.trace);
        sim_result_free(&x.r);
    }
    kernel_dag_free(dag);
}

Test(waves, sms_that_join_late_keep_their_phase)
{
    /* a: 3 blocks of 7; b: 100 blocks of 10, independent, on 4 SMs.  SMs 0-2
     * take a, SM 3 takes b's first block at 0; at 7 the others join b.  Then
     * b's 96 blocks left go 4 to a round: SM 3 runs 25 of them by 250, the
     * others 24 more after their first, by 7 + 250 = 257. */
    kernel_dag *dag = kernel_dag_new("late");
    kernel a = test_kernel("a", 3, 32, 7, 0, 0), b = test_kernel("b", 100, 32, 10, 0, 0);
    kernel_dag_add(dag, &a);
    kernel_dag_add(dag, &b);
    machine m = test_machine(4, 1);
    double covered = same_in_both_modes(dag, &m, "late");
    sim_result r = simulate(dag, &m);
    cr_expect_eq(r.T, 257);
    cr_expect_eq(r.sm_busy[3], 250);
    cr_expect_eq(r.sm_busy[0], 257);
    cr_expect_eq(covered, 96, "one wave of 24 rounds");
    sim_result_free(&r);
    kernel_dag_free(dag);
}

Test(waves, launches_and_dispatch_inside_a_wave)
{
    /* A chain of three kernels with a launch latency and a dispatch time,
     * and a kernel released during the first one's wave. */
    kernel_dag *dag = kernel_dag_new("launch");
    kernel a = test_kernel("a", 1000, 64, 12, 2, 1), b = test_kernel("b", 333, 64, 5, 1, 1),
           c = test_kernel("c", 50, 64, 3, 0, 1), side = test_kernel("side", 7, 64, 40, 1, 0);
    kernel_dag_chain(dag, &a);
    kernel_dag_chain(dag, &b);
    kernel_dag_chain(dag, &c);
    kernel_dag_add(dag, &side);
    machine m = test_machine(6, 3);
    m.launch_latency = 250;
    m.block_dispatch = 4;
    cr_expect_gt(same_in_both_modes(dag, &m, "launch"), 0, "no wave was made");
    m.launch = LAUNCH_GRAPH;
    m.graph_launch_latency = 17;
    m.graph_start_latency = 900;
    cr_expect_gt(same_in_both_modes(dag, &m, "graph"), 0, "no wave was made");
    kernel_dag_free(dag);
}

Test(waves, none_where_times_are_not_whole_cycles)
{
    /* U = 0.3: a block of 10 + 3·0.3 cycles; sums of such are not exact,
     * so no wave, and the figures are those block by block. */
    kernel_dag *dag = kernel_dag_new("fraction");
    kernel k = test_kernel("k", 500, 32, 10, 1, 0);
    kernel_dag_add(dag, &k);
    machine m = test_machine(8, 0.3);
    cr_expect_eq(same_in_both_modes(dag, &m, "fraction"), 0);
    m.u = 0.5; /* 10 + 32·0.5/32... whole or not, both modes agree */
    same_in_both_modes(dag, &m, "half");
    kernel_dag_free(dag);
}

/* ---- the case studies --------------------------------------------------- */

Test(waves, case_studies_on_the_papers_machines)
{
    static const struct {
        const char *program, *names, *preset;
        double values[4]; /* every param the program reads */
        int n;
    } cases[] = {
        {"sum", "n l", "mcm", {1 << 16, 256}, 2},
        {"sum", "n l", "h100", {1 << 16, 256}, 2},
        {"prefix-optimal", "n l", "tesla-c2050", {1 << 16, 256}, 2},
        {"plain-mult", "n m l s", "mcm", {4096, 4096, 256, 4}, 4},
        {"plain-mult", "n m l s", "gtx670", {2048, 1024, 256, 8}, 4},
        {"stockham", "n l", "mcm", {1 << 14, 128}, 2},
        {"radix-sort", "n c s l", "mcm", {1 << 14, 32, 8, 256}, 4},
        {"euclid", "n m s l", "gtx670", {4096, 0, 256, 256}, 4},
    };
    double covered = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        machine m = test_preset(cases[i].preset);
        kernel_dag *dag = build_builtin(cases[i].program,
                                        test_params_of(cases[i].names, cases[i].values, (size_t)cases[i].n), &m);
        char what[128];
        snprintf(what, sizeof what, "%s on %s", cases[i].program, cases[i].preset);
        covered += same_in_both_modes(dag, &m, what);
        kernel_dag_free(dag);
    }
    cr_expect_gt(covered, 0, "no case study made a wave");
    cr_log_info("case studies: %.0f blocks in waves", covered);
}

/* ---- seeded random DAGs ------------------------------------------------- */

static kernel_dag *random_dag(rng *g)
{
    int n = 1 + (int)rng_below(g, 10);
    kernel_dag *dag = kernel_dag_new("random");
    for (int i = 0; i < n; i++) {
        char name[16];
        snprintf(name, sizeof name, "k%d", i);
        kernel k = test_kernel(name, 1 + (long)rng_below(g, 400), 32 * (1 + (int)rng_below(g, 4)),
                               (double)rng_below(g, 30), (double)rng_below(g, 3), (double)rng_below(g, 3));
        if (rng_below(g, 5) == 0) { /* blocks of different costs, as exec mode makes */
            for (long b = 0; b < k.blocks; b++) {
                block_cost c = k.cost;
                c.span = (double)rng_below(g, 30);
                c.work = k.threads * c.span;
                kernel_append_costs(&k, b, &c);
            }
        }
        cr_assert_eq(kernel_dag_add(dag, &k), i, "%s", fail_message());
        for (int j = 0; j < i; j++)
            if (rng_below(g, 3) == 0)
                kernel_dag_after(dag, i, j);
    }
    return dag;
}

Test(waves, three_hundred_random_dags, .timeout = 300)
{
    rng g;
    rng_seed(&g, 20261125);
    double covered = 0;
    for (int trial = 0; trial < 300; trial++) {
        kernel_dag *dag = random_dag(&g);
        machine m = test_machine(1 + (int)rng_below(&g, 16), 1 + (double)rng_below(&g, 4));
        if (rng_below(&g, 3) == 0)
            m.launch_latency = (double)rng_below(&g, 200);
        if (rng_below(&g, 3) == 0)
            m.block_dispatch = (double)rng_below(&g, 5);
        if (rng_below(&g, 8) == 0)
            m.u = 0.25 * (1 + (double)rng_below(&g, 8)); /* some times not whole */
        m.order = trial % 5 == 4 ? ORDER_RANDOM : ORDER_FIFO;
        m.seed = trial;
        char what[64];
        snprintf(what, sizeof what, "random DAG %d", trial);
        covered += same_in_both_modes(dag, &m, what);
        kernel_dag_free(dag);
    }
    cr_expect_gt(covered, 0, "no random DAG made a wave");
    cr_log_info("300 random DAGs: %.0f blocks in waves", covered);
}
