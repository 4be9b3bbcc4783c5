/*
 * platform.c — the machine as a SimGrid platform: the only place where the
 * machine model meets SimGrid (see machine_write_platform in machine.h).
 *
 * Picture for P = 2:
 *
 *     sm0 --[sm0_port: 1/U]--+
 *                            +--[global_channel: bandwidth]-- global_memory
 *     sm1 --[sm1_port: 1/U]--+
 *
 * A transfer of w words between an SM and global memory is a SimGrid
 * communication of w bytes (one byte stands for one word) along that route.
 * With the CM02 network model, zero latency and no cross traffic, SimGrid
 * shares bandwidth max-min fairly, which is exactly the `shared` policy; the
 * other policies do not use the network (sim/global_memory.c).
 */
#include "machine.h"
#include "fail.h"

int machine_write_platform(const machine *m, FILE *out)
{
    fprintf(out, "<?xml version='1.0'?>\n"
                 "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
                 "<platform version=\"4.1\">\n"
                 "<zone id=\"%s\" routing=\"Full\">\n", "mcm");
    fprintf(out, "  <host id=\"global_memory\" speed=\"1f\"/>\n");
    for (int i = 0; i < m->p; i++)
        fprintf(out, "  <host id=\"sm%d\" speed=\"1f\"/>\n", i);
    fprintf(out, "  <link id=\"global_channel\" bandwidth=\"%.17gBps\" latency=\"0s\"/>\n",
            machine_bandwidth(m));
    for (int i = 0; i < m->p; i++)
        fprintf(out, "  <link id=\"sm%d_port\" bandwidth=\"%.17gBps\" latency=\"0s\"/>\n", i, 1.0 / m->u);
    for (int i = 0; i < m->p; i++)
        fprintf(out, "  <route src=\"global_memory\" dst=\"sm%d\">"
                     "<link_ctn id=\"global_channel\"/><link_ctn id=\"sm%d_port\"/></route>\n", i, i);
    fprintf(out, "</zone>\n</platform>\n");
    return ferror(out) ? fail("cannot write the SimGrid platform file") : 0;
}
