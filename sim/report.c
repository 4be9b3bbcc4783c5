/*
 * report.c — printing run points (see report.h).
 */
#include "report.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- text --------------------------------------------------------------- */

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
        fprintf(out, "  %-22s %12ld %16.0f %16.0f\n", dag->kernels[i].name, dag->kernels[i].blocks,
                pt->result.kernels[i].start, pt->result.kernels[i].end);
    }
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
    fprintf(out, "  simulated time T     %16.0f cycles  (%.6g s at %.3g GHz)\n", r->T, r->T / m->clock_hz,
            m->clock_hz / 1e9);
    fprintf(out, "  Theorem 1 bound      %16.0f cycles  (N/P + L)·C = (%.0f/%d + %d)·%g   T/bound = %.3f\n",
            r->bound_theorem1, c->N, m->p, c->L_kernels, c->C, r->T / r->bound_theorem1);
    fprintf(out, "  Corollary 1 bound    %16.0f cycles  (N/K + L)·C = (%.0f/%.0f + %d)·%g   (on P = K SMs)\n",
            r->bound_corollary1, c->N, c->K, c->L_kernels, c->C);
    if (r->launch_term > 0)
        fprintf(out, "  launch latency       %16.0f cycles  L·launch_latency, beyond the model\n",
                r->launch_term);
    fprintf(out, "\n  work W = %.0f   span S = %.0f   overhead O = %.0f\n", c->W, c->S, c->O);
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
    text_kernels(out, pt);
}

static void text_table(FILE *out, const run_point *pts, long n, const char *const *swept, int n_swept)
{
    const machine *m = &pts[0].machine;
    int papers = 0;
    for (long i = 0; i < n; i++)
        papers |= pts[i].has_closed_form;
    int programs_swept = 0;
    for (int s = 0; s < n_swept; s++)
        programs_swept |= strcmp(swept[s], "program") == 0;
    if (programs_swept)
        fprintf(out, "programs compared on machine '%s', %ld points\n\n", m->name, n);
    else
        fprintf(out, "program '%s' on machine '%s', %ld points\n\n", pts[0].program, m->name, n);
    for (int s = 0; s < n_swept; s++)
        fprintf(out, "%12s ", swept[s]);
    fprintf(out, "%16s %16s %8s %18s %7s", "T (cycles)", "Theorem 1", "T/Thm1", "Cor. 1 (P = K)", "util");
    fprintf(out, papers ? " %16s %9s\n" : "\n", "paper's T", "T/paper");
    for (long i = 0; i < n; i++) {
        const sim_result *r = &pts[i].result;
        for (int s = 0; s < n_swept; s++)
            fprintf(out, "%12s ", pts[i].swept[s]);
        fprintf(out, "%16.0f %16.0f %8.3f %18.0f %6.1f%%", r->T, r->bound_theorem1,
                r->T / r->bound_theorem1, r->bound_corollary1, 100 * r->utilization);
        if (pts[i].has_closed_form)
            fprintf(out, " %16.0f %9.3f\n", pts[i].paper.T, r->T / pts[i].paper.T);
        else
            fprintf(out, papers ? " %16s %9s\n" : "\n", "-", "-");
    }
}

/* ---- CSV ---------------------------------------------------------------- */

static const char *csv_metrics =
    "P,U,Z,policy,T,W,S,O,N,L_kernels,L_edges,C,K,bound_theorem1,bound_corollary1,utilization,seconds,"
    "paper_W,paper_S,paper_O,paper_N,paper_L,paper_C,paper_T";

static void csv_print(FILE *out, const run_point *pts, long n, const char *const *swept, int n_swept)
{
    /* params columns: every param of any point (programs may differ) */
    vars columns;
    vars_clear(&columns);
    for (long j = 0; j < n; j++)
        for (int i = 0; i < pts[j].params.n; i++)
            if (!vars_get(&columns, pts[j].params.name[i]))
                vars_set(&columns, pts[j].params.name[i], 0);
    fprintf(out, "program,machine");
    for (int s = 0; s < n_swept; s++)
        if (!vars_get(&columns, swept[s]) && strcmp(swept[s], "program") != 0)
            fprintf(out, ",%s", swept[s]);
    for (int i = 0; i < columns.n; i++)
        fprintf(out, ",%s", columns.name[i]);
    fprintf(out, ",%s\n", csv_metrics);
    for (long j = 0; j < n; j++) {
        const machine *m = &pts[j].machine;
        const sim_result *r = &pts[j].result;
        const dag_costs *c = &r->costs;
        fprintf(out, "%s,%s", pts[j].program, m->name);
        for (int s = 0; s < n_swept; s++)
            if (!vars_get(&columns, swept[s]) && strcmp(swept[s], "program") != 0)
                fprintf(out, ",%s", pts[j].swept[s]);
        for (int i = 0; i < columns.n; i++) {
            const double *v = vars_get(&pts[j].params, columns.name[i]);
            if (v)
                fprintf(out, ",%.17g", *v);
            else
                fprintf(out, ",");
        }
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

void report_print(FILE *out, report_format format, const run_point *pts, long n,
                  const char *const *swept, int n_swept)
{
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
    }
}
