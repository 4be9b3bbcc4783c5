/*
 * block_scan.h — the three-kernel exclusive scan, written once
 * (sim/exec/mcm_kernel.h) for the case studies that scan: Stockham's powers of
 * ω (programs/stockham/, a prefix product in Z/pZ) and radix sort's digit
 * counts (programs/radix-sort/, 32-bit additions).  The includer says
 * which operator, by defining
 *
 *   static MCM_DEVICE word scan_op(exec_thread *t, word a, word b);  // counts itself
 *   #define SCAN_IDENTITY 1                                          // before the include
 *
 * Source: thesis Appendix B, the Stockham worksheet's "prefix sum to
 * compute the powers of the n-th primitive root of unity" (xie-thesis-
 * 2016.txt, line 5367) and radix sort's phase 2 (line 6144): each thread
 * handles 4 items, so a block scans a tile of 4ℓ items, in three kernels:
 *
 *   scan_tiles    ⌈len/4ℓ⌉ blocks: each scans its tile (exclusive) and
 *                 writes it and the tile's total;
 *   scan_mediate  1 block: the exclusive scan of the tile totals, in
 *                 place, in chunks of 4ℓ with a carry (the worksheet
 *                 assumes one chunk; any count works);
 *   scan_apply    tiles − 1 blocks: block b combines tile b + 1's prefix,
 *                 the scanned total, into its 4ℓ items.
 *
 * Inside a block (tile_scan_steps, also radix sort's 1-bit split): thread
 * t combines its items tile[4t .. 4t+3] into partial[t]; the ℓ partials
 * are scanned by the worksheet's up-sweep / down-sweep (Blelloch), one
 * level a step; thread t then gives each of its items the op of the items
 * before it.  2 log ℓ + 3 steps, ℓ a power of two; with a kernel's own
 * load and store, 2 log ℓ + 5.  Where the hand-written CUDA kept a value
 * in a register across a barrier (the tile's total, the mediate's carry),
 * it is a word of private memory here: the total is read off the
 * up-sweep's root by thread 0 in the step that clears it (where every
 * thread read it between two barriers of their own: one barrier fewer a
 * tile scan).
 *
 * The steps' args begin with a tile_scan, the places of the tile, the
 * partials and the total in private memory.  Items are words of 32 bits.
 */
#ifndef MCM_BLOCK_SCAN_H
#define MCM_BLOCK_SCAN_H

#include "mcm_kernel.h"

#ifndef SCAN_IDENTITY
#error "block_scan.h: define scan_op and SCAN_IDENTITY, the scan's operator and its identity, first"
#endif

#define SCAN_ITEMS 4 /* a thread's items: a tile is 4ℓ */

static MCM_DEVICE word scan_op(exec_thread *t, word a, word b);

/* Where a tile scan keeps its words, in private memory. */
typedef struct tile_scan {
    long tile;    /* the 4ℓ items */
    long partial; /* the ℓ partials */
    long total;   /* the tile's total (one word) */
} tile_scan;

/* ---- one tile, in private memory ---------------------------------------- */

/* partial[t] = tile[4t] ⊗ tile[4t+1] ⊗ tile[4t+2] ⊗ tile[4t+3] */
MCM_STEP(scan_partial, tile_scan, s)
{
    long mine = s->tile + SCAN_ITEMS * (long)t->tid;
    word a = exec_pread(t, mine), b = exec_pread(t, mine + 1);
    word c = exec_pread(t, mine + 2), d = exec_pread(t, mine + 3);
    exec_pwrite(t, s->partial + t->tid, scan_op(t, scan_op(t, a, b), scan_op(t, c, d)));
}

/* Up-sweep at distance d = t->step: partial[i] = partial[i−d] ⊗ partial[i],
 * i = (t+1)·2d − 1. */
MCM_STEP(scan_up, tile_scan, s)
{
    long d = t->step, i = (t->tid + 1L) * 2 * d - 1;
    if (i >= t->threads)
        return;
    exec_pwrite(t, s->partial + i, scan_op(t, exec_pread(t, s->partial + i - d), exec_pread(t, s->partial + i)));
}

/* The root holds the tile's total: thread 0 keeps it and puts the identity
 * in its place. */
MCM_STEP(scan_clear, tile_scan, s)
{
    if (t->tid != 0)
        return;
    long root = s->partial + t->threads - 1;
    exec_pwrite(t, s->total, exec_pread(t, root));
    exec_pwrite(t, root, SCAN_IDENTITY);
}

/* Down-sweep at distance d = t->step:
 * (partial[i−d], partial[i]) = (partial[i], partial[i] ⊗ partial[i−d]). */
MCM_STEP(scan_down, tile_scan, s)
{
    long d = t->step, i = (t->tid + 1L) * 2 * d - 1;
    if (i >= t->threads)
        return;
    word left = exec_pread(t, s->partial + i - d), right = exec_pread(t, s->partial + i);
    exec_pwrite(t, s->partial + i - d, right);
    exec_pwrite(t, s->partial + i, scan_op(t, right, left));
}

/* Thread t's items get the op of every item before them: partial[t] (the
 * tiles before its own) and its own items before each. */
MCM_STEP(scan_run, tile_scan, s)
{
    long mine = s->tile + SCAN_ITEMS * (long)t->tid;
    word run = exec_pread(t, s->partial + t->tid);
    for (int j = 0; j < SCAN_ITEMS; j++) {
        word item = exec_pread(t, mine + j);
        exec_pwrite(t, mine + j, run);
        if (j + 1 < SCAN_ITEMS) /* the last product is not needed */
            run = scan_op(t, run, item);
    }
}

/* The tile in private memory becomes its exclusive scan, its total at
 * s->total: 2 log ℓ + 3 steps, in a schedule (ℓ a power of two). */
static MCM_DEVICE void tile_scan_steps(mcm_schedule *s)
{
    mcm_step(s, scan_partial, 0);
    for (int d = 1; d < s->threads; d *= 2)
        mcm_step(s, scan_up, d);
    mcm_step(s, scan_clear, 0);
    for (int d = s->threads / 2; d >= 1; d /= 2)
        mcm_step(s, scan_down, d);
    mcm_step(s, scan_run, 0);
}

/* ---- the three kernels ---------------------------------------------------- */

typedef struct scan_args {
    tile_scan at; /* tile at 0, partials at 4ℓ, total at 5ℓ; the carry at 5ℓ + 1 */
    gmem in, out; /* scan_mediate: both the totals */
    gmem totals;  /* a word a tile */
    long len;     /* items of in and out */
} scan_args;

/* Private words of a scan kernel's block: tile, partials, total, carry. */
static inline long scan_private_words(int l) { return (SCAN_ITEMS + 1) * (long)l + 2; }

/* Tiles of 4ℓ items in len items: the blocks of scan_tiles. */
static inline long scan_tile_count(long len, int l) { return (len + SCAN_ITEMS * (long)l - 1) / (SCAN_ITEMS * l); }

/* Items base + j, j = tid, tid + ℓ, ... (contiguous for each round) into
 * the tile; past len, the identity. */
static MCM_DEVICE void load_tile(exec_thread *t, const scan_args *a, long base)
{
    for (int j = t->tid; j < SCAN_ITEMS * t->threads; j += t->threads)
        exec_pwrite(t, a->at.tile + j, base + j < a->len ? exec_gread(t, a->in, base + j) : SCAN_IDENTITY);
}

/* scan_tiles: the block's tile in, ... */
MCM_STEP(tiles_load, scan_args, a)
{
    load_tile(t, a, t->bid * SCAN_ITEMS * t->threads);
}

/* ... scanned, out, and its total to totals[bid]. */
MCM_STEP(tiles_store, scan_args, a)
{
    long base = t->bid * SCAN_ITEMS * t->threads;
    for (int j = t->tid; j < SCAN_ITEMS * t->threads; j += t->threads)
        if (base + j < a->len)
            exec_gwrite(t, a->out, base + j, exec_pread(t, a->at.tile + j));
    if (t->tid == 0)
        exec_gwrite(t, a->totals, t->bid, exec_pread(t, a->at.total));
}

MCM_KERNEL_SCHEDULE(scan_tiles, scan_args, a, s)
{
    mcm_step(s, tiles_load, 0);
    tile_scan_steps(s);
    mcm_step(s, tiles_store, 0);
}

/* scan_mediate, chunk c = t->step: its items in; thread 0 makes the carry,
 * the op of the chunks before (the identity before chunk 0). */
MCM_STEP(chunk_load, scan_args, a)
{
    load_tile(t, a, (long)t->step * SCAN_ITEMS * t->threads);
    if (t->tid != 0)
        return;
    long carry = a->at.total + 1;
    exec_pwrite(t, carry, t->step == 0 ? SCAN_IDENTITY : scan_op(t, exec_pread(t, carry), exec_pread(t, a->at.total)));
}

/* ... scanned, the carry in front, out. */
MCM_STEP(chunk_store, scan_args, a)
{
    long base = (long)t->step * SCAN_ITEMS * t->threads;
    word carry = exec_pread(t, a->at.total + 1);
    for (int j = t->tid; j < SCAN_ITEMS * t->threads; j += t->threads)
        if (base + j < a->len)
            exec_gwrite(t, a->out, base + j, scan_op(t, carry, exec_pread(t, a->at.tile + j)));
}

MCM_KERNEL_SCHEDULE(scan_mediate, scan_args, a, s)
{
    long chunk = SCAN_ITEMS * (long)s->threads;
    int chunks = (int)((a->len + chunk - 1) / chunk);
    for (int c = 0; c < chunks; c++) {
        mcm_step(s, chunk_load, c);
        tile_scan_steps(s);
        mcm_step(s, chunk_store, c);
    }
}

/* scan_apply: block b, tile b + 1, combines the op of the tiles before it
 * (totals, scanned) into its items. */
MCM_STEP(apply_prefix, scan_args, a)
{
    long tile = t->bid + 1, base = tile * SCAN_ITEMS * t->threads;
    word prefix = exec_gread(t, a->totals, tile);
    for (int j = t->tid; j < SCAN_ITEMS * t->threads; j += t->threads)
        if (base + j < a->len)
            exec_gwrite(t, a->out, base + j, scan_op(t, prefix, exec_gread(t, a->out, base + j)));
}

MCM_KERNEL(scan_apply, scan_args, apply_prefix);

/* out[i] = in[0] ⊗ ... ⊗ in[i−1] for i < len, blocks of ℓ threads (a power
 * of two): scan_tiles, then, when there is more than one tile,
 * scan_mediate over the totals (scan_tile_count(len, ℓ) words) and
 * scan_apply.  0, or -1 (exec mode: a broken rule). */
static int scan_exclusive(exec_run *run, gmem in, gmem out, gmem totals, long len, int l)
{
    long tiles = scan_tile_count(len, l);
    tile_scan at = {0, SCAN_ITEMS * (long)l, (SCAN_ITEMS + 1) * (long)l};
    scan_args a = {at, in, out, totals, len};
    if (mcm_launch(run, &scan_tiles, tiles, l, scan_private_words(l), &a) < 0)
        return -1;
    if (tiles == 1)
        return 0;
    scan_args mediate = {at, totals, totals, totals, tiles};
    if (mcm_launch(run, &scan_mediate, 1, l, scan_private_words(l), &mediate) < 0)
        return -1;
    return mcm_launch(run, &scan_apply, tiles - 1, l, 0, &a);
}

#endif
