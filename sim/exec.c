/*
 * exec.c — running kernels for real and measuring them (see exec.h).
 *
 * A launch runs its blocks one after another (the model leaves their order
 * free, and a correct MCM program cannot tell).  For each block, each step
 * runs every thread in order tid = 0 .. ℓ-1; the step's writes go to a log
 * and are committed when the last thread is done, so every read of the
 * step sees memory as it was before it.  Every cell has a mark saying
 * whether the step's log holds a write to it, and where: a second write
 * finds the first (the same thread's last write wins; another thread's is
 * a CREW error).  While the threads of a warp run, their accesses are
 * noted per round (a thread's k-th access of the step is round k) and each
 * round is tallied as its lanes come; when the warp's last thread is done
 * the rounds are graded (distinct address groups for global memory, the
 * fullest bank for private memory): from the tally where the lanes'
 * addresses never went down, which is the common case, by sorting the
 * notes otherwise.
 *
 * Races (exec_set_race_free).  Exec mode runs blocks one after another
 * and a step's threads one after another; the card runs both in no fixed
 * order.  So that a kernel means the same on both (a kernel written once,
 * sim/mcm_kernel.h), every access of such a run is checked against a
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
 * Invariants kept here: between steps the write log is empty; between
 * blocks every per-thread counter is zero; a recorded error stops the
 * launch at the end of the step in which it happened; a shadow's stamps
 * (launch number, step epoch) only grow, so a stale stamp is never taken
 * for the present.
 */
#include "exec.h"
#include "fail.h"

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

/* A cell's mark: while `stamp` is the current step's (exec_run.stamp), the
 * step's write log holds a write to the cell, at `slot`.  Stamps count
 * steps modulo 2^32; when the count wraps every mark is cleared
 * (new_step), so a stale stamp is never taken for the present. */
typedef struct write_mark {
    uint32_t stamp, slot;
} write_mark;

struct exec_run {
    machine m;
    uint64_t p;
    double add_ops, mul_ops;
    kernel_dag *dag;
    gmem *arrays;
    cell_shadow **shadows;  /* per array, one per cell */
    write_mark **marks;     /* per array, one per cell */
    uint32_t stamp;         /* the step's write stamp (see write_mark) */
    int n_arrays;
    exec_kernel_report *reports;
    uint32_t launch;        /* launches so far: the current one's number */
    uint64_t epoch;         /* steps so far, all blocks: the current one's */
    int race_free;          /* check races (exec_set_race_free) */
};

typedef struct logged_write {
    word *cell;
    word value;
    int thread;
} logged_write;

typedef struct access_note { long key; } access_note;

/* A round of the current warp, tallied as its lanes come, in lane order:
 * while its keys do not go down (`disorder` 0) its distinct keys are
 * counted as they come (`distinct`), and `first` and `last` bound them;
 * otherwise grading sorts the notes.  A private round also counts a
 * repeated key as disorder: its banks are then graded from the notes. */
typedef struct round_tally {
    long first, last;
    int distinct, n, disorder;
} round_tally;

/* The operation classes counted per thread (the others follow from them). */
enum { COUNT_MULMOD, COUNT_ADDMOD, COUNT_PRIVATE, N_COUNTED };

struct exec_block {
    exec_run *run;
    const exec_kernel *k;
    void *args;
    int threads, warp, warp_shift; /* warp = 2^warp_shift, or warp_shift = -1 */
    word *private_cells;
    cell_shadow *private_shadow; /* per private word (only the step fields) */
    /* per thread, over the whole kernel */
    double *ops;
    uint32_t *counts;    /* [thread·N_COUNTED + i]: its mulmods, addmods, private accesses */
    double counted[N_COUNTED]; /* the same, summed over the block's threads */
    long *words_read, *words_written;
    /* per thread, in the current step: its next read/write/private round */
    int *read_round, *write_round, *private_round;
    /* the current warp's accesses: note[round * warp + lane], and each round's tally */
    access_note *reads, *writes, *privates;
    round_tally *read_tally, *write_tally, *private_tally;
    int rounds_cap;
    int max_read_round, max_write_round, max_private_round;
    /* the step's writes; each cell's mark finds its place (CREW) */
    logged_write *log;
    long log_n, log_cap;
    write_mark *private_marks; /* per private word */
    /* measured for the current block */
    double read_transactions, write_transactions, bank_conflicts;
    int failed;
};

exec_run *exec_begin(const char *program, const machine *m)
{
    exec_run *r = calloc(1, sizeof *r);
    r->m = *m;
    r->p = 469762049;
    r->add_ops = 5;
    r->mul_ops = 11;
    r->dag = kernel_dag_new(program);
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

void exec_ops(exec_thread *t, long n) { t->block->ops[t->tid] += (double)n; }

/* One operation of a counted class by thread `tid` (see measured_classes). */
static inline void count(exec_block *b, int tid, int what)
{
    b->counts[(size_t)tid * N_COUNTED + what]++; /* the block's sums: when it ends */
}

word exec_zp_add(exec_thread *t, word a, word b)
{
    t->block->ops[t->tid] += t->block->run->add_ops;
    count(t->block, t->tid, COUNT_ADDMOD);
    return zp_add(t->block->run->p, a, b);
}

word exec_zp_sub(exec_thread *t, word a, word b)
{
    t->block->ops[t->tid] += t->block->run->add_ops;
    count(t->block, t->tid, COUNT_ADDMOD);
    return zp_sub(t->block->run->p, a, b);
}

word exec_zp_mul(exec_thread *t, word a, word b)
{
    t->block->ops[t->tid] += t->block->run->mul_ops;
    count(t->block, t->tid, COUNT_MULMOD);
    return zp_mul(t->block->run->p, a, b);
}

word exec_zp_pow(exec_thread *t, word a, uint64_t e)
{
    word x = 1;
    for (a %= t->block->run->p; e; e >>= 1) {
        if (e & 1)
            x = exec_zp_mul(t, x, a);
        if (e > 1)
            a = exec_zp_mul(t, a, a);
    }
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

static inline long lane_of(const exec_block *b, int tid)
{
    return b->warp_shift >= 0 ? tid & (b->warp - 1) : tid % b->warp;
}

static inline long group_of(const exec_block *b, long i)
{
    return b->warp_shift >= 0 ? i >> b->warp_shift : i / b->warp;
}

static void grow_rounds_slow(exec_block *b, int need);

static inline void grow_rounds(exec_block *b, int need)
{
    if (need >= b->rounds_cap)
        grow_rounds_slow(b, need);
}

static void grow_rounds_slow(exec_block *b, int need)
{
    int cap = b->rounds_cap, tallied = b->read_tally ? b->rounds_cap : 0;
    while (cap <= need)
        cap *= 2;
    size_t size = sizeof(access_note) * (size_t)cap * (size_t)b->warp;
    b->reads = realloc(b->reads, size);
    b->writes = realloc(b->writes, size);
    b->privates = realloc(b->privates, size);
    size_t tallies = sizeof(round_tally) * (size_t)cap;
    b->read_tally = realloc(b->read_tally, tallies);
    b->write_tally = realloc(b->write_tally, tallies);
    b->private_tally = realloc(b->private_tally, tallies);
    for (int k = tallied; k < cap; k++)
        b->read_tally[k] = b->write_tally[k] = b->private_tally[k] = (round_tally){0};
    b->rounds_cap = cap;
}

/* The value this step's log holds for a cell (`otherwise` if none). */
static word pending_write(const exec_block *b, const write_mark *mark, word otherwise)
{
    return mark->stamp == b->run->stamp ? b->log[mark->slot].value : otherwise;
}

/* Key `key` of a lane, in its round's tally. */
static inline void tally(round_tally *r, long key)
{
    if (r->n++ == 0) {
        r->first = r->last = key;
        r->distinct = 1;
    } else if (key > r->last) {
        r->last = key;
        r->distinct++;
    } else if (key < r->last) {
        r->disorder = 1;
    }
}

word exec_gread(exec_thread *t, gmem a, long i)
{
    exec_block *b = t->block;
    if (i < 0 || i >= a->size) {
        rule_broken(t, "reads %s[%ld], outside its %ld cells", a->name, i, a->size);
        return 0;
    }
    int round = b->read_round[t->tid]++;
    grow_rounds(b, round);
    long key = (long)a->id << 40 | group_of(b, i);
    b->reads[(long)round * b->warp + lane_of(b, t->tid)].key = key;
    tally(&b->read_tally[round], key);
    if (round + 1 > b->max_read_round)
        b->max_read_round = round + 1;
    b->words_read[t->tid]++;
    if (b->run->race_free && note_read(t, &b->run->shadows[a->id][i], 1, a->name, i))
        return pending_write(b, &b->run->marks[a->id][i], a->cells[i]);
    return a->cells[i];
}

/* The step's write log, with the CREW check: a cell written by two
 * threads in one step is an error. */
static void log_write(exec_thread *t, write_mark *mark, word *cell, word value, const char *name, long index)
{
    exec_block *b = t->block;
    if (mark->stamp == b->run->stamp) {
        logged_write *w = &b->log[mark->slot];
        if (w->thread != t->tid && !b->failed) {
            b->failed = 1;
            fail("program '%s', kernel '%s', block %ld, step %d: threads %d and %d both write %s[%ld] "
                 "(rule: CREW, concurrent reads but exclusive writes)", b->run->dag->name, b->k->name,
                 t->bid, t->step, w->thread, t->tid, name, index);
        }
        w->value = value; /* the same thread again: its last write wins */
        return;
    }
    if (b->log_n == b->log_cap) {
        b->log_cap = b->log_cap ? 2 * b->log_cap : 1024;
        b->log = realloc(b->log, sizeof *b->log * (size_t)b->log_cap);
    }
    *mark = (write_mark){b->run->stamp, (uint32_t)b->log_n};
    b->log[b->log_n++] = (logged_write){cell, value, t->tid};
}

void exec_gwrite(exec_thread *t, gmem a, long i, word v)
{
    exec_block *b = t->block;
    if (i < 0 || i >= a->size) {
        rule_broken(t, "writes %s[%ld], outside its %ld cells", a->name, i, a->size);
        return;
    }
    if (b->run->race_free && !word_fits(t, a->name, i, v))
        return;
    int round = b->write_round[t->tid]++;
    grow_rounds(b, round);
    long key = (long)a->id << 40 | group_of(b, i);
    b->writes[(long)round * b->warp + lane_of(b, t->tid)].key = key;
    tally(&b->write_tally[round], key);
    if (round + 1 > b->max_write_round)
        b->max_write_round = round + 1;
    b->words_written[t->tid]++;
    if (b->run->race_free)
        note_write(t, &b->run->shadows[a->id][i], 1, a->name, i);
    log_write(t, &b->run->marks[a->id][i], &a->cells[i], v, a->name, i);
}

static int private_ok(exec_thread *t, long i, const char *verb)
{
    exec_block *b = t->block;
    if (i >= 0 && i < b->k->private_words)
        return 1;
    rule_broken(t, "private memory: %s word %ld, outside the kernel's %ld words", verb, i, b->k->private_words);
    return 0;
}

static void note_private(exec_thread *t, long i)
{
    exec_block *b = t->block;
    int round = b->private_round[t->tid]++;
    grow_rounds(b, round);
    b->privates[(long)round * b->warp + lane_of(b, t->tid)].key = i;
    round_tally *r = &b->private_tally[round]; /* banks need distinct, increasing keys (fullest_bank) */
    if (r->n > 0 && i == r->last)
        r->disorder = 1;
    tally(r, i);
    if (round + 1 > b->max_private_round)
        b->max_private_round = round + 1;
    b->ops[t->tid] += 1; /* a private access is a local operation */
    count(b, t->tid, COUNT_PRIVATE);
}

word exec_pread(exec_thread *t, long i)
{
    if (!private_ok(t, i, "reads"))
        return 0;
    note_private(t, i);
    exec_block *b = t->block;
    if (b->run->race_free && note_read(t, &b->private_shadow[i], 0, "private", i))
        return pending_write(b, &b->private_marks[i], b->private_cells[i]);
    return b->private_cells[i];
}

void exec_pwrite(exec_thread *t, long i, word v)
{
    if (!private_ok(t, i, "writes") || (t->block->run->race_free && !word_fits(t, "private", i, v)))
        return;
    note_private(t, i);
    if (t->block->run->race_free)
        note_write(t, &t->block->private_shadow[i], 0, "private", i);
    log_write(t, &t->block->private_marks[i], &t->block->private_cells[i], v, "private", i);
}

/* ---- grading a warp's rounds ---------------------------------------------- */

static int compare_keys(const void *x, const void *y)
{
    long a = *(const long *)x, b = *(const long *)y;
    return (a > b) - (a < b);
}

/* Distinct keys among the lanes first..last that made round k. */
static int distinct_keys(const access_note *row, const int *made, int first, int last, int k)
{
    long keys[1024];
    int n = 0, sorted = 1;
    for (int t = first; t <= last; t++)
        if (made[t] > k) {
            keys[n] = row[t - first].key;
            sorted &= n == 0 || keys[n] >= keys[n - 1];
            n++;
        }
    if (!sorted)
        qsort(keys, (size_t)n, sizeof *keys, compare_keys);
    int distinct = n > 0;
    for (int i = 1; i < n; i++)
        distinct += keys[i] != keys[i - 1];
    return distinct;
}

/* DMM: the most distinct addresses that one bank must serve in round k. */
static int fullest_bank(const access_note *row, const int *made, int first, int last, int warp, int k)
{
    long keys[1024];
    int n = 0, increasing = 1;
    for (int t = first; t <= last; t++)
        if (made[t] > k) {
            keys[n] = row[t - first].key;
            increasing &= n == 0 || keys[n] > keys[n - 1];
            n++;
        }
    if (n == 0)
        return 0;
    if (increasing && keys[n - 1] - keys[0] < warp)
        return 1; /* distinct addresses within w consecutive words: distinct banks */
    if (!increasing)
        qsort(keys, (size_t)n, sizeof *keys, compare_keys);
    int in_bank[1024], most = 0;
    memset(in_bank, 0, sizeof *in_bank * (size_t)warp);
    for (int i = 0; i < n; i++)
        if (i == 0 || keys[i] != keys[i - 1]) {
            int bank = (int)(keys[i] % warp);
            if (++in_bank[bank] > most)
                most = in_bank[bank];
        }
    return most;
}

static void grade_warp(exec_block *b, int first, int last)
{
    int w = b->warp;
    for (int k = 0; k < b->max_read_round; k++) {
        round_tally *r = &b->read_tally[k];
        b->read_transactions += r->disorder ? distinct_keys(b->reads + (long)k * w, b->read_round, first, last, k)
                                            : r->distinct;
        *r = (round_tally){0};
    }
    for (int k = 0; k < b->max_write_round; k++) {
        round_tally *r = &b->write_tally[k];
        b->write_transactions += r->disorder
                                     ? distinct_keys(b->writes + (long)k * w, b->write_round, first, last, k)
                                     : r->distinct;
        *r = (round_tally){0};
    }
    for (int k = 0; k < b->max_private_round; k++) {
        round_tally *r = &b->private_tally[k];
        int most = !r->disorder && r->last - r->first < w
                       ? 1 /* distinct addresses within w consecutive words: distinct banks */
                       : fullest_bank(b->privates + (long)k * w, b->private_round, first, last, w, k);
        if (most > 1)
            b->bank_conflicts += most - 1;
        *r = (round_tally){0};
    }
    for (int t = first; t <= last; t++)
        b->read_round[t] = b->write_round[t] = b->private_round[t] = 0;
    b->max_read_round = b->max_write_round = b->max_private_round = 0;
}

/* ---- running a launch ------------------------------------------------------- */

static void commit_step(exec_block *b)
{
    for (long i = 0; i < b->log_n; i++)
        *b->log[i].cell = b->log[i].value;
    b->log_n = 0;
}

/* A step begins: a new epoch (races) and a new write stamp; when the
 * stamps wrap, every mark is cleared. */
static void new_step(exec_block *b)
{
    exec_run *r = b->run;
    r->epoch++;
    if (++r->stamp != 0)
        return;
    for (int i = 0; i < r->n_arrays; i++)
        memset(r->marks[i], 0, sizeof **r->marks * (size_t)(r->arrays[i]->size > 0 ? r->arrays[i]->size : 1));
    memset(b->private_marks, 0, sizeof *b->private_marks * (size_t)(b->k->private_words + 1));
    r->stamp = 1;
}

/* The block's operations by class (sim/kernel_dag.h), given `mine`, the
 * counts of the thread whose operations make S(B): mulmods, addmods and
 * private accesses as counted, a barrier between each two steps, and as
 * plain what the count holds beyond them (S(B) and W(B) charge a mulmod
 * mul_ops and an addmod add_ops). */
static void measured_classes(const exec_block *b, const uint32_t *mine, block_cost *cost)
{
    const double *total = b->counted;
    double barriers = b->k->n_steps - 1;
    double mul = b->run->mul_ops, add = b->run->add_ops;
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

static void run_block(exec_block *b, long bid, long blocks, block_cost *cost)
{
    int l = b->threads;
    memset(b->private_cells, 0, sizeof *b->private_cells * (size_t)(b->k->private_words + 1));
    memset(b->counted, 0, sizeof b->counted);
    b->read_transactions = b->write_transactions = b->bank_conflicts = 0;
    for (int s = 0; s < b->k->n_steps && !b->failed; s++) {
        new_step(b);
        exec_thread t = {0, l, bid, blocks, s, b};
        for (t.tid = 0; t.tid < l; t.tid++) {
            b->k->steps[s](&t, b->args);
            if (lane_of(b, t.tid + 1) == 0 || t.tid == l - 1)
                grade_warp(b, t.tid - (int)lane_of(b, t.tid), t.tid);
        }
        commit_step(b);
    }
    double span = 0, work = 0;
    long alpha = 0, beta = 0;
    uint32_t longest[N_COUNTED] = {0}; /* the counts of the thread whose operations make S(B) */
    for (int i = 0; i < l; i++) { /* the block's figures; each thread's counters back to zero */
        uint32_t *mine = &b->counts[(size_t)i * N_COUNTED];
        if (b->ops[i] > span)
            memcpy(longest, mine, sizeof longest);
        span = b->ops[i] > span ? b->ops[i] : span;
        work += b->ops[i];
        alpha = b->words_read[i] > alpha ? b->words_read[i] : alpha;
        beta = b->words_written[i] > beta ? b->words_written[i] : beta;
        for (int c = 0; c < N_COUNTED; c++)
            b->counted[c] += mine[c];
        memset(mine, 0, sizeof *mine * N_COUNTED);
        b->ops[i] = 0;
        b->words_read[i] = b->words_written[i] = 0;
    }
    /* a round of ℓ threads in one address group per warp costs U: one
     * coalesced word per thread, as in the paper */
    double per_transaction = (double)(b->warp < l ? b->warp : l) / l;
    *cost = (block_cost){.span = span, .work = work,
                         .reads = b->read_transactions * per_transaction,
                         .writes = b->write_transactions * per_transaction};
    measured_classes(b, longest, cost);
    exec_kernel_report *rep = &b->run->reports[b->run->dag->n];
    rep->span = rep->span > span ? rep->span : span;
    rep->work += work;
    rep->alpha = rep->alpha > alpha ? rep->alpha : (double)alpha;
    rep->beta = rep->beta > beta ? rep->beta : (double)beta;
    rep->measured_overhead += b->run->m.u * (cost->reads + cost->writes);
    rep->paper_overhead += b->run->m.u * (double)(alpha + beta);
    rep->transactions += b->read_transactions + b->write_transactions;
    rep->bank_conflicts += b->bank_conflicts;
}

static void block_free(exec_block *b)
{
    free(b->private_cells);
    free(b->private_shadow);
    free(b->ops);
    free(b->counts);
    free(b->words_read);
    free(b->words_written);
    free(b->read_round);
    free(b->write_round);
    free(b->private_round);
    free(b->reads);
    free(b->writes);
    free(b->privates);
    free(b->read_tally);
    free(b->write_tally);
    free(b->private_tally);
    free(b->log);
    free(b->private_marks);
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
    b.private_cells = calloc((size_t)k->private_words + 1, sizeof *b.private_cells);
    b.private_shadow = r->race_free ? shadows_new(k->private_words + 1) : NULL;
    r->launch++;
    b.ops = calloc((size_t)threads, sizeof *b.ops);
    b.counts = calloc((size_t)threads * N_COUNTED, sizeof *b.counts);
    b.words_read = calloc((size_t)threads, sizeof *b.words_read);
    b.words_written = calloc((size_t)threads, sizeof *b.words_written);
    b.read_round = calloc((size_t)threads, sizeof *b.read_round);
    b.write_round = calloc((size_t)threads, sizeof *b.write_round);
    b.private_round = calloc((size_t)threads, sizeof *b.private_round);
    b.rounds_cap = 1;
    grow_rounds(&b, 8);
    b.private_marks = calloc((size_t)k->private_words + 1, sizeof *b.private_marks);
    r->reports = realloc(r->reports, sizeof *r->reports * (size_t)(r->dag->n + 1));
    exec_kernel_report *rep = &r->reports[r->dag->n];
    memset(rep, 0, sizeof *rep);
    snprintf(rep->name, sizeof rep->name, "%s", k->name);
    rep->blocks = blocks;
    rep->threads = threads;

    block_cost *costs = malloc(sizeof *costs * (size_t)blocks);
    for (long bid = 0; bid < blocks && !b.failed; bid++)
        run_block(&b, bid, blocks, &costs[bid]);
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
