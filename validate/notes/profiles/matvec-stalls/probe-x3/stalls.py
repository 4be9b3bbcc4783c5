#!/usr/bin/env python3
# stalls.py — user-matvec on the H100 (probe-x3, session 44: ncu at free
# clocks, warm caches, four launches a size; probe-x3-nN-raw.csv), per n:
# the SMs' active cycles, a warp's instructions and lifetime, and its
# cycles in each stall reason (warps stalled per issued instruction times
# the instructions a warp issues; `selected` is the issue itself), medians
# over the launches.  Then the stall samples of one launch at n = 256 and
# 1 024 (probe-x3-nN-sass.csv) split at the first BAR.SYNC after the dot
# product's loop and at the first EXIT (the warps without thread 0 leave;
# their wait for the last barrier is the levels'): the dot product, the
# halving levels and the store.
# (instruction-stream.md, "Session 44: matvec's latency tail".)
#   python3 validate/notes/profiles/matvec-stalls/probe-x3/stalls.py
import csv, os, statistics

HERE = os.path.dirname(os.path.abspath(__file__))
num = lambda s: float(s.replace(',', ''))


def raw(n):
    rows = [l for l in open(os.path.join(HERE, 'probe-x3-n%d-raw.csv' % n)) if l.startswith('"')]
    r = list(csv.reader(rows))
    h = r[0]
    got = [dict(zip(h, x)) for x in r[2:] if 'matvec' in x[h.index('Kernel Name')]]
    return (lambda k: statistics.median(num(g[k]) for g in got)), h, len(got)


def main():
    for n in (256, 512, 1024, 2048):
        med, h, launches = raw(n)
        warps = n * 8
        per_warp = med('smsp__inst_executed.sum') / warps
        stalls = {k[len('smsp__average_warps_issue_stalled_'):-len('_per_issue_active.ratio')]: med(k)
                  for k in h if k.startswith('smsp__average_warps_issue_stalled_') and k.endswith('_per_issue_active.ratio')}
        life = per_warp * sum(stalls.values())
        top = sorted(stalls.items(), key=lambda kv: -kv[1])[:7]
        print('n = %4d: %d launches; SM active %.0f (min %.0f, max %.0f); %.1f instructions a warp, '
              'about %.0f cycles a warp; issue active %.1f %%; L1 hit %.1f %%, L2 hit %.1f %%'
              % (n, launches, med('sm__cycles_active.avg'), med('sm__cycles_active.min'), med('sm__cycles_active.max'),
                 per_warp, life, med('smsp__issue_active.avg.pct_of_peak_sustained_active'),
                 med('l1tex__t_sector_hit_rate.pct'), med('lts__t_sector_hit_rate.pct')))
        print('          a warp\'s cycles: ' + ', '.join('%s %.0f' % (k, v * per_warp) for k, v in top))
    for n in (256, 1024):
        rows = list(csv.reader(open(os.path.join(HERE, 'probe-x3-n%d-sass.csv' % n))))
        h, data = rows[1], [r for r in rows[2:] if len(r) > 4]
        src, samples = h.index('Source'), h.index('# Samples')
        first_bar = next(i for i, r in enumerate(data) if 'BAR.SYNC' in r[src])
        store = next(i for i, r in enumerate(data) if 'EXIT' in r[src]) + 1  # warps but thread 0's leave
        parts = [sum(int(r[samples]) for r in data[a:b]) for a, b in
                 ((0, first_bar + 1), (first_bar + 1, store), (store, len(data)))]
        total = sum(parts)
        print('n = %4d, stall samples (%d): dot product %.0f %%, halving levels and their barriers %.0f %%, '
              'the store %.0f %%' % (n, total, *(100 * p / total for p in parts)))


main()
