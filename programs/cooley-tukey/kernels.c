/*
 * kernels.c — the Cooley–Tukey FFT over Z/pZ, its kernels written once
 * (sim/exec/mcm_kernel.h): mcmsim runs them in exec mode (`--exec`), nvcc
 * builds them for the card (cuda_ref/run-all.sh, case cooley-tukey).  The
 * model a student computes, with the paper's closed forms, is model.c.
 *
 * Sources: paper §4.1, factorization (5), DFT_n = M M' M'' with k = log n,
 * m = 2^r, and thesis Appendix B's worksheet (line 5045): the same
 * kernels, grids and ℓ as model.c, in the same order:
 *   transpose  log n − log m kernels of n/ℓ blocks, I_{2^j} ⊗ L_2^N with
 *              N = 2^(k−j): in each chunk of N words the even positions go
 *              to the first half, the odd ones to the second; a thread per
 *              input word, out of place (coalesced reads, scattered writes,
 *              as the worksheet says)
 *   dft_m      one kernel of n/(mℓ) blocks, I_{n/m} ⊗ DFT_m: a thread per
 *              chunk of m consecutive words, loaded into registers, the
 *              naive DFT_m from the table of the m powers of w_m = ω^(n/m)
 *              (in the launch's args: kernel parameters, constant memory on
 *              the card), stored back in place
 *   butterfly  log n − log m kernels of n/ℓ blocks, (I ⊗ DFT_2 ⊗ I_{N/2})
 *              (I ⊗ D_{2,N/2}) with N = 2^(r+1+j): a thread per output word,
 *              out of place: in each chunk, output u = x_t ± w_N^t x_{N/2+t}
 *              (t = u mod N/2, + in the first half), w_N = ω^(n/N), the
 *              twiddle w_N^t made by the thread by square and multiply (the
 *              worksheet's "without pre-computed jumped powers")
 * L_2^N is the even–odd split and D_{2,q} = I_q ⊕ diag(w_N^j), as in
 * Stockham's kernels.  A run is 2(log n − log m) + 1 launches.
 *
 * Counting: modular arithmetic by exec mode (an addition 5 operations, a
 * product 11), and the index arithmetic as the worksheet counts it: 20
 * operations per transposing thread (9 additions, 11 bit operations, line
 * 5064) and 30 per word of a DFT_m (line 5075).  The butterflies' index
 * arithmetic is inside the worksheet's 27 and is not counted apart.
 *
 * Measured costs against model.c's declared ones (test_exec_cooley_tukey.c
 * asserts each):
 *   equal:   the kernels, their grids and ℓ (each launch named after its
 *            kernel, the model numbering them: transpose[j]); N, L, K;
 *            transpose S(B) = 20, W(B) = 20ℓ; dft_m α = β = m.
 *   differs, and why:
 *    1. transpose α = β = 1 (model 2, 2): n/ℓ blocks of ℓ threads move the
 *       n words once; the worksheet's "each thread moves 2 data" (line
 *       5064) counts each word twice.  O(B), by the UMM rule: the writes
 *       of a warp fall in 2 address groups (the even run and the odd run),
 *       so O(B) = U + 2U = 3U, and 2U when N <= w (one chunk of at most w
 *       words per warp: one group); the model charges 2U + 2Uℓ for the
 *       first log ℓ kernels ("uncoalesced") and 4U for the others.
 *    2. dft_m S(B) = W(B)/ℓ = 16m² + 30m (4576 at m = 16; model S(B) =
 *       32 log m (m − 1) + 30m + 11 = 2411 and W(B)/ℓ = 32m² + 9m = 8336):
 *       the card's kernel makes m² products by the table's powers and m²
 *       additions, where the worksheet counts a radix-2 DFT_m in S and
 *       m(m − 1) butterflies in W.  O(B): the thread's m words are
 *       consecutive, so a warp's round of loads (or stores) touches m
 *       address groups when m < w: O(B) = 2m·m·U = 2m²U (512U at m = 16)
 *       where the model charges 2mU.  The card serves the other m − 1
 *       rounds of a line from its L1: what the UMM rule (no cache) cannot
 *       see, and the reason the card's kernel loads this way.
 *    3. butterfly α = 2, β = 1, O(B) = 3U (model 2, 2, 4U): a thread per
 *       output word writes one word.  S(B), W(B): a thread's twiddle
 *       exponent e is its place in the half chunk, up to N/2 − 1, not its
 *       index i <= ℓ as the worksheet assumes (34 log i + 27, line 5083),
 *       and a product costs 11, not 17: a thread makes
 *       11·(popcount(e) + ⌊log e⌋) (the power; 0 when e = 0) + 11 + 5
 *       operations, S(B) is the block's largest, W(B) their sum, so they
 *       differ from block to block.
 *
 * Serial reference: the iterative radix-2 FFT of programs/common/
 * fft_reference.h (checked against the naive DFT by Stockham's tests).
 *
 * Params (as model.c): n (FFT size, a power of two, 2m <= n <= 2^26), l
 * (ℓ, a power of two), m (the base DFT's size: 2, 4, 8 or 16, the sizes
 * the card's kernel is unrolled for).
 */
#include "mcm_kernel.h"
#include "../common/fft_reference.h"

#include <string.h>

#define CT_MAX_M 16

typedef struct ct_args {
    gmem in, out;
    long n;
    int log2_chunk;          /* N = 2^log2_chunk: a transposition's or butterfly's chunk */
    int m;
    word w;                  /* a butterfly's w_N */
    uint32_t powers[CT_MAX_M]; /* dft_m: w_m^e, e < m */
} ct_args;

/* I ⊗ L_2^N: word u of a chunk goes to u/2, or N/2 + u/2 when u is odd. */
MCM_STEP(transpose_word, ct_args, a)
{
    long g = t->bid * t->threads + t->tid;
    if (g >= a->n)
        return;
    long chunk = 1L << a->log2_chunk, u = g & (chunk - 1);
    long to = g - u + (u & 1) * (chunk / 2) + (u >> 1);
    exec_ops(t, 20);
    exec_gwrite(t, a->out, to, exec_gread(t, a->in, g));
}

/* y_j = Σ_i x_i w_m^(ij) over the M words from `at`, in registers: M is a
 * constant where it is called, so nvcc unrolls the loops. */
static MCM_DEVICE inline void dft_chunk(exec_thread *t, const ct_args *a, long at, const int M)
{
    uint32_t x[CT_MAX_M], y[CT_MAX_M]; /* words of memory: 32 bits */
    exec_ops(t, 30L * M);
    MCM_UNROLL
    for (int i = 0; i < M; i++)
        x[i] = (uint32_t)exec_gread(t, a->in, at + i);
    MCM_UNROLL
    for (int j = 0; j < M; j++) {
        word sum = 0;
        MCM_UNROLL
        for (int i = 0; i < M; i++)
            sum = exec_zp_add(t, sum, exec_zp_mul(t, x[i], a->powers[(i * j) & (M - 1)]));
        y[j] = (uint32_t)sum;
    }
    MCM_UNROLL
    for (int j = 0; j < M; j++)
        exec_gwrite(t, a->out, at + j, y[j]);
}

MCM_STEP(dft_of_chunk, ct_args, a)
{
    long chunk = t->bid * t->threads + t->tid;
    if (chunk >= a->n / a->m)
        return;
    switch (a->m) {
    case 2: dft_chunk(t, a, chunk * 2, 2); break;
    case 4: dft_chunk(t, a, chunk * 4, 4); break;
    case 8: dft_chunk(t, a, chunk * 8, 8); break;
    default: dft_chunk(t, a, chunk * 16, 16); break;
    }
}

/* (I ⊗ DFT_2 ⊗ I_{N/2})(I ⊗ D_{2,N/2}): output u of a chunk. */
MCM_STEP(butterfly_word, ct_args, a)
{
    long g = t->bid * t->threads + t->tid;
    if (g >= a->n)
        return;
    long chunk = 1L << a->log2_chunk, half = chunk / 2;
    long u = g & (chunk - 1), e = u & (half - 1), base = g - u;
    word twiddle = exec_zp_pow(t, a->w, (uint64_t)e);
    word lo = exec_gread(t, a->in, base + e);
    word hi = exec_zp_mul(t, exec_gread(t, a->in, base + half + e), twiddle);
    exec_gwrite(t, a->out, g, u < half ? exec_zp_add(t, lo, hi) : exec_zp_sub(t, lo, hi));
}

MCM_KERNEL(transpose, ct_args, transpose_word);
MCM_KERNEL(dft_m, ct_args, dft_of_chunk);
MCM_KERNEL(butterfly, ct_args, butterfly_word);

/* ---- the host ------------------------------------------------------------ */

static gmem x, buf0, buf1;
static long n;
static int l, m, k, r; /* ℓ, m, log n, log m */
static word omega;      /* ω_n */

static int whole_log2(long v)
{
    int e = 0;
    while (e < 62 && (1L << e) < v)
        e++;
    return v >= 1 && (1L << e) == v ? e : -1;
}

static int setup(exec_run *run, const mcm_params *p)
{
    n = (long)mcm_param(p, "n", 65536);
    l = (int)mcm_param(p, "l", 128);
    m = (int)mcm_param(p, "m", 16);
    k = whole_log2(n);
    r = whole_log2(m);
    if (k < 0 || whole_log2(l) < 0 || r < 1 || m > CT_MAX_M || n < 2L * m || k > 26)
        return mcm_fail("cooley-tukey: needs n and l powers of two, m = 2, 4, 8 or 16 (the sizes the card's "
                        "kernel is unrolled for) and 2m <= n <= 2^26 (got n = %ld, m = %d, l = %d)", n, m, l);
    omega = fft_root_of_unity(n);
    x = mcm_alloc(run, "x", n);
    buf0 = mcm_alloc(run, "buf0", n);
    buf1 = mcm_alloc(run, "buf1", n);
    uint64_t state = mcm_seed(p);
    for (long i = 0; i < n; i++)
        mcm_set(x, i, 1 + mcm_random(&state) % (MCM_PRIME - 1));
    return 0;
}

static int launches(exec_run *run)
{
    long grid = (n + l - 1) / l;
    ct_args a;
    memset(&a, 0, sizeof a);
    a.n = n;
    a.m = m;
    gmem buf[2] = {buf0, buf1}, from = x;
    int to = 0; /* the buffer written next */
    for (int j = 0; j < k - r; j++, to = 1 - to) { /* M'' */
        a.in = from;
        a.out = buf[to];
        a.log2_chunk = k - j;
        if (mcm_launch(run, &transpose, grid, l, 0, &a) < 0)
            return -1;
        from = buf[to];
    }
    word w_m = zp_pow(MCM_PRIME, omega, (uint64_t)(n / m));
    for (int e = 0; e < m; e++)
        a.powers[e] = (uint32_t)zp_pow(MCM_PRIME, w_m, (uint64_t)e);
    a.in = a.out = from; /* M', in place */
    if (mcm_launch(run, &dft_m, (n / m + l - 1) / l, l, 0, &a) < 0)
        return -1;
    for (int j = 0; j < k - r; j++, to = 1 - to) { /* M */
        a.in = from;
        a.out = buf[to];
        a.log2_chunk = r + 1 + j;
        a.w = zp_pow(MCM_PRIME, omega, (uint64_t)(n >> a.log2_chunk));
        if (mcm_launch(run, &butterfly, grid, l, 0, &a) < 0)
            return -1;
        from = buf[to];
    }
    return 0;
}

/* The 2(log n − log m) kernels that move the words take turns writing
 * buf0 and buf1, the first writing buf0 (dft_m works in place): the last
 * writes buf1.  (check may not read what launches leaves in variables:
 * on the card, launches runs for every point before any check.) */
static int check(exec_run *run)
{
    (void)run;
    word *want = (word *)malloc(sizeof(word) * (size_t)n);
    if (!want)
        return mcm_fail("cooley-tukey: no memory for the serial FFT");
    for (long i = 0; i < n; i++)
        want[i] = mcm_get(x, i);
    serial_fft(want, n, omega);
    long at = -1;
    for (long i = 0; i < n && at < 0; i++)
        if (mcm_get(buf1, i) != want[i])
            at = i;
    int rc = at < 0 ? 0
                    : mcm_fail("cooley-tukey: DFT[%ld] = %llu, the serial FFT gives %llu (n = %ld)", at,
                               (unsigned long long)mcm_get(buf1, at), (unsigned long long)want[at], n);
    free(want);
    return rc;
}

MCM_PROGRAM("cooley-tukey", setup, launches, check);
