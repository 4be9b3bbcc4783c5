/*
 * kernels.c — FFT-based multiplication of two polynomials over Z/pZ, its
 * kernels written once (sim/exec/mcm_kernel.h): mcmsim runs them in exec mode
 * (`--exec`), nvcc builds them for the card (cuda_ref/run-all.sh, case
 * fft-mult).  The model a student computes, with its closed forms, is
 * model.c.
 *
 * f = a·b, a of n coefficients and b of m, by FFTs of the least size
 * N = 2^k >= n + m − 1 (paper §5.2; thesis App. B line 5822), 9 log N − 4
 * launches:
 *   two forward Stockham FFTs of the zero-padded a and b
 *     (../common/stockham_fft.h: butterfly, then log N − 1 times stride,
 *     twiddle, butterfly);
 *   pointwise   N/ℓ blocks: c_i = a'_i b'_i;
 *   the inverse FFT of c (the powers of ω read as ω^(N−e));
 *   scale       N/ℓ blocks: f_i = c'_i / N.
 * As in the paper ("the successive powers are pre-computed"), the table
 * of the powers of ω is an input that setup computes, as the hand-written
 * program computed it before its timed runs: no launch of its own.
 *
 * Measured costs against model.c's declared ones (test_exec_fft_mult.c
 * asserts each of these exactly):
 *   - the kernels, their order, grids and threads, N, L and K: equal.  The
 *     launches are named after their kernels (model.c's fft-a:stride[3]
 *     is a launch of stride).
 *   - the FFT kernels: as programs/stockham/kernels.c says (butterfly and
 *     twiddle spans twice the worksheet's; twiddle α = 2 and a third word;
 *     stride O(B) = 3U where rows are narrower than a warp, q < w), and in
 *     the inverse FFT, where q < w, the powers ω^(N−e) of a warp lie in two
 *     address groups (the word of e = ⌊j/q⌋q, the first of the warp's,
 *     begins a group, the others end the one before): twiddle O(B) = 4U.
 *   - pointwise, scale: α, β and O(B) (3U, 2U): equal; S(B) = 11,
 *     W(B) = 11ℓ, model 6, 6ℓ and 5, 5ℓ: one product of 11 operations (the
 *     worksheet counts 6 and 5 instructions).
 *
 * Check: the product against the serial FFT-based product of
 * ../common/fft_reference.h (itself checked against the schoolbook product
 * by test_exec_fft_mult.c).
 *
 * Params: n, m (input sizes, whole, n >= m >= 1; m = 0 or none: m = n, as
 * model.c), l (ℓ, a power of two <= 1024); N <= 2^26.
 */
#include "mcm_kernel.h"

#include <stdlib.h>

#include "../common/fft_reference.h"
#include "../common/stockham_fft.h"

typedef struct pointwise_args {
    gmem x, y, out;
    long size;
    word factor; /* scale: 1/N */
} pointwise_args;

/* out_i = x_i·y_i */
MCM_STEP(multiply, pointwise_args, a)
{
    long i = t->bid * t->threads + t->tid;
    if (i < a->size)
        exec_gwrite(t, a->out, i, exec_zp_mul(t, exec_gread(t, a->x, i), exec_gread(t, a->y, i)));
}

/* out_i = x_i·factor */
MCM_STEP(multiply_by, pointwise_args, a)
{
    long i = t->bid * t->threads + t->tid;
    if (i < a->size)
        exec_gwrite(t, a->out, i, exec_zp_mul(t, exec_gread(t, a->x, i), a->factor));
}

MCM_KERNEL(pointwise, pointwise_args, multiply);
MCM_KERNEL(scale, pointwise_args, multiply_by);

static gmem a, b, powers, w0, w1, w2, w3, c, f;
static long n, m, size;
static int l;

static int whole(double v) { return v == (double)(long)v; }

static int setup(exec_run *run, const mcm_params *p)
{
    double nv = mcm_param(p, "n", 4096);
    double mv = mcm_param(p, "m", nv), lv = mcm_param(p, "l", 256); /* no m: m = n, the card's rows say so */
    if (mv == 0)
        mv = nv;
    if (!whole(nv) || !whole(mv) || mv < 1 || mv > nv || nv + mv - 1 > (double)(1L << FFT_MAX_LOG2) ||
        nv + mv < 3)
        return mcm_fail("fft-mult: needs whole n >= m >= 1, the product's n + m − 1 coefficients in 2 to 2^%d "
                        "(got n = %g, m = %g)", FFT_MAX_LOG2, nv, mv);
    if (!whole(lv) || lv < 1 || lv > 1024 || ((long)lv & ((long)lv - 1)) != 0)
        return mcm_fail("fft-mult: ℓ must be a power of two <= 1024 (got l = %g)", lv);
    n = (long)nv;
    m = (long)mv;
    l = (int)lv;
    for (size = 1; size < n + m - 1; size *= 2)
        ;
    gmem *all[] = {&a, &b, &powers, &w0, &w1, &w2, &w3, &c, &f};
    const char *names[] = {"a", "b", "powers", "w0", "w1", "w2", "w3", "c", "f"};
    for (int i = 0; i < 9; i++)
        *all[i] = mcm_alloc(run, names[i], size);
    uint64_t state = mcm_seed(p);
    for (long i = 0; i < n; i++)
        mcm_set(a, i, mcm_random(&state) % MCM_PRIME);
    for (long i = 0; i < m; i++)
        mcm_set(b, i, mcm_random(&state) % MCM_PRIME);
    word omega = fft_root_of_unity(size), power = 1;
    for (long e = 0; e < size; e++, power = zp_mul(MCM_PRIME, power, omega))
        mcm_set(powers, e, power);
    return 0;
}

static int launches(exec_run *run)
{
    long blocks = (size + l - 1) / l;
    pointwise_args product = {stockham_result(w0, w1, size), stockham_result(w2, w3, size), c, size, 0};
    pointwise_args scaled = {stockham_result(w0, w1, size), f, f, size,
                             zp_pow(MCM_PRIME, (word)size, MCM_PRIME - 2)};
    if (stockham_fft(run, a, w0, w1, powers, size, l, 0) < 0 || stockham_fft(run, b, w2, w3, powers, size, l, 0) < 0 ||
        mcm_launch(run, &pointwise, blocks, l, 0, &product) < 0 ||
        stockham_fft(run, c, w0, w1, powers, size, l, 1) < 0)
        return -1;
    return mcm_launch(run, &scale, blocks, l, 0, &scaled);
}

static int check(exec_run *run)
{
    (void)run;
    word *x = (word *)malloc(sizeof *x * (size_t)(n + m + n + m));
    if (!x)
        return mcm_fail("fft-mult: no memory for the serial reference (n = %ld, m = %ld)", n, m);
    word *y = x + n, *want = y + m;
    for (long i = 0; i < n; i++)
        x[i] = mcm_get(a, i);
    for (long i = 0; i < m; i++)
        y[i] = mcm_get(b, i);
    serial_fft_product(x, n, y, m, want);
    int rc = 0;
    for (long i = 0; i < n + m - 1 && rc == 0; i++)
        if (mcm_get(f, i) != want[i])
            rc = mcm_fail("fft-mult: f[%ld] = %llu, the serial product gives %llu (n = %ld, m = %ld, l = %d)", i,
                          (unsigned long long)mcm_get(f, i), (unsigned long long)want[i], n, m, l);
    free(x);
    return rc;
}

MCM_PROGRAM("fft-mult", setup, launches, check);
