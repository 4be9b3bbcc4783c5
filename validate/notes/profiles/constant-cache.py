#!/usr/bin/env python3
"""constant-cache.py -- reads the constant_cache_* rows of a constants.csv
(cuda_ref/constants.cu, measure_constant_cache) and prints what they say:
each chain's cost per kernel against its W = 0 chain, in ns and cycles, the
line size the 64-byte and 256-byte spacings imply, and the clock rows.
Usage: constant-cache.py FILE.csv [FILE.csv ...]  (no fitting: differences
of measured slopes only)."""
import csv
import re
import sys


def rows_of(path):
    out = {}
    for r in csv.DictReader(open(path)):
        out.setdefault(r["name"], []).append(float(r["value"]))
    return {k: sum(v) / len(v) for k, v in out.items()}  # the mean over phases, as card.c does


def main():
    for path in sys.argv[1:]:
        v = rows_of(path)
        mhz = v.get("sm_clock_measured")
        print(f"== {path}  (clock {mhz} MHz)")
        if mhz is None:
            print("   no sm_clock_measured row")
        slope = lambda n: v.get(f"constant_cache_{n}_per_kernel")
        base = {"param": slope("param0_block"), "const": slope("const0_block"), "card": slope("param0_card")}
        for name, ref in [("param1_block", "param"), ("param4_block", "param"), ("param14_block", "param"),
                          ("param14_dense_block", "param"), ("param14_64_block", "param"),
                          ("const1_block", "const"), ("const4_block", "const"), ("const14_block", "const"),
                          ("param14_card", "card")]:
            s, b = slope(name), base[ref]
            if s is None or b is None:
                print(f"   {name}: missing")
                continue
            d = (s - b) * 1e3
            cyc = f"{(s - b) * mhz:8.1f} cycles" if mhz else ""
            print(f"   {name:22s} {s * 1e3:8.1f} ns/kernel, against W = 0: {d:+7.1f} ns {cyc}")
        for n in ["param0_block", "const0_block", "param0_card"]:
            s = slope(n)
            print(f"   {n:22s} {s * 1e3 if s else float('nan'):8.1f} ns/kernel")
        touch = v.get("chain_touch_block_per_kernel")
        if touch and base["const"]:
            print(f"   const0_block - chain_touch_block: {(base['const'] - touch) * 1e3:+.1f} ns (the index's addition)")
        s14, s64, b = slope("param14_block"), slope("param14_64_block"), base["param"]
        if s14 and s64 and b and s14 != b:
            print(f"   (param14_64 - param0) / (param14 - param0) = {(s64 - b) / (s14 - b):.2f}"
                  "  (1: 64-byte lines, 0.5: 128, 0.29: 256)")
        chain_row = re.compile(r"_(block|card)_(\d+|per_kernel|per_graph)$")
        for n in sorted(k for k in v if k.startswith("constant_cache_") and not chain_row.search(k)):
            print(f"   {n:45s} {v[n]:9.2f}")


if __name__ == "__main__":
    main()
