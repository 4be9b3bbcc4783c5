/*
 * stream.c — counting the instruction stream of a launch as exec mode runs
 * it (see stream.h).
 *
 * The running thread's passes through each basic block are counted in
 * its `passes` (its code calls mcm_stream_block(block) at the top of every
 * block), and the warp's kept beside them as they go: per block the most
 * passes of one thread, a warp issuing the union of its threads' paths.
 * A block's count is the running thread's when the block's stamp is that
 * thread's number in the warp, zero otherwise.  When the warp ends its
 * passes are weighed: its instructions (the issue slots it takes), and
 * the time it waits along its path, each pass through a basic block the
 * longer of its dependent chain (its links at the machine's latencies;
 * in a step after a barrier, the block's chain past it: stream.h)
 * and its instructions at the warp's issue, both with its block's warps
 * on its scheduler (stream_shared_link_cycles, stream_shared_issue_cycles
 * apart, a Z/pZ product stream_shared_mulmod_cycles where the machine
 * has cycles_mulmod_independent: card_terms.h; a warp alone on its
 * scheduler, its own latencies and rate): a warp issues the independent
 * instructions of a block beside its chain, at its share of the issue
 * slot at most.  A block passed k times is k
 * passes in sequence.  A block entered again, from a block after it (a
 * loop's back edge: blocks are numbered in the order of the code), waits
 * besides for the taken branch (cycles_branch).  When the step ends, its
 * slowest warp is the step's path.  When the block ends its warps'
 * instructions (every step, plus the kernel's entry and a barrier between
 * each two steps) and its path go into its block_cost.
 *
 * Invariants: between two warps every block's passes are zero (its stamp
 * none) and `warp_touched` is empty; `warp_touched` lists, in the order
 * they were first passed, the blocks whose `most` is not zero; between two
 * blocks every sum is zero.
 * Only the thread that runs a block counts: `mcm_stream_running` is per
 * host thread, NULL outside a step (the setup and check of a program
 * count nothing).
 */
#include "stream.h"
#include "card_terms.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* The classes of a chain's links: plain, mulmod, addmod, private, global
 * read, a comparison a branch waits for, a product in flight beside the
 * chain's (the table's STREAM_CHAIN_* fields, in that order; a step's path
 * holds them there, whichever of the block's chains it charged). */
enum { CHAIN_LINKS = STREAM_CHAIN_CLASSES, CHAIN_END = STREAM_CHAIN_PLAIN + CHAIN_LINKS };
/* A division's plain links, long and 32-bit (STREAM_CHAIN_DIVIDE + k). */
static const double DIVISION_LINKS[2] = {STREAM_DIVIDE_INST, STREAM_DIVIDE32_INST};

/* Where a block's chain is in its weights: in a kernel's first step, its
 * STREAM_CHAIN_* fields; in a step after a barrier, its STREAM_AFTER_*
 * ones (its free values computed before the barrier: stream.h). */
static int chain_field(int after_barrier) { return after_barrier ? STREAM_AFTER_PLAIN : STREAM_CHAIN_PLAIN; }

/* One basic block's passes in the warp now. */
typedef struct block_passes {
    uint32_t thread;          /* the thread they are of: its number in the warp plus one (0: none) */
    uint32_t pass, back;      /* that thread's passes, and those of them entered by a back edge */
    uint32_t most, most_back; /* the same, the most of one thread of the warp */
} block_passes;

/* The card instructions of the calls the counter adds (stream_call_cost). */
typedef struct added_costs {
    double pow_iteration, pow_square, pow_multiply, zp_mul;
    double entry, barrier, trip_count;
} added_costs;

/* A warp's path, weighed (stream_warp_end): the next warp of the same path
 * (the same blocks first passed in the same order, each as many times)
 * weighs the same. */
typedef struct weighed_pass {
    int id;
    uint32_t most, most_back;
} weighed_pass;

typedef struct weighed_path {
    weighed_pass *path;      /* per block of the path, in order */
    int n_blocks;            /* its blocks (-1: none weighed yet) */
    int after_barrier;       /* in a step after a barrier: its blocks' STREAM_AFTER_* chains */
    double w[STREAM_FIELDS]; /* its weights, but the issue-bound blocks' chains */
    double issued[2];        /* the issue-bound blocks' instructions and products (issue_split) */
    double branches;         /* its taken back edges */
    uint64_t reads;          /* its STREAM_READS, and STREAM_TRIPS in the high word */
    uint32_t constants;      /* the constant lines its blocks read (stream_table) */
} weighed_path;

struct stream_counter {
    /* what mcm_stream_block reads and changes, at the offsets stream.h
     * names (STREAM_AT_*: the counted object's copy reads them there) */
    block_passes *passes;       /* per basic block */
    uint32_t blocks;            /* basic blocks of the table */
    uint32_t thread;            /* the running thread's number in the warp, plus one */
    uint32_t last;              /* the running thread's last block, plus one (0: none yet) */
    uint32_t reads_in_pass;     /* its global reads in its pass through that block so far */
    int *warp_touched, n_warp;  /* blocks the warp passed */
    const stream_table *t;
    int warp, steps;            /* threads per warp, steps of the kernel */
    weighed_path weighed;       /* the last path weighed */
    added_costs calls;
    double extra[2], warp_extra[2]; /* stream_extra: the thread's, the warp's most */
    double link[CHAIN_LINKS];       /* a chain's link of each class, in cycles (the machine's, with
                                     * the block's warps on a scheduler) */
    double divide_extra[2];         /* a division by a runtime number on a chain, long and 32-bit:
                                     * cycles beyond its plain links (card_terms.h; 0: none) */
    double issue, issue_mulmod;     /* a warp with the same sharing: cycles an independent
                                     * instruction, and a Z/pZ product (0: its instructions, as
                                     * the others') */
    double mulmod_inst;             /* a product's instructions where issue_mulmod counts it apart */
    char *issue_bound;              /* per basic block: its instructions' issue outlasts its chain,
                                     * bit 0 its first step's chain, bit 1 its chain after a barrier */
    double path[STREAM_FIELDS];     /* the slowest warp of the step so far: its chains' links, */
    double path_issued[2], path_cycles; /* its issue-bound passes' other instructions and
                                     * products, its time */
    double path_branches;           /* its taken back edges */
    double branch;                  /* cycles a taken back edge waits (the machine's) */
    double work;                    /* the block's warps' instructions */
    double span[STREAM_FIELDS];     /* the block's path, step after step */
    double span_issued[2];
    double span_branches;
    uint64_t *reads;                /* per warp of the block: its STREAM_READS, and STREAM_TRIPS
                                     * in the high word, over its steps */
    int warp_no, n_reads;           /* the step's warp now; warps seen */
    int step_no;                    /* the block's step now */
    uint32_t constants;             /* the constant lines its warps read, every step */
};

_Thread_local stream_counter *mcm_stream_running;

_Static_assert(offsetof(stream_counter, passes) == STREAM_AT_PASSES && offsetof(stream_counter, blocks) == STREAM_AT_BLOCKS &&
                   offsetof(stream_counter, thread) == STREAM_AT_THREAD && offsetof(stream_counter, last) == STREAM_AT_LAST &&
                   offsetof(stream_counter, reads_in_pass) == STREAM_AT_READS_IN_PASS &&
                   offsetof(stream_counter, warp_touched) == STREAM_AT_TOUCHED &&
                   offsetof(stream_counter, n_warp) == STREAM_AT_N_TOUCHED && offsetof(stream_counter, t) == STREAM_AT_TABLE,
               "the counter's fields where stream_ir.c's copy of mcm_stream_block, and stream_read_site, read them");
_Static_assert(sizeof(block_passes) == STREAM_PASS_WORDS * sizeof(uint32_t) &&
                   offsetof(block_passes, thread) == STREAM_PASS_THREAD * sizeof(uint32_t) &&
                   offsetof(block_passes, pass) == STREAM_PASS_PASS * sizeof(uint32_t) &&
                   offsetof(block_passes, back) == STREAM_PASS_BACK * sizeof(uint32_t) &&
                   offsetof(block_passes, most) == STREAM_PASS_MOST * sizeof(uint32_t) &&
                   offsetof(block_passes, most_back) == STREAM_PASS_MOST_BACK * sizeof(uint32_t),
               "a block's passes where stream_ir.c's copy of mcm_stream_block reads them");

/* A block's weights as it issues them in a step after a barrier, into
 * `copy` where they differ: a looped step's hoisted instructions
 * (STREAM_HOISTED), issued once before the loop over the steps, not each
 * pass. */
static const uint32_t *past_a_barrier(const uint32_t *weight, uint32_t *copy)
{
    uint32_t hoisted = weight[STREAM_HOISTED];
    if (hoisted == 0)
        return weight;
    memcpy(copy, weight, sizeof(uint32_t) * STREAM_FIELDS);
    copy[STREAM_INST] -= hoisted < copy[STREAM_INST] ? hoisted : copy[STREAM_INST];
    copy[STREAM_PLAIN] -= hoisted < copy[STREAM_PLAIN] ? hoisted : copy[STREAM_PLAIN];
    return copy;
}

/* Cycles of the links in w's chain fields, its divisions by a runtime
 * number where the machine charges them apart. */
static double chain_cycles(const stream_counter *c, const double *w)
{
    double t = 0;
    for (int k = 0; k < CHAIN_LINKS; k++)
        t += w[STREAM_CHAIN_PLAIN + k] * c->link[k];
    for (int k = 0; k < 2; k++)
        if (c->divide_extra[k] != 0)
            t += w[STREAM_CHAIN_DIVIDE + k] * c->divide_extra[k];
    return t;
}

/* Cycles one warp takes to issue issued[0] instructions and
 * issued[1] Z/pZ products that do not wait for each other. */
static double issue_cycles(const stream_counter *c, const double issued[2])
{
    return issued[0] * c->issue + issued[1] * c->issue_mulmod;
}

/* `passes` passes through a basic block of weights w, issued as a warp
 * issues them: into issued[0] the instructions issued at c->issue,
 * into issued[1] the products counted apart (c->issue_mulmod). */
static void issue_split(const stream_counter *c, const uint32_t *w, double passes, double issued[2])
{
    double products = c->mulmod_inst > 0 ? w[STREAM_MULMOD] : 0;
    issued[0] = fmax(w[STREAM_INST] - products * c->mulmod_inst, 0) * passes;
    issued[1] = products * passes;
}

stream_counter *stream_counter_new(const stream_table *t, int warp, int threads, int steps, const machine *m)
{
    stream_counter *c = calloc(1, sizeof *c);
    size_t n = (size_t)t->blocks + 1;
    c->t = t;
    c->blocks = (uint32_t)t->blocks;
    c->steps = steps;
    c->warp = warp;
    c->passes = calloc(n, sizeof *c->passes);
    c->branch = m->cycles_branch;
    c->calls = (added_costs){stream_call_cost("exec_zp_pow:iteration"), stream_call_cost("exec_zp_pow:square"),
                             stream_call_cost("exec_zp_pow:multiply"), stream_call_cost("exec_zp_mul"),
                             stream_call_cost("kernel:entry"), stream_call_cost("__syncthreads"),
                             stream_call_cost("loop:trip_count")};
    c->warp_touched = malloc(sizeof *c->warp_touched * n);
    c->weighed.path = malloc(sizeof *c->weighed.path * n);
    c->weighed.n_blocks = -1;
    int sharing = block_warps_per_scheduler(threads, m);
    for (int k = 0; k < OP_BARRIER; k++)
        c->link[k] = stream_shared_link_cycles(m, (op_class)k, sharing);
    c->link[STREAM_CHAIN_GLOBAL - STREAM_CHAIN_PLAIN] = m->read_latency; /* the L2's (card_terms.c charges the
                                                                           * block's own) */
    c->link[STREAM_CHAIN_PREDICATE - STREAM_CHAIN_PLAIN] =
        m->cycles_predicate > 0 ? m->cycles_predicate : stream_link_cycles(m, OP_PLAIN);
    c->link[STREAM_CHAIN_BESIDE - STREAM_CHAIN_PLAIN] = stream_beside_mulmod_cycles(m, sharing);
    for (int k = 0; k < 2; k++)
        c->divide_extra[k] = stream_divide_extra_cycles(m, k, DIVISION_LINKS[k]);
    c->issue = stream_shared_issue_cycles(m, sharing);
    c->issue_mulmod = stream_shared_mulmod_cycles(m, sharing);
    c->mulmod_inst = c->issue_mulmod > 0 ? c->calls.zp_mul : 0;
    c->issue_bound = calloc(n, 1);
    for (int id = 0; id < t->blocks; id++) {
        double w[STREAM_FIELDS], issued[2];
        uint32_t copy[STREAM_FIELDS];
        for (int k = 0; k < STREAM_FIELDS; k++)
            w[k] = t->weight[id][k];
        for (int after = 0; after < 2; after++) {
            issue_split(c, after ? past_a_barrier(t->weight[id], copy) : t->weight[id], 1, issued);
            if (issue_cycles(c, issued) > chain_cycles(c, w + chain_field(after) - STREAM_CHAIN_PLAIN))
                c->issue_bound[id] |= (char)(1 << after);
        }
    }
    return c;
}

void stream_counter_free(stream_counter *c)
{
    if (!c)
        return;
    if (mcm_stream_running == c)
        mcm_stream_running = NULL;
    free(c->passes);
    free(c->warp_touched);
    free(c->weighed.path);
    free(c->issue_bound);
    free(c->reads);
    free(c);
}

void mcm_stream_block(uint32_t id)
{
    stream_counter *c = mcm_stream_running;
    if (!c || id >= c->blocks)
        return;
    block_passes *b = &c->passes[id];
    if (b->thread != c->thread) { /* the thread's first pass */
        if (b->most == 0)
            c->warp_touched[c->n_warp++] = (int)id;
        b->thread = c->thread;
        b->pass = b->back = 0;
    } else if (c->last > id) { /* again, from a block after it: a loop's back edge, taken */
        if (++b->back > b->most_back)
            b->most_back = b->back;
    }
    if (++b->pass > b->most)
        b->most = b->pass;
    c->last = id + 1;
    c->reads_in_pass = 0;
}

void stream_extra(double mulmods, double loops)
{
    if (mcm_stream_running) {
        mcm_stream_running->extra[0] += mulmods;
        mcm_stream_running->extra[1] += loops;
    }
}

/* The running thread is done: its extra work into the warp's, the most. */
static void end_thread(stream_counter *c)
{
    c->last = 0;
    if (c->extra[0] == 0 && c->extra[1] == 0) /* the common case: nothing to fold (the warp's most is >= 0) */
        return;
    for (int k = 0; k < 2; k++) {
        if (c->extra[k] > c->warp_extra[k])
            c->warp_extra[k] = c->extra[k];
        c->extra[k] = 0;
    }
}

void stream_thread(stream_counter *c)
{
    end_thread(c);
    c->thread++;
    mcm_stream_running = c;
}

/* The waits of a loop's global reads over `passes` passes where nvcc
 * unrolls it by `by` (STREAM_UNROLL): a rolled remainder of passes mod by
 * first, each pass waiting, then one wait each unrolled pass.  The passes
 * of every entry of the loop in a step are pooled: a loop entered twice
 * with a remainder is charged as once (every loop so marked today runs a
 * multiple of 4 passes an entry, the tiles' KEYS and SCAN_ITEMS). */
static double unrolled_waits(double passes, uint32_t by)
{
    return fmod(passes, by) + floor(passes / by);
}

/* Whether the warp's path (its blocks in the order first passed, and their
 * passes) is the one `weighed` holds. */
static int same_path_as_before(const stream_counter *c)
{
    if (c->n_warp != c->weighed.n_blocks || (c->step_no > 0) != c->weighed.after_barrier)
        return 0;
    for (int i = 0; i < c->n_warp; i++) {
        const block_passes *b = &c->passes[c->warp_touched[i]];
        const weighed_pass *was = &c->weighed.path[i];
        if (was->id != c->warp_touched[i] || was->most != b->most || was->most_back != b->most_back)
            return 0;
    }
    return 1;
}

/* The warp's path into `weighed`: its blocks' weights times their passes. */
static void weigh_path(stream_counter *c)
{
    weighed_path *p = &c->weighed;
    memset(p->w, 0, sizeof p->w);
    p->issued[0] = p->issued[1] = p->branches = 0;
    p->reads = 0;
    p->constants = 0;
    p->n_blocks = c->n_warp;
    p->after_barrier = c->step_no > 0;
    int from = chain_field(p->after_barrier);
    double root_level = 0; /* the deepest chain from the step's root reads */
    for (int i = 0; i < c->n_warp; i++) {
        int id = c->warp_touched[i];
        uint32_t copy[STREAM_FIELDS];
        const uint32_t *weight = p->after_barrier ? past_a_barrier(c->t->weight[id], copy) : c->t->weight[id];
        const block_passes *b = &c->passes[id];
        p->path[i] = (weighed_pass){id, b->most, b->most_back};
        for (int k = 0; k < STREAM_CHAIN_PLAIN; k++)
            if (k != STREAM_READS && k != STREAM_TRIPS && k != STREAM_ROOT_LINKS && k != STREAM_ROOT_LEVEL &&
                k != STREAM_UNROLL && k != STREAM_HOISTED)
                p->w[k] += (double)weight[k] * b->most;
        if (c->issue_bound[id] >> p->after_barrier & 1) { /* its passes: its instructions, at the warp's own issue */
            double pass[2];
            issue_split(c, weight, b->most, pass);
            p->issued[0] += pass[0];
            p->issued[1] += pass[1];
        } else { /* its passes: its chain each, one after the other; */
            for (int k = 0; k < CHAIN_LINKS; k++)
                p->w[STREAM_CHAIN_PLAIN + k] += (double)weight[from + k] * b->most;
            for (int k = STREAM_CHAIN_DIVIDE; k <= STREAM_CHAIN_DIVIDE32; k++)
                p->w[k] += (double)weight[from + k - STREAM_CHAIN_PLAIN] * b->most;
            double loads = weight[from + STREAM_CHAIN_GLOBAL - STREAM_CHAIN_PLAIN]; /* the chain's, a pass */
            if (b->most == 1) { /* its root reads' links beside the step's others (stream.h) */
                double roots = fmin(weight[STREAM_ROOT_LINKS], loads);
                p->w[STREAM_CHAIN_GLOBAL] -= roots;
                root_level = fmax(root_level, fmin(weight[STREAM_ROOT_LEVEL], roots));
            } else if (weight[STREAM_UNROLL] > 1) /* its loads waited for once each unrolled pass */
                p->w[STREAM_CHAIN_GLOBAL] -= loads * (b->most - unrolled_waits(b->most, weight[STREAM_UNROLL]));
        }
        p->reads |= weight[STREAM_READS] | (uint64_t)weight[STREAM_TRIPS] << 32;
        p->constants |= c->t->constants ? c->t->constants[id] : 0;
        p->branches += b->most_back;
    }
    p->w[STREAM_CHAIN_GLOBAL] += root_level;
}

void stream_warp_end(stream_counter *c)
{
    end_thread(c);
    c->thread = 0;
    mcm_stream_running = NULL;
    if (!same_path_as_before(c))
        weigh_path(c);
    for (int i = 0; i < c->n_warp; i++)
        c->passes[c->warp_touched[i]] = (block_passes){0};
    c->n_warp = 0;
    double w[STREAM_FIELDS], issued[2], branches = c->weighed.branches;
    uint64_t reads = c->weighed.reads;
    memcpy(w, c->weighed.w, sizeof w);
    memcpy(issued, c->weighed.issued, sizeof issued);
    if (c->step_no + 1 < c->steps) { /* a return out of a step but the last: BSSY, BSYNC */
        w[STREAM_INST] += 2 * w[STREAM_EXITS];
        w[STREAM_PLAIN] += 2 * w[STREAM_EXITS];
        w[STREAM_CHAIN_PLAIN] += 2 * w[STREAM_EXITS]; /* BSYNC waits for the warp's threads */
    }
    if (c->warp_no >= c->n_reads) {
        uint64_t *more = realloc(c->reads, sizeof *more * (size_t)(c->warp_no + 1));
        if (!more) {
            fprintf(stderr, "mcmsim: out of memory counting a block's instructions\n");
            exit(70);
        }
        c->reads = more;
        c->reads[c->n_reads++] = 0;
    }
    c->reads[c->warp_no++] |= reads;
    c->constants |= c->weighed.constants;
    /* exec_zp_pow's loop: a squaring in every pass but the last, the
     * multiplications the rest of its products */
    double passes = c->warp_extra[1], squares = passes > 0 ? passes - 1 : 0;
    double multiplies = fmax(c->warp_extra[0] - squares, 0);
    double loop = passes * c->calls.pow_iteration;
    double products = squares * c->calls.pow_square + multiplies * c->calls.pow_multiply;
    double checks = loop + products - c->warp_extra[0] * c->calls.zp_mul;
    w[STREAM_MULMOD] += c->warp_extra[0];
    w[STREAM_INST] += loop + products;
    w[STREAM_PLAIN] += checks;
    /* the loop is a chain: each product needs the one before it, each
     * pass its test of the exponent's bit */
    w[STREAM_CHAIN_MULMOD] += c->warp_extra[0];
    w[STREAM_CHAIN_PLAIN] += checks;
    c->warp_extra[0] = c->warp_extra[1] = 0;
    c->work += w[STREAM_INST];
    double cycles = chain_cycles(c, w) + issue_cycles(c, issued) + branches * c->branch;
    if (cycles > c->path_cycles) {
        memcpy(c->path, w, sizeof w);
        memcpy(c->path_issued, issued, sizeof issued);
        c->path_branches = branches;
        c->path_cycles = cycles;
    }
}

void stream_step_end(stream_counter *c)
{
    c->warp_no = 0;
    c->step_no++;
    for (int k = 0; k < STREAM_FIELDS; k++)
        c->span[k] += c->path[k];
    for (int k = 0; k < 2; k++)
        c->span_issued[k] += c->path_issued[k];
    c->span_branches += c->path_branches;
    c->path_branches = 0;
    memset(c->path, 0, sizeof c->path);
    memset(c->path_issued, 0, sizeof c->path_issued);
    c->path_cycles = 0;
}

void stream_block_end(stream_counter *c, int threads, block_cost *cost)
{
    double warps = ceil((double)threads / c->warp), barriers = c->steps - 1;
    /* every warp enters the kernel, and waits at each barrier between two steps */
    double fixed = c->calls.entry + barriers * c->calls.barrier;
    /* each warp reads the thread's indices it uses once (stream.h, STREAM_READS),
     * and computes the trip count of each loop of STREAM_TRIPS once */
    double reads = 0, most_reads = 0, trip = c->calls.trip_count;
    for (int i = 0; i < c->n_reads; i++) {
        double r = __builtin_popcount((uint32_t)c->reads[i]) +
                   trip * __builtin_popcount((uint32_t)(c->reads[i] >> 32));
        reads += r;
        most_reads = fmax(most_reads, r);
        c->reads[i] = 0;
    }
    c->warp_no = c->step_no = 0;
    cost->stream = 1;
    cost->stream_work = c->work + warps * fixed + reads;
    /* the entry, exit, barriers and index reads as links of the path, as
     * the chains' */
    cost->stream_span[OP_PLAIN] = c->span[STREAM_CHAIN_PLAIN] + fixed + most_reads;
    cost->stream_span[OP_MULMOD] = c->span[STREAM_CHAIN_MULMOD];
    cost->stream_span[OP_ADDMOD] = c->span[STREAM_CHAIN_ADDMOD];
    cost->stream_span[OP_PRIVATE] = c->span[STREAM_CHAIN_PRIVATE];
    cost->stream_span[OP_BARRIER] = barriers;
    cost->stream_issued = c->span_issued[0];
    cost->stream_issued_mulmod = c->span_issued[1];
    cost->stream_reads = c->span[STREAM_CHAIN_GLOBAL];
    cost->stream_predicates = c->span[STREAM_CHAIN_PREDICATE];
    cost->stream_mulmod_beside = c->span[STREAM_CHAIN_BESIDE];
    cost->stream_branches = c->span_branches;
    for (int k = 0; k < 2; k++) {
        cost->stream_divisions[k] = c->span[STREAM_CHAIN_DIVIDE + k];
        cost->stream_division_links[k] = cost->stream_divisions[k] > 0 ? DIVISION_LINKS[k] : 0;
    }
    /* the lines of constants beyond the touch kernel's that its code read */
    cost->stream_constant_lines = __builtin_popcount(c->constants & ~STREAM_TOUCH_LINE);
    c->constants = 0;
    c->work = c->span_branches = 0;
    memset(c->span_issued, 0, sizeof c->span_issued);
    memset(c->span, 0, sizeof c->span);
}
