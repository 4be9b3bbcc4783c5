/*
 * user_filter.c — the exec-mode child's seccomp filter (see user_filter.h).
 */
#define _GNU_SOURCE /* siginfo's si_syscall, ucontext's registers, dl_iterate_phdr */
#include "user_filter.h"
#include "fail.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <malloc.h>
#include <sched.h>
#include <seccomp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <linux/seccomp.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

#ifdef MCM_SANITIZE
#include <link.h>
#include <sanitizer/asan_interface.h>
#endif

static volatile long *refused_at; /* in the child: on the page the parent shares */

/* Argument n of a call, compared as the kernel reads it: an int (fd, pid,
 * operation) on its low 32 bits, flags under a mask. */
#define INT_ARG_IS(n, v) SCMP_CMP64(n, SCMP_CMP_MASKED_EQ, 0xFFFFFFFFu, (scmp_datum_t)(uint32_t)(v))
#define ARG_HAS(n, mask, v) SCMP_CMP64(n, SCMP_CMP_MASKED_EQ, (scmp_datum_t)(mask), (scmp_datum_t)(v))
/* The first real-time signals, which glibc keeps for its threads
 * (SIGCANCEL, SIGSETXID: the first pthread_create installs their
 * handlers); SIGRTMIN is the first one it leaves to programs. */
#define SIGRTMIN_GLIBC 32
#define ARG_IS(n, v) SCMP_CMP64(n, SCMP_CMP_EQ, (scmp_datum_t)(v), 0)

/* ---- the sanitizers' own calls ---------------------------------------------- */

#ifdef MCM_SANITIZE
/* The code of the sanitizer runtimes (GCC's libasan and libubsan are
 * shared objects), found before the filter. */
static struct { uintptr_t lo, hi; } runtime[8];
static int n_runtime;

static int note_runtime(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    (void)data;
    if (!strstr(info->dlpi_name, "libasan") && !strstr(info->dlpi_name, "libubsan"))
        return 0;
    for (int i = 0; i < info->dlpi_phnum && n_runtime < 8; i++)
        if (info->dlpi_phdr[i].p_type == PT_LOAD && (info->dlpi_phdr[i].p_flags & PF_X)) {
            runtime[n_runtime].lo = info->dlpi_addr + info->dlpi_phdr[i].p_vaddr;
            runtime[n_runtime].hi = runtime[n_runtime].lo + info->dlpi_phdr[i].p_memsz;
            n_runtime++;
        }
    return 0;
}

/* A call the sanitizer runtime makes: from its own code, or any while
 * AddressSanitizer is reporting an error. */
static int sanitizer_call(const siginfo_t *info)
{
    uintptr_t at = (uintptr_t)info->si_call_addr;
    for (int i = 0; i < n_runtime; i++)
        if (at >= runtime[i].lo && at < runtime[i].hi)
            return 1;
    return __asan_report_present();
}
#endif

/* ---- the handler ------------------------------------------------------------- */

static void on_refused(int sig, siginfo_t *info, void *context)
{
    (void)sig;
    (void)context;
#if defined(MCM_SANITIZE) && defined(__x86_64__)
    if (sanitizer_call(info)) { /* the call fails; the runtime goes on with its report */
        ((ucontext_t *)context)->uc_mcontext.gregs[REG_RAX] = -EPERM;
        return;
    }
#endif
    *refused_at = 1 + info->si_syscall;
    syscall(SYS_exit_group, 126); /* not _exit: a sanitizer's _exit makes calls of its own */
}

/* ---- the two layers ---------------------------------------------------------- */

/* What both layers allow: memory, the report pipe and stderr, the child's
 * own signals, locks, clocks, threads of its own, exit.  `anonymous`:
 * mappings of memory only (the loading layer maps the object's file). */
static int allow_computing(scmp_filter_ctx f, int pipe_fd, int anonymous)
{
    const int calls[] = {SCMP_SYS(munmap), SCMP_SYS(mremap), SCMP_SYS(brk), SCMP_SYS(mprotect), SCMP_SYS(madvise),
                         SCMP_SYS(exit), SCMP_SYS(exit_group), SCMP_SYS(rt_sigreturn), SCMP_SYS(rt_sigprocmask),
                         SCMP_SYS(sigaltstack), SCMP_SYS(futex), SCMP_SYS(sched_yield), SCMP_SYS(getpid),
                         SCMP_SYS(gettid), SCMP_SYS(clock_gettime),
                         SCMP_SYS(sysinfo) /* glibc's qsort asks how much memory there is */,
                         SCMP_SYS(set_robust_list), SCMP_SYS(rseq) /* a new thread registers them */,
                         SCMP_SYS(sched_getaffinity) /* pthread_getattr_np (AddressSanitizer's threads ask) */};
    int rc = 0;
    for (size_t i = 0; i < sizeof calls / sizeof *calls && rc == 0; i++)
        rc = seccomp_rule_add(f, SCMP_ACT_ALLOW, calls[i], 0);
    if (rc == 0)
        rc = anonymous ? seccomp_rule_add(f, SCMP_ACT_ALLOW, SCMP_SYS(mmap), 1, ARG_HAS(3, MAP_ANONYMOUS, MAP_ANONYMOUS))
                       : seccomp_rule_add(f, SCMP_ACT_ALLOW, SCMP_SYS(mmap), 0);
    if (rc == 0)
        rc = seccomp_rule_add(f, SCMP_ACT_ALLOW, SCMP_SYS(write), 1, INT_ARG_IS(0, pipe_fd));
    if (rc == 0)
        rc = seccomp_rule_add(f, SCMP_ACT_ALLOW, SCMP_SYS(write), 1, INT_ARG_IS(0, STDERR_FILENO));
    if (rc == 0) /* isatty(2): the sanitizers' choice of colours */
        rc = seccomp_rule_add(f, SCMP_ACT_ALLOW, SCMP_SYS(ioctl), 2, INT_ARG_IS(0, STDERR_FILENO), ARG_IS(1, TCGETS));
    if (rc == 0) /* abort() and raise() signal the child itself */
        rc = seccomp_rule_add(f, SCMP_ACT_ALLOW, SCMP_SYS(tgkill), 1, INT_ARG_IS(0, getpid()));
    if (rc == 0) /* exec mode's threads (a launch's workers): a clone that makes a thread, not a process */
        rc = seccomp_rule_add(f, SCMP_ACT_ALLOW, SCMP_SYS(clone), 1, ARG_HAS(0, CLONE_THREAD, CLONE_THREAD));
    if (rc == 0) /* clone3's flags are in memory, out of the filter's sight: glibc falls back to clone */
        rc = seccomp_rule_add(f, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0);
    for (int sig = SIGRTMIN_GLIBC; sig <= SIGRTMIN_GLIBC + 1 && rc == 0; sig++) /* glibc's first thread sets */
        rc = seccomp_rule_add(f, SCMP_ACT_ALLOW, SCMP_SYS(rt_sigaction), 1, INT_ARG_IS(0, sig)); /* SIGCANCEL, SIGSETXID */
    return rc;
}

/* What the loader needs to map the object: files opened for reading,
 * read, looked at and closed. */
static int allow_loading(scmp_filter_ctx f)
{
    const int calls[] = {SCMP_SYS(read), SCMP_SYS(pread64), SCMP_SYS(close), SCMP_SYS(fstat),
                         SCMP_SYS(newfstatat), SCMP_SYS(lseek)};
    int rc = 0;
    for (size_t i = 0; i < sizeof calls / sizeof *calls && rc == 0; i++)
        rc = seccomp_rule_add(f, SCMP_ACT_ALLOW, calls[i], 0);
    if (rc == 0)
        rc = seccomp_rule_add(f, SCMP_ACT_ALLOW, SCMP_SYS(openat), 1,
                              ARG_HAS(2, O_ACCMODE | O_CREAT | O_TRUNC | O_APPEND, O_RDONLY));
    if (rc == 0) /* the running layer, added on top: a filter only ever narrows */
        rc = seccomp_rule_add(f, SCMP_ACT_ALLOW, SCMP_SYS(seccomp), 1, INT_ARG_IS(0, SECCOMP_SET_MODE_FILTER));
    return rc;
}

static int install(int pipe_fd, int loading)
{
    scmp_filter_ctx f = seccomp_init(SCMP_ACT_TRAP);
    if (!f)
        return fail("cannot contain the program: seccomp is not available");
    /* the loading layer set no_new_privs, which the running layer keeps */
    int rc = loading ? 0 : seccomp_attr_set(f, SCMP_FLTATR_CTL_NNP, 0);
    if (rc == 0)
        rc = allow_computing(f, pipe_fd, !loading);
    if (rc == 0 && loading)
        rc = allow_loading(f);
    if (rc == 0)
        rc = seccomp_load(f);
    seccomp_release(f);
    if (rc < 0)
        return fail("cannot contain the program: its seccomp filter was refused (%s); exec mode runs a user's code "
                    "only inside it", strerror(-rc));
    return 0;
}

/* Every file the child inherited but 0, 1, 2 and its pipe. */
static void close_inherited(int pipe_fd)
{
    if (pipe_fd > 3)
        syscall(SYS_close_range, 3u, (unsigned)pipe_fd - 1, 0u);
    syscall(SYS_close_range, (unsigned)pipe_fd + 1, ~0u, 0u);
}

int user_filter_begin(int pipe_fd, volatile long *refused)
{
    close_inherited(pipe_fd);
    /* no trimming of malloc's heaps: a worker thread's heap, trimmed, would
     * read /proc/sys/vm/overcommit_memory (glibc), a file */
    mallopt(M_TRIM_THRESHOLD, INT_MAX);
    refused_at = refused;
    *refused = 0;
#ifdef MCM_SANITIZE
    dl_iterate_phdr(note_runtime, NULL);
#endif
    struct sigaction on = {0};
    on.sa_sigaction = on_refused;
    on.sa_flags = SA_SIGINFO;
    if (sigaction(SIGSYS, &on, NULL) < 0)
        return fail("cannot contain the program: %s", strerror(errno));
    return install(pipe_fd, 1);
}

int user_filter_tighten(int pipe_fd) { return install(pipe_fd, 0); }

/* ---- in the parent: the call, in words -------------------------------------- */

static const struct {
    const char *calls; /* " name name ... " */
    const char *words;
} kinds[] = {
    {" open openat openat2 creat open_by_handle_at ", "open a file"},
    {" read pread64 readv preadv preadv2 ", "read a file"},
    {" write pwrite64 writev pwritev pwritev2 sendfile ", "write to a file"},
    {" fork vfork clone clone3 ", "start a process"},
    {" execve execveat ", "run a program"},
    {" socket socketpair connect bind listen accept accept4 sendto sendmsg recvfrom recvmsg ", "use the network"},
    {" unlink unlinkat rename renameat renameat2 mkdir mkdirat rmdir link linkat symlink symlinkat truncate "
     "ftruncate chmod fchmod fchmodat chown fchown fchownat ", "change a file"},
    {" stat fstat lstat newfstatat statx access faccessat faccessat2 readlink readlinkat getdents64 ",
     "look at a file"},
    {" kill tkill tgkill ptrace process_vm_readv process_vm_writev ", "reach another process"},
    {" rt_sigaction ", "change how it takes signals"},
};

const char *user_filter_describe(long refused, char *out, size_t size)
{
    char *name = seccomp_syscall_resolve_num_arch(SCMP_ARCH_NATIVE, (int)(refused - 1));
    char padded[80];
    snprintf(padded, sizeof padded, " %s ", name ? name : "?");
    const char *words = "make a system call";
    for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++)
        if (strstr(kinds[i].calls, padded))
            words = kinds[i].words;
    if (name)
        snprintf(out, size, "%s (%s)", words, name);
    else
        snprintf(out, size, "%s (number %ld)", words, refused - 1);
    free(name);
    return out;
}
