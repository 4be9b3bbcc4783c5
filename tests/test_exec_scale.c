/*
 * test_exec_scale.c — exec mode at the papers' sizes (issue 28): a launch
 * on several threads measures the same bytes as on one, the command's
 * output is the same whatever --jobs, a race between blocks is named
 * alike, equal block costs are kept as one run, arrays that cannot fit
 * are refused before any launch with the figure, and the shards of a
 * sweep merge into the CSV one machine writes.
 */
#include "helpers.h"
#include "program.h"
#include "user_program.h"

#include <criterion/criterion.h>
#include <pthread.h>
#include <sys/stat.h>
#include <time.h>

/* ---- threads: the same bytes -------------------------------------------- */

/* Built-in program `name` (its kernels written once) at `params` on m, in
 * its exec process, its launches on `threads`. */
static exec_result run_on_threads(const char *name, const vars *params, const machine *m, int threads)
{
    char source[2048];
    cr_assert_eq(builtin_kernels_path(builtin_find(name), source, sizeof source), 0, "%s", fail_message());
    exec_process x;
    cr_assert_eq(user_program_start(&x, source, params, m, threads), 0, "%s: %s", name, fail_message());
    exec_result r;
    r.dag = exec_process_finish(&x, &r.reports);
    cr_assert_not_null(r.dag, "%s on %d threads: %s", name, threads, fail_message());
    return r;
}

/* Two runs measured the same: kernels, runs of block costs and reports,
 * byte for byte. */
static void expect_same_bytes(const char *what, const exec_result *a, const exec_result *b)
{
    const kernel_dag *x = a->dag, *y = b->dag;
    cr_assert_eq(x->n, y->n, "%s: %d kernels, then %d", what, x->n, y->n);
    for (int k = 0; k < x->n; k++) {
        const kernel *p = &x->kernels[k], *q = &y->kernels[k];
        cr_assert_str_eq(p->name, q->name, "%s", what);
        cr_assert_eq(p->blocks, q->blocks, "%s, %s", what, p->name);
        cr_assert_eq(p->n_runs, q->n_runs, "%s, %s: %ld runs of costs, then %ld", what, p->name, p->n_runs,
                     q->n_runs);
        for (long r = 0; r < p->n_runs; r++) {
            cr_assert_eq(p->runs[r].first, q->runs[r].first, "%s, %s, run %ld", what, p->name, r);
            cr_assert_eq(memcmp(&p->runs[r].cost, &q->runs[r].cost, sizeof(block_cost)), 0,
                         "%s, %s: blocks from %ld cost other bytes", what, p->name, p->runs[r].first);
        }
    }
    cr_assert_eq(memcmp(a->reports, b->reports, sizeof *a->reports * (size_t)x->n), 0,
                 "%s: the per-kernel reports differ", what);
}

Test(exec_scale, a_launch_on_four_threads_measures_the_bytes_one_thread_measures, .timeout = 120)
{
    machine m = test_preset("gtx670");
    struct {
        const char *name;
        vars params;
    } cases[] = {
        {"stockham", test_params("n l", 4096, 128)},
        {"cooley-tukey", test_params("n l", 4096, 64)},
        {"plain-mult", test_params("n m s l", 600, 512, 4, 64)},
        {"radix-sort", test_params("n c s l", 16384, 16, 4, 64)},
        {"euclid", test_params("n m s l", 700, 700, 16, 64)},
        {"prefix-optimal", test_params("n l", 65536, 256)},
        {"plain-division", test_params("n m d s l", 300, 900, 0, 8, 16)},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        exec_result one = run_on_threads(cases[i].name, &cases[i].params, &m, 1);
        exec_result four = run_on_threads(cases[i].name, &cases[i].params, &m, 4);
        expect_same_bytes(cases[i].name, &one, &four);
        exec_result_free(&one);
        exec_result_free(&four);
    }
}

/* `mcmsim run ARGS` on --jobs 1 and on --jobs 4: the same output. */
static void expect_same_output(const char *args)
{
    static char one[1 << 20], four[1 << 20];
    cr_assert_eq(mcmsim_output(MCMSIM_OUT_AND_ERR, one, sizeof one, "run %s --jobs 1", args), 0, "%s: %s", args, one);
    cr_assert_eq(mcmsim_output(MCMSIM_OUT_AND_ERR, four, sizeof four, "run %s --jobs 4", args), 0, "%s: %s", args,
                 four);
    cr_expect_str_eq(one, four, "%s: --jobs 1 and --jobs 4 print different things", args);
}

Test(exec_scale, the_output_is_the_same_bytes_on_one_job_and_on_four, .timeout = 300)
{
    /* one point: its launches on four threads; a sweep: points at once */
    expect_same_output("programs/fft.cfg --exec --set program=stockham --set n=65536 --format json");
    expect_same_output("programs/radix-sort/radix-sort.cfg --exec --set s=4 --set n=65536 --format json");
    expect_same_output("programs/user/jacobi.cfg --set n=65536 --format json");
    expect_same_output("programs/user/matvec.cfg --format csv");
    expect_same_output("programs/scan.cfg --exec --set n=65536 --format json");
}

/* ---- a race between blocks, named alike ------------------------------------ */

/* A fresh folder with a user program whose block 5 reads what block 2
 * writes in the same launch, and its run file. */
static const char *racy_program(void)
{
    static char dir[256];
    snprintf(dir, sizeof dir, "/tmp/mcmsim-scale-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
    char path[512], cache[300];
    snprintf(cache, sizeof cache, "%s/cache", dir);
    setenv("MCMSIM_CACHE", cache, 1);
    snprintf(path, sizeof path, "%s/racy.c", dir);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs("#include \"mcm_kernel.h\"\n"
          "typedef struct { gmem g; } args;\n"
          "MCM_STEP(step, args, a) {\n"
          "    long i = t->bid * t->threads + t->tid;\n"
          "    exec_gwrite(t, a->g, i, 1);\n"
          "    if (t->bid == 5 && t->tid == 3) exec_gread(t, a->g, 2 * 32 + 7);\n"
          "}\n"
          "MCM_KERNEL(k, args, step);\n"
          "static gmem g;\n"
          "static int setup(exec_run *run, const mcm_params *p) { (void)p; g = mcm_alloc(run, \"g\", 64 * 32); return 0; }\n"
          "static int launches(exec_run *run) { args a = {g}; return mcm_launch(run, &k, 64, 32, 0, &a); }\n"
          "static int check(exec_run *run) { (void)run; return 0; }\n"
          "MCM_PROGRAM(\"racy\", setup, launches, check);\n",
          f);
    fclose(f);
    snprintf(path, sizeof path, "%s/racy.cfg", dir);
    f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs("machine = \"mcm\";\nprogram = { source = \"racy.c\"; };\n", f);
    fclose(f);
    return dir;
}

Test(exec_scale, a_race_between_blocks_is_named_alike_on_one_thread_and_on_four, .timeout = 120)
{
    const char *dir = racy_program();
    char one[8192], four[8192];
    cr_assert_neq(mcmsim_output(MCMSIM_ERR_ONLY, one, sizeof one, "run %s/racy.cfg --jobs 1", dir), 0);
    cr_assert_neq(mcmsim_output(MCMSIM_ERR_ONLY, four, sizeof four, "run %s/racy.cfg --jobs 4", dir), 0);
    cr_expect(strstr(one, "block 5 (thread 3) reads g[71], which block 2 (thread 7) writes in the same launch") !=
                  NULL, "%s", one);
    cr_expect_str_eq(one, four, "one thread and four name different races");
}

static void write_cell_0(exec_thread *t, void *p)
{
    if (t->tid == 0)
        exec_gwrite(t, *(gmem *)p, 0, 1);
}

static void read_cell_0(exec_thread *t, void *p)
{
    if (t->tid == 0)
        (void)exec_gread(t, *(gmem *)p, 0);
}

/* A program on a race-free run of one thread: its launches' status. */
typedef int (*racy_program_fn)(exec_run *run);

/* `program` on a fresh run and, where the race it met names no threads
 * (a shadow keeps none), once more watching the race's cell, as the exec
 * process does: its status, its message in msg. */
static int run_naming_the_threads(racy_program_fn program, char *msg, size_t size)
{
    machine m = test_machine(4, 1);
    exec_watch_race(NULL);
    exec_run *run = exec_begin("racy", &m);
    exec_set_race_free(run, 1);
    int rc = program(run);
    exec_race_cell cell;
    if (rc < 0 && exec_race_pending(&cell) == EXEC_RACE_UNNAMED) {
        cr_expect(strstr(fail_message(), "a run that watches the cell (exec_watch_race) names the threads"), "%s",
                  fail_message());
        exec_end(run);
        exec_watch_race(&cell);
        run = exec_begin("racy", &m);
        exec_set_race_free(run, 1);
        rc = program(run);
        cr_expect_eq(exec_race_pending(&cell), 0, "the run that watches the cell owes nothing: %s", fail_message());
    }
    snprintf(msg, size, "%s", rc < 0 ? fail_message() : "");
    exec_end(run);
    exec_watch_race(NULL);
    return rc;
}

static int every_block_writes_cell_0(exec_run *run)
{
    static const exec_step steps[] = {write_cell_0};
    const exec_kernel k = {"all-write", 1, steps, 0};
    gmem g = exec_alloc(run, "g", 16);
    return exec_launch(run, &k, 64, 32, &g);
}

Test(exec_scale, several_threads_stop_a_racing_launch_and_say_so_one_thread_names_the_pair)
{
    machine m = test_machine(4, 1);
    exec_run *run = exec_begin("racy", &m);
    exec_set_race_free(run, 1);
    exec_set_threads(run, 4);
    gmem g = exec_alloc(run, "g", 16);
    static const exec_step steps[] = {write_cell_0};
    const exec_kernel k = {"all-write", 1, steps, 0};
    /* every block writes g[0]: whichever pair a thread meets first, it is a race */
    cr_assert_eq(exec_launch(run, &k, 64, 32, &g), -1);
    cr_expect(exec_blocks_raced(run));
    exec_race_cell cell;
    cr_expect_eq(exec_race_pending(&cell), EXEC_RACE_UNPAIRED);
    cr_expect(strstr(fail_message(), "seen by 4 threads at once; on one thread exec mode names the pair"), "%s",
              fail_message());
    exec_end(run);
    char msg[1024];
    cr_assert_eq(run_naming_the_threads(every_block_writes_cell_0, msg, sizeof msg), -1);
    cr_expect(strstr(msg, "blocks 0 (thread 0) and 1 (thread 0) both write g[0] in the same launch"), "%s", msg);
}

Test(exec_scale, with_a_pool_a_racing_launch_stops_whether_its_first_worker_runs_alone_or_not)
{
    /* with a pool the first worker changes the shadows by plain stores until it recruits another
     * (start_worker): alone (no idle core) or joined by three, the race is seen and reported as before */
    for (int idle_cores = 0; idle_cores <= 3; idle_cores += 3) {
        machine m = test_machine(4, 1);
        exec_run *run = exec_begin("racy", &m);
        exec_set_race_free(run, 1);
        exec_set_threads(run, 4);
        int idle = idle_cores;
        exec_set_core_pool(run, &idle);
        gmem g = exec_alloc(run, "g", 16);
        static const exec_step steps[] = {write_cell_0};
        const exec_kernel k = {"all-write", 1, steps, 0};
        cr_assert_eq(exec_launch(run, &k, 64, 32, &g), -1, "idle cores %d", idle_cores);
        cr_expect(exec_blocks_raced(run), "idle cores %d", idle_cores);
        exec_race_cell cell;
        cr_expect_eq(exec_race_pending(&cell), EXEC_RACE_UNPAIRED);
        cr_expect(strstr(fail_message(), "on one thread exec mode names the pair"), "%s", fail_message());
        cr_expect_eq(idle, idle_cores, "the cores taken are given back");
        exec_end(run);
    }
}

static int wrap_then_race(exec_run *run)
{
    static const exec_step writes[] = {write_cell_0}, reads[] = {read_cell_0};
    const exec_kernel w = {"write", 1, writes, 0}, r = {"read", 1, reads, 0};
    gmem g = exec_alloc(run, "g", 1);
    for (long launch = 1; launch <= 40000; launch++) /* one block each: never a race */
        cr_assert_eq(exec_launch(run, launch % 2 ? &w : &r, 1, 1, &g), 0, "launch %ld: %s", launch, fail_message());
    return exec_launch(run, &w, 2, 1, &g);
}

Test(exec_scale, a_race_between_blocks_is_seen_after_many_launches_each_of_one_block, .timeout = 120)
{
    /* a shadow holds the launch in progress only (cleared when it ends): the launches before never pass
     * for a block of this one (it held a launch's stamp in 15 bits once, and wrapped at 32767) */
    char msg[1024];
    cr_assert_eq(run_naming_the_threads(wrap_then_race, msg, sizeof msg), -1, "two blocks writing g[0]");
    cr_expect(strstr(msg, "blocks 0 (thread 0) and 1 (thread 0) both write g[0] in the same launch"), "%s", msg);
}

/* Block 1: thread 4 reads g[c] in step 0 and thread 6 writes it in step
 * 1 (c = 0); or threads 4 and 6 read it (c = 1); or threads 7 and 9 write
 * it in steps 0 and 1 (c = 2).  Block 2: thread 5 reads it (step 1), and
 * block 3's thread 3 writes it (step 1). */
static long watched_case;

static void first_touches(exec_thread *t, void *p)
{
    gmem g = *(gmem *)p;
    long c = watched_case;
    if (t->bid == 1 && t->tid == 4 && c < 2)
        (void)exec_gread(t, g, c);
    if (t->bid == 1 && t->tid == 7 && c == 2)
        exec_gwrite(t, g, c, 1);
}

static void later_touches(exec_thread *t, void *p)
{
    gmem g = *(gmem *)p;
    long c = watched_case;
    if (t->bid == 1 && t->tid == 6)
        c == 0 ? exec_gwrite(t, g, c, 2) : c == 1 ? (void)exec_gread(t, g, c) : (void)0;
    if (t->bid == 1 && t->tid == 9 && c == 2)
        exec_gwrite(t, g, c, 3);
    if (t->bid == 2 && t->tid == 5 && c == 1)
        (void)exec_gread(t, g, c);
    if (t->bid == 3 && t->tid == 3)
        exec_gwrite(t, g, c, 4);
}

static int watched_program(exec_run *run)
{
    static const exec_step steps[] = {first_touches, later_touches};
    const exec_kernel k = {"touches", 2, steps, 0};
    gmem g = exec_alloc(run, "g", 4);
    return exec_launch(run, &k, 4, 16, &g);
}

Test(exec_scale, the_watching_run_names_the_thread_a_blocks_shadow_held)
{
    /* the earlier block's thread that wrote the cell last, or else read it first */
    const char *expected[] = {"blocks 1 (thread 6) and 3 (thread 3) both write g[0] in the same launch",
                              "block 3 (thread 3) writes g[1], which block 1 (thread 4) reads in the same launch",
                              "blocks 1 (thread 9) and 3 (thread 3) both write g[2] in the same launch"};
    for (watched_case = 0; watched_case < 3; watched_case++) {
        char msg[1024];
        cr_assert_eq(run_naming_the_threads(watched_program, msg, sizeof msg), -1);
        cr_expect(strstr(msg, expected[watched_case]), "case %ld: %s", watched_case, msg);
    }
}

static void write_own_cell(exec_thread *t, void *p) { exec_gwrite(t, *(gmem *)p, t->tid, 1); }

/* ---- processes at once: the ledger of their arrays' memory ------------------ */

typedef struct ledger_launch {
    exec_run *run;
    gmem g;
    int rc, done;
} ledger_launch;

static void *launch_own_cells(void *p)
{
    ledger_launch *l = p;
    static const exec_step steps[] = {write_own_cell};
    const exec_kernel k = {"own", 1, steps, 0};
    l->rc = exec_launch(l->run, &k, 1, 32, &l->g);
    __atomic_store_n(&l->done, 1, __ATOMIC_RELEASE);
    return NULL;
}

Test(exec_scale, a_launch_waits_until_its_arrays_fit_beside_what_other_processes_hold, .timeout = 30)
{
    machine m = test_machine(4, 1);
    exec_ledger ledger;
    exec_ledger_measure(&ledger);
    const long bytes = 8; /* a race-checked word and its shadow */
    ledger.budget = 1000 * bytes;
    ledger.admitted = 600 * bytes; /* another process's arrays */
    exec_set_ledger(&ledger);
    ledger_launch a = {exec_begin("a", &m), NULL, 0, 0};
    exec_set_race_free(a.run, 1);
    cr_expect_null(exec_alloc(a.run, "big", 1001), "1001 words do not fit in 1000 even alone");
    cr_expect(strstr(fail_message(), "array 'big' of 1001 words") && strstr(fail_message(), "0.00 GiB are available (MemAvailable"),
              "%s", fail_message());
    a.g = exec_alloc(a.run, "g", 600);
    cr_assert_not_null(a.g, "600 words fit alone: %s", fail_message());
    pthread_t id;
    cr_assert_eq(pthread_create(&id, NULL, launch_own_cells, &a), 0);
    struct timespec pause = {0, 300 * 1000 * 1000};
    nanosleep(&pause, NULL);
    cr_expect_eq(__atomic_load_n(&a.done, __ATOMIC_ACQUIRE), 0, "600 + 600 words > 1000: the launch waits");
    exec_ledger_give_back(&ledger, 600 * bytes); /* the other process ends */
    pthread_join(id, NULL);
    cr_expect_eq(a.rc, 0, "%s", fail_message());
    cr_expect_eq(ledger.admitted, 600 * bytes, "this process's arrays, admitted");
    /* a process that holds arrays in the ledger never waits (no two wait for each other): its new
     * arrays enter at once, even beside another's that leave no room */
    ledger.admitted += 300 * bytes;
    ledger_launch b = {exec_begin("b", &m), NULL, 0, 0};
    exec_set_race_free(b.run, 1);
    b.g = exec_alloc(b.run, "g", 200);
    launch_own_cells(&b);
    cr_expect_eq(b.rc, 0, "%s", fail_message());
    cr_expect_eq(ledger.admitted, 1100 * bytes);
    exec_end(b.run);
    exec_end(a.run);
    exec_set_ledger(NULL);
}

Test(exec_scale, a_race_checked_launch_of_more_blocks_or_threads_than_the_check_names_is_refused)
{
    machine m = test_machine(4, 1);
    static const exec_step steps[] = {write_own_cell};
    const exec_kernel k = {"wide", 1, steps, 0};
    exec_run *run = exec_begin("wide", &m);
    exec_set_race_free(run, 1);
    gmem g = exec_alloc(run, "g", 70000);
    cr_assert_eq(exec_launch(run, &k, 1, 65535, &g), 0, "%s", fail_message());
    cr_assert_eq(exec_launch(run, &k, 1, 65536, &g), -1);
    cr_expect(strstr(fail_message(), "65536 threads per block; exec mode's race check names threads below 65535"),
              "%s", fail_message());
    /* a shadow holds 1 + the block in 30 bits: blocks 0 .. 2^30 − 2; refused before any block runs */
    cr_assert_eq(exec_launch(run, &k, 1L << 30, 1, &g), -1);
    cr_expect(strstr(fail_message(), "1073741824 blocks; exec mode's race check names blocks below 1073741823"),
              "%s", fail_message());
    exec_end(run);
}

/* ---- memory: runs of costs, arrays that cannot fit --------------------------- */

typedef struct copy_args {
    gmem from, to;
    long n;
} copy_args;

static void copy_word(exec_thread *t, void *p)
{
    const copy_args *a = p;
    long i = t->bid * t->threads + t->tid;
    if (i < a->n) {
        exec_ops(t, 1);
        exec_gwrite(t, a->to, i, exec_gread(t, a->from, i));
    }
}

Test(exec_scale, a_million_equal_blocks_are_one_run_of_costs)
{
    machine m = test_machine(16, 1);
    static const exec_step steps[] = {copy_word};
    const exec_kernel copy = {"copy", 1, steps, 0};
    for (int threads = 1; threads <= 4; threads *= 4) {
        exec_run *run = exec_begin("copy", &m);
        exec_set_threads(run, threads);
        long n = (1L << 20) * 2 + 1; /* 2^20 full blocks of 2 threads, then one of 1 */
        copy_args a = {exec_alloc(run, "from", n), exec_alloc(run, "to", n), n};
        cr_assert_eq(exec_launch(run, &copy, (n + 1) / 2, 2, &a), 0, "%s", fail_message());
        const kernel *k = &exec_dag(run)->kernels[0];
        cr_expect_eq(k->blocks, (1L << 20) + 1);
        cr_expect_eq(k->n_runs, 2, "%d threads: %ld runs of costs for 2^20 equal blocks and a last", threads,
                     k->n_runs);
        cr_expect_eq(kernel_run_blocks(k, 0), 1L << 20);
        cr_expect_eq(kernel_block_cost(k, 1L << 20)->work, 1, "the last block: one thread's copy");
        exec_end(run);
    }
}

/* `mcmsim ARGS` refused: a non-zero status and each needle in its message. */
static void expect_refused(const char *args, const char *const *needles)
{
    char err[8192];
    cr_assert_neq(mcmsim_output(MCMSIM_ERR_ONLY, err, sizeof err, "%s", args), 0, "%s: exit status 0", args);
    for (int i = 0; needles[i]; i++)
        cr_expect(strstr(err, needles[i]) != NULL, "%s: '%s' not in: %s", args, needles[i], err);
}

Test(exec_scale, arrays_that_cannot_fit_are_refused_before_any_launch_with_the_figure, .timeout = 60)
{
    /* 10^12 words: 7451 GiB with the race shadow (8 bytes a word: a 32-bit word and its 32-bit
     * shadow), more than any machine here */
    expect_refused("run programs/sum/sum.cfg --exec --set n=1e12",
                   (const char *[]){"kernels.c, in its setup", "array 'a' of 1000000000000 words", "8 bytes per word",
                                    "arrays would then take 7450.58 GiB", "GiB are available",
                                    "MemAvailable", NULL});
#ifndef MCM_SANITIZE /* ASan reserves terabytes of address space: no cap there */
    /* under an address-space limit of about 1 GiB: 150·10^6 words of 8 bytes (1.12 GiB) do not fit */
    char err[8192];
    const char *bin = getenv("MCMSIM");
    char command[1024];
    snprintf(command, sizeof command, "sh -c 'ulimit -v 1000000; exec %s run programs/sum/sum.cfg --exec --set n=150000000' "
             "2>&1 >/dev/null", bin);
    FILE *pipe = popen(command, "r");
    cr_assert_not_null(pipe);
    size_t got = fread(err, 1, sizeof err - 1, pipe);
    err[got] = '\0';
    cr_expect_neq(pclose(pipe), 0, "%s", err);
    cr_expect(strstr(err, "1.12 GiB") && strstr(err, "address-space limit (ulimit -v)"), "%s", err);
#endif
}

/* ---- shards ------------------------------------------------------------------- */

/* `mcmsim run FILE ARGS --format csv` into a file; its path (static). */
static const char *csv_of(const char *dir, const char *name, const char *file, const char *args)
{
    static char paths[8][512];
    static int next;
    char *path = paths[next++ % 8];
    snprintf(path, sizeof paths[0], "%s/%s.csv", dir, name);
    char out[64];
    cr_assert_eq(mcmsim_output(MCMSIM_OUT_AND_ERR, out, sizeof out, "run %s %s --format csv > %s", file, args,
                               path),
                 0, "%s %s: %s", file, args, out);
    return path;
}

static void expect_merge_is_whole(const char *file, const char *sets)
{
    char dir[] = "/tmp/mcmsim-shards-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char args[512];
    const char *shard[3];
    for (int k = 1; k <= 3; k++) {
        snprintf(args, sizeof args, "%s --shard %d/3", sets, k);
        char name[16];
        snprintf(name, sizeof name, "shard%d", k);
        shard[k - 1] = csv_of(dir, name, file, args);
    }
    const char *whole = csv_of(dir, "whole", file, sets);
    char merged[600], out[8192];
    snprintf(merged, sizeof merged, "%s/merged.csv", dir);
    /* in any order */
    cr_assert_eq(mcmsim_output(MCMSIM_OUT_AND_ERR, out, sizeof out, "merge %s %s %s > %s", shard[2], shard[0],
                               shard[1], merged),
                 0, "%s", out);
    long a, b;
    char *x = read_file(whole, &a), *y = read_file(merged, &b);
    cr_expect(a > 0 && a == b && memcmp(x, y, (size_t)a) == 0, "%s: the merged shards differ from the whole run",
              file);
    /* a shard missing, a shard twice, a shard of another run: refused */
    expect_refused((snprintf(out, sizeof out, "merge %s %s", shard[0], shard[1]), out),
                   (const char *[]){"merge wants all 3 shards", NULL});
    expect_refused((snprintf(out, sizeof out, "merge %s %s %s", shard[0], shard[1], shard[1]), out),
                   (const char *[]){"both shard 2/3", NULL});
    free(x);
    free(y);
}

Test(exec_scale, three_shards_merged_are_the_csv_one_machine_writes, .timeout = 120)
{
    expect_merge_is_whole("programs/plain-mult/plain-mult.cfg", "");      /* 30 points, the model */
    expect_merge_is_whole("programs/mult.cfg", "");            /* 18, two programs: their params' columns */
    expect_merge_is_whole("programs/scan.cfg", "--exec --set n=16384"); /* exec mode, built in */
    expect_merge_is_whole("programs/user/matvec.cfg", "");     /* a user's file */
}

/* The Slurm job array's script, its three tasks run here one after another
 * as Slurm would run them, then the merge its header names. */
Test(exec_scale, the_slurm_array_script_writes_shards_that_merge_into_the_whole_run, .timeout = 120)
{
    char dir[] = "/tmp/mcmsim-slurm-XXXXXX", command[2048], out[8192];
    cr_assert_not_null(mkdtemp(dir));
    for (int k = 1; k <= 3; k++) {
        snprintf(command, sizeof command,
                 "cd %s && SLURM_ARRAY_TASK_ID=%d SLURM_ARRAY_TASK_COUNT=3 MCMSIM=%s sim/app/shard-slurm.sh "
                 "programs/scan.cfg %s --exec --set n=4096 2>&1",
                 MCMSIM_DATADIR, k, getenv("MCMSIM"), dir);
        FILE *pipe = popen(command, "r");
        size_t got = fread(out, 1, sizeof out - 1, pipe);
        out[got] = '\0';
        cr_assert_eq(pclose(pipe), 0, "task %d: %s", k, out);
    }
    const char *whole = csv_of(dir, "whole", "programs/scan.cfg", "--exec --set n=4096");
    char merged[600];
    snprintf(merged, sizeof merged, "%s/merged.csv", dir);
    cr_assert_eq(mcmsim_output(MCMSIM_OUT_AND_ERR, out, sizeof out, "merge %s/shard-*-of-3.csv > %s", dir, merged),
                 0, "%s", out);
    long a, b;
    char *x = read_file(whole, &a), *y = read_file(merged, &b);
    cr_expect(a > 0 && a == b && memcmp(x, y, (size_t)a) == 0, "the merged shards differ from the whole run");
    free(x);
    free(y);
}

Test(exec_scale, a_shard_is_refused_where_it_cannot_be_merged)
{
    expect_refused("run programs/plain-mult/plain-mult.cfg --shard 4/3", (const char *[]){"--shard 4/3", "1 <= K <= N", NULL});
    expect_refused("run programs/plain-mult/plain-mult.cfg --shard 1/3",
                   (const char *[]){"--shard is for mcmsim run --format csv", NULL});
    expect_refused("merge /nonexistent.csv", (const char *[]){"/nonexistent.csv: cannot read", NULL});
}
