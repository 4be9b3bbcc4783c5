/*
 * stream_ir_values.c — what a function's IR lets the weights know of its
 * values, noted in its name sets (stream_ir.h) as its lines are weighed:
 *  - free values: the thread's indices and the kernel's args (what a step
 *    reads through its `t` and its args pointer) are registers and
 *    constants on the card, and so is arithmetic on them alone (the
 *    compiler does it once, before any loop); clang reloads an arg after
 *    each call and computes again, nvcc, whose args cannot change, once:
 *    a free value is noted as what it computes (same_as), so that the
 *    same arithmetic a second time is seen (ir_done_before);
 *  - narrow values: those whose upper half is zero (zero extensions,
 *    low-word masks, words read, bid and blocks), 32 bits on the card;
 *  - values known below p: results of Z/pZ calls, constants below p, and
 *    phis and selects of them (the CUDA twin skips their range checks);
 *  - the thread's fields read, and widened (the block's STREAM_READS
 *    bits, stream.h: a kernel reads and widens each once).
 */
#include "stream_ir.h"
#include "mcm_kernel.h" /* MCM_PRIME: the p the CUDA build tells the compiler of */

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- free values ------------------------------------------------------------------ */

/* The pointer parameters of a function that takes an exec_thread (a step,
 * or a helper it calls): its `t` and args, registers on the card.  (A
 * type's name, %struct.x, is not a value's.) */
void ir_note_parameters(ir_function *f, const char *define)
{
    const char *open = strchr(define, '(');
    if (!open || !strstr(define, "%struct.exec_thread*"))
        return;
    int pointer = 0; /* the parameter being read has a pointer type */
    for (const char *s = open + 1; *s && *s != ')'; s++) {
        size_t len = ir_name_length(s);
        if (*s == '*' || !strncmp(s, "ptr ", 4))
            pointer = 1;
        else if (*s == ',')
            pointer = 0;
        if (len > 0) {
            if (pointer)
                ir_set_add(&f->free_ptrs, s, len);
            s += len - 1;
        }
    }
}

/* Every value name among the operands of the line (after its result) is
 * in the function's free values (constants need no check). */
int ir_operands_free(const ir_function *f, const ir_inst *in)
{
    for (ir_operand_names n = ir_operand_names_of(in); ir_next_operand_name(&n);)
        if (!ir_set_has(&f->free_values, n.name, n.len) && !ir_set_has(&f->free_ptrs, n.name, n.len))
            return 0;
    return 1;
}

/* Value `name` is the thread's index, an arg, a constant, or computed
 * from them alone (a register or constant on the card: free_values). */
int ir_kernel_invariant(const ir_function *f, const char *name)
{
    return name[0] != '%' || ir_set_has(&f->free_values, name, strlen(name)) ||
           ir_set_has(&f->free_ptrs, name, strlen(name));
}

/* What free value `in` computes, its operands replaced by what they
 * compute, into text: a reload of an arg is the same text as its first
 * load.  0 if too long to say. */
int ir_same_value(const ir_function *f, const ir_inst *in, char *text, size_t size)
{
    const char *end = strstr(in->rest, ", !"); /* metadata: not operands */
    size_t n = (size_t)snprintf(text, size, "%s", in->op);
    for (const char *s = in->rest; *s && (!end || s < end) && n + 1 < size; s++) {
        size_t len = ir_name_length(s);
        if (len == 0) {
            text[n++] = *s;
            continue;
        }
        char name[64];
        snprintf(name, sizeof name, "%.*s", (int)len, s);
        const char *v = ir_entry_value(&f->same_as, name);
        n += (size_t)snprintf(text + n, size - n, "(%s)", v ? v : name);
        s += len - 1;
    }
    if (n + 1 >= size)
        return 0;
    text[n] = '\0';
    return 1;
}

/* Value `in` of block `block`, noted as what it computes (same_as): 1
 * if `done` has it from the entry block or from this one (where nvcc's
 * one computation dominates it), else 0 and noted there. */
int ir_done_before(ir_function *f, name_set *done, const ir_inst *in, int block)
{
    char text[1024], name[64], here[16];
    if (!in->result || !ir_same_value(f, in, text, sizeof text))
        return 0;
    ir_result_name(in, name, sizeof name);
    ir_entry_add(&f->same_as, name, text);
    if (!done)
        return 0;
    const char *where = ir_entry_value(done, text);
    if (where && (atoi(where) == 0 || atoi(where) == block))
        return 1;
    snprintf(here, sizeof here, "%d", block);
    ir_entry_add(done, text, here);
    return 0;
}

/* Argument k (0: the thread) of call `in`, its name or constant, into
 * name (64 bytes); and as what it computes (its same_as text, else the
 * same), into out. */
void ir_call_argument(const ir_function *f, const ir_inst *in, int k, char *name, char *out, size_t size)
{
    const char *s = strchr(in->rest, '(');
    name[0] = out[0] = '\0';
    for (int i = 0; s && *s != ')' && i <= k; s += 1 + strcspn(s + 1, ",)"), i++)
        if (i == k) {
            ir_typed_value(s + 1, name, 64);
            const char *same = name[0] == '%' ? ir_entry_value(&f->same_as, name) : NULL;
            snprintf(out, size, "%s", same ? same : name);
        }
}

/* ---- narrow values ---------------------------------------------------------------- */

/* Operand text `v` holds no more than `bits` low bits: a narrow value (a
 * zero extension, a mask of the low word) or a constant below 2^bits. */
int ir_fits(const ir_function *f, const char *v, int bits)
{
    if (v[0] == '%')
        return ir_set_has(&f->narrow, v, strlen(v)) && bits >= 32;
    if (!isdigit((unsigned char)v[0]))
        return 0;
    return bits >= 64 || strtoull(v, NULL, 10) < (1ull << bits);
}

/* Value v (a name or a constant) holds at most 32 bits on the card. */
int ir_narrow_value(const ir_function *f, const char *v)
{
    return v[0] == '%' ? ir_set_has(&f->narrow, v, strlen(v)) || ir_set_has(&f->below_p, v, strlen(v))
                       : isdigit((unsigned char)v[0]) && strtoull(v, NULL, 10) < (1ull << 32);
}

/* ---- values known below p --------------------------------------------------------- */

/* Value v (a name "%7" or a decimal constant) is known below p. */
static int below_p(const ir_function *f, const char *v)
{
    if (v[0] == '%')
        return ir_set_has(&f->below_p, v, strlen(v));
    return isdigit((unsigned char)v[0]) && strtoull(v, NULL, 10) < MCM_PRIME;
}

/* How many of the two operands of Z/pZ call `in` (its arguments after the
 * thread: "@exec_zp_add(ptr %0, i64 %a, i64 %b)") are known below p. */
int ir_operands_below_p(const ir_function *f, const ir_inst *in)
{
    const char *s = strchr(in->rest, '(');
    char v[64];
    int args = 0, known = 0;
    for (; s && *s != ')'; s += 1 + strcspn(s + 1, ",)"), args++) {
        ir_typed_value(s + 1, v, sizeof v);
        known += args > 0 && below_p(f, v);
    }
    return args == 3 ? known : 0;
}

/* Phi or select `in` chooses among values all known below p: a phi's
 * "[ v, %label ]" pairs, a select's two operands after its condition. */
static int choice_below_p(const ir_function *f, const ir_inst *in)
{
    char v[64];
    if (!strcmp(in->op, "select")) {
        for (int k = 1; k <= 2; k++) { /* operand 0 is the condition */
            ir_typed_operand(in->rest, k, v, sizeof v);
            if (!v[0] || !below_p(f, v))
                return 0;
        }
        return 1;
    }
    int seen = 0;
    for (const char *s = strchr(in->rest, '['); s; s = strchr(s + 1, '[')) {
        const char *a = s + 1;
        while (*a == ' ')
            a++;
        snprintf(v, sizeof v, "%.*s", (int)strcspn(a, ", ]"), a);
        if (!below_p(f, v))
            return 0;
        seen++;
    }
    return seen > 0;
}

/* The function's values known below p, before its blocks are weighed: the
 * results of Z/pZ calls, then phis and selects of them, to a fixed point
 * (a loop's sum is a phi of its own next value). */
void ir_note_below_p(ir_function *f)
{
    for (int pass = 0, grew = 1; grew && pass < 64; pass++) {
        grew = 0;
        for (int l = 0; l < f->n_lines; l++) {
            ir_inst in;
            if (!ir_inst_at(f, l, &in) || !in.result || ir_set_has(&f->below_p, in.result, in.result_len))
                continue;
            char name[128] = "";
            if (!strcmp(in.op, "call"))
                ir_callee(in.rest, name, sizeof name);
            if (!strncmp(name, "exec_zp_", 8) ||
                ((!strcmp(in.op, "phi") || !strcmp(in.op, "select")) && choice_below_p(f, &in))) {
                ir_set_add(&f->below_p, in.result, in.result_len);
                grew = 1;
            }
        }
    }
}

/* ---- the thread's fields ---------------------------------------------------------- */

/* Getelementptr `in` is the address of field K of the thread (its
 * %struct.exec_thread's field 0 to 3: tid, threads, bid, blocks): noted. */
void ir_note_thread_field(ir_function *f, const ir_inst *in)
{
    const char *last = strrchr(in->rest, ',');
    if (!in->result || !strstr(in->rest, "%struct.exec_thread, ") || !last || strncmp(last, ", i32 ", 6) != 0)
        return;
    char name[64], k[16];
    ir_result_name(in, name, sizeof name);
    snprintf(k, sizeof k, "%d", atoi(last + 6));
    if (atoi(k) >= 0 && atoi(k) <= 3)
        ir_entry_add(&f->thread_fields, name, k);
}

/* A load of a free value at `ptr`: if a field K of the thread, its bit
 * K in the block's reads (w[STREAM_READS]; stream.h).  bid and blocks are
 * 32-bit registers on the card: narrow. */
void ir_note_thread_read(ir_function *f, const ir_inst *in, const char *ptr, size_t len, double *w)
{
    char name[64];
    snprintf(name, sizeof name, "%.*s", (int)len, ptr);
    const char *k = ir_entry_value(&f->thread_fields, name);
    if (!k || !in->result)
        return;
    ir_result_name(in, name, sizeof name);
    ir_entry_add(&f->field_values, name, k);
    if (atoi(k) >= 2)
        ir_set_add(&f->narrow, in->result, in->result_len);
    w[STREAM_READS] = (double)((uint32_t)w[STREAM_READS] | 1u << atoi(k));
}

/* Sext `in` of a field K of the thread: its bit 4 + K in the block's
 * reads (the kernel widens it once); 0 if not such a field. */
int ir_note_thread_widened(ir_function *f, const ir_inst *in, double *w)
{
    size_t len;
    const char *v = ir_first_operand(in, &len);
    char name[64];
    snprintf(name, sizeof name, "%.*s", v ? (int)len : 0, v ? v : "");
    const char *k = v ? ir_entry_value(&f->field_values, name) : NULL;
    if (!k)
        return 0;
    w[STREAM_READS] = (double)((uint32_t)w[STREAM_READS] | 1u << (4 + atoi(k)));
    return 1;
}
