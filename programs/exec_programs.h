/*
 * exec_programs.h — the case studies in exec mode.
 *
 * Each case study may also exist as real kernels (sim/exec.h): its host
 * function allocates global memory, fills its inputs with random values
 * (seeded by the machine's seed), launches its kernels in order (deciding
 * the next launch from results where the algorithm does, like Euclid) and
 * checks the result against a simple serial reference.  The launched
 * kernels, with their measured per-block costs, are exec_dag(run): the
 * engine simulates it like any other program.
 */
#ifndef MCM_EXEC_PROGRAMS_H
#define MCM_EXEC_PROGRAMS_H

#include "exec.h"
#include "exec_process.h"
#include "formula.h"
#include "machine.h"

/* Run the program at `params` in `run`; 0 when the result equals the
 * serial reference, -1 with fail() otherwise (naming the first difference)
 * or when a kernel breaks a rule. */
typedef int (*exec_host_fn)(const vars *params, const machine *m, exec_run *run);

typedef struct exec_program {
    const char *name;   /* the built-in program it runs: "stockham", ... */
    exec_host_fn host;
} exec_program;

/* The exec-mode program called `name`, or NULL (exec_registry.c). */
const exec_program *exec_program_find(const char *name);
const exec_program *const *exec_programs(void);

/* Run x at `params` (which must live until it ends) on m in an exec
 * process, each launch on up to `threads` threads: its DAG and reports
 * come from exec_process_finish.  -1 with fail() if it could not start. */
int exec_program_start(exec_process *process, const exec_program *x, const vars *params, const machine *m,
                       int threads);

#endif
