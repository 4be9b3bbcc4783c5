/*
 * matvec.c — a matrix–vector product over Z/pZ, one row per block, written
 * once (sim/exec/mcm_kernel.h): mcmsim runs it in exec mode, nvcc builds it for
 * the card.
 *
 * y = A·x mod p, A an n × n matrix stored by rows, p = 469762049.  Block r
 * computes y[r]: in its first step thread j sums A[r][c]·x[c] over the
 * columns c = j, j + ℓ, j + 2ℓ, ... (the threads of a warp read
 * consecutive words: coalesced) and writes its partial sum to private word
 * j; then eight halving steps add the partial sums in private memory (at
 * level k the threads j < ℓ/2^k add word j + ℓ/2^k into word j); in the
 * last step thread 0 writes y[r].  ℓ is a power of two, at most 256.
 *
 * Race-free on the card: at each level the words read at j + ℓ/2^k are
 * not the words written, j < ℓ/2^k; each block writes only its own y[r].
 *
 * Params: n (rows and columns, >= 1), l (threads per block: 1, 2, 4, ... 256).
 */
#include "mcm_kernel.h"

#include <stdlib.h>

#define MATVEC_PRIME 469762049u
#define MATVEC_MAX_THREADS 256 /* eight halving steps */

typedef struct product {
    gmem a, x, y;
    long n;
} product;

/* Step 0: thread j's partial sum over its columns. */
MCM_STEP(partial, product, a)
{
    word sum = 0;
    for (long c = t->tid; c < a->n; c += t->threads)
        sum = exec_zp_add(t, sum, exec_zp_mul(t, exec_gread(t, a->a, t->bid * a->n + c), exec_gread(t, a->x, c)));
    exec_pwrite(t, t->tid, sum);
}

/* Steps 1 to 8: level k = t->step halves the partial sums. */
MCM_STEP(halve, product, a)
{
    long half = (long)t->threads >> t->step;
    if (t->tid < half)
        exec_pwrite(t, t->tid, exec_zp_add(t, exec_pread(t, t->tid), exec_pread(t, t->tid + half)));
}

/* Step 9: the row's sum out. */
MCM_STEP(store, product, a)
{
    if (t->tid == 0)
        exec_gwrite(t, a->y, t->bid, exec_pread(t, 0));
}

MCM_KERNEL(matvec, product, partial, halve, halve, halve, halve, halve, halve, halve, halve, store);

static gmem A, x, y;
static long n;
static int l;
static word *expected;

static word mulmod(word a, word b) { return a * b % MATVEC_PRIME; }

static int setup(exec_run *run, const mcm_params *p)
{
    n = (long)mcm_param(p, "n", 1024);
    l = (int)mcm_param(p, "l", 256);
    if (n < 1 || l < 1 || l > MATVEC_MAX_THREADS || (l & (l - 1)))
        return mcm_fail("matvec: needs n >= 1 and l a power of two up to %d (got n = %ld, l = %d)",
                        MATVEC_MAX_THREADS, n, l);
    A = mcm_alloc(run, "A", n * n);
    x = mcm_alloc(run, "x", n);
    y = mcm_alloc(run, "y", n);
    uint64_t state = mcm_seed(p);
    for (long i = 0; i < n * n; i++)
        mcm_set(A, i, mcm_random(&state) % MATVEC_PRIME);
    for (long c = 0; c < n; c++)
        mcm_set(x, c, mcm_random(&state) % MATVEC_PRIME);
    free(expected);
    expected = (word *)calloc((size_t)n, sizeof *expected);
    uint64_t again = mcm_seed(p); /* the serial reference, from the same numbers */
    word *row = (word *)malloc(sizeof *row * (size_t)n), *xs = (word *)malloc(sizeof *xs * (size_t)n);
    for (long r = 0; r < n; r++)
        for (long c = 0; c < n; c++)
            (void)mcm_random(&again);
    for (long c = 0; c < n; c++)
        xs[c] = mcm_random(&again) % MATVEC_PRIME;
    again = mcm_seed(p);
    for (long r = 0; r < n; r++) {
        for (long c = 0; c < n; c++)
            row[c] = mcm_random(&again) % MATVEC_PRIME;
        for (long c = 0; c < n; c++)
            expected[r] = (expected[r] + mulmod(row[c], xs[c])) % MATVEC_PRIME;
    }
    free(row);
    free(xs);
    return 0;
}

static int launches(exec_run *run)
{
    product a = {A, x, y, n};
    return mcm_launch(run, &matvec, n, l, l, &a);
}

static int check(exec_run *run)
{
    (void)run;
    for (long r = 0; r < n; r++)
        if (mcm_get(y, r) != expected[r])
            return mcm_fail("matvec: y[%ld] = %llu, the serial product says %llu", r,
                            (unsigned long long)mcm_get(y, r), (unsigned long long)expected[r]);
    return 0;
}

MCM_PROGRAM("matvec", setup, launches, check);
