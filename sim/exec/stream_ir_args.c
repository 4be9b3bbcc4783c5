/*
 * stream_ir_args.c — which lines of the card's constant bank a kernel's
 * code reads: its steps' loads of the args (a step's second parameter),
 * placed at the offsets nvcc gives the args on the card, in 128-byte lines
 * (stream.h, stream_table's constants).
 *
 * On sm_90 a kernel's parameters lie in constant bank 0 from 0x210 (the
 * global memory's descriptor at 0x208, the launch's header below 0x200),
 * and the constant caches start cold at every kernel: each 128-byte line a
 * kernel reads costs its start a miss (constants.cu's constant_cache_*
 * chains; card-model.md, session 41).  The kernel boundary's touch kernel
 * reads 0x208-0x21f, the line 0x200-0x27f, so graph_launch_latency holds
 * that line's miss; what a kernel pays beyond it is the other lines its
 * args' reads reach.
 *
 * The rules:
 *  - an args address is the step's args pointer plus a C offset: a
 *    constant, or a `select` of two constants (a buffer chosen by a
 *    parity); a load from one reads its bytes there (a load through an
 *    address computed otherwise is not seen: nothing charged for it);
 *  - the card lays out the same struct, but each `gmem` (a pointer in the
 *    C build) is a struct of 24 bytes (cuda_ref/common/mcm_kernel_cuda.cuh),
 *    8-aligned as the pointer, so a byte at C offset x lies at x + 16 × (the
 *    struct's pointers before x) on the card, with the same padding (args
 *    hold no other pointer: the card could not follow one).  The struct's
 *    fields are read from the TBAA metadata clang attaches to the loads of
 *    them (each field's type and offset; a pointer is "any pointer"): a
 *    step none of whose loads names its struct gets no line;
 *  - a looped kernel (MCM_KERNEL_LOOP) reads its second parameter, the
 *    steps, after the args (their size rounded up to 4 bytes), on entry.
 * A schedule (MCM_KERNEL_SCHEDULE) is not a step: its own reads of the
 * args are not counted (the cases' schedules read lines their steps read).
 */
#include "stream_ir.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PARAMS_AT 0x210  /* bank 0's first parameter byte on sm_90 */
#define FIRST_LINE 0x200 /* the touch kernel's line: bit 0 */
#define LINE_BYTES 128
#define GMEM_GROWTH 16   /* a gmem: 24 bytes on the card, a pointer of 8 here */
#define MAX_POINTERS 64  /* pointers of one args struct that are followed */
#define MAX_DEPTH 8      /* structs inside structs */

/* ---- offsets and bytes ----------------------------------------------------------- */

/* Bytes a load of the type at the start of its operands reads (" i32,",
 * " i8*,", " ptr,", " double,"); 1 for an aggregate (its first byte). */
static int type_bytes(const char *rest)
{
    const char *type = rest + strspn(rest, " ");
    size_t n = strcspn(type, ",");
    if (n > 0 && (type[n - 1] == '*' || !strncmp(type, "ptr,", 4)))
        return 8;
    if (type[0] == 'i' && atoi(type + 1) > 0)
        return (atoi(type + 1) + 7) / 8;
    return !strncmp(type, "double,", 7) ? 8 : !strncmp(type, "float,", 6) ? 4 : !strncmp(type, "half,", 5) ? 2 : 1;
}

/* The C offsets that set `at` gives value v ("A" or "A B"), into off;
 * their number (0: v is no args address). */
static int offsets_of(const name_set *at, const char *v, long *off)
{
    const char *text = ir_entry_value(at, v);
    int n = 0;
    for (char *end; text && n < ARGS_OFFSETS; text = end) {
        off[n] = strtol(text, &end, 10);
        if (end == text)
            break;
        n++;
    }
    return n;
}

static void offsets_add(name_set *at, const char *name, const long *off, int n)
{
    char text[64] = "";
    for (int i = 0; i < n; i++)
        snprintf(text + strlen(text), sizeof text - strlen(text), "%s%ld", i ? " " : "", off[i]);
    ir_entry_add(at, name, text);
}

/* ---- a step's reads of its args ---------------------------------------------------- */

int ir_args_parameter(const char *define, char *name, size_t size)
{
    const char *open = strchr(define, '('), *close = open ? strchr(open, ')') : NULL;
    const char *comma = open ? strchr(open, ',') : NULL;
    name[0] = '\0';
    if (!close || !comma || comma > close || strncmp(open + 1, "%struct.exec_thread*", 20) != 0)
        return 0;
    const char *second = comma + 1;
    while (*second == ' ')
        second++;
    if (strncmp(second, "i8*", 3) != 0 || memchr(second, ',', (size_t)(close - second)))
        return 0;
    const char *v = close;
    while (v > second && v[-1] != ' ')
        v--;
    snprintf(name, size, "%.*s", (int)(close - v), v);
    return name[0] == '%';
}

/* A getelementptr of i8 (one index: an i8 has no fields) from an args
 * address, by a constant or by a select of two (sel): its offsets noted
 * in `at` under its result's name. */
static void note_address(name_set *at, const name_set *sel, const ir_inst *in, const char *name)
{
    char base[128], index[128];
    long off[ARGS_OFFSETS], by[ARGS_OFFSETS], sum[ARGS_OFFSETS];
    ir_typed_operand(in->rest, 1, base, sizeof base);
    ir_typed_operand(in->rest, 2, index, sizeof index);
    int k = offsets_of(at, base, off), j = 1;
    if (index[0] == '%')
        j = offsets_of(sel, index, by);
    else
        by[0] = atol(index);
    if (k == 0 || j == 0 || k * j > ARGS_OFFSETS)
        return;
    for (int a = 0; a < k; a++)
        for (int b = 0; b < j; b++)
            sum[a * j + b] = off[a] + by[b];
    offsets_add(at, name, sum, k * j);
}

/* One instruction of a step: the args addresses it makes noted in `at`,
 * its select of two constants in `sel`, and, a load from the args, its
 * offsets, bytes and TBAA tag into r (r->n_off 0 otherwise). */
static void follow(const ir_inst *in, name_set *at, name_set *sel, args_read *r)
{
    char name[64] = "", a[128], b[128];
    long off[ARGS_OFFSETS];
    r->n_off = 0;
    if (in->result)
        ir_result_name(in, name, sizeof name);
    ir_typed_operand(in->rest, 1, a, sizeof a);
    ir_typed_operand(in->rest, 2, b, sizeof b);
    if (!strcmp(in->op, "select") && name[0] && a[0] != '%' && b[0] != '%') {
        char both[272];
        snprintf(both, sizeof both, "%s %s", a, b);
        ir_entry_add(sel, name, both);
    } else if (!strcmp(in->op, "bitcast") && name[0]) {
        char from[128];
        ir_operand(in->rest, 0, from, sizeof from); /* "i8* %5 to ..." */
        int k = offsets_of(at, from, off);
        if (k > 0)
            offsets_add(at, name, off, k);
    } else if (!strcmp(in->op, "getelementptr") && name[0] && !strncmp(in->rest + strspn(in->rest, " "), "i8,", 3)) {
        note_address(at, sel, in, name);
    } else if (!strcmp(in->op, "load")) {
        r->n_off = offsets_of(at, a, r->off);
        r->bytes = type_bytes(in->rest);
        const char *tag = strstr(in->rest, "!tbaa !");
        r->tag = tag ? atoi(tag + 7) : -1;
    }
}

void ir_args_note_step(args_lines *a, const ir_function *f, const char *args)
{
    if (!args[0])
        return;
    name_set at = {0}, sel = {0};
    long zero = 0;
    offsets_add(&at, args, &zero, 1);
    a->steps = ir_grow(a->steps, &a->cap_steps, a->n_steps + 1, sizeof *a->steps);
    args_step *s = &a->steps[a->n_steps];
    s->entry = -1;
    s->looped = f->looped_step;
    for (int i = 0; i < f->n_blocks; i++) {
        const ir_block *b = &f->blocks[i];
        if (s->entry < 0)
            s->entry = b->id;
        for (int l = b->first; l < b->last; l++) {
            ir_inst in;
            args_read r = {.id = b->id, .step = a->n_steps};
            if (!ir_inst_at(f, l, &in))
                continue;
            follow(&in, &at, &sel, &r);
            if (r.n_off > 0 && b->id >= 0) {
                a->reads = ir_grow(a->reads, &a->cap_reads, a->n_reads + 1, sizeof *a->reads);
                a->reads[a->n_reads++] = r;
            }
        }
    }
    a->n_steps++;
    ir_set_clear(&at);
    ir_set_clear(&sel);
    free(at.names);
    free(sel.names);
}

/* ---- the metadata: the args struct's pointers --------------------------------------- */

void ir_args_note_global(args_lines *a, const char *line)
{
    if (line[0] != '!' || line[1] < '0' || line[1] > '9')
        return;
    const char *eq = strstr(line, " = ");
    if (!eq)
        return;
    char key[32];
    snprintf(key, sizeof key, "%.*s", (int)(eq - line < 31 ? eq - line : 31), line);
    size_t len = strcspn(eq + 3, "\n");
    char *text = malloc(len + 1);
    if (!text)
        return;
    memcpy(text, eq + 3, len);
    text[len] = '\0';
    ir_entry_add(&a->meta, key, text);
    free(text);
}

/* The elements of metadata node !id ("!{!"int", !8, i64 0}": from its
 * first, `!"int", ...`), or NULL; element k by ir_typed_operand. */
static const char *node_elements(const args_lines *a, int id)
{
    char key[32];
    snprintf(key, sizeof key, "!%d", id);
    const char *text = ir_entry_value(&a->meta, key);
    return text && !strncmp(text, "!{", 2) ? text + 2 : NULL;
}

/* A scalar type's bytes by its TBAA name, the node's first element (0:
 * not a scalar's name); *pointer set for a pointer. */
static int scalar_bytes(const char *name, int *pointer)
{
    static const struct { const char *name; int bytes; } scalars[] = {
        {"!\"int\"", 4},    {"!\"long\"", 8},   {"!\"long long\"", 8}, {"!\"short\"", 2},
        {"!\"omnipotent char\"", 1}, {"!\"_Bool\"", 1}, {"!\"float\"", 4}, {"!\"double\"", 8},
        {"!\"__int128\"", 16}, {"!\"any pointer\"", 8}};
    *pointer = !strncmp(name, "!\"any pointer\"", 14) || !strncmp(name, "!\"p1 ", 5) || !strncmp(name, "!\"p2 ", 5);
    if (*pointer)
        return 8;
    for (size_t i = 0; i < sizeof scalars / sizeof scalars[0]; i++)
        if (!strncmp(name, scalars[i].name, strlen(scalars[i].name)))
            return scalars[i].bytes;
    return 0;
}

/* The struct (or scalar) of TBAA type node !id at C offset `at`: its
 * pointers' offsets added to p (n of them so far), its size and alignment
 * into *size, *align.  -1 if not understood. */
static int type_layout(const args_lines *a, int id, long at, long *p, int *n, long *size, long *align, int depth)
{
    const char *node = node_elements(a, id);
    int pointer;
    if (!node || depth > MAX_DEPTH)
        return -1;
    int bytes = scalar_bytes(node, &pointer);
    if (bytes > 0) {
        if (pointer && *n < MAX_POINTERS)
            p[(*n)++] = at;
        *size = *align = bytes;
        return 0;
    }
    long end = 0, most = 1;
    char field[128], offset[128];
    for (int i = 1;; i += 2) { /* fields: a type node, its offset */
        ir_typed_operand(node, i, field, sizeof field);
        ir_typed_operand(node, i + 1, offset, sizeof offset);
        if (!offset[0])
            break;
        long field_size, field_align, off = atol(offset);
        if (field[0] != '!' ||
            type_layout(a, atoi(field + 1), at + off, p, n, &field_size, &field_align, depth + 1) < 0)
            return -1;
        end = off + field_size > end ? off + field_size : end;
        most = field_align > most ? field_align : most;
    }
    *size = (end + most - 1) / most * most;
    *align = most;
    return 0;
}

/* The struct of a TBAA access tag !tag ("!{!base, !access, i64 off}")
 * whose base is a struct, not the scalar accessed: its node's id, or -1. */
static int tag_struct(const args_lines *a, int tag)
{
    const char *node = tag < 0 ? NULL : node_elements(a, tag);
    char base[128] = "", access[128] = "", off[128] = "";
    if (node) {
        ir_typed_operand(node, 0, base, sizeof base);
        ir_typed_operand(node, 1, access, sizeof access);
        ir_typed_operand(node, 2, off, sizeof off);
    }
    if (!off[0] || base[0] != '!' || !strcmp(base, access))
        return -1;
    return atoi(base + 1);
}

/* ---- the lines ------------------------------------------------------------------- */

/* C offset x on the card: 16 bytes more for each pointer before it. */
static long card_offset(long x, const long *p, int n)
{
    long card = x;
    for (int i = 0; i < n; i++)
        card += p[i] < x ? GMEM_GROWTH : 0;
    return card;
}

/* The bit of the line holding byte `card` of the parameters (stream.h). */
static uint32_t line_bit(long card)
{
    long line = (PARAMS_AT + card - FIRST_LINE) / LINE_BYTES;
    return line < 0 ? 0 : 1u << (line < 31 ? line : 31);
}

void ir_args_lines_of(const args_lines *a, uint32_t *constants, int blocks)
{
    for (int s = 0; s < a->n_steps; s++) {
        int node = -1;
        for (int i = 0; i < a->n_reads && node < 0; i++)
            if (a->reads[i].step == s)
                node = tag_struct(a, a->reads[i].tag);
        long p[MAX_POINTERS], size, align;
        int n = 0;
        if (node < 0 || type_layout(a, node, 0, p, &n, &size, &align, 0) < 0)
            continue; /* the struct unknown: no line */
        for (int i = 0; i < a->n_reads; i++) {
            const args_read *r = &a->reads[i];
            if (r->step != s || r->id >= blocks)
                continue;
            for (int k = 0; k < r->n_off; k++) {
                long card = card_offset(r->off[k], p, n);
                constants[r->id] |= line_bit(card) | line_bit(card + r->bytes - 1);
            }
        }
        const args_step *st = &a->steps[s];
        if (st->looped && st->entry >= 0 && st->entry < blocks) /* the steps, after the args */
            constants[st->entry] |= line_bit((size + (long)n * GMEM_GROWTH + 3) / 4 * 4);
    }
}

void ir_args_free(args_lines *a)
{
    free(a->reads);
    free(a->steps);
    ir_set_clear(&a->meta);
    free(a->meta.names);
}
