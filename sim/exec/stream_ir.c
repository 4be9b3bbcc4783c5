/*
 * stream_ir.c — a kernel's basic blocks, numbered and weighed in card
 * instructions, from the LLVM IR clang makes of it (see stream.h).
 *
 * clang's coverage instrumentation (stream_clang_flags) puts a call of
 * __sanitizer_cov_trace_pc() at the top of every basic block.  Reading the
 * IR one function at a time, the k-th such call becomes
 * mcm_stream_block(k), and block k gets the weight of its instructions:
 * what they become on the card (sm_90, nvcc -O3; the table below), and
 * its calls of the counted exec_* functions.  The table of weights is
 * appended to the IR as @mcm_stream_table (and its length,
 * @mcm_stream_blocks), so the object compiled from it carries it; beside
 * it @mcm_stream_chain_reads, per block the global reads that are links
 * of its chains (chain_reads_of).
 *
 * The rules a student can check against a kernel (validate/notes/
 * instruction-stream.md derives each from nvcc's code for small kernels):
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
 *    accesses' indices is on 32 bits (a shared-memory address is);
 *  - a comparison or a choice (select) as the operation on its type; a
 *    boolean of a comparison (`&&`, `||`, a negation) nothing, its ISETP
 *    combines it (one a comparison); a conditional branch one
 *    instruction, a jump to the block that follows none (the code falls
 *    through), to another one;
 *  - the thread's indices and the kernel's args (what a step reads through
 *    its `t` and its args pointer) are registers and constants on the
 *    card: reading them costs nothing, nor does arithmetic on them alone
 *    inside a loop (the compiler does it once, before the loop), nor the
 *    same arithmetic on them a second time (clang reloads an arg after
 *    each call and computes again; nvcc, whose args cannot change, once);
 *  - conversions between widths, phi nodes and address arithmetic with
 *    constant offsets cost nothing (they become register names and
 *    instruction offsets);
 *  - what nvcc's code does besides (validate/notes/instruction-stream.md,
 *    from the SASS of the case studies' kernels): a kernel reads each
 *    thread index it uses once, and widens it once (the block's
 *    STREAM_READS bits, stream.h); bid is a 32-bit register, so that
 *    bid·ℓ is two IMADs; an addition of a product of its block is the
 *    product's IMAD; the memory descriptor and each array's base are
 *    uniform registers loaded once a kernel; an access to the address of
 *    one before it in its block, or at a constant offset from it or from
 *    the array's base, is its LDG or STG alone; a Z/pZ product by an arg
 *    of 64 bits tests its high word; a step's return, in a step followed
 *    by another, is a branch the card brackets with BSSY and BSYNC; a
 *    Z/pZ operation of the same operands as one before it in its block is
 *    computed once;
 *  - a loop of an int counter stepping by a variable (`i += t->threads`)
 *    whose body is small, which nvcc unrolls by 4 and clang leaves rolled:
 *    its trip count, a division, before it ("A loop nvcc unrolls", below;
 *    an int clang widened is told from a long by its addition without
 *    `nsw`, widened_int_step); in the later steps of a looped kernel,
 *    before the loop over the steps, in every warp
 *    (hoisted_before_the_steps);
 *  - a small body of memory accesses an `if` skips: predicated, issued by
 *    every warp that reaches the `if` (note_predicated_bodies);
 *    the second test of a `&&` or `||` that clang makes a block of its
 *    own: its comparison alone, fused into the first test's predicate
 *    (note_second_tests);
 *  - each block's longest dependent chain, by class (below, "a block's
 *    longest dependent chain"), a global read waited for where its value
 *    is first used; a Z/pZ sum or difference after the result it waits
 *    for, the tail alone (ZP_SUM_TAIL);
 *  - a call of exec_* costs what its CUDA twin in mcm_kernel_cuda.cuh
 *    does on its usual path (CALL_COSTS below); a Z/pZ addition or
 *    subtraction of two values known below p (results of Z/pZ calls,
 *    constants below p, and phis and selects of them) skips its range
 *    checks, as the CUDA twin does once the compiler knows its operands
 *    below p (MCM_BELOW_P_), and costs the ":results" row; one of whose
 *    operands alone is known below p checks the other's range only, the
 *    ":one_result" row (plain division's `lead − q·b`).
 * A value's name (%7) and its width are all the reader needs: it does not
 * parse LLVM IR in general, only the lines clang -O2 writes for C.
 */
#include "stream.h"
#include "fail.h"
#include "mcm_kernel.h" /* MCM_PRIME: the p the CUDA build tells the compiler of */

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <sys/types.h>
#include <stdlib.h>
#include <string.h>

const char *const stream_clang_flags[] = {
    "-O2", "-fno-vectorize", "-fno-slp-vectorize", /* the card runs one thread per lane: no SIMD */
    "-DMCM_COUNTED", "-Wno-pass-failed",            /* MCM_UNROLL unrolls whole, as nvcc (mcm_kernel.h) */
    "-mllvm", "-unroll-runtime", "-mllvm", "-unroll-max-count=4", /* a loop of unknown trips by 4, as nvcc */
    "-fsanitize-coverage=bb,no-prune,trace-pc",     /* a call at the top of every basic block */
    "-fno-plt",                                     /* mcmsim's functions called through the GOT */
    "-S", "-emit-llvm", NULL};

/* ---- what each call costs ------------------------------------------------------ */

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
    {"__syncthreads", 1, STREAM_INST},   /* per warp: BAR.SYNC between two steps */
};
#define N_CALL_COSTS (int)(sizeof CALL_COSTS / sizeof CALL_COSTS[0])

double stream_call_cost(const char *name)
{
    for (int i = 0; i < N_CALL_COSTS; i++)
        if (strcmp(CALL_COSTS[i].name, name) == 0)
            return CALL_COSTS[i].inst;
    return -1;
}

/* ---- one function, read whole ------------------------------------------------- */

typedef struct ir_block {
    char label[64];     /* "" for the entry block */
    int id;             /* its instrumentation call's number, or -1 */
    int first, last;    /* its lines in the function: [first, last) */
    char succ[8][64];   /* the labels it may branch to (the first 8) */
    int n_succ;
    int in_loop;        /* on a cycle of the function's flow graph */
    int second_test;    /* the second comparison of a `&&` or `||` (note_second_tests) */
} ir_block;

/* A set of value names ("%7"), searched newest first. */
typedef struct name_set {
    char **names;
    int n, cap;
} name_set;

typedef struct ir_function {
    char **lines;       /* its body's lines (owned) */
    int n_lines, cap_lines;
    ir_block *blocks;
    int n_blocks, cap_blocks;
    name_set free_values; /* registers or constants on the card (see top) */
    name_set free_ptrs;   /* the step's `t` and args pointer, and addresses into them */
    name_set narrow;      /* values whose upper half is zero (zero extensions, low-word masks) */
    name_set below_p;     /* values known below p (note_below_p) */
    name_set same_as;     /* "%7\tTEXT": a free value and what it computes (same_value) */
    name_set computed;    /* "TEXT\tBLOCK": free arithmetic done, and in which block */
    name_set divisions;   /* "SIGN A B\tBLOCK": divisions done, and in which block */
    name_set zp_calls;    /* "TEXT\tBLOCK": Z/pZ calls made, and in which block (same_zp_call) */
    name_set thread_fields; /* "%7\tK": an address of field K of the thread (tid, threads, bid, blocks) */
    name_set field_values; /* "%7\tK": field K of the thread, read */
    name_set products;    /* results of multiplications not yet fused into an addition (IMAD) */
    name_set accesses;    /* "ARRAY INDEX\tBLOCK": global accesses made, and in which block */
    name_set offsets;     /* "%7\t%5 COST": %7 = %5 + a constant, and what that addition was charged */
    name_set compares;    /* results of comparisons (icmp): predicates on the card */
    name_set sums;        /* additions of the block charged in full, not yet a third operand's (IADD3) */
    name_set in_flight;   /* global reads waited for where their values are used (note_reads_in_flight) */
    int looped_step;      /* the step of a looped kernel (MCM_KERNEL_LOOP; note_looped_kernel) */
} ir_function;

static void *grow(void *p, int *cap, int need, size_t size)
{
    if (need <= *cap)
        return p;
    *cap = *cap ? 2 * *cap : 64;
    if (*cap < need)
        *cap = need;
    p = realloc(p, size * (size_t)*cap);
    if (!p) {
        fprintf(stderr, "mcmsim: out of memory reading a kernel's IR\n");
        exit(70);
    }
    return p;
}

static void set_add(name_set *set, const char *name, size_t len)
{
    set->names = grow(set->names, &set->cap, set->n + 1, sizeof *set->names);
    char *copy = malloc(len + 1);
    memcpy(copy, name, len);
    copy[len] = '\0';
    set->names[set->n++] = copy;
}

static int set_has(const name_set *set, const char *name, size_t len)
{
    for (int i = set->n - 1; i >= 0; i--)
        if (strlen(set->names[i]) == len && memcmp(set->names[i], name, len) == 0)
            return 1;
    return 0;
}

static void set_clear(name_set *set)
{
    for (int i = 0; i < set->n; i++)
        free(set->names[i]);
    set->n = 0;
}

/* The function's name sets, each cleared and freed alike. */
#define FUNCTION_SETS(X)                                                                                  \
    X(free_values) X(free_ptrs) X(narrow) X(below_p) X(same_as) X(computed) X(divisions) X(zp_calls)     \
    X(thread_fields) X(field_values) X(products) X(accesses) X(offsets) X(compares) X(sums) X(in_flight)

static void function_clear(ir_function *f)
{
    for (int i = 0; i < f->n_lines; i++)
        free(f->lines[i]);
    f->n_lines = f->n_blocks = 0;
#define CLEAR_SET(name) set_clear(&f->name);
    FUNCTION_SETS(CLEAR_SET)
#undef CLEAR_SET
}

static void function_free(ir_function *f)
{
    function_clear(f);
    free(f->lines);
    free(f->blocks);
#define FREE_SET(name) free(f->name.names);
    FUNCTION_SETS(FREE_SET)
#undef FREE_SET
}

/* ---- small readers of one line ------------------------------------------------ */

/* A value name starting at s ("%7", "%x.y"): its length, 0 if none (or a
 * type's name, "%struct.gmem_array"). */
static size_t name_length(const char *s)
{
    if (*s != '%' || !strncmp(s, "%struct.", 8) || !strncmp(s, "%union.", 7) || s[1] == '"')
        return 0;
    size_t n = 1;
    while (isalnum((unsigned char)s[n]) || s[n] == '.' || s[n] == '_' || s[n] == '$' || s[n] == '-')
        n++;
    return n > 1 ? n : 0;
}

/* The word at s (letters, digits, '.', '_'), into out. */
static const char *word_at(const char *s, char *out, size_t size)
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
static int bits_at(const char *s)
{
    for (; *s && *s != ','; s++) {
        if (*s == 'i' && isdigit((unsigned char)s[1]) && (s[-1] == ' ' || s[-1] == '<'))
            return atoi(s + 1);
        if (*s == '*' || strncmp(s, "ptr", 3) == 0)
            return 64;
    }
    return 32;
}

/* Instructions of an integer operation on `bits` bits: one per 32. */
static double width(int bits)
{
    return bits <= 32 ? 1 : bits <= 64 ? 2 : 4;
}

/* The line's instruction: its opcode, the text after it, and its result's name. */
typedef struct ir_inst {
    char op[32];
    const char *rest;      /* after the opcode and its flags */
    const char *result;    /* "%7" at the line's start, or NULL */
    size_t result_len;
} ir_inst;

static int parse_inst(const char *line, ir_inst *in)
{
    const char *s = line;
    while (*s == ' ')
        s++;
    in->result = NULL;
    in->result_len = name_length(s);
    if (in->result_len > 0) {
        in->result = s;
        s = strstr(s, " = ");
        if (!s)
            return -1;
        s += 3;
    }
    const char *after = word_at(s, in->op, sizeof in->op);
    while (!strcmp(in->op, "tail") || !strcmp(in->op, "musttail") || !strcmp(in->op, "notail"))
        after = word_at(after, in->op, sizeof in->op);
    for (;;) { /* flags that change nothing here */
        char flag[32];
        const char *next = word_at(after, flag, sizeof flag);
        if (!strcmp(flag, "nuw") || !strcmp(flag, "nsw") || !strcmp(flag, "exact") || !strcmp(flag, "inbounds") ||
            !strcmp(flag, "fast") || !strcmp(flag, "volatile") || !strcmp(flag, "disjoint"))
            after = next;
        else
            break;
    }
    in->rest = after;
    return in->op[0] ? 0 : -1;
}

/* The name of in's result ("%7"), as a string; "" if it has none. */
static void result_name(const ir_inst *in, char *out, size_t size)
{
    snprintf(out, size, "%.*s", in->result ? (int)in->result_len : 0, in->result ? in->result : "");
}

/* Every value name among the operands of the line (after its result) is
 * in the function's free values (constants need no check). */
static int operands_free(const ir_function *f, const ir_inst *in)
{
    const char *end = strstr(in->rest, ", !"); /* metadata: not operands */
    int phi = !strcmp(in->op, "phi"), in_pair = 0;
    for (const char *s = in->rest; *s && (!end || s < end); s++) {
        if (phi && (*s == '[' || *s == ','))
            in_pair = *s == '[' ? 1 : in_pair ? 2 : 0; /* [ value, label ] */
        size_t len = name_length(s);
        if (len == 0)
            continue;
        if (phi && in_pair == 2) { /* a predecessor's label, not a value */
            s += len - 1;
            continue;
        }
        if (!set_has(&f->free_values, s, len) && !set_has(&f->free_ptrs, s, len))
            return 0;
        s += len - 1;
    }
    return 1;
}

/* The first value name among the operands (the pointer of a load, the
 * base of a getelementptr or cast). */
static const char *first_operand(const ir_inst *in, size_t *len)
{
    for (const char *s = in->rest; *s; s++)
        if ((*len = name_length(s)) > 0)
            return s;
    return NULL;
}

/* A getelementptr whose indices are all constants: no value name after
 * its base's. */
static int constant_offsets(const char *rest)
{
    int names = 0;
    for (const char *s = rest; *s && !(*s == '!' && s[-1] == ' '); s++) { /* up to the metadata */
        size_t len = name_length(s);
        if (len > 0 && ++names > 1)
            return 0;
        s += len > 0 ? len - 1 : 0;
    }
    return 1;
}

/* The callee of a call line, into name ("" if indirect). */
static void callee(const char *rest, char *name, size_t size)
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

/* ---- the cost of one instruction ---------------------------------------------- */

/* Operand k (0, 1, ...) of an operation written "TYPE a, b", into out. */
static void operand(const char *rest, int k, char *out, size_t size)
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

/* Operand text `v` holds no more than `bits` low bits: a narrow value (a
 * zero extension, a mask of the low word) or a constant below 2^bits. */
static int fits(const ir_function *f, const char *v, int bits)
{
    if (v[0] == '%')
        return set_has(&f->narrow, v, strlen(v)) && bits >= 32;
    if (!isdigit((unsigned char)v[0]))
        return 0;
    return bits >= 64 || strtoull(v, NULL, 10) < (1ull << bits);
}

/* An integer operation's instructions (see the top): `bits` its width. */
static double integer_cost(ir_function *f, const ir_inst *in, int bits)
{
    const char *op = in->op;
    char a[64], b[64];
    operand(in->rest, 0, a, sizeof a);
    operand(in->rest, 1, b, sizeof b);
    int low_word = bits > 32 && !strcmp(op, "and") && !strcmp(b, bits == 64 ? "4294967295" : "18446744073709551615");
    if (low_word || (bits > 32 && !strcmp(op, "zext"))) {
        if (in->result) /* its high half is zero: a narrow value */
            set_add(&f->narrow, in->result, in->result_len);
        return 0;
    }
    if ((!strcmp(op, "lshr") || !strcmp(op, "shl") || !strcmp(op, "ashr")) && isdigit((unsigned char)b[0]) &&
        atoi(b) % 32 == 0)
        return 0; /* a shift by whole words: which register holds what */
    if (!strcmp(op, "shl") && bits > 32 && bits <= 64 && fits(f, a, 32) && isdigit((unsigned char)b[0]) &&
        atoi(b) < 32) { /* a word times 2^c: fused, as a product, into an addition of its block */
        if (in->result) /* (IMAD.WIDE.U32, and IMAD.MOV for the addend's high word: 2 with the addition) */
            set_add(&f->products, in->result, in->result_len);
        return width(bits);
    }
    if (!strcmp(op, "shl") && bits <= 32 && isdigit((unsigned char)b[0])) { /* x·2^c: LEA, or IMAD, with */
        if (in->result) /* an addition of its block as the addend */
            set_add(&f->products, in->result, in->result_len);
        return 1;
    }
    if (!strcmp(op, "mul")) {
        if (in->result) /* an addition of it in its block may be fused (IMAD) */
            set_add(&f->products, in->result, in->result_len);
        if (bits > 32 && fits(f, a, bits / 2) && fits(f, b, bits / 2))
            return bits <= 64 ? 1 : 7; /* IMAD.WIDE.U32; a 64-bit high product (__umul64hi) */
        if (bits > 32 && bits <= 64 && (fits(f, a, 32) || fits(f, b, 32)))
            return 2; /* IMAD.WIDE.U32, and an IMAD for the other's high word */
        return bits <= 32 ? 1 : bits <= 64 ? 3 : 8;
    }
    if (!strcmp(op, "add") && (set_has(&f->products, a, strlen(a)) || set_has(&f->products, b, strlen(b)))) {
        char *fused = set_has(&f->products, a, strlen(a)) ? a : b;
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
        return by_constant ? (bits <= 32 ? 4 : 12) : (bits <= 32 ? 20 : 24);
    }
    return width(bits); /* add, sub, and, or, xor, shifts, icmp, select */
}

/* ---- values known below p ------------------------------------------------------- */

/* Value v (a name "%7" or a decimal constant) is known below p. */
static int below_p(const ir_function *f, const char *v)
{
    if (v[0] == '%')
        return set_has(&f->below_p, v, strlen(v));
    return isdigit((unsigned char)v[0]) && strtoull(v, NULL, 10) < MCM_PRIME;
}

/* The value of the typed operand that starts at s ("i64 noundef %a"):
 * the last word before the next ',', ')' or ']', into out. */
static void typed_value(const char *s, char *out, size_t size)
{
    size_t end = strcspn(s, ",)]"), start = end;
    while (start > 0 && s[start - 1] == ' ')
        start--, end--;
    while (start > 0 && s[start - 1] != ' ' && s[start - 1] != '(' && s[start - 1] != '[')
        start--;
    snprintf(out, size, "%.*s", (int)(end - start), s + start);
}

/* How many of the two operands of Z/pZ call `in` (its arguments after the
 * thread: "@exec_zp_add(ptr %0, i64 %a, i64 %b)") are known below p. */
static int operands_below_p(const ir_function *f, const ir_inst *in)
{
    const char *s = strchr(in->rest, '(');
    char v[64];
    int args = 0, known = 0;
    for (; s && *s != ')'; s += 1 + strcspn(s + 1, ",)"), args++) {
        typed_value(s + 1, v, sizeof v);
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
        const char *s = strchr(in->rest, ',');
        for (int k = 0; k < 2; k++, s = s ? strchr(s + 1, ',') : NULL) {
            if (!s)
                return 0;
            typed_value(s + 1, v, sizeof v);
            if (!below_p(f, v))
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
static void note_below_p(ir_function *f)
{
    for (int pass = 0, grew = 1; grew && pass < 64; pass++) {
        grew = 0;
        for (int l = 0; l < f->n_lines; l++) {
            ir_inst in;
            if (f->lines[l][0] != ' ' || parse_inst(f->lines[l], &in) < 0 || !in.result ||
                set_has(&f->below_p, in.result, in.result_len))
                continue;
            char name[128] = "";
            if (!strcmp(in.op, "call"))
                callee(in.rest, name, sizeof name);
            if (!strncmp(name, "exec_zp_", 8) ||
                ((!strcmp(in.op, "phi") || !strcmp(in.op, "select")) && choice_below_p(f, &in))) {
                set_add(&f->below_p, in.result, in.result_len);
                grew = 1;
            }
        }
    }
}

static int same_value(const ir_function *f, const ir_inst *in, char *text, size_t size);
static const char *entry_value(const name_set *set, const char *key);
static void entry_add(name_set *set, const char *key, const char *value);

static int done_before(ir_function *f, name_set *done, const ir_inst *in, int block);

/* Z/pZ call `in` of block `block` repeats one of the same operands before
 * it, in the entry block or in this one: 1, and its result is that one's
 * value.  On the card the Z/pZ operations are inlined arithmetic, and the
 * compiler computes the same expression once (an unrolled loop's x_i·w^e
 * for the pairs (i, e) that recur); in the host build each is a call. */
static int same_zp_call(ir_function *f, const ir_inst *in, int block)
{
    return done_before(f, &f->zp_calls, in, block);
}

/* Argument k (0: the thread) of call `in`, its name or constant, into
 * name (64 bytes); and as what it computes (its same_as text, else the
 * same), into out. */
static void call_argument(const ir_function *f, const ir_inst *in, int k, char *name, char *out, size_t size)
{
    const char *s = strchr(in->rest, '(');
    name[0] = out[0] = '\0';
    for (int i = 0; s && *s != ')' && i <= k; s += 1 + strcspn(s + 1, ",)"), i++)
        if (i == k) {
            typed_value(s + 1, name, 64);
            const char *same = name[0] == '%' ? entry_value(&f->same_as, name) : NULL;
            snprintf(out, size, "%s", same ? same : name);
        }
}

/* Value v (a name or a constant) holds at most 32 bits on the card. */
static int narrow_value(const ir_function *f, const char *v)
{
    return v[0] == '%' ? set_has(&f->narrow, v, strlen(v)) || set_has(&f->below_p, v, strlen(v))
                       : isdigit((unsigned char)v[0]) && strtoull(v, NULL, 10) < (1ull << 32);
}

/* A global access `in` of block `block`, beyond the table's 3: the
 * kernel's memory descriptor and the array's base, each a uniform
 * register loaded once a kernel (bits 8 and 9 + a hash of the array in
 * w[STREAM_READS]).  An access to the address of one before it in the
 * block reuses its address (the LDG or STG alone: −2), and so does one at
 * a constant offset from it (LDG [R + 4c]: −2, and the index's addition,
 * which the address folds). */
static double global_access(ir_function *f, const ir_inst *in, int block, double *w)
{
    char array[512], index[512], base[512], key[1100], here[16], name[64];
    call_argument(f, in, 1, name, array, sizeof array);
    call_argument(f, in, 2, name, index, sizeof index);
    uint32_t h = 2166136261u;
    for (const char *c = array; *c; c++)
        h = (h ^ (unsigned char)*c) * 16777619u;
    w[STREAM_READS] = (double)((uint32_t)w[STREAM_READS] | 1u << 8 | 1u << (9 + h % 23));
    if (isdigit((unsigned char)name[0]))
        return -2; /* a constant index: the base and an offset, [R + 4c] */
    const char *offset = entry_value(&f->offsets, name);
    double folded = 0;
    snprintf(base, sizeof base, "%s", index);
    if (offset) { /* "%5 COST": the base, as what it computes */
        sscanf(offset, "%63s %lf", name, &folded);
        const char *same = entry_value(&f->same_as, name);
        snprintf(base, sizeof base, "%s", same ? same : name);
    }
    snprintf(here, sizeof here, "%d", block);
    snprintf(key, sizeof key, "%s %s", array, index);
    const char *where = entry_value(&f->accesses, key);
    if (where && atoi(where) == block)
        return -2;
    entry_add(&f->accesses, key, here);
    snprintf(key, sizeof key, "%s @%s", array, base); /* any access near `base` */
    where = entry_value(&f->accesses, key);
    if (where && atoi(where) == block)
        return -2 - folded;
    entry_add(&f->accesses, key, here);
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
        call_argument(f, in, k, name, what, sizeof what);
        if (name[0] == '%' && !strncmp(what, "load ", 5) && !entry_value(&f->field_values, name) &&
            !narrow_value(f, name))
            return 4; /* an arg, read as it is */
    }
    return 0;
}

/* A call's instructions into w; 0 if it is one of the counted exec_*
 * functions (w holds it all), else its own cost for the caller. */
static double call_cost_of(ir_function *f, const ir_inst *in, int block, double *w, int *once, int *is_free)
{
    char name[128];
    callee(in->rest, name, sizeof name);
    if (!strncmp(name, "exec_zp_", 8) && same_zp_call(f, in, block))
        return 0;
    if (!strcmp(name, "exec_zp_add") || !strcmp(name, "exec_zp_sub"))
        strcat(name, (const char *[]){"", ":one_result", ":results"}[operands_below_p(f, in)]);
    for (int i = 0; i < N_CALL_COSTS; i++)
        if (!strcmp(name, CALL_COSTS[i].name)) {
            int field = CALL_COSTS[i].field;
            w[STREAM_INST] += CALL_COSTS[i].inst;
            if (field != STREAM_MULMOD && field != STREAM_ADDMOD && field != STREAM_PRIVATE)
                w[STREAM_PLAIN] += CALL_COSTS[i].inst;
            if (field != STREAM_INST)
                w[field] += 1;
            double more = field == STREAM_GLOBAL ? global_access(f, in, block, w)
                          : !strcmp(name, "exec_zp_mul") ? zp_mul_check(f, in) : 0;
            w[STREAM_INST] += more;
            w[STREAM_PLAIN] += more;
            if (in->result && (field == STREAM_GLOBAL || field == STREAM_PRIVATE)) /* 32-bit words */
                set_add(&f->narrow, in->result, in->result_len);
            return 0;
        }
    if (!strncmp(name, "llvm.dbg.", 9) || !strncmp(name, "llvm.lifetime.", 14) || !strcmp(name, "llvm.assume") ||
        !strncmp(name, "llvm.experimental.", 18))
        return 0;
    if (!strncmp(name, "llvm.umin.", 10) || !strncmp(name, "llvm.umax.", 10) || !strncmp(name, "llvm.smin.", 10) ||
        !strncmp(name, "llvm.smax.", 10) || !strncmp(name, "llvm.abs.", 9) || !strncmp(name, "llvm.fsh", 8)) {
        *once = *is_free = operands_free(f, in);
        return width(atoi(strrchr(name, 'i') + 1));
    }
    return !strncmp(name, "llvm.", 5) ? 1 : 2; /* an intrinsic; a call and its return (the callee counts itself) */
}

/* ---- free arithmetic done once ------------------------------------------------ */

/* The value after key's tab in the set's entry "KEY\tVALUE", or NULL. */
static const char *entry_value(const name_set *set, const char *key)
{
    size_t len = strlen(key);
    for (int i = set->n - 1; i >= 0; i--)
        if (!strncmp(set->names[i], key, len) && set->names[i][len] == '\t')
            return set->names[i] + len + 1;
    return NULL;
}

static void entry_add(name_set *set, const char *key, const char *value)
{
    char entry[1100];
    int n = snprintf(entry, sizeof entry, "%s\t%s", key, value);
    if (n > 0 && (size_t)n < sizeof entry)
        set_add(set, entry, (size_t)n);
}

/* What free value `in` computes, its operands replaced by what they
 * compute, into text: a reload of an arg is the same text as its first
 * load.  0 if too long to say. */
static int same_value(const ir_function *f, const ir_inst *in, char *text, size_t size)
{
    const char *end = strstr(in->rest, ", !"); /* metadata: not operands */
    size_t n = (size_t)snprintf(text, size, "%s", in->op);
    for (const char *s = in->rest; *s && (!end || s < end) && n + 1 < size; s++) {
        size_t len = name_length(s);
        if (len == 0) {
            text[n++] = *s;
            continue;
        }
        char name[64];
        snprintf(name, sizeof name, "%.*s", (int)len, s);
        const char *v = entry_value(&f->same_as, name);
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
static int done_before(ir_function *f, name_set *done, const ir_inst *in, int block)
{
    char text[1024], name[64], here[16];
    if (!in->result || !same_value(f, in, text, sizeof text))
        return 0;
    result_name(in, name, sizeof name);
    entry_add(&f->same_as, name, text);
    if (!done)
        return 0;
    const char *where = entry_value(done, text);
    if (where && (atoi(where) == 0 || atoi(where) == block))
        return 1;
    snprintf(here, sizeof here, "%d", block);
    entry_add(done, text, here);
    return 0;
}

/* Free value `in` of block `block` was computed before (done_before): it
 * costs nothing.  A load of an arg costs nothing anyway. */
static int computed_before(ir_function *f, const ir_inst *in, int block)
{
    return done_before(f, strcmp(in->op, "load") ? &f->computed : NULL, in, block);
}

/* Division or remainder `in` of block `block`, by its signedness and
 * operands: for a division, noted (0); for a remainder, 1 when a division
 * of the same operands came before it in the block (nvcc, whose target
 * has no remainder instruction, takes the quotient's product from the
 * dividend). */
static int remainder_of_division(ir_function *f, const ir_inst *in, int block)
{
    char a[64], b[64], key[160], here[16];
    operand(in->rest, 0, a, sizeof a);
    operand(in->rest, 1, b, sizeof b);
    snprintf(key, sizeof key, "%c %s %s", in->op[0], a, b);
    snprintf(here, sizeof here, "%d", block);
    if (!strcmp(in->op + 1, "div")) {
        entry_add(&f->divisions, key, here);
        return 0;
    }
    const char *where = entry_value(&f->divisions, key);
    return where && atoi(where) == block;
}

/* Getelementptr `in` is the address of field K of the thread (its
 * %struct.exec_thread's field 0 to 3: tid, threads, bid, blocks): noted. */
static void note_thread_field(ir_function *f, const ir_inst *in)
{
    const char *last = strrchr(in->rest, ',');
    if (!in->result || !strstr(in->rest, "%struct.exec_thread, ") || !last || strncmp(last, ", i32 ", 6) != 0)
        return;
    char name[64], k[16];
    result_name(in, name, sizeof name);
    snprintf(k, sizeof k, "%d", atoi(last + 6));
    if (atoi(k) >= 0 && atoi(k) <= 3)
        entry_add(&f->thread_fields, name, k);
}

/* A load of a free value at `ptr`: if a field K of the thread, its bit
 * K in the block's reads (w[STREAM_READS]; stream.h).  bid and blocks are
 * 32-bit registers on the card: narrow. */
static void note_thread_read(ir_function *f, const ir_inst *in, const char *ptr, size_t len, double *w)
{
    char name[64];
    snprintf(name, sizeof name, "%.*s", (int)len, ptr);
    const char *k = entry_value(&f->thread_fields, name);
    if (!k || !in->result)
        return;
    result_name(in, name, sizeof name);
    entry_add(&f->field_values, name, k);
    if (atoi(k) >= 2)
        set_add(&f->narrow, in->result, in->result_len);
    w[STREAM_READS] = (double)((uint32_t)w[STREAM_READS] | 1u << atoi(k));
}

/* Sext `in` of a field K of the thread: its bit 4 + K in the block's
 * reads (the kernel widens it once); 0 if not such a field. */
static int note_thread_widened(ir_function *f, const ir_inst *in, double *w)
{
    size_t len;
    const char *v = first_operand(in, &len);
    char name[64];
    snprintf(name, sizeof name, "%.*s", v ? (int)len : 0, v ? v : "");
    const char *k = v ? entry_value(&f->field_values, name) : NULL;
    if (!k)
        return 0;
    w[STREAM_READS] = (double)((uint32_t)w[STREAM_READS] | 1u << (4 + atoi(k)));
    return 1;
}

static int block_of_label(const ir_function *f, const char *label);

/* The block of `label` only returns (its instructions a ret, and the
 * instrumentation's call). */
static int returns(const ir_function *f, const char *label)
{
    int i = block_of_label(f, label);
    if (i < 0)
        return 0;
    for (int l = f->blocks[i].first; l < f->blocks[i].last; l++) {
        ir_inst in;
        if (f->lines[l][0] != ' ' || parse_inst(f->lines[l], &in) < 0)
            continue;
        char name[64] = "";
        if (!strcmp(in.op, "call"))
            callee(in.rest, name, sizeof name);
        if (strcmp(in.op, "ret") != 0 && strcmp(name, "__sanitizer_cov_trace_pc") != 0)
            return 0;
    }
    return 1;
}

/* Addition `in` of a constant to a value (or subtraction of one, or an
 * `or` of low bits clang knows clear, its form of such an addition):
 * noted as an offset of it (global_access), with what it costs. */
static void note_offset(ir_function *f, const ir_inst *in, double cost)
{
    char a[64], b[64], value[160], name[64];
    operand(in->rest, 0, a, sizeof a);
    operand(in->rest, 1, b, sizeof b);
    if (!in->result || (strcmp(in->op, "add") != 0 && strcmp(in->op, "sub") != 0 && strcmp(in->op, "or") != 0) ||
        a[0] != '%' ||
        !(isdigit((unsigned char)b[0]) || b[0] == '-'))
        return;
    result_name(in, name, sizeof name);
    snprintf(value, sizeof value, "%s %g", a, cost);
    entry_add(&f->offsets, name, value);
}

/* A remainder after a division of the same operands (remainder_of_division):
 * the quotient's product taken from the dividend, a multiplication and a
 * subtraction: 2 on 32 bits; on 64, by a constant 5, by a number 3 (the
 * division's usual path is on 32 bits: IMAD.MOV, IMAD, and the high word
 * zeroed; user-stencil's SASS, 0x490, 0x5b0, 0x5c0). */
static double remainder_cost(const ir_inst *in, int bits)
{
    char b[64];
    operand(in->rest, 1, b, sizeof b);
    return bits <= 32 ? 2 : b[0] == '%' ? 3 : 5;
}

/* Line `line`'s operands: past its result ("  %7 = "), if it has one. */
static const char *operands_of(const char *line)
{
    const char *eq = strstr(line, " = ");
    return eq && line[0] == ' ' && line[2] == '%' ? eq : line;
}

/* The next use of value `name` (of length len) as an operand at or after
 * s, or NULL. */
static const char *next_use(const char *s, const char *name, size_t len)
{
    for (s = strstr(s, name); s && name_length(s) != len; s = strstr(s + len, name))
        ;
    return s;
}

/* The uses of value `name` as an operand in the function, at most 2. */
static int uses(const ir_function *f, const char *name)
{
    size_t len = strlen(name);
    int n = 0;
    for (int l = 0; l < f->n_lines && n < 2; l++)
        for (const char *s = next_use(operands_of(f->lines[l]), name, len); s; s = next_use(s + len, name, len))
            n++;
    return n;
}

/* Boolean `in` (an `and`, `or` or `xor` of predicates, or clang's select
 * of a predicate and a constant true or false, its `&&` and `||`) of a
 * comparison: the comparison's ISETP combines it with its predicate
 * operand (ISETP.NE.OR, ISETP.EQ.OR.EX: user-stencil's and user-jacobi's
 * SASS), nothing more; each comparison combines one. */
static int combines_compare(const ir_function *f, const ir_inst *in)
{
    char a[64] = "", b[64] = "";
    if (!strcmp(in->op, "and") || !strcmp(in->op, "or") || !strcmp(in->op, "xor")) {
        operand(in->rest, 0, a, sizeof a);
        operand(in->rest, 1, b, sizeof b);
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
static double third_operand(ir_function *f, const ir_inst *in, double cost)
{
    char a[64], b[64];
    operand(in->rest, 0, a, sizeof a);
    operand(in->rest, 1, b, sizeof b);
    if (a[0] != '%' || b[0] != '%' || !in->result)
        return cost;
    for (int k = 0; k < 2; k++) {
        const char *v = k ? b : a;
        for (int i = f->sums.n - 1; i >= 0; i--)
            if (!strcmp(f->sums.names[i], v) && uses(f, v) == 1) {
                f->sums.names[i][0] = '\0'; /* one third operand per addition */
                return 0;
            }
    }
    set_add(&f->sums, in->result, in->result_len);
    return cost;
}

/* Value `name` is used, and only as the word an exec_gwrite or exec_pwrite
 * stores (32 bits, the call's last argument). */
static int stored_as_words_alone(const ir_function *f, const char *name)
{
    size_t len = strlen(name);
    int stores = 0;
    for (int l = 0; l < f->n_lines; l++) {
        for (const char *at = next_use(operands_of(f->lines[l]), name, len); at; at = next_use(at + len, name, len)) {
            ir_inst use;
            char called[64] = "";
            if (parse_inst(f->lines[l], &use) == 0 && !strcmp(use.op, "call"))
                callee(use.rest, called, sizeof called);
            const char *after = at + len;
            while (*after == ' ')
                after++;
            if ((strcmp(called, "exec_gwrite") != 0 && strcmp(called, "exec_pwrite") != 0) || *after != ')')
                return 0;
            stores++;
        }
    }
    return stores > 0;
}

/* Value `name` is used, and only as the index of a private access (the
 * argument after the thread of exec_pread and exec_pwrite) or as an
 * operand of integer arithmetic whose result is used so (to `depth`
 * levels).  A shared-memory address is 32 bits on the card, so such
 * arithmetic is done on 32 bits: plain division's `s + (tid − j)` is
 * IADD3 R11, R0, −UR4, R11, its `2s + j` one ULEA, and the update's
 * window slot IMAD.IADD (its SASS, 0x820, 0x590, 0x1580). */
static int private_index_alone(const ir_function *f, const char *name, int depth)
{
    size_t len = strlen(name);
    int uses_seen = 0;
    for (int l = 0; l < f->n_lines; l++) {
        for (const char *at = next_use(operands_of(f->lines[l]), name, len); at; at = next_use(at + len, name, len)) {
            ir_inst use;
            char called[64] = "", arg[64], what[1024], result[64];
            if (parse_inst(f->lines[l], &use) != 0)
                return 0;
            if (!strcmp(use.op, "call")) {
                callee(use.rest, called, sizeof called);
                call_argument(f, &use, 1, arg, what, sizeof what);
                if ((strcmp(called, "exec_pread") != 0 && strcmp(called, "exec_pwrite") != 0) || strcmp(arg, name) != 0)
                    return 0;
                if (!strcmp(called, "exec_pwrite")) { /* the stored word is its last argument: not the index */
                    call_argument(f, &use, 2, arg, what, sizeof what);
                    if (!strcmp(arg, name))
                        return 0;
                }
            } else {
                int arithmetic = !strcmp(use.op, "add") || !strcmp(use.op, "sub") || !strcmp(use.op, "shl") ||
                                 !strcmp(use.op, "mul") || !strcmp(use.op, "or") || !strcmp(use.op, "and") ||
                                 !strcmp(use.op, "xor");
                if (!arithmetic || !use.result || depth <= 0)
                    return 0;
                result_name(&use, result, sizeof result);
                if (!private_index_alone(f, result, depth - 1))
                    return 0;
            }
            uses_seen++;
        }
    }
    return uses_seen > 0;
}

/* Integer arithmetic `in` (64 bits) only makes private accesses' indices
 * (private_index_alone): 32-bit arithmetic on the card. */
static int makes_private_index(const ir_function *f, const ir_inst *in)
{
    char name[64];
    if (!in->result)
        return 0;
    result_name(in, name, sizeof name);
    return private_index_alone(f, name, 4);
}

/* Shift `in` (right, 64 bits, by a constant below 32) is used only as
 * words written: its low word alone is computed (SHF.R.U64; user-stencil's
 * and user-jacobi's SASS). */
static int stores_low_word(const ir_function *f, const ir_inst *in)
{
    char name[64], b[64];
    operand(in->rest, 1, b, sizeof b);
    if (!in->result || !isdigit((unsigned char)b[0]) || atoi(b) >= 32)
        return 0;
    result_name(in, name, sizeof name);
    return stored_as_words_alone(f, name);
}

/* What block b's instruction `in` costs a warp, into w (STREAM_* fields);
 * next: the label of the block after b in the code. */
static void instruction_cost(ir_function *f, const ir_block *b, const ir_inst *in, const char *next, double *w)
{
    const char *op = in->op;
    int bits = bits_at(in->rest);
    double cost = 0;
    int is_free = 0;     /* the result is a register or constant on the card */
    int once = 0;        /* arithmetic on free values only: done once, before any loop */
    if (!strcmp(op, "phi") || !strcmp(op, "bitcast") || !strcmp(op, "trunc") || !strcmp(op, "zext") ||
        !strcmp(op, "sext") || !strcmp(op, "ptrtoint") || !strcmp(op, "inttoptr") || !strcmp(op, "freeze") ||
        !strcmp(op, "addrspacecast") || !strcmp(op, "getelementptr")) {
        int constant = strcmp(op, "getelementptr") || constant_offsets(in->rest);
        once = is_free = operands_free(f, in);
        if (!strcmp(op, "zext") && in->result) {
            const char *to = strstr(in->rest, " to ");
            integer_cost(f, in, to ? bits_at(to + 3) : 32); /* notes a narrow value */
        }
        cost = constant ? 0 : 2; /* conversions fold; a variable address is 64 bits */
        if (!strcmp(op, "sext"))
            note_thread_widened(f, in, w);
        if (!strcmp(op, "getelementptr") && constant)
            note_thread_field(f, in);
        char text[1024], name[64];
        if (is_free && in->result && (!strcmp(op, "getelementptr") || !strcmp(op, "bitcast")) &&
            same_value(f, in, text, sizeof text)) { /* an arg's address: reloads of it read the same */
            result_name(in, name, sizeof name);
            entry_add(&f->same_as, name, text);
        }
        size_t len;
        const char *base = first_operand(in, &len);
        if (in->result && base && strcmp(op, "phi") != 0 && constant &&
            set_has(&f->free_ptrs, base, len)) /* an address inside `t` or the args */
            set_add(&f->free_ptrs, in->result, in->result_len);
    } else if (!strcmp(op, "load")) {
        size_t len;
        const char *ptr = strchr(in->rest, ',') ? first_operand(in, &len) : NULL;
        is_free = ptr && set_has(&f->free_ptrs, ptr, len);
        cost = is_free ? 0 : 1;
        if (is_free)
            note_thread_read(f, in, ptr, len, w);
    } else if (!strcmp(op, "store") || !strcmp(op, "atomicrmw") || !strcmp(op, "cmpxchg") ||
               !strcmp(op, "fence")) {
        cost = 1;
    } else if (!strcmp(op, "icmp") || !strcmp(op, "select")) {
        char pred[16];
        const char *comma = strchr(in->rest, ',');
        bits = !strcmp(op, "icmp") ? bits_at(word_at(in->rest, pred, sizeof pred)) : comma ? bits_at(comma + 1) : 32;
        cost = width(bits);
        once = is_free = operands_free(f, in);
    } else if (!strcmp(op, "add") || !strcmp(op, "sub") || !strcmp(op, "and") || !strcmp(op, "or") ||
               !strcmp(op, "xor") || !strcmp(op, "shl") || !strcmp(op, "lshr") || !strcmp(op, "ashr") ||
               !strcmp(op, "mul") || !strcmp(op, "udiv") || !strcmp(op, "sdiv") || !strcmp(op, "urem") ||
               !strcmp(op, "srem")) {
        int rem = (!strcmp(op, "sdiv") || !strcmp(op, "udiv") || !strcmp(op, "srem") || !strcmp(op, "urem")) &&
                  remainder_of_division(f, in, (int)(b - f->blocks));
        if (bits > 32 && bits <= 64 && !rem && strcmp(op, "lshr") != 0 && strcmp(op, "ashr") != 0 &&
            strstr(op, "div") == NULL && strstr(op, "rem") == NULL && makes_private_index(f, in))
            bits = 32; /* a shared-memory address's arithmetic */
        cost = rem ? remainder_cost(in, bits) : integer_cost(f, in, bits);
        once = is_free = operands_free(f, in);
        note_offset(f, in, is_free && b->in_loop ? 0 : cost);
    } else if (!strcmp(op, "fdiv") || !strcmp(op, "frem")) {
        cost = 10;
    } else if (op[0] == 'f' || !strcmp(op, "uitofp") || !strcmp(op, "sitofp")) {
        cost = 1; /* fadd, fmul, fcmp, fptosi, ... */
    } else if (!strcmp(op, "br")) {
        char first[16];
        word_at(in->rest, first, sizeof first);
        if (!strcmp(first, "label")) { /* unconditional: a jump unless it falls through */
            const char *target = strchr(in->rest, '%');
            size_t len = target ? name_length(target) : 0;
            cost = !(next && len > 1 && strlen(next) == len - 1 && memcmp(next, target + 1, len - 1) == 0);
        } else {
            cost = !b->second_test;
            for (int k = 0; k < b->n_succ; k++)
                if (returns(f, b->succ[k]))
                    w[STREAM_EXITS] += 1;
        }
    } else if (!strcmp(op, "switch")) {
        cost = 1 + b->n_succ;
    } else if (!strcmp(op, "call") || !strcmp(op, "invoke")) {
        cost = call_cost_of(f, in, (int)(b - f->blocks), w, &once, &is_free);
    }
    /* ret, unreachable, alloca, extractvalue, ...: nothing on the card */
    if (is_free && in->result && strcmp(op, "phi") != 0 && strcmp(op, "getelementptr") != 0 &&
        strcmp(op, "bitcast") != 0 && computed_before(f, in, (int)(b - f->blocks)))
        cost = 0;
    if (is_free && in->result)
        set_add(&f->free_values, in->result, in->result_len);
    if (once && b->in_loop)
        cost = 0;
    if (in->result && !strcmp(op, "icmp"))
        set_add(&f->compares, in->result, in->result_len);
    if (bits == 1 && combines_compare(f, in))
        cost = 0;
    if (!strcmp(op, "add") && cost > 0)
        cost = third_operand(f, in, cost);
    if ((!strcmp(op, "lshr") || !strcmp(op, "ashr")) && bits == 64 && cost > 1 && stores_low_word(f, in))
        cost = 1;
    w[STREAM_INST] += cost;
    w[STREAM_PLAIN] += cost;
}

/* ---- the flow graph: which blocks lie on a cycle -------------------------------- */

static int block_of_label(const ir_function *f, const char *label)
{
    for (int i = 0; i < f->n_blocks; i++)
        if (!strcmp(f->blocks[i].label, label))
            return i;
    return -1;
}

/* Block `to` reachable from block `from` on paths that do not pass through
 * block `avoid` (-1: any path; iterative search; seen: scratch). */
static int reaches(const ir_function *f, int from, int to, int avoid, char *seen, int *stack)
{
    memset(seen, 0, (size_t)f->n_blocks);
    if (avoid >= 0)
        seen[avoid] = 1;
    int top = 0;
    stack[top++] = from;
    while (top > 0) {
        const ir_block *b = &f->blocks[stack[--top]];
        for (int s = 0; s < b->n_succ; s++) {
            int j = block_of_label(f, b->succ[s]);
            if (j < 0 || seen[j])
                continue;
            if (j == to)
                return 1;
            seen[j] = 1;
            stack[top++] = j;
        }
    }
    return 0;
}

static void mark_loops(ir_function *f)
{
    char *seen = malloc((size_t)f->n_blocks + 1);
    int *stack = malloc(sizeof *stack * ((size_t)f->n_blocks * 8 + 1));
    for (int i = 0; i < f->n_blocks; i++)
        f->blocks[i].in_loop = reaches(f, i, i, -1, seen, stack);
    free(seen);
    free(stack);
}

/* The read of line `line` has its value used in its block after it. */
static int used_in_block(const ir_function *f, const ir_block *b, int line, const ir_inst *read)
{
    char name[64];
    result_name(read, name, sizeof name);
    for (int l = line + 1; l < b->last; l++)
        if (next_use(operands_of(f->lines[l]), name, strlen(name)))
            return 1;
    return 0;
}

/* Global read `read` of block `block` is in flight when its block ends:
 * its block uses the value of none of its reads (a warp waiting for one
 * has the others, issued a few instructions apart, by then: Cooley-Tukey's
 * butterfly waits for its second word's product, Euclid's step for the
 * words it tests), no phi uses it, and each block that uses it is passed
 * through once a pass through the read's (no cycle through it misses the
 * read's block: a use in a loop the read is outside would wait at every
 * pass). */
static int in_flight_past_its_block(const ir_function *f, int block, const ir_inst *read, char *seen, int *stack)
{
    const ir_block *b = &f->blocks[block];
    for (int l = b->first; l < b->last; l++) {
        ir_inst later;
        char called[32] = "";
        if (f->lines[l][0] != ' ' || parse_inst(f->lines[l], &later) != 0 || !later.result ||
            strcmp(later.op, "call"))
            continue;
        callee(later.rest, called, sizeof called);
        if (!strcmp(called, "exec_gread") && used_in_block(f, b, l, &later))
            return 0;
    }
    char name[64];
    result_name(read, name, sizeof name);
    size_t len = strlen(name);
    int used = 0;
    for (int u = 0; u < f->n_blocks; u++)
        for (int l = f->blocks[u].first; l < f->blocks[u].last; l++) {
            ir_inst use;
            if (!next_use(operands_of(f->lines[l]), name, len))
                continue;
            if (u == block || parse_inst(f->lines[l], &use) != 0 || !strcmp(use.op, "phi") ||
                reaches(f, u, u, block, seen, stack))
                return 0;
            used = 1;
        }
    return used;
}

/* The function's global reads in flight past their blocks (above), into
 * f->in_flight.  A warp issues a load and waits for its value at its first
 * use (its scoreboard): the stencil's warp issues the centre's LDG, the
 * border test, the four neighbours' LDGs, and waits once, at the first
 * value's use (user-stencil's executed SASS, 0xc640-0xc7d0); so such a
 * read ends no chain of its block, and its load is a link of the chains
 * through its value in the blocks that use it (chain_step). */
static void note_reads_in_flight(ir_function *f)
{
    char *seen = malloc((size_t)f->n_blocks + 1);
    int *stack = malloc(sizeof *stack * ((size_t)f->n_blocks * 8 + 1));
    for (int b = 0; b < f->n_blocks; b++)
        for (int l = f->blocks[b].first; l < f->blocks[b].last; l++) {
            ir_inst in;
            char name[32] = "";
            if (f->lines[l][0] != ' ' || parse_inst(f->lines[l], &in) != 0 || !in.result || strcmp(in.op, "call"))
                continue;
            callee(in.rest, name, sizeof name);
            if (!strcmp(name, "exec_gread") && in_flight_past_its_block(f, b, &in, seen, stack))
                set_add(&f->in_flight, in.result, in.result_len);
        }
    free(seen);
    free(stack);
}

/* The labels a block's terminator may branch to ("label %7" operands). */
static void note_successors(ir_block *b, const char *line)
{
    for (const char *s = strstr(line, "label %"); s; s = strstr(s + 1, "label %")) {
        size_t len = name_length(s + 6);
        if (b->n_succ < 8 && len > 1 && len - 1 < sizeof b->succ[0]) {
            memcpy(b->succ[b->n_succ], s + 7, len - 1);
            b->succ[b->n_succ++][len - 1] = '\0';
        }
    }
}

/* ---- a block's longest dependent chain ------------------------------------------------ */

/* A warp issues an instruction once its operands are ready, so a pass
 * through a block lasts as long as its longest chain of instructions each
 * of which needs the one before it; the others issue beside it.  Each
 * instruction's depth is its own links (the card instructions it becomes,
 * plain; a call of a Z/pZ function or a private access one link of its
 * class, whose measured latency holds its CUDA twin's instructions; a
 * global read its address's instructions, plain, and its load, a link of
 * its own; a store none of its own, since no later instruction waits for
 * it: a private store's STS, a global store's STG issue beside the chain,
 * a global store's address is its links), plus the deepest of its
 * operands defined before it in the same block; and where a conditional
 * branch reads a comparison of the block, the comparison's last link is
 * the predicate's, a class of its own (an ISETP's predicate is read 13
 * cycles after it issues, its integer results after 5: ptxas's stall
 * counts, validate/card.c's PREDICATE_CYCLES).
 * Operands from other blocks, phis, the step's args and the thread's
 * indices, constants: ready when the block starts; but a global read that
 * its own block does not use is in flight past it (note_reads_in_flight):
 * its LDG ends no chain of its block, and its value is a global read's
 * link in the blocks that use it, as the warp waits for it at its first
 * use (the stencil's centre read and its four neighbours', waited for
 * once).  That is a bound from
 * below for one pass (a value from the block before may still be on its
 * way) and the passes are charged one after the other (stream.c), a bound
 * from above across them (the card may start a block before the last one's
 * chain is done): the two errors go opposite ways and are each at most a
 * chain's tail.  Memory is not a dependence here: a private read after a
 * write in the same block waits its own latency (the pipe keeps them in
 * order).
 *
 * The chains are compared at nominal latencies (below), so that the table
 * need not know the machine: they only choose among a block's chains of
 * different classes; the chosen chain's links are charged at the
 * machine's own latencies (card_terms.c). */
/* A Z/pZ addition or subtraction whose operand on the chain is a result
 * known below p: after that result the card issues the tail alone, a
 * 32-bit sum or difference, its comparison with p and the select (plain
 * division's `v − q·b`: IMAD.IADD, ISETP.GE.U32, SEL after the product's
 * last VIADD, SASS 0x8a0-0x980), plain links, where cycles_addmod's chain
 * checks each operand's range again. */
enum { ZP_SUM_TAIL = 3 };
enum { CHAIN_CLASSES = 6 }; /* plain, Z/pZ multiplication, Z/pZ addition, private access, global read, and
                            * the comparison a conditional branch waits for (its predicate) */

/* The H100's latencies (machine/h100-code.cfg, session 2026-11-26f:
 * cycles_issue, cycles_mulmod, cycles_addmod, cycles_private,
 * read_latency, cycles_predicate), rounded.  The H200's are the same SM's. */
static const double NOMINAL_LINK_CYCLES[CHAIN_CLASSES] = {5, 68, 22, 29, 261, 13};

/* The stream fields the links of each class come from (a global read's:
 * its call, below), and go to. */
enum { OWN_CLASSES = 4 }; /* the classes an instruction's weights hold */
static const int LINK_OWN[OWN_CLASSES] = {STREAM_PLAIN, STREAM_MULMOD, STREAM_ADDMOD, STREAM_PRIVATE};
static const int LINK_CHAIN[CHAIN_CLASSES] = {STREAM_CHAIN_PLAIN, STREAM_CHAIN_MULMOD, STREAM_CHAIN_ADDMOD,
                                              STREAM_CHAIN_PRIVATE, STREAM_CHAIN_GLOBAL, STREAM_CHAIN_PREDICATE};

static double nominal_cycles(const double *links)
{
    double t = 0;
    for (int k = 0; k < CHAIN_CLASSES; k++)
        t += links[k] * NOMINAL_LINK_CYCLES[k];
    return t;
}

/* The depths of a block's values: an open-addressing table of their names
 * (pointers into the function's lines). */
typedef struct depth_map {
    const char **name;
    size_t *len;
    double (*links)[CHAIN_CLASSES];
    uint64_t *reads; /* the global reads on each value's deepest path (chain_reads_of) */
    size_t cap; /* a power of two, more than twice the block's lines */
    /* which global reads are links (chain_reads_of): the function's, by line
     * (read_number), the line now, the block's chain's, and every block's */
    const ir_function *f;
    int *read_no, line;
    uint64_t chain_reads, on_chain;
} depth_map;

static int defining_line(const ir_function *f, const char *name, size_t len);

/* The global read at line `line` as a bit of a set of the function's reads
 * (0: none, or a read past the 64th, which chain_reads_of counts a link). */
static uint64_t read_bit(const depth_map *d, int line)
{
    int n = line >= 0 ? d->read_no[line] : -1;
    return n >= 0 && n < 64 ? 1ull << n : 0;
}

static size_t depth_slot(const depth_map *d, const char *name, size_t len)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < len; i++)
        h = (h ^ (unsigned char)name[i]) * 16777619u;
    size_t i = h & (d->cap - 1);
    while (d->name[i] && !(d->len[i] == len && !memcmp(d->name[i], name, len)))
        i = (i + 1) & (d->cap - 1);
    return i;
}

/* The deepest operand of `in` defined before it in the block, or a global
 * read in flight from a block before (its load), into links (zeros if
 * none, or a phi: its values come from other blocks). */
static void deepest_operand(const depth_map *d, const name_set *in_flight, const name_set *below_p,
                            const ir_inst *in, double *links, int *through_below_p, uint64_t *reads)
{
    static const double load[CHAIN_CLASSES] = {[4] = 1};
    static const double ready[CHAIN_CLASSES] = {0};
    double below[CHAIN_CLASSES] = {0}; /* the deepest of the operands known below p */
    int any_below = 0;
    memset(links, 0, sizeof(double) * CHAIN_CLASSES);
    *through_below_p = 0;
    *reads = 0;
    if (!strcmp(in->op, "phi"))
        return;
    const char *end = strstr(in->rest, ", !"); /* metadata: not operands */
    for (const char *s = in->rest; *s && (!end || s < end); s++) {
        size_t len = name_length(s);
        if (len == 0)
            continue;
        size_t i = depth_slot(d, s, len);
        const double *depth = d->name[i] ? d->links[i] : set_has(in_flight, s, len) ? load : ready;
        if (set_has(below_p, s, len)) {
            any_below = 1;
            if (nominal_cycles(depth) > nominal_cycles(below))
                memcpy(below, depth, sizeof below);
        }
        if (nominal_cycles(depth) > nominal_cycles(links)) {
            memcpy(links, depth, sizeof(double) * CHAIN_CLASSES);
            *reads = d->name[i] ? d->reads[i] : depth == load ? read_bit(d, defining_line(d->f, s, len)) : 0;
        }
        s += len - 1;
    }
    /* the chain goes through an operand known below p: none other is later */
    *through_below_p = any_below && nominal_cycles(below) >= nominal_cycles(links);
}

/* Instruction `in`, which added to the block's weights what `before` had
 * not: its depth (above), noted under its result; into `chain` if deeper
 * (a read in flight past the block: its address's depth, its LDG issued). */
static void chain_step(depth_map *d, const ir_function *f, const ir_block *b, const ir_inst *in,
                       const double *before, const double *w, double *chain)
{
    double own[CHAIN_CLASSES] = {0}, depth[CHAIN_CLASSES];
    for (int k = 0; k < OWN_CLASSES; k++)
        own[k] = w[LINK_OWN[k]] - before[LINK_OWN[k]];
    if (own[1] > 0 || own[2] > 0) /* a Z/pZ call: one link; the check of an arg's high word beside it */
        own[0] = 0;
    char name[32] = "";
    if (!strcmp(in->op, "call"))
        callee(in->rest, name, sizeof name);
    own[4] = !strcmp(name, "exec_gread"); /* its load (LDG) a link of its own, its address's plain */
    own[0] -= own[4];
    if (!strcmp(name, "exec_pwrite")) /* a store: nothing waits for it (its STS issues beside the chain) */
        own[3] = 0;
    if (!strcmp(name, "exec_gwrite")) /* its address is a link, its STG issues beside the chain */
        own[0] -= 1;
    int through_below_p;
    uint64_t reads, own_read = own[4] > 0 ? read_bit(d, d->line) : 0;
    deepest_operand(d, &f->in_flight, &f->below_p, in, depth, &through_below_p, &reads);
    reads |= own_read;
    if (own[2] > 0 && through_below_p) { /* a Z/pZ sum or difference after the result it waits for: */
        own[2] = 0;                      /* that operand's range check is not redone, its tail alone */
        own[0] = ZP_SUM_TAIL;
    }
    const char *condition = in->rest + strspn(in->rest, " ");
    if (!strcmp(in->op, "br") && !strncmp(condition, "i1 ", 3) && !b->second_test && depth[0] >= 1) {
        depth[0] -= 1; /* the comparison's link: the branch waits for its predicate */
        depth[5] += 1;
    }
    for (int k = 0; k < CHAIN_CLASSES; k++)
        depth[k] = fmax(0, depth[k] + own[k]); /* a read whose address folds an offset: its load alone */
    if (in->result) {
        size_t i = depth_slot(d, in->result, in->result_len);
        d->name[i] = in->result;
        d->len[i] = in->result_len;
        memcpy(d->links[i], depth, sizeof depth);
        d->reads[i] = reads;
    }
    double ends[CHAIN_CLASSES];
    memcpy(ends, depth, sizeof depth);
    if (in->result && set_has(&f->in_flight, in->result, in->result_len)) {
        ends[4] -= own[4];
        reads &= ~own_read;
    }
    if (nominal_cycles(ends) > nominal_cycles(chain)) {
        memcpy(chain, ends, sizeof ends);
        d->chain_reads = reads;
    }
}

/* Empty, with room for a block of `lines` lines. */
static void depth_map_reset(depth_map *d, int lines)
{
    size_t cap = 16;
    while (cap < 2 * (size_t)lines + 1)
        cap *= 2;
    if (cap > d->cap) {
        free(d->name);
        free(d->len);
        free(d->links);
        free(d->reads);
        d->cap = cap;
        d->name = malloc(sizeof *d->name * cap);
        d->len = malloc(sizeof *d->len * cap);
        d->links = malloc(sizeof *d->links * cap);
        d->reads = malloc(sizeof *d->reads * cap);
        if (!d->name || !d->len || !d->links || !d->reads) {
            fprintf(stderr, "mcmsim: out of memory reading a kernel's IR\n");
            exit(70);
        }
    }
    memset(d->name, 0, sizeof *d->name * d->cap);
    d->chain_reads = 0;
}

/* ---- reading and writing ---------------------------------------------------------- */

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

#define TRACE_CALL "@__sanitizer_cov_trace_pc()"

typedef struct weights {
    uint32_t (*w)[STREAM_FIELDS];
    uint32_t *chain_reads; /* per block: its global reads that are links of a chain (chain_reads_of) */
    int n, cap, cap_chain;
} weights;

/* ---- which global reads are links of a chain ---------------------------------------- */

/* Line l is a call of exec_gread (as chain_step reads it). */
static int is_global_read(const ir_function *f, int l)
{
    ir_inst in;
    char name[32] = "";
    if (f->lines[l][0] != ' ' || parse_inst(f->lines[l], &in) != 0 || strcmp(in.op, "call"))
        return 0;
    callee(in.rest, name, sizeof name);
    return !strcmp(name, "exec_gread");
}

/* The function's global reads numbered in the order of its lines, per
 * line (-1: not a read); owned by the caller. */
static int *number_reads(const ir_function *f)
{
    int *no = malloc(sizeof *no * ((size_t)f->n_lines + 1)), n = 0;
    if (!no) {
        fprintf(stderr, "mcmsim: out of memory reading a kernel's IR\n");
        exit(70);
    }
    for (int l = 0; l < f->n_lines; l++)
        no[l] = is_global_read(f, l) ? n++ : -1;
    return no;
}

/* Per counted block, bit k: its k-th global read (in the order of its
 * lines, as a thread makes them) is a link of a block's chain, the one
 * whose value its chain waits for (d->on_chain: every block's chain's
 * reads; a read past the function's 64th is counted a link).  The caches
 * then tell which level each link's load waited for (cache.h); a read
 * past a block's 32nd is a link for them too (stream_read_on_chain). */
static void chain_reads_of(const ir_function *f, const depth_map *d, weights *t)
{
    for (int i = 0; i < f->n_blocks; i++) {
        const ir_block *b = &f->blocks[i];
        if (b->id < 0)
            continue;
        uint32_t links = 0;
        for (int l = b->first, k = 0; l < b->last && k < 32; l++) {
            if (d->read_no[l] < 0)
                continue;
            if (d->read_no[l] >= 64 || (d->on_chain & read_bit(d, l)))
                links |= 1u << k;
            k++;
        }
        t->chain_reads[b->id] = links;
    }
}

/* ---- a loop nvcc unrolls: its trip count, computed before it ---------------------- */

/* nvcc unrolls a loop of unknown trips by 4 (runtime unrolling: a
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
 *    most 75 of its cost units unrolled, counts in units we do not see). */
enum { UNROLL_BODY = 28 };

/* The line that defines value `name` (its first len characters), or -1. */
static int defining_line(const ir_function *f, const char *name, size_t len)
{
    for (int l = 0; l < f->n_lines; l++) {
        const char *s = f->lines[l];
        while (*s == ' ')
            s++;
        if (name_length(s) == len && !strncmp(s, name, len) && !strncmp(s + len, " = ", 3))
            return l;
    }
    return -1;
}

static int block_of_line(const ir_function *f, int line)
{
    for (int i = 0; i < f->n_blocks; i++)
        if (line >= f->blocks[i].first && line < f->blocks[i].last)
            return i;
    return -1;
}

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
    size_t n = name_length(s);
    if (n > 0 && n < size) {
        memcpy(out, s, n);
        out[n] = '\0';
    }
}

/* The loop's stride, where header h's phi `p` steps by a value defined
 * outside the loop (in a block of its own: member[] marks the loop);
 * into stride; 1 if so. */
static int variable_stride(const ir_function *f, const ir_inst *phi, const char *member, char *stride,
                           size_t size, char *next, size_t next_size)
{
    for (int k = 0; k < 2; k++) {
        char v[64];
        phi_value(phi->rest, k, v, sizeof v);
        int l = v[0] == '%' ? defining_line(f, v, strlen(v)) : -1;
        int b = l >= 0 ? block_of_line(f, l) : -1;
        ir_inst add;
        if (b < 0 || !member[b] || parse_inst(f->lines[l], &add) != 0 || strcmp(add.op, "add") != 0)
            continue;
        char x[64], y[64];
        operand(add.rest, 0, x, sizeof x);
        operand(add.rest, 1, y, sizeof y);
        const char *other = !strncmp(x, phi->result, phi->result_len) && strlen(x) == phi->result_len ? y
                            : !strncmp(y, phi->result, phi->result_len) && strlen(y) == phi->result_len ? x
                                                                                          : NULL;
        if (!other || other[0] != '%')
            continue; /* a constant stride: clang unrolls it itself */
        int sl = defining_line(f, other, strlen(other)), sb = sl >= 0 ? block_of_line(f, sl) : -1;
        if (sb >= 0 && member[sb])
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
    int l = defining_line(f, next, strlen(next));
    ir_inst add;
    if (l < 0 || parse_inst(f->lines[l], &add) != 0 || strcmp(add.op, "add") != 0)
        return 0;
    const char *op = strstr(f->lines[l], " = add ");
    return op && !strncmp(op + 7, "i64 ", 4); /* no flag between the opcode and the type */
}

/* Value `name` is the thread's index, an arg, a constant, or computed
 * from them alone (a register or constant on the card: free_values). */
static int kernel_invariant(const ir_function *f, const char *name)
{
    return name[0] != '%' || set_has(&f->free_values, name, strlen(name)) ||
           set_has(&f->free_ptrs, name, strlen(name));
}

/* The value block b's conditional branch tests (its name, "%7", within
 * the block's last `br i1` line), or NULL where it ends otherwise. */
static const char *branch_condition(const ir_function *f, const ir_block *b)
{
    for (int l = b->last - 1; l >= b->first; l--) {
        const char *br = strstr(f->lines[l], "  br i1 %");
        if (br)
            return br + 8;
    }
    return NULL;
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
        const char *condition = back ? branch_condition(f, b) : NULL;
        if (!condition)
            continue;
        int l = defining_line(f, condition, name_length(condition));
        ir_inst in;
        char x[64], y[64];
        if (l < 0 || parse_inst(f->lines[l], &in) != 0 || strcmp(in.op, "icmp") != 0)
            continue;
        const char *typed = strchr(in.rest + strspn(in.rest, " "), ' '); /* past the predicate */
        operand(typed ? typed : in.rest, 0, x, sizeof x);
        operand(typed ? typed : in.rest, 1, y, sizeof y);
        for (const char *v = next; v; v = v == next ? now : NULL)
            if (strcmp(x, v) == 0 || strcmp(y, v) == 0) {
                snprintf(bound, size, "%s", strcmp(x, v) == 0 ? y : x);
                return 1;
            }
    }
    return 0;
}

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
static int first_step_only(const ir_function *f, int target, char *seen, int *stack)
{
    for (int i = 0; i < f->n_blocks; i++) {
        const ir_block *b = &f->blocks[i];
        const char *br = b->n_succ == 2 ? branch_condition(f, b) : NULL;
        if (!br)
            continue;
        int c = defining_line(f, br, name_length(br)), side;
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
        int ld = defining_line(f, v, name_length(v));
        const char *ptr = ld >= 0 ? strstr(f->lines[ld], " = load i32, ") : NULL;
        ptr = ptr ? strchr(ptr + 13, '%') : NULL; /* the pointer: "i32* %6" or "ptr %6" */
        int at = ptr ? defining_line(f, ptr, name_length(ptr)) : -1;
        if (at < 0 || !thread_step_field(f->lines[at]))
            continue;
        int s = block_of_label(f, b->succ[side]);
        if (s > 0 && (s == target || !reaches(f, 0, target, s, seen, stack)))
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
static int hoisted_before_the_steps(const ir_function *f, int entering, char *seen, int *stack)
{
    return f->looped_step && f->blocks[0].id >= 0 && !first_step_only(f, entering, seen, stack);
}

static void note_trip_counts(ir_function *f, weights *t)
{
    char *seen = malloc((size_t)f->n_blocks + 1), *member = calloc((size_t)f->n_blocks + 1, 1);
    int *stack = malloc(sizeof *stack * ((size_t)f->n_blocks * 8 + 1));
    for (int h = 0; h < f->n_blocks; h++) {
        const ir_block *head = &f->blocks[h];
        int phis = 0; /* a header opens with its phis: the loop is looked at only if it has one */
        for (int l = head->first; l < head->last && !phis; l++)
            phis = strstr(f->lines[l], " = phi i") != NULL;
        if (!head->in_loop || !phis)
            continue;
        int entering = -1;
        double body = 0;
        for (int i = 0; i < f->n_blocks; i++) {
            member[i] = i == h || (reaches(f, h, i, -1, seen, stack) && reaches(f, i, h, -1, seen, stack));
            if (member[i] && f->blocks[i].id >= 0)
                body += t->w[f->blocks[i].id][STREAM_INST];
            for (int k = 0; !member[i] && k < f->blocks[i].n_succ; k++)
                if (!strcmp(f->blocks[i].succ[k], head->label) && entering < 0)
                    entering = i;
        }
        if (entering < 0 || f->blocks[entering].id < 0 || body > UNROLL_BODY)
            continue;
        for (int l = head->first; l < head->last; l++) {
            ir_inst phi;
            char stride[64], next[64], start[64], bound[64], now[64];
            if (f->lines[l][0] != ' ' || parse_inst(f->lines[l], &phi) != 0 || strcmp(phi.op, "phi") != 0 ||
                !phi.result || !variable_stride(f, &phi, member, stride, sizeof stride, next, sizeof next))
                continue;
            result_name(&phi, now, sizeof now);
            if (!(counter_of_32_bits(f, member, &phi, now) || widened_int_step(f, next)) ||
                !loop_bound(f, member, h, next, now, bound, sizeof bound))
                continue;
            phi_value(phi.rest, 0, start, sizeof start);
            if (!strcmp(start, next))
                phi_value(phi.rest, 1, start, sizeof start);
            uint32_t *w = t->w[f->blocks[entering].id];
            if (kernel_invariant(f, start) && kernel_invariant(f, stride) && kernel_invariant(f, bound)) {
                if (hoisted_before_the_steps(f, entering, seen, stack))
                    w = t->w[f->blocks[0].id];
                w[STREAM_TRIPS] |= 1u << ((unsigned)(head->id < 0 ? h : head->id) % 32);
            } else {
                double trip = stream_call_cost("loop:trip_count");
                w[STREAM_INST] += (uint32_t)trip;
                w[STREAM_PLAIN] += (uint32_t)trip;
                w[STREAM_CHAIN_PLAIN] += (uint32_t)trip;
            }
            break;
        }
    }
    free(seen);
    free(member);
    free(stack);
}

/* A `&&` or `||` of two comparisons that clang makes two blocks, each a
 * comparison and a conditional branch (the second block reached from the
 * first alone, the two branches sharing a target), is one predicate on
 * the card: ptxas fuses the second comparison into the first's ISETP
 * chain (ISETP, then ISETP.LE.OR reading its predicate) and branches once
 * (plain division's `tid > j && tid < steps`, SASS 0x7f0-0x840).  So the
 * second block's branch is no instruction, and its comparison no link of
 * its own: the warp waits for the predicate once, at the first. */
static void note_second_tests(ir_function *f)
{
    for (int i = 0; i < f->n_blocks; i++) {
        ir_block *b = &f->blocks[i];
        int pred = -1, preds = 0, calls = 0, compares = 0;
        b->second_test = 0;
        for (int j = 0; j < f->n_blocks; j++)
            for (int k = 0; k < f->blocks[j].n_succ; k++)
                if (!strcmp(f->blocks[j].succ[k], b->label))
                    pred = j, preds++;
        if (preds != 1 || b->n_succ != 2 || f->blocks[pred].n_succ != 2 || b->label[0] == '\0')
            continue;
        const ir_block *p = &f->blocks[pred];
        const char *other = strcmp(p->succ[0], b->label) ? p->succ[0] : p->succ[1];
        if (strcmp(b->succ[0], other) != 0 && strcmp(b->succ[1], other) != 0)
            continue;
        for (int l = b->first; l < b->last; l++) {
            ir_inst in;
            if (f->lines[l][0] != ' ' || parse_inst(f->lines[l], &in) != 0)
                continue;
            calls += !strcmp(in.op, "call") || !strcmp(in.op, "load") || !strcmp(in.op, "store");
            compares += !strcmp(in.op, "icmp");
        }
        b->second_test = calls == 0 && compares == 1;
    }
}

/* A small body that an `if` skips, ptxas predicates (if-conversion): a
 * block reached from one conditional branch alone, going on to the
 * branch's other target (a triangle), of at most PREDICATED_BODY card
 * instructions, calling nothing but memory accesses.  The card issues its
 * instructions, each under the branch's predicate, in every warp that
 * reaches the branch, whether or not a thread of the warp takes it, and
 * branches not at all (Euclid's executed SASS at s = 1: a coefficient's
 * read, `off >= 0 && pos >= 0 ? exec_gread(...) : 0`, @P1 LD.E at
 * 0x11a0-0x11c0 in all 8 warps though warps 4 to 7 read nothing; the
 * write step's `if (own <= da0) exec_gwrite(...)`, @!P1 LDS ... ST.E at
 * 0x2140-0x2260, 8 warps; thread 0's start_steps, four @!P0 STS at
 * 0x18d0-0x1900, 8 warps; jacobi's three loads, plain multiplication's
 * @!P0 LDG at 0x9e0-0xa20 of MulKer).  So the body's weight goes to the
 * block that branches, less that block's branch, and the body weighs
 * nothing.  Not a body behind a fused `&&` (note_second_tests): plain
 * division's ISETP, ISETP.LE.OR is followed by a BRA (0x7f0-0x840); nor
 * one whose `if` ends the step (`if (c) return;` before it, jacobi's
 * @P1 EXIT): the step's return keeps its branch (STREAM_EXITS). */
enum { PREDICATED_BODY = 16 };

static int predicated_body(const ir_function *f, int i, const uint32_t *w)
{
    const ir_block *b = &f->blocks[i];
    int pred = -1, preds = 0;
    for (int j = 0; j < f->n_blocks; j++)
        for (int k = 0; k < f->blocks[j].n_succ; k++)
            if (!strcmp(f->blocks[j].succ[k], b->label))
                pred = j, preds++;
    if (preds != 1 || pred == i || b->n_succ != 1 || f->blocks[pred].n_succ != 2 || b->label[0] == '\0' ||
        f->blocks[pred].id < 0 || f->blocks[pred].second_test || w[STREAM_INST] > PREDICATED_BODY ||
        w[STREAM_TRIPS] || w[STREAM_EXITS])
        return -1;
    const ir_block *p = &f->blocks[pred];
    if ((strcmp(p->succ[0], b->succ[0]) != 0 && strcmp(p->succ[1], b->succ[0]) != 0) || returns(f, b->succ[0]))
        return -1; /* not a triangle, or the step's early return (its EXIT, or BSSY and BSYNC) */
    for (int l = b->first; l < b->last; l++) {
        ir_inst in;
        char name[64];
        if (f->lines[l][0] != ' ' || parse_inst(f->lines[l], &in) != 0 || strcmp(in.op, "call") != 0)
            continue;
        callee(in.rest, name, sizeof name);
        if (strcmp(name, "__sanitizer_cov_trace_pc") != 0 && strcmp(name, "exec_gread") != 0 &&
            strcmp(name, "exec_gwrite") != 0 && strcmp(name, "exec_pread") != 0 && strcmp(name, "exec_pwrite") != 0)
            return -1;
    }
    return pred;
}

static void note_predicated_bodies(ir_function *f, weights *t)
{
    for (int i = 0; i < f->n_blocks; i++) {
        int pred = f->blocks[i].id < 0 ? -1 : predicated_body(f, i, t->w[f->blocks[i].id]);
        if (pred < 0)
            continue;
        uint32_t *body = t->w[f->blocks[i].id], *branch = t->w[f->blocks[pred].id];
        for (int k = 0; k < STREAM_FIELDS; k++)
            branch[k] = k == STREAM_READS ? branch[k] | body[k] : branch[k] + body[k];
        if (branch[STREAM_INST] > 0 && branch[STREAM_PLAIN] > 0) {
            branch[STREAM_INST]--; /* its BRA: the body's predicate is the comparison's */
            branch[STREAM_PLAIN]--;
        }
        memset(body, 0, sizeof t->w[0]);
    }
}

/* The function's blocks weighed, into the table at their ids. */
static void weigh_function(ir_function *f, weights *t)
{
    mark_loops(f);
    note_second_tests(f);
    note_below_p(f);
    note_reads_in_flight(f);
    depth_map d = {.f = f, .read_no = number_reads(f)};
    for (int i = 0; i < f->n_blocks; i++) {
        ir_block *b = &f->blocks[i];
        double w[STREAM_FIELDS] = {0}, chain[CHAIN_CLASSES] = {0};
        const char *next = i + 1 < f->n_blocks ? f->blocks[i + 1].label : NULL;
        set_clear(&f->products); /* a product is fused into an addition of its own block, */
        set_clear(&f->sums);     /* and an addition into one more (IADD3) */
        depth_map_reset(&d, b->last - b->first);
        for (int l = b->first; l < b->last; l++) {
            ir_inst in;
            if (f->lines[l][0] != ' ' || parse_inst(f->lines[l], &in) != 0)
                continue;
            double before[STREAM_FIELDS];
            memcpy(before, w, sizeof w);
            instruction_cost(f, b, &in, next, w);
            d.line = l;
            chain_step(&d, f, b, &in, before, w, chain);
        }
        if (b->second_test && chain[0] >= 1)
            chain[0] -= 1; /* its comparison folded into the first test's predicate */
        for (int k = 0; k < CHAIN_CLASSES; k++)
            w[LINK_CHAIN[k]] = chain[k];
        if (b->id < 0)
            continue;
        d.on_chain |= d.chain_reads;
        for (int k = 0; k < STREAM_FIELDS; k++)
            t->w[b->id][k] = k == STREAM_READS ? (uint32_t)w[k] : (uint32_t)(w[k] + 0.5);
    }
    chain_reads_of(f, &d, t);
    note_trip_counts(f, t);
    note_predicated_bodies(f, t);
    free(d.name);
    free(d.len);
    free(d.links);
    free(d.reads);
    free(d.read_no);
}

/* The pointer parameters of a function that takes an exec_thread (a step,
 * or a helper it calls): its `t` and args, registers on the card.  (A
 * type's name, %struct.x, is not a value's.) */
static void note_parameters(ir_function *f, const char *define)
{
    const char *open = strchr(define, '(');
    if (!open || !strstr(define, "%struct.exec_thread*"))
        return;
    int pointer = 0; /* the parameter being read has a pointer type */
    for (const char *s = open + 1; *s && *s != ')'; s++) {
        size_t len = name_length(s);
        if (*s == '*' || !strncmp(s, "ptr ", 4))
            pointer = 1;
        else if (*s == ',')
            pointer = 0;
        if (len > 0) {
            if (pointer)
                set_add(&f->free_ptrs, s, len);
            s += len - 1;
        }
    }
}

static int write_table(FILE *out, const weights *t)
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
    fprintf(out, "@mcm_stream_chain_reads = constant [%d x i32] ", t->n);
    if (t->n == 0)
        fprintf(out, "zeroinitializer\n");
    for (int i = 0; i < t->n; i++)
        fprintf(out, "%si32 %u%s", i ? ", " : "[", t->chain_reads[i], i + 1 == t->n ? "]\n" : "");
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
 * array's line, whose one step function goes into `steps`. */
static void note_looped_kernel(const char *line, name_set *arrays, name_set *steps)
{
    size_t len = global_name_length(line);
    if (len == 0)
        return;
    if (set_has(arrays, line, len)) {
        const char *step = strrchr(line, '@');
        set_add(steps, step, global_name_length(step));
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
    if (array > decl && looped > array && atoi(looped + 6) == 1)
        set_add(arrays, array - 1, global_name_length(array - 1));
}

int stream_annotate(FILE *in, const char *where, FILE *out)
{
    ir_function f = {0};
    weights t = {0};
    char *line = NULL;
    size_t cap = 0;
    int in_function = 0, number = 0, opaque = 0;
    name_set looped_arrays = {0}, looped_steps = {0};
    for (ssize_t len; (len = getline(&line, &cap, in)) >= 0;) {
        number++;
        char *trace = strstr(line, TRACE_CALL);
        if (trace && !strncmp(line, "declare", 7))
            continue; /* defined at the end (write_counter) */
        opaque |= names_opaque_pointer(line);
        if (trace) { /* a number; the block's weight goes to its first */
            if (!in_function) {
                free(line);
                function_free(&f);
                free(t.w);
                set_clear(&looped_arrays);
                set_clear(&looped_steps);
                free(looped_arrays.names);
                free(looped_steps.names);
                free(t.chain_reads);
                return fail("%s:%d: an instrumentation call outside a function (not clang's IR?)", where, number);
            }
            t.w = grow(t.w, &t.cap, t.n + 1, sizeof *t.w);
            t.chain_reads = grow(t.chain_reads, &t.cap_chain, t.n + 1, sizeof *t.chain_reads);
            memset(t.w[t.n], 0, sizeof t.w[t.n]);
            t.chain_reads[t.n] = 0;
            if (f.blocks[f.n_blocks - 1].id < 0)
                f.blocks[f.n_blocks - 1].id = t.n;
            fprintf(out, "%.*s@mcm_stream_block(i32 %d)%s", (int)(trace - line), line, t.n++,
                    trace + strlen(TRACE_CALL));
            continue;
        }
        fputs(line, out);
        if (!in_function && !strncmp(line, "define ", 7)) {
            in_function = 1;
            function_clear(&f);
            note_parameters(&f, line);
            const char *name = strchr(line, '@');
            f.looped_step = name && set_has(&looped_steps, name, global_name_length(name));
            f.blocks = grow(f.blocks, &f.cap_blocks, 1, sizeof *f.blocks);
            f.blocks[f.n_blocks++] = (ir_block){.id = -1};
            continue;
        }
        if (!in_function) {
            note_looped_kernel(line, &looped_arrays, &looped_steps);
            continue;
        }
        char label[64];
        if (line[0] == '}') { /* the function's end */
            f.blocks[f.n_blocks - 1].last = f.n_lines;
            weigh_function(&f, &t);
            in_function = 0;
            continue;
        }
        f.lines = grow(f.lines, &f.cap_lines, f.n_lines + 1, sizeof *f.lines);
        f.lines[f.n_lines] = strdup(line);
        if (label_line(line, label, sizeof label)) {
            f.blocks[f.n_blocks - 1].last = f.n_lines;
            f.blocks = grow(f.blocks, &f.cap_blocks, f.n_blocks + 1, sizeof *f.blocks);
            ir_block *b = &f.blocks[f.n_blocks++];
            *b = (ir_block){.id = -1, .first = f.n_lines + 1};
            snprintf(b->label, sizeof b->label, "%s", label);
        } else if (line[0] == ' ') {
            note_successors(&f.blocks[f.n_blocks - 1], line);
        }
        f.n_lines++;
    }
    free(line);
    int rc = in_function ? fail("%s: ends inside a function (not clang's IR?)", where)
                         : write_table(out, &t) < 0 ? -1 : write_counter(out, opaque);
    if (rc < 0 && !fail_message()[0])
        fail("%s: cannot write the counted IR", where);
    function_free(&f);
    free(t.w);
    set_clear(&looped_arrays);
    set_clear(&looped_steps);
    free(looped_arrays.names);
    free(looped_steps.names);
    free(t.chain_reads);
    return rc;
}
