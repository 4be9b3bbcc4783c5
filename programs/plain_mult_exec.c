/*
 * plain_mult_exec.c — plain (long) multiplication over Z/pZ in exec mode:
 * the kernels of programs/plain_mult.c run for real (sim/exec.h).
 *
 * Source: MCM paper §5.1 (mcm-paper-2015.txt, lines 375–497, Algorithms
 * 2–4: PlainMultiplicationGPU, MulKer, AddKer), thesis §4.5.1 and its
 * Appendix B worksheet "Plain Polynomial Multiplication Algorithm" (lines
 * 5483–5723); the model-mode program programs/plain_mult.c.
 *
 * a has n coefficients, b has m (n >= m >= s); x = ⌈m/s⌉ rows, y = n + s − 1
 * columns, C = ⌈y/s⌉ threads per row, as in programs/plain_mult.c.
 *
 * MulKer: one launch of ⌈xC/ℓ⌉ blocks (the model's 1-D grid: a block may
 *   straddle rows).  Thread j (row r = j / C, chunk c = j mod C) computes
 *   the s entries M[r][cs + e] = Σ_{k<s} a[cs + e − k]·b[rs + k], e < s:
 *   s² products and s(s − 1) additions (the worksheet's s(2s − 1)).  The
 *   block loads, as Algorithm 3 does, the s − 1 coefficients of a before
 *   its first chunk (the halo; zero at the start of a row) and its sℓ chunk
 *   coefficients, slot kℓ + t by thread t (coalesced), and the s
 *   coefficients of b of each row it touches; each thread reads from private
 *   memory the 2s − 1 coefficients of a and the s of b its entries need,
 *   keeps its s partial sums in private memory (the sℓ words the paper's Z
 *   constraint reserves for them) and the block writes them out slot kℓ + t
 *   by thread t, coalesced.  a and b are stored padded with zeros to Cs and
 *   xs words, so that every block reads its sℓ + s − 1 words of a, as the
 *   model charges.
 * AddKer: ⌈log2 x⌉ launches; launch i adds the rows pairwise, pairs = ⌊rows/2⌋
 *   with rows = ⌈x/2^i⌉, pairs·C threads (the model's grid).  The pair (k,
 *   k + 2^i), k a multiple of 2^(i+1): entry h of the upper row (degree
 *   (k + 2^i)s + h) is added into the lower row k at column 2^i s + h when
 *   that is below y, and otherwise straight into the product f (the top
 *   2^i s entries stick out of the lower row; they are peeled off into f,
 *   as Algorithm 4 peels the low ones).  Row 0 is stored in f itself, so
 *   that f is the product after the last launch.  Each thread does s
 *   additions, reading s words of the upper row and s of the target and
 *   writing s; thread t takes slots t, t + ℓ, …, t + (s − 1)ℓ of the
 *   block's sℓ entries, so every round is coalesced.  Within a launch the
 *   cells written are disjoint and none is read by another block.
 *
 * Measured against declared (tests/test_exec_plain_mult.c asserts each):
 *  - kernels, grids, threads: equal (one MulKer, ⌈log2 x⌉ AddKer).
 *  - α, β: equal: MulKer s + 2 and s (s words of a, a halo word for the
 *    threads t < s − 1, the row's b word for t < s), AddKer 2s and s.  But
 *    MulKer has α = 2 at s = 1 (no halo: s − 1 = 0 words; the worksheet's
 *    U(s + 1 + 1 + s) charges one), and α = s + 1 + ⌈Rs/ℓ⌉ where the R
 *    rows a block touches hold more than ℓ words of b (s = ℓ = 16, n = 255:
 *    R = 2, α = 19).
 *  - AddKer, with the worksheet's unit costs (exec_set_costs(run, 1, 1);
 *    5s with the default 5 per addition): S(B) = s and W(B) = sℓ, equal,
 *    and no private memory.  The model spreads the launch's work evenly
 *    over its blocks (work = threads·span/blocks); measured, the last block
 *    holds only its busy entries, spread over its threads (its S may be
 *    below s).  The launch totals are equal, and a chain of the exec AddKer
 *    launches simulates to the model's T where all blocks are full.
 *  - MulKer arithmetic: s(2s − 1) per thread, equal (the launch's W too);
 *    but a thread also makes α + 5s − 1 private-memory accesses (its α
 *    loads, 3s − 1 reads of a and b, s partial sums written and read back),
 *    each a local operation in the MCM (SPEC §1) that the worksheet leaves
 *    out: S(B) = 2s² + 5s + 1 with unit arithmetic when α = s + 2.  Threads
 *    at the start of a row skip the s − 1 halo reads (zeros).
 *  - private memory: (s − 1) + sℓ + Rs + sℓ words, R the most rows a block
 *    touches (⌈(ℓ − 1)/C⌉ + 1, at most x): the model's 2sℓ + 2s − 1 has
 *    R = 1 (a block in one row, the paper's 2-D reading); the host refuses
 *    the model's constraint 2sℓ + 2s − 1 > Z, the exec layer the rest.
 *  - O(B), measured by the UMM rule: chunk, partial-sum and AddKer rounds
 *    are warps of consecutive cells, one address group when aligned, two
 *    when not, more where a block straddles rows; the halo and b rounds
 *    fill only s − 1 and s lanes.  At an aligned point (s = ℓ = w = 32,
 *    n = 2017: rows of 2048 words, two blocks per row) a MulKer block costs
 *    the paper's (2s + 2)U, (2s + 1)U at the start of a row (no halo to
 *    read), and an AddKer block the paper's 3sU.
 *  - Algorithm 4 literally gives thread j the s consecutive entries
 *    sj … sj + s − 1: a warp's round then touches s address groups (s | 32)
 *    and AddKer's measured overhead is s times the paper's 3sU (the test
 *    runs that variant).  Here thread t takes the entries t, t + ℓ, …
 *
 * Params (as programs/plain_mult.c): n, m (0: m = n), s (4), l (256).
 */
#include "exec_programs.h"
#include "fail.h"
#include "rng.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct mult_params {
    long n, m, s, l;
    long x, y, C; /* rows, columns, threads per row */
} mult_params;

static int read_params(const vars *params, const machine *mach, mult_params *p)
{
    const double *n = vars_get(params, "n"), *m = vars_get(params, "m");
    const double *s = vars_get(params, "s"), *l = vars_get(params, "l");
    double vn = n ? *n : 1024, vm = m ? *m : 0, vs = s ? *s : 4, vl = l ? *l : 256;
    if (vm == 0)
        vm = vn;
    if (vn != floor(vn) || vm != floor(vm) || vs != floor(vs) || vl != floor(vl) || vs < 1 || vl < 1 ||
        vm < vs || vn < vm || vn > 1e9)
        return fail("program 'plain-mult': needs whole n >= m >= s >= 1 and l >= 1 "
                    "(got n = %g, m = %g, s = %g, l = %g)", vn, vm, vs, vl);
    if (2 * vs * vl + 2 * vs - 1 > mach->z)
        return fail("program 'plain-mult': constraint 2sℓ + 2s − 1 <= Z does not hold "
                    "(s = %g, ℓ = %g: %g > Z = %g)", vs, vl, 2 * vs * vl + 2 * vs - 1, mach->z);
    p->n = (long)vn;
    p->m = (long)vm;
    p->s = (long)vs;
    p->l = (long)vl;
    p->x = (p->m + p->s - 1) / p->s;
    p->y = p->n + p->s - 1;
    p->C = (p->y + p->s - 1) / p->s;
    return 0;
}

/* ---- where the rows live ------------------------------------------------------ */

typedef struct rows {
    gmem f, M;   /* row 0 is f itself; row r >= 1 is M[(r − 1)·Cs ...] */
    long stride; /* Cs */
} rows;

/* The cell of row r, column col. */
static gmem row_array(const rows *w, long r) { return r == 0 ? w->f : w->M; }
static long row_index(const rows *w, long r, long col) { return r == 0 ? col : (r - 1) * w->stride + col; }

/* ---- MulKer (Algorithm 3) ------------------------------------------------------ */

typedef struct mul_args {
    gmem a, b;     /* padded with zeros to Cs and xs words */
    rows out;
    long s, l, C, busy; /* busy = xC threads have entries */
    long x;
} mul_args;

static long mul_thread(const exec_thread *t, long u) { return t->bid * t->threads + u; }

/* Private memory: halo A[0 .. s−1), chunks A[s − 1 + us + e], then the
 * b words of the block's rows, then the partial sums P[us + e]. */
static long a_slot(const mul_args *c, long q) { (void)c; return q; }
static long b_slot(const mul_args *c, long q) { return c->s - 1 + c->s * c->l + q; }
static long rows_touched(const mul_args *c)
{
    long r = (c->l - 1 + c->C - 1) / c->C + 1;
    return r < c->x ? r : c->x;
}
static long p_slot(const mul_args *c, long q) { return c->s - 1 + c->s * c->l + rows_touched(c) * c->s + q; }
static long mul_private_words(const mul_args *c) { return p_slot(c, c->s * c->l); }

static long first_row(const exec_thread *t, const mul_args *c) { return mul_thread(t, 0) / c->C; }

/* The s − 1 coefficients of a before the block's first chunk (zero at the
 * start of a row). */
static void load_halo(exec_thread *t, void *args)
{
    mul_args *c = args;
    long c0 = mul_thread(t, 0) % c->C;
    for (long i = t->tid; i < c->s - 1; i += c->l)
        exec_pwrite(t, a_slot(c, i), c0 > 0 ? exec_gread(t, c->a, c0 * c->s - (c->s - 1) + i) : 0);
}

/* Slot p = kℓ + t: coefficient e = p mod s of thread u = p / s's chunk. */
static void load_chunks(exec_thread *t, void *args)
{
    mul_args *c = args;
    for (long p = t->tid; p < c->s * c->l; p += c->l) {
        long j = mul_thread(t, p / c->s);
        word v = j < c->busy ? exec_gread(t, c->a, (j % c->C) * c->s + p % c->s) : 0;
        exec_pwrite(t, a_slot(c, c->s - 1 + p), v);
    }
}

/* The s coefficients of b of every row the block touches. */
static void load_b(exec_thread *t, void *args)
{
    mul_args *c = args;
    long r0 = first_row(t, c), last = mul_thread(t, t->threads - 1);
    if (last >= c->busy)
        last = c->busy - 1;
    long words = (last / c->C - r0 + 1) * c->s;
    for (long p = t->tid; p < words; p += c->l)
        exec_pwrite(t, b_slot(c, p), exec_gread(t, c->b, r0 * c->s + p));
}

/* Thread j's s entries: s² products and s(s − 1) additions. */
static void multiply(exec_thread *t, void *args)
{
    mul_args *c = args;
    long j = mul_thread(t, t->tid), s = c->s, i = t->tid;
    if (j >= c->busy)
        return;
    word registers[3 * s]; /* the thread's window of a and its b */
    word *window = registers, *bk = registers + 2 * s;
    long row = j / c->C - first_row(t, c);
    for (long k = 0; k < s; k++)
        bk[k] = exec_pread(t, b_slot(c, row * s + k));
    for (long q = 0; q < 2 * s - 1; q++) /* a[cs − (s − 1) + q]; zero before the row */
        window[q] = q >= s - 1 || j % c->C > 0 ? exec_pread(t, a_slot(c, i * s + q)) : 0;
    for (long e = 0; e < s; e++) {
        word h = exec_zp_mul(t, window[s - 1 + e], bk[0]);
        for (long k = 1; k < s; k++)
            h = exec_zp_add(t, h, exec_zp_mul(t, window[s - 1 + e - k], bk[k]));
        exec_pwrite(t, p_slot(c, i * s + e), h);
    }
}

/* Slot p = kℓ + t: entry e = p mod s of thread u = p / s, coalesced. */
static void write_partial_sums(exec_thread *t, void *args)
{
    mul_args *c = args;
    for (long p = t->tid; p < c->s * c->l; p += c->l) {
        long j = mul_thread(t, p / c->s);
        if (j >= c->busy)
            break;
        long r = j / c->C, col = (j % c->C) * c->s + p % c->s;
        exec_gwrite(t, row_array(&c->out, r), row_index(&c->out, r, col), exec_pread(t, p_slot(c, p)));
    }
}

static const exec_step mul_steps[] = {load_halo, load_chunks, load_b, multiply, write_partial_sums};

/* ---- AddKer (Algorithm 4) ------------------------------------------------------- */

typedef struct add_args {
    rows out;
    long s, l, C, y, busy; /* busy = pairs·C threads */
    long half;             /* 2^i: the pair (k, k + 2^i), k = q·2^(i+1) */
} add_args;

/* Slot p = kℓ + t: entry e = p mod s of thread u = p / s; the entry h of
 * the upper row goes into the lower row, or into f where it sticks out. */
static void add_rows(exec_thread *t, void *args)
{
    add_args *c = args;
    for (long p = t->tid; p < c->s * c->l; p += c->l) {
        long j = t->bid * t->threads + p / c->s;
        if (j >= c->busy)
            break;
        long lower = j / c->C * 2 * c->half, upper = lower + c->half;
        long h = (j % c->C) * c->s + p % c->s, col = c->half * c->s + h;
        word v = exec_gread(t, row_array(&c->out, upper), row_index(&c->out, upper, h));
        gmem into = col < c->y ? row_array(&c->out, lower) : c->out.f;
        long at = col < c->y ? row_index(&c->out, lower, col) : upper * c->s + h;
        exec_gwrite(t, into, at, exec_zp_add(t, exec_gread(t, into, at), v));
    }
}

static const exec_step add_steps[] = {add_rows};

/* ---- host -------------------------------------------------------------------------- */

static int launch_kernels(const mult_params *p, exec_run *run, gmem a, gmem b, const rows *out)
{
    mul_args mc = {a, b, *out, p->s, p->l, p->C, p->x * p->C, p->x};
    exec_kernel mul = {"MulKer", 5, mul_steps, mul_private_words(&mc)};
    int rc = exec_launch(run, &mul, (mc.busy + p->l - 1) / p->l, (int)p->l, &mc);
    if (rc < 0)
        return -1;
    long rows_left = p->x;
    for (long round = 0, half = 1; rows_left > 1; round++, half *= 2) {
        long pairs = rows_left / 2;
        add_args ac = {*out, p->s, p->l, p->C, p->y, pairs * p->C, half};
        char name[32];
        snprintf(name, sizeof name, "AddKer[%ld]", round);
        exec_kernel add = {name, 1, add_steps, 0};
        if (exec_launch(run, &add, (ac.busy + p->l - 1) / p->l, (int)p->l, &ac) < 0)
            return -1;
        rows_left -= pairs;
    }
    return 0;
}

static int check_product(const mult_params *p, const word *a, const word *b, gmem f, uint64_t prime)
{
    word *ref = calloc((size_t)f->size, sizeof *ref);
    for (long i = 0; i < p->n; i++)
        for (long j = 0; j < p->m; j++)
            ref[i + j] = zp_add(prime, ref[i + j], zp_mul(prime, a[i], b[j]));
    int rc = 0;
    for (long i = 0; i < f->size && rc == 0; i++)
        if (f->cells[i] != ref[i])
            rc = fail("program 'plain-mult' (exec mode): result differs from the serial reference "
                      "(schoolbook product): f at index %ld is %llu, expected %llu", i,
                      (unsigned long long)f->cells[i], (unsigned long long)ref[i]);
    free(ref);
    return rc;
}

static int host(const vars *params, const machine *mach, exec_run *run)
{
    mult_params p = {0, 0, 0, 0, 0, 0, 0};
    if (read_params(params, mach, &p) < 0)
        return -1;
    uint64_t prime = exec_prime(run);
    gmem a = exec_alloc(run, "a", p.C * p.s), b = exec_alloc(run, "b", p.x * p.s);
    rows out = {exec_alloc(run, "f", (p.x - 1) * p.s + p.C * p.s),
                exec_alloc(run, "M", p.x > 1 ? (p.x - 1) * p.C * p.s : 1), p.C * p.s};
    rng g;
    rng_seed(&g, mach->seed);
    for (long i = 0; i < p.n; i++)
        a->cells[i] = 1 + rng_below(&g, prime - 1);
    for (long i = 0; i < p.m; i++)
        b->cells[i] = 1 + rng_below(&g, prime - 1);
    word *a0 = malloc(sizeof *a0 * (size_t)p.n), *b0 = malloc(sizeof *b0 * (size_t)p.m);
    for (long i = 0; i < p.n; i++)
        a0[i] = a->cells[i];
    for (long i = 0; i < p.m; i++)
        b0[i] = b->cells[i];
    int rc = launch_kernels(&p, run, a, b, &out);
    if (rc == 0)
        rc = check_product(&p, a0, b0, out.f, prime);
    free(a0);
    free(b0);
    return rc;
}

const exec_program exec_plain_mult = {"plain-mult", host};
