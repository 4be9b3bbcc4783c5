/*
 * test_targets.c — the report's targets, case by case (validate/targets.c):
 * which figures miss, how far, and the term named for each miss.
 */
#include "fail.h"
#include "validate.h"

#include "helpers.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { N = 6 };

/* Set "z": N points of `program`, the simulated time `ratio` times the
 * measured one (ratios[i] per point), sizes 1..N. */
typedef struct one_set {
    measured_row rows[N];
    vpoint pts[N];
    session s;
    validation v;
} one_set;

static void set_up(one_set *o, const char *program, const double *ratios)
{
    memset(o, 0, sizeof *o);
    for (int i = 0; i < N; i++) {
        measured_row *r = &o->rows[i];
        snprintf(r->program, sizeof r->program, "%s", program);
        vars_clear(&r->values);
        vars_set(&r->values, "n", i + 1);
        r->new_protocol = 1;
        r->graph.median = 1.0 + i;
        o->pts[i].row = r;
        o->pts[i].sim_ms = ratios[i] * r->graph.median;
    }
    o->s = (session){.card = "t", .rows = o->rows, .n = N};
    o->v = (validation){.name = "z", .s = &o->s, .pts = o->pts, .n = N};
}

static int unnamed; /* write_targets' count of misses with no term, for the last call */

/* The targets section for one set, its conclusions `verdicts`, and a
 * missing-terms file holding `terms` (NULL: no file). */
static char *targets(const one_set *o, const set_verdicts *verdicts, const char *terms, int *rc)
{
    char path[64];
    snprintf(path, sizeof path, "/tmp/mcmsim-terms-%d.cfg", (int)getpid());
    unlink(path);
    if (terms) {
        FILE *t = fopen(path, "w");
        cr_assert_not_null(t);
        fputs(terms, t);
        fclose(t);
    }
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    cr_assert_not_null(f);
    unnamed = -1;
    *rc = write_targets(f, &o->v, verdicts, 1, path, NULL, &unnamed);
    fclose(f);
    unlink(path);
    return text;
}

/* The same, for a terms file that must be accepted. */
static char *targets_ok(const one_set *o, const set_verdicts *verdicts, const char *terms)
{
    int rc;
    char *text = targets(o, verdicts, terms, &rc);
    cr_assert_eq(rc, 0, "%s", fail_message());
    return text;
}

static const set_verdicts no_conclusions = {.n = 0};

static const double within[N] = {0.95, 1.02, 0.97, 1.05, 0.98, 0.96};   /* median 3.5 %, p90 5 % */
static const double below[N] = {0.70, 0.72, 0.75, 0.66, 0.71, 0.73};    /* median 28.5 %, p90 32 % */

Test(targets, a_case_within_its_targets_is_met_and_not_listed)
{
    one_set o;
    set_up(&o, "sum", within);
    char *text = targets_ok(&o, &no_conclusions, NULL);
    cr_expect(strstr(text, "| sum | 3.5 / 5.0 / 1.000 | z |") != NULL, "%s", text);
    cr_expect(strstr(text, "- **sum**") == NULL, "a case that meets its targets listed as a miss:\n%s", text);
    cr_expect(strstr(text, "Every miss has its term named.") != NULL, "%s", text);
    free(text);
}

Test(targets, a_miss_is_bold_measured_and_given_its_named_term)
{
    one_set o;
    set_up(&o, "euclid", below);
    char *text = targets_ok(&o, &no_conclusions,
                            "missing = ( { name = \"euclid\"; term = \"the instruction stream.\";"
                            " evidence = \"profiles/euclid.txt\"; } );\n");
    cr_expect(strstr(text, "| euclid | **28.5** / **32.0** / 1.000 | none |") != NULL, "%s", text);
    cr_expect(strstr(text, "- **euclid** (misses on set z); median 28.5 % (target ≤ 10 %); "
                           "90th percentile 32.0 % (target ≤ 25 %); simulated below the card at 6 of the 6 points") !=
                  NULL,
              "%s", text);
    cr_expect(strstr(text, "**Lacks:** the instruction stream. *Evidence:* profiles/euclid.txt") != NULL, "%s", text);
    cr_expect_eq(unnamed, 0);
    cr_expect(strstr(text, "Every miss has its term named.") != NULL, "%s", text);
    free(text);
}

Test(targets, a_miss_without_a_term_says_so)
{
    one_set o;
    set_up(&o, "euclid", below);
    char *text = targets_ok(&o, &no_conclusions, "missing = ( { name = \"sum\"; term = \"t\"; evidence = \"e\"; } );\n");
    cr_expect(strstr(text, "**No term named** (validate/notes/missing-terms.cfg has no entry `euclid`)") != NULL,
              "%s", text);
    cr_expect(strstr(text, "Every miss has its term named.") == NULL, "%s", text);
    cr_expect_eq(unnamed, 1);
    free(text);
}

/* Ranks reversed: each error within 10 %, but the order is the card's
 * backwards, so only Spearman misses. */
Test(targets, a_wrong_order_misses_spearman_alone)
{
    one_set o;
    set_up(&o, "stockham", within);
    for (int i = 0; i < N; i++)
        o.rows[i].graph.median = 1.0 + 0.01 * (N - i), o.pts[i].sim_ms = 1.0 + 0.01 * i;
    char *text = targets_ok(&o, &no_conclusions, NULL);
    cr_expect(strstr(text, "/ **-1.000** | none |") != NULL, "%s", text);
    cr_expect(strstr(text, "; Spearman -1.000 (target ≥ 0.95)") != NULL, "%s", text);
    const char *line = strstr(text, "- **stockham** (misses on set z); Spearman");
    cr_expect(line != NULL, "only Spearman should be listed as missed:\n%s", text);
    free(text);
}

Test(targets, a_conclusion_that_disagrees_is_listed_with_its_term)
{
    one_set o;
    set_up(&o, "plain-mult", within);
    set_verdicts v = {.n = 2};
    v.file[0] = (verdict_tally){.path = "programs/fft.cfg", .agree = 7, .total = 7};
    v.file[1] = (verdict_tally){.path = "programs/plain-mult.cfg", .agree = 3, .total = 6};
    char *text = targets_ok(&o, &v,
                            "missing = ( { name = \"programs/plain-mult.cfg\"; term = \"the best s.\";"
                            " evidence = \"notes\"; } );\n");
    cr_expect(strstr(text, "| `programs/fft.cfg` | 7 of 7 |") != NULL, "%s", text);
    cr_expect(strstr(text, "| `programs/plain-mult.cfg` | **3 of 6** |") != NULL, "%s", text);
    cr_expect(strstr(text, "- **`programs/plain-mult.cfg`** (verdicts differ on set z: 3 of 6 agree;") != NULL, "%s",
              text);
    cr_expect(strstr(text, "- **`programs/fft.cfg`**") == NULL, "%s", text);
    cr_expect(strstr(text, "**Lacks:** the best s.") != NULL, "%s", text);
    free(text);
}

Test(targets, a_bad_terms_file_is_refused_with_its_place)
{
    one_set o;
    set_up(&o, "sum", within);
    const struct {
        const char *file, *want;
    } bad[] = {
        {"missing = ( { name = \"sum\"; term = \"t\"; evidence = \"e\"; } \n", ":2: syntax error"},
        {"missing = ( { name = \"sum\"; evidence = \"e\"; } );\n", ":1: entry 1 of `missing` needs `term`"},
        {"missing = ( { name = \"sum\"; term = \"\"; evidence = \"e\"; } );\n", "needs `term`, a non-empty string"},
        {"missing = { name = \"sum\"; };\n", "needs `missing = ( {...}, ... );`"},
        {"missing = ( \"sum\" );\n", ":1: entry 1 of `missing` must be a group"},
        {"missing = ( { name = \"sum\"; term = \"t\"; evidence = \"e\"; },\n"
         "            { name = \"sum\"; term = \"u\"; evidence = \"f\"; } );\n",
         ":2: `sum` is named twice"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int rc;
        char *text = targets(&o, &no_conclusions, bad[i].file, &rc);
        cr_expect_eq(rc, -1, "accepted: %s", bad[i].file);
        cr_expect(strstr(fail_message(), bad[i].want) != NULL, "for %s: message '%s', want '%s'", bad[i].file,
                  fail_message(), bad[i].want);
        free(text);
    }
}

/* The first line of a table (a line that starts with '|') in text. */
static const char *first_table(const char *text)
{
    for (const char *line = text; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL)
        if (*line == '|')
            return line;
    return NULL;
}

/* REPORT.md opens with its headline: its first table is the targets case
 * by case, the scatter plot and the conclusions follow, then the sets, and
 * the noise floor comes last. */
Test(targets, the_reports_first_table_is_the_targets_table)
{
    one_set o;
    set_up(&o, "sum", within);
    set_verdicts v = {.n = 1};
    v.file[0] = (verdict_tally){.path = "programs/fft.cfg", .agree = 7, .total = 7};
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    cr_assert_not_null(f);
    int unnamed_here = -1;
    int rc = write_report(f, &o.v, &v, 1, "/nonexistent/missing-terms.cfg", "MACHINES\n\n",
                          "## Set z\n\n| case | points |\n|---|---|\n", "| card | newest pair |\n", &unnamed_here);
    fclose(f);
    cr_assert_eq(rc, 0, "%s", fail_message());
    const char *table = first_table(text);
    cr_assert_not_null(table, "%s", text);
    cr_expect(strncmp(table, "| case | set z | met on |", 25) == 0, "the first table is not the targets':\n%s", table);
    const char *scatter = strstr(text, "](scatter.png)"), *conclusions = strstr(text, "| conclusion | set z |");
    const char *set = strstr(text, "## Set z"), *noise = strstr(text, "## The noise floor");
    cr_expect(scatter && conclusions && set && noise, "%s", text);
    cr_expect(table < scatter && scatter < conclusions && conclusions < set && set < noise, "out of order:\n%s", text);
    free(text);
}

/* The committed report (make validate's) opens the same way, its scatter
 * plots (the paper's costs, the code's costs) and the pairwise noise floor
 * beside it. */
Test(targets, the_committed_report_opens_with_the_targets_table)
{
    long len;
    char *text = read_file(MCMSIM_DATADIR "/validate/report/REPORT.md", &len);
    cr_assert_not_null(text, "no validate/report/REPORT.md (make validate)");
    const char *table = first_table(text);
    cr_assert_not_null(table);
    cr_expect(strncmp(table, "| case | set a |", 16) == 0, "REPORT.md's first table:\n%.200s", table);
    cr_expect(access(MCMSIM_DATADIR "/validate/report/scatter.png", R_OK) == 0, "no scatter.png beside REPORT.md");
    cr_expect(strstr(text, "](scatter-code.png)") != NULL, "REPORT.md shows no picture of the code's costs");
    cr_expect(access(MCMSIM_DATADIR "/validate/report/scatter-code.png", R_OK) == 0, "no scatter-code.png beside REPORT.md");
    cr_expect(access(MCMSIM_DATADIR "/validate/report/noise-floor.md", R_OK) == 0, "no noise-floor.md");
    free(text);
}
