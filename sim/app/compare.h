/*
 * compare.h — a run file's conclusion, stated with the numbers behind it.
 *
 *   compare = { claim = "Stockham is faster than Cooley–Tukey";
 *               key = "program"; along = "n";
 *               a = "stockham"; b = "cooley-tukey"; };   # pairwise
 *   compare = { claim = "..."; key = "s"; along = "n"; best = true; };
 *   compare = { claim = "..."; along = "m"; linear = true; };
 *
 * Pairwise: the ratio T(b)/T(a) at each value of `along`, where each side
 * wins and where the winner changes.  Best: the value of `key` with the
 * least T at each value of `along`.  Linear: a least-squares line T = α +
 * β·along and its R².  Points are grouped by the other swept keys; each
 * group gets one line.  This module knows the run's points, never which
 * case study they come from.
 */
#ifndef MCM_COMPARE_H
#define MCM_COMPARE_H

#include "report.h"

#include <libconfig.h>
#include <stdio.h>

/* The group's keys and their types (strings, booleans), before any
 * point is simulated; 0, or -1 with fail() naming the key and the line. */
int compare_check(const config_setting_t *compare);

/* The keys of a compare group, NULL-terminated. */
const char *const *compare_key_names(void);

/* `source` says where the times come from (NULL: "simulated" on the
 * points' machine). */
int compare_print(FILE *out, const config_setting_t *compare, const run_point *pts, long n,
                  const char *const *swept, int n_swept, const char *source);

/* The conclusion as verdicts, one per comparison made: "group|along=v: w"
 * where w is the winner (pairwise), the best value of `key` (best), or
 * "linear" / "not linear" (R² >= 0.99 or not, per group).  Two runs of the
 * same sweep agree where their verdicts agree (validate/ compares the card
 * with the simulator this way).  Returns the number of verdicts, or -1. */
#define VERDICT_SIZE 160
int compare_verdicts(const config_setting_t *compare, const run_point *pts, long n,
                     const char *const *swept, int n_swept, char (*verdicts)[VERDICT_SIZE], int max);

#endif
