/*
 * machine.h — the MCM abstract machine (SPEC §1) and where it comes from.
 *
 * A machine is P streaming multiprocessors, each running one thread-block
 * at a time with a private memory of Z words, and a global memory reached at
 * U cycles per word.  How the global memory serves the requests of
 * different blocks is a policy:
 *   parallel   every SM moves its words on its own (Theorem 1 holds);
 *   exclusive  one block's transfer at a time; simultaneous requests are
 *              served in a seeded random order (thesis line 1442);
 *   shared     each SM moves at most 1/U words per cycle and all transfers
 *              in flight share `bandwidth` words per cycle fairly (default
 *              P/U, which makes `shared` equal to `parallel`).
 * Settings beyond the papers default to values that keep the pure model.
 *
 * Machines are read from libconfig files (presets live next to this file)
 * or from an inline `machine` group of a run file, and any field can be
 * overridden by name (`--set p=32`).  This module knows nothing of SimGrid
 * except through machine_write_platform().
 */
#ifndef MCM_MACHINE_H
#define MCM_MACHINE_H

#include <libconfig.h>
#include <stdint.h>
#include <stdio.h>

typedef enum { MEM_PARALLEL, MEM_EXCLUSIVE, MEM_SHARED } memory_policy;
typedef enum { ORDER_FIFO, ORDER_RANDOM } block_order;

typedef struct machine {
    char name[64];
    int p;                 /* P: streaming multiprocessors */
    double u;              /* U: cycles to move one word global <-> private */
    double z;              /* Z: words of private memory per SM */
    memory_policy policy;  /* how global memory serves different blocks */
    double bandwidth;      /* `shared` only: words per cycle; 0 means P/U */
    double launch_latency; /* cycles between a kernel's release and launch */
    double clock_hz;       /* only to print times in seconds */
    block_order order;     /* which ready block an idle SM takes */
    uint64_t seed;         /* seeds `random` order and `exclusive` ties */
    int warp;              /* threads per warp (coalescing, DMM/UMM) */
} machine;

/* The abstract default: the `mcm` preset's values. */
void machine_defaults(machine *m);

/* Read the machine fields of a libconfig group; `where` names the place in
 * messages (e.g. "run.cfg:3: machine").  Unknown keys are errors. */
int machine_read_group(machine *m, const config_setting_t *group);

/* "file:line" of a config setting, for messages. */
void setting_where(const config_setting_t *s, char *out, size_t size);

/* Load a machine file (a preset): the defaults, then the fields of the
 * file's one `machine` group. */
int machine_load_file(machine *m, const char *path);

/* Full path of the preset called `name` (e.g. "gtx670"), in `out`. */
void machine_preset_path(const char *name, char *out, size_t size);

/* Directory that holds the presets. */
const char *machine_preset_dir(void);

/* Set one field by name from text, as `--set` does.  Returns 1 if `key` is
 * a machine field and was set, 0 if it is not a machine field, -1 on a bad
 * value. */
int machine_set_field(machine *m, const char *key, const char *value);

/* Check the rules every machine obeys (P > 0, U > 0, Z > 0, ...). */
int machine_validate(const machine *m);

/* The `shared` channel's bandwidth in words per cycle (P/U by default). */
double machine_bandwidth(const machine *m);

const char *memory_policy_name(memory_policy p);
const char *block_order_name(block_order o);

/* The one door to SimGrid: write a SimGrid platform (XML) for this machine.
 * It has hosts "sm0".."sm<sm_hosts-1>" (speed 1 op per cycle: one simulated
 * second is one cycle) and "global_memory"; each SM reaches global memory
 * through its own link of 1/U words per cycle and, for `shared`, through the
 * common channel of machine_bandwidth() words per cycle (computed from all P
 * SMs).  One byte of SimGrid traffic stands for one word.  sm_hosts <= P:
 * the engine leaves out SMs that can never be busy. */
int machine_write_platform(const machine *m, int sm_hosts, FILE *out);

#endif
