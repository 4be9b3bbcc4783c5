#!/bin/sh
# no_process_outlives.sh MARK — after `make test`: no process the tests
# started lives on.  Every test binary runs with MCMSIM_TEST_RUN=MARK in
# its environment, which the processes it starts (mcmsim, its simulation
# and exec children, shells, gnuplot) inherit; a live process whose
# environment holds it, 5 s after the last test ended, outlived its test
# (a test killed at its timeout, say).  Each is named, then killed by its
# pid, and the check fails.  A zombie (an empty environment) is not live.
mark="MCMSIM_TEST_RUN=$1"
[ -n "$1" ] || { echo "usage: $0 MARK" >&2; exit 2; }
ours() {
    grep -l -z -x -F "$mark" /proc/[0-9]*/environ 2>/dev/null | sed 's|/proc/\([0-9]*\)/environ|\1|'
}
left=$(ours)
i=0
while [ -n "$left" ] && [ $i -lt 50 ]; do
    sleep 0.1; i=$((i + 1)); left=$(ours)
done
[ -z "$left" ] && exit 0
echo "make test: processes outlived their tests (killed now):"
for pid in $left; do
    echo "  $pid: $(tr '\0' ' ' 2>/dev/null <"/proc/$pid/cmdline")"
    kill -KILL "$pid" 2>/dev/null
done
exit 1
