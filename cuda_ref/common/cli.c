/*
 * cli.c -- "--key value" parsing with lists and ranges (see cli.h).
 */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* strtol that requires the whole token to be a number */
static int parse_long(const char *s, const char *end, long *out)
{
    char *stop;
    if (s == end)
        return -1;
    long v = strtol(s, &stop, 10);
    if (stop != end)
        return -1;
    *out = v;
    return 0;
}

/* "lo:hi:+step" or "lo:hi:*factor" */
static int parse_range(const char *text, long *out, int max)
{
    const char *c1 = strchr(text, ':');
    const char *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
    long lo, hi, step;
    if (!c2 || parse_long(text, c1, &lo) || parse_long(c1 + 1, c2, &hi))
        return -1;
    char kind = c2[1];
    if ((kind != '+' && kind != '*') ||
        parse_long(c2 + 2, c2 + 2 + strlen(c2 + 2), &step))
        return -1;
    if ((kind == '+' && step <= 0) || (kind == '*' && step <= 1) || lo > hi)
        return -1;
    int count = 0;
    for (long v = lo; v <= hi; v = (kind == '+') ? v + step : v * step) {
        if (count == max)
            return -1;
        out[count++] = v;
        if (kind == '*' && v <= 0)
            return -1;
    }
    return count;
}

int cli_parse_list(const char *text, long *out, int max)
{
    if (strchr(text, ':'))
        return parse_range(text, out, max);
    int count = 0;
    const char *start = text;
    for (;;) {
        const char *comma = strchr(start, ',');
        const char *end = comma ? comma : start + strlen(start);
        if (count == max || parse_long(start, end, &out[count]))
            return -1;
        count++;
        if (!comma)
            return count;
        start = comma + 1;
    }
}

const char *cli_value(int argc, char **argv, const char *key)
{
    for (int i = 1; i + 1 < argc; i++)
        if (strcmp(argv[i], key) == 0)
            return argv[i + 1];
    return NULL;
}

int cli_flag(int argc, char **argv, const char *flag)
{
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], flag) == 0)
            return 1;
    return 0;
}

long cli_long(int argc, char **argv, const char *key, long def)
{
    const char *text = cli_value(argc, argv, key);
    long v;
    if (!text)
        return def;
    if (parse_long(text, text + strlen(text), &v)) {
        fprintf(stderr, "bad integer for %s: '%s'\n", key, text);
        exit(2);
    }
    return v;
}

int cli_list(int argc, char **argv, const char *key, long *out,
             const long *def, int ndef)
{
    const char *text = cli_value(argc, argv, key);
    if (!text) {
        memcpy(out, def, (size_t)ndef * sizeof *out);
        return ndef;
    }
    int count = cli_parse_list(text, out, CLI_MAX_LIST);
    if (count <= 0) {
        fprintf(stderr, "bad list for %s: '%s'\n", key, text);
        exit(2);
    }
    return count;
}

static int in_list(const char *arg, const char *const *names)
{
    for (; *names; names++)
        if (strcmp(arg, *names) == 0)
            return 1;
    return 0;
}

void cli_require_known(int argc, char **argv, const char *const *keys,
                       const char *const *flags, const char *usage)
{
    for (int i = 1; i < argc; i++) {
        if (in_list(argv[i], keys) && i + 1 < argc) {
            i++;                         /* skip the value */
            continue;
        }
        if (in_list(argv[i], flags))
            continue;
        fprintf(stderr, "unknown or incomplete option '%s'\nusage: %s\n",
                argv[i], usage);
        exit(2);
    }
}
