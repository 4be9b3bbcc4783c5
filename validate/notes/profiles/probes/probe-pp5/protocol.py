#!/usr/bin/env python3
"""protocol.py -- reads probe-pp5's constants --protocol-only rows (CARD-protocol-P.csv here)
and prints, per card, process and way, each chain's microseconds a kernel ((T45 - T5) / 40)
repetition by repetition, their median from the second repetition on, and the width (a chain
less touch_1 of the same way and repetition): the table of instruction-stream.md, "Session 45:
the width timed as the cases are".  Usage: python3 protocol.py (in this folder)."""
import csv
import statistics as st

CHAINS = ["touch_1", "touch128_2", "touch128_128", "touch_card"]
WAYS = ["replay", "bare", "cases"]


def rows(path):
    return {r["name"]: float(r["value"]) for r in csv.DictReader(open(path))}


for card in ["h100", "h200"]:
    for proc in [1, 2]:
        r = rows(f"{card}-protocol-{proc}.csv")
        reps = sum(1 for k in r if k.startswith("protocol_cases_touch_1_per_kernel_r"))
        print(f"== {card} process {proc}: chain_touch_block / card {r['chain_touch_block_per_kernel']:.3f} / "
              f"{r['chain_touch_card_per_kernel']:.3f} (first), again {r['chain_touch_block_again_per_kernel']:.3f} / "
              f"{r['chain_touch_card_again_per_kernel']:.3f} (last)")
        for way in WAYS:
            pk = {c: [r[f"protocol_{way}_{c}_per_kernel_r{i}"] for i in range(reps)] for c in CHAINS}
            for c in CHAINS:
                width = [pk[c][i] - pk["touch_1"][i] for i in range(reps)]
                line = " ".join(f"{x:.3f}" for x in pk[c])
                wl = " ".join(f"{x:+.3f}" for x in width)
                print(f"  {way:6} {c:13} per kernel {line} | median r1.. {st.median(pk[c][1:]):.3f}"
                      + ("" if c == "touch_1" else f" | width {wl} | median {st.median(width):+.3f}"
                         f" (r1.. {st.median(width[1:]):+.3f})"))
