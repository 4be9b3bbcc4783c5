/*
 * floor.c — the engine's floor: the least a SimGrid program must do to run
 * N fixed-length activities on P hosts, nothing else.  P actors each sleep
 * N/P times (sleep is the cheapest SimGrid activity: the same one the
 * engine uses for a block under the `parallel` policy).  bench.c runs it
 * beside the engine with the same N and P.
 *
 *   floor N P [stagger]    prints the simulated end time
 *
 * All hosts sleep 10 at a time, in lockstep; with `stagger` host i first
 * sleeps i, then 224 at a time (as bench.c's staggered engine run), so that
 * every activity ends at an instant of its own.
 */
#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static long per_host;
static int staggered;

static void host_main(int argc, char *argv[])
{
    (void)argc;
    if (staggered)
        sg_actor_sleep_for(atof(argv[0]));
    for (long i = 0; i < per_host; i++)
        sg_actor_sleep_for(staggered ? 224.0 : 10.0);
}

int main(int argc, char *argv[])
{
    if (argc != 3 && !(argc == 4 && strcmp(argv[3], "stagger") == 0))
        return 2;
    staggered = argc == 4;
    long n = atol(argv[1]);
    int p = atoi(argv[2]);
    per_host = n / p;
    char path[] = "/tmp/mcmsim-floor-XXXXXX";
    int fd = mkstemp(path);
    FILE *f = fdopen(fd, "w");
    fprintf(f, "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
               "<platform version=\"4.1\"><zone id=\"z\" routing=\"None\">\n");
    for (int i = 0; i < p; i++)
        fprintf(f, "<host id=\"h%d\" speed=\"1f\"/>\n", i);
    fprintf(f, "</zone></platform>\n");
    fclose(f);
    char *args[] = {"floor", "--log=root.thres:error", "--cfg=contexts/factory:raw",
                    "--cfg=contexts/stack-size:256", NULL};
    int sargc = 4;
    simgrid_init(&sargc, args);
    simgrid_load_platform(path);
    unlink(path);
    for (int i = 0; i < p; i++) {
        char name[32];
        snprintf(name, sizeof name, "h%d", i);
        char phase[16];
        snprintf(phase, sizeof phase, "%d", i);
        char *phase_arg[] = {phase, NULL};
        sg_actor_create("host", sg_host_by_name(name), host_main, 1, phase_arg);
    }
    simgrid_run();
    printf("%.17g\n", simgrid_get_clock());
    return 0;
}
