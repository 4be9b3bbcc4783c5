/*
 * test_dmm_umm.c — the DMM and the UMM of the DMM/UMM chapter (Nakano et
 * al., dmm-umm-chapter.txt; SPEC §3; sim/model/dmm_umm.c), their built-in
 * programs (dmm-example, contiguous, and the access hooks of sum,
 * prefix-naive, prefix-optimal) and the mcmsim command on such machines.
 *
 * What is checked, and how each check could fail:
 *   - Figure 3: 7 units on the DMM, 9 on the UMM (p = 8, w = 4, l = 5):
 *     fails if a rule of the timing (bank or group costs, the l − 1 after
 *     the last injection) is off.
 *   - The rules one by one on tiny programs (a thread waits for its
 *     previous request, warps without requests are skipped, a warp waits
 *     for its own conflicting requests, barriers add up).
 *   - Lemma 1 exactly, on a grid that covers both regimes (p/w <= l and
 *     p/w > l) with the boundary, on both machines.  The lemma's exact
 *     formulas assume w | p and p | n; beyond them (and for n < p, which
 *     the lemma covers only as O(n/w + l)) we check our ⌈⌉ form, exact on
 *     the DMM, and that the UMM pays for rounds off a group boundary.
 *   - DMM bank conflicts against UMM address groups on hand-made warps
 *     (row, column, diagonal, misaligned, broadcast), and on random warps
 *     that a dispatch never costs more on the DMM than on the UMM.
 *   - The sum, the naive and the optimal prefix sums:
 *       exact: the sum's time is Σ over its memory access operations of
 *       Lemma 1 (the chapter's own analysis, lines 95–103), and so is the
 *       naive scan's on the DMM (lines 140–147); for n <= w (one warp) all
 *       three are pure latency: 3l, 3l and 6l per level (Fig. 8's "l log n"
 *       and "more than 2 l log n");
 *       Theorem 2 (lower bounds): T >= n/w, nl/p and l log n for all three;
 *       Theorems 1 and 3 (O(n/w + nl/p + l log n)): T/B stays within a
 *       factor 3 as n goes 2^6 … 2^16 for the sum and the optimal scan,
 *       while the naive scan's T/B grows by more (its log n factor,
 *       Lemma 2);
 *       growth: in the regime where one term of B is >= 95 % of it,
 *       doubling that term's variable doubles (or halves) T within 5 %
 *       (and the naive scan's T grows by 2(m+1)/m when n = 2^m doubles);
 *       these fail if a cost (bandwidth, latency, or a step) is missing or
 *       counted twice;
 *       the chapter's conclusion: the optimal scan is slower than the
 *       naive one for small n and faster for large n.
 *   - The command: the run files' numbers, --set and sweeps over kind, w,
 *     l, p, and one clear error (non-zero exit, nothing on stdout) for bad
 *     machine values and for programs that have no memory accesses.
 */
#include "helpers.h"
#include "program.h"

#include <cjson/cJSON.h>
#include <math.h>

/* ---- helpers ---------------------------------------------------------- */

static machine dmm_machine(machine_kind kind, int p, int w, int l)
{
    machine m;
    machine_defaults(&m);
    m.kind = kind;
    m.p = p;
    m.warp = w;
    m.latency = l;
    return m;
}

static dmm_result run_hook(access_hook hook, vars params, const machine *m)
{
    dmm_result r;
    cr_assert_eq(dmm_umm_run(hook, &params, m, &r), 0, "%s", fail_message());
    return r;
}

static double hook_time(access_hook hook, vars params, const machine *m)
{
    dmm_result r = run_hook(hook, params, m);
    double t = r.total.time;
    dmm_result_free(&r);
    return t;
}

/* The time of built-in `program` at n on a machine. */
static double program_time(const char *program, double n, machine_kind kind, int p, int w, int l)
{
    machine m = dmm_machine(kind, p, w, l);
    const builtin_program *b = test_builtin(program);
    cr_assert_not_null(b->accesses, "%s has no access hook", program);
    return hook_time(b->accesses, test_params("n l", n, 256), &m);
}

static double contiguous_time(double n, machine_kind kind, int p, int w, int l)
{
    machine m = dmm_machine(kind, p, w, l);
    return hook_time(test_builtin("contiguous")->accesses, test_params("n p", n, 0), &m);
}

/* Lemma 1 as the chapter writes it (lines 67–71), for w | p and p | n. */
static double chapter_lemma1(double n, double p, double w, double l)
{
    return p / w <= l ? n * l / p + p / w - 1 : n / w + l - 1;
}

/* Our ⌈⌉ form of Lemma 1 for any n, p, w (re-derived here, not taken from
 * the library): ⌈n/p⌉ rounds; every round but the last takes max(l, q)
 * units (q = ⌈p/w⌉ warps: the first warp's requests must complete, l, and
 * every warp must inject, q); the last takes l + q' − 1, q' its warps. */
static double ceil_lemma1(double n, double p, double w, double l)
{
    double rounds = ceil(n / p), q = ceil(p / w), last = ceil((n - (rounds - 1) * p) / w);
    return (rounds - 1) * (q > l ? q : l) + l + last - 1;
}

/* A hand-made access program: `n` requests (thread, cell) in one step,
 * or several steps separated by a thread of -1. */
static struct {
    int n;
    int thread[64];
    long cell[64];
} pattern;

static int pattern_hook(const vars *params, const machine *m, access_program *out)
{
    (void)params;
    (void)m;
    for (int i = 0; i < pattern.n; i++) {
        int rc =
            pattern.thread[i] < 0 ? access_barrier(out) : access_request(out, pattern.thread[i], pattern.cell[i]);
        if (rc < 0)
            return -1;
    }
    return 0;
}

static void set_pattern(int n, const int *thread, const long *cell)
{
    cr_assert_leq(n, 64);
    pattern.n = n;
    memcpy(pattern.thread, thread, (size_t)n * sizeof *thread);
    memcpy(pattern.cell, cell, (size_t)n * sizeof *cell);
}

static dmm_result run_pattern(machine_kind kind, int p, int w, int l)
{
    machine m = dmm_machine(kind, p, w, l);
    vars none = {0};
    vars_clear(&none);
    return run_hook(pattern_hook, none, &m);
}

/* ---- Figure 3 ------------------------------------------------------------ */

Test(dmm_umm, figure_3_takes_7_units_on_the_dmm_and_9_on_the_umm)
{
    vars none = {0};
    vars_clear(&none);
    access_hook figure3 = test_builtin("dmm-example")->accesses;
    machine dmm = dmm_machine(KIND_DMM, 8, 4, 5), umm = dmm_machine(KIND_UMM, 8, 4, 5);
    dmm_result d = run_hook(figure3, none, &dmm), u = run_hook(figure3, none, &umm);
    cr_expect_eq(d.total.time, 7, "DMM: 2 + 1 + 4 = 7 (chapter line 50), simulated %g", d.total.time);
    cr_expect_eq(u.total.time, 9, "UMM: 3 + 2 + 4 = 9 (chapter line 54), simulated %g", u.total.time);
    cr_expect_eq(d.total.injection_units, 3, "DMM: W(0) 2 units (m[7], m[15] in bank 3), W(1) 1");
    cr_expect_eq(u.total.injection_units, 5, "UMM: W(0) 3 address groups, W(1) 2");
    cr_expect_eq(d.total.dispatches, 2);
    cr_expect_eq(d.total.requests, 8);
    cr_expect_eq(d.total.idle_units, 0);
    cr_expect_str_eq(d.bound.name, "Figure 3");
    cr_expect_eq(d.bound.value, d.total.time);
    dmm_result_free(&d);
    dmm_result_free(&u);
    /* Other latencies only move the l − 1 at the end. */
    const int latencies[] = {1, 2, 10, 100};
    for (int i = 0; i < 4; i++) {
        dmm = dmm_machine(KIND_DMM, 8, 4, latencies[i]);
        umm = dmm_machine(KIND_UMM, 8, 4, latencies[i]);
        cr_expect_eq(hook_time(figure3, none, &dmm), 3 + latencies[i] - 1, "DMM, l = %d", latencies[i]);
        cr_expect_eq(hook_time(figure3, none, &umm), 5 + latencies[i] - 1, "UMM, l = %d", latencies[i]);
    }
}

Test(dmm_umm, figure_3_needs_eight_threads)
{
    vars none = {0};
    vars_clear(&none);
    machine m = dmm_machine(KIND_DMM, 4, 4, 5);
    dmm_result r;
    cr_expect_eq(dmm_umm_run(test_builtin("dmm-example")->accesses, &none, &m, &r), -1);
    cr_expect(strstr(fail_message(), "8 threads") != NULL, "%s", fail_message());
}

/* ---- the rules, one by one ---------------------------------------------- */

Test(dmm_umm, a_thread_waits_for_its_previous_request)
{
    /* One thread, three requests: injected at 1, l + 1, 2l + 1; the last
     * completes at 3l ("it must wait l time units", line 41). */
    set_pattern(3, (const int[]){0, 0, 0}, (const long[]){0, 1, 2});
    for (int l = 1; l <= 8; l *= 2) {
        dmm_result r = run_pattern(KIND_DMM, 1, 4, l);
        cr_expect_eq(r.total.time, 3 * l, "l = %d: %g", l, r.total.time);
        cr_expect_eq(r.total.idle_units, 2 * (l - 1), "l = %d", l);
        dmm_result_free(&r);
    }
}

Test(dmm_umm, warps_without_requests_are_skipped)
{
    /* p = 12, w = 4: W(0) and W(2) send, W(1) has nothing: W(2) injects at
     * unit 2, completes at 2 + l − 1 (line 41: "such warp ... is skipped"). */
    set_pattern(8, (const int[]){0, 1, 2, 3, 8, 9, 10, 11}, (const long[]){0, 1, 2, 3, 8, 9, 10, 11});
    dmm_result r = run_pattern(KIND_DMM, 12, 4, 5);
    cr_expect_eq(r.total.time, 2 + 5 - 1, "%g", r.total.time);
    cr_expect_eq(r.total.idle_units, 0);
    dmm_result_free(&r);
}

Test(dmm_umm, a_warp_waits_for_all_its_requests)
{
    /* W(0) = T0..T3 (w = 4).  Round 0: T0 and T1 ask m[0] and m[4], both
     * in bank 0: 2 units (1 and 2), the last completes at 2 + l − 1.  Round
     * 1 (m[1], m[2]) starts the unit after: 2 + l, and completes at 2l + 1.
     * On the UMM m[0], m[4] are 2 groups too: the same. */
    set_pattern(4, (const int[]){0, 1, 0, 1}, (const long[]){0, 4, 1, 2});
    for (int kind = KIND_DMM; kind <= KIND_UMM; kind++) {
        dmm_result r = run_pattern(kind, 4, 4, 5);
        cr_expect_eq(r.total.time, 2 * 5 + 1, "%s: %g", kind == KIND_DMM ? "DMM" : "UMM", r.total.time);
        cr_expect_eq(r.total.dispatches, 2);
        cr_expect_eq(r.total.injection_units, 3);
        dmm_result_free(&r);
    }
}

Test(dmm_umm, steps_add_up)
{
    /* Figure 3 twice, with a barrier between: 7 + 7 on the DMM. */
    const int t[] = {0, 1, 2, 3, 4, 5, 6, 7, -1, 0, 1, 2, 3, 4, 5, 6, 7};
    const long c[] = {7, 5, 15, 0, 10, 11, 12, 9, 0, 7, 5, 15, 0, 10, 11, 12, 9};
    set_pattern(17, t, c);
    dmm_result r = run_pattern(KIND_DMM, 8, 4, 5);
    cr_expect_eq(r.n_steps, 2);
    cr_expect_eq(r.total.time, 14, "%g", r.total.time);
    cr_expect_eq(r.steps[0].time, 7);
    cr_expect_eq(r.steps[1].time, 7);
    dmm_result_free(&r);
}

Test(dmm_umm, bad_requests_are_refused)
{
    set_pattern(1, (const int[]){8}, (const long[]){0});
    machine m = dmm_machine(KIND_DMM, 8, 4, 5);
    vars none = {0};
    vars_clear(&none);
    dmm_result r;
    cr_expect_eq(dmm_umm_run(pattern_hook, &none, &m, &r), -1);
    cr_expect(strstr(fail_message(), "thread 8 does not exist") != NULL, "%s", fail_message());
    set_pattern(1, (const int[]){0}, (const long[]){-3});
    cr_expect_eq(dmm_umm_run(pattern_hook, &none, &m, &r), -1);
    cr_expect(strstr(fail_message(), "cell -3") != NULL, "%s", fail_message());
    m.latency = 0;
    set_pattern(1, (const int[]){0}, (const long[]){0});
    cr_expect_eq(dmm_umm_run(pattern_hook, &none, &m, &r), -1);
    cr_expect(strstr(fail_message(), "l = 0") != NULL, "%s", fail_message());
}

/* ---- Lemma 1 -------------------------------------------------------------- */

Test(dmm_umm, lemma_1_exact_in_both_regimes)
{
    const int widths[] = {1, 4, 32};
    const int warps[] = {1, 2, 3, 5, 8, 16, 64}; /* p/w */
    const int latencies[] = {1, 2, 5, 8, 16, 64};
    const int rounds[] = {1, 2, 7, 32}; /* n/p */
    int case1 = 0, case2 = 0, boundary = 0;
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 7; b++)
            for (int c = 0; c < 6; c++)
                for (int d = 0; d < 4; d++) {
                    int w = widths[a], p = w * warps[b], l = latencies[c];
                    double n = (double)p * rounds[d], expected = chapter_lemma1(n, p, w, l);
                    double dmm = contiguous_time(n, KIND_DMM, p, w, l),
                           umm = contiguous_time(n, KIND_UMM, p, w, l);
                    cr_expect_eq(dmm, expected, "DMM n = %g, p = %d, w = %d, l = %d: %g, Lemma 1 %g", n, p, w, l,
                                 dmm, expected);
                    cr_expect_eq(umm, expected, "UMM n = %g, p = %d, w = %d, l = %d: %g, Lemma 1 %g", n, p, w, l,
                                 umm, expected);
                    case1 += p / w < l;
                    case2 += p / w > l;
                    boundary += p / w == l;
                }
    cr_log_info("Lemma 1: %d points with p/w < l, %d with p/w = l, %d with p/w > l", case1, boundary, case2);
    cr_expect_gt(case1, 100);
    cr_expect_gt(case2, 100);
    cr_expect_gt(boundary, 10);
}

Test(dmm_umm, lemma_1_beyond_divisible_sizes)
{
    /* The chapter's exact formulas need w | p and p | n; Lemma 1 itself is
     * O(n/w + nl/p + l), and for n < p, O(n/w + l) with n of the threads
     * (line 77).  Our ⌈⌉ form is exact on the DMM for any sizes. */
    int checked = 0;
    for (int w = 1; w <= 8; w++)
        for (int p = 1; p <= 20; p += 3)
            for (int l = 1; l <= 9; l += 4)
                for (double n = 1; n <= 70; n += 7) {
                    double dmm = contiguous_time(n, KIND_DMM, p, w, l),
                           umm = contiguous_time(n, KIND_UMM, p, w, l);
                    cr_expect_eq(dmm, ceil_lemma1(n, p, w, l), "DMM n = %g, p = %d, w = %d, l = %d: %g vs %g", n,
                                 p, w, l, dmm, ceil_lemma1(n, p, w, l));
                    cr_expect_eq(dmm, lemma1_time(n, p, w, l), "the library's lemma1_time agrees");
                    if (p % w == 0 || n <= p) /* every round starts on a group boundary */
                        cr_expect_eq(umm, dmm, "UMM n = %g, p = %d, w = %d, l = %d: %g vs %g", n, p, w, l, umm,
                                     dmm);
                    else
                        cr_expect_geq(umm, dmm, "UMM n = %g, p = %d, w = %d", n, p, w);
                    if (n < p)
                        cr_expect_eq(dmm, ceil(n / w) + l - 1, "n < p: n of the threads, ⌈n/w⌉ + l − 1");
                    checked++;
                }
    cr_log_info("Lemma 1, ⌈⌉ form: %d points", checked);
    /* p = 6, w = 4: round 1 is cells 6..11; W(0) asks 6..9, two groups. */
    cr_expect_gt(contiguous_time(24, KIND_UMM, 6, 4, 1), contiguous_time(24, KIND_DMM, 6, 4, 1));
}

/* ---- bank conflicts against address groups --------------------------------- */

/* One warp of w = 4 threads asking `cells`; its cost on each machine. */
static void one_warp(const long cells[4], long dmm_cost, long umm_cost, const char *what)
{
    set_pattern(4, (const int[]){0, 1, 2, 3}, cells);
    const int l = 3;
    dmm_result d = run_pattern(KIND_DMM, 4, 4, l), u = run_pattern(KIND_UMM, 4, 4, l);
    cr_expect_eq(d.total.injection_units, dmm_cost, "%s: DMM cost %ld, expected %ld", what,
                 d.total.injection_units, dmm_cost);
    cr_expect_eq(u.total.injection_units, umm_cost, "%s: UMM cost %ld, expected %ld", what,
                 u.total.injection_units, umm_cost);
    cr_expect_eq(d.total.time, dmm_cost + l - 1, "%s: DMM time", what);
    cr_expect_eq(u.total.time, umm_cost + l - 1, "%s: UMM time", what);
    dmm_result_free(&d);
    dmm_result_free(&u);
}

Test(dmm_umm, bank_conflicts_against_address_groups)
{
    /* A 4 × 4 matrix in cells 0..15, row-major, w = 4 (Fig. 2's banks and
     * groups). */
    one_warp((const long[]){4, 5, 6, 7}, 1, 1, "a row (one group, four banks)");
    one_warp((const long[]){1, 5, 9, 13}, 4, 4, "a column (one bank, four groups)");
    one_warp((const long[]){0, 5, 10, 15}, 1, 4, "the diagonal (four banks, four groups)");
    one_warp((const long[]){2, 3, 4, 5}, 1, 2, "a row off the group boundary");
    one_warp((const long[]){6, 6, 6, 6}, 1, 1, "one cell, four times (a broadcast)");
    one_warp((const long[]){3, 7, 8, 9}, 2, 3, "bank 3 twice, groups 0, 1, 2");
}

Test(dmm_umm, a_dispatch_never_costs_more_on_the_dmm)
{
    /* Distinct cells of one bank lie in distinct groups, so the DMM cost of
     * a warp is at most its UMM cost ("the UMM is less powerful", line 22). */
    unsigned seed = 12345;
    int differ = 0;
    for (int trial = 0; trial < 500; trial++) {
        long cells[8];
        for (int i = 0; i < 8; i++) {
            seed = seed * 1103515245u + 12345u;
            cells[i] = (seed >> 8) % 40;
        }
        set_pattern(8, (const int[]){0, 1, 2, 3, 4, 5, 6, 7}, cells);
        dmm_result d = run_pattern(KIND_DMM, 8, 8, 2), u = run_pattern(KIND_UMM, 8, 8, 2);
        cr_expect_leq(d.total.injection_units, u.total.injection_units, "trial %d", trial);
        differ += d.total.injection_units < u.total.injection_units;
        dmm_result_free(&d);
        dmm_result_free(&u);
    }
    cr_expect_gt(differ, 100, "random warps: the UMM should often cost more (%d of 500)", differ);
}

/* ---- the sum and the prefix sums: exact where the chapter's analysis is ---- */

/* Σ over the sum's levels of 3·Lemma 1 (lines 95–103): reading a[0 ..
 * pairs − 1], reading a[⌈L/2⌉ ..], writing a[0 .. pairs − 1]. */
static double sum_by_lemma1(double n, int p, int w, int l)
{
    double t = 0;
    for (double left = n; left > 1; left = ceil(left / 2))
        t += 3 * ceil_lemma1(floor(left / 2), p, w, l);
    return t;
}

/* Σ over the naive scan's steps of 3·Lemma 1 of n − 2^t cells (line 147). */
static double naive_by_lemma1(double n, int p, int w, int l)
{
    double t = 0;
    for (double d = 1; d < n; d *= 2)
        t += 3 * ceil_lemma1(n - d, p, w, l);
    return t;
}

static const int machines_pwl[][3] = {{1, 1, 1},     {4, 4, 5},    {8, 4, 1},    {64, 4, 64}, {256, 32, 8},
                                      {4096, 32, 4}, {32, 32, 16}, {1024, 4, 2}, {48, 16, 2}};

Test(dmm_umm, sum_is_three_lemma_1_accesses_per_level)
{
    for (size_t c = 0; c < sizeof machines_pwl / sizeof *machines_pwl; c++) {
        int p = machines_pwl[c][0], w = machines_pwl[c][1], l = machines_pwl[c][2];
        for (int e = 1; e <= 13; e += 3) {
            double n = exp2(e), expected = sum_by_lemma1(n, p, w, l);
            cr_expect_eq(program_time("sum", n, KIND_DMM, p, w, l), expected, "DMM n = %g, p = %d, w = %d, l = %d",
                         n, p, w, l);
            cr_expect_eq(program_time("sum", n, KIND_UMM, p, w, l), expected, "UMM n = %g, p = %d, w = %d, l = %d",
                         n, p, w, l);
        }
        /* any n, on the DMM (the UMM may pay for a[⌈L/2⌉ ..] off a group boundary) */
        cr_expect_eq(program_time("sum", 1000, KIND_DMM, p, w, l), sum_by_lemma1(1000, p, w, l), "DMM n = 1000");
    }
    cr_expect_eq(program_time("sum", 4096, KIND_DMM, 24, 3, 7), sum_by_lemma1(4096, 24, 3, 7), "w = 3");
}

Test(dmm_umm, naive_scan_is_three_lemma_1_accesses_per_step_on_the_dmm)
{
    for (size_t c = 0; c < sizeof machines_pwl / sizeof *machines_pwl; c++) {
        int p = machines_pwl[c][0], w = machines_pwl[c][1], l = machines_pwl[c][2];
        const double sizes[] = {2, 16, 100, 1024, 3000};
        for (int i = 0; i < 5; i++) {
            double n = sizes[i];
            double dmm = program_time("prefix-naive", n, KIND_DMM, p, w, l);
            double umm = program_time("prefix-naive", n, KIND_UMM, p, w, l);
            cr_expect_eq(dmm, naive_by_lemma1(n, p, w, l), "DMM n = %g, p = %d, w = %d, l = %d", n, p, w, l);
            /* a[2^t ..] starts off a group boundary when w ∤ 2^t */
            cr_expect_geq(umm, dmm, "UMM n = %g, p = %d, w = %d, l = %d", n, p, w, l);
            if (w > 1 && n >= 1024 && p / w > l)
                cr_expect_gt(umm, dmm, "UMM n = %g, p = %d, w = %d, l = %d: misaligned, bandwidth-bound", n, p, w,
                             l);
        }
    }
}

Test(dmm_umm, one_warp_is_pure_latency)
{
    /* 2n <= w <= p: every memory access operation is one dispatch of cost
     * 1 (its cells, even every other one, lie in one address group and in
     * distinct banks), so l units.  Sum and naive: 3 per level; optimal: 6
     * per level less the empty read of a_1[2, ...] at t = 0 (Fig. 8: "the
     * optimal prefix-sum algorithm takes much more computing time, because
     * its latency overhead is more than 2 l log n"). */
    for (int e = 1; e <= 4; e++) {
        double n = exp2(e);
        for (int kind = KIND_DMM; kind <= KIND_UMM; kind++) {
            cr_expect_eq(program_time("sum", n, kind, 64, 32, 16), 3 * 16 * e, "sum n = %g", n);
            cr_expect_eq(program_time("prefix-naive", n, kind, 64, 32, 16), 3 * 16 * e, "naive n = %g", n);
            cr_expect_eq(program_time("prefix-optimal", n, kind, 64, 32, 16), 6 * 16 * e - 16, "optimal n = %g",
                         n);
        }
    }
}

/* ---- the theorems: lower bounds, Θ, growth -------------------------------- */

static double theorem_bound(double n, double p, double w, double l) { return n / w + n * l / p + l * log2(n); }

Test(dmm_umm, theorem_2_lower_bounds_hold)
{
    /* Bandwidth n/w, latency nl/p, reduction l log n (Theorem 2, constant 1:
     * every cell is read, a thread waits l per request, each level is a
     * step of at least l). */
    const char *programs[] = {"sum", "prefix-naive", "prefix-optimal"};
    for (size_t c = 0; c < sizeof machines_pwl / sizeof *machines_pwl; c++)
        for (int g = 0; g < 3; g++)
            for (int e = 2; e <= 14; e += 4) {
                int p = machines_pwl[c][0], w = machines_pwl[c][1], l = machines_pwl[c][2];
                double n = exp2(e), t = program_time(programs[g], n, KIND_UMM, p, w, l);
                double lower = fmax(n / w, fmax(n * l / p, l * log2(n)));
                cr_expect_geq(t, lower, "%s n = %g, p = %d, w = %d, l = %d: %g < %g", programs[g], n, p, w, l, t,
                              lower);
                /* observed, not a theorem: no dispatch costs more on the DMM */
                cr_expect_leq(program_time(programs[g], n, KIND_DMM, p, w, l), t, "DMM above UMM");
            }
}

/* Lemma 2's bound: n log n/w + nl log n/p + l log n. */
static double lemma2_bound(double n, double p, double w, double l) { return (n / w + n * l / p + l) * log2(n); }

/* max/min of T/B over n = 2^6 ... 2^16 for `program` at p, w, l; B is
 * Theorems 1 and 3's, or Lemma 2's. */
static double ratio_spread(const char *program, machine_kind kind, int p, int w, int l, int lemma2)
{
    double lo = INFINITY, hi = 0;
    for (int e = 6; e <= 16; e += 2) {
        double n = exp2(e), b = lemma2 ? lemma2_bound(n, p, w, l) : theorem_bound(n, p, w, l);
        double r = program_time(program, n, kind, p, w, l) / b;
        lo = fmin(lo, r);
        hi = fmax(hi, r);
    }
    return hi / lo;
}

Test(dmm_umm, theorems_1_and_3_hold_lemma_2_is_worse)
{
    /* T/B over 11 binades of n: bounded (within a factor 3) for the sum
     * (Theorem 1) and the optimal scan (Theorem 3), and for the naive
     * scan against its own bound (Lemma 2); the naive scan against
     * Theorem 3's B grows with log n, by more than 4 here. */
    const int configs[][3] = {{1024, 4, 2}, {64, 4, 64}, {256, 32, 8}, {4096, 32, 4}, {32, 32, 16}};
    for (int c = 0; c < 5; c++) {
        int p = configs[c][0], w = configs[c][1], l = configs[c][2];
        for (int kind = KIND_DMM; kind <= KIND_UMM; kind++) {
            double sum = ratio_spread("sum", kind, p, w, l, 0),
                   opt = ratio_spread("prefix-optimal", kind, p, w, l, 0);
            double naive = ratio_spread("prefix-naive", kind, p, w, l, 0);
            double naive_own = ratio_spread("prefix-naive", kind, p, w, l, 1);
            cr_log_info("p = %d, w = %d, l = %d, %s: spread of T/B: sum %.2f, optimal %.2f, naive %.2f "
                        "(against Lemma 2: %.2f)",
                        p, w, l, kind == KIND_DMM ? "DMM" : "UMM", sum, opt, naive, naive_own);
            cr_expect_leq(sum, 3, "sum: T/B not bounded (p = %d, w = %d, l = %d): %.2f", p, w, l, sum);
            cr_expect_leq(opt, 3, "optimal: T/B not bounded (p = %d, w = %d, l = %d): %.2f", p, w, l, opt);
            cr_expect_leq(naive_own, 3, "naive against Lemma 2 (p = %d, w = %d, l = %d): %.2f", p, w, l,
                          naive_own);
            cr_expect_geq(naive, 4, "naive against Theorem 3's B should grow (p = %d, w = %d, l = %d): %.2f", p, w,
                          l, naive);
        }
    }
}

/* T(after)/T(before) within 5 % of `expected`. */
static void expect_ratio(const char *program, const char *what, double before, double after, double expected)
{
    double ratio = after / before;
    cr_log_info("%s, %s: T ratio %.4f (expected %.4f)", program, what, ratio, expected);
    cr_expect(fabs(ratio / expected - 1) <= 0.05, "%s, %s: T ratio %.4f, expected %.4f ± 5 %%", program, what,
              ratio, expected);
}

Test(dmm_umm, growth_follows_the_dominant_term)
{
    /* Points where one term of B is >= 95 % of it:
     *   bandwidth n/w: p = 4096, w = 4, l = 2, n = 2^16 (99.6 %);
     *   latency nl/p:  p = 64, w = 32, l = 64 or 256, n = 2^16 (96 %, 97 %). */
    const char *programs[] = {"sum", "prefix-optimal", "prefix-naive"};
    const double n = 65536, m = 16;
    for (int g = 0; g < 3; g++) {
        const char *pr = programs[g];
        int naive = g == 2;
        for (int kind = KIND_DMM; kind <= KIND_UMM; kind++) {
            expect_ratio(pr, "bandwidth, n doubles", program_time(pr, n, kind, 4096, 4, 2),
                         program_time(pr, 2 * n, kind, 4096, 4, 2), naive ? 2 * (m + 1) / m : 2);
            expect_ratio(pr, "bandwidth, w doubles", program_time(pr, n, kind, 4096, 4, 2),
                         program_time(pr, n, kind, 4096, 8, 2), 0.5);
            expect_ratio(pr, "latency, n doubles", program_time(pr, n, kind, 64, 32, 64),
                         program_time(pr, 2 * n, kind, 64, 32, 64), naive ? 2 * (m + 1) / m : 2);
            expect_ratio(pr, "latency, l doubles", program_time(pr, n, kind, 64, 32, 64),
                         program_time(pr, n, kind, 64, 32, 128), 2);
            expect_ratio(pr, "latency, p doubles", program_time(pr, n, kind, 64, 32, 256),
                         program_time(pr, n, kind, 128, 32, 256), 0.5);
        }
    }
}

Test(dmm_umm, naive_scan_wins_for_small_n_and_loses_for_large_n)
{
    /* The chapter's Fig. 8 commentary (lines 203, 208): latency l log n
     * dominates for small n, where the optimal scan's 2 log n steps lose;
     * bandwidth n log n/w dominates the naive scan for large n. */
    const int p = 1024, w = 32, l = 32;
    int crossover = 0;
    for (int e = 2; e <= 16; e++) {
        double n = exp2(e), naive = program_time("prefix-naive", n, KIND_DMM, p, w, l);
        double optimal = program_time("prefix-optimal", n, KIND_DMM, p, w, l);
        cr_log_info("n = 2^%d: T(naive)/T(optimal) = %.3f", e, naive / optimal);
        if (!crossover && naive > optimal)
            crossover = e;
        if (crossover)
            cr_expect_gt(naive, optimal, "n = 2^%d: after the crossover at 2^%d the naive scan must lose", e,
                         crossover);
    }
    cr_expect_gt(crossover, 2, "the optimal scan must lose for the smallest n");
    cr_expect_lt(crossover, 16, "the naive scan must lose for large n");
    cr_expect_gt(program_time("prefix-naive", 65536, KIND_DMM, p, w, l) /
                     program_time("prefix-optimal", 65536, KIND_DMM, p, w, l),
                 3);
}

Test(dmm_umm, optimal_scan_needs_a_power_of_two)
{
    machine m = dmm_machine(KIND_DMM, 8, 4, 2);
    vars params = test_params("n l", 1000, 256);
    dmm_result r;
    cr_expect_eq(dmm_umm_run(test_builtin("prefix-optimal")->accesses, &params, &m, &r), -1);
    cr_expect(strstr(fail_message(), "power of two") != NULL, "%s", fail_message());
}

/* ---- machine fields ------------------------------------------------------- */

Test(dmm_umm, machine_fields_and_their_rules)
{
    machine m;
    machine_defaults(&m);
    cr_expect_eq(m.kind, KIND_MCM, "the default kind is the MCM");
    cr_expect_eq(machine_set_field(&m, "kind", "umm"), 1);
    cr_expect_eq(machine_set_field(&m, "w", "8"), 1);
    cr_expect_eq(machine_set_field(&m, "l", "7"), 1);
    cr_expect_eq(m.kind, KIND_UMM);
    cr_expect_eq(m.warp, 8, "w is warp");
    cr_expect_eq(m.latency, 7, "l is latency");
    cr_expect_eq(machine_validate(&m), 0, "%s", fail_message());
    cr_expect_eq(machine_set_field(&m, "latency", "0"), 1);
    cr_expect_eq(machine_validate(&m), -1);
    cr_expect(strstr(fail_message(), "l = 0") != NULL, "%s", fail_message());
    cr_expect_eq(machine_set_field(&m, "kind", "pram"), -1);
    cr_expect(strstr(fail_message(), "mcm, dmm, umm") != NULL, "%s", fail_message());
    cr_expect(strstr(machine_field_names(), "latency (or l)") != NULL, "%s", machine_field_names());
}

/* ---- the command -------------------------------------------------------- */

/* `mcmsim ARGS`: stdout into out, the exit status returned. */
static int run_stdout(char *out, size_t size, const char *args)
{
    return mcmsim_output("2>/dev/null", out, size, "%s", args);
}

/* Bad input: non-zero exit, nothing on stdout, one line on stderr with
 * every needle. */
static void refuse(const char *args, const char *const *needles)
{
    char out[4096], err[4096];
    cr_expect_neq(run_stdout(out, sizeof out, args), 0, "mcmsim %s: exit status 0", args);
    cr_expect_str_empty(out, "mcmsim %s printed: %s", args, out);
    mcmsim_output(MCMSIM_ERR_ONLY, err, sizeof err, "%s", args);
    size_t len = strlen(err);
    cr_expect(len > 0 && strchr(err, '\n') == err + len - 1, "mcmsim %s: not one line: %s", args, err);
    for (int i = 0; needles[i]; i++)
        cr_expect(strstr(err, needles[i]) != NULL, "mcmsim %s: '%s' not in: %s", args, needles[i], err);
}

#define REFUSE(args, ...) refuse(args, (const char *const[]){__VA_ARGS__, NULL})

/* A run file in programs/, as `run PATH` arguments plus `extra`. */
static const char *run_args(const char *file, const char *extra)
{
    static char args[1024];
    snprintf(args, sizeof args, "run %s/programs/%s %s", MCMSIM_DATADIR, file, extra);
    return args;
}

/* The CSV column `name` of row `row` (1 = the first data row) as a number. */
static double csv_value(const char *csv, int row, const char *name)
{
    char header[1024];
    size_t len = strcspn(csv, "\n");
    cr_assert_lt(len, sizeof header);
    memcpy(header, csv, len);
    header[len] = '\0';
    int column = -1, i = 0;
    for (char *tok = strtok(header, ","); tok; tok = strtok(NULL, ","), i++)
        if (strcmp(tok, name) == 0)
            column = i;
    cr_assert_geq(column, 0, "no column %s in %s", name, header);
    const char *line = csv;
    for (int r = 0; r < row; r++) {
        line = strchr(line, '\n');
        cr_assert_not_null(line, "no row %d", row);
        line++;
    }
    for (int c = 0; c < column; c++) { /* the formula column is quoted, without commas */
        line = strchr(line, ',');
        cr_assert_not_null(line);
        line++;
    }
    return strtod(line, NULL);
}

Test(dmm_umm_cli, figure_3_run_file)
{
    char out[8192];
    cr_assert_eq(run_stdout(out, sizeof out, run_args("dmm-umm.cfg", "--format csv")), 0, "%s", out);
    cr_expect(strstr(out, "dmm-example,") != NULL, "%s", out);
    cr_expect_eq(csv_value(out, 1, "T"), 7, "%s", out);
    cr_expect_eq(csv_value(out, 2, "T"), 9, "%s", out);
    cr_expect_eq(csv_value(out, 1, "formula_value"), 7);
    cr_expect_eq(csv_value(out, 2, "formula_value"), 9);
    cr_assert_eq(run_stdout(out, sizeof out, run_args("dmm-umm.cfg", "")), 0);
    cr_expect(strstr(out, "time in units") != NULL && strstr(out, "Figure 3") != NULL, "%s", out);
    /* w = 8: one warp of 8; banks: 7, 5, 7, 0, 2, 3, 4, 1 (cost 2);
     * groups 0, 0, 1, 0, 1, 1, 1, 1 (cost 2): 2 + 4 both.  No formula. */
    cr_assert_eq(run_stdout(out, sizeof out, run_args("dmm-umm.cfg", "--set w=8 --format csv")), 0, "%s", out);
    cr_expect_eq(csv_value(out, 1, "T"), 6, "%s", out);
    cr_expect_eq(csv_value(out, 2, "T"), 6, "%s", out);
    cr_expect(strstr(out, "Figure 3") == NULL, "%s", out);
    cr_assert_eq(run_stdout(out, sizeof out, run_args("dmm-umm.cfg", "--set kind=umm --set l=1 --format json")),
                 0);
    cJSON *doc = cJSON_Parse(out);
    cr_assert_not_null(doc, "%s", out);
    cr_expect_eq(cJSON_GetObjectItem(doc, "T")->valuedouble, 5, "3 + 2 + 0 on the UMM with l = 1");
    cr_expect_str_eq(cJSON_GetObjectItem(doc, "kind")->valuestring, "umm");
    cr_expect_eq(cJSON_GetObjectItem(doc, "l")->valuedouble, 1);
    cJSON_Delete(doc);
}

Test(dmm_umm_cli, contiguous_run_file_shows_both_regimes_of_lemma_1)
{
    char out[1 << 16];
    cr_assert_eq(run_stdout(out, sizeof out, run_args("contiguous.cfg", "--format json")), 0, "%s", out);
    cJSON *doc = cJSON_Parse(out);
    cr_assert_not_null(doc, "%s", out);
    int case1 = 0, case2 = 0;
    for (int i = 0; i < cJSON_GetArraySize(doc); i++) {
        cJSON *pt = cJSON_GetArrayItem(doc, i), *f = cJSON_GetObjectItem(pt, "formula");
        double T = cJSON_GetObjectItem(pt, "T")->valuedouble, p = cJSON_GetObjectItem(pt, "p")->valuedouble;
        double w = cJSON_GetObjectItem(pt, "w")->valuedouble, l = cJSON_GetObjectItem(pt, "l")->valuedouble;
        double n = cJSON_GetObjectItem(cJSON_GetObjectItem(pt, "params"), "n")->valuedouble;
        cr_assert_not_null(f);
        cr_expect_eq(T, chapter_lemma1(n, p, w, l), "p = %g: T = %g", p, T);
        cr_expect_eq(T, cJSON_GetObjectItem(f, "value")->valuedouble);
        cr_expect(cJSON_IsTrue(cJSON_GetObjectItem(f, "exact")));
        case1 += p / w <= l;
        case2 += p / w > l;
    }
    cJSON_Delete(doc);
    cr_expect_geq(case1, 2, "points with p/w <= l");
    cr_expect_geq(case2, 2, "points with p/w > l");
    /* The param p wins over the machine's p (32 in the file). */
    cr_assert_eq(run_stdout(out, sizeof out, run_args("contiguous.cfg", "--set p=64 --set n=640 --format csv")),
                 0);
    cr_expect_eq(csv_value(out, 1, "p"), 64, "%s", out);
    cr_expect_eq(csv_value(out, 1, "T"), chapter_lemma1(640, 64, 32, 16), "%s", out);
    /* Sweeps over kind, w, l through --set. */
    cr_assert_eq(run_stdout(out, sizeof out,
                            run_args("contiguous.cfg", "--set p=96 --set w=3 --set kind=umm "
                                                       "--set l=40 --set n=3840 --format csv")),
                 0);
    cr_expect_eq(csv_value(out, 1, "T"), chapter_lemma1(3840, 96, 3, 40), "%s", out);
    cr_expect(strstr(out, ",umm,96,3,40,") != NULL, "%s", out);
}

Test(dmm_umm_cli, sum_latency_is_set_by_name_where_l_is_a_param)
{
    /* sum's param l is ℓ (threads per block): --set l sets it, and the
     * machine's latency is `latency` (or machine.l). */
    char out[8192], args[1200];
    const char *sum = "--set program=sum --set n=4096 --set kind=dmm --format csv";
    snprintf(args, sizeof args, "%s", run_args("dmm-umm.cfg", sum));
    cr_assert_eq(run_stdout(out, sizeof out, args), 0, "%s", out);
    double t5 = csv_value(out, 1, "T");
    cr_expect_eq(t5, sum_by_lemma1(4096, 8, 4, 5), "%s", out);
    snprintf(args, sizeof args, "%s --set latency=10", run_args("dmm-umm.cfg", sum));
    cr_assert_eq(run_stdout(out, sizeof out, args), 0, "%s", out);
    cr_expect_eq(csv_value(out, 1, "T"), sum_by_lemma1(4096, 8, 4, 10), "%s", out);
    snprintf(args, sizeof args, "%s --set machine.l=10", run_args("dmm-umm.cfg", sum));
    cr_assert_eq(run_stdout(out, sizeof out, args), 0, "%s", out);
    cr_expect_eq(csv_value(out, 1, "T"), sum_by_lemma1(4096, 8, 4, 10), "%s", out);
    snprintf(args, sizeof args, "%s --set l=10", run_args("dmm-umm.cfg", sum));
    cr_assert_eq(run_stdout(out, sizeof out, args), 0, "%s", out);
    cr_expect_eq(csv_value(out, 1, "T"), t5, "--set l sets ℓ, which a DMM does not use: %s", out);
}

Test(dmm_umm_cli, bad_machines_are_refused)
{
    REFUSE(run_args("dmm-umm.cfg", "--set l=0"), "l = 0", "l >= 1");
    REFUSE(run_args("dmm-umm.cfg", "--set l=-2"), "l = -2 is out of range", "from 0 to");
    REFUSE(run_args("dmm-umm.cfg", "--set w=0"), "w = 0 is out of range", "from 1 to");
    REFUSE(run_args("dmm-umm.cfg", "--set p=0"), "p = 0 is out of range", "from 1 to");
    REFUSE(run_args("dmm-umm.cfg", "--set l=2.5"), "--set l", "whole number");
    REFUSE(run_args("dmm-umm.cfg", "--set kind=pram"), "kind \"pram\"", "mcm, dmm, umm");
    REFUSE(run_args("dmm-umm.cfg", "--set policy=exclusive"), "'policy' is an MCM setting", "dmm");
    REFUSE(run_args("dmm-umm.cfg", "--set launch_latency=5"), "'launch_latency' is an MCM setting");
    REFUSE(run_args("dmm-umm.cfg", "--set kind=mcm"), "latency l = 5 is a DMM/UMM setting", "kind is mcm");
    REFUSE(run_args("dmm-umm.cfg", "--set p=4"), "dmm-example", "8 threads", "p = 4");
    REFUSE(run_args("dmm-umm.cfg", "--set kind=dmm --trace /tmp/mcmsim-dmm-trace.csv"), "--trace", "dmm machine");
    char *path = temp_file(
        "machine = { kind = \"umm\"; p = 8; w = 4; };\nprogram = { name = \"dmm-example\"; };\n", ".cfg");
    char args[256];
    snprintf(args, sizeof args, "run %s", path);
    REFUSE(args, "l = 0 (not set)", "umm");
    unlink(path);
    free(path);
    path = temp_file("machine = { kind = \"dmm\"; p = 8; w = 4; l = 5; speed = 1; };\n"
                     "program = { name = \"dmm-example\"; };\n",
                     ".cfg");
    snprintf(args, sizeof args, "run %s", path);
    REFUSE(args, "unknown machine key 'speed'", "latency (or l)");
    unlink(path);
    free(path);
}

Test(dmm_umm_cli, programs_without_accesses_are_refused)
{
    REFUSE(run_args("dmm-umm.cfg", "--set program=euclid"), "program 'euclid' has no memory accesses", "MCM only",
           "contiguous");
    REFUSE(run_args("dmm-umm.cfg", "--set program=prefix-optimal --set n=1000"), "power of two");
    char *path = temp_file("machine = { kind = \"dmm\"; p = 8; w = 4; l = 5; };\n"
                           "program = { name = \"mine\"; kernels = ( { name = \"k\"; blocks = 1; threads = 1;"
                           " span = 1; } ); };\n",
                           ".cfg");
    char args[256];
    snprintf(args, sizeof args, "run %s", path);
    REFUSE(args, "program 'mine' has no memory accesses");
    unlink(path);
    free(path);
    /* and the other way round: the chapter's programs are not MCM kernels */
    path = temp_file("machine = \"mcm\";\nprogram = { name = \"contiguous\"; };\n", ".cfg");
    snprintf(args, sizeof args, "run %s", path);
    REFUSE(args, "contiguous", "no MCM kernels", "kind = \"dmm\"");
    unlink(path);
    free(path);
}

Test(dmm_umm_cli, a_run_file_sweeps_kind_w_l_n_and_p)
{
    /* `l` is the machine's latency here (contiguous has no param l); p is
     * contiguous's param, which wins over the machine's. */
    char *path = temp_file("machine = { kind = \"dmm\"; p = 16; w = 4; l = 5; };\n"
                           "program = { name = \"contiguous\"; params = { n = 256; }; };\n"
                           "sweep = { kind = [\"dmm\", \"umm\"]; w = [4, 8]; l = [2, 9]; n = [256, 1024];\n"
                           "          p = [16, 128]; };\n",
                           ".cfg");
    char args[256], out[1 << 15];
    snprintf(args, sizeof args, "run %s --format csv", path);
    cr_assert_eq(run_stdout(out, sizeof out, args), 0, "%s", out);
    int rows = 0;
    for (int row = 1; row <= 32; row++) {
        double n = csv_value(out, row, "n"), p = csv_value(out, row, "p"), w = csv_value(out, row, "w");
        double l = csv_value(out, row, "latency"), T = csv_value(out, row, "T");
        cr_expect_eq(T, chapter_lemma1(n, p, w, l), "row %d: n = %g, p = %g, w = %g, l = %g: T = %g", row, n, p, w, l,
                     T);
        rows++;
    }
    cr_expect_eq(rows, 32);
    cr_expect(strstr(out, ",umm,128,8,9,") != NULL, "%s", out);
    unlink(path);
    free(path);
}
