/*
 * euclid_exec.c — the Euclidean GCD over Z/pZ in exec mode: the kernel
 * calls of programs/euclid.c run for real (sim/exec.h), the host deciding
 * each next call from the degrees the previous one left.
 *
 * Source: Xie's thesis §4.3 (xie-thesis-2016.txt, line 1524; Algorithm 1
 * OptGcdKer at line 1536; the phases at line 1595; grids at line 1602; Z at
 * line 1606), Appendix B worksheet "Euclidean" (lines 4846–5035), the paper
 * §3 (mcm-paper-2015.txt); the model-mode program programs/euclid.c.
 *
 * The calls.  a has n coefficients, b has m (n >= m).  The host keeps the
 * degrees da, db (upper bounds: a leading coefficient may be zero) and,
 * until one polynomial is zero, launches one OptGcdKer call of ℓ threads
 * per block:
 *   ping-ping[c]  when da − db >= s (the model's rule): every step of the
 *                 call reduces a by b, which stays unchanged;
 *                 ⌈(db + 1)/ℓ⌉ blocks (thesis line 1602: ⌈m/ℓ⌉);
 *   ping-pong[c]  otherwise: each step reduces whichever has the larger
 *                 degree (a on a tie); min(⌈(da+1)/ℓ⌉, ⌈(db+1)/ℓ⌉) blocks
 *                 (line 1602).  This grid covers both polynomials as long
 *                 as |da − db| <= s; when b is ahead by more than s (never
 *                 on the model's sequence) the call is a ping-ping one with
 *                 the roles exchanged.
 * A call ends when deg a + deg b has fallen by s (a step lowers it by one;
 * a zero leading coefficient is skipped and counts in the s, as OptGcdKer's
 * "while Alc[u] = 0" loop does: the block holds only s leading
 * coefficients) or when one polynomial is zero.  On random inputs every
 * step lowers one degree by exactly one — the model's worst case (App. B
 * line 4857) — so the calls, their kinds and grids are those of
 * programs/euclid.c.  When degrees fall faster the host follows the data: a
 * common factor of degree g ends the algorithm after ⌈(n + m − 1 − g)/s⌉
 * calls instead of ⌈(n + m − 1)/s⌉; a run of zero coefficients changes
 * which polynomial is ahead, hence the kinds and grids of later calls.
 *
 * The kernel, per block (offsets count down from the degree a polynomial
 * had when the call began; block bid owns offsets lo … lo + ℓ − 1,
 * lo = s + bid·ℓ):
 *   load    the s leading coefficients of a and b (heads, offsets 0 … s−1)
 *           and windows of a and b around the owned offsets;
 *   choose  thread 0 skips zero leading coefficients (within the budget of
 *           s) and picks the step: which polynomial is reduced, or stop;
 *   update  every thread updates its head coefficient (if it is still
 *           live, as Algorithm 1's u + t < s tests) and its window entries
 *           of the reduced polynomial; s times choose + update, then a last
 *           choose settles the degrees;
 *   write   the owned coefficients; block 0 also the degrees (and, in
 *           ping-pong, the head offsets 0 … s − 1).
 * Ping-ping steps are the classical ones, a ← a − (lc a/lc b)·X^(da−db)·b:
 * b's leading coefficient does not change, so its inverse is computed once
 * per call, by the host (which reads it back as it reads the degrees).
 * Thread 0 computes the multiplication factor lc a·inv (1 multiplication
 * per step), each coefficient then costs a multiplication and a
 * subtraction; a is updated in place (a block reads only its own words of
 * a, the never-written head and b).  Ping-pong steps are fraction-free,
 * x ← lc y·x − lc x·X^(dx−dy)·y (3 operations per coefficient, the
 * worksheet's "multiplication factor, multiplication, subtraction", no
 * inverse); they scale every coefficient of x, which the ping-pong grid
 * covers.  The gcd is unchanged up to a unit; the host makes it monic.
 * Ping-pong reads one pair of arrays and writes the other (a window
 * overlaps the neighbouring blocks' owned words).
 *
 * Window size (why not the thesis' ℓ + s).  In a call, a coefficient at
 * offset i depends on offsets i − ra … i + rb of a and b, ra and rb the
 * drops of deg a and deg b when the call ends (the shifts between a and b
 * alternate in sign and ra + rb <= s − 1 at every step; cuda_ref/euclid.cu
 * states the same).  On the worst-case sequence the split of s between ra
 * and rb follows from da − db, and ℓ + s words placed accordingly would do;
 * on other inputs it is known only at the end of the call, and either drop
 * may reach s − 1.  So a ping-pong block loads the offsets
 * lo − s … lo + ℓ + s − 2 of both (ℓ + 2s − 1 words each: block 0's window
 * also holds the head offsets it writes back).  Entries whose partner falls
 * outside the window lie outside everything the block's results depend on:
 * they are updated with a zero partner, which keeps the counts regular.  A
 * ping-ping block needs b's offsets lo − s … lo + ℓ − 1 (ℓ + s words, the
 * first never used, as in programs/plain_division_exec.c) and its own ℓ
 * words of a.
 *
 * Measured against declared (tests/test_exec_euclid.c asserts each):
 *  - launches: equal on random inputs (calls, kinds, grids, threads); on
 *    other inputs, what the data ask for (above).  The last block of a
 *    call may own no coefficient: the model's ⌈(d + 1)/ℓ⌉ counts the head
 *    offsets, which block 0 writes, among the owned ones.
 *  - α, β (the model: 6 and 2, every call): ping-ping 5 (heads 2, owned 1,
 *    b's window 2, for s <= ℓ) and 2 (the owned word, and one degree by
 *    threads ℓ − 1 and ℓ − 2 of block 0); ping-pong 2 + 2⌈(ℓ + 2s − 1)/ℓ⌉
 *    (6 when 2s <= ℓ + 1, 8 when s = ℓ) and 4 (block 0's threads t < s
 *    write a head and an owned word of both; 5 when s > ℓ − 2).
 *  - private memory: ping-ping 3s + 2ℓ + 4 words, ping-pong 6s + 2ℓ + 1
 *    (heads, windows and the control words rx/ra, ry/rb, action, factor),
 *    against the model's 4s + 2ℓ: the host refuses the model's
 *    4s + 2ℓ > Z, the exec layer a kernel needing more than Z.
 *  - arithmetic, with the worksheet's unit costs (exec_set_costs(run, 1,
 *    1); by default 5 per addition, 11 per multiplication), per full block
 *    of a call of σ steps, r_k the drop of the reduced polynomial before
 *    step k:
 *      ping-ping  W = s + s(s + 1) + 2ℓs (the model: 3(s(s + 1)/2 + 2ℓs):
 *                 the worksheet charges 2ℓ coefficients per step, a block
 *                 updates ℓ, and 3 operations where the classical step
 *                 takes 2 and the factor is shared); S = max(4s, 3s + 2)
 *                 (thread s − 1 updates its head word s times and its
 *                 owned word s times; the model: 3s);
 *      ping-pong  W = 3·Σ_k (s − r_k + ℓ + 2s − 1) (block 0: less 3·Σ r_k,
 *                 its dead offsets), the model's 9s²/4 + 9s/2 + 6ℓs;
 *                 S = 9σ when 2s <= ℓ + 1 (a head word and two window
 *                 words per step), the model's 3s.
 *  - the span also counts every private-memory access (a local operation
 *    in the MCM, SPEC §1, which the worksheet leaves out) and thread 0's
 *    bookkeeping (reading heads to skip zeros, writing rx, ry, the action
 *    and the factor): a ping-ping block's span is thread 0's, 18s + 21
 *    with unit costs, 42s + 35 with the default ones.
 *  - O(B) by the UMM rule: windows start at arbitrary degrees, so a warp's
 *    32 consecutive words straddle two address groups unless the degree is
 *    31 mod 32, and the heads fill s of the ℓ threads.  Where the degrees
 *    stay 31 mod 32 (s = 64, ℓ = 128, 64 | n, m) a block inside the
 *    polynomials costs 4.5U (ping-ping) and 7U (ping-pong) against the
 *    model's 8U; blocks past a polynomial's end read less.
 *
 * Params (as programs/euclid.c): n, m (0: m = n), s, l.
 */
#include "euclid_exec.h"
#include "exec_programs.h"
#include "fail.h"
#include "rng.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { STOP = 0, REDUCE_A = 1, REDUCE_B = 2 };

#define LOAD_STEPS 4 /* every kernel loads in 4 steps, then chooses */

/* A coefficient by its offset below degree `deg` (0 outside the polynomial:
 * no read). */
static word coefficient(exec_thread *t, gmem p, long deg, long off)
{
    return off >= 0 && deg - off >= 0 ? exec_gread(t, p, deg - off) : 0;
}

/* ---- ping-ping: the divisor y fixed, the dividend x reduced in place ------ */

typedef struct ping_ping_args {
    gmem x, y, degrees;
    long dx, dy, s, l;
    int x_slot;   /* degrees[x_slot] receives x's size, the other y's */
    word inv;     /* 1 / y's coefficient of degree dy (0 if that one is 0) */
} ping_ping_args;

/* Private memory: Hx[s], Hy[s], Wx[ℓ], Wy[ℓ + s], then rx, ry, action, factor. */
enum { RX, RY, PP_ACTION, FACTOR, PP_CONTROL };
static long hx(const ping_ping_args *c, long i) { (void)c; return i; }
static long hy(const ping_ping_args *c, long i) { return c->s + i; }
static long wx(const ping_ping_args *c, long t) { return 2 * c->s + t; }
static long wy(const ping_ping_args *c, long j) { return 2 * c->s + c->l + j; }
static long pp_control(const ping_ping_args *c, int k) { return 3 * c->s + 2 * c->l + k; }
static long pp_private_words(long s, long l) { return 3 * s + 2 * l + PP_CONTROL; }

static long owned(const exec_thread *t, long s) { return s + t->bid * t->threads + t->tid; }

static void pp_load_head_x(exec_thread *t, void *args)
{
    ping_ping_args *c = args;
    for (long i = t->tid; i < c->s; i += c->l)
        exec_pwrite(t, hx(c, i), coefficient(t, c->x, c->dx, i));
}

static void pp_load_head_y(exec_thread *t, void *args)
{
    ping_ping_args *c = args;
    for (long i = t->tid; i < c->s; i += c->l)
        exec_pwrite(t, hy(c, i), coefficient(t, c->y, c->dy, i));
    if (t->tid == 0)
        for (int k = 0; k < PP_CONTROL; k++)
            exec_pwrite(t, pp_control(c, k), 0);
}

static void pp_load_own(exec_thread *t, void *args)
{
    ping_ping_args *c = args;
    exec_pwrite(t, wx(c, t->tid), coefficient(t, c->x, c->dx, owned(t, c->s)));
}

/* Wy[j] = y at offset lo − s + j: x's offset i pairs with y's i − rx. */
static void pp_load_divisor_window(exec_thread *t, void *args)
{
    ping_ping_args *c = args;
    long base = owned(t, c->s) - t->tid - c->s;
    for (long j = t->tid; j < c->l + c->s; j += c->l)
        exec_pwrite(t, wy(c, j), coefficient(t, c->y, c->dy, base + j));
}

/* Thread 0: skip zero leading coefficients of x (within the budget s);
 * stop when the budget is spent.  A zero leading coefficient of the
 * divisor (its degree was only a bound) is skipped too, and ends the call
 * at once: the host computes the inverse of the next one. */
static void pp_choose(exec_thread *t, void *args)
{
    ping_ping_args *c = args;
    if (t->tid != 0)
        return;
    long rx = (long)exec_pread(t, pp_control(c, RX)), ry = (long)exec_pread(t, pp_control(c, RY));
    if (t->step == LOAD_STEPS) /* the first choose */
        while (rx + ry < c->s && ry <= c->dy && exec_pread(t, hy(c, ry)) == 0)
            ry++;
    while (ry == 0 && rx < c->s && exec_pread(t, hx(c, rx)) == 0)
        rx++;
    word action = STOP;
    if (ry == 0 && rx < c->s) {
        action = REDUCE_A;
        exec_pwrite(t, pp_control(c, FACTOR), exec_zp_mul(t, exec_pread(t, hx(c, rx)), c->inv));
    }
    exec_pwrite(t, pp_control(c, RX), (word)rx);
    exec_pwrite(t, pp_control(c, RY), (word)ry);
    exec_pwrite(t, pp_control(c, PP_ACTION), action);
}

/* x ← x − factor·X^(dx − dy − rx)·y on the head and on the owned word. */
static void pp_update(exec_thread *t, void *args)
{
    ping_ping_args *c = args;
    if (exec_pread(t, pp_control(c, PP_ACTION)) == STOP)
        return;
    long rx = (long)exec_pread(t, pp_control(c, RX));
    word factor = exec_pread(t, pp_control(c, FACTOR));
    for (long i = t->tid; i < c->s; i += c->l)
        if (i >= rx) {
            word xi = exec_pread(t, hx(c, i)), yi = exec_pread(t, hy(c, i - rx));
            exec_pwrite(t, hx(c, i), exec_zp_sub(t, xi, exec_zp_mul(t, factor, yi)));
        }
    if (owned(t, c->s) <= c->dx) {
        word xi = exec_pread(t, wx(c, t->tid)), yi = exec_pread(t, wy(c, t->tid + c->s - rx));
        exec_pwrite(t, wx(c, t->tid), exec_zp_sub(t, xi, exec_zp_mul(t, factor, yi)));
    }
}

static void pp_write_own(exec_thread *t, void *args)
{
    ping_ping_args *c = args;
    long i = owned(t, c->s);
    if (i <= c->dx)
        exec_gwrite(t, c->x, c->dx - i, exec_pread(t, wx(c, t->tid)));
}

/* Block 0: the sizes (degree + 1) of x and y after the call, by the last
 * two threads (each writes one word more than its owned one). */
static void pp_write_degrees(exec_thread *t, void *args)
{
    ping_ping_args *c = args;
    int x_writer = t->threads - 1, y_writer = t->threads >= 2 ? t->threads - 2 : 0;
    if (t->bid != 0)
        return;
    if (t->tid == x_writer)
        exec_gwrite(t, c->degrees, c->x_slot, (word)(c->dx + 1 - (long)exec_pread(t, pp_control(c, RX))));
    if (t->tid == y_writer)
        exec_gwrite(t, c->degrees, 1 - c->x_slot, (word)(c->dy + 1 - (long)exec_pread(t, pp_control(c, RY))));
}

/* ---- ping-pong: either polynomial reduced, fraction-free ------------------------ */

typedef struct ping_pong_args {
    gmem a, b, a_out, b_out, degrees;
    long da, db, s, l;
} ping_pong_args;

/* Private memory: Ha[s], Hb[s], Wa[ℓ + 2s − 1], Wb[ℓ + 2s − 1], ra, rb, action. */
enum { RA, RB, ACTION, CONTROL };
static long window_words(long s, long l) { return l + 2 * s - 1; }
static long ha(const ping_pong_args *c, long i) { (void)c; return i; }
static long hb(const ping_pong_args *c, long i) { return c->s + i; }
static long wa(const ping_pong_args *c, long w) { return 2 * c->s + w; }
static long wb(const ping_pong_args *c, long w) { return 2 * c->s + window_words(c->s, c->l) + w; }
static long control(const ping_pong_args *c, int k) { return 2 * c->s + 2 * window_words(c->s, c->l) + k; }
static long pg_private_words(long s, long l) { return 2 * s + 2 * window_words(s, l) + CONTROL; }

/* Offset of window entry w: lo − s + w = bid·ℓ + w. */
static long window_offset(const exec_thread *t, long w) { return t->bid * t->threads + w; }

static void load_heads(exec_thread *t, gmem p, long deg, long s, long l, long first)
{
    for (long i = t->tid; i < s; i += l)
        exec_pwrite(t, first + i, coefficient(t, p, deg, i));
}

static void load_window(exec_thread *t, gmem p, long deg, long s, long l, long first)
{
    for (long w = t->tid; w < window_words(s, l); w += l)
        exec_pwrite(t, first + w, coefficient(t, p, deg, window_offset(t, w)));
}

static void pg_load_head_a(exec_thread *t, void *args)
{
    ping_pong_args *c = args;
    load_heads(t, c->a, c->da, c->s, c->l, ha(c, 0));
}

static void pg_load_head_b(exec_thread *t, void *args)
{
    ping_pong_args *c = args;
    load_heads(t, c->b, c->db, c->s, c->l, hb(c, 0));
    if (t->tid == 0)
        for (int k = 0; k < CONTROL; k++)
            exec_pwrite(t, control(c, k), 0);
}

static void pg_load_window_a(exec_thread *t, void *args)
{
    ping_pong_args *c = args;
    load_window(t, c->a, c->da, c->s, c->l, wa(c, 0));
}

static void pg_load_window_b(exec_thread *t, void *args)
{
    ping_pong_args *c = args;
    load_window(t, c->b, c->db, c->s, c->l, wb(c, 0));
}

/* Thread 0 (OptGcdKer lines 13–14 and 21–22): skip zero leading
 * coefficients within the budget, then reduce the polynomial of larger
 * degree (a on a tie), or stop: budget spent, or a polynomial is zero. */
static void pg_choose(exec_thread *t, void *args)
{
    ping_pong_args *c = args;
    if (t->tid != 0)
        return;
    long ra = (long)exec_pread(t, control(c, RA)), rb = (long)exec_pread(t, control(c, RB));
    while (ra + rb < c->s && ra <= c->da && exec_pread(t, ha(c, ra)) == 0)
        ra++;
    while (ra + rb < c->s && rb <= c->db && exec_pread(t, hb(c, rb)) == 0)
        rb++;
    word action = STOP;
    if (ra + rb < c->s && ra <= c->da && rb <= c->db)
        action = c->da - ra >= c->db - rb ? REDUCE_A : REDUCE_B;
    exec_pwrite(t, control(c, RA), (word)ra);
    exec_pwrite(t, control(c, RB), (word)rb);
    exec_pwrite(t, control(c, ACTION), action);
}

/* The reduced polynomial x (heads at hx, window at wx) and the divisor y:
 * x_i ← lc y·x_i − lc x·y_(i + shift) for every live offset i >= rx.  A
 * partner outside the block's private memory counts as 0 (no read): such
 * an entry lies outside what the block's results depend on (see the top of
 * the file), and updating it anyway keeps every thread's count regular. */
typedef struct reduction {
    long hx, hy, wx, wy, rx, shift;
    word lcx, lcy;
} reduction;

static void reduce_entry(exec_thread *t, const reduction *r, long x_at, long y_at, int y_in_range)
{
    word xi = exec_pread(t, x_at), yj = y_in_range ? exec_pread(t, y_at) : 0;
    word v = exec_zp_sub(t, exec_zp_mul(t, r->lcy, xi), exec_zp_mul(t, r->lcx, yj));
    exec_pwrite(t, x_at, v);
}

static void reduce(exec_thread *t, const ping_pong_args *c, const reduction *r)
{
    for (long i = t->tid; i < c->s; i += c->l)
        if (i >= r->rx)
            reduce_entry(t, r, r->hx + i, r->hy + i + r->shift, i + r->shift >= 0 && i + r->shift < c->s);
    long words = window_words(c->s, c->l);
    for (long w = t->tid; w < words; w += c->l)
        if (window_offset(t, w) >= r->rx)
            reduce_entry(t, r, r->wx + w, r->wy + w + r->shift, w + r->shift >= 0 && w + r->shift < words);
}

static void pg_update(exec_thread *t, void *args)
{
    ping_pong_args *c = args;
    word action = exec_pread(t, control(c, ACTION));
    if (action == STOP)
        return;
    long ra = (long)exec_pread(t, control(c, RA)), rb = (long)exec_pread(t, control(c, RB));
    word lca = exec_pread(t, ha(c, ra)), lcb = exec_pread(t, hb(c, rb));
    if (action == REDUCE_A)
        reduce(t, c, &(reduction){ha(c, 0), hb(c, 0), wa(c, 0), wb(c, 0), ra, rb - ra, lca, lcb});
    else
        reduce(t, c, &(reduction){hb(c, 0), ha(c, 0), wb(c, 0), wa(c, 0), rb, ra - rb, lcb, lca});
}

/* The owned offsets, and in block 0 the head offsets 0 … s − 1 too (its
 * window entries 0 … s − 1), to the other pair of arrays. */
static void write_window(exec_thread *t, gmem out, long deg, long s, long l, long first)
{
    for (long w = t->tid + (t->bid == 0 ? 0 : s); w < s + l; w += l) {
        long off = window_offset(t, w);
        if (off <= deg)
            exec_gwrite(t, out, deg - off, exec_pread(t, first + w));
    }
}

static void pg_write_a(exec_thread *t, void *args)
{
    ping_pong_args *c = args;
    write_window(t, c->a_out, c->da, c->s, c->l, wa(c, 0));
}

static void pg_write_b(exec_thread *t, void *args)
{
    ping_pong_args *c = args;
    write_window(t, c->b_out, c->db, c->s, c->l, wb(c, 0));
}

static void pg_write_degrees(exec_thread *t, void *args)
{
    ping_pong_args *c = args;
    int a_writer = t->threads - 1, b_writer = t->threads >= 2 ? t->threads - 2 : 0;
    if (t->bid != 0)
        return;
    if (t->tid == a_writer)
        exec_gwrite(t, c->degrees, 0, (word)(c->da + 1 - (long)exec_pread(t, control(c, RA))));
    if (t->tid == b_writer)
        exec_gwrite(t, c->degrees, 1, (word)(c->db + 1 - (long)exec_pread(t, control(c, RB))));
}

/* ---- the kernels' step lists --------------------------------------------------- */

/* loads, s × (choose, update), the settling choose, writes */
static exec_step *step_list(const exec_step *loads, exec_step choose, exec_step update, const exec_step *writes,
                            int n_writes, long s, int *n_steps)
{
    *n_steps = (int)(LOAD_STEPS + 2 * s + 1 + n_writes);
    exec_step *steps = malloc(sizeof *steps * (size_t)*n_steps);
    int at = 0;
    for (int i = 0; i < LOAD_STEPS; i++)
        steps[at++] = loads[i];
    for (long k = 0; k < s; k++) {
        steps[at++] = choose;
        steps[at++] = update;
    }
    steps[at++] = choose;
    for (int i = 0; i < n_writes; i++)
        steps[at++] = writes[i];
    return steps;
}

static const exec_step pp_loads[] = {pp_load_head_x, pp_load_head_y, pp_load_own, pp_load_divisor_window};
static const exec_step pp_writes[] = {pp_write_own, pp_write_degrees};
static const exec_step pg_loads[] = {pg_load_head_a, pg_load_head_b, pg_load_window_a, pg_load_window_b};
static const exec_step pg_writes[] = {pg_write_a, pg_write_b, pg_write_degrees};

/* ---- host ------------------------------------------------------------------------ */

static long ceil_div(long x, long y) { return (x + y - 1) / y; }

typedef struct gcd_state {
    gmem a[2], b[2], degrees;
    int cur;      /* a[cur], b[cur] hold the pair */
    long da, db;  /* degree bounds */
    long s, l;
    exec_step *pp_steps, *pg_steps;
    int pp_n, pg_n;
} gcd_state;

static int ping_ping_call(gcd_state *g, exec_run *run, long call)
{
    uint64_t p = exec_prime(run);
    int x_is_a = g->da >= g->db;
    ping_ping_args c = {.x = x_is_a ? g->a[g->cur] : g->b[g->cur], .y = x_is_a ? g->b[g->cur] : g->a[g->cur],
                        .degrees = g->degrees, .dx = x_is_a ? g->da : g->db, .dy = x_is_a ? g->db : g->da,
                        .s = g->s, .l = g->l, .x_slot = x_is_a ? 0 : 1};
    word lc = c.y->cells[c.dy];
    c.inv = lc ? zp_pow(p, lc, p - 2) : 0;
    char name[48];
    snprintf(name, sizeof name, "ping-ping[%ld]", call);
    exec_kernel k = {name, g->pp_n, g->pp_steps, pp_private_words(g->s, g->l)};
    return exec_launch(run, &k, ceil_div(c.dy + 1, g->l), (int)g->l, &c);
}

static int ping_pong_call(gcd_state *g, exec_run *run, long call)
{
    ping_pong_args c = {g->a[g->cur], g->b[g->cur], g->a[1 - g->cur], g->b[1 - g->cur], g->degrees,
                        g->da, g->db, g->s, g->l};
    long blocks_a = ceil_div(g->da + 1, g->l), blocks_b = ceil_div(g->db + 1, g->l);
    char name[48];
    snprintf(name, sizeof name, "ping-pong[%ld]", call);
    exec_kernel k = {name, g->pg_n, g->pg_steps, pg_private_words(g->s, g->l)};
    if (exec_launch(run, &k, blocks_a < blocks_b ? blocks_a : blocks_b, (int)g->l, &c) < 0)
        return -1;
    g->cur = 1 - g->cur;
    return 0;
}

/* The model's rule, da − db >= s (thesis line 1597).  A ping-pong grid
 * covers both polynomials as long as |da − db| <= s; a b ahead of a by more
 * than s (never on the worst-case sequence, where b is at most one ahead)
 * makes a ping-ping call with the roles exchanged. */
static int is_ping_ping(const gcd_state *g) { return g->da - g->db >= g->s || g->db - g->da > g->s; }

/* The calls, until one polynomial is zero.  Each call lowers da + db by at
 * least one (by s unless it finds the gcd or skips a zero leading
 * coefficient of the divisor), so there are at most n + m of them. */
static int run_calls(gcd_state *g, exec_run *run)
{
    long limit = g->da + g->db + 2;
    for (long call = 0; g->da >= 0 && g->db >= 0; call++) {
        if (call >= limit)
            return fail("program 'euclid' (exec mode): %ld kernel calls and no gcd yet (degrees %ld, %ld)",
                        call, g->da, g->db);
        int rc = is_ping_ping(g) ? ping_ping_call(g, run, call) : ping_pong_call(g, run, call);
        if (rc < 0)
            return -1;
        g->da = (long)g->degrees->cells[0] - 1;
        g->db = (long)g->degrees->cells[1] - 1;
    }
    return 0;
}

/* The nonzero one of the final pair, monic, into gcd; its degree. */
static long monic_result(const gcd_state *g, uint64_t p, word *gcd, long room)
{
    gmem r = g->da >= 0 ? g->a[g->cur] : g->b[g->cur];
    long d = g->da >= 0 ? g->da : g->db;
    while (d >= 0 && r->cells[d] == 0)
        d--;
    if (d < 0 || d >= room)
        return d < 0 ? -1 : room;
    word inv = zp_pow(p, r->cells[d], p - 2);
    for (long i = 0; i <= d; i++)
        gcd[i] = zp_mul(p, r->cells[i], inv);
    return d;
}

static long degree_of(const word *x, long d)
{
    while (d >= 0 && x[d] == 0)
        d--;
    return d;
}

long euclid_serial_gcd(const word *a, long n, const word *b, long m, uint64_t p, word *gcd)
{
    word *r0 = malloc(sizeof *r0 * (size_t)n), *r1 = malloc(sizeof *r1 * (size_t)n);
    memcpy(r0, a, sizeof *r0 * (size_t)n);
    memcpy(r1, b, sizeof *r1 * (size_t)m);
    long d0 = degree_of(r0, n - 1), d1 = degree_of(r1, m - 1);
    while (d1 >= 0) { /* r0 ← r0 mod r1, then swap */
        word inv = zp_pow(p, r1[d1], p - 2);
        while (d0 >= d1) {
            word f = zp_mul(p, r0[d0], inv);
            for (long j = 0; j <= d1; j++)
                r0[d0 - d1 + j] = zp_sub(p, r0[d0 - d1 + j], zp_mul(p, f, r1[j]));
            d0 = degree_of(r0, d0 - 1);
        }
        word *r = r0;
        r0 = r1;
        r1 = r;
        long d = d0;
        d0 = d1;
        d1 = d;
    }
    word inv = d0 >= 0 ? zp_pow(p, r0[d0], p - 2) : 0;
    for (long i = 0; i <= d0; i++)
        gcd[i] = zp_mul(p, r0[i], inv);
    free(r0);
    free(r1);
    return d0;
}

static int compare_with_reference(const word *a, long n, const word *b, long m, uint64_t p, const word *gcd,
                                  long degree)
{
    word *ref = malloc(sizeof *ref * (size_t)m);
    long ref_degree = euclid_serial_gcd(a, n, b, m, p, ref);
    int rc = 0;
    if (degree != ref_degree)
        rc = fail("program 'euclid' (exec mode): result differs from the serial reference: the gcd has "
                  "degree %ld, expected %ld", degree, ref_degree);
    for (long i = 0; i <= degree && rc == 0; i++)
        if (gcd[i] != ref[i])
            rc = fail("program 'euclid' (exec mode): result differs from the serial reference: monic gcd "
                      "coefficient at index %ld is %llu, expected %llu", i, (unsigned long long)gcd[i],
                      (unsigned long long)ref[i]);
    free(ref);
    return rc;
}

int euclid_exec_gcd(exec_run *run, const word *a, long n, const word *b, long m, long s, long l, word *gcd,
                    long *degree)
{
    if (n < m || m < 1 || a[n - 1] == 0 || b[m - 1] == 0 || s < 1 || l < 1)
        return fail("program 'euclid' (exec mode): needs n >= m >= 1, nonzero leading coefficients, "
                    "s >= 1, l >= 1 (got n = %ld, m = %ld, s = %ld, l = %ld)", n, m, s, l);
    uint64_t p = exec_prime(run);
    gcd_state g = {.a = {exec_alloc(run, "a", n), exec_alloc(run, "a'", n)},
                   .b = {exec_alloc(run, "b", m), exec_alloc(run, "b'", m)},
                   .degrees = exec_alloc(run, "degrees", 2), .da = n - 1, .db = m - 1, .s = s, .l = l};
    memcpy(g.a[0]->cells, a, sizeof *a * (size_t)n);
    memcpy(g.b[0]->cells, b, sizeof *b * (size_t)m);
    g.pp_steps = step_list(pp_loads, pp_choose, pp_update, pp_writes, 2, s, &g.pp_n);
    g.pg_steps = step_list(pg_loads, pg_choose, pg_update, pg_writes, 3, s, &g.pg_n);
    int rc = run_calls(&g, run);
    free(g.pp_steps);
    free(g.pg_steps);
    if (rc < 0)
        return -1;
    *degree = monic_result(&g, p, gcd, m);
    if (*degree >= m)
        return fail("program 'euclid' (exec mode): result differs from the serial reference: the gcd's "
                    "degree is at least %ld, above deg b = %ld", m, m - 1);
    return compare_with_reference(a, n, b, m, p, gcd, *degree);
}

/* ---- the program --------------------------------------------------------------- */

/* The value of param `name` (the registry always gives every default). */
static int param(const vars *params, const char *name, double *out)
{
    const double *v = vars_get(params, name);
    if (!v)
        return fail("program 'euclid': param '%s' is missing", name);
    *out = *v;
    return 0;
}

static int host(const vars *params, const machine *mach, exec_run *run)
{
    double n = 0, m = 0, s = 0, l = 0; /* read as programs/euclid.c reads them */
    if (param(params, "n", &n) < 0 || param(params, "m", &m) < 0 || param(params, "s", &s) < 0 ||
        param(params, "l", &l) < 0)
        return -1;
    if (m == 0)
        m = n;
    if (n != floor(n) || m != floor(m) || s != floor(s) || l != floor(l) || m < 1 || n < m || s < 1 || l < 1 ||
        n > 1e9)
        return fail("program 'euclid': needs whole n >= m >= 1, s >= 1, l >= 1 "
                    "(got n = %g, m = %g, s = %g, l = %g)", n, m, s, l);
    if (4 * s + 2 * l > mach->z)
        return fail("program 'euclid': constraint 4s + 2ℓ <= Z does not hold "
                    "(s = %g, ℓ = %g: %g > Z = %g)", s, l, 4 * s + 2 * l, mach->z);
    uint64_t p = exec_prime(run);
    word *a = malloc(sizeof *a * (size_t)n), *b = malloc(sizeof *b * (size_t)m);
    rng g;
    rng_seed(&g, mach->seed);
    for (long i = 0; i < (long)n; i++)
        a[i] = 1 + rng_below(&g, p - 1);
    for (long i = 0; i < (long)m; i++)
        b[i] = 1 + rng_below(&g, p - 1);
    word *gcd = malloc(sizeof *gcd * (size_t)m);
    long degree;
    int rc = euclid_exec_gcd(run, a, (long)n, b, (long)m, (long)s, (long)l, gcd, &degree);
    free(a);
    free(b);
    free(gcd);
    return rc;
}

const exec_program exec_euclid = {"euclid", host};
