/*
 * test_exec_stockham.c — the Stockham FFT in exec mode, its kernels written
 * once (kernels.c): the transform against the serial FFT at several sizes
 * (kernels.c's check), its measured costs kernel by kernel against
 * model.c's declared ones (equal where kernels.c says so, the difference
 * it documents elsewhere, each asserted exactly), the simulated time, and
 * the serial reference against the definition of the DFT.
 *
 * The measured transfers are checked against an independent count of the
 * UMM rule (SPEC §3): each warp of a round pays one transaction per
 * distinct address group ⌊cell/w⌋ its active threads touch, a block's
 * transfer being Σ transactions · min(w, ℓ)/ℓ words per thread.
 */
#include "helpers.h"
#include "program.h"

#include "../common/block_scan_costs.h"
#include "../common/fft_reference.h"
#include "../common/stockham_fft_costs.h"

#include <math.h>

static exec_result run_fft(double n, double l, const machine *m)
{
    return run_case_exec("stockham", test_params("n l", n, l), m);
}

/* ---- what each kernel measures, against the model's declared cost -------- */

/* The launch of model kernel `modelled` (kernel names of kernels.c). */
static const char *launch_of(const char *modelled)
{
    static const char *const scan[][2] = {
        {"roots-inclusive", "scan_tiles"}, {"roots-mediate", "scan_mediate"}, {"roots-exclusive", "scan_apply"}};
    for (size_t i = 0; i < sizeof scan / sizeof scan[0]; i++)
        if (strcmp(modelled, scan[i][0]) == 0)
            return scan[i][1];
    return modelled;
}

/* A point: n, ℓ, the warp. */
typedef struct fft_point {
    long n;
    int l, w;
} fft_point;

/* The per-block cost kernels.c documents for model kernel `k`, block b
 * (index in the launch): the FFT's kernels as stockham_fft_costs.h counts
 * them, the scan's as block_scan_costs.h does for a product of 11
 * operations. */
static block_expected expected_of(const kernel *k, long b, const void *ctx)
{
    const fft_point *p = ctx;
    block_expected e;
    long len = strcmp(k->name, "roots-mediate") == 0 ? p->n / (4L * p->l) : p->n;
    if (!fft_kernel_expected(k->name, &k->cost, p->n, p->l, p->w, 0, b, &e) &&
        !scan_kernel_expected(launch_of(k->name), 11, len, p->l, p->w, b, &e))
        cr_assert_fail("unexpected kernel %s", k->name);
    return e;
}

/* The exec DAG against model.c's at n, ℓ on m, kernel by kernel and block
 * by block. */
static void compare_with_model(long n, int l, const machine *m)
{
    exec_result run = run_fft((double)n, l, m);
    kernel_dag *model = build_builtin("stockham", test_params("n l", n, l), m);
    fft_point p = {n, l, m->warp};
    expect_measured_costs(&run, model, m, launch_of, expected_of, &p);
    kernel_dag_free(model);
    exec_result_free(&run);
}

/* ---- (a) the result ------------------------------------------------------ */

Test(exec_stockham, the_transform_is_the_serial_ffts_at_several_sizes_and_seeds)
{
    /* kernels.c's check compares every word with the serial FFT; n < 8ℓ
     * (one tile of powers), ℓ = 1 and 2, and (4096, 8): n > 16ℓ², the
     * mediate scan in 4 chunks */
    const double points[][2] = {{4, 128}, {16, 1}, {64, 8}, {256, 4}, {512, 2},
                                {1024, 32}, {4096, 8}, {8192, 256}};
    machine m = test_preset("mcm");
    for (size_t i = 0; i < sizeof points / sizeof points[0]; i++)
        for (uint64_t seed = 1; seed <= 2; seed++) {
            m.seed = seed;
            exec_result r = run_fft(points[i][0], points[i][1], &m);
            exec_result_free(&r);
        }
}

Test(exec_stockham, refuses_what_its_kernels_cannot_transform)
{
    machine m = test_preset("mcm");
    const struct {
        double n, l;
        const char *why;
    } bad[] = {{1000, 32, "n must be a power of two in [4, 2^26]"},
               {2, 1, "n must be a power of two in [4, 2^26]"},
               {ldexp(1, 27), 128, "n must be a power of two in [4, 2^26]"},
               {4096, 48, "ℓ must be a power of two <= 1024"},
               {4096, 2048, "ℓ must be a power of two <= 1024"}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const char *why = case_exec_refuses("stockham", test_params("n l", bad[i].n, bad[i].l), &m);
        cr_assert_not_null(why, "n = %g, ℓ = %g was accepted", bad[i].n, bad[i].l);
        cr_expect(strstr(why, bad[i].why) != NULL, "%s", why);
    }
}

/* ---- (b) measured costs against the model -------------------------------- */

Test(exec_stockham, costs_kernel_by_kernel_against_the_model)
{
    machine m = test_preset("mcm");
    compare_with_model(4096, 128, &m); /* q from 2^10 down to 1: rows wider and narrower than a warp */
    compare_with_model(2048, 64, &m);
    compare_with_model(2048, 8, &m);   /* n > 16ℓ²: the mediate scan in 2 chunks; ℓ < w */
    compare_with_model(4096, 16, &m);  /* 16ℓ² = n: one chunk, whole */
    compare_with_model(512, 32, &m);   /* ℓ = w */
}

Test(exec_stockham, costs_on_a_warp_of_8)
{
    machine m = test_preset("mcm");
    m.warp = 8;
    compare_with_model(2048, 64, &m);
}

Test(exec_stockham, the_scans_bank_conflicts_are_the_models_for_full_warps)
{
    /* The tile scan's private accesses are the hand-written kernel's, whose
     * conflicts model.c counts (programs/cuda_counts.c: items 4 apart, the
     * sweeps' 2d apart), the mediate scan's once a chunk: equal, and not
     * 0, when ℓ >= 32.  The other kernels make no private access. */
    machine m = test_preset("mcm");
    const long points[][2] = {{1 << 14, 128}, {1 << 15, 32}}; /* the mediate scan in 1 chunk, in 2 */
    for (int p = 0; p < 2; p++) {
        exec_result run = run_fft((double)points[p][0], (double)points[p][1], &m);
        kernel_dag *model = build_builtin("stockham", test_params("n l", points[p][0], points[p][1]), &m);
        cr_expect_gt(model->kernels[0].cost.bank_conflicts, 0);
        for (int i = 0; i < model->n; i++) {
            double got = kernel_block_cost(&run.dag->kernels[i], 0)->bank_conflicts;
            double declared = i < 2 ? model->kernels[i].cost.bank_conflicts : 0;
            cr_expect_eq(got, declared, "n = %ld, %s: %g conflicts, the model %g", points[p][0],
                         model->kernels[i].name, got, declared);
        }
        kernel_dag_free(model);
        exec_result_free(&run);
    }
    /* ℓ = 16: cuda_counts.c counts a warp of 32 threads, whose items 4
     * apart fill a bank 4 deep (3 extra rounds for each of the 12 accesses
     * of the partials and the run: 36); a block of 16 threads is a warp of
     * 16, 2 deep (12).  Its sweeps have no conflict either way. */
    exec_result run = run_fft(8192, 16, &m);
    kernel_dag *model = build_builtin("stockham", test_params("n l", 8192, 16), &m);
    cr_expect_eq(kernel_block_cost(&run.dag->kernels[0], 0)->bank_conflicts, 12);
    cr_expect_eq(model->kernels[0].cost.bank_conflicts, 36);
    kernel_dag_free(model);
    exec_result_free(&run);
}

/* ---- (c) simulated time --------------------------------------------------- */

Test(exec_stockham, simulated_time_as_documented_and_within_theorem_1)
{
    /* The model's DAG with every block's cost replaced by the documented
     * one simulates to the exec DAG's T exactly; the spans of the scans,
     * butterflies and twiddles and the twiddle's third word make exec mode
     * slower than the model. */
    const char *presets[] = {"mcm", "gtx670"};
    for (int i = 0; i < 2; i++) {
        machine m = test_preset(presets[i]);
        long n = 4096;
        int l = 128;
        exec_result run = run_fft((double)n, l, &m);
        kernel_dag *model = build_builtin("stockham", test_params("n l", n, l), &m);
        fft_point p = {n, l, m.warp};
        expect_documented_time(&run, model, &m, expected_of, &p,
                               "the spans of the scans, butterflies and twiddles, the twiddles' third word");
        kernel_dag_free(model);
        exec_result_free(&run);
    }
}

/* ---- (d) the serial reference ---------------------------------------------- */

/* y_j = Σ_i x_i ω^(ij): the definition. */
static void naive_dft(const word *x, word *y, long n, word omega)
{
    for (long j = 0; j < n; j++) {
        word sum = 0, step = zp_pow(MCM_PRIME, omega, (uint64_t)j), power = 1;
        for (long i = 0; i < n; i++, power = zp_mul(MCM_PRIME, power, step))
            sum = zp_add(MCM_PRIME, sum, zp_mul(MCM_PRIME, x[i], power));
        y[j] = sum;
    }
}

Test(exec_stockham, the_roots_of_unity_have_order_n)
{
    for (int k = 0; k <= FFT_MAX_LOG2; k++) {
        word omega = fft_root_of_unity(1L << k);
        cr_assert_eq(zp_pow(MCM_PRIME, omega, 1ull << k), 1, "n = 2^%d", k);
        if (k > 0)
            cr_assert_eq(zp_pow(MCM_PRIME, omega, 1ull << (k - 1)), MCM_PRIME - 1, "n = 2^%d: ω^(n/2) = −1", k);
    }
}

Test(exec_stockham, the_serial_fft_is_the_dft)
{
    uint64_t state = 7;
    for (long n = 1; n <= 1024; n *= 2) {
        word *x = malloc(sizeof *x * (size_t)n), *y = malloc(sizeof *y * (size_t)n);
        for (long i = 0; i < n; i++)
            x[i] = mcm_random(&state) % MCM_PRIME;
        word omega = fft_root_of_unity(n);
        naive_dft(x, y, n, omega);
        serial_fft(x, n, omega);
        for (long i = 0; i < n; i++)
            cr_assert_eq(x[i], y[i], "n = %ld, word %ld", n, i);
        free(x);
        free(y);
    }
}
