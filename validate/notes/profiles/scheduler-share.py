#!/usr/bin/env python3
# scheduler-share.py — k warps sharing one of the SM's schedulers, as a list
# schedule of the code the card runs (instruction-stream.md, "Warps sharing
# a scheduler, scheduled", session 39).  No GPU and no disassembler: the
# cubins nvcc makes, decoded by sass-schedule.py (opcodes, stall counts,
# scoreboards), and the measured constants of one session.
#
# The mechanics, each from the ISA or a measured row, nothing fitted to a
# case's time:
#  - a scheduler issues one instruction a cycle, from one of its warps that
#    is ready (WARP_ISSUE_CYCLES, card_terms.h); a warp is ready its
#    instruction's stall count after its last issue and when the
#    scoreboards it waits for are released (a shared load's result
#    shared_latency after it issues); a barrier syncthreads_l256; a taken
#    branch the loop chain's extra (sass-schedule.py);
#  - each warp instruction holds its pipe on its scheduler: the integer
#    pipe 2 cycles (16 lanes a scheduler: the CUDA guide's 64 32-bit
#    integer additions an SM a cycle on cc 9.0), IMAD 2 cycles (16 lanes
#    a scheduler: mad_per_sm_cycle, 63.4 an SM a cycle), IMAD.WIDE 4 (two
#    such passes, its two 32-bit halves); the shared-memory pipe is the
#    SM's, shared by its four schedulers, 32 words (64 for LDS.64/STS.64)
#    at shared_per_sm_cycle;
#  - one warp alone takes mulmod_latency a dependent Z/pZ product where
#    its product's stall counts add to less: the difference, over the
#    product's IMAD.WIDE, is what each waits for its result beyond its
#    stall count (D, derived here from that row alone);
#  - which ready warp a scheduler picks is not documented: loose round
#    robin ('rr') and the oldest first ('old', the warps in lockstep) are
#    both run, a bracket.
# It prints the check against the rows that measure sharing (constants.cu:
# issue_latency_warpsN, mulmod_latency_warpsN, mulmod_per_sm_cycle) and
# then Euclid's step pair at s = 256 with 1 warp, 2 warps on a scheduler,
# and the block's 8 warps on 4 schedulers.
#
#   nvcc -O3 -arch=sm_90 -cubin -x cu -Isim/exec -Icuda_ref/common -include mcm_kernel_cuda.cuh \
#        -DMCM_CASE_PREFIX='""' -o /tmp/euclid.cubin programs/euclid/kernels.c
#   nvcc -O3 -arch=sm_90 -cubin -Icuda_ref/common -o /tmp/constants.cubin cuda_ref/constants.cu
#   python3 validate/notes/profiles/scheduler-share.py /tmp/euclid.cubin /tmp/constants.cubin
# (output: scheduler-share-euclid-s256.txt)
import csv, os, sys, types

HERE = os.path.dirname(os.path.abspath(__file__))
# sass-schedule.py's decoder and constants, without running its main
S = types.ModuleType('schedule')
S.__dict__['__file__'] = os.path.join(HERE, 'sass-schedule.py')
source = open(S.__file__).read().replace('\nmain()\n', '\n')
exec(compile(source, S.__file__, 'exec'), S.__dict__)
os.chdir(os.path.join(HERE, '../../..'))
SESSION = 'validate/data/h100/2026-11-27a'
STS, WIDE, IMAD, IMAD_HI = 0x388, 0x25, 0x24, 0x27
STEP = 0.25  # the schedule's clock, cycles (the derived waits are not whole)


def constants():
    v = {}
    for r in csv.DictReader(open(SESSION + '/constants.csv')):
        v.setdefault(r['name'], []).append(float(r['value']))
    return {k: sum(x) / len(x) for k, x in v.items()}


def pipe(i, text, c):
    """The pipe an instruction holds and for how long (cycles), and whether
    the SM's four schedulers share it."""
    low = i['op'] & 0xff
    if low == WIDE:
        return 'fma', 2 * 128 / c['mad_per_sm_cycle'], False
    if low in (IMAD, IMAD_HI):
        return 'fma', 128 / c['mad_per_sm_cycle'], False
    if i['op'] in (S.LDS, STS):
        return 'shared', (64 if '.64' in text else 32) / c['shared_per_sm_cycle'], True
    if i['op'] in (S.BRA, S.BSSY, S.BSYNC, S.BAR, S.EXIT):
        return 'branch', 1, False
    return 'alu', 2, False


def schedule(streams, on_scheduler, c, wide_wait, taken_extra, policy, account=None):
    """Each warp w runs streams[w] (a list of (instruction, its SASS text,
    ends in a taken branch)) on scheduler on_scheduler[w]; returns each
    warp's end.  With account (a dict), adds to it each warp's cycles in
    each state, named as Nsight Compute's stall reasons (euclid-stalls.py):
    the issue cycle 'selected', the rest of a stall count 'wait' (an
    IMAD.WIDE's derived wait 'wait (IMAD.WIDE)'), a taken branch's extra
    'branch_resolving', a barrier's latency and a finished warp (at the
    step's end barrier) 'barrier', a load's scoreboard 'short_scoreboard',
    a busy pipe 'math_pipe_throttle' (the shared-memory pipe
    'mio_throttle'), ready and not picked 'not_selected'."""
    k = len(streams)
    pc, ready, board, free = [0] * k, [0.0] * k, [{} for _ in range(k)], {}
    last, phases = {}, [[] for _ in range(k)]
    t = 0.0

    def note(w, state):
        if account is not None:
            account[state] = account.get(state, 0.0) + STEP
    while any(pc[w] < len(streams[w]) for w in range(k)):
        for s in sorted(set(on_scheduler)):
            ready_warps = []
            for w in range(k):
                if on_scheduler[w] != s:
                    continue
                if pc[w] >= len(streams[w]):
                    note(w, 'barrier')
                    continue
                if ready[w] > t:
                    note(w, next(state for end, state in phases[w] if end > t))
                    continue
                i, text, _ = streams[w][pc[w]]
                if any(board[w].get(b, 0) > t for b in range(6) if i['wait'] >> b & 1):
                    note(w, 'short_scoreboard')
                    continue
                name, _, shared = pipe(i, text, c)
                if free.get(name if shared else (s, name), 0) > t:
                    note(w, 'mio_throttle' if shared else 'math_pipe_throttle')
                    continue
                ready_warps.append(w)
            if not ready_warps:
                continue
            if policy == 'rr':
                ready_warps.sort(key=lambda w: (w - last.get(s, -1) - 1) % k)
            else:
                ready_warps.sort(key=lambda w: (pc[w], w))
            w = ready_warps[0]
            for other in ready_warps[1:]:
                note(other, 'not_selected')
            i, text, taken = streams[w][pc[w]]
            name, hold, shared = pipe(i, text, c)
            free[name if shared else (s, name)] = t + hold
            if i['sets'] != 7:
                board[w][i['sets']] = t + (c['shared_latency'] if i['op'] == S.LDS else 2)
            phases[w], end = [], t
            for length, state in ((1, 'selected'), (i['stall'] - 1, 'wait'),
                                  (wide_wait if i['op'] & 0xff == WIDE else 0, 'wait (IMAD.WIDE)'),
                                  (taken_extra if taken else 0, 'branch_resolving'),
                                  (c['syncthreads_l256'] if i['op'] == S.BAR else 0, 'barrier')):
                end += length
                phases[w].append((end, state))
            ready[w] = end
            note(w, 'selected')
            pc[w] += 1
            last[s] = w
        t += STEP
    return ready


def loop_of(ins, lo, hi):
    return [(ins[a], '', False) for a in range(lo, hi + 16, 16)]


def chain_loop(ins):
    """The loop of a chain kernel with the most stall counts an instruction:
    the one-chain loop (the other interleaves four chains)."""
    best = None
    for a, i in ins.items():
        if i['op'] == S.BRA and i['target'] is not None and i['target'] < a:
            stall = sum(ins[b]['stall'] for b in range(i['target'], a + 16, 16))
            per = stall / ((a + 16 - i['target']) // 16)
            if best is None or per > best[0]:
                best = (per, i['target'], a)
    return best


def product_count(mul, lo, hi):
    """The Z/pZ products of a chain loop: a product's 6 IMAD.WIDE (constants.cu's OpMulmod comment)."""
    return sum(1 for a in range(lo, hi + 16, 16) if mul[a]['op'] & 0xff == WIDE) / 6


def derived_wide_wait(c, const):
    """One warp's product by its stall counts and pipes alone, and what each IMAD.WIDE's result waits
    beyond its stall count for the product to take mulmod_latency."""
    mul = S.decode(S.kernel_code(const, '8OpMulmod'))
    _, lo, hi = chain_loop(mul)
    passes = 8
    alone = schedule([loop_of(mul, lo, hi) * passes], [0], c, 0, 0, 'rr')[0] / (passes * product_count(mul, lo, hi))
    return alone, (c['mulmod_latency'] - alone) / 6


def taken_branch_extra(c, const):
    """The loop chain's pass on the card less its own stall counts, as sass-schedule.py derives it."""
    loop_ins = S.decode(S.kernel_code(const, 'loop_kernel'))
    back = [a for a, i in loop_ins.items() if i['op'] == S.BRA and i['target'] is not None and i['target'] < a]
    own = sum(loop_ins[a]['stall'] for a in range(loop_ins[back[0]]['target'], back[0] + 16, 16))
    return (c['chain_loop_card_per_kernel'] - c['chain_touch_card_per_kernel']) * c['sm_clock_measured'] / 1024 - own


def main():
    if len(sys.argv) != 3:
        sys.exit('usage: scheduler-share.py EUCLID.cubin CONSTANTS.cubin')
    c = constants()
    print('constants: %s (the mean of its two readings)' % SESSION)
    const = sys.argv[2]
    # 1. the chains of constants.cu, k warps a scheduler, one chain a thread
    add = S.decode(S.kernel_code(const, '5OpAdd'))
    stall, lo, hi = chain_loop(add)
    adds = sum(1 for a in range(lo, hi + 16, 16) if add[a]['op'] & 0xff in (0x10, IMAD))
    mul = S.decode(S.kernel_code(const, '8OpMulmod'))
    mstall, mlo, mhi = chain_loop(mul)
    products = product_count(mul, mlo, mhi)
    passes = 8
    alone, wide_wait = derived_wide_wait(c, const)
    print('1. the chains (one a thread), k warps a scheduler, cycles a link: simulated rr / old, the card')
    print('   a product alone by its stall counts and pipes: %.1f cycles; the card %.2f (mulmod_latency):'
          ' an IMAD.WIDE\'s result %.2f cycles beyond its stall count' % (alone, c['mulmod_latency'], wide_wait))
    for k, row in ((1, 'issue_latency_warps4'), (2, 'issue_latency_warps8'), (4, 'issue_latency_warps16'),
                   (8, 'issue_latency_warps32')):
        got = [max(schedule([loop_of(add, lo, hi) * passes] * k, [0] * k, c, wide_wait, 0, p)) / (passes * adds)
               for p in ('rr', 'old')]
        print('   additions, k = %d: %.2f / %.2f, %s %.2f' % (k, got[0], got[1], row, c[row]))
    for k, row in ((1, 'mulmod_latency_warps4'), (2, 'mulmod_latency_warps8'), (4, 'mulmod_latency_warps16')):
        got = [max(schedule([loop_of(mul, mlo, mhi) * passes] * k, [0] * k, c, wide_wait, 0, p)) /
               (passes * products) for p in ('rr', 'old')]
        print('   products,  k = %d: %.1f / %.1f, %s %.1f' % (k, got[0], got[1], row, c[row]))
    many = S.decode(S.kernel_code(const, '8OpMulmod'))
    # the four-chain loop: the other backward branch
    four = [(i['target'], a) for a, i in many.items() if i['op'] == S.BRA and i['target'] is not None
            and i['target'] < a and i['target'] != mlo]
    flo, fhi = max(four, key=lambda x: x[1] - x[0])
    fprod = sum(1 for a in range(flo, fhi + 16, 16) if many[a]['op'] & 0xff == WIDE) / 6
    k = 16
    t = max(schedule([loop_of(many, flo, fhi) * 2] * k, [0] * k, c, wide_wait, 0, 'rr'))
    print('   four chains a thread, 16 warps a scheduler: %.2f products an SM a cycle; mulmod_per_sm_cycle %.2f'
          % (4 * 32 * k * 2 * fprod / t, c['mulmod_per_sm_cycle']))
    # 2. Euclid's step pair, s = 256
    ins = S.decode(S.kernel_code(sys.argv[1], 'ping_pong'))
    text = {int(r['offset']): r['sass'] for r in csv.DictReader(open(S.EXECUTED))}
    choose = [(0x1ba0, 0x1bf0, False), (0x1c00, 0x1ce0, False), (0x1cf0, 0x1d20, True), (0x1da0, 0x1e20, False),
              (0x1e30, 0x1e90, True), (0x1f20, 0x2090, True), (0x2cd0, 0x2ce0, True), (0x38a0, 0x38f0, True)]
    head, window = (0x2dc0, 0x3020, True), (0x3090, 0x32c0, True)
    reduce = [(0x1ba0, 0x1bf0, True), (0x2cf0, 0x2db0, False)] + [head] * 2 + [(0x3030, 0x3080, False)] + \
        [window] * 3 + [(0x32d0, 0x32e0, True), (0x38a0, 0x38f0, True)]

    def stream(segments):
        return [(ins[a], text.get(a, ''), taken and a == hi)
                for lo, hi, taken in segments for a in range(lo, hi + 16, 16)]
    # the loop chain's taken-branch extra, as sass-schedule.py derives it
    extra = taken_branch_extra(c, const)
    card = S.CARD_CYCLES_PER_INSTRUCTION * 256.5
    print('2. Euclid, n = m = 1 000, s = l = 256: a step pair (a choose step, thread 0\'s warp alone on the path, '
          'the others at the barrier; a reduce step, every warp), cycles, the taken branches at 0 / %.2f' % extra)
    for label, wait in (('stall counts alone', 0), ('an IMAD.WIDE %.2f more' % wide_wait, wide_wait)):
        for warps, schedulers in ((1, 1), (2, 1), (8, 4)):
            for policy in ('rr', 'old'):
                pair = []
                for e in (0, extra):
                    # the choose step: warp 0 runs it, the block's others wait at its barrier
                    ch = schedule([stream(choose)], [0], c, wait, e, policy)[0]
                    re = max(schedule([stream(reduce)] * warps, [w % schedulers for w in range(warps)], c, wait,
                                      e, policy))
                    pair.append(ch + re)
                print('   %-22s %d warps on %d scheduler%s, %-3s: %4.0f / %4.0f' %
                      (label, warps, schedulers, 's' if schedulers > 1 else ' ', policy, pair[0], pair[1]))
    print('   the card: %.0f (257.9 warp instructions a step pair, %.2f cycles apart)' %
          (card, S.CARD_CYCLES_PER_INSTRUCTION))


main()
