/*
 * fuzz_runfile.c — libFuzzer target: bytes as a run file, through the
 * loader, the sweep expansion, the machine rules and every program
 * builder but the user's own source files, which the system compiler would
 * compile and exec mode run; no simulation (`make fuzz`, tests/README.md, "Fuzzing").
 *
 * Whatever the bytes, each step either succeeds or fails with a message
 * (fail.h); a crash, a sanitizer report or a leak of ours is a finding.
 * The known leak inside libconfig 1.5's scanner is suppressed
 * (tests/fuzz/lsan.supp).
 */
#include "kernel_dag.h"
#include "program.h"
#include "runfile.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define POINTS_TRIED 16

static char path[64];

static void remove_input(void)
{
    unlink(path);
}

static void build_point(run_file *rf, long i)
{
    machine m;
    vars params;
    const char *name;
    if (runfile_point(rf, i, &m, &params, &name) < 0 || machine_validate(&m) < 0)
        return;
    if (m.kind != KIND_MCM || program_has_source(rf->program))
        return; /* a user's source file is compiled and run: not for a fuzzer (test_user_program) */
    kernel_dag *dag = program_build(rf->program, name, &params, &m);
    if (dag)
        kernel_dag_check(dag, &m, NULL);
    kernel_dag_free(dag);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!path[0]) {
        snprintf(path, sizeof path, "/tmp/mcmsim-fuzz-%d.cfg", (int)getpid());
        atexit(remove_input);
    }
    FILE *f = fopen(path, "wb");
    if (!f)
        return 0;
    fwrite(data, 1, size, f);
    fclose(f);
    run_file rf;
    if (runfile_load(&rf, path, NULL, 0) == 0) {
        long n = runfile_points(&rf);
        for (long i = 0; i < n && i < POINTS_TRIED; i++)
            build_point(&rf, i);
    }
    runfile_close(&rf);
    return 0;
}
