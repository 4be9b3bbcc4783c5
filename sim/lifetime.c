/*
 * lifetime.c — children that die with their parent (see lifetime.h).
 *
 * Invariant: `children` holds the pids of the live simulation children
 * of this process, slots of finished ones are 0.  The signal handler only
 * reads it and calls async-signal-safe functions (kill, sigaction, raise).
 */
#include "lifetime.h"

#include <signal.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <unistd.h>

#define CHILDREN_MAX 256

static volatile pid_t children[CHILDREN_MAX];
static int handlers_installed;

static void stop_children_and_die(int sig)
{
    for (int i = 0; i < CHILDREN_MAX; i++)
        if (children[i] > 0)
            kill(children[i], SIGKILL);
    struct sigaction dfl = {0};
    dfl.sa_handler = SIG_DFL;
    sigaction(sig, &dfl, NULL);
    raise(sig);
}

static void install_handlers(void)
{
    struct sigaction sa = {0};
    sa.sa_handler = stop_children_and_die;
    sigemptyset(&sa.sa_mask);
    sigaddset(&sa.sa_mask, SIGINT);
    sigaddset(&sa.sa_mask, SIGTERM);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
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

void lifetime_unwatch(pid_t child)
{
    for (int i = 0; i < CHILDREN_MAX; i++)
        if (children[i] == child)
            children[i] = 0;
}

void lifetime_child_start(pid_t parent)
{
    struct sigaction dfl = {0};
    dfl.sa_handler = SIG_DFL;
    sigaction(SIGINT, &dfl, NULL);
    sigaction(SIGTERM, &dfl, NULL);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) /* the parent died before the line above */
        _exit(1);
}
