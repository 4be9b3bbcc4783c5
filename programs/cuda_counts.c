/*
 * cuda_counts.c — the class counts of the hand-written block scan
 * (cuda_ref/common/block_scan.cuh before issue 26; see cuda_counts.h).  With L = log2 ℓ, thread 0 (the longest path: it works
 * at every level of both sweeps) of tile_exclusive_scan does
 *   operator: 3 (its partial of 4 items) + L (up-sweep) + L (down-sweep)
 *             + 4 (the run over its items) = 2L + 7;
 *   barriers: 1 + (L + 3 + L) in block_exclusive_scan + 1 = 2L + 5;
 *   private:  4 (load) + 5 (partial) + 3L (up) + 2 (total, identity)
 *             + 5L (down) + 9 (run) + 4 (store) = 8L + 24;
 *   plain:    3 per loaded or stored item (index, bound, add) = 24,
 *             3 per level of each sweep = 6L, 1 per item of the run = 4.
 * The whole block (work) is not ℓ times that: at level d of a sweep only
 * the ℓ/(2d) threads with (t + 1)·2d − 1 < ℓ work, ℓ − 1 thread-levels a
 * sweep in all, and only thread 0 writes the identity.
 * Bank conflicts (the DMM's rule, sim/model/kernel_dag.h; w = 32 banks):
 *   - thread t's 4 items lie at 4t .. 4t + 3: each of the 12 accesses of
 *     the partial and the run puts a warp's words 4 to a bank (3 extra
 *     rounds);
 *   - at level d of a sweep the working threads touch words 2d apart: a
 *     warp of k working threads reaches 32/gcd(2d, 32) banks, so the
 *     fullest takes ⌈k·gcd(2d, 32)/32⌉ words; 3 accesses a level up, 4
 *     down (v[i − d] and v[i], read and written);
 *   - the loads and stores of the tile, partial[] and the total: none.
 */
#include "cuda_counts.h"

#include <math.h>

#define BANKS 32.0 /* a CUDA warp's 32 threads and the card's 32 banks */

static double gcd(double a, double b)
{
    while (b > 0) {
        double r = fmod(a, b);
        a = b;
        b = r;
    }
    return a;
}

double strided_ways(double stride, double threads, double banks)
{
    return ceil(threads * gcd(stride, banks) / banks);
}

/* Extra rounds of the banks in one tile scan of ℓ threads (above). */
static double scan_conflicts(double threads)
{
    double warps = ceil(threads / BANKS), extra = warps * 12 * (strided_ways(4, BANKS, BANKS) - 1);
    for (double d = 1; 2 * d <= threads; d *= 2) {
        double working = floor(threads / (2 * d));
        double ways = strided_ways(2 * d, fmin(working, BANKS), BANKS);
        extra += ceil(working / BANKS) * (3 + 4) * (ways - 1);
    }
    return extra;
}

void cuda_tile_scan_block(int threads, cuda_scan_block *out)
{
    double l = threads, L = log2(l), levels = l - 1; /* thread-levels of one sweep */
    out->op = 7 * l + 2 * levels;
    out->plain = 28 * l + 6 * levels;
    out->private_ops = 24 * l - (l - 1) + 8 * levels;
    out->barriers = (2 * L + 5) * l;
    out->conflicts = scan_conflicts(l);
}

void cuda_tile_scan_classes(block_cost *c, int threads, int zp)
{
    double L = log2(threads), op = 2 * L + 7, plain = 6 * L + 28;
    cost_set_classes(c, threads, plain + (zp ? 0 : op), zp ? op : 0, 0, 8 * L + 24, 2 * L + 5);
    cuda_scan_block b;
    cuda_tile_scan_block(threads, &b);
    c->work_ops[OP_PLAIN] = b.plain + (zp ? 0 : b.op);
    c->work_ops[OP_MULMOD] = zp ? b.op : 0;
    c->work_ops[OP_PRIVATE] = b.private_ops;
    c->work_ops[OP_BARRIER] = b.barriers;
    c->bank_conflicts = b.conflicts;
}

void cuda_scan_apply_classes(block_cost *c, int threads, int zp)
{
    /* 4 items: the operator, an index, a bound */
    cost_set_classes(c, threads, 8 + (zp ? 0 : 4), zp ? 4 : 0, 0, 0, 0);
}
