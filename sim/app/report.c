/*
 * report.c — printing run points (see report.h): MCM points first, then
 * DMM/UMM points (the chapter's machines, times in units).
 */
#include "report.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- text --------------------------------------------------------------- */

/* A count of cycles as the text shows it: whole, below 2^53; from 2^53 on,
 * where a double's whole numbers thin out and a sum of costs is no longer
 * exact, to 10 significant digits (the digits past them are noise), and
 * `rounded_shown` notes it for the line under the report.  CSV and JSON
 * keep every digit a double holds. */
typedef struct cycles_text {
    char s[32];
} cycles_text;

static int rounded_shown;

static cycles_text cycles(double x)
{
    cycles_text t;
    if (fabs(x) < 9007199254740992.0) {
        snprintf(t.s, sizeof t.s, "%.0f", x);
    } else {
        snprintf(t.s, sizeof t.s, "%.10g", x);
        rounded_shown = 1;
    }
    return t;
}

/* The line under a report that showed cycles rounded. */
static void rounded_note(FILE *out)
{
    if (rounded_shown)
        fprintf(out, "\n(cycles of 2^53 or more, beyond a double's whole numbers, are shown to 10 digits; "
                     "--format csv or json keeps 17)\n");
    rounded_shown = 0;
}

static void text_kernels(FILE *out, const run_point *pt)
{
    const int shown_max = 12;
    const kernel_dag *dag = pt->dag;
    fprintf(out, "\n  %-22s %12s %16s %16s\n", "kernel", "blocks", "start", "end");
    for (int i = 0; i < dag->n; i++) {
        if (i == shown_max - 2 && dag->n > shown_max) {
            fprintf(out, "  ... %d more kernels (--format json lists them all)\n", dag->n - shown_max + 1);
            i = dag->n - 1;
        }
        fprintf(out, "  %-22s %12ld %16s %16s\n", dag->kernels[i].name, dag->kernels[i].blocks,
                cycles(pt->result.kernels[i].start).s, cycles(pt->result.kernels[i].end).s);
    }
}

/* Exec mode: the result was checked, and the costs were measured. */
static void text_exec(FILE *out, const run_point *pt)
{
    int n = pt->dag->n;
    const exec_kernel_report *rep = pt->exec;
    double measured = 0, paper = 0, conflicts = 0;
    for (int i = 0; i < n; i++) {
        measured += rep[i].measured_overhead;
        paper += rep[i].paper_overhead;
        conflicts += rep[i].bank_conflicts;
    }
    fprintf(out, "\n  exec mode: %d kernels run for real; the result equals the serial reference\n", n);
    fprintf(out, "  overhead O measured (UMM address groups) %.0f cycles, by the paper's rule (α+β)U %.0f;"
                 " private bank conflicts %.0f\n", measured, paper, conflicts);
}

static void text_one(FILE *out, const run_point *pt)
{
    const machine *m = &pt->machine;
    const sim_result *r = &pt->result;
    const dag_costs *c = &r->costs;
    fprintf(out, "program '%s' on machine '%s' (P = %d, U = %g, Z = %g, policy %s, order %s)\n",
            pt->program, m->name, m->p, m->u, m->z, memory_policy_name(m->policy), block_order_name(m->order));
    fprintf(out, "params:");
    for (int i = 0; i < pt->params.n; i++)
        fprintf(out, " %s = %.10g", pt->params.name[i], pt->params.value[i]);
    fprintf(out, "\n\n");
    fprintf(out, "  simulated time T     %16s cycles  (%.6g s at %.3g GHz)\n", cycles(r->T).s, r->T / m->clock_hz,
            m->clock_hz / 1e9);
    if (theorem1_is_bound(m))
        fprintf(out, "  Theorem 1 bound      %16s cycles  (N/P + L)·C = (%.0f/%d + %d)·%g   T/bound = %.3f\n",
                cycles(r->bound_theorem1).s, c->N, m->p, c->L_kernels, c->C, r->T / r->bound_theorem1);
    else
        fprintf(out, "  pure-MCM reference   %16s cycles  (N/P + L)·C = (%.0f/%d + %d)·%g   T/ref = %.3f\n"
                     "                       (Theorem 1's figure, a bound on the pure MCM under `parallel` only: %s)\n",
                cycles(r->bound_theorem1).s, c->N, m->p, c->L_kernels, c->C, r->T / r->bound_theorem1, theorem1_why_not(m));
    fprintf(out, "  Corollary 1 bound    %16s cycles  (N/K + L)·C = (%.0f/%.0f + %d)·%g   (on P = K SMs)\n",
            cycles(r->bound_corollary1).s, c->N, c->K, c->L_kernels, c->C);
    if (r->launch_term > 0)
        fprintf(out, "  launch latency       %16s cycles  L·%s, beyond the model\n", cycles(r->launch_term).s,
                m->launch != LAUNCH_GRAPH      ? "launch_latency"
                : m->graph_launch_per_sm > 0   ? "(graph_launch_latency + graph_launch_per_sm for the widest grid's "
                                                 "SMs beyond the first) + graph_start_latency, at most"
                                               : "graph_launch_latency + graph_start_latency");
    fprintf(out, "\n  work W = %s   span S = %s   overhead O = %s\n", cycles(c->W).s, cycles(c->S).s, cycles(c->O).s);
    fprintf(out, "  N = %.0f blocks   L = %d kernels (%d edges)   C = %g cycles   K = %.0f blocks\n",
            c->N, c->L_kernels, c->L_edges, c->C, c->K);
    fprintf(out, "  SM utilisation %.1f %%\n", 100 * r->utilization);
    if (pt->has_closed_form) {
        const closed_form *p = &pt->paper;
        fprintf(out, "\n  %-10s %18s %18s %10s\n", "", "simulated", "paper", "sim/paper");
        const char *names[] = {"T", "W", "S", "O", "N", "L", "C"};
        double sim[] = {r->T, c->W, c->S, c->O, c->N, c->L_kernels, c->C};
        double paper[] = {p->T, p->W, p->S, p->O, p->N, p->L, p->C};
        for (int i = 0; i < 7; i++)
            fprintf(out, "  %-10s %18.6g %18.6g %10.4f\n", names[i], sim[i], paper[i],
                    paper[i] != 0 ? sim[i] / paper[i] : NAN);
        fprintf(out, "  (the paper's T is Corollary 1, the estimate on K SMs)\n");
    }
    if (pt->exec)
        text_exec(out, pt);
    text_kernels(out, pt);
}

/* `program` and `machine` have columns of their own (CSV), whether swept
 * or not. */
static int own_column(const char *key) { return strcmp(key, "program") == 0 || strcmp(key, "machine") == 0; }

static void text_table(FILE *out, const run_point *pts, long n, const char *const *swept, int n_swept)
{
    const machine *m = &pts[0].machine;
    int papers = 0;
    for (long i = 0; i < n; i++)
        papers |= pts[i].has_closed_form;
    int programs_swept = 0, machines_swept = 0;
    for (int s = 0; s < n_swept; s++) {
        programs_swept |= strcmp(swept[s], "program") == 0;
        machines_swept |= strcmp(swept[s], "machine") == 0;
    }
    char on[400];
    if (machines_swept)
        snprintf(on, sizeof on, "the machines swept");
    else
        snprintf(on, sizeof on, "machine '%s'", m->name);
    if (programs_swept)
        fprintf(out, "programs compared on %s, %ld points\n\n", on, n);
    else
        fprintf(out, "program '%s' on %s, %ld points\n\n", pts[0].program, on, n);
    for (int s = 0; s < n_swept; s++)
        fprintf(out, "%12s ", swept[s]);
    int bound = 1;
    for (long i = 0; i < n; i++)
        bound &= theorem1_is_bound(&pts[i].machine);
    fprintf(out, "%16s %16s %8s %18s %7s", "T (cycles)", bound ? "Theorem 1" : "pure-MCM ref.",
            bound ? "T/Thm1" : "T/ref", "Cor. 1 (P = K)", "util");
    fprintf(out, papers ? " %16s %9s\n" : "\n", "paper's T", "T/paper");
    for (long i = 0; i < n; i++) {
        const sim_result *r = &pts[i].result;
        for (int s = 0; s < n_swept; s++)
            fprintf(out, "%12s ", pts[i].swept[s]);
        fprintf(out, "%16s %16s %8.3f %18s %6.1f%%", cycles(r->T).s, cycles(r->bound_theorem1).s,
                r->T / r->bound_theorem1, cycles(r->bound_corollary1).s, 100 * r->utilization);
        if (pts[i].has_closed_form)
            fprintf(out, " %16s %9.3f\n", cycles(pts[i].paper.T).s, r->T / pts[i].paper.T);
        else
            fprintf(out, papers ? " %16s %9s\n" : "\n", "-", "-");
    }
    for (long i = 0; i < n && !bound; i++)
        if (!theorem1_is_bound(&pts[i].machine)) {
            fprintf(out, "\npure-MCM ref.: Theorem 1's (N/P + L)·C, a bound on the pure MCM under `parallel` only; "
                         "here not a bound (%s), so T may exceed it.\n", theorem1_why_not(&pts[i].machine));
            break;
        }
}

/* ---- CSV ---------------------------------------------------------------- */

static const char *csv_metrics =
    "P,U,Z,policy,T,W,S,O,N,L_kernels,L_edges,C,K,bound_theorem1,bound_corollary1,utilization,seconds,"
    "paper_W,paper_S,paper_O,paper_N,paper_L,paper_C,paper_T";

/* A text field (a program, a machine, a swept name or path) as RFC 4180
 * writes it: in double quotes, each quote doubled, where it holds a comma,
 * a quote or a line break; as it is otherwise. */
static void csv_text(FILE *out, const char *text)
{
    if (!text[strcspn(text, ",\"\r\n")]) {
        fputs(text, out);
        return;
    }
    fputc('"', out);
    for (const char *c = text; *c; c++) {
        if (*c == '"')
            fputc('"', out);
        fputc(*c, out);
    }
    fputc('"', out);
}

/* The params columns: every param of any point (programs may differ),
 * but `skip` (NULL: none), which the rows show elsewhere. */
static void csv_param_columns(const run_point *pts, long n, const char *skip, vars *columns)
{
    vars_clear(columns);
    for (long j = 0; j < n; j++)
        for (int i = 0; i < pts[j].params.n; i++)
            if (!vars_get(columns, pts[j].params.name[i]) && !(skip && strcmp(pts[j].params.name[i], skip) == 0))
                vars_set(columns, pts[j].params.name[i], 0);
}

/* The point's value of each params column ("" where it has none). */
static void csv_param_values(FILE *out, const run_point *pt, const vars *columns)
{
    for (int i = 0; i < columns->n; i++) {
        const double *v = vars_get(&pt->params, columns->name[i]);
        if (v)
            fprintf(out, ",%.17g", *v);
        else
            fprintf(out, ",");
    }
}

static void csv_print(FILE *out, const run_point *pts, long n, const char *const *swept, int n_swept)
{
    vars columns;
    csv_param_columns(pts, n, NULL, &columns);
    fprintf(out, "program,machine");
    for (int s = 0; s < n_swept; s++)
        if (!vars_get(&columns, swept[s]) && !own_column(swept[s]))
            fprintf(out, ",%s", swept[s]);
    for (int i = 0; i < columns.n; i++)
        fprintf(out, ",%s", columns.name[i]);
    fprintf(out, ",%s\n", csv_metrics);
    for (long j = 0; j < n; j++) {
        const machine *m = &pts[j].machine;
        const sim_result *r = &pts[j].result;
        const dag_costs *c = &r->costs;
        if (pts[j].skipped)
            continue;
        csv_text(out, pts[j].program);
        fputc(',', out);
        csv_text(out, m->name);
        for (int s = 0; s < n_swept; s++)
            if (!vars_get(&columns, swept[s]) && !own_column(swept[s])) {
                fputc(',', out);
                csv_text(out, pts[j].swept[s]);
            }
        csv_param_values(out, &pts[j], &columns);
        fprintf(out, ",%d,%.17g,%.17g,%s,%.17g,%.17g,%.17g,%.17g,%.17g,%d,%d,%.17g,%.17g,%.17g,%.17g,%.6f,%.6g",
                m->p, m->u, m->z, memory_policy_name(m->policy), r->T, c->W, c->S, c->O, c->N,
                c->L_kernels, c->L_edges, c->C, c->K, r->bound_theorem1, r->bound_corollary1,
                r->utilization, r->T / m->clock_hz);
        const closed_form *p = &pts[j].paper;
        if (pts[j].has_closed_form)
            fprintf(out, ",%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g\n", p->W, p->S, p->O, p->N, p->L,
                    p->C, p->T);
        else
            fprintf(out, ",,,,,,,\n");
    }
}

/* ---- JSON --------------------------------------------------------------- */

static cJSON *json_point(const run_point *pt)
{
    const machine *m = &pt->machine;
    const sim_result *r = &pt->result;
    const dag_costs *c = &r->costs;
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "program", pt->program);
    cJSON_AddStringToObject(o, "machine", m->name);
    cJSON *params = cJSON_AddObjectToObject(o, "params");
    for (int i = 0; i < pt->params.n; i++)
        cJSON_AddNumberToObject(params, pt->params.name[i], pt->params.value[i]);
    cJSON_AddNumberToObject(o, "T", r->T);
    cJSON_AddNumberToObject(o, "W", c->W);
    cJSON_AddNumberToObject(o, "S", c->S);
    cJSON_AddNumberToObject(o, "O", c->O);
    cJSON_AddNumberToObject(o, "N", c->N);
    cJSON_AddNumberToObject(o, "L_kernels", c->L_kernels);
    cJSON_AddNumberToObject(o, "L_edges", c->L_edges);
    cJSON_AddNumberToObject(o, "C", c->C);
    cJSON_AddNumberToObject(o, "K", c->K);
    cJSON_AddNumberToObject(o, "bound_theorem1", r->bound_theorem1);
    cJSON_AddNumberToObject(o, "bound_corollary1", r->bound_corollary1);
    cJSON_AddNumberToObject(o, "P", m->p);
    cJSON_AddNumberToObject(o, "U", m->u);
    cJSON_AddNumberToObject(o, "Z", m->z);
    cJSON_AddStringToObject(o, "policy", memory_policy_name(m->policy));
    cJSON_AddNumberToObject(o, "launch_latency", m->launch_latency);
    cJSON_AddNumberToObject(o, "seconds", r->T / m->clock_hz);
    cJSON_AddNumberToObject(o, "utilization", r->utilization);
    cJSON *split = cJSON_AddObjectToObject(o, "time_split"); /* T's parts, in cycles (time_split.h) */
    for (int part = 0; part < SPLIT_PARTS; part++)
        cJSON_AddNumberToObject(split, split_keys[part], r->time_split[part]);
    if (pt->has_closed_form) {
        const closed_form *p = &pt->paper;
        cJSON *cf = cJSON_AddObjectToObject(o, "closed_form");
        const char *names[] = {"W", "S", "O", "N", "L", "C", "T"};
        double values[] = {p->W, p->S, p->O, p->N, p->L, p->C, p->T};
        for (int i = 0; i < 7; i++)
            cJSON_AddNumberToObject(cf, names[i], values[i]);
    } else {
        cJSON_AddNullToObject(o, "closed_form");
    }
    if (pt->exec) {
        int n = pt->dag->n;
        const exec_kernel_report *rep = pt->exec;
        cJSON *x = cJSON_AddObjectToObject(o, "exec");
        cJSON_AddStringToObject(x, "check", "ok");
        cJSON *ks = cJSON_AddArrayToObject(x, "kernels");
        for (int i = 0; i < n; i++) {
            cJSON *k = cJSON_CreateObject();
            cJSON_AddStringToObject(k, "name", rep[i].name);
            cJSON_AddNumberToObject(k, "span", rep[i].span);
            cJSON_AddNumberToObject(k, "work", rep[i].work);
            cJSON_AddNumberToObject(k, "alpha", rep[i].alpha);
            cJSON_AddNumberToObject(k, "beta", rep[i].beta);
            cJSON_AddNumberToObject(k, "overhead_measured", rep[i].measured_overhead);
            cJSON_AddNumberToObject(k, "overhead_paper", rep[i].paper_overhead);
            cJSON_AddNumberToObject(k, "transactions", rep[i].transactions);
            cJSON_AddNumberToObject(k, "bank_conflicts", rep[i].bank_conflicts);
            cJSON_AddItemToArray(ks, k);
        }
    }
    cJSON *per_sm = cJSON_AddArrayToObject(o, "sm_utilization");
    for (int i = 0; i < r->p; i++)
        cJSON_AddItemToArray(per_sm, cJSON_CreateNumber(r->T > 0 ? r->sm_busy[i] / r->T : 0));
    cJSON *kernels = cJSON_AddArrayToObject(o, "kernels");
    for (int i = 0; i < pt->dag->n; i++) {
        cJSON *k = cJSON_CreateObject();
        cJSON_AddStringToObject(k, "name", pt->dag->kernels[i].name);
        cJSON_AddNumberToObject(k, "blocks", (double)pt->dag->kernels[i].blocks);
        cJSON_AddNumberToObject(k, "start", r->kernels[i].start);
        cJSON_AddNumberToObject(k, "end", r->kernels[i].end);
        cJSON_AddItemToArray(kernels, k);
    }
    return o;
}

static void json_print(FILE *out, const run_point *pts, long n, int as_array)
{
    cJSON *doc;
    if (as_array) {
        doc = cJSON_CreateArray();
        for (long i = 0; i < n; i++)
            cJSON_AddItemToArray(doc, json_point(&pts[i]));
    } else {
        doc = json_point(&pts[0]);
    }
    char *text = cJSON_Print(doc);
    fprintf(out, "%s\n", text);
    free(text);
    cJSON_Delete(doc);
}

/* ---- DMM/UMM points ----------------------------------------------------- */

/* A swept key that the machine columns (kind, p, w, l) already show: the
 * machine's own keys, and contiguous's param p (it is the machine's p). */
static int shown_by_machine(const char *key, const run_point *pt)
{
    const char *keys[] = {"kind", "p", "w", "warp", "latency", "l"};
    for (int i = 0; i < 6; i++)
        if (strcmp(key, keys[i]) == 0)
            return strcmp(key, "l") != 0 || !vars_get(&pt->params, "l"); /* sum's l is ℓ */
    return 0;
}

static const char *kind_title(machine_kind k) { return k == KIND_DMM ? "DMM" : "UMM"; }

static double dmm_ratio(const dmm_result *d)
{
    return d->bound.name[0] && d->bound.value != 0 ? d->total.time / d->bound.value : NAN;
}

static void dmm_text_steps(FILE *out, const dmm_result *d)
{
    const long shown_max = 12;
    fprintf(out, "\n  %6s %12s %12s %12s %10s %12s\n", "step", "requests", "dispatches", "inj. units",
            "idle", "time");
    for (long i = 0; i < d->n_steps; i++) {
        if (i == shown_max - 2 && d->n_steps > shown_max) {
            fprintf(out, "  ... %ld more steps (--format json lists them all)\n", d->n_steps - shown_max + 1);
            i = d->n_steps - 1;
        }
        const dmm_counts *c = &d->steps[i];
        fprintf(out, "  %6ld %12ld %12ld %12ld %10ld %12.0f\n", i + 1, c->requests, c->dispatches,
                c->injection_units, c->idle_units, c->time);
    }
}

static void dmm_text_one(FILE *out, const run_point *pt)
{
    const dmm_result *d = &pt->dmm;
    const dmm_counts *c = &d->total;
    fprintf(out, "program '%s' on the %s", pt->program, kind_title(d->kind));
    if (strcmp(pt->machine.name, "mcm") != 0) /* not the defaults' name */
        fprintf(out, " '%s'", pt->machine.name);
    fprintf(out, ": p = %d threads, width w = %d, latency l = %d\n", d->p, d->w, d->l);
    fprintf(out, "params:");
    for (int i = 0; i < pt->params.n; i++)
        fprintf(out, " %s = %.10g", pt->params.name[i], pt->params.value[i]);
    fprintf(out, "%s\n", pt->params.n ? "" : " none");
    if (vars_get(&pt->params, "l"))
        fprintf(out, "(the param l is the MCM's ℓ, threads per block, unused here; the latency is the machine's l)\n");
    fprintf(out, "\n  time                 %16.0f units\n", c->time);
    if (d->bound.name[0])
        fprintf(out, "  %-20s %16.6g units  %s   time/formula = %.3f%s\n", d->bound.name, d->bound.value,
                d->bound.formula, dmm_ratio(d), d->bound.exact ? " (exact)" : " (O() bound, constant 1)");
    fprintf(out, "\n  steps %ld, requests %ld, warp dispatches %ld, injection units %ld (%s: +%ld), "
            "idle units %ld, costliest dispatch %ld units\n", d->n_steps, c->requests, c->dispatches,
            c->injection_units, d->kind == KIND_DMM ? "bank conflicts" : "extra address groups",
            c->injection_units - c->dispatches, c->idle_units, c->max_cost);
    dmm_text_steps(out, d);
}

static void dmm_text_table(FILE *out, const run_point *pts, long n, const char *const *swept, int n_swept)
{
    int programs_swept = 0;
    for (int s = 0; s < n_swept; s++)
        programs_swept |= strcmp(swept[s], "program") == 0;
    if (programs_swept)
        fprintf(out, "programs compared on DMM/UMM machines, %ld points (time in units)\n\n", n);
    else
        fprintf(out, "program '%s' on DMM/UMM machines, %ld points (time in units)\n\n", pts[0].program, n);
    for (int s = 0; s < n_swept; s++)
        if (!shown_by_machine(swept[s], &pts[0]))
            fprintf(out, "%12s ", swept[s]);
    fprintf(out, "%4s %8s %6s %6s %12s %11s %14s %9s %12s %12s\n", "kind", "p", "w", "l", "T (units)",
            "formula", "formula value", "T/formula", "dispatches", "inj. units");
    for (long i = 0; i < n; i++) {
        const dmm_result *d = &pts[i].dmm;
        for (int s = 0; s < n_swept; s++)
            if (!shown_by_machine(swept[s], &pts[i]))
                fprintf(out, "%12s ", pts[i].swept[s]);
        fprintf(out, "%4s %8d %6d %6d %12.0f", machine_kind_name(d->kind), d->p, d->w, d->l, d->total.time);
        if (d->bound.name[0])
            fprintf(out, " %11s %14.6g %9.3f", d->bound.name, d->bound.value, dmm_ratio(d));
        else
            fprintf(out, " %11s %14s %9s", "-", "-", "-");
        fprintf(out, " %12ld %12ld\n", d->total.dispatches, d->total.injection_units);
    }
}

/* A swept key with a CSV column of its own (not a param, not `program`,
 * not a machine column). */
static int csv_swept_column(const char *key, const vars *columns, const run_point *pt)
{
    return !vars_get(columns, key) && !shown_by_machine(key, pt) && !own_column(key);
}

/* CSV machine columns are kind, p, w, latency; a param p (contiguous's
 * threads, which win over the machine's) is the p column, not one of its
 * own. */

static void dmm_csv(FILE *out, const run_point *pts, long n, const char *const *swept, int n_swept)
{
    vars columns;
    csv_param_columns(pts, n, "p", &columns); /* p: the machine's column */
    fprintf(out, "program,machine");
    for (int s = 0; s < n_swept; s++)
        if (csv_swept_column(swept[s], &columns, &pts[0]))
            fprintf(out, ",%s", swept[s]);
    for (int i = 0; i < columns.n; i++)
        fprintf(out, ",%s", columns.name[i]);
    fprintf(out, ",kind,p,w,latency,T,formula_name,formula,formula_value,T_over_formula,formula_exact,steps,"
                 "requests,dispatches,injection_units,idle_units,max_cost\n");
    for (long j = 0; j < n; j++) {
        const dmm_result *d = &pts[j].dmm;
        const dmm_counts *c = &d->total;
        csv_text(out, pts[j].program);
        fputc(',', out);
        csv_text(out, pts[j].machine.name);
        for (int s = 0; s < n_swept; s++)
            if (csv_swept_column(swept[s], &columns, &pts[0])) {
                fputc(',', out);
                csv_text(out, pts[j].swept[s]);
            }
        csv_param_values(out, &pts[j], &columns);
        fprintf(out, ",%s,%d,%d,%d,%.17g", machine_kind_name(d->kind), d->p, d->w, d->l, c->time);
        if (d->bound.name[0])
            fprintf(out, ",%s,\"%s\",%.17g,%.6f,%d", d->bound.name, d->bound.formula, d->bound.value,
                    dmm_ratio(d), d->bound.exact);
        else
            fprintf(out, ",,,,,");
        fprintf(out, ",%ld,%ld,%ld,%ld,%ld,%ld\n", d->n_steps, c->requests, c->dispatches, c->injection_units,
                c->idle_units, c->max_cost);
    }
}

static void json_counts(cJSON *o, const dmm_counts *c)
{
    cJSON_AddNumberToObject(o, "requests", (double)c->requests);
    cJSON_AddNumberToObject(o, "dispatches", (double)c->dispatches);
    cJSON_AddNumberToObject(o, "injection_units", (double)c->injection_units);
    cJSON_AddNumberToObject(o, "idle_units", (double)c->idle_units);
    cJSON_AddNumberToObject(o, "max_cost", (double)c->max_cost);
}

static cJSON *dmm_json_point(const run_point *pt)
{
    const dmm_result *d = &pt->dmm;
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "program", pt->program);
    cJSON_AddStringToObject(o, "machine", pt->machine.name);
    cJSON_AddStringToObject(o, "kind", machine_kind_name(d->kind));
    cJSON *params = cJSON_AddObjectToObject(o, "params");
    for (int i = 0; i < pt->params.n; i++)
        cJSON_AddNumberToObject(params, pt->params.name[i], pt->params.value[i]);
    cJSON_AddNumberToObject(o, "p", d->p);
    cJSON_AddNumberToObject(o, "w", d->w);
    cJSON_AddNumberToObject(o, "l", d->l);
    cJSON_AddNumberToObject(o, "T", d->total.time);
    if (d->bound.name[0]) {
        cJSON *b = cJSON_AddObjectToObject(o, "formula");
        cJSON_AddStringToObject(b, "name", d->bound.name);
        cJSON_AddStringToObject(b, "formula", d->bound.formula);
        cJSON_AddNumberToObject(b, "value", d->bound.value);
        cJSON_AddBoolToObject(b, "exact", d->bound.exact);
        cJSON_AddNumberToObject(o, "T_over_formula", dmm_ratio(d));
    } else {
        cJSON_AddNullToObject(o, "formula");
    }
    json_counts(o, &d->total);
    cJSON *steps = cJSON_AddArrayToObject(o, "steps");
    for (long i = 0; i < d->n_steps; i++) {
        cJSON *s = cJSON_CreateObject();
        cJSON_AddNumberToObject(s, "time", d->steps[i].time);
        json_counts(s, &d->steps[i]);
        cJSON_AddItemToArray(steps, s);
    }
    return o;
}

static void dmm_print(FILE *out, report_format format, const run_point *pts, long n,
                      const char *const *swept, int n_swept)
{
    if (format == FORMAT_CSV) {
        dmm_csv(out, pts, n, swept, n_swept);
    } else if (format == FORMAT_JSON) {
        cJSON *doc = n_swept > 0 ? cJSON_CreateArray() : dmm_json_point(&pts[0]);
        for (long i = 0; n_swept > 0 && i < n; i++)
            cJSON_AddItemToArray(doc, dmm_json_point(&pts[i]));
        char *text = cJSON_Print(doc);
        fprintf(out, "%s\n", text);
        free(text);
        cJSON_Delete(doc);
    } else if (n == 1 && n_swept == 0) {
        dmm_text_one(out, pts);
    } else {
        dmm_text_table(out, pts, n, swept, n_swept);
    }
}

void report_print(FILE *out, report_format format, const run_point *pts, long n,
                  const char *const *swept, int n_swept)
{
    if (n > 0 && pts[0].machine.kind != KIND_MCM) {
        dmm_print(out, format, pts, n, swept, n_swept);
        return;
    }
    switch (format) {
    case FORMAT_CSV:
        csv_print(out, pts, n, swept, n_swept);
        break;
    case FORMAT_JSON:
        json_print(out, pts, n, n_swept > 0);
        break;
    default:
        if (n == 1 && n_swept == 0)
            text_one(out, pts);
        else
            text_table(out, pts, n, swept, n_swept);
        rounded_note(out);
    }
}
