/*
 * tests/test_cuda_ref.c -- Criterion tests of the CPU side of cuda_ref/:
 * the Z/pZ arithmetic, the serial references every CUDA program checks
 * against, the option parser and the CSV writer.  Runs without a GPU
 * (built by `make cuda-check`, see cuda_ref/cuda.mk).
 *
 * Each reference is checked against an independent one: the radix-2 FFT
 * against the naive DFT, the FFT product against the schoolbook product,
 * division against a = q b + r, the gcd against planted and known factors,
 * the scans against running sums.
 */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../cuda_ref/common/cli.h"
#include "../cuda_ref/common/cpu_ref.h"
#include "../cuda_ref/common/csv.h"
#include "../cuda_ref/common/rng.h"
#include "../cuda_ref/common/zp.h"

static void random_poly(uint32_t *p, size_t len, rng_t *rng)
{
    for (size_t i = 0; i + 1 < len; i++)
        p[i] = rng_zp(rng);
    p[len - 1] = rng_zp_nonzero(rng);
}

/* ---- Z/pZ ------------------------------------------------------------- */

Test(zp, mul_matches_wide_remainder)
{
    rng_t rng = {1};
    for (int i = 0; i < 100000; i++) {
        uint32_t a = rng_zp(&rng), b = rng_zp(&rng);
        uint32_t want = (uint32_t)(((uint64_t)a * b) % ZP_P);
        cr_assert_eq(zp_mul(a, b), want, "%u * %u", a, b);
    }
    cr_assert_eq(zp_mul(ZP_P - 1, ZP_P - 1), 1u);
    cr_assert_eq(zp_add(ZP_P - 1, 1), 0u);
    cr_assert_eq(zp_sub(0, 1), ZP_P - 1);
}

Test(zp, inverse_and_roots_of_unity)
{
    rng_t rng = {2};
    for (int i = 0; i < 1000; i++) {
        uint32_t a = rng_zp_nonzero(&rng);
        cr_assert_eq(zp_mul(a, zp_inv(a)), 1u);
    }
    for (int k = 1; k <= ZP_MAX_LOG2_N; k++) {
        uint64_t N = 1ull << k;
        uint32_t w = zp_root_of_unity(N);
        cr_assert_eq(zp_pow(w, N), 1u, "w^N for N = 2^%d", k);
        cr_assert_eq(zp_pow(w, N / 2), ZP_P - 1, "w^(N/2) = -1 for N = 2^%d", k);
    }
}

/* ---- DFT / FFT ----------------------------------------------------------- */

Test(fft, matches_naive_dft_and_inverts)
{
    rng_t rng = {3};
    for (size_t n = 1; n <= 512; n *= 2) {
        uint32_t *x = malloc(n * 4), *y = malloc(n * 4), *z = malloc(n * 4);
        for (size_t i = 0; i < n; i++)
            x[i] = rng_zp(&rng);
        uint32_t w = zp_root_of_unity(n);
        cpu_dft_naive(x, y, n, w);
        memcpy(z, x, n * 4);
        cpu_fft(z, n, w);
        cr_assert_arr_eq(z, y, n * 4, "FFT != naive DFT for n = %zu", n);
        cpu_fft(z, n, zp_inv(w));                 /* n * x */
        uint32_t inv_n = zp_inv((uint32_t)n);
        for (size_t i = 0; i < n; i++)
            cr_assert_eq(zp_mul(z[i], inv_n), x[i]);
        free(x);
        free(y);
        free(z);
    }
}

/* ---- products ------------------------------------------------------------- */

Test(mul, fft_product_matches_schoolbook)
{
    rng_t rng = {4};
    static const size_t sizes[][2] = {{1, 1}, {2, 1}, {5, 3}, {16, 16},
                                      {100, 37}, {256, 256}, {1000, 999}};
    for (size_t t = 0; t < sizeof sizes / sizeof *sizes; t++) {
        size_t n = sizes[t][0], m = sizes[t][1];
        uint32_t *a = malloc(n * 4), *b = malloc(m * 4);
        uint32_t *f = malloc((n + m - 1) * 4), *g = malloc((n + m - 1) * 4);
        random_poly(a, n, &rng);
        random_poly(b, m, &rng);
        cpu_mul_schoolbook(a, n, b, m, f);
        cpu_mul_fft(a, n, b, m, g);
        cr_assert_arr_eq(f, g, (n + m - 1) * 4, "n=%zu m=%zu", n, m);
        free(a);
        free(b);
        free(f);
        free(g);
    }
}

Test(mul, schoolbook_small_known)
{
    /* (1 + 2x)(3 + x) = 3 + 7x + 2x^2 */
    uint32_t a[] = {1, 2}, b[] = {3, 1}, f[3];
    cpu_mul_schoolbook(a, 2, b, 2, f);
    cr_assert(f[0] == 3 && f[1] == 7 && f[2] == 2);
}

/* ---- division ------------------------------------------------------------- */

Test(divide, satisfies_a_equals_qb_plus_r)
{
    rng_t rng = {5};
    static const size_t cases[][2] = {{1, 0}, {10, 3}, {2500, 2000}, {40, 3},
                                      {7, 6}, {300, 1}};
    for (size_t t = 0; t < sizeof cases / sizeof *cases; t++) {
        size_t size_a = cases[t][0], deg_b = cases[t][1];
        size_t qlen = size_a - deg_b;
        uint32_t *a = malloc(size_a * 4), *b = malloc((deg_b + 1) * 4);
        uint32_t *q = malloc(qlen * 4), *r = malloc((deg_b + 1) * 4);
        uint32_t *qb = malloc((qlen + deg_b) * 4);
        random_poly(a, size_a, &rng);
        random_poly(b, deg_b + 1, &rng);
        cpu_divide(a, size_a, b, deg_b, q, r);
        cpu_mul_schoolbook(q, qlen, b, deg_b + 1, qb);   /* size size_a */
        for (size_t i = 0; i < size_a; i++) {
            uint32_t ri = i < deg_b ? r[i] : 0;
            cr_assert_eq(zp_add(qb[i], ri), a[i], "case %zu, coefficient %zu", t, i);
        }
        free(a);
        free(b);
        free(q);
        free(r);
        free(qb);
    }
}

/* ---- gcd ---------------------------------------------------------------- */

Test(gcd, known_small_example)
{
    /* (x-1)(x-2) = x^2 - 3x + 2, (x-1)(x-3) = x^2 - 4x + 3: gcd x - 1 */
    uint32_t a[] = {2, ZP_P - 3, 1}, b[] = {3, ZP_P - 4, 1}, g[3];
    int d = cpu_gcd(a, 2, b, 2, g);
    cr_assert_eq(d, 1);
    cr_assert(g[0] == ZP_P - 1 && g[1] == 1);
}

Test(gcd, planted_factor_and_coprime)
{
    rng_t rng = {6};
    static const int cases[][3] = {{8, 300, 300}, {1, 50, 20}, {20, 1000, 999}};
    for (size_t t = 0; t < sizeof cases / sizeof *cases; t++) {
        int dg = cases[t][0], n = cases[t][1], m = cases[t][2];
        uint32_t *g = malloc((size_t)(dg + 1) * 4), *u = malloc((size_t)(n - dg) * 4);
        uint32_t *v = malloc((size_t)(m - dg) * 4), *a = malloc((size_t)n * 4);
        uint32_t *b = malloc((size_t)m * 4), *got = malloc((size_t)n * 4);
        random_poly(g, (size_t)dg + 1, &rng);
        random_poly(u, (size_t)(n - dg), &rng);
        random_poly(v, (size_t)(m - dg), &rng);
        cpu_mul_schoolbook(g, (size_t)dg + 1, u, (size_t)(n - dg), a);
        cpu_mul_schoolbook(g, (size_t)dg + 1, v, (size_t)(m - dg), b);
        int d = cpu_gcd(a, n - 1, b, m - 1, got);
        cr_assert_eq(d, dg, "gcd degree (u, v are coprime with high probability)");
        poly_make_monic(g, dg);
        cr_assert_arr_eq(got, g, (size_t)(dg + 1) * 4);
        /* u and v themselves: coprime, gcd 1 */
        d = cpu_gcd(u, n - dg - 1, v, m - dg - 1, got);
        cr_assert(d == 0 && got[0] == 1);
        free(g);
        free(u);
        free(v);
        free(a);
        free(b);
        free(got);
    }
}

/* ---- sums, scans, sorting ------------------------------------------------ */

Test(scan, sum_and_inclusive_scan_wrap_modulo_2_32)
{
    uint32_t x[] = {0xffffffffu, 2, 3, 0x80000000u};
    uint32_t y[4];
    cpu_inclusive_scan_u32(x, y, 4);
    cr_assert(y[0] == 0xffffffffu && y[1] == 1 && y[2] == 4 && y[3] == 0x80000004u);
    cr_assert_eq(cpu_sum_u32(x, 4), 0x80000004u);
    rng_t rng = {7};
    uint32_t big[1000], scan[1000];
    for (int i = 0; i < 1000; i++)
        big[i] = rng_u32(&rng);
    cpu_inclusive_scan_u32(big, scan, 1000);
    cr_assert_eq(scan[999], cpu_sum_u32(big, 1000));
}

/* ---- option parsing ------------------------------------------------------- */

Test(cli, lists_and_ranges)
{
    long v[CLI_MAX_LIST];
    cr_assert_eq(cli_parse_list("5", v, CLI_MAX_LIST), 1);
    cr_assert_eq(v[0], 5);
    cr_assert_eq(cli_parse_list("1,256", v, CLI_MAX_LIST), 2);
    cr_assert(v[0] == 1 && v[1] == 256);
    cr_assert_eq(cli_parse_list("1000:10000:+1000", v, CLI_MAX_LIST), 10);
    cr_assert(v[0] == 1000 && v[9] == 10000);
    cr_assert_eq(cli_parse_list("16384:1048576:*2", v, CLI_MAX_LIST), 7);
    cr_assert(v[0] == 16384 && v[6] == 1048576);
    cr_assert_eq(cli_parse_list("1024:16777216:*4", v, CLI_MAX_LIST), 8);
    cr_assert_eq(cli_parse_list("", v, CLI_MAX_LIST), -1);
    cr_assert_eq(cli_parse_list("1,x", v, CLI_MAX_LIST), -1);
    cr_assert_eq(cli_parse_list("1:10:*1", v, CLI_MAX_LIST), -1);
    cr_assert_eq(cli_parse_list("1:10", v, CLI_MAX_LIST), -1);
    cr_assert_eq(cli_parse_list("0:10:*2", v, CLI_MAX_LIST), -1);
}

Test(cli, values_and_flags)
{
    char *argv[] = {"prog", "--n", "8,16", "--no-header", "--l", "128"};
    int argc = 6;
    long v[CLI_MAX_LIST];
    static const long def[] = {1};
    cr_assert_eq(cli_list(argc, argv, "--n", v, def, 1), 2);
    cr_assert_eq(cli_long(argc, argv, "--l", 0), 128);
    cr_assert_eq(cli_long(argc, argv, "--s", 7), 7);
    cr_assert_eq(cli_flag(argc, argv, "--no-header"), 1);
    cr_assert_eq(cli_list(argc, argv, "--s", v, def, 1), 1);
    cr_assert_eq(v[0], 1);
}

/* ---- timing statistics and CSV ------------------------------------------- */

Test(csv, timing_stats)
{
    double odd[] = {3.0, 1.0, 2.0, 10.0, 0.5};
    timing_stats st = timing_stats_of(odd, 5);
    cr_assert_float_eq(st.median_ms, 2.0, 1e-12);
    cr_assert_float_eq(st.q1_ms, 1.0, 1e-12);   /* rank 1 of 0.5 1 2 3 10 */
    cr_assert_float_eq(st.q3_ms, 3.0, 1e-12);   /* rank 3 */
    cr_assert_float_eq(st.min_ms, 0.5, 1e-12);
    cr_assert_float_eq(st.max_ms, 10.0, 1e-12);
    double even[] = {4.0, 1.0, 2.0, 3.0};
    st = timing_stats_of(even, 4);
    cr_assert_float_eq(st.median_ms, 2.5, 1e-12);
    cr_assert_float_eq(st.q1_ms, 1.75, 1e-12);  /* rank 0.75 of 1 2 3 4 */
    cr_assert_float_eq(st.q3_ms, 3.25, 1e-12);  /* rank 2.25 */
    cr_assert_eq(odd[0], 3.0, "input left unsorted");
    double one[] = {7.0};
    st = timing_stats_of(one, 1);
    cr_assert(st.median_ms == 7.0 && st.q1_ms == 7.0 && st.q3_ms == 7.0);
}

/* everything written to a temporary file, as one string */
static char *capture(void (*write)(FILE *, const void *), const void *arg)
{
    FILE *f = tmpfile();
    cr_assert_not_null(f);
    write(f, arg);
    long len = ftell(f);
    rewind(f);
    char *text = calloc((size_t)len + 1, 1);
    cr_assert_eq(fread(text, 1, (size_t)len, f), (size_t)len);
    fclose(f);
    return text;
}

static void write_header(FILE *f, const void *arg)
{
    (void)arg;
    csv_print_header(f);
}

static void write_row(FILE *f, const void *arg)
{
    csv_print_row(f, (const csv_row *)arg);
}

Test(csv, header_and_row_format)
{
    char *h = capture(write_header, NULL);
    cr_assert_str_eq(h, "case,params,n,m,l,s,wall_median_ms,wall_q1_ms,"
                        "wall_q3_ms,wall_min_ms,wall_max_ms,graph_median_ms,"
                        "graph_q1_ms,graph_q3_ms,graph_min_ms,graph_max_ms,"
                        "runs,clock_mhz,launches,check\n");
    free(h);
    csv_row row = {"stockham", "n=65536;l=128", 65536, 0, 128, 0,
                   {1.5, 1.4, 1.6, 1.25, 2.0}, {1.0, 0.95, 1.05, 0.9, 1.1},
                   25, 1974.96, 49, 1};
    char *r = capture(write_row, &row);
    cr_assert_str_eq(r, "stockham,n=65536;l=128,65536,0,128,0,1.500000,"
                        "1.400000,1.600000,1.250000,2.000000,1.000000,"
                        "0.950000,1.050000,0.900000,1.100000,25,1975.0,49,ok\n");
    free(r);
    row.check_ok = 0;
    r = capture(write_row, &row);
    cr_assert(strstr(r, ",FAIL\n") != NULL);
    /* 20 columns, and the params column holds no comma */
    int commas = 0;
    for (char *c = r; *c; c++)
        commas += (*c == ',');
    cr_assert_eq(commas, 19);
    free(r);
}
