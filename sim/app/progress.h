/*
 * progress.h — what a long command says on stderr while it works.
 *
 *   progress pg;
 *   progress_begin(&pg, on, points);       // on: --progress or a terminal
 *   progress_blocks(&pg, i, done, total);  // while point i simulates
 *   progress_points(&pg, done);            // after each point
 *   progress_end(&pg, whole);              // the line is cleared
 *
 * A sweep shows the points done of all and the time left (from the mean
 * time per point so far); a single run shows its blocks done of all and
 * the time left (from its rate so far).  On a terminal it is one line
 * redrawn at most every half second; elsewhere (--progress into a file) a
 * line every 5 seconds, the first at the first news, and a last line when
 * the work ended whole, so that a log says it finished and how long it
 * took.  Whatever `on`, progress_warn_long says, before a simulation
 * starts, when it would take over a minute: `steps` blocks one by one
 * (engine_steps: the rest in waves) at this machine's rate.
 */
#ifndef MCM_PROGRESS_H
#define MCM_PROGRESS_H

#include "report.h"

typedef struct progress {
    int on, tty;
    long points;        /* sweep points in all */
    double start;       /* wall clock, seconds */
    double point_start; /* when the point being watched started to be watched */
    long point;         /* that point */
    double point_done;  /* and its blocks done then */
    double shown;       /* when the last line was drawn */
    int drawn;          /* a line is on the terminal, to be cleared */
} progress;

void progress_begin(progress *p, int on, long points);
void progress_blocks(progress *p, long point, double done, double total);
void progress_points(progress *p, long done);
void progress_end(progress *p, int whole);

/* When point i of n starts simulating: its `blocks`, and how long block
 * by block at the engine's usual rate they would take, if over a minute. */
void progress_warn_long(progress *p, const run_point *pt, double blocks, double steps, long i, long n);

#endif
