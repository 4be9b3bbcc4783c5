#!/usr/bin/env python3
# matvec-schedule.py — the blocks of user-matvec sharing one SM, as a list
# schedule of the code the card runs (instruction-stream.md, "Span-bound
# blocks sharing an SM: matvec", session 39).  No GPU: the cubin nvcc makes
# of programs/user/matvec.c, decoded by sass-schedule.py, and the measured
# constants of one session (H100 2026-11-27d, set a's).
#
# The issue mechanics are scheduler-share.py's (a scheduler issues one
# instruction a cycle from a ready warp; stall counts; scoreboards; the
# integer, multiply-add and shared-memory pipes at their measured rates;
# an IMAD.WIDE's result its derived 2.0 cycles late).  Added here, each
# from a measured row, nothing fitted to matvec's times:
#  - a block's barrier releases its warps syncthreads_l256 after the last
#    of them arrives (warps at it issue nothing); with 8 blocks a wave also
#    syncthreads_l256_full, the row measured with 8 blocks on every SM;
#  - a warp's global load of A (32 consecutive words, one line, from the
#    L2: the rounds leave A there) comes back l2_load_latency after it
#    issues, and no sooner than the SM's port, serving the SM's warp
#    loads in the order issued at U_l2_all_sms cycles a word, has brought
#    its 32 words; x's load (the same line for every warp: the L1 after
#    the SM's first) l1_load_latency after it issues and its line at the
#    L1's rate (l1_line_read_per_sm_cycle);
#  - block b's warp w sits on scheduler w mod 4 (8 warps a block: warp 0
#    of every block on scheduler 0); the 8 blocks of a wave start together
#    (the bracket 'staggered' starts block b at b·block_dispatch_steady).
# The path of each warp is read off the executed counts (sass-executed/
# user-matvec-n1024.csv): the prologue, n/256 passes of the loop
# (0x100-0x2a0), then the eight halving steps, at level k the warps with
# a thread below 256/2^k taking the body, the others branching past it.
#
#   nvcc -O3 -arch=sm_90 -cubin -x cu -Isim/exec -Icuda_ref/common -include mcm_kernel_cuda.cuh \
#        -DMCM_CASE_PREFIX='""' -o /tmp/matvec.cubin programs/user/matvec.c
#   python3 validate/notes/profiles/matvec-schedule.py /tmp/matvec.cubin
# (output: matvec-schedule.txt)
#   python3 validate/notes/profiles/matvec-schedule.py /tmp/matvec.cubin --lives SESSION POLICY GAP
# (session 41: a session's constants, the schedulers' order -- lrr, the loose
# round robin above; oldest, the oldest block's warps first; gto, the warp
# issued last while it can, then the oldest -- and the blocks of a wave
# started GAP cycles apart; each point's SM end, its blocks' lifetimes and
# its warps' waits: matvec-stalls/schedule-lives.txt)
import csv, os, sys, types

HERE = os.path.dirname(os.path.abspath(__file__))


def module(name, path):
    """A script of this folder, without running its main."""
    m = types.ModuleType(name)
    m.__dict__['__file__'] = os.path.join(HERE, path)
    exec(compile(open(m.__file__).read().replace('\nmain()\n', '\n'), m.__file__, 'exec'), m.__dict__)
    return m


Q = module('share', 'scheduler-share.py')  # its pipes; it loads sass-schedule.py's decoder as Q.S
S = Q.S
os.chdir(os.path.join(HERE, '../../..'))
SESSION = 'validate/data/h100/2026-11-27d'
POLICY = 'lrr'
WIDE, LDG = 0x25, 0x981
STEP = 0.25


def constants():
    v = {}
    for r in csv.DictReader(open(SESSION + '/constants.csv')):
        try:
            v.setdefault(r['name'], []).append(float(r['value']))
        except ValueError:
            pass
    c = {k: sum(x) / len(x) for k, x in v.items()}
    c['block_dispatch_steady'] *= c['sm_clock_measured'] / 1e3  # the row is in ns (session 41)
    return c


def pipe(i, c):
    """scheduler-share.py's pipes; a global load the branch unit's one cycle."""
    return ('branch', 1, False) if i['op'] == LDG else Q.pipe(i, '', c)


def path(ins, n, w):
    """Warp w's instructions (offset, taken back edge) along the executed path."""
    rng = lambda lo, hi: [(a, False) for a in range(lo, hi + 16, 16)]
    p = rng(0x000, 0x0f0)
    iters = max(1, n // 256)
    for k in range(iters):
        p += rng(0x100, 0x2a0)
        if k < iters - 1:
            p[-1] = (0x2a0, True)
    p += rng(0x2b0, 0x360)  # the level-1 half, the barrier, the branch past the body
    if w < 4:
        p += rng(0x370, 0x3f0) + rng(0x450, 0x490)
    p += [(0x4a0, False)]
    for k in range(2, 9):
        base = 0x4b0 + (k - 2) * 0x190
        p += rng(base, base + 0x40)
        if w < max(1, 8 >> k):
            tail = base + (0x140 if k == 8 else 0x130)
            p += rng(base + 0x50, base + 0xd0) + rng(tail, tail + 0x40)
        p += [(base + (0x190 if k == 8 else 0x180), False)]
    p += rng(0xfb0, 0xfd0)
    if w == 0:
        p += rng(0xfe0, 0x1080)
    return p


def schedule(ins, c, n, blocks, resident, start_gap, wide_wait, taken_extra, barrier='syncthreads_l256'):
    """Blocks of 8 warps on one SM, at most `resident` at once; returns the
    SM's end, each block's (start, end), and the issue slots used."""
    W = 8
    streams = [path(ins, n, w) for w in range(W)]
    warp_block, warp_idx, sched = [], [], []
    pc, ready, board, started = {}, {}, {}, {}
    free, last, port_free, l1_free = {}, {}, 0.0, 0.0
    arrived, block_start, block_end = {}, {}, {}
    next_block, live, issued, t = 0, set(), 0, 0.0
    waited = {'load': 0.0, 'barrier': 0.0}
    due = {}

    def start(b, at):
        block_start[b] = at
        arrived[b] = []
        for w in range(W):
            g = (b, w)
            pc[g], ready[g], board[g] = 0, at, {}
            live.add(g)
    for b in range(min(resident, blocks)):
        start(b, b * start_gap)
    next_block = min(resident, blocks)
    while live:
        for s in range(4):
            cand = []
            for g in live:
                if g[1] % 4 != s or ready[g] > t:
                    continue
                a, _ = streams[g[1]][pc[g]]
                i = ins[a]
                if any(board[g].get(x, 0) > t for x in range(6) if i['wait'] >> x & 1):
                    continue
                name, _, shared = pipe(i, c)
                if free.get(name if shared else (s, name), 0) > t:
                    continue
                cand.append(g)
            if not cand:
                continue
            if POLICY == 'gto':
                cand.sort(key=lambda g: (last.get(s, -1) != g[0] * W + g[1], block_start[g[0]], g))
            elif POLICY == 'oldest':
                cand.sort(key=lambda g: (block_start[g[0]], g))
            else:
                cand.sort(key=lambda g: ((g[0] * W + g[1]) - last.get(s, -1) - 1) % (blocks * W))
            g = cand[0]
            a, taken = streams[g[1]][pc[g]]
            if a == 0x1a0:
                waited['load'] += t - due[g]
            i = ins[a]
            name, hold, shared = pipe(i, c)
            free[name if shared else (s, name)] = t + hold
            issued += 1
            last[s] = g[0] * W + g[1]
            done = t + 2
            if i['op'] == LDG:
                if a == 0x190:  # A's line, from the L2 through the SM's port
                    port_free = max(t + c['l2_load_latency'], port_free) + 32 * c['U_l2_all_sms']
                    done = port_free
                else:  # x's line, from the L1
                    l1_free = max(t + c['l1_load_latency'], l1_free) + 32 / c['l1_line_read_per_sm_cycle']
                    done = l1_free
                board[g][i['sets']] = max(board[g].get(i['sets'], 0), done)
            elif i['sets'] != 7:
                board[g][i['sets']] = t + (c['shared_latency'] if i['op'] == S.LDS else 2)
            ready[g] = t + i['stall'] + (wide_wait if i['op'] & 0xff == WIDE else 0) + (taken_extra if taken else 0)
            due[g] = ready[g]
            pc[g] += 1
            b = g[0]
            if i['op'] == S.BAR:
                ready[g] = float('inf')
                due[g] = t + i['stall']
                arrived[b].append(g)
                if len(arrived[b]) == W:
                    for h in arrived[b]:
                        ready[h] = t + c[barrier]
                        waited['barrier'] += ready[h] - due[h]
                        due[h] = ready[h]
                    arrived[b] = []
            if pc[g] == len(streams[g[1]]):
                live.discard(g)
                if not any(h[0] == b for h in live):
                    block_end[b] = t
                    if next_block < blocks:
                        start(next_block, t + c['block_dispatch_steady'])
                        next_block += 1
        t += STEP
    return max(block_end.values()), block_start, block_end, issued, waited


def lifetimes(cubin, session, policy, gap):
    """Session 41: each point's SM end, its blocks' lifetimes, issue and waits."""
    global SESSION, POLICY
    SESSION, POLICY = session, policy
    c = constants()
    ins = S.decode(S.kernel_code(cubin, 'matvec'))
    print('constants: %s; order %s; a wave\'s blocks %.0f cycles apart; block_dispatch_steady %.1f cycles'
          % (session, policy, gap, c['block_dispatch_steady']))
    for n, blocks in ((256, 2), (1024, 8), (2048, 16)):
        end, st, en, issued, waited = schedule(ins, c, n, blocks, 8, gap, 2.0, 5.04)
        life = [en[b] - st[b] for b in en]
        print('  n = %4d, %2d blocks: SM end %6.0f; a block %6.0f (%.0f to %.0f); issue %.3f a scheduler a cycle; '
              'a warp at the loop\'s loads %5.0f, at barriers %5.0f'
              % (n, blocks, end, sum(life) / len(life), min(life), max(life), issued / (4 * end),
                 waited['load'] / (8 * len(en)), waited['barrier'] / (8 * len(en))))


def main():
    if len(sys.argv) == 6 and sys.argv[2] == '--lives':
        return lifetimes(sys.argv[1], sys.argv[3], sys.argv[4], float(sys.argv[5]))
    if len(sys.argv) != 2:
        sys.exit('usage: matvec-schedule.py MATVEC.cubin')
    c = constants()
    ins = S.decode(S.kernel_code(sys.argv[1], 'matvec'))
    # an IMAD.WIDE's result beyond its stall count, as scheduler-share.py derives it (H100 2026-11-27a)
    wide_wait = 2.0
    extra = 5.04  # a taken back edge beyond its stall counts, as scheduler-share.py derives it
    print('constants: %s; a taken back edge %.2f cycles beyond its stall counts' % (SESSION, extra))
    print('blocks a wave, n: the SM\'s cycles for its blocks (from the first start to the last end), '
          'a block\'s mean lifetime, issue slots used (of 4 a cycle)')
    for n, blocks in ((256, 2), (512, 4), (1024, 8), (2048, 16)):
        for label, gap in (('together', 0), ('staggered', c['block_dispatch_steady'])):
            end, st, en, issued, waited = schedule(ins, c, n, blocks, 8, gap, wide_wait, extra)
            life = sum(en[b] - st[b] for b in en) / len(en)
            lives = 8 * life * len(en)
            print('  n = %4d, %2d blocks, %-9s: %7.0f cycles, a block %6.0f, issue %.1f %%; of its warps\' time '
                  'at the loop\'s loads %.0f %%, at barriers %.0f %%'
                  % (n, blocks, label, end, life, 100 * issued / (4 * end), 100 * waited['load'] / lives,
                     100 * waited['barrier'] / lives))
        if blocks >= 8:  # the barrier as measured with 8 blocks of 256 threads on every SM
            end, st, en, issued, waited = schedule(ins, c, n, blocks, 8, 0, wide_wait, extra, 'syncthreads_l256_full')
            print('  n = %4d, %2d blocks, together, a barrier syncthreads_l256_full (%.1f): %7.0f cycles, issue %.1f %%'
                  % (n, blocks, c['syncthreads_l256_full'], end, 100 * issued / (4 * end)))
        one = schedule(ins, c, n, 1, 8, 0, wide_wait, extra)[0]
        print('  n = %4d, one block alone      : %7.0f cycles' % (n, one))


main()
