/*
 * cuda_counts.h — operation classes (sim/model/kernel_dag.h) of the CUDA code
 * that several case studies share: the hand-written block scan
 * (cuda_ref/common/block_scan.cuh before issue 26, now written once as
 * programs/common/block_scan.h), as the Stockham FFT's powers of ω (a
 * prefix product in Z/pZ) and radix sort's counts (32-bit additions) use it.
 *
 * Counting convention of every case study's program file: per thread along
 * the longest thread's path, one C operator on integers or one comparison
 * is a plain operation, one zp_mul a mulmod, one zp_add or zp_sub an
 * addmod, one read or write of __shared__ memory a private access, one
 * __syncthreads a barrier; global loads and stores are O(B), not classes.
 */
#ifndef MCM_CUDA_COUNTS_H
#define MCM_CUDA_COUNTS_H

#include "kernel_dag.h"

/* The DMM's rule for a warp's access of `threads` words `stride` apart
 * over `banks` banks (stride > 0): the fullest bank takes
 * ⌈threads·gcd(stride, banks)/banks⌉ of them. */
double strided_ways(double stride, double threads, double banks);

/* One tile_exclusive_scan of ℓ threads, the whole block's counts: the
 * operator's applications, plain operations, private accesses, barriers
 * (one per thread each) and extra rounds of the private banks. */
typedef struct cuda_scan_block {
    double op, plain, private_ops, barriers, conflicts;
} cuda_scan_block;
void cuda_tile_scan_block(int threads, cuda_scan_block *out);

/* scan_tiles_kernel (and one chunk of scan_mediate_kernel): a tile of 4ℓ
 * items scanned by ℓ threads, the operator `zp` ? zp_mul : a 32-bit add;
 * the span classes are thread 0's, the work and bank conflicts the whole
 * block's (cuda_tile_scan_block). */
void cuda_tile_scan_classes(block_cost *c, int threads, int zp);

/* scan_apply_kernel: every thread combines 4 items with the tile prefix. */
void cuda_scan_apply_classes(block_cost *c, int threads, int zp);

#endif
