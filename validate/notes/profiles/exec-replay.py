#!/usr/bin/env python3
# exec-replay.py PROFILE: make validate's exec processes of the code sets (MCMSIM_VALIDATE_PROFILE=1,
# "exec started" and "exec ... s" lines) replayed on two idle cores by list scheduling, in the
# order they started and longest first (bench.md, session 48).
import sys,re,heapq
starts=[];t={}
for l in open(sys.argv[1]):
    m=re.match(r'validate profile: exec started (\S+) (\S+) on (\S+) at',l)
    if m: starts.append(m.groups()); continue
    m=re.match(r'validate profile: exec (\S+) (\S+) on (\S+): ([\d.]+) s',l)
    if m: t[m.groups()[:3]]=float(m.group(4))
code=[k for k in starts if k[2].endswith('-code')]
def sched(order,cores=2):
    h=[0.0]*cores; ends=[]
    for k in order:
        s=heapq.heappop(h); e=s+t[k]; heapq.heappush(h,e)
    return max(h), sum(t[k] for k in order)
for name,order in [('as logged',code),('longest first (measured)',sorted(code,key=lambda k:-t[k]))]:
    mk,w=sched(order); print("%-28s exec of the code sets: %.1f s processor, 2-core makespan %.1f s (ideal %.1f, idle core-s at end %.1f)"%(name,w,mk,w/2,2*mk-w))
print("last 8 as logged:",[(k[0],k[1][:14],k[2],t[k]) for k in code[-8:]])
