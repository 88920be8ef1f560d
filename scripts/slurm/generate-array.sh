#!/usr/bin/env bash
# One part of a generate run split over a Slurm job array: task I of N runs
# `level-studio generate FLAGS… --shard I/N --out OUT_DIR/part-I.ron`. Join the parts in order
# with `level-studio pack merge` (docs/files.md, "Sweeps split over processes"):
#
#   sbatch --array=1-4 scripts/slurm/generate-array.sh out/ --game match3 --model avalon \
#       --size 7x9 --moves 15 --count 400 --seed 3
#   level-studio pack merge $(for i in $(seq 1 4); do echo out/part-$i.ron; done) --out all.ron
#
# The array's task ids must run from 1 to N. LEVEL_STUDIO names the binary (default: the
# one on PATH). Outside Slurm, SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT may be set by
# hand (the tests do).
#SBATCH --job-name=level-studio-generate
#SBATCH --cpus-per-task=2
#SBATCH --output=level-studio-part-%a.log
set -euo pipefail
if [ $# -lt 1 ]; then
    echo "usage: sbatch --array=1-N $0 OUT_DIR GENERATE_FLAGS..." >&2
    exit 2
fi
out=$1
shift
index=${SLURM_ARRAY_TASK_ID:?run as a job array: sbatch --array=1-N}
count=${SLURM_ARRAY_TASK_COUNT:?run as a job array: sbatch --array=1-N}
mkdir -p "$out"
exec "${LEVEL_STUDIO:-level-studio}" generate "$@" --shard "$index/$count" --out "$out/part-$index.ron"
