/*
 * code_costs.c — the code's costs (sim/exec/stream.h) against the card: the
 * instructions counted from a kernel's compiled code against Nsight
 * Compute's count of the card's, and the times of the cases written once
 * charged by them, beside the paper's costs (validate.h, "the code's
 * costs").
 *
 * Two sources of Nsight Compute counts, one format each:
 *  - validate/stream/profiles.csv, the first check: the counts of the
 *    profiles in validate/notes/profiles/ (taken before this module, not a
 *    session), per warp, beside the file written once whose kernel they
 *    count (a program of programs/user/, or a cuda_ref kernel written
 *    again line for line, validate/stream/);
 *  - a session's instructions.csv (cuda_ref/ncu-instructions.sh): per
 *    point of a case, the raw CSV Nsight Compute wrote, every launch of a
 *    written-once kernel with its grid, its block and its executed warp
 *    instructions (smsp__inst_executed.sum); the case's DAG is made as
 *    make validate makes it (main.c), and compared where it is counted.
 * A kernel is compared per warp over all its launches at the point (or
 * one launch: "name#k", the k-th from 0): within 15 % or not, and a miss
 * with its cause (count_misses.c).
 *
 * Which points a set of the code's costs runs: every user case's, and a
 * built-in case study's when its worksheet DAG's estimate of exec mode's
 * work is within the budget (code_costs_estimate, code_costs_budget), the
 * counts' check runs it anyway (code_costs_counted_anyway) or it is a
 * point of a conclusion's cell (the points one verdict takes) whose
 * points' estimates sum to at most CODE_COSTS_CELL_BUDGET
 * (conclusions_code_rows); the report names the others with their
 * estimate, and gives the paper's costs over the same points beside the
 * code's.
 */
#include "validate.h"
#include "fail.h"
#include "program.h"
#include "user_program.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PROFILES "validate/stream/profiles.csv"
#define CAUSES "validate/stream/count-misses.csv" /* the misses' causes (count_misses.c) */

/* ---- our count ------------------------------------------------------------ */

/* Warp instructions per warp of kernel `name` ("name" or "name#k") of the
 * counted DAG; -1 if it has no such kernel. */
static double counted_per_warp(const kernel_dag *dag, const char *name)
{
    char base[64];
    snprintf(base, sizeof base, "%s", name);
    char *hash = strchr(base, '#');
    int only = hash ? atoi(hash + 1) : -1, seen = 0;
    if (hash)
        *hash = '\0';
    double inst = 0, warps = 0;
    for (int k = 0; k < dag->n; k++) {
        const kernel *K = &dag->kernels[k];
        if (strcmp(K->name, base) != 0 || (only >= 0 && seen++ != only))
            continue;
        for (long b = 0; b < K->blocks; b++)
            inst += kernel_block_cost(K, b)->stream_work;
        warps += (double)K->blocks * ceil(K->threads / 32.0);
    }
    return warps > 0 ? inst / warps : -1;
}

/* Params "k=v;k=v" into *values; -1 with fail() naming `where`. */
static int params_parse(const char *params, vars *values, const char *where)
{
    vars_clear(values);
    char copy[256];
    snprintf(copy, sizeof copy, "%s", params);
    for (char *save, *tok = strtok_r(copy, ";", &save); tok; tok = strtok_r(NULL, ";", &save)) {
        char *eq = strchr(tok, '='), *end;
        if (!eq)
            return fail("%s: params \"%s\": expected k=v;k=v", where, params);
        *eq = '\0';
        double v = strtod(eq + 1, &end);
        if (*end || end == eq + 1 || vars_set(values, tok, v) < 0)
            return fail("%s: params \"%s\": bad value for %s", where, params, tok);
    }
    return 0;
}

/* The counted DAG of `source` at params "k=v;k=v". */
static kernel_dag *counted_dag(const char *source, const char *params, const machine *m, const char *where)
{
    vars values;
    if (params_parse(params, &values, where) < 0)
        return NULL;
    kernel_dag *dag = user_program_build(source, &values, m);
    if (!dag)
        fail("%s: %s", where, fail_message());
    return dag;
}

exec_terms code_costs_terms(const kernel_dag *worksheet)
{
    exec_terms t = {.launches = (double)worksheet->n};
    for (int k = 0; k < worksheet->n; k++) {
        const kernel *K = &worksheet->kernels[k];
        for (long r = 0; r < (K->runs ? K->n_runs : 1); r++) {
            const block_cost *c = K->runs ? &K->runs[r].cost : &K->cost;
            double blocks = K->runs ? (double)kernel_run_blocks(K, r) : (double)K->blocks;
            double words = c->reads + c->writes + c->uncoalesced_reads + c->uncoalesced_writes;
            t.work += blocks * (c->work + K->threads * (1 + words));
            t.accesses += blocks * K->threads * words;
            t.threads += blocks * K->threads;
            t.blocks += blocks;
            for (int i = 0; i < OP_CLASSES; i++)
                t.ops[i] += blocks * (c->classes ? c->work_ops[i] : i == OP_PLAIN ? c->work : 0);
        }
    }
    return t;
}

double code_costs_estimate(const kernel_dag *worksheet)
{
    exec_terms t = code_costs_terms(worksheet);
    double operations = 0;
    for (int i = 0; i < OP_CLASSES; i++)
        operations += t.ops[i];
    return EXEC_SECONDS_OPERATION * operations + EXEC_SECONDS_PRIVATE * t.ops[OP_PRIVATE] +
           EXEC_SECONDS_ACCESS * t.accesses + EXEC_SECONDS_BLOCK * t.blocks + EXEC_SECONDS_LAUNCH * t.launches;
}

/* A budget in seconds: $name if set (a number >= 0; "inf": `every` all
 * run), else `otherwise`. */
static double budget_from(const char *name, double otherwise, const char *every)
{
    const char *text = getenv(name);
    char *end;
    double budget = text ? strtod(text, &end) : otherwise;
    if (text && (end == text || *end || !(budget >= 0)))
        return fail("%s=\"%s\": expected a number >= 0 (inf: every %s)", name, text, every);
    return budget;
}

double code_costs_budget(void) { return budget_from("MCMSIM_CODE_BUDGET", CODE_COSTS_BUDGET, "point"); }

double code_costs_cell_budget(void)
{
    return budget_from("MCMSIM_CODE_CELL_BUDGET", CODE_COSTS_CELL_BUDGET, "cell");
}

/* ---- reading CSV -------------------------------------------------------- */

/* Split a CSV line into at most max fields, quotes removed, in place. */
static int csv_fields(char *line, char **fields, int max)
{
    int n = 0;
    char *s = line;
    while (*s && *s != '\n' && *s != '\r' && n < max) {
        char *out = s;
        fields[n++] = out;
        int quoted = *s == '"';
        if (quoted)
            s++;
        while (*s && (quoted ? *s != '"' : (*s != ',' && *s != '\n' && *s != '\r')))
            *out++ = *s++;
        if (quoted && *s == '"')
            s++;
        while (*s && *s != ',' && *s != '\n' && *s != '\r')
            s++;
        int more = *s == ',';
        *out = '\0';
        if (more)
            s++;
        else
            break;
    }
    return n;
}

static int column(char **names, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(names[i], name))
            return i;
    return -1;
}

/* A number as Nsight Compute writes it ("1,860,442" or "1860442"). */
static double ncu_number(const char *s)
{
    char digits[64];
    size_t n = 0;
    for (; *s && n + 1 < sizeof digits; s++)
        if (*s != ',')
            digits[n++] = *s;
    digits[n] = '\0';
    return atof(digits);
}

/* The kernel's name as mcm_kernel.h calls it: Nsight Compute's function
 * name, less its parameters and MCM_KERNEL's suffix. */
static void kernel_base(const char *ncu, char *out, size_t size)
{
    snprintf(out, size, "%s", ncu);
    char *cut = strchr(out, '(');
    if (cut)
        *cut = '\0';
    size_t len = strlen(out);
    const char *suffix = "_mcm_global_";
    if (len > strlen(suffix) && !strcmp(out + len - strlen(suffix), suffix))
        out[len - strlen(suffix)] = '\0';
}

/* The kernels of the points, the card's count and ours (count_row). */
typedef struct comparisons {
    count_row *c;
    int n, cap;
} comparisons;

/* `source` as the data directory names it: relative to it. */
static const char *relative_source(const char *source)
{
    const char *dir = user_program_datadir();
    size_t len = strlen(dir);
    return strncmp(source, dir, len) == 0 && source[len] == '/' ? source + len + 1 : source;
}

static void add_comparison(comparisons *all, const char *where, const char *what, const char *kernel_name,
                           const char *source, const char *params, double card, double ours)
{
    if (all->n == all->cap) {
        all->cap = all->cap ? 2 * all->cap : 32;
        all->c = realloc(all->c, sizeof *all->c * (size_t)all->cap);
    }
    count_row *c = &all->c[all->n++];
    snprintf(c->where, sizeof c->where, "%s", where);
    snprintf(c->what, sizeof c->what, "%s", what);
    snprintf(c->kernel, sizeof c->kernel, "%s", kernel_name);
    snprintf(c->source, sizeof c->source, "%s", relative_source(source));
    snprintf(c->params, sizeof c->params, "%s", params);
    c->card = card;
    c->ours = ours;
}

/* ---- the first check: the profiles -------------------------------------------- */

/* The counted DAGs by file and params: the check's rows share points, and
 * the sessions theirs.  The DAGs are the cache's. */
#define COUNTED_CACHE 64
typedef struct counted_cache {
    char key[512];
    kernel_dag *dag;
} counted_cache;

static kernel_dag *cached_dag(counted_cache *cache, int *n, const char *source, const char *params, const machine *m,
                              const char *where)
{
    char key[512];
    snprintf(key, sizeof key, "%s %s", source, params);
    for (int i = 0; i < *n; i++)
        if (!strcmp(cache[i].key, key))
            return cache[i].dag;
    if (*n == COUNTED_CACHE) {
        fail("%s: more than %d points counted (code_costs.c, COUNTED_CACHE)", where, COUNTED_CACHE);
        return NULL;
    }
    kernel_dag *dag = counted_dag(source, params, m, where);
    if (dag) {
        snprintf(cache[*n].key, sizeof cache[0].key, "%s", key);
        cache[(*n)++].dag = dag;
    }
    return dag;
}

static int check_profiles(const machine *m, comparisons *all)
{
    FILE *f = fopen(PROFILES, "r");
    if (!f)
        return fail("%s: cannot read", PROFILES);
    char line[2048];
    int number = 0, rc = 0, n_cache = 0;
    counted_cache cache[COUNTED_CACHE];
    while (rc == 0 && fgets(line, sizeof line, f)) {
        number++;
        char *fields[8], where[160];
        if (number == 1 || line[0] == '#' || line[0] == '\n')
            continue;
        snprintf(where, sizeof where, "%s:%d", PROFILES, number);
        if (csv_fields(line, fields, 8) < 5) {
            rc = fail("%s: expected source,params,kernel,card_inst_per_warp,profile", where);
            break;
        }
        kernel_dag *dag = cached_dag(cache, &n_cache, fields[0], fields[1], m, where);
        if (!dag) {
            rc = -1;
            break;
        }
        double ours = counted_per_warp(dag, fields[2]);
        if (ours < 0) {
            rc = fail("%s: %s launches no kernel '%s'", where, fields[0], fields[2]);
            break;
        }
        char what[128];
        snprintf(what, sizeof what, "%s %s", fields[0], fields[1]);
        add_comparison(all, fields[4], what, fields[2], fields[0], fields[1], atof(fields[3]), ours);
    }
    fclose(f);
    for (int i = 0; i < n_cache; i++)
        kernel_dag_free(cache[i].dag);
    return rc;
}

/* ---- a session's counts ------------------------------------------------------ */

/* The most columns of ncu's raw page read (its device attributes come
 * first: some 300 of them). */
#define NCU_COLUMNS 1024

int ncu_kernels(const char *path, ncu_kernel *out, int max)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return fail("%s: cannot read", path);
    static char line[1 << 16], header[1 << 16], copy[1 << 16]; /* ncu's raw page: hundreds of columns */
    char *names[NCU_COLUMNS];
    header[0] = '\0';
    int n_names = 0, name_col = -1, grid_col = -1, block_col = -1, inst_col = -1, n = 0;
    while (fgets(line, sizeof line, f)) {
        char *fields[NCU_COLUMNS];
        snprintf(copy, sizeof copy, "%s", line);
        int k = csv_fields(copy, fields, NCU_COLUMNS);
        if (n_names == 0) { /* the header: the line that names the columns */
            if (k < 2 || strcmp(fields[0], "ID") != 0)
                continue;
            snprintf(header, sizeof header, "%s", line);
            n_names = csv_fields(header, names, NCU_COLUMNS);
            name_col = column(names, n_names, "Kernel Name");
            grid_col = column(names, n_names, "launch__grid_size");
            block_col = column(names, n_names, "launch__block_size");
            inst_col = column(names, n_names, "smsp__inst_executed.sum");
            if (name_col < 0 || grid_col < 0 || block_col < 0 || inst_col < 0) {
                fclose(f);
                return fail("%s: no column Kernel Name, launch__grid_size, launch__block_size or "
                            "smsp__inst_executed.sum (cuda_ref/ncu-instructions.sh writes them)", path);
            }
            continue;
        }
        if (k != n_names || !isdigit((unsigned char)fields[0][0]))
            continue; /* the units' row, messages */
        char base[64];
        kernel_base(fields[name_col], base, sizeof base);
        int i = 0;
        while (i < n && strcmp(out[i].name, base) != 0)
            i++;
        if (i == n) {
            if (n == max)
                continue;
            memset(&out[n], 0, sizeof out[n]);
            snprintf(out[n++].name, sizeof out[0].name, "%s", base);
        }
        out[i].inst += ncu_number(fields[inst_col]);
        out[i].warps += ncu_number(fields[grid_col]) * ceil(ncu_number(fields[block_col]) / 32);
    }
    fclose(f);
    return n_names == 0 ? fail("%s: no Nsight Compute CSV header (a line starting \"ID\")", path) : n;
}

int case_kernels_source(const char *program, char *out, size_t size)
{
    int user = strncmp(program, USER_CASE, strlen(USER_CASE)) == 0;
    const builtin_program *b = builtin_find(user ? program + strlen(USER_CASE) : program);
    if (user) {
        snprintf(out, size, "%s/programs/user/%s.c", user_program_datadir(), program + strlen(USER_CASE));
        if (access(out, R_OK) == 0)
            return 1;
    }
    return b && b->kernels && builtin_kernels_path(b, out, size) == 0;
}

int code_costs_counted_anyway(const session *sessions, int n, const char *program, const char *params)
{
    for (int i = 0; i < n; i++) {
        char index[1100], line[2048];
        snprintf(index, sizeof index, "%s/instructions.csv", sessions[i].dir);
        FILE *f = fopen(index, "r");
        int found = 0;
        while (f && !found && fgets(line, sizeof line, f)) {
            char *fields[4];
            found = csv_fields(line, fields, 4) == 3 && !strcmp(fields[0], program) && !strcmp(fields[1], params);
        }
        if (f)
            fclose(f);
        if (found)
            return 1;
    }
    return 0;
}

int code_costs_start(exec_process *x, const measured_row *row, const machine *m)
{
    char source[1024];
    if (!case_kernels_source(row->program, source, sizeof source))
        return fail("%s:%d: case '%s' has no kernels written once (programs/user/NAME.c or a case study's "
                    "kernels.c)", row->file, row->line, row->program);
    if (user_program_start(x, source, &row->values, m, 1) < 0)
        return fail("%s:%d: %s", row->file, row->line, fail_message());
    return 0;
}

/* The DAG a set of the code's costs counted at this case and params (the
 * counts do not depend on the caches, nor on which card's machine); NULL
 * if none did or none kept it (a point from the record has none). */
static const kernel_dag *counted_before(const validation *codes, int n_codes, const char *program,
                                        const char *params)
{
    for (int i = 0; i < n_codes; i++)
        for (int j = 0; j < codes[i].n; j++)
            if (codes[i].pts[j].dag && !strcmp(codes[i].pts[j].row->program, program) &&
                !strcmp(codes[i].pts[j].row->params, params))
                return codes[i].pts[j].dag;
    return NULL;
}

/* The counts of session s's instructions.csv: every point of a case with
 * kernels written once, run at the params the card ran them with (the
 * row's, nothing else: what cuda_ref/run-all.sh passed its CUDA build):
 * the DAG a code set counted at that point, else one from `cache`, on the
 * counting machine less its caches (the counts do not depend on them, and
 * without them a launch runs on every core). */
static int check_session(const session *s, const machine *m, const validation *codes, int n_codes,
                         counted_cache *cache, int *n_cache, comparisons *all)
{
    machine counter = *m;
    counter.l1_words = 0;
    char index[1100];
    snprintf(index, sizeof index, "%s/instructions.csv", s->dir);
    FILE *f = fopen(index, "r");
    if (!f)
        return 0; /* the session took no counts */
    char line[2048];
    int number = 0, rc = 0;
    while (rc == 0 && fgets(line, sizeof line, f)) {
        number++;
        char *fields[4], where[1200], path[1400];
        snprintf(where, sizeof where, "%s:%d", index, number);
        if (number == 1 || line[0] == '#' || line[0] == '\n')
            continue;
        if (csv_fields(line, fields, 4) != 3) {
            rc = fail("%s: expected case,params,ncu_csv", where);
            break;
        }
        measured_row row = {0};
        snprintf(row.file, sizeof row.file, "%.*s", (int)sizeof row.file - 1, index);
        row.line = number;
        snprintf(row.program, sizeof row.program, "%s", fields[0]);
        snprintf(row.params, sizeof row.params, "%s", fields[1]);
        if (params_parse(row.params, &row.values, where) < 0) {
            rc = -1;
            break;
        }
        snprintf(path, sizeof path, "%s/%s", s->dir, fields[2]);
        ncu_kernel card[64];
        int n = ncu_kernels(path, card, 64);
        char source[2048];
        if (n < 0) {
            rc = -1;
            break;
        }
        if (!case_kernels_source(row.program, source, sizeof source))
            continue; /* not written once: nothing counted */
        const kernel_dag *dag = counted_before(codes, n_codes, row.program, row.params);
        if (!dag)
            dag = cached_dag(cache, n_cache, source, row.params, &counter, where);
        if (!dag) {
            rc = -1;
            break;
        }
        for (int i = 0; i < n; i++) {
            double ours = counted_per_warp(dag, card[i].name);
            char what[160], from[200];
            snprintf(what, sizeof what, "%s %s", fields[0], fields[1]);
            snprintf(from, sizeof from, "%s `%s`", s->card, s->name);
            if (ours >= 0 && card[i].warps > 0)
                add_comparison(all, from, what, card[i].name, source, fields[1], card[i].inst / card[i].warps, ours);
        }
    }
    fclose(f);
    return rc;
}

/* ---- the report ------------------------------------------------------------------ */

/* The table, each miss with its cause (count_misses.c); -1 with fail()
 * if the causes' file is malformed. */
static int counts_table(FILE *f, const comparisons *all)
{
    count_causes written;
    if (count_causes_load(CAUSES, &written) < 0)
        return -1;
    fprintf(f, "| kernel | program and params | the card's count | counted | counted/card | within 15 %% | "
               "the miss's cause |\n|---|---|---|---|---|---|---|\n");
    int within = 0, unexplained = 0;
    for (int i = 0; i < all->n; i++) {
        const count_row *c = &all->c[i];
        char cause[2200] = "";
        int in = count_within(c);
        within += in;
        if (!in && !count_miss_cause(all->c, all->n, i, &written, cause, sizeof cause)) {
            snprintf(cause, sizeof cause, "**none known** (%s)", CAUSES);
            unexplained++;
        }
        fprintf(f, "| %s | %s | %.1f (%s) | %.1f | %.3f | %s | %s |\n", c->kernel, c->what, c->card, c->where, c->ours,
                c->ours / c->card, in ? "yes" : "**no**", cause);
    }
    count_causes_free(&written);
    fprintf(f, "\n%d of %d kernels within 15 %%.  A miss's cause is, where the same kernel of the same file "
               "is counted at the same point within 15 %% of another session's or profile's count, another build "
               "on the card (count_misses.c); else the cause found in the card's code, with its evidence "
               "(%s).\n\n",
            within, all->n, CAUSES);
    printf("instructions: %d of %d kernels counted within 15 %% of Nsight Compute; %d misses without a known "
           "cause\n",
           within, all->n, unexplained);
    return 0;
}

static void stats_cell(FILE *f, const error_stats *s)
{
    if (s->n == 0) {
        fprintf(f, " – |");
        return;
    }
    fprintf(f, " %.1f %% / %.1f %% / ", 100 * s->median, 100 * s->p90);
    if (isnan(s->spearman))
        fprintf(f, "n/a |");
    else
        fprintf(f, "%.3f |", s->spearman);
}

/* The points of `paper` that `code` ran too, as a set of its own (its
 * points array owned). */
static validation points_run(const validation *paper, const validation *code)
{
    validation v = *paper;
    v.pts = calloc((size_t)paper->n + 1, sizeof *v.pts);
    v.n = 0;
    for (int i = 0; i < paper->n; i++)
        for (int j = 0; j < code->n; j++)
            if (code->pts[j].row == paper->pts[i].row) {
                v.pts[v.n++] = paper->pts[i];
                break;
            }
    return v;
}

/* The table's rows of one set: per case (and all cases), the paper's costs
 * over all its points and over the points run, and the code's costs. */
static void errors_rows(FILE *f, const validation *paper, const validation *code)
{
    const char *names[64];
    validation same = points_run(paper, code);
    int k = validation_cases(paper, names, 63), split = validation_split(paper);
    names[k++] = NULL; /* all cases */
    for (int j = 0; j < k; j++) {
        error_stats all = validation_errors(paper, names[j], split);
        error_stats run = validation_errors(&same, names[j], split);
        error_stats ours = validation_errors(code, names[j], split);
        fprintf(f, "| %s | %s | %d (%d) |", names[j] ? names[j] : "**all**", paper->name, ours.n, all.n);
        stats_cell(f, &all);
        stats_cell(f, &run);
        stats_cell(f, &ours);
        fprintf(f, "\n");
        printf("code's costs, set %s, %s: %d of %d points, %.1f%% (paper's costs %.1f%% on them, %.1f%% on all)\n",
               paper->name, names[j] ? names[j] : "all", ours.n, all.n, 100 * ours.median, 100 * run.median,
               100 * all.median);
    }
    free(same.pts);
}

/* Whether the set `paper` scores the point of `row`: on a set of the
 * held-out half, not a point of the training half. */
static int scored(const validation *paper, const measured_row *row)
{
    for (int i = 0; i < paper->n; i++)
        if (paper->pts[i].row == row)
            return !paper->held_out_only || !paper->pts[i].train;
    return 1; /* refused by the model: named either way */
}

/* The points of a code set taken from the record (not run here), case by
 * case, with the record's "made" line: where they came from. */
static void recorded_list(FILE *f, const validation *code)
{
    int n = 0;
    for (int i = 0; i < code->n; i++)
        n += code->pts[i].recorded;
    printf("code's costs, set %s: %d %s from the record %s\n", code->name, n, plural(n, "point", "points"),
           CODE_RECORD);
    if (n == 0)
        return;
    fprintf(f, "Set %s: %d %s taken from the record `%s` (made: %s), not run here:\n\n", code->name, n,
            plural(n, "point", "points"), CODE_RECORD, code->record_made);
    for (int i = 0; i < code->n; i++) {
        const char *program = code->pts[i].row->program;
        int first = code->pts[i].recorded;
        for (int j = 0; j < i && first; j++)
            first = !code->pts[j].recorded || strcmp(code->pts[j].row->program, program) != 0;
        if (!first)
            continue;
        fprintf(f, "- %s:", program);
        for (int j = i, k = 0; j < code->n; j++)
            if (code->pts[j].recorded && !strcmp(code->pts[j].row->program, program))
                fprintf(f, "%s `%s`", k++ ? "," : "", code->pts[j].row->params);
        fprintf(f, "\n");
    }
    fprintf(f, "\n");
}

/* The points of a code set not run in exec mode that its paper's set
 * scores, case by case, each with its estimate. */
static void not_run_list(FILE *f, const validation *paper, const validation *code)
{
    int n = 0;
    for (int i = 0; i < code->n_not_run; i++)
        n += scored(paper, code->not_run[i]);
    if (n == 0)
        return;
    fprintf(f, "Set %s: %d %s%s not run in exec mode (over the budget, and not in the record; exec mode's "
               "processor time estimated from the worksheet, in brackets, s):\n\n",
            code->name, n, plural(n, "point", "points"), paper->held_out_only ? " of the held-out half" : "");
    for (int i = 0; i < code->n_not_run; i++) {
        const char *program = code->not_run[i]->program;
        int first = scored(paper, code->not_run[i]);
        for (int j = 0; j < i; j++)
            first &= strcmp(code->not_run[j]->program, program) != 0 || !scored(paper, code->not_run[j]);
        if (!first)
            continue;
        fprintf(f, "- %s:", program);
        for (int j = i, k = 0; j < code->n_not_run; j++)
            if (!strcmp(code->not_run[j]->program, program) && scored(paper, code->not_run[j])) {
                if (code->not_run_estimate[j] < 0)
                    fprintf(f, "%s `%s` (the model refuses it: no worksheet DAG to estimate)", k++ ? "," : "",
                            code->not_run[j]->params);
                else
                    fprintf(f, "%s `%s` (%.2g)", k++ ? "," : "", code->not_run[j]->params,
                            code->not_run_estimate[j]);
            }
        fprintf(f, "\n");
    }
    fprintf(f, "\n");
}

int write_code_costs(FILE *f, const validation *sets, const validation *codes, int n_sets, const machine *counter,
                     const session *const *cards, const int *n_sessions, int n_cards)
{
    comparisons all = {0};
    counted_cache cache[COUNTED_CACHE];
    int n_cache = 0;
    int rc = check_profiles(counter, &all);
    for (int c = 0; rc == 0 && c < n_cards; c++)
        for (int i = 0; rc == 0 && i < n_sessions[c]; i++)
            rc = check_session(&cards[c][i], counter, codes, n_sets, cache, &n_cache, &all);
    for (int i = 0; i < n_cache; i++)
        kernel_dag_free(cache[i].dag);
    if (rc < 0) {
        free(all.c);
        return -1;
    }
    fprintf(f, "## The code's costs: each kernel charged by its compiled instructions\n\n"
               "A kernel written once (sim/exec/mcm_kernel.h) is counted as exec mode runs it: clang's IR of the "
               "file, each basic block weighed in sm_90 instructions, a warp issuing the union of its threads' "
               "paths (sim/exec/stream.h; validate/notes/instruction-stream.md).  The card's machine with the "
               "instruction stream charged (`%s`: issue_rate, cycles_issue) gives the code's costs; the "
               "card's machine gives the paper's costs.\n\n"
               "### The counts against Nsight Compute\n\n"
               "Warp instructions per warp, each kernel over its launches at the point: the card's from "
               "Nsight Compute (`smsp__inst_executed.sum` over the launches' warps), ours from the counted "
               "build.  The first rows are the profiles of validate/notes/profiles/ (%s); then each "
               "session's `instructions.csv` (cuda_ref/ncu-instructions.sh).\n\n",
            counter->name, PROFILES);
    rc = counts_table(f, &all);
    free(all.c);
    if (rc < 0)
        return -1;
    fprintf(f, "### The paper's costs and the code's costs, against the card\n\n"
               "Median / 90th percentile of the absolute relative error / Spearman, per case, each set's "
               "points (set a: the held-out half).  The code's costs are those of the points run in exec mode "
               "(a built-in case study's within the budget, exec mode's processor time estimated from its "
               "worksheet at most %.3g s (code_costs_estimate), counted against Nsight Compute above anyway, "
               "or a point of a conclusion's cell, the points one verdict takes (a best s: every s at one n), "
               "whose points' estimates sum to at most %.3g s, or plain multiplication's best s at n <= 4 096, chosen, "
               "conclusions.c; the others taken from the record `%s` where it holds them, run in exec mode by "
               "`make validate-full`, every point and no budget (or a step of it: its made line says which), each "
               "keyed by this tree's sources, its case, params and machines (code_record.c), and named below; the "
               "rest named below too); the paper's costs are given over those same points, and over all the case's "
               "points.\n\n"
               "| case | set | points run (of all) | the paper's costs, all points | the paper's costs, the points "
               "run | the code's costs |\n|---|---|---|---|---|---|\n",
            code_costs_budget(), code_costs_cell_budget(), CODE_RECORD);
    for (int i = 0; i < n_sets; i++)
        errors_rows(f, &sets[i], &codes[i]);
    fprintf(f, "\n![the code's costs: every point run in exec mode, simulated against measured, with the ±10 %% "
               "and ±25 %% bands; the paper's costs of every point are the report's first picture]"
               "(scatter-code.png)\n\n");
    for (int i = 0; i < n_sets; i++)
        recorded_list(f, &codes[i]);
    for (int i = 0; i < n_sets; i++)
        not_run_list(f, &sets[i], &codes[i]);
    fprintf(f, "\n### Plots: the paper's costs, the code's costs\n\n");
    for (int i = 0; i < n_sets; i++) {
        const char *names[64];
        int k = validation_cases(&codes[i], names, 64);
        for (int j = 0; j < k; j++)
            fprintf(f, "![%s, set %s, the paper's costs](%s/%s.png) ![%s, set %s, the code's costs](%s/%s.png)\n\n",
                    names[j], sets[i].name, sets[i].name, names[j], names[j], sets[i].name, codes[i].name, names[j]);
    }
    return 0;
}
