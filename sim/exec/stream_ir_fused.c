/*
 * stream_ir_fused.c — what ptxas fuses or narrows, so that an IR
 * instruction costs less than its operation alone (ir_instruction_cost
 * asks):
 *  - a boolean of a comparison (`&&`, `||`, a negation): its ISETP
 *    combines it, one a comparison (ir_combines_compare);
 *  - IADD3 adds three values: an addition of an addition of its block
 *    (used there alone) costs nothing more (ir_third_operand);
 *  - a 64-bit shift right whose result is only written as words (32 bits):
 *    its low word alone, one instruction (ir_stores_low_word);
 *  - arithmetic that only makes private accesses' indices is on 32 bits,
 *    as a shared-memory address is (ir_makes_private_index).
 * (A product fused into an addition, IMAD, is integer_cost's, in
 * stream_ir_inst.c.)
 */
#include "stream_ir.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- what the card fuses ---------------------------------------------------------- */

/* Boolean `in` (an `and`, `or` or `xor` of predicates, or clang's select
 * of a predicate and a constant true or false, its `&&` and `||`) of a
 * comparison: the comparison's ISETP combines it with its predicate
 * operand (ISETP.NE.OR, ISETP.EQ.OR.EX: user-stencil's and user-jacobi's
 * SASS), nothing more; each comparison combines one. */
int ir_combines_compare(const ir_function *f, const ir_inst *in)
{
    char a[64] = "", b[64] = "";
    if (!strcmp(in->op, "and") || !strcmp(in->op, "or") || !strcmp(in->op, "xor")) {
        ir_operand(in->rest, 0, a, sizeof a);
        ir_operand(in->rest, 1, b, sizeof b);
    } else if (!strcmp(in->op, "select")) {
        char t[64], e[64]; /* "i1 %c, i1 T, i1 E" */
        if (sscanf(in->rest, " i1 %63[^,], i1 %63[^,], i1 %63[^,\n]", a, t, e) != 3)
            return 0;
        if (!strcmp(t, "true") || !strcmp(t, "false"))
            snprintf(b, sizeof b, "%s", e);
        else if (!strcmp(e, "true") || !strcmp(e, "false"))
            snprintf(b, sizeof b, "%s", t);
        else
            return 0;
    } else {
        return 0;
    }
    for (int i = f->compares.n - 1; i >= 0; i--) /* one combination per comparison */
        if (!strcmp(f->compares.names[i], b) || !strcmp(f->compares.names[i], a)) {
            f->compares.names[i][0] = '\0';
            return 1;
        }
    return 0;
}

/* Addition `in`, charged `cost`, of two values: IADD3 adds three, so an
 * addition of which one operand is another addition of the block charged
 * in full (f->sums), and used there alone, costs nothing more (a + b + c:
 * IADD3 and IADD3.X on 64 bits; user-stencil's SASS, 0x7e0).  0, or cost
 * (the addition then noted in f->sums). */
double ir_third_operand(ir_function *f, const ir_inst *in, double cost)
{
    char a[64], b[64];
    ir_operand(in->rest, 0, a, sizeof a);
    ir_operand(in->rest, 1, b, sizeof b);
    if (a[0] != '%' || b[0] != '%' || !in->result)
        return cost;
    for (int k = 0; k < 2; k++) {
        const char *v = k ? b : a;
        for (int i = f->sums.n - 1; i >= 0; i--)
            if (!strcmp(f->sums.names[i], v) && ir_uses(f, v) == 1) {
                f->sums.names[i][0] = '\0'; /* one third operand per addition */
                return 0;
            }
    }
    ir_set_add(&f->sums, in->result, in->result_len);
    return cost;
}

/* A test of one use of a value `name`: the instruction `use` that uses
 * it, `after` the text after its name there; `depth` as the caller's. */
typedef int use_test(const ir_function *f, const ir_inst *use, const char *after, const char *name, int depth);

/* Value `name` is used, and each of its uses passes `test`. */
static int only_used_so(const ir_function *f, const char *name, use_test *test, int depth)
{
    size_t len = strlen(name);
    int uses = 0;
    for (int l = 0; l < f->n_lines; l++)
        for (const char *at = ir_next_use(ir_operands_of(f->lines[l]), name, len); at;
             at = ir_next_use(at + len, name, len)) {
            ir_inst use;
            if (ir_parse_inst(f->lines[l], &use) != 0 || !test(f, &use, at + len, name, depth))
                return 0;
            uses++;
        }
    return uses > 0;
}

/* The use is the word an exec_gwrite or exec_pwrite stores (32 bits, the
 * call's last argument). */
static int stored_as_word(const ir_function *f, const ir_inst *use, const char *after, const char *name, int depth)
{
    (void)f, (void)name, (void)depth;
    char called[64] = "";
    if (!strcmp(use->op, "call"))
        ir_callee(use->rest, called, sizeof called);
    while (*after == ' ')
        after++;
    return (!strcmp(called, "exec_gwrite") || !strcmp(called, "exec_pwrite")) && *after == ')';
}

/* Shift `in` (right, 64 bits, by a constant below 32) is used only as
 * words written: its low word alone is computed (SHF.R.U64; user-stencil's
 * and user-jacobi's SASS). */
int ir_stores_low_word(const ir_function *f, const ir_inst *in)
{
    char name[64], b[64];
    ir_operand(in->rest, 1, b, sizeof b);
    if (!in->result || !isdigit((unsigned char)b[0]) || atoi(b) >= 32)
        return 0;
    ir_result_name(in, name, sizeof name);
    return only_used_so(f, name, stored_as_word, 0);
}

/* Call `use` of exec_pread or exec_pwrite has `name` as its index (the
 * argument after the thread), and not as the word it stores. */
static int private_index_of(const ir_function *f, const ir_inst *use, const char *name)
{
    char called[64], arg[64], what[1024];
    ir_callee(use->rest, called, sizeof called);
    ir_call_argument(f, use, 1, arg, what, sizeof what);
    if ((strcmp(called, "exec_pread") != 0 && strcmp(called, "exec_pwrite") != 0) || strcmp(arg, name) != 0)
        return 0;
    if (!strcmp(called, "exec_pwrite")) { /* the stored word is its last argument: not the index */
        ir_call_argument(f, use, 2, arg, what, sizeof what);
        if (!strcmp(arg, name))
            return 0;
    }
    return 1;
}

/* The use is the index of a private access (the argument after the
 * thread of exec_pread and exec_pwrite) or an operand of integer
 * arithmetic whose result is used so (to `depth` levels).  A shared-memory
 * address is 32 bits on the card, so such arithmetic is done on 32 bits:
 * plain division's `s + (tid − j)` is IADD3 R11, R0, −UR4, R11, its
 * `2s + j` one ULEA, and the update's window slot IMAD.IADD (its SASS,
 * 0x820, 0x590, 0x1580). */
static int private_index_use(const ir_function *f, const ir_inst *use, const char *after, const char *name, int depth)
{
    (void)after;
    char result[64];
    if (!strcmp(use->op, "call"))
        return private_index_of(f, use, name);
    int arithmetic = !strcmp(use->op, "add") || !strcmp(use->op, "sub") || !strcmp(use->op, "shl") ||
                     !strcmp(use->op, "mul") || !strcmp(use->op, "or") || !strcmp(use->op, "and") ||
                     !strcmp(use->op, "xor");
    if (!arithmetic || !use->result || depth <= 0)
        return 0;
    ir_result_name(use, result, sizeof result);
    return only_used_so(f, result, private_index_use, depth - 1);
}

/* Integer arithmetic `in` (64 bits) only makes private accesses' indices
 * (private_index_use, to 4 levels): 32-bit arithmetic on the card. */
int ir_makes_private_index(const ir_function *f, const ir_inst *in)
{
    char name[64];
    if (!in->result)
        return 0;
    ir_result_name(in, name, sizeof name);
    return only_used_so(f, name, private_index_use, 4);
}
