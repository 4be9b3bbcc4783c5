/*
 * test_exec_radix_sort.c — radix sort in exec mode
 * (programs/radix_sort_exec.c): the result against qsort, every kernel's
 * measured per-block costs against the formulas radix_sort_exec.c derives
 * from its kernels (and so against radix_sort.c's worksheet costs: equal
 * where they agree, the documented difference elsewhere), the simulated
 * time, CREW on a histogram built the obvious (racy) way, and the points
 * refused.
 *
 * The transfers are checked against an independent count of the UMM rule
 * (SPEC §3; sim/exec.h): in each step, a thread's k-th global read (write)
 * is its round k; a warp's round costs one transaction per distinct address
 * group ⌊cell/w⌋ among the lanes that make it; a block moves Σ
 * transactions · min(w, ℓ)/ℓ words per thread.  The addresses each thread
 * touches are worked out here from the algorithm (for Scatter, from a
 * serial stable sort of the same keys).  Every cost is a whole number or a
 * multiple of 1/32: the comparisons are exact.
 */
#include "exec_programs.h"
#include "rng.h"
#include "helpers.h"
#include "program.h"
#include "radix_sort_exec.h"

#include <math.h>

#define RADIX "radix-sort"

/* ---- a point ------------------------------------------------------------------- */

typedef struct point {
    long n;
    int c, s, l;
    long tiles, buckets, entries, scan_blocks;
    int r; /* digits per thread: ⌈2^s/ℓ⌉ */
} point;

static point point_of(long n, int c, int s, int l)
{
    point p = {n, c, s, l, 0, 0, 0, 0, 0};
    p.tiles = (n + 4L * l - 1) / (4L * l);
    p.buckets = 1L << s;
    p.entries = p.tiles * p.buckets;
    p.scan_blocks = (p.entries + 4L * l - 1) / (4L * l);
    p.r = (int)((p.buckets + l - 1) / l);
    return p;
}

static vars params_of(const point *p) { return test_params("n c s l", p->n, p->c, p->s, p->l); }

static word *random_keys(const point *p, uint64_t seed)
{
    word *keys = malloc(sizeof *keys * (size_t)p->n), mask = p->c == 64 ? ~(word)0 : ((word)1 << p->c) - 1;
    rng g;
    rng_seed(&g, seed);
    for (long i = 0; i < p->n; i++)
        keys[i] = rng_next(&g) & mask;
    return keys;
}

/* Sort `keys` in exec mode; the run (its DAG and reports). */
static exec_run *sort_keys(const point *p, const word *keys, const machine *m)
{
    exec_run *run = exec_begin(RADIX, m);
    vars v = params_of(p);
    cr_assert_eq(radix_sort_exec_keys(&v, m, run, keys), 0, "n = %ld, c = %d, s = %d, l = %d: %s", p->n, p->c,
                 p->s, p->l, fail_message());
    return run;
}

/* ---- (a) results ------------------------------------------------------------------ */

Test(exec_radix_sort, sorts_random_keys_as_qsort_does)
{
    /* n a multiple of 4ℓ or not, s dividing c or not, 2^s below and above
     * ℓ, one scan block or several, the mediate scan over more than 4ℓ
     * totals (n = 1000, s = 8, ℓ = 8: 256 scan blocks), c = 64. */
    static const double points[][4] = {
        /* n, c, s, l */
        {5000, 32, 4, 64}, {4096, 32, 8, 256}, {3072, 12, 6, 64}, {777, 20, 3, 16},
        {1000, 16, 8, 8},  {1, 8, 4, 8},       {2000, 64, 8, 64}, {6000, 16, 8, 32},
    };
    machine m = test_preset("mcm");
    for (size_t i = 0; i < sizeof points / sizeof *points; i++)
        for (uint64_t seed = 1; seed <= 2; seed++) {
            m.seed = seed;
            vars v = test_params("n c s l", points[i][0], points[i][1], points[i][2], points[i][3]);
            exec_run *run = exec_begin(RADIX, &m);
            cr_expect_eq(exec_program_find(RADIX)->host(&v, &m, run), 0, "n = %g, c = %g, s = %g, l = %g: %s",
                         points[i][0], points[i][1], points[i][2], points[i][3], fail_message());
            exec_end(run);
        }
}

Test(exec_radix_sort, sorts_keys_with_few_distinct_values)
{
    /* many equal keys: the splits must keep equal keys apart (a wrong place
     * is a CREW conflict in private memory or a wrong result) */
    point p = point_of(3000, 16, 4, 64);
    word *keys = malloc(sizeof *keys * (size_t)p.n);
    for (long i = 0; i < p.n; i++)
        keys[i] = (word)((i * 7) % 3) * 0x1111;
    machine m = test_preset("mcm");
    exec_end(sort_keys(&p, keys, &m));
    free(keys);
}

/* ---- the UMM rule, per thread and round ---------------------------------------------- */

#define MAX_ACCESSES 64

/* A thread's global reads or writes in one step, in order. */
typedef int (*access_list)(const void *ctx, long b, int tid, long *cells);

/* Transactions of block b in one step: per warp and round, the distinct
 * address groups among the lanes that make that round. */
static long step_transactions(access_list list, const void *ctx, long b, int l, int w)
{
    long total = 0;
    for (int first = 0; first < l; first += w) {
        int lanes = first + w < l ? w : l - first, count[1024];
        static long cells[1024][MAX_ACCESSES];
        int rounds = 0;
        for (int lane = 0; lane < lanes; lane++) {
            count[lane] = list(ctx, b, first + lane, cells[lane]);
            rounds = count[lane] > rounds ? count[lane] : rounds;
        }
        for (int k = 0; k < rounds; k++) {
            long groups[1024];
            int n = 0;
            for (int lane = 0; lane < lanes; lane++)
                if (count[lane] > k) {
                    long g = cells[lane][k] / w;
                    int seen = 0;
                    for (int i = 0; i < n && !seen; i++)
                        seen = groups[i] == g;
                    if (!seen)
                        groups[n++] = g;
                }
            total += n;
        }
    }
    return total;
}

static double to_words(long transactions, int l, int w) { return (double)transactions * (w < l ? w : l) / l; }

/* What the kernels touch, worked out from the algorithm. */
typedef struct layout {
    const point *p;
    long *dest; /* Scatter: each sorted position's place, -1 for a pad */
    int items;  /* scans: entries per thread */
} layout;

static long tile_real(const point *p, long b)
{
    long left = p->n - b * 4L * p->l;
    return left < 4L * p->l ? left : 4L * p->l;
}

/* The 4 cells of a tile a thread moves: base + kℓ + tid, those < limit. */
static int tile_cells(long base, int l, int tid, long limit, long *cells)
{
    int n = 0;
    for (int k = 0; k < 4; k++)
        if (base + (long)k * l + tid < limit)
            cells[n++] = base + (long)k * l + tid;
    return n;
}

static int local_sort_reads(const void *ctx, long b, int tid, long *cells)
{
    const point *p = ((const layout *)ctx)->p;
    return tile_cells(b * 4L * p->l, p->l, tid, p->n, cells);
}

static int local_sort_stores(const void *ctx, long b, int tid, long *cells)
{
    const point *p = ((const layout *)ctx)->p;
    return tile_cells(b * 4L * p->l, p->l, tid, p->tiles * 4L * p->l, cells);
}

/* H[d·tiles + tile] for the thread's digits d = tid, tid + ℓ, ... */
static int histogram_cells(const void *ctx, long b, int tid, long *cells)
{
    const point *p = ((const layout *)ctx)->p;
    int n = 0;
    for (long d = tid; d < p->buckets; d += p->l)
        cells[n++] = d * p->tiles + b;
    return n;
}

/* The scanned entry before H[d·tiles + tile] (none for the very first). */
static int offset_reads(const void *ctx, long b, int tid, long *cells)
{
    const point *p = ((const layout *)ctx)->p;
    int n = tile_cells(b * 4L * p->l, p->l, tid, p->tiles * 4L * p->l, cells);
    for (long d = tid; d < p->buckets; d += p->l)
        if (d * p->tiles + b > 0)
            cells[n++] = d * p->tiles + b - 1;
    return n;
}

static int scatter_writes(const void *ctx, long b, int tid, long *cells)
{
    const layout *y = ctx;
    int n = 0;
    for (int k = 0; k < 4; k++) {
        long d = y->dest[b * 4L * y->p->l + (long)k * y->p->l + tid];
        if (d >= 0)
            cells[n++] = d;
    }
    return n;
}

/* ScanInclusive over H (q = 4), its total (when several blocks) last. */
static int inclusive_entries(const void *ctx, long b, int tid, long *cells)
{
    const point *p = ((const layout *)ctx)->p;
    return tile_cells(b * 4L * p->l, p->l, tid, p->entries, cells);
}

static int inclusive_writes(const void *ctx, long b, int tid, long *cells)
{
    const point *p = ((const layout *)ctx)->p;
    int n = inclusive_entries(ctx, b, tid, cells);
    if (tid == 0 && p->scan_blocks > 1)
        cells[n++] = b; /* totals[b] */
    return n;
}

/* ScanMediate: its q entries per thread, kℓ + tid < G. */
static int mediate_entries(const void *ctx, long b, int tid, long *cells)
{
    const layout *y = ctx;
    (void)b;
    int n = 0;
    for (long k = 0; k < y->items; k++)
        if (k * y->p->l + tid < y->p->scan_blocks)
            cells[n++] = k * y->p->l + tid;
    return n;
}

/* ScanExclusive block bid: carries[b − 1] first (b = bid + 1), then the
 * entries; it writes the entries. */
static int exclusive_reads(const void *ctx, long bid, int tid, long *cells)
{
    const point *p = ((const layout *)ctx)->p;
    cells[0] = bid;
    return 1 + tile_cells((bid + 1) * 4L * p->l, p->l, tid, p->entries, cells + 1);
}

static int exclusive_writes(const void *ctx, long bid, int tid, long *cells)
{
    const point *p = ((const layout *)ctx)->p;
    return tile_cells((bid + 1) * 4L * p->l, p->l, tid, p->entries, cells);
}

/* ---- Scatter's places, from a serial stable sort --------------------------------------- */

typedef struct ranked { word key; long rank; } ranked;
static word sort_mask;
static int sort_shift;

static int by_field_then_rank(const void *x, const void *y)
{
    const ranked *a = x, *b = y;
    word fa = (a->key >> sort_shift) & sort_mask, fb = (b->key >> sort_shift) & sort_mask;
    if (fa != fb)
        return fa < fb ? -1 : 1;
    return (a->rank > b->rank) - (a->rank < b->rank);
}

/* Stable sort of keys[0..n) by the field (key >> shift) & mask. */
static void stable_sort(word *keys, long n, int shift, word mask)
{
    ranked *r = malloc(sizeof *r * (size_t)(n > 0 ? n : 1));
    for (long i = 0; i < n; i++)
        r[i] = (ranked){keys[i], i};
    sort_shift = shift;
    sort_mask = mask;
    qsort(r, (size_t)n, sizeof *r, by_field_then_rank);
    for (long i = 0; i < n; i++)
        keys[i] = r[i].key;
    free(r);
}

/* Where Scatter of pass `pass` puts each position of each sorted tile:
 * offset(d, tile) + position − first(d, tile); -1 for a pad.  The pass's
 * input is the keys stably sorted by their lower pass·s bits. */
static long *scatter_places(const point *p, const word *keys, int pass)
{
    long tile = 4L * p->l, *dest = malloc(sizeof *dest * (size_t)(p->tiles * tile));
    word *order = malloc(sizeof *order * (size_t)p->n), mask = (word)p->buckets - 1;
    memcpy(order, keys, sizeof *order * (size_t)p->n);
    int bits = pass * p->s;
    stable_sort(order, p->n, 0, bits >= 64 ? ~(word)0 : ((word)1 << bits) - 1);
    long *below = calloc((size_t)p->buckets + 1, sizeof *below), *before = calloc((size_t)p->buckets, sizeof *before);
    for (long i = 0; i < p->n; i++)
        below[((order[i] >> bits) & mask) + 1]++;
    for (long d = 0; d < p->buckets; d++)
        below[d + 1] += below[d]; /* below[d]: keys with digit < d */
    for (long b = 0; b < p->tiles; b++) {
        long real = tile_real(p, b), *first = calloc((size_t)p->buckets + 1, sizeof *first);
        word *t = order + b * tile;
        stable_sort(t, real, bits, mask);
        for (long i = 0; i < real; i++)
            first[((t[i] >> bits) & mask) + 1]++;
        for (long d = 0; d < p->buckets; d++)
            first[d + 1] += first[d];
        for (long i = 0; i < tile; i++) {
            long d = i < real ? (long)((t[i] >> bits) & mask) : -1;
            dest[b * tile + i] = d < 0 ? -1 : below[d] + before[d] + i - first[d];
        }
        for (long d = 0; d < p->buckets; d++)
            before[d] += first[d + 1] - first[d];
        free(first);
    }
    free(below);
    free(before);
    free(order);
    return dest;
}

/* ---- (b) measured costs ---------------------------------------------------------------- */

/* The formulas of radix_sort_exec.c (ℓ >= 2 a power of two). */
static double local_sort_span(const point *p, double log_l)
{
    return 8 + p->s * (9 * log_l + 45) + p->r * (5 * log_l + 19);
}
static double local_sort_work(const point *p, double log_l)
{
    return 8.0 * p->l + p->s * (51.0 * p->l - 6) + (double)p->buckets * (5 * log_l + 19) - 1;
}
static double scan_span(int q, double log_l, int total) { return 7.0 * q + 9 * log_l + 4 + total; }
static double scan_work(int q, int l, int total) { return 7.0 * q * l + 10.0 * l - 6 + total; }
static double scatter_span(const point *p, double log_l) { return 20 + p->r * (5 * log_l + 19); }
static double scatter_work(const point *p, double log_l)
{
    return 20.0 * p->l + (double)p->buckets * (5 * log_l + 19);
}

#define BLOCK_AT "%s block %ld: %s %.17g, expected %.17g"

static void expect_block(const kernel *k, long b, double span, double work, double reads, double writes)
{
    const block_cost *c = kernel_block_cost(k, b);
    cr_expect_eq(c->span, span, BLOCK_AT, k->name, b, "S(B)", c->span, span);
    cr_expect_eq(c->work, work, BLOCK_AT, k->name, b, "W(B)", c->work, work);
    cr_expect_eq(c->reads, reads, BLOCK_AT, k->name, b, "reads", c->reads, reads);
    cr_expect_eq(c->writes, writes, BLOCK_AT, k->name, b, "writes", c->writes, writes);
}

static double words(access_list list, const layout *y, long b, int w)
{
    return to_words(step_transactions(list, y, b, y->p->l, w), y->p->l, w);
}

static void expect_local_sort(const kernel *k, const layout *y, int w)
{
    double log_l = log2(y->p->l);
    for (long b = 0; b < k->blocks; b++)
        expect_block(k, b, local_sort_span(y->p, log_l), local_sort_work(y->p, log_l),
                     words(local_sort_reads, y, b, w),
                     words(local_sort_stores, y, b, w) + words(histogram_cells, y, b, w));
}

static void expect_inclusive(const kernel *k, const layout *y, int w)
{
    int total = y->p->scan_blocks > 1;
    double log_l = log2(y->p->l);
    for (long b = 0; b < k->blocks; b++)
        expect_block(k, b, scan_span(4, log_l, total), scan_work(4, y->p->l, total),
                     words(inclusive_entries, y, b, w), words(inclusive_writes, y, b, w));
}

static void expect_mediate(const kernel *k, layout *y, int w)
{
    long per_thread = (y->p->scan_blocks + y->p->l - 1) / y->p->l;
    y->items = per_thread > 4 ? (int)per_thread : 4;
    double log_l = log2(y->p->l);
    expect_block(k, 0, scan_span(y->items, log_l, 0), scan_work(y->items, y->p->l, 0),
                 words(mediate_entries, y, 0, w), words(mediate_entries, y, 0, w));
}

static void expect_exclusive(const kernel *k, const layout *y, int w)
{
    const point *p = y->p;
    for (long bid = 0; bid < k->blocks; bid++) {
        long first = (bid + 1) * 4L * p->l, left = p->entries - first, items = left < 4L * p->l ? left : 4L * p->l;
        double span = (double)((items + p->l - 1) / p->l); /* one addition per entry */
        expect_block(k, bid, span, (double)items, words(exclusive_reads, y, bid, w),
                     words(exclusive_writes, y, bid, w));
    }
}

static void expect_scatter(const kernel *k, const layout *y, int w)
{
    double log_l = log2(y->p->l);
    for (long b = 0; b < k->blocks; b++)
        expect_block(k, b, scatter_span(y->p, log_l), scatter_work(y->p, log_l), words(offset_reads, y, b, w),
                     words(scatter_writes, y, b, w));
}

/* Every kernel of the run against the formulas and the UMM rule, and the
 * kernel list against radix_sort.c's. */
static void expect_measured_costs(const point *p, const word *keys, const exec_run *run, const machine *m)
{
    const kernel_dag *dag = exec_dag(run);
    kernel_dag *model = build_builtin(RADIX, params_of(p), m);
    cr_assert_eq(dag->n, model->n, "kernels: exec %d, model %d", dag->n, model->n);
    int per_pass = p->scan_blocks > 1 ? 5 : 3;
    for (int i = 0; i < dag->n; i++) {
        const kernel *k = &dag->kernels[i];
        cr_expect_str_eq(k->name, model->kernels[i].name);
        cr_expect_eq(k->blocks, model->kernels[i].blocks, "%s", k->name);
        cr_expect_eq(k->threads, model->kernels[i].threads, "%s", k->name);
        layout y = {p, NULL, 4};
        int at = i % per_pass, pass = i / per_pass;
        if (at == 0)
            expect_local_sort(k, &y, m->warp);
        else if (at == 1)
            expect_inclusive(k, &y, m->warp);
        else if (at == per_pass - 1) {
            y.dest = scatter_places(p, keys, pass);
            expect_scatter(k, &y, m->warp);
            free(y.dest);
        } else if (at == 2)
            expect_mediate(k, &y, m->warp);
        else
            expect_exclusive(k, &y, m->warp);
    }
    kernel_dag_free(model);
}

Test(exec_radix_sort, every_block_costs_what_its_kernel_does)
{
    /* one scan block (3 kernels a pass), several (5), 2^s above ℓ (r = 8),
     * the mediate scan over 256 > 4ℓ totals (q = 32), n not a multiple of
     * 4ℓ, s not dividing c; random keys */
    static const int points[][4] = {
        /* n, c, s, l */
        {3000, 12, 4, 64}, {6000, 16, 8, 32}, {1000, 16, 8, 8}, {4096, 16, 8, 256}, {777, 10, 3, 16},
    };
    machine m = test_preset("mcm");
    for (size_t i = 0; i < sizeof points / sizeof *points; i++) {
        point p = point_of(points[i][0], points[i][1], points[i][2], points[i][3]);
        word *keys = random_keys(&p, 40 + i);
        exec_run *run = sort_keys(&p, keys, &m);
        expect_measured_costs(&p, keys, run, &m);
        exec_end(run);
        free(keys);
    }
}

Test(exec_radix_sort, alpha_beta_and_where_the_worksheet_is_exact)
{
    /* n = 2^14, c = 16, s = 4, ℓ = 64 (2^s <= ℓ, 64 tiles, G = 4 full scan
     * blocks): α/β as radix_sort.c declares, but ScanInclusive's β = 5
     * (the block total) and ScanMediate's ⌈G/ℓ⌉ = 1 (it moves 4 totals);
     * ScanExclusive's every block is the worksheet's exactly (S = 4,
     * W = 4ℓ, O = 9U); tile loads and stores are coalesced (4 words each)
     * and ScanInclusive moves 4 + 4 + w/ℓ. */
    point p = point_of(1 << 14, 16, 4, 64);
    machine m = test_preset("mcm");
    word *keys = random_keys(&p, 3);
    exec_run *run = sort_keys(&p, keys, &m);
    kernel_dag *model = build_builtin(RADIX, params_of(&p), &m);
    int n;
    const exec_kernel_report *rep = exec_reports(run, &n);
    const double alpha[] = {4, 4, 1, 5, 5}, beta[] = {5, 5, 1, 4, 4};
    for (int i = 0; i < n; i++) {
        cr_expect_eq(rep[i].alpha, alpha[i % 5], "%s: α %g", rep[i].name, rep[i].alpha);
        cr_expect_eq(rep[i].beta, beta[i % 5], "%s: β %g", rep[i].name, rep[i].beta);
        const kernel *declared = &model->kernels[i], *k = &exec_dag(run)->kernels[i];
        if (i % 5 == 1 || i % 5 == 2) /* the scan kernels: declared 4, 4 */
            cr_expect_eq(declared->cost.reads + declared->cost.writes, 8);
        else
            cr_expect_eq(rep[i].alpha + rep[i].beta, declared->cost.reads + declared->cost.writes, "%s", k->name);
        if (i % 5 == 3)
            for (long b = 0; b < k->blocks; b++) {
                const block_cost *c = kernel_block_cost(k, b);
                cr_expect_eq(c->span, declared->cost.span);
                cr_expect_eq(c->work, declared->cost.work);
                cr_expect_eq(m.u * (c->reads + c->writes), block_overhead(declared, m.u), "%s block %ld", k->name, b);
            }
        if (i % 5 == 1)
            cr_expect_eq(kernel_block_cost(k, 0)->reads + kernel_block_cost(k, 0)->writes, 8 + (double)m.warp / p.l);
    }
    /* the declared costs of pass 0 are the worksheet's, and the measured
     * ones radix_sort_exec.c's formulas (checked block by block above): */
    double log_l = log2(p.l), s = p.s, l = p.l;
    const kernel *declared = model->kernels;
    cr_expect_eq(declared[0].cost.span, s * (41 + 8 * log_l) + 12);
    cr_expect_eq(declared[0].cost.work, s * (22 * l + 1) + 12);
    cr_expect_eq(declared[1].cost.span, 8 * log_l + 17);
    cr_expect_eq(declared[1].cost.work, 16 * l + 1);
    cr_expect_eq(declared[4].cost.span, 4);
    cr_expect_eq(declared[4].cost.work, 4 * l);
    const kernel *measured = exec_dag(run)->kernels;
    cr_log_info("n = 2^14, c = 16, s = 4, l = 64, per block, measured / declared: LocalSort S %g / %g, W %g / %g, "
                "O %g / %g; ScanInclusive S %g / %g, W %g / %g; Scatter S %g / %g, W %g / %g, O %g / %g",
                kernel_block_cost(&measured[0], 0)->span, declared[0].cost.span, kernel_block_cost(&measured[0], 0)->work,
                declared[0].cost.work, m.u * (kernel_block_cost(&measured[0], 0)->reads + kernel_block_cost(&measured[0], 0)->writes),
                block_overhead(&declared[0], m.u), kernel_block_cost(&measured[1], 0)->span, declared[1].cost.span,
                kernel_block_cost(&measured[1], 0)->work, declared[1].cost.work, kernel_block_cost(&measured[4], 0)->span,
                declared[4].cost.span, kernel_block_cost(&measured[4], 0)->work, declared[4].cost.work,
                m.u * (kernel_block_cost(&measured[4], 0)->reads + kernel_block_cost(&measured[4], 0)->writes),
                block_overhead(&declared[4], m.u));
    kernel_dag_free(model);
    exec_end(run);
    free(keys);
}

Test(exec_radix_sort, keys_of_one_digit_scatter_coalesced)
{
    /* every key equal: each tile's keys go to the tile's own 4ℓ places,
     * so Scatter writes as coalesced as it reads its tile: 4 words per
     * thread; with 64 tiles (>= w) its offset reads and LocalSort's
     * histogram writes are one address group per lane: 2^s·w/ℓ = 8 words
     * at s = 4, ℓ = 64 (declared 1). */
    point p = point_of(1 << 14, 16, 4, 64);
    word *keys = malloc(sizeof *keys * (size_t)p.n);
    for (long i = 0; i < p.n; i++)
        keys[i] = 0xBEEF;
    machine m = test_preset("mcm");
    exec_run *run = sort_keys(&p, keys, &m);
    const kernel_dag *dag = exec_dag(run);
    for (int i = 0; i < dag->n; i += 5) {
        const block_cost *sort = kernel_block_cost(&dag->kernels[i], 3), *scatter = kernel_block_cost(&dag->kernels[i + 4], 3);
        cr_expect_eq(sort->reads, 4);
        cr_expect_eq(sort->writes, 4 + (double)p.buckets * m.warp / p.l, "%s", dag->kernels[i].name);
        cr_expect_eq(scatter->reads, 4 + (double)p.buckets * m.warp / p.l);
        cr_expect_eq(scatter->writes, 4, "%s", dag->kernels[i + 4].name);
    }
    expect_measured_costs(&p, keys, run, &m);
    exec_end(run);
    free(keys);
}

/* ---- (c) simulated time ------------------------------------------------------------------ */

Test(exec_radix_sort, simulated_time_within_theorem_1)
{
    static const int points[][4] = {{1 << 14, 32, 4, 64}, {1 << 14, 32, 8, 64}, {6000, 16, 8, 32}};
    machine m = test_preset("mcm");
    for (size_t i = 0; i < sizeof points / sizeof *points; i++) {
        point p = point_of(points[i][0], points[i][1], points[i][2], points[i][3]);
        word *keys = random_keys(&p, 9);
        exec_run *run = sort_keys(&p, keys, &m);
        kernel_dag *model = build_builtin(RADIX, params_of(&p), &m);
        sim_result re = simulate(exec_dag(run), &m), rm = simulate(model, &m);
        cr_expect_leq(re.T, re.bound_theorem1, "T %g, Theorem 1 %g", re.T, re.bound_theorem1);
        cr_expect_eq(re.costs.N, rm.costs.N, "the same blocks");
        cr_expect_eq(re.costs.L_kernels, rm.costs.L_kernels);
        cr_log_info("radix n = %ld c = %d s = %d l = %d: T exec %g model %g (%.2f); W %g / %g; O %g / %g; C %g / %g",
                    p.n, p.c, p.s, p.l, re.T, rm.T, re.T / rm.T, re.costs.W, rm.costs.W, re.costs.O, rm.costs.O,
                    re.costs.C, rm.costs.C);
        sim_result_free(&re);
        sim_result_free(&rm);
        kernel_dag_free(model);
        exec_end(run);
        free(keys);
    }
}

static dag_costs costs_of(const kernel_dag *dag, const machine *m)
{
    cr_assert_eq(kernel_dag_check(dag, m, NULL), 0, "%s", fail_message());
    dag_costs c;
    kernel_dag_costs(dag, m->u, &c);
    return c;
}

Test(exec_radix_sort, measured_costs_move_the_best_s_below_log_l)
{
    /* The thesis (§4.6) takes 2^s = ℓ; radix_sort.c's declared costs agree:
     * at n = 2^14, c = 12, ℓ = 64 on `mcm` its T is least at s = 6.  In
     * exec mode the histogram writes and the offset reads are one address
     * group per digit (2^s·w/ℓ words per thread, not 1), and each digit's
     * first position costs a binary search: the measured O grows again from
     * s = 4 to s = 6, and s = 4 is faster than s = 6. */
    machine m = test_preset("mcm");
    double T[2][2], O[2][2]; /* [exec, model][s = 4, 6] */
    for (int i = 0; i < 2; i++) {
        point p = point_of(1 << 14, 12, i ? 6 : 4, 64);
        word *keys = random_keys(&p, 21);
        exec_run *run = sort_keys(&p, keys, &m);
        kernel_dag *model = build_builtin(RADIX, params_of(&p), &m);
        sim_result re = simulate(exec_dag(run), &m), rm = simulate(model, &m);
        T[0][i] = re.T;
        T[1][i] = rm.T;
        O[0][i] = costs_of(exec_dag(run), &m).O;
        O[1][i] = costs_of(model, &m).O;
        sim_result_free(&re);
        sim_result_free(&rm);
        kernel_dag_free(model);
        exec_end(run);
        free(keys);
    }
    cr_log_info("n = 2^14, c = 12, l = 64: T(s=4) exec %g model %g; T(s=6) exec %g model %g; "
                "O(s=4) exec %g model %g; O(s=6) exec %g model %g",
                T[0][0], T[1][0], T[0][1], T[1][1], O[0][0], O[1][0], O[0][1], O[1][1]);
    cr_expect_lt(T[1][1], T[1][0], "model: s = 6 (2^s = ℓ) faster than s = 4");
    cr_expect_lt(O[1][1], O[1][0], "model: less overhead at s = 6");
    cr_expect_lt(T[0][0], T[0][1], "exec: s = 4 faster than s = 6");
    cr_expect_lt(O[0][0], O[0][1], "exec: less overhead at s = 4");
}

/* ---- (d) CREW, and the points refused ----------------------------------------------------- */

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
    /* why LocalSort finds each digit's first position by binary search: two
     * threads with keys of one digit would both write its bucket in one step */
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

Test(exec_radix_sort, refuses_what_radix_sort_c_refuses_and_l_not_a_power_of_two)
{
    machine m = test_preset("mcm");
    exec_run *run = exec_begin(RADIX, &m);
    const exec_program *radix = exec_program_find(RADIX);
    vars big = test_params("n c s l", 4096, 32, 16, 256); /* 8ℓ + 2^s = 67584 > Z */
    cr_expect_eq(radix->host(&big, &m, run), -1);
    cr_expect(strstr(fail_message(), "constraint 8ℓ + 2^s <= Z does not hold") != NULL, "%s", fail_message());
    vars odd = test_params("n c s l", 4096, 32, 4, 96);
    cr_expect_not_null(test_builtin(RADIX)->build(&odd, &m), "model mode takes ℓ = 96");
    cr_expect_eq(radix->host(&odd, &m, run), -1);
    cr_expect(strstr(fail_message(), "ℓ a power of two") != NULL, "%s", fail_message());
    vars wide = test_params("n c s l", 4096, 64, 5, 64); /* 13 passes of 5 bits: 65 > 64 */
    cr_expect_not_null(test_builtin(RADIX)->build(&wide, &m), "model mode takes c = 64, s = 5");
    cr_expect_eq(radix->host(&wide, &m, run), -1);
    cr_expect(strstr(fail_message(), "⌈c/s⌉·s <= 64") != NULL, "%s", fail_message());
    cr_expect_eq(exec_dag(run)->n, 0, "nothing launched");
    exec_end(run);
}
