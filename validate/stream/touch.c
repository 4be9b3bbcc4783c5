/*
 * touch.c — cuda_ref/constants.cu's touch chain written once (touch_kernel:
 * out[i] = in[i] + 1, i = blockIdx.x · blockDim.x + threadIdx.x in 64
 * bits): k kernels of b blocks of 256 threads, each reading what the one
 * before wrote (ping-pong buffers), as the chains of the kernel boundary
 * are timed.  Not a case study: validate/card.c runs it in exec mode on a
 * card's code machine to learn what the code's costs charge the chain's
 * block, which the code machine's kernel boundary leaves out of the
 * measured chain (card_code_machine).
 *
 * Params: k (kernels, >= 1), b (blocks a kernel, >= 1).  Checked: after k
 * kernels the buffer written last holds the first one's words plus k.
 */
#include "mcm_kernel.h"

#include <stdlib.h>

typedef struct link {
    gmem in, out;
} link;

MCM_STEP(touch, link, a)
{
    long i = t->bid * t->threads + t->tid;
    exec_gwrite(t, a->out, i, (uint32_t)(exec_gread(t, a->in, i) + 1));
    exec_ops(t, 1);
}
MCM_KERNEL(touch_kernel, link, touch);

static gmem ping, pong;
static long k, b;
static uint32_t *first; /* ping's words before the chain */

static int setup(exec_run *run, const mcm_params *p)
{
    k = (long)mcm_param(p, "k", 1);
    b = (long)mcm_param(p, "b", 1);
    if (k < 1 || b < 1)
        return mcm_fail("touch: needs k >= 1 and b >= 1 (got %ld, %ld)", k, b);
    ping = mcm_alloc(run, "ping", b * 256);
    pong = mcm_alloc(run, "pong", b * 256);
    first = (uint32_t *)malloc(sizeof *first * (size_t)(b * 256));
    if (!first)
        return mcm_fail("touch: out of memory");
    uint64_t state = mcm_seed(p);
    for (long i = 0; i < b * 256; i++) {
        first[i] = (uint32_t)(mcm_random(&state) % 1000);
        mcm_set(ping, i, first[i]);
        mcm_set(pong, i, 0);
    }
    return 0;
}

static int launches(exec_run *run)
{
    for (long j = 0; j < k; j++) {
        link a = {j % 2 ? pong : ping, j % 2 ? ping : pong};
        if (mcm_launch(run, &touch_kernel, b, 256, 0, &a) < 0)
            return -1;
    }
    return 0;
}

static int check(exec_run *run)
{
    (void)run;
    gmem last = k % 2 ? pong : ping;
    for (long i = 0; i < b * 256; i++)
        if (mcm_get(last, i) != (word)(first[i] + (uint32_t)k))
            return mcm_fail("touch: word %ld is %lu after %ld kernels, expected %lu", i,
                            (unsigned long)mcm_get(last, i), k, (unsigned long)(first[i] + (uint32_t)k));
    free(first);
    return 0;
}

MCM_PROGRAM("touch", setup, launches, check);
