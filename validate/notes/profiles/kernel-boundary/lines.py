#!/usr/bin/env python3
# lines.py — probe-hb7's chains by width against two lines a kernel's
# boundary could follow (card-model.md, "Session 47: the H200's kernel
# boundary"): through the one-block and card-wide chains timed the cases'
# way, and through the same chains replayed bare; us a kernel, the means of
# repetitions 1-3 (repetition 0's bare chains ran before the process's first
# cases' series, in its lower state).
#   python3 lines.py ../probes/hb7/h200-widths-1.csv ...
import csv, statistics, sys

for path in sys.argv[1:]:
    v = {}
    for r in csv.DictReader(open(path)):
        try:
            v[r['name']] = float(r['value'])
        except ValueError:
            pass
    sms = int(v['sm_count']) if 'sm_count' in v else 132
    m = lambda way, c: statistics.mean(v['widths_%s_%s_per_kernel_r%d' % (way, c, k)] for k in (1, 2, 3))
    print('== %s' % path)
    for line in ('cases', 'bare'):
        one, card = m(line, 'touch_1'), m(line, 'touch_card')
        at = lambda b: one + (card - one) * (min(b, sms) - 1) / (sms - 1)
        cells = []
        for c, b in (('touch_2', 2), ('touch_4', 4), ('touch_8', 8), ('touch_16', 16), ('touch_32', 32),
                     ('touch128_2', 2), ('touch128_4', 4), ('touch128_8', 8), ('touch128_16', 16),
                     ('touch128_32', 32), ('touch128_128', 128)):
            cells.append('%s %+.3f/%+.3f' % (c, m('bare', c) - at(b), m('cases', c) - at(b)))
        print('  line through the %s chains (%.3f at one block, %.3f card-wide): row less line, bare/cases: %s'
              % (line, one, card, ', '.join(cells)))
