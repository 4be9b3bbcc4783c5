/*
 * test_grammar.c — the whole run-file grammar, key by key: for every key
 * of every group (the top level, the machine, the program, a kernel, the
 * compare group, a param, a sweep), values of the wrong type and a value
 * out of its range are each refused through the mcmsim binary: exit
 * status 1, nothing on stdout, one line on stderr naming the key and the
 * line it is written on.
 *
 * The table below is checked against the loaders' own lists of keys
 * (runfile_top_keys, machine_key, program_key_names, config_kernel_key,
 * compare_key_names): a key added to a loader without a row here, or a row
 * for a key no loader reads, fails `every_key_of_the_grammar_has_a_row`.
 *
 * Each file is written so that the key under test is alone on its line,
 * after the lines that make the rest of the run file valid (checked by
 * `the_files_around_the_keys_are_valid`).
 */
#include "compare.h"
#include "helpers.h"
#include "program.h"
#include "runfile.h"

#include <ctype.h>
#include <sys/wait.h>

typedef enum { TOP, MACHINE, PROGRAM, KERNEL, COMPARE, PARAM, SWEEP, GROUPS } group;

static const char *const group_names[] = {"top level", "machine", "program", "kernel", "compare", "params", "sweep"};

typedef struct row {
    group g;
    const char *key;
    const char *wrong[4]; /* values of another type than the key takes, NULL-terminated */
    const char *beyond;   /* a value out of the key's range (NULL: true and false have none) */
    const char *named;    /* what each message names, where not the key itself (as a word) */
} row;

/* Values of the wrong type, by what the key takes. */
#define NOT_NUMBER {"\"4\"", "true", NULL}
#define NOT_FORMULA {"true", "{ x = 1; }", NULL}
#define NOT_STRING {"5", "true", NULL}
#define NOT_BOOL {"\"no\"", "0", "1.5", NULL}
#define NOT_GROUP {"5", "\"x\"", NULL}
#define NOT_LIST {"5", "{ x = 1; }", NULL}

/* A string longer than any key takes (4097 characters). */
static char long_string[4100];

static const row rows[] = {
    /* the top level */
    {TOP, "machine", {"5", "true", "[1]", NULL}, "\"no-such-preset\"", NULL},
    {TOP, "program", NOT_GROUP, "{ }", NULL},
    {TOP, "sweep", NOT_GROUP, "{ n = []; }", NULL},
    {TOP, "compare", NOT_GROUP, "{ colour = 1; }", NULL},
    {TOP, "description", NOT_STRING, "LONG", NULL},
    /* the machine group */
    {MACHINE, "preset", NOT_STRING, "\"no-such-preset\"", NULL},
    {MACHINE, "name", NOT_STRING, "LONG", NULL},
    {MACHINE, "source", NOT_STRING, "LONG", NULL},
    {MACHINE, "kind", NOT_STRING, "\"pram\"", NULL},
    {MACHINE, "p", NOT_NUMBER, "0", NULL},
    {MACHINE, "u", NOT_NUMBER, "0", NULL},
    {MACHINE, "z", NOT_NUMBER, "0.5", NULL},
    {MACHINE, "policy", NOT_STRING, "\"fastest\"", NULL},
    {MACHINE, "bandwidth", NOT_NUMBER, "-1", NULL},
    {MACHINE, "launch_latency", NOT_NUMBER, "-1", NULL},
    {MACHINE, "block_dispatch", NOT_NUMBER, "-1", NULL},
    {MACHINE, "clock_hz", NOT_NUMBER, "0", NULL},
    {MACHINE, "order", NOT_STRING, "\"lifo\"", NULL},
    {MACHINE, "seed", NOT_NUMBER, "-1", NULL},
    {MACHINE, "warp", NOT_NUMBER, "0", NULL},
    {MACHINE, "w", NOT_NUMBER, "3000000000", NULL},
    {MACHINE, "latency", NOT_NUMBER, "-1", NULL},
    {MACHINE, "l", NOT_NUMBER, "2.5", NULL},
    {MACHINE, "lanes", NOT_NUMBER, "-1", NULL},
    {MACHINE, "lanes_mulmod", NOT_NUMBER, "-1", NULL},
    {MACHINE, "lanes_addmod", NOT_NUMBER, "-1", NULL},
    {MACHINE, "lanes_private", NOT_NUMBER, "-1", NULL},
    {MACHINE, "private_port", NOT_NUMBER, "2", NULL},
    {MACHINE, "cycles_plain", NOT_NUMBER, "-1", NULL},
    {MACHINE, "cycles_mulmod", NOT_NUMBER, "-1", NULL},
    {MACHINE, "cycles_addmod", NOT_NUMBER, "-1", NULL},
    {MACHINE, "cycles_private", NOT_NUMBER, "-1", NULL},
    {MACHINE, "cycles_barrier", NOT_NUMBER, "-1", NULL},
    {MACHINE, "issue_rate", NOT_NUMBER, "-1", NULL},
    {MACHINE, "cycles_issue", NOT_NUMBER, "-1", NULL},
    {MACHINE, "cycles_issue_independent", NOT_NUMBER, "-1", NULL},
    {MACHINE, "cycles_mulmod_independent", NOT_NUMBER, "-1", NULL},
    {MACHINE, "cycles_predicate", NOT_NUMBER, "-1", NULL},
    {MACHINE, "cycles_branch", NOT_NUMBER, "-1", NULL},
    {MACHINE, "cycles_divide", NOT_NUMBER, "-1", NULL},
    {MACHINE, "cycles_divide32", NOT_NUMBER, "-1", NULL},
    {MACHINE, "constant_line_latency", NOT_NUMBER, "-1", NULL},
    {MACHINE, "schedulers", NOT_NUMBER, "-1", NULL},
    {MACHINE, "cycles_mulmod_warps2", NOT_NUMBER, "-1", NULL},
    {MACHINE, "cycles_mulmod_warps4", NOT_NUMBER, "-1", NULL},
    {MACHINE, "cycles_issue_warps2", NOT_NUMBER, "-1", NULL},
    {MACHINE, "cycles_issue_warps4", NOT_NUMBER, "-1", NULL},
    {MACHINE, "cycles_issue_warps8", NOT_NUMBER, "-1", NULL},
    {MACHINE, "blocks_per_sm", NOT_NUMBER, "0", NULL},
    {MACHINE, "block_retire", NOT_NUMBER, "-1", NULL},
    {MACHINE, "issue_by_age", NOT_NUMBER, "2", NULL},
    {MACHINE, "threads_per_sm", NOT_NUMBER, "-1", NULL},
    {MACHINE, "l2_words", NOT_NUMBER, "-1", NULL},
    {MACHINE, "u_dram", NOT_NUMBER, "-1", NULL},
    {MACHINE, "u_dram_unaligned", NOT_NUMBER, "-1", NULL},
    {MACHINE, "u_dram_mixed", NOT_NUMBER, "-1", NULL},
    {MACHINE, "sector_words", NOT_NUMBER, "-1", NULL},
    {MACHINE, "l1_words", NOT_NUMBER, "-1", NULL},
    {MACHINE, "line_words", NOT_NUMBER, "-1", NULL},
    {MACHINE, "u_l1", NOT_NUMBER, "-1", NULL},
    {MACHINE, "read_latency_l1", NOT_NUMBER, "-1", NULL},
    {MACHINE, "read_latency_l2", NOT_NUMBER, "-1", NULL},
    {MACHINE, "u_l2_write", NOT_NUMBER, "-1", NULL},
    {MACHINE, "u_l2_write_sm", NOT_NUMBER, "-1", NULL},
    {MACHINE, "u_l2_write_warps4", NOT_NUMBER, "-1", NULL},
    {MACHINE, "u_l2_copy", NOT_NUMBER, "-1", NULL},
    {MACHINE, "u_l2_copy_sm", NOT_NUMBER, "-1", NULL},
    {MACHINE, "write_issue_overlap", NOT_NUMBER, "1.5", NULL},
    {MACHINE, "u_dram_partial", NOT_NUMBER, "-1", NULL},
    {MACHINE, "u_l2_partial", NOT_NUMBER, "-1", NULL},
    {MACHINE, "dram_atom_words", NOT_NUMBER, "-1", NULL},
    {MACHINE, "l2_partitions", NOT_NUMBER, "0", NULL},
    {MACHINE, "u_l2_request", NOT_NUMBER, "-1", NULL},
    {MACHINE, "u_dram_request", NOT_NUMBER, "-1", NULL},
    {MACHINE, "read_latency", NOT_NUMBER, "-1", NULL},
    {MACHINE, "read_latency_dram", NOT_NUMBER, "1e400", NULL},
    {MACHINE, "launch", NOT_STRING, "\"bus\"", NULL},
    {MACHINE, "graph_launch_latency", NOT_NUMBER, "-1", NULL},
    {MACHINE, "graph_start_latency", NOT_NUMBER, "99999999999999999999", NULL},
    {MACHINE, "graph_launch_per_sm", NOT_NUMBER, "-1", NULL},
    /* the program group */
    {PROGRAM, "name", NOT_STRING, "LONG", NULL},
    {PROGRAM, "params", NOT_GROUP, "{ n = 9007199254740993; }", "param"},
    {PROGRAM, "kernels", NOT_LIST, "( )", NULL},
    {PROGRAM, "source", NOT_STRING, "\"/no/such/kernel.c\"", NULL},
    {PROGRAM, "constraints", NOT_LIST, "[ 5 ]", "constraint"},
    {PROGRAM, "description", NOT_STRING, "LONG", NULL},
    /* a kernel of the `kernels` list */
    {KERNEL, "name", NOT_STRING, "LONG", NULL},
    {KERNEL, "blocks", NOT_FORMULA, "0", NULL},
    {KERNEL, "threads", NOT_FORMULA, "\"n / 128\"", NULL},
    {KERNEL, "span", NOT_FORMULA, "-1", NULL},
    {KERNEL, "work", NOT_FORMULA, "\"-n\"", NULL},
    {KERNEL, "reads", NOT_FORMULA, "-1", NULL},
    {KERNEL, "writes", NOT_FORMULA, "-0.5", NULL},
    {KERNEL, "uncoalesced_reads", NOT_FORMULA, "-1", NULL},
    {KERNEL, "uncoalesced_writes", NOT_FORMULA, "9007199254740993", NULL},
    {KERNEL, "coalesced", NOT_BOOL, NULL, NULL},
    {KERNEL, "aligned", NOT_BOOL, NULL, NULL},
    {KERNEL, "after", NOT_LIST, "[\"no-such-kernel\"]", NULL},
    {KERNEL, "repeat", NOT_FORMULA, "2.5", NULL},
    {KERNEL, "private_words", NOT_FORMULA, "-1", NULL},
    {KERNEL, "span_plain", NOT_FORMULA, "-1", NULL},
    {KERNEL, "span_mulmod", NOT_FORMULA, "-1", NULL},
    {KERNEL, "span_addmod", NOT_FORMULA, "-1", NULL},
    {KERNEL, "span_private", NOT_FORMULA, "-1", NULL},
    {KERNEL, "span_barriers", NOT_FORMULA, "-1", NULL},
    {KERNEL, "work_plain", NOT_FORMULA, "-1", NULL},
    {KERNEL, "work_mulmod", NOT_FORMULA, "-1", NULL},
    {KERNEL, "work_addmod", NOT_FORMULA, "-1", NULL},
    {KERNEL, "work_private", NOT_FORMULA, "-1", NULL},
    {KERNEL, "work_barriers", NOT_FORMULA, "-1", NULL},
    {KERNEL, "bank_conflicts", NOT_FORMULA, "-1", NULL},
    /* the compare group */
    {COMPARE, "claim", NOT_STRING, "LONG", NULL},
    {COMPARE, "key", NOT_STRING, "LONG", NULL},
    {COMPARE, "along", NOT_STRING, "LONG", NULL},
    {COMPARE, "a", NOT_STRING, "LONG", "compare a"},
    {COMPARE, "b", NOT_STRING, "LONG", "compare b"},
    {COMPARE, "best", NOT_BOOL, NULL, NULL},
    {COMPARE, "linear", NOT_BOOL, NULL, NULL},
    /* a param */
    {PARAM, "n", {"\"64\"", "true", "[64]", NULL}, "4e400", NULL},
    /* a sweep over a param, a machine key, the program and the machine */
    {SWEEP, "n", {"64", "[true]", "[\"64\"]", NULL}, "[64, 9007199254740993]", NULL},
    {SWEEP, "p", {"4", "({ x = 1; })", "[\"4\"]", NULL}, "[4, 0]", NULL},
    {SWEEP, "policy", {"\"shared\"", "[1]", NULL}, "[\"parallel\", \"fastest\"]", NULL},
    {SWEEP, "program", {"\"sum\"", "[5]", NULL}, "[\"no-such-program\"]", NULL},
    {SWEEP, "machine", {"\"h100\"", "[5]", NULL}, "[\"mcm\", \"no-such-preset\"]", NULL},
};
enum { N_ROWS = sizeof rows / sizeof rows[0] };

/* ---- the files around a key ----------------------------------------------- */

static const char *const kernel_lines[][2] = {
    {"name", "\"k\""}, {"blocks", "\"n / 8\""}, {"threads", "8"}, {"span", "1"},
};

/* The run file with `key = value;` alone on the last line of its group,
 * into out; the line's number in *line. */
static void run_file_text(const row *r, const char *value, char *out, size_t size, int *line)
{
    const char *key = r->key;
    char head[2048] = "", members[512] = "";
    for (size_t i = 0; i < sizeof kernel_lines / sizeof *kernel_lines; i++)
        if (r->g != KERNEL || strcmp(key, kernel_lines[i][0]) != 0) {
            size_t len = strlen(members);
            snprintf(members + len, sizeof members - len, " %s = %s;", kernel_lines[i][0], kernel_lines[i][1]);
        }
    const char *program_tail = "\n};\n";
    switch (r->g) {
    case TOP:
        snprintf(head, sizeof head, "%s%s", strcmp(key, "machine") ? "machine = \"mcm\";\n" : "",
                 strcmp(key, "program") ? "program = { name = \"prog\"; params = { n = 64; }; kernels = ( { name = \"k\"; "
                                          "blocks = 1; threads = 1; span = 1; } ); };\n"
                                        : "");
        snprintf(out, size, "%s%s = %s;\n", head, key, value);
        break;
    case MACHINE:
        snprintf(out, size, "machine = {\n%s = %s;\n};\nprogram = { name = \"prog\"; params = { n = 64; };\n"
                            "  kernels = ( { name = \"k\"; blocks = 1; threads = 1; span = 1; } ); };\n",
                 key, value);
        break;
    case PROGRAM: /* a source file stands for the kernels list */
        snprintf(out, size, "machine = \"mcm\";\nprogram = {\n%s%s%s%s = %s;%s",
                 strcmp(key, "name") ? "name = \"prog\";\n" : "", strcmp(key, "params") ? "params = { n = 64; };\n" : "",
                 strcmp(key, "kernels") && strcmp(key, "source") ? "kernels = ( { name = \"k\"; blocks = 1; threads = 1; "
                                                                  "span = 1; } );\n"
                                                                : "",
                 key, value, program_tail);
        break;
    case KERNEL:
        snprintf(out, size, "machine = \"mcm\";\nprogram = { name = \"prog\"; params = { n = 64; };\n"
                            "kernels = ( {%s\n%s = %s;\n} ); };\n", members, key, value);
        break;
    case COMPARE:
        snprintf(out, size, "machine = \"mcm\";\nprogram = { name = \"prog\"; params = { n = 64; };\n"
                            "  kernels = ( { name = \"k\"; blocks = \"n / 8\"; threads = 8; span = 1; } ); };\n"
                            "sweep = { n = [64, 128]; };\ncompare = {\n%s = %s;\n};\n", key, value);
        break;
    case PARAM:
        snprintf(out, size, "machine = \"mcm\";\nprogram = { name = \"prog\";\n"
                            "  kernels = ( { name = \"k\"; blocks = 1; threads = 1; span = 1; } );\n"
                            "params = {\n%s = %s;\n}; };\n", key, value);
        break;
    default: /* SWEEP: the program is a built-in one when the sweep is over programs */
        snprintf(out, size, "machine = \"mcm\";\nprogram = { name = \"%s\"; params = { n = 64; }; %s};\n"
                            "sweep = {\n%s = %s;\n};\n", strcmp(key, "program") ? "prog" : "sum",
                 strcmp(key, "program") ? "kernels = ( { name = \"k\"; blocks = \"n / 8\"; threads = 8; span = 1; } ); " : "",
                 key, value);
        break;
    }
    /* the key is on the last line that holds `key = ` */
    *line = 0;
    int n = 1;
    char probe[128];
    snprintf(probe, sizeof probe, "%s = %s", key, value);
    for (const char *c = out; *c; c++) {
        if (strncmp(c, probe, strlen(probe)) == 0 && (c == out || c[-1] == '\n'))
            *line = n;
        n += *c == '\n';
    }
    cr_assert_gt(*line, 0, "the key line is not in:\n%s", out);
}

/* ---- running mcmsim ----------------------------------------------------------- */

typedef struct outcome {
    int status;
    char out[4096], err[8192];
} outcome;

/* The file at `path` into buf, then removed. */
static void take_file(const char *path, char *buf, size_t size)
{
    char *text = read_file(path, NULL);
    snprintf(buf, size, "%s", text);
    free(text);
    unlink(path);
}

static outcome *run(const char *text)
{
    static outcome o;
    char *path = temp_file(text, ".cfg");
    char cmd[8192], out[256], err[256];
    snprintf(out, sizeof out, "%s.out", path);
    snprintf(err, sizeof err, "%s.err", path);
    snprintf(cmd, sizeof cmd, "%s run %s >%s 2>%s", getenv("MCMSIM"), path, out, err);
    int rc = system(cmd);
    o.status = WIFEXITED(rc) ? WEXITSTATUS(rc) : 128;
    take_file(out, o.out, sizeof o.out);
    take_file(err, o.err, sizeof o.err);
    unlink(path);
    free(path);
    return &o;
}

/* `value` for key r is refused: exit status 1, no stdout, one line naming
 * the key and its line. */
/* `name` in `text` as a word, not inside a longer name. */
static int names_word(const char *text, const char *name)
{
    size_t len = strlen(name);
    for (const char *at = strstr(text, name); at; at = strstr(at + 1, name)) {
        int before = at > text && (isalnum((unsigned char)at[-1]) || at[-1] == '_');
        int after = isalnum((unsigned char)at[len]) || at[len] == '_';
        if (!before && !after)
            return 1;
    }
    return 0;
}

static void expect_refused(const row *r, const char *value, const char *why)
{
    if (strcmp(value, "LONG") == 0)
        value = long_string;
    char text[16384];
    int line;
    run_file_text(r, value, text, sizeof text, &line);
    outcome *o = run(text);
    char at[32];
    snprintf(at, sizeof at, ".cfg:%d:", line);
    size_t len = strlen(o->err);
    cr_expect_eq(o->status, 1, "%s %s = %.40s (%s): exit status %d\n%s", group_names[r->g], r->key, value, why,
                 o->status, text);
    cr_expect_str_empty(o->out, "%s %s = %.40s (%s) printed on stdout: %s", group_names[r->g], r->key, value, why,
                        o->out);
    cr_expect(len > 0 && strchr(o->err, '\n') == o->err + len - 1, "%s %s = %.40s (%s): not one line:\n%s",
              group_names[r->g], r->key, value, why, o->err);
    cr_expect(strstr(o->err, at) != NULL, "%s %s = %.40s (%s): the line (%s) is not named: %s", group_names[r->g],
              r->key, value, why, at, o->err);
    const char *named = r->named ? r->named : r->key;
    cr_expect(r->named ? strstr(o->err, named) != NULL : names_word(o->err, named),
              "%s %s = %.40s (%s): '%s' is not named: %s", group_names[r->g], r->key, value, why, named, o->err);
}

static void refuse_group(group g)
{
    memset(long_string, 'x', sizeof long_string - 1);
    long_string[0] = long_string[sizeof long_string - 2] = '"';
    long_string[sizeof long_string - 1] = '\0';
    int tried = 0;
    for (int i = 0; i < N_ROWS; i++) {
        if (rows[i].g != g)
            continue;
        for (int w = 0; rows[i].wrong[w]; w++)
            expect_refused(&rows[i], rows[i].wrong[w], "a value of the wrong type");
        if (rows[i].beyond)
            expect_refused(&rows[i], rows[i].beyond, "a value out of range");
        tried++;
    }
    cr_expect_gt(tried, 0);
}

Test(grammar, the_top_level_keys, .timeout = 120) { refuse_group(TOP); }
Test(grammar, the_machine_keys, .timeout = 300) { refuse_group(MACHINE); }
Test(grammar, the_program_keys, .timeout = 120) { refuse_group(PROGRAM); }
Test(grammar, the_kernel_keys, .timeout = 300) { refuse_group(KERNEL); }
Test(grammar, the_compare_keys, .timeout = 120) { refuse_group(COMPARE); }
Test(grammar, a_param_and_the_sweeps, .timeout = 120)
{
    refuse_group(PARAM);
    refuse_group(SWEEP);
}

/* ---- the table is the grammar ---------------------------------------------------- */

static int has_row(group g, const char *key)
{
    for (int i = 0; i < N_ROWS; i++)
        if (rows[i].g == g && strcmp(rows[i].key, key) == 0)
            return 1;
    return 0;
}

/* Every key a loader reads has a row, and every row's key is read. */
static void expect_rows_for(group g, const char *const *keys, int n_keys, const char *const *extra)
{
    for (int k = 0; k < n_keys; k++)
        cr_expect(has_row(g, keys[k]), "%s key '%s' has no row in test_grammar.c's table", group_names[g], keys[k]);
    for (int i = 0; i < N_ROWS; i++) {
        if (rows[i].g != g)
            continue;
        int read = 0;
        for (int k = 0; k < n_keys; k++)
            read |= strcmp(keys[k], rows[i].key) == 0;
        for (int k = 0; extra && extra[k]; k++)
            read |= strcmp(extra[k], rows[i].key) == 0;
        cr_expect(read, "the row for %s key '%s' names a key no loader reads", group_names[g], rows[i].key);
    }
}

static int count(const char *const *keys)
{
    int n = 0;
    while (keys[n])
        n++;
    return n;
}

Test(grammar, every_key_of_the_grammar_has_a_row)
{
    expect_rows_for(TOP, runfile_top_keys(), count(runfile_top_keys()), NULL);
    expect_rows_for(PROGRAM, program_key_names(), count(program_key_names()), NULL);
    expect_rows_for(COMPARE, compare_key_names(), count(compare_key_names()), NULL);
    enum { MOST_KEYS = 96 };
    const char *machine_keys[MOST_KEYS], *kernel_keys[MOST_KEYS];
    int n_machine = 0, n_kernel = 0;
    while (n_machine < MOST_KEYS && machine_key(n_machine))
        machine_keys[n_machine] = machine_key(n_machine), n_machine++;
    while (n_kernel < MOST_KEYS && config_kernel_key(n_kernel))
        kernel_keys[n_kernel] = config_kernel_key(n_kernel), n_kernel++;
    cr_assert_lt(n_machine, MOST_KEYS);
    cr_assert_lt(n_kernel, MOST_KEYS);
    /* an inline machine may start from a preset; w and l are warp and latency */
    expect_rows_for(MACHINE, machine_keys, n_machine, (const char *const[]){"preset", "w", "l", NULL});
    expect_rows_for(KERNEL, kernel_keys, n_kernel, NULL);
    /* a sweep takes a param, a machine key, the program or the machine */
    cr_expect(has_row(SWEEP, "program") && has_row(SWEEP, "machine") && has_row(SWEEP, "n") && has_row(SWEEP, "p"));
}

/* The files around the keys are valid with a value of the right type, so
 * each refusal above is the key's. */
Test(grammar, the_files_around_the_keys_are_valid)
{
    const row valid[] = {
        {TOP, "description", {NULL}, NULL, NULL},     {MACHINE, "p", {NULL}, NULL, NULL},
        {PROGRAM, "description", {NULL}, NULL, NULL}, {KERNEL, "reads", {NULL}, NULL, NULL},
        {COMPARE, "linear", {NULL}, NULL, NULL},      {PARAM, "n", {NULL}, NULL, NULL},
        {SWEEP, "n", {NULL}, NULL, NULL},             {SWEEP, "program", {NULL}, NULL, NULL},
        {SWEEP, "machine", {NULL}, NULL, NULL},
    };
    const char *values[] = {"\"a run file\"", "4", "\"a program\"", "1", "true", "64", "[64, 4294968320]",
                            "[\"sum\", \"prefix-naive\"]", "[\"mcm\", \"gtx670\"]"};
    for (size_t i = 0; i < sizeof valid / sizeof *valid; i++) {
        char text[4096];
        int line;
        run_file_text(&valid[i], values[i], text, sizeof text, &line);
        outcome *o = run(text);
        cr_expect_eq(o->status, 0, "%s %s = %s: %s\n%s", group_names[valid[i].g], valid[i].key, values[i], o->err,
                     text);
    }
}

/* libconfig 1.5 reads a whole number without `L` into 32 bits: each of
 * these was read as another number, with exit status 0. */
Test(grammar, whole_numbers_beyond_32_bits_are_read_as_written)
{
    const char *const written[] = {"4294968320", "3000000000", "0xFFFFFFFF", "-2147483649", "[1024, 4294968320]"};
    const char *const read[] = {"4294968320", "3000000000", "4294967295", "-2147483649", "4294968320"};
    for (int i = 0; i < 5; i++) {
        char text[1024];
        snprintf(text, sizeof text, "machine = \"mcm\";\n"
                                    "program = { name = \"prog\"; params = { n = %s; };\n"
                                    "  kernels = ( { name = \"k\"; blocks = 1; threads = 1; span = \"n > 0\"; } ); };\n"
                                    "%s",
                 written[i][0] == '[' ? "1" : written[i], written[i][0] == '[' ? "sweep = { n = " : "");
        if (written[i][0] == '[')
            snprintf(text + strlen(text), sizeof text - strlen(text), "%s; };\n", written[i]);
        char *path = temp_file(text, ".cfg");
        char out[8192];
        int status = mcmsim_output(MCMSIM_OUT_AND_ERR, out, sizeof out, "run %s --format csv", path);
        cr_expect_eq(status, 0, "n = %s: %s", written[i], out);
        char field[64];
        snprintf(field, sizeof field, ",%s,", read[i]);
        cr_expect(strstr(out, field) != NULL, "n = %s is not read as %s:\n%s", written[i], read[i], out);
        unlink(path);
        free(path);
    }
}
