/*
 * wire.c — whole reads and writes on a pipe (see wire.h).
 */
#include "wire.h"

#include <errno.h>
#include <unistd.h>

int wire_write(int fd, const void *buf, size_t size)
{
    const char *p = buf;
    while (size > 0) {
        ssize_t w = write(fd, p, size);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        p += w;
        size -= (size_t)w;
    }
    return 0;
}

int wire_read(int fd, void *buf, size_t size)
{
    char *p = buf;
    while (size > 0) {
        ssize_t r = read(fd, p, size);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return -1;
        p += r;
        size -= (size_t)r;
    }
    return 0;
}
