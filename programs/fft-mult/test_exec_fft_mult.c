/*
 * test_exec_fft_mult.c — FFT-based multiplication in exec mode, its kernels
 * written once (kernels.c): the product against the serial one at several
 * sizes (kernels.c's check), its measured costs kernel by kernel against
 * model.c's declared ones (equal where kernels.c says so, the difference
 * it documents elsewhere, each asserted exactly), the simulated time, and
 * the serial reference against the schoolbook product.
 */
#include "helpers.h"
#include "program.h"

#include "../common/fft_reference.h"
#include "../common/stockham_fft_costs.h"

#include <math.h>

static exec_result run_mult(double n, double mm, double l, const machine *m)
{
    return run_case_exec("fft-mult", test_params("n m l", n, mm, l), m);
}

/* ---- (a) the result ---------------------------------------------------------- */

Test(exec_fft_mult, the_product_is_the_serial_ones_at_several_sizes_and_seeds)
{
    /* n, m any whole sizes (m = 0: m = n); N the least power of two
     * >= n + m − 1, from 4 (n = 3, m = 2) to 8192 */
    const double points[][3] = {{3, 2, 2},    {100, 37, 16}, {100, 0, 32},    {513, 512, 32},
                                {1000, 1, 8}, {1000, 0, 64}, {777, 300, 128}, {4096, 0, 256}};
    machine m = test_preset("mcm");
    for (size_t i = 0; i < sizeof points / sizeof points[0]; i++)
        for (uint64_t seed = 1; seed <= 2; seed++) {
            m.seed = seed;
            exec_result r = run_mult(points[i][0], points[i][1], points[i][2], &m);
            exec_result_free(&r);
        }
}

Test(exec_fft_mult, refuses_what_its_kernels_cannot_multiply)
{
    machine m = test_preset("mcm");
    const struct {
        double n, mm, l;
        const char *why;
    } bad[] = {{10, 20, 2, "needs whole n >= m >= 1"},
               {10.5, 0, 2, "needs whole n >= m >= 1"},
               {1, 1, 2, "n + m − 1 coefficients in 2 to 2^26"},
               {ldexp(1, 26), 0, 256, "n + m − 1 coefficients in 2 to 2^26"},
               {1000, 0, 48, "ℓ must be a power of two <= 1024"}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const char *why = case_exec_refuses("fft-mult", test_params("n m l", bad[i].n, bad[i].mm, bad[i].l), &m);
        cr_assert_not_null(why, "n = %g, m = %g, ℓ = %g was accepted", bad[i].n, bad[i].mm, bad[i].l);
        cr_expect(strstr(why, bad[i].why) != NULL, "%s", why);
    }
}

/* ---- (b) measured costs against the model, kernel by kernel ---------------- */

/* A point: the FFT size N, ℓ, the warp. */
typedef struct mult_point {
    long size;
    int l, w;
} mult_point;

/* A model kernel's launch: its name without the FFT's label. */
static const char *launch_of(const char *modelled)
{
    const char *colon = strchr(modelled, ':');
    return colon ? colon + 1 : modelled;
}

/* What block b of model kernel k measures: the FFT's kernels as
 * stockham_fft_costs.h counts them (the inverse FFT's powers ω^(N−e));
 * pointwise and scale a product of 11 operations, their words as declared. */
static block_expected expected_of(const kernel *k, long b, const void *ctx)
{
    const mult_point *p = ctx;
    const char *what = launch_of(k->name);
    block_expected e;
    if (fft_kernel_expected(what, &k->cost, p->size, p->l, p->w, strncmp(k->name, "inverse-fft:", 12) == 0, b, &e))
        return e;
    cr_assert(strcmp(what, "pointwise") == 0 || strcmp(what, "scale") == 0, "unexpected kernel %s", k->name);
    const block_cost *d = &k->cost;
    return (block_expected){11, 11.0 * p->l, d->reads, d->writes, d->reads, d->writes};
}

static void compare_with_model(double n, double mm, int l, const machine *m)
{
    exec_result run = run_mult(n, mm, l, m);
    kernel_dag *model = build_builtin("fft-mult", test_params("n m l", n, mm, l), m);
    mult_point p = {1, l, m->warp};
    while (p.size < n + (mm ? mm : n) - 1)
        p.size *= 2;
    expect_measured_costs(&run, model, m, launch_of, expected_of, &p);
    kernel_dag_free(model);
    exec_result_free(&run);
}

Test(exec_fft_mult, costs_kernel_by_kernel_against_the_model)
{
    machine m = test_preset("mcm");
    compare_with_model(1024, 0, 256, &m); /* N = 2048 */
    compare_with_model(1000, 0, 64, &m);  /* N = 2048 */
    compare_with_model(100, 37, 16, &m);  /* N = 256, ℓ < w */
}

Test(exec_fft_mult, the_inverse_ffts_narrow_twiddles_read_two_groups_a_warp)
{
    /* N = 2048, ℓ = 256, w = 32: twiddle[s] has rows of q = 2^(10 − s)
     * words; where q < w (s > 5) a warp's powers ω^e, e = ⌊j/q⌋q, lie in
     * one address group (3U a block), its ω^(N−e) in two (4U) */
    machine m = test_preset("mcm");
    exec_result run = run_mult(1024, 0, 256, &m);
    kernel_dag *model = build_builtin("fft-mult", test_params("n m l", 1024, 0, 256), &m);
    int narrow = 0;
    for (int i = 0; i < model->n; i++) {
        int step;
        const char *name = model->kernels[i].name;
        const char *what = strchr(name, ':') ? strchr(name, ':') + 1 : name;
        if (sscanf(what, "twiddle[%d]", &step) != 1)
            continue;
        const block_cost *c = kernel_block_cost(&run.dag->kernels[i], 0);
        int inverse = strncmp(name, "inverse-fft:", 12) == 0;
        double words = step > 5 && inverse ? 4 : 3;
        cr_expect_eq(c->reads + c->writes, words, "%s: %g words a thread, expected %g", name, c->reads + c->writes,
                     words);
        narrow += step > 5 && inverse;
    }
    cr_expect_eq(narrow, 5, "twiddle[6] .. twiddle[10] of the inverse FFT");
    kernel_dag_free(model);
    exec_result_free(&run);
}

/* ---- (c) simulated time --------------------------------------------------------- */

Test(exec_fft_mult, simulated_time_as_documented_and_within_theorem_1)
{
    const char *presets[] = {"mcm", "gtx670"};
    for (int i = 0; i < 2; i++) {
        machine m = test_preset(presets[i]);
        double n = 1024;
        int l = 256;
        long size = 2048;
        exec_result run = run_mult(n, 0, l, &m);
        kernel_dag *model = build_builtin("fft-mult", test_params("n m l", n, 0, l), &m);
        mult_point p = {size, l, m.warp};
        expect_documented_time(&run, model, &m, expected_of, &p, "the measured spans are larger");
        kernel_dag_free(model);
        exec_result_free(&run);
    }
}

/* ---- (d) the serial reference ------------------------------------------------ */

Test(exec_fft_mult, the_serial_product_is_the_schoolbook_one)
{
    uint64_t state = 11;
    const long sizes[][2] = {{1, 2}, {3, 2}, {100, 37}, {256, 256}, {1000, 1}, {777, 300}};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        long n = sizes[k][0], mm = sizes[k][1];
        word *a = malloc(sizeof *a * (size_t)n), *b = malloc(sizeof *b * (size_t)mm);
        word *f = malloc(sizeof *f * (size_t)(n + mm - 1)), *want = calloc((size_t)(n + mm - 1), sizeof *want);
        for (long i = 0; i < n; i++)
            a[i] = mcm_random(&state) % MCM_PRIME;
        for (long i = 0; i < mm; i++)
            b[i] = mcm_random(&state) % MCM_PRIME;
        for (long i = 0; i < n; i++)
            for (long j = 0; j < mm; j++)
                want[i + j] = zp_add(MCM_PRIME, want[i + j], zp_mul(MCM_PRIME, a[i], b[j]));
        serial_fft_product(a, n, b, mm, f);
        for (long i = 0; i < n + mm - 1; i++)
            cr_assert_eq(f[i], want[i], "n = %ld, m = %ld: f[%ld]", n, mm, i);
        free(a);
        free(b);
        free(f);
        free(want);
    }
}
