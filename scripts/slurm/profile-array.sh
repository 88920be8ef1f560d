#!/usr/bin/env bash
# One part of a GVGAI profile split over a Slurm job array: task I of N runs
# `level-studio eval --vgdl … --profile … FLAGS… --shard I/N --out OUT_DIR/part-I.json`, which
# plays the I-th of N blocks of the levels (game by game, α then β). Then the same eval with
# `--merge` makes the one-process run's table from the parts (docs/files.md, "Sweeps split
# over processes"):
#
#   sbatch --array=1-8 scripts/slurm/profile-array.sh out/ --vgdl zelda.txt \
#       --profile zelda_alpha.ron zelda_beta.ron --games 5
#   level-studio eval --vgdl zelda.txt --profile zelda_alpha.ron zelda_beta.ron --games 5 \
#       --merge out/part-*.json
#
# The array's task ids must run from 1 to N. LEVEL_STUDIO names the binary (default: the
# one on PATH). Outside Slurm, SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT may be set by
# hand.
#SBATCH --job-name=level-studio-profile
#SBATCH --cpus-per-task=2
#SBATCH --output=level-studio-profile-%a.log
set -euo pipefail
if [ $# -lt 1 ]; then
    echo "usage: sbatch --array=1-N $0 OUT_DIR EVAL_FLAGS..." >&2
    exit 2
fi
out=$1
shift
index=${SLURM_ARRAY_TASK_ID:?run as a job array: sbatch --array=1-N}
count=${SLURM_ARRAY_TASK_COUNT:?run as a job array: sbatch --array=1-N}
mkdir -p "$out"
exec "${LEVEL_STUDIO:-level-studio}" eval "$@" --shard "$index/$count" --out "$out/part-$index.json"
