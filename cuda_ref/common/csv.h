/*
 * csv.h -- timing statistics and the CSV row format shared by every CUDA
 * program of cuda_ref/ (and checked by tests/test_cuda_ref.c).
 *
 * Owns: the header line (CSV_HEADER below) and one row per measured point.
 * Each point is timed two ways (cuda_common.cuh says how):
 *   wall_*   the whole host-side algorithm between two CUDA events: what a
 *            user of the program sees, host launch rate included;
 *   graph_*  the same kernel sequence replayed from a CUDA graph: the
 *            device's time, without the host's launch jitter.
 * For each: median, first and third quartiles (IQR = q3 - q1), min, max
 * over `runs` timed runs.  clock_mhz is the median SM clock read right
 * after the point's timed runs (clock64 over %globaltimer).
 * params lists every program parameter as k=v joined by ';' (e.g.
 * "n=65536;l=128"); numeric columns a case study does not use are 0; check
 * is "ok" or "FAIL".
 */
#ifndef MCM_CSV_H
#define MCM_CSV_H

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CSV_HEADER                                                           \
    "case,params,n,m,l,s,"                                                   \
    "wall_median_ms,wall_q1_ms,wall_q3_ms,wall_min_ms,wall_max_ms,"          \
    "graph_median_ms,graph_q1_ms,graph_q3_ms,graph_min_ms,graph_max_ms,"     \
    "runs,clock_mhz,launches,check"

typedef struct {
    double median_ms;
    double q1_ms, q3_ms;   /* quartiles: the interquartile range is q3 - q1 */
    double min_ms;
    double max_ms;
} timing_stats;

/* median and quartiles (each the linearly interpolated order statistic at
 * rank p·(runs−1), p = 0.5, 0.25, 0.75), min and max; ms is left as is */
timing_stats timing_stats_of(const double *ms, int runs);

void csv_print_header(FILE *out);

typedef struct {
    const char *case_name;  /* simulator program name, e.g. "stockham" */
    const char *params;     /* "k=v;k=v" */
    long n, m, l, s;        /* 0 where unused */
    timing_stats wall;      /* host algorithm between two events */
    timing_stats graph;     /* replayed from a CUDA graph */
    int runs;               /* timed runs behind each of the statistics */
    double clock_mhz;       /* SM clock seen during the point */
    long launches;          /* kernel launches per run */
    int check_ok;           /* 1 -> "ok", 0 -> "FAIL" */
} csv_row;

void csv_print_row(FILE *out, const csv_row *row);

#ifdef __cplusplus
}
#endif

#endif /* MCM_CSV_H */
