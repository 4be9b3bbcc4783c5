#!/usr/bin/env python3
# kernels.py — probe-ct6's Nsight Compute runs against the model, kernel by
# kernel (validate/notes/cache-hierarchy.md, "Session 46: Cooley-Tukey and
# fft-mult on the H200, with and without the caches").
#
# For each kernel type of a run: the card's busiest SM's active cycles
# (sm__cycles_active.max, the median of the run's 4 launches of the graph
# ncu saw) summed over the run's kernels of that type, against the model's
# kernel spans with and without the caches (mcmsim --trace: a kernel's span
# from its first block's start to its last block's end), and the median of
# card − model per kernel.
#
#   build/mcmsim run ONE-POINT.cfg --machine machine/h100-code.cfg --exec --jobs 1 \
#       --set launch=graph [--set l1_words=0] --trace with.csv (without.csv)
#   python3 kernels.py h100-ct6-ct-n16384-metrics.csv with.csv without.csv
# ONE-POINT.cfg: machine = "h100-code"; program = { name = "cooley-tukey";
# params = { n = 16384; l = 128; m = 16; }; }; (fft-mult: n = m, l = 256;
# the H200's files against machine/h200-code.cfg).  Each *-metrics.csv is
# ncu's raw CSV (--page raw) with its metric columns kept, its device
# attributes left out.
import csv, statistics, sys


def number(x):
    try:
        return float(x.replace(',', ''))
    except ValueError:
        return float('nan')


def ncu_rows(path):
    text = open(path).read().splitlines()
    start = next(k for k, line in enumerate(text) if line.startswith(('"ID"', 'ID,')))
    return [r for r in csv.DictReader(text[start:]) if r['ID'].isdigit()]


def kernel_spans(trace):
    """(kernel, span) of each launch: a launch starts after every block before it ended."""
    rows = sorted(csv.DictReader(open(trace)), key=lambda r: float(r['start']))
    out, latest = [], float('-inf')
    for r in rows:
        s, e = float(r['start']), float(r['end'])
        if not out or s > latest + 50:
            out.append([r['kernel'], s, e])
        out[-1][2] = max(out[-1][2], e)
        latest = max(latest, e)
    return [(k, e - s) for k, s, e in out]


def main():
    rows = ncu_rows(sys.argv[1])
    with_caches, without = kernel_spans(sys.argv[2]), kernel_spans(sys.argv[3])
    n = len(with_caches)
    runs = [rows[i * n:(i + 1) * n] for i in range(len(rows) // n)]
    by_kernel = {}
    for i, (name, span) in enumerate(with_caches):
        card = statistics.median(number(r[i]['sm__cycles_active.max']) for r in runs)
        by_kernel.setdefault(name, []).append((card, span, without[i][1]))
    print('%d launches of %d kernels' % (len(runs), n))
    for name, v in by_kernel.items():
        print('%-10s x%2d  card %8.0f  with %8.0f  without %8.0f   card - model a kernel: with %6.0f, without %6.0f'
              % (name, len(v), sum(x[0] for x in v), sum(x[1] for x in v), sum(x[2] for x in v),
                 statistics.median(x[0] - x[1] for x in v), statistics.median(x[0] - x[2] for x in v)))


main()
