/*
 * main.c — the mcmsim command.
 *
 *   mcmsim run FILE.cfg [--set key=value]... [--format text|json|csv]
 *                       [--trace FILE.csv] [--paje FILE.trace] [--exec]
 *                       [--jobs N] [--progress] [--block-by-block] [--shard K/N]
 *   mcmsim compare FILE.cfg [--set key=value]...
 *   mcmsim plot FILE.cfg -o OUT.svg|OUT.png [--kind gantt|sweep|costs|speedup] [--set key=value]...
 *   mcmsim merge A.csv B.csv ...
 *   mcmsim list
 *   mcmsim --help | --version
 *
 * `run` simulates every point of the run file, then prints them all; any
 * error stops it with one message on stderr and exit status 1.  The points
 * of a sweep simulate on every core (--jobs), each in its own child
 * process (in exec mode first an exec process runs the program, whose
 * launches take the cores the points leave: sim/exec_process.h), and are
 * reported in the sweep's order: the output is the same whatever the
 * jobs.  --shard runs a share of the points, whose CSV `merge` puts back
 * together (sim/shard.h).  A point on
 * a DMM or a UMM machine (kind dmm/umm) runs the program's memory accesses
 * (sim/dmm_umm.h) instead of the MCM engine; a run is all MCM or all
 * DMM/UMM (cycles and time units do not share a table).
 */
#include "compare.h"
#include "engine.h"
#include "exec_programs.h"
#include "fail.h"
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
#include <poll.h>
#include <sys/mman.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MCMSIM_VERSION "0.1.0"
#define JOBS_MAX 64 /* simulations at once: each is a process */

static void usage(FILE *out)
{
    fprintf(out,
            "mcmsim %s — a simulator of the many-core machine (MCM) model of GPUs\n\n"
            "usage:\n"
            "  mcmsim run FILE.cfg [--set key=value]... [--format text|json|csv] [--trace FILE.csv]\n"
            "                      [--paje FILE.trace] [--exec] [--jobs N] [--progress]\n"
            "                      [--block-by-block] [--shard K/N]\n"
            "  mcmsim compare FILE.cfg [--set key=value]...   state the run file's conclusion\n"
            "  mcmsim plot FILE.cfg -o OUT.svg|OUT.png [--kind gantt|sweep|costs|speedup] [--set key=value]...\n"
            "                         a picture: gantt (the schedule, default without a sweep)\n"
            "                         or sweep (T and the Theorem 1 bound against the sweep)\n"
            "  mcmsim merge A.csv B.csv ...   the CSV of shards (run --shard K/N) as one run writes it\n"
            "  mcmsim list            machine presets and built-in programs\n"
            "  mcmsim --help | --version\n\n"
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
            "                    (the same results, slower; waves: README, Scale)\n",
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
                printf("  %-14s P = %-4d U = %-6g Z = %-7g policy %s\n", name, m.p, m.u, m.z,
                       memory_policy_name(m.policy));
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
        if (strcmp(a, "--set") == 0 || strcmp(a, "--format") == 0 || strcmp(a, "--trace") == 0 ||
            strcmp(a, "--paje") == 0 || strcmp(a, "--jobs") == 0 || strcmp(a, "--shard") == 0) {
            if (!value)
                return fail("%s needs a value (mcmsim --help)", a);
            i++;
            if (strcmp(a, "--shard") == 0) {
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
    return 0;
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
    int exec_report;     /* keep the exec process's reports (--exec of a built-in) */
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

/* An MCM point: an exec process started (exec mode, a user's file), or
 * the DAG built and its simulation started. */
static int start_mcm(const run_file *rf, const run_options *o, run_point *pt, point_job *job, int threads)
{
    /* a program from the user's own file runs in exec mode whatever the options */
    int started = program_start_source(rf->program, pt->program, &pt->params, &pt->machine, threads, &job->exec);
    if (started < 0)
        return -1;
    if (!started && o->exec) {
        const exec_program *x = exec_program_find(pt->program);
        if (!x)
            return fail("program '%s' has no exec mode (--exec runs the built-in case studies)", pt->program);
        if (exec_program_start(&job->exec, x, &pt->params, &pt->machine, threads) < 0)
            return -1;
        started = job->exec_report = 1;
    }
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
    job->exec_report = 0;
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
    return start_mcm(rf, o, pt, job, threads);
}

/* A point whose exec process has answered: its simulation starts, or it
 * has failed (the message kept until the point's turn). */
static void exec_done(const run_file *rf, const run_options *o, run_point *pt, point_job *job, progress *pg,
                      long i, long n)
{
    exec_kernel_report *reports;
    pt->dag = exec_process_finish(&job->exec, &reports);
    if (job->exec_report)
        pt->exec = reports;
    else
        free(reports);
    if (pt->dag && start_simulation(rf, o, pt, job) == 0) {
        progress_warn_long(pg, pt, job->sim.analysed.N, engine_steps(pt->dag, &pt->machine), i, n);
        return;
    }
    job->stage = STAGE_FAILED;
    snprintf(job->message, sizeof job->message, "%s", fail_message());
}

/* The points under way, [oldest, next) of `order`. */
typedef struct under_way {
    const run_file *rf;
    const run_options *o;
    run_point *pts;
    point_job *jobs;
    const long *order;
    long oldest, next, n;
    int *idle;           /* cores_begin */
} under_way;

/* A point's processes are done: its core goes back to the others. */
static void release_core(under_way *w, point_job *job)
{
    if (job->holds_core)
        cores_add(w->idle, 1);
    job->holds_core = 0;
}

/* A point under way whose process has answered (fd ready: `ready`; else
 * a moment has passed): an exec process's DAG goes on to its simulation,
 * a simulation's result is taken; a point done or failed frees its core. */
static void advance(under_way *w, long p, int ready, progress *pg)
{
    point_job *j = &w->jobs[p % w->o->jobs];
    long i = w->order[p];
    if (j->stage == STAGE_EXEC && !ready) {
        exec_process_note(&j->exec);
    } else if (j->stage == STAGE_EXEC) {
        exec_done(w->rf, w->o, &w->pts[i], j, pg, i, w->n);
    } else if (ready) {
        int rc = sim_finish(&j->sim);
        j->stage = rc < 0 ? STAGE_FAILED : STAGE_DONE;
        if (rc < 0)
            snprintf(j->message, sizeof j->message, "%s", fail_message());
    } else if (p == w->oldest) {
        progress_blocks(pg, i, sim_blocks_done(&j->sim), j->sim.analysed.N);
    }
    if (j->stage == STAGE_DONE || j->stage == STAGE_FAILED)
        release_core(w, j);
}

/* Wait for point order[w->oldest] to be done, meanwhile moving on every
 * point under way whose process answers, and drawing progress.  0, or -1
 * with fail(). */
static int finish_point(under_way *w, progress *pg)
{
    point_job *job = &w->jobs[w->oldest % w->o->jobs];
    int slots = w->o->jobs;
    struct pollfd *fds = calloc((size_t)slots, sizeof *fds);
    while (job->stage == STAGE_EXEC || job->stage == STAGE_SIM) {
        long watched[64], n_fds = 0;
        for (long p = w->oldest; p < w->next; p++) {
            point_job *j = &w->jobs[p % slots];
            if (j->stage == STAGE_EXEC || j->stage == STAGE_SIM) {
                fds[n_fds] = (struct pollfd){j->stage == STAGE_EXEC ? exec_process_fd(&j->exec) : j->sim.fd, POLLIN, 0};
                watched[n_fds++] = p;
            }
        }
        int ready = poll(fds, (nfds_t)n_fds, pg->on ? 250 : 1000);
        if (ready < 0 && errno != EINTR)
            break;
        for (long f = 0; f < n_fds; f++)
            advance(w, watched[f], ready > 0 && (fds[f].revents & (POLLIN | POLLHUP | POLLERR)), pg);
    }
    free(fds);
    point_stage stage = job->stage;
    job->stage = STAGE_IDLE;
    return stage == STAGE_FAILED ? fail("%s", job->message) : 0;
}

/* A point under way given up (a point before it failed). */
static void abandon_point(point_job *job)
{
    if (job->stage == STAGE_EXEC)
        exec_process_abandon(&job->exec);
    else if (job->stage == STAGE_SIM)
        sim_abandon(&job->sim);
    job->stage = STAGE_IDLE;
}

/* Simulate the points order[0 .. n_order) of the run file, up to o->jobs
 * at once; all or nothing.  Points start in that order and finish in it,
 * so the points, and the first error met, are those of a run one at a
 * time. */
static int simulate_order(run_file *rf, const run_options *o, run_point *pts, const long *order, long n_order)
{
    point_job *jobs = calloc((size_t)o->jobs, sizeof *jobs);
    under_way w = {rf, o, pts, jobs, order, 0, 0, runfile_points(rf), cores_begin(o->jobs)};
    int threads = w.idle ? o->jobs : 1;
    progress pg;
    progress_begin(&pg, o->progress, n_order);
    long failed_at = -1; /* a position in order[] */
    char message[4096] = "";
    while (w.oldest < w.next || (failed_at < 0 && w.next < n_order)) {
        if (failed_at < 0 && w.next < n_order && w.next - w.oldest < o->jobs) {
            long p = w.next++, i = order[p];
            point_job *job = &jobs[p % o->jobs];
            cores_add(w.idle, -1);
            job->holds_core = 1;
            if (start_point(rf, o, i, i > 0 ? &pts[0] : NULL, &pts[i], job, threads) < 0) {
                failed_at = p;
                snprintf(message, sizeof message, "%s", fail_message());
                abandon_point(job);
            } else if (job->stage == STAGE_SIM) {
                progress_warn_long(&pg, &pts[i], job->sim.analysed.N, engine_steps(pts[i].dag, &pts[i].machine), i,
                                   w.n);
            }
            continue;
        }
        long p = w.oldest;
        point_job *job = &jobs[p % o->jobs];
        if (p != failed_at) {
            if (failed_at >= 0 && failed_at < p) {
                abandon_point(job); /* the points after a failed one are given up, one at a time */
            } else if (finish_point(&w, &pg) < 0) {
                failed_at = p;
                snprintf(message, sizeof message, "%s", fail_message());
            }
        }
        release_core(&w, job);
        w.oldest++;
        progress_points(&pg, w.oldest);
    }
    progress_end(&pg, failed_at < 0);
    cores_end(w.idle);
    free(jobs);
    if (failed_at < 0)
        return 0;
    if (w.n > 1)
        return fail("%s (sweep point %ld of %ld)", message, order[failed_at] + 1, w.n);
    return fail("%s", message);
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

/* Simulate every point of the run file (of its shard, with --shard);
 * all or nothing. */
static int simulate_points(run_file *rf, const run_options *o, run_point **out, long *n_out)
{
    long n = runfile_points(rf);
    if ((o->trace || o->paje) && n > 1)
        return fail("%s %s: the run file sweeps %ld points; pin the sweep with --set to trace one",
                    o->paje ? "--paje" : "--trace", o->paje ? o->paje : o->trace, n);
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
        if (o.shards)
            shard_print_line(stdout, o.shard, o.shards, o.file, n);
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
            if (argv[i][1] == 'o')
                p->out = argv[++i];
            else
                p->kind = argv[++i];
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
    return plot_check_output(p->out);
}

static int choose_kind(const plot_options *p, const run_file *rf, plot_kind *kind)
{
    if (!p->kind) {
        *kind = runfile_points(rf) > 1 ? PLOT_SWEEP : PLOT_GANTT;
        return 0;
    }
    if (plot_kind_parse(p->kind, kind) < 0)
        return -1;
    if (*kind == PLOT_SWEEP && runfile_points(rf) < 2)
        return fail("--kind sweep: %s does not sweep (give a key a list of values)", rf->path);
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
    if (rc == 0 && pts[0].machine.kind != KIND_MCM && kind != PLOT_SWEEP)
        rc = fail("%s: this kind draws MCM runs (a %s machine has no thread-blocks or cycles; use --kind sweep)", o.file,
                  machine_kind_name(pts[0].machine.kind));
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
