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

/* test_machine(p, u) with the caches of exec mode (sim/exec/cache.h): sectors
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


/* Theorem 1 holds for `dag` on m at P = 1, 7, 16, 100 and 1000, and each
 * run reports that bound, (N/P + L)·C, as its Theorem 1 figure. */
static inline void expect_theorem_1_on_any_p(const kernel_dag *dag, machine m)
{
    const int ps[] = {1, 7, 16, 100, 1000};
    for (size_t i = 0; i < sizeof ps / sizeof ps[0]; i++) {
        m.p = ps[i];
        sim_result r = simulate(dag, &m);
        double bound = (r.costs.N / m.p + r.costs.L_kernels) * r.costs.C;
        cr_expect(r.T <= bound, "P = %d: T = %g > Theorem 1 %g", m.p, r.T, bound);
        cr_expect_eq(r.bound_theorem1, bound);
        sim_result_free(&r);
    }
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

/* The built-in case study `program`'s kernels written once (its
 * programs/CASE/kernels.c), run in exec mode at `params` on m; the test
 * fails with the program's message unless its check passes. */
static inline exec_result run_case_exec(const char *program, vars params, const machine *m)
{
    char source[2048];
    cr_assert_eq(builtin_kernels_path(test_builtin(program), source, sizeof source), 0, "%s", fail_message());
    exec_result r;
    char at[512];
    cr_assert_eq(user_program_run(source, &params, m, &r), 0, "%s at %s, seed %llu: %s", program,
                 params_text(&params, at, sizeof at), (unsigned long long)m->seed, fail_message());
    return r;
}

/* The same, expected to fail: the message, or NULL if it passed. */
static inline const char *case_exec_refuses(const char *program, vars params, const machine *m)
{
    char source[2048];
    cr_assert_eq(builtin_kernels_path(test_builtin(program), source, sizeof source), 0, "%s", fail_message());
    exec_result r;
    if (user_program_run(source, &params, m, &r) == 0) {
        exec_result_free(&r);
        return NULL;
    }
    return fail_message();
}

/* A launch of a kernel written once is named after its kernel, a C name
 * ("add", "copy_add"); the model names each launch of a chain ("add[3]",
 * "copy-add[3]"): the same kernel, a '_' standing for a '-'. */
static inline int same_kernel_name(const char *launched, const char *modelled)
{
    size_t n = strlen(launched);
    for (size_t i = 0; i < n; i++)
        if (launched[i] != modelled[i] && !(launched[i] == '_' && modelled[i] == '-'))
            return 0;
    return modelled[n] == '\0' || modelled[n] == '[';
}

/* The launches of a kernel written once against the model's kernels: as
 * many, the same kernels (same_kernel_name), grids and threads, in order. */
static inline void expect_same_kernels(const kernel_dag *exec, const kernel_dag *model)
{
    cr_assert_eq(exec->n, model->n, "kernels: exec %d, model %d", exec->n, model->n);
    for (int i = 0; i < exec->n; i++) {
        cr_expect(same_kernel_name(exec->kernels[i].name, model->kernels[i].name), "%s, %s",
                  exec->kernels[i].name, model->kernels[i].name);
        cr_expect_eq(exec->kernels[i].blocks, model->kernels[i].blocks, "%s", model->kernels[i].name);
        cr_expect_eq(exec->kernels[i].threads, model->kernels[i].threads, "%s", model->kernels[i].name);
    }
}

/* ---- the UMM rule, counted independently of sim/exec/exec.c ------------------ */

/* The threads of block b (ℓ threads a block) whose index in the grid is in
 * [lo, hi). */
static inline long block_threads_in(long b, int l, long lo, long hi)
{
    long first = b * l > lo ? b * l : lo, end = (b + 1) * l < hi ? (b + 1) * l : hi;
    return end > first ? end - first : 0;
}

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

/* Where a kernel's rounds follow no pattern: each thread's global accesses
 * in one step, in order, listed by the test from the algorithm, as keys
 * (array, address group ⌊cell/w⌋); reads [0], writes [1]. */
#define TRACE_ACCESSES 512
typedef struct access_trace {
    int n[2];
    long key[2][TRACE_ACCESSES];
} access_trace;

static inline void trace_access(access_trace *tr, int write, int array, long cell, int w)
{
    cr_assert_lt(tr->n[write], TRACE_ACCESSES, "more accesses in one step than a trace holds");
    tr->key[write][tr->n[write]++] = (long)array << 40 | cell / w;
}

/* Transactions of the warps of a block of ℓ threads in one step, their
 * reads (write 0) or writes (1): round k of a warp touches the distinct
 * keys of its threads' k-th accesses. */
static inline long trace_transactions(const access_trace *threads, int l, int w, int write)
{
    long total = 0;
    for (int first = 0; first < l; first += w) {
        int last = first + w < l ? first + w : l;
        for (int k = 0;; k++) {
            long seen[1024];
            int distinct = 0, any = 0;
            for (int t = first; t < last; t++) {
                if (k >= threads[t].n[write])
                    continue;
                any = 1;
                int old = 0;
                for (int i = 0; i < distinct && !old; i++)
                    old = seen[i] == threads[t].key[write][k];
                if (!old)
                    seen[distinct++] = threads[t].key[write][k];
            }
            if (!any)
                break;
            total += distinct;
        }
    }
    return total;
}

/* What a block of a kernel run in exec mode is expected to measure, and
 * its kernel's α and β (the most words one thread reads, writes). */
typedef struct block_expected {
    double span, work, reads, writes, alpha, beta;
} block_expected;

/* What block b of model kernel k is expected to measure: a case's test
 * says, from the counts its kernels.c documents. */
typedef block_expected (*block_expectation)(const kernel *k, long b, const void *ctx);

/* An exec run of a case's kernels written once against its model's DAG,
 * kernel by kernel: the launch's name (launch_name: the kernel's name in
 * kernels.c for a model kernel's, e.g. "stride" for "fft-a:stride[3]"),
 * grid and threads; every block's S(B), W(B) and words, and each kernel's
 * α and β, as `expected` says; N, L and K equal. */
static inline void expect_measured_costs(const exec_result *run, const kernel_dag *model, const machine *m,
                                         const char *(*launch_name)(const char *modelled),
                                         block_expectation expected, const void *ctx)
{
    const kernel_dag *got = run->dag;
    cr_assert_eq(got->n, model->n, "%d kernels, the model %d", got->n, model->n);
    for (int i = 0; i < model->n; i++) {
        const kernel *g = &got->kernels[i], *d = &model->kernels[i];
        cr_expect(same_kernel_name(g->name, launch_name(d->name)), "launched %s for %s", g->name, d->name);
        cr_expect_eq(g->blocks, d->blocks, "%s: grid", d->name);
        cr_expect_eq(g->threads, d->threads, "%s: ℓ", d->name);
        for (long b = 0; b < g->blocks; b++) {
            block_expected e = expected(d, b, ctx);
            const block_cost *c = kernel_block_cost(g, b);
            cr_expect_eq(c->span, e.span, "%s block %ld: S(B) %g, expected %g", d->name, b, c->span, e.span);
            cr_expect_eq(c->work, e.work, "%s block %ld: W(B) %g, expected %g", d->name, b, c->work, e.work);
            cr_expect_eq(c->reads, e.reads, "%s block %ld: reads %g, expected %g", d->name, b, c->reads, e.reads);
            cr_expect_eq(c->writes, e.writes, "%s block %ld: writes %g, expected %g", d->name, b, c->writes,
                         e.writes);
            if (b == 0) {
                cr_expect_eq(run->reports[i].alpha, e.alpha, "%s: α %g, expected %g", d->name, run->reports[i].alpha,
                             e.alpha);
                cr_expect_eq(run->reports[i].beta, e.beta, "%s: β %g, expected %g", d->name, run->reports[i].beta,
                             e.beta);
            }
        }
    }
    dag_costs cg = checked_costs(got, m), cm = checked_costs(model, m);
    cr_expect_eq(cg.N, cm.N, "N");
    cr_expect_eq(cg.L_kernels, cm.L_kernels, "L");
    cr_expect_eq(cg.K, cm.K, "K");
}

/* A copy of the chain `model` whose every block costs what `expected`
 * says: simulated, the time the documented costs give. */
static inline kernel_dag *dag_at_documented_costs(const kernel_dag *model, block_expectation expected, const void *ctx)
{
    kernel_dag *dag = kernel_dag_new(model->name);
    for (int k = 0; k < model->n; k++) {
        kernel copy = model->kernels[k];
        copy.runs = NULL; /* the costs below, as runs the DAG takes over */
        copy.n_runs = 0;
        for (long b = 0; b < copy.blocks; b++) {
            block_expected e = expected(&model->kernels[k], b, ctx);
            block_cost c = {.span = e.span, .work = e.work, .reads = e.reads, .writes = e.writes};
            kernel_append_costs(&copy, b, &c);
        }
        copy.cost = copy.runs[0].cost;
        cr_assert_geq(kernel_dag_chain(dag, &copy), 0, "%s", fail_message());
    }
    return dag;
}

/* The exec run simulated on m: within Theorem 1, at exactly the time of
 * its model's DAG with the documented costs (dag_at_documented_costs), and
 * slower than the model's (`why`: the documented costs that make it so);
 * the same N and L. */
static inline void expect_documented_time(const exec_result *run, const kernel_dag *model, const machine *m,
                                          block_expectation expected, const void *ctx, const char *why)
{
    kernel_dag *documented = dag_at_documented_costs(model, expected, ctx);
    sim_result got = simulate(run->dag, m), doc = simulate(documented, m), mod = simulate(model, m);
    cr_expect_leq(got.T, got.bound_theorem1, "%s: T %g > Theorem 1 %g", m->name, got.T, got.bound_theorem1);
    cr_expect_eq(got.T, doc.T, "%s: T %g, the documented costs give %g", m->name, got.T, doc.T);
    cr_expect_gt(got.T, mod.T, "%s: %s: exec T %g, model T %g", m->name, why, got.T, mod.T);
    cr_expect_eq(got.costs.N, mod.costs.N);
    cr_expect_eq(got.costs.L_kernels, mod.costs.L_kernels);
    sim_result_free(&got);
    sim_result_free(&doc);
    sim_result_free(&mod);
    kernel_dag_free(documented);
}

/* The same for any pattern: `cell` gives the cell thread g of the grid
 * touches in the round, or -1 where it makes no access then; words per
 * thread that block b moves in that round. */
typedef long (*round_cell)(long g, const void *ctx);
static inline double round_cell_words(round_cell cell, const void *ctx, long b, int l, int w)
{
    long groups = 0;
    for (long first = b * l; first < (b + 1) * l; first += w) {
        long seen[1024];
        int n_seen = 0;
        for (long g = first; g < first + w && g < (b + 1) * l; g++) {
            long c = cell(g, ctx), known = 0;
            for (int i = 0; i < n_seen && c >= 0 && !known; i++)
                known = seen[i] == c / w;
            if (c >= 0 && !known && n_seen < 1024)
                seen[n_seen++] = c / w;
        }
        groups += n_seen;
    }
    return (double)groups * (w < l ? w : l) / l;
}

#endif
