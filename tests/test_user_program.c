/*
 * test_user_program.c — a kernel written once, run by mcmsim (issue 13):
 * a user's C file from a folder of its own compiles, runs in exec mode and
 * checks; its costs equal those of the same kernel built in; each way it
 * can go wrong gets one line and a non-zero exit; the card's race rules.
 */
#include "exec_test.h"
#include "helpers.h"
#include "user_program.h"

#include <criterion/criterion.h>
#include <math.h>
#include <sys/stat.h>

/* A fresh folder for one test's files, and a cache of its own. */
static const char *workdir(void)
{
    static char dir[256];
    snprintf(dir, sizeof dir, "/tmp/mcmsim-user-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
    char cache[300];
    snprintf(cache, sizeof cache, "%s/cache", dir);
    setenv("MCMSIM_CACHE", cache, 1);
    return dir;
}

static void write_file(const char *dir, const char *name, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f, "cannot write %s", path);
    fputs(text, f);
    fclose(f);
}

/* A run file `name`.cfg in dir for `name`.c, on the mcm machine. */
static void write_run_file(const char *dir, const char *name, const char *params)
{
    char text[512], file[128];
    snprintf(text, sizeof text, "machine = \"mcm\";\nprogram = { source = \"%s.c\"; params = { %s }; };\n", name,
             params);
    snprintf(file, sizeof file, "%s.cfg", name);
    write_file(dir, file, text);
}

/* `mcmsim run DIR/NAME.cfg` then `options`: its status, stdout and
 * stderr in out. */
static int run_user_with(const char *dir, const char *name, const char *options, const char *streams, char *out,
                         size_t size)
{
    return mcmsim_output(streams, out, size, "run %s/%s.cfg%s", dir, name, options);
}

static int run_user(const char *dir, const char *name, const char *streams, char *out, size_t size)
{
    return run_user_with(dir, name, "", streams, out, size);
}

/* Run with `options`: one line on stderr, nothing on stdout, exit status
 * 1, and each needle. */
static void expect_refused_with(const char *dir, const char *name, const char *options, const char *const *needles)
{
    char err[8192], all[8192];
    int status = run_user_with(dir, name, options, MCMSIM_ERR_ONLY, err, sizeof err);
    cr_expect_neq(status, 0, "%s: exit status 0", name);
    run_user_with(dir, name, options, MCMSIM_OUT_AND_ERR, all, sizeof all);
    cr_expect_str_eq(all, err, "%s printed on stdout:\n%s", name, all);
    const char *last = strstr(err, "mcmsim: ");
    cr_assert_not_null(last, "%s: no message of ours in:\n%s", name, err);
    cr_expect(strchr(last, '\n') == last + strlen(last) - 1, "%s: our message is not one last line:\n%s", name,
              err);
    for (int i = 0; needles[i]; i++)
        cr_expect(strstr(last, needles[i]) != NULL, "%s: '%s' not in: %s", name, needles[i], last);
}

static void expect_refused(const char *dir, const char *name, const char *const *needles)
{
    expect_refused_with(dir, name, "", needles);
}

/* The examples under programs/user/ (absolute, so any folder runs them). */
static void example_path(const char *name, char *out, size_t size)
{
    snprintf(out, size, "%s/programs/user/%s.c", MCMSIM_DATADIR, name);
}

/* ---- it runs, and costs what the built-in costs ------------------------- */

Test(user_program, a_kernel_from_a_folder_of_its_own_runs_and_checks)
{
    const char *dir = workdir();
    write_file(dir, "double.c",
               "#include \"mcm_kernel.h\"\n"
               "typedef struct { gmem x; long n; } args;\n"
               "MCM_STEP(twice, args, a) {\n"
               "    long i = t->bid * t->threads + t->tid;\n"
               "    if (i < a->n) { exec_ops(t, 1); exec_gwrite(t, a->x, i, 2 * exec_gread(t, a->x, i)); }\n"
               "}\n"
               "MCM_KERNEL(k, args, twice);\n"
               "static gmem x; static long n;\n"
               "static int setup(exec_run *run, const mcm_params *p) {\n"
               "    n = (long)mcm_param(p, \"n\", 10); x = mcm_alloc(run, \"x\", n);\n"
               "    for (long i = 0; i < n; i++) mcm_set(x, i, (word)i);\n"
               "    return 0;\n"
               "}\n"
               "static int launches(exec_run *run) { args a = {x, n}; return mcm_launch(run, &k, (n + 31) / 32, 32, 0, &a); }\n"
               "static int check(exec_run *run) {\n"
               "    (void)run;\n"
               "    for (long i = 0; i < n; i++) if (mcm_get(x, i) != 2 * (word)i) return mcm_fail(\"x[%ld] wrong\", i);\n"
               "    return 0;\n"
               "}\n"
               "MCM_PROGRAM(\"double\", setup, launches, check);\n");
    write_run_file(dir, "double", "n = 100;");
    char out[8192];
    cr_assert_eq(run_user(dir, "double", MCMSIM_OUT_AND_ERR, out, sizeof out), 0, "%s", out);
    cr_expect(strstr(out, "N = 4 blocks") && strstr(out, "work W = 100 "), "%s", out);
    /* the second run takes the compiled object from the cache */
    char cache[512];
    snprintf(cache, sizeof cache, "%s/cache", dir);
    struct stat before, after;
    cr_assert_eq(stat(cache, &before), 0);
    cr_assert_eq(run_user(dir, "double", MCMSIM_OUT_AND_ERR, out, sizeof out), 0, "%s", out);
    cr_assert_eq(stat(cache, &after), 0);
    cr_expect_eq(before.st_mtime, after.st_mtime, "the cache folder changed: compiled again");
}

/* tests/user/rotate.c was written against version 1 of the header and is
 * kept as it was: it compiles against today's and costs what version 1
 * measured.  Per thread: load 1 private write; rotate 1 read, 1 write;
 * store 2 operations and 1 read: S(B) = 6, W(B) = 6ℓ, one coalesced word
 * read and one written, no bank conflict (consecutive words). */
Test(user_program, a_file_written_against_version_1_compiles_and_costs_what_it_did)
{
    workdir();
    machine m = test_machine(16, 8);
    char source[512];
    snprintf(source, sizeof source, "%s/tests/user/rotate.c", MCMSIM_DATADIR);
    vars params = test_params("n l pad", 4096.0, 128.0, 0.0);
    kernel_dag *dag = user_program_build(source, &params, &m);
    cr_assert_not_null(dag, "%s", fail_message());
    cr_assert_eq(dag->n, 1);
    const kernel *k = &dag->kernels[0];
    cr_expect_eq(k->blocks, 32);
    for (long b = 0; b < k->blocks; b++) {
        const block_cost *c = kernel_block_cost(k, b);
        cr_expect_eq(c->span, 6, "block %ld: S(B) %g", b, c->span);
        cr_expect_eq(c->work, 6 * 128, "block %ld: W(B) %g", b, c->work);
        cr_expect_eq(c->reads, 1);
        cr_expect_eq(c->writes, 1);
        cr_expect_eq(c->bank_conflicts, 0);
    }
    kernel_dag_free(dag);
}

/* An object built against version 1 (its entry says 1) still loads. */
Test(user_program, an_object_built_against_version_1_loads)
{
    const char *dir = workdir();
    write_file(dir, "one.c",
               "#include \"mcm_kernel.h\"\n"
               "typedef struct { gmem x; } args;\n"
               "MCM_STEP(inc, args, a) { exec_ops(t, 1); exec_gwrite(t, a->x, t->tid, 1 + exec_gread(t, a->x, t->tid)); }\n"
               "MCM_KERNEL(k, args, inc);\n"
               "static gmem x;\n"
               "static int s(exec_run *r, const mcm_params *p) { (void)p; x = mcm_alloc(r, \"x\", 32); return 0; }\n"
               "static int l(exec_run *r) { args a = {x}; return mcm_launch(r, &k, 1, 32, 0, &a); }\n"
               "static int c(exec_run *r) { (void)r; return mcm_get(x, 31) == 1 ? 0 : mcm_fail(\"x[31]\"); }\n"
               "const mcm_program_entry mcm_program = {1, \"one\", s, l, c};\n");
    write_run_file(dir, "one", "");
    char out[8192];
    cr_expect_eq(run_user(dir, "one", MCMSIM_OUT_AND_ERR, out, sizeof out), 0, "%s", out);
    cr_expect(strstr(out, "work W = 32 "), "%s", out);
}

/* Whether the object `so` names `name` whole (a NUL on each side: so
 * exec_gread, not exec_gread_checked): where it imports it. */
static int object_names(const char *so, const char *name)
{
    FILE *f = fopen(so, "rb");
    cr_assert_not_null(f, "cannot read %s", so);
    static char bytes[1 << 22];
    size_t n = fread(bytes, 1, sizeof bytes, f), len = strlen(name);
    fclose(f);
    cr_assert_lt(n, sizeof bytes, "%s: larger than the test reads", so);
    for (size_t i = 0; i + len + 1 < n; i++)
        if (bytes[i] == '\0' && memcmp(&bytes[i + 1], name, len) == 0 && bytes[i + len + 1] == '\0')
            return 1;
    return 0;
}

/* A counted build (its instruction stream counted) keeps the accesses as
 * calls in the IR the stream weighs, and runs them inline: its object
 * imports no access and no Z/pZ operation, only their checked paths
 * (tests/user/stream.c reads, writes and multiplies). */
Test(user_program, a_counted_build_runs_its_accesses_inline)
{
    workdir();
    char source[512], so[1200];
    snprintf(source, sizeof source, "%s/tests/user/stream.c", MCMSIM_DATADIR);
    cr_assert_eq(user_program_compile_as(source, 1, so, sizeof so), 0, "%s", fail_message());
    const char *inline_ones[] = {"exec_gread", "exec_gwrite", "exec_zp_mul", "exec_zp_add"};
    for (int i = 0; i < 4; i++)
        cr_expect_not(object_names(so, inline_ones[i]), "%s: %s is called", so, inline_ones[i]);
    cr_expect(object_names(so, "exec_gread_checked"), "%s: imports no checked read", so);
}

/* A kernel of MCM_KERNEL_LOOP runs its step as many times as its launch
 * says, t->step counting them, a barrier after each: thread i adds the
 * word its neighbour wrote in the step before, so after k steps
 * x[i] = Σ_j C(k, j)·x[i + j] (indices mod ℓ), and each step costs one
 * operation and two private accesses. */
Test(user_program, a_looped_kernel_runs_its_step_as_many_times_as_launched)
{
    const char *dir = workdir();
    write_file(dir, "loop.c",
               "#include \"mcm_kernel.h\"\n"
               "typedef struct { gmem x; int k; } args;\n"
               "MCM_STEP(spread, args, a) {\n"
               "    int l = t->threads, in = ((t->step + 1) % 2) * l, out = l - in;\n"
               "    if (t->step == 0) { exec_pwrite(t, t->tid, exec_gread(t, a->x, t->tid)); return; }\n"
               "    word v = exec_pread(t, in + t->tid) + exec_pread(t, in + (t->tid + 1) % l);\n"
               "    exec_ops(t, 1);\n"
               "    if (t->step < a->k) exec_pwrite(t, out + t->tid, v % 1000003); else exec_gwrite(t, a->x, t->tid, v % 1000003);\n"
               "}\n"
               "MCM_KERNEL_LOOP(k, args, spread);\n"
               "static gmem x; static int steps;\n"
               "static int s(exec_run *r, const mcm_params *p) {\n"
               "    steps = (int)mcm_param(p, \"k\", 3); x = mcm_alloc(r, \"x\", 32);\n"
               "    for (long i = 0; i < 32; i++) mcm_set(x, i, (word)(i * i + 1));\n"
               "    return 0;\n"
               "}\n"
               "static int l(exec_run *r) { args a = {x, steps}; return mcm_launch_steps(r, &k, steps + 1, 1, 32, 64, &a); }\n"
               "static int c(exec_run *r) {\n"
               "    (void)r; word v[32], w[32];\n"
               "    for (int i = 0; i < 32; i++) v[i] = (word)(i * i + 1);\n"
               "    for (int s = 0; s < steps; s++) { for (int i = 0; i < 32; i++) w[i] = (v[i] + v[(i + 1) % 32]) % 1000003; for (int i = 0; i < 32; i++) v[i] = w[i]; }\n"
               "    for (int i = 0; i < 32; i++) if (mcm_get(x, i) != v[i]) return mcm_fail(\"x[%d] = %llu, want %llu\", i, (unsigned long long)mcm_get(x, i), (unsigned long long)v[i]);\n"
               "    return 0;\n"
               "}\n"
               "MCM_PROGRAM(\"loop\", s, l, c);\n");
    machine m = test_machine(16, 8);
    char source[512];
    snprintf(source, sizeof source, "%s/loop.c", dir);
    for (int k = 1; k <= 9; k += 4) {
        vars params = test_params("k", (double)k);
        kernel_dag *dag = user_program_build(source, &params, &m);
        cr_assert_not_null(dag, "k = %d: %s", k, fail_message());
        const block_cost *c = kernel_block_cost(&dag->kernels[0], 0);
        /* step 0: one private write; steps 1..k: 1 operation, 2 private
         * reads, and a private write in all but the last */
        cr_expect_eq(c->span, 1 + 3 * k + (k - 1), "k = %d: S(B) %g", k, c->span);
        cr_expect_eq(c->span_ops[OP_BARRIER], k, "k = %d: %g barriers", k, c->span_ops[OP_BARRIER]);
        kernel_dag_free(dag);
    }
    write_file(dir, "wrong.c",
               "#include \"mcm_kernel.h\"\n"
               "typedef struct { int unused; } args;\n"
               "MCM_STEP(nothing, args, a) { exec_ops(t, 1); }\n"
               "MCM_KERNEL_LOOP(k, args, nothing);\n"
               "static int s(exec_run *r, const mcm_params *p) { (void)r; (void)p; return 0; }\n"
               "static int l(exec_run *r) { args a = {0}; return mcm_launch(r, &k, 1, 32, 0, &a); }\n"
               "static int c(exec_run *r) { (void)r; return 0; }\n"
               "MCM_PROGRAM(\"wrong\", s, l, c);\n");
    write_run_file(dir, "wrong", "");
    expect_refused(dir, "wrong", (const char *[]){"wrong.c", "MCM_KERNEL_LOOP", "mcm_launch_steps", NULL});
}

/* mcm_input: input k (of 3) fills x with k + 1 and launches k + 1 blocks;
 * check of input `bad` fails.  Input 0 is the one measured; every input is
 * set up, launched and checked. */
static void write_inputs_program(const char *dir)
{
    write_file(dir, "inputs.c",
               "#include \"mcm_kernel.h\"\n"
               "typedef struct { gmem x; } args;\n"
               "MCM_STEP(twice, args, a) {\n"
               "    long i = t->bid * t->threads + t->tid;\n"
               "    exec_ops(t, 1); exec_gwrite(t, a->x, i, 2 * exec_gread(t, a->x, i));\n"
               "}\n"
               "MCM_KERNEL(k, args, twice);\n"
               "static gmem x; static int input, bad, count;\n"
               "static int s(exec_run *r, const mcm_params *p) {\n"
               "    bad = (int)mcm_param(p, \"bad\", -1); count = (int)mcm_param(p, \"count\", 3);\n"
               "    input = mcm_input(p, count + (count > 1 && bad == 9 ? input : 0));\n"
               "    x = mcm_alloc(r, \"x\", 32 * (input + 1));\n"
               "    for (long i = 0; i < 32 * (input + 1); i++) mcm_set(x, i, (word)(input + 1));\n"
               "    return 0;\n"
               "}\n"
               "static int l(exec_run *r) { args a = {x}; return mcm_launch(r, &k, input + 1, 32, 0, &a); }\n"
               "static int c(exec_run *r) {\n"
               "    (void)r;\n"
               "    for (long i = 0; i < 32 * (input + 1); i++)\n"
               "        if (mcm_get(x, i) != 2 * (word)(input + 1) || input == bad) return mcm_fail(\"input %d: x[%ld] wrong\", input, i);\n"
               "    return 0;\n"
               "}\n"
               "MCM_PROGRAM(\"inputs\", s, l, c);\n");
}

Test(user_program, every_input_a_program_checks_is_run_and_input_0_is_measured)
{
    const char *dir = workdir();
    write_inputs_program(dir);
    machine m = test_machine(16, 8);
    char source[512];
    snprintf(source, sizeof source, "%s/inputs.c", dir);
    vars params = test_params("bad count", -1.0, 3.0);
    kernel_dag *dag = user_program_build(source, &params, &m);
    cr_assert_not_null(dag, "%s", fail_message());
    cr_expect_eq(dag->n, 1, "input 0's launch only");
    cr_expect_eq(dag->kernels[0].blocks, 1, "input 0's grid");
    kernel_dag_free(dag);
    for (int bad = 0; bad < 3; bad++) {
        char name[32], run_params[64], expected[64];
        snprintf(name, sizeof name, "bad%d", bad);
        snprintf(run_params, sizeof run_params, "bad = %d; count = 3;", bad);
        char text[512];
        snprintf(text, sizeof text, "machine = \"mcm\";\nprogram = { source = \"inputs.c\"; params = { %s }; };\n",
                 run_params);
        char file[64];
        snprintf(file, sizeof file, "%s.cfg", name);
        write_file(dir, file, text);
        if (bad == 0)
            snprintf(expected, sizeof expected, "inputs.c, in its check: input 0: x[0] wrong");
        else
            snprintf(expected, sizeof expected, "inputs.c, in its check of input %d: input %d: x[0] wrong", bad, bad);
        expect_refused(dir, name, (const char *[]){expected, NULL});
    }
    /* a count that depends on the input before: 3 for inputs 0 and 1, 4 for input 2 */
    write_run_file(dir, "inputs", "bad = 9; count = 3;");
    expect_refused(dir, "inputs", (const char *[]){"in its setup of input 2: mcm_input: setup said 3 inputs for input 0 and 4 for input 2",
                                                  "params only", NULL});
}

/* A sweep checks the inputs after input 0 at the first value of its last
 * param only, for each value of the keys before it (sim/app/main.c):
 * input 1's check fails where bad = 1. */
Test(user_program, a_sweep_checks_further_inputs_at_the_first_value_of_its_last_param)
{
    const char *dir = workdir();
    write_inputs_program(dir);
    struct {
        const char *name, *sweep;
        int fails;
    } runs[] = {
        {"later", "bad = [5, 1];", 0},           /* bad = 1 is not the first value: input 0 only */
        {"first", "bad = [1, 5];", 1},           /* bad = 1 first: every input */
        {"outer", "bad = [5, 1]; y = [7, 8];", 1}, /* bad = 1 with y's first value */
    };
    for (size_t i = 0; i < sizeof runs / sizeof *runs; i++) {
        char text[512], file[64], out[8192];
        snprintf(text, sizeof text,
                 "machine = \"mcm\";\nprogram = { source = \"inputs.c\"; params = { count = 3; bad = -1; y = 0; }; };\n"
                 "sweep = { %s };\n", runs[i].sweep);
        snprintf(file, sizeof file, "%s.cfg", runs[i].name);
        write_file(dir, file, text);
        if (runs[i].fails)
            expect_refused(dir, runs[i].name, (const char *[]){"in its check of input 1: input 1: x[0] wrong", NULL});
        else
            cr_expect_eq(run_user(dir, runs[i].name, MCMSIM_OUT_AND_ERR, out, sizeof out), 0, "%s: %s", runs[i].sweep,
                         out);
    }
}

/* A kernel of MCM_KERNEL_SCHEDULE runs the steps its schedule lists, in
 * order, each with the number listed beside it as t->step: here a
 * Hillis–Steele scan of ℓ words, level k adding the word 2^k to the left,
 * between two buffers of ℓ private words.  Per thread: the load, 1
 * private write; a level, 2 reads, 1 operation and 1 write where
 * tid >= 2^k, else 1 read and 1 write; the store, 1 read.  Thread ℓ − 1
 * adds at every level: S(B) = 2 + 4 log ℓ; a barrier between each two of
 * the log ℓ + 2 steps. */
Test(user_program, a_scheduled_kernel_runs_the_steps_its_schedule_lists)
{
    const char *dir = workdir();
    write_file(dir, "scan.c",
               "#include \"mcm_kernel.h\"\n"
               "typedef struct { gmem x; } args;\n"
               "MCM_STEP(load, args, a) { exec_pwrite(t, t->tid, exec_gread(t, a->x, t->tid)); }\n"
               "MCM_STEP(level, args, a) {\n"
               "    int l = t->threads, d = 1 << t->step, in = (t->step % 2) * l, out = l - in;\n"
               "    word v = exec_pread(t, in + t->tid);\n"
               "    if (t->tid >= d) { v += exec_pread(t, in + t->tid - d); exec_ops(t, 1); }\n"
               "    exec_pwrite(t, out + t->tid, v % 1000003);\n"
               "}\n"
               "MCM_STEP(store, args, a) { exec_gwrite(t, a->x, t->tid, exec_pread(t, t->step * t->threads + t->tid)); }\n"
               "MCM_KERNEL_SCHEDULE(scan, args, a, s) {\n"
               "    int k = 0;\n"
               "    mcm_step(s, load, 0);\n"
               "    for (; 1 << k < s->threads; k++)\n"
               "        mcm_step(s, level, k);\n"
               "    mcm_step(s, store, k % 2);\n"
               "}\n"
               "static gmem x; static int l;\n"
               "static int s(exec_run *r, const mcm_params *p) {\n"
               "    l = (int)mcm_param(p, \"l\", 32); x = mcm_alloc(r, \"x\", l);\n"
               "    for (long i = 0; i < l; i++) mcm_set(x, i, (word)(i * i + 1));\n"
               "    return 0;\n"
               "}\n"
               "static int launch(exec_run *r) { args a = {x}; return mcm_launch(r, &scan, 1, l, 2 * l, &a); }\n"
               "static int c(exec_run *r) {\n"
               "    (void)r; word sum = 0;\n"
               "    for (int i = 0; i < l; i++) { sum = (sum + (word)(i * i + 1)) % 1000003;\n"
               "        if (mcm_get(x, i) != sum) return mcm_fail(\"x[%d] = %llu, want %llu\", i, (unsigned long long)mcm_get(x, i), (unsigned long long)sum); }\n"
               "    return 0;\n"
               "}\n"
               "MCM_PROGRAM(\"scan\", s, launch, c);\n");
    machine m = test_machine(16, 8);
    char source[512];
    snprintf(source, sizeof source, "%s/scan.c", dir);
    for (int log_l = 0; log_l <= 8; log_l += 4) {
        vars params = test_params("l", ldexp(1, log_l));
        kernel_dag *dag = user_program_build(source, &params, &m);
        cr_assert_not_null(dag, "ℓ = 2^%d: %s", log_l, fail_message());
        const block_cost *c = kernel_block_cost(&dag->kernels[0], 0);
        cr_expect_eq(c->span, 2 + 4 * log_l, "ℓ = 2^%d: S(B) %g", log_l, c->span);
        cr_expect_eq(c->span_ops[OP_BARRIER], log_l + 1, "ℓ = 2^%d: %g barriers", log_l, c->span_ops[OP_BARRIER]);
        cr_expect_str_eq(dag->kernels[0].name, "scan");
        kernel_dag_free(dag);
    }
    /* a schedule that lists no step, and mcm_launch_steps of a scheduled kernel */
    write_file(dir, "empty.c",
               "#include \"mcm_kernel.h\"\n"
               "typedef struct { int steps; } args;\n"
               "MCM_STEP(nothing, args, a) { exec_ops(t, 1); }\n"
               "MCM_KERNEL_SCHEDULE(k, args, a, s) { for (int i = 0; i < a->steps; i++) mcm_step(s, nothing, i); }\n"
               "static int steps;\n"
               "static int s(exec_run *r, const mcm_params *p) { (void)r; steps = (int)mcm_param(p, \"steps\", 0); return 0; }\n"
               "static int l(exec_run *r) { args a = {steps}; return steps < 0 ? mcm_launch_steps(r, &k, 1, 1, 32, 0, &a) : mcm_launch(r, &k, 1, 32, 0, &a); }\n"
               "static int c(exec_run *r) { (void)r; return 0; }\n"
               "MCM_PROGRAM(\"empty\", s, l, c);\n");
    write_run_file(dir, "empty", "");
    expect_refused(dir, "empty", (const char *[]){"empty.c", "kernel 'k'", "lists 0 steps", "mcm_step", NULL});
    write_run_file(dir, "empty", "steps = -1;");
    expect_refused(dir, "empty", (const char *[]){"empty.c", "MCM_KERNEL_SCHEDULE", "launch it with mcm_launch",
                                                  NULL});
    write_run_file(dir, "empty", "steps = 3;");
    char out[8192];
    cr_expect_eq(run_user(dir, "empty", MCMSIM_OUT_AND_ERR, out, sizeof out), 0, "%s", out);
    cr_expect(strstr(out, "work W = 96 "), "three steps of one operation, 32 threads:\n%s", out);
}

/* The course examples run and check at a few shapes; matvec's Z/pZ
 * multiplications are n² whatever ℓ. */
Test(user_program, the_examples_run_and_check)
{
    workdir();
    machine m = test_machine(16, 8);
    char source[512];
    for (int c = 0; c < 3; c++) {
        double n = (double[]){1000, 257, 3}[c], l = (double[]){64, 256, 1}[c];
        vars params = test_params("n l iters", n, l, 3.0);
        example_path("jacobi", source, sizeof source);
        kernel_dag *dag = user_program_build(source, &params, &m);
        cr_assert_not_null(dag, "jacobi n = %g l = %g: %s", n, l, fail_message());
        cr_expect_eq(dag->n, 3);
        kernel_dag_free(dag);
        example_path("matvec", source, sizeof source);
        dag = user_program_build(source, &params, &m);
        cr_assert_not_null(dag, "matvec n = %g l = %g: %s", n, l, fail_message());
        double mulmods = 0;
        for (long b = 0; b < dag->kernels[0].blocks; b++)
            mulmods += kernel_block_cost(&dag->kernels[0], b)->work_ops[OP_MULMOD];
        cr_expect_eq(mulmods, n * n, "matvec n = %g: %g multiplications", n, mulmods);
        kernel_dag_free(dag);
    }
}

/* The reuse examples (stencil, gather, horner) run and check at a few
 * shapes, on a machine with the caches of exec mode and without. */
Test(user_program, the_reuse_examples_run_and_check_with_the_caches_and_without)
{
    workdir();
    machine cached = test_cache_machine(4, 8, 4096, 65536), m = cached;
    m.l1_words = 0;
    m.blocks_per_sm = cached.blocks_per_sm = 4;
    const char *const names[] = {"stencil", "gather", "horner"};
    const vars shapes[3][3] = {
        {test_params("n l iters", 3.0, 1.0, 1.0), test_params("n l iters", 100.0, 64.0, 2.0),
         test_params("n l iters", 257.0, 32.0, 3.0)},
        {test_params("n m l iters", 3.0, 1.0, 1.0, 1.0), test_params("n m l iters", 1000.0, 300.0, 64.0, 2.0),
         test_params("n m l iters", 777.0, 70000.0, 32.0, 2.0)},
        {test_params("n d l", 3.0, 0.0, 1.0), test_params("n d l", 1000.0, 5.0, 64.0),
         test_params("n d l", 257.0, 70.0, 32.0)},
    };
    char source[512];
    for (int e = 0; e < 3; e++) {
        example_path(names[e], source, sizeof source);
        for (int c = 0; c < 3; c++)
            for (int with = 0; with < 2; with++) {
                kernel_dag *dag = user_program_build(source, &shapes[e][c], with ? &cached : &m);
                cr_assert_not_null(dag, "%s, shape %d: %s", names[e], c, fail_message());
                cr_expect_eq(kernel_block_cost(&dag->kernels[0], 0)->sectors.measured, with, "%s: through the caches?",
                             names[e]);
                kernel_dag_free(dag);
            }
    }
}

/* Horner's coefficients are a broadcast: at n = 64 (one block of two
 * warps), d = 7 (one sector of coefficients), on one SM, the arrays in the
 * L2 before the launch (sim/exec/cache.h), round by round:
 *   round 0  x: warp 0 one line, 4 sectors from the L2; warp 1 another 4;
 *   round 1  c[7]: warp 0 one sector from the L2; warp 1 from the L1;
 *   rounds 2-8  c[6] ... c[0]: the same sector, the L1, both warps;
 * then y: 64 words, 8 sectors into the L2. */
Test(user_program, horners_coefficients_come_from_the_l1)
{
    workdir();
    machine m = test_cache_machine(1, 8, 4096, 65536);
    char source[512];
    example_path("horner", source, sizeof source);
    vars params = test_params("n d l", 64.0, 7.0, 64.0);
    kernel_dag *dag = user_program_build(source, &params, &m);
    cr_assert_not_null(dag, "%s", fail_message());
    const cache_sectors *s = &kernel_block_cost(&dag->kernels[0], 0)->sectors;
    cr_expect_eq(s->l2_reads, 4 + 4 + 1, "%g", s->l2_reads);
    cr_expect_eq(s->dram_reads, 0, "%g", s->dram_reads);
    cr_expect_eq(s->l1_wavefronts, 1 + 2 * 7, "%g", s->l1_wavefronts);
    cr_expect_eq(s->l2_writes, 8);
    kernel_dag_free(dag);
}

/* ---- each way it can go wrong: one line, exit status 1 ----------------- */

static const char *const tail_of_program =
    "static gmem g;\n"
    "static int setup(exec_run *run, const mcm_params *p) { (void)p; g = mcm_alloc(run, \"g\", 64); return 0; }\n"
    "static int launches(exec_run *run) { args a = {g}; return mcm_launch(run, &k, BLOCKS, 32, 4, &a); }\n"
    "static int check(exec_run *run) { (void)run; CHECK; }\n"
    "MCM_PROGRAM(\"bad\", setup, launches, check);\n";

/* A program whose one kernel runs `step` (a body over t and a) and whose
 * check is `check` (a body). */
static void write_checked_kernel(const char *dir, const char *name, int blocks, const char *step, const char *check)
{
    char text[4096];
    snprintf(text, sizeof text,
             "#include \"mcm_kernel.h\"\n#define BLOCKS %d\n#define CHECK %s\ntypedef struct { gmem g; } args;\n"
             "MCM_STEP(first, args, a) { %s }\nMCM_STEP(second, args, a) { }\n"
             "MCM_KERNEL(k, args, first, second);\n%s",
             blocks, check, step, tail_of_program);
    char file[128];
    snprintf(file, sizeof file, "%s.c", name);
    write_file(dir, file, text);
    write_run_file(dir, name, "");
}

static void write_kernel(const char *dir, const char *name, int blocks, const char *step)
{
    write_checked_kernel(dir, name, blocks, step, "return 0");
}

/* A kernel that stops itself (SIGSTOP) is said to be stopped, and the
 * command ends (exit status 1), where it was said every 10 s to be
 * running and waited forever.  Each run is held to 30 s, so that the
 * wait fails the test rather than outlasting it. */
Test(user_program, a_kernel_that_stops_itself_is_named_stopped_and_ended, .timeout = 150)
{
    const char *dir = workdir();
    char text[4096];
    snprintf(text, sizeof text,
             "#include <signal.h>\n#include \"mcm_kernel.h\"\n#define BLOCKS 1\n#define CHECK return 0\n"
             "typedef struct { gmem g; } args;\n"
             "MCM_STEP(first, args, a) { (void)a; if (t->tid == 0) raise(SIGSTOP); }\nMCM_STEP(second, args, a) { }\n"
             "MCM_KERNEL(k, args, first, second);\n%s",
             tail_of_program);
    write_file(dir, "stops.c", text);
    write_run_file(dir, "stops", "");
    const char *bin = getenv("MCMSIM");
    cr_assert_not_null(bin, "set MCMSIM to the mcmsim binary (make test does)");
    char held[1200];
    snprintf(held, sizeof held, "%s", bin);
    char command[1300];
    snprintf(command, sizeof command, "timeout -s KILL 30 %s", held);
    setenv("MCMSIM", command, 1);
    expect_refused(dir, "stops",
                   (const char *[]){"stops.c: the program stopped in exec mode (signal 19, Stopped (signal)) "
                                    "during its launches, in kernel 'k', and would never go on: it was ended",
                                    "nothing was simulated", NULL});
    setenv("MCMSIM", held, 1);
}

Test(user_program, a_compile_error_names_the_file_and_its_line)
{
    const char *dir = workdir();
    write_file(dir, "broken.c", "#include \"mcm_kernel.h\"\n\nint x = ;\n");
    write_run_file(dir, "broken", "");
    char err[8192];
    cr_expect_neq(run_user(dir, "broken", MCMSIM_ERR_ONLY, err, sizeof err), 0);
    cr_expect(strstr(err, "broken.c:3:"), "the compiler's line is not named:\n%s", err);
    expect_refused(dir, "broken", (const char *[]){"broken.c", "does not compile", NULL});
}

Test(user_program, a_missing_entry_point_and_a_version_from_the_future_are_refused)
{
    const char *dir = workdir();
    write_file(dir, "none.c", "#include \"mcm_kernel.h\"\nint nothing;\n");
    write_run_file(dir, "none", "");
    expect_refused(dir, "none", (const char *[]){"none.c", "no entry point", "MCM_PROGRAM", NULL});
    write_file(dir, "old.c",
               "#include \"mcm_kernel.h\"\n"
               "static int s(exec_run *r, const mcm_params *p) { (void)r; (void)p; return 0; }\n"
               "static int l(exec_run *r) { (void)r; return 0; }\n"
               "const mcm_program_entry mcm_program = {MCM_API_VERSION + 1, \"old\", s, l, l};\n");
    write_run_file(dir, "old", "");
    expect_refused(dir, "old", (const char *[]){"old.c", "version 3", "runs versions 1 to 2", NULL});
}

Test(user_program, a_crash_in_the_kernel_names_the_phase_and_the_kernel)
{
    const char *dir = workdir();
    write_kernel(dir, "crash", 1, "if (t->tid == 3) *(volatile int *)0 = 1;");
    /* the same message under ASan: the child dies of the fault */
    expect_refused(dir, "crash", (const char *[]){"crash.c", "crashed", "Segmentation fault", "during its launches",
                                                  "kernel 'k'", NULL});
}

/* A read of a private word no thread of the block wrote: thread 0 reads
 * private[3] in the first of the kernel's two steps. */
static void write_unwritten(const char *dir)
{
    write_kernel(dir, "unwritten", 1, "if (t->tid == 0) exec_gwrite(t, a->g, 0, exec_pread(t, 3));");
}

/* The same in block 1 of 2, where block 0's thread 1 wrote private[3] in
 * its first step. */
static void write_earlier_block(const char *dir)
{
    write_kernel(dir, "earlier_block", 2,
                 "if (t->bid == 0 && t->tid == 1) exec_pwrite(t, 3, 1);"
                 " if (t->bid == 1 && t->tid == 0) exec_gwrite(t, a->g, 0, exec_pread(t, 3));");
}

Test(user_program, a_read_of_another_threads_write_in_one_step_names_both_threads)
{
    const char *dir = workdir();
    write_kernel(dir, "raw", 1, "if (t->tid > 0) exec_gwrite(t, a->g, t->tid, exec_gread(t, a->g, t->tid - 1));");
    expect_refused(dir, "raw", (const char *[]){"thread 2 reads g[1], which thread 1 writes in the same step",
                                                "race-free steps", NULL});
    write_kernel(dir, "war", 1, "if (t->tid < 31) exec_gwrite(t, a->g, t->tid, exec_gread(t, a->g, t->tid + 1));");
    expect_refused(dir, "war", (const char *[]){"thread 1 writes g[1], which thread 0 reads in the same step", NULL});
    /* a write made while the step had no other use of a global cell waits in the log (exec_enter_deferred):
     * a later read or write of the cell in the step still meets it */
    write_kernel(dir, "deferred_raw", 1,
                 "if (t->tid == 0) exec_gwrite(t, a->g, 1, 7); else if (t->tid == 2) (void)exec_gread(t, a->g, 1);");
    expect_refused(dir, "deferred_raw", (const char *[]){"thread 2 reads g[1], which thread 0 writes in the same step",
                                                         NULL});
    write_kernel(dir, "deferred_waw", 1, "if (t->tid < 2) exec_gwrite(t, a->g, 1, (word)t->tid);");
    expect_refused(dir, "deferred_waw", (const char *[]){"threads 0 and 1 both write g[1]", NULL});
    /* a write beside the step's pending reads (its cell outside theirs) waits too, and a read beside
     * the deferred writes pends: a later access of either cell still meets it */
    write_kernel(dir, "deferred_beside_reads", 1,
                 "if (t->tid == 0) (void)exec_gread(t, a->g, 0); else if (t->tid == 1) exec_gwrite(t, a->g, 8, 7);"
                 " else if (t->tid == 2) (void)exec_gread(t, a->g, 8);");
    expect_refused(dir, "deferred_beside_reads",
                   (const char *[]){"thread 2 reads g[8], which thread 1 writes in the same step", NULL});
    write_kernel(dir, "pending_beside_writes", 1,
                 "if (t->tid == 0) exec_gwrite(t, a->g, 8, 7); else if (t->tid == 1) (void)exec_gread(t, a->g, 1);"
                 " else if (t->tid == 2) exec_gwrite(t, a->g, 1, 5);");
    expect_refused(dir, "pending_beside_writes",
                   (const char *[]){"thread 2 writes g[1], which thread 1 reads in the same step", NULL});
    write_kernel(dir, "private", 1, "exec_pwrite(t, t->tid % 4, 1); (void)exec_pread(t, 0);");
    expect_refused(dir, "private", (const char *[]){"private[0]", "same step", NULL});
    write_unwritten(dir);
    expect_refused(dir, "unwritten", (const char *[]){"thread 0 reads private[3], which no thread of the block wrote",
                                                      NULL});
    /* a word an earlier block of the worker wrote is not written in this one (its stamp is of no step of
     * this block: private_use); on one thread (--jobs 1) one worker runs blocks 0 and 1 in turn (one
     * chunk: exec.c, cut_chunks), so block 1 meets the stamp block 0 left, whatever the cores */
    write_earlier_block(dir);
    expect_refused_with(dir, "earlier_block", " --jobs 1",
                        (const char *[]){"block 1: thread 0 reads private[3], which no thread of the block wrote",
                                         NULL});
}

/* ---- the private stamps' wrap (exec.c, next_step) ----------------------- */

/* Program `name` in dir run in an exec process (forked from this one) on
 * one worker, whose step stamps start after `after`: its DAG, or NULL with
 * fail(). */
static kernel_dag *run_after_stamp(const char *dir, const char *name, uint32_t after)
{
    char source[512];
    snprintf(source, sizeof source, "%s/%s.c", dir, name);
    machine m = test_machine(16, 8);
    vars params = test_params_of("", NULL, 0);
    exec_process x;
    exec_kernel_report *reports = NULL;
    exec_test_stamps_after(after);
    kernel_dag *dag = user_program_start(&x, source, &params, &m, 1) < 0 ? NULL : exec_process_finish(&x, &reports);
    exec_test_stamps_after(0);
    free(reports);
    return dag;
}

/* Thread 1 of each of 2 blocks writes 7 + bid to private[3] in the first
 * step; thread 0 reads it in the second and stores it to g[bid]. */
static void write_written(const char *dir)
{
    write_file(dir, "written.c",
               "#include \"mcm_kernel.h\"\ntypedef struct { gmem g; } args;\n"
               "MCM_STEP(first, args, a) { if (t->tid == 1) exec_pwrite(t, 3, (word)(7 + t->bid)); }\n"
               "MCM_STEP(second, args, a) { if (t->tid == 0) exec_gwrite(t, a->g, t->bid, exec_pread(t, 3)); }\n"
               "MCM_KERNEL(k, args, first, second);\n"
               "static gmem g;\n"
               "static int setup(exec_run *run, const mcm_params *p) { (void)p; g = mcm_alloc(run, \"g\", 2); return 0; }\n"
               "static int launches(exec_run *run) { args a = {g}; return mcm_launch(run, &k, 2, 32, 4, &a); }\n"
               "static int check(exec_run *run) {\n"
               "    (void)run;\n"
               "    for (long i = 0; i < 2; i++) if (mcm_get(g, i) != 7 + (word)i) return mcm_fail(\"g[%ld] = %llu\", i, (unsigned long long)mcm_get(g, i));\n"
               "    return 0;\n"
               "}\n"
               "MCM_PROGRAM(\"written\", setup, launches, check);\n");
}

/* A worker stamps its steps 1, 2, ...; when the stamp wraps, the private
 * words its block wrote take stamp 1, the block's first step is step 1,
 * every other word takes 0, and the step goes on as step 2 (e3's rule:
 * a word was written in its block iff its stamp is one of the block's
 * steps).  Started after 2^32 − 1 − j, the worker's (j+1)-th step wraps;
 * each program here runs its blocks' two steps in turn on one worker, so
 * for j = 0 .. 3 the wrap lands on block 0's first step, its second,
 * block 1's first, its second (j = 4: after them; unwritten has one block,
 * its wrap at j = 0 or 1).  Whatever the step it lands on: a read of a
 * word no thread of the block wrote (unwritten; earlier_block, whose word
 * block 0 wrote) is refused with the message it has without a wrap, and
 * a word the block wrote in its first step is read in its second
 * (written: g[bid] = 7 + bid). */
Test(user_program, across_the_stamps_wrap_a_word_the_block_wrote_is_read_and_one_it_did_not_is_refused_as_before)
{
    const char *dir = workdir();
    write_unwritten(dir);
    write_earlier_block(dir);
    write_written(dir);
    const char *refused[2] = {"unwritten", "earlier_block"};
    for (int i = 0; i < 2; i++) {
        cr_assert_null(run_after_stamp(dir, refused[i], 0), "%s runs", refused[i]);
        char before[1024];
        snprintf(before, sizeof before, "%s", fail_message());
        cr_expect(strstr(before, "reads private[3], which no thread of the block wrote") != NULL, "%s: %s", refused[i],
                  before);
        for (uint32_t j = 0; j <= 4; j++) {
            kernel_dag *dag = run_after_stamp(dir, refused[i], UINT32_MAX - j);
            cr_expect_null(dag, "%s, wrapping at step %u: runs", refused[i], j + 1);
            kernel_dag_free(dag);
            cr_expect_str_eq(fail_message(), before, "%s, wrapping at step %u", refused[i], j + 1);
        }
    }
    for (uint32_t j = 0; j <= 4; j++) {
        kernel_dag *dag = run_after_stamp(dir, "written", UINT32_MAX - j);
        cr_expect_not_null(dag, "written, wrapping at step %u: %s", j + 1, fail_message());
        kernel_dag_free(dag);
    }
}

/* ---- a step that calls another (exec_block.h, EXEC_WARP_RUN) ------------ */

/* In the plain build a step runs its warp's later threads itself
 * (t->last); a step its body calls finds t->last −1 and runs t's thread
 * alone, and the caller's loop goes on to the next thread.  2 blocks of
 * 40 threads: a warp of 32 and a partial one of 8.  Every cell starts at
 * 1000 (no thread id); each thread stores its id through the called step
 * into g[40·bid + tid] and, after the call, into h[40·bid + tid], so each
 * cell i of both holds i mod 40: a thread run twice writes a cell twice
 * in one step (refused), one skipped leaves 1000, one beyond the block's
 * 40 writes beyond the 80 cells (refused). */
Test(user_program, a_step_that_calls_another_runs_each_thread_of_a_partial_warp_once, .timeout = 300)
{
    const char *dir = workdir();
    write_file(dir, "calls.c",
               "#include \"mcm_kernel.h\"\ntypedef struct { gmem g, h; } args;\n"
               "MCM_STEP(store, args, a) { exec_gwrite(t, a->g, t->bid * t->threads + t->tid, (word)t->tid); }\n"
               "MCM_STEP(caller, args, a) {\n"
               "    store(t, a);\n"
               "    exec_gwrite(t, a->h, t->bid * t->threads + t->tid, (word)t->tid);\n"
               "}\n"
               "MCM_KERNEL(k, args, caller);\n"
               "static gmem g, h;\n"
               "static int setup(exec_run *run, const mcm_params *p) {\n"
               "    (void)p; g = mcm_alloc(run, \"g\", 80); h = mcm_alloc(run, \"h\", 80);\n"
               "    for (long i = 0; i < 80; i++) { mcm_set(g, i, 1000); mcm_set(h, i, 1000); }\n"
               "    return 0;\n"
               "}\n"
               "static int launches(exec_run *run) { args a = {g, h}; return mcm_launch(run, &k, 2, 40, 0, &a); }\n"
               "static int check(exec_run *run) {\n"
               "    (void)run;\n"
               "    for (long i = 0; i < 80; i++)\n"
               "        if (mcm_get(g, i) != (word)(i % 40) || mcm_get(h, i) != (word)(i % 40))\n"
               "            return mcm_fail(\"cell %ld: g %llu, h %llu\", i, (unsigned long long)mcm_get(g, i), (unsigned long long)mcm_get(h, i));\n"
               "    return 0;\n"
               "}\n"
               "MCM_PROGRAM(\"calls\", setup, launches, check);\n");
    write_run_file(dir, "calls", "");
    char out[8192];
    cr_expect_eq(run_user(dir, "calls", MCMSIM_OUT_AND_ERR, out, sizeof out), 0, "%s", out);
}

/* The table of a step's cells (exec_block.h, step_use_of) keeps a cell
 * in one of two windows of 1024 consecutive cells, placed from 128 cells
 * below the step's first cell that no window holds, or else in a hash.
 * Thread 0 reads g[1000] (window 0: g[872 .. 1895]); threads 1 to 4 read
 * g[871] (below it: window 1, g[743 .. 1766]), g[300] and g[1896] (beyond
 * both: the hash) and g[1895] (window 0's last cell); then thread 5
 * writes g[`cell`]: the read is found wherever it was kept.  With
 * `in_place` thread 0 writes g[1000] too, so that the later reads are
 * looked up as they come (read_use_table); else they wait as pending
 * reads, entered at thread 5's write (exec_enter_pending). */
static void write_window_kernel(const char *dir, const char *name, long cell, int in_place)
{
    char text[4096];
    snprintf(text, sizeof text,
             "#include \"mcm_kernel.h\"\ntypedef struct { gmem g; } args;\n"
             "static const long read_at[5] = {1000, 871, 300, 1896, 1895};\n"
             "MCM_STEP(first, args, a) {\n"
             "    if (t->tid == 0) { word x = exec_gread(t, a->g, 1000); if (%d) exec_gwrite(t, a->g, 1000, x); }\n"
             "    else if (t->tid < 5) (void)exec_gread(t, a->g, read_at[t->tid]);\n"
             "    else if (t->tid == 5) exec_gwrite(t, a->g, %ld, 1);\n}\n"
             "MCM_KERNEL(k, args, first);\n"
             "static gmem g;\n"
             "static int setup(exec_run *run, const mcm_params *p) { (void)p; g = mcm_alloc(run, \"g\", 4096); return 0; }\n"
             "static int launches(exec_run *run) { args a = {g}; return mcm_launch(run, &k, 1, 32, 0, &a); }\n"
             "static int check(exec_run *run) { (void)run; return 0; }\n"
             "MCM_PROGRAM(\"window\", setup, launches, check);\n",
             in_place, cell);
    char file[128];
    snprintf(file, sizeof file, "%s.c", name);
    write_file(dir, file, text);
    write_run_file(dir, name, "");
}

Test(user_program, a_race_on_a_cell_at_a_windows_edge_or_beyond_the_windows_is_found)
{
    const char *dir = workdir();
    const long cells[4] = {871, 300, 1896, 1895};
    for (int in_place = 0; in_place < 2; in_place++) {
        for (int k = 0; k < 4; k++) {
            char name[64], message[128];
            snprintf(name, sizeof name, "window_%d_%ld", in_place, cells[k]);
            snprintf(message, sizeof message, "thread 5 writes g[%ld], which thread %d reads in the same step",
                     cells[k], k + 1);
            write_window_kernel(dir, name, cells[k], in_place);
            expect_refused(dir, name, (const char *[]){message, NULL});
        }
        /* and no race where thread 5 writes a cell no thread read, beside them */
        char name[64], out[8192];
        snprintf(name, sizeof name, "window_%d_clean", in_place);
        write_window_kernel(dir, name, 1766, in_place);
        cr_expect_eq(run_user(dir, name, MCMSIM_OUT_AND_ERR, out, sizeof out), 0, "%s", out);
    }
}

Test(user_program, a_cell_two_blocks_touch_in_one_launch_names_both)
{
    const char *dir = workdir();
    write_kernel(dir, "blocks", 2, "if (t->tid == 0) exec_gwrite(t, a->g, t->bid, exec_gread(t, a->g, 1 - t->bid));");
    expect_refused(dir, "blocks", (const char *[]){"block 1 (thread 0) reads g[0], which block 0 (thread 0) writes in the same launch",
                                                   "race-free blocks", NULL});
    write_kernel(dir, "reader", 2,
                 "if (t->tid == 0) { if (t->bid == 0) (void)exec_gread(t, a->g, 5); else exec_gwrite(t, a->g, 5, 1); }");
    expect_refused(dir, "reader", (const char *[]){"block 1 (thread 0) writes g[5], which block 0 (thread 0) reads",
                                                   NULL});
    write_kernel(dir, "writers", 2, "if (t->tid == 0) exec_gwrite(t, a->g, 7, 1);");
    expect_refused(dir, "writers", (const char *[]){"blocks 0 (thread 0) and 1 (thread 0) both write g[7]", NULL});
}

/* Two steps of a schedule with the same number (t->step 0 both) are two
 * steps: a cell thread 0 reads in the first and thread 1 writes in the
 * second is no race, and a read in the second sees the first's write. */
Test(user_program, steps_of_a_schedule_that_share_a_number_are_two_steps)
{
    const char *dir = workdir();
    write_file(dir, "renumbered.c",
               "#include \"mcm_kernel.h\"\n"
               "typedef struct { gmem g; } args;\n"
               "MCM_STEP(first, args, a) {\n"
               "    if (t->tid == 0) (void)exec_gread(t, a->g, 0);\n"
               "    if (t->tid == 1) exec_gwrite(t, a->g, 1, 5);\n"
               "}\n"
               "MCM_STEP(second, args, a) {\n"
               "    if (t->tid == 0) exec_gwrite(t, a->g, 2, exec_gread(t, a->g, 1) + 1);\n"
               "    if (t->tid == 1) exec_gwrite(t, a->g, 0, 7);\n"
               "}\n"
               "MCM_KERNEL_SCHEDULE(k, args, a, s) { mcm_step(s, first, 0); mcm_step(s, second, 0); }\n"
               "static gmem g;\n"
               "static int setup(exec_run *r, const mcm_params *p) { (void)p; g = mcm_alloc(r, \"g\", 3); return 0; }\n"
               "static int launch(exec_run *r) { args a = {g}; return mcm_launch(r, &k, 1, 2, 0, &a); }\n"
               "static int check(exec_run *r) {\n"
               "    (void)r;\n"
               "    return mcm_get(g, 0) == 7 && mcm_get(g, 2) == 6 ? 0 : mcm_fail(\"g[0] = %llu, g[2] = %llu\",\n"
               "        (unsigned long long)mcm_get(g, 0), (unsigned long long)mcm_get(g, 2));\n"
               "}\n"
               "MCM_PROGRAM(\"renumbered\", setup, launch, check);\n");
    write_run_file(dir, "renumbered", "");
    char out[8192];
    cr_expect_eq(run_user(dir, "renumbered", MCMSIM_OUT_AND_ERR, out, sizeof out), 0, "%s", out);
}

Test(user_program, a_word_is_32_bits_as_on_the_card)
{
    const char *dir = workdir();
    write_kernel(dir, "wide", 1, "exec_gwrite(t, a->g, t->tid, (word)1 << 32);");
    expect_refused(dir, "wide", (const char *[]){"writes 4294967296 to g[0]", "32 bits", NULL});
    write_kernel(dir, "narrow", 1, "exec_gwrite(t, a->g, t->tid, ((word)1 << 32) - 1);");
    char out[8192];
    cr_expect_eq(run_user(dir, "narrow", MCMSIM_OUT_AND_ERR, out, sizeof out), 0, "%s", out);
}

Test(user_program, a_host_write_of_a_word_over_32_bits_is_refused)
{
    const char *dir = workdir();
    write_file(dir, "wide_host.c",
               "#include \"mcm_kernel.h\"\n"
               "typedef struct { gmem g; } args;\n"
               "MCM_STEP(one, args, a) { exec_gwrite(t, a->g, t->tid, exec_gread(t, a->g, t->tid)); }\n"
               "MCM_KERNEL(k, args, one);\n"
               "static gmem g;\n"
               "static int setup(exec_run *run, const mcm_params *p) {\n"
               "    g = mcm_alloc(run, \"g\", 32);\n"
               "    mcm_set(g, 4, ((word)1 << 32) - (word)mcm_param(p, \"below\", 0));\n"
               "    return 0;\n"
               "}\n"
               "static int launches(exec_run *run) { args a = {g}; return mcm_launch(run, &k, 1, 32, 0, &a); }\n"
               "static int check(exec_run *run) {\n"
               "    (void)run;\n"
               "    return mcm_get(g, 4) == 4294967295u ? 0 : mcm_fail(\"g[4] = %llu\", (unsigned long long)mcm_get(g, 4));\n"
               "}\n"
               "MCM_PROGRAM(\"wide_host\", setup, launches, check);\n");
    write_run_file(dir, "wide_host", "below = 1;");
    char out[8192];
    cr_expect_eq(run_user(dir, "wide_host", MCMSIM_OUT_AND_ERR, out, sizeof out), 0, "2^32 - 1 fits: %s", out);
    write_run_file(dir, "wide_host", "below = 0;");
    expect_refused(dir, "wide_host", (const char *[]){"mcm_set g[4] to 4294967296", "a word of memory is 32 bits",
                                                      NULL});
}

Test(user_program, host_access_outside_its_phase_is_refused)
{
    const char *dir = workdir();
    write_file(dir, "peek.c",
               "#include \"mcm_kernel.h\"\n"
               "typedef struct { gmem g; } args;\n"
               "MCM_STEP(one, args, a) { exec_gwrite(t, a->g, t->tid, 1); }\n"
               "MCM_KERNEL(k, args, one);\n"
               "static gmem g;\n"
               "static int setup(exec_run *run, const mcm_params *p) { (void)p; g = mcm_alloc(run, \"g\", 32); return 0; }\n"
               "static int launches(exec_run *run) {\n"
               "    args a = {g};\n"
               "    if (mcm_launch(run, &k, 1, 32, 0, &a) < 0) return -1;\n"
               "    return mcm_get(g, 0) == 1 ? 0 : -1;\n"
               "}\n"
               "static int check(exec_run *run) { (void)run; return 0; }\n"
               "MCM_PROGRAM(\"peek\", setup, launches, check);\n");
    write_run_file(dir, "peek", "");
    expect_refused(dir, "peek", (const char *[]){"mcm_get g[0] in launches", "captured graph", NULL});
}

Test(user_program, a_failed_check_is_the_programs_own_message)
{
    const char *dir = workdir();
    write_checked_kernel(dir, "wrong", 1, "exec_gwrite(t, a->g, t->tid, 5);",
                         "return mcm_get(g, 0) == 5 ? mcm_fail(\"g[0] is %d\", 5) : 0");
    expect_refused(dir, "wrong", (const char *[]){"wrong.c, in its check: g[0] is 5", NULL});
}

/* ---- the race rules in exec mode itself ----------------------------------- */

typedef struct own_args { gmem g; } own_args;

static void write_then_read(exec_thread *t, void *args)
{
    own_args *a = args;
    exec_gwrite(t, a->g, t->tid, 7);
    exec_gwrite(t, a->g, 32 + t->tid, exec_gread(t, a->g, t->tid)); /* its own write: 7 */
}

Test(user_program, a_thread_reads_its_own_write_of_the_step_as_on_the_card)
{
    machine m = test_machine(4, 8);
    for (int race_free = 0; race_free < 2; race_free++) {
        exec_run *run = exec_begin("own", &m);
        exec_set_race_free(run, race_free);
        gmem g = exec_alloc(run, "g", 64);
        own_args a = {g};
        static const exec_step steps[] = {write_then_read};
        exec_kernel k = {"own", 1, steps, 0};
        cr_assert_eq(exec_launch(run, &k, 1, 32, &a), 0, "%s", fail_message());
        /* synchronous steps (the built-ins): the read saw memory before the step */
        cr_expect_eq(g->cells[40], race_free ? 7u : 0u, "race_free = %d: read %llu", race_free,
                     (unsigned long long)g->cells[40]);
        exec_end(run);
    }
}

/* ---- containment: the child computes and reports, nothing else ---------- */

/* A run file in dir for the fixture tests/user/escape.c with param try. */
static void write_escape(const char *dir, const char *name, int try)
{
    char text[1024], file[128];
    snprintf(text, sizeof text,
             "machine = \"mcm\";\nprogram = { source = \"%s/tests/user/escape.c\"; params = { try = %d; }; };\n",
             MCMSIM_DATADIR, try);
    snprintf(file, sizeof file, "%s.cfg", name);
    write_file(dir, file, text);
}

Test(user_program, a_program_that_only_computes_runs_inside_the_filter)
{
    const char *dir = workdir();
    write_escape(dir, "none", 0);
    char out[8192];
    cr_expect_eq(run_user(dir, "none", MCMSIM_OUT_AND_ERR, out, sizeof out), 0, "%s", out);
    cr_expect(strstr(out, "N = 2 blocks") != NULL, "%s", out);
}

Test(user_program, a_kernel_that_opens_forks_runs_or_connects_is_stopped_naming_the_call)
{
    const char *dir = workdir();
    char escaped[512];
    snprintf(escaped, sizeof escaped, "%s/escaped", dir);
    setenv("MCMSIM_TEST_ESCAPE", escaped, 1);
    const struct {
        int try;
        const char *call, *name;
    } cases[] = {
        {1, "tried to open a file (openat) during its launches, in kernel 'k'", "read"},
        {2, "tried to open a file (openat) during its launches, in kernel 'k'", "create"},
        {3, "tried to start a process (clone) during its launches, in kernel 'k'", "fork"},
        {4, "tried to run a program (execve) during its launches, in kernel 'k'", "exec"},
        {5, "tried to use the network (socket) during its launches, in kernel 'k'", "connect"},
        {6, "tried to open a file (openat) during its setup", "setup"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        write_escape(dir, cases[i].name, cases[i].try);
        expect_refused(dir, cases[i].name,
                       (const char *[]){"escape.c: the program ", cases[i].call, "which exec mode does not allow",
                                        "nothing was simulated", NULL});
    }
    cr_expect_neq(access(escaped, F_OK), 0, "the file the kernel tried to create exists: %s", escaped);
    unsetenv("MCMSIM_TEST_ESCAPE");
}

/* Loading the object runs its constructors: they are inside the filter
 * too, which then lets the loader read files but not write one. */
Test(user_program, a_constructor_run_while_loading_is_stopped_too)
{
    const char *dir = workdir();
    char escaped[512];
    snprintf(escaped, sizeof escaped, "%s/escaped-at-load", dir);
    setenv("MCMSIM_TEST_ESCAPE_AT_LOAD", escaped, 1);
    write_escape(dir, "load", 0);
    expect_refused(dir, "load", (const char *[]){"tried to open a file (openat) during its loading", NULL});
    cr_expect_neq(access(escaped, F_OK), 0, "the constructor created %s", escaped);
    unsetenv("MCMSIM_TEST_ESCAPE_AT_LOAD");
}

Test(user_program, a_folder_given_as_the_source_is_named_a_folder)
{
    const char *dir = workdir();
    char sub[512];
    snprintf(sub, sizeof sub, "%s/kernel.c", dir);
    cr_assert_eq(mkdir(sub, 0755), 0);
    write_run_file(dir, "kernel", "");
    expect_refused(dir, "kernel", (const char *[]){"kernel.cfg:2: source \"kernel.c\" is a folder, not a C file", NULL});
}

/* ---- the cache of compiled programs ---------------------------------- */

/* The number of files in folder dir. */
static int files_in(const char *dir)
{
    char cmd[600], out[64];
    snprintf(cmd, sizeof cmd, "ls %s | wc -l", dir);
    FILE *p = popen(cmd, "r");
    cr_assert_not_null(p);
    cr_assert_not_null(fgets(out, sizeof out, p));
    pclose(p);
    return atoi(out);
}

Test(user_program, a_counted_build_is_cached_per_mcmsim_that_weighed_it)
{
    /* The code's costs weigh a counted build inside mcmsim (stream_annotate):
     * an mcmsim built from other sources must not take its objects.  The
     * same mcmsim twice compiles once; a copy one byte longer (another
     * program to the cache) compiles the counted build anew and takes the
     * plain build from the cache: one file more. */
    const char *dir = workdir();
    const char *bin = getenv("MCMSIM");
    cr_assert_not_null(bin);
    char cache[300], cmd[1600], horner[512];
    snprintf(cache, sizeof cache, "%s/cache", dir);
    example_path("horner", horner, sizeof horner);
    snprintf(cmd, sizeof cmd, "cp %s %s/horner.c && cp %s %s/mcmsim-other && printf x >> %s/mcmsim-other", horner,
             dir, bin, dir, dir);
    cr_assert_eq(system(cmd), 0, "%s", cmd);
    write_file(dir, "horner.cfg",
               "machine = \"h100-code\";\nprogram = { source = \"horner.c\"; params = { n = 16384; d = 32; }; };\n");
    const char *runs[] = {bin, bin, NULL};
    for (int i = 0; runs[i]; i++) {
        snprintf(cmd, sizeof cmd, "%s run %s/horner.cfg --exec --format csv >/dev/null", runs[i], dir);
        cr_assert_eq(system(cmd), 0, "%s", cmd);
    }
    int once = files_in(cache);
    cr_assert_gt(once, 0);
    snprintf(cmd, sizeof cmd, "%s/mcmsim-other run %s/horner.cfg --exec --format csv >/dev/null", dir, dir);
    cr_assert_eq(system(cmd), 0, "%s", cmd);
    cr_expect_eq(files_in(cache), once + 1, "%d files after the same mcmsim twice, %d after the other", once,
                 files_in(cache));
}

/* The lines of file path (0 if there is none). */
static int lines_in(const char *path)
{
    FILE *f = fopen(path, "r");
    int n = 0;
    for (int c; f && (c = fgetc(f)) != EOF;)
        n += c == '\n';
    if (f)
        fclose(f);
    return n;
}

/* Within one process a file's later points take its first build with no
 * compiler run (not even the preprocessing that keys the cache); an edit
 * to the file runs the compiler again. */
Test(user_program, a_file_compiles_once_per_process_until_it_is_edited)
{
    const char *dir = workdir();
    char horner[512], cmd[4000], log[400], cc[400], source[400], so[1100], again[1100];
    example_path("horner", horner, sizeof horner);
    snprintf(log, sizeof log, "%s/cc.log", dir);
    snprintf(cc, sizeof cc, "%s/cc", dir);
    snprintf(source, sizeof source, "%s/horner.c", dir);
    snprintf(cmd, sizeof cmd, "cp %s %s && printf '#!/bin/sh\necho \"$*\" >> %s\nexec cc \"$@\"\n' > %s && chmod +x %s",
             horner, source, log, cc, cc);
    cr_assert_eq(system(cmd), 0, "%s", cmd);
    setenv("MCMSIM_CC", cc, 1);
    cr_assert_eq(user_program_compile(source, so, sizeof so), 0, "%s", fail_message());
    int first = lines_in(log);
    cr_assert_gt(first, 0, "the compiler never ran");
    cr_assert_eq(user_program_compile(source, again, sizeof again), 0, "%s", fail_message());
    cr_expect_str_eq(again, so);
    cr_expect_eq(lines_in(log), first, "the second point ran the compiler: %d runs, then %d", first, lines_in(log));
    snprintf(cmd, sizeof cmd, "echo '/* edited */' >> %s", source);
    cr_assert_eq(system(cmd), 0, "%s", cmd);
    cr_assert_eq(user_program_compile(source, again, sizeof again), 0, "%s", fail_message());
    cr_expect_gt(lines_in(log), first, "the edited file did not run the compiler");
    unsetenv("MCMSIM_CC");
}

/* tests/user/spread.c (constants.cu's spread_kernel, the resident-spread
 * rows' fixture) runs two blocks an SM on h100-code and sums what the
 * serial reference sums. */
Test(user_program, the_resident_spread_fixture_sums_what_the_serial_reference_does)
{
    char out[8192];
    int status = mcmsim_output(MCMSIM_OUT_AND_ERR, out, sizeof out, "run %s/tests/user/spread.cfg --exec --set blocks=264",
                               MCMSIM_DATADIR);
    cr_expect_eq(status, 0, "%s", out);
    cr_expect(strstr(out, "spread") != NULL, "%s", out);
}

/* Without its levels (levels = 0, the rows `_case_passes16_nolevels`) the
 * fixture runs its passes alone, and thread 0's sum is the serial one. */
Test(user_program, the_resident_spread_fixture_without_levels_sums_thread_0s_words)
{
    char out[8192];
    int status = mcmsim_output(MCMSIM_OUT_AND_ERR, out, sizeof out,
                               "run %s/tests/user/spread.cfg --exec --set blocks=264 --set passes=16 --set levels=0",
                               MCMSIM_DATADIR);
    cr_expect_eq(status, 0, "%s", out);
    cr_expect(strstr(out, "spread_flat") != NULL, "%s", out);
}
