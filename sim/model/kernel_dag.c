/*
 * kernel_dag.c — building a kernel DAG, checking it, and its static costs.
 *
 * Invariant kept here: after kernel_dag_check() succeeds, every kernel has
 * at least one block and one thread, non-negative costs, fits in Z, and the
 * `after` relation has no cycle.  The engine relies on it and checks nothing.
 */
#include "kernel_dag.h"
#include "fail.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void *xrealloc(void *p, size_t size)
{
    void *q = realloc(p, size ? size : 1);
    if (!q) {
        fprintf(stderr, "mcmsim: out of memory\n");
        exit(70);
    }
    return q;
}

static char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    return memcpy(xrealloc(NULL, n), s, n);
}

kernel_dag *kernel_dag_new(const char *name)
{
    kernel_dag *dag = xrealloc(NULL, sizeof *dag);
    memset(dag, 0, sizeof *dag);
    dag->name = xstrdup(name);
    return dag;
}

void kernel_dag_free(kernel_dag *dag)
{
    if (!dag)
        return;
    for (int i = 0; i < dag->n; i++) {
        free(dag->kernels[i].name);
        free(dag->kernels[i].after);
        free(dag->kernels[i].runs);
    }
    free(dag->kernels);
    free(dag->name);
    free(dag);
}

const char *const op_class_names[OP_CLASSES] = {"plain", "mulmod", "addmod", "private", "barriers"};

/* One side (span or work) of the class rule in kernel_dag.h: the plain
 * count, when not given, is what the other classes leave of `total`. */
static void class_remainder(double *ops, double total)
{
    double others = 0;
    for (int c = OP_PLAIN + 1; c < OP_CLASSES; c++)
        others += ops[c];
    if (ops[OP_PLAIN] < 0)
        ops[OP_PLAIN] = total - others;
}

void cost_class_defaults(block_cost *c, int threads)
{
    if (!c->classes)
        return;
    for (int i = 0; i < OP_CLASSES; i++) {
        if (c->span_ops[i] < 0 && i != OP_PLAIN)
            c->span_ops[i] = 0;
        if (c->work_ops[i] < 0 && i != OP_PLAIN)
            c->work_ops[i] = threads * c->span_ops[i];
    }
    class_remainder(c->span_ops, c->span);
    class_remainder(c->work_ops, c->work);
}

void cost_set_classes(block_cost *c, int threads, double plain, double mulmod, double addmod,
                      double private_ops, double barriers)
{
    const double ops[OP_CLASSES] = {plain, mulmod, addmod, private_ops, barriers};
    c->classes = 1;
    for (int i = 0; i < OP_CLASSES; i++) {
        c->span_ops[i] = ops[i];
        c->work_ops[i] = threads * ops[i];
    }
}

void kernel_defaults(kernel *k)
{
    const block_cost *c = &k->cost;
    if (k->cost.work < 0)
        k->cost.work = k->threads * c->span;
    cost_class_defaults(&k->cost, k->threads);
    if (k->private_words < 0) {
        double words = c->reads + c->writes + c->uncoalesced_reads + c->uncoalesced_writes;
        k->private_words = fmax(1.0, words) * k->threads;
    }
}

static int check_cost(const kernel_dag *dag, const kernel *k, const block_cost *c)
{
    if (c->span < 0 || c->work < 0 || c->reads < 0 || c->writes < 0 ||
        c->uncoalesced_reads < 0 || c->uncoalesced_writes < 0)
        return fail("program '%s', kernel '%s': span, work and words moved must be >= 0",
                    dag->name, k->name);
    if (!(c->bank_conflicts >= 0))
        return fail("program '%s', kernel '%s': bank_conflicts = %g must be >= 0 (extra rounds of "
                    "the private banks)", dag->name, k->name, c->bank_conflicts);
    if (c->work + 1e-9 * c->work < c->span)
        return fail("program '%s', kernel '%s': work W(B) = %g is less than span S(B) = %g",
                    dag->name, k->name, c->work, c->span);
    if (!c->classes)
        return 0;
    for (int i = 0; i < OP_CLASSES; i++)
        if (c->span_ops[i] < 0 || c->work_ops[i] < 0)
            return fail("program '%s', kernel '%s': its operation classes (span_%s = %g, work_%s = %g) "
                        "must be >= 0; the plain count, when not given, is what the other classes "
                        "leave of S(B) = %g and W(B) = %g (rule: the classes are a breakdown of S(B) "
                        "and W(B))", dag->name, k->name, op_class_names[i], c->span_ops[i],
                        op_class_names[i], c->work_ops[i], c->span, c->work);
    return 0;
}

static int check_kernel(const kernel_dag *dag, const kernel *k)
{
    const char *n = k->name;
    if (k->blocks < 1)
        return fail("program '%s', kernel '%s': %ld blocks, but a grid needs at least 1",
                    dag->name, n, k->blocks);
    if (k->threads < 1)
        return fail("program '%s', kernel '%s': %d threads per block, but ℓ >= 1",
                    dag->name, n, k->threads);
    if (!k->runs)
        return check_cost(dag, k, &k->cost);
    for (long r = 0; r < k->n_runs; r++)
        if (check_cost(dag, k, &k->runs[r].cost) < 0)
            return -1;
    return 0;
}

void kernel_append_costs(kernel *k, long first, const block_cost *c)
{
    if (k->n_runs > 0 && memcmp(&k->runs[k->n_runs - 1].cost, c, sizeof *c) == 0)
        return; /* the last run reaches to here: runs end where the next begins */
    if ((k->n_runs & (k->n_runs - 1)) == 0) /* 0, 1, 2, 4, ...: full */
        k->runs = xrealloc(k->runs, sizeof *k->runs * (size_t)(k->n_runs ? 2 * k->n_runs : 1));
    k->runs[k->n_runs].first = first;
    memcpy(&k->runs[k->n_runs].cost, c, sizeof *c);
    k->n_runs++;
}

int kernel_dag_check_count(const char *program, double kernels)
{
    if (kernels <= KERNELS_MAX)
        return 0;
    return fail("program '%s' has %.0f kernels, but mcmsim takes at most %d: it keeps a record of "
                "every kernel in memory (about %d bytes each, blocks are not stored), and the limit "
                "keeps a program under %.0f MB; lower the parameters that set the number of kernels",
                program, kernels, KERNELS_MAX, KERNEL_BYTES, (double)KERNELS_MAX * KERNEL_BYTES / 1e6);
}

int kernel_dag_add(kernel_dag *dag, const kernel *k)
{
    if (dag->n >= KERNELS_MAX)
        return kernel_dag_check_count(dag->name, (double)dag->n + 1);
    kernel copy = *k;
    kernel_defaults(&copy);
    if (check_kernel(dag, &copy) < 0)
        return -1;
    if (dag->n == dag->cap) {
        dag->cap = dag->cap ? 2 * dag->cap : 16;
        dag->kernels = xrealloc(dag->kernels, (size_t)dag->cap * sizeof *dag->kernels);
    }
    copy.name = xstrdup(k->name);
    copy.after = NULL;
    copy.n_after = 0;
    dag->kernels[dag->n] = copy;
    return dag->n++;
}

int kernel_dag_after(kernel_dag *dag, int k, int before)
{
    kernel *K = &dag->kernels[k];
    for (int i = 0; i < K->n_after; i++)
        if (K->after[i] == before)
            return 0;
    K->after = xrealloc(K->after, (size_t)(K->n_after + 1) * sizeof *K->after);
    K->after[K->n_after++] = before;
    return 0;
}

int kernel_dag_chain(kernel_dag *dag, const kernel *k)
{
    int previous = dag->n - 1;
    int i = kernel_dag_add(dag, k);
    if (i > 0)
        kernel_dag_after(dag, i, previous);
    return i;
}

double cost_read_cycles(const block_cost *c, int threads, double u)
{
    return u * (c->reads + threads * c->uncoalesced_reads);
}

double cost_write_cycles(const block_cost *c, int threads, double u)
{
    return u * (c->writes + threads * c->uncoalesced_writes);
}

double block_read_cycles(const kernel *k, double u)
{
    return cost_read_cycles(&k->cost, k->threads, u);
}

double block_write_cycles(const kernel *k, double u)
{
    return cost_write_cycles(&k->cost, k->threads, u);
}

double block_overhead(const kernel *k, double u)
{
    return block_read_cycles(k, u) + block_write_cycles(k, u);
}

/* Kahn's algorithm over the `after` edges.  Returns the number of kernels
 * ordered; fewer than n means a cycle. */
static int topological_order(const kernel_dag *dag, int *order)
{
    int n = dag->n;
    int *missing = calloc((size_t)n + 1, sizeof *missing);
    int *succ_start = calloc((size_t)n + 1, sizeof *succ_start);
    int edges = 0;
    for (int v = 0; v < n; v++) {
        missing[v] = dag->kernels[v].n_after;
        edges += missing[v];
        for (int j = 0; j < dag->kernels[v].n_after; j++)
            succ_start[dag->kernels[v].after[j] + 1]++;
    }
    for (int v = 0; v < n; v++)
        succ_start[v + 1] += succ_start[v];
    int *succ = malloc(((size_t)edges + 1) * sizeof *succ);
    int *fill = calloc((size_t)n + 1, sizeof *fill);
    for (int v = 0; v < n; v++)
        for (int j = 0; j < dag->kernels[v].n_after; j++) {
            int u = dag->kernels[v].after[j];
            succ[succ_start[u] + fill[u]++] = v;
        }
    int head = 0, tail = 0;
    for (int v = 0; v < n; v++)
        if (missing[v] == 0)
            order[tail++] = v;
    while (head < tail) {
        int u = order[head++];
        for (int e = succ_start[u]; e < succ_start[u + 1]; e++)
            if (--missing[succ[e]] == 0)
                order[tail++] = succ[e];
    }
    free(missing);
    free(succ_start);
    free(succ);
    free(fill);
    return tail;
}

int kernel_dag_check(const kernel_dag *dag, const machine *m, int *order)
{
    for (int i = 0; i < dag->n; i++) {
        const kernel *k = &dag->kernels[i];
        if (check_kernel(dag, k) < 0)
            return -1;
        if (k->private_words > m->z)
            return fail("program '%s', kernel '%s': a block needs %g words of private memory "
                        "(ℓ = %d threads), but Z = %g on machine '%s' (rule: a thread-block "
                        "must fit in the private memory of one SM, words <= Z)",
                        dag->name, k->name, k->private_words, k->threads, m->z, m->name);
        for (int j = 0; j < k->n_after; j++)
            if (k->after[j] < 0 || k->after[j] >= dag->n)
                return fail("program '%s', kernel '%s': depends on a kernel that does not exist",
                            dag->name, k->name);
    }
    int *tmp = order ? order : malloc(((size_t)dag->n + 1) * sizeof *tmp);
    int ordered = topological_order(dag, tmp);
    if (ordered < dag->n) {
        /* a kernel left unordered lies on a cycle or after one; name one on it */
        char *seen = calloc((size_t)dag->n, 1);
        for (int i = 0; i < ordered; i++)
            seen[tmp[i]] = 1;
        int v = 0;
        while (seen[v])
            v++;
        /* walk predecessors among unordered kernels until one repeats */
        char *visited = calloc((size_t)dag->n, 1);
        while (!visited[v]) {
            visited[v] = 1;
            const kernel *k = &dag->kernels[v];
            for (int j = 0; j < k->n_after; j++)
                if (!seen[k->after[j]]) {
                    v = k->after[j];
                    break;
                }
        }
        fail("program '%s': the kernels' `after` lists form a cycle through kernel '%s' "
             "(rule: a program is a DAG of kernels)", dag->name, dag->kernels[v].name);
        free(seen);
        free(visited);
        if (!order)
            free(tmp);
        return -1;
    }
    if (!order)
        free(tmp);
    return 0;
}

void kernel_dag_costs(const kernel_dag *dag, double u, dag_costs *out)
{
    int n = dag->n;
    int *order = malloc(((size_t)n + 1) * sizeof *order);
    double *span_to = calloc((size_t)n + 1, sizeof *span_to); /* heaviest S path ending at v */
    int *kernels_to = calloc((size_t)n + 1, sizeof *kernels_to);
    memset(out, 0, sizeof *out);
    topological_order(dag, order); /* checked DAG: orders every kernel */
    for (int i = 0; i < n; i++) {
        int v = order[i];
        const kernel *k = &dag->kernels[v];
        double best_span = 0;
        int best_len = 0;
        for (int j = 0; j < k->n_after; j++) {
            best_span = fmax(best_span, span_to[k->after[j]]);
            if (kernels_to[k->after[j]] > best_len)
                best_len = kernels_to[k->after[j]];
        }
        double span_k = 0; /* S(K): the largest S(B) of the kernel */
        for (long r = 0; r < (k->runs ? k->n_runs : 1); r++) {
            const block_cost *c = k->runs ? &k->runs[r].cost : &k->cost;
            double o = cost_read_cycles(c, k->threads, u) + cost_write_cycles(c, k->threads, u);
            /* per block, as the engine sums them, in the runs; all at once otherwise */
            double copies = k->runs ? 1 : (double)k->blocks;
            for (long b = 0, blocks = k->runs ? kernel_run_blocks(k, r) : 1; b < blocks; b++) {
                out->W += copies * c->work;
                out->O += copies * o;
            }
            span_k = fmax(span_k, c->span);
            out->C = fmax(out->C, c->span + o);
        }
        span_to[v] = best_span + span_k;
        kernels_to[v] = best_len + 1;
        out->S = fmax(out->S, span_to[v]);
        if (kernels_to[v] > out->L_kernels)
            out->L_kernels = kernels_to[v];
        out->N += (double)k->blocks;
    }
    out->L_edges = out->L_kernels > 0 ? out->L_kernels - 1 : 0;
    out->K = kernel_dag_width(dag, order);
    free(order);
    free(span_to);
    free(kernels_to);
}
