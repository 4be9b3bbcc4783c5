/*
 * card.h — a card's machine, built from the constants measured in one
 * session (validate/data/CARD/SESSION/constants.csv and device.txt).
 *
 * Every card term of the machine (sim/README.md, "Card terms") comes from one
 * measured constant through the table in card.c: nothing here is fitted.
 * Where a session measured a constant before and after its case studies,
 * the mean of the two is taken.  card_write_preset() writes the result as
 * a preset with the source of every value.
 */
#ifndef MCM_CARD_H
#define MCM_CARD_H

#include "machine.h"
#include "sessions.h"

#include <stdio.h>

/* The card's machine: `base` (a preset: name, Z, warp, policy) with every
 * measured term of session s.  The few terms the table marks may be
 * borrowed: a session that did not measure them takes them from `other`
 * (the other card's reference session; NULL: none); others it marks are
 * left off when absent.  -1 with fail() when a needed constant is missing. */
int card_machine(const session *s, const session *other, const machine *base, machine *out);

/* The card's code machine (the code's costs, sim/exec/stream.h): `card` (the
 * card's machine, from card_machine) named NAME-code, with the
 * instruction stream's terms of session s (issue_rate, cycles_issue).
 * -1 with fail() when s lacks their constant. */
int card_code_machine(const session *s, const session *other, const machine *card, machine *out);

/* One constant of the session, the mean of its readings (constants.csv's
 * phases, and graph-start.csv's where the session has it); -1 if absent. */
int card_constant(const session *s, const char *name, double *value);

/* Write `m` as the preset file `path`, saying where each value comes from
 * (s, or `other` for a borrowed term); a code machine (issue_rate > 0)
 * with its instruction stream's terms too. */
int card_write_preset(const machine *m, const session *s, const session *other, const char *path);

#endif
