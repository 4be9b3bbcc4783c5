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
 * thread, classes 1 plain, 2 mulmods, 1 private access a thread (16 a
 * block): 3·(8 + 4·(1 + 2)) = 60; 1 block of 2 threads, W(B) = 5, none
 * and no classes (its 5 plain): 5 + 2 = 7.  W = 67 (24 of it accesses),
 * N·ℓ = 14, N = 4, L = 2; operations 3·16 + 5 = 53, 12 private. */
Test(code_costs, the_estimates_terms_are_the_worksheets_work_operations_blocks_and_launches)
{
    kernel_dag *dag = kernel_dag_new("estimate");
    kernel a = test_kernel("a", 3, 4, 2, 1, 1), b = test_kernel("b", 1, 2, 5, 0, 0);
    a.cost.work = 8;
    b.cost.work = 5;
    cost_set_classes(&a.cost, 4, 1, 2, 0, 1, 0);
    cr_assert_geq(kernel_dag_add(dag, &a), 0);
    cr_assert_geq(kernel_dag_add(dag, &b), 0);
    exec_terms t = code_costs_terms(dag);
    cr_expect_eq(t.work, 60 + 7);
    cr_expect_eq(t.accesses, 3 * 4 * 2);
    cr_expect_eq(t.threads, 3 * 4 + 2);
    cr_expect_eq(t.blocks, 4);
    cr_expect_eq(t.launches, 2);
    cr_expect_eq(t.ops[OP_PLAIN], 3 * 4 + 5);
    cr_expect_eq(t.ops[OP_MULMOD], 3 * 8);
    cr_expect_eq(t.ops[OP_ADDMOD], 0);
    cr_expect_eq(t.ops[OP_PRIVATE], 3 * 4);
    double seconds = EXEC_SECONDS_OPERATION * 53 + EXEC_SECONDS_PRIVATE * 12 + EXEC_SECONDS_ACCESS * 24 +
                     EXEC_SECONDS_BLOCK * 4 + EXEC_SECONDS_LAUNCH * 2;
    cr_expect_float_eq(code_costs_estimate(dag), seconds, 1e-12);
    kernel_dag_free(dag);
}

/* Exec mode runs the case's code, not the paper's operations: two
 * kernels of the same W, one whose worksheet counts the paper's
 * operations (a DFT's 32m² + 9m a thread, m = 16: 8 336) beside the
 * classes of its code (4m² + 3: 1 027), the other whose classes are its
 * W.  The estimate follows the classes (the FFTs were estimated 4 to 11
 * times their time by W: instruction-stream.md, session 47); it fails
 * this if it charges W. */
Test(code_costs, the_estimate_follows_the_operations_of_the_code_not_the_papers)
{
    kernel_dag *paper = kernel_dag_new("paper"), *code = kernel_dag_new("code");
    kernel dft = test_kernel("dft", 4096, 128, 8336, 0, 0), same = test_kernel("same", 4096, 128, 8336, 0, 0);
    cost_set_classes(&dft.cost, 128, 2 * 256 + 3, 256, 256, 0, 0);
    cr_assert_geq(kernel_dag_add(paper, &dft), 0);
    cr_assert_geq(kernel_dag_add(code, &same), 0);
    cr_expect_eq(code_costs_terms(paper).work, code_costs_terms(code).work);
    cr_expect_lt(code_costs_estimate(paper), code_costs_estimate(code) / 4);
    kernel_dag_free(paper);
    kernel_dag_free(code);
}

/* The same operations (2 048 plain) cut three ways: one block of 1 024
 * threads in one launch; 1 024 blocks of one thread; 64 blocks of 16
 * threads in one launch, and in 64 launches of one block.  Exec mode's
 * time has a term per block and per launch besides the operations
 * (instruction-stream.md, sessions 46 and 47), so more blocks or more
 * launches cost more: the estimate fails this if the operations', the
 * blocks' or the launches' term is dropped.  A private access costs more
 * than a plain operation (its checks and bank notes), a global one more
 * again. */
static kernel_dag *cut(int launches, long blocks, int threads)
{
    kernel_dag *dag = kernel_dag_new("cut");
    for (int l = 0; l < launches; l++) {
        kernel k = test_kernel("k", blocks, threads, 1, 0, 0);
        k.cost.work = 2048.0 / launches / (double)blocks;
        cr_assert_geq(kernel_dag_add(dag, &k), 0);
    }
    return dag;
}

Test(code_costs, the_estimate_charges_blocks_and_launches_beside_the_operations)
{
    kernel_dag *one = cut(1, 1, 1024), *blocks = cut(1, 1024, 1);
    kernel_dag *launched = cut(1, 64, 16), *launches = cut(64, 1, 16);
    cr_expect_eq(code_costs_terms(one).ops[OP_PLAIN], 2048);
    cr_expect_eq(code_costs_terms(blocks).ops[OP_PLAIN], 2048);
    cr_expect_eq(code_costs_terms(launches).ops[OP_PLAIN], 2048);
    cr_expect_gt(EXEC_SECONDS_OPERATION, 0);
    cr_expect_gt(code_costs_estimate(one), EXEC_SECONDS_OPERATION * 2048);      /* its block, its launch */
    cr_expect_gt(code_costs_estimate(blocks), code_costs_estimate(one));         /* per block */
    cr_expect_gt(code_costs_estimate(launches), code_costs_estimate(launched));   /* per launch */
    cr_expect_gt(EXEC_SECONDS_PRIVATE, 0);
    cr_expect_gt(EXEC_SECONDS_ACCESS, EXEC_SECONDS_OPERATION);
    kernel_dag_free(one);
    kernel_dag_free(blocks);
    kernel_dag_free(launched);
    kernel_dag_free(launches);
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

Test(code_costs, the_cells_budget_is_the_environments_or_the_default_and_a_bad_one_is_refused)
{
    unsetenv("MCMSIM_CODE_CELL_BUDGET");
    cr_expect_eq(code_costs_cell_budget(), CODE_COSTS_CELL_BUDGET);
    setenv("MCMSIM_CODE_CELL_BUDGET", "16", 1);
    cr_expect_eq(code_costs_cell_budget(), 16);
    setenv("MCMSIM_CODE_CELL_BUDGET", "inf", 1);
    cr_expect(isinf(code_costs_cell_budget()));
    setenv("MCMSIM_CODE_CELL_BUDGET", "lots", 1);
    cr_expect_eq(code_costs_cell_budget(), -1);
    cr_expect(strstr(fail_message(), "MCMSIM_CODE_CELL_BUDGET=\"lots\"") != NULL, "%s", fail_message());
    setenv("MCMSIM_CODE_CELL_BUDGET", "-1", 1);
    cr_expect_eq(code_costs_cell_budget(), -1);
    unsetenv("MCMSIM_CODE_CELL_BUDGET");
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
    cr_expect_not_null(strstr(text, "Set b-code: 1 point not run in exec mode"), "%s", text);
    cr_expect_not_null(strstr(text, "- euclid: `n=10000;m=10000;l=256;s=1` (3.2e+09)"), "%s", text);
    free(text);
    kernel_dag_free(dag);
    char rm[100];
    snprintf(rm, sizeof rm, "rm -rf %s", root);
    cr_expect_eq(system(rm), 0);
}

/* The caches tests' three measured rows: two matvec points of 10 and 20
 * ms, and a Euclid point of 5 s. */
static void caches_rows(measured_row *small, measured_row *large, measured_row *gcd)
{
    *small = test_row("user-matvec", "n=512;l=256");
    *large = test_row("user-matvec", "n=2048;l=256");
    *gcd = test_row("euclid", "n=1000;m=1000;l=256;s=1");
    small->new_protocol = large->new_protocol = gcd->new_protocol = 1;
    small->graph.median = 10;
    large->graph.median = 20;
    gcd->graph.median = 5000;
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
    measured_row small, large, gcd;
    caches_rows(&small, &large, &gcd);
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

/* The caches' points (validate/caches.c), hand-checked: two matvec points
 * measured 10 and 20 ms, 9 and 22 with the caches (-10 %, +10 %), 12 and
 * 25 without (+20 %, +25 %), one row each, in the set's order; euclid's
 * point did not run through them (no row); a machine without caches
 * writes no file. */
Test(code_costs, the_caches_points_give_each_cached_point_with_and_without)
{
    char root[64];
    snprintf(root, sizeof root, "/tmp/mcmsim-caches-points-XXXXXX");
    cr_assert_not_null(mkdtemp(root));
    measured_row small, large, gcd;
    caches_rows(&small, &large, &gcd);
    vpoint pts[3] = {
        {.row = &small, .train = 0, .sim_ms = 9, .cached = 1, .sim_ms_off = 12},
        {.row = &gcd, .train = 1, .sim_ms = 4000, .cached = 0, .sim_ms_off = 4000},
        {.row = &large, .train = 1, .sim_ms = 22, .cached = 1, .sim_ms_off = 25},
    };
    validation code = {.name = "a-code", .card = test_preset("h100-code"), .pts = pts, .n = 3};
    snprintf(code.report_dir, sizeof code.report_dir, "%s", root);
    cr_assert_eq(write_caches_points(&code), 0, "%s", fail_message());
    char path[128], text[512] = "";
    snprintf(path, sizeof path, "%s/caches-points.csv", root);
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f);
    size_t got = fread(text, 1, sizeof text - 1, f);
    text[got] = 0;
    fclose(f);
    cr_expect_str_eq(text, "case,params,split,measured_ms,with_ms,without_ms,rel_error_with,rel_error_without\n"
                           "user-matvec,n=512;l=256,test,10,9,12,-0.1000,0.2000\n"
                           "user-matvec,n=2048;l=256,train,20,22,25,0.1000,0.2500\n");
    cr_assert_eq(remove(path), 0);
    code.card.l1_words = 0;
    cr_assert_eq(write_caches_points(&code), 0, "%s", fail_message());
    cr_expect_null(fopen(path, "r"));
    cr_expect_eq(rmdir(root), 0);
}

/* A counts' row of kernel k of `source` at `params`, the card's count and
 * ours. */
static count_row count_of(const char *where, const char *k, const char *source, const char *params, double card,
                          double ours)
{
    count_row r = {.card = card, .ours = ours};
    snprintf(r.where, sizeof r.where, "%s", where);
    snprintf(r.kernel, sizeof r.kernel, "%s", k);
    snprintf(r.source, sizeof r.source, "%s", source);
    snprintf(r.params, sizeof r.params, "%s", params);
    return r;
}

/* A miss whose kernel the same file counts at the same point within the
 * bound of another row's card is another build on the card, that row
 * named; a miss without such a row takes the cause written down for its
 * file and kernel; neither: no cause.  A row at other params, or whose
 * card agrees with the miss's, shows no other build. */
Test(code_costs, a_miss_is_another_build_where_the_same_code_meets_another_cards_count_else_its_written_cause)
{
    count_row rows[] = {
        count_of("h100 `a`", "dft_m", "programs/cooley-tukey/kernels.c", "n=16", 4445.0, 2314.0),
        count_of("h100 `b`", "dft_m", "programs/cooley-tukey/kernels.c", "n=16", 2353.0, 2314.0),
        count_of("h100 `b`", "scale", "programs/fft-mult/kernels.c", "n=16", 40.0, 34.0),
        count_of("h100 `a`", "scale", "programs/fft-mult/kernels.c", "n=32", 39.0, 34.0),
        count_of("h100 `b`", "add", "programs/sum/kernels.c", "n=16", 30.0, 20.0),
    };
    count_cause written_one = {"programs/fft-mult/kernels.c", "scale", "the write's address", "its SASS"};
    count_causes written = {&written_one, 1};
    char why[512];
    cr_expect(!count_within(&rows[0]) && count_within(&rows[1]) && !count_within(&rows[2]));
    cr_assert_eq(count_miss_cause(rows, 5, 0, &written, why, sizeof why), 1);
    cr_expect(strstr(why, "another build") && strstr(why, "h100 `b`") && strstr(why, "2353.0"), "%s", why);
    cr_assert_eq(count_miss_cause(rows, 5, 2, &written, why, sizeof why), 1);
    cr_expect_str_eq(why, "the write's address (its SASS)");
    cr_expect_eq(count_miss_cause(rows, 5, 4, &written, why, sizeof why), 0);
    cr_expect_eq(count_miss_cause(rows, 5, 4, NULL, why, sizeof why), 0);
}

/* The causes' file: a line of four fields, none empty, quotes around a
 * field with commas; a missing file has none; a short line is refused. */
Test(code_costs, the_causes_file_is_read_field_by_field_and_a_short_line_refused)
{
    char path[] = "/tmp/mcmsim-causes-XXXXXX";
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    FILE *f = fdopen(fd, "w");
    fputs("source,kernel,cause,evidence\n# a comment\nsrc.c,k,\"a cause, with a comma\",\"its SASS\"\n", f);
    fclose(f);
    count_causes c;
    cr_assert_eq(count_causes_load(path, &c), 0, "%s", fail_message());
    cr_assert_eq(c.n, 1);
    cr_expect_str_eq(c.c[0].cause, "a cause, with a comma");
    cr_expect_str_eq(c.c[0].evidence, "its SASS");
    count_causes_free(&c);
    f = fopen(path, "w");
    fputs("source,kernel,cause,evidence\nsrc.c,k,a cause\n", f);
    fclose(f);
    cr_expect_eq(count_causes_load(path, &c), -1);
    cr_expect(strstr(fail_message(), ":2:") != NULL, "%s", fail_message());
    unlink(path);
    cr_expect_eq(count_causes_load("/nonexistent/causes.csv", &c), 0);
    cr_expect_eq(c.n, 0);
}

/* The committed report's counts against Nsight Compute: every miss has a
 * cause (none "none known"), a row within 15 % none, and every line of
 * validate/stream/count-misses.csv is the cause of a miss (no cause left
 * over from a count since fixed). */
Test(code_costs, the_committed_reports_every_miss_has_a_cause_and_every_written_cause_a_miss)
{
    long len;
    char *text = read_file(MCMSIM_DATADIR "/validate/report/REPORT.md", &len);
    cr_assert_not_null(text, "no validate/report/REPORT.md (make validate)");
    char *table = strstr(text, "| kernel | program and params | the card's count | counted | counted/card | "
                               "within 15 % | the miss's cause |");
    cr_assert_not_null(table, "no counts' table with its causes in REPORT.md");
    count_causes written;
    cr_assert_eq(count_causes_load(MCMSIM_DATADIR "/validate/stream/count-misses.csv", &written), 0, "%s",
                 fail_message());
    char *used = calloc((size_t)written.n + 1, 1);
    int misses = 0;
    for (char *line = strchr(table, '\n') + 1, *end; line && *line == '|'; line = end ? end + 1 : NULL) {
        end = strchr(line, '\n');
        char row[4096];
        snprintf(row, sizeof row, "%.*s", end ? (int)(end - line) : (int)strlen(line), line);
        if (!strncmp(row, "|---", 4))
            continue;
        char *cause = strrchr(row, '|');
        *cause = '\0';
        cause = strrchr(row, '|') + 1; /* the last cell */
        int miss = strstr(row, "| **no** |") != NULL;
        misses += miss;
        cr_expect(!miss || (strlen(cause) > 3 && !strstr(cause, "none known")), "a miss without a cause: %s", row);
        cr_expect(miss || strspn(cause, " ") == strlen(cause), "a cause on a row within 15 %%: %s", row);
        for (int k = 0; miss && k < written.n; k++)
            used[k] |= strstr(cause, written.c[k].cause) == cause + 1;
    }
    cr_expect_gt(misses, 0, "no miss read: the table's format changed?");
    for (int k = 0; k < written.n; k++)
        cr_expect(used[k], "count-misses.csv's cause of %s %s explains no miss of the report", written.c[k].source,
                  written.c[k].kernel);
    free(used);
    count_causes_free(&written);
    free(text);
}
