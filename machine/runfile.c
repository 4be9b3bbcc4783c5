/*
 * runfile.c — reading a run file and expanding its sweep (see runfile.h).
 *
 * Invariant: after runfile_load() succeeds, every sweep key names a param
 * or a machine field, so runfile_point() can only fail on a bad value.
 */
#include "runfile.h"
#include "fail.h"
#include "program.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const top_keys[] = {"machine", "program", "sweep", "compare", "description", NULL};

static void dirname_of(const char *path, char *out, size_t size)
{
    snprintf(out, size, "%s", path);
    char *slash = strrchr(out, '/');
    if (slash)
        *slash = '\0';
    else
        snprintf(out, size, ".");
}

/* `machine = "name"`: a preset; `machine = "x/y.cfg"`: a file, relative to
 * the run file's directory. */
static int load_machine_ref(machine *m, const char *ref, const char *runfile)
{
    char path[2048];
    if (strchr(ref, '/') || strstr(ref, ".cfg")) {
        char dir[1024];
        dirname_of(runfile, dir, sizeof dir);
        if (ref[0] == '/')
            snprintf(path, sizeof path, "%s", ref);
        else
            snprintf(path, sizeof path, "%s/%s", dir, ref);
    } else {
        machine_preset_path(ref, path, sizeof path);
        FILE *f = fopen(path, "r");
        if (!f)
            return fail("%s: machine \"%s\" is not a preset (presets are in %s; "
                        "`mcmsim list` shows them)", runfile, ref, machine_preset_dir());
        fclose(f);
    }
    return machine_load_file(m, path);
}

static int load_machine(run_file *rf)
{
    machine_defaults(&rf->machine);
    const config_setting_t *s = config_lookup(&rf->cfg, "machine");
    if (!s)
        return 0;
    if (config_setting_type(s) == CONFIG_TYPE_STRING)
        return load_machine_ref(&rf->machine, config_setting_get_string(s), rf->path);
    const char *preset, *name;
    int has_preset = config_setting_is_group(s) && config_setting_lookup_string(s, "preset", &preset);
    if (has_preset && load_machine_ref(&rf->machine, preset, rf->path) < 0)
        return -1;
    if (!has_preset && !(config_setting_is_group(s) && config_setting_lookup_string(s, "name", &name))) {
        char where[256];
        setting_where(s, where, sizeof where);
        snprintf(rf->machine.name, sizeof rf->machine.name, "the inline machine group at %s", where);
    }
    return machine_read_group(&rf->machine, s);
}

/* Apply key=value to machine m / params v.  Returns -1 on an unknown key
 * or a bad value. */
static int assign(machine *m, vars *v, const char *key, const char *value, const char *where)
{
    int force_machine = strncmp(key, "machine.", 8) == 0;
    int force_params = strncmp(key, "params.", 7) == 0;
    const char *bare = force_machine ? key + 8 : force_params ? key + 7 : key;
    if (!force_machine && vars_get(v, bare)) {
        char *end;
        errno = 0;
        double x = strtod(value, &end);
        if (end == value || *end || errno || !isfinite(x))
            return fail("%s: param '%s' needs a number, not \"%s\"", where, bare, value);
        return vars_set(v, bare, x);
    }
    if (!force_params) {
        int r = machine_set_field(m, bare, value);
        if (r != 0)
            return r < 0 ? -1 : 0;
    }
    char names[512] = "";
    for (int i = 0; i < v->n; i++) {
        size_t len = strlen(names);
        snprintf(names + len, sizeof names - len, "%s%s", i ? ", " : "", v->name[i]);
    }
    return fail("%s: unknown key '%s': not a param of the program (params: %s) nor a machine "
                "field (%s)", where, key, names[0] ? names : "none", machine_field_names());
}

static int read_sweep(run_file *rf)
{
    const config_setting_t *sweep = config_lookup(&rf->cfg, "sweep");
    if (!sweep)
        return 0;
    char where[512];
    setting_where(sweep, where, sizeof where);
    if (!config_setting_is_group(sweep))
        return fail("%s: sweep must be a group { key = [v1, v2, ...]; ... }", where);
    for (int a = 0; a < config_setting_length(sweep); a++) {
        const config_setting_t *s = config_setting_get_elem(sweep, (unsigned)a);
        setting_where(s, where, sizeof where);
        if (rf->n_axes == SWEEP_AXES_MAX)
            return fail("%s: at most %d sweep keys", where, SWEEP_AXES_MAX);
        sweep_axis *axis = &rf->axes[rf->n_axes++];
        snprintf(axis->key, sizeof axis->key, "%s", config_setting_name(s));
        int n = config_setting_length(s);
        if (!(config_setting_is_array(s) || config_setting_is_list(s)) || n == 0 || n > SWEEP_VALUES_MAX)
            return fail("%s: sweep key '%s' needs a list of 1 to %d values [v1, v2, ...]", where,
                        axis->key, SWEEP_VALUES_MAX);
        axis->n = n;
        for (int j = 0; j < n; j++) {
            const config_setting_t *e = config_setting_get_elem(s, (unsigned)j);
            switch (config_setting_type(e)) {
            case CONFIG_TYPE_INT:
            case CONFIG_TYPE_INT64:
                snprintf(axis->value[j], 64, "%lld", config_setting_get_int64(e));
                break;
            case CONFIG_TYPE_FLOAT:
                snprintf(axis->value[j], 64, "%.17g", config_setting_get_float(e));
                break;
            case CONFIG_TYPE_STRING:
                snprintf(axis->value[j], 64, "%s", config_setting_get_string(e));
                break;
            default:
                return fail("%s: sweep values must be numbers or strings", where);
            }
        }
    }
    double points = 1;
    for (int a = 0; a < rf->n_axes; a++)
        points *= rf->axes[a].n;
    if (points > SWEEP_POINTS_MAX) {
        setting_where(sweep, where, sizeof where);
        return fail("%s: the sweep has %.0f points, but a run takes at most %d (every point is "
                    "checked before the first runs, and each is a simulation of its own)", where,
                    points, SWEEP_POINTS_MAX);
    }
    return 0;
}

static int check_top_keys(run_file *rf)
{
    config_setting_t *root = config_root_setting(&rf->cfg);
    for (int i = 0; i < config_setting_length(root); i++) {
        const config_setting_t *s = config_setting_get_elem(root, (unsigned)i);
        int known = 0;
        for (int j = 0; top_keys[j]; j++)
            known |= strcmp(config_setting_name(s), top_keys[j]) == 0;
        if (!known) {
            char where[512];
            setting_where(s, where, sizeof where);
            return fail("%s: unknown key '%s' (a run file has machine, program, sweep, "
                        "compare, description)", where, config_setting_name(s));
        }
    }
    return 0;
}

/* Record the --set assignments; a swept key that is set is pinned. */
static int read_sets(run_file *rf, char **sets, int n_sets)
{
    for (int i = 0; i < n_sets; i++) {
        const char *eq = strchr(sets[i], '=');
        size_t len = eq ? (size_t)(eq - sets[i]) : 0;
        if (!eq || len == 0 || len >= sizeof rf->set_key[0] || strlen(eq + 1) >= sizeof rf->set_value[0])
            return fail("--set %s: expected key=value", sets[i]);
        if (rf->n_sets == SETS_MAX)
            return fail("--set %s: at most %d --set options", sets[i], SETS_MAX);
        memcpy(rf->set_key[rf->n_sets], sets[i], len);
        rf->set_key[rf->n_sets][len] = '\0';
        snprintf(rf->set_value[rf->n_sets], sizeof rf->set_value[0], "%s", eq + 1);
        for (int a = 0; a < rf->n_axes; a++)
            if (strcmp(rf->axes[a].key, rf->set_key[rf->n_sets]) == 0) {
                rf->axes[a] = rf->axes[--rf->n_axes];
                a--;
            }
        rf->n_sets++;
    }
    return 0;
}

int runfile_load(run_file *rf, const char *path, char **sets, int n_sets)
{
    memset(rf, 0, sizeof *rf);
    snprintf(rf->path, sizeof rf->path, "%s", path);
    config_init(&rf->cfg);
    if (!config_read_file(&rf->cfg, path)) {
        if (config_error_type(&rf->cfg) == CONFIG_ERR_FILE_IO)
            return fail("%s: cannot read the run file (missing or unreadable)", path);
        return fail("%s:%d: syntax error: %s",
                    config_error_file(&rf->cfg) ? config_error_file(&rf->cfg) : path,
                    config_error_line(&rf->cfg), config_error_text(&rf->cfg));
    }
    if (check_top_keys(rf) < 0 || load_machine(rf) < 0)
        return -1;
    rf->program = config_lookup(&rf->cfg, "program");
    rf->compare = config_lookup(&rf->cfg, "compare");
    if (!rf->program)
        return fail("%s: no program group (program = { name = ...; ... };)", path);
    if (read_sweep(rf) < 0 || read_sets(rf, sets, n_sets) < 0)
        return -1;
    for (long i = 0; i < runfile_points(rf); i++) { /* every point, before any runs */
        machine m;
        vars v;
        const char *name;
        if (runfile_point(rf, i, &m, &v, &name) < 0)
            return -1;
    }
    return 0;
}

long runfile_points(const run_file *rf)
{
    long n = 1;
    for (int a = 0; a < rf->n_axes; a++)
        n *= rf->axes[a].n;
    return n;
}

int runfile_point(const run_file *rf, long i, machine *m, vars *params, const char **program)
{
    const char *name = NULL;
    for (int s = 0; s < rf->n_sets; s++)
        if (strcmp(rf->set_key[s], "program") == 0)
            name = rf->set_value[s];
    for (int a = 0; a < rf->n_axes; a++)
        if (strcmp(rf->axes[a].key, "program") == 0)
            name = runfile_axis_value(rf, i, a);
    if (name && !builtin_find(name))
        return fail("%s: program '%s' is not a built-in program (`mcmsim list` shows them)",
                    rf->path, name);
    *program = program_name(rf->program, name);
    *m = rf->machine;
    if (program_params(rf->program, name, params) < 0)
        return -1;
    char where[1200];
    for (int s = 0; s < rf->n_sets; s++) {
        if (strcmp(rf->set_key[s], "program") == 0)
            continue;
        snprintf(where, sizeof where, "--set %s=%s", rf->set_key[s], rf->set_value[s]);
        if (assign(m, params, rf->set_key[s], rf->set_value[s], where) < 0)
            return -1;
    }
    for (int a = 0; a < rf->n_axes; a++) {
        if (strcmp(rf->axes[a].key, "program") == 0)
            continue;
        snprintf(where, sizeof where, "%s: sweep %s (program '%s')", rf->path, rf->axes[a].key, *program);
        if (assign(m, params, rf->axes[a].key, runfile_axis_value(rf, i, a), where) < 0)
            return -1;
    }
    return 0;
}

const char *runfile_axis_value(const run_file *rf, long i, int a)
{
    for (int b = rf->n_axes - 1; b > a; b--)
        i /= rf->axes[b].n;
    return rf->axes[a].value[i % rf->axes[a].n];
}

void runfile_close(run_file *rf) { config_destroy(&rf->cfg); }
