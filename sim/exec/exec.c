/*
 * exec.c — running kernels for real and measuring them (see exec.h).
 *
 * A launch's blocks are independent (the model leaves their order free,
 * and a correct MCM program cannot tell), so they run on the run's
 * threads (exec_set_threads; with a pool of cores, the threads join as
 * cores fall idle): the grid is cut into chunks of consecutive blocks,
 * each thread takes the next chunk not yet taken, and each chunk keeps
 * its blocks' results as runs of equal results.  When every thread is
 * done, the chunks are read in block order: the kernel's runs of costs
 * and its report are built as one thread running the blocks in order
 * would build them, to the last bit of every sum.  A thread is a worker
 * (exec_block): everything a block needs while it runs is its worker's
 * own; the run's arrays are shared.
 *
 * For each block, each step runs every thread in order tid = 0 .. ℓ-1,
 * warp by warp (a step of a kernel compiled with exec_block.h runs its
 * warp's later threads itself, with no call per thread: EXEC_WARP_RUN);
 * the step's writes go to a log and are committed when the
 * last thread is done, so every read of the step sees memory as it was
 * before it.  A second write of a cell in the step finds the first (the
 * same thread's last write wins; another thread's is a CREW error): a
 * private word by its use in the step (an array of the worker's), a
 * global cell by its mark in a built-in run (write_mark), by its use in
 * the step in a race-free one (a table of the worker's, global_use: two
 * windows of consecutive cells and a hash for the cells beyond them;
 * the reads made before the step's first global write are entered in it
 * only when it is looked up: read_use).
 * A race-free run writes a private word at once, with no log: there a
 * read of a word written in the step is the writer's own (or a race,
 * which reads the write as the log's search did), so every value read
 * is the same.  While the threads of a warp run, their accesses are
 * noted per round (a thread's k-th access of the step is round k: the
 * DMM/UMM's warp request, each thread sending its next request, whatever
 * instruction makes it; the caches make their read rounds of the warp's
 * instructions instead, cache.h) and each round is tallied as its lanes
 * come; when the warp's last thread
 * is done the rounds are graded (distinct address groups for global
 * memory, the fullest bank for private memory): from the tally where the
 * lanes' addresses never went down, which is the common case, from the
 * notes otherwise (sorted for global memory; a private word counted once
 * per bank by a stamp).
 *
 * Each access has a fast path (exec_block.h, which a kernel built for exec
 * mode compiles into its own code): an index in range, a round the notes
 * have room for, the race checks' common cases where no race can be, for
 * a write a cell the step has not written and room in the log.  Anything
 * else goes to the checked path here, which does the same and handles the
 * rest.  A thread's counters (operations, class counts, words, its rounds
 * in the step) live in one record per thread, which the block's figures
 * read and clear when the block ends.
 *
 * Races (exec_set_race_free).  Exec mode runs a step's threads one after
 * another, and a launch's blocks in an order of its own; the card runs
 * both in no fixed order.  So that a kernel means the same on both (a
 * kernel written once, sim/exec/mcm_kernel.h), every access of such a run is
 * checked.  Within a step of a block, by the cell's use in the step: a
 * cell that one thread writes and another reads or writes is an error
 * naming both threads; a thread that reads a cell it wrote earlier in the
 * step reads its own write, as on the card (other reads of the step see
 * memory as it was before the step).  A private word read before any
 * thread of the block wrote it is an error too (the card's shared memory
 * starts undefined).  Across the blocks of a launch, by a shadow of each
 * global cell, 32 bits for the launch in progress (cell_shadow): the
 * block that wrote it or read it first, and whether it was written, or
 * read by a second block; every worker notes the cells it touched first
 * (per array, a range and its chunks of 4096 cells that hold one), and
 * those are cleared when the launch ends.  A cell that one block writes
 * and another block reads or writes in the same launch is an error
 * naming the two blocks and their threads, as a run of the blocks in
 * order (one thread) meets it first.  The shadow
 * holds no thread: the run names the blocks and the cell, and owes the
 * threads (exec_race_pending); the caller runs the program again
 * watching that cell (exec_watch_race), whose launch then takes the
 * checked paths, which keep the thread the message names.  The cell's
 * use in a step (which threads read it, which wrote it) is kept by the
 * worker only while the step runs.  While several threads run a launch
 * the shadow's state is changed by compare-and-swap only (before its first
 * worker recruits another, by plain stores: start_worker), so a race
 * between blocks is always seen; where several threads may run, which
 * pair is met first depends on timing, so the launch stops and says so
 * without naming one (exec_blocks_raced): the caller runs the program
 * again on one thread, which names the pair (sim/exec/exec_process.c does
 * both).
 *
 * The caches (sim/exec/cache.h).  On a machine with them, exec mode hands each
 * global access to the block's recorder (from the fast path and the
 * checked path alike), each warp's step when it is graded, each
 * block when it ends, and each launch before its first block and after
 * its last; the caches fill the blocks' sectors.  The caches replay the
 * blocks in the card's order, one call at a time: a launch on a machine
 * with caches runs on one thread, and keeps its blocks' results until the
 * last wave is replayed.
 *
 * Invariants kept here: between steps the write log is empty; between
 * blocks every per-thread counter is zero; a recorded error stops the
 * block at the end of the step in which it happened, and the launch once
 * the blocks before it are done; between launches every shadow is 0; a
 * stamp (step, block) only grows, so a stale stamp is never taken for
 * the present (a write mark may come round again: it only sends the
 * write to the log's search); no thread runs outside exec_launch.
 */
#include "exec.h"
#include "exec_block.h"
#include "cache.h"
#include "card_terms.h"
#include "exec_test.h"
#include "fail.h"
#include "stream.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/futex.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* ---- the run ------------------------------------------------------------ */

/* Bytes the run holds per global word: the word, and its shadow in a
 * race-free run, its mark in a built-in one. */
#define WORD_BYTES ((double)sizeof(mem_word))
#define SHADOW_BYTES ((double)sizeof(cell_shadow))
#define MARK_BYTES ((double)sizeof(write_mark))

/* What the arrays of the process's runs may take (measured once:
 * exec_measure_memory), what they hold now, and what of it the ledger
 * shared with other processes has admitted (exec_set_ledger, or NULL). */
static struct {
    double budget; /* bytes; < 0: not measured yet */
    const char *source;
    double held;
    double admitted;
    exec_ledger *ledger;
} memory = {-1, NULL, 0, 0, NULL};

#define SOURCE_LIMIT "the address-space limit (ulimit -v) left"

/* The races the process's runs still owe a message (exec_race_pending),
 * and the cell watched (exec_watch_race) in the run of its ordinal. */
static struct {
    int pending;
    exec_race_cell cell; /* the race met on one thread, unnamed */
    int runs;            /* runs begun since exec_watch_race */
    int watching;
    exec_race_cell watched;
} races;

/* What one block measured: its costs and what its kernel's report adds
 * up.  Compared byte for byte (runs of equal results), so always built
 * from zeroed memory. */
typedef struct block_result {
    block_cost cost;
    double alpha, beta;      /* the most words one thread read, wrote */
    double transactions;     /* global address groups, reads and writes */
} block_result;

/* A run of consecutive blocks with equal results. */
typedef struct result_run {
    long first, count;
    block_result result;
} result_run;

/* Consecutive blocks of a launch, run by one worker in order: their
 * results as runs; the first error (the block that failed stops it). */
typedef struct chunk {
    long first, blocks;
    result_run *runs;
    long n_runs;
    char *error;
} chunk;

typedef struct worker_job worker_job;

/* A launch under way: what the workers share.  Its workers: the calling
 * thread, and up to `workers` − 1 threads, which with a pool of cores
 * join as cores fall idle (the calling thread starts them, between
 * chunks). */
typedef struct launch_state {
    chunk *chunks;
    long n_chunks;
    long next_chunk;     /* the next chunk not yet taken (atomic) */
    long failed_chunk;   /* the first chunk with an error so far, or n_chunks (atomic) */
    int raced;           /* blocks raced (several threads; atomic) */
    int workers;         /* the most that may run */
    int started;         /* those begun: jobs[0 .. started) */
    worker_job *jobs;
    pthread_t *ids;
    const exec_kernel *k;
    const int *numbers;  /* t->step in each step (exec_launch_numbered), or NULL */
    long blocks;
    int threads;
    void *args;
} launch_state;

exec_run *exec_begin(const char *program, const machine *m)
{
    exec_run *r = calloc(1, sizeof *r);
    r->m = *m;
    r->p = 469762049;
    r->add_ops = 5;
    r->mul_ops = 11;
    r->threads = 1;
    r->dag = kernel_dag_new(program);
    r->caches = cache_new(m);
    r->ordinal = ++races.runs;
    if (races.watching && races.watched.run == r->ordinal) {
        r->watch = malloc(sizeof *r->watch);
        *r->watch = (race_watch){races.watched, -1};
    }
    return r;
}

void exec_end(exec_run *r)
{
    if (!r)
        return;
    for (int i = 0; i < r->n_arrays; i++) {
        free(r->arrays[i]->cells);
        free(r->arrays[i]->shadows);
        free(r->arrays[i]->marks);
        free(r->arrays[i]);
    }
    free(r->arrays);
    free(r->reports);
    memory.held -= r->array_bytes;
    kernel_dag_free(r->dag);
    cache_free(r->caches);
    free(r->held);
    free(r->watch);
    free(r);
}

void exec_set_prime(exec_run *r, uint64_t p) { r->p = p; }
void exec_set_costs(exec_run *r, double add_ops, double mul_ops)
{
    r->add_ops = add_ops;
    r->mul_ops = mul_ops;
}
uint64_t exec_prime(const exec_run *r) { return r->p; }
void exec_set_race_free(exec_run *r, int on) { r->race_free = on; }
void exec_set_stream(exec_run *r, const stream_table *t) { r->stream = t; }
void exec_set_threads(exec_run *r, int threads) { r->threads = threads < 1 ? 1 : threads; }
int exec_blocks_raced(const exec_run *r) { return r->raced; }

int exec_race_pending(exec_race_cell *cell)
{
    if (races.pending == EXEC_RACE_UNNAMED)
        *cell = races.cell;
    return races.pending;
}

void exec_watch_race(const exec_race_cell *cell)
{
    races.pending = 0;
    races.runs = 0;
    races.watching = cell != NULL;
    if (cell)
        races.watched = *cell;
}
void exec_set_core_pool(exec_run *r, int *idle) { r->pool = idle; }
void exec_set_whereabouts(exec_run *r, exec_whereabouts *w) { r->here = w; }
void exec_set_give_up(exec_run *r, void (*give_up)(void *ctx), void *ctx)
{
    r->give_up = give_up;
    r->give_up_ctx = ctx;
}
const kernel_dag *exec_dag(const exec_run *r) { return r->dag; }

const exec_kernel_report *exec_reports(const exec_run *r, int *n)
{
    *n = r->dag->n;
    return r->reports;
}

/* ---- global memory -------------------------------------------------------- */

/* A number from a "Key:   N kB" line of /proc/meminfo, in bytes; -1 if none. */
static double meminfo_bytes(const char *key)
{
    FILE *f = fopen("/proc/meminfo", "r");
    if (!f)
        return -1;
    char line[256];
    double bytes = -1;
    size_t len = strlen(key);
    while (fgets(line, sizeof line, f))
        if (strncmp(line, key, len) == 0 && line[len] == ':') {
            bytes = 1024 * strtod(line + len + 1, NULL);
            break;
        }
    fclose(f);
    return bytes;
}

/* The process's address space in use, in bytes (/proc/self/statm). */
static double address_space_bytes(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    double pages = 0;
    if (f) {
        if (fscanf(f, "%lf", &pages) != 1)
            pages = 0;
        fclose(f);
    }
    return pages * (double)sysconf(_SC_PAGESIZE);
}

/* The memory available now (MemAvailable), or less where the process's
 * address-space limit (RLIMIT_AS) leaves less; where the figure comes
 * from in *source. */
static double available_bytes(const char **source)
{
    double bytes = meminfo_bytes("MemAvailable");
    *source = "MemAvailable in /proc/meminfo";
    if (bytes < 0) {
        bytes = (double)sysconf(_SC_AVPHYS_PAGES) * (double)sysconf(_SC_PAGESIZE);
        *source = "free physical memory";
    }
    struct rlimit limit;
    if (getrlimit(RLIMIT_AS, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY) {
        double left = (double)limit.rlim_cur - address_space_bytes();
        if (left < bytes) {
            bytes = left > 0 ? left : 0;
            *source = SOURCE_LIMIT;
        }
    }
    return bytes;
}

void exec_measure_memory(void)
{
    memory.budget = available_bytes(&memory.source) + memory.held; /* what the arrays hold already is theirs */
}

/* ---- processes at once: the ledger ---------------------------------------- */

void exec_ledger_measure(exec_ledger *l)
{
    const char *source;
    l->budget = available_bytes(&source);
    snprintf(l->source, sizeof l->source, "%s", source);
}

void exec_set_ledger(exec_ledger *l)
{
    memory.ledger = l;
    if (!l)
        return;
    if (memory.budget < 0)
        exec_measure_memory();
    if (strcmp(memory.source, SOURCE_LIMIT) != 0 || l->budget + memory.held < memory.budget) {
        memory.budget = l->budget + memory.held;
        memory.source = l->source;
    }
}

void exec_ledger_give_back(exec_ledger *l, long bytes) { __atomic_sub_fetch(&l->admitted, bytes, __ATOMIC_RELAXED); }

/* Before a launch: the process's arrays not yet in the ledger enter it
 * (see exec_ledger in exec.h), waiting 50 ms at a time while they do not
 * fit (a futex wait that times out: the filter of a user's program lets
 * it make futex calls, not sleep). */
static void admit(exec_run *r)
{
    exec_ledger *l = memory.ledger;
    long want = (long)(memory.held - memory.admitted);
    if (!l || want <= 0)
        return;
    long now = __atomic_load_n(&l->admitted, __ATOMIC_RELAXED);
    for (;;) {
        if (memory.admitted == 0 && now > 0 && (double)(now + want) > l->budget) {
            if (r->here)
                r->here->waiting = 1;
            int never = 0;
            struct timespec pause = {0, 50 * 1000 * 1000};
            syscall(SYS_futex, &never, FUTEX_WAIT_PRIVATE, 0, &pause, NULL, 0);
            now = __atomic_load_n(&l->admitted, __ATOMIC_RELAXED);
            continue;
        }
        if (__atomic_compare_exchange_n(&l->admitted, &now, now + want, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
            break;
    }
    memory.admitted += (double)want;
    if (r->here) {
        r->here->admitted = (long)memory.admitted;
        r->here->waiting = 0;
    }
}

static double gib(double bytes) { return bytes / (1024.0 * 1024 * 1024); }

static double word_bytes(const exec_run *r) { return WORD_BYTES + (r->race_free ? SHADOW_BYTES : MARK_BYTES); }

/* Refuse an array that would take the process's arrays past their budget
 * (the figure named), or that the system does not give. */
static gmem refuse(exec_run *r, const char *name, long size, double bytes, const char *why)
{
    fail("program '%s': array '%s' of %ld words: %s; exec mode holds %g bytes per word (its value and its %s), "
         "and the program's arrays would then take %.2f GiB, but %.2f GiB are available (%s); lower its size params",
         r->dag->name, name, size, why, word_bytes(r), r->race_free ? "race-check shadow" : "write mark",
         gib(memory.held + bytes), gib(memory.budget), memory.source);
    if (r->give_up)
        r->give_up(r->give_up_ctx); /* does not return */
    return NULL;
}

static cell_shadow *shadows_new(long cells)
{
    return calloc((size_t)cells, sizeof(cell_shadow)); /* 0: no block */
}

gmem exec_alloc(exec_run *r, const char *name, long size)
{
    long cells = size > 0 ? size : 1;
    double bytes = (double)cells * word_bytes(r);
    if (memory.budget < 0)
        exec_measure_memory();
    if (memory.held + bytes > memory.budget)
        return refuse(r, name, size, bytes, "too large for this machine's memory");
    gmem a = calloc(1, sizeof *a);
    mem_word *c = calloc((size_t)cells, sizeof *a->cells);
    cell_shadow *s = r->race_free ? shadows_new(cells) : NULL;
    write_mark *marks = r->race_free ? NULL : calloc((size_t)cells, sizeof *marks);
    if (!a || !c || (r->race_free ? !s : !marks)) {
        free(a);
        free(c);
        free(s);
        free(marks);
        return refuse(r, name, size, bytes, strerror(ENOMEM));
    }
    a->cells = c;
    a->size = size;
    a->id = r->n_arrays;
    a->shadows = s;
    a->marks = marks;
    snprintf(a->name, sizeof a->name, "%s", name);
    r->arrays = realloc(r->arrays, sizeof *r->arrays * (size_t)(r->n_arrays + 1));
    r->arrays[r->n_arrays++] = a;
    r->array_bytes += bytes;
    memory.held += bytes;
    return a;
}

/* ---- Z/pZ ----------------------------------------------------------------- */

/* Operands below p < 2^63 need no division for a sum or a difference, and
 * operands below 2^32 a 64-bit one for a product: the same values. */
word zp_add(uint64_t p, word a, word b)
{
    if (a < p && b < p && p < ((uint64_t)1 << 63))
        return a + b >= p ? a + b - p : a + b;
    return (a + b) % p;
}

word zp_sub(uint64_t p, word a, word b)
{
    if (a < p && b < p && p < ((uint64_t)1 << 63))
        return a >= b ? a - b : a + p - b;
    return (a + p - b) % p;
}

word zp_mul(uint64_t p, word a, word b)
{
    if ((a | b) < ((uint64_t)1 << 32))
        return (a * b) % p;
    return (word)(((unsigned __int128)a * b) % p);
}

word zp_pow(uint64_t p, word a, uint64_t e)
{
    word x = 1;
    for (a %= p; e; e >>= 1, a = zp_mul(p, a, a))
        if (e & 1)
            x = zp_mul(p, x, a);
    return x;
}

void exec_ops(exec_thread *t, long n) { exec_ops_fast(t, n); }

word exec_zp_add(exec_thread *t, word a, word b) { return exec_zp_add_fast(t, a, b); }
word exec_zp_sub(exec_thread *t, word a, word b) { return exec_zp_sub_fast(t, a, b); }
word exec_zp_mul(exec_thread *t, word a, word b) { return exec_zp_mul_fast(t, a, b); }

word exec_zp_pow(exec_thread *t, word a, uint64_t e)
{
    word x = 1;
    double mulmods = 0, loops = 0;
    for (a %= t->block->p; e; e >>= 1, loops++) {
        if (e & 1) {
            x = exec_zp_mul(t, x, a);
            mulmods++;
        }
        if (e > 1) {
            a = exec_zp_mul(t, a, a);
            mulmods++;
        }
    }
    stream_extra(mulmods, loops); /* the loop runs in here, not in the kernel's code */
    return x;
}

word exec_zp_inv(exec_thread *t, word a) { return exec_zp_pow(t, a, t->block->p - 2); }

/* ---- errors ----------------------------------------------------------------- */

/* The block of t fails with one message (its first error only), kept by
 * its worker until the launch ends; a rule broken by one thread names the
 * block and the thread, a race names its threads itself. */
static void block_fails(exec_thread *t, int name_thread, const char *fmt, va_list ap)
    __attribute__((format(printf, 3, 0)));

static void block_fails(exec_thread *t, int name_thread, const char *fmt, va_list ap)
{
    exec_block *b = t->block;
    if (b->failed)
        return;
    b->failed = 1;
    char detail[512];
    vsnprintf(detail, sizeof detail, fmt, ap);
    if (name_thread)
        snprintf(b->error, sizeof b->error, "program '%s', kernel '%s', block %ld, step %d, thread %d: %s",
                 b->run->dag->name, b->k->name, t->bid, t->step, t->tid, detail);
    else
        snprintf(b->error, sizeof b->error, "program '%s', kernel '%s', step %d: %s", b->run->dag->name,
                 b->k->name, t->step, detail);
}

static void rule_broken(exec_thread *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void rule_broken(exec_thread *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    block_fails(t, 1, fmt, ap);
    va_end(ap);
}

static void race(exec_thread *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void race(exec_thread *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    block_fails(t, 0, fmt, ap);
    va_end(ap);
}

static void crew(exec_thread *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void crew(exec_thread *t, const char *fmt, ...)
{
    exec_block *b = t->block;
    if (b->failed)
        return;
    b->failed = 1;
    char detail[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(detail, sizeof detail, fmt, ap);
    va_end(ap);
    snprintf(b->error, sizeof b->error, "program '%s', kernel '%s', block %ld, step %d: %s", b->run->dag->name,
             b->k->name, t->bid, t->step, detail);
}

/* ---- the step's uses ------------------------------------------------------------ */

/* A new step: a tag for the marks, a stamp for the private
 * uses (when the stamps wrap, the global uses are cleared and the private
 * words' stamps start again at 1 for those of the block's steps, 0 for
 * the rest: no stale stamp may pass for the present, and the words the
 * block wrote stay so, private_use). */
static void next_step(exec_block *b)
{
    if (!b->race_free)
        do
            b->step_tag = (write_mark)((__atomic_add_fetch(&b->run->steps, 1, __ATOMIC_RELAXED) * 0x9E3779B1u) >> 16);
        while (b->step_tag == 0);
    b->uses_n = 0;
    b->windows = 0;
    b->window_n = 0;
    b->pending_n = 0;
    b->deferred = 0;
    b->pending_lo = b->deferred_lo = UINTPTR_MAX;
    b->pending_hi = b->deferred_hi = 0;
    b->pending_seen = b->deferred_seen = 0;
    if (++b->step_stamp == 0) {
        for (long i = 0; i <= b->private_words; i++) {
            uint32_t stamp = b->private_step[i].stamp;
            b->private_step[i].stamp = b->block_step != 0 && stamp >= b->block_step;
        }
        memset(b->uses, 0, sizeof *b->uses * b->uses_cap);
        if (b->window)
            memset(b->window, 0, sizeof *b->window * USE_WINDOWS * USE_WINDOW_CELLS);
        b->block_step = 1;
        b->step_stamp = 2;
    }
}

/* The log slot of this step's write of `cell`, or −1 (marked or not). */
static int32_t find_write(const exec_block *b, const mem_word *cell)
{
    for (long j = b->log_n - 1; j >= 0; j--) /* a thread's rewrite: among its own latest writes */
        if (b->log[j].cell == cell)
            return (int32_t)j;
    return -1;
}

/* Private word i's use in the current step (made if new). */
static inline step_use *private_use_of(exec_block *b, long i)
{
    private_use *p = &b->private_step[i];
    if (p->stamp != b->step_stamp)
        p->stamp = b->step_stamp, p->use = unused;
    return &p->use;
}

/* ---- races (see the top of this file) ------------------------------------ */

#define RULE_STEP "(rule: race-free steps: the card runs a step's threads in no fixed order; " \
                  "read and write the cell in different steps)"
#define RULE_LAUNCH "(rule: race-free blocks: the card runs a launch's blocks in no fixed order; " \
                    "a cell one block writes is read or written by no other block of the launch)"

/* Blocks raced, seen by several workers: the launch stops, unnamed (see
 * "Races"). */
static void blocks_raced(exec_thread *t)
{
    exec_block *b = t->block;
    __atomic_store_n(&b->launch->raced, 1, __ATOMIC_RELAXED);
    b->failed = 1;
}

/* 1 if a[i] is the cell the run watches (exec_watch_race), in its launch. */
static int is_watched(const exec_block *b, gmem a, long i)
{
    const race_watch *w = b->run->watch;
    return b->watching && a->id == w->cell.array && i == w->cell.index;
}

/* In the launch of the cell its run watches, thread tid of the cell's
 * block touched a[i] first, or wrote it: the thread the race's message
 * names. */
static void watch_thread(const exec_block *b, gmem a, long i, int tid)
{
    if (is_watched(b, a, i))
        b->run->watch->thread = tid;
}

/* "5 (thread 3)", or "5" where the thread is not known (thread < 0). */
static const char *block_named(char *out, size_t size, uint32_t bid, int thread)
{
    if (thread < 0)
        snprintf(out, size, "%u", bid);
    else
        snprintf(out, size, "%u (thread %d)", bid, thread);
    return out;
}

/* Block t->bid meets a race on a[i], whose shadow is old, on one thread:
 * the blocks run in order, so it is the later of the two and the shadow
 * names the earlier, which wrote the cell or read it first.  Its thread
 * is known in the run that watches the cell; otherwise the cell is owed
 * a message that names it (exec_race_pending). */
static void race_between_blocks(exec_thread *t, gmem a, long i, int write, cell_shadow old)
{
    exec_run *r = t->block->run;
    int named = is_watched(t->block, a, i);
    char me[48], them[48];
    block_named(me, sizeof me, (uint32_t)t->bid, named ? t->tid : -1);
    block_named(them, sizeof them, shadow_block(old), named ? r->watch->thread : -1);
    const char *unnamed = named ? "" : "; a run that watches the cell (exec_watch_race) names the threads";
    if (!named && !t->block->failed) { /* the block's message: its first error's */
        races.pending = EXEC_RACE_UNNAMED;
        races.cell = (exec_race_cell){r->ordinal, r->launch, a->id, i};
    }
    if (!write)
        race(t, "block %s reads %s[%ld], which block %s writes in the same launch " RULE_LAUNCH "%s", me, a->name, i,
             them, unnamed);
    else if (old & SHADOW_WRITTEN)
        race(t, "blocks %s and %s both write %s[%ld] in the same launch " RULE_LAUNCH "%s", them, me, a->name, i,
             unnamed);
    else
        race(t, "block %s writes %s[%ld], which block %s reads in the same launch " RULE_LAUNCH "%s", me, a->name, i,
             them, unnamed);
}

/* Block t->bid reads (write = 0) or writes global cell a[i] in the
 * current launch (see "Races").  1 when the block has the cell to itself
 * (its use in the step is then its worker's: global_use), 0 when blocks
 * share it (read only: no step can have written it), -1 after a race. */
static int note_block(exec_thread *t, gmem a, long i, int write)
{
    exec_block *b = t->block;
    cell_shadow *s = &a->shadows[i];
    cell_shadow mine = shadow_of((uint32_t)t->bid);
    for (;;) {
        cell_shadow old = b->concurrent ? __atomic_load_n(s, __ATOMIC_RELAXED) : *s;
        if (old == 0) { /* the first touch of the launch */
            if (!touch_set(b, s, old, mine | (write ? SHADOW_WRITTEN : 0)))
                continue;
            note_touched(b, a->id, i);
            watch_thread(b, a, i, t->tid);
            return 1;
        }
        if (old & SHADOW_SHARED) { /* read by two blocks or more */
            if (!write)
                return 0;
        } else if ((old & SHADOW_BLOCK_MASK) == mine) { /* this block's: the first read, or its writes */
            if (write && old != (mine | SHADOW_WRITTEN) && !touch_set(b, s, old, mine | SHADOW_WRITTEN))
                continue;
            if (write)
                watch_thread(b, a, i, t->tid);
            return 1;
        } else if (!write && !(old & SHADOW_WRITTEN)) { /* read by another block too */
            if (!touch_set(b, s, old, old | SHADOW_SHARED))
                continue;
            return 0;
        }
        if (b->shared)
            blocks_raced(t);
        else
            race_between_blocks(t, a, i, write, old);
        return -1;
    }
}

/* Twice the room, the step's entries kept. */
void exec_grow_uses(exec_block *b)
{
    cell_use *old = b->uses;
    size_t cap = b->uses_cap;
    b->uses_cap = cap ? 2 * cap : 1024;
    b->uses = calloc(b->uses_cap, sizeof *b->uses);
    b->uses_n = 0;
    for (size_t j = 0; j < cap; j++)
        if (old[j].stamp == b->step_stamp)
            *table_use(b, old[j].cell) = old[j].use;
    free(old);
}

void exec_enter_pending(exec_block *b)
{
    for (long j = 0; j < b->pending_n; j++)
        add_reader(step_use_of(b, b->pending[j].cell), b->pending[j].tid);
    b->pending_n = 0;
    b->pending_lo = UINTPTR_MAX;
    b->pending_hi = 0;
    b->pending_seen = 0;
}

void exec_enter_deferred(exec_block *b)
{
    for (long j = b->log_n - b->deferred; j < b->log_n; j++)
        step_use_of(b, b->log[j].cell)->slot = (int32_t)j;
    b->deferred = 0;
    b->deferred_lo = UINTPTR_MAX;
    b->deferred_hi = 0;
    b->deferred_seen = 0;
}

void exec_grow_pending(exec_block *b)
{
    b->pending_cap = b->pending_cap ? 2 * b->pending_cap : 1024;
    b->pending = realloc(b->pending, sizeof *b->pending * (size_t)b->pending_cap);
}

/* Thread t reads name[i] (global: of a global array), whose use in the
 * step is u, in a race-free run.  Returns the log slot of the cell's
 * write earlier in this step (the caller returns that write, as the card
 * would for t's own), else -1; a private word has no slot (its write
 * changed it at once). */
static int32_t note_read(exec_thread *t, step_use *u, int global, const char *name, long i)
{
    exec_block *b = t->block;
    int tid = t->tid;
    int writer = u->slot < 0 ? -1 : global ? b->log[u->slot].thread : u->slot;
    if (writer >= 0 && writer != tid)
        race(t, "block %ld: thread %d reads %s[%ld], which thread %d writes in the same step " RULE_STEP, t->bid,
             tid, name, i, writer);
    add_reader(u, tid);
    return global ? u->slot : -1;
}

/* Thread t writes name[i], whose use in the step is u, in a race-free
 * run: another thread's read of it in this step is a race.  (Two writers
 * in one step of a block are the write log's CREW error.) */
static void note_write(exec_thread *t, const step_use *u, const char *name, long i)
{
    int tid = t->tid;
    if (read_by_another(u, tid))
        race(t, "block %ld: thread %d writes %s[%ld], which thread %d reads in the same step " RULE_STEP, t->bid, tid,
             name, i, u->reader != tid ? u->reader : u->reader2);
}

/* A word of memory is the card's: 32 bits (mem_word).  1 if v fits. */
static int word_fits(exec_thread *t, const char *name, long i, word v)
{
    if (v <= UINT32_MAX)
        return 1;
    rule_broken(t, "writes %llu to %s[%ld]: a word of memory is 32 bits on the card (compute in 64 bits, "
                   "store below 2^32)", (unsigned long long)v, name, i);
    return 0;
}

/* ---- accesses --------------------------------------------------------------- */

static inline long group_of(const exec_block *b, long i)
{
    return b->warp_shift >= 0 ? i >> b->warp_shift : i / b->warp;
}

/* The tally of a round no lane has made yet. */
static const round_tally no_lane = {.last = -1};

/* The private notes' lane rows, each `old` rounds long, moved to rows of
 * `cap` rounds (cap > old; the room is there): from the last lane down,
 * so that no row is overwritten before it has moved. */
static void spread_lane_rows(exec_block *b, int old, int cap)
{
    long *keys = b->private_keys;
    for (long lane = (1L << b->lanes_shift) - 1; lane > 0; lane--)
        memmove(&keys[lane * cap], &keys[lane * old], sizeof *keys * (size_t)old);
}

/* Room for rounds 0 .. need (the notes made so far kept: a global round's
 * row is where it was, the new rows after it; a lane's private row keeps
 * its rounds, moved to where its longer row begins). */
static void grow_rounds(exec_block *b, int need)
{
    int cap = b->rounds_cap;
    while (cap <= need)
        cap *= 2;
    for (int kind = 0; kind < N_KINDS; kind++) {
        int tallied = b->tallies[kind] ? b->rounds_cap : 0;
        if (kind != PRIVATE_ACCESS)
            b->notes[kind] = realloc(b->notes[kind], sizeof(access_note) * ((size_t)cap << b->lanes_shift));
        b->tallies[kind] = realloc(b->tallies[kind], sizeof(round_tally) * (size_t)cap);
        for (int k = tallied; k < cap; k++)
            b->tallies[kind][k] = no_lane;
    }
    int kept = b->private_keys != NULL; /* rows to move */
    b->private_keys = realloc(b->private_keys, sizeof *b->private_keys * ((size_t)cap << b->lanes_shift));
    if (kept)
        spread_lane_rows(b, b->rounds_cap, cap);
    b->rounds_cap = cap;
    b->rounds_shift = __builtin_ctz((unsigned)cap);
    b->private_row = key_at(b, PRIVATE_ACCESS, b->lane, 0);
    b->fast_rounds = b->warp_shift < 0 || b->watching ? 0 : cap;
    b->fast_private_rounds = b->whole_costs ? b->fast_rounds : 0;
}

/* The running thread's next access of `kind`, with its note's key (a
 * global cell's access_key, or a private word): noted for its lane.
 * Keys are >= 0.  Returns the round's tally. */
static inline round_tally *note_access(exec_block *b, int kind, long key)
{
    int round = b->now->rounds[kind]++;
    if (__builtin_expect(round >= b->rounds_cap, 0))
        grow_rounds(b, round);
    *key_at(b, kind, b->lane, round) = key;
    return &b->tallies[kind][round];
}

/* The address group of a global access's note (access_key): array and
 * group, in the order of the cells. */
static inline long group_key(const exec_block *b, long key)
{
    return key >> ACCESS_INDEX_BITS << ACCESS_INDEX_BITS | group_of(b, key & ACCESS_INDEX);
}

/* The checked paths' note of the running thread's access of `kind` (a
 * global read or write) to a[i]: as note_access, its address group
 * tallied, and as global_noted for the caches. */
static inline void note_global(exec_block *b, int kind, gmem a, long i)
{
    long key = access_key(a->id, i);
    tally(note_access(b, kind, key), group_key(b, key));
    note_chain_read(b, kind, b->now->rounds[kind] - 1);
}

static word __attribute__((noinline, cold)) read_outside(exec_thread *t, gmem a, long i)
{
    rule_broken(t, "reads %s[%ld], outside its %ld cells", a->name, i, a->size);
    return 0;
}

/* A race-free run's read of a[i] (see "Races" above). */
static word __attribute__((noinline)) read_race_free(exec_thread *t, gmem a, long i)
{
    exec_block *b = t->block;
    if (note_block(t, a, i, 0) <= 0) /* shared: no write in the launch; or a race */
        return a->cells[i];
    int32_t own = note_read(t, global_use(b, &a->cells[i]), 1, a->name, i);
    return own >= 0 ? b->log[own].value : a->cells[i];
}

word exec_gread_checked(exec_thread *t, gmem a, long i)
{
    exec_block *b = t->block;
    if ((unsigned long)i >= (unsigned long)a->size)
        return read_outside(t, a, i);
    note_global(b, GLOBAL_READ, a, i);
    if (__builtin_expect(b->race_free, 0))
        return read_race_free(t, a, i);
    return a->cells[i];
}

/* A second write to a cell in this step, whose first is log entry `slot`:
 * the same thread's last write wins; another thread's is a CREW error. */
static void __attribute__((noinline)) rewrite(exec_thread *t, int32_t slot, word value, const char *name,
                                              long index)
{
    exec_block *b = t->block;
    logged_write *w = &b->log[slot];
    if (w->thread != t->tid)
        crew(t, "threads %d and %d both write %s[%ld] (rule: CREW, concurrent reads but exclusive writes)",
             w->thread, t->tid, name, index);
    w->value = (mem_word)value;
}

static void __attribute__((noinline)) grow_log(exec_block *b)
{
    b->log_cap = b->log_cap ? 2 * b->log_cap : 1024;
    b->log = realloc(b->log, sizeof *b->log * (size_t)b->log_cap);
}

/* The step's write log, with the CREW check: a cell written by two
 * threads in one step is an error.  *slot: the cell's write in the log,
 * or −1. */
static inline void log_write(exec_thread *t, int32_t *slot, mem_word *cell, word value, const char *name, long index)
{
    exec_block *b = t->block;
    if (__builtin_expect(*slot >= 0, 0)) {
        rewrite(t, *slot, value, name, index);
        return;
    }
    if (__builtin_expect(b->log_n == b->log_cap, 0))
        grow_log(b);
    *slot = (int32_t)b->log_n;
    b->log[b->log_n++] = (logged_write){cell, (mem_word)value, t->tid};
}

static void __attribute__((noinline, cold)) write_outside(exec_thread *t, gmem a, long i)
{
    rule_broken(t, "writes %s[%ld], outside its %ld cells", a->name, i, a->size);
}

void exec_gwrite_checked(exec_thread *t, gmem a, long i, word v)
{
    exec_block *b = t->block;
    if ((unsigned long)i >= (unsigned long)a->size) {
        write_outside(t, a, i);
        return;
    }
    if (!word_fits(t, a->name, i, v))
        return;
    note_global(b, GLOBAL_WRITE, a, i);
    int32_t *slot, marked;
    if (__builtin_expect(b->race_free, 0)) {
        if (note_block(t, a, i, 1) < 0)
            return; /* a race: the launch stops */
        step_use *u = global_use(b, &a->cells[i]);
        note_write(t, u, a->name, i);
        slot = &u->slot;
    } else {
        write_mark *mark = &a->marks[i];
        marked = *mark == b->step_tag ? find_write(b, &a->cells[i]) : -1;
        slot = &marked;
        *mark = b->step_tag;
    }
    log_write(t, slot, &a->cells[i], v, a->name, i);
}

static int private_ok(exec_thread *t, long i, const char *verb)
{
    exec_block *b = t->block;
    if (__builtin_expect((unsigned long)i < (unsigned long)b->private_words, 1))
        return 1;
    rule_broken(t, "private memory: %s word %ld, outside the kernel's %ld words", verb, i, b->private_words);
    return 0;
}

/* A private access is a local operation, and graded by the DMM rule. */
static inline void note_private(exec_block *b, long i)
{
    tally_private(note_access(b, PRIVATE_ACCESS, i), i);
    if (!b->whole_costs)
        b->now->ops += 1;
}

word exec_pread_checked(exec_thread *t, long i)
{
    if (!private_ok(t, i, "reads"))
        return 0;
    exec_block *b = t->block;
    note_private(b, i);
    if (__builtin_expect(b->race_free, 0)) {
        if (b->private_step[i].stamp < b->block_step) /* before its use is made: private_use */
            race(t, "block %ld: thread %d reads private[%ld], which no thread of the block wrote before (rule: "
                    "private memory starts undefined on the card, as shared memory does)", t->bid, t->tid, i);
        note_read(t, private_use_of(b, i), 0, "private", i);
    }
    return b->private_cells[i];
}

void exec_pwrite_checked(exec_thread *t, long i, word v)
{
    exec_block *b = t->block;
    if (!private_ok(t, i, "writes") || !word_fits(t, "private", i, v))
        return;
    note_private(b, i);
    step_use *u = private_use_of(b, i);
    if (!b->race_free) {
        log_write(t, &u->slot, &b->private_cells[i], v, "private", i);
        return;
    }
    note_write(t, u, "private", i);
    if (u->slot < 0)
        u->slot = t->tid;
    else if (u->slot != t->tid)
        crew(t, "threads %d and %d both write private[%ld] (rule: CREW, concurrent reads but exclusive writes)",
             u->slot, t->tid, i);
    b->private_cells[i] = (mem_word)v;
}

/* The accesses: their fast paths (exec_block.h), the rest by the checked
 * paths above. */
word exec_gread(exec_thread *t, gmem a, long i) { return exec_gread_fast(t, a, i); }
void exec_gwrite(exec_thread *t, gmem a, long i, word v) { exec_gwrite_fast(t, a, i, v); }
word exec_pread(exec_thread *t, long i) { return exec_pread_fast(t, i); }
void exec_pwrite(exec_thread *t, long i, word v) { exec_pwrite_fast(t, i, v); }

/* ---- grading a warp's rounds ---------------------------------------------- */

/* keys[0 .. n) in increasing order: insertion for a warp's few, nearly
 * sorted keys; qsort for many. */
static int compare_keys(const void *x, const void *y)
{
    long a = *(const long *)x, b = *(const long *)y;
    return (a > b) - (a < b);
}

static void sort_keys(long *keys, int n)
{
    if (n > 64) {
        qsort(keys, (size_t)n, sizeof *keys, compare_keys);
        return;
    }
    for (int i = 1; i < n; i++) {
        long key = keys[i];
        int j = i;
        for (; j > 0 && keys[j - 1] > key; j--)
            keys[j] = keys[j - 1];
        keys[j] = key;
    }
}

/* The keys of round k from the lanes first..last that made it, in
 * keys[]; their number. */
static int round_keys(const exec_block *b, int kind, int first, int last, int k, long *keys)
{
    int n = 0;
    for (int t = first; t <= last; t++)
        if (b->threads_of[t].rounds[kind] > k)
            keys[n++] = *key_at(b, kind, t - first, k);
    return n;
}

/* Distinct address groups among the lanes first..last that made global
 * round k. */
static int distinct_keys(const exec_block *b, int kind, int first, int last, int k)
{
    long keys[1024];
    int n = round_keys(b, kind, first, last, k, keys);
    for (int i = 0; i < n; i++)
        keys[i] = group_key(b, keys[i]);
    sort_keys(keys, n);
    int distinct = n > 0;
    for (int i = 1; i < n; i++)
        distinct += keys[i] != keys[i - 1];
    return distinct;
}

/* The bank of private word `key` (>= 0): a mask where the warp is a
 * power of two. */
static inline int bank_of(const exec_block *b, long key)
{
    return (int)(b->warp_shift >= 0 ? key & (b->warp - 1) : key % b->warp);
}

/* DMM: the most distinct addresses that one bank must serve in a round
 * whose keys (private words) are keys[0 .. n).  A word counts once: in
 * keys that never go down (not `disorder`) a word repeats only right after
 * itself; otherwise bank_seen[word] holds the stamp of the last round that
 * counted it. */
static int fullest_bank_of(exec_block *b, const long *keys, int n, int disorder)
{
    int in_bank[1024], most = 0;
    memset(in_bank, 0, sizeof *in_bank * (size_t)b->warp);
    if (!disorder) {
        for (int i = 0; i < n; i++) {
            int bank = bank_of(b, keys[i]);
            if ((i == 0 || keys[i] != keys[i - 1]) && ++in_bank[bank] > most)
                most = in_bank[bank];
        }
        return most;
    }
    if (++b->bank_stamp == 0) { /* the stamps wrapped: none is taken for the present */
        memset(b->bank_seen, 0, sizeof *b->bank_seen * (size_t)(b->private_words + 1));
        b->bank_stamp = 1;
    }
    for (int i = 0; i < n; i++)
        if (b->bank_seen[keys[i]] != b->bank_stamp) {
            b->bank_seen[keys[i]] = b->bank_stamp;
            int bank = bank_of(b, keys[i]);
            if (++in_bank[bank] > most)
                most = in_bank[bank];
        }
    return most;
}

/* The same for private round k, from the lanes first..last that made it. */
static int fullest_bank(exec_block *b, int first, int last, int k, int disorder)
{
    long keys[1024];
    int n = round_keys(b, PRIVATE_ACCESS, first, last, k, keys);
    return fullest_bank_of(b, keys, n, disorder);
}

static long gcd(long a, long b) { return b ? gcd(b, a % b) : a; }

/* The first key of round k among the lanes first..last (one made it). */
static long first_key(const exec_block *b, int kind, int first, int last, int k)
{
    int t = first;
    while (t < last && b->threads_of[t].rounds[kind] <= k)
        t++;
    return *key_at(b, kind, t - first, k);
}

/* The fullest bank's words where n distinct words a stride d > 0 apart
 * visit v = w/gcd(d, w) banks in turn: ⌈n/v⌉ (by shifts where w is a
 * power of two: v = 2^(log2 w − min(tz(d), log2 w))). */
static int strided_bank(const exec_block *b, long n, long d)
{
    if (b->warp_shift < 0) {
        long visited = b->warp / gcd(d, b->warp);
        return (int)((n + visited - 1) / visited);
    }
    int tz = __builtin_ctzl((unsigned long)d);
    int shift = b->warp_shift - (tz < b->warp_shift ? tz : b->warp_shift);
    return (int)((n + (1L << shift) - 1) >> shift);
}

/* The step between the distinct keys of a private round, keys[0 .. n),
 * which never go down, while they go up by one step; 0 once they do not
 * (or with fewer than two). */
static long keys_stride(const long *keys, int n)
{
    long stride = 0;
    int distinct = n > 0;
    for (int i = 1; i < n; i++)
        if (keys[i] != keys[i - 1]) {
            long step = keys[i] - keys[i - 1];
            if (distinct++ == 1)
                stride = step;
            else if (step != stride)
                return 0;
        }
    return stride;
}

/* fullest_bank of a private round whose keys never went down and span a
 * warp's banks or more (banks_in_order): its keys read from the notes,
 * strided_bank where their gaps are even. */
static int __attribute__((noinline)) banks_in_stride(exec_block *b, const round_tally *r, int first, int last,
                                                     int k)
{
    long keys[1024];
    int n = round_keys(b, PRIVATE_ACCESS, first, last, k, keys);
    long stride = keys_stride(keys, n);
    if (stride > 0)
        return strided_bank(b, r->distinct, stride);
    return fullest_bank_of(b, keys, n, 0);
}

/* fullest_bank of a private round whose keys never went down: words
 * within w consecutive ones fall in distinct banks (one word, the common
 * case of a word all lanes read, among them), so only a round that spans
 * w words or more needs its keys (banks_in_stride). */
static inline int banks_in_order(exec_block *b, const round_tally *r, int first, int last, int k)
{
    if (r->distinct == 1 || r->last - first_key(b, PRIVATE_ACCESS, first, last, k) < b->warp)
        return 1;
    return banks_in_stride(b, r, first, last, k);
}

/* Every round of `kind` that a lane made (rounds are made in order, so
 * the first with no lane ends them), graded and its tally cleared. */
static void grade_rounds(exec_block *b, int kind, int first, int last)
{
    round_tally *r = b->tallies[kind];
    for (int k = 0; k < b->rounds_cap && r[k].distinct > 0; k++) {
        if (kind != PRIVATE_ACCESS) {
            b->transactions[kind] += r[k].disorder ? distinct_keys(b, kind, first, last, k) : r[k].distinct;
        } else {
            int most = !r[k].disorder ? banks_in_order(b, &r[k], first, last, k)
                                      : fullest_bank(b, first, last, k, 1);
            if (most > 1)
                b->bank_conflicts += most - 1;
        }
        r[k] = no_lane;
    }
}

/* The warp of threads first..last has run the step: its rounds graded,
 * and where `fold` each thread's words and private accesses counted and
 * its rounds back to zero (after a block's last step sum_threads counts
 * them; a warp whose threads made no access, all their rounds 0:
 * nothing to do). */
/* A thread's rounds of the step counted as its words and private
 * accesses (one round an access), and back to zero. */
static inline void fold_rounds(thread_record *th)
{
    th->words_read += th->rounds[GLOBAL_READ];
    th->words_written += th->rounds[GLOBAL_WRITE];
    th->counts[COUNT_PRIVATE] += (uint32_t)th->rounds[PRIVATE_ACCESS];
    th->rounds[GLOBAL_READ] = th->rounds[GLOBAL_WRITE] = th->rounds[PRIVATE_ACCESS] = 0;
}

static void grade_warp(exec_block *b, int first, int last, int fold)
{
    if (b->tallies[GLOBAL_READ][0].distinct == 0 && b->tallies[GLOBAL_WRITE][0].distinct == 0 &&
        b->tallies[PRIVATE_ACCESS][0].distinct == 0)
        return;
    for (int kind = 0; kind < N_KINDS; kind++)
        grade_rounds(b, kind, first, last);
    for (int t = first; fold && t <= last; t++)
        fold_rounds(&b->threads_of[t]);
}

/* ---- running a block ---------------------------------------------------------- */

static void commit_step(exec_block *b)
{
    for (long i = 0; i < b->log_n; i++)
        *b->log[i].cell = b->log[i].value;
    b->log_n = 0;
}

/* The block's operations by class (sim/model/kernel_dag.h), given `mine`, the
 * counts of the thread whose operations make S(B): mulmods, addmods and
 * private accesses as counted, a barrier between each two steps, and as
 * plain what the count holds beyond them (S(B) and W(B) charge a mulmod
 * mul_ops and an addmod add_ops). */
static void measured_classes(const exec_block *b, const uint32_t *mine, block_cost *cost)
{
    const double *total = b->counted;
    double barriers = b->k->n_steps - 1;
    double mul = b->mul_ops, add = b->add_ops;
    cost->classes = 1;
    cost->span_ops[OP_MULMOD] = mine[COUNT_MULMOD];
    cost->span_ops[OP_ADDMOD] = mine[COUNT_ADDMOD];
    cost->span_ops[OP_PRIVATE] = mine[COUNT_PRIVATE];
    cost->span_ops[OP_BARRIER] = barriers;
    cost->span_ops[OP_PLAIN] = fmax(0, cost->span - mul * mine[COUNT_MULMOD] - add * mine[COUNT_ADDMOD] -
                                           mine[COUNT_PRIVATE]);
    cost->work_ops[OP_MULMOD] = total[COUNT_MULMOD];
    cost->work_ops[OP_ADDMOD] = total[COUNT_ADDMOD];
    cost->work_ops[OP_PRIVATE] = total[COUNT_PRIVATE];
    cost->work_ops[OP_BARRIER] = barriers * b->threads;
    cost->work_ops[OP_PLAIN] = fmax(0, cost->work - mul * total[COUNT_MULMOD] - add * total[COUNT_ADDMOD] -
                                           total[COUNT_PRIVATE]);
}

/* The warp of threads first..last has run step `step`: its global
 * accesses, as noted, to the caches (before grade_warp clears its
 * rounds). */
static void trace_warp(exec_block *b, int step, int first, int last)
{
    if (b->tallies[GLOBAL_READ][0].distinct == 0 && b->tallies[GLOBAL_WRITE][0].distinct == 0)
        return; /* no lane made a global access: no round to record */
    int made[2][1024], most[2] = {0, 0}, fewest[2] = {INT_MAX, INT_MAX};
    for (int t = first; t <= last; t++)
        for (int k = 0; k < 2; k++) { /* GLOBAL_READ, GLOBAL_WRITE */
            int n = made[k][t - first] = b->threads_of[t].rounds[k];
            most[k] = n > most[k] ? n : most[k];
            fewest[k] = n < fewest[k] ? n : fewest[k];
        }
    warp_notes w = {{b->notes[GLOBAL_READ], b->notes[GLOBAL_WRITE]}, {made[0], made[1]}, {most[0], most[1]},
                    {fewest[0], fewest[1]}, 1L << b->lanes_shift, last - first + 1};
    cache_warp_done(b->trace, step, first / b->warp, &w);
}

/* Every step of the block, each thread in order, warp by warp; a warp
 * graded when its last thread is done, the writes committed when the step
 * is. */
static void run_steps(exec_block *b, long bid, long blocks)
{
    int l = b->threads;
    for (int s = 0; s < b->k->n_steps && !b->failed; s++) {
        next_step(b);
        exec_thread t = {0, l, bid, blocks, b->launch->numbers ? b->launch->numbers[s] : s, b, -1};
        exec_step step = b->k->steps[s];
        void *args = b->args;
        for (int first = 0; first < l; first += b->warp) {
            int last = l - first > b->warp ? first + b->warp - 1 : l - 1;
            b->warp_first = first;
            for (t.tid = first; t.tid <= last; t.tid++) {
                exec_thread_next(b, t.tid);
                if (b->stream)
                    stream_thread(b->stream);
                t.last = b->stream ? -1 : last; /* a step of mcm_kernel.h's plain build runs on to it itself */
                step(&t, args);
            }
            if (b->stream)
                stream_warp_end(b->stream);
            if (b->trace)
                trace_warp(b, s, first, last);
            grade_warp(b, first, last, s + 1 < b->k->n_steps);
        }
        if (b->stream)
            stream_step_end(b->stream);
        commit_step(b);
    }
}

/* The block's figures from its threads' records, which go back to zero
 * (their last step's rounds counted first: grade_warp leaves them):
 * S(B), W(B), α, β, the class counts of the thread that makes S(B) and the
 * block's sums. */
typedef struct block_figures {
    double span, work;
    long alpha, beta;
    uint32_t longest[N_COUNTED];
} block_figures;

/* A thread's operations where the costs are whole and small (whole_sum:
 * `ops` is 0): the integer sum exec_ops, the Z/pZ operations and the private
 * accesses make, or -1 where it could reach 2^53.  Below 2^53 every
 * partial sum of the floating-point expression sum_threads would take
 * (whole_ops, then add·adds + mul·muls + privates) is a whole number held
 * exactly, so it is the same number. */
#define WHOLE_COST_LIMIT (1L << 19) /* costs below it: each product < 2^51 */
#define WHOLE_OPS_LIMIT (1L << 50)

static inline int64_t whole_sum(const thread_record *th, int64_t add, int64_t mul)
{
    if ((uint64_t)th->whole_ops >= (uint64_t)WHOLE_OPS_LIMIT)
        return -1;
    return th->whole_ops + add * th->counts[COUNT_ADDMOD] + mul * th->counts[COUNT_MULMOD] +
           th->counts[COUNT_PRIVATE];
}

/* A thread's operations: its `ops` and `whole_ops` (one of the two is 0),
 * and where the costs are whole its Z/pZ operations' costs and private
 * accesses; by whole_sum where `in_integers` (the same number). */
static inline double thread_ops(const exec_block *b, const thread_record *th, int in_integers, int64_t add,
                                int64_t mul)
{
    int64_t sum = in_integers ? whole_sum(th, add, mul) : -1;
    if (sum >= 0)
        return (double)sum;
    double ops = th->ops + (double)th->whole_ops;
    if (b->whole_costs)
        ops += b->add_ops * th->counts[COUNT_ADDMOD] + b->mul_ops * th->counts[COUNT_MULMOD] +
               th->counts[COUNT_PRIVATE];
    return ops;
}

static block_figures sum_threads(exec_block *b)
{
    block_figures f = {0};
    double span = 0, work = 0;
    long alpha = 0, beta = 0;
    uint64_t mulmods = 0, addmods = 0, privates = 0;
    int in_integers = b->whole_costs && b->add_ops >= 0 && b->add_ops < WHOLE_COST_LIMIT && b->mul_ops >= 0 &&
                      b->mul_ops < WHOLE_COST_LIMIT;
    int64_t add = in_integers ? (int64_t)b->add_ops : 0, mul = in_integers ? (int64_t)b->mul_ops : 0;
    for (int i = 0; i < b->threads; i++) {
        thread_record *th = &b->threads_of[i];
        fold_rounds(th);
        double ops = thread_ops(b, th, in_integers, add, mul);
        if (ops > span) {
            span = ops;
            memcpy(f.longest, th->counts, sizeof f.longest);
        }
        work += ops;
        alpha = th->words_read > alpha ? th->words_read : alpha;
        beta = th->words_written > beta ? th->words_written : beta;
        mulmods += th->counts[COUNT_MULMOD];
        addmods += th->counts[COUNT_ADDMOD];
        privates += th->counts[COUNT_PRIVATE];
        *th = (thread_record){0};
    }
    b->counted[COUNT_MULMOD] = (double)mulmods;
    b->counted[COUNT_ADDMOD] = (double)addmods;
    b->counted[COUNT_PRIVATE] = (double)privates;
    f.span = span;
    f.work = work;
    f.alpha = alpha;
    f.beta = beta;
    return f;
}

/* Run block `bid` and measure it into *out (zeroed first: results are
 * compared byte for byte). */
static void run_block(exec_block *b, long bid, long blocks, block_result *out)
{
    int l = b->threads;
    memset(b->private_cells, 0, sizeof *b->private_cells * (size_t)(b->private_words + 1));
    b->block_step = b->step_stamp + 1; /* its first step's (next_step; 0 if that wraps) */
    b->transactions[GLOBAL_READ] = b->transactions[GLOBAL_WRITE] = b->bank_conflicts = 0;
    run_steps(b, bid, blocks);
    block_figures f = sum_threads(b);
    double reads = b->transactions[GLOBAL_READ], writes = b->transactions[GLOBAL_WRITE];
    /* a round of ℓ threads in one address group per warp costs U: one
     * coalesced word per thread, as in the paper */
    double per_transaction = (double)(b->warp < l ? b->warp : l) / l;
    memset(out, 0, sizeof *out);
    block_cost *cost = &out->cost;
    cost->span = f.span;
    cost->work = f.work;
    cost->reads = reads * per_transaction;
    cost->writes = writes * per_transaction;
    measured_classes(b, f.longest, cost);
    cost->bank_conflicts = b->bank_conflicts;
    if (b->stream)
        stream_block_end(b->stream, l, cost);
    if (b->trace && cache_block_done(b->run->caches, bid, b->trace, &cost->sectors) < 0) {
        char why[512];
        snprintf(why, sizeof why, "%s", fail_message());
        snprintf(b->error, sizeof b->error, "program '%s', kernel '%s': %s", b->run->dag->name, b->k->name, why);
        b->failed = 1;
    }
    out->alpha = (double)f.alpha;
    out->beta = (double)f.beta;
    out->transactions = reads + writes;
}

/* ---- a launch on the run's threads --------------------------------------------- */

/* x is a whole number that many of add up exactly (|x| < 2^31). */
static int whole(double x) { return x == floor(x) && fabs(x) < 2147483648.0; }

/* The stamp a worker's steps start after: 0, unless a test sets it
 * (exec_test.h). */
static uint32_t stamps_after;

void exec_test_stamps_after(uint32_t stamp) { stamps_after = stamp; }

/* The words of a worker's map of array a's touched chunks (touched_range). */
static long chunk_words(const gmem a)
{
    long cells = a->size > 0 ? a->size : 1;
    return ((cells + TOUCH_CHUNK - 1) >> TOUCH_CHUNK_SHIFT) / 64 + 1;
}

/* A worker for kernel k's blocks of `threads` threads. */
static void worker_begin(exec_block *b, exec_run *r, launch_state *ls, const exec_kernel *k, int threads,
                         void *args)
{
    memset(b, 0, sizeof *b);
    b->run = r;
    b->launch = ls;
    b->k = k;
    b->args = args;
    b->threads = threads;
    b->step_stamp = stamps_after;
    b->warp = r->m.warp > 1024 ? 1024 : r->m.warp;
    b->warp_shift = -1;
    for (int sh = 0; sh <= 10; sh++)
        if (b->warp == 1 << sh)
            b->warp_shift = sh;
    while (1 << b->lanes_shift < b->warp)
        b->lanes_shift++;
    b->race_free = r->race_free;
    b->shared = ls->workers > 1;
    b->concurrent = b->shared && (!r->pool || ls->started > 0); /* see start_worker */
    b->watching = r->watch && r->launch == r->watch->cell.launch;
    if (b->race_free) {
        b->touched = malloc(sizeof *b->touched * (size_t)(r->n_arrays + 1));
        for (int id = 0; id < r->n_arrays; id++)
            b->touched[id] = (touched_range){LONG_MAX, -1, calloc((size_t)chunk_words(r->arrays[id]), 8)};
    }
    b->p = r->p;
    b->barrett = r->p >= 2 && r->p < ((uint64_t)1 << 32) ? (uint64_t)(((unsigned __int128)1 << 64) / r->p) : 0;
    b->add_ops = r->add_ops;
    b->mul_ops = r->mul_ops;
    b->whole_costs = whole(r->add_ops) && whole(r->mul_ops);
    b->private_words = k->private_words;
    b->private_cells = calloc((size_t)k->private_words + 1, sizeof *b->private_cells);
    b->private_step = calloc((size_t)k->private_words + 1, sizeof *b->private_step);
    b->threads_of = calloc((size_t)threads, sizeof *b->threads_of);
    if (b->race_free) {
        exec_grow_uses(b);
        b->window = calloc(USE_WINDOWS * USE_WINDOW_CELLS, sizeof *b->window);
    }
    b->trace = r->caches ? cache_trace_new(r->caches, b->warp) : NULL;
    b->rounds_cap = 1;
    grow_rounds(b, 8);
    grow_log(b);
    b->bank_seen = calloc((size_t)k->private_words + 1, sizeof *b->bank_seen);
    b->stream = r->stream ? stream_counter_new(r->stream, b->warp, threads, k->n_steps, &r->m) : NULL;
}

static void worker_end(exec_block *b)
{
    free(b->private_cells);
    free(b->private_step);
    free(b->uses);
    free(b->window);
    free(b->pending);
    free(b->threads_of);
    for (int kind = 0; kind < N_KINDS; kind++) {
        free(b->notes[kind]);
        free(b->tallies[kind]);
    }
    free(b->private_keys);
    free(b->log);
    free(b->bank_seen);
    for (int id = 0; b->touched && id < b->run->n_arrays; id++)
        free(b->touched[id].chunks);
    free(b->touched);
    stream_counter_free(b->stream);
    cache_trace_free(b->trace);
}

/* Block `bid`'s result at the end of chunk c's runs. */
static void chunk_add(chunk *c, long bid, const block_result *res)
{
    if (c->n_runs > 0 && memcmp(&c->runs[c->n_runs - 1].result, res, sizeof *res) == 0) {
        c->runs[c->n_runs - 1].count++;
        return;
    }
    if ((c->n_runs & (c->n_runs - 1)) == 0) /* 0, 1, 2, 4, ...: full */
        c->runs = realloc(c->runs, sizeof *c->runs * (size_t)(c->n_runs ? 2 * c->n_runs : 1));
    result_run *run = &c->runs[c->n_runs++];
    run->first = bid;
    run->count = 1;
    memcpy(&run->result, res, sizeof *res); /* its padding too: runs compare bytes */
}

/* Room in r->held for `blocks` blocks' results: the run's (one worker
 * with the caches), kept from launch to launch, so that a launch's
 * results land in pages already mapped (run_block zeroes each). */
static block_result *held_results(exec_run *r, long blocks)
{
    if (blocks > r->held_cap) {
        free(r->held);
        r->held = malloc(sizeof *r->held * (size_t)blocks);
        if (!r->held) {
            fprintf(stderr, "mcmsim: out of memory\n");
            exit(70);
        }
        r->held_cap = blocks;
    }
    return r->held;
}

/* The blocks of chunk c, in order, until one fails.  With the caches (one
 * chunk: the launch), each block's result is held until the caches have
 * replayed its wave and filled its sectors (cache_launch_end). */
static void run_chunk(exec_block *b, chunk *c, long blocks)
{
    block_result one, *held = b->trace ? held_results(b->run, c->blocks) : NULL;
    for (long bid = c->first; bid < c->first + c->blocks; bid++) {
        block_result *res = held ? &held[bid - c->first] : &one;
        run_block(b, bid, blocks, res);
        if (b->failed) {
            if (b->error[0])
                c->error = strdup(b->error);
            break;
        }
        if (!held)
            chunk_add(c, bid, res);
    }
    if (!held)
        return;
    cache_launch_end(b->run->caches);
    for (long i = 0; i < c->blocks && !b->failed; i++)
        chunk_add(c, c->first + i, &held[i]);
}

/* A worker's life: the next chunk not taken, until none is left, a chunk
 * before it has failed, or blocks raced.  The first worker (the calling
 * thread) also starts the others (recruit). */
struct worker_job {
    exec_block block;
    long blocks;
};

static void recruit(launch_state *ls, exec_run *r);

static void *work(void *arg)
{
    worker_job *w = arg;
    exec_block *b = &w->block;
    launch_state *ls = b->launch;
    for (;;) {
        if (w == &ls->jobs[0])
            recruit(ls, b->run);
        long c = __atomic_fetch_add(&ls->next_chunk, 1, __ATOMIC_RELAXED);
        if (c >= ls->n_chunks || c > __atomic_load_n(&ls->failed_chunk, __ATOMIC_RELAXED) ||
            __atomic_load_n(&ls->raced, __ATOMIC_RELAXED))
            return NULL;
        b->failed = 0;
        b->error[0] = '\0';
        run_chunk(b, &ls->chunks[c], w->blocks);
        if (b->failed) {
            long seen = __atomic_load_n(&ls->failed_chunk, __ATOMIC_RELAXED);
            while (c < seen && !__atomic_compare_exchange_n(&ls->failed_chunk, &seen, c, 0, __ATOMIC_RELAXED,
                                                            __ATOMIC_RELAXED))
                ;
        }
    }
}

/* Chunks of the grid: one for a single worker; else about 16 per worker,
 * at most 4096 blocks each (so that a worker that ends early waits for
 * little). */
static void cut_chunks(launch_state *ls, long blocks, int workers)
{
    long size = workers == 1 ? blocks : blocks / (16L * workers);
    size = size < 1 ? 1 : workers > 1 && size > 4096 ? 4096 : size;
    ls->n_chunks = (blocks + size - 1) / size;
    ls->chunks = calloc((size_t)ls->n_chunks, sizeof *ls->chunks);
    for (long c = 0; c < ls->n_chunks; c++) {
        ls->chunks[c].first = c * size;
        ls->chunks[c].blocks = c + 1 < ls->n_chunks ? size : blocks - c * size;
    }
    ls->failed_chunk = ls->n_chunks;
}

/* One more worker, on a thread of its own (the calling thread is the
 * first): 0, or -1 if no thread could be had (the others take its
 * chunks).  With a pool, the first worker runs alone until it recruits
 * another (between its chunks, on its own thread), so it changes the
 * shadows by plain stores until then (`concurrent`): the thread's
 * creation makes them seen by the new worker, and every change after it
 * is a compare-and-swap. */
static int start_worker(launch_state *ls, exec_run *r)
{
    worker_job *w = &ls->jobs[ls->started];
    worker_begin(&w->block, r, ls, ls->k, ls->threads, ls->args);
    w->blocks = ls->blocks;
    if (ls->started > 0)
        ls->jobs[0].block.concurrent = 1;
    if (ls->started > 0 && pthread_create(&ls->ids[ls->started], NULL, work, w) != 0) {
        worker_end(&w->block);
        return -1;
    }
    ls->started++;
    return 0;
}

/* With a pool of cores, one worker more for each core fallen idle, while
 * chunks are left (the core is given back when the launch ends). */
static void recruit(launch_state *ls, exec_run *r)
{
    while (r->pool && ls->started < ls->workers &&
           __atomic_load_n(&ls->next_chunk, __ATOMIC_RELAXED) < ls->n_chunks) {
        int idle = __atomic_load_n(r->pool, __ATOMIC_RELAXED);
        if (idle <= 0 || !__atomic_compare_exchange_n(r->pool, &idle, idle - 1, 0, __ATOMIC_RELAXED,
                                                      __ATOMIC_RELAXED))
            return;
        if (start_worker(ls, r) < 0) {
            __atomic_add_fetch(r->pool, 1, __ATOMIC_RELAXED);
            return;
        }
    }
}

/* Whether any of the launch's workers touched a cell of chunk c of array id. */
static int chunk_touched(const launch_state *ls, int id, long c)
{
    for (int w = 0; w < ls->started; w++)
        if (ls->jobs[w].block.touched[id].chunks[c >> 6] >> (c & 63) & 1)
            return 1;
    return 0;
}

/* Every cell the launch touched back to nobody: the chunks its workers
 * touched, within the least and the greatest cell they touched (each run
 * of touched chunks one memset); the shadows hold the launch in progress
 * only. */
static void clear_touched(exec_run *r, const launch_state *ls)
{
    for (int id = 0; id < r->n_arrays; id++) {
        long lo = LONG_MAX, hi = -1;
        for (int w = 0; w < ls->started; w++) {
            const touched_range *t = &ls->jobs[w].block.touched[id];
            lo = t->lo < lo ? t->lo : lo;
            hi = t->hi > hi ? t->hi : hi;
        }
        long last = hi >> TOUCH_CHUNK_SHIFT;
        for (long c = lo >> TOUCH_CHUNK_SHIFT; lo <= hi && c <= last; c++) {
            if (!chunk_touched(ls, id, c))
                continue;
            long end = c;
            while (end < last && chunk_touched(ls, id, end + 1))
                end++;
            long from = c << TOUCH_CHUNK_SHIFT, to = ((end + 1) << TOUCH_CHUNK_SHIFT) - 1;
            from = from > lo ? from : lo;
            to = to < hi ? to : hi;
            memset(&r->arrays[id]->shadows[from], 0, sizeof(cell_shadow) * (size_t)(to - from + 1));
            c = end;
        }
    }
}

/* Run every chunk: the calling thread first, then up to `workers` − 1
 * threads (all at once without a pool; with one, as cores fall idle);
 * with a pool, the cores taken are given back. */
static void run_workers(exec_run *r, launch_state *ls)
{
    ls->jobs = calloc((size_t)ls->workers, sizeof *ls->jobs);
    ls->ids = calloc((size_t)ls->workers, sizeof *ls->ids);
    start_worker(ls, r);
    while (!r->pool && ls->started < ls->workers && start_worker(ls, r) == 0)
        ;
    work(&ls->jobs[0]);
    for (int w = 1; w < ls->started; w++)
        pthread_join(ls->ids[w], NULL);
    if (r->race_free)
        clear_touched(r, ls);
    for (int w = 0; w < ls->started; w++)
        worker_end(&ls->jobs[w].block);
    if (r->pool && ls->started > 1)
        __atomic_add_fetch(r->pool, ls->started - 1, __ATOMIC_RELAXED);
    free(ls->ids);
    free(ls->jobs);
}

/* The launch's results, in block order: the kernel's runs of costs, and
 * its report summed block after block as one thread would sum them. */
static void merge_chunks(const exec_run *r, const launch_state *ls, kernel *launched, exec_kernel_report *rep)
{
    for (long c = 0; c < ls->n_chunks; c++)
        for (long i = 0; i < ls->chunks[c].n_runs; i++) {
            const result_run *run = &ls->chunks[c].runs[i];
            const block_result *res = &run->result;
            kernel_append_costs(launched, run->first, &res->cost);
            for (long j = 0; j < run->count; j++) {
                rep->span = rep->span > res->cost.span ? rep->span : res->cost.span;
                rep->work += res->cost.work;
                rep->alpha = rep->alpha > res->alpha ? rep->alpha : res->alpha;
                rep->beta = rep->beta > res->beta ? rep->beta : res->beta;
                rep->measured_overhead += r->m.u * (res->cost.reads + res->cost.writes);
                rep->paper_overhead += r->m.u * (res->alpha + res->beta);
                rep->transactions += res->transactions;
                rep->bank_conflicts += res->cost.bank_conflicts;
            }
        }
}

static void launch_free(launch_state *ls)
{
    for (long c = 0; c < ls->n_chunks; c++) {
        free(ls->chunks[c].runs);
        free(ls->chunks[c].error);
    }
    free(ls->chunks);
}

/* A launch begins on the caches: the arrays allocated since the last
 * launch enter them first (sim/exec/cache.h), and the L1s hold what the
 * blocks resident on their SM leave of them. */
static void caches_launch(exec_run *r, const exec_kernel *k, long blocks, int threads)
{
    for (; r->restored < r->n_arrays; r->restored++)
        cache_restore_array(r->caches, r->arrays[r->restored]->id, r->arrays[r->restored]->size);
    kernel shape = {.blocks = blocks, .threads = threads, .private_words = (double)k->private_words};
    cache_launch_begin(r->caches, blocks, kernel_resident_blocks(&shape, &r->m), (double)k->private_words);
}

static int check_launch(exec_run *r, const exec_kernel *k, long blocks, int threads)
{
    if (r->raced)
        return fail("program '%s', kernel '%s': not launched: a launch before it raced", r->dag->name, k->name);
    if (blocks < 1 || threads < 1)
        return fail("program '%s', kernel '%s': a launch needs at least 1 block of 1 thread (got %ld of %d)",
                    r->dag->name, k->name, blocks, threads);
    if (blocks > INT32_MAX - 1)
        return fail("program '%s', kernel '%s': %ld blocks; exec mode runs every block for real, at most %d "
                    "in one launch", r->dag->name, k->name, blocks, INT32_MAX - 1);
    if (r->race_free && blocks > SHADOW_BLOCKS)
        return fail("program '%s', kernel '%s': %ld blocks; exec mode's race check names blocks below %ld",
                    r->dag->name, k->name, blocks, SHADOW_BLOCKS);
    if (r->race_free && threads > RACE_THREADS)
        return fail("program '%s', kernel '%s': %d threads per block; exec mode's race check names threads "
                    "below %ld (a card runs at most 1024 a block)", r->dag->name, k->name, threads, RACE_THREADS);
    if (k->private_words < 0 || (double)k->private_words > r->m.z)
        return fail("program '%s', kernel '%s': declares %ld words of private memory, but Z = %g on machine '%s' "
                    "(rule: a thread-block must fit in the private memory of one SM)",
                    r->dag->name, k->name, k->private_words, r->m.z, r->m.name);
    return 0;
}

/* The first error of the launch: the first failed chunk's (its first
 * failed block's), or the race seen by several workers. */
static int launch_failed(exec_run *r, const exec_kernel *k, const launch_state *ls)
{
    if (ls->raced) {
        r->raced = 1;
        races.pending = EXEC_RACE_UNPAIRED;
        return fail("program '%s', kernel '%s', launch %u: a global cell one block writes is read or written by "
                    "another block of the launch, seen by %d threads at once; on one thread exec mode names the "
                    "pair " RULE_LAUNCH, r->dag->name, k->name, r->launch, ls->started);
    }
    const chunk *c = &ls->chunks[ls->failed_chunk];
    return fail("%s", c->error ? c->error : "exec mode: a block failed");
}

static int launch(exec_run *r, const exec_kernel *k, const int *numbers, long blocks, int threads, void *args)
{
    if (check_launch(r, k, blocks, threads) < 0)
        return -1;
    admit(r);
    r->launch++;
    launch_state ls = {.k = k, .numbers = numbers, .blocks = blocks, .threads = threads, .args = args};
    ls.workers = r->caches ? 1 : blocks < r->threads ? (int)blocks : r->threads;
    if (r->caches)
        caches_launch(r, k, blocks, threads);
    cut_chunks(&ls, blocks, ls.workers);
    if (ls.workers > (int)ls.n_chunks)
        ls.workers = (int)ls.n_chunks;
    run_workers(r, &ls);
    if (ls.raced || ls.failed_chunk < ls.n_chunks) {
        int rc = launch_failed(r, k, &ls);
        launch_free(&ls);
        return rc;
    }
    exec_kernel_report rep;
    memset(&rep, 0, sizeof rep);
    snprintf(rep.name, sizeof rep.name, "%s", k->name);
    rep.blocks = blocks;
    rep.threads = threads;
    kernel launched = {.name = (char *)k->name, .blocks = blocks, .threads = threads,
                       .private_words = (double)k->private_words};
    merge_chunks(r, &ls, &launched, &rep);
    launch_free(&ls);
    launched.cost = launched.runs[0].cost;
    if (kernel_dag_chain(r->dag, &launched) < 0) {
        free(launched.runs);
        return -1;
    }
    if (r->dag->n > r->reports_cap) { /* twice the room: a run of many launches copies little */
        r->reports_cap = r->reports_cap ? 2 * r->reports_cap : 64;
        r->reports = realloc(r->reports, sizeof *r->reports * (size_t)r->reports_cap);
    }
    r->reports[r->dag->n - 1] = rep;
    return 0;
}

int exec_launch(exec_run *r, const exec_kernel *k, long blocks, int threads, void *args)
{
    return exec_launch_numbered(r, k, NULL, blocks, threads, args);
}

int exec_launch_numbered(exec_run *r, const exec_kernel *k, const int *numbers, long blocks, int threads,
                         void *args)
{
    if (r->here) {
        snprintf(r->here->kernel, sizeof r->here->kernel, "%s", k->name);
        r->here->launches++;
        r->here->launching = 1;
    }
    int rc = launch(r, k, numbers, blocks, threads, args);
    if (r->here)
        r->here->launching = 0;
    return rc;
}
