/*
 * registry.c — the list of built-in programs, and the `program` group of a
 * run file turned into a kernel DAG (see program.h).
 */
#include "program.h"
#include "fail.h"
#include "user_program.h"

#include <glob.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

extern const builtin_program program_euclid;
extern const builtin_program program_cooley_tukey;
extern const builtin_program program_stockham;
extern const builtin_program program_plain_mult;
extern const builtin_program program_fft_mult;
extern const builtin_program program_radix_sort;
extern const builtin_program program_plain_division;
extern const builtin_program program_sum;
extern const builtin_program program_prefix_naive;
extern const builtin_program program_prefix_optimal;
extern const builtin_program program_dmm_example;
extern const builtin_program program_contiguous;

static const builtin_program *const builtins[] = {
    &program_euclid,
    &program_cooley_tukey,
    &program_stockham,
    &program_plain_mult,
    &program_fft_mult,
    &program_radix_sort,
    &program_plain_division,
    &program_sum,
    &program_prefix_naive,
    &program_prefix_optimal,
    &program_dmm_example,
    &program_contiguous,
    NULL,
};

const builtin_program *const *builtin_programs(void) { return builtins; }

const builtin_program *builtin_find(const char *name)
{
    for (int i = 0; builtins[i]; i++)
        if (strcmp(builtins[i]->name, name) == 0)
            return builtins[i];
    return NULL;
}

void program_formula_vars(const vars *params, const machine *m, vars *out)
{
    *out = *params;
    vars_set(out, "P", m->p);
    vars_set(out, "U", m->u);
    vars_set(out, "Z", m->z);
}

const char *program_name(const config_setting_t *program, const char *name)
{
    const char *source = NULL;
    if (!name)
        config_setting_lookup_string(program, "name", &name);
    if (!name && config_setting_lookup_string(program, "source", &source)) {
        const char *slash = strrchr(source, '/');
        name = slash ? slash + 1 : source;
    }
    return name ? name : "program";
}

/* `source = "file.c"`: its path, relative to the run file's folder unless
 * absolute; 0 if the group has no source, -1 with fail() if it is bad. */
static int source_path(const config_setting_t *program, char *out, size_t size)
{
    const config_setting_t *s = config_setting_get_member(program, "source");
    if (!s)
        return 0;
    char where[512];
    setting_where(s, where, sizeof where);
    const char *text = config_setting_get_string(s);
    if (!text || !text[0])
        return fail("%s: source must be the path of a C file (program = { source = \"my_kernel.c\"; })", where);
    if (config_setting_get_member(program, "kernels"))
        return fail("%s: a program is a `kernels` list or a `source` file, not both", where);
    const char *file = config_setting_source_file(s);
    const char *slash = file ? strrchr(file, '/') : NULL;
    if (text[0] == '/' || !slash)
        snprintf(out, size, "%s", text);
    else
        snprintf(out, size, "%.*s/%s", (int)(slash - file), file, text);
    struct stat st;
    if (stat(out, &st) < 0)
        return fail("%s: source \"%s\": cannot read %s: %s", where, text, out, strerror(errno));
    if (S_ISDIR(st.st_mode))
        return fail("%s: source \"%s\" is a folder, not a C file", where, text);
    if (!S_ISREG(st.st_mode))
        return fail("%s: source \"%s\" is not a regular file, so not a C file", where, text);
    return 1;
}

int program_has_source(const config_setting_t *program)
{
    return config_setting_get_member(program, "source") != NULL;
}

/* The built-in program this point runs, if it runs one.  A `kernels`
 * list describes its own program, whatever its `name` (a list named
 * "stockham" is that list, not the built-in): only a name swept or set
 * to another program's picks a built-in.  `name` is either. */
static const builtin_program *builtin_of(const config_setting_t *program, const char *name)
{
    if (config_setting_get_member(program, "kernels") || config_setting_get_member(program, "source")) {
        const char *own = NULL;
        config_setting_lookup_string(program, "name", &own);
        if (!name || (own && strcmp(name, own) == 0))
            return NULL;
    }
    return builtin_find(program_name(program, name));
}

/* "n=1024 l=256" into params. */
static int parse_defaults(const char *text, vars *params)
{
    char copy[256];
    snprintf(copy, sizeof copy, "%s", text);
    for (char *tok = strtok(copy, " "); tok; tok = strtok(NULL, " ")) {
        char *eq = strchr(tok, '=');
        if (!eq)
            continue;
        *eq = '\0';
        if (vars_set(params, tok, strtod(eq + 1, NULL)) < 0)
            return -1;
    }
    return 0;
}

int builtin_params(const builtin_program *b, int as_measured, vars *params)
{
    vars_clear(params);
    if (parse_defaults(b->defaults, params) < 0)
        return -1;
    return as_measured && b->cuda_params ? parse_defaults(b->cuda_params, params) : 0;
}

/* P, U, Z and i: the names formulas give to the machine's figures and a
 * repeated kernel's index (program_formula_vars, config_program.c). */
static int formula_name(const char *name)
{
    return strcmp(name, "P") == 0 || strcmp(name, "U") == 0 || strcmp(name, "Z") == 0 || strcmp(name, "i") == 0;
}

int program_params(const config_setting_t *program, const char *name, vars *params)
{
    char where[512], what[128];
    vars_clear(params);
    const builtin_program *b = builtin_of(program, name);
    if (b && parse_defaults(b->defaults, params) < 0)
        return -1;
    const config_setting_t *group = config_setting_get_member(program, "params");
    if (!group)
        return 0;
    if (!config_setting_is_group(group))
        return setting_wrong_type(group, "params", "a group { n = 1024; ... }");
    for (int i = 0; i < config_setting_length(group); i++) {
        const config_setting_t *s = config_setting_get_elem(group, (unsigned)i);
        setting_where(s, where, sizeof where);
        snprintf(what, sizeof what, "param '%s'", config_setting_name(s));
        double v;
        int rc = setting_number(s, what, &v);
        if (rc > 0)
            return setting_wrong_type(s, what, "a number");
        if (rc < 0)
            return -1;
        if (formula_name(config_setting_name(s)))
            return fail("%s: param '%s' would be hidden: in formulas P, U and Z are the machine's, i a repeated "
                        "kernel's index (rule: a param has a name of its own; rename it)", where,
                        config_setting_name(s));
        if (b && !vars_get(params, config_setting_name(s)))
            return fail("%s: program '%s' has no param '%s' (its params: %s)", where, b->name,
                        config_setting_name(s), b->defaults);
        if (vars_set(params, config_setting_name(s), v) < 0)
            return fail("%s: %s", where, fail_message());
    }
    return 0;
}

static const char *const program_keys[] = {"name", "params", "kernels", "source", "constraints", "description",
                                           NULL};

const char *const *program_key_names(void) { return program_keys; }

/* The group's keys, each of its type (the kernels' own keys are
 * config_program.c's). */
int program_check(const config_setting_t *program)
{
    if (!config_setting_is_group(program))
        return setting_wrong_type(program, "program", "a group { name = ...; ... }");
    const char *text;
    if (members_known(program, program_keys, "program ") < 0 ||
        member_string(program, "name", "program name", 127, &text) < 0 ||
        member_string(program, "source", "program source (the path of a C file)", 1023, &text) < 0 ||
        member_string(program, "description", "program description", 4096, &text) < 0)
        return -1;
    const config_setting_t *s = config_setting_get_member(program, "kernels");
    if (s && !config_setting_is_list(s))
        return setting_wrong_type(s, "kernels", "a list ( { name = ...; ... }, ... )");
    s = config_setting_get_member(program, "params");
    if (s && !config_setting_is_group(s))
        return setting_wrong_type(s, "params", "a group { n = 1024; ... }");
    s = config_setting_get_member(program, "constraints");
    if (s && !config_setting_is_array(s) && !config_setting_is_list(s))
        return setting_wrong_type(s, "constraints", "a list of formula strings [ \"2*l <= Z\", ... ]");
    for (int i = 0; s && i < config_setting_length(s); i++) {
        const config_setting_t *e = config_setting_get_elem(s, (unsigned)i);
        if (config_setting_type(e) != CONFIG_TYPE_STRING)
            return setting_wrong_type(e, "each constraint", "a formula string such as \"2*l <= Z\"");
    }
    return 0;
}

/* `constraints = [ "4*s + 2*l <= Z" ];`: each formula must be true. */
static int check_constraints(const config_setting_t *program, const vars *params, const machine *m)
{
    const config_setting_t *list = config_setting_get_member(program, "constraints");
    if (!list)
        return 0;
    char where[512];
    setting_where(list, where, sizeof where);
    vars v;
    program_formula_vars(params, m, &v);
    for (int i = 0; i < config_setting_length(list); i++) {
        const char *text = config_setting_get_string_elem(list, i);
        if (!text)
            return fail("%s: constraints must be a list of formula strings", where);
        double ok;
        if (formula_eval(text, &v, where, &ok) < 0)
            return -1;
        if (ok == 0) {
            char values[512] = "";
            for (int j = 0; j < v.n; j++) {
                size_t len = strlen(values);
                snprintf(values + len, sizeof values - len, "%s%s = %g", j ? ", " : "", v.name[j], v.value[j]);
            }
            return fail("%s: constraint \"%s\" does not hold (%s)", where, text, values);
        }
    }
    return 0;
}

/* The point's program checked (its keys, its constraints); 1 with its
 * source file's path when it comes from the user's file, else 0; -1 with
 * fail(). */
static int checked_source(const config_setting_t *program, const char *name, const vars *params, const machine *m,
                          char *source, size_t size)
{
    char where[512];
    setting_where(program, where, sizeof where);
    if (!config_setting_is_group(program))
        return fail("%s: 'program' must be a group { name = ...; ... }", where);
    if (program_check(program) < 0 || check_constraints(program, params, m) < 0)
        return -1;
    return builtin_of(program, name) ? 0 : source_path(program, source, size);
}

kernel_dag *program_build(const config_setting_t *program, const char *name, const vars *params,
                          const machine *m)
{
    char where[512];
    setting_where(program, where, sizeof where);
    char source[2048];
    int has_source = checked_source(program, name, params, m, source, sizeof source);
    if (has_source < 0)
        return NULL;
    if (has_source)
        return user_program_build(source, params, m);
    const builtin_program *b = builtin_of(program, name);
    const config_setting_t *kernels = config_setting_get_member(program, "kernels");
    if (kernels && !b)
        return config_program_build(program_name(program, name), kernels, params, m);
    if (!b) {
        fail("%s: program '%s' is not a built-in program and has no `kernels` list "
             "(`mcmsim list` shows the built-in programs)", where, program_name(program, name));
        return NULL;
    }
    return b->build(params, m);
}

int builtin_kernels_path(const builtin_program *b, char *out, size_t size)
{
    if (!b->kernels)
        return fail("program '%s' has no kernels written once: --exec runs the case studies whose kernels are "
                    "(`mcmsim list`)", b->name);
    snprintf(out, size, "%s/%s", user_program_datadir(), b->kernels);
    return 0;
}

int program_start_exec(const config_setting_t *program, const char *name, const vars *params, const machine *m,
                       int asked, int threads, int further_inputs, exec_process *x)
{
    char where[512];
    setting_where(program, where, sizeof where);
    char source[2048];
    int has_source = checked_source(program, name, params, m, source, sizeof source);
    if (has_source < 0 || (!has_source && !asked))
        return has_source;
    const builtin_program *b = builtin_of(program, name);
    if (!has_source && !b)
        return fail("%s: program '%s' is a `kernels` list, which has no kernels to run: --exec runs a built-in "
                    "case study's kernels or a C file (`source`)", where, program_name(program, name));
    if (b && builtin_kernels_path(b, source, sizeof source) < 0)
        return -1;
    return user_program_start_inputs(x, source, params, m, threads, further_inputs) < 0 ? -1 : 1;
}

static int by_path(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

char **program_run_files(const char *root, int *count)
{
    static const char *const patterns[] = {"programs/*.cfg", "programs/*/*.cfg"};
    static const char *const examples[] = {"programs/user/", "programs/lectures/"};
    char **files = NULL;
    *count = 0;
    for (size_t p = 0; p < sizeof patterns / sizeof patterns[0]; p++) {
        char pattern[1100];
        glob_t found;
        snprintf(pattern, sizeof pattern, "%s%s%s", root ? root : "", root ? "/" : "", patterns[p]);
        if (glob(pattern, 0, NULL, &found) != 0)
            continue;
        files = realloc(files, sizeof *files * (*count + found.gl_pathc));
        for (size_t i = 0; i < found.gl_pathc; i++) {
            const char *under = found.gl_pathv[i] + (root ? strlen(root) + 1 : 0);
            int example = 0;
            for (size_t e = 0; e < sizeof examples / sizeof examples[0]; e++)
                example |= strncmp(under, examples[e], strlen(examples[e])) == 0;
            if (!example)
                files[(*count)++] = strdup(found.gl_pathv[i]);
        }
        globfree(&found);
    }
    qsort(files, (size_t)*count, sizeof *files, by_path);
    return files;
}

void program_run_files_free(char **files, int count)
{
    for (int i = 0; i < count; i++)
        free(files[i]);
    free(files);
}

/* "dmm-example, contiguous, ...": the built-in programs with accesses. */
static void programs_with_accesses(char *out, size_t size)
{
    size_t used = 0;
    out[0] = '\0';
    for (int i = 0; builtins[i] && used < size; i++)
        if (builtins[i]->accesses)
            used += (size_t)snprintf(out + used, size - used, "%s%s", used ? ", " : "", builtins[i]->name);
}

access_hook program_accesses(const config_setting_t *program, const char *name)
{
    char where[512], which[256];
    setting_where(program, where, sizeof where);
    if (!config_setting_is_group(program)) {
        fail("%s: 'program' must be a group { name = ...; ... }", where);
        return NULL;
    }
    if (program_check(program) < 0)
        return NULL;
    const builtin_program *b = builtin_of(program, name);
    if (b && b->accesses)
        return b->accesses;
    if (!b && !config_setting_get_member(program, "kernels")) {
        fail("%s: program '%s' is not a built-in program (`mcmsim list` shows them)", where,
             program_name(program, name));
        return NULL;
    }
    programs_with_accesses(which, sizeof which);
    fail("%s: program '%s' has no memory accesses for a DMM/UMM machine (it runs on the MCM only; "
         "the programs that run on a DMM or a UMM: %s)", where, program_name(program, name), which);
    return NULL;
}

int program_closed_form(const config_setting_t *program, const char *name, const vars *params,
                        const machine *m, closed_form *out)
{
    const builtin_program *b = builtin_of(program, name);
    if (!b || !b->closed_form)
        return 0;
    return b->closed_form(params, m, out) < 0 ? -1 : 1;
}
