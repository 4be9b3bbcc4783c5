/*
 * csv.c -- timing statistics and CSV rows (format documented in csv.h and
 * cuda_ref/README.md).
 */
#include "csv.h"

#include <stdlib.h>
#include <string.h>

static int compare_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

/* the order statistic at rank p·(n−1) of sorted[0..n), interpolated */
static double quantile(const double *sorted, int n, double p)
{
    double rank = p * (n - 1);
    int lo = (int)rank;
    if (lo >= n - 1)
        return sorted[n - 1];
    return sorted[lo] + (rank - lo) * (sorted[lo + 1] - sorted[lo]);
}

timing_stats timing_stats_of(const double *ms, int runs)
{
    timing_stats st = {0.0, 0.0, 0.0, 0.0, 0.0};
    if (runs <= 0)
        return st;
    double *sorted = malloc((size_t)runs * sizeof *sorted);
    if (!sorted)
        abort();
    memcpy(sorted, ms, (size_t)runs * sizeof *sorted);
    qsort(sorted, (size_t)runs, sizeof *sorted, compare_double);
    st.min_ms = sorted[0];
    st.max_ms = sorted[runs - 1];
    st.median_ms = quantile(sorted, runs, 0.5);
    st.q1_ms = quantile(sorted, runs, 0.25);
    st.q3_ms = quantile(sorted, runs, 0.75);
    free(sorted);
    return st;
}

void csv_print_header(FILE *out)
{
    fprintf(out, "%s\n", CSV_HEADER);
}

static void print_stats(FILE *out, const timing_stats *t)
{
    fprintf(out, "%.6f,%.6f,%.6f,%.6f,%.6f,", t->median_ms, t->q1_ms,
            t->q3_ms, t->min_ms, t->max_ms);
}

void csv_print_row(FILE *out, const csv_row *row)
{
    fprintf(out, "%s,%s,%ld,%ld,%ld,%ld,", row->case_name, row->params,
            row->n, row->m, row->l, row->s);
    print_stats(out, &row->wall);
    print_stats(out, &row->graph);
    fprintf(out, "%d,%.1f,%ld,%s\n", row->runs, row->clock_mhz, row->launches,
            row->check_ok ? "ok" : "FAIL");
    fflush(out);
}
