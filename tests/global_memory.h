/*
 * global_memory.h — how a thread-block's words travel between global memory
 * and its SM, under the machine's policy (SPEC §1).
 *
 * Called only from inside an SM actor; the call returns when the transfer
 * is over, simulated time having advanced accordingly.
 */
#ifndef MCM_GLOBAL_MEMORY_H
#define MCM_GLOBAL_MEMORY_H

#include "machine.h"
#include <simgrid/forward.h>

/* Set up for machine m whose (simulated) SMs are sm_hosts[0..sms-1]; for
 * `exclusive` this starts the memory controller actor on host `memory`. */
void global_memory_start(const machine *m, int sms, sg_host_t *sm_hosts, sg_host_t memory);

/* Move `cycles`/U words for SM `sm` (at most 1/U words per cycle), reading
 * (to the SM) or writing (to global memory). */
void global_memory_transfer(int sm, double cycles, int is_read);

void global_memory_stop(void);

#endif
