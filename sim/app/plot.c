/*
 * plot.c — the drawing session of `mcmsim plot` (see plot.h): the terminal
 * from the extension, a temporary folder, gnuplot run as a child, the
 * picture renamed into place at the end, temporary files removed always.
 */
#include "plot.h"
#include "fail.h"
#include "lifetime.h"
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int plot_kind_parse(const char *name, plot_kind *kind)
{
    static const char *const names[] = {"gantt", "sweep", "costs", "speedup", "warps"};
    for (int i = 0; i < 5; i++)
        if (strcmp(name, names[i]) == 0) {
            *kind = (plot_kind)i;
            return 0;
        }
    return fail("--kind %s: unknown kind (expected gantt, sweep, costs, speedup or warps)", name);
}

void plot_quote(char *dst, size_t n, const char *src)
{
    size_t j = 0;
    for (size_t i = 0; src[i] && j + 1 < n; i++)
        dst[j++] = (src[i] == '"' || src[i] == '\\' || src[i] == '\'') ? ' ' : src[i];
    dst[j] = '\0';
}

static int word_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

void plot_ell(char *dst, size_t n, const char *src)
{
    size_t j = 0;
    for (size_t i = 0; src[i] && j + 1 < n; i++) {
        int lone = src[i] == 'l' && (i == 0 || !word_char(src[i - 1])) && !word_char(src[i + 1]);
        if (lone && j + 3 < n) {
            memcpy(dst + j, "\xe2\x84\x93", 3); /* ℓ in UTF-8 */
            j += 3;
        } else if (!lone) {
            dst[j++] = src[i];
        } else {
            break;
        }
    }
    dst[j] = '\0';
}

static const char *terminal_for(const char *out)
{
    const char *dot = strrchr(out, '.');
    if (dot && strcmp(dot, ".svg") == 0)
        return "svg size 1280,800 dynamic enhanced font 'sans,16' background rgb 'white'";
    if (dot && strcmp(dot, ".png") == 0)
        return "pngcairo size 1280,800 enhanced font 'sans,16' background rgb 'white'";
    return NULL;
}

int plot_check_output(const char *out)
{
    return terminal_for(out) ? 0 : fail("-o %s: gnuplot cannot write this format here (use .svg or .png)", out);
}

static void remove_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    char path[1400];
    while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            unlink(path);
        }
    closedir(d);
    rmdir(dir);
}

int plot_open(plot_session *s, const char *out)
{
    memset(s, 0, sizeof *s);
    s->out = out;
    const char *term = terminal_for(out);
    if (!term)
        return fail("-o %s: gnuplot cannot write this format here (use .svg or .png)", out);
    const char *tmp = getenv("TMPDIR");
    snprintf(s->dir, sizeof s->dir, "%s/mcmsim-plot-XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
    if (!mkdtemp(s->dir)) {
        s->dir[0] = '\0';
        return fail("-o %s: cannot make a temporary folder: %s", out, strerror(errno));
    }
    snprintf(s->part, sizeof s->part, "%s.part", out);
    lifetime_remove_on_signal(s->dir);
    lifetime_remove_on_signal(s->part);
    char path[1100], q[1100];
    s->script = plot_data(s, "script.gp", path, sizeof path);
    if (!s->script) {
        remove_dir(s->dir);
        lifetime_forget(s->dir);
        lifetime_forget(s->part);
        return fail("-o %s: cannot write the gnuplot script: %s", out, strerror(errno));
    }
    plot_quote(q, sizeof q, s->part);
    fprintf(s->script, "set terminal %s\nset output '%s'\n", term, q);
    fprintf(s->script, "set encoding utf8\nset grid\nset border lw 1.5\n");
    return 0;
}

FILE *plot_data(plot_session *s, const char *name, char *path, size_t n)
{
    snprintf(path, n, "%s/%s", s->dir, name);
    return fopen(path, "w");
}

/* gnuplot's first error line, for the one-line message. */
static void first_error(const char *errpath, char *msg, size_t n)
{
    FILE *f = fopen(errpath, "r");
    msg[0] = '\0';
    char line[512];
    while (f && fgets(line, sizeof line, f))
        if (strstr(line, "rror") || strstr(line, "arning") == NULL) {
            line[strcspn(line, "\n")] = '\0';
            if (line[0] && strspn(line, " ^") != strlen(line)) {
                snprintf(msg, n, "%s", line);
                if (strstr(line, "rror"))
                    break;
            }
        }
    if (f)
        fclose(f);
}

static int run_gnuplot(plot_session *s)
{
    char script[1100], errpath[1100], msg[512];
    snprintf(script, sizeof script, "%s/script.gp", s->dir);
    snprintf(errpath, sizeof errpath, "%s/gnuplot.err", s->dir);
    fflush(stdout);
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0)
        return fail("-o %s: cannot start gnuplot: %s", s->out, strerror(errno));
    if (pid == 0) {
        lifetime_child_start(parent);
        FILE *e = freopen(errpath, "w", stderr);
        (void)e;
        execlp("gnuplot", "gnuplot", script, (char *)NULL);
        _exit(127);
    }
    lifetime_watch(pid);
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    lifetime_unwatch(pid);
    if (WIFEXITED(st) && WEXITSTATUS(st) == 127)
        return fail("-o %s: gnuplot is not installed (make setup installs gnuplot-nox)", s->out);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        first_error(errpath, msg, sizeof msg);
        return fail("-o %s: gnuplot failed: %s", s->out, msg[0] ? msg : "no message");
    }
    return 0;
}

void plot_keep(plot_session *s, const char *name)
{
    const char *to = getenv("MCMSIM_PLOT_DATA");
    if (!to || !to[0])
        return;
    char path[1100], dest[1100];
    snprintf(path, sizeof path, "%s/%s", s->dir, name);
    if (strcmp(name, "blocks.dat") == 0)
        snprintf(dest, sizeof dest, "%s", to);
    else
        snprintf(dest, sizeof dest, "%s.%s", to, name);
    FILE *in = fopen(path, "r"), *out = in ? fopen(dest, "w") : NULL;
    int c;
    while (out && (c = getc(in)) != EOF)
        putc(c, out);
    if (out)
        fclose(out);
    if (in)
        fclose(in);
}

/* Append `text` to f with every `from` written `to`. */
static void put_replaced(FILE *f, const char *text, const char *from, const char *to)
{
    size_t len = strlen(from);
    for (const char *at; len && (at = strstr(text, from)); text = at + len) {
        fwrite(text, 1, (size_t)(at - text), f);
        fputs(to, f);
    }
    fputs(text, f);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* What the picture is drawn from, where $MCMSIM_PLOT_SOURCE names a file:
 * the script, its temporary folder written @DIR@, its output @OUT@ and
 * its terminal line @TERMINAL@, then every data file it reads (but empty
 * ones), in name order.  Nothing of it depends on gnuplot's version or on
 * the output's format: `make lessons` keeps one beside each lesson's
 * picture, and a test draws the lessons again and compares. */
static int write_source(plot_session *s)
{
    const char *to = getenv("MCMSIM_PLOT_SOURCE");
    if (!to || !to[0])
        return 0;
    char path[1100], q[1100];
    snprintf(path, sizeof path, "%s/script.gp", s->dir);
    long n_names = 0;
    char *names[256];
    DIR *d = opendir(s->dir);
    struct dirent *e;
    while (d && (e = readdir(d)) && n_names < 256)
        if (strcmp(e->d_name, "script.gp") && strcmp(e->d_name, "gnuplot.err") && e->d_name[0] != '.')
            names[n_names++] = strdup(e->d_name);
    if (d)
        closedir(d);
    qsort(names, (size_t)n_names, sizeof *names, by_name);
    FILE *out = fopen(to, "w"), *in = fopen(path, "r");
    char line[8192];
    plot_quote(q, sizeof q, s->part);
    while (out && in && fgets(line, sizeof line, in)) {
        if (strncmp(line, "set terminal ", 13) == 0) {
            fputs("@TERMINAL@\n", out);
            continue;
        }
        char *dir_done = NULL;
        size_t len = 0;
        FILE *m = open_memstream(&dir_done, &len);
        if (!m)
            break;
        put_replaced(m, line, s->dir, "@DIR@");
        fclose(m);
        put_replaced(out, dir_done, q, "@OUT@");
        free(dir_done);
    }
    for (long i = 0; out && i < n_names; i++) {
        snprintf(path, sizeof path, "%s/%s", s->dir, names[i]);
        FILE *data = fopen(path, "r");
        int c = data ? getc(data) : EOF;
        if (c != EOF)
            fprintf(out, "### %s\n", names[i]);
        for (; c != EOF; c = getc(data))
            putc(c, out);
        if (data)
            fclose(data);
    }
    for (long i = 0; i < n_names; i++)
        free(names[i]);
    int bad = !out || !in;
    if (in)
        fclose(in);
    if (out && fclose(out) != 0)
        bad = 1;
    return bad ? fail("MCMSIM_PLOT_SOURCE=%s: cannot write", to) : 0;
}

int plot_close(plot_session *s, int ok)
{
    int rc = ok ? 0 : -1;
    if (s->script) {
        fprintf(s->script, "unset output\n");
        if (fclose(s->script) != 0 && rc == 0)
            rc = fail("-o %s: cannot write the gnuplot script", s->out);
        s->script = NULL;
    }
    if (rc == 0)
        rc = write_source(s);
    if (rc == 0)
        rc = run_gnuplot(s);
    if (rc == 0 && rename(s->part, s->out) != 0)
        rc = fail("-o %s: cannot write: %s", s->out, strerror(errno));
    if (rc < 0)
        unlink(s->part);
    lifetime_forget(s->part);
    if (s->dir[0])
        remove_dir(s->dir);
    lifetime_forget(s->dir);
    return rc;
}

/* ---- axes and titles a room can read ------------------------------------ */

double plot_time_axis(FILE *o, char axis, double max, const char *what, const char *unit)
{
    int e = max >= 1e4 ? (int)floor(log10(max)) : 0;
    if (e > 0)
        fprintf(o, "set %clabel '%s (10^{%d} %s)'\n", axis, what, e, unit);
    else
        fprintf(o, "set %clabel '%s (%s)'\n", axis, what, unit);
    fprintf(o, "set format %c '%%g'\nset %crange [0:*]\n", axis, axis);
    return pow(10, e);
}

static int power_of_two(double v)
{
    int e;
    return v > 0 && frexp(v, &e) == 0.5;
}

int plot_value_axis(FILE *o, char axis, const double *values, long n)
{
    double lo = INFINITY, hi = 0;
    for (long i = 0; i < n; i++) {
        lo = fmin(lo, values[i]);
        hi = fmax(hi, values[i]);
    }
    int doubling = lo > 0, powers = 1; /* sizes that double from the least; powers of two */
    for (long i = 0; i < n; i++) {
        doubling &= power_of_two(values[i] / lo);
        powers &= power_of_two(values[i]);
    }
    if (doubling && hi >= 4 * lo) {
        fprintf(o, "set logscale %c 2\nset %ctics (", axis, axis);
        int every = log2(hi / lo) >= 12 ? 2 : 1; /* from 12 doublings on (13 tics), a label every other tic: none touch */
        for (int i = 0; lo * pow(2, i) <= hi; i++) {
            double v = lo * pow(2, i);
            if (i % every)
                fprintf(o, ", \"\" %.17g", v);
            else if (powers && hi >= 1024)
                fprintf(o, "%s\"2^{%d}\" %.17g", i ? ", " : "", (int)round(log2(v)), v);
            else
                fprintf(o, "%s\"%g\" %.17g", i ? ", " : "", v, v);
        }
        fprintf(o, ")\nset %crange [%.17g:%.17g]\n", axis, lo / 1.15, hi * 1.15);
        return 1;
    }
    if (n > 0 && hi == lo) { /* one value: its one tic in the middle, not a range of tics that read 1e+06 */
        double half = lo != 0 ? fabs(lo) / 2 : 1;
        if (power_of_two(lo) && lo >= 1024)
            fprintf(o, "set %ctics (\"2^{%d}\" %.17g)\n", axis, (int)round(log2(lo)), lo);
        else
            fprintf(o, "set %ctics (\"%g\" %.17g)\n", axis, lo, lo);
        fprintf(o, "set %crange [%.17g:%.17g]\n", axis, lo - half, lo + half);
        return 0;
    }
    const char *margin = axis == 'x' ? "set offsets graph 0.04, graph 0.04, 0, 0\n" : ""; /* no point on the frame */
    if (lo > 0 && hi / lo > 100) {
        fprintf(o, "set logscale %c 10\nset format %c '10^{%%T}'\n%s", axis, axis, margin);
        return 1;
    }
    /* the frame where the values end, not at the next tic: c from 0 to 1 is not drawn from -0.2 to 1.2 */
    fprintf(o, "set format %c '%%g'\nset autoscale %cfix\n%s", axis, axis, margin);
    return 0;
}

void plot_program_names(const run_point *pts, long n, char *out, size_t size)
{
    const char *seen[16];
    int k = 0;
    for (long i = 0; i < n && k < 16; i++) {
        int known = 0;
        for (int j = 0; j < k; j++)
            known |= strcmp(seen[j], pts[i].program) == 0;
        if (!known)
            seen[k++] = pts[i].program;
    }
    out[0] = '\0';
    for (int j = 0; j < k; j++) {
        size_t len = strlen(out);
        snprintf(out + len, size - len, "%s%s", j == 0 ? "" : j == k - 1 ? " and " : ", ", seen[j]);
    }
}

const char *plot_theorem1_name(const run_point *pts, long n)
{
    for (long i = 0; i < n; i++)
        if (!theorem1_is_bound(&pts[i].machine))
            return "pure-MCM reference (Thm 1)";
    return "Theorem 1 bound";
}

/* Dark enough for a projector (contrast on white from 3.4 to 12), none
 * of them yellow or black (black draws the legend's line styles); checked
 * for protan, deutan and tritan viewers (validate/notes/bench.md). */
static const char *const series_colour[] = {"#332288", "#d55e00", "#009e73", "#882255",
                                            "#7570b3", "#6f4e00", "#117733", "#5e3c99"};
/* gnuplot's filled circle, square, triangle, inverted triangle, diamond,
 * pentagon; each open twin is the type before it. */
static const int series_point[] = {7, 5, 9, 11, 13, 15};

const char *plot_series_colour(int k)
{
    return series_colour[k % 8];
}

int plot_series_point(int k)
{
    return series_point[k % 6];
}

int plot_series_ring(int k)
{
    return series_point[k % 6] - 1;
}

void plot_key_right(FILE *o, int chars)
{
    /* the key's font is 14 on a 16 canvas; a sample and its gap take about 8 */
    fprintf(o, "set key outside right top vertical Left reverse samplen 2.5 font ',14' spacing 1.1\n"
               "set rmargin %d\n", (int)ceil(chars * 0.9) + 8);
}

int plot_draw(plot_kind kind, const char *out, const char *trace_csv, const run_point *pts, long n,
              const char *const *swept, int n_swept, const char *subtitle, const char *along)
{
    plot_session s;
    if (plot_open(&s, out) < 0)
        return -1;
    int rc = kind == PLOT_GANTT   ? plot_gantt(&s, trace_csv, &pts[0])
             : kind == PLOT_WARPS ? plot_warps(&s, pts, n, swept, n_swept)
                                  : plot_sweep(&s, kind, pts, n, swept, n_swept, subtitle, along);
    return plot_close(&s, rc == 0);
}
