#!/usr/bin/env python3
"""cubin-constants.py -- which constant-bank offsets each kernel of an sm_90
cubin reads, without a disassembler (none on the helpers' machine).

Decoding (checked against the touch kernel, whose reads are known from its
source: LDC c[0x0][0x28], ULDC c[0x0][0x218], LDC c[0x0][0x0], ULDC
c[0x0][0x210], ULDC c[0x0][0x208]): an instruction is 16 bytes, its opcode
the low 12 bits of the first 8 (0xab9 ULDC, the immediate path; 0xb82 LDC,
the indexed path), a constant operand's offset in words at bits 40-53 and
its bank at bits 54-58 of the same 8 bytes.  For each kernel (a .text.NAME
section, NAME containing the filter) it prints the ULDC and LDC offsets in
code order and the 128-byte lines the ULDCs read (the constant cache's line,
validate/notes/card-model.md, "a kernel's cold constant cache").

Usage: nvcc -O3 -arch=sm_90 -cubin FILE.cu -o F.cubin  (a case:
       -x cu -Isim/exec -Icuda_ref/common -include mcm_kernel_cuda.cuh
       programs/CASE/kernels.c); cubin-constants.py F.cubin [FILTER]"""
import struct
import sys


def sections(path):
    d = open(path, "rb").read()
    shoff = struct.unpack_from("<Q", d, 0x28)[0]
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", d, 0x3A)
    sh = [struct.unpack_from("<IIQQQQIIQQ", d, shoff + i * shentsize) for i in range(shnum)]
    names = sh[shstrndx][4]

    def name(o):
        return d[names + o:d.index(b"\0", names + o)].decode()

    return {name(s[0]): d[s[4]:s[4] + s[5]] for s in sh}


def constant_reads(text):
    for i in range(0, len(text), 16):
        lo = struct.unpack_from("<Q", text, i)[0]
        op = lo & 0xFFF
        if op in (0xAB9, 0xB82):
            yield ("ULDC" if op == 0xAB9 else "LDC", (lo >> 54) & 0x1F, ((lo >> 40) & 0x3FFF) * 4)


def main():
    path, want = sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else ""
    for sec, text in sections(path).items():
        if not sec.startswith(".text.") or want not in sec:
            continue
        reads = list(constant_reads(text))
        uldc = [f"c[{b:#x}][{o:#x}]" for k, b, o in reads if k == "ULDC"]
        ldc = [f"c[{b:#x}][{o:#x}]" for k, b, o in reads if k == "LDC"]
        lines = sorted({(b, o // 128 * 128) for k, b, o in reads if k == "ULDC"})
        print(sec[6:])
        print("   ULDC", " ".join(uldc))
        print("   LDC ", " ".join(ldc))
        print("   ULDC lines of 128 bytes", " ".join(f"c[{b:#x}][{o:#x}]" for b, o in lines))


if __name__ == "__main__":
    main()
