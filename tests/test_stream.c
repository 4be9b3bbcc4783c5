/*
 * test_stream.c — the instruction stream (sim/exec/stream.h): the IR reader's
 * rules on hand-written IR; instructions counted per warp in exec mode on
 * hand-checked kernels (tests/user/stream.c: a loop, a branch taken by
 * part of a warp, a Z/pZ multiplication), each expected count derived from
 * the rules of sim/exec/stream_ir*.c; the issue-rate and latency rules on
 * hand-computed blocks; and with the term off, today's T to the bit.
 */
#include "card_terms.h"
#include "helpers.h"
#include "stream.h"
#include "user_program.h"
#include "validate.h"

#include <criterion/criterion.h>
#include <math.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- the IR reader ------------------------------------------------------- */

/* The weights stream_annotate gives the blocks of `ir`, into w (at most
 * `max` blocks); the count of blocks. */
/* The IR stream_annotate makes of `ir` (owned by the caller). */
static char *annotated(const char *ir)
{
    FILE *in = fmemopen((void *)ir, strlen(ir), "r");
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    cr_assert_eq(stream_annotate(in, "test.ll", out), 0, "%s", fail_message());
    fclose(in);
    fclose(out);
    return text;
}

/* The count written into the IR (stream_ir.c, write_counter) spells its
 * pointers as the IR around it does: clang 14's typed pointers, or later
 * clangs' `ptr` (llvm-as-14 -opaque-pointers takes the second). */
Test(stream, the_inline_count_spells_pointers_as_the_ir_around_it)
{
    const char *typed = "define void @f(i8* %0) {\n  call void @__sanitizer_cov_trace_pc()\n  ret void\n}\n"
                        "declare void @__sanitizer_cov_trace_pc()\n";
    const char *opaque = "define void @f(ptr %0) {\n  call void @__sanitizer_cov_trace_pc()\n  ret void\n}\n"
                         "declare void @__sanitizer_cov_trace_pc()\n";
    char *a = annotated(typed), *b = annotated(opaque);
    cr_expect(strstr(a, "@mcm_stream_running = external thread_local(initialexec) global i8*\n") != NULL, "%s", a);
    cr_expect(strstr(a, "load i32, i32* %blocks.p") != NULL, "%s", a);
    cr_expect(strstr(b, "@mcm_stream_running = external thread_local(initialexec) global ptr\n") != NULL, "%s", b);
    cr_expect(strstr(b, "i32*") == NULL && strstr(b, "i8*") == NULL, "%s", b);
    cr_expect(strstr(a, "declare void @__sanitizer_cov_trace_pc") == NULL, "%s", a);
    free(a);
    free(b);
}

static int weigh(const char *ir, uint32_t w[][STREAM_FIELDS], int max)
{
    char *text = annotated(ir);
    const char *table = strstr(text, "@mcm_stream_table");
    cr_assert_not_null(table, "no table in:\n%s", text);
    char *links = strstr(text, "@mcm_stream_chain_reads"); /* the weights' table ends there */
    cr_assert_not_null(links, "no chain reads' table in:\n%s", text);
    cr_expect(strstr(text, "define internal void @mcm_stream_block(i32 %id) alwaysinline") != NULL,
              "the count inline: %s", text);
    *links = '\0';
    int n = 0;
    for (const char *s = strstr(table, "] [i32"); s && n < max; s = strstr(s + 1, "] [i32")) {
        const char *p = s + 2;
        for (int k = 0; k < STREAM_FIELDS; k++) {
            p = strstr(p, "i32 ") + 4;
            w[n][k] = (uint32_t)strtoul(p, NULL, 10);
        }
        n++;
    }
    cr_expect(strstr(text, "call void @mcm_stream_block(i32 0)") != NULL, "the first block's call: %s", text);
    free(text);
    return n;
}

/* A step of clang's making: the thread's index, a loop over 64-bit words,
 * a branch to the block that follows, one that jumps. */
static const char *const step_ir =
    "define internal void @step(%struct.exec_thread* noundef %0, i8* noundef %1) {\n"
    "  call void @__sanitizer_cov_trace_pc() #3\n"
    "  %3 = getelementptr inbounds %struct.exec_thread, %struct.exec_thread* %0, i64 0, i32 0\n"
    "  %4 = load i32, i32* %3, align 8\n"
    "  %5 = sext i32 %4 to i64\n"
    "  %6 = getelementptr inbounds i8, i8* %1, i64 8\n"
    "  %7 = bitcast i8* %6 to i64*\n"
    "  %8 = load i64, i64* %7, align 8\n"
    "  %9 = add nsw i64 %5, %8\n"
    "  br label %10\n"
    "\n"
    "10:                                               ; preds = %10, %2\n"
    "  %11 = phi i64 [ %9, %2 ], [ %17, %10 ]\n"
    "  %12 = phi i64 [ 0, %2 ], [ %16, %10 ]\n"
    "  call void @__sanitizer_cov_trace_pc() #3\n"
    "  %13 = add nsw i64 %5, %8\n"
    "  %14 = and i64 %11, 4294967295\n"
    "  %15 = mul nuw i64 %14, %14\n"
    "  %16 = mul i64 %15, %11\n"
    "  %17 = tail call i64 @exec_zp_mul(%struct.exec_thread* noundef %0, i64 noundef %16, i64 noundef %13)\n"
    "  %18 = icmp ult i64 %17, %12\n"
    "  br i1 %18, label %10, label %19\n"
    "\n"
    "19:                                               ; preds = %10\n"
    "  call void @__sanitizer_cov_trace_pc() #3\n"
    "  tail call void @exec_pwrite(%struct.exec_thread* noundef %0, i64 noundef %5, i64 noundef %17)\n"
    "  br label %21\n"
    "\n"
    "20:                                               ; preds = %19\n"
    "  call void @__sanitizer_cov_trace_pc() #3\n"
    "  ret void\n"
    "\n"
    "21:                                               ; preds = %19\n"
    "  call void @__sanitizer_cov_trace_pc() #3\n"
    "  br label %20\n"
    "}\n"
    "\n"
    "declare void @__sanitizer_cov_trace_pc()\n";

Test(stream, the_ir_reader_weighs_each_block_by_the_rules)
{
    uint32_t w[8][STREAM_FIELDS];
    cr_assert_eq(weigh(step_ir, w, 8), 5);
    /* entry: reading t->tid and an arg costs nothing, nor does widening the
     * index; a 64-bit addition 2; the jump to the next block none */
    cr_expect_eq(w[0][STREAM_INST], 2);
    /* the loop: the addition of the entry again, on free values only, is
     * done once before the loop (0); the mask of the low word 0; a 32 × 32
     * bit product IMAD.WIDE.U32 (1); a 64-bit product 3; the call 9, a
     * mulmod; a 64-bit comparison 2; a conditional branch 1 */
    cr_expect_eq(w[1][STREAM_INST], 0 + 0 + 1 + 3 + 9 + 2 + 1);
    cr_expect_eq(w[1][STREAM_PLAIN], 7, "the mulmod's own instructions are not plain");
    cr_expect_eq(w[1][STREAM_MULMOD], 1);
    /* its chain: each instruction needs the one before it (the product of
     * the low word, the product by the phi, the call, the comparison, the
     * branch): the 7 plain instructions, of which the comparison's last
     * the predicate the branch waits for, and the mulmod, one link */
    cr_expect_eq(w[1][STREAM_CHAIN_PLAIN], 6);
    cr_expect_eq(w[1][STREAM_CHAIN_PREDICATE], 1);
    cr_expect_eq(w[1][STREAM_CHAIN_MULMOD], 1);
    /* a private write 2, a jump to a block that does not follow 1 */
    cr_expect_eq(w[2][STREAM_INST], 3);
    cr_expect_eq(w[2][STREAM_PRIVATE], 1);
    cr_expect_eq(w[2][STREAM_PLAIN], 1);
    cr_expect_eq(w[3][STREAM_INST], 0, "ret: the steps are inlined on the card");
    cr_expect_eq(w[4][STREAM_INST], 1, "a jump back to a block above");
}

Test(stream, ir_that_is_not_clangs_is_refused)
{
    const char *bad = "  call void @__sanitizer_cov_trace_pc()\n";
    FILE *in = fmemopen((void *)bad, strlen(bad), "r"), *out = fopen("/dev/null", "w");
    cr_expect_eq(stream_annotate(in, "bad.ll", out), -1);
    cr_expect(strstr(fail_message(), "bad.ll:1") != NULL, "%s", fail_message());
    fclose(in);
    fclose(out);
}

/* ---- counted in exec mode ------------------------------------------------ */

/* A machine that charges the stream, with the H100's latencies rounded:
 * a plain link 5 cycles, a Z/pZ product 68, an addition 22, a private
 * access 29. */
static machine latency_machine(void)
{
    machine m = test_machine(4, 1);
    m.issue_rate = 4;
    m.cycles_issue = 5;
    m.cycles_mulmod = 68;
    m.cycles_addmod = 22;
    m.cycles_private = 29;
    return m;
}

/* The fixture's DAG at k (and `blocks`), counted on machine m. */
static kernel_dag *counted_on(double k, double blocks, machine m)
{
    static char cache[64];
    snprintf(cache, sizeof cache, "/tmp/mcmsim-stream-XXXXXX");
    cr_assert_not_null(mkdtemp(cache));
    setenv("MCMSIM_CACHE", cache, 1);
    char source[512];
    snprintf(source, sizeof source, "%s/tests/user/stream.c", MCMSIM_DATADIR);
    vars params = test_params("k blocks", k, blocks);
    kernel_dag *dag = user_program_build(source, &params, &m);
    cr_assert_not_null(dag, "%s", fail_message());
    cr_assert_eq(dag->n, 13);
    return dag;
}

/* The fixture's DAG at k (and `blocks`), counted on latency_machine. */
static kernel_dag *counted(double k, double blocks)
{
    return counted_on(k, blocks, latency_machine());
}

/* Warp instructions of kernel k's block b (one warp a block). */
static double warp_inst(const kernel_dag *dag, int k, long b)
{
    const block_cost *c = kernel_block_cost(&dag->kernels[k], b);
    cr_assert_eq(c->stream, 1, "kernel %d block %ld: not counted", k, b);
    return c->stream_work;
}

Test(stream, a_loop_counts_its_passes)
{
    /* the counted build unrolls x = x + (x >> 3) four times, as nvcc does
     * a loop of unknown trips (and clang for the NVPTX target): one pass of
     * the loop is 4 shifts and 4 additions on 32 bits (8), the counter's
     * addition, its comparison and the branch back (3); 8 more trips are
     * two passes */
    kernel_dag *eight = counted(8, 1), *sixteen = counted(16, 1);
    cr_expect_eq(warp_inst(sixteen, 0, 0) - warp_inst(eight, 0, 0), 2 * (8 + 3));
    /* the step's path: per trip the shift and the addition, each of the
     * one before (2 links), the counter's three beside them; a pass's 8
     * links (40 cycles) outlast its 11 instructions one a cycle */
    const block_cost *a = kernel_block_cost(&eight->kernels[0], 0), *b = kernel_block_cost(&sixteen->kernels[0], 0);
    cr_expect_eq(b->stream_span[OP_PLAIN] - a->stream_span[OP_PLAIN], 2 * 8);
    cr_expect_eq(b->stream_issued, 0);
    kernel_dag_free(eight);
    kernel_dag_free(sixteen);
}

/* One warp of one thread of a block of `threads` threads passes blocks
 * 0 .. blocks − 1 of table w once, one step, on machine m (the block's
 * other warps do what it does): its block's costs. */
static block_cost one_pass_in(uint32_t w[][STREAM_FIELDS], int blocks, int threads, const machine *m)
{
    stream_table table = {blocks, (const uint32_t(*)[STREAM_FIELDS])w, NULL, NULL};
    stream_counter *c = stream_counter_new(&table, 32, threads, 1, m);
    stream_thread(c);
    for (int b = 0; b < blocks; b++)
        mcm_stream_block((uint32_t)b);
    stream_warp_end(c);
    stream_step_end(c);
    block_cost cost = {0};
    stream_block_end(c, threads, &cost);
    stream_counter_free(c);
    return cost;
}

/* The same, the block one warp. */
static block_cost one_pass(uint32_t w[][STREAM_FIELDS], int blocks, const machine *m)
{
    return one_pass_in(w, blocks, 32, m);
}

/* constants.cu's loop kernel as clang makes it (`#pragma unroll 1`): a
 * pass is x = x·x + j, the counter's addition, its comparison against
 * 1024 and the branch back. */
static const char *const loop_ir =
    "define internal void @loop(%struct.exec_thread* noundef %0, i8* noundef %1) {\n"
    "  call void @__sanitizer_cov_trace_pc() #3\n"
    "  br label %3\n"
    "\n"
    "3:                                                ; preds = %3, %2\n"
    "  %4 = phi i32 [ 0, %2 ], [ %8, %3 ]\n"
    "  %5 = phi i32 [ 1, %2 ], [ %7, %3 ]\n"
    "  call void @__sanitizer_cov_trace_pc() #3\n"
    "  %6 = mul i32 %5, %5\n"
    "  %7 = add i32 %6, %4\n"
    "  %8 = add nuw nsw i32 %4, 1\n"
    "  %9 = icmp eq i32 %8, 1024\n"
    "  br i1 %9, label %10, label %3\n"
    "\n"
    "10:                                               ; preds = %3\n"
    "  call void @__sanitizer_cov_trace_pc() #3\n"
    "  ret void\n"
    "}\n"
    "\n"
    "declare void @__sanitizer_cov_trace_pc()\n";

Test(stream, a_rolled_loops_pass_is_the_chain_of_its_counter)
{
    /* the pass: the product and its addition one IMAD, the counter's
     * addition, the comparison, the branch (4 instructions); its longest
     * chain the counter's three (the IMAD needs only the phis), the
     * comparison the link the branch waits for (a predicate link): the
     * chain card.c takes off constants.cu's loop pass to find cycles_branch */
    uint32_t w[3][STREAM_FIELDS];
    cr_assert_eq(weigh(loop_ir, w, 3), 3);
    cr_expect_eq(w[1][STREAM_INST], 4);
    cr_expect_eq(w[1][STREAM_CHAIN_PLAIN], 2);
    cr_expect_eq(w[1][STREAM_CHAIN_PREDICATE], 1);

    /* one thread, one pass: the pass's chain 2 plain links (5 cycles) and
     * the comparison at cycles_predicate (13: ptxas's stall count between
     * an ISETP and the branch that reads it), a plain link without the
     * key; the kernel's entry and exit 2 plain links beside */
    machine m = latency_machine();
    m.cycles_predicate = 13;
    block_cost cost = one_pass(w, 3, &m);
    cr_expect_eq(cost.stream_predicates, 1);
    cr_expect_float_eq(block_span_cycles(&cost, &m), (2 + 2) * 5 + 13 + cost.stream_issued * WARP_ISSUE_CYCLES, 1e-9);
    m.cycles_predicate = 0;
    cr_expect_float_eq(block_span_cycles(&cost, &m), (2 + 2 + 1) * 5 + cost.stream_issued * WARP_ISSUE_CYCLES, 1e-9);
}

Test(stream, each_pass_back_through_a_loop_waits_for_the_taken_branch)
{
    /* the adds kernel, unrolled by 4: 8 more trips are two more passes,
     * each entered by the branch back (stream_branches), each 8 links of
     * 5 cycles and, with cycles_branch, 13 more; without the key the span
     * is the chains' alone */
    machine m = latency_machine();
    m.cycles_branch = 13;
    kernel_dag *eight = counted_on(8, 1, m), *sixteen = counted_on(16, 1, m);
    const block_cost *a = kernel_block_cost(&eight->kernels[0], 0), *b = kernel_block_cost(&sixteen->kernels[0], 0);
    cr_expect_eq(b->stream_branches - a->stream_branches, 2);
    cr_expect_gt(a->stream_branches, 0, "8 trips: passes after the first");
    cr_expect_float_eq(block_span_cycles(b, &m) - block_span_cycles(a, &m), 2 * (8 * 5 + 13), 1e-9);
    m.cycles_branch = 0;
    cr_expect_float_eq(block_span_cycles(b, &m) - block_span_cycles(a, &m), 2 * 8 * 5, 1e-9);
    /* a step with no loop (the branch kernel) enters no block twice */
    cr_expect_eq(kernel_block_cost(&eight->kernels[1], 0)->stream_branches, 0);
    kernel_dag_free(eight);
    kernel_dag_free(sixteen);
}

Test(stream, a_warp_issues_both_sides_of_a_branch_its_threads_split_on)
{
    /* the entry: the thread's global index bid·ℓ + tid (bid a 32-bit
     * register: IMAD.WIDE.U32 and an IMAD for ℓ's high word, 2, the
     * addition in them), the comparison 1, the branch 1; the join: the
     * write 3; the kernel's entry 2; tid, ℓ and bid read (S2R, LDC, S2UR:
     * 3), tid and ℓ widened to 64 bits (2); the memory descriptor and the
     * array's base (2): 16.  The side of t < k: x·x + 7 (one IMAD) and a
     * jump over the other side (1); the other: i + 32 (2), x ^ (x >> 5)
     * (2), falling through to the join. */
    kernel_dag *none = counted(0, 1), *half = counted(16, 1), *one = counted(1, 1), *all = counted(32, 1);
    cr_expect_eq(warp_inst(none, 1, 0), 16 + 4);
    cr_expect_eq(warp_inst(all, 1, 0), 16 + 2);
    cr_expect_eq(warp_inst(half, 1, 0), 16 + 2 + 4, "half the warp on each side: the warp issues both");
    cr_expect_eq(warp_inst(one, 1, 0), warp_inst(half, 1, 0), "one thread apart costs the warp as much as half");
    kernel_dag_free(none);
    kernel_dag_free(half);
    kernel_dag_free(one);
    kernel_dag_free(all);
}

/* A multiply-add loop of clang's making: the sum a phi of 0 and its own
 * next value, each product of a word read from global memory; after the
 * loop, a subtraction of the sum and the last word read (not known below
 * p), one of that difference and the word, and an addition of the word to
 * itself. */
static const char *const mac_ir =
    "define internal void @mac(%struct.exec_thread* noundef %0, i8* noundef %1) {\n"
    "  call void @__sanitizer_cov_trace_pc() #3\n"
    "  br label %3\n"
    "\n"
    "3:                                                ; preds = %3, %2\n"
    "  %4 = phi i64 [ 0, %2 ], [ %8, %3 ]\n"
    "  %5 = phi i64 [ 0, %2 ], [ %9, %3 ]\n"
    "  call void @__sanitizer_cov_trace_pc() #3\n"
    "  %6 = tail call i64 @exec_gread(%struct.exec_thread* noundef %0, %struct.exec_array* noundef null, i64 noundef %5)\n"
    "  %7 = tail call i64 @exec_zp_mul(%struct.exec_thread* noundef %0, i64 noundef %6, i64 noundef 3)\n"
    "  %8 = tail call i64 @exec_zp_add(%struct.exec_thread* noundef %0, i64 noundef %4, i64 noundef %7)\n"
    "  %9 = add nuw nsw i64 %5, 1\n"
    "  %10 = icmp eq i64 %9, 16\n"
    "  br i1 %10, label %11, label %3\n"
    "\n"
    "11:                                               ; preds = %3\n"
    "  call void @__sanitizer_cov_trace_pc() #3\n"
    "  %12 = tail call i64 @exec_zp_sub(%struct.exec_thread* noundef %0, i64 noundef %8, i64 noundef %6)\n"
    "  %13 = tail call i64 @exec_zp_sub(%struct.exec_thread* noundef %0, i64 noundef %12, i64 noundef %6)\n"
    "  %14 = tail call i64 @exec_zp_add(%struct.exec_thread* noundef %0, i64 noundef %6, i64 noundef %6)\n"
    "  ret void\n"
    "}\n"
    "\n"
    "declare void @__sanitizer_cov_trace_pc()\n";

Test(stream, an_addition_of_results_skips_its_range_checks)
{
    uint32_t w[4][STREAM_FIELDS];
    cr_assert_eq(weigh(mac_ir, w, 4), 3);
    /* the loop: a read (3), the multiplication (9), the addition of the
     * sum and the product, both below p (3, not 12), the counter's 64-bit
     * addition and comparison (2 + 2), the branch back (1) */
    double add_of_results = stream_call_cost("exec_zp_add:results");
    cr_assert_lt(add_of_results, stream_call_cost("exec_zp_add"));
    cr_expect_eq(w[1][STREAM_INST], 3 + 9 + add_of_results + 2 + 2 + 1);
    cr_expect_eq(w[1][STREAM_ADDMOD], 1);
    /* its chain: the read's address (2) and load (a global read's link),
     * the product, the addition's tail after the product (3 plain: the
     * sum, its comparison with p, the select); the counter's five beside
     * it */
    cr_expect_eq(w[1][STREAM_CHAIN_PLAIN], 2 + 3);
    cr_expect_eq(w[1][STREAM_CHAIN_GLOBAL], 1);
    cr_expect_eq(w[1][STREAM_CHAIN_MULMOD], 1);
    cr_expect_eq(w[1][STREAM_CHAIN_ADDMOD], 0);
    /* after it: a subtraction of a result and a word read from memory
     * checks the word's range alone (8.5: validate/stream/sass-costs.sh's
     * mixsub kernels), twice; an addition of two words read checks both
     * (10) */
    double one_result = stream_call_cost("exec_zp_sub:one_result");
    cr_assert_gt(one_result, add_of_results);
    cr_assert_lt(one_result, stream_call_cost("exec_zp_sub"));
    cr_expect_eq(w[2][STREAM_INST], 2 * one_result + stream_call_cost("exec_zp_add"));
    cr_expect_eq(w[2][STREAM_ADDMOD], 3);
}

/* Two products, a select of them (or of one and the word read) as its
 * line's last operand, and two additions of the select and a product. */
static const char *select_ir(const char *other)
{
    static char ir[2048];
    snprintf(ir, sizeof ir,
             "define internal void @pick(%%struct.exec_thread* noundef %%0, i8* noundef %%1) {\n"
             "  call void @__sanitizer_cov_trace_pc() #3\n"
             "  %%3 = tail call i64 @exec_gread(%%struct.exec_thread* noundef %%0, %%struct.exec_array* noundef null, "
             "i64 noundef 0)\n"
             "  %%4 = tail call i64 @exec_zp_mul(%%struct.exec_thread* noundef %%0, i64 noundef %%3, i64 noundef 3)\n"
             "  %%5 = tail call i64 @exec_zp_mul(%%struct.exec_thread* noundef %%0, i64 noundef %%3, i64 noundef 5)\n"
             "  %%6 = icmp ult i64 %%3, 7\n"
             "  %%7 = select i1 %%6, i64 %%4, i64 %s\n"
             "  %%8 = tail call i64 @exec_zp_add(%%struct.exec_thread* noundef %%0, i64 noundef %%7, i64 noundef %%4)\n"
             "  %%9 = tail call i64 @exec_zp_add(%%struct.exec_thread* noundef %%0, i64 noundef %%7, i64 noundef %%5)\n"
             "  ret void\n"
             "}\n"
             "\n"
             "declare void @__sanitizer_cov_trace_pc()\n",
             other);
    return ir;
}

Test(stream, a_select_of_two_results_is_known_below_p_when_its_line_ends_with_a_name)
{
    /* the select's last operand is the line's last word: "%5\n" names the
     * product, so each addition of the select and a product skips both range
     * checks (3); with the word read (%3) in its place, one operand of each
     * is unknown (8.5) */
    uint32_t both[2][STREAM_FIELDS], one[2][STREAM_FIELDS];
    cr_assert_eq(weigh(select_ir("%5"), both, 2), 1);
    cr_assert_eq(weigh(select_ir("%3"), one, 2), 1);
    cr_expect_eq(one[0][STREAM_INST] - both[0][STREAM_INST],
                 2 * (stream_call_cost("exec_zp_add:one_result") - stream_call_cost("exec_zp_add:results")),
                 "%u against %u",
                 one[0][STREAM_INST], both[0][STREAM_INST]);
}

Test(stream, a_loop_bounded_by_an_arg_is_unrolled_though_its_body_writes_memory)
{
    /* nvcc's args are constants, so a loop bounded by one has trips it
     * knows and it unrolls it by 4 even where the body writes memory; the
     * counted build's args are `restrict`, so clang knows a private write
     * leaves k alone too.  Four more trips are one more pass: 4 private
     * writes, their indices 32·j + tid (the first a shift and its addition,
     * one LEA, the others a shift, an `or` of the trip's offset and an
     * addition: 10),
     * and once a pass the counters' two additions, the comparison and the
     * branch (4); a loop kept rolled would pay its counter every trip. */
    kernel_dag *four = counted(4, 1), *eight = counted(8, 1);
    double pass = warp_inst(eight, 12, 0) - warp_inst(four, 12, 0), pwrite = stream_call_cost("exec_pwrite");
    cr_expect_eq(pass, 4 * pwrite + 10 + 4);
    cr_expect_lt(pass, 4 * (pwrite + 2 + 3), "the counter once a pass, not once a trip");
    kernel_dag_free(four);
    kernel_dag_free(eight);
}

Test(stream, a_helper_of_the_file_costs_what_its_body_written_in_place_does)
{
    /* nvcc inlines every function of the file into the kernel, and the
     * helper's test of a flag its caller passes as a constant goes with
     * it: the steps that call reduce(t, a, 1) and reduce(t, a, 0) issue
     * what the same steps with the chosen side written in place issue
     * (clang alone inlines one call and keeps the other: a call, its
     * return and the flag's test more) */
    kernel_dag *dag = counted(4, 1);
    cr_expect_eq(warp_inst(dag, 10, 0), warp_inst(dag, 11, 0));
    kernel_dag_free(dag);
}

/* An arg halved, reloaded after a call (clang cannot know the call left
 * it alone) and halved again, then quartered. */
static const char *const halves_ir =
    "define internal void @halves(%struct.exec_thread* noundef %0, i8* noundef %1) {\n"
    "  call void @__sanitizer_cov_trace_pc() #3\n"
    "  %3 = getelementptr inbounds i8, i8* %1, i64 24\n"
    "  %4 = bitcast i8* %3 to i64*\n"
    "  %5 = load i64, i64* %4, align 8, !tbaa !7\n"
    "  %6 = sdiv i64 %5, 2\n"
    "  tail call void @exec_ops(%struct.exec_thread* noundef %0, i64 noundef 9)\n"
    "  %7 = load i64, i64* %4, align 8, !tbaa !7\n"
    "  %8 = sdiv i64 %7, 2\n"
    "  %9 = sdiv i64 %7, 4\n"
    "  ret void\n"
    "}\n"
    "\n"
    "declare void @__sanitizer_cov_trace_pc()\n";

Test(stream, the_same_arithmetic_on_args_is_done_once_and_a_halving_is_shifts)
{
    uint32_t w[2][STREAM_FIELDS];
    cr_assert_eq(weigh(halves_ir, w, 2), 1);
    /* the first halving 5.5 (shifts and the sign's correction); the
     * second, of the same arg reloaded, nothing (nvcc computes it once);
     * the quartering, another value, 5.5 */
    cr_expect_eq(w[0][STREAM_INST], 11);
}

/* A row and a column from a cell's index (g / n, g % n), then a
 * remainder by another divisor; a quotient and remainder by a constant. */
static const char *const row_column_ir =
    "define internal void @row_column(%struct.exec_thread* noundef %0, i8* noundef %1) {\n"
    "  call void @__sanitizer_cov_trace_pc() #3\n"
    "  %3 = tail call i64 @exec_gread(%struct.exec_thread* noundef %0, %struct.exec_array* noundef null, i64 noundef 0)\n"
    "  %4 = tail call i64 @exec_gread(%struct.exec_thread* noundef %0, %struct.exec_array* noundef null, i64 noundef 1)\n"
    "  %5 = sdiv i64 %3, %4\n"
    "  %6 = srem i64 %3, %4\n"
    "  %7 = srem i64 %4, %3\n"
    "  %8 = sdiv i64 %3, 7\n"
    "  %9 = srem i64 %3, 7\n"
    "  ret void\n"
    "}\n"
    "\n"
    "declare void @__sanitizer_cov_trace_pc()\n";

Test(stream, a_remainder_after_its_division_is_a_product_and_a_difference)
{
    uint32_t w[2][STREAM_FIELDS];
    cr_assert_eq(weigh(row_column_ir, w, 2), 1);
    /* two reads at constant indices (1 + 1: [R + 4c]); the division by a
     * number, 64 bits (24: both tested for 32 bits, LOP3 ISETP BSSY BRA
     * BSYNC, the 32-bit division and its high word zeroed, 19); the
     * remainder of the same operands, on the division's 32-bit path
     * (IMAD.MOV, IMAD, the high word zeroed: 3); a remainder of other
     * operands, a division again (24); by a constant, a multiplication
     * (12) and the remainder a 64-bit product and difference (3 + 2) */
    cr_expect_eq(w[0][STREAM_INST], 1 + 1 + 24 + 3 + 24 + 12 + 5);
}

/* A cell's row by a width read from memory (long operands, as the
 * stencil's g / n), then the row's 32-bit quotient by the width again
 * (plain multiplication's index / width): two divisions by a runtime
 * number, each waiting for the one before. */
static const char *const two_divisions_ir =
    "define internal void @two_divisions(%struct.exec_thread* noundef %0, i8* noundef %1) {\n"
    "  call void @__sanitizer_cov_trace_pc() #3\n"
    "  %3 = tail call i64 @exec_gread(%struct.exec_thread* noundef %0, %struct.exec_array* noundef null, i64 noundef 0)\n"
    "  %4 = tail call i64 @exec_gread(%struct.exec_thread* noundef %0, %struct.exec_array* noundef null, i64 noundef 1)\n"
    "  %5 = sdiv i64 %3, %4\n"
    "  %6 = trunc i64 %5 to i32\n"
    "  %7 = trunc i64 %4 to i32\n"
    "  %8 = udiv i32 %6, %7\n"
    "  ret void\n"
    "}\n"
    "\n"
    "declare void @__sanitizer_cov_trace_pc()\n";

Test(stream, a_division_by_a_number_costs_its_measured_latency_where_the_machine_has_it)
{
    uint32_t w[2][STREAM_FIELDS];
    cr_assert_eq(weigh(two_divisions_ir, w, 2), 1);
    /* the chain: a read's load (its address a constant offset, no plain
     * link), the long division's 24 plain links, the 32-bit one's 20
     * (the truncations are register names); both counted as divisions,
     * past a barrier too (they wait for reads, no free values) */
    cr_expect_eq(w[0][STREAM_CHAIN_GLOBAL], 1);
    cr_expect_eq(w[0][STREAM_CHAIN_PLAIN], STREAM_DIVIDE_INST + STREAM_DIVIDE32_INST);
    cr_expect_eq(w[0][STREAM_CHAIN_DIVIDE], 1);
    cr_expect_eq(w[0][STREAM_CHAIN_DIVIDE32], 1);
    cr_expect_eq(w[0][STREAM_AFTER_DIVIDE], 1);
    cr_expect_eq(w[0][STREAM_AFTER_DIVIDE32], 1);

    /* one thread, one pass, at 5 cycles a plain link: without the keys the
     * divisions are their 44 links, with 4 more (the kernel's entry and
     * exit; its reads of the memory's descriptor and of the array's base,
     * STREAM_READS): 240 cycles; with cycles_divide = 60 and
     * cycles_divide32 = 50 each division is its latency in place of its
     * links: 4·5 + 60 + 50 = 130 */
    machine m = latency_machine();
    block_cost cost = one_pass(w, 1, &m);
    cr_expect_eq(cost.stream_divisions[0], 1);
    cr_expect_eq(cost.stream_divisions[1], 1);
    cr_expect_eq(cost.stream_division_links[0], STREAM_DIVIDE_INST, "what the long one's latency replaces");
    cr_expect_eq(cost.stream_division_links[1], STREAM_DIVIDE32_INST, "what the 32-bit one's latency replaces");
    double issued = cost.stream_issued * WARP_ISSUE_CYCLES;
    cr_expect_eq(cost.stream_span[OP_PLAIN], 4 + 44);
    cr_expect_eq(block_span_cycles(&cost, &m), (4 + 44) * 5 + issued, "the links, exactly, without the keys");
    m.cycles_divide = 60;
    m.cycles_divide32 = 50;
    cr_expect_float_eq(block_span_cycles(&cost, &m), 4 * 5 + 60 + 50 + issued, 1e-9);
    m.cycles_divide32 = 0; /* the 32-bit one's links stand */
    cr_expect_float_eq(block_span_cycles(&cost, &m), (4 + 20) * 5 + 60 + issued, 1e-9);
}

/* Warps beside a division slow its instructions as they slow any links:
 * what the measured latency adds to its links is the same at every
 * sharing, so the division never costs less for having neighbours. */
Test(stream, a_division_adds_the_same_to_its_links_at_every_sharing)
{
    uint32_t w[2][STREAM_FIELDS];
    cr_assert_eq(weigh(two_divisions_ir, w, 2), 1);
    machine m = latency_machine();
    m.schedulers = 4;
    m.cycles_issue_warps2 = 5.5; /* a plain link at 2, 4 and 8 warps a scheduler */
    m.cycles_issue_warps4 = 6;
    m.cycles_issue_warps8 = 9;
    block_cost cost = one_pass(w, 1, &m);
    /* alone, a link is cycles_issue = 5: the long division adds 180 − 24·5
     * = 60 to its links, the 32-bit one 130 − 20·5 = 30 */
    double expected = (180 - STREAM_DIVIDE_INST * 5.0) + (130 - STREAM_DIVIDE32_INST * 5.0);
    for (int sharing = 1; sharing <= 8; sharing *= 2) {
        machine off = m, on = m;
        on.cycles_divide = 180;
        on.cycles_divide32 = 130;
        double added = block_span_cycles_shared(&cost, &on, sharing) - block_span_cycles_shared(&cost, &off, sharing);
        cr_expect_float_eq(added, expected, 1e-9, "%d warps a scheduler: %g added", sharing, added);
    }
}

/* The rows measure a signed long division and an unsigned 32-bit one; a
 * division of another signedness keeps its plain links. */
static const char *const other_divisions_ir =
    "define internal void @other_divisions(%struct.exec_thread* noundef %0, i8* noundef %1) {\n"
    "  call void @__sanitizer_cov_trace_pc() #3\n"
    "  %3 = tail call i64 @exec_gread(%struct.exec_thread* noundef %0, %struct.exec_array* noundef null, i64 noundef 0)\n"
    "  %4 = tail call i64 @exec_gread(%struct.exec_thread* noundef %0, %struct.exec_array* noundef null, i64 noundef 1)\n"
    "  %5 = udiv i64 %3, %4\n"
    "  %6 = trunc i64 %5 to i32\n"
    "  %7 = trunc i64 %4 to i32\n"
    "  %8 = sdiv i32 %6, %7\n"
    "  ret void\n"
    "}\n"
    "\n"
    "declare void @__sanitizer_cov_trace_pc()\n";

Test(stream, a_division_of_a_signedness_no_row_measured_keeps_its_links)
{
    uint32_t w[2][STREAM_FIELDS];
    cr_assert_eq(weigh(other_divisions_ir, w, 2), 1);
    cr_expect_eq(w[0][STREAM_CHAIN_PLAIN], STREAM_DIVIDE_INST + STREAM_DIVIDE32_INST, "both on the chain");
    cr_expect_eq(w[0][STREAM_CHAIN_DIVIDE], 0, "an unsigned long division: no row");
    cr_expect_eq(w[0][STREAM_CHAIN_DIVIDE32], 0, "a signed 32-bit division: no row");
}

/* The IR of a step that reads words 0 and 1 (%3, %4), runs `middle` on
 * them and reads at index `index`. */
static const char *read_at_ir(const char *middle, const char *index)
{
    static char ir[1536];
    snprintf(ir, sizeof ir,
             "define internal void @read_at(%%struct.exec_thread* noundef %%0, i8* noundef %%1) {\n"
             "  call void @__sanitizer_cov_trace_pc() #3\n"
             "  %%3 = tail call i64 @exec_gread(%%struct.exec_thread* noundef %%0, %%struct.exec_array* noundef null, "
             "i64 noundef 0)\n"
             "  %%4 = tail call i64 @exec_gread(%%struct.exec_thread* noundef %%0, %%struct.exec_array* noundef null, "
             "i64 noundef 1)\n"
             "%s"
             "  %%r = tail call i64 @exec_gread(%%struct.exec_thread* noundef %%0, %%struct.exec_array* noundef null, "
             "i64 noundef %s)\n"
             "  ret void\n"
             "}\n"
             "\n"
             "declare void @__sanitizer_cov_trace_pc()\n",
             middle, index);
    return ir;
}

/* A cell's row and column (g / n, g % n), the column an index read
 * again; and a row by a constant (g / 7, g % 7), the remainder an index
 * read again: each time the deepest chain passes the remainder, which
 * waits for its division's quotient (the card's `g − q·n`). */
static const char *remainder_read_ir(const char *divisor)
{
    static char middle[128];
    snprintf(middle, sizeof middle, "  %%5 = sdiv i64 %%3, %s\n  %%6 = srem i64 %%3, %s\n", divisor, divisor);
    return read_at_ir(middle, "%6");
}

/* A remainder after its division waits for the quotient, and leads the
 * chain through the division, counted once (the remainder is no second
 * division); a division by a constant on the chain is no division. */
Test(stream, a_remainder_after_its_division_leads_the_chain_through_it_counted_once)
{
    uint32_t w[2][STREAM_FIELDS];
    cr_assert_eq(weigh(remainder_read_ir("%4"), w, 2), 1);
    /* the deepest chain: a read at a constant index (its LDG alone, a
     * global link), the division by a number (24 plain links), the
     * remainder after it (3: IMAD.MOV, IMAD, the high word zeroed), the
     * read at that index (LEA, LEA.HI.X: 2 plain links, and its load) */
    cr_expect_eq(w[0][STREAM_CHAIN_GLOBAL], 2, "the chain through the remainder");
    cr_expect_eq(w[0][STREAM_CHAIN_PLAIN], STREAM_DIVIDE_INST + 3 + 2, "the remainder after the quotient");
    cr_expect_eq(w[0][STREAM_CHAIN_DIVIDE], 1, "the division once: the remainder is none");
    cr_expect_eq(w[0][STREAM_CHAIN_DIVIDE32], 0);
    cr_assert_eq(weigh(remainder_read_ir("7"), w, 2), 1);
    /* by 7: the division a 64-bit multiplication (12), the remainder its
     * product and difference (5), then the read as above */
    cr_expect_eq(w[0][STREAM_CHAIN_GLOBAL], 2, "the chain through the remainder by 7");
    cr_expect_eq(w[0][STREAM_CHAIN_PLAIN], 12 + 5 + 2, "the remainder after the quotient by 7");
    cr_expect_eq(w[0][STREAM_CHAIN_DIVIDE], 0, "by a constant: no division");
    cr_expect_eq(w[0][STREAM_CHAIN_DIVIDE32], 0);
}

/* A remainder waits only for a division of its own signedness, before it
 * in its block: after an unsigned one, or before its division, it is a
 * division itself (24 links, signed long: one division), the chain read,
 * remainder, the read's LEA and LEA.HI.X (2). */
Test(stream, a_remainder_waits_only_for_a_division_of_its_signedness_before_it)
{
    uint32_t w[2][STREAM_FIELDS];
    cr_assert_eq(weigh(read_at_ir("  %5 = udiv i64 %3, %4\n  %6 = srem i64 %3, %4\n", "%6"), w, 2), 1);
    cr_expect_eq(w[0][STREAM_CHAIN_PLAIN], STREAM_DIVIDE_INST + 2, "after an unsigned division: its own");
    cr_expect_eq(w[0][STREAM_CHAIN_DIVIDE], 1);
    cr_assert_eq(weigh(read_at_ir("  %5 = srem i64 %3, %4\n  %6 = sdiv i64 %3, %4\n", "%5"), w, 2), 1);
    cr_expect_eq(w[0][STREAM_CHAIN_PLAIN], STREAM_DIVIDE_INST + 2, "before its division: its own");
    cr_expect_eq(w[0][STREAM_CHAIN_DIVIDE], 1);
}

/* The 32-bit pair: the unsigned division (20 links, one 32-bit division),
 * the remainder after it (2: its product and difference), widened for
 * free, then the read's 2. */
Test(stream, a_32_bit_remainder_after_its_division_leads_the_chain_through_it)
{
    uint32_t w[2][STREAM_FIELDS];
    cr_assert_eq(weigh(read_at_ir("  %5 = trunc i64 %3 to i32\n  %6 = trunc i64 %4 to i32\n"
                                  "  %7 = udiv i32 %5, %6\n  %8 = urem i32 %5, %6\n  %9 = zext i32 %8 to i64\n",
                                  "%9"),
                       w, 2),
                 1);
    cr_expect_eq(w[0][STREAM_CHAIN_GLOBAL], 2);
    cr_expect_eq(w[0][STREAM_CHAIN_PLAIN], STREAM_DIVIDE32_INST + 2 + 2, "the remainder after the quotient");
    cr_expect_eq(w[0][STREAM_CHAIN_DIVIDE32], 1, "the division once");
    cr_expect_eq(w[0][STREAM_CHAIN_DIVIDE], 0);
}

/* A block's weights in table row w: `inst` instructions, all plain, and
 * as many plain links on its chain, `divisions` of them long divisions by
 * a runtime number (STREAM_DIVIDE_INST links each). */
static void division_block(uint32_t *w, uint32_t inst, uint32_t links, uint32_t divisions)
{
    memset(w, 0, sizeof(uint32_t) * STREAM_FIELDS);
    w[STREAM_INST] = w[STREAM_PLAIN] = inst;
    w[STREAM_CHAIN_PLAIN] = w[STREAM_AFTER_PLAIN] = links;
    w[STREAM_CHAIN_DIVIDE] = w[STREAM_AFTER_DIVIDE] = divisions;
}

/* Two warps of a block, one step: warp 0 passes table block 0, warp 1
 * block 1 (64 threads, one pass each), on machine m: the block's costs. */
static block_cost two_warps(uint32_t w[2][STREAM_FIELDS], const machine *m)
{
    stream_table table = {2, (const uint32_t(*)[STREAM_FIELDS])w, NULL, NULL};
    stream_counter *c = stream_counter_new(&table, 32, 64, 1, m);
    for (uint32_t b = 0; b < 2; b++) {
        stream_thread(c);
        mcm_stream_block(b);
        stream_warp_end(c);
    }
    stream_step_end(c);
    block_cost cost = {0};
    stream_block_end(c, 64, &cost);
    stream_counter_free(c);
    return cost;
}

/* The counter chooses a block's slowest warp with the division's
 * measured latency where the machine has it. */
Test(stream, with_the_division_keys_the_slowest_warp_is_the_one_through_the_division)
{
    uint32_t w[2][STREAM_FIELDS];
    division_block(w[0], 30, 30, 0); /* 30 plain links: 150 cycles at 5 a link */
    division_block(w[1], STREAM_DIVIDE_INST, STREAM_DIVIDE_INST, 1); /* 120 as links, 180 measured */
    machine off = latency_machine(), on = off;
    on.cycles_divide = 180;
    block_cost a = two_warps(w, &off), b = two_warps(w, &on);
    cr_expect_eq(a.stream_divisions[0], 0, "off: the warp of 30 links");
    cr_expect_eq(b.stream_divisions[0], 1, "on: the division's warp");
    cr_expect_eq(a.stream_span[OP_PLAIN] - b.stream_span[OP_PLAIN], 30 - STREAM_DIVIDE_INST);
}

/* A block whose instructions outlast its chain of links is charged its
 * issue; with the division's latency measured, its chain may outlast
 * them. */
Test(stream, with_the_division_keys_a_block_may_stop_being_issue_bound)
{
    uint32_t w[1][STREAM_FIELDS];
    /* 150 instructions, one a cycle, against the division's 24 links (120
     * cycles) off and its 180 measured on */
    division_block(w[0], 150, STREAM_DIVIDE_INST, 1);
    machine off = latency_machine(), on = off;
    on.cycles_divide = 180;
    block_cost a = one_pass(w, 1, &off), b = one_pass(w, 1, &on);
    cr_expect_eq(a.stream_issued, 150, "off: issue-bound, its instructions");
    cr_expect_eq(a.stream_divisions[0], 0, "and no chain");
    cr_expect_eq(b.stream_issued, 0, "on: its chain");
    cr_expect_eq(b.stream_divisions[0], 1);
}

/* Predicates of two parameters: two comparisons or'd, a third or'd in
 * (clang's select form of ||), an `and` of two predicates that are no
 * comparisons, a comparison combined again, and two whose comparisons have
 * each combined one already. */
static const char *const predicates_ir =
    "define internal void @predicates(i64 noundef %0, i64 noundef %1) {\n"
    "  call void @__sanitizer_cov_trace_pc() #3\n"
    "  %3 = icmp eq i64 %0, 0\n"
    "  %4 = icmp eq i64 %1, 0\n"
    "  %5 = or i1 %3, %4\n"
    "  %6 = icmp slt i64 %0, %1\n"
    "  %7 = select i1 %5, i1 true, i1 %6\n"
    "  %8 = and i1 %5, %7\n"
    "  %9 = xor i1 %4, %3\n"
    "  %10 = or i1 %4, %6\n"
    "  ret void\n"
    "}\n"
    "\n"
    "declare void @__sanitizer_cov_trace_pc()\n";

Test(stream, a_boolean_of_a_comparison_is_in_the_comparisons_isetp)
{
    uint32_t w[1][STREAM_FIELDS];
    cr_assert_eq(weigh(predicates_ir, w, 1), 1);
    /* three 64-bit comparisons (2 each: ISETP, ISETP.EX); %5 combined
     * into %4's ISETP (ISETP.EQ.OR.EX), %7 into %6's, %9 into %3's (0
     * each); %8 of two predicates that are no comparisons, and %10 of two
     * comparisons that have combined one each, a PLOP3 (1 each) */
    cr_expect_eq(w[0][STREAM_INST], 2 + 2 + 2 + 1 + 1);
}

/* (4·c + l + r + u) >> 3 of four words read (the stencil's sum), written
 * as a word; then a sum whose parts are used again. */
static const char *const word_sums_ir =
    "define internal void @word_sums(%struct.exec_thread* noundef %0, i8* noundef %1) {\n"
    "  call void @__sanitizer_cov_trace_pc() #3\n"
    "  %3 = tail call i64 @exec_gread(%struct.exec_thread* noundef %0, %struct.exec_array* noundef null, i64 noundef 0)\n"
    "  %4 = tail call i64 @exec_gread(%struct.exec_thread* noundef %0, %struct.exec_array* noundef null, i64 noundef 1)\n"
    "  %5 = tail call i64 @exec_gread(%struct.exec_thread* noundef %0, %struct.exec_array* noundef null, i64 noundef 2)\n"
    "  %6 = tail call i64 @exec_gread(%struct.exec_thread* noundef %0, %struct.exec_array* noundef null, i64 noundef 3)\n"
    "  %7 = shl i64 %3, 2\n"
    "  %8 = add i64 %4, %7\n"
    "  %9 = add i64 %8, %5\n"
    "  %10 = add i64 %9, %6\n"
    "  %11 = lshr i64 %10, 3\n"
    "  tail call void @exec_gwrite(%struct.exec_thread* noundef %0, %struct.exec_array* noundef null, i64 noundef 4, i64 noundef %11)\n"
    "  br label %12\n"
    "\n"
    "12:                                               ; preds = %2\n"
    "  call void @__sanitizer_cov_trace_pc() #3\n"
    "  %13 = add i64 %3, %4\n"
    "  %14 = add i64 %13, %5\n"
    "  %15 = lshr i64 %14, 3\n"
    "  tail call void @exec_gwrite(%struct.exec_thread* noundef %0, %struct.exec_array* noundef null, i64 noundef 5, i64 noundef %13)\n"
    "  tail call void @exec_gwrite(%struct.exec_thread* noundef %0, %struct.exec_array* noundef null, i64 noundef 6, i64 noundef %15)\n"
    "  tail call void @exec_gwrite(%struct.exec_thread* noundef %0, %struct.exec_array* noundef null, i64 noundef 7, i64 noundef %15)\n"
    "  ret void\n"
    "}\n"
    "\n"
    "declare void @__sanitizer_cov_trace_pc()\n";

Test(stream, words_summed_take_three_operands_an_instruction_and_a_word_written_its_low_half)
{
    uint32_t w[2][STREAM_FIELDS];
    cr_assert_eq(weigh(word_sums_ir, w, 2), 2);
    /* four reads at constant indices (1 each); 4·c a word times 2^2, fused
     * with its addition into IMAD.WIDE.U32, its addend's high word zeroed
     * (2, the addition 0); + r on 64 bits (IADD3, IADD3.X: 2) and + u its
     * third operand (0); >> 3 written as a word, its low half alone
     * (SHF.R.U64: 1); the write at a constant index (1); the jump falls
     * through (0) -- the SASS of user-stencil's 0x7c0-0x830 */
    cr_expect_eq(w[0][STREAM_INST], 4 + 2 + 0 + 2 + 0 + 1 + 1);
    /* %13 is written as well: %14 adds it whole (2 + 2); %15 is written
     * twice, still a word each, its low half (1); three writes (1 each) */
    cr_expect_eq(w[1][STREAM_INST], 2 + 2 + 1 + 3);
}

/* Private slots of two int params s and j (plain division's q_slot and
 * btop_slot): 2s + j and s + (j − s) used only as private indices, and
 * s + j used as an index and as the word stored. */
static const char *const private_slots_ir =
    "define internal void @slots(%struct.exec_thread* noundef %0, i32 noundef %1, i32 noundef %2) {\n"
    "  call void @__sanitizer_cov_trace_pc() #3\n"
    "  %4 = sext i32 %1 to i64\n"
    "  %5 = sext i32 %2 to i64\n"
    "  %6 = shl nsw i64 %4, 1\n"
    "  %7 = add nsw i64 %6, %5\n"
    "  %8 = tail call i64 @exec_pread(%struct.exec_thread* noundef %0, i64 noundef %7)\n"
    "  %9 = sub nsw i32 %2, %1\n"
    "  %10 = sext i32 %9 to i64\n"
    "  %11 = add nsw i64 %4, %10\n"
    "  tail call void @exec_pwrite(%struct.exec_thread* noundef %0, i64 noundef %11, i64 noundef %8)\n"
    "  %12 = add nsw i64 %4, %5\n"
    "  %13 = tail call i64 @exec_pread(%struct.exec_thread* noundef %0, i64 noundef %12)\n"
    "  tail call void @exec_pwrite(%struct.exec_thread* noundef %0, i64 noundef %13, i64 noundef %12)\n"
    "  ret void\n"
    "}\n"
    "\n"
    "declare void @__sanitizer_cov_trace_pc()\n";

Test(stream, a_private_index_is_computed_on_32_bits)
{
    uint32_t w[1][STREAM_FIELDS];
    cr_assert_eq(weigh(private_slots_ir, w, 1), 1);
    /* a shared-memory address is 32 bits: 2s + j is one LEA (the shift a
     * product, 1, its addition fused, 0), s + (j − s) two 32-bit
     * instructions (1 + 1): plain division's ULEA and IADD3 (its SASS,
     * 0x590, 0x820); s + j, also the word stored, 64 bits (2); four
     * private accesses (2 each) -- 17 on 64 bits before the rule */
    cr_expect_eq(w[0][STREAM_INST], 1 + 0 + 1 + 1 + 2 + 4 * 2);
}

/* A word read from private memory, its Z/pZ square stored back; a word
 * read from global memory, plus one, stored back. */
static const char *const stores_ir =
    "define internal void @stores(%struct.exec_thread* noundef %0, i8* noundef %1) {\n"
    "  call void @__sanitizer_cov_trace_pc() #3\n"
    "  %3 = tail call i64 @exec_pread(%struct.exec_thread* noundef %0, i64 noundef 0)\n"
    "  %4 = tail call i64 @exec_zp_mul(%struct.exec_thread* noundef %0, i64 noundef %3, i64 noundef %3)\n"
    "  tail call void @exec_pwrite(%struct.exec_thread* noundef %0, i64 noundef 1, i64 noundef %4)\n"
    "  br label %5\n"
    "\n"
    "5:                                                ; preds = %2\n"
    "  call void @__sanitizer_cov_trace_pc() #3\n"
    "  %6 = tail call i64 @exec_gread(%struct.exec_thread* noundef %0, %struct.exec_array* noundef null, i64 noundef 0)\n"
    "  %7 = add i64 %6, 1\n"
    "  tail call void @exec_gwrite(%struct.exec_thread* noundef %0, %struct.exec_array* noundef null, i64 noundef 1, i64 noundef %7)\n"
    "  ret void\n"
    "}\n"
    "\n"
    "declare void @__sanitizer_cov_trace_pc()\n";

Test(stream, a_store_ends_its_chain_when_it_issues)
{
    uint32_t w[2][STREAM_FIELDS];
    cr_assert_eq(weigh(stores_ir, w, 2), 2);
    /* the read (a private link), the product (a mulmod link); no later
     * instruction waits for the STS (ptxas gives it a stall count of 2:
     * plain division's 0x7b0, 0x9e0), so it is no link */
    cr_expect_eq(w[0][STREAM_CHAIN_PRIVATE], 1);
    cr_expect_eq(w[0][STREAM_CHAIN_MULMOD], 1);
    cr_expect_eq(w[0][STREAM_CHAIN_PLAIN], 0);
    cr_expect_eq(w[0][STREAM_INST], 2 + 9 + 2);
    /* the read at a constant index (its LDG, a global link), the 64-bit
     * addition (2 plain links); the STG at a constant index issues beside
     * the chain */
    cr_expect_eq(w[1][STREAM_CHAIN_GLOBAL], 1);
    cr_expect_eq(w[1][STREAM_CHAIN_PLAIN], 2);
    cr_expect_eq(w[1][STREAM_INST], 1 + 2 + 1);
}

/* Two global reads of one block, the second's index SECOND (its
 * arithmetic ARITH), their sum written: the unrolled pass's form
 * (`for (long k ...) read(row + k·256 + tid)`, clang's copy k its counter
 * `or`'d with k, the row added, shifted, tid added), and Euclid's control
 * words (an int index + k, widened). */
#define TWO_READS_IR(NAME, FIRST, ARITH, SECOND)                                                                    \
    "define internal void @" NAME "(%struct.exec_thread* noundef %0, i8* noundef %1) {\n"                          \
    "  call void @__sanitizer_cov_trace_pc() #3\n"                                                                 \
    "  %3 = getelementptr inbounds %struct.exec_thread, %struct.exec_thread* %0, i64 0, i32 0\n"                   \
    "  %4 = load i32, i32* %3, align 8\n"                                                                          \
    "  %5 = sext i32 %4 to i64\n"                                                                                  \
    "  %6 = tail call i64 @exec_pread(%struct.exec_thread* noundef %0, i64 noundef 0)\n"                          \
    "  %7 = tail call i64 @exec_pread(%struct.exec_thread* noundef %0, i64 noundef 1)\n"                          \
    FIRST                                                                                                          \
    "  %r = tail call i64 @exec_gread(%struct.exec_thread* noundef %0, %struct.exec_array* noundef null, i64 "     \
    "noundef %i)\n" ARITH                                                                                          \
    "  %s = tail call i64 @exec_gread(%struct.exec_thread* noundef %0, %struct.exec_array* noundef null, i64 "     \
    "noundef " SECOND ")\n"                                                                                        \
    "  %u = add i64 %r, %s\n"                                                                                      \
    "  tail call void @exec_pwrite(%struct.exec_thread* noundef %0, i64 noundef 2, i64 noundef %u)\n"             \
    "  ret void\n"                                                                                                 \
    "}\n"
#define PASS_FIRST "  %a = add i64 %6, %7\n  %b = shl i64 %a, 8\n  %i = add nsw i64 %b, %5\n"
#define PASS_NEXT                                                                                                   \
    "  %c = or i64 %6, 1\n  %d = add i64 %c, %7\n  %e = shl i64 %d, 8\n  %t = load i32, i32* %3, align 8\n"      \
    "  %x = sext i32 %t to i64\n  %j = add nsw i64 %e, %x\n"
#define WORD_FIRST "  %w = trunc i64 %6 to i32\n  %m = mul nsw i32 %w, 5\n  %i = sext i32 %m to i64\n"
#define WORD_NEXT "  %c = add nsw i32 %m, 1\n  %j = sext i32 %c to i64\n"
static const char *const two_reads_ir =
    TWO_READS_IR("pass_next", PASS_FIRST, PASS_NEXT, "%j") "\n" TWO_READS_IR("pass_same", PASS_FIRST, "", "%i") "\n"
    TWO_READS_IR("word_next", WORD_FIRST, WORD_NEXT, "%j") "\n" TWO_READS_IR("word_same", WORD_FIRST, "", "%i") "\n"
    "declare void @__sanitizer_cov_trace_pc()\n";

Test(stream, a_read_at_a_constant_offset_from_one_before_it_is_its_load_alone)
{
    uint32_t w[4][STREAM_FIELDS];
    cr_assert_eq(weigh(two_reads_ir, w, 4), 4);
    /* nvcc addresses the second read from the first's address, an
     * immediate offset (the fixture's unrolled loop in ptxas's cubin:
     * 76-78 instructions a 4 passes, the counted build 97 before this
     * rule, 77 with it; Euclid's control words, its executed SASS: STG.E
     * [R16.64+0x4] ... [R16.64+0x10]): its LDG alone, and the arithmetic
     * that made its index alone (the `or`, the row's addition, the shift,
     * tid's addition; the int's + 1) nothing, as a read of the same
     * address again */
    cr_expect_eq(w[0][STREAM_INST], w[1][STREAM_INST]);
    cr_expect_eq(w[2][STREAM_INST], w[3][STREAM_INST]);
    cr_expect_eq(w[0][STREAM_GLOBAL], 2);
    cr_expect_eq(w[2][STREAM_GLOBAL], 2);
}

/* Grid-stride loops of clang's making, `for (int i = tid; i < n; i +=
 * threads) write(i, read(i))`: n an arg; n a word read; and the same loop
 * by a constant stride. */
#define GRID_LOOP_IR(NAME, BOUND, STRIDE)                                                                           \
    "define internal void @" NAME "(%struct.exec_thread* noundef %0, i8* noundef %1) {\n"                          \
    "  call void @__sanitizer_cov_trace_pc() #3\n"                                                                 \
    "  %3 = getelementptr inbounds %struct.exec_thread, %struct.exec_thread* %0, i64 0, i32 0\n"                   \
    "  %4 = load i32, i32* %3, align 8\n"                                                                          \
    "  %5 = getelementptr inbounds %struct.exec_thread, %struct.exec_thread* %0, i64 0, i32 1\n"                   \
    "  %6 = load i32, i32* %5, align 4\n"                                                                          \
    BOUND                                                                                                          \
    "  %9 = icmp slt i32 %4, %8\n"                                                                                 \
    "  br i1 %9, label %10, label %19\n"                                                                           \
    "\n"                                                                                                           \
    "10:                                               ; preds = %2\n"                                             \
    "  call void @__sanitizer_cov_trace_pc() #3\n"                                                                 \
    "  %11 = sext i32 %4 to i64\n"                                                                                 \
    "  %12 = sext i32 %6 to i64\n"                                                                                 \
    "  %13 = sext i32 %8 to i64\n"                                                                                 \
    "  br label %14\n"                                                                                             \
    "\n"                                                                                                           \
    "14:                                               ; preds = %10, %14\n"                                       \
    "  %15 = phi i64 [ %11, %10 ], [ %17, %14 ]\n"                                                                 \
    "  call void @__sanitizer_cov_trace_pc() #3\n"                                                                 \
    "  %16 = tail call i64 @exec_gread(%struct.exec_thread* noundef %0, %struct.exec_array* noundef null, i64 "    \
    "noundef %15)\n"                                                                                               \
    "  tail call void @exec_pwrite(%struct.exec_thread* noundef %0, i64 noundef %15, i64 noundef %16)\n"           \
    "  %t = trunc i64 %15 to i32\n" /* the counter an int of the C code */                                          \
    "  %17 = add nsw i64 %15, " STRIDE "\n"                                                                        \
    "  %18 = icmp slt i64 %17, %13\n"                                                                              \
    "  br i1 %18, label %14, label %19\n"                                                                           \
    "\n"                                                                                                           \
    "19:                                               ; preds = %14, %2\n"                                        \
    "  call void @__sanitizer_cov_trace_pc() #3\n"                                                                 \
    "  ret void\n"                                                                                                 \
    "}\n"
#define BOUND_ARG "  %7 = bitcast i8* %1 to i32*\n  %8 = load i32, i32* %7, align 4\n"
#define BOUND_READ                                                                                                 \
    "  %7 = tail call i64 @exec_pread(%struct.exec_thread* noundef %0, i64 noundef 0)\n  %8 = trunc i64 %7 to i32\n"
static const char *const grid_loops_ir =
    GRID_LOOP_IR("by_threads", BOUND_ARG, "%12") "\n" GRID_LOOP_IR("to_a_word", BOUND_READ, "%12") "\n"
    GRID_LOOP_IR("by_one", BOUND_ARG, "1") "\n"
    "declare void @__sanitizer_cov_trace_pc()\n";

Test(stream, a_grid_stride_loop_nvcc_unrolls_computes_its_trip_count_before_it)
{
    uint32_t w[12][STREAM_FIELDS];
    cr_assert_eq(weigh(grid_loops_ir, w, 12), 12);
    /* i += threads to an arg: nvcc unrolls the loop by 4, its trip count
     * (n − 1 − tid)/threads + 1 a division by a variable, computed once a
     * kernel (tid, threads and n are registers and constants): one bit of
     * STREAM_TRIPS on the block that enters the loop, none elsewhere */
    cr_expect_eq(w[0][STREAM_TRIPS], 0);
    cr_expect_eq(__builtin_popcount(w[1][STREAM_TRIPS]), 1);
    cr_expect_eq(w[2][STREAM_TRIPS], 0);
    cr_expect_eq(w[1][STREAM_INST], 0); /* the widenings: register names; the jump falls through */
    /* to a word read: the trip count computed each time the loop is entered,
     * 28 instructions (Euclid's SASS, 0x490-0x620 and 0x8f0-0x900) */
    cr_expect_eq(w[5][STREAM_TRIPS], 0);
    cr_expect_eq(w[5][STREAM_INST], 28);
    cr_expect_eq(w[5][STREAM_CHAIN_PLAIN], 28);
    cr_expect_eq(stream_call_cost("loop:trip_count"), 28);
    /* i += 1: clang unrolls it itself (stream_clang_flags); nothing here */
    cr_expect_eq(w[9][STREAM_TRIPS], 0);
    cr_expect_eq(w[9][STREAM_INST], 0);
}

/* The tile loop's latch: the counter's next value, t->threads reloaded
 * (clang assumes the body's calls may change it), the bound 4·threads. */
#define TILE_LATCH                                                                                                 \
    "  %21 = load i32, i32* %5, align 4\n"                                                                         \
    "  %22 = add nsw i32 %21, %12\n"                                                                               \
    "  %23 = shl nsw i32 %21, 2\n"                                                                                 \
    "  %24 = icmp slt i32 %22, %23\n"                                                                              \
    "  br i1 %24, label %11, label %30\n"                                                                          \
    "\n"

/* `for (int j = t->tid; j < 4 * t->threads; j += t->threads)` as clang
 * writes it with a call in the body (radix sort's and the scans' tile
 * loops, block_scan.h's load_tile and apply_prefix): clang reloads
 * t->threads after the call, since the call might change it, so the
 * stride and the bound are computed in the loop, from a load there
 * (RELOAD_IN_LATCH) or from a phi of the load before the loop and the one
 * after a guarded call (RELOAD_IN_BODY); or the stride is a word read in
 * the loop (not the same every pass). */
#define TILE_LOOP_IR(NAME, LOOP)                                                                                   \
    "define internal void @" NAME "(%struct.exec_thread* noundef %0, i8* noundef %1) {\n"                          \
    "  call void @__sanitizer_cov_trace_pc() #3\n"                                                                 \
    "  %3 = getelementptr inbounds %struct.exec_thread, %struct.exec_thread* %0, i64 0, i32 0\n"                   \
    "  %4 = load i32, i32* %3, align 8\n"                                                                          \
    "  %5 = getelementptr inbounds %struct.exec_thread, %struct.exec_thread* %0, i64 0, i32 1\n"                   \
    "  %6 = load i32, i32* %5, align 4\n"                                                                          \
    "  %7 = shl nsw i32 %6, 2\n"                                                                                   \
    "  %8 = icmp slt i32 %4, %7\n"                                                                                 \
    "  br i1 %8, label %10, label %30\n"                                                                           \
    "\n"                                                                                                           \
    "10:                                               ; preds = %2\n"                                             \
    "  call void @__sanitizer_cov_trace_pc() #3\n"                                                                 \
    "  br label %11\n"                                                                                             \
    "\n" LOOP                                                                                                      \
    "30:                                               ; preds = %20, %2\n"                                        \
    "  call void @__sanitizer_cov_trace_pc() #3\n"                                                                 \
    "  ret void\n"                                                                                                 \
    "}\n"
#define RELOAD_IN_LATCH                                                                                            \
    "11:                                               ; preds = %10, %20\n"                                       \
    "  %12 = phi i32 [ %4, %10 ], [ %22, %20 ]\n"                                                                  \
    "  call void @__sanitizer_cov_trace_pc() #3\n"                                                                 \
    "  %13 = sext i32 %12 to i64\n"                                                                                \
    "  br label %20\n"                                                                                             \
    "\n"                                                                                                           \
    "20:                                               ; preds = %11\n"                                            \
    "  call void @__sanitizer_cov_trace_pc() #3\n"                                                                 \
    "  tail call void @exec_pwrite(%struct.exec_thread* noundef %0, i64 noundef %13, i64 noundef 0)\n"             \
    TILE_LATCH
#define RELOAD_IN_BODY(RELOAD)                                                                                     \
    "11:                                               ; preds = %10, %20\n"                                       \
    "  %12 = phi i32 [ %6, %10 ], [ %19, %20 ]\n"                                                                  \
    "  %13 = phi i32 [ %4, %10 ], [ %22, %20 ]\n"                                                                  \
    "  call void @__sanitizer_cov_trace_pc() #3\n"                                                                 \
    "  %14 = sext i32 %13 to i64\n"                                                                                \
    "  %15 = icmp slt i64 %14, 1000\n"                                                                             \
    "  br i1 %15, label %16, label %20\n"                                                                          \
    "\n"                                                                                                           \
    "16:                                               ; preds = %11\n"                                            \
    "  call void @__sanitizer_cov_trace_pc() #3\n"                                                                 \
    "  tail call void @exec_pwrite(%struct.exec_thread* noundef %0, i64 noundef %14, i64 noundef 0)\n"             \
    RELOAD                                                                                                         \
    "  br label %20\n"                                                                                             \
    "\n"                                                                                                           \
    "20:                                               ; preds = %16, %11\n"                                       \
    "  %19 = phi i32 [ %12, %11 ], [ %17, %16 ]\n"                                                                 \
    "  call void @__sanitizer_cov_trace_pc() #3\n"                                                                 \
    "  %22 = add nsw i32 %19, %13\n"                                                                               \
    "  %23 = shl nsw i32 %19, 2\n"                                                                                 \
    "  %24 = icmp slt i32 %22, %23\n"                                                                              \
    "  br i1 %24, label %11, label %30\n"                                                                           \
    "\n"
static const char *const tile_loops_ir =
    TILE_LOOP_IR("reload_in_latch", RELOAD_IN_LATCH) "\n"
    TILE_LOOP_IR("reload_in_body", RELOAD_IN_BODY("  %17 = load i32, i32* %5, align 4\n")) "\n"
    TILE_LOOP_IR("stride_read", RELOAD_IN_BODY("  %r = tail call i64 @exec_pread(%struct.exec_thread* noundef %0, i64 "
                                               "noundef 0)\n  %17 = trunc i64 %r to i32\n")) "\n"
    "declare void @__sanitizer_cov_trace_pc()\n";

Test(stream, a_tile_loop_whose_stride_clang_reloads_after_a_call_computes_its_trip_count_before_it)
{
    uint32_t w[20][STREAM_FIELDS];
    cr_assert_eq(weigh(tile_loops_ir, w, 20), 5 + 6 + 6);
    /* t->threads reloaded in the latch, after the write: the same register
     * on the card in every pass, so nvcc unrolls the loop by 4 after its
     * trip count, a div.u32 (radix sort's PTX: one a tile loop), once a
     * kernel per warp: one STREAM_TRIPS bit on the block that enters it */
    cr_expect_eq(__builtin_popcount(w[1][STREAM_TRIPS]), 1);
    cr_expect_eq(w[0][STREAM_TRIPS] | w[2][STREAM_TRIPS] | w[3][STREAM_TRIPS] | w[4][STREAM_TRIPS], 0);
    /* reloaded after a guarded write: the stride a phi of that load and
     * the one before the loop, the same value: charged the same way */
    cr_expect_eq(__builtin_popcount(w[6][STREAM_TRIPS]), 1);
    for (int b = 5; b < 11; b++)
        cr_expect(b == 6 || w[b][STREAM_TRIPS] == 0, "block %d", b);
    /* a stride read from memory in the loop: no rule */
    for (int b = 11; b < 17; b++)
        cr_expect_eq(w[b][STREAM_TRIPS], 0, "block %d", b);
    cr_expect_eq(w[12][STREAM_INST], w[6][STREAM_INST], "nor a trip count charged where it is entered");
}

Test(stream, a_tile_loop_nvcc_unrolls_is_marked_run_four_passes_at_a_time)
{
    /* the loops whose trip count is charged (above), nvcc's unrolled by 4,
     * have every block of theirs marked 4 (STREAM_UNROLL): reload_in_latch's
     * 11 and 20 (ids 2, 3), reload_in_body's 11 and 20 (ids 7, 9; its
     * guarded write, 16, is folded into 11 as a predicated body); the
     * blocks outside them, and stride_read's loop (no rule), 0 */
    uint32_t w[20][STREAM_FIELDS];
    cr_assert_eq(weigh(tile_loops_ir, w, 20), 5 + 6 + 6);
    const int marked[] = {2, 3, 7, 9};
    for (int b = 0; b < 17; b++) {
        int in = 0;
        for (int k = 0; k < 4; k++)
            in |= b == marked[k];
        cr_expect_eq(w[b][STREAM_UNROLL], in ? 4u : 0u, "block %d", b);
    }
}

/* The tile loop (above, RELOAD_IN_LATCH) reading a word of an array of
 * the step's args each pass and storing it (STORE): the array read
 * directly (`a->in`), or chosen at run time between two (`buf ? a->a1 :
 * a->a0`, a select: Euclid's ping-pong windows); into private memory
 * (GREAD_LOOP) or back to the array (Stockham's scan_apply). */
#define GREAD_LOOP(ARRAY_DEF, ARRAY)                                                                               \
    GREAD_LOOP_STORING(ARRAY_DEF, ARRAY,                                                                           \
                       "  tail call void @exec_pwrite(%struct.exec_thread* noundef %0, i64 noundef %13, i64 noundef " \
                       "%r)\n")
#define GREAD_LOOP_STORING(ARRAY_DEF, ARRAY, STORE)                                                                \
    "11:                                               ; preds = %10, %20\n"                                       \
    "  %12 = phi i32 [ %4, %10 ], [ %22, %20 ]\n"                                                                  \
    "  call void @__sanitizer_cov_trace_pc() #3\n"                                                                 \
    "  %13 = sext i32 %12 to i64\n"                                                                                \
    "  %p = bitcast i8* %1 to %struct.exec_array**\n"                                                              \
    "  %a0 = load %struct.exec_array*, %struct.exec_array** %p, align 8\n"                                         \
    "  %q = getelementptr inbounds %struct.exec_array*, %struct.exec_array** %p, i64 1\n"                          \
    "  %a1 = load %struct.exec_array*, %struct.exec_array** %q, align 8\n" ARRAY_DEF                               \
    "  br label %20\n"                                                                                             \
    "\n"                                                                                                           \
    "20:                                               ; preds = %11\n"                                            \
    "  call void @__sanitizer_cov_trace_pc() #3\n"                                                                 \
    "  %r = tail call i64 @exec_gread(%struct.exec_thread* noundef %0, %struct.exec_array* noundef " ARRAY         \
    ", i64 noundef %13)\n" STORE                                                                                   \
    TILE_LATCH
static const char *const gread_loops_ir =
    TILE_LOOP_IR("direct", GREAD_LOOP("", "%a0")) "\n"
    TILE_LOOP_IR("chosen", GREAD_LOOP("  %s = select i1 %8, %struct.exec_array* %a1, %struct.exec_array* %a0\n", "%s"))
    "\n"
    TILE_LOOP_IR("chosen_field", GREAD_LOOP("  %o = select i1 %8, i64 0, i64 8\n"
                                            "  %g = getelementptr i8, i8* %1, i64 %o\n"
                                            "  %c = bitcast i8* %g to %struct.exec_array**\n"
                                            "  %s = load %struct.exec_array*, %struct.exec_array** %c, align 8\n",
                                            "%s"))
    "\n"
    TILE_LOOP_IR("stores_global",
                 GREAD_LOOP_STORING("", "%a0",
                                    "  tail call void @exec_gwrite(%struct.exec_thread* noundef %0, "
                                    "%struct.exec_array* noundef %a0, i64 noundef %13, i64 noundef %r)\n"))
    "\n"
    "declare void @__sanitizer_cov_trace_pc()\n";

Test(stream, a_loop_reading_an_array_chosen_at_run_time_or_storing_to_global_keeps_its_passes_loads_apart)
{
    /* every loop's trip count is charged (nvcc unrolls each by 4); the
     * direct array's loop (ids 2, 3) runs 4 passes at a time, its loads
     * issued together; the chosen array's (ids 7, 8), loaded generic on the
     * card, each load after the shared store before it: not marked; nor
     * one loaded from a field chosen at run time (clang's form of
     * `buf ? c->a1 : c->a0`, Euclid's: ids 12, 13); nor one that stores
     * the word back to global memory, which may alias the next pass's
     * load (ids 17, 18) */
    uint32_t w[21][STREAM_FIELDS];
    cr_assert_eq(weigh(gread_loops_ir, w, 21), 5 + 5 + 5 + 5);
    cr_expect_eq(__builtin_popcount(w[1][STREAM_TRIPS]), 1);
    cr_expect_eq(__builtin_popcount(w[6][STREAM_TRIPS]), 1);
    cr_expect_eq(w[2][STREAM_UNROLL], 4);
    cr_expect_eq(w[3][STREAM_UNROLL], 4);
    cr_expect_eq(w[7][STREAM_UNROLL], 0);
    cr_expect_eq(w[8][STREAM_UNROLL], 0);
    cr_expect_eq(__builtin_popcount(w[11][STREAM_TRIPS]), 1);
    cr_expect_eq(w[12][STREAM_UNROLL], 0);
    cr_expect_eq(w[13][STREAM_UNROLL], 0);
    cr_expect_eq(__builtin_popcount(w[16][STREAM_TRIPS]), 1);
    cr_expect_eq(w[17][STREAM_UNROLL], 0);
    cr_expect_eq(w[18][STREAM_UNROLL], 0);
    cr_expect_eq(w[3][STREAM_CHAIN_GLOBAL], 1, "the pass's load, a link");
}

Test(stream, of_four_passes_of_a_loop_nvcc_unrolls_the_loads_are_waited_for_once)
{
    /* block 1 a loop body whose chain is a global read (its load, 1 link)
     * and 2 plain links, passed 6 times: rolled on the card (STREAM_UNROLL
     * 0), 6 reads on the path; unrolled by 4, a rolled remainder of 6 mod
     * 4 = 2 passes waits each pass, then the card issues the loads of 4
     * passes before it waits: 2 + 1 = 3; the plain links the same */
    uint32_t w[3][STREAM_FIELDS] = {{0}};
    w[1][STREAM_INST] = 4;
    w[1][STREAM_PLAIN] = 3;
    w[1][STREAM_GLOBAL] = 1;
    w[1][STREAM_CHAIN_GLOBAL] = 1;
    w[1][STREAM_CHAIN_PLAIN] = 2;
    machine m = latency_machine();
    double plain = -1;
    for (int unroll = 0; unroll <= 4; unroll += 4) {
        w[1][STREAM_UNROLL] = (uint32_t)unroll;
        stream_table table = {3, (const uint32_t(*)[STREAM_FIELDS])w, NULL, NULL};
        stream_counter *c = stream_counter_new(&table, 32, 32, 1, &m);
        stream_thread(c);
        mcm_stream_block(0);
        for (int pass = 0; pass < 6; pass++)
            mcm_stream_block(1);
        mcm_stream_block(2);
        stream_warp_end(c);
        stream_step_end(c);
        block_cost cost = {0};
        stream_block_end(c, 32, &cost);
        stream_counter_free(c);
        cr_expect_eq(cost.stream_reads, unroll ? 3 : 6, "unroll %d", unroll);
        if (plain < 0)
            plain = cost.stream_span[OP_PLAIN];
        cr_expect_eq(cost.stream_span[OP_PLAIN], plain, "unroll %d", unroll);
    }
    cr_expect_geq(plain, 12, "the 6 passes' 2 plain links each");
}

/* A step of a looped kernel (MCM_KERNEL_LOOP: the mcm_kernel's last i32,
 * `looped`, 1), `for (int i = tid; i < n; i += threads)` in step 0 alone
 * (a read) and in the others (a write), the counter widened by clang
 * without a truncation (an `add i64` without nsw: the int's wide copy). */
#define TID_THREADS_N                                                                                              \
    "  %3 = getelementptr inbounds %struct.exec_thread, %struct.exec_thread* %0, i64 0, i32 0\n"                   \
    "  %4 = load i32, i32* %3, align 8\n"                                                                          \
    "  %5 = getelementptr inbounds %struct.exec_thread, %struct.exec_thread* %0, i64 0, i32 1\n"                   \
    "  %6 = load i32, i32* %5, align 4\n"                                                                          \
    "  %7 = bitcast i8* %1 to i32*\n"                                                                              \
    "  %8 = load i32, i32* %7, align 4\n"
static const char *const looped_kernel_ir =
    "@k = internal constant %struct.mcm_kernel { i8* null, i32 1, void (%struct.exec_thread*, i8*)** "
    "getelementptr inbounds ([1 x void (%struct.exec_thread*, i8*)*], [1 x void (%struct.exec_thread*, i8*)*]* "
    "@k_steps_, i32 0, i32 0), i32 1, void (%struct.mcm_schedule*, i8*)* null }, align 8\n"
    "@k_steps_ = internal constant [1 x void (%struct.exec_thread*, i8*)*] [void (%struct.exec_thread*, i8*)* "
    "@looped], align 8\n"
    "\n"
    "define internal void @looped(%struct.exec_thread* noundef %0, i8* noundef %1) {\n"
    "  call void @__sanitizer_cov_trace_pc() #3\n"
    TID_THREADS_N
    "  %9 = getelementptr inbounds %struct.exec_thread, %struct.exec_thread* %0, i64 0, i32 4\n"
    "  %10 = load i32, i32* %9, align 8\n"
    "  %11 = sext i32 %4 to i64\n"
    "  %12 = sext i32 %6 to i64\n"
    "  %13 = sext i32 %8 to i64\n"
    "  %14 = icmp eq i32 %10, 0\n"
    "  br i1 %14, label %15, label %22\n"
    "\n"
    "15:                                               ; preds = %2\n"
    "  call void @__sanitizer_cov_trace_pc() #3\n"
    "  %16 = icmp slt i32 %4, %8\n"
    "  br i1 %16, label %17, label %28\n"
    "\n"
    "17:                                               ; preds = %15, %17\n"
    "  %18 = phi i64 [ %11, %15 ], [ %20, %17 ]\n"
    "  call void @__sanitizer_cov_trace_pc() #3\n"
    "  %19 = tail call i64 @exec_gread(%struct.exec_thread* noundef %0, %struct.exec_array* noundef null, i64 "
    "noundef %18)\n"
    "  %20 = add i64 %18, %12\n"
    "  %21 = icmp slt i64 %20, %13\n"
    "  br i1 %21, label %17, label %28\n"
    "\n"
    "22:                                               ; preds = %2\n"
    "  call void @__sanitizer_cov_trace_pc() #3\n"
    "  %23 = icmp slt i32 %4, %8\n"
    "  br i1 %23, label %24, label %28\n"
    "\n"
    "24:                                               ; preds = %22, %24\n"
    "  %25 = phi i64 [ %11, %22 ], [ %26, %24 ]\n"
    "  call void @__sanitizer_cov_trace_pc() #3\n"
    "  tail call void @exec_pwrite(%struct.exec_thread* noundef %0, i64 noundef %25, i64 noundef 0)\n"
    "  %26 = add i64 %25, %12\n"
    "  %27 = icmp slt i64 %26, %13\n"
    "  br i1 %27, label %24, label %28\n"
    "\n"
    "28:                                               ; preds = %24, %22, %17, %15\n"
    "  call void @__sanitizer_cov_trace_pc() #3\n"
    "  ret void\n"
    "}\n"
    "\n"
    "declare void @__sanitizer_cov_trace_pc()\n";

Test(stream, a_trip_count_in_a_looped_kernels_later_steps_is_computed_by_every_warp_before_them)
{
    uint32_t w[6][STREAM_FIELDS];
    cr_assert_eq(weigh(looped_kernel_ir, w, 6), 6);
    /* the counters are ints though nothing truncates them: clang's
     * widening drops `nsw`, which a C `long` keeps (the next test), so
     * both loops are unrolled by nvcc, their trips a division each */
    /* step 0's loop: nvcc runs step 0 apart, before the loop over the
     * steps (mcm_kernel_cuda.cuh); its trip count stays at the loop's
     * entry, computed by the warps that enter it (Euclid's head load) */
    cr_expect_eq(__builtin_popcount(w[1][STREAM_TRIPS]), 1);
    /* the later steps' loop: its trip count of tid, threads and an arg is
     * the same in every pass of the loop over the steps, its division by
     * the block's size (never 0): hoisted before that loop, computed by
     * every warp whether it enters or not -- on the step's entry, which
     * every warp passes (Euclid's write loop, SASS 0x1950-0x1b90, 8 warps
     * where warp 0 alone writes) */
    cr_expect_eq(__builtin_popcount(w[0][STREAM_TRIPS]), 1);
    cr_expect_eq(w[3][STREAM_TRIPS], 0);
    cr_expect_neq(w[0][STREAM_TRIPS], w[1][STREAM_TRIPS]);
}

/* The same later-steps loop in a kernel of its steps written out (not
 * looped), its counter an int widened (`add i64`) and a long (`add nsw
 * i64`). */
#define WIDE_LOOP_IR(NAME, ADD)                                                                                    \
    "define internal void @" NAME "(%struct.exec_thread* noundef %0, i8* noundef %1) {\n"                          \
    "  call void @__sanitizer_cov_trace_pc() #3\n"                                                                 \
    TID_THREADS_N                                                                                                  \
    "  %9 = sext i32 %4 to i64\n"                                                                                  \
    "  %10 = sext i32 %6 to i64\n"                                                                                 \
    "  %11 = sext i32 %8 to i64\n"                                                                                 \
    "  %12 = icmp slt i32 %4, %8\n"                                                                                \
    "  br i1 %12, label %13, label %17\n"                                                                          \
    "\n"                                                                                                           \
    "13:                                               ; preds = %2, %13\n"                                        \
    "  %14 = phi i64 [ %9, %2 ], [ %15, %13 ]\n"                                                                   \
    "  call void @__sanitizer_cov_trace_pc() #3\n"                                                                 \
    "  tail call void @exec_pwrite(%struct.exec_thread* noundef %0, i64 noundef %14, i64 noundef 0)\n"             \
    "  %15 = " ADD " %14, %10\n"                                                                                   \
    "  %16 = icmp slt i64 %15, %11\n"                                                                              \
    "  br i1 %16, label %13, label %17\n"                                                                          \
    "\n"                                                                                                           \
    "17:                                               ; preds = %13, %2\n"                                        \
    "  call void @__sanitizer_cov_trace_pc() #3\n"                                                                 \
    "  ret void\n"                                                                                                 \
    "}\n"
static const char *const wide_loops_ir =
    WIDE_LOOP_IR("an_int", "add i64") "\n" WIDE_LOOP_IR("a_long", "add nsw i64") "\n"
    "declare void @__sanitizer_cov_trace_pc()\n";

Test(stream, a_counter_clang_widens_from_an_int_is_told_from_a_long_by_its_addition)
{
    uint32_t w[6][STREAM_FIELDS];
    cr_assert_eq(weigh(wide_loops_ir, w, 6), 6);
    /* an int: clang's wide copy of `i += threads` carries no nsw; the loop
     * is unrolled by nvcc, its trip count on the block that enters it
     * (not a looped kernel: nothing to hoist it out of) */
    cr_expect_eq(__builtin_popcount(w[0][STREAM_TRIPS]), 1);
    cr_expect_eq(w[1][STREAM_TRIPS], 0);
    /* a long: signed, its addition `nsw`; nvcc leaves it rolled (plain
     * multiplication's and plain division's loops) */
    cr_expect_eq(w[3][STREAM_TRIPS], 0);
    cr_expect_eq(w[4][STREAM_TRIPS], 0);
}

/* Two `if`s a warp's threads may all skip: a global read written to
 * private memory, and a Z/pZ product written. */
static const char *const guarded_bodies_ir =
    "define internal void @guarded(%struct.exec_thread* noundef %0, i8* noundef %1) {\n"
    "  call void @__sanitizer_cov_trace_pc() #3\n"
    "  %3 = getelementptr inbounds %struct.exec_thread, %struct.exec_thread* %0, i64 0, i32 0\n"
    "  %4 = load i32, i32* %3, align 8\n"
    "  %5 = icmp slt i32 %4, 100\n"
    "  br i1 %5, label %6, label %9\n"
    "\n"
    "6:                                                ; preds = %2\n"
    "  call void @__sanitizer_cov_trace_pc() #3\n"
    "  %7 = sext i32 %4 to i64\n"
    "  %8 = tail call i64 @exec_gread(%struct.exec_thread* noundef %0, %struct.exec_array* noundef null, i64 "
    "noundef %7)\n"
    "  tail call void @exec_pwrite(%struct.exec_thread* noundef %0, i64 noundef %7, i64 noundef %8)\n"
    "  br label %9\n"
    "\n"
    "9:                                                ; preds = %6, %2\n"
    "  call void @__sanitizer_cov_trace_pc() #3\n"
    "  %10 = icmp slt i32 %4, 50\n"
    "  br i1 %10, label %11, label %13\n"
    "\n"
    "11:                                               ; preds = %9\n"
    "  call void @__sanitizer_cov_trace_pc() #3\n"
    "  %12 = tail call i64 @exec_zp_mul(%struct.exec_thread* noundef %0, i64 noundef 3, i64 noundef 5)\n"
    "  tail call void @exec_pwrite(%struct.exec_thread* noundef %0, i64 noundef 0, i64 noundef %12)\n"
    "  br label %13\n"
    "\n"
    "13:                                               ; preds = %11, %9\n"
    "  call void @__sanitizer_cov_trace_pc() #3\n"
    "  ret void\n"
    "}\n"
    "\n"
    "declare void @__sanitizer_cov_trace_pc()\n";

Test(stream, a_small_body_an_if_skips_is_predicated_and_issued_by_every_warp_that_reaches_it)
{
    uint32_t w[5][STREAM_FIELDS];
    cr_assert_eq(weigh(guarded_bodies_ir, w, 5), 5);
    /* the read and the write: predicated by ptxas (@P LDG, @P STS; Euclid's
     * coefficient reads, jacobi's loads), so every warp that tests issues
     * them, and no branch: ISETP, then the body's LEA, LEA.HI.X, LDG and
     * LEA, STS on the test's block; the body's own block weighs nothing */
    cr_expect_eq(w[0][STREAM_INST], 1 + 3 + 2);
    cr_expect_eq(w[0][STREAM_GLOBAL], 1);
    cr_expect_eq(w[0][STREAM_PRIVATE], 1);
    cr_expect_eq(w[1][STREAM_INST], 0);
    cr_expect_eq(w[1][STREAM_GLOBAL], 0);
    /* a Z/pZ product is not a memory access: its body keeps its branch
     * (ISETP, BRA), and a warp none of whose threads takes it skips it */
    cr_expect_eq(w[2][STREAM_INST], 1 + 1);
    cr_expect_eq(w[3][STREAM_INST], 9 + 2);
}

/* `tid > j && tid < steps` as clang makes it: two blocks, each a comparison
 * and a conditional branch, sharing the target past the write. */
static const char *const short_circuit_ir =
    "define internal void @both(%struct.exec_thread* noundef %0, i8* noundef %1) {\n"
    "  call void @__sanitizer_cov_trace_pc() #3\n"
    "  %3 = getelementptr inbounds %struct.exec_thread, %struct.exec_thread* %0, i64 0, i32 0\n"
    "  %4 = load i32, i32* %3, align 8\n"
    "  %5 = bitcast i8* %1 to i32*\n"
    "  %6 = load i32, i32* %5, align 4\n"
    "  %7 = icmp sgt i32 %4, %6\n"
    "  br i1 %7, label %8, label %12\n"
    "\n"
    "8:                                                ; preds = %2\n"
    "  call void @__sanitizer_cov_trace_pc() #3\n"
    "  %9 = icmp slt i32 %4, 100\n"
    "  br i1 %9, label %10, label %12\n"
    "\n"
    "10:                                               ; preds = %8\n"
    "  call void @__sanitizer_cov_trace_pc() #3\n"
    "  %11 = sext i32 %4 to i64\n"
    "  tail call void @exec_pwrite(%struct.exec_thread* noundef %0, i64 noundef %11, i64 noundef 1)\n"
    "  br label %12\n"
    "\n"
    "12:                                               ; preds = %10, %8, %2\n"
    "  call void @__sanitizer_cov_trace_pc() #3\n"
    "  ret void\n"
    "}\n"
    "\n"
    "declare void @__sanitizer_cov_trace_pc()\n";

Test(stream, a_short_circuit_of_two_comparisons_is_one_predicate_and_one_branch)
{
    uint32_t w[4][STREAM_FIELDS];
    cr_assert_eq(weigh(short_circuit_ir, w, 4), 4);
    /* the first test: its ISETP and BRA, the branch waiting for its
     * predicate (a plain link turned a predicate's) */
    cr_expect_eq(w[0][STREAM_INST], 1 + 1);
    cr_expect_eq(w[0][STREAM_CHAIN_PREDICATE], 1);
    /* the second: ISETP.LE.OR, fused into the first's predicate; no branch
     * of its own and nothing more to wait for (plain division's SASS,
     * 0x7f0-0x840: ISETP, ISETP.LE.OR, BRA) -- 2 instructions and a
     * plain and a predicate link before the rule */
    cr_expect_eq(w[1][STREAM_INST], 1);
    cr_expect_eq(w[1][STREAM_CHAIN_PREDICATE], 0);
    cr_expect_eq(w[1][STREAM_CHAIN_PLAIN], 0);
}

/* A Z/pZ difference after the product it waits for (plain division's
 * `v − q·b`), and one after a word read alone. */
static const char *const difference_tail_ir =
    "define internal void @after_product(%struct.exec_thread* noundef %0, i8* noundef %1) {\n"
    "  call void @__sanitizer_cov_trace_pc() #3\n"
    "  %3 = tail call i64 @exec_pread(%struct.exec_thread* noundef %0, i64 noundef 0)\n"
    "  %4 = tail call i64 @exec_zp_mul(%struct.exec_thread* noundef %0, i64 noundef %3, i64 noundef %3)\n"
    "  %5 = tail call i64 @exec_pread(%struct.exec_thread* noundef %0, i64 noundef 1)\n"
    "  %6 = tail call i64 @exec_zp_sub(%struct.exec_thread* noundef %0, i64 noundef %5, i64 noundef %4)\n"
    "  tail call void @exec_pwrite(%struct.exec_thread* noundef %0, i64 noundef 2, i64 noundef %6)\n"
    "  ret void\n"
    "}\n"
    "\n"
    "define internal void @after_a_word(%struct.exec_thread* noundef %0, i8* noundef %1) {\n"
    "  call void @__sanitizer_cov_trace_pc() #3\n"
    "  %3 = tail call i64 @exec_pread(%struct.exec_thread* noundef %0, i64 noundef 0)\n"
    "  %4 = tail call i64 @exec_zp_sub(%struct.exec_thread* noundef %0, i64 noundef %3, i64 noundef 5)\n"
    "  tail call void @exec_pwrite(%struct.exec_thread* noundef %0, i64 noundef 2, i64 noundef %4)\n"
    "  ret void\n"
    "}\n"
    "\n"
    "declare void @__sanitizer_cov_trace_pc()\n";

Test(stream, a_zp_difference_after_the_product_it_waits_for_is_its_tail_alone)
{
    uint32_t w[2][STREAM_FIELDS];
    cr_assert_eq(weigh(difference_tail_ir, w, 2), 2);
    /* the read (a private link), the product (a mulmod link), then the
     * difference's tail: IMAD.IADD, ISETP.GE.U32, SEL, 3 plain links and
     * no addmod link (an addmod link before the rule); the other read
     * beside the product; its count the one_result row, unchanged */
    cr_expect_eq(w[0][STREAM_CHAIN_PRIVATE], 1);
    cr_expect_eq(w[0][STREAM_CHAIN_MULMOD], 1);
    cr_expect_eq(w[0][STREAM_CHAIN_ADDMOD], 0);
    cr_expect_eq(w[0][STREAM_CHAIN_PLAIN], 3);
    cr_expect_eq(w[0][STREAM_INST], 24); /* 2 + 9 + 2 + 8.5 + 2, rounded */
    /* after a word read alone: the word's range check is on the chain, an
     * addmod link as before */
    cr_expect_eq(w[1][STREAM_CHAIN_PRIVATE], 1);
    cr_expect_eq(w[1][STREAM_CHAIN_ADDMOD], 1);
    cr_expect_eq(w[1][STREAM_CHAIN_PLAIN], 0);
}

/* Euclid's reduction pass (lc_y·x[i] − lc_x·y[j]: two products, each
 * after its own private read, into one difference); a product of a
 * product; a product after a global read beside one long done. */
static const char *const products_beside_ir =
    "define internal void @window(%struct.exec_thread* noundef %0, i8* noundef %1) {\n"
    "  call void @__sanitizer_cov_trace_pc() #3\n"
    "  %3 = tail call i64 @exec_pread(%struct.exec_thread* noundef %0, i64 noundef 0)\n"
    "  %4 = tail call i64 @exec_zp_mul(%struct.exec_thread* noundef %0, i64 noundef 7, i64 noundef %3)\n"
    "  %5 = tail call i64 @exec_pread(%struct.exec_thread* noundef %0, i64 noundef 1)\n"
    "  %6 = tail call i64 @exec_zp_mul(%struct.exec_thread* noundef %0, i64 noundef 5, i64 noundef %5)\n"
    "  %7 = tail call i64 @exec_zp_sub(%struct.exec_thread* noundef %0, i64 noundef %4, i64 noundef %6)\n"
    "  tail call void @exec_pwrite(%struct.exec_thread* noundef %0, i64 noundef 0, i64 noundef %7)\n"
    "  ret void\n"
    "}\n"
    "\n"
    "define internal void @chained(%struct.exec_thread* noundef %0, i8* noundef %1) {\n"
    "  call void @__sanitizer_cov_trace_pc() #3\n"
    "  %3 = tail call i64 @exec_pread(%struct.exec_thread* noundef %0, i64 noundef 0)\n"
    "  %4 = tail call i64 @exec_zp_mul(%struct.exec_thread* noundef %0, i64 noundef 7, i64 noundef %3)\n"
    "  %5 = tail call i64 @exec_zp_mul(%struct.exec_thread* noundef %0, i64 noundef 5, i64 noundef %4)\n"
    "  tail call void @exec_pwrite(%struct.exec_thread* noundef %0, i64 noundef 0, i64 noundef %5)\n"
    "  ret void\n"
    "}\n"
    "\n"
    "define internal void @far_apart(%struct.exec_thread* noundef %0, i8* noundef %1) {\n"
    "  call void @__sanitizer_cov_trace_pc() #3\n"
    "  %3 = tail call i64 @exec_pread(%struct.exec_thread* noundef %0, i64 noundef 0)\n"
    "  %4 = tail call i64 @exec_zp_mul(%struct.exec_thread* noundef %0, i64 noundef 7, i64 noundef %3)\n"
    "  %5 = tail call i64 @exec_gread(%struct.exec_thread* noundef %0, %struct.exec_array* noundef null, i64 noundef 0)\n"
    "  %6 = tail call i64 @exec_zp_mul(%struct.exec_thread* noundef %0, i64 noundef 5, i64 noundef %5)\n"
    "  %7 = tail call i64 @exec_zp_sub(%struct.exec_thread* noundef %0, i64 noundef %4, i64 noundef %6)\n"
    "  tail call void @exec_pwrite(%struct.exec_thread* noundef %0, i64 noundef 0, i64 noundef %7)\n"
    "  ret void\n"
    "}\n"
    "\n"
    "declare void @__sanitizer_cov_trace_pc()\n";

Test(stream, a_product_in_flight_beside_the_chains_is_counted_beside_it)
{
    uint32_t w[3][STREAM_FIELDS];
    cr_assert_eq(weigh(products_beside_ir, w, 3), 3);
    /* the pass: read, product, difference on the chain, the other read's
     * product beside it, started one read's issue later (its chain the
     * same length); past a barrier the same (no free value on it) */
    cr_expect_eq(w[0][STREAM_MULMOD], 2);
    cr_expect_eq(w[0][STREAM_CHAIN_MULMOD], 1);
    cr_expect_eq(w[0][STREAM_CHAIN_BESIDE], 1);
    cr_expect_eq(w[0][STREAM_AFTER_MULMOD], 1);
    cr_expect_eq(w[0][STREAM_AFTER_BESIDE], 1);
    /* a product that waits for the other: both on the chain, none beside */
    cr_expect_eq(w[1][STREAM_CHAIN_MULMOD], 2);
    cr_expect_eq(w[1][STREAM_CHAIN_BESIDE], 0);
    cr_expect_eq(w[1][STREAM_AFTER_BESIDE], 0);
    /* the chain's product waits for a global read (261 nominal cycles):
     * the one after the private read (29) is done long before it starts */
    cr_expect_eq(w[2][STREAM_CHAIN_GLOBAL], 1);
    cr_expect_eq(w[2][STREAM_CHAIN_MULMOD], 1);
    cr_expect_eq(w[2][STREAM_CHAIN_BESIDE], 0);
}

Test(stream, a_product_beside_the_chains_waits_one_more_chain_on_its_scheduler)
{
    /* one block: a chain of a product and 2 plain links, a product beside it */
    uint32_t w[1][STREAM_FIELDS] = {{0}};
    w[0][STREAM_INST] = 20;
    w[0][STREAM_PLAIN] = 2;
    w[0][STREAM_MULMOD] = 2;
    w[0][STREAM_CHAIN_PLAIN] = 2;
    w[0][STREAM_CHAIN_MULMOD] = 1;
    w[0][STREAM_CHAIN_BESIDE] = 1;
    machine m = latency_machine(); /* a plain link 5, a product 68 */
    m.schedulers = 4;
    /* the rows of sharing not measured: the product beside costs nothing,
     * the path 68 + 2 · 5 and the kernel's entry and exit (2 links) */
    block_cost alone = one_pass_in(w, 1, 32, &m);
    cr_expect_eq(alone.stream_mulmod_beside, 1);
    cr_expect_float_eq(block_span_cycles_shared(&alone, &m, 1), 68 + 4 * 5, 1e-9);
    m.cycles_mulmod_warps2 = 86;
    m.cycles_mulmod_warps4 = 130;
    /* a warp alone on its scheduler: two chains of products there, 86 */
    cr_expect_float_eq(block_span_cycles_shared(&alone, &m, 1), 86 + 4 * 5, 1e-9);
    /* 8 warps, 2 a scheduler: the chain's product 86, and four chains of
     * products a scheduler, 130: 44 more */
    block_cost shared = one_pass_in(w, 1, 256, &m);
    cr_expect_eq(shared.stream_mulmod_beside, 1);
    cr_expect_float_eq(block_span_cycles_shared(&shared, &m, 2), 130 + 4 * 5, 1e-9);
    /* no schedulers key: every warp alone, the rows unread */
    m.schedulers = 0;
    cr_expect_float_eq(block_span_cycles_shared(&alone, &m, 1), 68 + 4 * 5, 1e-9);
}

/* Three steps, each reading a word in its first block and using it in the
 * next: plus one, stored (the stencil's centre); the same after a second
 * word its first block waits for (Cooley-Tukey's butterfly); summed in a
 * loop the read is outside. */
static const char *const reads_in_flight_ir =
    "define internal void @used_after(%struct.exec_thread* noundef %0, i8* noundef %1) {\n"
    "  call void @__sanitizer_cov_trace_pc() #3\n"
    "  %3 = tail call i64 @exec_gread(%struct.exec_thread* noundef %0, %struct.exec_array* noundef null, i64 noundef 0)\n"
    "  br label %4\n"
    "\n"
    "4:                                                ; preds = %2\n"
    "  call void @__sanitizer_cov_trace_pc() #3\n"
    "  %5 = add i64 %3, 1\n"
    "  tail call void @exec_gwrite(%struct.exec_thread* noundef %0, %struct.exec_array* noundef null, i64 noundef 1, i64 noundef %5)\n"
    "  ret void\n"
    "}\n"
    "\n"
    "define internal void @waited_beside(%struct.exec_thread* noundef %0, i8* noundef %1) {\n"
    "  call void @__sanitizer_cov_trace_pc() #3\n"
    "  %3 = tail call i64 @exec_gread(%struct.exec_thread* noundef %0, %struct.exec_array* noundef null, i64 noundef 0)\n"
    "  %4 = tail call i64 @exec_gread(%struct.exec_thread* noundef %0, %struct.exec_array* noundef null, i64 noundef 1)\n"
    "  %5 = add i64 %4, 1\n"
    "  tail call void @exec_gwrite(%struct.exec_thread* noundef %0, %struct.exec_array* noundef null, i64 noundef 2, i64 noundef %5)\n"
    "  br label %6\n"
    "\n"
    "6:                                                ; preds = %2\n"
    "  call void @__sanitizer_cov_trace_pc() #3\n"
    "  %7 = add i64 %3, 1\n"
    "  tail call void @exec_gwrite(%struct.exec_thread* noundef %0, %struct.exec_array* noundef null, i64 noundef 3, i64 noundef %7)\n"
    "  ret void\n"
    "}\n"
    "\n"
    "define internal void @used_in_a_loop(%struct.exec_thread* noundef %0, i8* noundef %1) {\n"
    "  call void @__sanitizer_cov_trace_pc() #3\n"
    "  %3 = tail call i64 @exec_gread(%struct.exec_thread* noundef %0, %struct.exec_array* noundef null, i64 noundef 0)\n"
    "  br label %4\n"
    "\n"
    "4:                                                ; preds = %2, %4\n"
    "  %5 = phi i64 [ 0, %2 ], [ %6, %4 ]\n"
    "  call void @__sanitizer_cov_trace_pc() #3\n"
    "  %6 = add i64 %5, %3\n"
    "  %7 = icmp ult i64 %6, 100\n"
    "  br i1 %7, label %4, label %8\n"
    "\n"
    "8:                                                ; preds = %4\n"
    "  call void @__sanitizer_cov_trace_pc() #3\n"
    "  ret void\n"
    "}\n"
    "\n"
    "declare void @__sanitizer_cov_trace_pc()\n";

Test(stream, a_read_its_block_does_not_use_is_waited_for_where_its_value_is_used)
{
    uint32_t w[7][STREAM_FIELDS];
    cr_assert_eq(weigh(reads_in_flight_ir, w, 7), 7);
    /* the read at a constant index (its LDG, no address) ends no chain of
     * its block: its LDG issues, the warp goes on */
    cr_expect_eq(w[0][STREAM_CHAIN_GLOBAL], 0);
    cr_expect_eq(w[0][STREAM_CHAIN_PLAIN], 0);
    cr_expect_eq(w[0][STREAM_GLOBAL], 1, "its LDG is issued all the same");
    /* the addition waits for the load (a global read's link), then its 2
     * plain links; the STG issues beside the chain */
    cr_expect_eq(w[1][STREAM_CHAIN_GLOBAL], 1);
    cr_expect_eq(w[1][STREAM_CHAIN_PLAIN], 2);
    /* a block that waits for one of its reads (the second, plus one: a
     * load's link and 2 plain) has the first by its end: the next block's
     * addition waits for nothing but its own 2 links */
    cr_expect_eq(w[2][STREAM_CHAIN_GLOBAL], 1);
    cr_expect_eq(w[2][STREAM_CHAIN_PLAIN], 2);
    cr_expect_eq(w[3][STREAM_CHAIN_GLOBAL], 0);
    cr_expect_eq(w[3][STREAM_CHAIN_PLAIN], 2);
    /* used in a loop the read is outside: the warp waits once, in the
     * read's block, not at every pass */
    cr_expect_eq(w[4][STREAM_CHAIN_GLOBAL], 1);
    cr_expect_eq(w[5][STREAM_CHAIN_GLOBAL], 0);
}

Test(stream, the_reads_a_chain_waits_for_are_marked_links_the_others_not)
{
    /* @mcm_stream_chain_reads, per block bit k its k-th read: used_after's
     * read, in flight, a link of the next block's chain (block 0: 1);
     * waited_beside's second read, its block's chain (0b10), its first,
     * used in the next block, ready there: no link; used_in_a_loop's read,
     * waited for in its block (block 4: 1) */
    char *text = annotated(reads_in_flight_ir);
    cr_expect(strstr(text, "@mcm_stream_chain_reads = constant [7 x i32] "
                           "[i32 1, i32 0, i32 2, i32 0, i32 1, i32 0, i32 0]") != NULL,
              "%s", strstr(text, "@mcm_stream_chain_reads") ? strstr(text, "@mcm_stream_chain_reads") : text);
    free(text);
}

/* Four steps, each a read of word i = %1's address and, where i > 7, a
 * second read in a block of its own, each written out where it is read
 * (the first to private memory, as jacobi's, or to global memory):
 * independent_reads' second read at i − 7 (neither its address nor its
 * guard waits for the first's value); dependent_address's at the first
 * read's value; dependent_guard's at i − 7, where the first read's value
 * is above 7; after_a_write's at i − 7, its first read's value written to
 * global memory before it (prefix-optimal's copy_add: the STG waits for
 * the first load, the second LDG comes after it). */
#define FIRST_TO_PRIVATE "  tail call void @exec_pwrite(%struct.exec_thread* noundef %0, i64 noundef 0, i64 noundef %4)\n"
#define FIRST_TO_GLOBAL                                                                                                \
    "  tail call void @exec_gwrite(%struct.exec_thread* noundef %0, %struct.exec_array* noundef null, i64 noundef %3, i64 noundef %4)\n"
#define GUARDED_READS_IR(NAME, TEST, ADDRESS, FIRST_WRITE)                                                             \
    "define internal void @" NAME "(%struct.exec_thread* noundef %0, i8* noundef %1) {\n"                             \
    "  call void @__sanitizer_cov_trace_pc() #3\n"                                                                     \
    "  %3 = ptrtoint i8* %1 to i64\n"                                                                                  \
    "  %4 = tail call i64 @exec_gread(%struct.exec_thread* noundef %0, %struct.exec_array* noundef null, i64 noundef %3)\n" \
    FIRST_WRITE                                                                                                        \
    "  %5 = icmp ugt i64 " TEST ", 7\n"                                                                                \
    "  br i1 %5, label %6, label %9\n"                                                                                 \
    "\n"                                                                                                               \
    "6:                                                ; preds = %2\n"                                                 \
    "  call void @__sanitizer_cov_trace_pc() #3\n"                                                                     \
    "  %7 = add i64 %3, -7\n"                                                                                          \
    "  %8 = tail call i64 @exec_gread(%struct.exec_thread* noundef %0, %struct.exec_array* noundef null, i64 noundef " ADDRESS ")\n" \
    "  tail call void @exec_gwrite(%struct.exec_thread* noundef %0, %struct.exec_array* noundef null, i64 noundef %7, i64 noundef %8)\n" \
    "  br label %9\n"                                                                                                  \
    "\n"                                                                                                               \
    "9:                                                ; preds = %6, %2\n"                                             \
    "  call void @__sanitizer_cov_trace_pc() #3\n"                                                                     \
    "  ret void\n"                                                                                                     \
    "}\n"                                                                                                              \
    "\n"

static const char *const guarded_reads_ir =
    GUARDED_READS_IR("independent_reads", "%3", "%7", FIRST_TO_PRIVATE)
        GUARDED_READS_IR("dependent_address", "%3", "%4", FIRST_TO_PRIVATE)
            GUARDED_READS_IR("dependent_guard", "%4", "%7", FIRST_TO_PRIVATE)
                GUARDED_READS_IR("after_a_write", "%3", "%7", FIRST_TO_GLOBAL) "declare void @__sanitizer_cov_trace_pc()\n";

Test(stream, reads_in_guarded_blocks_wait_at_once_unless_one_waits_for_the_others_value)
{
    uint32_t w[12][STREAM_FIELDS];
    cr_assert_eq(weigh(guarded_reads_ir, w, 12), 12);
    machine m = latency_machine();
    m.read_latency = 250;
    /* each block's chain has its read's load (the read written out in its
     * block waits for it) */
    for (int b = 0; b < 12; b += 3) {
        cr_expect_eq(w[b][STREAM_CHAIN_GLOBAL], 1, "block %d", b);
        cr_expect_eq(w[b + 1][STREAM_CHAIN_GLOBAL], 1, "block %d", b + 1);
    }
    /* independent: both reads roots, one link level on the path */
    cr_expect_eq(w[0][STREAM_ROOT_LEVEL], 1);
    cr_expect_eq(w[1][STREAM_ROOT_LEVEL], 1);
    cr_expect_float_eq(one_pass(w, 3, &m).stream_reads, 1, 1e-9);
    /* the second read's address is the first's value: two links */
    cr_expect_eq(w[3][STREAM_ROOT_LEVEL], 1);
    cr_expect_eq(w[4][STREAM_ROOT_LEVEL], 0);
    cr_expect_float_eq(one_pass(w + 3, 3, &m).stream_reads, 2, 1e-9);
    /* its guard tests the first's value: two links */
    cr_expect_eq(w[7][STREAM_ROOT_LEVEL], 0);
    cr_expect_float_eq(one_pass(w + 6, 3, &m).stream_reads, 2, 1e-9);
    /* it comes after a global write of the first's value: two links */
    cr_expect_eq(w[9][STREAM_ROOT_LEVEL], 1);
    cr_expect_eq(w[10][STREAM_ROOT_LEVEL], 0);
    cr_expect_float_eq(one_pass(w + 9, 3, &m).stream_reads, 2, 1e-9);
}

Test(stream, a_zp_multiplication_is_its_instructions_and_a_mulmod_on_the_path)
{
    /* the global index (2, as above), tid, ℓ and bid read and tid and ℓ
     * widened (5); a read (3), the second at i + 32 its LDG alone at an
     * offset of the first's address (1: the addition folds into it); the
     * multiplication (9); the write to the first read's address (1); the
     * memory descriptor and the array's base (2); the entry (2) */
    kernel_dag *dag = counted(4, 1);
    const block_cost *c = kernel_block_cost(&dag->kernels[2], 0);
    cr_expect_eq(c->stream_work, 2 + 5 + 3 + 1 + 9 + 1 + 2 + 2);
    cr_expect_eq(c->stream_span[OP_MULMOD], 1);
    /* the path: the index (2) → the first read (its address 2, its load a
     * global read's link) → the product (a mulmod link) → the write at the
     * read's address (its STG issues beside the chain: no link), the second
     * read beside them; the entry (2), the indices and bases read (5 + 2) */
    cr_expect_eq(c->stream_span[OP_PLAIN], 2 + 2 + 0 + 2 + 7);
    cr_expect_eq(c->stream_reads, 1);
    cr_expect_eq(c->stream_span[OP_BARRIER], 0);
    kernel_dag_free(dag);
}

Test(stream, an_unrolled_loop_is_its_body_written_out)
{
    /* MCM_UNROLL: nvcc unrolls the 32 passes whole, and the counted build
     * too (clang alone keeps a loop of 32 calls of three functions): per
     * pass a read at a constant index (1), a multiplication (9), an
     * addition of results (3), no counter, comparison or branch; then tid
     * read (1), 32 + tid on 32 bits (1), the write (3), the memory
     * descriptor and the array's base (2), the entry (2) */
    kernel_dag *dag = counted(4, 1);
    cr_expect_eq(warp_inst(dag, 3, 0), 32 * (1 + 9 + 3) + 1 + 1 + 3 + 2 + 2);
    kernel_dag_free(dag);
}

Test(stream, a_zp_operation_of_the_same_operands_again_costs_nothing)
{
    /* nvcc computes the inlined product once (an unrolled DFT's x_i·w^e
     * for the pairs that recur); the host build calls twice.  The kernel
     * of the test above (25) with one product more and the addition of
     * the two (3) */
    kernel_dag *dag = counted(4, 1);
    cr_expect_eq(warp_inst(dag, 4, 0), warp_inst(dag, 2, 0) + 3);
    cr_expect_eq(kernel_block_cost(&dag->kernels[4], 0)->stream_span[OP_MULMOD], 1);
    kernel_dag_free(dag);
}

Test(stream, a_power_is_its_loops_passes_as_the_card_runs_them)
{
    /* tid < 32: the warp passes the loop 5 times (tid = 31 the longest), 4
     * squarings and at most 5 multiplications (tid = 31): the call 9, each
     * pass 16, each squaring 16, each multiplication 17 (their range
     * checks; the SASS of exec_zp_pow's loop); tid read and widened (2),
     * the write (3), the memory descriptor and the array's base (2), the
     * entry (2) */
    kernel_dag *dag = counted(4, 1);
    cr_expect_eq(warp_inst(dag, 5, 0), stream_call_cost("exec_zp_pow") + 5 * 16 + 4 * 16 + 5 * 17 + 2 + 3 + 2 + 2);
    cr_expect_eq(stream_call_cost("exec_zp_pow"), 9);
    cr_expect_eq(kernel_block_cost(&dag->kernels[5], 0)->stream_span[OP_MULMOD], 9);
    kernel_dag_free(dag);
}

Test(stream, a_kernel_reads_the_threads_indices_once_and_brackets_a_steps_early_return)
{
    /* Two steps inlined into one kernel: tid read once for both (S2R, 1),
     * the entry (2) and the barrier (1).  Each step tests tid >= k and
     * branches (2); the first's return skips the rest of its step only, a
     * branch the card brackets with BSSY and BSYNC (2); the second's is
     * the kernel's EXIT.  k = 0: nothing else */
    kernel_dag *none = counted(0, 1), *all = counted(32, 1);
    cr_expect_eq(warp_inst(none, 6, 0), 1 + 2 + 1 + (2 + 2) + 2);
    /* k = 32: the first step 32 + tid (1), a read (3), the product by an
     * arg of 64 bits (9, and its range check: ISETP, BRA, the arg into a
     * register, 4), the write at tid (its STG alone at a constant offset
     * from the read's address, 1, as in nvcc's cubin of the kernel; tid
     * widened once: 1); the second 32 + tid (1) and the write (3); the
     * memory descriptor and the array's base (2) */
    cr_expect_eq(warp_inst(all, 6, 0), warp_inst(none, 6, 0) + (1 + 3 + 9 + 4 + 1 + 1) + (1 + 3) + 2);
    kernel_dag_free(none);
    kernel_dag_free(all);
}

Test(stream, two_independent_products_wait_one_products_latency_two_dependent_ones_two)
{
    /* apart: x·x and x·3, each written; chained: (x·x)·3, written.  Both
     * paths are the index, the read, the product(s), the write (6 plain
     * links, as zpmul's); apart issues one instruction more (a second
     * write) and waits one product less */
    kernel_dag *dag = counted(4, 1);
    const block_cost *apart = kernel_block_cost(&dag->kernels[7], 0), *chained = kernel_block_cost(&dag->kernels[8], 0);
    machine m = latency_machine();
    cr_expect_eq(apart->stream_span[OP_MULMOD], 1);
    cr_expect_eq(chained->stream_span[OP_MULMOD], 2);
    cr_expect_eq(apart->stream_span[OP_PLAIN], chained->stream_span[OP_PLAIN]);
    cr_expect_gt(apart->stream_work, chained->stream_work);
    cr_expect_float_eq(block_span_cycles(chained, &m) - block_span_cycles(apart, &m), m.cycles_mulmod, 1e-9);
    kernel_dag_free(dag);
}

Test(stream, a_loop_of_dependent_additions_waits_each_pass_its_longest_chain)
{
    /* s = s + x mod p, k times: each addition needs the sum before it, a
     * result known below p, so each waits its tail alone after it: a
     * 32-bit sum, its comparison with p, the select (3 plain links; x's
     * range check beside the chain).  Unrolled by 4, a pass of 4
     * additions waits 12 plain links; a pass of the remainder loop of one
     * addition waits its counter's chain, longer than the addition's
     * tail: the addition of 1, the comparison the branch waits for (13),
     * the branch (5 + 13 + 5).  k = 4q + 1 (q >= 1): 12 plain links more
     * a pass than k = 5, no addition link; three comparisons a branch waits for, the
     * tests before the loops (of k's trips, of the remainder's) and the
     * remainder pass's counter (the unrolled passes' counters are beside
     * their additions) */
    kernel_dag *five = counted(5, 1);
    double plain_five = kernel_block_cost(&five->kernels[9], 0)->stream_span[OP_PLAIN];
    kernel_dag_free(five);
    for (int k = 1; k <= 16; k += 4) {
        kernel_dag *dag = counted(k, 1);
        const block_cost *c = kernel_block_cost(&dag->kernels[9], 0);
        cr_expect_eq(c->stream_span[OP_ADDMOD], 0, "k = %d", k);
        if (k >= 5)
            cr_expect_eq(c->stream_span[OP_PLAIN], plain_five + 3 * (k - 5), "k = %d", k);
        cr_expect_eq(c->stream_predicates, 3, "k = %d", k);
        kernel_dag_free(dag);
    }
}

/* Six additions of a function's two parameters, none of another; then six,
 * each of the one before (no addition of an addition: each is one
 * instruction). */
static const char *const additions_ir =
    "define internal void @additions(i32 noundef %0, i32 noundef %1) {\n"
    "  call void @__sanitizer_cov_trace_pc() #3\n"
    "  %3 = add i32 %0, 1\n"
    "  %4 = add i32 %0, 2\n"
    "  %5 = add i32 %1, 3\n"
    "  %6 = add i32 %1, 4\n"
    "  %7 = xor i32 %0, %1\n"
    "  %8 = sub i32 %0, %1\n"
    "  br label %9\n"
    "\n"
    "9:                                                ; preds = %2\n"
    "  call void @__sanitizer_cov_trace_pc() #3\n"
    "  %10 = add i32 %0, %1\n"
    "  %11 = xor i32 %10, %0\n"
    "  %12 = add i32 %11, %1\n"
    "  %13 = xor i32 %12, %0\n"
    "  %14 = add i32 %13, %1\n"
    "  %15 = sub i32 %14, %0\n"
    "  ret void\n"
    "}\n"
    "\n"
    "declare void @__sanitizer_cov_trace_pc()\n";

Test(stream, independent_additions_issue_one_a_cycle_dependent_ones_wait_a_link_each)
{
    uint32_t w[2][STREAM_FIELDS];
    cr_assert_eq(weigh(additions_ir, w, 2), 2);
    /* each block six 32-bit instructions (the jump falls through); the
     * first's chain one link, the second's six */
    cr_expect_eq(w[0][STREAM_INST], 6);
    cr_expect_eq(w[0][STREAM_CHAIN_PLAIN], 1);
    cr_expect_eq(w[1][STREAM_INST], 6);
    cr_expect_eq(w[1][STREAM_CHAIN_PLAIN], 6);

    /* one thread passes each block once: the first's 6 instructions one a
     * cycle outlast its one link (5 cycles); the second's 6 links (30)
     * outlast its 6 cycles of issue.  The path: 6 instructions issued, 6
     * links, and the kernel's entry and exit (2 links) */
    machine m = latency_machine();
    block_cost cost = one_pass(w, 2, &m);
    cr_expect_eq(cost.stream_issued, 6);
    cr_expect_eq(cost.stream_span[OP_PLAIN], 6 + 2);
    cr_expect_eq(cost.stream_work, 12 + 2);
    cr_expect_float_eq(block_span_cycles(&cost, &m), 6 * WARP_ISSUE_CYCLES + 8 * m.cycles_issue, 1e-9);
}

/* One warp passes one block of four Z/pZ products that do not wait for
 * each other (each 9 instructions, exec_zp_mul's) and 2 more instructions:
 * its chain one product and 2 plain links.  Its span on m, the kernel's
 * entry and exit (2 plain links) beside. */
static block_cost four_products(const machine *m)
{
    uint32_t w[1][STREAM_FIELDS] = {{0}};
    double product = stream_call_cost("exec_zp_mul");
    w[0][STREAM_MULMOD] = 4;
    w[0][STREAM_INST] = (uint32_t)(4 * product + 2);
    w[0][STREAM_PLAIN] = 2;
    w[0][STREAM_CHAIN_MULMOD] = 1;
    w[0][STREAM_CHAIN_PLAIN] = 2;
    return one_pass(w, 1, m);
}

Test(stream, independent_products_of_one_warp_take_the_measured_interval_each)
{
    machine m = latency_machine();
    m.cycles_issue_independent = 1.5;
    /* without a measured product interval, its 38 instructions issue in
     * 57 cycles, inside the chain's 68 + 2·5 */
    block_cost chained = four_products(&m);
    cr_expect_eq(chained.stream_issued, 0);
    cr_expect_float_eq(block_span_cycles(&chained, &m), 68 + 2 * 5 + 2 * 5, 1e-9);
    /* with it (43 cycles a product, one warp alone), the four products take
     * 4·43 and the 2 other instructions 2·1.5: longer than the chain */
    m.cycles_mulmod_independent = 43;
    block_cost issued = four_products(&m);
    cr_expect_eq(issued.stream_issued, 2);
    cr_expect_eq(issued.stream_issued_mulmod, 4);
    cr_expect_float_eq(block_span_cycles(&issued, &m), 4 * 43 + 2 * 1.5 + 2 * 5, 1e-9);
}

Test(stream, a_pass_the_blocks_warps_on_its_scheduler_make_issue_bound_waits_for_their_issue)
{
    /* one block of 20 instructions that do not wait for each other and a
     * chain of 7 plain links */
    uint32_t w[1][STREAM_FIELDS] = {{0}};
    w[0][STREAM_INST] = w[0][STREAM_PLAIN] = 20;
    w[0][STREAM_CHAIN_PLAIN] = 7;
    machine m = latency_machine(); /* a plain link 5 cycles */
    m.cycles_issue_independent = 1.5;
    m.issue_rate = 4;
    m.schedulers = 4;
    /* a block of one warp, alone on its scheduler: the chain, 7 · 5 = 35,
     * outlasts 20 · 1.5 = 30 of issue; the path 7 links and the kernel's
     * entry and exit (2 links): 45 */
    block_cost alone = one_pass_in(w, 1, 32, &m);
    cr_expect_eq(alone.stream_issued, 0);
    cr_expect_float_eq(block_span_cycles_shared(&alone, &m, 1), 9 * 5, 1e-9);
    /* 256 threads: 8 warps, 2 a scheduler, each instruction of a warp
     * max(1.5, 2 · 4/4) = 2 cycles: 20 · 2 = 40 outlast the chain (35, a
     * plain link's latency with 2 warps not measured: 5); the pass is its
     * issue, the path 40 + 2 · 5 = 50 */
    block_cost shared = one_pass_in(w, 1, 256, &m);
    cr_expect_eq(shared.stream_issued, 20);
    cr_expect_eq(shared.stream_span[OP_PLAIN], 2);
    cr_expect_float_eq(block_span_cycles_shared(&shared, &m, 2), 40 + 2 * 5, 1e-9);
    /* with the links measured slower with 2 warps a scheduler (6 cycles),
     * the chain, 42, outlasts the issue again: 9 · 6 = 54 */
    m.cycles_issue_warps2 = 6;
    block_cost slower = one_pass_in(w, 1, 256, &m);
    cr_expect_eq(slower.stream_issued, 0);
    cr_expect_float_eq(block_span_cycles_shared(&slower, &m, 2), 9 * 6, 1e-9);
    /* no schedulers key: every warp alone, as before */
    m.schedulers = 0;
    block_cost off = one_pass_in(w, 1, 256, &m);
    cr_expect_eq(off.stream_issued, 0);
}

Test(stream, warps_add_up_over_a_block)
{
    /* 64 threads: two warps, each running the branch's step */
    kernel_dag *dag = counted(0, 2);
    cr_expect_eq(warp_inst(dag, 1, 0), 20);
    cr_expect_eq(warp_inst(dag, 1, 1), 20);
    kernel_dag_free(dag);
}

/* ---- charging it --------------------------------------------------------- */

/* A counted block: 800 warp instructions, along its path 100 plain links,
 * 2 mulmods and a barrier; its threads' work 256 mulmods. */
static block_cost counted_block(void)
{
    block_cost c = {.span = 100, .work = 25600, .classes = 1, .stream = 1, .stream_work = 800};
    c.work_ops[OP_MULMOD] = 256;
    c.stream_span[OP_PLAIN] = 100;
    c.stream_span[OP_MULMOD] = 2;
    c.stream_span[OP_BARRIER] = 1;
    return c;
}

static machine issuing_machine(void)
{
    machine m = test_machine(1, 1);
    m.issue_rate = 4;
    m.cycles_issue = 5;
    m.cycles_mulmod = 68;
    m.cycles_barrier = 23;
    m.lanes_mulmod = 4;
    return m;
}

Test(stream, the_path_waits_each_link_and_the_sm_issues_four_a_cycle)
{
    block_cost c = counted_block();
    machine m = issuing_machine();
    /* span: 100 · 5 + 2 · 68 + 23 = 659; work: 800 / 4 = 200, the mulmods'
     * pipe 256 / 4 = 64 */
    cr_expect_float_eq(block_span_cycles(&c, &m), 659, 1e-9);
    cr_expect_float_eq(block_work_cycles(&c, &m), 200, 1e-9);
    cr_expect_float_eq(block_compute_cycles(&c, &m), 659, 1e-9);
    m.lanes_mulmod = 1; /* now the pipe is the bound: 256 cycles */
    cr_expect_float_eq(block_work_cycles(&c, &m), 256, 1e-9);
    m.cycles_issue = 0; /* a warp's instruction at cycles_plain */
    m.cycles_plain = 4;
    cr_expect_float_eq(block_span_cycles(&c, &m), 400 + 136 + 23, 1e-9);
    c.stream_issued = 40; /* and 40 instructions issued one a cycle */
    cr_expect_float_eq(block_span_cycles(&c, &m), 400 + 136 + 23 + 40, 1e-9);
}

Test(stream, a_product_on_the_path_waits_its_latency_with_the_blocks_warps_on_its_scheduler)
{
    block_cost c = counted_block();
    machine m = issuing_machine();
    /* the latencies with shared schedulers not measured: 68 a product,
     * whatever the warps a scheduler, today's 100 · 5 + 2 · 68 + 23 */
    cr_expect_float_eq(block_span_cycles_shared(&c, &m, 2), 659, 1e-9);
    m.cycles_mulmod_warps2 = 86;
    m.cycles_mulmod_warps4 = 130;
    /* without the SM's schedulers the warps are not spread: 68 */
    cr_expect_float_eq(block_span_cycles_shared(&c, &m, 2), 659, 1e-9);
    m.schedulers = 4;
    /* 8 warps, 2 on each of the 4 schedulers: 500 + 2 · 86 + 23 */
    cr_expect_float_eq(block_span_cycles_shared(&c, &m, block_warps_per_scheduler(256, &m)), 695, 1e-9);
    /* 4 warps or fewer, one a scheduler: a product alone's 68 */
    cr_expect_float_eq(block_span_cycles_shared(&c, &m, block_warps_per_scheduler(128, &m)), 659, 1e-9);
    cr_expect_float_eq(block_span_cycles_shared(&c, &m, block_warps_per_scheduler(32, &m)), 659, 1e-9);
    /* 12 warps, 3 a scheduler: halfway, 108 */
    cr_expect_float_eq(block_span_cycles_shared(&c, &m, 3), 500 + 2 * 108 + 23, 1e-9);
    /* 16 warps, 4 a scheduler: 130 */
    cr_expect_float_eq(block_span_cycles_shared(&c, &m, 4), 500 + 2 * 130 + 23, 1e-9);
    /* 32 warps, 8 a scheduler: each takes its turn at the pipe's rate,
     * 130 · 8 / 4 = 260 */
    cr_expect_float_eq(block_span_cycles_shared(&c, &m, 8), 500 + 2 * 260 + 23, 1e-9);
    /* with 4 a scheduler not measured, 16 warps wait 2 a scheduler's 86 */
    m.cycles_mulmod_warps4 = 0;
    cr_expect_float_eq(block_span_cycles_shared(&c, &m, 4), 695, 1e-9);
    /* the work is not touched: 800 / 4 */
    cr_expect_float_eq(block_work_cycles(&c, &m), 200, 1e-9);
}

Test(stream, resident_blocks_products_wait_with_the_other_blocks_warps_as_they_issue_up_to_the_rows)
{
    block_cost c = counted_block();
    machine m = issuing_machine();
    m.schedulers = 4;
    m.cycles_mulmod_warps2 = 86;
    m.cycles_mulmod_warps4 = 130;
    /* one block of 256 threads: its own 2 warps a scheduler, 86 a product:
     * 500 + 2 · 86 + 23 = 695, of which its warps issue all but the
     * barrier's 23 (672 / 695 of it) */
    cr_expect_float_eq(block_span_cycles_resident(&c, &m, 256, 1), 695, 1e-9);
    double issuing = 672.0 / 695;
    /* two computing: 2 + 2 · 672/695 warps a scheduler, a product on the
     * rows' straight line from 86 (2 warps) to 130 (4) */
    double w = 2 + 2 * issuing;
    cr_expect_float_eq(block_span_cycles_resident(&c, &m, 256, 2), 500 + 2 * (86 + 44 * (w - 2) / 2) + 23, 1e-9);
    /* four: 2 + 6 · 672/695 = 7.80 warps, past the last row at its rate,
     * 130 · w / 4 */
    w = 2 + 6 * issuing;
    cr_expect_float_eq(block_span_cycles_resident(&c, &m, 256, 4), 500 + 2 * (130 * w / 4) + 23, 1e-9);
    /* eight: 15.5, counted up to the 8 a row measures (the issue's share
     * charges the rest): 130 · 8 / 4 = 260 */
    cr_expect_float_eq(block_span_cycles_resident(&c, &m, 256, 8), 500 + 2 * 260 + 23, 1e-9);
    /* two global reads after the first, 200 cycles each, are waits off the
     * pipes too: 1 095 alone, 672 of it issued */
    block_cost reading = c;
    reading.stream_reads = 3;
    m.read_latency = 200;
    cr_expect_float_eq(block_span_cycles_resident(&reading, &m, 256, 1), 1095, 1e-9);
    w = 2 + 2 * (672.0 / 1095);
    cr_expect_float_eq(block_span_cycles_resident(&reading, &m, 256, 2), 500 + 2 * (86 + 44 * (w - 2) / 2) + 23 + 400,
                       1e-9);
    /* a block of 1 024 threads puts 8 a scheduler by itself: its own count */
    cr_expect_float_eq(block_span_cycles_resident(&c, &m, 1024, 2), block_span_cycles_shared(&c, &m, 8), 1e-9);
    /* its independent instructions issue at its own warps' share (the SM's
     * share of issue_rate among the blocks charges the others'): 40 more
     * add what they add to the block alone */
    block_cost independent = c;
    independent.stream_issued = 40;
    cr_expect_float_eq(block_span_cycles_resident(&independent, &m, 256, 8) - block_span_cycles_resident(&c, &m, 256, 8),
                       block_span_cycles_shared(&independent, &m, 2) - block_span_cycles_shared(&c, &m, 2), 1e-9);
    /* no schedulers key: every warp alone, whatever the blocks */
    m.schedulers = 0;
    cr_expect_float_eq(block_span_cycles_resident(&c, &m, 256, 4), 659, 1e-9);
}

Test(stream, a_global_read_on_the_path_waits_a_reads_latency_beyond_the_blocks_first)
{
    /* three reads on the path: the first is the block's read (the engine
     * charges its latency before the compute), the two others wait 200
     * cycles each, the L2's latency */
    block_cost c = counted_block();
    machine m = issuing_machine();
    m.read_latency = 200;
    c.stream_reads = 3;
    cr_expect_float_eq(block_span_cycles(&c, &m), 659 + 2 * 200, 1e-9);
    /* through the caches: a warp's load waits for its last sector */
    machine cached = test_cache_machine(1, 1, 128, 512);
    cached.issue_rate = m.issue_rate;
    cached.cycles_issue = m.cycles_issue;
    cached.cycles_mulmod = m.cycles_mulmod;
    cached.cycles_barrier = m.cycles_barrier;
    cached.read_latency = 200;
    cached.read_latency_l1 = 40;
    cached.read_latency_dram = 400;
    c.sectors.measured = 1;
    /* one load of 4 sectors, 3 from the L1 (a wavefront) and 1 from the
     * L2: each read waits the L2's 200 (weighed by the
     * 4 sectors, (3·40 + 200)/4 = 80) */
    c.sectors.l1_wavefronts = 1;
    c.sectors.l2_reads = 1;
    c.sectors.warp_loads[LEVEL_L2] = 1;
    cr_expect_float_eq(block_span_cycles(&c, &cached), 659 + 2 * 200, 1e-9);
    /* two loads all from the L1: 40 each */
    c.sectors = (cache_sectors){.measured = 1, .l1_wavefronts = 2};
    c.sectors.warp_loads[LEVEL_L1] = 2;
    cr_expect_float_eq(block_span_cycles(&c, &cached), 659 + 2 * 40, 1e-9);
    /* two loads from the L1, one from the L2, one from DRAM: the mean of
     * the loads, (2·40 + 200 + 400)/4 = 170 */
    c.sectors.warp_loads[LEVEL_L2] = 1;
    c.sectors.warp_loads[LEVEL_DRAM] = 1;
    cr_expect_float_eq(block_span_cycles(&c, &cached), 659 + 2 * 170, 1e-9);
    /* a machine without the caches, or a block that did not run through
     * them: the L2's latency, whatever the counts */
    machine off = cached;
    off.l1_words = 0;
    cr_expect_float_eq(block_span_cycles(&c, &off), 659 + 2 * 200, 1e-9);
    c.sectors.measured = 0;
    cr_expect_float_eq(block_span_cycles(&c, &cached), 659 + 2 * 200, 1e-9);
    c.sectors = (cache_sectors){.measured = 1}; /* no load counted: the L2's */
    cr_expect_float_eq(block_span_cycles(&c, &cached), 659 + 2 * 200, 1e-9);
    c.stream_reads = 1; /* the block's read alone: nothing more */
    cr_expect_float_eq(block_span_cycles(&c, &cached), 659, 1e-9);
}

Test(stream, few_warps_wait_for_latency_many_for_the_issue_slots)
{
    /* one SM holding up to 8 such blocks, each 659 cycles alone: 2 blocks
     * overlap (their 400 cycles of issue fit in 659); 8 need 1600 of issue */
    machine m = issuing_machine();
    m.blocks_per_sm = 8;
    for (int i = 0; i < 2; i++) {
        long blocks = i == 0 ? 2 : 8;
        kernel k = test_kernel("k", blocks, 256, 100, 0, 0);
        k.cost = counted_block();
        kernel_dag *dag = kernel_dag_new("issue");
        cr_assert(kernel_dag_add(dag, &k) >= 0, "%s", fail_message());
        sim_result r = simulate(dag, &m);
        cr_expect_float_eq(r.T, i == 0 ? 659 : 1600, 1e-6, "%ld blocks: T = %g", blocks, r.T);
        sim_result_free(&r);
        kernel_dag_free(dag);
    }
}

Test(stream, the_l1s_wavefronts_are_a_pipe_beside_the_issue_slots)
{
    /* the counted block ran through the caches: 600 wavefronts the L1
     * served, 10 sectors the L2 did.  With u_l1 = 1/32 a wavefront (a
     * line of 32 words) is one cycle: 600 cycles against 800 / 4 = 200 of
     * issue, so the L1 bounds the work; the reads keep the L2's 10 · 8 · U */
    machine m = test_cache_machine(1, 1, 128, 512);
    m.u_l1 = 1.0 / 32;
    m.issue_rate = 4;
    block_cost c = counted_block();
    c.sectors.measured = 1;
    c.sectors.l1_wavefronts = 600;
    c.sectors.l2_reads = 10;
    cr_expect_float_eq(block_work_cycles(&c, &m), 600, 1e-9);
    cr_expect_float_eq(block_transfer_cycles(&c, 256, &m, m.u, 0), 80, 1e-9);
    c.sectors.l1_wavefronts = 100; /* now the issue slots: 200 */
    cr_expect_float_eq(block_work_cycles(&c, &m), 200, 1e-9);
    m.issue_rate = 0; /* the paper's costs: the wavefronts are the reads' */
    cr_expect_float_eq(block_transfer_cycles(&c, 256, &m, m.u, 0), 100 + 80, 1e-9);
}

/* ---- the constant lines a kernel's code reads ------------------------------ */

/* The constants stream_annotate gives the blocks of `ir`, into c (at most
 * `max` blocks); the count of blocks. */
static int constants_of(const char *ir, uint32_t *c, int max)
{
    char *text = annotated(ir);
    const char *table = strstr(text, "@mcm_stream_constants = constant [");
    cr_assert_not_null(table, "no constants in:\n%s", text);
    int n = atoi(table + strlen("@mcm_stream_constants = constant ["));
    const char *at = strstr(table, "] [");
    for (int i = 0; at && i < n && i < max; i++) {
        at = strstr(at, "i32 ");
        c[i] = (uint32_t)strtoul(at + 4, NULL, 10);
        at += 4;
    }
    free(text);
    return n;
}

/* A step of args {gmem a0 .. a4; int s} (TBAA: five pointers, an int at
 * 40): block 0 reads a0 or a2 (a select of the C offsets 0 and 16: on the
 * card 0 and 16 + 2·16 = 48, bytes 0x210 and 0x240, the line 0x200);
 * block 1 reads s (C 40, card 40 + 5·16 = 120, byte 0x288: the line 0x280);
 * block 2 reads at an offset computed otherwise (not seen). */
static const char *const args_ir =
    "define internal void @pick(%struct.exec_thread* noundef %0, i8* noundef %1) {\n"
    "  call void @__sanitizer_cov_trace_pc() #3\n"
    "  %tid.p = getelementptr inbounds %struct.exec_thread, %struct.exec_thread* %0, i64 0, i32 0\n"
    "  %tid = load i32, i32* %tid.p, align 8, !tbaa !7\n"
    "  %c = icmp eq i32 %tid, 0\n"
    "  %v = sext i32 %tid to i64\n"
    "  %3 = select i1 %c, i64 16, i64 0\n"
    "  %4 = getelementptr i8, i8* %1, i64 %3\n"
    "  %5 = bitcast i8* %4 to %struct.gmem_array**\n"
    "  %6 = load %struct.gmem_array*, %struct.gmem_array** %5, align 8, !tbaa !10\n"
    "  br label %7\n"
    "7:\n"
    "  call void @__sanitizer_cov_trace_pc() #3\n"
    "  %8 = getelementptr inbounds i8, i8* %1, i64 40\n"
    "  %9 = bitcast i8* %8 to i32*\n"
    "  %10 = load i32, i32* %9, align 8, !tbaa !36\n"
    "  br label %11\n"
    "11:\n"
    "  call void @__sanitizer_cov_trace_pc() #3\n"
    "  %12 = getelementptr inbounds i8, i8* %1, i64 %v\n"
    "  %13 = bitcast i8* %12 to i32*\n"
    "  %14 = load i32, i32* %13, align 4, !tbaa !36\n"
    "  ret void\n"
    "}\n"
    "\n"
    "declare void @__sanitizer_cov_trace_pc()\n"
    "!7 = !{!\"int\", !8, i64 0}\n"
    "!8 = !{!\"omnipotent char\", !9, i64 0}\n"
    "!9 = !{!\"Simple C/C++ TBAA\"}\n"
    "!10 = !{!11, !11, i64 0}\n"
    "!11 = !{!\"any pointer\", !8, i64 0}\n"
    "!31 = !{!\"args\", !11, i64 0, !11, i64 8, !11, i64 16, !11, i64 24, !11, i64 32, !7, i64 40}\n"
    "!36 = !{!31, !7, i64 40}\n";

Test(stream, an_args_read_is_at_its_card_offset_each_gmem_24_bytes)
{
    uint32_t c[3] = {0};
    cr_assert_eq(constants_of(args_ir, c, 3), 3);
    cr_expect_eq(c[0], STREAM_TOUCH_LINE, "a select of a0 and a2: 0x210 and 0x240, the touch kernel's line");
    cr_expect_eq(c[1], 2u, "s at 0x288: the line 0x280");
    cr_expect_eq(c[2], 0u, "an offset not seen: no line");
}

/* tests/user/constants.c counted on machine m: its two kernels. */
static kernel_dag *constants_counted(machine m)
{
    char cache[64], source[512];
    snprintf(cache, sizeof cache, "/tmp/mcmsim-stream-XXXXXX");
    cr_assert_not_null(mkdtemp(cache));
    setenv("MCMSIM_CACHE", cache, 1);
    snprintf(source, sizeof source, "%s/tests/user/constants.c", MCMSIM_DATADIR);
    vars params = test_params("k", 0.0);
    kernel_dag *dag = user_program_build(source, &params, &m);
    cr_assert_not_null(dag, "%s", fail_message());
    cr_assert_eq(dag->n, 2);
    return dag;
}

Test(stream, a_kernel_reading_a_second_line_of_constants_pays_one_line_the_touch_kernels_none)
{
    /* near_kernel reads its args at 0x210-0x237 (the touch kernel's line,
     * which graph_launch_latency holds): nothing; far_kernel reads one at
     * 0x290 (the line 0x280): one line, once, with its launch.  The two
     * kernels in a graph one after the other: T grows by one line. */
    machine off = latency_machine();
    off.launch = LAUNCH_GRAPH;
    off.graph_launch_latency = 100;
    machine on = off;
    on.constant_line_latency = 1000;
    kernel_dag *dag = constants_counted(on);
    cr_expect_eq(kernel_constant_lines(&dag->kernels[0]), 0);
    cr_expect_eq(kernel_constant_lines(&dag->kernels[1]), 1);
    sim_result r1 = simulate(dag, &off), r2 = simulate(dag, &on);
    cr_expect_float_eq(r2.T - r1.T, 1000, 1e-9, "T %.17g against %.17g", r2.T, r1.T);
    sim_result_free(&r1);
    sim_result_free(&r2);
    kernel_dag_free(dag);
    /* the paper's costs (no count): no line, whatever the machine says */
    machine paper = on;
    paper.issue_rate = 0;
    kernel_dag *plain = constants_counted(paper);
    cr_expect_eq(kernel_constant_lines(&plain->kernels[1]), 0);
    kernel_dag_free(plain);
}

/* ---- the term off -------------------------------------------------------- */

Test(stream, with_no_issue_rate_a_counted_block_costs_what_it_did)
{
    block_cost c = counted_block(), plain = c;
    plain.stream = 0;
    plain.stream_work = plain.stream_issued = plain.stream_reads = 0;
    memset(plain.stream_span, 0, sizeof plain.stream_span);
    machine m = issuing_machine();
    m.issue_rate = 0;
    cr_expect_eq(block_compute_cycles(&c, &m), block_compute_cycles(&plain, &m));
    cr_expect_eq(block_span_cycles(&c, &m), block_span_cycles(&plain, &m));
    cr_expect_eq(block_work_cycles(&c, &m), block_work_cycles(&plain, &m));
}

Test(stream, the_term_off_gives_todays_time_to_the_bit)
{
    /* the matrix–vector product written once on the H100's preset: built
     * by cc (the term off) and counted by clang, simulated with the term
     * off, the same T; its blocks' costs differ only in the stream */
    char cache[64], source[512], path[1024];
    snprintf(cache, sizeof cache, "/tmp/mcmsim-stream-XXXXXX");
    cr_assert_not_null(mkdtemp(cache));
    setenv("MCMSIM_CACHE", cache, 1);
    snprintf(source, sizeof source, "%s/programs/user/matvec.c", MCMSIM_DATADIR);
    machine off;
    machine_defaults(&off);
    machine_preset_path("h100", path, sizeof path);
    cr_assert_eq(machine_load_file(&off, path), 0, "%s", fail_message());
    /* without the caches: cc and clang may evaluate a call's two reads in
     * either order (C leaves it open), which the caches' LRU can tell */
    off.l1_words = 0;
    machine on = off;
    on.issue_rate = 3;
    vars params = test_params("n l", 256.0, 64.0);
    kernel_dag *plain = user_program_build(source, &params, &off), *stream = user_program_build(source, &params, &on);
    cr_assert(plain && stream, "%s", fail_message());
    const kernel *a = &plain->kernels[0], *b = &stream->kernels[0];
    for (long j = 0; j < a->blocks; j++) {
        block_cost x = *kernel_block_cost(a, j), y = *kernel_block_cost(b, j);
        cr_assert_eq(x.stream, 0);
        cr_assert_eq(y.stream, 1);
        y.stream = 0;
        y.stream_work = y.stream_issued = y.stream_reads = y.stream_branches = y.stream_predicates = 0;
        memset(y.stream_span, 0, sizeof y.stream_span);
        cr_assert_eq(memcmp(&x, &y, sizeof x), 0, "block %ld: the counted build measured other costs", j);
    }
    sim_result r1 = simulate(plain, &off), r2 = simulate(stream, &off), r3 = simulate(stream, &on);
    cr_expect_eq(r1.T, r2.T, "T %.17g against %.17g", r1.T, r2.T);
    cr_expect_neq(r2.T, r3.T, "the term on changes T");
    sim_result_free(&r1);
    sim_result_free(&r2);
    sim_result_free(&r3);
    kernel_dag_free(plain);
    kernel_dag_free(stream);
}

/* ---- a step after a barrier ---------------------------------------------- */

/* A kernel whose steps array is @rhalve alone, of listed steps
 * (MCM_KERNEL, LOOPED 0) or looped (MCM_KERNEL_LOOP, LOOPED 1). */
#define RHALVE_KERNEL(LOOPED)                                                                                      \
    "@k = internal constant %struct.mcm_kernel { i8* null, i32 1, void (%struct.exec_thread*, i8*)** "            \
    "getelementptr inbounds ([1 x void (%struct.exec_thread*, i8*)*], [1 x void (%struct.exec_thread*, i8*)*]* "   \
    "@k_steps_, i32 0, i32 0), i32 " LOOPED ", void (%struct.mcm_schedule*, i8*)* null }, align 8\n"               \
    "@k_steps_ = internal constant [1 x void (%struct.exec_thread*, i8*)*] [void (%struct.exec_thread*, i8*)* "    \
    "@rhalve], align 8\n\n"

/* chains.c's reduce level as clang makes it: half = threads >> step, and
 * where tid < half, p[tid] = p[tid] + p[tid + half] (session 48). */
#define RHALVE_STEP                                                                                                 \
    "define internal void @rhalve(%struct.exec_thread* noundef %0, i8* noundef %1) {\n"                            \
    "  call void @__sanitizer_cov_trace_pc() #7\n"                                                                 \
    "  %3 = getelementptr inbounds %struct.exec_thread, %struct.exec_thread* %0, i64 0, i32 1\n"                   \
    "  %4 = load i32, i32* %3, align 4\n"                                                                          \
    "  %5 = sext i32 %4 to i64\n"                                                                                  \
    "  %6 = getelementptr inbounds %struct.exec_thread, %struct.exec_thread* %0, i64 0, i32 4\n"                   \
    "  %7 = load i32, i32* %6, align 8\n"                                                                          \
    "  %8 = zext i32 %7 to i64\n"                                                                                  \
    "  %9 = ashr i64 %5, %8\n"                                                                                     \
    "  %10 = getelementptr inbounds %struct.exec_thread, %struct.exec_thread* %0, i64 0, i32 0\n"                  \
    "  %11 = load i32, i32* %10, align 8\n"                                                                        \
    "  %12 = sext i32 %11 to i64\n"                                                                                \
    "  %13 = icmp sgt i64 %9, %12\n"                                                                               \
    "  br i1 %13, label %14, label %22\n"                                                                          \
    "\n"                                                                                                           \
    "14:                                               ; preds = %2\n"                                             \
    "  call void @__sanitizer_cov_trace_pc() #7\n"                                                                 \
    "  %15 = tail call i64 @exec_pread(%struct.exec_thread* noundef nonnull %0, i64 noundef %12)\n"                \
    "  %16 = load i32, i32* %10, align 8\n"                                                                        \
    "  %17 = sext i32 %16 to i64\n"                                                                                \
    "  %18 = add nsw i64 %9, %17\n"                                                                                \
    "  %19 = tail call i64 @exec_pread(%struct.exec_thread* noundef nonnull %0, i64 noundef %18)\n"                \
    "  %20 = add i64 %19, %15\n"                                                                                   \
    "  %21 = and i64 %20, 4294967295\n"                                                                            \
    "  tail call void @exec_pwrite(%struct.exec_thread* noundef nonnull %0, i64 noundef %12, i64 noundef %21)\n"   \
    "  br label %22\n"                                                                                             \
    "\n"                                                                                                           \
    "22:                                               ; preds = %2, %14\n"                                        \
    "  call void @__sanitizer_cov_trace_pc() #7\n"                                                                 \
    "  ret void\n"                                                                                                 \
    "}\n"                                                                                                          \
    "\n"                                                                                                           \
    "declare void @__sanitizer_cov_trace_pc()\n"

static const char *const halving_ir = RHALVE_KERNEL("0") RHALVE_STEP;
static const char *const looped_halving_ir = RHALVE_KERNEL("1") RHALVE_STEP;

Test(stream, past_a_barrier_a_steps_index_arithmetic_is_off_its_chain)
{
    uint32_t w[3][STREAM_FIELDS];
    cr_assert_eq(weigh(halving_ir, w, 3), 3);
    /* the test: threads >> step (a 64-bit shift, 2), tid < half (a 64-bit
     * comparison, 2), the branch (1); as a kernel's first step, its chain
     * all of them, the comparison's last link the predicate's; past a
     * barrier, the shift and the comparison are free values (the thread's
     * fields and the step's number), computed before it: the branch alone */
    cr_expect_eq(w[0][STREAM_INST], 5);
    cr_expect_eq(w[0][STREAM_CHAIN_PLAIN], 4);
    cr_expect_eq(w[0][STREAM_CHAIN_PREDICATE], 1);
    cr_expect_eq(w[0][STREAM_AFTER_PLAIN], 1);
    cr_expect_eq(w[0][STREAM_AFTER_PREDICATE], 0);
    /* the body: tid + half (free, 1) before the second read, then the
     * read (a private link), the sum and the low word's mask (2 plain);
     * past a barrier the index's addition is off the chain, the links
     * that wait for the private reads stay */
    cr_expect_eq(w[1][STREAM_CHAIN_PLAIN], 3);
    cr_expect_eq(w[1][STREAM_CHAIN_PRIVATE], 1);
    cr_expect_eq(w[1][STREAM_AFTER_PLAIN], 2);
    cr_expect_eq(w[1][STREAM_AFTER_PRIVATE], 1);
}

Test(stream, past_a_barrier_a_looped_steps_arithmetic_on_its_number_stays_on_its_chain)
{
    /* the same step in a looped kernel (MCM_KERNEL_LOOP): the step's number
     * is the loop's counter on the card, not a constant, so threads >> step
     * and the comparison that reads it stay on the chain past the barrier;
     * tid + half reads it too; nothing leaves the chain */
    uint32_t w[3][STREAM_FIELDS], listed[3][STREAM_FIELDS];
    cr_assert_eq(weigh(looped_halving_ir, w, 3), 3);
    cr_assert_eq(weigh(halving_ir, listed, 3), 3);
    /* but the loop over the steps' latch (loop:step_latch), on the step's
     * entry: UIADD3, ULDC, UISETP, PLOP3, BRA each pass, on the chain past
     * the barrier the counter's addition and the branch, plain, and the
     * comparison's predicate between them (stream_ir_loops.c) */
    uint32_t latch[STREAM_CHAIN_CLASSES] = {[0] = 2, [STREAM_CHAIN_PREDICATE - STREAM_CHAIN_PLAIN] = 1};
    for (int b = 0; b < 2; b++)
        for (int k = 0; k < STREAM_CHAIN_CLASSES; k++)
            cr_expect_eq(w[b][STREAM_AFTER_PLAIN + k], w[b][STREAM_CHAIN_PLAIN + k] + (b == 0 ? latch[k] : 0),
                         "block %d class %d", b, k);
    cr_expect_eq(w[0][STREAM_INST], listed[0][STREAM_INST] + 5);
    cr_expect_eq(w[0][STREAM_PLAIN], listed[0][STREAM_PLAIN] + 5);
    cr_expect_eq(w[1][STREAM_INST], listed[1][STREAM_INST]);
    /* nothing hoisted: every value reads the step's number or a private word */
    cr_expect_eq(w[0][STREAM_HOISTED] + w[1][STREAM_HOISTED], 0);
}

/* A step whose test reads the thread's fields alone: where tid < threads
 * − 1, p[tid] = p[tid] + 1 (no step number). */
#define RLAST_STEP                                                                                                  \
    "define internal void @rhalve(%struct.exec_thread* noundef %0, i8* noundef %1) {\n"                            \
    "  call void @__sanitizer_cov_trace_pc() #7\n"                                                                 \
    "  %3 = getelementptr inbounds %struct.exec_thread, %struct.exec_thread* %0, i64 0, i32 1\n"                   \
    "  %4 = load i32, i32* %3, align 4\n"                                                                          \
    "  %5 = add nsw i32 %4, -1\n"                                                                                  \
    "  %6 = getelementptr inbounds %struct.exec_thread, %struct.exec_thread* %0, i64 0, i32 0\n"                   \
    "  %7 = load i32, i32* %6, align 8\n"                                                                          \
    "  %8 = icmp sgt i32 %5, %7\n"                                                                                 \
    "  br i1 %8, label %9, label %14\n"                                                                            \
    "\n"                                                                                                           \
    "9:                                                ; preds = %2\n"                                             \
    "  call void @__sanitizer_cov_trace_pc() #7\n"                                                                 \
    "  %10 = sext i32 %7 to i64\n"                                                                                 \
    "  %11 = tail call i64 @exec_pread(%struct.exec_thread* noundef nonnull %0, i64 noundef %10)\n"                \
    "  %12 = add i64 %11, 1\n"                                                                                     \
    "  %13 = and i64 %12, 4294967295\n"                                                                            \
    "  tail call void @exec_pwrite(%struct.exec_thread* noundef nonnull %0, i64 noundef %10, i64 noundef %13)\n"   \
    "  br label %14\n"                                                                                             \
    "\n"                                                                                                           \
    "14:                                               ; preds = %2, %9\n"                                         \
    "  call void @__sanitizer_cov_trace_pc() #7\n"                                                                 \
    "  ret void\n"                                                                                                 \
    "}\n"                                                                                                          \
    "\n"                                                                                                           \
    "declare void @__sanitizer_cov_trace_pc()\n"

static const char *const listed_last_ir = RHALVE_KERNEL("0") RLAST_STEP;
static const char *const looped_last_ir = RHALVE_KERNEL("1") RLAST_STEP;

Test(stream, past_a_barrier_a_looped_steps_free_comparison_stays_on_its_chain)
{
    /* tid < threads − 1: the subtraction and the comparison are free values
     * (the thread's fields).  Listed steps: both computed before the
     * barrier, the branch alone past it.  A looped step: ptxas keeps
     * threads − 1 in a register across the step loop but issues the
     * comparison again each pass after the barrier, the branch waiting for
     * its predicate (Euclid's ping-pong step, `tid < h_len`: ISETP.GE after
     * the loop's BAR.SYNC, profiles/sass-executed/euclid-s256.csv): the
     * comparison's link stays, the subtraction's does not */
    uint32_t listed[3][STREAM_FIELDS], looped[3][STREAM_FIELDS];
    cr_assert_eq(weigh(listed_last_ir, listed, 3), 3);
    cr_assert_eq(weigh(looped_last_ir, looped, 3), 3);
    cr_expect_eq(listed[0][STREAM_CHAIN_PLAIN], 2, "the subtraction, the comparison's issue");
    cr_expect_eq(listed[0][STREAM_CHAIN_PREDICATE], 1);
    cr_expect_eq(listed[0][STREAM_AFTER_PLAIN], 1, "the branch alone");
    cr_expect_eq(listed[0][STREAM_AFTER_PREDICATE], 0);
    /* the looped step's entry besides: the loop's latch (5 instructions,
     * past the barrier 2 plain links and a predicate) and threads − 1 hoisted
     * before the loop over the steps (STREAM_HOISTED: issued once a warp,
     * not each pass; the comparison is not) */
    for (int k = 0; k < STREAM_FIELDS; k++)
        if (k < STREAM_AFTER_PLAIN && k != STREAM_INST && k != STREAM_PLAIN && k != STREAM_HOISTED)
            cr_expect_eq(looped[0][k], listed[0][k], "field %d", k);
    cr_expect_eq(looped[0][STREAM_INST], listed[0][STREAM_INST] + 5);
    cr_expect_eq(looped[0][STREAM_PLAIN], listed[0][STREAM_PLAIN] + 5);
    cr_expect_eq(listed[0][STREAM_HOISTED], 0, "listed steps: no loop to hoist before");
    cr_expect_eq(looped[0][STREAM_HOISTED], 1, "the subtraction");
    cr_expect_eq(looped[0][STREAM_AFTER_PLAIN], 1 + 2,
                 "the comparison's issue (the subtraction off the chain), the latch's two");
    cr_expect_eq(looped[0][STREAM_AFTER_PREDICATE], 1 + 1, "the branch waits for the predicate, and the latch's");
    for (int k = 0; k < STREAM_CHAIN_CLASSES; k++)
        cr_expect_eq(looped[1][STREAM_AFTER_PLAIN + k], listed[1][STREAM_AFTER_PLAIN + k], "the body, class %d", k);
}

/* An index read from private memory (a word a step writes): p[p[tid] + 1]. */
static const char *const read_index_ir =
    "define internal void @gather(%struct.exec_thread* noundef %0, i8* noundef %1) {\n"
    "  call void @__sanitizer_cov_trace_pc() #7\n"
    "  %3 = getelementptr inbounds %struct.exec_thread, %struct.exec_thread* %0, i64 0, i32 0\n"
    "  %4 = load i32, i32* %3, align 8\n"
    "  %5 = sext i32 %4 to i64\n"
    "  %6 = tail call i64 @exec_pread(%struct.exec_thread* noundef nonnull %0, i64 noundef %5)\n"
    "  %7 = mul i64 %6, 3\n"
    "  %8 = add i64 %7, 1\n"
    "  %9 = tail call i64 @exec_pread(%struct.exec_thread* noundef nonnull %0, i64 noundef %8)\n"
    "  tail call void @exec_pwrite(%struct.exec_thread* noundef nonnull %0, i64 noundef %5, i64 noundef %9)\n"
    "  ret void\n"
    "}\n"
    "\n"
    "declare void @__sanitizer_cov_trace_pc()\n";

Test(stream, past_a_barrier_an_index_read_from_memory_stays_on_the_chain)
{
    /* the second read's index is computed from a word read: it waits for
     * that read after the barrier as before it (tid is read and widened
     * once a kernel, no instruction) */
    uint32_t w[1][STREAM_FIELDS];
    cr_assert_eq(weigh(read_index_ir, w, 1), 1);
    cr_expect_eq(w[0][STREAM_CHAIN_PRIVATE], 2);
    cr_expect_geq(w[0][STREAM_CHAIN_PLAIN], 1, "the index's arithmetic");
    for (int k = 0; k < STREAM_CHAIN_CLASSES; k++)
        cr_expect_eq(w[0][STREAM_AFTER_PLAIN + k], w[0][STREAM_CHAIN_PLAIN + k], "class %d", k);
}

/* One warp of one thread passes blocks 0 .. blocks − 1 of table w once
 * in each of `steps` steps, on machine m: its block's costs. */
static block_cost steps_in(uint32_t w[][STREAM_FIELDS], int blocks, int steps, const machine *m)
{
    stream_table table = {blocks, (const uint32_t(*)[STREAM_FIELDS])w, NULL, NULL};
    stream_counter *c = stream_counter_new(&table, 32, 32, steps, m);
    for (int s = 0; s < steps; s++) {
        stream_thread(c);
        for (int b = 0; b < blocks; b++)
            mcm_stream_block((uint32_t)b);
        stream_warp_end(c);
        stream_step_end(c);
    }
    block_cost cost = {0};
    stream_block_end(c, 32, &cost);
    stream_counter_free(c);
    return cost;
}

Test(stream, a_step_after_a_barrier_charges_its_blocks_chains_past_it)
{
    /* block 0: the test, 5 instructions, its chain 4 plain links and a
     * predicate, past a barrier 1 plain; block 1: its chain a private link
     * and 3 plain, past a barrier 2 (a warp alone on its scheduler, an
     * instruction a cycle: neither block issue-bound) */
    uint32_t w[2][STREAM_FIELDS] = {{0}};
    w[0][STREAM_INST] = w[0][STREAM_PLAIN] = 5;
    w[0][STREAM_CHAIN_PLAIN] = 4;
    w[0][STREAM_CHAIN_PREDICATE] = 1;
    w[0][STREAM_AFTER_PLAIN] = 1;
    w[1][STREAM_INST] = 6;
    w[1][STREAM_PLAIN] = 3;
    w[1][STREAM_PRIVATE] = 2;
    w[1][STREAM_CHAIN_PLAIN] = 3;
    w[1][STREAM_CHAIN_PRIVATE] = 1;
    w[1][STREAM_AFTER_PLAIN] = 2;
    w[1][STREAM_AFTER_PRIVATE] = 1;
    machine m = latency_machine();
    m.cycles_predicate = 13;
    /* one step (no barrier): the first step's chains, (4 + 3) plain, the
     * predicate, the private link; the entry 2 plain links beside */
    block_cost one = steps_in(w, 2, 1, &m);
    cr_expect_eq(one.stream_span[OP_PLAIN], 4 + 3 + stream_call_cost("kernel:entry"));
    cr_expect_eq(one.stream_predicates, 1);
    cr_expect_eq(one.stream_span[OP_PRIVATE], 1);
    /* three steps: the first as above, the two after a barrier 1 + 2 plain
     * links and the private one each, no predicate; the work the same
     * each step (the free values' instructions are issued, before it) */
    block_cost three = steps_in(w, 2, 3, &m);
    cr_expect_eq(three.stream_span[OP_PLAIN], 4 + 3 + 2 * (1 + 2) + stream_call_cost("kernel:entry") +
                                                  2 * stream_call_cost("__syncthreads"));
    cr_expect_eq(three.stream_predicates, 1);
    cr_expect_eq(three.stream_span[OP_PRIVATE], 3);
    cr_expect_eq(three.stream_span[OP_BARRIER], 2);
    cr_expect_float_eq(three.stream_work - one.stream_work, 2 * (5 + 6) + 2 * stream_call_cost("__syncthreads"),
                       1e-9);
    /* the rule off where nothing is free: the same chains past a barrier
     * as before it charge each step as the first */
    for (int k = 0; k < STREAM_CHAIN_CLASSES; k++)
        for (int b = 0; b < 2; b++)
            w[b][STREAM_AFTER_PLAIN + k] = w[b][STREAM_CHAIN_PLAIN + k];
    block_cost same = steps_in(w, 2, 3, &m);
    cr_expect_eq(same.stream_span[OP_PLAIN], 3 * (4 + 3) + stream_call_cost("kernel:entry") +
                                                 2 * stream_call_cost("__syncthreads"));
    cr_expect_eq(same.stream_predicates, 3);
    cr_expect_eq(same.stream_span[OP_PRIVATE], 3);
}

Test(stream, past_a_barrier_a_block_whose_chain_is_free_still_issues_its_instructions)
{
    /* a block of 8 instructions whose chain is 6 plain links of 5 cycles,
     * at one instruction each 2 cycles (a warp alone): its chain, 30
     * cycles, outlasts its issue, 16; past a barrier its chain is 1 link
     * (5 of them free values, computed before it), and the warp still
     * issues its 8 instructions (before the barrier and after it, in the
     * order of its code): issue-bound there, its 8 instructions the path */
    uint32_t w[1][STREAM_FIELDS] = {{0}};
    w[0][STREAM_INST] = w[0][STREAM_PLAIN] = 8;
    w[0][STREAM_CHAIN_PLAIN] = 6;
    w[0][STREAM_AFTER_PLAIN] = 1;
    machine m = latency_machine();
    m.cycles_issue_independent = 2;
    block_cost one = steps_in(w, 1, 1, &m), two = steps_in(w, 1, 2, &m);
    cr_expect_eq(one.stream_issued, 0);
    cr_expect_eq(two.stream_issued, 8);
    cr_expect_eq(two.stream_span[OP_PLAIN] - one.stream_span[OP_PLAIN], stream_call_cost("__syncthreads"));
}

Test(stream, past_a_barrier_a_looped_steps_hoisted_instructions_are_not_issued_again)
{
    /* the same block, 3 of its 8 instructions hoisted before a looped
     * kernel's loop over its steps (STREAM_HOISTED): the first step issues
     * all 8, each step after a barrier 5; past the barrier now its chain,
     * 5 cycles, and its 5 instructions, 10, the path */
    uint32_t w[1][STREAM_FIELDS] = {{0}};
    w[0][STREAM_INST] = w[0][STREAM_PLAIN] = 8;
    w[0][STREAM_HOISTED] = 3;
    w[0][STREAM_CHAIN_PLAIN] = 6;
    w[0][STREAM_AFTER_PLAIN] = 1;
    machine m = latency_machine();
    m.cycles_issue_independent = 2;
    block_cost one = steps_in(w, 1, 1, &m), three = steps_in(w, 1, 3, &m);
    cr_expect_float_eq(three.stream_work - one.stream_work, 2 * (5 + stream_call_cost("__syncthreads")), 1e-9);
    cr_expect_eq(three.stream_issued, 2 * 5);
    /* 7 hoisted: 1 instruction, 2 cycles, less than the chain's 5: each
     * step after a barrier its chain, 1 plain link */
    w[0][STREAM_HOISTED] = 7;
    block_cost seven = steps_in(w, 1, 3, &m);
    cr_expect_eq(seven.stream_issued, 0);
    cr_expect_eq(seven.stream_span[OP_PLAIN] - one.stream_span[OP_PLAIN], 2 * (1 + stream_call_cost("__syncthreads")));
}

/* ---- the card's count ---------------------------------------------------- */

Test(stream, nsight_computes_raw_csv_gives_each_kernels_warps_and_instructions)
{
    char *path = temp_file(
        "==PROF== Connected to process 77 (build/cuda/user-matvec)\n"
        "==PROF== Profiling \"matvec_mcm_global_\" - 0: 0%....50%....100% - 9 passes\n"
        "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Context\",\"Stream\","
        "\"Block Size\",\"Grid Size\",\"Device\",\"CC\",\"launch__block_size\",\"launch__grid_size\","
        "\"smsp__inst_executed.sum\"\n"
        "\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"inst\"\n"
        "\"0\",\"77\",\"user-matvec\",\"127.0.0.1\",\"matvec_mcm_global_\",\"1\",\"13\",\"(256, 1, 1)\","
        "\"(1024, 1, 1)\",\"0\",\"9.0\",\"256\",\"1024\",\"2,769,920\"\n"
        "\"1\",\"77\",\"user-matvec\",\"127.0.0.1\",\"matvec_mcm_global_(product)\",\"1\",\"13\",\"(96, 1, 1)\","
        "\"(2, 1, 1)\",\"0\",\"9.0\",\"96\",\"2\",\"600\"\n"
        "==PROF== Disconnected from process 77\n",
        ".csv");
    ncu_kernel k[4];
    int n = ncu_kernels(path, k, 4);
    cr_assert_eq(n, 1, "%d kernels: %s", n, n < 0 ? fail_message() : "");
    cr_expect_str_eq(k[0].name, "matvec");
    cr_expect_eq(k[0].inst, 2769920 + 600);
    cr_expect_eq(k[0].warps, 1024 * 8 + 2 * 3, "a block of 96 threads is 3 warps");
    unlink(path);
    free(path);
    path = temp_file("\"ID\",\"Kernel Name\"\n", ".csv");
    cr_expect_eq(ncu_kernels(path, k, 4), -1);
    cr_expect(strstr(fail_message(), "smsp__inst_executed.sum") != NULL, "%s", fail_message());
    unlink(path);
    free(path);
}

/* A session's count of a built-in case study is compared with the count of
 * its kernels written once (programs/sum/kernels.c), run at the row's
 * params: the report's row holds the card's count (1 000 instructions over
 * 2 blocks of 8 warps: 62.5 a warp) and ours, which the test counts itself
 * from the same file on the H100's code machine. */
Test(stream, a_sessions_count_of_a_built_in_case_is_checked_against_its_kernels_written_once)
{
    char root[64], cache[64], path[1400];
    snprintf(root, sizeof root, "/tmp/mcmsim-counts-XXXXXX");
    snprintf(cache, sizeof cache, "/tmp/mcmsim-stream-XXXXXX");
    cr_assert_not_null(mkdtemp(root));
    cr_assert_not_null(mkdtemp(cache));
    setenv("MCMSIM_CACHE", cache, 1);
    machine code;
    machine_defaults(&code);
    machine_preset_path("h100-code", path, sizeof path);
    cr_assert_eq(machine_load_file(&code, path), 0, "%s", fail_message());

    /* the session: its instructions.csv and one raw page of Nsight Compute;
     * no profiles (validate/stream/profiles.csv is read from the folder
     * make validate runs in: here, the session's root) */
    cr_assert_eq(chdir(root), 0);
    cr_assert_eq(mkdir("validate", 0755) | mkdir("validate/stream", 0755) | mkdir("s", 0755), 0);
    FILE *f = fopen("validate/stream/profiles.csv", "w");
    fputs("source,params,kernel,card_inst_per_warp,profile\n", f);
    fclose(f);
    f = fopen("s/instructions.csv", "w");
    fputs("case,params,ncu_csv\nsum,n=4096;l=256,sum.csv\n", f);
    fclose(f);
    f = fopen("s/sum.csv", "w");
    fputs("\"ID\",\"Kernel Name\",\"launch__block_size\",\"launch__grid_size\",\"smsp__inst_executed.sum\"\n"
          "\"0\",\"add_mcm_global_\",\"256\",\"2\",\"1,000\"\n",
          f);
    fclose(f);
    session s = {0};
    snprintf(s.card, sizeof s.card, "h100");
    snprintf(s.name, sizeof s.name, "test");
    snprintf(s.dir, sizeof s.dir, "%s/s", root);
    const session *cards[1] = {&s};
    int n_sessions[1] = {1};
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    int rc = write_code_costs(out, NULL, NULL, 0, &code, cards, n_sessions, 1);
    fclose(out);
    cr_assert_eq(rc, 0, "%s", fail_message());

    /* ours, counted here: the first kernel's instructions per warp */
    char source[512];
    snprintf(source, sizeof source, "%s/programs/sum/kernels.c", MCMSIM_DATADIR);
    vars params = test_params("n l", 4096.0, 256.0);
    code.l1_words = 0;
    kernel_dag *dag = user_program_build(source, &params, &code);
    cr_assert_not_null(dag, "%s", fail_message());
    double inst = 0, warps = 0;
    for (int k = 0; k < dag->n; k++) {
        if (strcmp(dag->kernels[k].name, "add") != 0)
            continue;
        for (long b = 0; b < dag->kernels[k].blocks; b++)
            inst += kernel_block_cost(&dag->kernels[k], b)->stream_work;
        warps += (double)dag->kernels[k].blocks * ceil(dag->kernels[k].threads / 32.0);
    }
    cr_assert_gt(inst, 0, "the sum's kernels are counted");
    char row[256];
    snprintf(row, sizeof row, "| add | sum n=4096;l=256 | 62.5 (h100 `test`) | %.1f |", inst / warps);
    cr_expect_not_null(strstr(text, row), "no row \"%s\" in:\n%s", row, text);
    kernel_dag_free(dag);
    free(text);
    char rm[200];
    snprintf(rm, sizeof rm, "rm -rf %s %s", root, cache);
    cr_expect_eq(system(rm), 0);
}

/* After a barrier, a block whose chain there has fewer global loads than
 * its root reads' links (STREAM_ROOT_LINKS) takes off only those loads,
 * and adds back at most as many as the deepest root chain's level: the
 * path is never charged more global links than its chain has (review r9,
 * M4; no kernel in the tree meets it).  One block: 3 root reads in a chain
 * of 3 loads before the barrier, a chain of 1 load after it. */
Test(stream, past_a_barrier_a_chain_of_fewer_loads_than_its_root_links_is_charged_its_own)
{
    uint32_t w[1][STREAM_FIELDS] = {{0}};
    w[0][STREAM_INST] = w[0][STREAM_GLOBAL] = 3;
    w[0][STREAM_CHAIN_GLOBAL] = 3;
    w[0][STREAM_ROOT_LINKS] = w[0][STREAM_ROOT_LEVEL] = 3;
    w[0][STREAM_AFTER_GLOBAL] = 1;
    machine m = latency_machine();
    m.read_latency = 250; /* the chains, not the issue, bound the block */
    block_cost one = steps_in(w, 1, 1, &m);
    cr_expect_float_eq(one.stream_reads, 3, 1e-9, "%g", one.stream_reads);
    /* the second step: its one load, not the first step's level of 3 */
    block_cost two = steps_in(w, 1, 2, &m);
    cr_expect_float_eq(two.stream_reads, 3 + 1, 1e-9, "%g", two.stream_reads);
}
