/*
 * test_radix_sort.c — radix sort with parameter s (programs/radix_sort.c;
 * thesis §4.6, App. B line 6067): the closed forms against the simulated
 * costs, the bounds, the thesis' conclusion on the `mcm` and `gtx670`
 * presets, and the Z constraints.
 *
 * Tolerance 0: when n is a multiple of 4ℓ, n2^s a multiple of 16ℓ² with at
 * least two scan blocks (n2^s >= 32ℓ²), and s divides c, every grid of the
 * worksheet is a whole number and the simulated W, S, O, N, L, C must equal
 * the thesis' closed forms (with SPEC §2's fixes: W's "+1" is "+1/s", O's
 * "172^s" is 17·2^s) exactly.  All per-block costs are whole numbers and
 * every total stays below 2^53, so the floating-point sums are exact.
 */
#include "helpers.h"
#include "program.h"

#include <math.h>

#define RADIX "radix-sort"
#define AT "n = %g, c = %g, s = %g, l = %g: %s %.17g, closed form %.17g"

static vars params_of(double n, double c, double s, double l) { return test_params("n c s l", n, c, s, l); }

/* Simulated run at n = 2^20, c = 32, ℓ = 256; P = K when `on_k`. */
static sim_result run_paper_size(double s, const machine *preset_machine, int on_k)
{
    vars p = params_of(1 << 20, 32, s, 256);
    return on_k ? run_builtin_on_k(RADIX, p, preset_machine) : run_builtin(RADIX, p, preset_machine);
}

static const double cost_points[][4] = {
    /* n, c, s, l */
    {1 << 20, 32, 1, 256}, {1 << 20, 32, 2, 256}, {1 << 20, 32, 4, 256}, {1 << 20, 32, 8, 256},
    {1 << 16, 16, 4, 64},  {1 << 18, 32, 8, 128}, {1 << 20, 24, 12, 256}, {1 << 17, 30, 3, 32},
};

Test(radix_sort, closed_forms_equal_the_simulated_costs)
{
    machine mach = test_preset("mcm");
    for (size_t i = 0; i < sizeof cost_points / sizeof cost_points[0]; i++) {
        double n = cost_points[i][0], c = cost_points[i][1], s = cost_points[i][2], l = cost_points[i][3];
        vars p = params_of(n, c, s, l);
        kernel_dag *dag = build_builtin(RADIX, p, &mach);
        sim_result r = simulate(dag, &mach);
        closed_form cf = builtin_closed_form(RADIX, p, &mach);
        const dag_costs *k = &r.costs;
        cr_expect_eq(k->N, cf.N, AT, n, c, s, l, "N", k->N, cf.N);
        cr_expect_eq(k->L_kernels, cf.L, AT, n, c, s, l, "L", (double)k->L_kernels, cf.L);
        cr_expect_eq(k->W, cf.W, AT, n, c, s, l, "W", k->W, cf.W);
        cr_expect_eq(k->S, cf.S, AT, n, c, s, l, "S", k->S, cf.S);
        cr_expect_eq(k->O, cf.O, AT, n, c, s, l, "O", k->O, cf.O);
        cr_expect_eq(k->C, cf.C, AT, n, c, s, l, "C", k->C, cf.C);
        /* K: the thesis' n/(4ℓ), unless the scan grid n2^s/(16ℓ²) is wider */
        double K = fmax(n / (4 * l), n * exp2(s) / (16 * l * l));
        cr_expect_eq(k->K, K, AT, n, c, s, l, "K", k->K, K);
        if (K == n / (4 * l))
            cr_expect_eq(r.bound_corollary1, cf.T, AT, n, c, s, l, "Corollary 1", r.bound_corollary1, cf.T);
        sim_result_free(&r);
        kernel_dag_free(dag);
    }
}

/* The thesis' W_s and O_s as printed in §4.6 (lines 1943, 1947) with only
 * the "172^s" → 17·2^s fix differ from the worksheet's (4.1) by the "+1"
 * (which is "+1/s"): check that the fixed forms are the ones that match,
 * i.e. that the typo fix is needed, at s = 8. */
Test(radix_sort, the_spec_typo_fix_is_needed)
{
    machine mach = test_preset("mcm");
    double n = 1 << 20, c = 32, s = 8, l = 256;
    kernel_dag *dag = build_builtin(RADIX, params_of(n, c, s, l), &mach);
    sim_result r = simulate(dag, &mach);
    double b = exp2(s);
    double w_as_printed = c * ((22 * s * l + s + 12) / (4 * s * l) + (b + 20 * b * l) / (16 * s * l * l) + 1) * n +
                          c * (16 + 192 * l) / (16 * s);
    cr_expect_neq(r.costs.W, w_as_printed);
    cr_expect_eq(r.costs.W, w_as_printed - c * n + c * n / s, "the +1 is +1/s");
    cr_log_info("s = 8: simulated W = %g, W as printed in §4.6 = %g, with +1/s = %g", r.costs.W, w_as_printed,
                w_as_printed - c * n + c * n / s);
    sim_result_free(&r);
    kernel_dag_free(dag);
}

Test(radix_sort, on_k_sms_within_corollary_1)
{
    machine mach = test_preset("mcm");
    const double ss[] = {1, 2, 4, 8};
    for (int i = 0; i < 4; i++) {
        machine on_k = mach;
        vars p = params_of(1 << 20, 32, ss[i], 256);
        kernel_dag *dag = build_builtin(RADIX, p, &on_k);
        set_p_to_k(dag, &on_k);
        closed_form cf = builtin_closed_form(RADIX, p, &on_k);
        sim_result r = simulate(dag, &on_k);
        double bound = (r.costs.N / r.costs.K + r.costs.L_kernels) * r.costs.C;
        cr_expect_leq(r.T, bound, "s = %g: T = %g above (N/K + L)C = %g", ss[i], r.T, bound);
        cr_log_info("n = 2^20, c = 32, s = %g, l = 256, P = K = %d: simulated T = %g, closed-form T = %g, "
                    "ratio %.4f", ss[i], on_k.p, r.T, cf.T, r.T / cf.T);
        sim_result_free(&r);
        kernel_dag_free(dag);
    }
}

Test(radix_sort, under_theorem_1_on_any_p)
{
    machine mach = test_preset("gtx670");
    const int ps[] = {1, 3, 7, 16, 100, 1000};
    const double ss[] = {1, 4, 8};
    for (int k = 0; k < 3; k++) {
        kernel_dag *dag = build_builtin(RADIX, params_of(1 << 18, 32, ss[k], 256), &mach);
        for (size_t i = 0; i < sizeof ps / sizeof ps[0]; i++) {
            mach.p = ps[i];
            sim_result r = simulate(dag, &mach);
            cr_expect_leq(r.T, r.bound_theorem1, "s = %g, P = %d: T = %g, Theorem 1 %g", ss[k], mach.p, r.T,
                          r.bound_theorem1);
            sim_result_free(&r);
        }
        kernel_dag_free(dag);
    }
}

/* The thesis' conclusion (§4.6, line 1960: "if 2^s = Θ(ℓ) holds, we can
 * reduce the parallelism overhead by a factor of s"; line 1975: the
 * estimated running time improves, R > 1 at s = log ℓ).  At n = 2^20,
 * c = 32, ℓ = 256, for s = 2, 4, 8 (2^s <= ℓ):
 *   - the simulated O_1/O_s equals the thesis' exact ratio, grows with s
 *     and stays between s/2 and s (s = 8: 6.48, the asymptotic form
 *     s(72ℓ + 34)/(72ℓ + 17·2^s) gives the same to 3 digits);
 *   - the simulated T falls as s grows to log ℓ = 8, on the preset's P
 *     (the card's 7 SMs, mcm's 16) and on P = K. */
static void two_to_the_s_of_order_l_reduces_overhead(const char *name)
{
    machine mach = test_preset(name);
    sim_result one = run_paper_size(1, &mach, 0);
    closed_form cf_one = builtin_closed_form(RADIX, params_of(1 << 20, 32, 1, 256), &mach);
    double previous_ratio = 1, previous_T = one.T, previous_T_k = INFINITY;
    for (double s = 2; s <= 8; s *= 2) {
        sim_result r = run_paper_size(s, &mach, 0);
        closed_form cf = builtin_closed_form(RADIX, params_of(1 << 20, 32, s, 256), &mach);
        double ratio = one.costs.O / r.costs.O, l = 256;
        double asymptotic = s * (72 * l + 34) / (72 * l + 17 * exp2(s));
        cr_expect_float_eq(ratio, cf_one.O / cf.O, 1e-12, "%s, s = %g", name, s);
        cr_expect_gt(ratio, previous_ratio, "%s, s = %g: O_1/O_s = %g", name, s, ratio);
        cr_expect_gt(ratio, s / 2, "%s, s = %g: O_1/O_s = %g", name, s, ratio);
        cr_expect_leq(ratio, s, "%s, s = %g: O_1/O_s = %g", name, s, ratio);
        cr_expect_lt(r.T, previous_T, "%s (P = %d), s = %g: T = %g", name, mach.p, s, r.T);
        cr_log_info("%s (P = %d), n = 2^20: s = %g: O_1/O_s = %.3f (asymptotic form %.3f), T_1/T_s = %.3f", name,
                    mach.p, s, ratio, asymptotic, one.T / r.T);
        previous_ratio = ratio;
        previous_T = r.T;
        sim_result_free(&r);
    }
    for (double s = 1; s <= 8; s *= 2) {
        sim_result r = run_paper_size(s, &mach, 1);
        cr_expect_lt(r.T, previous_T_k, "%s, P = K, s = %g: T = %g", name, s, r.T);
        cr_log_info("%s, P = K = %g, s = %g: T = %g", name, r.costs.K, s, r.T);
        previous_T_k = r.T;
        sim_result_free(&r);
    }
    closed_form cf_eight = builtin_closed_form(RADIX, params_of(1 << 20, 32, 8, 256), &mach);
    cr_expect_gt(cf_one.T / cf_eight.T, 1, "%s: the thesis' R at s = log ℓ", name);
    sim_result_free(&one);
}

Test(radix_sort, two_to_the_s_of_order_l_reduces_overhead_mcm) { two_to_the_s_of_order_l_reduces_overhead("mcm"); }
Test(radix_sort, two_to_the_s_of_order_l_reduces_overhead_gtx670)
{
    two_to_the_s_of_order_l_reduces_overhead("gtx670");
}

/* The other half (§4.6, line 1960: "with 2^s = Θ(ℓ²), we increase both the
 * work and the parallelism overhead by a non-constant factor"): s = 16
 * (2^s = ℓ²) needs Z >= 8ℓ + 2^16, so it runs only on a machine with a
 * larger private memory (the presets refuse it, see below); there W and O
 * exceed s = 8's. */
Test(radix_sort, two_to_the_s_of_order_l_squared_costs_more)
{
    machine mach = test_preset("mcm");
    mach.z = 1 << 17;
    sim_result eight = run_paper_size(8, &mach, 0), sixteen = run_paper_size(16, &mach, 0);
    cr_expect_gt(sixteen.costs.W, eight.costs.W);
    cr_expect_gt(sixteen.costs.O, eight.costs.O);
    cr_expect_gt(sixteen.T, eight.T);
    cr_log_info("Z = 2^17, n = 2^20: s = 8: W %g, O %g, T %g; s = 16: W %g, O %g, T %g", eight.costs.W,
                eight.costs.O, eight.T, sixteen.costs.W, sixteen.costs.O, sixteen.T);
    sim_result_free(&eight);
    sim_result_free(&sixteen);
}

/* When the whole histogram fits one scan block (n2^s <= 16ℓ²), a pass is
 * LocalSort, ScanInclusive, Scatter: no mediate or exclusive scan. */
Test(radix_sort, small_n_needs_one_scan_block)
{
    machine mach = test_preset("mcm");
    /* 4 tiles, 64 histogram entries */
    kernel_dag *dag = build_builtin(RADIX, params_of(4096, 32, 4, 256), &mach);
    cr_expect_eq(dag->n, 3 * 8);
    cr_expect_str_eq(dag->kernels[1].name, "ScanInclusive[0]");
    cr_expect_eq(dag->kernels[1].blocks, 1);
    cr_expect_str_eq(dag->kernels[2].name, "Scatter[0]");
    kernel_dag_free(dag);
}

Test(radix_sort, z_constraints_are_refused)
{
    machine mach = test_preset("gtx670"); /* Z = 12288 */
    const builtin_program *b = builtin_find(RADIX);
    vars p = params_of(1 << 20, 32, 13, 256); /* 2048 + 8192 fits */
    kernel_dag *dag = b->build(&p, &mach);
    cr_expect_not_null(dag, "%s", fail_message());
    kernel_dag_free(dag);
    p = params_of(1 << 20, 32, 16, 256); /* the grid's s = 16 */
    cr_expect_null(b->build(&p, &mach));
    cr_expect(strstr(fail_message(), "program 'radix-sort': constraint 8ℓ + 2^s <= Z does not hold "
                                     "(s = 16, ℓ = 256: 67584 > Z = 12288)") != NULL,
              "%s", fail_message());
    p = params_of(1 << 20, 32, 14, 256);
    cr_expect_null(b->build(&p, &mach));
    cr_expect(strstr(fail_message(), "(s = 14, ℓ = 256: 18432 > Z = 12288)") != NULL, "%s", fail_message());
    p = params_of(1 << 28, 32, 8, 256); /* 2^28·2^8/2^20 = 65536 block sums */
    cr_expect_null(b->build(&p, &mach));
    cr_expect(strstr(fail_message(), "constraint n·2^s/(16ℓ²) <= Z (the block sums fit one block) does not "
                                     "hold (n = 2.68435e+08, s = 8, ℓ = 256: 65536 > Z = 12288)") != NULL,
              "%s", fail_message());
    p = params_of(1 << 20, 8, 16, 256); /* s > c */
    cr_expect_null(b->build(&p, &mach));
    cr_expect(strstr(fail_message(), "1 <= s <= c") != NULL, "%s", fail_message());
}

/* The run file: s ∈ {1, 2, 4, 8} on the GTX 670 (s = 16 left out), and
 * `mcmsim compare` names s = 8 best at n = 2^20. */
Test(radix_sort, run_file_states_the_conclusion)
{
    char out[8192];
    int rc = mcmsim_output(MCMSIM_OUT_AND_ERR, out, sizeof out, "compare %s/programs/radix-sort/radix-sort.cfg",
                           MCMSIM_DATADIR);
    cr_assert_eq(rc, 0, "%s", out);
    cr_expect(strstr(out, "claim: 2^s = Theta(l)") != NULL, "%s", out);
    cr_expect(strstr(out, "best s along n: s = 8 at 2^20") != NULL, "%s", out);
}
