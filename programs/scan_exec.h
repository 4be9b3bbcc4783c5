/*
 * scan_exec.h — what the two prefix sums share in exec mode: the serial
 * reference their results are checked against (32-bit sums, wrapping).
 */
#ifndef MCM_SCAN_EXEC_H
#define MCM_SCAN_EXEC_H

#include "exec.h"
#include "fail.h"

#include <stdint.h>

/* 0 if result[i] = input[0] + ... + input[i] (mod 2^32) for every i < n,
 * else -1 with fail() naming `program` and the first wrong index. */
static inline int scan_check(const char *program, const gmem result, const word *input, long n)
{
    uint32_t sum = 0;
    for (long i = 0; i < n; i++) {
        sum += (uint32_t)input[i];
        if (result->cells[i] != sum)
            return fail("program '%s' (exec mode): result differs from the serial reference: %llu, "
                        "expected %llu at index %ld", program, (unsigned long long)result->cells[i],
                        (unsigned long long)sum, i);
    }
    return 0;
}

#endif
