/*
 * stream_ir.c — a kernel's basic blocks, numbered and weighed in card
 * instructions, from the LLVM IR clang makes of it (see stream.h): the
 * annotator, stream_annotate, and the clang options it reads the IR of.
 *
 * clang's coverage instrumentation (stream_clang_flags) puts a call of
 * __sanitizer_cov_trace_pc() at the top of every basic block.  Reading the
 * IR one function at a time, the k-th such call becomes
 * mcm_stream_block(k), and block k gets the weight of its instructions:
 * what they become on the card (sm_90, nvcc -O3), and its calls of the
 * counted exec_* functions.  The table of weights is appended to the IR as
 * @mcm_stream_table (and its length, @mcm_stream_blocks), so the object
 * compiled from it carries it; beside it @mcm_stream_chain_reads, per
 * block the global reads that are links of its chains, and
 * @mcm_stream_constants, per block the lines of the card's constant bank
 * its loads of the args read (stream_ir_args.c).
 *
 * A function is weighed in three passes (weigh_function): what the whole
 * function tells before its blocks are weighed (its loops, its fused
 * second tests, its values known below p, its reads in flight); each
 * block, instruction by instruction, its weights and its longest
 * dependent chain; then the rules that move weight between the weighed
 * blocks (a loop's trip count, a predicated body).  The rules a student
 * can check against a kernel are at the top of the file that owns them
 * (validate/notes/instruction-stream.md derives each from nvcc's code):
 *   stream_ir_read.c      the IR read: a function's lines and blocks, a
 *                         line's instruction, the sets of names noted
 *   stream_ir_flow.c      the flow graph: reaching, loops, definitions, uses
 *   stream_ir_values.c    what is known of values: free, narrow, below p,
 *                         computed before, the thread's fields
 *   stream_ir_inst.c      one instruction's weight (the integer rules,
 *                         conversions, comparisons, branches)
 *   stream_ir_fused.c     what the card fuses or narrows (ISETP, IADD3, ...)
 *   stream_ir_calls.c     one call's weight (the table of exec_* costs)
 *   stream_ir_chain.c     a block's longest dependent chain; reads in flight
 *   stream_ir_loops.c     a loop nvcc unrolls: its trip count; a looped
 *                         kernel's latch
 *   stream_ir_branches.c  a fused `&&`; a predicated small body
 *   stream_ir_args.c      the args' lines of the card's constant bank
 * stream_ir.h declares what they share.
 */
#include "stream_ir.h"
#include "fail.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

const char *const stream_clang_flags[] = {
    "-O2", "-fno-vectorize", "-fno-slp-vectorize", /* the card runs one thread per lane: no SIMD */
    "-DMCM_COUNTED", "-Wno-pass-failed",            /* MCM_UNROLL unrolls whole, as nvcc (mcm_kernel.h) */
    "-mllvm", "-unroll-runtime", "-mllvm", "-unroll-max-count=4", /* a loop of unknown trips by 4, as nvcc */
    "-fsanitize-coverage=bb,no-prune,trace-pc",     /* a call at the top of every basic block */
    "-fno-plt",                                     /* mcmsim's functions called through the GOT */
    "-S", "-emit-llvm", NULL};

#define TRACE_CALL "@__sanitizer_cov_trace_pc()"

/* ---- weighing a function ---------------------------------------------------------- */

/* Block i's instructions weighed and its chain found, into the table at
 * its id (if it has one). */
static void weigh_block(ir_function *f, int i, depth_map *d, weights *t)
{
    ir_block *b = &f->blocks[i];
    double w[STREAM_FIELDS] = {0};
    const char *next = i + 1 < f->n_blocks ? f->blocks[i + 1].label : NULL;
    ir_set_clear(&f->products); /* a product is fused into an addition of its own block, */
    ir_set_clear(&f->sums);     /* and an addition into one more (IADD3) */
    ir_chain_block_begin(d, b);
    for (int l = b->first; l < b->last; l++) {
        ir_inst in;
        if (!ir_inst_at(f, l, &in))
            continue;
        double before[STREAM_FIELDS];
        memcpy(before, w, sizeof w);
        ir_instruction_cost(f, b, &in, next, w);
        ir_chain_step(d, b, &in, l, before, w);
    }
    ir_chain_block_end(d, b, w);
    if (b->id < 0)
        return;
    for (int k = 0; k < STREAM_FIELDS; k++)
        t->w[b->id][k] = k == STREAM_READS ? (uint32_t)w[k] : (uint32_t)(w[k] + 0.5);
}

/* The function's blocks weighed, into the table at their ids. */
static void weigh_function(ir_function *f, weights *t)
{
    ir_mark_loops(f);
    ir_note_second_tests(f);
    ir_note_below_p(f);
    ir_note_reads_in_flight(f);
    depth_map *d = ir_chains_new(f);
    for (int i = 0; i < f->n_blocks; i++)
        weigh_block(f, i, d, t);
    ir_chain_reads_of(f, d, t);
    ir_note_trip_counts(f, t);
    ir_note_step_latch(f, t);
    ir_note_predicated_bodies(f, t);
    ir_chains_free(d);
}

/* ---- the IR's globals: which kernels are looped ----------------------------------- */

/* The length of a global's name at s ("@ping_pong_steps_"), 0 if none. */
static size_t global_name_length(const char *s)
{
    size_t n = 1;
    if (*s != '@')
        return 0;
    while (isalnum((unsigned char)s[n]) || s[n] == '_' || s[n] == '.' || s[n] == '$')
        n++;
    return n > 1 ? n : 0;
}

/* A line of the IR's globals that makes a kernel looped: the mcm_kernel
 * of MCM_KERNEL_LOOP, {name, 1, NAME_steps_, 1, NULL} (its last i32, the
 * flag `looped`, 1), whose steps array goes into `arrays`; then that
 * array's line, whose one step function goes into `steps`.  The same for
 * a kernel of listed steps (MCM_KERNEL: the flag 0), into `listed_arrays`
 * and, every step function of its array, `listed_steps`. */
static void note_looped_kernel(const char *line, name_set *arrays, name_set *steps, name_set *listed_arrays,
                               name_set *listed_steps)
{
    size_t len = global_name_length(line);
    if (len == 0)
        return;
    if (ir_set_has(arrays, line, len)) {
        const char *step = strrchr(line, '@');
        ir_set_add(steps, step, global_name_length(step));
        return;
    }
    if (ir_set_has(listed_arrays, line, len)) {
        for (const char *step = strchr(line + len, '@'); step; step = strchr(step + 1, '@'))
            ir_set_add(listed_steps, step, global_name_length(step));
        return;
    }
    const char *decl = strstr(line, " = internal constant %struct.mcm_kernel {");
    const char *array = decl ? strstr(decl, "_steps_") : NULL, *looped = NULL;
    if (!array)
        return;
    while (array > decl && array[-1] != '@')
        array--;
    for (const char *i32 = strstr(decl, ", i32 "); i32; i32 = strstr(i32 + 1, ", i32 "))
        looped = i32;
    if (array > decl && looped > array)
        ir_set_add(atoi(looped + 6) == 1 ? arrays : listed_arrays, array - 1, global_name_length(array - 1));
}

/* ---- the annotated IR ------------------------------------------------------------- */

/* What stream_annotate holds as it reads. */
typedef struct annotator {
    ir_function f;                      /* the function being read */
    int in_function;
    weights t;                          /* every block's weights so far */
    name_set looped_arrays, looped_steps; /* note_looped_kernel */
    name_set listed_arrays, listed_steps;
    char args[64];                      /* the function's args pointer, if a step */
    args_lines lines;                   /* the steps' reads of their args (stream_ir_args.c) */
} annotator;

static void annotator_free(annotator *a)
{
    ir_function_free(&a->f);
    free(a->t.w);
    free(a->t.chain_reads);
    ir_set_clear(&a->looped_arrays);
    ir_set_clear(&a->looped_steps);
    ir_set_clear(&a->listed_arrays);
    ir_set_clear(&a->listed_steps);
    free(a->looped_arrays.names);
    free(a->looped_steps.names);
    free(a->listed_arrays.names);
    free(a->listed_steps.names);
    ir_args_free(&a->lines);
}

/* An instrumentation call at `trace` in `line`: the next number, written
 * as mcm_stream_block's argument; the block's weight goes to its first. */
static void number_block(annotator *a, const char *line, const char *trace, FILE *out)
{
    weights *t = &a->t;
    ir_function *f = &a->f;
    t->w = ir_grow(t->w, &t->cap, t->n + 1, sizeof *t->w);
    t->chain_reads = ir_grow(t->chain_reads, &t->cap_chain, t->n + 1, sizeof *t->chain_reads);
    memset(t->w[t->n], 0, sizeof t->w[t->n]);
    t->chain_reads[t->n] = 0;
    if (f->blocks[f->n_blocks - 1].id < 0)
        f->blocks[f->n_blocks - 1].id = t->n;
    fprintf(out, "%.*s@mcm_stream_block(i32 %d)%s", (int)(trace - line), line, t->n++, trace + strlen(TRACE_CALL));
}

/* A function's `define` line: a new function, its parameters noted, and
 * whether it is the step of a looped kernel, or of a kernel of listed
 * steps (and of no looped one). */
static void begin_function(annotator *a, const char *line)
{
    a->in_function = 1;
    ir_function_begin(&a->f);
    ir_note_parameters(&a->f, line);
    const char *name = strchr(line, '@');
    a->f.looped_step = name && ir_set_has(&a->looped_steps, name, global_name_length(name));
    a->f.constant_step =
        name && !a->f.looped_step && ir_set_has(&a->listed_steps, name, global_name_length(name));
    ir_args_parameter(line, a->args, sizeof a->args);
}

/* The table's arrays of one i32 a block, @NAME, from v (NULL: zeros). */
static void write_words(FILE *out, const char *name, const uint32_t *v, int n)
{
    fprintf(out, "@%s = constant [%d x i32] ", name, n);
    if (n == 0)
        fprintf(out, "zeroinitializer\n");
    for (int i = 0; i < n; i++)
        fprintf(out, "%si32 %u%s", i ? ", " : "[", v ? v[i] : 0, i + 1 == n ? "]\n" : "");
}

static int write_table(FILE *out, const weights *t, const args_lines *lines)
{
    fprintf(out, "\n; mcmsim: each basic block's card instructions and calls (sim/exec/stream.h)\n");
    fprintf(out, "@mcm_stream_blocks = constant i32 %d\n", t->n);
    fprintf(out, "@mcm_stream_table = constant [%d x [%d x i32]] ", t->n, STREAM_FIELDS);
    if (t->n == 0)
        fprintf(out, "zeroinitializer\n");
    for (int i = 0; i < t->n; i++) {
        fprintf(out, "%s[%d x i32] [", i ? ", " : "[", STREAM_FIELDS);
        for (int k = 0; k < STREAM_FIELDS; k++)
            fprintf(out, "%si32 %u", k ? ", " : "", t->w[i][k]);
        fprintf(out, "]%s", i + 1 == t->n ? "]\n" : "");
    }
    write_words(out, "mcm_stream_chain_reads", t->chain_reads, t->n);
    uint32_t *constants = calloc((size_t)t->n + 1, sizeof *constants);
    if (!constants)
        return -1;
    ir_args_lines_of(lines, constants, t->n);
    write_words(out, "mcm_stream_constants", constants, t->n);
    free(constants);
    return ferror(out) ? -1 : 0;
}

/* Whether an IR line names the pointer type `ptr` (LLVM's opaque
 * pointers; typed ones are spelled `i32*`). */
static int names_opaque_pointer(const char *line)
{
    for (const char *s = strstr(line, "ptr"); s; s = strstr(s + 1, "ptr"))
        if (s > line && strchr(" (,[<", s[-1]) && strchr(" ,)>]\n", s[3]))
            return 1;
    return 0;
}

/* mcm_stream_block's steps (stream.c) in IR, an internal function that
 * the compiler inlines at every call: the running counter read from
 * mcmsim's thread-local pointer (initial-exec: two loads), its fields at
 * stream.h's offsets (STREAM_AT_*, STREAM_PASS_*), no call.  Pointer
 * types spelled as the IR around spells them (`opaque`: ptr). */
static int write_counter(FILE *out, int opaque)
{
    const char *p8 = opaque ? "ptr" : "i8*", *p32 = opaque ? "ptr" : "i32*", *pp8 = opaque ? "ptr" : "i8**",
               *pp32 = opaque ? "ptr" : "i32**";
    fprintf(out, "\n; mcmsim: a basic block passed, counted inline (sim/exec/stream.c, mcm_stream_block)\n");
    fprintf(out, "@mcm_stream_running = external thread_local(initialexec) global %s\n", p8);
    fprintf(out, "define internal void @mcm_stream_block(i32 %%id) alwaysinline nounwind {\n");
    fprintf(out, "entry:\n  %%c = load %s, %s @mcm_stream_running\n", p8, pp8);
    fprintf(out, "  %%on = icmp ne %s %%c, null\n  br i1 %%on, label %%range, label %%done\n", p8);
    /* a field of the counter: %NAME.p its address, %NAME its value */
#define FIELD(name, at, type, ptype)                                                                             \
    fprintf(out, "  %%" name ".b = getelementptr inbounds i8, %s %%c, i64 %d\n", p8, at);                         \
    fprintf(out, "  %%" name ".p = bitcast %s %%" name ".b to %s\n", p8, ptype);                                  \
    fprintf(out, "  %%" name " = load %s, %s %%" name ".p\n", type, ptype)
    fprintf(out, "range:\n");
    FIELD("blocks", STREAM_AT_BLOCKS, "i32", p32);
    fprintf(out, "  %%in = icmp ult i32 %%id, %%blocks\n  br i1 %%in, label %%look, label %%done\n");
    fprintf(out, "look:\n");
    FIELD("passes", STREAM_AT_PASSES, p32, pp32);
    FIELD("thread", STREAM_AT_THREAD, "i32", p32);
    FIELD("last", STREAM_AT_LAST, "i32", p32);
    fprintf(out, "  %%idx = zext i32 %%id to i64\n  %%slot = mul i64 %%idx, %d\n", STREAM_PASS_WORDS);
    /* a word of the block's passes: %NAME.p its address */
#define PASS(name, word)                                                                                         \
    fprintf(out, "  %%" name ".w = add i64 %%slot, %d\n", word);                                                \
    fprintf(out, "  %%" name ".p = getelementptr inbounds i32, %s %%passes, i64 %%" name ".w\n", p32)
    PASS("b.thread", STREAM_PASS_THREAD);
    PASS("b.pass", STREAM_PASS_PASS);
    PASS("b.back", STREAM_PASS_BACK);
    PASS("b.most", STREAM_PASS_MOST);
    PASS("b.most_back", STREAM_PASS_MOST_BACK);
    fprintf(out, "  %%b.thread = load i32, %s %%b.thread.p\n", p32);
    fprintf(out, "  %%first = icmp ne i32 %%b.thread, %%thread\n  br i1 %%first, label %%first_pass, label %%again\n");
    /* the thread's first pass: its passes 1, no back edge; the block joins
     * the warp's (its most 1) when no thread passed it yet, else its most
     * stays (1 at least) */
    fprintf(out, "first_pass:\n  %%most0 = load i32, %s %%b.most.p\n", p32);
    fprintf(out, "  store i32 %%thread, %s %%b.thread.p\n  store i32 1, %s %%b.pass.p\n", p32, p32);
    fprintf(out, "  store i32 0, %s %%b.back.p\n", p32);
    fprintf(out, "  %%untouched = icmp eq i32 %%most0, 0\n  br i1 %%untouched, label %%touch, label %%tail\n");
    fprintf(out, "touch:\n  store i32 1, %s %%b.most.p\n", p32);
    FIELD("touched", STREAM_AT_TOUCHED, p32, pp32);
    FIELD("n_touched", STREAM_AT_N_TOUCHED, "i32", p32);
    fprintf(out, "  %%n_touched1 = add i32 %%n_touched, 1\n  store i32 %%n_touched1, %s %%n_touched.p\n", p32);
    fprintf(out, "  %%at = sext i32 %%n_touched to i64\n");
    fprintf(out, "  %%at.p = getelementptr inbounds i32, %s %%touched, i64 %%at\n", p32);
    fprintf(out, "  store i32 %%id, %s %%at.p\n  br label %%tail\n", p32);
    /* again: from a block after it, a loop's back edge, taken */
    fprintf(out, "again:\n  %%backward = icmp ugt i32 %%last, %%id\n");
    fprintf(out, "  br i1 %%backward, label %%back, label %%count\n");
    fprintf(out, "back:\n  %%back0 = load i32, %s %%b.back.p\n  %%back1 = add i32 %%back0, 1\n", p32);
    fprintf(out, "  store i32 %%back1, %s %%b.back.p\n  %%most_back0 = load i32, %s %%b.most_back.p\n", p32, p32);
    fprintf(out, "  %%more_back = icmp ugt i32 %%back1, %%most_back0\n");
    fprintf(out, "  %%most_back1 = select i1 %%more_back, i32 %%back1, i32 %%most_back0\n");
    fprintf(out, "  store i32 %%most_back1, %s %%b.most_back.p\n  br label %%count\n", p32);
    fprintf(out, "count:\n  %%pass0 = load i32, %s %%b.pass.p\n  %%pass1 = add i32 %%pass0, 1\n", p32);
    fprintf(out, "  store i32 %%pass1, %s %%b.pass.p\n  %%most1 = load i32, %s %%b.most.p\n", p32, p32);
    fprintf(out, "  %%more = icmp ugt i32 %%pass1, %%most1\n  %%most2 = select i1 %%more, i32 %%pass1, i32 %%most1\n");
    fprintf(out, "  store i32 %%most2, %s %%b.most.p\n  br label %%tail\n", p32);
    fprintf(out, "tail:\n  %%next = add i32 %%id, 1\n  store i32 %%next, %s %%last.p\n", p32);
    FIELD("reads", STREAM_AT_READS_IN_PASS, "i32", p32);
    fprintf(out, "  store i32 0, %s %%reads.p\n  br label %%done\n", p32);
    fprintf(out, "done:\n  ret void\n}\n");
#undef FIELD
#undef PASS
    return ferror(out) ? -1 : 0;
}

int stream_annotate(FILE *in, const char *where, FILE *out)
{
    annotator a = {0};
    char *line = NULL;
    size_t cap = 0;
    int number = 0, opaque = 0;
    for (ssize_t len; (len = getline(&line, &cap, in)) >= 0;) {
        number++;
        char *trace = strstr(line, TRACE_CALL);
        if (trace && !strncmp(line, "declare", 7))
            continue; /* defined at the end (write_counter) */
        opaque |= names_opaque_pointer(line);
        if (trace && !a.in_function) {
            free(line);
            annotator_free(&a);
            return fail("%s:%d: an instrumentation call outside a function (not clang's IR?)", where, number);
        }
        if (trace) {
            number_block(&a, line, trace, out);
            continue;
        }
        fputs(line, out);
        if (!a.in_function && !strncmp(line, "define ", 7))
            begin_function(&a, line);
        else if (!a.in_function) {
            note_looped_kernel(line, &a.looped_arrays, &a.looped_steps, &a.listed_arrays, &a.listed_steps);
            ir_args_note_global(&a.lines, line);
        } else if (line[0] == '}') { /* the function's end */
            ir_function_end(&a.f);
            weigh_function(&a.f, &a.t);
            ir_args_note_step(&a.lines, &a.f, a.args);
            a.in_function = 0;
        } else {
            ir_function_line(&a.f, line);
        }
    }
    free(line);
    int rc = a.in_function ? fail("%s: ends inside a function (not clang's IR?)", where)
                           : write_table(out, &a.t, &a.lines) < 0 ? -1 : write_counter(out, opaque);
    if (rc < 0 && !fail_message()[0])
        fail("%s: cannot write the counted IR", where);
    annotator_free(&a);
    return rc;
}
