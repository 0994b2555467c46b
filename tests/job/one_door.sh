#!/usr/bin/env bash
# One door (issue 62): the same job (a fat tree of two-socket nodes with
# hardware threads, named hosts, an allocation by host names, PU slots, a
# preset and an objective) through tm-map, tm-pmap (one process), the C
# API, Python and the MPI layer gives the same mapping PE for PE and, from
# the four that write one, the same rankfile byte for byte.
# Usage: one_door.sh BIN_DIR PYTHONPATH PYTHON C_DOOR MPI_DOOR LIBTMAP_MPI
set -euo pipefail
bin=$1
pythonpath=$2
python=$3
c_door=$4
mpi_door=$5
libtmap_mpi=$6
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

machine='fattree:2;4,4;1,2;1,2'
node='package:2 core:2 pu:2'
hosts='cn[01-16]'
# The first four hosts: under mpirun on this one host the MPI layer puts
# process p on PE p, PEs 0-31, which are these hosts'.
alloc='cn[01-04]'
preset=quality
objective=congestion
"$bin/tm-gen" random --ranks 32 --degree 3 --seed 5 --output job.coo

# tm-map
flags=(-t "$machine" --node "$node" --host-names "$hosts" --alloc "$alloc" -P "$preset" --objective "$objective"
       -c job.coo -q)
"$bin/tm-map" "${flags[@]}" > tm-map.perm
"$bin/tm-map" "${flags[@]}" --format rankfile --rankfile-slots pu > tm-map.rankfile

# tm-pmap, one process (the gathered graph gets the sequential job's mapping)
mpirun --oversubscribe -np 1 "$bin/tm-pmap" "${flags[@]}" --output tm-pmap.perm
mpirun --oversubscribe -np 1 "$bin/tm-pmap" "${flags[@]}" --format rankfile --rankfile-slots pu \
  --output tm-pmap.rankfile

# The C API, a field at a time
keys=(machine="$machine" node="$node" host-names="$hosts" alloc="$alloc" preset="$preset" objective="$objective"
      comm=job.coo)
"$c_door" "${keys[@]}" format=perm > c.perm
"$c_door" "${keys[@]}" format=rankfile slots=pu > c.rankfile

# Python
PYTHONPATH="$pythonpath" "$python" - "$machine" "$node" "$hosts" "$alloc" "$preset" "$objective" <<'PY'
import sys
import tmap
machine, node, hosts, alloc, preset, objective = sys.argv[1:]
result = tmap.map("job.coo", machine, node=node, host_names=hosts, alloc=alloc, preset=preset, objective=objective)
with open("python.perm", "w") as f:
    f.write("".join(f"{pe}\n" for pe in result.mapping))
with open("python.rankfile", "w") as f:
    f.write(tmap.launch_file(result.mapping, machine, "rankfile", node=node, host_names=hosts, alloc=alloc,
                             slots="pu"))
# A machine read once gives the same.
once = tmap.Machine(machine, node=node, host_names=hosts)
again = tmap.map("job.coo", once, alloc=alloc, preset=preset, objective=objective)
assert again.mapping == result.mapping, (again.mapping, result.mapping)
assert tmap.launch_file(result.mapping, once, "rankfile", alloc=alloc, slots="pu") == \
    open("python.rankfile").read()
PY

# The MPI layer: the preload library reorders a weighted dist graph.
mpirun --oversubscribe -np 32 -x LD_PRELOAD="$libtmap_mpi" -x TMAP_TOPOLOGY="$machine" -x TMAP_NODE="$node" \
  -x TMAP_HOST_NAMES="$hosts" -x TMAP_PRESET="$preset" -x TMAP_OBJECTIVE="$objective" -x TMAP_VERBOSE=1 \
  "$mpi_door" job.coo mpi.perm 2> mpi.log
grep -q "hop_bytes" mpi.log || { cat mpi.log; exit 1; }

for door in tm-pmap c python mpi; do
  cmp tm-map.perm "$door.perm" || { echo "$door's mapping differs from tm-map's"; paste tm-map.perm "$door.perm"; exit 1; }
done
for door in tm-pmap c python; do
  cmp tm-map.rankfile "$door.rankfile" || { echo "$door's rankfile differs"; diff tm-map.rankfile "$door.rankfile"; exit 1; }
done
# The job is not trivial: the mapping is not the launch order, the
# rankfile names the allocation's hosts and hardware threads.
if seq 0 31 | cmp -s - tm-map.perm; then echo "the mapping is the identity: the test proves nothing"; exit 1; fi
if grep -Ev '^rank [0-9]+=cn0[1-4] slot=[0-7]$' tm-map.rankfile; then echo "not the allocation's hosts and PUs"; exit 1; fi
grep -Eq 'slot=[4-7]$' tm-map.rankfile  # hardware threads, not cores (0-3)
echo "one door: the same mapping and rankfile through tm-map, tm-pmap, the C API, Python and the MPI layer"
