/*
 * progress.c — the progress line and the long-run warning (progress.h).
 *
 * Invariant: `drawn` is 1 exactly while a line without its newline is on
 * the terminal; progress_end and every message of ours after it start by
 * clearing it.
 */
#include "progress.h"

#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Blocks per second the engine simulates block by block on the 2-core
 * development machine, at its slowest (`make bench`: every block ending at
 * an instant of its own, 12–15 M/s under parallel; 4.5–5 M/s under shared,
 * 2.8–3 M/s under exclusive, whose transfers each end at an instant of
 * their own; with resident blocks, 3.3 M/s (16 per SM, bench) and 2.3 M/s
 * (plain multiplication on the h100 preset)). */
#define RATE_PARALLEL 10e6
#define RATE_SHARED 4e6
#define RATE_EXCLUSIVE 2.5e6
#define RATE_RESIDENT 2e6

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* "0.4 s", "42 s", "3 min 20 s", "2.5 h", "4.1 days" */
static void say_duration(char *out, size_t n, double s)
{
    if (s < 9.95)
        snprintf(out, n, "%.1f s", s);
    else if (s < 90)
        snprintf(out, n, "%.0f s", s);
    else if (s < 3600)
        snprintf(out, n, "%.0f min %.0f s", (double)(long)(s / 60), s - 60 * (double)(long)(s / 60));
    else if (s < 2 * 86400)
        snprintf(out, n, "%.1f h", s / 3600);
    else
        snprintf(out, n, "%.1f days", s / 86400);
}

void progress_begin(progress *p, int on, long points)
{
    p->on = on;
    p->tty = isatty(STDERR_FILENO);
    p->points = points;
    p->start = now();
    p->point_start = p->start;
    p->point = -1;
    p->shown = 0;
    p->drawn = 0;
}

/* Draw `line`: redrawn in place on a terminal, else one line now and then. */
static void show(progress *p, const char *line)
{
    double t = now();
    if (t - p->shown < (p->tty ? 0.5 : 5.0))
        return;
    p->shown = t;
    if (p->tty) {
        fprintf(stderr, "\r\033[K%s", line);
        p->drawn = 1;
    } else {
        fprintf(stderr, "%s\n", line);
    }
    fflush(stderr);
}

void progress_blocks(progress *p, long point, double done, double total)
{
    if (!p->on)
        return;
    if (point != p->point) { /* the rate is measured from here */
        p->point = point;
        p->point_start = now();
        p->point_done = done;
    }
    char line[256], left[64] = "";
    double elapsed = now() - p->point_start, rate = (done - p->point_done) / elapsed;
    if (elapsed > 0.2 && rate > 0 && done < total)
        say_duration(left, sizeof left, (total - done) / rate);
    int n = 0;
    if (p->points > 1)
        n = snprintf(line, sizeof line, "mcmsim: sweep point %ld of %ld: ", point + 1, p->points);
    snprintf(line + n, sizeof line - (size_t)n, "%s%.3g of %.3g blocks (%.0f %%)%s%s", p->points > 1 ? "" : "mcmsim: ",
             done, total, total > 0 ? 100 * done / total : 0, left[0] ? ", about " : "", left[0] ? left : "");
    if (left[0])
        snprintf(line + strlen(line), sizeof line - strlen(line), " left");
    show(p, line);
}

void progress_points(progress *p, long done)
{
    if (!p->on || p->points < 2)
        return;
    char line[256], left[64];
    double elapsed = now() - p->start;
    say_duration(left, sizeof left, done > 0 ? elapsed * (double)(p->points - done) / (double)done : 0);
    snprintf(line, sizeof line, "mcmsim: %ld of %ld sweep points done, about %s left", done, p->points, left);
    show(p, line);
}

/* Clear the line on the terminal, if one is drawn. */
static void clear(progress *p)
{
    if (p->drawn) {
        fprintf(stderr, "\r\033[K");
        fflush(stderr);
    }
    p->drawn = 0;
}

void progress_end(progress *p, int whole)
{
    clear(p);
    if (!p->on || p->tty || !whole)
        return;
    char took[64];
    say_duration(took, sizeof took, now() - p->start);
    if (p->points > 1)
        fprintf(stderr, "mcmsim: %ld of %ld sweep points done in %s\n", p->points, p->points, took);
    else
        fprintf(stderr, "mcmsim: simulated in %s\n", took);
    fflush(stderr);
}

void progress_warn_long(progress *p, const run_point *pt, double blocks, double steps, long i, long n)
{
    memory_policy policy = pt->machine.policy;
    double rate = policy == MEM_PARALLEL ? RATE_PARALLEL : policy == MEM_SHARED ? RATE_SHARED : RATE_EXCLUSIVE;
    if (pt->machine.blocks_per_sm > 1 && rate > RATE_RESIDENT)
        rate = RATE_RESIDENT;
    double seconds = steps / rate;
    if (seconds <= 60)
        return;
    char took[64], where[64] = "", how[96] = "block by block";
    say_duration(took, sizeof took, seconds);
    if (n > 1)
        snprintf(where, sizeof where, " (sweep point %ld of %ld)", i + 1, n);
    if (steps < blocks)
        snprintf(how, sizeof how, "about %.3g of them one by one (the rest in waves)", steps);
    clear(p);
    fprintf(stderr,
            "mcmsim: program '%s' on machine '%s'%s has %.3g thread-blocks: %s, at about "
            "%.1f M blocks/s under the %s policy, that takes about %s\n",
            pt->program, pt->machine.name, where, blocks, how, rate / 1e6, memory_policy_name(pt->machine.policy),
            took);
}
