/*
 * stockham_exec.h — the Stockham FFT over Z/pZ as exec-mode kernels
 * (sim/exec.h), for the `stockham` case study and the three FFTs of
 * `fft-mult`; the serial references that check them (also used by
 * `cooley-tukey`); and the timing that `make bench` reports.
 *
 * The kernels, their grids and their measured costs are described in
 * stockham_exec.c, beside the model-mode program (stockham.c).
 *
 *   exec_run *run = exec_begin("my-program", &machine);
 *   stockham_exec_fft fft = {.label = "fft-a", .n = 1024, .l = 128};
 *   fft.powers = exec_alloc(run, "powers", 1024);      // ω^e, e < n
 *   gmem x = ..., buf0 = ..., buf1 = ...;               // n words each
 *   if (stockham_exec_roots(run, &fft, omega) < 0 ||    // the 3 scan kernels
 *       stockham_exec_transform(run, &fft, x, buf0, buf1, &y) < 0) ...;
 *   // y (buf0 or buf1) holds DFT_ω(x); x is left as it was
 */
#ifndef MCM_STOCKHAM_EXEC_H
#define MCM_STOCKHAM_EXEC_H

#include "exec.h"
#include "machine.h"

/* ---- roots of unity and serial references (host code, not counted) ---- */

/* The largest power of two dividing p − 1 for p = 469762049 = 7·2^26 + 1. */
#define FFT_MAX_LOG2 26

/* A primitive n-th root of unity of Z/pZ (n a power of two dividing
 * p − 1), g^((p−1)/n) for a generator g of the multiplicative group
 * (found by trial); 0 when there is none. */
word fft_root_of_unity(uint64_t p, long n);

/* y = DFT_ω(x), y_j = Σ_i x_i ω^(ij): the definition, O(n²). */
void fft_naive_dft(uint64_t p, word omega, const word *x, word *y, long n);

/* x = DFT_ω(x) in place by the iterative radix-2 FFT (bit reversal, then
 * log n rounds of butterflies), n a power of two; checked against
 * fft_naive_dft() by the tests. */
void fft_serial(uint64_t p, word omega, word *x, long n);

/* y = DFT_ω(x), the serial reference of the exec programs: the naive DFT
 * up to FFT_NAIVE_MAX points, fft_serial() above. */
#define FFT_NAIVE_MAX 1024
void fft_reference(uint64_t p, word omega, const word *x, word *y, long n);

/* The first index where got and want differ, or -1. */
long fft_first_difference(const word *got, const word *want, long n);

/* ---- the exec-mode Stockham FFT ---- */

/* One Stockham FFT of size n with blocks of ℓ threads, as stockham.h's
 * stockham_fft (checked with stockham_check() first: n, ℓ powers of two,
 * n >= 2ℓ, n >= 8ℓ with the roots). */
typedef struct stockham_exec_fft {
    const char *label; /* prefix of its kernel names ("fft-a" gives "fft-a:stride[3]"); NULL: none */
    long n;
    int l;
    gmem powers;       /* n words: ω^e (or ω^-e for an inverse DFT) at e */
} stockham_exec_fft;

/* The three prefix-scan kernels of the worksheet (thesis line 5369) that
 * compute fft->powers[e] = omega^e for e < n (n >= 8ℓ): roots-inclusive,
 * roots-mediate, roots-exclusive.  0, or -1 with fail(). */
int stockham_exec_roots(exec_run *run, const stockham_exec_fft *fft, word omega);

/* The FFT proper, 3 log n − 2 kernels: *result (buf0 or buf1) becomes
 * DFT(x) at the root whose powers fft->powers holds; x is not written.
 * x, buf0, buf1: n words each, buf0 and buf1 distinct from x.  0, or -1
 * with fail(). */
int stockham_exec_transform(exec_run *run, const stockham_exec_fft *fft, gmem x, gmem buf0, gmem buf1,
                            gmem *result);

/* For the benchmark (issue 4: under 5 s at n = 2^20, within 20× of the
 * serial FFT).  On a fresh run on machine m, with ℓ = 128 (the program's
 * default) and an input of n random words seeded by m->seed, times in
 * wall-clock seconds:
 *   *exec_seconds    the 3 log n + 1 exec-mode kernels (the roots and the
 *                    FFT), i.e. the exec_launch() calls, on `threads`;
 *   *serial_seconds  fft_serial() on the same input (its table of powers
 *                    included);
 * then checks the two results equal.  n: a power of two, 8ℓ <= n <= 2^26.
 * 0, or -1 with fail() (a bad n, a kernel rule broken, a wrong result). */
int stockham_exec_time(long n, const machine *m, int threads, double *exec_seconds, double *serial_seconds);

#endif
