#!/usr/bin/env python3
"""The rs7 probe's Nsight Compute stalls (profiles/probes/rs7/h100-rs7-spread-metrics.csv)
as cycles a warp: each stall's warps per issued instruction times the instructions a
warp issues (smsp__inst_executed.avg over the warps a scheduler holds, K*8/4), the
median of each K's 8 launches.  The probe ran the sets in order: _case, _case_passes16,
_case_passes16_nolevels, each K = 1, 2, 4, 8 (grid 132*K), 8 launches a K (session 48).

usage: stalls-s48.py [METRICS.csv]"""
import csv
import os
import statistics as st
import sys

SETS = ("_case (4 passes)", "_case_passes16", "_case_passes16_nolevels")
REASONS = ("barrier", "branch_resolving", "dispatch_stall", "lg_throttle", "long_scoreboard",
           "math_pipe_throttle", "mio_throttle", "no_instruction", "not_selected", "selected",
           "short_scoreboard", "wait")


def main(path):
    lines = open(path).read().splitlines()
    first = next(i for i, l in enumerate(lines) if l.startswith('"ID"'))
    rows = list(csv.reader(lines[first:]))
    ix = {h: j for j, h in enumerate(rows[0])}
    val = lambda r, h: float(r[ix[h]].replace(",", ""))
    data = rows[2:]
    print("| set | K | inst a warp | SM active cycles | " + " | ".join(REASONS) + " | sum |")
    print("|---" * (len(REASONS) + 5) + "|")
    for s, name in enumerate(SETS):
        for kk in range(4):
            launches = data[s * 32 + kk * 8: s * 32 + kk * 8 + 8]
            k = int(launches[0][ix["Grid Size"]].strip("()").split(",")[0]) // 132
            per_warp = st.median(val(r, "smsp__inst_executed.avg") for r in launches) / (k * 8 / 4)
            cyc = [st.median(val(r, f"smsp__average_warps_issue_stalled_{x}_per_issue_active.ratio")
                             for r in launches) * per_warp for x in REASONS]
            active = st.median(val(r, "sm__cycles_active.avg") for r in launches)
            print(f"| {name} | {k} | {per_warp:.0f} | {active:.0f} | " + " | ".join(f"{c:.0f}" for c in cyc) +
                  f" | {sum(cyc):.0f} |")


if __name__ == "__main__":
    here = os.path.dirname(os.path.abspath(__file__))
    main(sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "../probes/rs7/h100-rs7-spread-metrics.csv"))
