/*
 * test_exec_plain_division.c — plain division in exec mode
 * (programs/plain_division_exec.c) against its serial reference and against
 * the model-mode program (programs/plain_division.c).
 *
 * What is checked:
 *  - q and r equal the serial long division's, and q·b + r = a, on random
 *    inputs: several sizes (non-powers of two, m given or m = n + d, ℓ = 2s
 *    or not, s = 1, n = 1) and seeds, and over another prime;
 *  - the launches are the model's: same kernels, names, grids, threads;
 *    α = 5 and β = 2 as declared (β = 1 outside block 0);
 *  - per block, with the worksheet's unit costs: the arithmetic is the
 *    model's less the shared multiplication factors (S: 5s − 2 against
 *    6s − 3; W: 3ℓs + s(s − 1) against 3ℓs + 3s(s − 1)/2), and the
 *    private-memory accesses the model does not count come on top: exact
 *    S(B) and W(B), and the last, shorter call;
 *  - O(B) measured by the UMM rule at an aligned point, exactly;
 *  - the exec DAG simulates within Theorem 1, on the preset's P and on
 *    P = K; the Z constraint and bad points are refused as in model mode.
 */
#include "exec_programs.h"
#include "helpers.h"
#include "program.h"

#include <math.h>

#define BIG 1048576.0 /* an operation cost far above any thread's private accesses */

static vars point(double n, double m, double d, double s, double l)
{
    return test_params("n m d s l", n, m, d, s, l);
}

/* The exec run of plain-division at `v` on `mach`, operations costing
 * `add` and `mul` (the defaults 5 and 11 when add < 0); the host must
 * succeed. */
static exec_run *run_exec(vars v, const machine *mach, double add, double mul)
{
    exec_run *run = exec_begin("plain-division", mach);
    if (add >= 0)
        exec_set_costs(run, add, mul);
    const exec_program *prog = exec_program_find("plain-division");
    cr_assert_not_null(prog);
    char at[256];
    cr_assert_eq(prog->host(&v, mach, run), 0, "at %s: %s", params_text(&v, at, sizeof at), fail_message());
    return run;
}

Test(exec_plain_division, result_equals_the_serial_reference)
{
    /* {n, m, d, s, l}: m = 0 means n + d, l = 0 means 2s */
    const double pts[][5] = {{2000, 0, 500, 16, 0}, {1001, 0, 333, 5, 12}, {37, 0, 20, 1, 0},
                             {250, 600, 0, 7, 0},   {1, 0, 10, 3, 0},      {99, 0, 1, 4, 5},
                             {300, 0, 299, 9, 31}};
    machine mach = test_preset("mcm");
    for (size_t i = 0; i < sizeof pts / sizeof pts[0]; i++)
        for (uint64_t seed = 1; seed <= 3; seed++) {
            mach.seed = seed * 7919;
            exec_end(run_exec(point(pts[i][0], pts[i][1], pts[i][2], pts[i][3], pts[i][4]), &mach, -1, -1));
        }
}

Test(exec_plain_division, result_over_a_small_prime)
{
    /* p = 17: coefficients repeat and vanish often; the division does not care */
    machine mach = test_preset("mcm");
    vars v = point(61, 0, 45, 4, 0);
    exec_run *run = exec_begin("plain-division", &mach);
    exec_set_prime(run, 17);
    cr_expect_eq(exec_program_find("plain-division")->host(&v, &mach, run), 0, "%s", fail_message());
    exec_end(run);
}

Test(exec_plain_division, same_launches_as_the_model)
{
    const double pts[][5] = {{2000, 0, 500, 16, 0}, {1001, 0, 333, 5, 12}, {37, 0, 20, 1, 0}, {250, 600, 0, 7, 0}};
    machine mach = test_preset("mcm");
    for (size_t i = 0; i < sizeof pts / sizeof pts[0]; i++) {
        vars v = point(pts[i][0], pts[i][1], pts[i][2], pts[i][3], pts[i][4]);
        exec_run *run = run_exec(v, &mach, -1, -1);
        kernel_dag *model = build_builtin("plain-division", v, &mach);
        const kernel_dag *dag = exec_dag(run);
        int n_reports;
        const exec_kernel_report *rep = exec_reports(run, &n_reports);
        cr_assert_eq(dag->n, model->n, "point %zu: %d calls, model %d", i, dag->n, model->n);
        for (int k = 0; k < dag->n; k++) {
            const kernel *e = &dag->kernels[k], *d = &model->kernels[k];
            cr_expect_str_eq(e->name, d->name);
            cr_expect_eq(e->blocks, d->blocks, "point %zu, %s", i, e->name);
            cr_expect_eq(e->threads, d->threads);
            /* α, β: the declared 5 and 2, measured as the most words one
             * thread moves (block 0 writes the quotient, the others do not) */
            cr_expect_eq(d->cost.reads, 5);
            cr_expect_eq(d->cost.writes, 2);
            cr_expect_eq(rep[k].alpha, 5, "point %zu, %s: alpha %g", i, e->name, rep[k].alpha);
            cr_expect_eq(rep[k].beta, 2, "point %zu, %s: beta %g", i, e->name, rep[k].beta);
            cr_expect_eq(e->private_words, d->private_words, "3s + 2ℓ words, as declared");
        }
        kernel_dag_free(model);
        exec_end(run);
    }
}

/* Per thread t of a full block (every lane active, σ = s steps), unit costs:
 *   arithmetic   σ factors, σ own updates (2 each), t leading updates (t < σ)
 *   private      loads lead, btop (t < σ), own, 1 or 2 words of bwin (2 for
 *                t < σ); per step: read lead[k], own read/read/write, a
 *                leading update read/read/write, thread k stores q; the own
 *                word read back; block 0: the quotient read back.
 * The span thread is t = σ − 1: arithmetic 5σ − 2, private 7σ + 4. */
static double span_full(double sigma, int block_zero) { return 12 * sigma + 2 + block_zero; }
static double arithmetic_work(double sigma, double l) { return 3 * l * sigma + sigma * (sigma - 1); }
static double work_full(double sigma, double l, int block_zero)
{
    return l * (7 * sigma + 3) + 4 * sigma + 5 * sigma * (sigma - 1) / 2 + (block_zero ? sigma : 0);
}

Test(exec_plain_division, span_and_work_the_model_less_shared_factors_plus_private_accesses)
{
    /* {n, d, s, l}: n − 1 lanes, so blocks 1 … K−2 are full; the last call
     * makes σ = (d + 1) mod s steps when s does not divide d + 1 */
    const double pts[][4] = {{2000, 500, 16, 32}, {1001, 333, 5, 12}, {300, 100, 8, 16}, {130, 40, 1, 2}};
    machine mach = test_preset("mcm");
    for (size_t i = 0; i < sizeof pts / sizeof pts[0]; i++) {
        double n = pts[i][0], d = pts[i][1], s = pts[i][2], l = pts[i][3];
        vars v = point(n, 0, d, s, l);
        exec_run *unit = run_exec(v, &mach, 1, 1), *none = run_exec(v, &mach, 0, 0);
        exec_run *big = run_exec(v, &mach, BIG, BIG);
        kernel_dag *model = build_builtin("plain-division", v, &mach);
        const kernel_dag *du = exec_dag(unit), *dn = exec_dag(none), *db = exec_dag(big);
        for (int k = 0; k < du->n; k++) {
            double sigma = k == du->n - 1 ? d + 1 - k * s : s;
            const block_cost *declared = &model->kernels[k].cost;
            for (long b = 0; b < du->kernels[k].blocks - 1; b++) { /* every block but the last is full */
                const block_cost *c = kernel_block_cost(&du->kernels[k], b);
                double arith_span = floor(kernel_block_cost(&db->kernels[k], b)->span / BIG);
                double arith_work = c->work - kernel_block_cost(&dn->kernels[k], b)->work;
                cr_expect_eq(c->span, span_full(sigma, b == 0), "point %zu, call %d, block %ld: S %g", i, k, b,
                             c->span);
                cr_expect_eq(c->work, work_full(sigma, l, b == 0), "point %zu, call %d, block %ld: W %g", i, k, b,
                             c->work);
                cr_expect_eq(arith_span, 5 * sigma - 2);
                cr_expect_eq(arith_work, arithmetic_work(sigma, l));
                if (sigma == s) { /* the model's figures, less what a thread shares */
                    cr_expect_eq(arith_span, declared->span - (s - 1));
                    cr_expect_eq(arith_work, declared->work - s * (s - 1) / 2);
                } else /* the last call: σ < s steps, the model charges s */
                    cr_expect_lt(c->span, span_full(s, b == 0));
            }
        }
        cr_log_info("plain-division n=%g d=%g s=%g l=%g: S(B) %g (model %g), W(B) %g (model %g)", n, d, s, l,
                    kernel_block_cost(&du->kernels[0], 1)->span, model->kernels[0].cost.span, kernel_block_cost(&du->kernels[0], 1)->work,
                    model->kernels[0].cost.work);
        kernel_dag_free(model);
        exec_end(unit);
        exec_end(none);
        exec_end(big);
    }
}

Test(exec_plain_division, default_costs_span)
{
    /* 5 per addition, 11 per multiplication: the span thread's arithmetic
     * is 11σ + 16σ + 16(σ − 1) = 43σ − 16, plus its 7σ + 4 private accesses */
    machine mach = test_preset("mcm");
    double s = 16;
    exec_run *run = run_exec(point(2000, 0, 500, s, 32), &mach, -1, -1);
    const kernel *k = &exec_dag(run)->kernels[0];
    cr_expect_eq(kernel_block_cost(k, 1)->span, 43 * s - 16 + 7 * s + 4);
    cr_expect_eq(kernel_block_cost(k, 0)->span, 43 * s - 16 + 7 * s + 5);
    exec_end(run);
}

Test(exec_plain_division, measured_overhead_at_an_aligned_point)
{
    /* m = 3072 and s = 32: every call's top position d = m − 1 − cs is
     * 31 mod 32; n = 2048: b's window starts at a multiple of 32; ℓ = 64.
     * A full block's rounds are then whole address groups:
     *   reads   lead (s = 32 threads: 1 group), btop (1), own (ℓ/32 = 2),
     *           bwin (ℓ + s = 96 words: 3): 7 transactions, i.e.
     *           7·32/ℓ = 3.5 = (2ℓ + 3s)/ℓ words per thread (declared α = 5);
     *   writes  own: 2 transactions = 1 word per thread; block 0 also the
     *           quotient, 32 words at d − n + 1 − 31 … d − n + 1, which is
     *           0 mod 32 at its top: 2 groups, so (2 + 2)·32/ℓ = 2.
     * Measured O(B) = 4.5U (block 0: 5.5U) against the paper's 7U: the
     * leading coefficients and the quotient occupy s of the ℓ threads. */
    machine mach = test_preset("mcm");
    double n = 2048, d = 1024, s = 32, l = 64, U = mach.u;
    exec_run *run = run_exec(point(n, 0, d, s, l), &mach, -1, -1);
    kernel_dag *model = build_builtin("plain-division", point(n, 0, d, s, l), &mach);
    const kernel_dag *dag = exec_dag(run);
    int n_reports;
    const exec_kernel_report *rep = exec_reports(run, &n_reports);
    for (int k = 0; k < dag->n - 1; k++) { /* the last call makes 1 step */
        const kernel *K = &dag->kernels[k];
        for (long b = 0; b < K->blocks - 1; b++) {
            cr_expect_eq(kernel_block_cost(K, b)->reads, (2 * l + 3 * s) / l, "call %d block %ld: %g", k, b,
                         kernel_block_cost(K, b)->reads);
            cr_expect_eq(kernel_block_cost(K, b)->writes, b == 0 ? 2 : 1, "call %d block %ld: %g", k, b,
                         kernel_block_cost(K, b)->writes);
        }
        /* blocks 1 … K−2 cost (3.5 + 1)U each: less than the model's 7U */
        double measured = U * (kernel_block_cost(K, 1)->reads + kernel_block_cost(K, 1)->writes);
        cr_expect_eq(measured, 4.5 * U);
        cr_expect_lt(measured, block_overhead(&model->kernels[k], U));
    }
    cr_log_info("plain-division aligned: O measured %g, the paper's (α+β)U with the measured α, β %g, "
                "declared %g (first call)", rep[0].measured_overhead, rep[0].paper_overhead,
                model->kernels[0].blocks * block_overhead(&model->kernels[0], U));
    kernel_dag_free(model);
    exec_end(run);
}

Test(exec_plain_division, simulated_within_theorem_1)
{
    /* the exec DAG with the worksheet's unit costs (as the model counts)
     * and with the default 5/11, on the preset's 16 SMs and on P = K */
    const double pts[][5] = {{2000, 0, 500, 16, 0}, {1001, 0, 333, 5, 12}};
    machine mach = test_preset("mcm");
    for (size_t i = 0; i < sizeof pts / sizeof pts[0]; i++) {
        vars v = point(pts[i][0], pts[i][1], pts[i][2], pts[i][3], pts[i][4]);
        for (int unit = 0; unit <= 1; unit++) {
            exec_run *run = run_exec(v, &mach, unit ? 1 : -1, unit ? 1 : -1);
            for (int on_k = 0; on_k <= 1; on_k++) {
                machine m = mach;
                if (on_k)
                    set_p_to_k(exec_dag(run), &m);
                sim_result r = simulate(exec_dag(run), &m);
                cr_expect_leq(r.T, r.bound_theorem1, "T %g, Theorem 1 %g", r.T, r.bound_theorem1);
                double model_T = builtin_time("plain-division", v, &m);
                cr_log_info("plain-division exec point %zu (%s costs) on P = %d: T %g, Theorem 1 %g, "
                            "model-mode T %g", i, unit ? "unit" : "5/11", m.p, r.T, r.bound_theorem1, model_T);
                sim_result_free(&r);
            }
            exec_end(run);
        }
    }
}

Test(exec_plain_division, z_constraint_and_bad_points_refused)
{
    machine mach = test_preset("mcm");
    mach.z = 100;
    exec_run *run = exec_begin("plain-division", &mach);
    vars v = point(200, 0, 50, 16, 40); /* 3·16 + 2·40 = 128 > 100 */
    cr_expect_eq(exec_program_find("plain-division")->host(&v, &mach, run), -1);
    cr_expect(strstr(fail_message(), "constraint 3s + 2ℓ <= Z does not hold") != NULL, "%s", fail_message());
    v = point(200, 150, 0, 4, 0); /* m <= n */
    cr_expect_eq(exec_program_find("plain-division")->host(&v, &mach, run), -1);
    cr_expect(strstr(fail_message(), "needs whole m > n >= 1") != NULL, "%s", fail_message());
    v = point(200, 0, 50, 8, 4); /* s > ℓ */
    cr_expect_eq(exec_program_find("plain-division")->host(&v, &mach, run), -1);
    cr_expect(strstr(fail_message(), "needs s <= ℓ") != NULL, "%s", fail_message());
    exec_end(run);
}
