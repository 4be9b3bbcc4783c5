/*
 * dmm_umm.h — the Discrete and the Unified Memory Machine of the DMM/UMM
 * chapter (Nakano et al., dmm-umm-chapter.txt §2; SPEC §3), and the
 * "access programs" they run.
 *
 * An access program is what the chapter's time analysis looks at: for each
 * of p threads, the sequence of memory cells it requests, cut into
 * synchronous steps (a barrier between two steps: no request of a step is
 * injected before every request of the previous step has completed).
 * Values are not computed: only addresses matter to the DMM and the UMM.
 *
 * The machine (p threads, width w, latency l) counts time in units 1, 2, 3,
 * ... of each step, by these rules (sim/model/dmm_umm.c says why each is the
 * chapter's):
 *   warps      W(j) = threads jw .. jw + w − 1 (the last one partial when
 *              w does not divide p); a warp is dispatched as one: its k-th
 *              dispatch sends the k-th request of each of its threads that
 *              has one;
 *   cost       a dispatch occupies the pipeline's first stage for k units:
 *              DMM: the largest number of distinct cells it asks in one bank
 *              (cell i is in bank i mod w); UMM: the number of distinct
 *              address groups (cell i is in group ⌊i/w⌋);
 *   latency    a request injected at unit τ completes at unit τ + l − 1;
 *              a warp's next dispatch may start at the unit after the last
 *              of its requests completed;
 *   order      whenever the first stage is free, the first warp in
 *              round-robin order (after the last one dispatched) that has a
 *              request and is allowed to send it; if none, the unit passes
 *              with no injection (an idle unit);
 *   time       a step lasts until the unit its last request completes; the
 *              program's time is the sum over its steps.
 * Figure 3 (p = 8, w = 4, l = 5): 2 + 1 + 4 = 7 units on the DMM, 3 + 2 + 4
 * = 9 on the UMM (tests/test_dmm_umm.c).
 *
 * The machine is simulated directly (a deterministic loop over dispatches),
 * not on SimGrid: it is a different, simpler machine than the MCM, whose
 * engine is sim/engine/engine.c.  An access program is consumed step by step (each
 * step is timed when the next begins), so memory holds one step.  Limits:
 * p <= 2^24 threads and 2^27 requests in one step (a clear error beyond).
 *
 * A built-in program provides the accesses (programs/program.h):
 *   access_threads(ap, p)            only to run on p threads other than the
 *                                    machine's (before any request)
 *   access_request(ap, thread, cell) the thread's next request in this step
 *   access_contiguous(ap, base, stride, count)
 *                                    the chapter's contiguous access (§3):
 *                                    T(i) asks cells k ≡ i (mod p), k < count,
 *                                    at base + k·stride
 *   access_barrier(ap)               end of a synchronous step
 *   access_operation(ap, base, stride, count)
 *                                    one of the chapter's "memory access
 *                                    operations": the two above
 *   access_bound(ap, ...)            the chapter's formula for this program
 */
#ifndef MCM_DMM_UMM_H
#define MCM_DMM_UMM_H

#include "formula.h"
#include "machine.h"

/* What a run of an access program counts (the sum over its steps). */
typedef struct dmm_counts {
    double time;           /* time units: the machine's running time */
    long requests;         /* memory requests of all threads */
    long dispatches;       /* warp dispatches (activations) */
    long injection_units;  /* units the first stage was busy: Σ dispatch costs */
    long idle_units;       /* units with no injection while requests waited */
    long max_cost;         /* the costliest dispatch, in units */
} dmm_counts;

/* The chapter's formula next to the simulated time, where it gives one. */
typedef struct dmm_bound {
    char name[32];         /* "Lemma 1", "Theorem 1", ... ("" when none) */
    char formula[96];      /* e.g. "n/w + nl/p + l log n" */
    double value;
    int exact;             /* 1: the time must equal it; 0: an O() bound */
} dmm_bound;

/* The run's first step as a picture draws it (plot_warps.c): its first
 * requests, by thread, and its first dispatches, in time order, as many as
 * DMM_DRAWN_MAX of each. */
#define DMM_DRAWN_MAX 64

typedef struct dmm_dispatch {
    int warp;
    long start;            /* the unit it enters the first stage */
    long cost;             /* units it holds the first stage */
    long completed;        /* the unit its last request completes */
} dmm_dispatch;

typedef struct dmm_first_step {
    int n_requests, n_dispatches;
    int whole;             /* 1: every request and dispatch of the step is here */
    int thread[DMM_DRAWN_MAX];
    long cell[DMM_DRAWN_MAX];
    dmm_dispatch dispatch[DMM_DRAWN_MAX];
} dmm_first_step;

/* One run: the machine it ran on (p as the program chose), the counts, the
 * bound, the counts of each step, and its first step to draw. */
typedef struct dmm_result {
    machine_kind kind;
    int p, w, l;
    dmm_counts total;
    dmm_bound bound;
    long n_steps;
    dmm_counts *steps;     /* n_steps entries, in order */
    dmm_first_step first;
} dmm_result;

typedef struct access_program access_program;

/* Start an access program on machine m (kind dmm or umm, validated). */
access_program *access_program_new(const machine *m);

/* Run on p threads instead of the machine's (before any request). */
int access_threads(access_program *ap, int p);
int access_program_threads(const access_program *ap);

/* The next request of `thread` (0 <= thread < p) in the current step, for
 * cell `cell` (>= 0). */
int access_request(access_program *ap, int thread, long cell);

/* The chapter's contiguous access of `count` cells base + k·stride (k <
 * count): cell k by thread k mod p, i.e. in ⌈count/p⌉ rounds. */
int access_contiguous(access_program *ap, long base, long stride, long count);

/* End the current step (a barrier), timing it. */
int access_barrier(access_program *ap);

/* One memory access operation of the chapter's analyses (e.g. "reading from
 * a[0], ..., a[2^t − 1]", line 96) as a synchronous step of its own: the
 * contiguous access, then a barrier.  The chapter adds the Lemma 1 times
 * of these operations; so does a program made of them. */
int access_operation(access_program *ap, long base, long stride, long count);

/* Record the chapter's formula for this program at this point. */
void access_bound(access_program *ap, const char *name, const char *formula, double value, int exact);

/* End the program (the last step, if it has requests) and fill `out`. */
int access_program_finish(access_program *ap, dmm_result *out);
void access_program_free(access_program *ap);

/* A program's accesses (builtin_program.accesses). */
typedef int (*access_hook)(const vars *params, const machine *m, access_program *out);

/* Run `hook` at `params` on m (kind dmm or umm): the whole of the above. */
int dmm_umm_run(access_hook hook, const vars *params, const machine *m, dmm_result *out);

void dmm_result_free(dmm_result *r);

/* Lemma 1, exactly, for the contiguous access of n cells by p threads on
 * width w and latency l, for any n, p, w >= 1 (the ⌈⌉ form is ours):
 *   R = ⌈n/p⌉ rounds, q = ⌈p/w⌉ warps, q' = ⌈(n − (R−1)p)/w⌉ warps in the
 *   last round:  T = (R − 1)·max(l, q) + l + q' − 1.
 * When w | p and p | n it is the chapter's nl/p + p/w − 1 (p/w <= l) or
 * n/w + l − 1 (p/w > l); when n < p, ⌈n/w⌉ + l − 1.  Exact on the DMM for
 * all n, p, w; on the UMM when w | p (otherwise rounds start off an
 * address-group boundary and warps may straddle two groups). */
double lemma1_time(double n, double p, double w, double l);

#endif
