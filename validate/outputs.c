/*
 * outputs.c — points.csv, the plots and REPORT.md of a validation.
 */
#include "validate.h"
#include "fail.h"

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double rel_error(const vpoint *p, int pol)
{
    return (p->sim_ms[pol] - p->row->median_ms) / p->row->median_ms;
}

error_stats validation_errors(const validation *v, const char *program, int split, int pol)
{
    error_stats s = {0, NAN, NAN, NAN};
    double *abs_err = malloc(sizeof(double) * (size_t)v->n + 1);
    double *meas = malloc(sizeof(double) * (size_t)v->n + 1), *sim = malloc(sizeof(double) * (size_t)v->n + 1);
    for (int i = 0; i < v->n; i++) {
        const vpoint *p = &v->pts[i];
        if ((program && strcmp(p->row->program, program) != 0) || (split >= 0 && p->train != split))
            continue;
        abs_err[s.n] = fabs(rel_error(p, pol));
        meas[s.n] = p->row->median_ms;
        sim[s.n] = p->sim_ms[pol];
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
    fprintf(f, "case,params,split,policy,measured_ms,simulated_ms,rel_error\n");
    for (int i = 0; i < v->n; i++)
        for (int pol = 0; pol < v->n_policies; pol++) {
            const vpoint *p = &v->pts[i];
            fprintf(f, "%s,%s,%s,%s,%.6g,%.6g,%.4f\n", p->row->program, p->row->params,
                    p->train ? "train" : "test", memory_policy_name(v->policies[pol]), p->row->median_ms,
                    p->sim_ms[pol], rel_error(p, pol));
        }
    return fclose(f) == 0 ? 0 : fail("%s: write error", path);
}

/* The policy with the least median error on held-out points. */
static int best_policy(const validation *v)
{
    int best = 0;
    for (int pol = 1; pol < v->n_policies; pol++)
        if (validation_errors(v, NULL, 0, pol).median < validation_errors(v, NULL, 0, best).median)
            best = pol;
    return best;
}

/* The distinct case studies, in order of first appearance. */
static int case_names(const validation *v, const char **names, int max)
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

static int plot_case(const validation *v, const char *program, int pol)
{
    char data[1300], script[1300];
    snprintf(data, sizeof data, "%s/.%s.dat", v->report_dir, program);
    snprintf(script, sizeof script, "%s/.%s.gp", v->report_dir, program);
    FILE *d = fopen(data, "w");
    if (!d)
        return fail("%s: cannot write", data);
    /* one gnuplot data block per series */
    char series[64][128];
    int n_series = 0;
    for (int i = 0; i < v->n; i++) {
        const vpoint *p = &v->pts[i];
        if (strcmp(p->row->program, program) != 0)
            continue;
        char s[128];
        measured_series(p->row, s, sizeof s);
        int k = 0;
        while (k < n_series && strcmp(series[k], s) != 0)
            k++;
        if (k == n_series && n_series < 64)
            snprintf(series[n_series++], 128, "%s", s);
    }
    for (int k = 0; k < n_series; k++) {
        for (int i = 0; i < v->n; i++) {
            const vpoint *p = &v->pts[i];
            char s[128];
            measured_series(p->row, s, sizeof s);
            const double *n = vars_get(&p->row->values, "n");
            if (strcmp(p->row->program, program) == 0 && strcmp(s, series[k]) == 0)
                fprintf(d, "%.17g %.6g %.6g\n", n ? *n : (double)i, p->row->median_ms, p->sim_ms[pol]);
        }
        fprintf(d, "\n\n");
    }
    fclose(d);
    FILE *g = fopen(script, "w");
    if (!g)
        return fail("%s: cannot write", script);
    for (int t = 0; t < 2; t++) {
        fprintf(g, t == 0 ? "set terminal pngcairo size 900,600 font ',10'\nset output '%s/%s.png'\n"
                          : "set terminal svg size 900,600\nset output '%s/%s.svg'\n",
                v->report_dir, program);
        fprintf(g, "set title \"%s on %s: measured (points) and simulated, policy %s (lines)\"\n", program,
                v->card_name, memory_policy_name(v->policies[pol]));
        fprintf(g, "set logscale xy\nset xlabel 'n'\nset ylabel 'time (ms)'\nset key left top\nset grid\n");
        fprintf(g, "plot ");
        for (int k = 0; k < n_series; k++)
            fprintf(g, "%s'%s' index %d using 1:2 with points pt 7 lc %d title 'measured %s', "
                       "'%s' index %d using 1:3 with lines lw 2 lc %d title 'simulated %s'",
                    k ? ", " : "", data, k, k + 1, series[k], data, k, k + 1, series[k]);
        fprintf(g, "\n");
    }
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
    int k = case_names(v, names, 64), pol = best_policy(v);
    for (int i = 0; i < k; i++)
        if (plot_case(v, names[i], pol) < 0)
            return -1;
    return 0;
}

static void errors_row(FILE *f, const char *label, const error_stats *s)
{
    fprintf(f, "| %s | %d | %.1f%% | %.1f%% | %.3f |", label, s->n, 100 * s->median, 100 * s->p90, s->spearman);
}

int write_report(const validation *v)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/REPORT.md", v->report_dir);
    FILE *f = fopen(path, "w");
    if (!f)
        return fail("%s: cannot write", path);
    const char *names[64];
    int k = case_names(v, names, 64), best = best_policy(v);
    fprintf(f, "# mcmsim against the %s\n\n", v->card_name);
    fprintf(f, "Generated by `make validate CARD=%s` from `validate/data/%s/` (do not edit; the\n"
               "analysis is in `validate/notes/%s.md`). %d measured points; each\n"
               "series (a case study at fixed params other than its size) alternates train and\n"
               "test by increasing size (every other n; m for plain division, s for radix sort).\n\n",
            v->card_name, v->card_name, v->card_name, v->n);
    fprintf(f, "## Fitted constants (least squares on the training half)\n\n");
    fprintf(f, "| policy | U (cycles/word) | seconds per cycle | launch latency | block dispatch | fit cost |\n"
               "|---|---|---|---|---|---|\n");
    for (int pol = 0; pol < v->n_policies; pol++)
        fprintf(f, "| %s | %.4g | %.4g (%.4g GHz) | %.4g µs (%.4g cycles) | %.4g ns (%.4g cycles) | %.4g |\n",
                memory_policy_name(v->policies[pol]), v->fit[pol].u, v->fit[pol].seconds_per_cycle,
                1e-9 / v->fit[pol].seconds_per_cycle, 1e6 * v->fit[pol].launch_seconds,
                v->fitted[pol].launch_latency, 1e9 * v->fit[pol].dispatch_seconds,
                v->fitted[pol].block_dispatch, v->fit[pol].cost);
    fprintf(f, "\nBest policy on held-out points: **%s**. The `shared` channel's bandwidth is the\n"
               "measured whole-card global-memory throughput, %.3g times P SMs' worth.\n\n",
            memory_policy_name(v->policies[best]), v->shared_ratio);
    fprintf(f, "## Errors on held-out points\n\n");
    for (int pol = 0; pol < v->n_policies; pol++) {
        fprintf(f, "### policy %s\n\n| case | points | median abs. rel. error | 90th percentile | Spearman |\n"
                   "|---|---|---|---|---|\n", memory_policy_name(v->policies[pol]));
        for (int i = 0; i < k; i++) {
            error_stats s = validation_errors(v, names[i], 0, pol);
            errors_row(f, names[i], &s);
            fprintf(f, "\n");
        }
        error_stats all = validation_errors(v, NULL, 0, pol);
        errors_row(f, "**all**", &all);
        fprintf(f, "\n\n");
    }
    fprintf(f, "## The papers' conclusions, card against simulator (policy %s)\n\n",
            memory_policy_name(v->policies[best]));
    if (write_conclusions(f, v, best) < 0) {
        fclose(f);
        return -1;
    }
    if (v->n_refused > 0) {
        fprintf(f, "## Measured points the model cannot run\n\n");
        for (int i = 0; i < v->n_refused; i++)
            fprintf(f, "- `%s %s`: %s\n", v->refused[i]->program, v->refused[i]->params, v->refused_why[i]);
        fprintf(f, "\n");
    }
    fprintf(f, "## Plots (policy %s)\n\n", memory_policy_name(v->policies[best]));
    for (int i = 0; i < k; i++)
        fprintf(f, "![%s](%s.png)\n\n", names[i], names[i]);
    fprintf(f, "## Where the model misses, and why\n\n"
               "The analysis of these figures, with the measured evidence, is in\n"
               "[validate/notes/%s.md](../../notes/%s.md) (written by hand, not generated).\n",
            v->card_name, v->card_name);
    return fclose(f) == 0 ? 0 : fail("%s: write error", path);
}
