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

/* Whether card_machine derives the writers' terms (u_l2_write_sm,
 * u_l2_write_warps4, u_l2_copy, u_l2_copy_sm) where a session measured
 * all four rows (card.c, WRITERS): 0, held off.  Scored with the probe's
 * rows put in by hand, the form makes 12 case/sets worse with the caches
 * than without, against 6, Cooley-Tukey above the card by 6-8 % on the
 * H100 (validate/notes/cache-hierarchy.md, "Session 48: the write rate
 * by an SM's warps"); 1 derives them, as the tests do. */
extern int card_writers_derived;

/* The card's machine: `base` (a name over the defaults) with every
 * measured term of session s.  The few terms the table marks may be
 * borrowed: a session that did not measure them takes them from `other`
 * (the other card's reference session; NULL: none); others it marks are
 * left off when absent.  -1 with fail() when a needed constant is missing. */
int card_machine(const session *s, const session *other, const machine *base, machine *out);

/* The card's machine `name` from nothing but session s (and `other`): the
 * defaults (machine_defaults), the name, then card_machine.  make validate
 * builds the cards' machines so, never over the machine files an earlier
 * run wrote: every key a machine file holds is one this file derives. */
int card_machine_named(const session *s, const session *other, const char *name, machine *out);

/* The card's code machine (the code's costs, sim/exec/stream.h): `card` (the
 * card's machine, from card_machine) named NAME-code, with the
 * instruction stream's terms of session s (issue_rate, cycles_issue), and
 * its own kernel boundary: graph_launch_latency and graph_launch_per_sm
 * from the same chains of touch kernels, less what the code's costs charge
 * their blocks (validate/stream/touch.c, run in exec mode on it), so that
 * it reproduces the chains as the card's machine does.  -1 with fail()
 * when s lacks a constant, or the touch kernel does not run. */
int card_code_machine(const session *s, const session *other, const machine *card, machine *out);

/* The card's code machine without the caches of exec mode (l1_words = 0:
 * the working-set rule), for the points simulated without them:
 * card_code_machine on `card` with l1_words = 0, so that its kernel
 * boundary is the touch chains less what the code's costs charge their
 * blocks without the caches.  The boundary is what the model leaves of the
 * measured chains once it has charged their blocks, not a constant read
 * alone: a machine that charges the blocks otherwise needs its own to
 * reproduce the chains, and the caches' terms (the writers', card.c) then
 * move the boundary of the machine with the caches only.  -1 with fail()
 * as card_code_machine. */
int card_code_machine_without_caches(const session *s, const session *other, const machine *card, machine *out);

/* A machine constant whose readings in one session (before and after the
 * cases) lie more than STEADY_SPREAD apart, relative to the least, was
 * disturbed: the device-side readings of every session agree within 0.18
 * but one (H100 2026-11-27d's chain of one-block kernels, 1.09 and 1.62 µs
 * a kernel).  The host's draws (launch_latency, graph_start) are exempt:
 * a process draws them (card-model.md), and their mean is taken. */
#define STEADY_SPREAD 0.25

/* Did s read every machine constant steadily?  If not, 0 and the first
 * that was not, with its readings, in why. */
int card_session_steady(const session *s, char *why, size_t size);

/* The card's reference session (sessions_reference) among those that read
 * their constants steadily: a session passed over is named, with why, in
 * passed_over ("" if none); -1 if none is left. */
int card_reference(const session *s, int n, char *passed_over, size_t size);

/* A constant read three times or more in a session (a graph's start: once
 * before each case, graph-start.csv) has a reading that is a disturbance
 * of its process, not a draw, when it lies above DISTURBED_READING times
 * the median of the session's readings.  The draws of a graph's start lie
 * within 0.79 and 1.40 times their session's median in the five other
 * sessions that read it seventeen times (H100 2026-11-27c and d, H200
 * 2026-11-27b, c and d: 85 readings, 2.31 to 3.88 µs); H100 2026-11-27e
 * read 28.7 and 30.4 µs in two of its seventeen processes (10.4 times its
 * median), whose graph of one empty kernel, timed again in the same
 * process, fell from 27 to 8 µs over the next 300 rounds: a transient of
 * the process, not a draw. */
#define DISTURBED_READING 2.0

/* One constant of the session, the mean of its readings (constants.csv's
 * phases, and graph-start.csv's where the session has it) less those
 * disturbed; -1 if absent. */
int card_constant(const session *s, const char *name, double *value);

/* card_constant, and how many readings it left out as disturbed. */
int card_constant_readings(const session *s, const char *name, double *value, int *left_out);

/* Write `m` as the preset file `path`, saying where each value comes from
 * (s, or `other` for a borrowed term); a code machine (issue_rate > 0)
 * with its instruction stream's terms too. */
int card_write_preset(const machine *m, const session *s, const session *other, const char *path);

#endif
