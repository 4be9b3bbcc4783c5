/*
 * job_pool.h — the points of a run, up to `jobs` under way at once.
 *
 * Points start in order and finish in order, so the points, and the
 * first error met, are those of a run one at a time; meanwhile every
 * point under way moves on as soon as its process answers.  The command
 * line's sweeps (main.c) and make validate's sets (validate/main.c) run
 * through it.
 *
 * A point belongs to the caller, who answers for it by its position i
 * (0 .. n-1, in the order the points start):
 *   start(i)       begin it: 0 (under way, or done already), or -1 with fail()
 *   fd(i)          the pipe that becomes readable when its process has
 *                  news; -1 once it needs no more waiting
 *   advance(i, r)  move it on: r = 1 when its pipe is readable, r = 0
 *                  when a moment (poll_ms) passed without news
 *   finish(i)      it needs no more waiting and its turn has come: take
 *                  its result; 0, or -1 with fail()
 *   abandon(i)     give it up: a point before it failed, or its own
 *                  start did (whatever start left under way is stopped)
 * Every point started is finished or abandoned exactly once.  Work of
 * another kind may go on beside the points (beside_fds, beside_advance):
 * make validate's exec processes run ahead of the sets that take their
 * DAGs while the sets before them are simulated.
 */
#ifndef MCM_JOB_POOL_H
#define MCM_JOB_POOL_H

typedef struct job_pool {
    void *ctx;
    int (*start)(void *ctx, long i);
    int (*fd)(void *ctx, long i);
    void (*advance)(void *ctx, long i, int ready);
    int (*finish)(void *ctx, long i);
    void (*abandon)(void *ctx, long i);
    int jobs;    /* points under way at once (at least 1, at most JOB_POOL_MAX) */
    int poll_ms; /* how long a wait may last without an advance */
    /* Other work under way beside the points, moved on while the pool
     * waits (NULL: none): beside_fds puts its pipes (at most max) in fds
     * and says how many, watched with the points'; beside_advance is
     * called after every wait, and must not block. */
    int (*beside_fds)(void *ctx, int *fds, int max);
    void (*beside_advance)(void *ctx);
} job_pool;

#define JOB_POOL_MAX 64

/* Run points 0 .. n-1: 0 when every one finished; else -1 with the first
 * failure's message (fail()) and its position in *failed_at. */
int job_pool_run(const job_pool *pool, long n, long *failed_at);

#endif
