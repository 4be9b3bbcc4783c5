#!/usr/bin/env bash
# session 39: where a graph's start comes from. (1) the host: NUMA nodes, the GPU's node;
# (2) --graph-only readings pinned to each node and unpinned, three rounds; (3) two small
# user sweeps pinned to each node; (4) one full session (run-all, readings before each case).
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH
name=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); echo "device: $name"
if [[ $name == *H200* ]]; then card=h200; S=${S39_H200:-2026-11-27b}; else card=h100; S=${S39_H100:-2026-11-27c}; fi
[ -n "${WANT:-}" ] && [ "$card" != "$WANT" ] && { echo "not $WANT: stop"; exit 3; }
start=$(date +%s)
make -f cuda_ref/cuda.mk -j16 cuda > "$OUT/build.log" 2>&1 || { tail -20 "$OUT/build.log"; exit 1; }
echo "built in $(( $(date +%s) - start )) s"
build/cuda/constants --graph-only --phase smoke > "$OUT/smoke.csv" 2>&1 || { cat "$OUT/smoke.csv"; exit 1; }
{
  nvidia-smi topo -m; lscpu; cat /proc/cmdline
  bus=$(nvidia-smi --query-gpu=pci.bus_id --format=csv,noheader | head -1 | tr 'A-F' 'a-f' | sed 's/^0000//')
  echo "bus $bus numa_node $(cat /sys/bus/pci/devices/$bus/numa_node 2>/dev/null) local_cpulist $(cat /sys/bus/pci/devices/$bus/local_cpulist 2>/dev/null)"
  for n in /sys/devices/system/node/node*; do echo "$n $(cat $n/cpulist)"; done
  cat /sys/devices/system/cpu/cpu0/cpufreq/scaling_governor 2>/dev/null
  grep MHz /proc/cpuinfo | head -40
  taskset -p $$
} > "$OUT/host.txt" 2>&1
nodes=$(ls -d /sys/devices/system/node/node* 2>/dev/null | sed 's/.*node//')
echo "nodes: $nodes"
for r in 1 2 3; do
  for n in $nodes; do
    taskset -c "$(cat /sys/devices/system/node/node$n/cpulist)" build/cuda/constants --graph-only --phase "node$n-r$r" | tail -n +2 >> "$OUT/pinned.csv"
  done
  build/cuda/constants --graph-only --phase "free-r$r" | tail -n +2 >> "$OUT/pinned.csv"
done
grep -E "^(graph_start|graph_one_empty_protocol|host_cpu_before)," "$OUT/pinned.csv" | cut -d, -f1,2,4 | paste -sd' ' | fold -w 400
echo "pinned readings at $(( $(date +%s) - start )) s"
for n in $nodes; do
  cpus=$(cat /sys/devices/system/node/node$n/cpulist)
  taskset -c "$cpus" build/cuda/user-horner --n 16384:262144:*4 --d 32 --l 256 --runs 15 --warmup 2 > "$OUT/horner-node$n.csv" 2>>"$OUT/cases.log"
  taskset -c "$cpus" build/cuda/user-matvec --n 256:1024:*2 --l 256 --runs 15 --warmup 2 > "$OUT/matvec-node$n.csv" 2>>"$OUT/cases.log"
done
echo "pinned cases at $(( $(date +%s) - start )) s"
[ "${FULL:-1}" = 1 ] || exit 0
timeout 400 cuda_ref/run-all.sh $card --session $S > "$OUT/run-all-$S.out" 2>&1; echo "$card $S rc $? at $(( $(date +%s) - start )) s"; tail -2 "$OUT/run-all-$S.out"
tar czf "$OUT/sessions.tgz" -C validate/data/$card "$S"
grep -E "^graph_start," validate/data/$card/$S/graph-start.csv | cut -d, -f2,4 | paste -sd' '
echo "done at $(( $(date +%s) - start )) s"
