#!/usr/bin/env bash
# cuda_ref/run-all.sh -- build the CUDA reference programs and run the
# papers' sweeps on the local GPU, writing validate/data/CARD/.
#
# Usage (from anywhere):  cuda_ref/run-all.sh CARD [CASE ...]
#   CARD   directory name under validate/data/ (e.g. h100)
#   CASE   any of: euclid cooley-tukey stockham plain-mult fft-mult
#          radix-sort plain-division sum prefix-naive prefix-optimal
#          constants; default: all of them.
# Writes validate/data/CARD/<case>.csv (CSV format: cuda_ref/README.md),
# constants.csv for "constants", and device.txt every time.
# Environment: RUNS (timed runs per point, default 25), WARMUP (default 3),
# JOBS (parallel compile jobs, default: number of CPUs).
# Needs nvcc and make; not the top-level Makefile (no Criterion, no SimGrid).
# Exit status: 0 when every program exited 0 (all checks ok), 1 otherwise.
set -uo pipefail

if [ $# -lt 1 ]; then
    sed -n '2,16p' "$0"
    exit 2
fi
card=$1
shift
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
all_cases=(euclid cooley-tukey stockham plain-mult fft-mult radix-sort
           plain-division sum prefix-naive prefix-optimal constants)
if [ $# -gt 0 ]; then cases=("$@"); else cases=("${all_cases[@]}"); fi
out=validate/data/$card
bin=build/cuda
runs=(--runs "${RUNS:-25}" --warmup "${WARMUP:-3}")
mkdir -p "$out"

make -f cuda_ref/cuda.mk -j"${JOBS:-$(nproc)}" cuda || exit 1

# device.txt: the CUDA view, then nvidia-smi's
{
    echo "# written by cuda_ref/run-all.sh on $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    "$bin/constants" --device-info
    echo
    echo "# nvidia-smi"
    nvidia-smi --query-gpu=name,driver_version,pci.bus_id,memory.total,clocks.max.sm,clocks.max.mem,clocks.sm,clocks.mem,power.limit,temperature.gpu,compute_mode \
        --format=csv 2>&1 || true
    nvidia-smi 2>&1 | head -20 || true
    echo "# nvcc"
    nvcc --version 2>/dev/null || /usr/local/cuda/bin/nvcc --version 2>/dev/null || true
} > "$out/device.txt"

status=0
run_case() {   # run_case CASE: writes $out/CASE.csv
    local c=$1 csv=$out/$1.csv
    echo "== $c" >&2
    case $c in
    euclid)
        "$bin/euclid" --n 1000:10000:+1000 --s 1,256 --l 256 "${runs[@]}" > "$csv" ;;
    cooley-tukey)
        "$bin/cooley-tukey" --n 16384:1048576:*2 --l 128 --m 16 "${runs[@]}" > "$csv" ;;
    stockham)
        "$bin/stockham" --n 16384:1048576:*2 --l 128 "${runs[@]}" > "$csv" ;;
    plain-mult)
        # the s sweep, then the s = 4 points of the plain vs FFT comparison
        # that the s sweep does not already hold (n = 2^8, 2^9, 2^16)
        "$bin/plain-mult" --n 1024:32768:*2 --s 1,2,4,8,16 --l 256 "${runs[@]}" > "$csv" &&
        "$bin/plain-mult" --n 256,512,65536 --s 4 --l 256 "${runs[@]}" --no-header >> "$csv" ;;
    fft-mult)
        "$bin/fft-mult" --n 256:65536:*2 --l 256 "${runs[@]}" > "$csv" ;;
    radix-sort)
        "$bin/radix-sort" --n 1048576 --s 1,2,4,8,16 --l 256 "${runs[@]}" > "$csv" ;;
    plain-division)
        "$bin/plain-division" --n 2000 --gap 500,1000,2000,4000,8000 --s 1,16,128 "${runs[@]}" > "$csv" ;;
    sum|prefix-naive|prefix-optimal)
        "$bin/$c" --n 1024:16777216:*4 --l 256 "${runs[@]}" > "$csv" ;;
    constants)
        "$bin/constants" > "$out/constants.csv" ;;
    *)
        echo "unknown case $c" >&2; return 2 ;;
    esac
}

for c in "${cases[@]}"; do
    if ! run_case "$c"; then
        echo "run-all: $c FAILED (see above)" >&2
        status=1
    fi
done
if grep -l ',FAIL$' "$out"/*.csv 2>/dev/null; then
    echo "run-all: some checks FAILED" >&2
    status=1
fi
exit $status
