/*
 * test_exec_euclid.c — the Euclidean GCD in exec mode (its kernels written
 * once, kernels.c): its gcds against the serial reference, what it flags
 * on inputs the schedule computed ahead does not fit, and its measured
 * per-block costs against an independent count and against the model's
 * declared ones (model.c), each difference asserted.
 *
 * The independent count (the ledger below) follows kernels.c's header,
 * not its code: for each call of the schedule, the division steps of the
 * generic degree sequence (each step cancels one leading coefficient, the
 * next one is not zero: random inputs, whose degrees fall by one per step,
 * the model's worst case), and for each thread of a block what each step
 * does: its private accesses, Z/pZ multiplications and additions, its
 * global reads and writes in order.  From those: S(B), W(B) (a private
 * access 1 operation, an addition 5, a multiplication 11: sim/exec/exec.h), α,
 * β, and the transfer by the UMM rule (a warp's k-th accesses of a step
 * form a round; a round costs its distinct address groups of w words, and
 * a block's transfer is Σ transactions·min(w, ℓ)/ℓ words per thread).
 */
#include "helpers.h"
#include "mcm_kernel.h"
#include "program.h"
#include "reference.h"

#include <math.h>

#define PRIME 469762049ull
#define PP_CONTROL 9 /* kernels.c's control words */

static vars point(double n, double m, double s, double l) { return test_params("n m s l", n, m, s, l); }

static exec_result run_euclid(double n, double m, double s, double l, uint64_t seed, machine *mach)
{
    mach->seed = seed;
    return run_case_exec("euclid", point(n, m, s, l), mach);
}

/* A launch of kernel "ping_pong" is the model's "ping-pong[c]". */
static int same_kind(const char *launched, const char *modelled)
{
    size_t n = strlen(launched);
    if (strncmp(modelled, "ping-p", 6) != 0 || strlen(modelled) < n || modelled[n] != '[')
        return 0;
    return strncmp(launched, "ping_", 5) == 0 && strncmp(launched + 5, modelled + 5, n - 5) == 0;
}

/* ---- the generic degree sequence ------------------------------------------------ */

/* A call: its start degrees and, for each division step k, the drops ra,
 * rb before it and the polynomial it reduces (1: a, 2: b). */
typedef struct call {
    long da, db, steps;
    int ping_ping;
    int slot, buf; /* the state slot it reads (its parity), the buffer pair holding a and b */
    long blocks;
    long ra[1100], rb[1100];
    int reduces[1100];
} call;

static int schedule(long n, long m, long s, long l, call *calls, int max)
{
    long da = n - 1, db = m - 1;
    int c = 0, buf = 0;
    cr_assert_leq(s, 1100);
    for (; da >= 0 && db >= 0; c++) {
        cr_assert_lt(c, max);
        call *k = &calls[c];
        k->da = da;
        k->db = db;
        k->ping_ping = da - db >= s;
        k->slot = c & 1;
        k->buf = buf;
        buf ^= !k->ping_ping; /* a ping-pong call writes the other pair */
        long ba = (da + l) / l, bb = (db + l) / l;
        k->blocks = k->ping_ping ? bb : ba < bb ? ba : bb;
        long ra = 0, rb = 0;
        for (k->steps = 0; ra + rb < s && ra <= da && rb <= db; k->steps++) {
            k->ra[k->steps] = ra;
            k->rb[k->steps] = rb;
            k->reduces[k->steps] = da - ra >= db - rb ? 1 : 2;
            if (k->reduces[k->steps] == 1)
                ra++;
            else
                rb++;
        }
        da -= ra;
        db -= rb;
    }
    return c;
}

/* ---- the ledger: one block of one call, thread by thread -------------------------- */

enum { A, A2, B, B2, STATE }; /* the arrays, in setup's order */

#define MAX_ACCESSES 48
typedef struct thread_count {
    long priv, mul, add;
    int n_reads, n_writes;                  /* global, in the load step and the write step */
    long read[MAX_ACCESSES], write[MAX_ACCESSES]; /* array << 40 | cell */
} thread_count;

static void note(long *list, int *n, int array, long cell)
{
    cr_assert_lt(*n, MAX_ACCESSES);
    list[(*n)++] = (long)array << 40 | cell;
}

/* A head or window load of offset off of a polynomial of degree deg. */
static void load(thread_count *c, int array, long deg, long off)
{
    if (off >= 0 && deg - off >= 0)
        note(c->read, &c->n_reads, array, deg - off);
    c->priv++;
}

/* Thread 0's choose before step k of a call of `steps` (k == steps: the
 * settling one): RA, RB, DA, DB; the skipped zero (the leading coefficient
 * the step before cancelled) and the next one; lc(a), lc(b); five words
 * written.  The settling one reads the zero only, and the other head when
 * the zero is b's (a's loop runs first); it writes nothing. */
static long choose_accesses(const call *k, long s, long step)
{
    if (step == s)
        return 4 + (k->reduces[s - 1] == 1 ? 1 : 2);
    return 4 + (step == 0 ? 2 : 3) + 2 + 5;
}

/* The state: the five words of the slot the call reads, or writes. */
static void state_words(const call *k, int written, long *list, int *n)
{
    for (int i = 0; i < 5; i++)
        note(list, n, STATE, (written ? 1 - k->slot : k->slot) * 5 + i);
}

/* The ping-pong kernel, block b (a full call: k->steps == s). */
static void ping_pong_ledger(const call *k, long s, long l, long b, thread_count *th)
{
    long h = 2 * s - 1, w = l + 2 * s - 2, base = b * l + 1; /* offset of window entry 0 */
    int a_in = k->buf ? A2 : A, b_in = k->buf ? B2 : B, a_out = k->buf ? A : A2, b_out = k->buf ? B : B2;
    memset(th, 0, sizeof *th * (size_t)l);
    for (long t = 0; t < l; t++) {
        thread_count *c = &th[t];
        state_words(k, 0, c->read, &c->n_reads);
        for (long i = t; i < h; i += l) {
            load(c, a_in, k->da, i);
            load(c, b_in, k->db, i);
        }
        for (long i = t; i < w; i += l) {
            load(c, a_in, k->da, base + i);
            load(c, b_in, k->db, base + i);
        }
        for (long j = 0; j < s; j++) { /* the reduce steps */
            long delta = k->reduces[j] == 1 ? k->rb[j] - k->ra[j] : k->ra[j] - k->rb[j];
            c->priv += 5;
            for (long i = t; i < h; i += l)
                if (i + delta >= 0 && i + delta < h)
                    c->priv += 3, c->mul += 2, c->add += 1;
            for (long i = t; i < w; i += l)
                if (i + delta >= 0 && i + delta < w)
                    c->priv += 3, c->mul += 2, c->add += 1;
        }
        long own = s + b * l + t, da = k->da, db = k->db; /* the write step */
        c->priv += 3;
        if (own <= da)
            c->priv++, note(c->write, &c->n_writes, a_out, da - own);
        if (own <= db)
            c->priv++, note(c->write, &c->n_writes, b_out, db - own);
        for (long i = t; b == 0 && i < s; i += l) {
            if (i <= da)
                c->priv++, note(c->write, &c->n_writes, a_out, da - i);
            if (i <= db)
                c->priv++, note(c->write, &c->n_writes, b_out, db - i);
        }
    }
    th[0].priv += 5; /* start_steps */
    for (long j = 0; j < s; j++)
        th[0].priv += choose_accesses(k, s, j);
    if (b == 0) {
        th[0].priv += choose_accesses(k, s, s);
        state_words(k, 1, th[0].write, &th[0].n_writes);
    }
}

/* The ping-ping kernel, block b (a full call). */
static void ping_ping_ledger(const call *k, long s, long l, long b, thread_count *th)
{
    long lo = s + b * l;
    int a_in = k->buf ? A2 : A, b_in = k->buf ? B2 : B;
    memset(th, 0, sizeof *th * (size_t)l);
    for (long t = 0; t < l; t++) {
        thread_count *c = &th[t];
        state_words(k, 0, c->read, &c->n_reads);
        for (long i = t; i < s; i += l) {
            load(c, a_in, k->da, i);
            load(c, b_in, k->db, i);
        }
        load(c, a_in, k->da, lo + t);
        for (long i = t; i < l + s - 1; i += l)
            load(c, b_in, k->db, lo - (s - 1) + i);
        for (long j = 0; j < s; j++) { /* reduce: ACTION, RA, LCA, INV; the factor; the entries */
            c->priv += 4;
            c->mul += 1;
            for (long i = t; i < s; i += l)
                if (i >= k->ra[j])
                    c->priv += 3, c->mul += 1, c->add += 1;
            c->priv += 3, c->mul += 1, c->add += 1; /* its window word: the partner always there */
        }
        c->priv += 2; /* the write step: DA, BUFFER */
        if (lo + t <= k->da)
            c->priv++, note(c->write, &c->n_writes, a_in, k->da - lo - t);
    }
    th[0].priv += 1 + 1 + 5; /* lc(b) read back, INV written, start_steps */
    th[0].mul += 56;         /* lc(b)^−1 = lc(b)^(p−2): 28 squarings, 28 products */
    for (long j = 0; j < s; j++)
        th[0].priv += choose_accesses(k, s, j);
    if (b == 0) {
        th[0].priv += choose_accesses(k, s, s);
        state_words(k, 1, th[0].write, &th[0].n_writes);
    }
}

/* Transactions of the rounds of one step: list[t] holds thread t's
 * accesses in order (n[t] of them). */
static long transactions(const thread_count *th, long l, int w, int writes)
{
    long total = 0;
    for (long first = 0; first < l; first += w) {
        long last = first + w < l ? first + w : l;
        for (int r = 0; r < MAX_ACCESSES; r++) {
            long keys[1024];
            int n = 0;
            for (long t = first; t < last; t++) {
                int count = writes ? th[t].n_writes : th[t].n_reads;
                if (r < count) {
                    long key = writes ? th[t].write[r] : th[t].read[r];
                    keys[n++] = (key >> 40) << 40 | (key & ((1L << 40) - 1)) / w;
                }
            }
            for (int i = 0; i < n; i++) { /* distinct keys */
                int seen = 0;
                for (int j = 0; j < i && !seen; j++)
                    seen = keys[j] == keys[i];
                total += !seen;
            }
        }
    }
    return total;
}

/* The block's figures from the ledger. */
typedef struct block_figures {
    double span, work, mul, add, reads, writes;
    long alpha, beta;
} block_figures;

static block_figures figures(const thread_count *th, long l, int w)
{
    block_figures f = {0};
    for (long t = 0; t < l; t++) {
        double ops = (double)th[t].priv + 11.0 * (double)th[t].mul + 5.0 * (double)th[t].add;
        f.span = fmax(f.span, ops);
        f.work += ops;
        f.mul += (double)th[t].mul;
        f.add += (double)th[t].add;
        f.alpha = th[t].n_reads > f.alpha ? th[t].n_reads : f.alpha;
        f.beta = th[t].n_writes > f.beta ? th[t].n_writes : f.beta;
    }
    double per = (double)(w < l ? w : l) / (double)l;
    f.reads = (double)transactions(th, l, w, 0) * per;
    f.writes = (double)transactions(th, l, w, 1) * per;
    return f;
}

/* ---- (a) the serial reference and the results ----------------------------------- */

Test(exec_euclid, the_serial_gcd_of_a_known_small_example)
{
    /* (x − 1)(x − 2) = x² − 3x + 2 and (x − 1)(x − 3) = x² − 4x + 3: gcd x − 1 */
    word a[] = {2, PRIME - 3, 1}, b[] = {3, PRIME - 4, 1}, g[3];
    cr_assert_eq(reference_gcd(a, 3, b, 3, g), 1);
    cr_expect(g[0] == PRIME - 1 && g[1] == 1);
}

Test(exec_euclid, the_serial_gcds_step_is_zp_sub_of_zp_mul_on_every_operand)
{
    /* x − f·y: by hand, then against the exported operations on the edges
     * (0, 1, p − 1, and words of p or more, which take them) */
    cr_expect_eq(reference_sub_product(5, 2, 2), 1);
    cr_expect_eq(reference_sub_product(0, 1, 1), PRIME - 1);
    cr_expect_eq(reference_sub_product(0, PRIME - 1, PRIME - 1), PRIME - 1); /* (−1)(−1) = 1 */
    const word edge[] = {0, 1, 2, PRIME / 2, PRIME - 2, PRIME - 1, PRIME, PRIME + 1, UINT32_MAX, 1ull << 40};
    const int n = (int)(sizeof edge / sizeof *edge);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            for (int k = 0; k < n; k++)
                cr_assert_eq(reference_sub_product(edge[i], edge[j], edge[k]),
                             zp_sub(PRIME, edge[i], zp_mul(PRIME, edge[j], edge[k])), "x %llu, f %llu, y %llu",
                             (unsigned long long)edge[i], (unsigned long long)edge[j], (unsigned long long)edge[k]);
}

Test(exec_euclid, the_serial_gcd_finds_a_planted_factor_and_coprime_cofactors)
{
    static const int cases[][3] = {{8, 300, 300}, {1, 50, 20}, {20, 1000, 999}};
    uint64_t rng = 6;
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        int dg = cases[c][0], n = cases[c][1], m = cases[c][2];
        word *g = malloc(sizeof *g * (size_t)(dg + 1)), *u = malloc(sizeof *u * (size_t)(n - dg));
        word *v = malloc(sizeof *v * (size_t)(m - dg)), *a = malloc(sizeof *a * (size_t)n);
        word *b = malloc(sizeof *b * (size_t)m), *got = malloc(sizeof *got * (size_t)m);
        reference_random(g, dg + 1, &rng);
        reference_random(u, n - dg, &rng);
        reference_random(v, m - dg, &rng);
        reference_product(g, dg + 1, u, n - dg, a);
        reference_product(g, dg + 1, v, m - dg, b);
        cr_assert_eq(reference_degree(a, n - 1), n - 1);
        cr_assert_eq(reference_gcd(a, n, b, m, got), dg, "u and v coprime (with high probability)");
        reference_make_monic(g, dg);
        cr_expect_arr_eq(got, g, sizeof *g * (size_t)(dg + 1));
        cr_expect_eq(reference_gcd(u, n - dg, v, m - dg, got), 0, "u, v: gcd 1");
        cr_expect_eq(got[0], 1);
        free(g);
        free(u);
        free(v);
        free(a);
        free(b);
        free(got);
    }
}

Test(exec_euclid, gcds_equal_the_serial_ones_at_many_sizes)
{
    /* {n, m, s, ℓ}, m = 0 meaning m = n: non-powers of two, n = m and
     * n > m (ping-ping calls), s = 1, s not dividing anything, s > ℓ,
     * 2s − 1 > ℓ; every point checks the random pair and, when m > 9, the
     * pair with a planted common factor of degree 8 (mcm_input) */
    const double pts[][4] = {{300, 0, 16, 32},  {257, 200, 8, 32}, {129, 129, 7, 16}, {200, 199, 1, 8},
                             {64, 5, 3, 4},     {333, 100, 32, 64}, {90, 0, 5, 9},    {20, 0, 7, 32},
                             {400, 0, 40, 32},  {777, 500, 13, 64}, {1000, 0, 256, 256}, {1500, 500, 64, 256}};
    machine mach = test_preset("mcm");
    for (size_t i = 0; i < sizeof pts / sizeof pts[0]; i++)
        for (uint64_t seed = 1; seed <= (i < 8 ? 2 : 1); seed++) { /* the larger points once */
            exec_result r = run_euclid(pts[i][0], pts[i][1], pts[i][2], pts[i][3], seed * 2654435761u, &mach);
            exec_result_free(&r);
        }
}

/* ---- (b) inputs that are not generic ---------------------------------------------- */

/* fixtures/NAME.c (kernels.c with its own input 0) at a point. */
static const char *fixture(const char *name, double n, double m, double s, double l, exec_result *out)
{
    char source[1024];
    snprintf(source, sizeof source, "%s/programs/euclid/fixtures/%s.c", MCMSIM_DATADIR, name);
    machine mach = test_preset("mcm");
    mach.seed = 77;
    vars v = point(n, m, s, l);
    if (user_program_run(source, &v, &mach, out) == 0)
        return NULL;
    return fail_message();
}

Test(exec_euclid, skipped_zero_coefficients_that_the_grids_still_cover_give_the_gcd)
{
    /* a's first remainder has 11 zero coefficients below its top (n = 120):
     * the kernels skip them, four per call (s = 4), while b's degree stays;
     * the schedule's grids, computed for degrees that fall in turn, still
     * cover b (s + blocks·ℓ > deg b at every call), and the gcd is right.
     * The same with b's leading coefficient zero (n = m: ping-pong calls,
     * which skip it). */
    exec_result r;
    const char *why = fixture("zero_block", 120, 0, 4, 8, &r);
    cr_assert_null(why, "%s", why);
    exec_result_free(&r);
    why = fixture("zero_lead", 200, 0, 4, 8, &r);
    cr_assert_null(why, "%s", why);
    exec_result_free(&r);
    why = fixture("divisor", 120, 60, 8, 256, &r); /* one block covers the pair */
    cr_assert_null(why, "%s", why);
    exec_result_free(&r);
}

Test(exec_euclid, a_grid_too_small_for_the_live_coefficients_fails_the_check)
{
    /* n = 400, 39 zeros: at call 4 the schedule launches 49 blocks for
     * degrees (391, 391) where the pair has (383, 399): 4 + 49·8 <= 399,
     * the kernels flag it and the check fails, naming it; b | a: a
     * vanishes within the ping-ping calls and b keeps its degree while
     * the schedule's ping-pong grids shrink */
    exec_result r;
    const char *why = fixture("zero_block", 400, 0, 4, 8, &r);
    cr_assert_not_null(why, "a wrong schedule passed");
    cr_expect(strstr(why, "in its check: euclid, input 0 (the timed pair): the kernels flagged a grid too small "
                          "for the live coefficients (degrees <= 383, 399)") != NULL, "%s", why);
    why = fixture("divisor", 200, 50, 4, 8, &r);
    cr_assert_not_null(why, "a wrong schedule passed");
    cr_expect(strstr(why, "a grid too small for the live coefficients") != NULL, "%s", why);
}

Test(exec_euclid, a_ping_ping_call_on_a_pair_that_is_not_one_fails_the_check)
{
    /* lc(b) = 0 and n − m >= s: the first call is ping-ping by the
     * schedule, its divisor's leading coefficient zero */
    exec_result r;
    const char *why = fixture("zero_lead", 100, 60, 4, 8, &r);
    cr_assert_not_null(why, "a wrong schedule passed");
    cr_expect(strstr(why, "the kernels flagged a ping-ping call on a pair that is not one (degrees <= 99, 59)") !=
                  NULL, "%s", why);
}

/* ---- (c) the launches ------------------------------------------------------------- */

Test(exec_euclid, the_launches_are_the_models_calls)
{
    /* the schedule is computed ahead from the params, as model.c builds
     * its DAG: the same calls, kinds, grids and threads; each kernel runs
     * 2s + 2 steps (load, s times choose and reduce, write) */
    const double pts[][4] = {{300, 0, 16, 32}, {257, 200, 8, 32}, {200, 199, 1, 8}, {64, 5, 3, 4}, {600, 0, 256, 256}};
    machine mach = test_preset("mcm");
    for (size_t i = 0; i < sizeof pts / sizeof pts[0]; i++) {
        vars v = point(pts[i][0], pts[i][1], pts[i][2], pts[i][3]);
        exec_result r = run_euclid(pts[i][0], pts[i][1], pts[i][2], pts[i][3], 5, &mach);
        kernel_dag *model = build_builtin("euclid", v, &mach);
        cr_assert_eq(r.dag->n, model->n, "point %zu: %d calls, model %d", i, r.dag->n, model->n);
        for (int k = 0; k < model->n; k++) {
            const kernel *e = &r.dag->kernels[k], *d = &model->kernels[k];
            cr_expect(same_kind(e->name, d->name), "point %zu call %d: %s, model %s", i, k, e->name, d->name);
            cr_expect_eq(e->blocks, d->blocks, "point %zu, %s", i, d->name);
            cr_expect_eq(e->threads, d->threads);
            cr_expect_eq(kernel_block_cost(e, 0)->span_ops[OP_BARRIER], 2 * pts[i][2] + 1, "%s", d->name);
        }
        kernel_dag_free(model);
        exec_result_free(&r);
    }
}

Test(exec_euclid, private_memory_is_the_cuda_references_not_the_models)
{
    /* model.c: 4s + 2ℓ words (thesis line 1606: s leading coefficients and
     * ℓ + s others of each).  The kernels: ping-pong heads of 2s − 1 and
     * windows of ℓ + 2(s − 1) offsets (a halo of s − 1 on each side: the
     * split of s between the drops of a and b is known only at the end of
     * a call), 8s + 2ℓ − 6 words; ping-ping 3s + 2ℓ − 1; nine control
     * words each */
    machine mach = test_preset("mcm");
    double s = 16, l = 32;
    exec_result r = run_euclid(300, 100, s, l, 5, &mach);
    kernel_dag *model = build_builtin("euclid", point(300, 100, s, l), &mach);
    int seen[2] = {0, 0};
    for (int k = 0; k < r.dag->n; k++) {
        int pp = strcmp(r.dag->kernels[k].name, "ping_ping") == 0;
        cr_expect_eq(r.dag->kernels[k].private_words, pp ? 3 * s + 2 * l - 1 + PP_CONTROL : 8 * s + 2 * l - 6 + PP_CONTROL);
        cr_expect_eq(model->kernels[k].private_words, 4 * s + 2 * l);
        seen[pp] = 1;
    }
    cr_expect(seen[0] && seen[1], "both kernels ran");
    kernel_dag_free(model);
    exec_result_free(&r);
}

/* ---- (d) the measured costs ------------------------------------------------------- */

/* Every block of every call but the last (which may end early) against
 * the ledger: S(B), W(B), the multiplications and additions, the words
 * moved by the UMM rule, α and β. */
static void expect_ledger(double n, double m, double s, double l)
{
    machine mach = test_preset("mcm");
    int w = mach.warp;
    exec_result r = run_euclid(n, m, s, l, 9, &mach);
    static call calls[4096];
    int n_calls = schedule((long)n, (long)(m ? m : n), (long)s, (long)l, calls, 4096);
    cr_assert_eq(r.dag->n, n_calls);
    thread_count *th = calloc((size_t)l, sizeof *th);
    for (int k = 0; k + 1 < n_calls; k++) {
        const kernel *K = &r.dag->kernels[k];
        long alpha = 0, beta = 0;
        for (long b = 0; b < K->blocks; b++) {
            if (calls[k].ping_ping)
                ping_ping_ledger(&calls[k], (long)s, (long)l, b, th);
            else
                ping_pong_ledger(&calls[k], (long)s, (long)l, b, th);
            block_figures f = figures(th, (long)l, w);
            const block_cost *c = kernel_block_cost(K, b);
            cr_expect_eq(c->span, f.span, "n %g s %g l %g, call %d (%s), block %ld: S(B) %g, ledger %g", n, s, l, k,
                         K->name, b, c->span, f.span);
            cr_expect_eq(c->work, f.work, "call %d block %ld: W(B) %g, ledger %g", k, b, c->work, f.work);
            cr_expect_eq(c->work_ops[OP_MULMOD], f.mul, "call %d block %ld: multiplications %g, ledger %g", k, b,
                         c->work_ops[OP_MULMOD], f.mul);
            cr_expect_eq(c->work_ops[OP_ADDMOD], f.add, "call %d block %ld: additions", k, b);
            cr_expect_eq(c->reads, f.reads, "call %d block %ld: reads %g, ledger %g", k, b, c->reads, f.reads);
            cr_expect_eq(c->writes, f.writes, "call %d block %ld: writes %g, ledger %g", k, b, c->writes, f.writes);
            alpha = f.alpha > alpha ? f.alpha : alpha;
            beta = f.beta > beta ? f.beta : beta;
        }
        cr_expect_eq(r.reports[k].alpha, (double)alpha, "call %d: α %g, ledger %ld", k, r.reports[k].alpha, alpha);
        cr_expect_eq(r.reports[k].beta, (double)beta, "call %d: β %g, ledger %ld", k, r.reports[k].beta, beta);
    }
    free(th);
    exec_result_free(&r);
}

Test(exec_euclid, every_block_measures_what_the_ledger_counts)
{
    expect_ledger(300, 0, 16, 32);   /* n = m: ping-pong calls, 2s − 1 <= ℓ */
    expect_ledger(300, 170, 16, 32); /* ping-ping, then ping-pong */
    expect_ledger(129, 0, 7, 16);    /* s odd: calls start at unequal degrees */
    expect_ledger(100, 40, 1, 8);    /* s = 1 */
    expect_ledger(200, 0, 40, 32);   /* 2s − 1 > ℓ: two head entries a thread */
}

/* ---- (e) against the model's declared costs --------------------------------------- */

Test(exec_euclid, ping_pong_at_the_papers_shape_against_the_worksheet)
{
    /* n = m, s even, 2s − 1 <= ℓ: every call is ping-pong and starts at
     * equal degrees, the steps alternate a, b, a, … so the partner shift
     * δ_k (the other polynomial's drop less the reduced one's) is k mod 2,
     * Σδ = s/2.  A block whose window lies inside both polynomials:
     *   W(B) = private accesses (loads 2(2s − 1) + 2(ℓ + 2s − 2) + 5,
     *          thread 0's chooses 14s − 1, the reduce steps' 5ℓs control
     *          reads and 3 per updated entry, the write step's 5ℓ)
     *        + 30 per updated entry (2 multiplications, 1 subtraction;
     *          Σ_k (4s + ℓ − 3 − 2δ_k) of them)
     *        = 35ℓs + 120s² − 98s + 7ℓ − 2,
     *   S(B) = thread 0's: 11 + (14s − 1) + 95s + 5 = 109s + 15,
     * where the worksheet has 9s²/4 + 9s/2 + 6ℓs and 3s (it counts 3
     * unit operations per coefficient, no private access and no choosing);
     *   multiplications 2Σ_k(4s + ℓ − 3 − 2δ_k), additions half of it: the
     * model's classes (every entry every step) less 4Σδ and 2Σδ;
     *   α = 11 (thread 0: the state's 5 words, its head offset and two
     * window offsets of a and b), β = 9 (block 0's thread 0: its owned
     * offset and head offset of both, the state's 5 words), the model's 6
     * and 2. */
    machine mach = test_preset("mcm");
    const double pts[][2] = {{16, 64}, {8, 32}, {2, 8}};
    for (size_t p = 0; p < sizeof pts / sizeof pts[0]; p++) {
        double n = 400, s = pts[p][0], l = pts[p][1];
        exec_result r = run_euclid(n, 0, s, l, 3, &mach);
        kernel_dag *model = build_builtin("euclid", point(n, 0, s, l), &mach);
        const kernel *K = &r.dag->kernels[0];
        const block_cost *declared = &model->kernels[0].cost, *c = kernel_block_cost(K, 1);
        cr_assert_str_eq(K->name, "ping_pong");
        cr_expect_eq(c->work, 35 * l * s + 120 * s * s - 98 * s + 7 * l - 2, "s %g ℓ %g: W(B) %g", s, l, c->work);
        cr_expect_eq(declared->work, 9 * s * s / 4 + 9 * s / 2 + 6 * l * s);
        cr_expect_eq(c->span, 109 * s + 15, "s %g ℓ %g: S(B) %g", s, l, c->span);
        cr_expect_eq(declared->span, 3 * s);
        double sum_delta = s / 2, entries = s * (4 * s + l - 3) - 2 * sum_delta;
        cr_expect_eq(c->work_ops[OP_MULMOD], 2 * entries);
        cr_expect_eq(c->work_ops[OP_ADDMOD], entries);
        cr_expect_eq(declared->work_ops[OP_MULMOD] - c->work_ops[OP_MULMOD], 4 * sum_delta);
        cr_expect_eq(declared->work_ops[OP_ADDMOD] - c->work_ops[OP_ADDMOD], 2 * sum_delta);
        cr_expect_eq(r.reports[0].alpha, 11);
        cr_expect_eq(r.reports[0].beta, 9);
        cr_expect_eq(declared->reads, 6);
        cr_expect_eq(declared->writes, 2);
        kernel_dag_free(model);
        exec_result_free(&r);
    }
}


Test(exec_euclid, ping_ping_against_the_worksheet)
{
    /* deg a − deg b >= s: every step of the call reduces a; step k
     * updates the s − k head entries at or below a's leading one and every
     * thread's window word.  A block whose words lie inside both
     * polynomials (s <= ℓ):
     *   W(B) = private accesses 7ℓs + 3s(s + 1)/2 + 17s + 5ℓ + 5
     *        + 11·(2ℓs + s(s + 1)/2 + 56) + 5·(ℓs + s(s + 1)/2)
     *        = 34ℓs + 9.5s(s + 1) + 17s + 5ℓ + 621
     *   (thread 0's lc(b)^−1: 56 multiplications, where model.c's classes
     *   count 57; each thread's factor lc(a)·lc(b)^−1 every step, ℓs);
     *   S(B) = max(48s + 649, 53s + 7): thread 0 (the inverse, the
     *   chooses) or thread s − 1 (its head entry updated every step);
     * where the worksheet has 3(s(s + 1)/2 + 2ℓs) and 3s;
     *   multiplications: the model's classes s(2ℓ + s) + 57 less
     *   s(s − 1)/2 + 1, additions s(s + ℓ) less s(s − 1)/2;
     *   α = 10 (the state, a head offset of a and b, the owned word of a,
     *   two words of b's window), β = 6 (block 0's thread 0: its owned
     *   word and the state). */
    machine mach = test_preset("mcm");
    const double pts[][4] = {{1000, 300, 16, 64}, {1000, 760, 200, 256}, {200, 60, 2, 8}};
    for (size_t p = 0; p < sizeof pts / sizeof pts[0]; p++) {
        double n = pts[p][0], m = pts[p][1], s = pts[p][2], l = pts[p][3];
        exec_result r = run_euclid(n, m, s, l, 3, &mach);
        kernel_dag *model = build_builtin("euclid", point(n, m, s, l), &mach);
        const kernel *K = &r.dag->kernels[0];
        const block_cost *declared = &model->kernels[0].cost, *c = kernel_block_cost(K, 1);
        cr_assert_str_eq(K->name, "ping_ping");
        cr_expect_eq(c->work, 34 * l * s + 9.5 * s * (s + 1) + 17 * s + 5 * l + 621, "point %zu: W(B) %g", p, c->work);
        cr_expect_eq(declared->work, 3 * (s * (s + 1) / 2 + 2 * l * s));
        cr_expect_eq(c->span, fmax(48 * s + 649, 53 * s + 7), "point %zu: S(B) %g", p, c->span);
        cr_expect_eq(declared->span, 3 * s);
        cr_expect_eq(declared->work_ops[OP_MULMOD] - c->work_ops[OP_MULMOD], s * (s - 1) / 2 + 1);
        cr_expect_eq(declared->work_ops[OP_ADDMOD] - c->work_ops[OP_ADDMOD], s * (s - 1) / 2);
        cr_expect_eq(r.reports[0].alpha, 10);
        cr_expect_eq(r.reports[0].beta, 6);
        kernel_dag_free(model);
        exec_result_free(&r);
    }
}

/* ---- (f) simulated time, and what is refused ----------------------------------------- */

Test(exec_euclid, simulated_within_theorem_1)
{
    machine mach = test_preset("mcm");
    const double pts[][4] = {{300, 0, 16, 32}, {200, 199, 1, 8}, {600, 0, 256, 256}};
    for (size_t i = 0; i < sizeof pts / sizeof pts[0]; i++) {
        exec_result r = run_euclid(pts[i][0], pts[i][1], pts[i][2], pts[i][3], 1, &mach);
        sim_result sr = simulate(r.dag, &mach);
        cr_expect_leq(sr.T, sr.bound_theorem1, "point %zu: T %g, Theorem 1 %g", i, sr.T, sr.bound_theorem1);
        cr_log_info("euclid exec point %zu: T %g, model-mode T %g", i, sr.T,
                    builtin_time("euclid", point(pts[i][0], pts[i][1], pts[i][2], pts[i][3]), &mach));
        sim_result_free(&sr);
        exec_result_free(&r);
    }
}

Test(exec_euclid, bad_params_and_a_small_z_are_refused)
{
    machine mach = test_preset("mcm");
    const char *why = case_exec_refuses("euclid", point(100, 200, 4, 8), &mach);
    cr_assert_not_null(why, "m > n accepted");
    cr_expect(strstr(why, "euclid: needs n >= m >= 1") != NULL, "%s", why);
    /* the ping-pong kernel's 8s + 2ℓ + 3 = 195 words do not fit Z = 100 */
    mach.z = 100;
    why = case_exec_refuses("euclid", point(200, 0, 16, 32), &mach);
    cr_assert_not_null(why, "Z = 100 accepted");
    cr_expect(strstr(why, "kernel 'ping_pong': declares 195 words of private memory, but Z = 100") != NULL, "%s",
              why);
}
