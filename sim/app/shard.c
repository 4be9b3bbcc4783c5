/*
 * shard.c — shards of a sweep, and their merge (see shard.h).
 */
#include "shard.h"
#include "fail.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define LINE_PREFIX "# mcmsim shard "

int shard_parse(const char *text, long *k, long *n)
{
    char *end;
    errno = 0;
    *k = strtol(text, &end, 10);
    int bad = errno || end == text || *end != '/';
    if (!bad) {
        const char *rest = end + 1;
        *n = strtol(rest, &end, 10);
        bad = errno || end == rest || *end;
    }
    if (bad || *n < 1 || *k < 1 || *k > *n)
        return fail("--shard %s: expected K/N, shard K of N, whole numbers with 1 <= K <= N (e.g. --shard 2/8)",
                    text);
    return 0;
}

#define OPTIONS " with "

void shard_print_line(FILE *out, long k, long n, const char *run_file, long points, const char *options)
{
    fprintf(out, LINE_PREFIX "%ld/%ld of %s: %ld points%s%s\n", k, n, run_file, points, options[0] ? OPTIONS : "",
            options);
}

/* One shard file, read whole: its line's figures, its header, its rows. */
typedef struct shard_file {
    const char *path;
    char *text;
    long k, n, points;
    char *run_file;       /* in text */
    const char *options;  /* in text: after "points with ", or "" */
    char *header;         /* in text */
    char **lines;         /* the shard line, the header, then its rows */
    long n_rows;
} shard_file;

static char *read_whole(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t size = 0, cap = 4096;
    char *text = malloc(cap);
    size_t got;
    while ((got = fread(text + size, 1, cap - size - 1, f)) > 0) {
        size += got;
        if (cap - size - 1 == 0)
            text = realloc(text, cap *= 2);
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(text);
        return NULL;
    }
    text[size] = '\0';
    return text;
}

/* Cut the text at its newlines: every line must end with one. */
static int split_lines(shard_file *s)
{
    long cap = 16;
    char **lines = malloc(sizeof *lines * (size_t)cap), *p = s->text;
    long n = 0;
    while (*p) {
        char *nl = strchr(p, '\n');
        if (!nl) {
            free(lines);
            return fail("%s: its last line does not end with a newline (a shard cut short?)", s->path);
        }
        *nl = '\0';
        if (n == cap)
            lines = realloc(lines, sizeof *lines * (size_t)(cap *= 2));
        lines[n++] = p;
        p = nl + 1;
    }
    if (n < 2) {
        free(lines);
        return fail("%s: not a shard of mcmsim run --shard: it has no shard line and CSV header", s->path);
    }
    s->header = lines[1];
    s->lines = lines;
    s->n_rows = n - 2;
    return 0;
}

/* "# mcmsim shard K/N of FILE: P points[ with OPTIONS]" */
static int parse_line(shard_file *s)
{
    char *line = s->lines[0];
    const char *rule = "the first line of a shard is \"" LINE_PREFIX "K/N of FILE: P points[" OPTIONS
                       "OPTIONS]\" (mcmsim run --shard)";
    if (strncmp(line, LINE_PREFIX, strlen(LINE_PREFIX)) != 0)
        return fail("%s: not a shard: %s", s->path, rule);
    char *of = strstr(line, " of "), *with = of ? strstr(of, " points" OPTIONS) : NULL;
    s->options = with ? with + strlen(" points" OPTIONS) : "";
    if (with)
        with[strlen(" points")] = '\0'; /* the line without its options */
    char *colon = strrchr(line, ':');
    int used = 0;
    if (!of || !colon || colon < of ||
        sscanf(line + strlen(LINE_PREFIX), "%ld/%ld%n", &s->k, &s->n, &used) != 2 ||
        line + strlen(LINE_PREFIX) + used != of || sscanf(colon, ": %ld points%n", &s->points, &used) != 1 ||
        colon[used] || s->k < 1 || s->k > s->n || s->points < 0)
        return fail("%s: a shard line that does not read: %s", s->path, rule);
    *colon = '\0';
    s->run_file = of + 4;
    return 0;
}

/* The rows shard k of n owes: the points i < P with i mod n = k − 1. */
static long rows_owed(long k, long n, long points) { return points >= k ? (points - k) / n + 1 : 0; }

static void free_shards(shard_file *s, int n)
{
    for (int i = 0; i < n; i++) {
        free(s[i].text);
        free(s[i].lines);
    }
    free(s);
}

/* Read and check every file against the first; by_k[k − 1] is shard k. */
static int read_shards(shard_file *s, char *const *files, int n_files, shard_file **by_k)
{
    for (int i = 0; i < n_files; i++) {
        s[i].path = files[i];
        if (!(s[i].text = read_whole(files[i])))
            return fail("%s: cannot read: %s", files[i], strerror(errno));
        if (split_lines(&s[i]) < 0 || parse_line(&s[i]) < 0)
            return -1;
        if (s[i].n != n_files) /* and so by_k has a place for every shard */
            return fail("%s is shard %ld/%ld: merge wants all %ld shards, got %d files", s[i].path, s[i].k, s[i].n,
                        s[i].n, n_files);
        if (s[i].n != s[0].n || s[i].points != s[0].points || strcmp(s[i].run_file, s[0].run_file) != 0)
            return fail("%s is shard %ld/%ld of %s (%ld points), %s shard %ld/%ld of %s (%ld points): not shards "
                        "of one run", s[i].path, s[i].k, s[i].n, s[i].run_file, s[i].points, s[0].path, s[0].k,
                        s[0].n, s[0].run_file, s[0].points);
        if (strcmp(s[i].options, s[0].options) != 0)
            return fail("%s was run with %s, %s with %s: not shards of one run (the same run file and options)",
                        s[i].path, s[i].options[0] ? s[i].options : "no options", s[0].path,
                        s[0].options[0] ? s[0].options : "no options");
        if (strcmp(s[i].header, s[0].header) != 0)
            return fail("%s and %s have different CSV headers: not shards of one run (the same run file and "
                        "--set options)", s[i].path, s[0].path);
        if (by_k[s[i].k - 1])
            return fail("%s and %s are both shard %ld/%ld", by_k[s[i].k - 1]->path, s[i].path, s[i].k, s[i].n);
        by_k[s[i].k - 1] = &s[i];
        long owed = rows_owed(s[i].k, s[i].n, s[i].points);
        if (s[i].n_rows != owed)
            return fail("%s: shard %ld/%ld of %ld points has %ld rows, but owes %ld (a shard that failed or was "
                        "cut short?)", s[i].path, s[i].k, s[i].n, s[i].points, s[i].n_rows, owed);
    }
    for (long k = 1; k <= s[0].n; k++)
        if (!by_k[k - 1])
            return fail("shard %ld/%ld of %s is missing (%d files given; merge wants all %ld shards)", k, s[0].n,
                        s[0].run_file, n_files, s[0].n);
    return 0;
}

int shard_merge(FILE *out, char *const *files, int n_files)
{
    if (n_files < 1)
        return fail("merge needs the shards' CSV files: mcmsim merge A.csv B.csv ...");
    shard_file *s = calloc((size_t)n_files, sizeof *s);
    shard_file **by_k = calloc((size_t)n_files, sizeof *by_k);
    int rc = read_shards(s, files, n_files, by_k);
    if (rc == 0) {
        fprintf(out, "%s\n", s[0].header);
        for (long i = 0; i < s[0].points; i++)
            fprintf(out, "%s\n", by_k[i % s[0].n]->lines[2 + i / s[0].n]);
    }
    free(by_k);
    free_shards(s, n_files);
    return rc;
}
