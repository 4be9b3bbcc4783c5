/*
 * test_random_dags.c — Theorem 1 on hundreds of seeded random kernel DAGs.
 *
 * Under the `parallel` policy every greedy schedule satisfies
 *     T <= (N/P + L)·C                                  (Theorem 1)
 * and no schedule can beat two lower bounds:
 *     T >= (Σ over blocks of S(B)+O(B)) / P               (work law)
 *     T >= heaviest path of per-kernel block times        (span law)
 * We check all three, for FIFO and random block orders, on random DAGs with
 * random grids, costs and P.  (sim_run itself also refuses a T above the
 * Theorem 1 bound, so a violation shows up as a failed run too.)
 */
#include "helpers.h"
#include "rng.h"

#include <math.h>

static kernel_dag *random_dag(rng *g, int *n_out)
{
    int n = 1 + (int)rng_below(g, 12);
    kernel_dag *dag = kernel_dag_new("random");
    for (int i = 0; i < n; i++) {
        char name[16];
        snprintf(name, sizeof name, "k%d", i);
        kernel k = test_kernel(name, 1 + (long)rng_below(g, 60), 1 + (int)rng_below(g, 64),
                               (double)rng_below(g, 40), (double)rng_below(g, 4), (double)rng_below(g, 3));
        if (rng_below(g, 4) == 0)
            k.cost.uncoalesced_writes = 1;
        kernel_dag_add(dag, &k);
        for (int j = 0; j < i; j++) /* edges only forward: a DAG */
            if (rng_below(g, 3) == 0)
                kernel_dag_after(dag, i, j);
    }
    *n_out = n;
    return dag;
}

static double span_law(const kernel_dag *dag, double u)
{
    /* kernels are added so that edges go from lower to higher index */
    double *finish = calloc((size_t)dag->n, sizeof *finish), best = 0;
    for (int v = 0; v < dag->n; v++) {
        const kernel *k = &dag->kernels[v];
        double ready = 0;
        for (int j = 0; j < k->n_after; j++)
            ready = fmax(ready, finish[k->after[j]]);
        finish[v] = ready + k->cost.span + block_overhead(k, u);
        best = fmax(best, finish[v]);
    }
    free(finish);
    return best;
}

Test(random_dags, theorem1_and_lower_bounds_hold)
{
    rng g;
    rng_seed(&g, 20261122);
    int checked = 0;
    double worst = 0;
    for (int trial = 0; trial < 300; trial++) {
        int n;
        kernel_dag *dag = random_dag(&g, &n);
        machine m = test_machine(1 + (int)rng_below(&g, 16), 1 + (double)rng_below(&g, 8));
        m.order = trial % 2 ? ORDER_RANDOM : ORDER_FIFO;
        m.seed = trial;
        sim_result r = simulate(dag, &m);
        double block_time = 0;
        for (int v = 0; v < dag->n; v++)
            block_time += dag->kernels[v].blocks *
                          (dag->kernels[v].cost.span + block_overhead(&dag->kernels[v], m.u));
        cr_assert_leq(r.T, r.bound_theorem1 * (1 + 1e-12),
                      "trial %d: T = %g above (N/P + L)·C = %g", trial, r.T, r.bound_theorem1);
        cr_assert_geq(r.T * (1 + 1e-12), block_time / m.p, "trial %d: T below the work law", trial);
        cr_assert_geq(r.T * (1 + 1e-12), span_law(dag, m.u), "trial %d: T below the span law", trial);
        worst = fmax(worst, r.T / r.bound_theorem1);
        checked++;
        sim_result_free(&r);
        kernel_dag_free(dag);
    }
    cr_log_info("%d random DAGs: largest T / Theorem 1 bound = %.3f", checked, worst);
}
