/*
 * stream_ir_read.c — clang's IR of a kernel file read one function at a
 * time: its lines kept, cut into basic blocks at their labels, each
 * block's successors from its terminator; a line read as an instruction
 * (its result, opcode, operands, callee); and the sets of value names in
 * which the other stream_ir files note what they learn of the function.
 *
 * A value's name (%7) and its width are all the reader needs: it does not
 * parse LLVM IR in general, only the lines clang -O2 writes for C.
 */
#include "stream_ir.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- memory and sets of names ----------------------------------------------------- */

/* p, unless the allocation that made it failed: then mcmsim says so and exits. */
static void *allocated(void *p)
{
    if (!p) {
        fprintf(stderr, "mcmsim: out of memory reading a kernel's IR\n");
        exit(70);
    }
    return p;
}

void *ir_alloc(size_t size)
{
    return allocated(malloc(size));
}

/* p (an array of *cap elements of `size` bytes) with room for `need`. */
void *ir_grow(void *p, int *cap, int need, size_t size)
{
    if (need <= *cap)
        return p;
    *cap = *cap ? 2 * *cap : 64;
    if (*cap < need)
        *cap = need;
    return allocated(realloc(p, size * (size_t)*cap));
}

void ir_set_add(name_set *set, const char *name, size_t len)
{
    set->names = ir_grow(set->names, &set->cap, set->n + 1, sizeof *set->names);
    char *copy = malloc(len + 1);
    memcpy(copy, name, len);
    copy[len] = '\0';
    set->names[set->n++] = copy;
}

int ir_set_has(const name_set *set, const char *name, size_t len)
{
    for (int i = set->n - 1; i >= 0; i--)
        if (strlen(set->names[i]) == len && memcmp(set->names[i], name, len) == 0)
            return 1;
    return 0;
}

void ir_set_clear(name_set *set)
{
    for (int i = 0; i < set->n; i++)
        free(set->names[i]);
    set->n = 0;
}

/* The value after key's tab in the set's entry "KEY\tVALUE", or NULL. */
const char *ir_entry_value(const name_set *set, const char *key)
{
    size_t len = strlen(key);
    for (int i = set->n - 1; i >= 0; i--)
        if (!strncmp(set->names[i], key, len) && set->names[i][len] == '\t')
            return set->names[i] + len + 1;
    return NULL;
}

void ir_entry_add(name_set *set, const char *key, const char *value)
{
    char entry[1100];
    int n = snprintf(entry, sizeof entry, "%s\t%s", key, value);
    if (n > 0 && (size_t)n < sizeof entry)
        ir_set_add(set, entry, (size_t)n);
}

/* ---- one function, read whole ----------------------------------------------------- */

/* The function's name sets, each cleared and freed alike. */
#define FUNCTION_SETS(X)                                                                                  \
    X(free_values) X(free_ptrs) X(narrow) X(below_p) X(same_as) X(computed) X(divisions) X(zp_calls)     \
    X(thread_fields) X(field_values) X(products) X(accesses) X(offsets) X(charged) X(compares) X(sums) X(in_flight)

static void function_clear(ir_function *f)
{
    for (int i = 0; i < f->n_lines; i++)
        free(f->lines[i]);
    f->n_lines = f->n_blocks = 0;
#define CLEAR_SET(name) ir_set_clear(&f->name);
    FUNCTION_SETS(CLEAR_SET)
#undef CLEAR_SET
}

void ir_function_free(ir_function *f)
{
    function_clear(f);
    free(f->lines);
    free(f->blocks);
#define FREE_SET(name) free(f->name.names);
    FUNCTION_SETS(FREE_SET)
#undef FREE_SET
}

/* A new function (its `define` line read): no lines, its sets empty, and
 * its entry block, which has no label. */
void ir_function_begin(ir_function *f)
{
    function_clear(f);
    f->blocks = ir_grow(f->blocks, &f->cap_blocks, 1, sizeof *f->blocks);
    f->blocks[f->n_blocks++] = (ir_block){.id = -1};
}

/* A block label line ("7:", "for.body:"), into label; 0 if not one. */
static int label_line(const char *line, char *label, size_t size)
{
    size_t n = 0;
    while (line[n] && (isalnum((unsigned char)line[n]) || line[n] == '.' || line[n] == '_' || line[n] == '-' ||
                       line[n] == '$'))
        n++;
    if (n == 0 || line[n] != ':' || n + 1 > size)
        return 0;
    memcpy(label, line, n);
    label[n] = '\0';
    return 1;
}

/* The labels a block's terminator may branch to ("label %7" operands). */
static void note_successors(ir_block *b, const char *line)
{
    for (const char *s = strstr(line, "label %"); s; s = strstr(s + 1, "label %")) {
        size_t len = ir_name_length(s + 6);
        if (b->n_succ < 8 && len > 1 && len - 1 < sizeof b->succ[0]) {
            memcpy(b->succ[b->n_succ], s + 7, len - 1);
            b->succ[b->n_succ++][len - 1] = '\0';
        }
    }
}

/* A line of the function's body: kept; a label opens a block, which
 * starts on the line after it; an instruction may name successors. */
void ir_function_line(ir_function *f, const char *line)
{
    char label[64];
    f->lines = ir_grow(f->lines, &f->cap_lines, f->n_lines + 1, sizeof *f->lines);
    f->lines[f->n_lines] = strdup(line);
    if (label_line(line, label, sizeof label)) {
        f->blocks[f->n_blocks - 1].last = f->n_lines;
        f->blocks = ir_grow(f->blocks, &f->cap_blocks, f->n_blocks + 1, sizeof *f->blocks);
        ir_block *b = &f->blocks[f->n_blocks++];
        *b = (ir_block){.id = -1, .first = f->n_lines + 1};
        snprintf(b->label, sizeof b->label, "%s", label);
    } else if (line[0] == ' ') {
        note_successors(&f->blocks[f->n_blocks - 1], line);
    }
    f->n_lines++;
}

/* The function's end (its `}`): the last block closes. */
void ir_function_end(ir_function *f)
{
    f->blocks[f->n_blocks - 1].last = f->n_lines;
}

/* ---- small readers of one line ---------------------------------------------------- */

/* A value name starting at s ("%7", "%x.y"): its length, 0 if none (or a
 * type's name, "%struct.gmem_array"). */
size_t ir_name_length(const char *s)
{
    if (*s != '%' || !strncmp(s, "%struct.", 8) || !strncmp(s, "%union.", 7) || s[1] == '"')
        return 0;
    size_t n = 1;
    while (isalnum((unsigned char)s[n]) || s[n] == '.' || s[n] == '_' || s[n] == '$' || s[n] == '-')
        n++;
    return n > 1 ? n : 0;
}

/* The word at s (letters, digits, '.', '_'), into out. */
const char *ir_word_at(const char *s, char *out, size_t size)
{
    while (*s == ' ')
        s++;
    size_t n = 0;
    while ((isalnum((unsigned char)s[n]) || s[n] == '.' || s[n] == '_') && n + 1 < size) {
        out[n] = s[n];
        n++;
    }
    out[n] = '\0';
    return s + n;
}

/* Bits of the first integer type ("i64") at or after s, before a comma or
 * the end; pointers are 64 bits; 32 for anything else (floats). */
int ir_bits_at(const char *s)
{
    for (; *s && *s != ','; s++) {
        if (*s == 'i' && isdigit((unsigned char)s[1]) && (s[-1] == ' ' || s[-1] == '<'))
            return atoi(s + 1);
        if (*s == '*' || strncmp(s, "ptr", 3) == 0)
            return 64;
    }
    return 32;
}

/* Line `line` read as an instruction into in (its flags, and a call's
 * `tail`, passed over): 0, or -1 if it is none. */
int ir_parse_inst(const char *line, ir_inst *in)
{
    const char *s = line;
    while (*s == ' ')
        s++;
    in->result = NULL;
    in->result_len = ir_name_length(s);
    if (in->result_len > 0) {
        in->result = s;
        s = strstr(s, " = ");
        if (!s)
            return -1;
        s += 3;
    }
    const char *after = ir_word_at(s, in->op, sizeof in->op);
    while (!strcmp(in->op, "tail") || !strcmp(in->op, "musttail") || !strcmp(in->op, "notail"))
        after = ir_word_at(after, in->op, sizeof in->op);
    for (;;) { /* flags that change nothing here */
        char flag[32];
        const char *next = ir_word_at(after, flag, sizeof flag);
        if (!strcmp(flag, "nuw") || !strcmp(flag, "nsw") || !strcmp(flag, "exact") || !strcmp(flag, "inbounds") ||
            !strcmp(flag, "fast") || !strcmp(flag, "volatile") || !strcmp(flag, "disjoint"))
            after = next;
        else
            break;
    }
    in->rest = after;
    return in->op[0] ? 0 : -1;
}

/* Line `line` of the function is an instruction (not a label, nor blank):
 * 1, and it read into in. */
int ir_inst_at(const ir_function *f, int line, ir_inst *in)
{
    return f->lines[line][0] == ' ' && ir_parse_inst(f->lines[line], in) == 0;
}

/* Line `line` of the function is a call: 1, it read into in, its callee
 * into name (ir_callee). */
int ir_call_at(const ir_function *f, int line, ir_inst *in, char *name, size_t size)
{
    name[0] = '\0';
    if (!ir_inst_at(f, line, in) || strcmp(in->op, "call") != 0)
        return 0;
    ir_callee(in->rest, name, size);
    return 1;
}

/* The name of in's result ("%7"), as a string; "" if it has none. */
void ir_result_name(const ir_inst *in, char *out, size_t size)
{
    snprintf(out, size, "%.*s", in->result ? (int)in->result_len : 0, in->result ? in->result : "");
}

/* The first value name among the operands (the pointer of a load, the
 * base of a getelementptr or cast). */
const char *ir_first_operand(const ir_inst *in, size_t *len)
{
    for (const char *s = in->rest; *s; s++)
        if ((*len = ir_name_length(s)) > 0)
            return s;
    return NULL;
}

/* The walk over in's operand names (ir_next_operand_name): from its
 * first operand to its metadata (after ", !", not operands). */
ir_operand_names ir_operand_names_of(const ir_inst *in)
{
    const char *end = strstr(in->rest, ", !");
    return (ir_operand_names){.name = in->rest, .end = end ? end : in->rest + strlen(in->rest),
                              .phi = !strcmp(in->op, "phi")};
}

/* The next value name among the operands, after n's current one: 1, and
 * it in n->name (n->len characters); 0 past the last.  A phi's pairs
 * "[ value, %label ]" give their values, not their labels. */
int ir_next_operand_name(ir_operand_names *n)
{
    for (const char *s = n->name + n->len; s < n->end; s++) {
        if (n->phi && (*s == '[' || *s == ','))
            n->in_pair = *s == '[' ? 1 : n->in_pair ? 2 : 0; /* 1: at the value, 2: at the label */
        size_t len = ir_name_length(s);
        if (len > 0 && !(n->phi && n->in_pair == 2)) {
            n->name = s;
            n->len = len;
            return 1;
        }
        s += len > 0 ? len - 1 : 0;
    }
    n->name = n->end;
    n->len = 0;
    return 0;
}

/* The callee of a call line, into name ("" if indirect). */
void ir_callee(const char *rest, char *name, size_t size)
{
    const char *at = strchr(rest, '@');
    name[0] = '\0';
    if (!at)
        return;
    size_t n = 0;
    for (at++; (isalnum((unsigned char)at[n]) || at[n] == '_' || at[n] == '.') && n + 1 < size; n++)
        name[n] = at[n];
    name[n] = '\0';
}

/* Operand k (0, 1, ...) of an operation written "TYPE a, b", into out. */
void ir_operand(const char *rest, int k, char *out, size_t size)
{
    const char *s = rest;
    while (*s == ' ')
        s++;
    s = strchr(s, ' '); /* past the type */
    out[0] = '\0';
    for (int i = 0; s && i < k; i++)
        s = strchr(s, ',') ? strchr(s, ',') + 1 : NULL;
    if (!s)
        return;
    while (*s == ' ')
        s++;
    size_t n = 0;
    while (s[n] && s[n] != ',' && !isspace((unsigned char)s[n]) && n + 1 < size) {
        out[n] = s[n];
        n++;
    }
    out[n] = '\0';
}

/* The value of operand k (0, 1, ...) of an operation whose operands each
 * carry their type ("i1 %c, i64 8, i64 16"; a load's first, its type
 * alone: "i32, i32* %5"), or of element k of a metadata node, into out
 * (the line's end not part of the last); "" past the last. */
void ir_typed_operand(const char *rest, int k, char *out, size_t size)
{
    const char *s = rest;
    for (int i = 0; s && i < k; i++)
        s = strchr(s, ',') ? strchr(s, ',') + 1 : NULL;
    out[0] = '\0';
    if (s)
        ir_typed_value(s, out, size);
    out[strcspn(out, "\n")] = '\0';
}

/* The value of the typed operand that starts at s ("i64 noundef %a"):
 * the last word before the next ',', ')' or ']', into out. */
void ir_typed_value(const char *s, char *out, size_t size)
{
    size_t end = strcspn(s, ",)]"), start = end;
    while (start > 0 && s[start - 1] == ' ')
        start--, end--;
    while (start > 0 && s[start - 1] != ' ' && s[start - 1] != '(' && s[start - 1] != '[')
        start--;
    snprintf(out, size, "%.*s", (int)(end - start), s + start);
}
