/*
 * stream_ir_flow.c — a function's flow graph and its values' definitions
 * and uses: which block a label or a line is in, which blocks reach which
 * (and so which lie on a cycle, in_loop), which blocks only return, the
 * value a block's branch tests, the line that defines a value, and where a
 * value is used.  Nothing here weighs; the other stream_ir files ask.
 */
#include "stream_ir.h"

#include <stdlib.h>
#include <string.h>

/* ---- the flow graph --------------------------------------------------------------- */

/* Room for a search of f's graph (freed by ir_search_free). */
ir_search ir_search_new(const ir_function *f)
{
    return (ir_search){.seen = malloc((size_t)f->n_blocks + 1),
                       .stack = malloc(sizeof(int) * ((size_t)f->n_blocks * 8 + 1))};
}

void ir_search_free(ir_search *s)
{
    free(s->seen);
    free(s->stack);
}

int ir_block_of_label(const ir_function *f, const char *label)
{
    for (int i = 0; i < f->n_blocks; i++)
        if (!strcmp(f->blocks[i].label, label))
            return i;
    return -1;
}

int ir_block_of_line(const ir_function *f, int line)
{
    for (int i = 0; i < f->n_blocks; i++)
        if (line >= f->blocks[i].first && line < f->blocks[i].last)
            return i;
    return -1;
}

/* Block `to` reachable from block `from` on paths that do not pass through
 * block `avoid` (-1: any path; iterative search). */
int ir_reaches(const ir_function *f, int from, int to, int avoid, ir_search *s)
{
    memset(s->seen, 0, (size_t)f->n_blocks);
    if (avoid >= 0)
        s->seen[avoid] = 1;
    int top = 0;
    s->stack[top++] = from;
    while (top > 0) {
        const ir_block *b = &f->blocks[s->stack[--top]];
        for (int k = 0; k < b->n_succ; k++) {
            int j = ir_block_of_label(f, b->succ[k]);
            if (j < 0 || s->seen[j])
                continue;
            if (j == to)
                return 1;
            s->seen[j] = 1;
            s->stack[top++] = j;
        }
    }
    return 0;
}

/* Each block's in_loop: whether it lies on a cycle of the graph. */
void ir_mark_loops(ir_function *f)
{
    ir_search s = ir_search_new(f);
    for (int i = 0; i < f->n_blocks; i++)
        f->blocks[i].in_loop = ir_reaches(f, i, i, -1, &s);
    ir_search_free(&s);
}

/* The block of `label` only returns (its instructions a ret, and the
 * instrumentation's call). */
int ir_returns(const ir_function *f, const char *label)
{
    int i = ir_block_of_label(f, label);
    if (i < 0)
        return 0;
    for (int l = f->blocks[i].first; l < f->blocks[i].last; l++) {
        ir_inst in;
        if (!ir_inst_at(f, l, &in))
            continue;
        char name[64] = "";
        if (!strcmp(in.op, "call"))
            ir_callee(in.rest, name, sizeof name);
        if (strcmp(in.op, "ret") != 0 && strcmp(name, "__sanitizer_cov_trace_pc") != 0)
            return 0;
    }
    return 1;
}

/* The value block b's conditional branch tests (its name, "%7", within
 * the block's last `br i1` line), or NULL where it ends otherwise. */
const char *ir_branch_condition(const ir_function *f, const ir_block *b)
{
    for (int l = b->last - 1; l >= b->first; l--) {
        const char *br = strstr(f->lines[l], "  br i1 %");
        if (br)
            return br + 8;
    }
    return NULL;
}

/* ---- definitions and uses --------------------------------------------------------- */

/* The line that defines value `name` (its first len characters), or -1. */
int ir_defining_line(const ir_function *f, const char *name, size_t len)
{
    for (int l = 0; l < f->n_lines; l++) {
        const char *s = f->lines[l];
        while (*s == ' ')
            s++;
        if (ir_name_length(s) == len && !strncmp(s, name, len) && !strncmp(s + len, " = ", 3))
            return l;
    }
    return -1;
}

/* Line `line`'s operands: past its result ("  %7 = "), if it has one. */
const char *ir_operands_of(const char *line)
{
    const char *eq = strstr(line, " = ");
    return eq && line[0] == ' ' && line[2] == '%' ? eq : line;
}

/* The next use of value `name` (of length len) as an operand at or after
 * s, or NULL. */
const char *ir_next_use(const char *s, const char *name, size_t len)
{
    for (s = strstr(s, name); s && ir_name_length(s) != len; s = strstr(s + len, name))
        ;
    return s;
}

/* The uses of value `name` as an operand in the function, at most 2. */
int ir_uses(const ir_function *f, const char *name)
{
    size_t len = strlen(name);
    int n = 0;
    for (int l = 0; l < f->n_lines && n < 2; l++)
        for (const char *s = ir_next_use(ir_operands_of(f->lines[l]), name, len); s;
             s = ir_next_use(s + len, name, len))
            n++;
    return n;
}
