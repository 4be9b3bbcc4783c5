/*
 * plot.h — pictures for class: `mcmsim plot` draws a run with gnuplot.
 *
 * plot.c owns the drawing session: a temporary folder for the script and
 * the data, the output terminal chosen from the output's extension, running
 * gnuplot, and renaming the finished picture into place (no partial file is
 * left on error; the temporary folder is removed on every exit).
 * plot_gantt.c writes the schedule (one row per SM); plot_sweep.c writes the
 * sweep, costs and speedup pictures from the points of a sweep;
 * plot_warps.c the DMM/UMM picture (a step's requests on the banks and
 * address groups, and each machine's dispatches).
 *
 * Every picture is drawn to be projected (1280×800, sans 16): a title that
 * names every program drawn, axes a room can read (sizes that double on a
 * log2 axis labelled 2^k, times in cycles with their power of ten in the
 * axis' label, never 1e+07), the legend outside the data, series told
 * apart by colour and marker (dark on white, apart in grey and for
 * colour-blind viewers), the latency written ℓ (a lone l reads as 1), and
 * the Theorem 1 figure called a bound only where it is one (engine.h,
 * theorem1_is_bound); elsewhere it is the pure-MCM reference.
 */
#ifndef MCM_PLOT_H
#define MCM_PLOT_H

#include "report.h"
#include <stdio.h>

typedef enum { PLOT_GANTT, PLOT_SWEEP, PLOT_COSTS, PLOT_SPEEDUP, PLOT_WARPS } plot_kind;

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
 * after an error, or with `ok` 0) remove the temporary files.  With
 * $MCMSIM_PLOT_SOURCE set, first write there what the picture is drawn
 * from (the script and its data, free of temporary paths and of the
 * output's format: plot.c, write_source). */
int plot_close(plot_session *s, int ok);

/* gnuplot's text: quotes made safe. */
void plot_quote(char *dst, size_t n, const char *src);

/* ---- axes and titles a room can read (plot.c) ---- */

/* `src` with every letter l that stands alone (no letter, digit or _
 * beside it: "l = 256", "(l - 1)", "Theta(l)") written ℓ, the paper's
 * latency: projected, a lone l reads as 1.  Words and names keep theirs. */
void plot_ell(char *dst, size_t n, const char *src);

/* The time axis `axis` ('x' or 'y') from 0 to about `max` cycles: values
 * are to be divided by the returned scale (a power of ten, 1 below 10^4),
 * which the label "`what` (10^k cycles)" names. */
double plot_time_axis(FILE *o, char axis, double max, const char *what, const char *unit);

/* A numeric axis over these values: log2 with a tic at each value when
 * each is the least times a power of two and they span at least 4×
 * (1000, 2000, 4000; powers of two labelled 2^k when they reach 2^10;
 * over 12 doublings every other tic labelled), log10 labelled 10^k beyond
 * two decades, one tic for one value, else linear and ending where the
 * values do.  Returns 1 when the axis is logarithmic. */
int plot_value_axis(FILE *o, char axis, const double *values, long n);

/* "a", "a and b", "a, b and c": the distinct programs of the points, in
 * order. */
void plot_program_names(const run_point *pts, long n, char *out, size_t size);

/* What the Theorem 1 figure is on the points' machines: "Theorem 1
 * bound", or "pure-MCM reference" where it bounds nothing. */
const char *plot_theorem1_name(const run_point *pts, long n);

/* A series' look, k = 0, 1, ...: its colour (an "#rrggbb" of at least
 * 3:1 contrast on white, the first five apart for colour-blind viewers),
 * its filled marker and that marker's open twin (for the same series'
 * reference).  Colours repeat after 8, shapes after 6: no two of the first
 * 24 series share both, so series stay apart in grey too. */
const char *plot_series_colour(int k);
int plot_series_point(int k);
int plot_series_ring(int k);

/* The key outside the frame at the right, wide enough for its longest
 * entry of `chars` characters (and no wider). */
void plot_key_right(FILE *o, int chars);

int plot_gantt(plot_session *s, const char *trace_csv, const run_point *pt);
int plot_warps(plot_session *s, const run_point *pts, long n, const char *const *swept, int n_swept);
int plot_sweep(plot_session *s, plot_kind kind, const run_point *pts, long n,
               const char *const *swept, int n_swept, const char *subtitle, const char *along);

#endif
