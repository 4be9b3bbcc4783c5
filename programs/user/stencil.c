/*
 * stencil.c — a 2-D five-point stencil read straight from global memory,
 * written once (sim/exec/mcm_kernel.h): mcmsim runs it in exec mode, nvcc
 * builds it for the card.
 *
 * An n × n grid of 32-bit cells, stored by rows.  Each sweep is one
 * kernel, from one array into the other: an inner cell becomes
 * (up + down + left + right + 4·centre) / 8 (integer division), a border
 * cell keeps its value; `iters` sweeps in all.  One thread a cell, blocks
 * of ℓ consecutive cells; a thread reads its centre, then its left, right,
 * up and down neighbours, each from global memory.  So every cell is read
 * five times in a sweep: by its own thread, by the two beside it (in the
 * same warp, mostly: the card's L1 serves them) and by the threads of the
 * rows above and below (blocks n/ℓ apart, on other SMs: the L2 serves
 * them).  The lesson is the naive stencil's: the card moves each cell about
 * once from DRAM, not five times, and it is the caches that make it so.
 *
 * Race-free on the card: a sweep reads one array and writes the other.
 *
 * Params: n (cells a side, >= 3), l (threads per block), iters (sweeps, >= 1).
 */
#include "mcm_kernel.h"

#include <stdlib.h>

typedef struct sweep {
    gmem in, out;
    long n;
} sweep;

MCM_STEP(relax, sweep, a)
{
    long g = t->bid * t->threads + t->tid, n = a->n;
    if (g >= n * n)
        return;
    long i = g / n, j = g % n;
    word centre = exec_gread(t, a->in, g);
    if (i == 0 || j == 0 || i == n - 1 || j == n - 1) {
        exec_gwrite(t, a->out, g, centre);
        return;
    }
    word left = exec_gread(t, a->in, g - 1), right = exec_gread(t, a->in, g + 1);
    word up = exec_gread(t, a->in, g - n), down = exec_gread(t, a->in, g + n);
    exec_ops(t, 6); /* four additions, a shift, a division */
    exec_gwrite(t, a->out, g, (up + down + left + right + 4 * centre) / 8);
}

MCM_KERNEL(stencil, sweep, relax);

static gmem grid[2];
static long n, iters;
static int l;
static word *expected;

static int setup(exec_run *run, const mcm_params *p)
{
    n = (long)mcm_param(p, "n", 512);
    l = (int)mcm_param(p, "l", 256);
    iters = (long)mcm_param(p, "iters", 2);
    if (n < 3 || l < 1 || iters < 1)
        return mcm_fail("stencil: needs n >= 3, l >= 1 and iters >= 1 (got %ld, %d, %ld)", n, l, iters);
    long cells = n * n;
    grid[0] = mcm_alloc(run, "u0", cells);
    grid[1] = mcm_alloc(run, "u1", cells);
    word *now = (word *)malloc(sizeof *now * (size_t)cells), *next = (word *)malloc(sizeof *next * (size_t)cells);
    uint64_t state = mcm_seed(p);
    for (long g = 0; g < cells; g++) {
        now[g] = mcm_random(&state) % (1u << 20);
        mcm_set(grid[0], g, now[g]);
    }
    for (long k = 0; k < iters; k++) { /* the serial reference */
        for (long g = 0; g < cells; g++) {
            long i = g / n, j = g % n;
            if (i == 0 || j == 0 || i == n - 1 || j == n - 1)
                next[g] = now[g];
            else
                next[g] = (now[g - n] + now[g + n] + now[g - 1] + now[g + 1] + 4 * now[g]) / 8;
        }
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
        sweep a = {grid[k % 2], grid[(k + 1) % 2], n};
        if (mcm_launch(run, &stencil, (n * n + l - 1) / l, l, 0, &a) < 0)
            return -1;
    }
    return 0;
}

static int check(exec_run *run)
{
    (void)run;
    gmem result = grid[iters % 2];
    for (long g = 0; g < n * n; g++)
        if (mcm_get(result, g) != expected[g])
            return mcm_fail("stencil: cell (%ld, %ld) is %llu after %ld sweeps, the serial reference says %llu",
                            g / n, g % n, (unsigned long long)mcm_get(result, g), iters,
                            (unsigned long long)expected[g]);
    return 0;
}

MCM_PROGRAM("stencil", setup, launches, check);
