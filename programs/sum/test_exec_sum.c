/*
 * test_exec_sum.c — the sum by halving in exec mode (its kernels written
 * once, kernels.c): its result against the serial sum, its measured
 * per-block costs against the model's declared ones (model.c; equal where
 * the model is exact, the documented difference elsewhere), and its
 * simulated time.
 *
 * The measured transfers are checked against an independent count of the
 * UMM rule (SPEC §3): for each round of accesses, the threads i in
 * [lo, hi) of the grid touch cell stride·i + offset, and a warp pays one
 * transaction per distinct address group ⌊cell/w⌋ it touches; a block's
 * transfer is Σ transactions · min(w, ℓ)/ℓ words per thread (sim/exec/exec.h),
 * so a fully coalesced round costs 1, as in the paper.  Every cost is a
 * multiple of 1/8 at ℓ <= 256, w = 32: the comparisons are exact.
 */
#include "helpers.h"
#include "program.h"

#include <limits.h>
#include <math.h>

/* ---- running the program ------------------------------------------------ */

static exec_result run_sum(double n, double l, uint64_t seed, machine *m)
{
    m->seed = seed;
    return run_case_exec("sum", test_params("n l", n, l), m);
}

static long min_long(long a, long b) { return a < b ? a : b; }

/* What kernel add[j] of the exec program must measure, block by block,
 * with L numbers left: ⌊L/2⌋ adders at distance ⌈L/2⌉. */
static void expect_halving_block(const kernel *k, long b, long left, const machine *m)
{
    int l = k->threads, w = m->warp;
    long pairs = left / 2, half = (left + 1) / 2;
    long adders = min_long(pairs, (b + 1) * l) - b * l;
    adders = adders > 0 ? adders : 0;
    round_pattern reads[] = {{0, pairs, 1, 0}, {0, pairs, 1, half}}, writes[] = {{0, pairs, 1, 0}};
    const block_cost *c = kernel_block_cost(k, b);
    cr_expect_eq(c->span, adders > 0 ? 1 : 0, "%s block %ld: S(B) %g", k->name, b, c->span);
    cr_expect_eq(c->work, (double)adders, "%s block %ld: W(B) %g, %ld adders", k->name, b, c->work, adders);
    cr_expect_eq(c->reads, block_words(reads, 2, b, l, w), "%s block %ld: reads %g", k->name, b, c->reads);
    cr_expect_eq(c->writes, block_words(writes, 1, b, l, w), "%s block %ld: writes %g", k->name, b, c->writes);
    cr_expect_eq(c->uncoalesced_reads + c->uncoalesced_writes, 0);
}

/* ---- (a) the result ------------------------------------------------------ */

Test(exec_sum, equals_the_serial_sum_on_random_inputs)
{
    /* powers of two and not, odd counts (a number passing through), n < ℓ;
     * the host returns -1 with a message naming the difference otherwise */
    const double sizes[] = {2, 3, 7, 31, 100, 257, 1000, 4096, 5000, 65539};
    const double threads[] = {32, 64, 256};
    machine m = test_preset("mcm");
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
        for (size_t j = 0; j < sizeof threads / sizeof *threads; j++)
            for (uint64_t seed = 1; seed <= 3; seed++)
            {
                exec_result r = run_sum(sizes[i], threads[j], seed, &m);
                exec_result_free(&r);
            }
}

/* ---- (b) measured costs against the model ------------------------------- */

Test(exec_sum, powers_of_two_equal_the_model_but_in_blocks_of_few_warps)
{
    /* n = 2^16, ℓ = 256, w = 32: kernel add[j] has 2^t threads, t = 15 − j.
     * S(B) = 1, W(B) = min(2^t, ℓ), α = 2, β = 1: equal to model.c in every
     * block.  O(B) = 3U when 2^t >= ℓ (full, aligned blocks); in the last
     * log ℓ kernels (one block of 2^t < ℓ threads) only ⌈2^t/w⌉ warps move
     * words: 3U·⌈2^t/w⌉·w/ℓ, where model.c charges the block 3U. */
    machine m = test_preset("mcm");
    double n = 1 << 16, l = 256, U = m.u, w = m.warp;
    exec_result run = run_sum(n, l, 7, &m);
    kernel_dag *model = build_builtin("sum", test_params("n l", n, l), &m);
    const kernel_dag *dag = run.dag;
    expect_same_kernels(dag, model);
    const exec_kernel_report *rep = run.reports;
    for (int j = 0; j < dag->n; j++) {
        const kernel *k = &dag->kernels[j], *declared = &model->kernels[j];
        double active = exp2(15 - j);
        cr_expect_eq(rep[j].alpha, declared->cost.reads, "%s: α", k->name);
        cr_expect_eq(rep[j].beta, declared->cost.writes, "%s: β", k->name);
        for (long b = 0; b < k->blocks; b++) {
            const block_cost *c = kernel_block_cost(k, b);
            cr_expect_eq(c->span, declared->cost.span, "%s block %ld: S", k->name, b);
            cr_expect_eq(c->work, declared->cost.work, "%s block %ld: W", k->name, b);
            double measured_o = U * (c->reads + c->writes), declared_o = block_overhead(declared, U);
            if (active >= l)
                cr_expect_eq(measured_o, declared_o, "%s block %ld: O(B)", k->name, b);
            else
                cr_expect_eq(measured_o, 3 * U * ceil(active / w) * w / l, "%s: O(B) %g, declared %g",
                             k->name, measured_o, declared_o);
        }
    }
    kernel_dag_free(model);
    exec_result_free(&run);
}

Test(exec_sum, any_n_measures_its_own_adders_and_address_groups)
{
    /* n not a power of two: model.c spreads a kernel's ⌊L/2⌋ additions evenly
     * over its blocks and charges every block S = 1, 3U; each block measures
     * its own adders, and the reads of a[i + ⌈L/2⌉] straddle two address
     * groups per warp when w ∤ ⌈L/2⌉ (up to 4U).  Kernel totals of W are
     * equal. */
    const double points[][2] = {{1000, 256}, {5000, 64}, {777, 32}, {513, 256}, {100, 16}};
    machine m = test_preset("mcm");
    for (size_t p = 0; p < sizeof points / sizeof *points; p++) {
        double n = points[p][0], l = points[p][1];
        exec_result run = run_sum(n, l, 3, &m);
        kernel_dag *model = build_builtin("sum", test_params("n l", n, l), &m);
        const kernel_dag *dag = run.dag;
        expect_same_kernels(dag, model);
        long left = (long)n;
        for (int j = 0; j < dag->n; j++, left = (left + 1) / 2) {
            const kernel *k = &dag->kernels[j];
            double total = 0;
            for (long b = 0; b < k->blocks; b++) {
                expect_halving_block(k, b, left, &m);
                total += kernel_block_cost(k, b)->work;
            }
            cr_expect_eq(total, model->kernels[j].cost.work * (double)model->kernels[j].blocks,
                         "n = %g, %s: kernel W", n, k->name);
        }
        kernel_dag_free(model);
        exec_result_free(&run);
    }
}

Test(exec_sum, a_block_holding_only_the_number_passing_through_costs_nothing)
{
    /* n = 513, ℓ = 256: add[0] has ⌈513/2⌉ = 257 threads in 2 blocks, and
     * block 1's one thread (i = 256 = ⌊513/2⌋) is the odd number out: it
     * measures S = W = 0 and no transfer; model.c declares S = 1, W = 128,
     * 3U for it. */
    machine m = test_preset("mcm");
    exec_result run = run_sum(513, 256, 5, &m);
    kernel_dag *model = build_builtin("sum", test_params("n l", 513, 256), &m);
    const kernel *k = &run.dag->kernels[0];
    cr_assert_eq(k->blocks, 2);
    const block_cost *c = kernel_block_cost(k, 1);
    cr_expect_eq(c->span, 0);
    cr_expect_eq(c->work, 0);
    cr_expect_eq(c->reads + c->writes, 0);
    cr_expect_eq(model->kernels[0].cost.span, 1);
    cr_expect_eq(model->kernels[0].cost.work, 128);
    cr_expect_eq(block_overhead(&model->kernels[0], m.u), 3 * m.u);
    kernel_dag_free(model);
    exec_result_free(&run);
}

/* ---- (c) simulated time ---------------------------------------------------- */

Test(exec_sum, with_l_at_most_w_every_cost_and_the_time_equal_the_model)
{
    /* ℓ = w = 32: a block is one warp, so even a block of 2^t < ℓ threads
     * makes one transaction per round (cells 0 .. 2^(t+1) − 1 lie in one
     * group): O(B) = 3U everywhere, and the simulated T, W, O equal model.c's. */
    machine m = test_preset("mcm");
    for (double n = 2; n <= 1 << 14; n *= 8) {
        exec_result run = run_sum(n, 32, 11, &m);
        kernel_dag *model = build_builtin("sum", test_params("n l", n, 32), &m);
        const kernel_dag *dag = run.dag;
        expect_same_kernels(dag, model);
        for (int j = 0; j < dag->n; j++)
            for (long b = 0; b < dag->kernels[j].blocks; b++) {
                const block_cost *c = kernel_block_cost(&dag->kernels[j], b);
                const kernel *declared = &model->kernels[j];
                cr_expect_eq(c->span, declared->cost.span);
                cr_expect_eq(c->work, declared->cost.work);
                cr_expect_eq(m.u * (c->reads + c->writes), block_overhead(declared, m.u), "n = %g, %s", n,
                             declared->name);
            }
        sim_result re = simulate(dag, &m), rm = simulate(model, &m);
        cr_expect_eq(re.T, rm.T, "n = %g: T exec %g, model %g", n, re.T, rm.T);
        cr_expect_eq(re.costs.W, rm.costs.W);
        cr_expect_eq(re.costs.O, rm.costs.O);
        cr_expect_leq(re.T, re.bound_theorem1);
        sim_result_free(&re);
        sim_result_free(&rm);
        kernel_dag_free(model);
        exec_result_free(&run);
    }
}

Test(exec_sum, with_l_256_the_time_is_the_model_time_less_the_idle_warps)
{
    /* n = 2^16, ℓ = 256 on P = 16: a chain of kernels whose blocks all cost
     * alike, so T = Σ ⌈blocks/P⌉·(S(B) + O(B)), and T_model − T_exec is
     * what the last log ℓ one-block kernels do not move:
     * Σ_{t < log ℓ} 3U(1 − ⌈2^t/w⌉·w/ℓ). */
    machine m = test_preset("mcm");
    double n = 1 << 16, l = 256, U = m.u, w = m.warp, saved = 0;
    for (int t = 0; exp2(t) < l; t++)
        saved += 3 * U * (1 - ceil(exp2(t) / w) * w / l);
    exec_result run = run_sum(n, l, 13, &m);
    kernel_dag *model = build_builtin("sum", test_params("n l", n, l), &m);
    sim_result re = simulate(run.dag, &m), rm = simulate(model, &m);
    cr_expect_eq(rm.T - re.T, saved, "T exec %g, model %g, expected saving %g", re.T, rm.T, saved);
    cr_expect_leq(re.T, re.bound_theorem1, "Theorem 1: T %g, bound %g", re.T, re.bound_theorem1);
    cr_expect_eq(re.costs.W, n - 1, "n − 1 additions");
    cr_log_info("sum n = 2^16, l = 256: T exec %g, model %g, Theorem 1 %g", re.T, rm.T, re.bound_theorem1);
    sim_result_free(&re);
    sim_result_free(&rm);
    kernel_dag_free(model);
    exec_result_free(&run);
}

Test(exec_sum, simulated_time_within_theorem_1_for_any_n)
{
    machine m = test_preset("mcm");
    const double points[][2] = {{1000, 256}, {5000, 64}, {65539, 128}};
    for (size_t p = 0; p < sizeof points / sizeof *points; p++) {
        exec_result run = run_sum(points[p][0], points[p][1], 17, &m);
        sim_result r = simulate(run.dag, &m);
        cr_expect_leq(r.T, r.bound_theorem1, "n = %g: T %g, Theorem 1 %g", points[p][0], r.T, r.bound_theorem1);
        cr_expect_eq(r.costs.W, points[p][0] - 1, "n − 1 additions");
        sim_result_free(&r);
        exec_result_free(&run);
    }
}

/* ---- (d) what the kernels refuse ------------------------------------------ */

Test(exec_sum, refuses_fewer_than_two_numbers)
{
    /* The model's Z constraint, 3ℓ <= Z, is the model's own (a thread
     * holding its α + β words in private memory); the kernels hold them in
     * registers and declare no private memory, so exec mode has no Z rule
     * to apply here. */
    machine m = test_preset("mcm");
    const char *why = case_exec_refuses("sum", test_params("n l", 1, 256), &m);
    cr_assert_not_null(why, "n = 1 was accepted");
    cr_expect(strstr(why, "needs n >= 2") != NULL, "%s", why);
}
