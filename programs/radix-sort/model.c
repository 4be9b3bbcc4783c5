/*
 * model.c — radix sort of n keys of c bits with program parameter s (bits
 * per pass), after Satish, Harris and Garland, as an MCM program: the
 * model a student computes (its kernels written once are kernels.c).
 *
 * Read beside:
 *   thesis (xie-thesis-2016.txt) §4.6 "Radix sort", lines 1931–1978: the
 *     Z constraint, the closed forms, the ratios and the conclusion;
 *   thesis Appendix B, worksheet "Sorting", lines 6067–6345: per-kernel
 *     block counts, work, span and overhead per block (phase 1 lines
 *     6097–6140, phase 2 6144–6225, phase 3 6228–6250, totals 6252–6275).
 *
 * c/s passes (the s-bit digits, least significant first), each of five
 * kernels, chained: the DAG is a chain of 5c/s kernels.  Each thread deals
 * with 4 keys, so a tile is 4ℓ keys and there are n/(4ℓ) tiles.
 *
 * Phase 1, LocalSort — n/(4ℓ) blocks.  Each block loads its tile, sorts it
 *   by the pass's digit with s iterations of 1-bit split and writes the
 *   sorted tile and its 2^s-entry digit histogram (worksheet 1.1–1.4):
 *     work   s(6ℓ + 8(2ℓ − 2) + 17) + 12 = s(22ℓ + 1) + 12
 *     span   s(41 + 8 log ℓ) + 12
 *     overhead 9U: 4 keys read, 4 sorted keys + 1 histogram entry written.
 * Phase 2, the exclusive prefix sum of the n2^s/(4ℓ)-entry histogram table
 *   (column-major), in three kernels (worksheet 2.1–2.16):
 *   ScanInclusive  n2^s/(16ℓ²) blocks of 4ℓ entries: work 1 + 16ℓ, span
 *                  8 log ℓ + 17, overhead 8U (4 read, 4 written);
 *   ScanMediate    1 block scanning the block sums: work 1 + 16ℓ, span
 *                  8 log ℓ + 17, overhead 8U;
 *   ScanExclusive  n2^s/(16ℓ²) − 1 blocks: work 4ℓ, span 4, overhead 9U
 *                  (4 + 1 read, 4 written).
 * Phase 3, Scatter — n/(4ℓ) blocks, each copying its 4ℓ keys to their
 *   place: work 4ℓ, overhead 9U (worksheet 3.1–3.2), span 4.  The worksheet
 *   lost its phase-3 span line; 4 is what its total span (4.2) leaves:
 *   c(8s log ℓ + 41s + 16 log ℓ + 54)/s minus phases 1 and 2.
 *
 * Constraints — ENFORCED:
 *   8ℓ + 2^s <= Z  (§4.6, line 1935: a LocalSort block holds 4ℓ keys, 4ℓ
 *                   sorted keys and the 2^s-entry histogram);
 *   n2^s/(16ℓ²) <= Z  (worksheet, line 6181: "assume the number of blocks
 *                   can fit in one shared memory": ScanMediate's one block
 *                   holds every block sum).  At n = 2^20, ℓ = 256 it reads
 *                   2^s <= Z, implied by the first.  (cuda_ref/radix-sort.cu
 *                   lets its mediate scan loop instead; the model's costs
 *                   for that block are the worksheet's, written for at most
 *                   4ℓ sums, i.e. n2^s <= 64ℓ³: s <= 10 at n = 2^20, ℓ =
 *                   256, which the papers' grid respects.)
 * On gtx670 and mcm (Z = 12288, ℓ = 256): s <= 13, so s = 16 of the grid
 * "2^s from 2 to ℓ²" fails: 8·256 + 65536 = 67584 > 12288.
 *
 * Grids: tiles = ⌈n/(4ℓ)⌉, scan blocks = ⌈tiles·2^s/(4ℓ)⌉ (the worksheet's
 * n/(4ℓ) and n2^s/(16ℓ²), exact when n is a multiple of 4ℓ and n2^s of
 * 16ℓ²).  When the whole histogram fits one scan block (n2^s <= 16ℓ²,
 * small n) ScanMediate and ScanExclusive have nothing to do and are left
 * out: a pass is then 3 kernels.  s must be whole, 1 <= s <= c; when s
 * does not divide c there are ⌈c/s⌉ passes, each costed as an s-bit pass
 * (the closed forms take c/s).
 *
 * Closed forms (§4.6 lines 1943–1963, with the SPEC §2 typo fixes: W_s's
 * "+ 1" is "+ 1/s" — the Scatter kernels' n per pass, as the worksheet's
 * (4.1) has it — and O_s's "172^s" is 17·2^s):
 *   W = c((22sℓ + s + 12)/(4sℓ) + (2^s + 20·2^s ℓ)/(16sℓ²) + 1/s)n
 *       + c(16 + 192ℓ)/(16s)
 *   S = c(8 log ℓ + 16 log ℓ/s + 41 + 54/s)
 *   O = cU(9n/(2sℓ) + 17·2^s n/(16sℓ²) − 1/s)
 *   N = (c/s)(1/(2ℓ) + 2^s/(8ℓ²))n,   L = 5c/s
 *   C = s(41 + 8 log ℓ) + 12 + 9U     (LocalSort's S(B) + O(B))
 *   T = (N/(n/(4ℓ)) + L)·C = c(2^s + 14ℓ)C/(2sℓ)   (worksheet 4.7)
 * The thesis takes K = n/(4ℓ) (the LocalSort and Scatter grids); the
 * simulator's K is the widest kernel, which is ScanInclusive's
 * n2^s/(16ℓ²) when 2^s > 4ℓ (s >= 11 at ℓ = 256).
 *
 * The conclusion (§4.6 lines 1960, 1975): with 2^s = Θ(ℓ) the parallelism
 * overhead drops by a factor s, O_1/O_s ~ s(72ℓ + 34)/(72ℓ + 17·2^s), and
 * the estimated running time improves (R > 1 at s = log ℓ).  Reproduced:
 * at n = 2^20, c = 32, ℓ = 256 the simulated O_1/O_s is 2.00, 3.95, 6.48
 * for s = 2, 4, 8 (equal to the closed forms), and T_1/T_s is 1.44, 1.83,
 * 2.03 on the GTX 670's 7 SMs (s = 8 best of the s that fit Z), 1.71,
 * 2.67, 3.70 on P = K = 1024 SMs.  With 2^s = ℓ² (s = 16, on a machine
 * with Z >= 67584) W, O and T all grow again, as §4.6 says.
 *
 * Params: n (keys), c (bits per key, default 32), s (bits per pass,
 * default 8 = log ℓ, the thesis' choice 2^s = ℓ), l (ℓ, default 256).
 */
#include "cuda_counts.h"
#include "fail.h"
#include "program.h"

#include <math.h>
#include <stdio.h>

#define KEYS_PER_THREAD 4

typedef struct radix_params {
    double n, c, s, l;
} radix_params;

/* The grids of one pass. */
typedef struct radix_grid {
    double tiles;       /* LocalSort and Scatter blocks: ⌈n/(4ℓ)⌉ */
    double scan_blocks; /* ScanInclusive blocks: ⌈tiles·2^s/(4ℓ)⌉ */
} radix_grid;

static int read_params(const vars *params, radix_params *p)
{
    const double *n = vars_get(params, "n"), *c = vars_get(params, "c");
    const double *s = vars_get(params, "s"), *l = vars_get(params, "l");
    p->n = n ? *n : 1048576;
    p->c = c ? *c : 32;
    p->s = s ? *s : 8;
    p->l = l ? *l : 256;
    if (p->n != floor(p->n) || p->c != floor(p->c) || p->s != floor(p->s) ||
        p->l != floor(p->l) || p->n < 1 || p->l < 1 || p->s < 1 || p->s > p->c)
        return fail("program 'radix-sort': needs whole n >= 1, l >= 1 and 1 <= s <= c "
                    "(got n = %g, c = %g, s = %g, l = %g)", p->n, p->c, p->s, p->l);
    return 0;
}

static radix_grid grid_of(const radix_params *p)
{
    radix_grid g;
    g.tiles = ceil(p->n / (KEYS_PER_THREAD * p->l));
    g.scan_blocks = ceil(g.tiles * exp2(p->s) / (KEYS_PER_THREAD * p->l));
    return g;
}

static int check_z(const radix_params *p, const radix_grid *g, const machine *m)
{
    double buckets = exp2(p->s), need = 8 * p->l + buckets;
    if (need > m->z)
        return fail("program 'radix-sort': constraint 8ℓ + 2^s <= Z does not hold "
                    "(s = %g, ℓ = %g: %g > Z = %g)", p->s, p->l, need, m->z);
    if (g->scan_blocks > m->z)
        return fail("program 'radix-sort': constraint n·2^s/(16ℓ²) <= Z (the block sums fit "
                    "one block) does not hold (n = %g, s = %g, ℓ = %g: %g > Z = %g)",
                    p->n, p->s, p->l, g->scan_blocks, m->z);
    return 0;
}

static kernel pass_kernel(const char *name, const radix_params *p, double blocks, double work,
                          double span, double reads, double writes, double private_words)
{
    kernel k = {
        .name = (char *)name,
        .blocks = (long)blocks,
        .threads = (int)p->l,
        .cost = {.span = span, .work = work, .reads = reads, .writes = writes},
        .private_words = private_words,
    };
    return k;
}

/* Operation classes (the card model; programs/cuda_counts.h) from
 * cuda_ref/radix-sort.cu, S(B) and W(B) kept as the worksheet has them;
 * B = log2(4ℓ) steps of a binary search in a sorted tile (first_with_digit,
 * 1 shared read and 4 plain each).  LocalSort, per thread: 4 keys loaded
 * (4 shared writes, 12 plain), a barrier; per bit, 4 flags (8 shared, 16
 * plain), a tile scan of 32-bit adds (cuda_counts.c), the split (12
 * shared, 24 plain) and a barrier; 4 keys stored (4 shared, 12 plain); the
 * histogram, ⌈2^s/ℓ⌉ digits per thread of two binary searches.  Scatter:
 * 4 keys loaded, a barrier, each key's digit and rank by a binary search.
 * The scans of the histogram: 32-bit adds (scan_exclusive<ScanAddU32>). */
static void local_sort_classes(block_cost *c, const radix_params *p)
{
    double s = p->s, l = p->l, L = log2(l), B = log2(4 * l), digits = ceil(exp2(s) / l);
    cost_set_classes(c, (int)l, 24 + s * (16 + 6 * L + 28 + 2 * L + 7 + 24) + 8 * digits * B,
                     0, 0, 8 + s * (8 + 8 * L + 24 + 12) + 2 * digits * B, 1 + s * (2 * L + 6));
    /* The whole block: every thread's keys, flags and split, the tile
     * scans' own totals, and one search pair per digit (2^s of them, not
     * ℓ·digits).  Bank conflicts: the scans', and the split's 4 writes of
     * keys_out (a warp's keys go to two runs of consecutive words, the
     * 0s' and the 1s', which share banks: 2-way); the searches' (data-
     * dependent) are not counted. */
    cuda_scan_block scan;
    cuda_tile_scan_block((int)l, &scan);
    double searches = exp2(s) * B;
    c->work_ops[OP_PLAIN] = l * (24 + s * 40) + s * (scan.plain + scan.op) + 8 * searches;
    c->work_ops[OP_PRIVATE] = l * (8 + s * 20) + s * scan.private_ops + 2 * searches;
    c->work_ops[OP_BARRIER] = l * (1 + s) + s * scan.barriers;
    c->bank_conflicts = s * (scan.conflicts + 4 * ceil(l / 32));
}

static void scatter_classes(block_cost *c, const radix_params *p)
{
    double B = log2(4 * p->l);
    cost_set_classes(c, (int)p->l, 12 + 4 * (7 + 4 * B), 0, 0, 4 + 4 * (1 + B), 1);
}

/* One pass: LocalSort, ScanInclusive, [ScanMediate, ScanExclusive],
 * Scatter, chained after what `dag` holds.  Returns -1 on error. */
static int add_pass(kernel_dag *dag, const radix_params *p, const radix_grid *g, int pass)
{
    double s = p->s, l = p->l, log_l = log2(l), buckets = exp2(s);
    double tile = KEYS_PER_THREAD * l;
    char name[5][48];
    snprintf(name[0], sizeof name[0], "LocalSort[%d]", pass);
    snprintf(name[1], sizeof name[1], "ScanInclusive[%d]", pass);
    snprintf(name[2], sizeof name[2], "ScanMediate[%d]", pass);
    snprintf(name[3], sizeof name[3], "ScanExclusive[%d]", pass);
    snprintf(name[4], sizeof name[4], "Scatter[%d]", pass);
    kernel k[5];
    int n_kernels = 0;
    k[n_kernels++] = pass_kernel(name[0], p, g->tiles, s * (22 * l + 1) + 12,
                                 s * (41 + 8 * log_l) + 12, 4, 5, 2 * tile + buckets);
    k[n_kernels++] = pass_kernel(name[1], p, g->scan_blocks, 1 + 16 * l, 8 * log_l + 17, 4, 4,
                                 tile);
    if (g->scan_blocks > 1) {
        k[n_kernels++] = pass_kernel(name[2], p, 1, 1 + 16 * l, 8 * log_l + 17, 4, 4,
                                     fmax(tile, g->scan_blocks));
        k[n_kernels++] = pass_kernel(name[3], p, g->scan_blocks - 1, 4 * l, 4, 5, 4, tile);
    }
    k[n_kernels++] = pass_kernel(name[4], p, g->tiles, 4 * l, 4, 5, 4, tile + buckets);
    local_sort_classes(&k[0].cost, p);
    cuda_tile_scan_classes(&k[1].cost, (int)l, 0);
    if (g->scan_blocks > 1) {
        double chunks = ceil(g->scan_blocks / tile); /* scan_mediate_kernel's tiles */
        cuda_tile_scan_classes(&k[2].cost, (int)l, 0);
        for (int c = 0; c < OP_CLASSES; c++) {
            k[2].cost.span_ops[c] *= chunks;
            k[2].cost.work_ops[c] *= chunks;
        }
        k[2].cost.bank_conflicts *= chunks;
        cuda_scan_apply_classes(&k[3].cost, (int)l, 0);
    }
    scatter_classes(&k[n_kernels - 1].cost, p);
    for (int i = 0; i < n_kernels; i++)
        if (kernel_dag_chain(dag, &k[i]) < 0)
            return -1;
    return 0;
}

static kernel_dag *build(const vars *params, const machine *m)
{
    radix_params p;
    if (read_params(params, &p) < 0)
        return NULL;
    radix_grid g = grid_of(&p);
    if (check_z(&p, &g, m) < 0)
        return NULL;
    kernel_dag *dag = kernel_dag_new("radix-sort");
    int passes = (int)ceil(p.c / p.s);
    for (int pass = 0; pass < passes; pass++)
        if (add_pass(dag, &p, &g, pass) < 0) {
            kernel_dag_free(dag);
            return NULL;
        }
    return dag;
}

static int closed_form_of(const vars *params, const machine *mach, closed_form *out)
{
    radix_params p;
    if (read_params(params, &p) < 0)
        return -1;
    double n = p.n, c = p.c, s = p.s, l = p.l, U = mach->u;
    double b = exp2(s), log_l = log2(l);
    /* The forms of the header, each written as (c/s)·(one pass) and
     * computed as c·(one pass)/s, so that a whole result comes out exact. */
    double pass_W = (22 * l * s + s + 12) * n / (4 * l) + (b + 20 * b * l) * n / (16 * l * l) + n +
                    (16 + 192 * l) / 16;
    double pass_S = 8 * s * log_l + 41 * s + 16 * log_l + 54;
    double pass_O = U * (9 * n / (2 * l) + 17 * b * n / (16 * l * l) - 1);
    double pass_N = n / (2 * l) + b * n / (8 * l * l);
    out->W = c * pass_W / s;
    out->S = c * pass_S / s;
    out->O = c * pass_O / s;
    out->N = c * pass_N / s;
    out->L = 5 * c / s;
    out->C = s * (41 + 8 * log_l) + 12 + 9 * U;
    out->T = (out->N / (n / (4 * l)) + out->L) * out->C;
    return 0;
}

const builtin_program program_radix_sort = {
    .name = "radix-sort",
    .summary = "radix sort of n c-bit keys, s bits per pass, five kernels per pass "
               "(thesis §4.6, App. B l.6067)",
    .defaults = "n=1048576 c=32 s=8 l=256",
    .kernels = "programs/radix-sort/kernels.c",
    .build = build,
    .closed_form = closed_form_of,
};
