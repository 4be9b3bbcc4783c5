/*
 * test_paje.c — `mcmsim run --paje FILE.trace`: the schedule as a Paje
 * trace that pajeng's pj_dump reads without error, with one state per
 * thread-block of the `--trace` CSV and one container per SM; and the
 * refusals (a sweep, a DMM machine), each leaving no file behind.
 *
 * The binary is found through $MCMSIM (set by `make test`).
 */
#include "helpers.h"

#include <sys/wait.h>

/* Lines of `command`'s stdout that start with `prefix` and do not end
 * with `unless_suffix` (NULL: none); -1 when the command fails. */
static long count_lines(const char *command, const char *prefix, const char *unless_suffix)
{
    FILE *p = popen(command, "r");
    cr_assert_not_null(p);
    char line[4096];
    long n = 0;
    while (fgets(line, sizeof line, p)) {
        line[strcspn(line, "\n")] = '\0';
        size_t len = strlen(line), tail = unless_suffix ? strlen(unless_suffix) : 0;
        if (strncmp(line, prefix, strlen(prefix)) == 0 &&
            !(unless_suffix && len >= tail && strcmp(line + len - tail, unless_suffix) == 0))
            n++;
    }
    int status = pclose(p);
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? n : -1;
}

static void paje_matches_trace(const char *run_file, const char *sets, int sms)
{
    char out[1 << 16], paje[] = "/tmp/mcmsim-paje-XXXXXX", csv[64], cmd[512];
    int fd = mkstemp(paje);
    cr_assert(fd >= 0);
    close(fd);
    snprintf(csv, sizeof csv, "%s.csv", paje);
    cr_assert_eq(mcmsim_output(MCMSIM_OUT_AND_ERR, out, sizeof out, "run %s %s --paje %s", run_file, sets, paje),
                 0, "%s", out);
    cr_assert_eq(mcmsim_output(MCMSIM_OUT_AND_ERR, out, sizeof out, "run %s %s --trace %s", run_file, sets, csv),
                 0, "%s", out);
    long rows = count_lines(strcat(strcpy(cmd, "cat "), csv), "", NULL) - 1; /* less the header */
    snprintf(cmd, sizeof cmd, "pj_dump %s 2>&1", paje);
    long states = count_lines(cmd, "State,", ", idle");
    long containers = count_lines(cmd, "Container,", NULL);
    cr_expect(states >= 0, "pj_dump failed on %s", paje);
    cr_expect_eq(states, rows, "one state per thread-block: %ld states, %ld blocks", states, rows);
    cr_expect_eq(containers, sms + 2, "the root, the machine and one container per SM");
    remove(csv);
    remove(paje);
}

Test(paje, pj_dump_reads_one_state_per_block, .timeout = 60)
{
    paje_matches_trace("programs/demo.cfg", "--set p=4 --set n=65536", 4);
}

Test(paje, card_machine_with_resident_blocks, .timeout = 60)
{
    /* h100: 16 resident blocks per SM; a sum of 2^20 words has kernels of
     * 2048 blocks, so every SM holds several at once: one container per slot */
    char run_file[] = "/tmp/mcmsim-paje-run-XXXXXX";
    int fd = mkstemp(run_file);
    cr_assert(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fprintf(f, "machine = \"h100\";\nprogram = { name = \"sum\"; params = { n = 1048576; l = 256; }; };\n");
    fclose(f);
    char out[1 << 16], paje[] = "/tmp/mcmsim-paje-XXXXXX", cmd[256];
    fd = mkstemp(paje);
    close(fd);
    cr_assert_eq(mcmsim_output(MCMSIM_OUT_AND_ERR, out, sizeof out, "run %s --paje %s", run_file, paje), 0, "%s",
                 out);
    snprintf(cmd, sizeof cmd, "pj_dump %s 2>&1", paje);
    long containers = count_lines(cmd, "Container,", NULL);
    cr_expect(containers > 132 + 2, "more than one slot per SM: %ld containers", containers);
    cr_expect(count_lines(cmd, "State,", ", idle") > 0, "pj_dump read no state");
    remove(paje);
    remove(run_file);
}

Test(paje, refusals_leave_no_file)
{
    char out[4096];
    int rc = mcmsim_output(MCMSIM_ERR_ONLY, out, sizeof out, "run programs/demo.cfg --paje /tmp/mcmsim-paje-no.trace");
    cr_expect_neq(rc, 0);
    cr_expect(strstr(out, "--paje /tmp/mcmsim-paje-no.trace traces one point, but programs/demo.cfg sweeps 8 points "
                          "(p): pin the sweep with --set, e.g. --set p=1") != NULL, "%s", out);
    rc = mcmsim_output(MCMSIM_ERR_ONLY, out, sizeof out,
                       "run programs/dmm-umm.cfg --set kind=dmm --paje /tmp/mcmsim-paje-no.trace");
    cr_expect_neq(rc, 0);
    cr_expect(strstr(out, "no thread-blocks to trace") != NULL || strstr(out, "sweeps") != NULL, "%s", out);
    cr_expect_neq(access("/tmp/mcmsim-paje-no.trace", F_OK), 0, "a refused run left a file");
}
