/*
 * test_exec_radix_sort.c — radix sort in exec mode, its kernels written
 * once (kernels.c): the keys against qsort at several sizes (kernels.c's
 * check), every kernel's measured per-block costs against the counts
 * kernels.c documents and so against model.c's declared ones (equal where
 * they agree, the documented difference elsewhere), the simulated time,
 * the best s, CREW on a histogram built the obvious (racy) way, and the
 * points refused.
 *
 * The transfers are checked against an independent count of the UMM rule
 * (tests/helpers.h, round_cell_words): in each step a thread's k-th global
 * read (write) is its round k; a warp's round costs one transaction per
 * distinct address group among its lanes.  The addresses are worked out
 * here from the algorithm: for scatter, whose addresses depend on the
 * keys, from the same keys (kernels.c's setup draws them with mcm_random
 * from the machine's seed) sorted serially, pass by pass.
 */
#include "helpers.h"
#include "program.h"

#include "../common/block_scan_costs.h"
#include "mcm_kernel.h"

#include <math.h>

#define RADIX "radix-sort"

/* ---- a point, its keys, and its passes done serially ----------------------- */

typedef struct point {
    long n, tiles, hist;   /* keys, tiles of 4ℓ, histogram entries 2^s·tiles */
    int l, s, c;
    word *keys;            /* what kernels.c's setup draws */
    word **sorted;         /* pass p: the sorted tiles local_sort writes */
    word **offsets;        /* pass p: the scanned histogram */
} point;

static int passes_of(const point *p) { return (p->c + p->s - 1) / p->s; }

static word digit_at(word key, int pass, int s) { return key >> (pass * s) & (((word)1 << s) - 1); }

/* The keys drawn with the seed, and every pass's sorted tiles and offsets
 * by a serial stable counting sort. */
static point point_of(long n, int l, int s, int c, uint64_t seed)
{
    point p = {n, n / (4L * l), (n / (4L * l)) << s, l, s, c, NULL, NULL, NULL};
    int passes = passes_of(&p);
    long size = 4L * l;
    p.keys = malloc(sizeof *p.keys * (size_t)n);
    word *now = malloc(sizeof *now * (size_t)n), *next = malloc(sizeof *next * (size_t)n);
    p.sorted = calloc((size_t)passes, sizeof *p.sorted);
    p.offsets = calloc((size_t)passes, sizeof *p.offsets);
    uint64_t state = seed;
    for (long i = 0; i < n; i++)
        now[i] = p.keys[i] = mcm_random(&state) & ((1ull << c) - 1);
    for (int pass = 0; pass < passes; pass++) {
        word *sorted = p.sorted[pass] = malloc(sizeof *sorted * (size_t)n);
        word *count = p.offsets[pass] = calloc((size_t)p.hist, sizeof *count);
        for (long tile = 0; tile < p.tiles; tile++) {
            long at = tile * size;
            for (word d = 0; d < (word)1 << s; d++) /* stable: by digit, in order */
                for (long j = 0; j < size; j++)
                    if (digit_at(now[tile * size + j], pass, s) == d) {
                        sorted[at++] = now[tile * size + j];
                        count[(long)d * p.tiles + tile]++;
                    }
        }
        word sum = 0;
        for (long i = 0; i < p.hist; i++) { /* exclusive scan, column-major */
            word x = count[i];
            count[i] = sum;
            sum += x;
        }
        for (long tile = 0; tile < p.tiles; tile++)
            for (long j = 0; j < size; j++) {
                word key = sorted[tile * size + j], d = digit_at(key, pass, s);
                long first = 0;
                while (digit_at(sorted[tile * size + first], pass, s) != d)
                    first++;
                next[count[(long)d * p.tiles + tile] + j - first] = key;
            }
        word *swap = now;
        now = next;
        next = swap;
    }
    free(now);
    free(next);
    return p;
}

static void point_free(point *p)
{
    for (int pass = 0; pass < passes_of(p); pass++) {
        free(p->sorted[pass]);
        free(p->offsets[pass]);
    }
    free(p->sorted);
    free(p->offsets);
    free(p->keys);
}

static exec_result run_sort(const point *p, const machine *m)
{
    return run_case_exec(RADIX, test_params("n l s c", p->n, p->l, p->s, p->c), m);
}

/* ---- what each kernel measures ----------------------------------------------- */

/* The launch of model kernel `modelled` ("ScanInclusive[2]"): kernels.c's
 * name for it. */
static const char *launch_of(const char *modelled)
{
    static const char *const names[][2] = {{"LocalSort[", "local_sort"},         {"ScanInclusive[", "scan_tiles"},
                                           {"ScanMediate[", "scan_mediate"},     {"ScanExclusive[", "scan_apply"},
                                           {"Scatter[", "scatter"}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strncmp(modelled, names[i][0], strlen(names[i][0])) == 0)
            return names[i][1];
    cr_assert_fail("unexpected kernel %s", modelled);
    return NULL;
}

/* A round of local_sort's histogram or of scatter's gather and scatter. */
typedef struct pass_round {
    const point *p;
    int pass, round;
} pass_round;

/* local_sort, the thread's round-th digit d = tid + round·ℓ: hist[d·T + tile] */
static long hist_cell(long g, const void *ctx)
{
    const pass_round *r = ctx;
    long d = g % r->p->l + (long)r->round * r->p->l;
    return d < 1L << r->p->s ? d * r->p->tiles + g / r->p->l : -1;
}

/* scatter, key j = tid + round·ℓ of the sorted tile: its digit's offset ... */
static long offset_cell(long g, const void *ctx)
{
    const pass_round *r = ctx;
    long size = 4L * r->p->l, tile = g / r->p->l, j = g % r->p->l + (long)r->round * r->p->l;
    return (long)digit_at(r->p->sorted[r->pass][tile * size + j], r->pass, r->p->s) * r->p->tiles + tile;
}

/* ... and its place: the offset plus its rank among the tile's keys of its digit */
static long place_cell(long g, const void *ctx)
{
    const pass_round *r = ctx;
    long size = 4L * r->p->l, tile = g / r->p->l, j = g % r->p->l + (long)r->round * r->p->l, first = 0;
    const word *sorted = r->p->sorted[r->pass] + tile * size;
    word d = digit_at(sorted[j], r->pass, r->p->s);
    while (digit_at(sorted[first], r->pass, r->p->s) != d)
        first++;
    return (long)r->p->offsets[r->pass][(long)d * r->p->tiles + tile] + j - first;
}

/* Which pass model kernel k belongs to: its name's [p]. */
static int pass_of(const kernel *k)
{
    const char *open = strchr(k->name, '[');
    cr_assert_not_null(open, "%s", k->name);
    return atoi(open + 1);
}

/* A point on a warp of w. */
typedef struct on_warp {
    const point *p;
    int w;
} on_warp;

/* What block b of model kernel k measures, as kernels.c documents it: the
 * scans as block_scan_costs.h counts them for an addition of 1 operation. */
static block_expected expected_of(const kernel *k, long b, const void *ctx)
{
    const point *p = ((const on_warp *)ctx)->p;
    const char *launched = launch_of(k->name);
    int l = p->l, w = ((const on_warp *)ctx)->w, pass = pass_of(k);
    double L = log2(l), r = ceil(exp2(p->s) / l);
    block_expected e = {0, 0, 0, 0, 0, 0};
    scan_rounds tile = {p->n, -1, 0, l, 0};
    pass_round at = {p, pass, 0};
    if (strcmp(launched, "local_sort") == 0) {
        e.span = 8 + p->s * (68 + 9 * L) + r * (8 * L + 25);
        e.work = 8.0 * l + p->s * (74.0 * l - 6) + (exp2(p->s) - 1) * (8 * L + 25) + 4 * L + 13;
        for (tile.round = 0; tile.round < 4; tile.round++) {
            e.reads += round_cell_words(scan_item_cell, &tile, b, l, w);
            e.writes += round_cell_words(scan_item_cell, &tile, b, l, w);
        }
        for (at.round = 0; at.round < r; at.round++)
            e.writes += round_cell_words(hist_cell, &at, b, l, w);
        e.alpha = 4;
        e.beta = 4 + r;
    } else if (strcmp(launched, "scatter") == 0) {
        e.span = 16 * L + 68;
        e.work = l * (16 * L + 68);
        for (tile.round = at.round = 0; tile.round < 4; tile.round++, at.round++) {
            e.reads += round_cell_words(scan_item_cell, &tile, b, l, w) + round_cell_words(offset_cell, &at, b, l, w);
            e.writes += round_cell_words(place_cell, &at, b, l, w);
        }
        e.alpha = 8;
        e.beta = 4;
    } else {
        long len = strcmp(launched, "scan_mediate") == 0 ? (p->hist + 4L * l - 1) / (4L * l) : p->hist;
        cr_assert(scan_kernel_expected(launched, 1, len, l, w, b, &e));
    }
    return e;
}

/* The exec DAG against model.c's for the point, kernel by kernel and block
 * by block. */
static void compare_with_model(const point *p, const machine *m)
{
    exec_result run = run_sort(p, m);
    kernel_dag *model = build_builtin(RADIX, test_params("n c s l", p->n, p->c, p->s, p->l), m);
    on_warp at = {p, m->warp};
    expect_measured_costs(&run, model, m, launch_of, expected_of, &at);
    kernel_dag_free(model);
    exec_result_free(&run);
}

/* ---- (a) the result ---------------------------------------------------------- */

Test(exec_radix_sort, the_keys_come_out_as_qsort_orders_them)
{
    /* kernels.c's check compares every key with qsort's; one tile of
     * counts (3 kernels a pass) and several; s dividing c or not; ℓ from 2 */
    const double points[][4] = {{16384, 256, 4, 32}, {4096, 64, 8, 32}, {4096, 128, 5, 32},
                                {4096, 128, 3, 10},  {512, 2, 2, 32},   {64, 16, 1, 1}};
    machine m = test_preset("mcm");
    for (size_t i = 0; i < sizeof points / sizeof points[0]; i++)
        for (uint64_t seed = 1; seed <= 2; seed++) {
            m.seed = seed;
            exec_result r = run_case_exec(RADIX, test_params("n l s c", points[i][0], points[i][1], points[i][2],
                                                             points[i][3]), &m);
            exec_result_free(&r);
        }
}

Test(exec_radix_sort, refuses_what_its_kernels_cannot_sort)
{
    machine m = test_preset("mcm");
    const struct {
        double n, l, s, c;
        const char *why;
    } bad[] = {{4096, 96, 4, 32, "ℓ must be a power of two <= 1024"},
               {4096, 2048, 4, 32, "ℓ must be a power of two <= 1024"},
               {4000, 64, 4, 32, "n must be a multiple of 4ℓ = 256"},
               {128, 64, 4, 32, "n must be a multiple of 4ℓ = 256"},
               {4096, 64, 8, 4, "needs whole 1 <= s <= c <= 32 and s <= 16"},
               {4096, 64, 17, 32, "needs whole 1 <= s <= c <= 32 and s <= 16"},
               {4096, 64, 4, 64, "needs whole 1 <= s <= c <= 32 and s <= 16"}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const char *why =
            case_exec_refuses(RADIX, test_params("n l s c", bad[i].n, bad[i].l, bad[i].s, bad[i].c), &m);
        cr_assert_not_null(why, "n = %g, ℓ = %g, s = %g, c = %g was accepted", bad[i].n, bad[i].l, bad[i].s,
                           bad[i].c);
        cr_expect(strstr(why, bad[i].why) != NULL, "%s", why);
    }
}

/* ---- (b) measured costs against the model ------------------------------------ */

Test(exec_radix_sort, every_block_costs_what_kernels_c_documents)
{
    machine m = test_preset("mcm");
    const long points[][4] = {
        {16384, 64, 4, 16}, /* 2^s < ℓ; 4 tiles of counts, scan_mediate one chunk */
        {8192, 32, 8, 16},  /* 2^s > ℓ: 8 digits a thread; 128 tiles of counts, one chunk */
        {4096, 16, 8, 8},   /* ℓ < w; 256 tiles of counts, scan_mediate in 4 chunks */
        {4096, 256, 2, 6},  /* one tile of counts: 3 kernels a pass */
    };
    for (size_t i = 0; i < sizeof points / sizeof points[0]; i++) {
        point p = point_of(points[i][0], (int)points[i][1], (int)points[i][2], (int)points[i][3], m.seed);
        compare_with_model(&p, &m);
        point_free(&p);
    }
}

Test(exec_radix_sort, where_the_measured_costs_are_the_models)
{
    /* n = 2^14, ℓ = 64, s = 4 (2^s < ℓ), w = 32: scan_apply (ScanExclusive)
     * costs what model.c declares, S(B) = 4, W(B) = 4ℓ, α = 5, β = 4,
     * O(B) = 9U; local_sort moves the declared α = 4 and β = 5 words a
     * thread, but its histogram's are a word per digit, `tiles` apart: an
     * address group each; scatter's β = 4 is the model's. */
    machine m = test_preset("mcm");
    point p = point_of(1 << 14, 64, 4, 16, m.seed);
    exec_result run = run_sort(&p, &m);
    kernel_dag *model = build_builtin(RADIX, test_params("n c s l", p.n, p.c, p.s, p.l), &m);
    for (int i = 0; i < model->n; i++) {
        const kernel *d = &model->kernels[i];
        const block_cost *c = kernel_block_cost(&run.dag->kernels[i], 0);
        const char *launched = launch_of(d->name);
        if (strcmp(launched, "scan_apply") == 0) {
            cr_expect_eq(c->span, d->cost.span);
            cr_expect_eq(c->work, d->cost.work);
            cr_expect_eq(c->reads + c->writes, d->cost.reads + d->cost.writes);
            cr_expect_eq(run.reports[i].alpha, d->cost.reads);
            cr_expect_eq(run.reports[i].beta, d->cost.writes);
        } else if (strcmp(launched, "local_sort") == 0) {
            cr_expect_eq(run.reports[i].alpha, d->cost.reads);
            cr_expect_eq(run.reports[i].beta, d->cost.writes);
            cr_expect_eq(c->writes, 4 + 16.0 * 32 / 64, "16 digits, each its own address group: %g", c->writes);
        } else if (strcmp(launched, "scatter") == 0) {
            cr_expect_eq(run.reports[i].beta, d->cost.writes);
        }
    }
    kernel_dag_free(model);
    exec_result_free(&run);
    point_free(&p);
}

/* ---- (c) simulated time ------------------------------------------------------------ */

Test(exec_radix_sort, simulated_time_as_documented_and_within_theorem_1)
{
    const char *presets[] = {"mcm", "gtx670"};
    for (int i = 0; i < 2; i++) {
        machine m = test_preset(presets[i]);
        point p = point_of(8192, 64, 4, 16, m.seed);
        exec_result run = run_sort(&p, &m);
        kernel_dag *model = build_builtin(RADIX, test_params("n c s l", p.n, p.c, p.s, p.l), &m);
        on_warp at = {&p, m.warp};
        expect_documented_time(&run, model, &m, expected_of, &at, "every private access counted");
        kernel_dag_free(model);
        exec_result_free(&run);
        point_free(&p);
    }
}

Test(exec_radix_sort, the_measured_costs_move_the_best_s_below_log_l)
{
    /* The thesis (§4.6) takes 2^s = ℓ; model.c's declared costs agree: at
     * n = 2^14, c = 12, ℓ = 64 on `mcm` its T is least at s = 6 of 4 and 6.
     * Measured, the histogram's words and the offsets' are an address group
     * a digit (2^s·w/ℓ words a thread, not 1), and each digit's count two
     * binary searches: s = 4 is faster than s = 6. */
    machine m = test_preset("mcm");
    double T[2][2]; /* [exec, model][s = 4, 6] */
    for (int i = 0; i < 2; i++) {
        double s = i ? 6 : 4;
        exec_result run = run_case_exec(RADIX, test_params("n l s c", 1 << 14, 64, s, 12), &m);
        kernel_dag *model = build_builtin(RADIX, test_params("n c s l", 1 << 14, 12, s, 64), &m);
        sim_result re = simulate(run.dag, &m), rm = simulate(model, &m);
        T[0][i] = re.T;
        T[1][i] = rm.T;
        sim_result_free(&re);
        sim_result_free(&rm);
        kernel_dag_free(model);
        exec_result_free(&run);
    }
    cr_log_info("n = 2^14, c = 12, l = 64: T(s=4) exec %g model %g; T(s=6) exec %g model %g", T[0][0], T[1][0],
                T[0][1], T[1][1]);
    cr_expect_lt(T[1][1], T[1][0], "model: s = 6 (2^s = ℓ) faster than s = 4");
    cr_expect_lt(T[0][0], T[0][1], "exec: s = 4 faster than s = 6");
}

/* ---- (d) CREW ------------------------------------------------------------------------ */

typedef struct racy_args { gmem keys; } racy_args;

/* The obvious histogram: every thread adds one to its key's bucket. */
static void count_into_buckets(exec_thread *t, void *args)
{
    const racy_args *a = args;
    word d = exec_gread(t, a->keys, t->bid * t->threads + t->tid) & 15;
    exec_pwrite(t, (long)d, exec_pread(t, (long)d) + 1);
}
static const exec_step racy_steps[] = {count_into_buckets};
static const exec_kernel racy_histogram = {"racy-histogram", 1, racy_steps, 16};

Test(exec_radix_sort, a_histogram_by_increments_is_a_crew_conflict)
{
    /* why local_sort reads each digit's count off the sorted tile by binary
     * search: two threads with keys of one digit would both write its
     * bucket in one step */
    machine m = test_preset("mcm");
    exec_run *run = exec_begin("racy", &m);
    racy_args a = {exec_alloc(run, "keys", 64)};
    for (long i = 0; i < 64; i++)
        a.keys->cells[i] = (word)(i % 5 == 2 ? 7 : i); /* threads 2 and 7 both have digit 7 */
    cr_expect_eq(exec_launch(run, &racy_histogram, 1, 64, &a), -1);
    const char *msg = fail_message();
    cr_expect(strstr(msg, "kernel 'racy-histogram', block 0, step 0: threads 2 and 7 both write private[7]") != NULL,
              "%s", msg);
    exec_end(run);
}
