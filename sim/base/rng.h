/*
 * rng.h — a tiny seeded pseudo-random generator (splitmix64).
 *
 * The simulator draws random numbers in two places only: the `random` block
 * order and the `exclusive` memory policy's choice among simultaneous
 * requests.  Both must be reproducible for a given machine seed and must not
 * depend on the C library's rand(), so each owns one of these.
 */
#ifndef MCM_RNG_H
#define MCM_RNG_H

#include <stdint.h>

typedef struct rng { uint64_t state; } rng;

static inline void rng_seed(rng *r, uint64_t seed) { r->state = seed; }

static inline uint64_t rng_next(rng *r)
{
    uint64_t z = (r->state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Uniform integer in [0, n), n > 0 (the modulo bias is below 2^-40 for the
 * n the simulator uses, far under anything a test could see). */
static inline uint64_t rng_below(rng *r, uint64_t n) { return rng_next(r) % n; }

#endif
