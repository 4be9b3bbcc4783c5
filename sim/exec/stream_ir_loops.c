/*
 * stream_ir_loops.c — a loop nvcc unrolls: its trip count, computed before
 * it (ir_note_trip_counts), a rule over a function whose blocks are
 * weighed.  A loop of an int counter stepping by a variable
 * (`i += t->threads`) whose body is small, which nvcc unrolls by 4 and
 * clang leaves rolled: its trip count, a division, before it (an int clang
 * widened is told from a long by its addition without `nsw`,
 * widened_int_step); in the later steps of a looped kernel, before the
 * loop over the steps, in every warp (hoisted_before_the_steps); and its
 * blocks marked as run 4 passes at a time (STREAM_UNROLL: the card issues
 * the unrolled passes' loads together), but where a load's array is
 * chosen at run time or a pass stores to global memory (mark_unrolled).
 * And the loop a looped kernel runs its steps in: its latch, each pass
 * (ir_note_step_latch).
 *
 * nvcc unrolls a loop of unknown trips by 4 (runtime unrolling: a
 * remainder loop of trips mod 4 first, then the unrolled loop) where its
 * body is small.  clang does so too where the stride is a constant
 * (stream_clang_flags), but not where it is a variable, `i += t->threads`:
 * the trip count, (bound − 1 − start)/stride + 1, is then a division,
 * which clang's unroller declines to expand.  So the counted build runs
 * such a loop as written, and its trip count is charged here, the
 * "loop:trip_count" row, on the block that enters the loop: once a kernel
 * per warp (a STREAM_TRIPS bit) where the start, bound and stride are the
 * thread's indices, args or constants (nvcc computes it once; Euclid's
 * write loop, its division hoisted before the loop over the steps), else
 * each time the loop is entered.  Which loops, as nvcc's code shows them
 * (its PTX: a div.u32 before the loop, `and 3`, a "nounroll" remainder):
 *  - a counter that is an int of the C code (a phi of 32 bits, or clang's
 *    widening of one, truncated where it is used as an int): Euclid's
 *    loads and radix sort's tiles are unrolled; the `long` counters of
 *    matvec's dot product, plain multiplication's loads and stores and
 *    plain division's window are not (one exception seen: plain
 *    multiplication's zeroing of f, a `long` loop of one store, unrolled
 *    with a 64-bit division; not charged);
 *  - a body of at most UNROLL_BODY card instructions: Euclid's loads of
 *    25 to 28 are unrolled, its Z/pZ reductions of 32 to 36 are not (read
 *    from nvcc's code, not from a time; LLVM's own rule, a body of at
 *    most 75 of its cost units unrolled, counts in units we do not see:
 *    Stockham's scan_apply, a body of 22 with a Z/pZ product, is rolled in
 *    nvcc's PTX, its scan_mediate's chunk_store, as small with one, is
 *    unrolled after a div.u32);
 *  - a stride (and a bound) the same in every pass on the card, though
 *    clang computes it in the loop: t->threads reloaded after a call of
 *    the body, which clang assumes might change it (same_every_pass;
 *    radix sort's and the scans' tile loops, a div.u32 each in nvcc's
 *    PTX).
 */
#include "stream_ir.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { UNROLL_BODY = 28 }; /* the largest body unrolled, in card instructions (above) */
enum { UNROLL_BY = 4 };    /* nvcc's runtime unrolling: 4 passes a pass of the unrolled loop */

/* Incoming value k of a phi, "TYPE [ value, label ], [ value, label ]",
 * into out ("" if none). */
static void phi_value(const char *rest, int k, char *out, size_t size)
{
    const char *s = strchr(rest, '[');
    for (int i = 0; s && i < k; i++)
        s = strchr(s + 1, '[');
    out[0] = '\0';
    if (!s)
        return;
    s++;
    while (*s == ' ')
        s++;
    size_t n = ir_name_length(s);
    if (n > 0 && n < size) {
        memcpy(out, s, n);
        out[n] = '\0';
    }
}

/* ---- the loop and its counter ----------------------------------------------------- */

/* The loop whose header is block h: its blocks marked in member[], the
 * card instructions of its counted blocks into *body; the first block
 * outside it that branches to its header (which enters it), or -1. */
static int loop_of(const ir_function *f, int h, const weights *t, char *member, double *body, ir_search *s)
{
    int entering = -1;
    *body = 0;
    for (int i = 0; i < f->n_blocks; i++) {
        member[i] = i == h || (ir_reaches(f, h, i, -1, s) && ir_reaches(f, i, h, -1, s));
        if (member[i] && f->blocks[i].id >= 0)
            *body += t->w[f->blocks[i].id][STREAM_INST];
        for (int k = 0; !member[i] && k < f->blocks[i].n_succ; k++)
            if (!strcmp(f->blocks[i].succ[k], f->blocks[h].label) && entering < 0)
                entering = i;
    }
    return entering;
}

/* Block h opens a loop the rule looks at: on a cycle, and opening with
 * phis (a header does). */
static int loop_header(const ir_function *f, int h)
{
    const ir_block *head = &f->blocks[h];
    int phis = 0;
    for (int l = head->first; l < head->last && !phis; l++)
        phis = strstr(f->lines[l], " = phi i") != NULL;
    return head->in_loop && phis;
}

/* What value `v` is in every pass of a loop on the card, into text: a
 * kernel invariant (ir_kernel_invariant) as what it computes (its same_as
 * text: a reload of the thread's index is the same text as its first
 * load); a phi whose incoming values other than `root` (the phi asked
 * about, whose back edge brings it back) are all the same such value; a
 * conversion or integer operation of such values.  clang reloads the
 * thread's indices after each call of a loop's body, since the call might
 * change them (`i += t->threads`: a load in the loop, or a phi of the
 * loads before and in it); on the card they are registers, the same in
 * every pass (radix sort's and the scans' tile loops, the card's div.u32
 * of their trip counts in its PTX).  1 if so; `depth` bounds the search. */
static int same_every_pass(const ir_function *f, const char *v, const char *root, int depth, char *text,
                           size_t size)
{
    if (ir_kernel_invariant(f, v)) {
        const char *same = v[0] == '%' ? ir_entry_value(&f->same_as, v) : NULL;
        snprintf(text, size, "%s", same ? same : v);
        return 1;
    }
    int l = depth > 0 ? ir_defining_line(f, v, strlen(v)) : -1;
    ir_inst in;
    if (l < 0 || ir_parse_inst(f->lines[l], &in) != 0)
        return 0;
    char x[64], one[512], all[512] = "";
    if (!strcmp(in.op, "phi")) {
        for (int k = 0; phi_value(in.rest, k, x, sizeof x), x[0]; k++) {
            if ((root && !strcmp(x, root)) || !strcmp(x, v))
                continue;
            if (!same_every_pass(f, x, root ? root : v, depth - 1, one, sizeof one) || (all[0] && strcmp(all, one)))
                return 0;
            snprintf(all, sizeof all, "%s", one);
        }
        snprintf(text, size, "%s", all);
        return all[0] != '\0';
    }
    static const char *const ops[] = {"sext", "zext", "trunc", "shl", "add", "sub", "mul", NULL};
    int known = 0;
    for (int i = 0; ops[i]; i++)
        known |= !strcmp(in.op, ops[i]);
    if (!known)
        return 0;
    int n = snprintf(text, size, "%s", in.op);
    for (int k = 0; k < (strcmp(in.op, "sext") && strcmp(in.op, "zext") && strcmp(in.op, "trunc") ? 2 : 1); k++) {
        ir_operand(in.rest, k, x, sizeof x);
        if (!x[0] || !same_every_pass(f, x, root, depth - 1, one, sizeof one))
            return 0;
        n += snprintf(text + n, size > (size_t)n ? size - (size_t)n : 0, "(%s)", one);
    }
    return (size_t)n < size;
}

/* The same, as what it computes into text (stream_ir.h). */
int ir_same_every_pass(const ir_function *f, const char *v, char *text, size_t size)
{
    return same_every_pass(f, v, NULL, 6, text, size);
}

/* The same, without the text: 1 if `v` is the same in every pass. */
static int card_invariant(const ir_function *f, const char *v)
{
    char text[512];
    return same_every_pass(f, v, NULL, 6, text, sizeof text);
}

/* The loop's stride, where header h's phi `p` steps by a value defined
 * outside the loop (in a block of its own: member[] marks the loop), or
 * inside it but the same in every pass (card_invariant);
 * into stride; 1 if so. */
static int variable_stride(const ir_function *f, const ir_inst *phi, const char *member, char *stride,
                           size_t size, char *next, size_t next_size)
{
    for (int k = 0; k < 2; k++) {
        char v[64];
        phi_value(phi->rest, k, v, sizeof v);
        int l = v[0] == '%' ? ir_defining_line(f, v, strlen(v)) : -1;
        int b = l >= 0 ? ir_block_of_line(f, l) : -1;
        ir_inst add;
        if (b < 0 || !member[b] || ir_parse_inst(f->lines[l], &add) != 0 || strcmp(add.op, "add") != 0)
            continue;
        char x[64], y[64];
        ir_operand(add.rest, 0, x, sizeof x);
        ir_operand(add.rest, 1, y, sizeof y);
        const char *other = !strncmp(x, phi->result, phi->result_len) && strlen(x) == phi->result_len ? y
                            : !strncmp(y, phi->result, phi->result_len) && strlen(y) == phi->result_len ? x
                                                                                          : NULL;
        if (!other || other[0] != '%')
            continue; /* a constant stride: clang unrolls it itself */
        int sl = ir_defining_line(f, other, strlen(other)), sb = sl >= 0 ? ir_block_of_line(f, sl) : -1;
        if (sb >= 0 && member[sb] && !card_invariant(f, other))
            continue;
        snprintf(stride, size, "%s", other);
        snprintf(next, next_size, "%s", v);
        return 1;
    }
    return 0;
}

/* The loop's counter, the phi `now`, is an int of the C code: a phi of 32
 * bits, or clang's widening of one (indvars), truncated to 32 bits where
 * the code uses it as an int. */
static int counter_of_32_bits(const ir_function *f, const char *member, const ir_inst *phi, const char *now)
{
    if (!strncmp(phi->rest, " i32 ", 5))
        return 1;
    char pattern[96];
    snprintf(pattern, sizeof pattern, "= trunc i64 %s to i32", now);
    for (int i = 0; i < f->n_blocks; i++)
        for (int l = f->blocks[i].first; member[i] && l < f->blocks[i].last; l++)
            if (strstr(f->lines[l], pattern))
                return 1;
    return 0;
}

/* The counter's next value `next` is clang's widening of an int of the C
 * code though the code never truncates it (indvars, where the counter is
 * used only as an index): its addition is on 64 bits without `nsw`.  A
 * `long` of the C code is signed, and clang marks each of its additions
 * `nsw` (plain multiplication's loads and stores, plain division's
 * window: `add nsw i64`); indvars cannot keep that mark on the wide copy
 * of `i += l` (Euclid's write and head-load loops: `add i64`). */
static int widened_int_step(const ir_function *f, const char *next)
{
    int l = ir_defining_line(f, next, strlen(next));
    ir_inst add;
    if (l < 0 || ir_parse_inst(f->lines[l], &add) != 0 || strcmp(add.op, "add") != 0)
        return 0;
    const char *op = strstr(f->lines[l], " = add ");
    return op && !strncmp(op + 7, "i64 ", 4); /* no flag between the opcode and the type */
}

/* The bound a loop's counter (its next value `next`, or the phi `now`) is
 * compared with where the loop branches back to header h (its latch's
 * icmp), into bound; 1 if found. */
static int loop_bound(const ir_function *f, const char *member, int h, const char *next, const char *now,
                      char *bound, size_t size)
{
    for (int i = 0; i < f->n_blocks; i++) {
        const ir_block *b = &f->blocks[i];
        int back = 0;
        for (int k = 0; member[i] && k < b->n_succ; k++)
            back |= !strcmp(b->succ[k], f->blocks[h].label);
        const char *condition = back ? ir_branch_condition(f, b) : NULL;
        if (!condition)
            continue;
        int l = ir_defining_line(f, condition, ir_name_length(condition));
        ir_inst in;
        char x[64], y[64];
        if (l < 0 || ir_parse_inst(f->lines[l], &in) != 0 || strcmp(in.op, "icmp") != 0)
            continue;
        const char *typed = strchr(in.rest + strspn(in.rest, " "), ' '); /* past the predicate */
        ir_operand(typed ? typed : in.rest, 0, x, sizeof x);
        ir_operand(typed ? typed : in.rest, 1, y, sizeof y);
        for (const char *v = next; v; v = v == next ? now : NULL)
            if (strcmp(x, v) == 0 || strcmp(y, v) == 0) {
                snprintf(bound, size, "%s", strcmp(x, v) == 0 ? y : x);
                return 1;
            }
    }
    return 0;
}

/* A loop's counter, as the rule needs it: where it starts, its stride,
 * the bound it is compared with. */
typedef struct loop_counter {
    char start[64], stride[64], bound[64];
} loop_counter;

/* The counter of the loop of header h (member[] its blocks), into c: the
 * first phi of the header that steps by a variable stride, is an int of
 * the C code, and is compared with a bound where the loop branches back;
 * 1 if found. */
static int find_counter(const ir_function *f, int h, const char *member, loop_counter *c)
{
    const ir_block *head = &f->blocks[h];
    for (int l = head->first; l < head->last; l++) {
        ir_inst phi;
        char next[64], now[64];
        if (!ir_inst_at(f, l, &phi) || strcmp(phi.op, "phi") != 0 || !phi.result ||
            !variable_stride(f, &phi, member, c->stride, sizeof c->stride, next, sizeof next))
            continue;
        ir_result_name(&phi, now, sizeof now);
        if (!(counter_of_32_bits(f, member, &phi, now) || widened_int_step(f, next)) ||
            !loop_bound(f, member, h, next, now, c->bound, sizeof c->bound))
            continue;
        phi_value(phi.rest, 0, c->start, sizeof c->start);
        if (!strcmp(c->start, next))
            phi_value(phi.rest, 1, c->start, sizeof c->start);
        return 1;
    }
    return 0;
}

/* ---- where the trip count is charged ---------------------------------------------- */

/* The line is the address of the thread's step (exec.h: tid, threads,
 * bid, blocks, step: field 4 of exec_thread). */
static int thread_step_field(const char *line)
{
    const char *field = strstr(line, "i64 0, i32 4");
    return strstr(line, "getelementptr inbounds %struct.exec_thread,") && field && !isdigit((unsigned char)field[12]);
}

/* Block `target` is reached, in a step of a looped kernel, only where
 * the step is 0: every path to it from the entry passes the first-step
 * side of a test `t->step == 0` (or `!= 0`). */
static int first_step_only(const ir_function *f, int target, ir_search *s)
{
    for (int i = 0; i < f->n_blocks; i++) {
        const ir_block *b = &f->blocks[i];
        const char *br = b->n_succ == 2 ? ir_branch_condition(f, b) : NULL;
        if (!br)
            continue;
        int c = ir_defining_line(f, br, ir_name_length(br)), side;
        const char *cmp = c >= 0 ? strstr(f->lines[c], " = icmp ") : NULL;
        if (!cmp || !strstr(cmp, ", 0"))
            continue;
        if (!strncmp(cmp + 8, "eq i32 %", 8))
            side = 0;
        else if (!strncmp(cmp + 8, "ne i32 %", 8))
            side = 1;
        else
            continue;
        const char *v = cmp + 15;
        int ld = ir_defining_line(f, v, ir_name_length(v));
        const char *ptr = ld >= 0 ? strstr(f->lines[ld], " = load i32, ") : NULL;
        ptr = ptr ? strchr(ptr + 13, '%') : NULL; /* the pointer: "i32* %6" or "ptr %6" */
        int at = ptr ? ir_defining_line(f, ptr, ir_name_length(ptr)) : -1;
        if (at < 0 || !thread_step_field(f->lines[at]))
            continue;
        int succ = ir_block_of_label(f, b->succ[side]);
        if (succ > 0 && (succ == target || !ir_reaches(f, 0, target, succ, s)))
            return 1;
    }
    return 0;
}

/* A looped kernel (MCM_KERNEL_LOOP) runs its step 0 apart, then the others
 * in a loop over the steps (cuda_ref/common/mcm_kernel_cuda.cuh).  A trip
 * count of the thread's indices, args and constants, in code the loop's
 * copy runs, is the same in every pass of that loop, and its division
 * is by the block's size, which nvcc knows is not 0: nvcc hoists it
 * before the loop, so every warp computes it once, whether or not it
 * enters the loop (Euclid's write loop, which warp 0 alone enters at
 * s = 1: I2F, MUFU.RCP ... `& 3` at 0x1950-0x1b90 of the executed SASS,
 * before the loop's BAR.SYNC, 8 warp instructions each).  So its
 * STREAM_TRIPS bit goes to the step's entry, which every warp passes.
 * Code only step 0 runs stays where it is (Euclid's head load, its trip
 * count computed by warp 0 alone). */
static int hoisted_before_the_steps(const ir_function *f, int entering, ir_search *s)
{
    return f->looped_step && f->blocks[0].id >= 0 && !first_step_only(f, entering, s);
}

/* The trip count of the loop of header h, entered from block `entering`,
 * counter c: a STREAM_TRIPS bit (once a kernel per warp) where its start,
 * stride and bound are kernel invariants, on the block that enters it or,
 * hoisted, the step's entry; else the "loop:trip_count" row each time
 * the loop is entered. */
static void charge_trip_count(const ir_function *f, weights *t, int h, int entering, const loop_counter *c,
                              ir_search *s)
{
    uint32_t *w = t->w[f->blocks[entering].id];
    if (card_invariant(f, c->start) && card_invariant(f, c->stride) && card_invariant(f, c->bound)) {
        if (hoisted_before_the_steps(f, entering, s))
            w = t->w[f->blocks[0].id];
        w[STREAM_TRIPS] |= 1u << ((unsigned)(f->blocks[h].id < 0 ? h : f->blocks[h].id) % 32);
    } else {
        double trip = stream_call_cost("loop:trip_count");
        w[STREAM_INST] += (uint32_t)trip;
        w[STREAM_PLAIN] += (uint32_t)trip;
        w[STREAM_CHAIN_PLAIN] += (uint32_t)trip;
        w[STREAM_AFTER_PLAIN] += (uint32_t)trip; /* its start, stride or bound not free: past a barrier too */
    }
}

/* A global read of the loop (member[]) whose array is chosen at run time,
 * a select or a phi of arrays, or a load from an address so chosen (clang's
 * `buf ? c->a1 : c->a0`: a select of the two fields' offsets, then the
 * load; chosen_at_run_time follows loads, addresses and casts back to
 * such a choice): nvcc then loses the array's state space and
 * loads it generic (ld.u32, LD), which may alias the shared store before
 * it, so ptxas keeps each load after that store (Euclid's ping-pong
 * windows, `st.buf ? c->a1 : c->a0`: in its SASS each LD of the unrolled
 * loop waits for the STS before it); an array of the step's args is
 * loaded global (ld.global, LDG) and ptxas issues an unrolled pass's loads
 * together (radix sort's tile loads: four LDG, then four STS). */
static int chosen_at_run_time(const ir_function *f, const char *v, size_t len, int depth)
{
    ir_inst def;
    int at = v[0] == '%' ? ir_defining_line(f, v, len) : -1;
    if (at < 0 || depth > 4 || !ir_inst_at(f, at, &def))
        return 0;
    if (!strcmp(def.op, "select") || !strcmp(def.op, "phi"))
        return 1;
    if (strcmp(def.op, "load") != 0 && strcmp(def.op, "getelementptr") != 0 && strcmp(def.op, "bitcast") != 0)
        return 0;
    for (ir_operand_names n = ir_operand_names_of(&def); ir_next_operand_name(&n);)
        if (chosen_at_run_time(f, n.name, n.len, depth + 1))
            return 1;
    return 0;
}

/* Is the array read by the exec_gread call `in` chosen at run time? */
static int read_of_a_chosen_array(const ir_function *f, const ir_inst *in)
{
    char array[64], same[256];
    ir_call_argument(f, in, 1, array, same, sizeof same);
    return chosen_at_run_time(f, array, strlen(array), 0);
}

/* Does the loop (member[]) call `callee` where `holds` (NULL: anywhere)? */
static int loop_calls(const ir_function *f, const char *member, const char *callee,
                      int (*holds)(const ir_function *, const ir_inst *))
{
    for (int i = 0; i < f->n_blocks; i++)
        for (int l = f->blocks[i].first; member[i] && l < f->blocks[i].last; l++) {
            ir_inst in;
            char name[64];
            if (ir_call_at(f, l, &in, name, sizeof name) && strcmp(name, callee) == 0 && (!holds || holds(f, &in)))
                return 1;
        }
    return 0;
}

/* The blocks of such a loop (member[]) run UNROLL_BY passes at a time on
 * the card, their loads issued together (STREAM_UNROLL, stream.h), but
 * where a load's array is chosen at run time (above) or a pass stores to
 * global memory: that store may alias the next pass's global loads (the
 * kernels' arrays carry no __restrict__), so ptxas keeps those loads after
 * it (Stockham's scan_apply, out read and written in each pass; radix
 * sort's scatter). */
static void mark_unrolled(const ir_function *f, weights *t, const char *member)
{
    if (loop_calls(f, member, "exec_gread", read_of_a_chosen_array) || loop_calls(f, member, "exec_gwrite", NULL))
        return;
    for (int i = 0; i < f->n_blocks; i++)
        if (member[i] && f->blocks[i].id >= 0)
            t->w[f->blocks[i].id][STREAM_UNROLL] = UNROLL_BY;
}

/* Each loop nvcc unrolls whose stride is a variable: its trip count
 * charged (above), its body at most UNROLL_BODY instructions; its blocks
 * marked as run 4 passes at a time. */
void ir_note_trip_counts(ir_function *f, weights *t)
{
    char *member = calloc((size_t)f->n_blocks + 1, 1);
    ir_search s = ir_search_new(f);
    for (int h = 0; h < f->n_blocks; h++) {
        if (!loop_header(f, h))
            continue;
        double body;
        int entering = loop_of(f, h, t, member, &body, &s);
        loop_counter c;
        if (entering < 0 || f->blocks[entering].id < 0 || body > UNROLL_BODY || !find_counter(f, h, member, &c))
            continue;
        charge_trip_count(f, t, h, entering, &c, &s);
        mark_unrolled(f, t, member);
    }
    ir_search_free(&s);
    free(member);
}

/* A looped kernel (MCM_KERNEL_LOOP) runs its steps after the first in a
 * loop (`for (t_.step = 1; t_.step < steps_; t_.step++)`, mcm_kernel_cuda.cuh),
 * whose latch each warp issues every pass, before the pass's barrier: the
 * counter's UIADD3, the bound's ULDC, UISETP, PLOP3 and the BRA back
 * (Euclid's executed SASS, profiles/sass-executed/euclid-s256.csv,
 * 0x38b0-0x38f0, 16 416 = 32 warps x 513 passes each).  The counted build
 * calls the step from exec mode's own loop, so none of it is in the IR:
 * the "loop:step_latch" row goes to the step's entry, and on its chain past
 * a barrier (a step but the first: a pass of that loop) the counter's
 * addition and the branch, plain links, with the comparison between them
 * the predicate the branch waits for (the rolled loop's pass, as a loop of
 * the code is charged).  Its taken branch back (cycles_branch) is not
 * charged: the counter knows no back edge outside the code. */
void ir_note_step_latch(const ir_function *f, weights *t)
{
    if (!f->looped_step || f->blocks[0].id < 0)
        return;
    uint32_t *w = t->w[f->blocks[0].id], latch = (uint32_t)stream_call_cost("loop:step_latch");
    w[STREAM_INST] += latch;
    w[STREAM_PLAIN] += latch;
    w[STREAM_AFTER_PLAIN] += 2;
    w[STREAM_AFTER_PREDICATE] += 1;
}
