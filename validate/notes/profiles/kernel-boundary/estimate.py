#!/usr/bin/env python3
# estimate.py — a kernel boundary by width tried on every code point without
# re-simulating (card-model.md, "Session 47: the H200's kernel boundary"):
# each point's kernels' widths from `mcmsim run --format json` (the
# program's grids, machine-independent), its simulated time moved by the
# sum over its kernels of (new boundary - the preset's line), median |error|
# per case and set (a: the held-out half).  Run from the repository root
# on the base's report (validate/report/*-code/points.csv, machine/*.cfg):
#   python3 validate/notes/profiles/kernel-boundary/estimate.py
# Rules: S (bare line plus a step at two SMs or more: chain_touch_4 less
# chain_touch_block, the card-wide end kept), C (the line through the
# cases' protocol's one-block and card-wide chains), P1 (session 42's
# piecewise line through the replayed 4-, 16-, 66-block chains).
import csv, json, os, re, statistics, subprocess, collections, sys

P = 132
SETS = (('a-code', 'h100', 'h100/2026-11-27n'), ('b-code', 'h100', 'h100/2026-11-27n'),
        ('c-code', 'h200', 'h200/2026-11-27m'))


def widths():
    cache = '/tmp/kernel-boundary-widths.json'
    if os.path.exists(cache):
        return json.load(open(cache))
    out = {}
    for s, _, _ in SETS:
        for r in csv.DictReader(open('validate/report/%s/points.csv' % s)):
            case = 'sum' if r['case'] == 'user-sum' else r['case']
            key = case + '|' + r['params']
            if key in out:
                continue
            params = ' '.join('%s = %s;' % tuple(kv.split('=')) for kv in r['params'].split(';'))
            prog = ('source = "%s";' % os.path.abspath('programs/user/%s.c' % case[5:])) if case.startswith('user-') else 'name = "%s";' % case
            open('/tmp/kernel-boundary-point.cfg', 'w').write(
                'machine = "h200-code"; program = { %s params = { %s }; };\n' % (prog, params))
            run = subprocess.run(['build/mcmsim', 'run', '/tmp/kernel-boundary-point.cfg', '--set', 'launch=graph',
                                  '--format', 'json'], capture_output=True, text=True)
            if run.returncode == 0:
                out[key] = [k['blocks'] for k in json.loads(run.stdout)['kernels']]
    json.dump(out, open(cache, 'w'))
    return out


def rows(session):
    v = collections.defaultdict(list)
    for r in csv.DictReader(open('validate/data/%s/constants.csv' % session)):
        n = r['name']
        m = re.match(r'(protocol_.*)_r\d+$', n)
        try:
            v[m.group(1) if m else n].append(float(r['value']))
        except ValueError:
            pass
    return {k: statistics.mean(x) for k, x in v.items()}


def preset_line(card):
    text = open('machine/%s-code.cfg' % card).read()
    get = lambda k: float(re.search(r'\b%s = ([0-9.e+-]+);' % k, text).group(1))
    return get('graph_launch_latency'), get('graph_launch_per_sm'), get('clock_hz') / 1e6


def rule_s(R, L, per, mhz):
    step = (R['chain_touch_4_per_kernel'] - R['chain_touch_block_per_kernel']) * mhz - 3 * per
    per2 = (per * 131 - step) / 131
    return lambda b: L + (step + per2 * (b - 1) if b >= 2 else 0)


def rule_c(R, L, per, mhz):
    c1, cc = R['protocol_cases_touch_1_per_kernel'], R['protocol_cases_touch_card_per_kernel']
    b1, bc = R['protocol_bare_touch_1_per_kernel'], R['protocol_bare_touch_card_per_kernel']
    dl, dper = (c1 - b1) * mhz, ((cc - c1) - (bc - b1)) * mhz / 131
    return lambda b: L + dl + (per + dper) * (b - 1)


def rule_p1(R, L, per, mhz):
    r1 = R['chain_touch_block_per_kernel']
    pts = sorted({1: 0, 4: (R['chain_touch_4_per_kernel'] - r1) * mhz, 16: (R['chain_touch_16_per_kernel'] - r1) * mhz,
                  66: (R['chain_touch_half_per_kernel'] - r1) * mhz, 132: per * 131}.items())

    def f(b):
        for (x0, y0), (x1, y1) in zip(pts, pts[1:]):
            if b <= x1:
                return L + y0 + (y1 - y0) * (b - x0) / (x1 - x0)
        return L + pts[-1][1]
    return f


def main():
    W = widths()
    for name, rule in (('S', rule_s), ('C', rule_c), ('P1', rule_p1)):
        print('== rule %s: median |error| %% before -> after (all: median, p90)' % name)
        res = {}
        for s, card, session in SETS:
            L, per, mhz = preset_line(card)
            new = rule(rows(session), L, per, mhz)
            errs = collections.defaultdict(lambda: ([], []))
            for r in csv.DictReader(open('validate/report/%s/points.csv' % s)):
                key = ('sum' if r['case'] == 'user-sum' else r['case']) + '|' + r['params']
                if (s == 'a-code' and r['split'] != 'test') or key not in W:
                    continue
                d = sum(new(min(b, P)) - (L + per * (min(b, P) - 1)) for b in W[key]) / mhz * 1e-3
                m, t = float(r['measured_ms']), float(r['simulated_ms'])
                for c in (r['case'], 'all'):
                    errs[c][0].append(abs(t / m - 1))
                    errs[c][1].append(abs((t + d) / m - 1))
            res[s] = errs
        q = lambda v: sorted(v)[int(0.9 * (len(v) - 1))]
        for c in sorted({c for e in res.values() for c in e}, key=lambda c: (c == 'all', c)):
            cells = []
            for s, _, _ in SETS:
                if c in res[s]:
                    b, a = res[s][c]
                    cells.append('%s %.1f -> %.1f' % (s[0], 100 * statistics.median(b), 100 * statistics.median(a)) +
                                 (' (p90 %.1f -> %.1f)' % (100 * q(b), 100 * q(a)) if c == 'all' else ''))
            print('  %-15s %s' % (c, ';  '.join(cells)))


if __name__ == '__main__':
    main()
