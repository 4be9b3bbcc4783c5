/*
 * floor.c — the engine's floor: the least a SimGrid program must do to run
 * N fixed-length activities on P hosts, nothing else.  P actors each sleep
 * N/P times (sleep is the cheapest SimGrid activity: the same one the
 * engine uses for a block under the `parallel` policy).  bench.c runs it
 * beside the engine with the same N and P.
 *
 *   floor N P    prints the simulated end time
 */
#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static long per_host;

static void host_main(int argc, char *argv[])
{
    (void)argc;
    (void)argv;
    for (long i = 0; i < per_host; i++)
        sg_actor_sleep_for(10.0);
}

int main(int argc, char *argv[])
{
    if (argc != 3)
        return 2;
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
        sg_actor_create("host", sg_host_by_name(name), host_main, 0, NULL);
    }
    simgrid_run();
    printf("%.17g\n", simgrid_get_clock());
    return 0;
}
