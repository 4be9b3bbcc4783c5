/*
 * cli.h -- command-line parsing shared by the CUDA programs.
 *
 * Owns: "--key value" options.  A value may be a single integer, a comma
 * list "1,2,4", an arithmetic range "lo:hi:+step" (1000:10000:+1000) or a
 * geometric range "lo:hi:*factor" (16384:1048576:*2).  Flags take no value.
 */
#ifndef MCM_CLI_H
#define MCM_CLI_H

#ifdef __cplusplus
extern "C" {
#endif

#define CLI_MAX_LIST 64

/*
 * Parse a value into out[0..]; returns the number of integers, or -1 on a
 * malformed value or more than max entries.
 */
int cli_parse_list(const char *text, long *out, int max);

/* the text after "--key", or NULL when absent */
const char *cli_value(int argc, char **argv, const char *key);

/* 1 when the flag (e.g. "--no-header") is present */
int cli_flag(int argc, char **argv, const char *flag);

/* single integer option with a default; exits with a message if malformed */
long cli_long(int argc, char **argv, const char *key, long def);

/* list option; when absent, copies def (ndef entries); exits if malformed */
int cli_list(int argc, char **argv, const char *key, long *out,
             const long *def, int ndef);

/*
 * Exit with a usage message if argv holds an option not in keys (options
 * taking a value) or flags (options without a value).  Both lists end with
 * NULL.
 */
void cli_require_known(int argc, char **argv, const char *const *keys,
                       const char *const *flags, const char *usage);

#ifdef __cplusplus
}
#endif

#endif /* MCM_CLI_H */
