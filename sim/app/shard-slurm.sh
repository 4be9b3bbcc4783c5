#!/bin/bash
# shard-slurm.sh — one mcmsim sweep over many machines of a Slurm cluster:
# an array of N tasks, task K running shard K/N of the run file (every N-th
# point from the K-th, sim/app/shard.h), then one merge into the CSV that one
# machine would write, byte for byte.
#
#   cd /path/to/mcmsim                  # built: make; on a shared file system
#   jid=$(sbatch --parsable --array=1-8 sim/app/shard-slurm.sh programs/euclid.cfg out --exec)
#   sbatch --dependency=afterok:$jid --wrap "build/mcmsim merge out/shard-*-of-8.csv > out/euclid.csv"
#
# Arguments: the run file, the folder for the shards' CSV (made if need
# be), then any options of `mcmsim run` (--exec, --set key=value, ...; not
# --format or --shard, which this script gives).  Each task uses the CPUs
# Slurm gives it (--cpus-per-task, below, or on the sbatch line) as its
# --jobs, writes out/shard-K-of-N.csv.part and renames it when whole, so a
# file under its final name is always a complete shard; a task that fails
# leaves none, and the merge then names the missing shard.  MCMSIM names
# the binary (default: build/mcmsim under the submission folder).
#
# Without Slurm, GNU parallel does the same on one machine (or on several
# with -S host1,host2 and the same folder everywhere):
#
#   parallel -j 4 'build/mcmsim run programs/euclid.cfg --exec --format csv --jobs 1 --shard {}/4 > out/shard-{}.csv' \
#       ::: 1 2 3 4 && build/mcmsim merge out/shard-*.csv > out/euclid.csv
#
#SBATCH --job-name=mcmsim-shard
#SBATCH --cpus-per-task=4
#SBATCH --output=mcmsim-shard-%A_%a.log
set -euo pipefail

if [ $# -lt 2 ]; then
    echo "usage: sbatch --array=1-N $0 RUN_FILE.cfg OUT_DIR [mcmsim run options]" >&2
    exit 2
fi
: "${SLURM_ARRAY_TASK_ID:?not in a Slurm job array: sbatch --array=1-N $0 ...}"
run_file=$1
out=$2
shift 2
k=$SLURM_ARRAY_TASK_ID
n=${SLURM_ARRAY_TASK_COUNT:-$SLURM_ARRAY_TASK_MAX}
cd "${SLURM_SUBMIT_DIR:-.}"
mcmsim=${MCMSIM:-build/mcmsim}
mkdir -p "$out"
part="$out/shard-$k-of-$n.csv.part"
trap 'rm -f "$part"' EXIT
"$mcmsim" run "$run_file" "$@" --format csv --shard "$k/$n" --jobs "${SLURM_CPUS_PER_TASK:-1}" > "$part"
mv "$part" "$out/shard-$k-of-$n.csv"
trap - EXIT
