/*
 * test_code_record.c — the record of the code's costs (validate/code_record.c):
 * a point's key changes with anything that determines its figures (the
 * tree's sources, the case, its params, the machine), the figures come back
 * bit for bit, and a record whose key is not the tree's is never used.
 */
#include "helpers.h"
#include "validate.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static machine record_machine(void)
{
    machine m;
    memset(&m, 0, sizeof m);
    snprintf(m.name, sizeof m.name, "h100-code");
    m.p = 132;
    m.clock_hz = 1.755e9;
    m.issue_rate = 4;
    return m;
}

static code_record_entry entry(const char *sources, const char *program, const char *params, const machine *m)
{
    code_record_entry e = {.sim_ms = 0.1 + 0.2, .sim_ms_off = 1.0 / 3, .launches = 12, .rounds = 1e-300 * 3,
                           .cached = 1};
    code_record_key(sources, program, params, m, e.key);
    snprintf(e.program, sizeof e.program, "%s", program);
    snprintf(e.params, sizeof e.params, "%s", params);
    snprintf(e.machine, sizeof e.machine, "%.63s", m->name);
    return e;
}

Test(code_record, a_key_changes_with_the_sources_the_case_its_params_and_the_machine)
{
    machine m = record_machine(), other = record_machine();
    char k[CODE_RECORD_KEY], k2[CODE_RECORD_KEY];
    code_record_key("s1", "euclid", "n=6000;s=1", &m, k);
    code_record_key("s1", "euclid", "n=6000;s=1", &m, k2);
    cr_assert_str_eq(k, k2);
    cr_assert_eq(strlen(k), CODE_RECORD_KEY - 1);
    code_record_key("s2", "euclid", "n=6000;s=1", &m, k2);
    cr_assert_str_neq(k, k2, "the tree's sources");
    code_record_key("s1", "plain-mult", "n=6000;s=1", &m, k2);
    cr_assert_str_neq(k, k2, "the case");
    code_record_key("s1", "euclid", "n=6000;s=256", &m, k2);
    cr_assert_str_neq(k, k2, "the params");
    other.issue_rate = 4.000000001;
    code_record_key("s1", "euclid", "n=6000;s=1", &other, k2);
    cr_assert_str_neq(k, k2, "the machine");
}

Test(code_record, the_figures_come_back_bit_for_bit_and_a_wrong_key_is_refused)
{
    char dir[] = "/tmp/mcmsim-record-XXXXXX", path[256];
    cr_assert_not_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/code-record.csv", dir);
    machine m = record_machine();
    code_record r = {0}, back;
    code_record_entry e = entry("tree", "euclid", "n=6000;m=6000;l=256;s=1", &m);
    snprintf(r.made, sizeof r.made, "commit 0123456789ab, by `make validate-full`");
    cr_assert_eq(code_record_add(&r, &e), 0);
    cr_assert_eq(code_record_add(&r, &e), 0);
    cr_assert_eq(r.n, 1, "a point two sets share is recorded once");
    cr_assert_eq(code_record_save(&r, path, "tree"), 0);
    cr_assert_eq(code_record_load(&back, path), 0);
    cr_assert_eq(back.n, 1);
    cr_assert_str_eq(back.made, r.made);
    const code_record_entry *got = code_record_find(&back, e.key);
    cr_assert_not_null(got);
    cr_assert(got->sim_ms == e.sim_ms && got->sim_ms_off == e.sim_ms_off && got->launches == e.launches &&
              got->rounds == e.rounds && got->cached == e.cached);
    char key[CODE_RECORD_KEY];
    code_record_key("another tree", "euclid", "n=6000;m=6000;l=256;s=1", &m, key);
    cr_assert_null(code_record_find(&back, key), "a stale record: the tree's key is not its");
    code_record_free(&back);
    code_record_free(&r);
    unlink(path);
    rmdir(dir);
}

Test(code_record, no_record_is_an_empty_one_and_a_malformed_row_is_an_error)
{
    char dir[] = "/tmp/mcmsim-record-XXXXXX", path[256];
    cr_assert_not_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/code-record.csv", dir);
    code_record r;
    cr_assert_eq(code_record_load(&r, path), 0);
    cr_assert_eq(r.n, 0);
    FILE *f = fopen(path, "w");
    fprintf(f, "key,program,params,machine,sim_ms,sim_ms_off,launches,rounds,cached\n"
               "0123456789abcdef0123456789abcdef,euclid,n=1,h100-code,1.5,x,1,1,0\n");
    fclose(f);
    cr_assert_eq(code_record_load(&r, path), -1);
    cr_assert_eq(r.n, 0);
    unlink(path);
    rmdir(dir);
}

/* A file of the test's tree. */
static void put(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f, "%s", path);
    fputs(text, f);
    fclose(f);
}

Test(code_record, the_trees_key_changes_with_a_source_not_with_a_run_file_or_a_preset)
{
    char dir[] = "/tmp/mcmsim-record-XXXXXX", here[1024], first[CODE_RECORD_KEY], again[CODE_RECORD_KEY];
    cr_assert_not_null(getcwd(here, sizeof here));
    cr_assert_not_null(mkdtemp(dir));
    cr_assert_eq(chdir(dir), 0);
    const char *dirs[] = {"sim", "sim/exec", "machine", "programs", "programs/euclid", "validate"};
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++)
        cr_assert_eq(mkdir(dirs[i], 0755), 0);
    put("sim/exec/exec.c", "int x;\n");
    put("machine/machine.h", "struct m;\n");
    put("programs/euclid/kernels.c", "void k(void) {}\n");
    put("validate/main.c", "int main(void) { return 0; }\n");
    put("validate/code_costs.c", "\n");
    put("Makefile", "CFLAGS := -O2\n");
    cr_assert_eq(code_record_sources(first), 0);
    put("programs/euclid/euclid.cfg", "sweep = {};\n");
    put("machine/h100-code.cfg", "machine = {};\n");
    cr_assert_eq(code_record_sources(again), 0);
    cr_assert_str_eq(first, again, "a run file or a preset `make validate` writes is not a source");
    put("programs/euclid/kernels.c", "void k(void) { ; }\n");
    cr_assert_eq(code_record_sources(again), 0);
    cr_assert_str_neq(first, again, "a kernel written once");
    put("programs/euclid/kernels.c", "void k(void) {}\n");
    cr_assert_eq(code_record_sources(again), 0);
    cr_assert_str_eq(first, again);
    put("Makefile", "CFLAGS := -O3\n");
    cr_assert_eq(code_record_sources(again), 0);
    cr_assert_str_neq(first, again, "the build flags");
    cr_assert_eq(chdir(here), 0);
    char command[1100];
    snprintf(command, sizeof command, "rm -rf '%s'", dir);
    cr_assert_eq(system(command), 0);
}
