/*
 * formula.h — numbers written as formulas in config files.
 *
 * A config value such as "n/l" or "3*s + log2(l)" is evaluated with muparser
 * over a set of named variables (a program's params, the repeat index i,
 * the machine's P, U, Z).  Besides muparser's own functions (log2, min, max,
 * sqrt, ...) the functions ceil, floor, pow2 (2^x) and the operator ^ are
 * available.  A formula that does not parse, or that names a variable that
 * is not defined, is an error that quotes the formula and the culprit.
 */
#ifndef MCM_FORMULA_H
#define MCM_FORMULA_H

#include <stddef.h>

#define VARS_MAX 32
#define VAR_NAME_MAX 32

/* A small ordered set of named numbers. */
typedef struct vars {
    int n;
    char name[VARS_MAX][VAR_NAME_MAX];
    double value[VARS_MAX];
} vars;

void vars_clear(vars *v);
/* Define or overwrite `name`; returns -1 (with fail()) if the set is full
 * or the name is not a valid identifier. */
int vars_set(vars *v, const char *name, double value);
/* Pointer to the value of `name`, or NULL. */
double *vars_find(vars *v, const char *name);
const double *vars_get(const vars *v, const char *name);

/* Evaluate `text` over `v`.  On error returns -1 with a message that starts
 * with `where` (e.g. "demo.cfg:12: kernel 'k0' blocks"). */
int formula_eval(const char *text, const vars *v, const char *where, double *out);

#endif
