#!/usr/bin/env bash
# Maps an MPI job onto its own Slurm allocation with tmap, then launches it
# with the result. Use inside a batch script (sbatch) or an salloc shell:
#
#   sbatch -N 4 --ntasks-per-node=64 examples/slurm/map_and_launch.sh traffic.mat ./my_app args...
#   sbatch -N 4 --ntasks-per-node=16 -c 4 ...      (MPI+OpenMP: 4 CPUs per rank)
#
# sbatch runs a copy of this script from its spool folder, so tm-map is
# found through TMAP_BIN, else PATH (installed tools), else the build tree
# beside the submission folder's copy of the project.
#
# TMAP_TOPOLOGY  the machine as tm-map's -t reads it (default: Slurm's own,
#                its switch tree from topology/tree, each node as hwloc sees
#                the node this script runs on)
# TMAP_STRATEGY  the strategy (default: tm-map's own)
# TMAP_BIN       the folder holding tm-map
# TMAP_HET_GROUP in a heterogeneous job, the group to map and launch
# TMAP_WORKDIR   where tmap.hostfile and tmap.rankfile go (default: the submission folder)
# TMAP_DRY_RUN=1 print the launch command instead of running it
set -euo pipefail

comm=${1:?usage: map_and_launch.sh TRAFFIC_MATRIX PROGRAM [ARGS...]}
shift
machine=()
[ -z "${TMAP_TOPOLOGY:-}" ] || machine=(-t "$TMAP_TOPOLOGY")
strategy=()
[ -z "${TMAP_STRATEGY:-}" ] || strategy=(-s "$TMAP_STRATEGY")
workdir=${TMAP_WORKDIR:-${SLURM_SUBMIT_DIR:-.}}
if [ -n "${TMAP_BIN:-}" ]; then
  tm_map=$TMAP_BIN/tm-map
elif command -v tm-map > /dev/null; then
  tm_map=$(command -v tm-map)
else
  tm_map=$workdir/build/bin/tm-map
fi
[ -x "$tm_map" ] || { echo "map_and_launch.sh: tm-map not found (set TMAP_BIN, or put tm-map on PATH)" >&2; exit 2; }

# 1. Map onto the CPUs Slurm gave this job (tm-map asks slurmctld which,
#    and, with no TMAP_TOPOLOGY, how its switches connect the nodes;
#    SLURM_CPUS_PER_TASK CPUs per rank), host names kept as Slurm spells
#    them. Exit code 2 means bad input: stop here.
group=()
[ -z "${TMAP_HET_GROUP:-}" ] || group=(--het-group "$TMAP_HET_GROUP")
"$tm_map" "${machine[@]}" -c "$comm" --alloc-from-env "${group[@]}" "${strategy[@]}" \
  --format hostfile --output "$workdir/tmap.hostfile"
"$tm_map" "${machine[@]}" -c "$comm" --alloc-from-env "${group[@]}" "${strategy[@]}" -q \
  --format rankfile --output "$workdir/tmap.rankfile"

# 2. Launch: Slurm places rank i on line i of the hostfile with
#    --distribution=arbitrary and binds each node's tasks, in rank order, to
#    the job's CPUs there in order: the CPUs the rankfile names (Open MPI
#    users: mpirun --rankfile tmap.rankfile). srun does not take -c from
#    the job's environment: it is passed on.
ranks=$(wc -l < "$workdir/tmap.hostfile")
launch=(srun --distribution=arbitrary -n "$ranks")
[ -z "${TMAP_HET_GROUP:-}" ] || launch+=(--het-group="$TMAP_HET_GROUP")
[ -z "${SLURM_CPUS_PER_TASK:-}" ] || launch+=(-c "$SLURM_CPUS_PER_TASK")
launch+=("$@")
if [ "${TMAP_DRY_RUN:-0}" = 1 ]; then
  echo "SLURM_HOSTFILE=$workdir/tmap.hostfile ${launch[*]}"
else
  SLURM_HOSTFILE="$workdir/tmap.hostfile" "${launch[@]}"
fi
