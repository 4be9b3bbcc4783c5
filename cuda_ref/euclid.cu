/*
 * euclid.cu -- case study "euclid": GCD of two univariate polynomials over
 * Z/pZ by the Euclidean algorithm with program parameter s.
 *
 * Follows: MCM paper section 3 (Algorithm 1, OptGcdKer), thesis section 4.3
 * and Appendix B, Euclidean worksheet (l. 4842-5035).  a has size n, b size
 * m (deg a = n - 1 >= deg b = m - 1).  Every kernel call performs division
 * steps until deg a + deg b has dropped by s (or one polynomial is zero):
 *   ping-ping calls while deg a - deg b >= s (only a is reduced, by b):
 *       ceil((deg b + 1)/l) blocks, at most ceil((n - m)/s) calls;
 *   ping-pong calls afterwards (the divisor alternates):
 *       min(ceil((deg a + 1)/l), ceil((deg b + 1)/l)) blocks, about 2m/s calls.
 * Each block re-derives the whole sequence of steps of the call from the
 * leading coefficients ("each thread-block must compute the leading
 * coefficients of a and b at each division step") and applies it to its own
 * l coefficients of a (and of b in ping-pong) held in shared memory.
 *
 * Choices where Algorithm 1 is only sketched (see cuda_ref/README.md):
 *  - Division steps.  Ping-ping: the classical step a <- a - c X^(da-db) b
 *    with c = lc(a) / lc(b); lc(b) does not change during a ping-ping call, so
 *    its inverse is computed once per call.  The coefficients of a below
 *    those the grid covers are truly untouched.  Ping-pong: the divisor
 *    changes at every step, so the steps are fraction-free,
 *    a <- lc(b) a - lc(a) X^(da-db) b (and the same for b), with no inverse;
 *    this scales every coefficient of the reduced polynomial, which is fine
 *    because the ping-pong grid covers all of them.  Each is three operations
 *    per coefficient (factor, multiplication, subtraction).  The gcd is
 *    unchanged up to a unit and is made monic on the host for the check.
 *  - Offsets: coefficients are addressed by their offset below the degree
 *    that a and b had when the call started (position = deg - offset).  The
 *    step sequence only needs the head (offsets < s) of each polynomial;
 *    with ra, rb <= s - 1 the drops of a and b so far, a step pairs offset i
 *    of one polynomial with offset i + (rb - ra) (or i + (ra - rb)) of the
 *    other, and any value at offset i after the call depends only on the
 *    starting values at offsets i - (s-1) .. i + (s-1).  (Why: follow the
 *    dependencies of a value back through the steps; they alternate between
 *    a and b with shifts (rb - ra) at steps k1 > k2 > k3 > ..., so the total
 *    shift is rb(k1) - rb(k2) + rb(k3) - ... minus the same sum for ra.  ra
 *    and rb never decrease, so each alternating sum lies in [0, s-1].)
 *    So a block owning offsets [lo, lo + l) loads a window with a halo of
 *    s - 1 on both sides
 *    (ping-pong; ping-ping needs only b's low-offset halo), and every block
 *    holds the head of 2s - 1 offsets (s in ping-ping).  Private memory:
 *    8s + 2l words in ping-pong, 3s + 2l in ping-ping (the paper's bound is
 *    4s + 2l; its ping-pong halo assumes degrees fall by one per step).
 *  - Degrees are upper bounds: a zero leading coefficient (non-generic
 *    input) is skipped and counted in the drop of s, and a call stops once
 *    ra + rb = s.  The degree sum therefore falls by exactly s per call and
 *    the ping-ping degrees are exact, so the host knows the whole schedule
 *    (kinds and grid sizes) in advance, from the generic degree sequence;
 *    no degree is read back between calls.  The kernels read the degrees
 *    from a device-side state (double-buffered: call k reads state k mod 2,
 *    block 0 writes the other) and set an error flag if the launched grid
 *    would not cover the live coefficients (possible only on non-generic
 *    inputs): the run then reports check=FAIL instead of a wrong answer.
 *  - Ping-ping updates a in place (blocks read only their own words of a, the
 *    never-written head, and b).  Ping-pong reads one pair of buffers and
 *    writes the other (halos overlap the neighbours' words).  Once one
 *    polynomial is zero, the remaining launches of the schedule return at
 *    once.
 *
 * Check: the timed runs use fresh random a, b (coprime: gcd 1, degrees fall
 * by one per step); their gcd, and that of a second pair with a planted
 * common factor of degree 8, must equal cpu_gcd (the classical algorithm).
 *
 * Usage: euclid [--n LIST] [--m M] [--s LIST] [--l 256] [--runs R]
 *               [--warmup W] [--seed S] [--occupancy FILE] [--no-header]   (m = n by default)
 */
#include <stdio.h>
#include <string.h>

#include "common/cpu_ref.h"
#include "common/cuda_common.cuh"
#include "common/zp.h"

#define GCD_ERR_COVERAGE 1   /* grid too small for the live coefficients */
#define GCD_ERR_PINGPING 2   /* a ping-ping call on a pair that is not one */
#define GCD_PLANTED_DEGREE 8

/* degrees (upper bounds) and flags, as kernels read and write them */
typedef struct {
    int deg_a, deg_b;
    int done;       /* one polynomial is zero */
    int error;      /* GCD_ERR_* */
    int buf;        /* which buffer pair holds a and b */
} gcd_state;

typedef struct {
    uint32_t *a[2];
    uint32_t *b[2];
} gcd_buffers;

enum { STEP_A, STEP_B, STOP };

/* the step sequence of a call, as thread 0 derives it */
typedef struct {
    int ra, rb;            /* drops of deg a and deg b so far in this call */
    int action;            /* STEP_A, STEP_B or STOP */
    uint32_t lca, lcb;     /* leading coefficients for this step */
} gcd_step;

/* coefficient at offset off below degree deg of p (0 above deg or below 0) */
static __device__ uint32_t coef_at(const uint32_t *p, int deg, long off)
{
    long pos = deg - off;
    return (off >= 0 && pos >= 0) ? p[pos] : 0u;
}

/*
 * One fraction-free step on a window (ping-pong): X[i] <- lc_y X[i] - lc_x Y[i + delta]
 * (X belongs to the polynomial being reduced, Y to the divisor; the partner
 * index is local to Y's window).  Entries whose partner lies outside Y's
 * window are outside every value this block needs, and are left alone.
 */
static __device__ void reduce_window(uint32_t *X, int x_len, const uint32_t *Y,
                                     int y_len, int delta, uint32_t lc_x,
                                     uint32_t lc_y)
{
    for (int i = threadIdx.x; i < x_len; i += blockDim.x) {
        int j = i + delta;
        if (j >= 0 && j < y_len)
            X[i] = zp_sub(zp_mul(lc_y, X[i]), zp_mul(lc_x, Y[j]));
    }
}

/* classical step on a window: X[i] <- X[i] - c Y[i + delta] */
static __device__ void subtract_multiple(uint32_t *X, int x_len,
                                         const uint32_t *Y, int y_len,
                                         int delta, uint32_t c)
{
    for (int i = threadIdx.x; i < x_len; i += blockDim.x) {
        int j = i + delta;
        if (j >= 0 && j < y_len)
            X[i] = zp_sub(X[i], zp_mul(c, Y[j]));
    }
}

/*
 * Thread 0: skip zero leading coefficients (within the budget of s), then
 * choose the next step: reduce the polynomial of larger (or equal: a) degree,
 * or stop when the budget is spent or a polynomial is zero.
 */
static __device__ void choose_step(gcd_step *st, const uint32_t *ha,
                                   const uint32_t *hb, int da0, int db0, int s)
{
    while (st->ra + st->rb < s && st->ra <= da0 && ha[st->ra] == 0)
        st->ra++;
    while (st->ra + st->rb < s && st->rb <= db0 && hb[st->rb] == 0)
        st->rb++;
    if (st->ra + st->rb >= s || st->ra > da0 || st->rb > db0) {
        st->action = STOP;
        return;
    }
    st->lca = ha[st->ra];
    st->lcb = hb[st->rb];
    st->action = (da0 - st->ra >= db0 - st->rb) ? STEP_A : STEP_B;
}

/* block 0, thread 0: the state after this call */
static __device__ void write_state(gcd_state *out, gcd_state in,
                                   const gcd_step *st, int error, int buf)
{
    out->deg_a = in.deg_a - (error ? 0 : st->ra);
    out->deg_b = in.deg_b - (error ? 0 : st->rb);
    out->done = !error && (out->deg_a < 0 || out->deg_b < 0);
    out->error = error;
    out->buf = error ? in.buf : buf;
}

/*
 * Ping-ping call: deg a - deg b >= s, so all steps reduce a by b, and b is
 * left unchanged.  a is updated in place, by classical steps (one inverse of
 * lc(b) per call).  Shared memory: head of a and b
 * (s each), a window of l, b window of l + s - 1 offsets.
 */
__global__ void gcd_ping_ping_kernel(gcd_buffers bufs, const gcd_state *st_in,
                                     gcd_state *st_out, int s)
{
    extern __shared__ uint32_t smem[];
    __shared__ gcd_step step;
    __shared__ int err;
    __shared__ uint32_t inv_lcb;
    const int l = blockDim.x, t = threadIdx.x;
    const gcd_state in = *st_in;
    const bool writer = (blockIdx.x == 0 && t == 0);
    if (in.done || in.error) {
        if (writer)
            *st_out = in;
        return;
    }
    const int da0 = in.deg_a, db0 = in.deg_b;
    uint32_t *a = bufs.a[in.buf];
    const uint32_t *b = bufs.b[in.buf];
    const long lo = s + (long)blockIdx.x * l;    /* first owned offset */
    const int wb_len = l + s - 1;                /* b offsets lo-(s-1) .. lo+l-1 */
    uint32_t *ha = smem, *hb = ha + s, *wa = hb + s, *wb = wa + l;

    for (int i = t; i < s; i += l) {
        ha[i] = coef_at(a, da0, i);
        hb[i] = coef_at(b, db0, i);
    }
    wa[t] = coef_at(a, da0, lo + t);
    for (int i = t; i < wb_len; i += l)
        wb[i] = coef_at(b, db0, lo - (s - 1) + i);
    if (t == 0) {
        step.ra = step.rb = 0;
        err = 0;
        if (da0 - db0 < s || db0 < 0 || hb[0] == 0)
            err = GCD_ERR_PINGPING;
        else if ((long)gridDim.x * l < db0)
            err = GCD_ERR_COVERAGE;
        else
            inv_lcb = zp_inv(hb[0]);
    }
    __syncthreads();
    if (err) {
        if (writer)
            write_state(st_out, in, &step, err, in.buf);
        return;
    }
    for (;;) {
        if (t == 0)
            choose_step(&step, ha, hb, da0, db0, s);
        __syncthreads();
        if (step.action == STOP)
            break;
        /* a offset i pairs with b offset i - ra: local index i - ra in hb,
           i - ra + (s - 1) in wb */
        uint32_t c = zp_mul(step.lca, inv_lcb);
        subtract_multiple(ha, s, hb, s, -step.ra, c);
        subtract_multiple(wa, l, wb, wb_len, s - 1 - step.ra, c);
        __syncthreads();
    }
    if (lo + t <= da0)
        a[da0 - (lo + t)] = wa[t];
    if (writer)
        write_state(st_out, in, &step, 0, in.buf);
}

/*
 * Ping-pong call: either polynomial may be reduced.  Reads buffer pair
 * in.buf, writes the other.  Shared memory: heads of 2s - 1 offsets and
 * windows of l + 2(s - 1) offsets, for a and b.
 */
__global__ void gcd_ping_pong_kernel(gcd_buffers bufs, const gcd_state *st_in,
                                     gcd_state *st_out, int s)
{
    extern __shared__ uint32_t smem[];
    __shared__ gcd_step step;
    const int l = blockDim.x, t = threadIdx.x;
    const gcd_state in = *st_in;
    const bool writer = (blockIdx.x == 0 && t == 0);
    if (in.done || in.error) {
        if (writer)
            *st_out = in;
        return;
    }
    const int da0 = in.deg_a, db0 = in.deg_b;
    const uint32_t *a = bufs.a[in.buf], *b = bufs.b[in.buf];
    uint32_t *a_out = bufs.a[1 - in.buf], *b_out = bufs.b[1 - in.buf];
    if (s + (long)gridDim.x * l <= (da0 > db0 ? da0 : db0)) {
        if (writer) {
            step.ra = step.rb = 0;
            write_state(st_out, in, &step, GCD_ERR_COVERAGE, in.buf);
        }
        return;
    }
    const int h_len = 2 * s - 1, w_len = l + 2 * (s - 1);
    const long lo = s + (long)blockIdx.x * l;    /* first owned offset */
    const long wbase = lo - (s - 1);             /* offset of wa[0], wb[0] */
    uint32_t *ha = smem, *hb = ha + h_len, *wa = hb + h_len, *wb = wa + w_len;

    for (int i = t; i < h_len; i += l) {
        ha[i] = coef_at(a, da0, i);
        hb[i] = coef_at(b, db0, i);
    }
    for (int i = t; i < w_len; i += l) {
        wa[i] = coef_at(a, da0, wbase + i);
        wb[i] = coef_at(b, db0, wbase + i);
    }
    if (t == 0)
        step.ra = step.rb = 0;
    __syncthreads();
    for (;;) {
        if (t == 0)
            choose_step(&step, ha, hb, da0, db0, s);
        __syncthreads();
        if (step.action == STOP)
            break;
        if (step.action == STEP_A) {
            int delta = step.rb - step.ra;
            reduce_window(ha, h_len, hb, h_len, delta, step.lca, step.lcb);
            reduce_window(wa, w_len, wb, w_len, delta, step.lca, step.lcb);
        } else {
            int delta = step.ra - step.rb;
            reduce_window(hb, h_len, ha, h_len, delta, step.lcb, step.lca);
            reduce_window(wb, w_len, wa, w_len, delta, step.lcb, step.lca);
        }
        __syncthreads();
    }
    /* owned offsets, then (block 0) the head offsets 0 .. s-1 */
    if (lo + t <= da0)
        a_out[da0 - (lo + t)] = wa[t + s - 1];
    if (lo + t <= db0)
        b_out[db0 - (lo + t)] = wb[t + s - 1];
    if (blockIdx.x == 0) {
        for (int i = t; i < s; i += l) {
            if (i <= da0)
                a_out[da0 - i] = ha[i];
            if (i <= db0)
                b_out[db0 - i] = hb[i];
        }
    }
    if (writer)
        write_state(st_out, in, &step, 0, 1 - in.buf);
}

/* ---- host side ---------------------------------------------------------- */

typedef struct {
    int ping_ping;      /* 1: ping-ping kernel, 0: ping-pong kernel */
    unsigned blocks;
} gcd_call;

/*
 * The schedule of calls for generic inputs (each division step lowers the
 * degree of the reduced polynomial by exactly one).  Returns the count.
 */
static int gcd_schedule(long n, long m, int s, int l, gcd_call *calls,
                        int max_calls)
{
    long da = n - 1, db = m - 1;
    int count = 0;
    while (da >= 0 && db >= 0 && count < max_calls) {
        gcd_call *c = &calls[count++];
        if (da - db >= s) {
            c->ping_ping = 1;
            c->blocks = (unsigned)ceil_div(db + 1, l);
            da -= s;
            continue;
        }
        long ba = ceil_div(da + 1, l), bb = ceil_div(db + 1, l);
        c->ping_ping = 0;
        c->blocks = (unsigned)(ba < bb ? ba : bb);
        for (int j = 0; j < s && da >= 0 && db >= 0; j++) {
            if (da >= db)
                da--;
            else
                db--;
        }
    }
    return count;
}

typedef struct {
    long n, m;
    int s, l;
    gcd_call *calls;
    int ncalls;
    gcd_buffers bufs;
    gcd_state *d_state;          /* two states */
    const uint32_t *d_a_orig, *d_b_orig;
    uint32_t *a, *b;             /* the timed pair, on the host */
    int planted_ok;              /* the planted-factor check passed */
} euclid_ctx;

static void euclid_reset(void *p)
{
    euclid_ctx *c = (euclid_ctx *)p;
    gcd_state init = {(int)c->n - 1, (int)c->m - 1, 0, 0, 0};
    dev_copy(c->bufs.a[0], c->d_a_orig, (size_t)c->n);
    dev_copy(c->bufs.b[0], c->d_b_orig, (size_t)c->m);
    CUDA_CHECK(cudaMemcpy(c->d_state, &init, sizeof init,
                          cudaMemcpyHostToDevice));
}

static void euclid_run(void *p)
{
    euclid_ctx *c = (euclid_ctx *)p;
    const int s = c->s, l = c->l;
    const size_t smem_pp = (size_t)(3 * s + 2 * l - 1) * sizeof(uint32_t);
    const size_t smem_pg = (size_t)(2 * (2 * s - 1) + 2 * (l + 2 * (s - 1))) *
                           sizeof(uint32_t);
    for (int k = 0; k < c->ncalls; k++) {
        gcd_state *in = c->d_state + (k & 1), *out = c->d_state + 1 - (k & 1);
        if (c->calls[k].ping_ping)
            LAUNCH(gcd_ping_ping_kernel, c->calls[k].blocks, l, smem_pp, c->bufs,
                   in, out, s);
        else
            LAUNCH(gcd_ping_pong_kernel, c->calls[k].blocks, l, smem_pg, c->bufs,
                   in, out, s);
    }
}

/* monic gcd left on the device after a run; returns its degree or -2 on error */
static int fetch_gcd(euclid_ctx *c, uint32_t *g)
{
    gcd_state st;
    CUDA_CHECK(cudaMemcpy(&st, c->d_state + (c->ncalls & 1), sizeof st,
                          cudaMemcpyDeviceToHost));
    if (st.error || !st.done) {
        fprintf(stderr, "euclid: final state error=%d done=%d deg=(%d,%d)\n",
                st.error, st.done, st.deg_a, st.deg_b);
        return -2;
    }
    const uint32_t *src = st.deg_a < 0 ? c->bufs.b[st.buf] : c->bufs.a[st.buf];
    int bound = st.deg_a < 0 ? st.deg_b : st.deg_a;
    to_host(g, src, (size_t)bound + 1);
    int deg = poly_degree(g, bound + 1);
    if (deg >= 0)
        poly_make_monic(g, deg);
    return deg < 0 ? -2 : deg;
}

/* compare the gcd left on the device by the last run with cpu_gcd(a, b) */
static int compare_gcd(euclid_ctx *c, const uint32_t *a, const uint32_t *b,
                       const char *what)
{
    uint32_t *got = host_alloc_u32((size_t)c->n), *want = host_alloc_u32((size_t)c->n);
    int deg_got = fetch_gcd(c, got);
    int deg_want = cpu_gcd(a, (int)c->n - 1, b, (int)c->m - 1, want);
    int ok = deg_got == deg_want &&
             same_words(what, got, want, (size_t)deg_want + 1);
    if (!ok)
        fprintf(stderr, "euclid %s: gcd degree %d, want %d\n", what, deg_got,
                deg_want);
    free(got);
    free(want);
    return ok;
}

/* upload a pair as the inputs of the next runs */
static void set_inputs(euclid_ctx *c, const uint32_t *a, const uint32_t *b)
{
    to_device((uint32_t *)c->d_a_orig, a, (size_t)c->n);
    to_device((uint32_t *)c->d_b_orig, b, (size_t)c->m);
}

/* random polynomial of size len with a non-zero leading coefficient */
static void random_poly(uint32_t *p, long len, rng_t *rng)
{
    for (long i = 0; i + 1 < len; i++)
        p[i] = rng_zp(rng);
    p[len - 1] = rng_zp_nonzero(rng);
}

/* a = g u, b = g v with a random g of degree GCD_PLANTED_DEGREE */
static void planted_pair(uint32_t *a, long n, uint32_t *b, long m, rng_t *rng)
{
    const long dg = GCD_PLANTED_DEGREE;
    uint32_t *g = host_alloc_u32(dg + 1), *u = host_alloc_u32((size_t)(n - dg));
    uint32_t *v = host_alloc_u32((size_t)(m - dg));
    random_poly(g, dg + 1, rng);
    random_poly(u, n - dg, rng);
    random_poly(v, m - dg, rng);
    cpu_mul_schoolbook(g, (size_t)dg + 1, u, (size_t)(n - dg), a);
    cpu_mul_schoolbook(g, (size_t)dg + 1, v, (size_t)(m - dg), b);
    free(g);
    free(u);
    free(v);
}

/* check the gcd of the last timed run, print the row */
static int finish(void *p, const bench_result *res)
{
    euclid_ctx *c = (euclid_ctx *)p;
    int ok = c->planted_ok & compare_gcd(c, c->a, c->b, "random pair");

    char params[128];
    snprintf(params, sizeof params, "n=%ld;m=%ld;l=%d;s=%d", c->n, c->m, c->l,
             c->s);
    report("euclid", params, c->n, c->m, c->l, c->s, res, ok);
    for (int i = 0; i < 2; i++) {
        CUDA_CHECK(cudaFree(c->bufs.a[i]));
        CUDA_CHECK(cudaFree(c->bufs.b[i]));
    }
    CUDA_CHECK(cudaFree(c->d_state));
    CUDA_CHECK(cudaFree((void *)c->d_a_orig));
    CUDA_CHECK(cudaFree((void *)c->d_b_orig));
    free(c->calls);
    free(c->a);
    free(c->b);
    free(c);
    return ok;
}

/* a point of the series: the launch schedule, a correctness run on a pair
 * with a planted common factor (untimed), then a fresh random (generically
 * coprime) pair on the device for the timed runs */
static bench_point prepare(long n, long m, int s, int l, rng_t *rng)
{
    euclid_ctx *c = (euclid_ctx *)calloc(1, sizeof *c);
    int max_calls = (int)((n + m) / s + 4);
    c->a = host_alloc_u32((size_t)n);
    c->b = host_alloc_u32((size_t)m);
    c->d_a_orig = dev_alloc_u32((size_t)n);
    c->d_b_orig = dev_alloc_u32((size_t)m);
    c->n = n;
    c->m = m;
    c->s = s;
    c->l = l;
    c->calls = (gcd_call *)malloc((size_t)max_calls * sizeof(gcd_call));
    if (!c->calls) {
        fprintf(stderr, "out of host memory (%d calls)\n", max_calls);
        exit(1);
    }
    c->ncalls = gcd_schedule(n, m, s, l, c->calls, max_calls);
    for (int i = 0; i < 2; i++) {
        c->bufs.a[i] = dev_alloc_u32((size_t)n);
        c->bufs.b[i] = dev_alloc_u32((size_t)n);
    }
    CUDA_CHECK(cudaMalloc(&c->d_state, 2 * sizeof(gcd_state)));

    planted_pair(c->a, n, c->b, m, rng);
    set_inputs(c, c->a, c->b);
    euclid_reset(c);
    euclid_run(c);
    CUDA_CHECK(cudaDeviceSynchronize());
    c->planted_ok = compare_gcd(c, c->a, c->b, "planted factor");

    random_poly(c->a, n, rng);
    random_poly(c->b, m, rng);
    set_inputs(c, c->a, c->b);
    bench_point p = {{euclid_reset, euclid_run, c}, finish};
    return p;
}

int main(int argc, char **argv)
{
    static const char *const keys[] = {"--n", "--m", "--s", "--l", COMMON_KEYS,
                                       NULL};
    static const char *const flags[] = {COMMON_FLAGS, NULL};
    cli_require_known(argc, argv, keys, flags,
                      "euclid [--n LIST] [--m M] [--s LIST] [--l 256] [--runs R] "
                      "[--warmup W] [--seed S] [--occupancy FILE] [--no-header]");
    common_opts o = common_parse(argc, argv);
    long ns[CLI_MAX_LIST], ss[CLI_MAX_LIST];
    static const long default_n[] = {1000, 2000, 3000, 4000, 5000,
                                     6000, 7000, 8000, 9000, 10000};
    static const long default_s[] = {1, 256};
    int count_n = cli_list(argc, argv, "--n", ns, default_n, 10);
    int count_s = cli_list(argc, argv, "--s", ss, default_s, 2);
    long m_opt = cli_long(argc, argv, "--m", 0);
    int l = (int)cli_long(argc, argv, "--l", 256);
    if (l < 32 || l > 1024 || l % 32 != 0) {
        fprintf(stderr, "--l must be a multiple of 32 in [32, 1024]\n");
        return 2;
    }
    rng_t rng = {o.seed};
    bench_point pts[CLI_MAX_LIST];
    int count_pts = 0;
    for (int i = 0; i < count_n; i++) {
        for (int j = 0; j < count_s; j++) {
            long n = ns[i], m = m_opt ? m_opt : ns[i], s = ss[j];
            if (m <= GCD_PLANTED_DEGREE + 1 || n < m || s < 1 || s > 1024 ||
                n > 100000000) {
                fprintf(stderr, "need n >= m > %d and 1 <= s <= 1024\n",
                        GCD_PLANTED_DEGREE + 1);
                return 2;
            }
            if (count_pts == CLI_MAX_LIST) {
                fprintf(stderr, "at most %d points per series\n", CLI_MAX_LIST);
                return 2;
            }
            pts[count_pts++] = prepare(n, m, (int)s, l, &rng);
        }
    }
    if (o.header)
        csv_print_header(stdout);
    return bench_series(pts, count_pts, &o) ? 0 : 1;
}
