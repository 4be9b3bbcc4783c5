/*
 * count_misses.c — why a kernel's count misses the card's by more than
 * COUNT_WITHIN (REPORT.md, "The counts against Nsight Compute", its last
 * column; issue 30: every count within 15 % or its difference explained).
 *
 * Two sources, tried in order:
 *  1. The rows themselves.  The counted code of a file at a point is one,
 *     and a build's instruction count at a point does not move from run to
 *     run; so where another row counts the same kernel of the same file
 *     at the same params within the bound, and its card's count differs
 *     from this row's by more than the bound, the card ran another build
 *     of the kernel here (a session or a profile taken before the header's
 *     CUDA mapping or the kernel changed).  The cause names that row.
 *  2. validate/stream/count-misses.csv: per counted file and kernel, a
 *     cause found in the card's code (its SASS, PTX or executed counts)
 *     with its evidence, written by hand and sourced there.
 * A miss with neither has no cause: the report says so and the tests
 * refuse it (test_code_costs.c).
 */
#include "validate.h"
#include "fail.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int count_within(const count_row *r) { return fabs(r->ours / r->card - 1) <= COUNT_WITHIN; }

/* ---- the file ----------------------------------------------------------- */

/* The next field of a CSV line at *s (quotes removed, no quote inside a
 * quoted field) into out; 1 if there was one. */
static int next_field(const char **s, char *out, size_t size)
{
    const char *p = *s;
    if (!*p || *p == '\n' || *p == '\r')
        return 0;
    size_t n = 0;
    int quoted = *p == '"';
    p += quoted;
    while (*p && (quoted ? *p != '"' : (*p != ',' && *p != '\n' && *p != '\r'))) {
        if (n + 1 < size)
            out[n++] = *p;
        p++;
    }
    out[n] = '\0';
    p += quoted && *p == '"';
    p += *p == ',';
    *s = p;
    return 1;
}

int count_causes_load(const char *path, count_causes *out)
{
    out->c = NULL;
    out->n = 0;
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    static char line[4096];
    int number = 0, cap = 0;
    while (fgets(line, sizeof line, f)) {
        number++;
        if (number == 1 || line[0] == '#' || line[0] == '\n')
            continue; /* the header, comments */
        if (out->n == cap) {
            cap = cap ? 2 * cap : 16;
            out->c = realloc(out->c, sizeof *out->c * (size_t)cap);
        }
        count_cause *c = &out->c[out->n];
        const char *s = line;
        if (!next_field(&s, c->source, sizeof c->source) || !next_field(&s, c->kernel, sizeof c->kernel) ||
            !next_field(&s, c->cause, sizeof c->cause) || !next_field(&s, c->evidence, sizeof c->evidence) ||
            !c->source[0] || !c->kernel[0] || !c->cause[0] || !c->evidence[0]) {
            fclose(f);
            count_causes_free(out);
            return fail("%s:%d: expected source,kernel,cause,evidence, none empty", path, number);
        }
        out->n++;
    }
    fclose(f);
    return 0;
}

void count_causes_free(count_causes *c)
{
    free(c->c);
    c->c = NULL;
    c->n = 0;
}

/* ---- a miss's cause ------------------------------------------------------- */

/* A row of the same kernel, file and params as rows[i], within the bound,
 * whose card's count differs from rows[i]'s by more than it; -1 if none. */
static int other_build(const count_row *rows, int n, int i)
{
    const count_row *r = &rows[i];
    for (int j = 0; j < n; j++) {
        const count_row *o = &rows[j];
        if (j != i && count_within(o) && !strcmp(o->kernel, r->kernel) && !strcmp(o->source, r->source) &&
            !strcmp(o->params, r->params) && fabs(r->card / o->card - 1) > COUNT_WITHIN)
            return j;
    }
    return -1;
}

int count_miss_cause(const count_row *rows, int n, int i, const count_causes *written, char *out, size_t size)
{
    int j = other_build(rows, n, i);
    if (j >= 0) {
        snprintf(out, size,
                 "the card ran another build of the kernel: the same file counted at the same point is "
                 "%.3f of %s's count there (%.1f)",
                 rows[j].ours / rows[j].card, rows[j].where, rows[j].card);
        return 1;
    }
    for (int k = 0; written && k < written->n; k++) {
        const count_cause *c = &written->c[k];
        if (!strcmp(c->source, rows[i].source) && !strcmp(c->kernel, rows[i].kernel)) {
            snprintf(out, size, "%s (%s)", c->cause, c->evidence);
            return 1;
        }
    }
    return 0;
}
