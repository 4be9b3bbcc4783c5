/*
 * lifetime.h — no process of mcmsim outlives the command that started it.
 *
 * Every simulation runs in a forked child (run.c).  The child asks the
 * kernel to kill it when its parent dies, whatever kills the parent
 * (SIGKILL included), and checks that the parent it got is still there.
 * The parent remembers its live children: SIGINT, SIGTERM and SIGHUP (the
 * terminal closed) kill them before the parent dies of the same signal,
 * unless the command was started ignoring that signal (`nohup`), which
 * it and its children then keep ignoring.  The child's one temporary
 * file, its SimGrid platform, is removed by the child as soon as SimGrid
 * has read it (engine.c), so that no kill leaves it behind.  The files
 * the parent is writing (a trace, a picture: each first as FILE.part,
 * renamed into place when whole) and its temporary folders are removed
 * by those signals too, so that an interrupted command leaves no partial
 * output.
 */
#ifndef MCM_LIFETIME_H
#define MCM_LIFETIME_H

#include <sys/types.h>

/* In the parent, around a child's life: from fork to wait. */
void lifetime_watch(pid_t child);
void lifetime_unwatch(pid_t child);
/* A watched child not wanted any more: killed, reaped, unwatched. */
void lifetime_kill(pid_t child);

/* A file or a folder (with the files in it) to remove if SIGINT, SIGTERM
 * or SIGHUP ends the command; lifetime_forget once it is whole or gone.
 * At most LIFETIME_PATHS at once; the path is copied. */
#define LIFETIME_PATHS 8
void lifetime_remove_on_signal(const char *path);
void lifetime_forget(const char *path);

/* In the child, first thing after fork(): die with `parent`. */
void lifetime_child_start(pid_t parent);

#endif
