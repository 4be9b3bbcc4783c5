#!/bin/sh
# record_same.sh — a report made with a matching record of the code's costs
# (validate/code-record.csv, validate/code_record.c) is the report of the
# run that simulated those points: run 1 writes a record from none
# (MCMSIM_CODE_RECORD=write, the point budget 0.3 s, the cells' $CELL s),
# running and simulating its points here; run 2 reads it with both
# budgets 0, so that every point run 1 ran comes from the record (but those
# the counts' check runs anyway).  Every file of validate/report/ must be
# the same bytes, REPORT.md but its lines that name the record or quote the
# budgets.  Exit 0 if so, 1 with the differences if not.
#
# Two runs of build/validate/validate (some 10 minutes on two shared cores):
# not part of `make test`.  Run from the repository's root after `make
# build/validate/validate`; the record, report/ and the presets machine/*.cfg
# are put back as found, on an interrupt too.
set -u
CELL=${CELL:-5}
validate=${VALIDATE:-build/validate/validate} # the Makefile names its $(BUILD)'s
[ -x "$validate" ] || { echo "record_same.sh: $validate: not built (make $validate)" >&2; exit 2; }
keep=$(mktemp -d /tmp/mcmsim-record-same-XXXXXX) || exit 2
cp -p validate/code-record.csv "$keep/record.csv" 2>/dev/null
cp -rp validate/report "$keep/report"
cp -rp machine "$keep/machine" # validate writes the cards' presets
put_back() {
    rm -rf validate/report
    cp -rp "$keep/report" validate/report
    cp -p "$keep"/machine/*.cfg machine/
    if [ -f "$keep/record.csv" ]; then cp -p "$keep/record.csv" validate/code-record.csv; else rm -f validate/code-record.csv; fi
    rm -rf "$keep"
}
trap put_back EXIT
trap 'exit 130' INT TERM # so that dash runs the EXIT trap

rm -f validate/code-record.csv
MCMSIM_CODE_RECORD=write MCMSIM_CODE_CELL_BUDGET=$CELL "$validate" >"$keep/run1.out" 2>"$keep/run1.err" ||
    { echo "record_same.sh: run 1 (writing the record) failed:" >&2; tail -5 "$keep/run1.err" >&2; exit 1; }
cp -rp validate/report "$keep/run1"
MCMSIM_CODE_BUDGET=0 MCMSIM_CODE_CELL_BUDGET=0 "$validate" >"$keep/run2.out" 2>"$keep/run2.err" ||
    { echo "record_same.sh: run 2 (reading it) failed:" >&2; tail -5 "$keep/run2.err" >&2; exit 1; }
cp -rp validate/report "$keep/run2"

taken=$(sed -n 's/^code.s costs, set .*: \([0-9]*\) points\{0,1\} from the record .*/\1/p' "$keep/run2.out" |
        awk '{ n += $1 } END { print n + 0 }')
[ "$taken" -gt 0 ] || { echo "record_same.sh: run 2 took no point from the record" >&2; exit 1; }

# The lines that may differ: those naming the record (a set's list of the
# points taken from it, a verdict's "Of the K, R from the record") or
# quoting the budgets.
same() {
    awk '/taken from the record/ { list = 1; next }
         list && (/^- / || /^$/) { next }
         { list = 0 }
         /^Of the [0-9]+, [0-9]+ from the record/ { list = 1; next }
         !/estimates sum to at most/' "$1"
}
rc=0
diff -r -x REPORT.md "$keep/run1" "$keep/run2" || rc=1
same "$keep/run1/REPORT.md" >"$keep/run1.md"
same "$keep/run2/REPORT.md" >"$keep/run2.md"
diff "$keep/run1.md" "$keep/run2.md" || rc=1
echo "record_same.sh: $taken points from the record; report $([ $rc = 0 ] && echo the same || echo DIFFERENT)"
exit $rc
