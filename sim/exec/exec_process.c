/*
 * exec_process.c — an exec-mode program in a child process (see
 * exec_process.h).
 *
 * The story of one program: the parent shares a page with the child (its
 * whereabouts), opens a pipe and forks.  The child dies with the parent,
 * lets a fault end it by its signal, runs the body, and writes its
 * answer: a header, then the DAG kernel by kernel (each kernel's block
 * costs as runs of equal costs) and the per-kernel reports, or a message.
 * The parent reads the answer whole or reports why not, and reaps the
 * child.  An answer that says the blocks of a launch raced, seen by
 * several threads, makes the parent run the program again on one; an
 * answer that names a race's cell but not its threads (a race met on one
 * thread: exec.h, exec_race_pending), again watching the cell, and that
 * run's message names them.
 *
 * The children of one parent share a ledger of their arrays' memory
 * (exec.h, exec_ledger), in a mapping the parent makes before the first
 * fork: measured whenever no child runs; what a child held is given back
 * when the parent reaps it, whatever ended it.
 */
#include "exec_process.h"
#include "fail.h"
#include "lifetime.h"
#include "user_filter.h"
#include "wire.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define PHASE_SENDING (-1) /* the child's last phase, whatever its body's */

static const char *phase_name(const exec_process *x, int phase)
{
    return phase == PHASE_SENDING ? "sending its results" : x->phases[phase];
}

static double seconds_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* ---- the answer on the wire -------------------------------------------------- */

enum { ANSWER_DAG = 0, ANSWER_FAILED = -1, ANSWER_RACED = 1, ANSWER_UNNAMED = 2 };

typedef struct wire_answer {
    int status;     /* ANSWER_*: the DAG follows, or a message (ANSWER_UNNAMED: then its race's cell) */
    int n_kernels;
    int name_size;  /* the DAG's name, or the message */
} wire_answer;

typedef struct wire_kernel {
    long blocks;
    int threads, n_after, name_size;
    double private_words;
    block_cost cost;
    long runs;
} wire_kernel;

/* A kernel: its record, its edges, its block costs as (count, cost). */
static int send_kernel(int fd, const kernel *k)
{
    wire_kernel w = {k->blocks, k->threads, k->n_after, (int)strlen(k->name) + 1, k->private_words, k->cost,
                     k->runs ? k->n_runs : 1};
    if (wire_write(fd, &w, sizeof w) < 0 || wire_write(fd, k->name, (size_t)w.name_size) < 0 ||
        wire_write(fd, k->after, sizeof *k->after * (size_t)k->n_after) < 0)
        return -1;
    for (long r = 0; r < w.runs; r++) {
        long count = k->runs ? kernel_run_blocks(k, r) : k->blocks;
        const block_cost *c = k->runs ? &k->runs[r].cost : &k->cost;
        if (wire_write(fd, &count, sizeof count) < 0 || wire_write(fd, c, sizeof *c) < 0)
            return -1;
    }
    return 0;
}

static int receive_kernel(int fd, kernel_dag *dag)
{
    wire_kernel w;
    if (wire_read(fd, &w, sizeof w) < 0 || w.name_size < 1 || w.name_size > 4096 || w.n_after < 0 ||
        w.n_after > dag->n || w.blocks < 1 || w.runs < 1 || w.runs > w.blocks)
        return -1;
    char *name = malloc((size_t)w.name_size);
    int *after = malloc(sizeof *after * (size_t)(w.n_after + 1));
    kernel k = {.name = name, .blocks = w.blocks, .threads = w.threads, .cost = w.cost,
                .private_words = w.private_words};
    int bad = wire_read(fd, name, (size_t)w.name_size) < 0 ||
              wire_read(fd, after, sizeof *after * (size_t)w.n_after) < 0;
    for (long b = 0, r = 0; r < w.runs && !bad; r++) {
        long count;
        block_cost c;
        bad = wire_read(fd, &count, sizeof count) < 0 || wire_read(fd, &c, sizeof c) < 0 || count < 1 ||
              count > w.blocks - b;
        if (!bad)
            kernel_append_costs(&k, b, &c);
        b += bad ? 0 : count;
    }
    name[w.name_size - 1] = '\0';
    int index = bad ? -1 : kernel_dag_add(dag, &k); /* takes the runs over */
    for (int i = 0; i < w.n_after && index >= 0; i++)
        if (after[i] < 0 || after[i] >= index || kernel_dag_after(dag, index, after[i]) < 0)
            index = -1;
    if (bad)
        free(k.runs);
    free(name);
    free(after);
    return index < 0 ? -1 : 0;
}

/* The answer: the DAG and its reports, or NULL with the message (*status
 * says which answer came; ANSWER_FAILED with no message if none did; the
 * race's cell in *cell with ANSWER_UNNAMED). */
static kernel_dag *receive(int fd, const char *what, exec_kernel_report **reports, int *status,
                           exec_race_cell *cell)
{
    wire_answer h;
    *status = ANSWER_FAILED;
    if (wire_read(fd, &h, sizeof h) < 0 || h.name_size < 1 || h.name_size > 4096 || h.n_kernels < 0)
        return NULL;
    char *text = malloc((size_t)h.name_size);
    if (wire_read(fd, text, (size_t)h.name_size) < 0) {
        free(text);
        return NULL;
    }
    text[h.name_size - 1] = '\0';
    *status = h.status;
    if (h.status == ANSWER_UNNAMED && wire_read(fd, cell, sizeof *cell) < 0)
        *status = ANSWER_FAILED;
    if (h.status != ANSWER_DAG) {
        fail("%s", text);
        free(text);
        return NULL;
    }
    kernel_dag *dag = kernel_dag_new(text);
    free(text);
    exec_kernel_report *rep = malloc(sizeof *rep * (size_t)(h.n_kernels + 1));
    int bad = 0;
    for (int k = 0; k < h.n_kernels && !bad; k++)
        bad = receive_kernel(fd, dag) < 0;
    bad = bad || wire_read(fd, rep, sizeof *rep * (size_t)h.n_kernels) < 0;
    if (bad) {
        kernel_dag_free(dag);
        free(rep);
        *status = ANSWER_FAILED;
        fail("%s: the exec-mode process sent an incomplete program", what);
        return NULL;
    }
    for (int k = 0; k < h.n_kernels; k++)
        rep[k].name[sizeof rep[k].name - 1] = '\0';
    if (reports)
        *reports = rep;
    else
        free(rep);
    return dag;
}

/* ---- the child ---------------------------------------------------------------- */

static exec_ledger *ledger; /* the children's memory (NULL: none could be mapped) */
static int children;        /* in the parent: those running */
static exec_process *child_process; /* in the child: the process it is */
static exec_run *child_run;         /* in the child: the run it measures */
static int child_fd;

static void send_message(int fd, int status)
{
    wire_answer h = {status, 0, (int)strlen(fail_message()) + 1};
    wire_write(fd, &h, sizeof h);
    wire_write(fd, fail_message(), (size_t)h.name_size);
}

/* The answer of a program that failed: a race still owes its pair or
 * its threads (exec.h, exec_race_pending), or the message is whole. */
static void send_failure(int fd)
{
    exec_race_cell cell;
    int race = exec_race_pending(&cell);
    send_message(fd, race == EXEC_RACE_UNNAMED ? ANSWER_UNNAMED : race == EXEC_RACE_UNPAIRED ? ANSWER_RACED
                                                                                               : ANSWER_FAILED);
    if (race == EXEC_RACE_UNNAMED)
        wire_write(fd, &cell, sizeof cell);
}

/* exec_alloc could not have an array: the message goes (saying where,
 * when the program is a file), the child ends. */
static void give_up(void *ctx)
{
    (void)ctx;
    const exec_process *x = child_process;
    if (strcmp(x->what, exec_dag(child_run)->name) != 0) {
        char why[4096];
        snprintf(why, sizeof why, "%s", fail_message());
        fail("%s, in its %s: %s", x->what, phase_name(x, x->here->phase), why);
    }
    send_message(child_fd, ANSWER_FAILED);
    _exit(1);
}

/* A run on the process's machine, threads and cores. */
static exec_run *begin_run(const char *program)
{
    exec_process *x = child_process;
    exec_run *r = exec_begin(program, &x->m);
    exec_set_threads(r, x->threads);
    exec_set_core_pool(r, x->pool);
    exec_set_whereabouts(r, x->here);
    exec_set_give_up(r, give_up, NULL);
    return r;
}

exec_run *exec_process_run(const char *program)
{
    child_run = begin_run(program);
    return child_run;
}

exec_run *exec_process_extra_run(const char *program) { return begin_run(program); }

int exec_process_pipe(void) { return child_fd; }

/* A fault in the program's code ends the child by its signal, whatever
 * the build: the parent names the signal, the phase and the kernel.
 * (Under ASan, its handler would print a report of the user's fault and
 * exit 1, and the report would change from run to run.) */
static void die_of_faults(void)
{
    struct sigaction dfl = {0};
    dfl.sa_handler = SIG_DFL;
    const int faults[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL};
    for (size_t i = 0; i < sizeof faults / sizeof *faults; i++)
        sigaction(faults[i], &dfl, NULL);
}

static void __attribute__((noreturn)) child(exec_process *x, int fd)
{
    die_of_faults();
    child_process = x;
    child_fd = fd;
    fail_clear();
    exec_watch_race(x->watching ? &x->watched : NULL);
    exec_measure_memory(); /* now: the body may give up reading /proc (user_filter.h) */
    exec_set_ledger(ledger);
    if (x->body(x->ctx, x->here) < 0 || !child_run) {
        if (!fail_message()[0])
            fail("%s: the program failed without a message", x->what);
        send_failure(fd);
        _exit(1);
    }
    x->here->phase = PHASE_SENDING;
    const kernel_dag *dag = exec_dag(child_run);
    int n;
    const exec_kernel_report *rep = exec_reports(child_run, &n);
    wire_answer h = {ANSWER_DAG, dag->n, (int)strlen(dag->name) + 1};
    int bad = wire_write(fd, &h, sizeof h) < 0 || wire_write(fd, dag->name, (size_t)h.name_size) < 0;
    for (int k = 0; k < dag->n && !bad; k++)
        bad = send_kernel(fd, &dag->kernels[k]) < 0;
    bad = bad || wire_write(fd, rep, sizeof *rep * (size_t)n) < 0;
    _exit(bad ? 3 : 0);
}

/* ---- the parent ------------------------------------------------------------------ */

static int *core_pool; /* exec_process_pool */

void exec_process_pool(int *idle) { core_pool = idle; }

/* Fork the child of x (its fields set). */
static int spawn(exec_process *x)
{
    int fds[2];
    if (pipe(fds) < 0)
        return fail("%s: cannot set up its exec-mode process: %s", x->what, strerror(errno));
    memset(x->here, 0, sizeof *x->here);
    fflush(NULL);
    pid_t parent = getpid(), pid = fork();
    if (pid == 0) {
        close(fds[0]);
        lifetime_child_start(parent);
        child(x, fds[1]);
    }
    close(fds[1]);
    if (pid < 0) {
        close(fds[0]);
        return fail("%s: cannot fork its exec-mode process: %s", x->what, strerror(errno));
    }
    lifetime_watch(pid);
    x->pid = pid;
    x->stopped_by = 0;
    children++;
    x->fd = fds[0];
    x->started = x->noted = seconds_now();
    return 0;
}

int exec_process_start(exec_process *x, const char *what, const char *const *phases, exec_body body, void *ctx,
                       const machine *m, int threads)
{
    memset(x, 0, sizeof *x);
    snprintf(x->what, sizeof x->what, "%s", what);
    x->phases = phases;
    x->body = body;
    x->ctx = ctx;
    x->m = *m;
    x->threads = threads < 1 ? 1 : threads;
    x->pool = core_pool;
    x->pid = -1;
    x->fd = -1;
    if (!ledger) {
        ledger = mmap(NULL, sizeof *ledger, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
        ledger = ledger == MAP_FAILED ? NULL : ledger;
    }
    if (ledger && children == 0)
        exec_ledger_measure(ledger);
    x->here = mmap(NULL, sizeof *x->here, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (x->here == MAP_FAILED) {
        x->here = NULL;
        free(ctx);
        x->ctx = NULL;
        return fail("%s: cannot set up its exec-mode process: %s", what, strerror(errno));
    }
    if (spawn(x) < 0) {
        exec_process_abandon(x);
        return -1;
    }
    return 0;
}

int exec_process_fd(const exec_process *x) { return x->fd; }

/* Whether the child is stopped by a signal (kept in x->stopped_by); it is
 * then killed, its pipe closing.  waitid only looks (WNOWAIT), for stops
 * only (no WEXITED): reap() still reaps it.  A stop of the whole command
 * (^Z) stops this process too, and fg continues both. */
static int ended_if_stopped(exec_process *x)
{
    siginfo_t info;
    memset(&info, 0, sizeof info);
    if (waitid(P_PID, (id_t)x->pid, &info, WSTOPPED | WNOHANG | WNOWAIT) < 0 || info.si_pid != x->pid ||
        info.si_code != CLD_STOPPED)
        return 0;
    x->stopped_by = info.si_status;
    kill(x->pid, SIGKILL);
    return 1;
}

void exec_process_note(exec_process *x)
{
    double now = seconds_now();
    if (x->pid <= 0 || x->stopped_by || ended_if_stopped(x) || now - x->noted < 10)
        return;
    x->noted = now;
    const exec_whereabouts *w = x->here;
    fprintf(stderr, "mcmsim: %s has been running in exec mode for %.0f s: %s, %d kernels launched%s%s%s%s\n", x->what,
            now - x->started, phase_name(x, w->phase), w->launches, w->kernel[0] ? " (last: '" : "", w->kernel,
            w->kernel[0] ? "')" : "", w->waiting ? "; waiting for the memory other points' arrays hold" : "");
}

/* Wait until the child answers or ends, saying every 10 s where it is. */
static void wait_for_child(exec_process *x)
{
    struct pollfd p = {x->fd, POLLIN, 0};
    for (;;) {
        int ready = poll(&p, 1, 1000);
        if (ready > 0 || (ready < 0 && errno != EINTR))
            return;
        exec_process_note(x);
    }
}

/* The child has ended (reaped): what it held in the ledger given back. */
static void ended(exec_process *x)
{
    x->pid = -1;
    children--;
    if (ledger)
        exec_ledger_give_back(ledger, x->here->admitted);
}

/* Reap the child; when it sent nothing whole, say why it ended. */
static void reap(exec_process *x, int answered)
{
    int status = 0;
    while (waitpid(x->pid, &status, 0) < 0 && errno == EINTR)
        ;
    lifetime_unwatch(x->pid);
    ended(x);
    close(x->fd);
    x->fd = -1;
    if (answered)
        return;
    const exec_whereabouts *w = x->here;
    int in_kernel = w->launching;
    if (w->refused) {
        char call[160];
        fail("%s: the program tried to %s during its %s%s%s%s, which exec mode does not allow (a program may only "
             "compute and report to mcmsim); nothing was simulated", x->what,
             user_filter_describe(w->refused, call, sizeof call), phase_name(x, w->phase),
             in_kernel ? ", in kernel '" : "", in_kernel ? w->kernel : "", in_kernel ? "'" : "");
        return;
    }
    if (x->stopped_by)
        fail("%s: the program stopped in exec mode (signal %d, %s) during its %s%s%s%s, and would never go on: it "
             "was ended; nothing was simulated", x->what, x->stopped_by, strsignal(x->stopped_by),
             phase_name(x, w->phase), in_kernel ? ", in kernel '" : "", in_kernel ? w->kernel : "",
             in_kernel ? "'" : "");
    else if (WIFSIGNALED(status))
        fail("%s: the program crashed in exec mode (signal %d, %s) during its %s%s%s%s; nothing was simulated",
             x->what, WTERMSIG(status), strsignal(WTERMSIG(status)), phase_name(x, w->phase),
             in_kernel ? ", in kernel '" : "", in_kernel ? w->kernel : "", in_kernel ? "'" : "");
    else
        fail("%s: the program ended exec mode during its %s (exit status %d) without a result; nothing was "
             "simulated", x->what, phase_name(x, w->phase), WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

kernel_dag *exec_process_finish(exec_process *x, exec_kernel_report **reports)
{
    if (reports)
        *reports = NULL;
    wait_for_child(x);
    int status;
    exec_race_cell cell;
    fail_clear();
    kernel_dag *dag = receive(x->fd, x->what, reports, &status, &cell);
    reap(x, dag || fail_message()[0]);
    int again = status == ANSWER_RACED && x->threads > 1; /* the pair, met on one thread */
    if (status == ANSWER_UNNAMED && !x->watching) {    /* its threads, named watching its cell */
        x->watching = 1;
        x->watched = cell;
        again = 1;
    }
    if (again) {
        x->threads = 1;
        if (spawn(x) == 0)
            return exec_process_finish(x, reports);
    }
    exec_process_abandon(x);
    return dag;
}

void exec_process_abandon(exec_process *x)
{
    if (x->pid > 0) {
        lifetime_kill(x->pid);
        ended(x);
    }
    x->pid = -1;
    if (x->fd >= 0)
        close(x->fd);
    x->fd = -1;
    if (x->here)
        munmap(x->here, sizeof *x->here);
    x->here = NULL;
    free(x->ctx);
    x->ctx = NULL;
}
