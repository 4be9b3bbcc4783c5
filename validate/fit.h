/*
 * fit.h — calibrating the model's time unit against a card's seconds.
 *
 * The model counts cycles; a card measures seconds.  For each measured
 * point i we have its time t_i (seconds), the kernels on its critical path
 * L_i, its rounds of blocks R_i = Σ over kernels ⌈blocks/P⌉ (the blocks one
 * SM takes in turn on the critical path), and its simulated time as a
 * function of U, T_i(U) = α_i + β_i·U
 * (the simulator is run at two values of U; for chains of kernels with
 * equal blocks this line is exact, and the harness checks it at the fitted
 * U by a real simulation).  The fit minimises the squared relative error
 *
 *     Σ_i ((c·T_i(U) + d·L_i + e·R_i − t_i) / t_i)²
 *
 * over c > 0 (seconds per cycle), d >= 0 (seconds per kernel launch, so
 * launch_latency = d/c cycles), e >= 0 (seconds per block an SM takes, so
 * block_dispatch = e/c cycles) and U in [u_lo, u_hi]: linear least squares
 * (GSL) for c, d, e at each U, a search in log U around it.  `terms` says
 * which of d and e may be non-zero; a term fitted negative is dropped.
 */
#ifndef MCM_FIT_H
#define MCM_FIT_H

typedef struct fit_point {
    double seconds;     /* t_i, measured */
    double alpha, beta; /* T_i(U) = alpha + beta·U cycles */
    double launches;    /* L_i, kernels on the critical path */
    double rounds;      /* R_i, rounds of blocks on the critical path */
} fit_point;

enum { FIT_LAUNCH = 1, FIT_DISPATCH = 2 };

typedef struct fit_result {
    double u;                 /* cycles per word */
    double seconds_per_cycle; /* c */
    double launch_seconds;    /* d */
    double dispatch_seconds;  /* e */
    double cost;              /* Σ squared relative errors at the optimum */
} fit_result;

/* c (and d, e as `terms` allows) at a fixed U.  Returns -1 (with fail())
 * when the points cannot determine them. */
int fit_at_u(const fit_point *pts, int n, double u, int terms, fit_result *out);

/* The same and U in [u_lo, u_hi]. */
int fit_calibrate(const fit_point *pts, int n, double u_lo, double u_hi, int terms, fit_result *out);

/* Relative error (model − measured)/measured of point p under a fit. */
double fit_relative_error(const fit_point *p, const fit_result *f);

#endif
