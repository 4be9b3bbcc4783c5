/*
 * exec_registry.c — the case studies that run in exec mode (see
 * exec_programs.h).  Each lives in programs/<name>_exec.c.
 */
#include "exec_programs.h"

#include <string.h>

static const exec_program *const list[] = {
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
