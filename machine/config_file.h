/*
 * config_file.h — libconfig files read so that every value is the one
 * written, or refused.
 *
 * libconfig 1.5 reads a whole number written without the `L` suffix into
 * 32 bits and drops the rest without a word: `n = 4294968320;` is read as
 * 1024, `n = 3000000000;` as -1294967296, `p = 0xFFFFFFFF;` as -1; with
 * the suffix, a number beyond 64 bits is read as 2^63 - 1, and `1e400` as
 * infinity.  config_file_read() scans the text first, as libconfig's
 * scanner does: every whole number beyond 32 bits gets the suffix (with
 * every other whole number of its array, whose elements share one type),
 * so that it is read as the 64-bit number written; a number beyond what
 * libconfig can hold is refused naming the key, the line and the limit.
 *
 * The typed look-ups below are how the loaders (runfile.c, machine.c,
 * registry.c, config_program.c, compare.c) read a value: a value of the
 * wrong type is refused naming the key, its line, what the key takes and
 * what was written; never taken for a default or converted.
 */
#ifndef MCM_CONFIG_FILE_H
#define MCM_CONFIG_FILE_H

#include <libconfig.h>
#include <stddef.h>

/* The largest whole number a double holds with every whole number below
 * it: 2^53.  Numbers of the model are doubles; a whole number beyond it
 * would be read as a neighbour. */
#define EXACT_WHOLE_MAX 9007199254740992.0

/* Read the libconfig file at `path` into `cfg` (config_init done by the
 * caller).  0, or -1 with fail() naming the file (and the line): missing,
 * a folder, a syntax error, a number out of libconfig's range, @include
 * (not read: a run file is one file).  `path` names the settings
 * (setting_where) and must outlive `cfg`. */
int config_file_read(config_t *cfg, const char *path);

/* "file:line" of a setting, for messages. */
void setting_where(const config_setting_t *s, char *out, size_t size);

/* What a setting holds, for messages: `the string "no"`, `the number 0`,
 * `true`, `a group`, `an array`, `a list`. */
const char *setting_shown(const config_setting_t *s, char *out, size_t size);

/* The value of a number setting (an integer, a 64-bit integer or a float)
 * in *out.  0; 1 if the setting is not a number; -1 with fail() ("WHERE:
 * KEY = V is out of range: ...") for a whole number beyond ±2^53.  `key`
 * names it in messages, e.g. "param 'n'". */
int setting_number(const config_setting_t *s, const char *key, double *out);

/* A number written as text (--set, --machine): the whole text, finite,
 * and a whole number at most 2^53 in magnitude.  0; 1 if the text is not
 * a number; -1 with fail() ("WHERE: KEY = TEXT is out of range: ...")
 * beyond. */
int text_number(const char *text, const char *where, const char *key, double *out);

/* Member `key` of group `g` as a boolean: *out unchanged when absent; -1
 * with fail() naming the key, its line and `meaning` (what true and false
 * say) when it is anything but true or false. */
int member_bool(const config_setting_t *g, const char *key, const char *what, const char *meaning, int *out);

/* Member `key` of group `g` as a string of at most `max` bytes: *out
 * unchanged (NULL or a default) when absent; -1 with fail() when it is
 * not a string or is longer. */
int member_string(const config_setting_t *g, const char *key, const char *what, size_t max, const char **out);

/* Every member of group g is one of `keys` (NULL-terminated): 0, or -1
 * with fail() naming the first other one and its line: "x.cfg:3: unknown
 * WHATkey 'nmae' (known: name, ...)" (`what`: "program ", or ""). */
int members_known(const config_setting_t *g, const char *const *keys, const char *what);

/* Fail, naming the key of setting s, its line, what it takes and what it
 * holds: "x.cfg:3: kernel 'k' coalesced must be true or false, not the
 * string \"no\"".  Returns -1. */
int setting_wrong_type(const config_setting_t *s, const char *what, const char *takes);

#endif
