/*
 * conclusions.c — each paper conclusion, on the card and in the simulator.
 *
 * The conclusions are the `compare` groups of the run files in programs/
 * and in its case-study folders (programs/CASE/, beside a model.c).  For
 * each run file, every point of its sweep is matched with a measured row
 * (same program; every param of the row equal to the point's, except
 * params the run file leaves at 0, which the programs read as "derived",
 * e.g. m = 0 for m = n).  The matched points are compared twice, once with
 * the card's times and once with the simulated ones, and their verdicts
 * (winner, best s, linearity: sim/app/compare.h) are set side by side.
 * A best is the card's as its sessions repeat it (card_ties): the set's
 * session's best and every other value a session standing for the case
 * (session_stands_for) finds best over the same points; the simulator
 * agrees where its best is one of them.
 *
 * On the paper's costs every matched point is simulated.  On the code's
 * costs (a set of validate.h's `paper` kind) only the points run in exec
 * mode are, and a verdict is decided only where every point behind it was
 * run: a verdict's cell is the points that share every swept value but
 * the compared key's (best, pairwise: every s at one n) or, for a line,
 * but `along`'s (every m of one s).  The cells not run are named, never
 * decided on part of their points.  A cell is run whole, whatever the
 * budget of a point (code_costs_budget), where its points' estimates
 * (code_costs_estimate) sum to at most CODE_COSTS_CELL_BUDGET, or that
 * is chosen (code_verdicts: plain multiplication's n <= 4 096;
 * conclusions_code_rows).
 */
#include "compare.h"
#include "fail.h"
#include "program.h"
#include "runfile.h"
#include "validate.h"

#include <stdlib.h>
#include <string.h>

static int row_matches(const measured_row *r, const char *program, const vars *params)
{
    if (strcmp(r->program, program) != 0)
        return 0;
    for (int i = 0; i < r->values.n; i++) {
        const double *mine = vars_get(params, r->values.name[i]);
        if (mine && *mine != 0 && *mine != r->values.value[i])
            return 0;
    }
    return 1;
}

static const vpoint *find_measured(const validation *v, const char *program, const vars *params)
{
    for (int j = 0; j < v->n; j++)
        if (row_matches(v->pts[j].row, program, params))
            return &v->pts[j];
    return NULL;
}

/* The point of set v measured by `row`; NULL if v did not run it. */
static const vpoint *point_of(const validation *v, const measured_row *row)
{
    for (int j = 0; j < v->n; j++)
        if (v->pts[j].row == row)
            return &v->pts[j];
    return NULL;
}

/* A run file's points matched with measured ones: the card's times, the
 * simulator's (a point the simulator's set did not run: run 0, no time). */
typedef struct sides {
    run_point *card, *sim;
    char *run;
    long *at; /* each point's index in the run file's sweep */
    long n;
} sides;

static void sides_free(sides *s)
{
    free(s->card);
    free(s->sim);
    free(s->run);
    free(s->at);
}

/* The points of rf measured in set v, their simulated times from set
 * `simulated` (v itself, or v's set of the code's costs). */
static int match_points(const validation *v, const validation *simulated, const run_file *rf, sides *s)
{
    long n = runfile_points(rf);
    s->card = calloc((size_t)n + 1, sizeof *s->card);
    s->sim = calloc((size_t)n + 1, sizeof *s->sim);
    s->run = calloc((size_t)n + 1, 1);
    s->at = calloc((size_t)n + 1, sizeof *s->at);
    s->n = 0;
    if (!s->card || !s->sim || !s->run || !s->at)
        return fail("%s: out of memory for %ld points", rf->path, n);
    for (long i = 0; i < n; i++) {
        machine m;
        vars params;
        const char *name;
        if (runfile_point(rf, i, &m, &params, &name) < 0)
            return -1;
        const vpoint *p = find_measured(v, name, &params);
        if (!p)
            continue;
        const vpoint *q = simulated == v ? p : point_of(simulated, p->row);
        run_point *c = &s->card[s->n], *x = &s->sim[s->n];
        for (int a = 0; a < rf->n_axes; a++) {
            snprintf(c->swept[a], sizeof c->swept[a], "%s", runfile_axis_value(rf, i, a));
            snprintf(x->swept[a], sizeof x->swept[a], "%s", runfile_axis_value(rf, i, a));
        }
        c->program = x->program = name;
        c->machine = v->card;
        x->machine = simulated->card;
        c->result.T = measured_ms(p->row);
        x->result.T = q ? q->sim_ms : 0;
        s->at[s->n] = i;
        s->run[s->n++] = q != NULL;
    }
    return 0;
}

/* The swept axis a verdict's cell leaves free: the compared key's, or
 * `along`'s for a line; -1 if the group names none that is swept. */
static int free_axis(const run_file *rf)
{
    const char *name = NULL;
    int linear = 0;
    config_setting_lookup_bool(rf->compare, "linear", &linear);
    config_setting_lookup_string(rf->compare, linear ? "along" : "key", &name);
    for (int a = 0; name && a < rf->n_axes; a++)
        if (strcmp(rf->axes[a].key, name) == 0)
            return a;
    return -1;
}

static int same_cell(const sides *s, long i, long j, int n_axes, int open_axis)
{
    for (int a = 0; a < n_axes; a++)
        if (a != open_axis && strcmp(s->card[i].swept[a], s->card[j].swept[a]) != 0)
            return 0;
    return 1;
}

/* The points of s whose cells were run whole, kept in place (s->n
 * shrinks). */
static void keep_decided(sides *s, const run_file *rf)
{
    int open_axis = free_axis(rf);
    long kept = 0;
    char *decided = calloc((size_t)s->n + 1, 1);
    for (long i = 0; i < s->n; i++) {
        decided[i] = 1;
        for (long j = 0; j < s->n; j++)
            if (same_cell(s, i, j, rf->n_axes, open_axis))
                decided[i] &= s->run[j];
    }
    for (long i = 0; i < s->n; i++)
        if (decided[i]) {
            s->card[kept] = s->card[i];
            s->sim[kept] = s->sim[i];
            s->at[kept] = s->at[i];
            s->run[kept++] = 1;
        }
    s->n = kept;
    free(decided);
}

/* A verdict's place, "|n = 4096: s = 4" less its finding: "|n = 4096". */
static size_t verdict_place(const char *verdict)
{
    const char *colon = strstr(verdict, ": ");
    return colon ? (size_t)(colon - verdict) : strlen(verdict);
}

/* ---- the card's best, as its sessions repeat it ------------------------------------ */

/* The params of the points of s (runfile_point's, at their places in
 * the sweep, s->at), in a new array; NULL (with fail()) if they cannot be
 * had. */
static vars *points_params(const run_file *rf, const sides *s)
{
    vars *params = malloc(sizeof *params * ((size_t)s->n + 1));
    if (!params) {
        fail("%s: out of memory for %ld points", rf->path, s->n);
        return NULL;
    }
    for (long j = 0; j < s->n; j++) {
        machine m;
        const char *name;
        if (runfile_point(rf, s->at[j], &m, &params[j], &name) < 0) {
            free(params);
            return NULL;
        }
    }
    return params;
}

/* The card's times of session number k of v's card at the points of s
 * (their params: points_params), in *out: a point the session does not
 * stand for (session_stands_for) or did not measure is not run, and a
 * cell not measured whole is left out (keep_decided). */
static int session_sides(const validation *v, int k, const run_file *rf, const sides *s, const vars *params,
                         sides *out)
{
    const session *one = &v->sessions[k];
    out->card = calloc((size_t)s->n + 1, sizeof *out->card);
    out->sim = calloc((size_t)s->n + 1, sizeof *out->sim);
    out->run = calloc((size_t)s->n + 1, 1);
    out->at = calloc((size_t)s->n + 1, sizeof *out->at);
    out->n = s->n;
    if (!out->card || !out->sim || !out->run || !out->at)
        return fail("%s: out of memory for %ld points", rf->path, s->n);
    for (long j = 0; j < s->n; j++) {
        const char *name = s->card[j].program;
        out->card[j] = s->card[j];
        out->at[j] = s->at[j];
        for (int r = 0; r < one->n && !out->run[j]; r++)
            if (row_matches(&one->rows[r], name, &params[j]) &&
                session_stands_for(v->sessions, v->n_sessions, k, name)) {
                out->card[j].result.T = measured_ms(&one->rows[r]);
                out->run[j] = 1;
            }
    }
    keep_decided(out, rf);
    return 0;
}

/* Is `finding` ("s = 8") one of the card's, "s = 2" or "s = 2 or s = 8"? */
static int finding_in(const char *card, const char *finding)
{
    size_t len = strlen(finding);
    for (const char *at = card; (at = strstr(at, finding)) != NULL; at += len)
        if ((at == card || (at - card >= 4 && !strncmp(at - 4, " or ", 4))) &&
            (at[len] == '\0' || !strncmp(at + len, " or ", 4)))
            return 1;
    return 0;
}

/* A best verdict is a fact of the card where the card's sessions repeat
 * it: each of the card's verdicts vc (of the set's session) joined by
 * every other best that a session standing for the case gives at its
 * place, over the same points ("n = 1024: s = 2 or s = 8").  The sessions
 * measure the dispersion themselves: a value no session finds best is
 * behind the best in every one of them. */
static int card_ties(const validation *v, const run_file *rf, const sides *s, const char *const *swept,
                     char (*vc)[VERDICT_SIZE], int nc)
{
    enum { MAX = 128 };
    char(*vk)[VERDICT_SIZE] = malloc(sizeof *vk * MAX);
    vars *params = points_params(rf, s);
    int rc = !params ? -1 : vk ? 0 : fail("%s: out of memory", rf->path);
    for (int k = 0; rc == 0 && k < v->n_sessions; k++) {
        sides one = {0};
        rc = session_sides(v, k, rf, s, params, &one);
        int nk = rc == 0 && one.n ? compare_verdicts(rf->compare, one.card, one.n, swept, rf->n_axes, vk, MAX) : 0;
        rc = nk < 0 ? -1 : rc;
        for (int j = 0; j < nk; j++)
            for (int i = 0; i < nc; i++) {
                size_t place = verdict_place(vc[i]);
                const char *finding = vk[j] + place + 2;
                if (verdict_place(vk[j]) != place || strncmp(vc[i], vk[j], place) != 0 ||
                    finding_in(vc[i] + place + 2, finding))
                    continue;
                size_t used = strlen(vc[i]);
                snprintf(vc[i] + used, VERDICT_SIZE - used, " or %s", finding);
            }
        sides_free(&one);
    }
    free(params);
    free(vk);
    return rc;
}

/* The card's verdicts over every point (`all`) that the points decided
 * (`decided`) do not give: named in `missing` ("n = 4096; n = 8192"),
 * their count returned (-1 with fail()). */
static int undecided_verdicts(const run_file *rf, const sides *all, const sides *decided, const char *const *swept,
                              char *missing, size_t size)
{
    enum { MAX = 128 };
    char(*va)[VERDICT_SIZE] = malloc(sizeof *va * MAX), (*vd)[VERDICT_SIZE] = malloc(sizeof *vd * MAX);
    int na = va && vd ? compare_verdicts(rf->compare, all->card, all->n, swept, rf->n_axes, va, MAX) : -1;
    int nd = decided->n && na >= 0 ? compare_verdicts(rf->compare, decided->card, decided->n, swept, rf->n_axes, vd, MAX)
                                   : 0;
    int count = na < 0 || nd < 0 ? fail("%s: the card's verdicts cannot be made", rf->path) : 0;
    missing[0] = '\0';
    for (int i = 0; count >= 0 && i < na; i++) {
        int found = 0;
        for (int j = 0; j < nd && !found; j++)
            found = verdict_place(va[i]) == verdict_place(vd[j]) && !strncmp(va[i], vd[j], verdict_place(va[i]));
        if (found)
            continue;
        const char *place = va[i][0] == '|' ? va[i] + 1 : va[i];
        size_t used = strlen(missing);
        snprintf(missing + used, size - used, "%s%.*s", count++ ? "; " : "", (int)verdict_place(place), place);
        for (char *bar = strchr(missing + used, '|'); bar; bar = strchr(bar, '|'))
            *bar = ',';
    }
    free(va);
    free(vd);
    return count;
}

/* The tally of run file `path` in *verdicts (a new one if it has none);
 * NULL when the table is full. */
static verdict_tally *tally_for(set_verdicts *verdicts, const char *path)
{
    for (int i = 0; i < verdicts->n; i++)
        if (strcmp(verdicts->file[i].path, path) == 0)
            return &verdicts->file[i];
    if (verdicts->n == (int)(sizeof verdicts->file / sizeof verdicts->file[0]))
        return NULL;
    verdict_tally *t = &verdicts->file[verdicts->n++];
    memset(t, 0, sizeof *t);
    snprintf(t->path, sizeof t->path, "%s", path);
    return t;
}

/* Does the simulator's verdict vs agree with the card's vc: the same
 * place, its finding the card's or one of the card's tied bests? */
static int agrees(const char *vc, const char *vs)
{
    size_t place = verdict_place(vc);
    return verdict_place(vs) == place && !strncmp(vc, vs, place) && vs[place] &&
           finding_in(vc + place + 2, vs + place + 2);
}

/* The verdicts of the card (of v's sessions: card_ties, for a best) and
 * of the simulator over s, set side by side: how many agree, those that
 * differ printed (card → simulator), and the card's ties where the
 * simulator picks one of them. */
static int verdicts_side_by_side(FILE *f, const validation *v, const run_file *rf, const sides *s,
                                 const char *const *swept, const char *path, int *same, int *total)
{
    enum { MAX = 128 };
    char(*vc)[VERDICT_SIZE] = malloc(sizeof *vc * MAX), (*vs)[VERDICT_SIZE] = malloc(sizeof *vs * MAX);
    int nc = s->n && vc ? compare_verdicts(rf->compare, s->card, s->n, swept, rf->n_axes, vc, MAX) : 0;
    int ns = s->n && vs ? compare_verdicts(rf->compare, s->sim, s->n, swept, rf->n_axes, vs, MAX) : 0;
    int best = 0, rc = 0, tied = 0;
    config_setting_lookup_bool(rf->compare, "best", &best);
    *same = *total = 0;
    if (!vc || !vs || nc < 0 || ns != nc)
        rc = fail("%s: the card's and the simulator's comparisons do not line up", path);
    else if (best && card_ties(v, rf, s, swept, vc, nc) < 0)
        rc = -1;
    else {
        for (int i = 0; i < nc; i++) {
            *same += agrees(vc[i], vs[i]);
            tied += agrees(vc[i], vs[i]) && strstr(vc[i], " or ");
        }
        *total = nc;
        if (*same < nc)
            fprintf(f, " Where they differ (card → simulator):\n\n");
        for (int i = 0; i < nc; i++)
            if (!agrees(vc[i], vs[i]))
                fprintf(f, "- %s → %s\n", vc[i], strrchr(vs[i], ':') + 2);
        if (tied)
            fprintf(f, "%sAgreeing with a best the card's sessions do not repeat (card → simulator):\n\n",
                    *same < nc ? "\n" : " ");
        for (int i = 0; tied && i < nc; i++)
            if (agrees(vc[i], vs[i]) && strstr(vc[i], " or "))
                fprintf(f, "- %s → %s\n", vc[i], strrchr(vs[i], ':') + 2);
    }
    free(vc);
    free(vs);
    return rc;
}

/* How many of the points of s (their places in rf's sweep, s->at; points
 * of set v) code took from the record (code_record.c), not run here. */
static long points_recorded(const validation *v, const validation *code, const run_file *rf, const sides *s)
{
    long n = 0;
    for (long i = 0; i < s->n; i++) {
        machine m;
        vars params;
        const char *name;
        const vpoint *p = runfile_point(rf, s->at[i], &m, &params, &name) < 0 ? NULL : find_measured(v, name, &params);
        const vpoint *q = p ? point_of(code, p->row) : NULL;
        n += q && q->recorded;
    }
    return n;
}

/* One run file's conclusion in set v on the paper's costs (code NULL) or
 * on v's set of the code's costs; its tally into *verdicts. */
static int one_conclusion(FILE *f, const validation *v, const validation *code, const char *path,
                          set_verdicts *verdicts)
{
    run_file rf;
    int rc = runfile_load(&rf, path, NULL, 0);
    if (rc < 0 || !rf.compare) {
        runfile_close(&rf);
        return rc;
    }
    sides s;
    const char *swept[SWEEP_AXES_MAX];
    for (int a = 0; a < rf.n_axes; a++)
        swept[a] = rf.axes[a].key;
    rc = match_points(v, code ? code : v, &rf, &s);
    long measured = s.n;
    if (rc == 0 && measured > 1) {
        char missing[1024] = "";
        int undecided = 0, same = 0, total = 0;
        if (code) {
            sides all = s;
            all.card = malloc(sizeof *all.card * (size_t)s.n);
            if (all.card)
                memcpy(all.card, s.card, sizeof *all.card * (size_t)s.n);
            keep_decided(&s, &rf);
            undecided = all.card ? undecided_verdicts(&rf, &all, &s, swept, missing, sizeof missing)
                                 : fail("%s: out of memory", path);
            free(all.card);
            if (undecided < 0) {
                sides_free(&s);
                runfile_close(&rf);
                return -1;
            }
        }
        if (!code) {
            fprintf(f, "#### `%s` (%ld measured points)\n\nOn the card:\n\n```\n", path, s.n);
            compare_print(f, rf.compare, s.card, s.n, swept, rf.n_axes, "measured on the card, median times in ms");
            fprintf(f, "```\n\nSimulated on `%s` (times in ms):\n\n```\n", v->card.name);
            compare_print(f, rf.compare, s.sim, s.n, swept, rf.n_axes, "simulated, in ms");
            fprintf(f, "```\n\n**Agreement: ");
        } else {
            fprintf(f, "#### `%s` (%ld measured points, %ld in cells run whole)\n\n", path, measured, s.n);
            long from_record = points_recorded(v, code, &rf, &s);
            if (from_record > 0)
                fprintf(f, "Of the %ld, %ld from the record `%s` (made: %s)%s.\n\n", s.n, from_record, CODE_RECORD,
                        code->record_made, from_record < s.n ? ", the others run here" : "");
            if (s.n > 0) {
                fprintf(f, "Simulated on `%s`, the cells run whole (times in ms):\n\n```\n", code->card.name);
                compare_print(f, rf.compare, s.sim, s.n, swept, rf.n_axes, "the code's costs, in ms");
                fprintf(f, "```\n\n");
            }
            fprintf(f, "**Agreement on the code's costs: ");
        }
        char *detail = NULL;
        size_t len = 0;
        FILE *d = open_memstream(&detail, &len);
        rc = d ? verdicts_side_by_side(d, v, &rf, &s, swept, path, &same, &total) : fail("%s: out of memory", path);
        if (d)
            fclose(d);
        if (rc == 0) {
            fprintf(f, "%d of %d verdicts", same, total);
            if (code)
                fprintf(f, " decided; %d not decided (points not run: %s)", undecided, undecided ? missing : "none");
            fprintf(f, ".**%s\n\n", detail ? detail : "");
            verdict_tally *t = tally_for(verdicts, path);
            if (t && !code) {
                t->agree = same;
                t->total = total;
            } else if (t) {
                t->code = 1;
                t->code_agree = same;
                t->code_total = total;
                t->code_undecided = undecided;
            }
        }
        free(detail);
    }
    sides_free(&s);
    runfile_close(&rf);
    return rc;
}

/* Every conclusion of set v (code: on its set of the code's costs, else
 * on the paper's), and the line that sums them. */
static int all_conclusions(FILE *f, const validation *v, const validation *code, set_verdicts *verdicts)
{
    int n_files;
    char **files = program_run_files(NULL, &n_files);
    int rc = 0, agree = 0, total = 0, undecided = 0;
    for (int i = 0; i < n_files && rc == 0; i++)
        rc = one_conclusion(f, v, code, files[i], verdicts);
    program_run_files_free(files, n_files);
    for (int i = 0; i < verdicts->n; i++) {
        agree += code ? verdicts->file[i].code_agree : verdicts->file[i].agree;
        total += code ? verdicts->file[i].code_total : verdicts->file[i].total;
        undecided += code ? verdicts->file[i].code_undecided : 0;
    }
    if (rc == 0 && n_files > 0 && !code)
        fprintf(f, "Over all conclusions: the card and the simulator agree on **%d of %d** verdicts.\n\n",
                agree, total);
    else if (rc == 0 && n_files > 0)
        fprintf(f, "Over all conclusions, on the code's costs: the card and the simulator agree on **%d of %d** "
                   "verdicts decided; %d not decided (their points not run in exec mode).\n\n",
                agree, total, undecided);
    return rc;
}

int write_conclusions(FILE *f, const validation *v, set_verdicts *verdicts)
{
    verdicts->n = 0;
    fprintf(f, "A best (the value of `key` with the least time) is the card's where the card's sessions repeat "
               "it: the card's verdict at an `along` value is the set's session's best, joined by every other "
               "value that one of the card's sessions standing for the case (the current protocol, one graph "
               "alive at a time, the series undisturbed: the sessions a set may take) finds best over the same "
               "points (\"s = 2 or s = 8\"); the simulator agrees where its best is one of them.  A point is not "
               "a fact until a second session reproduces it: the sessions' own spread is the dispersion, no "
               "tolerance is chosen, and a value behind the best in every session stays a disagreement.\n\n");
    return all_conclusions(f, v, NULL, verdicts);
}

int write_code_conclusions(FILE *f, const validation *paper, const validation *code, set_verdicts *verdicts)
{
    fprintf(f, "### The papers' conclusions on the code's costs (set %s)\n\n"
               "The card's verdicts (set %s's section) against the code's costs', where every point a verdict "
               "takes was run in exec mode (a best s: every s at that n), by this run or, where a conclusion says "
               "so, by `make validate-full` (its record, `%s`, whose keys are this tree's: code_record.c); a best "
               "is the card's as its sessions repeat it (set %s's section).\n\n",
            code->name, paper->name, CODE_RECORD, paper->name);
    return all_conclusions(f, paper, code, verdicts);
}

/* The verdict the code's costs decide whatever the budgets: the cells of
 * a run file's conclusion at along <= at_most, every point of them run in
 * exec mode.  Plain multiplication's best s at n <= 4 096 (issue 30's
 * target names it) is decided however the budgets are set; its cells
 * cost some 8 s a card (code_costs_estimate), n = 4 096's 6.3 s. */
static const struct code_verdict {
    const char *path, *along;
    double at_most;
} code_verdicts[] = {
    {"programs/plain-mult/plain-mult.cfg", "n", 4096},
};

/* The rows of the chosen verdicts (code_verdicts) added to rows[*k ..],
 * each once, max in all. */
static int chosen_rows(const validation *paper, const measured_row **rows, int max, int *k)
{
    for (size_t c = 0; c < sizeof code_verdicts / sizeof code_verdicts[0]; c++) {
        run_file rf;
        if (runfile_load(&rf, code_verdicts[c].path, NULL, 0) < 0) {
            runfile_close(&rf);
            return -1;
        }
        for (long i = 0; i < runfile_points(&rf); i++) {
            machine m;
            vars params;
            const char *name;
            if (runfile_point(&rf, i, &m, &params, &name) < 0)
                break;
            const double *along = vars_get(&params, code_verdicts[c].along);
            const vpoint *p = along && *along <= code_verdicts[c].at_most ? find_measured(paper, name, &params) : NULL;
            int seen = !p;
            for (int r = 0; r < *k && !seen; r++)
                seen = rows[r] == p->row;
            if (!seen && *k < max)
                rows[(*k)++] = p->row;
        }
        runfile_close(&rf);
    }
    return 0;
}

/* The point of set `paper` at place `at` of rf's sweep; NULL if none. */
static const vpoint *point_at(const validation *paper, const run_file *rf, long at)
{
    machine m;
    vars params;
    const char *name;
    return runfile_point(rf, at, &m, &params, &name) < 0 ? NULL : find_measured(paper, name, &params);
}

/* The exec mode's estimate of a point (code_costs_estimate of its DAG; 0
 * without one). */
static double point_estimate(const vpoint *p) { return p && p->dag ? code_costs_estimate(p->dag) : 0; }

/* The rows of rf's cells whose points' estimates sum to at most
 * code_costs_cell_budget(), added to rows[*k ..] (each once, max in all). */
static int cells_within(const validation *paper, const run_file *rf, const measured_row **rows, int max, int *k)
{
    double budget = code_costs_cell_budget();
    sides s;
    int rc = match_points(paper, paper, rf, &s), open_axis = free_axis(rf);
    for (long j = 0; rc == 0 && j < s.n; j++) {
        double cell = 0;
        for (long i = 0; i < s.n; i++)
            cell += same_cell(&s, i, j, rf->n_axes, open_axis) ? point_estimate(point_at(paper, rf, s.at[i])) : 0;
        const vpoint *p = point_at(paper, rf, s.at[j]);
        int seen = !p || cell > budget;
        for (int r = 0; r < *k && !seen; r++)
            seen = rows[r] == p->row;
        if (!seen && *k < max)
            rows[(*k)++] = p->row;
    }
    sides_free(&s);
    return rc;
}

int conclusions_code_rows(const validation *paper, const measured_row **rows, int max)
{
    int n_files, k = 0, rc = chosen_rows(paper, rows, max, &k);
    char **files = program_run_files(NULL, &n_files);
    for (int i = 0; i < n_files && rc == 0; i++) {
        run_file rf;
        rc = runfile_load(&rf, files[i], NULL, 0);
        if (rc == 0 && rf.compare)
            rc = cells_within(paper, &rf, rows, max, &k);
        runfile_close(&rf);
    }
    program_run_files_free(files, n_files);
    return rc < 0 ? -1 : k;
}
