/*
 * paje.c — the trace CSV as a Paje trace (see paje.h).
 */
#include "paje.h"
#include "fail.h"
#include "lifetime.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct row {
    double start, end;
    int sm, lane, kernel; /* kernel: index into the names */
} row;

typedef struct trace {
    row *rows;
    long n;
    char **kernels;       /* distinct kernel names, in first-seen order */
    int n_kernels;
    int sms;              /* largest sm + 1 */
} trace;

static int kernel_index(trace *t, const char *name)
{
    for (int i = 0; i < t->n_kernels; i++)
        if (strcmp(t->kernels[i], name) == 0)
            return i;
    t->kernels = realloc(t->kernels, sizeof *t->kernels * (size_t)(t->n_kernels + 1));
    t->kernels[t->n_kernels] = strdup(name);
    return t->n_kernels++;
}

static void trace_free(trace *t)
{
    for (int i = 0; i < t->n_kernels; i++)
        free(t->kernels[i]);
    free(t->kernels);
    free(t->rows);
}

static int read_trace(const char *path, trace *t)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return fail("%s: cannot read the schedule", path);
    char line[1024], name[512];
    long cap = 0, lineno = 0;
    int rc = 0;
    while (rc == 0 && fgets(line, sizeof line, f)) {
        if (lineno++ == 0)
            continue; /* header */
        long block;
        row r = {0};
        char *comma = strrchr(line, ',');
        if (!comma || sscanf(line, "%511[^,],%ld,%d,%lf,%lf", name, &block, &r.sm, &r.start, &r.end) != 5) {
            rc = fail("%s:%ld: not a row kernel,block,sm,start,end", path, lineno);
            break;
        }
        if (t->n == PAJE_BLOCKS_MAX) {
            rc = fail("--paje: the schedule has more than %d thread-blocks; a Paje trace holds every "
                      "block's state in time order, and mcmsim writes at most %d (trace a smaller run)",
                      PAJE_BLOCKS_MAX, PAJE_BLOCKS_MAX);
            break;
        }
        if (t->n == cap) {
            cap = cap ? 2 * cap : 4096;
            t->rows = realloc(t->rows, sizeof *t->rows * (size_t)cap);
        }
        r.kernel = kernel_index(t, name);
        if (r.sm + 1 > t->sms)
            t->sms = r.sm + 1;
        t->rows[t->n++] = r;
    }
    fclose(f);
    return rc;
}

static int by_start(const void *a, const void *b)
{
    const row *x = a, *y = b;
    return x->start < y->start ? -1 : x->start > y->start ? 1 : x->sm - y->sm;
}

/* Give each block the first lane of its SM that is free at its start; the
 * number of lanes of the busiest SM. */
static int assign_lanes(trace *t)
{
    qsort(t->rows, (size_t)t->n, sizeof *t->rows, by_start);
    int lanes = 1, cap = 8;
    double *free_at = calloc((size_t)t->sms * (size_t)cap, sizeof *free_at);
    for (long i = 0; i < t->n; i++) {
        row *r = &t->rows[i];
        int l = 0;
        while (l < cap && free_at[(size_t)r->sm * (size_t)cap + (size_t)l] > r->start)
            l++;
        if (l == cap) { /* more overlapping blocks than lanes so far: widen */
            double *wider = calloc((size_t)t->sms * (size_t)cap * 2, sizeof *wider);
            for (int s = 0; s < t->sms; s++)
                memcpy(wider + (size_t)s * (size_t)cap * 2, free_at + (size_t)s * (size_t)cap,
                       sizeof *wider * (size_t)cap);
            free(free_at);
            free_at = wider;
            cap *= 2;
        }
        free_at[(size_t)r->sm * (size_t)cap + (size_t)l] = r->end;
        r->lane = l;
        if (l + 1 > lanes)
            lanes = l + 1;
    }
    free(free_at);
    return lanes;
}

static void write_header(FILE *f)
{
    fputs("%EventDef PajeDefineContainerType 0\n%  Alias string\n%  Type string\n%  Name string\n%EndEventDef\n"
          "%EventDef PajeDefineStateType 1\n%  Alias string\n%  Type string\n%  Name string\n%EndEventDef\n"
          "%EventDef PajeDefineEntityValue 2\n%  Alias string\n%  Type string\n%  Name string\n"
          "%  Color color\n%EndEventDef\n"
          "%EventDef PajeCreateContainer 3\n%  Time date\n%  Alias string\n%  Type string\n"
          "%  Container string\n%  Name string\n%EndEventDef\n"
          "%EventDef PajeDestroyContainer 4\n%  Time date\n%  Type string\n%  Name string\n%EndEventDef\n"
          "%EventDef PajeSetState 5\n%  Time date\n%  Type string\n%  Container string\n"
          "%  Value string\n%EndEventDef\n",
          f);
}

/* A state change of one lane, for sorting into time order. */
typedef struct event {
    double time;
    long row;
    int is_end;
} event;

static int by_time(const void *a, const void *b)
{
    const event *x = a, *y = b;
    if (x->time != y->time)
        return x->time < y->time ? -1 : 1;
    return y->is_end - x->is_end; /* ends first: a lane is free before it is taken again */
}

static void write_events(FILE *f, const trace *t, int lanes, const char *title)
{
    double last = 0;
    fprintf(f, "0 M 0 \"Machine\"\n0 S M \"SM slot\"\n1 B S \"Thread-block\"\n");
    fprintf(f, "2 idle B \"idle\" \"1.0 1.0 1.0\"\n");
    for (int k = 0; k < t->n_kernels; k++) /* a colour wheel over the kernels */
        fprintf(f, "2 k%d B \"%s\" \"%.2f %.2f %.2f\"\n", k, t->kernels[k], 0.2 + 0.6 * ((k * 5) % 7) / 6.0,
                0.2 + 0.6 * ((k * 3) % 5) / 4.0, 0.9 - 0.6 * ((k * 2) % 3) / 2.0);
    fprintf(f, "3 0 m M 0 \"%s\"\n", title);
    for (int s = 0; s < t->sms; s++)
        for (int l = 0; l < lanes; l++)
            if (lanes > 1)
                fprintf(f, "3 0 s%d_%d S m \"SM %d slot %d\"\n", s, l, s, l);
            else
                fprintf(f, "3 0 s%d_%d S m \"SM %d\"\n", s, l, s);
    event *ev = malloc(sizeof *ev * (size_t)(2 * t->n + 1));
    for (long i = 0; i < t->n; i++) {
        ev[2 * i] = (event){t->rows[i].start, i, 0};
        ev[2 * i + 1] = (event){t->rows[i].end, i, 1};
    }
    qsort(ev, (size_t)(2 * t->n), sizeof *ev, by_time);
    for (long e = 0; e < 2 * t->n; e++) {
        const row *r = &t->rows[ev[e].row];
        if (ev[e].is_end)
            fprintf(f, "5 %.17g B s%d_%d idle\n", ev[e].time, r->sm, r->lane);
        else
            fprintf(f, "5 %.17g B s%d_%d k%d\n", ev[e].time, r->sm, r->lane, r->kernel);
        last = ev[e].time;
    }
    free(ev);
    for (int s = 0; s < t->sms; s++)
        for (int l = 0; l < lanes; l++)
            fprintf(f, "4 %.17g S s%d_%d\n", last, s, l);
    fprintf(f, "4 %.17g M m\n", last);
}

int paje_from_trace(const char *csv_path, const char *paje_path, const char *title)
{
    trace t = {0};
    if (read_trace(csv_path, &t) < 0) {
        trace_free(&t);
        return -1;
    }
    int lanes = assign_lanes(&t);
    char tmp[1100];
    snprintf(tmp, sizeof tmp, "%s.part", paje_path);
    lifetime_remove_on_signal(tmp);
    FILE *f = fopen(tmp, "w");
    if (!f) {
        lifetime_forget(tmp);
        trace_free(&t);
        return fail("--paje %s: cannot open for writing", paje_path);
    }
    write_header(f);
    write_events(f, &t, lanes, title);
    trace_free(&t);
    int rc = 0;
    if (fclose(f) != 0 || rename(tmp, paje_path) != 0) {
        unlink(tmp);
        rc = fail("--paje %s: write error", paje_path);
    }
    lifetime_forget(tmp);
    return rc;
}
