/*
 * user_program.h — a program from the user's own C file (sim/mcm_kernel.h).
 *
 *   program = { source = "jacobi.c"; params = { n = 65536; l = 256; }; };
 *
 * The file is compiled by the system compiler (`cc`, or $MCMSIM_CC) into a
 * shared object, cached by the hash of its text, of the headers and of the
 * command (in $MCMSIM_CACHE, else $XDG_CACHE_HOME/mcmsim, else
 * ~/.cache/mcmsim); the compiler's own messages name the user's file and
 * line.  The object is loaded and run in exec mode in a child process of
 * its own (sim/exec_process.h): its setup, its launches (race-free:
 * sim/exec.h) and its check against its serial reference.  The child
 * sends the kernel DAG it measured back to the parent, which simulates it
 * like any program.  A crash in the user's code ends the child, never
 * mcmsim: the parent names the signal, the phase and the kernel.  A child
 * still running after 10 s says so on stderr every 10 s (phase, kernel,
 * launch), so a kernel that never ends is never a silent hang.
 */
#ifndef MCM_USER_PROGRAM_H
#define MCM_USER_PROGRAM_H

#include "exec_process.h"
#include "formula.h"
#include "kernel_dag.h"
#include "machine.h"

/* Start the program in `source` (a path) at `params` on `m` in an exec
 * process (compiled first unless the cache has it), each launch on up to
 * `threads` threads; its kernel DAG comes from exec_process_finish.
 * `params` must live until then.  -1 with fail() if it could not start. */
int user_program_start(exec_process *x, const char *source, const vars *params, const machine *m, int threads);

/* The same, waited for, on every core: the kernel DAG that the program
 * measures; NULL with fail() naming the file and what went wrong. */
kernel_dag *user_program_build(const char *source, const vars *params, const machine *m);

/* The shared object of `source`, compiled if the cache lacks it, into
 * `so` (size bytes); -1 with fail() if it does not compile. */
int user_program_compile(const char *source, char *so, size_t size);

#endif
