#!/usr/bin/env python3
"""spin-chains.py -- the spin chains of constants.cu (--spin-only) read back
(instruction-stream.md, "Session 45: Stockham's kernel boundaries").

For each CSV given: the per-kernel slope of each spin chain, its excess over
the chain of 2 blocks of the same spin (the width's part, us a kernel), and
the timelines' rows (ns).  Usage: spin-chains.py FILE.csv [FILE.csv ...]
"""
import csv
import sys

WIDTHS = (2, 64, 128, 256)
SPINS = (0, 250, 500, 1000, 2000, 4000)
TIMED = (0, 500, 2000)
STATS = ("ramp", "gap", "period", "block", "tail")


def rows_of(path):
    with open(path) as f:
        return {r["name"]: float(r["value"]) for r in csv.DictReader(f)}


def report(path):
    v = rows_of(path)
    print(f"== {path}")
    print(f"clock {v.get('sm_clock_measured', 0):.1f} MHz, globaltimer step {v.get('spin_globaltimer_step', -1):.0f} ns, "
          f"touch_1 {v.get('spin_touch_1_per_kernel', 0):.3f} / again {v.get('spin_touch_1_again_per_kernel', 0):.3f} us")
    print("per kernel (us) | excess over 2 blocks (us)")
    print("spin ns | " + " ".join(f"{w:>7}" for w in WIDTHS) + " | " + " ".join(f"{w:>7}" for w in WIDTHS[1:]))
    for s in SPINS:
        k = [v.get(f"spin_{w}_{s}ns_per_kernel") for w in WIDTHS]
        if None in k:
            continue
        print(f"{s:>7} | " + " ".join(f"{x:7.3f}" for x in k) + " | " +
              " ".join(f"{x - k[0]:+7.3f}" for x in k[1:]))
    print("excess over 2 blocks along the graph (us a kernel between k and 2k kernels, k = 1 2 4 8 16)")
    for s in SPINS:
        for w in WIDTHS[1:]:
            g = [v.get(f"spin_{w}_{s}ns_{k}") for k in (1, 2, 4, 8, 16, 32)]
            b = [v.get(f"spin_2_{s}ns_{k}") for k in (1, 2, 4, 8, 16, 32)]
            if None in g or None in b:
                continue
            steps = [((g[i + 1] - g[i]) - (b[i + 1] - b[i])) / (2 ** i) for i in range(5)]
            print(f"{s:>7} {w:>4} " + " ".join(f"{x:+7.3f}" for x in steps))
    print("timelines (ns): W S " + " ".join(f"{s:>7}" for s in STATS))
    for s in TIMED:
        for w in WIDTHS:
            t = [v.get(f"spin_timeline_{w}_{s}ns_{st}") for st in STATS]
            if None in t:
                continue
            print(f"{w:>4} {s:>5} " + " ".join(f"{x:7.0f}" for x in t))


for p in sys.argv[1:]:
    report(p)
