/*
 * validate.h — what the validation harness knows once it has simulated
 * every measured point (main.c), and the files it writes (outputs.c).
 */
#ifndef MCM_VALIDATE_H
#define MCM_VALIDATE_H

#include "fit.h"
#include "kernel_dag.h"
#include "machine.h"
#include "measured.h"

#include <stdio.h>

#define POLICIES 3

typedef struct vpoint {
    const measured_row *row;
    int train;                  /* 1: used by the fit; 0: held out */
    kernel_dag *dag;
    double sim_ms[POLICIES];    /* simulated at the fitted constants */
    double linear_ms[POLICIES]; /* the fit's own prediction (α + βU line) */
} vpoint;

typedef struct validation {
    char card_name[64], data_dir[1024], report_dir[1024];
    machine card;               /* the preset, before fitting */
    measured_row *rows;
    int n_rows;                 /* all measured rows */
    vpoint *pts;
    int n;                      /* the points simulated */
    int n_refused;              /* measured points the model cannot run */
    const measured_row *refused[64];
    char refused_why[64][512];
    memory_policy policies[POLICIES];
    int n_policies;
    fit_result fit[POLICIES];
    machine fitted[POLICIES];   /* the card's machine at the fitted constants */
    double shared_ratio;        /* whole-card / (P · one SM) global-memory throughput */
} validation;

/* Error figures of a set of points under one policy. */
typedef struct error_stats {
    int n;
    double median, p90;         /* of |relative error| */
    double spearman;            /* rank correlation measured vs simulated */
} error_stats;

/* Statistics over the points of case `program` (NULL: all) in `split`
 * (0 test, 1 train, -1 both) under policy index `pol`. */
error_stats validation_errors(const validation *v, const char *program, int split, int pol);

int write_points(const validation *v);
int write_plots(const validation *v);
int write_report(const validation *v);

/* The papers' conclusions (the compare groups of the run files of programs/) on the
 * card and in the simulator under policy index `pol` (conclusions.c). */
int write_conclusions(FILE *f, const validation *v, int pol);

#endif
