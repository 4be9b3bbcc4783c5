/*
 * simgrid_reference.c — the tests' reference where blocks share: the
 * machine's sharing_by_simgrid, a scheduler of the engine (sim/engine/
 * stage.h) that the tests and `make bench` link, and which installs
 * itself (engine_use_reference) before main.
 *
 * Each SM (each resident slot) is an actor on its SM's host; a block's
 * phases are SimGrid activities: its waits are sleeps, its transfers go
 * through global memory (global_memory.c: the channel under `shared`, the
 * memory controller under `exclusive`, its SM's port "portI" under
 * `parallel`), its compute is work on its SM's host, whose lanes SimGrid's
 * solver shares among the slots; a launcher actor is the host CPU.  The
 * block scheduler (sim/engine/sharing.c, resident.c) is held to it
 * (tests/test_resident.c).
 *
 * A slot whose block ends takes its next block for its own SM at once, in
 * SimGrid's order among the slots that end at one instant; idle slots wait
 * on a semaphore and are woken emptiest SM first, one per SM in turn, as a
 * card's block scheduler spreads a kernel over its SMs.  The slot of a
 * block that has ended waits for its SM to retire it, after the blocks
 * that ended before (block_retire).
 */
#include "engine.h"
#include "fail.h"
#include "global_memory.h"
#include "stage.h"

#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/exec.h>
#include <simgrid/host.h>
#include <simgrid/semaphore.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct sm_state {
    int id;        /* the slot; the SM itself when blocks_per_sm = 1 */
    int sm;        /* the SM the slot belongs to */
    sg_sem_t wake; /* released when a kernel is released while idle */
} sm_state;

static struct reference {
    sm_state *slots;
    sg_host_t *hosts, *ports; /* each SM's host and port */
    int *idle, n_idle;        /* slots waiting for work */
    int *retiring;            /* per SM: blocks ended, not yet retired */
    double *retired;          /* per SM: when its last retirement ends */
    int *idle_rank;           /* per SM, while ordering the idle slots */
    double *idle_key;         /* per slot, its place in that order */
    sg_sem_t launch_pending;
} G;

/* The slots of SM sm taken now: by the blocks it holds, and by those
 * that have ended and that it has not yet retired (block_retire). */
static int slots_taken(int sm)
{
    return S.held[sm] + G.retiring[sm];
}

/* Order the idle slots so that the next woken (from the end) belong to the
 * SMs holding the fewest blocks, one per SM in turn.  Sort key: the blocks
 * its SM would hold, slots_taken + (idle slots of its SM before it); ties
 * to the lower slot. */
static int idle_key_cmp(const void *a, const void *b)
{
    int sa = *(const int *)a, sb = *(const int *)b;
    double ka = G.idle_key[sa], kb = G.idle_key[sb];
    return ka < kb ? 1 : ka > kb ? -1 : sb - sa;
}

static void order_idle(void)
{
    memset(G.idle_rank, 0, sizeof *G.idle_rank * (size_t)(S.n_slots / S.slots_per_sm));
    for (int i = 0; i < G.n_idle; i++) {
        int slot = G.idle[i], sm = G.slots[slot].sm;
        G.idle_key[slot] = slots_taken(sm) + G.idle_rank[sm]++;
    }
    qsort(G.idle, (size_t)G.n_idle, sizeof *G.idle, idle_key_cmp);
}

static void wake_idle(long blocks)
{
    if (S.slots_per_sm > 1)
        order_idle(); /* resident blocks: the emptiest SMs first */
    while (G.n_idle > 0 && blocks-- > 0)
        sg_sem_release(G.slots[G.idle[--G.n_idle]].wake);
}

static void launch_queued(void) { sg_sem_release(G.launch_pending); }

static void all_done(void) { wake_idle(G.n_idle); /* nothing more will come: let them stop */ }

/* The host CPU: launches released kernels as they fall due (stage.h). */
static void launcher_main(int argc, char *argv[])
{
    (void)argc;
    (void)argv;
    for (int launched = 0; launched < S.dag->n; launched++) {
        sg_sem_acquire(G.launch_pending);
        int k = S.launches[S.next_launch++];
        sg_actor_sleep_until(launch_due(k));
        make_ready(k);
    }
}

/* The block an idle slot takes: any ready one, or with resident blocks
 * one whose kernel has room on the slot's SM. */
static int take_block(const sm_state *me, block *b)
{
    return S.slots_per_sm > 1 ? take_block_for(slots_taken(me->sm), b) : take_ready_block(b);
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
    if (S.m->policy == MEM_PARALLEL)
        execute_on(G.ports[me->sm], cycles, 0);
    else
        global_memory_transfer(me->sm, cycles, is_read);
}

/* The slot counts as taken from the block's end (retire_begin, before
 * anything can wake another slot) until its retirement ends (retire_end). */
static double retire_begin(int sm)
{
    if (S.m->block_retire <= 0)
        return 0;
    G.retired[sm] = fmax(simgrid_get_clock(), G.retired[sm]) + S.m->block_retire;
    G.retiring[sm]++;
    return G.retired[sm];
}

static void retire_end(int sm, double retired)
{
    if (S.m->block_retire <= 0)
        return;
    sg_actor_sleep_until(retired);
    G.retiring[sm]--;
}

/* One block per SM under `shared` or `exclusive`: its transfers meet the
 * other SMs' in global memory. */
static void run_block(const sm_state *me, const block *b)
{
    block_times t = block_times_of(b);
    double start = simgrid_get_clock();
    if (b->first)
        S.out->kernels[b->kernel].start = start;
    phases ph;
    if (t.wait > 0)
        sg_actor_sleep_for(t.wait);
    global_memory_transfer(me->sm, t.read, 1);
    ph.read_end = simgrid_get_clock();
    sg_actor_sleep_for(t.compute);
    ph.write_start = simgrid_get_clock();
    global_memory_transfer(me->sm, t.write, 0);
    block_done(me->id, me->sm, b, start, simgrid_get_clock(), t.read, t.compute, t.write, ph);
}

/* A resident block: it shares its SM's lanes and port with the others. */
static void run_resident_block(const sm_state *me, const block *b)
{
    resident_times t = resident_times_of(b);
    double start = simgrid_get_clock();
    if (b->first)
        S.out->kernels[b->kernel].start = start;
    sm_hold(me->sm);
    if (t.wait > 0)
        sg_actor_sleep_for(t.wait); /* the slot waits; the SM's lanes and port serve the others */
    port_transfer(me, t.read, 1);
    phases ph = {simgrid_get_clock(), 0};
    if (t.work <= 0)
        sg_actor_sleep_for(t.span);
    else
        execute_on(G.hosts[me->sm], t.work, t.span > 0 ? t.work / t.span : 0);
    ph.write_start = simgrid_get_clock();
    port_transfer(me, t.write, 0);
    sm_release(me->sm);
    double retired = retire_begin(me->sm);
    block_done(me->id, me->sm, b, start, simgrid_get_clock(), t.read, resident_compute(&t), t.write, ph);
    retire_end(me->sm, retired);
}

static void slot_main(int argc, char *argv[])
{
    (void)argc;
    (void)argv;
    sm_state *me = sg_actor_self_get_data();
    block b;
    for (;;) {
        while (!take_block(me, &b)) {
            if (S.kernels_left == 0)
                return;
            G.idle[G.n_idle++] = me->id;
            sg_sem_acquire(me->wake);
        }
        if (S.slots_per_sm > 1)
            run_resident_block(me, &b);
        else
            run_block(me, &b);
    }
}

static int reference_start(int sms)
{
    memset(&G, 0, sizeof G);
    G.slots = calloc((size_t)S.n_slots, sizeof *G.slots);
    G.hosts = calloc((size_t)sms, sizeof *G.hosts);
    G.ports = calloc((size_t)sms, sizeof *G.ports);
    G.idle = malloc(sizeof *G.idle * (size_t)S.n_slots);
    G.retiring = calloc((size_t)sms, sizeof *G.retiring);
    G.retired = calloc((size_t)sms, sizeof *G.retired);
    G.idle_rank = calloc((size_t)sms, sizeof *G.idle_rank);
    G.idle_key = calloc((size_t)S.n_slots, sizeof *G.idle_key);
    for (int i = 0; i < sms; i++) {
        char name[32];
        snprintf(name, sizeof name, "sm%d", i);
        G.hosts[i] = sg_host_by_name(name);
        snprintf(name, sizeof name, "port%d", i);
        G.ports[i] = sg_host_by_name(name);
    }
    global_memory_start(S.m, sms, G.hosts, sg_host_by_name("global_memory"));
    if (has_launcher(S.m)) {
        G.launch_pending = sg_sem_init(0);
        sg_actor_t host_cpu = sg_actor_init("launcher", sg_host_by_name("global_memory"));
        sg_actor_start(host_cpu, launcher_main, 0, NULL);
    }
    for (int i = 0; i < S.n_slots; i++) {
        G.slots[i].id = i;
        G.slots[i].sm = i % sms; /* slots 0 .. sms−1 one per SM, then the next layer */
        G.slots[i].wake = sg_sem_init(0);
        sg_actor_t a = sg_actor_init("sm", G.hosts[G.slots[i].sm]);
        sg_actor_set_data(a, &G.slots[i]);
        sg_actor_start(a, slot_main, 0, NULL);
    }
    return 0;
}

static double reference_holding(void) { return 0; /* not asked: SimGrid keeps the time */ }

static void reference_finish(int sms, sim_result *out)
{
    for (int i = 0; i < sms; i++)
        out->sm_busy[i] = S.slots_per_sm > 1 ? S.sm_busy[i] : S.busy[i];
    global_memory_stop();
    free(G.slots);
    free(G.hosts);
    free(G.ports);
    free(G.idle);
    free(G.retiring);
    free(G.retired);
    free(G.idle_rank);
    free(G.idle_key);
}

static const scheduler simgrid_reference = {"the tests' SimGrid reference", 0, reference_start, wake_idle,
                                            launch_queued, all_done, reference_holding, reference_finish};

__attribute__((constructor)) static void install(void) { engine_use_reference(&simgrid_reference); }
