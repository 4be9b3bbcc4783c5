/*
 * test_plot.c — `mcmsim plot`: each kind writes a valid PNG or SVG of
 * non-trivial size; the Gantt's bars are the trace's blocks (count and
 * extents), merged into one busy interval per SM and kernel above 10^4
 * blocks; bad requests get one line, a non-zero exit, no output file and
 * no temporary files left; every kind on every lesson in
 * programs/lectures draws a PNG and an SVG or says why not; the lessons'
 * pictures are what `plot` draws now; `make validate`'s lines join a
 * series' points by size, and its plots label a tic beyond every point;
 * series stand out on white and apart for colour-blind viewers, each line
 * its colour and marker; an x of one value has its one tic, sizes from 12
 * doublings a label every other tic; the speedup picture writes its last
 * speedup and a span law above the frame; a lone l is written ℓ.  The binary is found through $MCMSIM.
 */
#include "helpers.h"
#include "measured.h"
#include "plot.h"
#include "validate.h"

#include <dirent.h>
#include <float.h>
#include <math.h>
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

/* ---- series a room can tell apart ------------------------------------------------ */

/* The linear RGB of "#rrggbb" (sRGB decoded, as WCAG does). */
static void linear_rgb(const char *hex, double rgb[3])
{
    unsigned v = (unsigned)strtoul(hex + 1, NULL, 16);
    for (int i = 0; i < 3; i++) {
        double c = ((v >> (16 - 8 * i)) & 0xff) / 255.0;
        rgb[i] = c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4);
    }
}

/* WCAG's relative luminance of a linear RGB. */
static double luminance(const double rgb[3])
{
    return 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2];
}

/* CIELAB of a linear RGB (D65), for the distance between two colours. */
static void lab(const double rgb[3], double out[3])
{
    double c[3];
    for (int i = 0; i < 3; i++)
        c[i] = fmin(fmax(rgb[i], 0), 1);
    double xyz[3] = {(0.4124 * c[0] + 0.3576 * c[1] + 0.1805 * c[2]) / 0.9505, luminance(c),
                     (0.0193 * c[0] + 0.1192 * c[1] + 0.9505 * c[2]) / 1.089};
    double f[3];
    for (int i = 0; i < 3; i++)
        f[i] = xyz[i] > 0.008856 ? cbrt(xyz[i]) : 7.787 * xyz[i] + 16.0 / 116;
    out[0] = 116 * f[1] - 16, out[1] = 500 * (f[0] - f[1]), out[2] = 200 * (f[1] - f[2]);
}

/* Machado, Oliveira and Fernandes (2009), severity 1: what protan, deutan
 * and tritan viewers see of a linear RGB; vision 3 is the common one. */
static void seen(int vision, const double rgb[3], double out[3])
{
    static const double m[3][3][3] = {
        {{0.152286, 1.052583, -0.204868}, {0.114503, 0.786281, 0.099216}, {-0.003882, -0.048116, 1.051998}},
        {{0.367322, 0.860646, -0.227968}, {0.280085, 0.672501, 0.047413}, {-0.011820, 0.042940, 0.968881}},
        {{1.255528, -0.076749, -0.178779}, {-0.078411, 0.930809, 0.147602}, {0.004733, 0.691367, 0.303900}}};
    for (int i = 0; i < 3; i++)
        out[i] = vision == 3 ? rgb[i] : m[vision][i][0] * rgb[0] + m[vision][i][1] * rgb[1] + m[vision][i][2] * rgb[2];
}

/* The colours every series is drawn in: at least 3:1 against the white
 * page (WCAG's least for lines and markers), and the first five at least
 * 15 CIELAB units apart for common, protan, deutan and tritan vision
 * (yellow on white, 1.3:1, was the s = 16 line of plain multiplication). */
Test(plot, series_colours_stand_out_on_white_and_apart_for_colour_blind_viewers)
{
    for (int k = 0; k < 8; k++) {
        double rgb[3];
        linear_rgb(plot_series_colour(k), rgb);
        cr_expect_geq(1.05 / (luminance(rgb) + 0.05), 3.0, "series %d (%s): under 3:1 on white", k,
                      plot_series_colour(k));
    }
    for (int vision = 0; vision < 4; vision++)
        for (int a = 0; a < 5; a++)
            for (int b = a + 1; b < 5; b++) {
                double ra[3], rb[3], sa[3], sb[3], la[3], lb[3];
                linear_rgb(plot_series_colour(a), ra);
                linear_rgb(plot_series_colour(b), rb);
                seen(vision, ra, sa);
                seen(vision, rb, sb);
                lab(sa, la);
                lab(sb, lb);
                double d = sqrt(pow(la[0] - lb[0], 2) + pow(la[1] - lb[1], 2) + pow(la[2] - lb[2], 2));
                cr_expect_geq(d, 15, "series %d and %d (%s, %s): %.1f apart for vision %d", a, b,
                              plot_series_colour(a), plot_series_colour(b), d, vision);
            }
}

/* The source (script and data) of `mcmsim plot ARGS`, drawn as an SVG;
 * the caller frees it. */
static char *plot_source(const char *args)
{
    char svg[256], source[256], env[300], err[4096], cmd[1024];
    out_path(svg, sizeof svg, "drawn.svg");
    out_path(source, sizeof source, "drawn.source");
    snprintf(env, sizeof env, "MCMSIM_PLOT_SOURCE=%s", source);
    snprintf(cmd, sizeof cmd, "plot %s -o %s", args, svg);
    cr_assert_eq(mcmsim(env, cmd, err, sizeof err), 0, "mcmsim %s: %s", cmd, err);
    rmdir(tmpdir);
    long len;
    char *text = read_file(source, &len);
    cr_assert_not_null(text, "%s: no source written", cmd);
    unlink(source);
    unlink(svg);
    return text;
}

/* A sweep's lines differ in colour and in marker, so that they stay apart
 * in grey: plain multiplication's five s, each its own pair (and each
 * line's Theorem 1 rings the open twin of its marker). */
Test(plot, sweep_lines_differ_in_colour_and_marker, .timeout = 60)
{
    char *text = plot_source("programs/plain-mult/plain-mult.cfg");
    int pt[8], ring[8], lines = 0;
    char colour[8][8];
    for (const char *at = text; (at = strstr(at, "with linespoints lw 3 pt ")) && lines < 8; at++) {
        if (sscanf(at, "with linespoints lw 3 pt %d ps 1.5 lc rgb '%7[#0-9a-f]'", &pt[lines], colour[lines]) != 2)
            continue;
        const char *r = strstr(at, "dt 2 pt ");
        ring[lines] = r ? atoi(r + 8) : -1;
        if (colour[lines][0] == '#') /* not the legend's style samples, in black */
            lines++;
    }
    cr_expect_eq(lines, 5, "%d coloured lines, not the five s", lines);
    for (int a = 0; a < lines; a++) {
        cr_expect_eq(ring[a], pt[a] - 1, "line %d: rings pt %d, not the open twin of pt %d", a, ring[a], pt[a]);
        for (int b = a + 1; b < lines; b++) {
            cr_expect_str_neq(colour[a], colour[b], "lines %d and %d share colour %s", a, b, colour[a]);
            cr_expect_neq(pt[a], pt[b], "lines %d and %d share marker %d", a, b, pt[a]);
        }
    }
    free(text);
}

/* A sweep whose x takes one value (radix sort's n = 2^20) gets that one
 * tic, not gnuplot's 1.035e+06 ... 1.06e+06; a linear x ends where the
 * values do (coalescing's c from 0 to 1, not -0.2 to 1.2). */
Test(plot, an_x_of_one_value_has_its_one_tic_and_a_linear_x_ends_at_the_values, .timeout = 60)
{
    const char *args[2] = {"programs/radix-sort/radix-sort.cfg", "programs/lectures/2-coalescing.cfg"};
    const char *want[2] = {"set xtics (\"2^{20}\" 1048576)\nset xrange [524288:1572864]\n",
                           "set autoscale xfix\nset offsets graph 0.04, graph 0.04, 0, 0\n"};
    for (int i = 0; i < 2; i++) {
        char *text = plot_source(args[i]);
        cr_expect(strstr(text, want[i]) != NULL, "%s: the script lacks %s", args[i], want[i]);
        free(text);
    }
}

/* The tics plot_value_axis writes for sizes 1, 2, 4, ... 2^doublings; the
 * caller frees them. */
static char *doubling_tics(int doublings)
{
    double v[32];
    for (int i = 0; i <= doublings; i++)
        v[i] = ldexp(1, i);
    char *text = NULL;
    size_t len = 0;
    FILE *o = open_memstream(&text, &len);
    cr_assert_not_null(o);
    cr_expect_eq(plot_value_axis(o, 'x', v, doublings + 1), 1, "a log axis");
    fclose(o);
    return text;
}

/* Sizes of 12 doublings or more label every other tic (2^{14} beside
 * 2^{13} ran into each other), the tics between kept, unlabelled; under
 * 12, each. */
Test(plot, from_twelve_doublings_every_other_tic_is_labelled)
{
    char *many = doubling_tics(14), *fewer = doubling_tics(11), *twelve = doubling_tics(12);
    cr_expect_not_null(strstr(twelve, "\"2^{0}\" 1, \"\" 2, \"2^{2}\" 4,"), "%s", twelve);
    cr_expect_not_null(strstr(twelve, ", \"\" 2048, \"2^{12}\" 4096)"), "%s", twelve);
    free(twelve);
    cr_expect_not_null(strstr(many, "\"2^{0}\" 1, \"\" 2, \"2^{2}\" 4, \"\" 8,"), "%s", many);
    cr_expect_not_null(strstr(many, ", \"\" 8192, \"2^{14}\" 16384)"), "%s", many);
    cr_expect_not_null(strstr(fewer, "\"2^{0}\" 1, \"2^{1}\" 2, \"2^{2}\" 4,"), "%s", fewer);
    cr_expect_null(strstr(fewer, "\"\" "), "no tic unlabelled: %s", fewer);
    free(many);
    free(fewer);
}

/* The speedup picture writes the largest P's speedup in figures (on a log
 * axis 115 and 128 look alike), and names the span law where it is above
 * the frame: both as its data say. */
Test(plot, the_speedup_picture_writes_the_largest_ps_speedup_and_names_a_span_law_above_it, .timeout = 60)
{
    char *text = plot_source("programs/lectures/7-speedup.cfg --kind speedup");
    const char *data = strstr(text, "### speedup.dat\n");
    cr_assert_not_null(data);
    double p = 0, speedup = 0, law = 0, row[3];
    for (const char *line = strchr(data, '\n') + 1; sscanf(line, "%lf %lf %lf", &row[0], &row[1], &row[2]) == 3;
         line = strchr(line, '\n') + 1)
        if (row[0] > p) {
            p = row[0];
            speedup = row[1];
            law = row[2];
        }
    char want[128];
    snprintf(want, sizeof want, "\"on P = %g: speedup %.3g, work law %g\"", p, speedup, p);
    cr_expect_not_null(strstr(text, want), "the script lacks %s", want);
    cr_assert_gt(law, 2 * p, "the lesson's span law is above the frame (2·P)");
    snprintf(want, sizeof want, "\"span law: T(1)/S = %.0f, above the frame\"", law);
    cr_expect_not_null(strstr(text, want), "the script lacks %s", want);
    free(text);
}

/* Projected, a lone l reads as 1: the latency is written ℓ where it stands
 * alone, and words and names keep their l. */
Test(plot, a_lone_l_is_written_ell)
{
    const char *in[] = {"l = 256", "s = 4 (l = 256)", "2 + 1 + (l - 1)", "Theta(l)", "n=2000 l=2 s=1",
                        "plain-mult", "l2 l_x label", "l"};
    const char *out[] = {"ℓ = 256", "s = 4 (ℓ = 256)", "2 + 1 + (ℓ - 1)", "Theta(ℓ)", "n=2000 ℓ=2 s=1",
                         "plain-mult", "l2 l_x label", "ℓ"};
    for (int i = 0; i < 8; i++) {
        char got[64];
        plot_ell(got, sizeof got, in[i]);
        cr_expect_str_eq(got, out[i], "%s: written %s, not %s", in[i], got, out[i]);
    }
    char small[3];
    plot_ell(small, sizeof small, "l x"); /* no room for ℓ and its end: cut before it, never half of it */
    cr_expect_str_eq(small, "");
}

/* Costs over 12 bars (plain multiplication: five s by six n, 30 bars) label
 * each group's tallest bar alone, and write the 30 tics smaller: a label
 * each ran into its neighbours.  Lesson 3's eight bars keep one each. */
Test(plot, costs_of_many_bars_label_each_groups_tallest, .timeout = 60)
{
    const char *args[2] = {"programs/plain-mult/plain-mult.cfg --kind costs",
                           "programs/lectures/3-euclid-s.cfg --kind costs"};
    int want[2] = {5, 8};
    for (int i = 0; i < 2; i++) {
        char *text = plot_source(args[i]);
        int labels = 0;
        for (const char *at = text; (at = strstr(at, "set label \"T ")); at++)
            labels++;
        cr_expect_eq(labels, want[i], "%s: %d bar labels, not %d", args[i], labels, want[i]);
        cr_expect_eq(strstr(text, ") font ',11'\n") != NULL, i == 0, "%s: tics' font", args[i]);
        free(text);
    }
}
