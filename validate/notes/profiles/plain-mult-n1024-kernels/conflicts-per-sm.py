#!/usr/bin/env python3
# conflicts-per-sm.py — MulKer's shared-memory wavefronts and bank conflicts
# on its busiest SM at n = 1 024, s = 2, 4, 8, against the cycles the code's
# costs leave out (session 40, w5; instruction-stream.md, "MulKer's bank
# conflicts on the chain, against the kernels' profile").
#
#   python3 validate/notes/profiles/plain-mult-n1024-kernels/conflicts-per-sm.py
#
# From this folder's CSVs (launch 0, MulKer, of each run: -r1, -r2 locked
# at base clocks, -free not): the busiest SM's cycles, the shared loads'
# wavefronts and bank conflicts (op_ld only: the stores' are not counted),
# instructions, the short-scoreboard and MIO-throttle stalls per issue.
# The busiest SM holds ceil(grid/132) blocks.  A wavefront takes
# warp/lanes_private = 32/29.4342 cycles of the SM's shared-memory pipe
# (shared_per_sm_cycle, H100 2026-11-27e, machine/h100-code.cfg).  The
# simulated MulKer (h100-code, launch from start to end, w2's note) is
# typed in below, the figures `mcmsim run programs/plain-mult/
# plain-mult-card.cfg --exec --machine h100-code --set s=S` prints.
import csv, math, os

HERE = os.path.dirname(os.path.abspath(__file__))
SMS, WARP, LANES_PRIVATE = 132, 32, 29.4342
WAVEFRONT = WARP / LANES_PRIVATE
SIMULATED = {2: 14560, 4: 8258, 8: 10436}


def mulker(path):
    m = {}
    for r in csv.DictReader(open(path)):
        if r['ID'] == '0':
            m[r['Metric Name']] = float(r['Metric Value'].replace(',', ''))
    return m


def stall(m, what):
    key = [k for k in m if 'stalled_' + what in k]
    return m[key[0]]


print('s  run   busiest  missing  blocks  wavefronts  conflicts  conflicts'
      '  pipe    short-sb  mio-thr')
print('         SM       (card -  an SM   an SM       an SM      cycles'
      '     cycles  a warp    a warp')
print('                  sim)')
for s in (2, 4, 8):
    for run in ('r1', 'r2', 'free'):
        m = mulker(os.path.join(HERE, 'plain-mult-n1024-s%d-kernels-ncu-%s.csv' % (s, run)))
        grid = m['launch__grid_size']
        per_sm = math.ceil(grid / SMS)
        waves = m['l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum'] / grid * per_sm
        conflicts = m['l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum'] / grid * per_sm
        inst_warp = m['smsp__inst_executed.sum'] / (grid * m['launch__block_size'] / WARP)
        busiest = m['sm__cycles_active.max']
        print('%d  %-5s %7.0f  %+7.0f  %5d  %10.0f  %9.0f  %9.0f  %6.0f  %7.0f  %7.0f' %
              (s, run, busiest, busiest - SIMULATED[s], per_sm, waves, conflicts, conflicts * WAVEFRONT,
               waves * WAVEFRONT, stall(m, 'short_scoreboard') * inst_warp, stall(m, 'mio_throttle') * inst_warp))
