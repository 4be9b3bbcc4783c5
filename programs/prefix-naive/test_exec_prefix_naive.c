/*
 * test_exec_prefix_naive.c — the naive (Hillis–Steele) prefix sums in exec
 * mode (its kernels written once, kernels.c): the results against the
 * serial scan, the measured per-block costs against the model's declared
 * ones (model.c; equal where the model is exact, the documented difference
 * elsewhere), the simulated time, and why the kernels work out of place.
 *
 * The measured transfers are checked against an independent count of the
 * UMM rule (SPEC §3): for each round of accesses, the threads i in
 * [lo, hi) of the grid touch cell stride·i + offset of one array, and a
 * warp pays one transaction per distinct address group ⌊cell/w⌋; a block's
 * transfer is Σ transactions · min(w, ℓ)/ℓ words per thread (sim/exec/exec.h).
 * All costs are multiples of 1/8 at ℓ <= 256, w = 32: comparisons are
 * exact.
 */
#include "helpers.h"
#include "program.h"

#include <math.h>

/* ---- running the program ------------------------------------------------ */

static exec_result run_naive(double n, double l, uint64_t seed, machine *m)
{
    m->seed = seed;
    return run_case_exec("prefix-naive", test_params("n l", n, l), m);
}

/* Kernel step[t] (d = 2^t), n threads: read round 0 is in[i] (all i < n),
 * read round 1 in[i − d] (i >= d), the write out[i] (all); the adders are
 * the threads i >= d.  What block b must measure. */
static void expect_step_block(const kernel *k, long b, long n, long d, int w)
{
    int l = k->threads;
    round_pattern reads[] = {{0, n, 1, 0}, {d, n, 1, -d}}, writes[] = {{0, n, 1, 0}};
    long adders = block_threads_in(b, l, d, n);
    const block_cost *c = kernel_block_cost(k, b);
    cr_expect_eq(c->span, adders > 0 ? 1 : 0, "%s block %ld: S(B) %g", k->name, b, c->span);
    cr_expect_eq(c->work, (double)adders, "%s block %ld: W(B) %g, %ld adders", k->name, b, c->work, adders);
    cr_expect_eq(c->reads, block_words(reads, 2, b, l, w), "%s block %ld: reads %g, expected %g", k->name, b,
                 c->reads, block_words(reads, 2, b, l, w));
    cr_expect_eq(c->writes, block_words(writes, 1, b, l, w), "%s block %ld: writes %g", k->name, b, c->writes);
    cr_expect_eq(c->uncoalesced_reads + c->uncoalesced_writes, 0);
}

/* ---- (a) the result ------------------------------------------------------ */

Test(exec_prefix_naive, equals_the_serial_scan_on_random_inputs)
{
    /* powers of two and not, n < ℓ, a last partial block; the check
     * returns -1 naming the first wrong element otherwise */
    const double sizes[] = {2, 3, 5, 33, 100, 256, 1000, 4096, 5000};
    const double threads[] = {32, 64, 256};
    machine m = test_preset("mcm");
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
        for (size_t j = 0; j < sizeof threads / sizeof *threads; j++)
            for (uint64_t seed = 1; seed <= 3; seed++) {
                exec_result r = run_naive(sizes[i], threads[j], seed, &m);
                exec_result_free(&r);
            }
}

/* ---- (b) measured costs against the model ------------------------------- */

Test(exec_prefix_naive, measures_its_adders_and_address_groups)
{
    /* model.c charges every block S = 1, 3U and spreads the n − 2^t
     * additions evenly; measured: blocks of copies only (i < 2^t) have
     * S = W = 0 and move 2 words per thread, reads of in[i − 2^t] straddle
     * two groups per warp when w ∤ 2^t, and blocks across 2^t or past n
     * have fewer active warps.  Kernel totals of W and α = 2, β = 1 are
     * equal. */
    const double points[][2] = {{1 << 12, 256}, {1000, 256}, {5000, 64}, {777, 32}, {100, 16}};
    machine m = test_preset("mcm");
    for (size_t p = 0; p < sizeof points / sizeof *points; p++) {
        double n = points[p][0], l = points[p][1];
        exec_result run = run_naive(n, l, 3, &m);
        kernel_dag *model = build_builtin("prefix-naive", test_params("n l", n, l), &m);
        const kernel_dag *dag = run.dag;
        expect_same_kernels(dag, model);
        for (int t = 0; t < dag->n; t++) {
            const kernel *k = &dag->kernels[t], *declared = &model->kernels[t];
            double total = 0;
            for (long b = 0; b < k->blocks; b++) {
                expect_step_block(k, b, (long)n, 1L << t, m.warp);
                total += kernel_block_cost(k, b)->work;
            }
            cr_expect_eq(total, declared->cost.work * (double)declared->blocks, "n = %g, %s: W", n,
                         declared->name);
            cr_expect_eq(run.reports[t].alpha, declared->cost.reads, "%s: α", declared->name);
            cr_expect_eq(run.reports[t].beta, declared->cost.writes, "%s: β", declared->name);
        }
        kernel_dag_free(model);
        exec_result_free(&run);
    }
}

Test(exec_prefix_naive, full_blocks_cost_3u_aligned_4u_unaligned_2u_copying)
{
    /* The three full-block cases named in kernels.c, at n = 2^12, ℓ = 256,
     * w = 32: step 8 (2^t = ℓ): block 0 copies only (S = 0, 2U), blocks
     * 1.. add with aligned reads (S = 1, 3U, the model's cost); step 2
     * (2^t = 4, w ∤ 4): every block but the first pays 2 groups per warp
     * for in[i − 4]: 4U. */
    machine m = test_preset("mcm");
    double U = m.u;
    exec_result run = run_naive(1 << 12, 256, 9, &m);
    kernel_dag *model = build_builtin("prefix-naive", test_params("n l", 1 << 12, 256), &m);
    const kernel *step8 = &run.dag->kernels[8], *step2 = &run.dag->kernels[2];
    const block_cost *copying = kernel_block_cost(step8, 0), *aligned = kernel_block_cost(step8, 5),
                     *unaligned = kernel_block_cost(step2, 5);
    cr_expect_eq(block_overhead(&model->kernels[8], U), 3 * U, "declared");
    cr_expect_eq(copying->span, 0);
    cr_expect_eq(U * (copying->reads + copying->writes), 2 * U);
    cr_expect_eq(aligned->span, 1);
    cr_expect_eq(U * (aligned->reads + aligned->writes), 3 * U);
    cr_expect_eq(U * (unaligned->reads + unaligned->writes), 4 * U);
    kernel_dag_free(model);
    exec_result_free(&run);
}

/* ---- (c) simulated time ---------------------------------------------------- */

Test(exec_prefix_naive, with_one_warp_per_kernel_every_cost_and_the_time_equal_the_model)
{
    /* n <= ℓ = w: each kernel is one block of one warp, every round one
     * address group: S, W, O equal to model.c's, and so is T. */
    machine m = test_preset("mcm");
    const double sizes[] = {2, 20, 32};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        double n = sizes[i];
        exec_result run = run_naive(n, 32, 5, &m);
        kernel_dag *model = build_builtin("prefix-naive", test_params("n l", n, 32), &m);
        const kernel_dag *dag = run.dag;
        expect_same_kernels(dag, model);
        for (int t = 0; t < dag->n; t++) {
            const block_cost *c = kernel_block_cost(&dag->kernels[t], 0);
            cr_expect_eq(c->span, model->kernels[t].cost.span);
            cr_expect_eq(c->work, model->kernels[t].cost.work);
            cr_expect_eq(m.u * (c->reads + c->writes), block_overhead(&model->kernels[t], m.u));
        }
        sim_result re = simulate(dag, &m), rm = simulate(model, &m);
        cr_expect_eq(re.T, rm.T, "n = %g: T exec %g, model %g", n, re.T, rm.T);
        cr_expect_eq(re.costs.W, rm.costs.W);
        cr_expect_eq(re.costs.O, rm.costs.O);
        sim_result_free(&re);
        sim_result_free(&rm);
        kernel_dag_free(model);
        exec_result_free(&run);
    }
}

Test(exec_prefix_naive, simulated_time_within_theorem_1_and_every_addition_counted)
{
    /* W = Σ_t (n − 2^t) exactly: the model's W spreads each kernel's
     * additions evenly over its blocks, so its sum may be off by the
     * rounding of (n − 2^t)/blocks; exec mode counts whole numbers. */
    machine m = test_preset("mcm");
    const double points[][2] = {{1 << 14, 256}, {5000, 64}};
    for (size_t p = 0; p < sizeof points / sizeof *points; p++) {
        double n = points[p][0], l = points[p][1], additions = 0;
        for (double d = 1; d < n; d *= 2)
            additions += n - d;
        exec_result run = run_naive(n, l, 8, &m);
        kernel_dag *model = build_builtin("prefix-naive", test_params("n l", n, l), &m);
        sim_result re = simulate(run.dag, &m), rm = simulate(model, &m);
        cr_expect_leq(re.T, re.bound_theorem1, "n = %g: T %g, Theorem 1 %g", n, re.T, re.bound_theorem1);
        cr_expect_eq(re.costs.W, additions, "n = %g: W %g, additions %g", n, re.costs.W, additions);
        cr_log_info("prefix-naive n = %g, l = %g: T exec %g, model %g (%.3f); O exec %g, model %g", n, l, re.T,
                    rm.T, re.T / rm.T, re.costs.O, rm.costs.O);
        sim_result_free(&re);
        sim_result_free(&rm);
        kernel_dag_free(model);
        exec_result_free(&run);
    }
}

/* ---- (d) what the kernels refuse ------------------------------------------ */

Test(exec_prefix_naive, refuses_fewer_than_two_numbers_and_a_fraction)
{
    machine m = test_preset("mcm");
    const char *why = case_exec_refuses("prefix-naive", test_params("n l", 1, 256), &m);
    cr_assert_not_null(why, "n = 1 was accepted");
    cr_expect(strstr(why, "needs whole n >= 2 and l >= 1 (got n = 1, l = 256)") != NULL, "%s", why);
    why = case_exec_refuses("prefix-naive", test_params("n l", 100.5, 256), &m);
    cr_assert_not_null(why, "n = 100.5 was accepted");
    cr_expect(strstr(why, "(got n = 100.5, l = 256)") != NULL, "%s", why);
}

/* ---- (e) why the kernels work out of place -------------------------------- */

typedef struct in_place_args { gmem a; long n, distance; } in_place_args;

/* The chapter's step in place: a[i] ← a[i] + a[i − 2^t]. */
static void add_in_place(exec_thread *t, void *args)
{
    const in_place_args *a = args;
    long i = t->bid * t->threads + t->tid;
    if (i < a->distance || i >= a->n)
        return;
    word y = exec_gread(t, a->a, i - a->distance), x = exec_gread(t, a->a, i);
    exec_ops(t, 1);
    exec_gwrite(t, a->a, i, (uint32_t)(x + y));
}
static const exec_step in_place_steps[] = {add_in_place};
static const exec_kernel in_place_kernel = {"in-place", 1, in_place_steps, 0};

/* The in-place scan of 1, 1, ..., 1; the index of the first wrong sum, or
 * -1 when a[i] = i + 1 everywhere. */
static long in_place_scan(long n, int l)
{
    machine m = test_preset("mcm");
    exec_run *run = exec_begin("in-place", &m);
    in_place_args args = {exec_alloc(run, "a", n), n, 1};
    for (long i = 0; i < n; i++)
        args.a->cells[i] = 1;
    for (; args.distance < n; args.distance *= 2)
        cr_assert_eq(exec_launch(run, &in_place_kernel, (n + l - 1) / l, l, &args), 0, "%s", fail_message());
    long wrong = -1;
    for (long i = n - 1; i >= 0; i--)
        if (args.a->cells[i] != (word)(i + 1))
            wrong = i;
    exec_end(run);
    return wrong;
}

Test(exec_prefix_naive, in_place_the_scan_is_right_in_one_block_only)
{
    /* Inside a block, a step's reads see memory as it was before the step,
     * so the chapter's in-place step is right; blocks of one kernel do not
     * synchronise (exec mode runs them one after another, as a GPU may), so
     * block 1 reads cells that block 0 has already updated: the sums go
     * wrong from the second block on.  kernels.c therefore works out of
     * place.  (A race-free run, as the kernels written once get, refuses
     * the in-place step outright: below.) */
    cr_expect_eq(in_place_scan(256, 256), -1, "one block: right");
    long wrong = in_place_scan(1024, 256);
    cr_expect_geq(wrong, 256, "the first block is right");
    cr_expect_lt(wrong, 512, "the second block is wrong: first wrong index %ld", wrong);
}

Test(exec_prefix_naive, a_race_free_run_refuses_the_in_place_step)
{
    /* The card's rules (sim/exec/exec.h): the card has no synchronous step, so
     * even inside one block thread 2 reads a[1] while thread 1 writes it. */
    machine m = test_preset("mcm");
    exec_run *run = exec_begin("in-place", &m);
    exec_set_race_free(run, 1);
    in_place_args args = {exec_alloc(run, "a", 256), 256, 1};
    cr_expect_eq(exec_launch(run, &in_place_kernel, 1, 256, &args), -1, "the in-place step was accepted");
    cr_expect(strstr(fail_message(), "thread 2 reads a[1], which thread 1 writes in the same step") != NULL, "%s",
              fail_message());
    exec_end(run);
}
