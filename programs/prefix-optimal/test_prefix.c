/*
 * test_prefix.c — the naive (Hillis–Steele) and the optimal two-stage
 * prefix sums (programs/prefix-naive/model.c, prefix-optimal/model.c;
 * DMM/UMM chapter §6 and §7): closed forms against the simulated costs, the
 * bounds, and the chapter's conclusion (SPEC §2; dmm-umm-chapter.txt lines
 * 203 and 208): the naive scan loses for large n, the optimal scan has more
 * latency for small n, on the `mcm` and `gtx670` presets.
 *
 * The closed forms are ours (no paper gives them, see the program files);
 * they keep every ceiling, so for n and ℓ powers of two they must equal the
 * simulated W, S, O, N, L, C exactly: tolerance 0.  All the quantities are
 * whole numbers below 2^53, so the floating-point sums are exact too.
 */
#include "helpers.h"
#include "program.h"

#include <math.h>

#define NAIVE "prefix-naive"
#define OPTIMAL "prefix-optimal"

static vars params_of(double n, double l) { return test_params("n l", n, l); }

static const double cost_points[][2] = {{2, 256},    {4, 256},     {64, 256},   {256, 256},
                                        {512, 256},  {1024, 256},  {65536, 256}, {1 << 20, 256},
                                        {4096, 32},  {1 << 16, 1024}};

static void closed_forms_equal_simulated_costs(const char *program, double (*width)(double, double))
{
    machine m = test_preset("mcm");
    for (size_t i = 0; i < sizeof cost_points / sizeof cost_points[0]; i++) {
        double n = cost_points[i][0], l = cost_points[i][1];
        vars p = params_of(n, l);
        kernel_dag *dag = build_builtin(program, p, &m);
        sim_result r = simulate(dag, &m);
        closed_form cf = builtin_closed_form(program, p, &m);
        cr_expect_eq(r.costs.N, cf.N, "%s n = %g, l = %g: N %g, closed form %g", program, n, l, r.costs.N, cf.N);
        cr_expect_eq(r.costs.L_kernels, cf.L, "%s n = %g, l = %g: L %d vs %g", program, n, l,
                     r.costs.L_kernels, cf.L);
        cr_expect_eq(r.costs.W, cf.W, "%s n = %g, l = %g: W %g vs %g", program, n, l, r.costs.W, cf.W);
        cr_expect_eq(r.costs.S, cf.S, "%s n = %g, l = %g: S %g vs %g", program, n, l, r.costs.S, cf.S);
        cr_expect_eq(r.costs.O, cf.O, "%s n = %g, l = %g: O %g vs %g", program, n, l, r.costs.O, cf.O);
        cr_expect_eq(r.costs.C, cf.C, "%s n = %g, l = %g: C %g vs %g", program, n, l, r.costs.C, cf.C);
        cr_expect_eq(r.costs.K, width(n, l), "%s n = %g, l = %g: K %g", program, n, l, r.costs.K);
        cr_expect_eq(r.bound_corollary1, cf.T, "%s n = %g, l = %g: the closed-form T is Corollary 1",
                     program, n, l);
        sim_result_free(&r);
        kernel_dag_free(dag);
    }
}

static double naive_width(double n, double l) { return fmax(n / l, 1); }
static double optimal_width(double n, double l) { return fmax(n / (2 * l), 1); }

Test(prefix, naive_closed_forms_equal_the_simulated_costs)
{
    closed_forms_equal_simulated_costs(NAIVE, naive_width);
}

Test(prefix, optimal_closed_forms_equal_the_simulated_costs)
{
    closed_forms_equal_simulated_costs(OPTIMAL, optimal_width);
}

Test(prefix, naive_takes_any_n)
{
    /* n = 1000, ℓ = 256: ⌈log n⌉ = 10 steps of ⌈1000/256⌉ = 4 blocks, and
     * Σ_{t<10} (1000 − 2^t) = 10000 − 1023 additions. */
    machine m = test_preset("mcm");
    kernel_dag *dag = build_builtin(NAIVE, params_of(1000, 256), &m);
    sim_result r = simulate(dag, &m);
    cr_expect_eq(r.costs.L_kernels, 10);
    cr_expect_eq(r.costs.N, 40);
    cr_expect_eq(r.costs.W, 10000 - 1023);
    sim_result_free(&r);
    kernel_dag_free(dag);
}

/* P = K SMs (K <= 4096 here): T <= (N/K + L)·C from the simulated costs;
 * the ratio to the closed-form T is logged (above 1 would be a finding). */
static void on_k_sms(const char *program)
{
    machine m = test_preset("mcm");
    const double points[][2] = {{1024, 256}, {16384, 256}, {262144, 256}, {1 << 20, 256}, {8192, 32}};
    for (size_t i = 0; i < sizeof points / sizeof points[0]; i++) {
        double n = points[i][0], l = points[i][1];
        vars p = params_of(n, l);
        kernel_dag *dag = build_builtin(program, p, &m);
        set_p_to_k(dag, &m);
        closed_form cf = builtin_closed_form(program, p, &m);
        sim_result r = simulate(dag, &m);
        double bound = (r.costs.N / r.costs.K + r.costs.L_kernels) * r.costs.C;
        cr_expect_leq(r.T, bound, "%s n = %g: T = %g above (N/K + L)C = %g", program, n, r.T, bound);
        cr_log_info("%s n = %g, l = %g, P = K = %d: simulated T = %g, closed-form T = %g, ratio %.4f",
                    program, n, l, m.p, r.T, cf.T, r.T / cf.T);
        sim_result_free(&r);
        kernel_dag_free(dag);
    }
}

Test(prefix, naive_on_k_sms_within_corollary_1) { on_k_sms(NAIVE); }
Test(prefix, optimal_on_k_sms_within_corollary_1) { on_k_sms(OPTIMAL); }

Test(prefix, under_theorem_1_on_any_p)
{
    machine m = test_preset("mcm");
    const char *programs[] = {NAIVE, OPTIMAL};
    const int ps[] = {1, 3, 7, 16, 100, 512};
    for (int k = 0; k < 2; k++) {
        kernel_dag *dag = build_builtin(programs[k], params_of(1 << 16, 256), &m);
        for (size_t i = 0; i < sizeof ps / sizeof ps[0]; i++) {
            m.p = ps[i];
            sim_result r = simulate(dag, &m);
            cr_expect_leq(r.T, r.bound_theorem1, "%s P = %d: T = %g, Theorem 1 %g", programs[k], m.p, r.T,
                          r.bound_theorem1);
            sim_result_free(&r);
        }
        kernel_dag_free(dag);
    }
}

/* Conclusion 1 (chapter line 203: "the bandwidth overhead n log n/w of the
 * naive algorithm is dominant when n is large.  Hence, the running time of
 * the naive algorithm is larger than the others for large n"): for n = 2^14
 * ... 2^20 the naive scan is slower, by a ratio that grows with n (its
 * N = (n/ℓ) log n against the optimal scan's 2n/ℓ). */
static void naive_loses_for_large_n(const char *name)
{
    machine m = test_preset(name);
    double previous = 0;
    for (int k = 14; k <= 20; k += 2) {
        double n = exp2(k);
        double ratio = builtin_time(NAIVE, params_of(n, 256), &m) / builtin_time(OPTIMAL, params_of(n, 256), &m);
        cr_expect_gt(ratio, 1, "%s, n = 2^%d: T(naive)/T(optimal) = %g", name, k, ratio);
        cr_expect_gt(ratio, previous, "%s, n = 2^%d: the ratio %g does not grow", name, k, ratio);
        cr_log_info("%s, n = 2^%d: T(naive)/T(optimal) = %.3f", name, k, ratio);
        previous = ratio;
    }
}

Test(prefix, naive_scan_loses_for_large_n_mcm) { naive_loses_for_large_n("mcm"); }
Test(prefix, naive_scan_loses_for_large_n_gtx670) { naive_loses_for_large_n("gtx670"); }

/* Conclusion 2 (chapter line 203: "the optimal prefix-sum algorithm takes
 * much more computing time, because its latency overhead is more than
 * 2 l log n"): at n = 2^10 the optimal scan is slower.  The MCM's only
 * latency is L·C: the optimal scan has twice the kernels on its critical
 * path, and at n = 2^10 (one round per kernel) both times are exactly the
 * sums of their kernels' C: log n·(3U+1) for the naive scan, log n·(3U+1) +
 * (log n − 1)·(4U+1) + 4U for the optimal one. */
static void optimal_has_more_latency_for_small_n(const char *name)
{
    machine m = test_preset(name);
    double log_n = 10, U = m.u;
    kernel_dag *naive = build_builtin(NAIVE, params_of(1024, 256), &m);
    kernel_dag *optimal = build_builtin(OPTIMAL, params_of(1024, 256), &m);
    sim_result rn = simulate(naive, &m), ro = simulate(optimal, &m);
    cr_expect_gt(ro.T, rn.T, "%s, n = 2^10: T(optimal) = %g, T(naive) = %g", name, ro.T, rn.T);
    cr_expect_eq(ro.costs.L_kernels, 2 * rn.costs.L_kernels);
    cr_expect_eq(rn.T, log_n * (3 * U + 1), "%s: the naive scan is pure latency at 2^10", name);
    cr_expect_eq(ro.T, log_n * (3 * U + 1) + (log_n - 1) * (4 * U + 1) + 4 * U,
                 "%s: the optimal scan is pure latency at 2^10", name);
    cr_log_info("%s, n = 2^10: T(optimal) = %g, T(naive) = %g, ratio %.3f", name, ro.T, rn.T, ro.T / rn.T);
    sim_result_free(&rn);
    sim_result_free(&ro);
    kernel_dag_free(naive);
    kernel_dag_free(optimal);
}

Test(prefix, optimal_scan_has_more_latency_for_small_n_mcm) { optimal_has_more_latency_for_small_n("mcm"); }
Test(prefix, optimal_scan_has_more_latency_for_small_n_gtx670)
{
    optimal_has_more_latency_for_small_n("gtx670");
}

/* Both conclusions together: along n = 2^10, 2^12, ..., 2^20 the winner
 * changes exactly once, from the naive scan to the optimal one. */
static void one_crossover(const char *name)
{
    machine m = test_preset(name);
    int changes = 0, naive_won = 1;
    for (int k = 10; k <= 20; k += 2) {
        double n = exp2(k);
        double naive = builtin_time(NAIVE, params_of(n, 256), &m);
        double optimal = builtin_time(OPTIMAL, params_of(n, 256), &m);
        int naive_wins = naive < optimal;
        changes += naive_wins != naive_won;
        if (naive_wins != naive_won)
            cr_log_info("%s: the optimal scan wins from n = 2^%d (%g < %g)", name, k, optimal, naive);
        naive_won = naive_wins;
    }
    cr_expect_eq(changes, 1, "%s: the winner changes %d times", name, changes);
    cr_expect_eq(naive_won, 0, "%s: the naive scan still wins at 2^20", name);
}

Test(prefix, one_crossover_mcm) { one_crossover("mcm"); }
Test(prefix, one_crossover_gtx670) { one_crossover("gtx670"); }

/* A finding, not a paper's claim: the papers' estimate, Corollary 1 (on
 * P = K SMs), cannot show conclusion 1.  The naive scan's T = 2 log n·(3U+1)
 * stays below the optimal scan's ≈ (4 + 2 log n)(4U+1) at every n: with K =
 * n/ℓ SMs its extra work is free.  The simulation on a fixed P (above) and
 * the Theorem 1 bound on that P both show it. */
Test(prefix, corollary_1_estimate_never_shows_the_naive_scan_losing)
{
    machine m = test_preset("gtx670");
    for (int k = 10; k <= 24; k += 2) {
        double n = exp2(k);
        closed_form naive = builtin_closed_form(NAIVE, params_of(n, 256), &m);
        closed_form optimal = builtin_closed_form(OPTIMAL, params_of(n, 256), &m);
        cr_expect_lt(naive.T, optimal.T, "n = 2^%d: closed-form T naive %g, optimal %g", k, naive.T, optimal.T);
        /* Theorem 1 on the card's P from the same closed forms */
        double thm_naive = (naive.N / m.p + naive.L) * naive.C;
        double thm_optimal = (optimal.N / m.p + optimal.L) * optimal.C;
        if (k >= 14)
            cr_expect_gt(thm_naive, thm_optimal, "n = 2^%d: Theorem 1 on P = %d", k, m.p);
        cr_log_info("n = 2^%d: Corollary 1 T naive %g, optimal %g; Theorem 1 (P = %d) naive %g, optimal %g", k,
                    naive.T, optimal.T, m.p, thm_naive, thm_optimal);
    }
}

/* Beyond the pure model: a kernel-launch latency (the machine field
 * `launch_latency`, 0 in the presets) adds L·latency, twice as much for the
 * optimal scan, and pushes the crossover to larger n.  With 2000 cycles per
 * launch (about 2.2 µs on the GTX 670's clock; real launches cost a few µs)
 * the naive scan wins at 2^14 and 2^16 too, where the pure model has it
 * losing, and still loses at 2^20. */
Test(prefix, launch_latency_moves_the_crossover_up)
{
    machine m = test_preset("gtx670");
    m.launch_latency = 2000;
    const int sizes[] = {14, 16, 20};
    const int naive_should_win[] = {1, 1, 0};
    for (int i = 0; i < 3; i++) {
        double n = exp2(sizes[i]);
        double naive = builtin_time(NAIVE, params_of(n, 256), &m);
        double optimal = builtin_time(OPTIMAL, params_of(n, 256), &m);
        cr_expect_eq(naive < optimal, naive_should_win[i], "n = 2^%d, launch latency 2000: naive %g, optimal %g",
                     sizes[i], naive, optimal);
        cr_log_info("gtx670 + launch latency 2000, n = 2^%d: T(naive) = %g, T(optimal) = %g", sizes[i], naive,
                    optimal);
    }
}

Test(prefix, z_constraint_and_bad_points_are_refused)
{
    machine m = test_preset("mcm"); /* Z = 12288 */
    const builtin_program *naive = builtin_find(NAIVE), *optimal = builtin_find(OPTIMAL);
    vars p = params_of(1 << 20, 4096); /* 3ℓ = Z fits, 4ℓ does not */
    kernel_dag *dag = naive->build(&p, &m);
    cr_expect_not_null(dag, "%s", fail_message());
    kernel_dag_free(dag);
    cr_expect_null(optimal->build(&p, &m));
    cr_expect(strstr(fail_message(), "program 'prefix-optimal': constraint 4ℓ <= Z does not hold "
                                     "(ℓ = 4096: 16384 > Z = 12288)") != NULL,
              "%s", fail_message());
    p = params_of(1 << 20, 8192);
    cr_expect_null(naive->build(&p, &m));
    cr_expect(strstr(fail_message(), "program 'prefix-naive': constraint 3ℓ <= Z does not hold "
                                     "(ℓ = 8192: 24576 > Z = 12288)") != NULL,
              "%s", fail_message());
    p = params_of(1000, 256);
    cr_expect_null(optimal->build(&p, &m));
    cr_expect(strstr(fail_message(), "n must be a power of two") != NULL, "%s", fail_message());
    p = params_of(1, 256);
    cr_expect_null(naive->build(&p, &m));
    cr_expect(strstr(fail_message(), "needs whole n >= 2") != NULL, "%s", fail_message());
}

/* The run file reproduces both conclusions through `mcmsim compare`. */
Test(prefix, scan_run_file_states_the_conclusion)
{
    char out[8192];
    int rc = mcmsim_output(MCMSIM_OUT_AND_ERR, out, sizeof out, "compare %s/programs/scan.cfg", MCMSIM_DATADIR);
    cr_assert_eq(rc, 0, "%s", out);
    cr_expect(strstr(out, "claim: the naive scan loses for large n") != NULL, "%s", out);
    cr_expect(strstr(out, "T(prefix-naive)/T(prefix-optimal) along n:") != NULL, "%s", out);
    cr_expect(strstr(out, "the winner changes once") != NULL, "%s", out);
}
