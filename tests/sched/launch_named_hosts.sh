#!/usr/bin/env bash
# A cluster described once (a fat tree of four nodes named cn01-cn04, each
# node this machine as hwloc sees it), mapped by tm-map to a rankfile and
# launched by Open MPI's mpirun with that rankfile and --report-bindings:
# one daemon per host, started through an ssh stand-in that runs it on
# this machine and tells it which host it stands for (tests/mpi/
# ssh_to_self.sh). Checked for every rank: it ran on the host the rankfile
# names, Open MPI reported it bound to the core the rankfile names, and
# the CPUs it may run on are that core's PUs (hwloc-calc, independently
# of tmap). The traffic is a shuffled stencil, so the mapping is not the
# launcher's own order.
# Usage: tests/sched/launch_named_hosts.sh BIN_DIR SOURCE_DIR
set -euo pipefail
bin=$(cd "$1" && pwd)
source_dir=$(cd "$2" && pwd)
fail() { echo "FAIL: $*" >&2; exit 1; }
for tool in mpirun hwloc-calc; do
  command -v "$tool" > /dev/null || fail "$tool not found (Debian: openmpi-bin, hwloc)"
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export TMAP_LAUNCH_TMPDIR="$work/daemons"  # a session folder per stand-in host (tests/mpi/ssh_to_self.sh)

cores=$(hwloc-calc --number-of core machine:0)
ranks=$((4 * cores))
machine=(-t 'fattree:2;2,2;1,1;1,1' --node this --host-names 'cn[01-04]')
/usr/bin/python3 - "$work/halo.coo" "$ranks" << 'PY'
import random, sys
path, n = sys.argv[1], int(sys.argv[2])
order = list(range(n))
random.Random(7).shuffle(order)   # rank order unrelated to the machine's
lines = [str(n)]
for k in range(n):                # a ring with a chord: one heavy neighbour each way
    for step, volume in ((1, 1000), (2, 10)):
        a, b = order[k], order[(k + step) % n]
        lines += [f"{a} {b} {volume}", f"{b} {a} {volume}"]
open(path, "w").write("\n".join(lines) + "\n")
PY
"$bin/tm-map" "${machine[@]}" -c "$work/halo.coo" --format rankfile --output "$work/app.rankfile" 2> "$work/map.err" ||
  fail "tm-map: $(cat "$work/map.err")"
echo "tm-map: $(grep -o 'hop_bytes [0-9]*' "$work/map.err"), $ranks ranks on 4 hosts of $cores cores"
# The mapping itself (the same run, as PEs): PE = node x PUs per node + PU.
"$bin/tm-map" "${machine[@]}" -c "$work/halo.coo" --format perm --output "$work/app.perm" 2> /dev/null

cat > "$work/task.sh" << 'SH'
#!/bin/sh
echo "$OMPI_COMM_WORLD_RANK $TMAP_LAUNCH_HOST $(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status)"
SH
chmod +x "$work/task.sh"
hosts=cn01:$cores,cn02:$cores,cn03:$cores,cn04:$cores
timeout 120 mpirun --mca plm_rsh_agent "$source_dir/tests/mpi/ssh_to_self.sh" --host "$hosts" \
  --rankfile "$work/app.rankfile" --report-bindings -np "$ranks" "$work/task.sh" > "$work/tasks.out" 2> "$work/bindings" ||
  fail "mpirun: $(cat "$work/tasks.out" "$work/bindings")"

# Each core's PUs as the OS numbers them, from hwloc's own tool.
for ((c = 0; c < cores; ++c)); do
  echo "$c $(hwloc-calc --physical-output --intersect pu "core:$c")"
done > "$work/core_pus"
pus=$(hwloc-calc --number-of pu machine:0)
for ((p = 0; p < pus; ++p)); do hwloc-calc --intersect core "pu:$p"; done > "$work/core_of_pu"
/usr/bin/python3 - "$work" "$source_dir/tests/sched" << 'PY'
import re, sys
d = sys.argv[1]
sys.dont_write_bytecode = True  # nothing written into the source tree
sys.path.insert(0, sys.argv[2])
from cpu_lists import cpus
pus_of = {int(c): cpus(p) for c, p in (line.split() for line in open(f"{d}/core_pus"))}
wrote = {}
for line in open(f"{d}/app.rankfile"):
    m = re.fullmatch(r"rank (\d+)=(cn0[1-4]) slot=(\d+)\n?", line)
    assert m, f"rankfile line {line!r}"
    wrote[int(m[1])] = (m[2], int(m[3]))
ran = {int(r): (h, cpus(c)) for r, h, c in (line.split() for line in open(f"{d}/tasks.out"))}
bound = {}
for m in re.finditer(r"MCW rank (\d+) bound to .*?core (\d+)\[hwt", open(f"{d}/bindings").read()):
    bound[int(m[1])] = int(m[2])
assert sorted(ran) == sorted(wrote) == sorted(bound), (sorted(ran), sorted(wrote), sorted(bound))
for r, (host, core) in sorted(wrote.items()):
    assert ran[r][0] == host, f"rank {r} ran on {ran[r][0]}, the rankfile says {host}"
    assert bound[r] == core, f"rank {r}: Open MPI bound it to core {bound[r]}, the rankfile says {core}"
    assert ran[r][1] == pus_of[core], f"rank {r} may run on CPUs {sorted(ran[r][1])}, core {core} is {sorted(pus_of[core])}"
# The rankfile is the mapping: rank r on PE p is on host cn0(p / PUs + 1),
# slot = the core of PU p % PUs.
core_of_pu = [int(line) for line in open(f"{d}/core_of_pu")]
pes = [int(line) for line in open(f"{d}/app.perm")]
for r, pe in enumerate(pes):
    node, pu = divmod(pe, len(core_of_pu))
    assert wrote[r] == (f"cn{node + 1:02d}", core_of_pu[pu]), f"rank {r} on PE {pe}, the rankfile says {wrote[r]}"
assert pes != sorted(pes), "the mapping is the launcher's own order: nothing shown"
hosts = sorted({h for h, _ in wrote.values()})
print(f"every rank ran on the host and core the rankfile names ({len(wrote)} ranks on {', '.join(hosts)})")
PY
echo "launch on named hosts: OK"
