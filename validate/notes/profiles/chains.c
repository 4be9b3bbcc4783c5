/*
 * chains.c — cuda_ref/constants.cu's chains of the kernel boundary, written
 * once, for the model: k kernels, each reading what the one before wrote
 * (ping-pong buffers of b blocks of 256 threads).  shape 0 touch: out[i] =
 * in[i] + 1; 1 pair: out[t] = in[t] + in[(t + 128) % 256] + 1; 2 dependent:
 * out[t] = in[in[t] % 256] + 1; 3 reduce: a tree sum in private memory, 8
 * levels with a barrier after each, out[t] = in[t] + sum + 1, in[t] kept in
 * private memory past the sum, as the card keeps it in a register (1 to 3: one
 * block); 4 args and 5 shared: the touch kernel (the model has no
 * argument size; 5 asks for 256 words of private memory); 6 code and 7
 * loop: 1024 steps x = x·x + j, unrolled whole (code) or one pass a
 * step (loop, as constants.cu's `#pragma unroll 1`); 8 horner: Horner's
 * rule at in[i], degree 32, the coefficients in[0..32]; 9 shift1 and 10
 * shift32: in[t] and, where t >= d, in[t − d] (d = 1, 32); 11 guarded:
 * in[t] and, where t < 128, in[t + 128]; 12 stored: the same after
 * storing in[t] + 1 (9 to 12: one block; instruction-stream.md, session
 * 42).  Not checked: a tool for card-model.md ("The small programs taken
 * apart"), not a test.
 */
#include "mcm_kernel.h"

#include <stdlib.h>

typedef struct link {
    gmem in, out;
    uint32_t hide; /* 0, but an arg: the compiler keeps the chain whose value it masks */
} link;

MCM_STEP(touch, link, a)
{
    long i = t->bid * t->threads + t->tid;
    exec_gwrite(t, a->out, i, (uint32_t)(exec_gread(t, a->in, i) + 1));
    exec_ops(t, 1);
}
MCM_KERNEL(touch_k, link, touch);

MCM_STEP(pair, link, a)
{
    long i = t->tid;
    exec_gwrite(t, a->out, i, (uint32_t)(exec_gread(t, a->in, i) + exec_gread(t, a->in, (i + 128) & 255) + 1));
    exec_ops(t, 2);
}
MCM_KERNEL(pair_k, link, pair);

MCM_STEP(dependent, link, a)
{
    long i = t->tid;
    exec_gwrite(t, a->out, i, (uint32_t)(exec_gread(t, a->in, exec_gread(t, a->in, i) & 255) + 1));
    exec_ops(t, 2);
}
MCM_KERNEL(dependent_k, link, dependent);

MCM_STEP(rload, link, a)
{
    word v = exec_gread(t, a->in, t->tid);
    exec_pwrite(t, t->tid, v);
    exec_pwrite(t, t->threads + t->tid, v); /* v kept for the store: the card's register */
}
MCM_STEP(rhalve, link, a)
{
    long half = (long)t->threads >> t->step;
    if (t->tid < half) {
        exec_pwrite(t, t->tid, (uint32_t)(exec_pread(t, t->tid) + exec_pread(t, t->tid + half)));
        exec_ops(t, 1);
    }
}
MCM_STEP(rstore, link, a)
{
    exec_gwrite(t, a->out, t->tid, (uint32_t)(exec_pread(t, t->threads + t->tid) + exec_pread(t, 0) + 1));
    exec_ops(t, 2);
}
MCM_KERNEL(reduce_k, link, rload, rhalve, rhalve, rhalve, rhalve, rhalve, rhalve, rhalve, rhalve, rstore);

MCM_STEP(code, link, a)
{
    long i = t->bid * t->threads + t->tid;
    uint32_t v = (uint32_t)exec_gread(t, a->in, i), x = v + 1;
    MCM_UNROLL
    for (uint32_t j = 0; j < 1024; j++)
        x = x * x + j;
    exec_ops(t, 1024);
    exec_gwrite(t, a->out, i, v + 1 + (x & a->hide));
}
MCM_KERNEL(code_k, link, code);

/* The loop kernel's `#pragma unroll 1`: one pass a step, its back edge a
 * taken branch (clang's own pragma; the counted build is clang's). */
#ifdef MCM_COUNTED
#define ONE_PASS_A_TRIP _Pragma("clang loop unroll(disable)")
#else
#define ONE_PASS_A_TRIP
#endif

MCM_STEP(loop, link, a)
{
    long i = t->bid * t->threads + t->tid;
    uint32_t v = (uint32_t)exec_gread(t, a->in, i), x = v + 1;
    ONE_PASS_A_TRIP
    for (uint32_t j = 0; j < 1024; j++)
        x = x * x + j;
    exec_ops(t, 1024);
    exec_gwrite(t, a->out, i, v + 1 + (x & a->hide));
}
MCM_KERNEL(loop_k, link, loop);

MCM_STEP(horner, link, a)
{
    long i = t->bid * t->threads + t->tid;
    uint32_t x = (uint32_t)exec_gread(t, a->in, i), acc = 0;
    for (long j = 32; j >= 0; j--) {
        acc = acc * x + (uint32_t)exec_gread(t, a->in, j);
        exec_ops(t, 2);
    }
    exec_gwrite(t, a->out, i, x + 1 + (acc & a->hide));
}
MCM_KERNEL(horner_k, link, horner);

/* in[t], and where t >= D in[t − D] (prefix-naive's step) */
#define SHIFT_STEP(NAME, D)                                                                        \
    MCM_STEP(NAME, link, a)                                                                        \
    {                                                                                              \
        long i = t->tid;                                                                           \
        word x = exec_gread(t, a->in, i);                                                          \
        if (i >= D)                                                                                \
            x += exec_gread(t, a->in, i - D);                                                      \
        exec_gwrite(t, a->out, i, (uint32_t)(x + 1));                                              \
    }
SHIFT_STEP(shift1, 1)
MCM_KERNEL(shift1_k, link, shift1);
SHIFT_STEP(shift32, 32)
MCM_KERNEL(shift32_k, link, shift32);

MCM_STEP(guarded, link, a)
{
    long i = t->tid;
    word x = exec_gread(t, a->in, i);
    if (i < 128)
        x += exec_gread(t, a->in, i + 128);
    exec_gwrite(t, a->out, i, (uint32_t)(x + 1));
}
MCM_KERNEL(guarded_k, link, guarded);

/* the same, in[t] + 1 stored first: the second read after a store that waits for the first */
MCM_STEP(stored, link, a)
{
    long i = t->tid;
    word x = exec_gread(t, a->in, i);
    exec_gwrite(t, a->out, i, (uint32_t)(x + 1));
    if (i < 128)
        exec_gwrite(t, a->out, i, (uint32_t)(x + 1 + exec_gread(t, a->in, i + 128)));
}
MCM_KERNEL(stored_k, link, stored);

static gmem ping, pong;
static long k, b, shape;

static int setup(exec_run *run, const mcm_params *p)
{
    k = (long)mcm_param(p, "k", 1);
    b = (long)mcm_param(p, "b", 1);
    shape = (long)mcm_param(p, "shape", 0);
    ping = mcm_alloc(run, "ping", b * 256);
    pong = mcm_alloc(run, "pong", b * 256);
    uint64_t state = mcm_seed(p);
    for (long i = 0; i < b * 256; i++) {
        mcm_set(ping, i, mcm_random(&state) % 1000);
        mcm_set(pong, i, mcm_random(&state) % 1000);
    }
    return 0;
}

static int launches(exec_run *run)
{
    const mcm_kernel *kern[13] = {&touch_k, &pair_k,    &dependent_k, &reduce_k,  &touch_k,   &touch_k, &code_k,
                                  &loop_k,  &horner_k,  &shift1_k,    &shift32_k, &guarded_k, &stored_k};
    if (shape < 0 || shape > 12)
        return mcm_fail("chains: shape 0 to 12 (got %ld)", shape);
    int one_block = (shape >= 1 && shape <= 3) || shape >= 9;
    for (long j = 0; j < k; j++) {
        link a = {j % 2 ? pong : ping, j % 2 ? ping : pong, 0};
        if (mcm_launch(run, kern[shape], one_block ? 1 : b, 256, shape == 3 ? 512 : shape == 5 ? 256 : 0, &a) < 0)
            return -1;
    }
    return 0;
}

static int check(exec_run *run)
{
    (void)run;
    return 0;
}

MCM_PROGRAM("chains", setup, launches, check);
