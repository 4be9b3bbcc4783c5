/*
 * user_program.c — a program from the user's own C file (see
 * user_program.h): compile it, run it in exec mode in a child process,
 * bring its kernel DAG back.  Also the host side of sim/exec/mcm_kernel.h (the
 * mcm_* functions a user program calls), which runs in that child.
 *
 * The story of one point: the parent hashes the file with the headers and
 * the compiler's command, and compiles it into the cache unless the object
 * is there (a temporary name, renamed when whole).  It starts an exec
 * process (exec_process.h); the child closes what it inherited and enters
 * the filter (user_filter.h), loads the object, tightens the filter,
 * checks its entry point `mcm_program` and its API version, and runs the
 * program's three phases on a race-free exec run: setup, launches, check.
 * The parent receives the measured DAG, or why there is none: the
 * program's own message, the call the filter refused, or the signal that
 * ended the child, with the phase and kernel it was in.
 */
#include "user_program.h"
#include "exec.h"
#include "fail.h"
#include "lifetime.h"
#include "mcm_kernel.h"
#include "stream.h"
#include "user_filter.h"

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

/* ---- compiling ------------------------------------------------------------ */

const char *user_program_datadir(void)
{
    const char *env = getenv("MCMSIM_DATADIR");
    return env && *env ? env : MCMSIM_DATADIR;
}

static const char *compiler(void)
{
    const char *env = getenv("MCMSIM_CC");
    return env && *env ? env : "cc";
}

static void hash_bytes(const char *bytes, size_t n, uint64_t *h)
{
    for (size_t i = 0; i < n; i++)
        *h = (*h ^ (uint64_t)(unsigned char)bytes[i]) * 0x100000001b3ull;
}

static void hash_text(const char *text, uint64_t *h) { hash_bytes(text, strlen(text) + 1, h); }

/* A file's bytes into *h; -1 if it cannot be read. */
static int hash_file(const char *path, uint64_t *h)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    char buf[65536];
    size_t got;
    while ((got = fread(buf, 1, sizeof buf, f)) > 0)
        hash_bytes(buf, got, h);
    fclose(f);
    return 0;
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

/* The compiler of a counted build (sim/exec/stream.h): clang, whatever cc is. */
static const char *clang(void)
{
    const char *env = getenv("MCMSIM_CLANG");
    return env && *env ? env : "clang";
}

/* Run a compiler (argv); its messages go to our stderr as they are, its
 * output (when `hash` is given: a preprocessed text) into *hash. */
static int run_tool(const char *source, char *const argv[], uint64_t *hash)
{
    const char *cc = argv[0];
    int fds[2] = {-1, -1};
    if (hash && pipe(fds) < 0)
        return fail("%s: cannot start the compiler: %s", source, strerror(errno));
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        if (hash) {
            close(fds[0]);
            close(fds[1]);
        }
        return fail("%s: cannot start the compiler: %s", source, strerror(errno));
    }
    if (pid == 0) {
        lifetime_child_start(getppid());
        if (hash) {
            dup2(fds[1], STDOUT_FILENO);
            close(fds[0]);
            close(fds[1]);
        }
        execvp(cc, (char **)argv);
        fprintf(stderr, "mcmsim: cannot run the compiler '%s': %s\n", cc, strerror(errno));
        _exit(127);
    }
    lifetime_watch(pid);
    if (hash) {
        close(fds[1]);
        char buf[65536];
        ssize_t got;
        while ((got = read(fds[0], buf, sizeof buf)) != 0)
            if (got > 0)
                hash_bytes(buf, (size_t)got, hash);
            else if (errno != EINTR)
                break;
        close(fds[0]);
    }
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    lifetime_unwatch(pid);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return 0;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
        return fail("%s: cannot compile: the compiler '%s' could not be run (install it, or set %s)", source, cc,
                    strcmp(cc, clang()) == 0 ? "MCMSIM_CLANG" : "MCMSIM_CC");
    return fail("%s: does not compile (%s exited with status %d; its messages, above, name the lines)", source,
                cc, WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

/* The include folders a user program is compiled with: mcmsim's; the
 * file's own folder comes first for its "quoted" includes, as always. */
typedef struct include_flags {
    char exec[1100], model[1100], machine[1100];
} include_flags;

static void include_flags_of(include_flags *inc)
{
    snprintf(inc->exec, sizeof inc->exec, "-I%s/sim/exec", user_program_datadir());
    snprintf(inc->model, sizeof inc->model, "-I%s/sim/model", user_program_datadir());
    snprintf(inc->machine, sizeof inc->machine, "-I%s/machine", user_program_datadir());
}

/* A plain build's flags (in its cache key).  MCM_EXEC_INLINE: the
 * accesses' common case compiled into the kernel (sim/exec/exec_block.h,
 * which the preprocessed text then holds: a change to it compiles the
 * kernel anew); -fno-plt: the rest called through the GOT at once, not
 * through the PLT's jump. */
#define PLAIN_DEFINES "-DMCM_EXEC_INLINE"
#define PLAIN_FLAGS "-std=c11", "-O2", "-g", "-fPIC", "-fno-plt", PLAIN_DEFINES, "-shared", "-Wall"
static const char *const plain_flags[] = {PLAIN_FLAGS, NULL};

/* The file as the compiler sees it (preprocessed, with the build's
 * defines: the file, every header it includes, and where they are),
 * hashed into *hash. */
static int hash_preprocessed(const char *source, int counted, uint64_t *hash)
{
    include_flags inc;
    include_flags_of(&inc);
    char *argv[] = {(char *)(counted ? clang() : compiler()), "-std=c11", "-E", counted ? "-DMCM_COUNTED" : PLAIN_DEFINES,
                    inc.exec, inc.model, inc.machine, (char *)source, NULL};
    return run_tool(source, argv, hash);
}

/* The file into the shared object `out`, by cc. */
static int run_compiler(const char *source, const char *out)
{
    include_flags inc;
    include_flags_of(&inc);
    char *argv[] = {(char *)compiler(), PLAIN_FLAGS, inc.exec, inc.model, inc.machine, "-o", (char *)out,
                    (char *)source, NULL};
    return run_tool(source, argv, NULL);
}

/* The IR of the accesses and Z/pZ operations (sim/exec/counted_accesses.c)
 * into `out`, for a counted build's link.  Initial-exec TLS: the stream's
 * running counter (stream.h) is mcmsim's, in its static TLS. */
static int run_accesses_ir(const char *source, const char *out)
{
    include_flags inc;
    include_flags_of(&inc);
    char accesses[1100];
    snprintf(accesses, sizeof accesses, "%s/sim/exec/counted_accesses.c", user_program_datadir());
    char *argv[] = {(char *)clang(), "-std=c11", "-O2", "-fPIC", "-ftls-model=initial-exec", "-Wall", "-S",
                    "-emit-llvm", inc.exec, inc.model, inc.machine, "-o", (char *)out, accesses, NULL};
    return run_tool(source, argv, NULL);
}

/* The file into the shared object `out` with its instruction stream
 * counted (sim/exec/stream.h): clang to IR with a call in every basic block,
 * the blocks numbered and weighed (stream_annotate), the IR to `out`,
 * linked with the accesses' IR (run_accesses_ir) so that their calls are
 * inlined (-flto: the linker's LLVM plugin, LLVMgold.so, which Debian's
 * clang brings): the weights are the annotated IR's, made before the link. */
static int run_counted_compiler(const char *source, const char *out)
{
    include_flags inc;
    include_flags_of(&inc);
    char ir[1300], counted[1300], accesses[1300];
    snprintf(ir, sizeof ir, "%s.ll", out);
    snprintf(counted, sizeof counted, "%s.counted.ll", out);
    snprintf(accesses, sizeof accesses, "%s.accesses.ll", out);
    char *argv[32];
    int n = 0;
    argv[n++] = (char *)clang();
    argv[n++] = "-std=c11";
    for (int i = 0; stream_clang_flags[i]; i++)
        argv[n++] = (char *)stream_clang_flags[i];
    char *rest[] = {"-fPIC", "-Wall", inc.exec, inc.model, inc.machine, "-o", ir, (char *)source, NULL};
    for (int i = 0; rest[i]; i++)
        argv[n++] = rest[i];
    argv[n] = NULL;
    lifetime_remove_on_signal(ir);
    lifetime_remove_on_signal(counted);
    lifetime_remove_on_signal(accesses);
    int rc = run_tool(source, argv, NULL);
    if (rc == 0) {
        FILE *in = fopen(ir, "r"), *to = fopen(counted, "w");
        rc = in && to ? stream_annotate(in, ir, to) : fail("%s: cannot write %s: %s", source, counted, strerror(errno));
        if (in)
            fclose(in);
        if (to && fclose(to) != 0 && rc == 0)
            rc = fail("%s: cannot write %s", source, counted);
    }
    if (rc == 0)
        rc = run_accesses_ir(source, accesses);
    if (rc == 0) {
        char *link[] = {(char *)clang(), "-O2", "-fPIC", "-shared", "-flto", "-o", (char *)out,
                        counted, accesses, NULL};
        rc = run_tool(source, link, NULL);
    }
    unlink(ir);
    unlink(counted);
    unlink(accesses);
    lifetime_forget(ir);
    lifetime_forget(counted);
    lifetime_forget(accesses);
    return rc;
}

/* A counted build's cache key covers its table of weights too: the
 * sources that weigh it, and the running program itself, whose
 * stream_annotate weighs it (a program built before an edit to those
 * sources weighs as they were, so its objects must not be taken for the
 * edited sources' ones); and the accesses linked into it (run_accesses_ir)
 * with the headers they are made of. */
static const char *const counted_sources[] = {
    "sim/exec/stream.h",          "sim/exec/stream_ir.h",        "sim/exec/stream_ir.c",
    "sim/exec/stream_ir_read.c",  "sim/exec/stream_ir_flow.c",   "sim/exec/stream_ir_values.c",
    "sim/exec/stream_ir_inst.c",  "sim/exec/stream_ir_fused.c",  "sim/exec/stream_ir_calls.c",
    "sim/exec/stream_ir_chain.c", "sim/exec/stream_ir_loops.c",  "sim/exec/stream_ir_branches.c",
    "sim/exec/stream_ir_args.c",  "sim/exec/counted_accesses.c", "sim/exec/exec_block.h",
    "sim/exec/cache.h",           "sim/exec/exec.h",             NULL};

/* The hash of the running program's file, read once; -1 if unreadable. */
static int hash_self(uint64_t *h)
{
    static uint64_t self;
    static int known; /* 0: not read yet, 1: read, -1: unreadable */
    if (known == 0) {
        self = 0xcbf29ce484222325ull;
        known = hash_file("/proc/self/exe", &self) == 0 ? 1 : -1;
    }
    if (known < 0)
        return -1;
    hash_bytes((const char *)&self, sizeof self, h);
    return 0;
}

/* The builds this process has made or found: one per file as it is
 * (its folder, number, size and time of change), build (plain or counted,
 * compiler, mcmsim's folder, cache folder), whose object is still there.
 * A sweep's or make validate's later points of a file take its first
 * point's object without preprocessing the file again (a compiler's run
 * and a fork of this process each time: validate/notes/instruction-stream.md,
 * session 46); an edit to the file itself is a new entry, one to a header
 * it includes is seen by the next process.  Only the parent's one thread
 * compiles (exec_process.c), so the table takes no lock. */
#define BUILDS_KNOWN 64
typedef struct build_known {
    char key[3300], so[1100];
} build_known;
static build_known builds_known[BUILDS_KNOWN];
static int n_builds_known;

/* The entry's key of `source` as it is now; 0 if it cannot be made. */
static int build_key(const char *source, int counted, const char *dir, char *key, size_t size)
{
    struct stat st;
    if (stat(source, &st) != 0)
        return 0;
    int n = snprintf(key, size, "%s|%d|%s|%s|%s|%lld|%lld|%lld|%lld.%09ld", source, counted,
                     counted ? clang() : compiler(), user_program_datadir(), dir, (long long)st.st_dev,
                     (long long)st.st_ino, (long long)st.st_size, (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
    return n > 0 && (size_t)n < size;
}

static int build_found(const char *key, char *so, size_t size)
{
    for (int i = 0; i < n_builds_known; i++)
        if (strcmp(builds_known[i].key, key) == 0 && access(builds_known[i].so, R_OK) == 0) {
            snprintf(so, size, "%s", builds_known[i].so);
            return 1;
        }
    return 0;
}

static void build_keep(const char *key, const char *so)
{
    if (n_builds_known == BUILDS_KNOWN)
        return;
    snprintf(builds_known[n_builds_known].key, sizeof builds_known[0].key, "%s", key);
    snprintf(builds_known[n_builds_known++].so, sizeof builds_known[0].so, "%s", so);
}

/* The cache key is the hash of the file as the compiler sees it and of
 * the build (compiler, plain or counted, mcmsim's folder); so an edit to
 * anything the file includes, its own headers beside it too, compiles it
 * anew (in a later process: within one, a file's first object serves
 * while the file itself is unchanged, build_found). */
int user_program_compile_as(const char *source, int counted, char *so, size_t size)
{
    struct stat st;
    if (stat(source, &st) == 0 && S_ISDIR(st.st_mode))
        return fail("%s: is a folder, not a C file (program = { source = \"my_kernel.c\"; } names the program's "
                    "file)", source);
    if (stat(source, &st) == 0 && !S_ISREG(st.st_mode))
        return fail("%s: is not a regular file, so not a C file to compile", source);
    if (access(source, R_OK) != 0)
        return fail("%s: cannot read the program's source: %s", source, strerror(errno));
    char path[1100];
    snprintf(path, sizeof path, "%s/sim/exec/mcm_kernel.h", user_program_datadir());
    if (access(path, R_OK) != 0)
        return fail("cannot read %s, the header user programs are compiled against: %s (is MCMSIM_DATADIR "
                    "the mcmsim source folder?)", path, strerror(errno));
    char dir[1024], key[3300];
    if (cache_dir(dir, sizeof dir) < 0)
        return -1;
    int keyed = build_key(source, counted, dir, key, sizeof key);
    if (keyed && build_found(key, so, size))
        return 0;
    uint64_t h = 0xcbf29ce484222325ull;
    if (hash_preprocessed(source, counted, &h) < 0)
        return -1;
    for (int i = 0; counted && counted_sources[i]; i++) {
        snprintf(path, sizeof path, "%s/%s", user_program_datadir(), counted_sources[i]);
        if (hash_file(path, &h) < 0)
            return fail("cannot read %s, which weighs a counted build: %s (is MCMSIM_DATADIR the mcmsim source "
                        "folder?)", path, strerror(errno));
    }
    if (counted && hash_self(&h) < 0)
        return fail("cannot read /proc/self/exe, the program that weighs a counted build: %s", strerror(errno));
    hash_text(counted ? clang() : compiler(), &h);
    hash_text(counted ? "counted" : "plain", &h);
    for (int i = 0; !counted && plain_flags[i]; i++)
        hash_text(plain_flags[i], &h);
    hash_text(user_program_datadir(), &h);
    snprintf(so, size, "%s/%016llx.so", dir, (unsigned long long)h);
    if (access(so, R_OK) == 0) {
        if (keyed)
            build_keep(key, so);
        return 0;
    }
    char part[1200];
    snprintf(part, sizeof part, "%s.%d.part", so, (int)getpid());
    lifetime_remove_on_signal(part);
    int rc = counted ? run_counted_compiler(source, part) : run_compiler(source, part);
    if (rc == 0 && rename(part, so) != 0)
        rc = fail("cannot write %s: %s", so, strerror(errno));
    if (rc == 0 && keyed)
        build_keep(key, so);
    unlink(part);
    lifetime_forget(part);
    return rc;
}

int user_program_compile(const char *source, char *so, size_t size)
{
    return user_program_compile_as(source, 0, so, size);
}

/* ---- the host side of mcm_kernel.h (in the child) --------------------------- */

enum { PHASE_LOAD, PHASE_SETUP, PHASE_LAUNCHES, PHASE_CHECK };
static const char *const phase_names[] = {"loading", "setup", "launches", "check"};

struct mcm_params {
    const vars *params;
    uint64_t seed;
    int input, inputs; /* mcm_input: which input setup makes, of how many (0: not said) */
};

static exec_whereabouts *here; /* in the child: where it is (exec_process.h) */
static int misused;            /* an mcm_set/get out of place: failed already */

double mcm_param(const mcm_params *p, const char *name, double fallback)
{
    const double *v = vars_get(p->params, name);
    return v ? *v : fallback;
}

uint64_t mcm_seed(const mcm_params *p) { return p->seed; }

int mcm_input(const mcm_params *p, int inputs)
{
    mcm_params *point = (mcm_params *)p; /* the child's own, in run_phases */
    if (misused)
        return 0;
    if (inputs < 1 || inputs > MCM_INPUTS_MAX)
        misused = fail("mcm_input(p, %d): a program checks 1 to %d inputs", inputs, MCM_INPUTS_MAX);
    else if (here->phase != PHASE_SETUP)
        misused = fail("mcm_input in %s: setup says how many inputs it checks", phase_names[here->phase]);
    else if (point->inputs && point->inputs != inputs)
        misused = fail("mcm_input: setup said %d inputs for input 0 and %d for input %d: the count may depend "
                       "on the params only", point->inputs, inputs, point->input);
    else
        point->inputs = inputs;
    return point->input;
}

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
    a->cells[i] = (mem_word)v;
}

word mcm_get(gmem a, long i) { return host_access(a, i, PHASE_CHECK, "mcm_get") ? a->cells[i] : 0; }

/* A launch of k whose steps are `steps` (k's own list, or its looped step
 * `steps` times, or the steps its schedule lists, t->step in step i
 * numbers[i]: else NULL). */
static int launch(exec_run *run, const mcm_kernel *k, const exec_step *steps, const int *numbers, int n_steps,
                  long blocks, int threads, long private_words, void *args)
{
    if (here->phase != PHASE_LAUNCHES)
        return misused ? -1 : (misused = fail("mcm_launch of kernel '%s' in %s: kernels are launched in launches",
                                              k->name, phase_names[here->phase]));
    exec_kernel launched = {k->name, n_steps, steps, private_words};
    return exec_launch_numbered(run, &launched, numbers, blocks, threads, args);
}

/* The steps a schedule lists (MCM_KERNEL_SCHEDULE), each with its t->step. */
typedef struct mcm_steps_record {
    exec_step *steps;
    int *numbers;
    int n, cap;
} mcm_steps_record;

void mcm_step(mcm_schedule *s, exec_step step, int k)
{
    mcm_steps_record *r = s->record;
    if (r->n == MCM_STEPS_MAX) {
        r->n++; /* too many: the launch says so */
        return;
    }
    if (r->n > MCM_STEPS_MAX)
        return;
    if (r->n == r->cap) {
        r->cap = r->cap ? 2 * r->cap : 64;
        r->steps = realloc(r->steps, sizeof *r->steps * (size_t)r->cap);
        r->numbers = realloc(r->numbers, sizeof *r->numbers * (size_t)r->cap);
    }
    r->steps[r->n] = step;
    r->numbers[r->n++] = k;
}

static int launch_scheduled(exec_run *run, const mcm_kernel *k, long blocks, int threads, long private_words,
                            void *args)
{
    mcm_steps_record record = {NULL, NULL, 0, 0};
    mcm_schedule s = {threads, blocks, &record};
    k->schedule(&s, args);
    int rc;
    if (record.n < 1 || record.n > MCM_STEPS_MAX) {
        rc = fail("kernel '%s': its schedule lists %s%d steps, outside 1 .. %d (one mcm_step per step)", k->name,
                  record.n > MCM_STEPS_MAX ? "more than " : "", record.n > MCM_STEPS_MAX ? MCM_STEPS_MAX : record.n,
                  MCM_STEPS_MAX);
    } else {
        rc = launch(run, k, record.steps, record.numbers, record.n, blocks, threads, private_words, args);
    }
    free(record.steps);
    free(record.numbers);
    return rc;
}

int mcm_launch(exec_run *run, const mcm_kernel *k, long blocks, int threads, long private_words, void *args)
{
    if (k->looped)
        return fail("mcm_launch of kernel '%s': a kernel of MCM_KERNEL_LOOP is launched with mcm_launch_steps, "
                    "which says how many times its step runs", k->name);
    if (k->schedule)
        return launch_scheduled(run, k, blocks, threads, private_words, args);
    return launch(run, k, k->steps, NULL, k->n_steps, blocks, threads, private_words, args);
}

int mcm_launch_steps(exec_run *run, const mcm_kernel *k, int steps, long blocks, int threads, long private_words,
                     void *args)
{
    if (!k->looped)
        return fail("mcm_launch_steps of kernel '%s': its steps are its %s (launch it with mcm_launch); "
                    "mcm_launch_steps is for a kernel of MCM_KERNEL_LOOP", k->name,
                    k->schedule ? "MCM_KERNEL_SCHEDULE's schedule" : "MCM_KERNEL list");
    if (steps < 1 || steps > MCM_STEPS_MAX)
        return fail("mcm_launch_steps of kernel '%s': %d steps, outside 1 .. %d", k->name, steps, MCM_STEPS_MAX);
    exec_step *repeated = malloc(sizeof *repeated * (size_t)steps);
    for (int i = 0; i < steps; i++)
        repeated[i] = k->steps[0];
    int rc = launch(run, k, repeated, NULL, steps, blocks, threads, private_words, args);
    free(repeated);
    return rc;
}

/* ---- the child: load, run ------------------------------------------------------ */

/* The program's phases on input p->input; 0, or -1 with fail(). */
static int run_input(const mcm_program_entry *e, mcm_params *p, exec_run *run)
{
    here->input = p->input;
    here->phase = PHASE_SETUP;
    if (e->setup(run, p) < 0 || misused)
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

/* Input 0 on `run`, whose DAG the parent receives; then each other input
 * the program checks (mcm_input) on a run of its own, measured for
 * nothing. */
static int run_phases(const mcm_program_entry *e, const vars *params, const machine *m, exec_run *run,
                      int further_inputs)
{
    mcm_params p = {params, m->seed, 0, 0};
    if (run_input(e, &p, run) < 0)
        return -1;
    for (p.input = 1; further_inputs && p.input < p.inputs; p.input++) {
        exec_run *more = exec_process_extra_run(e->name);
        exec_set_race_free(more, 1);
        int rc = run_input(e, &p, more);
        exec_end(more);
        if (rc < 0)
            return -1;
    }
    here->input = 0;
    return 0;
}

/* The program's entry point, and in *table the weights of its basic
 * blocks when it is a counted build (sim/exec/stream.h; else 0 blocks). */
static const mcm_program_entry *load(const char *source, const char *so, stream_table *table)
{
    void *handle = dlopen(so, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        fail("%s: cannot load its compiled object: %s", source, dlerror());
        return NULL;
    }
    const mcm_program_entry *e = dlsym(handle, "mcm_program");
    if (!e) {
        fail("%s: no entry point: the file must end with MCM_PROGRAM(\"name\", setup, launches, check); "
             "(sim/exec/mcm_kernel.h)", source);
        return NULL;
    }
    if (e->api_version < 1 || e->api_version > MCM_API_VERSION) {
        fail("%s: built for version %d of sim/exec/mcm_kernel.h; this mcmsim runs versions 1 to %d", source,
             e->api_version, MCM_API_VERSION);
        return NULL;
    }
    if (!e->name || !e->setup || !e->launches || !e->check) {
        fail("%s: MCM_PROGRAM needs a name and the three functions setup, launches and check", source);
        return NULL;
    }
    const int32_t *blocks = dlsym(handle, "mcm_stream_blocks");
    table->weight = dlsym(handle, "mcm_stream_table");
    table->chain_reads = dlsym(handle, "mcm_stream_chain_reads");
    table->constants = dlsym(handle, "mcm_stream_constants");
    table->blocks = blocks && table->weight ? *blocks : 0;
    return e;
}

/* What the child needs: the file, its object, the point. */
typedef struct user_point {
    char source[1024], so[1200];
    const vars *params;
    machine m;
    int further_inputs; /* check the inputs after input 0 (mcm_input) */
} user_point;

/* The exec process's body: enter the filter, load the object, tighten
 * the filter, run the program's phases race-free. */
static int run_program(void *ctx, exec_whereabouts *where)
{
    const user_point *u = ctx;
    here = where;
    if (user_filter_begin(exec_process_pipe(), &where->refused) < 0)
        return -1;
    static stream_table table;
    const mcm_program_entry *e = load(u->source, u->so, &table);
    if (!e || user_filter_tighten(exec_process_pipe()) < 0)
        return -1;
    exec_run *run = exec_process_run(e->name);
    exec_set_race_free(run, 1);
    if (table.blocks > 0)
        exec_set_stream(run, &table);
    if (run_phases(e, u->params, &u->m, run, u->further_inputs) < 0) {
        char why[4096];
        snprintf(why, sizeof why, "%s", fail_message());
        char input[32] = "";
        if (here->input > 0)
            snprintf(input, sizeof input, " of input %d", here->input);
        return fail("%s, in its %s%s: %s", u->source, phase_names[here->phase], input, why);
    }
    return 0;
}

/* ---- the parent ------------------------------------------------------------------ */

int user_program_start(exec_process *x, const char *source, const vars *params, const machine *m, int threads)
{
    return user_program_start_inputs(x, source, params, m, threads, 1);
}

int user_program_start_inputs(exec_process *x, const char *source, const vars *params, const machine *m, int threads,
                              int further_inputs)
{
    user_point *u = calloc(1, sizeof *u);
    if (user_program_compile_as(source, m->issue_rate > 0, u->so, sizeof u->so) < 0) {
        free(u);
        return -1;
    }
    snprintf(u->source, sizeof u->source, "%s", source);
    u->params = params;
    u->m = *m;
    u->further_inputs = further_inputs;
    return exec_process_start(x, source, phase_names, run_program, u, m, threads);
}

void exec_result_free(exec_result *r)
{
    kernel_dag_free(r->dag);
    free(r->reports);
    *r = (exec_result){0};
}

int user_program_run(const char *source, const vars *params, const machine *m, exec_result *out)
{
    *out = (exec_result){0};
    exec_process x;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    if (user_program_start(&x, source, params, m, cores < 1 ? 1 : cores > 64 ? 64 : (int)cores) < 0)
        return -1;
    out->dag = exec_process_finish(&x, &out->reports);
    return out->dag ? 0 : -1;
}

kernel_dag *user_program_build(const char *source, const vars *params, const machine *m)
{
    exec_result r;
    if (user_program_run(source, params, m, &r) < 0)
        return NULL;
    free(r.reports);
    return r.dag;
}
