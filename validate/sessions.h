/*
 * sessions.h — a card's measurement sessions, and how far they agree.
 *
 * Each device session is a directory validate/data/CARD/SESSION/ written
 * by cuda_ref/run-all.sh (its CSV files, constants.csv, occupancy.csv,
 * device.txt).  Sessions are named so that they sort by date
 * (2026-11-22a, 2026-11-22b, ...); a directory whose CSV files have the
 * old protocol's format is a session of its own, marked `old_protocol`.
 *
 * The noise floor of a card is the disagreement between two sessions of
 * the new protocol on the same points: per case study, the median and the
 * worst of the ratios t(second)/t(first) of the medians, for the wall time
 * and for the graph device time.  No model error below it can be claimed.
 */
#ifndef MCM_SESSIONS_H
#define MCM_SESSIONS_H

#include "measured.h"

typedef struct session {
    char card[32], name[64], dir[1024];
    measured_row *rows;
    int n;
    int old_protocol;   /* its rows have one timing only (measured.h) */
    int one_graph;      /* 1: its device.txt says its graphs were timed one alive at
                         * a time (cuda_ref/README.md, the protocol), 0: every graph
                         * of a series alive; a composed session (sessions_compose):
                         * -1 where its sessions differ */
    char older[256];    /* a composed session: the cases left out because the card's
                         * sessions of the current graph protocol never measured them
                         * (only older ones did), comma-separated; "" if none */
    char disturbed[512]; /* a composed session: each "case (session)" passed over because
                          * that session's series was disturbed (session_disturbed),
                          * comma-separated; "" if none */
} session;

/* A point's graph times are disturbed when their quartiles lie more than
 * DISTURBED_SPREAD of their median apart: the middle half of its rounds
 * spans three times the error a model is judged by (10 %), so the point
 * cannot judge one.  Every undisturbed point of the sessions lies within
 * 0.2; the disturbed series found (an H100 session's matvec, another's
 * Horner) span 0.37 to 2.1. */
#define DISTURBED_SPREAD 0.3

/* Did session s time case `program` disturbed: a point of it whose graph
 * quartiles lie more than DISTURBED_SPREAD of its median apart? */
int session_disturbed(const session *s, const char *program);

/* Every session of validate/data/CARD/ (relative to the current
 * directory), sorted by name; *out is malloc'ed, *n may be 0. */
int sessions_load(const char *card, session **out, int *n);
void sessions_free(session *s, int n);

/* The newest session of the new protocol among s[0 .. before-1], or -1.
 * sessions_last_new(s, n) is the card's newest session. */
int sessions_last_new(const session *s, int before);

/* A session may measure only some case studies (cuda_ref/run-all.sh CARD
 * CASE ...).  The card's reference session is the newest of the current
 * protocol among those that measured the most case studies: its constants
 * make the card's machine.  -1 if the card has no session of the current
 * protocol. */
int sessions_reference(const session *s, int n);

/* The points of a validation set, each case study from its own session:
 * depth 0 takes every case's rows from the newest session of the current
 * protocol that measured it, depth 1 from the one before that (a case
 * measured once has no rows there).  A session whose series of a case is
 * disturbed (session_disturbed) counts as not having measured it, and is
 * named in out->disturbed where it would have been taken.  Where the card has sessions that timed
 * one graph alive at a time, only those count: a case that only older
 * sessions measured is left out and named in out->older (their times are
 * those of another protocol, not of the card).  Cases in alphabetical order, rows in
 * file order; out->name lists the sessions used.  *out owns its rows
 * (sessions_free(out, 1)); out->n is 0 if no case has such a session;
 * out->one_graph is its sessions' if they agree, else -1. */
int sessions_compose(const session *s, int n, int depth, session *out);

/* May session s[i] of a card's n stand for the card's times of case
 * `program`: is it a session sessions_compose could take the case from
 * (the current protocol, one graph alive at a time where the card has
 * such sessions, the case measured undisturbed)? */
int session_stands_for(const session *s, int n, int i, const char *program);

/* The session directory's name of a row (validate/data/CARD/SESSION/x.csv). */
void measured_row_session(const measured_row *r, char *out, size_t size);

/* The row of s with r's case and params, or NULL. */
const measured_row *session_match(const session *s, const measured_row *r);

/* One case study's agreement between two sessions (b against a). */
typedef struct agreement {
    char program[32];       /* "" for all case studies together */
    int n;                  /* points measured in both */
    double wall_median, wall_worst;    /* median ratio b/a; worst max(r, 1/r) */
    double graph_median, graph_worst;  /* the same for the graph times */
    double graph_abs_median;           /* median |r − 1| of the graph times */
} agreement;

/* Per case study (in order of first appearance in a), then all together
 * as the last entry; returns the number of entries written (<= max). */
int sessions_agreement(const session *a, const session *b, agreement *out, int max);

#endif
