/*
 * main.c — `make validate`: the simulator against the cards.
 *
 * 1. Read every measurement session of the H100 and the H200 (sessions.h)
 *    and print the noise floor: how far every two sessions of a card of
 *    the current protocol agree, per case study, for the wall and the
 *    graph times.  No model error below it can be claimed.
 * 2. Build each card's machine from its reference session's measured
 *    constants (the newest of those that measured the most case studies
 *    and read every machine constant steadily, card_reference;
 *    card.h); nothing is fitted.
 * 3. Simulate three sets (validate.h), each case study's points from its
 *    own sessions: (a) the held-out half (every other size of each series)
 *    of its newest H100 session, (b) every point of the H100 session before
 *    that, (c) every point of its newest H200 session on the H200's own
 *    constants.  Compare with the graph device times.  A case `user-NAME`
 *    is a kernel written once (programs/user/NAME.c): its DAG comes from
 *    exec mode; a built-in case's DAG is built at the params that make it
 *    its CUDA implementation's (program.h, cuda_params).  Where the
 *    machine has the caches of exec mode (sim/exec/cache.h), the points that ran
 *    through them are simulated without them too, for the report's table.
 * 4. The code's costs (code_costs.c): each set's points simulated again
 *    on the card's code machine (the card's, each kernel charged by the
 *    instructions of its compiled code, sim/exec/stream.h), from their
 *    kernels written once in exec mode: every user case's, and a built-in
 *    case study's within the budget (code_costs_estimate), counted for
 *    the check below, or in a conclusion's cell within the cells' budget
 *    (conclusions_code_rows), the others named in the
 *    report; into sets a-code, b-code, c-code; the counted instructions
 *    against Nsight Compute's; and the papers' conclusions on the code's
 *    costs.  Their exec processes run while step 3's sets are
 *    simulated, as many at once as there are cores beside the
 *    simulations (user_dags).
 * 5. Write validate/report/REPORT.md (outputs.c, write_report: its
 *    headline first, the targets case by case, every point simulated
 *    against measured (scatter.png), the conclusions and what each case
 *    that misses a target lacks; then the sets and the code's costs, with
 *    their own picture (scatter-code.png); then the noise floor, one row
 *    per card), validate/report/noise-floor.md
 *    (every pair of sessions, case by case), validate/report/{a,b,c}/ and
 *    {a,b,c}-code/ (points.csv, caches-points.csv where points ran
 *    through the caches, and one plot per case study) and the
 *    presets machine/h100.cfg and machine/h200.cfg (and -code.cfg).
 * Deterministic: the same data gives the same files, byte for byte.
 */
#include "card.h"
#include "engine.h"
#include "fail.h"
#include "job_pool.h"
#include "measured.h"
#include "program.h"
#include "sessions.h"
#include "user_program.h"
#include "validate.h"

#include <malloc.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define REPORT_DIR "validate/report"
#define MISSING_TERMS "validate/notes/missing-terms.cfg" /* what each miss lacks (targets.c) */

/* Where the run's time goes, on stderr, when MCMSIM_VALIDATE_PROFILE is
 * set (validate/notes/exec-at-scale.md): the processor time of each exec
 * process and each simulation (the children's time across the one reap
 * that ends it) with the wall clock when it ended (and when an exec
 * process started), the processor time of each set's plots, and at each
 * phase the parent's and its children's processor time so far and the
 * parent's resident memory and page tables (what a fork copies), beside
 * the wall clock (validate/notes/bench.md, session 48).  The report is the
 * same either way. */
static int profiling(void) { return getenv("MCMSIM_VALIDATE_PROFILE") != NULL; }

static double processor_seconds(int who)
{
    struct rusage r;
    getrusage(who, &r);
    return (double)(r.ru_utime.tv_sec + r.ru_stime.tv_sec) + 1e-6 * (double)(r.ru_utime.tv_usec + r.ru_stime.tv_usec);
}

/* The system's part of that time (forks of this process, its children's
 * page faults and exits). */
static double system_seconds(int who)
{
    struct rusage r;
    getrusage(who, &r);
    return (double)r.ru_stime.tv_sec + 1e-6 * (double)r.ru_stime.tv_usec;
}

/* Seconds of wall clock since the first call (the run's start). */
static double wall_seconds(void)
{
    static double start = -1;
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    double now = (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
    if (start < 0)
        start = now;
    return now - start;
}

/* This process's resident memory and page tables, kB (/proc/self/status:
 * what each fork copies); 0 where unknown. */
static void memory_kb(long *rss, long *pte)
{
    char line[256];
    FILE *f = fopen("/proc/self/status", "r");
    *rss = *pte = 0;
    while (f && fgets(line, sizeof line, f)) {
        sscanf(line, "VmRSS: %ld", rss);
        sscanf(line, "VmPTE: %ld", pte);
    }
    if (f)
        fclose(f);
}

static void profile_phase(const char *phase)
{
    double now = wall_seconds(); /* the first call: the run's start */
    long rss, pte;
    if (!profiling())
        return;
    memory_kb(&rss, &pte);
    fprintf(stderr, "validate profile: %s at %.1f s wall: processor %.1f s own, %.1f s children "
                    "(system %.1f s own, %.1f s children); resident %ld kB, page tables %ld kB\n", phase, now,
            processor_seconds(RUSAGE_SELF), processor_seconds(RUSAGE_CHILDREN), system_seconds(RUSAGE_SELF),
            system_seconds(RUSAGE_CHILDREN), rss, pte);
}

/* One child's processor time: that of the children reaped since `before`
 * (processor_seconds(RUSAGE_CHILDREN) then), and the largest peak
 * resident memory of the children reaped so far (a new peak: this one's). */
static void profile_child(const char *what, const measured_row *row, const machine *m, double before)
{
    struct rusage r;
    getrusage(RUSAGE_CHILDREN, &r); /* ru_maxrss: the largest child's peak so far */
    if (profiling())
        fprintf(stderr, "validate profile: %s %s %s on %s: %.2f s (ended by %.1f s wall; children's peak "
                        "resident so far %ld kB)\n", what, row->program, row->params, m->name,
                processor_seconds(RUSAGE_CHILDREN) - before, wall_seconds(), r.ru_maxrss);
}

/* A case "user-NAME" runs its kernels written once (case_kernels_source):
 * its CUDA build was timed, and its exec mode gives the DAG, at the row's
 * params; so does a built-in case study's point on a set of the code's
 * costs (row_mode).  The rows' exec processes run ahead of the rows that
 * take their DAGs, as many at once as there are cores (user_dags_ahead),
 * a process that ends making room for the next whatever the rows before
 * it (a long point does not hold the cores idle); each row takes its own
 * in the rows' order, so the DAGs and the first error are those of one
 * row after another.  The three sets of the code's costs share one such
 * queue, which runs while the sets of the paper's costs are simulated
 * (set_simulate moves it on): the cores are never left to one long
 * simulation or to the report's writing. */
static int is_user_case(const measured_row *row) { return strncmp(row->program, USER_CASE, strlen(USER_CASE)) == 0; }

enum { DAG_WAITING, DAG_RUNNING, DAG_DONE, DAG_FAILED }; /* a row's exec process */

typedef struct user_dags {
    const measured_row **rows; /* the rows whose DAGs are built, in order */
    const machine **m;         /* per row: the machine it runs on */
    int n, next, taken, running; /* rows; the next to start; those taken; processes running */
    exec_process *x;           /* per row, while DAG_RUNNING */
    char *state;               /* per row: DAG_* */
    kernel_dag **dag;          /* per row DAG_DONE: its DAG, until taken */
    char **why;                /* per row DAG_FAILED: the message */
    double *need;              /* per row: the memory its process is expected to take, bytes (exec_need) */
    int window;
} user_dags;

/* Processes at once: as many as there are cores. */
static int cores_to_use(void)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    return cores < 1 ? 1 : cores > JOB_POOL_MAX ? JOB_POOL_MAX : (int)cores;
}

/* An empty queue for up to `cap` rows; -1 with fail(). */
static int user_dags_init(user_dags *u, int cap)
{
    memset(u, 0, sizeof *u);
    u->rows = calloc((size_t)cap + 1, sizeof *u->rows);
    u->m = calloc((size_t)cap + 1, sizeof *u->m);
    u->x = calloc((size_t)cap + 1, sizeof *u->x);
    u->state = calloc((size_t)cap + 1, 1);
    u->dag = calloc((size_t)cap + 1, sizeof *u->dag);
    u->why = calloc((size_t)cap + 1, sizeof *u->why);
    u->need = calloc((size_t)cap + 1, sizeof *u->need);
    u->window = cores_to_use();
    return u->rows && u->m && u->x && u->state && u->dag && u->why && u->need ? 0 : fail("validate: out of memory");
}

/* The memory an exec process takes at its peak, bytes per second of its
 * estimate (code_costs_estimate): plain-mult n = 8 192 s = 1 on h100-code,
 * 11 s estimated, 693 MB at its peak (/usr/bin/time -v, session 49); mult
 * n = 2^16 some 8 GiB at 200 s (validate/notes/bench.md, session 49). */
#define EXEC_BYTES_PER_SECOND 64e6
/* What the machine keeps free beside the processes, bytes. */
#define EXEC_MEMORY_RESERVE 1e9

/* The memory the kernel says is available now (MemAvailable), bytes;
 * -1 if unknown. */
static double memory_available(void)
{
    char line[256];
    long kb = -1;
    FILE *f = fopen("/proc/meminfo", "r");
    while (f && fgets(line, sizeof line, f) && sscanf(line, "MemAvailable: %ld kB", &kb) != 1)
        ;
    if (f)
        fclose(f);
    return kb < 0 ? -1 : 1024.0 * (double)kb;
}

/* Whether row i's process may start now: alone it always may; beside
 * others only where the memory available holds its need and what the
 * running ones may still take (their needs, counted whole), with the
 * reserve (a shared machine: `make validate-full`'s large points wait
 * for each other rather than swap or be killed). */
static int memory_room(const user_dags *u, int i)
{
    double available = memory_available(), wanted = u->need[i] + EXEC_MEMORY_RESERVE;
    if (u->running == 0 || available < 0)
        return 1;
    for (int j = u->taken; j < u->next; j++)
        wanted += u->state[j] == DAG_RUNNING ? u->need[j] : 0;
    return available >= wanted;
}

/* Start rows' exec processes until `window` run, or the next must wait
 * for memory (memory_room). */
static void user_dags_ahead(user_dags *u)
{
    for (; u->next < u->n && u->running < u->window && memory_room(u, u->next); u->next++) {
        int i = u->next;
        if (code_costs_start(&u->x[i], u->rows[i], u->m[i]) == 0) {
            if (profiling())
                fprintf(stderr, "validate profile: exec started %s %s on %s at %.1f s wall\n", u->rows[i]->program,
                        u->rows[i]->params, u->m[i]->name, wall_seconds());
            u->state[i] = DAG_RUNNING;
            u->running++;
            continue;
        }
        u->state[i] = DAG_FAILED;
        u->why[i] = strdup(fail_message());
    }
}

/* Row i's process has answered: its DAG, or its message, kept. */
static void user_dag_collect(user_dags *u, int i)
{
    const measured_row *row = u->rows[i];
    u->running--;
    double before = processor_seconds(RUSAGE_CHILDREN);
    u->dag[i] = exec_process_finish(&u->x[i], NULL);
    profile_child("exec", row, u->m[i], before);
    u->state[i] = u->dag[i] ? DAG_DONE : DAG_FAILED;
    if (!u->dag[i]) {
        char why[2048];
        snprintf(why, sizeof why, "%s:%d: %s", row->file, row->line, fail_message());
        u->why[i] = strdup(why);
    }
}

/* Wait timeout_ms at most for the running processes; collect those that
 * answered, and start others in their place. */
static void user_dags_wait(user_dags *u, int timeout_ms)
{
    struct pollfd fds[JOB_POOL_MAX];
    int rows[JOB_POOL_MAX], k = 0;
    for (int i = u->taken; i < u->next && k < JOB_POOL_MAX; i++)
        if (u->state[i] == DAG_RUNNING) {
            exec_process_note(&u->x[i]); /* a long run is never a silent one */
            fds[k].fd = exec_process_fd(&u->x[i]);
            fds[k].events = POLLIN;
            rows[k++] = i;
        }
    if (poll(fds, (nfds_t)k, timeout_ms) > 0)
        for (int j = 0; j < k; j++)
            if (fds[j].revents)
                user_dag_collect(u, rows[j]);
    user_dags_ahead(u);
}

/* The DAG of row number `u->taken` (the next in order); -1 with fail(). */
static int user_dag_take(user_dags *u, kernel_dag **dag)
{
    user_dags_ahead(u);
    int i = u->taken;
    while (u->state[i] == DAG_RUNNING || u->state[i] == DAG_WAITING) /* waiting: for memory_room */
        user_dags_wait(u, 1000);
    u->taken++;
    if (u->state[i] == DAG_FAILED)
        return fail("%s", u->why[i]);
    *dag = u->dag[i];
    u->dag[i] = NULL;
    return 0;
}

/* Every process still running, given back; every DAG not taken, freed. */
static void user_dags_end(user_dags *u)
{
    for (int i = u->taken; i < u->next; i++) {
        if (u->state[i] == DAG_RUNNING)
            exec_process_abandon(&u->x[i]);
        if (u->state[i] == DAG_DONE)
            kernel_dag_free(u->dag[i]);
    }
    for (int i = 0; u->why && i < u->n; i++)
        free(u->why[i]);
    free(u->rows);
    free(u->m);
    free(u->x);
    free(u->state);
    free(u->dag);
    free(u->why);
    free(u->need);
    memset(u, 0, sizeof *u);
}

/* Row `row` queued, on machine m, its process expected to take `need`
 * bytes (the queue holds as many as user_dags_init was given). */
static void user_dags_add(user_dags *u, const measured_row *row, const machine *m, double need)
{
    u->need[u->n] = need;
    u->m[u->n] = m;
    u->rows[u->n++] = row;
}

/* The queue beside a job pool (job_pool.h): its running processes' pipes,
 * and a move on that does not wait. */
static int user_dags_fds(user_dags *u, int *fds, int max)
{
    int k = 0;
    for (int i = u->taken; u->rows && i < u->next && k < max; i++)
        if (u->state[i] == DAG_RUNNING)
            fds[k++] = exec_process_fd(&u->x[i]);
    return k;
}

static void user_dags_move_on(user_dags *u)
{
    if (u->rows)
        user_dags_wait(u, 0);
}

static int build_dag(const measured_row *row, const machine *m, int exec, user_dags *u, kernel_dag **dag)
{
    if (exec)
        return user_dag_take(u, dag);
    const builtin_program *b = builtin_find(row->program);
    if (!b)
        return fail("%s:%d: case '%s' is not a built-in program", row->file, row->line, row->program);
    vars v;
    if (builtin_params(b, 1, &v) < 0) /* the DAG of its cuda_ref implementation */
        return fail("%s:%d: %s", row->file, row->line, fail_message());
    for (int i = 0; i < row->values.n; i++) {
        if (!vars_get(&v, row->values.name[i]))
            return fail("%s:%d: program '%s' has no param '%s' (its params: %s)", row->file, row->line,
                        row->program, row->values.name[i], b->defaults);
        vars_set(&v, row->values.name[i], row->values.value[i]);
    }
    *dag = b->build(&v, m);
    if (!*dag)
        return fail("%s:%d: %s", row->file, row->line, fail_message());
    return 0;
}

/* Within each series (measured.h), by increasing size: train, test,
 * train, ...  A case study whose n never varies (plain division sweeps m,
 * radix sort sweeps s) is split along the param that does. */
static void split_every_other_n(validation *v)
{
    for (int i = 0; i < v->n; i++) {
        const measured_row *r = v->pts[i].row;
        char mine[256], other[256];
        const char *along = measured_size_key(r, v->s->rows, v->s->n);
        measured_series_along(r, along, mine, sizeof mine);
        const double *x = vars_get(&r->values, along);
        int smaller = 0; /* points of the same series with a smaller size */
        for (int j = 0; j < v->n; j++) {
            const measured_row *q = v->pts[j].row;
            measured_series_along(q, along, other, sizeof other);
            const double *qx = vars_get(&q->values, along);
            if (strcmp(q->program, r->program) == 0 && strcmp(other, mine) == 0 && x && qx &&
                (*qx < *x || (*qx == *x && j < i)))
                smaller++;
        }
        v->pts[i].train = smaller % 2 == 0;
    }
}

/* A DAG any of whose blocks ran through the caches of exec mode. */
static int ran_through_caches(const kernel_dag *dag)
{
    for (int k = 0; k < dag->n; k++)
        if (dag->kernels[k].cost.sectors.measured)
            return 1;
    return 0;
}

/* A point of an earlier set on machine m with the same program and
 * params as `row`, run here: its DAG is the one row's would be.  NULL if
 * none (a point from the record has no DAG: takes_exec queued row's). */
static const vpoint *built_before(const measured_row *row, const machine *m, const validation *earlier, int n_earlier)
{
    for (int s = 0; s < n_earlier; s++) {
        if (memcmp(&earlier[s].card, m, sizeof *m) != 0)
            continue;
        for (int i = 0; i < earlier[s].n; i++) {
            const measured_row *q = earlier[s].pts[i].row;
            if (!earlier[s].pts[i].recorded && strcmp(q->program, row->program) == 0 &&
                strcmp(q->params, row->params) == 0)
                return &earlier[s].pts[i];
        }
    }
    return NULL;
}

/* The DAG's blocks carry a counted instruction stream (sim/exec/stream.h). */
static int dag_counted(const kernel_dag *dag)
{
    return dag->n > 0 && kernel_block_cost(&dag->kernels[0], 0)->stream;
}

/* The points of set v (a code set: those run in exec mode, row_mode).  A
 * point the model refuses (e.g. a Z constraint the card's code gets around
 * by using global memory) is left out and listed in the report.  A point
 * an earlier set built on the same machine shares its DAG (exec mode runs
 * a kernel written once again only where the machine differs). */
static int set_load_rows(validation *v, const validation *earlier, int n_earlier, user_dags *u);

/* How a set builds a row's DAG (validation.mode); ROW_RECORD: none, its
 * figures from the record (code_record.c). */
enum { ROW_WORKSHEET, ROW_EXEC, ROW_NOT_RUN, ROW_RECORD };

/* The record of the code's costs (code_record.c) this run reads, and
 * writes (MCMSIM_CODE_RECORD=write: `make validate-full` or a step of it
 * within budgets, which runs every point within them that the record does
 * not hold yet for this tree, and adds each to it as it is done), and the
 * tree's part of its keys. */
static struct {
    code_record r;
    char sources[CODE_RECORD_KEY];
    int write;
} record;

/* The record read (writing: begun again if another tree's, and its line
 * that says which commit and command made it, and which runs added to it:
 * code_record_remade); -1 with fail(). */
static int record_open(void)
{
    const char *mode = getenv("MCMSIM_CODE_RECORD");
    if (mode && *mode && strcmp(mode, "write") != 0)
        return fail("MCMSIM_CODE_RECORD=\"%s\": expected write (or unset: read %s)", mode, CODE_RECORD);
    record.write = mode && *mode;
    if (code_record_sources(record.sources) < 0 || code_record_load(&record.r, CODE_RECORD, record.sources) < 0)
        return -1;
    if (record.r.sources[0] && strcmp(record.r.sources, record.sources) != 0)
        fprintf(stderr, "validate: %s is another tree's record (made: %s): none of its points taken%s\n", CODE_RECORD,
                record.r.made, record.write ? ", begun again" : "");
    if (record.write)
        code_record_remade(&record.r, code_costs_budget(), code_costs_cell_budget());
    return 0;
}

/* The record's entry for `row` on machine m (off: the same without the
 * caches, card_off); NULL if it has none (a stale record has none: its
 * keys are another tree's). */
static const code_record_entry *recorded(const measured_row *row, const machine *m, const machine *off)
{
    char key[CODE_RECORD_KEY];
    if (record.r.n == 0)
        return NULL;
    code_record_key(record.sources, row->program, row->params, m, off, key);
    return code_record_find(&record.r, key);
}

static int record_point(const validation *v, const vpoint *p);

/* Whether row i of set v takes an exec process's DAG: it runs in exec
 * mode and no earlier set on the same machine runs the same point in exec
 * mode (built_before then finds that set's point, whose DAG it shares).
 * Known from the sets' modes alone, before their DAGs are built. */
static int takes_exec(const validation *v, int i, const validation *earlier, int n_earlier)
{
    const measured_row *row = &v->s->rows[i];
    if (!row->ok || v->mode[i] != ROW_EXEC)
        return 0;
    for (int e = 0; e < n_earlier; e++) {
        if (memcmp(&earlier[e].card, &v->card, sizeof v->card) != 0)
            continue;
        for (int j = 0; j < earlier[e].s->n; j++) {
            const measured_row *q = &earlier[e].s->rows[j];
            if (q->ok && earlier[e].mode[j] == ROW_EXEC && strcmp(q->program, row->program) == 0 &&
                strcmp(q->params, row->params) == 0)
                return 0;
        }
    }
    return 1;
}

/* The point of `paper` measured by `row`; NULL if it has none (the model
 * refused it). */
static const vpoint *paper_point(const validation *paper, const measured_row *row)
{
    for (int i = 0; paper && i < paper->n; i++)
        if (paper->pts[i].row == row)
            return &paper->pts[i];
    return NULL;
}

/* The terms of a row's estimate (code_costs_terms) on a set of the code's
 * costs, on stderr when profiling: with the exec processes' times
 * (profile_child), what exec mode's constants are measured from
 * (instruction-stream.md, session 46). */
static void profile_terms(const measured_row *row, const validation *paper, const validation *v)
{
    const vpoint *p = paper && !is_user_case(row) ? paper_point(paper, row) : NULL;
    if (!profiling() || !p || !p->dag)
        return;
    exec_terms t = code_costs_terms(p->dag);
    fprintf(stderr, "validate profile: terms %s %s on %s: W %.6g N·l %.6g N %.6g L %.6g accesses %.6g ops %.6g %.6g %.6g %.6g %.6g\n",
            row->program, row->params, v->card.name, t.work, t.threads, t.blocks, t.launches, t.accesses,
            t.ops[OP_PLAIN], t.ops[OP_MULMOD], t.ops[OP_ADDMOD], t.ops[OP_PRIVATE], t.ops[OP_BARRIER]);
}

/* How a row's DAG is built: a user case's in exec mode always; on a set
 * of the code's costs (paper: the same points' set of the paper's costs)
 * a built-in case study's kernels written once in exec mode too, if its
 * worksheet DAG puts it within the budget (code_costs_estimate), the
 * counts' check runs it anyway (a point of the n_counted sessions
 * `counted`'s instructions.csv) or a conclusion's cell within the cells'
 * budget takes it (one of the n_wanted rows `wanted`,
 * conclusions_code_rows), else from the record where it holds the
 * point on machines m and off (written by `make validate-full` or a budgeted
 * step, MCMSIM_CODE_RECORD=write: code_record.c),
 * else not at all (named in the report, with its estimate in *estimate). */
static int row_mode(const measured_row *row, const validation *paper, const machine *m, const machine *off,
                    const session *counted, int n_counted, const measured_row *const *wanted, int n_wanted,
                    double *estimate)
{
    char source[1024];
    *estimate = -1;
    if (is_user_case(row))
        return ROW_EXEC;
    if (!paper)
        return ROW_WORKSHEET;
    const vpoint *p = paper_point(paper, row);
    if (!case_kernels_source(row->program, source, sizeof source) || !p)
        return ROW_NOT_RUN;
    *estimate = code_costs_estimate(p->dag);
    if (record.write && recorded(row, m, off))
        return ROW_RECORD; /* writing: an earlier run of this tree did it */
    int needed = 0;
    for (int i = 0; i < n_wanted; i++)
        needed |= wanted[i] == row;
    return needed || *estimate <= code_costs_budget() ||
                   code_costs_counted_anyway(counted, n_counted, row->program, row->params)
               ? ROW_EXEC
           : recorded(row, m, off) ? ROW_RECORD
                              : ROW_NOT_RUN;
}

/* Set v planned: the points of session s on machine m (off: the same
 * without the caches) and how each row's DAG is built (row_mode); a set of
 * the code's costs (paper: the same points' set of the paper's costs)
 * names those it does not run. */
static int set_plan(validation *v, const char *name, const char *title, const session *s, const machine *m,
                    const machine *off, int held_out_only, const validation *paper, const session *counted,
                    int n_counted)
{
    memset(v, 0, sizeof *v);
    snprintf(v->name, sizeof v->name, "%s", name);
    snprintf(v->title, sizeof v->title, "%s", title);
    snprintf(v->report_dir, sizeof v->report_dir, "%s/%s", REPORT_DIR, name);
    v->s = s;
    v->card = *m;
    v->card_off = *off;
    v->held_out_only = held_out_only;
    v->paper = paper;
    v->pts = calloc((size_t)s->n + 1, sizeof *v->pts);
    v->mode = calloc((size_t)s->n + 1, 1);
    v->not_run = calloc((size_t)s->n + 1, sizeof *v->not_run);
    v->not_run_estimate = calloc((size_t)s->n + 1, sizeof *v->not_run_estimate);
    const measured_row **wanted = calloc((size_t)s->n + 1, sizeof *wanted);
    if (!v->pts || !v->mode || !v->not_run || !v->not_run_estimate || !wanted) {
        free(wanted);
        return fail("validate: out of memory for set %s", name);
    }
    int n_wanted = paper ? conclusions_code_rows(paper, wanted, s->n) : 0;
    if (n_wanted < 0) {
        free(wanted);
        return -1;
    }
    for (int i = 0; i < s->n; i++) {
        double estimate;
        v->mode[i] = (char)row_mode(&s->rows[i], paper, m, off, counted, n_counted, wanted, n_wanted, &estimate);
        profile_terms(&s->rows[i], paper, v);
        if (v->mode[i] == ROW_NOT_RUN && s->rows[i].ok) {
            v->not_run_estimate[v->n_not_run] = estimate;
            v->not_run[v->n_not_run++] = &s->rows[i];
        }
    }
    free(wanted);
    return 0;
}

/* The memory row's exec process is expected to take, bytes: its
 * estimate's (EXEC_BYTES_PER_SECOND; a user case's, no worksheet: 0). */
static double exec_need(const validation *v, const measured_row *row)
{
    const vpoint *p = paper_point(v->paper, row);
    return p && p->dag ? EXEC_BYTES_PER_SECOND * code_costs_estimate(p->dag) : 0;
}

/* The rows of planned set v whose DAGs exec processes build, queued in
 * the order v takes them. */
static void set_queue(validation *v, const validation *earlier, int n_earlier, user_dags *u)
{
    for (int i = 0; i < v->s->n; i++)
        if (takes_exec(v, i, earlier, n_earlier))
            user_dags_add(u, &v->s->rows[i], &v->card, exec_need(v, &v->s->rows[i]));
}

/* Planned set v's DAGs built (those of exec mode taken from u), each point
 * held out as its paper's set's is, if v is a set of the code's costs (not
 * as the points run would split among themselves). */
static int set_build(validation *v, const validation *earlier, int n_earlier, user_dags *u)
{
    if (set_load_rows(v, earlier, n_earlier, u) < 0)
        return -1;
    split_every_other_n(v);
    for (int i = 0; v->paper && i < v->n; i++)
        v->pts[i].train = paper_point(v->paper, v->pts[i].row)->train;
    return 0;
}

/* A set of the paper's costs, planned and built, its exec processes its
 * own: without the caches, m with l1_words = 0 (its kernel boundary the
 * paper's count of the touch block, the same with the caches and without:
 * card.c, US_TO_CYCLES_LESS_TOUCH_BLOCK). */
static int set_load(validation *v, const char *name, const char *title, const session *s, const machine *m,
                    int held_out_only, const validation *earlier, int n_earlier)
{
    user_dags u = {0};
    machine off = *m;
    if (machine_set_field(&off, "l1_words", "0") <= 0)
        return fail("machine key l1_words = 0: %s", fail_message());
    int rc = set_plan(v, name, title, s, m, &off, held_out_only, NULL, NULL, 0) < 0 || user_dags_init(&u, s->n) < 0
                 ? -1
                 : 0;
    if (rc == 0) {
        set_queue(v, earlier, n_earlier, &u);
        rc = set_build(v, earlier, n_earlier, &u);
    }
    user_dags_end(&u);
    return rc;
}

/* Point p's figures from the record's entry e (no DAG: none is run). */
static void point_from_record(vpoint *p, const code_record_entry *e)
{
    p->dag = NULL;
    p->dag_shared = 1;
    p->recorded = 1;
    p->sim_ms = e->sim_ms;
    p->sim_ms_off = e->sim_ms_off;
    p->launches = e->launches;
    p->rounds = e->rounds;
    p->cached = e->cached;
}

/* set_build's rows, the exec processes' DAGs taken from u. */
static int set_load_rows(validation *v, const validation *earlier, int n_earlier, user_dags *u)
{
    const session *s = v->s;
    const machine *m = &v->card;
    for (int i = 0; i < s->n; i++) {
        const measured_row *row = &s->rows[i];
        if (!row->ok)
            return fail("%s:%d: the card's result check failed (check=FAIL): not a valid measurement",
                        row->file, row->line);
        if (v->mode[i] == ROW_NOT_RUN)
            continue; /* named in the report (v->not_run) */
        vpoint *p = &v->pts[v->n];
        p->row = row;
        if (v->mode[i] == ROW_RECORD) {
            point_from_record(p, recorded(row, m, &v->card_off));
            snprintf(v->record_made, sizeof v->record_made, "%s", record.r.made);
            v->n++;
            continue;
        }
        const vpoint *same = built_before(row, m, earlier, n_earlier);
        if (same) {
            p->dag = same->dag;
            p->dag_shared = 1;
            p->cached = same->cached;
        } else if (build_dag(row, m, v->mode[i] == ROW_EXEC, u, &p->dag) == 0)
            p->cached = ran_through_caches(p->dag);
        else {
            if (v->paper || !builtin_find(row->program) || v->n_refused == 64)
                return -1; /* exec mode failing on a point its worksheet takes: an error, never a point dropped */
            v->refused[v->n_refused] = row;
            snprintf(v->refused_why[v->n_refused++], sizeof v->refused_why[0], "%s", fail_message());
            continue;
        }
        if (v->paper && p->dag && !dag_counted(p->dag)) { /* none: an earlier set's, checked there */
            if (!p->dag_shared)
                kernel_dag_free(p->dag);
            return fail("%s:%d (%s %s): exec mode on %s counted no instructions (issue_rate 0?)", row->file,
                        row->line, row->program, row->params, m->name);
        }
        if (v->paper && record.write && !p->dag_shared && record_point(v, p) < 0)
            return -1;
        v->n++;
    }
    return 0;
}

/* Point p simulated (its job finished): its time (into sim_ms, or
 * without_caches sim_ms_off) and launches. */
static int point_done(vpoint *p, const machine *m, sim_job *job, int without_caches)
{
    sim_result *r = job->out;
    double before = processor_seconds(RUSAGE_CHILDREN);
    int finished = sim_finish(job);
    profile_child(without_caches ? "simulation without the caches" : "simulation", p->row, m, before);
    if (finished < 0)
        return fail("%s:%d (%s %s): %s", p->row->file, p->row->line, p->row->program, p->row->params,
                    fail_message());
    *(without_caches ? &p->sim_ms_off : &p->sim_ms) = r->T / m->clock_hz * 1e3;
    p->launches = r->costs.L_kernels;
    p->rounds = 0;
    for (int k = 0; k < p->dag->n; k++) /* blocks one SM takes in turn */
        p->rounds += ceil((double)p->dag->kernels[k].blocks / m->p);
    sim_result_free(r);
    return 0;
}

/* A point of an earlier set on the same machine with the same program
 * and params, run here: its figures are those p would get (a simulation
 * is a function of them).  NULL if none. */
static const vpoint *simulated_before(const vpoint *p, const validation *v, const validation *earlier, int n_earlier)
{
    for (int s = 0; s < n_earlier; s++) {
        if (memcmp(&earlier[s].card, &v->card, sizeof v->card) != 0)
            continue;
        for (int i = 0; i < earlier[s].n; i++) {
            const measured_row *q = earlier[s].pts[i].row;
            if (!earlier[s].pts[i].recorded && strcmp(q->program, p->row->program) == 0 &&
                strcmp(q->params, p->row->params) == 0)
                return &earlier[s].pts[i];
        }
    }
    return NULL;
}

/* A set's points under way (job_pool.h): point i's simulation, its
 * state. */
enum { POINT_DONE, POINT_SIMULATING, POINT_ANSWERED };

typedef struct set_run {
    validation *v;
    const validation *earlier;
    int n_earlier, without_caches;
    user_dags *beside;   /* exec processes running meanwhile (the code sets'), or NULL */
    machine m;
    sim_job *job;        /* per slot: point i's is job[i % jobs] */
    sim_result *result;
    int jobs;
    char *state;         /* per point: POINT_* */
} set_run;

/* Point i: its figures from an earlier set, or its simulation started. */
static int point_start(void *ctx, long i)
{
    set_run *s = ctx;
    vpoint *p = &s->v->pts[i];
    const vpoint *same = simulated_before(p, s->v, s->earlier, s->n_earlier);
    s->state[i] = POINT_DONE;
    if (p->recorded)
        return 0; /* its figures are the record's, both passes */
    if (same || (s->without_caches && !p->cached)) { /* done at once: no simulation for it */
        if (s->without_caches)
            p->sim_ms_off = same ? same->sim_ms_off : p->sim_ms;
        else {
            p->sim_ms = same->sim_ms;
            p->launches = same->launches;
            p->rounds = same->rounds;
        }
        return 0;
    }
    if (sim_start(p->dag, &s->m, NULL, &s->result[i % s->jobs], &s->job[i % s->jobs]) < 0)
        return fail("%s:%d (%s %s): %s", p->row->file, p->row->line, p->row->program, p->row->params,
                    fail_message());
    s->state[i] = POINT_SIMULATING;
    return 0;
}

static int point_fd(void *ctx, long i)
{
    set_run *s = ctx;
    return s->state[i] == POINT_SIMULATING ? s->job[i % s->jobs].fd : -1;
}

static void point_advance(void *ctx, long i, int ready)
{
    set_run *s = ctx;
    if (ready && s->state[i] == POINT_SIMULATING)
        s->state[i] = POINT_ANSWERED;
}

static int point_finish(void *ctx, long i)
{
    set_run *s = ctx;
    if (s->state[i] != POINT_ANSWERED)
        return 0;
    s->state[i] = POINT_DONE;
    return point_done(&s->v->pts[i], &s->m, &s->job[i % s->jobs], s->without_caches);
}

static void point_abandon(void *ctx, long i)
{
    set_run *s = ctx;
    if (s->state[i] != POINT_DONE)
        sim_abandon(&s->job[i % s->jobs]);
    s->state[i] = POINT_DONE;
}

static int beside_fds(void *ctx, int *fds, int max)
{
    set_run *s = ctx;
    return s->beside ? user_dags_fds(s->beside, fds, max) : 0;
}

static void beside_advance(void *ctx)
{
    set_run *s = ctx;
    if (s->beside)
        user_dags_move_on(s->beside);
}

/* Simulate every point of the set on its machine (graph launches), as
 * many at once as there are cores (job_pool.h).  A point simulated in an
 * earlier set (set b repeats set a's sizes on the same machine) is not
 * simulated again.  without_caches: on the machine without the caches of
 * exec mode (card_off), the points that ran through them only (into
 * sim_ms_off; the others' sim_ms_off is their sim_ms).  The exec processes `beside` (NULL:
 * none) move on meanwhile. */
static int set_simulate(validation *v, const validation *earlier, int n_earlier, int without_caches,
                        user_dags *beside)
{
    set_run s = {v, earlier, n_earlier, without_caches, beside, without_caches ? v->card_off : v->card,
                 NULL, NULL, 0, NULL};
    if (machine_set_field(&s.m, "launch", "graph") <= 0)
        return fail("machine key launch = graph: %s", fail_message());
    s.jobs = cores_to_use();
    s.job = calloc((size_t)s.jobs, sizeof *s.job);
    s.result = calloc((size_t)s.jobs, sizeof *s.result);
    s.state = calloc((size_t)v->n + 1, 1);
    job_pool pool = {&s, point_start, point_fd, point_advance, point_finish, point_abandon, s.jobs, 1000,
                     beside_fds, beside_advance};
    int rc = s.job && s.result && s.state ? job_pool_run(&pool, v->n, NULL)
                                          : fail("validate: out of memory for %d simulations at once", s.jobs);
    free(s.job);
    free(s.result);
    free(s.state);
    return rc;
}

static void set_free(validation *v)
{
    for (int i = 0; i < v->n; i++)
        if (!v->pts[i].dag_shared)
            kernel_dag_free(v->pts[i].dag);
    free(v->pts);
    free(v->mode);
    free(v->not_run);
    free(v->not_run_estimate);
}

/* The DAGs of sets[0 .. n), simulated, given back (their points keep their
 * figures; a shared DAG is its first set's), and the heap's free pages with
 * them: every process forked after this (the code sets' simulations and
 * exec processes) copies this one's page tables and tears them down on exit
 * (validate/notes/instruction-stream.md, session 46).  Nothing reads a
 * paper set's DAG once it is simulated: the code sets' estimates were taken
 * when they were planned. */
static void sets_drop_dags(validation *sets, int n)
{
    for (int s = 0; s < n; s++)
        for (int i = 0; i < sets[s].n; i++) {
            vpoint *p = &sets[s].pts[i];
            if (!p->dag_shared)
                kernel_dag_free(p->dag);
            p->dag = NULL;
            p->dag_shared = 1;
        }
    malloc_trim(0);
}

/* Set v's plots (write_plots), their gnuplot processes' time profiled. */
static int plots_written(const validation *v)
{
    double before = processor_seconds(RUSAGE_CHILDREN), start = wall_seconds();
    int rc = write_plots(v);
    if (profiling())
        fprintf(stderr, "validate profile: plots of %s: %.2f s processor, %.1f to %.1f s wall\n", v->name,
                processor_seconds(RUSAGE_CHILDREN) - before, start, wall_seconds());
    return rc;
}

/* The DAGs of code set v's points given back once simulated, but those
 * the counts' check reads (a point of one of the n_cards cards'
 * sessions' instructions.csv, code_costs.c): nothing else reads them, and
 * `make validate-full`'s largest points would hold gigabytes.  A later
 * set's same point then takes these figures (simulated_before). */
static void code_set_drop_dags(validation *v, const session *const *cards, const int *n_sessions, int n_cards)
{
    for (int i = 0; i < v->n; i++) {
        vpoint *p = &v->pts[i];
        int counted = 0;
        for (int c = 0; c < n_cards; c++)
            counted |= code_costs_counted_anyway(cards[c], n_sessions[c], p->row->program, p->row->params);
        if (p->dag_shared || counted)
            continue;
        kernel_dag_free(p->dag);
        p->dag = NULL;
        p->dag_shared = 1;
    }
    malloc_trim(0);
}

/* Figures of a point's DAG on machine card as set_simulate and point_done
 * take them: graph launches, T in ms, L, Σ ⌈blocks/P⌉; on off (the same
 * without the caches, card_off) too where it ran through them.  -1 with
 * fail(). */
static int simulate_now(const kernel_dag *dag, const machine *card, const machine *off, code_record_entry *e)
{
    machine m = *card;
    sim_result r;
    e->cached = ran_through_caches(dag);
    if (machine_set_field(&m, "launch", "graph") <= 0 || sim_run(dag, &m, NULL, &r) < 0)
        return -1;
    e->sim_ms = r.T / m.clock_hz * 1e3;
    e->launches = r.costs.L_kernels;
    sim_result_free(&r);
    e->rounds = 0;
    for (int k = 0; k < dag->n; k++)
        e->rounds += ceil((double)dag->kernels[k].blocks / m.p);
    e->sim_ms_off = e->sim_ms;
    if (!e->cached)
        return 0;
    m = *off;
    if (machine_set_field(&m, "launch", "graph") <= 0 || sim_run(dag, &m, NULL, &r) < 0)
        return -1;
    e->sim_ms_off = r.T / m.clock_hz * 1e3;
    sim_result_free(&r);
    return 0;
}

/* Writing the record (MCMSIM_CODE_RECORD=write: `make validate-full` or a step):
 * point p of code set v, its DAG just built, simulated now and its
 * figures added to the record, the file written again, so that a run cut
 * short keeps every point it finished (and a run after it, the same
 * tree's, takes them from the record instead of running them again). */
static int record_point(const validation *v, const vpoint *p)
{
    code_record_entry e;
    memset(&e, 0, sizeof e);
    if (simulate_now(p->dag, &v->card, &v->card_off, &e) < 0)
        return fail("%s:%d (%s %s): %s", p->row->file, p->row->line, p->row->program, p->row->params,
                    fail_message());
    code_record_key(record.sources, p->row->program, p->row->params, &v->card, &v->card_off, e.key);
    snprintf(e.program, sizeof e.program, "%s", p->row->program);
    snprintf(e.params, sizeof e.params, "%s", p->row->params);
    snprintf(e.machine, sizeof e.machine, "%.63s", v->card.name);
    return code_record_add(&record.r, &e) < 0 || code_record_save(&record.r, CODE_RECORD, record.sources) < 0 ? -1
                                                                                                             : 0;
}

/* Writing the record: every point code set v ran here has the figures
 * the record took for it (record_point against set_simulate: the same
 * simulation, run twice); -1 with fail() where one differs. */
static int record_check(const validation *v)
{
    for (int i = 0; i < v->n; i++) {
        const vpoint *p = &v->pts[i];
        char key[CODE_RECORD_KEY];
        code_record_key(record.sources, p->row->program, p->row->params, &v->card, &v->card_off, key);
        const code_record_entry *e = code_record_find(&record.r, key);
        if (!p->recorded && (!e || e->sim_ms != p->sim_ms || e->sim_ms_off != p->sim_ms_off ||
                             e->launches != p->launches || e->rounds != p->rounds || e->cached != p->cached))
            return fail("%s:%d (%s %s) on %s: the record's figures are not the set's simulation's", p->row->file,
                        p->row->line, p->row->program, p->row->params, v->card.name);
    }
    return 0;
}

/* Set v of the code's costs (the cases written once, on the card's code
 * machine): built (its exec processes' DAGs from `ahead`), simulated
 * (reusing the earlier code sets' points), with the caches and without
 * them, and its points and plots written; its errors go into the code's
 * costs' section (code_costs.c) and its caches' table after it. */
static int run_code_set(validation *v, const validation *earlier, int n_earlier, user_dags *ahead)
{
    if (set_build(v, earlier, n_earlier, ahead) < 0)
        return -1;
    fprintf(stderr, "validate: set %s (%s)...\n", v->name, v->title);
    profile_phase(v->name);
    if (set_simulate(v, earlier, n_earlier, 0, ahead) < 0 || set_simulate(v, earlier, n_earlier, 1, ahead) < 0)
        return -1;
    mkdir(v->report_dir, 0755);
    return write_points(v) < 0 || write_caches_points(v) < 0 || plots_written(v) < 0 ? -1 : 0;
}

/* ---- the noise floor ---------------------------------------------------- */

static void print_noise(FILE *f, const session *a, const session *b)
{
    agreement g[64];
    int k = sessions_agreement(a, b, g, 64);
    if (k == 0 || g[k - 1].n == 0)
        return; /* no case study measured in both */
    fprintf(f, "Sessions `%s` and `%s` of the %s: ratio of medians t(%s)/t(%s) per point; "
               "median over the points and worst factor max(r, 1/r).\n\n",
            a->name, b->name, a->card, b->name, a->name);
    if (a->one_graph != b->one_graph)
        fprintf(f, "The two sessions timed their graphs by different protocols (`%s` with every graph of a "
                   "series alive, `%s` with one alive at a time; cuda_ref/README.md): the graph ratios hold "
                   "the protocol's effect, not only noise.\n\n",
                a->one_graph ? b->name : a->name, a->one_graph ? a->name : b->name);
    fprintf(f, "| case | points | wall: median ratio | wall: worst | graph: median ratio | graph: worst | "
               "graph: median abs. deviation |\n|---|---|---|---|---|---|---|\n");
    for (int i = 0; i < k; i++)
        if (g[i].n > 0)
            fprintf(f, "| %s | %d | %.3f | %.3f | %.3f | %.3f | %.1f%% |\n",
                    g[i].program[0] ? g[i].program : "**all**", g[i].n, g[i].wall_median, g[i].wall_worst,
                    g[i].graph_median, g[i].graph_worst, 100 * g[i].graph_abs_median);
    fprintf(f, "\n");
}

/* Every pair of sessions of the current protocol of one card: its table
 * case by case to `pairs`, its whole-card line to stdout; and the card's
 * row of the report's table to `row`: its newest pair, and the spread
 * over all its pairs. */
static void print_noise_all(FILE *pairs, FILE *row, const session *s, int n)
{
    int count = 0, mixed = 0;
    agreement newest = {0};
    const char *newer = "", *older = "";
    double dev_lo = INFINITY, dev_hi = 0, worst = 0;
    for (int j = n; (j = sessions_last_new(s, j)) >= 0;)
        for (int i = j; (i = sessions_last_new(s, i)) >= 0;) {
            print_noise(pairs, &s[i], &s[j]);
            agreement g[64];
            int k = sessions_agreement(&s[i], &s[j], g, 64);
            if (k == 0 || g[k - 1].n == 0)
                continue;
            const agreement *all = &g[k - 1];
            printf("noise floor %s %s/%s: %d %s, graph median ratio %.3f, worst %.3f, "
                   "median |r-1| %.1f%%; wall median %.3f, worst %.3f\n",
                   s[j].card, s[j].name, s[i].name, all->n, plural(all->n, "point", "points"), all->graph_median,
                   all->graph_worst, 100 * all->graph_abs_median, all->wall_median, all->wall_worst);
            if (s[i].one_graph != s[j].one_graph) { /* the protocol's effect, not noise: not in the spread */
                mixed++;
                continue;
            }
            if (count++ == 0) {
                newest = *all;
                newer = s[j].name;
                older = s[i].name;
            }
            dev_lo = fmin(dev_lo, all->graph_abs_median);
            dev_hi = fmax(dev_hi, all->graph_abs_median);
            worst = fmax(worst, all->graph_worst);
        }
    if (count > 0)
        fprintf(row, "| %s | `%s` / `%s` | %d | %.3f | %.3f | %.1f %% | %d (%d left out) | %.1f to %.1f %% | %.3f |\n",
                s[0].card, older, newer, newest.n, newest.graph_median, newest.graph_worst,
                100 * newest.graph_abs_median, count, mixed, 100 * dev_lo, 100 * dev_hi, worst);
}

/* ---- main --------------------------------------------------------------- */

typedef struct cards {
    session *h100, *h200;
    int n_h100, n_h200;
    int ref100, ref200;         /* the reference sessions (their constants); ref200 -1 if none */
    char passed100[512], passed200[512]; /* newer sessions passed over as reference (card_reference) */
    session a, b, c;            /* the points of sets a, b, c, each case from its own session */
    /* a: each case's newest H100 session, b: the one before it, c: its newest H200 one */
} cards;

static int load_cards(cards *k)
{
    if (sessions_load("h100", &k->h100, &k->n_h100) < 0 || sessions_load("h200", &k->h200, &k->n_h200) < 0)
        return -1;
    k->ref100 = card_reference(k->h100, k->n_h100, k->passed100, sizeof k->passed100);
    k->ref200 = card_reference(k->h200, k->n_h200, k->passed200, sizeof k->passed200);
    if (k->ref100 < 0)
        return fail("validate/data/h100/: no session of the current protocol (cuda_ref/run-all.sh h100)");
    if (sessions_compose(k->h100, k->n_h100, 0, &k->a) < 0 || sessions_compose(k->h100, k->n_h100, 1, &k->b) < 0 ||
        sessions_compose(k->h200, k->n_h200, 0, &k->c) < 0)
        return -1;
    return 0;
}

static void cards_free(cards *k)
{
    session *composed[] = {&k->a, &k->b, &k->c};
    for (int i = 0; i < 3; i++)
        free(composed[i]->rows);
    sessions_free(k->h100, k->n_h100);
    sessions_free(k->h200, k->n_h200);
}

/* Set v, after the n_earlier sets before it (whose points it may reuse),
 * the exec processes `ahead` moving on meanwhile. */
static int run_set(FILE *section, validation *v, set_verdicts *verdicts, const validation *earlier, int n_earlier,
                   user_dags *ahead)
{
    fprintf(stderr, "validate: set %s (%s)...\n", v->name, v->title);
    profile_phase(v->name);
    if (set_simulate(v, earlier, n_earlier, 0, ahead) < 0 || set_simulate(v, earlier, n_earlier, 1, ahead) < 0)
        return -1;
    mkdir(v->report_dir, 0755);
    if (write_points(v) < 0 || write_caches_points(v) < 0 || plots_written(v) < 0 ||
        write_set_report(section, v, verdicts) < 0 || write_caches_table(section, v) < 0)
        return -1;
    error_stats all = validation_errors(v, NULL, validation_split(v));
    printf("set %s: %d %s, median %.1f%%, p90 %.1f%%, Spearman %.3f\n", v->name, all.n,
           plural(all.n, "point", "points"), 100 * all.median, 100 * all.p90, all.spearman);
    return 0;
}

/* A text written piece by piece (open_memstream), then taken whole. */
typedef struct text {
    char *buf;
    size_t len;
    FILE *f;
} text;

static int text_open(text *t)
{
    t->buf = NULL;
    t->len = 0;
    t->f = open_memstream(&t->buf, &t->len);
    return t->f ? 0 : fail("validate: out of memory");
}

static const char *text_close(text *t)
{
    if (t->f)
        fclose(t->f);
    t->f = NULL;
    return t->buf ? t->buf : "";
}

/* validate/report/noise-floor.md (every pair, case by case), and the
 * report's table: a row per card. */
static int write_noise(const cards *k, text *table)
{
    FILE *pairs = fopen(REPORT_DIR "/noise-floor.md", "w");
    if (!pairs)
        return fail("%s/noise-floor.md: cannot write", REPORT_DIR);
    fprintf(pairs, "# The noise floor, pair by pair\n\n"
                   "Generated by `make validate` from `validate/data/` (do not edit).  Every two sessions of a card\n"
                   "of the current protocol, case by case; REPORT.md has one row per card.\n\n");
    fprintf(table->f, "How far two sessions of a card agree on the same points (the graph times; ratio of the "
                      "medians, newer over older): no model error below it can be claimed.  Per card, its newest "
                      "pair, and over all its pairs of the current protocol the range of the median absolute "
                      "deviation and the worst point; a pair whose two sessions timed their graphs by different "
                      "protocols (every graph of a series alive, or one at a time: cuda_ref/README.md) holds the "
                      "protocol's effect, not noise, and is left out.  Every pair, case by case: "
                      "[noise-floor.md](noise-floor.md).\n\n"
                      "| card | newest pair | points | median ratio | worst point | median abs. deviation | pairs | "
                      "all pairs: median abs. deviation | all pairs: worst point |\n"
                      "|---|---|---|---|---|---|---|---|---|\n");
    if (k->b.n == 0)
        fprintf(pairs, "Only one H100 session of the current protocol: no noise floor yet.\n\n");
    print_noise_all(pairs, table->f, k->h100, k->n_h100);
    print_noise_all(pairs, table->f, k->h200, k->n_h200);
    fprintf(table->f, "\n");
    return fclose(pairs) == 0 ? 0 : fail("%s/noise-floor.md: write error", REPORT_DIR);
}

int main(int argc, char **argv)
{
    (void)argv;
    if (argc != 1) {
        fprintf(stderr, "usage: validate   (reads validate/data/, writes validate/report/ and the card presets)\n");
        return 2;
    }
    if (chdir(MCMSIM_DATADIR) != 0) { /* every path in the report is relative to it */
        fprintf(stderr, "validate: cannot enter %s\n", MCMSIM_DATADIR);
        return 1;
    }
    profile_phase("start");
    cards k = {0};
    machine h100, h200, h100_code, h200_code, h100_code_off, h200_code_off;
    validation sets[3], codes[3];
    static set_verdicts verdicts[3];
    int n_sets = 0;
    user_dags ahead = {0}; /* the code sets' exec processes */
    FILE *report = NULL;
    text noise = {0}, machines = {0}, sections = {0};
    if (code_costs_budget() < 0 || code_costs_cell_budget() < 0 || record_open() < 0 || load_cards(&k) < 0 ||
        card_machine_named(&k.h100[k.ref100], NULL, "h100", &h100) < 0)
        goto failed;
    if (k.ref200 >= 0 && card_machine_named(&k.h200[k.ref200], &k.h100[k.ref100], "h200", &h200) < 0)
        goto failed;
    mkdir(REPORT_DIR, 0755);
    if (text_open(&noise) < 0 || text_open(&machines) < 0 || text_open(&sections) < 0 || write_noise(&k, &noise) < 0)
        goto failed;
    fprintf(machines.f, "A card's machine: the constants of its reference session, the newest of those that\n"
                        "measured the most case studies (H100 `%s`%s%s%s).  Each case study's points come from\n"
                        "the newest session that measured it (set b: the one before that).\n\n",
            k.h100[k.ref100].name, k.ref200 >= 0 ? ", H200 `" : "", k.ref200 >= 0 ? k.h200[k.ref200].name : "",
            k.ref200 >= 0 ? "`" : "");
    if (k.passed100[0] || k.passed200[0])
        fprintf(machines.f, "Passed over as reference, a machine constant read unsteadily (its readings before and "
                            "after the cases more than %.0f %% apart; a graph's start and a launch from the host "
                            "aside, which a process draws): %s%s%s.\n\n",
                100 * STEADY_SPREAD, k.passed100, k.passed100[0] && k.passed200[0] ? ", " : "", k.passed200);
    if (set_load(&sets[n_sets], "a", "each case's newest H100 session, held-out half", &k.a, &h100, 1, sets, n_sets) <
        0)
        goto failed;
    n_sets++;
    if (k.b.n > 0) {
        if (set_load(&sets[n_sets], "b", "each case's H100 session before it, every point, same machine", &k.b,
                     &h100, 0, sets, n_sets) < 0)
            goto failed;
        n_sets++;
    }
    if (k.c.n > 0 && k.ref200 >= 0) {
        if (set_load(&sets[n_sets], "c", "each case's newest H200 session, every point, its own constants", &k.c,
                     &h200, 0, sets, n_sets) < 0)
            goto failed;
        n_sets++;
    }
    for (int i = 0; i < n_sets; i++) { /* the sessions whose repeats decide the card's best verdicts */
        sets[i].sessions = sets[i].s == &k.c ? k.h200 : k.h100;
        sets[i].n_sessions = sets[i].s == &k.c ? k.n_h200 : k.n_h100;
    }
    if (card_code_machine(&k.h100[k.ref100], NULL, &h100, &h100_code) < 0 ||
        card_code_machine_without_caches(&k.h100[k.ref100], NULL, &h100, &h100_code_off) < 0 ||
        (k.ref200 >= 0 && (card_code_machine(&k.h200[k.ref200], &k.h100[k.ref100], &h200, &h200_code) < 0 ||
                           card_code_machine_without_caches(&k.h200[k.ref200], &k.h100[k.ref100], &h200,
                                                            &h200_code_off) < 0)))
        goto failed;
    /* The code sets planned, their exec processes queued to run while the
     * paper's sets are simulated. */
    int queued = 0;
    for (int i = 0; i < n_sets; i++)
        queued += sets[i].s->n;
    if (user_dags_init(&ahead, queued) < 0)
        goto failed;
    for (int i = 0; i < n_sets; i++) {
        char name[8], title[300];
        snprintf(name, sizeof name, "%.1s-code", sets[i].name);
        snprintf(title, sizeof title, "%s; the code's costs", sets[i].title);
        int on_h200 = sets[i].s == &k.c; /* the counts' check runs on h100_code (write_code_costs) */
        if (set_plan(&codes[i], name, title, sets[i].s, on_h200 ? &h200_code : &h100_code,
                     on_h200 ? &h200_code_off : &h100_code_off, sets[i].held_out_only,
                     &sets[i], on_h200 ? NULL : k.h100, on_h200 ? 0 : k.n_h100) < 0)
            goto failed;
        set_queue(&codes[i], codes, i, &ahead);
    }
    profile_phase("the sets built, the code sets planned");
    for (int i = 0; i < n_sets; i++)
        if (run_set(sections.f, &sets[i], &verdicts[i], sets, i, &ahead) < 0)
            goto failed;
    if (write_scatter(sets, n_sets, REPORT_DIR, "scatter", "The paper's costs, every point the sets score:") < 0)
        goto failed;
    sets_drop_dags(sets, n_sets);
    profile_phase("the paper sets' DAGs given back");
    report = fopen(REPORT_DIR "/REPORT.md", "w");
    if (!report) {
        fail("%s/REPORT.md: cannot write", REPORT_DIR);
        goto failed;
    }
    const session *all_cards[2] = {k.h100, k.h200};
    int n_sessions[2] = {k.n_h100, k.n_h200};
    for (int i = 0; i < n_sets; i++) {
        if (run_code_set(&codes[i], codes, i, &ahead) < 0)
            goto failed;
        if (record.write && record_check(&codes[i]) < 0)
            goto failed;
        code_set_drop_dags(&codes[i], all_cards, n_sessions, 2);
    }
    user_dags_end(&ahead);
    if (write_scatter(codes, n_sets, REPORT_DIR, "scatter-code", "The code's costs, every point run in exec mode:") < 0)
        goto failed;
    profile_phase("the counts' check and the code's conclusions");
    if (write_code_costs(sections.f, sets, codes, n_sets, &h100_code, all_cards, n_sessions, 2) < 0)
        goto failed;
    for (int i = 0; i < n_sets; i++)
        if (write_caches_table(sections.f, &codes[i]) < 0)
            goto failed;
    for (int i = 0; i < n_sets; i++)
        if (write_code_conclusions(sections.f, &sets[i], &codes[i], &verdicts[i]) < 0)
            goto failed;
    if (write_handwritten(sections.f, all_cards, n_sessions, 2) < 0)
        goto failed;
    int unnamed = 0;
    if (write_report(report, sets, verdicts, n_sets, MISSING_TERMS, text_close(&machines), text_close(&sections),
                     text_close(&noise), &unnamed) < 0)
        goto failed;
    if (unnamed > 0)
        printf("targets: %d %s with no term named in %s (REPORT.md says which)\n", unnamed,
               plural(unnamed, "miss", "misses"), MISSING_TERMS);
    if (card_write_preset(&h100, &k.h100[k.ref100], NULL, "machine/h100.cfg") < 0 ||
        card_write_preset(&h100_code, &k.h100[k.ref100], NULL, "machine/h100-code.cfg") < 0 ||
        (k.ref200 >= 0 && card_write_preset(&h200, &k.h200[k.ref200], &k.h100[k.ref100], "machine/h200.cfg") < 0) ||
        (k.ref200 >= 0 &&
         card_write_preset(&h200_code, &k.h200[k.ref200], &k.h100[k.ref100], "machine/h200-code.cfg") < 0))
        goto failed;
    if (fclose(report) != 0) {
        report = NULL;
        fail("%s/REPORT.md: write error", REPORT_DIR);
        goto failed;
    }
    for (int i = 0; i < n_sets; i++) {
        set_free(&sets[i]);
        set_free(&codes[i]);
    }
    cards_free(&k);
    code_record_free(&record.r);
    free(noise.buf);
    free(machines.buf);
    free(sections.buf);
    profile_phase("end");
    fprintf(stderr, "validate: wrote %s/REPORT.md\n", REPORT_DIR);
    return 0;
failed:
    user_dags_end(&ahead);
    if (report)
        fclose(report);
    text_close(&noise);
    text_close(&machines);
    text_close(&sections);
    free(noise.buf);
    free(machines.buf);
    free(sections.buf);
    fprintf(stderr, "validate: %s\n", fail_message());
    return 1;
}
