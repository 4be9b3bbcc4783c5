#!/usr/bin/env python3
# dispatch-overlap.py — dispatch-overlap.cfg simulated at every point of
# the card's run (dispatch-overlap-h100.txt), against the card: the time per
# block per SM beyond the kernel of one block per SM, in cycles, for the
# preset as it is and with the SM's retiring of blocks off (block_retire = 0,
# block_dispatch = the sessions' older reading, 64 empty blocks per SM
# against 1).  The chain's operation is an integer multiply-add, not the
# preset's plain addition: its rate, 56.3 per SM per cycle, is the card's
# own figure at 16 slots and 1024 iterations (128 · 1024 / 2327), so the
# comparison is about dispatch and overlap, not about that rate.
# Usage (from the repository root, after make): validate/notes/profiles/dispatch-overlap.py
import csv, io, re, subprocess, sys

HERE = "validate/notes/profiles"
card = {}
for line in open(f"{HERE}/dispatch-overlap-h100.txt"):
    m = re.match(r"slots=\s*(\d+) reads=(\d) iters=\s*(\d+) blocks_per_sm=\s*(\d+) .* cycles=\s*(-?[\d.]+)", line)
    if m:
        s, r, i, b, c = (int(m[1]), int(m[2]), int(m[3]), int(m[4]), float(m[5]))
        card[(s, r, i, b)] = c

def simulate(extra):
    """T in cycles at every point, one mcmsim sweep per (slots, reads, iters)."""
    out = {}
    for (s, r, i, b) in card:
        if b != 1:
            continue
        sets = ["lanes=56.3", f"slots={s}", f"reads={r}", f"iters={i}"] + extra
        for per in (1, 4, 16, 64, 256):
            cmd = ["build/mcmsim", "run", f"{HERE}/dispatch-overlap.cfg", "--format", "csv", "--set", f"per_sm={per}"]
            for x in sets:
                cmd += ["--set", x]
            row = next(csv.DictReader(io.StringIO(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)))
            out[(s, r, i, per)] = float(row["T"])
    return out

models = {"retire": simulate([]),
          "no retire": simulate(["block_retire=0", "block_dispatch=109.7"])}
print("slots reads iters B   card   retire  no-retire   (cycles per block per SM beyond B = 1)")
err = {k: [] for k in models}
for (s, r, i, b) in sorted(card, key=lambda k: (-k[0], k[1], k[2], k[3])):
    if b < 16:
        continue
    row = f"{s:5d} {r:5d} {i:5d} {b:3d} {card[(s, r, i, b)]:7.0f}"
    for k, t in models.items():
        v = (t[(s, r, i, b)] - t[(s, r, i, 1)]) / (b - 1)
        err[k].append(abs(v / card[(s, r, i, b)] - 1))
        row += f" {v:8.0f}"
    print(row)
for k, e in err.items():
    e.sort()
    print(f"{k}: median |error| {100 * e[len(e) // 2]:.0f} %, p90 {100 * e[int(0.9 * (len(e) - 1))]:.0f} % over {len(e)} points")
