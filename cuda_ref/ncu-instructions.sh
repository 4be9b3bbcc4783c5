#!/usr/bin/env bash
# cuda_ref/ncu-instructions.sh -- Nsight Compute's count of the instructions
# every kernel written once executes, per point, into a measurement session
# beside its times.  `make validate` compares them, kernel by kernel, with
# the instruction stream mcmsim counts from the same C file without a card
# (sim/exec/stream.h; validate/code_costs.c; validate/notes/instruction-stream.md).
#
# Usage (from anywhere, on the machine with the card):
#   cuda_ref/ncu-instructions.sh CARD SESSION [--out DIR] [CASE:PARAMS ...]
#   CARD         h100 or h200: it must occur in the device's name
#   SESSION      an existing session, validate/data/CARD/SESSION (the times
#                of the same build; cuda_ref/run-all.sh makes it)
#   --out DIR    write into DIR instead (a new folder; smoke.sh uses it)
#   CASE:PARAMS  a case written once and one point of it, its params as in
#                the session's CSV, e.g. 'user-matvec:n=1024;l=256'; default:
#                the points below (two sizes of each case written once)
# Writes: instructions.csv (case,params,ncu_csv: one row per point) and, for
# each point, ncu/CASE-PARAMS.csv, Nsight Compute's raw CSV of every launch of
# the point's kernels (--runs 1 --warmup 0: each kernel launched by the wall
# run and by the graph, every launch counted): its name, grid, block and
# smsp__inst_executed.sum (warp instructions executed), and its duration and
# cycles for reference.  A point already in instructions.csv is measured
# again and its row replaced.
# Needs ncu and nvcc.  Exit status 0 when every point was measured, 1 when one
# failed (the others still run), 2 on bad usage.
set -uo pipefail

usage() { sed -n '2,27p' "$0"; exit 2; }
die() { echo "ncu-instructions: $*" >&2; exit 2; }

# one or two sizes of each case written once: the case studies at the
# points profiled before where there were some, and the user examples
default_points=(
    'sum:n=65536;l=256' 'sum:n=1048576;l=256'
    'prefix-naive:n=1048576;l=256' 'prefix-optimal:n=1048576;l=256'
    'euclid:n=100;m=100;l=256;s=1' 'euclid:n=1000;m=1000;l=256;s=256'
    'cooley-tukey:n=65536;l=128;m=16' 'stockham:n=65536;l=128'
    'plain-mult:n=8192;m=8192;l=256;s=4' 'plain-mult:n=2048;m=2048;l=256;s=1'
    'fft-mult:n=4096;m=4096;l=256' 'radix-sort:n=1048576;l=256;s=4;c=32'
    'plain-division:n=2000;m=2500;l=32;s=16' 'plain-division:n=2000;m=2500;l=256;s=128'
    'user-jacobi:n=65536;l=256;iters=8' 'user-jacobi:n=1048576;l=256;iters=8'
    'user-matvec:n=256;l=256' 'user-matvec:n=1024;l=256'
    'user-stencil:n=1024;l=256;iters=2' 'user-gather:n=524288;m=65536;l=256;iters=2'
    'user-horner:n=262144;d=32;l=256'
)
metrics=smsp__inst_executed.sum,launch__grid_size,launch__block_size,gpu__time_duration.sum,sm__cycles_elapsed.avg

[ $# -ge 2 ] || usage
card=$1 session=$2
shift 2
out=
points=()
while [ $# -gt 0 ]; do
    case $1 in
    --out) [ $# -ge 2 ] || die "--out needs a folder"; out=$2; shift 2 ;;
    -*) die "unknown option $1" ;;
    *:*) points+=("$1"); shift ;;
    *) die "'$1': expected CASE:PARAMS, e.g. 'user-matvec:n=1024;l=256'" ;;
    esac
done
[ ${#points[@]} -gt 0 ] || points=("${default_points[@]}")
[[ $card =~ ^[A-Za-z0-9_-]+$ ]] || die "card '$card': letters, digits, '-' and '_' only"
[[ $session =~ ^[A-Za-z0-9._-]+$ ]] || die "session '$session': letters, digits, '.', '-' and '_' only"

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
if [ -z "$out" ]; then
    out=validate/data/$card/$session
    [ -d "$out" ] ||
        die "$out: no such session (cuda_ref/run-all.sh $card --session $session first: the counts go beside the times)"
fi
command -v ncu >/dev/null || die "ncu (Nsight Compute) not found"
bin=build/cuda

cases=()
for p in "${points[@]}"; do
    c=${p%%:*}
    [ -f "programs/${c#user-}/kernels.c" ] || { [[ $c =~ ^user-[a-z0-9_-]+$ ]] && [ -f "programs/user/${c#user-}.c" ]; } ||
        die "'$c': not a kernel written once (a case study CASE, programs/CASE/kernels.c, or user-NAME, programs/user/NAME.c)"
    cases+=("$bin/$c")
done
make -f cuda_ref/cuda.mk -j"${JOBS:-$(nproc)}" "$bin/constants" "${cases[@]}" >&2 || die "build failed"
. cuda_ref/common/card.sh
device_named "$card"

mkdir -p "$out/ncu"
index=$out/instructions.csv
[ -f "$index" ] || echo "case,params,ncu_csv" >"$index"
status=0
for p in "${points[@]}"; do
    c=${p%%:*} params=${p#*:}
    args=()
    IFS=';' read -ra kv <<<"$params"
    for pair in "${kv[@]}"; do
        [[ $pair =~ ^[A-Za-z_][A-Za-z0-9_]*=[-0-9.e+]+$ ]] || die "'$p': params are k=v;k=v"
        args+=("--${pair%%=*}" "${pair#*=}")
    done
    file=ncu/$c-$(tr ';=' '_-' <<<"$params").csv
    echo "== ncu $c $params -> $out/$file" >&2
    if ncu --csv --page raw --print-kernel-base function --clock-control none --cache-control none \
           --metrics "$metrics" -k regex:_mcm_global_ --log-file "$out/$file" \
           "$bin/$c" "${args[@]}" --runs 1 --warmup 0 >/dev/null; then
        grep -v "^$c,$params," "$index" >"$index.tmp" && mv "$index.tmp" "$index"
        echo "$c,$params,$file" >>"$index"
    else
        echo "ncu-instructions: $c $params failed" >&2
        status=1
    fi
done
exit $status
