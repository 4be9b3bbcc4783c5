/*
 * test_plain_division.c — the plain division case study
 * (programs/plain-division/model.c: our kernel, the ping-ping phase of the
 * thesis' Euclid kernel with the divisor fixed; our closed forms).
 *
 * What is checked:
 *  - simulated N, L, W, S, O, C, K against numbers worked out by hand here
 *    from the kernel's costs (not from the program's code), and against
 *    the program's closed_form(), which must equal them exactly (no
 *    rounding is dropped: our closed forms keep the ceilings);
 *  - simulated T on P = K within Corollary 1, on other P within Theorem 1,
 *    and equal to the greedy time of the chain;
 *  - the conclusion, time linear in m − n, on `mcm` and on `gtx670`;
 *  - a point violating 3s + 2ℓ <= Z is refused with the constraint quoted.
 */
#include "helpers.h"
#include "program.h"

#include <math.h>

/* m = 0: m = n + d; l = 0: ℓ = 2s (the program's defaults). */
static vars point(double n, double m, double d, double s, double l)
{
    return test_params("n m d s l", n, m, d, s, l);
}

/* A point and its costs worked out by hand (U = 8):
 *   L = ⌈(m − n + 1)/s⌉, K = ⌈n/ℓ⌉, N = L·K,
 *   W(B) = 3(ℓs + s(s−1)/2), S(B) = 6s − 3, O(B) = 7U, C = S(B) + 7U. */
typedef struct worked {
    double n, m, d, s, l;     /* params as given */
    double L, K, N, W, S, O, C;
} worked;

static const worked points[] = {
    /* n = 2000, m − n = 500, s = 16, ℓ = 32: L = ⌈501/16⌉ = 32, K = ⌈2000/32⌉ = 63,
     * W(B) = 3(512 + 120) = 1896, S(B) = 93 */
    {2000, 0, 500, 16, 0, 32, 63, 2016, 2016.0 * 1896, 32 * 93, 2016 * 56, 149},
    /* m − n = 8000, s = 128, ℓ = 256: L = ⌈8001/128⌉ = 63, K = 8,
     * W(B) = 3(32768 + 8128) = 122688, S(B) = 765 */
    {2000, 0, 8000, 128, 0, 63, 8, 504, 504.0 * 122688, 63 * 765, 504 * 56, 821},
    /* s = 1, ℓ = 2: L = 101 steps, K = 100, W(B) = 6, S(B) = 3 */
    {200, 0, 100, 1, 0, 101, 100, 10100, 10100.0 * 6, 101 * 3, 10100 * 56, 59},
    /* m given (d ignored), ℓ = 64 ≠ 2s: L = ⌈601/8⌉ = 76, K = 16,
     * W(B) = 3(512 + 28) = 1620, S(B) = 45 */
    {1000, 1600, 999, 8, 64, 76, 16, 1216, 1216.0 * 1620, 76 * 45, 1216 * 56, 101},
};

Test(plain_division, costs_equal_the_closed_forms_exactly)
{
    machine mach = test_preset("mcm");
    cr_assert_eq(mach.u, 8, "the worked points assume U = 8");
    for (size_t i = 0; i < sizeof points / sizeof points[0]; i++) {
        const worked *w = &points[i];
        vars v = point(w->n, w->m, w->d, w->s, w->l);
        sim_result r = run_builtin("plain-division", v, &mach);
        const dag_costs *c = &r.costs;
        cr_expect_eq(c->L_kernels, w->L, "point %zu: L %d", i, c->L_kernels);
        cr_expect_eq(c->K, w->K, "point %zu: K %g", i, c->K);
        cr_expect_eq(c->N, w->N, "point %zu: N %g", i, c->N);
        cr_expect_eq(c->W, w->W, "point %zu: W %g", i, c->W);
        cr_expect_eq(c->S, w->S, "point %zu: S %g", i, c->S);
        cr_expect_eq(c->O, w->O, "point %zu: O %g", i, c->O);
        cr_expect_eq(c->C, w->C, "point %zu: C %g", i, c->C);
        closed_form p = builtin_closed_form("plain-division", v, &mach);
        cr_expect_eq(p.L, w->L);
        cr_expect_eq(p.N, w->N);
        cr_expect_eq(p.W, w->W);
        cr_expect_eq(p.S, w->S);
        cr_expect_eq(p.O, w->O);
        cr_expect_eq(p.C, w->C);
        cr_expect_eq(p.T, (w->N / w->K + w->L) * w->C, "T is Corollary 1");
        sim_result_free(&r);
    }
}

Test(plain_division, one_kernel_record_per_call)
{
    machine mach = test_preset("gtx670");
    vars v = point(2000, 0, 8000, 1, 0); /* 8001 calls of 1000 blocks */
    kernel_dag *dag = build_builtin("plain-division", v, &mach);
    cr_expect_eq(dag->n, 8001);
    cr_expect_eq(dag->kernels[0].blocks, 1000);
    cr_expect_eq(dag->kernels[0].threads, 2);
    cr_expect_eq(dag->kernels[0].private_words, 3 + 2 * 2);
    kernel_dag_free(dag);
}

Test(plain_division, corollary_1_on_p_equal_k)
{
    const double pts[][3] = {{2000, 500, 16}, {2000, 8000, 128}, {2000, 200, 1}, {2000, 4000, 16}};
    for (size_t i = 0; i < sizeof pts / sizeof pts[0]; i++) {
        machine mach = test_preset("gtx670");
        vars v = point(pts[i][0], 0, pts[i][1], pts[i][2], 0);
        kernel_dag *dag = build_builtin("plain-division", v, &mach);
        dag_costs c = checked_costs(dag, &mach);
        mach.p = (int)c.K;
        sim_result r = simulate(dag, &mach);
        double cor1 = (r.costs.N / c.K + r.costs.L_kernels) * r.costs.C;
        cr_expect_leq(r.T, cor1);
        cr_expect_eq(r.T, r.costs.L_kernels * r.costs.C, "one round of C per call on K SMs");
        closed_form p = builtin_closed_form("plain-division", v, &mach);
        cr_log_info("plain-division n=%g m-n=%g s=%g on P = K = %g: T %g, Corollary 1 %g, closed-form T %g, "
                    "T/closed form %.3f", pts[i][0], pts[i][1], pts[i][2], c.K, r.T, cor1, p.T, r.T / p.T);
        sim_result_free(&r);
        kernel_dag_free(dag);
    }
}

Test(plain_division, theorem_1_on_other_p)
{
    const int ps[] = {1, 5, 7, 16, 40};
    for (size_t i = 0; i < sizeof ps / sizeof ps[0]; i++) {
        machine mach = test_preset("mcm");
        mach.p = ps[i];
        vars v = point(2000, 0, 1000, 16, 0); /* L = 63 calls of K = 63 blocks */
        sim_result r = run_builtin("plain-division", v, &mach);
        cr_expect_leq(r.T, r.bound_theorem1, "P = %d", ps[i]);
        cr_expect_eq(r.T, 63 * ceil(63.0 / ps[i]) * r.costs.C, "P = %d: greedy time of the chain", ps[i]);
        sim_result_free(&r);
    }
}

/* The conclusion: the time is linear in m − n.  T = ⌈(d+1)/s⌉·⌈K/P⌉·C
 * exactly (a chain of equal calls); the only departure from a line is the
 * rounding to whole calls (less than one call in ⌈(d+1)/s⌉).  We ask for
 * that law at every point, for a least-squares line through the points
 * with R² >= 0.999, and for the per-unit costs T/d to agree within that
 * rounding: ⌈(d+1)/s⌉/d lies in [(d+1)/(sd), (d+1+s)/(sd)), so T/d at the
 * smallest and the largest d differ by less than a factor
 * (d_min + 1 + s)/d_min. */
static void linear_in_m_minus_n(const char *preset_name, double n, double s, const double *ds, int count)
{
    machine mach = test_preset(preset_name);
    double T[8], sx = 0, sy = 0, sxx = 0, sxy = 0, syy = 0;
    for (int i = 0; i < count; i++) {
        vars v = point(n, 0, ds[i], s, 0);
        sim_result r = run_builtin("plain-division", v, &mach);
        T[i] = r.T;
        double rounds = ceil(r.costs.K / mach.p);
        cr_expect_eq(r.T, ceil((ds[i] + 1) / s) * rounds * r.costs.C, "%s s=%g d=%g", preset_name, s, ds[i]);
        sx += ds[i], sy += T[i], sxx += ds[i] * ds[i], sxy += ds[i] * T[i], syy += T[i] * T[i];
        sim_result_free(&r);
    }
    double slope = (count * sxy - sx * sy) / (count * sxx - sx * sx);
    double r2 = pow(count * sxy - sx * sy, 2) / ((count * sxx - sx * sx) * (count * syy - sy * sy));
    double first = T[0] / ds[0], last = T[count - 1] / ds[count - 1];
    cr_expect_geq(r2, 0.999, "%s s=%g: R² = %g", preset_name, s, r2);
    cr_expect_lt(fmax(first, last) / fmin(first, last), (ds[0] + 1 + s) / ds[0], "%s s=%g: T/d %g vs %g",
                  preset_name, s, first, last);
    cr_log_info("plain-division on %s, n = %g, s = %g: T per unit of m − n %.2f .. %.2f, slope %.2f, R² %.6f",
                preset_name, n, s, first, last, slope, r2);
}

static void conclusion(const char *preset_name)
{
    const double ds[] = {500, 1000, 2000, 4000, 8000};
    linear_in_m_minus_n(preset_name, 2000, 16, ds, 5);
    linear_in_m_minus_n(preset_name, 2000, 128, ds, 5);
    /* s = 1 (ℓ = 2) on a smaller divisor: n = 2000 would be 15 million
     * blocks; the law does not depend on n */
    linear_in_m_minus_n(preset_name, 200, 1, ds, 4);
}

Test(plain_division, conclusion_linear_in_m_minus_n_on_mcm, .timeout = 60) { conclusion("mcm"); }
Test(plain_division, conclusion_linear_in_m_minus_n_on_gtx670, .timeout = 60) { conclusion("gtx670"); }

Test(plain_division, z_constraint_refused_with_the_constraint_quoted)
{
    machine mach = test_preset("gtx670"); /* Z = 12288 */
    vars fits = point(20000, 0, 4000, 1755, 0); /* 3·1755 + 2·3510 = 12285 */
    kernel_dag *dag = test_builtin("plain-division")->build(&fits, &mach);
    cr_expect_not_null(dag, "%s", fail_message());
    kernel_dag_free(dag);
    vars over = point(20000, 0, 4000, 1756, 0); /* 3·1756 + 2·3512 = 12292 > Z */
    cr_expect_null(test_builtin("plain-division")->build(&over, &mach));
    cr_expect(strstr(fail_message(), "constraint 3s + 2ℓ <= Z does not hold") != NULL, "%s", fail_message());
    cr_expect(strstr(fail_message(), "12292 > Z = 12288") != NULL, "%s", fail_message());
}

Test(plain_division, z_constraint_refused_by_the_cli)
{
    char err[1024];
    int status = mcmsim_output(MCMSIM_ERR_ONLY, err, sizeof err,
                               "run %s/programs/plain-division/plain-division.cfg --set s=2048", MCMSIM_DATADIR);
    cr_expect_neq(status, 0);
    cr_expect(strstr(err, "3s + 2ℓ <= Z") != NULL, "stderr: %s", err);
}

Test(plain_division, bad_points_refused)
{
    machine mach = test_preset("mcm");
    vars no_quotient = point(100, 100, 0, 4, 0); /* m = n */
    cr_expect_null(test_builtin("plain-division")->build(&no_quotient, &mach));
    cr_expect(strstr(fail_message(), "m > n") != NULL, "%s", fail_message());
    vars few_threads = point(100, 0, 50, 16, 8); /* s > ℓ */
    cr_expect_null(test_builtin("plain-division")->build(&few_threads, &mach));
    cr_expect(strstr(fail_message(), "s <= ℓ") != NULL, "%s", fail_message());
    vars zero_s = point(100, 0, 50, 0, 0);
    cr_expect_null(test_builtin("plain-division")->build(&zero_s, &mach));
}
