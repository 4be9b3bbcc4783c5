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
 * pinned to the value set.  A sweep runs the cross product of its lists,
 * the last key varying fastest.
 */
#ifndef MCM_RUNFILE_H
#define MCM_RUNFILE_H

#include "formula.h"
#include "machine.h"

#include <libconfig.h>

#define SWEEP_AXES_MAX 8
#define SWEEP_VALUES_MAX 256

typedef struct sweep_axis {
    char key[64];
    int n;
    char value[SWEEP_VALUES_MAX][64]; /* as text: numbers or policy names */
} sweep_axis;

typedef struct run_file {
    char path[1024];
    config_t cfg;
    const config_setting_t *program;
    machine machine;      /* after --set */
    vars params;          /* after --set */
    int n_axes;
    sweep_axis axes[SWEEP_AXES_MAX];
} run_file;

/* Load `path` and apply the `--set` assignments ("key=value" each). */
int runfile_load(run_file *rf, const char *path, char **sets, int n_sets);

/* Number of points (1 without a sweep). */
long runfile_points(const run_file *rf);

/* Machine and params of point i (0 <= i < runfile_points). */
int runfile_point(const run_file *rf, long i, machine *m, vars *params);

/* The value (as text) that sweep key `a` takes at point i. */
const char *runfile_axis_value(const run_file *rf, long i, int a);

void runfile_close(run_file *rf);

#endif
