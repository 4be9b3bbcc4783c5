/*
 * libconfig_leak.c — shows that the leak suppressed in lsan.supp is
 * libconfig's own, not mcmsim's (`make fuzz` runs it before fuzzing).
 *
 * This program links libconfig and nothing of mcmsim: it parses the text
 * given as argument and destroys the configuration, as the manual says.
 * Built with LeakSanitizer, on a string token that the grammar rejects
 * (tests/fuzz/libconfig-leak.cfg: `a = 1 "abc";`), libconfig 1.5 leaks the
 * string's buffer, allocated in its scanner (strbuf_append).  The Makefile
 * checks that this program reports that leak, and that fuzz_runfile on the
 * same input reports nothing once the suppression is on.
 */
#include <libconfig.h>
#include <stdio.h>

int main(int argc, char *argv[])
{
    if (argc != 2) {
        fprintf(stderr, "usage: libconfig_leak FILE.cfg\n");
        return 2;
    }
    config_t cfg;
    config_init(&cfg);
    if (config_read_file(&cfg, argv[1]) != CONFIG_TRUE)
        printf("libconfig: %s:%d: %s\n", argv[1], config_error_line(&cfg), config_error_text(&cfg));
    config_destroy(&cfg);
    return 0;
}
