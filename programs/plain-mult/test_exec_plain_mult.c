/*
 * test_exec_plain_mult.c — plain multiplication in exec mode (its kernels
 * written once, kernels.c): the product against the schoolbook product,
 * the launches against the model's (model.c) at grid = 2, the grid the
 * kernels launch, and at grid = 1, the papers', and every block's measured
 * costs against an independent count.
 *
 * The independent count: for every thread of a block, the global words it
 * reads and writes in each step, in order, and its operations, listed from
 * the algorithm as kernels.c's header states it; a step's k-th access of
 * the threads of a warp is one round, which costs one transaction per
 * distinct address group (array, ⌊cell/w⌋) it touches, and a block's
 * transfer is Σ transactions · min(w, ℓ)/ℓ words per thread (the UMM rule,
 * SPEC §3, counted here apart from sim/exec/exec.c).  Operations: 11 a Z/pZ
 * multiplication, 5 an addition, 1 a private-memory access (sim/exec/exec.h).
 * With ℓ a power of two every figure is a sum of powers of two: the
 * comparisons are exact.
 */
#include "helpers.h"
#include "program.h"

#include <math.h>

enum { ARRAY_A, ARRAY_B, ARRAY_M, ARRAY_F };
#define MUL_OPS 11
#define ADD_OPS 5

typedef struct mult_point {
    long n, m, l, s;
} mult_point;

static vars params_at(mult_point p, double grid)
{
    return test_params("n m l s grid", (double)p.n, (double)p.m, (double)p.l, (double)p.s, grid);
}

static exec_result run_mult(mult_point p, uint64_t seed, machine *mach)
{
    mach->seed = seed;
    return run_case_exec("plain-mult", test_params("n m l s", (double)p.n, (double)p.m, (double)p.l, (double)p.s),
                         mach);
}

/* ---- the independent count ------------------------------------------------ */

/* A block's threads, their accesses in the step being listed and their
 * operations and words over the steps so far; the block's transfer. */
typedef struct block_count {
    int l, w;
    access_trace *step;
    double *ops;
    long *read, *written;
    double reads, writes; /* words per thread, model units */
} block_count;

static block_count count_begin(int l, int w)
{
    block_count c = {l, w, calloc((size_t)l, sizeof(access_trace)), calloc((size_t)l, sizeof(double)),
                     calloc((size_t)l, sizeof(long)), calloc((size_t)l, sizeof(long)), 0, 0};
    return c;
}

/* The step listed in c->step is done: its rounds graded, its words added;
 * the traces cleared for the next step. */
static void count_step(block_count *c)
{
    double unit = (double)(c->w < c->l ? c->w : c->l) / c->l;
    c->reads += (double)trace_transactions(c->step, c->l, c->w, 0) * unit;
    c->writes += (double)trace_transactions(c->step, c->l, c->w, 1) * unit;
    for (int t = 0; t < c->l; t++) {
        c->read[t] += c->step[t].n[0];
        c->written[t] += c->step[t].n[1];
        c->step[t] = (access_trace){{0, 0}, {{0}}};
    }
}

/* What the block must measure: S(B), W(B), its transfer; α, β its threads'. */
typedef struct block_expect {
    double span, work, reads, writes;
    long alpha, beta;
} block_expect;

static block_expect count_end(block_count *c)
{
    block_expect x = {0, 0, c->reads, c->writes, 0, 0};
    for (int t = 0; t < c->l; t++) {
        x.span = fmax(x.span, c->ops[t]);
        x.work += c->ops[t];
        x.alpha = c->read[t] > x.alpha ? c->read[t] : x.alpha;
        x.beta = c->written[t] > x.beta ? c->written[t] : x.beta;
    }
    free(c->step);
    free(c->ops);
    free(c->read);
    free(c->written);
    return x;
}

/* MulKer, block `bid` of `blocks` (row bid / chunks, chunk bid % chunks). */
static block_expect mulker_block(mult_point p, long bid, long blocks, int w)
{
    long s = p.s, l = p.l, y = p.n + s - 1, chunks = (y + s * l - 1) / (s * l), f_len = p.n + p.m - 1;
    long row = bid / chunks, col_start = bid % chunks * s * l;
    block_count c = count_begin((int)l, w);
    /* step 0: f zeroed, a's coefficients, then b's, into private memory */
    for (long t = 0; t < l; t++) {
        for (long i = bid * l + t; i < f_len; i += blocks * l)
            trace_access(&c.step[t], 1, ARRAY_F, i, w);
        for (long j = t; j < s * l + s - 1; j += l, c.ops[t]++) {
            long idx = col_start - (s - 1) + j;
            if (idx >= 0 && idx < p.n)
                trace_access(&c.step[t], 0, ARRAY_A, idx, w);
        }
        for (long k = t; k < s; k += l, c.ops[t]++)
            trace_access(&c.step[t], 0, ARRAY_B, row * s + k, w);
    }
    count_step(&c);
    /* step 1: s entries, each s products (2 private reads, a multiplication
     * and an addition) and one private write */
    for (long t = 0; t < l; t++)
        c.ops[t] += (double)(s * s * (2 + MUL_OPS + ADD_OPS) + s);
    count_step(&c);
    /* step 2: the block's entries out, a private read each */
    for (long t = 0; t < l; t++)
        for (long u = t; u < s * l; u += l)
            if (col_start + u < y) {
                trace_access(&c.step[t], 1, ARRAY_M, row * y + col_start + u, w);
                c.ops[t]++;
            }
    count_step(&c);
    return count_end(&c);
}

/* AddKer of round i (half = 2^i), block `bid` (pair bid / chunks). */
static block_expect addker_block(mult_point p, long half, int last, long bid, int w)
{
    long s = p.s, l = p.l, y = p.n + s - 1, chunks = (y + s * l - 1) / (s * l);
    long pair = bid / chunks, base = bid % chunks * s * l;
    long k = (2 * pair + 1) * half - 1, u = k + half, shift = half * s;
    block_count c = count_begin((int)l, w);
    for (long t = 0; t < l; t++) {
        access_trace *th = &c.step[t];
        for (long e = 0; e < s; e++) {
            long h = base + e * l + t;
            if (h >= y)
                break;
            if (h < shift) { /* the lower row's low entry into f */
                trace_access(th, 0, ARRAY_M, k * y + h, w);
                trace_access(th, 0, ARRAY_F, k * s + h, w);
                trace_access(th, 1, ARRAY_F, k * s + h, w);
                c.ops[t] += ADD_OPS;
            } else if (!last) { /* into the upper row */
                trace_access(th, 0, ARRAY_M, k * y + h, w);
                trace_access(th, 0, ARRAY_M, u * y + h - shift, w);
                trace_access(th, 1, ARRAY_M, u * y + h - shift, w);
                c.ops[t] += ADD_OPS;
            }
            if (last) { /* the upper row, with the lower row's h + 2^i·s, into f */
                trace_access(th, 0, ARRAY_M, u * y + h, w);
                if (h + shift < y) {
                    trace_access(th, 0, ARRAY_M, k * y + h + shift, w);
                    c.ops[t] += ADD_OPS;
                }
                trace_access(th, 0, ARRAY_F, u * s + h, w);
                trace_access(th, 1, ARRAY_F, u * s + h, w);
                c.ops[t] += ADD_OPS;
            }
        }
    }
    count_step(&c);
    return count_end(&c);
}

static void expect_block(const kernel *k, long b, const block_expect *x)
{
    const block_cost *c = kernel_block_cost(k, b);
    cr_expect_eq(c->span, x->span, "%s block %ld: S(B) %g, counted %g", k->name, b, c->span, x->span);
    cr_expect_eq(c->work, x->work, "%s block %ld: W(B) %g, counted %g", k->name, b, c->work, x->work);
    cr_expect_eq(c->reads, x->reads, "%s block %ld: reads %g, counted %g", k->name, b, c->reads, x->reads);
    cr_expect_eq(c->writes, x->writes, "%s block %ld: writes %g, counted %g", k->name, b, c->writes, x->writes);
}

/* Every block of every launch against the count; α and β per launch. */
static void expect_counted(const exec_result *run, mult_point p, int w)
{
    const kernel_dag *dag = run->dag;
    long x = p.m / p.s;
    for (int j = 0; j < dag->n; j++) {
        const kernel *k = &dag->kernels[j];
        long alpha = 0, beta = 0, half = j > 0 ? 1L << (j - 1) : 0;
        for (long b = 0; b < k->blocks; b++) {
            block_expect e = j == 0 ? mulker_block(p, b, k->blocks, w) : addker_block(p, half, 2 * half == x, b, w);
            expect_block(k, b, &e);
            alpha = e.alpha > alpha ? e.alpha : alpha;
            beta = e.beta > beta ? e.beta : beta;
        }
        cr_expect_eq(run->reports[j].alpha, (double)alpha, "%s: α %g, counted %ld", k->name, run->reports[j].alpha,
                     alpha);
        cr_expect_eq(run->reports[j].beta, (double)beta, "%s: β %g, counted %ld", k->name, run->reports[j].beta,
                     beta);
    }
}

/* ---- (a) the product ------------------------------------------------------ */

static const mult_point result_points[] = {
    {1024, 1024, 256, 4}, {1000, 512, 64, 8}, {777, 256, 32, 1}, {300, 64, 16, 32}, {2017, 256, 32, 32},
    {64, 2, 8, 1},        {128, 0, 32, 2}};

Test(exec_plain_mult, equals_the_schoolbook_product)
{
    /* n a power of two and not, m = n (m = 0), m = 2s (one AddKer), s > ℓ,
     * s = 1; the check returns -1 naming the first wrong coefficient */
    machine mach = test_preset("mcm");
    for (size_t i = 0; i < sizeof result_points / sizeof *result_points; i++)
        for (uint64_t seed = 1; seed <= 2; seed++) {
            exec_result r = run_mult(result_points[i], seed, &mach);
            exec_result_free(&r);
        }
}

/* ---- (b) the launches against the model ------------------------------------ */

Test(exec_plain_mult, launches_the_models_kernels_at_grid_2)
{
    /* one MulKer and log(m/s) AddKer, the model's blocks and threads at
     * grid = 2; MulKer's private memory as declared, 2sℓ + 2s − 1 words;
     * AddKer's none, where model.c declares 2sℓ (the block's two rows of
     * sℓ words, the Z constraint's reading: the kernel keeps them in
     * registers) */
    machine mach = test_preset("mcm");
    for (size_t i = 0; i < sizeof result_points / sizeof *result_points; i++) {
        mult_point p = result_points[i];
        exec_result run = run_mult(p, 3, &mach);
        kernel_dag *model = build_builtin("plain-mult", params_at(p, 2), &mach);
        const kernel_dag *dag = run.dag;
        cr_assert_eq(dag->n, model->n, "point %zu: %d launches, model %d", i, dag->n, model->n);
        for (int j = 0; j < dag->n; j++) {
            const kernel *e = &dag->kernels[j], *d = &model->kernels[j];
            cr_expect(same_kernel_name(e->name, d->name), "%s, %s", e->name, d->name);
            cr_expect_eq(e->blocks, d->blocks, "point %zu, %s: %ld blocks, model %ld", i, d->name, e->blocks,
                         d->blocks);
            cr_expect_eq(e->threads, d->threads);
            cr_expect_eq(e->private_words, j == 0 ? d->private_words : 0, "%s: %g private words", d->name,
                         e->private_words);
        }
        if (dag->n > 1) {
            cr_expect_eq(model->kernels[1].private_words, 2.0 * (double)(p.s * p.l), "declared");
            cr_expect_eq(dag->kernels[1].unaligned, 0, "exec mode marks no kernel unaligned");
        }
        kernel_dag_free(model);
        exec_result_free(&run);
    }
}

Test(exec_plain_mult, the_papers_grid_has_fewer_mulker_blocks_for_s_above_1)
{
    /* grid = 1 packs the ⌈y/s⌉ threads of each row one after another, a
     * block across two rows: the same grid at s = 1 (y = n, ℓ | n), fewer
     * blocks at s >= 2 where sℓ ∤ y: n = m = 2^10, s = 16, ℓ = 256: 64
     * rows of one block each launched, ⌈64·65/256⌉ = 17 at grid = 1. */
    machine mach = test_preset("mcm");
    const mult_point p16 = {1024, 1024, 256, 16}, p1 = {1024, 1024, 256, 1};
    exec_result run16 = run_mult(p16, 1, &mach), run1 = run_mult(p1, 1, &mach);
    kernel_dag *paper16 = build_builtin("plain-mult", params_at(p16, 1), &mach);
    kernel_dag *paper1 = build_builtin("plain-mult", params_at(p1, 1), &mach);
    cr_expect_eq(run16.dag->kernels[0].blocks, 64);
    cr_expect_eq(paper16->kernels[0].blocks, 17);
    for (int j = 0; j < run1.dag->n; j++)
        cr_expect_eq(run1.dag->kernels[j].blocks, paper1->kernels[j].blocks, "s = 1: %s", paper1->kernels[j].name);
    kernel_dag_free(paper16);
    kernel_dag_free(paper1);
    exec_result_free(&run16);
    exec_result_free(&run1);
}

Test(exec_plain_mult, words_a_thread_moves_against_the_declared_alpha_and_beta)
{
    /* MulKer declares α = s + 2, β = s; a thread reads ⌈(s − 1)/ℓ⌉ + s
     * words of a and ⌈s/ℓ⌉ of b where its chunk is inside a (a row of five
     * blocks at n = m = 2^10, s = 4, ℓ = 64: s + 2 as declared; s = 1: 2),
     * and writes s words of M and, here, one zero of f (n + m − 1 words
     * over more threads).  AddKer declares 2s and s: equal in its rounds
     * but the last, where a thread moves up to 5s and 2s words. */
    machine mach = test_preset("mcm");
    const mult_point points[] = {{1024, 1024, 64, 4}, {777, 256, 32, 1}};
    for (size_t i = 0; i < sizeof points / sizeof *points; i++) {
        mult_point p = points[i];
        double s = (double)p.s;
        exec_result run = run_mult(p, 2, &mach);
        kernel_dag *model = build_builtin("plain-mult", params_at(p, 2), &mach);
        cr_expect_eq(model->kernels[0].cost.reads, s + 2);
        cr_expect_eq(run.reports[0].alpha, s == 1 ? 2 : s + 2, "s = %g: MulKer α %g", s, run.reports[0].alpha);
        cr_expect_eq(run.reports[0].beta, s + 1, "s = %g: MulKer β %g", s, run.reports[0].beta);
        int last = run.dag->n - 1;
        for (int j = 1; j < last; j++) {
            cr_expect_eq(run.reports[j].alpha, model->kernels[j].cost.reads, "AddKer[%d]", j - 1);
            cr_expect_eq(run.reports[j].beta, model->kernels[j].cost.writes, "AddKer[%d]", j - 1);
        }
        cr_expect_eq(run.reports[last].alpha, 5 * s, "the last AddKer: α %g", run.reports[last].alpha);
        cr_expect_eq(run.reports[last].beta, 2 * s, "the last AddKer: β %g", run.reports[last].beta);
        kernel_dag_free(model);
        exec_result_free(&run);
    }
}

/* ---- (c) every block's costs ----------------------------------------------- */

Test(exec_plain_mult, every_block_measures_its_counted_costs)
{
    const mult_point points[] = {{1024, 1024, 256, 4}, {1000, 512, 64, 8}, {777, 256, 32, 1},
                                 {300, 64, 16, 32},    {2017, 256, 32, 32}, {1024, 128, 128, 16}};
    machine mach = test_preset("mcm");
    for (size_t i = 0; i < sizeof points / sizeof *points; i++) {
        exec_result run = run_mult(points[i], 4, &mach);
        expect_counted(&run, points[i], mach.warp);
        exec_result_free(&run);
    }
}

Test(exec_plain_mult, span_and_classes_against_the_models)
{
    /* n = m = 2^10, s = 4, ℓ = 256, grid = 2 (two blocks a row).  MulKer:
     * model.c's S(B) is the worksheet's s(2s − 1) = 28 unit operations;
     * thread 0 measures 16s² (s² products at 11, s² additions at 5) and
     * 2s² + 3s + 2 private accesses (s + 2 words loaded, 2s² read and s
     * written by the products, s read back by the store): 302.  Its class
     * counts: model.c's mulmods s² and addmods s²; private accesses
     * 2s² + 3s + 2, where model.c's classes have 2s² + 2s + 2 (its comment
     * counts the same s + 2, 2s², s and s as here: its code is s short);
     * no plain operations, where model.c's have 3s² + 9s + 5.
     * AddKer[0]: model.c's S(B) = s = 4; measured 5s = 20 (s additions). */
    machine mach = test_preset("mcm");
    const mult_point p = {1024, 1024, 256, 4};
    double s = 4;
    exec_result run = run_mult(p, 5, &mach);
    kernel_dag *model = build_builtin("plain-mult", params_at(p, 2), &mach);
    const block_cost *mul = kernel_block_cost(&run.dag->kernels[0], 0), *declared = &model->kernels[0].cost;
    cr_expect_eq(declared->span, s * (2 * s - 1));
    cr_expect_eq(mul->span, 16 * s * s + 2 * s * s + 3 * s + 2);
    cr_expect_eq(mul->span_ops[OP_MULMOD], declared->span_ops[OP_MULMOD]);
    cr_expect_eq(mul->span_ops[OP_ADDMOD], declared->span_ops[OP_ADDMOD]);
    cr_expect_eq(mul->span_ops[OP_PRIVATE], 2 * s * s + 3 * s + 2);
    cr_expect_eq(declared->span_ops[OP_PRIVATE], 2 * s * s + 2 * s + 2);
    cr_expect_eq(mul->span_ops[OP_PLAIN], 0);
    cr_expect_eq(declared->span_ops[OP_PLAIN], 3 * s * s + 9 * s + 5);
    cr_expect_eq(kernel_block_cost(&run.dag->kernels[1], 0)->span, 5 * s);
    cr_expect_eq(model->kernels[1].cost.span, s);
    kernel_dag_free(model);
    exec_result_free(&run);
}

Test(exec_plain_mult, at_an_aligned_point_mulker_moves_about_its_declared_words)
{
    /* n = 2017, m = 256, s = ℓ = w = 32: y = 2048, every row of M on an
     * address group, two blocks a row, x = 8 rows, 16 MulKer blocks of one
     * warp.  Reads: a row's first block reads a from cell 0 (its halo is
     * outside a: one group a round) and b, 33 words a thread; its second
     * block's chunk starts 31 words before a group (two a round), and its
     * last round is past a's end: 65.  Declared: s + 2 = 34.  Writes: 32
     * rounds of M, one group each, and f's n + m − 1 = 2272 zeros over 512
     * threads: 5 rounds in blocks 0..6, 4 after; declared s = 32.  AddKer
     * in its first round (shift 32, rows aligned): 2s reads and s writes,
     * the declared 3sU, in every block. */
    machine mach = test_preset("mcm");
    const mult_point p = {2017, 256, 32, 32};
    double U = mach.u, s = 32;
    exec_result run = run_mult(p, 6, &mach);
    kernel_dag *model = build_builtin("plain-mult", params_at(p, 2), &mach);
    const kernel *mul = &run.dag->kernels[0], *add = &run.dag->kernels[1];
    cr_assert_eq(mul->blocks, 16);
    cr_expect_eq(model->kernels[0].cost.reads, s + 2);
    cr_expect_eq(model->kernels[0].cost.writes, s);
    for (long b = 0; b < mul->blocks; b++) {
        const block_cost *c = kernel_block_cost(mul, b);
        cr_expect_eq(c->reads, b % 2 == 0 ? s + 1 : 2 * s + 1, "MulKer block %ld: reads %g", b, c->reads);
        cr_expect_eq(c->writes, s + (b < 7 ? 5 : 4), "MulKer block %ld: writes %g", b, c->writes);
    }
    for (long b = 0; b < add->blocks; b++) {
        const block_cost *c = kernel_block_cost(add, b);
        cr_expect_eq(U * (c->reads + c->writes), block_overhead(&model->kernels[1], U), "AddKer[0] block %ld", b);
    }
    kernel_dag_free(model);
    exec_result_free(&run);
}

/* ---- (d) simulated time ------------------------------------------------------ */

Test(exec_plain_mult, simulated_time_within_theorem_1)
{
    machine mach = test_preset("mcm");
    const mult_point points[] = {{1024, 1024, 256, 4}, {1000, 512, 64, 8}};
    for (size_t i = 0; i < sizeof points / sizeof *points; i++) {
        exec_result run = run_mult(points[i], 7, &mach);
        sim_result r = simulate(run.dag, &mach);
        cr_expect_leq(r.T, r.bound_theorem1, "T %g, Theorem 1 %g", r.T, r.bound_theorem1);
        cr_log_info("plain-mult n = %ld, m = %ld, l = %ld, s = %ld: T exec %g, model (grid = 2) %g, Theorem 1 %g",
                    points[i].n, points[i].m, points[i].l, points[i].s, r.T,
                    builtin_time("plain-mult", params_at(points[i], 2), &mach), r.bound_theorem1);
        sim_result_free(&r);
        exec_result_free(&run);
    }
}

/* ---- (e) what the kernels refuse ------------------------------------------- */

Test(exec_plain_mult, refuses_what_cuda_refs_kernels_do_not_take)
{
    /* model.c takes any whole n >= m >= s >= 1 (⌈m/s⌉ rows, the odd row of
     * a round passing through); the kernels, as cuda_ref's, take m and s
     * powers of two with m >= 2s */
    machine mach = test_preset("mcm");
    const mult_point bad[] = {{1000, 700, 64, 4}, {1024, 1024, 256, 3}, {1024, 8, 256, 8}, {100, 200, 32, 4}};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        const char *why = case_exec_refuses("plain-mult", test_params("n m l s", (double)bad[i].n, (double)bad[i].m,
                                                                      (double)bad[i].l, (double)bad[i].s),
                                            &mach);
        cr_assert_not_null(why, "point %zu was accepted", i);
        cr_expect(strstr(why, "needs m and s powers of two, m >= 2s, whole n >= m and l >= 1") != NULL, "%s", why);
    }
}
