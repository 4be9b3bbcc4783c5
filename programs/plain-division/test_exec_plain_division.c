/*
 * test_exec_plain_division.c — plain division in exec mode (its kernels
 * written once, kernels.c): quotient and remainder against a = q·b + r, the
 * launches against the model's (model.c; one kernel fewer where s | m − n,
 * kernels.c says why), and every block's measured costs against an
 * independent count.
 *
 * The independent count: for every thread of a block, the global words it
 * reads and writes in each step, in order, and its operations, listed from
 * the algorithm as kernels.c's header states it; a step's k-th access of
 * the threads of a warp is one round, which costs one transaction per
 * distinct address group (array, ⌊cell/w⌋) it touches, and a block's
 * transfer is Σ transactions · min(w, ℓ)/ℓ words per thread (the UMM rule,
 * SPEC §3, counted here apart from sim/exec/exec.c).  Operations: 11 a Z/pZ
 * multiplication, 5 a subtraction, 1 a private-memory access (sim/exec/exec.h).
 * With ℓ a power of two every figure is a sum of powers of two: the
 * comparisons are exact.
 */
#include "helpers.h"
#include "program.h"

#include <math.h>

enum { ARRAY_R, ARRAY_B, ARRAY_Q };
#define MUL_OPS 11
#define SUB_OPS 5

/* {n, m, d, l, s}: m = 0 means n + d, l = 0 means 2s */
typedef struct division_point {
    double n, m, d, l, s;
} division_point;

static vars params_of(division_point p) { return test_params("n m d l s", p.n, p.m, p.d, p.l, p.s); }

static exec_result run_division(division_point p, uint64_t seed, machine *mach)
{
    mach->seed = seed;
    return run_case_exec("plain-division", params_of(p), mach);
}

/* ---- the independent count ------------------------------------------------ */

typedef struct block_expect {
    double span, work, reads, writes;
    long alpha, beta;
} block_expect;

/* Block `bid` of the launch whose top position is d, making `steps` steps,
 * b of degree n, ℓ threads; load and update hold ℓ traces each, for the
 * two steps with global accesses. */
static block_expect division_block(long n, long d, int steps, int l, long bid, int w, access_trace *load,
                                   access_trace *update)
{
    long low = n - steps - (bid * l + l - 1); /* b's window */
    block_expect x = {0};
    for (int t = 0; t < l; t++) {
        load[t] = update[t] = (access_trace){{0, 0}, {{0}}};
        double ops = 0;
        /* step 0: the leading coefficients, then b's window */
        if (t < steps) {
            trace_access(&load[t], 0, ARRAY_R, d - t, w);
            if (n - t >= 0)
                trace_access(&load[t], 0, ARRAY_B, n - t, w);
            ops += 2;
        }
        for (long k = t; k < l + steps - 1; k += l, ops++)
            if (low + k >= 0)
                trace_access(&load[t], 0, ARRAY_B, low + k, w);
        /* the quotient: thread 0 makes each factor (a private read, a
         * multiplication, a private write); thread t updates its leading
         * coefficient t times (3 private reads, a multiplication, a
         * subtraction, a private write) */
        if (t == 0)
            ops += steps * (2 + MUL_OPS);
        if (t < steps)
            ops += t * (4 + MUL_OPS + SUB_OPS);
        /* the last step: the lane's coefficient, a term per j with b's
         * index >= 0 (2 private reads, a multiplication, a subtraction) */
        long idx = bid * l + t, at = d - steps - idx;
        if (idx < n && at >= 0) {
            trace_access(&update[t], 0, ARRAY_R, at, w);
            for (int j = 0; j < steps; j++)
                if (n - steps - idx + j >= 0)
                    ops += 2 + MUL_OPS + SUB_OPS;
            trace_access(&update[t], 1, ARRAY_R, at, w);
        }
        if (bid == 0 && t < steps) {
            trace_access(&update[t], 1, ARRAY_Q, d - n - t, w);
            ops++;
        }
        x.span = fmax(x.span, ops);
        x.work += ops;
        long r = load[t].n[0] + update[t].n[0], v = load[t].n[1] + update[t].n[1];
        x.alpha = r > x.alpha ? r : x.alpha;
        x.beta = v > x.beta ? v : x.beta;
    }
    double unit = (double)(w < l ? w : l) / l;
    x.reads = (double)(trace_transactions(load, l, w, 0) + trace_transactions(update, l, w, 0)) * unit;
    x.writes = (double)(trace_transactions(load, l, w, 1) + trace_transactions(update, l, w, 1)) * unit;
    return x;
}

/* n, m, ℓ, s of a point, m = 0 and l = 0 resolved as the program does. */
static void resolve(division_point p, long *n, long *m, int *l, int *s)
{
    *n = (long)p.n;
    *m = p.m > 0 ? (long)p.m : (long)(p.n + p.d);
    *s = (int)p.s;
    *l = p.l > 0 ? (int)p.l : 2 * *s;
}

/* Every block of every launch against the count; α and β per launch. */
static void expect_counted(const exec_result *run, division_point p, int w)
{
    long n, m;
    int l, s;
    resolve(p, &n, &m, &l, &s);
    access_trace *load = malloc(sizeof *load * (size_t)l), *update = malloc(sizeof *update * (size_t)l);
    const kernel_dag *dag = run->dag;
    cr_assert_eq(dag->n, (m - n + s - 1) / s);
    for (int c = 0; c < dag->n; c++) {
        const kernel *k = &dag->kernels[c];
        long done = (long)c * s, alpha = 0, beta = 0;
        int steps = (int)(m - n - done < s ? m - n - done : s);
        for (long b = 0; b < k->blocks; b++) {
            block_expect e = division_block(n, m - 1 - done, steps, l, b, w, load, update);
            const block_cost *got = kernel_block_cost(k, b);
            cr_expect_eq(got->span, e.span, "launch %d block %ld: S(B) %g, counted %g", c, b, got->span, e.span);
            cr_expect_eq(got->work, e.work, "launch %d block %ld: W(B) %g, counted %g", c, b, got->work, e.work);
            cr_expect_eq(got->reads, e.reads, "launch %d block %ld: reads %g, counted %g", c, b, got->reads, e.reads);
            cr_expect_eq(got->writes, e.writes, "launch %d block %ld: writes %g, counted %g", c, b, got->writes,
                         e.writes);
            alpha = e.alpha > alpha ? e.alpha : alpha;
            beta = e.beta > beta ? e.beta : beta;
        }
        cr_expect_eq(run->reports[c].alpha, (double)alpha, "launch %d: α %g, counted %ld", c, run->reports[c].alpha,
                     alpha);
        cr_expect_eq(run->reports[c].beta, (double)beta, "launch %d: β %g, counted %ld", c, run->reports[c].beta,
                     beta);
    }
    free(load);
    free(update);
}

/* ---- (a) quotient and remainder --------------------------------------------- */

static const division_point result_points[] = {
    {2000, 2500, 0, 32, 16}, {1001, 0, 333, 12, 5}, {37, 57, 0, 0, 1}, {250, 600, 0, 0, 7},
    {1, 11, 0, 0, 3},        {99, 100, 0, 5, 4},    {300, 0, 299, 31, 9}, {5, 100, 0, 64, 64}};

Test(exec_plain_division, quotient_and_remainder_satisfy_a_equals_qb_plus_r)
{
    /* m = 0 (m = n + d), ℓ = 0 (2s) or not, s = 1, b of degree 1, one
     * step in all (m − n = 1), s above the divisor's degree; the check
     * returns -1 naming the first coefficient where q·b + r is not a */
    machine mach = test_preset("mcm");
    for (size_t i = 0; i < sizeof result_points / sizeof *result_points; i++)
        for (uint64_t seed = 1; seed <= 2; seed++) {
            exec_result r = run_division(result_points[i], seed * 7919, &mach);
            exec_result_free(&r);
        }
}

/* ---- (b) the launches against the model ------------------------------------- */

Test(exec_plain_division, one_launch_fewer_than_the_model_exactly_where_s_divides_m_minus_n)
{
    /* ⌈(m − n)/s⌉ launches against model.c's ⌈(m − n + 1)/s⌉; the same
     * grids and threads; private memory 5s + ℓ against model.c's 3s + 2ℓ,
     * equal at ℓ = 2s.  m − n = 500 and 2000 as on the card, a smaller n. */
    machine mach = test_preset("mcm");
    const division_point points[] = {{200, 700, 0, 0, 1},   {200, 700, 0, 0, 16}, {200, 2200, 0, 0, 16},
                                     {200, 2200, 0, 0, 128}, {1001, 0, 333, 12, 5}, {99, 100, 0, 5, 4}};
    for (size_t i = 0; i < sizeof points / sizeof *points; i++) {
        long n, m;
        int l, s;
        resolve(points[i], &n, &m, &l, &s);
        exec_result run = run_division(points[i], 1, &mach);
        kernel_dag *model = build_builtin("plain-division", params_of(points[i]), &mach);
        const kernel_dag *dag = run.dag;
        cr_expect_eq(dag->n, (m - n + s - 1) / s, "point %zu: %d launches", i, dag->n);
        cr_expect_eq(model->n, (m - n + s) / s, "point %zu: model %d kernels", i, model->n);
        cr_expect_eq(model->n - dag->n, (m - n) % s == 0, "point %zu: m − n = %ld, s = %d", i, m - n, s);
        for (int c = 0; c < dag->n; c++) {
            const kernel *e = &dag->kernels[c], *d = &model->kernels[c];
            cr_expect(same_kernel_name(e->name, d->name), "%s, %s", e->name, d->name);
            cr_expect_eq(e->blocks, d->blocks, "point %zu, %s", i, d->name);
            cr_expect_eq(e->threads, d->threads);
            cr_expect_eq(e->private_words, 5.0 * s + l, "point %zu: private words %g", i, e->private_words);
            cr_expect_eq(d->private_words, 3.0 * s + 2.0 * l);
        }
        kernel_dag_free(model);
        exec_result_free(&run);
    }
}

/* ---- (c) every block's costs ----------------------------------------------- */

Test(exec_plain_division, every_block_measures_its_counted_costs)
{
    const division_point points[] = {{2000, 2500, 0, 32, 16}, {250, 600, 0, 0, 8}, {37, 57, 0, 0, 1},
                                     {5, 100, 0, 64, 64},     {300, 0, 299, 32, 9}};
    machine mach = test_preset("mcm");
    for (size_t i = 0; i < sizeof points / sizeof *points; i++) {
        exec_result run = run_division(points[i], 3, &mach);
        expect_counted(&run, points[i], mach.warp);
        exec_result_free(&run);
    }
}

Test(exec_plain_division, the_card_point_n_2000_m_2500_s_16_against_the_declared_costs)
{
    /* ℓ = 32 = w: one warp a block, a group one word a thread.  In the
     * first launch (top position 2499, 16 steps) a block's step 0 reads
     * r[2499 − t] (t < 16: 2 groups) beside its window's b[1953 − 32b + t]
     * (t >= 16: 2 groups), then b[2000 − t] (1), the window's words t and
     * t + 32 (1 and 1); its last step reads and writes its 32 lanes'
     * coefficients, descending across a group boundary (2 and 2), and
     * block 0 writes q[484 .. 499] (1): O(B) = 11U, 12U in block 0,
     * against the declared 7U; α = 5 and β = 2 as declared.  Thread 15
     * makes S(B) = 38s − 17 = 591 (15 updates of 20, 16 terms of 18 and 3
     * private writes; in block 0 one private read more, for its quotient
     * coefficient: 592), against the declared 6s − 3 = 93. */
    machine mach = test_preset("mcm");
    const division_point p = {2000, 2500, 0, 32, 16};
    double U = mach.u, s = 16;
    exec_result run = run_division(p, 4, &mach);
    kernel_dag *model = build_builtin("plain-division", params_of(p), &mach);
    const kernel *first = &run.dag->kernels[0];
    cr_expect_eq(block_overhead(&model->kernels[0], U), 7 * U);
    cr_expect_eq(model->kernels[0].cost.span, 6 * s - 3);
    for (long b = 0; b < 60; b++) {
        const block_cost *c = kernel_block_cost(first, b);
        cr_expect_eq(c->reads, 9, "block %ld: reads %g", b, c->reads);
        cr_expect_eq(c->writes, b == 0 ? 3 : 2, "block %ld: writes %g", b, c->writes);
        cr_expect_eq(c->span, 38 * s - 17 + (b == 0), "block %ld: S(B) %g", b, c->span);
    }
    cr_expect_eq(run.reports[0].alpha, model->kernels[0].cost.reads);
    cr_expect_eq(run.reports[0].beta, model->kernels[0].cost.writes);
    kernel_dag_free(model);
    exec_result_free(&run);
}

/* ---- (d) simulated time ------------------------------------------------------ */

Test(exec_plain_division, simulated_time_within_theorem_1_and_linear_in_m_minus_n)
{
    /* The conclusion, with measured costs.  n = 200, s = 16, ℓ = 32:
     * m − n = 160, 320, ..., 2560, 10 to 160 launches of 7 blocks, which
     * run in one round on P = 16; a launch's top moves 16 words, so its
     * rounds meet the address groups alike two launches apart: T is the
     * same per unit of m − n at every point, exactly. */
    machine mach = test_preset("mcm");
    double per_unit = 0;
    for (double d = 160; d <= 2560; d *= 2) {
        division_point p = {200, 0, d, 32, 16};
        exec_result run = run_division(p, 5, &mach);
        sim_result r = simulate(run.dag, &mach);
        cr_expect_leq(r.T, r.bound_theorem1, "m − n = %g: T %g, Theorem 1 %g", d, r.T, r.bound_theorem1);
        if (per_unit == 0)
            per_unit = r.T / d;
        cr_expect_eq(r.T, per_unit * d, "m − n = %g: T %g", d, r.T);
        cr_log_info("plain-division n = 200, m − n = %g, s = 16: T exec %g (%.3f a unit of m − n), model %g", d, r.T,
                    r.T / d, builtin_time("plain-division", params_of(p), &mach));
        sim_result_free(&r);
        exec_result_free(&run);
    }
}

/* ---- (e) what the kernels refuse ------------------------------------------- */

Test(exec_plain_division, refuses_m_not_above_n_and_s_above_l)
{
    machine mach = test_preset("mcm");
    const division_point bad[] = {{100, 100, 0, 0, 4}, {100, 200, 0, 8, 16}, {100.5, 200, 0, 0, 4}};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        const char *why = case_exec_refuses("plain-division", params_of(bad[i]), &mach);
        cr_assert_not_null(why, "point %zu was accepted", i);
        cr_expect(strstr(why, "needs whole m > n >= 1 and 1 <= s <= l") != NULL, "%s", why);
    }
}
