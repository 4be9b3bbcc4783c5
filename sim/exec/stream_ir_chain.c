/*
 * stream_ir_chain.c — each basic block's longest dependent chain, by class
 * (ir_chain_step, as the block's instructions are weighed), and which
 * global reads are links of a chain (ir_chain_reads_of); a global read
 * waited for where its value is first used (ir_note_reads_in_flight); a
 * Z/pZ sum or difference after the result it waits for, the tail alone
 * (ZP_SUM_TAIL); the products in flight beside the chain's (note_beside).
 * The chain's links go into the block's STREAM_CHAIN_*
 * fields (stream.h), and the chain it has in a step after a barrier, its
 * free values no links (but a looped step's comparison its branch reads:
 * recomputed_comparison), into its STREAM_AFTER_* fields; stream.c
 * charges them.
 */
#include "stream_ir.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A warp issues an instruction once its operands are ready, so a pass
 * through a block lasts as long as its longest chain of instructions each
 * of which needs the one before it; the others issue beside it.  Each
 * instruction's depth is its own links (the card instructions it becomes,
 * plain; a call of a Z/pZ function or a private access one link of its
 * class, whose measured latency holds its CUDA twin's instructions; a
 * global read its address's instructions, plain, and its load, a link of
 * its own; a store none of its own, since no later instruction waits for
 * it: a private store's STS, a global store's STG issue beside the chain,
 * a global store's address is its links), plus the deepest of its
 * operands defined before it in the same block (a remainder after its
 * division: the quotient's too, waited_names); and where a conditional
 * branch reads a comparison of the block, the comparison's last link is
 * the predicate's, a class of its own (an ISETP's predicate is read 13
 * cycles after it issues, its integer results after 5: ptxas's stall
 * counts, validate/card.c's PREDICATE_CYCLES).
 * Operands from other blocks, phis, the step's args and the thread's
 * indices, constants: ready when the block starts; but a global read that
 * its own block does not use is in flight past it (ir_note_reads_in_flight):
 * its LDG ends no chain of its block, and its value is a global read's
 * link in the blocks that use it, as the warp waits for it at its first
 * use (the stencil's centre read and its four neighbours', waited for
 * once).  That is a bound from
 * below for one pass (a value from the block before may still be on its
 * way) and the passes are charged one after the other (stream.c), a bound
 * from above across them (the card may start a block before the last one's
 * chain is done): the two errors go opposite ways and are each at most a
 * chain's tail.  Memory is not a dependence here: a private read after a
 * write in the same block waits its own latency (the pipe keeps them in
 * order).
 *
 * The chains are compared at nominal latencies (below), so that the table
 * need not know the machine: they only choose among a block's chains of
 * different classes; the chosen chain's links are charged at the
 * machine's own latencies (card_terms.c). */
/* A Z/pZ addition or subtraction whose operand on the chain is a result
 * known below p: after that result the card issues the tail alone, a
 * 32-bit sum or difference, its comparison with p and the select (plain
 * division's `v − q·b`: IMAD.IADD, ISETP.GE.U32, SEL after the product's
 * last VIADD, SASS 0x8a0-0x980), plain links, where cycles_addmod's chain
 * checks each operand's range again. */
enum { ZP_SUM_TAIL = 3 };
/* The classes of a chain's links: plain, Z/pZ multiplication, Z/pZ
 * addition, private access, global read, the comparison a conditional
 * branch waits for (its predicate), and of the plain links, the divisions
 * by a runtime number: long, 32-bit (stream.h). */
enum { LINK_PLAIN, LINK_MULMOD, LINK_ADDMOD, LINK_PRIVATE, LINK_GLOBAL, LINK_PREDICATE, LINK_DIVIDE, LINK_DIVIDE32,
       CHAIN_CLASSES };

/* The H100's latencies (machine/h100-code.cfg, session 2026-11-26f:
 * cycles_issue, cycles_mulmod, cycles_addmod, cycles_private,
 * read_latency, cycles_predicate), rounded.  The H200's are the same SM's.
 * A division's count weighs nothing: its links are plain ones already. */
static const double NOMINAL_LINK_CYCLES[CHAIN_CLASSES] = {
    [LINK_PLAIN] = 5,    [LINK_MULMOD] = 68,     [LINK_ADDMOD] = 22, [LINK_PRIVATE] = 29,
    [LINK_GLOBAL] = 261, [LINK_PREDICATE] = 13,  [LINK_DIVIDE] = 0,  [LINK_DIVIDE32] = 0};

/* The stream fields the links of each class come from (a global read's:
 * its call, below), and go to. */
enum { OWN_CLASSES = LINK_PRIVATE + 1 }; /* the classes an instruction's weights hold, the first four */
static const int LINK_OWN[OWN_CLASSES] = {[LINK_PLAIN] = STREAM_PLAIN, [LINK_MULMOD] = STREAM_MULMOD,
                                          [LINK_ADDMOD] = STREAM_ADDMOD, [LINK_PRIVATE] = STREAM_PRIVATE};
static const int LINK_CHAIN[CHAIN_CLASSES] = {
    [LINK_PLAIN] = STREAM_CHAIN_PLAIN,     [LINK_MULMOD] = STREAM_CHAIN_MULMOD,
    [LINK_ADDMOD] = STREAM_CHAIN_ADDMOD,   [LINK_PRIVATE] = STREAM_CHAIN_PRIVATE,
    [LINK_GLOBAL] = STREAM_CHAIN_GLOBAL,   [LINK_PREDICATE] = STREAM_CHAIN_PREDICATE,
    [LINK_DIVIDE] = STREAM_CHAIN_DIVIDE,   [LINK_DIVIDE32] = STREAM_CHAIN_DIVIDE32};

enum { MAX_PRODUCTS = 64 }; /* a block's products followed (bits of a uint64_t); later ones are none */

static double nominal_cycles(const double *links)
{
    double t = 0;
    for (int k = 0; k < CHAIN_CLASSES; k++)
        t += links[k] * NOMINAL_LINK_CYCLES[k];
    return t;
}

/* The depths of a block's values: an open-addressing table of their names
 * (pointers into the function's lines); and the block's chain so far. */
struct depth_map {
    const char **name;
    size_t *len;
    double (*links)[CHAIN_CLASSES];
    double (*after)[CHAIN_CLASSES]; /* the same past a barrier: a free value's none (ir_chain_step) */
    uint64_t *reads; /* the global reads on each value's deepest path (ir_chain_reads_of) */
    /* the block's Z/pZ products (its first MAX_PRODUCTS, bit k the k-th in
     * the order of its lines): per value those it waits for and those on
     * its deepest path; per product where it starts (its deepest
     * operand's nominal cycles), those it waits for, its products (a
     * call's own mulmod links); the block's chain's (note_beside) */
    uint64_t *prods, *chain_prods;
    int n_products;
    double product_start[MAX_PRODUCTS], product_links[MAX_PRODUCTS];
    uint64_t product_waits[MAX_PRODUCTS], chain_products;
    double hoisted; /* a looped step's: its free values' plain instructions but comparisons (STREAM_HOISTED) */
    size_t cap; /* a power of two, more than twice the block's lines */
    double chain[CHAIN_CLASSES]; /* the block's longest chain: its links of each class */
    double chain_after[CHAIN_CLASSES]; /* the same in a step after a barrier */
    /* which global reads are links (ir_chain_reads_of): the function's, by line
     * (read_number), the line now, the block's chain's, and every block's */
    const ir_function *f;
    int *read_no, line;
    uint64_t chain_reads, on_chain;
    /* the reads whose chains may begin a step's path beside each other
     * (ir_chain_block_end): the values a read reaches, and the roots */
    name_set from_reads;
    uint64_t roots;
    name_set step_values; /* the values computed from the step's number (of_the_step_number) */
    char quotient[64]; /* the instruction now's quotient, a remainder's after its division (ir_quotient_of), or "" */
};

/* The global read at line `line` as a bit of a set of the function's reads
 * (0: none, or a read past the 64th, which ir_chain_reads_of counts a link). */
static uint64_t read_bit(const depth_map *d, int line)
{
    int n = line >= 0 ? d->read_no[line] : -1;
    return n >= 0 && n < 64 ? 1ull << n : 0;
}

static size_t depth_slot(const depth_map *d, const char *name, size_t len)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < len; i++)
        h = (h ^ (unsigned char)name[i]) * 16777619u;
    size_t i = h & (d->cap - 1);
    while (d->name[i] && !(d->len[i] == len && !memcmp(d->name[i], name, len)))
        i = (i + 1) & (d->cap - 1);
    return i;
}

/* The values an instruction waits for: its operands, and a remainder
 * after its division that division's quotient (d->quotient): on the card
 * the remainder is `v − q·b` (user-stencil's SASS, instruction-stream.md).
 *     for (waited_names n = waited_names_of(d, in); next_waited(&n);)
 *         ... n.names.name, n.names.len ... */
typedef struct waited_names {
    ir_operand_names names;
    const char *quotient; /* the quotient still to take ("" if none), NULL once taken */
} waited_names;

static waited_names waited_names_of(const depth_map *d, const ir_inst *in)
{
    return (waited_names){ir_operand_names_of(in), d->quotient};
}

static int next_waited(waited_names *n)
{
    if (n->quotient == NULL)
        return 0;
    if (ir_next_operand_name(&n->names))
        return 1;
    n->names.name = n->quotient;
    n->names.len = strlen(n->quotient);
    n->quotient = NULL;
    return n->names.len > 0;
}

/* The deepest operand of `in` (or quotient it waits for: waited_names)
 * defined before it in the block, or a global read in flight from a
 * block before (its load), into links (zeros if none, or a phi: its
 * values come from other blocks). */
static void deepest_operand(const depth_map *d, const name_set *in_flight, const name_set *below_p,
                            const ir_inst *in, double *links, int *through_below_p, uint64_t *reads)
{
    static const double load[CHAIN_CLASSES] = {[LINK_GLOBAL] = 1};
    static const double ready[CHAIN_CLASSES] = {0};
    double below[CHAIN_CLASSES] = {0}; /* the deepest of the operands known below p */
    int any_below = 0;
    memset(links, 0, sizeof(double) * CHAIN_CLASSES);
    *through_below_p = 0;
    *reads = 0;
    if (!strcmp(in->op, "phi"))
        return;
    for (waited_names w = waited_names_of(d, in); next_waited(&w);) {
        const ir_operand_names n = w.names;
        size_t i = depth_slot(d, n.name, n.len);
        const double *depth = d->name[i] ? d->links[i] : ir_set_has(in_flight, n.name, n.len) ? load : ready;
        if (ir_set_has(below_p, n.name, n.len)) {
            any_below = 1;
            if (nominal_cycles(depth) > nominal_cycles(below))
                memcpy(below, depth, sizeof below);
        }
        if (nominal_cycles(depth) > nominal_cycles(links)) {
            memcpy(links, depth, sizeof(double) * CHAIN_CLASSES);
            *reads = d->name[i] ? d->reads[i] : depth == load ? read_bit(d, ir_defining_line(d->f, n.name, n.len)) : 0;
        }
    }
    /* the chain goes through an operand known below p: none other is later */
    *through_below_p = any_below && nominal_cycles(below) >= nominal_cycles(links);
}

/* The deepest operand of `in` past a barrier (d->after), as
 * deepest_operand's, into links. */
static void deepest_operand_after(const depth_map *d, const name_set *in_flight, const ir_inst *in, double *links)
{
    static const double load[CHAIN_CLASSES] = {[LINK_GLOBAL] = 1};
    static const double ready[CHAIN_CLASSES] = {0};
    memset(links, 0, sizeof(double) * CHAIN_CLASSES);
    if (!strcmp(in->op, "phi"))
        return;
    for (waited_names w = waited_names_of(d, in); next_waited(&w);) {
        const ir_operand_names n = w.names;
        size_t i = depth_slot(d, n.name, n.len);
        const double *depth = d->name[i] ? d->after[i] : ir_set_has(in_flight, n.name, n.len) ? load : ready;
        if (nominal_cycles(depth) > nominal_cycles(links))
            memcpy(links, depth, sizeof(double) * CHAIN_CLASSES);
    }
}

/* Instruction `in` computes a value from the step's number (t->step,
 * the thread's field 4), noted in d->step_values: its address, its load,
 * or a value of an operand so noted (in the order of the lines). */
static int of_the_step_number(depth_map *d, const ir_inst *in)
{
    const char *last = strrchr(in->rest, ',');
    int step = !strcmp(in->op, "getelementptr") && strstr(in->rest, "%struct.exec_thread, ") && last &&
               !strncmp(last, ", i32 4", 7) && !isdigit((unsigned char)last[7]);
    for (ir_operand_names n = ir_operand_names_of(in); !step && ir_next_operand_name(&n);)
        step = ir_set_has(&d->step_values, n.name, n.len);
    if (step && in->result)
        ir_set_add(&d->step_values, in->result, in->result_len);
    return step;
}

/* In a looped kernel's step (MCM_KERNEL_LOOP), a comparison of free
 * values that its block's conditional branch waits for: ptxas keeps the
 * values in registers across the step loop but not the predicate, and
 * issues the comparison again each pass after the barrier, the branch
 * waiting for it (Euclid's ping-pong step at s = 256, the executed SASS
 * of profiles/sass-executed/euclid-s256.csv: `tid < h_len` ISETP.GE P0,
 * R3, R2 and `tid < w_len` ISETP.GE P0, R3, R4 at 0x2d70 and 0x3040, at
 * 0x3320 and 0x35f0 on the other polynomial's path, 4 096 times each: two
 * a warp every reduction step, after the loop's BAR.SYNC at 0x1bb0;
 * h_len and w_len themselves computed once, before the loop).  Its link
 * stays on the block's chain past a barrier.  In a kernel of listed steps
 * the card computes such a test before the barrier (constants'
 * reduce_kernel, profiles/probes/sa9/): off the chain, as before. */
static int recomputed_comparison(const ir_function *f, const ir_block *b, const ir_inst *in)
{
    if (!f->looped_step || strcmp(in->op, "icmp") || !in->result)
        return 0;
    const char *condition = ir_branch_condition(f, b);
    return condition && ir_name_length(condition) == in->result_len &&
           !strncmp(condition, in->result, in->result_len);
}

/* Depth `depth` of an instruction whose operands' deepest is `operand`
 * and whose own links are `own`: a conditional branch on a comparison
 * waits for its predicate (its last link the predicate's); a read whose
 * address folds an offset, its load alone (no class below zero). */
static void add_own_links(const ir_block *b, const ir_inst *in, const double *own, double *depth)
{
    const char *condition = in->rest + strspn(in->rest, " ");
    if (!strcmp(in->op, "br") && !strncmp(condition, "i1 ", 3) && !b->second_test && depth[LINK_PLAIN] >= 1) {
        depth[LINK_PLAIN] -= 1; /* the comparison's link: the branch waits for its predicate */
        depth[LINK_PREDICATE] += 1;
    }
    for (int k = 0; k < CHAIN_CLASSES; k++)
        depth[k] = fmax(0, depth[k] + own[k]);
}

/* The links of instruction `in` itself, by class, from what it added to
 * the block's weights (w less `before`): a Z/pZ call one link, a global
 * read's load one, a store's own access none; a division by a runtime
 * number its plain links, and counted as one. */
static void own_links(const ir_inst *in, const double *before, const double *w, double *own)
{
    for (int k = 0; k < OWN_CLASSES; k++)
        own[k] = w[LINK_OWN[k]] - before[LINK_OWN[k]];
    int division = ir_division_by_a_number(in, own[LINK_PLAIN]);
    own[LINK_DIVIDE] = division == 64;
    own[LINK_DIVIDE32] = division == 32;
    if (own[LINK_MULMOD] > 0 || own[LINK_ADDMOD] > 0) /* a Z/pZ call: one link; the check of an arg's high */
        own[LINK_PLAIN] = 0;                           /* word beside it */
    char name[32] = "";
    if (!strcmp(in->op, "call"))
        ir_callee(in->rest, name, sizeof name);
    own[LINK_GLOBAL] = !strcmp(name, "exec_gread"); /* its load (LDG) a link of its own, its address's plain */
    own[LINK_PLAIN] -= own[LINK_GLOBAL];
    if (!strcmp(name, "exec_pwrite")) /* a store: nothing waits for it (its STS issues beside the chain) */
        own[LINK_PRIVATE] = 0;
    if (!strcmp(name, "exec_gwrite")) /* its address is a link, its STG issues beside the chain */
        own[LINK_PLAIN] -= 1;
}

/* The block's products that `in` waits for, through any operand defined
 * before it in the block (into *waits), and those on the path of its
 * deepest operand, the one deepest_operand takes (into *deepest). */
static void operand_products(const depth_map *d, const ir_inst *in, uint64_t *waits, uint64_t *deepest)
{
    static const double load[CHAIN_CLASSES] = {[LINK_GLOBAL] = 1};
    double best[CHAIN_CLASSES] = {0};
    *waits = *deepest = 0;
    if (!strcmp(in->op, "phi"))
        return;
    for (waited_names w = waited_names_of(d, in); next_waited(&w);) {
        const ir_operand_names n = w.names;
        size_t i = depth_slot(d, n.name, n.len);
        /* a value from before the block, ready or a load in flight: no product of the block */
        const double *depth = d->name[i] ? d->links[i] : ir_set_has(&d->f->in_flight, n.name, n.len) ? load : best;
        if (d->name[i])
            *waits |= d->prods[i];
        if (nominal_cycles(depth) > nominal_cycles(best)) {
            *deepest = d->name[i] ? d->chain_prods[i] : 0;
            memcpy(best, depth, sizeof best);
        }
    }
}

/* Instruction `in`, starting at nominal cycles `start`, with own links
 * `own`: a product (a Z/pZ call's mulmod link) is noted as the block's
 * next; its bit, or 0. */
static uint64_t note_product(depth_map *d, const double *own, double start, uint64_t waits)
{
    if (!(own[LINK_MULMOD] > 0) || d->n_products >= MAX_PRODUCTS)
        return 0;
    int k = d->n_products++;
    d->product_start[k] = start;
    d->product_links[k] = own[LINK_MULMOD];
    d->product_waits[k] = waits;
    return 1ull << k;
}

/* The block's products in flight beside its chain's (stream.h,
 * STREAM_CHAIN_BESIDE): each product off the chain that waits for no
 * product of the chain, none of which waits for it, and that starts
 * within a product's nominal latency of one of them.  A warp issues it
 * while the chain's product is in flight, its IMAD.WIDEs through the same
 * multiply-add pipe: Euclid's reduction pass, lc_y·x[i] and lc_x·y[j]
 * interleaved after their LDS (profiles/sass-executed/euclid-s256.csv,
 * 0x3090-0x32f0: the two Barrett chains at 0x3170-0x3260), where one
 * product alone is mulmod_latency. */
static double note_beside(const depth_map *d)
{
    double beside = 0;
    for (int q = 0; q < d->n_products; q++) {
        if (d->chain_products >> q & 1)
            continue;
        for (int p = 0; p < d->n_products; p++)
            if ((d->chain_products >> p & 1) && !(d->product_waits[q] >> p & 1) &&
                !(d->product_waits[p] >> q & 1) &&
                fabs(d->product_start[p] - d->product_start[q]) < NOMINAL_LINK_CYCLES[LINK_MULMOD]) {
                beside += d->product_links[q];
                break;
            }
    }
    return beside;
}

/* Free instruction `in` (a free value's), which added to the block's
 * weights what `before` had not: in a looped step (MCM_KERNEL_LOOP), its
 * plain instructions, but a comparison's, which ptxas hoists before the
 * loop over the steps, each warp issuing them once (STREAM_HOISTED,
 * stream.h; a comparison is issued again each pass: recomputed_comparison);
 * else 0. */
static double hoisted_before_the_loop(const ir_function *f, const ir_inst *in, const double *before, const double *w)
{
    double inst = w[STREAM_INST] - before[STREAM_INST];
    if (!f->looped_step || !strcmp(in->op, "icmp") || w[STREAM_PLAIN] - before[STREAM_PLAIN] != inst)
        return 0;
    return inst;
}

/* Block b's instruction `in`, at line `line`, which added to the block's
 * weights what `before` had not: its depth (above), noted under its
 * result; into the block's chain if deeper (a read in flight past the
 * block: its address's depth, its LDG issued). */
void ir_chain_step(depth_map *d, const ir_block *b, const ir_inst *in, int line, const double *before,
                   const double *w)
{
    const ir_function *f = d->f;
    double own[CHAIN_CLASSES] = {0}, depth[CHAIN_CLASSES];
    d->line = line;
    ir_quotient_of(f, in, (int)(b - f->blocks), d->quotient, sizeof d->quotient);
    own_links(in, before, w, own);
    int through_below_p;
    uint64_t reads, own_read = own[LINK_GLOBAL] > 0 ? read_bit(d, d->line) : 0;
    deepest_operand(d, &f->in_flight, &f->below_p, in, depth, &through_below_p, &reads);
    reads |= own_read;
    uint64_t waits, deepest;
    operand_products(d, in, &waits, &deepest);
    uint64_t self = note_product(d, own, nominal_cycles(depth), waits);
    if (own[LINK_ADDMOD] > 0 && through_below_p) { /* a Z/pZ sum or difference after the result it waits for: */
        own[LINK_ADDMOD] = 0;                       /* that operand's range check is not redone, its tail alone */
        own[LINK_PLAIN] = ZP_SUM_TAIL;
    }
    add_own_links(b, in, own, depth);
    /* past a barrier: a free value was computed before it, no link (one
     * of the step's number, only where that is a constant on the card) */
    double after[CHAIN_CLASSES] = {0};
    int free_value = in->result && ir_set_has(&f->free_values, in->result, in->result_len) &&
                     (f->constant_step || !of_the_step_number(d, in)) && !recomputed_comparison(f, b, in);
    if (!free_value) {
        deepest_operand_after(d, &f->in_flight, in, after);
        add_own_links(b, in, own, after);
    } else {
        d->hoisted += hoisted_before_the_loop(f, in, before, w);
    }
    if (in->result) {
        size_t i = depth_slot(d, in->result, in->result_len);
        d->name[i] = in->result;
        d->len[i] = in->result_len;
        memcpy(d->links[i], depth, sizeof depth);
        memcpy(d->after[i], after, sizeof after);
        d->reads[i] = reads;
        d->prods[i] = waits | self;
        d->chain_prods[i] = deepest | self;
    }
    double ends[CHAIN_CLASSES];
    memcpy(ends, depth, sizeof depth);
    int in_flight = in->result && ir_set_has(&f->in_flight, in->result, in->result_len);
    if (in_flight) {
        ends[LINK_GLOBAL] -= own[LINK_GLOBAL];
        reads &= ~own_read;
        after[LINK_GLOBAL] = fmax(0, after[LINK_GLOBAL] - own[LINK_GLOBAL]);
    }
    if (nominal_cycles(ends) > nominal_cycles(d->chain)) {
        memcpy(d->chain, ends, sizeof ends);
        d->chain_reads = reads;
        d->chain_products = deepest | self;
    }
    if (nominal_cycles(after) > nominal_cycles(d->chain_after))
        memcpy(d->chain_after, after, sizeof after);
}

/* Block b's chain begins: the map empty, with room for its lines. */
void ir_chain_block_begin(depth_map *d, const ir_block *b)
{
    size_t cap = 16;
    while (cap < 2 * (size_t)(b->last - b->first) + 1)
        cap *= 2;
    if (cap > d->cap) {
        free(d->name);
        free(d->len);
        free(d->links);
        free(d->after);
        free(d->reads);
        free(d->prods);
        free(d->chain_prods);
        d->cap = cap;
        d->name = ir_alloc(sizeof *d->name * cap);
        d->len = ir_alloc(sizeof *d->len * cap);
        d->links = ir_alloc(sizeof *d->links * cap);
        d->after = ir_alloc(sizeof *d->after * cap);
        d->reads = ir_alloc(sizeof *d->reads * cap);
        d->prods = ir_alloc(sizeof *d->prods * cap);
        d->chain_prods = ir_alloc(sizeof *d->chain_prods * cap);
    }
    memset(d->name, 0, sizeof *d->name * d->cap);
    memset(d->chain, 0, sizeof d->chain);
    memset(d->chain_after, 0, sizeof d->chain_after);
    d->chain_reads = 0;
    d->n_products = 0;
    d->chain_products = 0;
    d->hoisted = 0;
}

static int global_read_at(const ir_function *f, int l, ir_inst *in);

/* ---- reads that overlap: the roots of a step's chains ------------------------------ */

/* Instruction `in` has an operand in `set`. */
static int uses_one_of(const name_set *set, const ir_inst *in)
{
    for (ir_operand_names n = ir_operand_names_of(in); ir_next_operand_name(&n);)
        if (ir_set_has(set, n.name, n.len))
            return 1;
    return 0;
}

/* The values a global read's value reaches, through the function's
 * dataflow (phis too: the set grows until it holds), into set.  A private
 * read's value counts as one (memory is not followed: it may hold a
 * global read's value). */
static void note_values_from_reads(const ir_function *f, name_set *set)
{
    for (int grew = 1; grew;) {
        grew = 0;
        for (int l = 0; l < f->n_lines; l++) {
            ir_inst in;
            char name[32] = "";
            if (ir_parse_inst(f->lines[l], &in) != 0 || !in.result || ir_set_has(set, in.result, in.result_len))
                continue;
            if (!strcmp(in.op, "call"))
                ir_callee(in.rest, name, sizeof name);
            if (!strcmp(name, "exec_gread") || !strcmp(name, "exec_pread") || uses_one_of(set, &in)) {
                ir_set_add(set, in.result, in.result_len);
                grew = 1;
            }
        }
    }
}

/* Block b is passed at most once a pass, and no test before it (in the
 * order of the code, a bound from above on the tests that guard it)
 * reads a value a global read reaches: a warp knows whether it takes
 * the block before any read of the step is back. */
static int root_block(const depth_map *d, const ir_block *b)
{
    const ir_function *f = d->f;
    if (b->in_loop)
        return 0;
    for (const ir_block *before = f->blocks; before < b; before++) {
        const char *test = ir_branch_condition(f, before);
        if (test && ir_set_has(&d->from_reads, test, ir_name_length(test)))
            return 0;
    }
    return 1;
}

/* Global read `line` of block `block` comes after a global write that
 * takes a value a global read reaches (its word or its index): in its
 * block before it, or in a block from which the flow reaches it.  A warp
 * issues in order and its STG waits for that value; nvcc keeps a global
 * read after a global write where it comes after it (the two may be the
 * same word), so such a read waits for the read the write waits for:
 * prefix-optimal's copy_add, `LDG ... STG @BRA ... LDG ... STG ... LDG ...
 * STG` (its cubin, sm_90), where jacobi's reads, before private writes
 * (STS, another memory), issue back to back, and the stencil's border
 * write, on a path of its own, does not hold its inner reads
 * (instruction-stream.md, session 42). */
static int after_waiting_write(const depth_map *d, int block, int line, ir_search *s)
{
    const ir_function *f = d->f;
    for (int b = 0; b < f->n_blocks; b++) {
        if (b != block && !ir_reaches(f, b, block, -1, s))
            continue;
        int last = b == block ? line : f->blocks[b].last;
        for (int l = f->blocks[b].first; l < last; l++) {
            ir_inst in;
            char name[32];
            if (ir_call_at(f, l, &in, name, sizeof name) && !strcmp(name, "exec_gwrite") &&
                uses_one_of(&d->from_reads, &in))
                return 1;
        }
    }
    return 0;
}

/* The function's global reads whose address no global read reaches, in
 * blocks that may hold roots, after no global write that waits for a
 * read, as bits (read_bit) into d->roots: a warp issues each of them
 * without waiting for another read's value, so the chains that begin at
 * them wait their loads at once, the deepest of them the step's
 * (stream.c), where one after the other is the card issuing a load while
 * the one before is in flight (prefix-naive's in[i] and in[i − d],
 * jacobi's cell and its two halo words). */
static void note_root_reads(depth_map *d)
{
    const ir_function *f = d->f;
    note_values_from_reads(f, &d->from_reads);
    ir_search s = ir_search_new(f);
    for (int i = 0; i < f->n_blocks; i++)
        for (int l = f->blocks[i].first; l < f->blocks[i].last; l++) {
            ir_inst in;
            if (global_read_at(f, l, &in) && !uses_one_of(&d->from_reads, &in) && root_block(d, &f->blocks[i]) &&
                !after_waiting_write(d, i, l, &s))
                d->roots |= read_bit(d, l);
        }
    ir_search_free(&s);
}

/* Block b's chain ends: its links into w's STREAM_CHAIN_* fields (a fused
 * second test's comparison no link of its own), its reads noted as links
 * if the block is counted. */
void ir_chain_block_end(depth_map *d, const ir_block *b, double *w)
{
    if (b->second_test && d->chain[LINK_PLAIN] >= 1)
        d->chain[LINK_PLAIN] -= 1; /* its comparison folded into the first test's predicate */
    if (b->second_test && d->chain_after[LINK_PLAIN] >= 1)
        d->chain_after[LINK_PLAIN] -= 1;
    for (int k = 0; k < CHAIN_CLASSES; k++) {
        w[LINK_CHAIN[k]] = d->chain[k];
        w[LINK_CHAIN[k] - STREAM_CHAIN_PLAIN + STREAM_AFTER_PLAIN] = d->chain_after[k];
    }
    /* past a barrier the same products beside, where that chain holds the chain's products */
    w[STREAM_CHAIN_BESIDE] = note_beside(d);
    w[STREAM_AFTER_BESIDE] = d->chain_after[LINK_MULMOD] == d->chain[LINK_MULMOD] ? w[STREAM_CHAIN_BESIDE] : 0;
    w[STREAM_HOISTED] = d->hoisted;
    if (d->chain_reads & d->roots && d->chain[LINK_GLOBAL] >= 1 && root_block(d, b))
        w[STREAM_ROOT_LINKS] = w[STREAM_ROOT_LEVEL] = d->chain[LINK_GLOBAL];
    if (b->id >= 0)
        d->on_chain |= d->chain_reads;
}

/* ---- global reads in flight past their blocks ------------------------------------- */

/* Line l is a call of exec_gread (as ir_chain_step reads it), read into in. */
static int global_read_at(const ir_function *f, int l, ir_inst *in)
{
    char name[32];
    return ir_call_at(f, l, in, name, sizeof name) && !strcmp(name, "exec_gread");
}

/* The read of line `line` has its value used in its block after it. */
static int used_in_block(const ir_function *f, const ir_block *b, int line, const ir_inst *read)
{
    char name[64];
    ir_result_name(read, name, sizeof name);
    for (int l = line + 1; l < b->last; l++)
        if (ir_next_use(ir_operands_of(f->lines[l]), name, strlen(name)))
            return 1;
    return 0;
}

/* Global read `read` of block `block` is in flight when its block ends:
 * its block uses the value of none of its reads (a warp waiting for one
 * has the others, issued a few instructions apart, by then: Cooley-Tukey's
 * butterfly waits for its second word's product, Euclid's step for the
 * words it tests), no phi uses it, and each block that uses it is passed
 * through once a pass through the read's (no cycle through it misses the
 * read's block: a use in a loop the read is outside would wait at every
 * pass). */
static int in_flight_past_its_block(const ir_function *f, int block, const ir_inst *read, ir_search *s)
{
    const ir_block *b = &f->blocks[block];
    for (int l = b->first; l < b->last; l++) {
        ir_inst later;
        if (global_read_at(f, l, &later) && later.result && used_in_block(f, b, l, &later))
            return 0;
    }
    char name[64];
    ir_result_name(read, name, sizeof name);
    size_t len = strlen(name);
    int used = 0;
    for (int u = 0; u < f->n_blocks; u++)
        for (int l = f->blocks[u].first; l < f->blocks[u].last; l++) {
            ir_inst use;
            if (!ir_next_use(ir_operands_of(f->lines[l]), name, len))
                continue;
            if (u == block || ir_parse_inst(f->lines[l], &use) != 0 || !strcmp(use.op, "phi") ||
                ir_reaches(f, u, u, block, s))
                return 0;
            used = 1;
        }
    return used;
}

/* The function's global reads in flight past their blocks (above), into
 * f->in_flight.  A warp issues a load and waits for its value at its first
 * use (its scoreboard): the stencil's warp issues the centre's LDG, the
 * border test, the four neighbours' LDGs, and waits once, at the first
 * value's use (user-stencil's executed SASS, 0xc640-0xc7d0); so such a
 * read ends no chain of its block, and its load is a link of the chains
 * through its value in the blocks that use it (ir_chain_step). */
void ir_note_reads_in_flight(ir_function *f)
{
    ir_search s = ir_search_new(f);
    for (int b = 0; b < f->n_blocks; b++)
        for (int l = f->blocks[b].first; l < f->blocks[b].last; l++) {
            ir_inst in;
            if (global_read_at(f, l, &in) && in.result && in_flight_past_its_block(f, b, &in, &s))
                ir_set_add(&f->in_flight, in.result, in.result_len);
        }
    ir_search_free(&s);
}

/* ---- which global reads are links of a chain -------------------------------------- */

/* The function's global reads numbered in the order of its lines, per
 * line (-1: not a read); owned by the caller. */
static int *number_reads(const ir_function *f)
{
    int *no = ir_alloc(sizeof *no * ((size_t)f->n_lines + 1)), n = 0;
    for (int l = 0; l < f->n_lines; l++) {
        ir_inst in;
        no[l] = global_read_at(f, l, &in) ? n++ : -1;
    }
    return no;
}

/* The chains of f's blocks, none begun yet (freed by ir_chains_free). */
depth_map *ir_chains_new(const ir_function *f)
{
    depth_map *d = ir_alloc(sizeof *d);
    *d = (depth_map){.f = f, .read_no = number_reads(f)};
    note_root_reads(d);
    return d;
}

void ir_chains_free(depth_map *d)
{
    free(d->name);
    free(d->len);
    free(d->links);
    free(d->after);
    free(d->reads);
    free(d->prods);
    free(d->chain_prods);
    free(d->read_no);
    ir_set_clear(&d->from_reads);
    free(d->from_reads.names);
    ir_set_clear(&d->step_values);
    free(d->step_values.names);
    free(d);
}

/* Per counted block, bit k: its k-th global read (in the order of its
 * lines, as a thread makes them) is a link of a block's chain, the one
 * whose value its chain waits for (d->on_chain: every block's chain's
 * reads; a read past the function's 64th is counted a link).  The caches
 * then tell which level each link's load waited for (cache.h); a read
 * past a block's 32nd is a link for them too (stream_read_site). */
void ir_chain_reads_of(const ir_function *f, const depth_map *d, weights *t)
{
    for (int i = 0; i < f->n_blocks; i++) {
        const ir_block *b = &f->blocks[i];
        if (b->id < 0)
            continue;
        uint32_t links = 0;
        for (int l = b->first, k = 0; l < b->last && k < 32; l++) {
            if (d->read_no[l] < 0)
                continue;
            if (d->read_no[l] >= 64 || (d->on_chain & read_bit(d, l)))
                links |= 1u << k;
            k++;
        }
        t->chain_reads[b->id] = links;
    }
}
