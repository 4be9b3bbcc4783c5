/*
 * test_plot.c — `mcmsim plot`: each kind writes a valid PNG or SVG of
 * non-trivial size; the Gantt's bars are the trace's blocks (count and
 * extents), merged into one busy interval per SM and kernel above 10^4
 * blocks; bad requests get one line, a non-zero exit, no output file and
 * no temporary files left; every kind on every lesson in
 * programs/lectures draws a PNG and an SVG or says why not; the lessons'
 * pictures are what `plot` draws now; `make validate`'s lines join a
 * series' points by size, and its plots label a tic beyond every point.  The
 * binary is found through $MCMSIM.
 */
#include "helpers.h"
#include "measured.h"
#include "validate.h"

#include <dirent.h>
#include <float.h>
#include <sys/stat.h>
#include <sys/wait.h>

static char tmpdir[256];

/* Run `mcmsim ARGS` with TMPDIR set to a fresh folder; stderr into err. */
static int mcmsim(const char *env, const char *args, char *err, size_t n)
{
    const char *bin = getenv("MCMSIM");
    cr_assert_not_null(bin, "set MCMSIM to the mcmsim binary (make test does)");
    snprintf(tmpdir, sizeof tmpdir, "/tmp/mcmsim-plot-test-%d", (int)getpid());
    mkdir(tmpdir, 0700);
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "cd %s && TMPDIR=%s %s %s %s >/dev/null 2>%s/err.txt", MCMSIM_DATADIR, tmpdir,
             env ? env : "", bin, args, tmpdir);
    int rc = system(cmd);
    char path[300];
    snprintf(path, sizeof path, "%s/err.txt", tmpdir);
    FILE *f = fopen(path, "r");
    size_t len = f ? fread(err, 1, n - 1, f) : 0;
    err[len] = '\0';
    if (f)
        fclose(f);
    unlink(path);
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : 128;
}

/* Entries left in the test's TMPDIR (the plot's temporary folder must be gone). */
static int leftovers(void)
{
    DIR *d = opendir(tmpdir);
    int n = 0;
    struct dirent *e;
    while (d && (e = readdir(d)))
        n += e->d_name[0] != '.';
    if (d)
        closedir(d);
    return n;
}

static long file_size(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

static void expect_png(const char *path)
{
    unsigned char sig[8] = {0};
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "%s not written", path);
    cr_expect_eq(fread(sig, 1, 8, f), 8u);
    fclose(f);
    static const unsigned char png[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    cr_expect(memcmp(sig, png, 8) == 0, "%s: not a PNG", path);
    cr_expect_gt(file_size(path), 20000, "%s: only %ld bytes", path, file_size(path));
}

static void expect_svg(const char *path)
{
    char head[4096] = "";
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f, "%s not written", path);
    size_t n = fread(head, 1, sizeof head - 1, f);
    head[n] = '\0';
    fclose(f);
    cr_expect(strstr(head, "<svg") != NULL, "%s: no <svg element", path);
    cr_expect_gt(file_size(path), 10000, "%s: only %ld bytes", path, file_size(path));
    char tail[64] = "";
    f = fopen(path, "r");
    fseek(f, -20, SEEK_END);
    n = fread(tail, 1, sizeof tail - 1, f);
    tail[n] = '\0';
    fclose(f);
    cr_expect(strstr(tail, "</svg>") != NULL, "%s: does not end with </svg>", path);
}

static void out_path(char *buf, size_t n, const char *name)
{
    snprintf(buf, n, "/tmp/mcmsim-plot-out-%d-%s", (int)getpid(), name);
    unlink(buf);
}

static void draw(const char *args, const char *out)
{
    char err[2048], cmd[1024];
    snprintf(cmd, sizeof cmd, "plot %s -o %s", args, out);
    int rc = mcmsim(NULL, cmd, err, sizeof err);
    cr_expect_eq(rc, 0, "mcmsim %s: exit %d: %s", cmd, rc, err);
    cr_expect_eq(leftovers(), 0, "mcmsim %s left temporary files in TMPDIR", cmd);
    rmdir(tmpdir);
}

Test(plot, gantt_png_and_svg)
{
    char png[256], svg[256];
    out_path(png, sizeof png, "g.png");
    out_path(svg, sizeof svg, "g.svg");
    draw("programs/demo.cfg --set p=4 --set n=65536", png);
    draw("programs/demo.cfg --set p=4 --set n=65536", svg);
    expect_png(png);
    expect_svg(svg);
    unlink(png);
    unlink(svg);
}

/* Rows "sm start end" of a data file or "kernel,block,sm,start,end" of a
 * trace: count, and per SM the first start and last end. */
typedef struct extents {
    long rows;
    double lo[64], hi[64];
} extents;

static void extents_init(extents *e)
{
    e->rows = 0;
    for (int i = 0; i < 64; i++)
        e->lo[i] = DBL_MAX, e->hi[i] = -1;
}

static void extents_add(extents *e, int sm, double start, double end)
{
    cr_assert(sm >= 0 && sm < 64);
    e->rows++;
    if (start < e->lo[sm])
        e->lo[sm] = start;
    if (end > e->hi[sm])
        e->hi[sm] = end;
}

static void read_bars(const char *path, extents *e)
{
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f, "%s not written", path);
    char line[256];
    int sm;
    double a, b;
    extents_init(e);
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "%d %lf %lf", &sm, &a, &b) == 3)
            extents_add(e, sm, a, b);
    fclose(f);
}

static void read_trace(const char *path, extents *e)
{
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f, "%s not written", path);
    char line[256];
    int sm;
    long block;
    double a, b;
    extents_init(e);
    while (fgets(line, sizeof line, f)) {
        char *c = strchr(line, ',');
        if (c && sscanf(c + 1, "%ld,%d,%lf,%lf", &block, &sm, &a, &b) == 4)
            extents_add(e, sm, a, b);
    }
    fclose(f);
}

static void bars_against_trace(const char *params, int merged)
{
    char bars[256], trace[256], png[256], err[2048], cmd[1024], env[300];
    out_path(bars, sizeof bars, "bars.dat");
    out_path(trace, sizeof trace, "trace.csv");
    out_path(png, sizeof png, "bars.png");
    snprintf(cmd, sizeof cmd, "run programs/demo.cfg %s --trace %s", params, trace);
    cr_assert_eq(mcmsim(NULL, cmd, err, sizeof err), 0, "%s", err);
    snprintf(env, sizeof env, "MCMSIM_PLOT_DATA=%s", bars);
    snprintf(cmd, sizeof cmd, "plot programs/demo.cfg %s -o %s", params, png);
    cr_assert_eq(mcmsim(env, cmd, err, sizeof err), 0, "%s", err);
    rmdir(tmpdir);
    extents b, t;
    read_bars(bars, &b);
    read_trace(trace, &t);
    cr_assert_gt(t.rows, 0);
    if (merged) {
        cr_expect_gt(t.rows, 10000, "the merged case needs more than 10^4 blocks");
        cr_expect_lt(b.rows, t.rows / 10, "%ld bars for %ld blocks: not merged", b.rows, t.rows);
    } else {
        cr_expect_eq(b.rows, t.rows, "%ld bars for %ld blocks in the trace", b.rows, t.rows);
    }
    for (int sm = 0; sm < 64; sm++) {
        cr_expect_eq(b.lo[sm], t.lo[sm], "SM %d: first bar at %g, trace at %g", sm, b.lo[sm], t.lo[sm]);
        cr_expect_eq(b.hi[sm], t.hi[sm], "SM %d: last bar ends at %g, trace at %g", sm, b.hi[sm], t.hi[sm]);
    }
    unlink(bars);
    unlink(trace);
    unlink(png);
}

Test(plot, gantt_bars_are_the_trace_blocks)
{
    bars_against_trace("--set p=4 --set n=65536", 0);
}

/* Under `exclusive` each block's read and write phases are shaded: two
 * intervals per block (each reads and writes), none under `parallel`. */
Test(plot, gantt_shades_transfers_under_exclusive)
{
    char bars[256], trace[256], png[256], err[2048], cmd[1024], env[300], transfers[300];
    out_path(bars, sizeof bars, "bars.dat");
    out_path(trace, sizeof trace, "trace.csv");
    out_path(png, sizeof png, "bars.png");
    snprintf(transfers, sizeof transfers, "%s.transfers.dat", bars);
    const char *params = "--set p=4 --set n=65536 --set policy=exclusive";
    snprintf(cmd, sizeof cmd, "run programs/demo.cfg %s --trace %s", params, trace);
    cr_assert_eq(mcmsim(NULL, cmd, err, sizeof err), 0, "%s", err);
    snprintf(env, sizeof env, "MCMSIM_PLOT_DATA=%s", bars);
    snprintf(cmd, sizeof cmd, "plot programs/demo.cfg %s -o %s", params, png);
    cr_assert_eq(mcmsim(env, cmd, err, sizeof err), 0, "%s", err);
    extents b, t;
    read_bars(transfers, &b);
    read_trace(trace, &t);
    cr_expect_eq(b.rows, 2 * t.rows, "%ld transfer phases for %ld blocks", b.rows, t.rows);
    for (int sm = 0; sm < 4; sm++) { /* a block reads first and writes last */
        cr_expect_eq(b.lo[sm], t.lo[sm], "SM %d: first read at %g, first block at %g", sm, b.lo[sm], t.lo[sm]);
        cr_expect_eq(b.hi[sm], t.hi[sm], "SM %d: last write ends at %g, last block at %g", sm, b.hi[sm], t.hi[sm]);
    }
    unlink(transfers);
    snprintf(cmd, sizeof cmd, "plot programs/demo.cfg --set p=4 --set n=65536 -o %s", png);
    cr_assert_eq(mcmsim(env, cmd, err, sizeof err), 0, "%s", err);
    cr_expect_neq(access(transfers, F_OK), 0, "transfers shaded under parallel");
    rmdir(tmpdir);
    unlink(bars);
    unlink(trace);
    unlink(png);
}

Test(plot, gantt_merges_above_ten_thousand_blocks)
{
    bars_against_trace("--set p=8 --set n=4194304", 1);
}

static void expect_refused(const char *args, const char *out, const char *needle)
{
    char err[2048], cmd[1024];
    snprintf(cmd, sizeof cmd, "plot %s -o %s", args, out);
    int rc = mcmsim(NULL, cmd, err, sizeof err);
    cr_expect_neq(rc, 0, "mcmsim %s: exit 0", cmd);
    size_t len = strlen(err);
    cr_expect(len > 0 && strchr(err, '\n') == err + len - 1, "mcmsim %s: not one line:\n%s", cmd, err);
    cr_expect(strstr(err, needle) != NULL, "mcmsim %s: '%s' not in: %s", cmd, needle, err);
    cr_expect_eq(file_size(out), -1, "mcmsim %s left %s", cmd, out);
    char part[300];
    snprintf(part, sizeof part, "%s.part", out);
    cr_expect_eq(file_size(part), -1, "mcmsim %s left %s", cmd, part);
    cr_expect_eq(leftovers(), 0, "mcmsim %s left temporary files", cmd);
    rmdir(tmpdir);
}

Test(plot, errors)
{
    char png[256], pdf[256];
    out_path(png, sizeof png, "bad.png");
    out_path(pdf, sizeof pdf, "bad.pdf");
    expect_refused("programs/demo.cfg --kind pie", png, "unknown kind");
    expect_refused("programs/demo.cfg --set p=8", pdf, "cannot write");
    expect_refused("programs/demo.cfg --set p=8 --kind sweep", png, "does not sweep");
    expect_refused("programs/demo.cfg --set p=8 --kind speedup", png, "p");
    expect_refused("programs/demo.cfg", "/nonexistent-dir/x.png", "x.png");
}

/* The lessons' run files (the .cfg files of programs/lectures), sorted;
 * returns how many. */
static int lessons(char names[][128], int max)
{
    char dir[512];
    snprintf(dir, sizeof dir, "%s/programs/lectures", MCMSIM_DATADIR);
    DIR *d = opendir(dir);
    cr_assert_not_null(d, "no %s", dir);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < max) {
        size_t len = strlen(e->d_name);
        if (len > 4 && len < 128 && strcmp(e->d_name + len - 4, ".cfg") == 0)
            snprintf(names[n++], 128, "%s", e->d_name);
    }
    closedir(d);
    qsort(names, (size_t)n, sizeof names[0], (int (*)(const void *, const void *))strcmp);
    return n;
}

/* Kind `kind` on every lesson (each runs, a teacher's one command): a PNG
 * and an SVG, both drawn by gnuplot, where the kind applies; elsewhere one
 * line naming why, a non-zero exit and no file.  Returns how many lessons
 * it draws. */
static int every_lesson(const char *kind)
{
    char names[32][128], args[400], png[256], svg[256], err[4096], cmd[1024];
    int n = lessons(names, 32), drawn = 0;
    cr_expect_geq(n, 7, "only %d lessons in programs/lectures", n);
    out_path(png, sizeof png, "kind.png");
    out_path(svg, sizeof svg, "kind.svg");
    for (int i = 0; i < n; i++) {
        snprintf(args, sizeof args, "programs/lectures/%.127s --kind %.16s", names[i], kind);
        snprintf(cmd, sizeof cmd, "plot %s -o %s", args, png);
        if (mcmsim(NULL, cmd, err, sizeof err) != 0) {
            rmdir(tmpdir);
            expect_refused(args, svg, "--kind"); /* the same refusal, for the SVG */
            continue;
        }
        rmdir(tmpdir);
        drawn++;
        expect_png(png);
        draw(args, svg);
        expect_svg(svg);
        unlink(png);
        unlink(svg);
    }
    return drawn;
}

/* Each kind draws the lessons it applies to: the Gantt the one-point
 * lesson, the sweep every sweep, costs every MCM lesson, speedup the one
 * over p, warps the DMM/UMM lesson. */
Test(plot, gantt_on_every_lesson, .timeout = 120) { cr_expect_eq(every_lesson("gantt"), 1); }
Test(plot, sweep_on_every_lesson, .timeout = 120) { cr_expect_eq(every_lesson("sweep"), 6); }
Test(plot, costs_on_every_lesson, .timeout = 120) { cr_expect_eq(every_lesson("costs"), 6); }
Test(plot, speedup_on_every_lesson, .timeout = 120) { cr_expect_eq(every_lesson("speedup"), 1); }
Test(plot, warps_on_every_lesson, .timeout = 120) { cr_expect_eq(every_lesson("warps"), 1); }

/* The lessons' pictures in programs/lectures/img are what `plot` draws
 * now.  A PNG's bytes depend on gnuplot's and cairo's versions and on the
 * fonts installed, so the test compares what each picture is drawn from:
 * the gnuplot script and its data, which `make lessons` keeps beside the
 * picture (NAME.source, $MCMSIM_PLOT_SOURCE) and which are mcmsim's output
 * alone, free of temporary paths and of the output's format.  The picture
 * is drawn again (as an SVG, the faster) and its source compared byte for
 * byte: a change to a lesson, a program or a plot that moves a picture
 * fails here until `make lessons` draws it again. */
Test(plot, lesson_pictures_are_what_plot_draws_now, .timeout = 120)
{
    char list[512], line[512], lesson[128], kind[32], name[64];
    snprintf(list, sizeof list, "%s/programs/lectures/img/pictures.list", MCMSIM_DATADIR);
    FILE *f = fopen(list, "r");
    cr_assert_not_null(f, "no %s", list);
    int pictures = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || sscanf(line, "%127s %31s %63s", lesson, kind, name) != 3)
            continue;
        pictures++;
        char svg[256], source[256], env[300], cmd[1024], err[4096], committed[600], png[600];
        out_path(svg, sizeof svg, "lesson.svg");
        out_path(source, sizeof source, "lesson.source");
        snprintf(env, sizeof env, "MCMSIM_PLOT_SOURCE=%s", source);
        snprintf(cmd, sizeof cmd, "plot programs/lectures/%s --kind %s -o %s", lesson, kind, svg);
        cr_assert_eq(mcmsim(env, cmd, err, sizeof err), 0, "mcmsim %s: %s", cmd, err);
        rmdir(tmpdir);
        expect_svg(svg);
        snprintf(committed, sizeof committed, "%s/programs/lectures/img/%s.source", MCMSIM_DATADIR, name);
        snprintf(png, sizeof png, "%s/programs/lectures/img/%s.png", MCMSIM_DATADIR, name);
        long now_len, then_len;
        char *now = read_file(source, &now_len), *then = read_file(committed, &then_len);
        cr_assert_not_null(now, "%s: no source written", cmd);
        cr_expect(then && now_len == then_len && memcmp(now, then, (size_t)now_len) == 0,
                  "programs/lectures/img/%s.png is not what `mcmsim plot programs/lectures/%s --kind %s` draws "
                  "now (its source differs): run `make lessons`", name, lesson, kind);
        expect_png(png);
        free(now);
        free(then);
        unlink(svg);
        unlink(source);
    }
    fclose(f);
    cr_expect_geq(pictures, 7, "only %d pictures in %s", pictures, list);
}

/* A measured row of `program` at n, m and s, as make validate reads one. */
static measured_row validation_row(const char *program, double n, double m, double s)
{
    measured_row r;
    memset(&r, 0, sizeof r);
    snprintf(r.program, sizeof r.program, "%s", program);
    vars_clear(&r.values);
    vars_set(&r.values, "n", n);
    vars_set(&r.values, "m", m);
    vars_set(&r.values, "s", s);
    return r;
}

/* The line of row 0's series along `along` joins the rows in order `want`. */
static void expect_line(const validation *v, const char *along, const int *want, int count)
{
    char series[128];
    measured_series_along(v->pts[0].row, along, series, sizeof series);
    int idx[8];
    int k = validation_series_points(v, v->pts[0].row->program, along, series, idx, 8);
    cr_assert_eq(k, count, "series %s: %d points on its line, not %d", series, k, count);
    for (int i = 0; i < count; i++)
        cr_expect_eq(idx[i], want[i], "point %d of the line: row %d, not %d", i, idx[i], want[i]);
}

/* make validate's plots: a series' line joins its points by size, whatever
 * the order of the measured file (plain multiplication's s = 4 series was
 * measured from 1024 up, then 256, 512 and 65536); another series (s = 8)
 * is not on it. */
Test(plot, validation_lines_join_a_series_by_size)
{
    double n[4] = {1024, 256, 65536, 512};
    measured_row rows[5];
    vpoint pts[5];
    memset(pts, 0, sizeof pts);
    for (int i = 0; i < 5; i++) {
        rows[i] = i < 4 ? validation_row("plain-mult", n[i], n[i], 4) : validation_row("plain-mult", 1024, 1024, 8);
        pts[i].row = &rows[i];
    }
    validation v = {.pts = pts, .n = 5};
    int want[4] = {1, 3, 0, 2}; /* 256, 512, 1024, 65536 */
    expect_line(&v, "n", want, 4);
}

/* A case whose n never varies is drawn along what does (plain division
 * along m): each s one line, not one point per m. */
Test(plot, validation_lines_follow_the_param_that_varies)
{
    double m[4] = {6000, 2500, 4000, 3000};
    measured_row rows[4];
    vpoint pts[4];
    memset(pts, 0, sizeof pts);
    for (int i = 0; i < 4; i++) {
        rows[i] = validation_row("plain-division", 2000, m[i], 1);
        pts[i].row = &rows[i];
    }
    validation v = {.pts = pts, .n = 4};
    const char *along = measured_size_key(&rows[0], rows, 4);
    cr_assert_str_eq(along, "m");
    int want[4] = {1, 3, 2, 0}; /* m = 2500, 3000, 4000, 6000 */
    expect_line(&v, along, want, 4);
}

/* make validate's plots, drawn by gnuplot: a case whose times span under
 * three decades gets a labelled time tic below its least time and one
 * above its greatest (0.06 … 0.27 ms: 0.05 and 0.3), and the greatest
 * size is labelled even when the one before it is close (Euclid's n =
 * 1 000 … 10 000: 10000 labelled, 9000 left a bare tic). */
Test(plot, validation_plots_label_a_tic_beyond_every_point, .timeout = 60)
{
    enum { N = 10 };
    measured_row rows[N];
    vpoint pts[N];
    memset(pts, 0, sizeof pts);
    for (int i = 0; i < N; i++) {
        rows[i] = validation_row("euclid", 1000.0 * (i + 1), 1000, 1);
        snprintf(rows[i].file, sizeof rows[i].file, "validate/data/t/2026-11-25z/euclid.csv");
        rows[i].new_protocol = 1;
        rows[i].graph.median = 0.06 + 0.21 * i / (N - 1);
        pts[i].row = &rows[i];
        pts[i].sim_ms = 0.9 * rows[i].graph.median;
    }
    session s = {.card = "t", .rows = rows, .n = N};
    validation v = {.name = "z", .s = &s, .pts = pts, .n = N};
    snprintf(v.report_dir, sizeof v.report_dir, "/tmp/mcmsim-validation-plot-%d", (int)getpid());
    cr_assert_eq(mkdir(v.report_dir, 0700), 0);
    cr_assert_eq(write_plots(&v), 0, "%s", fail_message());
    char svg[1100], png[1100];
    snprintf(svg, sizeof svg, "%s/euclid.svg", v.report_dir);
    snprintf(png, sizeof png, "%s/euclid.png", v.report_dir);
    long len;
    char *text = read_file(svg, &len);
    cr_assert_not_null(text);
    const char *want[] = {">0.05<", ">0.3<", ">10000<", ">1000<"};
    for (int i = 0; i < 4; i++)
        cr_expect(strstr(text, want[i]) != NULL, "no tic labelled %s in %s", want[i], svg);
    cr_expect(strstr(text, ">9000<") == NULL, "9000 labelled, too close to 10000");
    cr_expect(strstr(text, ">0.02<") == NULL && strstr(text, ">0.5<") == NULL, "tics beyond the axis drawn");
    free(text);
    expect_png(png);
    unlink(svg);
    unlink(png);
    rmdir(v.report_dir);
}
