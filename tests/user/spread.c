/*
 * spread.c — constants.cu's spread_kernel written once (sim/exec/mcm_kernel.h),
 * a fixture for the resident-spread rows (not a case study): each of the
 * grid's blocks of 256 threads sums `passes` words of its own stretch of A,
 * thread j word k·256 + j of it (coalesced), each with a Z/pZ product by
 * j + 3 and a Z/pZ sum, writes its partial sum to private word j, then the
 * block halves its 256 partial sums over 8 barrier-separated levels, and
 * thread 0 writes the block's sum out.  Run with K·132 blocks on h100-code
 * and --trace, the blocks an SM holds give the engine's start spread, end
 * spread, busy time and mean life beside the card's
 * resident_*_blocksK rows (validate/notes/instruction-stream.md, "an SM's
 * blocks served in order").
 *
 * Params: blocks (the grid), passes (words a thread, 4 as the card's rows),
 * levels (8, or 0: the passes alone, thread 0 writing its own sum, as the
 * rows `_case_passes16_nolevels`).
 */
#include "mcm_kernel.h"

#include <stdlib.h>

#define SPREAD_THREADS 256 /* eight halving levels */

typedef struct spread_args {
    gmem a, out;
    long passes;
} spread_args;

/* Step 0: thread j's sum of its words, each times j + 3. */
MCM_STEP(partial, spread_args, s)
{
    word sum = 0, b = (word)t->tid + 3;
    long row = t->bid * s->passes * SPREAD_THREADS;
    for (long k = 0; k < s->passes; k++)
        sum = exec_zp_add(t, sum, exec_zp_mul(t, exec_gread(t, s->a, row + k * SPREAD_THREADS + t->tid), b));
    exec_pwrite(t, t->tid, sum);
}

/* The passes alone (levels = 0): thread 0 writes its own sum out. */
MCM_STEP(partial_out, spread_args, s)
{
    word sum = 0, b = (word)t->tid + 3;
    long row = t->bid * s->passes * SPREAD_THREADS;
    for (long k = 0; k < s->passes; k++)
        sum = exec_zp_add(t, sum, exec_zp_mul(t, exec_gread(t, s->a, row + k * SPREAD_THREADS + t->tid), b));
    if (t->tid == 0)
        exec_gwrite(t, s->out, t->bid, sum);
}

/* Steps 1 to 8: level k = t->step halves the partial sums. */
MCM_STEP(halve, spread_args, s)
{
    (void)s;
    long half = (long)SPREAD_THREADS >> t->step;
    if (t->tid < half)
        exec_pwrite(t, t->tid, exec_zp_add(t, exec_pread(t, t->tid), exec_pread(t, t->tid + half)));
}

/* Step 9: the block's sum out. */
MCM_STEP(store, spread_args, s)
{
    if (t->tid == 0)
        exec_gwrite(t, s->out, t->bid, exec_pread(t, 0));
}

MCM_KERNEL(spread, spread_args, partial, halve, halve, halve, halve, halve, halve, halve, halve, store);
MCM_KERNEL(spread_flat, spread_args, partial_out);

static gmem A, out;
static long blocks, passes, levels;
static word *expected;

static int setup(exec_run *run, const mcm_params *p)
{
    blocks = (long)mcm_param(p, "blocks", 132);
    passes = (long)mcm_param(p, "passes", 4);
    levels = (long)mcm_param(p, "levels", 8);
    if (blocks < 1 || passes < 1 || (levels != 8 && levels != 0))
        return mcm_fail("spread: needs blocks >= 1, passes >= 1 and levels 8 or 0 (got %ld, %ld, %ld)", blocks,
                        passes, levels);
    long words = blocks * passes * SPREAD_THREADS;
    A = mcm_alloc(run, "A", words);
    out = mcm_alloc(run, "out", blocks);
    uint64_t state = mcm_seed(p);
    free(expected);
    expected = (word *)calloc((size_t)blocks, sizeof *expected);
    for (long i = 0; i < words; i++) {
        word v = mcm_random(&state) % MCM_PRIME;
        mcm_set(A, i, v);
        word b = (word)(i % SPREAD_THREADS) + 3;
        long r = i / (passes * SPREAD_THREADS);
        if (levels || i % SPREAD_THREADS == 0) /* levels = 0: thread 0's words alone */
            expected[r] = (expected[r] + v * b % MCM_PRIME) % MCM_PRIME;
    }
    return 0;
}

static int launches(exec_run *run)
{
    spread_args s = {A, out, passes};
    return mcm_launch(run, levels ? &spread : &spread_flat, blocks, SPREAD_THREADS, SPREAD_THREADS, &s);
}

static int check(exec_run *run)
{
    (void)run;
    for (long r = 0; r < blocks; r++)
        if (mcm_get(out, r) != expected[r])
            return mcm_fail("spread: out[%ld] = %llu, the serial sum says %llu", r,
                            (unsigned long long)mcm_get(out, r), (unsigned long long)expected[r]);
    return 0;
}

MCM_PROGRAM("spread", setup, launches, check);
