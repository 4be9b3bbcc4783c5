/*
 * exec_registry.c — the case studies that run in exec mode (see
 * exec_programs.h).  Each lives in programs/<name>_exec.c.
 */
#include "exec_programs.h"

#include <string.h>

extern const exec_program exec_stockham;
extern const exec_program exec_fft_mult;
extern const exec_program exec_radix_sort;

static const exec_program *const list[] = {
    &exec_stockham,
    &exec_fft_mult,
    &exec_radix_sort,
    NULL,
};

const exec_program *const *exec_programs(void) { return list; }

const exec_program *exec_program_find(const char *name)
{
    for (int i = 0; list[i]; i++)
        if (strcmp(list[i]->name, name) == 0)
            return list[i];
    return NULL;
}
