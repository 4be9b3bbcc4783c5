/*
 * stage.h — inside the engine (sim/engine/ only): the stage of one
 * simulation, which engine.c sets, and the steps of the story that every
 * scheduler shares.  A scheduler plays the SMs; the stage keeps the
 * kernels (which are ready, which blocks are issued and done), the host
 * CPU that launches them, the result and the trace.
 *
 * The schedulers, behind `scheduler` below:
 *   waves.c                     the block scheduler: one block per SM under
 *                               `parallel`, moving whole rounds at once (waves)
 *   sharing.c                   the block scheduler where blocks share an SM
 *                               (resident blocks) or the memory (`shared`,
 *                               `exclusive`), with resident.c
 *   tests/simgrid_reference.c   the tests' reference where blocks share: an
 *                               actor per SM (slot), SimGrid's solver sharing
 *                               (the machine's sharing_by_simgrid; installed
 *                               by linking it: engine_use_reference)
 */
#ifndef MCM_STAGE_H
#define MCM_STAGE_H

#include "engine.h"
#include "card_terms.h"
#include "rng.h"

#include <stdint.h>
#include <stdio.h>

typedef struct kernel_state {
    int missing;          /* kernels it comes after that are not finished */
    long issued;          /* blocks handed to SMs so far */
    long finished;        /* blocks done */
    uint64_t step, shift; /* `random` order: block j is (step·j + shift) mod B */
    double launch;        /* its launch latency: machine_kernel_launch_latency, and the
                           * constant lines its code reads (kernel_constant_lines) */
} kernel_state;

/* A block handed to an SM: its kernel and index. */
typedef struct block {
    int kernel;
    long index;
    int first; /* the kernel's first block: its start is the kernel's */
} block;

/* When a block's reads ended and its writes began (the trace's phases). */
typedef struct phases {
    double read_end, write_start;
} phases;

/* What a block does, in cycles: wait for its dispatch (and its first
 * word), read, compute (S(B) on the pure MCM), write. */
typedef struct block_times {
    double wait, read, compute, write;
    double write_beside; /* write cycles its compute hides (block_writes_beside_compute): not in `write` */
    double latency; /* the end of `wait` that is the first word's latency */
    int dram;       /* its words come from beyond the L2 */
} block_times;

/* One scheduler: it plays the SMs of the stage. */
typedef struct scheduler {
    const char *name;
    int keeps_time;             /* 1: it keeps the time itself (S.now); 0: SimGrid's clock */
    /* Start playing (its actors) on `sms` SMs of the platform; -1 with fail(). */
    int (*start)(int sms);
    /* `blocks` blocks became ready (a kernel released); NULL: nothing to wake. */
    void (*ready)(long blocks);
    /* A kernel waits for its launch in S.launches; NULL: it launches them itself. */
    void (*launch_queued)(void);
    /* The last kernel finished, at S.finished_at. */
    void (*all_done)(void);
    /* The SMs holding a block now (the others are idle or wait for a launch). */
    double (*holding)(void);
    /* Its share of the result (each SM's busy time, its parts of T); then
     * it frees what it holds. */
    void (*finish)(int sms, sim_result *out);
} scheduler;

/* The stage of the simulation under way (engine.c sets it). */
typedef struct stage {
    const kernel_dag *dag;
    const machine *m;
    const scheduler *by;        /* who plays the SMs */
    kernel_state *ks;
    int *succ_start, *succ;     /* successors of each kernel (CSR) */
    int *ready, n_ready;        /* released kernels with blocks left to issue */
    int kernels_left;
    int *launches, n_launches, next_launch; /* launch latency: FIFO of releases */
    double *release_time;
    int slots_per_sm;           /* blocks_per_sm: 1 is the MCM, > 1 the card path */
    int n_slots;                /* SMs × slots_per_sm */
    double finished_at;         /* when the last kernel finished */
    double now;                 /* the block schedulers' time */
    int host_event;             /* a kernel was launched or finished at `now` */
    double split[SPLIT_PARTS];  /* SM-cycles per part of T (time_split.h) */
    double *busy;               /* per slot: cycles spent holding a block */
    int *resident_limit;        /* per kernel: its blocks an SM may hold */
    int *held;                  /* per SM: the blocks it holds now */
    double *held_since, *sm_busy; /* per SM: since when it holds one; cycles it held any */
    rng order;
    FILE *trace;
    volatile double *blocks_done; /* the parent's progress line reads it */
    sim_result *out;
} stage;

extern stage S;

/* ---- the kernels and their blocks (engine.c) ---------------------------- */

double stage_now(void);             /* the time: a block scheduler's, or SimGrid's */
int has_launcher(const machine *m); /* a host CPU launches kernels: a latency, or a graph's start */
void release(int k);                /* kernel k's predecessors are done */
void make_ready(int k);             /* kernel k's blocks join the ready pool */
double launch_due(int k);           /* when kernel k's launch is due */
int take_from(int slot, block *b);  /* the next block of the kernel in ready slot `slot` */
int take_ready_block(block *b);     /* any ready block (FIFO, or at random); 0 if none */
block_times block_times_on(const kernel *k, const block_cost *c, const machine *m);
block_times block_times_of(const block *b);
double block_cycles(const block_times *t); /* the cycles a block takes alone */
/* A block done on slot `slot` of SM `sm`: N, W, O, C, the trace row, its kernel's count. */
void block_done(int slot, int sm, const block *b, double start, double end, double read, double compute,
                double write, phases ph);
void trace_row(int sm, const block *b, double start, double end, phases ph);
/* `blocks` blocks of these times were done, one SM each: their SM-cycles by part. */
void charge_blocks(const block_times *t, double blocks);

/* ---- resident blocks (engine.c) ------------------------------------------ */

#include "resident.h"

/* The first ready kernel (in release order) with room on an SM that has
 * `taken` slots taken: its next block into *b; 0 if none. */
int take_block_for(int taken, block *b);
/* A resident block's phases: its wait, reads and writes as alone; its
 * compute as work cycles to share on the lanes, bounded by its span. */
resident_times resident_times_of(const block *b);
double resident_compute(const resident_times *t); /* its compute as C counts it */
void sm_hold(int sm);    /* SM sm takes a block */
void sm_release(int sm); /* ... and gives one back */

/* ---- a block scheduler's instants (engine.c) ---------------------------- */

/* The clock moves on to the next instant: the earlier of `end` and the
 * next launch.  0 when there is none: the run is over. */
int next_instant(double end);
void launch_kernels_due(void);      /* the host CPU's part of an instant */
int whole(double x);                /* a whole number below 2^53 */

/* The schedulers. */
extern const scheduler waves_scheduler, sharing_scheduler;

#endif
