/*
 * plot_sweep.c — pictures of a sweep (`mcmsim plot --kind sweep|costs|
 * speedup`).
 *
 * sweep: T against the x key (the compare group's `along`, else the last
 * swept key), one line per value of the other swept keys, with the
 * Theorem 1 bound and the paper's closed-form T dashed beside each line;
 * log axes where the range spans more than two decades.
 * costs: stacked bars of W, S, O per point, N, L, C written above each bar.
 * speedup: T(1)/T(P) against P (the sweep must hold P = 1), with the work
 * law (P), the span law (T(1)/S) and T(1)/(Theorem 1 bound).
 */
#include "plot.h"
#include "fail.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The label of a point's group: the values of the swept keys except x. */
static void group_label(const run_point *pt, const char *const *swept, int n_swept, int x, char *out, size_t n)
{
    out[0] = '\0';
    for (int a = 0; a < n_swept; a++)
        if (a != x) {
            size_t len = strlen(out);
            snprintf(out + len, n - len, "%s%s = %s", len ? ", " : "", swept[a], pt->swept[a]);
        }
}

static int x_axis(const char *const *swept, int n_swept, const char *prefer)
{
    for (int a = 0; a < n_swept; a++)
        if (prefer && strcasecmp(swept[a], prefer) == 0)
            return a;
    return n_swept - 1;
}

static double span_decades(const run_point *pts, long n, int x)
{
    double lo = INFINITY, hi = 0;
    for (long i = 0; i < n; i++) {
        double v = x >= 0 ? atof(pts[i].swept[x]) : pts[i].result.T;
        if (v > 0 && v < lo)
            lo = v;
        if (v > hi)
            hi = v;
    }
    return hi > 0 && lo < INFINITY ? log10(hi / lo) : 0;
}

/* Data blocks, one per group, in the order the groups first appear. */
static int write_groups(plot_session *s, const run_point *pts, long n, const char *const *swept, int n_swept,
                        int x, char (*labels)[128], int max_groups)
{
    char path[1100], lab[128];
    FILE *f = plot_data(s, "sweep.dat", path, sizeof path);
    if (!f)
        return fail("cannot write the sweep data in %s", s->dir);
    int g = 0;
    for (long i = 0; i < n; i++) {
        group_label(&pts[i], swept, n_swept, x, lab, sizeof lab);
        int seen = 0;
        for (int j = 0; j < g; j++)
            seen |= strcmp(labels[j], lab) == 0;
        if (seen)
            continue;
        if (g == max_groups) {
            fclose(f);
            return fail("the sweep has more than %d lines to draw; pin a key with --set", max_groups);
        }
        snprintf(labels[g++], 128, "%s", lab);
        for (long k = i; k < n; k++) {
            char lk[128];
            group_label(&pts[k], swept, n_swept, x, lk, sizeof lk);
            if (strcmp(lk, lab) == 0)
                fprintf(f, "%s %.17g %.17g %.17g\n", pts[k].swept[x], pts[k].result.T,
                        pts[k].machine.kind == KIND_MCM ? pts[k].result.bound_theorem1 + pts[k].result.launch_term
                                                        : NAN,
                        pts[k].has_closed_form ? pts[k].paper.T : NAN);
        }
        fprintf(f, "\n\n");
    }
    fclose(f);
    return g;
}

static const char *time_unit(const run_point *pt)
{
    return pt->machine.kind == KIND_MCM ? "cycles" : "time units";
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

static int plot_lines(plot_session *s, const run_point *pts, long n, const char *const *swept, int n_swept,
                      int x, const char *subtitle)
{
    char labels[16][128], prog[256], mach[256], q[512];
    int g = write_groups(s, pts, n, swept, n_swept, x, labels, 16);
    if (g < 0)
        return -1;
    FILE *o = s->script;
    int one_machine = 1; /* a sweep over `machine` has several, each with its clock */
    for (long i = 1; i < n; i++)
        one_machine &= strcmp(pts[i].machine.name, pts[0].machine.name) == 0 &&
                       pts[i].machine.clock_hz == pts[0].machine.clock_hz;
    plot_quote(prog, sizeof prog, pts[0].program);
    plot_quote(mach, sizeof mach, one_machine ? pts[0].machine.name : "each machine swept");
    plot_quote(q, sizeof q, subtitle ? subtitle : "");
    fprintf(o, "set title \"%s on %s%s", prog, mach, q[0] ? "\\n" : "");
    int col = 0; /* wrap the claim at a space after 95 characters */
    for (const char *c = q; *c; c++) {
        int wrap = *c == '\n' || (*c == ' ' && col > 75);
        fputs(wrap ? "\\n" : (char[]){*c, 0}, o);
        col = wrap ? 0 : col + ((*c & 0xc0) != 0x80);
    }
    fprintf(o, "\" font 'sans,14' noenhanced\n");
    fprintf(o, "set xlabel '%s%s'\n", swept[x], strcmp(swept[x], "p") == 0 ? " (SMs)" : "");
    if (pts[0].machine.kind == KIND_MCM && !one_machine)
        fprintf(o, "set ylabel 'T (cycles of each machine)'\n");
    else if (pts[0].machine.kind == KIND_MCM) /* cycles, and what a cycle is in seconds */
        fprintf(o, "set encoding utf8\nset ylabel 'T (cycles; 1 cycle = %.3g ns at %.3g GHz)'\n",
                1e9 / pts[0].machine.clock_hz, pts[0].machine.clock_hz / 1e9);
    else
        fprintf(o, "set ylabel 'T (%s)'\n", time_unit(&pts[0]));
    fprintf(o, "set rmargin 42\n");
    int numeric = numeric_axis(pts, n, x);
    const char *xcol = numeric ? "1" : "0";
    if (numeric && span_decades(pts, n, x) > 2)
        fprintf(o, "set logscale x 2\nset format x \"2^{%%L}\"\n");
    if (!numeric)
        fprintf(o, "set xrange [-0.5:%ld.5]\nset yrange [0:*]\n", n - 1);
    if (numeric && span_decades(pts, n, -1) > 2)
        fprintf(o, "set logscale y 10\n");
    fprintf(o, "set key outside right top vertical Left reverse samplen 3\nset format y '%%.3g'\n");
    int paper = 0;
    for (long i = 0; i < n; i++)
        paper |= pts[i].has_closed_form;
    fprintf(o, "plot ");
    for (int i = 0; i < g; i++) {
        char ql[140];
        plot_quote(ql, sizeof ql, labels[i]);
        fprintf(o, "%s'%s/sweep.dat' index %d using %s:2%s with linespoints lw 3 pt 7 ps 2 lc %d title '%s%s', \\\n"
                   "     '' index %d using %s:3 with linespoints lw 2 dt 2 pt 6 ps 3 lc %d title '%s%s', \\\n"
                   "     '' index %d using %s:4 with lines lw 2 dt 4 lc %d %s '%s%s'",
                i ? ", \\\n     " : "", s->dir, i, xcol, numeric ? "" : ":xtic(1)", i + 1, ql[0] ? ql : "simulated T", ql[0] ? "" : "",
                i, xcol, i + 1, ql[0] ? "  Theorem 1 bound (open circles)" : "Theorem 1 bound (open circles)", "",
                i, xcol, i + 1, paper ? "title" : "notitle", ql[0] ? "  paper, closed form" : "paper, closed-form T", "");
    }
    fprintf(o, "\n");
    return 0;
}

static int plot_costs(plot_session *s, const run_point *pts, long n, const char *const *swept, int n_swept)
{
    char path[1100], prog[256];
    FILE *f = plot_data(s, "costs.dat", path, sizeof path);
    if (!f)
        return fail("cannot write the cost data in %s", s->dir);
    for (long i = 0; i < n; i++) {
        char lab[200] = "";
        for (int a = 0; a < n_swept; a++) {
            size_t len = strlen(lab);
            snprintf(lab + len, sizeof lab - len, "%s%s=%s", a ? " " : "", swept[a], pts[i].swept[a]);
        }
        plot_quote(lab, sizeof lab, lab);
        const dag_costs *c = &pts[i].result.costs;
        fprintf(f, "\"%s\" %.17g %.17g %.17g \"N=%.3g L=%d C=%.3g\"\n", lab, c->W, c->S, c->O, c->N,
                c->L_kernels, c->C);
    }
    fclose(f);
    FILE *o = s->script;
    plot_quote(prog, sizeof prog, pts[0].program);
    fprintf(o, "set title \"%s: work W, span S, overhead O per sweep point\" font 'sans,17'\n", prog);
    fprintf(o, "set style data histograms\nset style histogram rowstacked\nset style fill solid 0.8 border -1\n");
    fprintf(o, "set boxwidth 0.7\nset ylabel 'cost (cycles)'\nset format y '%%.2g'\nset xtics rotate by 90 right\n");
    fprintf(o, "set key outside top right\nset rmargin 20\nset bmargin 8\n\n");
    fprintf(o, "stats '%s' using ($2+$3+$4) nooutput\nset yrange [0:STATS_max*1.7]\n", path);
    fprintf(o, "plot '%s' using 2:xtic(1) title 'W' lc rgb '#4477aa', '' using 3 title 'S' lc rgb '#ee6677', "
               "'' using 4 title 'O' lc rgb '#228833', "
               "'' using 0:($2+$3+$4+STATS_max*0.02):5 with labels rotate by 90 left font 'sans,12' notitle\n",
            path);
    return 0;
}

static int plot_speedup(plot_session *s, const run_point *pts, long n, const char *const *swept, int n_swept)
{
    int x = x_axis(swept, n_swept, "p");
    if (n_swept == 0 || strcasecmp(swept[x], "p") != 0)
        return fail("--kind speedup: the run file must sweep p (the number of SMs)");
    double t1 = -1;
    for (long i = 0; i < n; i++)
        if (atof(pts[i].swept[x]) == 1)
            t1 = pts[i].result.T;
    if (t1 <= 0)
        return fail("--kind speedup: the sweep over p must include p = 1 (for T(1))");
    char path[1100], prog[256], mach[256];
    FILE *f = plot_data(s, "speedup.dat", path, sizeof path);
    if (!f)
        return fail("cannot write the speedup data in %s", s->dir);
    for (long i = 0; i < n; i++) {
        const sim_result *r = &pts[i].result;
        fprintf(f, "%s %.17g %.17g %.17g\n", pts[i].swept[x], t1 / r->T, r->costs.S > 0 ? t1 / r->costs.S : NAN,
                t1 / (r->bound_theorem1 + r->launch_term));
    }
    fclose(f);
    FILE *o = s->script;
    plot_quote(prog, sizeof prog, pts[0].program);
    plot_quote(mach, sizeof mach, pts[0].machine.name);
    fprintf(o, "set title \"%s on %s: speedup T(1)/T(P)\" font 'sans,17'\n", prog, mach);
    fprintf(o, "set xlabel 'P (SMs)'\nset ylabel 'speedup T(1)/T(P)'\nset logscale xy 2\n");
    fprintf(o, "set key at graph 0.03, graph 0.8 left top Left reverse box opaque\n");
    fprintf(o, "plot '%s' using 1:2 with linespoints lw 3 pt 7 ps 1.5 lc rgb 'black' title 'simulated', "
               "'' using 1:1 with lines lw 2 dt 2 lc rgb '#4477aa' title 'work law: P', "
               "'' using 1:3 with lines lw 2 dt 3 lc rgb '#ee6677' title 'span law: T(1)/S', "
               "'' using 1:4 with lines lw 2 dt 4 lc rgb '#228833' title 'T(1)/Theorem 1 bound'\n",
            path);
    return 0;
}

int plot_sweep(plot_session *s, plot_kind kind, const run_point *pts, long n, const char *const *swept, int n_swept,
               const char *subtitle, const char *along)
{
    if (kind == PLOT_COSTS)
        return plot_costs(s, pts, n, swept, n_swept);
    if (kind == PLOT_SPEEDUP)
        return plot_speedup(s, pts, n, swept, n_swept);
    if (n_swept == 0)
        return fail("--kind sweep: the run file has no sweep");
    return plot_lines(s, pts, n, swept, n_swept, x_axis(swept, n_swept, along), subtitle);
}
