#!/usr/bin/env bash
# One training seed of a multi-seed sweep on a Slurm job array: task I runs
# `level-studio train FLAGS… --seed (FIRST + I - 1) --out OUT_DIR/seed-S/FILE`. Each seed is one
# process on its own (a training's result depends on its seed alone), so N tasks are the N
# seeds' runs, each the file one process would train (docs/files.md, "Sweeps split over
# processes"):
#
#   sbatch --array=1-5 scripts/slurm/train-seeds.sh out/ 1 blend-pix-cnn.safetensors \
#       --model blend-pix-cnn --epochs 250 --patience 30
#
# LEVEL_STUDIO names the binary (default: the one on PATH). Outside Slurm,
# SLURM_ARRAY_TASK_ID may be set by hand.
#SBATCH --job-name=level-studio-train
#SBATCH --cpus-per-task=2
#SBATCH --output=level-studio-train-%a.log
set -euo pipefail
if [ $# -lt 3 ]; then
    echo "usage: sbatch --array=1-N $0 OUT_DIR FIRST_SEED FILE TRAIN_FLAGS..." >&2
    exit 2
fi
out=$1
first=$2
file=$3
shift 3
index=${SLURM_ARRAY_TASK_ID:?run as a job array: sbatch --array=1-N}
seed=$((first + index - 1))
mkdir -p "$out/seed-$seed"
exec "${LEVEL_STUDIO:-level-studio}" train "$@" --seed "$seed" --out "$out/seed-$seed/$file"
