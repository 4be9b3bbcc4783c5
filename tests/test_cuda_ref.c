/*
 * tests/test_cuda_ref.c -- Criterion tests of the CPU side of cuda_ref/:
 * the Z/pZ arithmetic of the microbenchmarks, the option parser and the
 * CSV writer.  Runs without a GPU (built by `make cuda-check`, see
 * cuda_ref/cuda.mk).  The case studies' serial references are in their
 * folders (programs/CASE/) and checked by their own tests.
 */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../cuda_ref/common/cli.h"
#include "../cuda_ref/common/csv.h"
#include "../cuda_ref/common/rng.h"
#include "../cuda_ref/common/zp.h"

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
