/*
 * time_split.c — the names of T's parts (time_split.h).
 */
#include "time_split.h"

const char *const split_keys[SPLIT_PARTS] = {"compute", "memory", "dram", "contention", "latency",
                                             "dispatch", "retire", "launch", "idle"};

const char *const split_labels[SPLIT_PARTS] = {
    "compute",
    "memory",
    "memory (DRAM)",
    "waiting for memory",
    "first-word latency",
    "block dispatch",
    "block retire",
    "kernel launch",
    "idle SMs",
};
