/*
 * plot_warps.c — the DMM/UMM picture (`mcmsim plot --kind warps`).
 */
#include "plot.h"
#include "fail.h"

int plot_warps(plot_session *s, const run_point *pts, long n)
{
    (void)s;
    (void)pts;
    (void)n;
    return fail("--kind warps: not yet");
}
