/*
 * csv.h -- timing statistics and the CSV row format shared by every CUDA
 * program of cuda_ref/ (and checked by tests/test_cuda_ref.c).
 *
 * Owns: the header line
 *   case,params,n,m,l,s,median_ms,min_ms,max_ms,runs,launches,check
 * and one row per measured point.  params lists every program parameter as
 * k=v joined by ';' (e.g. "n=65536;l=128"); numeric columns a case study
 * does not use are 0; check is "ok" or "FAIL".
 */
#ifndef MCM_CSV_H
#define MCM_CSV_H

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CSV_HEADER "case,params,n,m,l,s,median_ms,min_ms,max_ms,runs,launches,check"

typedef struct {
    double median_ms;
    double min_ms;
    double max_ms;
} timing_stats;

/* median (mean of the two middle values when runs is even), min and max */
timing_stats timing_stats_of(const double *ms, int runs);

void csv_print_header(FILE *out);

typedef struct {
    const char *case_name;  /* simulator program name, e.g. "stockham" */
    const char *params;     /* "k=v;k=v" */
    long n, m, l, s;        /* 0 where unused */
    timing_stats timing;
    int runs;               /* timed runs behind the statistics */
    long launches;          /* kernel launches per run */
    int check_ok;           /* 1 -> "ok", 0 -> "FAIL" */
} csv_row;

void csv_print_row(FILE *out, const csv_row *row);

#ifdef __cplusplus
}
#endif

#endif /* MCM_CSV_H */
