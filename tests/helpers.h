/*
 * helpers.h — small shared pieces of the Criterion tests: a kernel in one
 * line, a DAG simulated in one call, a config file written to /tmp.
 */
#ifndef MCM_TEST_HELPERS_H
#define MCM_TEST_HELPERS_H

#include "engine.h"
#include "fail.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A kernel of `blocks` blocks of `threads` threads, span `span`, moving
 * `reads`/`writes` coalesced words per thread. */
static inline kernel test_kernel(const char *name, long blocks, int threads, double span,
                                 double reads, double writes)
{
    kernel k = {.name = (char *)name, .blocks = blocks, .threads = threads,
                .cost = {.span = span, .work = -1, .reads = reads, .writes = writes},
                .private_words = -1};
    return k;
}

static inline machine test_machine(int p, double u)
{
    machine m;
    machine_defaults(&m);
    m.p = p;
    m.u = u;
    return m;
}

/* Simulate, failing the test with the engine's message on error. */
static inline sim_result simulate(const kernel_dag *dag, const machine *m)
{
    sim_result r;
    int rc = sim_run(dag, m, NULL, &r);
    cr_assert_eq(rc, 0, "sim_run failed: %s", fail_message());
    return r;
}

/* Write `text` to a new file under /tmp; returns its path (static buffer
 * per call site is not needed: the caller frees). */
static inline char *temp_file(const char *text, const char *suffix)
{
    char *path = malloc(64);
    snprintf(path, 64, "/tmp/mcmsim-test-XXXXXX%s", suffix);
    int fd = mkstemps(path, (int)strlen(suffix));
    cr_assert(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs(text, f);
    fclose(f);
    return path;
}

#endif
