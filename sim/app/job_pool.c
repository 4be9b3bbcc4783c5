/*
 * job_pool.c — the points of a run, up to `jobs` under way at once (see
 * job_pool.h).
 *
 * Points [oldest, next) are under way.  While there is room and no point
 * has failed, the next one starts; otherwise the oldest is waited for,
 * every point under way (and the work beside them) moving on as its pipe
 * answers, and then finished
 * (or abandoned, once one before it has failed).
 */
#include "job_pool.h"
#include "fail.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>

/* Wait until point `oldest` needs no more waiting, moving on every point
 * under way, [oldest, next), whose pipe answers. */
static void wait_for(const job_pool *pool, long oldest, long next)
{
    struct pollfd fds[2 * JOB_POOL_MAX];
    long watched[JOB_POOL_MAX];
    int beside[JOB_POOL_MAX];
    while (pool->fd(pool->ctx, oldest) >= 0) {
        int n = 0;
        for (long p = oldest; p < next && n < JOB_POOL_MAX; p++) {
            int fd = pool->fd(pool->ctx, p);
            if (fd >= 0) {
                fds[n] = (struct pollfd){fd, POLLIN, 0};
                watched[n++] = p;
            }
        }
        int n_beside = pool->beside_fds ? pool->beside_fds(pool->ctx, beside, JOB_POOL_MAX) : 0;
        for (int b = 0; b < n_beside; b++)
            fds[n + b] = (struct pollfd){beside[b], POLLIN, 0};
        int ready = poll(fds, (nfds_t)(n + n_beside), pool->poll_ms);
        if (ready < 0 && errno != EINTR)
            ready = 0; /* nothing can be read now: each point is asked again after a moment */
        for (int f = 0; f < n; f++)
            pool->advance(pool->ctx, watched[f], ready > 0 && (fds[f].revents & (POLLIN | POLLHUP | POLLERR)));
        if (pool->beside_advance)
            pool->beside_advance(pool->ctx);
    }
}

int job_pool_run(const job_pool *pool, long n, long *failed_at)
{
    int jobs = pool->jobs < 1 ? 1 : pool->jobs > JOB_POOL_MAX ? JOB_POOL_MAX : pool->jobs;
    long oldest = 0, next = 0, failed = -1;
    char message[4096] = "";
    while (oldest < next || (failed < 0 && next < n)) {
        if (failed < 0 && next < n && next - oldest < jobs) {
            long p = next++;
            if (pool->start(pool->ctx, p) < 0) {
                failed = p;
                snprintf(message, sizeof message, "%s", fail_message());
                pool->abandon(pool->ctx, p);
            }
            continue;
        }
        long p = oldest++;
        if (p == failed)
            continue; /* abandoned when its start failed */
        if (failed >= 0) {
            pool->abandon(pool->ctx, p);
            continue;
        }
        wait_for(pool, p, next);
        if (pool->finish(pool->ctx, p) < 0) {
            failed = p;
            snprintf(message, sizeof message, "%s", fail_message());
        }
    }
    if (failed < 0)
        return 0;
    if (failed_at)
        *failed_at = failed;
    return fail("%s", message);
}
