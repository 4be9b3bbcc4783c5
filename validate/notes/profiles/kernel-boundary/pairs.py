#!/usr/bin/env python3
# pairs.py — the touch chains' per-kernel cost, H100 less H200, for every pair
# of sessions that ran the same constants.cu (device.txt's "# code:" line),
# against the cases' graphs of the same sessions (card-model.md, "Session 47:
# the H200's kernel boundary").  Run from validate/data:
#   python3 ../notes/profiles/kernel-boundary/pairs.py
import csv, glob, re, statistics, collections


def code(s):
    for line in open(s + '/device.txt'):
        if line.startswith('# code'):
            return line.split()[3]


def rows(s):
    v = collections.defaultdict(list)
    for r in csv.DictReader(open(s + '/constants.csv')):
        n = r['name']
        m = re.match(r'(protocol_.*)_r\d+$', n)
        if m:
            n = m.group(1)
        try:
            v[n].append(float(r['value']))
        except ValueError:
            pass
    return {k: statistics.mean(x) for k, x in v.items()}


def case_per_kernel(s, case, params):
    for r in csv.DictReader(open('%s/%s.csv' % (s, case))):
        if r['params'] == params:
            return float(r['graph_median_ms']) * 1e3, int(r['launches'])


CASES = [('fft-mult', 'n=1024;m=1024;l=256'), ('fft-mult', 'n=4096;m=4096;l=256'),
         ('euclid', 'n=1000;m=1000;l=256;s=1'), ('cooley-tukey', 'n=16384;l=128;m=16'),
         ('stockham', 'n=16384;l=128')]
by_code = collections.defaultdict(lambda: collections.defaultdict(list))
for s in sorted(glob.glob('h*/2026-11-2[67]*')):
    c = code(s)
    if c:
        by_code[c][s[:4]].append(s)
print('code     H100 / H200 sessions      | chains H100 - H200, us a kernel: replayed 1, 4, 16 blocks; '
      'bare 1, card; cases 1, 2x128, 128x128, card | cases\' graphs H100 - H200 a kernel: ' +
      ', '.join(c + ' ' + p.split(';')[0] + (';s=1' if 's=1' in p else '') for c, p in CASES))
for c, d in by_code.items():
    if 'h100' not in d or 'h200' not in d:
        continue
    a = [rows(s) for s in d['h100']]
    b = [rows(s) for s in d['h200']]

    def m(rs, n):
        x = [r[n] for r in rs if n in r]
        return statistics.mean(x) if x else float('nan')
    names = ['chain_touch_%s_per_kernel' % w for w in ('block', '4', '16')] + \
        ['protocol_%s_per_kernel' % n for n in ('bare_touch_1', 'bare_touch_card', 'cases_touch_1',
                                                 'cases_touch128_2', 'cases_touch128_128', 'cases_touch_card')]
    chains = ['%+.3f' % (m(a, n) - m(b, n)) for n in names]
    graphs = []
    for case, params in CASES:
        ta = statistics.mean(case_per_kernel(s, case, params)[0] for s in d['h100'])
        tb = statistics.mean(case_per_kernel(s, case, params)[0] for s in d['h200'])
        graphs.append('%+.3f' % ((ta - tb) / case_per_kernel(d['h100'][0], case, params)[1]))
    print('%-8s %-25s | %s | %s' % (c[:7], ','.join(x[-3:] for x in d['h100']) + ' / ' +
                                     ','.join(x[-3:] for x in d['h200']), ' '.join(chains), ' '.join(graphs)))
