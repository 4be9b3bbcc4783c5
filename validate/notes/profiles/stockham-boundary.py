#!/usr/bin/env python3
"""Stockham's (and prefix-naive's) miss of the code's costs at n >= 2^15
against the kernel boundary's width term (instruction-stream.md, "Session
44: Stockham's kernel boundary").  Two tables:
 1. per session of each card: the touch chains' wide excess over one block
    (chain_touch_{half,card}_per_kernel less chain_touch_block_per_kernel,
    ns, mean of the phases, as card.c reads them) beside the same session's
    card graph medians of stockham and prefix-naive: the chains move, the
    cases do not;
 2. the code machines (machine/h100-code.cfg, h200-code.cfg) in exec mode
    on stockham and prefix-naive with graph_launch_per_sm as derived and at
    0, against the reference sessions' card (27l, 27k): the miss appears
    where the kernels' span goes from 64 to 128+ SMs and leaves a flat
    offset without the term.
usage (repository root, after make): python3 validate/notes/profiles/stockham-boundary.py"""
import csv, glob, os, re, subprocess

def chain_excess(f):
    v = {}
    for r in csv.reader(open(f)):
        if len(r) > 3 and re.fullmatch(r'chain_touch_(block|half|card)_per_kernel', r[0]):
            v.setdefault(r[0].split('_')[2], []).append(float(r[1]))
    if not all(k in v for k in ('block', 'half', 'card')):
        return None
    m = {k: sum(x) / len(x) for k, x in v.items()}
    return m['block'] * 1e3, (m['half'] - m['block']) * 1e3, (m['card'] - m['block']) * 1e3

def graph_us(d, case, params):
    f = f'{d}/{case}.csv'
    if not os.path.exists(f):
        return float('nan')
    for r in csv.DictReader(open(f)):
        if r['params'] == params:
            return float(r['graph_median_ms']) * 1e3
    return float('nan')

print('1. sessions: touch chain ns (block, half-block, card-block) | card graph medians us')
for card in ('h100', 'h200'):
    for d in sorted(glob.glob(f'validate/data/{card}/2026-11-2[67]*')):
        e = chain_excess(f'{d}/constants.csv') if os.path.exists(f'{d}/constants.csv') else None
        if not e:
            continue
        st = [graph_us(d, 'stockham', f'n={n};l=128') for n in (16384, 32768, 65536)]
        pn = [graph_us(d, 'prefix-naive', f'n={n};l=256') for n in (16384, 65536)]
        print(f'{card} {os.path.basename(d)} block {e[0]:5.0f} half {e[1]:+4.0f} card {e[2]:+4.0f} | '
              f'stockham 2^14..2^16 {st[0]:.2f} {st[1]:.2f} {st[2]:.2f} | prefix-naive 2^14, 2^16 {pn[0]:.2f} {pn[1]:.2f}')

def key(machine, k):
    for line in open(machine):
        m = re.match(rf'\s*{k}\s*=\s*([-0-9.e+]+)', line)
        if m:
            return float(m.group(1))

def simulated(machine, case, n, per_sm):
    out = subprocess.run(['build/mcmsim', 'run', f'programs/{case}/{case}.cfg', '--exec', '--machine', machine,
                          '--set', f'n={n}', '--set', 'machine.launch=graph', '--set',
                          f'machine.graph_launch_per_sm={per_sm}', '--jobs', '1'],
                         capture_output=True, text=True, check=True).stdout
    return float(re.search(r'simulated time T\s+(\S+)', out).group(1))

print('\n2. the code machines, graph_launch_per_sm as derived and 0 (us, error against the reference session)')
for card, sess in (('h100', '2026-11-27l'), ('h200', '2026-11-27k')):
    machine = f'machine/{card}-code.cfg'
    per_sm, mhz = key(machine, 'graph_launch_per_sm'), key(machine, 'clock_hz') / 1e6
    for case, l, ns in (('stockham', 128, (16384, 32768, 65536, 131072)), ('prefix-naive', 256, (16384, 65536, 262144))):
        for n in ns:
            meas = graph_us(f'validate/data/{card}/{sess}', case, f'n={n};l={l}')
            t1, t0 = (simulated(machine, case, n, p) / mhz for p in (per_sm, 0))
            print(f'{card} {case:12s} n={n:7d} card {meas:6.2f}  per_sm {per_sm:.2f}: {t1:6.2f} ({t1 / meas - 1:+.1%})'
                  f'  per_sm 0: {t0:6.2f} ({t0 / meas - 1:+.1%})')
