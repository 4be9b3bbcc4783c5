/*
 * config_file.c — libconfig files read as written (see config_file.h).
 *
 * The scan follows libconfig 1.5's scanner (lib/scanner.l): comments
 * (#, //, / * * /), strings with their escapes, names, and the longest
 * literal among float, integer, integer64 (L or LL), hex and hex64.  It
 * changes nothing but the suffixes it adds, so lines stay where they were.
 */
#include "config_file.h"
#include "fail.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---- the file's text ------------------------------------------------------ */

/* The whole file, NUL-terminated, in *text (the caller frees). */
static int slurp(const char *path, char **text, size_t *len)
{
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        return fail("%s: is a folder, not a config file", path);
    FILE *f = fopen(path, "rb");
    if (!f)
        return fail("%s: cannot read it: %s", path, strerror(errno));
    size_t size = 4096, used = 0;
    char *buf = malloc(size);
    size_t got;
    while (buf && (got = fread(buf + used, 1, size - used - 1, f)) > 0) {
        used += got;
        if (used + 1 == size) {
            char *bigger = realloc(buf, size *= 2);
            if (!bigger)
                free(buf);
            buf = bigger;
        }
    }
    int bad = ferror(f) || !buf;
    fclose(f);
    if (bad) {
        free(buf);
        return fail("%s: cannot read it", path);
    }
    buf[used] = '\0';
    *text = buf;
    *len = used;
    return 0;
}

/* ---- libconfig's literals --------------------------------------------------- */

typedef enum { LIT_FLOAT, LIT_INT, LIT_INT64, LIT_HEX, LIT_HEX64 } literal_kind;

static size_t digits(const char *s)
{
    size_t n = 0;
    while (isdigit((unsigned char)s[n]))
        n++;
    return n;
}

static size_t hex_digits(const char *s)
{
    size_t n = 0;
    while (isxdigit((unsigned char)s[n]))
        n++;
    return n;
}

/* [eE][-+]?[0-9]+ */
static size_t exponent(const char *s)
{
    if (*s != 'e' && *s != 'E')
        return 0;
    size_t n = 1 + (s[1] == '+' || s[1] == '-'), d = digits(s + n);
    return d ? n + d : 0;
}

/* L or LL */
static size_t suffix64(const char *s) { return s[0] == 'L' ? 1 + (s[1] == 'L') : 0; }

/* The longest literal at s, as flex takes it (ties to the earlier rule:
 * float, integer, integer64, hex, hex64); 0 if none. */
static size_t literal_at(const char *s, literal_kind *kind)
{
    size_t sign = s[0] == '+' || s[0] == '-', whole = digits(s + sign), end = sign + whole, best = 0;
    if (s[end] == '.') { /* [-+]?[0-9]*\.[0-9]*([eE][-+]?[0-9]+)? */
        size_t frac = end + 1 + digits(s + end + 1);
        best = frac + exponent(s + frac);
        *kind = LIT_FLOAT;
    } else if (whole && exponent(s + end)) { /* [-+]?[0-9]+[eE][-+]?[0-9]+ */
        best = end + exponent(s + end);
        *kind = LIT_FLOAT;
    }
    if (whole && end + suffix64(s + end) > best) {
        *kind = suffix64(s + end) ? LIT_INT64 : LIT_INT;
        best = end + suffix64(s + end);
    }
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && hex_digits(s + 2)) {
        size_t hex = 2 + hex_digits(s + 2);
        if (hex + suffix64(s + hex) > best) {
            *kind = suffix64(s + hex) ? LIT_HEX64 : LIT_HEX;
            best = hex + suffix64(s + hex);
        }
    }
    return best;
}

/* ---- the scan --------------------------------------------------------------- */

typedef struct scan {
    const char *path, *text;
    int line;
    char key[64];           /* the name before the last `=` or `:` */
    size_t *add;            /* where an L goes, ascending */
    size_t n_add, cap_add;
    size_t *array_ints;     /* the whole numbers without a suffix in the open array */
    size_t n_array, cap_array;
    int array_open, array_is_64;
} scan;

static int push(size_t **list, size_t *n, size_t *cap, size_t value)
{
    if (*n == *cap) {
        size_t *bigger = realloc(*list, (*cap = *cap ? 2 * *cap : 16) * sizeof **list);
        if (!bigger)
            return fail("out of memory");
        *list = bigger;
    }
    (*list)[(*n)++] = value;
    return 0;
}

/* The range refused: beyond what libconfig holds. */
static int out_of_range(const scan *sc, const char *literal, size_t len, const char *limit)
{
    return fail("%s:%d: %s%s%s = %.*s is out of range: %s", sc->path, sc->line, sc->key[0] ? "'" : "",
                sc->key[0] ? sc->key : "a value", sc->key[0] ? "'" : "", (int)(len > 40 ? 40 : len), literal,
                limit);
}

#define WHOLE_LIMIT "a whole number in a config file is from -9223372036854775808 to 9223372036854775807 (64 bits)"
#define DOUBLE_LIMIT "a number is 0 or from 2.3e-308 to 1.8e+308 in magnitude (a double)"
#define EXACT_LIMIT "a whole number is at most 2^53 = 9007199254740992 in magnitude (numbers are doubles, exact up to 2^53)"

/* A literal of `len` bytes at text + at: refuse it beyond libconfig's
 * range; note where an L goes for a whole number beyond 32 bits. */
static int literal(scan *sc, size_t at, size_t len, literal_kind kind)
{
    const char *s = sc->text + at;
    char *copy = strndup(s, len);
    if (!copy)
        return fail("out of memory");
    const char *beyond = NULL;
    int needs_64 = 0;
    errno = 0;
    if (kind == LIT_FLOAT) {
        double x = strtod(copy, NULL);
        if (errno == ERANGE || !isfinite(x))
            beyond = DOUBLE_LIMIT;
    } else if (kind == LIT_HEX || kind == LIT_HEX64) {
        unsigned long long v = strtoull(copy, NULL, 16);
        if (errno == ERANGE || v > (unsigned long long)INT64_MAX)
            beyond = "a hexadecimal number in a config file is at most 0x7FFFFFFFFFFFFFFF (64 bits)";
        needs_64 = v > INT32_MAX;
    } else {
        long long v = strtoll(copy, NULL, 10);
        if (errno == ERANGE)
            beyond = WHOLE_LIMIT;
        needs_64 = v < INT32_MIN || v > INT32_MAX;
    }
    free(copy);
    if (beyond)
        return out_of_range(sc, s, len, beyond);
    if (kind == LIT_FLOAT)
        return 0;
    int has_suffix = kind == LIT_INT64 || kind == LIT_HEX64;
    if (sc->array_open) {
        sc->array_is_64 |= needs_64 || has_suffix;
        return has_suffix ? 0 : push(&sc->array_ints, &sc->n_array, &sc->cap_array, at + len);
    }
    return needs_64 && !has_suffix ? push(&sc->add, &sc->n_add, &sc->cap_add, at + len) : 0;
}

/* `]`: the array's whole numbers get the suffix if one of them needs it
 * (libconfig refuses an array of 32- and 64-bit numbers). */
static int close_array(scan *sc)
{
    for (size_t i = 0; sc->array_is_64 && i < sc->n_array; i++)
        if (push(&sc->add, &sc->n_add, &sc->cap_add, sc->array_ints[i]) < 0)
            return -1;
    sc->n_array = 0;
    sc->array_open = sc->array_is_64 = 0;
    return 0;
}

static int is_name_start(char c) { return isalpha((unsigned char)c) || c == '*'; }
static int is_name_char(char c) { return isalnum((unsigned char)c) || c == '*' || c == '-' || c == '_'; }

/* Skip a string from its opening quote; the index after its closing one. */
static size_t skip_string(scan *sc, size_t i)
{
    for (i++; sc->text[i] && sc->text[i] != '"'; i++) {
        sc->line += sc->text[i] == '\n';
        if (sc->text[i] == '\\' && (sc->text[i + 1] == '"' || sc->text[i + 1] == '\\'))
            i++;
    }
    return sc->text[i] ? i + 1 : i;
}

/* Walk the text once; 0 with sc->add filled, or -1 with fail(). */
static int scan_text(scan *sc, size_t len)
{
    const char *t = sc->text;
    char name[64] = "";
    int line_start = 1;
    for (size_t i = 0; i < len;) {
        char c = t[i];
        if (c == '\0')
            return fail("%s:%d: a NUL byte, which a config file cannot hold", sc->path, sc->line);
        if (line_start && strncmp(t + i + strspn(t + i, " \t"), "@include", 8) == 0)
            return fail("%s:%d: @include is not read: a run file or machine file is one file", sc->path, sc->line);
        line_start = c == '\n';
        if (c == '\n') {
            sc->line++;
            i++;
        } else if (c == '#' || (c == '/' && t[i + 1] == '/')) {
            i += strcspn(t + i, "\n");
        } else if (c == '/' && t[i + 1] == '*') {
            const char *end = strstr(t + i + 2, "*/");
            size_t stop = end ? (size_t)(end - t) + 2 : len;
            for (; i < stop; i++)
                sc->line += t[i] == '\n';
        } else if (c == '"') {
            i = skip_string(sc, i);
        } else if (is_name_start(c)) {
            size_t n = 1;
            while (is_name_char(t[i + n]))
                n++;
            snprintf(name, sizeof name, "%.*s", (int)(n < sizeof name ? n : sizeof name - 1), t + i);
            i += n;
        } else if (c == '=' || c == ':') {
            memcpy(sc->key, name, sizeof sc->key);
            i++;
        } else if (c == '[' || c == ']') {
            if (c == ']' && close_array(sc) < 0)
                return -1;
            sc->array_open = c == '[';
            i++;
        } else {
            literal_kind kind;
            size_t n = literal_at(t + i, &kind);
            if (n && literal(sc, i, n, kind) < 0)
                return -1;
            i += n ? n : 1;
        }
    }
    return close_array(sc);
}

/* ---- reading ---------------------------------------------------------------- */

/* Every setting under s is from `path`. */
static void name_file(config_setting_t *s, const char *path)
{
    s->file = path;
    if (config_setting_is_aggregate(s))
        for (int i = 0; i < config_setting_length(s); i++)
            name_file(config_setting_get_elem(s, (unsigned)i), path);
}

int config_file_read(config_t *cfg, const char *path)
{
    char *text = NULL;
    size_t len = 0;
    if (slurp(path, &text, &len) < 0)
        return -1;
    scan sc = {.path = path, .text = text, .line = 1};
    int rc = scan_text(&sc, len);
    char *written = NULL;
    if (rc == 0 && (written = malloc(len + sc.n_add + 1))) {
        size_t from = 0, to = 0;
        for (size_t k = 0; k < sc.n_add; k++) {
            memcpy(written + to, text + from, sc.add[k] - from);
            to += sc.add[k] - from;
            written[to++] = 'L';
            from = sc.add[k];
        }
        memcpy(written + to, text + from, len - from + 1);
    } else if (rc == 0) {
        rc = fail("out of memory");
    }
    if (rc == 0 && !config_read_string(cfg, written))
        rc = fail("%s:%d: syntax error: %s", path, config_error_line(cfg), config_error_text(cfg));
    if (rc == 0)
        name_file(config_root_setting(cfg), path);
    free(written);
    free(sc.add);
    free(sc.array_ints);
    free(text);
    return rc;
}

/* ---- typed look-ups ----------------------------------------------------------- */

void setting_where(const config_setting_t *s, char *out, size_t size)
{
    const char *file = config_setting_source_file(s);
    snprintf(out, size, "%s:%u", file ? file : "<config>", config_setting_source_line(s));
}

const char *setting_shown(const config_setting_t *s, char *out, size_t size)
{
    switch (config_setting_type(s)) {
    case CONFIG_TYPE_STRING:
        snprintf(out, size, "the string \"%.60s\"", config_setting_get_string(s));
        break;
    case CONFIG_TYPE_INT:
    case CONFIG_TYPE_INT64:
        snprintf(out, size, "the number %lld", config_setting_get_int64(s));
        break;
    case CONFIG_TYPE_FLOAT:
        snprintf(out, size, "the number %.17g", config_setting_get_float(s));
        break;
    case CONFIG_TYPE_BOOL:
        snprintf(out, size, "%s", config_setting_get_bool(s) ? "true" : "false");
        break;
    case CONFIG_TYPE_GROUP:
        snprintf(out, size, "a group { ... }");
        break;
    case CONFIG_TYPE_ARRAY:
        snprintf(out, size, "an array [ ... ]");
        break;
    default:
        snprintf(out, size, "a list ( ... )");
        break;
    }
    return out;
}

int setting_wrong_type(const config_setting_t *s, const char *what, const char *takes)
{
    char where[512], shown[128];
    setting_where(s, where, sizeof where);
    return fail("%s: %s must be %s, not %s", where, what, takes, setting_shown(s, shown, sizeof shown));
}

int setting_number(const config_setting_t *s, const char *key, double *out)
{
    int type = config_setting_type(s);
    if (type == CONFIG_TYPE_FLOAT) {
        *out = config_setting_get_float(s);
        return 0;
    }
    if (type != CONFIG_TYPE_INT && type != CONFIG_TYPE_INT64)
        return 1;
    long long v = config_setting_get_int64(s);
    if (v > (long long)EXACT_WHOLE_MAX || v < -(long long)EXACT_WHOLE_MAX) {
        char where[512];
        setting_where(s, where, sizeof where);
        return fail("%s: %s = %lld is out of range: " EXACT_LIMIT, where, key, v);
    }
    *out = (double)v;
    return 0;
}

int text_number(const char *text, const char *where, const char *key, double *out)
{
    char *end;
    errno = 0;
    double x = strtod(text, &end);
    if (end == text || *end)
        return 1;
    size_t sign = text[0] == '-' || text[0] == '+';
    if (digits(text + sign) == strlen(text + sign)) { /* a whole number: exact, or refused */
        errno = 0;
        long long v = strtoll(text, NULL, 10);
        if (errno == ERANGE || v > (long long)EXACT_WHOLE_MAX || v < -(long long)EXACT_WHOLE_MAX)
            return fail("%s: %s = %s is out of range: " EXACT_LIMIT, where, key, text);
        *out = (double)v;
        return 0;
    }
    if (errno == ERANGE || !isfinite(x))
        return fail("%s: %s = %s is out of range: " DOUBLE_LIMIT, where, key, text);
    *out = x;
    return 0;
}

int member_bool(const config_setting_t *g, const char *key, const char *what, const char *meaning, int *out)
{
    const config_setting_t *s = config_setting_get_member(g, key);
    if (!s)
        return 0;
    if (config_setting_type(s) != CONFIG_TYPE_BOOL) {
        char takes[256];
        snprintf(takes, sizeof takes, "true or false (%s)", meaning);
        return setting_wrong_type(s, what, takes);
    }
    *out = config_setting_get_bool(s);
    return 0;
}

int member_string(const config_setting_t *g, const char *key, const char *what, size_t max, const char **out)
{
    const config_setting_t *s = config_setting_get_member(g, key);
    if (!s)
        return 0;
    if (config_setting_type(s) != CONFIG_TYPE_STRING)
        return setting_wrong_type(s, what, "a string");
    const char *text = config_setting_get_string(s);
    if (strlen(text) > max) {
        char where[512];
        setting_where(s, where, sizeof where);
        return fail("%s: %s is %zu characters long, out of range: at most %zu", where, what, strlen(text), max);
    }
    *out = text;
    return 0;
}

int members_known(const config_setting_t *g, const char *const *keys, const char *what)
{
    for (int i = 0; i < config_setting_length(g); i++) {
        const config_setting_t *s = config_setting_get_elem(g, (unsigned)i);
        int known = 0;
        for (int k = 0; keys[k]; k++)
            known |= strcmp(config_setting_name(s), keys[k]) == 0;
        if (known)
            continue;
        char where[512], names[512] = "";
        for (int k = 0; keys[k]; k++) {
            size_t len = strlen(names);
            snprintf(names + len, sizeof names - len, "%s%s", k ? ", " : "", keys[k]);
        }
        setting_where(s, where, sizeof where);
        return fail("%s: unknown %skey '%s' (known: %s)", where, what, config_setting_name(s), names);
    }
    return 0;
}
