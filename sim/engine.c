/*
 * engine.c — the MCM machine at work, told as a SimGrid simulation.
 *
 * The story: P streaming multiprocessors repeatedly take a ready
 * thread-block, read its words from global memory, compute for S(B)
 * cycles, write its words back, and report the block done.  A kernel's
 * blocks become ready when every kernel it comes after has finished (plus
 * the launch latency, and a graph's start before the first kernels, if the
 * machine has them: the host CPU launches it).  An SM that finds no ready
 * block waits until a kernel is launched.  This is greedy scheduling:
 * whenever an SM is idle and a block is ready, the block starts at once.
 *
 * Blocks are generated lazily: a kernel's state is a counter of blocks
 * issued and one of blocks finished, so memory does not grow with N.
 *
 * Who plays the SMs.  One actor, the card's block scheduler, plays all
 * the SMs, global memory and the host CPU.  It knows when each block
 * (each phase of a block) ends, and at each instant it lets them end,
 * launches the kernels due, and hands ready blocks to SMs with room.
 * It keeps the time itself; SimGrid's clock catches up with it at the
 * instants the host sees, a kernel launched or finished, and at the end
 * (the instants between, when only blocks end, would cost a SimGrid
 * event each and nothing else could see them).
 * Under `parallel` with one block per SM (the MCM) it moves every SM many
 * rounds at once through a kernel whose blocks cost alike, in a wave (see
 * "the block scheduler" below): the same results, bit for bit, as one
 * block at a time.  Where blocks meet, with several resident blocks per
 * SM, on the `shared` channel or at the `exclusive` memory, resident.c
 * works out how they share.
 *
 * The tests' reference (the machine's sharing_by_simgrid): where blocks
 * meet, each SM (each slot) is an actor on its SM's host, the transfers
 * are SimGrid activities (global_memory.c), SimGrid's solver shares, and
 * a launcher actor is the host CPU.  tests/test_resident.c holds the
 * block scheduler to it.
 *
 * The card (machine.h, "Card terms").  With class costs or lanes, a block
 * computes for max(span cycles, work cycles) instead of S(B); a kernel
 * beyond the L2 moves its words at DRAM's rate (u_dram, or its rate for
 * words off the line or for reads mixed with writes); with sector_words
 * a block pays for every word of every thread (the MCM: one U per
 * coalesced access of the block); with a read latency a block that reads
 * waits that long for its first word, as it waits for its dispatch.
 * Still one block at a time per SM, the same story, and the same waves.
 *
 * With blocks_per_sm = k > 1 each SM holds k blocks at once.  It has a
 * compute resource (its lanes, one cycle of work per cycle) and a port (a
 * transfer of r cycles is r units of work on it).  A resident block's
 * compute is its work cycles, bounded to the rate work/span so that alone
 * it takes max(span, work); its reads and writes go through the port
 * (`parallel`) or the policy's transfers.  Each resource is shared max-min
 * fairly among the resident blocks: they share the SM's lanes and its
 * port, and one block's transfer overlaps another's compute.  The block
 * scheduler computes that sharing (resident.c); in the tests' reference
 * each slot is an actor, the lanes its SM's host, the port a host
 * "portI", and SimGrid's solver shares them.  An SM is busy
 * while it holds a block.  An SM holds at most kernel_resident_blocks()
 * blocks of a kernel (its threads against threads_per_sm, its private
 * words against Z).  A ready block goes to the SM holding the fewest
 * blocks among those with room for it, as a card's block scheduler picks
 * the SM with the most free resources (Gilman et al., "Demystifying the
 * placement policies of the NVIDIA GPU thread block scheduler", 2020).
 * (In the tests' reference a slot whose block ends takes its next block
 * for its own SM at once, in SimGrid's order among the slots that end at
 * one instant.)
 *
 * An SM retires the blocks that end, one at a time (block_retire): a
 * block's slot takes no other block until its SM has retired it, after
 * the blocks that ended before.  The first blocks of a kernel find their
 * slots free; after them an SM takes at most one block every
 * block_retire cycles, beside the work of the blocks it holds.  A kernel
 * ends with its last block, not with that block's retirement.
 *
 * This file runs inside the child process made by run.c, which owns the
 * SimGrid engine's whole lifetime.
 */
#include "engine.h"
#include "fail.h"
#include "global_memory.h"
#include "resident.h"
#include "rng.h"

#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/exec.h>
#include <simgrid/host.h>
#include <simgrid/semaphore.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct kernel_state {
    int missing;          /* kernels it comes after that are not finished */
    long issued;          /* blocks handed to SMs so far */
    long finished;        /* blocks done */
    uint64_t step, shift; /* `random` order: block j is (step·j + shift) mod B */
} kernel_state;

typedef struct sm_state {
    int id;               /* the slot; the SM itself when blocks_per_sm = 1 */
    int sm;               /* the SM the slot belongs to */
    sg_sem_t wake;        /* released when a kernel is released while idle */
    double busy;          /* cycles spent holding a block */
} sm_state;

typedef struct block {
    int kernel;
    long index;
    int first; /* the kernel's first block: its start is the kernel's */
} block;

static struct engine {
    const kernel_dag *dag;
    const machine *m;
    kernel_state *ks;
    int *succ_start, *succ;  /* successors of each kernel (CSR) */
    int *ready, n_ready;     /* released kernels with blocks left to issue */
    sm_state *sms;
    sg_host_t *hosts;
    int *idle, n_idle;       /* SMs waiting for work */
    int kernels_left;
    int *launches, n_launches, next_launch; /* launch latency: FIFO of releases */
    double *release_time;
    sg_sem_t launch_pending;
    int slots_per_sm;        /* blocks_per_sm: 1 is the MCM, > 1 the card path */
    sg_host_t *ports;        /* card path: each SM's port */
    int *resident;           /* card path: blocks each SM holds now */
    int *retiring;           /* card path, the tests' reference: blocks ended, not yet retired */
    double *retired;         /* card path, the tests' reference: when each SM's last retirement ends */
    double finished_at;      /* when the last kernel finished */
    double *held_since, *sm_busy; /* card path: busy time per SM */
    int n_slots;             /* SMs × slots_per_sm */
    int *idle_rank;          /* card path: per SM, while ordering the idle slots */
    int *resident_limit;     /* card path: per kernel, its blocks an SM may hold */
    double *idle_key;        /* card path: per slot, its place in that order */
    int conducted;           /* the block scheduler runs it (always, but for the tests' reference) */
    int shares;              /* blocks share an SM (resident blocks) or the memory (`shared`, `exclusive`) */
    resident_card card;      /* conducted and shares: each SM's blocks */
    block *slot_block;       /* conducted and shares: the block in each slot */
    int *ended;              /* conducted and shares: slots whose block ended */
    double now;              /* conducted: the time, as the scheduler computes it */
    int host_event;          /* conducted: a kernel was launched or finished at `now` */
    struct sm_block *on_sm;  /* conducted: each SM's block */
    int *heap, n_heap;       /* conducted: busy SMs, earliest end first, ties to the lower SM */
    uint64_t *idle_sms;      /* conducted: a bit per idle SM */
    long *running;           /* conducted: per kernel, its blocks on SMs now */
    int *wave_order;         /* conducted: the SMs by end, for a wave */
    double wave_blocks;      /* conducted: blocks that waves covered */
    rng order;
    FILE *trace;
    volatile double *blocks_done; /* the parent's progress line reads it */
    sim_result *out;
} E;

/* ---- ready blocks ------------------------------------------------------- */

static uint64_t gcd_u64(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

static void card_order_idle(void);

/* The time: the block scheduler's own, else (the tests' reference)
 * SimGrid's. */
static double now(void)
{
    return E.conducted ? E.now : simgrid_get_clock();
}

static void wake_idle_sms(long blocks)
{
    if (E.conducted)
        return; /* the block scheduler plays the SMs: no actor waits */
    if (E.slots_per_sm > 1)
        card_order_idle(); /* resident blocks: the emptiest SMs first */
    while (E.n_idle > 0 && blocks-- > 0)
        sg_sem_release(E.sms[E.idle[--E.n_idle]].wake);
}

/* Kernel k may run now: its blocks join the ready pool. */
static void make_ready(int k)
{
    kernel_state *s = &E.ks[k];
    long blocks = E.dag->kernels[k].blocks;
    if (E.m->order == ORDER_RANDOM) {
        uint64_t b = (uint64_t)blocks;
        do
            s->step = b > 1 ? 1 + rng_below(&E.order, b - 1) : 1;
        while (gcd_u64(s->step, b) != 1);
        s->shift = rng_below(&E.order, b);
    }
    E.ready[E.n_ready++] = k;
    wake_idle_sms(blocks);
}

/* A host CPU launches kernels: a launch latency, or a graph's start. */
static int has_launcher(const machine *m)
{
    return machine_launch_latency(m) > 0 || machine_start_latency(m) > 0;
}

/* Kernel k's predecessors are all done: launch it now or after the latency. */
static void release(int k)
{
    if (!has_launcher(E.m)) {
        make_ready(k);
        return;
    }
    E.release_time[k] = now();
    E.launches[E.n_launches++] = k;
    if (!E.conducted) /* the block scheduler launches it itself */
        sg_sem_release(E.launch_pending);
}

/* The host CPU: starts the graph (if any), then launches released kernels,
 * each launch_latency cycles after its release or after the start, which
 * is later (releases come in time order, so a FIFO suffices). */
static void launcher_main(int argc, char *argv[])
{
    (void)argc;
    (void)argv;
    for (int launched = 0; launched < E.dag->n; launched++) {
        sg_sem_acquire(E.launch_pending);
        int k = E.launches[E.next_launch++];
        sg_actor_sleep_until(fmax(E.release_time[k], machine_start_latency(E.m)) + machine_launch_latency(E.m));
        make_ready(k);
    }
}

static int pick_ready_slot(void)
{
    if (E.m->order == ORDER_FIFO || E.n_ready == 1)
        return 0;
    long left = 0;
    for (int i = 0; i < E.n_ready; i++)
        left += E.dag->kernels[E.ready[i]].blocks - E.ks[E.ready[i]].issued;
    long r = (long)rng_below(&E.order, (uint64_t)left);
    for (int i = 0; i < E.n_ready; i++) {
        r -= E.dag->kernels[E.ready[i]].blocks - E.ks[E.ready[i]].issued;
        if (r < 0)
            return i;
    }
    return E.n_ready - 1;
}

/* Issue the next block of the kernel in ready slot `slot`. */
static int take_from(int slot, block *b)
{
    int k = E.ready[slot];
    kernel_state *s = &E.ks[k];
    long blocks = E.dag->kernels[k].blocks;
    long j = s->issued++;
    b->kernel = k;
    b->first = j == 0;
    b->index = E.m->order == ORDER_FIFO
                   ? j
                   : (long)((s->step * (uint64_t)j + s->shift) % (uint64_t)blocks);
    if (s->issued == blocks) {
        memmove(&E.ready[slot], &E.ready[slot + 1], sizeof *E.ready * (size_t)(E.n_ready - slot - 1));
        E.n_ready--;
    }
    return 1;
}

static int take_ready_block(block *b)
{
    return E.n_ready > 0 ? take_from(pick_ready_slot(), b) : 0;
}

static int card_take_block(const sm_state *me, block *b);

/* The block an idle SM (slot) takes: any ready one, or on the card path
 * one whose kernel has room on the slot's SM. */
static int take_block(const sm_state *me, block *b)
{
    return E.slots_per_sm > 1 ? card_take_block(me, b) : take_ready_block(b);
}

/* ---- a block's life ----------------------------------------------------- */

static void finish_block(const block *b)
{
    kernel_state *s = &E.ks[b->kernel];
    if (++s->finished < E.dag->kernels[b->kernel].blocks)
        return;
    E.out->kernels[b->kernel].end = now();
    E.host_event = 1;
    if (--E.kernels_left == 0) {
        E.finished_at = now();
        wake_idle_sms(E.n_idle); /* nothing more will come: let them stop */
        return;
    }
    for (int e = E.succ_start[b->kernel]; e < E.succ_start[b->kernel + 1]; e++)
        if (--E.ks[E.succ[e]].missing == 0)
            release(E.succ[e]);
}

/* When a block's reads ended and its writes began (the trace's phases). */
typedef struct phases {
    double read_end, write_start;
} phases;

static void trace_row(int sm, const block *b, double start, double end, phases ph)
{
    fprintf(E.trace, "%s,%ld,%d,%.17g,%.17g,%.17g,%.17g\n", E.dag->kernels[b->kernel].name, b->index, sm,
            start, end, ph.read_end, ph.write_start);
}

/* The block's figures: N, W, O, C (read + compute + write, as it would
 * take alone), the trace row; then the kernel's count. */
static void block_done(sm_state *me, const block *b, double start, double end, double read,
                       double compute, double write, phases ph)
{
    const kernel *k = &E.dag->kernels[b->kernel];
    me->busy += end - start;
    E.out->costs.N += 1;
    if (E.blocks_done)
        *E.blocks_done = E.out->costs.N;
    E.out->costs.W += kernel_block_cost(k, b->index)->work;
    E.out->costs.O += read + write;
    if (compute + read + write > E.out->costs.C)
        E.out->costs.C = compute + read + write;
    if (E.trace)
        trace_row(me->sm, b, start, end, ph);
    finish_block(b);
}

/* What a block does, in cycles: wait for its dispatch (and its first
 * word), read, compute (S(B) on the pure MCM), write. */
typedef struct block_times {
    double wait, read, compute, write;
} block_times;

static block_times block_times_on(const kernel *k, const block_cost *c, const machine *m)
{
    double u = kernel_word_cycles(k, m);
    block_times t;
    t.read = block_transfer_cycles(c, k->threads, m, u, 0);
    t.write = block_transfer_cycles(c, k->threads, m, u, 1);
    t.compute = block_compute_cycles(c, m);
    t.wait = m->block_dispatch + (t.read > 0 ? kernel_read_latency(k, m) : 0);
    return t;
}

/* The cycles a block takes alone, in the one order of addition that
 * block by block and waves share (exactness rests on it). */
static double block_cycles(const block_times *t)
{
    return t->wait + t->read + t->compute + t->write;
}

static block_times block_times_of(const block *b)
{
    const kernel *k = &E.dag->kernels[b->kernel];
    return block_times_on(k, kernel_block_cost(k, b->index), E.m);
}

static void run_block_card(sm_state *me, const block *b);

/* A block in the tests' reference (sharing_by_simgrid), under `shared`
 * or `exclusive`: its transfers go through global memory
 * (global_memory.c), where they meet the other SMs'. */
static void run_block(sm_state *me, const block *b)
{
    if (E.slots_per_sm > 1) {
        run_block_card(me, b);
        return;
    }
    block_times t = block_times_of(b);
    double start = simgrid_get_clock();
    if (b->first)
        E.out->kernels[b->kernel].start = start;

    phases ph;
    if (t.wait > 0)
        sg_actor_sleep_for(t.wait);
    global_memory_transfer(me->sm, t.read, 1);
    ph.read_end = simgrid_get_clock();
    sg_actor_sleep_for(t.compute);
    ph.write_start = simgrid_get_clock();
    global_memory_transfer(me->sm, t.write, 0);
    block_done(me, b, start, simgrid_get_clock(), t.read, t.compute, t.write, ph);
}

/* ---- the tests' reference: several resident blocks per SM --------------- */

static void sm_hold(int sm)
{
    if (E.resident[sm]++ == 0)
        E.held_since[sm] = now();
}

static void sm_release(int sm)
{
    if (--E.resident[sm] == 0)
        E.sm_busy[sm] += now() - E.held_since[sm];
}

/* `amount` units of work on `host`, at most `bound` per cycle (0: none). */
static void execute_on(sg_host_t host, double amount, double bound)
{
    if (amount <= 0)
        return;
    sg_exec_t exec = sg_actor_exec_init(amount);
    sg_exec_set_host(exec, host);
    if (bound > 0)
        sg_exec_set_bound(exec, bound);
    sg_exec_start(exec);
    sg_exec_wait(exec);
}

static void port_transfer(const sm_state *me, double cycles, int is_read)
{
    if (E.m->policy == MEM_PARALLEL)
        execute_on(E.ports[me->sm], cycles, 0);
    else
        global_memory_transfer(me->sm, cycles, is_read);
}

/* The slots of SM sm taken now: by the blocks it holds, and by those
 * that have ended and that it has not yet retired (block_retire). */
static int slots_taken(int sm)
{
    return E.conducted ? E.card.sm[sm].held : E.resident[sm] + E.retiring[sm];
}

/* Order the idle slots so that the next woken (from the end) belong to the
 * SMs holding the fewest blocks, one per SM in turn, as a card's block
 * scheduler spreads blocks over its SMs.  Sort key: the blocks its SM would
 * hold, slots_taken + (idle slots of its SM before it); ties to the lower slot. */
static int idle_key_cmp(const void *a, const void *b)
{
    int sa = *(const int *)a, sb = *(const int *)b;
    double ka = E.idle_key[sa], kb = E.idle_key[sb];
    return ka < kb ? 1 : ka > kb ? -1 : sb - sa;
}

static void card_order_idle(void)
{
    memset(E.idle_rank, 0, sizeof *E.idle_rank * (size_t)(E.n_slots / E.slots_per_sm));
    for (int i = 0; i < E.n_idle; i++) {
        int slot = E.idle[i], sm = E.sms[slot].sm;
        E.idle_key[slot] = slots_taken(sm) + E.idle_rank[sm]++;
    }
    qsort(E.idle, (size_t)E.n_idle, sizeof *E.idle, idle_key_cmp);
}

/* The first ready kernel (in release order) that has room on SM sm:
 * fewer slots taken there than the kernel's limit. */
static int take_block_for(int sm, block *b)
{
    for (int slot = 0; slot < E.n_ready; slot++)
        if (slots_taken(sm) < E.resident_limit[E.ready[slot]])
            return take_from(slot, b);
    return 0;
}

static int card_take_block(const sm_state *me, block *b)
{
    return take_block_for(me->sm, b);
}

static void card_start(int sms)
{
    E.resident_limit = malloc(sizeof *E.resident_limit * ((size_t)E.dag->n + 1));
    for (int k = 0; k < E.dag->n; k++)
        E.resident_limit[k] = kernel_resident_blocks(&E.dag->kernels[k], E.m);
    E.idle_rank = calloc((size_t)sms, sizeof *E.idle_rank);
    E.idle_key = calloc((size_t)E.n_slots, sizeof *E.idle_key);
    E.ports = calloc((size_t)sms, sizeof *E.ports);
    E.resident = calloc((size_t)sms, sizeof *E.resident);
    E.retiring = calloc((size_t)sms, sizeof *E.retiring);
    E.retired = calloc((size_t)sms, sizeof *E.retired);
    E.held_since = calloc((size_t)sms, sizeof *E.held_since);
    E.sm_busy = calloc((size_t)sms, sizeof *E.sm_busy);
    for (int i = 0; i < sms; i++) {
        char name[32];
        snprintf(name, sizeof name, "port%d", i);
        E.ports[i] = sg_host_by_name(name);
    }
}

/* A resident block's phases: its wait, reads and writes as alone; its
 * compute as work cycles to share on the lanes, bounded by its span (no
 * work to share without card compute terms: a delay of S(B)). */
static resident_times resident_times_of(const block *b)
{
    const block_cost *c = kernel_block_cost(&E.dag->kernels[b->kernel], b->index);
    block_times t = block_times_of(b); /* t.compute unused: resident blocks share the lanes */
    int card = machine_card_compute(E.m);
    resident_times r = {t.wait, t.read, t.write, 0, c->span};
    if (card) {
        r.work = block_work_cycles(c, E.m);
        r.span = block_span_cycles(c, E.m);
    }
    return r;
}

/* The block's compute as C counts it: as long as it would take alone. */
static double resident_compute(const resident_times *t)
{
    return fmax(t->work, t->span);
}

/* The tests' reference: the slot of a block that has ended waits for its
 * SM to retire it, after the blocks that ended before (block_retire).
 * The slot counts as taken from the block's end (retire_begin, before
 * anything can wake another slot) until its retirement ends (retire_end). */
static double retire_begin(int sm)
{
    if (E.m->block_retire <= 0)
        return 0;
    E.retired[sm] = fmax(simgrid_get_clock(), E.retired[sm]) + E.m->block_retire;
    E.retiring[sm]++;
    return E.retired[sm];
}

static void retire_end(int sm, double retired)
{
    if (E.m->block_retire <= 0)
        return;
    sg_actor_sleep_until(retired);
    E.retiring[sm]--;
}

/* A resident block in the tests' reference (sharing_by_simgrid): its
 * phases as SimGrid activities. */
static void run_block_card(sm_state *me, const block *b)
{
    resident_times t = resident_times_of(b);
    double start = simgrid_get_clock();
    if (b->first)
        E.out->kernels[b->kernel].start = start;

    sm_hold(me->sm);
    if (t.wait > 0)
        sg_actor_sleep_for(t.wait); /* the slot waits; the SM's lanes and port serve the others */
    port_transfer(me, t.read, 1);
    phases ph = {simgrid_get_clock(), 0};
    if (t.work <= 0)
        sg_actor_sleep_for(t.span);
    else
        execute_on(E.hosts[me->sm], t.work, t.span > 0 ? t.work / t.span : 0);
    ph.write_start = simgrid_get_clock();
    port_transfer(me, t.write, 0);
    sm_release(me->sm);
    double retired = retire_begin(me->sm);
    block_done(me, b, start, simgrid_get_clock(), t.read, resident_compute(&t), t.write, ph);
    retire_end(me->sm, retired);
}

static void sm_main(int argc, char *argv[])
{
    (void)argc;
    (void)argv;
    sm_state *me = sg_actor_self_get_data();
    block b;
    for (;;) {
        while (!take_block(me, &b)) {
            if (E.kernels_left == 0)
                return;
            E.idle[E.n_idle++] = me->id;
            sg_sem_acquire(me->wake);
        }
        run_block(me, &b);
    }
}

/* ---- the block scheduler: `parallel`, one block per SM ------------------ */
/*
 * Under `parallel` with one block per SM a block is a delay that its SM
 * alone decides, so one actor, the card's block scheduler, plays every SM.
 * It knows when each SM's block ends, sleeps until the next end or the
 * next launch, and does each instant's work in a fixed order: the blocks
 * that end then are done, lowest SM first; the kernels due are launched;
 * then the idle SMs take ready blocks, lowest SM first.  SimGrid's order
 * among actors woken at one instant plays no part in the result.
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
typedef struct sm_block {
    block b;
    block_times t;
    double start, end;
} sm_block;

/* The heap's order: the earlier end first, ties to the lower SM. */
static int ends_before(int a, int b)
{
    double ea = E.on_sm[a].end, eb = E.on_sm[b].end;
    return ea < eb || (ea == eb && a < b);
}

static void heap_push(int sm)
{
    int i = E.n_heap++;
    while (i > 0 && ends_before(sm, E.heap[(i - 1) / 2])) {
        E.heap[i] = E.heap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    E.heap[i] = sm;
}

static int heap_pop(void)
{
    int top = E.heap[0], last = E.heap[--E.n_heap], i = 0;
    for (;;) {
        int c = 2 * i + 1;
        if (c >= E.n_heap)
            break;
        if (c + 1 < E.n_heap && ends_before(E.heap[c + 1], E.heap[c]))
            c++;
        if (!ends_before(E.heap[c], last))
            break;
        E.heap[i] = E.heap[c];
        i = c;
    }
    E.heap[i] = last;
    return top;
}

static void set_idle(int sm, int idle)
{
    uint64_t bit = (uint64_t)1 << (sm % 64);
    E.idle_sms[sm / 64] = idle ? E.idle_sms[sm / 64] | bit : E.idle_sms[sm / 64] & ~bit;
}

static void sm_start_block(int sm, const block *b)
{
    sm_block *on = &E.on_sm[sm];
    on->b = *b;
    on->t = block_times_of(b);
    on->start = E.now;
    on->end = E.now + block_cycles(&on->t);
    if (b->first)
        E.out->kernels[b->kernel].start = E.now;
    E.running[b->kernel]++;
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
    sm_block *on = &E.on_sm[sm];
    E.running[on->b.kernel]--;
    set_idle(sm, 1);
    block_done(&E.sms[sm], &on->b, on->start, on->end, on->t.read, on->t.compute, on->t.write,
               phases_of(on, on->start));
}

/* Idle SMs take ready blocks, lowest SM first. */
static void idle_sms_take(void)
{
    for (int w = 0; w * 64 < E.n_slots && E.n_ready > 0; w++)
        while (E.idle_sms[w] && E.n_ready > 0) {
            block b;
            take_ready_block(&b);
            sm_start_block(w * 64 + __builtin_ctzll(E.idle_sms[w]), &b);
        }
}

static double launch_due(int k)
{
    return fmax(E.release_time[k], machine_start_latency(E.m)) + machine_launch_latency(E.m);
}

/* SimGrid's clock catches up with the block scheduler's after an instant
 * the host saw (see "Who plays the SMs"). */
static void simgrid_follows(void)
{
    if (E.host_event && E.now > simgrid_get_clock())
        sg_actor_sleep_until(E.now);
    E.host_event = 0;
}

/* The block scheduler's clock moves on to the next instant: the earlier of
 * `end` (the next block or phase to end) and the next launch.  0 when
 * there is none: the run is over. */
static int next_instant(double end)
{
    if (E.next_launch < E.n_launches)
        end = fmin(end, launch_due(E.launches[E.next_launch]));
    simgrid_follows();
    if (end == INFINITY)
        return 0;
    E.now = end;
    return 1;
}

/* The host CPU's part of an instant: the kernels whose launch is due. */
static void launch_kernels_due(void)
{
    while (E.next_launch < E.n_launches && launch_due(E.launches[E.next_launch]) <= E.now) {
        make_ready(E.launches[E.next_launch++]);
        E.host_event = 1;
    }
}

static int whole(double x)
{
    return x == floor(x) && fabs(x) <= 0x1p53;
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
    double d = block_cycles(t), n = (double)rounds * E.n_slots;
    double work = kn->cost.work, moved = t->read + t->write;
    if (!whole(d) || !whole(work) || !whole(moved) || !whole(E.out->costs.W + n * work) ||
        !whole(E.out->costs.O + n * moved))
        return 0;
    for (int i = 0; i < E.n_heap; i++) {
        int sm = E.heap[i];
        if (!whole(E.on_sm[sm].end) || !whole(E.on_sm[sm].end + (double)rounds * d) ||
            !whole(E.sms[sm].busy + (double)rounds * d))
            return 0;
    }
    return 1;
}

/* The trace rows of a wave, in the order block by block writes them:
 * round by round, and in a round by end (`order`). */
static void wave_trace(const int *order, long first, long rounds, double d)
{
    int p = E.n_slots;
    for (long j = 0; j < rounds; j++)
        for (int r = 0; r < p; r++) {
            const sm_block *on = &E.on_sm[order[r]];
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
    if (E.m->order != ORDER_FIFO || E.n_ready == 0 || E.n_heap < E.n_slots)
        return;
    int k = E.ready[0], p = E.n_slots;
    const kernel *kn = &E.dag->kernels[k];
    long rounds = (kn->blocks - E.ks[k].issued) / p;
    if (kn->runs || E.running[k] < p || rounds < 1)
        return;
    const block_times *t = &E.on_sm[E.heap[0]].t;
    if (!wave_is_exact(kn, t, rounds))
        return;
    double d = block_cycles(t), n = (double)rounds * p;
    long first = E.ks[k].issued;
    int *order = E.wave_order;
    memcpy(order, E.heap, sizeof *order * (size_t)p);
    qsort(order, (size_t)p, sizeof *order, order_by_end);
    if (E.trace)
        wave_trace(order, first, rounds, d);

    E.out->costs.N += n;
    E.out->costs.W += n * kn->cost.work;
    E.out->costs.O += n * (t->read + t->write);
    E.out->costs.C = fmax(E.out->costs.C, t->compute + t->read + t->write);
    if (E.blocks_done)
        *E.blocks_done = E.out->costs.N;
    for (int r = 0; r < p; r++) { /* each SM's block of the last round */
        sm_block *on = &E.on_sm[order[r]];
        E.sms[order[r]].busy += (double)rounds * d;
        on->b.index = first + (rounds - 1) * p + r;
        on->b.first = 0;
        on->start = on->end + (double)(rounds - 1) * d;
        on->end += (double)rounds * d; /* the same shift for all: the heap stays a heap */
    }
    E.ks[k].issued += rounds * p;
    E.ks[k].finished += rounds * p;
    if (E.ks[k].issued == kn->blocks) {
        memmove(&E.ready[0], &E.ready[1], sizeof *E.ready * (size_t)(E.n_ready - 1));
        E.n_ready--;
    }
    E.wave_blocks += n;
}

/* About how many blocks the engine will take one by one: all but those
 * of whole-cycle uniform kernels under FIFO, of which waves leave about
 * two per SM (an estimate: a kernel that shares the SMs with others for
 * long takes more one by one). */
double engine_steps(const kernel_dag *dag, const machine *m)
{
    int waves = m->policy == MEM_PARALLEL && m->blocks_per_sm <= 1 && m->order == ORDER_FIFO &&
                !m->block_by_block;
    double steps = 0;
    for (int i = 0; i < dag->n; i++) {
        const kernel *k = &dag->kernels[i];
        block_times t = block_times_on(k, &k->cost, m);
        int uniform = !k->runs && whole(block_cycles(&t));
        steps += waves && uniform ? fmin((double)k->blocks, 2.0 * m->p) : (double)k->blocks;
    }
    return steps;
}

/* The block scheduler: instant after instant, until no block runs and no
 * launch is due. */
static void scheduler_main(int argc, char *argv[])
{
    (void)argc;
    (void)argv;
    for (;;) {
        idle_sms_take();
        if (!E.m->block_by_block)
            wave();
        if (!next_instant(E.n_heap > 0 ? E.on_sm[E.heap[0]].end : INFINITY))
            return;
        while (E.n_heap > 0 && E.on_sm[E.heap[0]].end == E.now)
            sm_finish_block(heap_pop());
        launch_kernels_due();
    }
}

/* ---- the block scheduler where blocks share ------------------------------- */
/*
 * With several resident blocks per SM, or under `shared` or `exclusive`,
 * a block's phases last as long as the others on its SM (and the channel,
 * or the memory) let them: resident.c works out each SM's sharing of its
 * lanes and port, the channel's level and whom the memory serves, and the
 * block scheduler plays the card.  At each instant: the SMs whose phases
 * end then move on, lowest SM first (a block that ends is done); the
 * kernels due are launched; ready blocks go, one at a time, to the SM
 * holding the fewest blocks among those with room for one (ties to the
 * lower SM), as a card's block scheduler spreads a kernel over its SMs;
 * then the memory is settled (resident_card_settle).  A block takes the
 * first ready kernel, in release order, with room on that SM.
 */

/* The SM the next ready block goes to, or -1 if no SM has room. */
static int emptiest_sm_with_room(void)
{
    int room = 0; /* the most blocks a ready kernel allows on one SM */
    for (int i = 0; i < E.n_ready; i++)
        if (E.resident_limit[E.ready[i]] > room)
            room = E.resident_limit[E.ready[i]];
    int best = -1;
    for (int sm = 0; sm < E.card.sms; sm++)
        if (slots_taken(sm) < room && (best < 0 || slots_taken(sm) < slots_taken(best)))
            best = sm;
    return best;
}

static void resident_block_start(int sm, const block *b)
{
    resident_times t = resident_times_of(b);
    int slot = resident_free_slot(&E.card.sm[sm]);
    E.slot_block[slot * E.card.sms + sm] = *b;
    if (b->first)
        E.out->kernels[b->kernel].start = E.now;
    sm_hold(sm);
    resident_card_start(&E.card, sm, slot, E.now, &t);
}

static void resident_block_end(int sm, int slot)
{
    const resident_slot *r = &E.card.sm[sm].slot[slot];
    int id = slot * E.card.sms + sm; /* slots 0 .. sms−1 one per SM, then the next layer */
    phases ph = {r->read_end, r->write_start};
    sm_release(sm);
    block_done(&E.sms[id], &E.slot_block[id], r->start, E.now, r->t.read, resident_compute(&r->t),
               r->t.write, ph);
}

static void resident_scheduler_main(int argc, char *argv[])
{
    (void)argc;
    (void)argv;
    for (;;) {
        block b;
        for (int sm; E.n_ready > 0 && (sm = emptiest_sm_with_room()) >= 0;) {
            take_block_for(sm, &b);
            resident_block_start(sm, &b);
        }
        resident_card_settle(&E.card, E.now); /* the channel, once an instant */
        int sm = -1;
        if (!next_instant(resident_card_next(&E.card, &sm)))
            return;
        while (resident_card_next(&E.card, &sm) == E.now) {
            int n = resident_card_advance(&E.card, sm, E.ended);
            for (int i = 0; i < n; i++)
                resident_block_end(sm, E.ended[i]);
        }
        launch_kernels_due();
    }
}

/* ---- setting the stage -------------------------------------------------- */

static int scheduler_start(int sms)
{
    if (E.shares) {
        int shared = E.m->policy == MEM_SHARED; /* the channel; ports split, as SimGrid's */
        double channel = shared ? machine_bandwidth(E.m) * E.m->u : INFINITY;
        E.slot_block = calloc((size_t)E.n_slots, sizeof *E.slot_block);
        E.ended = calloc((size_t)E.slots_per_sm, sizeof *E.ended);
        if (resident_card_init(&E.card, sms, E.slots_per_sm, channel, shared) < 0 || !E.slot_block || !E.ended ||
            (E.m->policy == MEM_EXCLUSIVE && resident_card_exclusive(&E.card, E.m->seed ^ 0x6d656d6f7279ull) < 0))
            return fail("out of memory for %d SMs of %d resident blocks", sms, E.slots_per_sm);
        resident_card_retire(&E.card, E.m->block_retire);
        sg_actor_t a = sg_actor_init("block scheduler", sg_host_by_name("global_memory"));
        sg_actor_start(a, resident_scheduler_main, 0, NULL);
        return 0;
    }
    E.on_sm = calloc((size_t)sms, sizeof *E.on_sm);
    E.heap = malloc(sizeof *E.heap * (size_t)sms);
    E.wave_order = malloc(sizeof *E.wave_order * (size_t)sms);
    E.idle_sms = calloc((size_t)sms / 64 + 1, sizeof *E.idle_sms);
    E.running = calloc((size_t)E.dag->n + 1, sizeof *E.running);
    for (int i = 0; i < sms; i++)
        set_idle(i, 1);
    sg_actor_t a = sg_actor_init("block scheduler", sg_host_by_name("global_memory"));
    sg_actor_start(a, scheduler_main, 0, NULL);
    return 0;
}

static void build_successors(void)
{
    const kernel_dag *dag = E.dag;
    int n = dag->n, edges = 0;
    E.succ_start = calloc((size_t)n + 1, sizeof *E.succ_start);
    for (int v = 0; v < n; v++) {
        E.ks[v].missing = dag->kernels[v].n_after;
        edges += dag->kernels[v].n_after;
        for (int j = 0; j < dag->kernels[v].n_after; j++)
            E.succ_start[dag->kernels[v].after[j] + 1]++;
    }
    for (int v = 0; v < n; v++)
        E.succ_start[v + 1] += E.succ_start[v];
    E.succ = malloc(sizeof *E.succ * ((size_t)edges + 1));
    int *fill = calloc((size_t)n + 1, sizeof *fill);
    for (int v = 0; v < n; v++)
        for (int j = 0; j < dag->kernels[v].n_after; j++) {
            int u = dag->kernels[v].after[j];
            E.succ[E.succ_start[u] + fill[u]++] = v;
        }
    free(fill);
}

static void simgrid_start(const char *platform_path)
{
    char *args[] = {
        "mcmsim",
        "--log=root.thres:error",
        "--cfg=network/model:CM02",
        "--cfg=network/crosstraffic:0",
#if defined(__SANITIZE_ADDRESS__) || defined(MCM_SANITIZE)
        "--cfg=contexts/factory:thread", /* sanitizers cannot follow raw stack switches */
#else
        "--cfg=contexts/factory:raw",
        "--cfg=contexts/stack-size:64",
#endif
        NULL,
    };
    int argc = (int)(sizeof args / sizeof args[0]) - 1;
    simgrid_init(&argc, args);
    simgrid_load_platform(platform_path);
    unlink(platform_path); /* read: a kill from now on leaves no file behind */
}

int engine_simulate(const kernel_dag *dag, const machine *m, int sms, const char *platform_path,
                    const char *trace_path, volatile double *blocks_done, sim_result *out)
{
    memset(&E, 0, sizeof E);
    E.blocks_done = blocks_done;
    E.dag = dag;
    E.m = m;
    E.out = out;
    E.kernels_left = dag->n;
    E.ks = calloc((size_t)dag->n + 1, sizeof *E.ks);
    E.ready = malloc(sizeof *E.ready * ((size_t)dag->n + 1));
    E.launches = malloc(sizeof *E.launches * ((size_t)dag->n + 1));
    E.release_time = calloc((size_t)dag->n + 1, sizeof *E.release_time);
    E.slots_per_sm = m->blocks_per_sm > 1 ? m->blocks_per_sm : 1;
    E.shares = E.slots_per_sm > 1 || m->policy != MEM_PARALLEL;
    E.conducted = !(E.shares && m->sharing_by_simgrid); /* else the tests' reference: SimGrid's */
    int slots = sms * E.slots_per_sm;
    E.n_slots = slots;
    E.sms = calloc((size_t)slots, sizeof *E.sms);
    E.hosts = calloc((size_t)sms, sizeof *E.hosts);
    E.idle = malloc(sizeof *E.idle * (size_t)slots);
    rng_seed(&E.order, m->seed);
    build_successors();
    if (trace_path) {
        E.trace = fopen(trace_path, "w");
        if (!E.trace)
            return fail("--trace %s: cannot open for writing", trace_path);
        setvbuf(E.trace, NULL, _IOFBF, 1 << 20);
        fprintf(E.trace, "kernel,block,sm,start,end,read_end,write_start\n");
    }

    simgrid_start(platform_path);
    for (int i = 0; i < sms; i++) {
        char name[32];
        snprintf(name, sizeof name, "sm%d", i);
        E.hosts[i] = sg_host_by_name(name);
    }
    for (int i = 0; i < slots; i++) {
        E.sms[i].id = i;
        E.sms[i].sm = i % sms; /* slots 0 .. sms−1 one per SM, then the next layer */
        E.sms[i].wake = sg_sem_init(0);
    }
    if (E.slots_per_sm > 1 || (E.conducted && E.shares))
        card_start(sms);
    global_memory_start(m, sms, E.hosts, sg_host_by_name("global_memory"));
    int started = 0;
    if (E.conducted)
        started = scheduler_start(sms);
    else if (has_launcher(m)) {
        E.launch_pending = sg_sem_init(0);
        sg_actor_t host_cpu = sg_actor_init("launcher", sg_host_by_name("global_memory"));
        sg_actor_start(host_cpu, launcher_main, 0, NULL);
    }
    for (int k = 0; k < dag->n; k++)
        if (E.ks[k].missing == 0)
            release(k);
    for (int i = 0; i < slots && !E.conducted; i++) {
        sg_actor_t a = sg_actor_init("sm", E.hosts[E.sms[i].sm]);
        sg_actor_set_data(a, &E.sms[i]);
        sg_actor_start(a, sm_main, 0, NULL);
    }

    simgrid_run();

    out->T = E.kernels_left == 0 ? E.finished_at : now(); /* not the last retirements */
    out->wave_blocks = E.wave_blocks;
    for (int i = 0; i < sms; i++) /* the SMs left out stay at 0 */
        out->sm_busy[i] = E.slots_per_sm > 1 ? E.sm_busy[i] : E.sms[i].busy;
    int rc = started; /* -1: the block scheduler could not start (its message stands) */
    if (rc == 0 && E.kernels_left != 0)
        rc = fail("internal error: the simulation stopped with %d kernels unfinished", E.kernels_left);
    if (E.trace && fclose(E.trace) != 0)
        rc = fail("--trace %s: write error", trace_path);
    global_memory_stop();
    free(E.ks);
    free(E.ready);
    free(E.launches);
    free(E.release_time);
    free(E.sms);
    free(E.hosts);
    free(E.idle);
    free(E.succ_start);
    free(E.succ);
    free(E.ports);
    free(E.resident);
    free(E.retiring);
    free(E.retired);
    free(E.held_since);
    free(E.sm_busy);
    free(E.idle_rank);
    free(E.resident_limit);
    free(E.idle_key);
    free(E.on_sm);
    free(E.heap);
    free(E.wave_order);
    free(E.idle_sms);
    free(E.running);
    resident_card_free(&E.card);
    free(E.slot_block);
    free(E.ended);
    return rc;
}
