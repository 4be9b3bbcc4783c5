/*
 * runfile.c — reading a run file and expanding its sweep (see runfile.h).
 *
 * Invariant: after runfile_load() succeeds, every sweep key names a param,
 * a machine field, `program` or `machine`, and every machine a point can
 * take is loaded, so runfile_point() can only fail on a bad value.
 */
#include "runfile.h"
#include "compare.h"
#include "fail.h"
#include "program.h"

#include <stdlib.h>
#include <string.h>

static const char *const top_keys[] = {"machine", "program", "sweep", "compare", "description", NULL};

const char *const *runfile_top_keys(void) { return top_keys; }

static void dirname_of(const char *path, char *out, size_t size)
{
    snprintf(out, size, "%s", path);
    char *slash = strrchr(out, '/');
    if (slash)
        *slash = '\0';
    else
        snprintf(out, size, ".");
}

/* "h100": a preset; "x/y.cfg": a machine file, relative to the folder of
 * `runfile` (NULL: to the current folder, as the command line gives it).
 * `where` names the place in messages. */
static int load_machine_ref(machine *m, const char *ref, const char *runfile, const char *where)
{
    char path[2048];
    if (strchr(ref, '/') || strstr(ref, ".cfg")) {
        char dir[1024];
        dirname_of(runfile ? runfile : ".", dir, sizeof dir);
        if (ref[0] == '/' || !runfile)
            snprintf(path, sizeof path, "%s", ref);
        else
            snprintf(path, sizeof path, "%s/%s", dir, ref);
    } else {
        machine_preset_path(ref, path, sizeof path);
        FILE *f = fopen(path, "r");
        if (!f)
            return fail("%s: machine \"%s\" is not a preset (presets are in %s; `mcmsim list` shows them) "
                        "nor a machine file (a path with a / or ending in .cfg)", where, ref, machine_preset_dir());
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
    char where[1100];
    setting_where(s, where, sizeof where);
    if (config_setting_type(s) == CONFIG_TYPE_STRING)
        return load_machine_ref(&rf->machine, config_setting_get_string(s), rf->path, where);
    if (!config_setting_is_group(s))
        return setting_wrong_type(s, "machine", "a preset name, a machine file or a group { p = ...; ... }");
    const char *preset = NULL, *name = NULL;
    if (member_string(s, "preset", "machine preset", 255, &preset) < 0)
        return -1;
    if (preset) {
        char at[1100];
        setting_where(config_setting_get_member(s, "preset"), at, sizeof at);
        if (load_machine_ref(&rf->machine, preset, rf->path, at) < 0)
            return -1;
    }
    if (!preset && !config_setting_lookup_string(s, "name", &name))
        snprintf(rf->machine.name, sizeof rf->machine.name, "the inline machine group at %.280s", where);
    return machine_read_group(&rf->machine, s);
}

/* Key without its "machine." or "params." prefix, which *force_machine
 * or *force_params says it had. */
static const char *bare_key(const char *key, int *force_machine, int *force_params)
{
    *force_machine = strncmp(key, "machine.", 8) == 0;
    *force_params = strncmp(key, "params.", 7) == 0;
    return *force_machine ? key + 8 : *force_params ? key + 7 : key;
}

/* What `key` sets at a point whose params are v, as assign() reads it:
 * "param 'n'", or "machine key 'p'" by the field's own key (P, machine.p
 * and p set one field); an unknown key is itself. */
static void key_target(const vars *v, const char *key, char *out, size_t size)
{
    int force_machine, force_params;
    const char *bare = bare_key(key, &force_machine, &force_params);
    const char *field = machine_field_key(bare);
    if (!force_machine && vars_get(v, bare))
        snprintf(out, size, "param '%s'", bare);
    else if (!force_params && field)
        snprintf(out, size, "machine key '%s'", field);
    else
        snprintf(out, size, "%s", key);
}

/* What `key` sets at a point whose params are v, as one key names it
 * however it was typed: a param by its name, a machine field by its own
 * key ("machine.KEY" where a param has that name); another key as is. */
static void key_field(const vars *v, const char *key, char *out, size_t size)
{
    int force_machine, force_params;
    const char *bare = bare_key(key, &force_machine, &force_params);
    const char *field = machine_field_key(bare);
    if (!force_machine && vars_get(v, bare))
        snprintf(out, size, "%s", bare);
    else if (!force_params && field)
        snprintf(out, size, "%s%s", vars_get(v, field) ? "machine." : "", field);
    else
        snprintf(out, size, "%s", key);
}

/* Apply key=value to machine m / params v.  `typed`: the value comes from
 * a sweep, where a string and a number are told apart (a --set value is
 * text either way).  Returns -1 on an unknown key or a bad value. */
static int assign(machine *m, vars *v, const char *key, const char *value, int typed, int is_text,
                  const char *where)
{
    int force_machine, force_params;
    const char *bare = bare_key(key, &force_machine, &force_params);
    char what[128];
    if (!force_machine && vars_get(v, bare)) {
        snprintf(what, sizeof what, "param '%s'", bare);
        double x;
        int rc = typed && is_text ? 1 : text_number(value, where, what, &x);
        if (rc > 0)
            return fail("%s: param '%s' needs a number, not \"%s\"", where, bare, value);
        return rc < 0 ? -1 : vars_set(v, bare, x);
    }
    int number = machine_field_is_number(bare);
    if (!force_params && number >= 0) {
        if (typed && number != !is_text)
            return fail("%s: machine key '%s' takes %s, not %s%s%s", where, bare, number ? "a number" : "a string",
                        is_text ? "the string \"" : "the number ", value, is_text ? "\"" : "");
        return machine_set_field_at(m, bare, value, where) < 0 ? -1 : 0;
    }
    char names[512] = "";
    for (int i = 0; i < v->n; i++) {
        size_t len = strlen(names);
        snprintf(names + len, sizeof names - len, "%s%s", i ? ", " : "", v->name[i]);
    }
    return fail("%s: unknown key '%s': not a param of the program (params: %s) nor a machine "
                "field (%s)", where, key, names[0] ? names : "none", machine_field_names());
}

/* One sweep value into axis->value[j]: a number or a string, nothing else. */
static int read_sweep_value(sweep_axis *axis, int j, const config_setting_t *e)
{
    char where[512];
    setting_where(e, where, sizeof where);
    switch (config_setting_type(e)) {
    case CONFIG_TYPE_INT:
    case CONFIG_TYPE_INT64:
        snprintf(axis->value[j], sizeof axis->value[j], "%lld", config_setting_get_int64(e));
        return 0;
    case CONFIG_TYPE_FLOAT:
        snprintf(axis->value[j], sizeof axis->value[j], "%.17g", config_setting_get_float(e));
        return 0;
    case CONFIG_TYPE_STRING:
        if (strlen(config_setting_get_string(e)) >= sizeof axis->value[j])
            return fail("%s: sweep %s: a value of %zu characters, out of range: at most %zu", where, axis->key,
                        strlen(config_setting_get_string(e)), sizeof axis->value[j] - 1);
        snprintf(axis->value[j], sizeof axis->value[j], "%s", config_setting_get_string(e));
        axis->is_text[j] = 1;
        return 0;
    default: {
        char shown[128];
        return fail("%s: sweep %s: values must be numbers or strings, not %s", where, axis->key,
                    setting_shown(e, shown, sizeof shown));
    }
    }
}

static int read_sweep(run_file *rf)
{
    const config_setting_t *sweep = config_lookup(&rf->cfg, "sweep");
    if (!sweep)
        return 0;
    char where[512];
    setting_where(sweep, where, sizeof where);
    if (!config_setting_is_group(sweep))
        return setting_wrong_type(sweep, "sweep", "a group { key = [v1, v2, ...]; ... }");
    for (int a = 0; a < config_setting_length(sweep); a++) {
        const config_setting_t *s = config_setting_get_elem(sweep, (unsigned)a);
        setting_where(s, where, sizeof where);
        if (rf->n_axes == SWEEP_AXES_MAX)
            return fail("%s: at most %d sweep keys", where, SWEEP_AXES_MAX);
        sweep_axis *axis = &rf->axes[rf->n_axes++];
        snprintf(axis->key, sizeof axis->key, "%s", config_setting_name(s));
        axis->line = (int)config_setting_source_line(s);
        int n = config_setting_length(s);
        if (!(config_setting_is_array(s) || config_setting_is_list(s)) || n == 0 || n > SWEEP_VALUES_MAX)
            return fail("%s: sweep key '%s' needs a list of 1 to %d values [v1, v2, ...]", where,
                        axis->key, SWEEP_VALUES_MAX);
        axis->n = n;
        int names = strcmp(axis->key, "program") == 0 || strcmp(axis->key, "machine") == 0;
        for (int j = 0; j < n; j++) {
            const config_setting_t *e = config_setting_get_elem(s, (unsigned)j);
            if (read_sweep_value(axis, j, e) < 0)
                return -1;
            if (names && !axis->is_text[j])
                return setting_wrong_type(e, strcmp(axis->key, "program") == 0 ? "sweep program" : "sweep machine",
                                          strcmp(axis->key, "program") == 0 ? "a string: a built-in program's name"
                                                                            : "a string: a preset or a machine file");
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

/* The top-level keys: known ones only, each of its type. */
static int check_top_keys(run_file *rf)
{
    config_setting_t *root = config_root_setting(&rf->cfg);
    const char *description;
    if (members_known(root, top_keys, "") < 0 ||
        member_string(root, "description", "description", 4096, &description) < 0)
        return -1;
    const config_setting_t *program = config_lookup(&rf->cfg, "program");
    if (program && !config_setting_is_group(program))
        return setting_wrong_type(program, "program", "a group { name = ...; ... }");
    const config_setting_t *compare = config_lookup(&rf->cfg, "compare");
    return compare ? compare_check(compare) : 0;
}

/* Sweep key a is pinned: gone from the sweep, the others in their order
 * (the last still varying fastest). */
static void drop_axis(run_file *rf, int a)
{
    memmove(&rf->axes[a], &rf->axes[a + 1], (size_t)(rf->n_axes - a - 1) * sizeof rf->axes[0]);
    rf->n_axes--;
}

/* Record the --set assignments; a swept key that is set is pinned.  The
 * program and the machine are given at most once each. */
static int read_sets(run_file *rf, char **sets, int n_sets)
{
    for (int i = 0; i < n_sets; i++) {
        const char *eq = strchr(sets[i], '=');
        size_t len = eq ? (size_t)(eq - sets[i]) : 0;
        if (!eq || len == 0)
            return fail("--set %s: expected key=value", sets[i]);
        int long_key = len >= sizeof rf->set_key[0];
        size_t got = long_key ? len : strlen(eq + 1);
        size_t most = (long_key ? sizeof rf->set_key[0] : sizeof rf->set_value[0]) - 1;
        if (got > most)
            return fail("--set %.*s=...: a %s of %zu characters, out of range: at most %zu",
                        (int)(long_key ? sizeof rf->set_key[0] : len), sets[i], long_key ? "key" : "value", got,
                        most);
        if (rf->n_sets == SETS_MAX)
            return fail("--set %s: at most %d --set options", sets[i], SETS_MAX);
        if (sets[i][strcspn(sets[i], "\r\n")])
            return fail("--set %.*s=...: its value holds a line break: a --set is one line, as a shard's line "
                        "and a CSV header are", (int)strcspn(sets[i], "=\r\n"), sets[i]);
        char *key = rf->set_key[rf->n_sets];
        memcpy(key, sets[i], len);
        key[len] = '\0';
        memcpy(rf->set_field[rf->n_sets], key, len + 1); /* as typed; pin_by_target resolves it */
        snprintf(rf->set_value[rf->n_sets], sizeof rf->set_value[0], "%s", eq + 1);
        for (int s = 0; s < rf->n_sets && (strcmp(key, "program") == 0 || strcmp(key, "machine") == 0); s++)
            if (strcmp(rf->set_key[s], key) == 0)
                return fail("--set %s: the %s is given twice (%s, then %s%s): one at a time", sets[i], key,
                            rf->set_value[s], rf->set_value[rf->n_sets],
                            key[0] == 'm' ? "; --machine is --set machine=" : "");
        for (int a = 0; a < rf->n_axes; a++)
            if (strcmp(rf->axes[a].key, key) == 0)
                drop_axis(rf, a--);
        rf->n_sets++;
    }
    return 0;
}

/* A swept key that a --set names another way (P for p, machine.p,
 * params.n) is pinned too, as the first point reads both keys; one that
 * differs at another point (a swept program's params) is refused by
 * runfile_point.  Each --set's set_field is its key as that point reads
 * it. */
static int pin_by_target(run_file *rf)
{
    const char *name = NULL;
    for (int s = 0; s < rf->n_sets; s++)
        if (strcmp(rf->set_key[s], "program") == 0)
            name = rf->set_value[s];
    for (int a = 0; a < rf->n_axes && !name; a++)
        if (strcmp(rf->axes[a].key, "program") == 0)
            name = rf->axes[a].value[0];
    vars v;
    if ((name && !builtin_find(name)) || program_params(rf->program, name, &v) < 0) {
        fail_clear(); /* runfile_point says why */
        return 0;
    }
    for (int s = 0; s < rf->n_sets; s++) {
        char set[96], swept[96];
        key_field(&v, rf->set_key[s], rf->set_field[s], sizeof rf->set_field[s]);
        key_target(&v, rf->set_key[s], set, sizeof set);
        for (int a = 0; a < rf->n_axes; a++) {
            key_target(&v, rf->axes[a].key, swept, sizeof swept);
            if (strcmp(set, swept) == 0)
                drop_axis(rf, a--);
        }
    }
    return 0;
}

/* The machines a point can take beside the run file's: the one --set
 * machine=... (or --machine) names, and each value of a sweep over
 * `machine`, loaded once here. */
static int load_other_machines(run_file *rf)
{
    char where[1200];
    for (int s = 0; s < rf->n_sets; s++)
        if (strcmp(rf->set_key[s], "machine") == 0) {
            snprintf(where, sizeof where, "--machine %s", rf->set_value[s]);
            if (load_machine_ref(&rf->set_machine, rf->set_value[s], NULL, where) < 0)
                return -1;
            rf->has_set_machine = 1;
        }
    for (int a = 0; a < rf->n_axes; a++) {
        sweep_axis *axis = &rf->axes[a];
        if (strcmp(axis->key, "machine") != 0)
            continue;
        rf->axis_machines = calloc((size_t)axis->n, sizeof *rf->axis_machines);
        if (!rf->axis_machines)
            return fail("out of memory");
        for (int j = 0; j < axis->n; j++) {
            snprintf(where, sizeof where, "%s:%d: sweep machine", rf->path, axis->line);
            if (load_machine_ref(&rf->axis_machines[j], axis->value[j], rf->path, where) < 0)
                return -1;
        }
    }
    return 0;
}

int runfile_load(run_file *rf, const char *path, char **sets, int n_sets)
{
    memset(rf, 0, sizeof *rf);
    snprintf(rf->path, sizeof rf->path, "%s", path);
    config_init(&rf->cfg);
    if (config_file_read(&rf->cfg, rf->path) < 0 || check_top_keys(rf) < 0 || load_machine(rf) < 0)
        return -1;
    rf->program = config_lookup(&rf->cfg, "program");
    rf->compare = config_lookup(&rf->cfg, "compare");
    if (!rf->program)
        return fail("%s: no program group (program = { name = ...; ... };)", path);
    if (program_check(rf->program) < 0 || read_sweep(rf) < 0 || read_sets(rf, sets, n_sets) < 0 ||
        pin_by_target(rf) < 0 || load_other_machines(rf) < 0)
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

/* The machine point i starts from: --machine, else the sweep's, else the
 * run file's. */
static const machine *base_machine(const run_file *rf, long i)
{
    if (rf->has_set_machine)
        return &rf->set_machine;
    for (int a = 0; a < rf->n_axes; a++)
        if (strcmp(rf->axes[a].key, "machine") == 0)
            return &rf->axis_machines[runfile_axis_index(rf, i, a)];
    return &rf->machine;
}

/* What a point's --set options and sweep keys have set so far, and where. */
typedef struct assigned {
    int n;
    char target[SETS_MAX + SWEEP_AXES_MAX][96], where[SETS_MAX + SWEEP_AXES_MAX][160];
} assigned;

/* `key` (at `where`), just assigned, set what no --set or sweep key
 * before it set at this point: a value is never silently replaced by
 * another. */
static int assign_once(assigned *done, const vars *params, const char *key, const char *where)
{
    char target[96];
    key_target(params, key, target, sizeof target);
    for (int k = 0; k < done->n; k++)
        if (strcmp(done->target[k], target) == 0)
            return fail("%s: sets %s, which %s sets already (rule: one value per key)", where, target,
                        done->where[k]);
    snprintf(done->target[done->n], sizeof done->target[0], "%s", target);
    snprintf(done->where[done->n], sizeof done->where[0], "%s", where);
    done->n++;
    return 0;
}

int runfile_point(const run_file *rf, long i, machine *m, vars *params, const char **program)
{
    const char *name = NULL;
    char where[1200];
    for (int s = 0; s < rf->n_sets; s++)
        if (strcmp(rf->set_key[s], "program") == 0) {
            name = rf->set_value[s];
            snprintf(where, sizeof where, "--set program=%s", name);
        }
    for (int a = 0; a < rf->n_axes; a++)
        if (strcmp(rf->axes[a].key, "program") == 0) {
            name = runfile_axis_value(rf, i, a);
            snprintf(where, sizeof where, "%s:%d: sweep program", rf->path, rf->axes[a].line);
        }
    if (name && !builtin_find(name))
        return fail("%s: program '%s' is not a built-in program (`mcmsim list` shows them)", where, name);
    *program = program_name(rf->program, name);
    *m = *base_machine(rf, i);
    if (program_params(rf->program, name, params) < 0)
        return -1;
    assigned done = {0};
    for (int s = 0; s < rf->n_sets; s++) {
        if (strcmp(rf->set_key[s], "program") == 0 || strcmp(rf->set_key[s], "machine") == 0)
            continue;
        snprintf(where, sizeof where, "--set %s=%s", rf->set_key[s], rf->set_value[s]);
        if (assign(m, params, rf->set_key[s], rf->set_value[s], 0, 1, where) < 0 ||
            assign_once(&done, params, rf->set_key[s], where) < 0)
            return -1;
    }
    for (int a = 0; a < rf->n_axes; a++) {
        const sweep_axis *axis = &rf->axes[a];
        if (strcmp(axis->key, "program") == 0 || strcmp(axis->key, "machine") == 0)
            continue;
        int j = runfile_axis_index(rf, i, a);
        snprintf(where, sizeof where, "%s:%d: sweep %s (program '%s')", rf->path, axis->line, axis->key, *program);
        if (assign(m, params, axis->key, axis->value[j], 1, axis->is_text[j], where) < 0 ||
            assign_once(&done, params, axis->key, where) < 0)
            return -1;
    }
    return 0;
}

int runfile_axis_index(const run_file *rf, long i, int a)
{
    for (int b = rf->n_axes - 1; b > a; b--)
        i /= rf->axes[b].n;
    return (int)(i % rf->axes[a].n);
}

const char *runfile_axis_value(const run_file *rf, long i, int a)
{
    return rf->axes[a].value[runfile_axis_index(rf, i, a)];
}

void runfile_close(run_file *rf)
{
    config_destroy(&rf->cfg);
    free(rf->axis_machines);
    rf->axis_machines = NULL;
}
