/*
 * jacobi.c — a 1D Jacobi stencil through private memory, written once
 * (sim/exec/mcm_kernel.h): mcmsim runs it in exec mode, nvcc builds it for the
 * card.
 *
 * Each sweep is one kernel: u'[i] = (u[i−1] + 2·u[i] + u[i+1]) / 4 for
 * 0 < i < n−1 (integer division; the two ends keep their values), from
 * one array into the other, `iters` sweeps in all.  A block of ℓ threads
 * handles ℓ consecutive cells: in its first step each thread copies its
 * cell into private memory, and the first and last threads also copy the
 * cells beyond the block's ends (the halo); after the barrier each thread
 * computes its cell from three private words and writes it.  So a block
 * reads (ℓ + 2) words of global memory once and its threads share them,
 * which is the lesson: private memory turns three global reads per cell
 * into about one.
 *
 * Race-free on the card: a launch reads one array and writes the other;
 * the private words are written in step 1 and read in step 2.
 *
 * Params: n (cells, >= 3), l (threads per block), iters (sweeps, >= 1).
 */
#include "mcm_kernel.h"

#include <stdlib.h>

typedef struct sweep {
    gmem in, out;
    long n;
} sweep;

/* Step 1: the block's cells, and its halo, into private memory: cell g
 * of the block's range at private word 1 + (g − first). */
MCM_STEP(load, sweep, a)
{
    long first = t->bid * t->threads, g = first + t->tid;
    if (g < a->n)
        exec_pwrite(t, 1 + t->tid, exec_gread(t, a->in, g));
    if (t->tid == 0 && first > 0)
        exec_pwrite(t, 0, exec_gread(t, a->in, first - 1));
    long last = first + t->threads; /* the cell after the block */
    if (t->tid == t->threads - 1 && last < a->n)
        exec_pwrite(t, 1 + t->threads, exec_gread(t, a->in, last));
}

/* Step 2: relax one cell. */
MCM_STEP(relax, sweep, a)
{
    long g = t->bid * t->threads + t->tid;
    if (g >= a->n)
        return;
    word mid = exec_pread(t, 1 + t->tid);
    if (g == 0 || g == a->n - 1) {
        exec_gwrite(t, a->out, g, mid);
        return;
    }
    word left = exec_pread(t, t->tid), right = exec_pread(t, 2 + t->tid);
    exec_ops(t, 4); /* two additions, a doubling, a division */
    exec_gwrite(t, a->out, g, (left + 2 * mid + right) / 4);
}

MCM_KERNEL(jacobi, sweep, load, relax);

static gmem u[2];
static long n, iters;
static int l;
static word *expected;

static int setup(exec_run *run, const mcm_params *p)
{
    n = (long)mcm_param(p, "n", 65536);
    l = (int)mcm_param(p, "l", 256);
    iters = (long)mcm_param(p, "iters", 8);
    if (n < 3 || l < 1 || iters < 1)
        return mcm_fail("jacobi: needs n >= 3, l >= 1 and iters >= 1 (got %ld, %d, %ld)", n, l, iters);
    u[0] = mcm_alloc(run, "u0", n);
    u[1] = mcm_alloc(run, "u1", n);
    word *now = (word *)malloc(sizeof *now * (size_t)n), *next = (word *)malloc(sizeof *next * (size_t)n);
    uint64_t state = mcm_seed(p);
    for (long i = 0; i < n; i++) {
        now[i] = mcm_random(&state) % (1u << 20);
        mcm_set(u[0], i, now[i]);
    }
    for (long k = 0; k < iters; k++) { /* the serial reference */
        next[0] = now[0];
        next[n - 1] = now[n - 1];
        for (long i = 1; i < n - 1; i++)
            next[i] = (now[i - 1] + 2 * now[i] + now[i + 1]) / 4;
        word *swap = now;
        now = next;
        next = swap;
    }
    free(next);
    free(expected);
    expected = now;
    return 0;
}

static int launches(exec_run *run)
{
    for (long k = 0; k < iters; k++) {
        sweep a = {u[k % 2], u[(k + 1) % 2], n};
        if (mcm_launch(run, &jacobi, (n + l - 1) / l, l, l + 2, &a) < 0)
            return -1;
    }
    return 0;
}

static int check(exec_run *run)
{
    (void)run;
    gmem result = u[iters % 2];
    for (long i = 0; i < n; i++)
        if (mcm_get(result, i) != expected[i])
            return mcm_fail("jacobi: cell %ld is %llu after %ld sweeps, the serial reference says %llu", i,
                            (unsigned long long)mcm_get(result, i), iters, (unsigned long long)expected[i]);
    return 0;
}

MCM_PROGRAM("jacobi", setup, launches, check);
