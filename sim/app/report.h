/*
 * report.h — the results of a run, as text for people, CSV for tables and
 * JSON for programs.  A report is printed only once every point of a run
 * has succeeded: never a partial result shown as whole.  A run on a DMM or
 * a UMM (machine kind dmm/umm) has a report of its own: the time in units,
 * the machine (kind, p, w, l), the chapter's formula beside it, and the
 * access counts.
 */
#ifndef MCM_REPORT_H
#define MCM_REPORT_H

#include "dmm_umm.h"
#include "engine.h"
#include "exec.h"
#include "formula.h"
#include "kernel_dag.h"
#include "machine.h"

#include <stdio.h>

#define REPORT_SWEPT_MAX 8

/* One simulated point of a run. */
typedef struct run_point {
    char swept[REPORT_SWEPT_MAX][64]; /* values of the swept keys, as text */
    const char *program;
    int has_closed_form;
    closed_form paper;                /* the paper's closed forms, if any */
    machine machine;
    vars params;
    kernel_dag *dag;                  /* MCM points (owned) */
    exec_kernel_report *exec;         /* exec mode: per kernel of dag, what it measured (owned), or NULL */
    int skipped;                      /* not simulated here (--shard): its CSV row is left out */
    sim_result result;                /* MCM points; T also on DMM/UMM ones */
    dmm_result dmm;                   /* DMM/UMM points (machine.kind) */
} run_point;

typedef enum { FORMAT_TEXT, FORMAT_JSON, FORMAT_CSV } report_format;

/* `swept` names the keys that vary between points (shown first). */
void report_print(FILE *out, report_format format, const run_point *points, long n,
                  const char *const *swept, int n_swept);

#endif
