/*
 * caches.c — the report's table of the caches of exec mode (sim/exec/cache.h):
 * for each case whose blocks ran through them (a kernel written once, in
 * exec mode, on a machine with l1_words > 0) and with points to score, its
 * errors with the caches and without them (the working-set rule), the same
 * points and the same machine otherwise but, in a set of the code's costs,
 * the kernel boundary, each machine's own (card.h,
 * card_code_machine_without_caches); for the sets of the paper's costs and
 * for those of the code's costs (a set named "-code").  And the same
 * point by point (caches-points.csv): which way each point moves, by how
 * much, against the card.
 */
#include "validate.h"
#include "fail.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The constants the caches need (validate/card.c, CACHES). */
#define CACHES_ROWS "`l1_bytes`, `l1_line_read_per_sm_cycle`, `l1_load_latency`, `gmem_partial_write_card`"

/* A point's relative error simulated at ms. */
static double error_at(const vpoint *p, double ms) { return ms / measured_ms(p->row) - 1; }

/* The largest |relative error| of case `program` in `split`, simulated
 * at sim (sim_ms or sim_ms_off of each point). */
static double worst(const validation *v, const char *program, int split, int off)
{
    double most = NAN;
    for (int i = 0; i < v->n; i++) {
        const vpoint *p = &v->pts[i];
        if (strcmp(p->row->program, program) != 0 || (split >= 0 && p->train != split))
            continue;
        double e = fabs(error_at(p, off ? p->sim_ms_off : p->sim_ms));
        most = isnan(most) || e > most ? e : most;
    }
    return most;
}

int write_caches_points(const validation *v)
{
    int cached = 0;
    for (int i = 0; i < v->n && !cached; i++)
        cached = v->pts[i].cached;
    char path[1200];
    snprintf(path, sizeof path, "%s/caches-points.csv", v->report_dir);
    if (!machine_caches(&v->card) || !cached)
        return remove(path) == 0 || errno == ENOENT ? 0 : fail("%s: cannot remove an earlier run's file", path);
    FILE *f = fopen(path, "w");
    if (!f)
        return fail("%s: cannot write", path);
    fprintf(f, "case,params,split,measured_ms,with_ms,without_ms,rel_error_with,rel_error_without\n");
    for (int i = 0; i < v->n; i++) {
        const vpoint *p = &v->pts[i];
        if (p->cached)
            fprintf(f, "%s,%s,%s,%.6g,%.6g,%.6g,%.4f,%.4f\n", p->row->program, p->row->params,
                    p->train ? "train" : "test", measured_ms(p->row), p->sim_ms, p->sim_ms_off,
                    error_at(p, p->sim_ms), error_at(p, p->sim_ms_off));
    }
    return fclose(f) == 0 ? 0 : fail("%s: write error", path);
}

/* A code set's terms with the caches and without (after the table's
 * first sentence): the compute the same, the kernel boundary each
 * machine's own (card.h, card_code_machine_without_caches). */
static void write_code_terms(FILE *f, const validation *v)
{
    if (!strstr(v->name, "-code"))
        return;
    fprintf(f, "; each kernel's compute charged by its compiled instructions (the code's costs), the same with "
               "the caches and without; a graph's kernel boundary each machine's own, the touch chains less what "
               "it charges their blocks (graph_launch_latency %.1f cycles and graph_launch_per_sm %.3f with the "
               "caches, %.1f and %.3f without)",
            v->card.graph_launch_latency, v->card.graph_launch_per_sm, v->card_off.graph_launch_latency,
            v->card_off.graph_launch_per_sm);
}

int write_caches_table(FILE *f, const validation *v)
{
    fprintf(f, "### The caches of exec mode, with and without (set %s)\n\n", v->name);
    if (!machine_caches(&v->card)) {
        fprintf(f, "The caches of exec mode (sim/exec/cache.h) are off on `%s`: its reference session lacks "
                   "some of their constants (" CACHES_ROWS ", cuda_ref/constants.cu).  Every case is "
                   "simulated without them (the working-set rule) until a session measures them.\n\n",
                v->card.name);
        return 0;
    }
    validation off = *v; /* the same points, simulated without the caches */
    off.pts = malloc(sizeof *off.pts * (size_t)(v->n + 1));
    if (!off.pts)
        return -1;
    for (int i = 0; i < v->n; i++) {
        off.pts[i] = v->pts[i];
        off.pts[i].sim_ms = v->pts[i].sim_ms_off;
    }
    const char *names[64];
    int k = validation_cases(v, names, 64), split = validation_split(v), rows = 0;
    for (int i = 0; i < k; i++) {
        int cached = 0;
        for (int j = 0; j < v->n && !cached; j++)
            cached = v->pts[j].cached && strcmp(v->pts[j].row->program, names[i]) == 0;
        error_stats on = validation_errors(v, names[i], split);
        if (!cached || on.n == 0)
            continue;
        if (rows++ == 0) {
            fprintf(f, "The kernels written once run in exec mode through the caches (sim/exec/cache.h), each "
                       "sector charged at the level that served it; without them, every word at U or, "
                       "beyond the L2, DRAM's rate (the working-set rule)");
            write_code_terms(f, v);
            fprintf(f, ".  Errors %s; each point, with and without, in `%s/caches-points.csv`.\n\n"
                       "| case | points | median, with | median, without | 90th percentile, with | "
                       "90th percentile, without | worst, with | worst, without |\n"
                       "|---|---|---|---|---|---|---|---|\n",
                    split == 0 ? "over the held-out half" : "over every point", v->name);
        }
        error_stats without = validation_errors(&off, names[i], split);
        fprintf(f, "| %s | %d | %.1f%% | %.1f%% | %.1f%% | %.1f%% | %.1f%% | %.1f%% |\n", names[i], on.n,
                100 * on.median, 100 * without.median, 100 * on.p90, 100 * without.p90,
                100 * worst(v, names[i], split, 0), 100 * worst(v, names[i], split, 1));
    }
    if (rows == 0)
        fprintf(f, "No case of this set ran through the caches (only kernels written once run in exec mode).\n");
    fprintf(f, "\n");
    free(off.pts);
    return 0;
}
