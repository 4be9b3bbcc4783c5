/*
 * resident.c — an SM that holds several blocks at once (resident.h).
 *
 * It owns the phases of each resident block, the sharing of the SM's
 * lanes (max-min, or by age) and port (max-min) among them, and where
 * each SM's time goes while it holds blocks (time_split.h); for the card,
 * the SMs by their next event, the `shared` channel's level and the
 * `exclusive` memory's queue.
 * It knows nothing of kernels or of the schedule: engine.c's block
 * scheduler hands it blocks and asks it when the next phase ends.
 */
#include "resident.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* An amount left of at most this fraction of its phase is the rounding of
 * rate × time: the phase is done. */
#define RESIDENT_EPSILON 1e-12

int resident_init(resident_sm *s, int slots)
{
    s->slots = slots;
    s->used = 0;
    s->held = 0;
    s->split = 0;
    s->exclusive = 0;
    s->transfers[0] = s->transfers[1] = 0;
    s->level = INFINITY;
    s->at = 0;
    s->retire = s->retired = 0;
    s->by_age = 0;
    memset(s->time_split, 0, sizeof s->time_split);
    memset(s->in_phase, 0, sizeof s->in_phase);
    s->dram_transfers = 0;
    s->charged = 0;
    s->closed = INFINITY;
    s->next = INFINITY;
    s->lanes_changed = 0;
    s->slot = calloc((size_t)slots, sizeof *s->slot);
    s->order = calloc((size_t)slots, sizeof *s->order);
    if (!s->slot || !s->order)
        return -1;
    for (int i = 0; i < slots; i++)
        s->slot[i].phase = RESIDENT_FREE;
    return 0;
}

void resident_free(resident_sm *s)
{
    free(s->slot);
    free(s->order);
    s->slot = NULL;
    s->order = NULL;
}

int resident_free_slot(const resident_sm *s)
{
    for (int i = 0; i < s->slots; i++)
        if (s->slot[i].phase == RESIDENT_FREE)
            return i;
    return -1;
}

/* ---- phases --------------------------------------------------------------- */

static double phase_amount(const resident_slot *b, int phase)
{
    switch (phase) {
    case RESIDENT_WAIT:
        return b->t.wait;
    case RESIDENT_READ:
        return b->t.beside ? 0 : b->t.read; /* `beside`: its reads move during its compute */
    case RESIDENT_COMPUTE:
        return b->t.work > 0 ? b->t.work : b->t.span;
    default:
        return b->t.write;
    }
}

/* A `beside` block computing whose reads are still moving. */
static int reading_beside(const resident_slot *b)
{
    return b->phase == RESIDENT_COMPUTE && b->t.beside && b->port_left > 0;
}

/* A delay runs at its own pace; the other phases share a resource.
 * Under `exclusive` a transfer is no share of the port: it waits for the
 * memory, then is a delay while the memory serves it alone. */
static int on_port(const resident_slot *b)
{
    return ((b->phase == RESIDENT_READ || b->phase == RESIDENT_WRITE) && b->memory == RESIDENT_PORT) ||
           reading_beside(b);
}

/* Computing, its work not done (a `beside` block may have its reads
 * left after it). */
static int on_lanes(const resident_slot *b)
{
    return b->phase == RESIDENT_COMPUTE && b->t.work > 0 && !(b->t.beside && b->left <= 0);
}

static int is_delay(const resident_slot *b)
{
    return b->phase == RESIDENT_WAIT || b->phase == RESIDENT_RETIRE ||
           (b->phase == RESIDENT_COMPUTE && b->t.work <= 0) || b->memory == RESIDENT_SERVED;
}

/* Does the block have cycles to spend in `phase`? */
static int has_phase(const resident_sm *s, const resident_slot *b, int phase)
{
    if (phase == RESIDENT_RETIRE)
        return s->retire > 0;
    if (phase == RESIDENT_WAIT && !(b->t.wait > 0)) /* a block with no cycles before its retirement waits for
                                                     * none: so it ends (resident_advance), held no more */
        return !(phase_amount(b, RESIDENT_READ) > 0 || phase_amount(b, RESIDENT_COMPUTE) > 0 ||
                 phase_amount(b, RESIDENT_WRITE) > 0);
    return phase_amount(b, phase) > 0;
}

/* The port a transfer takes: 0, or split, 1 for writes. */
static int way(const resident_sm *s, const resident_slot *b)
{
    return s->split && b->phase == RESIDENT_WRITE;
}

/* Block b counted on its way of the port if it is on the port (by = 1),
 * or no longer (by = −1): before and after each change of its phase, its
 * memory or its reads beside its compute. */
static void count_port(resident_sm *s, const resident_slot *b, int by)
{
    if (on_port(b))
        s->transfers[way(s, b)] += by;
}

/* Block b counted in its phase (by = 1) or no longer (by = −1). */
static void count_phase(resident_sm *s, const resident_slot *b, int by)
{
    if (b->phase == RESIDENT_FREE)
        return;
    s->in_phase[b->phase] += by;
    if ((b->phase == RESIDENT_READ || b->phase == RESIDENT_WRITE) && b->t.dram)
        s->dram_transfers += by;
}

/* The block enters `phase` at `now`, or the first later one with cycles
 * to do; it notes when its reads end and its writes begin.  Under
 * `exclusive` (the SM's `exclusive`) a transfer starts by asking for the
 * memory: no end until the card's memory serves it (serve_next).  Its
 * retirement comes after the SM's earlier ones. */
static void enter(resident_sm *s, resident_slot *b, int phase, double now)
{
    if (on_lanes(b))
        s->lanes_changed = 1; /* it leaves them */
    count_port(s, b, -1);
    for (; phase < RESIDENT_FREE; phase++) {
        if (phase == RESIDENT_COMPUTE)
            b->read_end = now;
        if (phase == RESIDENT_WRITE)
            b->write_start = now;
        if (has_phase(s, b, phase))
            break;
    }
    count_phase(s, b, -1);
    b->phase = phase;
    count_phase(s, b, 1);
    b->memory = RESIDENT_PORT;
    if (phase == RESIDENT_FREE)
        return;
    if (phase == RESIDENT_RETIRE) {
        s->retired = fmax(now, s->retired) + s->retire;
        b->left = s->retired - now;
    } else
        b->left = phase_amount(b, phase);
    if (phase == RESIDENT_COMPUTE && b->t.beside) {
        b->port_left = b->t.read;
        b->lanes_end = b->port_end = INFINITY;
    }
    if (on_lanes(b))
        s->lanes_changed = 1; /* it comes onto them */
    if (s->exclusive && (phase == RESIDENT_READ || phase == RESIDENT_WRITE)) {
        b->memory = RESIDENT_ASKING;
        b->rate = 0;
        b->end = INFINITY;
    } else if (is_delay(b)) {
        b->rate = 1;
        b->end = now + b->left; /* fixed: a delay owes nothing to the others */
    }
    count_port(s, b, 1);
}

/* ---- sharing -------------------------------------------------------------- */

/* A block's span while `on` blocks are on the SM's lanes, their warps on
 * its schedulers (resident.h). */
static double span_with(const resident_times *t, int on)
{
    if (!(t->span_with[0] > 0))
        return t->span;
    return t->span_with[(on < RESIDENT_SPANS ? on : RESIDENT_SPANS) - 1];
}

/* A compute phase takes at most work/span lane-cycles per cycle; a
 * `beside` block's path is its reads and its span. */
static double lane_bound(const resident_slot *b)
{
    double path = b->span + (b->t.beside ? b->t.read : 0);
    return path > 0 ? b->t.work / path : INFINITY;
}

/* Is slot a served before slot b?  Max-min: the lesser bound first; by
 * age: the block that started first.  Ties to the lower slot (the slots
 * are taken in increasing order). */
static int served_before(const resident_sm *s, int a, int b)
{
    if (s->by_age)
        return s->slot[a].start < s->slot[b].start;
    return lane_bound(&s->slot[a]) < lane_bound(&s->slot[b]);
}

/* The lanes, block by block in the order they are served: each takes its
 * bound or its share of what is left, whichever is less; the share is an
 * equal one (max-min fairness) or, by age, all of it.  The rates depend
 * only on which blocks are on the lanes, so they are shared again only
 * when that changed. */
static void share_lanes(resident_sm *s)
{
    if (!s->lanes_changed)
        return;
    s->lanes_changed = 0;
    int on = 0;
    for (int i = 0; i < s->used; i++)
        on += on_lanes(&s->slot[i]);
    int n = 0;
    for (int i = 0; i < s->used; i++) {
        resident_slot *b = &s->slot[i];
        if (!on_lanes(b))
            continue;
        b->span = span_with(&b->t, on);
        int j = n++;
        for (; j > 0 && served_before(s, i, s->order[j - 1]); j--)
            s->order[j] = s->order[j - 1];
        s->order[j] = i;
    }
    double capacity = 1;
    for (int k = 0; k < n; k++) {
        resident_slot *b = &s->slot[s->order[k]];
        if (s->by_age) /* its chains wait for its elders' warps, not the younger ones' */
            b->span = span_with(&b->t, k + 1);
        b->rate = fmin(lane_bound(b), s->by_age ? capacity : capacity / (n - k));
        capacity -= b->rate;
    }
}

/* A `beside` block computing: its reads' rate on the port (`port`: a
 * transfer's rate on each way), and when each of its two parts ends (a
 * part done ends never); the phase's next event is the earlier. */
static void beside_ends(const resident_sm *s, resident_slot *b, const double *port)
{
    b->lanes_end = b->port_end = INFINITY;
    if (reading_beside(b)) {
        b->port_rate = port[way(s, b)];
        b->port_end = s->at + b->port_left / b->port_rate;
    }
    if (on_lanes(b))
        b->lanes_end = s->at + b->left / b->rate;
    b->end = fmin(b->lanes_end, b->port_end);
}

/* The rates of the blocks on the SM now, the ends they give, and the
 * SM's next event (the earliest end of a block it holds). */
static void share(resident_sm *s)
{
    share_lanes(s);
    double port[2] = {0, 0}; /* a transfer's rate on each way: the same for every one */
    for (int w = 0; w < 2; w++)
        if (s->transfers[w] > 0)
            port[w] = fmin(1.0 / s->transfers[w], s->level);
    double next = INFINITY;
    for (int i = 0; i < s->used; i++) {
        resident_slot *b = &s->slot[i];
        if (b->phase == RESIDENT_FREE)
            continue;
        if (b->phase == RESIDENT_COMPUTE && b->t.beside)
            beside_ends(s, b, port);
        else {
            if (on_port(b))
                b->rate = port[way(s, b)];
            if (on_port(b) || on_lanes(b))
                b->end = s->at + b->left / b->rate;
        }
        if (b->end < next)
            next = b->end;
    }
    s->next = next;
}

/* ---- where the time went (time_split.h) -------------------------------------- */

/* The share of its port the SM's transfers fill now: the larger way's sum
 * of rates (a transfer waiting for the `exclusive` memory moves nothing),
 * at most 1. */
static double port_filled(const resident_sm *s)
{
    if (!s->exclusive && s->level == INFINITY)
        return 1; /* no channel: n transfers on a way take 1/n each */
    double way_rate[2] = {0, 0};
    for (int i = 0; i < s->used; i++) {
        const resident_slot *b = &s->slot[i];
        if ((b->phase == RESIDENT_READ || b->phase == RESIDENT_WRITE) &&
            (b->memory == RESIDENT_PORT || b->memory == RESIDENT_SERVED))
            way_rate[way(s, b)] += b->rate;
        else if (reading_beside(b))
            way_rate[way(s, b)] += b->port_rate;
    }
    double filled = fmax(way_rate[0], way_rate[1]);
    return filled > 1 - 1e-12 ? 1 : filled; /* n shares of 1/n: full, whatever the rounding */
}

/* Charge the cycles since `charged` to the part the SM was in, by the
 * phases of its blocks then (they change only after this is called):
 * the first of compute, memory, latency, dispatch, retire that one of its
 * blocks is in.  A block's wait is its dispatch, then its latency. */
static void account(resident_sm *s, double now)
{
    double from = s->charged, until = now < s->closed ? now : s->closed;
    if (!(until > from) || s->held == 0) {
        s->charged = until > from ? until : from;
        return;
    }
    s->charged = until;
    double dt = until - from;
    if (s->in_phase[RESIDENT_COMPUTE] > 0) {
        s->time_split[SPLIT_COMPUTE] += dt;
    } else if (s->in_phase[RESIDENT_READ] + s->in_phase[RESIDENT_WRITE] > 0) {
        double moved = dt * port_filled(s);
        s->time_split[s->dram_transfers > 0 ? SPLIT_DRAM : SPLIT_MEMORY] += moved;
        s->time_split[SPLIT_CONTENTION] += dt - moved;
    } else if (s->in_phase[RESIDENT_WAIT] > 0) {
        double latency_from = INFINITY; /* the first block's latency, after its dispatch */
        for (int i = 0; i < s->used; i++)
            if (s->slot[i].phase == RESIDENT_WAIT)
                latency_from = fmin(latency_from, s->slot[i].start + (s->slot[i].t.wait - s->slot[i].t.latency));
        double latency = fmin(dt, fmax(0, until - fmax(from, latency_from)));
        s->time_split[SPLIT_LATENCY] += latency;
        s->time_split[SPLIT_DISPATCH] += dt - latency;
    } else {
        s->time_split[SPLIT_RETIRE] += dt; /* only retiring blocks are left */
    }
}

/* ---- the SM's life ---------------------------------------------------------- */

/* A `beside` block's two parts `dt` cycles on, to `now`: a part whose
 * end is reached, or with only rounding left, is done (0 left). */
static void beside_progress(resident_sm *s, resident_slot *b, double dt, double now)
{
    if (reading_beside(b)) {
        b->port_left -= b->port_rate * dt;
        if (b->port_end <= now || b->port_left <= RESIDENT_EPSILON * b->t.read) {
            b->port_left = 0;
            s->transfers[way(s, b)]--; /* its reads done, it leaves the port */
        }
    }
    if (on_lanes(b)) {
        b->left -= b->rate * dt;
        if (b->lanes_end <= now || b->left <= RESIDENT_EPSILON * b->t.work) {
            b->left = 0;
            s->lanes_changed = 1; /* its work done, it leaves the lanes */
        }
    }
}

/* The work the shared phases did since `at`, at their rates. */
static void progress(resident_sm *s, double now)
{
    account(s, now);
    double dt = now - s->at;
    for (int i = 0; i < s->used; i++) {
        resident_slot *b = &s->slot[i];
        if (b->phase == RESIDENT_COMPUTE && b->t.beside)
            beside_progress(s, b, dt, now);
        else if (on_port(b) || on_lanes(b))
            b->left -= b->rate * dt;
    }
    s->at = now;
}

void resident_start(resident_sm *s, int slot, double now, const resident_times *t)
{
    progress(s, now);
    resident_slot *b = &s->slot[slot];
    b->t = *t;
    b->start = now;
    b->read_end = b->write_start = now;
    s->held++;
    if (slot >= s->used)
        s->used = slot + 1;
    enter(s, b, RESIDENT_WAIT, now);
    share(s);
}

double resident_next(const resident_sm *s)
{
    return s->next;
}

/* Has b's phase ended (its end reached, or only rounding left)? */
static int phase_ended(const resident_slot *b, double now)
{
    if (b->phase == RESIDENT_COMPUTE && b->t.beside)
        return !on_lanes(b) && !reading_beside(b); /* beside_progress brought both to now */
    if (b->end <= now)
        return 1;
    return !is_delay(b) && b->left <= RESIDENT_EPSILON * phase_amount(b, b->phase);
}

int resident_advance(resident_sm *s, double now, int *ended)
{
    progress(s, now);
    int n = 0;
    for (int i = 0; i < s->used; i++) {
        resident_slot *b = &s->slot[i];
        if (b->phase == RESIDENT_FREE || !phase_ended(b, now))
            continue;
        int was = b->phase;
        enter(s, b, was + 1, now);
        if (was < RESIDENT_RETIRE && b->phase >= RESIDENT_RETIRE)
            ended[n++] = i;
        if (b->phase == RESIDENT_FREE)
            s->held--;
    }
    share(s);
    return n;
}

/* ---- the SMs of a card, by their next event ------------------------------- */

/* A time as a whole number of the same order: the bits of a double, the
 * sign's flipped for a positive one and all of them for a negative one
 * (-0 comes just before +0, where a double compares them equal; times
 * are never -0); only a NaN, never a time, would be the largest whole
 * number.  Whole numbers compare without a branch. */
static uint64_t time_order(double t)
{
    uint64_t u;
    memcpy(&u, &t, sizeof u);
    return u >> 63 ? ~u : u | (uint64_t)1 << 63;
}

int resident_card_init(resident_card *c, int sms, int slots, double channel, int split)
{
    c->sms = sms;
    c->slots = slots;
    c->channel = channel;
    c->level = INFINITY;
    c->unsettled = 0;
    c->exclusive = 0;
    c->queue = NULL;
    c->n_queue = 0;
    c->serving = -1;
    c->holding = 0;
    c->with = calloc((size_t)slots + 1, sizeof *c->with);
    c->sm = calloc((size_t)sms, sizeof *c->sm);
    for (c->leaves = 1; c->leaves < sms; c->leaves *= 2)
        ;
    c->key = malloc(sizeof *c->key * 2 * (size_t)c->leaves);
    c->winner = malloc(sizeof *c->winner * 2 * (size_t)c->leaves);
    c->next = malloc(sizeof *c->next * (size_t)sms);
    if (!c->sm || !c->key || !c->winner || !c->next || !c->with)
        return -1;
    for (int i = 0; i < 2 * c->leaves; i++) { /* no SM has an event: every match a tie */
        c->key[i] = time_order(INFINITY);
        c->winner[i] = 0;
    }
    c->words = (sms + 63) / 64;
    c->holding_k = calloc((size_t)(slots + 1) * (size_t)c->words, sizeof *c->holding_k);
    c->n_holding_k = calloc((size_t)slots + 1, sizeof *c->n_holding_k);
    if (!c->holding_k || !c->n_holding_k)
        return -1;
    for (int i = 0; i < sms; i++) /* every SM holds none */
        c->holding_k[i / 64] |= (uint64_t)1 << (i % 64);
    c->n_holding_k[0] = sms;
    for (int i = 0; i < sms; i++) {
        c->next[i] = INFINITY;
        if (resident_init(&c->sm[i], slots) < 0)
            return -1;
        c->sm[i].split = split;
    }
    return 0;
}

void resident_card_free(resident_card *c)
{
    for (int i = 0; c->sm && i < c->sms; i++)
        resident_free(&c->sm[i]);
    free(c->sm);
    free(c->key);
    free(c->winner);
    free(c->next);
    free(c->with);
    free(c->holding_k);
    free(c->n_holding_k);
    c->holding_k = NULL;
    c->n_holding_k = NULL;
    free(c->queue);
    c->with = NULL;
    c->queue = NULL;
    c->sm = NULL;
    c->key = NULL;
    c->winner = NULL;
    c->next = NULL;
}

/* SM sm's next event changed: its leaf, and the winners on its path up.
 * The other subtree at each level is untouched, so its winner stands;
 * on a tie the lower SM wins, the one in the left subtree (the odd node
 * is the right child). */
static void reschedule(resident_card *c, int sm)
{
    if (c->next[sm] == resident_next(&c->sm[sm]))
        return; /* the same: every match stands */
    c->next[sm] = resident_next(&c->sm[sm]);
    int i = c->leaves + sm, w = sm;
    uint64_t key = time_order(c->next[sm]);
    c->key[i] = key;
    c->winner[i] = w;
    for (; i > 1; i >>= 1) {
        uint64_t other_key = c->key[i ^ 1];
        int other = c->winner[i ^ 1];
        /* the other side wins if earlier, or as early from the left (i
         * odd); key + 1 does not wrap (time_order) */
        int won = other_key < key + (uint64_t)(i & 1);
        key = won ? other_key : key;
        w = won ? other : w;
        c->key[i >> 1] = key;
        c->winner[i >> 1] = w;
    }
}

/* ---- the channel ------------------------------------------------------------ */

/* The channel's level, by progressive filling: every transfer's rate
 * grows alike until a constraint is full.  SM s's port is full at 1/n_s,
 * so the SMs with the most transfers fill first: by decreasing n_s, an
 * SM whose port fills below the channel's fair level for what is left
 * takes its whole port; the first that does not sets the level. */
static double channel_level(resident_card *c)
{
    int n = 0; /* ports in use */
    long transfers = 0;
    memset(c->with, 0, sizeof *c->with * ((size_t)c->slots + 1));
    for (int i = 0; i < c->sms; i++)
        for (int w = 0; w < 2; w++)
            if (c->sm[i].transfers[w] > 0) {
                c->with[c->sm[i].transfers[w]]++;
                transfers += c->sm[i].transfers[w];
                n++;
            }
    if (n <= c->channel)
        return INFINITY; /* every port at full speed fits */
    double left = c->channel;
    for (int k = c->slots; k >= 1; k--)
        for (int j = 0; j < c->with[k]; j++) {
            double level = left / (double)transfers;
            if (1.0 / k > level)
                return level;
            left -= 1; /* this port, full */
            transfers -= k;
        }
    return INFINITY;
}

/* ---- the memory of `exclusive` ----------------------------------------------- */

int resident_card_exclusive(resident_card *c, uint64_t seed)
{
    c->exclusive = 1;
    c->queue = malloc(sizeof *c->queue * (size_t)c->sms * (size_t)c->slots);
    rng_seed(&c->ties, seed);
    for (int i = 0; i < c->sms; i++)
        c->sm[i].exclusive = 1;
    return c->queue ? 0 : -1;
}

/* SM sm changed: its new requests join the queue, lowest slot first; the
 * transfer served, if it was there and has ended, frees the memory. */
static void memory_changed(resident_card *c, int sm)
{
    if (!c->exclusive)
        return;
    for (int i = 0; i < c->sm[sm].used; i++) {
        resident_slot *b = &c->sm[sm].slot[i];
        if (b->memory == RESIDENT_ASKING) {
            b->memory = RESIDENT_QUEUED;
            c->queue[c->n_queue++] = sm * c->slots + i;
        }
    }
    if (c->serving >= 0 && c->serving / c->slots == sm &&
        c->sm[sm].slot[c->serving % c->slots].memory != RESIDENT_SERVED)
        c->serving = -1;
}

/* The memory is free: it serves a waiting transfer, picked at random. */
static void serve_next(resident_card *c, double now)
{
    if (c->serving >= 0 || c->n_queue == 0)
        return;
    int pick = (int)rng_below(&c->ties, (uint64_t)c->n_queue);
    int next = c->queue[pick], sm = next / c->slots;
    c->queue[pick] = c->queue[--c->n_queue];
    resident_slot *b = &c->sm[sm].slot[next % c->slots];
    account(&c->sm[sm], now); /* it waited for the memory until now */
    b->memory = RESIDENT_SERVED;
    b->rate = 1;
    b->end = now + b->left;
    c->sm[sm].next = fmin(c->sm[sm].next, b->end);
    c->serving = next;
    reschedule(c, sm);
}

/* ---- an instant settled --------------------------------------------------------- */

void resident_card_settle(resident_card *c, double now)
{
    if (!c->unsettled)
        return;
    c->unsettled = 0;
    if (c->exclusive)
        serve_next(c, now);
    if (c->channel == INFINITY)
        return;
    double level = channel_level(c);
    if (level == c->level)
        return;
    c->level = level;
    for (int i = 0; i < c->sms; i++) {
        resident_sm *s = &c->sm[i];
        if (s->transfers[0] + s->transfers[1] == 0) {
            s->level = level; /* for its next transfer: no rate changes now */
            continue;
        }
        progress(s, now);
        s->level = level;
        share(s);
        reschedule(c, i);
    }
}

void resident_card_retire(resident_card *c, double cycles)
{
    for (int i = 0; i < c->sms; i++)
        c->sm[i].retire = cycles;
}

void resident_card_by_age(resident_card *c, int on)
{
    for (int i = 0; i < c->sms; i++)
        c->sm[i].by_age = on;
}

/* SM sm held `from` blocks and holds `to` now. */
static void held_changed(resident_card *c, int sm, int from, int to)
{
    if (from == to)
        return;
    uint64_t bit = (uint64_t)1 << (sm % 64);
    c->holding_k[(size_t)from * (size_t)c->words + (size_t)(sm / 64)] &= ~bit;
    c->holding_k[(size_t)to * (size_t)c->words + (size_t)(sm / 64)] |= bit;
    c->n_holding_k[from]--;
    c->n_holding_k[to]++;
}

int resident_card_emptiest(const resident_card *c)
{
    int k = 0;
    while (c->n_holding_k[k] == 0)
        k++;
    const uint64_t *set = c->holding_k + (size_t)k * (size_t)c->words;
    int w = 0;
    while (set[w] == 0)
        w++;
    return w * 64 + __builtin_ctzll(set[w]);
}

void resident_card_start(resident_card *c, int sm, int slot, double now, const resident_times *t)
{
    c->holding += c->sm[sm].held == 0;
    int held = c->sm[sm].held;
    resident_start(&c->sm[sm], slot, now, t);
    held_changed(c, sm, held, c->sm[sm].held);
    reschedule(c, sm);
    memory_changed(c, sm);
    c->unsettled = 1;
}

double resident_card_next(const resident_card *c, int *sm)
{
    if (c->next[c->winner[1]] == INFINITY)
        return INFINITY;
    *sm = c->winner[1];
    return c->next[*sm];
}

int resident_card_advance(resident_card *c, int sm, int *ended)
{
    int held = c->sm[sm].held;
    int n = resident_advance(&c->sm[sm], c->next[sm], ended);
    held_changed(c, sm, held, c->sm[sm].held);
    c->holding -= c->sm[sm].held == 0;
    reschedule(c, sm);
    memory_changed(c, sm);
    c->unsettled = 1;
    return n;
}

void resident_card_close(resident_card *c, double now)
{
    for (int i = 0; i < c->sms; i++) {
        account(&c->sm[i], now);
        c->sm[i].closed = now;
    }
}
