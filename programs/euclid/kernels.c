/*
 * kernels.c — the Euclidean GCD over Z/pZ with s division steps per kernel
 * call, its kernels written once (sim/exec/mcm_kernel.h): mcmsim runs them in
 * exec mode (`--exec`), nvcc builds them for the card (cuda_ref/run-all.sh,
 * case euclid).  The model a student computes, with its closed forms, is
 * model.c (thesis §4.3, Algorithm 1 OptGcdKer, App. B "Euclidean").
 *
 * The algorithm and its memory-access pattern are those of the hand-written
 * CUDA reference that the earlier card sessions timed (cuda_ref/README.md,
 * "euclid", gives the reasoning):
 *  - The schedule is computed ahead, from the params: for generic inputs
 *    (each division step lowers the degree of the reduced polynomial by
 *    exactly one) every call lowers deg a + deg b by s, so the calls, their
 *    kind and grid are known before any runs — model.c's calls exactly.
 *    ping-ping while deg a − deg b >= s (⌈(deg b + 1)/ℓ⌉ blocks), ping-pong
 *    after (min(⌈(deg a + 1)/ℓ⌉, ⌈(deg b + 1)/ℓ⌉) blocks).
 *  - The kernels keep the degrees (upper bounds) in a double-buffered state
 *    in global memory: call k reads slot k mod 2, block 0 writes the
 *    other.  A zero leading coefficient (non-generic input) is skipped and
 *    counted in the budget of s, so the degree sum still falls by s; where
 *    the launched grid does not cover the live coefficients, or a
 *    ping-ping call finds a pair that is not one, the kernels flag an error
 *    in the state and do nothing more, and check fails naming it: never a
 *    wrong gcd given as right (fixtures/ holds such inputs for the test).
 *  - Every block re-derives the call's steps from the heads (the leading
 *    coefficients; thread 0 chooses each step) and applies them to its own
 *    ℓ coefficients, held in private memory with a halo of s − 1 offsets
 *    (offsets count down from the degree a polynomial had when the call
 *    began; after a call the value at offset i depends on offsets
 *    i − (s − 1) .. i + (s − 1) only: a step pairs offset i of the reduced
 *    polynomial with offset i + (r_other − r_self) of the other, r the
 *    drops so far; followed back through the steps, a value's dependencies
 *    alternate between a and b with such shifts at steps k1 > k2 > …, so
 *    its total shift is rb(k1) − rb(k2) + rb(k3) − … less the same sum of
 *    ra, and since the drops never decrease each alternating sum lies in
 *    [0, s − 1]).  Ping-ping: classical steps
 *    a ← a − lc(a)·lc(b)^−1·X^k·b, lc(b)^−1 once per call by each block, a
 *    updated in place (blocks read only their own words of a, the never
 *    written head, and b).  Ping-pong: fraction-free steps x ← lc(y)·x −
 *    lc(x)·X^k·y (no inverse); reads one buffer pair, writes the other.
 *    The gcd is the remaining polynomial made monic by check.
 *  - A call is one looped kernel (MCM_KERNEL_LOOP) of 2s + 2 steps: step 0
 *    loads the state, the heads and the windows; steps 1, 3, …, 2s − 1:
 *    thread 0 chooses (skips zeros, picks the polynomial of larger degree,
 *    a on a tie, or stops); steps 2, 4, …, 2s: every thread updates its
 *    entries of the reduced polynomial; step 2s + 1 writes the owned
 *    offsets (and block 0 the heads and, after the settling choose that
 *    counts the last step's cancelled coefficient, the state).  The
 *    hand-written loop had the same barriers but one: its settling choose
 *    took a step of its own.  The control words (the drops, the step,
 *    the leading coefficients, the call's sizes) are private memory, as
 *    they were its shared memory.
 *
 * Checked inputs (mcm_input): input 0, the timed one, a random pair
 * (coprime, generic but for a chance of about n/p); input 1, when m > 9, a
 * = g·u, b = g·v with g random of degree 8.  Both against reference.h's
 * classical gcd.
 *
 * Measured costs against model.c's declared ones (test_exec_euclid.c
 * asserts each: every block of every call against an independent count,
 * and the closed forms below):
 *   - calls, kinds, grids, threads: equal (the names: a launch is named
 *     after its kernel, "ping_pong", the model's "ping-pong[c]").
 *   - private memory: ping-pong 8s + 2ℓ + 3 words (heads of 2s − 1 and
 *     windows of ℓ + 2(s − 1) offsets of a and b, 9 control words),
 *     ping-ping 3s + 2ℓ + 8; the model's 4s + 2ℓ (thesis line 1606), whose
 *     halo assumes degrees falling one per step in turn.
 *   - S(B), W(B): the model's are the worksheet's unit counts (3 operations
 *     per coefficient per step); measured, a private access is 1
 *     operation, a Z/pZ addition 5 and a multiplication 11 (sim/exec/exec.h),
 *     and thread 0 also chooses each step (14 private accesses).  A block
 *     whose words lie inside both polynomials:
 *       ping-pong (n = m, s even, 2s − 1 <= ℓ: the steps alternate a, b):
 *         S(B) = 109s + 15 (thread 0), W(B) = 35ℓs + 120s² − 98s + 7ℓ − 2,
 *         against 3s and 9s²/4 + 9s/2 + 6ℓs;
 *       ping-ping (s <= ℓ): S(B) = max(48s + 649, 53s + 7) (thread 0 with
 *         lc(b)^−1, or thread s − 1), W(B) = 34ℓs + 9.5s(s + 1) + 17s +
 *         5ℓ + 621, against 3s and 3(s(s + 1)/2 + 2ℓs).
 *   - Z/pZ operations by class: the model's classes count every head and
 *     window entry every step; an entry whose partner lies outside the
 *     other window is left alone (Σ_k |δ_k| per window and per head, δ_k
 *     the shift between a and b at step k: 4Σ|δ| multiplications and
 *     2Σ|δ| additions fewer in ping-pong); ping-ping updates the s − k
 *     head entries at or below a's leading one (s(s − 1)/2 fewer of each),
 *     and its lc(b)^(p−2) takes 56 multiplications, the model's 57.
 *   - α, β: the model's 6 and 2.  Measured (ping-pong, 2s − 1 <= ℓ): 11 and
 *     9 — every thread reads the state's 5 words, its head and window
 *     offsets of a and b; block 0's thread 0 writes the state's 5 words
 *     besides its owned and head offsets; ping-ping 10 and 6.
 *   - O(B): by the UMM rule, against the model's 8U (6 words read and 2
 *     written per thread, coalesced): the state's words cost a transaction
 *     per warp each, and windows start at arbitrary degrees (read
 *     downwards), so a warp's words straddle two address groups unless the
 *     degree is 31 mod 32: at n = m = 1000, s = ℓ = 256, about 25 words
 *     read and 4 written per thread.
 *   - bank conflicts (the model declares none): exec mode pairs a step's
 *     private accesses by their rank in each thread (sim/exec/exec.h), and a
 *     lane with one head or window entry fewer than its warp's others
 *     shifts its later accesses into other rounds; on the card each loop
 *     is its own instructions.  About 1.5 a step at s = ℓ = 256.
 *
 * Params: n, m (sizes of a and b; m = 0 means m = n), l (ℓ), s.
 */
#include "mcm_kernel.h"
#include "reference.h"

#include <stdio.h>

#define PLANTED_DEGREE 8 /* the checked pair's common factor */

/* The device state, two slots of STATE_WORDS words: call k reads slot
 * k mod 2 and block 0 writes the other.  Sizes are degree + 1. */
enum { SIZE_A, SIZE_B, DONE, ERROR, BUF, STATE_WORDS };
enum { ERR_COVERAGE = 1, ERR_PING_PING = 2 };

/* A division step, as thread 0 chooses it. */
enum { STOP, STEP_A, STEP_B };

/* The control words after a block's heads and windows: the drops of a
 * and b so far, the step, its leading coefficients, the sizes the call
 * started from (0, 0 once the block has nothing to do), the buffer pair,
 * and (ping-ping) lc(b)^−1. */
enum { RA, RB, ACTION, LCA, LCB, DA, DB, BUFFER, INV, CONTROL_WORDS };

typedef struct gcd_args {
    gmem a0, a1, b0, b1; /* two buffer pairs: the state's BUF holds a and b */
    gmem state;
    int in;              /* the state slot this call reads: the call's parity */
    int s;
} gcd_args;

/* Where a block's words lie in its private memory. */
typedef struct layout {
    int ha, hb, h_len; /* heads: offsets 0 .. h_len − 1 of a and of b */
    int wa, wb;        /* windows */
    int control;
} layout;

/* Ping-pong: heads of 2s − 1 offsets, windows of ℓ + 2(s − 1) offsets. */
static MCM_DEVICE layout ping_pong_layout(int s, int l)
{
    layout L;
    L.h_len = 2 * s - 1;
    L.ha = 0;
    L.hb = L.h_len;
    L.wa = 2 * L.h_len;
    L.wb = L.wa + l + 2 * (s - 1);
    L.control = L.wb + l + 2 * (s - 1);
    return L;
}

/* Ping-ping: heads of s offsets, a's window of ℓ, b's of ℓ + s − 1. */
static MCM_DEVICE layout ping_ping_layout(int s, int l)
{
    layout L;
    L.h_len = s;
    L.ha = 0;
    L.hb = s;
    L.wa = 2 * s;
    L.wb = 2 * s + l;
    L.control = L.wb + l + s - 1;
    return L;
}

static long ping_pong_words(int s, int l) { return 2 * (2 * s - 1) + 2 * (l + 2 * (s - 1)) + CONTROL_WORDS; }
static long ping_ping_words(int s, int l) { return 3 * s + 2 * l - 1 + CONTROL_WORDS; }

/* The coefficient at offset `off` below degree `deg` of p (0 outside). */
static MCM_DEVICE word coefficient(exec_thread *t, gmem p, int deg, int off)
{
    int pos = deg - off;
    return off >= 0 && pos >= 0 ? exec_gread(t, p, pos) : 0;
}

/* ---- the state -------------------------------------------------------------- */

typedef struct gcd_state {
    int size_a, size_b, done, error, buf;
} gcd_state;

static MCM_DEVICE gcd_state read_state(exec_thread *t, const gcd_args *c)
{
    gcd_state st;
    int at = c->in * STATE_WORDS;
    st.size_a = (int)exec_gread(t, c->state, at + SIZE_A);
    st.size_b = (int)exec_gread(t, c->state, at + SIZE_B);
    st.done = (int)exec_gread(t, c->state, at + DONE);
    st.error = (int)exec_gread(t, c->state, at + ERROR);
    st.buf = (int)exec_gread(t, c->state, at + BUF);
    return st;
}

/* Block 0, thread 0: the state after the call, into the other slot. */
static MCM_DEVICE void write_state(exec_thread *t, const gcd_args *c, gcd_state st)
{
    int at = (1 - c->in) * STATE_WORDS;
    exec_gwrite(t, c->state, at + SIZE_A, (word)st.size_a);
    exec_gwrite(t, c->state, at + SIZE_B, (word)st.size_b);
    exec_gwrite(t, c->state, at + DONE, (word)st.done);
    exec_gwrite(t, c->state, at + ERROR, (word)st.error);
    exec_gwrite(t, c->state, at + BUF, (word)st.buf);
}

/* Thread 0 of a block that will do nothing more (the pair done, or an
 * error): control words saying so; block 0's writes the state too. */
static MCM_DEVICE void stand_down(exec_thread *t, const gcd_args *c, const layout *L, gcd_state st)
{
    exec_pwrite(t, L->control + RA, 0);
    exec_pwrite(t, L->control + RB, 0);
    exec_pwrite(t, L->control + DA, 0);
    exec_pwrite(t, L->control + DB, 0);
    if (t->bid == 0)
        write_state(t, c, st);
}

/* Thread 0 of a block that goes on: the drops start at 0. */
static MCM_DEVICE void start_steps(exec_thread *t, const layout *L, gcd_state st)
{
    exec_pwrite(t, L->control + RA, 0);
    exec_pwrite(t, L->control + RB, 0);
    exec_pwrite(t, L->control + DA, (word)st.size_a);
    exec_pwrite(t, L->control + DB, (word)st.size_b);
    exec_pwrite(t, L->control + BUFFER, (word)st.buf);
}

/* ---- choosing a step (thread 0) -------------------------------------------- */

typedef struct gcd_step {
    int size_a, size_b; /* when the call started (0, 0: nothing to do) */
    int ra, rb, action;
    word lca, lcb;
} gcd_step;

/* Skip zero leading coefficients within the budget s (they count in it),
 * then reduce the polynomial of larger degree (a on a tie), or stop: the
 * budget spent or a polynomial zero.  A block with nothing to do has
 * DA = DB = 0 and stops at once. */
static MCM_DEVICE gcd_step choose(exec_thread *t, const layout *L, int s)
{
    gcd_step st;
    st.ra = (int)exec_pread(t, L->control + RA);
    st.rb = (int)exec_pread(t, L->control + RB);
    st.size_a = (int)exec_pread(t, L->control + DA);
    st.size_b = (int)exec_pread(t, L->control + DB);
    int da0 = st.size_a - 1, db0 = st.size_b - 1;
    while (st.ra + st.rb < s && st.ra <= da0 && exec_pread(t, L->ha + st.ra) == 0)
        st.ra++;
    while (st.ra + st.rb < s && st.rb <= db0 && exec_pread(t, L->hb + st.rb) == 0)
        st.rb++;
    st.action = STOP;
    st.lca = st.lcb = 0;
    if (st.ra + st.rb < s && st.ra <= da0 && st.rb <= db0) {
        st.lca = exec_pread(t, L->ha + st.ra);
        st.lcb = exec_pread(t, L->hb + st.rb);
        st.action = da0 - st.ra >= db0 - st.rb ? STEP_A : STEP_B;
    }
    return st;
}

static MCM_DEVICE void choose_step(exec_thread *t, const layout *L, int s)
{
    gcd_step st = choose(t, L, s);
    exec_pwrite(t, L->control + RA, (word)st.ra);
    exec_pwrite(t, L->control + RB, (word)st.rb);
    exec_pwrite(t, L->control + ACTION, (word)st.action);
    if (st.action != STOP) {
        exec_pwrite(t, L->control + LCA, st.lca);
        exec_pwrite(t, L->control + LCB, st.lcb);
    }
}

/* Block 0, thread 0, after the last step: the drops settled (the last
 * step's cancelled coefficient counted), the state of the next call. */
static MCM_DEVICE void finish_call(exec_thread *t, const gcd_args *c, const layout *L, int buf)
{
    gcd_step st = choose(t, L, c->s);
    gcd_state out;
    out.size_a = st.size_a - st.ra;
    out.size_b = st.size_b - st.rb;
    out.done = out.size_a <= 0 || out.size_b <= 0;
    out.error = 0;
    out.buf = buf;
    write_state(t, c, out);
}

/* ---- the division steps on private memory ------------------------------------ */

/* Ping-pong, fraction-free: X[i] ← lc_y·X[i] − lc_x·Y[i + delta] where the
 * partner lies in Y's window (an entry whose partner does not lies outside
 * every value this block needs, and is left alone). */
static MCM_DEVICE void reduce_window(exec_thread *t, int x, int x_len, int y, int y_len, int delta, word lc_x,
                                     word lc_y)
{
    for (int i = t->tid; i < x_len; i += t->threads) {
        int j = i + delta;
        if (j >= 0 && j < y_len) {
            word xy = exec_zp_mul(t, lc_y, exec_pread(t, x + i));
            word yx = exec_zp_mul(t, lc_x, exec_pread(t, y + j));
            exec_pwrite(t, x + i, exec_zp_sub(t, xy, yx));
        }
    }
}

/* Ping-ping, classical: X[i] ← X[i] − c·Y[i + delta]. */
static MCM_DEVICE void subtract_multiple(exec_thread *t, int x, int x_len, int y, int y_len, int delta, word c)
{
    for (int i = t->tid; i < x_len; i += t->threads) {
        int j = i + delta;
        if (j >= 0 && j < y_len) {
            word xi = exec_pread(t, x + i);
            exec_pwrite(t, x + i, exec_zp_sub(t, xi, exec_zp_mul(t, c, exec_pread(t, y + j))));
        }
    }
}

/* ---- ping-pong: either polynomial reduced; reads one buffer pair, writes
 *      the other ------------------------------------------------------------- */

static MCM_DEVICE void ping_pong_load(exec_thread *t, const gcd_args *c, const layout *L)
{
    int s = c->s, l = t->threads;
    gcd_state st = read_state(t, c);
    int da0 = st.size_a - 1, db0 = st.size_b - 1;
    if (st.done || st.error || (long)s + t->blocks * l <= (da0 > db0 ? da0 : db0)) {
        if (t->tid == 0) {
            if (!st.done && !st.error)
                st.error = ERR_COVERAGE; /* the grid does not cover the live coefficients */
            stand_down(t, c, L, st);
        }
        return;
    }
    gmem a = st.buf ? c->a1 : c->a0, b = st.buf ? c->b1 : c->b0;
    int w_len = l + 2 * (s - 1), base = s + (int)t->bid * l - (s - 1); /* offset of window entry 0 */
    for (int i = t->tid; i < L->h_len; i += l) {
        exec_pwrite(t, L->ha + i, coefficient(t, a, da0, i));
        exec_pwrite(t, L->hb + i, coefficient(t, b, db0, i));
    }
    for (int i = t->tid; i < w_len; i += l) {
        exec_pwrite(t, L->wa + i, coefficient(t, a, da0, base + i));
        exec_pwrite(t, L->wb + i, coefficient(t, b, db0, base + i));
    }
    if (t->tid == 0)
        start_steps(t, L, st);
}

static MCM_DEVICE void ping_pong_reduce(exec_thread *t, const layout *L, int s)
{
    word action = exec_pread(t, L->control + ACTION);
    if (action == STOP)
        return;
    int ra = (int)exec_pread(t, L->control + RA), rb = (int)exec_pread(t, L->control + RB);
    word lca = exec_pread(t, L->control + LCA), lcb = exec_pread(t, L->control + LCB);
    int w_len = t->threads + 2 * (s - 1);
    if (action == STEP_A) {
        reduce_window(t, L->ha, L->h_len, L->hb, L->h_len, rb - ra, lca, lcb);
        reduce_window(t, L->wa, w_len, L->wb, w_len, rb - ra, lca, lcb);
    } else {
        reduce_window(t, L->hb, L->h_len, L->ha, L->h_len, ra - rb, lcb, lca);
        reduce_window(t, L->wb, w_len, L->wa, w_len, ra - rb, lcb, lca);
    }
}

/* The owned offsets lo + tid, and in block 0 the head offsets 0 .. s − 1,
 * to the other buffer pair. */
static MCM_DEVICE void ping_pong_write(exec_thread *t, const gcd_args *c, const layout *L)
{
    int da0 = (int)exec_pread(t, L->control + DA) - 1;
    if (da0 < 0)
        return; /* nothing done */
    int db0 = (int)exec_pread(t, L->control + DB) - 1, buf = (int)exec_pread(t, L->control + BUFFER);
    int s = c->s, l = t->threads, own = s + (int)t->bid * l + t->tid;
    gmem a_out = buf ? c->a0 : c->a1, b_out = buf ? c->b0 : c->b1;
    if (own <= da0)
        exec_gwrite(t, a_out, da0 - own, exec_pread(t, L->wa + t->tid + s - 1));
    if (own <= db0)
        exec_gwrite(t, b_out, db0 - own, exec_pread(t, L->wb + t->tid + s - 1));
    if (t->bid == 0) {
        for (int i = t->tid; i < s; i += l) {
            if (i <= da0)
                exec_gwrite(t, a_out, da0 - i, exec_pread(t, L->ha + i));
            if (i <= db0)
                exec_gwrite(t, b_out, db0 - i, exec_pread(t, L->hb + i));
        }
        if (t->tid == 0)
            finish_call(t, c, L, 1 - buf);
    }
}

/* ---- ping-ping: deg a − deg b >= s, a reduced by b in place ------------------ */

static MCM_DEVICE void ping_ping_load(exec_thread *t, const gcd_args *c, const layout *L)
{
    int s = c->s, l = t->threads;
    gcd_state st = read_state(t, c);
    if (st.done || st.error) {
        if (t->tid == 0)
            stand_down(t, c, L, st);
        return;
    }
    int da0 = st.size_a - 1, db0 = st.size_b - 1, lo = s + (int)t->bid * l;
    gmem a = st.buf ? c->a1 : c->a0, b = st.buf ? c->b1 : c->b0;
    for (int i = t->tid; i < s; i += l) {
        exec_pwrite(t, L->ha + i, coefficient(t, a, da0, i));
        exec_pwrite(t, L->hb + i, coefficient(t, b, db0, i));
    }
    exec_pwrite(t, L->wa + t->tid, coefficient(t, a, da0, lo + t->tid));
    for (int i = t->tid; i < l + s - 1; i += l)
        exec_pwrite(t, L->wb + i, coefficient(t, b, db0, lo - (s - 1) + i));
    if (t->tid != 0)
        return;
    word lcb = exec_pread(t, L->hb); /* thread 0 loaded it */
    if (da0 - db0 < s || db0 < 0 || lcb == 0)
        st.error = ERR_PING_PING; /* not a ping-ping pair (non-generic input) */
    else if (t->blocks * l < db0)
        st.error = ERR_COVERAGE;
    if (st.error) {
        stand_down(t, c, L, st);
        return;
    }
    exec_pwrite(t, L->control + INV, exec_zp_inv(t, lcb));
    start_steps(t, L, st);
}

static MCM_DEVICE void ping_ping_reduce(exec_thread *t, const layout *L, int s)
{
    if (exec_pread(t, L->control + ACTION) == STOP)
        return;
    int ra = (int)exec_pread(t, L->control + RA);
    word c = exec_zp_mul(t, exec_pread(t, L->control + LCA), exec_pread(t, L->control + INV));
    /* a's offset i pairs with b's i − ra: in the heads at i − ra, in b's
     * window (from offset lo − (s − 1)) at i − ra + s − 1 */
    subtract_multiple(t, L->ha, s, L->hb, s, -ra, c);
    subtract_multiple(t, L->wa, t->threads, L->wb, t->threads + s - 1, s - 1 - ra, c);
}

/* The owned offsets back into a, in place. */
static MCM_DEVICE void ping_ping_write(exec_thread *t, const gcd_args *c, const layout *L)
{
    int da0 = (int)exec_pread(t, L->control + DA) - 1;
    if (da0 < 0)
        return;
    int buf = (int)exec_pread(t, L->control + BUFFER), own = c->s + (int)t->bid * t->threads + t->tid;
    if (own <= da0)
        exec_gwrite(t, buf ? c->a1 : c->a0, da0 - own, exec_pread(t, L->wa + t->tid));
    if (t->bid == 0 && t->tid == 0)
        finish_call(t, c, L, buf);
}

/* ---- a call: 2s + 2 steps ----------------------------------------------------------- */

/* Step 0 loads; steps 1 .. 2s choose (odd, thread 0) and reduce (even);
 * step 2s + 1 writes.  (ping_ping is a constant where it is inlined.) */
static MCM_DEVICE void call_step(exec_thread *t, const gcd_args *c, int ping_ping)
{
    layout L = ping_ping ? ping_ping_layout(c->s, t->threads) : ping_pong_layout(c->s, t->threads);
    if (t->step & 1) {
        if (t->step == 2 * c->s + 1) {
            if (ping_ping)
                ping_ping_write(t, c, &L);
            else
                ping_pong_write(t, c, &L);
        } else if (t->tid == 0) {
            choose_step(t, &L, c->s);
        }
    } else if (t->step == 0) {
        if (ping_ping)
            ping_ping_load(t, c, &L);
        else
            ping_pong_load(t, c, &L);
    } else if (ping_ping) {
        ping_ping_reduce(t, &L, c->s);
    } else {
        ping_pong_reduce(t, &L, c->s);
    }
}

MCM_STEP(ping_pong_step, gcd_args, c) { call_step(t, c, 0); }
MCM_STEP(ping_ping_step, gcd_args, c) { call_step(t, c, 1); }
MCM_KERNEL_LOOP(ping_pong, gcd_args, ping_pong_step);
MCM_KERNEL_LOOP(ping_ping, gcd_args, ping_ping_step);

/* ---- host ---------------------------------------------------------------------- */

static int n, m, l, s;
static int input;              /* which pair this point's setup made */
static gmem a0, a1, b0, b1, state;
static word *expected;         /* the serial gcd of the pair, monic */
static int expected_degree;

static int ceil_div(int x, int y) { return (x + y - 1) / y; }

/* The calls for generic inputs (every division step lowers the degree of
 * the reduced polynomial by exactly one), computed ahead from the params:
 * each call's kind and grid.  Returns the number of calls; with `run`,
 * launches them too. */
static int schedule(exec_run *run)
{
    int da = n - 1, db = m - 1, calls = 0;
    gcd_args args = {a0, a1, b0, b1, state, 0, s};
    while (da >= 0 && db >= 0) {
        int ping_ping_call = da - db >= s;
        int blocks = ping_ping_call ? ceil_div(db + 1, l) : ceil_div(da + 1, l) < ceil_div(db + 1, l)
                                                                 ? ceil_div(da + 1, l)
                                                                 : ceil_div(db + 1, l);
        args.in = calls & 1;
        if (run && mcm_launch_steps(run, ping_ping_call ? &ping_ping : &ping_pong, 2 * s + 2, blocks, l,
                                    ping_ping_call ? ping_ping_words(s, l) : ping_pong_words(s, l), &args) < 0)
            return -1;
        calls++;
        for (int j = 0; j < s && da >= 0 && db >= 0; j++) {
            if (da >= db)
                da--;
            else
                db--;
        }
    }
    return calls;
}

/* Input 0: a random pair (coprime but for a chance of about n/p), the one
 * timed; input 1: a = g·u, b = g·v with g random of degree 8.  (A test
 * fixture in fixtures/ includes this file with EUCLID_TEST_PAIR naming
 * its own input 0: a pair that is not generic.) */
static void make_pair(word *a, word *b, uint64_t seed)
{
    uint64_t rng = seed ^ (0x9E3779B97F4A7C15ull * (uint64_t)(input + 1));
#ifdef EUCLID_TEST_PAIR
    if (input == 0) {
        EUCLID_TEST_PAIR(a, b, &rng);
        return;
    }
#endif
    if (input == 0) {
        reference_random(a, n, &rng);
        reference_random(b, m, &rng);
        return;
    }
    int dg = PLANTED_DEGREE;
    word g[PLANTED_DEGREE + 1];
    word *u = (word *)malloc(sizeof *u * (size_t)(n - dg)), *v = (word *)malloc(sizeof *v * (size_t)(m - dg));
    reference_random(g, dg + 1, &rng);
    reference_random(u, n - dg, &rng);
    reference_random(v, m - dg, &rng);
    reference_product(g, dg + 1, u, n - dg, a);
    reference_product(g, dg + 1, v, m - dg, b);
    free(u);
    free(v);
}

static int setup(exec_run *run, const mcm_params *p)
{
    n = (int)mcm_param(p, "n", 1000);
    double m_param = mcm_param(p, "m", n);
    l = (int)mcm_param(p, "l", 256);
    s = (int)mcm_param(p, "s", 256);
    m = m_param == 0 ? n : (int)m_param;
    if (m < 1 || n < m || n > (1 << 28) || l < 1 || s < 1 || s > MCM_STEPS_MAX / 2 - 1)
        return mcm_fail("euclid: needs n >= m >= 1 (m = 0: m = n), n <= 2^28, l >= 1 and 1 <= s < %d "
                        "(got n = %d, m = %d, l = %d, s = %d)", MCM_STEPS_MAX / 2 - 1, n, m, l, s);
    input = mcm_input(p, m > PLANTED_DEGREE + 1 ? 2 : 1);
    a0 = mcm_alloc(run, "a", n);
    a1 = mcm_alloc(run, "a'", n);
    b0 = mcm_alloc(run, "b", m);
    b1 = mcm_alloc(run, "b'", m);
    state = mcm_alloc(run, "state", 2 * STATE_WORDS);
    word *a = (word *)malloc(sizeof *a * (size_t)n), *b = (word *)malloc(sizeof *b * (size_t)m);
    make_pair(a, b, mcm_seed(p));
    for (int i = 0; i < n; i++)
        mcm_set(a0, i, a[i]);
    for (int i = 0; i < m; i++)
        mcm_set(b0, i, b[i]);
    mcm_set(state, SIZE_A, (word)n);
    mcm_set(state, SIZE_B, (word)m);
    free(expected);
    expected = (word *)malloc(sizeof *expected * (size_t)m);
    expected_degree = reference_gcd(a, n, b, m, expected);
    free(a);
    free(b);
    return 0;
}

static int launches(exec_run *run) { return schedule(run) < 0 ? -1 : 0; }

static const char *const pair_name[] = {"input 0 (the timed pair)", "input 1 (a common factor of degree 8)"};

static int check(exec_run *run)
{
    (void)run;
    int at = (schedule(NULL) & 1) * STATE_WORDS;
    int size_a = (int)mcm_get(state, at + SIZE_A), size_b = (int)mcm_get(state, at + SIZE_B);
    int error = (int)mcm_get(state, at + ERROR), buf = (int)mcm_get(state, at + BUF);
    if (error)
        return mcm_fail("euclid, %s: the kernels flagged %s (degrees <= %d, %d): the input is not generic "
                        "and the schedule computed ahead does not fit it; no gcd", pair_name[input],
                        error == ERR_COVERAGE ? "a grid too small for the live coefficients"
                                              : "a ping-ping call on a pair that is not one",
                        size_a - 1, size_b - 1);
    if (!mcm_get(state, at + DONE))
        return mcm_fail("euclid, %s: after the last call neither polynomial is zero (degrees <= %d, %d)",
                        pair_name[input], size_a - 1, size_b - 1);
    gmem r = size_a > 0 ? (buf ? a1 : a0) : (buf ? b1 : b0);
    int bound = size_a > 0 ? size_a - 1 : size_b - 1;
    word *got = (word *)malloc(sizeof *got * (size_t)(bound + 1));
    for (int i = 0; i <= bound; i++)
        got[i] = mcm_get(r, i);
    int degree = reference_degree(got, bound), rc = 0;
    if (degree >= 0)
        reference_make_monic(got, degree);
    if (degree != expected_degree)
        rc = mcm_fail("euclid, %s: the gcd has degree %d, the serial one %d", pair_name[input], degree,
                      expected_degree);
    for (int i = 0; i <= degree && rc == 0; i++)
        if (got[i] != expected[i])
            rc = mcm_fail("euclid, %s: the monic gcd's coefficient %d is %llu, the serial one's %llu",
                          pair_name[input], i, (unsigned long long)got[i], (unsigned long long)expected[i]);
    free(got);
    return rc;
}

MCM_PROGRAM("euclid", setup, launches, check);
