/*
 * exec_process.h — an exec-mode program run in a child process of its own.
 *
 * Exec mode runs a program's kernels for real (sim/exec/exec.h): its arrays
 * can be large, its code (a user's) may crash, and it takes time.  So it
 * runs in a child process: the parent starts it and may go on with other
 * work (the other points of a sweep, each in its own process), then
 * receives the kernel DAG the child measured, with its per-kernel
 * reports, whole or not at all: the program's own message, or the signal
 * that ended the child with the phase and the kernel it was in (a page
 * both processes share says where the child is).  The arrays go with the
 * child: the parent keeps only the DAG, its block costs as runs.
 *
 * The child runs each launch on `threads` threads (exec_set_threads).
 * When a launch's blocks raced, seen by several threads, the parent runs
 * the program again on one thread, which names the pair as one core
 * does; and when a race met on one thread names its blocks and cell but
 * not their threads (exec_race_pending), once more watching the cell,
 * which names them: the result, message included, is the same whatever
 * the threads.
 *
 * The child dies with the parent (lifetime.h); the parent reaps it.
 */
#ifndef MCM_EXEC_PROCESS_H
#define MCM_EXEC_PROCESS_H

#include "exec.h"

#include <sys/types.h>

/* The program, in the child: it begins its run with exec_process_run and
 * runs it; 0, or -1 with fail().  It may set its phase in `here` as it
 * goes (whereabouts.phase, a number of the caller's `phases`). */
typedef int (*exec_body)(void *ctx, exec_whereabouts *here);

/* In a body: the run the child measures and sends, named `program`,
 * begun on the process's machine with its threads (call it once). */
exec_run *exec_process_run(const char *program);

/* In a body: another run like it, measured for nothing (a program's other
 * inputs); the body ends it (exec_end). */
exec_run *exec_process_extra_run(const char *program);

/* In a body: the pipe the child answers on, which a filter must leave
 * open (user_filter_begin). */
int exec_process_pipe(void);

typedef struct exec_process {
    char what[1024];            /* the program, for messages: its source file or its name */
    const char *const *phases;  /* the names of whereabouts.phase values */
    exec_body body;
    void *ctx;                  /* the body's (taken over: freed at the end) */
    machine m;
    int threads;
    int watching;               /* the runs watch a race's cell, `watched` (exec_watch_race) */
    exec_race_cell watched;
    int *pool;                  /* idle cores to borrow (exec_set_core_pool), or NULL */
    pid_t pid;
    int fd;
    exec_whereabouts *here;     /* shared with the child */
    double started, noted;      /* when it started, when it was last said to run on */
    int stopped_by;             /* the signal that stopped the child, which was then ended; 0: none */
} exec_process;

/* Start `body` in a child, its launches on up to `threads` threads (with
 * a pool set by exec_process_pool, those it can borrow from it); -1 with
 * fail() if no child could be started.  `phases` lists the phase names
 * (phase 0 while the child starts up); `ctx` (malloc'd, or NULL) is the
 * body's and is freed with the process. */
int exec_process_start(exec_process *x, const char *what, const char *const *phases, exec_body body, void *ctx,
                       const machine *m, int threads);

/* The idle cores that exec processes started from now on borrow threads
 * from (a count in a shared mapping; NULL: none): a sweep's points share
 * the cores --jobs gives, the last ones taking what the others leave. */
void exec_process_pool(int *idle);

/* The pipe the result comes on: readable when the child has finished
 * (or died). */
int exec_process_fd(const exec_process *x);

/* Read the child's result (waiting for it, saying on stderr every 10 s
 * where the child is), reap it, and give the process back: the DAG it
 * measured, and its per-kernel reports in *reports (malloc'd, one per
 * kernel; may be NULL); NULL with fail() if the program failed. */
kernel_dag *exec_process_finish(exec_process *x, exec_kernel_report **reports);

/* Kill the child if it runs, and give the process back. */
void exec_process_abandon(exec_process *x);

/* Say on stderr where the child is, once every 10 s it has run (call it
 * while waiting): a long run is never a silent one.  A child found
 * stopped (a kernel's raise(SIGSTOP)), which would never go on nor
 * answer, is ended, and the finish says it stopped. */
void exec_process_note(exec_process *x);

#endif
