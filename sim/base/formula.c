/*
 * formula.c — muparser behind a three-function interface (see formula.h).
 *
 * One parser handle is made per evaluation: formulas are evaluated while a
 * program is built (a few per kernel), never per block, so simplicity wins.
 */
#include "formula.h"
#include "fail.h"

#include <ctype.h>
#include <math.h>
#include <muParserDLL.h>
#include <stdio.h>
#include <string.h>

void vars_clear(vars *v) { v->n = 0; }

static int is_identifier(const char *s)
{
    if (!*s || !(isalpha((unsigned char)*s) || *s == '_'))
        return 0;
    for (; *s; s++)
        if (!(isalnum((unsigned char)*s) || *s == '_'))
            return 0;
    return 1;
}

double *vars_find(vars *v, const char *name)
{
    for (int i = 0; i < v->n; i++)
        if (strcmp(v->name[i], name) == 0)
            return &v->value[i];
    return NULL;
}

const double *vars_get(const vars *v, const char *name)
{
    return vars_find((vars *)v, name);
}

int vars_set(vars *v, const char *name, double value)
{
    double *slot = vars_find(v, name);
    if (slot) {
        *slot = value;
        return 0;
    }
    if (!is_identifier(name) || strlen(name) >= VAR_NAME_MAX)
        return fail("'%s' is not a valid parameter name (letters, digits, _; "
                    "at most %d characters)", name, VAR_NAME_MAX - 1);
    if (v->n == VARS_MAX)
        return fail("too many parameters (at most %d)", VARS_MAX);
    snprintf(v->name[v->n], VAR_NAME_MAX, "%s", name);
    v->value[v->n++] = value;
    return 0;
}

static muFloat_t fn_ceil(muFloat_t x) { return ceil(x); }
static muFloat_t fn_floor(muFloat_t x) { return floor(x); }
static muFloat_t fn_pow2(muFloat_t x) { return pow(2.0, x); }

/* muparser asks this factory for every name that is not defined: we note
 * the first such name and give it a dummy slot, so the message can say
 * which variable is unknown rather than "unexpected token". */
typedef struct unknown_name {
    char name[VAR_NAME_MAX + 32];
    double dummy;
} unknown_name;

static muFloat_t *note_unknown(const muChar_t *name, void *data)
{
    unknown_name *u = data;
    if (!u->name[0])
        snprintf(u->name, sizeof u->name, "%s", name);
    return &u->dummy;
}

static void known_names(const vars *v, char *out, size_t size)
{
    out[0] = '\0';
    for (int i = 0; i < v->n; i++) {
        size_t len = strlen(out);
        snprintf(out + len, size - len, "%s%s", i ? ", " : "", v->name[i]);
    }
}

/* Formulas are ASCII: numbers, names, operators, blanks.  Any other byte
 * is refused before muparser reads it (fuzz_formula once crashed inside
 * muparser's error path on bytes above 0x7f; see tests/README.md, "Fuzzing"). */
static int check_ascii(const char *text, const char *where)
{
    for (const unsigned char *c = (const unsigned char *)text; *c; c++)
        if ((*c < 0x20 && *c != '\t' && *c != '\n' && *c != '\r') || *c > 0x7e)
            return fail("%s: formula has byte 0x%02x at position %ld, which is not printable ASCII "
                        "(a formula is numbers, names, + - * / ^, parentheses and blanks)",
                        where, *c, (long)(c - (const unsigned char *)text) + 1);
    return 0;
}

int formula_eval(const char *text, const vars *v, const char *where, double *out)
{
    if (check_ascii(text, where) < 0)
        return -1;
    unknown_name unknown = {"", 0};
    muParserHandle_t p = mupCreate(muBASETYPE_FLOAT);
    mupSetVarFactory(p, note_unknown, &unknown);
    vars local = *v; /* muparser keeps pointers to the variables */
    for (int i = 0; i < local.n; i++)
        mupDefineVar(p, local.name[i], &local.value[i]);
    mupDefineFun1(p, "ceil", fn_ceil, 0);
    mupDefineFun1(p, "floor", fn_floor, 0);
    mupDefineFun1(p, "pow2", fn_pow2, 0);
    mupSetExpr(p, text);
    double value = mupEval(p);
    int rc = 0;
    if (mupError(p)) {
        rc = fail("%s: formula \"%s\" is not valid: %s", where, text, mupGetErrorMsg(p));
    } else if (unknown.name[0]) {
        char names[VARS_MAX * (VAR_NAME_MAX + 2)];
        known_names(v, names, sizeof names);
        rc = fail("%s: formula \"%s\" uses '%s', which is not defined (known: %s)", where, text,
                  unknown.name, names[0] ? names : "none");
    } else if (!isfinite(value)) {
        rc = fail("%s: formula \"%s\" does not give a finite number", where, text);
    } else {
        *out = value;
    }
    mupRelease(p);
    return rc;
}
