/*
 * block_scan_costs.h — what the kernels of block_scan.h measure in exec
 * mode, block by block: for the tests of the cases that scan,
 * programs/stockham/test_exec_stockham.c (the operator a product in Z/pZ,
 * 11 operations) and programs/radix-sort/test_exec_radix_sort.c (a 32-bit
 * addition, 1).  Their kernels.c compare these with model.c's.
 *
 * With o the operator's operations and L = log ℓ, a tile scan
 * (tile_scan_steps) costs thread 0, the longest (it works at every level
 * of both sweeps, and clears the root): the partial 4 reads, 3 operators,
 * a write (5 + 3o); a level up 2 reads, an operator, a write (3 + o); the
 * clear a read and 2 writes (3); a level down 2 reads, 2 writes, an
 * operator (4 + o); the run 5 reads, 4 writes, 3 operators (9 + 3o): in
 * all 17 + 6o + (7 + 2o)L.  The block: every thread's partial and run,
 * ℓ − 1 thread-levels a sweep, one clear: ℓ(14 + 6o) + (ℓ − 1)(7 + 2o) + 3.
 * A private access is one operation.  Transfers are an independent count
 * of the UMM rule (tests/helpers.h, round_cell_words).
 */
#ifndef MCM_BLOCK_SCAN_COSTS_H
#define MCM_BLOCK_SCAN_COSTS_H

#include "helpers.h"

#include <math.h>
#include <string.h>

/* Round k of a tile's load or store: item tile·4ℓ + kℓ + tid (tile = the
 * block plus `first`, or `chunk` for scan_mediate's one block), if below
 * len. */
typedef struct scan_rounds {
    long len, chunk, first;
    int l, round;
} scan_rounds;

static long scan_item_cell(long g, const void *ctx)
{
    const scan_rounds *p = ctx;
    long tile = p->chunk >= 0 ? p->chunk : g / p->l + p->first;
    long item = tile * 4 * p->l + p->round * p->l + g % p->l;
    return item < p->len ? item : -1;
}

/* Items of tile `tile` below len, and thread 0's. */
static long scan_items(long len, int l, long tile, int thread0)
{
    long left = len - tile * 4L * l;
    if (thread0)
        return left <= 0 ? 0 : left >= 3L * l + 1 ? 4 : (left + l - 1) / l;
    return left < 0 ? 0 : left > 4L * l ? 4L * l : left;
}

/* Kernel `launched` (scan_tiles, scan_mediate or scan_apply) of a scan of
 * len items, ℓ threads a block, warp w, an operator of o operations: what
 * its block b measures.  0 if `launched` is none of them. */
static inline int scan_kernel_expected(const char *launched, double o, long len, int l, int w, long b,
                                       block_expected *e)
{
    double L = log2(l), scan_span = 17 + 6 * o + (7 + 2 * o) * L;
    double scan_work = l * (14 + 6 * o) + (l - 1) * (7 + 2 * o) + 3;
    scan_rounds p = {len, -1, 0, l, 0};
    *e = (block_expected){0, 0, 0, 0, 0, 0};
    if (strcmp(launched, "scan_tiles") == 0) {
        /* the load 4 writes a thread; the store a read a real item, and
         * thread 0 the total's read and its write */
        double own = (double)scan_items(len, l, b, 1), items = (double)scan_items(len, l, b, 0);
        e->span = 4 + scan_span + own + 1;
        e->work = 4.0 * l + scan_work + items + 1;
        for (p.round = 0; p.round < 4; p.round++) {
            e->reads += round_cell_words(scan_item_cell, &p, b, l, w);
            e->writes += round_cell_words(scan_item_cell, &p, b, l, w);
        }
        e->writes += (double)(w < l ? w : l) / l;
        e->alpha = own;
        e->beta = own + 1;
    } else if (strcmp(launched, "scan_mediate") == 0) {
        /* chunk c: the load, thread 0's carry (a write for c = 0, else 2
         * reads, an operator, a write), the scan, the store (the carry's
         * read, then a read and an operator a real item) */
        for (p.chunk = 0; p.chunk * 4L * l < len; p.chunk++) {
            double own = (double)scan_items(len, l, p.chunk, 1), items = (double)scan_items(len, l, p.chunk, 0);
            double carry = p.chunk == 0 ? 1 : 3 + o;
            e->span += 4 + carry + scan_span + 1 + own * (1 + o);
            e->work += 4.0 * l + carry + scan_work + l + items * (1 + o);
            for (p.round = 0; p.round < 4; p.round++) {
                e->reads += round_cell_words(scan_item_cell, &p, 0, l, w);
                e->writes += round_cell_words(scan_item_cell, &p, 0, l, w);
            }
            e->alpha += own;
            e->beta += own;
        }
    } else if (strcmp(launched, "scan_apply") == 0) {
        /* tile b + 1: its prefix read, an operator a real item */
        double own = (double)scan_items(len, l, b + 1, 1), items = (double)scan_items(len, l, b + 1, 0);
        e->span = o * own;
        e->work = o * items;
        e->reads = 1;
        for (p.first = 1, p.round = 0; p.round < 4; p.round++) {
            e->reads += round_cell_words(scan_item_cell, &p, b, l, w);
            e->writes += round_cell_words(scan_item_cell, &p, b, l, w);
        }
        e->alpha = own + 1;
        e->beta = own;
    } else {
        return 0;
    }
    return 1;
}

#endif
