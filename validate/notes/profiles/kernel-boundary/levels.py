#!/usr/bin/env python3
# levels.py — each session's touch chains (us a kernel, mean of the phases: replayed 1, 4, 16
# blocks, a block on every SM) beside a few cases' graph medians (us; Euclid s = 1 n = 1000,
# 1 999 kernels: us the graph); card-model.md, "Session 47: the H200's kernel boundary".
# Run from validate/data.
import csv,glob,statistics,collections,os
def crow(s):
    v=collections.defaultdict(list)
    for r in csv.DictReader(open(s+'/constants.csv')):
        try: v[r['name']].append(float(r['value']))
        except: pass
    return v
def case(s,c,p):
    f=s+'/'+c+'.csv'
    if not os.path.exists(f): return float('nan')
    for r in csv.DictReader(open(f)):
        if r['params']==p: return float(r['graph_median_ms'])*1e3
    return float('nan')
print("session blk 4 16 card bare1 bcard | fft1024 sum1024 ct16k eu1000")
for card in ('h100','h200'):
    for s in sorted(glob.glob(card+'/2026-11-2[67]*')):
        v=crow(s)
        g=lambda n: statistics.mean(v[n]) if n in v else float('nan')
        gb=lambda n: statistics.mean([x for k,x2 in v.items() if k.startswith(n+'_r') for x in x2]) if any(k.startswith(n+'_r') for k in v) else float('nan')
        print('%-18s %6.3f %6.3f %6.3f %6.3f %6.3f %6.3f | %7.2f %7.2f %7.2f %7.0f'%(s,g('chain_touch_block_per_kernel'),g('chain_touch_4_per_kernel'),g('chain_touch_16_per_kernel'),g('chain_touch_card_per_kernel'),gb('protocol_bare_touch_1_per_kernel'),gb('protocol_bare_touch_card_per_kernel'),
          case(s,'fft-mult','n=1024;m=1024;l=256'),case(s,'sum','n=1024;l=256'),case(s,'cooley-tukey','n=16384;l=128;m=16'),case(s,'euclid','n=1000;m=1000;l=256;s=1')))
