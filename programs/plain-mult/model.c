/*
 * model.c — plain (long) multiplication of two polynomials over Z/pZ with
 * program parameter s, as an MCM program: the model a student computes (its
 * kernels written once are kernels.c).
 *
 * Read beside:
 *   MCM paper (mcm-paper-2015.txt) §5.1, lines 375–497: Algorithms 2–4
 *     (PlainMultiplicationGPU, MulKer, AddKer), the closed forms and the
 *     ratio R;
 *   thesis (xie-thesis-2016.txt) §4.5.1, line 1759;
 *   thesis Appendix B, worksheet "Plain Polynomial Multiplication
 *     Algorithm", lines 5483–5723 (block counts 5521–5546, work 5548–5564,
 *     span 5566–5580, overhead 5582–5610, N, L, C, T 5612–5690, ratios
 *     5692–5723).
 *
 * a has n coefficients, b has m, n >= m; x = m/s rows, y = n + s − 1.
 *
 * Multiplication phase — one MulKer launch of (n+s−1)m/(s²ℓ) thread-blocks.
 *   Row r of the x·y array M holds a·(b[rs .. rs+s−1]); each thread computes
 *   s consecutive entries of a row, each a sum of s products:
 *     span        S(B) = s·(2s − 1)   (s² products, s(s − 1) additions)
 *     work        s(2s − 1) per thread that has entries to compute
 *     overhead    O(B) = U(2s + 2), coalesced: per thread s + 1 words of a
 *                 (the block's sℓ + s − 1), 1 of b (the block's s) and
 *                 s partial sums written (worksheet line 5588: U(s+1+1+s)).
 * Addition phase — log(m/s) AddKer launches; launch k (k = 0, 1, ...) adds
 *   the rows pairwise with (n+s−1)m/(2^(k+1)ℓs²) thread-blocks:
 *     span        S(B) = s            (s additions per thread)
 *     work        s per thread that has entries to add
 *     overhead    O(B) = 3Us, coalesced (s words of each row read, s written)
 *   Launch k+1 waits for launch k: the DAG is a chain of 1 + log(m/s)
 *   kernels.
 *
 * Grids.  Algorithm 2 launches MulKer on x·y/(sℓ) blocks, a 1-D grid of
 * x·y/s threads, (n+s−1)/s threads per row.  That is not a whole number
 * when s >= 2 and n is a power of two, so here a row has ⌈(n+s−1)/s⌉
 * threads (its last thread has fewer than s entries) and a kernel of t
 * threads has ⌈t/ℓ⌉ blocks; the work counts only threads that have
 * entries.  cuda_ref/plain-mult.cu uses a 2-D grid instead, x·⌈y/(sℓ)⌉
 * blocks (a block never straddles two rows): the same for s = 1, but more
 * blocks for s >= 2 at small n (at n = m = 2^10, s = 16: 64 blocks there,
 * 17 here).  The papers' formulas count the 1-D grid; so does this file,
 * unless param grid = 2 asks for the CUDA grid (the work of a row spread
 * over its blocks), which `make validate` does (cuda_params).
 *
 * Z constraint — ENFORCED: 2sℓ + 2s − 1 <= Z (paper §5.1, line 382; thesis
 * §4.5.1; the worksheet's last line 5723 says "2ls + 2s must fit").  A
 * MulKer block holds its sℓ + s − 1 words of a, s of b and its sℓ partial
 * sums; an AddKer block holds 2sℓ words.  The worksheet's comment at line
 * 5586 (and SPEC §2, issue 3) has s + ℓs + s − 1 <= Z, the inputs only;
 * that weaker form would let s = 32 through at ℓ = 256, Z = 12288, where an
 * AddKer block's 2sℓ = 16384 words do not fit.  On the papers' grid
 * (ℓ = 256, s <= 16, Z = 12288) both forms hold.
 *
 * Closed forms (paper §5.1, line 393; worksheet (1.5), (2.3), (3.5),
 * (4.3.1)–(4.3.4)):
 *   W = (2m − ½)(n + s − 1)        S = 2s² + s log(m/s) − s
 *   O = (n+s−1)(5ms + 2m − 3s²)U/(s²ℓ)
 *   N = (n+s−1)(2m − s)/(s²ℓ)      L = log(m/s) + 1
 *   C = s(2s − 1) + 2U(s + 1)      (MulKer's S(B) + O(B))
 *   T = ((2m − s)/m + log(m/s) + 1)(2Us + 2s² + 2U − s)
 *     = (N/K + L)·C with K = MulKer's (n+s−1)m/(s²ℓ) blocks (Corollary 1).
 * What the simulator counts differently, and why:
 *   - W: the worksheet's phase-2 work (line 5553) adds a term
 *     multiplication_length/2 = (n+s−1)/2 that no kernel performs (the
 *     AddKer blocks do (n+s−1)(m−s)/s additions in all).  The simulated W
 *     is, for m/s a power of two, ⌈(n+s−1)/s⌉·s·(2m − 1): for s = 1
 *     exactly W − n/2.
 *   - N, O: the grids rounded up (above); exact for s = 1.
 *   - C: the simulator takes the max over all blocks; AddKer's s + 3Us
 *     exceeds MulKer's s(2s−1) + 2U(s+1) only when 2s² − (U+2)s + 2U < 0,
 *     i.e. never for U = 8 (the presets), but e.g. for U = 20, s = 4.
 *
 * The paper's conclusion and what the model says.  R = T_1/T_s (line 493)
 * is claimed "asymptotically equivalent to 2 log m/(s log(m/s))", "greater
 * than 1 if and only if s = 1 or s = 2", so that "increasing s makes the
 * algorithm performance worse"; the GTX 670 measured s = 4 best (ℓ = 256,
 * Figure 6).  The exact R of line 493 is below 1 for every s >= 2, m >= 2s
 * and U > 0 (at s = 2 its m → ∞ limit is (1 + 4U)/(6U + 6) < 1; at U = 8,
 * m = 2^10 .. 2^15 it is 0.66 .. 0.65): the asymptotic form keeps only
 * the 2Us of C_s = 2Us + 2U + 2s² − s (and 4U of 1 + 4U).  So in the
 * model (Corollary 1, P = K) s = 1 is best and T grows with s, and the
 * simulator on P = K SMs agrees (n = m = 2^10, U = 8:
 * T = 283, 504, 908, 1664, 3168 for s = 1, 2, 4, 8, 16; every kernel then
 * runs in one round, T = C_MulKer + log(m/s)·C_AddKer, 0.46 to 0.82 of
 * the paper's T).
 * On the card's 7 SMs the picture turns over: T is then about (W + O)/P
 * for large n, W hardly depends on s and O shrinks like 1/s, so the
 * largest s that fits Z wins: s = 16 is best at every n = 2^10 .. 2^15 of
 * plain-mult.cfg (T(worst s)/T(s = 16) = 6.7 at 2^10, 12.7 at
 * 2^15; T(s = 4)/T(s = 16) = 2.7 at 2^12).  Neither regime gives the
 * measured s = 4: nothing in the model makes a large s costly on few SMs
 * (on a real card, 2sℓ + 2s − 1 words of shared memory per block cut the
 * number of resident blocks).
 *
 * Params: n, m (m = 0 means m = n, so that a sweep over n gives n = m),
 * s (default 4, the paper's measured best), l (ℓ, default 256), grid (1,
 * the default: the papers' 1-D grid; 2: cuda_ref's, above).
 * Needs whole n >= m >= s >= 1, ℓ >= 1; the papers take m, s powers of two
 * (any m, s work here: x = ⌈m/s⌉ rows, ⌈log x⌉ addition rounds, the odd
 * row of a round passing through).
 */
#include "cuda_counts.h"
#include "fail.h"
#include "program.h"

#include <math.h>
#include <stdio.h>

typedef struct plain_mult_params {
    double n, m, s, l;
    double grid; /* 1: the papers' 1-D grid; 2: cuda_ref's rows × ⌈y/(sℓ)⌉ */
} plain_mult_params;

static int read_params(const vars *params, plain_mult_params *p)
{
    const double *n = vars_get(params, "n"), *m = vars_get(params, "m");
    const double *s = vars_get(params, "s"), *l = vars_get(params, "l"), *grid = vars_get(params, "grid");
    p->grid = grid ? *grid : 1;
    if (p->grid != 1 && p->grid != 2)
        return fail("program 'plain-mult': grid must be 1 (the papers' 1-D grid) or 2 (cuda_ref's grid, "
                    "a block never across two rows), got %g", p->grid);
    p->n = n ? *n : 1024;
    p->m = m ? *m : 0;
    p->s = s ? *s : 4;
    p->l = l ? *l : 256;
    if (p->m == 0)
        p->m = p->n;
    if (p->n != floor(p->n) || p->m != floor(p->m) || p->s != floor(p->s) ||
        p->l != floor(p->l) || p->s < 1 || p->l < 1 || p->m < p->s || p->n < p->m)
        return fail("program 'plain-mult': needs whole n >= m >= s >= 1 and l >= 1 "
                    "(got n = %g, m = %g, s = %g, l = %g)", p->n, p->m, p->s, p->l);
    return 0;
}

/* Private words of a MulKer block: sℓ + s − 1 of a, s of b, sℓ partial
 * sums (paper §5.1).  This is the constraint's left-hand side. */
static double mulker_private_words(const plain_mult_params *p)
{
    return 2 * p->s * p->l + 2 * p->s - 1;
}

static int check_z(const plain_mult_params *p, const machine *m)
{
    double need = mulker_private_words(p);
    if (need <= m->z)
        return 0;
    return fail("program 'plain-mult': constraint 2sℓ + 2s − 1 <= Z does not hold "
                "(s = %g, ℓ = %g: %g > Z = %g)", p->s, p->l, need, m->z);
}

/* A coalesced kernel over `rows` rows of M, each of ⌈y/s⌉ threads: the
 * grid rounded up (1-D, or ⌈y/(sℓ)⌉ blocks a row with grid = 2), the work
 * of the threads that have entries spread over the blocks. */
static kernel thread_block_grid(const char *name, const plain_mult_params *p, double rows,
                                double span, double reads, double writes, double private_words)
{
    double threads = rows * ceil((p->n + p->s - 1) / p->s);
    long blocks = p->grid == 2 ? (long)(rows * ceil((p->n + p->s - 1) / (p->s * p->l)))
                               : (long)ceil(threads / p->l);
    kernel k = {
        .name = (char *)name,
        .blocks = blocks,
        .threads = (int)p->l,
        .cost = {.span = span, .work = threads * span / (double)blocks,
                 .reads = reads, .writes = writes},
        .private_words = private_words,
    };
    return k;
}

/* Operation classes per thread (the card model; programs/cuda_counts.h),
 * and the block's bank conflicts as if all its threads had entries (0
 * for none), both spread over the blocks as thread_block_grid spreads the
 * work. */
static void set_classes(kernel *k, const plain_mult_params *p, double rows, double plain,
                        double mulmod, double addmod, double private_ops, double barriers,
                        double conflicts)
{
    double threads = rows * ceil((p->n + p->s - 1) / p->s);
    double spread = threads / ((double)k->blocks * k->threads);
    cost_set_classes(&k->cost, k->threads, plain, mulmod, addmod, private_ops, barriers);
    for (int c = 0; c < OP_CLASSES; c++)
        k->cost.work_ops[c] *= spread;
    k->cost.bank_conflicts = conflicts * spread;
}

/* Algorithm 3: each thread reads s + 1 words of a and 1 of b, writes s.
 * Classes from cuda_ref/plain-mult.cu (mul_ker): s² multiply-adds, each a
 * zp_mul and a zp_add (the worksheet: 2s − 1 operations per entry, S/W kept),
 * s + 2 shared words loaded, 2s² shared reads and s writes in the products,
 * s read back for the store; a barrier after the loads and one after the
 * products; plain: 5 per loaded word, 3 per product and 1 per entry, 3
 * per stored word.
 * Bank conflicts (the DMM's rule, sim/model/kernel_dag.h): thread t's entries
 * u = ts + e lie s words from its neighbour's, so each of a warp's s²
 * reads of A and s writes of the products puts its w words gcd(s, w) to a
 * bank of the w: gcd(s, w) − 1 extra rounds each.  The loads of A, the
 * read-back and B (one word for the whole warp) take one round.  The card
 * agrees: ncu counts 12.40, 23.96 and 53.67 million shared-load rounds
 * (wavefronts) for MulKer at n = 8192, s = 4, 8, 16, where this rule gives
 * s²·gcd(s, w) + s² + s a warp: 12.39, 23.92 and 53.67 million
 * (validate/notes/profiles/plain-mult-n8192-ncu.txt). */
static kernel mul_ker(const plain_mult_params *p, double rows, int warp)
{
    double s = p->s;
    kernel k = thread_block_grid("MulKer", p, rows, s * (2 * s - 1), s + 2, s,
                                 mulker_private_words(p));
    double conflicts = ceil(p->l / warp) * (s * s + s) * (strided_ways(s, warp, warp) - 1);
    set_classes(&k, p, rows, 3 * s * s + 9 * s + 5, s * s, s * s, 2 * s * s + 2 * s + 2, 2, conflicts);
    return k;
}

/* Algorithm 4, launch k: `pairs` pairs of rows; each thread reads s words
 * of each row of its pair and writes s. */
static kernel add_ker(const char *name, const plain_mult_params *p, double pairs)
{
    double s = p->s;
    return thread_block_grid(name, p, pairs, s, 2 * s, s, 2 * s * p->l);
}

static kernel_dag *build(const vars *params, const machine *m)
{
    plain_mult_params p;
    if (read_params(params, &p) < 0 || check_z(&p, m) < 0)
        return NULL;
    kernel_dag *dag = kernel_dag_new("plain-mult");
    double rows = ceil(p.m / p.s); /* x */
    kernel k = mul_ker(&p, rows, m->warp > 0 ? m->warp : 32);
    int ok = kernel_dag_chain(dag, &k) >= 0;
    for (int round = 0; ok && rows > 1; round++) {
        char name[32];
        snprintf(name, sizeof name, "AddKer[%d]", round);
        double pairs = floor(rows / 2);
        k = add_ker(name, &p, pairs);
        /* classes from add_ker in cuda_ref/plain-mult.cu: a zp_add per
         * entry, two in the last round (it also folds the upper row in);
         * 8 plain per entry (indices, the three tests) */
        int last = rows - pairs <= 1;
        set_classes(&k, &p, pairs, 8 * p.s, 0, (last ? 2 : 1) * p.s, 0, 0, 0);
        /* its rows of M are n + s − 1 words long and it adds each row into
         * one 2^round·s words further on: a warp's 32 words (128 bytes)
         * start off the line unless both are multiples of 32 */
        k.unaligned = fmod(p.n + p.s - 1, 32) != 0 || fmod(ldexp(p.s, round), 32) != 0;
        ok = kernel_dag_chain(dag, &k) >= 0;
        rows -= pairs;
    }
    if (!ok) {
        kernel_dag_free(dag);
        return NULL;
    }
    return dag;
}

static int closed_form_of(const vars *params, const machine *mach, closed_form *out)
{
    plain_mult_params p;
    if (read_params(params, &p) < 0)
        return -1;
    double n = p.n, m = p.m, s = p.s, l = p.l, U = mach->u;
    double y = n + s - 1, rounds = log2(m / s);
    out->W = (2 * m - 0.5) * y;
    out->S = 2 * s * s + s * rounds - s;
    out->O = y * (5 * m * s + 2 * m - 3 * s * s) * U / (s * s * l);
    out->N = y * (2 * m - s) / (s * s * l);
    out->L = rounds + 1;
    out->C = s * (2 * s - 1) + 2 * U * (s + 1);
    out->T = ((2 * m - s) / m + rounds + 1) * (2 * U * s + 2 * s * s + 2 * U - s);
    return 0;
}

const builtin_program program_plain_mult = {
    .name = "plain-mult",
    .summary = "plain polynomial multiplication, parameter s: MulKer + log(m/s) AddKer "
               "(paper §5.1, thesis §4.5.1, App. B l.5483)",
    .defaults = "n=1024 m=0 s=4 l=256 grid=1",
    .cuda_params = "grid=2",
    .kernels = "programs/plain-mult/kernels.c",
    .build = build,
    .closed_form = closed_form_of,
};
