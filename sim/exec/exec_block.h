/*
 * exec_block.h — a worker's state while it runs a block (exec.c), and the
 * fast paths of the private accesses and the Z/pZ operations, which read
 * it.  Private to exec mode: exec.c includes it, and so does a kernel
 * built for exec mode (user_program.c's plain build, MCM_EXEC_INLINE:
 * sim/exec/mcm_kernel.h), so that its accesses' common case runs inline,
 * with no call; the counted build (MCM_COUNTED) calls them, so its
 * instruction stream is the kernel's alone.  Each fast path does what the
 * exported function does (exec_pread is exec_pread_fast) and hands the
 * rest to exec.c's checked path; the invariants are exec.c's (its top).
 */
#ifndef MCM_EXEC_BLOCK_H
#define MCM_EXEC_BLOCK_H

#include "exec.h"

#include <stdint.h>

typedef struct launch_state launch_state;     /* a launch under way (exec.c) */
typedef struct stream_counter stream_counter; /* sim/exec/stream.h */
typedef struct cache_trace cache_trace;       /* sim/exec/cache.h */

/* A cell in the current step of a block: its write in the step's log
 * (-1: none) and, in a race-free run, the first thread that read it and
 * another (-1: none). */
typedef struct step_use {
    int32_t slot, reader, reader2;
} step_use;

/* Thread tid reads the cell of use u: kept if it is the first or second
 * thread to. */
static inline void add_reader(step_use *u, int tid)
{
    if (u->reader < 0)
        u->reader = tid;
    else if (u->reader != tid && u->reader2 < 0)
        u->reader2 = tid;
}

/* Whether a thread other than tid read the cell of use u in the step. */
static inline int read_by_another(const step_use *u, int tid)
{
    return u->reader >= 0 && (u->reader != tid || u->reader2 >= 0);
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
    word *cell;
    word value;
    int thread;
} logged_write;

/* A private word's use in the current step, and in a race-free run the
 * block that last wrote it (its worker's array: one place per word, read
 * by every access). */
typedef struct private_use {
    uint32_t stamp;          /* the step `use` belongs to (exec_block.step_stamp) */
    uint32_t written;        /* race-free: the block_stamp of its last writer */
    step_use use;
} private_use;

static const step_use unused = {-1, -1, -1};

/* A global cell's use in the current step of its worker's block (an
 * entry of exec_block.uses). */
typedef struct cell_use {
    const word *cell;
    uint32_t stamp;          /* the step it belongs to (exec_block.step_stamp) */
    step_use use;
} cell_use;

typedef struct access_note { long key; } access_note;

/* A round of the current warp, tallied as its lanes come, in lane order:
 * while its keys only go one way (`disorder` 0) its distinct keys are
 * counted as they come (`distinct`), and `last` (−1 before the first lane)
 * is the latest; otherwise grading reads the notes.  A round no lane made
 * has `distinct` 0.  A global round may go down (`descending`, from its
 * second distinct key on); a private round only up, and it also keeps its
 * first key, and the step between its distinct keys while they go up by
 * one step (`stride`, 0 once they do not). */
typedef struct round_tally {
    long first, last, stride;
    int distinct, disorder, descending;
} round_tally;

/* The operation classes counted per thread (the others follow from them). */
enum { COUNT_MULMOD, COUNT_ADDMOD, COUNT_PRIVATE, N_COUNTED };

/* The kinds of access graded per round. */
enum { GLOBAL_READ, GLOBAL_WRITE, PRIVATE_ACCESS, N_KINDS };

/* One thread's counters: over the whole kernel, and in the current step
 * its accesses of each kind so far (its next round of that kind).  Its
 * operations are `ops` and, where the run's operation costs are whole
 * numbers (exec_block.whole_costs), its Z/pZ operations' costs and its
 * private accesses (1 each), added when the block ends: whole numbers add
 * up to the same sum in any order. */
typedef struct thread_record {
    double ops;
    uint32_t counts[N_COUNTED];      /* its mulmods, addmods, private accesses (these from its rounds, grade_warp) */
    int rounds[N_KINDS];
    long words_read, words_written;
} thread_record;

struct exec_block {
    exec_run *run;
    launch_state *launch;
    const exec_kernel *k;
    void *args;
    int threads, warp, warp_shift; /* warp = 2^warp_shift, or warp_shift = -1 */
    int race_free;                 /* the run's */
    int shared;                    /* several workers: the shadows change by compare-and-swap */
    uint64_t p;                    /* the run's prime and operation costs */
    uint64_t barrett;              /* ⌊2^64/p⌋ when p < 2^32 (mod_p), else 0 */
    double add_ops, mul_ops;
    int whole_costs;               /* add_ops and mul_ops whole: they and private accesses charged when the block ends */
    word *private_cells;
    long private_words;          /* the kernel's */
    private_use *private_step;   /* per private word: its use in the current step, its writer */
    cell_use *uses;              /* race-free: the global cells of the current step (global_use) */
    size_t uses_cap, uses_n;     /* its room (a power of two), its entries of this step */
    uint32_t block_stamp;        /* one per block the worker runs, from 1 */
    thread_record *threads_of;   /* per thread */
    thread_record *now;          /* the thread running now */
    long lane;                   /* its lane in its warp */
    double counted[N_COUNTED];   /* the counts, summed over the block's threads */
    /* the current warp's accesses, lane by lane: notes[kind][lane · rounds_cap + round]
     * (each thread's notes in a row), and each round's tally */
    access_note *notes[N_KINDS];
    round_tally *tallies[N_KINDS];
    int rounds_cap, rounds_shift; /* rounds_cap = 2^rounds_shift */
    int fast_rounds;           /* rounds the fast path may take (see below) */
    /* the step's writes; a cell's mark (or its use) finds its write (CREW) */
    logged_write *log;
    long log_n, log_cap;
    write_mark step_tag;       /* the current step's (write_mark) */
    uint32_t step_stamp;       /* the worker's steps, from 1: private_use's stamps */
    uint32_t *bank_seen;       /* per private word (fullest_bank) */
    uint32_t bank_stamp;
    /* measured for the current block */
    double transactions[N_KINDS - 1]; /* global reads, writes */
    double bank_conflicts;
    stream_counter *stream;    /* counting the instruction stream, or NULL */
    cache_trace *trace;        /* the block's accesses for the caches, or NULL */
    int failed;
    char error[1024];          /* the block's first error */
};

/* The checked paths (exec.c): everything the fast paths leave. */
word exec_pread_checked(exec_thread *t, long i);
void exec_pwrite_checked(exec_thread *t, long i, word v);

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

static inline word exec_zp_add_fast(exec_thread *t, word a, word b)
{
    exec_block *k = t->block;
    thread_record *me = k->now;
    if (!k->whole_costs)
        me->ops += k->add_ops;
    me->counts[COUNT_ADDMOD]++; /* the block's sums: when it ends */
    if (!reduced(k, a, b))
        return zp_add(k->p, a, b);
    return a + b >= k->p ? a + b - k->p : a + b;
}

static inline word exec_zp_sub_fast(exec_thread *t, word a, word b)
{
    exec_block *k = t->block;
    thread_record *me = k->now;
    if (!k->whole_costs)
        me->ops += k->add_ops;
    me->counts[COUNT_ADDMOD]++;
    if (!reduced(k, a, b))
        return zp_sub(k->p, a, b);
    return a >= b ? a - b : a + k->p - b;
}

static inline word exec_zp_mul_fast(exec_thread *t, word a, word b)
{
    exec_block *k = t->block;
    thread_record *me = k->now;
    if (!k->whole_costs)
        me->ops += k->mul_ops;
    me->counts[COUNT_MULMOD]++;
    return reduced(k, a, b) ? mod_p(k, a * b) : zp_mul(k->p, a, b);
}

/* A private word's key in its round's tally (exec.c's `tally` does a
 * global one): its first key and its stride too (a repeated word is the
 * same access to its bank). */
static inline void tally_private(round_tally *r, long key)
{
    if (key > r->last) {
        long step = key - r->last;
        if (r->distinct == 0)
            r->first = key;
        else if (r->distinct == 1)
            r->stride = step;
        else if (step != r->stride)
            r->stride = 0;
        r->distinct++;
        r->last = key;
    } else if (key < r->last) {
        r->disorder = 1;
    }
}

static inline access_note *note_of(exec_block *b, int kind, int round)
{
    return &b->notes[kind][(b->lane << b->rounds_shift) + round];
}

/* A write of v to private word i by thread tid on the fast path, 0 when
 * it does not apply (nothing changed then; a synchronous run makes its use in the
 * step only when it writes the word; a race-free run, when it reads it
 * too: a write after a read of its own thread alone is no race). */
static inline int private_write_fast(exec_block *b, long i, word v, int tid)
{
    private_use *p = &b->private_step[i];
    int used = p->stamp == b->step_stamp;
    if (__builtin_expect(b->log_n == b->log_cap, 0))
        return 0;
    if (b->race_free) {
        if (v > UINT32_MAX || (used && (p->use.slot >= 0 || p->use.reader != tid || p->use.reader2 >= 0)))
            return 0;
        p->written = b->block_stamp;
    } else if (used) {
        return 0;
    }
    if (used)
        p->use.slot = (int32_t)b->log_n;
    else
        p->stamp = b->step_stamp, p->use = (step_use){(int32_t)b->log_n, -1, -1};
    b->log[b->log_n++] = (logged_write){&b->private_cells[i], v, tid};
    return 1;
}

/* A race-free run's read of private word i by thread tid, noted in its
 * use (as note_read does): 0 when the checked path must take it (a word
 * no thread of the block wrote, or one written in the step); nothing
 * changed then. */
static inline int private_read_fast(exec_block *b, long i, int tid)
{
    private_use *p = &b->private_step[i];
    if (p->written != b->block_stamp)
        return 0;
    if (p->stamp != b->step_stamp) {
        p->stamp = b->step_stamp, p->use = (step_use){-1, tid, -1};
        return 1;
    }
    step_use *u = &p->use;
    if (u->slot >= 0)
        return 0;
    add_reader(u, tid);
    return 1;
}

/* A private access of the fast path: noted, tallied and counted. */
static inline void private_fast(exec_block *b, thread_record *me, int round, long i)
{
    me->rounds[PRIVATE_ACCESS] = round + 1;
    note_of(b, PRIVATE_ACCESS, round)->key = i;
    tally_private(&b->tallies[PRIVATE_ACCESS][round], i);
    if (!b->whole_costs)
        me->ops += 1;
}

static inline word exec_pread_fast(exec_thread *t, long i)
{
    exec_block *b = t->block;
    thread_record *me = b->now;
    int round = me->rounds[PRIVATE_ACCESS];
    if (__builtin_expect((unsigned long)i >= (unsigned long)b->private_words || round >= b->fast_rounds ||
                             (b->race_free && !private_read_fast(b, i, t->tid)), 0))
        return exec_pread_checked(t, i);
    private_fast(b, me, round, i);
    return b->private_cells[i];
}

static inline void exec_pwrite_fast(exec_thread *t, long i, word v)
{
    exec_block *b = t->block;
    thread_record *me = b->now;
    int round = me->rounds[PRIVATE_ACCESS];
    if (__builtin_expect((unsigned long)i >= (unsigned long)b->private_words || round >= b->fast_rounds ||
                             !private_write_fast(b, i, v, t->tid), 0)) {
        exec_pwrite_checked(t, i, v);
        return;
    }
    private_fast(b, me, round, i);
}

#if defined(MCM_EXEC_INLINE) && !defined(MCM_COUNTED)
#define exec_pread exec_pread_fast
#define exec_pwrite exec_pwrite_fast
#define exec_zp_add exec_zp_add_fast
#define exec_zp_sub exec_zp_sub_fast
#define exec_zp_mul exec_zp_mul_fast
#endif

#endif
