/*
 * lifetime.h — no process of mcmsim outlives the command that started it.
 *
 * Every simulation runs in a forked child (run.c).  The child asks the
 * kernel to kill it when its parent dies, whatever kills the parent
 * (SIGKILL included), and checks that the parent it got is still there.
 * The parent remembers its live children: SIGINT and SIGTERM kill them
 * before the parent dies of the same signal.  The child's one temporary
 * file, its SimGrid platform, is removed by the child as soon as SimGrid
 * has read it (engine.c), so that no kill leaves it behind.
 */
#ifndef MCM_LIFETIME_H
#define MCM_LIFETIME_H

#include <sys/types.h>

/* In the parent, around a child's life: from fork to wait. */
void lifetime_watch(pid_t child);
void lifetime_unwatch(pid_t child);

/* In the child, first thing after fork(): die with `parent`. */
void lifetime_child_start(pid_t parent);

#endif
