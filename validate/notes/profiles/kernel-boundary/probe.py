#!/usr/bin/env python3
# probe.py — probe-hb7's rows (constants --boundary-widths-only), one line a
# chain: us a kernel, the bare way and the cases' way, each repetition
# (cases r1, r3: the series reversed), and the chains around the warm-up.
#   python3 probe.py ../probes/hb7/h200-widths-1.csv ...
import csv, sys

for path in sys.argv[1:]:
    v = {r['name']: float(r['value']) for r in csv.DictReader(open(path)) if r['name'] not in ('name',)
         and r['value'].replace('.', '', 1).replace('-', '', 1).replace('e', '', 1).isdigit()}
    print('== %s: touch_block %.3f, card %.3f, block after the warm-up %.3f, again %.3f / %.3f' % (
        path, v.get('chain_touch_block_per_kernel', 0), v.get('chain_touch_card_per_kernel', 0),
        v.get('chain_touch_block_warmed_per_kernel', 0), v.get('chain_touch_block_again_per_kernel', 0),
        v.get('chain_touch_card_again_per_kernel', 0)))
    chains = []
    for n in v:
        if n.startswith('widths_bare_') and n.endswith('_per_kernel_r0'):
            chains.append(n[len('widths_bare_'):-len('_per_kernel_r0')])
    for c in chains:
        cells = []
        for way in ('bare', 'cases'):
            reps = [v.get('widths_%s_%s_per_kernel_r%d' % (way, c, r)) for r in range(8)]
            cells.append(way + ' ' + ' '.join('%.3f' % x for x in reps if x is not None))
        print('  %-15s %s' % (c, ' | '.join(cells)))
