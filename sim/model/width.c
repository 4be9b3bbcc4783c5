/*
 * width.c — K, the largest anti-chain of the thread-block DAG (SPEC §1).
 *
 * Blocks of one kernel are pairwise independent, and a block of kernel u
 * precedes one of kernel v exactly when u precedes v in the kernel DAG.  So
 * K is the heaviest set of pairwise unordered kernels, each weighing its
 * number of blocks.  By Dilworth's theorem (weighted form) that equals the
 * least number of chains, repeats allowed, that pass w(v) times through
 * every kernel v: a minimum flow.  We start from the trivial flow of w(v)
 * separate chains per kernel (total Σw) and subtract the largest amount of
 * chain-joining possible: a maximum flow from "ends of chains" (out_v) to
 * "starts of chains" (in_v) along the DAG's edges, computed by Dinic's
 * algorithm with an iterative search (no recursion: chains of kernels can
 * be tens of thousands long).  K = Σw − maxflow.
 *
 * Fast path: when the topological order is itself a path of edges, every
 * two kernels are ordered and K is simply the largest grid.
 */
#include "kernel_dag.h"

#include <stdint.h>
#include <stdlib.h>

typedef struct arc { int to, next; int64_t cap; } arc;

typedef struct network {
    arc *arcs;
    int n_arcs, n_nodes;
    int *head, *level, *current, *queue, *stack;
} network;

#define INF_CAP ((int64_t)1 << 60)

static void add_arc(network *g, int from, int to, int64_t cap)
{
    g->arcs[g->n_arcs] = (arc){to, g->head[from], cap};
    g->head[from] = g->n_arcs++;
    g->arcs[g->n_arcs] = (arc){from, g->head[to], 0};
    g->head[to] = g->n_arcs++;
}

static int bfs_levels(network *g, int source, int sink)
{
    for (int v = 0; v < g->n_nodes; v++)
        g->level[v] = -1;
    int qh = 0, qt = 0;
    g->queue[qt++] = source;
    g->level[source] = 0;
    while (qh < qt) {
        int v = g->queue[qh++];
        for (int a = g->head[v]; a >= 0; a = g->arcs[a].next)
            if (g->arcs[a].cap > 0 && g->level[g->arcs[a].to] < 0) {
                g->level[g->arcs[a].to] = g->level[v] + 1;
                g->queue[qt++] = g->arcs[a].to;
            }
    }
    return g->level[sink] >= 0;
}

/* One augmenting path in the level graph, found without recursion; returns
 * the flow pushed (0 when the level graph is exhausted). */
static int64_t augment(network *g, int source, int sink)
{
    int depth = 0, v = source;
    while (1) {
        if (v == sink) {
            int64_t push = INF_CAP;
            for (int i = 0; i < depth; i++)
                if (g->arcs[g->stack[i]].cap < push)
                    push = g->arcs[g->stack[i]].cap;
            for (int i = 0; i < depth; i++) {
                g->arcs[g->stack[i]].cap -= push;
                g->arcs[g->stack[i] ^ 1].cap += push;
            }
            return push;
        }
        int a = g->current[v];
        while (a >= 0 && !(g->arcs[a].cap > 0 && g->level[g->arcs[a].to] == g->level[v] + 1))
            a = g->arcs[a].next;
        g->current[v] = a;
        if (a >= 0) {
            g->stack[depth++] = a;
            v = g->arcs[a].to;
        } else {
            g->level[v] = -1; /* dead end */
            if (depth == 0)
                return 0;
            int back = g->stack[--depth];
            v = g->arcs[back ^ 1].to;
            g->current[v] = g->arcs[g->current[v]].next;
        }
    }
}

static int is_total_order(const kernel_dag *dag, const int *order)
{
    for (int i = 1; i < dag->n; i++) {
        const kernel *k = &dag->kernels[order[i]];
        int linked = 0;
        for (int j = 0; j < k->n_after && !linked; j++)
            linked = k->after[j] == order[i - 1];
        if (!linked)
            return 0;
    }
    return 1;
}

double kernel_dag_width(const kernel_dag *dag, const int *order)
{
    int n = dag->n;
    int64_t total = 0, widest = 0;
    for (int v = 0; v < n; v++) {
        total += dag->kernels[v].blocks;
        if (dag->kernels[v].blocks > widest)
            widest = dag->kernels[v].blocks;
    }
    if (n == 0 || is_total_order(dag, order))
        return (double)widest;

    int edges = 0;
    for (int v = 0; v < n; v++)
        edges += dag->kernels[v].n_after;
    network g = {0};
    g.n_nodes = 2 * n + 2; /* 0 = chain ends (source), 1 = chain starts (sink) */
    g.arcs = malloc(sizeof(arc) * 2 * ((size_t)edges + 3 * (size_t)n));
    g.head = malloc(sizeof(int) * (size_t)g.n_nodes);
    g.level = malloc(sizeof(int) * (size_t)g.n_nodes);
    g.current = malloc(sizeof(int) * (size_t)g.n_nodes);
    g.queue = malloc(sizeof(int) * (size_t)g.n_nodes);
    g.stack = malloc(sizeof(int) * (size_t)g.n_nodes);
    for (int v = 0; v < g.n_nodes; v++)
        g.head[v] = -1;
    for (int v = 0; v < n; v++) {
        int out_v = 2 + 2 * v, in_v = 3 + 2 * v;
        int64_t w = dag->kernels[v].blocks;
        add_arc(&g, 0, out_v, w);        /* a chain may end at v ...        */
        add_arc(&g, in_v, 1, w);         /* ... and one may start at v      */
        add_arc(&g, in_v, out_v, INF_CAP); /* a joined chain may pass through v */
        for (int j = 0; j < dag->kernels[v].n_after; j++)
            add_arc(&g, 2 + 2 * dag->kernels[v].after[j], in_v, INF_CAP);
    }
    int64_t joined = 0;
    while (bfs_levels(&g, 0, 1)) {
        for (int v = 0; v < g.n_nodes; v++)
            g.current[v] = g.head[v];
        int64_t f;
        while ((f = augment(&g, 0, 1)) > 0)
            joined += f;
    }
    free(g.arcs);
    free(g.head);
    free(g.level);
    free(g.current);
    free(g.queue);
    free(g.stack);
    return (double)(total - joined);
}
