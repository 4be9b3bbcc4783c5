/*
 * rng.h -- a small deterministic random generator (splitmix64) shared by the
 * CUDA programs and the CPU tests.
 *
 * Owns: seeding and drawing random coefficients / keys.  Every program draws
 * fresh random inputs (never zeros) from a seed that changes with each run
 * unless --seed is given, so that a check=ok is earned on new data each time.
 */
#ifndef MCM_RNG_H
#define MCM_RNG_H

#include <stdint.h>
#include "zp.h"

typedef struct {
    uint64_t state;
} rng_t;

static inline uint64_t rng_next(rng_t *r)
{
    uint64_t z = (r->state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* uniform 32-bit word */
static inline uint32_t rng_u32(rng_t *r)
{
    return (uint32_t)(rng_next(r) >> 32);
}

/* element of Z/pZ (any value, zero included) */
static inline uint32_t rng_zp(rng_t *r)
{
    return (uint32_t)(rng_next(r) % ZP_P);
}

/* non-zero element of Z/pZ (used for leading coefficients) */
static inline uint32_t rng_zp_nonzero(rng_t *r)
{
    return 1u + (uint32_t)(rng_next(r) % (ZP_P - 1));
}

#endif /* MCM_RNG_H */
