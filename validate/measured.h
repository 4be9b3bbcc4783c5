/*
 * measured.h — the times measured on a card (the CSV files under
 * validate/data/CARD/, as
 * written by cuda_ref/run-all.sh) and the card's own constants.
 */
#ifndef MCM_MEASURED_H
#define MCM_MEASURED_H

#include "formula.h"

typedef struct measured_row {
    char file[1024];
    int line;
    char program[32];   /* the `case` column: a built-in program's name */
    char params[256];   /* "k=v;k=v" as measured */
    vars values;        /* the same, parsed */
    int new_protocol;   /* 1: wall and graph timings (cuda_ref/common/csv.h) */
    struct timing { double median, q1, q3; } wall, graph; /* ms; graph: 0 if old */
    double median_ms;   /* = wall.median: what the old protocol measured */
    double clock_mhz;   /* SM clock seen during the point; 0 if old */
    int runs;
    long launches;
    int ok;
} measured_row;

/* Read every <case>.csv of a session directory (validate/data/CARD/SESSION;
 * constants.csv, occupancy.csv and instructions.csv aside) in
 * alphabetical order of file, rows in file order.  *rows is malloc'ed. */
int measured_load(const char *dir, measured_row **rows, int *n);

/* The series of a row: its params other than n (and m when it equals n),
 * e.g. "s=4 l=256"; rows of one series differ only in size. */
void measured_series(const measured_row *r, char *out, size_t size);

/* The size param of r's case study: n if it varies among the case's rows,
 * else m, else the first param that varies (e.g. s), else "n". */
const char *measured_size_key(const measured_row *r, const measured_row *rows, int n);

/* The series of r along `key`: its params other than `key` (and m when it
 * equals n and key is n). */
void measured_series_along(const measured_row *r, const char *key, char *out, size_t size);

/* A constant of constants.csv (columns name,value,unit,how); -1 if absent. */
int measured_constant(const char *dir, const char *name, double *value);

#endif
