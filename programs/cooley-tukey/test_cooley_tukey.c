/*
 * test_cooley_tukey.c — the Cooley–Tukey FFT (programs/cooley-tukey/model.c,
 * paper §4.1, thesis App. B line 5045): closed forms against the simulated
 * costs, the bounds, bad points.  The paper's conclusion (Stockham is
 * faster) is tested in test_stockham.c.
 *
 * Tolerances.  n, m, ℓ are powers of two with n >= mℓ, so the grids are
 * whole: N, L, S, O are whole numbers below 2^53 and equal the paper's
 * exactly.  W is not: the worksheet's butterfly block does
 * 34 log2(ℓ!) + 27ℓ operations and the paper writes 34 ℓ log ℓ + 27ℓ, so
 * the test checks that the paper's W exceeds the simulated one by exactly
 * 34 n (log n − log m)(log ℓ − log2(ℓ!)/ℓ), to N·ε·W (ε = DBL_EPSILON):
 * log2(ℓ!) is not a binary fraction (it comes from lgamma), and the engine
 * sums W block by block, N additions each rounding by at most ε·W, the
 * worst-case error of that sum.  C is checked against
 * the largest S(B) + O(B) of the three kinds of block (the paper's C
 * forgets the dft_m block).
 */
#include "helpers.h"
#include "program.h"

#include <float.h>
#include <math.h>

#define CT "cooley-tukey"

static vars params_of(double n, double mm, double l) { return test_params("n m l", n, mm, l); }

static int close_to(double a, double b, double rel)
{
    return fabs(a - b) <= rel * fmax(fabs(a), fabs(b));
}

Test(cooley_tukey, closed_forms_against_the_simulated_costs)
{
    machine m = test_preset("mcm");
    const double points[][3] = {{1 << 14, 16, 128}, {1 << 16, 16, 128}, {1 << 20, 16, 128},
                                {1 << 12, 16, 64},  {1 << 16, 8, 256},  {1 << 18, 32, 64},
                                {1 << 11, 2, 32}};
    for (size_t i = 0; i < sizeof points / sizeof points[0]; i++) {
        double n = points[i][0], mm = points[i][1], l = points[i][2], U = m.u;
        double k = log2(n), r = log2(mm), ll = log2(l);
        kernel_dag *dag = build_builtin(CT, params_of(n, mm, l), &m);
        sim_result res = simulate(dag, &m);
        closed_form cf = builtin_closed_form(CT, params_of(n, mm, l), &m);
        const dag_costs *c = &res.costs;
        cr_expect_eq(c->N, cf.N, "n = %g, m = %g, l = %g: N %g, paper %g", n, mm, l, c->N, cf.N);
        cr_expect_eq(c->L_kernels, cf.L, "n = %g, m = %g, l = %g: L %d, paper %g", n, mm, l,
                     c->L_kernels, cf.L);
        cr_expect_eq(c->S, cf.S, "n = %g, m = %g, l = %g: S %g, paper %g", n, mm, l, c->S, cf.S);
        cr_expect_eq(c->O, cf.O, "n = %g, m = %g, l = %g: O %g, paper %g", n, mm, l, c->O, cf.O);
        double log2_factorial = lgamma(l + 1) / log(2.0);
        double gap = 34 * n * (k - r) * (ll - log2_factorial / l);
        cr_expect(fabs(cf.W - c->W - gap) <= c->N * DBL_EPSILON * cf.W,
                  "n = %g, m = %g, l = %g: paper W − simulated W = %.17g, expected %.17g", n, mm, l,
                  cf.W - c->W, gap);
        double dft_m = 32 * r * (mm - 1) + 30 * mm + 11 + 2 * mm * U;
        double C = fmax(fmax(20 + 2 * U + 2 * U * l, dft_m), 34 * ll + 27 + 4 * U);
        cr_expect_eq(c->C, C, "n = %g, m = %g, l = %g: C %g, expected %g (paper %g)", n, mm, l,
                     c->C, C, cf.C);
        cr_expect_eq(c->K, n / l);
        cr_log_info("cooley-tukey n = %g, m = %g, l = %g: simulated C %g, paper's C %g; W %.6g, "
                    "paper's %.6g (%.1f%% more)", n, mm, l, c->C, cf.C, c->W, cf.W,
                    100 * (cf.W / c->W - 1));
        sim_result_free(&res);
        kernel_dag_free(dag);
    }
}

Test(cooley_tukey, paper_T_is_corollary_1_of_the_paper_N_L_C)
{
    machine m = test_preset("gtx670");
    for (int k = 11; k <= 24; k++) {
        double n = ldexp(1, k), l = 128;
        closed_form cf = builtin_closed_form(CT, params_of(n, 16, l), &m);
        double T = (cf.N / (n / l) + cf.L) * cf.C;
        cr_expect(close_to(T, cf.T, 1e-12), "n = 2^%d: %.17g vs %.17g", k, T, cf.T);
    }
}

Test(cooley_tukey, the_dag_is_the_papers_kernels_in_order)
{
    /* n = 2^14, m = 16, ℓ = 128: 10 transpositions (the first 7 = log ℓ
     * writing uncoalesced), one dft_m of n/(mℓ) = 8 blocks, 10 butterflies. */
    machine m = test_preset("mcm");
    kernel_dag *dag = build_builtin(CT, params_of(1 << 14, 16, 128), &m);
    cr_assert_eq(dag->n, 21);
    for (int j = 0; j < 10; j++) {
        const kernel *t = &dag->kernels[j];
        cr_expect_eq(t->blocks, 128);
        cr_expect_eq(t->cost.uncoalesced_writes, j < 7 ? 2 : 0, "transpose[%d]", j);
        cr_expect_eq(t->cost.writes, j < 7 ? 0 : 2, "transpose[%d]", j);
        cr_expect_eq(dag->kernels[11 + j].blocks, 128);
    }
    cr_expect_str_eq(dag->kernels[10].name, "dft_m");
    cr_expect_eq(dag->kernels[10].blocks, 8);
    cr_expect_eq(block_overhead(&dag->kernels[0], 8), 2 * 8 + 2 * 8 * 128, "2U + 2Uℓ");
    cr_expect_eq(block_overhead(&dag->kernels[9], 8), 4 * 8);
    cr_expect_eq(block_overhead(&dag->kernels[10], 8), 2 * 16 * 8, "2mU");
    cr_expect_eq(block_overhead(&dag->kernels[20], 8), 4 * 8);
    kernel_dag_free(dag);
}

Test(cooley_tukey, on_k_sms_within_corollary_1)
{
    machine m = test_preset("mcm");
    const double sizes[] = {1 << 14, 1 << 16, 1 << 18};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        double n = sizes[i], l = 128;
        kernel_dag *dag = build_builtin(CT, params_of(n, 16, l), &m);
        closed_form cf = builtin_closed_form(CT, params_of(n, 16, l), &m);
        m.p = (int)(n / l);
        sim_result r = simulate(dag, &m);
        cr_expect_eq(r.costs.K, m.p);
        double bound = (r.costs.N / r.costs.K + r.costs.L_kernels) * r.costs.C;
        cr_expect(r.T <= bound, "n = %g: T = %g > (N/K + L)·C = %g", n, r.T, bound);
        cr_log_info("cooley-tukey n = %g, l = %g, P = K = %d: simulated T = %g, paper's T = %g, "
                    "ratio %.3f%s", n, l, m.p, r.T, cf.T, r.T / cf.T,
                    r.T > cf.T ? " (ABOVE 1: a finding)" : "");
        sim_result_free(&r);
        kernel_dag_free(dag);
    }
}

Test(cooley_tukey, within_theorem_1_on_any_p)
{
    machine m = test_preset("gtx670");
    kernel_dag *dag = build_builtin(CT, params_of(1 << 15, 16, 128), &m);
    expect_theorem_1_on_any_p(dag, m);
    kernel_dag_free(dag);
}

Test(cooley_tukey, bad_points_fail_quoting_the_rule)
{
    machine m = test_preset("mcm"); /* Z = 12288 */
    const builtin_program *b = builtin_find("cooley-tukey");
    vars p = params_of(1 << 16, 16, 512); /* 2·16·512 = 16384 > Z */
    fail_clear();
    cr_expect_null(b->build(&p, &m));
    cr_expect(strstr(fail_message(), "constraint 2mℓ <= Z does not hold") != NULL, "%s",
              fail_message());
    p = params_of(1 << 16, 16, 256); /* 8192 <= Z: fine */
    kernel_dag *dag = b->build(&p, &m);
    cr_expect_not_null(dag, "%s", fail_message());
    kernel_dag_free(dag);
    p = params_of(1 << 16, 12, 128);
    cr_expect_null(b->build(&p, &m));
    cr_expect(strstr(fail_message(), "powers of two") != NULL, "%s", fail_message());
    p = params_of(1 << 10, 16, 128); /* n < mℓ */
    cr_expect_null(b->build(&p, &m));
    cr_expect(strstr(fail_message(), "n >= mℓ") != NULL, "%s", fail_message());
}

/* Found by `make fuzz` (fuzz_runfile): n = 0 or a fractional ℓ had their
 * log2 taken into an int before the check (-inf into an int, undefined
 * behaviour that UBSan reports).  Now a clean refusal; under SAN=1 the
 * conversion itself would fail the test. */
Test(cooley_tukey, n_zero_and_fractional_l_are_refused_before_any_log)
{
    machine m = test_preset("gtx670");
    const builtin_program *b = builtin_find("cooley-tukey");
    const double bad[][3] = {{0, 16, 128}, {1 << 20, 16, 1.8}, {-4, 16, 128}, {1 << 20, 0, 128}};
    for (int i = 0; i < 4; i++) {
        vars p = params_of(bad[i][0], bad[i][1], bad[i][2]);
        fail_clear();
        cr_expect_null(b->build(&p, &m));
        cr_expect(strstr(fail_message(), "powers of two") != NULL, "%s", fail_message());
    }
}
