#!/usr/bin/env python3
"""The three per-case misses of the code's costs (session 44) against the
card's own session-to-session spread at the same points: the graph medians
of every session since 2026-11-27a (validate/data/<card>/2026-11-27*/CASE.csv)
beside the model's time of validate/report/<set>-code/points.csv.
usage (repository root): python3 validate/notes/profiles/misses-spread.py"""
import csv,statistics as st,glob,os
sims={}
for s in 'abc':
    for r in csv.DictReader(open(f'validate/report/{s}-code/points.csv')):
        sims[(s,r['case'],r['params'])]=(float(r['simulated_ms']),float(r['measured_ms']),r['split'])
for setn,card,sess,case in [('a','h100','2026-11-27l','user-matvec'),('a','h100','2026-11-27l','stockham'),('c','h200','2026-11-27k','user-horner')]:
    dirs=sorted(glob.glob(f'validate/data/{card}/2026-11-27*'))
    allv={}
    for d in dirs:
        f=f'{d}/{case}.csv'
        if not os.path.exists(f): continue
        for r in csv.DictReader(open(f)):
            allv.setdefault(r['params'],{})[os.path.basename(d)]=float(r['graph_median_ms'])
    print(f'== set {setn} {case} ({card}, sessions 27a..: {len(dirs)})')
    for p,d in allv.items():
        if (setn,case,p) not in sims: continue
        sim,meas,split=sims[(setn,case,p)]
        v=sorted(d.values()); med=st.median(v)
        print(f"{p:22s} {split:5s} n={len(v)} card min/med/max {v[0]*1e3:.2f}/{med*1e3:.2f}/{v[-1]*1e3:.2f} us (max/min {v[-1]/v[0]-1:.1%}; 2nd {v[1]*1e3:.2f}..{v[-2]*1e3:.2f} {v[-2]/v[1]-1:.1%}); this session {d[sess]/med-1:+.1%} of med; model {sim/meas-1:+.1%} vs this, {sim/med-1:+.1%} vs med, {sim/v[-1]-1:+.1%}..{sim/v[0]-1:+.1%} over sessions")
