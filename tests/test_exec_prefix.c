/*
 * test_exec_prefix.c — the optimal (two-stage) prefix sums in exec mode
 * (programs/prefix_optimal_exec.c): results against the serial scan, the
 * measured per-block costs against the model-mode program's declared ones
 * (equal where the model is exact, the documented difference elsewhere),
 * and the simulated time.
 *
 * The measured transfers are checked against an independent count of the
 * UMM rule (SPEC §3): for each round of accesses, the threads i in
 * [lo, hi) of the grid touch cell stride·i + offset of one array, and a
 * warp pays one transaction per distinct address group ⌊cell/w⌋; a block's
 * transfer is Σ transactions · min(w, ℓ)/ℓ words per thread (sim/exec.h).
 * All costs are multiples of 1/8 at ℓ <= 256, w = 32: comparisons are
 * exact.
 *
 * The model-mode prefix-optimal refuses n that is not a power of two (the
 * chapter's n = 2^m: its arrays a_t halve), and so does exec mode: it is
 * tested at powers of two only.  (The naive scan's kernels are
 * programs/prefix-naive/kernels.c, tested beside them.)
 */
#include "exec_programs.h"
#include "helpers.h"
#include "program.h"

#include <limits.h>
#include <math.h>

/* Threads of block b (ℓ threads) with index in [lo, hi). */
static long threads_in(long b, int l, long lo, long hi)
{
    long first = b * l > lo ? b * l : lo, end = (b + 1) * l < hi ? (b + 1) * l : hi;
    return end > first ? end - first : 0;
}

/* What block b of kernel k must measure: S(B) = 1 if it has an adder,
 * W(B) = its adders (threads [add_lo, add_hi)), and the rounds' words. */
static void expect_block(const kernel *k, long b, long add_lo, long add_hi, const round_pattern *reads,
                         int n_reads, const round_pattern *writes, int n_writes, int w)
{
    int l = k->threads;
    long adders = threads_in(b, l, add_lo, add_hi);
    const block_cost *c = kernel_block_cost(k, b);
    cr_expect_eq(c->span, adders > 0 ? 1 : 0, "%s block %ld: S(B) %g", k->name, b, c->span);
    cr_expect_eq(c->work, (double)adders, "%s block %ld: W(B) %g, %ld adders", k->name, b, c->work, adders);
    cr_expect_eq(c->reads, block_words(reads, n_reads, b, l, w), "%s block %ld: reads %g, expected %g", k->name, b,
                 c->reads, block_words(reads, n_reads, b, l, w));
    cr_expect_eq(c->writes, block_words(writes, n_writes, b, l, w), "%s block %ld: writes %g, expected %g",
                 k->name, b, c->writes, block_words(writes, n_writes, b, l, w));
}

/* ---- running the programs ------------------------------------------------- */

static exec_run *run_program(const char *name, double n, double l, uint64_t seed, machine *m)
{
    const exec_program *program = exec_program_find(name);
    cr_assert_not_null(program, "no exec-mode program '%s'", name);
    m->seed = seed;
    exec_run *run = exec_begin(name, m);
    vars p = test_params("n l", n, l);
    cr_assert_eq(program->host(&p, m, run), 0, "%s, n = %g, l = %g, seed %llu: %s", name, n, l,
                 (unsigned long long)seed, fail_message());
    return run;
}

/* Same kernels, grids and threads as the model-mode program. */
static void expect_same_kernels(const kernel_dag *exec, const kernel_dag *model)
{
    cr_assert_eq(exec->n, model->n, "kernels: exec %d, model %d", exec->n, model->n);
    for (int i = 0; i < exec->n; i++) {
        cr_expect_str_eq(exec->kernels[i].name, model->kernels[i].name);
        cr_expect_eq(exec->kernels[i].blocks, model->kernels[i].blocks, "%s", model->kernels[i].name);
        cr_expect_eq(exec->kernels[i].threads, model->kernels[i].threads, "%s", model->kernels[i].name);
    }
}

/* Σ over kernels of the kernel's total W, from its blocks. */
static double kernel_work(const kernel *k)
{
    double total = 0;
    for (long b = 0; b < k->blocks; b++)
        total += kernel_block_cost(k, b)->work;
    return total;
}

/* ---- (a) results ---------------------------------------------------------- */

Test(exec_prefix, optimal_equals_the_serial_scan_on_random_inputs)
{
    const double threads[] = {32, 64, 256};
    machine m = test_preset("mcm");
    for (double n = 2; n <= 1 << 14; n *= 2)
        for (size_t j = 0; j < sizeof threads / sizeof *threads; j++)
            for (uint64_t seed = 1; seed <= 3; seed++)
                exec_end(run_program("prefix-optimal", n, threads[j], seed, &m));
}

Test(exec_prefix, optimal_refuses_n_not_a_power_of_two_as_the_model_does)
{
    machine m = test_preset("mcm");
    exec_run *run = exec_begin("prefix-optimal", &m);
    vars p = test_params("n l", 1000, 256);
    cr_expect_eq(exec_program_find("prefix-optimal")->host(&p, &m, run), -1);
    const char *msg = fail_message();
    cr_expect(strstr(msg, "n must be a power of two, n = 2^m (got n = 1000)") != NULL, "%s", msg);
    cr_expect_null(test_builtin("prefix-optimal")->build(&p, &m), "the model refuses it too");
    vars q = test_params("n l", 1024, 4096); /* 4ℓ = 16384 > Z = 12288 */
    cr_expect_eq(exec_program_find("prefix-optimal")->host(&q, &m, run), -1);
    cr_expect(strstr(fail_message(), "constraint 4ℓ <= Z does not hold") != NULL, "%s", fail_message());
    cr_expect_eq(exec_dag(run)->n, 0, "nothing launched");
    exec_end(run);
}

/* ---- (b) measured costs against the model --------------------------------- */

/* Optimal, stage 1, kernel interval-sum[t]: 2^t threads read a_{t+1}[2i],
 * a_{t+1}[2i+1] and write a_t[i]. */
static void expect_interval_kernel(const kernel *k, long half, int w)
{
    round_pattern reads[] = {{0, half, 2, 0}, {0, half, 2, 1}}, writes[] = {{0, half, 1, 0}};
    for (long b = 0; b < k->blocks; b++)
        expect_block(k, b, 0, half, reads, 2, writes, 1, w);
}

/* Optimal, stage 2, kernel copy-add[t]: thread i < 2^t reads a_t[i], then
 * (i < 2^t − 1) a_{t+1}[2i+2]; writes a_{t+1}[2i+1], then (i < 2^t − 1)
 * a_{t+1}[2i+2]. */
static void expect_copy_add_kernel(const kernel *k, long half, int w)
{
    round_pattern reads[] = {{0, half, 1, 0}, {0, half - 1, 2, 2}};
    round_pattern writes[] = {{0, half, 2, 1}, {0, half - 1, 2, 2}};
    for (long b = 0; b < k->blocks; b++)
        expect_block(k, b, 0, half - 1, reads, 2, writes, 2, w);
}

Test(exec_prefix, optimal_measures_stride_two_rounds_as_two_or_three_groups)
{
    /* S(B) equal everywhere; W(B) equal in stage 1, per block in stage 2
     * (the model spreads 2^t − 1 evenly); α/β equal but in copy-add[0]
     * (1/1, declared 2/2); O(B) by the UMM rule, e.g. full blocks 5U and 9U
     * where prefix_optimal.c declares 3U and 4U. */
    const double points[][2] = {{1 << 12, 256}, {1 << 10, 64}, {1 << 9, 32}, {64, 16}};
    machine m = test_preset("mcm");
    double U = m.u;
    for (size_t p = 0; p < sizeof points / sizeof *points; p++) {
        double n = points[p][0], l = points[p][1];
        int log_n = (int)log2(n);
        exec_run *run = run_program("prefix-optimal", n, l, 4, &m);
        kernel_dag *model = build_builtin("prefix-optimal", test_params("n l", n, l), &m);
        const kernel_dag *dag = exec_dag(run);
        expect_same_kernels(dag, model);
        int n_reports;
        const exec_kernel_report *rep = exec_reports(run, &n_reports);
        for (int j = 0; j < dag->n; j++) {
            const kernel *k = &dag->kernels[j], *declared = &model->kernels[j];
            int stage1 = j < log_n, t = stage1 ? log_n - 1 - j : j - log_n;
            long half = 1L << t;
            if (stage1)
                expect_interval_kernel(k, half, m.warp);
            else
                expect_copy_add_kernel(k, half, m.warp);
            for (long b = 0; b < k->blocks; b++)
                cr_expect_eq(kernel_block_cost(k, b)->span, declared->cost.span, "%s: S equal", k->name);
            cr_expect_eq(kernel_work(k), declared->cost.work * (double)declared->blocks, "%s: W", k->name);
            int first_copy = !stage1 && t == 0;
            cr_expect_eq(rep[j].alpha, first_copy ? 1 : declared->cost.reads, "%s: α", k->name);
            cr_expect_eq(rep[j].beta, first_copy ? 1 : declared->cost.writes, "%s: β", k->name);
            /* block 0 full, and in copy-add not the last (whose last thread
             * does not add: one group less in each 2i+2 round) */
            if ((stage1 ? half >= l : half > l) && (long)l % m.warp == 0) {
                const block_cost *c = kernel_block_cost(k, 0);
                cr_expect_eq(U * (c->reads + c->writes), stage1 ? 5 * U : 9 * U, "%s: full block", k->name);
                cr_expect_eq(block_overhead(declared, U), stage1 ? 3 * U : 4 * U, "%s: declared", k->name);
            }
        }
        kernel_dag_free(model);
        exec_end(run);
    }
}

/* ---- (c) simulated time ------------------------------------------------------ */

Test(exec_prefix, optimal_with_one_warp_per_kernel_saves_only_the_first_copy)
{
    /* n <= ℓ = w: every round of a kernel lies in one address group, so the
     * measured O(B) is the declared 3U and 4U, except copy-add[0] whose one
     * thread moves 2 words (declared 4U): T_model − T_exec = 2U exactly. */
    machine m = test_preset("mcm");
    for (double n = 2; n <= 32; n *= 4) {
        exec_run *run = run_program("prefix-optimal", n, 32, 6, &m);
        kernel_dag *model = build_builtin("prefix-optimal", test_params("n l", n, 32), &m);
        sim_result re = simulate(exec_dag(run), &m), rm = simulate(model, &m);
        cr_expect_eq(rm.T - re.T, 2 * m.u, "n = %g: T exec %g, model %g", n, re.T, rm.T);
        cr_expect_eq(rm.costs.O - re.costs.O, 2 * m.u);
        cr_expect_eq(re.costs.W, rm.costs.W);
        sim_result_free(&re);
        sim_result_free(&rm);
        kernel_dag_free(model);
        exec_end(run);
    }
}

Test(exec_prefix, simulated_times_within_theorem_1)
{
    machine m = test_preset("mcm");
    const struct { const char *name; double n, l; } points[] = {
        {"prefix-optimal", 1 << 14, 256}, {"prefix-optimal", 1 << 12, 64}};
    for (size_t p = 0; p < sizeof points / sizeof *points; p++) {
        exec_run *run = run_program(points[p].name, points[p].n, points[p].l, 8, &m);
        kernel_dag *model = build_builtin(points[p].name, test_params("n l", points[p].n, points[p].l), &m);
        sim_result re = simulate(exec_dag(run), &m), rm = simulate(model, &m);
        cr_expect_leq(re.T, re.bound_theorem1, "%s n = %g: T %g, Theorem 1 %g", points[p].name, points[p].n, re.T,
                      re.bound_theorem1);
        /* the additions, exactly: Σ_t (n − 2^t) for the naive scan, (n − 1) +
         * (n − 1 − log n) for the optimal one.  (The model's W spreads each
         * kernel's additions evenly over its blocks, so its sum may be off by
         * the rounding of (n − 2^t)/blocks; exec mode counts whole numbers.) */
        double n = points[p].n, additions = 0;
        for (double d = 1; d < n; d *= 2)
            additions += strcmp(points[p].name, "prefix-naive") == 0 ? n - d : 0;
        if (strcmp(points[p].name, "prefix-optimal") == 0)
            additions = 2 * n - 2 - log2(n);
        cr_expect_eq(re.costs.W, additions, "%s: W %g, additions %g", points[p].name, re.costs.W, additions);
        cr_log_info("%s n = %g, l = %g: T exec %g, model %g (%.3f); O exec %g, model %g", points[p].name,
                    points[p].n, points[p].l, re.T, rm.T, re.T / rm.T, re.costs.O, rm.costs.O);
        sim_result_free(&re);
        sim_result_free(&rm);
        kernel_dag_free(model);
        exec_end(run);
    }
}
