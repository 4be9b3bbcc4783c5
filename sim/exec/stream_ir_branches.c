/*
 * stream_ir_branches.c — two rules of what ptxas makes of an `if`, over a
 * function's flow graph:
 *  - the second test of a `&&` or `||` that clang makes a block of its
 *    own: its comparison alone, fused into the first test's predicate
 *    (ir_note_second_tests, before the blocks are weighed);
 *  - a small body of memory accesses an `if` skips: predicated, issued by
 *    every warp that reaches the `if` (ir_note_predicated_bodies, after).
 */
#include "stream_ir.h"

#include <string.h>

/* The one block that branches to block b, or -1 where none or several do
 * (or one does twice). */
static int sole_predecessor(const ir_function *f, const ir_block *b)
{
    int pred = -1, preds = 0;
    for (int j = 0; j < f->n_blocks; j++)
        for (int k = 0; k < f->blocks[j].n_succ; k++)
            if (!strcmp(f->blocks[j].succ[k], b->label))
                pred = j, preds++;
    return preds == 1 ? pred : -1;
}

/* ---- a fused `&&` ----------------------------------------------------------------- */

/* A `&&` or `||` of two comparisons that clang makes two blocks, each a
 * comparison and a conditional branch (the second block reached from the
 * first alone, the two branches sharing a target), is one predicate on
 * the card: ptxas fuses the second comparison into the first's ISETP
 * chain (ISETP, then ISETP.LE.OR reading its predicate) and branches once
 * (plain division's `tid > j && tid < steps`, SASS 0x7f0-0x840).  So the
 * second block's branch is no instruction, and its comparison no link of
 * its own: the warp waits for the predicate once, at the first. */
static int second_test(const ir_function *f, const ir_block *b)
{
    int pred = sole_predecessor(f, b), calls = 0, compares = 0;
    if (pred < 0 || b->n_succ != 2 || f->blocks[pred].n_succ != 2 || b->label[0] == '\0')
        return 0;
    const ir_block *p = &f->blocks[pred];
    const char *other = strcmp(p->succ[0], b->label) ? p->succ[0] : p->succ[1];
    if (strcmp(b->succ[0], other) != 0 && strcmp(b->succ[1], other) != 0)
        return 0;
    for (int l = b->first; l < b->last; l++) {
        ir_inst in;
        if (!ir_inst_at(f, l, &in))
            continue;
        calls += !strcmp(in.op, "call") || !strcmp(in.op, "load") || !strcmp(in.op, "store");
        compares += !strcmp(in.op, "icmp");
    }
    return calls == 0 && compares == 1;
}

void ir_note_second_tests(ir_function *f)
{
    for (int i = 0; i < f->n_blocks; i++)
        f->blocks[i].second_test = second_test(f, &f->blocks[i]);
}

/* ---- a predicated body ------------------------------------------------------------ */

/* A small body that an `if` skips, ptxas predicates (if-conversion): a
 * block reached from one conditional branch alone, going on to the
 * branch's other target (a triangle), of at most PREDICATED_BODY card
 * instructions, calling nothing but memory accesses.  The card issues its
 * instructions, each under the branch's predicate, in every warp that
 * reaches the branch, whether or not a thread of the warp takes it, and
 * branches not at all (Euclid's executed SASS at s = 1: a coefficient's
 * read, `off >= 0 && pos >= 0 ? exec_gread(...) : 0`, @P1 LD.E at
 * 0x11a0-0x11c0 in all 8 warps though warps 4 to 7 read nothing; the
 * write step's `if (own <= da0) exec_gwrite(...)`, @!P1 LDS ... ST.E at
 * 0x2140-0x2260, 8 warps; thread 0's start_steps, four @!P0 STS at
 * 0x18d0-0x1900, 8 warps; jacobi's three loads, plain multiplication's
 * @!P0 LDG at 0x9e0-0xa20 of MulKer).  So the body's weight goes to the
 * block that branches, less that block's branch, and the body weighs
 * nothing.  Not a body behind a fused `&&` (ir_note_second_tests): plain
 * division's ISETP, ISETP.LE.OR is followed by a BRA (0x7f0-0x840); nor
 * one whose `if` ends the step (`if (c) return;` before it, jacobi's
 * @P1 EXIT): the step's return keeps its branch (STREAM_EXITS). */
enum { PREDICATED_BODY = 16 };

/* Block i, of weights w, is such a body: the block that branches to it,
 * else -1. */
static int predicated_body(const ir_function *f, int i, const uint32_t *w)
{
    const ir_block *b = &f->blocks[i];
    int pred = sole_predecessor(f, b);
    if (pred < 0 || pred == i || b->n_succ != 1 || f->blocks[pred].n_succ != 2 || b->label[0] == '\0' ||
        f->blocks[pred].id < 0 || f->blocks[pred].second_test || w[STREAM_INST] > PREDICATED_BODY ||
        w[STREAM_TRIPS] || w[STREAM_EXITS])
        return -1;
    const ir_block *p = &f->blocks[pred];
    if ((strcmp(p->succ[0], b->succ[0]) != 0 && strcmp(p->succ[1], b->succ[0]) != 0) || ir_returns(f, b->succ[0]))
        return -1; /* not a triangle, or the step's early return (its EXIT, or BSSY and BSYNC) */
    for (int l = b->first; l < b->last; l++) {
        ir_inst in;
        char name[64];
        if (!ir_call_at(f, l, &in, name, sizeof name))
            continue;
        if (strcmp(name, "__sanitizer_cov_trace_pc") != 0 && strcmp(name, "exec_gread") != 0 &&
            strcmp(name, "exec_gwrite") != 0 && strcmp(name, "exec_pread") != 0 && strcmp(name, "exec_pwrite") != 0)
            return -1;
    }
    return pred;
}

void ir_note_predicated_bodies(ir_function *f, weights *t)
{
    for (int i = 0; i < f->n_blocks; i++) {
        int pred = f->blocks[i].id < 0 ? -1 : predicated_body(f, i, t->w[f->blocks[i].id]);
        if (pred < 0)
            continue;
        uint32_t *body = t->w[f->blocks[i].id], *branch = t->w[f->blocks[pred].id];
        for (int k = 0; k < STREAM_FIELDS; k++)
            branch[k] = k == STREAM_READS                               ? branch[k] | body[k]
                        : k == STREAM_ROOT_LEVEL || k == STREAM_UNROLL ? (branch[k] > body[k] ? branch[k] : body[k])
                                                                        : branch[k] + body[k];
        if (branch[STREAM_INST] > 0 && branch[STREAM_PLAIN] > 0) {
            branch[STREAM_INST]--; /* its BRA: the body's predicate is the comparison's */
            branch[STREAM_PLAIN]--;
        }
        memset(body, 0, sizeof t->w[0]);
    }
}
