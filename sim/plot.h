/*
 * plot.h — pictures for class: `mcmsim plot` draws a run with gnuplot.
 *
 * plot.c owns the drawing session: a temporary folder for the script and
 * the data, the output terminal chosen from the output's extension, running
 * gnuplot, and renaming the finished picture into place (no partial file is
 * left on error; the temporary folder is removed on every exit).
 * plot_gantt.c writes the schedule (one row per SM); plot_sweep.c writes the
 * sweep, costs and speedup pictures from the points of a sweep.
 */
#ifndef MCM_PLOT_H
#define MCM_PLOT_H

#include "report.h"
#include <stdio.h>

typedef enum { PLOT_GANTT, PLOT_SWEEP, PLOT_COSTS, PLOT_SPEEDUP } plot_kind;

/* Above this many blocks, the Gantt draws one busy interval per SM and kernel. */
#define PLOT_GANTT_BLOCKS_MAX 10000

typedef struct plot_session {
    char dir[1024];    /* temporary folder: script.gp, *.dat, gnuplot.err */
    const char *out;   /* the picture asked for */
    char part[1100];   /* where gnuplot writes before the rename */
    FILE *script;
} plot_session;

/* Check that gnuplot can write `out` (.svg or .png); -1 with fail(). */
int plot_check_output(const char *out);

/* Draw `kind` of the simulated points into `out` (the whole session);
 * `trace_csv` is the one point's trace for a Gantt. */
int plot_draw(plot_kind kind, const char *out, const char *trace_csv, const run_point *pts, long n,
              const char *const *swept, int n_swept, const char *subtitle, const char *along);

/* "gantt" etc.; -1 with fail() on an unknown kind. */
int plot_kind_parse(const char *name, plot_kind *kind);

/* Check the output's extension, make the temporary folder, open the script
 * and write its terminal lines.  -1 with fail() (nothing left behind). */
int plot_open(plot_session *s, const char *out);

/* A data file of the session: its path (in s->dir) opened for writing. */
FILE *plot_data(plot_session *s, const char *name, char *path, size_t n);

/* Tests: copy the data file `name` to $MCMSIM_PLOT_DATA, if set. */
void plot_keep(plot_session *s, const char *name);

/* Run gnuplot on the script and rename the picture into place; then (also
 * after an error, or with `ok` 0) remove the temporary files. */
int plot_close(plot_session *s, int ok);

/* gnuplot's text: quotes made safe. */
void plot_quote(char *dst, size_t n, const char *src);

int plot_gantt(plot_session *s, const char *trace_csv, const run_point *pt);
int plot_sweep(plot_session *s, plot_kind kind, const run_point *pts, long n,
               const char *const *swept, int n_swept, const char *subtitle, const char *along);

#endif
