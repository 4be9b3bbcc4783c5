/*
 * exec_test.h — exec mode's hooks for the tests alone: no part of mcmsim
 * calls them, and a run that never calls them runs as if they were not.
 */
#ifndef MCM_EXEC_TEST_H
#define MCM_EXEC_TEST_H

#include <stdint.h>

/* Every worker made after this call starts its step stamps after `stamp`
 * (exec_block.step_stamp, 0 unless a test sets it), so that a test can
 * run a program's steps across the stamps' wrap (exec.c, next_step).  An
 * exec process forked after it inherits it (exec_process.c). */
void exec_test_stamps_after(uint32_t stamp);

#endif
