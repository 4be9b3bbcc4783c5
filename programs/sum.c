/*
 * sum.c — the sum of n numbers by halving, as an MCM program.
 *
 * Source: the DMM/UMM chapter (Nakano et al., dmm-umm-chapter.txt, "sum"):
 * log n rounds, round j adding the pairs (a[k], a[k + n/2^(j+1)]) of the
 * n/2^j numbers left.  As an MCM program, round j is one kernel of
 * ⌈n/(2^(j+1)·ℓ)⌉ thread-blocks of ℓ threads; each thread reads its two
 * numbers (coalesced: consecutive threads read consecutive words), makes
 * one addition and writes one word.  Per block: S(B) = 1, W(B) = ℓ,
 * α = 2, β = 1, O(B) = 3U.
 *
 * Params: n (numbers, a power of two), l (ℓ, threads per block).
 */
#include "fail.h"
#include "program.h"

#include <math.h>
#include <stdio.h>

static kernel_dag *build(const vars *params, const machine *m)
{
    (void)m;
    double n = *vars_get(params, "n"), l = *vars_get(params, "l");
    if (n < 2 || n != floor(n) || l < 1 || l != floor(l)) {
        fail("program 'sum': needs whole n >= 2 and l >= 1 (got n = %g, l = %g)", n, l);
        return NULL;
    }
    kernel_dag *dag = kernel_dag_new("sum");
    int rounds = (int)ceil(log2(n));
    for (int j = 0; j < rounds; j++) {
        char name[32];
        snprintf(name, sizeof name, "add[%d]", j);
        double pairs = ceil(n / pow(2, j + 1));
        kernel k = {
            .name = name,
            .blocks = (long)ceil(pairs / l),
            .threads = (int)l,
            .cost = {.span = 1, .work = -1, .reads = 2, .writes = 1},
            .private_words = -1,
        };
        if (kernel_dag_chain(dag, &k) < 0) {
            kernel_dag_free(dag);
            return NULL;
        }
    }
    return dag;
}

const builtin_program program_sum = {
    .name = "sum",
    .summary = "sum of n numbers by halving, log n kernels (DMM/UMM chapter)",
    .defaults = "n=1048576 l=256",
    .build = build,
};
