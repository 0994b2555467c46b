#!/usr/bin/env bash
# GPU PEs launched for real on this host (no GPU needed: what is checked is
# what each rank is handed). A GPU node named after this host, mapped with
# --pe gpu: Open MPI's mpirun places ranks by tmap's hostfile (the
# sequential mapper, --mca rmaps seq) and MPICH's Hydra by its machinefile,
# each rank started by tm-bind; every rank sees the GPU variable and index
# the binding file gives it (CUDA_VISIBLE_DEVICES with CUDA_DEVICE_ORDER=
# PCI_BUS_ID for NVIDIA, ROCR_VISIBLE_DEVICES alone for AMD) and runs on the
# file's CPUs, as the kernel says. Refused, exit 2, the program not run: a
# GPU the launcher did not make visible, an unknown variable, a CPU the host
# lacks. The MPI library (LD_PRELOAD, TMAP_PE=gpu) reorders a program's
# graph communicator over the GPUs tm-bind gave its processes, below the
# identity's hop-bytes. And lstopo (Debian's hwloc) loads each example
# node's XML and keeps its GPUs and GPU-link matrix.
# Usage: tests/sched/gpu_bind.sh BIN_DIR EXAMPLES_DIR MPI_LIBRARY REORDER_PROGRAM
set -euo pipefail
bin=$1
examples=$2
library=$3
program=$4
# shellcheck source=../support/mpi_script.sh
source "$(dirname "$0")/../support/mpi_script.sh"
host=$(hostname)
host=${host%%.*}
pus=$(hwloc-calc --number-of pu machine:0)

# The example nodes' XML is what make_nodes.py writes, and lstopo reads it back.
mkdir "$work/nodes"
python3 "$examples/gpu/make_nodes.py" "$work/nodes"
for name in dgx-a100 nvlink4 mi250x; do
  cmp -s "$work/nodes/$name.xml" "$examples/gpu/$name.xml" || fail "examples/gpu/$name.xml is not what make_nodes.py writes"
done
for node in dgx-a100:nvml:8:NVLinkBandwidth nvlink4:nvml:4:NVLinkBandwidth mi250x:rsmi:8:XGMIBandwidth; do
  IFS=: read -r name backend gpus matrix <<< "$node"
  lstopo --input "$examples/gpu/$name.xml" --whole-io --of xml "$work/$name.lstopo.xml" ||
    fail "lstopo cannot load $name.xml"
  count=$(grep -c "name=\"$backend[0-9]\"" "$work/$name.lstopo.xml" || true)
  [ "$count" -eq "$gpus" ] || fail "lstopo kept $count of $name.xml's $gpus GPUs"
  grep -q "name=\"$matrix\"" "$work/$name.lstopo.xml" || fail "lstopo dropped $name.xml's $matrix"
done

# What each rank was handed: its rank, its GPU variables, its CPUs (sorted).
cat > "$work/where.sh" << 'EOF2'
#!/bin/sh
rank=${OMPI_COMM_WORLD_RANK:-${PMI_RANK:-?}}
cpus=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status)
echo "$rank cuda=${CUDA_VISIBLE_DEVICES:-} order=${CUDA_DEVICE_ORDER:-} rocr=${ROCR_VISIBLE_DEVICES:-} cpus=$cpus"
EOF2
chmod +x "$work/where.sh"

# expand LIST: "0-2,5" -> "0,1,2,5".
expand() {
  /usr/bin/python3 -c 'import sys
out = []
for part in sys.argv[1].split(","):
    a, _, b = part.partition("-")
    out += range(int(a), int(b or a) + 1)
print(",".join(map(str, sorted(out))))' "$1"
}

# check FILE OUTPUT VENDOR: every rank got its file's GPU and CPUs.
check() {
  local rank where cpus device variable index line seen
  local lines=0
  while read -r rank where cpus device; do
    case $rank in '#'*) continue ;; esac
    lines=$((lines + 1))
    variable=${device%%=*}
    index=${device#*=}
    line=$(grep "^$rank " "$2") || fail "rank $rank did not run ($1)"
    case $variable in
      CUDA_VISIBLE_DEVICES) expected="cuda=$index order=PCI_BUS_ID rocr=" ;;
      ROCR_VISIBLE_DEVICES) expected="cuda= order= rocr=$index" ;;
      *) fail "unexpected variable $variable in $1" ;;
    esac
    [[ $line == "$rank $expected cpus="* ]] || fail "rank $rank: got '$line', expected '$expected' ($1)"
    seen=$(expand "${line##*cpus=}")
    [ "$seen" = "$(expand "$cpus")" ] || fail "rank $rank: the kernel says CPUs $seen, the file $cpus"
  done < "$1"
  [ "$lines" -eq "$(wc -l < "$2")" ] || fail "$(wc -l < "$2") ranks ran for $lines lines of $1"
}

# A halo of 8 ranks, shuffled, on a node of 8 GPUs in pairs, 2 packages
# sharing this host's CPUs; and the same node as AMD's.
"$bin/tm-gen" stencil2d --dims 4x2 --output "$work/halo.coo"
for vendor in nvidia amd; do
  node="gpu:8 link:pairs package:2 nic:4 pu:$pus vendor:$vendor"
  for format in binding hostfile machinefile; do
    "$bin/tm-map" -t 'fattree:1;1;1;1' --node "$node" --host-names "$host" -c "$work/halo.coo" --seed 3 \
      --format $format --output "$work/$vendor.$format" -q
  done
  grep -q "^# tmap binding pe=gpu$" "$work/$vendor.binding" || fail "no pe=gpu line: $(cat "$work/$vendor.binding")"
  timeout 120 mpirun --oversubscribe --hostfile "$work/$vendor.hostfile" --mca rmaps seq --bind-to none -np 8 \
    "$bin/tm-bind" "$work/$vendor.binding" -- "$work/where.sh" > "$work/ompi.out"
  check "$work/$vendor.binding" "$work/ompi.out"
  if command -v mpiexec.mpich > /dev/null; then
    timeout 120 mpiexec.mpich -f "$work/$vendor.machinefile" -n 8 "$bin/tm-bind" "$work/$vendor.binding" -- \
      "$work/where.sh" > "$work/hydra.out"
    check "$work/$vendor.binding" "$work/hydra.out"
  fi
done
# Every GPU of the node once, and the halo's pairs on GPU links: with pairs
# linked, a 4 x 2 halo keeps 4 of its 10 pairs on them at best.
[ "$(awk '!/^#/ {print $4}' "$work/nvidia.binding" | sort -u | wc -l)" -eq 8 ] || fail "a GPU given twice"

# A hand-written file: ranks 0 and 1 swapped.
{
  echo "# tmap binding pe=gpu"
  echo "0 $host 0 CUDA_VISIBLE_DEVICES=1"
  echo "1 $host - CUDA_VISIBLE_DEVICES=0"
} > "$work/swapped.binding"
timeout 60 mpirun --oversubscribe --bind-to none -np 2 "$bin/tm-bind" "$work/swapped.binding" -- "$work/where.sh" \
  > "$work/swapped.out"
grep -q "^0 cuda=1 order=PCI_BUS_ID rocr= cpus=0$" "$work/swapped.out" || fail "rank 0: $(cat "$work/swapped.out")"
grep -q "^1 cuda=0 order=PCI_BUS_ID rocr= cpus=" "$work/swapped.out" || fail "rank 1: $(cat "$work/swapped.out")"

refused "rank 0 is given GPU 1 but the launcher made only CUDA_VISIBLE_DEVICES=2,3 visible" \
  env TMAP_RANK=0 CUDA_VISIBLE_DEVICES=2,3 "$bin/tm-bind" "$work/swapped.binding" -- echo ran
printf '# tmap binding pe=gpu\n0 %s 0 HIP_VISIBLE_DEVICES=0\n' "$host" > "$work/hip.binding"
refused "hip.binding:2: 'HIP_VISIBLE_DEVICES=0': expected CUDA_VISIBLE_DEVICES=N" \
  env TMAP_RANK=0 "$bin/tm-bind" "$work/hip.binding" -- echo ran
printf '# tmap binding pe=gpu\n0 %s 99999 CUDA_VISIBLE_DEVICES=0\n' "$host" > "$work/far.binding"
refused "rank 0 is placed on CPU 99999 (OS numbering) but $host has CPUs" \
  env TMAP_RANK=0 "$bin/tm-bind" "$work/far.binding" -- echo ran
printf '# tmap binding pe=gpu\n0 %s 0\n' "$host" > "$work/short.binding"
refused "short.binding:2: expected 'RANK HOST CPUS VARIABLE=GPU'" \
  env TMAP_RANK=0 "$bin/tm-bind" "$work/short.binding" -- echo ran
# The MPI library on GPU PEs: 8 processes, process k handed GPU 3k mod 8 by
# tm-bind, reorder a scrambled ring (the program's graph mode).
node="gpu:8 link:pairs package:2 nic:4 pu:$pus"
{
  echo "# tmap binding pe=gpu"
  for k in 0 1 2 3 4 5 6 7; do echo "$k $host - CUDA_VISIBLE_DEVICES=$((3 * k % 8))"; done
} > "$work/processes.binding"
launch() {
  # Open MPI's own topo component only (a tmap component installed on the
  # host would reorder the identity run).
  timeout 120 mpirun --oversubscribe --bind-to none --mca topo basic -np 8 -x TMAP_TOPOLOGY='fattree:1;1;1;1' \
    -x TMAP_NODE="$node" \
    -x TMAP_HOST_NAMES="$host" -x TMAP_PE=gpu -x TMAP_VERBOSE=1 "$@" \
    "$bin/tm-bind" "$work/processes.binding" -- "$program" graph "$work/ring.coo" "$work/placement" > /dev/null
  # Each vertex's PE: the GPU of the process that plays it.
  awk 'NR == FNR { if ($1 !~ /^#/) { split($4, g, "="); gpu[$1] = g[2] } next } { print gpu[$1] }' \
    "$work/processes.binding" "$work/placement" > "$work/pes"
  "$bin/tm-eval" -t 'fattree:1;1;1;1' --node "$node" --pe gpu -c "$work/ring.coo" -m "$work/pes" 2>&1 |
    sed -n 's/.*hop_bytes \([0-9]*\).*/\1/p'
}
identity=$(launch)
reordered=$(launch -x LD_PRELOAD="$library" 2> "$work/verbose.txt")
grep -q "each on the GPU its launcher gave it" "$work/verbose.txt" || fail "not placed by GPU: $(cat "$work/verbose.txt")"
[ -n "$identity" ] && [ "$reordered" -lt "$identity" ] ||
  fail "reordering on GPUs: hop_bytes $reordered, identity $identity: $(cat "$work/verbose.txt")"
echo "MPI library on GPU PEs: hop_bytes identity $identity, reordered $reordered"

echo "GPU PEs: every rank got its GPU and CPUs under mpirun and Hydra; lstopo loads the example nodes; refusals said"
