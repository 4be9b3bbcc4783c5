/*
 * user_program.c — a program from the user's own C file (see
 * user_program.h): compile it, run it in exec mode in a child process,
 * bring its kernel DAG back.  Also the host side of sim/mcm_kernel.h (the
 * mcm_* functions a user program calls), which runs in that child.
 *
 * The story of one point: the parent hashes the file with the headers and
 * the compiler's command, and compiles it into the cache unless the object
 * is there (a temporary name, renamed when whole).  It starts an exec
 * process (sim/exec_process.h); the child loads the object, checks its
 * entry point `mcm_program` and its API version, and runs the program's
 * three phases on a race-free exec run: setup, launches, check.  The
 * parent receives the measured DAG, or why there is none: the program's
 * own message, or the signal that ended the child with the phase and
 * kernel it was in.
 */
#include "user_program.h"
#include "exec.h"
#include "fail.h"
#include "lifetime.h"
#include "mcm_kernel.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef MCMSIM_DATADIR
#define MCMSIM_DATADIR "."
#endif

/* The headers a user program is compiled against: part of the cache key. */
static const char *const headers[] = {"sim/mcm_kernel.h", "sim/exec.h", "sim/kernel_dag.h", "machine/machine.h",
                                      NULL};

/* ---- compiling ------------------------------------------------------------ */

static const char *datadir(void)
{
    const char *env = getenv("MCMSIM_DATADIR");
    return env && *env ? env : MCMSIM_DATADIR;
}

static const char *compiler(void)
{
    const char *env = getenv("MCMSIM_CC");
    return env && *env ? env : "cc";
}

/* FNV-1a over a file's bytes, into *h; -1 if it cannot be read. */
static int hash_file(const char *path, uint64_t *h)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    int c;
    while ((c = getc(f)) != EOF)
        *h = (*h ^ (uint64_t)(unsigned char)c) * 0x100000001b3ull;
    fclose(f);
    return 0;
}

static void hash_text(const char *text, uint64_t *h)
{
    for (; *text; text++)
        *h = (*h ^ (uint64_t)(unsigned char)*text) * 0x100000001b3ull;
}

/* mkdir -p for the cache folder. */
static int make_dirs(char *path)
{
    for (char *p = path + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            int bad = mkdir(path, 0755) < 0 && errno != EEXIST;
            *p = '/';
            if (bad)
                return -1;
        }
    return mkdir(path, 0755) < 0 && errno != EEXIST ? -1 : 0;
}

static int cache_dir(char *out, size_t size)
{
    const char *env = getenv("MCMSIM_CACHE"), *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    if (env && *env)
        snprintf(out, size, "%s", env);
    else if (xdg && *xdg)
        snprintf(out, size, "%s/mcmsim", xdg);
    else if (home && *home)
        snprintf(out, size, "%s/.cache/mcmsim", home);
    else
        snprintf(out, size, "/tmp/mcmsim-cache-%d", (int)getuid());
    if (make_dirs(out) < 0)
        return fail("cannot create the cache folder %s for compiled programs: %s (set MCMSIM_CACHE)", out,
                    strerror(errno));
    return 0;
}

/* Run the compiler; its messages go to our stderr as they are. */
static int run_compiler(const char *source, const char *out)
{
    char inc_sim[1100], inc_machine[1100];
    snprintf(inc_sim, sizeof inc_sim, "-I%s/sim", datadir());
    snprintf(inc_machine, sizeof inc_machine, "-I%s/machine", datadir());
    const char *cc = compiler();
    char *argv[] = {(char *)cc, "-std=c11", "-O2", "-g", "-fPIC", "-shared", "-Wall", inc_sim, inc_machine,
                    "-o", (char *)out, (char *)source, NULL};
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        return fail("%s: cannot start the compiler: %s", source, strerror(errno));
    if (pid == 0) {
        lifetime_child_start(getppid());
        execvp(cc, argv);
        fprintf(stderr, "mcmsim: cannot run the compiler '%s': %s\n", cc, strerror(errno));
        _exit(127);
    }
    lifetime_watch(pid);
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    lifetime_unwatch(pid);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return 0;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
        return fail("%s: cannot compile: the compiler '%s' could not be run (install it, or set MCMSIM_CC)",
                    source, cc);
    return fail("%s: does not compile (%s exited with status %d; its messages, above, name the lines)", source,
                cc, WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

int user_program_compile(const char *source, char *so, size_t size)
{
    uint64_t h = 0xcbf29ce484222325ull;
    if (hash_file(source, &h) < 0)
        return fail("%s: cannot read the program's source: %s", source, strerror(errno));
    char path[1100];
    for (int i = 0; headers[i]; i++) {
        snprintf(path, sizeof path, "%s/%s", datadir(), headers[i]);
        if (hash_file(path, &h) < 0)
            return fail("cannot read %s, the header user programs are compiled against: %s (is MCMSIM_DATADIR "
                        "the mcmsim source folder?)", path, strerror(errno));
    }
    hash_text(compiler(), &h);
    hash_text(datadir(), &h);
    char dir[1024];
    if (cache_dir(dir, sizeof dir) < 0)
        return -1;
    snprintf(so, size, "%s/%016llx.so", dir, (unsigned long long)h);
    if (access(so, R_OK) == 0)
        return 0;
    char part[1200];
    snprintf(part, sizeof part, "%s.%d.part", so, (int)getpid());
    lifetime_remove_on_signal(part);
    int rc = run_compiler(source, part);
    if (rc == 0 && rename(part, so) != 0)
        rc = fail("cannot write %s: %s", so, strerror(errno));
    unlink(part);
    lifetime_forget(part);
    return rc;
}

/* ---- the host side of mcm_kernel.h (in the child) --------------------------- */

enum { PHASE_LOAD, PHASE_SETUP, PHASE_LAUNCHES, PHASE_CHECK };
static const char *const phase_names[] = {"loading", "setup", "launches", "check"};

struct mcm_params {
    const vars *params;
    uint64_t seed;
};

static exec_whereabouts *here; /* in the child: where it is (exec_process.h) */
static int misused;            /* an mcm_set/get out of place: failed already */

double mcm_param(const mcm_params *p, const char *name, double fallback)
{
    const double *v = vars_get(p->params, name);
    return v ? *v : fallback;
}

uint64_t mcm_seed(const mcm_params *p) { return p->seed; }

int mcm_fail(const char *fmt, ...)
{
    char message[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    return fail("%s", message);
}

gmem mcm_alloc(exec_run *run, const char *name, long size)
{
    if (here->phase != PHASE_SETUP && !misused)
        misused = fail("mcm_alloc(\"%s\") in %s: arrays are allocated in setup", name, phase_names[here->phase]);
    return exec_alloc(run, name, size);
}

long mcm_size(gmem a) { return a->size; }

/* An mcm_set or mcm_get of a[i] in `phase` only: 1 if it may go on. */
static int host_access(gmem a, long i, int phase, const char *verb)
{
    if (misused)
        return 0;
    if (here->phase != phase) {
        misused = fail("%s %s[%ld] in %s: on the card, %s runs as a captured graph that reads and writes no "
                       "cell from the host (mcm_set in setup, mcm_get in check)", verb, a->name, i,
                       phase_names[here->phase], phase_names[here->phase]);
        return 0;
    }
    if (i < 0 || i >= a->size) {
        misused = fail("%s %s[%ld] in %s: outside its %ld cells", verb, a->name, i, phase_names[phase], a->size);
        return 0;
    }
    return 1;
}

void mcm_set(gmem a, long i, word v)
{
    if (!host_access(a, i, PHASE_SETUP, "mcm_set"))
        return;
    if (v > UINT32_MAX) {
        misused = fail("mcm_set %s[%ld] to %llu: a word of memory is 32 bits on the card", a->name, i,
                       (unsigned long long)v);
        return;
    }
    a->cells[i] = v;
}

word mcm_get(gmem a, long i) { return host_access(a, i, PHASE_CHECK, "mcm_get") ? a->cells[i] : 0; }

int mcm_launch(exec_run *run, const mcm_kernel *k, long blocks, int threads, long private_words, void *args)
{
    if (here->phase != PHASE_LAUNCHES)
        return misused ? -1 : (misused = fail("mcm_launch of kernel '%s' in %s: kernels are launched in launches",
                                              k->name, phase_names[here->phase]));
    exec_kernel launched = {k->name, k->n_steps, k->steps, private_words};
    return exec_launch(run, &launched, blocks, threads, args);
}

/* ---- the child: load, run ------------------------------------------------------ */

/* The program's phases; 0, or -1 with fail(). */
static int run_phases(const mcm_program_entry *e, const vars *params, const machine *m, exec_run *run)
{
    mcm_params p = {params, m->seed};
    here->phase = PHASE_SETUP;
    if (e->setup(run, &p) < 0 || misused)
        return -1;
    here->phase = PHASE_LAUNCHES;
    if (e->launches(run) < 0 || misused)
        return -1;
    if (exec_dag(run)->n == 0)
        return fail("launches launched no kernel");
    here->phase = PHASE_CHECK;
    if (e->check(run) < 0 || misused)
        return -1;
    return 0;
}

static const mcm_program_entry *load(const char *source, const char *so)
{
    void *handle = dlopen(so, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        fail("%s: cannot load its compiled object: %s", source, dlerror());
        return NULL;
    }
    const mcm_program_entry *e = dlsym(handle, "mcm_program");
    if (!e) {
        fail("%s: no entry point: the file must end with MCM_PROGRAM(\"name\", setup, launches, check); "
             "(sim/mcm_kernel.h)", source);
        return NULL;
    }
    if (e->api_version != MCM_API_VERSION) {
        fail("%s: built for version %d of sim/mcm_kernel.h; this mcmsim runs version %d", source, e->api_version,
             MCM_API_VERSION);
        return NULL;
    }
    if (!e->name || !e->setup || !e->launches || !e->check) {
        fail("%s: MCM_PROGRAM needs a name and the three functions setup, launches and check", source);
        return NULL;
    }
    return e;
}

/* What the child needs: the file, its object, the point. */
typedef struct user_point {
    char source[1024], so[1200];
    const vars *params;
    machine m;
} user_point;

/* The exec process's body: load the object, run its phases race-free. */
static int run_program(void *ctx, exec_whereabouts *where)
{
    const user_point *u = ctx;
    here = where;
    const mcm_program_entry *e = load(u->source, u->so);
    if (!e)
        return -1;
    exec_run *run = exec_process_run(e->name);
    exec_set_race_free(run, 1);
    if (run_phases(e, u->params, &u->m, run) < 0) {
        char why[4096];
        snprintf(why, sizeof why, "%s", fail_message());
        return fail("%s, in its %s: %s", u->source, phase_names[here->phase], why);
    }
    return 0;
}

/* ---- the parent ------------------------------------------------------------------ */

int user_program_start(exec_process *x, const char *source, const vars *params, const machine *m, int threads)
{
    user_point *u = calloc(1, sizeof *u);
    if (user_program_compile(source, u->so, sizeof u->so) < 0) {
        free(u);
        return -1;
    }
    snprintf(u->source, sizeof u->source, "%s", source);
    u->params = params;
    u->m = *m;
    return exec_process_start(x, source, phase_names, run_program, u, m, threads);
}

kernel_dag *user_program_build(const char *source, const vars *params, const machine *m)
{
    exec_process x;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    if (user_program_start(&x, source, params, m, cores < 1 ? 1 : cores > 64 ? 64 : (int)cores) < 0)
        return NULL;
    return exec_process_finish(&x, NULL);
}
