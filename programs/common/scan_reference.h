/*
 * scan_reference.h — the serial reference of the two prefix sums' kernels
 * written once (prefix-naive/kernels.c and prefix-optimal/kernels.c, which
 * include it as "../common/scan_reference.h": it is compiled with each of them,
 * in exec mode and by nvcc alike).  Host code, for a program's check.
 */
#ifndef MCM_SCAN_REFERENCE_H
#define MCM_SCAN_REFERENCE_H

#include "mcm_kernel.h"

/* 0 if result[i] = input[0] + ... + input[i] (mod 2^32) for every i < n,
 * else mcm_fail naming `program` and the first element that differs. */
static inline int scan_check(const char *program, gmem input, gmem result, long n)
{
    uint32_t sum = 0;
    for (long i = 0; i < n; i++) {
        sum += (uint32_t)mcm_get(input, i);
        if (mcm_get(result, i) != sum)
            return mcm_fail("%s: element %ld is %llu, the serial scan gives %llu", program, i,
                            (unsigned long long)mcm_get(result, i), (unsigned long long)sum);
    }
    return 0;
}

#endif
