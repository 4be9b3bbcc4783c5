/*
 * handwritten.c — the case studies' kernels written once against the
 * hand-written CUDA programs they replaced, timed in the same session
 * (cuda_ref/run-all.sh --handwritten: each case's sweep run twice, the
 * kernels written once and the hand-written program, into the session's
 * handwritten/ folder).  Per session that has one and per case: the
 * ratio of the graph times, kernels written once over hand-written, point
 * by point, its median and its range; a case beyond 10 % either way is in
 * bold, and validate/notes/ported-speed.md says why.
 */
#include "fail.h"
#include "validate.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int by_value(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

/* The row of `rows` with r's case and params, or NULL. */
static const measured_row *same_point(const measured_row *r, const measured_row *rows, int n)
{
    for (int i = 0; i < n; i++)
        if (strcmp(rows[i].program, r->program) == 0 && strcmp(rows[i].params, r->params) == 0)
            return &rows[i];
    return NULL;
}

/* One case of session s: its ratios, written as a table row. */
static void case_row(FILE *f, const session *s, const char *program, const measured_row *hand, int n_hand)
{
    double ratio[512];
    int n = 0;
    for (int i = 0; i < s->n && n < 512; i++) {
        const measured_row *r = &s->rows[i], *h = strcmp(r->program, program) == 0 ? same_point(r, hand, n_hand)
                                                                                   : NULL;
        if (h && r->graph.median > 0 && h->graph.median > 0)
            ratio[n++] = r->graph.median / h->graph.median;
    }
    if (n == 0)
        return;
    qsort(ratio, (size_t)n, sizeof *ratio, by_value);
    double median = n % 2 ? ratio[n / 2] : (ratio[n / 2 - 1] + ratio[n / 2]) / 2;
    int off = fabs(median - 1) > 0.10;
    fprintf(f, "| %s | %d | %s%.3f%s | %.3f … %.3f |\n", program, n, off ? "**" : "", median, off ? "**" : "",
            ratio[0], ratio[n - 1]);
}

static void session_table(FILE *f, const session *s, const measured_row *hand, int n_hand)
{
    fprintf(f, "Session `%s` of the %s, graph times, kernels written once / hand-written:\n\n"
               "| case | points | median | range |\n|---|---|---|---|\n",
            s->name, s->card);
    for (int i = 0; i < n_hand; i++) /* each case once, in the hand-written rows' order */
        if (i == 0 || strcmp(hand[i].program, hand[i - 1].program) != 0)
            case_row(f, s, hand[i].program, hand, n_hand);
    fprintf(f, "\n");
}

int write_handwritten(FILE *f, const session *const *cards, const int *n_sessions, int n_cards)
{
    fprintf(f, "## The kernels written once against the hand-written programs\n\n"
               "Each case study's kernels are written once (`programs/CASE/kernels.c`): exec mode runs\n"
               "them, nvcc builds them for the card.  They replaced hand-written CUDA programs; the\n"
               "sessions below timed both, sweep by sweep (`cuda_ref/run-all.sh --handwritten`).  A median\n"
               "beyond 10 %% either way is in bold; [validate/notes/ported-speed.md](../notes/ported-speed.md)\n"
               "says why.\n\n");
    int any = 0;
    for (int c = 0; c < n_cards; c++)
        for (int i = 0; i < n_sessions[c]; i++) {
            const session *s = &cards[c][i];
            char dir[1100];
            struct stat st;
            snprintf(dir, sizeof dir, "%s/handwritten", s->dir);
            if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
                continue;
            measured_row *hand;
            int n_hand;
            if (measured_load(dir, &hand, &n_hand) < 0)
                return fail("%s: %s", dir, fail_message());
            session_table(f, s, hand, n_hand);
            free(hand);
            any = 1;
        }
    if (!any)
        fprintf(f, "No session timed the hand-written programs.\n\n");
    return 0;
}
