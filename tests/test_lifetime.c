/*
 * test_lifetime.c — no process of mcmsim outlives the command (lifetime.h):
 * the mcmsim binary, started on a long simulation with TMPDIR a fresh
 * directory, is killed mid-run (SIGKILL, which it cannot catch, and
 * SIGTERM, SIGINT, SIGHUP); within seconds its simulation children must be gone and the
 * directory must hold no platform file, and no trace (whole or .part)
 * when the run was asked for one.  A sweep of two such points on two
 * jobs has two children: both must go; so must two exec processes (a
 * sweep of two points in exec mode, their launches on threads).  And a
 * program too large for
 * memory is refused before it is built, naming the limit.  A test killed
 * mid-run (a timeout) leaves no mcmsim: each is started in a process
 * group of its own, which dies with the test and is killed at its end.
 *
 * The binary is found through $MCMSIM (set by `make test`).
 */
#include "helpers.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>

static void nap(double seconds)
{
    struct timespec t = {(time_t)seconds, (long)((seconds - (time_t)seconds) * 1e9)};
    nanosleep(&t, NULL);
}

/* The live (not zombie) children of `parent`, at most `max`; how many. */
static int children_of(pid_t parent, pid_t *found, int max)
{
    DIR *d = opendir("/proc");
    cr_assert_not_null(d);
    int n = 0;
    struct dirent *e;
    while (n < max && (e = readdir(d))) {
        char path[300], line[512];
        snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
        FILE *f = fopen(path, "r");
        if (!f)
            continue;
        char *got = fgets(line, sizeof line, f);
        fclose(f);
        char *close_paren = got ? strrchr(line, ')') : NULL;
        char state;
        int ppid;
        if (close_paren && sscanf(close_paren + 1, " %c %d", &state, &ppid) == 2 && ppid == parent &&
            state != 'Z')
            found[n++] = (pid_t)atoi(e->d_name);
    }
    closedir(d);
    return n;
}

/* Whether `pid` is gone or a zombie (its parent died: nobody may reap it). */
static int dead(pid_t pid)
{
    char path[64], line[512];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return 1;
    char *got = fgets(line, sizeof line, f);
    fclose(f);
    char *close_paren = got ? strrchr(line, ')') : NULL;
    char state = 'R';
    if (close_paren)
        sscanf(close_paren + 1, " %c", &state);
    return state == 'Z' || state == 'X';
}

/* Files in dir other than the run file. */
static int stray_files(const char *dir)
{
    DIR *d = opendir(dir);
    cr_assert_not_null(d);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        if (e->d_name[0] != '.' && strcmp(e->d_name, "long.cfg") != 0)
            n++;
    closedir(d);
    return n;
}

/* The process group of the mcmsim this test started (0: none), killed
 * whole at the test's end (its .fini), however the test ended, so that
 * no mcmsim nor simulation of a failed test lives on. */
static pid_t started_group;

static void kill_started_group(void)
{
    if (started_group > 0)
        kill(-started_group, SIGKILL);
    started_group = 0;
}

/* `argv` (mcmsim and its arguments) started in dir, as start_long_run
 * says, in a process group of its own (the group is its pid) that dies
 * with this process: Criterion kills a test that runs past its timeout,
 * not the test's children, which a death signal then kills.  Asserts
 * nothing (a child of a test may call it); its pid, or -1. */
static pid_t spawn_mcmsim(const char *dir, void (*hup)(int), const char *const *argv)
{
    pid_t test = getpid(), pid = fork();
    if (pid != 0)
        return pid;
    setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != test) /* the test died before the line above */
        _exit(1);
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGHUP, hup);
    setenv("TMPDIR", dir, 1);
    if (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr))
        _exit(126);
    execv(argv[0], (char *const *)argv);
    _exit(127);
}

/* The run file `text` written as dir/long.cfg, its path in cfg. */
static void write_run_file(char *cfg, size_t cfg_size, const char *dir, const char *text)
{
    snprintf(cfg, cfg_size, "%s/long.cfg", dir);
    FILE *f = fopen(cfg, "w");
    cr_assert_not_null(f);
    fputs(text, f);
    fclose(f);
}

/* mcmsim started on a long run in `dir` (its run file `cfg`), SIGHUP
 * set to `hup` (SIG_DFL as from a terminal, SIG_IGN as under nohup) and
 * SIGINT, SIGTERM at their defaults, whatever this test inherited; once
 * it runs `sims` simulations (exec: exec processes), their pids in sim.
 * With a trace asked for when `trace`, on two jobs when sims = 2 (a sweep
 * of two). */
static pid_t start_long_run(const char *dir, char *cfg, size_t cfg_size, int trace, int sims, int exec,
                            void (*hup)(int), pid_t sim[2])
{
    const char *bin = getenv("MCMSIM");
    cr_assert_not_null(bin, "set MCMSIM to the mcmsim binary (make test does)");
    char text[256];
    /* 2.1·10^9 blocks, block by block (in waves they take a moment):
     * minutes of simulation, far more than the test waits */
    if (exec) /* Euclid at n = 20000 in exec mode: minutes too */
        snprintf(text, sizeof text, "machine = \"mcm\";\n"
                 "program = { name = \"euclid\"; params = { n = 20000; m = 20000; l = 256; s = 1; }; };\n%s",
                 sims == 2 ? "sweep = { s = [1, 2]; };\n" : "");
    else
        snprintf(text, sizeof text, "machine = \"mcm\";\n"
                 "program = { name = \"plain-mult\"; params = { n = 1048576; m = 1048576; l = 256; s = 2; }; };\n%s",
                 sims == 2 ? "sweep = { s = [2, 4]; };\n" : "");
    write_run_file(cfg, cfg_size, dir, text);
    char trace_path[128];
    snprintf(trace_path, sizeof trace_path, "%s/trace.csv", dir);
    const char *jobs = sims == 2 ? "2" : "1";
    pid_t mcmsim;
    if (trace)
        mcmsim = spawn_mcmsim(dir, hup, (const char *[]){bin, "run", cfg, "--block-by-block", "--trace", trace_path, NULL});
    else if (exec)
        mcmsim = spawn_mcmsim(dir, hup, (const char *[]){bin, "run", cfg, "--exec", "--jobs", jobs, NULL});
    else
        mcmsim = spawn_mcmsim(dir, hup, (const char *[]){bin, "run", cfg, "--block-by-block", "--jobs", jobs, NULL});
    cr_assert(mcmsim > 0);
    started_group = mcmsim;
    for (int i = 0; i < 200 && children_of(mcmsim, sim, 2) < sims; i++)
        nap(0.05);
    cr_assert(sim[sims - 1] > 0, "mcmsim started no %d %s processes within 10 s", sims,
              exec ? "exec" : "simulation");
    return mcmsim;
}

/* Kill mcmsim with `sig` once it runs `sims` simulations (exec: exec
 * processes); with a trace asked for when `trace`, on two jobs when sims
 * = 2 (a sweep of two). */
static void kill_mid(int sig, int trace, int sims, int exec)
{
    char dir[] = "/tmp/mcmsim-lifetime-XXXXXX", cfg[128];
    cr_assert_not_null(mkdtemp(dir));
    pid_t sim[2] = {0, 0};
    pid_t mcmsim = start_long_run(dir, cfg, sizeof cfg, trace, sims, exec, SIG_DFL, sim);
    nap(0.5); /* well inside the simulation */
    cr_assert_eq(kill(mcmsim, sig), 0);
    int status;
    cr_assert_eq(waitpid(mcmsim, &status, 0), mcmsim);
    cr_expect(WIFSIGNALED(status) && WTERMSIG(status) == sig, "mcmsim died of signal %d",
              WIFSIGNALED(status) ? WTERMSIG(status) : -1);
    for (int c = 0; c < sims; c++) {
        int gone = 0;
        for (int i = 0; i < 100 && !(gone = dead(sim[c])); i++)
            nap(0.05);
        if (!gone)
            kill(sim[c], SIGKILL); /* leave nothing behind, then fail */
        cr_expect(gone, "the %s process %d outlived mcmsim by 5 s", exec ? "exec" : "simulation", (int)sim[c]);
    }
    cr_expect_eq(stray_files(dir), 0, "a file (temporary, or a partial trace) was left in %s", dir);
    remove(cfg);
    rmdir(dir);
}

static void kill_mid_run(int sig, int trace, int sims) { kill_mid(sig, trace, sims, 0); }

Test(lifetime, sigkill_mid_run_leaves_no_process_and_no_file, .timeout = 60, .fini = kill_started_group)
{
    kill_mid_run(SIGKILL, 0, 1);
}

Test(lifetime, sigterm_mid_run_leaves_no_process_and_no_file, .timeout = 60, .fini = kill_started_group)
{
    kill_mid_run(SIGTERM, 0, 1);
}

Test(lifetime, sigterm_mid_run_leaves_no_partial_trace, .timeout = 60, .fini = kill_started_group)
{
    kill_mid_run(SIGTERM, 1, 1);
}

Test(lifetime, sigint_mid_run_leaves_no_partial_trace, .timeout = 60, .fini = kill_started_group)
{
    kill_mid_run(SIGINT, 1, 1);
}

/* The terminal closed (SIGHUP): as SIGTERM, where it left FILE.part. */
Test(lifetime, sighup_mid_run_leaves_no_partial_trace, .timeout = 60, .fini = kill_started_group)
{
    kill_mid_run(SIGHUP, 1, 1);
}

/* Started under nohup (SIGHUP ignored): the terminal closing leaves the
 * run and its simulation child going; SIGTERM still ends both. */
Test(lifetime, a_run_started_ignoring_sighup_survives_it, .timeout = 60, .fini = kill_started_group)
{
    char dir[] = "/tmp/mcmsim-nohup-XXXXXX", cfg[128];
    cr_assert_not_null(mkdtemp(dir));
    pid_t sim[2] = {0, 0};
    pid_t mcmsim = start_long_run(dir, cfg, sizeof cfg, 0, 1, 0, SIG_IGN, sim);
    nap(0.5);
    cr_assert_eq(kill(mcmsim, SIGHUP), 0);
    cr_assert_eq(kill(sim[0], SIGHUP), 0);
    nap(0.5);
    int status;
    cr_expect_eq(waitpid(mcmsim, &status, WNOHANG), 0, "mcmsim died of the SIGHUP it was started ignoring");
    cr_expect(!dead(sim[0]), "its simulation process died of the SIGHUP");
    cr_assert_eq(kill(mcmsim, SIGTERM), 0);
    cr_assert_eq(waitpid(mcmsim, &status, 0), mcmsim);
    cr_expect(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM);
    for (int i = 0; i < 100 && !dead(sim[0]); i++)
        nap(0.05);
    if (!dead(sim[0]))
        kill(sim[0], SIGKILL);
    remove(cfg);
    rmdir(dir);
}

Test(lifetime, sigterm_mid_sweep_on_two_jobs_stops_both_children, .timeout = 60, .fini = kill_started_group)
{
    kill_mid_run(SIGTERM, 0, 2);
}

Test(lifetime, sigkill_mid_sweep_on_two_jobs_stops_both_children, .timeout = 60, .fini = kill_started_group)
{
    kill_mid_run(SIGKILL, 0, 2);
}

Test(lifetime, sigkill_mid_exec_sweep_stops_both_exec_processes, .timeout = 60, .fini = kill_started_group)
{
    kill_mid(SIGKILL, 0, 2, 1);
}

Test(lifetime, sigterm_mid_exec_sweep_stops_both_exec_processes, .timeout = 60, .fini = kill_started_group)
{
    kill_mid(SIGTERM, 0, 2, 1);
}

/* A test killed mid-run (Criterion's timeout kills the test's process,
 * not its children): the mcmsim it started, and that one's simulation,
 * die with it, where they ran on for minutes.  Here a child of the test
 * starts mcmsim and is killed as a timeout kills a test. */
Test(lifetime, a_test_killed_mid_run_leaves_no_mcmsim, .timeout = 60, .fini = kill_started_group)
{
    char dir[] = "/tmp/mcmsim-killed-test-XXXXXX", cfg[128];
    cr_assert_not_null(mkdtemp(dir));
    write_run_file(cfg, sizeof cfg, dir,
                   "machine = \"mcm\";\n"
                   "program = { name = \"plain-mult\"; params = { n = 1048576; m = 1048576; l = 256; s = 2; }; };\n");
    const char *bin = getenv("MCMSIM");
    cr_assert_not_null(bin, "set MCMSIM to the mcmsim binary (make test does)");
    int fds[2];
    cr_assert_eq(pipe(fds), 0);
    pid_t test = fork(); /* the test a timeout kills */
    cr_assert(test >= 0);
    if (test == 0) {
        close(fds[0]);
        pid_t pid = spawn_mcmsim(dir, SIG_DFL, (const char *[]){bin, "run", cfg, "--block-by-block", NULL});
        if (write(fds[1], &pid, sizeof pid) != sizeof pid)
            _exit(1);
        pause();
        _exit(0);
    }
    close(fds[1]);
    pid_t mcmsim = 0, sim[1] = {0};
    cr_assert_eq(read(fds[0], &mcmsim, sizeof mcmsim), (ssize_t)sizeof mcmsim);
    close(fds[0]);
    cr_assert(mcmsim > 0);
    started_group = mcmsim;
    for (int i = 0; i < 200 && children_of(mcmsim, sim, 1) < 1; i++)
        nap(0.05);
    cr_assert(sim[0] > 0, "mcmsim started no simulation within 10 s");
    cr_assert_eq(kill(test, SIGKILL), 0);
    cr_assert_eq(waitpid(test, NULL, 0), test);
    int gone = 0;
    for (int i = 0; i < 100 && !(gone = dead(mcmsim) && dead(sim[0])); i++)
        nap(0.05);
    cr_expect(gone, "mcmsim %d (%s) or its simulation %d (%s) outlived the test that started it by 5 s", (int)mcmsim,
              dead(mcmsim) ? "gone" : "running", (int)sim[0], dead(sim[0]) ? "gone" : "running");
    remove(cfg);
    rmdir(dir);
}

/* A two-line run file that asks for 10^8 kernels: refused at once, naming
 * the limit and the count, under a memory cap (ASan reserves terabytes of
 * address space: no cap there, the refusal is the same). */
Test(lifetime, a_program_of_too_many_kernels_is_refused_before_allocating, .timeout = 60)
{
    const char *bin = getenv("MCMSIM");
    cr_assert_not_null(bin, "set MCMSIM to the mcmsim binary (make test does)");
    char dir[] = "/tmp/mcmsim-limit-XXXXXX", cfg[128], err[160], cmd[1024];
    cr_assert_not_null(mkdtemp(dir));
    snprintf(err, sizeof err, "%s/err", dir);
    write_run_file(cfg, sizeof cfg, dir,
                   "machine = \"mcm\";\n"
                   "program = { name = \"plain-division\"; params = { n = 4986; m = 500010000; s = 5; }; };\n");
#ifdef MCM_SANITIZE
    const char *cap = "";
#else
    const char *cap = "ulimit -v 1000000; ";
#endif
    snprintf(cmd, sizeof cmd, "%stimeout 20 %s run %s >/dev/null 2>%s", cap, bin, cfg, err);
    int rc = system(cmd);
    cr_expect(WIFEXITED(rc) && WEXITSTATUS(rc) == 1, "exit status %d (124: it ran 20 s)",
              WIFEXITED(rc) ? WEXITSTATUS(rc) : -1);
    char message[1024] = "";
    FILE *f = fopen(err, "r");
    cr_assert_not_null(f);
    size_t n = fread(message, 1, sizeof message - 1, f);
    message[n] = '\0';
    fclose(f);
    cr_expect(strstr(message, "100001003 kernels") && strstr(message, "at most 1000000"), "%s", message);
    remove(err);
    remove(cfg);
    rmdir(dir);
}
