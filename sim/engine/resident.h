/*
 * resident.h — an SM that holds several blocks at once, worked out by hand
 * (and, with one block per SM, the `shared` and `exclusive` memories).
 *
 * Under `parallel` with blocks_per_sm > 1 (the card path), an SM's
 * resident blocks meet on two resources of one cycle per cycle: its lanes
 * and its port.  A block goes through four phases:
 *
 *   wait     a delay (its dispatch, its first word's latency)
 *   read     `read` cycles of transfer on the port
 *   compute  `work` cycles on the lanes, at most work/span per cycle, so
 *            that alone it takes max(span, work); with no work to share,
 *            a delay of `span` cycles.  A block whose reads move beside
 *            its compute (`beside`: card_terms.h,
 *            block_reads_beside_compute) has no read phase: its compute
 *            takes the lanes, at most work/(read + span) per cycle, and
 *            the port for its `read` cycles of transfer, both at once,
 *            and ends when both are done, alone after max(read + span,
 *            work) cycles
 *   write    `write` cycles of transfer on the port
 *   retire   (block_retire) a delay: the SM retires its ended blocks one
 *            at a time, `retire` cycles each, in the order they end; the
 *            block has ended, but its slot takes no other until then
 *
 * Each resource is shared max-min fairly among the blocks on it (a block
 * takes its bound if that is less than an equal share, the others split
 * the rest), as SimGrid's solver shares a host among its executions.
 * With `by_age` (issue_by_age) the lanes go by age instead: the block
 * that started first (the lower slot among blocks started at one instant)
 * takes its bound or what is left of the lanes, then the next, so an SM's
 * blocks end one after another and the last runs alone at its bound.
 * A block's bound is work/span, its span the one given for the blocks
 * whose warps share its SM's schedulers (`span_with`): max-min fair, all
 * those on the lanes; by age, itself and its elders there (the older
 * warps issue first; a younger block's chains wait behind theirs).
 * Under the `shared` policy the ports also share one channel to global
 * memory (resident_card below): a transfer then moves at most at the
 * channel's fair level, the same for every transfer on the card.  There
 * an SM's port is split, as a SimGrid cluster's private links are: its
 * reads share one way, its writes the other, each at full speed.
 * Between two changes on the SM the rates are constant, so each phase has
 * a known end; the SM's next event is the earliest of them.
 *
 *   resident_sm s;
 *   resident_init(&s, 16);
 *   resident_start(&s, resident_free_slot(&s), now, &times);
 *   ... t = resident_next(&s) ...
 *   n = resident_advance(&s, t, ended);     // the slots whose block ended
 *
 * Invariant: the rates, and every busy slot's `end`, are those of the
 * blocks on the SM since `at`, and `next` the earliest of those ends;
 * `transfers` counts the blocks on each way of the port, `lanes_changed`
 * says whether blocks came onto the lanes or left them since their rates
 * were shared; every change first advances the SM to its time.  Phase ends exactly at an event are taken exactly (no drift of a
 * phase past its end); amounts left within RESIDENT_EPSILON of their
 * phase's size count as done (the rounding of rate × time).
 */
#ifndef MCM_RESIDENT_H
#define MCM_RESIDENT_H

#include "rng.h"
#include "time_split.h"

enum { RESIDENT_WAIT, RESIDENT_READ, RESIDENT_COMPUTE, RESIDENT_WRITE, RESIDENT_RETIRE, RESIDENT_FREE };

/* How a transfer meets global memory: a share of the port, or (`exclusive`)
 * asking for the memory, queued for it, served by it alone. */
enum { RESIDENT_PORT, RESIDENT_ASKING, RESIDENT_QUEUED, RESIDENT_SERVED };

/* The counts of blocks on an SM's lanes a block's span is given for. */
#define RESIDENT_SPANS 8

typedef struct resident_times {
    double wait, read, write; /* cycles, as the block would take them alone */
    double work, span;        /* compute: work cycles on the lanes (0: a delay of span) */
    double latency;           /* the end of `wait` that is its first word's latency (the
                               * rest is its dispatch), for the time split */
    int dram;                 /* its words come from beyond the L2 (the time split) */
    int beside;               /* its reads move during its compute (above) */
    double span_with[RESIDENT_SPANS]; /* its span with j + 1 blocks' warps on the SM's
                               * schedulers, its own among them (the last for more;
                               * block_span_cycles_resident): max-min fair, every
                               * block on the lanes counts; by age, itself and its
                               * elders there; span_with[0] = 0: `span` whatever
                               * the blocks */
} resident_times;

typedef struct resident_slot {
    int phase;                  /* RESIDENT_WAIT .. RESIDENT_RETIRE, or RESIDENT_FREE */
    int memory;                 /* RESIDENT_PORT .. RESIDENT_SERVED (a transfer) */
    resident_times t;
    double left;                /* of the phase: cycles of transfer or work still to do */
    double rate;                /* of the phase, since the SM's `at` */
    double span;                /* compute: its span with the blocks on the lanes now */
    double end;                 /* when the phase ends at that rate (`beside`'s compute: when
                                 * the first of its two parts ends) */
    double port_left, port_rate; /* `beside`'s compute: its reads' transfer still to do, and
                                 * its rate on the port */
    double lanes_end, port_end;  /* `beside`'s compute: when each part ends at its rate */
    double start;               /* when the block started */
    double read_end, write_start; /* when its reads ended, when its writes began */
} resident_slot;

typedef struct resident_sm {
    int slots, held;            /* slots, and blocks held now (retiring ones too) */
    int used;                   /* 1 + the highest slot that has held a block: the
                                 * slots from `used` on have never held one, and every
                                 * walk over the slots stops there */
    int split;                  /* reads and writes each have a port of their own */
    int exclusive;              /* transfers wait for the memory (`exclusive`) */
    int transfers[2];           /* blocks on the port now (split: reading, writing) */
    double level;               /* the channel's most per transfer (INFINITY: no channel) */
    double at;                  /* the time the rates were set */
    double retire;              /* cycles to retire each block (0: its slot is free at once) */
    double retired;             /* when the SM's last retirement so far ends */
    int by_age;                 /* the lanes by age, not max-min fair (issue_by_age) */
    resident_slot *slot;
    /* Where its time went (time_split.h), while it held a block: charged
     * up to `charged`, never beyond `closed` (the run's end, INFINITY
     * until then).  The cycles it held none are the engine's to charge. */
    double time_split[SPLIT_PARTS];
    double charged, closed;
    int in_phase[RESIDENT_FREE]; /* blocks in each phase now */
    int dram_transfers;          /* of those reading or writing, the ones beyond the L2 */
    double next;                 /* the earliest end of a block it holds (INFINITY: none) */
    int lanes_changed;           /* blocks came onto the lanes or left them since their
                                  * rates were shared */
    int *order;                  /* scratch: the blocks on the lanes in the order they are
                                  * served (by increasing bound, or by age) */
} resident_sm;

/* An SM with `slots` free slots at time 0; resident_free releases it.
 * Returns -1 when out of memory. */
int resident_init(resident_sm *s, int slots);
void resident_free(resident_sm *s);

/* A free slot (the lowest), or -1 if every slot holds a block. */
int resident_free_slot(const resident_sm *s);

/* A block takes free slot `slot` at time `now`: no later than the SM's
 * next event, the events before it taken (resident_advance).  A block
 * with no cycles before its retirement waits for none: it ends at the
 * SM's next event, `now`, as any other ends. */
void resident_start(resident_sm *s, int slot, double now, const resident_times *t);

/* The SM's next phase end, or INFINITY if it holds no block. */
double resident_next(const resident_sm *s);

/* Move the SM to time `now` (its next event): every phase that ends then
 * ends, and its block goes on to its next phase.  Writes
 * the slots whose block ended, lowest first, into `ended` (room for
 * `slots`) and returns how many; their slots are free again, or once
 * the SM has retired their blocks (`retire`). */
int resident_advance(resident_sm *s, double now, int *ended);

/* ---- the SMs of a card, by their next event ------------------------------- */

/* Every SM of the card, and a tournament of the SMs by their next event
 * (ties to the lower SM), kept as blocks start and phases end.
 *
 * The channel (`shared`): `channel` port-cycles per cycle for the whole
 * card (bandwidth × U), INFINITY under `parallel`.  Max-min over the ports
 * and the channel: with n transfers on a port, each moves at min(1/n, x),
 * x the level at which the channel is full, or without limit when every
 * port can run at full speed.  A change of x changes the rates on every
 * SM with transfers.
 *
 * The memory of `exclusive` (resident_card_exclusive): it serves one
 * transfer at a time, for as long as the transfer takes alone.  When it is
 * free, it picks one of the transfers waiting, at random (seeded), among
 * all those asking by the end of the instant. */
typedef struct resident_card {
    int sms, slots;
    double channel, level;      /* the channel's capacity and its level now */
    int unsettled;              /* transfers began or ended since the level was set */
    int *with;                  /* scratch: per k, the SMs with k transfers */
    int exclusive;              /* the memory serves one transfer at a time */
    int *queue, n_queue;        /* exclusive: transfers waiting, as sm·slots + slot */
    int serving;                /* exclusive: the transfer served, or −1 */
    rng ties;                   /* exclusive: which waiting transfer goes next */
    resident_sm *sm;
    /* A tournament over the SMs' next events: node 1 the root, node i's
     * children 2i and 2i + 1, SM k the leaf `leaves` + k (the leaves
     * beyond the SMs never have an event).  Each node holds the winner of
     * its subtree, the earliest next event (ties to the lower SM). */
    int leaves, *winner;
    uint64_t *key;              /* the winner's next event, as time_order (resident.c) */
    double *next;               /* each SM's next event (resident_next) */
    int holding;                /* SMs that hold a block (retiring ones too) */
    /* The SMs by the blocks they hold: per k = 0 .. slots, a bitset of the
     * SMs holding k (`words` 64-bit words each), and their number. */
    uint64_t *holding_k;
    int *n_holding_k, words;
} resident_card;

/* `channel`: INFINITY for none (`parallel`); `split`: each SM's port
 * split into a way in and a way out. */
int resident_card_init(resident_card *c, int sms, int slots, double channel, int split);
void resident_card_free(resident_card *c);

/* The card's memory serves one transfer at a time (`exclusive`), its
 * choices drawn from `seed`.  Before any block starts. */
int resident_card_exclusive(resident_card *c, uint64_t seed);

/* Every SM retires each ended block in `cycles` (block_retire), one at a
 * time.  Before any block starts. */
void resident_card_retire(resident_card *c, double cycles);

/* Every SM serves its lanes by age (issue_by_age, resident_sm's `by_age`).
 * Before any block starts. */
void resident_card_by_age(resident_card *c, int on);

/* resident_start on SM `sm`, and the tournament kept. */
void resident_card_start(resident_card *c, int sm, int slot, double now, const resident_times *t);

/* After the changes of an instant `now` (blocks started, phases ended):
 * the channel's level for the transfers now, and every SM with transfers
 * at its new rates; under `exclusive`, the next transfer served if the
 * memory is free.  Until then each SM keeps the rates it had, which held
 * up to `now`: an instant's changes are settled once, together. */
void resident_card_settle(resident_card *c, double now);

/* The lowest SM among those holding the fewest blocks (retiring ones
 * too). */
int resident_card_emptiest(const resident_card *c);

/* The card's next event, and in *sm its SM; INFINITY if no SM holds a
 * block.  (Settled: the next event; unsettled: the next of this instant.) */
double resident_card_next(const resident_card *c, int *sm);

/* resident_advance on SM `sm` at its next event, and the tournament kept. */
int resident_card_advance(resident_card *c, int sm, int *ended);

/* The run ended at `now` (its last kernel finished): every SM's time
 * split charged up to `now`, and nothing after (retirements may go on). */
void resident_card_close(resident_card *c, double now);

#endif
