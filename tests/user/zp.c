/*
 * zp.c — a fixture for the two builds of sim/exec/mcm_kernel.h (not a case
 * study): the Z/pZ operations inside a kernel against the host's zp_* of
 * sim/exec/exec.h, on field elements and on raw 32-bit words, p and above
 * (where both builds reduce the way sim/exec/exec.c does).  Two kernels, the second reading what
 * the first wrote.
 *
 * Params: n (elements), l (threads per block).
 */
#include "mcm_kernel.h"

#define P 469762049ull

typedef struct zp_args {
    gmem x, y, out;
    long n;
} zp_args;

/* out[5i .. 5i+4] = x+y, x-y, x*y, x^i, y^-1 (y != 0) */
MCM_STEP(field_ops, zp_args, a)
{
    long i = t->bid * t->threads + t->tid;
    if (i >= a->n)
        return;
    word x = exec_gread(t, a->x, i), y = exec_gread(t, a->y, i);
    exec_gwrite(t, a->out, 5 * i, exec_zp_add(t, x, y));
    exec_gwrite(t, a->out, 5 * i + 1, exec_zp_sub(t, x, y));
    exec_gwrite(t, a->out, 5 * i + 2, exec_zp_mul(t, x, y));
    exec_gwrite(t, a->out, 5 * i + 3, exec_zp_pow(t, x, (uint64_t)i));
    exec_gwrite(t, a->out, 5 * i + 4, exec_zp_inv(t, y % P == 0 ? 1 : y));
}

MCM_KERNEL(field, zp_args, field_ops);

/* in place: out[5i+2] = out[5i+2] * out[5i+4] (x*y * y^-1 = x mod p) */
MCM_STEP(undo_mul, zp_args, a)
{
    long i = t->bid * t->threads + t->tid;
    if (i >= a->n)
        return;
    word v = exec_zp_mul(t, exec_gread(t, a->out, 5 * i + 2), exec_gread(t, a->out, 5 * i + 4));
    exec_gwrite(t, a->out, 5 * i + 2, v);
}

MCM_KERNEL(undo, zp_args, undo_mul);

static gmem x, y, out;
static long n;
static int l;

static int setup(exec_run *run, const mcm_params *p)
{
    n = (long)mcm_param(p, "n", 1000);
    l = (int)mcm_param(p, "l", 128);
    if (n < 4 || l < 1)
        return mcm_fail("zp: needs n >= 4, l >= 1 (got n = %ld, l = %d)", n, l);
    x = mcm_alloc(run, "x", n);
    y = mcm_alloc(run, "y", n);
    out = mcm_alloc(run, "out", 5 * n);
    uint64_t state = mcm_seed(p);
    for (long i = 0; i < n; i++) {
        /* every fourth pair is raw 32-bit words, the others field elements */
        word u = mcm_random(&state) >> 32, v = mcm_random(&state) >> 32;
        mcm_set(x, i, i % 4 == 3 ? u : u % P);
        mcm_set(y, i, i % 4 == 3 ? v : 1 + v % (P - 1));
    }
    return 0;
}

static int launches(exec_run *run)
{
    zp_args a = {x, y, out, n};
    if (mcm_launch(run, &field, (n + l - 1) / l, l, 0, &a) < 0)
        return -1;
    return mcm_launch(run, &undo, (n + l - 1) / l, l, 0, &a);
}

static int check(exec_run *run)
{
    (void)run;
    for (long i = 0; i < n; i++) {
        word u = mcm_get(x, i), v = mcm_get(y, i);
        word inv = zp_pow(P, v % P == 0 ? 1 : v, P - 2);
        word want[5] = {zp_add(P, u, v), zp_sub(P, u, v), zp_mul(P, zp_mul(P, u, v), inv),
                        zp_pow(P, u, (uint64_t)i), inv};
        for (int k = 0; k < 5; k++)
            if (mcm_get(out, 5 * i + k) != want[k])
                return mcm_fail("zp: out[5*%ld+%d] = %llu, want %llu (x = %llu, y = %llu)", i, k,
                                (unsigned long long)mcm_get(out, 5 * i + k), (unsigned long long)want[k],
                                (unsigned long long)u, (unsigned long long)v);
    }
    return 0;
}

MCM_PROGRAM("zp", setup, launches, check);
