/*
 * sass_count.c — the instructions of each kernel in a cubin (nvcc -cubin,
 * sm_90), without a disassembler: an sm_90 instruction is 16 bytes, and
 * its opcode is in its low 12 bits.  Prints per kernel: its instructions
 * (less the trailing NOPs and the BRA to itself after EXIT), and those a
 * warp executes on its usual path, up to the kernel's first EXIT (what
 * follows it is the out-of-line slow routines, called only off the usual
 * path): a slow path that ptxas lays out inline after a branch (the code
 * after a BRA up to and including the unconditional BRA that ends it,
 * when it CALLs a slow routine) is left out, and so is the code an
 * unconditional BRA jumps over to a later BSYNC; what ptxas predicates
 * counts, as a warp issues it.  For kernels without loops only: the
 * table of sim/exec/stream_ir_calls.c was derived with it (validate/stream/
 * sass-costs.sh; validate/notes/instruction-stream.md).
 *
 * Usage: sass_count FILE.cubin
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { NOP = 0x918, BRA = 0x947, BSYNC = 0x941, CALL = 0x944, EXIT = 0x94d };

/* Instruction i is predicated (its guard is not PT, 7). */
static int predicated(const unsigned char *code, long i) { return (code[16 * i + 1] >> 4 & 0x7) != 7; }

static uint64_t u64(const unsigned char *p) { uint64_t v; memcpy(&v, p, 8); return v; }
static uint32_t u32(const unsigned char *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static uint16_t u16(const unsigned char *p) { uint16_t v; memcpy(&v, p, 2); return v; }

static void count(const char *name, const unsigned char *code, uint64_t size)
{
    long n = (long)(size / 16), straight = 0;
    int op[65536];
    if (n > 65536)
        n = 65536;
    for (long i = 0; i < n; i++)
        op[i] = (int)(u64(code + 16 * i) & 0xfff);
    while (n > 0 && op[n - 1] == NOP)
        n--;
    if (n > 0 && op[n - 1] == BRA)
        n--;
    for (long i = 0, skip = 0; i < n; i++) {
        if (skip) {
            if (op[i] == BSYNC)
                skip = 0, straight++;
            continue;
        }
        straight++;
        if (op[i] == EXIT && !predicated(code, i))
            break;
        if (op[i] != BRA)
            continue;
        long end = i + 1, calls = 0; /* a slow path laid out inline: up to its BRA to the join */
        while (end < n && !(op[end] == BRA && !predicated(code, end)) && op[end] != BSYNC)
            calls += op[end++] == CALL;
        if (calls > 0 && end < n && op[end] == BRA)
            i = end;
        else
            skip = !predicated(code, i);
    }
    printf("%-60s %6ld %6ld\n", name, n, straight);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: sass_count FILE.cubin\n");
        return 2;
    }
    FILE *f = fopen(argv[1], "rb");
    if (!f) {
        perror(argv[1]);
        return 1;
    }
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    rewind(f);
    unsigned char *elf = malloc((size_t)size);
    if (!elf || fread(elf, 1, (size_t)size, f) != (size_t)size || size < 64 || memcmp(elf, "\177ELF", 4) != 0) {
        fprintf(stderr, "%s: not an ELF file\n", argv[1]);
        return 1;
    }
    fclose(f);
    uint64_t shoff = u64(elf + 0x28);
    unsigned shentsize = u16(elf + 0x3a), shnum = u16(elf + 0x3c), shstrndx = u16(elf + 0x3e);
    const unsigned char *names = elf + u64(elf + shoff + (uint64_t)shstrndx * shentsize + 0x18);
    printf("%-60s %6s %6s\n", "kernel", "static", "straight");
    for (unsigned i = 0; i < shnum; i++) {
        const unsigned char *sh = elf + shoff + (uint64_t)i * shentsize;
        const char *name = (const char *)names + u32(sh);
        if (strncmp(name, ".text.", 6) == 0)
            count(name + 6, elf + u64(sh + 0x18), u64(sh + 0x20));
    }
    free(elf);
    return 0;
}
