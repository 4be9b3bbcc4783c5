/*
 * runfile.h — a run file: which machine, which program, which points.
 *
 *   machine = "gtx670";                 // a preset, a path to a machine
 *                                       // file, or an inline group
 *   program = { name = "sum"; params = { n = 1048576; l = 256; }; };
 *   sweep = { n = [65536, 1048576]; policy = ["parallel", "shared"]; };
 *
 * `--set key=value` overrides a param or a machine field (`machine.key` and
 * `params.key` say which when a name is both); a key that is swept is
 * pinned to the value set.  The key `program` may be swept too (each
 * program takes its own defaults for the params the group does not give),
 * and so may `machine` (a preset or a machine file per value, in place of
 * the run file's machine); `--set machine=NAME|FILE` (the command's
 * --machine) takes the machine from the command line, a FILE relative to
 * the current folder.  An optional `compare` group states a conclusion
 * (sim/app/compare.c).  A sweep runs the cross product of its lists, the last
 * key varying fastest.  Every value is read with its type and range
 * (config_file.h): a sweep's string is never a number, nor its number a
 * name.
 */
#ifndef MCM_RUNFILE_H
#define MCM_RUNFILE_H

#include "formula.h"
#include "machine.h"

#include <libconfig.h>

#define SWEEP_AXES_MAX 8
#define SWEEP_VALUES_MAX 256
#define SWEEP_POINTS_MAX 100000 /* the product of the axes' lengths */

typedef struct sweep_axis {
    char key[64];
    int line;                         /* where the sweep gives it */
    int n;
    char value[SWEEP_VALUES_MAX][64]; /* as text: numbers or names */
    unsigned char is_text[SWEEP_VALUES_MAX]; /* 1: written as a string */
} sweep_axis;

#define SETS_MAX 32

typedef struct run_file {
    char path[1024];
    config_t cfg;
    const config_setting_t *program;  /* the `program` group */
    const config_setting_t *compare;  /* the `compare` group, or NULL */
    machine machine;                  /* the run file's machine, before --set */
    machine set_machine;              /* --set machine=... (--machine), when has_set_machine */
    int has_set_machine;
    machine *axis_machines;           /* per value of a sweep over `machine`, or NULL */
    int n_sets;                       /* --set assignments, applied per point */
    char set_key[SETS_MAX][64], set_value[SETS_MAX][128];
    char set_field[SETS_MAX][72];     /* each key as the loader resolves it: "p" for P and machine.p, "n" for
                                       * params.n ("machine.p" where a param is named p too) */
    int n_axes;
    sweep_axis axes[SWEEP_AXES_MAX];
} run_file;

/* Load `path` with the `--set` assignments ("key=value" each), and check
 * every point: after this succeeds, runfile_point() cannot fail.  Call
 * runfile_close() after it, whatever it returned. */
int runfile_load(run_file *rf, const char *path, char **sets, int n_sets);

/* Number of points (1 without a sweep). */
long runfile_points(const run_file *rf);

/* Machine, params and program name of point i (0 <= i < runfile_points).
 * The key `program` may be swept or set: it names a built-in program. */
int runfile_point(const run_file *rf, long i, machine *m, vars *params, const char **program);

/* The value (as text) that sweep key `a` takes at point i, and its index
 * in the key's list. */
const char *runfile_axis_value(const run_file *rf, long i, int a);
int runfile_axis_index(const run_file *rf, long i, int a);

/* The keys of a run file's top level, NULL-terminated. */
const char *const *runfile_top_keys(void);

void runfile_close(run_file *rf);

#endif
