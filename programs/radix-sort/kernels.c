/*
 * kernels.c — radix sort of n keys of c bits, s bits a pass, its kernels
 * written once (sim/exec/mcm_kernel.h): mcmsim runs them in exec mode
 * (`--exec`), nvcc builds them for the card (cuda_ref/run-all.sh, case
 * radix-sort).  The model a student computes, with its closed forms, is
 * model.c.
 *
 * After Satish, Harris and Garland (thesis §4.6, App. B line 6067): ⌈c/s⌉
 * passes, least significant digit first, each of five launches over
 * T = n/(4ℓ) tiles of 4ℓ keys (4 a thread):
 *   local_sort    T blocks: the block loads its tile, sorts it by the
 *                 pass's digit with s 1-bit splits in private memory (the
 *                 zeros of the bit marked, their exclusive scan by
 *                 ../common/block_scan.h's tile scan, every key moved to
 *                 its place, zeros first, both groups in order), writes
 *                 the sorted tile and its histogram, hist[d·T + tile] for
 *                 each digit d: the count of d, read off the sorted tile
 *                 as first(d + 1) − first(d) by binary search;
 *   scan_tiles, scan_mediate, scan_apply  the exclusive prefix sum of the
 *                 2^s·T histogram (column-major), ../common/block_scan.h
 *                 with 32-bit additions (scan_mediate and scan_apply left
 *                 out when the histogram is one tile of 4ℓ, as model.c
 *                 does);
 *   scatter       T blocks: each key of a sorted tile goes to the scanned
 *                 offset of its digit and tile plus its rank among the
 *                 tile's keys of that digit (its place − first(digit)).
 * Keys alternate between two arrays; the input is never written.  These
 * are the hand-written CUDA's kernels (cuda_ref/radix-sort.cu, which this
 * replaces) but for the binary search: it stopped when its range was
 * empty, after log2(4ℓ) or log2(4ℓ) + 1 probes as the keys fell, where
 * this one always makes log2(4ℓ) + 1, a selection each (the branch-free
 * lower bound), so that every count but the scatter's addresses is
 * independent of the keys.
 *
 * What is counted: every private access (exec mode does), and as one
 * operation each a bit or digit extracted (shift and mask), an addition,
 * a subtraction, a comparison, a selection, applied to keys, marks and
 * counts; index arithmetic and loop bookkeeping are not.  A probe of the
 * search is a read and 3 operations (the digit, the comparison, the
 * selection; the last probe's selection an addition): 4(log ℓ + 3) a
 * search.
 *
 * Measured costs against model.c's declared ones (test_exec_radix_sort.c
 * asserts each of these exactly; r = ⌈2^s/ℓ⌉ digits a thread, w the warp):
 *   - the kernels, their order, grids and threads, N, L and K: equal.  The
 *     launches are named after their kernels: model.c's LocalSort[p],
 *     ScanInclusive[p], ScanMediate[p], ScanExclusive[p] and Scatter[p]
 *     are local_sort, scan_tiles, scan_mediate, scan_apply and scatter.
 *   - local_sort: S(B) = 8 + s(9 log ℓ + 68) + r(8 log ℓ + 25) and
 *     W(B) = 8ℓ + s(74ℓ − 6) + (2^s − 1)(8 log ℓ + 25) + 4 log ℓ + 13,
 *     model s(8 log ℓ + 41) + 12 and s(22ℓ + 1) + 12.  Thread 0, the
 *     longest: the load 4 writes; a split, the marks 16 (4 reads, 8
 *     operations, 4 writes), the tile scan 9 log ℓ + 23
 *     (../common/block_scan_costs.h, an addition of 1 operation), the
 *     moves 29 (the zeros' count, then 2 reads, 4 operations and a write a
 *     key); the store 4 reads; a digit's count two searches and a
 *     subtraction, 8 log ℓ + 25 (the last digit's one search, 4 log ℓ + 13).
 *     α = 4: equal; β = 4 + r, model 5: equal where 2^s <= ℓ.  O(B): the
 *     tile's 4 + 4 words coalesced, as declared; the histogram's words,
 *     `tiles` apart, an address group each once tiles >= w: 2^s·w/ℓ words
 *     a thread where 2^s <= ℓ, model 1.
 *   - scan_tiles: S(B) = 9 log ℓ + 32, W(B) = 37ℓ − 5, model 8 log ℓ + 17
 *     and 16ℓ + 1 (the worksheet's 3 + 5 instructions a level; here every
 *     private access counts); α = 4: equal; β = 5 and O(B) =
 *     (8 + min(w, ℓ)/ℓ)U, model 4 and 8U: thread 0 writes the tile's total.
 *   - scan_mediate: chunk j of its c = ⌈G/4ℓ⌉ (G the scan_tiles blocks)
 *     holding m_j totals, thread 0 r_j: S(B) = Σ_j 28 + 9 log ℓ + 2r_j +
 *     (1 for j = 0, else 4: the carry), W(B) = Σ_j 34ℓ − 6 + 2m_j + (1 or
 *     4); α = β = Σ_j r_j, its words the totals' (model: one tile of 4ℓ).
 *   - scan_apply: S(B) = 4, W(B) = 4ℓ, α = 5, β = 4, O(B) = 9U: equal.
 *   - scatter: S(B) = 16 log ℓ + 68, W(B) = ℓ(16 log ℓ + 68), model 4 and
 *     4ℓ (the worksheet lost this span and finds no digit's first place):
 *     the load 4 writes, then a key a read, a search 4(log ℓ + 3) and 3
 *     operations.  α = 8, model 5: the tile's 4 keys and each key's offset
 *     (the hand-written kernel reads an offset a key); β = 4: equal.  O(B):
 *     the tile's 4 words coalesced; the offsets and the places depend on
 *     the keys (a run of equal digits in a warp goes to consecutive cells).
 * So exec mode's T is above the model's at every s; and its best s is
 * below log ℓ (the histogram and the offsets an address group a digit,
 * two searches a digit), where the thesis and the model take 2^s = ℓ.
 *
 * Check: against qsort of the same keys.
 *
 * Params: n (keys, a multiple of 4ℓ), l (ℓ, a power of two <= 1024), s
 * (bits a pass, 1 <= s <= min(c, 16)), c (bits a key, <= 32).
 */
#include "mcm_kernel.h"

#include <stdlib.h>

static MCM_DEVICE word scan_op(exec_thread *t, word a, word b)
{
    exec_ops(t, 1);
    return (uint32_t)(a + b);
}
#define SCAN_IDENTITY 0

#include "../common/block_scan.h"

#define KEYS 4 /* a thread's keys: a tile is 4ℓ */

typedef struct sort_args {
    tile_scan at;       /* the flags at 8ℓ, their partials at 12ℓ, their total at 13ℓ */
    gmem keys, sorted, hist;
    long tiles;
    int shift, bits;    /* the pass's digit: bits shift .. shift + bits − 1 */
} sort_args;

typedef struct scatter_args {
    gmem sorted, offsets, out;
    long tiles;
    int shift, bits;
} scatter_args;

/* Keys are 32-bit words: their arithmetic in 32 bits, as on the card.  A
 * pass's shift is below 32; where s does not divide c its last digit's
 * high bits lie past the key's 32, and are 0. */
static MCM_DEVICE uint32_t digit_of(uint32_t key, int shift, int bits) { return key >> shift & ((1u << bits) - 1); }
static MCM_DEVICE uint32_t bit_of(uint32_t key, int bit) { return bit < 32 ? key >> bit & 1 : 0; }

/* The first place in the sorted tile at private `at` (4ℓ keys) whose key's
 * digit is >= d: log2(4ℓ) halvings and a last probe, whatever the keys. */
static MCM_DEVICE int first_with_digit(exec_thread *t, int at, uint32_t d, int shift, int bits)
{
    int base = 0;
    for (int left = KEYS * t->threads; left > 1;) {
        int half = left / 2;
        exec_ops(t, 3);
        base = digit_of((uint32_t)exec_pread(t, at + base + half), shift, bits) < d ? base + half : base;
        left -= half;
    }
    exec_ops(t, 3);
    return base + (digit_of((uint32_t)exec_pread(t, at + base), shift, bits) < d);
}

/* ---- local_sort ------------------------------------------------------------ */

MCM_STEP(load_keys, sort_args, a)
{
    long base = t->bid * KEYS * t->threads;
    for (int j = t->tid; j < KEYS * t->threads; j += t->threads)
        exec_pwrite(t, j, exec_gread(t, a->keys, base + j));
}

/* Split b = t->step: the keys (at 0 for an even b, at 4ℓ for an odd one)
 * whose bit shift + b is 0 are marked 1. */
MCM_STEP(mark_zeros, sort_args, a)
{
    int in = (t->step & 1) * KEYS * t->threads;
    for (int j = t->tid; j < KEYS * t->threads; j += t->threads) {
        exec_ops(t, 2); /* the bit, the comparison */
        exec_pwrite(t, a->at.tile + j, bit_of((uint32_t)exec_pread(t, in + j), a->shift + t->step) == 0);
    }
}

/* ... and, the marks scanned, each key to its place in the other array:
 * a zero to the zeros before it, a one after every zero, to the ones
 * before it. */
MCM_STEP(split_keys, sort_args, a)
{
    int in = (t->step & 1) * KEYS * t->threads, out = KEYS * t->threads - in;
    uint32_t zeros = (uint32_t)exec_pread(t, a->at.total);
    for (int j = t->tid; j < KEYS * t->threads; j += t->threads) {
        uint32_t key = (uint32_t)exec_pread(t, in + j), before = (uint32_t)exec_pread(t, a->at.tile + j);
        exec_ops(t, 4); /* the bit, j − before, + zeros, the selection */
        exec_pwrite(t, out + (bit_of(key, a->shift + t->step) ? zeros + (uint32_t)j - before : before), key);
    }
}

/* The sorted tile (after t->step = s splits) out, and its histogram. */
MCM_STEP(store_tile, sort_args, a)
{
    int at = (t->step & 1) * KEYS * t->threads;
    long base = t->bid * KEYS * t->threads;
    for (int j = t->tid; j < KEYS * t->threads; j += t->threads)
        exec_gwrite(t, a->sorted, base + j, exec_pread(t, at + j));
    uint32_t last = (1u << a->bits) - 1;
    for (uint32_t d = (uint32_t)t->tid; d <= last; d += (uint32_t)t->threads) {
        int first = first_with_digit(t, at, d, a->shift, a->bits);
        int end = d == last ? KEYS * t->threads : first_with_digit(t, at, d + 1, a->shift, a->bits);
        exec_ops(t, 1);
        exec_gwrite(t, a->hist, (long)d * a->tiles + t->bid, (word)(end - first));
    }
}

MCM_KERNEL_SCHEDULE(local_sort, sort_args, a, sc)
{
    mcm_step(sc, load_keys, 0);
    for (int b = 0; b < a->bits; b++) {
        mcm_step(sc, mark_zeros, b);
        tile_scan_steps(sc);
        mcm_step(sc, split_keys, b);
    }
    mcm_step(sc, store_tile, a->bits);
}

/* ---- scatter ---------------------------------------------------------------- */

MCM_STEP(load_sorted, scatter_args, a)
{
    long base = t->bid * KEYS * t->threads;
    for (int j = t->tid; j < KEYS * t->threads; j += t->threads)
        exec_pwrite(t, j, exec_gread(t, a->sorted, base + j));
}

MCM_STEP(move_keys, scatter_args, a)
{
    for (int j = t->tid; j < KEYS * t->threads; j += t->threads) {
        uint32_t key = (uint32_t)exec_pread(t, j), d = digit_of(key, a->shift, a->bits);
        long rank = j - first_with_digit(t, 0, d, a->shift, a->bits);
        exec_ops(t, 3); /* the digit, the rank, the place */
        exec_gwrite(t, a->out, (long)exec_gread(t, a->offsets, (long)d * a->tiles + t->bid) + rank, key);
    }
}

MCM_KERNEL(scatter, scatter_args, load_sorted, move_keys);

/* ---- the program ---------------------------------------------------------- */

static gmem input, keys[2], sorted, hist, offsets, totals;
static long n, tiles;
static int l, s, c;

static int whole(double v) { return v == (double)(long)v; }

static int setup(exec_run *run, const mcm_params *p)
{
    double nv = mcm_param(p, "n", 1048576), lv = mcm_param(p, "l", 256);
    double sv = mcm_param(p, "s", 8), cv = mcm_param(p, "c", 32);
    if (!whole(lv) || lv < 1 || lv > 1024 || ((long)lv & ((long)lv - 1)) != 0)
        return mcm_fail("radix-sort: ℓ must be a power of two <= 1024 (got l = %g)", lv);
    if (!whole(nv) || nv < 4 * lv || !whole(nv / (4 * lv)))
        return mcm_fail("radix-sort: n must be a multiple of 4ℓ = %g, a tile of 4 keys a thread (got n = %g)",
                        4 * lv, nv);
    if (!whole(cv) || !whole(sv) || cv < 1 || cv > 32 || sv < 1 || sv > cv || sv > 16)
        return mcm_fail("radix-sort: needs whole 1 <= s <= c <= 32 and s <= 16 (got s = %g, c = %g)", sv, cv);
    n = (long)nv;
    l = (int)lv;
    s = (int)sv;
    c = (int)cv;
    tiles = n / (KEYS * (long)l);
    input = mcm_alloc(run, "input", n);
    keys[0] = mcm_alloc(run, "keys0", n);
    keys[1] = mcm_alloc(run, "keys1", n);
    sorted = mcm_alloc(run, "sorted", n);
    hist = mcm_alloc(run, "hist", tiles << s);
    offsets = mcm_alloc(run, "offsets", tiles << s);
    totals = mcm_alloc(run, "totals", scan_tile_count(tiles << s, l));
    uint64_t state = mcm_seed(p);
    for (long i = 0; i < n; i++)
        mcm_set(input, i, mcm_random(&state) & ((1ull << c) - 1));
    return 0;
}

static int passes(void) { return (c + s - 1) / s; }

static int launches(exec_run *run)
{
    long private_words = 13L * l + 1; /* two key arrays, the marks, their partials and total */
    gmem from = input;
    for (int pass = 0; pass < passes(); pass++) {
        tile_scan at = {8L * l, 12L * l, 13L * l};
        sort_args sort = {at, from, sorted, hist, tiles, pass * s, s};
        scatter_args move = {sorted, offsets, keys[pass % 2], tiles, pass * s, s};
        if (mcm_launch(run, &local_sort, tiles, l, private_words, &sort) < 0 ||
            scan_exclusive(run, hist, offsets, totals, tiles << s, l) < 0 ||
            mcm_launch(run, &scatter, tiles, l, KEYS * (long)l, &move) < 0)
            return -1;
        from = keys[pass % 2];
    }
    return 0;
}

static int compare_keys(const void *x, const void *y)
{
    word a = *(const word *)x, b = *(const word *)y;
    return (a > b) - (a < b);
}

static int check(exec_run *run)
{
    (void)run;
    word *want = (word *)malloc(sizeof *want * (size_t)n);
    if (!want)
        return mcm_fail("radix-sort: no memory for the serial reference (n = %ld)", n);
    for (long i = 0; i < n; i++)
        want[i] = mcm_get(input, i);
    qsort(want, (size_t)n, sizeof *want, compare_keys);
    gmem got = keys[(passes() - 1) % 2];
    int rc = 0;
    for (long i = 0; i < n && rc == 0; i++)
        if (mcm_get(got, i) != want[i])
            rc = mcm_fail("radix-sort: key %ld is %llu, qsort gives %llu (n = %ld, l = %d, s = %d, c = %d)", i,
                          (unsigned long long)mcm_get(got, i), (unsigned long long)want[i], n, l, s, c);
    free(want);
    return rc;
}

MCM_PROGRAM("radix-sort", setup, launches, check);
