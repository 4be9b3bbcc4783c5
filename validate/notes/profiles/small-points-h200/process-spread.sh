#!/usr/bin/env bash
# session 37: the spread of the small points from one process to the next, on one card in one
# sitting: each point alone in 8 processes (the protocol's options), then each run file's sweep
# as run-all.sh runs it (one process, the sweep) 4 times, interleaved
cd "$(git rev-parse --show-toplevel)"   # run from the repository, OUT=an empty folder
export PATH=/usr/local/cuda/bin:$PATH
name=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); echo "device: $name"
make -f cuda_ref/cuda.mk -j16 build/cuda/user-horner build/cuda/user-matvec build/cuda/user-stencil build/cuda/sum build/cuda/user-jacobi build/cuda/user-gather > "$OUT/build.log" 2>&1 || { tail -20 "$OUT/build.log"; exit 1; }
R=(--runs 25 --warmup 3 --occupancy /tmp/occ.csv)
P=("user-horner --n 16384 --d 32 --l 256" "user-horner --n 65536 --d 32 --l 256"
   "user-matvec --n 256 --l 256" "user-matvec --n 1024 --l 256"
   "user-stencil --n 256 --l 256 --iters 2" "user-stencil --n 512 --l 256 --iters 2"
   "sum --n 1024 --l 256" "sum --n 16384 --l 256" "user-jacobi --n 4096 --l 256 --iters 8"
   "user-gather --n 524288 --m 256 --l 256 --iters 2")
S=("user-horner --n 16384:1048576:*4 --d 32 --l 256" "user-matvec --n 256:2048:*2 --l 256"
   "user-stencil --n 256:2048:*2 --l 256 --iters 2" "sum --n 1024:16777216:*4 --l 256")
for k in 1 2 3 4 5 6 7 8; do
  for p in "${P[@]}"; do build/cuda/$p "${R[@]}" 2>/dev/null | tail -n +2 | sed "s/^/alone,$k,/" >> "$OUT/alone.csv"; done
  if [ $k -le 4 ]; then
    for p in "${S[@]}"; do build/cuda/$p "${R[@]}" 2>/dev/null | tail -n +2 | sed "s/^/sweep,$k,/" >> "$OUT/sweep.csv"; done
  fi
done
build/cuda/sum --n 1024 --l 256 "${R[@]}" 2>/dev/null | head -1 > "$OUT/header.csv"
nvidia-smi --query-gpu=name,clocks.sm,temperature.gpu,power.draw --format=csv > "$OUT/nvidia-smi-after.txt"
echo done
