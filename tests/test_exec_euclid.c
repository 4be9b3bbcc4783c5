/*
 * test_exec_euclid.c — the Euclidean GCD in exec mode
 * (programs/euclid_exec.c) against the serial Euclidean algorithm and
 * against the model-mode program (programs/euclid.c).
 *
 * What is checked:
 *  - the monic gcd equals the serial one on random inputs (several sizes,
 *    non-powers of two, n = m and n > m, s = 1, s not dividing anything,
 *    seeds), over a small prime where zeros abound, and on inputs with a
 *    planted common factor or a zero block;
 *  - on random inputs (degrees fall by one per step, the model's worst
 *    case) the launch sequence equals the model's: number of calls, kind
 *    (ping-ping / ping-pong), grid and threads of every call;
 *  - on inputs whose degrees fall faster, exec mode follows the data: a
 *    common factor of degree g ends the algorithm after
 *    ⌈(n + m − 1 − g)/s⌉ calls, not the model's ⌈(n + m − 1)/s⌉; a zero block
 *    in a remainder turns a ping-pong call of the model into a ping-ping
 *    call with fewer blocks;
 *  - per block, the documented differences with the declared costs:
 *    α and β; the arithmetic (worksheet unit costs) exactly, from the
 *    worst-case degree trajectory worked out here; the whole ping-ping span
 *    with thread 0's bookkeeping; O(B) by the UMM rule at an aligned point;
 *  - the exec DAG simulates within Theorem 1; the model's Z constraint is
 *    refused with its message, and a point that passes it but not the
 *    ping-pong kernel's 6s + 2ℓ + 1 words is refused by the exec layer.
 */
#include "euclid_exec.h"
#include "exec_programs.h"
#include "helpers.h"
#include "program.h"
#include "rng.h"

#include <math.h>

#define BIG 1048576.0 /* an operation cost far above any thread's private accesses */
#define PRIME 469762049

static vars point(double n, double m, double s, double l) { return test_params("n m s l", n, m, s, l); }

static exec_run *run_exec(vars v, const machine *mach, double add, double mul)
{
    exec_run *run = exec_begin("euclid", mach);
    if (add >= 0)
        exec_set_costs(run, add, mul);
    const exec_program *prog = exec_program_find("euclid");
    cr_assert_not_null(prog);
    char at[256];
    cr_assert_eq(prog->host(&v, mach, run), 0, "at %s: %s", params_text(&v, at, sizeof at), fail_message());
    return run;
}

/* Random nonzero coefficients in Z/pZ. */
static void random_poly(rng *g, word *x, long size)
{
    for (long i = 0; i < size; i++)
        x[i] = 1 + rng_below(g, PRIME - 1);
}

static void multiply(const word *x, long nx, const word *y, long ny, word *out)
{
    for (long i = 0; i < nx + ny - 1; i++)
        out[i] = 0;
    for (long i = 0; i < nx; i++)
        for (long j = 0; j < ny; j++)
            out[i + j] = zp_add(PRIME, out[i + j], zp_mul(PRIME, x[i], y[j]));
}

/* {n, m, s, ℓ} on random inputs, m = 0 meaning m = n. */
static const double generic[][4] = {{300, 0, 16, 32}, {257, 200, 8, 32}, {129, 129, 7, 16}, {200, 199, 1, 8},
                                    {64, 5, 3, 4},    {333, 100, 32, 64}, {90, 0, 5, 9}};
#define N_GENERIC (sizeof generic / sizeof generic[0])

Test(exec_euclid, result_equals_the_serial_gcd)
{
    machine mach = test_preset("mcm");
    for (size_t i = 0; i < N_GENERIC; i++)
        for (uint64_t seed = 1; seed <= 2; seed++) {
            mach.seed = seed * 2654435761u;
            exec_end(run_exec(point(generic[i][0], generic[i][1], generic[i][2], generic[i][3]), &mach, -1, -1));
        }
}

Test(exec_euclid, result_over_a_small_prime)
{
    /* p = 7: leading coefficients vanish all the time, degrees fall by
     * several per step, gcds of positive degree are common */
    machine mach = test_preset("mcm");
    for (uint64_t seed = 1; seed <= 20; seed++) {
        mach.seed = seed;
        vars v = point(40 + (double)seed, 25, 1 + (double)(seed % 6), 8);
        exec_run *run = exec_begin("euclid", &mach);
        exec_set_prime(run, 7);
        cr_expect_eq(exec_program_find("euclid")->host(&v, &mach, run), 0, "seed %lu: %s", (unsigned long)seed,
                     fail_message());
        exec_end(run);
    }
}

/* Kernel k of the exec run and of the model have the same name, grid and
 * threads. */
static int same_launch(const kernel *e, const kernel *d)
{
    return strcmp(e->name, d->name) == 0 && e->blocks == d->blocks && e->threads == d->threads;
}

Test(exec_euclid, generic_inputs_launch_what_the_model_launches)
{
    machine mach = test_preset("mcm");
    for (size_t i = 0; i < N_GENERIC; i++) {
        vars v = point(generic[i][0], generic[i][1], generic[i][2], generic[i][3]);
        exec_run *run = run_exec(v, &mach, -1, -1);
        kernel_dag *model = build_builtin("euclid", v, &mach);
        const kernel_dag *dag = exec_dag(run);
        cr_expect_eq(dag->n, model->n, "point %zu: %d calls, model %d", i, dag->n, model->n);
        for (int k = 0; k < dag->n && k < model->n; k++)
            cr_expect(same_launch(&dag->kernels[k], &model->kernels[k]), "point %zu, call %d: %s of %ld blocks, model %s of %ld",
                      i, k, dag->kernels[k].name, dag->kernels[k].blocks, model->kernels[k].name,
                      model->kernels[k].blocks);
        kernel_dag_free(model);
        exec_end(run);
    }
}

/* ---- inputs whose degrees fall faster -------------------------------------- */

/* gcd on given inputs, in a run of its own; the run is returned. */
static exec_run *gcd_run(const machine *mach, const word *a, long n, const word *b, long m, long s, long l,
                         word *gcd, long *degree)
{
    exec_run *run = exec_begin("euclid", mach);
    cr_assert_eq(euclid_exec_gcd(run, a, n, b, m, s, l, gcd, degree), 0, "%s", fail_message());
    return run;
}

Test(exec_euclid, a_common_factor_ends_the_calls_early)
{
    /* a = g·u, b = g·v, deg g = 8, u and v random: the remainders fall by
     * one degree per step down to g, so the first calls are the model's;
     * the algorithm stops at deg a + deg b = 8 − 1, after n + m − 1 − 8
     * steps: ⌈(n + m − 9)/s⌉ calls where the model, assuming gcd 1,
     * makes ⌈(n + m − 1)/s⌉ */
    machine mach = test_preset("mcm");
    rng g;
    rng_seed(&g, 99);
    const long G = 9, nu = 192, nv = 151, s = 3, l = 16, n = nu + G - 1, m = nv + G - 1;
    word gg[G], u[nu], v[nv], a[n], b[m], gcd[m];
    random_poly(&g, gg, G);
    random_poly(&g, u, nu);
    random_poly(&g, v, nv);
    multiply(gg, G, u, nu, a);
    multiply(gg, G, v, nv, b);
    long degree;
    exec_run *run = gcd_run(&mach, a, n, b, m, s, l, gcd, &degree);
    cr_expect_eq(degree, G - 1, "the gcd is g");
    word inv = zp_pow(PRIME, gg[G - 1], PRIME - 2);
    for (long i = 0; i < G; i++)
        cr_expect_eq(gcd[i], zp_mul(PRIME, gg[i], inv), "monic g, coefficient %ld", i);
    kernel_dag *model = build_builtin("euclid", point(n, m, s, l), &mach);
    const kernel_dag *dag = exec_dag(run);
    cr_expect_eq(dag->n, (n + m - 1 - (G - 1) + s - 1) / s, "%d calls", dag->n);
    cr_expect_eq(model->n, (n + m - 1 + s - 1) / s);
    cr_expect_lt(dag->n, model->n);
    /* the calls that start at deg a + deg b >= 2·deg g start where the
     * model's do: the zero remainder appears at the step from (8, 8) */
    int same = 0;
    for (int k = 0; k < dag->n && n + m - 2 - k * s >= 2 * (G - 1); k++, same++)
        cr_expect(same_launch(&dag->kernels[k], &model->kernels[k]), "call %d: %s, model %s", k,
                  dag->kernels[k].name, model->kernels[k].name);
    cr_expect_eq(same, (n + m - 2 - 2 * (G - 1)) / s + 1);
    /* then a's bound falls by s per call while b keeps degree 8: b ends
     * more than s ahead, and the host exchanges the roles (ping-ping) where
     * the model, still on its worst case, has ping-pong calls */
    cr_expect_str_eq(dag->kernels[dag->n - 1].name, "ping-ping[116]");
    cr_expect_str_eq(model->kernels[dag->n - 1].name, "ping-pong[116]");
    cr_log_info("euclid, common factor of degree 8: %d calls (the model: %d)", dag->n, model->n);
    kernel_dag_free(model);
    exec_end(run);
}

Test(exec_euclid, a_divisor_of_a_ends_after_the_first_remainder)
{
    /* b | a: the first remainder is zero; a's degree falls by s per call
     * (the zero coefficients skipped within the budget) until it is gone:
     * ⌈n/s⌉ calls, the model's ⌈(n + m − 1)/s⌉ */
    machine mach = test_preset("mcm");
    rng g;
    rng_seed(&g, 5);
    const long nq = 151, m = 50, n = nq + m - 1, s = 8, l = 32;
    word q[nq], b[m], a[n], gcd[m];
    random_poly(&g, q, nq);
    random_poly(&g, b, m);
    multiply(q, nq, b, m, a);
    long degree;
    exec_run *run = gcd_run(&mach, a, n, b, m, s, l, gcd, &degree);
    cr_expect_eq(degree, m - 1);
    cr_expect_eq(exec_dag(run)->n, (n + s - 1) / s);
    kernel_dag *model = build_builtin("euclid", point(n, m, s, l), &mach);
    cr_expect_eq(model->n, (n + m - 1 + s - 1) / s);
    kernel_dag_free(model);
    exec_end(run);
}

static long total_blocks(const kernel_dag *dag)
{
    long N = 0;
    for (int k = 0; k < dag->n; k++)
        N += dag->kernels[k].blocks;
    return N;
}

Test(exec_euclid, a_zero_block_makes_a_ping_ping_call_where_the_model_has_ping_pong)
{
    /* n = m = 120, a = c·b + r with deg r = 119 − 12: the first step leaves
     * r, whose 11 top coefficients are zero.  s = 4, ℓ = 8:
     *   call 0  model: ping-pong at (119, 119), steps a b a b -> (117, 117)
     *           exec:  the same call; a's step, then 3 zeros skipped
     *           (budget 4) -> (115, 119)
     *   call 1  model: ping-pong at (117, 117);  exec: ping-pong at (115, 119)
     *           (b ahead by s: a ping-pong grid still covers it), 4 more
     *           zeros of a skipped -> (111, 119)
     *   call 2  model: ping-pong at (115, 115), ⌈116/8⌉ = 15 blocks;
     *           exec:  b ahead by 8 > s: ping-ping, b to be reduced by a,
     *           ⌈112/8⌉ = 14 blocks (a's degree is still only a bound:
     *           this call skips its last zeros, the next ones reduce b).
     * gcd(b, r) = 1, so the calls are as many as the model's, but fewer
     * blocks. */
    machine mach = test_preset("mcm");
    rng g;
    rng_seed(&g, 11);
    const long n = 120, k = 12, s = 4, l = 8;
    word b[n], r[n - k], a[n], gcd[n], c = 12345;
    random_poly(&g, b, n);
    random_poly(&g, r, n - k);
    for (long i = 0; i < n; i++)
        a[i] = zp_add(PRIME, zp_mul(PRIME, c, b[i]), i < n - k ? r[i] : 0);
    long degree;
    exec_run *run = gcd_run(&mach, a, n, b, n, s, l, gcd, &degree);
    cr_expect_eq(degree, 0, "gcd 1");
    kernel_dag *model = build_builtin("euclid", point(n, n, s, l), &mach);
    const kernel_dag *dag = exec_dag(run);
    cr_assert_eq(dag->n, model->n, "%d calls, model %d", dag->n, model->n);
    cr_expect(same_launch(&dag->kernels[0], &model->kernels[0]));
    cr_expect(same_launch(&dag->kernels[1], &model->kernels[1]));
    cr_expect_str_eq(dag->kernels[2].name, "ping-ping[2]");
    cr_expect_eq(dag->kernels[2].blocks, 14);
    cr_expect_str_eq(model->kernels[2].name, "ping-pong[2]");
    cr_expect_eq(model->kernels[2].blocks, 15);
    cr_expect_lt(total_blocks(dag), total_blocks(model));
    cr_log_info("euclid, zero block: N = %ld blocks (the model: %ld)", total_blocks(dag), total_blocks(model));
    kernel_dag_free(model);
    exec_end(run);
}

/* ---- per-block costs ------------------------------------------------------------ */

/* The worst-case degree trajectory (the model's, euclid.c): in each call,
 * steps reduce the polynomial of larger degree (a on a tie); r[k] is the
 * drop of the reduced one before step k.  Returns the number of steps. */
typedef struct call_trace {
    long da, db, steps, r[64];
} call_trace;

static int trajectory(long n, long m, long s, call_trace *calls, int max_calls)
{
    long da = n - 1, db = m - 1;
    int c = 0;
    cr_assert_leq(s, 64);
    for (; da >= 0 && db >= 0; c++) {
        cr_assert_lt(c, max_calls);
        call_trace *t = &calls[c];
        long ra = 0, rb = 0;
        t->da = da;
        t->db = db;
        t->steps = 0;
        while (t->steps < s && ra <= da && rb <= db)
            t->r[t->steps++] = da - ra >= db - rb ? ra++ : rb++;
        da -= ra;
        db -= rb;
    }
    return c;
}

/* The arithmetic of a block (unit costs), from the trajectory:
 *   ping-ping  thread 0's factor per step; per step k, the s − k head
 *              entries and the ℓ owned words, a multiplication and a
 *              subtraction each: W = s + s(s + 1) + 2ℓs; span: thread
 *              s − 1 (2s head + 2s own) or thread 0 (s + 2 + 2s);
 *   ping-pong  per step, the s − r head entries and the W = ℓ + 2s − 1
 *              window entries (block 0: the W − r live ones) of the reduced
 *              polynomial, 3 operations each (fraction-free); span: thread
 *              s − 1, a head entry and 2 window entries every step (2s <= ℓ + 1). */
static double arithmetic_work(const call_trace *t, int ping_ping, long s, long l, int block_zero)
{
    double w = 0;
    for (long k = 0; k < t->steps; k++)
        w += ping_ping ? 1 + 2 * (s - t->r[k]) + 2 * l
                       : 3 * ((s - t->r[k]) + (l + 2 * s - 1) - (block_zero ? t->r[k] : 0));
    return w;
}

static double arithmetic_span(const call_trace *t, int ping_ping, long s)
{
    return ping_ping ? fmax(4 * s, 3 * s + 2) : 9 * t->steps;
}

Test(exec_euclid, arithmetic_follows_the_worst_case_trajectory)
{
    /* {n, m, s, ℓ}: 2s <= ℓ + 1, random inputs */
    const double pts[][4] = {{300, 170, 16, 32}, {129, 129, 7, 16}, {200, 180, 1, 8}};
    machine mach = test_preset("mcm");
    for (size_t i = 0; i < sizeof pts / sizeof pts[0]; i++) {
        long n = (long)pts[i][0], m = (long)pts[i][1], s = (long)pts[i][2], l = (long)pts[i][3];
        vars v = point(n, m, s, l);
        exec_run *none = run_exec(v, &mach, 0, 0), *unit = run_exec(v, &mach, 1, 1), *big = run_exec(v, &mach, BIG, BIG);
        kernel_dag *model = build_builtin("euclid", v, &mach);
        const kernel_dag *dn = exec_dag(none), *du = exec_dag(unit), *db = exec_dag(big);
        call_trace calls[1024];
        int n_calls = trajectory(n, m, s, calls, 1024);
        cr_assert_eq(du->n, n_calls);
        for (int k = 0; k < n_calls; k++) {
            const kernel *K = &du->kernels[k];
            int pp = strncmp(K->name, "ping-ping", 9) == 0;
            for (long b = 0; b + 1 < K->blocks || b == 0; b++) { /* the last block may own fewer words */
                double work = kernel_block_cost(K, b)->work - kernel_block_cost(&dn->kernels[k], b)->work;
                double span = floor(kernel_block_cost(&db->kernels[k], b)->span / BIG);
                cr_expect_eq(work, arithmetic_work(&calls[k], pp, s, l, b == 0), "point %zu, %s, block %ld: %g", i,
                             K->name, b, work);
                cr_expect_eq(span, arithmetic_span(&calls[k], pp, s), "point %zu, %s, block %ld: %g", i, K->name, b,
                             span);
            }
            /* against the worksheet's figures, which the model declares for
             * every block of every call: S(B) = 3s, W(B) = 3(s(s+1)/2 + 2ℓs)
             * (ping-ping) or 9s²/4 + 9s/2 + 6ℓs (ping-pong) */
            const block_cost *declared = &model->kernels[k].cost;
            cr_expect_eq(declared->span, 3 * s);
            cr_expect_eq(declared->work, pp ? 3 * (s * (s + 1) / 2.0 + 2 * l * s)
                                            : 9.0 * s * s / 4 + 9.0 * s / 2 + 6 * l * s);
        }
        cr_log_info("euclid n=%ld m=%ld s=%ld l=%ld: first call S(B) %g with private accesses, %g arithmetic, "
                    "model %g; W(B) %g, model %g", n, m, s, l, kernel_block_cost(&du->kernels[0], 0)->span,
                    arithmetic_span(&calls[0], strncmp(du->kernels[0].name, "ping-ping", 9) == 0, s),
                    model->kernels[0].cost.span, kernel_block_cost(&du->kernels[0], 0)->work, model->kernels[0].cost.work);
        kernel_dag_free(model);
        exec_end(none);
        exec_end(unit);
        exec_end(big);
    }
}

Test(exec_euclid, ping_ping_span_is_thread_0s_bookkeeping)
{
    /* Thread 0 of a ping-ping block: arithmetic s factors, its head entry
     * once, its owned word s times (3s + 2 with unit costs; 27s + 16 with
     * 5 and 11); private accesses 15s + 19: loads 9 (heads 2, four control
     * words, owned word, 2 of the divisor window), chooses 9s + 6 (read rx,
     * ry, the heads it skips and the factor's; write rx, ry, action,
     * factor; the settling one reads 1 and writes 3), updates 6s + 3 (action,
     * rx, factor, then 3 per entry), its owned word read back.
     * S(B) = 18s + 21 (unit), 42s + 35 (default costs), for the worksheet's 3s. */
    machine mach = test_preset("mcm");
    const double pts[][4] = {{300, 100, 16, 32}, {129, 60, 7, 16}, {100, 20, 1, 4}};
    for (size_t i = 0; i < sizeof pts / sizeof pts[0]; i++) {
        double s = pts[i][2];
        vars v = point(pts[i][0], pts[i][1], s, pts[i][3]);
        for (int unit = 0; unit <= 1; unit++) {
            exec_run *run = run_exec(v, &mach, unit ? 1 : -1, unit ? 1 : -1);
            const kernel_dag *dag = exec_dag(run);
            int n_reports, seen = 0;
            const exec_kernel_report *rep = exec_reports(run, &n_reports);
            for (int k = 0; k < dag->n && strncmp(dag->kernels[k].name, "ping-ping", 9) == 0; k++, seen++) {
                const kernel *K = &dag->kernels[k];
                for (long b = 0; b < K->blocks; b++)
                    cr_expect_eq(kernel_block_cost(K, b)->span, unit ? 18 * s + 21 : 42 * s + 35, "point %zu, %s, block %ld: %g",
                                 i, K->name, b, kernel_block_cost(K, b)->span);
                /* α: heads 2, owned word 1, divisor window 2 (ℓ + s words,
                 * s <= ℓ; the model: 6); β: the owned word and one degree
                 * (the model: 2) */
                cr_expect_eq(rep[k].alpha, 5, "%s: alpha %g", K->name, rep[k].alpha);
                cr_expect_eq(rep[k].beta, 2);
            }
            cr_expect_gt(seen, 0, "point %zu has ping-ping calls", i);
            exec_end(run);
        }
    }
}

Test(exec_euclid, ping_pong_words_per_thread)
{
    /* α = 2 + 2⌈(ℓ + 2s − 1)/ℓ⌉ (heads, then the windows of a and b),
     * β = 4 (block 0's threads t < s write a head word and an owned word
     * of both; 5 when s > ℓ − 2, where the threads ℓ − 1 and ℓ − 2 that
     * write the degrees are among them): the model's 6 and 2 */
    machine mach = test_preset("mcm");
    const double pts[][4] = {{300, 0, 16, 32}, {300, 0, 32, 32}, {129, 129, 7, 16}};
    for (size_t i = 0; i < sizeof pts / sizeof pts[0]; i++) {
        double s = pts[i][2], l = pts[i][3];
        exec_run *run = run_exec(point(pts[i][0], pts[i][1], s, l), &mach, -1, -1);
        int n_reports;
        const exec_kernel_report *rep = exec_reports(run, &n_reports);
        cr_assert_eq(strncmp(rep[0].name, "ping-pong", 9), 0);
        cr_expect_eq(rep[0].alpha, 2 + 2 * ceil((l + 2 * s - 1) / l), "point %zu: alpha %g", i, rep[0].alpha);
        cr_expect_eq(rep[0].beta, s > l - 2 ? 5 : 4, "point %zu: beta %g", i, rep[0].beta);
        exec_end(run);
    }
}

Test(exec_euclid, measured_overhead_at_an_aligned_point)
{
    /* n = 640, m = 512, s = 64, ℓ = 128: degrees stay 31 mod 32 (ping-ping
     * lowers da by 64, ping-pong calls start at da = db and lower each by
     * 32), so every round of a block inside the polynomials is whole
     * address groups.  Block 1 of a call:
     *   ping-ping  reads: heads 2·s/32, owned ℓ/32, divisor window
     *              (ℓ + s)/32: 14 transactions, 14·32/ℓ = 3.5 words per
     *              thread; writes: owned ℓ/32 = 1 word per thread: 4.5U;
     *   ping-pong  reads: heads 2·2, windows 2·8 (255 words each): 20,
     *              5 words per thread; writes 2·4: 2 words: 7U;
     * against the model's 8U (6 words read, 2 written per thread). */
    machine mach = test_preset("mcm");
    double U = mach.u;
    exec_run *run = run_exec(point(640, 512, 64, 128), &mach, -1, -1);
    kernel_dag *model = build_builtin("euclid", point(640, 512, 64, 128), &mach);
    const kernel_dag *dag = exec_dag(run);
    cr_assert_str_eq(dag->kernels[1].name, "ping-ping[1]");
    cr_assert_str_eq(dag->kernels[2].name, "ping-pong[2]");
    const block_cost *pp = kernel_block_cost(&dag->kernels[1], 1), *pg = kernel_block_cost(&dag->kernels[2], 1);
    cr_expect_eq(pp->reads, 3.5);
    cr_expect_eq(pp->writes, 1);
    cr_expect_eq(pg->reads, 5);
    cr_expect_eq(pg->writes, 2);
    cr_expect_eq(block_overhead(&model->kernels[2], U), 8 * U);
    cr_expect_eq(U * (pg->reads + pg->writes), 7 * U);
    kernel_dag_free(model);
    exec_end(run);
}

Test(exec_euclid, simulated_within_theorem_1)
{
    machine mach = test_preset("mcm");
    const double pts[][4] = {{300, 0, 16, 32}, {200, 199, 1, 8}};
    for (size_t i = 0; i < sizeof pts / sizeof pts[0]; i++) {
        vars v = point(pts[i][0], pts[i][1], pts[i][2], pts[i][3]);
        exec_run *run = run_exec(v, &mach, 1, 1);
        for (int on_k = 0; on_k <= 1; on_k++) {
            machine m = mach;
            if (on_k)
                set_p_to_k(exec_dag(run), &m);
            sim_result r = simulate(exec_dag(run), &m);
            cr_expect_leq(r.T, r.bound_theorem1, "T %g, Theorem 1 %g", r.T, r.bound_theorem1);
            double model_T = builtin_time("euclid", v, &m);
            cr_log_info("euclid exec point %zu (unit costs) on P = %d: T %g, Theorem 1 %g, model-mode T %g", i, m.p,
                        r.T, r.bound_theorem1, model_T);
            sim_result_free(&r);
        }
        exec_end(run);
    }
}

Test(exec_euclid, z_constraints_refused)
{
    machine mach = test_preset("mcm");
    /* the model's 4s + 2ℓ <= Z */
    mach.z = 100;
    exec_run *run = exec_begin("euclid", &mach);
    vars v = point(200, 0, 16, 32); /* 4·16 + 2·32 = 128 > 100 */
    cr_expect_eq(exec_program_find("euclid")->host(&v, &mach, run), -1);
    cr_expect(strstr(fail_message(), "constraint 4s + 2ℓ <= Z does not hold") != NULL, "%s", fail_message());
    exec_end(run);
    /* Z = 128 = 4s + 2ℓ passes it; the ping-ping kernel (3s + 2ℓ + 4 = 116
     * words) runs, the ping-pong kernel's 6s + 2ℓ + 1 = 161 words do not fit */
    mach.z = 128;
    run = exec_begin("euclid", &mach);
    v = point(250, 200, 16, 32);
    cr_expect_eq(exec_program_find("euclid")->host(&v, &mach, run), -1);
    cr_expect(strstr(fail_message(), "kernel 'ping-pong[3]': declares 161 words of private memory, but Z = 128") != NULL,
              "%s", fail_message());
    exec_end(run);
}
