/*
 * kernels.c — plain (long) multiplication of polynomials over Z/pZ with
 * parameter s, its kernels written once (sim/exec/mcm_kernel.h): mcmsim runs
 * them in exec mode (`--exec`), nvcc builds them for the card
 * (cuda_ref/run-all.sh, case plain-mult).  The model a student computes,
 * with its closed forms, is model.c.
 *
 * The algorithm of the MCM paper, §5.1 (Algorithms 2–4): a has n
 * coefficients, b has m, n >= m; x = m/s rows, y = n + s − 1 columns.
 *   MulKer, one launch of x·⌈y/(sℓ)⌉ blocks: block (row r, chunk c) loads
 *     the s coefficients b[rs .. rs+s−1] and the sℓ + s − 1 coefficients of
 *     a from csℓ − (s − 1) on (zero outside a) into private memory, each
 *     thread computes s consecutive entries of row r of M, each a sum of s
 *     products M[r][col] = Σ_{k<s} a[col − k]·b[rs + k] (row r holds
 *     a·b[rs .. rs+s−1], which belongs at offset rs), keeps them in private
 *     memory and the block writes its sℓ entries coalesced.  Its threads
 *     also zero f, the product, which the additions accumulate into.
 *   AddKer, log2 x launches; round i adds the rows pairwise, (x/2^(i+1))·
 *     ⌈y/(sℓ)⌉ blocks: pair j is the lower row k = (2j+1)·2^i − 1 (holding
 *     rows k − 2^i + 1 .. k, aligned at offset ks) and the upper row
 *     u = k + 2^i.  Entry h < 2^i·s of row k lies below row u's offset and
 *     is added into f at ks + h; the others into M[u][h − 2^i·s].  In the
 *     last round the upper row is added into f as well (f[us + h], with
 *     the lower row's entry h + 2^i·s), which ends the product.  Thread t
 *     handles the s entries h = base + eℓ + t of its block (coalesced).
 * Launches, grids, private memory (2sℓ + 2s − 1 words) and arithmetic
 * (Barrett Z/pZ, p = 469762049) are cuda_ref's (the former
 * cuda_ref/plain-mult.cu): 1 + log2(m/s) launches.  Its grids were 2-D
 * (chunk, row); here the block number is chunk + row·⌈y/(sℓ)⌉, the same
 * order, the row and chunk recovered by one 32-bit division.  Two
 * orderings inside a step differ from it, neither changing what a thread
 * computes: MulKer loads b after its coefficients of a (cuda_ref before),
 * and AddKer reads the lower row's entry h only where it uses it (cuda_ref's
 * source reads it first, also in the last round where h >= 2^i·s, which
 * does not use it); so that a warp's k-th accesses are, as far as may be,
 * one kind of access (exec mode grades a round by rank, sim/exec/exec.h).  And
 * MulKer loads b's s words in a loop of stride ℓ, where cuda_ref's thread
 * t < s loaded word t: the same for s <= ℓ, all its sweeps; for s > ℓ
 * cuda_ref left words ℓ .. s − 1 unloaded.
 *
 * Measured costs against model.c's declared ones, at grid = 2, the grid
 * model.c takes for cuda_ref (test_exec_plain_mult.c asserts each of these
 * exactly, and every block's figures against an independent count; at
 * grid = 1, the papers' 1-D grid of ⌈x·⌈y/s⌉/ℓ⌉ MulKer blocks, a block may
 * straddle two rows: the same grids at s = 1, fewer MulKer blocks at
 * s >= 2 where sℓ ∤ y, e.g. 17 against 64 at n = m = 2^10, s = 16):
 *   - launches, grids, threads: equal (MulKer, AddKer[0 ..]; each launch
 *     named after its kernel, MulKer and AddKer).  Private memory: MulKer
 *     2sℓ + 2s − 1 words, equal; AddKer none, where model.c declares 2sℓ
 *     (its Z constraint's reading; the kernel keeps its words in
 *     registers).  model.c marks AddKer `unaligned` for the card model
 *     when its rows or shifts are not multiples of 32 words; an exec-mode
 *     DAG carries no such mark (the UMM rule below measures the groups).
 *   - S(B), W(B): model.c counts the worksheet's unit operations, s(2s − 1)
 *     a MulKer thread (s² products, s(s − 1) additions) and s an AddKer
 *     thread.  Exec mode charges a Z/pZ multiplication 11 operations, an
 *     addition 5 and a private-memory access 1 (sim/exec/exec.h), and the kernel
 *     adds each of a thread's s² products to a sum that starts at 0, as
 *     cuda_ref does: s² additions.  So MulKer's thread 0 measures 16s² and
 *     2s² + 3s + 2 private accesses (s >= 2: s + 1 words of a and one of b
 *     loaded, 2s² read and s written by the products, s read back by the
 *     store); its classes are model.c's s² mulmods and s² addmods, no plain
 *     operations (model.c: 3s² + 9s + 5) and 2s² + 3s + 2 private accesses
 *     (model.c: 2s² + 2s + 2, s fewer than its own comment counts).  Every
 *     MulKer thread computes its s entries, those past y too (only the
 *     store skips them), as cuda_ref: W(B) = ℓ times a thread's, where
 *     model.c spreads the work of the ⌈y/s⌉ threads of a row over its
 *     blocks.  An AddKer thread measures 5 an addition: s of them (fewer in
 *     a row's last block), up to 3s in the last round (the lower row's low
 *     entry into f; the lower row's entry h + 2^i·s into the upper row's
 *     and that into f).
 *   - α, β: MulKer declares s + 2 and s.  Measured α: a thread's words of
 *     a and b, ⌈(s − 1)/ℓ⌉ + s + ⌈s/ℓ⌉ (s + 2 for 2 <= s <= ℓ, 2 at s = 1,
 *     s + 4 at s = 2ℓ), fewer in a row's first and last blocks (no words
 *     outside a); β: s words of M, and the words of f the thread zeroes,
 *     ⌈(n + m − 1 − tid)/(blocks·ℓ)⌉ (one or two at the card's sizes).
 *     AddKer declares 2s and s: equal but in the last round, up to 5s and
 *     2s (where h < 2^i·s: the lower row's entry, f's word, its update;
 *     for every h: the upper row's entry, the lower row's h + 2^i·s, f's
 *     word, its update).
 *   - O(B): model.c declares every access coalesced, (2s + 2)U a MulKer
 *     block and 3sU an AddKer block.  Measured by the UMM rule (a round of
 *     a warp costs w/ℓ·U per address group it touches): M's rows are y =
 *     n + s − 1 words apart, so a row starts on an address group only when
 *     w | r·y, and a's chunk starts s − 1 words before one: a round of a
 *     warp's consecutive words touches two groups where it is off a
 *     boundary, one where it is on; zeroing f is one group a warp a round.
 *     At n = 2017, s = ℓ = w = 32 (y = 2048, every row aligned, two blocks
 *     a row, m = 256: x = 8) a MulKer block reads 33U in a row's first
 *     block (a from cell 0: one group a round; b one) and 65U in its
 *     second (its chunk starts 31 words before a group: two a round),
 *     against (s + 2)U = 34U declared, and writes 36U or 37U (s rounds of
 *     M, one group each, and 4 or 5 of f's zeros) against sU = 32U; an
 *     AddKer[0] block moves the declared 3sU.
 *
 * Params: n, m (m = 0 means m = n), l (ℓ), s, as model.c, asked in the
 * order of the card's rows.  model.c's grid is not one: the kernels launch
 * cuda_ref's grid, model.c's grid = 2, whatever a run file's grid says
 * (plain-mult-card.cfg sets grid = 2, so that its model and its kernels
 * launch alike; plain-mult.cfg, the paper's Figure 6, keeps grid = 1).
 * Needs, as cuda_ref: m and s powers of two, m >= 2s (one AddKer round at
 * least), whole n >= m; ℓ >= 1.
 */
#include "mcm_kernel.h"

#include <math.h>
#include <stdlib.h>

#define PRIME 469762049u

typedef struct mul_args {
    gmem a, b, M, f;
    long n, y, f_len;
    int s;
    long chunks; /* ⌈y/(sℓ)⌉ blocks a row */
} mul_args;

/* Private memory: A[j] = word j, j < sℓ + s − 1, the coefficients of a;
 * then B[k], k < s; then the sℓ entries. */
static MCM_DEVICE long b_slot(int s, int l, long k) { return (long)s * l + s - 1 + k; }
static MCM_DEVICE long entry_slot(int s, int l, long u) { return (long)s * l + 2 * s - 1 + u; }

/* Step 0: zero f (grid-stride), load a's coefficients, then b's. */
MCM_STEP(load, mul_args, c)
{
    const int l = t->threads, s = c->s;
    const long row = (long)((unsigned)t->bid / (unsigned)c->chunks);
    const long col_start = (long)((unsigned)t->bid % (unsigned)c->chunks) * s * l;
    for (long i = t->bid * l + t->tid; i < c->f_len; i += t->blocks * l)
        exec_gwrite(t, c->f, i, 0);
    for (long j = t->tid; j < (long)s * l + s - 1; j += l) {
        long idx = col_start - (s - 1) + j; /* A[j] = a[idx] */
        exec_pwrite(t, j, idx >= 0 && idx < c->n ? exec_gread(t, c->a, idx) : 0);
    }
    for (long k = t->tid; k < s; k += l)
        exec_pwrite(t, b_slot(s, l, k), exec_gread(t, c->b, row * s + k));
}

/* Step 1: the thread's s entries u = ts + e, each a sum of s products. */
MCM_STEP(multiply, mul_args, c)
{
    const int l = t->threads, s = c->s;
    for (int e = 0; e < s; e++) {
        long u = (long)t->tid * s + e;
        word h = 0;
        for (int k = 0; k < s; k++)
            h = exec_zp_add(t, h, exec_zp_mul(t, exec_pread(t, u - k + s - 1),
                                              exec_pread(t, b_slot(s, l, k))));
        exec_pwrite(t, entry_slot(s, l, u), h);
    }
}

/* Step 2: the block's sℓ entries out, coalesced. */
MCM_STEP(store, mul_args, c)
{
    const int l = t->threads, s = c->s;
    const long row = (long)((unsigned)t->bid / (unsigned)c->chunks);
    const long col_start = (long)((unsigned)t->bid % (unsigned)c->chunks) * s * l;
    for (long u = t->tid; u < (long)s * l; u += l) {
        long col = col_start + u;
        if (col < c->y)
            exec_gwrite(t, c->M, row * c->y + col, exec_pread(t, entry_slot(s, l, u)));
    }
}

MCM_KERNEL(MulKer, mul_args, load, multiply, store);

typedef struct add_args {
    gmem M, f;
    long y;
    int s;
    long half; /* 2^i */
    int last;  /* the last round: the upper row goes into f */
    long chunks;
} add_args;

/* Round i, pair j = block / chunks: rows k = (2j+1)·2^i − 1 and u = k + 2^i. */
MCM_STEP(add_rows, add_args, c)
{
    const int l = t->threads, s = c->s;
    const long pair = (long)((unsigned)t->bid / (unsigned)c->chunks);
    const long base = (long)((unsigned)t->bid % (unsigned)c->chunks) * s * l;
    const long k = (2 * pair + 1) * c->half - 1, u = k + c->half, shift = c->half * s;
    for (int e = 0; e < s; e++) {
        long h = base + (long)e * l + t->tid;
        if (h >= c->y)
            break;
        if (h < shift) {
            word v = exec_gread(t, c->M, k * c->y + h);
            exec_gwrite(t, c->f, k * s + h, exec_zp_add(t, exec_gread(t, c->f, k * s + h), v));
        } else if (!c->last) {
            word v = exec_gread(t, c->M, k * c->y + h);
            long at = u * c->y + h - shift;
            exec_gwrite(t, c->M, at, exec_zp_add(t, exec_gread(t, c->M, at), v));
        }
        if (c->last) {
            word w = exec_gread(t, c->M, u * c->y + h);
            if (h + shift < c->y)
                w = exec_zp_add(t, w, exec_gread(t, c->M, k * c->y + h + shift));
            exec_gwrite(t, c->f, u * s + h, exec_zp_add(t, exec_gread(t, c->f, u * s + h), w));
        }
    }
}

MCM_KERNEL(AddKer, add_args, add_rows);

static gmem a, b, M, f;
static long n, m;
static int s, l;

static int is_power_of_two(double v) { return v >= 1 && v == floor(v) && exp2(floor(log2(v))) == v; }

static int setup(exec_run *run, const mcm_params *p)
{
    /* m = n unless given (the card's rows name m = n); model.c's default
     * m = 0 means the same */
    double vn = mcm_param(p, "n", 1024);
    double vm = mcm_param(p, "m", vn);
    double vl = mcm_param(p, "l", 256), vs = mcm_param(p, "s", 4);
    if (vm == 0)
        vm = vn;
    if (vn != floor(vn) || vl != floor(vl) || vl < 1 || vn > 1e8 || !is_power_of_two(vm) ||
        !is_power_of_two(vs) || vm < 2 * vs || vn < vm)
        return mcm_fail("plain-mult: needs m and s powers of two, m >= 2s, whole n >= m and l >= 1, as "
                        "cuda_ref's kernels (got n = %g, m = %g, l = %g, s = %g)", vn, vm, vl, vs);
    n = (long)vn;
    m = (long)vm;
    l = (int)vl;
    s = (int)vs;
    long x = m / s, y = n + s - 1;
    a = mcm_alloc(run, "a", n);
    b = mcm_alloc(run, "b", m);
    M = mcm_alloc(run, "M", x * y);
    f = mcm_alloc(run, "f", n + m - 1);
    uint64_t state = mcm_seed(p);
    for (long i = 0; i < n; i++)
        mcm_set(a, i, mcm_random(&state) % PRIME);
    for (long i = 0; i < m; i++)
        mcm_set(b, i, mcm_random(&state) % PRIME);
    return 0;
}

static int launches(exec_run *run)
{
    long x = m / s, y = n + s - 1, chunks = (y + (long)s * l - 1) / ((long)s * l);
    mul_args mc = {a, b, M, f, n, y, n + m - 1, s, chunks};
    if (mcm_launch(run, &MulKer, x * chunks, l, 2L * s * l + 2 * s - 1, &mc) < 0)
        return -1;
    for (long half = 1; half < x; half *= 2) {
        add_args ac = {M, f, y, s, half, 2 * half == x, chunks};
        if (mcm_launch(run, &AddKer, x / (2 * half) * chunks, l, 0, &ac) < 0)
            return -1;
    }
    return 0;
}

/* The schoolbook product, its sums of products reduced every 63 terms
 * (a product is below p² < 2^58). */
static int check(exec_run *run)
{
    (void)run;
    word *x = (word *)malloc(sizeof *x * (size_t)n), *z = (word *)malloc(sizeof *z * (size_t)m);
    if (!x || !z) {
        free(x);
        free(z);
        return mcm_fail("plain-mult: no memory for the serial product");
    }
    for (long i = 0; i < n; i++)
        x[i] = mcm_get(a, i);
    for (long j = 0; j < m; j++)
        z[j] = mcm_get(b, j);
    int rc = 0;
    for (long d = 0; d < n + m - 1 && rc == 0; d++) {
        word sum = 0;
        int terms = 0;
        for (long j = d - n + 1 > 0 ? d - n + 1 : 0; j < m && j <= d; j++) {
            sum += x[d - j] * z[j];
            if (++terms == 63) {
                sum %= PRIME;
                terms = 0;
            }
        }
        if (mcm_get(f, d) != sum % PRIME)
            rc = mcm_fail("plain-mult: coefficient %ld of the product is %llu, the schoolbook product's %llu", d,
                          (unsigned long long)mcm_get(f, d), (unsigned long long)(sum % PRIME));
    }
    free(x);
    free(z);
    return rc;
}

MCM_PROGRAM("plain-mult", setup, launches, check);
