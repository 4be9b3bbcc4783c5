/*
 * bench.c — `make bench`: how fast and how small the engine is.
 *
 * For N = 10^5, 10^6, 10^7 thread-blocks (ten kernels of N/10 blocks in a
 * chain, P = 132 SMs as on an H100, `parallel` policy) it prints simulated
 * blocks per second block by block (--block-by-block) and the simulation
 * process's peak memory, next to the floor (floor.c): a bare SimGrid
 * program running the same number of activities on as many hosts.  One
 * core is used: the simulation is serial.  Then the same chain of 10^10
 * blocks in waves (engine.c; issue 12: under 10 s, memory flat), and
 * where blocks share (16 resident per SM, `shared`, `exclusive`), by the
 * block scheduler and by SimGrid.
 * Then it runs every run file of programs/ (the papers' experiments, at the
 * papers' sizes) with `mcmsim run --format csv`, on one job and on every
 * core (--jobs), and prints each one's wall time and the totals;
 * `make validate`'s wall time (under 2 minutes); every run file under
 * programs/ (lessons and user examples included) in exec mode (--exec),
 * on every core, its wall time and the peak memory of its largest
 * process beside the figures before issue 28 (targets: under 30 s, under
 * 1 GiB); and a 2^20-point Stockham FFT in exec mode beside the serial
 * reference FFT, on one thread and on every core (issue 28: within 5× of
 * the reference once the memory hierarchy and instruction counting are
 * on; each adds its row to exec_variants).
 * Figures, not assertions: these machines are shared and noisy, so compare
 * ratios taken in one run.
 */
#include "engine.h"
#include "fail.h"
#include "program.h"
#include "user_program.h"

#include "../../programs/common/fft_reference.h"

#include <glob.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

/* Ten kernels of blocks/10 blocks in a chain: the SMs in lockstep, P
 * blocks ending at each instant.  Staggered (p > 0): a first kernel of p
 * blocks of spans 0 .. p−1, then ten independent kernels of span 200
 * (a block of 224 cycles on U = 8): each SM keeps its own phase, so every
 * block ends at an instant of its own. */
static kernel_dag *chain_of_kernels(double blocks, int staggered_p)
{
    kernel_dag *dag = kernel_dag_new("bench");
    if (staggered_p > 0) {
        kernel k = {.name = "stagger", .blocks = staggered_p, .threads = 256,
                    .cost = {.span = 0, .work = -1, .reads = 2, .writes = 1}, .private_words = -1};
        for (int b = 0; b < staggered_p; b++) { /* the DAG takes the runs over */
            block_cost c = k.cost;
            c.span = b;
            c.work = 256.0 * b;
            kernel_append_costs(&k, b, &c);
        }
        kernel_dag_add(dag, &k);
    }
    for (int i = 0; i < 10; i++) {
        char name[16];
        snprintf(name, sizeof name, "k%d", i);
        kernel k = {.name = name, .blocks = (long)(blocks / 10), .threads = 256,
                    .cost = {.span = staggered_p > 0 ? 200 : 10, .work = -1, .reads = 2, .writes = 1},
                    .private_words = -1};
        if (staggered_p > 0)
            kernel_dag_add(dag, &k);
        else
            kernel_dag_chain(dag, &k);
    }
    return dag;
}

/* Run the floor program (`stagger`: the staggered one); returns wall
 * seconds and peak memory (KiB). */
static int run_floor(const char *floor_path, long n, int p, int stagger, double *seconds, double *rss_kib)
{
    char ns[32], ps[32];
    snprintf(ns, sizeof ns, "%ld", n);
    snprintf(ps, sizeof ps, "%d", p);
    fflush(stdout);
    double t0 = now();
    pid_t pid = fork();
    if (pid == 0) {
        if (!freopen("/dev/null", "w", stdout))
            _exit(126);
        execl(floor_path, floor_path, ns, ps, stagger ? "stagger" : (char *)NULL, (char *)NULL);
        _exit(127);
    }
    int status;
    struct rusage usage;
    wait4(pid, &status, 0, &usage);
    *seconds = now() - t0;
    *rss_kib = (double)usage.ru_maxrss;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

/* Wall time of a command (argv[0] its path; stdout discarded), or −1 if
 * it fails. */
static double time_command(char *const argv[])
{
    fflush(stdout); /* the child must not flush our buffer again */
    double t0 = now();
    pid_t pid = fork();
    if (pid == 0) {
        if (!freopen("/dev/null", "w", stdout))
            _exit(126);
        execv(argv[0], argv);
        _exit(127);
    }
    int status;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? now() - t0 : -1;
}

/* Wall time of `mcmsim run FILE --format csv --jobs JOBS`. */
static double time_run_file(const char *mcmsim, const char *file, const char *jobs)
{
    char *argv[] = {(char *)mcmsim, "run", (char *)file, "--format", "csv", "--jobs", (char *)jobs, NULL};
    return time_command(argv);
}

/* Simulate the chain of `blocks` on `m`: its result and wall seconds. */
static int run_chain(double blocks, int staggered, const machine *m, sim_result *r, double *seconds)
{
    kernel_dag *dag = chain_of_kernels(blocks, staggered ? m->p : 0);
    double t0 = now();
    int rc = sim_run(dag, m, NULL, r);
    *seconds = now() - t0;
    kernel_dag_free(dag);
    if (rc < 0)
        fprintf(stderr, "bench: %s\n", fail_message());
    return rc;
}

/* The chain again, in waves, from 10^5 to 10^10 blocks: wall time and
 * peak memory, which should not grow with the blocks. */
static int bench_waves(const machine *block_by_block)
{
    machine m = *block_by_block;
    m.block_by_block = 0;
    printf("\nengine in waves: the same chain\n%14s %10s %12s %14s\n", "blocks", "wall s", "engine MiB",
           "in waves");
    for (double n = 1e4; n <= 1e10; n *= 100) {
        sim_result r;
        double seconds;
        if (run_chain(n, 0, &m, &r, &seconds) < 0)
            return 1;
        printf("%14.3g %10.3f %12.1f %13.4f%%%s\n", n, seconds, r.peak_rss_kib / 1024,
               100 * r.wave_blocks / r.costs.N, n == 1e10 ? "  (target: under 10 s, memory flat)" : "");
        fflush(stdout);
        sim_result_free(&r);
    }
    return 0;
}

/* The chain with blocks that share: 16 resident blocks per SM sharing
 * lanes and port (the card path), or one block per SM under `shared` on a
 * channel half as wide as the ports, or under `exclusive`: the block
 * scheduler (resident.c) against the same blocks as SimGrid activities
 * (sharing_by_simgrid, the tests' reference). */
static int bench_sharing(const machine *m, const char *what)
{
    machine mode = *m;
    printf("\n%s: the same chain\n%10s %16s %16s %8s\n", what, "blocks", "scheduler blk/s", "SimGrid blk/s",
           "ratio");
    for (long n = 100000; n <= 1000000; n *= 10) {
        sim_result a, b;
        double scheduler_s, simgrid_s;
        mode.sharing_by_simgrid = 0;
        if (run_chain((double)n, 0, &mode, &a, &scheduler_s) < 0)
            return 1;
        mode.sharing_by_simgrid = 1;
        if (run_chain((double)n, 0, &mode, &b, &simgrid_s) < 0)
            return 1;
        printf("%10ld %16.0f %16.0f %7.1fx  (T %.17g and %.17g)\n", n, n / scheduler_s, n / simgrid_s,
               simgrid_s / scheduler_s, a.T, b.T);
        fflush(stdout);
        sim_result_free(&a);
        sim_result_free(&b);
    }
    return 0;
}

/* `make validate` (issue 12: under 2 minutes); it rewrites the report
 * and the presets, the same bytes from the same data. */
static int bench_validate(const char *validate)
{
    char *argv[] = {(char *)validate, NULL};
    double seconds = time_command(argv);
    if (seconds < 0) {
        fprintf(stderr, "bench: %s failed\n", validate);
        return 1;
    }
    printf("\nmake validate (%s): %.1f s (target: under 2 minutes)\n", validate, seconds);
    return 0;
}

static int bench_run_files(const char *mcmsim)
{
    int n_files;
    char **files = program_run_files(MCMSIM_DATADIR, &n_files);
    if (n_files == 0) {
        free(files);
        return 0;
    }
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    char all[16];
    snprintf(all, sizeof all, "%ld", cores < 1 ? 1 : cores > 64 ? 64 : cores);
    double total[2] = {0, 0};
    printf("\nevery run file (mcmsim run FILE --format csv), one sweep point at a time and %s at once:\n", all);
    printf("  %-28s %9s %9s\n", "", "--jobs 1", all);
    for (int i = 0; i < n_files; i++) {
        double s1 = time_run_file(mcmsim, files[i], "1");
        double sn = s1 < 0 ? -1 : time_run_file(mcmsim, files[i], all);
        if (s1 < 0 || sn < 0) {
            fprintf(stderr, "bench: %s failed\n", files[i]);
            program_run_files_free(files, n_files);
            return 1;
        }
        const char *base = strrchr(files[i], '/');
        printf("  %-28s %7.2f s %7.2f s\n", base ? base + 1 : files[i], s1, sn);
        total[0] += s1;
        total[1] += sn;
    }
    printf("  %-28s %7.2f s %7.2f s (%.2fx; target: under 2 s)\n", "total", total[0], total[1],
           total[0] / total[1]);
    program_run_files_free(files, n_files);
    return 0;
}

/* ---- exec mode ------------------------------------------------------------ */

/* The figures of `mcmsim run FILE --exec` on this machine before issue 28
 * (commit c230326, every core, one run; a cap of 8 GiB of address space
 * ended the three that crashed, which grow past 16 GB without it: issue
 * 28).  Files with no exec mode are not listed. */
static const struct {
    const char *file, *before;
} before_issue_28[] = {
    {"programs/euclid/euclid.cfg", "> 120 s (timed out), 299 MiB"},
    {"programs/fft.cfg", "8.7 s, 351 MiB"},
    {"programs/lectures/3-euclid-s.cfg", "35.9 s, 95 MiB"},
    {"programs/lectures/4-stockham-vs-cooley-tukey.cfg", "7.3 s, 249 MiB"},
    {"programs/lectures/5-plain-vs-fft-mult.cfg", "crashed at 78 s, 4.1 GiB (> 16 GB, > 120 s uncapped)"},
    {"programs/mult.cfg", "crashed at 84 s, 4.1 GiB (> 16 GB, > 120 s uncapped)"},
    {"programs/plain-division/plain-division.cfg", "29.7 s, 2.2 GiB"},
    {"programs/plain-mult/plain-mult.cfg", "crashed at 72 s, 4.4 GiB (> 16 GB, > 120 s uncapped)"},
    {"programs/radix-sort/radix-sort.cfg", "28.2 s, 225 MiB"},
    {"programs/scan.cfg", "20.2 s, 1.7 GiB"},
    {"programs/user/jacobi.cfg", "2.4 s, 157 MiB"},
    {"programs/user/matvec.cfg", "1.2 s, 264 MiB"},
    {"programs/user/sum.cfg", "0.4 s, 74 MiB"},
};

static const char *before_of(const char *file)
{
    const char *rel = strstr(file, "programs/");
    for (size_t i = 0; rel && i < sizeof before_issue_28 / sizeof *before_issue_28; i++)
        if (strcmp(before_issue_28[i].file, rel) == 0)
            return before_issue_28[i].before;
    return "-";
}

#define EXEC_LIMIT_S 300 /* a run file still running then is stopped */

/* `mcmsim run FILE --exec --format csv` (stdout discarded, stderr kept in
 * `err`): its wall seconds, its processor seconds (all its processes,
 * which on a busy machine say more than the wall), the peak memory of its
 * largest process (KiB), and its status (−1: stopped at EXEC_LIMIT_S). */
static int run_exec_file(const char *mcmsim, const char *file, double *seconds, double *cpu, double *rss_kib,
                         char *err, size_t size)
{
    char err_path[] = "/tmp/mcmsim-bench-XXXXXX";
    int fd = mkstemp(err_path);
    fflush(stdout);
    double t0 = now();
    pid_t pid = fork();
    if (pid == 0) {
        if (!freopen("/dev/null", "w", stdout) || dup2(fd, 2) < 0)
            _exit(126);
        execl(mcmsim, mcmsim, "run", file, "--exec", "--format", "csv", (char *)NULL);
        _exit(127);
    }
    close(fd);
    int status = 0, stopped = 0;
    struct rusage usage;
    while (wait4(pid, &status, WNOHANG, &usage) == 0) {
        if (!stopped && now() - t0 > EXEC_LIMIT_S) {
            kill(pid, SIGTERM); /* mcmsim's children die with it */
            stopped = 1;
        }
        usleep(20000);
    }
    *seconds = now() - t0;
    *cpu = (double)usage.ru_utime.tv_sec + 1e-6 * (double)usage.ru_utime.tv_usec + (double)usage.ru_stime.tv_sec +
           1e-6 * (double)usage.ru_stime.tv_usec;
    *rss_kib = (double)usage.ru_maxrss;
    FILE *f = fopen(err_path, "r");
    size_t got = f ? fread(err, 1, size - 1, f) : 0;
    err[got] = '\0';
    if (f)
        fclose(f);
    unlink(err_path);
    return stopped ? -1 : WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* The machine's load average over the last minute (other users' work). */
static double load_average(void)
{
    double load = 0;
    FILE *f = fopen("/proc/loadavg", "r");
    if (f) {
        if (fscanf(f, "%lf", &load) != 1)
            load = 0;
        fclose(f);
    }
    return load;
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The last line of `text` (a message), trimmed to `width`. */
static void last_line(const char *text, char *out, size_t width)
{
    const char *end = text + strlen(text);
    while (end > text && end[-1] == '\n')
        end--;
    const char *start = end;
    while (start > text && start[-1] != '\n')
        start--;
    snprintf(out, width, "%.*s", (int)(end - start), start);
}

static int bench_exec_run_files(const char *mcmsim)
{
    glob_t run_files; /* every run file under programs/, three levels deep, by name */
    int flags = 0;
    const char *levels[] = {"/programs/*.cfg", "/programs/*/*.cfg", "/programs/*/*/*.cfg"};
    for (int i = 0; i < 3; i++) {
        char pattern[1024];
        snprintf(pattern, sizeof pattern, "%s%s", MCMSIM_DATADIR, levels[i]);
        if (glob(pattern, flags, NULL, &run_files) == 0)
            flags = GLOB_APPEND;
    }
    if (!flags)
        return 0;
    qsort(run_files.gl_pathv, run_files.gl_pathc, sizeof(char *), by_name);
    printf("\nexec mode, every run file under programs/ (mcmsim run FILE --exec, every core; targets: under 30 s,\n"
           "under 1 GiB in its largest process), beside the figures before issue 28 (load average now %.1f):\n",
           load_average());
    printf("  %-46s %9s %9s %11s  %s\n", "", "wall", "cpu", "peak", "before (wall, peak)");
    for (size_t i = 0; i < run_files.gl_pathc; i++) {
        char err[8192], why[120];
        double seconds, cpu, kib;
        int rc = run_exec_file(mcmsim, run_files.gl_pathv[i], &seconds, &cpu, &kib, err, sizeof err);
        const char *rel = strstr(run_files.gl_pathv[i], "programs/");
        last_line(err, why, sizeof why);
        if (rc == 1 && (strstr(err, "which has no kernels to run") ||
                        strstr(err, "runs MCM kernels: not on a")))
            continue; /* a model-mode lesson (a `kernels` list), or a DMM/UMM machine */
        printf("  %-46s %7.1f s %7.1f s %7.0f MiB  %s", rel, seconds, cpu, kib / 1024, before_of(rel));
        if (rc == -1)
            printf("   [stopped at %d s]", EXEC_LIMIT_S);
        else if (rc != 0)
            printf("\n      failed (status %d): %s", rc, why);
        else if (seconds > 30 || kib > 1024 * 1024)
            printf("   [over target]");
        printf("\n");
        fflush(stdout);
    }
    globfree(&run_files);
    return 0;
}

/* Exec mode's Stockham FFT at 2^20 against the serial reference FFT, as
 * exec mode measures more: each way of measuring is a row (a machine
 * setting on top of the defaults); the memory hierarchy (issue 27) and
 * instruction counting (issue 30) add theirs here, and issue 28's target
 * reads the row with both on: within 5× of the reference. */
typedef struct exec_variant {
    const char *what;
    void (*set)(machine *m); /* NULL: the defaults */
} exec_variant;

/* A preset in place of the defaults (machine/NAME.cfg). */
static void preset(machine *m, const char *name)
{
    char path[1024];
    machine_preset_path(name, path, sizeof path);
    if (machine_load_file(m, path) < 0)
        fprintf(stderr, "bench: %s\n", fail_message());
}

static void h100(machine *m) { preset(m, "h100"); }
static void h100_code(machine *m) { preset(m, "h100-code"); }

static const exec_variant exec_variants[] = {
    {"exec mode (no memory hierarchy, no instruction counts)", NULL},
    {"machine h100: its caches (one thread: they replay the blocks in order)", h100},
    {"machine h100-code: the caches and the instruction stream counted", h100_code},
};

/* The serial reference FFT of 2^20 points, in seconds. */
static double serial_fft_seconds(long n)
{
    word *x = malloc(sizeof *x * (size_t)n);
    uint64_t state = 1;
    for (long i = 0; i < n; i++)
        x[i] = mcm_random(&state) % MCM_PRIME;
    double start = now();
    serial_fft(x, n, fft_root_of_unity(n));
    double seconds = now() - start;
    free(x);
    return seconds;
}

/* programs/stockham/kernels.c at `params` on m, on `threads` threads, as
 * --exec runs it (its exec process: setup, the kernels, the check); its
 * object compiled beforehand, so the time is the run's. */
static int exec_stockham_seconds(const char *source, const vars *params, const machine *m, int threads,
                                 double *seconds)
{
    char so[1200];
    if (user_program_compile_as(source, m->issue_rate > 0, so, sizeof so) < 0)
        return -1;
    exec_process x;
    double start = now();
    if (user_program_start(&x, source, params, m, threads) < 0)
        return -1;
    exec_kernel_report *reports;
    kernel_dag *dag = exec_process_finish(&x, &reports);
    *seconds = now() - start;
    kernel_dag_free(dag);
    free(reports);
    return dag ? 0 : -1;
}

static int bench_stockham(void)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    int all = cores < 1 ? 1 : cores > 64 ? 64 : (int)cores;
    const long n = 1L << 20;
    char source[2048];
    if (builtin_kernels_path(builtin_find("stockham"), source, sizeof source) < 0)
        return 1;
    vars params;
    vars_clear(&params);
    vars_set(&params, "n", (double)n);
    vars_set(&params, "l", 128);
    printf("\nexec mode, 2^20-point Stockham FFT (l = 128; programs/stockham/kernels.c) against the serial "
           "reference FFT:\n");
    for (size_t v = 0; v < sizeof exec_variants / sizeof *exec_variants; v++)
        for (int threads = 1; threads <= all; threads = threads == all ? all + 1 : all) {
            machine m;
            machine_defaults(&m);
            if (exec_variants[v].set)
                exec_variants[v].set(&m);
            double exec_s, serial_s = serial_fft_seconds(n);
            if (exec_stockham_seconds(source, &params, &m, threads, &exec_s) < 0) {
                fprintf(stderr, "bench: %s\n", fail_message());
                return 1;
            }
            printf("  %-72s %2d thread%s: %6.2f s, reference %.3f s, ratio %5.1f\n", exec_variants[v].what,
                   threads, threads > 1 ? "s" : " ", exec_s, serial_s, exec_s / serial_s);
            fflush(stdout);
        }
    printf("  (targets: within 10x without the hierarchy and the counts, within 5x with both on)\n");
    return 0;
}

int main(int argc, char **argv)
{
    const char *floor_path = argc > 1 ? argv[1] : "build/bench/floor";
    const char *mcmsim = argc > 2 ? argv[2] : "build/mcmsim";
    const char *validate = argc > 3 ? argv[3] : "build/validate/validate";
    if (argc > 4 && strcmp(argv[4], "--exec-only") == 0) /* make bench-exec */
        return bench_exec_run_files(mcmsim) != 0 || bench_stockham() != 0;
    if (argc > 4 && strcmp(argv[4], "--stockham-only") == 0) /* the Stockham FFT against the reference alone */
        return bench_stockham() != 0;
    machine m;
    machine_defaults(&m);
    m.p = 132;
    m.block_by_block = 1;
    printf("engine, block by block (--block-by-block): 10 kernels, P = %d, policy parallel, the SMs in\n"
           "lockstep (a chain) and staggered (every block ends at its own instant); floor: %s\n\n",
           m.p, floor_path);
    printf("%10s %14s %10s %14s %10s %12s %10s\n", "blocks", "lockstep blk/s", "floor/eng", "stagger blk/s",
           "floor/eng", "engine MiB", "floor MiB");
    for (long n = 100000; n <= 10000000; n *= 10) {
        sim_result r, staggered;
        double lockstep_s, staggered_s, floor_s, floor_staggered_s, floor_kib;
        if (run_chain((double)n, 0, &m, &r, &lockstep_s) < 0 || run_chain((double)n, 1, &m, &staggered, &staggered_s) < 0)
            return 1;
        if (run_floor(floor_path, n, m.p, 0, &floor_s, &floor_kib) < 0 ||
            run_floor(floor_path, n, m.p, 1, &floor_staggered_s, &floor_kib) < 0) {
            fprintf(stderr, "bench: the floor program failed\n");
            return 1;
        }
        printf("%10ld %14.0f %10.2f %14.0f %10.2f %12.1f %10.1f\n", n, n / lockstep_s, lockstep_s / floor_s,
               n / staggered_s, staggered_s / floor_staggered_s, fmax(r.peak_rss_kib, staggered.peak_rss_kib) / 1024,
               floor_kib / 1024);
        fflush(stdout);
        sim_result_free(&r);
        sim_result_free(&staggered);
    }
    machine resident = m, shared = m, exclusive = m;
    resident.blocks_per_sm = 16;
    resident.lanes = 64; /* a block's 2 560 operations take 40 cycles of lanes, 10 of span */
    shared.policy = MEM_SHARED;
    shared.bandwidth = shared.p / (2 * shared.u);
    exclusive.policy = MEM_EXCLUSIVE;
    if (bench_waves(&m) != 0 ||
        bench_sharing(&resident, "engine with 16 resident blocks per SM (lanes = 64), `parallel`") != 0 ||
        bench_sharing(&shared, "engine under `shared`, one block per SM, a channel of P/(2U) words per cycle") != 0 ||
        bench_sharing(&exclusive, "engine under `exclusive`, one block per SM") != 0 ||
        bench_run_files(mcmsim) != 0 || bench_validate(validate) != 0 || bench_exec_run_files(mcmsim) != 0 ||
        bench_stockham() != 0)
        return 1;
    return 0;
}
