#!/usr/bin/env python3
"""The resident-spread rows' four figures from an mcmsim --trace of
tests/user/spread.cfg: per SM holding exactly K blocks, the spread of their
starts (last - first), of their ends, the busy time (last end - first start)
and the blocks' mean life; printed as the medians over those SMs, beside
the card's (H100, two probes, h100-constants-probe{1,2}.csv, their mean).
The engine's block starts at its dispatch (its wait is the dispatch, then
its first read's latency), the card's clock64() at its first instruction,
after it: busy and life are also given less h100-code's block_dispatch.

usage: spread.py [--card CONSTANTS.csv --suffix SUFFIX] K TRACE.csv [K TRACE.csv ...]
With --card, the card's figures are the rows resident_*_blocksK SUFFIX of
that constants file (e.g. --suffix _case_passes16 for the 16-pass rows of
the case studies' arithmetic), not the 4-pass rows above."""
import csv
import statistics
import os
import re
import sys

CARD = {1: (0, 0, 1708, 1708), 2: (20, 213, 2159, 2047),
        4: (60, 883, 3142, 2661), 8: (404, 2794, 5185, 3685)}


def block_dispatch():
    cfg = os.path.join(os.path.dirname(__file__), "../../../../machine/h100-code.cfg")
    with open(cfg) as f:
        return float(re.search(r"block_dispatch\s*=\s*([0-9.e+-]+);", f.read()).group(1))


def figures(path, k):
    by_sm = {}
    with open(path) as f:
        for row in csv.DictReader(f):
            by_sm.setdefault(row["sm"], []).append((float(row["start"]), float(row["end"])))
    per = [[], [], [], []]
    for blocks in by_sm.values():
        if len(blocks) != k:
            continue
        starts = [s for s, _ in blocks]
        ends = [e for _, e in blocks]
        per[0].append(max(starts) - min(starts))
        per[1].append(max(ends) - min(ends))
        per[2].append(max(ends) - min(starts))
        per[3].append(sum(e - s for s, e in blocks) / k)
    return [statistics.median(p) for p in per], len(per[0])


def card_rows(path, suffix):
    rows = {}
    with open(path) as f:
        for row in csv.DictReader(f):
            rows[row["name"]] = float(row["value"])
    what = ("start_spread", "end_spread", "busy", "life")
    return {k: tuple(round(rows[f"resident_{w}_blocks{k}{suffix}"]) for w in what)
            for k in (1, 2, 4, 8) if f"resident_busy_blocks{k}{suffix}" in rows}


def main(args):
    global CARD
    if args and args[0] == "--card":
        CARD = card_rows(args[1], args[3] if len(args) > 3 and args[2] == "--suffix" else "")
        args = args[4:] if len(args) > 3 and args[2] == "--suffix" else args[2:]
    d = block_dispatch()
    print(f"| K | start spread (engine / card) | end spread | busy | mean life | busy, life less the dispatch ({d:.1f}) | SMs |")
    print("|---|---|---|---|---|---|---|")
    for i in range(0, len(args), 2):
        k = int(args[i])
        v, n = figures(args[i + 1], k)
        c = CARD[k]
        cells = " | ".join(f"{v[q]:.0f} / {c[q]}" for q in range(4))
        less = f"{v[2] - d:.0f} / {c[2]}, {v[3] - d:.0f} / {c[3]}"
        print(f"| {k} | {cells} | {less} | {n} |")


if __name__ == "__main__":
    main(sys.argv[1:])
