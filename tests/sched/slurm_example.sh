#!/usr/bin/env bash
# ctest: runs examples/slurm/map_and_launch.sh with a fake Slurm allocation
# and checks the files it writes and the launch command it prints.
set -euo pipefail
bin=$1
source_dir=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$bin/tm-gen" stencil2d --dims 4x4 --output "$work/traffic.mat"
out=$(SLURM_JOB_NODELIST='cn[0002-0003]' TMAP_TOPOLOGY='tianhe3:1x1,nodes=8,cores=8' TMAP_BIN="$bin" \
      TMAP_WORKDIR="$work" TMAP_DRY_RUN=1 "$source_dir/examples/slurm/map_and_launch.sh" "$work/traffic.mat" ./app -x)
echo "$out"
test "$out" = "SLURM_HOSTFILE=$work/tmap.hostfile srun --distribution=arbitrary -n 16 ./app -x"
test "$(wc -l < "$work/tmap.hostfile")" -eq 16
# Only the allocated hosts, as Slurm spelled them, 8 ranks each.
test "$(sort "$work/tmap.hostfile" | uniq -c | awk '{print $2":"$1}' | tr '\n' ' ')" = "cn0002:8 cn0003:8 "
grep -q '^rank 15=cn000[23] slot=[0-7]$' "$work/tmap.rankfile"
echo "slurm example OK"
