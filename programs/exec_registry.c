/*
 * exec_registry.c — the case studies that run in exec mode (see
 * exec_programs.h).  Each lives in programs/<name>_exec.c.
 */
#include "exec_programs.h"

#include <stdlib.h>
#include <string.h>

extern const exec_program exec_euclid;
extern const exec_program exec_cooley_tukey;
extern const exec_program exec_stockham;
extern const exec_program exec_plain_mult;
extern const exec_program exec_fft_mult;
extern const exec_program exec_radix_sort;
extern const exec_program exec_plain_division;
extern const exec_program exec_sum;
extern const exec_program exec_prefix_naive;
extern const exec_program exec_prefix_optimal;

static const exec_program *const list[] = {
    &exec_euclid,
    &exec_cooley_tukey,
    &exec_stockham,
    &exec_plain_mult,
    &exec_fft_mult,
    &exec_radix_sort,
    &exec_plain_division,
    &exec_sum,
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

/* What the exec process needs: the program and its point. */
typedef struct builtin_point {
    const exec_program *x;
    const vars *params;
    machine m;
} builtin_point;

static const char *const phases[] = {"run"};

static int run_builtin(void *ctx, exec_whereabouts *here)
{
    (void)here;
    const builtin_point *b = ctx;
    return b->x->host(b->params, &b->m, exec_process_run(b->x->name));
}

int exec_program_start(exec_process *process, const exec_program *x, const vars *params, const machine *m,
                       int threads)
{
    builtin_point *b = malloc(sizeof *b);
    *b = (builtin_point){x, params, *m};
    return exec_process_start(process, x->name, phases, run_builtin, b, m, threads);
}
