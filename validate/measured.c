/*
 * measured.c — reading a card's CSV files (see measured.h).
 */
#include "measured.h"
#include "fail.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The two formats cuda_ref/run-all.sh has written: the old protocol's
 * (one timing, 12 columns) and today's (wall and graph timings with
 * quartiles, the clock; cuda_ref/common/csv.h).  Columns are found by name. */
#define OLD_HEADER "case,params,n,m,l,s,median_ms,min_ms,max_ms,runs,launches,check"
#define NEW_HEADER                                                                  \
    "case,params,n,m,l,s,wall_median_ms,wall_q1_ms,wall_q3_ms,wall_min_ms,wall_max_ms," \
    "graph_median_ms,graph_q1_ms,graph_q3_ms,graph_min_ms,graph_max_ms,runs,clock_mhz,launches,check"
#define MAX_COLUMNS 24

typedef struct columns {
    int n;
    char name[MAX_COLUMNS][32];
} columns;

static int parse_params(measured_row *r)
{
    char copy[256];
    snprintf(copy, sizeof copy, "%s", r->params);
    vars_clear(&r->values);
    for (char *save, *tok = strtok_r(copy, ";", &save); tok; tok = strtok_r(NULL, ";", &save)) {
        char *eq = strchr(tok, '='), *end;
        if (!eq)
            return fail("%s:%d: params \"%s\": expected k=v;k=v", r->file, r->line, r->params);
        *eq = '\0';
        double v = strtod(eq + 1, &end);
        if (*end || end == eq + 1 || vars_set(&r->values, tok, v) < 0)
            return fail("%s:%d: params \"%s\": bad value for %s", r->file, r->line, r->params, tok);
    }
    return 0;
}

/* The value of column `name` in fields, or `def` when the file has none. */
static double field(const columns *c, char **fields, const char *name, double def)
{
    for (int i = 0; i < c->n; i++)
        if (strcmp(c->name[i], name) == 0)
            return atof(fields[i]);
    return def;
}

static int parse_row(char *line, const columns *c, measured_row *r)
{
    char *fields[MAX_COLUMNS];
    int n = 0;
    for (char *save, *tok = strtok_r(line, ",\n", &save); tok && n < MAX_COLUMNS; tok = strtok_r(NULL, ",\n", &save))
        fields[n++] = tok;
    if (n != c->n)
        return fail("%s:%d: expected %d columns as in the header, got %d", r->file, r->line, c->n, n);
    snprintf(r->program, sizeof r->program, "%s", fields[0]);
    snprintf(r->params, sizeof r->params, "%s", fields[1]);
    r->new_protocol = c->n > 12;
    r->wall.median = field(c, fields, r->new_protocol ? "wall_median_ms" : "median_ms", 0);
    r->wall.q1 = field(c, fields, "wall_q1_ms", 0);
    r->wall.q3 = field(c, fields, "wall_q3_ms", 0);
    r->graph.median = field(c, fields, "graph_median_ms", 0);
    r->graph.q1 = field(c, fields, "graph_q1_ms", 0);
    r->graph.q3 = field(c, fields, "graph_q3_ms", 0);
    r->clock_mhz = field(c, fields, "clock_mhz", 0);
    r->median_ms = r->wall.median;
    r->runs = (int)field(c, fields, "runs", 0);
    r->launches = (long)field(c, fields, "launches", 0);
    r->ok = strcmp(fields[n - 1], "ok") == 0;
    if (!(r->median_ms > 0) || (r->new_protocol && !(r->graph.median > 0)))
        return fail("%s:%d: the medians must be > 0", r->file, r->line);
    return parse_params(r);
}

/* The header of `path`: one of the two formats, columns named. */
static int parse_header(const char *path, char *line, columns *c)
{
    line[strcspn(line, "\r\n")] = '\0';
    if (strcmp(line, OLD_HEADER) != 0 && strcmp(line, NEW_HEADER) != 0)
        return fail("%s:1: expected the header %s (or the old protocol's %s)", path, NEW_HEADER, OLD_HEADER);
    c->n = 0;
    for (char *save, *tok = strtok_r(line, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
        snprintf(c->name[c->n++], sizeof c->name[0], "%s", tok);
    return 0;
}

static int load_file(const char *path, measured_row **rows, int *n, int *cap)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return fail("%s: cannot read", path);
    char line[1024];
    columns cols = {0};
    int number = 0, rc = 0;
    while (rc == 0 && fgets(line, sizeof line, f)) {
        number++;
        if (number == 1) {
            rc = parse_header(path, line, &cols);
            continue;
        }
        if (line[0] == '\n' || line[0] == '#')
            continue;
        if (*n == *cap) {
            *cap = *cap ? 2 * *cap : 64;
            *rows = realloc(*rows, sizeof **rows * (size_t)*cap);
        }
        measured_row *r = &(*rows)[*n];
        memset(r, 0, sizeof *r);
        snprintf(r->file, sizeof r->file, "%s", path);
        r->line = number;
        rc = parse_row(line, &cols, r);
        if (rc == 0)
            (*n)++;
    }
    fclose(f);
    return rc;
}

int measured_load(const char *dir, measured_row **rows, int *n)
{
    struct dirent **entries;
    int count = scandir(dir, &entries, NULL, alphasort);
    if (count < 0)
        return fail("%s: no measured data (run cuda_ref/run-all.sh on the card first)", dir);
    int cap = 0, rc = 0;
    *rows = NULL;
    *n = 0;
    for (int i = 0; i < count; i++) {
        const char *name = entries[i]->d_name;
        size_t len = strlen(name);
        if (rc == 0 && len > 4 && strcmp(name + len - 4, ".csv") == 0 && strcmp(name, "constants.csv") != 0 &&
            strcmp(name, "occupancy.csv") != 0 && strcmp(name, "instructions.csv") != 0 &&
            strcmp(name, "graph-start.csv") != 0) {
            char path[1024];
            snprintf(path, sizeof path, "%s/%s", dir, name);
            rc = load_file(path, rows, n, &cap);
        }
        free(entries[i]);
    }
    free(entries);
    if (rc == 0 && *n == 0)
        rc = fail("%s: no measured rows", dir);
    return rc;
}

int measured_constant(const char *dir, const char *name, double *value)
{
    char path[1024], line[512];
    snprintf(path, sizeof path, "%s/constants.csv", dir);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    int found = -1;
    size_t len = strlen(name);
    while (found < 0 && fgets(line, sizeof line, f))
        if (strncmp(line, name, len) == 0 && line[len] == ',') {
            *value = atof(line + len + 1);
            found = 0;
        }
    fclose(f);
    return found;
}

void measured_series_along(const measured_row *r, const char *key, char *out, size_t size)
{
    out[0] = '\0';
    const double *n = vars_get(&r->values, "n");
    for (int i = 0; i < r->values.n; i++) {
        const char *k = r->values.name[i];
        if (strcmp(k, key) == 0 ||
            (strcmp(key, "n") == 0 && strcmp(k, "m") == 0 && n && r->values.value[i] == *n))
            continue;
        size_t len = strlen(out);
        snprintf(out + len, size - len, "%s%s=%.15g", len ? " " : "", k, r->values.value[i]);
    }
}

void measured_series(const measured_row *r, char *out, size_t size) { measured_series_along(r, "n", out, size); }

static int varies(const char *key, const measured_row *r, const measured_row *rows, int n)
{
    const double *mine = vars_get(&r->values, key);
    if (!mine)
        return 0;
    for (int j = 0; j < n; j++) {
        const double *other = vars_get(&rows[j].values, key);
        if (strcmp(rows[j].program, r->program) == 0 && other && *other != *mine)
            return 1;
    }
    return 0;
}

const char *measured_size_key(const measured_row *r, const measured_row *rows, int n)
{
    if (varies("n", r, rows, n))
        return "n";
    if (varies("m", r, rows, n))
        return "m";
    for (int i = 0; i < r->values.n; i++)
        if (varies(r->values.name[i], r, rows, n))
            return r->values.name[i];
    return "n";
}
