#!/usr/bin/env python3
# stencil-sessions.py — user-stencil's four points over every session timed
# in five processes (run-all.sh's processes/, H100 and H200 2026-11-27h..28b),
# against what the code's costs charge them (card-model.md, "Session 49:
# user-stencil on set b"):
#  1. each process's graph median, its offset from the pooled median of the
#     card's 40 processes (mean over n = 256, 512, 1024, %), one-way ANOVA of
#     the offsets by session, and how far one process's offset is common to
#     its four points (correlation over the processes);
#  2. the session medians of the stencil at n = 256 beside other small points
#     and the session's graph_start_protocol readings (graph-start.csv);
#  3. the model's split of each point (launch: the graph's start and the
#     kernels' boundaries; the body: dispatch and retire, the first read's
#     latency, reads + compute + writes) against sets a, b, c and the pooled
#     median;
#  4. read_after_copy_extra (constants.csv): a read of words the protocol's
#     copy has just written, beyond words copied earlier;
#  5. the probe (probes/st9/, Nsight Compute on an H200): each sweep's
#     duration and SM active cycles, launch by launch, against the model's
#     SMs' busy time in its first sweep (--trace); at n = 256 and 512 the
#     warps' cycles per issued instruction and their stall samples by reason.
#   python3 validate/notes/profiles/stencil-sessions.py [build/mcmsim]
import csv, glob, json, os, statistics as st, subprocess, sys
os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), '../../..'))
MC = sys.argv[1] if len(sys.argv) > 1 else 'build/mcmsim'
SIZES = (256, 512, 1024, 2048)
SMALL = {'user-stencil': 'n=256;l=256;iters=2', 'user-gather': 'n=524288;m=256;l=256;iters=2',
         'user-horner': 'n=16384;d=32;l=256', 'user-matvec': 'n=256;l=256', 'user-jacobi': 'n=4096;l=256;iters=8'}
SETS = (('a', 'h100-code'), ('b', 'h100-code'), ('c', 'h200-code'))


def us(row):
    return float(row['graph_median_ms']) * 1e3


def processes(card):
    out = {}
    for d in sorted(glob.glob('validate/data/%s/2026-11-2*' % card)):
        files = sorted(glob.glob(d + '/processes/user-stencil.*.csv'))
        if files:
            out[os.path.basename(d)] = [{int(r['n']): us(r) for r in csv.DictReader(open(f))} for f in files]
    return out


def corr(xs, ys):
    mx, my = st.mean(xs), st.mean(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / (
        sum((x - mx) ** 2 for x in xs) * sum((y - my) ** 2 for y in ys)) ** 0.5


def anova(groups):
    k, n = len(groups), sum(len(g) for g in groups)
    grand = st.mean([x for g in groups for x in g])
    msb = sum(len(g) * (st.mean(g) - grand) ** 2 for g in groups) / (k - 1)
    msw = sum((x - st.mean(g)) ** 2 for g in groups for x in g) / (n - k)
    return msb / msw, k - 1, n - k, msw ** 0.5, max(0, (msb - msw) / (n / k)) ** 0.5


def part1(card, data):
    pooled = {n: st.median([p[n] for ps in data.values() for p in ps]) for n in SIZES}
    print('== %s: %d processes in %d sessions; pooled medians (us): %s' % (
        card, sum(len(v) for v in data.values()), len(data), '  '.join('%d: %.3f' % (n, pooled[n]) for n in SIZES)))
    offsets = {}
    for s, ps in data.items():
        offsets[s] = [st.mean([p[n] / pooled[n] - 1 for n in SIZES[:3]]) * 100 for p in ps]
        print('  %s  offsets %% %s  (median process %+.1f)   per process n=256/512/1024/2048 us: %s' % (
            s, ' '.join('%+5.1f' % o for o in offsets[s]), st.median(offsets[s]),
            ' | '.join('/'.join('%.2f' % p[n] for n in SIZES) for p in ps)))
    groups = [[o for o in v if abs(o) < 15] for v in offsets.values()]  # a transient (27n's +24 %) left out
    f, d1, d2, within, between = anova(groups)
    print('  ANOVA of the offsets by session (|offset| < 15 %%): F = %.2f (%d, %d); sd within a session %.2f %%, '
          'between sessions %.2f %%' % (f, d1, d2, within, between))
    flat = [p for ps in data.values() for p in ps]
    print('  one process\'s offset is common to its points: r(256, 512) %.2f, r(256, 1024) %.2f, r(512, 2048) %.2f' % (
        corr([p[256] for p in flat], [p[512] for p in flat]), corr([p[256] for p in flat], [p[1024] for p in flat]),
        corr([p[512] for p in flat], [p[2048] for p in flat])))
    return pooled


def part2(card, sessions):
    print('  session medians (us) of small points, and graph_start_protocol (graph-start.csv, mean, readings over '
          'twice the median left out):')
    rows = []
    for s in sessions:
        d = 'validate/data/%s/%s' % (card, s)
        v = {}
        for case, params in SMALL.items():
            for r in csv.DictReader(open('%s/%s.csv' % (d, case))):
                if r['params'] == params:
                    v[case] = us(r)
        g = [float(r['value']) for r in csv.DictReader(open(d + '/graph-start.csv')) if r['name'] == 'graph_start_protocol']
        v['graph_start'] = st.mean([x for x in g if x < 2 * st.median(g)])
        rows.append(v)
        print('    %s %s' % (s, '  '.join('%s %.3f' % (k.replace('user-', ''), x) for k, x in v.items())))
    xs = [v['user-stencil'] for v in rows]
    print('    r(stencil n=256, X) over the sessions: %s' % '  '.join(
        '%s %.2f' % (k.replace('user-', ''), corr(xs, [v[k] for v in rows])) for k in list(SMALL)[1:] + ['graph_start']))


def model(machine):
    out = subprocess.run([MC, 'run', 'programs/user/stencil.cfg', '--machine', machine, '--exec', '--set',
                          'launch=graph', '--format', 'json'], capture_output=True, text=True, check=True).stdout
    pts = {}
    for p in json.loads(out):
        hz, t = p['T'] / p['seconds'], p['time_split']
        pts[p['params']['n']] = {'T': p['seconds'] * 1e6, 'launch': t['launch'] / hz * 1e6,
                                 'ends': (t['dispatch'] + t['retire']) / hz * 1e6, 'first read': t['latency'] / hz * 1e6,
                                 'rest': (t['compute'] + t['memory'] + t['dram'] + t['contention'] + t['idle']) / hz * 1e6}
    return pts


def part3(pooled):
    print('== the code\'s costs per point (us): card, model, error; the model\'s launch | body (ends, first read, '
          'reads + compute + writes); card − model; against the pooled median')
    runs = {m: model(m) for m in ('h100-code', 'h200-code')}
    for s, m in SETS:
        for r in csv.DictReader(open('validate/report/%s-code/points.csv' % s)):
            if r['case'] != 'user-stencil':
                continue
            n, card = int(r['params'].split(';')[0][2:]), float(r['measured_ms']) * 1e3
            p, pm = runs[m][n], pooled[m[:4]][n]
            print('  %s n=%-4d %6.3f %6.3f %+5.1f %% | %.3f | %.3f (%.3f %.3f %.3f) | %+.3f | pooled %.3f: %+5.1f %%, '
                  'card − model %+.3f' % (s, n, card, p['T'], 100 * (p['T'] / card - 1), p['launch'],
                                         p['T'] - p['launch'], p['ends'], p['first read'], p['rest'], card - p['T'],
                                         pm, 100 * (p['T'] / pm - 1), pm - p['T']))


def part4():
    print('== read_after_copy_extra (us; every reading of constants.csv, 27d on; a reading over 1 us left out)')
    for card in ('h100', 'h200'):
        for words in (16384, 262144):
            v = [float(r['value']) for f in sorted(glob.glob('validate/data/%s/2026-11-2*/constants.csv' % card))
                 for r in csv.DictReader(open(f)) if r['name'] == 'read_after_copy_extra_%d' % words]
            v = [x for x in v if abs(x) < 1]
            if v:
                print('  %s %7d words (%4d KiB): median %.3f, %d readings, %.3f .. %.3f' % (
                    card, words, words // 256, st.median(v), len(v), min(v), max(v)))


def ncu_rows(path):
    lines = [l for l in open(path) if l.startswith('"')]
    rows = list(csv.reader(lines))
    head = rows[0]
    return [{k: v.replace(',', '') for k, v in zip(head, r)} for r in rows[2:]]


def model_busy(machine, n):
    with open('/tmp/stencil-sessions-%d.cfg' % n, 'w') as f:
        f.write('machine = "h200";\nprogram = { source = "%s/programs/user/stencil.c"; params = { n = %d; l = 256; '
                'iters = 2; }; };\n' % (os.getcwd(), n))
    trace = '/tmp/stencil-sessions-%d.csv' % n
    subprocess.run([MC, 'run', '/tmp/stencil-sessions-%d.cfg' % n, '--machine', machine, '--exec', '--set',
                    'launch=graph', '--trace', trace, '--format', 'csv'], capture_output=True, check=True)
    rows = list(csv.DictReader(open(trace)))
    first = rows[:len(rows) // 2]  # the first sweep's blocks
    per_sm = {}
    for r in first:
        a, b = per_sm.get(r['sm'], (1e18, 0))
        per_sm[r['sm']] = (min(a, float(r['start'])), max(b, float(r['end'])))
    busy = [b - a for a, b in per_sm.values()]
    return st.mean(busy), max(busy)


def part5():
    d = 'validate/notes/profiles/probes/st9/'
    print('== the probe (H200): each launch of the sweep (0, 1: the untimed run; 2, 3: the wall-timed run; '
          'each run after the restore), ncu duration ns, SM active cycles avg / max; the model\'s first sweep, SMs busy avg / max')
    for n in (256, 512, 1024):
        busy = model_busy('h200-code', n)
        rows = ncu_rows('%sdur-n%d.csv' % (d, n))
        print('  n=%-4d %s | model %.0f / %.0f' % (n, '  '.join('%s: %s ns %s / %s' % (
            r['ID'], r['gpu__time_duration.sum'], r['sm__cycles_active.avg'], r['sm__cycles_active.max'])
            for r in rows), busy[0], busy[1]))
    for n in (256, 512):
        text = open('%ssrc-n%d-details.txt' % (d, n)).read().split('\n')
        cpi = [float(l.split()[-1]) for l in text if 'Warp Cycles Per Issued Instruction' in l]
        rows = list(csv.reader(open('%ssrc-n%d-sass.csv' % (d, n))))
        heads = [i for i, r in enumerate(rows) if r and r[0] == 'Address']
        stalls, inst = {}, 0
        for k, start in enumerate(heads):
            head, end = rows[start], heads[k + 1] if k + 1 < len(heads) else len(rows)
            for r in rows[start + 1:end]:
                if len(r) != len(head) or not r[0].startswith('0x'):
                    continue
                inst += float(r[head.index('Instructions Executed')].replace(',', '') or 0) / len(heads)
                for c in head:
                    if c.startswith('stall_') and '(Not Issued)' not in c:
                        stalls[c[6:]] = stalls.get(c[6:], 0) + float(r[head.index(c)] or 0)
        total = sum(stalls.values())
        warps = n * n / 32
        print('  n=%d: %.2f cycles per issued instruction, %.1f instructions a warp: a warp lives about %.0f cycles; '
              'stall samples (%d, both sweeps): %s' % (n, st.mean(cpi), inst / warps, st.mean(cpi) * inst / warps, total,
                                                      ', '.join('%s %.0f %%' % (k, 100 * v / total) for k, v in sorted(
                                                          stalls.items(), key=lambda x: -x[1]) if v / total >= 0.03)))


pooled = {}
for card in ('h100', 'h200'):
    data = processes(card)
    pooled[card] = part1(card, data)
    part2(card, list(data))
part3(pooled)
part4()
part5()
