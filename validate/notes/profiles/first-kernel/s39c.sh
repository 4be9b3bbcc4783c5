#!/usr/bin/env bash
# session 39 probe: constants.cu's code-fetch rows (graph_code_*, code_*), twice, in two processes
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH
name=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); echo "device: $name"
start=$(date +%s)
make -f cuda_ref/cuda.mk -j16 build/cuda/constants > "$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
echo "built in $(( $(date +%s) - start )) s"
cuobjdump -sass build/cuda/constants 2>/dev/null | grep -c "IMAD" > "$OUT/imad-count.txt"
cuobjdump -res-usage build/cuda/constants 2>&1 | grep -A1 straight > "$OUT/res-usage.txt"
for r in 1 2; do
  t0=$(date +%s)
  build/cuda/constants --phase probe$r > "$OUT/constants-probe$r.csv" 2>"$OUT/constants-probe$r.err"; echo "probe $r rc $? in $(( $(date +%s) - t0 )) s"
  grep -E "^(graph_code|code_|graph_read|read_after|graph_start,|graph_one_empty_protocol|graph_one_touch_protocol)" "$OUT/constants-probe$r.csv" | cut -d, -f1,2
done
