/*
 * exec_block.h — exec mode's state as its accesses read it: a worker's
 * while it runs a block (exec_block), the run's (exec_run: its arrays,
 * their shadows or marks), and the fast paths of the accesses and the
 * Z/pZ operations.  Private to exec mode: exec.c includes it, and so does
 * a kernel built for exec mode (user_program.c's plain build,
 * MCM_EXEC_INLINE: sim/exec/mcm_kernel.h), so that its accesses' common
 * case runs inline, with no call; the counted build (MCM_COUNTED) calls
 * them, so its instruction stream is the kernel's alone.  Each fast path
 * does what the exported function does (exec_pread is exec_pread_fast)
 * and hands the rest to exec.c's checked path; the invariants are
 * exec.c's (its top).  It also owns the move from one thread of a warp to
 * the next within a step (exec_thread_next, EXEC_WARP_RUN: a plain
 * build's step runs its warp's later threads itself).
 */
#ifndef MCM_EXEC_BLOCK_H
#define MCM_EXEC_BLOCK_H

#include "cache.h"
#include "exec.h"
#include "stream.h"

#include <stdint.h>

/* A fast path: inlined wherever it is called, with no call of its own. */
#define EXEC_FAST static inline __attribute__((always_inline))

typedef struct launch_state launch_state;     /* a launch under way (exec.c) */
typedef struct stream_counter stream_counter; /* sim/exec/stream.h */
typedef struct stream_table stream_table;     /* sim/exec/stream.h */

/* A cell in the current step of a block: its write (-1: none) and, in a
 * race-free run, the first thread that read it and another (NO_READER:
 * none; a race-free block has fewer threads, check_launch).  The write is
 * its slot in the step's log, but for a private word of a race-free run,
 * which a write changes at once (see exec.c's top): there, the thread
 * that wrote it first in the step. */
typedef struct step_use {
    int32_t slot;
    uint16_t reader, reader2;
} step_use;

#define NO_READER 0xFFFF
#define RACE_THREADS ((long)NO_READER) /* the most threads a race-free block may have */

/* Thread tid reads the cell of use u: kept if it is the first or second
 * thread to. */
static inline void add_reader(step_use *u, int tid)
{
    if (u->reader == NO_READER)
        u->reader = (uint16_t)tid;
    else if (u->reader != tid && u->reader2 == NO_READER)
        u->reader2 = (uint16_t)tid;
}

/* Whether a thread other than tid read the cell of use u in the step. */
static inline int read_by_another(const step_use *u, int tid)
{
    return u->reader != NO_READER && (u->reader != tid || u->reader2 != NO_READER);
}

/* A global cell's mark in a built-in run: the tag of the last step that
 * wrote it (0: none).  Each step of each block draws a tag, 16 bits of a
 * counter all workers share, scattered (Fibonacci hashing) and never 0.  A
 * mark equal to the step's tag says the step may have written the cell:
 * its log is searched (an older step's tag that happens to be the same,
 * about one write in 65535, finds nothing there); any other says it has
 * not. */
typedef uint16_t write_mark;

typedef struct logged_write {
    mem_word *cell;
    mem_word value;
    int thread;
} logged_write;

/* A private word's use in its latest step (its worker's array: one place
 * per word, read by every access).  In a race-free run a thread of the
 * block wrote the word before iff its stamp is one of the block's steps
 * (at least exec_block.block_step): only a write, or a read of a word so
 * written, stamps a word on a path that goes on (the checked path stamps
 * a word no thread wrote only after the block has failed, and a failed
 * block's first error is its message). */
typedef struct private_use {
    uint32_t stamp;          /* the step `use` belongs to (exec_block.step_stamp) */
    step_use use;
} private_use;

static const step_use unused = {-1, NO_READER, NO_READER};

/* A global cell's use in the current step of its worker's block (an
 * entry of exec_block.uses). */
typedef struct cell_use {
    const mem_word *cell;
    uint32_t stamp;          /* the step it belongs to (exec_block.step_stamp) */
    step_use use;
} cell_use;

/* A global cell's use in the current step in a window of the table of
 * the step's cells (exec_block.window: its place says which cell). */
typedef struct window_use {
    uint32_t stamp;          /* the step it belongs to (exec_block.step_stamp) */
    step_use use;
} window_use;

/* The windows of the table of the step's cells (step_use_of): USE_WINDOWS
 * runs of USE_WINDOW_CELLS consecutive cells, each placed at the step's
 * first looked-up cell that no window before it holds, from
 * USE_WINDOW_BELOW cells below it. */
#define USE_WINDOWS 2
#define USE_WINDOW_CELLS 1024
#define USE_WINDOW_BELOW 128

/* A read of a cell its block has to itself, made while no thread of the
 * block had written a global cell in the step, kept to be entered in the
 * table of the step's cells (global_use) when one is looked up. */
typedef struct pending_read {
    const mem_word *cell;
    int tid;
} pending_read;

/* A round of the current warp, tallied as its lanes come, in lane order:
 * while its keys only go one way (`disorder` 0) its distinct keys are
 * counted as they come (`distinct`), and `last` (−1 before the first lane)
 * is the latest; otherwise grading reads the notes.  A round no lane made
 * has `distinct` 0.  A global round may go down (`descending`, from its
 * second distinct key on); a private round only up (its first key and
 * the step between its keys are read from the notes when grading needs
 * them: banks_in_order). */
typedef struct round_tally {
    long last;
    int distinct, disorder, descending;
} round_tally;

/* The operation classes counted per thread (the others follow from them). */
enum { COUNT_MULMOD, COUNT_ADDMOD, COUNT_PRIVATE, N_COUNTED };

/* The kinds of access graded per round (the global ones numbered as the
 * caches number them: cache.h, warp_notes). */
enum { GLOBAL_READ, GLOBAL_WRITE, PRIVATE_ACCESS, N_KINDS };

/* One thread's counters: over the whole kernel, and in the current step
 * its accesses of each kind so far (its next round of that kind).  Its
 * operations are `ops` and, where the run's operation costs are whole
 * numbers (exec_block.whole_costs), its Z/pZ operations' costs and its
 * private accesses (1 each), added when the block ends, and its
 * exec_ops in `whole_ops` (`ops` then 0): whole numbers add up to the
 * same sum in any order, in a double as in an integer, while the sums
 * stay below 2^53. */
typedef struct thread_record {
    double ops;
    int64_t whole_ops;               /* exec_ops' operations where the costs are whole (else in ops) */
    uint32_t counts[N_COUNTED];      /* its mulmods, addmods, private accesses (these from its rounds, grade_warp) */
    int rounds[N_KINDS];
    long words_read, words_written;
} thread_record;

/* The cells of each array a worker touched first in the launch: from lo
 * to hi (lo > hi: none), and among them the chunks of TOUCH_CHUNK cells
 * that hold one (bit c of `chunks`: cells c·TOUCH_CHUNK ..), so that a
 * launch that touches rows far apart clears the rows, not what lies
 * between them (clear_touched). */
#define TOUCH_CHUNK_SHIFT 12
#define TOUCH_CHUNK (1L << TOUCH_CHUNK_SHIFT)

typedef struct touched_range {
    long lo, hi;
    uint64_t *chunks;
} touched_range;

struct exec_block {
    exec_run *run;
    launch_state *launch;
    const exec_kernel *k;
    void *args;
    int threads, warp, warp_shift; /* warp = 2^warp_shift, or warp_shift = -1 */
    int race_free;                 /* the run's */
    int shared;                    /* several workers may run the launch: a race between blocks is unnamed */
    int concurrent;                /* another worker runs beside this one: the shadows change by
                                    * compare-and-swap (worker 0 alone until it recruits: plain stores) */
    uint64_t p;                    /* the run's prime and operation costs */
    uint64_t barrett;              /* ⌊2^64/p⌋ when p < 2^32 (mod_p), else 0 */
    double add_ops, mul_ops;
    int whole_costs;               /* add_ops and mul_ops whole: they and private accesses charged when the block ends */
    mem_word *private_cells;
    long private_words;          /* the kernel's */
    private_use *private_step;   /* per private word: its use in its latest step; its stamp says whether
                                    the block wrote it (private_use) */
    cell_use *uses;              /* race-free: the global cells of the current step that no window
                                  * holds (global_use) */
    size_t uses_cap, uses_n;     /* its room (a power of two), its entries of this step */
    window_use *window;          /* race-free: the windows' cells (USE_WINDOWS · USE_WINDOW_CELLS) */
    uintptr_t window_first[USE_WINDOWS]; /* the address of each window's first cell */
    int windows;                 /* the windows placed in the current step */
    long window_n;               /* their entries of this step */
    pending_read *pending;       /* race-free: the step's reads not yet in `uses` (global_use) */
    long pending_n, pending_cap;
    long deferred;               /* race-free: the log's last `deferred` writes, not yet in `uses` (global_use) */
    uint32_t block_step;         /* the step_stamp of the block's first step */
    thread_record *threads_of;   /* per thread */
    thread_record *now;          /* the thread running now */
    long lane;                   /* its lane in its warp */
    int warp_first;              /* the warp's first thread */
    double counted[N_COUNTED];   /* the counts, summed over the block's threads */
    /* the current warp's accesses: a global kind's notes round by round,
     * notes[kind][(round << lanes_shift) + lane] (a round's lanes side by side, as the
     * caches read them); a private access's word lane by lane, private_keys[(lane <<
     * rounds_shift) + round] (a thread's rounds side by side, as it makes them: key_at);
     * and each round's tally */
    access_note *notes[N_KINDS]; /* the global kinds' (notes[PRIVATE_ACCESS] is NULL) */
    long *private_keys;
    round_tally *tallies[N_KINDS];
    int rounds_cap;            /* the rounds the notes and the tallies have room for: 2^rounds_shift */
    int rounds_shift;
    long *private_row;         /* the running thread's row of private_keys (its lane's) */
    int lanes_shift;           /* a round's row of notes: 2^lanes_shift >= warp */
    int fast_rounds;           /* rounds the fast path may take (see below) */
    int fast_private_rounds;   /* the same for a private access: 0 where the costs are not whole (its
                                * operation is then added to `ops` in order: the checked path) */
    /* the step's writes; a cell's mark (or its use) finds its write (CREW) */
    logged_write *log;
    long log_n, log_cap;
    write_mark step_tag;       /* the current step's (write_mark) */
    uint32_t step_stamp;       /* the worker's steps, from 1 (after exec_test.h's stamp): private_use's stamps */
    uint32_t *bank_seen;       /* per private word (fullest_bank) */
    uint32_t bank_stamp;
    /* measured for the current block */
    double transactions[N_KINDS - 1]; /* global reads, writes */
    double bank_conflicts;
    stream_counter *stream;    /* counting the instruction stream, or NULL */
    cache_trace *trace;        /* the block's accesses for the caches, or NULL */
    touched_range *touched;    /* race-free: per array, the cells this worker touched first in the launch */
    int watching;              /* the launch of the cell the run watches (exec_watch_race): no fast path */
    int failed;
    char error[1024];          /* the block's first error */
    /* race-free: the least and the greatest cell of the first `pending_seen` pending reads, and
     * of the first `deferred_seen` deferred writes (UINTPTR_MAX and 0 when none), taken when
     * asked (maybe_pending, maybe_deferred) */
    uintptr_t pending_lo, pending_hi, deferred_lo, deferred_hi;
    long pending_seen, deferred_seen;
};

/* The checked paths (exec.c): everything the fast paths leave. */
word exec_pread_checked(exec_thread *t, long i);
void exec_pwrite_checked(exec_thread *t, long i, word v);
word exec_gread_checked(exec_thread *t, gmem a, long i);
void exec_gwrite_checked(exec_thread *t, gmem a, long i, word v);
/* Twice the room in the table of the step's global cells (global_use),
 * its entries kept. */
void exec_grow_uses(exec_block *b);
/* The pending reads entered in that table, in the order they were made. */
void exec_enter_pending(exec_block *b);
/* Twice the room for pending reads. */
void exec_grow_pending(exec_block *b);
/* The deferred writes entered in that table, in the order they were made. */
void exec_enter_deferred(exec_block *b);

/* The common case of each access, with no call: an index in range, a
 * round within the notes' capacity (fast_rounds, 0 with a warp that is not
 * a power of two; a private access also needs whole costs), and for a write a cell not yet
 * written in the step and room in the log.  In a race-free run, a read
 * takes it where no race can be: a global cell that blocks share, or that
 * the block has to itself and no thread wrote in the step; a private word
 * written in the block and not in the step; and a write where the block
 * has the cell to itself (or is the first of the launch to touch it) and
 * no other thread used it in the step.  Anything else takes the checked
 * path (exec.c), which does the same and the rest; the fast path changes
 * nothing before it knows it is taken, but for what the checked path
 * would change alike (a cell's shadow and its use in the step). */

/* The same values as zp_add, zp_sub and zp_mul, without a division where
 * p < 2^32 and the operands are below p (the usual case): a sum or a
 * difference is then corrected by one p at most, and a product x < 2^64
 * is reduced by Barrett's rule, m = ⌊2^64/p⌋ making q = ⌊x·m/2^64⌋ the
 * quotient or one less (x·m/2^64 > x/p − 1 since x < 2^64), so that
 * x − q·p < 2p. */
static inline int reduced(const exec_block *b, word x, word y) { return b->barrett && x < b->p && y < b->p; }

static inline word mod_p(const exec_block *b, uint64_t x)
{
    uint64_t q = (uint64_t)(((unsigned __int128)x * b->barrett) >> 64);
    uint64_t r = x - q * b->p;
    return r >= b->p ? r - b->p : r;
}

/* One Z/pZ operation of the running thread, of class `counted`, costing
 * `cost` operations (whole costs: added from the counts when the block
 * ends). */
static inline void count_zp(exec_block *k, double cost, int counted)
{
    if (!k->whole_costs)
        k->now->ops += cost;
    k->now->counts[counted]++;
}

/* n local operations of the running thread (exec_ops): an integer sum
 * where the costs are whole (thread_record), so the next call does not
 * wait for a floating-point addition. */
EXEC_FAST void exec_ops_fast(exec_thread *t, long n)
{
    exec_block *b = t->block;
    if (b->whole_costs)
        b->now->whole_ops += n;
    else
        b->now->ops += (double)n;
}

EXEC_FAST word exec_zp_add_fast(exec_thread *t, word a, word b)
{
    exec_block *k = t->block;
    count_zp(k, k->add_ops, COUNT_ADDMOD);
    if (!reduced(k, a, b))
        return zp_add(k->p, a, b);
    return a + b >= k->p ? a + b - k->p : a + b;
}

EXEC_FAST word exec_zp_sub_fast(exec_thread *t, word a, word b)
{
    exec_block *k = t->block;
    count_zp(k, k->add_ops, COUNT_ADDMOD);
    if (!reduced(k, a, b))
        return zp_sub(k->p, a, b);
    return a >= b ? a - b : a + k->p - b;
}

EXEC_FAST word exec_zp_mul_fast(exec_thread *t, word a, word b)
{
    exec_block *k = t->block;
    count_zp(k, k->mul_ops, COUNT_MULMOD);
    return reduced(k, a, b) ? mod_p(k, a * b) : zp_mul(k->p, a, b);
}

/* A private word's key in its round's tally (exec.c's `tally` does a
 * global one; a repeated word is the same access to its bank). */
static inline void tally_private(round_tally *r, long key)
{
    if (key > r->last) {
        r->distinct++;
        r->last = key;
    } else if (key < r->last) {
        r->disorder = 1;
    }
}

/* Lane `lane`'s note of its global access of `kind` in round `round`: its
 * place in the round's row. */
static inline access_note *note_at(const exec_block *b, int kind, long lane, int round)
{
    return &b->notes[kind][((long)round << b->lanes_shift) + lane];
}

/* The running thread's note of its global access of `kind` in round
 * `round`. */
static inline access_note *note_of(exec_block *b, int kind, int round) { return note_at(b, kind, b->lane, round); }

/* The key of lane `lane`'s access of `kind` in round `round`: a global
 * note's, or a private access's word, the round's place in the lane's row
 * (a thread's private accesses in a step go one after another in memory,
 * where a round's row would put each in a line of its own; only exec.c's
 * grading reads them). */
static inline long *key_at(const exec_block *b, int kind, long lane, int round)
{
    if (kind == PRIVATE_ACCESS)
        return &b->private_keys[(lane << b->rounds_shift) + round];
    return &note_at(b, kind, lane, round)->key;
}

/* Thread tid of the warp that began at warp_first runs next: its record
 * and its lane. */
static inline void exec_thread_next(exec_block *b, int tid)
{
    b->now = &b->threads_of[tid];
    b->lane = tid - b->warp_first;
    b->private_row = key_at(b, PRIVATE_ACCESS, b->lane, 0);
}

/* A step's threads t->tid .. last of the current warp, one after another,
 * `body` run by each as run_steps would run it (exec.c): the step of a
 * kernel built with this header (mcm_kernel.h's MCM_STEP) runs its warp's
 * later threads itself when exec.c asks (t->last), with no call per
 * thread.  t->last is -1 while the bodies run (a step a body calls runs
 * its own thread only); t->tid is `last` after. */
#define EXEC_WARP_RUN(t_, body_)                          \
    do {                                                  \
        int last_ = (t_)->last;                           \
        (t_)->last = -1;                                  \
        for (;;) {                                        \
            body_;                                        \
            if ((t_)->tid >= last_)                       \
                break;                                    \
            (t_)->tid++;                                  \
            exec_thread_next((t_)->block, (t_)->tid);     \
        }                                                 \
    } while (0)

/* A write of v to private word i by thread tid on the fast path, 0 when
 * it does not apply (a value of 2^32 or more, the checked path's error;
 * nothing changed then; a synchronous run makes its use in the
 * step only when it writes the word, and logs the write; a race-free run,
 * when it reads it too: a write after a read of its own thread alone is
 * no race, and it writes the word at once). */
static inline int private_write_fast(exec_block *b, long i, word v, int tid)
{
    private_use *p = &b->private_step[i];
    int used = p->stamp == b->step_stamp;
    if (v > UINT32_MAX)
        return 0;
    if (b->race_free) {
        if (used && (p->use.slot >= 0 || p->use.reader != tid || p->use.reader2 != NO_READER))
            return 0;
        if (used)
            p->use.slot = tid;
        else
            p->stamp = b->step_stamp, p->use = (step_use){tid, NO_READER, NO_READER};
        b->private_cells[i] = (mem_word)v;
        return 1;
    }
    if (used || __builtin_expect(b->log_n == b->log_cap, 0))
        return 0;
    p->stamp = b->step_stamp, p->use = (step_use){(int32_t)b->log_n, NO_READER, NO_READER};
    b->log[b->log_n++] = (logged_write){&b->private_cells[i], (mem_word)v, tid};
    return 1;
}

/* A race-free run's read of private word i by thread tid, noted in its
 * use (as note_read does): 0 when the checked path must take it (a word
 * no thread of the block wrote, or one written in the step); nothing
 * changed then. */
static inline int private_read_fast(exec_block *b, long i, int tid)
{
    private_use *p = &b->private_step[i];
    uint32_t stamp = p->stamp;
    if (stamp != b->step_stamp) {
        if (stamp < b->block_step)
            return 0; /* no thread of the block wrote it (private_use) */
        p->stamp = b->step_stamp, p->use = (step_use){-1, (uint16_t)tid, NO_READER};
        return 1;
    }
    step_use *u = &p->use;
    if (u->slot >= 0)
        return 0;
    add_reader(u, tid);
    return 1;
}

/* A private access of the fast path: noted and tallied; counted, the
 * costs being whole (fast_private_rounds), from its rounds when the block
 * ends. */
static inline void private_fast(exec_block *b, thread_record *me, int round, long i)
{
    me->rounds[PRIVATE_ACCESS] = round + 1;
    b->private_row[round] = i;
    tally_private(&b->tallies[PRIVATE_ACCESS][round], i);
}

EXEC_FAST word exec_pread_fast(exec_thread *t, long i)
{
    exec_block *b = t->block;
    thread_record *me = b->now;
    int round = me->rounds[PRIVATE_ACCESS];
    if (__builtin_expect((unsigned long)i >= (unsigned long)b->private_words || round >= b->fast_private_rounds ||
                             (b->race_free && !private_read_fast(b, i, t->tid)), 0))
        return exec_pread_checked(t, i);
    private_fast(b, me, round, i);
    return b->private_cells[i];
}

EXEC_FAST void exec_pwrite_fast(exec_thread *t, long i, word v)
{
    exec_block *b = t->block;
    thread_record *me = b->now;
    int round = me->rounds[PRIVATE_ACCESS];
    if (__builtin_expect((unsigned long)i >= (unsigned long)b->private_words || round >= b->fast_private_rounds ||
                             !private_write_fast(b, i, v, t->tid), 0)) {
        exec_pwrite_checked(t, i, v);
        return;
    }
    private_fast(b, me, round, i);
}

/* Who touched a global cell in the launch in progress (race-free runs;
 * see "Races"): 32 bits, 0 when no block did yet (the cells a launch
 * touched are cleared when it ends: exec.c, clear_touched).  From the
 * top: a bit set when a block wrote the cell, a bit set when blocks of
 * two or more read it (and none wrote it), and 1 + the block that wrote
 * it or read it first (SHADOW_BLOCK_BITS: a race-free launch has fewer
 * blocks, check_launch).  The threads are not kept: a race met on one
 * thread names them when the run is repeated watching its cell
 * (exec_watch_race).  The cell's use in a step is its block's worker's
 * (global_use), kept only while the step runs. */
typedef uint32_t cell_shadow;

#define SHADOW_BLOCK_BITS 30
#define SHADOW_BLOCKS ((1L << SHADOW_BLOCK_BITS) - 1) /* the most blocks a race-free launch may have */
#define SHADOW_BLOCK_MASK ((cell_shadow)SHADOW_BLOCKS)
#define SHADOW_SHARED ((cell_shadow)1 << SHADOW_BLOCK_BITS)
#define SHADOW_WRITTEN (SHADOW_SHARED << 1)

static inline uint32_t shadow_block(cell_shadow s) { return (s & SHADOW_BLOCK_MASK) - 1; }

/* The shadow of a cell block bid touched first in the launch. */
static inline cell_shadow shadow_of(uint32_t bid) { return bid + 1; }

/* A global cell a race met on one thread (exec_race_pending), by the
 * ordinal of its run among the process's (exec_watch_race counts them),
 * its launch, its array and its index; and, in the run that watches it,
 * the thread its shadow would name (its block's thread that wrote it
 * last, or else read it first). */
typedef struct race_watch {
    exec_race_cell cell;
    int thread;
} race_watch;

/* Cell i of array `id` touched first in the launch by b's worker. */
static inline void note_touched(exec_block *b, int id, long i)
{
    touched_range *r = &b->touched[id];
    if (i < r->lo)
        r->lo = i;
    if (i > r->hi)
        r->hi = i;
    r->chunks[i >> (TOUCH_CHUNK_SHIFT + 6)] |= (uint64_t)1 << ((i >> TOUCH_CHUNK_SHIFT) & 63);
}

struct exec_run {
    machine m;
    uint64_t p;
    double add_ops, mul_ops;
    kernel_dag *dag;
    gmem *arrays;           /* each with its shadows (race-free runs, all 0 between launches)
                             * or its marks (built-in runs), one per cell */
    uint32_t steps;         /* steps begun, all blocks and workers (atomic): write_mark's tags */
    int n_arrays;
    double array_bytes;     /* held by the arrays, with their shadows or marks */
    exec_whereabouts *here;       /* exec_set_whereabouts, or NULL */
    void (*give_up)(void *ctx);   /* exec_set_give_up */
    void *give_up_ctx;
    exec_kernel_report *reports;
    int reports_cap;        /* room for reports */
    uint32_t launch;        /* launches so far: the current one's number */
    int ordinal;            /* the run's among the process's since exec_watch_race */
    race_watch *watch;      /* the cell this run watches (exec_watch_race), or NULL */
    int race_free;          /* check races (exec_set_race_free) */
    int threads;            /* exec_set_threads */
    int *pool;              /* exec_set_core_pool, or NULL */
    int raced;              /* a launch's blocks raced, seen by several threads */
    cache *caches;          /* the card's caches (sim/exec/cache.h), or NULL */
    struct block_result *held; /* with the caches: room for a launch's blocks' results (exec.c, */
    long held_cap;          /*   run_chunk), kept from launch to launch; blocks it has room for */
    int restored;           /* arrays that have entered the caches */
    const stream_table *stream; /* the kernels' instruction stream is counted (exec_set_stream) */
};

/* Set the shadow from `old` to `now`: 1 if done.  Several workers may
 * change it at once: then by compare-and-swap, and 0 when another changed
 * it first (the caller looks again). */
static inline int touch_set(const exec_block *b, cell_shadow *s, cell_shadow old, cell_shadow now)
{
    if (!b->concurrent) {
        *s = now;
        return 1;
    }
    return __atomic_compare_exchange_n(s, &old, now, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
}

/* The use in the current step of global cell `cell`, which t's block has
 * to itself, where no window holds it (step_use_of): found in (or added
 * to) the hash of the worker's table of the step's cells, an
 * open-addressing hash table whose entries of older steps are
 * free (their stamp is not the step's).  Eight consecutive cells hash to
 * eight consecutive slots (a warp's neighbouring lanes read neighbouring
 * cells: their entries share cache lines), the groups scattered by
 * Fibonacci hashing. */
#define USE_GROUP_BITS 3

static inline size_t use_slot(const mem_word *cell, size_t mask)
{
    uintptr_t c = (uintptr_t)cell / sizeof *cell;
    size_t group = (size_t)((c >> USE_GROUP_BITS) * 0x9E3779B97F4A7C15ull >> 32) << USE_GROUP_BITS;
    return (group | (c & ((1u << USE_GROUP_BITS) - 1))) & mask;
}

static inline step_use *table_use(exec_block *b, const mem_word *cell)
{
    for (;;) {
        size_t mask = b->uses_cap - 1;
        size_t h = use_slot(cell, mask);
        cell_use *u;
        for (u = &b->uses[h]; u->stamp == b->step_stamp; u = &b->uses[h = (h + 1) & mask])
            if (u->cell == cell)
                return &u->use;
        if (2 * (b->uses_n + 1) <= b->uses_cap) {
            b->uses_n++;
            *u = (cell_use){cell, b->step_stamp, unused};
            return &u->use;
        }
        exec_grow_uses(b);
    }
}

/* The use in the current step of the cell at `off` in window k (a use of
 * an older step is the cell's first in this one). */
static inline step_use *window_use_of(exec_block *b, int k, uintptr_t off)
{
    window_use *w = &b->window[k * USE_WINDOW_CELLS + off];
    if (w->stamp != b->step_stamp) {
        w->stamp = b->step_stamp;
        w->use = unused;
        b->window_n++;
    }
    return &w->use;
}

/* The use of `cell` in the first window placed in the step that holds it;
 * NULL if none does. */
static inline step_use *placed_window_use(exec_block *b, const mem_word *cell)
{
    for (int k = 0; k < b->windows; k++) {
        uintptr_t off = ((uintptr_t)cell - b->window_first[k]) / sizeof *cell;
        if (off < USE_WINDOW_CELLS)
            return window_use_of(b, k, off);
    }
    return NULL;
}

/* The use in the current step of global cell `cell`, which t's block has
 * to itself: in the first window that holds the cell, else in the first
 * window not yet placed in the step (placed then, so that it holds the
 * cell), else in the hash table (table_use).  A window stays where it is
 * placed until the step ends, so a cell's place in the step depends on
 * its address alone: every look-up of it finds the same use.  A block's
 * threads mostly use runs of consecutive cells (their own, in place):
 * the windows find them with no hash and no probe. */
static inline step_use *step_use_of(exec_block *b, const mem_word *cell)
{
    step_use *u = placed_window_use(b, cell);
    if (u)
        return u;
    if (b->windows == USE_WINDOWS)
        return table_use(b, cell);
    uintptr_t at = (uintptr_t)cell, below = USE_WINDOW_BELOW * sizeof *cell;
    int k = b->windows++;
    b->window_first[k] = at - (at < below ? at : below); /* it holds the cell: USE_WINDOW_BELOW < USE_WINDOW_CELLS */
    return window_use_of(b, k, (at - b->window_first[k]) / sizeof *cell);
}

/* Whether the table of the step's cells (its windows and its hash) holds
 * no cell. */
static inline int no_step_use(const exec_block *b) { return b->uses_n == 0 && b->window_n == 0; }

/* Cell `at` into the range [*lo, *hi]. */
static inline void widen(uintptr_t *lo, uintptr_t *hi, const mem_word *cell)
{
    uintptr_t at = (uintptr_t)cell;
    *lo = at < *lo ? at : *lo;
    *hi = at > *hi ? at : *hi;
}

/* Whether `cell` may be among the step's pending reads: it lies between
 * their least and greatest cells. */
static inline int maybe_pending(exec_block *b, const mem_word *cell)
{
    if (b->pending_n == 0)
        return 0;
    for (; b->pending_seen < b->pending_n; b->pending_seen++)
        widen(&b->pending_lo, &b->pending_hi, b->pending[b->pending_seen].cell);
    return (uintptr_t)cell >= b->pending_lo && (uintptr_t)cell <= b->pending_hi;
}

/* Whether `cell` may be among the step's deferred writes (the log's last
 * `deferred`). */
static inline int maybe_deferred(exec_block *b, const mem_word *cell)
{
    if (b->deferred == 0)
        return 0;
    for (; b->deferred_seen < b->deferred; b->deferred_seen++)
        widen(&b->deferred_lo, &b->deferred_hi, b->log[b->log_n - b->deferred + b->deferred_seen].cell);
    return (uintptr_t)cell >= b->deferred_lo && (uintptr_t)cell <= b->deferred_hi;
}

/* The same, with the step's pending reads and deferred writes entered
 * first.  A read of a cell the block has to itself needs its use only to
 * be found by a later write of the step (another thread's read makes that
 * write a race), and a write's only by a later access of its cell.  So
 * while the table holds no write (a race-free run logs only global
 * writes: every write of the step is deferred, log_n == deferred), a read
 * whose cell lies outside the deferred writes' least and greatest cells
 * can see no write: the fast path appends it to `pending` instead of
 * finding its use.  Likewise a write, while the table holds nothing, its
 * cell lies outside the pending reads' least and greatest cells and the
 * block had not written it in the launch (so not in the step), can meet
 * no other use: the fast path leaves it in the log (`deferred`).  A step
 * that reads one array and writes another thus never fills the table.
 * The pending reads and the deferred writes are then of distinct cells
 * (each was outside the other's cells made before it), so entering the
 * reads in order and then the writes in order, as any other look-up
 * does, makes the table the accesses would have made one by one. */
static inline step_use *global_use_entering(exec_block *b, const mem_word *cell)
{
    if (b->pending_n)
        exec_enter_pending(b);
    if (b->deferred)
        exec_enter_deferred(b);
    return step_use_of(b, cell);
}

/* global_use, with no call where nothing is to be entered and a window
 * already placed holds the cell (an in-place kernel's common case):
 * step_use_of's look-up in the first such window, as it makes it. */
EXEC_FAST step_use *global_use(exec_block *b, const mem_word *cell)
{
    step_use *u = (b->pending_n | b->deferred) == 0 ? placed_window_use(b, cell) : NULL;
    return u ? u : global_use_entering(b, cell);
}

/* read_use's look-up in the table of the step's cells. */
EXEC_FAST int read_use_table(exec_block *b, const mem_word *cell, int tid)
{
    step_use *u = global_use(b, cell);
    if (u->slot >= 0)
        return 0;
    add_reader(u, tid);
    return 1;
}

/* The fast path's read of `cell` by thread tid, the block having it to
 * itself: 0 when the cell was written in the step (the checked path reads
 * the write). */
EXEC_FAST int read_use(exec_block *b, const mem_word *cell, int tid)
{
    if (b->log_n == 0 || (b->log_n == b->deferred && !maybe_deferred(b, cell))) {
        if (__builtin_expect(b->pending_n == b->pending_cap, 0))
            exec_grow_pending(b);
        b->pending[b->pending_n++] = (pending_read){cell, tid};
        return 1;
    }
    return read_use_table(b, cell, tid);
}

/* Key `key` of a lane, in its round's tally (global: address groups, which
 * lanes may share). */
static inline void tally(round_tally *r, long key)
{
    if (key > r->last) {
        if (r->descending)
            r->disorder = 1;
        r->last = key;
        r->distinct++;
    } else if (key < r->last) {
        if (r->distinct == 1)
            r->descending = 1;
        else if (!r->descending)
            r->disorder = 1;
        r->last = key;
        r->distinct++;
    }
}

/* A race-free read of global cell a[i] by thread t (note_block and
 * note_read's common cases): its value, or 0 with *taken 0 when the
 * checked path must take it. */
EXEC_FAST word global_read_fast(exec_thread *t, gmem a, long i, int *taken)
{
    exec_block *b = t->block;
    cell_shadow *s = &a->shadows[i];
    cell_shadow sh = __atomic_load_n(s, __ATOMIC_RELAXED);
    cell_shadow mine = shadow_of((uint32_t)t->bid);
    *taken = 0;
    if (sh == 0) { /* the first touch of the launch: the block's */
        if (!touch_set(b, s, sh, mine))
            return 0;
        note_touched(b, a->id, i);
        sh = mine;
    } else if (!(sh & SHADOW_SHARED) && (sh & SHADOW_BLOCK_MASK) != mine) { /* another block's */
        if ((sh & SHADOW_WRITTEN) || !touch_set(b, s, sh, sh | SHADOW_SHARED))
            return 0;
        sh |= SHADOW_SHARED;
    }
    if (!(sh & SHADOW_SHARED) && !read_use(b, &a->cells[i], t->tid))
        return 0;
    *taken = 1;
    return a->cells[i];
}

/* A race-free write of v to a[i] by thread t (note_block, note_write and
 * log_write's common cases): 1, or 0 when the checked path must take it. */
EXEC_FAST int global_write_fast(exec_thread *t, gmem a, long i, word v)
{
    exec_block *b = t->block;
    if (v > UINT32_MAX || b->log_n == b->log_cap)
        return 0;
    cell_shadow *s = &a->shadows[i];
    cell_shadow sh = __atomic_load_n(s, __ATOMIC_RELAXED);
    cell_shadow mine = shadow_of((uint32_t)t->bid);
    if (sh != 0 && (sh & ~SHADOW_WRITTEN) != mine)
        return 0; /* shared, or another block's */
    if (sh != (mine | SHADOW_WRITTEN) && !touch_set(b, s, sh, mine | SHADOW_WRITTEN))
        return 0;
    if (sh == 0)
        note_touched(b, a->id, i);
    if (!(sh & SHADOW_WRITTEN) && no_step_use(b) && !maybe_pending(b, &a->cells[i])) {
        b->deferred++;
    } else {
        step_use *u = global_use(b, &a->cells[i]);
        if (u->slot >= 0 || read_by_another(u, t->tid))
            return 0;
        u->slot = (int32_t)b->log_n;
    }
    b->log[b->log_n++] = (logged_write){&a->cells[i], (mem_word)v, t->tid};
    return 1;
}

/* Where the caches are counted: a global read of round `round` noted
 * with its site (stream_read_site, where the stream is counted; else 0:
 * unknown), and, where the stream counts it as a link of its warp's
 * chain, told to the caches (the fast and the checked paths' notes
 * alike). */
static inline void note_chain_read(exec_block *b, int kind, int round)
{
    if (kind != GLOBAL_READ || !b->trace)
        return;
    uint64_t site = b->stream ? stream_read_site() : 0;
    note_of(b, kind, round)->site = site;
    if (site & STREAM_SITE_CHAIN)
        cache_note_chain(b->trace, round);
}

/* The fast paths' note of the running thread's access of `kind` (a
 * global read or write) to a[i] in round `round` < fast_rounds: its round
 * counted, its cell noted for its lane (access_key: the caches read the
 * warp's notes when it is done) and its address group tallied; where the
 * caches and the stream are counted, the caches told whether the read is
 * a link of a chain. */
EXEC_FAST void global_noted(exec_block *b, thread_record *me, int kind, int round, gmem a, long i)
{
    me->rounds[kind] = round + 1;
    note_of(b, kind, round)->key = access_key(a->id, i);
    tally(&b->tallies[kind][round], access_key(a->id, i >> b->warp_shift));
    note_chain_read(b, kind, round);
}

EXEC_FAST word exec_gread_fast(exec_thread *t, gmem a, long i)
{
    exec_block *b = t->block;
    thread_record *me = b->now;
    int round = me->rounds[GLOBAL_READ];
    if (__builtin_expect((unsigned long)i >= (unsigned long)a->size || round >= b->fast_rounds, 0))
        return exec_gread_checked(t, a, i);
    word value = a->cells[i];
    if (b->race_free) {
        int taken;
        value = global_read_fast(t, a, i, &taken);
        if (__builtin_expect(!taken, 0))
            return exec_gread_checked(t, a, i);
    }
    global_noted(b, me, GLOBAL_READ, round, a, i);
    return value;
}

/* A write of the fast path: the cell's mark, its place in the log.  0
 * when the fast path does not apply (a value of 2^32 or more, the cell's
 * mark is the step's, or the log is full); nothing changed then. */
static inline int write_fast(exec_block *b, write_mark *mark, mem_word *cell, word v, int tid)
{
    if (__builtin_expect(v > UINT32_MAX || b->log_n == b->log_cap || *mark == b->step_tag, 0))
        return 0;
    *mark = b->step_tag;
    b->log[b->log_n++] = (logged_write){cell, (mem_word)v, tid};
    return 1;
}

EXEC_FAST void exec_gwrite_fast(exec_thread *t, gmem a, long i, word v)
{
    exec_block *b = t->block;
    thread_record *me = b->now;
    int round = me->rounds[GLOBAL_WRITE];
    if (__builtin_expect((unsigned long)i >= (unsigned long)a->size || round >= b->fast_rounds ||
                             !(b->race_free ? global_write_fast(t, a, i, v)
                                            : write_fast(b, &a->marks[i], &a->cells[i], v, t->tid)), 0)) {
        exec_gwrite_checked(t, a, i, v);
        return;
    }
    global_noted(b, me, GLOBAL_WRITE, round, a, i);
}

#if defined(MCM_EXEC_INLINE) && !defined(MCM_COUNTED)
#define exec_gread exec_gread_fast
#define exec_gwrite exec_gwrite_fast
#define exec_pread exec_pread_fast
#define exec_pwrite exec_pwrite_fast
#define exec_ops exec_ops_fast
#define exec_zp_add exec_zp_add_fast
#define exec_zp_sub exec_zp_sub_fast
#define exec_zp_mul exec_zp_mul_fast
#endif

#endif
