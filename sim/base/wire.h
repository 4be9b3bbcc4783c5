/*
 * wire.h — whole reads and writes on a pipe between mcmsim and its child
 * processes (run.c, user_program.c): a result is whole or absent.
 */
#ifndef MCM_WIRE_H
#define MCM_WIRE_H

#include <stddef.h>

/* Write (read) exactly `size` bytes, retrying after signals; -1 if the
 * other end is gone first or on any other error. */
int wire_write(int fd, const void *buf, size_t size);
int wire_read(int fd, void *buf, size_t size);

#endif
