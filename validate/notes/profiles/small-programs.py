#!/usr/bin/env python3
# small-programs.py — the user examples' points taken apart against the
# touch chains (card-model.md, "The small programs taken apart"): for each
# point of sets a, a-code, c and c-code (validate/report/SET/points.csv),
# the card's time less its session's graph of L touch kernels (chain_touch_card_L,
# the mean of the readings before and after; the chain's line where L is not
# a power of two), against the model's time less the model's own graph of L
# touch kernels on the same machine (chains.cfg, shape 0, a block per SM).
# gap = (card - card's touch graph) - (model - model's touch graph): what the
# kernels' bodies cost on the card beyond what the model charges them.
#   python3 validate/notes/profiles/small-programs.py [build/mcmsim]
import csv, subprocess, sys, re, os
os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), '../../..'))
MC = sys.argv[1] if len(sys.argv) > 1 else 'build/mcmsim'
SETS = {'a': ('h100', 'validate/data/h100/2026-11-26g'), 'a-code': ('h100-code', 'validate/data/h100/2026-11-26g'),
        'c': ('h200', 'validate/data/h200/2026-11-26b'), 'c-code': ('h200-code', 'validate/data/h200/2026-11-26b')}


def constants(d):
    v = {}
    for r in csv.DictReader(open(d + '/constants.csv')):
        v.setdefault(r['name'], []).append(float(r['value']))
    return {k: sum(x) / len(x) for k, x in v.items()}


def kernels(case, params):
    p = dict(kv.split('=') for kv in params.split(';'))
    return {'user-horner': 1, 'user-matvec': 1}.get(case) or int(p['iters'])


touch = {}


def model_touch(machine, L, blocks):
    if (machine, L) not in touch:
        out = subprocess.run([MC, 'run', 'validate/notes/profiles/chains.cfg', '--machine', 'machine/%s.cfg' % machine,
                              '--set', 'launch=graph', '--set', 'shape=0', '--set', 'k=%d' % L, '--set',
                              'b=%d' % blocks, '--format', 'csv'], capture_output=True, text=True, check=True).stdout
        touch[(machine, L)] = float([r for r in csv.DictReader(out.splitlines()) if r['k'] == str(L)][0]['T'])
    return touch[(machine, L)]


def card_touch(c, L):
    if 'chain_touch_card_%d' % L in c:
        return c['chain_touch_card_%d' % L]
    return c['chain_touch_card_per_graph'] + L * c['chain_touch_card_per_kernel']


for s, (machine, session) in SETS.items():
    c = constants(session)
    mhz = c['sm_clock_measured']
    p = int(c['sm_count'])
    print('== set %s (machine/%s.cfg, %s): the card\'s graph of one touch kernel %.3f us, the model\'s %.3f' % (
        s, machine, session, card_touch(c, 1), model_touch(machine, 1, p) / mhz))
    print('%-13s %-30s %2s %7s %7s %6s | %7s %7s | %7s %7s %7s' % ('case', 'params', 'L', 'card', 'model', 'err%',
                                                                   'c.touch', 'm.touch', 'c-touch', 'm-touch', 'gap'))
    for r in csv.DictReader(open('validate/report/%s/points.csv' % s)):
        if not r['case'].startswith('user-') or r['case'] == 'user-sum':
            continue
        L = kernels(r['case'], r['params'])
        card = float(r['measured_ms']) * 1e3
        model = float(r['simulated_ms']) * 1e3
        ct = card_touch(c, L)
        mt = model_touch(machine, L, p) / mhz
        print('%-13s %-30s %2d %7.3f %7.3f %6.1f | %7.3f %7.3f | %7.3f %7.3f %7.3f' % (
            r['case'], r['params'][:30], L, card, model, 100 * (model / card - 1), ct, mt, card - ct, model - mt,
            card - ct - (model - mt)))
