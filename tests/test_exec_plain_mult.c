/*
 * test_exec_plain_mult.c — plain multiplication in exec mode
 * (programs/plain_mult_exec.c) against the schoolbook product and against
 * the model-mode program (programs/plain_mult.c).
 *
 * What is checked:
 *  - f = a·b on random inputs: non-powers of two n, m and s, m not a
 *    multiple of s (odd rows passing through a round), s = m (no AddKer),
 *    s > ℓ, several seeds;
 *  - the launches are the model's (MulKer, AddKer[0 …]: names, grids,
 *    threads), α and β as declared;
 *  - AddKer's costs equal the declared ones (unit costs: S(B) = s, the
 *    launch's W, α = 2s, β = s, and O(B) = 3sU at an aligned point), and a
 *    chain of the exec AddKer launches simulates to the model's T exactly;
 *  - MulKer's arithmetic equals the declared s(2s − 1) per thread, its span
 *    adds exactly the 6s + 1 private-memory accesses the model leaves out;
 *    at an aligned point its measured O(B) is the paper's (2s + 2)U, and
 *    (2s + 1)U for a block at the start of a row (no halo to read);
 *  - the literal thread-to-entry map of Algorithm 4 (thread j owns entries
 *    sj … sj + s − 1) costs s times the transactions of the coalesced one;
 *  - the exec DAG simulates within Theorem 1; the Z constraint is refused.
 */
#include "exec_programs.h"
#include "helpers.h"
#include "program.h"

#include <math.h>

#define BIG 1048576.0 /* an operation cost far above any thread's private accesses */

static vars point(double n, double m, double s, double l) { return test_params("n m s l", n, m, s, l); }

static exec_run *run_exec(vars v, const machine *mach, double add, double mul)
{
    exec_run *run = exec_begin("plain-mult", mach);
    if (add >= 0)
        exec_set_costs(run, add, mul);
    const exec_program *prog = exec_program_find("plain-mult");
    cr_assert_not_null(prog);
    char at[256];
    cr_assert_eq(prog->host(&v, mach, run), 0, "at %s: %s", params_text(&v, at, sizeof at), fail_message());
    return run;
}

/* The most rows of M that one MulKer block touches (1-D grid: C threads
 * per row, ℓ per block); its b words, R·s, are loaded ⌈Rs/ℓ⌉ per thread. */
static double rows_touched(double n, double m, double s, double l)
{
    long C = (long)ceil((n + s - 1) / s), threads = (long)ceil(m / s) * C, most = 0;
    for (long first = 0; first < threads; first += (long)l) {
        long last = first + (long)l - 1 < threads ? first + (long)l - 1 : threads - 1;
        most = last / C - first / C + 1 > most ? last / C - first / C + 1 : most;
    }
    return (double)most;
}

/* MulKer's α: s words of a, the halo word (s >= 2), the b words. */
static double mulker_alpha(double n, double m, double s, double l)
{
    return s + (s > 1) + ceil(rows_touched(n, m, s, l) * s / l);
}

Test(exec_plain_mult, result_equals_the_schoolbook_product)
{
    const double pts[][4] = {{1000, 700, 4, 64}, {777, 333, 3, 32}, {513, 300, 1, 64}, {255, 255, 16, 16},
                             {100, 37, 5, 7},    {64, 64, 64, 4},   {50, 9, 8, 3},    {31, 0, 2, 256}};
    machine mach = test_preset("mcm");
    for (size_t i = 0; i < sizeof pts / sizeof pts[0]; i++)
        for (uint64_t seed = 1; seed <= 2; seed++) {
            mach.seed = seed * 104729;
            exec_end(run_exec(point(pts[i][0], pts[i][1], pts[i][2], pts[i][3]), &mach, -1, -1));
        }
}

Test(exec_plain_mult, same_launches_as_the_model)
{
    const double pts[][4] = {{1000, 700, 4, 64}, {777, 333, 3, 32}, {513, 300, 1, 64}, {255, 255, 16, 16}};
    machine mach = test_preset("mcm");
    for (size_t i = 0; i < sizeof pts / sizeof pts[0]; i++) {
        double s = pts[i][2];
        vars v = point(pts[i][0], pts[i][1], s, pts[i][3]);
        exec_run *run = run_exec(v, &mach, -1, -1);
        kernel_dag *model = build_builtin("plain-mult", v, &mach);
        const kernel_dag *dag = exec_dag(run);
        int n_reports;
        const exec_kernel_report *rep = exec_reports(run, &n_reports);
        cr_assert_eq(dag->n, model->n, "point %zu: %d kernels, model %d", i, dag->n, model->n);
        for (int k = 0; k < dag->n; k++) {
            const kernel *e = &dag->kernels[k], *d = &model->kernels[k];
            cr_expect_str_eq(e->name, d->name);
            cr_expect_eq(e->blocks, d->blocks, "point %zu, %s: %ld blocks, model %ld", i, e->name, e->blocks,
                         d->blocks);
            cr_expect_eq(e->threads, d->threads);
            /* α, β as declared, except MulKer when s = 1 (no halo: s − 1 = 0
             * words, α = 2 where the worksheet's U(s + 1 + 1 + s) has 3) or
             * when a block's rows hold more than ℓ words of b (at s = ℓ = 16
             * a block touches 2 rows: 2 words of b per thread, α = s + 3) */
            double alpha = k == 0 ? mulker_alpha(pts[i][0], pts[i][1], s, pts[i][3]) : d->cost.reads;
            if (k == 0 && s > 1 && rows_touched(pts[i][0], pts[i][1], s, pts[i][3]) * s <= pts[i][3])
                cr_expect_eq(alpha, d->cost.reads, "point %zu: s + 2 as declared", i);
            cr_expect_eq(rep[k].alpha, alpha, "point %zu, %s: alpha %g", i, e->name, rep[k].alpha);
            cr_expect_eq(rep[k].beta, d->cost.writes, "point %zu, %s: beta %g", i, e->name, rep[k].beta);
        }
        kernel_dag_free(model);
        exec_end(run);
    }
}

/* The kernel's total work, and the largest span of its blocks. */
static double total_work(const kernel *k)
{
    double w = 0;
    for (long b = 0; b < k->blocks; b++)
        w += kernel_block_cost(k, b)->work;
    return w;
}

static double max_span(const kernel *k)
{
    double s = 0;
    for (long b = 0; b < k->blocks; b++)
        s = fmax(s, kernel_block_cost(k, b)->span);
    return s;
}

Test(exec_plain_mult, span_and_work_with_unit_costs)
{
    const double pts[][4] = {{1000, 700, 4, 64}, {777, 333, 3, 32}, {513, 300, 1, 64}, {255, 255, 16, 16}};
    machine mach = test_preset("mcm");
    for (size_t i = 0; i < sizeof pts / sizeof pts[0]; i++) {
        double s = pts[i][2];
        vars v = point(pts[i][0], pts[i][1], s, pts[i][3]);
        exec_run *unit = run_exec(v, &mach, 1, 1), *none = run_exec(v, &mach, 0, 0);
        exec_run *big = run_exec(v, &mach, BIG, BIG);
        kernel_dag *model = build_builtin("plain-mult", v, &mach);
        const kernel_dag *du = exec_dag(unit), *dn = exec_dag(none), *db = exec_dag(big);
        /* MulKer: the declared arithmetic, s² products and s(s − 1)
         * additions per thread; the span adds the thread's private
         * accesses: its α loads (halo, chunk, b), 3s − 1 reads of a and b,
         * s partial sums written and read back: 6s + 1 when α = s + 2 */
        const kernel *mul = &du->kernels[0], *declared = &model->kernels[0];
        cr_expect_eq(floor(max_span(&db->kernels[0]) / BIG), declared->cost.span);
        cr_expect_eq(total_work(mul) - total_work(&dn->kernels[0]), declared->blocks * declared->cost.work,
                     "the launch's arithmetic: xC·s(2s − 1)");
        double alpha = mulker_alpha(pts[i][0], pts[i][1], s, pts[i][3]);
        cr_expect_eq(max_span(mul), declared->cost.span + alpha + 3 * s - 1 + 2 * s, "MulKer S %g", max_span(mul));
        /* AddKer: exactly the model's, s additions per thread, no private
         * memory; the interleaved slots leave the last block's threads
         * fewer entries (its S may be less than s), the launch's work is
         * the same */
        for (int k = 1; k < du->n; k++) {
            const kernel *add = &du->kernels[k], *d = &model->kernels[k];
            cr_expect_eq(max_span(add), d->cost.span);
            for (long b = 0; b < add->blocks - 1; b++) {
                cr_expect_eq(kernel_block_cost(add, b)->span, s, "%s block %ld", add->name, b);
                cr_expect_eq(kernel_block_cost(add, b)->work, s * add->threads);
            }
            cr_expect_eq(total_work(add), d->blocks * d->cost.work, "%s: W %g", add->name, total_work(add));
            cr_expect_eq(total_work(&dn->kernels[k]), 0, "no private memory");
        }
        cr_log_info("plain-mult n=%g m=%g s=%g l=%g: MulKer S(B) %g (model %g), W %g (model %g)", pts[i][0],
                    pts[i][1], s, pts[i][3], max_span(mul), declared->cost.span, total_work(mul),
                    declared->blocks * declared->cost.work);
        kernel_dag_free(model);
        exec_end(unit);
        exec_end(none);
        exec_end(big);
    }
}

/* n = 2017, m = 300, s = ℓ = 32: y = 2048, C = 64 threads per row, two
 * blocks per row (no block straddles rows), x = 10 rows, rows and f aligned
 * to 32 words, 2^i s a multiple of 32 in every AddKer round. */
static vars aligned_point(void) { return point(2017, 300, 32, 32); }

Test(exec_plain_mult, measured_overhead_at_an_aligned_point)
{
    /* MulKer block: reads = halo (31 words, one group) + 32 chunk rounds of
     * one group + b (32 words, one group) = 34 transactions, i.e. 34 words
     * per thread with ℓ = w = 32: s + 2 as declared; a block at the start
     * of a row reads no halo (zeros): s + 1.  Writes: 32 rounds of one
     * group = s.  AddKer block: 2s reads and s writes, one group each. */
    machine mach = test_preset("mcm");
    double s = 32, U = mach.u;
    exec_run *run = run_exec(aligned_point(), &mach, 1, 1);
    kernel_dag *model = build_builtin("plain-mult", aligned_point(), &mach);
    const kernel_dag *dag = exec_dag(run);
    const kernel *mul = &dag->kernels[0];
    for (long b = 0; b < mul->blocks; b++) {
        int row_start = b % 2 == 0;
        cr_expect_eq(kernel_block_cost(mul, b)->reads, s + 2 - row_start, "MulKer block %ld: %g", b, kernel_block_cost(mul, b)->reads);
        cr_expect_eq(kernel_block_cost(mul, b)->writes, s);
        double O = U * (kernel_block_cost(mul, b)->reads + kernel_block_cost(mul, b)->writes);
        cr_expect_eq(O, block_overhead(&model->kernels[0], U) - row_start * U, "the paper's (2s + 2)U");
    }
    for (int k = 1; k < dag->n; k++)
        for (long b = 0; b < dag->kernels[k].blocks; b++) {
            const block_cost *c = kernel_block_cost(&dag->kernels[k], b);
            cr_expect_eq(c->reads, 2 * s, "%s block %ld: %g", dag->kernels[k].name, b, c->reads);
            cr_expect_eq(c->writes, s);
            cr_expect_eq(U * (c->reads + c->writes), block_overhead(&model->kernels[k], U), "3sU");
        }
    kernel_dag_free(model);
    exec_end(run);
}

/* A chain of copies of kernels first … last of `dag` (per-block costs
 * copied: the new DAG owns them). */
static kernel_dag *chain_of(const kernel_dag *dag, int first, int last)
{
    kernel_dag *out = kernel_dag_new("part");
    for (int k = first; k <= last; k++) {
        kernel copy = dag->kernels[k];
        copy.after = NULL;
        copy.n_after = 0;
        if (copy.runs) {
            copy.runs = malloc(sizeof *copy.runs * (size_t)copy.n_runs);
            memcpy(copy.runs, dag->kernels[k].runs, sizeof *copy.runs * (size_t)copy.n_runs);
        }
        cr_assert_geq(kernel_dag_chain(out, &copy), 0, "%s", fail_message());
    }
    return out;
}

Test(exec_plain_mult, addker_chain_simulates_to_the_model_time)
{
    /* at the aligned point, every AddKer block costs what the model
     * declares: the chains of AddKer launches give the same T */
    machine mach = test_preset("mcm");
    exec_run *run = run_exec(aligned_point(), &mach, 1, 1);
    kernel_dag *model = build_builtin("plain-mult", aligned_point(), &mach);
    const kernel_dag *dag = exec_dag(run);
    kernel_dag *exec_adds = chain_of(dag, 1, dag->n - 1), *model_adds = chain_of(model, 1, model->n - 1);
    sim_result re = simulate(exec_adds, &mach), rm = simulate(model_adds, &mach);
    cr_expect_eq(re.T, rm.T, "AddKer chain: exec T %g, model T %g", re.T, rm.T);
    cr_expect_eq(re.costs.W, rm.costs.W);
    cr_expect_eq(re.costs.O, rm.costs.O);
    sim_result_free(&re);
    sim_result_free(&rm);
    kernel_dag_free(exec_adds);
    kernel_dag_free(model_adds);
    kernel_dag_free(model);
    exec_end(run);
}

Test(exec_plain_mult, simulated_within_theorem_1)
{
    const double pts[][4] = {{1000, 700, 4, 64}, {777, 333, 3, 32}};
    machine mach = test_preset("mcm");
    for (size_t i = 0; i < sizeof pts / sizeof pts[0]; i++) {
        vars v = point(pts[i][0], pts[i][1], pts[i][2], pts[i][3]);
        exec_run *run = run_exec(v, &mach, 1, 1);
        for (int on_k = 0; on_k <= 1; on_k++) {
            machine m = mach;
            if (on_k)
                set_p_to_k(exec_dag(run), &m);
            sim_result r = simulate(exec_dag(run), &m);
            cr_expect_leq(r.T, r.bound_theorem1, "T %g, Theorem 1 %g", r.T, r.bound_theorem1);
            double model_T = builtin_time("plain-mult", v, &m);
            cr_log_info("plain-mult exec point %zu (unit costs) on P = %d: T %g, Theorem 1 %g, model-mode T %g", i,
                        m.p, r.T, r.bound_theorem1, model_T);
            sim_result_free(&r);
        }
        exec_end(run);
    }
}

/* ---- Algorithm 4's literal map: thread j adds entries sj … sj + s − 1 ---- */

typedef struct literal_args { gmem upper, target; long s; } literal_args;

static void literal_add(exec_thread *t, void *args)
{
    literal_args *c = args;
    long j = t->bid * t->threads + t->tid;
    for (long e = 0; e < c->s; e++) {
        long h = c->s * j + e;
        word v = exec_gread(t, c->upper, h);
        exec_gwrite(t, c->target, h, exec_zp_add(t, exec_gread(t, c->target, h), v));
    }
}

static const exec_step literal_steps[] = {literal_add};
static const exec_kernel literal_kernel = {"AddKer (Algorithm 4's map)", 1, literal_steps, 0};

Test(exec_plain_mult, algorithm_4_literal_map_costs_s_times_the_transactions)
{
    /* AddKer[0] at the aligned point (s = ℓ = w = 32: 2s reads, s writes
     * per thread, one address group per round) against the same additions
     * with thread j owning entries sj … sj + s − 1: round e of a warp then
     * touches 32 cells s apart, each in its own group, 32 = s of them */
    machine mach = test_preset("mcm");
    double s = 32;
    exec_run *run = run_exec(aligned_point(), &mach, 1, 1);
    const kernel *add = &exec_dag(run)->kernels[1];
    long threads = add->blocks * add->threads;
    exec_run *lit = exec_begin("literal", &mach);
    exec_set_costs(lit, 1, 1);
    literal_args a = {exec_alloc(lit, "upper", threads * (long)s), exec_alloc(lit, "target", threads * (long)s),
                      (long)s};
    cr_assert_eq(exec_launch(lit, &literal_kernel, add->blocks, add->threads, &a), 0, "%s", fail_message());
    const kernel *literal = &exec_dag(lit)->kernels[0];
    for (long b = 0; b < add->blocks; b++) {
        cr_expect_eq(kernel_block_cost(add, b)->reads, 2 * s, "coalesced: 2s words per thread");
        cr_expect_eq(kernel_block_cost(literal, b)->reads, s * 2 * s, "Algorithm 4's map: s times the transactions");
        cr_expect_eq(kernel_block_cost(literal, b)->writes, s * kernel_block_cost(add, b)->writes);
        cr_expect_eq(kernel_block_cost(literal, b)->span, kernel_block_cost(add, b)->span, "the same s additions");
    }
    exec_end(lit);
    exec_end(run);
}

Test(exec_plain_mult, z_constraint_and_bad_points_refused)
{
    machine mach = test_preset("mcm");
    exec_run *run = exec_begin("plain-mult", &mach);
    vars v = point(4096, 4096, 32, 256); /* 2·32·256 + 63 > 12288 */
    cr_expect_eq(exec_program_find("plain-mult")->host(&v, &mach, run), -1);
    cr_expect(strstr(fail_message(), "constraint 2sℓ + 2s − 1 <= Z does not hold") != NULL, "%s", fail_message());
    v = point(100, 200, 4, 32); /* m > n */
    cr_expect_eq(exec_program_find("plain-mult")->host(&v, &mach, run), -1);
    cr_expect(strstr(fail_message(), "needs whole n >= m >= s >= 1") != NULL, "%s", fail_message());
    exec_end(run);
}
