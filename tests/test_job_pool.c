/*
 * test_job_pool.c — the points of a run, up to `jobs` at once, and the
 * work beside them (sim/app/job_pool.h): points finish in order, and
 * the work beside the points is watched with them, so that what answers
 * beside moves on while the pool waits for its points.
 *
 * A point here is a pipe the test itself writes to: it is answered when
 * its pipe holds a byte.  The work beside is one pipe too; its move on
 * answers point 0, which nothing else answers: were its pipe not
 * watched, the pool's wait (a minute, poll_ms) would outlast the test's
 * timeout (one point at a time: no other point's pipe ends the wait).
 */
#include "helpers.h"
#include "job_pool.h"

#include <poll.h>
#include <unistd.h>

#define POINTS 3

typedef struct pipes {
    int point[POINTS][2]; /* per point: read end, write end */
    int answered[POINTS]; /* its byte was read */
    int finished[POINTS]; /* in the order finish saw them: 1, 2, ... */
    int n_finished;
    int beside[2];
    int beside_moves;     /* beside_advance calls that found its byte */
} pipes;

static int start(void *ctx, long i)
{
    pipes *p = ctx;
    if (i > 0) /* the points after 0 answer at once */
        cr_assert_eq(write(p->point[i][1], "x", 1), 1);
    return 0;
}

static int fd(void *ctx, long i)
{
    pipes *p = ctx;
    return p->answered[i] ? -1 : p->point[i][0];
}

static void advance(void *ctx, long i, int ready)
{
    pipes *p = ctx;
    char c;
    if (ready && !p->answered[i])
        p->answered[i] = read(p->point[i][0], &c, 1) == 1;
}

static int finish(void *ctx, long i)
{
    pipes *p = ctx;
    p->finished[i] = ++p->n_finished;
    return 0;
}

static void abandon(void *ctx, long i)
{
    (void)ctx;
    cr_assert_fail("point %ld abandoned, though none failed", i);
}

static int beside_fds(void *ctx, int *fds, int max)
{
    pipes *p = ctx;
    cr_assert_geq(max, 1);
    fds[0] = p->beside[0];
    return 1;
}

/* Never waits: reads the byte beside if it is there, and then answers
 * point 0. */
static void beside_advance(void *ctx)
{
    pipes *p = ctx;
    struct pollfd f = {p->beside[0], POLLIN, 0};
    char c;
    if (poll(&f, 1, 0) == 1 && read(p->beside[0], &c, 1) == 1) {
        p->beside_moves++;
        cr_assert_eq(write(p->point[0][1], "x", 1), 1);
    }
}

Test(job_pool, the_work_beside_the_points_moves_on_while_the_pool_waits, .timeout = 20)
{
    pipes p = {0};
    for (int i = 0; i < POINTS; i++)
        cr_assert_eq(pipe(p.point[i]), 0);
    cr_assert_eq(pipe(p.beside), 0);
    cr_assert_eq(write(p.beside[1], "b", 1), 1); /* the work beside has news from the start */
    job_pool pool = {&p, start, fd, advance, finish, abandon, 1, 60000, beside_fds, beside_advance};
    cr_assert_eq(job_pool_run(&pool, POINTS, NULL), 0);
    cr_assert_eq(p.beside_moves, 1, "the byte beside was read %d times", p.beside_moves);
    for (int i = 0; i < POINTS; i++)
        cr_assert_eq(p.finished[i], i + 1, "point %d finished %d-th: points finish in order", i, p.finished[i]);
    for (int i = 0; i < POINTS; i++) {
        close(p.point[i][0]);
        close(p.point[i][1]);
    }
    close(p.beside[0]);
    close(p.beside[1]);
}
