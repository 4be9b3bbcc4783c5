/*
 * kernels.c — the Stockham FFT over Z/pZ, its kernels written once
 * (sim/exec/mcm_kernel.h): mcmsim runs them in exec mode (`--exec`), nvcc
 * builds them for the card (cuda_ref/run-all.sh, case stockham).  The
 * model a student computes, with its closed forms, is model.c.
 *
 * One run, 3 log n + 1 launches (paper §4.2; thesis App. B line 5343):
 *   the powers ω^e, e < n, as the exclusive prefix product of n copies of
 *   ω (../common/block_scan.h, the operator a Z/pZ product):
 *     scan_tiles    n/(4ℓ) blocks, 2 log ℓ + 5 steps
 *     scan_mediate  1 block, ⌈n/(16ℓ²)⌉ chunks of 2 log ℓ + 5 steps
 *     scan_apply    n/(4ℓ) − 1 blocks
 *   then the FFT of the input (../common/stockham_fft.h):
 *     butterfly, then for each step s = 1 .. log n − 1: stride, twiddle,
 *     butterfly.
 * (For n < 8ℓ, which model.c refuses, the powers are one tile, and
 * scan_tiles alone computes them: 3 log n − 1 launches.)
 *
 * Measured costs against model.c's declared ones (test_exec_stockham.c
 * asserts each of these exactly; w the warp, q = 2^i the rows of a step):
 *   - the kernels, their order, grids and threads, N, L and K: equal.  The
 *     launches are named after their kernels: scan_tiles, scan_mediate and
 *     scan_apply are model.c's roots-inclusive, -mediate and -exclusive.
 *   - butterfly: W(B) = 16ℓ, α = β = 2, O(B) = 4U: equal; S(B) = 16, model
 *     8 (model.c note 1: the worksheet halves the spans).
 *   - stride: S(B) = 25, W(B) = 25ℓ, α = β = 1: equal (the index charge is
 *     the worksheet's).  O(B) = 2U where q >= w, as declared; where q < w
 *     the gather reads rows 2r, 2r + 2, ... of q words, 2w consecutive
 *     words, two address groups a warp: 3U (ℓ >= w; a block of fewer
 *     threads, as the UMM rule counts it).  The worksheet's kernel (CUMODP)
 *     permutes in shared memory, every access coalesced.
 *   - twiddle: W(B) = 20ℓ, β = 1: equal; S(B) = 20, model 10 (note 1);
 *     α = 2 and O(B) = 3U, model 1 and 2U: the worksheet leaves out the
 *     read of the power ω^e (a warp's powers lie in one address group).
 *   - scan_tiles: S(B) = 29 log ℓ + 92, W(B) = 117ℓ − 25, model
 *     8 log ℓ + 17 and 16ℓ + 1: the worksheet counts a prefix SUM at 3 + 5
 *     instructions a sweep level; here a product is 11 operations and
 *     every private access one.  Thread 0, the longest (it works at every
 *     level): the load 4 writes; the partial 4 reads, 3 products, a write
 *     (38); a level up 2 reads, a product, a write (14); the clear a read,
 *     2 writes (3); a level down 2 reads, 2 writes, a product (15); the run
 *     5 reads, 4 writes, 3 products (42); the store 4 reads and the
 *     total's (5).  The block: every thread's load, partial, run and
 *     store, ℓ − 1 thread-levels a sweep, one clear and one total.
 *     α = 4: equal; β = 5 and O(B) = (8 + min(w, ℓ)/ℓ)U, model 4 and 8U:
 *     thread 0 writes the tile's total for scan_mediate.
 *   - scan_mediate: c = ⌈n/(16ℓ²)⌉ chunks of the n/(4ℓ) totals, chunk j
 *     holding m_j of them, thread 0 r_j: S(B) = Σ_j 88 + 29 log ℓ + 12 r_j
 *     + (1 for j = 0, else 14: the carry, a write, or 2 reads, a product, a
 *     write), W(B) = Σ_j 114ℓ − 26 + 12 m_j + (1 or 14); α = β = Σ_j r_j,
 *     and its words are the totals' address groups (model: one tile,
 *     8 log ℓ + 17, 16ℓ + 1, α = β = 4, 8U; model.c note 6).
 *   - scan_apply: α = 5, β = 4, O(B) = 9U: equal; S(B) = 44, W(B) = 44ℓ,
 *     model 4 and 4ℓ: 4 products of 11.
 *   - private-memory bank conflicts (DMM rule): the scans' equal model.c's
 *     (programs/cuda_counts.c, from the same accesses) where ℓ >= 32;
 *     below, cuda_counts.c counts a warp of 32 threads, more than a block
 *     of ℓ has.  The FFT kernels make no private access.
 * So exec mode's T is above the model's: the spans of the scans, the
 * butterflies and the twiddles, and the twiddles' third word.
 *
 * Check: the transform against the serial radix-2 FFT of
 * ../common/fft_reference.h (itself checked against the naive DFT by
 * test_exec_stockham.c).
 *
 * Params: n (FFT size, a power of two in [4, 2^26]), l (ℓ, a power of
 * two <= 1024).
 */
#include "mcm_kernel.h"

#include <stdlib.h>

static MCM_DEVICE word scan_op(exec_thread *t, word a, word b) { return exec_zp_mul(t, a, b); }
#define SCAN_IDENTITY 1

#include "../common/block_scan.h"
#include "../common/fft_reference.h"
#include "../common/stockham_fft.h"

static gmem x, omegas, powers, totals, buf0, buf1;
static long n;
static int l;

static int power_of_two(double v) { return v >= 1 && v == (double)(long)v && ((long)v & ((long)v - 1)) == 0; }

static int setup(exec_run *run, const mcm_params *p)
{
    double size = mcm_param(p, "n", 65536), threads = mcm_param(p, "l", 128);
    if (!power_of_two(threads) || threads > 1024)
        return mcm_fail("stockham: ℓ must be a power of two <= 1024 (got l = %g)", threads);
    if (!power_of_two(size) || size < 4 || size > (double)(1L << FFT_MAX_LOG2))
        return mcm_fail("stockham: n must be a power of two in [4, 2^%d] (got n = %g)", FFT_MAX_LOG2, size);
    n = (long)size;
    l = (int)threads;
    x = mcm_alloc(run, "x", n);
    omegas = mcm_alloc(run, "omegas", n);
    powers = mcm_alloc(run, "powers", n);
    totals = mcm_alloc(run, "totals", scan_tile_count(n, l));
    buf0 = mcm_alloc(run, "buf0", n);
    buf1 = mcm_alloc(run, "buf1", n);
    uint64_t state = mcm_seed(p);
    word omega = fft_root_of_unity(n);
    for (long i = 0; i < n; i++) {
        mcm_set(x, i, mcm_random(&state) % MCM_PRIME);
        mcm_set(omegas, i, omega);
    }
    return 0;
}

static int launches(exec_run *run)
{
    if (scan_exclusive(run, omegas, powers, totals, n, l) < 0)
        return -1;
    return stockham_fft(run, x, buf0, buf1, powers, n, l, 0);
}

static int check(exec_run *run)
{
    (void)run;
    word *want = (word *)malloc(sizeof *want * (size_t)n);
    if (!want)
        return mcm_fail("stockham: no memory for the serial reference (n = %ld)", n);
    for (long i = 0; i < n; i++)
        want[i] = mcm_get(x, i);
    serial_fft(want, n, fft_root_of_unity(n));
    gmem y = stockham_result(buf0, buf1, n);
    int rc = 0;
    for (long i = 0; i < n && rc == 0; i++)
        if (mcm_get(y, i) != want[i])
            rc = mcm_fail("stockham: DFT[%ld] = %llu, the serial FFT gives %llu (n = %ld, l = %d)", i,
                          (unsigned long long)mcm_get(y, i), (unsigned long long)want[i], n, l);
    free(want);
    return rc;
}

MCM_PROGRAM("stockham", setup, launches, check);
