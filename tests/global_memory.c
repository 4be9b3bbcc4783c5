/*
 * global_memory.c — the global-memory policies as SimGrid activities: the
 * tests' reference (sharing_by_simgrid), which the block scheduler
 * (engine.c, resident.c) is held to.
 *
 *   parallel   a transfer is a private delay of `cycles`: no SM waits for
 *              another (the engine even folds it into the block's compute).
 *   shared     a transfer is a SimGrid communication of cycles/U words from
 *              or to host "global_memory"; SimGrid shares the channel's
 *              bandwidth fairly among the transfers in flight, each capped
 *              by its SM's own port of 1/U words per cycle (one each way).
 *              SimGrid moves whole bytes, so a fraction of a word is lost
 *              here, and not in the block scheduler.
 *   exclusive  the literal rule of the thesis (line 1442): the memory serves
 *              one block's request at a time.  A memory controller actor
 *              collects the requests made at the same instant, picks one at
 *              random (seeded) and serves it; the others wait.
 */
#include "global_memory.h"
#include "rng.h"

#include <simgrid/actor.h>
#include <simgrid/host.h>
#include <simgrid/semaphore.h>
#include <stdlib.h>

static struct {
    const machine *m;
    sg_host_t *sm_hosts, memory;
    /* exclusive only */
    sg_sem_t requests;  /* one token per pending request */
    sg_sem_t served;    /* released by an SM when its transfer is over */
    sg_sem_t *granted;  /* per SM: the controller lets it go */
    int *waiting;       /* SMs with a pending request */
    int n_waiting;
    rng ties;
} gm;

static void controller_main(int argc, char *argv[])
{
    (void)argc;
    (void)argv;
    for (;;) {
        sg_sem_acquire(gm.requests);
        sg_actor_yield(); /* let every request of this instant arrive */
        int pick = (int)rng_below(&gm.ties, (uint64_t)gm.n_waiting);
        int sm = gm.waiting[pick];
        gm.waiting[pick] = gm.waiting[--gm.n_waiting];
        sg_sem_release(gm.granted[sm]);
        sg_sem_acquire(gm.served);
    }
}

void global_memory_start(const machine *m, int sms, sg_host_t *sm_hosts, sg_host_t memory)
{
    gm.m = m;
    gm.sm_hosts = sm_hosts;
    gm.memory = memory;
    if (m->policy != MEM_EXCLUSIVE)
        return;
    gm.requests = sg_sem_init(0);
    gm.served = sg_sem_init(0);
    gm.granted = malloc(sizeof *gm.granted * (size_t)sms);
    /* every resident block of every SM may wait at once */
    gm.waiting = malloc(sizeof *gm.waiting * (size_t)sms * (size_t)(m->blocks_per_sm > 1 ? m->blocks_per_sm : 1));
    for (int i = 0; i < sms; i++)
        gm.granted[i] = sg_sem_init(0);
    gm.n_waiting = 0;
    rng_seed(&gm.ties, m->seed ^ 0x6d656d6f7279ull); /* "memory" */
    sg_actor_t controller = sg_actor_init("memory_controller", memory);
    sg_actor_start(controller, controller_main, 0, NULL);
    sg_actor_daemonize(controller); /* the simulation ends without it */
}

void global_memory_transfer(int sm, double cycles, int is_read)
{
    if (cycles <= 0)
        return;
    switch (gm.m->policy) {
    case MEM_PARALLEL:
        sg_actor_sleep_for(cycles);
        break;
    case MEM_SHARED: {
        double words = cycles / gm.m->u;
        if (is_read)
            sg_host_sendto(gm.memory, gm.sm_hosts[sm], words);
        else
            sg_host_sendto(gm.sm_hosts[sm], gm.memory, words);
        break;
    }
    case MEM_EXCLUSIVE:
        gm.waiting[gm.n_waiting++] = sm;
        sg_sem_release(gm.requests);
        sg_sem_acquire(gm.granted[sm]);
        sg_actor_sleep_for(cycles);
        sg_sem_release(gm.served);
        break;
    }
}

void global_memory_stop(void)
{
    if (gm.m && gm.m->policy == MEM_EXCLUSIVE) {
        free(gm.granted);
        free(gm.waiting);
        gm.granted = NULL;
        gm.waiting = NULL;
    }
}
