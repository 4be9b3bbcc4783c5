/*
 * plot_warps.c — the DMM/UMM picture (`mcmsim plot --kind warps`, the
 * default for a run on a DMM or a UMM): how one step's requests meet the
 * memory, and what each machine makes of them.
 *
 * Left: the memory as the chapter draws it, a row per address group
 * (cells iw .. iw + w − 1) and a column per bank (cell i is in bank
 * i mod w); each cell a warp's first dispatch of the step asks (each
 * thread's first request) is filled in its warp's colour and names its
 * thread.  Under it, per warp, its first dispatch's address
 * groups (the UMM's cost) and its fullest bank (the DMM's cost).
 * Right: a row per point of the run (DMM, UMM), each dispatch of the step
 * a box over the units it holds the pipeline's first stage, then a thin
 * bar until its requests complete, l − 1 units later; the step's time
 * marked, and beside it the chapter's formula where the program gives one.
 * The run's first step only (dmm_umm.h, dmm_first_step), at most its
 * first DISPATCHES_MAX dispatches and ROWS_MAX address groups, of the
 * run's first POINTS_MAX points; a run of several steps says so.
 */
#include "plot.h"
#include "fail.h"
#include <math.h>
#include <string.h>

#define ROWS_MAX 8       /* address groups drawn */
#define DISPATCHES_MAX 12 /* dispatches drawn */
#define POINTS_MAX 4      /* the run's points drawn */

static const char *const warp_colour[8] = {"#4477aa", "#ee6677", "#228833", "#ccbb44",
                                           "#66ccee", "#aa3377", "#bbbbbb", "#ee7733"};

/* Is request i its thread's first of the step (the warp's first dispatch)? */
static int first_request(const dmm_first_step *f, int i)
{
    for (int k = 0; k < i; k++)
        if (f->thread[k] == f->thread[i])
            return 0;
    return 1;
}

/* The address groups the first requests touch, in order (at most ROWS_MAX). */
static int groups_touched(const dmm_first_step *f, int w, long *rows)
{
    int n = 0;
    for (int i = 0; i < f->n_requests; i++) {
        if (!first_request(f, i))
            continue;
        long g = f->cell[i] / w;
        int at = 0;
        while (at < n && rows[at] < g)
            at++;
        if ((at < n && rows[at] == g) || n == ROWS_MAX)
            continue;
        memmove(&rows[at + 1], &rows[at], sizeof *rows * (size_t)(n - at));
        rows[at] = g;
        n++;
    }
    return n;
}

/* Warp j's first dispatch, from the drawn requests: each of its threads'
 * first request.  Its address groups, and its fullest bank (distinct cells
 * in one bank) with that bank. */
static void warp_costs(const dmm_first_step *f, int w, int j, int *groups, int *fullest, int *bank)
{
    long cells[64];
    int n = 0, seen[64] = {0};
    for (int i = 0; i < f->n_requests; i++) {
        int t = f->thread[i];
        if (t / w != j || t - j * w >= 64 || seen[t - j * w])
            continue;
        seen[t - j * w] = 1;
        int dup = 0;
        for (int k = 0; k < n; k++)
            dup |= cells[k] == f->cell[i];
        if (!dup && n < 64)
            cells[n++] = f->cell[i];
    }
    *groups = 0;
    *fullest = 0;
    *bank = 0;
    for (int a = 0; a < n; a++) {
        int new_group = 1, in_bank = 0;
        for (int b = 0; b < a; b++)
            new_group &= cells[b] / w != cells[a] / w;
        for (int b = 0; b < n; b++)
            in_bank += cells[b] % w == cells[a] % w;
        *groups += new_group;
        if (in_bank > *fullest)
            *fullest = in_bank, *bank = (int)(cells[a] % w);
    }
}

static void memory_panel(FILE *o, const run_point *pt)
{
    const dmm_first_step *f = &pt->dmm.first;
    int w = pt->dmm.w;
    long rows[ROWS_MAX];
    int n_rows = groups_touched(f, w, rows);
    fprintf(o, "set multiplot\nset size 0.47, 0.80\nset origin 0.01, 0.12\n"
               "set title \"each warp's first dispatch in memory\\n{/*0.85 cell i: bank i mod w, address group "
               "⌊i/w⌋}\" font ',15'\n"
               "unset key\nunset grid\nset border 0\nset xrange [-0.5:%d.5]\nset yrange [%d.5:-0.5]\n"
               "set xtics (", w - 1, n_rows - 1);
    for (int b = 0; b < w; b += w > 8 ? 8 : 1) /* wide warps: every eighth bank named */
        fprintf(o, "%s\"B[%d]\" %d", b ? ", " : "", b, b);
    fprintf(o, ") scale 0 font ',%d'\nset ytics (", w > 8 ? 10 : 14);
    for (int r = 0; r < n_rows; r++)
        fprintf(o, "%s\"group %ld\" %d", r ? ", " : "", rows[r], r);
    fprintf(o, ") scale 0\nset xlabel 'bank'\n");
    /* every cell of the rows shown, then the step's requests over them */
    int font = w > 8 ? 8 : w > 4 || n_rows > 5 ? 11 : 13;
    for (int r = 0; r < n_rows; r++)
        for (int b = 0; b < w; b++) {
            long cell = rows[r] * w + b;
            int thread = -1;
            for (int i = 0; i < f->n_requests; i++)
                if (f->cell[i] == cell && thread < 0 && first_request(f, i))
                    thread = f->thread[i];
            fprintf(o, "set object rect from %g,%g to %g,%g fc rgb '%s' fs solid border rgb '%s' front\n",
                    b - 0.46, r - 0.44, b + 0.46, r + 0.44, thread < 0 ? "white" : warp_colour[(thread / w) % 8],
                    thread < 0 ? "#999999" : "black");
            if (w > 16)
                continue; /* too narrow to name */
            if (thread < 0)
                fprintf(o, "set label \"m[%ld]\" at %d,%d center font ',%d' tc rgb '#999999' front\n", cell, b, r,
                        font);
            else
                fprintf(o, "set label \"m[%ld]%sT%d\" at %d,%d center font ',%d' tc rgb 'white' front\n", cell,
                        n_rows > 5 ? " " : "\\n", thread, b, r, font);
        }
    /* per warp, what its first dispatch costs on each machine */
    int warps = 0;
    for (int i = 0; i < f->n_requests; i++)
        warps = (int)fmax(warps, f->thread[i] / w + 1);
    for (int j = 0; j < warps && j < 3; j++) { /* three lines fit under the panel */
        int groups, fullest, bank;
        warp_costs(f, w, j, &groups, &fullest, &bank);
        char banks[64];
        if (fullest > 1)
            snprintf(banks, sizeof banks, "bank B[%d] asked %d times", bank, fullest);
        else
            snprintf(banks, sizeof banks, "no bank asked twice");
        fprintf(o, "set label \"W(%d) = T%d..T%d: %d address group%s (UMM: %d unit%s); %s (DMM: %d unit%s)\" "
                   "at screen 0.02, screen %g left font ',13' tc rgb '%s'\n",
                j, j * w, j * w + w - 1, groups, groups == 1 ? "" : "s", groups, groups == 1 ? "" : "s", banks,
                fullest, fullest == 1 ? "" : "s", 0.10 - 0.035 * j, warp_colour[j % 8]);
    }
    fprintf(o, "plot NaN notitle\nunset object\nunset label\nset border 3\n");
}

/* The warps of the drawn dispatches (1 + the highest). */
static int warps_drawn(const dmm_first_step *f)
{
    int warps = 0;
    for (int d = 0; d < f->n_dispatches; d++)
        warps = (int)fmax(warps, f->dispatch[d].warp + 1);
    return warps;
}

/* The dispatches drawn: the step's first ones. */
static int dispatches_drawn(const dmm_first_step *f)
{
    return f->n_dispatches < DISPATCHES_MAX ? f->n_dispatches : DISPATCHES_MAX;
}

/* A row's name: the machine, and the point's swept values but its kind. */
static void point_name(const run_point *pt, const char *const *swept, int n_swept, char *out, size_t size)
{
    snprintf(out, size, "%s", pt->machine.kind == KIND_DMM ? "DMM" : "UMM");
    for (int a = 0; a < n_swept; a++)
        if (strcmp(swept[a], "kind") != 0) {
            size_t len = strlen(out);
            snprintf(out + len, size - len, ", %s = %s", swept[a], pt->swept[a]);
        }
}

static void timeline_panel(FILE *o, const run_point *pts, long n, const char *const *swept, int n_swept)
{
    double end = 0;
    int warps = 0;
    for (long k = 0; k < n; k++) {
        for (int d = 0; d < dispatches_drawn(&pts[k].dmm.first); d++)
            end = fmax(end, (double)pts[k].dmm.first.dispatch[d].completed);
        warps = (int)fmax(warps, warps_drawn(&pts[k].dmm.first));
    }
    int per_warp = warps <= 4; /* a row per warp, else one per machine */
    int rows = per_warp ? warps : 1, band = rows + 2; /* each machine: its rows, and two lines of text */
    fprintf(o, "set size 0.50, 0.80\nset origin 0.49, 0.12\n"
               "set title \"unit by unit\\n{/*0.85 box: a dispatch in the first stage; bar: until it "
               "completes}\" font ',15'\n"
               "set xrange [0:%g]\nset yrange [-0.7:%g]\nset xlabel 'time unit'\nset grid xtics\n"
               "set xtics %s font ',12'\nset ytics (",
            end + 1, n * band - 1.5, end > 24 ? "autofreq" : "1");
    for (long k = 0; k < n; k++)
        for (int j = 0; j < rows; j++) {
            double y = (double)((n - 1 - k) * band + rows - 1 - j);
            char name[200];
            point_name(&pts[k], swept, n_swept, name, sizeof name);
            if (per_warp)
                fprintf(o, "%s\"%s W(%d)\" %g", k || j ? ", " : "", name, j, y);
            else
                fprintf(o, "%s\"%s\" %g", k ? ", " : "", name, y);
        }
    fprintf(o, ") scale 0 font ',14' noenhanced\n");
    for (long k = 0; k < n; k++) {
        const dmm_result *r = &pts[k].dmm;
        double base = (double)((n - 1 - k) * band), step_time = 0;
        for (int d = 0; d < dispatches_drawn(&r->first); d++) {
            const dmm_dispatch *x = &r->first.dispatch[d];
            const char *c = warp_colour[x->warp % 8];
            double y = base + (per_warp ? rows - 1 - x->warp : 0);
            double from = (double)x->start - 1, to = from + (double)x->cost;
            fprintf(o, "set object rect from %g,%g to %g,%g fc rgb '%s' fs solid border rgb 'black' front\n"
                       "set object rect from %g,%g to %g,%g fc rgb '%s' fs solid 0.35 noborder\n",
                    from, y - 0.32, to, y + 0.32, c, to, y - 0.1, (double)x->completed, y + 0.1, c);
            if (x->cost >= 1 && end <= 24)
                fprintf(o, "set label \"%ld\" at %g,%g center font ',12' tc rgb 'white' front\n", x->cost,
                        (from + to) / 2, y);
            step_time = fmax(step_time, (double)x->completed);
        }
        fprintf(o, "set arrow from %g,%g to %g,%g nohead lw 3 lc rgb 'black' front\n", step_time, base - 0.45,
                step_time, base + rows - 0.55);
        char head[400], bound[200] = "", formula[300], name[200];
        point_name(&pts[k], swept, n_swept, name, sizeof name);
        if (r->n_steps > 1)
            snprintf(head, sizeof head, "%s: T = %g units in %ld steps, simulated", name, r->total.time, r->n_steps);
        else
            snprintf(head, sizeof head, "%s: T = %g units, simulated", name, r->total.time);
        if (r->bound.name[0])
            snprintf(bound, sizeof bound, "\\n%s: %s = %g%s", r->bound.name, r->bound.formula, r->bound.value,
                     r->bound.exact ? "" : " (an O() bound)");
        plot_ell(formula, sizeof formula, bound);
        fprintf(o, "set label \"%s%s\" at %g,%g left font ',13' front\n", head, formula, end * 0.02,
                base + rows + 0.2);
    }
    fprintf(o, "plot NaN notitle\nunset multiplot\n");
}

int plot_warps(plot_session *s, const run_point *pts, long n, const char *const *swept, int n_swept)
{
    for (long k = 0; k < n; k++)
        if (pts[k].machine.kind == KIND_MCM)
            return fail("--kind warps draws DMM and UMM runs (machine kind dmm or umm), not the MCM's");
    char progs[512], title[700];
    plot_program_names(pts, n, progs, sizeof progs);
    plot_quote(title, sizeof title, progs);
    const dmm_result *r = &pts[0].dmm;
    int part = !r->first.whole || r->first.n_dispatches > DISPATCHES_MAX;
    fprintf(s->script, "set label \"%s on %d threads, warps of w = %d, latency ℓ = %d%s\" at screen 0.5, "
                       "screen 0.96 center font ',18' noenhanced\n",
            title, r->p, r->w, r->l, part ? " (step 1's first dispatches)" : "");
    memory_panel(s->script, &pts[0]);
    timeline_panel(s->script, pts, n < POINTS_MAX ? n : POINTS_MAX, swept, n_swept);
    return 0;
}
