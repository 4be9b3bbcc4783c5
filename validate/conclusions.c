/*
 * conclusions.c — each paper conclusion, on the card and in the simulator.
 *
 * The conclusions are the `compare` groups of the run files in programs/
 * and in its case-study folders (programs/CASE/, beside a model.c).  For
 * each run file, every point of its sweep is matched with a measured row
 * (same program; every param of the row equal to the point's, except
 * params the run file leaves at 0, which the programs read as "derived",
 * e.g. m = 0 for m = n).  The matched points are compared twice, once with
 * the card's times and once with the simulated ones, and their verdicts
 * (winner, best s, linearity: sim/app/compare.h) are set side by side.
 */
#include "compare.h"
#include "fail.h"
#include "program.h"
#include "runfile.h"
#include "validate.h"

#include <stdlib.h>
#include <string.h>

static int row_matches(const measured_row *r, const char *program, const vars *params)
{
    if (strcmp(r->program, program) != 0)
        return 0;
    for (int i = 0; i < r->values.n; i++) {
        const double *mine = vars_get(params, r->values.name[i]);
        if (mine && *mine != 0 && *mine != r->values.value[i])
            return 0;
    }
    return 1;
}

static const vpoint *find_measured(const validation *v, const char *program, const vars *params)
{
    for (int j = 0; j < v->n; j++)
        if (row_matches(v->pts[j].row, program, params))
            return &v->pts[j];
    return NULL;
}

typedef struct sides {
    run_point *card, *sim;
    long n;
} sides;

static int match_points(const validation *v, const run_file *rf, sides *s)
{
    long n = runfile_points(rf);
    s->card = calloc((size_t)n, sizeof *s->card);
    s->sim = calloc((size_t)n, sizeof *s->sim);
    s->n = 0;
    for (long i = 0; i < n; i++) {
        machine m;
        vars params;
        const char *name;
        if (runfile_point(rf, i, &m, &params, &name) < 0)
            return -1;
        const vpoint *p = find_measured(v, name, &params);
        if (!p)
            continue;
        run_point *c = &s->card[s->n], *x = &s->sim[s->n];
        for (int a = 0; a < rf->n_axes; a++) {
            snprintf(c->swept[a], sizeof c->swept[a], "%s", runfile_axis_value(rf, i, a));
            snprintf(x->swept[a], sizeof x->swept[a], "%s", runfile_axis_value(rf, i, a));
        }
        c->program = x->program = name;
        c->machine = v->card;
        x->machine = v->card;
        c->result.T = measured_ms(p->row);
        x->result.T = p->sim_ms;
        s->n++;
    }
    return 0;
}

/* One run file's conclusion; its tally is added to *verdicts. */
static int one_conclusion(FILE *f, const validation *v, const char *path, set_verdicts *verdicts)
{
    run_file rf;
    int rc = runfile_load(&rf, path, NULL, 0);
    if (rc < 0 || !rf.compare) {
        runfile_close(&rf);
        return rc;
    }
    sides s;
    const char *swept[SWEEP_AXES_MAX];
    for (int a = 0; a < rf.n_axes; a++)
        swept[a] = rf.axes[a].key;
    rc = match_points(v, &rf, &s);
    if (rc == 0 && s.n > 1) {
        enum { MAX = 128 };
        char (*vc)[VERDICT_SIZE] = malloc(sizeof *vc * MAX), (*vs)[VERDICT_SIZE] = malloc(sizeof *vs * MAX);
        int nc = compare_verdicts(rf.compare, s.card, s.n, swept, rf.n_axes, vc, MAX);
        int ns = compare_verdicts(rf.compare, s.sim, s.n, swept, rf.n_axes, vs, MAX);
        if (nc < 0 || ns != nc) {
            rc = fail("%s: the card's and the simulator's comparisons do not line up", path);
        } else {
            int same = 0;
            for (int i = 0; i < nc; i++)
                same += strcmp(vc[i], vs[i]) == 0;
            fprintf(f, "#### `%s` (%ld measured points)\n\nOn the card:\n\n```\n", path, s.n);
            compare_print(f, rf.compare, s.card, s.n, swept, rf.n_axes, "measured on the card, median times in ms");
            fprintf(f, "```\n\nSimulated on `%s` (times in ms):\n\n```\n", v->card.name);
            compare_print(f, rf.compare, s.sim, s.n, swept, rf.n_axes, "simulated, in ms");
            fprintf(f, "```\n\n**Agreement: %d of %d verdicts.**", same, nc);
            if (same < nc) {
                fprintf(f, " Where they differ (card → simulator):\n\n");
                for (int i = 0; i < nc; i++)
                    if (strcmp(vc[i], vs[i]) != 0)
                        fprintf(f, "- %s → %s\n", vc[i], strrchr(vs[i], ':') + 2);
            }
            fprintf(f, "\n\n");
            if (verdicts->n < (int)(sizeof verdicts->file / sizeof verdicts->file[0])) {
                verdict_tally *t = &verdicts->file[verdicts->n++];
                snprintf(t->path, sizeof t->path, "%s", path);
                t->agree = same;
                t->total = nc;
            }
        }
        free(vc);
        free(vs);
    }
    free(s.card);
    free(s.sim);
    runfile_close(&rf);
    return rc;
}

int write_conclusions(FILE *f, const validation *v, set_verdicts *verdicts)
{
    int n_files;
    verdicts->n = 0;
    char **files = program_run_files(NULL, &n_files);
    if (n_files == 0) {
        free(files);
        return 0;
    }
    int rc = 0, agree = 0, total = 0;
    for (int i = 0; i < n_files && rc == 0; i++)
        rc = one_conclusion(f, v, files[i], verdicts);
    program_run_files_free(files, n_files);
    for (int i = 0; i < verdicts->n; i++) {
        agree += verdicts->file[i].agree;
        total += verdicts->file[i].total;
    }
    if (rc == 0)
        fprintf(f, "Over all conclusions: the card and the simulator agree on **%d of %d** verdicts.\n\n",
                agree, total);
    return rc;
}
