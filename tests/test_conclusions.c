/*
 * test_conclusions.c — the papers' conclusions on the code's costs
 * (validate/conclusions.c): a verdict is decided only where every point
 * behind it was run in exec mode, the others are named and counted, and
 * the headline's table sets the code's costs beside the paper's.
 *
 * The conclusion is plain-mult.cfg's (best s along n), on made-up measured
 * points at n = 1 024, 2 048 and 4 096, s = 1 .. 16 (and one at n = 8 192,
 * s = 4, which the code's costs run only within the budget).
 */
#include "fail.h"
#include "helpers.h"
#include "validate.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PATH "programs/plain-mult/plain-mult.cfg"

enum { SIZES = 3, ESSES = 5, N = SIZES * ESSES + 1 };
static const int sizes[SIZES] = {1024, 2048, 4096}, esses[ESSES] = {1, 2, 4, 8, 16};

/* The card's times: best s = 2 at n = 1 024, s = 4 at 2 048 and 4 096 (a
 * made-up card: each s's time times the factor of its distance from the
 * best, in ms). */
static double card_ms(int size, int s)
{
    int best = size == 1024 ? 2 : 4;
    return size / 1024.0 * (1.0 + 0.1 * abs(s - best));
}

typedef struct sets {
    kernel_dag *dags[N]; /* the paper's points' (their estimates: cell_estimate) */
    measured_row rows[N];
    vpoint paper_pts[N], code_pts[N];
    session s;
    validation paper, code;
} sets;

/* A point's estimate of exec mode's processor time (code_costs_estimate,
 * seconds): CODE_COSTS_CELL_BUDGET · (size / 2 048)^3 / 6, so that the
 * cells of n <= 2 048 sum to at most CODE_COSTS_CELL_BUDGET (n = 2 048:
 * 5 sixths of it) and n = 8 192's one point is over it (64 sixths). */
static double cell_estimate(int size) { return CODE_COSTS_CELL_BUDGET * pow(size / 2048.0, 3) / 6; }

/* A DAG of one kernel, one block of one thread, whose estimate is e
 * seconds: its work (plain operations: no classes) takes what the block
 * and launch leave. */
static kernel_dag *estimated_dag(double e)
{
    kernel_dag *dag = kernel_dag_new("estimated");
    kernel k = test_kernel("k", 1, 1, 1, 0, 0);
    k.cost.work = (e - EXEC_SECONDS_BLOCK - EXEC_SECONDS_LAUNCH) / EXEC_SECONDS_OPERATION;
    cr_assert_gt(k.cost.work, 0);
    cr_assert_geq(kernel_dag_add(dag, &k), 0);
    cr_assert_float_eq(code_costs_estimate(dag), e, 1e-9 * e);
    return dag;
}

/* The paper's set simulates every point (its verdicts are not the
 * subject); the code's set runs the points that `run` keeps, simulated at
 * `code_ms`. */
static void set_up(sets *t, int (*run)(int size, int s), double (*code_ms)(int size, int s))
{
    for (int i = 0; i < N; i++)
        if (t->dags[i])
            kernel_dag_free(t->dags[i]);
    memset(t, 0, sizeof *t);
    for (int i = 0; i < N; i++) {
        int size = i < N - 1 ? sizes[i / ESSES] : 8192, s = i < N - 1 ? esses[i % ESSES] : 4;
        measured_row *r = &t->rows[i];
        snprintf(r->file, sizeof r->file, "test.csv");
        r->line = i + 2;
        snprintf(r->program, sizeof r->program, "plain-mult");
        snprintf(r->params, sizeof r->params, "n=%d;m=%d;l=256;s=%d", size, size, s);
        vars_clear(&r->values);
        vars_set(&r->values, "n", size);
        vars_set(&r->values, "m", size);
        vars_set(&r->values, "l", 256);
        vars_set(&r->values, "s", s);
        r->ok = r->new_protocol = 1;
        r->graph.median = card_ms(size, s);
        t->dags[i] = estimated_dag(cell_estimate(size));
        t->paper_pts[i] = (vpoint){.row = r, .sim_ms = r->graph.median, .dag = t->dags[i]};
        if (run(size, s))
            t->code_pts[t->code.n++] = (vpoint){.row = r, .sim_ms = code_ms(size, s)};
    }
    t->s = (session){.card = "t", .rows = t->rows, .n = N};
    t->paper = (validation){.name = "z", .s = &t->s, .pts = t->paper_pts, .n = N};
    snprintf(t->paper.card.name, sizeof t->paper.card.name, "card");
    int n_code = t->code.n;
    t->code = (validation){.name = "z-code", .s = &t->s, .pts = t->code_pts, .n = n_code, .paper = &t->paper};
    snprintf(t->code.card.name, sizeof t->code.card.name, "card-code");
}

/* The code's costs run n <= 2 048 whole and, at n = 4 096, s = 4 alone. */
static int up_to_2048(int size, int s) { return size <= 2048 || (size == 4096 && s == 4); }

static int every_point(int size, int s) { return size > 0 && s > 0; }

/* The code's costs: the card's best at n = 1 024, s = 8 best at 2 048. */
static double best_8_at_2048(int size, int s)
{
    return size == 2048 ? 2.0 * (1.0 + 0.1 * abs(s - 8)) : card_ms(size, s);
}

/* write_conclusions, then write_code_conclusions, into one text. */
static char *both(sets *t, set_verdicts *verdicts)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    cr_assert_not_null(f);
    cr_assert_eq(write_conclusions(f, &t->paper, verdicts), 0, "%s", fail_message());
    cr_assert_eq(write_code_conclusions(f, &t->paper, &t->code, verdicts), 0, "%s", fail_message());
    fclose(f);
    return text;
}

/* plain-mult.cfg's tally among the verdicts v (`text`: both texts, said
 * if it is missing). */
static const verdict_tally *plain_mult_tally(const set_verdicts *v, const char *text)
{
    const verdict_tally *pm = NULL;
    for (int i = 0; i < v->n; i++)
        if (!strcmp(v->file[i].path, PATH))
            pm = &v->file[i];
    cr_assert_not_null(pm, "%s", text);
    return pm;
}

/* Sets t made (set_up), both texts, and plain-mult.cfg's tally in *pm. */
static char *plain_mult(sets *t, set_verdicts *v, int (*run)(int, int), double (*code_ms)(int, int),
                        const verdict_tally **pm)
{
    set_up(t, run, code_ms);
    char *text = both(t, v);
    *pm = plain_mult_tally(v, text);
    return text;
}

/* n = 4 096 has one s of five run: its best s is not decided, and not
 * taken from the one point there; n = 1 024 agrees, n = 2 048 does not. */
Test(conclusions, a_best_s_is_decided_only_where_every_s_was_run)
{
    static sets t;
    static set_verdicts v;
    const verdict_tally *pm;
    char *text = plain_mult(&t, &v, up_to_2048, best_8_at_2048, &pm);
    cr_expect_eq(pm->total, 4, "the paper's costs decide every n: %d\n%s", pm->total, text);
    cr_expect_eq(pm->agree, 4, "the paper's costs are the card's times here\n%s", text);
    cr_expect_eq(pm->code, 1);
    cr_expect_eq(pm->code_total, 2, "decided on the code's costs: n = 1 024 and 2 048\n%s", text);
    cr_expect_eq(pm->code_agree, 1, "%s", text);
    cr_expect_eq(pm->code_undecided, 2, "n = 4 096 and 8 192\n%s", text);
    cr_expect_eq(pm->code_total + pm->code_undecided, pm->total, "every verdict decided or named");
    cr_expect(strstr(text, "#### `" PATH "` (16 measured points, 10 in cells run whole)") != NULL, "%s", text);
    cr_expect(strstr(text, "**Agreement on the code's costs: 1 of 2 verdicts decided; 2 not decided "
                           "(points not run: n = 4096; n = 8192).**") != NULL,
              "%s", text);
    cr_expect(strstr(text, "- |n = 2048: s = 4 → s = 8\n") != NULL, "%s", text);
    const char *code_block = strstr(text, "Simulated on `card-code`");
    cr_assert_not_null(code_block, "%s", text);
    cr_expect(strstr(code_block, "at 2^12") == NULL, "n = 4096 decided on one point of five:\n%s", code_block);
    free(text);
}

/* Every point run: every verdict decided, none named. */
Test(conclusions, every_point_run_decides_every_verdict)
{
    static sets t;
    static set_verdicts v;
    const verdict_tally *pm;
    char *text = plain_mult(&t, &v, every_point, card_ms, &pm);
    cr_expect_eq(pm->code_total, 4, "%s", text);
    cr_expect_eq(pm->code_agree, 4, "%s", text);
    cr_expect_eq(pm->code_undecided, 0, "%s", text);
    cr_expect(strstr(text, "4 of 4 verdicts decided; 0 not decided (points not run: none).**") != NULL, "%s", text);
    free(text);
}

/* ---- the card's best, as its sessions repeat it ---------------------------- */

/* A second session of the card: s = 8 best at n = 1 024 by 1 % over
 * s = 2, the set's session's times elsewhere. */
static double second_ms(int size, int s) { return size == 1024 && s == 8 ? 0.99 * card_ms(size, 2) : card_ms(size, s); }

/* The code's costs: s = 4 best at n = 1 024 (the card's times elsewhere). */
static double best_4_at_1024(int size, int s) { return size == 1024 && s == 4 ? 0.9 : card_ms(size, s); }

static measured_row second_rows[N];
static session card_sessions[2];

/* The card's sessions: the set's own and a second one timed by `ms`, its
 * rows at n = 1 024 all kept but `drop_s` (0: none); both of one graph
 * alive at a time. */
static void two_sessions(sets *t, double (*ms)(int, int), int drop_s)
{
    int k = 0;
    for (int i = 0; i < N; i++) {
        measured_row r = t->rows[i];
        int size = (int)vars_get(&r.values, "n")[0], s = (int)vars_get(&r.values, "s")[0];
        if (size == 1024 && s == drop_s)
            continue;
        r.graph.median = ms(size, s);
        r.graph.q1 = r.graph.q3 = r.graph.median;
        second_rows[k++] = r;
    }
    card_sessions[0] = *t->paper.s;
    card_sessions[1] = (session){.card = "t", .name = "second", .rows = second_rows, .n = k};
    card_sessions[0].one_graph = card_sessions[1].one_graph = 1;
    t->paper.sessions = card_sessions;
    t->paper.n_sessions = 2;
}

/* Both texts of sets t, the card's sessions two (two_sessions). */
static char *tied(sets *t, set_verdicts *v, double (*code_ms)(int, int), double (*second)(int, int), int drop_s,
                  const verdict_tally **pm)
{
    set_up(t, every_point, code_ms);
    two_sessions(t, second, drop_s);
    char *text = both(t, v);
    *pm = plain_mult_tally(v, text);
    return text;
}

/* Where a second session finds s = 8 best at n = 1 024, the card's verdict
 * there is s = 2 or s = 8, and a simulator's s = 8 agrees with it. */
Test(conclusions, a_best_the_sessions_do_not_repeat_is_a_tie)
{
    static sets t;
    static set_verdicts v;
    const verdict_tally *pm;
    char *text = tied(&t, &v, second_ms, second_ms, 0, &pm);
    cr_expect_eq(pm->code_agree, 4, "%s", text);
    cr_expect_eq(pm->code_total, 4, "%s", text);
    cr_expect(strstr(text, "Agreeing with a best the card's sessions do not repeat (card → simulator):\n\n"
                           "- |n = 1024: s = 2 or s = 8 → s = 8\n") != NULL, "%s", text);
    free(text);
}

/* A value no session finds best stays a disagreement, shown beside the
 * card's tie. */
Test(conclusions, a_best_no_session_gives_still_differs)
{
    static sets t;
    static set_verdicts v;
    const verdict_tally *pm;
    char *text = tied(&t, &v, best_4_at_1024, second_ms, 0, &pm);
    cr_expect_eq(pm->code_agree, 3, "%s", text);
    cr_expect(strstr(text, "- |n = 1024: s = 2 or s = 8 → s = 4\n") != NULL, "%s", text);
    free(text);
}

/* A session that did not measure every s at n = 1 024, or whose series is
 * disturbed (session_stands_for), does not make a tie there. */
Test(conclusions, only_sessions_that_measured_the_cell_undisturbed_tie)
{
    static sets t;
    static set_verdicts v;
    const verdict_tally *pm;
    char *text = tied(&t, &v, second_ms, second_ms, 16, &pm);
    cr_expect_eq(pm->code_agree, 3, "a session without s = 16 at n = 1 024\n%s", text);
    cr_expect(strstr(text, "- |n = 1024: s = 2 → s = 8\n") != NULL, "%s", text);
    free(text);
    text = tied(&t, &v, second_ms, second_ms, 0, &pm);
    free(text);
    second_rows[0].graph.q3 = 2 * second_rows[0].graph.median; /* quartiles apart: disturbed */
    text = both(&t, &v);
    cr_expect(strstr(text, "- |n = 1024: s = 2 → s = 8\n") != NULL, "a disturbed session\n%s", text);
    free(text);
}

/* The points the code's costs run for the verdicts: every point of a
 * cell whose estimates sum to at most CODE_COSTS_CELL_BUDGET (n <= 2 048)
 * and of the chosen verdicts (n <= 4 096), each once (plain
 * multiplication's rows are mult.cfg's too), and not n = 8 192's point. */
Test(conclusions, the_code_costs_run_the_cells_within_the_cell_budget)
{
    static sets t;
    set_up(&t, up_to_2048, best_8_at_2048);
    const measured_row *rows[N + 1];
    int k = conclusions_code_rows(&t.paper, rows, N + 1);
    cr_assert_eq(k, SIZES * ESSES, "%d rows: %s", k, fail_message());
    for (int i = 0; i < k; i++) {
        cr_expect(vars_get(&rows[i]->values, "n")[0] <= 4096, "row %s taken", rows[i]->params);
        for (int j = 0; j < i; j++)
            cr_expect(rows[i] != rows[j], "row %s taken twice", rows[i]->params);
    }
    cr_expect_gt(cell_estimate(8192), CODE_COSTS_CELL_BUDGET);
    cr_expect_leq(ESSES * cell_estimate(2048), CODE_COSTS_CELL_BUDGET);
}

/* The headline's table: the code's costs beside the paper's, the
 * verdicts not decided counted. */
Test(conclusions, the_headline_sets_the_code_costs_beside_the_papers)
{
    static sets t;
    static set_verdicts v;
    const verdict_tally *pm;
    free(plain_mult(&t, &v, up_to_2048, best_8_at_2048, &pm));
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    int unnamed = 0;
    cr_assert_eq(write_targets(f, &t.paper, &v, 1, "/nonexistent/missing-terms.cfg", NULL, &unnamed), 0, "%s",
                 fail_message());
    fclose(f);
    cr_expect(strstr(text, "| conclusion | set z, paper's costs | set z, code's costs |") != NULL, "%s", text);
    cr_expect(strstr(text, "| `" PATH "` | 4 of 4 | **1 of 2**; 2 not decided |") != NULL, "%s", text);
    free(text);
}
