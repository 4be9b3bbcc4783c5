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

timing_stats timing_stats_of(const double *ms, int runs)
{
    timing_stats st = {0.0, 0.0, 0.0};
    if (runs <= 0)
        return st;
    double *sorted = malloc((size_t)runs * sizeof *sorted);
    if (!sorted)
        abort();
    memcpy(sorted, ms, (size_t)runs * sizeof *sorted);
    qsort(sorted, (size_t)runs, sizeof *sorted, compare_double);
    st.min_ms = sorted[0];
    st.max_ms = sorted[runs - 1];
    if (runs % 2 == 1)
        st.median_ms = sorted[runs / 2];
    else
        st.median_ms = 0.5 * (sorted[runs / 2 - 1] + sorted[runs / 2]);
    free(sorted);
    return st;
}

void csv_print_header(FILE *out)
{
    fprintf(out, "%s\n", CSV_HEADER);
}

void csv_print_row(FILE *out, const csv_row *row)
{
    fprintf(out, "%s,%s,%ld,%ld,%ld,%ld,%.6f,%.6f,%.6f,%d,%ld,%s\n",
            row->case_name, row->params, row->n, row->m, row->l, row->s,
            row->timing.median_ms, row->timing.min_ms, row->timing.max_ms,
            row->runs, row->launches, row->check_ok ? "ok" : "FAIL");
    fflush(out);
}
