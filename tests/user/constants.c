/*
 * constants.c — a fixture for the lines of the card's constant bank a
 * kernel's code reads (sim/exec/stream_ir_args.c; not a case study): two
 * kernels of one block of 32 threads, both passed the same args, one int
 * before five arrays and one after.  A gmem is a pointer of 8 bytes here
 * and a struct of 24 on the card, so the args lie, in bank 0 from 0x210:
 *
 *   field   C offset   card offset   card byte   line
 *   near        0           0          0x210     0x200 (the touch kernel's)
 *   in          8           8          0x218     0x200
 *   out        16          32          0x230     0x200
 *   x, y, z  24-40      56-104     0x248-0x278   0x200 (unread)
 *   far        48         128          0x290     0x280
 *
 *   near_kernel  out[tid] = in[tid] + near: only the touch kernel's line;
 *   far_kernel   out[tid] = in[tid] + far: the line 0x280 more.
 */
#include "mcm_kernel.h"

typedef struct args {
    int near;
    gmem in, out, x, y, z;
    int far;
} args;

MCM_STEP(add_near, args, a)
{
    exec_gwrite(t, a->out, t->tid, exec_gread(t, a->in, t->tid) + (word)a->near);
}

MCM_STEP(add_far, args, a)
{
    exec_gwrite(t, a->out, t->tid, exec_gread(t, a->in, t->tid) + (word)a->far);
}

MCM_KERNEL(near_kernel, args, add_near);
MCM_KERNEL(far_kernel, args, add_far);

static gmem in, out;

static int setup(exec_run *run, const mcm_params *p)
{
    (void)p;
    in = mcm_alloc(run, "in", 32);
    out = mcm_alloc(run, "out", 32);
    for (long i = 0; i < 32; i++)
        mcm_set(in, i, (word)i);
    return 0;
}

static int launches(exec_run *run)
{
    args a = {1, in, out, in, in, in, 2};
    if (mcm_launch(run, &near_kernel, 1, 32, 0, &a) < 0)
        return -1;
    return mcm_launch(run, &far_kernel, 1, 32, 0, &a);
}

static int check(exec_run *run)
{
    (void)run;
    for (long i = 0; i < 32; i++)
        if (mcm_get(out, i) != (word)(i + 2))
            return mcm_fail("out[%ld] = %llu, not %ld", i, (unsigned long long)mcm_get(out, i), i + 2);
    return 0;
}

MCM_PROGRAM("constants", setup, launches, check);
