#!/usr/bin/env python3
# sass-schedule.py — a kernel's static schedule, read from its cubin, along
# the path the card executed (instruction-stream.md, "Euclid's step against
# its own schedule", session 38).  No GPU and no disassembler.
#
# An sm_90 instruction is 16 bytes; its opcode is the low 12 bits (as
# validate/stream/sass_count.c), and its control bits are bits 105-125:
# the stall count (bits 105-108: the cycles the warp waits after issuing it
# before it issues its next instruction, set by ptxas from its latency
# tables), the yield bit (109), the scoreboard it sets for a result of
# variable latency (110-112, 7: none; LDS, LDG, S2R ...), the scoreboard it
# releases on reading its operands (113-115) and the scoreboards it waits
# for before it issues (116-121, a mask).  (Jia et al., "Dissecting the
# NVIDIA Volta GPU architecture via microbenchmarking", 2018, §2, the same
# 128-bit format since Volta.)  So a warp alone on its scheduler issues
# in order: each instruction stall-count cycles after the one before, or
# later when it waits for a scoreboard (a load's result).
#
# What it prints, for Euclid's ping_pong at n = m = 1 000, l = 256, s = 256:
#  1. the check that the cubin built from today's tree is the code the
#     card ran (sass-executed/euclid-s256.csv, session 36): the opcode of
#     every branch, barrier and shared access at the same offsets;
#  2. per warp, from the executed counts: its instructions and the sum of
#     their stall counts, over the launch and per step pair of the loop
#     over steps (0x1ba0-0x38f0);
#  3. the walk of one warp along the executed path of a choose step
#     (thread 0's warp) and of a reduce step, at the card's measured
#     constants: stall counts, a shared load's result shared_latency after
#     it issued, a barrier cycles_barrier, and a taken branch the extra
#     that constants.cu's loop chain shows beyond its own stall counts
#     (chain_loop less chain_touch per pass, as validate/card.c takes
#     cycles_branch, less the stall counts of loop_kernel's pass);
#  4. the loop chain's pass (that extra, derived), and the card's step pair.
#
#   nvcc -O3 -arch=sm_90 -cubin -x cu -Isim/exec -Icuda_ref/common -include mcm_kernel_cuda.cuh \
#        -DMCM_CASE_PREFIX='""' -o /tmp/euclid.cubin programs/euclid/kernels.c
#   nvcc -O3 -arch=sm_90 -cubin -Icuda_ref/common -o /tmp/constants.cubin cuda_ref/constants.cu
#   python3 validate/notes/profiles/sass-schedule.py /tmp/euclid.cubin /tmp/constants.cubin
# (output: sass-schedule-euclid-s256.txt)
import csv, os, struct, sys

os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), '../../..'))
SESSION = 'validate/data/h100/2026-11-26h'
EXECUTED = 'validate/notes/profiles/sass-executed/euclid-s256.csv'
WARPS, STEP_PAIRS = 32, 256  # the launch: 4 blocks of 8 warps, 2s + 2 steps
CARD_CYCLES_PER_INSTRUCTION = 7.92  # Nsight Compute, warp-states-h100.txt: the same kernel, session 36
BRA, BSSY, BSYNC, LDS, STS, EXIT, BAR = 0x947, 0x945, 0x941, 0x984, 0x388, 0x94d, 0xb1d


def kernel_code(path, name_part):
    data = open(path, 'rb').read()
    shoff = struct.unpack_from('<Q', data, 0x28)[0]
    shentsize, shnum, shstrndx = struct.unpack_from('<HHH', data, 0x3a)
    secs = [struct.unpack_from('<IIQQQQ', data, shoff + i * shentsize) for i in range(shnum)]
    names = secs[shstrndx][4]

    def name(n):
        s = data[names + n:]
        return s[:s.index(b'\0')].decode()
    for s in secs:
        if name(s[0]).startswith('.text.') and name_part in name(s[0]):
            return data[s[4]:s[4] + s[5]]
    sys.exit('%s: no kernel named like %s' % (path, name_part))


def decode(code):
    """Per instruction (offset): opcode, stall, set scoreboard, wait mask, branch target."""
    out = {}
    for i in range(len(code) // 16):
        lo, hi = struct.unpack_from('<QQ', code, 16 * i)
        op = lo & 0xfff
        target = None
        if op == BRA:
            v = ((lo >> 16) & 0xff) | ((lo >> 34) << 8)
            if v >> 37:
                v -= 1 << 38
            target = 16 * i + 16 + 4 * v
        out[16 * i] = dict(op=op, stall=(hi >> 41) & 0xf, sets=(hi >> 46) & 7, wait=(hi >> 52) & 0x3f,
                           target=target)
    return out


def constants():
    v = {}
    for r in csv.DictReader(open(SESSION + '/constants.csv')):
        v.setdefault(r['name'], []).append(float(r['value']))
    return {k: sum(x) / len(x) for k, x in v.items()}


def walk(ins, segments, c, taken_extra):
    """One warp alone: each instruction issues stall cycles after the one
    before, or when the scoreboards it waits for are released (on Euclid's
    path only LDS sets one: its result shared_latency after it issues); a
    barrier syncthreads_l256; a taken branch (a segment's end marked True)
    taken_extra besides."""
    t, board = 0.0, {}
    for lo, hi, taken in segments:
        for a in range(lo, hi + 1, 16):
            i = ins[a]
            t = max([t] + [board.get(k, 0) for k in range(6) if i['wait'] >> k & 1])
            if i['sets'] != 7:
                board[i['sets']] = t + (c['shared_latency'] if i['op'] == LDS else 2)
            if i['op'] == BAR:
                t += c['syncthreads_l256']
            t += i['stall']
        if taken:
            t += taken_extra
    return t


def main():
    if len(sys.argv) != 3:
        sys.exit('usage: sass-schedule.py EUCLID.cubin CONSTANTS.cubin')
    c = constants()
    ins = decode(kernel_code(sys.argv[1], 'ping_pong'))
    rows = {int(r['offset']): r for r in csv.DictReader(open(EXECUTED))}
    checked = wrong = 0
    first = {BRA: 'BRA', BSSY: 'BSSY', BSYNC: 'BSYNC', LDS: 'LDS', STS: 'STS', EXIT: 'EXIT'}
    for a, r in rows.items():
        word = r['sass'].split(None, 2)[1] if r['sass'].startswith('@') else r['sass'].split()[0]
        mnemonic = word.split('.')[0]
        if a in ins and ins[a]['op'] in first:
            checked += 1
            wrong += first[ins[a]['op']] != mnemonic
    print('1. the cubin against the executed SASS: %d branches, barriers and shared accesses at the same offsets, '
          '%d differ' % (checked, wrong))
    n = sum(int(r['warp_instructions_executed']) for r in rows.values())
    stall = sum(int(r['warp_instructions_executed']) * ins[a]['stall'] for a, r in rows.items() if a in ins)
    loop = [a for a in rows if 0x1ba0 <= a <= 0x38f0]
    ln = sum(int(rows[a]['warp_instructions_executed']) for a in loop)
    ls = sum(int(rows[a]['warp_instructions_executed']) * ins[a]['stall'] for a in loop)
    print('2. per warp, the launch: %.0f instructions, %.0f cycles of stall counts (%.2f an instruction);'
          % (n / WARPS, stall / WARPS, stall / n))
    print('   per step pair of the loop over steps: %.1f instructions, %.0f cycles of stall counts'
          % (ln / WARPS / STEP_PAIRS, ls / WARPS / STEP_PAIRS))
    # constants.cu's loop chain: its pass, less its own stall counts
    loop_ins = decode(kernel_code(sys.argv[2], 'loop_kernel'))
    back = [a for a, i in loop_ins.items() if i['op'] == BRA and i['target'] is not None and i['target'] < a]
    lo = loop_ins[back[0]]['target']
    own = sum(loop_ins[a]['stall'] for a in range(lo, back[0] + 16, 16))
    per_pass = (c['chain_loop_card_per_kernel'] - c['chain_touch_card_per_kernel']) * c['sm_clock_measured'] / 1024
    extra = per_pass - own
    loop_line = ('4. the loop chain: %.2f cycles a pass on the card (%s), its pass %#x-%#x %d cycles of stall counts: '
          'a taken branch %.2f cycles besides' % (per_pass, SESSION.split('/')[-1], lo, back[0], own, extra))
    # the executed path (segments: first offset, last offset, ends in a taken branch)
    choose = [(0x1ba0, 0x1bf0, False), (0x1c00, 0x1ce0, False), (0x1cf0, 0x1d20, True), (0x1da0, 0x1e20, False),
              (0x1e30, 0x1e90, True), (0x1f20, 0x2090, True), (0x2cd0, 0x2ce0, True), (0x38a0, 0x38f0, True)]
    head, window = (0x2dc0, 0x3020, True), (0x3090, 0x32c0, True)
    reduce = [(0x1ba0, 0x1bf0, True), (0x2cf0, 0x2db0, False)] + [head] * 2 + [(0x3030, 0x3080, False)] + \
        [window] * 3 + [(0x32d0, 0x32e0, True), (0x38a0, 0x38f0, True)]
    for label, e in (('no taken-branch extra', 0.0), ('the loop chain\'s extra', extra)):
        a, b = walk(ins, choose, c, e), walk(ins, reduce, c, e)
        print('3. one warp along the path, %s: a choose step %.0f cycles, a reduce step %.0f (a pass of the head '
              'loop %.0f), the pair %.0f' % (label, a, b, walk(ins, [head], c, e), a + b))
    print(loop_line)
    print('   the card: %.1f instructions a warp a step pair, %.2f cycles apart (warp-states-h100.txt): %.0f cycles'
          % (n / WARPS / STEP_PAIRS, CARD_CYCLES_PER_INSTRUCTION, CARD_CYCLES_PER_INSTRUCTION * n / WARPS / STEP_PAIRS))


main()
