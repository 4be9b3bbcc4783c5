/*
 * gather.c — a gather through an index array, written once
 * (sim/exec/mcm_kernel.h): mcmsim runs it in exec mode, nvcc builds it for the
 * card.
 *
 * out[i] = table[index[i]] for n lookups into a table of m words, the
 * indices drawn at random in setup; `iters` launches of the same gather.
 * A warp reads 32 consecutive indices (one line) and then 32 words
 * scattered over the table: up to 32 lines, a sector of each.  Where they
 * come from is the table's size: a table of a few KiB stays in every SM's
 * L1, one of a few MiB in the L2, one of 64 MiB comes from DRAM, so a
 * sweep over m walks the card's three levels at the same number of
 * accesses.
 *
 * Race-free on the card: a launch reads index and table and writes out.
 *
 * Params: n (lookups, >= 1), m (table words, >= 1), l (threads per block),
 * iters (launches, >= 1).
 */
#include "mcm_kernel.h"

#include <stdlib.h>

typedef struct lookup {
    gmem index, table, out;
    long n;
} lookup;

MCM_STEP(fetch, lookup, a)
{
    long i = t->bid * t->threads + t->tid;
    if (i >= a->n)
        return;
    long at = (long)exec_gread(t, a->index, i);
    exec_gwrite(t, a->out, i, exec_gread(t, a->table, at));
}

MCM_KERNEL(gather, lookup, fetch);

static gmem indices, table, out;
static long n, m, iters;
static int l;

static int setup(exec_run *run, const mcm_params *p)
{
    n = (long)mcm_param(p, "n", 1 << 19);
    m = (long)mcm_param(p, "m", 1 << 14);
    l = (int)mcm_param(p, "l", 256);
    iters = (long)mcm_param(p, "iters", 2);
    if (n < 1 || m < 1 || m > (1L << 31) || l < 1 || iters < 1)
        return mcm_fail("gather: needs n >= 1, 1 <= m <= 2^31, l >= 1 and iters >= 1 (got %ld, %ld, %d, %ld)",
                        n, m, l, iters);
    indices = mcm_alloc(run, "index", n);
    table = mcm_alloc(run, "table", m);
    out = mcm_alloc(run, "out", n);
    uint64_t state = mcm_seed(p);
    for (long k = 0; k < m; k++)
        mcm_set(table, k, mcm_random(&state) % 0xFFFFFFFFu);
    for (long i = 0; i < n; i++)
        mcm_set(indices, i, mcm_random(&state) % (uint64_t)m);
    return 0;
}

static int launches(exec_run *run)
{
    lookup a = {indices, table, out, n};
    for (long k = 0; k < iters; k++)
        if (mcm_launch(run, &gather, (n + l - 1) / l, l, 0, &a) < 0)
            return -1;
    return 0;
}

static int check(exec_run *run)
{
    (void)run;
    for (long i = 0; i < n; i++) { /* the serial reference: the lookup itself */
        word at = mcm_get(indices, i);
        if (at >= (word)m || mcm_get(out, i) != mcm_get(table, (long)at))
            return mcm_fail("gather: out[%ld] = %llu, table[index[%ld] = %llu] is %llu", i,
                            (unsigned long long)mcm_get(out, i), i, (unsigned long long)at,
                            at < (word)m ? (unsigned long long)mcm_get(table, (long)at) : 0ull);
    }
    return 0;
}

MCM_PROGRAM("gather", setup, launches, check);
