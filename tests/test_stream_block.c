/*
 * test_stream_block.c — the two copies of mcm_stream_block agree: the C
 * function (sim/exec/stream.c, which the other tests drive by hand) and
 * the IR that stream_annotate writes into every counted object
 * (sim/exec/stream_ir.c, write_counter), compiled here by clang as a
 * counted build's is and called through an exported wrapper.  Both are
 * fed the same script of threads, blocks and reads, each on its own
 * counter; after every step the fields either copy reads or changes (at
 * stream.h's STREAM_AT_* and STREAM_PASS_* offsets) are compared, word by
 * word, and at the block's end its costs.  The script has a block passed
 * once, a loop's back edge, blocks only some lanes reach, a block first
 * passed after a block numbered after it (no back edge), ids past the
 * table, calls with no counter running, and reads whose sites name the
 * pass (stream_read_site, whose count of reads mcm_stream_block restarts).
 */
#include "helpers.h"
#include "stream.h"

#include <criterion/criterion.h>
#include <dlfcn.h>
#include <stdint.h>
#include <sys/wait.h>

/* A counted object's IR, as clang writes it, of one function of one
 * block, with a function that passes the block its argument names. */
static const char *const one_block_ir = "define void @f() {\n  call void @__sanitizer_cov_trace_pc()\n  ret void\n}\n"
                                        "declare void @__sanitizer_cov_trace_pc()\n";
static const char *const wrapper_ir =
    "\ndefine void @test_ir_stream_block(i32 %id) {\n  call void @mcm_stream_block(i32 %id)\n  ret void\n}\n";

typedef void block_fn(uint32_t id);

static char folder[64];
static void *object;

/* The IR copy, annotated, compiled (clang -O2 -fPIC -shared, as
 * user_program.c links a counted build) and opened. */
static block_fn *ir_copy(void)
{
    snprintf(folder, sizeof folder, "/tmp/mcmsim-stream-block-XXXXXX");
    cr_assert_not_null(mkdtemp(folder));
    char ll[128], so[128];
    snprintf(ll, sizeof ll, "%s/block.ll", folder);
    snprintf(so, sizeof so, "%s/block.so", folder);
    FILE *in = fmemopen((void *)one_block_ir, strlen(one_block_ir), "r"), *out = fopen(ll, "w");
    cr_assert(in && out);
    cr_assert_eq(stream_annotate(in, "block.ll", out), 0, "%s", fail_message());
    fputs(wrapper_ir, out);
    fclose(in);
    cr_assert_eq(fclose(out), 0);
    const char *env = getenv("MCMSIM_CLANG");
    pid_t pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        execlp(env && *env ? env : "clang", "clang", "-Wno-override-module", "-O2", "-fPIC", "-shared", "-o", so, ll,
               (char *)NULL);
        _exit(127);
    }
    int status;
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "clang failed on %s", ll);
    object = dlopen(so, RTLD_NOW | RTLD_LOCAL);
    cr_assert_not_null(object, "%s", dlerror());
    block_fn *f = (block_fn *)dlsym(object, "test_ir_stream_block");
    cr_assert_not_null(f, "%s", dlerror());
    unlink(ll);
    unlink(so);
    rmdir(folder);
    return f;
}

/* A field of counter c at byte offset `at`. */
static uint32_t word_at(const stream_counter *c, int at)
{
    uint32_t v;
    memcpy(&v, (const char *)c + at, sizeof v);
    return v;
}

static const void *pointer_at(const stream_counter *c, int at)
{
    const void *p;
    memcpy(&p, (const char *)c + at, sizeof p);
    return p;
}

/* The two counters agree on all that mcm_stream_block reads or changes. */
static void expect_same(const stream_counter *a, const stream_counter *b, int step)
{
    static const int words[] = {STREAM_AT_BLOCKS, STREAM_AT_THREAD, STREAM_AT_LAST, STREAM_AT_READS_IN_PASS,
                                STREAM_AT_N_TOUCHED};
    for (size_t i = 0; i < sizeof words / sizeof *words; i++)
        cr_expect_eq(word_at(a, words[i]), word_at(b, words[i]), "step %d: the counter's word at %d: C %u, IR %u",
                     step, words[i], word_at(a, words[i]), word_at(b, words[i]));
    uint32_t blocks = word_at(a, STREAM_AT_BLOCKS), touched = word_at(a, STREAM_AT_N_TOUCHED);
    const uint32_t *pa = pointer_at(a, STREAM_AT_PASSES), *pb = pointer_at(b, STREAM_AT_PASSES);
    for (uint32_t k = 0; k < (blocks + 1) * STREAM_PASS_WORDS; k++)
        cr_expect_eq(pa[k], pb[k], "step %d: block %u's passes, word %u: C %u, IR %u", step, k / STREAM_PASS_WORDS,
                     k % STREAM_PASS_WORDS, pa[k], pb[k]);
    const int *ta = pointer_at(a, STREAM_AT_TOUCHED), *tb = pointer_at(b, STREAM_AT_TOUCHED);
    for (uint32_t i = 0; i < touched && i <= blocks; i++)
        cr_expect_eq(ta[i], tb[i], "step %d: the warp's %u-th block: C %d, IR %d", step, i, ta[i], tb[i]);
}

/* The script: THREAD the warp's next thread runs, BLOCK(id) it passes a
 * block, READ it reads (its site compared), WARP the warp ends, OFF a
 * block passed with no counter running. */
enum { THREAD = -1, READ = -2, WARP = -3, OFF = -4 };
#define BLOCKS 4
static const int64_t script[] = {
    THREAD, READ, 0, READ, 1, READ, READ, 2, 1, READ, 2, 3, /* lane 1: the loop 1-2 twice, one back edge */
    THREAD, 0, 3, READ,                                     /* lane 2: past the loop (1, 2 some lanes only) */
    THREAD, 0, 1, 2, 1, 2, 1, 2, 3,                         /* lane 3: three passes, the warp's most grows */
    THREAD, BLOCKS, 1000, UINT32_MAX, 0, 2,                 /* lane 4: ids past the table; 2 without 1 */
    WARP, OFF, 2,                                           /* between warps: no counter runs */
    THREAD, 3, 0, READ, 0, 0, 1,                            /* warp 2: 0 first after 3 (no back edge); 0 from 0 */
    THREAD, 2, 1, 1, READ, 3, 0,                            /* 1 from itself, a back edge; 0 first after 3 */
    WARP,
};

Test(stream_block, the_counted_objects_copy_counts_as_the_c_function_does)
{
    block_fn *ir = ir_copy();
    uint32_t w[BLOCKS][STREAM_FIELDS] = {{0}};
    for (int b = 0; b < BLOCKS; b++) {
        w[b][STREAM_INST] = 3 + 4 * (uint32_t)b;
        w[b][STREAM_CHAIN_PLAIN] = 1 + (uint32_t)b;
        w[b][STREAM_READS] = 1;
    }
    const uint32_t chain_reads[BLOCKS] = {1, 2, 0, 3};
    stream_table table = {BLOCKS, (const uint32_t(*)[STREAM_FIELDS])w, chain_reads, NULL};
    machine m = test_machine(4, 1);
    m.issue_rate = 4;
    m.cycles_issue = 5;
    m.cycles_branch = 13;
    stream_counter *by_c = stream_counter_new(&table, 32, 64, 1, &m);
    stream_counter *by_ir = stream_counter_new(&table, 32, 64, 1, &m);
    uint64_t sites_c[64], sites_ir[64];
    /* each step on the C copy's counter, then the IR's, and the two compared */
    stream_counter *states[2] = {by_c, by_ir};
    block_fn *fns[2] = {mcm_stream_block, ir};
    uint64_t *sites[2] = {sites_c, sites_ir};
    int n[2] = {0, 0};
    for (size_t i = 0; i < sizeof script / sizeof *script; i++) {
        int64_t op = script[i];
        int64_t id = op == OFF ? script[++i] : op;
        for (int s = 0; s < 2; s++) {
            mcm_stream_running = op == OFF || op == THREAD ? NULL : states[s];
            if (op == THREAD) /* each counter its next lane */
                stream_thread(states[s]);
            else if (op == WARP)
                stream_warp_end(states[s]);
            else if (op == READ)
                sites[s][n[s]++] = stream_read_site();
            else
                fns[s]((uint32_t)id);
        }
        mcm_stream_running = NULL;
        expect_same(by_c, by_ir, (int)i);
    }
    int n_c = n[0], n_ir = n[1];
    cr_expect_eq(n_c, n_ir);
    for (int k = 0; k < n_c; k++)
        cr_expect_eq(sites_c[k], sites_ir[k], "read %d: site C %#llx, IR %#llx", k, (unsigned long long)sites_c[k],
                     (unsigned long long)sites_ir[k]);
    /* the sites name passes: lane 1's first read in block 1's second pass
     * (the block field its id plus one, pass 2, read 0: not a link, bit 0
     * of block 1's chain_reads being 0) */
    cr_expect_eq(sites_c[4], (uint64_t)2 << STREAM_SITE_BLOCK_SHIFT | (uint64_t)2 << STREAM_SITE_PASS_SHIFT |
                                 (uint64_t)0 << STREAM_SITE_READ_SHIFT | 0);
    stream_step_end(by_c);
    stream_step_end(by_ir);
    block_cost cost_c, cost_ir;
    memset(&cost_c, 0, sizeof cost_c);
    memset(&cost_ir, 0, sizeof cost_ir);
    stream_block_end(by_c, 64, &cost_c);
    stream_block_end(by_ir, 64, &cost_ir);
    cr_expect_gt(cost_c.stream_branches, 0, "the script takes back edges");
    cr_expect_eq(cost_c.stream_work, cost_ir.stream_work);
    cr_expect_eq(cost_c.stream_branches, cost_ir.stream_branches);
    for (int k = 0; k < OP_CLASSES; k++)
        cr_expect_eq(cost_c.stream_span[k], cost_ir.stream_span[k], "span of class %d", k);
    cr_expect_eq(cost_c.stream_issued, cost_ir.stream_issued);
    cr_expect_eq(cost_c.stream_reads, cost_ir.stream_reads);
    cr_expect(memcmp(&cost_c, &cost_ir, sizeof cost_c) == 0, "the block's costs, byte for byte");
    stream_counter_free(by_c);
    stream_counter_free(by_ir);
    dlclose(object);
}
