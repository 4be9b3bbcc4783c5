/*
 * plot_sweep.c — pictures of a sweep (`mcmsim plot --kind sweep|costs|
 * speedup`).
 *
 * sweep: T against the x key (the compare group's `along`, else the last
 * swept key), one line per value of the other swept keys (a group, its
 * colour and marker: plot.h), with
 * the Theorem 1 figure (a bound, or the pure-MCM reference: engine.h) and
 * the paper's closed-form T beside each line; on a DMM or a UMM the
 * chapter's formula instead.  The compare claim and its verdict are the
 * subtitle.
 * costs: where the time goes.  Per sweep point a bar of height T, split
 * into its parts (time_split.h) on one time axis, the bars grouped as the
 * sweep's lines are; above each bar, inside the frame, T, the kernels L and
 * the largest part's share (over 12 bars, on each group's tallest alone);
 * the key in one row under the frame.
 * speedup: T(1)/T(P) against P (the sweep must hold P = 1), with the work
 * law (P), the span law (T(1)/S) and T(1) over the Theorem 1 figure, and
 * the largest P's speedup in figures.
 */
#include "plot.h"
#include "fail.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define GROUPS_MAX 16

/* ---- the points, in groups ------------------------------------------------ */

static int x_axis(const char *const *swept, int n_swept, const char *prefer)
{
    for (int a = 0; a < n_swept; a++)
        if (prefer && strcasecmp(swept[a], prefer) == 0)
            return a;
    return n_swept - 1;
}

/* The label of a point's group: the values of the swept keys but x
 * ("s = 1"; a program by its name alone). */
static void group_label(const run_point *pt, const char *const *swept, int n_swept, int x, char *out, size_t n)
{
    out[0] = '\0';
    for (int a = 0; a < n_swept; a++)
        if (a != x) {
            size_t len = strlen(out);
            if (strcmp(swept[a], "program") == 0)
                snprintf(out + len, n - len, "%s%s", len ? ", " : "", pt->swept[a]);
            else
                snprintf(out + len, n - len, "%s%s = %s", len ? ", " : "", swept[a], pt->swept[a]);
        }
}

typedef struct groups {
    int n;
    char label[GROUPS_MAX][128];
    int *of;    /* each point's group */
} groups;

/* The points' groups, in the order they first appear; -1 with fail() when
 * there are too many to draw. */
static int groups_of(const run_point *pts, long n, const char *const *swept, int n_swept, int x, groups *g)
{
    g->n = 0;
    g->of = calloc((size_t)n + 1, sizeof *g->of);
    if (!g->of)
        return fail("out of memory for %ld points", n);
    for (long i = 0; i < n; i++) {
        char lab[128];
        group_label(&pts[i], swept, n_swept, x, lab, sizeof lab);
        int k = 0;
        while (k < g->n && strcmp(g->label[k], lab) != 0)
            k++;
        if (k == g->n) {
            if (g->n == GROUPS_MAX) {
                free(g->of);
                return fail("the sweep has more than %d lines to draw; pin a key with --set", GROUPS_MAX);
            }
            plot_quote(g->label[g->n++], 128, lab);
        }
        g->of[i] = k;
    }
    return 0;
}

static int numeric_axis(const run_point *pts, long n, int x)
{
    for (long i = 0; i < n; i++) {
        char *end;
        strtod(pts[i].swept[x], &end);
        if (*end || end == pts[i].swept[x])
            return 0;
    }
    return 1;
}

static const char *time_unit(const run_point *pt)
{
    return pt->machine.kind == KIND_MCM ? "cycles" : "time units";
}

/* Every point on one machine (a sweep over `machine` has several, each
 * with its clock). */
static int one_machine(const run_point *pts, long n)
{
    for (long i = 1; i < n; i++)
        if (strcmp(pts[i].machine.name, pts[0].machine.name) != 0 || pts[i].machine.clock_hz != pts[0].machine.clock_hz)
            return 0;
    return 1;
}

/* The title's first line: what is drawn, of which programs, on what. */
static void title_line(FILE *o, const char *what, const run_point *pts, long n)
{
    char progs[512], mach[256], q[600];
    plot_program_names(pts, n, progs, sizeof progs);
    plot_quote(q, sizeof q, progs);
    plot_quote(mach, sizeof mach, one_machine(pts, n) ? pts[0].machine.name : "each machine swept");
    fprintf(o, "set title \"%s %s on %s", what, q, mach);
}

/* The subtitle (the claim and its verdict), wrapped at a space after 80
 * characters; ends the title. */
static void title_end(FILE *o, const char *subtitle)
{
    char q[1024], ell[1024];
    plot_quote(ell, sizeof ell, subtitle ? subtitle : "");
    plot_ell(q, sizeof q, ell);
    fputs(q[0] ? "\\n" : "", o);
    int col = 0;
    for (const char *c = q; *c; c++) {
        int wrap = *c == '\n' || (*c == ' ' && col > 80);
        fputs(wrap ? "\\n" : (char[]){*c, 0}, o);
        col = wrap ? 0 : col + ((*c & 0xc0) != 0x80);
    }
    fprintf(o, "\" font 'sans,16' noenhanced\n");
}

/* ---- sweep: T against x ----------------------------------------------- */

/* The reference line's value at a point: the Theorem 1 figure (MCM), the
 * chapter's formula (DMM/UMM), or NaN. */
static double reference(const run_point *pt)
{
    if (pt->machine.kind == KIND_MCM)
        return pt->result.bound_theorem1 + pt->result.launch_term;
    return pt->dmm.bound.name[0] ? pt->dmm.bound.value : NAN;
}

static const char *reference_name(const run_point *pts, long n)
{
    if (pts[0].machine.kind == KIND_MCM)
        return plot_theorem1_name(pts, n);
    return pts[0].dmm.bound.name[0] ? "the chapter's formula" : NULL;
}

static int plot_lines(plot_session *s, const run_point *pts, long n, const char *const *swept, int n_swept,
                      int x, const char *subtitle)
{
    groups g;
    if (groups_of(pts, n, swept, n_swept, x, &g) < 0)
        return -1;
    int numeric = numeric_axis(pts, n, x), paper = 0;
    double *xs = malloc(sizeof *xs * ((size_t)n + 1)), tmin = INFINITY, tmax = 0;
    char path[1100];
    FILE *f = plot_data(s, "sweep.dat", path, sizeof path);
    if (!f || !xs) {
        free(xs);
        free(g.of);
        if (f)
            fclose(f);
        return fail("cannot write the sweep data in %s", s->dir);
    }
    for (int k = 0; k < g.n; k++) { /* one data block per group */
        for (long i = 0; i < n; i++)
            if (g.of[i] == k) {
                double t = pts[i].result.T, ref = reference(&pts[i]);
                double p = pts[i].has_closed_form ? pts[i].paper.T : NAN;
                fprintf(f, "%s %.17g %.17g %.17g\n", numeric ? pts[i].swept[x] : "0", t, ref, p);
                paper |= pts[i].has_closed_form;
                double all[3] = {t, ref, p};
                for (int j = 0; j < 3; j++)
                    if (all[j] > 0) {
                        tmin = fmin(tmin, all[j]);
                        tmax = fmax(tmax, all[j]);
                    }
            }
        fprintf(f, "\n\n");
    }
    fclose(f);
    for (long i = 0; i < n; i++)
        xs[i] = numeric ? atof(pts[i].swept[x]) : (double)i;

    FILE *o = s->script;
    title_line(o, "T of", pts, n);
    title_end(o, subtitle);
    fprintf(o, "set xlabel '%s%s' noenhanced\n", swept[x], strcmp(swept[x], "p") == 0 ? " (SMs)" : "");
    if (numeric) {
        plot_value_axis(o, 'x', xs, n);
    } else { /* categories (dmm, umm; program names): a tic each, in sweep order */
        fprintf(o, "set xtics (");
        for (long i = 0; i < n; i++)
            fprintf(o, "%s\"%s\" %ld", i ? ", " : "", pts[i].swept[x], i);
        fprintf(o, ") noenhanced\nset xrange [-0.5:%ld.5]\n", n - 1);
    }
    double scale = 1;
    const char *unit = pts[0].machine.kind == KIND_MCM && !one_machine(pts, n) ? "cycles of each machine"
                                                                               : time_unit(&pts[0]);
    if (numeric && tmax / tmin > 100) {
        fprintf(o, "set logscale y 10\nset format y '10^{%%T}'\nset ylabel 'T (%s)'\n", unit);
    } else {
        scale = plot_time_axis(o, 'y', tmax, "T", unit);
        fprintf(o, "set yrange [0:%.17g]\n", tmax / scale * 1.1);
    }
    const char *ref = reference_name(pts, n);
    int chars = ref ? (int)strlen(ref) : 0;
    for (int k = 0; k < g.n; k++)
        chars = (int)fmax(chars, strlen(g.label[k]));
    plot_key_right(o, (int)fmax(chars, 20));
    fprintf(o, "plot ");
    for (int k = 0; k < g.n; k++) {
        const char *title = g.n == 1 ? "simulated T" : g.label[k];
        const char *colour = plot_series_colour(k);
        fprintf(o, "%s'%s' index %d using %s:($2/%.17g) with linespoints lw 3 pt %d ps 1.5 lc rgb '%s' title '%s'",
                k ? ", \\\n     " : "", path, k, numeric ? "1" : "0", scale, plot_series_point(k), colour, title);
        if (ref)
            fprintf(o, ", \\\n     '' index %d using %s:($3/%.17g) with linespoints lw 2 dt 2 pt %d ps 3 "
                       "lc rgb '%s' %s",
                    k, numeric ? "1" : "0", scale, plot_series_ring(k), colour, g.n == 1 ? "title \"" : "notitle");
        if (ref && g.n == 1)
            fprintf(o, "%s\"", ref);
        if (paper)
            fprintf(o, ", \\\n     '' index %d using %s:($4/%.17g) with lines lw 2 dt 4 lc rgb '%s' %s", k,
                    numeric ? "1" : "0", scale, colour, g.n == 1 ? "title \"paper's closed form\"" : "notitle");
    }
    if (g.n > 1) { /* the line styles, once, in black */
        fprintf(o, ", \\\n     NaN with linespoints lw 3 pt 7 ps 1.5 lc rgb 'black' title 'simulated T'");
        if (ref)
            fprintf(o, ", \\\n     NaN with linespoints lw 2 dt 2 pt 6 ps 3 lc rgb 'black' title \"%s\"", ref);
        if (paper)
            fprintf(o, ", \\\n     NaN with lines lw 2 dt 4 lc rgb 'black' title \"paper's closed form\"");
    }
    fprintf(o, "\n");
    free(xs);
    free(g.of);
    return 0;
}

/* ---- costs: where the time goes -------------------------------------------- */

static const char *const part_colour[SPLIT_PARTS] = {
    "#4477aa", /* compute */
    "#66ccee", /* memory */
    "#228833", /* dram */
    "#ccbb44", /* contention */
    "#ee6677", /* latency */
    "#aa3377", /* dispatch */
    "#882255", /* retire */
    "#ee7733", /* launch */
    "#dddddd", /* idle */
};

/* "2.96·10^{6}" (enhanced text), or the whole number below 10^4. */
static void cycles_text(double v, char *out, size_t n)
{
    if (v < 1e4) {
        snprintf(out, n, "%.0f", v);
        return;
    }
    int e = (int)floor(log10(v));
    snprintf(out, n, "%.3g·10^{%d}", v / pow(10, e), e);
}

/* A bar's tic: the x key's value, 2^k for a power of two from 2^10 up. */
static void tic_text(const char *value, char *out, size_t n)
{
    char *end;
    double v = strtod(value, &end);
    int e;
    if (!*end && end != value && v >= 1024 && frexp(v, &e) == 0.5)
        snprintf(out, n, "2^{%d}", e - 1);
    else
        plot_quote(out, n, value);
}

/* Where each point's bar stands: group after group, in sweep order
 * within a group, a gap between groups.  Returns the last position. */
static double bar_positions(const groups *g, long n, double *pos, double *centre)
{
    double at = 0;
    for (int k = 0; k < g->n; k++) {
        double first = at;
        for (long i = 0; i < n; i++)
            if (g->of[i] == k)
                pos[i] = at++;
        centre[k] = (first + at - 1) / 2;
        at += 0.6;
    }
    return at - 1.6;
}

/* Point i is the first of its group with the group's greatest T. */
static int tallest_of_group(const run_point *pts, long n, const groups *g, long i)
{
    double t = pts[i].result.T;
    for (long j = 0; j < n; j++)
        if (g->of[j] == g->of[i] && (pts[j].result.T > t || (j < i && pts[j].result.T == t)))
            return 0;
    return 1;
}

static int plot_costs(plot_session *s, const run_point *pts, long n, const char *const *swept, int n_swept,
                      const char *along)
{
    int x = n_swept > 0 ? x_axis(swept, n_swept, along) : -1;
    groups g;
    if (groups_of(pts, n, swept, n_swept, x, &g) < 0)
        return -1;
    double *pos = malloc(sizeof *pos * ((size_t)n + 1)), centre[GROUPS_MAX];
    char path[1100];
    FILE *f = pos ? plot_data(s, "costs.dat", path, sizeof path) : NULL;
    if (!f) {
        free(pos);
        free(g.of);
        return fail("cannot write the cost data in %s", s->dir);
    }
    double last = bar_positions(&g, n, pos, centre), tmax = 0;
    int used[SPLIT_PARTS] = {0};
    for (long i = 0; i < n; i++) {
        tmax = fmax(tmax, pts[i].result.T);
        for (int part = 0; part < SPLIT_PARTS; part++)
            used[part] |= pts[i].result.time_split[part] > 1e-3 * pts[i].result.T; /* seen, somewhere */
    }
    FILE *o = s->script;
    title_line(o, "Where the time goes:", pts, n);
    fprintf(o, "\\nT split by what the SMs do (an SM-cycle counts once; the parts sum to T)");
    title_end(o, NULL);
    double scale = plot_time_axis(o, 'y', tmax, "time", "cycles");
    double headroom = g.n > 1 ? 1.4 : 1.3; /* the labels above the bars, the groups' names */
    double margin = n < 4 ? 1.2 : 0.7;                       /* a lone bar is not the frame's width */
    int font = n <= 5 ? 14 : n <= 8 ? 12 : 10;                /* the labels above the bars fit their width */
    fprintf(o, "set yrange [0:%.17g]\nset xrange [%g:%g]\nset grid noxtics\n", tmax / scale * headroom, -margin,
            last + margin);
    if (x >= 0)
        fprintf(o, "set xlabel '%s' noenhanced\n", swept[x]);
    fprintf(o, "set xtics (");
    for (long i = 0; i < n; i++) {
        char tic[80];
        tic_text(x >= 0 ? pts[i].swept[x] : pts[i].program, tic, sizeof tic);
        fprintf(o, "%s\"%s\" %g", i ? ", " : "", tic, pos[i]);
    }
    fprintf(o, ")%s\n", n > 16 ? " font ',11'" : ""); /* 2^{10} in 16 points is wider than a bar's pitch */
    for (int k = 0; k < g.n && g.n > 1; k++)
        fprintf(o, "set label \"%s\" at %g, graph 0.95 center font 'sans:Bold,15' noenhanced\n", g.label[k],
                centre[k]);
    for (long i = 0; i < n; i++) { /* the bar's parts, bottom to top; above it T, L, its largest part */
        const sim_result *r = &pts[i].result;
        double below = 0;
        int top = 0;
        for (int part = 0; part < SPLIT_PARTS; part++) {
            double v = r->time_split[part];
            if (used[part])
                fprintf(f, "%d %g %.17g %.17g\n", part, pos[i], below / scale, (below + v) / scale);
            below += v;
            top = v > r->time_split[top] ? part : top;
        }
        if (n > 12 && !tallest_of_group(pts, n, &g, i))
            continue; /* too narrow for a label each: the group's tallest bar keeps its own */
        char t[64];
        cycles_text(r->T, t, sizeof t);
        fprintf(o, "set label \"T %s\\nL %d\\n%.0f %% %s\" at %g, %.17g center offset 0, 2.5 font ',%d'\n",
                t, r->costs.L_kernels, 100 * r->time_split[top] / r->T, split_keys[top], pos[i], r->T / scale, font);
    }
    fclose(f);
    /* the key in one row under the frame, not beside it: the frame keeps the picture's width, so that
     * each bar's label fits the bar's pitch */
    fprintf(o, "set key outside bottom center horizontal Left reverse samplen 2 height 1.5 font ',14'\nset rmargin 4\n"
               "set style fill solid 0.9 border rgb 'black'\nplot ");
    int first = 1;
    for (int part = 0; part < SPLIT_PARTS; part++) {
        if (!used[part])
            continue;
        fprintf(o, "%s'%s' using ($1 == %d ? $2 : NaN):(($3+$4)/2):($2-0.38):($2+0.38):3:4 with boxxyerror "
                   "lc rgb '%s' title \"%s\"",
                first ? "" : ", \\\n     ", path, part, part_colour[part], split_labels[part]);
        first = 0;
    }
    fprintf(o, "\n");
    plot_keep(s, "costs.dat");
    free(pos);
    free(g.of);
    return 0;
}

/* ---- speedup ---------------------------------------------------------------- */

static int plot_speedup(plot_session *s, const run_point *pts, long n, const char *const *swept, int n_swept)
{
    int x = x_axis(swept, n_swept, "p");
    if (n_swept == 0 || strcasecmp(swept[x], "p") != 0)
        return fail("--kind speedup: the run file must sweep p (the number of SMs)");
    double t1 = -1, pmax = 1, t_pmax = 0, span_law = INFINITY;
    for (long i = 0; i < n; i++) {
        double p = atof(pts[i].swept[x]);
        if (p >= pmax) {
            pmax = p;
            t_pmax = pts[i].result.T;
        }
        if (p == 1)
            t1 = pts[i].result.T;
    }
    if (t1 <= 0)
        return fail("--kind speedup: the sweep over p must include p = 1 (for T(1))");
    char path[1100];
    FILE *f = plot_data(s, "speedup.dat", path, sizeof path);
    if (!f)
        return fail("cannot write the speedup data in %s", s->dir);
    double *ps = malloc(sizeof *ps * ((size_t)n + 1));
    for (long i = 0; i < n && ps; i++) {
        const sim_result *r = &pts[i].result;
        double law = r->costs.S > 0 ? t1 / r->costs.S : NAN;
        span_law = fmin(span_law, law);
        ps[i] = atof(pts[i].swept[x]);
        fprintf(f, "%s %.17g %.17g %.17g\n", pts[i].swept[x], t1 / r->T, law,
                t1 / (r->bound_theorem1 + r->launch_term));
    }
    fclose(f);
    FILE *o = s->script;
    title_line(o, "Speedup T(1)/T(P) of", pts, n);
    title_end(o, NULL);
    fprintf(o, "set xlabel 'P (SMs)'\nset ylabel 'speedup T(1)/T(P)'\n");
    if (ps)
        plot_value_axis(o, 'x', ps, n);
    free(ps);
    double top = pmax * 2; /* the span law, when far above, is named, not drawn */
    fprintf(o, "set logscale y 2\nset yrange [0.8:%g]\nset ytics (", top);
    for (double v = 1; v <= top; v *= 2)
        fprintf(o, "%s\"%g\" %g", v > 1 ? ", " : "", v, v);
    fprintf(o, ")\n");
    if (span_law > top)
        fprintf(o, "set label \"span law: T(1)/S = %.0f, above the frame\" at graph 0.03, graph 0.93 "
                   "left font ',14' tc rgb '#cc3344'\n", span_law);
    /* on a log axis 115 and 128 look alike: the last point's speedup in figures */
    fprintf(o, "set label \"on P = %g: speedup %.3g, work law %g\" at graph 0.03, graph 0.86 left font ',14'\n",
            pmax, t1 / t_pmax, pmax);
    char bound[64];
    snprintf(bound, sizeof bound, "T(1) / %s", plot_theorem1_name(pts, n));
    plot_key_right(o, (int)strlen(bound));
    fprintf(o, "plot '%s' using 1:2 with linespoints lw 3 pt 7 ps 1.5 lc rgb 'black' title 'simulated', "
               "'' using 1:1 with lines lw 2 dt 2 lc rgb '#4477aa' title 'work law: P', "
               "'' using 1:3 with lines lw 2 dt 3 lc rgb '#cc3344' title 'span law: T(1)/S', "
               "'' using 1:4 with lines lw 2 dt 4 lc rgb '#228833' title '%s'\n",
            path, bound);
    return 0;
}

int plot_sweep(plot_session *s, plot_kind kind, const run_point *pts, long n, const char *const *swept, int n_swept,
               const char *subtitle, const char *along)
{
    if (kind == PLOT_COSTS)
        return plot_costs(s, pts, n, swept, n_swept, along);
    if (kind == PLOT_SPEEDUP)
        return plot_speedup(s, pts, n, swept, n_swept);
    if (n_swept == 0)
        return fail("--kind sweep: the run file has no sweep");
    return plot_lines(s, pts, n, swept, n_swept, x_axis(swept, n_swept, along), subtitle);
}
