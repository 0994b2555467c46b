#!/usr/bin/env bash
# Maps an MPI job onto its own Slurm allocation with tmap, then launches it
# with the result. Use inside a batch script (sbatch) or an salloc shell:
#
#   sbatch -N 4 --ntasks-per-node=64 examples/slurm/map_and_launch.sh traffic.mat ./my_app args...
#
# TMAP_TOPOLOGY  the machine (default tianhe3:4x4,cores=64)
# TMAP_STRATEGY  the strategy (default scotch)
# TMAP_BIN       where tm-map lives (default: next to this script's build)
# TMAP_DRY_RUN=1 print the launch command instead of running it
set -euo pipefail

comm=${1:?usage: map_and_launch.sh TRAFFIC_MATRIX PROGRAM [ARGS...]}
shift
topology=${TMAP_TOPOLOGY:-tianhe3:4x4,cores=64}
strategy=${TMAP_STRATEGY:-scotch}
tm_map=${TMAP_BIN:-$(dirname "$0")/../../build/bin}/tm-map
workdir=${TMAP_WORKDIR:-${SLURM_SUBMIT_DIR:-.}}

# 1. Map onto the nodes Slurm gave this job (SLURM_JOB_NODELIST), host names
#    kept as Slurm spells them. Exit code 2 means bad input: stop here.
"$tm_map" -t "$topology" -c "$comm" --alloc-from-env -s "$strategy" \
  --format hostfile --output "$workdir/tmap.hostfile"
"$tm_map" -t "$topology" -c "$comm" --alloc-from-env -s "$strategy" -q \
  --format rankfile --output "$workdir/tmap.rankfile"

# 2. Launch: Slurm places rank i on line i of the hostfile with
#    --distribution=arbitrary (Open MPI users: mpirun --rankfile tmap.rankfile).
ranks=$(wc -l < "$workdir/tmap.hostfile")
launch=(srun --distribution=arbitrary -n "$ranks" "$@")
if [ "${TMAP_DRY_RUN:-0}" = 1 ]; then
  echo "SLURM_HOSTFILE=$workdir/tmap.hostfile ${launch[*]}"
else
  SLURM_HOSTFILE="$workdir/tmap.hostfile" "${launch[@]}"
fi
