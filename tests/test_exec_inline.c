/*
 * test_exec_inline.c — a kernel compiled with the accesses' fast paths
 * inline (sim/exec/exec_block.h, MCM_EXEC_INLINE: how mcmsim builds a
 * kernel for exec mode) measures what it measures calling exec.h's
 * functions: the names map to the right fast paths, and the fast paths,
 * compiled into the kernel's own code, keep the worker's state as exec.c
 * does.  The same kernel is written out twice below, once inline and once
 * with the calls, and the pair is run on the same inputs: every output
 * word, every block's costs, the report and any error message are the
 * same, in both kinds of run (race-free or not), on one thread or two,
 * and with the caches.
 */
#define MCM_EXEC_INLINE
#include "exec_block.h"
#include "helpers.h"

#include <string.h>

typedef struct mixed_args {
    gmem x, y;
    long stride;
    long private_index; /* a private word the last step reads (outside: an error) */
} mixed_args;

/* The kernels, written once: a gather at a stride, a private round per
 * kept word (more rounds than the fast path's first room), Z/pZ
 * arithmetic, a private word read back by another thread in the next
 * step, and a write where every block writes its own cells. */
#define MIXED_KERNEL(suffix)                                                                  \
    static void load_##suffix(exec_thread *t, void *args)                                    \
    {                                                                                         \
        mixed_args *a = args;                                                                 \
        long i = t->bid * t->threads + t->tid;                                                \
        word v = exec_gread(t, a->x, (i * a->stride) % a->x->size);                           \
        for (long k = 0; k <= t->tid % 5 * 9; k++)                                            \
            exec_pwrite(t, t->tid * 40 + k, exec_zp_add(t, v, (word)k));                      \
    }                                                                                         \
    static void combine_##suffix(exec_thread *t, void *args)                                 \
    {                                                                                         \
        mixed_args *a = args;                                                                 \
        word sum = 0;                                                                         \
        for (long k = 0; k <= t->tid % 5 * 9; k++)                                            \
            sum = exec_zp_add(t, sum, exec_zp_mul(t, exec_pread(t, t->tid * 40 + k), 3));     \
        word other = exec_pread(t, ((t->tid + 1) % t->threads) * 40);                         \
        sum = exec_zp_sub(t, sum, other);                                                     \
        exec_pwrite(t, t->threads * 40 + t->tid, sum);                                        \
        (void)a;                                                                              \
    }                                                                                         \
    static void store_##suffix(exec_thread *t, void *args)                                   \
    {                                                                                         \
        mixed_args *a = args;                                                                 \
        long i = t->bid * t->threads + t->tid;                                                \
        word v = exec_pread(t, t->threads * 40 + t->tid);                                     \
        if (t->tid == 3)                                                                      \
            v = exec_zp_add(t, v, exec_pread(t, a->private_index));                           \
        exec_gwrite(t, a->y, i, v);                                                           \
    }                                                                                         \
    static const exec_step mixed_steps_##suffix[] = {load_##suffix, combine_##suffix, store_##suffix}

MIXED_KERNEL(inline);
#undef exec_gread
#undef exec_gwrite
#undef exec_pread
#undef exec_pwrite
#undef exec_zp_add
#undef exec_zp_sub
#undef exec_zp_mul
MIXED_KERNEL(called);

enum { THREADS = 64, BLOCKS = 24, N = THREADS * BLOCKS, PRIVATE = THREADS * 41 };

typedef struct outcome {
    exec_run *run;
    int rc;
    char error[1024];
    gmem y;
} outcome;

/* The kernel of `steps` on machine m, its private read at `private_index`
 * (the run is the caller's to end). */
static void run_mixed(const exec_step *steps, const machine *m, int race_free, int threads, long private_index,
                      outcome *out)
{
    exec_run *r = out->run = exec_begin("mixed", m);
    exec_set_race_free(r, race_free);
    exec_set_threads(r, threads);
    gmem x = exec_alloc(r, "x", N);
    out->y = exec_alloc(r, "y", N);
    for (long i = 0; i < N; i++)
        x->cells[i] = (word)(i * 7919 + 3) % exec_prime(r);
    exec_kernel k = {"mixed", 3, steps, PRIVATE};
    mixed_args a = {x, out->y, 33, private_index};
    out->rc = exec_launch(r, &k, BLOCKS, THREADS, &a);
    snprintf(out->error, sizeof out->error, "%s", out->rc < 0 ? fail_message() : "");
}

/* The two builds of the kernel give the same bytes; the launch's result. */
static int expect_alike(const machine *m, int race_free, int threads, long private_index)
{
    outcome inl, called;
    run_mixed(mixed_steps_inline, m, race_free, threads, private_index, &inl);
    run_mixed(mixed_steps_called, m, race_free, threads, private_index, &called);
    cr_expect_eq(inl.rc, called.rc, "race-free %d, %d threads", race_free, threads);
    cr_expect_str_eq(inl.error, called.error);
    cr_expect(memcmp(inl.y->cells, called.y->cells, sizeof *inl.y->cells * N) == 0, "the outputs");
    const kernel_dag *a = exec_dag(inl.run), *b = exec_dag(called.run);
    cr_assert_eq(a->n, b->n);
    if (a->n == 1) {
        for (long bid = 0; bid < BLOCKS; bid++)
            cr_expect(memcmp(kernel_block_cost(&a->kernels[0], bid), kernel_block_cost(&b->kernels[0], bid),
                             sizeof(block_cost)) == 0,
                      "block %ld's costs (race-free %d, %d threads)", bid, race_free, threads);
        int n;
        cr_expect(memcmp(exec_reports(inl.run, &n), exec_reports(called.run, &n), sizeof(exec_kernel_report)) == 0,
                  "the reports");
    }
    exec_end(inl.run);
    exec_end(called.run);
    return inl.rc;
}

Test(exec_inline, a_kernel_with_its_accesses_inline_measures_what_the_calls_measure)
{
    machine m = test_machine(4, 8);
    for (int race_free = 0; race_free <= 1; race_free++)
        for (int threads = 1; threads <= 2; threads++)
            cr_expect_eq(expect_alike(&m, race_free, threads, 3 * 40), 0, "%s", fail_message());
}

Test(exec_inline, with_the_caches_too)
{
    machine m = test_cache_machine(4, 8, 256, 4096);
    cr_expect_eq(expect_alike(&m, 1, 1, 3 * 40), 0, "%s", fail_message());
}

Test(exec_inline, a_broken_rule_stops_both_with_one_message)
{
    machine m = test_machine(4, 8);
    for (int race_free = 0; race_free <= 1; race_free++) {
        cr_expect_eq(expect_alike(&m, race_free, 1, PRIVATE + 5), -1); /* outside the kernel's private memory */
        if (race_free)
            cr_expect_eq(expect_alike(&m, race_free, 1, 37), -1); /* never written: undefined on the card */
    }
}
