/*
 * engine.h — run an MCM program on an MCM machine, on SimGrid.
 *
 *   sim_result r;
 *   if (sim_run(dag, &machine, NULL, &r) < 0) puts(fail_message());
 *   printf("T = %g cycles, Theorem 1 bound %g\n", r.T, r.bound_theorem1);
 *   sim_result_free(&r);
 *
 * Each simulation runs in a child process of its own (SimGrid keeps global
 * state that cannot be reset), so a caller may run as many as it likes.
 * Times are in cycles.
 */
#ifndef MCM_ENGINE_H
#define MCM_ENGINE_H

#include "kernel_dag.h"
#include "machine.h"
#include "time_split.h"

typedef struct kernel_times {
    double start, end; /* first block's start, last block's end */
} kernel_times;

typedef struct sim_result {
    double T;                 /* simulated running time */
    dag_costs costs;          /* W, O, N, C as executed; S, L, K from the DAG */
    double bound_theorem1;    /* (N/P + L)·C */
    double bound_corollary1;  /* (N/K + L)·C */
    double launch_term;       /* L·(the widest grid's launch latency) + the graph's start, added to the checked bound */
    double utilization;       /* busy SM-cycles / (P·T) */
    int n_kernels;
    kernel_times *kernels;    /* per kernel, in DAG order */
    int p;
    double *sm_busy;          /* cycles each SM held a block */
    double peak_rss_kib;      /* peak memory of the simulation process */
    double wave_blocks;       /* blocks simulated in waves, not one by one (engine.c) */
    double time_split[SPLIT_PARTS]; /* T's parts, in cycles; they sum to T (time_split.h) */
} sim_result;

/* Simulate.  `trace_path` (may be NULL) receives one CSV row per block:
 * kernel,block,sm,start,end.  Returns -1 with a message on bad input or if,
 * under the `parallel` policy, T exceeds the Theorem 1 bound (a bug). */
int sim_run(const kernel_dag *dag, const machine *m, const char *trace_path, sim_result *out);

void sim_result_free(sim_result *r);

/* 1 when the printed Theorem 1 figure, (N/P + L)·C plus the launches
 * (launch_term), bounds T: under `parallel` on the pure MCM, no card term
 * and no block dispatch.  Elsewhere it is the pure-MCM reference: T may
 * exceed it (`exclusive`, `shared`), and with the card's terms run.c
 * checks a wider bound. */
int theorem1_is_bound(const machine *m);
/* Why not, in a few words ("the `exclusive` policy", "the card's terms",
 * ...); NULL where it is a bound. */
const char *theorem1_why_not(const machine *m);

/* The same in two halves, so that a caller may run several at once (a
 * sweep on every core) and watch them: sim_start checks the program and
 * forks the child that simulates it; sim_poll waits up to `timeout_ms`
 * (−1: for ever) and says whether the child has answered (1) or not yet
 * (0); sim_blocks_done reads how far the child is; sim_finish takes the
 * result (and reaps the child) and returns what sim_run would.  A started
 * job is ended by sim_finish, or by sim_abandon (kills the child, frees
 * the result).  `dag`, `m` and `out` must outlive the job. */
typedef struct sim_job {
    const kernel_dag *dag;
    const machine *m;
    sim_result *out;
    dag_costs analysed;              /* S, L, K and the N to expect */
    int pid, fd;                     /* the child, and its pipe */
    volatile double *blocks_done;    /* shared with the child */
} sim_job;

int sim_start(const kernel_dag *dag, const machine *m, const char *trace_path, sim_result *out, sim_job *job);
int sim_poll(const sim_job *job, int timeout_ms);
double sim_blocks_done(const sim_job *job);
int sim_finish(sim_job *job);
void sim_abandon(sim_job *job);

/* Inside the child process: run the SimGrid simulation proper (engine.c)
 * with `sms` <= P streaming multiprocessors (see run.c for why fewer may
 * do), on the platform file `platform_path`, which it removes once read.
 * Fills T, executed W/O/N/C, kernel times, SM busy times; keeps
 * *blocks_done (may be NULL) at the number of blocks finished. */
/* About how many of the DAG's blocks the engine simulates one by one, the
 * rest in waves (engine.c): what a run's time goes with.  Before a run. */
double engine_steps(const kernel_dag *dag, const machine *m);

int engine_simulate(const kernel_dag *dag, const machine *m, int sms, const char *platform_path,
                    const char *trace_path, volatile double *blocks_done, sim_result *out);

/* Who plays the SMs (stage.h): the block scheduler (waves.c) under
 * `parallel` with one block per SM, the block scheduler where blocks share
 * (sharing.c) otherwise; or, for a machine with sharing_by_simgrid, the
 * tests' reference (tests/simgrid_reference.c), which installs itself
 * here when linked. */
struct scheduler;
void engine_use_reference(const struct scheduler *reference);

#endif
