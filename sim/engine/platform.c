/*
 * platform.c — the machine as a SimGrid platform: the only place where the
 * machine model meets SimGrid (see machine_write_platform in machine.h).
 *
 * Picture for P = 2:
 *
 *     sm0 --[port: 1/U]--+
 *                        +--[channel: bandwidth]-- router --[bus]-- global_memory
 *     sm1 --[port: 1/U]--+
 *
 * The SMs form a SimGrid cluster: each has a private link (its port, 1/U
 * words per cycle; a cluster's private links are split-duplex, so an SM
 * reads and writes at once, each at 1/U) and all share the cluster's
 * backbone (the global-memory channel, `bandwidth` words per cycle, reads
 * and writes together).  The global memory sits in a zone
 * of its own behind the cluster's router.  A transfer of w words between an
 * SM and global memory is a SimGrid communication of w bytes (one byte
 * stands for one word) along that route.  With the CM02 network model, zero
 * latency and no cross traffic, SimGrid shares bandwidth max-min fairly:
 * exactly the `shared` policy.  A cluster keeps routing memory linear in P.
 * The other policies do not use the network (tests/global_memory.c, the tests' reference).
 * With blocks_per_sm > 1 (the card's resident blocks, sim/engine/engine.c) the
 * memory zone also holds one host "portI" per SM, of speed 1: the SM's port
 * as a resource its resident blocks share (a transfer of r cycles is r
 * units of work on it).
 */
#include "machine.h"
#include "fail.h"

int machine_write_platform(const machine *m, int sm_hosts, FILE *out)
{
    double channel = machine_bandwidth(m);
    fprintf(out, "<?xml version='1.0'?>\n"
                 "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
                 "<platform version=\"4.1\">\n"
                 "<zone id=\"mcm\" routing=\"Full\">\n");
    fprintf(out, "  <cluster id=\"sms\" prefix=\"sm\" suffix=\"\" radical=\"0-%d\" speed=\"1f\"\n"
                 "           bw=\"%.17gBps\" lat=\"0s\" bb_bw=\"%.17gBps\" bb_lat=\"0s\" router_id=\"router\"/>\n",
            sm_hosts - 1, 1.0 / m->u, channel);
    fprintf(out, "  <zone id=\"memory\" routing=\"Full\">\n"
                 "    <host id=\"global_memory\" speed=\"1f\"/>\n");
    for (int i = 0; machine_card_residency(m) && i < sm_hosts; i++)
        fprintf(out, "    <host id=\"port%d\" speed=\"1f\"/>\n", i);
    fprintf(out, "  </zone>\n");
    /* a bus no narrower than the channel: it never binds */
    fprintf(out, "  <link id=\"bus\" bandwidth=\"%.17gBps\" latency=\"0s\" sharing_policy=\"FATPIPE\"/>\n", channel);
    fprintf(out, "  <zoneRoute src=\"sms\" dst=\"memory\" gw_src=\"router\" gw_dst=\"global_memory\">"
                 "<link_ctn id=\"bus\"/></zoneRoute>\n");
    fprintf(out, "</zone>\n</platform>\n");
    return ferror(out) ? fail("cannot write the SimGrid platform file") : 0;
}
