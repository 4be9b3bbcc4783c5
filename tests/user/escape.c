/*
 * escape.c — a fixture for the exec-mode child's filter
 * (sim/exec/user_filter.h), for exec mode only (not built for the card):
 * a program that tries what a user's program must not do, each of which
 * must stop it with one message naming the call (test_user_program).
 *
 * Param `try`, in thread 0 of block 0 of kernel 'k' (in setup for 6):
 *   0 nothing: the program runs and checks
 *   1 open a file for reading (/etc/passwd)
 *   2 create the file named by $MCMSIM_TEST_ESCAPE
 *   3 start a process (fork)
 *   4 run a program (/bin/true)
 *   5 connect to a socket (127.0.0.1, port 9)
 *   6 open a file for reading, in setup
 * With $MCMSIM_TEST_ESCAPE_AT_LOAD set, its constructor, which runs while
 * the object is loaded, creates the file it names.
 */
#define _DEFAULT_SOURCE
#include "mcm_kernel.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

typedef struct try_args {
    gmem a;
    int what;
} try_args;

static int attempt(int what)
{
    if (what == 1)
        return open("/etc/passwd", O_RDONLY);
    if (what == 2 && getenv("MCMSIM_TEST_ESCAPE"))
        return open(getenv("MCMSIM_TEST_ESCAPE"), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (what == 3) {
        pid_t pid = fork();
        if (pid == 0)
            _exit(0);
        return (int)pid;
    }
    if (what == 4) {
        char *argv[] = {"/bin/true", NULL};
        return execv(argv[0], argv);
    }
    if (what == 5) {
        int s = socket(AF_INET, SOCK_STREAM, 0);
        struct sockaddr_in to = {0};
        to.sin_family = AF_INET;
        to.sin_port = htons(9);
        to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        return connect(s, (struct sockaddr *)&to, sizeof to);
    }
    return 0;
}

__attribute__((constructor)) static void at_load(void)
{
    const char *path = getenv("MCMSIM_TEST_ESCAPE_AT_LOAD");
    if (path)
        open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
}

MCM_STEP(step, try_args, a)
{
    if (t->bid == 0 && t->tid == 0)
        attempt(a->what);
    exec_gwrite(t, a->a, t->bid * t->threads + t->tid, 1);
}

MCM_KERNEL(k, try_args, step);

static gmem a;
static int what;

static int setup(exec_run *run, const mcm_params *p)
{
    what = (int)mcm_param(p, "try", 0);
    a = mcm_alloc(run, "a", 64);
    if (what == 6)
        attempt(1);
    return 0;
}

static int launches(exec_run *run)
{
    try_args args = {a, what};
    return mcm_launch(run, &k, 2, 32, 0, &args);
}

static int check(exec_run *run)
{
    (void)run;
    for (long i = 0; i < 64; i++)
        if (mcm_get(a, i) != 1)
            return mcm_fail("a[%ld] = %llu, not 1", i, (unsigned long long)mcm_get(a, i));
    return 0;
}

MCM_PROGRAM("escape", setup, launches, check);
