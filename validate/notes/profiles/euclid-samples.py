#!/usr/bin/env python3
# euclid-samples.py — where Euclid's ping_pong kernel spends its warps'
# cycles on the card, by region of its SASS, from Nsight Compute's warp
# stall samples per instruction (probe eu9, H200, session 49:
# profiles/probes/eu9/eu9-s{256,1}-sass.csv, `--section SourceCounters`,
# one launch, n = m = 1 000), against the stream's charge of the same
# passes (instruction-stream.md, "Session 49: Euclid's step loop").
#
# A sample is one warp's state at a sampling tick, so a region's share of
# the samples is its share of the warps' cycles.  The warps' cycles in all
# are the kernel's warp instructions times the cycles from one of a warp's
# issues to its next (7.96 at s = 256: the 27cd profiles' stall reasons,
# euclid-stalls-s256.txt); a region's cycles a pass are its share of them
# over its passes (its first instruction's executed count).  The offsets
# are the kernel's own (sass-executed/euclid-s256.csv: the same code).
#
#   python3 validate/notes/profiles/euclid-samples.py
import csv, os

HERE = os.path.dirname(os.path.abspath(__file__))
CYCLES_AN_INSTRUCTION = 7.96  # s = 256, H100 and H200 alike (euclid-s256-stalls-raw-*-27cd.txt)
REGIONS = [  # name, first and last offset (inclusive)
    ('before the step loop', 0x0000, 0x1b90),
    ('loop head, BAR.SYNC', 0x1ba0, 0x1bf0),
    ('choose step', 0x1c00, 0x2ce0),
    ('reduce: control words', 0x2cf0, 0x2db0),
    ('STEP_A head loop pass', 0x2dc0, 0x3020),
    ('STEP_A between', 0x3030, 0x3080),
    ('STEP_A window loop pass', 0x3090, 0x32f0),
    ('STEP_A way out', 0x3300, 0x3310),
    ('STEP_B (both loops)', 0x3320, 0x3890),
    ('loop tail', 0x38a0, 0x38f0),
    ('after the step loop', 0x3900, 0xffff),
]


def read(s):
    rows = list(csv.reader(open(os.path.join(HERE, 'probes/eu9/eu9-s%s-sass.csv' % s))))
    head, data = rows[1], rows[2:]
    at = {k: head.index(k) for k in ('Address', 'Warp Stall Sampling (All Samples)', 'Instructions Executed')}
    reasons = [h for h in head if h.startswith('stall_') and 'Not Issued' not in h]
    base = int(data[0][at['Address']], 16)
    out = []
    for r in data:
        out.append({'offset': int(r[at['Address']], 16) - base, 'samples': int(r[at['Warp Stall Sampling (All Samples)']]),
                    'executed': int(r[at['Instructions Executed']]),
                    'reasons': {h[6:]: int(r[head.index(h)]) for h in reasons if r[head.index(h)] not in ('', '0')}})
    return out


def main():
    for s in ('256', '1'):
        rows = read(s)
        samples = sum(r['samples'] for r in rows)
        executed = sum(r['executed'] for r in rows)
        print('s = %s: %d samples, %d warp instructions executed' % (s, samples, executed))
        for name, lo, hi in REGIONS:
            region = [r for r in rows if lo <= r['offset'] <= hi]
            got = sum(r['samples'] for r in region)
            line = '  %-26s %5d samples (%5.1f %%)' % (name, got, 100.0 * got / samples)
            if s == '256' and 'pass' in name and region:
                passes = region[0]['executed']
                cycles = got / samples * executed * CYCLES_AN_INSTRUCTION / passes
                reasons = {}
                for r in region:
                    for k, v in r['reasons'].items():
                        reasons[k] = reasons.get(k, 0) + v
                line += ', %d warp passes, %.0f cycles a pass (+-%.0f, the samples\' count)' % (
                    passes, cycles, cycles / got ** 0.5)
                line += '; ' + ', '.join('%s %d' % kv for kv in sorted(reasons.items(), key=lambda kv: -kv[1]))
            print(line)


main()
