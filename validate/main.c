/*
 * main.c — `make validate CARD=h100`: the simulator against the card.
 *
 * 1. Read the card's measured times (the CSV files of validate/data/CARD/) and its
 *    preset (machine/CARD.cfg).
 * 2. Split the points of each series (a case study at fixed params other
 *    than the size n): by increasing n, the 1st, 3rd, ... train and the
 *    2nd, 4th, ... test ("every other n").
 * 3. For each global-memory policy: simulate every point at two values of U
 *    to get T(U) = α + β·U, fit seconds per cycle, launch cost and U on the
 *    training points (fit.c), then simulate every point again at the fitted
 *    constants and compare with the measurement.
 * 4. Write validate/report/CARD/: points.csv, one plot per case study (PNG
 *    and SVG, gnuplot), REPORT.md with the fitted constants, error figures
 *    on held-out points and the notes of validate/notes/CARD.md.
 * Deterministic: the same data gives the same files, byte for byte.
 */
#include "engine.h"
#include "fail.h"
#include "fit.h"
#include "measured.h"
#include "program.h"
#include "validate.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int build_dag(const measured_row *row, const machine *m, kernel_dag **dag)
{
    const builtin_program *b = builtin_find(row->program);
    if (!b)
        return fail("%s:%d: case '%s' is not a built-in program", row->file, row->line, row->program);
    vars v;
    vars_clear(&v);
    char defaults[256], *save;
    snprintf(defaults, sizeof defaults, "%s", b->defaults);
    for (char *tok = strtok_r(defaults, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
        char *eq = strchr(tok, '=');
        if (eq) {
            *eq = '\0';
            vars_set(&v, tok, atof(eq + 1));
        }
    }
    for (int i = 0; i < row->values.n; i++) {
        if (!vars_get(&v, row->values.name[i]))
            return fail("%s:%d: program '%s' has no param '%s' (its params: %s)", row->file, row->line,
                        row->program, row->values.name[i], b->defaults);
        vars_set(&v, row->values.name[i], row->values.value[i]);
    }
    *dag = b->build(&v, m);
    if (!*dag)
        return fail("%s:%d: %s", row->file, row->line, fail_message());
    return 0;
}

/* Simulated T (cycles) and L of one point on machine m. */
static int simulate(const vpoint *p, const machine *m, double *T, double *L)
{
    sim_result r;
    if (sim_run(p->dag, m, NULL, &r) < 0)
        return fail("%s:%d (%s %s): %s", p->row->file, p->row->line, p->row->program, p->row->params,
                    fail_message());
    *T = r.T;
    *L = r.costs.L_kernels;
    sim_result_free(&r);
    return 0;
}

/* The machine of policy `pol` at U = u (the shared channel scales with it). */
static machine policy_machine(const validation *v, int pol, double u)
{
    machine m = v->card;
    m.policy = v->policies[pol];
    m.u = u;
    if (m.policy == MEM_SHARED)
        m.bandwidth = v->shared_ratio * m.p / u;
    return m;
}

/* T_i(U) = α_i + β_i·U for every point.  Policy 0 (parallel) gets the line
 * from two simulations and U is fitted; the slower policies (shared,
 * exclusive: a SimGrid communication or a memory-controller handshake per
 * transfer) take the parallel policy's U and fit c and d only, from one
 * simulation per point (β = 0). */
static int time_lines(validation *v, int pol, fit_point *fp)
{
    double u1 = 1, u2 = 16;
    for (int i = 0; i < v->n; i++) {
        double t1, t2 = 0, L;
        machine m = policy_machine(v, pol, pol == 0 ? u1 : v->fit[0].u);
        if (simulate(&v->pts[i], &m, &t1, &L) < 0)
            return -1;
        if (pol == 0) {
            m = policy_machine(v, pol, u2);
            if (simulate(&v->pts[i], &m, &t2, &L) < 0)
                return -1;
        }
        fp[i].seconds = v->pts[i].row->median_ms / 1e3;
        fp[i].beta = pol == 0 ? (t2 - t1) / (u2 - u1) : 0;
        fp[i].alpha = pol == 0 ? t1 - fp[i].beta * u1 : t1;
        fp[i].launches = L;
        fp[i].rounds = 0;
        for (int k = 0; k < v->pts[i].dag->n; k++) /* blocks one SM takes in turn */
            fp[i].rounds += ceil((double)v->pts[i].dag->kernels[k].blocks / v->card.p);
    }
    return 0;
}

static int calibrate_policy(validation *v, int pol)
{
    fit_point *fp = calloc((size_t)v->n, sizeof *fp), *train = calloc((size_t)v->n, sizeof *train);
    int n_train = 0;
    if (time_lines(v, pol, fp) < 0)
        return -1;
    for (int i = 0; i < v->n; i++)
        if (v->pts[i].train)
            train[n_train++] = fp[i];
    fit_result *f = &v->fit[pol];
    const int terms = FIT_LAUNCH | FIT_DISPATCH;
    int rc = pol == 0 ? fit_calibrate(train, n_train, 0.01, 1000, terms, f) : fit_at_u(train, n_train, 0, terms, f);
    if (rc < 0)
        return fail("policy %s: %s", memory_policy_name(v->policies[pol]), fail_message());
    if (pol != 0)
        f->u = v->fit[0].u;
    /* the fitted machine, simulated for real at every point */
    machine m = policy_machine(v, pol, f->u);
    m.clock_hz = 1 / f->seconds_per_cycle;
    m.launch_latency = f->launch_seconds / f->seconds_per_cycle;
    m.block_dispatch = f->dispatch_seconds / f->seconds_per_cycle;
    v->fitted[pol] = m;
    for (int i = 0; i < v->n; i++) {
        double T, L;
        if (simulate(&v->pts[i], &m, &T, &L) < 0)
            return -1;
        v->pts[i].sim_ms[pol] = T * f->seconds_per_cycle * 1e3;
        v->pts[i].linear_ms[pol] = 1e3 * (fit_relative_error(&fp[i], f) + 1) * fp[i].seconds;
    }
    free(fp);
    free(train);
    return 0;
}

/* Within each series (measured.h), by increasing size: train, test,
 * train, ...  A case study whose n never varies (plain division sweeps m,
 * radix sort sweeps s) is split along the param that does. */
static void split_every_other_n(validation *v)
{
    for (int i = 0; i < v->n; i++) {
        const measured_row *r = v->pts[i].row;
        char mine[256], other[256];
        const char *along = measured_size_key(r, v->rows, v->n_rows);
        measured_series_along(r, along, mine, sizeof mine);
        const double *x = vars_get(&r->values, along);
        int smaller = 0; /* points of the same series with a smaller size */
        for (int j = 0; j < v->n; j++) {
            const measured_row *q = v->pts[j].row;
            measured_series_along(q, along, other, sizeof other);
            const double *qx = vars_get(&q->values, along);
            if (strcmp(q->program, r->program) == 0 && strcmp(other, mine) == 0 && x && qx &&
                (*qx < *x || (*qx == *x && j < i)))
                smaller++;
        }
        v->pts[i].train = smaller % 2 == 0;
    }
}

static int load(validation *v, const char *card)
{
    char path[1024];
    snprintf(v->card_name, sizeof v->card_name, "%s", card);
    snprintf(v->data_dir, sizeof v->data_dir, "validate/data/%s", card);
    snprintf(v->report_dir, sizeof v->report_dir, "validate/report/%s", card);
    machine_defaults(&v->card);
    machine_preset_path(card, path, sizeof path);
    if (machine_load_file(&v->card, path) < 0)
        return -1;
    v->card.launch_latency = 0; /* the fit decides these, from zero */
    v->card.block_dispatch = 0;
    measured_row *rows;
    if (measured_load(v->data_dir, &rows, &v->n) < 0)
        return -1;
    v->rows = rows;
    v->pts = calloc((size_t)v->n, sizeof *v->pts);
    /* A point the model refuses (e.g. a Z constraint the card's code gets
     * around by using global memory) is left out and listed in the report. */
    int kept = 0, n_rows = v->n;
    v->n_rows = n_rows;
    for (int i = 0; i < n_rows; i++) {
        if (!rows[i].ok)
            return fail("%s:%d: the card's result check failed (check=FAIL): not a valid measurement",
                        rows[i].file, rows[i].line);
        vpoint *p = &v->pts[kept];
        p->row = &rows[i];
        if (build_dag(&rows[i], &v->card, &p->dag) < 0) {
            if (!builtin_find(rows[i].program) || v->n_refused == 64)
                return -1;
            v->refused[v->n_refused] = &rows[i];
            snprintf(v->refused_why[v->n_refused++], sizeof v->refused_why[0], "%s", fail_message());
            continue;
        }
        kept++;
    }
    v->n = kept;
    split_every_other_n(v);
    /* `shared`: the whole card's channel against one SM's port, measured */
    double card_wpc, sm_wpc;
    v->shared_ratio = 1;
    if (measured_constant(v->data_dir, "gmem_read_card", &card_wpc) == 0 &&
        measured_constant(v->data_dir, "gmem_read_one_sm", &sm_wpc) == 0 && sm_wpc > 0)
        v->shared_ratio = card_wpc / (sm_wpc * v->card.p);
    v->policies[0] = MEM_PARALLEL;
    v->policies[1] = MEM_SHARED;
    v->policies[2] = MEM_EXCLUSIVE;
    v->n_policies = 3;
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: validate CARD   (e.g. h100: reads validate/data/h100/)\n");
        return 2;
    }
    validation v;
    memset(&v, 0, sizeof v);
    if (chdir(MCMSIM_DATADIR) != 0) { /* every path in the report is relative to it */
        fprintf(stderr, "validate: cannot enter %s\n", MCMSIM_DATADIR);
        return 1;
    }
    const char *only = getenv("MCMSIM_POLICIES"); /* e.g. "parallel" to go faster */
    if (load(&v, argv[1]) < 0)
        goto failed;
    if (only && strcmp(only, "parallel") == 0)
        v.n_policies = 1;
    for (int pol = 0; pol < v.n_policies; pol++) {
        fprintf(stderr, "validate: policy %s...\n", memory_policy_name(v.policies[pol]));
        if (calibrate_policy(&v, pol) < 0)
            goto failed;
    }
    mkdir(v.report_dir, 0755);
    if (write_points(&v) < 0 || write_plots(&v) < 0 || write_report(&v) < 0)
        goto failed;
    fprintf(stderr, "validate: wrote %s/REPORT.md\n", v.report_dir);
    return 0;
failed:
    fprintf(stderr, "validate: %s\n", fail_message());
    return 1;
}
