/*
 * lifetime.c — children that die with their parent (see lifetime.h).
 *
 * Invariant: `children` holds the pids of the live simulation children
 * of this process, slots of finished ones are 0; `paths` the files and
 * folders to remove, free slots empty strings.  The signal handler only
 * reads them and calls async-signal-safe functions (kill, unlink, open,
 * the getdents64 system call, unlinkat, rmdir, sigaction, raise).
 */
#include "lifetime.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define CHILDREN_MAX 256
#define PATH_LEN 1200

static volatile pid_t children[CHILDREN_MAX];
static char paths[LIFETIME_PATHS][PATH_LEN];
static int handlers_installed;

/* A folder's files (no subfolders: ours have none), then the folder;
 * with system calls only, as a signal handler may. */
static void remove_folder(const char *dir)
{
    int fd = open(dir, O_RDONLY | O_DIRECTORY);
    if (fd < 0)
        return;
    char buf[4096];
    long n;
    while ((n = syscall(SYS_getdents64, fd, buf, sizeof buf)) > 0)
        for (long off = 0; off < n;) {
            const char *rec = buf + off;
            unsigned short reclen;
            memcpy(&reclen, rec + 16, sizeof reclen); /* d_reclen */
            const char *name = rec + 19;              /* d_name */
            if (strcmp(name, ".") != 0 && strcmp(name, "..") != 0)
                unlinkat(fd, name, 0);
            off += reclen;
        }
    close(fd);
    rmdir(dir);
}

static void stop_children_and_die(int sig)
{
    for (int i = 0; i < CHILDREN_MAX; i++)
        if (children[i] > 0)
            kill(children[i], SIGKILL);
    for (int i = 0; i < LIFETIME_PATHS; i++)
        if (paths[i][0] && unlink(paths[i]) < 0 && (errno == EISDIR || errno == EPERM))
            remove_folder(paths[i]);
    struct sigaction dfl = {0};
    dfl.sa_handler = SIG_DFL;
    sigaction(sig, &dfl, NULL);
    raise(sig);
}

/* The signals that end a command and its children, leaving no partial
 * output: ^C, kill, and the terminal closed (SIGHUP).  One the command
 * was started ignoring (nohup's SIGHUP, a script's background job's
 * SIGINT) stays ignored, in the command and in its children. */
static const int ending[] = {SIGINT, SIGTERM, SIGHUP};
enum { N_ENDING = sizeof ending / sizeof ending[0] };

static void ending_set(sigset_t *set)
{
    sigemptyset(set);
    for (int i = 0; i < N_ENDING; i++)
        sigaddset(set, ending[i]);
}

/* Every ending signal to `sa`, but those ignored since the command's start. */
static void set_ending_unless_ignored(const struct sigaction *sa)
{
    for (int i = 0; i < N_ENDING; i++) {
        struct sigaction was;
        if (sigaction(ending[i], NULL, &was) == 0 && was.sa_handler == SIG_IGN)
            continue;
        sigaction(ending[i], sa, NULL);
    }
}

static void install_handlers(void)
{
    struct sigaction sa = {0};
    sa.sa_handler = stop_children_and_die;
    ending_set(&sa.sa_mask);
    set_ending_unless_ignored(&sa);
    handlers_installed = 1;
}

void lifetime_watch(pid_t child)
{
    if (!handlers_installed)
        install_handlers();
    for (int i = 0; i < CHILDREN_MAX; i++)
        if (children[i] == 0) {
            children[i] = child;
            return;
        }
    /* more live children than slots: the caller's bug; the child still
     * dies with us through its death signal */
}

void lifetime_remove_on_signal(const char *path)
{
    if (!handlers_installed)
        install_handlers();
    for (int i = 0; i < LIFETIME_PATHS; i++)
        if (!paths[i][0]) {
            char copy[PATH_LEN];
            snprintf(copy, sizeof copy, "%s", path);
            sigset_t block, old;
            ending_set(&block);
            sigprocmask(SIG_BLOCK, &block, &old); /* the handler sees it whole or not at all */
            memcpy(paths[i], copy, sizeof copy);
            sigprocmask(SIG_SETMASK, &old, NULL);
            return;
        }
}

void lifetime_forget(const char *path)
{
    for (int i = 0; i < LIFETIME_PATHS; i++)
        if (strcmp(paths[i], path) == 0)
            paths[i][0] = '\0';
}

void lifetime_unwatch(pid_t child)
{
    for (int i = 0; i < CHILDREN_MAX; i++)
        if (children[i] == child)
            children[i] = 0;
}

void lifetime_kill(pid_t child)
{
    kill(child, SIGKILL);
    while (waitpid(child, NULL, 0) < 0 && errno == EINTR)
        ;
    lifetime_unwatch(child);
}

void lifetime_child_start(pid_t parent)
{
    struct sigaction dfl = {0};
    dfl.sa_handler = SIG_DFL;
    set_ending_unless_ignored(&dfl);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) /* the parent died before the line above */
        _exit(1);
}
