/*
 * targets.c — the card model's targets, case by case, and what a case that
 * misses one lacks (REPORT.md's headline, outputs.c's write_report).
 *
 * The targets (issue 10; validate/notes/history.md): on each set, a case's
 * median absolute relative error at most 10 %, its 90th percentile at most
 * 25 %, its Spearman rank correlation at least 0.95 (not judged under 3
 * points), and the card's verdict at every point of every paper
 * conclusion.  For each case or conclusion that misses one, the section
 * says how far, on which side of the card its points lie, and the term the
 * model lacks with its measured evidence, as validate/notes/missing-terms.cfg
 * names them.  That file is analysis, written by hand; this one only
 * reads it, and says so where a miss has no term named.
 *
 * missing-terms.cfg (libconfig):
 *   missing = ( { name = "euclid"; term = "..."; evidence = "..."; }, ... );
 * name: a case study (as in points.csv) or a conclusion's run file
 * ("programs/plain-mult.cfg"); term and evidence: one paragraph each.
 */
#include "fail.h"
#include "validate.h"

#include <libconfig.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define TARGET_MEDIAN 0.10
#define TARGET_P90 0.25
#define TARGET_SPEARMAN 0.95
#define MAX_SETS 8
#define MAX_CONCLUSIONS 64

typedef struct named_term {
    const char *name, *term, *evidence;
} named_term;

typedef struct missing_terms {
    config_t cfg;
    named_term *t;
    int n;
} missing_terms;

static const char *entry_string(config_setting_t *e, const char *key, const char *path, int i)
{
    const char *s = NULL;
    if (!config_setting_lookup_string(e, key, &s) || !*s) {
        fail("%s:%d: entry %d of `missing` needs `%s`, a non-empty string", path, config_setting_source_line(e),
             i + 1, key);
        return NULL;
    }
    return s;
}

/* Read path into *m; a file that does not exist names nothing. */
static int missing_terms_load(missing_terms *m, const char *path)
{
    config_init(&m->cfg);
    m->t = NULL;
    m->n = 0;
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    fclose(f);
    if (!config_read_file(&m->cfg, path))
        return fail("%s:%d: %s", path, config_error_line(&m->cfg), config_error_text(&m->cfg));
    config_setting_t *list = config_lookup(&m->cfg, "missing");
    if (!list || !config_setting_is_list(list))
        return fail("%s: needs `missing = ( {...}, ... );`, a list of groups", path);
    int n = config_setting_length(list);
    m->t = calloc((size_t)n + 1, sizeof *m->t);
    for (int i = 0; i < n; i++) {
        config_setting_t *e = config_setting_get_elem(list, (unsigned)i);
        if (!config_setting_is_group(e))
            return fail("%s:%d: entry %d of `missing` must be a group { name = ...; term = ...; evidence = ...; }",
                        path, config_setting_source_line(e), i + 1);
        named_term *t = &m->t[m->n];
        if (!(t->name = entry_string(e, "name", path, i)) || !(t->term = entry_string(e, "term", path, i)) ||
            !(t->evidence = entry_string(e, "evidence", path, i)))
            return -1;
        for (int j = 0; j < m->n; j++)
            if (strcmp(m->t[j].name, t->name) == 0)
                return fail("%s:%d: `%s` is named twice", path, config_setting_source_line(e), t->name);
        m->n++;
    }
    return 0;
}

static void missing_terms_free(missing_terms *m)
{
    free(m->t);
    config_destroy(&m->cfg);
}

static const named_term *term_of(const missing_terms *m, const char *name)
{
    for (int i = 0; i < m->n; i++)
        if (strcmp(m->t[i].name, name) == 0)
            return &m->t[i];
    return NULL;
}

/* Bit flags of the figures of s that miss their target. */
enum { MISS_MEDIAN = 1, MISS_P90 = 2, MISS_SPEARMAN = 4 };

static int misses(const error_stats *s)
{
    int m = 0;
    if (s->n == 0)
        return 0;
    if (s->median > TARGET_MEDIAN)
        m |= MISS_MEDIAN;
    if (s->p90 > TARGET_P90)
        m |= MISS_P90;
    if (!isnan(s->spearman) && s->spearman < TARGET_SPEARMAN)
        m |= MISS_SPEARMAN;
    return m;
}

/* "**38.2**" when the figure misses, "3.9" when it does not. */
static void figure(FILE *f, const char *format, double x, int missed)
{
    fputs(missed ? "**" : "", f);
    fprintf(f, format, x);
    fputs(missed ? "**" : "", f);
}

static void stats_cell(FILE *f, const error_stats *s)
{
    if (s->n == 0) {
        fprintf(f, " – |");
        return;
    }
    int m = misses(s);
    fprintf(f, " ");
    figure(f, "%.1f", 100 * s->median, m & MISS_MEDIAN);
    fprintf(f, " / ");
    figure(f, "%.1f", 100 * s->p90, m & MISS_P90);
    fprintf(f, " / ");
    if (isnan(s->spearman))
        fprintf(f, "n/a");
    else
        figure(f, "%.3f", s->spearman, m & MISS_SPEARMAN);
    fprintf(f, " |");
}

/* Every case of every set, in order of first appearance. */
static int all_cases(const validation *sets, int n_sets, const char **names, int max)
{
    int k = 0;
    for (int i = 0; i < n_sets; i++) {
        const char *mine[64];
        int n = validation_cases(&sets[i], mine, 64);
        for (int j = 0; j < n; j++) {
            int seen = 0;
            for (int q = 0; q < k; q++)
                seen |= strcmp(names[q], mine[j]) == 0;
            if (!seen && k < max)
                names[k++] = mine[j];
        }
    }
    return k;
}

/* Range of a figure over the sets where it misses: "; median 38.1–41.0 % (target ≤ 10 %)". */
static void miss_range(FILE *f, const char *what, const char *target, const error_stats *s, int n_sets, int flag)
{
    double lo = INFINITY, hi = -INFINITY;
    for (int i = 0; i < n_sets; i++) {
        if (!(misses(&s[i]) & flag))
            continue;
        double x = flag == MISS_MEDIAN ? 100 * s[i].median : flag == MISS_P90 ? 100 * s[i].p90 : s[i].spearman;
        lo = fmin(lo, x);
        hi = fmax(hi, x);
    }
    if (lo > hi)
        return;
    const char *format = flag == MISS_SPEARMAN ? "%.3f" : "%.1f %%";
    char a[32], b[32];
    snprintf(a, sizeof a, format, lo);
    snprintf(b, sizeof b, format, hi);
    fprintf(f, "; %s %s%s%s (target %s)", what, strcmp(a, b) == 0 ? "" : a, strcmp(a, b) == 0 ? "" : " to ", b, target);
}

static void lacks(FILE *f, const missing_terms *m, const char *name, int *unnamed)
{
    const named_term *t = term_of(m, name);
    if (t) {
        fprintf(f, " **Lacks:** %s *Evidence:* %s\n", t->term, t->evidence);
    } else {
        fprintf(f, " **No term named** (validate/notes/missing-terms.cfg has no entry `%s`).\n", name);
        (*unnamed)++;
    }
}

/* One case that misses on some set: how far, which side, what it lacks. */
static void case_miss(FILE *f, const validation *sets, int n_sets, const char *name, const error_stats *s,
                      const missing_terms *m, int *unnamed)
{
    int below = 0, points = 0;
    for (int i = 0; i < n_sets; i++)
        for (int j = 0; j < sets[i].n; j++) {
            const vpoint *p = &sets[i].pts[j];
            int split = validation_split(&sets[i]);
            if (strcmp(p->row->program, name) != 0 || (split >= 0 && p->train != split))
                continue;
            points++;
            below += p->sim_ms < measured_ms(p->row);
        }
    fprintf(f, "- **%s** (misses on set", name);
    const char *sep = " ";
    for (int i = 0; i < n_sets; i++)
        if (misses(&s[i])) {
            fprintf(f, "%s%s", sep, sets[i].name);
            sep = ", ";
        }
    fprintf(f, ")");
    miss_range(f, "median", "≤ 10 %", s, n_sets, MISS_MEDIAN);
    miss_range(f, "90th percentile", "≤ 25 %", s, n_sets, MISS_P90);
    miss_range(f, "Spearman", "≥ 0.95", s, n_sets, MISS_SPEARMAN);
    fprintf(f, "; simulated below the card at %d of the %d points the sets score.", below, points);
    lacks(f, m, name, unnamed);
}

/* Every conclusion's run file of every set, in order of first appearance. */
static int all_conclusions(const set_verdicts *v, int n_sets, const char **paths, int max)
{
    int k = 0;
    for (int i = 0; i < n_sets; i++)
        for (int j = 0; j < v[i].n; j++) {
            int seen = 0;
            for (int q = 0; q < k; q++)
                seen |= strcmp(paths[q], v[i].file[j].path) == 0;
            if (!seen && k < max)
                paths[k++] = v[i].file[j].path;
        }
    return k;
}

static const verdict_tally *tally_of(const set_verdicts *v, const char *path)
{
    for (int j = 0; j < v->n; j++)
        if (strcmp(v->file[j].path, path) == 0)
            return &v->file[j];
    return NULL;
}

/* One conclusion whose verdicts differ on some set. */
static void conclusion_miss(FILE *f, const validation *sets, const set_verdicts *verdicts, int n_sets,
                            const char *path, const missing_terms *m, int *unnamed)
{
    const char *sep = " ";
    for (int i = 0; i < n_sets; i++) {
        const verdict_tally *t = tally_of(&verdicts[i], path);
        if (!t || t->agree == t->total)
            continue;
        if (sep[0] == ' ')
            fprintf(f, "- **`%s`** (verdicts differ on set", path);
        fprintf(f, "%s%s: %d of %d agree", sep, sets[i].name, t->agree, t->total);
        sep = ", ";
    }
    if (sep[0] == ' ')
        return;
    fprintf(f, "; each set's section lists the verdicts that differ).");
    lacks(f, m, path, unnamed);
}

/* The table of cases: s[c][i] gets case c's figures on set i. */
static void cases_table(FILE *f, const validation *sets, int n_sets, const char **names, int k,
                        error_stats (*s)[MAX_SETS])
{
    fprintf(f, "## The targets, case by case\n\n"
               "Each set's median absolute relative error (target ≤ 10 %%), 90th percentile (≤ 25 %%) and\n"
               "Spearman rank correlation (≥ 0.95; not judged under 3 points); a figure that misses is in bold.\n\n"
               "| case |");
    for (int i = 0; i < n_sets; i++)
        fprintf(f, " set %s |", sets[i].name);
    fprintf(f, " met on |\n|---|");
    for (int i = 0; i <= n_sets; i++)
        fprintf(f, "---|");
    fprintf(f, "\n");
    for (int c = 0; c < k; c++) {
        fprintf(f, "| %s |", names[c]);
        const char *sep = " ";
        char met[32] = "";
        for (int i = 0; i < n_sets; i++) {
            s[c][i] = validation_errors(&sets[i], names[c], validation_split(&sets[i]));
            stats_cell(f, &s[c][i]);
            if (s[c][i].n > 0 && !misses(&s[c][i])) {
                size_t used = strlen(met);
                snprintf(met + used, sizeof met - used, "%s%s", sep, sets[i].name);
                sep = ", ";
            }
        }
        fprintf(f, "%s |\n", met[0] ? met : " none");
    }
}

/* A cell of the conclusions' table: agreed of total, bold if short; on
 * the code's costs the verdicts not decided beside them. */
static void verdicts_cell(FILE *f, const verdict_tally *t, int code)
{
    if (!t || (code && !t->code)) {
        fprintf(f, " – |");
        return;
    }
    int agree = code ? t->code_agree : t->agree, total = code ? t->code_total : t->total;
    fprintf(f, agree < total ? " **%d of %d**" : " %d of %d", agree, total);
    if (code && t->code_undecided)
        fprintf(f, "; %d not decided", t->code_undecided);
    fprintf(f, " |");
}

/* The table of conclusions, one row per run file of paths; the code's
 * costs' columns beside the paper's where a set was compared on them. */
static void conclusions_table(FILE *f, const validation *sets, const set_verdicts *verdicts, int n_sets,
                              const char **paths, int n_paths)
{
    int code = 0;
    for (int i = 0; i < n_sets; i++)
        for (int j = 0; j < verdicts[i].n; j++)
            code |= verdicts[i].file[j].code;
    fprintf(f, "\nThe papers' conclusions: verdicts on which the card and the simulator agree (target: all)");
    if (code)
        fprintf(f, ", on the paper's costs and on the code's (a verdict decided there where every point behind "
                   "it was run in exec mode; the others not decided: \"The papers' conclusions on the code's "
                   "costs\" below)");
    fprintf(f, ".\n\n| conclusion |");
    for (int i = 0; i < n_sets; i++)
        fprintf(f, code ? " set %s, paper's costs | set %s, code's costs |" : " set %s |", sets[i].name,
                sets[i].name);
    fprintf(f, "\n|---|");
    for (int i = 0; i < n_sets * (code ? 2 : 1); i++)
        fprintf(f, "---|");
    fprintf(f, "\n");
    for (int r = 0; r < n_paths; r++) {
        fprintf(f, "| `%s` |", paths[r]);
        for (int i = 0; i < n_sets; i++) {
            const verdict_tally *t = tally_of(&verdicts[i], paths[r]);
            verdicts_cell(f, t, 0);
            if (code)
                verdicts_cell(f, t, 1);
        }
        fprintf(f, "\n");
    }
}

int write_targets(FILE *f, const validation *sets, const set_verdicts *verdicts, int n_sets, const char *missing_path,
                  const char *between, int *unnamed)
{
    if (n_sets > MAX_SETS)
        return fail("write_targets: %d sets, at most %d", n_sets, MAX_SETS);
    missing_terms m;
    if (missing_terms_load(&m, missing_path) < 0) {
        missing_terms_free(&m);
        return -1;
    }
    const char *names[64], *paths[MAX_CONCLUSIONS];
    int k = all_cases(sets, n_sets, names, 64), n_paths = all_conclusions(verdicts, n_sets, paths, MAX_CONCLUSIONS);
    error_stats(*s)[MAX_SETS] = calloc((size_t)k + 1, sizeof *s);
    cases_table(f, sets, n_sets, names, k, s);
    if (between)
        fputs(between, f);
    conclusions_table(f, sets, verdicts, n_sets, paths, n_paths);
    fprintf(f, "\n### What the cases that miss lack\n\n"
               "How far each case that misses a target is from it (over the sets where it misses), on which side\n"
               "of the card its points lie, and the term the model lacks with its measured evidence, as\n"
               "`validate/notes/missing-terms.cfg` names them (the analysis: `validate/notes/card-model.md`).\n\n");
    *unnamed = 0;
    for (int c = 0; c < k; c++) {
        int any = 0;
        for (int i = 0; i < n_sets; i++)
            any |= misses(&s[c][i]);
        if (any)
            case_miss(f, sets, n_sets, names[c], s[c], &m, unnamed);
    }
    for (int r = 0; r < n_paths; r++)
        conclusion_miss(f, sets, verdicts, n_sets, paths[r], &m, unnamed);
    fprintf(f, "\n");
    if (*unnamed == 0)
        fprintf(f, "Every miss has its term named.\n\n");
    free(s);
    missing_terms_free(&m);
    return 0;
}
