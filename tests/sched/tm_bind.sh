#!/usr/bin/env bash
# tm-bind under real launchers on this host: a binding file (tm-map
# --format binding, one reversed by hand, and tm-map's rankfile) launched by Open MPI's mpirun
# and MPICH's Hydra with `tm-bind FILE -- PROGRAM`: every rank runs on the
# CPUs of the core the file gives it, as the kernel says
# (/proc/self/status) and hwloc-bind --get says, each compared with what
# hwloc-calc names for that logical core (independently of tmap). Refusals:
# a rank placed on another host, no launcher rank, a malformed file (its
# line named), exit 2 and the program not run; a program that does not
# exist, 127.
# Usage: tests/sched/tm_bind.sh BIN_DIR
set -euo pipefail
bin=$1
# shellcheck source=../support/mpi_script.sh
source "$(dirname "$0")/../support/mpi_script.sh"
host=$(hostname)
host=${host%%.*}
cores=$(hwloc-calc --number-of core machine:0)
[ "$cores" -ge 2 ] || fail "needs 2 cores (this host has $cores)"
ranks=2

# What each rank reports: its rank variable, the kernel's CPU list, hwloc's binding.
cat > "$work/where.sh" << 'EOF2'
#!/bin/sh
rank=${OMPI_COMM_WORLD_RANK:-${PMI_RANK:-?}}
echo "$rank $(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status) $(hwloc-bind --get --taskset)"
EOF2
chmod +x "$work/where.sh"

# check FILE OUTPUT: each rank ran on the PUs of its file's core.
check() {
  local rank host_of core expected kernel hwloc
  while read -r rank host_of core; do
    case $rank in '#'*) continue ;; esac
    expected=$(hwloc-calc --physical-output --intersect pu "core:$core" | tr ',' '\n' | sort -n | paste -sd, -)
    read -r _ kernel hwloc < <(grep "^$rank " "$2")
    kernel=$(echo "$kernel" | /usr/bin/python3 -c 'import sys
out = []
for part in sys.stdin.read().strip().split(","):
    a, _, b = part.partition("-")
    out += range(int(a), int(b or a) + 1)
print(",".join(map(str, sorted(out))))')
    [ "$kernel" = "$expected" ] || fail "rank $rank: the kernel says CPUs $kernel, core $core is PUs $expected ($1)"
    [ "$(hwloc-calc --physical-output --intersect pu "$hwloc" | tr ',' '\n' | sort -n | paste -sd, -)" = "$expected" ] ||
      fail "rank $rank: hwloc-bind --get says $hwloc, core $core is PUs $expected"
  done < "$1"
}

"$bin/tm-gen" stencil2d --dims "${ranks}x1" --output "$work/traffic.coo"
"$bin/tm-map" -t 'fattree:1;1;1;1' --node "core:$cores" --host-names "$host" -c "$work/traffic.coo" \
  --format binding --output "$work/tmap.binding" -q
grep -q "^# tmap binding pe=core$" "$work/tmap.binding" || fail "no pe=core line: $(cat "$work/tmap.binding")"
# The same ranks the other way round, by hand.
{
  echo "# tmap binding pe=core"
  echo "0 $host 1"
  echo "1 $host 0"
} > "$work/reversed.binding"

for binding in tmap reversed; do
  mpirun --oversubscribe --bind-to none -np "$ranks" "$bin/tm-bind" "$work/$binding.binding" -- "$work/where.sh" \
    > "$work/ompi.out"
  check "$work/$binding.binding" "$work/ompi.out"
  if command -v mpiexec.mpich > /dev/null; then
    timeout 120 mpiexec.mpich -n "$ranks" "$bin/tm-bind" "$work/$binding.binding" -- "$work/where.sh" \
      > "$work/hydra.out"
    check "$work/$binding.binding" "$work/hydra.out"
  fi
done

# The rankfile tm-map writes is read as well.
"$bin/tm-map" -t 'fattree:1;1;1;1' --node "core:$cores" --host-names "$host" -c "$work/traffic.coo" \
  --format rankfile --output "$work/tmap.rankfile" -q
mpirun --oversubscribe --bind-to none -np "$ranks" "$bin/tm-bind" "$work/tmap.rankfile" -- "$work/where.sh" > "$work/ompi.out"
sed -E 's/^rank ([0-9]+)=(\S+) slot=(\S+)$/\1 \2 \3/' "$work/tmap.rankfile" > "$work/rankfile.lines"
check "$work/rankfile.lines" "$work/ompi.out"

sed "s/ $host / elsewhere /" "$work/tmap.binding" > "$work/elsewhere.binding"
refused "rank 1 is placed on elsewhere but runs on $host" env TMAP_RANK=1 "$bin/tm-bind" "$work/elsewhere.binding" -- echo ran
refused "no launcher rank in the environment" env -u TMAP_RANK -u OMPI_COMM_WORLD_RANK -u PMI_RANK -u SLURM_PROCID \
  "$bin/tm-bind" "$work/tmap.binding" -- echo ran
printf '0 %s 0\n0 %s 1\n' "$host" "$host" > "$work/twice.binding"
refused "twice.binding:2: rank 0 is placed twice (also line 1)" env TMAP_RANK=0 "$bin/tm-bind" "$work/twice.binding" -- echo ran
printf '16777215 %s 0\n' "$host" > "$work/huge.binding"
refused "huge.binding:1: rank 16777215 but the file has 2 lines" env TMAP_RANK=0 "$bin/tm-bind" "$work/huge.binding" -- echo ran
printf '0 %s 99999\n' "$host" > "$work/far.binding"
refused "rank 0 is placed on core 99999 but $host has $cores cores" env TMAP_RANK=0 "$bin/tm-bind" "$work/far.binding" -- echo ran
code=0
TMAP_RANK=0 "$bin/tm-bind" "$work/tmap.binding" -- "$work/no-such-program" 2> "$work/err" || code=$?
[ "$code" -eq 127 ] || fail "a missing program: exit $code, expected 127"
echo "tm-bind: every rank on its core under mpirun and Hydra; refusals said"
