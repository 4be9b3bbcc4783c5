/*
 * exec_registry.c — the case studies that run in exec mode (see
 * exec_programs.h).  Each lives in programs/<name>_exec.c.
 */
#include "exec_programs.h"

#include <string.h>

extern const exec_program exec_euclid;
extern const exec_program exec_cooley_tukey;
extern const exec_program exec_plain_mult;
extern const exec_program exec_plain_division;
extern const exec_program exec_prefix_naive;
extern const exec_program exec_prefix_optimal;

static const exec_program *const list[] = {
    &exec_euclid,
    &exec_cooley_tukey,
    &exec_plain_mult,
    &exec_plain_division,
    &exec_prefix_naive,
    &exec_prefix_optimal,
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
