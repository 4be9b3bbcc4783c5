#!/usr/bin/env bash
# cuda_ref/smoke.sh -- quick correctness pass: build, then run every CUDA
# program on small sizes with few runs (seconds).  Prints the CSV rows;
# exits 1 if any program fails or any check is FAIL.  Writes nothing under
# validate/.  Usage: cuda_ref/smoke.sh
# Every case study is its kernels written once (programs/CASE/kernels.c),
# as are the user programs written against sim/exec/mcm_kernel.h: the examples
# programs/user/*.c (user-jacobi, user-matvec, user-stencil, user-gather,
# user-horner) and the fixtures
# tests/user/*.c (rotate: three steps through private memory, one launch
# with 64 KiB of it; zp: the Z/pZ operations; misuse: each broken phase rule
# must exit 1 with one message); and, where Nsight Compute is installed,
# its count of one kernel written once (cuda_ref/ncu-instructions.sh; NCU=0
# leaves it out).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
b=build/cuda
progs=(euclid cooley-tukey stockham plain-mult fft-mult radix-sort plain-division
       sum prefix-naive prefix-optimal user-jacobi user-matvec user-stencil user-gather user-horner)
make -f cuda_ref/cuda.mk -j"${JOBS:-$(nproc)}" "${progs[@]/#/$b/}" || exit 1
for f in rotate zp misuse; do
    make -f cuda_ref/cuda.mk cuda-user USER_SRC=tests/user/$f.c || exit 1
done
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
run $b/plain-division --n 2000 --m 2001,2500,3001 --s 1,16,128 "${q[@]}"
run $b/plain-division --n 3 --m 43 --s 5 "${q[@]}" --no-header
for c in sum prefix-naive prefix-optimal; do
    run $b/$c --n 2,1024,65536,1048576 --l 256 "${q[@]}"
    run $b/$c --n 4096 --l 32 "${q[@]}" --no-header
done
run $b/sum --n 3,1000 --l 256 "${q[@]}" --no-header   # an odd count: a number passes through
run $b/user-jacobi --n 3,1000,65536 --l 32,256 --iters 1,8 "${q[@]}"
run $b/user-matvec --n 1,100,1024 --l 1,32,256 "${q[@]}"
run $b/user-stencil --n 3,100,1000 --l 32,256 --iters 1,3 "${q[@]}"
run $b/user-gather --n 1,1000,65536 --m 1,300,1048576 --l 32,256 --iters 1,2 "${q[@]}"
run $b/user-horner --n 1,1000,65536 --d 0,5,64 --l 32,256 "${q[@]}"
run $b/user-rotate --n 4096 --l 1,32,1024 --pad 0 "${q[@]}"
run $b/user-rotate --n 8192 --l 1024 --pad 14336 "${q[@]}" --no-header
run $b/user-zp --n 1000,100000 --l 128,1024 "${q[@]}"
run $b/user-misuse --bad 0 "${q[@]}"
for bad in 1 2 3 4; do   # each must fail: exit 1 and one message
    echo "== $b/user-misuse --bad $bad (must fail)" >&2
    "$b/user-misuse" --bad $bad "${q[@]}" --no-header
    [ $? = 1 ] || { echo "smoke: user-misuse --bad $bad did not exit 1" >&2; status=1; }
done
# Nsight Compute's count of a kernel written once (cuda_ref/ncu-instructions.sh),
# where ncu is installed, into a temporary folder
card=$($b/constants --device-info 2>/dev/null | sed -n 's/^name: .*\(H[12]00\).*/\1/p' | tr 'H' 'h')
if [ "${NCU:-1}" != 0 ] && command -v ncu >/dev/null && [ -n "$card" ]; then
    tmp=$(mktemp -d)
    run cuda_ref/ncu-instructions.sh "$card" smoke --out "$tmp" 'user-matvec:n=256;l=256'
    grep -q 'matvec_mcm_global_' "$tmp"/ncu/*.csv 2>/dev/null ||
        { echo "smoke: no matvec kernel in Nsight Compute's CSV ($tmp)" >&2; status=1; }
    rm -rf "$tmp"
fi
exit $status
