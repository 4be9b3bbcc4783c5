/*
 * test_code_record.c — the record of the code's costs (validate/code_record.c):
 * a point's key changes with anything that determines its figures (the
 * tree's sources, the case, its params, the machine and the machine
 * without the caches), the figures come back bit for bit, a row whose
 * figures were edited is refused, a record whose key is not the tree's is
 * never used, and its "made" line says which run made it.
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

/* m without the caches, as card.c's code machine without them differs. */
static machine record_machine_off(void)
{
    machine off = record_machine();
    off.l1_words = 0;
    return off;
}

/* A scratch folder (dir, a mkdtemp template) and the record's path in it. */
static void scratch_record(char *dir, char *path, size_t size)
{
    cr_assert_not_null(mkdtemp(dir));
    snprintf(path, size, "%s/code-record.csv", dir);
}

static void scratch_gone(const char *dir, const char *path)
{
    unlink(path);
    rmdir(dir);
}

static code_record_entry entry(const char *sources, const char *program, const char *params, const machine *m,
                               const machine *off)
{
    code_record_entry e = {.sim_ms = 0.1 + 0.2, .sim_ms_off = 1.0 / 3, .launches = 12, .rounds = 1e-300 * 3,
                           .cached = 1};
    code_record_key(sources, program, params, m, off, e.key);
    snprintf(e.program, sizeof e.program, "%s", program);
    snprintf(e.params, sizeof e.params, "%s", params);
    snprintf(e.machine, sizeof e.machine, "%.63s", m->name);
    return e;
}

Test(code_record, a_key_changes_with_the_sources_the_case_its_params_and_the_machine)
{
    machine m = record_machine(), other = record_machine(), off = record_machine_off(), other_off = off;
    char k[CODE_RECORD_KEY], k2[CODE_RECORD_KEY];
    code_record_key("s1", "euclid", "n=6000;s=1", &m, &off, k);
    code_record_key("s1", "euclid", "n=6000;s=1", &m, &off, k2);
    cr_assert_str_eq(k, k2);
    cr_assert_eq(strlen(k), CODE_RECORD_KEY - 1);
    code_record_key("s2", "euclid", "n=6000;s=1", &m, &off, k2);
    cr_assert_str_neq(k, k2, "the tree's sources");
    code_record_key("s1", "plain-mult", "n=6000;s=1", &m, &off, k2);
    cr_assert_str_neq(k, k2, "the case");
    code_record_key("s1", "euclid", "n=6000;s=256", &m, &off, k2);
    cr_assert_str_neq(k, k2, "the params");
    other.issue_rate = 4.000000001;
    code_record_key("s1", "euclid", "n=6000;s=1", &other, &off, k2);
    cr_assert_str_neq(k, k2, "the machine");
    other_off.issue_rate = 4.000000001;
    code_record_key("s1", "euclid", "n=6000;s=1", &m, &other_off, k2);
    cr_assert_str_neq(k, k2, "the machine without the caches");
}

Test(code_record, the_figures_come_back_bit_for_bit_and_a_wrong_key_is_refused)
{
    char dir[] = "/tmp/mcmsim-record-XXXXXX", path[256];
    scratch_record(dir, path, sizeof path);
    machine m = record_machine(), off = record_machine_off();
    code_record r = {0}, back;
    code_record_entry e = entry("tree", "euclid", "n=6000;m=6000;l=256;s=1", &m, &off);
    snprintf(r.made, sizeof r.made, "commit 0123456789ab, by `make validate-full`");
    cr_assert_eq(code_record_add(&r, &e), 0);
    cr_assert_eq(code_record_add(&r, &e), 0);
    cr_assert_eq(r.n, 1, "a point two sets share is recorded once");
    cr_assert_eq(code_record_save(&r, path, "tree"), 0);
    cr_assert_eq(code_record_load(&back, path, "tree"), 0);
    cr_assert_eq(back.n, 1);
    cr_assert_str_eq(back.made, r.made);
    const code_record_entry *got = code_record_find(&back, e.key);
    cr_assert_not_null(got);
    cr_assert(got->sim_ms == e.sim_ms && got->sim_ms_off == e.sim_ms_off && got->launches == e.launches &&
              got->rounds == e.rounds && got->cached == e.cached);
    char key[CODE_RECORD_KEY];
    code_record_key("another tree", "euclid", "n=6000;m=6000;l=256;s=1", &m, &off, key);
    cr_assert_null(code_record_find(&back, key), "a stale record: the tree's key is not its");
    code_record_free(&back);
    cr_assert_eq(code_record_load(&back, path, "another tree"), 0);
    cr_assert_eq(back.n, 0, "another tree's record is read as empty");
    cr_assert_str_eq(back.sources, "tree", "and says whose it is");
    code_record_free(&back);
    code_record_free(&r);
    scratch_gone(dir, path);
}

Test(code_record, no_record_is_an_empty_one_and_a_malformed_row_is_an_error)
{
    char dir[] = "/tmp/mcmsim-record-XXXXXX", path[256];
    scratch_record(dir, path, sizeof path);
    code_record r;
    cr_assert_eq(code_record_load(&r, path, NULL), 0);
    cr_assert_eq(r.n, 0);
    FILE *f = fopen(path, "w");
    fprintf(f, "key,program,params,machine,sim_ms,sim_ms_off,launches,rounds,cached,check\n"
               "0123456789abcdef0123456789abcdef,euclid,n=1,h100-code,1.5,x,1,1,0\n");
    fclose(f);
    cr_assert_eq(code_record_load(&r, path, NULL), -1);
    cr_assert_eq(r.n, 0);
    scratch_gone(dir, path);
}

/* Rows that carry their right check but whose fields are not a row's (a
 * figure that is no number, cached neither 0 nor 1, ten fields before the
 * check) are refused by their parse, naming the line and the form. */
Test(code_record, a_row_whose_check_holds_but_whose_fields_do_not_is_refused_by_its_parse)
{
    const char *rows[] = {"0123456789abcdef0123456789abcdef,euclid,n=1,h100-code,1.5,x,1,1,0",
                          "0123456789abcdef0123456789abcdef,euclid,n=1,h100-code,1.5,2,1,1,2",
                          "0123456789abcdef0123456789abcdef,euclid,n=1,h100-code,1.5,2,1,1,0,0"};
    for (int i = 0; i < 3; i++) {
        char dir[] = "/tmp/mcmsim-record-XXXXXX", path[256], check[17];
        scratch_record(dir, path, sizeof path);
        code_record_row_check(rows[i], strlen(rows[i]), check);
        FILE *f = fopen(path, "w");
        fprintf(f, "key,program,params,machine,sim_ms,sim_ms_off,launches,rounds,cached,check\n%s,%s\n", rows[i],
                check);
        fclose(f);
        code_record r;
        cr_expect_eq(code_record_load(&r, path, NULL), -1, "%s: taken", rows[i]);
        cr_expect_eq(r.n, 0);
        cr_expect_not_null(strstr(fail_message(), ":2: expected key,program,params,machine,"), "%s", fail_message());
        scratch_gone(dir, path);
    }
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

/* The record at path, its line `number` (from 1) with `from` replaced by
 * `to` (which must be there). */
static void edit_line(const char *path, int number, const char *from, const char *to)
{
    char text[8192] = "", line[1024];
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f);
    for (int k = 1; fgets(line, sizeof line, f); k++) {
        char *at = k == number ? strstr(line, from) : NULL;
        if (k == number)
            cr_assert_not_null(at, "line %d: %s has no %s", number, line, from);
        if (at) {
            char edited[1100];
            snprintf(edited, sizeof edited, "%.*s%s%s", (int)(at - line), line, to, at + strlen(from));
            strcat(text, edited);
        } else
            strcat(text, line);
    }
    fclose(f);
    put(path, text);
}

/* The number (from 1) of the line of path that holds `text`; 0 if none. */
static int line_of(const char *path, const char *text)
{
    char line[1024];
    int found = 0;
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f);
    for (int k = 1; !found && fgets(line, sizeof line, f); k++)
        found = strstr(line, text) ? k : 0;
    fclose(f);
    return found;
}

Test(code_record, a_row_whose_figures_were_edited_is_refused_naming_its_line)
{
    char dir[] = "/tmp/mcmsim-record-XXXXXX", path[256], where[300];
    scratch_record(dir, path, sizeof path);
    machine m = record_machine(), off = record_machine_off();
    code_record r = {0}, back;
    code_record_entry e = entry("tree", "euclid", "n=6000;s=1", &m, &off);
    code_record_entry e2 = entry("tree", "euclid", "n=6000;s=256", &m, &off);
    e.sim_ms = 2.5;
    cr_assert_eq(code_record_add(&r, &e), 0);
    cr_assert_eq(code_record_add(&r, &e2), 0);
    cr_assert_eq(code_record_save(&r, path, "tree"), 0);
    cr_assert_eq(code_record_load(&back, path, "tree"), 0, "as written, it is read");
    cr_assert_eq(back.n, 2);
    code_record_free(&back);
    int line = line_of(path, "n=6000;s=1,");
    cr_assert_gt(line, 0);
    edit_line(path, line, ",2.5,", ",2.4,");
    cr_assert_eq(code_record_load(&back, path, "tree"), -1, "an edited sim_ms is not taken as measured");
    cr_assert_eq(back.n, 0);
    snprintf(where, sizeof where, "%s:%d:", path, line);
    cr_assert(strstr(fail_message(), where) != NULL, "the message names the line: %s", fail_message());
    edit_line(path, line, ",2.4,", ",2.5,");
    cr_assert_eq(code_record_load(&back, path, "tree"), 0, "put back, it is read again");
    code_record_free(&back);
    code_record_free(&r);
    scratch_gone(dir, path);
}

Test(code_record, a_record_made_with_one_machine_without_the_caches_is_refused_for_another)
{
    char dir[] = "/tmp/mcmsim-record-XXXXXX", path[256], key[CODE_RECORD_KEY];
    scratch_record(dir, path, sizeof path);
    machine m = record_machine(), off = record_machine_off(), derived = off;
    derived.issue_rate = 3; /* e.g. the writers' constants derived on the machine without the caches */
    code_record r = {0}, back;
    code_record_entry e = entry("tree", "euclid", "n=6000;s=1", &m, &off);
    cr_assert_eq(code_record_add(&r, &e), 0);
    cr_assert_eq(code_record_save(&r, path, "tree"), 0);
    cr_assert_eq(code_record_load(&back, path, "tree"), 0);
    code_record_key("tree", "euclid", "n=6000;s=1", &m, &off, key);
    cr_assert_not_null(code_record_find(&back, key), "the same two machines: the record's point");
    code_record_key("tree", "euclid", "n=6000;s=1", &m, &derived, key);
    cr_assert_null(code_record_find(&back, key), "another machine without the caches: not the record's point");
    code_record_free(&back);
    code_record_free(&r);
    scratch_gone(dir, path);
}

Test(code_record, the_made_line_says_whether_a_full_run_or_a_step_made_it)
{
    char by[256], made[256];
    code_record_made_by(INFINITY, INFINITY, by, sizeof by);
    cr_assert_str_eq(by, "`make validate-full`");
    code_record_made_by(0.3, 5, by, sizeof by);
    cr_assert(strstr(by, "MCMSIM_CODE_RECORD=write") && strstr(by, "MCMSIM_CODE_BUDGET=0.3") &&
                  strstr(by, "MCMSIM_CODE_CELL_BUDGET=5") && !strstr(by, "validate-full"),
              "a step says its budgets: %s", by);
    code_record_made_by(INFINITY, 32, by, sizeof by);
    cr_assert(strstr(by, "MCMSIM_CODE_BUDGET=inf") && strstr(by, "MCMSIM_CODE_CELL_BUDGET=32"), "%s", by);
    code_record_made(0.3, 5, made, sizeof made);
    cr_assert(!strncmp(made, "commit ", 7) && strstr(made, "MCMSIM_CODE_CELL_BUDGET=5") && strstr(made, " UTC"),
              "%s", made);
}

/* A run writing to a record of its tree that has points keeps the line
 * of the run that made them and adds its own; to none, or another tree's,
 * its own alone. */
Test(code_record, a_run_adding_to_its_trees_record_keeps_the_made_line_and_adds_its_own)
{
    machine m = record_machine(), off = record_machine_off();
    code_record r = {0};
    char step[192], full[192], want[512];
    code_record_made_by(0.3, 5, step, sizeof step);
    code_record_made_by(INFINITY, INFINITY, full, sizeof full);
    code_record_remade(&r, INFINITY, INFINITY);
    cr_assert(!strncmp(r.made, "commit ", 7) && strstr(r.made, full) && !strstr(r.made, "; then"),
              "no points: the run's own line: %s", r.made);
    snprintf(r.made, sizeof r.made, "commit 0123456789ab, by %s, 2026-11-28 10:00 UTC", full);
    code_record_entry e = entry("tree", "euclid", "n=6000;s=1", &m, &off);
    cr_assert_eq(code_record_add(&r, &e), 0);
    snprintf(want, sizeof want, "commit 0123456789ab, by %s, 2026-11-28 10:00 UTC; then %s", full, step);
    code_record_remade(&r, 0.3, 5);
    cr_expect_str_eq(r.made, want, "a step after the full run");
    code_record_remade(&r, 0.3, 5);
    cr_expect_str_eq(r.made, want, "the same step again: said once");
    for (int budget = 1; budget <= 12; budget++) { /* runs of other budgets: the line fills */
        code_record_remade(&r, budget, 5);
        const char *more = strstr(r.made, "; then more runs");
        if (more)
            cr_expect_str_eq(more, "; then more runs", "said once, at the end, after run %d: %s", budget, r.made);
    }
    cr_expect(strlen(r.made) < sizeof r.made && strstr(r.made, "; then more runs"), "the line full: %s", r.made);
    memset(r.made, 'x', sizeof r.made - 11); /* 245 of its 255: no room for "; then more runs" (16) */
    r.made[sizeof r.made - 11] = 0;
    code_record_remade(&r, 0.3, 5);
    size_t n = strlen(r.made);
    cr_expect(n < sizeof r.made && n >= 16 && !strcmp(r.made + n - 16, "; then more runs"),
              "a line too full for it too ends with it: %s", r.made);
    code_record_free(&r);
}
