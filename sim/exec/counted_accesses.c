/*
 * counted_accesses.c — the accesses and the Z/pZ operations of a kernel
 * built with its instruction stream counted (user_program.c's counted
 * build), compiled into its object beside it: not part of mcmsim's
 * library (the Makefile leaves it out).
 *
 * The counted build's kernel calls exec_gread, exec_pread, exec_zp_mul,
 * ... (exec.h), so that its IR, which the stream weighs (stream.h), holds
 * the call and not the access's bookkeeping.  Its object is then linked
 * with this file's IR (clang -flto): each function here is the exported
 * one of exec.c, the same fast path (exec_block.h) with the same hand-off
 * to exec.c's checked path, hidden in the object, so the link inlines it
 * at every call.  What runs is what the call ran; the weights, made from
 * the kernel's IR before the link, are unchanged; only the call is gone.
 */
#include "exec_block.h"

#define COUNTED_ACCESS __attribute__((visibility("hidden"), always_inline))

COUNTED_ACCESS word exec_gread(exec_thread *t, gmem a, long i) { return exec_gread_fast(t, a, i); }
COUNTED_ACCESS void exec_gwrite(exec_thread *t, gmem a, long i, word v) { exec_gwrite_fast(t, a, i, v); }
COUNTED_ACCESS word exec_pread(exec_thread *t, long i) { return exec_pread_fast(t, i); }
COUNTED_ACCESS void exec_pwrite(exec_thread *t, long i, word v) { exec_pwrite_fast(t, i, v); }
COUNTED_ACCESS void exec_ops(exec_thread *t, long n) { exec_ops_fast(t, n); }
COUNTED_ACCESS word exec_zp_add(exec_thread *t, word a, word b) { return exec_zp_add_fast(t, a, b); }
COUNTED_ACCESS word exec_zp_sub(exec_thread *t, word a, word b) { return exec_zp_sub_fast(t, a, b); }
COUNTED_ACCESS word exec_zp_mul(exec_thread *t, word a, word b) { return exec_zp_mul_fast(t, a, b); }
