/*
 * stream.c — counting the instruction stream of a launch as exec mode runs
 * it (see stream.h).
 *
 * The running thread's passes through each basic block are counted in
 * `pass` (its code calls mcm_stream_block(block) at the top of every
 * block).  When the next thread of the warp starts, or the warp ends, they
 * are folded into the warp's: per block the most passes of one thread, a
 * warp issuing the union of its threads' paths.  When the warp ends its
 * passes are weighed (instructions, and calls of each class); when the
 * step ends, its busiest warp is the step's path.  When the block ends its
 * warps' instructions (every step, plus the kernel's entry and a barrier
 * between each two steps) and its path go into its block_cost.
 *
 * Invariants: between two threads `pass` is zero and `touched` empty;
 * between two warps `most` is zero; between two blocks every sum is zero.
 * Only the thread that runs a block counts: `running` is per host thread,
 * NULL outside a step (the setup and check of a program count nothing).
 */
#include "stream.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct stream_counter {
    const stream_table *t;
    int warp, steps;            /* threads per warp, steps of the kernel */
    uint32_t *pass;             /* per basic block: the running thread's passes */
    uint32_t *most;             /* per basic block: the most passes of one thread of the warp */
    int *touched, n_touched;    /* blocks the running thread passed */
    int *warp_touched, n_warp;  /* blocks the warp passed */
    double extra[2], warp_extra[2]; /* stream_extra: the thread's, the warp's most */
    double path[STREAM_FIELDS];     /* the busiest warp of the step so far */
    double work;                    /* the block's warps' instructions */
    double span[STREAM_FIELDS];     /* the block's path, step after step */
    uint32_t *reads;                /* per warp of the block: its STREAM_READS over its steps */
    int warp_no, n_reads;           /* the step's warp now; warps seen */
    int step_no;                    /* the block's step now */
};

/* The counter whose thread runs now on this host thread. */
static _Thread_local stream_counter *running;

stream_counter *stream_counter_new(const stream_table *t, int warp, int steps)
{
    stream_counter *c = calloc(1, sizeof *c);
    size_t n = (size_t)t->blocks + 1;
    c->t = t;
    c->steps = steps;
    c->warp = warp;
    c->pass = calloc(n, sizeof *c->pass);
    c->most = calloc(n, sizeof *c->most);
    c->touched = malloc(sizeof *c->touched * n);
    c->warp_touched = malloc(sizeof *c->warp_touched * n);
    return c;
}

void stream_counter_free(stream_counter *c)
{
    if (!c)
        return;
    if (running == c)
        running = NULL;
    free(c->pass);
    free(c->most);
    free(c->touched);
    free(c->warp_touched);
    free(c->reads);
    free(c);
}

void mcm_stream_block(uint32_t id)
{
    stream_counter *c = running;
    if (!c || id >= (uint32_t)c->t->blocks)
        return;
    if (c->pass[id]++ == 0)
        c->touched[c->n_touched++] = (int)id;
}

void stream_extra(double mulmods, double loops)
{
    if (running) {
        running->extra[0] += mulmods;
        running->extra[1] += loops;
    }
}

/* The running thread's passes into the warp's: per block, the most. */
static void fold_thread(stream_counter *c)
{
    for (int i = 0; i < c->n_touched; i++) {
        int id = c->touched[i];
        if (c->most[id] == 0)
            c->warp_touched[c->n_warp++] = id;
        if (c->pass[id] > c->most[id])
            c->most[id] = c->pass[id];
        c->pass[id] = 0;
    }
    c->n_touched = 0;
    for (int k = 0; k < 2; k++) {
        c->warp_extra[k] = fmax(c->warp_extra[k], c->extra[k]);
        c->extra[k] = 0;
    }
}

void stream_thread(stream_counter *c)
{
    fold_thread(c);
    running = c;
}

void stream_warp_end(stream_counter *c)
{
    fold_thread(c);
    running = NULL;
    double w[STREAM_FIELDS] = {0};
    uint32_t reads = 0;
    for (int i = 0; i < c->n_warp; i++) {
        int id = c->warp_touched[i];
        for (int k = 0; k < STREAM_FIELDS; k++)
            if (k != STREAM_READS)
                w[k] += (double)c->t->weight[id][k] * c->most[id];
        reads |= c->t->weight[id][STREAM_READS];
        c->most[id] = 0;
    }
    if (c->step_no + 1 < c->steps) { /* a return out of a step but the last: BSSY, BSYNC */
        w[STREAM_INST] += 2 * w[STREAM_EXITS];
        w[STREAM_PLAIN] += 2 * w[STREAM_EXITS];
    }
    c->n_warp = 0;
    if (c->warp_no >= c->n_reads) {
        uint32_t *more = realloc(c->reads, sizeof *more * (size_t)(c->warp_no + 1));
        if (!more) {
            fprintf(stderr, "mcmsim: out of memory counting a block's instructions\n");
            exit(70);
        }
        c->reads = more;
        c->reads[c->n_reads++] = 0;
    }
    c->reads[c->warp_no++] |= reads;
    /* exec_zp_pow's loop: a squaring in every pass but the last, the
     * multiplications the rest of its products */
    double passes = c->warp_extra[1], squares = passes > 0 ? passes - 1 : 0;
    double multiplies = fmax(c->warp_extra[0] - squares, 0);
    double loop = passes * stream_call_cost("exec_zp_pow:iteration");
    double products = squares * stream_call_cost("exec_zp_pow:square") +
                      multiplies * stream_call_cost("exec_zp_pow:multiply");
    w[STREAM_MULMOD] += c->warp_extra[0];
    w[STREAM_INST] += loop + products;
    w[STREAM_PLAIN] += loop + products - c->warp_extra[0] * stream_call_cost("exec_zp_mul"); /* the checks */
    c->warp_extra[0] = c->warp_extra[1] = 0;
    c->work += w[STREAM_INST];
    if (w[STREAM_INST] > c->path[STREAM_INST])
        memcpy(c->path, w, sizeof w);
}

void stream_step_end(stream_counter *c)
{
    c->warp_no = 0;
    c->step_no++;
    for (int k = 0; k < STREAM_FIELDS; k++)
        c->span[k] += c->path[k];
    memset(c->path, 0, sizeof c->path);
}

void stream_block_end(stream_counter *c, int threads, block_cost *cost)
{
    double warps = ceil((double)threads / c->warp), barriers = c->steps - 1;
    /* every warp enters the kernel, and waits at each barrier between two steps */
    double fixed = stream_call_cost("kernel:entry") + barriers * stream_call_cost("__syncthreads");
    /* each warp reads the thread's indices it uses once (stream.h, STREAM_READS) */
    double reads = 0, most_reads = 0;
    for (int i = 0; i < c->n_reads; i++) {
        double r = __builtin_popcount(c->reads[i]);
        reads += r;
        most_reads = fmax(most_reads, r);
        c->reads[i] = 0;
    }
    c->warp_no = c->step_no = 0;
    cost->stream = 1;
    cost->stream_work = c->work + warps * fixed + reads;
    cost->stream_span[OP_PLAIN] = c->span[STREAM_PLAIN] + fixed + most_reads;
    cost->stream_span[OP_MULMOD] = c->span[STREAM_MULMOD];
    cost->stream_span[OP_ADDMOD] = c->span[STREAM_ADDMOD];
    cost->stream_span[OP_PRIVATE] = c->span[STREAM_PRIVATE];
    cost->stream_span[OP_BARRIER] = barriers;
    c->work = 0;
    memset(c->span, 0, sizeof c->span);
}
