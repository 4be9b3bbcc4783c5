/*
 * dmm_umm.c — timing access programs on the DMM and the UMM (see
 * dmm_umm.h for the interface and the rules).
 *
 * This file owns the chapter's time rules.  Where each comes from
 * (dmm-umm-chapter.txt, Nakano et al.):
 *   - "it takes k + l − 1 time units to complete k access requests to a
 *     particular bank" (line 36) and, for Figure 3, "after l − 1 = 4 time
 *     units, these memory requests are processed.  Hence, the DMM takes
 *     2 + 1 + 4 = 7 time units" (line 50): the units a warp's requests take
 *     to enter the first pipeline stage are counted one by one, and the
 *     last request injected at unit τ completes l − 1 units later, at
 *     τ + l − 1.  The UMM: "3 + 2 + 4 = 9" (line 54).
 *   - "W(0), W(1), ... are dispatched in a round-robin manner if at least
 *     one thread in a warp requests memory access ... such warp is not
 *     activated ... and is skipped" (line 41): a warp that cannot send
 *     does not hold the turn; the next one in cyclic order may.
 *   - "a thread cannot send a new memory access request until the previous
 *     memory access request is completed.  Hence ... it must wait l time
 *     units" (line 41): a warp dispatched at τ with cost 1 may send again
 *     at τ + l.  A warp sends as one ("w threads in a warp try to access
 *     the memory at the same time", line 41), so with a cost k > 1 its next
 *     dispatch waits for its last request: τ + k − 1 + l.  (A reading of
 *     ours: the chapter never has a warp send again after a conflict.)
 *   - Lemma 1's case 1 (line 67): W(0)'s requests "are completed in l time
 *     units ... After that, w threads in W(0) can send next memory access
 *     requests immediately": the unit after completion, as above.
 *   - The DMM's cost: "memory cells in different banks can be accessed in a
 *     time unit, but no two memory cells in the same bank" (line 36): the
 *     largest number of distinct CELLS a dispatch asks in one bank.  SPEC §3
 *     says "requests"; the two differ only when threads of a warp ask the
 *     same cell, and counting cells keeps the chapter's "the UMM is less
 *     powerful than the DMM" (line 22) true of every dispatch: distinct
 *     cells of one bank lie in distinct address groups.
 *   - The UMM's cost: "if they are in the different groups, one time unit is
 *     necessary for each of the groups" (line 52): distinct address groups.
 *   - Steps: the chapter's algorithms are synchronous ("for ... do in
 *     parallel"), and its analyses add the Lemma 1 times of their memory
 *     access operations; a step begins the unit after the previous step's
 *     last request completed, so the program's time is the sum of the
 *     steps' times.
 *
 * The machine is simulated directly, not on SimGrid (the MCM engine): one
 * loop over warp dispatches per step, deterministic.  Memory: one step's
 * requests.  Each request is numbered by its rank among its thread's
 * requests of the step (its round k); sorted by (round, thread), the k-th
 * dispatch of warp j is one contiguous run of requests (a segment).  The
 * programs make their requests in that order, so the sort is only a
 * check.
 */
#include "dmm_umm.h"
#include "fail.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The most threads an access program may have (a counter per thread),
 * and the most requests in one step (24 bytes each). */
#define THREADS_MAX (1 << 24)
#define STEP_REQUESTS_MAX (1L << 27)

typedef struct request {
    long round;           /* its rank among its thread's requests of the step */
    long cell;
    int thread;
} request;

struct access_program {
    machine_kind kind;
    int p, w, l;
    long *made;           /* per thread: requests made in the current step */
    /* the current step's requests, in the order they were made */
    request *req;
    long n, cap;
    /* the steps timed so far */
    dmm_counts total;
    dmm_counts *steps;
    long n_steps, cap_steps;
    dmm_bound bound;
    dmm_first_step first; /* the first step, to draw */
};

/* Scratch of one step: its dispatches (segments of the sorted requests),
 * each warp's as a list in round order, and how far each warp has got. */
typedef struct step_state {
    int q;                /* warps */
    long *seg_begin, *seg_end; /* per segment: its requests [begin, end) */
    long *seg_next;       /* per segment: the warp's next one, or -1 */
    long *next_seg;       /* per warp: its next dispatch's segment, or -1 */
    long *ready_at;
    int *active, n_active; /* warps with dispatches left, in warp order */
    long *group;          /* the w cells of one dispatch */
    int *per_bank;        /* w counters */
} step_state;

/* ---- the access program -------------------------------------------------- */

access_program *access_program_new(const machine *m)
{
    access_program *ap = calloc(1, sizeof *ap);
    ap->kind = m->kind;
    ap->p = m->p;
    ap->w = m->warp;
    ap->l = m->latency;
    return ap;
}

int access_threads(access_program *ap, int p)
{
    if (ap->made)
        return fail("internal error: access_threads() after the first request");
    if (p < 1)
        return fail("an access program needs p >= 1 threads (got p = %d)", p);
    ap->p = p;
    return 0;
}

int access_program_threads(const access_program *ap) { return ap->p; }

int access_request(access_program *ap, int thread, long cell)
{
    if (thread < 0 || thread >= ap->p)
        return fail("access program: thread %d does not exist (p = %d threads)", thread, ap->p);
    if (cell < 0)
        return fail("access program: thread %d asks cell %ld, but cells are numbered from 0", thread, cell);
    if (!ap->made) {
        if (ap->p > THREADS_MAX)
            return fail("access program: p = %d threads, but mcmsim runs at most %d on a DMM/UMM",
                        ap->p, THREADS_MAX);
        ap->made = calloc((size_t)ap->p, sizeof *ap->made);
    }
    if (ap->n == ap->cap) {
        if (ap->n >= STEP_REQUESTS_MAX)
            return fail("access program: more than %ld requests in one step; mcmsim keeps a step in "
                        "memory: use fewer cells", STEP_REQUESTS_MAX);
        long cap = ap->cap ? 2 * ap->cap : 1024;
        request *grown = realloc(ap->req, (size_t)cap * sizeof *grown);
        if (!grown)
            return fail("access program: out of memory at %ld requests in one step", ap->n);
        ap->req = grown;
        ap->cap = cap;
    }
    ap->req[ap->n++] = (request){.round = ap->made[thread]++, .cell = cell, .thread = thread};
    return 0;
}

int access_contiguous(access_program *ap, long base, long stride, long count)
{
    for (long k = 0, thread = 0; k < count; k++, thread = thread + 1 == ap->p ? 0 : thread + 1)
        if (access_request(ap, (int)thread, base + k * stride) < 0) /* thread = k mod p */
            return -1;
    return 0;
}

int access_operation(access_program *ap, long base, long stride, long count)
{
    if (access_contiguous(ap, base, stride, count) < 0)
        return -1;
    return access_barrier(ap);
}

void access_bound(access_program *ap, const char *name, const char *formula, double value, int exact)
{
    snprintf(ap->bound.name, sizeof ap->bound.name, "%s", name);
    snprintf(ap->bound.formula, sizeof ap->bound.formula, "%s", formula);
    ap->bound.value = value;
    ap->bound.exact = exact;
}

/* ---- one dispatch's cost ------------------------------------------------- */

static int compare_cells(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

/* Sort the n cells of a dispatch and drop repeats; returns how many are
 * left.  Most dispatches come sorted (contiguous or strided accesses):
 * those are only checked. */
static int distinct_cells(long *cells, int n)
{
    int sorted = 1;
    for (int i = 1; i < n && sorted; i++)
        sorted = cells[i - 1] < cells[i];
    if (sorted)
        return n;
    qsort(cells, (size_t)n, sizeof *cells, compare_cells);
    int kept = 0;
    for (int i = 0; i < n; i++)
        if (kept == 0 || cells[i] != cells[kept - 1])
            cells[kept++] = cells[i];
    return kept;
}

/* DMM: the largest number of distinct cells in one bank (i mod w). */
static long bank_cost(long *cells, int n, int w, int *per_bank)
{
    long worst = 0;
    for (int i = 0; i < n; i++) {
        cells[i] = (w & (w - 1)) == 0 ? cells[i] & (w - 1) : cells[i] % w; /* the bank */
        if (++per_bank[cells[i]] > worst)
            worst = per_bank[cells[i]];
    }
    for (int i = 0; i < n; i++)
        per_bank[cells[i]] = 0;
    return worst;
}

/* UMM: the number of distinct address groups (⌊i/w⌋); cells sorted, so
 * a new group is one above the previous cell's. */
static long group_cost(const long *cells, int n, int w)
{
    long groups = 0, last = -1;
    for (int i = 0; i < n; i++) {
        long g = cells[i] / w;
        groups += g != last;
        last = g;
    }
    return groups;
}

/* The cost in units of warp j's next dispatch (its segment `seg`). */
static long dispatch_cost(const access_program *ap, step_state *s, long seg, long *requests)
{
    int n = 0;
    for (long i = s->seg_begin[seg]; i < s->seg_end[seg]; i++)
        s->group[n++] = ap->req[i].cell;
    *requests = n;
    n = distinct_cells(s->group, n);
    return ap->kind == KIND_DMM ? bank_cost(s->group, n, ap->w, s->per_bank) : group_cost(s->group, n, ap->w);
}

/* ---- one step -------------------------------------------------------------- */

static int compare_requests(const void *a, const void *b)
{
    const request *x = a, *y = b;
    if (x->round != y->round)
        return (x->round > y->round) - (x->round < y->round);
    return (x->thread > y->thread) - (x->thread < y->thread);
}

/* Order the step's requests by (round, thread): a check when the program
 * made them in that order. */
static void order_requests(access_program *ap)
{
    for (long i = 1; i < ap->n; i++)
        if (compare_requests(&ap->req[i - 1], &ap->req[i]) > 0) {
            qsort(ap->req, (size_t)ap->n, sizeof *ap->req, compare_requests);
            return;
        }
}

/* Cut the ordered requests into segments, one per (round, warp), and
 * chain each warp's segments in round order. */
static void step_gather(access_program *ap, step_state *s)
{
    int w = ap->w;
    order_requests(ap);
    s->q = (int)((ap->p + (long)w - 1) / w);
    s->seg_begin = malloc((size_t)ap->n * sizeof *s->seg_begin);
    s->seg_end = malloc((size_t)ap->n * sizeof *s->seg_end);
    s->seg_next = malloc((size_t)ap->n * sizeof *s->seg_next);
    s->next_seg = malloc((size_t)s->q * sizeof *s->next_seg);
    long *last_seg = malloc((size_t)s->q * sizeof *last_seg), segments = 0;
    for (int j = 0; j < s->q; j++)
        s->next_seg[j] = last_seg[j] = -1;
    for (long i = 0, round = -1, j = -1; i < ap->n; i++) {
        long warp = ap->req[i].thread / w;
        if (ap->req[i].round != round || warp != j) { /* a new segment */
            round = ap->req[i].round;
            j = warp;
            s->seg_begin[segments] = i;
            s->seg_next[segments] = -1;
            if (last_seg[j] < 0)
                s->next_seg[j] = segments;
            else
                s->seg_next[last_seg[j]] = segments;
            last_seg[j] = segments++;
        }
        s->seg_end[segments - 1] = i + 1;
    }
    free(last_seg);
    s->ready_at = malloc((size_t)s->q * sizeof *s->ready_at);
    s->active = malloc((size_t)s->q * sizeof *s->active);
    s->n_active = 0;
    for (int j = 0; j < s->q; j++) {
        s->ready_at[j] = 1;
        if (s->next_seg[j] >= 0)
            s->active[s->n_active++] = j;
    }
    s->group = malloc((size_t)w * sizeof *s->group);
    s->per_bank = calloc((size_t)w, sizeof *s->per_bank);
}

static void step_free(step_state *s)
{
    free(s->seg_begin);
    free(s->seg_end);
    free(s->seg_next);
    free(s->next_seg);
    free(s->ready_at);
    free(s->active);
    free(s->group);
    free(s->per_bank);
}

/* The position in s->active, from `from` on in cyclic order, of the first
 * warp allowed to send at unit tau; -1 if none, with the soonest unit one
 * will be in *soonest. */
static int next_warp(const step_state *s, int from, long tau, long *soonest)
{
    *soonest = LONG_MAX;
    for (int i = 0, at = from; i < s->n_active; i++, at = at + 1 == s->n_active ? 0 : at + 1) {
        long ready = s->ready_at[s->active[at]];
        if (ready <= tau)
            return at;
        if (ready < *soonest)
            *soonest = ready;
    }
    return -1;
}

/* Time the step's requests by the rules of dmm_umm.h; its first
 * dispatches into `drawn` (NULL: not drawn). */
static void step_run(const access_program *ap, step_state *s, dmm_counts *c, dmm_first_step *drawn)
{
    long tau = 1; /* the next unit the first stage is free */
    int turn = 0; /* position in s->active of the warp whose turn it is */
    while (s->n_active > 0) {
        long soonest;
        int at = next_warp(s, turn, tau, &soonest);
        if (at < 0) {
            c->idle_units += soonest - tau;
            tau = soonest;
            continue;
        }
        int j = s->active[at];
        long requests, cost = dispatch_cost(ap, s, s->next_seg[j], &requests);
        long completed = tau + cost - 1 + ap->l - 1;
        if (drawn && drawn->n_dispatches < DMM_DRAWN_MAX)
            drawn->dispatch[drawn->n_dispatches++] = (dmm_dispatch){j, tau, cost, completed};
        else if (drawn)
            drawn->whole = 0;
        s->ready_at[j] = completed + 1;
        c->time = fmax(c->time, (double)completed);
        c->requests += requests;
        c->dispatches++;
        c->injection_units += cost;
        if (cost > c->max_cost)
            c->max_cost = cost;
        tau += cost;
        turn = at + 1;
        s->next_seg[j] = s->seg_next[s->next_seg[j]];
        if (s->next_seg[j] < 0) { /* the warp is done: out of the turn */
            memmove(&s->active[at], &s->active[at + 1], (size_t)(s->n_active - at - 1) * sizeof *s->active);
            s->n_active--;
            turn = at;
        }
        if (turn >= s->n_active)
            turn = 0;
    }
}

static void add_counts(dmm_counts *into, const dmm_counts *c)
{
    into->time += c->time;
    into->requests += c->requests;
    into->dispatches += c->dispatches;
    into->injection_units += c->injection_units;
    into->idle_units += c->idle_units;
    if (c->max_cost > into->max_cost)
        into->max_cost = c->max_cost;
}

int access_barrier(access_program *ap)
{
    if (ap->n == 0)
        return 0; /* nothing since the last barrier: no step */
    step_state s;
    memset(&s, 0, sizeof s);
    dmm_first_step *drawn = ap->n_steps == 0 ? &ap->first : NULL;
    if (drawn) { /* the first step's requests, as the program made them */
        drawn->whole = ap->n <= DMM_DRAWN_MAX;
        for (long i = 0; i < ap->n && i < DMM_DRAWN_MAX; i++) {
            drawn->thread[i] = ap->req[i].thread;
            drawn->cell[i] = ap->req[i].cell;
        }
        drawn->n_requests = ap->n < DMM_DRAWN_MAX ? (int)ap->n : DMM_DRAWN_MAX;
    }
    step_gather(ap, &s);
    dmm_counts c;
    memset(&c, 0, sizeof c);
    step_run(ap, &s, &c, drawn);
    step_free(&s);
    if (ap->n_steps == ap->cap_steps) {
        ap->cap_steps = ap->cap_steps ? 2 * ap->cap_steps : 16;
        ap->steps = realloc(ap->steps, (size_t)ap->cap_steps * sizeof *ap->steps);
    }
    ap->steps[ap->n_steps++] = c;
    add_counts(&ap->total, &c);
    for (long i = 0; i < ap->n; i++) /* the next step's rounds start at 0 */
        ap->made[ap->req[i].thread] = 0;
    ap->n = 0;
    return 0;
}

int access_program_finish(access_program *ap, dmm_result *out)
{
    memset(out, 0, sizeof *out);
    if (access_barrier(ap) < 0)
        return -1;
    if (ap->n_steps == 0)
        return fail("the access program makes no memory request");
    out->kind = ap->kind;
    out->p = ap->p;
    out->w = ap->w;
    out->l = ap->l;
    out->total = ap->total;
    out->bound = ap->bound;
    out->n_steps = ap->n_steps;
    out->first = ap->first;
    out->steps = malloc((size_t)ap->n_steps * sizeof *out->steps);
    memcpy(out->steps, ap->steps, (size_t)ap->n_steps * sizeof *out->steps);
    return 0;
}

void access_program_free(access_program *ap)
{
    if (!ap)
        return;
    free(ap->made);
    free(ap->req);
    free(ap->steps);
    free(ap);
}

int dmm_umm_run(access_hook hook, const vars *params, const machine *m, dmm_result *out)
{
    memset(out, 0, sizeof *out);
    if (m->kind == KIND_MCM)
        return fail("internal error: machine '%s' is an MCM, not a DMM or a UMM", m->name);
    if (machine_validate(m) < 0)
        return -1;
    access_program *ap = access_program_new(m);
    int rc = hook(params, m, ap);
    if (rc == 0)
        rc = access_program_finish(ap, out);
    access_program_free(ap);
    return rc;
}

void dmm_result_free(dmm_result *r)
{
    free(r->steps);
    r->steps = NULL;
    r->n_steps = 0;
}

double lemma1_time(double n, double p, double w, double l)
{
    double rounds = ceil(n / p), warps = ceil(p / w);
    double last_warps = ceil((n - (rounds - 1) * p) / w);
    return (rounds - 1) * fmax(l, warps) + l + last_warps - 1;
}
