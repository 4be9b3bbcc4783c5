#!/usr/bin/env python3
# validate/notes/profiles/exec-cost-fit.py (sessions 46, 47): usage
#   MCMSIM_VALIDATE_PROFILE=1 make validate 2> profile.txt
#   python3 validate/notes/profiles/exec-cost-fit.py profile.txt 0.2 [v]
# (the third argument lists each point: its time, estimate and terms).
# Exec mode's constants from make validate's profile (MCMSIM_VALIDATE_PROFILE=1):
# T = a*ops + p*private + g*accesses + c*N + d*L (validate.h,
# code_costs_estimate: ops the operations of every class, private the private
# accesses among them, accesses the global words) over the built-in points run
# in exec mode on the code machines, least squares of the relative error, every
# constant >= 0 (the best over every subset of the terms).  With a fourth
# argument "threads" N*l is a term too (session 47: it takes what N gives up,
# the same rms; not charged).
import re, sys, itertools
NAMES = ["ops", "private", "accesses", "N*l", "N", "L"]
USED = [n for n in NAMES if n != "N*l" or sys.argv[-1] == "threads"]
terms, times = {}, {}
for line in open(sys.argv[1]):
    m = re.match(r"validate profile: terms (\S+) (\S+) on (\S+): W \S+ N·l (\S+) N (\S+) L (\S+) accesses (\S+) "
                 r"ops (\S+) (\S+) (\S+) (\S+) (\S+)", line)
    if m:
        nl, n, l, acc = (float(x) for x in m.group(4, 5, 6, 7))
        ops = [float(x) for x in m.group(8, 9, 10, 11, 12)]
        terms[m.group(1, 2, 3)] = [sum(ops), ops[3], acc, nl, n, l]
    m = re.match(r"validate profile: exec (\S+) (\S+) on (\S+): (\S+) s", line)
    if m:
        times[m.group(1, 2, 3)] = float(m.group(4))
floor = float(sys.argv[2]) if len(sys.argv) > 2 else 0.2
rows = [(terms[k], times[k], k) for k in times if k in terms and times[k] >= floor]
K = len(NAMES)
KEEP = [NAMES.index(n) for n in USED]
def solve(cols):
    n = len(cols)
    A = [[sum(r[0][i] * r[0][j] / r[1] ** 2 for r in rows) for j in cols] for i in cols]
    y = [sum(r[0][i] / r[1] for r in rows) for i in cols]
    M = [A[i] + [y[i]] for i in range(n)]
    for i in range(n):
        p = max(range(i, n), key=lambda r: abs(M[r][i]))
        M[i], M[p] = M[p], M[i]
        if M[i][i] == 0:
            return None
        for r in range(n):
            if r != i:
                f = M[r][i] / M[i][i]
                M[r] = [a - f * b for a, b in zip(M[r], M[i])]
    return [M[i][n] / M[i][i] for i in range(n)]
best = None
for k in range(1, K + 1):
    for cols in itertools.combinations(KEEP, k):
        x = solve(cols)
        if x is None or min(x) < 0:
            continue
        c = [0.0] * K
        for i, v in zip(cols, x):
            c[i] = v
        err = sum((sum(a * b for a, b in zip(c, r[0])) / r[1] - 1) ** 2 for r in rows)
        if best is None or err < best[0]:
            best = (err, c)
err, c = best
print("points %d (exec >= %.2f s); constants %s; rms rel err %.2f"
      % (len(rows), floor, ", ".join("%s %.3g" % nc for nc in zip(NAMES, c)), (err / len(rows)) ** 0.5))
ratios = sorted(sum(a * b for a, b in zip(c, r[0])) / r[1] for r in rows)
print("estimate/measured: min %.2f q1 %.2f median %.2f q3 %.2f max %.2f" % (ratios[0], ratios[len(ratios)//4], ratios[len(ratios)//2], ratios[3*len(ratios)//4], ratios[-1]))
if len(sys.argv) > 3 and sys.argv[3] == "v":
    for r in sorted(rows, key=lambda r: r[1]):
        e = sum(a * b for a, b in zip(c, r[0]))
        print("%-14s %-28s %-10s T %6.2f est %6.2f  ops %.3g private %.3g accesses %.3g Nl %.3g N %.3g L %.0f"
              % (r[2] + (r[1], e) + tuple(r[0])))
