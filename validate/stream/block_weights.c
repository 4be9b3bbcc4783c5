/*
 * block_weights.c — the weights the instruction stream gives each basic
 * block of a kernel written once (sim/exec/stream.h): the file compiled
 * to IR as exec mode's counted build compiles it (clang with
 * stream_clang_flags, the include folders of user_program.c), weighed by
 * stream_annotate, and per block its number, its function, its IR label
 * and its STREAM_* fields (inst, plain, mulmod, addmod, private, global,
 * reads, trips, exits, ...), one line a block.  What a count per basic
 * block is compared with the card's executed SASS by (a warp's passes
 * through each block times its weights; validate/notes/
 * instruction-stream.md, "Session 43: MulKer's count against Nsight
 * Compute").  Not part of the build; from the repository's root:
 *
 *   cc -std=c11 -O1 -D_DEFAULT_SOURCE -D_POSIX_C_SOURCE=200809L -Isim/base -Imachine -Isim/model \
 *      -Isim/exec -o build/block-weights validate/stream/block_weights.c build/libmcmsim.a \
 *      -lsimgrid -lconfig -lmuparser -lcjson -lgsl -lgslcblas -lseccomp -lm -ldl -pthread
 *   build/block-weights programs/plain-mult/kernels.c
 *
 * (no -g: debug information changes clang's IR, and so a few weights).
 */
#include "stream.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const FIELD_NAMES[STREAM_FIELDS] = {
    "inst", "plain", "mulmod", "addmod", "private", "global", "reads", "trips", "exits",
    "root_links", "root_level", "unroll", "hoisted", "chain_plain", "chain_mulmod", "chain_addmod", "chain_private",
    "chain_global", "chain_predicate", "chain_beside", "after_plain", "after_mulmod", "after_addmod", "after_private",
    "after_global", "after_predicate", "after_beside"};

/* clang's counted IR of `source` into `ir`; 0 on success. */
static int compile(const char *source, const char *ir)
{
    char command[4096];
    size_t n = (size_t)snprintf(command, sizeof command, "clang -std=c11");
    for (int i = 0; stream_clang_flags[i] && n < sizeof command; i++)
        n += (size_t)snprintf(command + n, sizeof command - n, " %s", stream_clang_flags[i]);
    if (n < sizeof command)
        n += (size_t)snprintf(command + n, sizeof command - n,
                              " -fPIC -Isim/exec -Isim/model -Imachine -o %s %s", ir, source);
    return n < sizeof command ? system(command) : -1;
}

/* Block k's function and label, from the annotated IR: the `define` and
 * the label line before its call of mcm_stream_block. */
static void block_place(const char *text, int k, char *function, size_t fsize, char *label, size_t lsize)
{
    char call[64];
    snprintf(call, sizeof call, "call void @mcm_stream_block(i32 %d)", k);
    const char *at = strstr(text, call);
    snprintf(function, fsize, "?");
    snprintf(label, lsize, "entry");
    if (!at)
        return;
    for (const char *p = at; p > text; p--) {
        if (p[-1] != '\n')
            continue;
        if (!strncmp(p, "define", 6)) {
            const char *at_sign = strchr(p, '@');
            size_t len = at_sign ? strcspn(at_sign + 1, "(") : 0;
            snprintf(function, fsize, "%.*s", (int)len, at_sign ? at_sign + 1 : "");
            return;
        }
        if (!strcmp(label, "entry") && p[0] != ' ' && strchr(p, ':') && strchr(p, ':') < strchr(p, '\n'))
            snprintf(label, lsize, "%%%.*s", (int)strcspn(p, ":"), p);
    }
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: block-weights FILE.c (from the repository's root)\n");
        return 2;
    }
    char ir[] = "/tmp/block-weights-XXXXXX";
    int fd = mkstemp(ir);
    if (fd >= 0)
        close(fd);
    if (fd < 0 || compile(argv[1], ir) != 0) {
        fprintf(stderr, "block-weights: clang failed on %s\n", argv[1]);
        return 1;
    }
    FILE *in = fopen(ir, "r");
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    int rc = in && out ? stream_annotate(in, ir, out) : -1;
    if (in)
        fclose(in);
    if (out)
        fclose(out);
    unlink(ir);
    char *table = rc == 0 ? strstr(text, "@mcm_stream_table") : NULL;
    char *end = table ? strstr(table, "@mcm_stream_chain_reads") : NULL;
    if (!table || !end) {
        fprintf(stderr, "block-weights: no table of weights for %s\n", argv[1]);
        return 1;
    }
    *end = '\0';
    printf("block function label");
    for (int k = 0; k < STREAM_FIELDS; k++)
        printf(" %s", FIELD_NAMES[k]);
    printf("\n");
    int n = 0;
    for (const char *s = strstr(table, "] [i32"); s; s = strstr(s + 1, "] [i32"), n++) {
        char function[128], label[64];
        block_place(text, n, function, sizeof function, label, sizeof label); /* the calls come before the table */
        printf("%d %s %s", n, function, label);
        const char *p = s + 2;
        for (int k = 0; k < STREAM_FIELDS; k++) {
            p = strstr(p, "i32 ") + 4;
            printf(" %lu", strtoul(p, NULL, 10));
        }
        printf("\n");
    }
    free(text);
    return 0;
}
