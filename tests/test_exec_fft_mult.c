/*
 * test_exec_fft_mult.c — FFT-based multiplication in exec mode
 * (programs/fft_mult_exec.c): the product against the schoolbook one, the
 * measured costs kernel by kernel against the model-mode program's declared
 * ones (programs/fft_mult.c), and the simulated time.
 *
 * Where the measured costs differ from the declared ones, the expected
 * value is the declared one changed as fft_mult_exec.c documents (its
 * note 2, and stockham_exec.c's notes 1-3 and 7 for the FFT kernels),
 * asserted exactly.
 */
#include "exec_programs.h"
#include "helpers.h"
#include "program.h"

#include <math.h>

static exec_run *run_at(double n, double mm, double l, const machine *m)
{
    return run_exec_builtin("fft-mult", test_params("n m l", n, mm, l), m);
}

/* ---- (a) the result ---------------------------------------------------------- */

Test(exec_fft_mult, product_is_the_schoolbook_one)
{
    /* n, m any whole sizes (m = 0: m = n); N the least power of two >= n + m − 1 */
    const double points[][3] = {{3, 2, 2},    {100, 37, 16}, {100, 0, 32},   {513, 512, 32},
                                {1000, 1, 8}, {1000, 0, 64}, {777, 300, 128}, {4096, 0, 256}};
    machine m = test_preset("mcm");
    for (size_t i = 0; i < sizeof points / sizeof points[0]; i++)
        for (uint64_t seed = 1; seed <= 2; seed++) {
            m.seed = seed;
            exec_end(run_at(points[i][0], points[i][1], points[i][2], &m));
        }
}

Test(exec_fft_mult, default_params_and_refused_points)
{
    machine m = test_preset("mcm");
    vars none = {0};
    vars_clear(&none);
    exec_run *run = exec_begin("fft-mult", &m);
    cr_assert_eq(test_exec_program("fft-mult")->host(&none, &m, run), 0, "%s", fail_message());
    cr_expect_eq(exec_dag(run)->n, 9 * 13 - 4, "n = m = 4096: N = 2^13, 9 log N − 4 kernels");
    exec_end(run);
    /* what the model refuses: m > n, sizes not whole, N < 2ℓ, ℓ not a power of two */
    const double bad[][3] = {{10, 20, 2}, {10.5, 0, 2}, {100, 0, 256}, {1000, 0, 48}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        vars params = test_params("n m l", bad[i][0], bad[i][1], bad[i][2]);
        cr_assert_null(test_builtin("fft-mult")->build(&params, &m));
        char model_message[512];
        snprintf(model_message, sizeof model_message, "%s", fail_message());
        run = exec_begin("fft-mult", &m);
        cr_expect_eq(test_exec_program("fft-mult")->host(&params, &m, run), -1);
        cr_expect_str_eq(fail_message(), model_message);
        exec_end(run);
    }
}

/* ---- (b) measured costs against the model, kernel by kernel ---------------- */

/* The measured per-block cost of model kernel k (FFT size N), and α, β. */
static block_cost expected_of(const kernel *k, double size, double l, double w, double *alpha, double *beta)
{
    const block_cost *d = &k->cost;
    block_cost e = *d;
    const char *colon = strchr(k->name, ':'), *what = colon ? colon + 1 : k->name;
    int step;
    *alpha = d->reads;
    *beta = d->writes;
    if (strncmp(what, "butterfly[", 10) == 0) {
        e.span = 2 * d->span;                            /* stockham_exec.c note 1 */
    } else if (strncmp(what, "twiddle[", 8) == 0) {
        e.span = 2 * d->span;                            /* note 1 */
        e.reads = *alpha = d->reads + 1;                 /* note 3 */
    } else if (sscanf(what, "stride[%d]", &step) == 1) {
        double q = ldexp(1, (int)log2(size) - 1 - step); /* note 2 */
        e.span = q < l ? d->span + 2 : d->span - 6;
        e.work = l * e.span;
        if (q < l && l < 2 * w)                          /* note 7 */
            e.writes = 2 * d->writes;
    } else if (strcmp(what, "pointwise") == 0 || strcmp(what, "scale") == 0) {
        e.span = 11;                                     /* fft_mult_exec.c note 2 */
        e.work = 11 * l;
    } else {
        cr_assert_fail("unexpected kernel %s", k->name);
    }
    return e;
}

static void compare_with_model(double n, double mm, double l, const machine *m)
{
    exec_run *run = run_at(n, mm, l, m);
    kernel_dag *model = build_builtin("fft-mult", test_params("n m l", n, mm, l), m);
    const kernel_dag *got = exec_dag(run);
    double size = ldexp(1, (int)ceil(log2(n + (mm ? mm : n) - 1)));
    int count;
    const exec_kernel_report *rep = exec_reports(run, &count);
    cr_assert_eq(got->n, model->n, "%d kernels, the model %d", got->n, model->n);
    for (int i = 0; i < model->n; i++) {
        const kernel *g = &got->kernels[i], *d = &model->kernels[i];
        cr_expect_str_eq(g->name, d->name);
        cr_expect_eq(g->blocks, d->blocks, "%s: grid", d->name);
        cr_expect_eq(g->threads, d->threads, "%s: ℓ", d->name);
        double alpha, beta;
        block_cost e = expected_of(d, size, l, m->warp, &alpha, &beta);
        for (long b = 0; b < g->blocks; b++) {
            const block_cost *c = kernel_block_cost(g, b);
            cr_expect_eq(c->span, e.span, "%s block %ld: S(B) %g, expected %g", d->name, b, c->span, e.span);
            cr_expect_eq(c->work, e.work, "%s block %ld: W(B) %g, expected %g", d->name, b, c->work, e.work);
            cr_expect_eq(c->reads, e.reads, "%s block %ld: reads %g, expected %g", d->name, b, c->reads, e.reads);
            cr_expect_eq(c->writes, e.writes, "%s block %ld: writes %g, expected %g", d->name, b, c->writes,
                         e.writes);
        }
        cr_expect_eq(rep[i].alpha, alpha, "%s: α %g", d->name, rep[i].alpha);
        cr_expect_eq(rep[i].beta, beta, "%s: β %g", d->name, rep[i].beta);
    }
    dag_costs cg = checked_costs(got, m), cm = checked_costs(model, m);
    cr_expect_eq(cg.N, cm.N, "N");
    cr_expect_eq(cg.L_kernels, cm.L_kernels, "L");
    cr_expect_eq(cg.K, cm.K, "K");
    kernel_dag_free(model);
    exec_end(run);
}

Test(exec_fft_mult, costs_kernel_by_kernel_against_the_model)
{
    machine m = test_preset("mcm");
    compare_with_model(1024, 0, 256, &m);  /* N = 2048 */
    compare_with_model(1000, 0, 64, &m);   /* N = 2048 */
    compare_with_model(100, 37, 16, &m);   /* N = 256, ℓ < 2w */
}

Test(exec_fft_mult, pointwise_and_scale_move_what_the_model_says)
{
    /* α, β and O(B) of the two kernels of their own: equal to the model's */
    machine m = test_preset("mcm");
    double n = 512, l = 64, U = m.u;
    exec_run *run = run_at(n, 0, l, &m);
    int count;
    const exec_kernel_report *rep = exec_reports(run, &count);
    double blocks = 2 * n / l;
    int seen = 0;
    for (int i = 0; i < count; i++) {
        if (strcmp(rep[i].name, "pointwise") == 0) {
            cr_expect_eq(rep[i].measured_overhead, blocks * 3 * U, "pointwise: O(B) = 3U");
            seen++;
        } else if (strcmp(rep[i].name, "scale") == 0) {
            cr_expect_eq(rep[i].measured_overhead, blocks * 2 * U, "scale: O(B) = 2U");
            cr_expect_eq(i, count - 1, "scale is the last kernel");
            seen++;
        }
    }
    cr_expect_eq(seen, 2);
    exec_end(run);
}

/* ---- (c) simulated time --------------------------------------------------------- */

Test(exec_fft_mult, simulated_time_within_theorem_1_and_as_documented)
{
    const char *presets[] = {"mcm", "gtx670"};
    for (int i = 0; i < 2; i++) {
        machine m = test_preset(presets[i]);
        double n = 1024, l = 256, size = 2048;
        exec_run *run = run_at(n, 0, l, &m);
        kernel_dag *model = build_builtin("fft-mult", test_params("n m l", n, 0, l), &m);
        kernel_dag *documented = kernel_dag_new("fft-mult");
        for (int k = 0; k < model->n; k++) {
            kernel copy = model->kernels[k];
            double alpha, beta;
            copy.cost = expected_of(&model->kernels[k], size, l, m.warp, &alpha, &beta);
            cr_assert_geq(kernel_dag_chain(documented, &copy), 0, "%s", fail_message());
        }
        sim_result got = simulate(exec_dag(run), &m), doc = simulate(documented, &m), mod = simulate(model, &m);
        cr_expect_leq(got.T, got.bound_theorem1, "%s: T %g > Theorem 1 %g", presets[i], got.T, got.bound_theorem1);
        cr_expect_eq(got.T, doc.T, "%s: T %g, the documented costs give %g", presets[i], got.T, doc.T);
        cr_expect_gt(got.T, mod.T, "%s: the measured spans are larger: exec T %g, model T %g", presets[i], got.T,
                     mod.T);
        sim_result_free(&got);
        sim_result_free(&doc);
        sim_result_free(&mod);
        kernel_dag_free(documented);
        kernel_dag_free(model);
        exec_end(run);
    }
}
