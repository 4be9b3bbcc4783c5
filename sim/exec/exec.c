/*
 * exec.c — running kernels for real and measuring them (see exec.h).
 *
 * A launch runs its blocks one after another (the model leaves their order
 * free, and a correct MCM program cannot tell).  For each block, each step
 * runs every thread in order tid = 0 .. ℓ-1, warp by warp; the step's
 * writes go to a log and are committed when the last thread is done, so
 * every read of the step sees memory as it was before it.  Every cell has
 * a mark saying whether the step's log holds a write to it, and where: a
 * second write finds the first (the same thread's last write wins; another
 * thread's is a CREW error).  While the threads of a warp run, their
 * accesses are noted per round (a thread's k-th access of the step is
 * round k) and each round is tallied as its lanes come; when the warp's
 * last thread is done the rounds are graded (distinct address groups for
 * global memory, the fullest bank for private memory): from the tally
 * where the lanes' addresses never went down, which is the common case,
 * from the notes otherwise (sorted for global memory; a private word
 * counted once per bank by a stamp).
 *
 * Each access has a fast path with no call (exec_gread and the others, at
 * the end of "accesses"): an index in range, a round the notes have room
 * for, no race checks, for a write a cell the step has not written and
 * room in the log.  Anything else goes to the checked path, which does the
 * same and handles the rest.  A thread's counters (operations, class
 * counts, words, its rounds in the step) live in one record per thread,
 * which the block's figures read and clear when the block ends.
 *
 * Races (exec_set_race_free).  Exec mode runs blocks one after another
 * and a step's threads one after another; the card runs both in no fixed
 * order.  So that a kernel means the same on both (a kernel written once,
 * sim/exec/mcm_kernel.h), every access of such a run is checked against a
 * shadow of its cell: who last wrote it (launch, block, thread, step) and
 * who read it (the first reader of the launch, and one reader of another
 * block; the first reader of the step, and one other thread).  A cell that
 * one thread writes and another reads or writes in the same step of a
 * block is an error, and so is a global cell that one block writes and
 * another block reads or writes in the same launch; both errors name the
 * two threads.  A private word read before any thread of the block wrote
 * it is an error too (the card's shared memory starts undefined).  A
 * thread that reads a cell it wrote earlier in the same step reads its own
 * write, as on the card (other reads of the step see memory as it was
 * before the step).
 *
 * The caches (sim/exec/cache.h).  On a machine with them, exec mode hands each
 * global access to the block's recorder (from the checked path: the fast
 * path is off while it records), each warp's step when it is graded, each
 * block when it ends, and each launch before its first block and after
 * its last; the caches fill the blocks' sectors.
 *
 * Invariants kept here: between steps the write log is empty; between
 * blocks every per-thread counter is zero; a recorded error stops the
 * launch at the end of the step in which it happened; a shadow's stamps
 * (launch number, step epoch) only grow, so a stale stamp is never taken
 * for the present.
 */
#include "exec.h"
#include "cache.h"
#include "card_terms.h"
#include "fail.h"
#include "stream.h"

#include <math.h>
#include <stdarg.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the run ------------------------------------------------------------ */

/* Who touched a cell (see "Races" above).  Stamps: the launch number
 * (from 1) and the step epoch (one per step of each block, from 1); a
 * thread or block of -1 is nobody. */
typedef struct cell_shadow {
    uint64_t w_epoch;              /* the step of its last write */
    uint32_t w_launch;             /* the launch of its last write */
    int32_t w_block, w_thread;
    uint32_t r_launch;             /* readers in launch r_launch: */
    int32_t r_block, r_thread;     /*   the first */
    int32_t r2_block, r2_thread;   /*   one of another block than the first */
    uint64_t s_epoch;              /* readers in step s_epoch (this block): */
    int32_t s_thread, s2_thread;   /*   the first, and another thread */
} cell_shadow;

/* A cell's mark: 0, or the number (from 1) of the run's last log entry
 * for the cell, counting the entries of every step.  A mark above the
 * entries of the steps before the current one (exec_run.logged) is the
 * current step's: its log holds a write to the cell, at slot mark −
 * logged − 1.  When the count passes 2^31 every mark is cleared and the
 * count starts again (new_step); a step's own entries stay below 2^31
 * (each takes a log entry of 24 bytes), so the count never wraps. */
typedef uint32_t write_mark;

struct exec_run {
    machine m;
    uint64_t p;
    double add_ops, mul_ops;
    kernel_dag *dag;
    gmem *arrays;
    cell_shadow **shadows;  /* per array, one per cell */
    write_mark **marks;     /* per array, one per cell */
    uint32_t logged;        /* log entries of the steps before this one (see write_mark) */
    int n_arrays;
    exec_kernel_report *reports;
    uint32_t launch;        /* launches so far: the current one's number */
    uint64_t epoch;         /* steps so far, all blocks: the current one's */
    int race_free;          /* check races (exec_set_race_free) */
    cache *caches;          /* the card's caches (sim/exec/cache.h), or NULL */
    int restored;           /* arrays that have entered the caches */
    const stream_table *stream; /* the kernels' instruction stream is counted (exec_set_stream) */
};

typedef struct logged_write {
    word *cell;
    word value;
    int thread;
} logged_write;

typedef struct access_note { long key; } access_note;

/* A round of the current warp, tallied as its lanes come, in lane order:
 * while its keys do not go down (`disorder` 0) its distinct keys are
 * counted as they come (`distinct`), and `last` (−1 before the first lane)
 * and, for a private round, `first` bound them; otherwise grading reads
 * the notes.  A round no lane made has `distinct` 0.  A private round also
 * counts a repeated key as disorder: its banks are then graded from the
 * notes. */
typedef struct round_tally {
    long first, last;
    int distinct, disorder;
} round_tally;

/* The operation classes counted per thread (the others follow from them). */
enum { COUNT_MULMOD, COUNT_ADDMOD, COUNT_PRIVATE, N_COUNTED };

/* The kinds of access graded per round. */
enum { GLOBAL_READ, GLOBAL_WRITE, PRIVATE_ACCESS, N_KINDS };

/* One thread's counters: over the whole kernel, and in the current step
 * its accesses of each kind so far (its next round of that kind). */
typedef struct thread_record {
    double ops;
    uint32_t counts[N_COUNTED];      /* its mulmods, addmods, private accesses */
    int rounds[N_KINDS];
    long words_read, words_written;
} thread_record;

struct exec_block {
    exec_run *run;
    const exec_kernel *k;
    void *args;
    int threads, warp, warp_shift; /* warp = 2^warp_shift, or warp_shift = -1 */
    int race_free;                 /* the run's */
    uint64_t p;                    /* the run's prime and operation costs */
    double add_ops, mul_ops;
    word *private_cells;
    cell_shadow *private_shadow; /* per private word (only the step fields) */
    thread_record *threads_of;   /* per thread */
    thread_record *now;          /* the thread running now */
    long lane;                   /* its lane in its warp */
    double counted[N_COUNTED];   /* the counts, summed over the block's threads */
    /* the current warp's accesses: notes[kind][round * warp + lane], and each round's tally */
    access_note *notes[N_KINDS];
    round_tally *tallies[N_KINDS];
    int rounds_cap;
    int fast_rounds;           /* rounds the fast path may take (see below) */
    /* the step's writes; each cell's mark finds its place (CREW) */
    logged_write *log;
    long log_n, log_cap;
    uint32_t logged;           /* the run's, while the step runs */
    write_mark **marks;        /* the run's, per array */
    write_mark *private_marks; /* per private word */
    uint32_t *bank_seen;       /* per private word (fullest_bank) */
    uint32_t bank_stamp;
    /* measured for the current block */
    double transactions[N_KINDS - 1]; /* global reads, writes */
    double bank_conflicts;
    stream_counter *stream;    /* counting the instruction stream, or NULL */
    int failed;
    cache_trace *trace;        /* the block's accesses for the caches, or NULL */
};

exec_run *exec_begin(const char *program, const machine *m)
{
    exec_run *r = calloc(1, sizeof *r);
    r->m = *m;
    r->p = 469762049;
    r->add_ops = 5;
    r->mul_ops = 11;
    r->dag = kernel_dag_new(program);
    r->caches = cache_new(m);
    return r;
}

void exec_end(exec_run *r)
{
    if (!r)
        return;
    for (int i = 0; i < r->n_arrays; i++) {
        free(r->arrays[i]->cells);
        free(r->arrays[i]);
        free(r->shadows[i]);
        free(r->marks[i]);
    }
    free(r->arrays);
    free(r->shadows);
    free(r->marks);
    free(r->reports);
    kernel_dag_free(r->dag);
    cache_free(r->caches);
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
const kernel_dag *exec_dag(const exec_run *r) { return r->dag; }

const exec_kernel_report *exec_reports(const exec_run *r, int *n)
{
    *n = r->dag->n;
    return r->reports;
}

static cell_shadow *shadows_new(long cells)
{
    cell_shadow *s = malloc(sizeof *s * (size_t)cells);
    for (long i = 0; i < cells; i++)
        s[i] = (cell_shadow){.w_block = -1, .w_thread = -1, .r_block = -1, .r_thread = -1,
                             .r2_block = -1, .r2_thread = -1, .s_thread = -1, .s2_thread = -1};
    return s;
}

gmem exec_alloc(exec_run *r, const char *name, long size)
{
    gmem a = calloc(1, sizeof *a);
    a->cells = calloc((size_t)(size > 0 ? size : 1), sizeof *a->cells);
    a->size = size;
    a->id = r->n_arrays;
    snprintf(a->name, sizeof a->name, "%s", name);
    r->arrays = realloc(r->arrays, sizeof *r->arrays * (size_t)(r->n_arrays + 1));
    r->shadows = realloc(r->shadows, sizeof *r->shadows * (size_t)(r->n_arrays + 1));
    r->shadows[r->n_arrays] = r->race_free ? shadows_new(size > 0 ? size : 1) : NULL;
    r->marks = realloc(r->marks, sizeof *r->marks * (size_t)(r->n_arrays + 1));
    r->marks[r->n_arrays] = calloc((size_t)(size > 0 ? size : 1), sizeof **r->marks);
    r->arrays[r->n_arrays++] = a;
    return a;
}

/* ---- Z/pZ ----------------------------------------------------------------- */

word zp_add(uint64_t p, word a, word b) { return (a + b) % p; }
word zp_sub(uint64_t p, word a, word b) { return (a + p - b) % p; }
word zp_mul(uint64_t p, word a, word b) { return (word)(((unsigned __int128)a * b) % p); }

word zp_pow(uint64_t p, word a, uint64_t e)
{
    word x = 1;
    for (a %= p; e; e >>= 1, a = zp_mul(p, a, a))
        if (e & 1)
            x = zp_mul(p, x, a);
    return x;
}

void exec_ops(exec_thread *t, long n) { t->block->now->ops += (double)n; }

word exec_zp_add(exec_thread *t, word a, word b)
{
    thread_record *me = t->block->now;
    me->ops += t->block->add_ops;
    me->counts[COUNT_ADDMOD]++; /* the block's sums: when it ends */
    return zp_add(t->block->p, a, b);
}

word exec_zp_sub(exec_thread *t, word a, word b)
{
    thread_record *me = t->block->now;
    me->ops += t->block->add_ops;
    me->counts[COUNT_ADDMOD]++;
    return zp_sub(t->block->p, a, b);
}

word exec_zp_mul(exec_thread *t, word a, word b)
{
    thread_record *me = t->block->now;
    me->ops += t->block->mul_ops;
    me->counts[COUNT_MULMOD]++;
    return zp_mul(t->block->p, a, b);
}

word exec_zp_pow(exec_thread *t, word a, uint64_t e)
{
    word x = 1;
    double mulmods = 0, loops = 0;
    for (a %= t->block->run->p; e; e >>= 1, loops++) {
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

word exec_zp_inv(exec_thread *t, word a) { return exec_zp_pow(t, a, t->block->run->p - 2); }

/* ---- errors ----------------------------------------------------------------- */

/* The block of t fails with one message (its first error only); a rule
 * broken by one thread names the block and the thread, a race names its
 * threads itself. */
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
        fail("program '%s', kernel '%s', block %ld, step %d, thread %d: %s", b->run->dag->name, b->k->name,
             t->bid, t->step, t->tid, detail);
    else
        fail("program '%s', kernel '%s', step %d: %s", b->run->dag->name, b->k->name, t->step, detail);
}

static void rule_broken(exec_thread *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void rule_broken(exec_thread *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    block_fails(t, 1, fmt, ap);
    va_end(ap);
}

/* ---- races (see the top of this file) ------------------------------------ */

static void race(exec_thread *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void race(exec_thread *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    block_fails(t, 0, fmt, ap);
    va_end(ap);
}

#define RULE_STEP "(rule: race-free steps: the card runs a step's threads in no fixed order; " \
                  "read and write the cell in different steps)"
#define RULE_LAUNCH "(rule: race-free blocks: the card runs a launch's blocks in no fixed order; " \
                    "a cell one block writes is read or written by no other block of the launch)"

/* Thread t reads name[i], whose shadow is s (global: a global array).
 * Returns 1 when t wrote the cell earlier in this step: the caller returns
 * that write, as the card would. */
static int note_read(exec_thread *t, cell_shadow *s, int global, const char *name, long i)
{
    exec_run *r = t->block->run;
    int32_t bid = (int32_t)t->bid, tid = t->tid;
    if (global && s->w_launch == r->launch && s->w_block != bid)
        race(t, "block %d (thread %d) reads %s[%ld], which block %d (thread %d) writes in the same launch " RULE_LAUNCH,
             bid, tid, name, i, s->w_block, s->w_thread);
    if (!global && !(s->w_launch == r->launch && s->w_block == bid))
        race(t, "block %d: thread %d reads private[%ld], which no thread of the block wrote before (rule: "
                "private memory starts undefined on the card, as shared memory does)", bid, tid, i);
    int own = 0;
    if (s->w_epoch == r->epoch) {
        if (s->w_thread != tid)
            race(t, "block %d: thread %d reads %s[%ld], which thread %d writes in the same step " RULE_STEP, bid,
                 tid, name, i, s->w_thread);
        own = 1;
    }
    if (s->s_epoch != r->epoch) {
        s->s_epoch = r->epoch;
        s->s_thread = tid;
        s->s2_thread = -1;
    } else if (s->s_thread != tid && s->s2_thread < 0) {
        s->s2_thread = tid;
    }
    if (global && s->r_launch != r->launch) {
        s->r_launch = r->launch;
        s->r_block = bid;
        s->r_thread = tid;
        s->r2_block = -1;
    } else if (global && s->r_block != bid && s->r2_block < 0) {
        s->r2_block = bid;
        s->r2_thread = tid;
    }
    return own;
}

/* Thread t writes name[i], whose shadow is s.  (Two writers in one step of
 * a block are the write log's CREW error.) */
static void note_write(exec_thread *t, cell_shadow *s, int global, const char *name, long i)
{
    exec_run *r = t->block->run;
    int32_t bid = (int32_t)t->bid, tid = t->tid;
    if (global && s->w_launch == r->launch && s->w_block != bid)
        race(t, "blocks %d (thread %d) and %d (thread %d) both write %s[%ld] in the same launch " RULE_LAUNCH,
             s->w_block, s->w_thread, bid, tid, name, i);
    if (global && s->r_launch == r->launch && (s->r_block != bid || s->r2_block >= 0)) {
        int32_t other = s->r_block != bid ? s->r_block : s->r2_block;
        int32_t reader = s->r_block != bid ? s->r_thread : s->r2_thread;
        race(t, "block %d (thread %d) writes %s[%ld], which block %d (thread %d) reads in the same launch " RULE_LAUNCH,
             bid, tid, name, i, other, reader);
    }
    if (s->s_epoch == r->epoch && (s->s_thread != tid || s->s2_thread >= 0))
        race(t, "block %d: thread %d writes %s[%ld], which thread %d reads in the same step " RULE_STEP, bid, tid,
             name, i, s->s_thread != tid ? s->s_thread : s->s2_thread);
    s->w_epoch = r->epoch;
    s->w_launch = r->launch;
    s->w_block = bid;
    s->w_thread = tid;
}

/* A race-free run's word is the card's: 32 bits.  1 if v fits. */
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
static const round_tally no_lane = {.first = -1, .last = -1};

static void grow_rounds(exec_block *b, int need)
{
    int cap = b->rounds_cap;
    while (cap <= need)
        cap *= 2;
    for (int kind = 0; kind < N_KINDS; kind++) {
        int tallied = b->tallies[kind] ? b->rounds_cap : 0;
        b->notes[kind] = realloc(b->notes[kind], sizeof(access_note) * (size_t)cap * (size_t)b->warp);
        b->tallies[kind] = realloc(b->tallies[kind], sizeof(round_tally) * (size_t)cap);
        for (int k = tallied; k < cap; k++)
            b->tallies[kind][k] = no_lane;
    }
    b->rounds_cap = cap;
    b->fast_rounds = b->race_free || b->warp_shift < 0 || b->trace ? 0 : cap;
}

/* The running thread's next access of `kind`, with its key (an address
 * group, or a private word): noted for its lane and tallied in its round.
 * Keys are >= 0.  Returns the round's tally. */
static inline round_tally *note_access(exec_block *b, int kind, long key)
{
    int round = b->now->rounds[kind]++;
    if (__builtin_expect(round >= b->rounds_cap, 0))
        grow_rounds(b, round);
    b->notes[kind][(long)round * b->warp + b->lane].key = key;
    return &b->tallies[kind][round];
}

/* Key `key` of a lane, in its round's tally (global: address groups, which
 * lanes may share). */
static inline void tally(round_tally *r, long key)
{
    if (key > r->last) {
        r->last = key;
        r->distinct++;
    } else if (key < r->last) {
        r->disorder = 1;
    }
}

/* The same for a private word: banks need distinct, increasing keys
 * (fullest_bank), so a repeated key is disorder too. */
static inline void tally_private(round_tally *r, long key)
{
    if (key > r->last) {
        if (r->distinct++ == 0)
            r->first = key;
        r->last = key;
    } else {
        r->disorder = 1;
    }
}

/* The value this step's log holds for a cell (`otherwise` if none). */
static word pending_write(const exec_block *b, const write_mark *mark, word otherwise)
{
    return *mark > b->logged ? b->log[*mark - b->logged - 1].value : otherwise;
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
    if (note_read(t, &b->run->shadows[a->id][i], 1, a->name, i))
        return pending_write(b, &b->marks[a->id][i], a->cells[i]);
    return a->cells[i];
}

static word __attribute__((noinline)) gread_checked(exec_thread *t, gmem a, long i)
{
    exec_block *b = t->block;
    if ((unsigned long)i >= (unsigned long)a->size)
        return read_outside(t, a, i);
    long key = (long)a->id << 40 | group_of(b, i);
    tally(note_access(b, GLOBAL_READ, key), key);
    if (b->trace)
        cache_note(b->trace, 0, b->now->rounds[GLOBAL_READ] - 1, a->id, i);
    if (__builtin_expect(b->race_free, 0))
        return read_race_free(t, a, i);
    return a->cells[i];
}

/* A second write to a cell in this step, whose first is log entry `slot`:
 * the same thread's last write wins; another thread's is a CREW error. */
static void __attribute__((noinline)) rewrite(exec_thread *t, uint32_t slot, word value, const char *name,
                                              long index)
{
    exec_block *b = t->block;
    logged_write *w = &b->log[slot];
    if (w->thread != t->tid && !b->failed) {
        b->failed = 1;
        fail("program '%s', kernel '%s', block %ld, step %d: threads %d and %d both write %s[%ld] "
             "(rule: CREW, concurrent reads but exclusive writes)", b->run->dag->name, b->k->name,
             t->bid, t->step, w->thread, t->tid, name, index);
    }
    w->value = value;
}

static void __attribute__((noinline)) grow_log(exec_block *b)
{
    b->log_cap = b->log_cap ? 2 * b->log_cap : 1024;
    b->log = realloc(b->log, sizeof *b->log * (size_t)b->log_cap);
}

/* The step's write log, with the CREW check: a cell written by two
 * threads in one step is an error. */
static inline void log_write(exec_thread *t, write_mark *mark, word *cell, word value, const char *name,
                             long index)
{
    exec_block *b = t->block;
    if (__builtin_expect(*mark > b->logged, 0)) {
        rewrite(t, *mark - b->logged - 1, value, name, index);
        return;
    }
    if (__builtin_expect(b->log_n == b->log_cap, 0))
        grow_log(b);
    *mark = b->logged + (uint32_t)b->log_n + 1;
    b->log[b->log_n++] = (logged_write){cell, value, t->tid};
}

static void __attribute__((noinline, cold)) write_outside(exec_thread *t, gmem a, long i)
{
    rule_broken(t, "writes %s[%ld], outside its %ld cells", a->name, i, a->size);
}

static void __attribute__((noinline)) gwrite_checked(exec_thread *t, gmem a, long i, word v)
{
    exec_block *b = t->block;
    if ((unsigned long)i >= (unsigned long)a->size) {
        write_outside(t, a, i);
        return;
    }
    if (__builtin_expect(b->race_free, 0) && !word_fits(t, a->name, i, v))
        return;
    long key = (long)a->id << 40 | group_of(b, i);
    tally(note_access(b, GLOBAL_WRITE, key), key);
    if (b->trace)
        cache_note(b->trace, 1, b->now->rounds[GLOBAL_WRITE] - 1, a->id, i);
    if (__builtin_expect(b->race_free, 0))
        note_write(t, &b->run->shadows[a->id][i], 1, a->name, i);
    log_write(t, &b->marks[a->id][i], &a->cells[i], v, a->name, i);
}

static int private_ok(exec_thread *t, long i, const char *verb)
{
    exec_block *b = t->block;
    if (__builtin_expect((unsigned long)i < (unsigned long)b->k->private_words, 1))
        return 1;
    rule_broken(t, "private memory: %s word %ld, outside the kernel's %ld words", verb, i, b->k->private_words);
    return 0;
}

/* A private access is a local operation, and graded by the DMM rule. */
static inline void note_private(exec_block *b, long i)
{
    tally_private(note_access(b, PRIVATE_ACCESS, i), i);
    b->now->ops += 1;
    b->now->counts[COUNT_PRIVATE]++;
}

static word __attribute__((noinline)) pread_checked(exec_thread *t, long i)
{
    if (!private_ok(t, i, "reads"))
        return 0;
    exec_block *b = t->block;
    note_private(b, i);
    if (__builtin_expect(b->race_free, 0) && note_read(t, &b->private_shadow[i], 0, "private", i))
        return pending_write(b, &b->private_marks[i], b->private_cells[i]);
    return b->private_cells[i];
}

static void __attribute__((noinline)) pwrite_checked(exec_thread *t, long i, word v)
{
    exec_block *b = t->block;
    if (!private_ok(t, i, "writes") || (b->race_free && !word_fits(t, "private", i, v)))
        return;
    note_private(b, i);
    if (b->race_free)
        note_write(t, &b->private_shadow[i], 0, "private", i);
    log_write(t, &b->private_marks[i], &b->private_cells[i], v, "private", i);
}

/* The common case of each access, with no call: an index in range, a
 * round within the notes' capacity (fast_rounds, 0 in a race-free run or
 * with a warp that is not a power of two), and for a write a cell not yet
 * written in the step and room in the log.  Anything else takes the
 * checked path above, which does the same and the rest; the fast path
 * changes nothing before it knows it is taken. */

static inline access_note *note_of(exec_block *b, int kind, int round)
{
    return &b->notes[kind][((long)round << b->warp_shift) + b->lane];
}

word exec_gread(exec_thread *t, gmem a, long i)
{
    exec_block *b = t->block;
    thread_record *me = b->now;
    int round = me->rounds[GLOBAL_READ];
    if (__builtin_expect((unsigned long)i >= (unsigned long)a->size || round >= b->fast_rounds, 0))
        return gread_checked(t, a, i);
    me->rounds[GLOBAL_READ] = round + 1;
    long key = (long)a->id << 40 | i >> b->warp_shift;
    note_of(b, GLOBAL_READ, round)->key = key;
    tally(&b->tallies[GLOBAL_READ][round], key);
    return a->cells[i];
}

void exec_gwrite(exec_thread *t, gmem a, long i, word v)
{
    exec_block *b = t->block;
    thread_record *me = b->now;
    int round = me->rounds[GLOBAL_WRITE];
    if (__builtin_expect((unsigned long)i >= (unsigned long)a->size || round >= b->fast_rounds, 0)) {
        gwrite_checked(t, a, i, v);
        return;
    }
    write_mark *mark = &b->marks[a->id][i];
    if (__builtin_expect(*mark > b->logged || b->log_n == b->log_cap, 0)) {
        gwrite_checked(t, a, i, v);
        return;
    }
    me->rounds[GLOBAL_WRITE] = round + 1;
    long key = (long)a->id << 40 | i >> b->warp_shift;
    note_of(b, GLOBAL_WRITE, round)->key = key;
    tally(&b->tallies[GLOBAL_WRITE][round], key);
    *mark = b->logged + (uint32_t)b->log_n + 1;
    b->log[b->log_n++] = (logged_write){&a->cells[i], v, t->tid};
}

/* A private access of the fast path: noted, tallied and counted. */
static inline void private_fast(exec_block *b, thread_record *me, int round, long i)
{
    me->rounds[PRIVATE_ACCESS] = round + 1;
    note_of(b, PRIVATE_ACCESS, round)->key = i;
    tally_private(&b->tallies[PRIVATE_ACCESS][round], i);
    me->ops += 1;
    me->counts[COUNT_PRIVATE]++;
}

word exec_pread(exec_thread *t, long i)
{
    exec_block *b = t->block;
    thread_record *me = b->now;
    int round = me->rounds[PRIVATE_ACCESS];
    if (__builtin_expect((unsigned long)i >= (unsigned long)b->k->private_words || round >= b->fast_rounds, 0))
        return pread_checked(t, i);
    private_fast(b, me, round, i);
    return b->private_cells[i];
}

void exec_pwrite(exec_thread *t, long i, word v)
{
    exec_block *b = t->block;
    thread_record *me = b->now;
    int round = me->rounds[PRIVATE_ACCESS];
    if (__builtin_expect((unsigned long)i >= (unsigned long)b->k->private_words || round >= b->fast_rounds, 0)) {
        pwrite_checked(t, i, v);
        return;
    }
    write_mark *mark = &b->private_marks[i];
    if (__builtin_expect(*mark > b->logged || b->log_n == b->log_cap, 0)) {
        pwrite_checked(t, i, v);
        return;
    }
    private_fast(b, me, round, i);
    *mark = b->logged + (uint32_t)b->log_n + 1;
    b->log[b->log_n++] = (logged_write){&b->private_cells[i], v, t->tid};
}

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

/* The keys of round k from the lanes first..last that made it (row: the
 * round's notes, from lane 0), in keys[]; their number. */
static int round_keys(const exec_block *b, int kind, int first, int last, int k, long *keys)
{
    const access_note *row = b->notes[kind] + (long)k * b->warp;
    int n = 0;
    for (int t = first; t <= last; t++)
        if (b->threads_of[t].rounds[kind] > k)
            keys[n++] = row[t - first].key;
    return n;
}

/* Distinct keys among the lanes first..last that made round k. */
static int distinct_keys(const exec_block *b, int kind, int first, int last, int k)
{
    long keys[1024];
    int n = round_keys(b, kind, first, last, k, keys);
    sort_keys(keys, n);
    int distinct = n > 0;
    for (int i = 1; i < n; i++)
        distinct += keys[i] != keys[i - 1];
    return distinct;
}

/* DMM: the most distinct addresses that one bank must serve in round k.
 * A word counts once: bank_seen[word] holds the stamp of the last round
 * that counted it. */
static int fullest_bank(exec_block *b, int first, int last, int k)
{
    long keys[1024];
    int n = round_keys(b, PRIVATE_ACCESS, first, last, k, keys), warp = b->warp;
    if (++b->bank_stamp == 0) { /* the stamps wrapped: none is taken for the present */
        memset(b->bank_seen, 0, sizeof *b->bank_seen * (size_t)(b->k->private_words + 1));
        b->bank_stamp = 1;
    }
    int in_bank[1024], most = 0;
    memset(in_bank, 0, sizeof *in_bank * (size_t)warp);
    for (int i = 0; i < n; i++)
        if (b->bank_seen[keys[i]] != b->bank_stamp) {
            b->bank_seen[keys[i]] = b->bank_stamp;
            int bank = (int)(keys[i] % warp);
            if (++in_bank[bank] > most)
                most = in_bank[bank];
        }
    return most;
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
            int most = !r[k].disorder && r[k].last - r[k].first < b->warp
                           ? 1 /* distinct addresses within w consecutive words: distinct banks */
                           : fullest_bank(b, first, last, k);
            if (most > 1)
                b->bank_conflicts += most - 1;
        }
        r[k] = no_lane;
    }
}

/* The warp of threads first..last has run the step: its rounds graded,
 * each thread's words counted and its rounds back to zero. */
static void grade_warp(exec_block *b, int first, int last)
{
    for (int kind = 0; kind < N_KINDS; kind++)
        grade_rounds(b, kind, first, last);
    for (int t = first; t <= last; t++) {
        thread_record *th = &b->threads_of[t];
        th->words_read += th->rounds[GLOBAL_READ];
        th->words_written += th->rounds[GLOBAL_WRITE];
        th->rounds[GLOBAL_READ] = th->rounds[GLOBAL_WRITE] = th->rounds[PRIVATE_ACCESS] = 0;
    }
}

/* ---- running a launch ------------------------------------------------------- */

static void commit_step(exec_block *b)
{
    for (long i = 0; i < b->log_n; i++)
        *b->log[i].cell = b->log[i].value;
    b->run->logged += (uint32_t)b->log_n;
    b->log_n = 0;
}

/* A step begins: a new epoch (races); the marks count the log entries
 * from the run's count so far, and when it passes 2^31 every mark is
 * cleared and it starts again (see write_mark). */
static void new_step(exec_block *b)
{
    exec_run *r = b->run;
    r->epoch++;
    if (r->logged > UINT32_MAX / 2) {
        for (int i = 0; i < r->n_arrays; i++)
            memset(r->marks[i], 0, sizeof **r->marks * (size_t)(r->arrays[i]->size > 0 ? r->arrays[i]->size : 1));
        memset(b->private_marks, 0, sizeof *b->private_marks * (size_t)(b->k->private_words + 1));
        r->logged = 0;
    }
    b->logged = r->logged;
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

/* Every step of the block, each thread in order, warp by warp; a warp
 * graded when its last thread is done, the writes committed when the step
 * is. */
static void run_steps(exec_block *b, long bid, long blocks)
{
    int l = b->threads;
    for (int s = 0; s < b->k->n_steps && !b->failed; s++) {
        new_step(b);
        exec_thread t = {0, l, bid, blocks, s, b};
        exec_step step = b->k->steps[s];
        void *args = b->args;
        for (int first = 0; first < l; first += b->warp) {
            int last = l - first > b->warp ? first + b->warp - 1 : l - 1;
            for (t.tid = first; t.tid <= last; t.tid++) {
                b->now = &b->threads_of[t.tid];
                b->lane = t.tid - first;
                if (b->stream)
                    stream_thread(b->stream);
                step(&t, args);
            }
            if (b->stream)
                stream_warp_end(b->stream);
            grade_warp(b, first, last);
            if (b->trace)
                cache_warp_done(b->trace, s, first / b->warp);
        }
        if (b->stream)
            stream_step_end(b->stream);
        commit_step(b);
    }
}

/* The block's figures from its threads' records, which go back to zero:
 * S(B), W(B), α, β, the class counts of the thread that makes S(B) and the
 * block's sums. */
typedef struct block_figures {
    double span, work;
    long alpha, beta;
    uint32_t longest[N_COUNTED];
} block_figures;

static block_figures sum_threads(exec_block *b)
{
    block_figures f = {0};
    double span = 0, work = 0;
    long alpha = 0, beta = 0;
    uint64_t counted[N_COUNTED] = {0};
    for (int i = 0; i < b->threads; i++) {
        thread_record *th = &b->threads_of[i];
        if (th->ops > span) {
            span = th->ops;
            memcpy(f.longest, th->counts, sizeof f.longest);
        }
        work += th->ops;
        alpha = th->words_read > alpha ? th->words_read : alpha;
        beta = th->words_written > beta ? th->words_written : beta;
        for (int c = 0; c < N_COUNTED; c++)
            counted[c] += th->counts[c];
        *th = (thread_record){0};
    }
    for (int c = 0; c < N_COUNTED; c++)
        b->counted[c] = (double)counted[c];
    f.span = span;
    f.work = work;
    f.alpha = alpha;
    f.beta = beta;
    return f;
}

static void run_block(exec_block *b, long bid, long blocks, block_cost *cost)
{
    int l = b->threads;
    memset(b->private_cells, 0, sizeof *b->private_cells * (size_t)(b->k->private_words + 1));
    b->transactions[GLOBAL_READ] = b->transactions[GLOBAL_WRITE] = b->bank_conflicts = 0;
    run_steps(b, bid, blocks);
    block_figures f = sum_threads(b);
    double reads = b->transactions[GLOBAL_READ], writes = b->transactions[GLOBAL_WRITE];
    /* a round of ℓ threads in one address group per warp costs U: one
     * coalesced word per thread, as in the paper */
    double per_transaction = (double)(b->warp < l ? b->warp : l) / l;
    *cost = (block_cost){.span = f.span, .work = f.work,
                         .reads = reads * per_transaction, .writes = writes * per_transaction};
    measured_classes(b, f.longest, cost);
    cost->bank_conflicts = b->bank_conflicts;
    if (b->stream)
        stream_block_end(b->stream, l, cost);
    exec_kernel_report *rep = &b->run->reports[b->run->dag->n];
    rep->span = rep->span > f.span ? rep->span : f.span;
    rep->work += f.work;
    rep->alpha = rep->alpha > f.alpha ? rep->alpha : (double)f.alpha;
    rep->beta = rep->beta > f.beta ? rep->beta : (double)f.beta;
    rep->measured_overhead += b->run->m.u * (cost->reads + cost->writes);
    rep->paper_overhead += b->run->m.u * (double)(f.alpha + f.beta);
    rep->transactions += reads + writes;
    rep->bank_conflicts += b->bank_conflicts;
    if (b->trace && cache_block_done(b->run->caches, bid, b->trace, &cost->sectors) < 0) {
        char why[1024];
        snprintf(why, sizeof why, "%s", fail_message());
        fail("program '%s', kernel '%s': %s", b->run->dag->name, b->k->name, why);
        b->failed = 1;
    }
}

static void block_free(exec_block *b)
{
    cache_trace_free(b->trace);
    free(b->private_cells);
    free(b->private_shadow);
    free(b->threads_of);
    for (int kind = 0; kind < N_KINDS; kind++) {
        free(b->notes[kind]);
        free(b->tallies[kind]);
    }
    free(b->log);
    free(b->private_marks);
    free(b->bank_seen);
    stream_counter_free(b->stream);
}

/* A launch begins on the caches: the arrays allocated since the last
 * launch enter them first (sim/exec/cache.h), and the L1s hold what the blocks
 * resident on their SM leave of them. */
static void caches_launch(exec_run *r, const exec_kernel *k, long blocks, int threads)
{
    for (; r->restored < r->n_arrays; r->restored++)
        cache_restore_array(r->caches, r->arrays[r->restored]->id, r->arrays[r->restored]->size);
    kernel shape = {.blocks = blocks, .threads = threads, .private_words = (double)k->private_words};
    cache_launch_begin(r->caches, blocks, kernel_resident_blocks(&shape, &r->m), (double)k->private_words);
}

static int check_launch(exec_run *r, const exec_kernel *k, long blocks, int threads)
{
    if (blocks < 1 || threads < 1)
        return fail("program '%s', kernel '%s': a launch needs at least 1 block of 1 thread (got %ld of %d)",
                    r->dag->name, k->name, blocks, threads);
    if (blocks > INT32_MAX)
        return fail("program '%s', kernel '%s': %ld blocks; exec mode runs every block for real, at most %d "
                    "in one launch", r->dag->name, k->name, blocks, INT32_MAX);
    if (k->private_words < 0 || (double)k->private_words > r->m.z)
        return fail("program '%s', kernel '%s': declares %ld words of private memory, but Z = %g on machine '%s' "
                    "(rule: a thread-block must fit in the private memory of one SM)",
                    r->dag->name, k->name, k->private_words, r->m.z, r->m.name);
    return 0;
}

int exec_launch(exec_run *r, const exec_kernel *k, long blocks, int threads, void *args)
{
    if (check_launch(r, k, blocks, threads) < 0)
        return -1;
    exec_block b;
    memset(&b, 0, sizeof b);
    b.run = r;
    b.k = k;
    b.args = args;
    b.threads = threads;
    b.warp = r->m.warp > 1024 ? 1024 : r->m.warp;
    b.warp_shift = -1;
    for (int sh = 0; sh <= 10; sh++)
        if (b.warp == 1 << sh)
            b.warp_shift = sh;
    b.race_free = r->race_free;
    b.trace = r->caches ? cache_trace_new(r->caches, b.warp) : NULL;
    b.p = r->p;
    b.add_ops = r->add_ops;
    b.mul_ops = r->mul_ops;
    b.marks = r->marks;
    b.private_cells = calloc((size_t)k->private_words + 1, sizeof *b.private_cells);
    b.private_shadow = r->race_free ? shadows_new(k->private_words + 1) : NULL;
    r->launch++;
    b.threads_of = calloc((size_t)threads, sizeof *b.threads_of);
    b.rounds_cap = 1;
    grow_rounds(&b, 8);
    b.private_marks = calloc((size_t)k->private_words + 1, sizeof *b.private_marks);
    b.bank_seen = calloc((size_t)k->private_words + 1, sizeof *b.bank_seen);
    b.stream = r->stream ? stream_counter_new(r->stream, b.warp, k->n_steps) : NULL;
    r->reports = realloc(r->reports, sizeof *r->reports * (size_t)(r->dag->n + 1));
    exec_kernel_report *rep = &r->reports[r->dag->n];
    memset(rep, 0, sizeof *rep);
    snprintf(rep->name, sizeof rep->name, "%s", k->name);
    rep->blocks = blocks;
    rep->threads = threads;

    block_cost *costs = malloc(sizeof *costs * (size_t)blocks);
    if (r->caches)
        caches_launch(r, k, blocks, threads);
    for (long bid = 0; bid < blocks && !b.failed; bid++)
        run_block(&b, bid, blocks, &costs[bid]);
    if (r->caches)
        cache_launch_end(r->caches);
    int failed = b.failed;
    block_free(&b);
    if (failed) {
        free(costs);
        return -1;
    }
    kernel launch = {.name = (char *)k->name, .blocks = blocks, .threads = threads, .cost = costs[0],
                     .private_words = (double)k->private_words, .per_block = costs};
    if (kernel_dag_chain(r->dag, &launch) < 0) {
        free(costs);
        return -1;
    }
    return 0;
}
