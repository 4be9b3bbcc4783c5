/*
 * user_program.h — a program from the user's own C file (sim/exec/mcm_kernel.h).
 *
 *   program = { source = "jacobi.c"; params = { n = 65536; l = 256; }; };
 *
 * The file is compiled by the system compiler (`cc`, or $MCMSIM_CC; clang,
 * or $MCMSIM_CLANG, when the machine charges the instruction stream,
 * sim/exec/stream.h) into a shared object, cached by the hash of its text, of the headers and of the
 * command (in $MCMSIM_CACHE, else $XDG_CACHE_HOME/mcmsim, else
 * ~/.cache/mcmsim); the compiler's own messages name the user's file and
 * line.  The object is loaded and run in exec mode in a child process of
 * its own (exec_process.h), each launch's blocks on the cores it is
 * given: its setup, its launches (race-free: sim/exec/exec.h) and its check
 * against its serial reference.  The child sends the kernel DAG it measured
 * back to the parent, which simulates it like any program.  The child
 * runs the user's code inside a seccomp filter (user_filter.h): it may
 * compute and report to its parent, nothing else; a refused call ends it,
 * and the parent names the call.  A crash in the
 * user's code ends the child, never mcmsim: the parent names the signal,
 * the phase and the kernel.  A child still running after 10 s says so on
 * stderr every 10 s (phase, kernel, launch), so a kernel that never ends
 * is never a silent hang.
 */
#ifndef MCM_USER_PROGRAM_H
#define MCM_USER_PROGRAM_H

#include "exec.h"
#include "exec_process.h"
#include "formula.h"
#include "kernel_dag.h"
#include "machine.h"

/* What exec mode measured of a program: its kernel DAG, and one report
 * per kernel (in the DAG's order), both owned. */
typedef struct exec_result {
    kernel_dag *dag;
    exec_kernel_report *reports;
} exec_result;

/* Start the program in `source` (a path) at `params` on `m` in an exec
 * process (compiled first unless the cache has it), each launch on up to
 * `threads` threads; its kernel DAG and reports come from
 * exec_process_finish.  `params` must live until then.  -1 with fail()
 * if it could not start. */
int user_program_start(exec_process *x, const char *source, const vars *params, const machine *m, int threads);

/* The same, checking input 0 only (`further_inputs` 0) or every input
 * the program checks (1: what user_program_start does; mcm_input). */
int user_program_start_inputs(exec_process *x, const char *source, const vars *params, const machine *m, int threads,
                              int further_inputs);

/* Run the program in `source` (a path) at `params` on `m` in exec mode,
 * on every core, into *out; -1 with fail() naming the file and what went
 * wrong. */
int user_program_run(const char *source, const vars *params, const machine *m, exec_result *out);
void exec_result_free(exec_result *r);

/* The same, the kernel DAG alone (NULL on failure). */
kernel_dag *user_program_build(const char *source, const vars *params, const machine *m);

/* mcmsim's source folder ($MCMSIM_DATADIR, else where it was built):
 * where the headers and the built-in programs' kernels are. */
const char *user_program_datadir(void);

/* The shared object of `source`, compiled if the cache lacks it, into
 * `so` (size bytes); -1 with fail() if it does not compile. */
int user_program_compile(const char *source, char *so, size_t size);

/* The same; counted = 1: a counted build, each kernel's instruction stream
 * counted as it runs (sim/exec/stream.h), compiled by clang ($MCMSIM_CLANG,
 * else `clang`) whatever cc is.  user_program_build makes one when the
 * machine charges the stream (issue_rate > 0). */
int user_program_compile_as(const char *source, int counted, char *so, size_t size);

#endif
