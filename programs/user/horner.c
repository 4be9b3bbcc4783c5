/*
 * horner.c — a polynomial evaluated at n points by Horner's rule, every
 * thread reading the same coefficient at each step of its loop (a
 * broadcast), written once (sim/exec/mcm_kernel.h): mcmsim runs it in exec
 * mode, nvcc builds it for the card.
 *
 * y[i] = c[d]·x[i]^d + ... + c[1]·x[i] + c[0] mod 2^32, one thread a
 * point: acc = acc·x + c[j] for j = d down to 0.  In round j every lane of
 * every warp reads c[j]: one word, one sector, which the first warp of an
 * SM brings into its L1 and every other warp finds there.  Counted as
 * traffic, a warp moves a word per lane per round; the card moves one
 * sector per SM per round, and serves the rest from the L1.
 *
 * Race-free on the card: x and c are read, y written.
 *
 * Params: n (points, >= 1), d (degree, >= 0), l (threads per block).
 */
#include "mcm_kernel.h"

#include <stdlib.h>

typedef struct poly {
    gmem c, x, y;
    long n, d;
} poly;

MCM_STEP(evaluate, poly, a)
{
    long i = t->bid * t->threads + t->tid;
    if (i >= a->n)
        return;
    uint32_t x = (uint32_t)exec_gread(t, a->x, i), acc = 0;
    for (long j = a->d; j >= 0; j--) {
        acc = acc * x + (uint32_t)exec_gread(t, a->c, j);
        exec_ops(t, 2); /* a multiplication and an addition, mod 2^32 */
    }
    exec_gwrite(t, a->y, i, acc);
}

MCM_KERNEL(horner, poly, evaluate);

static gmem c, x, y;
static long n, d;
static int l;
static uint32_t *expected;

static int setup(exec_run *run, const mcm_params *p)
{
    n = (long)mcm_param(p, "n", 1 << 16);
    d = (long)mcm_param(p, "d", 32);
    l = (int)mcm_param(p, "l", 256);
    if (n < 1 || d < 0 || l < 1)
        return mcm_fail("horner: needs n >= 1, d >= 0 and l >= 1 (got %ld, %ld, %d)", n, d, l);
    c = mcm_alloc(run, "c", d + 1);
    x = mcm_alloc(run, "x", n);
    y = mcm_alloc(run, "y", n);
    uint32_t *coef = (uint32_t *)malloc(sizeof *coef * (size_t)(d + 1));
    uint64_t state = mcm_seed(p);
    for (long j = 0; j <= d; j++) {
        coef[j] = (uint32_t)(mcm_random(&state) % 0xFFFFFFFFu);
        mcm_set(c, j, coef[j]);
    }
    free(expected);
    expected = (uint32_t *)malloc(sizeof *expected * (size_t)n);
    for (long i = 0; i < n; i++) { /* the serial reference */
        uint32_t at = (uint32_t)(mcm_random(&state) % 0xFFFFFFFFu), acc = 0;
        mcm_set(x, i, at);
        for (long j = d; j >= 0; j--)
            acc = acc * at + coef[j];
        expected[i] = acc;
    }
    free(coef);
    return 0;
}

static int launches(exec_run *run)
{
    poly a = {c, x, y, n, d};
    return mcm_launch(run, &horner, (n + l - 1) / l, l, 0, &a);
}

static int check(exec_run *run)
{
    (void)run;
    for (long i = 0; i < n; i++)
        if (mcm_get(y, i) != expected[i])
            return mcm_fail("horner: y[%ld] = %llu, the serial evaluation says %lu", i,
                            (unsigned long long)mcm_get(y, i), (unsigned long)expected[i]);
    return 0;
}

MCM_PROGRAM("horner", setup, launches, check);
