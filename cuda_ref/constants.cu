/*
 * constants.cu -- measures the card constants a machine preset of the
 * simulator needs, and prints the device description.
 *
 * Owns: validate/data/CARD/constants.csv (columns name,value,unit,phase,how) and
 * the CUDA half of device.txt (with --device-info).
 *
 * Measured (medians of several repetitions, CUDA events unless said):
 *  - the SM clock under load: one thread spins for a fixed number of
 *    clock64() cycles, timed by events (cycles / ms);
 *  - kernel launch latency: back-to-back launches of an empty kernel (one
 *    block of 32 threads), total time / launches; also launch + synchronize
 *    round trips (host clock), and the extra cost per block of an empty
 *    kernel with many blocks (block dispatch: 64 blocks per SM against 1,
 *    and at steady state, 256 per SM against 64);
 *  - global-memory throughput in words of 4 bytes per SM cycle: one block
 *    of 1024 threads streaming (reading) 256 MiB alone (one SM), and a full
 *    grid (8 blocks of 256 threads per SM) reading 1 GiB, and copying 1 GiB
 *    (bytes read + written); 16-byte loads;
 *  - dependent-load latency: one thread follows a random cyclic permutation
 *    (Sattolo) of 256 MiB and of 1 GiB (beyond the 50 MiB L2: DRAM, TLB
 *    misses included) and of 1 MiB (L2-resident after one warm pass),
 *    cycles per load from clock64().
 *  - kernel launches replayed from a CUDA graph (2000 empty kernels
 *    captured on a stream), per kernel; and the same for a chain of
 *    2000 dependent kernels of one block of 256 threads per SM, each
 *    thread reading the word the previous kernel wrote and writing one
 *    (the kernel boundary of a real program: fill, one global round
 *    trip, drain); and a graph of one empty kernel, whose time beyond
 *    the per-kernel figure is the graph's start;
 *  - the kernel boundary, decomposed: graphs of 1 to 32 kernels of eight
 *    chains that differ in one thing each (one block on every SM, on half
 *    of them, on 16, on 4, or one block;
 *    one load or two, or a load at an address a load gave; a tree sum with
 *    barriers between the load and the store), timed as the case studies
 *    are; per kernel and per graph;
 *  - a kernel's cold constant cache (measure_constant_cache): chains of
 *    one-block kernels reading 0, 1, 4, 15 lines of their parameters (or of
 *    a __constant__ array) before their load, per kernel; and clock64
 *    around a kernel's first read of a new line of constants;
 *  - throughput from the L2: the same reads over an 8 MiB buffer, read
 *    many times per launch (L2-only loads, so that no SM's L1 serves its
 *    share again), by one SM and by the whole card; U for one SM and per
 *    SM when all stream, from the L2 and from DRAM;
 *  - arithmetic: the latency of a dependent chain in one thread and the
 *    throughput per SM with every SM full (2048 threads, 4 independent
 *    chains each) of a 32-bit integer addition (the plain operation), of a
 *    32-bit multiply-add, of a Z/pZ multiplication and of a Z/pZ addition
 *    (common/zp.h, the arithmetic of the case studies);
 *  - shared (private) memory: dependent-load latency (a random cycle in
 *    shared memory) and words per SM per cycle, conflict-free and with a
 *    warp's words 2, 4, 8, 16 apart (bank conflicts);
 *  - the classes mixed: Z/pZ multiply-adds per SM per cycle, operands from
 *    registers, and from shared memory at strides 1 ... 16 (plain
 *    multiplication's inner loop), to see whether the arithmetic and the
 *    shared-memory banks add up or overlap;
 *  - the caches (measure_caches): the L1's capacity (a pointer chase over
 *    growing footprints), its hit latency and throughput (coalesced, a
 *    broadcast, scattered), a load after a store, the L2 every SM sees
 *    (re-reads of 8 to 96 MiB), and sectors written, whole and partial,
 *    and read one word a sector, from the L2 against DRAM; and the L1's
 *    rate of rounds spread over 16 and 32 lines, their words in 1, 2 or 32
 *    banks (measure_l1_lines);
 *  - a line on its way to the L1 (measure_lines_in_flight): a dependent
 *    chain of lines the L2 holds, read by one warp an SM, by 8 blocks of
 *    an SM at once and by 8 warps of one block at once: what a load that
 *    finds its line already asked for, and not yet arrived, waits; and by
 *    one warp on each of 1 to 66 SMs, the others idle, and its spread over
 *    the SMs with one on every SM: what a link waits as the SMs loading
 *    at once grow;
 *  - resident blocks on their SM (measure_resident_spread): 1, 2, 4, 8
 *    two-phase blocks of 256 threads on every SM at once (4, then 16,
 *    coalesced L2 words a thread with a Z/pZ product each, then 8
 *    barrier-separated halving levels): how far apart the blocks an SM holds start and end, the SM's
 *    busy time for them and a block's lifetime, from clock64() and %smid;
 *  - __syncthreads: cycles per barrier for one block of l = 32 ... 1024
 *    threads alone on the card (with and without barrier, the difference),
 *    and for 8 blocks of 256 per SM on every SM;
 *  - the L2's writes beside its reads (measure_writes): a copy within the
 *    L2, the write stream's shape read, and writes from 8 SMs against every
 *    SM; an SM's own write rate by its warps, 1 to 32, at 8 SMs, and a
 *    copy's rate by the SMs copying, 8 to every SM (measure_write_own);
 *  - the stencil's sweep (measure_stencil_rows): a division by a runtime
 *    number (32-bit, and long operands that fit 32 bits, quotient alone and
 *    with its remainder) as a dependent chain, in one thread and at the
 *    stencil's occupancy; its I2F, MUFU.RCP and F2I alone; and the
 *    stencil's round of five loads at once against its centre's alone;
 *  - the clock again at the end, so that drift within the run shows.
 * These are the MCM's U (1 / words per cycle per SM), the spec's optional
 * launch latency and per-block dispatch cost, the global latency the
 * papers quote (400-800 cycles on their cards), and the card terms of the
 * simulator's machines (validate/card.c maps each row onto a machine key).
 * Every row carries the phase given by --phase (run-all.sh measures before
 * and after the case studies).
 *
 * Usage: constants [--device-info] [--graph-only] [--in-flight-only] [--spread-only]
 *                  [--guarded-reads-only] [--block-counts-only] [--writes-only]
 *                  [--spin-only] [--protocol-only] [--l1-lines-only] [--partial-writes-only]
 *                  [--write-sms-only] [--write-own-only] [--boundary-widths-only]
 *                  [--reduce-levels-only] [--read-after-write-only] [--stencil-rows-only]
 *                  [--seed S] [--phase TEXT]
 * (--in-flight-only: the rows of measure_lines_in_flight alone, a probe;
 * --spread-only: those of measure_resident_spread alone;
 * --guarded-reads-only: the chains of measure_guarded_reads alone, a probe;
 * --block-counts-only: the touch chains by width of measure_block_counts;
 * --writes-only: the L2's writes beside its reads, measure_writes;
 * --spin-only: the spin chains and timelines of measure_spin_chains;
 * --protocol-only: the touch chains timed both ways, measure_protocol_chains,
 * six repetitions (two in the full run, a few seconds), between the
 * sessions' chain_touch_block and chain_touch_card and the same again;
 * --l1-lines-only: the rounds of measure_l1_lines and the one-line round
 * beside them, a probe;
 * --partial-writes-only: measure_partial_writes and the rows it is read
 * against, a probe;
 * --write-sms-only: the write stream's rate an SM by the SMs writing at
 * once, measure_write_sms, a probe;
 * --write-own-only: an SM's own write rate by its warps and a copy's rate by
 * the SMs copying, measure_write_own (rows of the full run too);
 * --reduce-levels-only: the reduce chain at 2, 4 and 8 levels and the
 * touch block, measure_reduce_levels, a probe;
 * --read-after-write-only: gmem_read_after_write_card's read at 1 to 48
 * MiB, after a kernel's writes, a copy's, or a read, a probe;
 * --boundary-widths-only: measure_boundary_widths, four repetitions, between
 * the sessions' chain_touch_block and chain_touch_card (then the cases'
 * warm-up alone and touch_block again) and the same again, a probe;
 * --stencil-rows-only: measure_stencil_rows, the stencil's division and
 * load round (rows of the full run too), with op_latency beside them)
 */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/cuda_common.cuh"

#define REPEATS 7

__global__ void empty_kernel(void) {}
/* Empty too, but launched with so much dynamic shared memory that an SM
 * holds one at a time (block_turnaround). */
__global__ void empty_alone(void) { extern __shared__ unsigned pad[]; (void)pad; }

/* spin for `cycles` SM cycles */
__global__ void spin_kernel(long long cycles, long long *sink)
{
    long long start = clock64(), now = start;
    while (now - start < cycles)
        now = clock64();
    *sink = now;
}

/* read words [0, count) with 16-byte loads, grid-stride; xor into sink */
__global__ void stream_read_kernel(const uint4 *in, long count16,
                                   unsigned *sink)
{
    unsigned acc = 0;
    long stride = (long)gridDim.x * blockDim.x;
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    for (; i + 3 * stride < count16; i += 4 * stride) {   /* 4 loads in flight */
        uint4 v0 = in[i], v1 = in[i + stride], v2 = in[i + 2 * stride],
              v3 = in[i + 3 * stride];
        acc ^= v0.x ^ v0.y ^ v0.z ^ v0.w ^ v1.x ^ v1.y ^ v1.z ^ v1.w ^
               v2.x ^ v2.y ^ v2.z ^ v2.w ^ v3.x ^ v3.y ^ v3.z ^ v3.w;
    }
    for (; i < count16; i += stride) {
        uint4 v = in[i];
        acc ^= v.x ^ v.y ^ v.z ^ v.w;
    }
    if (acc == 0x9e3779b9u)           /* practically never: keeps the loads */
        *sink = acc;
}

__global__ void stream_copy_kernel(const uint4 *in, uint4 *out, long count16)
{
    long stride = (long)gridDim.x * blockDim.x;
    for (long i = (long)blockIdx.x * blockDim.x + threadIdx.x; i < count16;
         i += stride)
        out[i] = in[i];
}

/* Three 32-bit words an element, as the case studies' kernels move them:
 * c[i] = a[i] + b[i] (two streams read, a third written), or, in place,
 * b[i + shift] += a[i] (a read-modify-write, `shift` words off the
 * element the thread reads, as plain multiplication's AddKer). */
__global__ void stream_add_kernel(const unsigned *a, const unsigned *b, unsigned *c, long count)
{
    long stride = (long)gridDim.x * blockDim.x;
    for (long i = (long)blockIdx.x * blockDim.x + threadIdx.x; i < count; i += stride)
        c[i] = a[i] + b[i];
}

__global__ void stream_rmw_kernel(const unsigned *a, unsigned *b, long count, long shift)
{
    long stride = (long)gridDim.x * blockDim.x;
    for (long i = (long)blockIdx.x * blockDim.x + threadIdx.x; i < count; i += stride)
        b[i + shift] += a[i];
}

/* one thread: `steps` dependent loads idx = next[idx]; cycles per load */
__global__ void chase_kernel(const uint32_t *next, long steps,
                             long long *cycles, uint32_t *sink)
{
    uint32_t idx = 0;
    long long start = clock64();
    for (long k = 0; k < steps; k++)
        idx = next[idx];
    long long stop = clock64();
    *cycles = stop - start;
    *sink = idx;
}

/* read words [0, count16*4) `reps` times with 16-byte loads, grid-stride,
 * 4 loads in flight like stream_read_kernel. __ldcg caches in the L2 only:
 * with the default loads a full grid would find its own share of a small
 * buffer in its SM's L1 on every pass after the first, and time the L1. */
__global__ void stream_reread_kernel(const uint4 *in, long count16, int reps,
                                     unsigned *sink)
{
    unsigned acc = 0;
    long stride = (long)gridDim.x * blockDim.x;
    for (int r = 0; r < reps; r++) {
        long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
        for (; i + 3 * stride < count16; i += 4 * stride) {
            uint4 v0 = __ldcg(in + i), v1 = __ldcg(in + i + stride),
                  v2 = __ldcg(in + i + 2 * stride), v3 = __ldcg(in + i + 3 * stride);
            acc ^= v0.x ^ v0.y ^ v0.z ^ v0.w ^ v1.x ^ v1.y ^ v1.z ^ v1.w ^
                   v2.x ^ v2.y ^ v2.z ^ v2.w ^ v3.x ^ v3.y ^ v3.z ^ v3.w;
        }
        for (; i < count16; i += stride) {
            uint4 v = __ldcg(in + i);
            acc ^= v.x ^ v.y ^ v.z ^ v.w;
        }
        acc = acc * 3u + 1u;          /* each pass counts: no pass folds away */
    }
    if (acc == 0x9e3779b9u)
        *sink = acc;
}

/* A warp follows `steps` lines of a chain from `line`: its 32 threads read
 * the 32 words of a line (cached: ld.ca, in the L1 and the L2; else
 * __ldcg, the L2 only), or with one_sector every thread the line's first
 * word (one sector a load), and lane 0's word, shared, names the next
 * line.  Cycles a line; *acc folds the words read. */
template <bool cached>
static __device__ __forceinline__ double line_chain_cycles(const uint32_t *next, uint32_t line, long steps,
                                                           uint32_t *acc, bool one_sector = false)
{
    const unsigned lane = one_sector ? 0 : threadIdx.x % 32;
    long long start = clock64();
    for (long k = 0; k < steps; k++) {
        uint32_t v;
        if (cached)
            asm volatile("ld.global.ca.u32 %0, [%1];" : "=r"(v) : "l"(next + (long)line * 32 + lane));
        else
            v = __ldcg(next + (long)line * 32 + lane);
        *acc ^= v;
        line = __shfl_sync(0xffffffffu, v, 0);
    }
    long long stop = clock64();
    return (double)(stop - start) / steps;
}

/* Every warp follows its own chain of whole lines through the L2 only (as
 * a line read once: the L1 never hits).  Warp w of the grid starts at
 * line w·stride.  Each warp's cycles per line, its lane 0 writes them. */
__global__ void line_chase_all_kernel(const uint32_t *next, long steps, long stride,
                                      double *per_line, uint32_t *sink)
{
    const long warp = ((long)blockIdx.x * blockDim.x + threadIdx.x) / 32;
    uint32_t acc = 0;
    double cycles = line_chain_cycles<false>(next, (uint32_t)(warp * stride), steps, &acc);
    if (threadIdx.x % 32 == 0)
        per_line[warp] = cycles;
    if (acc == 0x9e3779b9u)
        *sink = acc;
}

/* ---- kernels of the caches' microbenchmarks (measure_caches below) ----- */

/* a 32-bit load cached in the L1 and the L2 (the default, made explicit so
 * that no load is folded away), and one cached in the L2 only */
static __device__ __forceinline__ uint32_t load_ca(const uint32_t *p)
{
    uint32_t v;
    asm volatile("ld.global.ca.u32 %0, [%1];" : "=r"(v) : "l"(p));
    return v;
}

static __device__ __forceinline__ uint32_t load_cg(const uint32_t *p)
{
    uint32_t v;
    asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(v) : "l"(p));
    return v;
}

/* One thread follows `next` (a word index) `warm` steps untimed, so that
 * the footprint is in the L1 if it fits (the card empties the L1s at each
 * kernel), then `steps` timed; cycles per load.  With store > 0 it also
 * stores into the word `store` words after each word it loads (the chain
 * is on the first word of each line): 1, the sector it has just read; 8,
 * the next sector of the line. */
__global__ void chase_warm_kernel(uint32_t *next, long warm, long steps, int cached, int store,
                                  long long *cycles, uint32_t *sink)
{
    uint32_t idx = 0;
    for (long k = 0; k < warm; k++)
        idx = cached ? load_ca(next + idx) : load_cg(next + idx);
    long long start = clock64();
    for (long k = 0; k < steps; k++) {
        uint32_t at = idx;
        idx = cached ? load_ca(next + at) : load_cg(next + at);
        if (store)
            next[at + store] = idx;
    }
    long long stop = clock64();
    *cycles = stop - start;
    *sink = idx;
}

/* Every warp of every block follows the chain of whole lines its SM's
 * number picks (start[smid], a stretch of `steps` lines), with loads
 * cached in the L1 and the L2 (ld.ca): the warps an SM holds ask for each
 * line at about the same moment, the first of them asking the L2 and the
 * others finding the line on its way to the L1.  The lines are in the L2
 * (a warm launch before) and in no L1 (the card empties them at each
 * kernel, and a launch visits each line once).  Each warp's cycles per
 * line, its lane 0 writes them. */
__global__ void in_flight_chase_kernel(const uint32_t *next, const uint32_t *start, unsigned stretches,
                                       long steps, bool one_sector, double *per_line, uint32_t *sink)
{
    unsigned smid;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
    const long warp = ((long)blockIdx.x * blockDim.x + threadIdx.x) / 32;
    uint32_t acc = 0;
    double cycles = line_chain_cycles<true>(next, start[smid % stretches], steps, &acc, one_sector);
    if (threadIdx.x % 32 == 0)
        per_line[warp] = cycles;
    if (acc == 0x9e3779b9u)
        *sink = acc;
}

/* Each block re-reads its own 1024 words (4 KiB, in every SM's L1 after
 * the first pass), 4 rounds a warp per iteration, with cached loads:
 *   pattern 0  lane j of warp w reads word 32w + j + 256u (u = 0..3): a
 *              round is one line, 4 sectors (coalesced);
 *   pattern 1  every lane of warp w reads word 32w + (4k + u) % 32: a
 *              round is one sector (a broadcast);
 *   pattern 2  lane j reads word 32j + (4k + u + w) % 32: a round is 32
 *              lines, a sector each (scattered). */
__global__ void l1_reread_kernel(const uint32_t *in, long iters, int pattern, uint32_t *sink)
{
    const uint32_t *mine = in + (size_t)blockIdx.x * 1024;
    const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
    uint32_t acc = 0;
    for (long k = 0; k < iters; k++) {
#pragma unroll
        for (int u = 0; u < 4; u++) {
            const int turn = (int)((4 * k + u) & 31);
            const int word = pattern == 0 ? (int)threadIdx.x + 256 * u
                             : pattern == 1 ? 32 * w + turn
                                            : 32 * lane + ((turn + w) & 31);
            acc += load_ca(mine + word);
        }
    }
    if (acc == 0x9e3779b9u)
        *sink = acc;
}

/* `reps` passes over `count` elements, element e at word e·stride,
 * grid-stride: stores of e + pass (write), or L2-only loads.  Stride 1
 * moves whole sectors; stride 8 one word of each 32-byte sector. */
__global__ void sector_stream_kernel(uint32_t *buf, long count, int stride, int reps, int write, uint32_t *sink)
{
    const long step = (long)gridDim.x * blockDim.x;
    uint32_t acc = 0;
    for (int r = 0; r < reps; r++)
        for (long e = (long)blockIdx.x * blockDim.x + threadIdx.x; e < count; e += step) {
            if (write)
                buf[e * stride] = (uint32_t)(e + r);
            else
                acc += load_cg(buf + e * stride);
        }
    if (acc == 0x9e3779b9u)
        *sink = acc;
}

/* `reps` passes over `count` pairs of 32-bit words, grid-stride: thread
 * of pair e stores word 2e, then word 2e + 1 (two store instructions, each
 * a warp's round of stride 2: every 32-byte sector half written by each of
 * two successive rounds, as prefix-optimal's stage-2 kernels write). */
__global__ void pair_write_kernel(uint32_t *buf, long count, int reps)
{
    const long step = (long)gridDim.x * blockDim.x;
    for (int r = 0; r < reps; r++)
        for (long e = (long)blockIdx.x * blockDim.x + threadIdx.x; e < count; e += step) {
            buf[2 * e] = (uint32_t)(e + r);
            buf[2 * e + 1] = (uint32_t)(e - r);
        }
}

/* b[e] = a[e] + r over `count` 32-bit words, `reps` passes r, grid-stride:
 * each word read once and written once a pass (a copy; + r so that no pass
 * folds away), cached loads and write-back stores as exec mode's kernels. */
__global__ void word_copy_kernel(const uint32_t *a, uint32_t *b, long count, int reps)
{
    const long step = (long)gridDim.x * blockDim.x;
    for (int r = 0; r < reps; r++)
        for (long e = (long)blockIdx.x * blockDim.x + threadIdx.x; e < count; e += step)
            b[e] = a[e] + (uint32_t)r;
}

/* A bijection of the k-bit numbers that scatters neighbours: xor-shifts
 * and multiplications by odd numbers, each a bijection mod 2^k. */
static __device__ __forceinline__ uint32_t scatter_bits(uint32_t x, int k)
{
    const uint32_t mask = k >= 32 ? 0xffffffffu : (1u << k) - 1;
    x &= mask;
    x ^= x >> (k / 2 + 1);
    x = (x * 0x9e3779b1u) & mask;
    x ^= x >> (k / 3 + 1);
    x = (x * 0x85ebca6bu) & mask;
    x ^= x >> (k / 2 + 1);
    return x;
}

/* Chunks of `group` sectors (1: 32 bytes, 2: 64, 4: a 128-byte line) at
 * scattered places: the buffer is 2^k chunks; element e (grid-stride,
 * every element once a pass) reads the first word of sector e % group of
 * chunk scatter_bits(e / group), so that the `group` lanes of a chunk
 * read its sectors together and a warp's round touches 32 / group chunks
 * with no order.  `reps` passes; L2-only loads, or cached (cached = 1). */
__global__ void random_sector_kernel(const uint32_t *buf, int k, int group, int reps, int cached,
                                     uint32_t *sink)
{
    const long count = (long)group << k, step = (long)gridDim.x * blockDim.x;
    const int shift = __ffs(group) - 1; /* group is 1, 2 or 4 */
    uint32_t acc = 0;
    for (int r = 0; r < reps; r++)
        for (long e = (long)blockIdx.x * blockDim.x + threadIdx.x; e < count; e += step) {
            const long chunk = scatter_bits((uint32_t)(e >> shift), k);
            const uint32_t *p = buf + ((chunk << shift) + (e & (group - 1))) * 8;
            acc += cached ? load_ca(p) : load_cg(p);
        }
    if (acc == 0x9e3779b9u)
        *sink = acc;
}

/* The L1's hit rate with the issue slots out of the way: as
 * l1_reread_kernel, 8 independent loads an iteration at offsets the
 * address can carry (one load instruction and about one addition a
 * round), each block in its own 4 KiB.  The addresses move by k · zero
 * (zero is 0 at run time): the assembler, which does not know it, can
 * neither hoist the loads out of the loop nor merge those of two
 * iterations (without it, it did: 3.1 lines an SM a cycle, 1 321 bytes
 * with 16-byte loads, ten times the L1's documented 128 bytes).
 *   pattern 0  a round is one line (lane j reads word 32 u' + j);
 *   pattern 1  a broadcast (every lane reads word 32 u' + w);
 *   pattern 3  16-byte loads, a round four lines (lane j reads words
 *              4 j .. 4 j + 3 of the 512 bytes 512 u', u' = 0 .. 7). */
__global__ void l1_wavefront_kernel(const uint32_t *in, long iters, int pattern, long zero, uint32_t *sink)
{
    const uint32_t *mine = in + (size_t)blockIdx.x * 1024;
    const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
    uint32_t acc = 0;
    if (pattern == 3) {
        const uint4 *v = (const uint4 *)mine + lane;
        for (long k = 0; k < iters; k++) {
            const uint4 *at = v + k * zero;
#pragma unroll
            for (int u = 0; u < 8; u++) {
                uint4 x;
                asm volatile("ld.global.ca.v4.u32 {%0, %1, %2, %3}, [%4];"
                             : "=r"(x.x), "=r"(x.y), "=r"(x.z), "=r"(x.w) : "l"(at + 32 * u));
                acc += x.x ^ x.y ^ x.z ^ x.w;
            }
        }
    } else {
        const uint32_t *at0 = mine + (pattern == 0 ? lane : w);
        for (long k = 0; k < iters; k++) {
            const uint32_t *at = at0 + ((k + w) & 3) * 256 + k * zero;
#pragma unroll
            for (int u = 0; u < 8; u++)
                acc += load_ca(at + 32 * u);
        }
    }
    if (acc == 0x9e3779b9u)
        *sink = acc;
}

/* The L1's wavefronts of a round spread over lines: as l1_wavefront_kernel
 * (8 independent cached loads an iteration at offsets the address carries,
 * the addresses moved by k · zero), each block in its own 8 KiB, lane j's
 * u-th load at word b_j + u:
 *   shape 0  b_j = 16 j: 16 lines, two sectors of each, the lanes' words in
 *            2 banks (Cooley-Tukey's dft_m: a thread's 16 consecutive words);
 *   shape 1  b_j = 32 j: 32 lines, one sector of each, the words in 1 bank;
 *   shape 2  b_j = 33 j: 32 lines, one sector of each, the words in 32
 *            banks.
 * Against l1_unrolled_coalesced_rounds_per_sm_cycle (one line a round):
 * whether the L1 serves a round a line a cycle (shapes 0, 1, 2: 1/16, 1/32,
 * 1/32 of it), a bank conflict a cycle (1/16, 1/32, 1), or 4 lines a cycle
 * (1/4, 1/8, 1/8: the caches' rule, a line's worth of sectors a wavefront). */
__global__ void l1_lines_kernel(const uint32_t *in, long iters, int shape, long zero, uint32_t *sink)
{
    const int lane = threadIdx.x & 31;
    const uint32_t *at0 = in + (size_t)blockIdx.x * 2048 + lane * (shape == 0 ? 16 : shape == 1 ? 32 : 33);
    uint32_t acc = 0;
    for (long k = 0; k < iters; k++) {
        const uint32_t *at = at0 + k * zero;
#pragma unroll
        for (int u = 0; u < 8; u++)
            acc += load_ca(at + u);
    }
    if (acc == 0x9e3779b9u)
        *sink = acc;
}

/* The operations timed. Each Op::step(x, y) makes Op::OPS dependent
 * operations, each one needing the result of the one before:
 *  - OpAdd: 32-bit integer additions, x = x + y then y = y + x (a Fibonacci
 *    pair). Written in PTX so that the compiler cannot sum a chain of
 *    additions of one addend into a multiplication; and every sum has two
 *    uses, so that the assembler cannot merge two additions into one
 *    three-input IADD3 either. In the SASS (CUDA 13.0, sm_90) each addition
 *    is one instruction; ptxas alternates IADD3 (integer pipe) and
 *    IMAD.IADD (multiply-add pipe), as it does in ordinary code, so the
 *    figures are those of additions as compiled, not of one pipe.
 *  - OpMad: the 32-bit multiply-add x = x*x + y (one IMAD).
 *  - OpMulmod, OpAddmod: the case studies' Z/pZ arithmetic (common/zp.h),
 *    x = x*y mod p and x = x+y mod p with y fixed. With CUDA 13.0 on sm_90
 *    a zp_mul is 16 SASS instructions (7 of them IMAD, 6 IMAD.WIDE) and a
 *    zp_add 3 (add, compare, predicated subtract). */
/* The case studies' Z/pZ arithmetic (cuda_ref/common/mcm_kernel_cuda.cuh's
 * exec_zp_add and exec_zp_mul, their fast paths and range checks as there,
 * on 64-bit words): what a kernel written once runs on the card, and what
 * mcmsim's stream charges (sim/exec/stream_ir_calls.c: a product 9
 * instructions, a sum of two results 3).  zp.h's zp_mul, the rows'
 * product since session 41, keeps its remainder in 64 bits: on sm_90 a
 * pass of spread_kernel is 19 instructions with it (6 IMAD.WIDE), 13 with
 * these (4 IMAD.WIDE; instruction-stream.md, "matvec's blocks sharing an
 * SM"). */
typedef uint64_t case_word;
#define CASE_BELOW_P_(r) __builtin_assume((r) < (uint32_t)ZP_P)
static __device__ __noinline__ uint32_t case_zp_add_slow(case_word a, case_word b)
{
    return (uint32_t)((a + b) % ZP_P);
}
static __device__ __noinline__ case_word case_zp_reduce_slow(case_word a)
{
    return a % ZP_P;
}
static __device__ __forceinline__ case_word case_zp_add(case_word a, case_word b)
{
    uint32_t c;
    if (__builtin_expect(a >= ZP_P || b >= ZP_P, 0)) {
        c = case_zp_add_slow(a, b);
    } else {
        c = (uint32_t)a + (uint32_t)b;
        c = c >= (uint32_t)ZP_P ? c - (uint32_t)ZP_P : c;
    }
    CASE_BELOW_P_(c);
    return c;
}
static __device__ __forceinline__ case_word case_zp_mul(case_word a, case_word b)
{
    if (__builtin_expect((a | b) >> 32 != 0, 0)) {
        a = case_zp_reduce_slow(a);
        b = case_zp_reduce_slow(b);
    }
    case_word x = (case_word)(uint32_t)a * (uint32_t)b;
    case_word q = __umul64hi(x, ZP_BARRETT);
    uint32_t r = (uint32_t)(x - q * ZP_P);
    r = r >= (uint32_t)ZP_P ? r - (uint32_t)ZP_P : r;
    CASE_BELOW_P_(r);
    return r;
}

static __device__ __forceinline__ uint32_t add_u32(uint32_t a, uint32_t b)
{
    uint32_t c;
    asm volatile("add.u32 %0, %1, %2;" : "=r"(c) : "r"(a), "r"(b));
    return c;
}
struct OpAdd {
    enum { OPS = 2 };
    static __device__ void step(uint32_t &x, uint32_t &y)
    {
        x = add_u32(x, y);
        y = add_u32(y, x);
    }
};
struct OpMad {
    enum { OPS = 1 };
    static __device__ void step(uint32_t &x, uint32_t &y) { x = x * x + y; }
};
struct OpMulmod {
    enum { OPS = 1 };
    static __device__ void step(uint32_t &x, uint32_t &y) { x = zp_mul(x, y); }
};
struct OpAddmod {
    enum { OPS = 1 };
    static __device__ void step(uint32_t &x, uint32_t &y) { x = zp_add(x, y); }
};
/* The case studies' product (case_zp_mul, 9 instructions on sm_90, 4
 * IMAD.WIDE), and a Z/pZ multiply-add x = x + x*y mod p of zp.h and of the
 * cases (a product and a sum a step, as matvec's loop and the spread
 * block's passes have). */
struct OpMulmodCase {
    enum { OPS = 1 };
    static __device__ void step(uint32_t &x, uint32_t &y) { x = (uint32_t)case_zp_mul(x, y); }
};
struct OpMacChain {
    enum { OPS = 1 };
    static __device__ void step(uint32_t &x, uint32_t &y) { x = zp_add(x, zp_mul(x, y)); }
};
struct OpMacChainCase {
    enum { OPS = 1 };
    static __device__ void step(uint32_t &x, uint32_t &y) { x = (uint32_t)case_zp_add(x, case_zp_mul(x, y)); }
};

/* A word's slot of issue_write_kernel: `steps` OpAdd steps (two additions
 * each, one SASS instruction each) on ISSUE_CHAINS independent chains,
 * then, by `mode`: 0 nothing leaves the SM (the additions' issue alone),
 * 1 the chains' sum written to b[e], 2 a[e] read (L2-only) and written to
 * b[e] with the sum (a copy), 3 the sum written to b[8e] (one word of each
 * 32-byte sector, a partial sector).  Grid-stride over `count` 32-bit words,
 * `reps` passes; the chains carry from word to word, so no pass folds
 * away, and none waits for a load or a store. */
#define ISSUE_CHAINS 4
template <int STEPS>
__global__ void issue_write_kernel(const uint32_t *a, uint32_t *b, long count, int reps, int mode, uint32_t *sink)
{
    const long step = (long)gridDim.x * blockDim.x;
    uint32_t x[ISSUE_CHAINS], y[ISSUE_CHAINS];
    for (int c = 0; c < ISSUE_CHAINS; c++) {
        x[c] = threadIdx.x + c;
        y[c] = blockIdx.x + 7u * c + 1u;
    }
    for (int r = 0; r < reps; r++)
        for (long e = (long)blockIdx.x * blockDim.x + threadIdx.x; e < count; e += step) {
#pragma unroll
            for (int k = 0; k < STEPS; k++)
#pragma unroll
                for (int c = 0; c < ISSUE_CHAINS; c++)
                    OpAdd::step(x[c], y[c]);
            uint32_t v = (uint32_t)(e + r) ^ x[0];
            if (mode == 2)
                v += load_cg(a + e);
            if (mode == 3)
                b[8 * e] = v;
            else if (mode != 0)
                b[e] = v;
        }
    uint32_t acc = 0;
    for (int c = 0; c < ISSUE_CHAINS; c++)
        acc ^= x[c] ^ y[c];
    if (acc == 0x9e3779b9u) /* practically never: keeps the chains */
        *sink = acc;
}

#define ARITH_CHAINS 4   /* independent chains per thread (throughput) */
#define ARITH_UNROLL 16  /* steps per loop iteration */

/* Each thread runs `chains` (1 or ARITH_CHAINS) independent dependent
 * chains of iters * ARITH_UNROLL steps; the inputs come from memory (field
 * elements < p), the results go back to memory; thread 0 of block 0
 * reports its cycles. */
template <class Op>
__global__ void arith_kernel(const uint32_t *seed, int chains, long iters,
                             uint32_t *sink, long long *cycles)
{
    uint32_t x[ARITH_CHAINS], y[ARITH_CHAINS];
    for (int c = 0; c < ARITH_CHAINS; c++) {
        x[c] = seed[(threadIdx.x + c + 1) & 31];
        y[c] = seed[(threadIdx.x + 7 * c) & 31];
    }
    long long start = clock64();
    if (chains == 1) {
        for (long k = 0; k < iters; k++) {
#pragma unroll
            for (int u = 0; u < ARITH_UNROLL; u++)
                Op::step(x[0], y[0]);
        }
    } else {
        for (long k = 0; k < iters; k++) {
#pragma unroll
            for (int u = 0; u < ARITH_UNROLL; u++)
#pragma unroll
                for (int c = 0; c < ARITH_CHAINS; c++)
                    Op::step(x[c], y[c]);
        }
    }
    long long stop = clock64();
    uint32_t acc = 0;
    for (int c = 0; c < ARITH_CHAINS; c++)
        acc ^= x[c] ^ y[c];
    if (acc == 0x9e3779b9u)           /* practically never: keeps the chains */
        *sink = acc;
    if (blockIdx.x == 0 && threadIdx.x == 0)
        *cycles = stop - start;
}

#define SHARED_WORDS 4096

/* one thread: dependent loads over a random cycle in shared memory */
__global__ void shared_chase_kernel(const uint32_t *next, long steps,
                                    long long *cycles, uint32_t *sink)
{
    __shared__ uint32_t s[SHARED_WORDS];
    for (int i = threadIdx.x; i < SHARED_WORDS; i += blockDim.x)
        s[i] = next[i];
    __syncthreads();
    if (threadIdx.x != 0)
        return;
    uint32_t idx = 0;
    long long start = clock64();
    for (long k = 0; k < steps; k++)
        idx = s[idx];
    long long stop = clock64();
    *cycles = stop - start;
    *sink = idx;
}

/* every thread reads shared memory: word (tid * stride + 32k); stride 1 is
 * conflict-free, stride s puts the 32 words of a warp's read in 32/gcd(s, 32)
 * banks, gcd(s, 32) distinct words a bank (the DMM's rule) */
__global__ void shared_stream_kernel(long iters, int stride, uint32_t *sink)
{
    __shared__ uint32_t s[SHARED_WORDS];
    for (int i = threadIdx.x; i < SHARED_WORDS; i += blockDim.x)
        s[i] = (uint32_t)i * 2654435761u;
    __syncthreads();
    volatile uint32_t *vs = s;
    const int base = (int)threadIdx.x * stride;
    uint32_t acc = 0;
    for (long k = 0; k < iters; k++) {
#pragma unroll
        for (int u = 0; u < 8; u++)
            acc += vs[(base + 32 * (u + 8 * (int)(k & 7))) & (SHARED_WORDS - 1)];
    }
    if (acc == 0x9e3779b9u)
        *sink = acc;
}

#define MAC_UNROLL 16

/* The classes mixed: each thread accumulates h = h + a*b over Z/pZ, a read
 * from shared memory at word (tid * stride + j), b the same word for every
 * thread (a broadcast), as plain multiplication's MulKer does; with
 * from_shared = 0 the operands come from registers instead (the
 * arithmetic alone, one plain addition more per product). */
__global__ void mac_kernel(long iters, int stride, int from_shared, uint32_t *sink)
{
    __shared__ uint32_t s[SHARED_WORDS];
    __shared__ uint32_t b[MAC_UNROLL * 16];
    for (int i = threadIdx.x; i < SHARED_WORDS; i += blockDim.x)
        s[i] = ((uint32_t)i * 2654435761u) % ZP_P;
    for (int i = threadIdx.x; i < MAC_UNROLL * 16; i += blockDim.x)
        b[i] = ((uint32_t)i * 40503u + 7u) % ZP_P;
    __syncthreads();
    volatile uint32_t *vs = s, *vb = b;
    const int base = (int)threadIdx.x * stride;
    uint32_t h = 0, r = threadIdx.x + 1;
    for (long k = 0; k < iters; k++) {
        const int row = MAC_UNROLL * (int)(k & 15);
        if (from_shared) {
#pragma unroll
            for (int j = 0; j < MAC_UNROLL; j++)
                h = zp_add(h, zp_mul(vs[(base + row + j) & (SHARED_WORDS - 1)], vb[row + j]));
        } else {
#pragma unroll
            for (int j = 0; j < MAC_UNROLL; j++)
                h = zp_add(h, zp_mul(r + (uint32_t)j, (uint32_t)(row + j + 3)));
            r = (r + 17u) & 0xffffu;
        }
    }
    if (h == 0x9e3779b9u)
        *sink = h;
}

/* `iters` steps of a dependent multiply-add, with a __syncthreads after
 * each when `barrier`; thread 0 of block 0 reports its cycles */
__global__ void barrier_kernel(long iters, int barrier, uint32_t *sink,
                               long long *cycles)
{
    uint32_t x = threadIdx.x + 1;
    long long start = clock64();
    for (long k = 0; k < iters; k++) {
        x = x * x + 1;
        if (barrier)
            __syncthreads();
    }
    long long stop = clock64();
    if (x == 0x9e3779b9u)
        *sink = x;
    if (blockIdx.x == 0 && threadIdx.x == 0)
        *cycles = stop - start;
}

static double median_of(double *v, int count)
{
    return timing_stats_of(v, count).median_ms;
}

static const char *g_phase = "once";

static void print_row(const char *name, double value, const char *unit,
                      const char *how)
{
    printf("%s,%.6g,%s,%s,\"%s\"\n", name, value, unit, g_phase, how);
    fflush(stdout);
}

/* elapsed ms of a stream of work enqueued by fn(arg) */
typedef void (*enqueue_fn)(void *arg);

static double time_ms(enqueue_fn fn, void *arg)
{
    cudaEvent_t start, stop;
    float ms = 0.0f;
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    CUDA_CHECK(cudaEventRecord(start, 0));
    fn(arg);
    CUDA_CHECK(cudaEventRecord(stop, 0));
    CUDA_CHECK(cudaEventSynchronize(stop));
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    CUDA_CHECK(cudaEventDestroy(start));
    CUDA_CHECK(cudaEventDestroy(stop));
    return ms;
}

/* ---- SM clock ------------------------------------------------------------ */

static long long *g_sink64;
#define SPIN_CYCLES 200000000LL

static void enqueue_spin(void *arg)
{
    (void)arg;
    spin_kernel<<<1, 1>>>(SPIN_CYCLES, g_sink64);
}

/* measured SM clock in MHz */
static double measure_clock_mhz(void)
{
    double mhz[REPEATS];
    enqueue_spin(NULL);                  /* warm-up, lets the clock ramp */
    CUDA_CHECK(cudaDeviceSynchronize());
    for (int r = 0; r < REPEATS; r++)
        mhz[r] = (double)SPIN_CYCLES / (time_ms(enqueue_spin, NULL) * 1e3);
    return median_of(mhz, REPEATS);
}

/* ---- launch latency ------------------------------------------------------ */

typedef struct {
    int launches;
    unsigned blocks;
    int alone; /* empty_alone with its shared memory: one block per SM at a time */
} launch_arg;

static int g_alone_smem; /* dynamic shared memory that leaves room for one block per SM */

static void enqueue_empty(void *arg)
{
    launch_arg *a = (launch_arg *)arg;
    for (int i = 0; i < a->launches; i++)
        if (a->alone)
            empty_alone<<<a->blocks, 32, g_alone_smem>>>();
        else
            empty_kernel<<<a->blocks, 32>>>();
}

/* microseconds per launch, back to back */
static double launch_us_of(int launches, unsigned blocks, int alone)
{
    launch_arg a = {launches, blocks, alone};
    double us[REPEATS];
    enqueue_empty(&a);
    CUDA_CHECK(cudaDeviceSynchronize());
    for (int r = 0; r < REPEATS; r++)
        us[r] = time_ms(enqueue_empty, &a) * 1e3 / launches;
    return median_of(us, REPEATS);
}

static double launch_us(int launches, unsigned blocks)
{
    return launch_us_of(launches, blocks, 0);
}

static int attribute(cudaDeviceAttr attr);

/* Ask for the most shared memory a block may have, so that an SM holds one
 * empty_alone at a time; exits if the occupancy API says otherwise. */
static void set_alone_smem(void)
{
    g_alone_smem = attribute(cudaDevAttrMaxSharedMemoryPerBlockOptin);
    CUDA_CHECK(cudaFuncSetAttribute(empty_alone, cudaFuncAttributeMaxDynamicSharedMemorySize, g_alone_smem));
    int resident;
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident, empty_alone, 32, g_alone_smem));
    if (resident != 1) {
        fprintf(stderr, "constants: %d blocks of %d bytes of shared memory fit an SM, not 1\n", resident,
                g_alone_smem);
        exit(1);
    }
}

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec * 1e-3;
}

/* microseconds for launch + cudaDeviceSynchronize, host clock */
static double roundtrip_us(void)
{
    const int iters = 2000;
    double us[REPEATS];
    for (int r = 0; r < REPEATS; r++) {
        double t0 = now_us();
        for (int i = 0; i < iters; i++) {
            empty_kernel<<<1, 32>>>();
            CUDA_CHECK(cudaDeviceSynchronize());
        }
        us[r] = (now_us() - t0) / iters;
    }
    return median_of(us, REPEATS);
}

/* One word per thread: out[i] = in[i] + 1.  A chain of these, each reading
 * what the previous one wrote, is the smallest kernel that does what every
 * case study's kernel does: wait for its predecessor, fill every SM, make
 * one global round trip, and drain. */
__global__ void touch_kernel(const uint32_t *in, uint32_t *out)
{
    const long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i] + 1;
}

/* The kernels a graph replays: empty (one block of 32 threads), or the
 * dependent chain of touch_kernel (one block of 256 threads per SM). */
typedef struct graph_kernels {
    unsigned blocks;        /* 0: empty kernels */
    uint32_t *ping, *pong;
} graph_kernels;

static void capture_kernels(const graph_kernels *k, int launches, cudaStream_t stream)
{
    for (int i = 0; i < launches; i++) {
        if (k->blocks == 0)
            empty_kernel<<<1, 32, 0, stream>>>();
        else if (i % 2 == 0)
            touch_kernel<<<k->blocks, 256, 0, stream>>>(k->ping, k->pong);
        else
            touch_kernel<<<k->blocks, 256, 0, stream>>>(k->pong, k->ping);
    }
}

/* A graph to time: `capture` enqueues its kernels on the stream being
 * captured; `after` (or NULL) runs on the host after every replay, the
 * untimed first one included. */
typedef struct graph_job {
    void (*capture)(void *ctx, cudaStream_t stream);
    void (*after)(void *ctx);
    void *ctx;
} graph_job;

/* The job's graph, captured on `stream` and instantiated. */
static cudaGraphExec_t capture_graph(const graph_job *job, cudaStream_t stream)
{
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
    job->capture(job->ctx, stream);
    CUDA_CHECK(cudaStreamEndCapture(stream, &graph));
    CUDA_CHECK(cudaGraphInstantiate(&exec, graph, 0));
    CUDA_CHECK(cudaGraphDestroy(graph));
    return exec;
}

/* Microseconds of one replay of exec between two events around cudaGraphLaunch. */
static double timed_replay_us(cudaGraphExec_t exec, cudaStream_t stream, cudaEvent_t start, cudaEvent_t stop)
{
    float ms = 0.0f;
    CUDA_CHECK(cudaEventRecord(start, stream));
    CUDA_CHECK(cudaGraphLaunch(exec, stream));
    CUDA_CHECK(cudaEventRecord(stop, stream));
    CUDA_CHECK(cudaEventSynchronize(stop));
    CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    return ms * 1e3;
}

static double *host_doubles(int count)
{
    double *v = (double *)malloc(sizeof(double) * (size_t)count);
    if (!v) {
        fprintf(stderr, "constants: out of host memory\n");
        exit(1);
    }
    return v;
}

/* The median microseconds of `replays` replays of the job's graph, each
 * between two events around cudaGraphLaunch on an idle stream, after one
 * untimed replay (the first launch of a graph uploads it). */
static double graph_replay_us(const graph_job *job, int replays)
{
    cudaStream_t stream;
    cudaEvent_t start, stop;
    double *us = host_doubles(replays);
    CUDA_CHECK(cudaStreamCreate(&stream));
    cudaGraphExec_t exec = capture_graph(job, stream);
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    for (int r = -1; r < replays; r++) {   /* r = -1: the upload */
        CUDA_CHECK(cudaStreamSynchronize(stream));
        double t = timed_replay_us(exec, stream, start, stop);
        if (r >= 0)
            us[r] = t;
        if (job->after)
            job->after(job->ctx);
    }
    CUDA_CHECK(cudaEventDestroy(start));
    CUDA_CHECK(cudaEventDestroy(stop));
    CUDA_CHECK(cudaGraphExecDestroy(exec));
    CUDA_CHECK(cudaStreamDestroy(stream));
    double median = median_of(us, replays);
    free(us);
    return median;
}

enum { GRAPH_LAUNCHES = 2000 };

static void capture_2000(void *ctx, cudaStream_t stream)
{
    capture_kernels((const graph_kernels *)ctx, GRAPH_LAUNCHES, stream);
}

/* microseconds per kernel of 2000 kernels replayed from a CUDA graph */
static double launch_graph_us(const graph_kernels *k)
{
    const graph_job job = {capture_2000, NULL, (void *)k};
    return graph_replay_us(&job, REPEATS) / GRAPH_LAUNCHES;
}

static void capture_one_empty(void *ctx, cudaStream_t stream)
{
    (void)ctx;
    empty_kernel<<<1, 32, 0, stream>>>();
}

/* Microseconds from cudaGraphLaunch to the end of a graph of ONE empty
 * kernel, between two events, the median of 201 replays: a graph's start
 * plus one kernel.  (The per-kernel figures above spread the start over
 * 2000 kernels.) */
static double graph_of_one_us(void)
{
    const graph_job job = {capture_one_empty, NULL, NULL};
    return graph_replay_us(&job, 201);
}

/* The graph of one kernel as the cases' protocol meets it (cuda_common.cuh,
 * bench_series), the median of `rounds` rounds: with fresh, each round
 * captures and instantiates the graph anew and replays it once untimed
 * (else one graph, uploaded once, as graph_replay_us); with copy, a
 * device-to-device copy of `words` words and cudaDeviceSynchronize come
 * before each replay (the protocol's restore of the inputs); the round's
 * last replay is timed between two events. */
static double graph_round_us(const graph_job *job, int fresh, int copy, uint32_t *dst, const uint32_t *src,
                             size_t words, int rounds)
{
    cudaStream_t stream;
    cudaGraphExec_t exec = NULL;
    cudaEvent_t start, stop;
    double *us = host_doubles(rounds);
    CUDA_CHECK(cudaStreamCreate(&stream));
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    for (int r = -1; r < rounds; r++) { /* r = -1: a warm-up round */
        if (fresh || r == -1) {
            exec = capture_graph(job, stream);
            if (copy)
                CUDA_CHECK(cudaMemcpyAsync(dst, src, words * sizeof *dst, cudaMemcpyDeviceToDevice, stream));
            CUDA_CHECK(cudaDeviceSynchronize());
            CUDA_CHECK(cudaGraphLaunch(exec, stream)); /* the upload, untimed */
        }
        if (copy)
            CUDA_CHECK(cudaMemcpyAsync(dst, src, words * sizeof *dst, cudaMemcpyDeviceToDevice, stream));
        CUDA_CHECK(cudaDeviceSynchronize());
        double t = timed_replay_us(exec, stream, start, stop);
        if (r >= 0)
            us[r] = t;
        if (fresh || r == rounds - 1)
            CUDA_CHECK(cudaGraphExecDestroy(exec));
    }
    CUDA_CHECK(cudaEventDestroy(start));
    CUDA_CHECK(cudaEventDestroy(stop));
    CUDA_CHECK(cudaStreamDestroy(stream));
    double median = median_of(us, rounds);
    free(us);
    return median;
}

static void capture_one_touch(void *ctx, cudaStream_t stream)
{
    capture_kernels((const graph_kernels *)ctx, 1, stream);
}

/* A graph's start as the cases' protocol meets it, taken apart: one empty
 * kernel, and one touch_kernel of a block of 256 threads per SM, each
 * steady (launch_graph_one's way), after a copy, fresh, and both (the
 * protocol); graph_start_protocol = graph_one_empty_protocol -
 * launch_graph, the start the cases' graph times carry. */
static void measure_graph_protocol(int sms, double graph_us)
{
    const size_t copy_words = 16384; /* 64 KiB, the inputs of a small point */
    uint32_t *src = dev_alloc_u32(copy_words), *dst = dev_alloc_u32(copy_words);
    CUDA_CHECK(cudaMemset(src, 0, copy_words * sizeof *src));
    graph_kernels touch = {(unsigned)sms, NULL, NULL};
    CUDA_CHECK(cudaMalloc(&touch.ping, (size_t)sms * 256 * sizeof(uint32_t)));
    CUDA_CHECK(cudaMalloc(&touch.pong, (size_t)sms * 256 * sizeof(uint32_t)));
    const graph_job jobs[2] = {{capture_one_empty, NULL, NULL}, {capture_one_touch, NULL, &touch}};
    static const char *const kernel[2] = {"empty", "touch"};
    static const char *const what[2] = {"one empty kernel (1 block of 32 threads)",
                                        "one touch_kernel (1 block of 256 threads per SM)"};
    static const char *const way[4] = {"steady", "copy", "fresh", "protocol"};
    static const char *const how[4] = {
        "one graph replayed, each replay alone (launch_graph_one's way)",
        "the same, each replay after a 64 KiB device-to-device copy and cudaDeviceSynchronize",
        "a graph captured, instantiated and replayed once untimed each round, then timed",
        "both: a fresh graph each round, the copy before each replay (cuda_common.cuh's protocol)"};
    double empty_protocol = 0;
    for (int k = 0; k < 2; k++)
        for (int w = 0; w < 4; w++) {
            double us = graph_round_us(&jobs[k], w >= 2, w % 2 == 1, dst, src, copy_words, 101);
            char name[64], text[300];
            snprintf(name, sizeof name, "graph_one_%s_%s", kernel[k], way[w]);
            snprintf(text, sizeof text, "a graph of %s, cudaGraphLaunch between two events, median of 101 "
                     "rounds: %s", what[k], how[w]);
            print_row(name, us, "us", text);
            if (k == 0 && w == 3)
                empty_protocol = us;
        }
    print_row("graph_start_protocol", empty_protocol - graph_us, "us",
              "graph_one_empty_protocol - launch_graph: a graph's start as the cases' protocol meets it");
    CUDA_CHECK(cudaFree(src));
    CUDA_CHECK(cudaFree(dst));
    CUDA_CHECK(cudaFree(touch.ping));
    CUDA_CHECK(cudaFree(touch.pong));
}

/* The dependent chain's kernel time, and a check that every kernel ran:
 * after 2000 + 2000·REPEATS + ... increments each word is a known count. */
static double launch_graph_touch_us(int sms)
{
    graph_kernels k = {(unsigned)sms, NULL, NULL};
    const size_t words = (size_t)sms * 256;
    CUDA_CHECK(cudaMalloc(&k.ping, words * sizeof(uint32_t)));
    CUDA_CHECK(cudaMalloc(&k.pong, words * sizeof(uint32_t)));
    CUDA_CHECK(cudaMemset(k.ping, 0, words * sizeof(uint32_t)));
    CUDA_CHECK(cudaMemset(k.pong, 0, words * sizeof(uint32_t)));
    double us = launch_graph_us(&k);
    uint32_t first = 0;
    CUDA_CHECK(cudaMemcpy(&first, k.ping, sizeof first, cudaMemcpyDeviceToHost));
    const uint32_t expected = GRAPH_LAUNCHES * (REPEATS + 1u);   /* one upload launch + REPEATS timed */
    if (first != expected) {
        fprintf(stderr, "constants: touch chain left %u, expected %u\n", first, expected);
        exit(1);
    }
    CUDA_CHECK(cudaFree(k.ping));
    CUDA_CHECK(cudaFree(k.pong));
    return us;
}

/* ---- the kernel boundary, decomposed ---------------------------------------
 *
 * The case studies' kernels seemed to cost more per kernel in a graph than
 * the touch chain above (1.45-2.35 us against 1.09 on the H100, mostly the
 * old protocol's: validate/notes/card-model.md).  These chains change one
 * thing at a time, and each is timed as
 * the case studies are (cuda_common.cuh, the protocol): a graph of k kernels,
 * k = 1, 2, 4, ..., 32, two events around cudaGraphLaunch after a
 * synchronisation, the median of 101 replays.  The line through the six
 * times (least squares) gives a chain's cost per kernel (slope) and once
 * per graph (intercept).  Shapes, 256 threads a block, ping-pong buffers:
 *   touch, one block per SM   out[i] = in[i] + 1  (the touch chain, short)
 *   touch, half, 16, 4        the same with one block on half the SMs, on
 *                             16 SMs, on 4 SMs
 *   touch, one block          the same with one block on the whole card
 *   pair, one block           out[t] = in[t] + in[(t + 128) % 256] + 1:
 *                             two loads, one of a word another warp wrote
 *                             (the sum's and the scans' kernels)
 *   dependent, one block      out[t] = in[in[t] % 256] + 1: a load at an
 *                             address a load gave (two dependent round
 *                             trips, as plain division's and Euclid's
 *                             one-step kernels make)
 *   shift1, shift32, one block  in[t], and where t >= D in[t - D], D = 1
 *                             and 32: prefix-naive's step (its second
 *                             load in a guarded block, issued beside the
 *                             first)
 *   guarded, stored, one block  in[t], and where t < 128 in[t + 128];
 *                             stored writes in[t] + 1 first, so that its
 *                             second load comes after a store that waits
 *                             for the first (prefix-optimal's copy_add)
 *   reduce, one block         a word a thread, a tree sum in shared memory
 *                             with a barrier after each of its 8 levels,
 *                             out[t] = in[t] + sum + 1 (read, reduce with
 *                             barriers, write)
 * and, one block per SM, what a kernel written once (mcm_kernel_cuda.cuh)
 * has that the touch kernel has not, one thing at a time:
 *   args                      the touch kernel with its two arrays inside
 *                             one argument of 96 bytes passed by value, as
 *                             a kernel written once takes its arrays (gmem
 *                             structs) and its step count
 *   shared                    the touch kernel launched with 1 KiB of
 *                             dynamic shared memory it does not use (the
 *                             launches of user-matvec and user-jacobi ask
 *                             for some)
 *   code                      x after CHAIN_CODE_STEPS steps x = x*x + j
 *                             from x = in[i] + 1, unrolled: 16
 *                             KiB of straight-line code, each instruction
 *                             run once a kernel (its first kernel finds the
 *                             code in no instruction cache)
 *   loop                      the same steps in a loop of a few
 *                             instructions (#pragma unroll 1): the same
 *                             work from a few cache lines of code
 *   horner                    Horner's rule at x = in[i], degree
 *                             CHAIN_HORNER_DEGREE, every thread reading the
 *                             same coefficient in[j] at each step
 *                             (user-horner's kernel, its loop as nvcc
 *                             builds it: the L1's latency on a dependent
 *                             chain, each SM's first read of the
 *                             coefficients from the L2)
 * (the last three write in[i] + 1 beside their value, hidden: below),
 * and
 *   alternate                 the touch kernel on a block per SM and on
 *                             one block in turn (the first kernel on every
 *                             SM): a boundary that cost what the kernel
 *                             launched spans, or what the one before it
 *                             spanned, gives the mean of the touch_card and
 *                             touch_block slopes; one that cost the wider of
 *                             the two, touch_card's (the case studies'
 *                             grids shrink and grow from kernel to kernel)
 * Against the touch chain of the same grid: the slope is what the thing
 * adds to every kernel, chain_X_1 less the line at one kernel what it adds
 * to a graph's first.
 * Each chain's result is checked against the same steps on the host. */

enum chain_shape { CHAIN_TOUCH, CHAIN_PAIR, CHAIN_DEPENDENT, CHAIN_REDUCE, CHAIN_ARGS, CHAIN_SHARED, CHAIN_CODE,
                   CHAIN_LOOP, CHAIN_HORNER, CHAIN_ALTERNATE, CHAIN_PARAM, CHAIN_PARAM_DENSE, CHAIN_PARAM_64,
                   CHAIN_CONST, CHAIN_PARAM_LDC, CHAIN_SHIFT1, CHAIN_SHIFT32, CHAIN_GUARDED, CHAIN_STORED, CHAIN_TOUCH128,
                   CHAIN_SPIN128, CHAIN_TWIN, CHAIN_TWIN128, CHAIN_REDUCE2, CHAIN_REDUCE4 };

#define CHAIN_CODE_STEPS 1024
#define CHAIN_HORNER_DEGREE 32
#define CHAIN_SHARED_BYTES 1024

/* touch_kernel's code under another name: the twin chains launch the two
 * in turn, a graph of two kernel functions (the cases' graphs have several) */
__global__ void touch_twin_kernel(const uint32_t *in, uint32_t *out)
{
    const long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i] + 1;
}

__global__ void pair_kernel(const uint32_t *in, uint32_t *out)
{
    const int t = threadIdx.x;
    out[t] = in[t] + in[(t + 128) & 255] + 1u;
}

__global__ void dependent_kernel(const uint32_t *in, uint32_t *out)
{
    const int t = threadIdx.x;
    out[t] = in[in[t] & 255] + 1u;
}

/* Guarded reads, one block (the guarded reads' chains, below): prefix-naive's
 * step, in[t] and, where t >= D, in[t - D] (D = 1: a warp's second load
 * straddles its own line and the line of the warp before; D = 32: the warp
 * before's line, whole) */
template <int D>
__global__ void shift_kernel(const uint32_t *in, uint32_t *out)
{
    const int t = threadIdx.x;
    uint32_t x = in[t];
    if (t >= D)
        x += in[t - D];
    out[t] = x + 1u;
}

/* the same with the second read at t + 128 where t < 128 (guarded), and,
 * stored, with in[t] + 1 stored first: the second load comes after a store
 * that waits for the first (nvcc keeps a load after a store that may be
 * the same word: prefix-optimal's copy_add) */
__global__ void guarded_kernel(const uint32_t *in, uint32_t *out)
{
    const int t = threadIdx.x;
    uint32_t x = in[t];
    if (t < 128)
        x += in[t + 128];
    out[t] = x + 1u;
}

__global__ void stored_kernel(const uint32_t *in, uint32_t *out)
{
    const int t = threadIdx.x;
    const uint32_t x = in[t];
    out[t] = x + 1u;
    if (t < 128)
        out[t] = x + 1u + in[t + 128];
}

/* LEVELS levels (8: the reduce chain; 2 and 4: its level's slope, a
 * probe): s[0] the sum of the first 2^LEVELS words */
template <int LEVELS>
__global__ void reduce_kernel(const uint32_t *in, uint32_t *out)
{
    __shared__ uint32_t s[256];
    const int t = threadIdx.x;
    const uint32_t v = in[t];
    s[t] = v;
    __syncthreads();
    for (int stride = 1 << (LEVELS - 1); stride > 0; stride >>= 1) {
        if (t < stride)
            s[t] += s[t + stride];
        __syncthreads();
    }
    out[t] = v + s[0] + 1u;
}

/* the touch kernel's two arrays as a kernel written once gets them: inside
 * one argument passed by value (96 bytes), beside a step count */
typedef struct touch_args {
    const uint32_t *in;
    long in_size;
    int in_id;
    uint32_t *out;
    long out_size;
    int out_id;
    long spare[6];
} touch_args;

__global__ void args_kernel(touch_args a, int steps)
{
    (void)steps;
    const long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    a.out[i] = a.in[i] + 1u;
}

/* The code, loop and horner kernels compute their value in full, but
 * write in[i] + 1 + (value & hide), hide = 0 at run time: the compiler
 * cannot drop the work, and the host follows each step as a touch. */
__global__ void code_kernel(const uint32_t *in, uint32_t *out, uint32_t hide)
{
    const long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    uint32_t x = in[i] + 1u;
#pragma unroll
    for (uint32_t j = 0; j < CHAIN_CODE_STEPS; j++)
        x = x * x + j;
    out[i] = in[i] + 1u + (x & hide);
}

__global__ void loop_kernel(const uint32_t *in, uint32_t *out, uint32_t hide)
{
    const long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    uint32_t x = in[i] + 1u;
#pragma unroll 1
    for (uint32_t j = 0; j < CHAIN_CODE_STEPS; j++)
        x = x * x + j;
    out[i] = in[i] + 1u + (x & hide);
}

__global__ void horner_kernel(const uint32_t *in, uint32_t *out, int degree, uint32_t hide)
{
    const long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    uint32_t x = in[i], acc = 0;
    for (int j = degree; j >= 0; j--)
        acc = acc * x + in[j];
    out[i] = x + 1u + (acc & hide);
}

/* The touch kernel in blocks of 128 threads whose every thread holds its
 * SM `cycles` SM cycles (clock64) between its read and its write: a block
 * of a set length at Stockham's grids (the spin chains, below).  With
 * `stamps`, thread 0 records %globaltimer (ns, one clock for every SM) at
 * the block's start and, after a barrier, at its end, and the block's SM. */
__device__ __forceinline__ unsigned long long global_ns(void)
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

__global__ void spin_touch_kernel(const uint32_t *in, uint32_t *out, long long cycles,
                                  unsigned long long *stamps)
{
    const unsigned long long begin = stamps && threadIdx.x == 0 ? global_ns() : 0;
    const long long start = clock64();
    const long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    const uint32_t x = in[i];
    while (clock64() - start < cycles) {
    }
    out[i] = x + 1;
    if (stamps) {
        __syncthreads();
        if (threadIdx.x == 0) {
            unsigned sm;
            asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
            stamps[3 * blockIdx.x] = begin;
            stamps[3 * blockIdx.x + 1] = global_ns();
            stamps[3 * blockIdx.x + 2] = sm;
        }
    }
}

/* the smallest step of %globaltimer one thread sees (ns): the timelines'
 * resolution */
__global__ void global_ns_step_kernel(unsigned long long *step)
{
    unsigned long long least = ~0ull, t = global_ns();
    for (int k = 0; k < 64; k++) {
        unsigned long long u = global_ns();
        while (u == t)
            u = global_ns();
        least = u - t < least ? u - t : least;
        t = u;
    }
    *step = least;
}

typedef struct chain {
    const char *name;
    enum chain_shape shape;
    unsigned blocks;
    uint32_t *ping, *pong;     /* device, blocks * 256 words each */
    uint32_t *h_ping, *h_pong; /* the host's copy of the same steps */
    int words;                 /* param, param_dense, const: constant words read (below) */
    long long spin_cycles;     /* spin128: the cycles each block holds its SM between its read and its write */
} chain;

static void constant_launch(const chain *c, const uint32_t *in, uint32_t *out, cudaStream_t stream);

static void chain_launch(const chain *c, int step, cudaStream_t stream)
{
    const uint32_t *in = step % 2 == 0 ? c->ping : c->pong;
    uint32_t *out = step % 2 == 0 ? c->pong : c->ping;
    if (c->shape == CHAIN_TOUCH)
        touch_kernel<<<c->blocks, 256, 0, stream>>>(in, out);
    else if (c->shape == CHAIN_ALTERNATE)
        touch_kernel<<<step % 2 == 0 ? c->blocks : 1, 256, 0, stream>>>(in, out);
    else if (c->shape == CHAIN_TOUCH128) /* the same words in blocks of 128 threads, twice as many */
        touch_kernel<<<2 * c->blocks, 128, 0, stream>>>(in, out);
    else if (c->shape == CHAIN_TWIN) /* touch_kernel and its twin in turn */
        (step % 2 ? touch_twin_kernel : touch_kernel)<<<c->blocks, 256, 0, stream>>>(in, out);
    else if (c->shape == CHAIN_TWIN128)
        (step % 2 ? touch_twin_kernel : touch_kernel)<<<2 * c->blocks, 128, 0, stream>>>(in, out);
    else if (c->shape == CHAIN_SPIN128)
        spin_touch_kernel<<<2 * c->blocks, 128, 0, stream>>>(in, out, c->spin_cycles, NULL);
    else if (c->shape == CHAIN_PAIR)
        pair_kernel<<<c->blocks, 256, 0, stream>>>(in, out);
    else if (c->shape == CHAIN_DEPENDENT)
        dependent_kernel<<<c->blocks, 256, 0, stream>>>(in, out);
    else if (c->shape == CHAIN_SHIFT1)
        shift_kernel<1><<<c->blocks, 256, 0, stream>>>(in, out);
    else if (c->shape == CHAIN_SHIFT32)
        shift_kernel<32><<<c->blocks, 256, 0, stream>>>(in, out);
    else if (c->shape == CHAIN_GUARDED)
        guarded_kernel<<<c->blocks, 256, 0, stream>>>(in, out);
    else if (c->shape == CHAIN_STORED)
        stored_kernel<<<c->blocks, 256, 0, stream>>>(in, out);
    else if (c->shape == CHAIN_REDUCE)
        reduce_kernel<8><<<c->blocks, 256, 0, stream>>>(in, out);
    else if (c->shape == CHAIN_REDUCE2)
        reduce_kernel<2><<<c->blocks, 256, 0, stream>>>(in, out);
    else if (c->shape == CHAIN_REDUCE4)
        reduce_kernel<4><<<c->blocks, 256, 0, stream>>>(in, out);
    else if (c->shape == CHAIN_ARGS) {
        const long words = (long)c->blocks * 256;
        touch_args a = {in, words, 1, out, words, 2, {0, 0, 0, 0, 0, 0}};
        args_kernel<<<c->blocks, 256, 0, stream>>>(a, 1);
    } else if (c->shape == CHAIN_SHARED)
        touch_kernel<<<c->blocks, 256, CHAIN_SHARED_BYTES, stream>>>(in, out);
    else if (c->shape == CHAIN_CODE)
        code_kernel<<<c->blocks, 256, 0, stream>>>(in, out, 0u);
    else if (c->shape == CHAIN_LOOP)
        loop_kernel<<<c->blocks, 256, 0, stream>>>(in, out, 0u);
    else if (c->shape == CHAIN_HORNER)
        horner_kernel<<<c->blocks, 256, 0, stream>>>(in, out, CHAIN_HORNER_DEGREE, 0u);
    else
        constant_launch(c, in, out, stream);
}

/* word i of a step's output on the host, from its input (`sum`: the
 * reduce chain's sum of the input) */
static uint32_t chain_word_on_host(enum chain_shape shape, const uint32_t *in, size_t i, uint32_t sum)
{
    switch (shape) {
    case CHAIN_PAIR: return in[i] + in[(i + 128) & 255] + 1u;
    case CHAIN_DEPENDENT: return in[in[i] & 255] + 1u;
    case CHAIN_SHIFT1: return in[i] + (i >= 1 ? in[i - 1] : 0u) + 1u;
    case CHAIN_SHIFT32: return in[i] + (i >= 32 ? in[i - 32] : 0u) + 1u;
    case CHAIN_GUARDED:
    case CHAIN_STORED: return in[i] + (i < 128 ? in[i + 128] : 0u) + 1u;
    case CHAIN_REDUCE:
    case CHAIN_REDUCE2:
    case CHAIN_REDUCE4: return in[i] + sum + 1u;
    default: return in[i] + 1u; /* touch, args, shared; code, loop and horner hide their value */
    }
}

/* the host's version of step `step` of the chain */
static void chain_step_on_host(const chain *c, int step)
{
    const size_t words = c->shape == CHAIN_ALTERNATE && step % 2 == 1 ? 256 : (size_t)c->blocks * 256;
    const uint32_t *in = step % 2 == 0 ? c->h_ping : c->h_pong;
    uint32_t *out = step % 2 == 0 ? c->h_pong : c->h_ping;
    uint32_t sum = 0;
    const size_t summed = c->shape == CHAIN_REDUCE    ? 256
                          : c->shape == CHAIN_REDUCE2 ? 4
                          : c->shape == CHAIN_REDUCE4 ? 16
                                                      : 0; /* 2^levels words (reduce_kernel) */
    for (size_t i = 0; i < words && i < summed; i++)
        sum += in[i];
    for (size_t i = 0; i < words; i++)
        out[i] = chain_word_on_host(c->shape, in, i, sum);
}

/* a graph of k kernels of the chain, the host following each replay */
typedef struct chain_graph {
    const chain *c;
    int k;
} chain_graph;

static void capture_chain(void *ctx, cudaStream_t stream)
{
    const chain_graph *g = (const chain_graph *)ctx;
    for (int j = 0; j < g->k; j++)
        chain_launch(g->c, j, stream);
}

static void chain_steps_on_host(void *ctx)
{
    const chain_graph *g = (const chain_graph *)ctx;
    for (int j = 0; j < g->k; j++)
        chain_step_on_host(g->c, j);
}

/* microseconds of one replay of a graph of k kernels of the chain (the
 * median of `replays`); the host follows every step, and the device's
 * buffers must agree with it at the end (chain_check) */
static double chain_graph_us(const chain *c, int k, int replays)
{
    chain_graph g = {c, k};
    const graph_job job = {capture_chain, chain_steps_on_host, &g};
    return graph_replay_us(&job, replays);
}

static void chain_check(const chain *c)
{
    const size_t words = (size_t)c->blocks * 256;
    uint32_t *got = (uint32_t *)malloc(words * sizeof *got);
    if (!got) {
        fprintf(stderr, "constants: out of host memory\n");
        exit(1);
    }
    for (int half = 0; half < 2; half++) {
        CUDA_CHECK(cudaMemcpy(got, half ? c->pong : c->ping, words * sizeof *got,
                              cudaMemcpyDeviceToHost));
        if (memcmp(got, half ? c->h_pong : c->h_ping, words * sizeof *got) != 0) {
            fprintf(stderr, "constants: the %s chain's words differ from the host's\n", c->name);
            exit(1);
        }
    }
    free(got);
}

/* A chain of `blocks` blocks of 256 threads' words (as `shape` takes
 * them), its ping and pong drawn from rng and on the device; chain_close
 * frees it. */
static void chain_open(chain *c, const char *name, enum chain_shape shape, unsigned blocks, int constant_words,
                       long long spin_cycles, rng_t *rng)
{
    const size_t words = (size_t)blocks * 256;
    chain o = {name, shape, blocks, dev_alloc_u32(words), dev_alloc_u32(words), host_alloc_u32(words),
               host_alloc_u32(words), constant_words, spin_cycles};
    for (size_t i = 0; i < words; i++) {
        o.h_ping[i] = rng_u32(rng);
        o.h_pong[i] = rng_u32(rng);
    }
    to_device(o.ping, o.h_ping, words);
    to_device(o.pong, o.h_pong, words);
    *c = o;
}

static void chain_close(chain *c)
{
    CUDA_CHECK(cudaFree(c->ping));
    CUDA_CHECK(cudaFree(c->pong));
    free(c->h_ping);
    free(c->h_pong);
}

/* times graphs of 1..32 kernels of one chain; prints each time and the
 * line's slope and intercept */
static double g_last_chain_slope; /* us: the slope of the chain measured last */

static void measure_chain_spun(const char *prefix, const char *name, enum chain_shape shape, unsigned blocks,
                               int constant_words, long long spin_cycles, rng_t *rng)
{
    enum { LENGTHS = 6, REPLAYS = 101 };
    chain c;
    chain_open(&c, name, shape, blocks, constant_words, spin_cycles, rng);
    const int halves = shape == CHAIN_TOUCH128 || shape == CHAIN_SPIN128; /* blocks of 128 threads */
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (int e = 0; e < LENGTHS; e++) {
        const int k = 1 << e;
        double us = chain_graph_us(&c, k, REPLAYS);
        char row[64], how[200];
        snprintf(row, sizeof row, "%s%s_%d", prefix, name, k);
        snprintf(how, sizeof how, "a graph of %d kernels of the %s chain (%u block%s of %d threads%s), "
                 "median of %d replays", k, name, halves ? 2 * blocks : blocks,
                 blocks > 1 || halves ? "s" : "", halves ? 128 : 256,
                 shape == CHAIN_ALTERNATE ? " and 1 block in turn" : "", REPLAYS);
        print_row(row, us, "us", how);
        sx += k; sy += us; sxx += (double)k * k; sxy += k * us;
    }
    const double slope = (LENGTHS * sxy - sx * sy) / (LENGTHS * sxx - sx * sx);
    const double intercept = (sy - slope * sx) / LENGTHS;
    char row[64];
    g_last_chain_slope = slope;
    snprintf(row, sizeof row, "%s%s_per_kernel", prefix, name);
    print_row(row, slope, "us", "slope of the line through the graphs of 1..32 kernels above");
    snprintf(row, sizeof row, "%s%s_per_graph", prefix, name);
    print_row(row, intercept, "us", "intercept of the same line: once per graph");
    chain_check(&c);
    chain_close(&c);
}

static void measure_chain_of(const char *prefix, const char *name, enum chain_shape shape, unsigned blocks,
                             int constant_words, rng_t *rng)
{
    measure_chain_spun(prefix, name, shape, blocks, constant_words, 0, rng);
}

static void measure_chain(const char *name, enum chain_shape shape, unsigned blocks, rng_t *rng)
{
    measure_chain_of("chain_", name, shape, blocks, 0, rng);
}

/* The reduce chain at 2, 4 and 8 levels in one process, with the touch
 * block: the slope over levels is a level's cost alone (card-model.md,
 * session 48: a barrier step's index arithmetic off its path; a probe). */
static void measure_reduce_levels(rng_t *rng)
{
    measure_chain("touch_block", CHAIN_TOUCH, 1, rng);
    measure_chain("reduce2_block", CHAIN_REDUCE2, 1, rng);
    measure_chain("reduce4_block", CHAIN_REDUCE4, 1, rng);
    measure_chain("reduce_block", CHAIN_REDUCE, 1, rng);
}

/* The guarded reads' chains (instruction-stream.md, session 42): against
 * touch_block and pair_block of the same run, what a second read in a
 * guarded block costs a kernel, issued beside the first (shift1, shift32,
 * guarded) or after a store that waits for the first (stored: about one
 * more L2 round trip if the warp waits for the first load before it
 * issues the second, about 0 if not). */
static void measure_guarded_reads(rng_t *rng)
{
    measure_chain("touch_block", CHAIN_TOUCH, 1, rng);
    measure_chain("pair_block", CHAIN_PAIR, 1, rng);
    measure_chain("shift1_block", CHAIN_SHIFT1, 1, rng);
    measure_chain("shift32_block", CHAIN_SHIFT32, 1, rng);
    measure_chain("guarded_block", CHAIN_GUARDED, 1, rng);
    measure_chain("stored_block", CHAIN_STORED, 1, rng);
}

/* The kernel boundary by the kernel's width (card-model.md, "Session 42:
 * the H200's small kernels"): the touch chain at 1..132 blocks, one run.
 * On the H200 the chains of 4 and 16 blocks lie ~200 cycles a kernel above
 * the line from touch_block to touch_card (the H100's ~20..80); these rows
 * say where the step is (2 blocks: a second SM; 3..8: a second TPC or GPC)
 * and its shape across the widths the cases' small kernels have; 64..128
 * blocks, two blocks an SM (touch_card2) and Stockham's grids of 128-thread
 * blocks (touch128_W, W blocks of 128 threads over the words of W/2 of 256): whether the boundary grows
 * with the SMs a grid spans up to the whole card or saturates (Stockham's
 * kernels span 64, 128 and 132 SMs, instruction-stream.md, "Session 44:
 * Stockham's kernel boundary").  Used by nothing until measured. */
static void measure_block_counts(int sms, rng_t *rng)
{
    static const unsigned widths[] = {1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128};
    for (size_t i = 0; i < sizeof widths / sizeof widths[0]; i++) {
        char name[32];
        snprintf(name, sizeof name, "touch_%u", widths[i]);
        measure_chain_of("blocks_", name, CHAIN_TOUCH, widths[i], 0, rng);
    }
    measure_chain_of("blocks_", "touch_half", CHAIN_TOUCH, (unsigned)sms / 2, 0, rng);
    measure_chain_of("blocks_", "touch_card", CHAIN_TOUCH, (unsigned)sms, 0, rng);
    measure_chain_of("blocks_", "touch_card2", CHAIN_TOUCH, 2 * (unsigned)sms, 0, rng);
    static const unsigned widths128[] = {2, 64, 128, 256}; /* Stockham's grids of 128 threads */
    for (size_t i = 0; i < sizeof widths128 / sizeof widths128[0]; i++) {
        char name[32];
        snprintf(name, sizeof name, "touch128_%u", widths128[i]);
        measure_chain_of("blocks_", name, CHAIN_TOUCH128, widths128[i] / 2, 0, rng);
    }
    measure_chain_of("blocks_", "touch_1_again", CHAIN_TOUCH, 1, 0, rng);
}

/* The spin chains (instruction-stream.md, "Session 45: Stockham's kernel
 * boundaries"): the touch chain at Stockham's grids (2, 64, 128, 256 blocks
 * of 128 threads) whose blocks hold their SM a set time between read and
 * write (0 .. 4 us, in cycles of the clock measured here).  Stockham's
 * kernels pay about half of what a touch kernel of their grid pays above
 * one block; if the width's part overlaps a block's own time, the excess
 * of W blocks over 2 shrinks as the blocks grow; if it is a delay before
 * the grid (the model's graph_launch_per_sm), it does not move.
 * The timelines say where the time goes: each block's start and end by
 * %globaltimer in a graph of SPIN_KERNELS kernels, per kernel after the
 * first (medians over the kernels and replays, ns): ramp (last block's
 * start less the first's), gap (the first start less the previous
 * kernel's last end), period (first start to the next first start), block
 * (a block's own length), tail (last end less the first end).  The first
 * kernels' stamps of the last replay go to stderr (W S kernel block sm
 * start end, ns from the kernel's first start). */
enum { SPIN_KERNELS = 16, SPIN_REPLAYS = 31, SPIN_DUMPED = 4 };

static double spin_kernel_stat(const unsigned long long *st, const unsigned long long *prev, int blocks,
                               int which, double *scratch)
{
    unsigned long long first = ~0ull, last = 0, first_end = ~0ull, last_end = 0, prev_end = 0;
    for (int b = 0; b < blocks; b++) {
        const unsigned long long s0 = st[3 * b], e0 = st[3 * b + 1];
        first = s0 < first ? s0 : first;
        last = s0 > last ? s0 : last;
        first_end = e0 < first_end ? e0 : first_end;
        last_end = e0 > last_end ? e0 : last_end;
        scratch[b] = (double)(e0 - s0);
        prev_end = prev[3 * b + 1] > prev_end ? prev[3 * b + 1] : prev_end;
    }
    unsigned long long prev_first = ~0ull;
    for (int b = 0; b < blocks; b++)
        prev_first = prev[3 * b] < prev_first ? prev[3 * b] : prev_first;
    switch (which) {
    case 0: return (double)(last - first);
    case 1: return (double)first - (double)prev_end;
    case 2: return (double)(first - prev_first);
    case 3: return median_of(scratch, blocks);
    default: return (double)(last_end - first_end);
    }
}

typedef struct spin_timeline {
    const chain *c;
    unsigned long long *stamps; /* device: SPIN_KERNELS x blocks x 3 */
} spin_timeline;

static void capture_spin_timeline(void *ctx, cudaStream_t stream)
{
    const spin_timeline *t = (const spin_timeline *)ctx;
    const unsigned blocks = 2 * t->c->blocks;
    for (int j = 0; j < SPIN_KERNELS; j++)
        spin_touch_kernel<<<blocks, 128, 0, stream>>>(j % 2 == 0 ? t->c->ping : t->c->pong,
                                                      j % 2 == 0 ? t->c->pong : t->c->ping, t->c->spin_cycles,
                                                      t->stamps + (size_t)j * blocks * 3);
}

static void measure_spin_timeline(unsigned blocks, int spin_ns, long long cycles)
{
    static const char *const stats[] = {"ramp", "gap", "period", "block", "tail"};
    enum { STATS = 5 };
    const size_t words = (size_t)blocks * 128, per_graph = (size_t)SPIN_KERNELS * blocks * 3;
    chain c = {"spin", CHAIN_SPIN128, blocks / 2, dev_alloc_u32(words), dev_alloc_u32(words), NULL, NULL, 0, cycles};
    unsigned long long *d_stamps, *h = (unsigned long long *)malloc(per_graph * sizeof *h);
    if (!h) {
        fprintf(stderr, "constants: out of host memory\n");
        exit(1);
    }
    double *v[STATS], *scratch = host_doubles((int)blocks);
    const int n = SPIN_REPLAYS * (SPIN_KERNELS - 1);
    for (int s = 0; s < STATS; s++)
        v[s] = host_doubles(n);
    CUDA_CHECK(cudaMalloc(&d_stamps, per_graph * sizeof *h));
    spin_timeline t = {&c, d_stamps};
    const graph_job job = {capture_spin_timeline, NULL, &t};
    cudaStream_t stream;
    cudaEvent_t e0, e1;
    CUDA_CHECK(cudaStreamCreate(&stream));
    CUDA_CHECK(cudaEventCreate(&e0));
    CUDA_CHECK(cudaEventCreate(&e1));
    cudaGraphExec_t exec = capture_graph(&job, stream);
    for (int r = -1; r < SPIN_REPLAYS; r++) { /* r = -1: the upload */
        timed_replay_us(exec, stream, e0, e1);
        if (r < 0)
            continue;
        CUDA_CHECK(cudaMemcpy(h, d_stamps, per_graph * sizeof *h, cudaMemcpyDeviceToHost));
        for (int j = 1; j < SPIN_KERNELS; j++)
            for (int s = 0; s < STATS; s++)
                v[s][r * (SPIN_KERNELS - 1) + j - 1] =
                    spin_kernel_stat(h + (size_t)j * blocks * 3, h + (size_t)(j - 1) * blocks * 3, (int)blocks, s,
                                     scratch);
    }
    for (int j = 0; j < SPIN_DUMPED; j++) {
        const unsigned long long *st = h + (size_t)j * blocks * 3;
        unsigned long long first = ~0ull;
        for (unsigned b = 0; b < blocks; b++)
            first = st[3 * b] < first ? st[3 * b] : first;
        for (unsigned b = 0; b < blocks; b++)
            fprintf(stderr, "%u %d %d %u %llu %lld %lld\n", blocks, spin_ns, j, b, st[3 * b + 2],
                    (long long)(st[3 * b] - first), (long long)(st[3 * b + 1] - first));
    }
    for (int s = 0; s < STATS; s++) {
        char row[64], how[240];
        snprintf(row, sizeof row, "spin_timeline_%u_%dns_%s", blocks, spin_ns, stats[s]);
        snprintf(how, sizeof how, "graph of %d kernels of %u blocks of 128 threads spinning %lld cycles: %s, "
                 "%%globaltimer, median over kernels 2..%d of %d replays", SPIN_KERNELS, blocks, cycles, stats[s],
                 SPIN_KERNELS, SPIN_REPLAYS);
        print_row(row, median_of(v[s], n), "ns", how);
        free(v[s]);
    }
    CUDA_CHECK(cudaGraphExecDestroy(exec));
    CUDA_CHECK(cudaEventDestroy(e0));
    CUDA_CHECK(cudaEventDestroy(e1));
    CUDA_CHECK(cudaStreamDestroy(stream));
    CUDA_CHECK(cudaFree(d_stamps));
    CUDA_CHECK(cudaFree(c.ping));
    CUDA_CHECK(cudaFree(c.pong));
    free(h);
    free(scratch);
}

static void measure_spin_chains(double mhz, rng_t *rng)
{
    static const unsigned widths[] = {2, 64, 128, 256};       /* Stockham's grids, blocks of 128 threads */
    static const int spins[] = {0, 250, 500, 1000, 2000, 4000}; /* ns a block holds its SM */
    static const int timed[] = {0, 500, 2000};
    const size_t W = sizeof widths / sizeof widths[0];
    unsigned long long *d_step, step = 0;
    CUDA_CHECK(cudaMalloc(&d_step, sizeof step));
    global_ns_step_kernel<<<1, 1>>>(d_step);
    CUDA_CHECK(cudaMemcpy(&step, d_step, sizeof step, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(d_step));
    print_row("spin_globaltimer_step", (double)step, "ns", "the least step of %globaltimer in 64 steps one thread sees");
    measure_chain_of("spin_", "touch_1", CHAIN_TOUCH, 1, 0, rng);
    for (size_t s = 0; s < sizeof spins / sizeof spins[0]; s++)
        for (size_t w = 0; w < W; w++) {
            char name[48];
            snprintf(name, sizeof name, "%u_%dns", widths[w], spins[s]);
            measure_chain_spun("spin_", name, CHAIN_SPIN128, widths[w] / 2, 0,
                               (long long)(spins[s] * 1e-3 * mhz + 0.5), rng);
        }
    for (size_t s = 0; s < sizeof timed / sizeof timed[0]; s++)
        for (size_t w = 0; w < W; w++)
            measure_spin_timeline(widths[w], timed[s], (long long)(timed[s] * 1e-3 * mhz + 0.5));
    measure_chain_of("spin_", "touch_1_again", CHAIN_TOUCH, 1, 0, rng);
}

static void measure_kernel_boundary(int sms, rng_t *rng)
{
    measure_chain("touch_card", CHAIN_TOUCH, (unsigned)sms, rng);
    measure_chain("touch_half", CHAIN_TOUCH, (unsigned)sms / 2, rng);
    measure_chain("touch_16", CHAIN_TOUCH, 16, rng);
    measure_chain("touch_4", CHAIN_TOUCH, 4, rng);
    measure_chain("touch_block", CHAIN_TOUCH, 1, rng);
    measure_chain("pair_block", CHAIN_PAIR, 1, rng);
    measure_chain("dependent_block", CHAIN_DEPENDENT, 1, rng);
    measure_chain("shift1_block", CHAIN_SHIFT1, 1, rng);
    measure_chain("shift32_block", CHAIN_SHIFT32, 1, rng);
    measure_chain("guarded_block", CHAIN_GUARDED, 1, rng);
    measure_chain("stored_block", CHAIN_STORED, 1, rng);
    measure_chain("reduce_block", CHAIN_REDUCE, 1, rng);
    measure_chain("args_card", CHAIN_ARGS, (unsigned)sms, rng);
    measure_chain("shared_card", CHAIN_SHARED, (unsigned)sms, rng);
    measure_chain("code_card", CHAIN_CODE, (unsigned)sms, rng);
    measure_chain("loop_card", CHAIN_LOOP, (unsigned)sms, rng);
    measure_chain("horner_card", CHAIN_HORNER, (unsigned)sms, rng);
    measure_chain("alternate_card", CHAIN_ALTERNATE, (unsigned)sms, rng);
}

/* ---- the width timed as the cases are ---------------------------------------
 *
 * (instruction-stream.md, "Session 45: the width timed as the cases are".)
 * The width term (graph_launch_per_sm) comes from chain_touch_card, whose
 * excess over one block drifts between processes and sessions while the
 * cases' times stay flat.  Here the same touch chains, graphs of
 * PROTOCOL_SHORT and PROTOCOL_LONG kernels (Stockham 2^15: 46 launches),
 * are timed in one process three ways, PROTOCOL_REPS times, interleaved
 * (the order of the ways turns round every repetition):
 *   replay  constants.cu's chains (chain_graph_us): one graph, replayed
 *           101 times after an upload, the host following each replay,
 *           the median;
 *   bare    the same with no host step between replays (the host steps
 *           are done afterwards, for the check);
 *   cases   the cases' protocol itself (cuda_common.cuh, bench_series on
 *           g_stream: the card warmed, --warmup 3 stream runs per point,
 *           then 25 rounds round robin over the points, each an untimed
 *           and a timed stream run, a fresh capture, an untimed upload, a
 *           timed replay; every run after the point's reset (the inputs
 *           copied back, cudaDeviceSynchronize)); graph_median_ms, the
 *           statistic the cases' CSV gives and validate reads.
 * Chains: touch_1 (1 block of 256 threads), touch128_2 (2 of 128),
 * touch128_128 (128 of 128: Stockham's 2^15 grid), touch_card (a block of
 * 256 on every SM).  Per chain and way, per_kernel = (T(long) - T(short)) /
 * (long - short); the width = per_kernel less touch_1's of the same way and
 * repetition; the width rows without _r are medians over the
 * repetitions (validate/card.c reads the kernel boundary from the bare
 * way's touch_1 and touch_card per_kernel_rK, every repetition a reading,
 * where a session has them).  Each
 * result is checked against the host's steps. */
enum { PROTOCOL_SHORT = 5, PROTOCOL_LONG = 45, PROTOCOL_CHAINS = 4, PROTOCOL_WAYS = 3, PROTOCOL_MAX_REPS = 8 };

typedef struct protocol_point {
    chain c;                   /* its own buffers */
    int k;                     /* kernels a run */
    uint32_t *ping0, *pong0;   /* device: the inputs a reset restores */
    uint32_t *h_ping0, *h_pong0;
    double graph_median_us;    /* bench_series' result */
} protocol_point;

/* the cases' reset: the point's inputs copied back (bench_reset synchronises) */
static void protocol_reset(void *ctx)
{
    const protocol_point *p = (const protocol_point *)ctx;
    const size_t words = (size_t)p->c.blocks * 256;
    dev_copy(p->c.ping, p->ping0, words);
    dev_copy(p->c.pong, p->pong0, words);
}

/* one run of the point: its k kernels enqueued on g_stream */
static void protocol_run(void *ctx)
{
    const protocol_point *p = (const protocol_point *)ctx;
    for (int j = 0; j < p->k; j++)
        chain_launch(&p->c, j, g_stream);
    g_launches += p->k;
}

/* the last run (a replay from the reset inputs) against the host's k steps */
static int protocol_finish(void *ctx, const bench_result *r)
{
    protocol_point *p = (protocol_point *)ctx;
    const size_t words = (size_t)p->c.blocks * 256;
    memcpy(p->c.h_ping, p->h_ping0, words * sizeof(uint32_t));
    memcpy(p->c.h_pong, p->h_pong0, words * sizeof(uint32_t));
    chain_graph g = {&p->c, p->k};
    chain_steps_on_host(&g);
    chain_check(&p->c);
    p->graph_median_us = r->graph.median_ms * 1e3;
    return 1;
}

/* the cases' way: one bench_series over every chain at both lengths, on a
 * blocking stream of its own (common_parse's); us[chain][0 short, 1 long] */
static void protocol_cases_series(const char *const *names, const enum chain_shape *shapes, const unsigned *blocks,
                                  int chains, int reversed, rng_t *rng, double us[][2]);

static void protocol_cases_us(const char *const *names, const enum chain_shape *shapes, const unsigned *blocks,
                              rng_t *rng, double us[][2])
{
    protocol_cases_series(names, shapes, blocks, PROTOCOL_CHAINS, 0, rng, us);
}

/* the same for `chains` chains; reversed: the series' points in the
 * opposite order (the last chain's long graph first) */
enum { PROTOCOL_MAX_CHAINS = 24 };
static void protocol_cases_series(const char *const *names, const enum chain_shape *shapes, const unsigned *blocks,
                                  int chains, int reversed, rng_t *rng, double us[][2])
{
    protocol_point pts[PROTOCOL_MAX_CHAINS * 2];
    bench_point bp[PROTOCOL_MAX_CHAINS * 2];
    for (int i = 0; i < chains * 2; i++) {
        protocol_point *p = &pts[i];
        chain_open(&p->c, names[i / 2], shapes[i / 2], blocks[i / 2], 0, 0, rng);
        const size_t words = (size_t)p->c.blocks * 256;
        p->k = i % 2 ? PROTOCOL_LONG : PROTOCOL_SHORT;
        p->ping0 = dev_alloc_u32(words);
        p->pong0 = dev_alloc_u32(words);
        dev_copy(p->ping0, p->c.ping, words);
        dev_copy(p->pong0, p->c.pong, words);
        p->h_ping0 = host_alloc_u32(words);
        p->h_pong0 = host_alloc_u32(words);
        memcpy(p->h_ping0, p->c.h_ping, words * sizeof(uint32_t));
        memcpy(p->h_pong0, p->c.h_pong, words * sizeof(uint32_t));
        bench_point *b = &bp[reversed ? chains * 2 - 1 - i : i];
        b->job.reset = protocol_reset;
        b->job.run = protocol_run;
        b->job.ctx = p;
        b->finish = protocol_finish;
    }
    const common_opts o = {COMMON_RUNS, COMMON_WARMUP, 0, 0}; /* the sessions' cases' runs */
    CUDA_CHECK(cudaStreamCreate(&g_stream));
    bench_series(bp, chains * 2, &o);
    CUDA_CHECK(cudaStreamDestroy(g_stream));
    g_stream = 0;
    for (int i = 0; i < chains * 2; i++) {
        protocol_point *p = &pts[i];
        us[i / 2][i % 2] = p->graph_median_us;
        chain_close(&p->c);
        CUDA_CHECK(cudaFree(p->ping0));
        CUDA_CHECK(cudaFree(p->pong0));
        free(p->h_ping0);
        free(p->h_pong0);
    }
}

/* constants.cu's way (bare = 0: chain_graph_us) or the same replays with
 * no host step between them (bare = 1); us[0 short, 1 long] */
static void protocol_replay_us(const char *name, enum chain_shape shape, unsigned blocks, int bare, rng_t *rng,
                               double us[2])
{
    enum { REPLAYS = 101 };
    chain c;
    chain_open(&c, name, shape, blocks, 0, 0, rng);
    for (int l = 0; l < 2; l++) {
        chain_graph g = {&c, l ? PROTOCOL_LONG : PROTOCOL_SHORT};
        if (!bare) {
            us[l] = chain_graph_us(&c, g.k, REPLAYS);
            continue;
        }
        const graph_job job = {capture_chain, NULL, &g};
        us[l] = graph_replay_us(&job, REPLAYS);
        for (int r = 0; r < REPLAYS + 1; r++) /* the upload and the timed replays, for the check */
            chain_steps_on_host(&g);
    }
    chain_check(&c);
    chain_close(&c);
}

static void protocol_rows(const char *way, const char *const *names, double us[][2], int rep,
                          double width[][PROTOCOL_MAX_REPS])
{
    const double base = (us[0][1] - us[0][0]) / (PROTOCOL_LONG - PROTOCOL_SHORT);
    for (int c = 0; c < PROTOCOL_CHAINS; c++) {
        char row[80], how[300];
        for (int l = 0; l < 2; l++) {
            const int k = l ? PROTOCOL_LONG : PROTOCOL_SHORT;
            snprintf(row, sizeof row, "protocol_%s_%s_%d_r%d", way, names[c], k, rep);
            snprintf(how, sizeof how, "a graph of %d kernels of the %s chain timed the %s way (median), "
                     "repetition %d", k, names[c], way, rep);
            print_row(row, us[c][l], "us", how);
        }
        const double per_kernel = (us[c][1] - us[c][0]) / (PROTOCOL_LONG - PROTOCOL_SHORT);
        width[c][rep] = per_kernel - base;
        snprintf(row, sizeof row, "protocol_%s_%s_per_kernel_r%d", way, names[c], rep);
        snprintf(how, sizeof how, "(T(%d) - T(%d)) / %d of the rows above", PROTOCOL_LONG, PROTOCOL_SHORT,
                 PROTOCOL_LONG - PROTOCOL_SHORT);
        print_row(row, per_kernel, "us", how);
    }
}

static void measure_protocol_chains(int sms, int reps, rng_t *rng)
{
    static const char *const names[PROTOCOL_CHAINS] = {"touch_1", "touch128_2", "touch128_128", "touch_card"};
    static const enum chain_shape shapes[PROTOCOL_CHAINS] = {CHAIN_TOUCH, CHAIN_TOUCH128, CHAIN_TOUCH128,
                                                             CHAIN_TOUCH};
    const unsigned blocks[PROTOCOL_CHAINS] = {1, 1, 64, (unsigned)sms}; /* of 256 threads' words */
    static const char *const ways[PROTOCOL_WAYS] = {"replay", "bare", "cases"};
    static double width[PROTOCOL_WAYS][PROTOCOL_CHAINS][PROTOCOL_MAX_REPS];
    reps = reps < PROTOCOL_MAX_REPS ? reps : PROTOCOL_MAX_REPS;
    for (int rep = 0; rep < reps; rep++)
        for (int i = 0; i < PROTOCOL_WAYS; i++) {
            const int w = rep % 2 ? PROTOCOL_WAYS - 1 - i : i; /* the order turns round each repetition */
            double us[PROTOCOL_CHAINS][2];
            if (w == 2)
                protocol_cases_us(names, shapes, blocks, rng, us);
            else
                for (int c = 0; c < PROTOCOL_CHAINS; c++)
                    protocol_replay_us(names[c], shapes[c], blocks[c], w, rng, us[c]);
            protocol_rows(ways[w], names, us, rep, width[w]);
        }
    for (int w = 0; w < PROTOCOL_WAYS; w++)
        for (int c = 1; c < PROTOCOL_CHAINS; c++) {
            char row[80], how[300];
            snprintf(row, sizeof row, "protocol_%s_%s_width", ways[w], names[c]);
            snprintf(how, sizeof how, "%s's per_kernel less touch_1's of the same repetition, timed the %s way: "
                     "median over %d repetitions", names[c], ways[w], reps);
            print_row(row, median_of(width[w][c], reps), "us", how);
        }
}

/* The kernel boundary by width and block size, timed the bare way and the
 * cases' way (card-model.md, "Session 47: the H200's kernel boundary"):
 * on the H200 the cases' protocol reads one block of 256 threads 0.09 us a
 * kernel dearer than the bare replays while two blocks of 128 read the
 * same both ways, and the replayed chains step +0.07 us from one block of
 * 256 to two.  These rows say whether that step is the blocks' (1 -> 2),
 * the threads' (256 -> 512 a kernel), the block size's (128 -> 256 a
 * block), or the series' order (the cases' way runs its points once in
 * order and once reversed, alternately, so touch_1 is first and last).
 * Rows widths_{bare,cases}_{chain}_per_kernel_rR ((T(45) - T(5)) / 40, us),
 * also for the alternate chain (a block on every SM and one block in turn,
 * the cases' graphs' narrow and wide kernels mixed) and the twin chains
 * (touch_kernel and touch_twin_kernel, the same code under two names, in
 * turn: the cases' graphs' kernel functions differ from one to the next).
 * Used by nothing. */
static void measure_boundary_widths(int sms, int reps, rng_t *rng)
{
    enum { CHAINS = 17 };
    static const char *const names[CHAINS] = {"touch_1", "touch128_2", "touch_2", "touch128_4", "touch_4",
                                              "touch128_8", "touch_8", "touch128_16", "touch_16", "touch128_32",
                                              "touch_32", "touch128_128", "touch_card", "alternate_card",
                                              "twin_1", "twin128_128", "twin_card"};
    static const enum chain_shape shapes[CHAINS] = {CHAIN_TOUCH, CHAIN_TOUCH128, CHAIN_TOUCH, CHAIN_TOUCH128,
                                                    CHAIN_TOUCH, CHAIN_TOUCH128, CHAIN_TOUCH, CHAIN_TOUCH128,
                                                    CHAIN_TOUCH, CHAIN_TOUCH128, CHAIN_TOUCH, CHAIN_TOUCH128,
                                                    CHAIN_TOUCH, CHAIN_ALTERNATE, CHAIN_TWIN, CHAIN_TWIN128,
                                                    CHAIN_TWIN};
    const unsigned blocks[CHAINS] = {1, 1, 2, 2, 4, 4, 8, 8, 16, 16, 32, 64, (unsigned)sms, (unsigned)sms,
                                     1, 64, (unsigned)sms};
    for (int rep = 0; rep < reps; rep++)
        for (int i = 0; i < 2; i++) {
            const int w = rep % 2 ? 1 - i : i; /* bare, cases; the order turns round each repetition */
            double us[CHAINS][2];
            if (w == 1)
                protocol_cases_series(names, shapes, blocks, CHAINS, rep % 2, rng, us);
            else
                for (int c = 0; c < CHAINS; c++)
                    protocol_replay_us(names[c], shapes[c], blocks[c], 1, rng, us[c]);
            for (int c = 0; c < CHAINS; c++) {
                char row[80], how[300];
                for (int l = 0; l < 2; l++) {
                    const int k = l ? PROTOCOL_LONG : PROTOCOL_SHORT;
                    snprintf(row, sizeof row, "widths_%s_%s_%d_r%d", w ? "cases" : "bare", names[c], k, rep);
                    snprintf(how, sizeof how, "a graph of %d kernels of the %s chain timed the %s way (median), "
                             "repetition %d%s", k, names[c], w ? "cases" : "bare", rep,
                             w && rep % 2 ? ", the series reversed" : "");
                    print_row(row, us[c][l], "us", how);
                }
                snprintf(row, sizeof row, "widths_%s_%s_per_kernel_r%d", w ? "cases" : "bare", names[c], rep);
                snprintf(how, sizeof how, "(T(%d) - T(%d)) / %d of the rows above", PROTOCOL_LONG, PROTOCOL_SHORT,
                         PROTOCOL_LONG - PROTOCOL_SHORT);
                print_row(row, (us[c][1] - us[c][0]) / (PROTOCOL_LONG - PROTOCOL_SHORT), "us", how);
            }
        }
}

/* ---- a kernel's cold constant cache ----------------------------------------
 *
 * A kernel's parameters live in constant bank 0, which the launch fills
 * afresh for every kernel, and the short kernels of the scans stall on
 * imc_miss (validate/notes/profiles/misses-ncu.txt): the constant cache
 * cold at a kernel's start.  The touch chain above already pays the miss of
 * the lines its two pointers and the kernel's own header lie on; what these
 * rows measure is what each further line of constants costs a kernel.
 *
 * Chains (timed as the kernel boundary's chains: graphs of 1..32 kernels,
 * the line's slope per kernel), 256 threads a block, the touch kernel's
 * work (out[i] = in[i] + 1) with its index first summed with W constant
 * words that are all 0, so that the load's address waits for them (as a
 * kernel's addresses wait for its parameters):
 *   paramW_block          one block; W = 0, 1, 4, 14 words of a 3840-byte
 *                         argument passed by value (const_words, below),
 *                         256 bytes apart from its second 256 bytes on (its
 *                         first 64 share a line with the pointers): W
 *                         lines of bank 0 no kernel has read, at every
 *                         level of the constant caches; every kernel
 *                         passes the whole argument, W = 0 reads none of it
 *   param14_dense_block   the same 14 words next to one another (56 bytes:
 *                         two 64-byte lines): as many reads, few lines
 *   param14_64_block      the same 14 words 64 bytes apart (14 lines of 64
 *                         bytes, 4 of 256): against param14_block, the
 *                         constant cache's line size
 *   constW_block          W = 0, 1, 4, 14 words of a __constant__ array,
 *                         256 bytes apart from its second 256 bytes on
 *                         (bank 3: the same address every kernel; cold
 *                         only if a kernel's start empties the constant
 *                         caches), beside the touch kernel's two pointers
 *                         alone (W = 0: touch_block with the index's
 *                         addition)
 *   param1_ldc_block      one word of a new line through LDC (its index
 *                         waits for the clock's top bit), and
 *   param1_ldc_uldc_block the same and a word of that line through ULDC
 *                         (issued first): whether one path's miss brings
 *                         the line the other reads (the touch kernel reads
 *                         the header's line through LDC, some kernels
 *                         through ULDC)
 *   param0_card, param14_card  the same with one block per SM
 * (param14_block - param0_block) / 14 per kernel is one line's cost on a
 * kernel's chain (constant_cache_line_per_kernel); param1_block -
 * param0_block the first line's alone; param14_dense_block - param0_block
 * the reads' own cost (two lines); param0_block - const0_block what passing
 * the 3840 bytes costs (the launch copies them).
 * The clock rows rest on ptxas keeping each clock read between the reads
 * around it (each read's index waits for the clock before it; the clock
 * after it is not data-dependent): cuobjdump -sass on the card's machine
 * shows it.
 *
 * And from inside a kernel (clock64, one block of 256 threads, launched
 * CONST_CLOCK_LAUNCHES times on a stream, each launch its own parameters):
 * each warp reads the clock, then a word of a line of constants it has not
 * read yet (first), a word of a second such line (second), and a word of
 * the first line again (hit), twice, and the clock after each; three ways
 * (const_clock_read): from the __constant__ array and from the argument
 * through LDC (the indexed path), each read's index waiting for the clock
 * before it and for the read before it, so that each clock's step holds
 * one read's wait (rows first, second, hit, and _miss: warp 0's first less
 * its hit); and from the argument at fixed offsets through ULDC (the path
 * a kernel's parameters take, imc_miss's), whose reads ptxas moves among
 * the clocks: only the span from the first clock to the last (_span).
 * Medians over launches of warp 0 and of warps 1..7 (which may find the
 * line already asked for by another warp).
 * Only the kernel's first instruction (LDC c[0x0][0x28], the header's
 * line) comes before the first clock; its reads of 0x208 and of the
 * pointer it writes to come after the last (the SASS, decoded from the
 * cubin), so the first line read is the first of the argument area. */

#define CONST_LINE_WORDS 64 /* 256 bytes apart: a line of its own in every constant cache */
#define CONST_WORDS 15      /* 3840 bytes: with two pointers, under 4 KiB of parameters */
#define CONST_READS 14      /* words read at most: lines 1..14 of the argument (line 0 shares its
                             * 64 bytes with the pointers and bank 0's 0x208) */
#define CONST_CLOCK_LAUNCHES 201
#define CONST_CLOCK_WARPS 8

typedef struct const_words {
    uint32_t w[CONST_WORDS * CONST_LINE_WORDS];
} const_words;

__constant__ uint32_t c_words[CONST_WORDS * CONST_LINE_WORDS]; /* all 0 */

/* the touch kernel, its index summed first with W words of p, STRIDE
 * apart from the argument's second 256 bytes on (a line no kernel has read) */
template <int W, int STRIDE>
__global__ void param_kernel(const uint32_t *in, uint32_t *out, const_words p)
{
    uint32_t zero = 0;
#pragma unroll
    for (int j = 0; j < W; j++)
        zero += p.w[CONST_LINE_WORDS + j * STRIDE];
    const long i = (long)blockIdx.x * blockDim.x + threadIdx.x + zero;
    out[i] = in[i] + 1u;
}

/* the touch kernel, its index summed first with a word of a new line of
 * p read through LDC (its index waits for the clock's top bit, 0), and,
 * with BOTH, a word of the same line through ULDC (ptxas puts the ULDC
 * first, nvcc 13.0): does one path's miss bring the line the other reads? */
template <int BOTH>
__global__ void param_ldc_kernel(const uint32_t *in, uint32_t *out, const __grid_constant__ const_words p)
{
    long long t;
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(t));
    uint32_t zero = p.w[CONST_LINE_WORDS + (int)((unsigned long long)t >> 63)];
    if (BOTH)
        zero += p.w[CONST_LINE_WORDS + 4];
    const long i = (long)blockIdx.x * blockDim.x + threadIdx.x + zero;
    out[i] = in[i] + 1u;
}

/* the same with W words of the __constant__ array */
template <int W>
__global__ void const_kernel(const uint32_t *in, uint32_t *out)
{
    uint32_t zero = 0;
#pragma unroll
    for (int j = 0; j < W; j++)
        zero += c_words[(j + 1) * CONST_LINE_WORDS];
    const long i = (long)blockIdx.x * blockDim.x + threadIdx.x + zero;
    out[i] = in[i] + 1u;
}

static void param_launch(const chain *c, const uint32_t *in, uint32_t *out, cudaStream_t stream)
{
    static const const_words zeros = {{0}};
    const int dense = c->shape == CHAIN_PARAM_DENSE;
    if (c->words == 0)
        param_kernel<0, 1><<<c->blocks, 256, 0, stream>>>(in, out, zeros);
    else if (c->words == 1)
        param_kernel<1, CONST_LINE_WORDS><<<c->blocks, 256, 0, stream>>>(in, out, zeros);
    else if (c->words == 4)
        param_kernel<4, CONST_LINE_WORDS><<<c->blocks, 256, 0, stream>>>(in, out, zeros);
    else if (dense)
        param_kernel<CONST_READS, 1><<<c->blocks, 256, 0, stream>>>(in, out, zeros);
    else if (c->shape == CHAIN_PARAM_64)
        param_kernel<CONST_READS, 16><<<c->blocks, 256, 0, stream>>>(in, out, zeros);
    else
        param_kernel<CONST_READS, CONST_LINE_WORDS><<<c->blocks, 256, 0, stream>>>(in, out, zeros);
}

static void constant_launch(const chain *c, const uint32_t *in, uint32_t *out, cudaStream_t stream)
{
    static const const_words zeros = {{0}};
    if (c->shape == CHAIN_PARAM_LDC && c->words == 1)
        param_ldc_kernel<0><<<c->blocks, 256, 0, stream>>>(in, out, zeros);
    else if (c->shape == CHAIN_PARAM_LDC)
        param_ldc_kernel<1><<<c->blocks, 256, 0, stream>>>(in, out, zeros);
    else if (c->shape != CHAIN_CONST)
        param_launch(c, in, out, stream);
    else if (c->words == 0)
        const_kernel<0><<<c->blocks, 256, 0, stream>>>(in, out);
    else if (c->words == 1)
        const_kernel<1><<<c->blocks, 256, 0, stream>>>(in, out);
    else if (c->words == 4)
        const_kernel<4><<<c->blocks, 256, 0, stream>>>(in, out);
    else
        const_kernel<CONST_READS><<<c->blocks, 256, 0, stream>>>(in, out);
}

/* clock64 around reads of new lines of constants: see above. */
static __device__ __forceinline__ long long clock_now(void)
{
    long long t;
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(t));
    return t;
}

/* How constant_clock_kernel reads a word: */
enum const_clock_read {
    CONST_CLOCK_ARRAY,   /* the __constant__ array through LDC (the indexed path), each read's index
                          * waiting for the clock and for the read before it */
    CONST_CLOCK_PARAM,   /* the argument, the same way (LDC on bank 0) */
    CONST_CLOCK_OPERAND, /* the argument at fixed offsets: ULDC, the immediate path (imc_miss's),
                          * which holds the warp at its issue until the line is in; ptxas moves
                          * these reads among the clocks (nvcc 13.0), so only the span from the
                          * first clock to the last is kept */
};

/* word `index` of the constants `how` reads; `after` is a clock read and
 * `last` the read before (the clock's top bit and last's, 0, unknown to the
 * compiler), so that an indexed read waits for both */
template <int HOW>
__device__ __forceinline__ uint32_t constant_word(const const_words &p, int index, long long after, uint32_t last)
{
    const int wait = (int)((unsigned long long)after >> 63) + (int)(last >> 31);
    if (HOW == CONST_CLOCK_ARRAY)
        return c_words[index + wait];
    if (HOW == CONST_CLOCK_PARAM)
        return p.w[index + wait];
    return p.w[index];
}

/* cycles[launch][warp][4]: the clock's steps around four reads, a word of
 * a new line A, of a new line B, of A again, of A again.  Through LDC a
 * read waits for the one before it, so a step holds the read before it
 * (steps 1, 2, 3: first, second, hit; the SASS, decoded from the cubin:
 * CS2R, LDC, CS2R, wait, LDC, CS2R, ...).  Through ULDC the four steps
 * together are the two new lines and two hits.  The kernel's first
 * instruction (LDC c[0x0][0x28]) is before the first clock; its other reads
 * of bank 0 (the pointer, the launch) after the last. */
template <int HOW>
__global__ void constant_clock_kernel(const __grid_constant__ const_words p, long long *cycles, int launch)
{
    long long t[5];
    uint32_t x = 0;
    static const int index[4] = {4 * CONST_LINE_WORDS, 9 * CONST_LINE_WORDS, 4 * CONST_LINE_WORDS + 4,
                                 4 * CONST_LINE_WORDS + 8};
    t[0] = clock_now();
#pragma unroll
    for (int r = 0; r < 4; r++) {
        x += constant_word<HOW>(p, index[r], t[r], x);
        t[r + 1] = clock_now();
    }
    if (threadIdx.x % 32 == 0) {
        long long *row = cycles + ((long)launch * CONST_CLOCK_WARPS + threadIdx.x / 32) * 4;
#pragma unroll
        for (int r = 0; r < 4; r++)
            row[r] = t[r + 1] - t[r];
        row[3] += x; /* x is 0: keeps the reads */
    }
}

/* the LDC kernels: medians over launches of warp 0 and of warps 1..7, for
 * each of the three reads (`first_step`: the clock's step that holds the
 * first read); and warp 0's first less its hit */
static void constant_clock_rows(const char *from, const char *where, int first_step, const long long *cycles)
{
    static const char *const read[3] = {"first", "second", "hit"};
    static const char *const what[3] = {"a word of a line of constants the kernel has not read",
                                        "a word of a second such line",
                                        "a word of the first line again (a hit)"};
    double *v = host_doubles(CONST_CLOCK_LAUNCHES * (CONST_CLOCK_WARPS - 1));
    double warp0[3] = {0, 0, 0};
    for (int r = 0; r < 3; r++)
        for (int others = 0; others < 2; others++) {
            int n = 0;
            for (int l = 0; l < CONST_CLOCK_LAUNCHES; l++)
                for (int w = others; w < (others ? CONST_CLOCK_WARPS : 1); w++)
                    v[n++] = (double)cycles[((long)l * CONST_CLOCK_WARPS + w) * 4 + first_step + r];
            char name[80], how[320];
            snprintf(name, sizeof name, "constant_cache_clock_%s_%s%s", from, read[r], others ? "_other_warps" : "");
            snprintf(how, sizeof how, "clock64 around %s (%s, one block of 256 threads, %d launches "
                     "on a stream), median over launches of %s", what[r], where, CONST_CLOCK_LAUNCHES,
                     others ? "warps 1..7" : "warp 0");
            const double median = median_of(v, n);
            print_row(name, median, "cycles", how);
            if (!others)
                warp0[r] = median;
        }
    char name[80];
    snprintf(name, sizeof name, "constant_cache_clock_%s_miss", from);
    print_row(name, warp0[0] - warp0[2], "cycles", "the first read less the hit, warp 0: a cold line's wait");
    free(v);
}

/* the ULDC kernel: the span of its four reads (two new lines, two hits),
 * medians over launches of warp 0 and of warps 1..7 */
static void constant_clock_span_rows(const char *from, const char *where, const long long *cycles)
{
    double *v = host_doubles(CONST_CLOCK_LAUNCHES * (CONST_CLOCK_WARPS - 1));
    for (int others = 0; others < 2; others++) {
        int n = 0;
        for (int l = 0; l < CONST_CLOCK_LAUNCHES; l++)
            for (int w = others; w < (others ? CONST_CLOCK_WARPS : 1); w++) {
                const long long *row = cycles + ((long)l * CONST_CLOCK_WARPS + w) * 4;
                v[n++] = (double)(row[0] + row[1] + row[2] + row[3]);
            }
        char name[80], how[320];
        snprintf(name, sizeof name, "constant_cache_clock_%s_span%s", from, others ? "_other_warps" : "");
        snprintf(how, sizeof how, "clock64 from before to after four reads, two new lines and two hits "
                 "(%s, one block of 256 threads, %d launches on a stream), median over launches of %s",
                 where, CONST_CLOCK_LAUNCHES, others ? "warps 1..7" : "warp 0");
        print_row(name, median_of(v, n), "cycles", how);
    }
    free(v);
}

static void measure_constant_clock(void)
{
    static const const_words zeros = {{0}};
    static const char *const from[3] = {"const", "param", "operand"};
    static const char *const where[3] = {"bank 3: a __constant__ array, LDC, each read waiting for the last",
                                         "bank 0: the kernel's 3840-byte argument, LDC, the same",
                                         "bank 0: the argument at fixed offsets, ULDC"};
    const size_t count = (size_t)CONST_CLOCK_LAUNCHES * CONST_CLOCK_WARPS * 4;
    long long *d_cycles, *cycles = (long long *)malloc(count * sizeof *cycles);
    if (!cycles) {
        fprintf(stderr, "constants: out of host memory\n");
        exit(1);
    }
    CUDA_CHECK(cudaMalloc(&d_cycles, count * sizeof *d_cycles));
    for (int how = CONST_CLOCK_ARRAY; how <= CONST_CLOCK_OPERAND; how++) {
        for (int l = 0; l < CONST_CLOCK_LAUNCHES; l++) {
            if (how == CONST_CLOCK_ARRAY)
                constant_clock_kernel<CONST_CLOCK_ARRAY><<<1, 256>>>(zeros, d_cycles, l);
            else if (how == CONST_CLOCK_PARAM)
                constant_clock_kernel<CONST_CLOCK_PARAM><<<1, 256>>>(zeros, d_cycles, l);
            else
                constant_clock_kernel<CONST_CLOCK_OPERAND><<<1, 256>>>(zeros, d_cycles, l);
        }
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaDeviceSynchronize());
        CUDA_CHECK(cudaMemcpy(cycles, d_cycles, count * sizeof *cycles, cudaMemcpyDeviceToHost));
        if (how == CONST_CLOCK_OPERAND)
            constant_clock_span_rows(from[how], where[how], cycles);
        else
            constant_clock_rows(from[how], where[how], 1, cycles);
    }
    CUDA_CHECK(cudaFree(d_cycles));
    free(cycles);
}

/* measures a chain (its rows) and returns its slope, us per kernel */
static double measure_constant_chain(const char *name, enum chain_shape shape, unsigned blocks, int words,
                                     rng_t *rng)
{
    measure_chain_of("constant_cache_", name, shape, blocks, words, rng);
    return g_last_chain_slope;
}

static void measure_constant_cache(int sms, double mhz, rng_t *rng)
{
    const double none = measure_constant_chain("param0_block", CHAIN_PARAM, 1, 0, rng);
    const double one = measure_constant_chain("param1_block", CHAIN_PARAM, 1, 1, rng);
    measure_constant_chain("param4_block", CHAIN_PARAM, 1, 4, rng);
    const double spread = measure_constant_chain("param14_block", CHAIN_PARAM, 1, CONST_READS, rng);
    const double dense = measure_constant_chain("param14_dense_block", CHAIN_PARAM_DENSE, 1, CONST_READS, rng);
    const double lines64 = measure_constant_chain("param14_64_block", CHAIN_PARAM_64, 1, CONST_READS, rng);
    const double const_none = measure_constant_chain("const0_block", CHAIN_CONST, 1, 0, rng);
    measure_constant_chain("const1_block", CHAIN_CONST, 1, 1, rng);
    measure_constant_chain("const4_block", CHAIN_CONST, 1, 4, rng);
    const double constant = measure_constant_chain("const14_block", CHAIN_CONST, 1, CONST_READS, rng);
    const double ldc = measure_constant_chain("param1_ldc_block", CHAIN_PARAM_LDC, 1, 1, rng);
    const double ldc_uldc = measure_constant_chain("param1_ldc_uldc_block", CHAIN_PARAM_LDC, 1, 2, rng);
    const double card_none = measure_constant_chain("param0_card", CHAIN_PARAM, (unsigned)sms, 0, rng);
    const double card = measure_constant_chain("param14_card", CHAIN_PARAM, (unsigned)sms, CONST_READS, rng);
    print_row("constant_cache_line_per_kernel", (spread - none) / CONST_READS * 1e3, "ns",
              "(constant_cache_param14_block_per_kernel - constant_cache_param0_block_per_kernel) / 14: "
              "a kernel's cost of one more line of its parameters, its load's address waiting for it, one block");
    print_row("constant_cache_line_per_kernel_cycles", (spread - none) / CONST_READS * mhz, "cycles",
              "same, times the clock");
    print_row("constant_cache_first_line_per_kernel", (one - none) * 1e3, "ns",
              "constant_cache_param1_block_per_kernel - constant_cache_param0_block_per_kernel: the first line "
              "of parameters beyond the touch kernel's, per kernel, one block");
    print_row("constant_cache_first_line_per_kernel_cycles", (one - none) * mhz, "cycles", "same, times the clock");
    print_row("constant_cache_dense_per_kernel", (dense - none) * 1e3, "ns",
              "constant_cache_param14_dense_block_per_kernel - constant_cache_param0_block_per_kernel: "
              "the same 14 reads from one or two lines, per kernel");
    print_row("constant_cache_64_per_kernel", (lines64 - none) * 1e3, "ns",
              "constant_cache_param14_64_block_per_kernel - constant_cache_param0_block_per_kernel: 14 reads "
              "64 bytes apart, per kernel (14 times constant_cache_line_per_kernel if a line is 64 bytes, "
              "about 4 times if 256)");
    print_row("constant_cache_const_line_per_kernel", (constant - const_none) / CONST_READS * 1e3, "ns",
              "(constant_cache_const14_block_per_kernel - constant_cache_const0_block_per_kernel) / 14: "
              "one line of a __constant__ array (the same address every kernel), per kernel");
    print_row("constant_cache_argument_per_kernel", (none - const_none) * 1e3, "ns",
              "constant_cache_param0_block_per_kernel - constant_cache_const0_block_per_kernel: "
              "passing 3840 more bytes of parameters, none of them read, per kernel");
    print_row("constant_cache_ldc_line_per_kernel", (ldc - none) * 1e3, "ns",
              "constant_cache_param1_ldc_block_per_kernel - constant_cache_param0_block_per_kernel: one new line "
              "read through LDC (the indexed path), per kernel");
    print_row("constant_cache_uldc_after_ldc_per_kernel", (ldc_uldc - ldc) * 1e3, "ns",
              "constant_cache_param1_ldc_uldc_block_per_kernel - constant_cache_param1_ldc_block_per_kernel: "
              "the same line read through ULDC too (the immediate path): about 0 if one path's miss brings the "
              "line for the other, about a line if not");
    print_row("constant_cache_card_line_per_kernel", (card - card_none) / CONST_READS * 1e3, "ns",
              "(constant_cache_param14_card_per_kernel - constant_cache_param0_card_per_kernel) / 14: "
              "one line of parameters, one block per SM");
    measure_constant_clock();
}

/* ---- global-memory throughput ------------------------------------------- */

typedef struct {
    const uint4 *in;
    uint4 *out;
    long count16;
    unsigned blocks, threads;
    unsigned *sink;
} stream_arg;

static void enqueue_read(void *arg)
{
    stream_arg *a = (stream_arg *)arg;
    stream_read_kernel<<<a->blocks, a->threads>>>(a->in, a->count16, a->sink);
}

static void enqueue_copy(void *arg)
{
    stream_arg *a = (stream_arg *)arg;
    stream_copy_kernel<<<a->blocks, a->threads>>>(a->in, a->out, a->count16);
}

typedef struct {
    const unsigned *a;
    unsigned *b, *c;       /* c: NULL for the read-modify-write */
    long count, shift;
    unsigned blocks, threads;
} words_arg;

static void enqueue_words(void *arg)
{
    words_arg *w = (words_arg *)arg;
    if (w->c)
        stream_add_kernel<<<w->blocks, w->threads>>>(w->a, w->b, w->c, w->count);
    else
        stream_rmw_kernel<<<w->blocks, w->threads>>>(w->a, w->b, w->count, w->shift);
}

/* bytes per second moved by fn (bytes_per_run counted by the caller) */
static double stream_bytes_per_s(enqueue_fn fn, void *a, double bytes_per_run)
{
    double rate[REPEATS];
    fn(a);
    CUDA_CHECK(cudaDeviceSynchronize());
    for (int r = 0; r < REPEATS; r++)
        rate[r] = bytes_per_run / (time_ms(fn, a) * 1e-3);
    return median_of(rate, REPEATS);
}

static uint32_t *random_cycle(long count, rng_t *rng);

typedef struct {
    const uint4 *in;
    long count16;
    int reps;
    unsigned blocks, threads;
    unsigned *sink;
} reread_arg;

static void enqueue_reread(void *arg)
{
    reread_arg *a = (reread_arg *)arg;
    stream_reread_kernel<<<a->blocks, a->threads>>>(a->in, a->count16, a->reps,
                                                    a->sink);
}

/* bytes per second re-reading an L2-resident buffer */
static double reread_bytes_per_s(reread_arg *a)
{
    double rate[REPEATS], bytes = (double)a->count16 * 16 * a->reps;
    enqueue_reread(a);                   /* warm pass: the buffer into L2 */
    CUDA_CHECK(cudaDeviceSynchronize());
    for (int r = 0; r < REPEATS; r++)
        rate[r] = bytes / (time_ms(enqueue_reread, a) * 1e-3);
    return median_of(rate, REPEATS);
}

/* ---- arithmetic ------------------------------------------------------------ */

typedef struct {
    const uint32_t *seed;
    uint32_t *sink;
    long long *cycles;
} arith_buffers;

/* cycles per operation of thread 0 of block 0, `blocks` blocks of
 * `threads` threads each running `chains` chains of iters * ARITH_UNROLL
 * steps (the median of REPEATS runs after a warm-up) */
template <class Op>
static double cycles_per_op(const arith_buffers *b, unsigned blocks, int threads, int chains, long iters)
{
    const double ops = (double)iters * ARITH_UNROLL * chains * Op::OPS;
    double per_op[REPEATS];
    long long cycles;
    for (int r = -1; r < REPEATS; r++) { /* r = -1: warm-up */
        arith_kernel<Op><<<blocks, threads>>>(b->seed, chains, iters, b->sink, b->cycles);
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaMemcpy(&cycles, b->cycles, sizeof cycles, cudaMemcpyDeviceToHost));
        if (r >= 0)
            per_op[r] = (double)cycles / ops;
    }
    return median_of(per_op, REPEATS);
}

/* cycles per operation of one dependent chain in one thread */
template <class Op>
static double op_latency(const arith_buffers *b)
{
    return cycles_per_op<Op>(b, 1, 1, 1, 1 << 15);
}

/* cycles between two operations of one warp alone on its SM whose
 * ARITH_CHAINS chains a thread do not wait for each other: the warp's own
 * issue where its instructions are independent (the floor of a dependent
 * chain's span, sim/exec/stream.h); lane 0 reports its cycles */
template <class Op>
static double op_interval_one_warp(const arith_buffers *b)
{
    return cycles_per_op<Op>(b, 1, 32, ARITH_CHAINS, 1 << 13);
}

typedef struct {
    const arith_buffers *b;
    unsigned blocks;
    long iters;
    void (*launch)(const arith_buffers *, unsigned, long);
} arith_arg;

template <class Op>
static void launch_full(const arith_buffers *b, unsigned blocks, long iters)
{
    arith_kernel<Op><<<blocks, 256>>>(b->seed, ARITH_CHAINS, iters, b->sink,
                                      b->cycles);
}

static void enqueue_arith(void *arg)
{
    arith_arg *a = (arith_arg *)arg;
    a->launch(a->b, a->blocks, a->iters);
}

/* operations per SM per cycle, every SM holding 8 blocks of 256 threads,
 * each thread ARITH_CHAINS chains; `iters` sized for about a millisecond */
template <class Op>
static double op_throughput(const arith_buffers *b, int sms, double mhz,
                            long iters)
{
    arith_arg a = {b, (unsigned)(8 * sms), iters, launch_full<Op>};
    double ops = (double)a.blocks * 256 * ARITH_CHAINS * ARITH_UNROLL * Op::OPS *
                 a.iters, rate[REPEATS];
    enqueue_arith(&a);
    CUDA_CHECK(cudaDeviceSynchronize());
    for (int r = 0; r < REPEATS; r++)
        rate[r] = ops / (time_ms(enqueue_arith, &a) * 1e-3 * mhz * 1e6 * sms);
    return median_of(rate, REPEATS);
}

/* cycles an operation of one dependent chain when every SM holds `warps`
 * warps, each thread running one such chain of Op (for additions, the
 * instruction stream's dependent issue, sim/exec/stream.h): blocks of up to
 * 1024 threads, as many per SM as the warps need; thread 0 of block 0
 * reports its cycles */
template <class Op>
static double chain_latency(const arith_buffers *b, int sms, int warps, long iters)
{
    int threads = warps * 32 > 1024 ? 1024 : warps * 32;
    unsigned blocks = (unsigned)(sms * (warps * 32 / threads));
    return cycles_per_op<Op>(b, blocks, threads, 1, iters);
}

/* The arithmetic rows' buffers: 32 seeds in [0, p), a sink, a cycle count. */
static arith_buffers arith_buffers_open(void)
{
    uint32_t seed[32];
    arith_buffers b;
    for (int i = 0; i < 32; i++)
        seed[i] = 12345u + 7919u * (uint32_t)i;
    uint32_t *d_seed = dev_alloc_u32(32);
    to_device(d_seed, seed, 32);
    b.seed = d_seed;
    b.sink = dev_alloc_u32(1);
    CUDA_CHECK(cudaMalloc(&b.cycles, sizeof(long long)));
    return b;
}

static void arith_buffers_close(arith_buffers *b)
{
    CUDA_CHECK(cudaFree((void *)b->seed));
    CUDA_CHECK(cudaFree(b->sink));
    CUDA_CHECK(cudaFree(b->cycles));
}

/* The Z/pZ products' throughput with the case studies' arithmetic beside
 * zp.h's (mulmod_per_sm_cycle), and a multiply-add of each: what a
 * scheduler issues of the cases' products, every SM full (8 blocks of 256
 * threads, 4 chains a thread), against issue_rate's additions.  zp_again:
 * zp.h's product measured again beside them (the probe's check of its
 * build; the full run has it from measure_arithmetic). */
static void measure_case_arithmetic(int sms, double mhz, int zp_again)
{
    arith_buffers b = arith_buffers_open();
    if (zp_again)
        print_row("mulmod_per_sm_cycle", op_throughput<OpMulmod>(&b, sms, mhz, 1 << 7), "ops/SM/cycle",
                  "Z/pZ multiplications (zp.h), 8 blocks of 256 threads per SM, 4 chains per thread");
    print_row("mulmod_case_per_sm_cycle", op_throughput<OpMulmodCase>(&b, sms, mhz, 1 << 7), "ops/SM/cycle",
              "the same with the case studies' product (mcm_kernel_cuda.cuh's exec_zp_mul: 9 SASS "
              "instructions, 4 IMAD.WIDE)");
    print_row("mac_chain_per_sm_cycle", op_throughput<OpMacChain>(&b, sms, mhz, 1 << 7), "ops/SM/cycle",
              "x = x + x*y mod p (zp.h), 8 blocks of 256 threads per SM, 4 chains per thread");
    print_row("mac_chain_case_per_sm_cycle", op_throughput<OpMacChainCase>(&b, sms, mhz, 1 << 7),
              "ops/SM/cycle", "the same with the case studies' arithmetic (mcm_kernel_cuda.cuh)");
    arith_buffers_close(&b);
}

static void measure_arithmetic(int sms, double mhz)
{
    arith_buffers b = arith_buffers_open();
    print_row("op_latency", op_latency<OpAdd>(&b), "cycles",
              "one thread, a dependent chain of 32-bit integer additions (x = x + y, y = y + x; "
              "PTX add.u32: one SASS instruction each, IADD3 and IMAD.IADD alternating), per addition");
    print_row("op_per_sm_cycle", op_throughput<OpAdd>(&b, sms, mhz, 1 << 10),
              "ops/SM/cycle",
              "the same additions, 8 blocks of 256 threads per SM, 4 independent chains per thread "
              "(ptxas spreads them over the integer and the multiply-add pipes)");
    for (int warps = 1; warps <= 64; warps *= 2) {
        char name[64], how[256];
        snprintf(name, sizeof name, "issue_latency_warps%d", warps);
        snprintf(how, sizeof how, "%d warps per SM, each one dependent chain of the additions of op_latency: "
                 "cycles between two instructions of one warp (the dependent issue of sim/exec/stream.h)", warps);
        print_row(name, chain_latency<OpAdd>(&b, sms, warps, 1 << 12), "cycles", how);
    }
    print_row("issue_interval_one_warp", op_interval_one_warp<OpAdd>(&b), "cycles",
              "one warp alone on its SM, 4 independent chains of the additions of op_latency a thread: "
              "cycles between two of its instructions (a warp's issue where they do not wait for each other)");
    print_row("mad_latency", op_latency<OpMad>(&b), "cycles",
              "one thread, a dependent chain of 32-bit multiply-adds x = x*x + y, per operation");
    print_row("mad_per_sm_cycle", op_throughput<OpMad>(&b, sms, mhz, 1 << 10),
              "ops/SM/cycle",
              "the same multiply-adds, 8 blocks of 256 threads per SM, 4 chains per thread");
    print_row("mulmod_latency", op_latency<OpMulmod>(&b), "cycles",
              "one thread, a dependent chain of Z/pZ multiplications (common/zp.h, Barrett), per operation");
    print_row("mulmod_interval_one_warp", op_interval_one_warp<OpMulmod>(&b), "cycles",
              "one warp alone on its SM, 4 independent chains of Z/pZ multiplications a thread: cycles a "
              "multiplication (its scheduler's multiply-add pipe, where they do not wait for each other)");
    for (int warps = 4; warps <= 16; warps *= 2) {
        char name[64], how[256];
        snprintf(name, sizeof name, "mulmod_latency_warps%d", warps);
        snprintf(how, sizeof how, "%d warps per SM (%d a scheduler), each thread one dependent chain of the "
                 "Z/pZ multiplications of mulmod_latency: cycles a multiplication (their scheduler's "
                 "multiply-add pipe shared, as Euclid's step shares it)", warps, warps / 4);
        print_row(name, chain_latency<OpMulmod>(&b, sms, warps, 1 << 10), "cycles", how);
    }
    print_row("mulmod_per_sm_cycle", op_throughput<OpMulmod>(&b, sms, mhz, 1 << 7),
              "ops/SM/cycle",
              "Z/pZ multiplications, 8 blocks of 256 threads per SM, 4 chains per thread");
    print_row("addmod_latency", op_latency<OpAddmod>(&b), "cycles",
              "one thread, a dependent chain of Z/pZ additions (common/zp.h), per operation");
    print_row("addmod_per_sm_cycle", op_throughput<OpAddmod>(&b, sms, mhz, 1 << 9),
              "ops/SM/cycle",
              "Z/pZ additions, 8 blocks of 256 threads per SM, 4 chains per thread");
    arith_buffers_close(&b);
}

/* ---- shared memory and barriers ------------------------------------------- */

typedef struct {
    unsigned blocks, threads;
    long iters;
    int barrier, stride, from_shared;
    uint32_t *sink;
    long long *cycles;
} sm_arg;

static void enqueue_shared_stream(void *arg)
{
    sm_arg *a = (sm_arg *)arg;
    shared_stream_kernel<<<a->blocks, a->threads>>>(a->iters, a->stride, a->sink);
}

static void enqueue_mac(void *arg)
{
    sm_arg *a = (sm_arg *)arg;
    mac_kernel<<<a->blocks, a->threads>>>(a->iters, a->stride, a->from_shared, a->sink);
}

/* work items per SM per cycle of a kernel of 8 blocks of 256 threads per
 * SM, `per_thread` items a thread (median of REPEATS, after a warm-up) */
static double per_sm_cycle(enqueue_fn fn, sm_arg *a, double per_thread, int sms, double mhz)
{
    double v[REPEATS], items = (double)a->blocks * a->threads * per_thread;
    fn(a);
    CUDA_CHECK(cudaDeviceSynchronize());
    for (int r = 0; r < REPEATS; r++)
        v[r] = items / (time_ms(fn, a) * 1e-3 * mhz * 1e6 * sms);
    return median_of(v, REPEATS);
}

/* Bank conflicts, and how the classes add up when a thread mixes them. */
static void measure_conflicts_and_mixing(int sms, double mhz, uint32_t *sink)
{
    for (int stride = 2; stride <= 16; stride *= 2) {
        sm_arg st = {(unsigned)(8 * sms), 256, 1 << 11, 0, stride, 0, sink, NULL};
        char name[48], how[200];
        snprintf(name, sizeof name, "shared_per_sm_cycle_stride%d", stride);
        snprintf(how, sizeof how, "as shared_per_sm_cycle, thread t reading word %d t + 32 k: "
                 "a warp's 32 words in %d banks (a %d-way conflict by the DMM's rule)",
                 stride, 32 / stride, stride);
        print_row(name, per_sm_cycle(enqueue_shared_stream, &st, 8.0 * st.iters, sms, mhz),
                  "words/SM/cycle", how);
    }
    sm_arg regs = {(unsigned)(8 * sms), 256, 1 << 8, 0, 1, 0, sink, NULL};
    print_row("mac_regs_per_sm_cycle",
              per_sm_cycle(enqueue_mac, &regs, (double)MAC_UNROLL * regs.iters, sms, mhz),
              "MACs/SM/cycle",
              "h = zp_add(h, zp_mul(a, b)), operands from registers, 8 blocks of 256 threads per SM, "
              "per Z/pZ multiply-add");
    for (int stride = 1; stride <= 16; stride *= 2) {
        sm_arg mac = {(unsigned)(8 * sms), 256, 1 << 8, 0, stride, 1, sink, NULL};
        char name[48], how[240];
        snprintf(name, sizeof name, "mac_shared_stride%d_per_sm_cycle", stride);
        snprintf(how, sizeof how, "the same multiply-adds, a from shared memory at word %d t + j "
                 "(a %d-way conflict), b a broadcast shared word: two shared reads a product",
                 stride, stride);
        print_row(name, per_sm_cycle(enqueue_mac, &mac, (double)MAC_UNROLL * mac.iters, sms, mhz),
                  "MACs/SM/cycle", how);
    }
}

static void enqueue_barrier(void *arg)
{
    sm_arg *a = (sm_arg *)arg;
    barrier_kernel<<<a->blocks, a->threads>>>(a->iters, a->barrier, a->sink,
                                              a->cycles);
}

/* cycles thread 0 of block 0 spent in barrier_kernel (median of REPEATS) */
static double barrier_cycles(sm_arg *a)
{
    double c[REPEATS];
    long long cycles;
    enqueue_barrier(a);
    CUDA_CHECK(cudaDeviceSynchronize());
    for (int r = 0; r < REPEATS; r++) {
        enqueue_barrier(a);
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaMemcpy(&cycles, a->cycles, sizeof cycles,
                              cudaMemcpyDeviceToHost));
        c[r] = (double)cycles;
    }
    return median_of(c, REPEATS);
}

static void measure_shared_and_barriers(int sms, double mhz, rng_t *rng)
{
    uint32_t *next = random_cycle(SHARED_WORDS, rng);
    uint32_t *d_next = dev_alloc_u32(SHARED_WORDS), *sink = dev_alloc_u32(1);
    long long *d_cycles, cycles;
    double v[REPEATS];
    CUDA_CHECK(cudaMalloc(&d_cycles, sizeof(long long)));
    to_device(d_next, next, SHARED_WORDS);
    const long steps = 1 << 16;
    for (int r = -1; r < REPEATS; r++) {
        shared_chase_kernel<<<1, 32>>>(d_next, steps, d_cycles, sink);
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaMemcpy(&cycles, d_cycles, sizeof cycles, cudaMemcpyDeviceToHost));
        if (r >= 0)
            v[r] = (double)cycles / steps;
    }
    print_row("shared_latency", median_of(v, REPEATS), "cycles",
              "one thread, dependent loads over a random cycle of 16 KiB of shared memory");

    sm_arg st = {(unsigned)(8 * sms), 256, 1 << 12, 0, 1, 0, sink, d_cycles};
    double words = (double)st.blocks * st.threads * 8 * st.iters;
    enqueue_shared_stream(&st);
    CUDA_CHECK(cudaDeviceSynchronize());
    for (int r = 0; r < REPEATS; r++)
        v[r] = words / (time_ms(enqueue_shared_stream, &st) * 1e-3 * mhz * 1e6 * sms);
    print_row("shared_per_sm_cycle", median_of(v, REPEATS), "words/SM/cycle",
              "8 blocks of 256 threads per SM read 4-byte words of shared memory, conflict-free");

    const long iters = 1 << 14;
    for (int l = 32; l <= 1024; l *= 2) {
        sm_arg with = {1, (unsigned)l, iters, 1, 1, 0, sink, d_cycles};
        sm_arg without = with;
        without.barrier = 0;
        double per = (barrier_cycles(&with) - barrier_cycles(&without)) / iters;
        char name[32], how[160];
        snprintf(name, sizeof name, "syncthreads_l%d", l);
        snprintf(how, sizeof how, "one block of %d threads alone, cycles per __syncthreads "
                 "(loop with barriers minus loop without)", l);
        print_row(name, per, "cycles", how);
    }
    sm_arg full = {(unsigned)(8 * sms), 256, iters, 1, 1, 0, sink, d_cycles};
    sm_arg full_without = full;
    full_without.barrier = 0;
    double per_full = (barrier_cycles(&full) - barrier_cycles(&full_without)) / iters;
    print_row("syncthreads_l256_full", per_full, "cycles",
              "8 blocks of 256 threads per SM on every SM, cycles per __syncthreads of one block");
    measure_conflicts_and_mixing(sms, mhz, sink);
    CUDA_CHECK(cudaFree(d_next));
    CUDA_CHECK(cudaFree(sink));
    CUDA_CHECK(cudaFree(d_cycles));
    free(next);
}

/* ---- dependent loads ------------------------------------------------------ */

/* Sattolo's algorithm: a single random cycle through all count entries */
static uint32_t *random_cycle(long count, rng_t *rng)
{
    uint32_t *next = host_alloc_u32((size_t)count);
    for (long i = 0; i < count; i++)
        next[i] = (uint32_t)i;
    for (long i = count - 1; i > 0; i--) {
        long j = (long)(rng_next(rng) % (uint64_t)i);   /* j < i */
        uint32_t t = next[i];
        next[i] = next[j];
        next[j] = t;
    }
    return next;
}

/* cycles per dependent load over a random cycle of `bytes` */
static double chase_cycles(long bytes, long steps, rng_t *rng)
{
    long count = bytes / 4;
    uint32_t *next = random_cycle(count, rng);
    uint32_t *d_next = dev_alloc_u32((size_t)count), *d_sink = dev_alloc_u32(1);
    long long *d_cycles, cycles;
    double per_load[REPEATS];
    CUDA_CHECK(cudaMalloc(&d_cycles, sizeof(long long)));
    to_device(d_next, next, (size_t)count);
    chase_kernel<<<1, 1>>>(d_next, steps, d_cycles, d_sink);   /* warm pass */
    CUDA_CHECK(cudaDeviceSynchronize());
    for (int r = 0; r < REPEATS; r++) {
        chase_kernel<<<1, 1>>>(d_next, steps, d_cycles, d_sink);
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaMemcpy(&cycles, d_cycles, sizeof cycles,
                              cudaMemcpyDeviceToHost));
        per_load[r] = (double)cycles / steps;
    }
    CUDA_CHECK(cudaFree(d_next));
    CUDA_CHECK(cudaFree(d_sink));
    CUDA_CHECK(cudaFree(d_cycles));
    free(next);
    return median_of(per_load, REPEATS);
}

/* ---- the caches ------------------------------------------------------------ */

/* A random cycle through `lines` lines of 128 bytes, one word each (word
 * 32k of line k, k in a Sattolo cycle), over a buffer of `lines`·32 words. */
static uint32_t *line_cycle(long lines, rng_t *rng)
{
    uint32_t *order = random_cycle(lines, rng), *next = host_alloc_u32((size_t)lines * 32);
    memset(next, 0, sizeof *next * (size_t)lines * 32);
    for (long k = 0; k < lines; k++)
        next[k * 32] = order[k] * 32;
    free(order);
    return next;
}

/* cycles per dependent load of one thread over `lines` lines, after a
 * warm pass (twice round the cycle) in the same kernel; cached: through
 * the L1 (else the L2 only); store: a store beside each load (above) */
static double chase_lines_cycles(long lines, int cached, int store, rng_t *rng)
{
    uint32_t *next = line_cycle(lines, rng);
    uint32_t *d_next = dev_alloc_u32((size_t)lines * 32), *d_sink = dev_alloc_u32(1);
    long long *d_cycles, cycles;
    const long steps = 20000;
    double per[REPEATS];
    CUDA_CHECK(cudaMalloc(&d_cycles, sizeof(long long)));
    to_device(d_next, next, (size_t)lines * 32);
    for (int r = -1; r < REPEATS; r++) { /* r = -1: the L2 warmed as well */
        chase_warm_kernel<<<1, 1>>>(d_next, 2 * lines, steps, cached, store, d_cycles, d_sink);
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaMemcpy(&cycles, d_cycles, sizeof cycles, cudaMemcpyDeviceToHost));
        if (r >= 0)
            per[r] = (double)cycles / steps;
    }
    CUDA_CHECK(cudaFree(d_next));
    CUDA_CHECK(cudaFree(d_sink));
    CUDA_CHECK(cudaFree(d_cycles));
    free(next);
    return median_of(per, REPEATS);
}

/* A random cycle through `lines` lines in which every word of a line
 * names the next line (line_chain_cycles reads lane 0's). */
static uint32_t *whole_line_cycle(long lines, rng_t *rng)
{
    uint32_t *next = line_cycle(lines, rng);
    for (long k = 0; k < lines; k++) {
        uint32_t to = next[k * 32] / 32;
        for (int w = 0; w < 32; w++)
            next[k * 32 + w] = to;
    }
    return next;
}

/* A launch of one of the whole-line chases (line_chase_all_kernel,
 * in_flight_chase_kernel): its grid and its kernel's arguments (stride:
 * line_chase_all_kernel's; start and stretches: in_flight_chase_kernel's). */
typedef struct {
    unsigned blocks, threads;
    const uint32_t *next, *start;
    unsigned stretches;
    long steps, stride;
    double *per_line;
    uint32_t *sink;
    bool one_sector; /* in_flight_chase_kernel's: every lane the line's first word */
} line_chase_arg;

static void enqueue_line_chase_all(void *arg)
{
    line_chase_arg *a = (line_chase_arg *)arg;
    line_chase_all_kernel<<<a->blocks, a->threads>>>(a->next, a->steps, a->stride, a->per_line, a->sink);
}

static void enqueue_in_flight_chase(void *arg)
{
    line_chase_arg *a = (line_chase_arg *)arg;
    in_flight_chase_kernel<<<a->blocks, a->threads>>>(a->next, a->start, a->stretches, a->steps, a->one_sector,
                                                      a->per_line, a->sink);
}

/* The chase that fn(a) launches, each warp's cycles a line written by its
 * lane 0 (into a->per_line, allocated here): the median over the warps,
 * and of those the median over REPEATS launches after one that warms the
 * L2. */
static timing_stats line_chase_stats(enqueue_fn fn, line_chase_arg *a);

static double line_chase_median(enqueue_fn fn, line_chase_arg *a)
{
    return line_chase_stats(fn, a).median_ms;
}

/* The same, the spread over the warps too: of each launch's warps their
 * median, quartiles, least and most cycles a line (timing_stats_of, its
 * fields in cycles here), each the median over REPEATS launches after one
 * that warms the L2. */
static timing_stats line_chase_stats(enqueue_fn fn, line_chase_arg *a)
{
    const long warps = (long)a->blocks * (a->threads / 32);
    double *per = (double *)malloc(sizeof *per * (size_t)warps), f[5][REPEATS];
    CUDA_CHECK(cudaMalloc(&a->per_line, sizeof *a->per_line * (size_t)warps));
    for (int r = -1; r < REPEATS; r++) { /* r = -1: the L2 warmed */
        fn(a);
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaMemcpy(per, a->per_line, sizeof *per * (size_t)warps, cudaMemcpyDeviceToHost));
        if (r < 0)
            continue;
        timing_stats st = timing_stats_of(per, (int)warps);
        f[0][r] = st.median_ms;
        f[1][r] = st.q1_ms;
        f[2][r] = st.q3_ms;
        f[3][r] = st.min_ms;
        f[4][r] = st.max_ms;
    }
    CUDA_CHECK(cudaFree(a->per_line));
    free(per);
    timing_stats out = {median_of(f[0], REPEATS), median_of(f[1], REPEATS), median_of(f[2], REPEATS),
                        median_of(f[3], REPEATS), median_of(f[4], REPEATS)};
    return out;
}

/* ---- resident blocks on their SM, start to end -----------------------------
 * spread_kernel: a two-phase block of 256 threads, launched R to an SM on
 * every SM at once (one wave): each thread sums `passes` words of an
 * L2-resident array, a Z/pZ product and sum a word (coalesced, a line a
 * warp a pass: the issue-heavy phase), then the block halves its 256
 * partial sums in shared memory over 8 barrier-separated levels (the
 * latency-bound phase, a warp or less working at the last levels).  Thread
 * 0 notes %smid, clock64() at its first instruction and after the block's
 * last barrier.  Nothing of a case's time: what the host reads from it is
 * how far apart the blocks an SM holds start and end. */
#define SPREAD_THREADS 256

/* Thread 0's notes of a block of spread_kernel: %smid, clock64() at its
 * first instruction and after its last barrier. */
static __device__ __forceinline__ void spread_note(long long t0, uint32_t sum, long long *start, long long *end,
                                                   unsigned *sm)
{
    long long t1 = clock64();
    unsigned smid;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
    start[blockIdx.x] = t0;
    end[blockIdx.x] = t1;
    sm[blockIdx.x] = smid + (sum == 0x9e3779b9u ? 1u << 30 : 0u); /* keeps the sum */
}

/* CASE = 0: zp.h's arithmetic (the rows without `_case`); CASE = 1: the
 * case studies' (above), as tests/user/spread.c is charged.  `levels`
 * halving levels (8, or 0: the passes alone, thread 0's own sum noted). */
template <int CASE>
__global__ void __launch_bounds__(SPREAD_THREADS, 8)
    spread_kernel(const uint32_t *a, long passes, int levels, long long *start, long long *end, unsigned *sm)
{
    long long t0 = clock64();
    __shared__ uint32_t part[SPREAD_THREADS];
    const uint32_t *row = a + (size_t)blockIdx.x * passes * SPREAD_THREADS;
    uint32_t sum;
    if (CASE) {
        case_word s = 0, b = threadIdx.x + 3;
        for (long k = 0; k < passes; k++)
            s = case_zp_add(s, case_zp_mul(row[k * SPREAD_THREADS + threadIdx.x], b));
        sum = (uint32_t)s;
    } else {
        uint32_t b = threadIdx.x + 3;
        sum = 0;
        for (long k = 0; k < passes; k++)
            sum = zp_add(sum, zp_mul(row[k * SPREAD_THREADS + threadIdx.x], b));
    }
    if (levels == 0) {
        if (threadIdx.x == 0)
            spread_note(t0, sum, start, end, sm);
        return;
    }
    part[threadIdx.x] = sum;
    for (unsigned half = SPREAD_THREADS / 2; half > 0; half >>= 1) {
        __syncthreads();
        if (threadIdx.x < half)
            part[threadIdx.x] = CASE ? (uint32_t)case_zp_add(part[threadIdx.x], part[threadIdx.x + half])
                                     : zp_add(part[threadIdx.x], part[threadIdx.x + half]);
    }
    __syncthreads();
    if (threadIdx.x == 0)
        spread_note(t0, part[0], start, end, sm);
}

/* A dependent load of a whole line from the L2 while `blocks_per_sm`
 * blocks of 256 threads on every SM do the same, each warp its own chain
 * (line_chase_all_kernel) over 8 MiB (the L2 holds it, no L1 does): the
 * median over the warps of their cycles a line.  Against l2_load_latency
 * (one thread alone) and the SM's port draining one line a warp
 * (U_l2_all_sms·32 a warp): what a load on a warp's chain waits when the
 * SM's warps load together (matvec's loop, instruction-stream.md, "Span-bound
 * blocks sharing an SM"). */
static double line_chase_all_cycles(int sms, int blocks_per_sm, rng_t *rng)
{
    const long lines = 1L << 16, steps = 256;
    uint32_t *next = whole_line_cycle(lines, rng);
    const unsigned blocks = (unsigned)(blocks_per_sm * sms);
    const long warps = (long)blocks * 8;
    uint32_t *d_next = dev_alloc_u32((size_t)lines * 32), *d_sink = dev_alloc_u32(1);
    to_device(d_next, next, (size_t)lines * 32);
    line_chase_arg a = {blocks, 256, d_next, NULL, 0, steps, lines / warps, NULL, d_sink, false};
    double cycles = line_chase_median(enqueue_line_chase_all, &a);
    CUDA_CHECK(cudaFree(d_next));
    CUDA_CHECK(cudaFree(d_sink));
    free(next);
    return cycles;
}

/* A dependent load of a whole line, cached in the L1, that the warps an
 * SM holds (`blocks_per_sm` blocks of `threads` threads on every SM) ask
 * for together (in_flight_chase_kernel): each SM its own stretch of one
 * random cycle over 8 MiB (the L2 holds it), `steps` lines a stretch, the
 * stretches apart; with one_sector each load is the line's first sector
 * only (every lane its first word).  The median over the warps of their
 * cycles a line. */
static timing_stats in_flight_chase_stats(int sms, int blocks_per_sm, int threads, bool one_sector, rng_t *rng);

static double in_flight_chase_cycles(int sms, int blocks_per_sm, int threads, bool one_sector, rng_t *rng)
{
    return in_flight_chase_stats(sms, blocks_per_sm, threads, one_sector, rng).median_ms;
}

/* The same, the spread over the warps too (line_chase_stats). */
static timing_stats in_flight_chase_stats(int sms, int blocks_per_sm, int threads, bool one_sector, rng_t *rng)
{
    const long lines = 1L << 16, steps = 256;
    uint32_t *next = whole_line_cycle(lines, rng);
    enum { STRETCHES = 256 };        /* one for each %smid below 256: the card's SMs, with gaps */
    const long apart = lines / STRETCHES; /* = steps: the stretches do not meet */
    uint32_t *start = host_alloc_u32(STRETCHES), line = 0;
    for (long k = 0; k < lines; k++) {
        if (k % apart == 0)
            start[k / apart] = line;
        line = next[(long)line * 32];
    }
    const unsigned blocks = (unsigned)(blocks_per_sm * sms);
    uint32_t *d_next = dev_alloc_u32((size_t)lines * 32), *d_start = dev_alloc_u32(STRETCHES),
             *d_sink = dev_alloc_u32(1);
    to_device(d_next, next, (size_t)lines * 32);
    to_device(d_start, start, STRETCHES);
    line_chase_arg a = {blocks, (unsigned)threads, d_next, d_start, STRETCHES, steps, 0, NULL, d_sink, one_sector};
    timing_stats cycles = line_chase_stats(enqueue_in_flight_chase, &a);
    CUDA_CHECK(cudaFree(d_next));
    CUDA_CHECK(cudaFree(d_start));
    CUDA_CHECK(cudaFree(d_sink));
    free(start);
    free(next);
    return cycles;
}

/* The blocks of spread_kernel an SM holds, R = blocks_per_sm on every SM
 * (`passes` words a thread, 4·passes KiB of A a block, the L2 warmed): per SM
 * holding exactly R of them, the spread of their starts (last − first),
 * of their ends, its busy time (last end − first start) and their mean
 * lifetime, cycles of its clock; out[] the medians over those SMs, then
 * over REPEATS launches. */
static void resident_spread_cycles(int sms, int blocks_per_sm, long passes, int arithmetic, int levels,
                                   double out[4])
{
    enum { SMS_MAX = 256 }; /* %smid is below 256 on these cards */
    const unsigned blocks = (unsigned)(blocks_per_sm * sms);
    const size_t words = (size_t)blocks * passes * SPREAD_THREADS;
    uint32_t *d_a = dev_alloc_u32(words), *h_a = host_alloc_u32(words);
    for (size_t i = 0; i < words; i++)
        h_a[i] = (uint32_t)(i * 2654435761u) % ZP_P;
    to_device(d_a, h_a, words);
    long long *d_t, *t0 = (long long *)malloc(sizeof *t0 * blocks * 2), *t1 = t0 + blocks;
    unsigned *d_sm, *sm = (unsigned *)malloc(sizeof *sm * blocks);
    CUDA_CHECK(cudaMalloc(&d_t, sizeof *d_t * blocks * 2));
    CUDA_CHECK(cudaMalloc(&d_sm, sizeof *d_sm * blocks));
    double med[4][REPEATS], *per[4];
    for (int q = 0; q < 4; q++)
        per[q] = (double *)malloc(sizeof(double) * SMS_MAX);
    for (int r = -1; r < REPEATS; r++) { /* r = -1: the L2 warmed */
        if (arithmetic)
            spread_kernel<1><<<blocks, SPREAD_THREADS>>>(d_a, passes, levels, d_t, d_t + blocks, d_sm);
        else
            spread_kernel<0><<<blocks, SPREAD_THREADS>>>(d_a, passes, levels, d_t, d_t + blocks, d_sm);
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaMemcpy(t0, d_t, sizeof *t0 * blocks * 2, cudaMemcpyDeviceToHost));
        CUDA_CHECK(cudaMemcpy(sm, d_sm, sizeof *sm * blocks, cudaMemcpyDeviceToHost));
        if (r < 0)
            continue;
        int n = 0;
        for (unsigned id = 0; id < SMS_MAX; id++) {
            long long first = 0, last_start = 0, first_end = 0, last = 0;
            double life = 0;
            int held = 0;
            for (unsigned b = 0; b < blocks; b++) {
                if ((sm[b] & 0xffff) != id)
                    continue;
                if (held == 0 || t0[b] < first) first = t0[b];
                if (held == 0 || t0[b] > last_start) last_start = t0[b];
                if (held == 0 || t1[b] < first_end) first_end = t1[b];
                if (held == 0 || t1[b] > last) last = t1[b];
                life += (double)(t1[b] - t0[b]);
                held++;
            }
            if (held != blocks_per_sm)
                continue;
            per[0][n] = (double)(last_start - first);
            per[1][n] = (double)(last - first_end);
            per[2][n] = (double)(last - first);
            per[3][n] = life / held;
            n++;
        }
        for (int q = 0; q < 4; q++)
            med[q][r] = n > 0 ? median_of(per[q], n) : -1;
    }
    for (int q = 0; q < 4; q++) {
        out[q] = median_of(med[q], REPEATS);
        free(per[q]);
    }
    CUDA_CHECK(cudaFree(d_a));
    CUDA_CHECK(cudaFree(d_t));
    CUDA_CHECK(cudaFree(d_sm));
    free(h_a);
    free(t0);
    free(sm);
}

/* The rows of resident_spread_cycles: 1, 2, 4 and 8 blocks an SM,
 * `passes` a thread (4: the resident blocks' issue beside their latency;
 * 16: the issue four times longer, the halving levels the same, so that
 * the spread says whether it grows with the issue phase or stays with
 * the levels), zp.h's arithmetic (arithmetic = 0) or the case studies'
 * (1), `levels` halving levels (8 or 0), the rows' names ending in
 * `suffix`. */
static void measure_resident_spread_passes(int sms, long passes, int arithmetic, int levels, const char *suffix)
{
    static const char *what[4] = {"start_spread", "end_spread", "busy", "life"};
    static const char *how[4] = {
        "the spread of the starts of the blocks an SM holds (last - first, clock64 at a block's first instruction)",
        "the spread of their ends (after a block's last barrier)",
        "the SM's busy time for them (last end - first start)",
        "a block's mean lifetime (end - start)"};
    for (int k = 1; k <= 8; k *= 2) {
        double v[4];
        resident_spread_cycles(sms, k, passes, arithmetic, levels, v);
        for (int q = 0; q < 4; q++) {
            char name[64], text[500];
            snprintf(name, sizeof name, "resident_%s_blocks%d%s", what[q], k, suffix);
            snprintf(text, sizeof text, "%d blocks of 256 threads per SM on every SM, one wave, each %ld coalesced "
                     "L2 words a thread with a Z/pZ product and sum each (%s), then %d barrier-separated halving "
                     "levels in shared memory (spread_kernel): %s, median over the SMs holding %d", k, passes,
                     arithmetic ? "the case studies' arithmetic, mcm_kernel_cuda.cuh" : "zp.h", levels,
                     levels ? how[q] : (q == 1 ? "the spread of their ends (after the passes)" : how[q]), k);
            print_row(name, v[q], "cycles", text);
        }
    }
}

/* The rows at 4 passes a thread (the names without a suffix), then at 16
 * (tests/user/spread.c runs the same block in mcmsim); then the same
 * blocks with the case studies' Z/pZ arithmetic (`_case`: the
 * instructions tests/user/spread.c is charged), and their 16 passes
 * without the halving levels (`_case_passes16_nolevels`: whether two
 * blocks slow each other in their passes or at their barriers). */
static void measure_resident_spread(int sms)
{
    measure_resident_spread_passes(sms, 4, 0, 8, "");
    measure_resident_spread_passes(sms, 16, 0, 8, "_passes16");
    measure_resident_spread_passes(sms, 4, 1, 8, "_case");
    measure_resident_spread_passes(sms, 16, 1, 8, "_case_passes16");
    measure_resident_spread_passes(sms, 16, 1, 0, "_case_passes16_nolevels");
}

/* What a link of a chain waits for a line from the L2 as the SMs loading
 * at once grow (in_flight_chase_stats): k blocks of one warp, the
 * dispatcher putting each on an SM of its own, the other SMs idle, k = 1
 * (a kernel of one block, against the one thread of l2_chase_16k and
 * l1_chase_512k) to every SM (l1_in_flight_line_latency_blocks1): the
 * median over the warps; and at every SM the spread over the SMs (their
 * least, quartiles and most), which says whether a full card's latency
 * is every SM's (the load) or a mean over SMs nearer and farther from the
 * L2 (their place). */
static void measure_line_latency_by_sms(int sms, rng_t *rng)
{
    static const int ks[] = {1, 2, 8, 16, 33, 66};
    for (int i = 0; i < (int)(sizeof ks / sizeof ks[0]) && ks[i] < sms; i++) {
        char name[80], how[400];
        snprintf(name, sizeof name, "l1_in_flight_line_latency_sms%d", ks[i]);
        snprintf(how, sizeof how, "%d block%s of one warp, each on its own SM, the other SMs idle: a dependent chain of "
                 "lines (8 MiB, in the L2, in no L1), cached loads (ld.ca), each SM its own lines: median cycles a "
                 "line", ks[i], ks[i] > 1 ? "s" : "");
        print_row(name, in_flight_chase_cycles(ks[i], 1, 32, false, rng), "cycles", how);
    }
    timing_stats all = in_flight_chase_stats(sms, 1, 32, false, rng);
    const struct { const char *suffix, *what; double v; } spread[] = {
        {"min", "the least", all.min_ms}, {"q1", "the first quartile", all.q1_ms},
        {"q3", "the third quartile", all.q3_ms}, {"max", "the most", all.max_ms}};
    for (int i = 0; i < 4; i++) {
        char name[80], how[400];
        snprintf(name, sizeof name, "l1_in_flight_line_latency_blocks1_%s", spread[i].suffix);
        snprintf(how, sizeof how, "as l1_in_flight_line_latency_blocks1 (one warp on every SM), %s over the SMs of "
                 "their cycles a line", spread[i].what);
        print_row(name, spread[i].v, "cycles", how);
    }
}

/* The rows of in_flight_chase_cycles: one warp an SM, 8 blocks of one
 * warp, one block of 8 warps; and one warp an SM loading one sector of
 * each line (against the first: the line's share of the L2's latency past
 * the L1, apart from the footprint's, which l2_chase_16k does not
 * separate: read_latency_l2, validate/notes/cache-hierarchy.md, session 41). */
static void measure_lines_in_flight(int sms, rng_t *rng)
{
    static const struct { const char *name; int blocks, threads; bool one_sector; const char *how; } rows[] = {
        {"l1_in_flight_line_latency_blocks1", 1, 32, false, "one block of one warp per SM on every SM"},
        {"l1_in_flight_line_latency_blocks8", 8, 32, false,
         "8 blocks of one warp per SM on every SM, the blocks of an SM reading the same lines at once"},
        {"l1_in_flight_line_latency_warps8", 1, 256, false,
         "one block of 8 warps per SM on every SM, the warps reading the same lines at once"},
        {"l1_in_flight_sector_latency_blocks1", 1, 32, true,
         "one block of one warp per SM on every SM, every lane the line's first word (one sector a load)"},
    };
    for (int i = 0; i < 4; i++) {
        char how[400];
        snprintf(how, sizeof how, "%s: a dependent chain of lines (8 MiB, in the L2, in no L1), "
                 "cached loads (ld.ca), each SM its own lines: median cycles a line", rows[i].how);
        print_row(rows[i].name,
                  in_flight_chase_cycles(sms, rows[i].blocks, rows[i].threads, rows[i].one_sector, rng), "cycles",
                  how);
    }
    measure_line_latency_by_sms(sms, rng);
}

/* ---- the stencil's sweep: its division and its load round ------------------
 * programs/user/stencil.c divides a thread's cell g by the grid's side n,
 * both runtime numbers (long g / n, g % n); nvcc's path when both fit 32
 * bits is I2F.U32.RP of the divisor, MUFU.RCP, F2I.FTZ.U32.TRUNC.NTZ, then
 * multiply-high and corrections.  Its warps then issue five loads at once
 * (g, g-1, g+1, g-n, g+n) of lines in the L2 and in no L1.  The rows below
 * time these pieces alone (measure_stencil_rows). */

/* A link of a division chain: the divisor is the chain's value, so every
 * link runs the whole division (the divisor's reciprocal included, as the
 * stencil's thread does once) and nothing is hoisted out of the loop.
 * y, from memory, is at least 2^30 and x at most y, so no link divides by
 * zero and the values stay in 32 bits (x alternates between two numbers). */
struct DivU32 {
    typedef uint32_t word;
    static __device__ word first(word s) { return s; }
    static __device__ void step(word &x, word y) { x = y / x; }
};
struct DivS64 { /* long operands whose values fit 32 bits: the stencil's g / n */
    typedef long long word;
    static __device__ word first(word s) { return s; }
    static __device__ void step(word &x, word y) { x = y / x; }
};
struct DivRemS64 { /* the stencil's pair g / n, g % n; the link's glue is q + r */
    typedef long long word;
    static __device__ word first(word s) { return s; }
    static __device__ void step(word &x, word y)
    {
        word q = y / x, r = y % x;
        x = q + r; /* >= 1: q >= 1 where x <= y, else r = y */
    }
};
/* the division's variable-latency instructions alone, each a dependent
 * chain on its own result's bits (inline PTX, so that none folds) */
struct CvtF32U32 { /* I2F.U32.RP */
    typedef uint32_t word;
    static __device__ word first(word s) { return s; }
    static __device__ void step(word &x, word)
    {
        asm volatile("{.reg .f32 f; cvt.rp.f32.u32 f, %0; mov.b32 %0, f;}" : "+r"(x));
    }
};
/* MUFU.RCP, then the division's IADD3 of 0x0ffffffe (ptxas cancels
 * rcp(rcp(f)) without it) */
struct RcpF32 {
    typedef uint32_t word;
    static __device__ word first(word) { return 0x3fc00000u; } /* 1.5f; then 1.46f and 2.86e9f in turn */
    static __device__ void step(word &x, word)
    {
        asm volatile("{.reg .f32 f; mov.b32 f, %0; rcp.approx.ftz.f32 f, f; mov.b32 %0, f;"
                     " add.u32 %0, %0, 0x0ffffffe;}" : "+r"(x));
    }
};
struct CvtU32F32 { /* F2I.FTZ.U32.TRUNC; its values are 0 from the second link on */
    typedef uint32_t word;
    static __device__ word first(word s) { return s; }
    static __device__ void step(word &x, word)
    {
        asm volatile("{.reg .f32 f; mov.b32 f, %0; cvt.rzi.ftz.u32.f32 %0, f;}" : "+r"(x));
    }
};

/* Each thread one chain of iters * ARITH_UNROLL links of Op, x and y from
 * memory (seed[64], x through Op::first); thread 0 of block 0 reports its
 * cycles. */
template <class Op>
__global__ void div_chain_kernel(const long long *seed, long iters, uint32_t *sink, long long *cycles)
{
    typename Op::word x = Op::first((typename Op::word)seed[(threadIdx.x + 1) & 31]),
                      y = (typename Op::word)seed[32 + (threadIdx.x & 31)];
    long long start = clock64();
    for (long k = 0; k < iters; k++) {
#pragma unroll
        for (int u = 0; u < ARITH_UNROLL; u++)
            Op::step(x, y);
    }
    long long stop = clock64();
    if ((uint32_t)x == 0x9e3779b9u) /* practically never: keeps the chain */
        *sink = (uint32_t)y;
    if (blockIdx.x == 0 && threadIdx.x == 0)
        *cycles = stop - start;
}

/* cycles a link of Op's chain in thread 0 of block 0, `blocks` blocks of
 * `threads` threads each running one chain: the median of REPEATS runs
 * after a warm-up.  seed: 32 starting values x, then 32 y. */
template <class Op>
static double div_link_cycles(const long long *seed, unsigned blocks, int threads, long iters)
{
    uint32_t *sink = dev_alloc_u32(1);
    long long *d_cycles, cycles;
    double per[REPEATS];
    CUDA_CHECK(cudaMalloc(&d_cycles, sizeof *d_cycles));
    for (int r = -1; r < REPEATS; r++) {
        div_chain_kernel<Op><<<blocks, threads>>>(seed, iters, sink, d_cycles);
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaMemcpy(&cycles, d_cycles, sizeof cycles, cudaMemcpyDeviceToHost));
        if (r >= 0)
            per[r] = (double)cycles / ((double)iters * ARITH_UNROLL);
    }
    CUDA_CHECK(cudaFree(d_cycles));
    CUDA_CHECK(cudaFree(sink));
    return median_of(per, REPEATS);
}

/* The stencil's load round, `steps` rounds a warp, each warp its own chain
 * of whole lines (whole_line_cycle over `lines` lines, a power of two,
 * stored from a[32]: a line of slack either side).  A round at line p: with
 * five, the stencil's loads of one cell a thread, g = 32p + lane, at g,
 * g-1, g+1 and a row of n = 256 words (8 lines) above and below (wrapping
 * round the lines), at once, cached as the stencil's (ld.global: the L1
 * and the L2); else the centre alone.  The next line is the centre's word;
 * with five it waits for the other four too (their least, < 2^31, shifted
 * down to nothing), without, for the centre's shifted alike.  Lane 0 writes
 * its warp's cycles a round. */
__global__ void stencil_round_kernel(const uint32_t *a, long steps, long stride, long lines, int five,
                                     double *per_round, uint32_t *sink)
{
    const long warp = ((long)blockIdx.x * blockDim.x + threadIdx.x) / 32, mask = lines - 1;
    const unsigned lane = threadIdx.x % 32;
    uint32_t p = (uint32_t)((warp * stride) & mask), acc = 0;
    long long start = clock64();
    for (long k = 0; k < steps; k++) {
        const long g = (long)p * 32 + lane;
        uint32_t v = a[g], least = v;
        if (five) {
            uint32_t left = a[g - 1], right = a[g + 1];
            uint32_t up = a[((p - 8) & mask) * 32 + lane], down = a[((p + 8) & mask) * 32 + lane];
            least = min(min(left, right), min(up, down));
        }
        acc ^= least;
        p = v + (least >> 31);
    }
    long long stop = clock64();
    if (lane == 0)
        per_round[warp] = (double)(stop - start) / steps;
    if (acc == 0x9e3779b9u)
        *sink = acc;
}

typedef struct {
    line_chase_arg chase; /* first: line_chase_stats hands it back to enqueue_stencil_round */
    long lines;
    int five;
} stencil_round_arg;

static void enqueue_stencil_round(void *arg)
{
    stencil_round_arg *r = (stencil_round_arg *)arg;
    stencil_round_kernel<<<r->chase.blocks, r->chase.threads>>>(r->chase.next + 32, r->chase.steps, r->chase.stride,
                                                                 r->lines, r->five, r->chase.per_line, r->chase.sink);
}

/* The stencil's occupancy (2 blocks of 256 threads on every SM), each warp
 * its rounds over 8 MiB of lines the L2 holds (warmed by the first launch)
 * and no L1 (the rounds wander over 32 times an L1): median cycles a round. */
static timing_stats stencil_round_stats(int sms, int five, rng_t *rng)
{
    const long lines = 1L << 16, steps = 256;
    uint32_t *next = whole_line_cycle(lines, rng);
    const unsigned blocks = (unsigned)(2 * sms);
    uint32_t *d_a = dev_alloc_u32((size_t)(lines + 2) * 32), *d_sink = dev_alloc_u32(1);
    CUDA_CHECK(cudaMemset(d_a, 0, sizeof *d_a * (size_t)(lines + 2) * 32));
    to_device(d_a + 32, next, (size_t)lines * 32);
    stencil_round_arg r = {{blocks, 256, d_a, NULL, 0, steps, lines / ((long)blocks * 8), NULL, d_sink, false},
                           lines, five};
    timing_stats st = line_chase_stats(enqueue_stencil_round, &r.chase);
    CUDA_CHECK(cudaFree(d_a));
    CUDA_CHECK(cudaFree(d_sink));
    free(next);
    return st;
}

/* The rows of the stencil's sweep (about a second of device time); with
 * probe, op_latency again beside them (the pair's glue is one addition). */
static void measure_stencil_rows(int sms, int probe, rng_t *rng)
{
    long long seed[64];
    for (int i = 0; i < 32; i++) {
        seed[i] = 1 + 12345 + 7919 * i;                   /* x: at most y */
        seed[32 + i] = (1LL << 30) + 104729LL * (i + 1); /* y: fits 31 bits */
    }
    long long *d_seed;
    CUDA_CHECK(cudaMalloc(&d_seed, sizeof seed));
    CUDA_CHECK(cudaMemcpy(d_seed, seed, sizeof seed, cudaMemcpyHostToDevice));
    static const char *const chain = "a dependent chain in which each link divides y (from memory, fits 31 bits) "
                                     "by the link before (the divisor's I2F.U32.RP, MUFU.RCP, F2I on the chain, "
                                     "as the stencil's thread computes once)";
    char how[400];
    snprintf(how, sizeof how, "one thread, %s: 32-bit unsigned y / x, cycles a link", chain);
    print_row("udiv32_latency", div_link_cycles<DivU32>(d_seed, 1, 1, 1 << 10), "cycles", how);
    snprintf(how, sizeof how, "one thread, %s: long (64-bit) y / x whose values fit 32 bits (nvcc's test, then "
             "its 32-bit path), cycles a link", chain);
    print_row("sdiv64_fits32_latency", div_link_cycles<DivS64>(d_seed, 1, 1, 1 << 10), "cycles", how);
    snprintf(how, sizeof how, "one thread, %s: long q = y / x, r = y %% x (the stencil's g / n, g %% n), next x = "
             "q + r, cycles a link (the glue, one addition, included)", chain);
    print_row("sdivrem64_fits32_latency", div_link_cycles<DivRemS64>(d_seed, 1, 1, 1 << 10), "cycles", how);
    const unsigned blocks = (unsigned)(2 * sms);
    print_row("udiv32_latency_blocks2", div_link_cycles<DivU32>(d_seed, blocks, 256, 1 << 8), "cycles",
              "udiv32_latency's chain in every thread of 2 blocks of 256 threads per SM on every SM (the "
              "stencil's occupancy): cycles a link of a warp");
    print_row("sdiv64_fits32_latency_blocks2", div_link_cycles<DivS64>(d_seed, blocks, 256, 1 << 8), "cycles",
              "sdiv64_fits32_latency's chain at 2 blocks of 256 threads per SM on every SM: cycles a link of a warp");
    print_row("sdivrem64_fits32_latency_blocks2", div_link_cycles<DivRemS64>(d_seed, blocks, 256, 1 << 8),
              "cycles", "sdivrem64_fits32_latency's chain at 2 blocks of 256 threads per SM on every SM: cycles a "
              "link of a warp");
    print_row("i2f_u32_latency", div_link_cycles<CvtF32U32>(d_seed, 1, 1, 1 << 10), "cycles",
              "one thread, a dependent chain of cvt.rp.f32.u32 on its own result's bits (I2F.U32.RP), cycles a link");
    print_row("mufu_rcp_latency", div_link_cycles<RcpF32>(d_seed, 1, 1, 1 << 10), "cycles",
              "one thread, a dependent chain of rcp.approx.ftz.f32 (MUFU.RCP) each followed by the division's "
              "add of 0x0ffffffe (IADD3: the glue, one addition, included), cycles a link");
    print_row("f2i_u32_latency", div_link_cycles<CvtU32F32>(d_seed, 1, 1, 1 << 10), "cycles",
              "one thread, a dependent chain of cvt.rzi.ftz.u32.f32 on its own result's bits (F2I.FTZ.U32.TRUNC; "
              "the values 0 from the second link), cycles a link");
    CUDA_CHECK(cudaFree(d_seed));
    static const char *const round = "2 blocks of 256 threads per SM on every SM, each warp a dependent chain of "
                                     "rounds over 8 MiB of lines in the L2 and in no L1 (ld.global, cached as the "
                                     "stencil's)";
    for (int five = 1; five >= 0; five--) {
        timing_stats st = stencil_round_stats(sms, five, rng);
        snprintf(how, sizeof how, "%s: %s, median over the warps of cycles a round", round,
                 five ? "the stencil's five loads of a cell a thread at once (g, g-1, g+1, g-256, g+256)"
                      : "the centre's load alone");
        print_row(five ? "stencil_round_latency" : "stencil_round_centre_latency", st.median_ms, "cycles", how);
        snprintf(how, sizeof how, "the same rounds: the warps' last quartile, cycles a round");
        print_row(five ? "stencil_round_latency_q3" : "stencil_round_centre_latency_q3", st.q3_ms, "cycles", how);
    }
    if (probe) {
        arith_buffers b = arith_buffers_open();
        print_row("op_latency", op_latency<OpAdd>(&b), "cycles", "as the full run's row of that name");
        arith_buffers_close(&b);
    }
}

typedef struct {
    const uint32_t *in;
    unsigned blocks;
    long iters;
    int pattern;
    uint32_t *sink;
} l1_arg;

static void enqueue_l1(void *arg)
{
    l1_arg *a = (l1_arg *)arg;
    l1_reread_kernel<<<a->blocks, 256>>>(a->in, a->iters, a->pattern, a->sink);
}

typedef struct {
    uint32_t *buf;
    long count;
    int stride, reps, write;
    unsigned blocks;
    uint32_t *sink;
} sector_arg;

static void enqueue_sectors(void *arg)
{
    sector_arg *a = (sector_arg *)arg;
    sector_stream_kernel<<<a->blocks, 256>>>(a->buf, a->count, a->stride, a->reps, a->write, a->sink);
}

/* `items` a run of fn(arg) moves, per cycle at mhz: the median of
 * REPEATS timed runs after a warm one */
static double items_per_cycle(enqueue_fn fn, void *arg, double items, double mhz)
{
    double v[REPEATS];
    fn(arg);
    CUDA_CHECK(cudaDeviceSynchronize());
    for (int r = 0; r < REPEATS; r++)
        v[r] = items / (time_ms(fn, arg) * 1e-3 * mhz * 1e6);
    return median_of(v, REPEATS);
}

/* elements per cycle, whole card, of a sector stream (after a warm run) */
static double sectors_per_cycle(sector_arg *a, double mhz)
{
    return items_per_cycle(enqueue_sectors, a, (double)a->count * a->reps, mhz);
}

typedef struct {
    const uint32_t *buf;
    int k, group, reps, cached;
    unsigned blocks;
    uint32_t *sink;
} random_arg;

static void enqueue_random(void *arg)
{
    random_arg *a = (random_arg *)arg;
    random_sector_kernel<<<a->blocks, 256>>>(a->buf, a->k, a->group, a->reps, a->cached, a->sink);
}

/* sectors per cycle, whole card, of scattered chunks (after a warm run) */
static double random_sectors_per_cycle(random_arg *a, double mhz)
{
    return items_per_cycle(enqueue_random, a, (double)((long)a->group << a->k) * a->reps, mhz);
}

static void enqueue_wavefront(void *arg)
{
    l1_arg *a = (l1_arg *)arg;
    l1_wavefront_kernel<<<a->blocks, 256>>>(a->in, a->iters, a->pattern, 0, a->sink);
}

static void enqueue_l1_lines(void *arg)
{
    l1_arg *a = (l1_arg *)arg;
    l1_lines_kernel<<<a->blocks, 256>>>(a->in, a->iters, a->pattern, 0, a->sink);
}

/* l1_lines_kernel's three shapes, 8 blocks of 256 threads per SM, warp
 * rounds per SM per cycle (after measure_scattered, which gives the one-line
 * round's rate beside them). */
static void measure_l1_lines(int sms, double mhz, uint32_t *buf, uint32_t *sink)
{
    CUDA_CHECK(cudaFuncSetAttribute(l1_lines_kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                                    cudaSharedmemCarveoutMaxL1));
    static const struct {
        const char *name, *how;
    } shape[] = {
        {"l1_lines16_banks2_rounds_per_sm_cycle",
         "as l1_unrolled_coalesced_rounds_per_sm_cycle, a round 16 lines, two sectors of each, the words in 2 "
         "banks (lane j word 16 j + u: Cooley-Tukey's dft_m)"},
        {"l1_lines32_banks1_rounds_per_sm_cycle",
         "the same, a round 32 lines, one sector of each, the words in 1 bank (lane j word 32 j + u)"},
        {"l1_lines32_banks32_rounds_per_sm_cycle",
         "the same, a round 32 lines, one sector of each, the words in 32 banks (lane j word 33 j + u)"},
    };
    for (int i = 0; i < 3; i++) {
        l1_arg a = {buf, (unsigned)(8 * sms), 1 << 10, i, sink};
        print_row(shape[i].name, items_per_cycle(enqueue_l1_lines, &a, 8.0 * 8 * 8 * (double)a.iters, mhz),
                  "rounds/SM/cycle", shape[i].how);
    }
}

/* The L1 with its loads unrolled, and sectors read in a scattered order
 * from the L2 and from DRAM (rows after the caches' first ones, so that
 * sessions before them keep their rows' meaning):
 *  - l1_unrolled_*: l1_wavefront_kernel, 8 blocks of 256 threads per SM,
 *    warp rounds per SM per cycle; l1_v4_read_bytes_per_sm_cycle, 16-byte
 *    loads: the L1's bytes per SM per cycle when the issue slots are not
 *    what limits it;
 *  - gmem_random_*: random_sector_kernel, 32 / group chunks of `group`
 *    sectors a warp's round, in no order, every sector of the buffer once
 *    a pass; 8 MiB (the L2 keeps it, 16 passes) and 1 GiB (DRAM, one pass,
 *    about 5 % of it left in the L2 by the run before). Whether DRAM
 *    fetches more than a sector for a scattered one: pairs and lines
 *    against single sectors. */
static void measure_scattered(int sms, double mhz, uint32_t *buf, uint32_t *sink)
{
    CUDA_CHECK(cudaFuncSetAttribute(l1_wavefront_kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                                    cudaSharedmemCarveoutMaxL1));
    static const struct {
        int pattern;
        double per_round;
        const char *name, *unit, *how;
    } l1[] = {
        {0, 1, "l1_unrolled_coalesced_rounds_per_sm_cycle", "rounds/SM/cycle",
         "as l1_coalesced_rounds_per_sm_cycle, 8 independent 32-bit loads an iteration at offsets the "
         "address carries (a round one line)"},
        {1, 1, "l1_unrolled_broadcast_rounds_per_sm_cycle", "rounds/SM/cycle",
         "the same, every lane of a warp reading one word (a round one sector)"},
        {3, 512, "l1_v4_read_bytes_per_sm_cycle", "bytes/SM/cycle",
         "the same with 16-byte loads, a round four lines: bytes an SM's L1 serves per cycle"},
    };
    double lines = 0;
    for (size_t i = 0; i < sizeof l1 / sizeof l1[0]; i++) {
        l1_arg a = {buf, (unsigned)(8 * sms), 1 << 12, l1[i].pattern, sink};
        double rate = items_per_cycle(enqueue_wavefront, &a, 8.0 * 8 * 8 * (double)a.iters * l1[i].per_round, mhz);
        print_row(l1[i].name, rate, l1[i].unit, l1[i].how);
        if (i == 0)
            lines = rate;
    }
    print_row("l1_line_read_per_sm_cycle", 32 * lines, "words/SM/cycle",
              "32 x l1_unrolled_coalesced_rounds_per_sm_cycle: words an SM's L1 serves per cycle, a line "
              "a round, when the issue slots do not limit it");
    static const struct {
        const char *name, *how;
        int k, group, reps, cached;
    } scattered[] = {
        {"gmem_random_sector_read_l2_card",
         "one word of each 32-byte sector of 8 MiB read (L2-only loads) in a scattered order, a warp's "
         "round 32 sectors of 32 lines, 16 passes", 18, 1, 16, 0},
        {"gmem_random_sector_read_l2_cached_card",
         "the same with cached loads (ld.ca; each sector read by one thread at every pass: the L1s serve about "
         "43 % of them, Nsight Compute)", 18, 1, 16, 1},
        {"gmem_random_pair_read_l2_card",
         "the same (L2-only), 64-byte chunks: two lanes read the two sectors of one", 17, 2, 16, 0},
        {"gmem_random_line_read_l2_card",
         "the same (L2-only), 128-byte lines: four lanes read the four sectors of one", 16, 4, 16, 0},
        {"gmem_random_sector_read_card",
         "one word of each 32-byte sector of 1 GiB read (L2-only loads) in a scattered order, one pass: "
         "DRAM", 25, 1, 1, 0},
        {"gmem_random_sector_read_cached_card",
         "the same over 1 GiB with cached loads (ld.ca)", 25, 1, 1, 1},
        {"gmem_random_pair_read_card",
         "the same over 1 GiB, 64-byte chunks: two lanes read the two sectors of one", 24, 2, 1, 0},
        {"gmem_random_line_read_card",
         "the same over 1 GiB, 128-byte lines: four lanes read the four sectors of one", 23, 4, 1, 0},
    };
    for (size_t i = 0; i < sizeof scattered / sizeof scattered[0]; i++) {
        random_arg a = {buf, scattered[i].k, scattered[i].group, scattered[i].reps, scattered[i].cached,
                        (unsigned)(8 * sms), sink};
        print_row(scattered[i].name, random_sectors_per_cycle(&a, mhz), "sectors/cycle", scattered[i].how);
    }
    /* what the L2 keeps of a scattered footprint: single sectors, cached
     * loads, over 4 to 64 MiB (8 MiB is the row above) */
    static const int footprint_mib[] = {4, 16, 32, 64};
    for (size_t i = 0; i < sizeof footprint_mib / sizeof footprint_mib[0]; i++) {
        const int mib = footprint_mib[i];
        random_arg a = {buf, 15 + __builtin_ctz((unsigned)mib), 1, mib <= 16 ? 16 : 4, 1, (unsigned)(8 * sms), sink};
        char name[64], how[200];
        snprintf(name, sizeof name, "gmem_random_sector_read_cached_%dm_card", mib);
        snprintf(how, sizeof how, "one word of each 32-byte sector of %d MiB read (cached loads) in a scattered "
                 "order, %d passes: what the L2 keeps of a scattered footprint", mib, a.reps);
        print_row(name, random_sectors_per_cycle(&a, mhz), "sectors/cycle", how);
    }
}

/* --read-after-write-only (a probe): `mib` MiB read (L2-only loads, 8
 * blocks of 256 threads an SM, grid-stride) right after they were written,
 * the L2 emptied of them first by a 256 MiB read elsewhere, as
 * gmem_read_after_write_card at other footprints; by a kernel (written =
 * 0, as that row), or by a device-to-device copy (written = 1, as the
 * cases' protocol restores its inputs), or read twice (written = 2: the
 * second read timed, as gmem_reread_card_*, the same launches otherwise),
 * or by a kernel writing one word of each 32-byte sector (written = 3,
 * gmem_read_after_partial_write_card).  Words per cycle, whole card, the
 * median of REPEATS, each from scratch. */
static double read_after_write_sized(uint32_t *buf, long card_words, int mib, int written, int sms, double mhz)
{
    const long words = (long)mib << 18;
    uint32_t *sink = dev_alloc_u32(1);
    cudaEvent_t start, stop;
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    double v[REPEATS];
    for (int r = -1; r < REPEATS; r++) { /* r = -1: a warm-up */
        sector_arg evict = {buf + card_words / 2, 64L << 20, 1, 1, 0, (unsigned)(8 * sms), sink};
        sector_arg write = {buf, written == 3 ? words / 8 : words, written == 3 ? 8 : 1, 1, written == 0 || written == 3,
                            (unsigned)(8 * sms), sink};
        sector_arg read = {buf, words, 1, 1, 0, (unsigned)(8 * sms), sink};
        enqueue_sectors(&evict);
        if (written == 1)
            CUDA_CHECK(cudaMemcpyAsync(buf, buf + card_words / 4, (size_t)words * 4, cudaMemcpyDeviceToDevice, 0));
        else
            enqueue_sectors(&write);
        CUDA_CHECK(cudaEventRecord(start, 0));
        enqueue_sectors(&read);
        CUDA_CHECK(cudaEventRecord(stop, 0));
        CUDA_CHECK(cudaEventSynchronize(stop));
        CUDA_CHECK(cudaGetLastError());
        float ms = 0.0f;
        CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
        if (r >= 0)
            v[r] = words / (ms * 1e-3 * mhz * 1e6);
    }
    CUDA_CHECK(cudaEventDestroy(start));
    CUDA_CHECK(cudaEventDestroy(stop));
    CUDA_CHECK(cudaFree(sink));
    return median_of(v, REPEATS);
}

/* Words per cycle, whole card, of one read of 32 MiB at the start of buf
 * (L2-only loads), right after it was written (partial: one word of each
 * sector, the region out of the L2 before: 256 MiB read elsewhere first;
 * else every word); the median of REPEATS, each from scratch. */
static double read_after_write_rate(uint32_t *buf, long card_words, int partial, int sms, double mhz)
{
    return read_after_write_sized(buf, card_words, 32, partial ? 3 : 0, sms, mhz);
}

/* The rows of read_after_write_sized at 1 to 48 MiB, each way. */
static void measure_read_after_write_sizes(int sms, double mhz)
{
    const long card_words = 1L << 28;
    uint32_t *buf;
    CUDA_CHECK(cudaMalloc(&buf, (size_t)card_words * 4));
    CUDA_CHECK(cudaMemset(buf, 0x5a, (size_t)card_words * 4));
    static const int mib[] = {1, 2, 4, 8, 12, 16, 24, 32, 48};
    static const char *const ways[3] = {"gmem_read_after_write_card", "gmem_read_after_copy_card",
                                        "gmem_read_again_card"};
    static const char *const hows[3] = {"right after a kernel wrote all of it", "right after a device-to-device "
                                        "copy wrote all of it", "the second of two reads, nothing written"};
    for (int w = 0; w < 3; w++)
        for (size_t f = 0; f < sizeof mib / sizeof mib[0]; f++) {
            char name[64], how[300];
            snprintf(name, sizeof name, "%s_%dm", ways[w], mib[f]);
            snprintf(how, sizeof how, "%d MiB read (L2-only loads, 8 blocks of 256 threads an SM) %s, the L2 "
                     "emptied of it first by 256 MiB read elsewhere", mib[f], hows[w]);
            print_row(name, read_after_write_sized(buf, card_words, mib[f], w, sms, mhz), "words/cycle", how);
        }
    CUDA_CHECK(cudaFree(buf));
}

typedef struct {
    uint32_t *buf;
    long count;
    int reps;
    unsigned blocks;
} pair_arg;

static void enqueue_pair_write(void *arg)
{
    pair_arg *a = (pair_arg *)arg;
    pair_write_kernel<<<a->blocks, 256>>>(a->buf, a->count, a->reps);
}

/* Partial sectors written into the L2 (validate/notes/cache-hierarchy.md,
 * session 46): whether the L2 takes a store a sector request whatever its
 * words (a partial sector the cost of a whole one, or the partial row's),
 * and whether it merges the parts of a sector two rounds write before it
 * writes it back.  8 blocks of 256 threads per SM, words per cycle, whole
 * card (buf: at least 1 GiB):
 *  - gmem_write_l2_shift1_card: gmem_write_l2_card's stream (8 MiB, 64
 *    passes) from one word past a 32-byte sector: a warp's round five
 *    sectors, its first and last in part (the next and the previous
 *    round complete them), as plain multiplication's rows of y = n + s − 1
 *    words are written;
 *  - gmem_write_shift1_card: the same over 1 GiB, one pass: the parts
 *    merged in the L2 before their write-back, or written back partial;
 *  - gmem_write_l2_stride2_card, gmem_write_l2_stride4_card: every second
 *    (fourth) word over 8 MiB, 64 passes: a round 8 (16) sectors, each held
 *    half (a quarter) by it, the rest never written;
 *  - gmem_write_l2_pairs_card: words 2e and 2e + 1 by two stores of
 *    thread e (pair_write_kernel) over 8 MiB, 64 passes: every sector half
 *    written by each of two successive rounds. */
static void measure_partial_writes(int sms, double mhz, uint32_t *buf, uint32_t *sink)
{
    const long l2_words = 2L << 20, card_words = 1L << 28; /* 8 MiB, 1 GiB */
    const unsigned blocks = (unsigned)(8 * sms);
    static const char *const names[4] = {"gmem_write_l2_shift1_card", "gmem_write_shift1_card",
                                         "gmem_write_l2_stride2_card", "gmem_write_l2_stride4_card"};
    static const char *const hows[4] = {
        "32-bit words written over 8 MiB from one word past a 32-byte sector, 64 passes: a warp's round 5 "
        "sectors, its first and last in part, completed by the next and the previous round",
        "the same over 1 GiB, one pass: the parts merged in the L2 before their write-back, or not",
        "every second 32-bit word written over 8 MiB, 64 passes: a round 8 sectors, each half written",
        "every fourth 32-bit word written over 8 MiB, 64 passes: a round 16 sectors, each a quarter written"};
    const long counts[4] = {l2_words - 8, card_words - 8, l2_words / 2, l2_words / 4};
    const int strides[4] = {1, 1, 2, 4}, reps[4] = {64, 1, 64, 64};
    for (int i = 0; i < 4; i++) {
        sector_arg a = {buf + (i < 2 ? 1 : 0), counts[i], strides[i], reps[i], 1, blocks, sink};
        print_row(names[i], sectors_per_cycle(&a, mhz), "words/cycle", hows[i]);
    }
    pair_arg pairs = {buf, l2_words / 2, 64, blocks};
    print_row("gmem_write_l2_pairs_card",
              items_per_cycle(enqueue_pair_write, &pairs, 2.0 * (double)pairs.count * pairs.reps, mhz), "words/cycle",
              "words 2e and 2e + 1 written by two stores of thread e over 8 MiB, 64 passes: every 32-byte sector "
              "half written by each of two successive rounds");
}

/* --partial-writes-only: measure_partial_writes beside the full run's
 * rows it is read against (gmem_write_l2_card, gmem_write_card and
 * gmem_partial_write_l2_card, as measure_caches measures them), a probe. */
static void measure_partial_writes_probe(int sms, double mhz)
{
    const long l2_words = 2L << 20, card_words = 1L << 28;
    uint32_t *buf, *sink = dev_alloc_u32(1);
    CUDA_CHECK(cudaMalloc(&buf, (size_t)card_words * 4));
    CUDA_CHECK(cudaMemset(buf, 0x5a, (size_t)card_words * 4));
    sector_arg rows[3] = {{buf, l2_words, 1, 64, 1, (unsigned)(8 * sms), sink},
                          {buf, card_words, 1, 1, 1, (unsigned)(8 * sms), sink},
                          {buf, l2_words / 8, 8, 64, 1, (unsigned)(8 * sms), sink}};
    static const char *const names[3] = {"gmem_write_l2_card", "gmem_write_card", "gmem_partial_write_l2_card"};
    static const char *const units[3] = {"words/cycle", "words/cycle", "sectors/cycle"};
    for (int i = 0; i < 3; i++)
        print_row(names[i], sectors_per_cycle(&rows[i], mhz), units[i], "as measure_caches measures it");
    measure_partial_writes(sms, mhz, buf, sink);
    CUDA_CHECK(cudaFree(buf));
    CUDA_CHECK(cudaFree(sink));
}

/* The memory between the SM and DRAM (sim/exec/cache.h takes its constants
 * from these rows; validate/notes/cache-hierarchy.md):
 *  - the L1's capacity: one thread chases a random cycle of lines (one
 *    word of each 128-byte line) over footprints of 16 KiB to 512 KiB,
 *    the kernel set to the largest L1 the SM allows; l1_bytes is the
 *    largest footprint whose load latency is still nearer the L1's (the
 *    smallest footprint) than the L2's (the largest): above it the cycle's
 *    lines no longer all stay;
 *  - the L1's hit latency (16 KiB) and its throughput: 8 blocks of 256
 *    threads per SM re-reading their own 4 KiB with 32-bit loads, a
 *    warp's round one line (coalesced), one sector (every lane the same
 *    word) or 32 lines (a sector each);
 *  - a load after a store to its sector, and after a store to another
 *    sector of its line, on the same SM: whether a store leaves its sector
 *    in the L1 (the latency stays the L1's), drops it, or drops the line;
 *  - the L2's capacity seen by every SM: the card re-reading footprints of
 *    8 to 96 MiB with L2-only loads; l2_bytes_measured, the largest
 *    footprint whose rate is still nearer the 8 MiB one than DRAM's
 *    (gmem_read_card); the machine keeps the documented l2_bytes;
 *  - writes, L2 hits against misses: whole sectors (32-bit words, every
 *    word) and partial ones (one word of each 32-byte sector), over an
 *    8 MiB buffer written again and again (the L2 keeps it) and over
 *    1 GiB (every sector written back to DRAM); reads of one word a
 *    sector, from the L2 and from DRAM; and a read of sectors the L2 holds
 *    whole (just written) against sectors it holds in part (one word just
 *    written). */
static void measure_caches(int sms, double mhz, rng_t *rng)
{
    CUDA_CHECK(cudaFuncSetAttribute(chase_warm_kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                                    cudaSharedmemCarveoutMaxL1));
    CUDA_CHECK(cudaFuncSetAttribute(l1_reread_kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                                    cudaSharedmemCarveoutMaxL1));
    static const int kib[] = {16, 32, 64, 96, 128, 160, 176, 192, 208, 224, 240, 256, 272, 288, 320, 384, 512};
    enum { FOOTPRINTS = sizeof kib / sizeof kib[0] };
    double lat[FOOTPRINTS];
    for (int f = 0; f < FOOTPRINTS; f++) {
        char name[48], how[200];
        lat[f] = chase_lines_cycles((long)kib[f] * 1024 / 128, 1, 0, rng);
        snprintf(name, sizeof name, "l1_chase_%dk", kib[f]);
        snprintf(how, sizeof how, "one thread, dependent cached loads over a random cycle of %d KiB of "
                 "128-byte lines (one word a line), after a warm pass in the same kernel", kib[f]);
        print_row(name, lat[f], "cycles", how);
    }
    const double near = (lat[0] + lat[FOOTPRINTS - 1]) / 2;
    int fits = 0;
    for (int f = 0; f < FOOTPRINTS; f++)
        if (lat[f] <= near)
            fits = f;
    print_row("l1_load_latency", lat[0], "cycles", "= l1_chase_16k: a dependent load the L1 serves");
    print_row("l1_bytes", kib[fits] * 1024.0, "bytes",
              "the largest l1_chase_* footprint whose latency is at most the mean of l1_chase_16k and "
              "l1_chase_512k (the L1's and the L2's)");
    print_row("l1_load_after_store_latency", chase_lines_cycles(128, 1, 1, rng), "cycles",
              "as l1_chase_16k, each load followed by a store into the sector it read: the L1's latency "
              "if a store leaves its sector there, the L2's if it drops it");
    print_row("l1_load_after_store_other_sector_latency", chase_lines_cycles(128, 1, 8, rng), "cycles",
              "the same, the store into the next sector of the line: the L2's latency if a store drops "
              "its whole line from the L1");
    print_row("l2_chase_16k", chase_lines_cycles(128, 0, 0, rng), "cycles",
              "as l1_chase_16k with L2-only loads (ld.global.cg): a dependent load the L2 serves");

    uint32_t *buf, *sink = dev_alloc_u32(1);
    const long card_words = 1L << 28; /* 1 GiB */
    CUDA_CHECK(cudaMalloc(&buf, (size_t)card_words * 4));
    CUDA_CHECK(cudaMemset(buf, 0x5a, (size_t)card_words * 4));
    const char *const patterns[] = {"coalesced (one line)", "a broadcast (one sector)", "scattered (32 lines)"};
    const char *const names[] = {"l1_coalesced_rounds_per_sm_cycle", "l1_broadcast_rounds_per_sm_cycle",
                                 "l1_scatter_rounds_per_sm_cycle"};
    double rounds[3];
    for (int pattern = 0; pattern < 3; pattern++) {
        l1_arg a = {buf, (unsigned)(8 * sms), 1 << 12, pattern, sink};
        /* warps x rounds, per SM */
        rounds[pattern] = items_per_cycle(enqueue_l1, &a, 8.0 * 8 * 4 * (double)a.iters, mhz);
        char how[200];
        snprintf(how, sizeof how, "8 blocks of 256 threads per SM re-read their own 4 KiB with cached "
                 "32-bit loads, each warp round %s; warp rounds per SM per cycle", patterns[pattern]);
        print_row(names[pattern], rounds[pattern], "rounds/SM/cycle", how);
    }
    print_row("l1_read_per_sm_cycle", 32 * rounds[0], "words/SM/cycle",
              "32 x l1_coalesced_rounds_per_sm_cycle: words an SM's L1 serves per cycle");

    static const int mib[] = {8, 16, 24, 32, 40, 48, 56, 64, 80, 96};
    enum { SIZES = sizeof mib / sizeof mib[0] };
    double rate[SIZES];
    for (int f = 0; f < SIZES; f++) {
        long bytes = (long)mib[f] << 20;
        reread_arg a = {(const uint4 *)buf, bytes / 16, (int)(1024 / mib[f]), (unsigned)(8 * sms), 256,
                        (unsigned *)sink};
        rate[f] = reread_bytes_per_s(&a) / 4 / (mhz * 1e6);
        char name[48], how[200];
        snprintf(name, sizeof name, "gmem_reread_card_%dm", mib[f]);
        snprintf(how, sizeof how, "8 blocks of 256 threads per SM re-read %d MiB with 16-byte L2-only loads, "
                 "words per cycle, whole card", mib[f]);
        print_row(name, rate[f], "words/cycle", how);
    }
    stream_arg dram = {(const uint4 *)buf, NULL, card_words / 4, (unsigned)(8 * sms), 256, (unsigned *)sink};
    const double dram_rate = stream_bytes_per_s(enqueue_read, &dram, (double)card_words * 4) / 4 / (mhz * 1e6);
    int l2_fits = 0;
    for (int f = 0; f < SIZES; f++)
        if (rate[f] >= (rate[0] + dram_rate) / 2)
            l2_fits = f;
    print_row("l2_bytes_measured", (double)((long)mib[l2_fits] << 20), "bytes",
              "the largest gmem_reread_card_* footprint whose rate is at least the mean of the 8 MiB one "
              "and DRAM's (gmem_read_card, this run): the L2 every SM sees");

    const long l2_words = 2L << 20; /* 8 MiB */
    struct {
        const char *name, *unit, *how;
        long count;
        int stride, reps, write;
    } streams[] = {
        {"gmem_write_l2_card", "words/cycle",
         "8 blocks of 256 threads per SM write 32-bit words over 8 MiB, 64 passes (the L2 keeps them)",
         l2_words, 1, 64, 1},
        {"gmem_write_card", "words/cycle",
         "the same over 1 GiB, one pass (every sector written back to DRAM)", card_words, 1, 1, 1},
        {"gmem_partial_write_l2_card", "sectors/cycle",
         "one 32-bit word of each 32-byte sector written over 8 MiB, 64 passes: partial sectors the L2 "
         "keeps", l2_words / 8, 8, 64, 1},
        {"gmem_partial_write_card", "sectors/cycle",
         "the same over 1 GiB, one pass: partial sectors written back to DRAM", card_words / 8, 8, 1, 1},
        {"gmem_sector_read_l2_card", "sectors/cycle",
         "one 32-bit word of each 32-byte sector read (L2-only loads) over 8 MiB, 64 passes", l2_words / 8, 8, 64, 0},
        {"gmem_sector_read_card", "sectors/cycle",
         "the same over 1 GiB, one pass: one word a sector from DRAM", card_words / 8, 8, 1, 0},
    };
    for (size_t i = 0; i < sizeof streams / sizeof streams[0]; i++) {
        sector_arg a = {buf, streams[i].count, streams[i].stride, streams[i].reps, streams[i].write,
                        (unsigned)(8 * sms), sink};
        print_row(streams[i].name, sectors_per_cycle(&a, mhz), streams[i].unit, streams[i].how);
    }
    measure_partial_writes(sms, mhz, buf, sink);
    for (int partial = 0; partial < 2; partial++) {
        const char *name = partial ? "gmem_read_after_partial_write_card" : "gmem_read_after_write_card";
        print_row(name, read_after_write_rate(buf, card_words, partial, sms, mhz), "words/cycle",
                  partial ? "32 MiB read (L2-only loads) right after one word of each of its 32-byte sectors "
                            "was written, the rest not held by the L2: from DRAM if the L2 fetches the rest "
                            "of a sector it holds in part"
                          : "32 MiB read (L2-only loads) right after all of it was written: from the L2");
    }
    measure_scattered(sms, mhz, buf, sink);
    measure_l1_lines(sms, mhz, buf, sink);
    CUDA_CHECK(cudaFree(buf));
    CUDA_CHECK(cudaFree(sink));
}

/* ---- device description --------------------------------------------------- */

static int attribute(cudaDeviceAttr attr)
{
    int v = 0;
    CUDA_CHECK(cudaDeviceGetAttribute(&v, attr, 0));
    return v;
}

static void print_device_info(void)
{
    cudaDeviceProp prop;
    int driver = 0, runtime = 0;
    CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
    CUDA_CHECK(cudaDriverGetVersion(&driver));
    CUDA_CHECK(cudaRuntimeGetVersion(&runtime));
    printf("name: %s\n", prop.name);
    printf("compute capability: %d.%d\n", prop.major, prop.minor);
    printf("multiprocessors (SMs): %d\n", prop.multiProcessorCount);
    printf("max SM clock (attribute): %d MHz\n",
           attribute(cudaDevAttrClockRate) / 1000);
    printf("memory clock (attribute): %d MHz\n",
           attribute(cudaDevAttrMemoryClockRate) / 1000);
    printf("memory bus width: %d bits\n", prop.memoryBusWidth);
    printf("global memory: %.1f GiB\n",
           (double)prop.totalGlobalMem / (1024.0 * 1024.0 * 1024.0));
    printf("L2 cache: %.1f MiB\n", prop.l2CacheSize / (1024.0 * 1024.0));
    printf("shared memory per SM: %zu KiB\n",
           prop.sharedMemPerMultiprocessor / 1024);
    printf("shared memory per block (opt-in): %zu KiB\n",
           prop.sharedMemPerBlockOptin / 1024);
    printf("registers per SM: %d\n", prop.regsPerMultiprocessor);
    printf("max threads per SM: %d, per block: %d, warp size: %d\n",
           prop.maxThreadsPerMultiProcessor, prop.maxThreadsPerBlock,
           prop.warpSize);
    printf("CUDA driver version: %d.%d\n", driver / 1000, (driver % 1000) / 10);
    printf("CUDA runtime version: %d.%d\n", runtime / 1000,
           (runtime % 1000) / 10);
}

/* ---- main ------------------------------------------------------------------ */

static void measure_memory(int sms, double mhz)
{
    const long card_bytes = 1L << 30, sm_bytes = 1L << 28;
    uint4 *in, *out;
    unsigned *sink;
    CUDA_CHECK(cudaMalloc(&in, (size_t)card_bytes));
    CUDA_CHECK(cudaMalloc(&out, (size_t)card_bytes));
    CUDA_CHECK(cudaMalloc(&sink, sizeof(unsigned)));
    CUDA_CHECK(cudaMemset(in, 0x5a, (size_t)card_bytes));
    const double hz = mhz * 1e6;

    stream_arg one_sm = {in, out, sm_bytes / 16, 1, 1024, sink};
    double sm_rate = stream_bytes_per_s(enqueue_read, &one_sm, (double)sm_bytes);
    print_row("gmem_read_one_sm", sm_rate / 4 / hz, "words/cycle",
              "one block of 1024 threads reads 256 MiB with 16-byte loads");
    print_row("gmem_read_one_sm_bw", sm_rate / 1e9, "GB/s", "same run");
    print_row("U_one_sm", hz * 4 / sm_rate, "cycles/word",
              "1 / (words per cycle of one streaming block)");

    stream_arg card = {in, out, card_bytes / 16, (unsigned)(8 * sms), 256, sink};
    double read_rate = stream_bytes_per_s(enqueue_read, &card, (double)card_bytes);
    print_row("gmem_read_card", read_rate / 4 / hz, "words/cycle",
              "8 blocks of 256 threads per SM read 1 GiB with 16-byte loads");
    print_row("gmem_read_card_bw", read_rate / 1e9, "GB/s", "same run");
    print_row("gmem_read_per_sm_when_all_stream", read_rate / 4 / hz / sms,
              "words/cycle", "card read rate divided by the SM count");
    double copy_rate = stream_bytes_per_s(enqueue_copy, &card,
                                          2.0 * (double)card_bytes);
    print_row("gmem_copy_card", copy_rate / 4 / hz, "words/cycle",
              "copy 1 GiB, bytes read + written, 8 blocks of 256 threads per SM");
    print_row("gmem_copy_card_bw", copy_rate / 1e9, "GB/s", "same run");
    print_row("gmem_read_card_dram", read_rate / 4 / hz, "words/cycle",
              "= gmem_read_card: 1 GiB, 20 times the L2, comes from DRAM");
    const long words = card_bytes / 4 - 8; /* 1 GiB arrays less the shift */
    words_arg add = {(const unsigned *)in, (unsigned *)out, NULL, words, 0, (unsigned)(8 * sms), 256};
    unsigned *third;
    CUDA_CHECK(cudaMalloc(&third, (size_t)card_bytes));
    add.c = third;
    double add_rate = stream_bytes_per_s(enqueue_words, &add, 12.0 * (double)words);
    print_row("gmem_add_card", add_rate / 4 / hz, "words/cycle",
              "c[i] = a[i] + b[i] over 1 GiB arrays of 32-bit words, words read + written, 8 blocks of "
              "256 threads per SM");
    print_row("gmem_add_card_bw", add_rate / 1e9, "GB/s", "same run");
    CUDA_CHECK(cudaFree(third));
    words_arg rmw = {(const unsigned *)in, (unsigned *)out, NULL, words, 0, (unsigned)(8 * sms), 256};
    double rmw_rate = stream_bytes_per_s(enqueue_words, &rmw, 12.0 * (double)words);
    print_row("gmem_rmw_card", rmw_rate / 4 / hz, "words/cycle",
              "b[i] += a[i] over 1 GiB arrays of 32-bit words, words read + written, same grid");
    print_row("gmem_rmw_card_bw", rmw_rate / 1e9, "GB/s", "same run");
    rmw.shift = 4;
    double shifted_rate = stream_bytes_per_s(enqueue_words, &rmw, 12.0 * (double)words);
    print_row("gmem_rmw_shift4_card", shifted_rate / 4 / hz, "words/cycle",
              "b[i + 4] += a[i] (16 bytes off a warp's 128, as plain multiplication's AddKer at s = 4), "
              "same arrays and grid");
    print_row("gmem_rmw_shift4_card_bw", shifted_rate / 1e9, "GB/s", "same run");

    const long l2_bytes = 8L << 20;   /* 8 MiB: well inside a 50 MiB L2 */
    reread_arg sm_l2 = {in, l2_bytes / 16, 8, 1, 1024, sink};
    double sm_l2_rate = reread_bytes_per_s(&sm_l2);
    print_row("gmem_read_one_sm_l2", sm_l2_rate / 4 / hz, "words/cycle",
              "one block of 1024 threads reads an 8 MiB buffer 8 times with 16-byte L2-only loads "
              "(__ldcg; L2-resident after a warm pass)");
    reread_arg card_l2 = {in, l2_bytes / 16, 256, (unsigned)(8 * sms), 256, sink};
    double card_l2_rate = reread_bytes_per_s(&card_l2);
    print_row("gmem_read_card_l2", card_l2_rate / 4 / hz, "words/cycle",
              "8 blocks of 256 threads per SM read an 8 MiB buffer 256 times with 16-byte L2-only "
              "loads (__ldcg: each SM's 64 KiB share would otherwise stay in its L1)");
    print_row("U_l2_one_sm", hz * 4 / sm_l2_rate, "cycles/word", "1 / gmem_read_one_sm_l2");
    print_row("U_dram_one_sm", hz * 4 / sm_rate, "cycles/word", "1 / gmem_read_one_sm (256 MiB: DRAM)");
    print_row("U_l2_all_sms", hz * 4 * sms / card_l2_rate, "cycles/word",
              "SM count / gmem_read_card_l2: one SM's share when all stream from the L2");
    print_row("U_dram_all_sms", hz * 4 * sms / read_rate, "cycles/word",
              "SM count / gmem_read_card: one SM's share when all stream from DRAM");
    CUDA_CHECK(cudaFree(in));
    CUDA_CHECK(cudaFree(out));
    CUDA_CHECK(cudaFree(sink));
}

/* ---- a kernel's code, cold at its first launch in a graph ---------------
 * straight_kernel<K>: K dependent multiply-adds a thread, unrolled, so its
 * code is about K SASS instructions of 16 bytes.  One block of 32 threads
 * on every SM.  Graphs of one kernel, of the same kernel twice, and of two
 * kernels of the same size but different code (K and K + 1), each timed
 * as the cases' protocol times a graph (graph_round_us: fresh, after a
 * copy).  The first kernel of a graph costs beyond the second what the
 * second finds ready (its code in the SMs' instruction caches, its
 * function loaded): first_beyond_second = 2·T(one) − T(same twice), less
 * the kernel boundary; its growth with K is the cost of fetching code
 * cold, its value at the smallest K what a first kernel costs whatever
 * its size. */
template <int K>
__global__ void straight_kernel(uint32_t *out, uint32_t a, uint32_t b)
{
    uint32_t x = threadIdx.x;
#pragma unroll
    for (int i = 0; i < K; i++)
        x = x * a + b;
    out[blockIdx.x * 32 + threadIdx.x] = x;
}

typedef struct code_graph {
    int first, second; /* K of the first and of the second kernel; second 0: one kernel */
    unsigned blocks;
    uint32_t *out;
} code_graph;

static void launch_straight(int k, const code_graph *g, cudaStream_t stream)
{
    switch (k) {
    case 32: straight_kernel<32><<<g->blocks, 32, 0, stream>>>(g->out, 3u, 7u); break;
    case 33: straight_kernel<33><<<g->blocks, 32, 0, stream>>>(g->out, 3u, 7u); break;
    case 512: straight_kernel<512><<<g->blocks, 32, 0, stream>>>(g->out, 3u, 7u); break;
    case 513: straight_kernel<513><<<g->blocks, 32, 0, stream>>>(g->out, 3u, 7u); break;
    case 2048: straight_kernel<2048><<<g->blocks, 32, 0, stream>>>(g->out, 3u, 7u); break;
    case 2049: straight_kernel<2049><<<g->blocks, 32, 0, stream>>>(g->out, 3u, 7u); break;
    default: fprintf(stderr, "constants: no straight_kernel<%d>\n", k); exit(1);
    }
    CUDA_CHECK(cudaGetLastError());
}

static void capture_code_graph(void *ctx, cudaStream_t stream)
{
    const code_graph *g = (const code_graph *)ctx;
    launch_straight(g->first, g, stream);
    if (g->second)
        launch_straight(g->second, g, stream);
}

static void measure_code_fetch(int sms)
{
    const size_t copy_words = 16384;
    uint32_t *src = dev_alloc_u32(copy_words), *dst = dev_alloc_u32(copy_words);
    CUDA_CHECK(cudaMemset(src, 0, copy_words * sizeof *src));
    uint32_t *out = dev_alloc_u32((size_t)sms * 32);
    static const int sizes[3] = {32, 512, 2048};
    double beyond[3];
    for (int i = 0; i < 3; i++) {
        int k = sizes[i];
        code_graph one = {k, 0, (unsigned)sms, out}, same = {k, k, (unsigned)sms, out},
                   other = {k, k + 1, (unsigned)sms, out};
        const graph_job jobs[3] = {{capture_code_graph, NULL, &one}, {capture_code_graph, NULL, &same},
                                   {capture_code_graph, NULL, &other}};
        double us[3];
        for (int j = 0; j < 3; j++)
            us[j] = graph_round_us(&jobs[j], 1, 1, dst, src, copy_words, 101);
        char name[64], text[300];
        static const char *const what[3] = {"one straight_kernel", "the same straight_kernel twice",
                                            "two straight_kernels of different code"};
        static const char *const suffix[3] = {"one", "same2", "other2"};
        for (int j = 0; j < 3; j++) {
            snprintf(name, sizeof name, "graph_code_%d_%s", k, suffix[j]);
            snprintf(text, sizeof text, "a graph of %s of %d dependent multiply-adds a thread (about %d bytes "
                     "of code; 1 block of 32 threads per SM), the cases' protocol, median of 101 rounds",
                     what[j], k, 16 * k);
            print_row(name, us[j], "us", text);
        }
        beyond[i] = 2 * us[0] - us[1];
        snprintf(name, sizeof name, "code_first_beyond_second_%d", k);
        snprintf(text, sizeof text, "2 graph_code_%d_one - graph_code_%d_same2: the first kernel of a graph "
                 "beyond the second, less the kernel boundary", k, k);
        print_row(name, beyond[i], "us", text);
        snprintf(name, sizeof name, "code_other_beyond_same_%d", k);
        snprintf(text, sizeof text, "graph_code_%d_other2 - graph_code_%d_same2: a second kernel of other "
                 "code beyond the same kernel again", k, k);
        print_row(name, us[2] - us[1], "us", text);
    }
    print_row("code_cold_per_kib", (beyond[2] - beyond[0]) / ((2048 - 32) * 16 / 1024.0), "us",
              "(code_first_beyond_second_2048 - code_first_beyond_second_32) per KiB of code between them: "
              "fetching a kernel's code cold, per KiB");
    CUDA_CHECK(cudaFree(src));
    CUDA_CHECK(cudaFree(dst));
    CUDA_CHECK(cudaFree(out));
}

/* ---- reading what the protocol's restore just copied ---------------------
 * The cases' protocol copies a point's inputs (device to device) before
 * each timed replay.  A graph of one kernel reading W words (a block of
 * 256 threads per SM, grid-stride, one sum a thread), timed as the cases
 * are, with the copy written into the words it reads, and with the same
 * copy written elsewhere: the difference is what reading freshly copied
 * words costs beyond reading words copied earlier. */
__global__ void read_sum_kernel(const uint32_t *in, unsigned words, uint32_t *out)
{
    uint32_t acc = 0;
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < words; i += gridDim.x * blockDim.x)
        acc += in[i];
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

typedef struct read_graph {
    const uint32_t *in;
    unsigned words, blocks;
    uint32_t *out;
} read_graph;

static void capture_read_graph(void *ctx, cudaStream_t stream)
{
    const read_graph *g = (const read_graph *)ctx;
    read_sum_kernel<<<g->blocks, 256, 0, stream>>>(g->in, g->words, g->out);
    CUDA_CHECK(cudaGetLastError());
}

static void measure_read_after_copy(int sms)
{
    static const unsigned sizes[2] = {16384, 262144}; /* 64 KiB and 1 MiB */
    const unsigned most = 262144;
    uint32_t *src = dev_alloc_u32(most), *read = dev_alloc_u32(most), *other = dev_alloc_u32(most),
             *out = dev_alloc_u32((size_t)sms * 256);
    CUDA_CHECK(cudaMemset(src, 1, most * sizeof *src));
    CUDA_CHECK(cudaMemset(read, 1, most * sizeof *read));
    for (int i = 0; i < 2; i++) {
        unsigned w = sizes[i];
        read_graph g = {read, w, (unsigned)sms, out};
        const graph_job job = {capture_read_graph, NULL, &g};
        double copied = graph_round_us(&job, 1, 1, read, src, w, 101);
        double elsewhere = graph_round_us(&job, 1, 1, other, src, w, 101);
        char name[64], text[300];
        snprintf(name, sizeof name, "graph_read_copied_%u", w);
        snprintf(text, sizeof text, "a graph of one kernel reading %u words (a block of 256 threads per SM), "
                 "the cases' protocol with its copy written into those words, median of 101 rounds", w);
        print_row(name, copied, "us", text);
        snprintf(name, sizeof name, "graph_read_elsewhere_%u", w);
        snprintf(text, sizeof text, "the same, the copy of %u words written into other words", w);
        print_row(name, elsewhere, "us", text);
        snprintf(name, sizeof name, "read_after_copy_extra_%u", w);
        snprintf(text, sizeof text, "graph_read_copied_%u - graph_read_elsewhere_%u", w, w);
        print_row(name, copied - elsewhere, "us", text);
    }
    CUDA_CHECK(cudaFree(src));
    CUDA_CHECK(cudaFree(read));
    CUDA_CHECK(cudaFree(other));
    CUDA_CHECK(cudaFree(out));
}

/* launch_graph: the per-kernel figure of a graph of 2000 empty kernels. */
static double measure_launch_graph(void)
{
    const graph_kernels empty = {0, NULL, NULL};
    double graph_us = launch_graph_us(&empty);
    print_row("launch_graph", graph_us, "us",
              "2000 empty kernels (1 block of 32 threads) captured in a CUDA graph, replayed, per kernel");
    return graph_us;
}

/* A graph's start beyond its kernels (launch_graph_one, graph_start), and
 * as the cases' protocol meets it (measure_graph_protocol). */
static void measure_graph_start(int sms, double graph_us)
{
    double one_us = graph_of_one_us();
    print_row("launch_graph_one", one_us, "us",
              "a graph of one empty kernel, cudaGraphLaunch between two events, median of 201 replays");
    print_row("graph_start", one_us - graph_us, "us",
              "launch_graph_one - launch_graph: a graph's start, beyond its kernels");
    measure_graph_protocol(sms, graph_us);
}

/* --graph-only: a graph's start alone, for readings taken between the
 * cases of a session (run-all.sh writes them to graph-start.csv), with the
 * host CPU the process ran on before and after: the start is timed between
 * two events on the card, and the host's submission of the graph lies
 * between them. */
static int measure_graph_start_only(void)
{
    printf("name,value,unit,phase,how\n");
    print_row("host_cpu_before", sched_getcpu(), "cpu", "sched_getcpu() before the rows below");
    measure_graph_start(attribute(cudaDevAttrMultiProcessorCount), measure_launch_graph());
    print_row("host_cpu_after", sched_getcpu(), "cpu", "sched_getcpu() after the rows above");
    return 0;
}

/* One stream of measure_writes: words a and b (the copy's source and
 * destination, or the sink and the buffer written or read), the words
 * each pass covers, the passes, the grid. */
typedef struct {
    uint32_t *a, *b;
    long count;
    int reps;
    unsigned blocks, threads;
} write_arg;

/* The enqueue functions items_per_cycle times: a copy, a write stream,
 * a read stream of a write_arg. */
static void enqueue_word_copy(void *arg)
{
    write_arg *w = (write_arg *)arg;
    word_copy_kernel<<<w->blocks, w->threads>>>(w->a, w->b, w->count, w->reps);
}

static void enqueue_word_write(void *arg)
{
    write_arg *w = (write_arg *)arg;
    sector_stream_kernel<<<w->blocks, w->threads>>>(w->b, w->count, 1, w->reps, 1, w->a);
}

static void enqueue_word_read(void *arg)
{
    write_arg *w = (write_arg *)arg;
    sector_stream_kernel<<<w->blocks, w->threads>>>(w->b, w->count, 1, w->reps, 0, w->a);
}

/* One run of issue_write_kernel: the words and the grid of a write_arg,
 * the OpAdd steps a word, the mode (0 issue, 1 write, 2 copy, 3 sector). */
typedef struct {
    write_arg w;
    int steps, mode;
} issue_arg;

static void enqueue_issue_write(void *arg)
{
    issue_arg *i = (issue_arg *)arg;
    const write_arg *w = &i->w;
#define ISSUE_WRITE_CASE(S)                                                                                  \
    case S:                                                                                                  \
        issue_write_kernel<S><<<w->blocks, w->threads>>>(w->a, w->b, w->count, w->reps, i->mode, w->b);      \
        break
    switch (i->steps) {
        ISSUE_WRITE_CASE(0);
        ISSUE_WRITE_CASE(1);
        ISSUE_WRITE_CASE(2);
        ISSUE_WRITE_CASE(3);
        ISSUE_WRITE_CASE(4);
        ISSUE_WRITE_CASE(6);
        ISSUE_WRITE_CASE(8);
        ISSUE_WRITE_CASE(16);
    default:
        fprintf(stderr, "issue_write_kernel: no instance of %d steps\n", i->steps);
        exit(1);
    }
#undef ISSUE_WRITE_CASE
}

/* Cycles a word an SM of issue_write_kernel: the card's words a cycle,
 * per SM, inverted (u's unit). */
static double issue_write_cycles(int sms, double mhz, uint32_t *buf, long words, int steps, int mode,
                                 unsigned blocks, unsigned threads)
{
    if (mode == 3)
        words /= 8; /* one a sector of the same 4 MiB */
    issue_arg a = {{buf, buf + (mode == 3 ? 8 * words : words), words, 64, blocks, threads}, steps, mode};
    return sms / items_per_cycle(enqueue_issue_write, &a, (double)words * a.w.reps, mhz);
}

/* What a written word costs a kernel that issues other instructions while
 * its stores drain (validate/notes/cache-hierarchy.md, session 44).  The
 * same kernel (issue_write_kernel), k = 8·steps independent additions a
 * word and then, by mode, nothing (the issue alone), a word written, a
 * word read and written (a copy), or one word of a sector written (a
 * partial sector, an eighth of the words), over 4 MiB into another 4 MiB
 * (the L2 keeps both), 64 passes, cycles a word an SM:
 *  - write_issue_k{k}_{issue,write,copy,sector}: 8 blocks of 256 threads an
 *    SM, as the cases run full (k = 0 gives gmem_write_l2_card,
 *    gmem_copy_l2_card and gmem_partial_write_l2_card again);
 *  - write_issue_k{k}_{issue,write}_warps4: one block of 128 threads an SM,
 *    every SM (4 warps: dft_m's block, alone on its SM);
 *  - write_issue_overlap: (issue(64) + write(0) − write(64)) / write(0),
 *    the share of a write stream's cycles the SM's issue hides where the
 *    issue is the longer (1: a word's cost the larger of its issue and its
 *    write, max; 0: their sum); write_issue_overlap_k128 the same at 128;
 *  - copy_issue_overlap: the same for a copy, copy(0) in write(0)'s place. */
static void measure_issue_writes(int sms, double mhz, uint32_t *buf, long words)
{
    static const int steps[] = {0, 1, 2, 3, 4, 6, 8, 16};
    enum { STEPS = sizeof steps / sizeof steps[0] };
    static const char *const modes[4] = {"issue", "write", "copy", "sector"};
    static const char *const what[4] = {"the additions alone (nothing leaves the SM)", "then one word written",
                                        "then one word read (L2-only) and written",
                                        "then one word of a 32-byte sector written (an eighth of the words)"};
    double t[2][4][STEPS] = {{{0}}};
    for (int full = 1; full >= 0; full--)
        for (int mode = 0; mode < (full ? 4 : 2); mode++)
            for (int i = 0; i < STEPS; i++) {
                unsigned blocks = full ? 8u * (unsigned)sms : (unsigned)sms, threads = full ? 256 : 128;
                t[full][mode][i] = issue_write_cycles(sms, mhz, buf, words, steps[i], mode, blocks, threads);
                char name[64], how[300];
                snprintf(name, sizeof name, "write_issue_k%d_%s%s", 8 * steps[i], modes[mode], full ? "" : "_warps4");
                snprintf(how, sizeof how, "%s a thread, %d independent 32-bit additions (4 chains) a word %s, "
                         "4 MiB into another 4 MiB, 64 passes: cycles a word an SM",
                         full ? "8 blocks of 256 threads an SM" : "one block of 128 threads an SM",
                         8 * steps[i], what[mode]);
                print_row(name, t[full][mode][i], "cycles/word/SM", how);
            }
    /* steps 8 and 16: k = 64 and 128 */
    print_row("write_issue_overlap", (t[1][0][6] + t[1][1][0] - t[1][1][6]) / t[1][1][0], "fraction",
              "(write_issue_k64_issue + write_issue_k0_write - write_issue_k64_write) / write_issue_k0_write: "
              "the share of a write stream's cycles the issue of 64 other instructions a word hides");
    print_row("write_issue_overlap_k128", (t[1][0][7] + t[1][1][0] - t[1][1][7]) / t[1][1][0], "fraction",
              "the same at 128 additions a word");
    print_row("copy_issue_overlap", (t[1][0][6] + t[1][2][0] - t[1][2][6]) / t[1][2][0], "fraction",
              "(write_issue_k64_issue + write_issue_k0_copy - write_issue_k64_copy) / write_issue_k0_copy: "
              "the same for a copy");
}

/* The L2's writes beside its reads (validate/notes/cache-hierarchy.md,
 * session 43): gmem_write_l2_card takes about half the words a cycle
 * gmem_read_card_l2 gives, and the caches of exec mode charge a sector
 * written into the L2 at U, the reads' rate.  These rows tell whether a
 * kernel's writes and reads of the L2 add up (a copy at 1 / (U + the
 * writes' rate) a word an SM) or overlap (at the slower of the two), and
 * whether a few SMs writing alone go faster than their share of the card:
 *  - gmem_copy_l2_card: 8 blocks of 256 threads per SM copy 4 MiB into
 *    another 4 MiB (both in the L2), 32-bit words, words copied a cycle;
 *  - gmem_read_l2_word_card: the write row's stream (sector_stream_kernel,
 *    32-bit words over 8 MiB) read with L2-only loads, words a cycle: the
 *    reads at the write row's instruction shape;
 *  - gmem_write_l2_sms8 and gmem_write_l2_sms_all: blocks of 1024 threads,
 *    one an SM, on 8 SMs and on every SM, writing 32-bit words over 8 MiB:
 *    words a cycle per SM. */
static void measure_writes(int sms, double mhz)
{
    const long words = 2L << 20; /* 8 MiB */
    uint32_t *buf, *sink = dev_alloc_u32(1);
    CUDA_CHECK(cudaMalloc(&buf, (size_t)words * 4));
    CUDA_CHECK(cudaMemset(buf, 0x5a, (size_t)words * 4));
    write_arg copy = {buf, buf + words / 2, words / 2, 64, (unsigned)(8 * sms), 256};
    print_row("gmem_copy_l2_card", items_per_cycle(enqueue_word_copy, &copy, (double)copy.count * copy.reps, mhz),
              "words/cycle", "8 blocks of 256 threads per SM copy 4 MiB into another 4 MiB, 32-bit words, 64 "
              "passes (the L2 keeps both): words copied (each read once and written once) per cycle, whole card");
    write_arg read = {sink, buf, words, 64, (unsigned)(8 * sms), 256};
    print_row("gmem_read_l2_word_card", items_per_cycle(enqueue_word_read, &read, (double)words * read.reps, mhz),
              "words/cycle", "the stream of gmem_write_l2_card (32-bit words over 8 MiB, 64 passes) read with "
              "L2-only loads: words per cycle, whole card");
    const int counts[2] = {8, sms};
    const char *names[2] = {"gmem_write_l2_sms8", "gmem_write_l2_sms_all"};
    for (int i = 0; i < 2; i++) {
        write_arg w = {sink, buf, words, 16, (unsigned)counts[i], 1024};
        char how[240];
        snprintf(how, sizeof how, "%d blocks of 1024 threads (one an SM) write 32-bit words over 8 MiB, 16 "
                 "passes (the L2 keeps them): words per cycle per SM writing", counts[i]);
        print_row(names[i], items_per_cycle(enqueue_word_write, &w, (double)words * w.reps, mhz) / counts[i],
                  "words/SM/cycle", how);
    }
    measure_issue_writes(sms, mhz, buf, words / 2);
    CUDA_CHECK(cudaFree(buf));
    CUDA_CHECK(cudaFree(sink));
}

/* Thread 0 of each block notes the SM it runs on (measure_write_sms: on how
 * many SMs a grid of k blocks lands). */
__global__ void block_smid_kernel(unsigned *smid)
{
    if (threadIdx.x == 0)
        asm volatile("mov.u32 %0, %%smid;" : "=r"(smid[blockIdx.x]));
}

/* The distinct SMs a grid of `blocks` blocks of `threads` lands on. */
static int distinct_sms(unsigned blocks, unsigned threads, int sms)
{
    unsigned *d_smid, h_smid[1024];
    int seen[1024] = {0}, distinct = 0;
    CUDA_CHECK(cudaMalloc(&d_smid, blocks * sizeof(unsigned)));
    block_smid_kernel<<<blocks, threads>>>(d_smid);
    CUDA_CHECK(cudaMemcpy(h_smid, d_smid, blocks * sizeof(unsigned), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(d_smid));
    for (unsigned b = 0; b < blocks; b++)
        if (h_smid[b] < 1024 && h_smid[b] < (unsigned)(4 * sms) && !seen[h_smid[b]]++)
            distinct++;
    return distinct;
}

/* The L2's write rate by the SMs writing at once (validate/notes/
 * cache-hierarchy.md, session 47): gmem_write_l2_sms8 gives about twice
 * gmem_write_l2_sms_all a SM; whether an SM writes at min(its port's rate,
 * the card's rate over the SMs writing) or otherwise.  For k SMs writing
 * (one block an SM, k blocks; the SMs each grid lands on are counted too),
 * words per cycle per SM writing, 32-bit words over 8 MiB, 64 passes (the
 * L2 keeps them):
 *  - gmem_write_l2_sms{k}_t1024: blocks of 1024 threads, aligned;
 *  - gmem_write_l2_shift1_sms{k}_t1024: the same from one word past a
 *    32-byte sector (5 sectors a warp's round, 2 of them partial);
 *  - gmem_write_l2_sms{k}_t256, _t128: blocks of 256 (128) threads,
 *    aligned (the SM's own rate with 8 (4) warps, not 32: 128 is
 *    Cooley-Tukey's dft_m block). */
static void measure_write_sms(int sms, double mhz)
{
    const long words = 2L << 20; /* 8 MiB */
    uint32_t *buf, *sink = dev_alloc_u32(1);
    CUDA_CHECK(cudaMalloc(&buf, (size_t)words * 4));
    CUDA_CHECK(cudaMemset(buf, 0x5a, (size_t)words * 4));
    const int counts[12] = {1, 2, 4, 8, 16, 24, 33, 50, 66, 83, 100, sms};
    for (int i = 0; i < 12 && counts[i] <= sms; i++) {
        const int k = counts[i];
        const unsigned threads[4] = {1024, 1024, 256, 128};
        const int shift[4] = {0, 1, 0, 0};
        for (int v = 0; v < 4; v++) {
            write_arg w = {sink, buf + shift[v], words - 8 * shift[v], 64, (unsigned)k, threads[v]};
            char name[64], how[300];
            snprintf(name, sizeof name, "gmem_write_l2_%ssms%d_t%u", shift[v] ? "shift1_" : "", k, threads[v]);
            snprintf(how, sizeof how, "%d blocks of %u threads (one an SM; on %d distinct SMs) write 32-bit words "
                     "over 8 MiB%s, 64 passes (the L2 keeps them): words per cycle per SM writing",
                     k, threads[v], distinct_sms((unsigned)k, threads[v], sms),
                     shift[v] ? " from one word past a 32-byte sector" : "");
            print_row(name, items_per_cycle(enqueue_word_write, &w, (double)w.count * w.reps, mhz) / k,
                      "words/SM/cycle", how);
        }
    }
    CUDA_CHECK(cudaFree(buf));
    CUDA_CHECK(cudaFree(sink));
}

/* An SM's own write rate by its warps, and a copy's rate by the SMs
 * copying (validate/notes/cache-hierarchy.md, session 48): the probe of
 * session 47 found an SM writing alone at min(its port's rate, its warps
 * times a warp's), about 0.42 words a cycle a warp, and the card's rate
 * shared by the SMs writing beyond; exec mode's write term takes the own
 * rate by the launch's resident warps and a copy's rate at k SMs from
 * these rows.  32-bit words over 8 MiB (writes, reads) or 4 MiB into
 * another 4 MiB (copies), 16 passes (the L2 keeps them), one block an SM
 * (k blocks land on k distinct SMs: session 47's probe), per SM:
 *  - gmem_write_l2_sms8_warps{w}, w = 1, 2, 4, 8, 16: 8 blocks of 32·w
 *    threads write (words a cycle an SM; w = 32 is gmem_write_l2_sms8);
 *  - gmem_write_l2_sms_all_warps4, _warps8: one block of 128 (256)
 *    threads on every SM write (the card's rate with few warps an SM), and
 *    gmem_write_l2_sms_all_blocks2_warps8: two blocks of 128 an SM (whether
 *    an SM's warps write alike in one block or in two);
 *  - gmem_read_l2_word_sms8, gmem_read_l2_word_sms8_warps4: 8 blocks of
 *    1024 (128) threads read with L2-only loads (the copy's read alone);
 *  - gmem_copy_l2_sms{k}, k = 8, 33, 66, 100 and gmem_copy_l2_sms_all:
 *    k blocks of 1024 threads copy (words copied a cycle an SM; each read
 *    once and written once, as gmem_copy_l2_card);
 *  - gmem_copy_l2_sms8_warps4: 8 blocks of 128 threads copy.
 * Under a second on an H100 (the slowest row, one warp on 8 SMs, about
 * 5 ms a run, 8 runs). */
static void measure_write_own(int sms, double mhz)
{
    const long words = 2L << 20; /* 8 MiB */
    const int reps = 16;
    uint32_t *buf, *sink = dev_alloc_u32(1);
    CUDA_CHECK(cudaMalloc(&buf, (size_t)words * 4));
    CUDA_CHECK(cudaMemset(buf, 0x5a, (size_t)words * 4));
    const int sms8 = sms < 8 ? sms : 8;
    char name[64], how[300];
    for (int w = 1; w <= 16; w *= 2) {
        write_arg a = {sink, buf, words, reps, (unsigned)sms8, 32u * (unsigned)w};
        snprintf(name, sizeof name, "gmem_write_l2_sms8_warps%d", w);
        snprintf(how, sizeof how, "%d blocks of %d threads (one an SM: %d warps) write 32-bit words over 8 MiB, "
                 "%d passes (the L2 keeps them): words per cycle per SM writing", sms8, 32 * w, w, reps);
        print_row(name, items_per_cycle(enqueue_word_write, &a, (double)words * reps, mhz) / sms8,
                  "words/SM/cycle", how);
    }
    const unsigned every[3][2] = {{1, 128}, {1, 256}, {2, 128}}; /* blocks an SM, threads a block */
    for (int v = 0; v < 3; v++) {
        const unsigned blocks = every[v][0] * (unsigned)sms, warps = every[v][0] * every[v][1] / 32;
        write_arg a = {sink, buf, words, reps, blocks, every[v][1]};
        if (v < 2)
            snprintf(name, sizeof name, "gmem_write_l2_sms_all_warps%u", warps);
        else
            snprintf(name, sizeof name, "gmem_write_l2_sms_all_blocks2_warps%u", warps);
        snprintf(how, sizeof how, "%u blocks of %u threads (%u an SM: %u warps) on every SM write 32-bit words "
                 "over 8 MiB, %d passes: words per cycle per SM", blocks, every[v][1], every[v][0], warps, reps);
        print_row(name, items_per_cycle(enqueue_word_write, &a, (double)words * reps, mhz) / sms,
                  "words/SM/cycle", how);
    }
    for (int v = 0; v < 2; v++) {
        const unsigned threads = v ? 128 : 1024;
        write_arg a = {sink, buf, words, reps, (unsigned)sms8, threads};
        snprintf(name, sizeof name, "gmem_read_l2_word_sms8%s", v ? "_warps4" : "");
        snprintf(how, sizeof how, "%d blocks of %u threads (one an SM) read 32-bit words over 8 MiB with L2-only "
                 "loads, %d passes: words per cycle per SM reading", sms8, threads, reps);
        print_row(name, items_per_cycle(enqueue_word_read, &a, (double)words * reps, mhz) / sms8,
                  "words/SM/cycle", how);
    }
    const int counts[6] = {8, 33, 66, 100, sms, 8};
    for (int i = 0; i < 6; i++) {
        const int k = counts[i] < sms ? counts[i] : sms;
        const unsigned threads = i == 5 ? 128 : 1024;
        if (i < 4 && counts[i] >= sms)
            continue; /* a card of fewer SMs: its sms_all row says it */
        write_arg a = {buf, buf + words / 2, words / 2, reps, (unsigned)k, threads};
        if (i == 4)
            snprintf(name, sizeof name, "gmem_copy_l2_sms_all");
        else
            snprintf(name, sizeof name, "gmem_copy_l2_sms%d%s", k, i == 5 ? "_warps4" : "");
        snprintf(how, sizeof how, "%d blocks of %u threads (one an SM) copy 4 MiB into another 4 MiB, 32-bit "
                 "words, %d passes (the L2 keeps both): words copied (each read once and written once) per "
                 "cycle per SM copying", k, threads, reps);
        print_row(name, items_per_cycle(enqueue_word_copy, &a, (double)a.count * reps, mhz) / k,
                  "words/SM/cycle", how);
    }
    CUDA_CHECK(cudaFree(buf));
    CUDA_CHECK(cudaFree(sink));
}

/* A probe's rows begin as the full run's do: the header, the SM count and,
 * with_clock, the clock measured as the full run measures it (returned;
 * 0 without). */
static double probe_header(int sms, int with_clock)
{
    printf("name,value,unit,phase,how\n");
    print_row("sm_count", sms, "SMs", "cudaDevAttrMultiProcessorCount");
    if (!with_clock)
        return 0;
    const double mhz = measure_clock_mhz();
    print_row("sm_clock_measured", mhz, "MHz", "one thread spins 2e8 clock64() cycles, timed by CUDA events");
    return mhz;
}

int main(int argc, char **argv)
{
    static const char *const keys[] = {"--seed", "--phase", NULL};
    static const char *const flags[] = {"--device-info", "--graph-only", "--in-flight-only", "--spread-only",
                                        "--guarded-reads-only", "--block-counts-only", "--writes-only", "--spin-only",
                                        "--protocol-only", "--l1-lines-only", "--partial-writes-only", "--write-sms-only",
                                        "--write-own-only", "--boundary-widths-only", "--reduce-levels-only",
                                        "--read-after-write-only", "--stencil-rows-only", NULL};
    cli_require_known(argc, argv, keys, flags,
                      "constants [--device-info] [--graph-only] [--in-flight-only] [--spread-only] "
                      "[--guarded-reads-only] [--block-counts-only] [--writes-only] [--spin-only] "
                      "[--protocol-only] [--l1-lines-only] [--partial-writes-only] [--write-sms-only] "
                      "[--write-own-only] [--boundary-widths-only] [--reduce-levels-only] "
                      "[--read-after-write-only] [--stencil-rows-only] [--seed S] [--phase TEXT]");
    if (cli_value(argc, argv, "--phase"))
        g_phase = cli_value(argc, argv, "--phase");
    for (const char *c = g_phase; *c; c++)
        if (*c == ',' || *c == '"' || *c == '\n') {
            fprintf(stderr, "--phase: no commas, quotes or newlines\n");
            return 2;
        }
    if (cli_flag(argc, argv, "--device-info")) {
        print_device_info();
        return 0;
    }
    if (cli_flag(argc, argv, "--graph-only"))
        return measure_graph_start_only();
    rng_t rng = {(uint64_t)cli_long(argc, argv, "--seed", 12345)};
    int sms = attribute(cudaDevAttrMultiProcessorCount);
    CUDA_CHECK(cudaMalloc(&g_sink64, sizeof(long long))); /* measure_clock_mhz's, on every path below */
    if (cli_flag(argc, argv, "--spread-only")) {
        probe_header(sms, 1);
        measure_case_arithmetic(sms, measure_clock_mhz(), 1);
        measure_resident_spread(sms);
        return 0;
    }
    if (cli_flag(argc, argv, "--in-flight-only")) {
        probe_header(sms, 0);
        measure_lines_in_flight(sms, &rng);
        return 0;
    }
    if (cli_flag(argc, argv, "--guarded-reads-only")) {
        probe_header(sms, 1);
        measure_guarded_reads(&rng);
        return 0;
    }
    if (cli_flag(argc, argv, "--reduce-levels-only")) {
        probe_header(sms, 1);
        measure_reduce_levels(&rng);
        return 0;
    }
    if (cli_flag(argc, argv, "--writes-only")) {
        const double mhz = probe_header(sms, 1);
        measure_writes(sms, mhz);
        return 0;
    }
    if (cli_flag(argc, argv, "--partial-writes-only")) {
        const double mhz = probe_header(sms, 1);
        measure_partial_writes_probe(sms, mhz);
        return 0;
    }
    if (cli_flag(argc, argv, "--write-sms-only")) {
        const double mhz = probe_header(sms, 1);
        measure_write_sms(sms, mhz);
        return 0;
    }
    if (cli_flag(argc, argv, "--read-after-write-only")) {
        const double mhz = probe_header(sms, 1);
        measure_read_after_write_sizes(sms, mhz);
        return 0;
    }
    if (cli_flag(argc, argv, "--stencil-rows-only")) {
        probe_header(sms, 1);
        measure_stencil_rows(sms, 1, &rng);
        return 0;
    }
    if (cli_flag(argc, argv, "--write-own-only")) {
        const double mhz = probe_header(sms, 1);
        measure_write_own(sms, mhz);
        return 0;
    }
    if (cli_flag(argc, argv, "--block-counts-only")) {
        probe_header(sms, 1);
        measure_block_counts(sms, &rng);
        return 0;
    }
    if (cli_flag(argc, argv, "--spin-only")) {
        const double mhz = probe_header(sms, 1);
        measure_spin_chains(mhz, &rng);
        return 0;
    }
    if (cli_flag(argc, argv, "--l1-lines-only")) { /* with the one-line round's rate beside them */
        const double mhz = probe_header(sms, 1);
        uint32_t *buf = dev_alloc_u32(2048L * 8 * sms), *sink = dev_alloc_u32(1);
        CUDA_CHECK(cudaMemset(buf, 0x5a, 2048L * 8 * sms * 4));
        l1_arg a = {buf, (unsigned)(8 * sms), 1 << 12, 0, sink};
        CUDA_CHECK(cudaFuncSetAttribute(l1_wavefront_kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                                        cudaSharedmemCarveoutMaxL1));
        print_row("l1_unrolled_coalesced_rounds_per_sm_cycle",
                  items_per_cycle(enqueue_wavefront, &a, 8.0 * 8 * 8 * (double)a.iters, mhz), "rounds/SM/cycle",
                  "as the full run's row of that name");
        measure_l1_lines(sms, mhz, buf, sink);
        return 0;
    }
    if (cli_flag(argc, argv, "--boundary-widths-only")) {
        probe_header(sms, 1);
        measure_chain("touch_block", CHAIN_TOUCH, 1, &rng); /* the sessions' rows, before and after */
        measure_chain("touch_card", CHAIN_TOUCH, (unsigned)sms, &rng);
        long long *d_probe; /* the cases' warm-up alone (bench_series' step 1), then the same chain again */
        CUDA_CHECK(cudaMalloc(&d_probe, 2 * sizeof(long long)));
        bench_warm_card(d_probe);
        CUDA_CHECK(cudaFree(d_probe));
        measure_chain("touch_block_warmed", CHAIN_TOUCH, 1, &rng);
        measure_boundary_widths(sms, 4, &rng);
        measure_chain("touch_block_again", CHAIN_TOUCH, 1, &rng);
        measure_chain("touch_card_again", CHAIN_TOUCH, (unsigned)sms, &rng);
        return 0;
    }
    if (cli_flag(argc, argv, "--protocol-only")) {
        probe_header(sms, 1);
        measure_chain("touch_block", CHAIN_TOUCH, 1, &rng); /* the sessions' rows, before and after */
        measure_chain("touch_card", CHAIN_TOUCH, (unsigned)sms, &rng);
        measure_protocol_chains(sms, 6, &rng);
        measure_chain("touch_block_again", CHAIN_TOUCH, 1, &rng);
        measure_chain("touch_card_again", CHAIN_TOUCH, (unsigned)sms, &rng);
        return 0;
    }

    printf("name,value,unit,phase,how\n");
    print_row("sm_count", sms, "SMs", "cudaDevAttrMultiProcessorCount");
    print_row("sm_clock_max", attribute(cudaDevAttrClockRate) / 1000.0, "MHz",
              "cudaDevAttrClockRate");
    double mhz = measure_clock_mhz();
    print_row("sm_clock_measured", mhz, "MHz",
              "one thread spins 2e8 clock64() cycles, timed by CUDA events; "
              "all cycle figures below use this clock");

    double us = launch_us(20000, 1);
    print_row("launch_latency", us, "us",
              "20000 back-to-back launches of an empty kernel (1 block of 32 "
              "threads) between two events, per launch");
    print_row("launch_latency_cycles", us * mhz, "cycles", "same, times the clock");
    double rt = roundtrip_us();
    double graph_us = measure_launch_graph();
    print_row("launch_graph_cycles", graph_us * mhz, "cycles", "same, times the clock");
    double touch_us = launch_graph_touch_us(sms);
    print_row("launch_graph_touch", touch_us, "us",
              "2000 dependent kernels (1 block of 256 threads per SM, each thread reads the word the "
              "previous kernel wrote and writes one) captured in a CUDA graph, replayed, per kernel");
    print_row("launch_graph_touch_cycles", touch_us * mhz, "cycles", "same, times the clock");
    measure_graph_start(sms, graph_us);
    measure_code_fetch(sms);
    measure_read_after_copy(sms);
    measure_kernel_boundary(sms, &rng);
    rng_t protocol_rng = rng; /* the rows after draw what they drew before these */
    measure_protocol_chains(sms, 2, &protocol_rng);
    measure_constant_cache(sms, mhz, &rng);
    print_row("launch_sync_roundtrip", rt, "us",
              "empty kernel launch + cudaDeviceSynchronize, host clock");
    const unsigned many = (unsigned)(64 * sms);
    double us_many = launch_us(2000, many);
    print_row("empty_kernel_many_blocks", us_many, "us",
              "back-to-back empty kernels of 64 blocks per SM (32 threads each)");
    print_row("block_dispatch", (us_many - us) * 1e3 / many * sms, "ns per block per SM",
              "(time with 64 blocks/SM - time with 1 block) / blocks per SM");
    double us_steady = launch_us(500, 4 * many);
    print_row("block_dispatch_steady", (us_steady - us_many) * 1e3 / (3.0 * many) * sms,
              "ns per block per SM",
              "(time with 256 blocks/SM - time with 64) / 192: an SM taking blocks one after "
              "the other, at steady state");
    set_alone_smem();
    double us_alone_many = launch_us_of(500, many, 1), us_alone_steady = launch_us_of(200, 4 * many, 1);
    print_row("block_turnaround", (us_alone_steady - us_alone_many) * 1e3 / (3.0 * many) * sms,
              "ns per block per SM",
              "the same with blocks that hold all of an SM's shared memory (one at a time): from a "
              "block's end to the next one's end on its SM");

    measure_memory(sms, mhz);

    double dram = chase_cycles(1L << 28, 200000, &rng);
    print_row("dram_load_latency", dram, "cycles",
              "one thread, dependent loads over a random cycle of 256 MiB "
              "(5x the L2; about 1 load in 5 still hits it), clock64()");
    print_row("dram_load_latency_ns", dram / mhz * 1e3, "ns", "same");
    double dram_big = chase_cycles(1L << 30, 200000, &rng);
    print_row("dram_load_latency_1g", dram_big, "cycles",
              "same over 1 GiB (about 1 load in 20 hits the L2)");
    double l2 = chase_cycles(1L << 20, 200000, &rng);
    print_row("l2_load_latency", l2, "cycles",
              "same over 1 MiB (L2-resident after a warm pass; L1 too small "
              "for it to matter much)");
    for (int k = 1; k <= 8; k *= 2) {
        char name[48], how[200];
        snprintf(name, sizeof name, "l2_line_latency_blocks%d", k);
        snprintf(how, sizeof how, "%d blocks of 256 threads per SM on every SM, each warp a dependent "
                 "chain of whole lines read through the L2 only (8 MiB): median cycles a line", k);
        print_row(name, line_chase_all_cycles(sms, k, &rng), "cycles", how);
    }
    measure_arithmetic(sms, mhz);
    measure_case_arithmetic(sms, mhz, 0);
    measure_shared_and_barriers(sms, mhz, &rng);
    measure_caches(sms, mhz, &rng);
    measure_lines_in_flight(sms, &rng);
    measure_writes(sms, mhz);
    measure_write_own(sms, mhz);
    measure_resident_spread(sms);
    measure_stencil_rows(sms, 0, &rng); /* last: the rows before draw what they drew without it */
    print_row("l2_bytes", (double)attribute(cudaDevAttrL2CacheSize), "bytes", "cudaDevAttrL2CacheSize");
    print_row("sm_clock_measured_end", measure_clock_mhz(), "MHz",
              "the clock measured again at the end of this program");
    CUDA_CHECK(cudaFree(g_sink64));
    return 0;
}
