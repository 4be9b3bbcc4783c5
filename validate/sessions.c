/*
 * sessions.c — finding a card's sessions and comparing two of them
 * (see sessions.h).
 */
#include "sessions.h"
#include "fail.h"

#include <dirent.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int is_session_dir(const char *card_dir, const char *name)
{
    char path[1024];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", card_dir, name);
    return name[0] != '.' && stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* What cuda_ref/run-all.sh writes into device.txt since the protocol timed
 * one graph alive at a time. */
#define ONE_GRAPH_MARK "one graph alive at a time"

static int says_one_graph(const char *dir)
{
    char path[1100], line[512];
    snprintf(path, sizeof path, "%s/device.txt", dir);
    FILE *f = fopen(path, "r");
    int found = 0;
    while (f && !found && fgets(line, sizeof line, f))
        found = line[0] == '#' && strstr(line, ONE_GRAPH_MARK) != NULL;
    if (f)
        fclose(f);
    return found;
}

int sessions_load(const char *card, session **out, int *n)
{
    char card_dir[512];
    struct dirent **entries;
    snprintf(card_dir, sizeof card_dir, "validate/data/%s", card);
    int count = scandir(card_dir, &entries, NULL, alphasort);
    *out = NULL;
    *n = 0;
    if (count < 0)
        return 0;
    int rc = 0;
    *out = calloc((size_t)count, sizeof **out);
    for (int i = 0; i < count; i++) {
        if (rc == 0 && is_session_dir(card_dir, entries[i]->d_name)) {
            session *s = &(*out)[*n];
            snprintf(s->card, sizeof s->card, "%s", card);
            snprintf(s->name, sizeof s->name, "%.63s", entries[i]->d_name);
            snprintf(s->dir, sizeof s->dir, "%s/%s", card_dir, s->name);
            rc = measured_load(s->dir, &s->rows, &s->n);
            if (rc == 0) {
                s->old_protocol = !s->rows[0].new_protocol;
                s->one_graph = says_one_graph(s->dir);
                (*n)++;
            }
        }
        free(entries[i]);
    }
    free(entries);
    return rc;
}

void sessions_free(session *s, int n)
{
    for (int i = 0; i < n; i++)
        free(s[i].rows);
    free(s);
}

int sessions_last_new(const session *s, int before)
{
    for (int i = before - 1; i >= 0; i--)
        if (!s[i].old_protocol)
            return i;
    return -1;
}

/* Does s hold rows of case `program`? */
static int session_has(const session *s, const char *program)
{
    for (int i = 0; i < s->n; i++)
        if (strcmp(s->rows[i].program, program) == 0)
            return 1;
    return 0;
}

int session_disturbed(const session *s, const char *program)
{
    for (int i = 0; i < s->n; i++) {
        const measured_row *r = &s->rows[i];
        if (r->new_protocol && r->graph.median > 0 && strcmp(r->program, program) == 0 &&
            r->graph.q3 - r->graph.q1 > DISTURBED_SPREAD * r->graph.median)
            return 1;
    }
    return 0;
}

/* The number of distinct case studies s measured. */
static int session_cases(const session *s)
{
    int cases = 0;
    for (int i = 0; i < s->n; i++) {
        int first = 1;
        for (int j = 0; j < i && first; j++)
            first = strcmp(s->rows[j].program, s->rows[i].program) != 0;
        cases += first;
    }
    return cases;
}

int sessions_reference(const session *s, int n)
{
    int best = -1;
    for (int i = n; (i = sessions_last_new(s, i)) >= 0;)
        if (best < 0 || session_cases(&s[i]) > session_cases(&s[best]))
            best = i;
    return best;
}

/* Append entry to the comma-separated list (of `size` bytes); an entry
 * that would not fit is left out. */
static void list_add(char *list, size_t size, const char *entry)
{
    size_t used = strlen(list);
    if (used + strlen(entry) + 3 < size)
        snprintf(list + used, size - used, "%s%s", used ? ", " : "", entry);
}

/* Name "program (session)" in out->disturbed (sessions_compose passes
 * over each case's sessions once, newest first, so none is named twice). */
static void name_disturbed(session *out, const char *program, const session *s)
{
    char entry[128];
    snprintf(entry, sizeof entry, "%s (%s)", program, s->name);
    list_add(out->disturbed, sizeof out->disturbed, entry);
}

/* The newest session of the current protocol before `before` that
 * measured `program` undisturbed (one that timed one graph alive at a
 * time where `one_graph`), or -1; the disturbed ones passed over are
 * named in out->disturbed when `out` is given. */
static int last_with(const session *s, int before, const char *program, int one_graph, session *out)
{
    for (int i = before; (i = sessions_last_new(s, i)) >= 0;)
        if ((!one_graph || s[i].one_graph == 1) && session_has(&s[i], program)) {
            if (!session_disturbed(&s[i], program))
                return i;
            if (out)
                name_disturbed(out, program, &s[i]);
        }
    return -1;
}

/* Does the card have a session that timed one graph alive at a time? */
static int has_one_graph(const session *s, int n)
{
    for (int i = n; (i = sessions_last_new(s, i)) >= 0;)
        if (s[i].one_graph == 1)
            return 1;
    return 0;
}

int session_stands_for(const session *s, int n, int i, const char *program)
{
    return i >= 0 && i < n && !s[i].old_protocol && (!has_one_graph(s, n) || s[i].one_graph == 1) &&
           session_has(&s[i], program) && !session_disturbed(&s[i], program);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Every case study measured in a session of the current protocol, sorted,
 * into names (room for every row of s); they point into the rows of s. */
static int all_cases(const session *s, int n, const char **names)
{
    int k = 0;
    for (int i = n; (i = sessions_last_new(s, i)) >= 0;)
        for (int r = 0; r < s[i].n; r++) {
            int seen = 0;
            for (int j = 0; j < k && !seen; j++)
                seen = strcmp(names[j], s[i].rows[r].program) == 0;
            if (!seen)
                names[k++] = s[i].rows[r].program;
        }
    qsort(names, (size_t)k, sizeof *names, by_name);
    return k;
}

int sessions_compose(const session *s, int n, int depth, session *out)
{
    memset(out, 0, sizeof *out);
    size_t total = 1;
    for (int i = 0; i < n; i++)
        total += (size_t)s[i].n;
    const char **cases = malloc(sizeof *cases * total);
    out->rows = malloc(sizeof *out->rows * total);
    if (!cases || !out->rows) {
        free(cases);
        free(out->rows);
        out->rows = NULL;
        return fail("validate: out of memory composing the sessions of a card");
    }
    int n_cases = all_cases(s, n, cases), one_graph = has_one_graph(s, n);
    for (int c = 0; c < n_cases; c++) {
        int from = n, older = n;
        for (int d = 0; d <= depth; d++) {
            from = from >= 0 ? last_with(s, from, cases[c], one_graph, out) : -1;
            older = older >= 0 ? last_with(s, older, cases[c], 0, NULL) : -1;
        }
        if (from < 0 && older >= 0)
            list_add(out->older, sizeof out->older, cases[c]);
        if (from < 0)
            continue;
        const session *src = &s[from];
        out->one_graph = out->n == 0 || out->one_graph == src->one_graph ? src->one_graph : -1;
        snprintf(out->card, sizeof out->card, "%s", src->card);
        if (!strstr(out->name, src->name)) /* the sessions used, in order of first use */
            snprintf(out->name + strlen(out->name), sizeof out->name - strlen(out->name), "%s%s",
                     out->name[0] ? ", " : "", src->name);
        for (int r = 0; r < src->n; r++)
            if (strcmp(src->rows[r].program, cases[c]) == 0)
                out->rows[out->n++] = src->rows[r];
    }
    free(cases);
    return 0;
}

void measured_row_session(const measured_row *r, char *out, size_t size)
{
    const char *end = strrchr(r->file, '/'), *start = end;
    while (start && start > r->file && start[-1] != '/')
        start--;
    snprintf(out, size, "%.*s", end ? (int)(end - start) : 0, end ? start : "");
}

const measured_row *session_match(const session *s, const measured_row *r)
{
    for (int i = 0; i < s->n; i++)
        if (strcmp(s->rows[i].program, r->program) == 0 && strcmp(s->rows[i].params, r->params) == 0)
            return &s->rows[i];
    return NULL;
}

static double median_of(double *x, int n)
{
    gsl_sort(x, 1, (size_t)n);
    return gsl_stats_median_from_sorted_data(x, 1, (size_t)n);
}

static double worst_of(const double *ratio, int n)
{
    double w = 1;
    for (int i = 0; i < n; i++)
        w = fmax(w, fmax(ratio[i], 1 / ratio[i]));
    return w;
}

/* The agreement over the rows of a whose case is `program` (NULL: all). */
static agreement agree(const session *a, const session *b, const char *program)
{
    agreement g = {{0}, 0, NAN, NAN, NAN, NAN, NAN};
    double *wall = malloc(sizeof(double) * ((size_t)a->n + 1));
    double *graph = malloc(sizeof(double) * ((size_t)a->n + 1));
    double *dev = malloc(sizeof(double) * ((size_t)a->n + 1));
    snprintf(g.program, sizeof g.program, "%s", program ? program : "");
    for (int i = 0; i < a->n; i++) {
        const measured_row *ra = &a->rows[i], *rb = session_match(b, ra);
        if (!rb || (program && strcmp(ra->program, program) != 0))
            continue;
        wall[g.n] = rb->wall.median / ra->wall.median;
        graph[g.n] = ra->graph.median > 0 ? rb->graph.median / ra->graph.median : NAN;
        dev[g.n] = fabs(graph[g.n] - 1);
        g.n++;
    }
    if (g.n > 0) {
        g.wall_worst = worst_of(wall, g.n);
        g.graph_worst = worst_of(graph, g.n);
        g.wall_median = median_of(wall, g.n);
        g.graph_median = median_of(graph, g.n);
        g.graph_abs_median = median_of(dev, g.n);
    }
    free(wall);
    free(graph);
    free(dev);
    return g;
}

int sessions_agreement(const session *a, const session *b, agreement *out, int max)
{
    int k = 0;
    for (int i = 0; i < a->n && k < max - 1; i++) {
        int seen = 0;
        for (int j = 0; j < k; j++)
            seen |= strcmp(out[j].program, a->rows[i].program) == 0;
        if (!seen)
            out[k++] = agree(a, b, a->rows[i].program);
    }
    if (k < max)
        out[k++] = agree(a, b, NULL);
    return k;
}
