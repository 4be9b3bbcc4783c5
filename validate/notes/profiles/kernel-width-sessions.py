#!/usr/bin/env python3
# kernel-width-sessions.py — prefix-naive's card time at n = 1024 (10
# kernels of 4 blocks) and 4096 (12 of 16) against the touch chains of
# the same session, every session with touch_4 rows, both cards (card-model.md,
# "Session 42: the H200's small kernels"): (case − the touch graph of K
# kernels) / K in ns, against touch_block and against the chain of the
# case's own width.
#   python3 validate/notes/profiles/kernel-width-sessions.py
import os
os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), '../../..'))
import csv,sys,collections,glob,os
def consts(f):
    v=collections.defaultdict(list)
    for r in csv.reader(open(f)):
        try: x=float(r[1]); v[r[0]].append(x)
        except: pass
    return {k:sum(x)/len(x) for k,x in v.items() if x}
print('card session | touch_block touch_4 touch_16 (us/kernel) | prefix-naive card graph n=1024 (K=10,w=4), n=4096 (K=12,w=16) | (case - touch graph of same K) / K in ns: vs block, vs own width')
for card in ('h100','h200'):
    for d in sorted(glob.glob('validate/data/%s/2026-11-2[67]*'%card)):
        c=consts(d+'/constants.csv'); f=d+'/prefix-naive.csv'
        if not os.path.exists(f) or 'chain_touch_4_per_kernel' not in c: continue
        t={int(r['n']):float(r['graph_median_ms'])*1e3 for r in csv.DictReader(open(f))}
        def g(name,K): return c['chain_%s_per_graph'%name]+K*c['chain_%s_per_kernel'%name]
        out=[]
        for n,K,w in ((1024,10,'touch_4'),(4096,12,'touch_16')):
            if n not in t: continue
            out.append('n=%d %.2f: %+4.0f %+4.0f'%(n,t[n],(t[n]-g('touch_block',K))/K*1e3,(t[n]-g(w,K))/K*1e3))
        print(card,os.path.basename(d),'| %.3f %.3f %.3f |'%(c['chain_touch_block_per_kernel'],c['chain_touch_4_per_kernel'],c['chain_touch_16_per_kernel']),' | '.join(out))
