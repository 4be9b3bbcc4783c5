/*
 * dmm_example.c — the memory access of the DMM/UMM chapter's Figure 3, as a
 * built-in program for DMM and UMM machines.
 *
 * Source: dmm-umm-chapter.txt §2 (Nakano et al.), lines 43–54: p = 8
 * threads, w = 4, l = 5; the four threads of W(0) ask m[7], m[5], m[15],
 * m[0] and those of W(1) ask m[10], m[11], m[12], m[9], one request each.
 *   DMM: m[7] and m[15] share bank B[3], so W(0) takes 2 units, W(1) 1,
 *        then l − 1 = 4: "2 + 1 + 4 = 7 time units" (line 50);
 *   UMM: W(0) touches 3 address groups, W(1) 2, then 4: "3 + 2 + 4 = 9"
 *        (line 54).
 * The program only makes the requests; sim/model/dmm_umm.c does the counting.
 * The chapter's sums are printed beside the simulated time when w = 4 (the
 * figure's banks and groups): 2 + 1 + (l − 1) on the DMM, 3 + 2 + (l − 1)
 * on the UMM, for any l.
 *
 * No params.  The machine needs p >= 8 threads (threads past 7 ask
 * nothing); any w and l may be tried.  On an MCM machine it is refused.
 */
#include "fail.h"
#include "program.h"

#include <stdio.h>

/* Figure 3: cell asked by thread T(i), i = 0 .. 7. */
static const long figure3_cells[8] = {7, 5, 15, 0, 10, 11, 12, 9};

static kernel_dag *build(const vars *params, const machine *m)
{
    (void)params;
    (void)m;
    fail("program 'dmm-example' is the chapter's Figure 3 for a DMM or a UMM machine; it has no "
         "MCM kernels (use machine = { kind = \"dmm\"; p = 8; w = 4; l = 5; })");
    return NULL;
}

static int accesses(const vars *params, const machine *m, access_program *out)
{
    (void)params;
    if (access_program_threads(out) < 8)
        return fail("program 'dmm-example': Figure 3 has 8 threads, but the machine has p = %d",
                    access_program_threads(out));
    for (int t = 0; t < 8; t++)
        if (access_request(out, t, figure3_cells[t]) < 0)
            return -1;
    if (m->warp == 4) {
        int dmm = m->kind == KIND_DMM;
        char formula[64];
        snprintf(formula, sizeof formula, "%s + (l - 1)", dmm ? "2 + 1" : "3 + 2");
        access_bound(out, "Figure 3", formula, (dmm ? 3 : 5) + m->latency - 1, 1);
    }
    return 0;
}

const builtin_program program_dmm_example = {
    .name = "dmm-example",
    .summary = "Figure 3 of the DMM/UMM chapter: 8 threads, one request each (DMM/UMM only, §2)",
    .defaults = "",
    .build = build,
    .accesses = accesses,
};
