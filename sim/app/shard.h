/*
 * shard.h — a sweep cut across machines, and put back together.
 *
 *   mcmsim run FILE.cfg --format csv --shard K/N > part-K.csv   # on machine K, K = 1 .. N
 *   mcmsim merge part-*.csv > all.csv
 *
 * Shard K of N simulates the sweep's points K, K + N, K + 2N, ... (from
 * 1, in the sweep's order) and writes their CSV rows under the header the
 * whole run writes (its columns come from every point's params, which a
 * shard reads without simulating them), after one line that says which
 * shard of which run it is:
 *
 *   # mcmsim shard K/N of FILE.cfg: P points
 *   # mcmsim shard K/N of FILE.cfg: P points with --set n=64 --exec
 *
 * (the options that change a point's figures after "with": each --set by
 * its key as the loader resolves it, P and machine.p as p, in key order,
 * then --exec; a --set holds no line break).  The merge takes the N files in any order, checks
 * that they are the N shards of one run (the same line but K, options
 * included, the same header, the rows each shard owes), and writes the header and every row in the sweep's order:
 * byte for byte the CSV one machine writes.  Anything else is refused with
 * the file and the rule.
 */
#ifndef MCM_SHARD_H
#define MCM_SHARD_H

#include <stdio.h>

/* "K/N" (1 <= K <= N): 0, or -1 with fail(). */
int shard_parse(const char *text, long *k, long *n);

/* The line a shard's CSV starts with; `options` the run's options that
 * change its figures ("" without). */
void shard_print_line(FILE *out, long k, long n, const char *run_file, long points, const char *options);

/* Merge the shards files[0 .. n_files) onto out: 0, or -1 with fail()
 * (nothing written then). */
int shard_merge(FILE *out, char *const *files, int n_files);

#endif
