#!/usr/bin/env bash
# cuda_ref/smoke.sh -- quick correctness pass: build, then run every CUDA
# program on small sizes with few runs (seconds).  Prints the CSV rows;
# exits 1 if any program fails or any check is FAIL.  Writes nothing under
# validate/.  Usage: cuda_ref/smoke.sh
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
b=build/cuda
progs=(euclid cooley-tukey stockham plain-mult fft-mult radix-sort plain-division
       sum prefix-naive prefix-optimal)
make -f cuda_ref/cuda.mk -j"${JOBS:-$(nproc)}" "${progs[@]/#/$b/}" || exit 1
q=(--runs 3 --warmup 1)
status=0
run() { echo "== $*" >&2; "$@" || status=1; }
run $b/euclid --n 20,300,1000 --s 1,7,256 --l 32 "${q[@]}"
run $b/euclid --n 3000 --m 1000 --s 1,64,256 --l 256 "${q[@]}" --no-header
run $b/euclid --n 777 --m 500 --s 13 --l 64 "${q[@]}" --no-header
run $b/cooley-tukey --n 32,1024,16384 --l 128 "${q[@]}"
run $b/cooley-tukey --n 4096 --m 8 --l 64 "${q[@]}" --no-header
run $b/stockham --n 4,16,1024,16384 --l 128 "${q[@]}"
run $b/plain-mult --n 32,1024 --s 1,2,4,8,16 --l 256 "${q[@]}"
run $b/plain-mult --n 100 --m 16 --s 2 --l 32 "${q[@]}" --no-header
run $b/fft-mult --n 2,256,4096 --l 256 "${q[@]}"
run $b/radix-sort --n 4096,1048576 --s 1,2,4,8,16 --l 256 "${q[@]}"
run $b/radix-sort --n 8192 --s 4 --l 64 "${q[@]}" --no-header
run $b/plain-division --n 2000 --gap 1,500,1001 --s 1,16,128 "${q[@]}"
run $b/plain-division --n 3 --gap 40 --s 5 "${q[@]}" --no-header
for c in sum prefix-naive prefix-optimal; do
    run $b/$c --n 2,1024,65536,1048576 --l 256 "${q[@]}"
    run $b/$c --n 4096 --l 32 "${q[@]}" --no-header
done
exit $status
