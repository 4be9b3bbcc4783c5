#!/usr/bin/env python3
# sass-walk-plain-mult.py — one warp alone along the executed path of
# plain multiplication's MulKer and AddKer at n = 1 024, l = 256 (session 40,
# w2; instruction-stream.md, "Plain multiplication at n = 1 024, s >= 4,
# against its executed SASS").  The walk is sass-schedule.py's (stall counts,
# scoreboards), read from the cubin of today's kernels; the paths are the
# offsets the executed profile (sass-executed/plain-mult-n1024-s{2,4,8}.csv)
# shows passed by the slowest warp of a block (warp 0).  A global load's
# result comes read_latency (the L2's, 264.1 cycles, h100-code) after it
# issues, a shared one shared_latency (28.69), a barrier syncthreads_l256
# (23.17), a taken branch cycles_branch (4.89) beyond its stall count.
#
#   nvcc -O3 -arch=sm_90 -cubin -x cu -Isim/exec -Icuda_ref/common -include mcm_kernel_cuda.cuh \
#        -DMCM_CASE_PREFIX='""' -o /tmp/pm.cubin programs/plain-mult/kernels.c
#   python3 validate/notes/profiles/sass-walk-plain-mult.py /tmp/pm.cubin
import os, sys

HERE = os.path.dirname(os.path.abspath(__file__))
SCHEDULE = os.path.join(HERE, 'sass-schedule.py')
ns = {'__file__': SCHEDULE}
exec(compile(open(SCHEDULE).read().replace('\nmain()\n', '\n'), SCHEDULE, 'exec'), ns)  # its functions only

LDG, LDS, BAR = 0x981, 0x984, 0xb1d
LATENCY = {LDG: 264.1, LDS: 28.69}
BARRIER, TAKEN = 23.17, 4.89


def walk(ins, segments):
    t, board = 0.0, {}
    for lo, hi, taken in segments:
        for a in range(lo, hi + 1, 16):
            i = ins[a]
            t = max([t] + [board.get(k, 0) for k in range(6) if i['wait'] >> k & 1])
            if i['sets'] != 7:
                board[i['sets']] = t + LATENCY.get(i['op'], 2)
            t += i['stall'] + (BARRIER if i['op'] == BAR else 0)
        t += TAKEN if taken else 0
    return t


def main():
    if len(sys.argv) != 2:
        sys.exit('usage: sass-walk-plain-mult.py PLAIN-MULT.cubin')
    add = ns['decode'](ns['kernel_code'](sys.argv[1], 'AddKer'))
    # AddKer: the prologue (its 32-bit division), a pass of the loop over e
    # (h < y, h >= shift, not the last round: two loads, the sum, the store),
    # and the header that exits
    prologue, tail = [(0x000, 0x340, True), (0xac0, 0xba0, False)], [(0xbb0, 0xc40, False)]
    loop = [(0xbb0, 0xd10, False), (0xd20, 0xda0, True), (0xe00, 0xe40, True), (0xf80, 0xfb0, True)]
    print('AddKer: a pass %.0f cycles (%d instructions), the prologue %.0f' %
          (walk(add, loop), sum((hi - lo) // 16 + 1 for lo, hi, _ in loop), walk(add, prologue)))
    for s, passes in ((2, 2), (4, 4), (8, 5)):
        print('AddKer s = %d: warp 0, %d passes: %.0f cycles' % (s, passes, walk(add, prologue + loop * passes + tail)))
    mul = ns['decode'](ns['kernel_code'](sys.argv[1], 'MulKer'))
    head = [(0x000, 0x120, True), (0x710, 0x980, False)]
    load, mid = [(0x990, 0xa90, True)], [(0xaa0, 0xb00, True), (0xda0, 0xe80, False)]
    k4 = [(0xf60, 0x1350, True)]  # four products of the k loop nvcc unrolled by 4

    def path(k_passes, entries, loads, stores):
        entry = [(0xe90, 0xf50, False)] + k4 * k_passes + [(0x1360, 0x1360, True), (0x16c0, 0x1750, True)]
        return head + load * loads + mid + entry * entries + [(0x1760, 0x19a0, False)] + \
            [(0x19b0, 0x1b10, True)] * stores + [(0x1b20, 0x1b20, False)]
    print('MulKer: four products of the unrolled k loop %.0f cycles' % walk(mul, k4))
    for s, k, e, loads, stores in ((4, 1, 4, 5, 4), (8, 2, 8, 9, 5)):
        print('MulKer s = %d: warp 0 alone %.0f cycles' % (s, walk(mul, path(k, e, loads, stores))))


main()
