/*
 * test_lifetime.c — no process of mcmsim outlives the command (lifetime.h):
 * the mcmsim binary, started on a long simulation with TMPDIR a fresh
 * directory, is killed mid-run (SIGKILL, which it cannot catch, and
 * SIGTERM); within seconds its simulation child must be gone and the
 * directory must hold no platform file.  And a program too large for
 * memory is refused before it is built, naming the limit.
 *
 * The binary is found through $MCMSIM (set by `make test`).
 */
#include "helpers.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>

static void nap(double seconds)
{
    struct timespec t = {(time_t)seconds, (long)((seconds - (time_t)seconds) * 1e9)};
    nanosleep(&t, NULL);
}

/* The pid of a live (not zombie) child of `parent`, or 0. */
static pid_t child_of(pid_t parent)
{
    DIR *d = opendir("/proc");
    cr_assert_not_null(d);
    pid_t found = 0;
    struct dirent *e;
    while (!found && (e = readdir(d))) {
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
            found = (pid_t)atoi(e->d_name);
    }
    closedir(d);
    return found;
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

static void kill_mid_run(int sig)
{
    const char *bin = getenv("MCMSIM");
    cr_assert_not_null(bin, "set MCMSIM to the mcmsim binary (make test does)");
    char dir[] = "/tmp/mcmsim-lifetime-XXXXXX", cfg[128];
    cr_assert_not_null(mkdtemp(dir));
    snprintf(cfg, sizeof cfg, "%s/long.cfg", dir);
    FILE *f = fopen(cfg, "w");
    cr_assert_not_null(f);
    /* 8.6·10^9 blocks: minutes of simulation, far more than the test waits */
    fprintf(f, "machine = \"mcm\";\n"
               "program = { name = \"plain-mult\"; params = { n = 1048576; m = 1048576; l = 256; s = 4; }; };\n");
    fclose(f);
    pid_t mcmsim = fork();
    cr_assert(mcmsim >= 0);
    if (mcmsim == 0) {
        setenv("TMPDIR", dir, 1);
        if (!freopen("/dev/null", "w", stdout))
            _exit(126);
        execl(bin, bin, "run", cfg, (char *)NULL);
        _exit(127);
    }
    pid_t sim = 0;
    for (int i = 0; i < 200 && !(sim = child_of(mcmsim)); i++)
        nap(0.05);
    cr_assert(sim > 0, "mcmsim started no simulation process within 10 s");
    nap(0.5); /* well inside the simulation */
    cr_assert_eq(kill(mcmsim, sig), 0);
    int status;
    cr_assert_eq(waitpid(mcmsim, &status, 0), mcmsim);
    cr_expect(WIFSIGNALED(status) && WTERMSIG(status) == sig, "mcmsim died of signal %d",
              WIFSIGNALED(status) ? WTERMSIG(status) : -1);
    int gone = 0;
    for (int i = 0; i < 100 && !(gone = dead(sim)); i++)
        nap(0.05);
    if (!gone)
        kill(sim, SIGKILL); /* leave nothing behind, then fail */
    cr_expect(gone, "the simulation process %d outlived mcmsim by 5 s", (int)sim);
    cr_expect_eq(stray_files(dir), 0, "a temporary file was left in %s", dir);
    remove(cfg);
    rmdir(dir);
}

Test(lifetime, sigkill_mid_run_leaves_no_process_and_no_file, .timeout = 60)
{
    kill_mid_run(SIGKILL);
}

Test(lifetime, sigterm_mid_run_leaves_no_process_and_no_file, .timeout = 60)
{
    kill_mid_run(SIGTERM);
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
    snprintf(cfg, sizeof cfg, "%s/long.cfg", dir);
    snprintf(err, sizeof err, "%s/err", dir);
    FILE *f = fopen(cfg, "w");
    cr_assert_not_null(f);
    fprintf(f, "machine = \"mcm\";\n"
               "program = { name = \"plain-division\"; params = { n = 4986; m = 500010000; s = 5; }; };\n");
    fclose(f);
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
    f = fopen(err, "r");
    cr_assert_not_null(f);
    size_t n = fread(message, 1, sizeof message - 1, f);
    message[n] = '\0';
    fclose(f);
    cr_expect(strstr(message, "100001003 kernels") && strstr(message, "at most 1000000"), "%s", message);
    remove(err);
    remove(cfg);
    rmdir(dir);
}
