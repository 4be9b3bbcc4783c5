/*
 * costs.c — kernels for validate/stream/sass-costs.sh (not a program to
 * run): nvcc's code for one, two and four calls of each exec_* function
 * of mcm_kernel_cuda.cuh, whose growth per call is what one call costs a
 * warp on sm_90 (sim/exec/stream_ir_calls.c, CALL_COSTS).
 *  - zp*: k Z/pZ operations on words read from memory (neither known
 *    below p: the range checks are done), the results xor'd and written;
 *    x*: the same reads and xors with no operation;
 *  - g*: a chain of k global reads, each at the word the one before read
 *    (a 64-bit address each); p*: the same in private memory;
 *  - empty, bar: a kernel of one empty step, and of two (one barrier).
 */
#include "mcm_kernel.h"

typedef struct args { gmem a; long k; } args;

#define OPS(name, op, K) MCM_STEP(name, args, a) { long i = t->bid * t->threads + t->tid; word s = 0; \
    for (int k = 0; k < K; k++) s ^= op(t, exec_gread(t, a->a, i + 2048 * k), exec_gread(t, a->a, i + 2048 * k + 1024)); \
    exec_gwrite(t, a->a, i, s); }
#define XOR(t, x, y) ((x) ^ (y))
OPS(x1, XOR, 1) OPS(x2, XOR, 2) OPS(x4, XOR, 4)
OPS(zpmul1, exec_zp_mul, 1) OPS(zpmul2, exec_zp_mul, 2) OPS(zpmul4, exec_zp_mul, 4)
OPS(zpadd1, exec_zp_add, 1) OPS(zpadd2, exec_zp_add, 2) OPS(zpadd4, exec_zp_add, 4)
OPS(zpsub1, exec_zp_sub, 1) OPS(zpsub2, exec_zp_sub, 2) OPS(zpsub4, exec_zp_sub, 4)

/* mac*, macsub*: k multiply-adds (subtractions) into a sum that starts at
 * 0, each product of two words read from memory: the addition's operands
 * are results, below p, which the header tells the compiler (the range
 * checks go); the growth per call less zpmul's is what an addition or a
 * subtraction of results costs. */
#define MAC(name, op, K) MCM_STEP(name, args, a) { long i = t->bid * t->threads + t->tid; word s = 0; \
    for (int k = 0; k < K; k++) s = op(t, s, exec_zp_mul(t, exec_gread(t, a->a, i + 2048 * k), exec_gread(t, a->a, i + 2048 * k + 1024))); \
    exec_gwrite(t, a->a, i, s); }
MAC(mac1, exec_zp_add, 1) MAC(mac2, exec_zp_add, 2) MAC(mac4, exec_zp_add, 4)
MAC(macsub1, exec_zp_sub, 1) MAC(macsub2, exec_zp_sub, 2) MAC(macsub4, exec_zp_sub, 4)

/* mixadd*, mixsub*: k additions (subtractions) of a word read from memory
 * and a product of two others, as plain division's `lead − q·b` and
 * `v − q·b`: one operand a result, below p, the other a word of 32 bits
 * whose range is checked; mulx*: the same reads and products, each xor'd
 * with the first word in place of the operation.  The growth per call of
 * the one less the other's, plus the LOP3 it replaces, is what an addition
 * or a subtraction of one result and one unknown word costs. */
#define MIX(name, op, K) MCM_STEP(name, args, a) { long i = t->bid * t->threads + t->tid; word s = 0; \
    for (int k = 0; k < K; k++) s ^= op(t, exec_gread(t, a->a, i + 2048 * k), \
        exec_zp_mul(t, exec_gread(t, a->a, i + 2048 * k + 1024), exec_gread(t, a->a, i + 2048 * k + 512))); \
    exec_gwrite(t, a->a, i, s); }
#define XOR_WITH(t, x, y) ((x) ^ (y))
MIX(mulx1, XOR_WITH, 1) MIX(mulx2, XOR_WITH, 2) MIX(mulx4, XOR_WITH, 4)
MIX(mixadd1, exec_zp_add, 1) MIX(mixadd2, exec_zp_add, 2) MIX(mixadd4, exec_zp_add, 4)
MIX(mixsub1, exec_zp_sub, 1) MIX(mixsub2, exec_zp_sub, 2) MIX(mixsub4, exec_zp_sub, 4)

/* div*: a chain of k signed 64-bit halvings, each added to a word read;
 * sum*: the same chain without the halving.  The growth of the one less
 * the other's is what a signed division by a power of two costs. */
#define HALVE(name, DIV, K) MCM_STEP(name, args, a) { long i = t->bid * t->threads + t->tid; \
    long s = (long)exec_gread(t, a->a, i) - a->k; \
    for (int k = 0; k < K; k++) s = DIV(s) + (long)exec_gread(t, a->a, i + 2048 * k + 1024); \
    exec_gwrite(t, a->a, i, (word)s); }
#define BY_TWO(s) ((s) / 2)
#define AS_IS(s) (s)
HALVE(div1, BY_TWO, 1) HALVE(div2, BY_TWO, 2) HALVE(div4, BY_TWO, 4)
HALVE(sum1, AS_IS, 1) HALVE(sum2, AS_IS, 2) HALVE(sum4, AS_IS, 4)

#define GCHAIN(name, K) MCM_STEP(name, args, a) { word x = (word)t->tid; \
    for (int k = 0; k < K; k++) x = exec_gread(t, a->a, (long)x); exec_gwrite(t, a->a, t->tid, x); }
GCHAIN(g1, 1) GCHAIN(g2, 2) GCHAIN(g4, 4)
#define PCHAIN(name, K) MCM_STEP(name, args, a) { word x = (word)t->tid; \
    for (int k = 0; k < K; k++) x = exec_pread(t, (long)x); exec_gwrite(t, a->a, t->tid, x); }
PCHAIN(p1, 1) PCHAIN(p2, 2) PCHAIN(p4, 4)
MCM_STEP(nothing, args, a) { }

MCM_KERNEL(x1k, args, x1); MCM_KERNEL(x2k, args, x2); MCM_KERNEL(x4k, args, x4);
MCM_KERNEL(zpmul1k, args, zpmul1); MCM_KERNEL(zpmul2k, args, zpmul2); MCM_KERNEL(zpmul4k, args, zpmul4);
MCM_KERNEL(zpadd1k, args, zpadd1); MCM_KERNEL(zpadd2k, args, zpadd2); MCM_KERNEL(zpadd4k, args, zpadd4);
MCM_KERNEL(zpsub1k, args, zpsub1); MCM_KERNEL(zpsub2k, args, zpsub2); MCM_KERNEL(zpsub4k, args, zpsub4);
MCM_KERNEL(mac1k, args, mac1); MCM_KERNEL(mac2k, args, mac2); MCM_KERNEL(mac4k, args, mac4);
MCM_KERNEL(macsub1k, args, macsub1); MCM_KERNEL(macsub2k, args, macsub2); MCM_KERNEL(macsub4k, args, macsub4);
MCM_KERNEL(mulx1k, args, mulx1); MCM_KERNEL(mulx2k, args, mulx2); MCM_KERNEL(mulx4k, args, mulx4);
MCM_KERNEL(mixadd1k, args, mixadd1); MCM_KERNEL(mixadd2k, args, mixadd2); MCM_KERNEL(mixadd4k, args, mixadd4);
MCM_KERNEL(mixsub1k, args, mixsub1); MCM_KERNEL(mixsub2k, args, mixsub2); MCM_KERNEL(mixsub4k, args, mixsub4);
MCM_KERNEL(div1k, args, div1); MCM_KERNEL(div2k, args, div2); MCM_KERNEL(div4k, args, div4);
MCM_KERNEL(sum1k, args, sum1); MCM_KERNEL(sum2k, args, sum2); MCM_KERNEL(sum4k, args, sum4);
MCM_KERNEL(g1k, args, g1); MCM_KERNEL(g2k, args, g2); MCM_KERNEL(g4k, args, g4);
MCM_KERNEL(p1k, args, p1); MCM_KERNEL(p2k, args, p2); MCM_KERNEL(p4k, args, p4);
MCM_KERNEL(emptyk, args, nothing);
MCM_KERNEL(bark, args, nothing, nothing);

static int setup(exec_run *run, const mcm_params *p) { (void)run; (void)p; return 0; }
static int launches(exec_run *run) { (void)run; return 0; }
static int check(exec_run *run) { (void)run; return 0; }
MCM_PROGRAM("costs", setup, launches, check);
