/*
 * radix_sort_exec.c — radix sort of n c-bit keys, s bits per pass, in exec
 * mode: the five kernels per pass of programs/radix_sort.c run for real on
 * simulated memory (sim/exec.h).
 *
 * Read beside:
 *   thesis (xie-thesis-2016.txt) §4.6 "Radix sort", lines 1931–1978, after
 *     Satish, Harris and Garland: c/s passes; each block loads and sorts
 *     its tile with s iterations of 1-bit split and writes its 2^s-entry
 *     digit histogram; a prefix sum over the histogram in column-major
 *     order; each block copies its keys to their place;
 *   thesis Appendix B, worksheet "Sorting", lines 6067–6345: the kernels,
 *     grids and per-block costs that radix_sort.c declares (phase 1 lines
 *     6097–6140, phase 2 6144–6225, phase 3 6228–6250).
 *
 * Kernels, grids and threads are radix_sort.c's: per pass (digit shift =
 * pass·s, least significant first), with tiles = ⌈n/(4ℓ)⌉ and the
 * histogram table H of tiles·2^s entries, H[d·tiles + tile] (column-major)
 * scanned by ⌈tiles·2^s/(4ℓ)⌉ = G blocks of 4ℓ entries:
 *
 *   LocalSort[p]   tiles blocks.  Load the tile (4 keys per thread, cells
 *                  base + kℓ + tid; past n a pad key, all ones, which sorts
 *                  last), then s 1-bit splits in private memory, each:
 *                  count the zeros of the thread's keys 4tid .. 4tid+3; a
 *                  Blelloch scan of the ℓ counts (the worksheet's up-sweep,
 *                  down-sweep, "Listing 2 in scan.pdf"); move every key to
 *                  its place, zeros first, both groups in order.  Then write
 *                  the sorted tile, find for each digit d the first key with
 *                  digit >= d (a binary search of log ℓ + 3 fixed probes)
 *                  and write the count of d, H[d·tiles + tile].
 *   ScanInclusive[p]  G blocks: each scans its 4ℓ entries of H (4 per
 *                  thread, a Blelloch scan of the ℓ partial sums) and
 *                  writes them, inclusive; thread 0 writes the block's
 *                  total to an auxiliary array (the worksheet's "Store
 *                  Block Sum to Auxiliary Array", line 6180) when G > 1.
 *   ScanMediate[p] 1 block: the same scan of the G block totals (inclusive;
 *                  q = max(4, ⌈G/ℓ⌉) per thread).
 *   ScanExclusive[p]  G − 1 blocks: block b = 1 .. G−1 adds the total of
 *                  the blocks before it (the mediate result at b − 1) to
 *                  its 4ℓ entries.  H is then scanned inclusively, so the
 *                  entry before H[d·tiles + tile] is the number of keys that
 *                  go before the tile's keys of digit d.
 *   Scatter[p]     tiles blocks.  Load the sorted tile and, per digit d,
 *                  that offset; subtract the first position of d in the
 *                  tile (the same binary search); each real key goes to
 *                  offset(digit) + its position in the tile.
 *
 * When G = 1 ScanMediate and ScanExclusive are left out, as radix_sort.c
 * does.  Keys alternate between two arrays.  The result is checked against
 * qsort of the same random keys (c bits, from a generator seeded by the
 * machine's seed).
 *
 * What is counted as a local operation: every private-memory access (the
 * exec layer does) and every operation on data: a digit or bit extracted
 * ((key >> shift) & mask, one operation), an addition, a subtraction, a
 * comparison, a select.  Loop and index bookkeeping is not counted.  All
 * counts are independent of the keys.
 *
 * Measured costs against radix_sort.c's declared ones (ℓ >= 2 a power of
 * two, r = ⌈2^s/ℓ⌉ digits per thread; tests/test_exec_radix_sort.c checks
 * each formula below exactly, and prints the numbers):
 *   - kernels, names, grids and threads per block: equal.
 *   - LocalSort  S = 8 + s(9 log ℓ + 45) + r(5 log ℓ + 19)
 *                    (declared s(41 + 8 log ℓ) + 12)
 *                W = 8ℓ + s(51ℓ − 6) + 2^s(5 log ℓ + 19) − 1
 *                    (declared s(22ℓ + 1) + 12)
 *                α = 4 and β = 4 + r: equal (4, 5) when 2^s <= ℓ.
 *     One split costs its longest thread 12 + 9 log ℓ + 3 + 30 operations
 *     (worksheet 41 + 8 log ℓ: close) and the block 51ℓ − 6 (worksheet
 *     22ℓ + 1: outside the scan its work counts 6 operations per thread
 *     where its span counts 25); the histogram costs 5 log ℓ + 19 per
 *     digit, a binary search (worksheet 12 per block).
 *   - ScanInclusive  S = 7q + 9 log ℓ + 4 (+1 for the total), q = 4:
 *                9 log ℓ + 32 (+1) (declared 8 log ℓ + 17); W = 7qℓ + 10ℓ
 *                − 6 (+1) = 38ℓ − 6 (+1) (declared 16ℓ + 1); α = 4; β = 4,
 *                5 when the total is written (G > 1; declared 4).
 *   - ScanMediate   the same with q = max(4, ⌈G/ℓ⌉) and no total; α = β =
 *                ⌈G/ℓ⌉ (it moves only the G totals; declared 4, 4).
 *   - ScanExclusive  S = 4, W = 4ℓ, α = 5, β = 4: equal (full blocks).
 *   - Scatter    S = 20 + r(5 log ℓ + 19), W = 20ℓ + 2^s(5 log ℓ + 19)
 *                (declared 4 and 4ℓ: the worksheet lost this span, and
 *                its scatter finds no digit's first position); α = 4 + r,
 *                β = 4: equal (5, 4) when 2^s <= ℓ.
 *   - O(B), by the UMM rule: coalesced rounds (tile loads and stores, the
 *     scans' entries) cost 1 word per thread, as declared.  Not so:
 *     LocalSort's histogram writes H[d·tiles + tile] and Scatter's offset
 *     reads are one word per digit at stride `tiles`: with tiles >= w,
 *     every lane its own address group, 2^s·w/ℓ words per thread when
 *     2^s <= ℓ (declared 1): LocalSort 8 + 2^s·w/ℓ words instead of 9, and
 *     at s = log ℓ (2^s = ℓ) 8 + w.  ScanInclusive's total: + w/ℓ.
 *     Scatter's key writes depend on the keys: a run of equal digits among
 *     a warp's positions goes to consecutive cells, one or two groups (one
 *     per warp when all digits agree).  ScanMediate moves only its G
 *     totals (⌈G/w⌉ groups read and as many written, when G <= 4ℓ).
 *   - private memory: LocalSort 8ℓ + 2^s, Scatter 4ℓ + 2^s (equal);
 *     ScanInclusive/Mediate qℓ + ℓ + 1 (declared 4ℓ and max(4ℓ, G): the ℓ
 *     partial sums and the total); ScanExclusive 0 (declared 4ℓ).
 *
 * Params (as radix_sort.c, same defaults): n, c (default 32), s (default
 * 8), l (ℓ, default 256); any whole n >= 1 (the last tile padded), s that
 * need not divide c (⌈c/s⌉ passes).  The point is checked by radix_sort.c
 * itself (its build), so exec mode refuses what model mode refuses, with
 * its message (8ℓ + 2^s <= Z; n·2^s/(16ℓ²) <= Z; and ℓ <= 2, where the
 * worksheet's W(B) is below its S(B)).  Exec mode adds: ℓ a power of two
 * (the Blelloch tree) and ⌈c/s⌉·s <= 64 (every pass's digit within a key
 * of one word, so that the pad key, all ones, has the largest digit).
 */
#include "radix_sort_exec.h"
#include "fail.h"
#include "program.h"
#include "rng.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KEYS_PER_THREAD 4
#define PAD_KEY (~(word)0) /* past n: its digit is the largest in every pass */

/* ---- plans: what each step of a kernel works on -------------------------- */

/* One step's line of its kernel's plan (the step's index, t->step). */
typedef struct step_plan {
    long level; /* Blelloch sweep: the distance d */
    int bit;    /* a split: the bit */
    long from;  /* private offset of the keys (or items) read */
    long to;    /* private offset of the array written / scanned */
} step_plan;

/* Every kernel's args begin with its plan. */
typedef struct planned {
    const step_plan *plan;
} planned;

static const step_plan *line_of(const exec_thread *t, const void *args)
{
    return &((const planned *)args)->plan[t->step];
}

/* The steps of a kernel being put together. */
typedef struct plan_builder {
    exec_step *steps;
    step_plan *plan;
    int n, cap;
} plan_builder;

static void add_step(plan_builder *b, exec_step fn, step_plan line)
{
    if (b->n == b->cap) {
        b->cap = b->cap ? 2 * b->cap : 64;
        b->steps = realloc(b->steps, sizeof *b->steps * (size_t)b->cap);
        b->plan = realloc(b->plan, sizeof *b->plan * (size_t)b->cap);
    }
    b->steps[b->n] = fn;
    b->plan[b->n++] = line;
}

static void builder_free(plan_builder *b)
{
    free(b->steps);
    free(b->plan);
}

/* ---- digits ------------------------------------------------------------------ */

typedef struct digit_field {
    int shift;
    word mask; /* 2^s − 1 */
} digit_field;

static word digit(word key, digit_field f) { return (key >> f.shift) & f.mask; }

static word count_digit(exec_thread *t, word key, digit_field f)
{
    exec_ops(t, 1); /* one shift-and-mask */
    return digit(key, f);
}

/* The number of keys with digit < d in the sorted tile at private offset
 * `tile` (4ℓ keys): a binary search of log ℓ + 3 probes whatever the keys,
 * each a private read and 4 operations (the probe index, the digit, the
 * comparison with the bound folded in, the update). */
static long keys_below(exec_thread *t, long tile, word d, digit_field f)
{
    long size = (long)KEYS_PER_THREAD * t->threads, pos = 0;
    for (long step = size; step >= 1; step /= 2) {
        long probe = (pos + step < size ? pos + step : size) - 1;
        word key = exec_pread(t, tile + probe);
        exec_ops(t, 4);
        if (pos + step <= size && digit(key, f) < d)
            pos += step;
    }
    return pos;
}

/* ---- the Blelloch scan of ℓ words at private offset `to` (total at to + ℓ) */

static void up_sweep(exec_thread *t, void *args)
{
    const step_plan *p = line_of(t, args);
    long d = p->level, i = (t->tid + 1L) * 2 * d - 1;
    if (i >= t->threads)
        return;
    word left = exec_pread(t, p->to + i - d), right = exec_pread(t, p->to + i);
    exec_ops(t, 1);
    exec_pwrite(t, p->to + i, left + right);
}

static void save_total(exec_thread *t, void *args)
{
    const step_plan *p = line_of(t, args);
    if (t->tid != 0)
        return;
    long last = p->to + t->threads - 1;
    exec_pwrite(t, last + 1, exec_pread(t, last));
    exec_pwrite(t, last, 0);
}

static void down_sweep(exec_thread *t, void *args)
{
    const step_plan *p = line_of(t, args);
    long d = p->level, i = (t->tid + 1L) * 2 * d - 1;
    if (i >= t->threads)
        return;
    word left = exec_pread(t, p->to + i - d), right = exec_pread(t, p->to + i);
    exec_pwrite(t, p->to + i - d, right);
    exec_ops(t, 1);
    exec_pwrite(t, p->to + i, left + right);
}

/* Exclusive scan of the ℓ words at `to`, their total to `to` + ℓ. */
static void add_block_scan(plan_builder *b, long to, int l)
{
    for (long d = 1; d < l; d *= 2)
        add_step(b, up_sweep, (step_plan){.level = d, .to = to});
    add_step(b, save_total, (step_plan){.to = to});
    for (long d = l / 2; d >= 1; d /= 2)
        add_step(b, down_sweep, (step_plan){.level = d, .to = to});
}

/* ---- LocalSort ------------------------------------------------------------------ */

typedef struct local_sort_args {
    planned p;
    gmem keys, sorted, hist;
    long n, tiles;
    digit_field f;
    long digits_at; /* private offset of the 2^s first positions */
} local_sort_args;

static void load_tile(exec_thread *t, void *args)
{
    const local_sort_args *a = args;
    long base = t->bid * KEYS_PER_THREAD * t->threads;
    for (int k = 0; k < KEYS_PER_THREAD; k++) {
        long place = (long)k * t->threads + t->tid;
        word key = base + place < a->n ? exec_gread(t, a->keys, base + place) : PAD_KEY;
        exec_pwrite(t, place, key);
    }
}

/* A split's first step: the zeros (at the plan's bit) among the thread's 4
 * keys, to `to` + tid. */
static void count_zeros(exec_thread *t, void *args)
{
    const step_plan *p = line_of(t, args);
    digit_field bit = {p->bit, 1};
    word zeros = 0;
    for (int k = 0; k < KEYS_PER_THREAD; k++)
        zeros += 1 - count_digit(t, exec_pread(t, p->from + KEYS_PER_THREAD * t->tid + k), bit);
    exec_ops(t, KEYS_PER_THREAD - 1); /* the additions */
    exec_pwrite(t, p->to + t->tid, zeros);
}

/* A split's last step: with the zeros before this thread's keys (scanned,
 * at `to` + tid) and in the tile (`to` + ℓ), every key to its place in
 * `to`: zeros first, ones after, both in order. */
static void split(exec_thread *t, void *args)
{
    const step_plan *p = line_of(t, args);
    digit_field bit = {p->bit, 1};
    word zeros_before = exec_pread(t, p->to + t->tid), zeros = exec_pread(t, p->to + t->threads);
    for (int k = 0; k < KEYS_PER_THREAD; k++) {
        long place = KEYS_PER_THREAD * t->tid + k;
        word key = exec_pread(t, p->from + place);
        word one = count_digit(t, key, bit);
        exec_ops(t, 3); /* place − zeros before, + zeros, the select */
        word dest = one ? zeros + (word)place - zeros_before : zeros_before;
        exec_ops(t, 1); /* the count of zeros so far */
        zeros_before += 1 - one;
        exec_pwrite(t, p->to + (long)dest, key);
    }
}

/* Write the sorted tile (at `from`); the first position of each digit. */
static void store_and_search(exec_thread *t, void *args)
{
    const local_sort_args *a = args;
    const step_plan *p = line_of(t, args);
    long base = t->bid * KEYS_PER_THREAD * t->threads;
    for (int k = 0; k < KEYS_PER_THREAD; k++) {
        long place = (long)k * t->threads + t->tid;
        exec_gwrite(t, a->sorted, base + place, exec_pread(t, p->from + place));
    }
    for (word d = (word)t->tid; d <= a->f.mask; d += (word)t->threads)
        exec_pwrite(t, a->digits_at + (long)d, (word)keys_below(t, p->from, d, a->f));
}

/* The tile's count of each digit d, to H[d·tiles + tile]. */
static void write_histogram(exec_thread *t, void *args)
{
    const local_sort_args *a = args;
    long base = t->bid * KEYS_PER_THREAD * t->threads, size = (long)KEYS_PER_THREAD * t->threads;
    word real = (word)(a->n - base < size ? a->n - base : size);
    for (word d = (word)t->tid; d <= a->f.mask; d += (word)t->threads) {
        word first = exec_pread(t, a->digits_at + (long)d);
        word next = d < a->f.mask ? exec_pread(t, a->digits_at + (long)d + 1) : real;
        exec_ops(t, 1);
        exec_gwrite(t, a->hist, (long)d * a->tiles + t->bid, next - first);
    }
}

/* LocalSort's steps: load, s splits, store and search, histogram. */
static void local_sort_plan(plan_builder *b, int s, int shift, int l)
{
    long tile = (long)KEYS_PER_THREAD * l, from = 0, to = tile;
    add_step(b, load_tile, (step_plan){0});
    for (int i = 0; i < s; i++) {
        add_step(b, count_zeros, (step_plan){.bit = shift + i, .from = from, .to = to});
        add_block_scan(b, to, l);
        add_step(b, split, (step_plan){.bit = shift + i, .from = from, .to = to});
        long keys = to; /* the split keys are now at `to` */
        to = from;
        from = keys;
    }
    add_step(b, store_and_search, (step_plan){.from = from});
    add_step(b, write_histogram, (step_plan){.from = from});
}

/* ---- the scan of the histogram: ScanInclusive, ScanMediate ------------------ */

typedef struct scan_args {
    planned p;
    gmem in, out, totals; /* totals: NULL when not written */
    long len;             /* entries of `in` */
    int items;            /* q per thread */
} scan_args;

/* Private layout: the block's qℓ items at 0, its ℓ partial sums at qℓ,
 * their total at qℓ + ℓ. */
static void scan_load(exec_thread *t, void *args)
{
    const scan_args *a = args;
    long base = t->bid * a->items * t->threads;
    for (int k = 0; k < a->items; k++) {
        long place = (long)k * t->threads + t->tid;
        exec_pwrite(t, place, base + place < a->len ? exec_gread(t, a->in, base + place) : 0);
    }
}

static void scan_local(exec_thread *t, void *args)
{
    const scan_args *a = args;
    long first = (long)a->items * t->tid;
    word sum = exec_pread(t, first);
    for (int k = 1; k < a->items; k++) {
        sum += exec_pread(t, first + k);
        exec_ops(t, 1);
    }
    exec_pwrite(t, (long)a->items * t->threads + t->tid, sum);
}

static void scan_apply(exec_thread *t, void *args)
{
    const scan_args *a = args;
    long first = (long)a->items * t->tid;
    word prefix = exec_pread(t, (long)a->items * t->threads + t->tid);
    for (int k = 0; k < a->items; k++) {
        prefix += exec_pread(t, first + k);
        exec_ops(t, 1);
        exec_pwrite(t, first + k, prefix);
    }
}

static void scan_store(exec_thread *t, void *args)
{
    const scan_args *a = args;
    long base = t->bid * a->items * t->threads;
    for (int k = 0; k < a->items; k++) {
        long place = (long)k * t->threads + t->tid;
        word x = exec_pread(t, place);
        if (base + place < a->len)
            exec_gwrite(t, a->out, base + place, x);
    }
    if (t->tid == 0 && a->totals)
        exec_gwrite(t, a->totals, t->bid, exec_pread(t, ((long)a->items + 1) * t->threads));
}

static void scan_plan(plan_builder *b, int items, int l)
{
    add_step(b, scan_load, (step_plan){0});
    add_step(b, scan_local, (step_plan){0});
    add_block_scan(b, (long)items * l, l);
    add_step(b, scan_apply, (step_plan){0});
    add_step(b, scan_store, (step_plan){0});
}

/* ---- ScanExclusive ---------------------------------------------------------------- */

typedef struct exclusive_args {
    gmem scan, carries; /* carries[b]: the inclusive scan of the block totals */
    long len;
} exclusive_args;

/* Block b = bid + 1 adds the totals of blocks 0 .. b−1 to its 4ℓ entries. */
static void add_carry(exec_thread *t, void *args)
{
    const exclusive_args *a = args;
    long b = t->bid + 1, base = b * KEYS_PER_THREAD * t->threads;
    word carry = exec_gread(t, a->carries, b - 1);
    for (int k = 0; k < KEYS_PER_THREAD; k++) {
        long i = base + (long)k * t->threads + t->tid;
        if (i >= a->len)
            continue;
        word x = exec_gread(t, a->scan, i);
        exec_ops(t, 1);
        exec_gwrite(t, a->scan, i, x + carry);
    }
}

static const exec_step exclusive_steps[] = {add_carry};

/* ---- Scatter ------------------------------------------------------------------------ */

typedef struct scatter_args {
    planned p;
    gmem sorted, scan, out;
    long n, tiles;
    digit_field f;
    long offsets_at; /* private: the 2^s offsets, after the 4ℓ keys */
} scatter_args;

/* The sorted tile, and per digit d the keys before the tile's keys of
 * digit d: the scanned entry before H[d·tiles + tile]. */
static void scatter_load(exec_thread *t, void *args)
{
    const scatter_args *a = args;
    long base = t->bid * KEYS_PER_THREAD * t->threads;
    for (int k = 0; k < KEYS_PER_THREAD; k++) {
        long place = (long)k * t->threads + t->tid;
        exec_pwrite(t, place, exec_gread(t, a->sorted, base + place));
    }
    for (word d = (word)t->tid; d <= a->f.mask; d += (word)t->threads) {
        long entry = (long)d * a->tiles + t->bid;
        exec_pwrite(t, a->offsets_at + (long)d, entry > 0 ? exec_gread(t, a->scan, entry - 1) : 0);
    }
}

/* offset(d) − first position of d in the tile: a key's place is then
 * that plus its position. */
static void scatter_rebase(exec_thread *t, void *args)
{
    const scatter_args *a = args;
    for (word d = (word)t->tid; d <= a->f.mask; d += (word)t->threads) {
        word first = (word)keys_below(t, 0, d, a->f);
        word offset = exec_pread(t, a->offsets_at + (long)d);
        exec_ops(t, 1);
        exec_pwrite(t, a->offsets_at + (long)d, offset - first);
    }
}

static void scatter_move(exec_thread *t, void *args)
{
    const scatter_args *a = args;
    long base = t->bid * KEYS_PER_THREAD * t->threads;
    for (int k = 0; k < KEYS_PER_THREAD; k++) {
        long place = (long)k * t->threads + t->tid;
        word key = exec_pread(t, place);
        word rebased = exec_pread(t, a->offsets_at + (long)count_digit(t, key, a->f));
        exec_ops(t, 1);
        if (base + place < a->n) /* pads stay behind */
            exec_gwrite(t, a->out, (long)(rebased + (word)place), key);
    }
}

static const exec_step scatter_steps[] = {scatter_load, scatter_rebase, scatter_move};

/* ---- host ---------------------------------------------------------------------------- */

typedef struct radix_point {
    long n, tiles, entries, scan_blocks;
    int c, s, l;
} radix_point;

/* splitmix64: the keys, seeded by the machine's seed. */
static double param_or(const vars *params, const char *name, double fallback)
{
    const double *v = vars_get(params, name);
    return v ? *v : fallback;
}

/* radix_sort.c's params and defaults; its own build checks the point. */
static int read_point(const vars *params, const machine *m, radix_point *p)
{
    kernel_dag *model = builtin_find("radix-sort")->build(params, m);
    if (!model)
        return -1;
    kernel_dag_free(model);
    double n = param_or(params, "n", 1048576), c = param_or(params, "c", 32);
    double s = param_or(params, "s", 8), l = param_or(params, "l", 256);
    if (ceil(c / s) * s > 64 || l != exp2(round(log2(l))))
        return fail("program 'radix-sort' (exec mode): needs ⌈c/s⌉·s <= 64 (the passes' digits within "
                    "a key, one word) and ℓ a power of two (the block scan's tree) (got c = %g, s = %g, "
                    "ℓ = %g)", c, s, l);
    p->n = (long)n;
    p->c = (int)c;
    p->s = (int)s;
    p->l = (int)l;
    p->tiles = (p->n + KEYS_PER_THREAD * p->l - 1) / (KEYS_PER_THREAD * p->l);
    p->entries = p->tiles << p->s;
    p->scan_blocks = (p->entries + KEYS_PER_THREAD * p->l - 1) / (KEYS_PER_THREAD * p->l);
    return 0;
}

/* Launch the kernel made of the builder's steps. */
static int launch_plan(exec_run *run, const char *name, int pass, plan_builder *b, long private_words,
                       long blocks, int l, planned *args)
{
    char full[48];
    snprintf(full, sizeof full, "%s[%d]", name, pass);
    exec_kernel k = {full, b->n, b->steps, private_words};
    args->plan = b->plan;
    int rc = exec_launch(run, &k, blocks, l, args);
    builder_free(b);
    return rc;
}

typedef struct radix_arrays {
    gmem keys[2], sorted, hist, scan, totals, carries;
} radix_arrays;

static int launch_local_sort(exec_run *run, const radix_point *p, radix_arrays *g, int pass, digit_field f)
{
    plan_builder b = {0};
    local_sort_plan(&b, p->s, f.shift, p->l);
    long tile = (long)KEYS_PER_THREAD * p->l;
    local_sort_args a = {{0}, g->keys[pass % 2], g->sorted, g->hist, p->n, p->tiles, f, 2 * tile};
    return launch_plan(run, "LocalSort", pass, &b, 2 * tile + (1L << p->s), p->tiles, p->l, &a.p);
}

static int launch_scan(exec_run *run, const char *name, int pass, gmem in, gmem out, gmem totals, long len,
                       int items, long blocks, int l)
{
    plan_builder b = {0};
    scan_plan(&b, items, l);
    scan_args a = {{0}, in, out, totals, len, items};
    return launch_plan(run, name, pass, &b, ((long)items + 1) * l + 1, blocks, l, &a.p);
}

static int launch_scatter(exec_run *run, const radix_point *p, radix_arrays *g, int pass, digit_field f)
{
    plan_builder b = {0};
    for (int i = 0; i < 3; i++)
        add_step(&b, scatter_steps[i], (step_plan){0});
    long tile = (long)KEYS_PER_THREAD * p->l;
    scatter_args a = {{0}, g->sorted, g->scan, g->keys[(pass + 1) % 2], p->n, p->tiles, f, tile};
    return launch_plan(run, "Scatter", pass, &b, tile + (1L << p->s), p->tiles, p->l, &a.p);
}

/* One pass: LocalSort, ScanInclusive, [ScanMediate, ScanExclusive], Scatter. */
static int launch_pass(exec_run *run, const radix_point *p, radix_arrays *g, int pass)
{
    digit_field f = {pass * p->s, ((word)1 << p->s) - 1};
    int l = p->l, several = p->scan_blocks > 1;
    if (launch_local_sort(run, p, g, pass, f) < 0 ||
        launch_scan(run, "ScanInclusive", pass, g->hist, g->scan, several ? g->totals : NULL, p->entries,
                    KEYS_PER_THREAD, p->scan_blocks, l) < 0)
        return -1;
    if (several) {
        long per_thread = (p->scan_blocks + l - 1) / l;
        int items = per_thread > KEYS_PER_THREAD ? (int)per_thread : KEYS_PER_THREAD;
        exclusive_args e = {g->scan, g->carries, p->entries};
        char name[48];
        snprintf(name, sizeof name, "ScanExclusive[%d]", pass);
        exec_kernel exclusive = {name, 1, exclusive_steps, 0};
        if (launch_scan(run, "ScanMediate", pass, g->totals, g->carries, NULL, p->scan_blocks, items, 1, l) < 0 ||
            exec_launch(run, &exclusive, p->scan_blocks - 1, l, &e) < 0)
            return -1;
    }
    return launch_scatter(run, p, g, pass, f);
}

static int compare_words(const void *x, const void *y)
{
    word a = *(const word *)x, b = *(const word *)y;
    return (a > b) - (a < b);
}

static int check_sorted(const gmem result, word *input, long n)
{
    qsort(input, (size_t)n, sizeof *input, compare_words);
    for (long i = 0; i < n; i++)
        if (result->cells[i] != input[i])
            return fail("program 'radix-sort' (exec mode): result differs from the serial reference "
                        "(qsort): %llu, expected %llu at index %ld",
                        (unsigned long long)result->cells[i], (unsigned long long)input[i], i);
    return 0;
}

int radix_sort_exec_keys(const vars *params, const machine *m, exec_run *run, const word *keys)
{
    radix_point p = {0};
    if (read_point(params, m, &p) < 0)
        return -1;
    radix_arrays g = {
        {exec_alloc(run, "keys", p.n), exec_alloc(run, "keys'", p.n)},
        exec_alloc(run, "sorted", p.tiles * KEYS_PER_THREAD * p.l),
        exec_alloc(run, "histogram", p.entries),
        exec_alloc(run, "scan", p.entries),
        exec_alloc(run, "totals", p.scan_blocks),
        exec_alloc(run, "carries", p.scan_blocks),
    };
    memcpy(g.keys[0]->cells, keys, sizeof *keys * (size_t)p.n);
    int passes = (p.c + p.s - 1) / p.s, rc = 0;
    for (int pass = 0; pass < passes && rc == 0; pass++)
        rc = launch_pass(run, &p, &g, pass);
    if (rc < 0)
        return -1;
    word *expected = malloc(sizeof *expected * (size_t)p.n);
    memcpy(expected, keys, sizeof *keys * (size_t)p.n);
    rc = check_sorted(g.keys[passes % 2], expected, p.n);
    free(expected);
    return rc;
}

/* Random c-bit keys, seeded by the machine's seed. */
static int host(const vars *params, const machine *m, exec_run *run)
{
    radix_point p = {0};
    if (read_point(params, m, &p) < 0)
        return -1;
    word *keys = malloc(sizeof *keys * (size_t)p.n);
    word key_mask = p.c == 64 ? ~(word)0 : ((word)1 << p.c) - 1;
    rng state;
    rng_seed(&state, m->seed);
    for (long i = 0; i < p.n; i++)
        keys[i] = rng_next(&state) & key_mask;
    int rc = radix_sort_exec_keys(params, m, run, keys);
    free(keys);
    return rc;
}

const exec_program exec_radix_sort = {"radix-sort", host};
