/*
 * fail.h — one clear error message, carried back to whoever must print it.
 *
 * Every function of mcmsim that can meet bad input returns -1 (or NULL) and
 * leaves one message here, naming the place (file:line, kernel, key) and the
 * rule that was broken.  The command line prints it once and exits non-zero;
 * tests read it.  Only the most recent message is kept: a caller that adds
 * context calls fail() again with the old message inside the new one.
 */
#ifndef MCM_FAIL_H
#define MCM_FAIL_H

#include <stdarg.h>

#if defined(__GNUC__)
#define MCM_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define MCM_PRINTF(a, b)
#endif

/* Record a message (printf-style).  Always returns -1, so that
 * `return fail("...")` reads as what it does. */
int fail(const char *fmt, ...) MCM_PRINTF(1, 2);

/* The last message recorded ("" when none). */
const char *fail_message(void);

/* Forget the last message. */
void fail_clear(void);

#endif
