/*
 * test_exec.c — exec mode: kernels run for real, their costs measured,
 * CREW and Z enforced, the synchronous-step semantics kept.
 */
#include "exec.h"
#include "helpers.h"

typedef struct io { gmem x, y; long stride; } io;

static void add_one(exec_thread *t, void *args)
{
    io *a = args;
    long i = t->bid * t->threads + t->tid;
    exec_gwrite(t, a->y, i, exec_zp_add(t, exec_gread(t, a->x, i), 1));
}

static void scattered_read(exec_thread *t, void *args)
{
    io *a = args;
    long i = t->bid * t->threads + t->tid;
    exec_gwrite(t, a->y, i, exec_gread(t, a->x, (i * a->stride) % a->x->size));
}

static const exec_step add_one_steps[] = {add_one};
static const exec_kernel add_one_kernel = {"add_one", 1, add_one_steps, 0};
static const exec_step scattered_steps[] = {scattered_read};
static const exec_kernel scattered_kernel = {"scattered", 1, scattered_steps, 0};

static exec_run *run_with(long n, gmem *x, gmem *y, machine *m)
{
    *m = test_machine(4, 8);
    exec_run *r = exec_begin("test", m);
    *x = exec_alloc(r, "x", n);
    *y = exec_alloc(r, "y", n);
    for (long i = 0; i < n; i++)
        (*x)->cells[i] = (word)(i * 7 + 3) % exec_prime(r);
    return r;
}

Test(exec, coalesced_kernel_computes_and_costs_as_the_model_says)
{
    machine m;
    gmem x, y;
    exec_run *r = run_with(1024, &x, &y, &m);
    io a = {x, y, 1};
    cr_assert_eq(exec_launch(r, &add_one_kernel, 16, 64, &a), 0, "%s", fail_message());
    for (long i = 0; i < 1024; i++)
        cr_assert_eq(y->cells[i], x->cells[i] + 1, "y[%ld]", i);
    const kernel *k = &exec_dag(r)->kernels[0];
    cr_expect_eq(kernel_block_cost(k, 5)->span, 5, "one modular addition: 5 operations");
    cr_expect_eq(kernel_block_cost(k, 5)->work, 64 * 5);
    cr_expect_eq(kernel_block_cost(k, 5)->reads, 1, "one coalesced word per thread");
    cr_expect_eq(kernel_block_cost(k, 5)->writes, 1);
    /* the same kernel declared in model mode simulates to the same T */
    kernel_dag *model = kernel_dag_new("model");
    kernel decl = test_kernel("add_one", 16, 64, 5, 1, 1);
    kernel_dag_add(model, &decl);
    sim_result re = simulate(exec_dag(r), &m), rm = simulate(model, &m);
    cr_expect_eq(re.T, rm.T);
    cr_expect_eq(re.costs.W, rm.costs.W);
    cr_expect_eq(re.costs.O, rm.costs.O);
    int n;
    const exec_kernel_report *rep = exec_reports(r, &n);
    cr_expect_eq(n, 1);
    cr_expect_eq(rep[0].measured_overhead, rep[0].paper_overhead, "fully coalesced: the paper's O(B)");
    sim_result_free(&re);
    sim_result_free(&rm);
    kernel_dag_free(model);
    exec_end(r);
}

Test(exec, scattered_reads_cost_one_transaction_per_thread)
{
    machine m;
    gmem x, y;
    exec_run *r = run_with(4096, &x, &y, &m);
    io a = {x, y, 33}; /* consecutive threads 33 cells apart: one group each */
    cr_assert_eq(exec_launch(r, &scattered_kernel, 64, 64, &a), 0, "%s", fail_message());
    for (long i = 0; i < 4096; i++)
        cr_assert_eq(y->cells[i], x->cells[(i * 33) % 4096]);
    const block_cost *c = kernel_block_cost(&exec_dag(r)->kernels[0], 0);
    cr_expect_eq(c->reads, m.warp, "w groups per warp: w coalesced-word equivalents per thread");
    cr_expect_eq(c->writes, 1);
    int n;
    const exec_kernel_report *rep = exec_reports(r, &n);
    cr_expect_gt(rep[0].measured_overhead, rep[0].paper_overhead);
    exec_end(r);
}

static void everyone_writes_cell_zero(exec_thread *t, void *args)
{
    io *a = args;
    exec_gwrite(t, a->y, 0, (word)t->tid);
}
static const exec_step racy_steps[] = {add_one, everyone_writes_cell_zero};
static const exec_kernel racy_kernel = {"racy", 2, racy_steps, 0};

Test(exec, a_racy_kernel_is_a_crew_conflict)
{
    machine m;
    gmem x, y;
    exec_run *r = run_with(256, &x, &y, &m);
    io a = {x, y, 1};
    cr_assert_eq(exec_launch(r, &racy_kernel, 4, 64, &a), -1);
    const char *msg = fail_message();
    cr_expect(strstr(msg, "kernel 'racy', block 0, step 1: threads 0 and 1 both write y[0]") != NULL, "%s", msg);
    cr_expect(strstr(msg, "CREW") != NULL, "%s", msg);
    exec_end(r);
}

typedef struct shift_args { gmem out; } shift_args;

static void write_own(exec_thread *t, void *args)
{
    (void)args;
    exec_pwrite(t, t->tid, (word)(100 + t->tid));
    /* a read in the same step sees memory as it was before the step */
    cr_expect_eq(exec_pread(t, t->tid), 0);
}

static void read_neighbour(exec_thread *t, void *args)
{
    shift_args *a = args;
    word v = exec_pread(t, (t->tid + 1) % t->threads);
    exec_gwrite(t, a->out, t->bid * t->threads + t->tid, v);
}

static const exec_step shift_steps[] = {write_own, read_neighbour};
static const exec_kernel shift_kernel = {"shift", 2, shift_steps, 64};

Test(exec, steps_are_synchronous)
{
    machine m = test_machine(2, 4);
    exec_run *r = exec_begin("shift", &m);
    shift_args a = {exec_alloc(r, "out", 128)};
    cr_assert_eq(exec_launch(r, &shift_kernel, 2, 64, &a), 0, "%s", fail_message());
    for (long i = 0; i < 128; i++)
        cr_expect_eq(a.out->cells[i], 100 + (i % 64 + 1) % 64, "out[%ld]", i);
    const block_cost *c = kernel_block_cost(&exec_dag(r)->kernels[0], 1);
    cr_expect_eq(c->span, 3, "a private access is a local operation: 2 in step 0, 1 in step 1");
    exec_end(r);
}

static const exec_kernel too_big = {"too_big", 2, shift_steps, 100000};
static const exec_kernel too_small = {"too_small", 2, shift_steps, 32};

Test(exec, private_memory_beyond_z_or_the_declaration_is_refused)
{
    machine m = test_machine(2, 4);
    exec_run *r = exec_begin("z", &m);
    shift_args a = {exec_alloc(r, "out", 128)};
    cr_expect_eq(exec_launch(r, &too_big, 2, 64, &a), -1);
    cr_expect(strstr(fail_message(), "kernel 'too_big': declares 100000 words of private memory, but Z = 12288") != NULL,
              "%s", fail_message());
    cr_expect_eq(exec_launch(r, &too_small, 2, 64, &a), -1);
    cr_expect(strstr(fail_message(), "kernel 'too_small', block 0, step 0, thread 32: private memory: writes word 32, "
                                     "outside the kernel's 32 words") != NULL, "%s", fail_message());
    exec_end(r);
}

static void same_bank(exec_thread *t, void *args)
{
    (void)args;
    exec_pwrite(t, (long)t->tid * 32, 1); /* stride w = 32: every request in bank 0 */
}
static const exec_step bank_steps[] = {same_bank};
static const exec_kernel bank_kernel = {"banks", 1, bank_steps, 32 * 64};

Test(exec, private_bank_conflicts_by_the_dmm_rule)
{
    machine m = test_machine(2, 4);
    exec_run *r = exec_begin("banks", &m);
    cr_assert_eq(exec_launch(r, &bank_kernel, 1, 64, NULL), 0, "%s", fail_message());
    int n;
    const exec_kernel_report *rep = exec_reports(r, &n);
    cr_expect_eq(rep[0].bank_conflicts, 2 * 31, "two warps, each 32 requests in one bank");
    exec_end(r);
}

/* Private rounds graded by the DMM rule (words a stride apart, uneven
 * gaps, words going down), alike with and without the race check: thread
 * tid writes words tid + j·threads (step 0, no conflict), then reads one
 * word of each pattern below (step 1). */
#define BANK_WORDS 1024
#define BANK_PATTERNS 10
static long bank_word(int pattern, int tid)
{
    switch (pattern) {
    case 0: return 7;                           /* one word */
    case 1: return tid;                         /* stride 1 */
    case 2: return 3L * tid;                    /* stride 3 */
    case 3: return 4L * tid;                    /* stride 4 */
    case 4: return 12L * tid;                   /* stride 12 */
    case 5: return 5L * (tid / 2);              /* each word twice, stride 5 */
    case 6: return tid + (tid / 4) * 28L;       /* uneven gaps */
    case 7: return (long)tid * tid / 8;         /* uneven, repeated */
    case 8: return BANK_WORDS - 1 - 4L * tid;   /* going down */
    default: return tid < 5 ? 32L * tid : 200 + tid; /* even for five lanes, then not */
    }
}

static void bank_fill(exec_thread *t, void *args)
{
    (void)args;
    for (long i = t->tid; i < BANK_WORDS; i += t->threads)
        exec_pwrite(t, i, 1);
}

static void bank_patterns(exec_thread *t, void *args)
{
    (void)args;
    for (int pattern = 0; pattern < BANK_PATTERNS; pattern++)
        exec_pread(t, bank_word(pattern, t->tid));
}

static const exec_step bank_pattern_steps[] = {bank_fill, bank_patterns};

/* Σ over warps and patterns of (the most distinct words in one bank − 1). */
static double bank_conflicts_counted(int threads, int w)
{
    double extra = 0;
    for (int first = 0; first < threads; first += w)
        for (int pattern = 0; pattern < BANK_PATTERNS; pattern++) {
            int most = 0;
            for (int bank = 0; bank < w; bank++) {
                int in_bank = 0;
                for (long key = bank; key < BANK_WORDS; key += w)
                    for (int tid = first; tid < first + w && tid < threads; tid++)
                        if (bank_word(pattern, tid) == key) {
                            in_bank++;
                            break;
                        }
                most = in_bank > most ? in_bank : most;
            }
            extra += most - 1;
        }
    return extra;
}

Test(exec, private_rounds_graded_by_the_dmm_rule_on_every_pattern)
{
    const int warps[] = {32, 24};
    for (int race_free = 0; race_free <= 1; race_free++)
        for (int v = 0; v < 2; v++) {
            machine m = test_machine(2, 4);
            m.warp = warps[v];
            int threads = 2 * m.warp + 8;
            exec_run *r = exec_begin("banks", &m);
            exec_set_race_free(r, race_free);
            exec_kernel k = {"bank_patterns", 2, bank_pattern_steps, BANK_WORDS};
            cr_assert_eq(exec_launch(r, &k, 1, threads, NULL), 0, "%s", fail_message());
            int n;
            const exec_kernel_report *rep = exec_reports(r, &n);
            cr_expect_eq(rep[0].bank_conflicts, bank_conflicts_counted(threads, m.warp), "w = %d, race-free %d: %g",
                         m.warp, race_free, rep[0].bank_conflicts);
            exec_end(r);
        }
}

/* Block bid of `blocks` (the other way round where `reverse`) reads
 * y[row·FAR_APART + ROW_START + 100] and writes 64 cells from
 * row·FAR_APART + ROW_START: rows far apart, so that a launch's touches
 * lie in a few of the many chunks of 4096 cells between its least and its
 * greatest cell; rows 0 to 2 cross a chunk's end (4056, 4073, 4090 + 64),
 * the others lie inside one. */
#define FAR_APART (3 * 4096 + 17)
#define ROW_START (4096 - 40)
typedef struct far_args { gmem y; int reverse, blocks; } far_args;

static void far_rows(exec_thread *t, void *args)
{
    far_args *a = args;
    long at = (long)(a->reverse ? a->blocks - 1 - t->bid : t->bid) * FAR_APART + ROW_START;
    exec_gwrite(t, a->y, at + t->tid, exec_zp_add(t, exec_gread(t, a->y, at + 100), (word)t->tid));
}

static const exec_step far_steps[] = {far_rows};

Test(exec, the_shadows_a_launch_touched_are_all_cleared_when_it_ends)
{
    for (int threads = 1; threads <= 4; threads += 3) {
        machine m = test_machine(4, 8);
        exec_run *r = exec_begin("test", &m);
        exec_set_race_free(r, 1);
        exec_set_threads(r, threads);
        const int blocks = 8;
        gmem y = exec_alloc(r, "y", blocks * FAR_APART + ROW_START + 100);
        exec_kernel k = {"far", 1, far_steps, 0};
        /* the second launch's blocks touch the cells other blocks touched in the first: a race if a
         * shadow were left */
        for (int reverse = 0; reverse <= 1; reverse++) {
            far_args a = {y, reverse, blocks};
            cr_assert_eq(exec_launch(r, &k, blocks, 64, &a), 0, "threads %d, launch %d: %s", threads, reverse,
                         fail_message());
            for (long i = 0; i < y->size; i++)
                cr_assert_eq(y->shadows[i], 0, "threads %d, launch %d: cell %ld's shadow left", threads, reverse, i);
        }
        exec_end(r);
    }
}

/* Thread tid keeps 1, 20, 39 or 58 words (tid mod 4) in private memory,
 * then reads them back and writes their sum: more accesses in a step
 * than the fast path's first rounds hold (exec.c, "accesses"), so the
 * checked path takes the later ones. */
#define KEPT_MOST 58
static long kept(int tid) { return 1 + (tid % 4) * 19; }

static void keep_words(exec_thread *t, void *args)
{
    (void)args;
    for (long k = 0; k < kept(t->tid); k++)
        exec_pwrite(t, t->tid * KEPT_MOST + k, (word)(k + 1));
}

static void sum_kept(exec_thread *t, void *args)
{
    io *a = args;
    word sum = 0;
    for (long k = 0; k < kept(t->tid); k++)
        sum += exec_pread(t, t->tid * KEPT_MOST + k);
    exec_gwrite(t, a->y, t->bid * t->threads + t->tid, sum);
}

static const exec_step kept_steps[] = {keep_words, sum_kept};

Test(exec, private_accesses_are_counted_alike_on_the_fast_and_the_checked_paths)
{
    for (int race_free = 0; race_free <= 1; race_free++) {
        machine m = test_machine(4, 8);
        exec_run *r = exec_begin("test", &m);
        exec_set_race_free(r, race_free);
        gmem y = exec_alloc(r, "y", 4 * 64);
        exec_kernel k = {"kept", 2, kept_steps, 64 * KEPT_MOST};
        io a = {NULL, y, 1};
        cr_assert_eq(exec_launch(r, &k, 4, 64, &a), 0, "%s", fail_message());
        for (long i = 0; i < 4 * 64; i++)
            cr_assert_eq(y->cells[i], (word)(kept((int)(i % 64)) * (kept((int)(i % 64)) + 1) / 2), "y[%ld]", i);
        /* each kept word written once and read once: 2 private accesses */
        double work = 0;
        for (int tid = 0; tid < 64; tid++)
            work += 2 * kept(tid);
        const block_cost *c = kernel_block_cost(&exec_dag(r)->kernels[0], 3);
        cr_expect_eq(c->span_ops[OP_PRIVATE], 2 * KEPT_MOST, "race-free %d: the longest thread's", race_free);
        cr_expect_eq(c->work_ops[OP_PRIVATE], work, "race-free %d: every thread's", race_free);
        cr_expect_eq(c->span, 2 * KEPT_MOST, "race-free %d: a private access is one operation", race_free);
        exec_end(r);
    }
}

/* ---- a thread's operations summed alike in integers and in doubles ----------- */

#define OPS_MOST_TID 5 /* the thread with the most operations */

/* Thread tid: tid + 1 products, 2 sums, exec_ops of 3·tid (2^50 more in
 * thread OPS_MOST_TID where `huge`), a private word written and read. */
static void mixed_ops(exec_thread *t, void *args)
{
    const int *huge = args;
    word x = 3;
    for (int k = 0; k <= t->tid; k++)
        x = exec_zp_mul(t, x, 5);
    x = exec_zp_sub(t, exec_zp_add(t, x, 1), 1);
    exec_ops(t, 3L * t->tid + (*huge && t->tid == OPS_MOST_TID ? 1L << 50 : 0));
    exec_pwrite(t, t->tid, x);
}

static void read_back(exec_thread *t, void *args)
{
    (void)args;
    exec_pread(t, t->tid);
}

static const exec_step mixed_steps[] = {mixed_ops, read_back};

/* S(B) and W(B) as each thread's operations say: add·2 + mul·(tid + 1) +
 * 3·tid (+ 2^50) + 2 private accesses, whether the block sums them in
 * integers (whole costs below 2^19, fewer than 2^50 exec_ops) or in
 * doubles (costs not whole, or 2^19 and more, or 2^50 exec_ops). */
Test(exec, a_blocks_operations_are_the_same_sum_in_integers_and_in_doubles)
{
    const double costs[][2] = {{5, 11}, {1 << 20, 1 << 21}, {5.25, 11.5}, {0, 0}};
    for (size_t c = 0; c < sizeof costs / sizeof *costs; c++)
        for (int huge = 0; huge <= 1; huge++) {
            machine m = test_machine(4, 8);
            exec_run *r = exec_begin("ops", &m);
            exec_set_race_free(r, 1);
            exec_set_costs(r, costs[c][0], costs[c][1]);
            exec_kernel k = {"ops", 2, mixed_steps, 32};
            cr_assert_eq(exec_launch(r, &k, 1, 32, &huge), 0, "%s", fail_message());
            double span = 0, work = 0;
            for (int tid = 0; tid < 32; tid++) {
                double ops = costs[c][0] * 2 + costs[c][1] * (tid + 1) + 3.0 * tid + 2 +
                             (huge && tid == OPS_MOST_TID ? 0x1p50 : 0);
                span = ops > span ? ops : span;
                work += ops;
            }
            const block_cost *b = kernel_block_cost(&exec_dag(r)->kernels[0], 0);
            cr_expect_eq(b->span, span, "costs %g, %g, huge %d: S(B) %.17g, expected %.17g", costs[c][0],
                         costs[c][1], huge, b->span, span);
            cr_expect_eq(b->work, work, "costs %g, %g, huge %d: W(B) %.17g, expected %.17g", costs[c][0],
                         costs[c][1], huge, b->work, work);
            exec_end(r);
        }
}

/* ---- a word of memory is 32 bits ------------------------------------------- */

typedef struct widest_args { gmem g; word value; int private_word; } widest_args;

/* Thread 3 stores `value` in g[3], or in private word 3 and then g[3]. */
static void store_widest(exec_thread *t, void *args)
{
    widest_args *a = args;
    if (t->tid != 3)
        return;
    if (a->private_word)
        exec_pwrite(t, 3, a->value);
    else
        exec_gwrite(t, a->g, 3, a->value);
}

static void copy_private(exec_thread *t, void *args)
{
    widest_args *a = args;
    if (t->tid == 3 && a->private_word)
        exec_gwrite(t, a->g, 3, exec_pread(t, 3));
}

static const exec_step widest_steps[] = {store_widest, copy_private};

/* The launch of store_widest on a fresh run; its status, the message in `error`. */
static int store(int race_free, int private_word, word value, word *stored, char *error, size_t size)
{
    machine m = test_machine(4, 8);
    exec_run *r = exec_begin("wide", &m);
    exec_set_race_free(r, race_free);
    gmem g = exec_alloc(r, "g", 8);
    exec_kernel k = {"wide", 2, widest_steps, 8};
    widest_args a = {g, value, private_word};
    int rc = exec_launch(r, &k, 1, 8, &a);
    snprintf(error, size, "%s", rc < 0 ? fail_message() : "");
    *stored = g->cells[3];
    exec_end(r);
    return rc;
}

Test(exec, a_word_of_memory_holds_32_bits_in_every_run_and_a_wider_value_is_refused)
{
    for (int race_free = 0; race_free <= 1; race_free++)
        for (int private_word = 0; private_word <= 1; private_word++) {
            char error[1024];
            word stored;
            cr_expect_eq(store(race_free, private_word, UINT32_MAX, &stored, error, sizeof error), 0,
                         "race-free %d, private %d: %s", race_free, private_word, error);
            cr_expect_eq(stored, UINT32_MAX, "the largest word, kept whole");
            cr_expect_lt(store(race_free, private_word, (word)UINT32_MAX + 1, &stored, error, sizeof error), 0);
            const char *place = private_word ? "writes 4294967296 to private[3]" : "writes 4294967296 to g[3]";
            cr_expect(strstr(error, place) && strstr(error, "block 0, step 0, thread 3") &&
                          strstr(error, "a word of memory is 32 bits"),
                      "race-free %d, private %d: %s", race_free, private_word, error);
            cr_expect_eq(stored, 0, "nothing stored (not its low 32 bits)");
        }
}

/* ---- a warp's notes kept when their room grows ------------------------------- */

/* A warp of 32 lanes in pairs: pair p's two lanes read words 0 and 1 of
 * group perm(p) + 1 (groups of 32 words), perm(p) = 5p mod 16 (the pairs'
 * groups go up and down: each round graded from its notes, sorted), in
 * rounds of their own groups (round k at k · 32 · 32 words on).  Even
 * lanes make 3 rounds, odd lanes MANY_ROUNDS: more than the notes have
 * room for at first (exec.c, grow_rounds), so their room grows while lane
 * 1 runs, after lane 0 has noted its rounds. */
#define MANY_ROUNDS 40
#define GROUP_WORDS 32L

static long rounds_of_lane(int tid) { return tid % 2 ? MANY_ROUNDS : 3; }

static long cell_of(int tid, long k)
{
    long pair_group = (tid / 2) * 5 % 16 + 1;
    return k * GROUP_WORDS * GROUP_WORDS + pair_group * GROUP_WORDS + tid % 2;
}

static void read_many_rounds(exec_thread *t, void *args)
{
    io *a = args;
    word sum = 0;
    for (long k = 0; k < rounds_of_lane(t->tid); k++)
        sum = exec_zp_add(t, sum, exec_gread(t, a->x, cell_of(t->tid, k)));
    exec_gwrite(t, a->y, t->tid, sum);
}

static const exec_step many_rounds_steps[] = {read_many_rounds};

Test(exec, a_warps_notes_stay_in_their_rounds_when_their_room_grows)
{
    /* rounds 0 .. 2: all 32 lanes, 16 pairs, 16 groups; rounds 3 .. 39:
     * the 16 odd lanes, 16 groups.  A note of lane 0 lost or moved by the
     * growth would be another round's cell (or none): a 17th group. */
    for (int race_free = 0; race_free <= 1; race_free++) {
        machine m = test_machine(4, 8);
        exec_run *r = exec_begin("test", &m);
        exec_set_race_free(r, race_free);
        gmem x = exec_alloc(r, "x", MANY_ROUNDS * GROUP_WORDS * GROUP_WORDS);
        gmem y = exec_alloc(r, "y", 32);
        for (long i = 0; i < x->size; i++)
            x->cells[i] = (word)(i % 1000);
        exec_kernel k = {"many_rounds", 1, many_rounds_steps, 0};
        io a = {x, y, 1};
        cr_assert_eq(exec_launch(r, &k, 1, 32, &a), 0, "%s", fail_message());
        for (int tid = 0; tid < 32; tid++) {
            word sum = 0;
            for (long j = 0; j < rounds_of_lane(tid); j++)
                sum = (sum + x->cells[cell_of(tid, j)]) % exec_prime(r);
            cr_assert_eq(y->cells[tid], sum, "lane %d's sum", tid);
        }
        const block_cost *c = kernel_block_cost(&exec_dag(r)->kernels[0], 0);
        cr_expect_eq(c->reads, MANY_ROUNDS * 16, "race-free %d: 16 groups a round", race_free);
        cr_expect_eq(c->writes, 1);
        exec_end(r);
    }
}

/* ---- a thread's private keys kept when their room grows ---------------------- */

/* The private twin of the test above: in round k pair p's two lanes write
 * words 64 · (2·perm(p) + 1 + lane % 2) + k (perm(p) = 5p mod 16): every
 * round's words lie in one bank (k mod 32), going up and down (graded
 * from its keys: fullest_bank), and no two lanes write one word.
 * Even lanes make 3 rounds, odd lanes MANY_ROUNDS, so that the keys'
 * room grows while lane 1 runs, after lane 0 has noted its rounds
 * (exec.c, grow_rounds: each lane's row moves). */
static long private_word_of(int tid, long k) { return 64 * (2 * ((tid / 2) * 5 % 16) + 1 + tid % 2) + k; }

static void write_many_rounds(exec_thread *t, void *args)
{
    (void)args;
    for (long k = 0; k < rounds_of_lane(t->tid); k++)
        exec_pwrite(t, private_word_of(t->tid, k), (word)k);
}

static const exec_step private_rounds_steps[] = {write_many_rounds};

Test(exec, a_threads_private_keys_stay_in_their_rounds_when_their_room_grows)
{
    /* rounds 0 .. 2: 32 distinct words in one bank (31 conflicts each);
     * rounds 3 .. 39: the odd lanes' 16 (15 each).  A key of lane 0 lost
     * or moved by the growth would leave 31 words or fewer in a bank of
     * rounds 0 .. 2. */
    for (int race_free = 0; race_free <= 1; race_free++) {
        machine m = test_machine(4, 8);
        exec_run *r = exec_begin("test", &m);
        exec_set_race_free(r, race_free);
        exec_kernel k = {"private_rounds", 1, private_rounds_steps, 64 * 33};
        cr_assert_eq(exec_launch(r, &k, 1, 32, NULL), 0, "%s", fail_message());
        int n;
        const exec_kernel_report *rep = exec_reports(r, &n);
        cr_expect_eq(rep[0].bank_conflicts, 3 * 31 + (MANY_ROUNDS - 3) * 15, "race-free %d: %g", race_free,
                     rep[0].bank_conflicts);
        exec_end(r);
    }
}
