/*
 * run.c — one simulation, from a checked program to a complete result.
 *
 * SimGrid's engine lives once per process, so every simulation runs in a
 * child process: the parent checks the program and forks; the child writes
 * the SimGrid platform of the machine, simulates (engine.c) and sends its
 * figures back through a pipe; it dies with the parent (lifetime.h).  The
 * parent adds the static costs (S, L, K), the bounds of Theorem 1 and
 * Corollary 1, and checks the theorem.
 *
 * A result is either whole or absent: a child that dies, or sends fewer
 * bytes than promised, is an error, never a partial result.
 */
#include "engine.h"
#include "card_terms.h"
#include "fail.h"
#include "lifetime.h"
#include "wire.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

/* Most SMs simulated at once: each SM actor's stack takes two memory
 * mappings, and Linux allows 65530 by default. */
#define SMS_MAX 30000

typedef struct wire_header {
    int status;         /* 0 ok, -1 error (message follows) */
    int n_kernels, p;
    double T, W, O, N, C;
    double wave_blocks; /* blocks the block scheduler fast-forwarded */
    double time_split[SPLIT_PARTS];
} wire_header;

/* The machine as a SimGrid platform file in $TMPDIR (else /tmp); its name
 * in `path`.  Written and removed by the child (see lifetime.h). */
static int write_platform(const machine *m, int sms, char *path, size_t size)
{
    const char *dir = getenv("TMPDIR");
    if (!dir || !dir[0])
        dir = "/tmp";
    snprintf(path, size, "%s/mcmsim-platform-XXXXXX", dir);
    int fd = mkstemp(path);
    if (fd < 0)
        return fail("cannot create a temporary platform file in %s: %s", dir, strerror(errno));
    FILE *f = fdopen(fd, "w");
    int rc = machine_write_platform(m, sms, f);
    if (fclose(f) != 0)
        rc = fail("cannot write the temporary platform file %s", path);
    return rc;
}

/* The simulation process: dies with `parent`, writes its platform (which
 * the engine removes once loaded), simulates, sends the figures. */
static void child(pid_t parent, int fd, const kernel_dag *dag, const machine *m, int sms,
                  const char *trace_path, volatile double *blocks_done, sim_result *r)
{
    lifetime_child_start(parent);
    wire_header h = {0};
    char platform[1100];
    memset(&r->costs, 0, sizeof r->costs);
    h.status = write_platform(m, sms, platform, sizeof platform);
    if (h.status == 0)
        h.status = engine_simulate(dag, m, sms, platform, trace_path, blocks_done, r);
    unlink(platform); /* if the engine failed before loading it */
    h.n_kernels = dag->n;
    h.p = m->p;
    h.T = r->T;
    h.W = r->costs.W;
    h.O = r->costs.O;
    h.N = r->costs.N;
    h.C = r->costs.C;
    h.wave_blocks = r->wave_blocks;
    memcpy(h.time_split, r->time_split, sizeof h.time_split);
    int bad = wire_write(fd, &h, sizeof h);
    if (h.status == 0) {
        bad |= wire_write(fd, r->kernels, sizeof *r->kernels * (size_t)dag->n);
        bad |= wire_write(fd, r->sm_busy, sizeof *r->sm_busy * (size_t)m->p);
    } else {
        bad |= wire_write(fd, fail_message(), strlen(fail_message()) + 1);
    }
    _exit(bad ? 3 : 0);
}

/* Receive the child's figures; returns -1 on error or a short message. */
static int receive(int fd, const kernel_dag *dag, const machine *m, sim_result *r)
{
    wire_header h;
    if (wire_read(fd, &h, sizeof h) < 0)
        return fail("the simulation process ended without a result");
    if (h.status != 0) {
        char message[2048] = "";
        ssize_t got = read(fd, message, sizeof message - 1);
        message[got > 0 ? got : 0] = '\0';
        return fail("%s", message[0] ? message : "the simulation failed");
    }
    if (h.n_kernels != dag->n || h.p != m->p ||
        wire_read(fd, r->kernels, sizeof *r->kernels * (size_t)dag->n) < 0 ||
        wire_read(fd, r->sm_busy, sizeof *r->sm_busy * (size_t)m->p) < 0)
        return fail("the simulation process sent an incomplete result");
    r->T = h.T;
    r->costs.W = h.W;
    r->costs.O = h.O;
    r->costs.N = h.N;
    r->costs.C = h.C;
    r->wave_blocks = h.wave_blocks;
    memcpy(r->time_split, h.time_split, sizeof r->time_split);
    return 0;
}

static void sim_job_release(sim_job *job);

/* The launch term: L kernels, each at most the launch latency of the
 * program's widest grid and the constant lines of the kernel that reads
 * the most, and the graph's start. */
static void add_bounds(const kernel_dag *dag, const machine *m, sim_result *r)
{
    const dag_costs *c = &r->costs;
    r->bound_theorem1 = (c->N / m->p + c->L_kernels) * c->C;
    r->bound_corollary1 = c->K > 0 ? (c->N / c->K + c->L_kernels) * c->C : 0;
    long widest = 1;
    double lines = 0;
    for (int i = 0; i < dag->n; i++) {
        widest = dag->kernels[i].blocks > widest ? dag->kernels[i].blocks : widest;
        lines = fmax(lines, kernel_constant_lines(&dag->kernels[i]));
    }
    r->launch_term = c->L_kernels * (machine_kernel_launch_latency(m, widest) +
                                     machine_constant_lines_latency(m, (int)lines)) +
                     machine_start_latency(m);
    double busy = 0;
    for (int i = 0; i < m->p; i++)
        busy += r->sm_busy[i];
    r->utilization = r->T > 0 ? busy / (m->p * r->T) : 0;
}

/* Theorem 1, with the settings beyond the papers added where they belong:
 * a block dispatch and a read latency lengthen every block (C becomes
 * C + δ, δ = block_dispatch + the larger read latency), a launch
 * latency every kernel on the critical path (+ L·λ, λ the stream's or the
 * graph's).  The card's compute and cache terms change only what a block
 * costs alone, and C is measured from those costs (read + compute +
 * write), so the bound stands as it is.  With k = blocks_per_sm > 1 the
 * kP slots run greedily, and a block shares its SM's compute and port with
 * at most k − 1 others: max-min sharing gives it at least 1/k of each, so
 * it lasts at most δ + kC.  By age (issue_by_age) its transfers share
 * the port as before and its compute runs at its bound (its span at most)
 * or with the SM's lanes full of its own work and what the at most k − 1
 * blocks older than it have left (younger ones take nothing before it):
 * its transfers and span within kC, its work and its elders' within kC,
 * so it lasts at most δ + 2kC.  (A span beside j − 1 other blocks,
 * resident.h's span_with, waits links priced at most j times its warps a
 * scheduler, each no more than j times its own: the rows' latencies grow
 * no faster than the warps, as machine.c requires of them; so it stays
 * within jC ≤ kC.)  With block_retire = ρ its slot is free again
 * once its SM has retired it and the at most k − 1 blocks ahead of it,
 * within kρ more, so δ counts kρ too.  A ready block waits only while
 * every SM holds as many blocks as its kernel allows
 * (kernel_resident_blocks), at least r = the least such limit over the
 * kernels, so the same argument gives
 *     T <= (N/(rP) + L)·(kC + δ) + L·λ  (2kC by age),
 * which is Theorem 1's bound (plus δ and λ) at k = r = 1, unchanged. */
static int check_theorem1(const kernel_dag *dag, const machine *m, const sim_result *r)
{
    if (m->policy != MEM_PARALLEL)
        return 0; /* other policies may exceed it; the report says by how much */
    const dag_costs *c = &r->costs;
    double k = m->blocks_per_sm > 1 ? m->blocks_per_sm : 1, least = k;
    for (int i = 0; k > 1 && i < dag->n; i++)
        least = fmin(least, kernel_resident_blocks(&dag->kernels[i], m));
    double latency = fmax(fmax(m->read_latency, m->read_latency_dram),
                          machine_caches(m) ? fmax(m->read_latency_l1, m->read_latency_l2) : 0);
    double delta = m->block_dispatch + k * m->block_retire + latency;
    double shares = m->issue_by_age ? 2 * k : k; /* the C's a block may last (above) */
    double bound = (c->N / (least * m->p) + c->L_kernels) * (shares * c->C + delta) + r->launch_term;
    double slack = k > 1 ? 1e-6 : 1e-12; /* SimGrid's sharing solver rounds; sleeps do not */
    if (r->T <= bound * (1 + slack) + 1e-9)
        return 0;
    return fail("internal error (a bug in mcmsim): program '%s' on machine '%s' took "
                "T = %.17g cycles, above the Theorem 1 bound (N/(rP) + L)·(sC + block_dispatch + k·block_retire + read latency) + "
                "L·launch_latency + graph start = %.17g (s = %g: blocks_per_sm, twice it served by age; k = %g, r = %g) "
                "under the parallel policy",
                dag->name, m->name, r->T, bound, shares, k, least);
}

/* The parts of T (time_split.h) sum to T: every SM-cycle in one part.
 * The tests' SimGrid reference keeps no split. */
static int check_time_split(const kernel_dag *dag, const machine *m, const sim_result *r)
{
    if (m->sharing_by_simgrid)
        return 0;
    double sum = 0;
    for (int part = 0; part < SPLIT_PARTS; part++) {
        if (!(r->time_split[part] >= -1e-9 * r->T))
            return fail("internal error (a bug in mcmsim): program '%s' on machine '%s': the %s part of T "
                        "is %.17g cycles", dag->name, m->name, split_keys[part], r->time_split[part]);
        sum += r->time_split[part];
    }
    if (fabs(sum - r->T) <= 1e-9 * r->T)
        return 0;
    return fail("internal error (a bug in mcmsim): program '%s' on machine '%s' took T = %.17g cycles, but "
                "the parts of its time sum to %.17g", dag->name, m->name, r->T, sum);
}

const char *theorem1_why_not(const machine *m)
{
    if (m->kind != KIND_MCM)
        return "not an MCM";
    if (m->policy != MEM_PARALLEL)
        return m->policy == MEM_EXCLUSIVE ? "the `exclusive` policy" : "the `shared` policy";
    if (machine_card_compute(m) || machine_card_residency(m) || m->l2_words > 0 || m->sector_words > 0 ||
        m->read_latency > 0 || m->read_latency_dram > 0)
        return "the card's terms";
    if (m->block_dispatch > 0)
        return "a block dispatch";
    return NULL;
}

int theorem1_is_bound(const machine *m)
{
    return theorem1_why_not(m) == NULL;
}

/* Check the program, and fork the child that simulates it. */
int sim_start(const kernel_dag *dag, const machine *m, const char *trace_path, sim_result *out, sim_job *job)
{
    memset(out, 0, sizeof *out);
    memset(job, 0, sizeof *job);
    job->dag = dag;
    job->m = m;
    job->out = out;
    job->pid = -1;
    job->fd = -1;
    if (machine_validate(m) < 0 || kernel_dag_check(dag, m, NULL) < 0)
        return -1;
    if (dag->n == 0)
        return fail("program '%s' has no kernel to run", dag->name);
    out->n_kernels = dag->n;
    out->p = m->p;
    out->kernels = calloc((size_t)dag->n, sizeof *out->kernels);
    out->sm_busy = calloc((size_t)m->p, sizeof *out->sm_busy);

    /* Blocks running or ready at one instant are pairwise independent (an
     * anti-chain), so at most K SMs are ever busy: with P > K, the greedy
     * schedule on K SMs is the same, and SimGrid need not hold the others
     * (P = K = 65536 would otherwise exhaust the machine). */
    kernel_dag_costs(dag, m->u, &job->analysed);
    int sms = job->analysed.K < m->p ? (int)job->analysed.K : m->p;
    if (sms > SMS_MAX) {
        fail("program '%s' on machine '%s' would keep %d SMs busy at once (P = %d, K = %.0f), but "
             "mcmsim simulates at most %d (each SM is a SimGrid actor, and a process may hold only "
             "so many memory mappings): lower P", dag->name, m->name, sms, m->p, job->analysed.K, SMS_MAX);
        goto failed;
    }
    if ((double)sms * m->blocks_per_sm > SMS_MAX) {
        fail("program '%s' on machine '%s' would need %d SMs × blocks_per_sm = %d resident blocks, "
             "%.0f SimGrid actors, but mcmsim simulates at most %d (a process may hold only so many "
             "memory mappings): lower P or blocks_per_sm", dag->name, m->name, sms, m->blocks_per_sm,
             (double)sms * m->blocks_per_sm, SMS_MAX);
        goto failed;
    }

    /* the child's count of blocks done, for the parent's progress line */
    void *shared = mmap(NULL, sizeof(double), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    job->blocks_done = shared == MAP_FAILED ? NULL : shared;
    int fds[2];
    if (pipe(fds) < 0) {
        fail("cannot create a pipe: %s", strerror(errno));
        goto failed;
    }
    fflush(NULL);
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        fail("cannot fork the simulation process: %s", strerror(errno));
        close(fds[0]);
        close(fds[1]);
        goto failed;
    }
    if (pid == 0) {
        close(fds[0]);
        child(parent, fds[1], dag, m, sms, trace_path, job->blocks_done, out);
    }
    lifetime_watch(pid);
    close(fds[1]);
    job->pid = pid;
    job->fd = fds[0];
    return 0;
failed:
    sim_abandon(job);
    return -1;
}

int sim_poll(const sim_job *job, int timeout_ms)
{
    struct pollfd p = {.fd = job->fd, .events = POLLIN};
    int n;
    while ((n = poll(&p, 1, timeout_ms)) < 0 && errno == EINTR)
        ;
    return n != 0;
}

double sim_blocks_done(const sim_job *job)
{
    return job->blocks_done ? *job->blocks_done : 0;
}

/* Receive the child's figures, reap it, add the static costs and the
 * bounds, and check Theorem 1. */
int sim_finish(sim_job *job)
{
    const kernel_dag *dag = job->dag;
    const machine *m = job->m;
    sim_result *out = job->out;
    int rc = receive(job->fd, dag, m, out);
    close(job->fd);
    job->fd = -1;
    int status;
    struct rusage usage;
    while (wait4(job->pid, &status, 0, &usage) < 0 && errno == EINTR)
        ;
    lifetime_unwatch(job->pid);
    job->pid = -1;
    if (rc == 0 && !(WIFEXITED(status) && WEXITSTATUS(status) == 0))
        rc = fail("the simulation process died (%s %d)", WIFSIGNALED(status) ? "signal" : "status",
                  WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
    if (rc < 0)
        goto failed;
    out->peak_rss_kib = (double)usage.ru_maxrss;

    dag_costs executed = out->costs;
    out->costs = job->analysed;
    out->costs.W = executed.W;
    out->costs.O = executed.O;
    out->costs.N = executed.N;
    out->costs.C = executed.C;
    if (executed.N != job->analysed.N) {
        fail("internal error: %.0f blocks executed, but the program has %.0f", executed.N, job->analysed.N);
        goto failed;
    }
    add_bounds(dag, m, out);
    if (check_theorem1(dag, m, out) < 0 || check_time_split(dag, m, out) < 0)
        goto failed;
    sim_job_release(job);
    return 0;
failed:
    sim_abandon(job);
    return -1;
}

/* What a job holds, given back; a child still running is killed. */
static void sim_job_release(sim_job *job)
{
    if (job->pid > 0)
        lifetime_kill(job->pid);
    job->pid = -1;
    if (job->fd >= 0)
        close(job->fd);
    job->fd = -1;
    if (job->blocks_done)
        munmap((void *)job->blocks_done, sizeof(double));
    job->blocks_done = NULL;
}

void sim_abandon(sim_job *job)
{
    sim_job_release(job);
    sim_result_free(job->out);
}

int sim_run(const kernel_dag *dag, const machine *m, const char *trace_path, sim_result *out)
{
    sim_job job;
    return sim_start(dag, m, trace_path, out, &job) < 0 ? -1 : sim_finish(&job);
}

void sim_result_free(sim_result *r)
{
    free(r->kernels);
    free(r->sm_busy);
    r->kernels = NULL;
    r->sm_busy = NULL;
}
