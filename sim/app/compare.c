/*
 * compare.c — conclusions of a sweep (see compare.h).
 */
#include "compare.h"
#include "fail.h"
#include "machine.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct spec {
    const char *claim, *key, *along, *a, *b;
    int best, linear;
    int key_axis, along_axis; /* indices into the swept keys */
} spec;

static int axis_of(const char *key, const char *const *swept, int n_swept)
{
    for (int s = 0; s < n_swept; s++)
        if (strcmp(swept[s], key) == 0)
            return s;
    return -1;
}

static const char *const compare_keys[] = {"claim", "key", "along", "a", "b", "best", "linear", NULL};

const char *const *compare_key_names(void) { return compare_keys; }

/* The group's members, each with its type; no other key. */
static int read_members(const config_setting_t *c, spec *sp)
{
    memset(sp, 0, sizeof *sp);
    if (!config_setting_is_group(c))
        return setting_wrong_type(c, "compare", "a group { claim = ...; key = ...; along = ...; ... }");
    if (members_known(c, compare_keys, "compare ") < 0 ||
        member_string(c, "claim", "compare claim", 500, &sp->claim) < 0 ||
        member_string(c, "key", "compare key", 63, &sp->key) < 0 ||
        member_string(c, "along", "compare along", 63, &sp->along) < 0 ||
        member_string(c, "a", "compare a (a value of key, as the sweep writes it)", 63, &sp->a) < 0 ||
        member_string(c, "b", "compare b (a value of key, as the sweep writes it)", 63, &sp->b) < 0 ||
        member_bool(c, "best", "compare best", "the value of key with the least T along `along`", &sp->best) < 0 ||
        member_bool(c, "linear", "compare linear", "a least-squares line along `along`", &sp->linear) < 0)
        return -1;
    return 0;
}

int compare_check(const config_setting_t *c)
{
    spec sp;
    return read_members(c, &sp);
}

static int read_spec(const config_setting_t *c, const char *const *swept, int n_swept, spec *sp)
{
    char where[512];
    setting_where(c, where, sizeof where);
    if (read_members(c, sp) < 0)
        return -1;
    int kinds = (sp->a && sp->b) + sp->best + sp->linear;
    if (kinds != 1)
        return fail("%s: compare needs exactly one of: a and b (pairwise), best = true, linear = true", where);
    if (!sp->along || (sp->along_axis = axis_of(sp->along, swept, n_swept)) < 0)
        return fail("%s: compare needs along = a swept key (got %s)", where, sp->along ? sp->along : "none");
    sp->key_axis = -1;
    if (!sp->linear && (!sp->key || (sp->key_axis = axis_of(sp->key, swept, n_swept)) < 0))
        return fail("%s: compare needs key = a swept key (got %s)", where, sp->key ? sp->key : "none");
    return 0;
}

/* "2^14" for powers of two from 256 up, the number otherwise. */
static const char *pretty(const char *value, char *buf, size_t size)
{
    char *end;
    double x = strtod(value, &end);
    if (*end == '\0' && x >= 256 && x == floor(x) && fmod(x, 1) == 0) {
        double k = log2(x);
        if (k == floor(k)) {
            snprintf(buf, size, "2^%.0f", k);
            return buf;
        }
    }
    snprintf(buf, size, "%s", value);
    return buf;
}

/* Points of one group: same values for every swept key but `key` and
 * `along`.  The group of point i is "the first point with its values". */
static int same_group(const run_point *p, const run_point *q, int n_swept, const spec *sp)
{
    for (int s = 0; s < n_swept; s++)
        if (s != sp->key_axis && s != sp->along_axis && strcmp(p->swept[s], q->swept[s]) != 0)
            return 0;
    return 1;
}

static void group_label(FILE *out, const run_point *p, const char *const *swept, int n_swept, const spec *sp)
{
    int any = 0;
    for (int s = 0; s < n_swept; s++)
        if (s != sp->key_axis && s != sp->along_axis) {
            fprintf(out, "%s%s = %s", any ? ", " : "  [", swept[s], p->swept[s]);
            any = 1;
        }
    fprintf(out, any ? "] " : "  ");
}

/* The point of group g with key value `kv` and along value `av`. */
static const run_point *find(const run_point *pts, long n, const run_point *g, int n_swept,
                             const spec *sp, const char *kv, const char *av)
{
    for (long i = 0; i < n; i++)
        if (same_group(&pts[i], g, n_swept, sp) && strcmp(pts[i].swept[sp->along_axis], av) == 0 &&
            (sp->key_axis < 0 || strcmp(pts[i].swept[sp->key_axis], kv) == 0))
            return &pts[i];
    return NULL;
}

static void pairwise(FILE *out, const run_point *pts, long n, const run_point *g, int n_swept,
                     const spec *sp)
{
    char buf[64];
    int wins_a = 0, wins_b = 0, grows = 1, changes = 0, last_winner = 0, shown = 0;
    double last_ratio = 0;
    char first_a[64] = "", switch_at[64] = "";
    fprintf(out, "T(%s)/T(%s) along %s:", sp->b, sp->a, sp->along);
    for (long i = 0; i < n; i++) {
        const run_point *p = &pts[i];
        if (!same_group(p, g, n_swept, sp) || strcmp(p->swept[sp->key_axis], sp->a) != 0)
            continue;
        const char *av = p->swept[sp->along_axis];
        const run_point *q = find(pts, n, g, n_swept, sp, sp->b, av);
        if (!q)
            continue;
        double ratio = q->result.T / p->result.T;
        fprintf(out, "%s %.3g at %s", shown++ ? "," : "", ratio, pretty(av, buf, sizeof buf));
        int winner = ratio > 1 ? 1 : ratio < 1 ? 2 : 0;
        wins_a += winner == 1;
        wins_b += winner == 2;
        if (winner == 1 && !first_a[0])
            snprintf(first_a, sizeof first_a, "%s", pretty(av, buf, sizeof buf));
        if (winner && last_winner && winner != last_winner) {
            changes++;
            snprintf(switch_at, sizeof switch_at, "%s", pretty(av, buf, sizeof buf));
        }
        if (winner)
            last_winner = winner;
        if (last_ratio > 0 && ratio < last_ratio)
            grows = 0;
        last_ratio = ratio;
    }
    fprintf(out, "\n    %s faster at %d point%s, %s faster at %d", sp->a, wins_a, wins_a == 1 ? "" : "s",
            sp->b, wins_b);
    if (changes == 1)
        fprintf(out, "; the winner changes once, at %s = %s (%s wins from there on)", sp->along, switch_at,
                last_winner == 1 ? sp->a : sp->b);
    else if (changes > 1)
        fprintf(out, "; the winner changes %d times", changes);
    else if (wins_a && !wins_b)
        fprintf(out, "; %s wins for every %s >= %s", sp->a, sp->along, first_a);
    fprintf(out, "; the ratio %s with %s\n", grows ? "grows (never falls)" : "does not always grow",
            sp->along);
}

static void best_of(FILE *out, const run_point *pts, long n, const run_point *g, int n_swept, const spec *sp)
{
    char buf[64];
    fprintf(out, "best %s along %s:", sp->key, sp->along);
    for (long i = 0; i < n; i++) {
        const run_point *p = &pts[i];
        if (!same_group(p, g, n_swept, sp))
            continue;
        /* first point of this along value in the group? */
        int first = 1;
        for (long j = 0; j < i && first; j++)
            first = !(same_group(&pts[j], g, n_swept, sp) &&
                      strcmp(pts[j].swept[sp->along_axis], p->swept[sp->along_axis]) == 0);
        if (!first)
            continue;
        const run_point *best = p, *worst = p;
        for (long j = 0; j < n; j++)
            if (same_group(&pts[j], g, n_swept, sp) &&
                strcmp(pts[j].swept[sp->along_axis], p->swept[sp->along_axis]) == 0) {
                if (pts[j].result.T < best->result.T)
                    best = &pts[j];
                if (pts[j].result.T > worst->result.T)
                    worst = &pts[j];
            }
        fprintf(out, " %s = %s at %s (worst/best %.3g);", sp->key, best->swept[sp->key_axis],
                pretty(p->swept[sp->along_axis], buf, sizeof buf), worst->result.T / best->result.T);
    }
    fprintf(out, "\n");
}

/* Least squares T = alpha + beta·along over the points of group g. */
typedef struct line { double alpha, beta, r2; int k; } line;

static line fit_line(const run_point *pts, long n, const run_point *g, int n_swept, const spec *sp)
{
    double sx = 0, sy = 0, sxx = 0, sxy = 0, syy = 0;
    int k = 0;
    for (long i = 0; i < n; i++)
        if (same_group(&pts[i], g, n_swept, sp)) {
            double x = strtod(pts[i].swept[sp->along_axis], NULL), y = pts[i].result.T;
            sx += x, sy += y, sxx += x * x, sxy += x * y, syy += y * y, k++;
        }
    line f;
    f.k = k;
    f.beta = (k * sxy - sx * sy) / (k * sxx - sx * sx);
    f.alpha = (sy - f.beta * sx) / k;
    double r = (k * sxy - sx * sy) / sqrt((k * sxx - sx * sx) * (k * syy - sy * sy));
    f.r2 = r * r;
    return f;
}

static void linear_fit(FILE *out, const run_point *pts, long n, const run_point *g, int n_swept, const spec *sp)
{
    int shown = 0;
    fprintf(out, "T per unit of %s:", sp->along);
    for (long i = 0; i < n; i++) {
        if (!same_group(&pts[i], g, n_swept, sp))
            continue;
        double x = strtod(pts[i].swept[sp->along_axis], NULL);
        char buf[64];
        fprintf(out, "%s %.4g at %s = %s", shown++ ? "," : "", pts[i].result.T / x, sp->along,
                pretty(pts[i].swept[sp->along_axis], buf, sizeof buf));
    }
    line f = fit_line(pts, n, g, n_swept, sp);
    fprintf(out, "\n    least squares: T = %.6g + %.6g·%s, R² = %.6f over %d points\n", f.alpha, f.beta,
            sp->along, f.r2, f.k);
}

int compare_print(FILE *out, const config_setting_t *compare, const run_point *pts, long n,
                  const char *const *swept, int n_swept, const char *source)
{
    spec sp;
    if (read_spec(compare, swept, n_swept, &sp) < 0)
        return -1;
    fprintf(out, "claim: %s\n", sp.claim ? sp.claim : "(the run file states no claim)");
    const machine *m = &pts[0].machine;
    int machines_swept = 0;
    for (int s = 0; s < n_swept; s++)
        machines_swept |= strcmp(swept[s], "machine") == 0;
    if (source)
        fprintf(out, "%s:\n", source);
    else if (machines_swept)
        fprintf(out, "simulated on each machine swept:\n");
    else if (m->kind == KIND_MCM)
        fprintf(out, "machine '%s' (P = %d, U = %g, policy %s), simulated:\n", m->name, m->p, m->u,
                memory_policy_name(m->policy));
    else
        fprintf(out, "%s machine (w = %d, l = %d; p as each point sets it), time in units:\n",
                machine_kind_name(m->kind), m->warp, m->latency);
    for (long i = 0; i < n; i++) {
        int first = 1; /* one line per group: at its first point */
        for (long j = 0; j < i && first; j++)
            first = !same_group(&pts[j], &pts[i], n_swept, &sp);
        if (!first)
            continue;
        group_label(out, &pts[i], swept, n_swept, &sp);
        if (sp.a)
            pairwise(out, pts, n, &pts[i], n_swept, &sp);
        else if (sp.best)
            best_of(out, pts, n, &pts[i], n_swept, &sp);
        else
            linear_fit(out, pts, n, &pts[i], n_swept, &sp);
    }
    return 0;
}

/* "s = 4, l = 256" for the group of p (the swept keys but key and along). */
static void group_text(const run_point *p, const char *const *swept, int n_swept, const spec *sp, char *out,
                       size_t size)
{
    out[0] = '\0';
    for (int s = 0; s < n_swept; s++)
        if (s != sp->key_axis && s != sp->along_axis) {
            size_t len = strlen(out);
            snprintf(out + len, size - len, "%s%s = %s", len ? ", " : "", swept[s], p->swept[s]);
        }
}

static int first_of_group(const run_point *pts, long i, int n_swept, const spec *sp)
{
    for (long j = 0; j < i; j++)
        if (same_group(&pts[j], &pts[i], n_swept, sp))
            return 0;
    return 1;
}


int compare_verdicts(const config_setting_t *compare, const run_point *pts, long n,
                     const char *const *swept, int n_swept, char (*verdicts)[VERDICT_SIZE], int max)
{
    spec sp;
    if (read_spec(compare, swept, n_swept, &sp) < 0)
        return -1;
    int k = 0;
    char group[96];
    for (long i = 0; i < n && k < max; i++) {
        const run_point *p = &pts[i];
        group_text(p, swept, n_swept, &sp, group, sizeof group);
        if (sp.linear) {
            if (first_of_group(pts, i, n_swept, &sp))
                snprintf(verdicts[k++], VERDICT_SIZE, "%s: %s", group,
                         fit_line(pts, n, p, n_swept, &sp).r2 >= 0.99 ? "linear" : "not linear");
            continue;
        }
        const char *av = p->swept[sp.along_axis];
        if (sp.a) {
            if (strcmp(p->swept[sp.key_axis], sp.a) != 0)
                continue;
            const run_point *q = find(pts, n, p, n_swept, &sp, sp.b, av);
            if (q)
                snprintf(verdicts[k++], VERDICT_SIZE, "%s|%s = %s: %s", group, sp.along, av,
                         q->result.T > p->result.T ? sp.a : q->result.T < p->result.T ? sp.b : "tie");
            continue;
        }
        /* best: once per (group, along value), at its first point */
        int first = 1;
        for (long j = 0; j < i && first; j++)
            first = !(same_group(&pts[j], p, n_swept, &sp) && strcmp(pts[j].swept[sp.along_axis], av) == 0);
        if (!first)
            continue;
        const run_point *best = p;
        for (long j = 0; j < n; j++)
            if (same_group(&pts[j], p, n_swept, &sp) && strcmp(pts[j].swept[sp.along_axis], av) == 0 &&
                pts[j].result.T < best->result.T)
                best = &pts[j];
        snprintf(verdicts[k++], VERDICT_SIZE, "%s|%s = %s: %s = %s", group, sp.along, av, sp.key,
                 best->swept[sp.key_axis]);
    }
    return k;
}
