#!/usr/bin/env bash
# cuda_ref/run-all.sh -- one measurement session of a card: build the CUDA
# reference programs, measure the card's constants, run the papers' sweeps
# with the protocol of cuda_ref/common/cuda_common.cuh, measure the constants
# again, and write everything into validate/data/CARD/SESSION/.
#
# Usage (from anywhere):
#   cuda_ref/run-all.sh CARD [--session NAME] [--overwrite] [CASE ...]
#   CARD       the card, e.g. h100 or h200: it must occur in the name the
#              CUDA device reports (case ignored), and names the directory
#              validate/data/CARD/
#   --session  the session's directory name (default: today's UTC date and
#              "a", e.g. 2026-11-23a); an existing one is refused unless
#              --overwrite is given
#   --handwritten DIR
#              also time the hand-written CUDA programs of the tree DIR (a
#              checkout of a commit that still has them, cuda_ref/CASE.cu,
#              e.g. `git archive c230326 cuda_ref | tar -x -C DIR`): each
#              case's sweep runs once more after the kernels written once,
#              the hand-written program, into handwritten/CASE.csv
#   CASE       any of: euclid cooley-tukey stockham plain-mult fft-mult
#              radix-sort plain-division sum prefix-naive prefix-optimal
#              (programs/CASE/kernels.c, the case studies' kernels written
#              once against sim/exec/mcm_kernel.h) and user-jacobi user-matvec
#              user-stencil user-gather user-horner (programs/user/NAME.c);
#              default: all of them.  The constants are always measured,
#              before and after the cases.
# Writes, in the session directory: <case>.csv (format: cuda_ref/README.md),
# constants.csv (name,value,unit,phase,how; phase before|after),
# graph-start.csv (the same columns: a graph's start read again before each
# case, phase before-CASE, with the host CPU the reading ran on),
# occupancy.csv (resident blocks per SM of every kernel launched),
# device.txt (the device, the driver, the clocks at the start and the end)
# and run-all.log (every program's stderr: seeds, warm-up clocks).
# A short sweep (every case but euclid and plain-mult: seconds each) runs in
# PROCESSES processes one after the other (default 5, odd), each into
# processes/CASE.K.csv; CASE.csv holds, point by point, the row of the process
# whose graph median is the median of theirs: a small point's time moves by
# several per cent from one process to the next (validate/notes/card-model.md,
# "Session 43: a short sweep timed in five processes"), and the median process
# is the typical one.  A process that fails, or a point some process lacks,
# makes the case FAILED; CASE.csv still holds the rows the processes wrote.
# Environment: PROCESSES (see above), RUNS (timed rounds per point, default 25),
# WARMUP (default 3),
# JOBS (parallel compile jobs, default: number of CPUs), MCMSIM_COMMIT (the
# commit the tree was taken from, written into device.txt).
# Needs nvcc and make; not the top-level Makefile (no Criterion, no SimGrid).
# Exit status: 0 when every program exited 0 and every check is ok; 1 when
# one failed (the other cases still run); 2 on bad usage, before measuring.
set -uo pipefail

usage() { sed -n '2,/^set -uo pipefail/{/^set -uo pipefail/!p}' "$0"; exit 2; }
die() { echo "run-all: $*" >&2; exit 2; }

[ $# -ge 1 ] || usage
card=$1
shift
[[ $card =~ ^[A-Za-z0-9_-]+$ ]] || die "card '$card': letters, digits, '-' and '_' only"
session=$(date -u +%Y-%m-%d)a
overwrite=0
handwritten=
all_cases=(euclid cooley-tukey stockham plain-mult fft-mult radix-sort
           plain-division sum prefix-naive prefix-optimal
           user-jacobi user-matvec user-stencil user-gather user-horner)
cases=()
while [ $# -gt 0 ]; do
    case $1 in
    --session) [ $# -ge 2 ] || die "--session needs a name"; session=$2; shift 2 ;;
    --overwrite) overwrite=1; shift ;;
    --handwritten)
        [ $# -ge 2 ] || die "--handwritten needs the folder of a tree with cuda_ref/*.cu"
        [ -f "$2/cuda_ref/cuda.mk" ] || die "--handwritten $2: no cuda_ref/cuda.mk there"
        handwritten=$(cd "$2" && pwd); shift 2 ;;
    -*) die "unknown option $1" ;;
    *)
        known=0
        for c in "${all_cases[@]}"; do [ "$c" = "$1" ] && known=1; done
        [ $known = 1 ] || die "unknown case '$1' (known: ${all_cases[*]})"
        cases+=("$1"); shift ;;
    esac
done
[ ${#cases[@]} -gt 0 ] || cases=("${all_cases[@]}")
processes=${PROCESSES:-5}
[[ $processes =~ ^[1-9][0-9]*$ ]] && [ $((processes % 2)) = 1 ] ||
    die "PROCESSES=$processes: an odd number of processes (1, 3, 5, ...)"
[[ $session =~ ^[A-Za-z0-9._-]+$ ]] || die "session '$session': letters, digits, '.', '-' and '_' only"

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
out=validate/data/$card/$session
bin=build/cuda
[ -e "$out" ] && [ $overwrite = 0 ] &&
    die "$out exists: a session is measured once (--overwrite to replace it)"

make -f cuda_ref/cuda.mk -j"${JOBS:-$(nproc)}" cuda >&2 || die "build failed"
if [ -n "$handwritten" ]; then   # only the case studies' programs of that tree
    hw_bins=()
    for c in "${cases[@]}"; do [ -f "$handwritten/cuda_ref/$c.cu" ] && hw_bins+=("build/cuda/$c"); done
    make -C "$handwritten" -f cuda_ref/cuda.mk -j"${JOBS:-$(nproc)}" "${hw_bins[@]}" >&2 ||
        die "the hand-written programs of $handwritten do not build"
fi

# the card must be the one named
. cuda_ref/common/card.sh
device_named "$card"

rm -rf "$out"
mkdir -p "$out"
log=$out/run-all.log
smi() {
    nvidia-smi --query-gpu=name,driver_version,pci.bus_id,memory.total,clocks.max.sm,clocks.max.mem,clocks.sm,clocks.mem,power.draw,power.limit,temperature.gpu,compute_mode \
        --format=csv 2>&1 || true
}
{
    echo "# written by cuda_ref/run-all.sh $card --session $session, started $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "# protocol: warm-up to a stable clock, points of a series interleaved round robin,"
    echo "# wall time of the host algorithm and device time of its CUDA graph per round,"
    echo "# one graph alive at a time, captured and uploaded in its round"
    echo "# (cuda_ref/common/cuda_common.cuh; every session before H100 2026-11-25e kept"
    echo "# all the graphs of a series alive); constants before and after the cases;"
    if [ "$processes" -gt 1 ]; then
        echo "# each short sweep timed in $processes processes (processes/), CASE.csv the median"
        echo "# process's rows"
    else
        echo "# each sweep timed in one process"
    fi
    echo "$device"
    echo
    echo "# nvidia-smi at the start"
    smi
    nvidia-smi 2>&1 | head -20 || true
    [ -n "${MCMSIM_COMMIT:-}" ] && echo "# code: commit $MCMSIM_COMMIT of mcmsim"
    echo "# nvcc"
    nvcc --version 2>/dev/null || /usr/local/cuda/bin/nvcc --version 2>/dev/null || true
    if [ -n "$handwritten" ]; then
        echo "# hand-written programs (handwritten/*.csv) from $handwritten"
        cat "$handwritten/COMMIT" 2>/dev/null || true
    fi
    echo "# host"
    echo "cpus: $(nproc), $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2-)"
} > "$out/device.txt"

timing=(--runs "${RUNS:-25}" --warmup "${WARMUP:-3}")
echo "program,kernel,threads,shared_bytes,blocks_per_sm" > "$out/occupancy.csv"

status=0
constants() {   # constants PHASE: rows appended to constants.csv
    echo "== constants $1" >> "$log"
    if [ -s "$out/constants.csv" ]; then
        "$bin/constants" --phase "$1" 2>>"$log" | tail -n +2 >> "$out/constants.csv"
    else
        "$bin/constants" --phase "$1" 2>>"$log" > "$out/constants.csv"
    fi || { echo "run-all: constants ($1) FAILED" >&2; status=1; }
}

graph_reading() {   # graph_reading PHASE: a graph's start again, into graph-start.csv
    if [ -s "$out/graph-start.csv" ]; then
        "$bin/constants" --graph-only --phase "$1" 2>>"$log" | tail -n +2 >> "$out/graph-start.csv"
    else
        "$bin/constants" --graph-only --phase "$1" 2>>"$log" > "$out/graph-start.csv"
    fi || { echo "run-all: graph start ($1) FAILED" >&2; status=1; }
}

run_case() {   # run_case CASE [handwritten [CSV [no-occupancy]]]: the sweep of build/cuda/CASE
               # into CSV (default $out/CASE.csv), its kernels' residency into occupancy.csv
               # unless no-occupancy; or of the hand-written program (--handwritten) into
               # $out/handwritten/CASE.csv
    local c=$1 hw=${2:-} bin=build/cuda csv=${3:-$out/$1.csv}
    local runs=("${timing[@]}")
    [ "${4:-}" = no-occupancy ] || runs+=(--occupancy "$out/occupancy.csv")
    if [ -n "$hw" ]; then
        bin=$handwritten/build/cuda
        csv=$out/handwritten/$c.csv
    fi
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
        if [ -z "$hw" ]; then   # ℓ = 2s, one series per s (its params as the card's rows name them)
            "$bin/plain-division" --n 2000 --m 2500,3000,4000,6000,10000 --l 2 --s 1 "${runs[@]}" > "$csv" &&
            "$bin/plain-division" --n 2000 --m 2500,3000,4000,6000,10000 --l 32 --s 16 "${runs[@]}" --no-header \
                >> "$csv" &&
            "$bin/plain-division" --n 2000 --m 2500,3000,4000,6000,10000 --l 256 --s 128 "${runs[@]}" --no-header \
                >> "$csv"
        else   # the hand-written program takes the gap m − n
            "$bin/plain-division" --n 2000 --gap 500,1000,2000,4000,8000 --s 1,16,128 "${runs[@]}" > "$csv"
        fi ;;
    sum|prefix-naive|prefix-optimal)
        "$bin/$c" --n 1024:16777216:*4 --l 256 "${runs[@]}" > "$csv" ;;
    user-jacobi)   # the sweep of programs/user/jacobi.cfg
        "$bin/user-jacobi" --n 4096:1048576:*4 --l 256 --iters 8 "${runs[@]}" > "$csv" ;;
    user-matvec)   # the sweep of programs/user/matvec.cfg
        "$bin/user-matvec" --n 256:2048:*2 --l 256 "${runs[@]}" > "$csv" ;;
    user-stencil)  # the sweep of programs/user/stencil.cfg
        "$bin/user-stencil" --n 256:2048:*2 --l 256 --iters 2 "${runs[@]}" > "$csv" ;;
    user-gather)   # the sweep of programs/user/gather.cfg
        "$bin/user-gather" --n 524288 --m 256,4096,65536,1048576,4194304,16777216 --l 256 --iters 2 \
            "${runs[@]}" > "$csv" ;;
    user-horner)   # the sweep of programs/user/horner.cfg
        "$bin/user-horner" --n 16384:1048576:*4 --d 32 --l 256 "${runs[@]}" > "$csv" ;;
    esac
}

is_short() {   # is_short CASE: a sweep of seconds, timed in $processes processes
    case $1 in euclid|plain-mult) return 1 ;; *) return 0 ;; esac
}

median_process() {   # median_process CASE FILE...: each point's row from the process whose
                     # graph median is the median of the processes'; exit 1 (the rows
                     # still written) where a point lacks some process's row
    local c=$1
    shift
    awk -F, -v want="$processes" -v c="$c" '
        FNR == 1 { if (NR == 1) { print; for (i = 1; i <= NF; i++) if ($i == "graph_median_ms") col = i }
                   next }
        { key = $1 "," $2
          if (!(key in n)) order[++points] = key
          n[key]++; row[key, n[key]] = $0; g[key, n[key]] = $col + 0 }
        END {
            for (p = 1; p <= points; p++) {
                key = order[p]; m = n[key]
                for (i = 1; i <= m; i++) idx[i] = i
                for (i = 2; i <= m; i++)
                    for (j = i; j > 1 && g[key, idx[j - 1]] > g[key, idx[j]]; j--) {
                        t = idx[j]; idx[j] = idx[j - 1]; idx[j - 1] = t
                    }
                print row[key, idx[int((m + 1) / 2)]]
                if (m != want) {
                    printf "run-all: %s, point %s: %d of %d processes timed it\n", c, key, m, want > "/dev/stderr"
                    short = 1
                }
            }
            exit short
        }' "$@"
}

run_sweep() {   # run_sweep CASE: a short sweep in $processes processes (processes/CASE.K.csv)
                # and CASE.csv from their median process; a long one once, into CASE.csv
    local c=$1 k
    if ! is_short "$c" || [ "$processes" -le 1 ]; then
        run_case "$c"
        return
    fi
    mkdir -p "$out/processes"
    local failed=0 written=()
    for k in $(seq 1 "$processes"); do   # occupancy.csv: the first process's
        run_case "$c" "" "$out/processes/$c.$k.csv" "$([ "$k" = 1 ] || echo no-occupancy)" || failed=1
        [ -s "$out/processes/$c.$k.csv" ] && written+=("$out/processes/$c.$k.csv")
    done
    [ ${#written[@]} -gt 0 ] || return 1
    median_process "$c" "${written[@]}" > "$out/$c.csv" || failed=1
    return $failed
}

start=$(date +%s)
constants before
for c in "${cases[@]}"; do
    echo "== $c ($(( $(date +%s) - start )) s)" >&2
    echo "== $c" >> "$log"
    graph_reading "before-$c"
    if ! run_sweep "$c" 2>>"$log"; then
        echo "run-all: $c FAILED (see $log)" >&2
        status=1
    fi
    if [ -n "$handwritten" ] && [ -x "$handwritten/build/cuda/$c" ]; then
        echo "== $c, hand-written" >> "$log"
        mkdir -p "$out/handwritten"
        if ! run_case "$c" handwritten 2>>"$log"; then
            echo "run-all: $c, hand-written, FAILED (see $log)" >&2
            status=1
        fi
    fi
done
constants after
{
    echo "# nvidia-smi at the end, $(date -u +%Y-%m-%dT%H:%M:%SZ), $(( $(date +%s) - start )) s after the start"
    smi
} >> "$out/device.txt"
if grep -rl ',FAIL$' "$out" --include='*.csv' 2>/dev/null; then
    echo "run-all: some checks FAILED" >&2
    status=1
fi
echo "run-all: $out written in $(( $(date +%s) - start )) s, status $status" >&2
exit $status
