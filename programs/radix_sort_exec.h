/*
 * radix_sort_exec.h — radix sort in exec mode on keys the caller gives
 * (programs/radix_sort_exec.c), so that a test can choose its input, e.g.
 * keys whose digits agree, where every transfer is predictable.
 */
#ifndef MCM_RADIX_SORT_EXEC_H
#define MCM_RADIX_SORT_EXEC_H

#include "exec_programs.h"

/* Sort the n = params' n keys `keys` (c-bit words) in `run`, exactly as the
 * exec-mode program 'radix-sort' sorts its random ones; 0 when the result
 * equals qsort's, -1 with fail() otherwise or on a refused point. */
int radix_sort_exec_keys(const vars *params, const machine *m, exec_run *run, const word *keys);

#endif
