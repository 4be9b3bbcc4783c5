/*
 * stockham_fft_costs.h — what the kernels of stockham_fft.h measure in
 * exec mode, block by block, against the cost the model declares for
 * them (programs/stockham/model.c): for the tests of the cases that run them,
 * programs/stockham/test_exec_stockham.c and
 * programs/fft-mult/test_exec_fft_mult.c.  The reasons are in
 * programs/stockham/kernels.c ("Measured costs against model.c's").
 *
 * Transfers are an independent count of the UMM rule (tests/helpers.h,
 * round_cell_words): each warp of a round pays one transaction per
 * distinct address group its active threads touch.
 */
#ifndef MCM_STOCKHAM_FFT_COSTS_H
#define MCM_STOCKHAM_FFT_COSTS_H

#include "helpers.h"

#include <string.h>

/* One FFT of size n (rows of q words at a step), and the round counted. */
typedef struct fft_rounds {
    long n, q;
    int inverse, round;
} fft_rounds;

static long butterfly_cell(long g, const void *ctx)
{
    const fft_rounds *p = ctx;
    return g < p->n / 2 ? g + p->round * p->n / 2 : -1;
}

static long own_cell(long g, const void *ctx)
{
    const fft_rounds *p = ctx;
    return g < p->n ? g : -1;
}

/* L_2 ⊗ I_q gathers output word g from row 2r or 2(r − N/2) + 1. */
static long gathered_cell(long g, const void *ctx)
{
    const fft_rounds *p = ctx;
    if (g >= p->n)
        return -1;
    long row = g / p->q, rows = p->n / p->q;
    long from = row < rows / 2 ? 2 * row : 2 * (row - rows / 2) + 1;
    return from * p->q + g % p->q;
}

/* Round 0: word n/2 + j; round 1: its power, ω^e or ω^(n−e), e = ⌊j/q⌋q. */
static long twiddle_cell(long g, const void *ctx)
{
    const fft_rounds *p = ctx;
    if (g >= p->n / 2)
        return -1;
    long e = g / p->q * p->q;
    return p->round == 0 ? p->n / 2 + g : p->inverse ? (p->n - e) % p->n : e;
}

/* Model kernel `what` ("butterfly[3]", "stride[2]", "twiddle[1]": the
 * name without a label) of an FFT of size n, ℓ threads a block, on warp
 * w: what its block b measures, from the declared cost d. */
static inline int fft_kernel_expected(const char *what, const block_cost *d, long n, int l, int w, int inverse,
                                      long b, block_expected *e)
{
    fft_rounds p = {n, 1, inverse, 0};
    int step;
    *e = (block_expected){d->span, d->work, 0, 0, d->reads, d->writes};
    if (strncmp(what, "butterfly[", 10) == 0) {
        e->span = 2 * d->span; /* 6 + 2·5 a thread; W(B) as declared */
        for (p.round = 0; p.round < 2; p.round++) {
            e->reads += round_cell_words(butterfly_cell, &p, b, l, w);
            e->writes += round_cell_words(butterfly_cell, &p, b, l, w);
        }
    } else if (sscanf(what, "stride[%d]", &step) == 1) {
        p.q = n >> step >> 1; /* q = 2^(log n − 1 − step) */
        e->reads = round_cell_words(gathered_cell, &p, b, l, w);
        e->writes = round_cell_words(own_cell, &p, b, l, w);
    } else if (sscanf(what, "twiddle[%d]", &step) == 1) {
        p.q = n >> step >> 1;
        e->span = 2 * d->span; /* 9 + 11 a thread */
        e->alpha = 2;          /* the word and its power */
        e->writes = round_cell_words(twiddle_cell, &p, b, l, w);
        for (p.round = 0; p.round < 2; p.round++)
            e->reads += round_cell_words(twiddle_cell, &p, b, l, w);
    } else {
        return 0;
    }
    return 1;
}

#endif
