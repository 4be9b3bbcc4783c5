#!/usr/bin/env python3
# euclid-stalls.py — Euclid's step pair at s = 256, the list schedule of
# scheduler-share.py with each warp's cycles named by state, against
# Nsight Compute's full stall breakdown of the same kernel on the card
# (instruction-stream.md, "Euclid's stalls, every reason", session 39).
#
# Nsight Compute's smsp__average_warps_issue_stalled_R_per_issue_active
# is the warps in state R, summed over the cycles, over the instructions
# issued: over all reasons (selected included) the cycles from one of a
# warp's issues to its next.  The schedule counts the same thing: each of
# the block's 8 warps, each quarter cycle, in one state (scheduler-share.py,
# schedule's account), over the warp instructions it issues.  The choose
# step runs every warp: thread 0's warp its whole path, the other seven
# the step's head, its barrier and the skip to the step's end (the
# executed counts of sass-executed/euclid-s256.csv: 8 224 warps enter the
# choose branch, 1 024 go on).
#
#   (the two cubins as scheduler-share.py says)
#   python3 validate/notes/profiles/euclid-stalls.py /tmp/euclid.cubin /tmp/constants.cubin
# (output: euclid-stalls-s256.txt)
import csv, os, re, sys, types

HERE = os.path.dirname(os.path.abspath(__file__))
SH = types.ModuleType('share')
SH.__dict__['__file__'] = os.path.join(HERE, 'scheduler-share.py')
source = open(SH.__file__).read().replace('\nmain()\n', '\n')
exec(compile(source, SH.__file__, 'exec'), SH.__dict__)
S = SH.S
PROFILES = 'validate/notes/profiles/euclid-s%s-stalls-raw-%s-27cd.txt'
REASONS = ('selected', 'wait', 'wait (IMAD.WIDE)', 'short_scoreboard', 'math_pipe_throttle', 'mio_throttle',
           'not_selected', 'branch_resolving', 'barrier', 'no_instruction', 'dispatch_stall', 'long_scoreboard',
           'imc_miss', 'drain')
CARD_INSTRUCTIONS = 256.5  # a warp a step pair in the loop over steps (sass-schedule-euclid-s256.txt)


def card(s, name):
    out = {}
    for line in open(PROFILES % (s, name)):
        m = re.search(r'smsp__average_warps_issue_stalled_(\w+)_per_issue_active\.ratio\s+inst\s+([\d.]+)', line)
        if m:
            out[m.group(1)] = float(m.group(2))
    if not out:
        sys.exit('%s: no stall reasons' % (PROFILES % (s, name)))
    return out


def main():
    if len(sys.argv) != 3:
        sys.exit('usage: euclid-stalls.py EUCLID.cubin CONSTANTS.cubin')
    c = SH.constants()
    _, wide_wait = SH.derived_wide_wait(c, sys.argv[2])
    extra = SH.taken_branch_extra(c, sys.argv[2])

    ins = S.decode(S.kernel_code(sys.argv[1], 'ping_pong'))
    text = {int(r['offset']): r['sass'] for r in csv.DictReader(open(S.EXECUTED))}
    choose = [(0x1ba0, 0x1bf0, False), (0x1c00, 0x1ce0, False), (0x1cf0, 0x1d20, True), (0x1da0, 0x1e20, False),
              (0x1e30, 0x1e90, True), (0x1f20, 0x2090, True), (0x2cd0, 0x2ce0, True), (0x38a0, 0x38f0, True)]
    skip = [(0x1ba0, 0x1bf0, False), (0x1c00, 0x1c40, True), (0x2cd0, 0x2ce0, True), (0x38a0, 0x38f0, True)]
    head, window = (0x2dc0, 0x3020, True), (0x3090, 0x32c0, True)
    reduce_38 = [(0x1ba0, 0x1bf0, True), (0x2cf0, 0x2db0, False)] + [head] * 2 + [(0x3030, 0x3080, False)] + \
        [window] * 3 + [(0x32d0, 0x32e0, True), (0x38a0, 0x38f0, True)]
    # the same pass counts with every window pass's latch (IMAD.IADD, ISETP, BRA: 0x32d0-0x32f0, walked
    # once in reduce_38) and the way out (0x3300 BSYNC, 0x3310 BRA), as the executed counts have them
    latched = (0x3090, 0x32f0, True)
    reduce_path = [(0x1ba0, 0x1bf0, True), (0x2cf0, 0x2db0, False), head, (0x2dc0, 0x3020, False),
                   (0x3030, 0x3080, False), latched, latched, (0x3090, 0x32f0, False), (0x3300, 0x3310, True),
                   (0x38a0, 0x38f0, True)]

    # the choose step's two scans pass 1.5 times a step on the card (0x1cf0: 1 536 warps for 1 024, 0x1e30:
    # 1 532): half the steps once (choose), half twice (choose_twice)
    choose_twice = [(0x1ba0, 0x1bf0, False), (0x1c00, 0x1ce0, False), (0x1cf0, 0x1d80, True), (0x1cf0, 0x1d20, True),
                    (0x1da0, 0x1e20, False), (0x1e30, 0x1f10, True), (0x1e30, 0x1e90, True), (0x1f20, 0x2090, True),
                    (0x2cd0, 0x2ce0, True), (0x38a0, 0x38f0, True)]
    paths = {'session 39\'s path': ([choose], reduce_38), 'the executed path': ([choose, choose_twice], reduce_path)}

    def stream(segments):
        return [(ins[a], text.get(a, ''), taken and a == hi)
                for lo, hi, taken in segments for a in range(lo, hi + 16, 16)]

    def pair(path, warps, on, wait, e, policy='old'):
        """A step pair: cycles, warp instructions a warp, each state's cycles over the instructions issued."""
        chooses, reduce = paths[path]
        account, cycles, issued = {}, 0.0, 0
        for one in chooses:  # each 1 / len(chooses) of the steps
            streams = [stream(one)] + [stream(skip)] * (warps - 1)
            cycles += max(SH.schedule(streams, on, c, wait, e, policy, account))
            cycles += max(SH.schedule([stream(reduce)] * warps, on, c, wait, e, policy, account))
            issued += sum(len(x) for x in streams) + warps * len(stream(reduce))
        return cycles / len(chooses), issued / len(chooses) / warps, {r: v / issued for r, v in account.items()}

    cards = {(s, n): card(s, n) for s in ('256', '1') for n in ('h100', 'h200')}
    print('constants: %s; an IMAD.WIDE %.2f cycles beyond its stall count, a taken branch %.2f besides'
          % (SH.SESSION, wide_wait, extra))
    print('Euclid, n = m = 1 000, s = l = 256, a step pair (the loop over steps, 0x1ba0-0x38f0)')
    print('1. warp instructions a warp a step pair: the card %.1f (sass-executed/euclid-s256.csv); '
          % CARD_INSTRUCTIONS + ', '.join('%s %.1f' % (p, pair(p, 8, [w % 4 for w in range(8)], 0, 0)[1])
                                          for p in paths))
    print('2. the step pair, cycles, taken branches at 0 / %.2f (the block\'s warps: thread 0\'s the choose path, '
          'the others its skip)' % extra)
    for p in paths:
        for label, wait in (('stall counts alone', 0.0), ('an IMAD.WIDE %.2f more' % wide_wait, wide_wait)):
            for warps, on in ((1, [0]), (2, [0, 0]), (8, [w % 4 for w in range(8)])):
                got = [pair(p, warps, on, wait, e)[0] for e in (0.0, extra)]
                print('   %-19s %-22s %d warp%s on %d scheduler%s: %4.0f / %4.0f'
                      % (p, label, warps, 's' if warps > 1 else ' ', len(set(on)), 's' if len(set(on)) > 1 else ' ',
                         got[0], got[1]))
    print('   the card: %.0f (session 36, 7.92 cycles an instruction), %.0f (the 27cd profiles\' reasons, %.2f)'
          % (7.92 * CARD_INSTRUCTIONS, sum(cards[('256', 'h100')].values()) * CARD_INSTRUCTIONS,
             sum(cards[('256', 'h100')].values())))
    print('3. each reason: warps in it over warp instructions issued (Nsight Compute\'s ratio) and, in brackets,'
          ' x %.1f (cycles a warp a step pair); the schedule: the block\'s 8 warps on 4 schedulers, the oldest first'
          % CARD_INSTRUCTIONS)
    runs = [('39\'s path, 0', pair('session 39\'s path', 8, [w % 4 for w in range(8)], wide_wait, 0.0)),
            ('39\'s path, %.2f' % extra, pair('session 39\'s path', 8, [w % 4 for w in range(8)], wide_wait, extra)),
            ('executed, %.2f' % extra, pair('the executed path', 8, [w % 4 for w in range(8)], wide_wait, extra))]
    print('%-20s' % 'reason' + ''.join('%18s' % label for label, _ in runs) +
          '%14s%14s%10s%10s' % ('H100 s=256', 'H200 s=256', 'H100 s=1', 'H200 s=1'))

    def row(name, mine, theirs):
        line = '%-20s' % name + ''.join('%18s' % ('%.2f (%4.0f)' % (v, v * CARD_INSTRUCTIONS)) for v in mine)
        for (s, _), v in zip(sorted(cards, key=lambda k: (k[0] != '256', k[1])), theirs):
            line += ('%14s' if s == '256' else '%10s') % (
                '-' if v is None else '%.2f (%4.0f)' % (v, v * CARD_INSTRUCTIONS) if s == '256' else '%.2f' % v)
        print(line)
    order = sorted(cards, key=lambda k: (k[0] != '256', k[1]))
    for r in REASONS:
        row(r, [run[2].get(r, 0.0) for _, run in runs],
            [None if r == 'wait (IMAD.WIDE)' else cards[k].get(r) for k in order])
    row('all', [sum(run[2].values()) for _, run in runs], [sum(cards[k].values()) for k in order])

main()
