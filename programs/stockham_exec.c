/*
 * stockham_exec.c — the Stockham FFT over Z/pZ in exec mode: the kernels of
 * the model-mode program (stockham.c) written against sim/exec.h, run on
 * random input and checked against a serial DFT.
 *
 * Sources: paper §4.2, thesis §4.4.2, and the Appendix B worksheet
 * "Stockham FFT algorithm" (xie-thesis-2016.txt, line 5343): per-thread
 * operations of the three phases at lines 5357-5365, the prefix sum for
 * the powers of ω at lines 5369-5431.
 *
 * The same kernels, grids and ℓ as stockham.c, in the same order (k = log n,
 * step s = 1 .. k−1 applies the worksheet's factor i = k−1−s, rows of
 * q = 2^i words):
 *   roots-inclusive  n/(4ℓ) blocks: each scans its tile of 4ℓ items of
 *                    (1, ω, ω, ..., ω) (a prefix PRODUCT), 4 items a thread,
 *                    by the up-sweep/down-sweep of the worksheet, in private
 *                    memory; the last thread also writes the tile's total
 *   roots-mediate    1 block: the same scan over the n/(4ℓ) tile totals, in
 *                    chunks of 4ℓ with a carry when n/(4ℓ) > 4ℓ
 *   roots-exclusive  n/(4ℓ) − 1 blocks: tile j >= 1 times the product of
 *                    the tiles before it; then powers[e] = ω^e
 *   butterfly[0]     n/(2ℓ) blocks: DFT_2 ⊗ I_{n/2}, a thread per pair
 *   stride[s]        n/ℓ blocks: L_2^{2^(k-i)} ⊗ I_q, a thread per word;
 *                    when q < ℓ the block permutes its ℓ contiguous words
 *                    in private memory (two steps) so that both its reads
 *                    and its writes are contiguous; when q >= ℓ it copies
 *   twiddle[s]       n/(2ℓ) blocks: D_{2,2^(k-i-1)} ⊗ I_q, word n/2 + j
 *                    times ω^e, e = ⌊j/q⌋q, read from the powers
 *   butterfly[s]     n/(2ℓ) blocks, in place
 * Every global access is coalesced: a warp's round touches one address
 * group (roots-exclusive's and twiddle's power: one word that the whole
 * warp reads), but for the one word of notes 5 and 7 below.
 *
 * How operations are counted.  The exec layer counts what the threads do:
 * a modular addition 5, a modular multiplication 11 (exec_zp_*), a private
 * access 1.  The index arithmetic (bit operations and integer additions) is
 * charged as the worksheet counts it for the CUMODP kernels, with
 * exec_ops(): 6 per butterfly thread (3 bit operations, 3 additions, line
 * 5357), 25 per stride thread when q < ℓ and 19 when q >= ℓ (line 5361-5363),
 * 9 per twiddle thread (5 bit operations, 4 additions, line 5365).  The
 * scan kernels get no such charge: the worksheet gives their instructions
 * per sweep level, which the counted accesses and products replace.
 *
 * Measured against the model (tests/test_exec_stockham.c asserts each):
 *   equal:   the kernels, their names, grids and ℓ; butterfly α = β = 2,
 *            O(B) = 4U, W(B) = 16ℓ; twiddle W(B) = 20ℓ, β = 1; stride
 *            α = β = 1, O(B) = 2U (ℓ >= 2w); roots-inclusive α = 4;
 *            roots-mediate α = β = 4 while n <= 16ℓ²; roots-exclusive
 *            α = 5, β = 4, O(B) = 9U; N, L and K.
 *   differs, and why:
 *    1. butterfly S(B) = 16, twiddle S(B) = 20 (model 8, 10): the worksheet
 *       halves the spans (W(B) = 2ℓ·S(B), stockham.c note 1); a thread does
 *       the whole count, so S(B) = W(B)/ℓ.
 *    2. stride S(B) = W(B)/ℓ = 27 when q < ℓ (the worksheet's 25 plus the two
 *       private accesses of the permutation, which it does not count) and
 *       19 when q >= ℓ (the worksheet's text, line 5363; its sum and the
 *       model charge 25 at every step, stockham.c note 5).
 *    3. twiddle α = 2, O(B) = 3U (model 1, 2U): the worksheet leaves out
 *       the read of the power ω^e, which the thread needs.
 *    4. the scan kernels multiply in Z/pZ (11 operations a product, and
 *       every private access counted) where the worksheet counts a prefix
 *       sum at 3 + 5 instructions a sweep level (line 5375):
 *         roots-inclusive, -mediate  S(B) = 29 log ℓ + 100, W(B) = 128ℓ − 28
 *                                    (model 8 log ℓ + 17 and 16ℓ + 1)
 *         roots-exclusive            S(B) = 44, W(B) = 44ℓ (model 4, 4ℓ)
 *       With exec_set_costs(run, 5, 1) (a product counted as 1 operation)
 *       roots-exclusive's counts are the model's; the others are then
 *       9 log ℓ + 30 and 38ℓ − 8, still not 8 log ℓ + 17 and 16ℓ + 1.
 *    5. roots-inclusive β = 5 and O(B) = (8 + w/ℓ)U (model 4, 8U): the last
 *       thread writes its tile's total for roots-mediate, one word in one
 *       more address group (w: the warp; 9U when ℓ <= w).
 *    6. roots-mediate when n > 16ℓ² (e.g. n = 2^20, ℓ = 128): one block
 *       cannot scan the n/(4ℓ) totals in one tile (stockham.c note 6), so
 *       it scans c = n/(16ℓ²) chunks with a carry: α = β = 4c,
 *       S(B) = c(29 log ℓ + 100) + 12(c − 1), W(B) = c(128ℓ − 28) +
 *       (c − 1)(12ℓ + 1).
 *    7. stride, q < ℓ, when ℓ < 2w: a warp holds both halves of the block's
 *       output, ℓ/2 words at j and at n/2 + j, so its writes are two address
 *       groups: O(B) = 3U (model 2U).  With ℓ >= 2w every warp writes in
 *       one half, and O(B) = 2U.
 *   Private-memory bank conflicts (DMM rule, not in the model) are reported
 *   by the exec layer: the scan's reads of a thread's 4 items and its tree
 *   levels, and the stride permutation's writes when q < w and w divides
 *   ℓ/2 (one 2-way conflict a warp).
 *
 * Speed (issue 4: n = 2^20 under 5 s and within 20× of the serial FFT;
 * stockham_exec_time() measures both): the kernels are thin, the time is
 * the exec layer's per-access work; see the issue-4 report for the figures
 * and the change to sim/exec.c (its DMM grading) that they call for.
 *
 * Serial reference: the naive DFT up to 1024 points, above that the
 * iterative radix-2 FFT below (checked against the naive DFT by the tests).
 *
 * Params (as stockham.c): n (FFT size), l (ℓ).
 */
#include "stockham_exec.h"

#include "exec_programs.h"
#include "fail.h"
#include "rng.h"
#include "stockham.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Index arithmetic per thread, as the worksheet counts it (lines 5357-5365). */
#define BUTTERFLY_INDEX_OPS 6     /* 3 bit operations, 3 additions */
#define STRIDE_SHUFFLE_OPS 25     /* 2^i < ℓ: 14 bit operations, 10 additions, 1 multiplication */
#define STRIDE_COPY_OPS 19        /* 2^i >= ℓ: 11 bit operations, 8 additions */
#define TWIDDLE_INDEX_OPS 9       /* 5 bit operations, 4 additions */
#define ITEMS 4                   /* scan items per thread (line 5369) */

/* ---- roots of unity, serial references ---------------------------------- */

word fft_root_of_unity(uint64_t p, long n)
{
    if (n < 1 || (p - 1) % (uint64_t)n != 0 || (n & (n - 1)) != 0)
        return 0;
    for (word g = 2; g < p; g++) { /* a generator: g^((p-1)/2) = −1 suffices for 2-power orders */
        if (zp_pow(p, g, (p - 1) / 2) != p - 1)
            continue;
        word omega = zp_pow(p, g, (p - 1) / (uint64_t)n);
        if (n == 1 || zp_pow(p, omega, (uint64_t)n / 2) == p - 1)
            return omega;
    }
    return 0;
}

void fft_naive_dft(uint64_t p, word omega, const word *x, word *y, long n)
{
    word *power = malloc(sizeof *power * (size_t)n);
    power[0] = 1;
    for (long e = 1; e < n; e++)
        power[e] = zp_mul(p, power[e - 1], omega);
    for (long j = 0; j < n; j++) {
        word sum = 0;
        for (long i = 0, e = 0; i < n; i++, e = (e + j) % n)
            sum = zp_add(p, sum, zp_mul(p, x[i], power[e]));
        y[j] = sum;
    }
    free(power);
}

static void bit_reverse(word *x, long n)
{
    for (long i = 1, j = 0; i < n; i++) {
        long bit = n >> 1;
        for (; j & bit; bit >>= 1)
            j ^= bit;
        j |= bit;
        if (i < j) {
            word tmp = x[i];
            x[i] = x[j];
            x[j] = tmp;
        }
    }
}

void fft_serial(uint64_t p, word omega, word *x, long n)
{
    if (n < 2)
        return;
    word *power = malloc(sizeof *power * (size_t)(n / 2));
    power[0] = 1;
    for (long e = 1; e < n / 2; e++)
        power[e] = zp_mul(p, power[e - 1], omega);
    bit_reverse(x, n);
    for (long len = 2; len <= n; len *= 2) {
        long half = len / 2, stride = n / len; /* ω_len^j = ω^(j·n/len) */
        for (long start = 0; start < n; start += len)
            for (long j = 0; j < half; j++) {
                word u = x[start + j], v = zp_mul(p, x[start + j + half], power[j * stride]);
                x[start + j] = zp_add(p, u, v);
                x[start + j + half] = zp_sub(p, u, v);
            }
    }
    free(power);
}

void fft_reference(uint64_t p, word omega, const word *x, word *y, long n)
{
    if (n <= FFT_NAIVE_MAX) {
        fft_naive_dft(p, omega, x, y, n);
        return;
    }
    memcpy(y, x, sizeof *y * (size_t)n);
    fft_serial(p, omega, y, n);
}

long fft_first_difference(const word *got, const word *want, long n)
{
    for (long i = 0; i < n; i++)
        if (got[i] != want[i])
            return i;
    return -1;
}

/* ---- launching ------------------------------------------------------------ */

/* Launch `steps` as kernel "label:what[step]" ("what[step]" without a
 * label; no "[step]" when step < 0). */
static int launch(exec_run *run, const stockham_exec_fft *fft, const char *what, int step,
                  const exec_step *steps, int n_steps, long private_words, long blocks, void *args)
{
    char name[96];
    const char *label = fft->label ? fft->label : "", *colon = fft->label ? ":" : "";
    if (step >= 0)
        snprintf(name, sizeof name, "%s%s%s[%d]", label, colon, what, step);
    else
        snprintf(name, sizeof name, "%s%s%s", label, colon, what);
    exec_kernel k = {name, n_steps, steps, private_words};
    return exec_launch(run, &k, blocks, fft->l, args);
}

static int log2_of(long x)
{
    int k = 0;
    while ((1L << k) < x)
        k++;
    return k;
}

/* ---- the powers of ω: a prefix product in three kernels -------------------
 *
 * A tile is 4ℓ items; thread t loads items jℓ + t (j < 4, contiguous per
 * round) into private tile[jℓ + t], then owns the four consecutive items
 * tile[4t .. 4t+3]: it multiplies them into partial[t], the block scans the
 * ℓ partials (exclusive: up-sweep, clear, down-sweep), and the thread
 * multiplies its exclusive prefix into its four items (inclusive).  Private
 * memory: tile[0 .. 4ℓ), partial[4ℓ .. 5ℓ), carry at 5ℓ (mediate only). */

typedef struct scan_args {
    gmem data;     /* scanned in place: the powers, or the tile totals */
    gmem totals;   /* roots-inclusive: where the tiles' totals go; NULL: none */
    gmem prefixes; /* roots-exclusive: the scanned totals */
    int log_l;
    int per_chunk; /* steps of one tile scan: 5 + 2 log ℓ */
    int chunks;    /* tiles scanned one after the other (roots-mediate) */
} scan_args;

#define PARTIAL(l) (ITEMS * (long)(l))     /* partial[t] at PARTIAL(ℓ) + t */
#define CARRY(l) (ITEMS * (long)(l) + (l)) /* the product of the chunks before */

static long tile_base(const exec_thread *t, const scan_args *a)
{
    long chunk = t->step / a->per_chunk;
    return (t->bid + chunk) * ITEMS * (long)t->threads; /* one of: bid, chunk is 0 */
}

static void scan_load(exec_thread *t, void *args)
{
    const scan_args *a = args;
    long base = tile_base(t, a);
    for (int j = 0; j < ITEMS; j++)
        exec_pwrite(t, (long)j * t->threads + t->tid, exec_gread(t, a->data, base + (long)j * t->threads + t->tid));
}

static void scan_partial(exec_thread *t, void *args)
{
    (void)args;
    word product = exec_pread(t, ITEMS * (long)t->tid);
    for (int j = 1; j < ITEMS; j++)
        product = exec_zp_mul(t, product, exec_pread(t, ITEMS * (long)t->tid + j));
    exec_pwrite(t, PARTIAL(t->threads) + t->tid, product);
}

/* Up-sweep level: partial[i] = partial[i−d] ⊗ partial[i], i = (t+1)·2d − 1. */
static void scan_up(exec_thread *t, void *args)
{
    const scan_args *a = args;
    long d = 1L << (t->step % a->per_chunk - 2), i = (t->tid + 1) * 2 * d - 1;
    if (i >= t->threads)
        return;
    long at = PARTIAL(t->threads);
    exec_pwrite(t, at + i, exec_zp_mul(t, exec_pread(t, at + i - d), exec_pread(t, at + i)));
}

static void scan_clear(exec_thread *t, void *args)
{
    (void)args;
    if (t->tid == 0)
        exec_pwrite(t, PARTIAL(t->threads) + t->threads - 1, 1);
}

/* Down-sweep level: (partial[i−d], partial[i]) = (partial[i], partial[i] ⊗ partial[i−d]). */
static void scan_down(exec_thread *t, void *args)
{
    const scan_args *a = args;
    long d = (long)t->threads / 2 >> (t->step % a->per_chunk - 3 - a->log_l), i = (t->tid + 1) * 2 * d - 1;
    if (i >= t->threads)
        return;
    long at = PARTIAL(t->threads);
    word left = exec_pread(t, at + i - d), right = exec_pread(t, at + i);
    exec_pwrite(t, at + i - d, right);
    exec_pwrite(t, at + i, exec_zp_mul(t, right, left));
}

static void scan_apply(exec_thread *t, void *args)
{
    const scan_args *a = args;
    word run = exec_pread(t, PARTIAL(t->threads) + t->tid);
    if (t->step >= a->per_chunk) /* a later chunk of roots-mediate */
        run = exec_zp_mul(t, run, exec_pread(t, CARRY(t->threads)));
    for (int j = 0; j < ITEMS; j++) {
        long at = ITEMS * (long)t->tid + j;
        run = exec_zp_mul(t, run, exec_pread(t, at));
        exec_pwrite(t, at, run);
    }
}

static void scan_store(exec_thread *t, void *args)
{
    const scan_args *a = args;
    long base = tile_base(t, a);
    word last = 0;
    for (int j = 0; j < ITEMS; j++) {
        last = exec_pread(t, (long)j * t->threads + t->tid);
        exec_gwrite(t, a->data, base + (long)j * t->threads + t->tid, last);
    }
    if (t->tid != t->threads - 1)
        return; /* the last thread's last item is the tile's total */
    if (a->totals)
        exec_gwrite(t, a->totals, t->bid, last);
    else if (t->step / a->per_chunk + 1 < a->chunks)
        exec_pwrite(t, CARRY(t->threads), last);
}

/* roots-exclusive: block b multiplies tile b + 1 by the product of tiles 0..b. */
static void scan_finish(exec_thread *t, void *args)
{
    const scan_args *a = args;
    word prefix = exec_gread(t, a->prefixes, t->bid);
    long base = (t->bid + 1) * ITEMS * (long)t->threads;
    for (int j = 0; j < ITEMS; j++) {
        long at = base + (long)j * t->threads + t->tid;
        exec_gwrite(t, a->data, at, exec_zp_mul(t, prefix, exec_gread(t, a->data, at)));
    }
}

/* The steps of `chunks` tile scans one after the other. */
static exec_step *scan_steps(int log_l, int chunks, int *n_steps)
{
    int per_chunk = 5 + 2 * log_l, k = 0;
    exec_step *steps = malloc(sizeof *steps * (size_t)(per_chunk * chunks));
    for (int c = 0; c < chunks; c++) {
        steps[k++] = scan_load;
        steps[k++] = scan_partial;
        for (int level = 0; level < log_l; level++)
            steps[k++] = scan_up;
        steps[k++] = scan_clear;
        for (int level = 0; level < log_l; level++)
            steps[k++] = scan_down;
        steps[k++] = scan_apply;
        steps[k++] = scan_store;
    }
    *n_steps = k;
    return steps;
}

int stockham_exec_roots(exec_run *run, const stockham_exec_fft *fft, word omega)
{
    long n = fft->n, l = fft->l, tiles = n / (ITEMS * l);
    int log_l = log2_of(l), chunks = (int)((tiles + ITEMS * l - 1) / (ITEMS * l)), n_steps;
    uint64_t p = exec_prime(run);
    /* the scan's input (1, ω, ω, ..., ω) and its padded tile totals */
    fft->powers->cells[0] = 1;
    for (long e = 1; e < n; e++)
        fft->powers->cells[e] = omega % p;
    gmem totals = exec_alloc(run, "tile-totals", (long)chunks * ITEMS * l);
    for (long i = 0; i < totals->size; i++)
        totals->cells[i] = 1;

    scan_args inclusive = {fft->powers, totals, NULL, log_l, 5 + 2 * log_l, 1};
    scan_args mediate = {totals, NULL, NULL, log_l, 5 + 2 * log_l, chunks};
    scan_args exclusive = {fft->powers, NULL, totals, log_l, 1, 1};
    static const exec_step finish[] = {scan_finish};
    exec_step *steps = scan_steps(log_l, chunks, &n_steps);
    int per_chunk = 5 + 2 * log_l;
    int rc = launch(run, fft, "roots-inclusive", -1, steps, per_chunk, CARRY(l) + 1, tiles, &inclusive);
    if (rc == 0)
        rc = launch(run, fft, "roots-mediate", -1, steps, n_steps, CARRY(l) + 1, 1, &mediate);
    if (rc == 0)
        rc = launch(run, fft, "roots-exclusive", -1, finish, 1, 0, tiles - 1, &exclusive);
    free(steps);
    return rc;
}

/* ---- the FFT: butterflies, stride permutations, twiddles ------------------ */

typedef struct fft_args {
    gmem in, out, powers;
    long half;   /* n/2 */
    int log_q;   /* rows of q = 2^i words */
} fft_args;

/* Phase 3, DFT_2 ⊗ I_{n/2}: (x_j, x_{j+n/2}) -> (x_j + x_{j+n/2}, x_j − x_{j+n/2}). */
static void butterfly(exec_thread *t, void *args)
{
    const fft_args *a = args;
    long j = t->bid * t->threads + t->tid;
    exec_ops(t, BUTTERFLY_INDEX_OPS);
    word u = exec_gread(t, a->in, j), v = exec_gread(t, a->in, j + a->half);
    exec_gwrite(t, a->out, j, exec_zp_add(t, u, v));
    exec_gwrite(t, a->out, j + a->half, exec_zp_sub(t, u, v));
}

/* Phase 1, L_2^N ⊗ I_q (N = n/q): output row r < N/2 is input row 2r,
 * output row N/2 + r is input row 2r + 1; a thread per output word. */
static void stride_copy(exec_thread *t, void *args)
{
    const fft_args *a = args;
    long g = t->bid * t->threads + t->tid, q = 1L << a->log_q;
    long row = g >> a->log_q, half_rows = a->half >> a->log_q;
    long from = row < half_rows ? 2 * row : 2 * (row - half_rows) + 1;
    exec_ops(t, STRIDE_COPY_OPS);
    exec_gwrite(t, a->out, g, exec_gread(t, a->in, (from << a->log_q) + (g & (q - 1))));
}

/* The same when q < ℓ: the block's ℓ contiguous input words (ℓ/q rows) go
 * to ℓ/2 contiguous words in each half; even rows first in private memory. */
static void stride_shuffle_in(exec_thread *t, void *args)
{
    const fft_args *a = args;
    long q = 1L << a->log_q, row = t->tid >> a->log_q;
    long place = (row & 1) * (t->threads / 2) + (row >> 1) * q + (t->tid & (q - 1));
    exec_ops(t, STRIDE_SHUFFLE_OPS);
    exec_pwrite(t, place, exec_gread(t, a->in, t->bid * t->threads + t->tid));
}

static void stride_shuffle_out(exec_thread *t, void *args)
{
    const fft_args *a = args;
    long half_block = t->threads / 2, to = t->bid * half_block + t->tid;
    if (t->tid >= half_block)
        to += a->half - half_block;
    exec_gwrite(t, a->out, to, exec_pread(t, t->tid));
}

/* Phase 2, D_{2,N/2} ⊗ I_q: word n/2 + j times ω^e, e = ⌊j/q⌋·q. */
static void twiddle(exec_thread *t, void *args)
{
    const fft_args *a = args;
    long j = t->bid * t->threads + t->tid, e = j >> a->log_q << a->log_q;
    exec_ops(t, TWIDDLE_INDEX_OPS);
    word w = exec_gread(t, a->powers, e);
    exec_gwrite(t, a->out, a->half + j, exec_zp_mul(t, exec_gread(t, a->out, a->half + j), w));
}

static const exec_step butterfly_steps[] = {butterfly};
static const exec_step copy_steps[] = {stride_copy};
static const exec_step shuffle_steps[] = {stride_shuffle_in, stride_shuffle_out};
static const exec_step twiddle_steps[] = {twiddle};

/* Step s >= 1 (factor i = k−1−s): `from` -> `to`, which it leaves transformed. */
static int fft_step(exec_run *run, const stockham_exec_fft *fft, int s, gmem from, gmem to)
{
    long n = fft->n, l = fft->l;
    int k = log2_of(n);
    fft_args a = {from, to, fft->powers, n / 2, k - 1 - s};
    int rc;
    if ((1L << a.log_q) < l)
        rc = launch(run, fft, "stride", s, shuffle_steps, 2, l, n / l, &a);
    else
        rc = launch(run, fft, "stride", s, copy_steps, 1, 0, n / l, &a);
    if (rc < 0 || launch(run, fft, "twiddle", s, twiddle_steps, 1, 0, n / (2 * l), &a) < 0)
        return -1;
    fft_args b = {to, to, fft->powers, n / 2, 0};
    return launch(run, fft, "butterfly", s, butterfly_steps, 1, 0, n / (2 * l), &b);
}

int stockham_exec_transform(exec_run *run, const stockham_exec_fft *fft, gmem x, gmem buf0, gmem buf1,
                            gmem *result)
{
    long n = fft->n, l = fft->l;
    fft_args first = {x, buf0, fft->powers, n / 2, 0};
    if (launch(run, fft, "butterfly", 0, butterfly_steps, 1, 0, n / (2 * l), &first) < 0)
        return -1;
    gmem cur = buf0, other = buf1;
    for (int s = 1; s < log2_of(n); s++) {
        if (fft_step(run, fft, s, cur, other) < 0)
            return -1;
        gmem swap = cur;
        cur = other;
        other = swap;
    }
    *result = cur;
    return 0;
}

/* ---- the `stockham` program ----------------------------------------------- */

typedef struct stockham_point {
    long n;
    int l;
    word omega;
    gmem x, powers, buf0, buf1, result;
} stockham_point;

static double param(const vars *params, const char *name, double fallback)
{
    const double *v = vars_get(params, name);
    return v ? *v : fallback;
}

/* The params, checked as stockham.c checks them, plus what exec mode
 * needs: p − 1 divisible by n. */
static int read_point(double n, double l, const machine *m, uint64_t p, stockham_point *pt)
{
    if (l != floor(l) || l < 2 || l > 0x1p20)
        return fail("program 'stockham': ℓ must be a power of two >= 2 (ℓ = %g)", l);
    stockham_fft fft = {.n = n, .l = (int)l, .with_roots = 1};
    if (stockham_check("stockham", &fft, m) < 0)
        return -1;
    if (n > 0x1p26 || fft_root_of_unity(p, (long)n) == 0)
        return fail("program 'stockham' (exec mode): no primitive n-th root of unity modulo p = %llu "
                    "(n = %g; n must divide p − 1)", (unsigned long long)p, n);
    memset(pt, 0, sizeof *pt);
    pt->n = (long)n;
    pt->l = (int)l;
    pt->omega = fft_root_of_unity(p, pt->n);
    return 0;
}

/* Global memory and the random input (never zero), seeded by the machine. */
static void set_up(exec_run *run, const machine *m, stockham_point *pt)
{
    uint64_t p = exec_prime(run);
    pt->x = exec_alloc(run, "x", pt->n);
    pt->powers = exec_alloc(run, "powers", pt->n);
    pt->buf0 = exec_alloc(run, "buf0", pt->n);
    pt->buf1 = exec_alloc(run, "buf1", pt->n);
    rng r;
    rng_seed(&r, m->seed);
    for (long i = 0; i < pt->n; i++)
        pt->x->cells[i] = 1 + rng_below(&r, p - 1);
}

static int run_kernels(exec_run *run, stockham_point *pt)
{
    stockham_exec_fft fft = {.label = NULL, .n = pt->n, .l = pt->l, .powers = pt->powers};
    if (stockham_exec_roots(run, &fft, pt->omega) < 0)
        return -1;
    return stockham_exec_transform(run, &fft, pt->x, pt->buf0, pt->buf1, &pt->result);
}

static int compare(const stockham_point *pt, const word *want)
{
    long at = fft_first_difference(pt->result->cells, want, pt->n);
    if (at < 0)
        return 0;
    return fail("program 'stockham' (exec mode): result differs from the serial reference: "
                "DFT[%ld] = %llu, expected %llu (n = %ld, ℓ = %d) at index %ld",
                at, (unsigned long long)pt->result->cells[at], (unsigned long long)want[at], pt->n, pt->l, at);
}

static int host(const vars *params, const machine *m, exec_run *run)
{
    stockham_point pt;
    if (read_point(param(params, "n", 65536), param(params, "l", 128), m, exec_prime(run), &pt) < 0)
        return -1;
    set_up(run, m, &pt);
    if (run_kernels(run, &pt) < 0)
        return -1;
    word *want = malloc(sizeof *want * (size_t)pt.n);
    fft_reference(exec_prime(run), pt.omega, pt.x->cells, want, pt.n);
    int rc = compare(&pt, want);
    free(want);
    return rc;
}

const exec_program exec_stockham = {"stockham", host};

/* ---- timing, for the benchmark -------------------------------------------- */

static double seconds_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int stockham_exec_time(long n, const machine *m, int threads, double *exec_seconds, double *serial_seconds)
{
    exec_run *run = exec_begin("stockham", m);
    exec_set_threads(run, threads);
    stockham_point pt;
    int rc = read_point((double)n, 128, m, exec_prime(run), &pt);
    if (rc == 0) {
        set_up(run, m, &pt);
        double start = seconds_now();
        rc = run_kernels(run, &pt);
        *exec_seconds = seconds_now() - start;
    }
    if (rc == 0) {
        word *want = malloc(sizeof *want * (size_t)n);
        memcpy(want, pt.x->cells, sizeof *want * (size_t)n);
        double start = seconds_now();
        fft_serial(exec_prime(run), pt.omega, want, n);
        *serial_seconds = seconds_now() - start;
        rc = compare(&pt, want);
        free(want);
    }
    exec_end(run);
    return rc;
}
