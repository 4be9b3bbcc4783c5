#!/usr/bin/env python3
# chains.py — constants.cu's chains of the kernel boundary (graphs of 1 to
# 32 kernels) on each card's machine (machine/h100*.cfg, machine/h200*.cfg,
# chains.cfg in exec mode) against the reference sessions' chain_* rows
# (the mean of the readings before and after): the graph of one kernel and
# the cost per kernel (the least-squares slope, as constants.cu takes it).
# Chains no session measured yet print the model's line alone.
#   [CHAINS_H100=h100/S] [CHAINS_H200=h200/S] python3 validate/notes/profiles/chains.py [build/mcmsim]
# (the sessions default to h100/2026-11-26g and h200/2026-11-26f, the first H200
# session with every chain; chains-model.txt is of h200/2026-11-26b, before them)
import csv, subprocess, sys, os
os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), '../../..'))
MC = sys.argv[1] if len(sys.argv) > 1 else 'build/mcmsim'
def consts(d):
    v = {}
    for r in csv.DictReader(open(d + '/constants.csv')):
        v.setdefault(r['name'], []).append(float(r['value']))
    return {k: sum(x) / len(x) for k, x in v.items()}
chains = [('touch_card', 0, 132), ('touch_half', 0, 66), ('touch_16', 0, 16), ('touch_4', 0, 4), ('touch_block', 0, 1),
          ('pair_block', 1, 1), ('dependent_block', 2, 1), ('reduce_block', 3, 1),
          ('args_card', 4, 132), ('shared_card', 5, 132), ('code_card', 6, 132), ('loop_card', 7, 132), ('horner_card', 8, 132),
          ('shift1_block', 9, 1), ('shift32_block', 10, 1), ('guarded_block', 11, 1), ('stored_block', 12, 1)]
extra = sys.argv[2:]
S100 = os.environ.get('CHAINS_H100', 'h100/2026-11-26g')
S200 = os.environ.get('CHAINS_H200', 'h200/2026-11-26f')
for mach, sess in [('h100', S100), ('h100-code', S100), ('h200', S200), ('h200-code', S200)]:
    c = consts('validate/data/' + sess); clk = c['sm_clock_measured']
    print('== %s (%s)  %-16s %7s %7s %6s | %7s %7s %6s' % (mach, sess, 'chain', 'card1', 'sim1', 'err%', 'cardk', 'simk', 'err%'))
    for name, shape, b in chains:
        out = subprocess.run([MC, 'run', 'validate/notes/profiles/chains.cfg', '--machine', 'machine/%s.cfg' % mach, '--set', 'launch=graph', '--set', 'b=%d' % b,
                              '--set', 'shape=%d' % shape, '--format', 'csv'] + extra, capture_output=True, text=True)
        rows = {int(r['k']): float(r['T']) / clk for r in csv.DictReader(out.stdout.splitlines())}
        if not rows: print(out.stderr); continue
        ks = sorted(rows); n = len(ks)
        sx = sum(ks); sy = sum(rows[x] for x in ks); sxx = sum(x * x for x in ks); sxy = sum(x * rows[x] for x in ks)
        slope = (n * sxy - sx * sy) / (n * sxx - sx * sx)
        if 'chain_%s_1' % name not in c:
            print('   %-38s %7s %7.3f %6s | %7s %7.3f (not measured yet; line %.3f + %.3f k)' % (name, '', rows[1], '', '', slope, rows[1] - slope, slope)); continue
        c1 = c['chain_%s_1' % name]; ck = c['chain_%s_per_kernel' % name]
        print('   %-38s %7.3f %7.3f %6.1f | %7.3f %7.3f %6.1f' % (name, c1, rows[1], 100 * (rows[1] / c1 - 1), ck, slope, 100 * (slope / ck - 1)))
