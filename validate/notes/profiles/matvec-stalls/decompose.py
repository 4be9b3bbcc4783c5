#!/usr/bin/env python3
# decompose.py — user-matvec's kernel on the H100 from Nsight Compute's raw
# metrics (nN-raw.csv: free clocks, warm caches, six launches) and its
# sections (nN-flushed.csv: base clocks, caches flushed, four launches):
# the matvec kernel's rows only (the protocol's spin kernel left out), the
# median over the launches.  A warp's lifetime is the SM's resident warps
# (sm__warps_active, % of 64, over its active cycles) times those cycles,
# over the warps an SM runs (n blocks of 8 warps on 132 SMs); per warp,
# `wait` is smsp__average_warps_issue_stalled_wait_per_issue_active times
# the issue-active cycles (one a warp instruction) over the warps of a
# scheduler.  (instruction-stream.md, "Session 41: matvec against its
# profile".)
#   python3 validate/notes/profiles/matvec-stalls/decompose.py
import csv, os, statistics

HERE = os.path.dirname(os.path.abspath(__file__))
num = lambda s: float(s.replace(',', ''))


def raw(n):
    rows = [l for l in open(os.path.join(HERE, 'n%d-raw.csv' % n)) if l.startswith('"')]
    r = list(csv.reader(rows))
    h = r[0]
    got = [dict(zip(h, x)) for x in r[2:] if 'matvec' in x[h.index('Kernel Name')]]
    med = lambda k: statistics.median(num(g[k]) for g in got)
    return med, len(got)


def flushed(n):
    rows = [l for l in open(os.path.join(HERE, 'n%d-flushed.csv' % n)) if l.startswith('"')]
    v = {}
    for x in list(csv.reader(rows))[1:]:
        if 'matvec' in x[4] and x[12]:
            try:
                v.setdefault(x[12], []).append(num(x[14]))
            except ValueError:
                pass
    return lambda k: statistics.median(v[k])


print('n: launches; duration us; SM cycles elapsed; a scheduler active (mean, max); instructions a warp; '
      'issue-active of a scheduler\'s active cycles; warps resident an SM; a warp\'s lifetime; per warp: '
      'long scoreboard, wait, issued; the rest; a scheduler active over (lifetime x waves)')
for n in (256, 1024, 2048):
    m, k = raw(n)
    warps = n * 8
    per_sm = warps / 132.0
    per_smsp = warps / 528.0
    active, active_max = m('smsp__cycles_active.avg'), m('smsp__cycles_active.max')
    resident = m('sm__warps_active.avg.pct_of_peak_sustained_active') / 100 * 64
    life = resident * active / per_sm
    inst = m('smsp__inst_executed.sum') / warps
    long_sb = m('smsp__average_warp_latency_issue_stalled_long_scoreboard.ratio')
    wait = m('smsp__average_warps_issue_stalled_wait_per_issue_active.ratio') * m('smsp__inst_executed.avg') / per_smsp
    waves = max(1, round(n / (132 * 8) + 0.49))
    print('n = %4d: %d launches; %.2f us; %.0f; %.0f, %.0f; %.1f; %.1f %%; %.1f; %.0f; %.0f (%.0f a load), %.0f, %.0f; %.0f; %.2f'
          % (n, k, m('gpu__time_duration.sum') / 1e3, m('sm__cycles_elapsed.avg'), active, active_max, inst,
             m('smsp__issue_active.avg.pct_of_peak_sustained_active'), resident, life, long_sb,
             long_sb / max(1, n // 256), wait, inst, life - long_sb - wait - inst, active / (life * waves)))
    f = flushed(n)
    print('         flushed, base clocks: SM active %.0f cycles, warp cycles an issued instruction %.1f, '
          'active warps a scheduler %.2f, eligible %.2f, no eligible %.1f %%, achieved occupancy %.1f %%'
          % (f('SM Active Cycles'), f('Warp Cycles Per Issued Instruction'), f('Active Warps Per Scheduler'),
             f('Eligible Warps Per Scheduler'), f('No Eligible'), f('Achieved Occupancy')))
