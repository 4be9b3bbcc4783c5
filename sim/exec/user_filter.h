/*
 * user_filter.h — what the exec-mode child may do once it holds the user's
 * code: compute and report to its parent, nothing else (sim/exec/user_program.c
 * runs the child; README, "Your own kernel", says what this means for a
 * teacher).
 *
 * A seccomp filter (libseccomp), in two layers:
 *   loading  before the user's object is loaded (dlopen runs its
 *            constructors): memory, reading files (the loader opens and maps
 *            the object), its report pipe and stderr; no file opened for
 *            writing, no process, no socket;
 *   running  once it is loaded: memory (anonymous mappings only), writing
 *            to the report pipe and stderr, its own signals (abort), locks,
 *            clocks, threads (exec mode's workers), exit.  No file opened, no file read, no process
 *            started, no socket, no signal to another process.
 * A refused call raises SIGSYS; the handler writes the call's number on
 * the page the parent shares and ends the child, and the parent names the
 * call (user_filter_describe): "the program tried to open a file (openat)".
 * The child closes every file it inherited but the standard ones and its
 * pipe before the first layer.
 *
 * Under the sanitizers (MCM_SANITIZE) the runtime makes calls of its own
 * while it reports an error (reading /proc/self/maps, the executable's
 * name, the binaries' symbols): a refused call made from inside the
 * sanitizer runtime's code, or any while AddressSanitizer is writing a
 * report, fails with EPERM instead of ending the child, so the report
 * still reaches stderr (unsymbolized) and the child dies of it as it would
 * without the filter.  Every call from the user's code or ours is refused
 * exactly as in the plain build.
 */
#ifndef MCM_USER_FILTER_H
#define MCM_USER_FILTER_H

#include <stddef.h>

/* In the child, before loading the user's object: close the inherited
 * files but 0, 1, 2 and `pipe_fd`, install the SIGSYS handler (which
 * writes a refused call into *refused, on a page the parent shares: 1 +
 * the call's number; 0 until then) and the loading layer.  0, or -1 with
 * fail(). */
int user_filter_begin(int pipe_fd, volatile long *refused);

/* In the child, once the object is loaded: the running layer.  0, or -1
 * with fail(). */
int user_filter_tighten(int pipe_fd);

/* In the parent: what the refused call (as *refused recorded it) was, in
 * words: "open a file (openat)". */
const char *user_filter_describe(long refused, char *out, size_t size);

#endif
