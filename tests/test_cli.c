/*
 * test_cli.c — the mcmsim command, as a user meets it: every bad input gets
 * one clear line on stderr naming the place and the rule, a non-zero exit,
 * and nothing on stdout; good input gives well-formed text, CSV and JSON.
 *
 * The binary is found through $MCMSIM (set by `make test`).
 */
#include "helpers.h"

#include <cjson/cJSON.h>
#include <sys/wait.h>

typedef struct outcome {
    int status;
    char out[1 << 17];
    char err[4096];
} outcome;

static void slurp(const char *path, char *buf, size_t size)
{
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(buf, 1, size - 1, f) : 0;
    buf[n] = '\0';
    if (f)
        fclose(f);
}

/* Run `mcmsim ARGS` (a shell word list). */
static outcome *mcmsim(const char *args)
{
    static outcome o;
    const char *bin = getenv("MCMSIM");
    cr_assert_not_null(bin, "set MCMSIM to the mcmsim binary (make test does)");
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "%s %s >/tmp/mcmsim-cli-out.$PPID 2>/tmp/mcmsim-cli-err.$PPID", bin, args);
    int rc = system(cmd);
    o.status = WIFEXITED(rc) ? WEXITSTATUS(rc) : 128;
    char path[64];
    snprintf(path, sizeof path, "/tmp/mcmsim-cli-out.%d", (int)getpid());
    slurp(path, o.out, sizeof o.out);
    unlink(path);
    snprintf(path, sizeof path, "/tmp/mcmsim-cli-err.%d", (int)getpid());
    slurp(path, o.err, sizeof o.err);
    unlink(path);
    return &o;
}

/* Bad input: non-zero exit, empty stdout, exactly one stderr line that
 * contains every one of `needles` (NULL-terminated). */
static void expect_refusal(const char *args, const char *const *needles)
{
    outcome *o = mcmsim(args);
    cr_expect_neq(o->status, 0, "mcmsim %s: exit status 0", args);
    cr_expect_str_empty(o->out, "mcmsim %s printed a result:\n%s", args, o->out);
    size_t len = strlen(o->err);
    cr_expect(len > 0 && o->err[len - 1] == '\n' && strchr(o->err, '\n') == o->err + len - 1,
              "mcmsim %s: expected one line on stderr, got:\n%s", args, o->err);
    for (int i = 0; needles[i]; i++)
        cr_expect(strstr(o->err, needles[i]) != NULL, "mcmsim %s: '%s' not in: %s", args, needles[i], o->err);
}

#define REFUSE(args, ...) expect_refusal(args, (const char *const[]){__VA_ARGS__, NULL})

static const char *good_program =
    "program = { name = \"p\"; params = { n = 64; l = 8; };\n"
    "  kernels = ( { name = \"k\"; blocks = \"n/l\"; threads = \"l\"; span = 2; reads = 1; } ); };\n";

static char *with(const char *text)
{
    return temp_file(text, ".cfg");
}

static void refuse_file(const char *text, const char *extra, const char *const *needles)
{
    char *path = with(text);
    char args[512];
    snprintf(args, sizeof args, "run %s %s", path, extra);
    expect_refusal(args, needles);
    unlink(path);
    free(path);
}

#define REFUSE_FILE(text, extra, ...) refuse_file(text, extra, (const char *const[]){__VA_ARGS__, NULL})

Test(cli, missing_file)
{
    REFUSE("run /tmp/no-such-mcmsim-file.cfg", "/tmp/no-such-mcmsim-file.cfg", "cannot read");
}

Test(cli, syntax_error_gives_file_and_line)
{
    REFUSE_FILE("machine = \"mcm\";\nprogram = { name = \"x\" \n  oops };\n", "", ".cfg:3: syntax error");
}

Test(cli, unknown_keys_everywhere)
{
    char text[1024];
    snprintf(text, sizeof text, "%scolour = 3;\n", good_program);
    REFUSE_FILE(text, "", ".cfg:3", "unknown key 'colour'");
    snprintf(text, sizeof text, "machine = { p = 4; speed = 2; };\n%s", good_program);
    REFUSE_FILE(text, "", ".cfg:1", "unknown machine key 'speed'");
    REFUSE_FILE("program = { name = \"p\"; kernels = ( { name = \"k\"; blocks = 1; threads = 1;\n"
                "  span = 1; spam = 2; } ); };\n", "", ".cfg:2", "kernel 'k'", "unknown key 'spam'");
    REFUSE_FILE(good_program, "--set q=3", "--set q=3", "unknown key 'q'", "params: n, l");
}

Test(cli, bad_formulas)
{
    REFUSE_FILE("program = { name = \"p\"; params = { n = 8; };\n kernels = ( { name = \"k\";\n"
                " blocks = \"n/(2\"; threads = 1; span = 1; } ); };\n",
                "", ".cfg:3", "kernel 'k' blocks", "n/(2", "is not valid");
    REFUSE_FILE("program = { name = \"p\"; params = { n = 8; };\n kernels = ( { name = \"k\";\n"
                " blocks = 1; threads = 1; span = \"3*s\"; } ); };\n",
                "", ".cfg:3", "kernel 'k' span", "3*s", "uses 's'", "not defined");
}

Test(cli, impossible_machines)
{
    REFUSE_FILE(good_program, "--set p=0", "--set p=0", "p = 0 is out of range", "from 1 to 2147483647");
    REFUSE_FILE(good_program, "--set p=-3", "p = -3 is out of range");
    REFUSE_FILE(good_program, "--set u=0", "u = 0 is out of range", "> 0");
    REFUSE_FILE(good_program, "--set policy=fastest", "policy", "fastest", "parallel, exclusive, shared");
    REFUSE_FILE(good_program, "--set p=two", "--set p", "number");
    char text[1024];
    snprintf(text, sizeof text, "machine = \"no-such-card\";\n%s", good_program);
    REFUSE_FILE(text, "", "no-such-card", "not a preset");
}

Test(cli, limits_name_the_rule_broken_and_the_machine_as_written)
{
    REFUSE_FILE("program = { name = \"p\"; kernels = ( { name = \"k\"; blocks = \"1e19\"; threads = 32;\n"
                "  span = 1; } ); };\n", "", ".cfg:1", "blocks = 1e+19", "at most 1e+15 blocks per kernel");
    REFUSE_FILE("program = { name = \"p\"; kernels = ( { name = \"k\"; blocks = 0; threads = 32;\n"
                "  span = 1; } ); };\n", "", "blocks = 0", "at least 1 block");
    char text[1024];
    snprintf(text, sizeof text, "machine = { kind = \"dmm\"; p = 4; };\n%s", good_program);
    REFUSE_FILE(text, "", "machine 'the inline machine group at ", ".cfg:1'", "l = 0 (not set)");
    snprintf(text, sizeof text, "machine = { name = \"mine\"; block_retire = 10; };\n%s", good_program);
    REFUSE_FILE(text, "", "machine 'mine'", "block_retire = 10 needs blocks_per_sm > 1");
    REFUSE_FILE("program = { name = \"p\"; kernels = ( { name = \"k\"; repeat = 2000000; blocks = 1;\n"
                "  threads = 1; span = 1; } ); };\n", "", "repeat = 2e+06", "at most 1000000 kernels");
    char sweep[8192] = "sweep = { n = [";
    for (int a = 0; a < 3; a++) {
        for (int i = 1; i <= 100; i++) {
            size_t len = strlen(sweep);
            snprintf(sweep + len, sizeof sweep - len, "%d%s", i, i < 100 ? ", " : "];");
        }
        if (a < 2)
            strcat(sweep, a == 0 ? " l = [" : " p = [");
    }
    char file[12000];
    snprintf(file, sizeof file, "%s%s };\n", good_program, sweep);
    REFUSE_FILE(file, "", "the sweep has 1000000 points", "at most 100000");
}

Test(cli, z_too_small_for_l)
{
    REFUSE_FILE(good_program, "--set z=7", "kernel 'k'", "Z = 7", "ℓ = 8", "words <= Z");
    REFUSE_FILE("program = { name = \"p\"; params = { s = 300; l = 256; };\n"
                " constraints = [ \"4*s + 2*l <= Z\" ];\n"
                " kernels = ( { name = \"k\"; blocks = 1; threads = \"l\"; span = \"3*s\"; } ); };\n",
                "--set z=1024", ".cfg:2", "4*s + 2*l <= Z", "does not hold", "s = 300");
}

Test(cli, cycle_in_after)
{
    REFUSE_FILE("program = { name = \"p\"; kernels = (\n"
                " { name = \"a\"; blocks = 1; threads = 1; span = 1; after = [\"c\"]; },\n"
                " { name = \"b\"; blocks = 1; threads = 1; span = 1; },\n"
                " { name = \"c\"; blocks = 1; threads = 1; span = 1; } ); };\n",
                "", "cycle", "kernel '");
    REFUSE_FILE("program = { name = \"p\"; kernels = (\n"
                " { name = \"a\"; blocks = 1; threads = 1; span = 1; after = [\"zz\"]; } ); };\n",
                "", ".cfg:2", "'zz'", "not a kernel");
}

Test(cli, other_mistakes)
{
    REFUSE_FILE("program = { name = \"no-such-program\"; };\n", "", "no-such-program", "not a built-in");
    REFUSE_FILE("machine = \"mcm\";\n", "", "no program");
    REFUSE_FILE(good_program, "--format xml", "--format xml");
    REFUSE_FILE("program = { name = \"p\"; kernels = ( { name = \"k\"; blocks = 0; threads = 1;\n"
                " span = 1; } ); };\n", "", "kernel 'k'", "at least 1 block");
    char text[1024];
    snprintf(text, sizeof text, "%ssweep = { n = [64, 128]; };\n", good_program);
    REFUSE_FILE(text, "--trace /tmp/x.csv", "--trace", "sweeps 2 points");
    REFUSE("frobnicate", "unknown command 'frobnicate'");
}

Test(cli, text_csv_and_json_of_the_demo)
{
    char demo[1024];
    snprintf(demo, sizeof demo, "run %s/programs/demo.cfg", MCMSIM_DATADIR);
    outcome *o = mcmsim(demo);
    cr_assert_eq(o->status, 0, "%s", o->err);
    cr_expect(strstr(o->out, "Theorem 1") != NULL);

    char args[1100];
    snprintf(args, sizeof args, "%s --format csv", demo);
    o = mcmsim(args);
    cr_assert_eq(o->status, 0, "%s", o->err);
    int lines = 0;
    for (const char *c = o->out; *c; c++)
        lines += *c == '\n';
    cr_expect_eq(lines, 1 + 8, "header + one row per sweep point");
    cr_expect(strncmp(o->out, "program,machine,p,n,l,P,U,Z,policy,T,", 37) == 0, "%.80s", o->out);

    snprintf(args, sizeof args, "%s --format json --set p=4", demo);
    o = mcmsim(args);
    cr_assert_eq(o->status, 0, "%s", o->err);
    cJSON *doc = cJSON_Parse(o->out);
    cr_assert_not_null(doc, "not JSON: %.200s", o->out);
    const char *keys[] = {"T", "W", "S", "O", "N", "L_kernels", "L_edges", "C", "K", "bound_theorem1",
                          "bound_corollary1", "P", "U", "Z", "policy", "utilization", "kernels"};
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
        cr_expect_not_null(cJSON_GetObjectItem(doc, keys[i]), "JSON lacks %s", keys[i]);
    cr_expect_eq(cJSON_GetObjectItem(doc, "P")->valuedouble, 4);
    cr_expect_leq(cJSON_GetObjectItem(doc, "T")->valuedouble,
                  cJSON_GetObjectItem(doc, "bound_theorem1")->valuedouble);
    cr_expect_eq(cJSON_GetArraySize(cJSON_GetObjectItem(doc, "kernels")), 22);
    cJSON_Delete(doc);
}

/* Found by `make fuzz` (fuzz_runfile): a `kernels` list named after a
 * built-in ("stockham") took its params as the list's but was built as
 * the built-in, which read a param it did not have (a null pointer).  The
 * list is the program, whatever its name. */
Test(cli, a_kernels_list_named_after_a_built_in_is_that_list)
{
    char *path = with("machine = \"mcm\";\n"
                      "program = { name = \"stockham\"; params = { n = 1024; l = 4; };\n"
                      "  kernels = ( { name = \"add\"; blocks = \"n / l\"; threads = \"l\"; span = 1; } ); };\n");
    char args[1200];
    snprintf(args, sizeof args, "run %s --format csv", path);
    outcome *o = mcmsim(args);
    cr_expect_eq(o->status, 0, "%s", o->err);
    cr_expect(strstr(o->out, ",256,") != NULL, "N = n/l = 256 blocks, one kernel: %s", o->out);
    unlink(path);
    REFUSE_FILE("program = { name = \"stockham\"; params = { l = 4; };\n"
                "  kernels = ( { name = \"add\"; repeat = \"log2(n)\"; blocks = 1; threads = \"l\"; span = 1; } ); };\n",
                "", "repeat", "'n', which is not defined");
}

Test(cli, list_help_version)
{
    outcome *o = mcmsim("list");
    cr_assert_eq(o->status, 0, "%s", o->err);
    const char *names[] = {"mcm", "gtx670", "tesla-c2050", "h100", "h200", "sum"};
    for (int i = 0; i < 6; i++)
        cr_expect(strstr(o->out, names[i]) != NULL, "list lacks %s", names[i]);
    cr_expect(strstr(o->out, "unreadable") == NULL, "%s", o->out);
    o = mcmsim("--help");
    cr_expect_eq(o->status, 0);
    cr_expect(strstr(o->out, "mcmsim run FILE.cfg") != NULL);
    o = mcmsim("--version");
    cr_expect_eq(o->status, 0);
    cr_expect(strncmp(o->out, "mcmsim ", 7) == 0);
}

static const char *compare_sum =
    "machine = \"mcm\";\n"
    "program = { name = \"sum\"; params = { n = 1024; l = 256; }; };\n"
    "sweep = { l = [32, 256]; n = [1024, 65536, 1048576]; };\n";

Test(cli, compare_states_the_conclusion_with_numbers)
{
    char text[1024];
    snprintf(text, sizeof text, "%scompare = { claim = \"bigger blocks win\"; key = \"l\"; along = \"n\";\n"
                                "  a = \"256\"; b = \"32\"; };\n", compare_sum);
    char *path = temp_file(text, ".cfg");
    char args[256];
    snprintf(args, sizeof args, "compare %s", path);
    outcome *o = mcmsim(args);
    cr_assert_eq(o->status, 0, "%s", o->err);
    cr_expect(strstr(o->out, "claim: bigger blocks win") != NULL, "%s", o->out);
    cr_expect(strstr(o->out, "T(32)/T(256) along n: 1 at 2^10, ") != NULL,
              "at n = 2^10 both fit in one round of kernels: %s", o->out);
    cr_expect(strstr(o->out, "256 wins for every n >= 2^16") != NULL, "%s", o->out);
    unlink(path);
    free(path);

    snprintf(text, sizeof text, "%scompare = { key = \"l\"; along = \"n\"; best = true; };\n", compare_sum);
    path = temp_file(text, ".cfg");
    snprintf(args, sizeof args, "compare %s", path);
    o = mcmsim(args);
    cr_assert_eq(o->status, 0, "%s", o->err);
    cr_expect(strstr(o->out, "best l along n:") != NULL && strstr(o->out, "l = 256 at 2^20") != NULL, "%s", o->out);
    unlink(path);
    free(path);

    snprintf(text, sizeof text, "%scompare = { along = \"n\"; linear = true; };\n", compare_sum);
    path = temp_file(text, ".cfg");
    snprintf(args, sizeof args, "compare %s", path);
    o = mcmsim(args);
    cr_assert_eq(o->status, 0, "%s", o->err);
    cr_expect(strstr(o->out, "[l = 32] T per unit of n") != NULL, "%s", o->out);
    cr_expect(strstr(o->out, "R² = ") != NULL, "%s", o->out);
    unlink(path);
    free(path);
}

static void refuse_compare(const char *group, const char *const *needles)
{
    char text[1024];
    snprintf(text, sizeof text, "%s%s", compare_sum, group);
    char *path = with(text);
    char args[512];
    snprintf(args, sizeof args, "compare %s", path);
    expect_refusal(args, needles);
    unlink(path);
    free(path);
}

#define REFUSE_COMPARE(group, ...) refuse_compare(group, (const char *const[]){__VA_ARGS__, NULL})

Test(cli, compare_needs_a_well_formed_group)
{
    REFUSE_COMPARE("", "no compare group");
    REFUSE_COMPARE("compare = { key = \"l\"; along = \"n\"; };\n", "exactly one of");
    REFUSE_COMPARE("compare = { key = \"s\"; along = \"n\"; best = true; };\n", "key = a swept key", "got s");
    REFUSE_COMPARE("compare = { key = \"l\"; along = \"m\"; best = true; };\n", "along = a swept key");
}

/* ---- sweeps on several cores, progress -------------------------------- */

/* Byte for byte the same stdout on 1 job and on 3, in every format, and
 * nothing on stderr when it is no terminal and --progress is not given.
 * The run files are the quick ones with sweeps (radix-sort's has a
 * compare group): under SAN=1 mult.cfg alone takes over a minute. */
Test(cli, sweeps_on_several_jobs_print_what_one_job_prints, .timeout = 240)
{
    const char *files[] = {"demo", "radix-sort/radix-sort", "dmm-umm", "contiguous"};
    const char *formats[] = {"text", "csv", "json"};
    static char one[sizeof ((outcome *)0)->out];
    for (size_t f = 0; f < sizeof files / sizeof *files; f++)
        for (int k = 0; k < 3; k++) {
            char args[1200];
            snprintf(args, sizeof args, "run %s/programs/%s.cfg --format %s --jobs 1", MCMSIM_DATADIR, files[f],
                     formats[k]);
            outcome *o = mcmsim(args);
            cr_assert_eq(o->status, 0, "%s: %s", args, o->err);
            cr_expect_str_empty(o->err, "%s: %s", args, o->err);
            memcpy(one, o->out, sizeof one);
            args[strlen(args) - 1] = '3';
            o = mcmsim(args);
            cr_assert_eq(o->status, 0, "%s: %s", args, o->err);
            cr_expect_str_empty(o->err, "%s: %s", args, o->err);
            cr_expect_str_eq(o->out, one, "%s differs from --jobs 1", args);
        }
}

/* Points 2 and 4 of the sweep are bad: whatever the jobs, the message is
 * point 2's, as one at a time. */
Test(cli, a_sweeps_first_bad_point_is_the_one_named_whatever_the_jobs)
{
    char text[2048];
    snprintf(text, sizeof text, "%ssweep = { l = [8, 0, 16, -4]; };\n", good_program);
    char *path = with(text);
    const char *jobs[] = {"1", "2", "4"};
    for (int j = 0; j < 3; j++) {
        char args[1200];
        snprintf(args, sizeof args, "run %s --jobs %s", path, jobs[j]);
        outcome *o = mcmsim(args);
        cr_expect_eq(o->status, 1);
        cr_expect_str_empty(o->out);
        cr_expect(strstr(o->err, "sweep point 2 of 4") != NULL, "--jobs %s: %s", jobs[j], o->err);
    }
    unlink(path);
}

Test(cli, jobs_must_be_a_whole_number_of_simulations)
{
    char demo[1100];
    const char *bad[] = {"0", "65", "two", "2.5", "-1"};
    for (int i = 0; i < 5; i++) {
        snprintf(demo, sizeof demo, "run %s/programs/demo.cfg --jobs %s", MCMSIM_DATADIR, bad[i]);
        REFUSE(demo, "--jobs", bad[i], "from 1 to 64");
    }
    snprintf(demo, sizeof demo, "run %s/programs/demo.cfg --jobs", MCMSIM_DATADIR);
    REFUSE(demo, "--jobs needs a value");
}

/* Into a file, --progress writes a line at the first news, then one every
 * 5 s, and a last one when the sweep is whole.  Which lines come before
 * the last depends on the machine's speed: each must have one of the two
 * forms, a point's blocks or the points done with the time left. */
Test(cli, progress_says_the_points_done_and_the_time_left)
{
    char args[1100];
    snprintf(args, sizeof args, "run %s/programs/demo.cfg --progress", MCMSIM_DATADIR);
    outcome *o = mcmsim(args);
    cr_assert_eq(o->status, 0, "%s", o->err);
    cr_expect(strstr(o->out, "Theorem 1") != NULL, "the report still goes to stdout");
    int lines = 0, last = 0;
    for (char *line = strtok(o->err, "\n"); line; line = strtok(NULL, "\n"), lines++) {
        int k, of = 0;
        char tail[256] = "";
        last = sscanf(line, "mcmsim: %d of %d sweep points done in %255[^\n]", &k, &of, tail) == 3 && k == 8 &&
               of == 8;
        int points_left = sscanf(line, "mcmsim: %d of %d sweep points done, about %255[^\n]", &k, &of, tail) == 3 &&
                          of == 8 && strstr(tail, " left") != NULL;
        int blocks = sscanf(line, "mcmsim: sweep point %d of %d: %255[^\n]", &k, &of, tail) == 3 && of == 8 &&
                     strstr(tail, " blocks (") != NULL;
        cr_expect(last || points_left || blocks, "line %d of stderr has no progress form: %s", lines + 1, line);
    }
    cr_expect(last, "the last line says the 8 points are done and in how long");
    cr_expect(lines >= 2, "a first line at the first news, then the last: %d lines", lines);
}

/* Without --progress and into a file: nothing on stderr (checked above
 * for every format); a single run with --progress ends saying so. */
Test(cli, progress_of_a_single_run_ends_with_its_time)
{
    char args[1100];
    snprintf(args, sizeof args, "run %s/programs/demo.cfg --set p=64 --progress", MCMSIM_DATADIR);
    outcome *o = mcmsim(args);
    cr_assert_eq(o->status, 0, "%s", o->err);
    cr_expect(strstr(o->err, "mcmsim: simulated in ") != NULL, "%s", o->err);
    cr_expect(strstr(o->err, "sweep point") == NULL, "one point, no sweep: %s", o->err);
}

/* 2.1·10^9 blocks block by block: said before the simulation starts (the
 * run is then cut short).  In waves the same run takes a moment, and says
 * nothing of minutes. */
Test(cli, a_run_of_minutes_says_so_before_it_starts, .timeout = 60)
{
    char text[1024];
    snprintf(text, sizeof text, "machine = \"mcm\";\n"
                                "program = { name = \"plain-mult\"; params = { n = 1048576; m = 1048576; l = 256; "
                                "s = 2; }; };\n");
    char *path = with(text);
    char cmd[1500], err[4096];
    snprintf(cmd, sizeof cmd, "timeout 3 %s run %s --block-by-block >/dev/null 2>%s.err", getenv("MCMSIM"), path,
             path);
    int rc = system(cmd);
    cr_expect(WIFEXITED(rc) && WEXITSTATUS(rc) == 124, "the run ended before 3 s");
    snprintf(cmd, sizeof cmd, "%s.err", path);
    slurp(cmd, err, sizeof err);
    cr_expect(strstr(err, "has 2.15e+09 thread-blocks: block by block, at about 10.0 M blocks/s under the "
                             "parallel policy, that takes about 3 min 35 s\n") != NULL, "%s", err);

    snprintf(cmd, sizeof cmd, "timeout 30 %s run %s >/dev/null 2>%s.err", getenv("MCMSIM"), path, path);
    rc = system(cmd);
    cr_expect(WIFEXITED(rc) && WEXITSTATUS(rc) == 0, "in waves the run ends, and well");
    snprintf(cmd, sizeof cmd, "%s.err", path);
    slurp(cmd, err, sizeof err);
    unlink(cmd);
    cr_expect_str_empty(err, "in waves nothing to warn of: %s", err);
    unlink(path);
}

/* ---- values read as written (issue 31) --------------------------------- */

Test(cli, a_number_out_of_range_says_so_and_states_the_range)
{
    REFUSE_FILE(good_program, "--set p=100000000000", "--set p=100000000000", "p = 100000000000 is out of range",
                "a whole number from 1 to 2147483647");
    REFUSE_FILE(good_program, "--set n=9007199254740993", "param 'n' = 9007199254740993 is out of range",
                "2^53");
    REFUSE_FILE(good_program, "--set u=1e999", "u = 1e999 is out of range");
    REFUSE_FILE(good_program, "--set seed=-1", "seed = -1 is out of range", "from 0 to 18446744073709551615");
    REFUSE_FILE(good_program, "--set policy=3", "policy \"3\" is not one of parallel, exclusive, shared");
}

/* --machine NAME|FILE is the run file's machine, for every point; a
 * sweep over `machine` compares cards in one run file. */
Test(cli, the_machine_from_the_command_line_and_a_sweep_over_machines)
{
    char *path = with(good_program);
    char args[1200];
    snprintf(args, sizeof args, "run %s --machine h200 --format csv", path);
    outcome *o = mcmsim(args);
    cr_expect_eq(o->status, 0, "%s", o->err);
    cr_expect(strstr(o->out, "\np,h200,64,8,132,") != NULL, "%s", o->out);
    snprintf(args, sizeof args, "run %s --machine %s/machine/gtx670.cfg --set p=3 --format csv", path, MCMSIM_DATADIR);
    o = mcmsim(args);
    cr_expect_eq(o->status, 0, "%s", o->err);
    cr_expect(strstr(o->out, "\np,gtx670,64,8,3,8,12288,") != NULL, "--set applies on top: %s", o->out);
    snprintf(args, sizeof args, "run %s --machine no-such-card", path);
    REFUSE(args, "--machine no-such-card", "not a preset");
    snprintf(args, sizeof args, "run %s --machine h100 --machine h200", path);
    REFUSE(args, "one machine at a time");
    unlink(path);
    free(path);

    char text[2048];
    snprintf(text, sizeof text, "%ssweep = { machine = [\"h100\", \"h200\"]; n = [64, 128]; };\n"
                                "compare = { key = \"machine\"; along = \"n\"; a = \"h200\"; b = \"h100\"; };\n",
             good_program);
    path = with(text);
    snprintf(args, sizeof args, "run %s --format csv", path);
    o = mcmsim(args);
    cr_assert_eq(o->status, 0, "%s", o->err);
    cr_expect(strncmp(o->out, "program,machine,n,l,P,", 22) == 0, "one machine column: %.80s", o->out);
    cr_expect(strstr(o->out, "\np,h100,64,") && strstr(o->out, "\np,h100,128,") && strstr(o->out, "\np,h200,64,") &&
                  strstr(o->out, "\np,h200,128,"),
              "%s", o->out);
    snprintf(args, sizeof args, "compare %s", path);
    o = mcmsim(args);
    cr_expect_eq(o->status, 0, "%s", o->err);
    cr_expect(strstr(o->out, "simulated on each machine swept") && strstr(o->out, "T(h100)/T(h200) along n"), "%s",
              o->out);
    snprintf(args, sizeof args, "run %s --machine mcm --format csv", path);
    o = mcmsim(args);
    cr_expect_eq(o->status, 0, "%s", o->err);
    cr_expect(strstr(o->out, "\np,mcm,64,") && !strstr(o->out, "h100"), "--machine pins the sweep: %s", o->out);
    unlink(path);
    free(path);
}

Test(cli, list_says_where_each_presets_numbers_come_from)
{
    outcome *o = mcmsim("list");
    cr_assert_eq(o->status, 0, "%s", o->err);
    const char *sessions[][2] = {{"h100", "from: session 20"}, {"h200", "from: session 20"},
                                 {"gtx670", "from: the MCM papers' card"}, {"mcm", "from: the abstract MCM"}};
    for (int i = 0; i < 4; i++) {
        char line[64];
        snprintf(line, sizeof line, "  %-14s P =", sessions[i][0]);
        const char *at = strstr(o->out, line);
        cr_assert_not_null(at, "no line for %s: %s", sessions[i][0], o->out);
        const char *next = strchr(at, '\n');
        cr_expect(next && strncmp(next + 1 + strspn(next + 1, " "), sessions[i][1], strlen(sessions[i][1])) == 0,
                  "%s: %s", sessions[i][0], at);
    }
    cr_expect(strstr(o->out, "does not say") == NULL, "a preset without its source: %s", o->out);
}

/* A Gantt chart or a trace is of one point: a sweep is refused naming the
 * swept keys and a --set for each, never a file the user did not name. */
Test(cli, a_gantt_or_a_trace_of_a_sweep_names_the_keys_to_pin)
{
    char text[2048];
    snprintf(text, sizeof text, "%ssweep = { n = [64, 128]; p = [2, 4]; };\n", good_program);
    char *path = with(text);
    char args[1200];
    snprintf(args, sizeof args, "plot %s --kind gantt -o /tmp/mcmsim-cli-gantt-%d.png", path, (int)getpid());
    REFUSE(args, "a Gantt chart (mcmsim plot --kind gantt) draws one point", "sweeps 4 points (n, p)",
           "pin the sweep with --set, e.g. --set n=64 --set p=2");
    outcome *o = mcmsim(args);
    cr_expect(strstr(o->err, "/tmp/mcmsim-trace") == NULL && strstr(o->err, "--trace") == NULL, "%s", o->err);
    snprintf(args, sizeof args, "run %s --trace /tmp/mcmsim-cli-t-%d.csv", path, (int)getpid());
    REFUSE(args, "--trace /tmp/mcmsim-cli-t-", ".csv traces one point", "--set n=64 --set p=2");
    o = mcmsim(args);
    cr_expect(strstr(o->err, ".part") == NULL, "%s", o->err);
    unlink(path);
    free(path);
}

/* A value is never silently replaced by another: a key given twice, in
 * one spelling or two (p and P, w and warp, n and params.n), in a machine
 * group, a sweep or --set, and an option of one value given twice, are
 * refused naming both places. */
Test(cli, a_value_given_twice_is_refused_naming_both_places)
{
    char text[1024];
    snprintf(text, sizeof text, "machine = { p = 4;\n  P = 8; };\n%s", good_program);
    REFUSE_FILE(text, "", ".cfg:2: machine key 'P' sets p, which 'p' on line 1 sets already", "one value");
    snprintf(text, sizeof text, "machine = { w = 4; warp = 8; };\n%s", good_program);
    REFUSE_FILE(text, "", "machine key 'warp' sets warp, which 'w' on line 1 sets already");
    snprintf(text, sizeof text, "%ssweep = { p = [1, 2]; P = [4, 8]; };\n", good_program);
    REFUSE_FILE(text, "", ".cfg:3: sweep P", "sets machine key 'p', which", ".cfg:3: sweep p", "one value per key");
    REFUSE_FILE(good_program, "--set n=4 --set n=8", "--set n=8: sets param 'n', which --set n=4 sets already");
    REFUSE_FILE(good_program, "--set p=4 --set machine.P=8", "--set machine.P=8: sets machine key 'p'", "--set p=4");
    REFUSE_FILE(good_program, "--set program=sum --set program=euclid", "--set program=euclid",
                "the program is given twice (sum, then euclid)");
    REFUSE_FILE(good_program, "--machine mcm --set machine=gtx670", "the machine is given twice (mcm, then gtx670",
                "--machine is --set machine=");
    REFUSE_FILE(good_program, "--format csv --format json", "--format json: --format is given twice (csv, then json)");
    REFUSE_FILE(good_program, "--jobs 1 --set p=2 --jobs 2", "--jobs is given twice (1, then 2)");
    REFUSE_FILE(good_program, "--trace /tmp/mcmsim-cli-a.csv --trace /tmp/mcmsim-cli-b.csv", "--trace is given twice");
    REFUSE_FILE(good_program, "--format csv --shard 1/2 --shard 2/2", "--shard is given twice (1/2, then 2/2)");
    char *path = with(good_program), args[1200];
    snprintf(args, sizeof args, "plot %s -o /tmp/mcmsim-cli-a.png -o /tmp/mcmsim-cli-b.png", path);
    REFUSE(args, "-o is given twice");
    snprintf(args, sizeof args, "plot %s -o /tmp/mcmsim-cli-a.png --kind gantt --kind costs", path);
    REFUSE(args, "--kind costs: --kind is given twice (gantt, then costs)");
    unlink(path);
    free(path);
}

/* --set pins a swept key however it names it (P for p, machine.p,
 * params.n), and the keys left vary in the run file's order, the last
 * fastest. */
Test(cli, a_set_pins_the_swept_key_it_names_in_any_spelling)
{
    char text[1024];
    snprintf(text, sizeof text, "%ssweep = { p = [2, 4]; n = [64, 128]; policy = [\"parallel\", \"shared\"]; };\n",
             good_program);
    char *path = with(text), args[1200];
    const char *pins[] = {"--set p=3", "--set P=3", "--set machine.p=3"};
    for (int i = 0; i < 3; i++) {
        snprintf(args, sizeof args, "run %s %s --format csv", path, pins[i]);
        outcome *o = mcmsim(args);
        cr_assert_eq(o->status, 0, "%s: %s", pins[i], o->err);
        cr_expect(strstr(o->out, "\np,mcm,parallel,64,8,3,8,12288,parallel,") &&
                      strstr(strstr(o->out, ",64,8,3,"), "\np,mcm,shared,64,8,3,8,12288,shared,") &&
                      strstr(strstr(o->out, ",shared,64,8,3,"), "\np,mcm,parallel,128,8,3,") &&
                      strstr(strstr(o->out, ",parallel,128,8,3,"), "\np,mcm,shared,128,8,3,") &&
                      !strstr(o->out, ",8,2,8,") && !strstr(o->out, ",8,4,8,"),
                  "%s: four points, p = 3, policy fastest:\n%s", pins[i], o->out);
    }
    snprintf(args, sizeof args, "run %s --set params.n=32 --set P=3 --format csv", path);
    outcome *o = mcmsim(args);
    cr_assert_eq(o->status, 0, "%s", o->err);
    cr_expect(strstr(o->out, "\np,mcm,parallel,32,8,3,") && strstr(o->out, "\np,mcm,shared,32,8,3,") &&
                  !strstr(o->out, "\np,mcm,parallel,64,") && !strstr(o->out, "\np,mcm,parallel,128,"),
              "n pinned to 32: %s", o->out);
    unlink(path);
    free(path);
}

/* A shard's line says the options that change its figures (--set in key
 * order, --exec): shards run with other options do not merge, where
 * their rows were put together as one run's. */
Test(cli, shards_run_with_other_options_do_not_merge)
{
    char text[1024];
    snprintf(text, sizeof text, "%ssweep = { n = [64, 128, 256]; };\n", good_program);
    char *path = with(text), args[1200], *shard[3];
    const char *sets[3] = {"--set u=9 --set p=2", "--set p=2 --set u=9", "--set p=2"};
    for (int k = 1; k <= 3; k++) {
        snprintf(args, sizeof args, "run %s --format csv --shard %d/3 %s", path, k, sets[k - 1]);
        outcome *o = mcmsim(args);
        cr_assert_eq(o->status, 0, "%s", o->err);
        shard[k - 1] = temp_file(o->out, ".csv");
    }
    FILE *f = fopen(shard[0], "r");
    char line[512] = "";
    cr_assert(f && fgets(line, sizeof line, f));
    fclose(f);
    cr_expect(strstr(line, ": 3 points with --set p=2 --set u=9\n") != NULL, "%s", line);
    snprintf(args, sizeof args, "merge %s %s %s", shard[0], shard[1], shard[2]);
    REFUSE(args, "was run with --set p=2, ", "with --set p=2 --set u=9: not shards of one run");
    for (int k = 0; k < 3; k++) {
        unlink(shard[k]);
        free(shard[k]);
    }
    unlink(path);
    free(path);
}

/* One key typed two ways (P and p, machine.p) sets one field: shards run
 * with either merge, their line naming the key as the loader resolves it,
 * into the CSV the whole run writes, where merge refused them as shards
 * of other options. */
Test(cli, shards_of_one_key_typed_two_ways_merge)
{
    char text[1024];
    snprintf(text, sizeof text, "%ssweep = { n = [64, 128, 256]; };\n", good_program);
    char *path = with(text), args[1200], *shard[3];
    const char *sets[3] = {"--set P=4 --set params.l=8", "--set p=4 --set l=8", "--set machine.p=4 --set l=8"};
    for (int k = 1; k <= 3; k++) {
        snprintf(args, sizeof args, "run %s --format csv --shard %d/3 %s", path, k, sets[k - 1]);
        outcome *o = mcmsim(args);
        cr_assert_eq(o->status, 0, "%s", o->err);
        cr_expect(strstr(o->out, ": 3 points with --set l=8 --set p=4\n") != NULL, "%s", o->out);
        shard[k - 1] = temp_file(o->out, ".csv");
    }
    snprintf(args, sizeof args, "merge %s %s %s", shard[0], shard[1], shard[2]);
    outcome *merged = mcmsim(args);
    cr_assert_eq(merged->status, 0, "%s", merged->err);
    static char whole[1 << 17];
    snprintf(whole, sizeof whole, "%s", merged->out);
    snprintf(args, sizeof args, "run %s --format csv --set p=4 --set l=8", path);
    outcome *o = mcmsim(args);
    cr_assert_eq(o->status, 0, "%s", o->err);
    cr_expect_str_eq(whole, o->out);
    for (int k = 0; k < 3; k++) {
        unlink(shard[k]);
        free(shard[k]);
    }
    unlink(path);
    free(path);
}

/* A --set is one line: a value with a line break, which split a shard's
 * line (merge then counted a row too many), is refused. */
Test(cli, a_set_with_a_line_break_is_refused)
{
    REFUSE_FILE(good_program, "--set 'name=card\nbig'", "--set name=...: its value holds a line break", "one line");
    REFUSE_FILE(good_program, "--set 'name=card\rbig' --format csv --shard 1/2",
                "--set name=...: its value holds a line break");
}

/* The largest whole number in `text` written as a run of digits (not
 * one of a number in e-notation: "4.4e+20" holds 4, 4 and 20). */
static double largest_digit_run(const char *text)
{
    double most = 0;
    for (const char *c = text; *c;) {
        size_t run = strspn(c, "0123456789");
        if (run == 0) {
            c++;
            continue;
        }
        int part = (c > text && strchr(".e+-", c[-1])) || c[run] == '.' || c[run] == 'e';
        double x = strtod(c, NULL);
        if (!part && x > most)
            most = x;
        c += run;
    }
    return most;
}

/* Cycles beyond 2^53, where a double's whole numbers are not all there
 * (T a sum of such costs), are shown to 10 digits in the text, with a
 * line that says so, where every digit was printed ("9007199254740994
 * cycles", the last ones noise); CSV and JSON keep 17. */
Test(cli, cycles_beyond_2_53_are_shown_to_their_digits_in_the_text)
{
    char text[1024];
    snprintf(text, sizeof text, "%ssweep = { p = [1, 2]; };\n", good_program);
    char *path = with(good_program), *table = with(text), args[1200];
    for (int f = 0; f < 2; f++) { /* one point, a table */
        snprintf(args, sizeof args, "run %s --set u=9007199254740992", f ? table : path);
        outcome *o = mcmsim(args);
        cr_assert_eq(o->status, 0, "%s", o->err);
        cr_expect_lt(largest_digit_run(o->out), 9007199254740992.0, "every digit printed:\n%s", o->out);
        cr_expect(strstr(o->out, f ? "  7.205759404e+16  8.106479329e+16 " : " 9.007199255e+15 cycles") != NULL, "%s",
                  o->out);
        cr_expect(strstr(o->out, "cycles of 2^53 or more") != NULL, "%s", o->out);
    }
    snprintf(args, sizeof args, "run %s --set u=9007199254740992 --format csv", path);
    outcome *o = mcmsim(args);
    cr_expect(strstr(o->out, ",9007199254740994,") != NULL, "%s", o->out);
    unlink(path);
    unlink(table);
    free(path);
    free(table);
}

/* A name with a comma is one CSV field (RFC 4180 quotes), where it made
 * two and moved every column after it; a kernel's name, a field of the
 * trace's CSV, is refused with one. */
Test(cli, a_name_with_a_comma_is_one_csv_field)
{
    char *path = with(good_program), args[1200];
    snprintf(args, sizeof args, "run %s --set 'name=card, \"big\"' --format csv", path);
    outcome *o = mcmsim(args);
    cr_assert_eq(o->status, 0, "%s", o->err);
    cr_expect(strstr(o->out, "\np,\"card, \"\"big\"\"\",64,8,16,8,12288,parallel,") != NULL, "%s", o->out);
    unlink(path);
    free(path);
    REFUSE_FILE("program = { name = \"p\"; kernels = ( { name = \"a,b\"; blocks = 1; threads = 1; span = 1; } ); };\n",
                "", ".cfg:1: kernel name \"a,b\" holds a comma", "trace's CSV");
}

/* --trace and --paje write neither the run file nor one file together,
 * where the trace overwrote the run file and the pair left a file that
 * looked whole after a failed run. */
Test(cli, a_trace_is_never_the_run_file_nor_the_paje_file)
{
    char *path = with(good_program), args[2400];
    snprintf(args, sizeof args, "run %s --trace %s", path, path);
    REFUSE(args, "--trace /", "that is the run file");
    snprintf(args, sizeof args, "run %s --paje %s", path, path);
    REFUSE(args, "--paje /", "that is the run file");
    char same[64];
    snprintf(same, sizeof same, "/tmp/mcmsim-cli-same-%d.x", (int)getpid());
    snprintf(args, sizeof args, "run %s --trace %s --paje %s", path, same, same);
    REFUSE(args, "--trace writes that file too");
    cr_expect(access(same, F_OK) != 0, "%s was written", same);
    FILE *f = fopen(path, "r");
    char text[1024] = "";
    cr_assert(f && fread(text, 1, sizeof text - 1, f) > 0);
    fclose(f);
    cr_expect_str_eq(text, good_program, "the run file was changed");
    unlink(path);
    free(path);
}

/* A file to write in no folder, or a folder, is refused before anything
 * is simulated, naming the folder and why. */
Test(cli, an_output_that_cannot_be_written_is_refused_before_simulating)
{
    char *path = with(good_program), args[1200];
    snprintf(args, sizeof args, "run %s --paje /no-such-mcmsim-dir/t.trace", path);
    REFUSE(args, "--paje /no-such-mcmsim-dir/t.trace: cannot write in its folder /no-such-mcmsim-dir",
           "No such file or directory");
    snprintf(args, sizeof args, "run %s --trace /tmp", path);
    REFUSE(args, "--trace /tmp: is a folder");
    snprintf(args, sizeof args, "run %s --trace %s/t.csv", path, path);
    REFUSE(args, "cannot write in its folder", "not a folder");
    snprintf(args, sizeof args, "plot %s -o /no-such-mcmsim-dir/x.svg", path);
    REFUSE(args, "-o /no-such-mcmsim-dir/x.svg: cannot write in its folder");
    unlink(path);
    free(path);
}

/* A param named P, U, Z or i is refused: formulas read those names as the
 * machine's and a repeated kernel's index, where the param was shown in
 * the report and silently not used. */
Test(cli, a_param_a_formula_name_would_hide_is_refused)
{
    const char *names[] = {"P", "U", "Z", "i"};
    for (int k = 0; k < 4; k++) {
        char text[512], needle[64];
        snprintf(text, sizeof text,
                 "program = { name = \"x\"; params = { %s = 4; };\n"
                 "  kernels = ( { name = \"a\"; blocks = \"%s\"; threads = 32; span = 1; } ); };\n",
                 names[k], names[k]);
        snprintf(needle, sizeof needle, ".cfg:1: param '%s' would be hidden", names[k]);
        REFUSE_FILE(text, "", needle, "P, U and Z are the machine's, i a repeated kernel's index");
    }
}

/* compare states its conclusion as text: --format is refused there, where
 * it was read and not used. */
Test(cli, compare_refuses_a_format)
{
    char args[1200];
    snprintf(args, sizeof args, "compare %s/programs/fft.cfg --format csv", MCMSIM_DATADIR);
    REFUSE(args, "--format csv: compare states its conclusion as text", "mcmsim run");
}

/* A machine file without a name is named by its path, where it was
 * reported as the abstract 'mcm' (two such files swept: two rows 'mcm'). */
Test(cli, a_machine_file_without_a_name_is_named_by_its_path)
{
    char *a = temp_file("machine = { p = 4; };\n", ".cfg"), *b = temp_file("machine = { p = 8; };\n", ".cfg");
    char text[2048], args[1200];
    snprintf(text, sizeof text, "%ssweep = { machine = [\"%s\", \"%s\"]; };\n", good_program, a, b);
    char *path = with(text);
    snprintf(args, sizeof args, "run %s --format csv", path);
    outcome *o = mcmsim(args);
    cr_assert_eq(o->status, 0, "%s", o->err);
    char row[512];
    snprintf(row, sizeof row, "\np,%s,64,8,4,", a);
    cr_expect(strstr(o->out, row) != NULL, "%s", o->out);
    snprintf(row, sizeof row, "\np,%s,64,8,8,", b);
    cr_expect(strstr(o->out, row) != NULL && strstr(o->out, "\np,mcm,") == NULL, "%s", o->out);
    unlink(path);
    unlink(a);
    unlink(b);
    free(path);
    free(a);
    free(b);
}

/* A --set key or value too long is refused as such, where the message
 * said "expected key=value" of a well-formed assignment. */
Test(cli, a_set_too_long_says_which_part_and_the_limit)
{
    char long_value[200], extra[300];
    memset(long_value, '1', 130);
    long_value[130] = '\0';
    snprintf(extra, sizeof extra, "--set n=%s", long_value);
    REFUSE_FILE(good_program, extra, "--set n=...: a value of 130 characters, out of range: at most 127");
    memset(long_value, 'k', 70);
    long_value[70] = '\0';
    snprintf(extra, sizeof extra, "--set %s=3", long_value);
    REFUSE_FILE(good_program, extra, "a key of 70 characters, out of range: at most 63");
}
