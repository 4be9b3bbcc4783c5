#!/bin/bash
# Session 48 (ld8): the spread rows with each resident block's span priced as stream.c's
# passes would be at k = `together` warps a scheduler (every pass the longer of its chain
# and the instructions of all k warps, stream.c's issue_bound decided at k, not at the
# block's own 2).  A what-if, not the engine: needs issue-at-together.patch applied
# (git apply; hooks LD8_K, LD8_SPANS, read from the environment), then make.
#   1. span(k): one block an SM, block_warps_per_scheduler forced to k (LD8_K), the
#      block's span printed by block_span_cycles_resident (LD8_DEBUG);
#   2. span_with[j] = span(k) at k = together_j = min(CAP, 2 + j*2*share) (rs7's count:
#      each other block's 2 warps a scheduler times its issuing share at own k, by age),
#      the straight line between the k measured in 1;
#   3. the four rows with those span_with (LD8_SPANS), spread.py against the H100
#      2026-11-27n rows.
# usage (worktree root): at-together.sh OUTDIR [CAP [--set machine.KEY=VALUE ...]]
out=$1; cap=${2:-8}; shift 2; mkdir -p "$out"
here=$(dirname "$0")
for v in p4:4:8:_case:0.855 p16:16:8:_case_passes16:0.601 p16n:16:0:_case_passes16_nolevels:0.481; do
  IFS=: read name passes levels suf share <<< "$v"
  spans=""
  for k in 2 3 4 5 6 7 8; do
    s=$(LD8_K=$k LD8_DEBUG=1 build/mcmsim run tests/user/spread.cfg "$@" --exec --set blocks=132 --set passes=$passes \
        --set levels=$levels 2>&1 >/dev/null | grep "LD8 blocks 1 " | sed 's/.* span \([0-9.]*\) .*/\1/')
    spans="$spans $s"
  done
  export LD8_SPANS=$(python3 -c "
ks=[2,3,4,5,6,7,8]; t=[float(x) for x in '$spans'.split()]
def at(w):
    for i in range(len(ks)-1):
        if w<=ks[i+1]: return t[i]+(t[i+1]-t[i])*(w-ks[i])/(ks[i+1]-ks[i])
    return t[-1]
print(','.join('%.1f'%at(min($cap,2+j*2*$share)) for j in range(8)))")
  for K in 1 2 4 8; do
    build/mcmsim run tests/user/spread.cfg "$@" --exec --set blocks=$((K*132)) --set passes=$passes --set levels=$levels \
      --trace "$out/$name-$K.csv" > /dev/null || echo "FAIL $name $K"
  done
  echo "### $name ($suf): span(k = 2..8) $spans; span_with $LD8_SPANS"
  python3 "$here/spread.py" --card validate/data/h100/2026-11-27n/constants.csv --suffix $suf \
    1 "$out/$name-1.csv" 2 "$out/$name-2.csv" 4 "$out/$name-4.csv" 8 "$out/$name-8.csv"
done
