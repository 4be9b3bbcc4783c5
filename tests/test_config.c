/*
 * test_config.c — run files: machines (presets, files, inline), programs
 * described with formulas, repeats, `after`, sweeps and --set.
 */
#include "helpers.h"
#include "program.h"
#include "runfile.h"

static kernel_dag *load_point(const char *text, char **sets, int n_sets, long point, machine *m, run_file *rf)
{
    char *path = temp_file(text, ".cfg");
    cr_assert_eq(runfile_load(rf, path, sets, n_sets), 0, "%s", fail_message());
    vars params;
    const char *name;
    cr_assert_eq(runfile_point(rf, point, m, &params, &name), 0, "%s", fail_message());
    kernel_dag *dag = program_build(rf->program, name, &params, m);
    cr_assert_not_null(dag, "%s", fail_message());
    unlink(path);
    free(path);
    return dag;
}

static const char *halving =
    "machine = \"mcm\";\n"
    "program = { name = \"halving\"; params = { n = 1024; l = 64; };\n"
    "  kernels = ( { name = \"add\"; repeat = \"log2(n)\"; blocks = \"n/(2^(i+1)*l)\";\n"
    "                threads = \"l\"; span = 1; reads = 2; writes = 1; } ); };\n";

Test(config, repeat_is_a_chain_and_blocks_round_up)
{
    run_file rf;
    machine m;
    kernel_dag *dag = load_point(halving, NULL, 0, 0, &m, &rf);
    cr_assert_eq(dag->n, 10);
    long expected[10] = {8, 4, 2, 1, 1, 1, 1, 1, 1, 1}; /* 512/64 ... 1/64 rounded up */
    for (int i = 0; i < 10; i++) {
        cr_expect_eq(dag->kernels[i].blocks, expected[i], "add[%d]", i);
        cr_expect_eq(dag->kernels[i].threads, 64);
        cr_expect_eq(dag->kernels[i].cost.work, 64, "work defaults to ℓ·span");
        if (i > 0) {
            cr_expect_eq(dag->kernels[i].n_after, 1);
            cr_expect_eq(dag->kernels[i].after[0], i - 1);
        }
    }
    cr_expect_str_eq(dag->kernels[3].name, "add[3]");
    cr_expect_str_eq(m.name, "mcm");
    kernel_dag_free(dag);
    runfile_close(&rf);
}

Test(config, a_repeat_formula_a_rounding_error_off_a_whole_number_counts)
{
    /* log2(2^31) evaluates to 31.000000000000004 */
    char *sets[] = {"n=2147483648"};
    run_file rf;
    machine m;
    kernel_dag *dag = load_point(halving, sets, 1, 0, &m, &rf);
    cr_expect_eq(dag->n, 31);
    kernel_dag_free(dag);
    runfile_close(&rf);
}

Test(config, after_lists_and_absent_kernels)
{
    const char *text =
        "program = { name = \"g\"; params = { n = 4; };\n"
        "  kernels = (\n"
        "    { name = \"a\"; blocks = 2; threads = 1; span = 1; },\n"
        "    { name = \"b\"; blocks = 3; threads = 1; span = 1; after = [ ]; },\n"
        "    { name = \"skip\"; repeat = 0; blocks = 1; threads = 1; span = 1; after = [\"a\", \"b\"]; },\n"
        "    { name = \"c\"; blocks = \"n\"; threads = 1; span = 1; },\n"
        "    { name = \"d\"; blocks = 1; threads = 1; span = 1; after = [\"a\"]; }\n"
        "  ); };\n";
    run_file rf;
    machine m;
    kernel_dag *dag = load_point(text, NULL, 0, 0, &m, &rf);
    cr_assert_eq(dag->n, 4); /* a, b, c, d */
    cr_expect_eq(dag->kernels[0].n_after, 0);
    cr_expect_eq(dag->kernels[1].n_after, 0, "after = [] makes a root");
    cr_expect_eq(dag->kernels[2].n_after, 2, "c comes after what the absent 'skip' came after");
    cr_expect_eq(dag->kernels[2].blocks, 4);
    cr_expect_eq(dag->kernels[3].n_after, 1);
    cr_expect_eq(dag->kernels[3].after[0], 0);
    kernel_dag_free(dag);
    runfile_close(&rf);
}

Test(config, sweep_is_a_cross_product_last_key_fastest)
{
    const char *text =
        "program = { name = \"s\"; params = { n = 64; s = 1; };\n"
        "  kernels = ( { name = \"k\"; blocks = \"n/s\"; threads = 4; span = \"s\"; } ); };\n"
        "sweep = { s = [1, 2, 4]; p = [3, 5]; };\n";
    char *path = temp_file(text, ".cfg");
    run_file rf;
    cr_assert_eq(runfile_load(&rf, path, NULL, 0), 0, "%s", fail_message());
    cr_assert_eq(runfile_points(&rf), 6);
    machine m;
    vars v;
    const char *name;
    cr_assert_eq(runfile_point(&rf, 3, &m, &v, &name), 0);
    cr_expect_eq(*vars_get(&v, "s"), 2);
    cr_expect_eq(m.p, 5);
    cr_expect_str_eq(runfile_axis_value(&rf, 3, 0), "2");
    cr_expect_str_eq(runfile_axis_value(&rf, 3, 1), "5");
    runfile_close(&rf);
    char *pin[] = {"s=8"};
    cr_assert_eq(runfile_load(&rf, path, pin, 1), 0, "%s", fail_message());
    cr_expect_eq(runfile_points(&rf), 2, "--set pins a swept key");
    cr_assert_eq(runfile_point(&rf, 1, &m, &v, &name), 0);
    cr_expect_eq(*vars_get(&v, "s"), 8);
    runfile_close(&rf);
    unlink(path);
    free(path);
}

Test(config, set_overrides_params_and_machine_fields)
{
    char *sets[] = {"n=4096", "p=3", "policy=shared", "machine.u=2.5", "bandwidth=0.5"};
    run_file rf;
    machine m;
    kernel_dag *dag = load_point(halving, sets, 5, 0, &m, &rf);
    cr_expect_eq(dag->n, 12);
    cr_expect_eq(m.p, 3);
    cr_expect_eq(m.u, 2.5);
    cr_expect_eq(m.policy, MEM_SHARED);
    cr_expect_eq(m.bandwidth, 0.5);
    kernel_dag_free(dag);
    runfile_close(&rf);
}

Test(config, inline_machine_from_a_preset)
{
    const char *text =
        "machine = { preset = \"gtx670\"; u = 3.0; };\n"
        "program = { name = \"sum\"; params = { n = 4096; }; };\n";
    run_file rf;
    machine m;
    kernel_dag *dag = load_point(text, NULL, 0, 0, &m, &rf);
    cr_expect_eq(m.p, 7, "from the preset");
    cr_expect_eq(m.u, 3, "overridden inline");
    cr_expect_eq(dag->n, 12, "built-in sum: log2(4096) kernels");
    kernel_dag_free(dag);
    runfile_close(&rf);
}

Test(config, every_preset_loads_and_is_valid)
{
    const char *presets[] = {"mcm", "gtx670", "tesla-c2050", "h100", "h200"};
    int sms[] = {16, 7, 14, 132, 132};
    for (int i = 0; i < 5; i++) {
        machine m;
        char path[1024];
        machine_defaults(&m);
        machine_preset_path(presets[i], path, sizeof path);
        cr_assert_eq(machine_load_file(&m, path), 0, "%s", fail_message());
        cr_expect_eq(machine_validate(&m), 0, "%s", fail_message());
        cr_expect_str_eq(m.name, presets[i]);
        cr_expect_eq(m.p, sms[i], "%s", presets[i]);
    }
}

Test(config, the_demo_runs)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/programs/demo.cfg", MCMSIM_DATADIR);
    run_file rf;
    cr_assert_eq(runfile_load(&rf, path, NULL, 0), 0, "%s", fail_message());
    machine m;
    vars v;
    const char *name;
    cr_assert_eq(runfile_point(&rf, 0, &m, &v, &name), 0);
    kernel_dag *dag = program_build(rf.program, name, &v, &m);
    cr_assert_not_null(dag, "%s", fail_message());
    sim_result r = simulate(dag, &m);
    cr_expect_leq(r.T, r.bound_theorem1);
    sim_result_free(&r);
    kernel_dag_free(dag);
    runfile_close(&rf);
}

Test(config, sweeping_programs_gives_each_its_defaults)
{
    /* sum takes n and l; the run file's params give only what both share */
    const char *text =
        "program = { name = \"sum\"; params = { l = 32; }; };\n"
        "sweep = { program = [\"sum\", \"sum\"]; n = [64, 4096]; };\n";
    char *path = temp_file(text, ".cfg");
    run_file rf;
    cr_assert_eq(runfile_load(&rf, path, NULL, 0), 0, "%s", fail_message());
    cr_assert_eq(runfile_points(&rf), 4);
    machine m;
    vars v;
    const char *name;
    cr_assert_eq(runfile_point(&rf, 1, &m, &v, &name), 0, "%s", fail_message());
    cr_expect_str_eq(name, "sum");
    cr_expect_eq(*vars_get(&v, "n"), 4096);
    cr_expect_eq(*vars_get(&v, "l"), 32);
    runfile_close(&rf);
    char *bad[] = {"program=no-such"};
    cr_expect_eq(runfile_load(&rf, path, bad, 1), -1);
    cr_expect(strstr(fail_message(), "'no-such' is not a built-in program") != NULL, "%s", fail_message());
    runfile_close(&rf);
    unlink(path);
    free(path);
}
