/*
 * euclid_exec.h — the Euclidean GCD in exec mode on given inputs
 * (programs/euclid_exec.c), for tests that choose the polynomials: a
 * planted common factor, a zero coefficient, anything whose degrees fall
 * faster than the model's worst case.
 */
#ifndef MCM_EUCLID_EXEC_H
#define MCM_EUCLID_EXEC_H

#include "exec.h"

/* gcd(a, b) by the OptGcdKer kernel calls, a of n coefficients, b of m
 * (n >= m >= 1, a[n−1] and b[m−1] not zero), s division steps per call,
 * ℓ threads per block, in `run` (its prime).  The monic gcd goes to `gcd`
 * (m words) and its degree to *degree.  0 when it equals the serial
 * reference's, -1 with fail() otherwise or when a kernel breaks a rule. */
int euclid_exec_gcd(exec_run *run, const word *a, long n, const word *b, long m, long s, long l, word *gcd,
                    long *degree);

/* The monic gcd of a and b by the serial Euclidean algorithm over Z/pZ
 * (the reference); returns its degree, the coefficients in `gcd`. */
long euclid_serial_gcd(const word *a, long n, const word *b, long m, uint64_t p, word *gcd);

#endif
