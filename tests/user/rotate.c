/*
 * rotate.c — a fixture for the two builds of sim/exec/mcm_kernel.h (not a case
 * study): three steps through private memory with a barrier between them.
 * Block b of ℓ threads loads its ℓ words into private memory (step 0),
 * rotates them by one into a second region (step 1: thread i reads the word
 * thread i+1 wrote in the step before), and stores them, times 4, plus the
 * step number (step 2).  `pad` extra private words (unused) let the smoke
 * test ask for more than 48 KiB of shared memory.
 *
 * Params: n (words, a multiple of l), l (threads per block), pad (>= 0).
 */
#include "mcm_kernel.h"

typedef struct rot_args {
    gmem in, out;
    long n;
} rot_args;

MCM_STEP(load, rot_args, a)
{
    long i = t->bid * t->threads + t->tid;
    exec_pwrite(t, t->tid, exec_gread(t, a->in, i));
}

MCM_STEP(rotate, rot_args, a)
{
    exec_pwrite(t, t->threads + t->tid, exec_pread(t, (t->tid + 1) % t->threads));
}

MCM_STEP(store, rot_args, a)
{
    long i = t->bid * t->threads + t->tid;
    exec_ops(t, 2);
    exec_gwrite(t, a->out, i, 4 * exec_pread(t, t->threads + t->tid) + (word)t->step);
}

MCM_KERNEL(rot, rot_args, load, rotate, store);

static gmem in, out;
static long n, pad;
static int l;

static int setup(exec_run *run, const mcm_params *p)
{
    n = (long)mcm_param(p, "n", 4096);
    l = (int)mcm_param(p, "l", 256);
    pad = (long)mcm_param(p, "pad", 0);
    if (l < 1 || n < l || n % l != 0 || pad < 0)
        return mcm_fail("rotate: needs l >= 1, n a multiple of l, pad >= 0 (got n = %ld, l = %d, pad = %ld)",
                        n, l, pad);
    in = mcm_alloc(run, "in", n);
    out = mcm_alloc(run, "out", n);
    uint64_t state = mcm_seed(p);
    for (long i = 0; i < n; i++)
        mcm_set(in, i, mcm_random(&state) >> 34); /* 30 bits: 4v + 2 fits a 32-bit word */
    return 0;
}

static int launches(exec_run *run)
{
    rot_args a = {in, out, n};
    return mcm_launch(run, &rot, n / l, l, 2L * l + pad, &a);
}

static int check(exec_run *run)
{
    (void)run;
    for (long i = 0; i < n; i++) {
        long b = i / l, j = i % l;
        word want = 4 * mcm_get(in, b * l + (j + 1) % l) + 2;
        if (mcm_get(out, i) != want)
            return mcm_fail("rotate: out[%ld] = %llu, want %llu", i, (unsigned long long)mcm_get(out, i),
                            (unsigned long long)want);
    }
    return 0;
}

MCM_PROGRAM("rotate", setup, launches, check);
