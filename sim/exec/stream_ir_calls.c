/*
 * stream_ir_calls.c — what a call costs a warp on the card: the table of
 * the counted exec_* functions (CALL_COSTS, stream_call_cost) and the
 * rules around it, from nvcc's code for the case studies' kernels
 * (validate/notes/instruction-stream.md):
 *  - a call of exec_* costs what its CUDA twin in mcm_kernel_cuda.cuh does
 *    on its usual path (CALL_COSTS); a Z/pZ addition or subtraction of two
 *    values known below p (results of Z/pZ calls, constants below p, and
 *    phis and selects of them) skips its range checks, as the CUDA twin
 *    does once the compiler knows its operands below p (MCM_BELOW_P_),
 *    and costs the ":results" row; one of whose operands alone is known
 *    below p checks the other's range only, the ":one_result" row (plain
 *    division's `lead − q·b`);
 *  - the memory descriptor and each array's base are uniform registers
 *    loaded once a kernel; an access to the address of one before it in
 *    its block, or at a constant offset from it or from the array's base,
 *    is its LDG or STG alone (global_access); its index's arithmetic of
 *    the block that makes it alone costs nothing, the offset folded into
 *    the address (LDG [R + 8k]): an index's constant found through
 *    additions, `or`s of clang's runtime unrolling (copy k of a pass: the
 *    counter `or` k), shifts, products and widenings (affine_index; the
 *    unrolled pass of tests/user/spread.c 97 instructions a 4 passes
 *    before, 77 with it, ptxas's cubin 76-78; Euclid's control words, its
 *    SASS's [R8.64+0x4] ... [R8.64+0x10]);
 *  - a Z/pZ product by an arg of 64 bits tests its high word (zp_mul_check);
 *  - a Z/pZ operation of the same operands as one before it in its block
 *    is computed once (same_zp_call);
 *  - an intrinsic one instruction (min, max, abs and funnel shifts as the
 *    operation on their type), any other call a call and its return.
 */
#include "stream_ir.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The CUDA twin of each exec_* function (cuda_ref/common/mcm_kernel_cuda.cuh)
 * on sm_90: the instructions a warp executes for one call, from nvcc's code
 * for kernels of 1, 2 and 4 calls on words read from global memory (the
 * Z/pZ ones: range checks, the operation; what ptxas predicates is
 * executed, what it branches around is not), their growth per call in the
 * kernel of 4 (validate/stream/sass-costs.sh prints them;
 * validate/notes/instruction-stream.md, "The rules"). */
typedef struct call_cost {
    const char *name;
    double inst;
    int field; /* STREAM_* class it counts in, or STREAM_INST for none */
} call_cost;

static const call_cost CALL_COSTS[] = {
    {"exec_gread", 3, STREAM_GLOBAL},    /* LEA, LEA.HI.X (64-bit address), LDG */
    {"exec_gwrite", 3, STREAM_GLOBAL},   /* LEA, LEA.HI.X, STG */
    {"exec_pread", 2, STREAM_PRIVATE},   /* LEA (32-bit shared address), LDS */
    {"exec_pwrite", 2, STREAM_PRIVATE},  /* LEA, STS */
    {"exec_zp_mul", 9, STREAM_MULMOD},   /* a range check, Barrett on 32-bit words, a subtraction */
    {"exec_zp_add", 10, STREAM_ADDMOD},  /* range checks (4), a 32-bit sum, a subtraction; the slow */
    {"exec_zp_sub", 10, STREAM_ADDMOD},  /* path's branch, BSSY and BSYNC around it */
    {"exec_zp_add:one_result", 8.5, STREAM_ADDMOD}, /* one operand below p: the other's check alone (2) */
    {"exec_zp_sub:one_result", 8.5, STREAM_ADDMOD},
    {"exec_zp_add:results", 3, STREAM_ADDMOD}, /* both operands below p: a 32-bit sum, a subtraction */
    {"exec_zp_sub:results", 3, STREAM_ADDMOD},
    {"exec_zp_pow", 9, STREAM_INST},     /* e = 0's test, a's range check, x = 1, the loop's BSSY/BSYNC; */
    {"exec_zp_inv", 9, STREAM_INST},     /* its loop counted as it runs (stream_extra, the rows below) */
    {"exec_ops", 0, STREAM_INST},        /* counting only: nothing on the card */
    /* not calls of the C code, but what the CUDA build adds around it */
    /* square and multiply (the SASS of Cooley-Tukey's butterfly, per block of
     * its loop): the bit's test and e > 1's, each an `if` (BSSY, BSYNC), the
     * 64-bit shift and test, the branch back; the squaring, a's range
     * check (a word of 64 bits: the test is not removed) and the product;
     * the multiplication, the check of x | a and the product */
    {"exec_zp_pow:iteration", 16, STREAM_INST},
    {"exec_zp_pow:square", 16, STREAM_INST},
    {"exec_zp_pow:multiply", 17, STREAM_INST},
    /* a loop nvcc unrolls, its stride not a constant: its trip count before it,
     * (bound − 1 − start) / stride + 1 (the division by a variable, 20; the
     * numerator 2; the +1, `& 3` with its test, the test against 3, BSSY, the
     * branch past the remainder loop; after that loop BSYNC and the branch
     * past the unrolled one: Euclid's SASS, 0x490-0x620 and 0x8f0-0x900) */
    {"loop:trip_count", 28, STREAM_INST},
    {"kernel:entry", 2, STREAM_INST},    /* per warp: the kernel's entry and EXIT */
    {"loop:step_latch", 5, STREAM_INST}, /* per warp and pass of a looped kernel's loop over its steps:
                                          * UIADD3, ULDC, UISETP, PLOP3, BRA (stream_ir_loops.c) */
    {"__syncthreads", 1, STREAM_INST},   /* per warp: BAR.SYNC between two steps */
};
#define N_CALL_COSTS (int)(sizeof CALL_COSTS / sizeof CALL_COSTS[0])

static const call_cost *call_cost_row(const char *name)
{
    for (int i = 0; i < N_CALL_COSTS; i++)
        if (strcmp(CALL_COSTS[i].name, name) == 0)
            return &CALL_COSTS[i];
    return NULL;
}

double stream_call_cost(const char *name)
{
    const call_cost *row = call_cost_row(name);
    return row ? row->inst : -1;
}

/* Z/pZ call `in` of block `block` repeats one of the same operands before
 * it, in the entry block or in this one: 1, and its result is that one's
 * value.  On the card the Z/pZ operations are inlined arithmetic, and the
 * compiler computes the same expression once (an unrolled loop's x_i·w^e
 * for the pairs (i, e) that recur); in the host build each is a call. */
static int same_zp_call(ir_function *f, const ir_inst *in, int block)
{
    return ir_done_before(f, &f->zp_calls, in, block);
}

/* out = the texts of parts[] one after another; 0 if they do not fit. */
static int joined(char *out, size_t size, const char *const *parts)
{
    size_t n = 0;
    for (; *parts; parts++) {
        size_t len = strlen(*parts);
        if (n + len >= size)
            return 0;
        memcpy(out + n, *parts, len);
        n += len;
    }
    out[n] = '\0';
    return 1;
}

/* A value as a short token: `#` and a hash of what it computes, where it
 * is the same in every pass (a reload of the thread's index is its first
 * load), else its name. */
static void value_token(const ir_function *f, const char *v, char *out, size_t size)
{
    char text[512];
    if (!ir_same_every_pass(f, v, text, sizeof text)) {
        snprintf(out, size, "%s", v);
        return;
    }
    uint32_t h = 2166136261u;
    for (const char *c = text; *c; c++)
        h = (h ^ (unsigned char)*c) * 16777619u;
    snprintf(out, size, "#%08x", (unsigned)h);
}

/* An index as nvcc's addresses see it: `base` + a constant, base the
 * text of the rest (its constants left out), its values the same in every
 * pass taken as what they compute (a reload of the thread's index is its
 * first load); an `or` of a constant as an addition (clang writes one so
 * where it knows the low bits clear: an unrolled pass's counter + k), a
 * shift or product by a constant distributed over the constant.  Into
 * *folded: what the operations of block `block` that make this index
 * alone were charged (the `charged` entries): an access at a constant
 * offset from one before it folds them all into its LDG's offset.
 * depth bounds the search. */
static void affine_index(const ir_function *f, const char *v, int block, int depth, char *base, size_t size,
                         double *folded)
{
    char a[64], b[64], ba[512], bb[512];
    if (isdigit((unsigned char)v[0]) || v[0] == '-') {
        base[0] = '\0';
        return;
    }
    int l = depth > 0 && v[0] == '%' ? ir_defining_line(f, v, strlen(v)) : -1;
    ir_inst in;
    if (l < 0 || ir_parse_inst(f->lines[l], &in) != 0 || !in.result) {
        value_token(f, v, base, size);
        return;
    }
    const char *charged = ir_entry_value(&f->charged, v);
    int mine = ir_block_of_line(f, l) == block && ir_uses(f, v) == 1;
    ir_operand(in.rest, 0, a, sizeof a);
    ir_operand(in.rest, 1, b, sizeof b);
    int shift = !strcmp(in.op, "shl"), product = !strcmp(in.op, "mul");
    if (!strcmp(in.op, "sext") || !strcmp(in.op, "zext") || !strcmp(in.op, "trunc")) {
        affine_index(f, a, block, depth - 1, base, size, folded);
        return;
    }
    int constant_b = isdigit((unsigned char)b[0]) || b[0] == '-';
    if (!strcmp(in.op, "add") || (!strcmp(in.op, "or") && constant_b) ||
        ((shift || product) && constant_b && b[0] != '-')) {
        double fa = 0, fb = 0;
        int fits;
        affine_index(f, a, block, depth - 1, ba, sizeof ba, &fa);
        if (shift || product) {
            fits = joined(base, size, (const char *const[]){in.op, "(", ba, ",", b, ")", NULL});
        } else {
            affine_index(f, b, block, depth - 1, bb, sizeof bb, &fb);
            fits = joined(base, size, (const char *const[]){ba, ba[0] && bb[0] ? "+" : "", bb, NULL});
        }
        *folded += mine ? fa + fb + (charged ? atof(charged) : 0) : 0;
        if (!fits || strchr(ba, '?') || (!shift && !product && strchr(bb, '?')))
            snprintf(base, size, "?"); /* too long to tell: no base */
        return;
    }
    value_token(f, v, base, size);
}

/* A global access `in` of block `block`, beyond the table's 3: the
 * kernel's memory descriptor and the array's base, each a uniform
 * register loaded once a kernel (bits 8 and 9 + a hash of the array in
 * w[STREAM_READS]).  An access to the address of one before it in the
 * block reuses its address (the LDG or STG alone: −2), and so does one at
 * a constant offset from it (LDG [R + 4c]: −2, and the index's addition,
 * which the address folds), the offset found through the index's
 * arithmetic (affine_index: −2, and what that arithmetic was charged). */
static double global_access(ir_function *f, const ir_inst *in, int block, double *w)
{
    char array[512], index[512], base[512], key[1100], here[16], name[64], index_name[64];
    ir_call_argument(f, in, 1, name, array, sizeof array);
    ir_call_argument(f, in, 2, name, index, sizeof index);
    snprintf(index_name, sizeof index_name, "%s", name);
    uint32_t h = 2166136261u;
    for (const char *c = array; *c; c++)
        h = (h ^ (unsigned char)*c) * 16777619u;
    w[STREAM_READS] = (double)((uint32_t)w[STREAM_READS] | 1u << 8 | 1u << (9 + h % 23));
    if (isdigit((unsigned char)name[0]))
        return -2; /* a constant index: the base and an offset, [R + 4c] */
    const char *offset = ir_entry_value(&f->offsets, name);
    double folded = 0;
    snprintf(base, sizeof base, "%s", index);
    if (offset) { /* "%5 COST": the base, as what it computes */
        sscanf(offset, "%63s %lf", name, &folded);
        const char *same = ir_entry_value(&f->same_as, name);
        snprintf(base, sizeof base, "%s", same ? same : name);
    }
    snprintf(here, sizeof here, "%d", block);
    snprintf(key, sizeof key, "%s %s", array, index);
    const char *where = ir_entry_value(&f->accesses, key);
    if (where && atoi(where) == block)
        return -2;
    ir_entry_add(&f->accesses, key, here);
    snprintf(key, sizeof key, "%s @%s", array, base); /* any access near `base` */
    where = ir_entry_value(&f->accesses, key);
    if (where && atoi(where) == block)
        return -2 - folded;
    ir_entry_add(&f->accesses, key, here);
    folded = 0;
    affine_index(f, index_name, block, 12, base, sizeof base, &folded);
    if (!base[0] || strchr(base, '?'))
        return 0;
    snprintf(key, sizeof key, "%s ~%s", array, base); /* any access at a constant offset from `base` */
    where = ir_entry_value(&f->accesses, key);
    if (where && atoi(where) == block)
        return -2 - folded;
    ir_entry_add(&f->accesses, key, here);
    return 0;
}

/* A Z/pZ multiplication's range check, beyond the table's 9 (whose
 * factors were words read: 32 bits, nothing to check): a factor that is
 * an arg of 64 bits (a word the launch passes) has its high word tested
 * and a branch to the slow path, uniform (ISETP, BRA, and the arg into a
 * register: 4, fft-mult's scale).  Any other factor is taken as known to
 * hold 32 bits, as nvcc knows of words read and results once it has
 * inlined the helpers that pass them. */
static double zp_mul_check(const ir_function *f, const ir_inst *in)
{
    for (int k = 1; k <= 2; k++) {
        char name[64], what[1024];
        ir_call_argument(f, in, k, name, what, sizeof what);
        if (name[0] == '%' && !strncmp(what, "load ", 5) && !ir_entry_value(&f->field_values, name) &&
            !ir_narrow_value(f, name))
            return 4; /* an arg, read as it is */
    }
    return 0;
}

/* Call `in` of block `block` of the table's function `name` (its row):
 * its instructions and its class into w.  A global access's and a Z/pZ
 * product's rules above add to the row; a read's word is 32 bits. */
static void counted_call(ir_function *f, const ir_inst *in, int block, const char *name, const call_cost *row,
                         double *w)
{
    int field = row->field;
    w[STREAM_INST] += row->inst;
    if (field != STREAM_MULMOD && field != STREAM_ADDMOD && field != STREAM_PRIVATE)
        w[STREAM_PLAIN] += row->inst;
    if (field != STREAM_INST)
        w[field] += 1;
    double more = field == STREAM_GLOBAL ? global_access(f, in, block, w)
                  : !strcmp(name, "exec_zp_mul") ? zp_mul_check(f, in) : 0;
    w[STREAM_INST] += more;
    w[STREAM_PLAIN] += more;
    if (in->result && (field == STREAM_GLOBAL || field == STREAM_PRIVATE)) /* 32-bit words */
        ir_set_add(&f->narrow, in->result, in->result_len);
}

/* A call's instructions into w; 0 if it is one of the counted exec_*
 * functions (w holds it all), else its own cost for the caller (*once and
 * *is_free as ir_instruction_cost's: an intrinsic of free values). */
double ir_call_cost(ir_function *f, const ir_inst *in, int block, double *w, int *once, int *is_free)
{
    char name[128];
    ir_callee(in->rest, name, sizeof name);
    if (!strncmp(name, "exec_zp_", 8) && same_zp_call(f, in, block))
        return 0;
    if (!strcmp(name, "exec_zp_add") || !strcmp(name, "exec_zp_sub"))
        strcat(name, (const char *[]){"", ":one_result", ":results"}[ir_operands_below_p(f, in)]);
    const call_cost *row = call_cost_row(name);
    if (row) {
        counted_call(f, in, block, name, row, w);
        return 0;
    }
    if (!strncmp(name, "llvm.dbg.", 9) || !strncmp(name, "llvm.lifetime.", 14) || !strcmp(name, "llvm.assume") ||
        !strncmp(name, "llvm.experimental.", 18))
        return 0;
    if (!strncmp(name, "llvm.umin.", 10) || !strncmp(name, "llvm.umax.", 10) || !strncmp(name, "llvm.smin.", 10) ||
        !strncmp(name, "llvm.smax.", 10) || !strncmp(name, "llvm.abs.", 9) || !strncmp(name, "llvm.fsh", 8)) {
        *once = *is_free = ir_operands_free(f, in);
        return ir_width(atoi(strrchr(name, 'i') + 1));
    }
    return !strncmp(name, "llvm.", 5) ? 1 : 2; /* an intrinsic; a call and its return (the callee counts itself) */
}
