#!/usr/bin/env bash
# validate/stream/sass-costs.sh -- where the card's cost of each exec_* call
# comes from (sim/exec/stream_ir_calls.c, CALL_COSTS): nvcc compiles
# validate/stream/costs.c for sm_90, sass_count.c counts each kernel's
# instructions in the cubin (no GPU, no disassembler), and the growth per
# call is printed.
# Needs nvcc and cc.  Usage: validate/stream/sass-costs.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc -std=c11 -O2 -o "$tmp/sass_count" validate/stream/sass_count.c
"$nvcc" -O3 -arch=sm_90 -cubin -diag-suppress 177 -x cu -Isim/exec -Icuda_ref/common -include mcm_kernel_cuda.cuh -o "$tmp/costs.cubin" validate/stream/costs.c
"$tmp/sass_count" "$tmp/costs.cubin" | awk '
    { k = $1; sub(/^_Z[0-9]+/, "", k); sub(/k_mcm_global_.*/, "", k); straight[k] = $3 }
    END {
        printf "card instructions a warp executes per call (sm_90, %s):\n", "nvcc -O3"
        printf "  exec_zp_mul   %5.2f  (zpmul4 - x4) / 4\n", (straight["zpmul4"] - straight["x4"]) / 4
        printf "  exec_zp_add   %5.2f  (zpadd4 - x4) / 4\n", (straight["zpadd4"] - straight["x4"]) / 4
        printf "  exec_zp_sub   %5.2f  (zpsub4 - x4) / 4\n", (straight["zpsub4"] - straight["x4"]) / 4
        printf "  exec_zp_add of results  %5.2f  (mac4 - mac2) / 2 - (zpmul4 - zpmul2) / 2 + 1: the growth of a multiply-add less a multiplication'"'"'s, whose xor (one LOP3) it replaces\n", (straight["mac4"] - straight["mac2"]) / 2 - (straight["zpmul4"] - straight["zpmul2"]) / 2 + 1
        printf "  exec_zp_sub of results  %5.2f  (macsub4 - macsub2) / 2 - (zpmul4 - zpmul2) / 2 + 1\n", (straight["macsub4"] - straight["macsub2"]) / 2 - (straight["zpmul4"] - straight["zpmul2"]) / 2 + 1
        printf "  exec_zp_add of a result and a word  %5.2f  (mixadd4 - mixadd2) / 2 - (mulx4 - mulx2) / 2 + 1: the growth of an addition of a word read and a product less the same xor'"'"'d\n", (straight["mixadd4"] - straight["mixadd2"]) / 2 - (straight["mulx4"] - straight["mulx2"]) / 2 + 1
        printf "  exec_zp_sub of a result and a word  %5.2f  (mixsub4 - mixsub2) / 2 - (mulx4 - mulx2) / 2 + 1\n", (straight["mixsub4"] - straight["mixsub2"]) / 2 - (straight["mulx4"] - straight["mulx2"]) / 2 + 1
        printf "  sdiv i64 by 2  %5.2f  (div4 - div2) / 2 - (sum4 - sum2) / 2: a signed 64-bit division by a power of two\n", (straight["div4"] - straight["div2"]) / 2 - (straight["sum4"] - straight["sum2"]) / 2
        printf "  exec_gread    %5.2f  (g4 - g2) / 2, a 32-bit index widened (a 64-bit one adds a LEA.HI.X)\n", (straight["g4"] - straight["g2"]) / 2
        printf "  exec_pread    %5.2f  (p4 - p2) / 2\n", (straight["p4"] - straight["p2"]) / 2
        printf "  __syncthreads %5.2f  bar - empty\n", straight["bar"] - straight["empty"]
        printf "  kernel entry  %5.2f  empty\n", straight["empty"]
    }'
