/*
 * test_exec_prefix.c — the naive (Hillis–Steele) and the optimal
 * (two-stage) prefix sums in exec mode (programs/prefix_naive_exec.c,
 * programs/prefix_optimal_exec.c): results against the serial scan, the
 * measured per-block costs against the model-mode programs' declared ones
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
 * tested at powers of two only.  The naive scan takes any n >= 2.
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

Test(exec_prefix, naive_equals_the_serial_scan_on_random_inputs)
{
    const double sizes[] = {2, 3, 5, 33, 100, 256, 1000, 4096, 5000};
    const double threads[] = {32, 64, 256};
    machine m = test_preset("mcm");
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
        for (size_t j = 0; j < sizeof threads / sizeof *threads; j++)
            for (uint64_t seed = 1; seed <= 3; seed++)
                exec_end(run_program("prefix-naive", sizes[i], threads[j], seed, &m));
}

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

/* Naive step t (distance d = 2^t), n threads: round 0 reads in[i] (all
 * i < n), round 1 in[i − d] (i >= d); writes out[i] (all). */
static void expect_naive_kernel(const kernel *k, long n, long d, int w)
{
    round_pattern reads[] = {{0, n, 1, 0}, {d, n, 1, -d}}, writes[] = {{0, n, 1, 0}};
    for (long b = 0; b < k->blocks; b++)
        expect_block(k, b, d, n, reads, 2, writes, 1, w);
}

Test(exec_prefix, naive_measures_its_adders_and_address_groups)
{
    /* prefix_naive.c charges every block S = 1, 3U and spreads the n − 2^t
     * additions evenly; measured: blocks of copies only (i < 2^t) have
     * S = W = 0 and move 2 words per thread, reads of in[i − 2^t] straddle
     * two groups per warp when w ∤ 2^t, and blocks across 2^t or past n
     * have fewer active warps.  Kernel totals of W and α = 2, β = 1 are
     * equal. */
    const double points[][2] = {{1 << 12, 256}, {1000, 256}, {5000, 64}, {777, 32}, {100, 16}};
    machine m = test_preset("mcm");
    for (size_t p = 0; p < sizeof points / sizeof *points; p++) {
        double n = points[p][0], l = points[p][1];
        exec_run *run = run_program("prefix-naive", n, l, 3, &m);
        kernel_dag *model = build_builtin("prefix-naive", test_params("n l", n, l), &m);
        const kernel_dag *dag = exec_dag(run);
        expect_same_kernels(dag, model);
        int n_reports;
        const exec_kernel_report *rep = exec_reports(run, &n_reports);
        for (int t = 0; t < dag->n; t++) {
            const kernel *k = &dag->kernels[t], *declared = &model->kernels[t];
            expect_naive_kernel(k, (long)n, 1L << t, m.warp);
            cr_expect_eq(kernel_work(k), declared->cost.work * (double)declared->blocks, "n = %g, %s: W", n,
                         k->name);
            cr_expect_eq(rep[t].alpha, declared->cost.reads, "%s: α", k->name);
            cr_expect_eq(rep[t].beta, declared->cost.writes, "%s: β", k->name);
        }
        kernel_dag_free(model);
        exec_end(run);
    }
}

Test(exec_prefix, naive_full_blocks_cost_3u_aligned_4u_unaligned_2u_copying)
{
    /* The three full-block cases named in prefix_naive_exec.c, at n = 2^12,
     * ℓ = 256, w = 32: step 8 (2^t = ℓ): block 0 copies only (S = 0, 2U),
     * blocks 1.. add with aligned reads (S = 1, 3U, the model's cost);
     * step 2 (2^t = 4, w ∤ 4): every block but the first pays 2 groups per
     * warp for in[i − 4]: 4U. */
    machine m = test_preset("mcm");
    double U = m.u;
    exec_run *run = run_program("prefix-naive", 1 << 12, 256, 9, &m);
    kernel_dag *model = build_builtin("prefix-naive", test_params("n l", 1 << 12, 256), &m);
    const kernel *step8 = &exec_dag(run)->kernels[8], *step2 = &exec_dag(run)->kernels[2];
    cr_expect_eq(block_overhead(&model->kernels[8], U), 3 * U, "declared");
    cr_expect_eq(kernel_block_cost(step8, 0)->span, 0);
    cr_expect_eq(U * (kernel_block_cost(step8, 0)->reads + kernel_block_cost(step8, 0)->writes), 2 * U);
    cr_expect_eq(kernel_block_cost(step8, 5)->span, 1);
    cr_expect_eq(U * (kernel_block_cost(step8, 5)->reads + kernel_block_cost(step8, 5)->writes), 3 * U);
    cr_expect_eq(U * (kernel_block_cost(step2, 5)->reads + kernel_block_cost(step2, 5)->writes), 4 * U);
    kernel_dag_free(model);
    exec_end(run);
}

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

Test(exec_prefix, naive_with_one_warp_per_kernel_equals_the_model)
{
    /* n <= ℓ = w: each kernel is one block of one warp, every round one
     * address group: S, W, O equal to prefix_naive.c, and so is T. */
    machine m = test_preset("mcm");
    const double sizes[] = {2, 20, 32};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        double n = sizes[i];
        exec_run *run = run_program("prefix-naive", n, 32, 5, &m);
        kernel_dag *model = build_builtin("prefix-naive", test_params("n l", n, 32), &m);
        const kernel_dag *dag = exec_dag(run);
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
        exec_end(run);
    }
}

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
        {"prefix-naive", 1 << 14, 256}, {"prefix-naive", 5000, 64}, {"prefix-optimal", 1 << 14, 256},
        {"prefix-optimal", 1 << 12, 64}};
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

static double exec_time(const char *name, double n, machine *m)
{
    exec_run *run = run_program(name, n, 256, 2, m);
    sim_result r = simulate(exec_dag(run), m);
    double T = r.T;
    sim_result_free(&r);
    exec_end(run);
    return T;
}

Test(exec_prefix, the_chapters_conclusion_holds_with_measured_costs)
{
    /* scan.cfg's conclusion (README): the naive scan wins for small n, the
     * optimal one for large n; on `mcm` (P = 16, ℓ = 256) the model's
     * crossover is at 2^14.  With measured costs the optimal scan is
     * cheaper for small n (its one-block kernels move few words) and
     * dearer for large n (stride-2 rounds): the crossover comes down to
     * 2^13 and the large-n advantage shrinks (T_naive/T_optimal 4.0 at
     * 2^18, model 6.6), but the conclusion stands. */
    machine m = test_preset("mcm");
    double small_naive = exec_time("prefix-naive", 1 << 12, &m), small_optimal = exec_time("prefix-optimal", 1 << 12, &m);
    double cross_naive = exec_time("prefix-naive", 1 << 13, &m), cross_optimal = exec_time("prefix-optimal", 1 << 13, &m);
    double large_naive = exec_time("prefix-naive", 1 << 16, &m), large_optimal = exec_time("prefix-optimal", 1 << 16, &m);
    cr_expect_lt(small_naive, small_optimal, "2^12: naive %g, optimal %g", small_naive, small_optimal);
    cr_expect_gt(cross_naive, cross_optimal, "2^13: naive %g, optimal %g", cross_naive, cross_optimal);
    cr_expect_gt(large_naive, large_optimal, "2^16: naive %g, optimal %g", large_naive, large_optimal);
    double model_naive = builtin_time("prefix-naive", test_params("n l", 1 << 13, 256), &m);
    double model_optimal = builtin_time("prefix-optimal", test_params("n l", 1 << 13, 256), &m);
    cr_expect_lt(model_naive, model_optimal, "the model at 2^13: naive %g, optimal %g", model_naive, model_optimal);
}

/* ---- (d) why the naive scan works out of place -------------------------------- */

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

Test(exec_prefix, in_place_the_naive_scan_is_right_in_one_block_only)
{
    /* Inside a block, a step's reads see memory as it was before the step,
     * so the chapter's in-place step is right; blocks of one kernel do not
     * synchronise (exec mode runs them one after another, as a GPU may), so
     * block 1 reads cells that block 0 has already updated: the sums go
     * wrong from the second block on.  prefix_naive_exec.c therefore works
     * out of place. */
    cr_expect_eq(in_place_scan(256, 256), -1, "one block: right");
    long wrong = in_place_scan(1024, 256);
    cr_expect_geq(wrong, 256, "the first block is right");
    cr_expect_lt(wrong, 512, "the second block is wrong: first wrong index %ld", wrong);
}
