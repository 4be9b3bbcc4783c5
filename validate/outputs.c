/*
 * outputs.c — a validation set's points.csv, its plots and its section of
 * validate/report/REPORT.md.
 */
#include "validate.h"
#include "fail.h"
#include "plot.h"

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *plural(long n, const char *one, const char *many) { return n == 1 ? one : many; }

double measured_ms(const measured_row *r)
{
    return r->new_protocol ? r->graph.median : r->wall.median;
}

static double rel_error(const vpoint *p)
{
    return (p->sim_ms - measured_ms(p->row)) / measured_ms(p->row);
}

int validation_split(const validation *v)
{
    return v->held_out_only ? 0 : -1;
}

error_stats validation_errors(const validation *v, const char *program, int split)
{
    error_stats s = {0, NAN, NAN, NAN};
    double *abs_err = malloc(sizeof(double) * (size_t)v->n + 1);
    double *meas = malloc(sizeof(double) * (size_t)v->n + 1), *sim = malloc(sizeof(double) * (size_t)v->n + 1);
    for (int i = 0; i < v->n; i++) {
        const vpoint *p = &v->pts[i];
        if ((program && strcmp(p->row->program, program) != 0) || (split >= 0 && p->train != split))
            continue;
        abs_err[s.n] = fabs(rel_error(p));
        meas[s.n] = measured_ms(p->row);
        sim[s.n] = p->sim_ms;
        s.n++;
    }
    if (s.n > 0) {
        gsl_sort(abs_err, 1, (size_t)s.n);
        s.median = gsl_stats_median_from_sorted_data(abs_err, 1, (size_t)s.n);
        s.p90 = gsl_stats_quantile_from_sorted_data(abs_err, 1, (size_t)s.n, 0.9);
    }
    if (s.n > 2) {
        double *work = malloc(sizeof(double) * 2 * (size_t)s.n);
        s.spearman = gsl_stats_spearman(meas, 1, sim, 1, (size_t)s.n, work);
        free(work);
    }
    free(abs_err);
    free(meas);
    free(sim);
    return s;
}

int write_points(const validation *v)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/points.csv", v->report_dir);
    FILE *f = fopen(path, "w");
    if (!f)
        return fail("%s: cannot write", path);
    fprintf(f, "case,params,session,split,measured_ms,simulated_ms,rel_error\n");
    for (int i = 0; i < v->n; i++) {
        const vpoint *p = &v->pts[i];
        char from[64];
        measured_row_session(p->row, from, sizeof from);
        fprintf(f, "%s,%s,%s,%s,%.6g,%.6g,%.4f\n", p->row->program, p->row->params, from,
                p->train ? "train" : "test", measured_ms(p->row), p->sim_ms, rel_error(p));
    }
    return fclose(f) == 0 ? 0 : fail("%s: write error", path);
}

int validation_cases(const validation *v, const char **names, int max)
{
    int k = 0;
    for (int i = 0; i < v->n && k < max; i++) {
        int seen = 0;
        for (int j = 0; j < k; j++)
            seen |= strcmp(names[j], v->pts[i].row->program) == 0;
        if (!seen)
            names[k++] = v->pts[i].row->program;
    }
    return k;
}

/* A point's size: its param `along`. */
static double point_size(const validation *v, int i, const char *along)
{
    const double *x = vars_get(&v->pts[i].row->values, along);
    return x ? *x : (double)i;
}

int validation_series_points(const validation *v, const char *program, const char *along, const char *series,
                             int *idx, int cap)
{
    int k = 0;
    for (int i = 0; i < v->n && k < cap; i++) {
        char s[128];
        measured_series_along(v->pts[i].row, along, s, sizeof s);
        if (strcmp(v->pts[i].row->program, program) != 0 || strcmp(s, series) != 0)
            continue;
        int at = k++; /* insertion: by size, equal sizes in file order */
        while (at > 0 && point_size(v, idx[at - 1], along) > point_size(v, i, along)) {
            idx[at] = idx[at - 1];
            at--;
        }
        idx[at] = i;
    }
    return k;
}

/* Tics at the case's sizes (at most 12; else gnuplot's own): a log axis
 * labels only whole decades, often one or none.  A size too close to the
 * last one labelled (under 8 % of the axis' decades) gets its tic without
 * a label, so that labels never overlap.  Powers of two read as 2^k where
 * the sizes reach 2^10. */
static void size_tics(FILE *g, const validation *v, const char *program, const char *along)
{
    double size[12];
    int n = 0;
    for (int i = 0; i < v->n; i++) {
        if (strcmp(v->pts[i].row->program, program) != 0)
            continue;
        double x = point_size(v, i, along);
        int at = 0;
        while (at < n && size[at] < x)
            at++;
        if (at < n && size[at] == x)
            continue;
        if (n == 12)
            return;
        memmove(&size[at + 1], &size[at], sizeof *size * (size_t)(n - at)); /* kept in order */
        size[at] = x;
        n++;
    }
    if (n == 0)
        return;
    /* labels from the least size up, each far enough from the one before;
     * the greatest size always has one, taking the place of a label too
     * close below it */
    double gap = 0.08 * log10(size[n - 1] / size[0]), labelled = 0;
    int has_label[12] = {0}, last = -1;
    for (int j = 0; j < n; j++)
        if (j == 0 || log10(size[j] / labelled) >= gap) {
            has_label[j] = 1;
            labelled = size[j];
            last = j;
        }
    if (last != n - 1) {
        if (last > 0 && log10(size[n - 1] / size[last]) < gap)
            has_label[last] = 0;
        has_label[n - 1] = 1;
    }
    fprintf(g, "set xtics (");
    for (int j = 0; j < n; j++) {
        char label[32] = "";
        int e = (int)round(log2(size[j]));
        if (!has_label[j])
            ; /* a tic, no label */
        else if (size[n - 1] >= 1024 && ldexp(1, e) == size[j])
            snprintf(label, sizeof label, "2^{%d}", e);
        else
            snprintf(label, sizeof label, "%g", size[j]);
        fprintf(g, "%s\"%s\" %.17g", j ? ", " : "", label, size[j]);
    }
    fprintf(g, ")\n");
}

/* Time tics at round multiples of the powers of ten, when the case's
 * times span under three decades (a log axis would label one or two):
 * 1, 1.5, 2, 3, 5 and 7 for one decade, 1, 2 and 5 for two, 1 and 3
 * beyond.  The axis runs from the tic below the least time to the tic
 * above the greatest, so that every point has a labelled tic beyond it. */
static void time_tics(FILE *g, const validation *v, const char *program)
{
    double low = INFINITY, high = 0;
    for (int i = 0; i < v->n; i++)
        if (strcmp(v->pts[i].row->program, program) == 0) {
            double t[2] = {measured_ms(v->pts[i].row), v->pts[i].sim_ms};
            for (int j = 0; j < 2; j++)
                if (t[j] > 0) {
                    low = fmin(low, t[j]);
                    high = fmax(high, t[j]);
                }
        }
    if (!(high > 0) || high / low >= 1000)
        return;
    static const struct {
        double decades; /* the span it serves, at most */
        int n;
        double at[6];   /* tics within each power of ten */
    } by_span[] = {{1.2, 6, {1, 1.5, 2, 3, 5, 7}}, {2.2, 3, {1, 2, 5}}, {INFINITY, 2, {1, 3}}};
    int k = 0;
    while (log10(high / low) >= by_span[k].decades)
        k++;
    double bottom = 0, top = INFINITY; /* the tics just beyond the times, with a margin */
    fprintf(g, "set ytics (");
    const char *sep = "";
    for (int e = (int)floor(log10(low)) - 1; e <= (int)ceil(log10(high)) + 1; e++)
        for (int j = 0; j < by_span[k].n; j++) {
            double y = by_span[k].at[j] * pow(10, e);
            if (y <= low / 1.05)
                bottom = y;
            else if (y >= high * 1.05 && top == INFINITY)
                top = y;
            else if (y > high * 1.05)
                continue;
            fprintf(g, "%s\"%g\" %.17g", sep, y, y);
            sep = ", ";
        }
    fprintf(g, ")\nset yrange [%.17g:%.17g]\n", bottom, top);
}

static int plot_case(const validation *v, const char *program)
{
    char data[1300], script[1300];
    snprintf(data, sizeof data, "%s/.%s.dat", v->report_dir, program);
    snprintf(script, sizeof script, "%s/.%s.gp", v->report_dir, program);
    FILE *d = fopen(data, "w");
    if (!d)
        return fail("%s: cannot write", data);
    /* one gnuplot data block per series */
    char series[64][128], from[64] = "";
    const char *along = NULL; /* the case's size: n, else what varies (measured.h) */
    int n_series = 0;
    for (int i = 0; i < v->n; i++) {
        const vpoint *p = &v->pts[i];
        if (strcmp(p->row->program, program) != 0)
            continue;
        measured_row_session(p->row, from, sizeof from); /* a case's points share one */
        if (!along)
            along = measured_size_key(p->row, v->s->rows, v->s->n);
        char s[128];
        measured_series_along(p->row, along, s, sizeof s);
        int k = 0;
        while (k < n_series && strcmp(series[k], s) != 0)
            k++;
        if (k == n_series && n_series < 64)
            snprintf(series[n_series++], 128, "%s", s);
    }
    int *idx = malloc(sizeof *idx * ((size_t)v->n + 1));
    for (int k = 0; idx && k < n_series; k++) {
        int m = validation_series_points(v, program, along, series[k], idx, v->n);
        for (int j = 0; j < m; j++) {
            const vpoint *p = &v->pts[idx[j]];
            fprintf(d, "%.17g %.6g %.6g\n", point_size(v, idx[j], along), measured_ms(p->row), p->sim_ms);
        }
        fprintf(d, "\n\n");
    }
    free(idx);
    fclose(d);
    FILE *g = fopen(script, "w");
    if (!g)
        return fail("%s: cannot write", script);
    /* the picture once; then drawn as a PNG and again (replot) as an SVG.  The title on two lines, centred
     * over the graph, which the key outside pushes left: on one it ran to the picture's left edge; the key's
     * entries a character wider, off the right edge. */
    fprintf(g, "set title \"%s, set %s: %s %s\\nmeasured (dots), simulated (rings and lines)\" font ',14'\n", program,
            v->name, v->s->card, from);
    fprintf(g, "set logscale xy\nset xlabel '%s'\nset ylabel 'time (ms)'\nset grid\n"
               "set key outside right top vertical Left reverse samplen 2 width 1 title 'series'\n"
               "set autoscale fix\nset offsets graph 0.03, graph 0.03, graph 0.08, graph 0.08\n",
            along ? along : "n"); /* the offsets: no point on a border */
    size_tics(g, v, program, along);
    time_tics(g, v, program);
    fprintf(g, "set terminal pngcairo size 900,600 font ',12'\nset output '%s/%s.png'\nplot ", v->report_dir,
            program);
    for (int k = 0; k < n_series; k++) { /* a key entry per series: its colour, dot, ring and line (a ring:
                                           * a series of one point simulated shows); the series told apart by
                                           * colour and shape (plot.h) */
        const char *colour = plot_series_colour(k);
        char label[200];
        plot_ell(label, sizeof label, series[k]);
        fprintf(g, "%s'%s' index %d using 1:2 with points pt %d ps 1.2 lc rgb '%s' notitle, "
                   "'%s' index %d using 1:3 with linespoints pt %d ps 1.6 lw 2 lc rgb '%s' notitle, "
                   "NaN with linespoints pt %d lw 2 lc rgb '%s' title '%s' noenhanced",
                k ? ", " : "", data, k, plot_series_point(k), colour, data, k, plot_series_ring(k), colour,
                plot_series_point(k), colour, label);
    }
    fprintf(g, "\nset terminal svg size 900,600\nset output '%s/%s.svg'\nreplot\n", v->report_dir, program);
    fclose(g);
    char cmd[2800];
    snprintf(cmd, sizeof cmd, "gnuplot '%s' 2>/dev/null", script); /* quiet: 1-point series warn */
    int rc = system(cmd);
    remove(data);
    remove(script);
    return rc == 0 ? 0 : fail("gnuplot failed on %s", script);
}

int write_plots(const validation *v)
{
    const char *names[64];
    int k = validation_cases(v, names, 64);
    for (int i = 0; i < k; i++)
        if (plot_case(v, names[i]) < 0)
            return -1;
    return 0;
}

static void errors_row(FILE *f, const char *label, const error_stats *s)
{
    fprintf(f, "| %s | %d | %.1f%% | %.1f%% | ", label, s->n, 100 * s->median, 100 * s->p90);
    if (isnan(s->spearman))
        fprintf(f, "n/a (under 3 points) |"); /* validation_errors() ranks 3 or more */
    else
        fprintf(f, "%.3f |", s->spearman);
}

int write_set_report(FILE *f, const validation *v, set_verdicts *verdicts)
{
    const char *names[64];
    int k = validation_cases(v, names, 64), split = validation_split(v);
    fprintf(f, "## Set %s: %s\n\n", v->name, v->title);
    fprintf(f, "%d %s simulated on `%s` (graph device times; %s).\n\n", v->n, plural(v->n, "point", "points"),
            v->card.name, split == 0 ? "errors over the held-out half" : "errors over every point");
    fprintf(f, "Sessions %s: %s.\n\n", v->s->name,
            v->s->one_graph == 1   ? "graphs timed one alive at a time (cuda_ref/README.md, the protocol)"
            : v->s->one_graph == 0 ? "graphs timed with every graph of a series alive (the protocol before "
                                     "H100 session `2026-11-25e`: programs of many short kernels measured slower)"
                                   : "sessions of both graph protocols (cuda_ref/README.md, the protocol)");
    if (v->s->older[0])
        fprintf(f, "Not scored on this set: %s, which this card's sessions of the current protocol never "
                   "measured; its only sessions kept every graph of a series alive, which made programs of "
                   "many short kernels 13 to 16 %% slower on the H100 (the protocol's effect, not the card's).\n\n",
                v->s->older);
    if (v->s->disturbed[0])
        fprintf(f, "Passed over as disturbed (a point whose graph times' quartiles lie more than %.0f %% of "
                   "its median apart; the case's next session is taken): %s.\n\n",
                100 * DISTURBED_SPREAD, v->s->disturbed);
    fprintf(f, "| case | points | median abs. rel. error | 90th percentile | Spearman |\n|---|---|---|---|---|\n");
    for (int i = 0; i < k; i++) {
        error_stats s = validation_errors(v, names[i], split);
        errors_row(f, names[i], &s);
        fprintf(f, "\n");
    }
    error_stats all = validation_errors(v, NULL, split);
    errors_row(f, "**all**", &all);
    fprintf(f, "\n\n### The papers' conclusions, card against simulator (set %s)\n\n", v->name);
    if (write_conclusions(f, v, verdicts) < 0)
        return -1;
    if (v->n_refused > 0) {
        fprintf(f, "### Measured points the model cannot run\n\n");
        for (int i = 0; i < v->n_refused; i++)
            fprintf(f, "- `%s %s`: %s\n", v->refused[i]->program, v->refused[i]->params, v->refused_why[i]);
        fprintf(f, "\n");
    }
    fprintf(f, "### Plots (set %s)\n\n", v->name);
    for (int i = 0; i < k; i++)
        fprintf(f, "![%s, set %s](%s/%s.png)\n\n", names[i], v->name, v->name, names[i]);
    return 0;
}

/* ---- the report's headline ----------------------------------------------------- */

int write_scatter(const validation *sets, int n_sets, const char *dir, const char *stem, const char *what)
{
    char data[1300], script[1300];
    snprintf(data, sizeof data, "%s/.%s.dat", dir, stem);
    snprintf(script, sizeof script, "%s/.%s.gp", dir, stem);
    FILE *d = fopen(data, "w");
    if (!d)
        return fail("%s: cannot write", data);
    double lo = INFINITY, hi = 0;
    int points = 0;
    for (int i = 0; i < n_sets; i++) { /* one data block per set: the points it scores */
        int split = validation_split(&sets[i]);
        for (int j = 0; j < sets[i].n; j++) {
            const vpoint *p = &sets[i].pts[j];
            if (split >= 0 && p->train != split)
                continue;
            double m = measured_ms(p->row);
            fprintf(d, "%.6g %.6g\n", m, p->sim_ms);
            lo = fmin(lo, fmin(m, p->sim_ms));
            hi = fmax(hi, fmax(m, p->sim_ms));
            points++;
        }
        fprintf(d, "\n\n");
    }
    fclose(d);
    if (points == 0) {
        remove(data);
        return fail("write_scatter: no point to draw in %s", stem);
    }
    lo /= 1.6, hi *= 1.6;
    FILE *g = fopen(script, "w");
    if (!g) {
        remove(data);
        return fail("%s: cannot write", script);
    }
    fprintf(g, "set title \"%s\\nsimulated against measured, %d %s\" font ',15'\n"
               "set logscale xy\nset xrange [%g:%g]\nset yrange [%g:%g]\nset size ratio -1\nset grid\n"
               "set format x '%%g'\nset format y '%%g'\nset xlabel 'measured on the card (ms)'\n"
               "set ylabel 'simulated (ms)'\nset samples 200\n"
               "set key outside right top vertical Left reverse font ',12'\n"
               "set terminal pngcairo size 1100,800 font ',13'\nset output '%s/%s.png'\nplot "
               "'+' using 1:(0.75*$1):(1.25*$1) with filledcurves fc rgb '#d9e6f5' fs solid title 'within ±25 %%', "
               "'+' using 1:(0.9*$1):(1.1*$1) with filledcurves fc rgb '#7fa7da' fs solid title 'within ±10 %%', "
               "x with lines lw 2 lc rgb 'black' title 'simulated = measured'",
            what, points, plural(points, "point", "points"), lo, hi, lo, hi, dir, stem);
    /* the last set first, so that set a, held out, is drawn on top */
    static const char *const colour[] = {"#1f3f7a", "#d55e00", "#228833", "#882255", "#7570b3"}; /* dark on white */
    static const char *const mark[] = {"pt 7 ps 1.2", "pt 4 ps 1.0", "pt 8 ps 1.1", "pt 6 ps 1", "pt 10 ps 1"};
    for (int i = n_sets - 1; i >= 0; i--)
        fprintf(g, ", '%s' index %d using 1:2 with points %s lw 1.5 lc rgb '%s' title 'set %s (%s)'", data, i,
                mark[i % 5], colour[i % 5], sets[i].name, sets[i].s->card);
    fprintf(g, "\nset terminal svg size 1100,800\nset output '%s/%s.svg'\nreplot\n", dir, stem);
    fclose(g);
    char cmd[2800];
    snprintf(cmd, sizeof cmd, "gnuplot '%s' 2>/dev/null", script);
    int rc = system(cmd);
    remove(data);
    remove(script);
    return rc == 0 ? 0 : fail("gnuplot failed on %s", script);
}

int write_report(FILE *f, const validation *sets, const set_verdicts *verdicts, int n_sets, const char *missing_path,
                 const char *machines, const char *sets_md, const char *noise_md, int *unnamed)
{
    fprintf(f, "# mcmsim against the H100 and the H200\n\n"
               "Generated by `make validate` from `validate/data/` (do not edit; the analysis\n"
               "is in [validate/notes/card-model.md](../notes/card-model.md)).  The headline first: the targets\n"
               "case by case, every point simulated against measured, the papers' conclusions, what the misses\n"
               "lack; then how the cards' machines are made, each set, and the noise floor.\n\n");
    const char *scatter = "\n![the paper's costs: every point the sets score, simulated against measured, with "
                          "the ±10 % and ±25 % bands](scatter.png)\n";
    if (write_targets(f, sets, verdicts, n_sets, missing_path, scatter, unnamed) < 0)
        return -1;
    fprintf(f, "## The cards' machines\n\n%s", machines);
    fputs(sets_md, f);
    fprintf(f, "## The noise floor\n\n%s", noise_md);
    return 0;
}
