/*
 * cooley_tukey_exec.c — the Cooley–Tukey FFT over Z/pZ in exec mode: the
 * kernels of the model-mode program (cooley_tukey.c) written against
 * sim/exec.h, run on random input and checked against a serial DFT.
 *
 * Sources: paper §4.1 (factorization (5)), thesis §4.4.1, and the Appendix B
 * worksheet "Cooley-Tukey FFT algorithm" (xie-thesis-2016.txt, line 5045:
 * per-thread operations of the three phases at lines 5064-5087).
 *
 * DFT_n = M M' M'', k = log n, m = 2^r; the same kernels, grids and ℓ as
 * cooley_tukey.c, in the same order:
 *   transpose[j]  j = 0 .. k−r−1, n/ℓ blocks: I_{2^j} ⊗ L_2^N, N = 2^(k−j):
 *                 in each chunk of N words, the even positions go to the
 *                 first half, the odd ones to the second; a thread per
 *                 input word, out of place (coalesced reads, scattered
 *                 writes, as the worksheet says)
 *   dft_m         n/(mℓ) blocks: I_{n/m} ⊗ DFT_m, a thread per m
 *                 consecutive words: the block loads its mℓ words into
 *                 private memory (contiguous rounds; a thread's m words
 *                 padded to m + 1 against bank conflicts), each thread computes
 *                 the naive DFT_m of its m words, y_j = Σ_i x_i w^(ij) with
 *                 w = ω^(n/m), the powers w^j and w^(ij) made on the fly,
 *                 and the block stores them back (in place)
 *   butterfly[j]  j = 0 .. k−r−1, n/ℓ blocks: (I ⊗ DFT_2 ⊗ I_{N/2})(I ⊗ D_{2,N/2}),
 *                 N = 2^(r+1+j) (the paper's factor i = k−r−1−j), a thread
 *                 per output word, out of place: in each chunk of N words,
 *                 output u = x_t ± w_N^t x_{N/2+t} (t = u mod N/2, + in the
 *                 first half), w_N = ω^(n/N), and w_N^t computed by the
 *                 thread by square and multiply (the worksheet's "_powers"
 *                 variant, which the model uses)
 *
 * How operations are counted: modular arithmetic by the exec layer (an
 * addition 5, a product 11, so a square-and-multiply power of exponent t
 * costs 11 per squaring and per product), private accesses 1 each, and the
 * index arithmetic charged as the worksheet counts it with exec_ops(): 20
 * per transposing thread (9 additions, 11 bit operations, line 5064) and 30
 * per word of a DFT_m (line 5075).
 *
 * Measured against the model (tests/test_exec_cooley_tukey.c asserts each):
 *   equal:   the kernels, their names, grids and ℓ; N, L, K; transpose
 *            S(B) = 20, W(B) = 20ℓ; dft_m α = β = m, O(B) = 2mU.
 *   differs, and why:
 *    1. transpose α = β = 1 (model 2, 2): n/ℓ blocks of ℓ threads move the
 *       n words once; the worksheet's "each thread moves 2 data" (line
 *       5064) counts each word twice.  O(B), by the UMM rule: the writes
 *       of a warp fall in 2 address groups (the even run and the odd run),
 *       so O(B) = U + 2U = 3U, and 2U when N <= w (one chunk of at most w
 *       words per warp: one group); the model charges 2U + 2Uℓ for the
 *       first log ℓ kernels ("uncoalesced") and 4U for the others.  The
 *       paper's costliest kernels are 3U in the UMM's reading: this is
 *       where the measured C and T of Cooley–Tukey fall far below the
 *       model's.
 *    2. dft_m S(B) = W(B)/ℓ = 27m² + 18m (7200 at m = 16; model S(B) =
 *       32 log m (m − 1) + 30m + 11 = 2411 and W(B)/ℓ = 32m² + 9m = 8336):
 *       a thread does its whole count (cooley_tukey.c note 3), one modular
 *       addition a term where the worksheet counts two (5m(m − 1) fewer),
 *       and 4m private accesses it does not count.
 *    3. butterfly α = 2, β = 1, O(B) = 3U (model 2, 2, 4U): a thread per
 *       output word writes one word.  S(B), W(B): a thread's twiddle
 *       exponent e is its place in the half chunk, up to N/2 − 1, not its
 *       index i <= ℓ as the worksheet assumes (34 log i + 27, line 5083),
 *       and a product costs 11, not 17: a thread makes
 *       11·(popcount(e) + ⌊log e⌋) (the power; 0 when e = 0) + 11 + 5
 *       operations, S(B) is the block's largest, W(B) their sum, so they
 *       differ from block to block; the kernel's S is that of
 *       e = 2^(r+j) − 1, 11(2(r + j) − 1) + 16 (model 34 log ℓ + 27 in
 *       every block; the tests compute every block's S(B) and W(B)).
 *   The UMM rule sees no uncoalesced access anywhere; the model's 2Uℓ
 *   transpositions are the paper's binary notion of coalescing.
 *   Private-memory bank conflicts (DMM rule, not in the model): only in
 *   dft_m's loads and stores, one 2-way conflict a warp round when m < w,
 *   2n/w in all (the padding keeps the compute step free of them).
 *
 * Finding: with the measured costs Stockham is still faster, but by
 * T_ct/T_sh = 2.3 to 2.5 for n = 2^12 .. 2^16 (gtx670, ℓ = 128), where the
 * declared costs give 15.7 to 17.9; the H100 measurements of cuda_ref/
 * (Stockham 1.65× faster at 2^20, Cooley–Tukey faster at 2^14) are much
 * nearer the former.
 *
 * Serial reference: the naive DFT up to 1024 points, above that the
 * iterative radix-2 FFT (both in stockham_exec.c, the FFT checked against
 * the DFT by tests/test_exec_stockham.c).
 *
 * Params (as cooley_tukey.c): n (FFT size), m (size of the base DFT), l (ℓ).
 */
#include "exec_programs.h"
#include "fail.h"
#include "program.h"
#include "rng.h"
#include "stockham_exec.h"

#include <stdio.h>
#include <stdlib.h>

#define TRANSPOSE_INDEX_OPS 20  /* 9 additions, 11 bit operations */
#define DFT_M_INDEX_OPS 30      /* bit operations per word of a DFT_m */

typedef struct ct_point {
    long n, m;
    int l, k, r; /* ℓ, log n, log m */
    word omega;
} ct_point;

typedef struct ct_args {
    gmem in, out;
    long chunk;  /* N: chunk size of a transposition or a butterfly */
    long m;
    word w;      /* w_N (butterfly) or w_m (dft_m) */
} ct_args;

static int log2_of(long x)
{
    int k = 0;
    while ((1L << k) < x)
        k++;
    return k;
}

/* ---- the kernels ------------------------------------------------------------ */

/* I ⊗ L_2^N: word u of a chunk goes to u/2, or N/2 + u/2 when u is odd. */
static void transpose(exec_thread *t, void *args)
{
    const ct_args *a = args;
    long g = t->bid * t->threads + t->tid, u = g & (a->chunk - 1);
    long to = g - u + (u & 1) * (a->chunk / 2) + (u >> 1);
    exec_ops(t, TRANSPOSE_INDEX_OPS);
    exec_gwrite(t, a->out, to, exec_gread(t, a->in, g));
}

/* dft_m: word g of the block (g < mℓ) is word g mod m of thread ⌊g/m⌋,
 * kept at private[⌊g/m⌋(m + 1) + g mod m]: a thread's m words padded to
 * m + 1, so that the threads' k-th words fall in distinct banks. */
static long dft_m_place(long g, long m)
{
    return g / m * (m + 1) + g % m;
}

/* The block's mℓ words, contiguous rounds, to private memory. */
static void dft_m_load(exec_thread *t, void *args)
{
    const ct_args *a = args;
    long base = t->bid * a->m * t->threads;
    for (long i = 0; i < a->m; i++) {
        long g = i * t->threads + t->tid;
        exec_pwrite(t, dft_m_place(g, a->m), exec_gread(t, a->in, base + g));
    }
}

/* y_j = Σ_i x_i w^(ij) for the thread's m words. */
static void dft_m_compute(exec_thread *t, void *args)
{
    const ct_args *a = args;
    long m = a->m, at = t->tid * (m + 1);
    word x[64]; /* m <= 64: checked by the host */
    exec_ops(t, DFT_M_INDEX_OPS * m);
    for (long i = 0; i < m; i++)
        x[i] = exec_pread(t, at + i);
    word w_j = 1; /* w^j */
    for (long j = 0; j < m; j++) {
        word sum = x[0], power = 1;
        for (long i = 1; i < m; i++) {
            power = exec_zp_mul(t, power, w_j);
            sum = exec_zp_add(t, sum, exec_zp_mul(t, x[i], power));
        }
        exec_pwrite(t, at + j, sum);
        w_j = exec_zp_mul(t, w_j, a->w);
    }
}

static void dft_m_store(exec_thread *t, void *args)
{
    const ct_args *a = args;
    long base = t->bid * a->m * t->threads;
    for (long i = 0; i < a->m; i++) {
        long g = i * t->threads + t->tid;
        exec_gwrite(t, a->out, base + g, exec_pread(t, dft_m_place(g, a->m)));
    }
}

/* (I ⊗ DFT_2 ⊗ I_{N/2})(I ⊗ D_{2,N/2}): output u of a chunk. */
static void butterfly(exec_thread *t, void *args)
{
    const ct_args *a = args;
    long g = t->bid * t->threads + t->tid, half = a->chunk / 2;
    long u = g & (a->chunk - 1), e = u & (half - 1), base = g - u;
    word twiddle = exec_zp_pow(t, a->w, (uint64_t)e);
    word lo = exec_gread(t, a->in, base + e);
    word hi = exec_zp_mul(t, exec_gread(t, a->in, base + half + e), twiddle);
    exec_gwrite(t, a->out, g, u < half ? exec_zp_add(t, lo, hi) : exec_zp_sub(t, lo, hi));
}

static const exec_step transpose_steps[] = {transpose};
static const exec_step dft_m_steps[] = {dft_m_load, dft_m_compute, dft_m_store};
static const exec_step butterfly_steps[] = {butterfly};

/* ---- the host ----------------------------------------------------------------- */

static int launch(exec_run *run, const char *what, int j, const exec_step *steps, int n_steps,
                  long private_words, long blocks, int l, ct_args *a)
{
    char name[64];
    if (j >= 0)
        snprintf(name, sizeof name, "%s[%d]", what, j);
    else
        snprintf(name, sizeof name, "%s", what);
    exec_kernel k = {name, n_steps, steps, private_words};
    return exec_launch(run, &k, blocks, l, a);
}

/* x -> DFT(x) through the 2(k − r) + 1 kernels; the result in *result. */
static int run_kernels(exec_run *run, const ct_point *pt, gmem x, gmem buf0, gmem buf1, gmem *result)
{
    uint64_t p = exec_prime(run);
    long n = pt->n, l = pt->l;
    gmem from = x, to = buf0;
    for (int j = 0; j < pt->k - pt->r; j++) {            /* M'' */
        ct_args a = {from, to, n >> j, pt->m, 0};
        if (launch(run, "transpose", j, transpose_steps, 1, 0, n / l, pt->l, &a) < 0)
            return -1;
        from = to;
        to = to == buf0 ? buf1 : buf0;
    }
    ct_args d = {from, from, 0, pt->m, zp_pow(p, pt->omega, (uint64_t)(n / pt->m))};
    if (launch(run, "dft_m", -1, dft_m_steps, 3, (pt->m + 1) * l, n / (pt->m * l), pt->l, &d) < 0) /* M' */
        return -1;
    for (int j = 0; j < pt->k - pt->r; j++) {            /* M */
        long chunk = pt->m << (j + 1);
        ct_args a = {from, to, chunk, pt->m, zp_pow(p, pt->omega, (uint64_t)(n / chunk))};
        if (launch(run, "butterfly", j, butterfly_steps, 1, 0, n / l, pt->l, &a) < 0)
            return -1;
        gmem swap = from;
        from = to;
        to = swap;
    }
    *result = from;
    return 0;
}

static double param(const vars *params, const char *name, double fallback)
{
    const double *v = vars_get(params, name);
    return v ? *v : fallback;
}

/* The params, accepted exactly when the model-mode program accepts them
 * (its build() checks them), plus what exec mode needs. */
static int read_point(const vars *params, const machine *mach, uint64_t p, ct_point *pt)
{
    vars given = *params;
    double n = param(params, "n", 65536), m = param(params, "m", 16), l = param(params, "l", 128);
    vars_set(&given, "n", n);
    vars_set(&given, "m", m);
    vars_set(&given, "l", l);
    kernel_dag *model = builtin_find("cooley-tukey")->build(&given, mach);
    if (!model)
        return -1;
    kernel_dag_free(model);
    if (n > 0x1p26 || m > 64 || l > 0x1p20)
        return fail("program 'cooley-tukey' (exec mode): needs n <= 2^26 (p − 1 = 7·2^26), m <= 64 "
                    "and ℓ <= 2^20 (n = %g, m = %g, ℓ = %g)", n, m, l);
    *pt = (ct_point){.n = (long)n, .m = (long)m, .l = (int)l, .k = log2_of((long)n), .r = log2_of((long)m),
                     .omega = fft_root_of_unity(p, (long)n)};
    return 0;
}

static int host(const vars *params, const machine *m, exec_run *run)
{
    ct_point pt;
    uint64_t p = exec_prime(run);
    if (read_point(params, m, p, &pt) < 0)
        return -1;
    gmem x = exec_alloc(run, "x", pt.n), buf0 = exec_alloc(run, "buf0", pt.n);
    gmem buf1 = exec_alloc(run, "buf1", pt.n), y;
    rng r;
    rng_seed(&r, m->seed);
    for (long i = 0; i < pt.n; i++)
        x->cells[i] = 1 + rng_below(&r, p - 1);
    if (run_kernels(run, &pt, x, buf0, buf1, &y) < 0)
        return -1;
    word *want = malloc(sizeof *want * (size_t)pt.n);
    fft_reference(p, pt.omega, x->cells, want, pt.n);
    long at = fft_first_difference(y->cells, want, pt.n);
    int rc = 0;
    if (at >= 0)
        rc = fail("program 'cooley-tukey' (exec mode): result differs from the serial reference: "
                  "DFT[%ld] = %llu, expected %llu (n = %ld, m = %ld, ℓ = %d) at index %ld", at,
                  (unsigned long long)y->cells[at], (unsigned long long)want[at], pt.n, pt.m, pt.l, at);
    free(want);
    return rc;
}

const exec_program exec_cooley_tukey = {"cooley-tukey", host};
