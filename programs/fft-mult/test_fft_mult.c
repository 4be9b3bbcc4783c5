/*
 * test_fft_mult.c — FFT-based multiplication (programs/fft_mult.c, paper
 * §5.2, thesis App. B line 5822): closed forms against the simulated
 * costs, the bounds, bad points, and the paper's conclusion against plain
 * multiplication (§5.3, Figure 7) on the `mcm` and `gtx670` presets.
 *
 * The program's n, m are input sizes; the closed forms are the paper's at
 * the FFT size N = the least power of two >= n + m − 1 (fft_mult.c says
 * why).  Tolerances: for power-of-two N every grid is whole and W, S, O,
 * N, L are whole numbers below 2^53, equal to the paper's exactly.  C is
 * checked against max(25 + 2U, 8 + 4U), the largest S(B) + O(B) (the
 * paper's 4U + 25 adds the largest span to the largest overhead).
 */
#include "helpers.h"
#include "program.h"

#include <math.h>

/* n = m unless mm says otherwise (mm = 0: the program's m = n). */
static vars params_of(double n, double mm, double l) { return test_params("n m l", n, mm, l); }

static closed_form closed(double n, double mm, double l, const machine *m)
{
    return builtin_closed_form("fft-mult", params_of(n, mm, l), m);
}

static double time_of(const char *program, double n, double l, const machine *m)
{
    vars p = params_of(n, 0, l);
    if (strcmp(program, "plain-mult") == 0)
        vars_set(&p, "s", 4); /* the paper's choice for the comparison (§5.3) */
    return builtin_time(program, p, m);
}

Test(fft_mult, closed_forms_against_the_simulated_costs)
{
    machine m = test_preset("mcm");
    const double points[][2] = {{256, 256}, {1024, 256}, {4096, 256}, {1 << 16, 256},
                                {4096, 128}, {64, 32}};
    for (size_t i = 0; i < sizeof points / sizeof points[0]; i++) {
        double n = points[i][0], l = points[i][1], U = m.u, N = 2 * n;
        kernel_dag *dag = build_builtin("fft-mult", params_of(n, 0, l), &m);
        sim_result r = simulate(dag, &m);
        closed_form cf = closed(n, 0, l, &m);
        const dag_costs *c = &r.costs;
        double k = log2(N);
        cr_expect_eq(cf.L, 9 * k - 4, "n = %g: the closed forms are at the FFT size 2n", n);
        cr_expect_eq(c->W, cf.W, "n = %g, l = %g: W %g, paper %g", n, l, c->W, cf.W);
        cr_expect_eq(c->S, cf.S, "n = %g, l = %g: S %g, paper %g", n, l, c->S, cf.S);
        cr_expect_eq(c->O, cf.O, "n = %g, l = %g: O %g, paper %g", n, l, c->O, cf.O);
        cr_expect_eq(c->N, cf.N, "n = %g, l = %g: N %g, paper %g", n, l, c->N, cf.N);
        cr_expect_eq(c->L_kernels, cf.L, "n = %g, l = %g: L %d, paper %g", n, l, c->L_kernels, cf.L);
        cr_expect_eq(c->C, fmax(25 + 2 * U, 8 + 4 * U), "n = %g, l = %g: C %g (paper %g)", n, l,
                     c->C, cf.C);
        cr_expect_eq(c->K, N / l);
        sim_result_free(&r);
        kernel_dag_free(dag);
    }
}

Test(fft_mult, fft_size_holds_the_product)
{
    /* N = the least power of two >= n + m − 1. */
    machine m = test_preset("mcm");
    const double cases[][3] = {{1000, 600, 2048}, {1024, 1, 1024}, {1024, 2, 2048},
                               {1024, 0, 2048},   {513, 512, 1024}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        closed_form cf = closed(cases[i][0], cases[i][1], 128, &m);
        double N = cases[i][2];
        cr_expect_eq(cf.L, 9 * log2(N) - 4, "n = %g, m = %g: FFT size %g expected", cases[i][0],
                     cases[i][1], N);
        kernel_dag *dag = build_builtin("fft-mult", params_of(cases[i][0], cases[i][1], 128), &m);
        cr_expect_eq(dag->kernels[0].blocks, N / 256, "the first FFT kernel: N/(2ℓ) blocks");
        kernel_dag_free(dag);
    }
}

Test(fft_mult, paper_T_is_corollary_1_of_the_paper_N_L_C)
{
    machine m = test_preset("gtx670");
    for (int k = 8; k <= 20; k++) {
        double n = ldexp(1, k), l = 256, N = 2 * n;
        closed_form cf = closed(n, 0, l, &m);
        double T = (cf.N / (N / l) + cf.L) * cf.C;
        cr_expect(fabs(T - cf.T) <= 1e-12 * T, "n = 2^%d: %.17g vs %.17g", k, T, cf.T);
    }
}

Test(fft_mult, on_k_sms_within_corollary_1)
{
    machine m = test_preset("mcm");
    const double sizes[] = {256, 4096, 1 << 16};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        double n = sizes[i], l = 256;
        kernel_dag *dag = build_builtin("fft-mult", params_of(n, 0, l), &m);
        closed_form cf = closed(n, 0, l, &m);
        m.p = (int)(2 * n / l);
        sim_result r = simulate(dag, &m);
        cr_expect_eq(r.costs.K, m.p);
        double bound = (r.costs.N / r.costs.K + r.costs.L_kernels) * r.costs.C;
        cr_expect(r.T <= bound, "n = %g: T = %g > (N/K + L)·C = %g", n, r.T, bound);
        cr_log_info("fft-mult n = m = %g (FFT size %g), l = %g, P = K = %d: simulated T = %g, "
                    "paper's T = %g, ratio %.3f%s", n, 2 * n, l, m.p, r.T, cf.T, r.T / cf.T,
                    r.T > cf.T ? " (ABOVE 1: a finding)" : "");
        sim_result_free(&r);
        kernel_dag_free(dag);
    }
}

Test(fft_mult, within_theorem_1_on_any_p)
{
    machine m = test_preset("gtx670");
    kernel_dag *dag = build_builtin("fft-mult", params_of(4096, 0, 256), &m);
    expect_theorem_1_on_any_p(dag, m);
    kernel_dag_free(dag);
}

Test(fft_mult, bad_points_fail_quoting_the_rule)
{
    machine m = test_preset("mcm"); /* Z = 12288 */
    const builtin_program *b = builtin_find("fft-mult");
    vars p = params_of(1 << 14, 0, 4096); /* 4·4096 = 16384 > Z */
    fail_clear();
    cr_expect_null(b->build(&p, &m));
    cr_expect(strstr(fail_message(), "constraint 4ℓ <= Z does not hold") != NULL, "%s", fail_message());
    p = params_of(1 << 14, 0, 2048); /* 8192 <= Z: fine */
    kernel_dag *dag = b->build(&p, &m);
    cr_expect_not_null(dag, "%s", fail_message());
    kernel_dag_free(dag);
    p = params_of(100, 200, 256); /* m > n */
    cr_expect_null(b->build(&p, &m));
    cr_expect(strstr(fail_message(), "n >= m") != NULL, "%s", fail_message());
    p = params_of(64, 0, 256); /* FFT size 128 < 2ℓ */
    cr_expect_null(b->build(&p, &m));
    cr_expect(strstr(fail_message(), "n >= 2ℓ") != NULL, "%s", fail_message());
}

/* ---- the paper's conclusion (§5.3, Figure 7): ℓ = 256, s = 4, n = m ---- */

/* Plain wins at the smallest n, FFT-based at the largest, and the winner
 * changes once.  n = 2^8 .. 2^14 (the paper's grid goes to 2^16, which
 * programs/mult.cfg runs; 2^15 and 2^16 would add millions of plain-mult
 * blocks to this test for no new information: the ratio only grows). */
static void plain_then_fft(const char *name)
{
    machine m = test_preset(name);
    double ratio[7];
    int changes = 0, crossover = 0;
    for (int k = 8; k <= 14; k++) {
        double n = ldexp(1, k);
        ratio[k - 8] = time_of("plain-mult", n, 256, &m) / time_of("fft-mult", n, 256, &m);
        cr_log_info("%s: n = m = 2^%d: T_plain/T_fft = %.3f", name, k, ratio[k - 8]);
        if (k > 8 && (ratio[k - 8] > 1) != (ratio[k - 9] > 1)) {
            changes++;
            crossover = k;
        }
    }
    cr_expect(ratio[0] < 1, "%s, n = 2^8: plain should win (T_plain/T_fft = %g)", name, ratio[0]);
    cr_expect(ratio[6] > 1, "%s, n = 2^14: FFT-based should win (T_plain/T_fft = %g)", name, ratio[6]);
    cr_expect_eq(changes, 1, "%s: the winner should change once, not %d times", name, changes);
    cr_log_info("%s: plain-mult wins below n = 2^%d, fft-mult from there on", name, crossover);
}

Test(fft_mult, conclusion_plain_wins_small_n_fft_large_n_mcm, .timeout = 60)
{
    plain_then_fft("mcm");
}

Test(fft_mult, conclusion_plain_wins_small_n_fft_large_n_gtx670, .timeout = 60)
{
    plain_then_fft("gtx670");
}
