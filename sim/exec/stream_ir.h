/*
 * stream_ir.h — what the stream_ir*.c files, which weigh a kernel's IR,
 * share (inside sim/exec only; callers include stream.h, whose
 * stream_annotate is the way in): the function read whole, and only the
 * functions one of them defines and another calls, grouped by the file
 * that defines them.  stream_ir.c's top comment says which file owns what.
 */
#ifndef MCM_STREAM_IR_H
#define MCM_STREAM_IR_H

#include "stream.h"

#include <stddef.h>
#include <stdint.h>

/* ---- the function, read whole (stream_ir_read.c) ------------------------------ */

typedef struct ir_block {
    char label[64];     /* "" for the entry block */
    int id;             /* its instrumentation call's number, or -1 */
    int first, last;    /* its lines in the function: [first, last) */
    char succ[8][64];   /* the labels it may branch to (the first 8) */
    int n_succ;
    int in_loop;        /* on a cycle of the function's flow graph */
    int second_test;    /* the second comparison of a `&&` or `||` (ir_note_second_tests) */
} ir_block;

/* A set of value names ("%7"), searched newest first; or of entries
 * "KEY\tVALUE" (ir_entry_add). */
typedef struct name_set {
    char **names;
    int n, cap;
} name_set;

typedef struct ir_function {
    char **lines;       /* its body's lines (owned) */
    int n_lines, cap_lines;
    ir_block *blocks;
    int n_blocks, cap_blocks;
    name_set free_values; /* registers or constants on the card (stream_ir_values.c) */
    name_set free_ptrs;   /* the step's `t` and args pointer, and addresses into them */
    name_set narrow;      /* values whose upper half is zero (zero extensions, low-word masks) */
    name_set below_p;     /* values known below p (ir_note_below_p) */
    name_set same_as;     /* "%7\tTEXT": a free value and what it computes (ir_same_value) */
    name_set computed;    /* "TEXT\tBLOCK": free arithmetic done, and in which block */
    name_set divisions;   /* "SIGN A B\tBLOCK %Q": divisions done, in which block, their quotient */
    name_set zp_calls;    /* "TEXT\tBLOCK": Z/pZ calls made, and in which block (same_zp_call) */
    name_set thread_fields; /* "%7\tK": an address of field K of the thread (tid, threads, bid, blocks) */
    name_set field_values; /* "%7\tK": field K of the thread, read */
    name_set products;    /* results of multiplications not yet fused into an addition (IMAD) */
    name_set accesses;    /* "ARRAY INDEX\tBLOCK": global accesses made, and in which block */
    name_set offsets;     /* "%7\t%5 COST": %7 = %5 + a constant, and what that addition was charged */
    name_set charged;     /* "%7\tCOST": an integer operation's result, and what it was charged */
    name_set compares;    /* results of comparisons (icmp): predicates on the card */
    name_set sums;        /* additions of the block charged in full, not yet a third operand's (IADD3) */
    name_set in_flight;   /* global reads waited for where their values are used (ir_note_reads_in_flight) */
    int looped_step;      /* the step of a looped kernel (MCM_KERNEL_LOOP; stream_ir.c) */
    int constant_step;    /* a step of a kernel of listed steps (MCM_KERNEL; stream_ir.c): its
                           * number a constant on the card, where MCM_NEXT_ inlines it */
} ir_function;

/* The line's instruction: its opcode, the text after it, and its result's name. */
typedef struct ir_inst {
    char op[32];
    const char *rest;      /* after the opcode and its flags */
    const char *result;    /* "%7" at the line's start, or NULL */
    size_t result_len;
} ir_inst;

/* The table being built: per counted block its weights, and its global
 * reads that are links of a chain (ir_chain_reads_of). */
typedef struct weights {
    uint32_t (*w)[STREAM_FIELDS];
    uint32_t *chain_reads;
    int n, cap, cap_chain;
} weights;

void *ir_alloc(size_t size);
void *ir_grow(void *p, int *cap, int need, size_t size);
void ir_set_add(name_set *set, const char *name, size_t len);
int ir_set_has(const name_set *set, const char *name, size_t len);
void ir_set_clear(name_set *set);
const char *ir_entry_value(const name_set *set, const char *key);
void ir_entry_add(name_set *set, const char *key, const char *value);

void ir_function_begin(ir_function *f);
void ir_function_line(ir_function *f, const char *line);
void ir_function_end(ir_function *f);
void ir_function_free(ir_function *f);

size_t ir_name_length(const char *s);
const char *ir_word_at(const char *s, char *out, size_t size);
int ir_bits_at(const char *s);
int ir_parse_inst(const char *line, ir_inst *in);
int ir_inst_at(const ir_function *f, int line, ir_inst *in);
int ir_call_at(const ir_function *f, int line, ir_inst *in, char *name, size_t size);
void ir_result_name(const ir_inst *in, char *out, size_t size);
const char *ir_first_operand(const ir_inst *in, size_t *len);
void ir_callee(const char *rest, char *name, size_t size);

/* The value names among an instruction's operands, one at a time:
 *     for (ir_operand_names n = ir_operand_names_of(in); ir_next_operand_name(&n);)
 *         ... n.name, n.len ...
 * (its metadata left out; a phi's labels too: they name blocks). */
typedef struct ir_operand_names {
    const char *name; /* the current one, len characters */
    size_t len;
    const char *end;  /* where the operands end */
    int phi, in_pair; /* a phi, and where in its "[ value, %label ]" pair the walk is */
} ir_operand_names;

ir_operand_names ir_operand_names_of(const ir_inst *in);
int ir_next_operand_name(ir_operand_names *n);
void ir_operand(const char *rest, int k, char *out, size_t size);
void ir_typed_operand(const char *rest, int k, char *out, size_t size);
void ir_typed_value(const char *s, char *out, size_t size);

/* ---- the flow graph, definitions and uses (stream_ir_flow.c) ------------------ */

/* Scratch for searches of the flow graph (ir_reaches). */
typedef struct ir_search {
    char *seen;
    int *stack;
} ir_search;

ir_search ir_search_new(const ir_function *f);
void ir_search_free(ir_search *s);
int ir_block_of_label(const ir_function *f, const char *label);
int ir_block_of_line(const ir_function *f, int line);
int ir_reaches(const ir_function *f, int from, int to, int avoid, ir_search *s);
void ir_mark_loops(ir_function *f);
int ir_returns(const ir_function *f, const char *label);
const char *ir_branch_condition(const ir_function *f, const ir_block *b);
int ir_defining_line(const ir_function *f, const char *name, size_t len);
const char *ir_operands_of(const char *line);
const char *ir_next_use(const char *s, const char *name, size_t len);
int ir_uses(const ir_function *f, const char *name);

/* ---- what the function knows of its values (stream_ir_values.c) --------------- */

void ir_note_parameters(ir_function *f, const char *define);
int ir_operands_free(const ir_function *f, const ir_inst *in);
int ir_kernel_invariant(const ir_function *f, const char *name);
int ir_fits(const ir_function *f, const char *v, int bits);
int ir_narrow_value(const ir_function *f, const char *v);
void ir_note_below_p(ir_function *f);
int ir_operands_below_p(const ir_function *f, const ir_inst *in);
void ir_call_argument(const ir_function *f, const ir_inst *in, int k, char *name, char *out, size_t size);
int ir_same_value(const ir_function *f, const ir_inst *in, char *text, size_t size);
int ir_done_before(ir_function *f, name_set *done, const ir_inst *in, int block);
int ir_same_every_pass(const ir_function *f, const char *v, char *text, size_t size);
void ir_note_thread_field(ir_function *f, const ir_inst *in);
void ir_note_thread_read(ir_function *f, const ir_inst *in, const char *ptr, size_t len, double *w);
int ir_note_thread_widened(ir_function *f, const ir_inst *in, double *w);

/* ---- weights (stream_ir_inst.c, stream_ir_calls.c) ---------------------------- */

double ir_width(int bits);
void ir_instruction_cost(ir_function *f, const ir_block *b, const ir_inst *in, const char *next, double *w);
int ir_division_by_a_number(const ir_inst *in, double cost);
int ir_quotient_of(const ir_function *f, const ir_inst *in, int block, char *name, size_t size);
double ir_call_cost(ir_function *f, const ir_inst *in, int block, double *w, int *once, int *is_free);

/* ---- what the card fuses (stream_ir_fused.c) ---------------------------------- */

int ir_combines_compare(const ir_function *f, const ir_inst *in);
double ir_third_operand(ir_function *f, const ir_inst *in, double cost);
int ir_stores_low_word(const ir_function *f, const ir_inst *in);
int ir_makes_private_index(const ir_function *f, const ir_inst *in);

/* ---- a block's longest dependent chain (stream_ir_chain.c) -------------------- */

typedef struct depth_map depth_map;

void ir_note_reads_in_flight(ir_function *f);
depth_map *ir_chains_new(const ir_function *f);
void ir_chain_block_begin(depth_map *d, const ir_block *b);
void ir_chain_step(depth_map *d, const ir_block *b, const ir_inst *in, int line, const double *before,
                   const double *w);
void ir_chain_block_end(depth_map *d, const ir_block *b, double *w);
void ir_chain_reads_of(const ir_function *f, const depth_map *d, weights *t);
void ir_chains_free(depth_map *d);

/* ---- the args' lines of the constant bank (stream_ir_args.c) ------------------ */

#define ARGS_OFFSETS 2 /* an args address: a constant offset, or a select of two */

/* A load of the args in a step: its block, its step (args_lines' steps),
 * its C offsets, its bytes, its TBAA tag's number (-1: none). */
typedef struct args_read {
    int id, step, n_off, bytes, tag;
    long off[ARGS_OFFSETS];
} args_read;

/* A step: its first counted block, and whether its kernel is looped. */
typedef struct args_step {
    int entry, looped;
} args_step;

/* What the annotator gathers for the lines: every step's loads of its
 * args, and the module's metadata ("!N\tTEXT"), which follows the
 * functions in the IR. */
typedef struct args_lines {
    args_read *reads;
    int n_reads, cap_reads;
    args_step *steps;
    int n_steps, cap_steps;
    name_set meta;
} args_lines;

/* The args pointer of a step's `define` line (exec_thread *t, const void
 * *args), into name; 0 (and "") if the function is no step. */
int ir_args_parameter(const char *define, char *name, size_t size);
/* The loads of args pointer `args` ("": none) in function f, read whole. */
void ir_args_note_step(args_lines *a, const ir_function *f, const char *args);
/* A line of the IR outside the functions: its metadata kept. */
void ir_args_note_global(args_lines *a, const char *line);
/* Every step's lines, into constants (blocks of them, by block id). */
void ir_args_lines_of(const args_lines *a, uint32_t *constants, int blocks);
void ir_args_free(args_lines *a);

/* ---- the rules over a weighed function (stream_ir_loops.c, stream_ir_branches.c) */

void ir_note_trip_counts(ir_function *f, weights *t);
void ir_note_step_latch(const ir_function *f, weights *t);
void ir_note_second_tests(ir_function *f);
void ir_note_predicated_bodies(ir_function *f, weights *t);

#endif
