/*
 * helpers.h — small shared pieces of the Criterion tests: a kernel in one
 * line, a DAG simulated in one call, a config file written to /tmp, and for
 * the case studies a machine preset, a built-in program's DAG, closed forms
 * and simulated time at a point of params, P = K, and the mcmsim command's
 * output.  Each helper fails the test, quoting mcmsim's message, where the
 * step it wraps returns an error.
 */
#ifndef MCM_TEST_HELPERS_H
#define MCM_TEST_HELPERS_H

#include "engine.h"
#include "exec_programs.h"
#include "fail.h"
#include "program.h"

#include <criterion/criterion.h>
#include <stdarg.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A kernel of `blocks` blocks of `threads` threads, span `span`, moving
 * `reads`/`writes` coalesced words per thread. */
static inline kernel test_kernel(const char *name, long blocks, int threads, double span,
                                 double reads, double writes)
{
    kernel k = {.name = (char *)name, .blocks = blocks, .threads = threads,
                .cost = {.span = span, .work = -1, .reads = reads, .writes = writes},
                .private_words = -1};
    return k;
}

static inline machine test_machine(int p, double u)
{
    machine m;
    machine_defaults(&m);
    m.p = p;
    m.u = u;
    return m;
}

/* test_machine(p, u) with the caches of exec mode (sim/cache.h): sectors
 * of 8 words in lines of 32, an L1 of l1_words an SM, an L2 of l2_words;
 * DRAM at 4·u a word, L1 hits at u/4. */
static inline machine test_cache_machine(int p, double u, double l1_words, double l2_words)
{
    machine m = test_machine(p, u);
    m.sector_words = 8;
    m.line_words = 32;
    m.l1_words = l1_words;
    m.l2_words = l2_words;
    m.u_dram = 4 * u;
    m.u_l1 = u / 4;
    return m;
}

/* Simulate, failing the test with the engine's message on error. */
static inline sim_result simulate(const kernel_dag *dag, const machine *m)
{
    sim_result r;
    int rc = sim_run(dag, m, NULL, &r);
    cr_assert_eq(rc, 0, "sim_run failed: %s", fail_message());
    return r;
}

/* Write `text` to a new file under /tmp; returns its path (static buffer
 * per call site is not needed: the caller frees). */
static inline char *temp_file(const char *text, const char *suffix)
{
    char *path = malloc(64);
    snprintf(path, 64, "/tmp/mcmsim-test-XXXXXX%s", suffix);
    int fd = mkstemps(path, (int)strlen(suffix));
    cr_assert(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs(text, f);
    fclose(f);
    return path;
}

/* The whole of file `path`, NUL-terminated; its length in *len (may be
 * NULL).  The caller frees. */
static inline char *read_file(const char *path, long *len)
{
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "cannot read %s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    char *text = malloc((size_t)n + 1);
    cr_assert_eq(fread(text, 1, (size_t)n, f), (size_t)n, "cannot read %s", path);
    text[n] = '\0';
    fclose(f);
    if (len)
        *len = n;
    return text;
}

/* Simulate with --trace; the trace, whole, in *trace (the caller frees)
 * and its length in *len (may be NULL). */
static inline sim_result simulate_traced(const kernel_dag *dag, const machine *m, char **trace, long *len)
{
    char path[] = "/tmp/mcmsim-trace-XXXXXX";
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    close(fd);
    sim_result r;
    int rc = sim_run(dag, m, path, &r);
    cr_assert_eq(rc, 0, "sim_run failed: %s", fail_message());
    *trace = read_file(path, len);
    unlink(path);
    return r;
}

/* The kernels of a run file's `kernels = ( ... );` in `text`, with the
 * param s, built against the default machine; NULL (and fail_message())
 * where config_program_build refuses them. */
static inline kernel_dag *test_run_file_kernels(const char *text, double s)
{
    config_t cfg;
    config_init(&cfg);
    cr_assert(config_read_string(&cfg, text), "%s", config_error_text(&cfg));
    machine m;
    machine_defaults(&m);
    vars params;
    vars_clear(&params);
    vars_set(&params, "s", s);
    kernel_dag *dag = config_program_build("run file", config_lookup(&cfg, "kernels"), &params, &m);
    config_destroy(&cfg);
    return dag;
}

/* ---- the case studies: presets, built-in programs, the mcmsim command ---- */

/* The machine preset `name` (e.g. "mcm", "gtx670"), as a run file's
 * `machine = "name"` loads it. */
static inline machine test_preset(const char *name)
{
    char path[1024];
    machine m;
    machine_defaults(&m);
    machine_preset_path(name, path, sizeof path);
    cr_assert_eq(machine_load_file(&m, path), 0, "preset %s: %s", name, fail_message());
    return m;
}

/* Params from a list of names and as many values:
 * test_params("n m s l", n, m, s, l).  A macro, so that every value is
 * converted to double exactly as an assignment would (1 << 20 included). */
#define test_params(names, ...)                                                                    \
    test_params_of((names), (const double[]){__VA_ARGS__},                                         \
                   sizeof((const double[]){__VA_ARGS__}) / sizeof(double))

/* test_params() proper: `count` values for the names in `names`. */
static inline vars test_params_of(const char *names, const double *values, size_t count)
{
    vars v = {0};
    vars_clear(&v);
    size_t given = 0;
    for (const char *at = names + strspn(names, " "); *at; at += strspn(at, " ")) {
        size_t len = strcspn(at, " ");
        char name[VAR_NAME_MAX];
        cr_assert_lt(len, sizeof name, "test_params(\"%s\"): a name too long", names);
        cr_assert_lt(given, count, "test_params(\"%s\"): more names than values", names);
        memcpy(name, at, len);
        name[len] = '\0';
        cr_assert_eq(vars_set(&v, name, values[given++]), 0, "%s", fail_message());
        at += len;
    }
    cr_assert_eq(given, count, "test_params(\"%s\"): %zu names, %zu values", names, given, count);
    return v;
}

/* "n = 1024, l = 256": the params, for a message, in `out`. */
static inline const char *params_text(const vars *params, char *out, size_t size)
{
    size_t used = 0;
    out[0] = '\0';
    for (int i = 0; i < params->n && used < size; i++)
        used += (size_t)snprintf(out + used, size - used, "%s%s = %g", i ? ", " : "", params->name[i],
                                 params->value[i]);
    return out;
}

/* The built-in program `name`; it must be registered. */
static inline const builtin_program *test_builtin(const char *name)
{
    const builtin_program *b = builtin_find(name);
    cr_assert_not_null(b, "no built-in program '%s'", name);
    return b;
}

/* The built-in program's kernel DAG at `params` on `m`; the program must
 * accept the point.  (Params by value, so that a call can make them in
 * place: build_builtin("sum", test_params("n l", n, l), &m).) */
static inline kernel_dag *build_builtin(const char *program, vars params, const machine *m)
{
    kernel_dag *dag = test_builtin(program)->build(&params, m);
    char at[512];
    cr_assert_not_null(dag, "%s at %s: %s", program, params_text(&params, at, sizeof at), fail_message());
    return dag;
}

/* The built-in program's closed forms at `params` on `m`; it must have
 * them and accept the point. */
static inline closed_form builtin_closed_form(const char *program, vars params, const machine *m)
{
    const builtin_program *b = test_builtin(program);
    cr_assert_not_null(b->closed_form, "%s has no closed form", program);
    closed_form cf;
    char at[512];
    cr_assert_eq(b->closed_form(&params, m, &cf), 0, "%s at %s: %s", program,
                 params_text(&params, at, sizeof at), fail_message());
    return cf;
}

/* The DAG's costs (SPEC §1) on `m`, after checking it there. */
static inline dag_costs checked_costs(const kernel_dag *dag, const machine *m)
{
    cr_assert_eq(kernel_dag_check(dag, m, NULL), 0, "%s", fail_message());
    dag_costs c;
    kernel_dag_costs(dag, m->u, &c);
    return c;
}

/* P = K: as many SMs as the DAG's widest anti-chain has blocks, the
 * papers' setting for Corollary 1. */
static inline void set_p_to_k(const kernel_dag *dag, machine *m)
{
    m->p = (int)checked_costs(dag, m).K;
}

/* Build and simulate the built-in program at `params` on `m`. */
static inline sim_result run_builtin(const char *program, vars params, const machine *m)
{
    kernel_dag *dag = build_builtin(program, params, m);
    sim_result r = simulate(dag, m);
    kernel_dag_free(dag);
    return r;
}

/* The same on P = K SMs, the rest of `m` as it is. */
static inline sim_result run_builtin_on_k(const char *program, vars params, const machine *m)
{
    machine on_k = *m;
    kernel_dag *dag = build_builtin(program, params, &on_k);
    set_p_to_k(dag, &on_k);
    sim_result r = simulate(dag, &on_k);
    kernel_dag_free(dag);
    return r;
}

/* The simulated running time T of the built-in program at `params` on `m`. */
static inline double builtin_time(const char *program, vars params, const machine *m)
{
    sim_result r = run_builtin(program, params, m);
    double T = r.T;
    sim_result_free(&r);
    return T;
}

/* What mcmsim_output() captures: stdout and stderr, or stderr alone (stdout
 * thrown away). */
#define MCMSIM_OUT_AND_ERR "2>&1"
#define MCMSIM_ERR_ONLY "2>&1 >/dev/null"

/* Run `$MCMSIM ARGS` (ARGS printf-style, shell words); what it writes to
 * `streams` in `out`; returns pclose()'s status (0: exit status 0). */
static inline MCM_PRINTF(4, 5) int mcmsim_output(const char *streams, char *out, size_t size, const char *fmt,
                                                 ...)
{
    const char *bin = getenv("MCMSIM");
    cr_assert_not_null(bin, "set MCMSIM to the mcmsim binary (make test does)");
    char args[2048], command[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    snprintf(command, sizeof command, "%s %s %s", bin, args, streams);
    FILE *pipe = popen(command, "r");
    cr_assert_not_null(pipe, "cannot run %s", command);
    size_t got = fread(out, 1, size - 1, pipe);
    out[got] = '\0';
    return pclose(pipe);
}

/* The exec mode of `program` (the test fails if it has none). */
static inline const exec_program *test_exec_program(const char *program)
{
    const exec_program *x = exec_program_find(program);
    cr_assert_not_null(x, "%s has no exec mode", program);
    return x;
}

/* Run the exec mode of `program` at `params` on m; the test fails with the
 * program's message unless the result equals its serial reference. */
static inline exec_run *run_exec_builtin(const char *program, vars params, const machine *m)
{
    const exec_program *x = test_exec_program(program);
    exec_run *run = exec_begin(program, m);
    cr_assert_eq(x->host(&params, m, run), 0, "%s at seed %llu: %s", program, (unsigned long long)m->seed,
                 fail_message());
    return run;
}

/* ---- the UMM rule, counted independently of sim/exec.c ------------------ */

/* One round of global accesses: threads [lo, hi) of the grid touch cell
 * stride·i + offset (cells >= 0). */
typedef struct round_pattern {
    long lo, hi, stride, offset;
} round_pattern;

/* Address groups touched by the warps of block b in round r. */
static inline long round_groups(round_pattern r, long b, int l, int w)
{
    long groups = 0, block_end = (b + 1) * l;
    for (long first = b * l; first < block_end; first += w) {
        long end = first + w < block_end ? first + w : block_end, last = LONG_MIN;
        for (long i = first > r.lo ? first : r.lo; i < end && i < r.hi; i++) {
            long group = (r.stride * i + r.offset) / w;
            groups += group != last;
            last = group;
        }
    }
    return groups;
}

/* Words per thread (model units) that block b moves in these rounds. */
static inline double block_words(const round_pattern *rounds, int n_rounds, long b, int l, int w)
{
    long groups = 0;
    for (int k = 0; k < n_rounds; k++)
        groups += round_groups(rounds[k], b, l, w);
    return (double)groups * (w < l ? w : l) / l;
}

#endif
