/*
 * stream.c — a fixture for the instruction stream (sim/exec/stream.h; not a
 * case study): kernels whose instructions a test derives by hand from the
 * rules of sim/exec/stream_ir*.c.  Blocks of 32 threads: one warp each.
 *
 *   adds    thread t: x = t, then k times x = x + (x >> 3), on 32 bits;
 *   branch  threads t < k write one word, the others another (a call on
 *           each side: a branch, not a choice the compiler makes of both);
 *   zpmul   one Z/pZ multiplication of two words read from memory;
 *   unrolled  an MCM_UNROLL loop of 32 multiply-adds, each of the word j
 *           read from memory by 3 (clang alone would keep the loop), the
 *           sum written at 32 + tid;
 *   twice   a product computed twice, of the same two words, then added;
 *   power   3^tid by exec_zp_pow (square and multiply over tid's bits);
 *   two     two steps, each leaving out the threads tid >= k: the first
 *           writes out[tid] = out[32 + tid]·factor (an arg of 64 bits), the
 *           second out[32 + tid] = 7;
 *   apart   two Z/pZ products of a word read, neither of the other: x·x and
 *           x·3, written at i and i + 32;
 *   chained the same two, the second of the first: (x·x)·3, written at i;
 *   zpsum   k Z/pZ additions in a loop, each of the sum before it;
 *   helped  after a step that fills private memory, two steps that call
 *           one helper of the file (MCM_DEVICE) with a constant flag, as
 *           plain division's quotient_step: the first flag makes a
 *           product, the second a product and a difference;
 *   written the same three steps with the helper's sides written in place;
 *   stores  k private writes in a loop bounded by the arg k (a call that
 *           writes memory: clang could not know it leaves k alone but for
 *           the counted build's `restrict` args).
 *
 * Params: k (the loop's trips; the threads that branch), blocks.
 */
#include "mcm_kernel.h"

#include <stdint.h>

typedef struct args {
    gmem out;
    int k;
    word factor;
} args;

MCM_STEP(adds, args, a)
{
    uint32_t x = (uint32_t)t->tid;
    for (int i = 0; i < a->k; i++)
        x = x + (x >> 3);
    exec_gwrite(t, a->out, t->bid * t->threads + t->tid, x);
}

MCM_STEP(branch, args, a)
{
    uint32_t x = (uint32_t)t->tid;
    long i = t->bid * t->threads + t->tid;
    if (t->tid < a->k)
        exec_gwrite(t, a->out, i, x * x + 7);
    else
        exec_gwrite(t, a->out, i + 32, x ^ (x >> 5));
}

MCM_STEP(zpmul, args, a)
{
    long i = t->bid * t->threads + t->tid;
    exec_gwrite(t, a->out, i, exec_zp_mul(t, exec_gread(t, a->out, i), exec_gread(t, a->out, i + 32)));
}

MCM_STEP(unrolled, args, a)
{
    word s = 0;
    MCM_UNROLL
    for (int j = 0; j < 32; j++)
        s = exec_zp_add(t, s, exec_zp_mul(t, exec_gread(t, a->out, j), 3));
    exec_gwrite(t, a->out, 32 + t->tid, s);
}

MCM_STEP(twice, args, a)
{
    long i = t->bid * t->threads + t->tid;
    word x = exec_gread(t, a->out, i), y = exec_gread(t, a->out, i + 32);
    exec_gwrite(t, a->out, i, exec_zp_add(t, exec_zp_mul(t, x, y), exec_zp_mul(t, x, y)));
}

MCM_STEP(power, args, a)
{
    exec_gwrite(t, a->out, t->tid, exec_zp_pow(t, 3, (uint64_t)t->tid));
}

MCM_STEP(first_half, args, a)
{
    if (t->tid >= a->k)
        return;
    exec_gwrite(t, a->out, t->tid, exec_zp_mul(t, exec_gread(t, a->out, 32 + t->tid), a->factor));
}

MCM_STEP(second_half, args, a)
{
    if (t->tid >= a->k)
        return;
    exec_gwrite(t, a->out, 32 + t->tid, 7);
}

MCM_STEP(apart, args, a)
{
    long i = t->bid * t->threads + t->tid;
    word x = exec_gread(t, a->out, i);
    exec_gwrite(t, a->out, i, exec_zp_mul(t, x, x));
    exec_gwrite(t, a->out, i + 32, exec_zp_mul(t, x, 3));
}

MCM_STEP(chained, args, a)
{
    long i = t->bid * t->threads + t->tid;
    word x = exec_gread(t, a->out, i);
    exec_gwrite(t, a->out, i, exec_zp_mul(t, exec_zp_mul(t, x, x), 3));
}

MCM_STEP(zpsum, args, a)
{
    word x = exec_gread(t, a->out, t->tid), s = 0;
    for (int j = 0; j < a->k; j++)
        s = exec_zp_add(t, s, x);
    exec_gwrite(t, a->out, t->tid, s);
}

static MCM_DEVICE void reduce(exec_thread *t, args *a, int makes_factor)
{
    if (makes_factor) {
        if (t->tid == 0)
            exec_pwrite(t, 0, exec_zp_mul(t, exec_pread(t, 1), a->factor));
    } else if (t->tid > 0 && t->tid < a->k) {
        word product = exec_zp_mul(t, exec_pread(t, 0), exec_pread(t, 2 + t->tid));
        exec_pwrite(t, 2 + t->tid, exec_zp_sub(t, exec_pread(t, 2 + t->tid), product));
    }
}

MCM_STEP(fill, args, a)
{
    exec_pwrite(t, t->tid, 5);
    exec_pwrite(t, 32 + t->tid, 5);
}

MCM_STEP(helped_factor, args, a) { reduce(t, a, 1); }
MCM_STEP(helped_reduce, args, a) { reduce(t, a, 0); }

MCM_STEP(written_factor, args, a)
{
    if (t->tid == 0)
        exec_pwrite(t, 0, exec_zp_mul(t, exec_pread(t, 1), a->factor));
}

MCM_STEP(written_reduce, args, a)
{
    if (t->tid > 0 && t->tid < a->k) {
        word product = exec_zp_mul(t, exec_pread(t, 0), exec_pread(t, 2 + t->tid));
        exec_pwrite(t, 2 + t->tid, exec_zp_sub(t, exec_pread(t, 2 + t->tid), product));
    }
}

MCM_STEP(stores, args, a)
{
    for (int j = 0; j < a->k; j++)
        exec_pwrite(t, 32 * j + t->tid, 1);
}

MCM_KERNEL(adds_kernel, args, adds);
MCM_KERNEL(branch_kernel, args, branch);
MCM_KERNEL(zpmul_kernel, args, zpmul);
MCM_KERNEL(unrolled_kernel, args, unrolled);
MCM_KERNEL(twice_kernel, args, twice);
MCM_KERNEL(power_kernel, args, power);
MCM_KERNEL(two_kernel, args, first_half, second_half);
MCM_KERNEL(apart_kernel, args, apart);
MCM_KERNEL(chained_kernel, args, chained);
MCM_KERNEL(zpsum_kernel, args, zpsum);
MCM_KERNEL(helped_kernel, args, fill, helped_factor, helped_reduce);
MCM_KERNEL(written_kernel, args, fill, written_factor, written_reduce);
MCM_KERNEL(stores_kernel, args, stores);

static gmem out;
static int k;
static long blocks;

static int setup(exec_run *run, const mcm_params *p)
{
    k = (int)mcm_param(p, "k", 4);
    blocks = (long)mcm_param(p, "blocks", 1);
    out = mcm_alloc(run, "out", 64 * blocks);
    return 0;
}

static int launches(exec_run *run)
{
    args a = {out, k, 5};
    if (mcm_launch(run, &adds_kernel, blocks, 32, 0, &a) < 0 || mcm_launch(run, &branch_kernel, blocks, 32, 0, &a) < 0)
        return -1;
    if (mcm_launch(run, &zpmul_kernel, 1, 32, 0, &a) < 0 || mcm_launch(run, &unrolled_kernel, 1, 32, 0, &a) < 0 ||
        mcm_launch(run, &twice_kernel, 1, 32, 0, &a) < 0 || mcm_launch(run, &power_kernel, 1, 32, 0, &a) < 0)
        return -1;
    if (mcm_launch(run, &two_kernel, 1, 32, 0, &a) < 0 || mcm_launch(run, &apart_kernel, 1, 32, 0, &a) < 0)
        return -1;
    if (mcm_launch(run, &chained_kernel, 1, 32, 0, &a) < 0 || mcm_launch(run, &zpsum_kernel, 1, 32, 0, &a) < 0)
        return -1;
    if (mcm_launch(run, &helped_kernel, 1, 32, 64, &a) < 0)
        return -1;
    if (mcm_launch(run, &written_kernel, 1, 32, 64, &a) < 0)
        return -1;
    return mcm_launch(run, &stores_kernel, 1, 32, 32 * (k > 0 ? k : 1), &a);
}

static int check(exec_run *run)
{
    (void)run;
    return 0;
}

MCM_PROGRAM("stream", setup, launches, check);
