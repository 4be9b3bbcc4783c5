/*
 * engine.c — the MCM machine at work, told as a SimGrid simulation: the
 * stage and the story every scheduler shares.
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
 * Who plays the SMs (stage.h, `scheduler`).  One actor, the card's block
 * scheduler, plays all the SMs, global memory and the host CPU.  It knows
 * when each block (each phase of a block) ends, and at each instant it
 * lets them end, launches the kernels due, and hands ready blocks to SMs
 * with room.  It keeps the time itself; SimGrid's clock catches up with it
 * at the instants the host sees, a kernel launched or finished, and at the
 * end (the instants between, when only blocks end, would cost a SimGrid
 * event each and nothing else could see them).  Under `parallel` with one
 * block per SM (the MCM) it moves every SM many rounds at once through a
 * kernel whose blocks cost alike, in a wave (waves.c): the same results,
 * bit for bit, as one block at a time.  Where blocks meet, with several
 * resident blocks per SM, on the `shared` channel or at the `exclusive`
 * memory, resident.c works out how they share (sharing.c).  The tests'
 * reference where blocks meet (the machine's sharing_by_simgrid) is an
 * actor per SM, SimGrid's solver sharing (tests/simgrid_reference.c).
 *
 * The card (machine.h, "Card terms").  With class costs or lanes, a block
 * computes for max(span cycles, work cycles) instead of S(B); a kernel
 * beyond the L2 moves its words at DRAM's rate (u_dram, or its rate for
 * words off the line or for reads mixed with writes); with sector_words
 * a block pays for every word of every thread (the MCM: one U per
 * coalesced access of the block); with a read latency a block that reads
 * waits that long for its first word, as it waits for its dispatch.
 * With the caches (l1_words), a block that exec mode ran through them
 * pays for its sectors where they were served, and waits for the level
 * that served its first read (card_terms.h).
 *
 * Where the time goes (time_split.h): the block schedulers charge each
 * block's dispatch, latency, transfers and compute as it ends (a wave's
 * at once), resident.c an SM's cycles while blocks share it, and
 * charge_empty_sms the SMs that hold no block, instant by instant.
 *
 * This file runs inside the child process made by run.c, which owns the
 * SimGrid engine's whole lifetime.
 */
#include "engine.h"
#include "fail.h"
#include "stage.h"

#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

stage S;

static const scheduler *reference; /* the tests' (engine_use_reference), if linked */

void engine_use_reference(const scheduler *s) { reference = s; }

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

double stage_now(void)
{
    return S.by->keeps_time ? S.now : simgrid_get_clock();
}

void make_ready(int k)
{
    kernel_state *s = &S.ks[k];
    long blocks = S.dag->kernels[k].blocks;
    if (S.m->order == ORDER_RANDOM) {
        uint64_t b = (uint64_t)blocks;
        do
            s->step = b > 1 ? 1 + rng_below(&S.order, b - 1) : 1;
        while (gcd_u64(s->step, b) != 1);
        s->shift = rng_below(&S.order, b);
    }
    S.ready[S.n_ready++] = k;
    if (S.by->ready)
        S.by->ready(blocks);
}

int has_launcher(const machine *m)
{
    return machine_launch_latency(m) > 0 || machine_start_latency(m) > 0;
}

/* Kernel k's predecessors are all done: ready now, or queued for the host
 * CPU's launch, each its launch latency (machine_kernel_launch_latency:
 * in a graph, longer for a grid over more SMs; and the constant lines its
 * code reads, machine_constant_lines_latency) after its release or after
 * the graph's start, which is later.  Launches leave the queue in the
 * order of their releases (a FIFO): one due earlier behind one due later
 * waits for it, as a graph's kernels launch in order. */
void release(int k)
{
    if (!has_launcher(S.m)) {
        make_ready(k);
        return;
    }
    S.release_time[k] = stage_now();
    S.launches[S.n_launches++] = k;
    if (S.by->launch_queued)
        S.by->launch_queued();
}

double launch_due(int k)
{
    return fmax(S.release_time[k], machine_start_latency(S.m)) + S.ks[k].launch;
}

static int pick_ready_slot(void)
{
    if (S.m->order == ORDER_FIFO || S.n_ready == 1)
        return 0;
    long left = 0;
    for (int i = 0; i < S.n_ready; i++)
        left += S.dag->kernels[S.ready[i]].blocks - S.ks[S.ready[i]].issued;
    long r = (long)rng_below(&S.order, (uint64_t)left);
    for (int i = 0; i < S.n_ready; i++) {
        r -= S.dag->kernels[S.ready[i]].blocks - S.ks[S.ready[i]].issued;
        if (r < 0)
            return i;
    }
    return S.n_ready - 1;
}

int take_from(int slot, block *b)
{
    int k = S.ready[slot];
    kernel_state *s = &S.ks[k];
    long blocks = S.dag->kernels[k].blocks;
    long j = s->issued++;
    b->kernel = k;
    b->first = j == 0;
    b->index = S.m->order == ORDER_FIFO ? j : (long)((s->step * (uint64_t)j + s->shift) % (uint64_t)blocks);
    if (s->issued == blocks) {
        memmove(&S.ready[slot], &S.ready[slot + 1], sizeof *S.ready * (size_t)(S.n_ready - slot - 1));
        S.n_ready--;
    }
    return 1;
}

int take_ready_block(block *b)
{
    return S.n_ready > 0 ? take_from(pick_ready_slot(), b) : 0;
}

/* ---- a block's life ----------------------------------------------------- */

static void finish_block(const block *b)
{
    kernel_state *s = &S.ks[b->kernel];
    if (++s->finished < S.dag->kernels[b->kernel].blocks)
        return;
    S.out->kernels[b->kernel].end = stage_now();
    S.host_event = 1;
    if (--S.kernels_left == 0) {
        S.finished_at = stage_now();
        if (S.by->all_done)
            S.by->all_done();
        return;
    }
    for (int e = S.succ_start[b->kernel]; e < S.succ_start[b->kernel + 1]; e++)
        if (--S.ks[S.succ[e]].missing == 0)
            release(S.succ[e]);
}

void trace_row(int sm, const block *b, double start, double end, phases ph)
{
    fprintf(S.trace, "%s,%ld,%d,%.17g,%.17g,%.17g,%.17g\n", S.dag->kernels[b->kernel].name, b->index, sm,
            start, end, ph.read_end, ph.write_start);
}

void block_done(int slot, int sm, const block *b, double start, double end, double read, double compute,
                double write, phases ph)
{
    const kernel *k = &S.dag->kernels[b->kernel];
    S.busy[slot] += end - start;
    S.out->costs.N += 1;
    if (S.blocks_done)
        *S.blocks_done = S.out->costs.N;
    S.out->costs.W += kernel_block_cost(k, b->index)->work;
    S.out->costs.O += read + write;
    if (compute + read + write > S.out->costs.C)
        S.out->costs.C = compute + read + write;
    if (S.trace)
        trace_row(sm, b, start, end, ph);
    finish_block(b);
}

block_times block_times_on(const kernel *k, const block_cost *c, const machine *m)
{
    double u = kernel_word_cycles(k, m);
    block_times t;
    t.read = block_transfer_cycles(c, k->threads, m, u, 0);
    /* the writes after the compute at the port's rate and the card's share;
     * the warps' own rate a floor on reads + compute + writes (below) */
    l2_writers writers = kernel_l2_writers(k, m), port = {writers.sms, 0};
    t.write = block_transfer_cycles_writing(c, k->threads, m, u, 1, port);
    int sharing = block_warps_per_scheduler(k->threads, m);
    t.compute = block_reads_beside_compute(c, m)
                    ? block_compute_after_reads(block_span_cycles_shared(c, m, sharing), block_work_cycles(c, m), t.read)
                    : block_compute_cycles_shared(c, m, sharing);
    double write = t.write;
    t.write = block_writes_beside_compute(c, m, t.compute, write);
    t.write_beside = write - t.write;
    t.write = fmax(t.write, block_own_write_cycles(c, m, writers) - (t.read + t.compute));
    t.latency = t.read > 0 ? block_read_latency(k, c, m) : 0;
    t.wait = m->block_dispatch + t.latency;
    t.dram = kernel_beyond_l2(k, m);
    return t;
}

/* In the one order of addition that block by block and waves share
 * (exactness rests on it). */
double block_cycles(const block_times *t)
{
    return t->wait + t->read + t->compute + t->write;
}

block_times block_times_of(const block *b)
{
    const kernel *k = &S.dag->kernels[b->kernel];
    return block_times_on(k, kernel_block_cost(k, b->index), S.m);
}

void charge_blocks(const block_times *t, double blocks)
{
    S.split[SPLIT_DISPATCH] += blocks * S.m->block_dispatch;
    S.split[SPLIT_LATENCY] += blocks * t->latency;
    S.split[t->dram ? SPLIT_DRAM : SPLIT_MEMORY] += blocks * (t->read + t->write);
    S.split[SPLIT_COMPUTE] += blocks * t->compute;
}

/* ---- resident blocks ------------------------------------------------------ */

int take_block_for(int taken, block *b)
{
    for (int slot = 0; slot < S.n_ready; slot++)
        if (taken < S.resident_limit[S.ready[slot]])
            return take_from(slot, b);
    return 0;
}

resident_times resident_times_of(const block *b)
{
    const kernel *k = &S.dag->kernels[b->kernel];
    const block_cost *c = kernel_block_cost(k, b->index);
    block_times t = block_times_of(b); /* t.compute unused: resident blocks share the lanes */
    resident_times r = {t.wait, t.read, t.write, 0, c->span, t.latency, t.dram, 0, {0}};
    if (machine_card_compute(S.m)) { /* else no work to share: a delay of S(B) */
        r.work = block_work_cycles(c, S.m);
        r.span = block_span_cycles_shared(c, S.m, block_warps_per_scheduler(k->threads, S.m));
        for (int j = 0; j < RESIDENT_SPANS; j++)
            r.span_with[j] = block_span_cycles_resident(c, S.m, k->threads, j + 1);
        r.beside = block_reads_beside_compute(c, S.m);
        if (r.beside) /* the writes its compute hides move on the port beside it, as its reads */
            r.read += t.write_beside;
    }
    return r;
}

/* As long as it would take alone (after its reads). */
double resident_compute(const resident_times *t)
{
    return t->beside ? block_compute_after_reads(t->span, t->work, t->read) : fmax(t->work, t->span);
}

void sm_hold(int sm)
{
    if (S.held[sm]++ == 0)
        S.held_since[sm] = stage_now();
}

void sm_release(int sm)
{
    if (--S.held[sm] == 0)
        S.sm_busy[sm] += stage_now() - S.held_since[sm];
}

/* ---- a block scheduler's instants --------------------------------------- */

/* SimGrid's clock catches up with the block scheduler's after an instant
 * the host saw (see "Who plays the SMs"). */
static void simgrid_follows(void)
{
    if (S.host_event && S.now > simgrid_get_clock())
        sg_actor_sleep_until(S.now);
    S.host_event = 0;
}

/* The SMs that hold no block from now until `until`, by part
 * (time_split.h): launch while a kernel's launch is pending, else idle;
 * the SMs the run leaves out (run.c) among them.  Not after the run's end. */
static void charge_empty_sms(double until)
{
    if (S.kernels_left == 0 || !(until > S.now))
        return;
    int launching = S.next_launch < S.n_launches;
    S.split[launching ? SPLIT_LAUNCH : SPLIT_IDLE] += (S.m->p - S.by->holding()) * (until - S.now);
}

int next_instant(double end)
{
    if (S.next_launch < S.n_launches)
        end = fmin(end, launch_due(S.launches[S.next_launch]));
    simgrid_follows();
    if (end == INFINITY)
        return 0;
    charge_empty_sms(end);
    S.now = end;
    return 1;
}

void launch_kernels_due(void)
{
    while (S.next_launch < S.n_launches && launch_due(S.launches[S.next_launch]) <= S.now) {
        make_ready(S.launches[S.next_launch++]);
        S.host_event = 1;
    }
}

int whole(double x)
{
    return x == floor(x) && fabs(x) <= 0x1p53;
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

/* ---- setting the stage -------------------------------------------------- */

static void build_successors(void)
{
    const kernel_dag *dag = S.dag;
    int n = dag->n, edges = 0;
    S.succ_start = calloc((size_t)n + 1, sizeof *S.succ_start);
    for (int v = 0; v < n; v++) {
        S.ks[v].missing = dag->kernels[v].n_after;
        edges += dag->kernels[v].n_after;
        for (int j = 0; j < dag->kernels[v].n_after; j++)
            S.succ_start[dag->kernels[v].after[j] + 1]++;
    }
    for (int v = 0; v < n; v++)
        S.succ_start[v + 1] += S.succ_start[v];
    S.succ = malloc(sizeof *S.succ * ((size_t)edges + 1));
    int *fill = calloc((size_t)n + 1, sizeof *fill);
    for (int v = 0; v < n; v++)
        for (int j = 0; j < dag->kernels[v].n_after; j++) {
            int u = dag->kernels[v].after[j];
            S.succ[S.succ_start[u] + fill[u]++] = v;
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

/* Who plays the SMs: under `parallel` with one block per SM, the block
 * scheduler of waves; where blocks share, the block scheduler of
 * resident.c, or the tests' reference. */
static int choose_scheduler(const machine *m)
{
    int shares = S.slots_per_sm > 1 || m->policy != MEM_PARALLEL;
    if (!shares) {
        S.by = &waves_scheduler;
        return 0;
    }
    if (!m->sharing_by_simgrid) {
        S.by = &sharing_scheduler;
        return 0;
    }
    if (!reference)
        return fail("internal error: the SimGrid reference of the tests (tests/simgrid_reference.c) is not linked");
    if (m->issue_by_age)
        return fail("internal error: the SimGrid reference shares an SM's lanes max-min only, not by age");
    S.by = reference;
    return 0;
}

int engine_simulate(const kernel_dag *dag, const machine *m, int sms, const char *platform_path,
                    const char *trace_path, volatile double *blocks_done, sim_result *out)
{
    memset(&S, 0, sizeof S);
    S.blocks_done = blocks_done;
    S.dag = dag;
    S.m = m;
    S.out = out;
    S.kernels_left = dag->n;
    S.ks = calloc((size_t)dag->n + 1, sizeof *S.ks);
    S.ready = malloc(sizeof *S.ready * ((size_t)dag->n + 1));
    S.launches = malloc(sizeof *S.launches * ((size_t)dag->n + 1));
    S.release_time = calloc((size_t)dag->n + 1, sizeof *S.release_time);
    for (int k = 0; S.ks && k < dag->n; k++) /* the kernel's constant lines: its launch waits for them */
        S.ks[k].launch = machine_kernel_launch_latency(m, dag->kernels[k].blocks) +
                         machine_constant_lines_latency(m, (int)kernel_constant_lines(&dag->kernels[k]));
    S.slots_per_sm = m->blocks_per_sm > 1 ? m->blocks_per_sm : 1;
    S.n_slots = sms * S.slots_per_sm;
    S.busy = calloc((size_t)S.n_slots, sizeof *S.busy);
    S.resident_limit = malloc(sizeof *S.resident_limit * ((size_t)dag->n + 1));
    for (int k = 0; k < dag->n; k++)
        S.resident_limit[k] = kernel_resident_blocks(&dag->kernels[k], m);
    S.held = calloc((size_t)sms, sizeof *S.held);
    S.held_since = calloc((size_t)sms, sizeof *S.held_since);
    S.sm_busy = calloc((size_t)sms, sizeof *S.sm_busy);
    rng_seed(&S.order, m->seed);
    build_successors();
    int rc = choose_scheduler(m);
    if (rc == 0 && trace_path) {
        S.trace = fopen(trace_path, "w");
        if (!S.trace)
            rc = fail("--trace %s: cannot open for writing", trace_path);
        else {
            setvbuf(S.trace, NULL, _IOFBF, 1 << 20);
            fprintf(S.trace, "kernel,block,sm,start,end,read_end,write_start\n");
        }
    }
    if (rc == 0) {
        simgrid_start(platform_path);
        rc = S.by->start(sms);
    }
    if (rc == 0) {
        for (int k = 0; k < dag->n; k++)
            if (S.ks[k].missing == 0)
                release(k);
        simgrid_run();
        out->T = S.kernels_left == 0 ? S.finished_at : stage_now(); /* not the last retirements */
        S.by->finish(sms, out);
        for (int part = 0; S.by->keeps_time && part < SPLIT_PARTS; part++)
            out->time_split[part] = S.split[part] / m->p;
        if (S.kernels_left != 0)
            rc = fail("internal error: the simulation stopped with %d kernels unfinished", S.kernels_left);
    }
    if (S.trace && fclose(S.trace) != 0 && rc == 0)
        rc = fail("--trace %s: write error", trace_path);
    free(S.ks);
    free(S.ready);
    free(S.launches);
    free(S.release_time);
    free(S.busy);
    free(S.resident_limit);
    free(S.held);
    free(S.held_since);
    free(S.sm_busy);
    free(S.succ_start);
    free(S.succ);
    return rc;
}
