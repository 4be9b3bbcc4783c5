/*
 * main.c — the mcmsim command.
 *
 *   mcmsim run FILE.cfg [--machine NAME|FILE] [--set key=value]... [--format text|json|csv]
 *                       [--trace FILE.csv] [--paje FILE.trace] [--exec]
 *                       [--jobs N] [--progress] [--block-by-block] [--shard K/N]
 *   mcmsim compare FILE.cfg [--machine NAME|FILE] [--set key=value]...
 *   mcmsim plot FILE.cfg -o OUT.svg|OUT.png [--kind gantt|sweep|costs|speedup|warps] [--machine NAME|FILE]
 *                        [--set key=value]...
 *   mcmsim merge A.csv B.csv ...
 *   mcmsim list
 *   mcmsim --help | --version
 *
 * `run` simulates every point of the run file, then prints them all; any
 * error stops it with one message on stderr and exit status 1.  The points
 * of a sweep simulate on every core (--jobs), each in its own child
 * process (in exec mode first an exec process runs the program, whose
 * launches take the cores the points leave: sim/exec/exec_process.h), and are
 * reported in the sweep's order: the output is the same whatever the
 * jobs.  --shard runs a share of the points, whose CSV `merge` puts back
 * together (sim/app/shard.h).  A point on
 * a DMM or a UMM machine (kind dmm/umm) runs the program's memory accesses
 * (sim/model/dmm_umm.h) instead of the MCM engine; a run is all MCM or all
 * DMM/UMM (cycles and time units do not share a table).
 */
#include "compare.h"
#include "engine.h"
#include "fail.h"
#include "job_pool.h"
#include "lifetime.h"
#include "paje.h"
#include "plot.h"
#include "program.h"
#include "progress.h"
#include "report.h"
#include "runfile.h"
#include "shard.h"

#include <dirent.h>
#include <errno.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MCMSIM_VERSION "0.1.0"
#define JOBS_MAX JOB_POOL_MAX /* simulations at once: each is a process */

static void usage(FILE *out)
{
    fprintf(out,
            "mcmsim %s — a simulator of the many-core machine (MCM) model of GPUs\n\n"
            "usage:\n"
            "  mcmsim run FILE.cfg [--machine NAME|FILE] [--set key=value]... [--format text|json|csv]\n"
            "                      [--trace FILE.csv] [--paje FILE.trace] [--exec] [--jobs N] [--progress]\n"
            "                      [--block-by-block] [--shard K/N]\n"
            "  mcmsim compare FILE.cfg [--machine NAME|FILE] [--set key=value]...   state the run file's conclusion\n"
            "  mcmsim plot FILE.cfg -o OUT.svg|OUT.png [--kind gantt|sweep|costs|speedup|warps] [--machine NAME|FILE]\n"
            "                         [--set key=value]...\n"
            "                         a picture: gantt (the schedule, default without a sweep),\n"
            "                         sweep (T and the Theorem 1 figure against the sweep),\n"
            "                         costs (where the time goes: T split into its parts),\n"
            "                         speedup (T(1)/T(P), the work and span laws), warps\n"
            "                         (a DMM/UMM step's banks and address groups; their default\n"
            "                         but for a sweep along a size)\n"
            "  mcmsim merge A.csv B.csv ...   the CSV of shards (run --shard K/N) as one run writes it\n"
            "  mcmsim list            machine presets (and where each one's numbers come from)\n"
            "                         and built-in programs\n"
            "  mcmsim --help | --version\n\n"
            "  --machine NAME|FILE  the machine of every point, in place of the run file's: a preset\n"
            "                    (mcmsim list) or a machine file (the same as --set machine=...)\n"
            "  --set key=value   override a program param or a machine field;\n"
            "                    machine.key / params.key when a name is both\n"
            "                    (machine fields: %s)\n"
            "  --format          text (default), json, or csv (one row per sweep point)\n"
            "  --trace FILE.csv  one row per thread-block: kernel,block,sm,start,end,\n"
            "                    read_end,write_start (when its reads ended, its writes began)\n"
            "  --paje FILE.trace the schedule as a Paje trace (pajeng, ViTE): SMs as\n"
            "                    containers, thread-blocks as states valued by kernel\n"
            "  --exec            exec mode: run the case study's kernels for real on random\n"
            "                    inputs, check the result against a serial reference, and\n"
            "                    simulate the costs the kernels really had\n"
            "  --jobs N          use N cores (default: all): N sweep points at once, each\n"
            "                    in its own process; exec mode's launches take the cores\n"
            "                    the other points leave; the output is the same whatever N\n"
            "  --shard K/N       simulate only every N-th point from the K-th (CSV only;\n"
            "                    mcmsim merge puts the N shards' files back together)\n"
            "  --progress        points done and time left (or a run's blocks) on stderr;\n"
            "                    on by default when stderr is a terminal\n"
            "  --block-by-block  no waves: simulate every thread-block as its own event\n"
            "                    (the same results, slower; waves: sim/README.md)\n",
            MCMSIM_VERSION, machine_field_names());
}

static int die(void)
{
    fprintf(stderr, "mcmsim: %s\n", fail_message());
    return 1;
}

static int cmd_list(void)
{
    printf("machine presets (%s):\n", machine_preset_dir());
    struct dirent **entries;
    int n = scandir(machine_preset_dir(), &entries, NULL, alphasort);
    for (int i = 0; i < n; i++) {
        const char *file = entries[i]->d_name;
        size_t len = strlen(file);
        if (len >= 5 && strcmp(file + len - 4, ".cfg") == 0) {
            char path[2048], name[256];
            snprintf(path, sizeof path, "%s/%s", machine_preset_dir(), file);
            snprintf(name, sizeof name, "%.*s", (int)(len - 4), file);
            machine m;
            machine_defaults(&m);
            if (machine_load_file(&m, path) < 0)
                printf("  %-14s (unreadable: %s)\n", name, fail_message());
            else
                printf("  %-14s P = %-4d U = %-6g Z = %-7g policy %s\n  %-14s from: %s\n", name, m.p, m.u, m.z,
                       memory_policy_name(m.policy), "", m.source[0] ? m.source : "(its file does not say)");
        }
        free(entries[i]);
    }
    if (n >= 0)
        free(entries);
    printf("\nbuilt-in programs:\n");
    for (const builtin_program *const *b = builtin_programs(); *b; b++)
        printf("  %-16s %s\n  %-16s params: %s\n", (*b)->name, (*b)->summary, "",
               (*b)->defaults[0] ? (*b)->defaults : "none");
    return 0;
}

typedef struct run_options {
    const char *file, *trace, *paje;
    char paje_csv[1100];   /* --paje without --trace: the temporary trace */
    char trace_part[1100]; /* --trace FILE is written as FILE.part, renamed when whole */
    char machine_set[1100]; /* --machine NAME|FILE, as the assignment machine=NAME|FILE */
    report_format format;
    int exec;     /* --exec: run the kernels for real, simulate what they did */
    int jobs;     /* --jobs: simulations at once (default: the cores) */
    int progress; /* --progress, or stderr is a terminal */
    int block_by_block; /* --block-by-block: no waves */
    long shard, shards; /* --shard K/N: the points of shard K of N; shards 0 without */
    char **sets;
    int n_sets;
} run_options;

/* --jobs N: a whole number from 1 to JOBS_MAX. */
static int parse_jobs(const char *value, int *jobs)
{
    char *end;
    errno = 0;
    long n = strtol(value, &end, 10);
    if (errno || end == value || *end || n < 1 || n > JOBS_MAX)
        return fail("--jobs %s: expected a whole number of simulations at once, from 1 to %d", value, JOBS_MAX);
    *jobs = (int)n;
    return 0;
}

/* The options of `run` that take a value. */
static const char *const value_options[] = {"--set", "--format", "--trace", "--paje", "--jobs", "--shard",
                                            "--machine", NULL};

static int takes_value(const char *a)
{
    for (int k = 0; value_options[k]; k++)
        if (strcmp(a, value_options[k]) == 0)
            return 1;
    return 0;
}

/* Option argv[i] = a, of one value, is not given before it (--set and
 * --machine excepted: runfile.c takes one value per key, the machine
 * included): a second value is refused, never taken in place of the first. */
static int given_twice(char **argv, int i, const char *a, const char *value)
{
    if (strcmp(a, "--set") == 0 || strcmp(a, "--machine") == 0)
        return 0;
    for (int j = 2; j < i; j++)
        if (strcmp(argv[j], a) == 0)
            return fail("%s %s: %s is given twice (%s, then %s): one at a time", a, value, a, argv[j + 1], value);
        else if (takes_value(argv[j]))
            j++; /* its value */
    return 0;
}

/* Paths a and b name one file: the same text, or the same file on disk. */
static int same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    return strcmp(a, b) == 0 ||
           (stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino);
}

/* A file the command will write (`flag` names it), checked before any
 * simulation: not a folder, in a folder that exists and may be written,
 * where a run failed only after simulating, with "cannot open". */
static int writable_place(const char *flag, const char *path)
{
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        return fail("%s %s: is a folder; name a file to write", flag, path);
    char dir[1100];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else
        slash[slash == dir] = '\0'; /* "/x": the folder "/" */
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode) || access(dir, W_OK | X_OK) != 0)
        return fail("%s %s: cannot write in its folder %s: %s", flag, path, dir,
                    stat(dir, &st) == 0 && !S_ISDIR(st.st_mode) ? "not a folder" : strerror(errno));
    return 0;
}

/* What --trace and --paje write is neither the run file nor each other,
 * where a trace overwrote the run file, or the Paje file read its own
 * trace's place and left a file that looked whole. */
static int outputs_apart(const run_options *o)
{
    const char *out[2] = {o->trace, o->paje}, *flag[2] = {"--trace", "--paje"};
    for (int i = 0; i < 2; i++)
        if (out[i] && same_file(out[i], o->file))
            return fail("%s %s: that is the run file: name another file to write (the run file is read, never "
                        "written)", flag[i], out[i]);
    if (o->trace && o->paje && same_file(o->trace, o->paje))
        return fail("--paje %s: --trace writes that file too: name two files", o->paje);
    for (int i = 0; i < 2; i++)
        if (out[i] && writable_place(flag[i], out[i]) < 0)
            return -1;
    return 0;
}

static int parse_run_args(int argc, char **argv, run_options *o)
{
    memset(o, 0, sizeof *o);
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    o->jobs = cores < 1 ? 1 : cores > JOBS_MAX ? JOBS_MAX : (int)cores;
    o->progress = isatty(STDERR_FILENO);
    o->sets = calloc((size_t)argc, sizeof *o->sets);
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        const char *value = i + 1 < argc ? argv[i + 1] : NULL;
        if (takes_value(a)) {
            if (!value)
                return fail("%s needs a value (mcmsim --help)", a);
            if (given_twice(argv, i, a, value) < 0)
                return -1;
            i++;
            if (a[2] == 'm') {
                if (o->machine_set[0])
                    return fail("--machine %s: one machine at a time (sweep = { machine = [...]; } compares "
                                "several)", value);
                snprintf(o->machine_set, sizeof o->machine_set, "machine=%s", value);
                o->sets[o->n_sets++] = o->machine_set;
            } else if (strcmp(a, "--shard") == 0) {
                if (shard_parse(value, &o->shard, &o->shards) < 0)
                    return -1;
            } else if (a[2] == 'j') {
                if (parse_jobs(value, &o->jobs) < 0)
                    return -1;
            } else if (a[2] == 's')
                o->sets[o->n_sets++] = argv[i];
            else if (a[2] == 't')
                o->trace = value;
            else if (a[2] == 'p')
                o->paje = value;
            else if (strcmp(argv[1], "compare") == 0) /* where it was read and not used */
                return fail("--format %s: compare states its conclusion as text; --format is for mcmsim run", value);
            else if (strcmp(value, "text") == 0)
                o->format = FORMAT_TEXT;
            else if (strcmp(value, "json") == 0)
                o->format = FORMAT_JSON;
            else if (strcmp(value, "csv") == 0)
                o->format = FORMAT_CSV;
            else
                return fail("--format %s: expected text, json or csv", value);
        } else if (strcmp(a, "--exec") == 0) {
            o->exec = 1;
        } else if (strcmp(a, "--progress") == 0) {
            o->progress = 1;
        } else if (strcmp(a, "--block-by-block") == 0) {
            o->block_by_block = 1;
        } else if (a[0] == '-') {
            return fail("unknown option %s (mcmsim --help)", a);
        } else if (!o->file) {
            o->file = a;
        } else {
            return fail("one run file at a time (got %s and %s)", o->file, a);
        }
    }
    if (!o->file)
        return fail("%s needs a run file: mcmsim %s FILE.cfg", argv[1], argv[1]);
    if (o->shards && (strcmp(argv[1], "run") != 0 || o->format != FORMAT_CSV || o->trace || o->paje))
        return fail("--shard is for mcmsim run --format csv, without --trace or --paje: shards' CSV files are put "
                    "back together by mcmsim merge");
    return outputs_apart(o);
}

static void free_points(run_point *pts, long n)
{
    for (long i = 0; i < n; i++) {
        free(pts[i].exec);
        kernel_dag_free(pts[i].dag);
        sim_result_free(&pts[i].result);
        dmm_result_free(&pts[i].dmm);
    }
    free(pts);
}

/* A DMM/UMM point: the program's memory accesses, timed by the chapter's
 * rules.  The machine reported is the one that ran: p as the program chose
 * (contiguous's param p wins over the machine's). */
static int simulate_dmm_umm(const run_file *rf, const run_options *o, run_point *pt)
{
    if (o->trace || o->paje)
        return fail("%s %s: a %s machine has no thread-blocks to trace (it is for MCM runs)",
                    o->paje ? "--paje" : "--trace", o->paje ? o->paje : o->trace,
                    machine_kind_name(pt->machine.kind));
    access_hook hook = program_accesses(rf->program, pt->program);
    if (!hook || dmm_umm_run(hook, &pt->params, &pt->machine, &pt->dmm) < 0)
        return -1;
    pt->machine.p = pt->dmm.p;
    pt->result.T = pt->dmm.total.time; /* what `compare` reads */
    return 0;
}

/* The paper's closed forms for an MCM point, when the program has them. */
static int paper_closed_form(const run_file *rf, run_point *pt)
{
    int has = program_closed_form(rf->program, pt->program, &pt->params, &pt->machine, &pt->paper);
    pt->has_closed_form = has > 0;
    return has < 0 ? -1 : 0;
}

/* A point under way: its program running in exec mode (an exec process,
 * for the program's kernels or a user's file), then its simulation; then
 * done, or failed, until its turn to be reported comes. */
typedef enum { STAGE_IDLE, STAGE_EXEC, STAGE_SIM, STAGE_DONE, STAGE_FAILED } point_stage;

typedef struct point_job {
    point_stage stage;
    exec_process exec;
    sim_job sim;
    int holds_core;      /* one of the cores (cores_begin), until its processes are done */
    char message[4096];  /* STAGE_FAILED: why */
} point_job;

/* The cores --jobs gives, shared by the points under way: each holds
 * one while it is under way; an exec process borrows the idle ones for
 * its launches' threads (exec_process_pool).  So a sweep of many points
 * runs a process per core, a single point a thread per core, and a
 * sweep's last points take the cores the others leave. */
static int *cores_begin(int jobs)
{
    int *idle = mmap(NULL, sizeof *idle, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (idle == MAP_FAILED)
        return NULL; /* then each exec process has one thread */
    *idle = jobs;
    exec_process_pool(idle);
    return idle;
}

static void cores_add(int *idle, int n)
{
    if (idle)
        __atomic_add_fetch(idle, n, __ATOMIC_RELAXED);
}

static void cores_end(int *idle)
{
    exec_process_pool(NULL);
    if (idle)
        munmap(idle, sizeof *idle);
}

/* Its simulation starts on the DAG the point has now. */
static int start_simulation(const run_file *rf, const run_options *o, run_point *pt, point_job *job)
{
    if (paper_closed_form(rf, pt) < 0 || sim_start(pt->dag, &pt->machine, o->trace, &pt->result, &job->sim) < 0)
        return -1;
    job->stage = STAGE_SIM;
    return 0;
}

/* Whether exec mode checks point i on the inputs after the first that
 * its program checks (mcm_input: inputs that check the result, such as
 * Euclid's pair with a planted common factor; their costs are never
 * reported): at the first value of the sweep's last param (the smallest
 * size, in the run files' order), for each value of the keys before it;
 * at every point of a run that sweeps no param.  The rows do not depend
 * on it, nor on --shard. */
static int checks_further_inputs(const run_file *rf, long i)
{
    for (int a = rf->n_axes - 1; a >= 0; a--)
        if (strcmp(rf->axes[a].key, "program") != 0 && strcmp(rf->axes[a].key, "machine") != 0)
            return runfile_axis_index(rf, i, a) == 0;
    return 1;
}

/* An MCM point (point i): an exec process started (exec mode, a user's
 * file), or the DAG built and its simulation started. */
static int start_mcm(const run_file *rf, const run_options *o, long i, run_point *pt, point_job *job, int threads)
{
    /* a program from the user's own file runs in exec mode whatever the options */
    int started = program_start_exec(rf->program, pt->program, &pt->params, &pt->machine, o->exec, threads,
                                     checks_further_inputs(rf, i), &job->exec);
    if (started < 0)
        return -1;
    if (started) {
        job->stage = STAGE_EXEC;
        return 0;
    }
    if (!(pt->dag = program_build(rf->program, pt->program, &pt->params, &pt->machine)))
        return -1;
    return start_simulation(rf, o, pt, job);
}

/* Point i of the run file into pt (`first` is point 0, NULL for it): a
 * DMM/UMM point is done at once; an MCM point is started in *job. */
static int start_point(run_file *rf, const run_options *o, long i, const run_point *first, run_point *pt,
                       point_job *job, int threads)
{
    job->stage = STAGE_IDLE;
    for (int a = 0; a < rf->n_axes; a++)
        snprintf(pt->swept[a], sizeof pt->swept[a], "%s", runfile_axis_value(rf, i, a));
    const char *name;
    if (runfile_point(rf, i, &pt->machine, &pt->params, &name) < 0 || machine_validate(&pt->machine) < 0)
        return -1;
    pt->program = name;
    pt->machine.block_by_block = o->block_by_block;
    if (first && (first->machine.kind == KIND_MCM) != (pt->machine.kind == KIND_MCM))
        return fail("%s: the run mixes an MCM machine (times in cycles) with a DMM/UMM one (time "
                    "units): sweep kind over \"dmm\" and \"umm\" only", rf->path);
    if (pt->machine.kind != KIND_MCM)
        return o->exec ? fail("--exec runs MCM kernels: not on a %s machine", machine_kind_name(pt->machine.kind))
                       : simulate_dmm_umm(rf, o, pt);
    return start_mcm(rf, o, i, pt, job, threads);
}

/* A point whose exec process has answered: its simulation starts, or it
 * has failed (the message kept until the point's turn). */
static void exec_done(const run_file *rf, const run_options *o, run_point *pt, point_job *job, progress *pg,
                      long i, long n)
{
    pt->dag = exec_process_finish(&job->exec, &pt->exec);
    if (pt->dag && start_simulation(rf, o, pt, job) == 0) {
        progress_warn_long(pg, pt, job->sim.analysed.N, engine_steps(pt->dag, &pt->machine), i, n);
        return;
    }
    job->stage = STAGE_FAILED;
    snprintf(job->message, sizeof job->message, "%s", fail_message());
}

/* The sweep's points under way (job_pool.h): position p of `order` is
 * point order[p], its job jobs[p % o->jobs]. */
typedef struct sweep {
    run_file *rf;
    const run_options *o;
    run_point *pts;
    point_job *jobs;
    const long *order;
    long n;              /* the run file's points */
    long finished;       /* positions finished or given up: the oldest under way is this one */
    int *idle;           /* cores_begin */
    int threads;         /* an exec process's launches: up to this many threads */
    progress pg;
} sweep;

static point_job *job_at(sweep *w, long p) { return &w->jobs[p % w->o->jobs]; }

/* A point's processes are done: its core goes back to the others. */
static void release_core(sweep *w, point_job *job)
{
    if (job->holds_core)
        cores_add(w->idle, 1);
    job->holds_core = 0;
}

static int sweep_start(void *ctx, long p)
{
    sweep *w = ctx;
    point_job *job = job_at(w, p);
    long i = w->order[p];
    cores_add(w->idle, -1);
    job->holds_core = 1;
    if (start_point(w->rf, w->o, i, i > 0 ? &w->pts[0] : NULL, &w->pts[i], job, w->threads) < 0)
        return -1;
    if (job->stage == STAGE_SIM)
        progress_warn_long(&w->pg, &w->pts[i], job->sim.analysed.N, engine_steps(w->pts[i].dag, &w->pts[i].machine),
                           i, w->n);
    if (job->stage == STAGE_IDLE) /* done at once (a DMM/UMM point) */
        job->stage = STAGE_DONE;
    return 0;
}

static int sweep_fd(void *ctx, long p)
{
    point_job *job = job_at(ctx, p);
    return job->stage == STAGE_EXEC ? exec_process_fd(&job->exec) : job->stage == STAGE_SIM ? job->sim.fd : -1;
}

/* A point under way whose process has answered (`ready`; else a moment
 * has passed): an exec process's DAG goes on to its simulation, a
 * simulation's result is taken; a point done or failed frees its core. */
static void sweep_advance(void *ctx, long p, int ready)
{
    sweep *w = ctx;
    point_job *j = job_at(w, p);
    long i = w->order[p];
    if (j->stage == STAGE_EXEC && !ready) {
        exec_process_note(&j->exec);
    } else if (j->stage == STAGE_EXEC) {
        exec_done(w->rf, w->o, &w->pts[i], j, &w->pg, i, w->n);
    } else if (ready) {
        int rc = sim_finish(&j->sim);
        j->stage = rc < 0 ? STAGE_FAILED : STAGE_DONE;
        if (rc < 0)
            snprintf(j->message, sizeof j->message, "%s", fail_message());
    } else if (p == w->finished) {
        progress_blocks(&w->pg, i, sim_blocks_done(&j->sim), j->sim.analysed.N);
    }
    if (j->stage == STAGE_DONE || j->stage == STAGE_FAILED)
        release_core(w, j);
}

static int sweep_finish(void *ctx, long p)
{
    sweep *w = ctx;
    point_job *job = job_at(w, p);
    int failed = job->stage == STAGE_FAILED;
    job->stage = STAGE_IDLE;
    release_core(w, job);
    progress_points(&w->pg, ++w->finished);
    return failed ? fail("%s", job->message) : 0;
}

/* A point given up (one before it failed, or its own start did). */
static void sweep_abandon(void *ctx, long p)
{
    sweep *w = ctx;
    point_job *job = job_at(w, p);
    if (job->stage == STAGE_EXEC)
        exec_process_abandon(&job->exec);
    else if (job->stage == STAGE_SIM)
        sim_abandon(&job->sim);
    job->stage = STAGE_IDLE;
    release_core(w, job);
    w->finished++;
}

/* Simulate the points order[0 .. n_order) of the run file, up to o->jobs
 * at once (job_pool.h); all or nothing. */
static int simulate_order(run_file *rf, const run_options *o, run_point *pts, const long *order, long n_order)
{
    sweep w = {rf, o, pts, calloc((size_t)o->jobs, sizeof *w.jobs), order, runfile_points(rf), 0,
               cores_begin(o->jobs), 1, {0}};
    w.threads = w.idle ? o->jobs : 1;
    progress_begin(&w.pg, o->progress, n_order);
    job_pool pool = {&w, sweep_start, sweep_fd, sweep_advance, sweep_finish, sweep_abandon, o->jobs,
                     w.pg.on ? 250 : 1000, NULL, NULL};
    long failed_at = -1;
    int rc = job_pool_run(&pool, n_order, &failed_at);
    progress_end(&w.pg, rc == 0);
    cores_end(w.idle);
    free(w.jobs);
    if (rc == 0 || w.n == 1)
        return rc;
    char message[4096];
    snprintf(message, sizeof message, "%s", fail_message());
    return fail("%s (sweep point %ld of %ld)", message, order[failed_at] + 1, w.n);
}

/* The points of shard K of N (--shard K/N): every N-th, from the K-th;
 * the others are read (their params name the CSV's columns) and skipped. */
static long shard_order(run_file *rf, const run_options *o, run_point *pts, long n, long *order)
{
    long count = 0;
    for (long i = 0; i < n; i++) {
        if (i % o->shards == o->shard - 1) {
            order[count++] = i;
            continue;
        }
        const char *name;
        if (runfile_point(rf, i, &pts[i].machine, &pts[i].params, &name) == 0)
            pts[i].program = name;
        pts[i].skipped = 1;
    }
    return count;
}

/* What draws or traces one point refuses a sweep, naming the swept keys
 * and a --set for each: "--trace t.csv traces one point, but ...". */
static int one_point(const run_file *rf, const char *what, const char *does)
{
    long n = runfile_points(rf);
    if (n == 1)
        return 0;
    char keys[512] = "", pins[1024] = "";
    for (int a = 0; a < rf->n_axes; a++) {
        size_t k = strlen(keys), p = strlen(pins);
        snprintf(keys + k, sizeof keys - k, "%s%s", a ? ", " : "", rf->axes[a].key);
        snprintf(pins + p, sizeof pins - p, "%s--set %s=%s", a ? " " : "", rf->axes[a].key,
                 runfile_axis_value(rf, 0, a));
    }
    return fail("%s %s one point, but %s sweeps %ld points (%s): pin the sweep with --set, e.g. %s", what, does,
                rf->path, n, keys, pins);
}

/* Simulate every point of the run file (of its shard, with --shard);
 * all or nothing. */
static int simulate_points(run_file *rf, const run_options *o, run_point **out, long *n_out)
{
    long n = runfile_points(rf);
    run_point *pts = calloc((size_t)n, sizeof *pts);
    long *order = calloc((size_t)n, sizeof *order), n_order = n;
    if (o->shards > 0)
        n_order = shard_order(rf, o, pts, n, order);
    else
        for (long i = 0; i < n; i++)
            order[i] = i;
    int rc = simulate_order(rf, o, pts, order, n_order);
    free(order);
    if (rc < 0) {
        free_points(pts, n);
        return -1;
    }
    *out = pts;
    *n_out = n;
    return 0;
}

/* --paje alone: the engine's trace goes to a temporary file. */
static int temporary_trace(run_options *o)
{
    const char *dir = getenv("TMPDIR");
    snprintf(o->paje_csv, sizeof o->paje_csv, "%s/mcmsim-trace-XXXXXX", dir && dir[0] ? dir : "/tmp");
    int fd = mkstemp(o->paje_csv);
    if (fd < 0) {
        o->paje_csv[0] = '\0';
        return fail("--paje %s: cannot create a temporary trace: %s", o->paje, strerror(errno));
    }
    close(fd);
    lifetime_remove_on_signal(o->paje_csv);
    o->trace = o->paje_csv;
    return 0;
}

/* --trace FILE: the engine writes FILE.part, renamed into place when the
 * run has succeeded (trace_done), so that no failed or interrupted run
 * leaves a trace that looks whole. */
static void trace_begin(run_options *o)
{
    snprintf(o->trace_part, sizeof o->trace_part, "%s.part", o->trace);
    lifetime_remove_on_signal(o->trace_part);
}

static int trace_done(run_options *o, const char *final, int rc)
{
    if (rc == 0 && rename(o->trace_part, final) != 0)
        rc = fail("--trace %s: cannot write: %s", final, strerror(errno));
    if (rc < 0)
        unlink(o->trace_part);
    lifetime_forget(o->trace_part);
    return rc;
}

/* The temporary trace of --paje alone (or of a Gantt picture), removed. */
static void temporary_trace_done(run_options *o)
{
    unlink(o->paje_csv);
    lifetime_forget(o->paje_csv);
}

/* The trace of the run's one point as a Paje file. */
static int write_paje(const run_options *o, const run_point *pt)
{
    char title[512];
    snprintf(title, sizeof title, "%s on %s", pt->program, pt->machine.name);
    for (char *c = title; *c; c++)
        if (*c == '"')
            *c = '\'';
    return paje_from_trace(o->trace, o->paje, title);
}

/* The options of a run that change its figures, as a shard's line says
 * them: every --set (--machine as --set machine=) by its key as the
 * loader resolves it (P and machine.p are p), in that key's order, then
 * --exec; "" without. */
static void shard_options(const run_file *rf, const run_options *o, char *out, size_t size)
{
    int by_key[SETS_MAX];
    for (int s = 0; s < rf->n_sets; s++) {
        int at = s;
        for (; at > 0 && strcmp(rf->set_field[by_key[at - 1]], rf->set_field[s]) > 0; at--)
            by_key[at] = by_key[at - 1];
        by_key[at] = s;
    }
    size_t used = 0;
    out[0] = '\0';
    for (int s = 0; s < rf->n_sets && used < size; s++)
        used += (size_t)snprintf(out + used, size - used, "%s--set %s=%s", used ? " " : "", rf->set_field[by_key[s]],
                                 rf->set_value[by_key[s]]);
    if (o->exec && used < size)
        snprintf(out + used, size - used, "%s--exec", used ? " " : "");
}

/* `mcmsim run` and `mcmsim compare`: simulate, then print a report or the
 * run file's conclusion. */
static int cmd_run(int argc, char **argv, int compare)
{
    run_options o;
    run_file rf;
    run_point *pts = NULL;
    long n = 0;
    int rc = parse_run_args(argc, argv, &o), loaded = rc == 0;
    if (loaded)
        rc = runfile_load(&rf, o.file, o.sets, o.n_sets);
    free(o.sets);
    if (rc == 0 && compare && !rf.compare)
        rc = fail("%s: no compare group to state (compare = { claim = ...; key = ...; along = ...; })", o.file);
    if (rc == 0 && (o.trace || o.paje)) {
        char what[1200];
        snprintf(what, sizeof what, "%s %s", o.paje ? "--paje" : "--trace", o.paje ? o.paje : o.trace);
        rc = one_point(&rf, what, "traces");
    }
    const char *trace_final = o.trace;
    if (rc == 0 && o.trace) {
        trace_begin(&o);
        o.trace = o.trace_part;
    }
    if (rc == 0 && o.paje && !o.trace)
        rc = temporary_trace(&o);
    if (rc == 0)
        rc = simulate_points(&rf, &o, &pts, &n);
    if (rc == 0 && o.paje)
        rc = write_paje(&o, &pts[0]);
    if (o.paje_csv[0])
        temporary_trace_done(&o);
    if (o.trace_part[0])
        rc = trace_done(&o, trace_final, rc);
    if (rc == 0) {
        const char *swept[SWEEP_AXES_MAX];
        for (int a = 0; a < rf.n_axes; a++)
            swept[a] = rf.axes[a].key;
        char options[SETS_MAX * 200];
        shard_options(&rf, &o, options, sizeof options);
        if (o.shards)
            shard_print_line(stdout, o.shard, o.shards, o.file, n, options);
        if (compare)
            rc = compare_print(stdout, rf.compare, pts, n, swept, rf.n_axes, NULL);
        else
            report_print(stdout, o.format, pts, n, swept, rf.n_axes);
    }
    if (pts)
        free_points(pts, n);
    if (loaded)
        runfile_close(&rf);
    return rc < 0 ? die() : 0;
}

/* `mcmsim plot`: -o and --kind are taken out of argv, the rest is parsed
 * as for `run`. */
typedef struct plot_options {
    const char *out, *kind;
} plot_options;

static int take_plot_args(int *argc, char **argv, plot_options *p)
{
    int w = 2;
    memset(p, 0, sizeof *p);
    for (int i = 2; i < *argc; i++) {
        if (strcmp(argv[i], "-o") == 0 || strcmp(argv[i], "--kind") == 0) {
            if (i + 1 >= *argc)
                return fail("%s needs a value (mcmsim --help)", argv[i]);
            const char **slot = argv[i][1] == 'o' ? &p->out : &p->kind;
            if (*slot)
                return fail("%s %s: %s is given twice (%s, then %s): one at a time", argv[i], argv[i + 1],
                            argv[i], *slot, argv[i + 1]);
            *slot = argv[++i];
        } else if (strcmp(argv[i], "--trace") == 0 || strcmp(argv[i], "--paje") == 0 ||
                   strcmp(argv[i], "--format") == 0) {
            return fail("%s is for mcmsim run, not plot", argv[i]);
        } else {
            argv[w++] = argv[i];
        }
    }
    *argc = w;
    if (!p->out)
        return fail("plot needs an output: mcmsim plot FILE.cfg -o OUT.svg|OUT.png");
    return plot_check_output(p->out) < 0 ? -1 : writable_place("-o", p->out);
}

/* The kind asked for, or the run file's: a DMM or a UMM not swept along a
 * size draws its warps, a sweep its lines, one point its schedule.  A kind
 * that cannot draw the run file is refused before anything is simulated. */
static int choose_kind(const plot_options *p, const run_file *rf, plot_kind *kind)
{
    machine m;
    vars params;
    const char *program;
    if (runfile_point(rf, 0, &m, &params, &program) < 0)
        return -1;
    int mcm = m.kind == KIND_MCM, kind_swept = 0;
    for (int a = 0; a < rf->n_axes; a++)
        kind_swept |= strcmp(rf->axes[a].key, "kind") == 0;
    for (long i = 1; kind_swept && i < runfile_points(rf) && mcm; i++)
        if (runfile_point(rf, i, &m, &params, &program) == 0 && m.kind != KIND_MCM)
            mcm = 0;
    if (!p->kind) {
        int sized = rf->n_axes > 1 || (rf->n_axes == 1 && strcmp(rf->axes[0].key, "kind") != 0);
        *kind = !mcm && !sized ? PLOT_WARPS : runfile_points(rf) > 1 ? PLOT_SWEEP : PLOT_GANTT;
        return 0;
    }
    if (plot_kind_parse(p->kind, kind) < 0)
        return -1;
    if (*kind == PLOT_SWEEP && runfile_points(rf) < 2)
        return fail("--kind sweep: %s does not sweep (give a key a list of values)", rf->path);
    if (*kind == PLOT_GANTT && one_point(rf, "a Gantt chart (mcmsim plot --kind gantt)", "draws") < 0)
        return -1;
    if (*kind == PLOT_WARPS && mcm)
        return fail("--kind warps draws DMM and UMM runs (machine kind dmm or umm); %s runs on the MCM", rf->path);
    if (!mcm && *kind != PLOT_SWEEP && *kind != PLOT_WARPS)
        return fail("--kind %s draws MCM runs: %s runs on a DMM or a UMM, which has no thread-blocks or cycles "
                    "(use --kind warps or sweep)", p->kind, rf->path);
    return 0;
}

/* The compare group's claim and verdicts, for a sweep picture's subtitle. */
static void plot_subtitle(const run_file *rf, const run_point *pts, long n, const char *const *swept, char *out,
                          size_t size, const char **along)
{
    const char *claim = NULL;
    if (!rf->compare || !config_setting_lookup_string(rf->compare, "claim", &claim))
        return;
    config_setting_lookup_string(rf->compare, "along", along);
    /* the verdict: the last line compare prints */
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    int rc = m ? compare_print(m, rf->compare, pts, n, swept, rf->n_axes, NULL) : -1;
    if (m)
        fclose(m);
    char *last = NULL;
    for (char *line = text ? strtok(text, "\n") : NULL; line; line = strtok(NULL, "\n"))
        last = line;
    while (last && *last == ' ')
        last++;
    snprintf(out, size, "%s\nverdict: %s", claim, rc == 0 && last ? last : "(none)");
    free(text);
    if (rc < 0)
        fail_clear();
}

static int cmd_plot(int argc, char **argv)
{
    plot_options p;
    run_options o;
    run_file rf;
    run_point *pts = NULL;
    long n = 0;
    plot_kind kind = PLOT_GANTT;
    int rc = take_plot_args(&argc, argv, &p);
    if (rc == 0)
        rc = parse_run_args(argc, argv, &o);
    int loaded = rc == 0;
    if (loaded)
        rc = runfile_load(&rf, o.file, o.sets, o.n_sets);
    if (loaded)
        free(o.sets);
    if (rc == 0)
        rc = choose_kind(&p, &rf, &kind);
    if (rc == 0 && kind == PLOT_GANTT) {
        o.paje = p.out; /* names the temporary trace's owner in messages */
        rc = temporary_trace(&o);
        o.paje = NULL;
    }
    if (rc == 0)
        rc = simulate_points(&rf, &o, &pts, &n);
    if (rc == 0) {
        const char *swept[SWEEP_AXES_MAX];
        for (int a = 0; a < rf.n_axes; a++)
            swept[a] = rf.axes[a].key;
        char subtitle[1024] = "";
        const char *along = NULL;
        plot_subtitle(&rf, pts, n, swept, subtitle, sizeof subtitle, &along);
        rc = plot_draw(kind, p.out, o.trace, pts, n, swept, rf.n_axes, subtitle, along);
    }
    if (pts)
        free_points(pts, n);
    if (loaded && o.paje_csv[0])
        temporary_trace_done(&o);
    if (loaded)
        runfile_close(&rf);
    return rc < 0 ? die() : 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return 0;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("mcmsim %s\n", MCMSIM_VERSION);
        return 0;
    }
    if (strcmp(argv[1], "list") == 0)
        return cmd_list();
    if (strcmp(argv[1], "run") == 0)
        return cmd_run(argc, argv, 0);
    if (strcmp(argv[1], "compare") == 0)
        return cmd_run(argc, argv, 1);
    if (strcmp(argv[1], "plot") == 0)
        return cmd_plot(argc, argv);
    if (strcmp(argv[1], "merge") == 0)
        return shard_merge(stdout, argv + 2, argc - 2) < 0 ? die() : 0;
    fail("unknown command '%s' (mcmsim --help)", argv[1]);
    return die();
}
