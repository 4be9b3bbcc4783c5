/*
 * stockham.h — the kernels of one Stockham FFT, for any program that needs
 * one (the `stockham` case study itself, and the three FFTs of `fft-mult`).
 *
 * Source: thesis §4.4.2 and its Appendix B worksheet "Stockham FFT
 * algorithm" (xie-thesis-2016.txt, line 5343; the same per-block costs are
 * repeated in the FFT-based multiplication worksheet, line 5835).  The
 * per-block costs and the reasons for each number are in stockham.c.
 *
 *   kernel_dag *dag = kernel_dag_new("my-program");
 *   stockham_fft fft = {.label = "fft-a", .n = 1024, .l = 128, .with_roots = 0};
 *   if (stockham_check("my-program", &fft, machine) < 0) ...;   // fail() set
 *   int last = stockham_append(dag, &fft, -1);                  // -1: no predecessor
 *   ... kernel_dag_after(dag, next, last) ...
 */
#ifndef MCM_STOCKHAM_H
#define MCM_STOCKHAM_H

#include "kernel_dag.h"
#include "machine.h"

/* One Stockham FFT of size n with thread-blocks of ℓ threads. */
typedef struct stockham_fft {
    const char *label; /* prefix of its kernel names ("fft-a" gives "fft-a:stride[3]"); NULL: none */
    double n;          /* FFT size: a power of two, n >= 2ℓ (n >= 8ℓ with the roots) */
    int l;             /* ℓ, threads per block: a power of two */
    int with_roots;    /* 1: first the three prefix-sum kernels computing 1, ω, ..., ω^(n-1) */
} stockham_fft;

/* Check n, ℓ and the Z constraint (ours: the paper gives none) of this FFT
 * on machine `m`; `program` names the caller in the message.  0, or -1
 * with fail(). */
int stockham_check(const char *program, const stockham_fft *fft, const machine *m);

/* Append the FFT's kernels to `dag` as a chain, the first one after kernel
 * `after` (-1: the first kernel has no predecessor).  Returns the index of
 * the last kernel appended, or -1 with fail().  Call stockham_check() first. */
int stockham_append(kernel_dag *dag, const stockham_fft *fft, int after);

/* The number of kernels stockham_append() adds: 3 log n − 2, plus 3 with
 * the roots (the paper's L_sh = 3 log n + 1). */
int stockham_kernels(const stockham_fft *fft);

#endif
