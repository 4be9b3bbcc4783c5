#!/usr/bin/env bash
# session 37: the small points of the user examples: each program's own time (its protocol),
# then Nsight Compute's kernel durations, cycles, instructions and warp states
cd "$(git rev-parse --show-toplevel)"   # run from the repository, OUT=an empty folder
export PATH=/usr/local/cuda/bin:$PATH
name=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); echo "device: $name"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,driver_version --format=csv > "$OUT/nvidia-smi.txt"
make -f cuda_ref/cuda.mk -j16 build/cuda/user-horner build/cuda/user-matvec build/cuda/user-stencil build/cuda/sum build/cuda/user-jacobi build/cuda/user-gather > "$OUT/build.log" 2>&1 || { tail -20 "$OUT/build.log"; exit 1; }
P=("user-horner --n 16384 --d 32 --l 256" "user-horner --n 65536 --d 32 --l 256" "user-horner --n 1048576 --d 32 --l 256"
   "user-matvec --n 256 --l 256" "user-matvec --n 1024 --l 256"
   "user-stencil --n 256 --l 256 --iters 2" "user-stencil --n 1024 --l 256 --iters 2"
   "sum --n 1024 --l 256" "sum --n 65536 --l 256" "user-jacobi --n 4096 --l 256 --iters 8")
for p in "${P[@]}"; do echo "== $p" >> "$OUT/times.txt"; build/cuda/$p >> "$OUT/times.txt" 2>&1; done
M=gpu__time_duration.sum,sm__cycles_elapsed.max,sm__cycles_elapsed.avg,sm__cycles_active.max,smsp__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,launch__grid_size,launch__block_size,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active,dram__sectors_read.sum,lts__t_sectors_srcunit_tex_op_read.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
for p in "${P[@]}"; do
    f=$(echo $p | tr ' ' '_' | tr -d -)
    timeout 100 ncu --csv --page raw --clock-control none --cache-control none -k regex:_mcm_global_ -c 16 --metrics $M \
        build/cuda/$p --runs 1 --warmup 0 > "$OUT/raw-$f.csv" 2>&1; echo "$f rc $?"
done
for p in "${P[0]}" "${P[3]}" "${P[5]}" "${P[7]}"; do
    echo "== $p" >> "$OUT/states.txt"
    timeout 100 ncu --clock-control none --cache-control none --section WarpStateStats --section SchedulerStats --section LaunchStats --section SpeedOfLight -k regex:_mcm_global_ -c 4 \
        build/cuda/$p --runs 1 --warmup 0 >> "$OUT/states.txt" 2>&1
done
echo done
