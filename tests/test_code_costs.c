/*
 * test_code_costs.c — the code's costs of the built-in case studies in
 * `make validate` (validate/code_costs.c): a measured point is run from its
 * kernels written once exactly as exec mode runs it, the budget's estimate
 * is the worksheet's, and a point over the budget is named in the report,
 * never dropped.
 */
#include "helpers.h"
#include "validate.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A measured row of case `program` at `params` ("k=v;k=v"). */
static measured_row test_row(const char *program, const char *params)
{
    measured_row r = {0};
    snprintf(r.file, sizeof r.file, "test.csv");
    r.line = 2;
    snprintf(r.program, sizeof r.program, "%s", program);
    snprintf(r.params, sizeof r.params, "%s", params);
    vars_clear(&r.values);
    char copy[256];
    snprintf(copy, sizeof copy, "%s", params);
    for (char *save, *tok = strtok_r(copy, ";", &save); tok; tok = strtok_r(NULL, ";", &save)) {
        char *eq = strchr(tok, '=');
        *eq = '\0';
        vars_set(&r.values, tok, atof(eq + 1));
    }
    r.ok = 1;
    return r;
}

/* A fresh compile cache, so that no test reads another's objects. */
static void fresh_cache(void)
{
    static char cache[64];
    snprintf(cache, sizeof cache, "/tmp/mcmsim-code-costs-XXXXXX");
    cr_assert_not_null(mkdtemp(cache));
    setenv("MCMSIM_CACHE", cache, 1);
}

/* The sum at n = 4 096 on the H100's code machine: the DAG make validate
 * takes for its code's costs (code_costs_start) gives the T that `mcmsim
 * run --exec` prints for the same point on the same machine, graph
 * launches as make validate simulates them. */
Test(code_costs, a_built_in_points_code_costs_are_exec_modes_own_time)
{
    fresh_cache();
    machine code = test_preset("h100-code");
    cr_assert_eq(machine_set_field(&code, "launch", "graph"), 1, "%s", fail_message());
    measured_row row = test_row("sum", "n=4096;l=256");
    exec_process x;
    cr_assert_eq(code_costs_start(&x, &row, &code), 0, "%s", fail_message());
    kernel_dag *dag = exec_process_finish(&x, NULL);
    cr_assert_not_null(dag, "%s", fail_message());
    cr_assert(kernel_block_cost(&dag->kernels[0], 0)->stream, "the kernels' instructions are counted");
    sim_result r = simulate(dag, &code);

    char *cfg = temp_file("machine = \"h100-code\";\n"
                          "program = { name = \"sum\"; params = { n = 4096; l = 256; }; };\n",
                          ".cfg");
    char out[8192];
    int status = mcmsim_output(MCMSIM_OUT_AND_ERR, out, sizeof out,
                               "run %s --exec --set launch=graph --format csv --jobs 1", cfg);
    cr_assert_eq(status, 0, "%s", out);
    /* the CSV: a header naming T, then the point's row */
    char *header = out, *line = strchr(out, '\n');
    cr_assert_not_null(line, "%s", out);
    *line++ = '\0';
    int column = 0;
    for (char *save, *tok = strtok_r(header, ",", &save); tok && strcmp(tok, "T") != 0;
         tok = strtok_r(NULL, ",", &save))
        column++;
    char *field = line;
    for (int i = 0; i < column && field; i++)
        field = strchr(field, ',') ? strchr(field, ',') + 1 : NULL;
    cr_assert_not_null(field, "no column T in the CSV");
    double T = strtod(field, NULL);
    cr_expect(fabs(T - r.T) <= 1e-9 * r.T, "make validate's DAG gives T = %.10g, mcmsim run --exec %.10g", r.T, T);
    sim_result_free(&r);
    kernel_dag_free(dag);
    unlink(cfg);
    free(cfg);
}

Test(code_costs, a_row_without_kernels_written_once_is_refused_by_name)
{
    machine code = test_preset("h100-code");
    measured_row row = test_row("no-such-case", "n=4096");
    exec_process x;
    cr_assert_eq(code_costs_start(&x, &row, &code), -1);
    cr_expect(strstr(fail_message(), "test.csv:2") && strstr(fail_message(), "no-such-case"), "%s",
              fail_message());
}

/* Two kernels: 3 blocks of 4 threads, W(B) = 8, a read and a write each
 * thread: 3·(8 + 4·(1 + 2)) = 60; 1 block of 2 threads, W(B) = 5, none:
 * 5 + 2 = 7. */
Test(code_costs, the_estimate_is_the_worksheets_thread_operations_and_accesses)
{
    kernel_dag *dag = kernel_dag_new("estimate");
    kernel a = test_kernel("a", 3, 4, 2, 1, 1), b = test_kernel("b", 1, 2, 5, 0, 0);
    a.cost.work = 8;
    b.cost.work = 5;
    cr_assert_geq(kernel_dag_add(dag, &a), 0);
    cr_assert_geq(kernel_dag_add(dag, &b), 0);
    cr_expect_eq(code_costs_estimate(dag), 60 + 7);
    kernel_dag_free(dag);
}

Test(code_costs, the_budget_is_the_environments_or_the_default_and_a_bad_one_is_refused)
{
    unsetenv("MCMSIM_CODE_BUDGET");
    cr_expect_eq(code_costs_budget(), CODE_COSTS_BUDGET);
    setenv("MCMSIM_CODE_BUDGET", "1e9", 1);
    cr_expect_eq(code_costs_budget(), 1e9);
    setenv("MCMSIM_CODE_BUDGET", "inf", 1);
    cr_expect(isinf(code_costs_budget()));
    setenv("MCMSIM_CODE_BUDGET", "lots", 1);
    cr_expect_eq(code_costs_budget(), -1);
    cr_expect(strstr(fail_message(), "MCMSIM_CODE_BUDGET=\"lots\"") != NULL, "%s", fail_message());
    setenv("MCMSIM_CODE_BUDGET", "-1", 1);
    cr_expect_eq(code_costs_budget(), -1);
    unsetenv("MCMSIM_CODE_BUDGET");
}

/* A set of the code's costs that ran no point of euclid names the points
 * it did not run, with their estimates, in the report: the paper's set has
 * the point, the code's set has it among not_run. */
Test(code_costs, a_point_over_the_budget_is_named_in_the_report_with_its_estimate)
{
    char root[64];
    snprintf(root, sizeof root, "/tmp/mcmsim-not-run-XXXXXX");
    cr_assert_not_null(mkdtemp(root));
    cr_assert_eq(chdir(root), 0);
    cr_assert_eq(mkdir("validate", 0755) | mkdir("validate/stream", 0755), 0);
    FILE *f = fopen("validate/stream/profiles.csv", "w");
    fputs("source,params,kernel,card_inst_per_warp,profile\n", f);
    fclose(f);

    measured_row row = test_row("euclid", "n=10000;m=10000;l=256;s=1");
    row.new_protocol = 1;
    row.graph.median = 60;
    kernel_dag *dag = kernel_dag_new("euclid");
    kernel k = test_kernel("ping_pong", 40, 256, 10, 1, 1);
    cr_assert_geq(kernel_dag_add(dag, &k), 0);
    vpoint point = {.row = &row, .dag = dag, .sim_ms = 40, .sim_ms_off = 40};
    validation paper = {.name = "b", .pts = &point, .n = 1}, code = {.name = "b-code"};
    const measured_row *not_run[1] = {&row};
    double estimate[1] = {3.2e9};
    code.not_run = not_run;
    code.not_run_estimate = estimate;
    code.n_not_run = 1;
    machine m = test_preset("h100-code");
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    cr_assert_eq(write_code_costs(out, &paper, &code, 1, &m, NULL, NULL, 0), 0, "%s", fail_message());
    fclose(out);
    cr_expect_not_null(strstr(text, "| euclid | b | 0 (1) | 33.3 % / 33.3 % / n/a | – | – |"), "%s", text);
    cr_expect_not_null(strstr(text, "Set b-code: 1 points not run in exec mode"), "%s", text);
    cr_expect_not_null(strstr(text, "- euclid: `n=10000;m=10000;l=256;s=1` (3.2e+09)"), "%s", text);
    free(text);
    kernel_dag_free(dag);
    char rm[100];
    snprintf(rm, sizeof rm, "rm -rf %s", root);
    cr_expect_eq(system(rm), 0);
}

/* The caches' table (validate/caches.c) of a set of the code's costs:
 * each case that ran through the caches and has points to score, its
 * errors with them and without, and a word that its compute is its
 * code's.  Two held-out matvec points measured 10 and 20 ms: with the
 * caches 9 and 22 (|errors| 10 %, 10 %: median, 90th percentile and worst
 * 10 %), without 12 and 25 (20 %, 25 %: median 22.5 %, 90th percentile
 * 20 + 0.9·5 = 24.5 %, worst 25 %).  Euclid's one point is of the
 * training half: no held-out point, so no row (not a row of nan). */
Test(code_costs, the_caches_table_of_a_code_set_scores_each_cached_case_with_points_with_and_without)
{
    measured_row small = test_row("user-matvec", "n=512;l=256"), large = test_row("user-matvec", "n=2048;l=256"),
                 gcd = test_row("euclid", "n=1000;m=1000;l=256;s=1");
    small.new_protocol = large.new_protocol = gcd.new_protocol = 1;
    small.graph.median = 10;
    large.graph.median = 20;
    gcd.graph.median = 5000;
    vpoint pts[3] = {
        {.row = &small, .train = 0, .sim_ms = 9, .cached = 1, .sim_ms_off = 12},
        {.row = &large, .train = 0, .sim_ms = 22, .cached = 1, .sim_ms_off = 25},
        {.row = &gcd, .train = 1, .sim_ms = 4000, .cached = 1, .sim_ms_off = 4500},
    };
    validation code = {.name = "a-code", .card = test_preset("h100-code"), .held_out_only = 1, .pts = pts, .n = 3};
    for (int paper = 0; paper < 2; paper++) {
        if (paper)
            snprintf(code.name, sizeof code.name, "a");
        char *text = NULL;
        size_t size = 0;
        FILE *out = open_memstream(&text, &size);
        cr_assert_eq(write_caches_table(out, &code), 0, "%s", fail_message());
        fclose(out);
        cr_expect_not_null(strstr(text, "| user-matvec | 2 | 10.0% | 22.5% | 10.0% | 24.5% | 10.0% | 25.0% |"), "%s",
                           text);
        cr_expect_null(strstr(text, "euclid"), "%s", text);
        cr_expect_null(strstr(text, "nan"), "%s", text);
        cr_expect_not_null(strstr(text, "Errors over the held-out half"), "%s", text);
        cr_expect_eq(strstr(text, "(the code's costs)") != NULL, !paper, "%s", text);
        free(text);
    }
}
