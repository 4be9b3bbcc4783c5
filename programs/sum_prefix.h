/*
 * sum_prefix.h — pieces shared by the models of the three DMM/UMM case
 * studies (sum/, prefix-naive/, prefix-optimal/): reading n and ℓ, their Z
 * constraint, and the block count of a halving sweep, simulated and in
 * closed form.
 *
 * No MCM paper treats these algorithms (the thesis has no Appendix B
 * worksheet for them), so their per-block costs and closed forms are ours,
 * derived from the kernels; see each program file.
 */
#ifndef MCM_SUM_PREFIX_H
#define MCM_SUM_PREFIX_H

#include "fail.h"
#include "program.h"

#include <math.h>

/* Read n (numbers) and l (ℓ, threads per block): whole, n >= 2, ℓ >= 1. */
static inline int sum_prefix_params(const char *program, const vars *params, double *n, double *l)
{
    *n = *vars_get(params, "n");
    *l = *vars_get(params, "l");
    if (*n < 2 || *n != floor(*n) || *l < 1 || *l != floor(*l))
        return fail("program '%s': needs whole n >= 2 and l >= 1 (got n = %g, l = %g)",
                    program, *n, *l);
    return 0;
}

/* The chapter's n = 2^m: the two-stage scan needs it; the closed forms of
 * all three programs are exact only then. */
static inline int is_power_of_two(double x)
{
    return x >= 1 && x == floor(x) && exp2(floor(log2(x))) == x;
}

/* Z constraint: a thread keeps the α + β words it moves in private memory,
 * so a block of ℓ threads needs (α + β)·ℓ <= Z words. */
static inline int sum_prefix_z_check(const char *program, double words_per_thread, double l,
                                     const machine *m)
{
    if (words_per_thread * l <= m->z)
        return 0;
    return fail("program '%s': constraint %gℓ <= Z does not hold (ℓ = %g: %g > Z = %g)", program,
                words_per_thread, l, words_per_thread * l, m->z);
}

/* N of a halving sweep: Σ_{t=0}^{m-1} ⌈2^t/ℓ⌉ blocks for n = 2^m, in
 * closed form.  Kernels with 2^t >= ℓ threads give 2^t/ℓ blocks, summing to
 * n/ℓ − 1; the log ℓ kernels below ℓ threads give one block each.  So
 * n/ℓ − 1 + log ℓ when n >= ℓ, and log n (one block per kernel) when
 * n < ℓ.  Exact for n and ℓ powers of two. */
static inline double halving_blocks(double n, double l)
{
    return n >= l ? n / l - 1 + log2(l) : log2(n);
}

/* The widest kernel of a halving sweep: its first, n/2 threads. */
static inline double halving_width(double n, double l)
{
    return fmax(n / (2 * l), 1);
}

#endif
