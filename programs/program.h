/*
 * program.h — where MCM programs come from.
 *
 * A run file's `program` group either describes the kernels itself
 * (`kernels = ( ... )`, see config_program.c), names a built-in program
 * written in C (one file per case study in this directory, listed in
 * registry.c), or names the user's own C file (`source = "file.c"`,
 * user_program.h), whose kernels run in exec mode.  Either way the result is a kernel_dag for one point of
 * parameters on one machine.
 *
 * On a DMM or a UMM (machine kind dmm/umm, sim/model/dmm_umm.h) a program is not a
 * kernel DAG but its memory accesses: a built-in program may give them
 * through its `accesses` hook; programs without one run on the MCM only.
 */
#ifndef MCM_PROGRAM_H
#define MCM_PROGRAM_H

#include "dmm_umm.h"
#include "exec_process.h"
#include "formula.h"
#include "kernel_dag.h"
#include "machine.h"
#include "user_program.h"

#include <libconfig.h>

/* A program written in C: one file per case study in programs/. */
typedef struct builtin_program {
    const char *name;
    const char *summary;        /* one line, with the paper section it follows */
    const char *defaults;       /* default params, e.g. "n=1048576 l=256" */
    /* The params, beyond the defaults and a measured point's own, at
     * which the DAG is its cuda_ref/ implementation's where that departs
     * from the paper's (plain multiplication's grid), e.g. "grid=2";
     * NULL: none.  `make validate` simulates the measured points so. */
    const char *cuda_params;
    /* Its kernels written once (sim/exec/mcm_kernel.h), the path from mcmsim's
     * source folder, e.g. "programs/sum/kernels.c": what --exec runs and
     * what the card times (cuda_ref/); NULL: none. */
    const char *kernels;
    /* The kernel DAG at `params` on `m`; NULL with fail() on a bad point,
     * e.g. a violated Z constraint, quoted: "4s + 2ℓ <= Z". */
    kernel_dag *(*build)(const vars *params, const machine *m);
    /* The paper's closed forms at `params` on `m` (NULL: none). */
    int (*closed_form)(const vars *params, const machine *m, closed_form *out);
    /* Its memory accesses on a DMM/UMM machine m (kind dmm or umm), into
     * `out`, with the chapter's formula (access_bound) where there is one;
     * NULL: the program runs on the MCM only. */
    int (*accesses)(const vars *params, const machine *m, access_program *out);
} builtin_program;

/* Built-in programs, NULL-terminated; and lookup by name. */
const builtin_program *const *builtin_programs(void);
const builtin_program *builtin_find(const char *name);

/* *params gets b's defaults, then, with `as_measured`, its cuda_params. */
int builtin_params(const builtin_program *b, int as_measured, vars *params);

/* The program's name: `name` in the group, unless `name` (a sweep over
 * programs, or --set program=...) overrides it. */
const char *program_name(const config_setting_t *program, const char *name);

/* Whether the program comes from the user's C file (`source`, see
 * user_program.h): exec mode is then its only mode. */
int program_has_source(const config_setting_t *program);

/* The program group's keys and their types, before any point: 0, or -1
 * with fail() naming the key and its line. */
int program_check(const config_setting_t *program);

/* The keys of a program group, NULL-terminated. */
const char *const *program_key_names(void);

/* Read the program's params: the built-in's defaults (if any), then the
 * `params` group.  `name`: as in program_name(). */
int program_params(const config_setting_t *program, const char *name, vars *params);

/* Build the program's kernel DAG at `params` on `m` (NULL on error). */
kernel_dag *program_build(const config_setting_t *program, const char *name, const vars *params,
                          const machine *m);

/* The program's DMM/UMM accesses; NULL with fail() when it has none (a
 * `kernels` program, or a built-in program without the hook). */
access_hook program_accesses(const config_setting_t *program, const char *name);

/* The paper's closed forms at this point; 0 if the program has none. */
int program_closed_form(const config_setting_t *program, const char *name, const vars *params,
                        const machine *m, closed_form *out);

/* The point's program in exec mode, started in the exec process x (its
 * launches on up to `threads` threads; `params` must live until it ends:
 * user_program_start): a user's `source` file always, a built-in's
 * kernels written once when `asked` (--exec); the inputs after the first
 * that it checks (mcm_input) too when `further_inputs`.  1 when started;
 * 0 when the point is not run in exec mode (program_build builds its
 * DAG); -1 with fail(), a `kernels` list asked for exec mode among
 * others. */
int program_start_exec(const config_setting_t *program, const char *name, const vars *params, const machine *m,
                       int asked, int threads, int further_inputs, exec_process *x);

/* The path of a built-in's kernels file (mcmsim's source folder joined
 * with b->kernels) into out; -1 with fail() if it has none. */
int builtin_kernels_path(const builtin_program *b, char *out, size_t size);

/* The papers' run files under folder `root` (mcmsim's source folder;
 * NULL: the current folder, the paths relative to it): the .cfg files of
 * root/programs/ (the comparisons) and of root/programs/CASE/ (a case
 * study's), not the examples of programs/user/ and programs/lectures/:
 * their paths, sorted, and their count in *count; free them with
 * program_run_files_free. */
char **program_run_files(const char *root, int *count);
void program_run_files_free(char **files, int count);

/* The i-th key of a kernel in a `kernels` list (0, 1, ...; NULL past the
 * last), for the tests that cover the grammar. */
const char *config_kernel_key(int i);

/* Build a DAG from a `kernels = ( ... )` list (config_program.c). */
kernel_dag *config_program_build(const char *name, const config_setting_t *kernels,
                                 const vars *params, const machine *m);

/* Variables a formula may use: the params plus the machine's P, U, Z. */
void program_formula_vars(const vars *params, const machine *m, vars *out);

#endif
