/*
 * sharing.c — the block scheduler where blocks share (stage.h,
 * `scheduler`): several resident blocks per SM, or the `shared` channel,
 * or the `exclusive` memory.
 *
 * A block's phases then last as long as the others on its SM (and the
 * channel, or the memory) let them: resident.c works out each SM's
 * sharing of its lanes and port, the channel's level and whom the memory
 * serves, and the block scheduler plays the card.  At each instant: the
 * SMs whose phases end then move on, lowest SM first (a block that ends is
 * done); the kernels due are launched; ready blocks go, one at a time, to
 * the SM holding the fewest blocks among those with room for one (ties to
 * the lower SM), as a card's block scheduler spreads a kernel over its SMs
 * (Gilman et al., "Demystifying the placement policies of the NVIDIA GPU
 * thread block scheduler", 2020); then the memory is settled
 * (resident_card_settle).  A block takes the first ready kernel, in
 * release order, with room on that SM.
 *
 * An SM's lanes go to its blocks max-min fairly or, with issue_by_age, by
 * age (resident.h).
 *
 * An SM retires the blocks that end, one at a time (block_retire): a
 * block's slot takes no other block until its SM has retired it, after
 * the blocks that ended before.  The first blocks of a kernel find their
 * slots free; after them an SM takes at most one block every
 * block_retire cycles, beside the work of the blocks it holds.  A kernel
 * ends with its last block, not with that block's retirement.
 */
#include "fail.h"
#include "stage.h"

#include <simgrid/actor.h>
#include <simgrid/host.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static struct sharing {
    resident_card card; /* each SM's blocks */
    block *slot_block;  /* the block in each slot */
    int *ended;         /* slots whose block ended */
    const block_cost *times_of; /* the cost whose times are `times` (NULL: none yet) */
    resident_times times;
} R;

/* The slots of SM sm taken now: by the blocks it holds, and by those
 * that have ended and that it has not yet retired. */
static int slots_taken(int sm)
{
    return R.card.sm[sm].held;
}

/* The SM the next ready block goes to, or -1 if no SM has room. */
static int emptiest_sm_with_room(void)
{
    int room = 0; /* the most blocks a ready kernel allows on one SM */
    for (int i = 0; i < S.n_ready; i++)
        if (S.resident_limit[S.ready[i]] > room)
            room = S.resident_limit[S.ready[i]];
    /* the lowest SM among those holding the fewest: if it has no room,
     * no SM has */
    int best = resident_card_emptiest(&R.card);
    return slots_taken(best) < room ? best : -1;
}

/* Block b's times, worked out once for blocks in a row of the same cost
 * (they are the kernel's, the cost's and the machine's alone; a cost is
 * one kernel's). */
static resident_times times_of(const block *b)
{
    const block_cost *c = kernel_block_cost(&S.dag->kernels[b->kernel], b->index);
    if (c != R.times_of) {
        R.times = resident_times_of(b);
        R.times_of = c;
    }
    return R.times;
}

static void resident_block_start(int sm, const block *b)
{
    resident_times t = times_of(b);
    int slot = resident_free_slot(&R.card.sm[sm]);
    R.slot_block[slot * R.card.sms + sm] = *b;
    if (b->first)
        S.out->kernels[b->kernel].start = S.now;
    sm_hold(sm);
    resident_card_start(&R.card, sm, slot, S.now, &t);
}

static void resident_block_end(int sm, int slot)
{
    const resident_slot *r = &R.card.sm[sm].slot[slot];
    int id = slot * R.card.sms + sm; /* slots 0 .. sms−1 one per SM, then the next layer */
    phases ph = {r->read_end, r->write_start};
    sm_release(sm);
    block_done(id, sm, &R.slot_block[id], r->start, S.now, r->t.read, resident_compute(&r->t), r->t.write, ph);
}

static void scheduler_main(int argc, char *argv[])
{
    (void)argc;
    (void)argv;
    for (;;) {
        block b;
        for (int sm; S.n_ready > 0 && (sm = emptiest_sm_with_room()) >= 0;) {
            take_block_for(slots_taken(sm), &b);
            resident_block_start(sm, &b);
        }
        resident_card_settle(&R.card, S.now); /* the channel, once an instant */
        int sm = -1;
        if (!next_instant(resident_card_next(&R.card, &sm)))
            return;
        while (resident_card_next(&R.card, &sm) == S.now) {
            int n = resident_card_advance(&R.card, sm, R.ended);
            for (int i = 0; i < n; i++)
                resident_block_end(sm, R.ended[i]);
        }
        launch_kernels_due();
    }
}

static int sharing_start(int sms)
{
    memset(&R, 0, sizeof R);
    const machine *m = S.m;
    int shared = m->policy == MEM_SHARED; /* the channel; ports split, as SimGrid's */
    double channel = shared ? machine_bandwidth(m) * m->u : INFINITY;
    R.slot_block = calloc((size_t)S.n_slots, sizeof *R.slot_block);
    R.ended = calloc((size_t)S.slots_per_sm, sizeof *R.ended);
    if (resident_card_init(&R.card, sms, S.slots_per_sm, channel, shared) < 0 || !R.slot_block || !R.ended ||
        (m->policy == MEM_EXCLUSIVE && resident_card_exclusive(&R.card, m->seed ^ 0x6d656d6f7279ull) < 0))
        return fail("out of memory for %d SMs of %d resident blocks", sms, S.slots_per_sm);
    resident_card_retire(&R.card, m->block_retire);
    resident_card_by_age(&R.card, m->issue_by_age);
    sg_actor_t a = sg_actor_init("block scheduler", sg_host_by_name("global_memory"));
    sg_actor_start(a, scheduler_main, 0, NULL);
    return 0;
}

/* Retirements after T are no part of it. */
static void sharing_all_done(void) { resident_card_close(&R.card, S.finished_at); }

static double sharing_holding(void) { return R.card.holding; }

static void sharing_finish(int sms, sim_result *out)
{
    for (int i = 0; i < sms; i++) {
        for (int part = 0; part < SPLIT_PARTS; part++)
            S.split[part] += R.card.sm[i].time_split[part];
        out->sm_busy[i] = S.slots_per_sm > 1 ? S.sm_busy[i] : S.busy[i];
    }
    resident_card_free(&R.card);
    free(R.slot_block);
    free(R.ended);
}

const scheduler sharing_scheduler = {"the block scheduler where blocks share", 1, sharing_start, NULL, NULL,
                                     sharing_all_done, sharing_holding, sharing_finish};
