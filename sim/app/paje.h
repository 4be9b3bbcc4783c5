/*
 * paje.h — a schedule as a Paje trace (pajeng, ViTE).
 *
 * Reads the trace CSV the engine writes (`--trace`: kernel,block,sm,start,
 * end per thread-block) and writes a Paje trace: the machine a container
 * holding one container per SM (one per resident slot when blocks_per_sm
 * > 1, since a Paje state is one at a time), each block a state whose
 * value is its kernel, from its start to its end (cycles as Paje time).
 * Paje wants its events in time order, so the rows are read and sorted:
 * at most PAJE_BLOCKS_MAX of them.
 */
#ifndef MCM_PAJE_H
#define MCM_PAJE_H

#define PAJE_BLOCKS_MAX 2000000

/* Write `paje_path` from `csv_path`; -1 with fail() on a bad or too large
 * trace or a write error (then no file is left at paje_path). */
int paje_from_trace(const char *csv_path, const char *paje_path, const char *title);

#endif
