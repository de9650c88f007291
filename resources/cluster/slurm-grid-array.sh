#!/usr/bin/env bash
# A milab grid as a Slurm job array on a shared folder: task I of N runs the cells whose index is I modulo N
# (milab-cli run GRID --shard I/N), and one last job, started when every task has ended, collects them into
# grid.csv and the figures (the same command without --shard reuses every finished cell and reruns none).
#
#   sbatch --array=0-15 resources/cluster/slurm-grid-array.sh resources/experiments/figure2-top.json results/fig2
#   sbatch --dependency=afterany:<that job id> --wrap \
#     "build/bin/milab-cli run resources/experiments/figure2-top.json --out results/fig2"
#
# PBS (qsub -J 0-15) and HTCondor (queue 16, $(Process)) work the same way: pass the task's index and the count.
# An array larger than the grid is fine: the extra tasks print "no cells" and exit 0. A task that was killed is
# rerun by resubmitting it (its finished cells are reused); the collect refuses while a shard still runs.
#SBATCH --job-name=milab-grid
#SBATCH --cpus-per-task=1        # one cell at a time per task; LibTorch uses one intra-op thread per run
#SBATCH --mem=4G
#SBATCH --time=02:00:00
#SBATCH --output=milab-grid-%A_%a.out
set -euo pipefail
grid=${1:?usage: sbatch --array=0-N slurm-grid-array.sh GRID.json OUT_DIR}
out=${2:?usage: sbatch --array=0-N slurm-grid-array.sh GRID.json OUT_DIR}
cli=${MILAB_CLI:-build/bin/milab-cli}
export QT_QPA_PLATFORM=offscreen
# SLURM_ARRAY_TASK_COUNT is the array's size (Slurm >= 18); the index must start at 0 (--array=0-N).
exec "$cli" run "$grid" --out "$out" --shard "${SLURM_ARRAY_TASK_ID}/${SLURM_ARRAY_TASK_COUNT}"
