/*
 * waves.c — the block scheduler under `parallel` with one block per SM
 * (stage.h, `scheduler`).
 *
 * A block is then a delay that its SM alone decides, so one actor, the
 * card's block scheduler, plays every SM.  It knows when each SM's block
 * ends, sleeps until the next end or the next launch, and does each
 * instant's work in a fixed order: the blocks that end then are done,
 * lowest SM first; the kernels due are launched; then the idle SMs take
 * ready blocks, lowest SM first.  SimGrid's order among actors woken at
 * one instant plays no part in the result.
 *
 * Waves.  Say every SM runs a block of one kernel, the kernel is first in
 * line (FIFO order), and all its blocks cost the same d cycles.  Then
 * nothing can change what the SMs do until that kernel's blocks run out.
 * Releases and launches only queue kernels behind it, and no SM is idle.
 * Each SM takes one block per round, in the order in which the current
 * blocks end (ties to the lower SM).  The scheduler moves every SM
 * m = (blocks left) / P rounds ahead at once.  The figures and the trace
 * rows are those of the m·P blocks taken one by one.  It makes a wave only
 * where every time and count involved is a whole number below 2^53.  Such
 * sums are exact, so m rounds at once equal m rounds in turn to the last
 * bit.  --block-by-block turns waves off.
 */
#include "fail.h"
#include "stage.h"

#include <simgrid/actor.h>
#include <simgrid/host.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The block on an SM. */
typedef struct sm_block {
    block b;
    block_times t;
    double start, end;
} sm_block;

static struct waves {
    sm_block *on_sm;    /* each SM's block */
    int *heap, n_heap;  /* busy SMs, earliest end first, ties to the lower SM */
    uint64_t *idle_sms; /* a bit per idle SM */
    long *running;      /* per kernel, its blocks on SMs now */
    int *wave_order;    /* the SMs by end, for a wave */
    double wave_blocks; /* blocks that waves covered */
} W;

/* The heap's order: the earlier end first, ties to the lower SM. */
static int ends_before(int a, int b)
{
    double ea = W.on_sm[a].end, eb = W.on_sm[b].end;
    return ea < eb || (ea == eb && a < b);
}

static void heap_push(int sm)
{
    int i = W.n_heap++;
    while (i > 0 && ends_before(sm, W.heap[(i - 1) / 2])) {
        W.heap[i] = W.heap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    W.heap[i] = sm;
}

static int heap_pop(void)
{
    int top = W.heap[0], last = W.heap[--W.n_heap], i = 0;
    for (;;) {
        int c = 2 * i + 1;
        if (c >= W.n_heap)
            break;
        if (c + 1 < W.n_heap && ends_before(W.heap[c + 1], W.heap[c]))
            c++;
        if (!ends_before(W.heap[c], last))
            break;
        W.heap[i] = W.heap[c];
        i = c;
    }
    W.heap[i] = last;
    return top;
}

static void set_idle(int sm, int idle)
{
    uint64_t bit = (uint64_t)1 << (sm % 64);
    W.idle_sms[sm / 64] = idle ? W.idle_sms[sm / 64] | bit : W.idle_sms[sm / 64] & ~bit;
}

static void sm_start_block(int sm, const block *b)
{
    sm_block *on = &W.on_sm[sm];
    on->b = *b;
    on->t = block_times_of(b);
    on->start = S.now;
    on->end = S.now + block_cycles(&on->t);
    if (b->first)
        S.out->kernels[b->kernel].start = S.now;
    W.running[b->kernel]++;
    set_idle(sm, 0);
    heap_push(sm);
}

static phases phases_of(const sm_block *on, double start)
{
    phases ph = {start + on->t.wait + on->t.read, 0};
    ph.write_start = ph.read_end + on->t.compute;
    return ph;
}

static void sm_finish_block(int sm)
{
    sm_block *on = &W.on_sm[sm];
    charge_blocks(&on->t, 1);
    W.running[on->b.kernel]--;
    set_idle(sm, 1);
    block_done(sm, sm, &on->b, on->start, on->end, on->t.read, on->t.compute, on->t.write, phases_of(on, on->start));
}

/* Idle SMs take ready blocks, lowest SM first. */
static void idle_sms_take(void)
{
    for (int w = 0; w * 64 < S.n_slots && S.n_ready > 0; w++)
        while (W.idle_sms[w] && S.n_ready > 0) {
            block b;
            take_ready_block(&b);
            sm_start_block(w * 64 + __builtin_ctzll(W.idle_sms[w]), &b);
        }
}

static int order_by_end(const void *a, const void *b)
{
    int sa = *(const int *)a, sb = *(const int *)b;
    return ends_before(sa, sb) ? -1 : ends_before(sb, sa);
}

/* Is a wave of `rounds` rounds of kernel k exact?  Every SM runs one of
 * its blocks (they cost alike); every figure stays a whole number. */
static int wave_is_exact(const kernel *kn, const block_times *t, long rounds)
{
    double d = block_cycles(t), n = (double)rounds * S.n_slots;
    double work = kn->cost.work, moved = t->read + t->write;
    if (!whole(d) || !whole(work) || !whole(moved) || !whole(S.out->costs.W + n * work) ||
        !whole(S.out->costs.O + n * moved))
        return 0;
    for (int i = 0; i < W.n_heap; i++) {
        int sm = W.heap[i];
        if (!whole(W.on_sm[sm].end) || !whole(W.on_sm[sm].end + (double)rounds * d) ||
            !whole(S.busy[sm] + (double)rounds * d))
            return 0;
    }
    return 1;
}

/* The trace rows of a wave, in the order block by block writes them:
 * round by round, and in a round by end (`order`). */
static void wave_trace(const int *order, long first, long rounds, double d)
{
    int p = S.n_slots;
    for (long j = 0; j < rounds; j++)
        for (int r = 0; r < p; r++) {
            const sm_block *on = &W.on_sm[order[r]];
            block b = on->b;
            double start = on->start;
            if (j > 0) {
                b.index = first + (j - 1) * p + r;
                b.first = 0;
                start = on->end + (double)(j - 1) * d;
            }
            trace_row(order[r], &b, start, start + d, phases_of(on, start));
        }
}

/* If every SM runs a block of the kernel first in line, move them all as
 * many whole rounds ahead as its blocks left allow (see above). */
static void wave(void)
{
    if (S.m->order != ORDER_FIFO || S.n_ready == 0 || W.n_heap < S.n_slots)
        return;
    int k = S.ready[0], p = S.n_slots;
    const kernel *kn = &S.dag->kernels[k];
    long rounds = (kn->blocks - S.ks[k].issued) / p;
    if (kn->runs || W.running[k] < p || rounds < 1)
        return;
    const block_times *t = &W.on_sm[W.heap[0]].t;
    if (!wave_is_exact(kn, t, rounds))
        return;
    double d = block_cycles(t), n = (double)rounds * p;
    long first = S.ks[k].issued;
    int *order = W.wave_order;
    memcpy(order, W.heap, sizeof *order * (size_t)p);
    qsort(order, (size_t)p, sizeof *order, order_by_end);
    if (S.trace)
        wave_trace(order, first, rounds, d);

    charge_blocks(t, n);
    S.out->costs.N += n;
    S.out->costs.W += n * kn->cost.work;
    S.out->costs.O += n * (t->read + t->write);
    S.out->costs.C = fmax(S.out->costs.C, t->compute + t->read + t->write);
    if (S.blocks_done)
        *S.blocks_done = S.out->costs.N;
    for (int r = 0; r < p; r++) { /* each SM's block of the last round */
        sm_block *on = &W.on_sm[order[r]];
        S.busy[order[r]] += (double)rounds * d;
        on->b.index = first + (rounds - 1) * p + r;
        on->b.first = 0;
        on->start = on->end + (double)(rounds - 1) * d;
        on->end += (double)rounds * d; /* the same shift for all: the heap stays a heap */
    }
    S.ks[k].issued += rounds * p;
    S.ks[k].finished += rounds * p;
    if (S.ks[k].issued == kn->blocks) {
        memmove(&S.ready[0], &S.ready[1], sizeof *S.ready * (size_t)(S.n_ready - 1));
        S.n_ready--;
    }
    W.wave_blocks += n;
}

/* Instant after instant, until no block runs and no launch is due. */
static void scheduler_main(int argc, char *argv[])
{
    (void)argc;
    (void)argv;
    for (;;) {
        idle_sms_take();
        if (!S.m->block_by_block)
            wave();
        if (!next_instant(W.n_heap > 0 ? W.on_sm[W.heap[0]].end : INFINITY))
            return;
        while (W.n_heap > 0 && W.on_sm[W.heap[0]].end == S.now)
            sm_finish_block(heap_pop());
        launch_kernels_due();
    }
}

static int waves_start(int sms)
{
    memset(&W, 0, sizeof W);
    W.on_sm = calloc((size_t)sms, sizeof *W.on_sm);
    W.heap = malloc(sizeof *W.heap * (size_t)sms);
    W.wave_order = malloc(sizeof *W.wave_order * (size_t)sms);
    W.idle_sms = calloc((size_t)sms / 64 + 1, sizeof *W.idle_sms);
    W.running = calloc((size_t)S.dag->n + 1, sizeof *W.running);
    if (!W.on_sm || !W.heap || !W.wave_order || !W.idle_sms || !W.running)
        return fail("out of memory for %d SMs", sms);
    for (int i = 0; i < sms; i++)
        set_idle(i, 1);
    sg_actor_t a = sg_actor_init("block scheduler", sg_host_by_name("global_memory"));
    sg_actor_start(a, scheduler_main, 0, NULL);
    return 0;
}

static double waves_holding(void) { return W.n_heap; }

static void waves_finish(int sms, sim_result *out)
{
    out->wave_blocks = W.wave_blocks;
    for (int i = 0; i < sms; i++)
        out->sm_busy[i] = S.busy[i];
    free(W.on_sm);
    free(W.heap);
    free(W.wave_order);
    free(W.idle_sms);
    free(W.running);
}

const scheduler waves_scheduler = {"the block scheduler", 1, waves_start, NULL, NULL, NULL, waves_holding,
                                   waves_finish};
