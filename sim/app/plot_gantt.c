/*
 * plot_gantt.c — the schedule as a Gantt chart (`mcmsim plot --kind gantt`).
 *
 * Reads the trace CSV the engine wrote (kernel,block,sm,start,end), writes
 * one gnuplot data block per kernel (sm start end per row) and the script:
 * one row per SM, each block a bar coloured by its kernel, kernel release
 * and finish marked above the rows, T and the Theorem 1 and Corollary 1
 * figures as vertical lines (Theorem 1 a bound, or the pure-MCM reference:
 * engine.h), time in cycles below and, for a machine whose clock is its
 * own (not the abstract default of 1 GHz), in seconds above.  Above PLOT_GANTT_BLOCKS_MAX blocks, each SM's
 * blocks of one kernel become one busy interval (first start, last end),
 * and the legend says so.  Under the `exclusive` and `shared` policies,
 * where transfers wait for the memory, each block's read and write phases
 * (the trace's read_end, write_start) are shaded over its bar.
 */
#include "plot.h"
#include "fail.h"
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define GANTT_KERNELS_MAX 4096

typedef struct gantt_kernel {
    char name[64];
    double *lo, *hi; /* per SM, when merged */
} gantt_kernel;

typedef struct gantt {
    gantt_kernel *k;
    int n_kernels, p;
    long rows;
    int merged;
} gantt;

static int kernel_index(gantt *g, const char *name)
{
    for (int i = g->n_kernels - 1; i >= 0; i--)
        if (strcmp(g->k[i].name, name) == 0)
            return i;
    if (g->n_kernels == GANTT_KERNELS_MAX)
        return -1;
    gantt_kernel *k = &g->k[g->n_kernels];
    snprintf(k->name, sizeof k->name, "%s", name);
    k->lo = k->hi = NULL;
    return g->n_kernels++;
}

/* One CSV row: -1 on the header or a malformed row. */
static int parse_row(char *line, char *name, int *sm, double *start, double *end)
{
    char *c1 = strchr(line, ','), *c2 = c1 ? strchr(c1 + 1, ',') : NULL;
    if (!c2)
        return -1;
    size_t len = (size_t)(c1 - line) < 63 ? (size_t)(c1 - line) : 63;
    memcpy(name, line, len);
    name[len] = '\0';
    char *e;
    *sm = (int)strtol(c2 + 1, &e, 10);
    if (*e != ',')
        return -1;
    *start = strtod(e + 1, &e);
    if (*e != ',')
        return -1;
    *end = strtod(e + 1, &e);
    return 0;
}

static void merge_row(gantt *g, int ki, int sm, double start, double end)
{
    gantt_kernel *k = &g->k[ki];
    if (!k->lo) {
        k->lo = malloc((size_t)g->p * sizeof *k->lo);
        k->hi = malloc((size_t)g->p * sizeof *k->hi);
        for (int i = 0; i < g->p; i++)
            k->lo[i] = DBL_MAX, k->hi[i] = -1;
    }
    if (start < k->lo[sm])
        k->lo[sm] = start;
    if (end > k->hi[sm])
        k->hi[sm] = end;
}

static long count_rows(const char *csv)
{
    FILE *f = fopen(csv, "r");
    long n = 0;
    int c;
    while (f && (c = getc(f)) != EOF)
        n += c == '\n';
    if (f)
        fclose(f);
    return f ? n - 1 : -1;
}

/* Pass over the trace: rows into per-kernel files (small runs) or merged
 * intervals (large runs). */
static int read_trace(gantt *g, const char *csv, FILE **out, int n_out)
{
    FILE *f = fopen(csv, "r");
    if (!f)
        return fail("cannot read the trace %s", csv);
    char line[512], name[64];
    int sm;
    double start, end;
    while (fgets(line, sizeof line, f)) {
        if (parse_row(line, name, &sm, &start, &end) < 0 || strcmp(name, "kernel") == 0)
            continue;
        int ki = kernel_index(g, name);
        if (ki < 0 || sm < 0 || sm >= g->p) {
            fclose(f);
            return fail("trace %s: too many kernels or a bad SM (%d)", csv, sm);
        }
        if (g->merged)
            merge_row(g, ki, sm, start, end);
        else if (ki < n_out)
            fprintf(out[ki], "%d %.17g %.17g\n", sm, start, end);
    }
    fclose(f);
    return 0;
}

static void write_merged(gantt *g, FILE *dat)
{
    for (int k = 0; k < g->n_kernels; k++) {
        for (int sm = 0; sm < g->p; sm++)
            if (g->k[k].lo && g->k[k].hi[sm] >= 0)
                fprintf(dat, "%d %.17g %.17g\n", sm, g->k[k].lo[sm], g->k[k].hi[sm]);
        fprintf(dat, "\n\n");
    }
}

/* Small runs: one temporary file per kernel, concatenated as data blocks. */
static int write_blocks(gantt *g, const char *csv, FILE *dat, plot_session *s)
{
    int max_files = 64;
    FILE *parts[64];
    char path[1100], name[32];
    for (int i = 0; i < max_files; i++) {
        snprintf(name, sizeof name, "k%d.dat", i);
        parts[i] = plot_data(s, name, path, sizeof path);
    }
    int rc = read_trace(g, csv, parts, max_files);
    if (rc == 0 && g->n_kernels > max_files)
        rc = fail("a Gantt chart draws at most %d kernels, and this point has %d: draw a point with fewer (a "
                  "smaller size param, with --set)", max_files, g->n_kernels);
    for (int i = 0; i < max_files; i++) {
        if (!parts[i])
            continue;
        fclose(parts[i]);
        snprintf(name, sizeof name, "k%d.dat", i);
        snprintf(path, sizeof path, "%s/%s", s->dir, name);
        FILE *in = rc == 0 && i < g->n_kernels ? fopen(path, "r") : NULL;
        int c;
        while (in && (c = getc(in)) != EOF)
            putc(c, dat);
        if (in) {
            fclose(in);
            fprintf(dat, "\n\n");
        }
        unlink(path); /* in blocks.dat now */
    }
    return rc;
}

/* The read and write phases of every block, "sm from to" per row. */
static int write_transfers(const char *csv, plot_session *s)
{
    char path[1100], line[512];
    FILE *in = fopen(csv, "r"), *out = plot_data(s, "transfers.dat", path, sizeof path);
    int rc = in && out ? 0 : fail("cannot write the transfer phases of %s", csv);
    while (rc == 0 && fgets(line, sizeof line, in)) {
        char *c = line;
        for (int commas = 0; commas < 2 && c; commas++)
            c = strchr(c + 1, ',');
        int sm;
        double start, end, read_end, write_start;
        if (!c || sscanf(c + 1, "%d,%lf,%lf,%lf,%lf", &sm, &start, &end, &read_end, &write_start) != 5)
            continue; /* the header */
        if (read_end > start)
            fprintf(out, "%d %.17g %.17g\n", sm, start, read_end);
        if (end > write_start)
            fprintf(out, "%d %.17g %.17g\n", sm, write_start, end);
    }
    if (in)
        fclose(in);
    if (out)
        fclose(out);
    return rc;
}

static void write_kernel_marks(const run_point *pt, plot_session *s)
{
    char path[1100];
    FILE *f = plot_data(s, "kernels.dat", path, sizeof path);
    if (!f)
        return;
    for (int k = 0; k < pt->result.n_kernels; k++)
        fprintf(f, "%.17g %.17g\n", pt->result.kernels[k].start, pt->result.kernels[k].end);
    fclose(f);
}

static void write_script(const gantt *g, const run_point *pt, plot_session *s, int transfers)
{
    FILE *o = s->script;
    char prog[256], mach[256];
    plot_quote(prog, sizeof prog, pt->program);
    plot_quote(mach, sizeof mach, pt->machine.name);
    const sim_result *r = &pt->result;
    double xmax = r->T;
    if (r->bound_theorem1 + r->launch_term > xmax)
        xmax = r->bound_theorem1 + r->launch_term;
    if (r->bound_corollary1 > xmax)
        xmax = r->bound_corollary1;
    char params[512] = "", ell[600], quoted[700];
    for (int i = 0; i < pt->params.n; i++) {
        size_t len = strlen(params);
        double v = pt->params.value[i];
        int e;
        if (v >= 1024 && frexp(v, &e) == 0.5) /* 2^22, not 4.1943e+06 */
            snprintf(params + len, sizeof params - len, "%s%s = 2^%d", i ? ", " : "", pt->params.name[i], e - 1);
        else
            snprintf(params + len, sizeof params - len, "%s%s = %g", i ? ", " : "", pt->params.name[i], v);
    }
    plot_quote(ell, sizeof ell, params);
    plot_ell(quoted, sizeof quoted, ell);
    fprintf(o, "set title \"%s on %s (P = %d SMs, %ld blocks)%s%s\" font 'sans,17' noenhanced\n", prog, mach, g->p,
            g->rows, quoted[0] ? "\\n" : "", quoted);
    double x = plot_time_axis(o, 'x', xmax, "time", "cycles"); /* cycles are divided by x */
    fprintf(o, "set ylabel 'SM'\nset xrange [0:%.17g]\nset yrange [-0.7:%g]\n", xmax * 1.02 / x, g->p - 0.3 + 1.0);
    machine abstract;
    machine_defaults(&abstract);
    if (pt->machine.clock_hz != abstract.clock_hz) {
        /* the same axis in seconds at the machine's clock, on top, in the
         * unit that suits the run's length */
        double seconds = xmax / pt->machine.clock_hz, scale = 1;
        const char *unit = "s";
        if (seconds < 2e-6)
            scale = 1e9, unit = "ns";
        else if (seconds < 2e-3)
            scale = 1e6, unit = "µs";
        else if (seconds < 2)
            scale = 1e3, unit = "ms";
        double per_tic = x * scale / pt->machine.clock_hz;
        fprintf(o, "set x2range [0:%.17g]\nset x2tics\nset xtics nomirror\nset format x2 '%%g'\n"
                   "set x2label 'time (%s at %.3g GHz)'\n",
                xmax * 1.02 / x * per_tic, unit, pt->machine.clock_hz / 1e9); /* both from 0: a scale */
    }
    if (g->p <= 32)
        fprintf(o, "set ytics 0,1,%d\n", g->p - 1);
    plot_key_right(o, 27);
    if (g->merged)
        fprintf(o, "set key title \"{/:Bold bar = one SM busy with a kernel}\\n(%ld blocks merged)\"\n", g->rows);
    else
        fprintf(o, "set key title '{/:Bold bar = one thread-block}'\n");
    fprintf(o, g->p > 32 ? "set style fill solid 0.85 noborder\n" : "set style fill solid 0.85 border rgb 'black'\n");

    /* vertical lines: drawn as arrows, named in the key by NaN lines */
    double t1 = r->bound_theorem1 + r->launch_term;
    fprintf(o, "set arrow 1 from %.17g, graph 0 to %.17g, graph 1 nohead lw 3 lc rgb 'black'\n", r->T / x, r->T / x);
    fprintf(o, "set arrow 2 from %.17g, graph 0 to %.17g, graph 1 nohead lw 3 dt 2 lc rgb 'red'\n", t1 / x, t1 / x);
    fprintf(o, "set arrow 3 from %.17g, graph 0 to %.17g, graph 1 nohead lw 3 dt 3 lc rgb 'blue'\n",
            r->bound_corollary1 / x, r->bound_corollary1 / x);
    fprintf(o, "plot ");
    double h = g->p > 64 ? 0.5 : 0.4;
    for (int k = 0; k < g->n_kernels; k++) {
        char kn[80];
        plot_quote(kn, sizeof kn, g->k[k].name);
        fprintf(o, "'%s/blocks.dat' index %d using ($2/%.17g):1:($2/%.17g):($3/%.17g):($1-%g):($1+%g) "
                   "with boxxyerror lc rgb '%s' ", s->dir, k, x, x, x, h, h, plot_series_colour(k));
        if (k < 8)
            fprintf(o, "title '%s', \\\n     ", kn);
        else
            fprintf(o, "notitle, \\\n     ");
    }
    if (transfers)
        fprintf(o, "'%s/transfers.dat' using ($2/%.17g):1:($2/%.17g):($3/%.17g):($1-%g):($1+%g) with boxxyerror "
                   "fs transparent solid 0.55 noborder lc rgb 'black' title 'transfer (%s)', \\\n     ",
                s->dir, x, x, x, h, h, memory_policy_name(pt->machine.policy));
    fprintf(o, "'%s/kernels.dat' using ($1/%.17g):(%d+0.35) with points pt 9 ps 2 lc rgb '#006400' "
               "title 'kernel release', \\\n"
               "     '%s/kernels.dat' using ($2/%.17g):(%d+0.35) with points pt 11 ps 2 lc rgb '#8b0000' "
               "title 'kernel finish', \\\n",
            s->dir, x, g->p - 1, s->dir, x, g->p - 1);
    fprintf(o, "     NaN with lines lw 3 lc rgb 'black' title 'T = %.6g cycles', \\\n", r->T);
    fprintf(o, "     NaN with lines lw 3 dt 2 lc rgb 'red' title '%s: %.6g', \\\n",
            theorem1_is_bound(&pt->machine) ? "Theorem 1 bound" : "pure-MCM ref. (Thm 1)", t1);
    fprintf(o, "     NaN with lines lw 3 dt 3 lc rgb 'blue' title 'Corollary 1 (P = K): %.6g'\n", r->bound_corollary1);
}

int plot_gantt(plot_session *s, const char *trace_csv, const run_point *pt)
{
    gantt g = {.p = pt->result.p};
    g.rows = count_rows(trace_csv);
    if (g.rows < 0)
        return fail("cannot read the trace %s", trace_csv);
    g.merged = g.rows > PLOT_GANTT_BLOCKS_MAX;
    g.k = calloc(GANTT_KERNELS_MAX, sizeof *g.k);
    char path[1100];
    FILE *dat = plot_data(s, "blocks.dat", path, sizeof path);
    int rc = dat ? 0 : fail("cannot write the Gantt data in %s", s->dir);
    if (rc == 0 && g.merged) {
        rc = read_trace(&g, trace_csv, NULL, 0);
        if (rc == 0)
            write_merged(&g, dat);
    } else if (rc == 0) {
        rc = write_blocks(&g, trace_csv, dat, s);
    }
    if (dat)
        fclose(dat);
    int transfers = !g.merged && pt->machine.policy != MEM_PARALLEL;
    if (rc == 0 && transfers)
        rc = write_transfers(trace_csv, s);
    if (rc == 0) {
        plot_keep(s, "blocks.dat");
        if (transfers)
            plot_keep(s, "transfers.dat");
        write_kernel_marks(pt, s);
        write_script(&g, pt, s, transfers);
    }
    for (int k = 0; k < g.n_kernels; k++)
        free(g.k[k].lo), free(g.k[k].hi);
    free(g.k);
    return rc;
}
