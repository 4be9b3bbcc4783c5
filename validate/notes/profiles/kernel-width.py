#!/usr/bin/env python3
# kernel-width.py — the kernel boundary by the kernel's width, estimated
# (card-model.md, "Session 42: the H200's small kernels"): each kernel of a
# point (its width from `mcmsim run --trace`, the model's DAG; kernels of one
# name counted once, so the user cases' iterations are undercounted) charged
# the measured touch chain of its width (piecewise linear through
# chain_touch_{block,4,16,half,card}_per_kernel of the point's session) less
# the model's line from 1 to 132 blocks (graph_launch_per_sm); the points'
# errors before and after that difference is added.  An estimate, not the
# engine: nothing re-simulated.
#   python3 validate/notes/profiles/kernel-width.py a-code b-code c-code
import csv, subprocess, sys, os, collections, statistics, tempfile
TRACE = os.path.join(tempfile.gettempdir(), 'kernel-width-trace.csv')
os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../.."))
SES = {'a-code': 'h100', 'b-code': 'h100', 'c-code': 'h200'}
def consts(card, s):
    v = collections.defaultdict(list)
    for r in csv.DictReader(open('validate/data/%s/%s/constants.csv' % (card, s))):
        try: v[r['name']].append(float(r['value']))
        except ValueError: pass
    return {k: sum(x)/len(x) for k, x in v.items()}
def excess_fn(c):
    mhz = c['sm_clock_measured']; p = int(c['sm_count'])
    pts = [(1, c['chain_touch_block_per_kernel']), (4, c['chain_touch_4_per_kernel']), (16, c['chain_touch_16_per_kernel']),
           (p//2, c['chain_touch_half_per_kernel']), (p, c['chain_touch_card_per_kernel'])]
    b, w_ = pts[0][1], pts[-1][1]
    def f(w):
        w = min(w, p)
        for (x0, y0), (x1, y1) in zip(pts, pts[1:]):
            if x0 <= w <= x1:
                y = y0 + (y1 - y0) * (w - x0) / (x1 - x0); break
        lin = b + (w_ - b) * (w - 1) / (p - 1)
        return (y - lin) * mhz  # cycles
    return f, mhz
cache = {}
def widths(case, params):
    if (case, params) in cache: return cache[(case, params)]
    cfg = 'programs/user/%s.cfg' % case[5:] if case.startswith('user-') else 'programs/%s/%s.cfg' % (case, case)
    args = ['build/mcmsim', 'run', cfg, '--machine', 'machine/h200-code.cfg', '--trace', TRACE, '--format', 'csv']
    for kv in params.split(';'): args += ['--set', kv]
    try:
        subprocess.run(args, capture_output=True, timeout=60, check=True)
        cnt = collections.Counter(r['kernel'] for r in csv.DictReader(open(TRACE)))
        cache[(case, params)] = list(cnt.values())
    except Exception as e:
        cache[(case, params)] = None
    return cache[(case, params)]
for s in sys.argv[1:]:
    rows = list(csv.DictReader(open('validate/report/%s/points.csv' % s)))
    percase = collections.defaultdict(lambda: ([], []))
    for r in rows:
        c = consts(SES[s], r['session']); f, mhz = excess_fn(c)
        ws = widths(r['case'], r['params'])
        m = float(r['measured_ms']); sim = float(r['simulated_ms'])
        if ws is None: d = 0; tag = '?'
        else: d = sum(f(w) for w in ws) / mhz / 1e3; tag = ''  # ms
        e0 = sim / m - 1; e1 = (sim + d) / m - 1
        percase[r['case']][0].append(abs(e0)); percase[r['case']][1].append(abs(e1))
        print('%s %-15s %-34s K=%-5s w=%-14s d=%+.2fus err %+5.1f -> %+5.1f %s' % (s, r['case'], r['params'][:34], len(ws) if ws else '?',
              ','.join(map(str, sorted(set(ws))))[:14] if ws else '?', d*1e3, 100*e0, 100*e1, tag), flush=True)
    allb, alla = [], []
    for k, (x, y) in sorted(percase.items()):
        print('SUMMARY %s %-15s median %.1f -> %.1f  max %.1f -> %.1f' % (s, k, 100*statistics.median(x), 100*statistics.median(y), 100*max(x), 100*max(y)))
        allb += x; alla += y
    allb.sort(); alla.sort()
    print('SUMMARY %s ALL median %.1f -> %.1f p90 %.1f -> %.1f' % (s, 100*statistics.median(allb), 100*statistics.median(alla), 100*allb[int(0.9*len(allb))], 100*alla[int(0.9*len(alla))]))
