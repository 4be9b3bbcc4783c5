/*
 * stream_ir_inst.c — what one IR instruction becomes on the card (sm_90,
 * nvcc -O3), in warp instructions, added to its block's weights
 * (ir_instruction_cost).  The rules a student can check against a kernel
 * (validate/notes/instruction-stream.md derives each from nvcc's code for
 * small kernels):
 *  - an integer operation is one instruction on 32 bits, two on 64 (the
 *    SM's integer units are 32 bits wide), a 64-bit multiplication three,
 *    a product of two 32-bit values one (IMAD.WIDE.U32), the high half of
 *    a 64 × 64-bit product seven; a shift by whole words, or a mask of
 *    the low word, none (register names); a division by a number a call
 *    of a routine (20 instructions on 32 bits; on 64, 24: a test that
 *    both hold 32 bits, and the 32-bit division), by a constant a
 *    multiplication (4, 12), a signed 64-bit one by a power of two shifts
 *    and a sign correction (5.5); a remainder of the operands of a
 *    division before it in its block the quotient's product taken from
 *    the dividend (a multiplication and a subtraction; 3 on the 32-bit
 *    path of a 64-bit division by a number);
 *  - IADD3 adds three values: an addition of an addition of its block
 *    (used there alone) costs nothing more; a word shifted left by a
 *    constant is a product, fused into an addition of its block as one;
 *    a 64-bit shift right whose result is only written as words (32 bits)
 *    its low word alone, one instruction; a 32-bit shift left by a
 *    constant a product (LEA); arithmetic that only makes private
 *    accesses' indices is on 32 bits (a shared-memory address is): the
 *    fusions and the narrowing are stream_ir_fused.c's;
 *  - a comparison or a choice (select) as the operation on its type; a
 *    boolean of a comparison (`&&`, `||`, a negation) nothing, its ISETP
 *    combines it (one a comparison; stream_ir_fused.c); a conditional
 *    branch one instruction, a jump to the block that follows none (the
 *    code falls through), to another one;
 *  - reading the thread's indices and the kernel's args costs nothing,
 *    nor does arithmetic on them alone inside a loop, nor the same
 *    arithmetic on them a second time (free values, stream_ir_values.c);
 *  - conversions between widths, phi nodes and address arithmetic with
 *    constant offsets cost nothing (they become register names and
 *    instruction offsets);
 *  - what nvcc's code does besides (from the SASS of the case studies'
 *    kernels): a kernel reads each thread index it uses once, and widens
 *    it once (the block's STREAM_READS bits, stream.h); bid is a 32-bit
 *    register, so that bid·ℓ is two IMADs; an addition of a product of
 *    its block is the product's IMAD; a step's return, in a step followed
 *    by another, is a branch the card brackets with BSSY and BSYNC
 *    (STREAM_EXITS).
 * A call's cost is stream_ir_calls.c's.
 */
#include "stream_ir.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Instructions of an integer operation on `bits` bits: one per 32. */
double ir_width(int bits)
{
    return bits <= 32 ? 1 : bits <= 64 ? 2 : 4;
}

/* ---- integer arithmetic ----------------------------------------------------------- */

/* An integer operation's instructions (see the top): `bits` its width. */
static double integer_cost(ir_function *f, const ir_inst *in, int bits)
{
    const char *op = in->op;
    char a[64], b[64];
    ir_operand(in->rest, 0, a, sizeof a);
    ir_operand(in->rest, 1, b, sizeof b);
    int low_word = bits > 32 && !strcmp(op, "and") && !strcmp(b, bits == 64 ? "4294967295" : "18446744073709551615");
    if (low_word || (bits > 32 && !strcmp(op, "zext"))) {
        if (in->result) /* its high half is zero: a narrow value */
            ir_set_add(&f->narrow, in->result, in->result_len);
        return 0;
    }
    if ((!strcmp(op, "lshr") || !strcmp(op, "shl") || !strcmp(op, "ashr")) && isdigit((unsigned char)b[0]) &&
        atoi(b) % 32 == 0)
        return 0; /* a shift by whole words: which register holds what */
    if (!strcmp(op, "shl") && bits > 32 && bits <= 64 && ir_fits(f, a, 32) && isdigit((unsigned char)b[0]) &&
        atoi(b) < 32) { /* a word times 2^c: fused, as a product, into an addition of its block */
        if (in->result) /* (IMAD.WIDE.U32, and IMAD.MOV for the addend's high word: 2 with the addition) */
            ir_set_add(&f->products, in->result, in->result_len);
        return ir_width(bits);
    }
    if (!strcmp(op, "shl") && bits <= 32 && isdigit((unsigned char)b[0])) { /* x·2^c: LEA, or IMAD, with */
        if (in->result) /* an addition of its block as the addend */
            ir_set_add(&f->products, in->result, in->result_len);
        return 1;
    }
    if (!strcmp(op, "mul")) {
        if (in->result) /* an addition of it in its block may be fused (IMAD) */
            ir_set_add(&f->products, in->result, in->result_len);
        if (bits > 32 && ir_fits(f, a, bits / 2) && ir_fits(f, b, bits / 2))
            return bits <= 64 ? 1 : 7; /* IMAD.WIDE.U32; a 64-bit high product (__umul64hi) */
        if (bits > 32 && bits <= 64 && (ir_fits(f, a, 32) || ir_fits(f, b, 32)))
            return 2; /* IMAD.WIDE.U32, and an IMAD for the other's high word */
        return bits <= 32 ? 1 : bits <= 64 ? 3 : 8;
    }
    if (!strcmp(op, "add") && (ir_set_has(&f->products, a, strlen(a)) || ir_set_has(&f->products, b, strlen(b)))) {
        char *fused = ir_set_has(&f->products, a, strlen(a)) ? a : b;
        for (int i = f->products.n - 1; i >= 0; i--) /* one addition per product */
            if (!strcmp(f->products.names[i], fused))
                f->products.names[i][0] = '\0';
        return 0; /* the product's IMAD adds it */
    }
    if (!strcmp(op, "udiv") || !strcmp(op, "sdiv") || !strcmp(op, "urem") || !strcmp(op, "srem")) {
        int by_constant = isdigit((unsigned char)b[0]) || b[0] == '-';
        unsigned long long d = by_constant ? strtoull(b, NULL, 10) : 0;
        if (!strcmp(op, "sdiv") && bits == 64 && d > 1 && (d & (d - 1)) == 0)
            return 5.5; /* shifts and the sign's correction (validate/stream/sass-costs.sh) */
        /* by a number on 64 bits: both tested for 32 bits (LOP3, ISETP,
         * BSSY, BRA, BSYNC), then the 32-bit division and the quotient's
         * high word zeroed, 19 (the usual path; the 64-bit routine a call
         * out of the way: user-stencil's SASS, 0x320-0x5d0) */
        return by_constant ? (bits <= 32 ? 4 : 12) : bits <= 32 ? STREAM_DIVIDE32_INST : STREAM_DIVIDE_INST;
    }
    return ir_width(bits); /* add, sub, and, or, xor, shifts, icmp, select */
}

/* Division or remainder `in`'s key in f->divisions: its signedness and
 * operands (a remainder's the same as its division's). */
static void division_key(const ir_inst *in, char *key, size_t size)
{
    char a[64], b[64];
    ir_operand(in->rest, 0, a, sizeof a);
    ir_operand(in->rest, 1, b, sizeof b);
    snprintf(key, size, "%c %s %s", in->op[0], a, b);
}

/* Division or remainder `in` of block `block`: for a division, noted
 * with its block and its result (0); for a remainder, 1 when a division
 * of the same operands came before it in the block (nvcc, whose target
 * has no remainder instruction, takes the quotient's product from the
 * dividend). */
static int remainder_of_division(ir_function *f, const ir_inst *in, int block)
{
    char key[160], here[80], quotient[64];
    division_key(in, key, sizeof key);
    if (!strcmp(in->op + 1, "div")) {
        ir_result_name(in, quotient, sizeof quotient);
        snprintf(here, sizeof here, "%d %s", block, quotient);
        ir_entry_add(&f->divisions, key, here);
        return 0;
    }
    return ir_quotient_of(f, in, block, quotient, sizeof quotient);
}

/* Remainder `in` of block `block` comes after a division of the same
 * operands in the block (remainder_of_division): 1, that division's
 * result (the quotient `v − q·b` waits for) into name; else 0 and "". */
int ir_quotient_of(const ir_function *f, const ir_inst *in, int block, char *name, size_t size)
{
    char key[160];
    name[0] = '\0';
    if (strcmp(in->op, "srem") != 0 && strcmp(in->op, "urem") != 0)
        return 0;
    division_key(in, key, sizeof key);
    const char *where = ir_entry_value(&f->divisions, key);
    if (!where || atoi(where) != block)
        return 0;
    const char *result = strchr(where, ' ');
    snprintf(name, size, "%s", result ? result + 1 : "");
    return 1;
}

/* A remainder after a division of the same operands (remainder_of_division):
 * the quotient's product taken from the dividend, a multiplication and a
 * subtraction: 2 on 32 bits; on 64, by a constant 5, by a number 3 (the
 * division's usual path is on 32 bits: IMAD.MOV, IMAD, and the high word
 * zeroed; user-stencil's SASS, 0x490, 0x5b0, 0x5c0). */
static double remainder_cost(const ir_inst *in, int bits)
{
    char b[64];
    ir_operand(in->rest, 1, b, sizeof b);
    return bits <= 32 ? 2 : b[0] == '%' ? 3 : 5;
}

/* Addition `in` of a constant to a value (or subtraction of one, or an
 * `or` of low bits clang knows clear, its form of such an addition):
 * noted as an offset of it (global_access, stream_ir_calls.c), with what
 * it costs. */
static void note_offset(ir_function *f, const ir_inst *in, double cost)
{
    char a[64], b[64], value[160], name[64];
    ir_operand(in->rest, 0, a, sizeof a);
    ir_operand(in->rest, 1, b, sizeof b);
    if (!in->result || (strcmp(in->op, "add") != 0 && strcmp(in->op, "sub") != 0 && strcmp(in->op, "or") != 0) ||
        a[0] != '%' ||
        !(isdigit((unsigned char)b[0]) || b[0] == '-'))
        return;
    ir_result_name(in, name, sizeof name);
    snprintf(value, sizeof value, "%s %g", a, cost);
    ir_entry_add(&f->offsets, name, value);
}

/* ---- one instruction, by its class ------------------------------------------------ */

/* What ir_instruction_cost knows of an instruction as it weighs it. */
typedef struct inst_weight {
    double cost; /* its card instructions */
    int bits;    /* its operation's width (a comparison's: its operands') */
    int is_free; /* the result is a register or constant on the card */
    int once;    /* arithmetic on free values only: done once, before any loop */
} inst_weight;

static const char *const CONVERSIONS[] = {"phi",      "bitcast", "trunc",         "zext",         "sext",
                                          "ptrtoint", "inttoptr", "freeze", "addrspacecast", "getelementptr",
                                          NULL};
static const char *const MEMORY_WRITES[] = {"store", "atomicrmw", "cmpxchg", "fence", NULL};
static const char *const INTEGER_OPS[] = {"add", "sub",  "and",  "or",   "xor",  "shl",  "lshr",
                                          "ashr", "mul", "udiv", "sdiv", "urem", "srem", NULL};
static const char *const DIVISIONS[] = {"udiv", "sdiv", "urem", "srem", NULL};

static int one_of(const char *op, const char *const *ops)
{
    for (; *ops; ops++)
        if (!strcmp(op, *ops))
            return 1;
    return 0;
}

/* Division or remainder `in`, weighed `cost` instructions, is a division
 * by a runtime number, whole, of the kind a row measures: 64 for signed
 * long operands (sdiv, srem: STREAM_DIVIDE_INST; the row
 * sdiv64_fits32_latency), 32 for unsigned 32-bit ones (udiv, urem:
 * STREAM_DIVIDE32_INST; udiv32_latency); 0 for anything else (an
 * operation by a constant, a remainder after its division, or one
 * computed once before, which cost less; a signedness no row measured,
 * whose plain links stand). */
int ir_division_by_a_number(const ir_inst *in, double cost)
{
    char b[64];
    if (!one_of(in->op, DIVISIONS))
        return 0;
    ir_operand(in->rest, 1, b, sizeof b);
    if (b[0] != '%')
        return 0;
    int bits = ir_bits_at(in->rest), is_signed = in->op[0] == 's';
    if (bits <= 32)
        return !is_signed && cost >= STREAM_DIVIDE32_INST ? 32 : 0;
    return is_signed && cost >= STREAM_DIVIDE_INST ? 64 : 0;
}

/* A getelementptr whose indices are all constants: no value name after
 * its base's. */
static int constant_offsets(const ir_inst *in)
{
    int names = 0;
    for (ir_operand_names n = ir_operand_names_of(in); ir_next_operand_name(&n);)
        names++;
    return names <= 1;
}

/* A conversion, a phi or an address (CONVERSIONS): nothing, but a
 * variable address (64 bits); what it tells of its value noted. */
static void conversion_cost(ir_function *f, const ir_inst *in, double *w, inst_weight *c)
{
    const char *op = in->op;
    int constant = strcmp(op, "getelementptr") || constant_offsets(in);
    c->once = c->is_free = ir_operands_free(f, in);
    if (!strcmp(op, "zext") && in->result) {
        const char *to = strstr(in->rest, " to ");
        integer_cost(f, in, to ? ir_bits_at(to + 3) : 32); /* notes a narrow value */
    }
    c->cost = constant ? 0 : 2; /* conversions fold; a variable address is 64 bits */
    if (!strcmp(op, "sext"))
        ir_note_thread_widened(f, in, w);
    if (!strcmp(op, "getelementptr") && constant)
        ir_note_thread_field(f, in);
    char text[1024], name[64];
    if (c->is_free && in->result && (!strcmp(op, "getelementptr") || !strcmp(op, "bitcast")) &&
        ir_same_value(f, in, text, sizeof text)) { /* an arg's address: reloads of it read the same */
        ir_result_name(in, name, sizeof name);
        ir_entry_add(&f->same_as, name, text);
    }
    size_t len;
    const char *base = ir_first_operand(in, &len);
    if (in->result && base && strcmp(op, "phi") != 0 && constant &&
        ir_set_has(&f->free_ptrs, base, len)) /* an address inside `t` or the args */
        ir_set_add(&f->free_ptrs, in->result, in->result_len);
}

/* A load: a free value (inside `t` or the args) nothing, else one. */
static void load_cost(ir_function *f, const ir_inst *in, double *w, inst_weight *c)
{
    size_t len;
    const char *ptr = strchr(in->rest, ',') ? ir_first_operand(in, &len) : NULL;
    c->is_free = ptr && ir_set_has(&f->free_ptrs, ptr, len);
    c->cost = c->is_free ? 0 : 1;
    if (c->is_free)
        ir_note_thread_read(f, in, ptr, len, w);
}

/* A comparison or a choice: the operation on its operands' type. */
static void comparison_cost(const ir_function *f, const ir_inst *in, inst_weight *c)
{
    char pred[16];
    const char *comma = strchr(in->rest, ',');
    c->bits = !strcmp(in->op, "icmp") ? ir_bits_at(ir_word_at(in->rest, pred, sizeof pred))
              : comma                 ? ir_bits_at(comma + 1)
                                      : 32;
    c->cost = ir_width(c->bits);
    c->once = c->is_free = ir_operands_free(f, in);
}

/* Integer arithmetic (INTEGER_OPS): integer_cost, or a remainder's after
 * its division, on 32 bits where it only makes private indices. */
static void integer_operation_cost(ir_function *f, const ir_block *b, const ir_inst *in, inst_weight *c)
{
    const char *op = in->op;
    int rem = one_of(op, DIVISIONS) && remainder_of_division(f, in, (int)(b - f->blocks));
    if (c->bits > 32 && c->bits <= 64 && !rem && strcmp(op, "lshr") != 0 && strcmp(op, "ashr") != 0 &&
        strstr(op, "div") == NULL && strstr(op, "rem") == NULL && ir_makes_private_index(f, in))
        c->bits = 32; /* a shared-memory address's arithmetic */
    c->cost = rem ? remainder_cost(in, c->bits) : integer_cost(f, in, c->bits);
    c->once = c->is_free = ir_operands_free(f, in);
    note_offset(f, in, c->is_free && b->in_loop ? 0 : c->cost);
}

/* A branch: a jump unless it falls through to `next`; a conditional one
 * one instruction (none for a fused second test), its branches to a
 * block that only returns counted in w[STREAM_EXITS]. */
static double branch_cost(const ir_function *f, const ir_block *b, const ir_inst *in, const char *next, double *w)
{
    char first[16];
    ir_word_at(in->rest, first, sizeof first);
    if (!strcmp(first, "label")) { /* unconditional: a jump unless it falls through */
        const char *target = strchr(in->rest, '%');
        size_t len = target ? ir_name_length(target) : 0;
        return !(next && len > 1 && strlen(next) == len - 1 && memcmp(next, target + 1, len - 1) == 0);
    }
    for (int k = 0; k < b->n_succ; k++)
        if (ir_returns(f, b->succ[k]))
            w[STREAM_EXITS] += 1;
    return !b->second_test;
}

/* Whatever its class: a free value computed before costs nothing, nor
 * free arithmetic in a loop (done before it); a boolean of a comparison,
 * an addition's third operand, a shift whose low word alone is stored are
 * fused (stream_ir_fused.c). */
static void computed_once_or_fused(ir_function *f, const ir_block *b, const ir_inst *in, inst_weight *c)
{
    const char *op = in->op;
    if (c->is_free && in->result && strcmp(op, "phi") != 0 && strcmp(op, "getelementptr") != 0 &&
        strcmp(op, "bitcast") != 0 && ir_done_before(f, strcmp(op, "load") ? &f->computed : NULL, in,
                                                     (int)(b - f->blocks)))
        c->cost = 0; /* (a load of an arg costs nothing anyway) */
    if (c->is_free && in->result)
        ir_set_add(&f->free_values, in->result, in->result_len);
    if (c->once && b->in_loop)
        c->cost = 0;
    if (in->result && !strcmp(op, "icmp"))
        ir_set_add(&f->compares, in->result, in->result_len);
    if (c->bits == 1 && ir_combines_compare(f, in))
        c->cost = 0;
    if (!strcmp(op, "add") && c->cost > 0)
        c->cost = ir_third_operand(f, in, c->cost);
    if ((!strcmp(op, "lshr") || !strcmp(op, "ashr")) && c->bits == 64 && c->cost > 1 && ir_stores_low_word(f, in))
        c->cost = 1;
}

/* What block b's instruction `in` costs a warp, into w (STREAM_* fields);
 * next: the label of the block after b in the code. */
void ir_instruction_cost(ir_function *f, const ir_block *b, const ir_inst *in, const char *next, double *w)
{
    const char *op = in->op;
    inst_weight c = {.bits = ir_bits_at(in->rest)};
    if (one_of(op, CONVERSIONS))
        conversion_cost(f, in, w, &c);
    else if (!strcmp(op, "load"))
        load_cost(f, in, w, &c);
    else if (one_of(op, MEMORY_WRITES))
        c.cost = 1;
    else if (!strcmp(op, "icmp") || !strcmp(op, "select"))
        comparison_cost(f, in, &c);
    else if (one_of(op, INTEGER_OPS))
        integer_operation_cost(f, b, in, &c);
    else if (!strcmp(op, "fdiv") || !strcmp(op, "frem"))
        c.cost = 10;
    else if (op[0] == 'f' || !strcmp(op, "uitofp") || !strcmp(op, "sitofp"))
        c.cost = 1; /* fadd, fmul, fcmp, fptosi, ... */
    else if (!strcmp(op, "br"))
        c.cost = branch_cost(f, b, in, next, w);
    else if (!strcmp(op, "switch"))
        c.cost = 1 + b->n_succ;
    else if (!strcmp(op, "call") || !strcmp(op, "invoke"))
        c.cost = ir_call_cost(f, in, (int)(b - f->blocks), w, &c.once, &c.is_free);
    /* ret, unreachable, alloca, extractvalue, ...: nothing on the card */
    computed_once_or_fused(f, b, in, &c);
    if (in->result && c.cost > 0 && one_of(op, INTEGER_OPS)) { /* an index's arithmetic an address may fold */
        char name[64], cost[32];
        ir_result_name(in, name, sizeof name);
        snprintf(cost, sizeof cost, "%g", c.cost);
        ir_entry_add(&f->charged, name, cost);
    }
    w[STREAM_INST] += c.cost;
    w[STREAM_PLAIN] += c.cost;
}
