/*
 * cuda_counts.c — the class counts of cuda_ref/common/block_scan.cuh (see
 * cuda_counts.h).  With L = log2 ℓ, thread 0 (the longest path: it works
 * at every level of both sweeps) of tile_exclusive_scan does
 *   operator: 3 (its partial of 4 items) + L (up-sweep) + L (down-sweep)
 *             + 4 (the run over its items) = 2L + 7;
 *   barriers: 1 + (L + 3 + L) in block_exclusive_scan + 1 = 2L + 5;
 *   private:  4 (load) + 5 (partial) + 3L (up) + 2 (total, identity)
 *             + 5L (down) + 9 (run) + 4 (store) = 8L + 24;
 *   plain:    3 per loaded or stored item (index, bound, add) = 24,
 *             3 per level of each sweep = 6L, 1 per item of the run = 4.
 */
#include "cuda_counts.h"

#include <math.h>

void cuda_tile_scan_classes(block_cost *c, int threads, int zp)
{
    double L = log2(threads), op = 2 * L + 7, plain = 6 * L + 28;
    cost_set_classes(c, threads, plain + (zp ? 0 : op), zp ? op : 0, 0, 8 * L + 24, 2 * L + 5);
}

void cuda_scan_apply_classes(block_cost *c, int threads, int zp)
{
    /* 4 items: the operator, an index, a bound */
    cost_set_classes(c, threads, 8 + (zp ? 0 : 4), zp ? 4 : 0, 0, 0, 0);
}
