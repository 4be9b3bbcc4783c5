/*
 * fail.c — storage of the last error message (see fail.h).
 */
#include "fail.h"

#include <stdio.h>
#include <string.h>

static char last_message[2048];

int fail(const char *fmt, ...)
{
    char buffer[sizeof last_message];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buffer, sizeof buffer, fmt, ap); /* fmt may quote last_message */
    va_end(ap);
    memcpy(last_message, buffer, sizeof last_message);
    return -1;
}

const char *fail_message(void) { return last_message; }

void fail_clear(void) { last_message[0] = '\0'; }
