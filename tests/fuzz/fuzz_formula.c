/*
 * fuzz_formula.c — libFuzzer target: bytes as a formula (sim/base/formula.h),
 * evaluated with the names run files use (n, m, l, s, i, p, u, z) bound.
 * Each input is a value or a message, never a crash (`make fuzz`).
 */
#include "formula.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    vars v;
    vars_clear(&v);
    const char *names[] = {"n", "m", "l", "s", "i", "p", "u", "z"};
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
        vars_set(&v, names[k], (double)(k + 2) * 1024);
    double out;
    formula_eval(text, &v, "fuzz", &out);
    free(text);
    return 0;
}
