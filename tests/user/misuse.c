/*
 * misuse.c — a fixture for the two builds of sim/exec/mcm_kernel.h: a program
 * that breaks one rule of the phases, chosen by the param `bad`, and must
 * fail with one clear message (cuda_ref/smoke.sh expects exit status 1):
 *   0 nothing (check ok)   1 mcm_set in launches   2 mcm_get in setup
 *   3 a launch of 0 blocks   4 mcm_set of a word over 32 bits
 */
#include "mcm_kernel.h"

typedef struct one_args {
    gmem a;
} one_args;

MCM_STEP(bump, one_args, a)
{
    if (t->tid == 0)
        exec_gwrite(t, a->a, t->bid, exec_gread(t, a->a, t->bid) + 1);
}

MCM_KERNEL(one, one_args, bump);

static gmem a;
static int bad;

static int setup(exec_run *run, const mcm_params *p)
{
    bad = (int)mcm_param(p, "bad", 0);
    a = mcm_alloc(run, "a", 4);
    mcm_set(a, 0, bad == 4 ? 1ull << 32 : 7);
    if (bad == 2)
        return (int)mcm_get(a, 0);
    return 0;
}

static int launches(exec_run *run)
{
    one_args x = {a};
    if (bad == 1)
        mcm_set(a, 1, 1);
    return mcm_launch(run, &one, bad == 3 ? 0 : 4, 32, 0, &x);
}

static int check(exec_run *run)
{
    (void)run;
    if (mcm_get(a, 0) != 8 || mcm_get(a, 3) != 1)
        return mcm_fail("misuse: a[0] = %llu, a[3] = %llu, want 8 and 1", (unsigned long long)mcm_get(a, 0),
                        (unsigned long long)mcm_get(a, 3));
    return 0;
}

MCM_PROGRAM("misuse", setup, launches, check);
