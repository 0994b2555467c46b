#!/usr/bin/env bash
# libtmap-mpi under mpirun: a program that uses only MPI creates each of the
# four topologies with reorder = 1, with LD_PRELOAD=libtmap-mpi.so and a
# TMAP_TOPOLOGY tree. Checked: every new rank answers the neighbourhood
# queries as the standard says (cart, graph: as its vertex; dist graphs: with
# the edges its process declared, renumbered, and with TMAP_DIST_GRAPH=ranks
# as its vertex; the program counts errors and fails on any); the
# placement's hop-bytes (tm-eval, on the graph the program wrote) are below
# the identity's and at or below Open MPI's own treematch component's; and
# without TMAP_TOPOLOGY the library changes nothing. With STRATEGY (e.g.
# ptscotch: the graph mapped where it lives) the same checks hold. With
# MPI=mpich, the library and program are MPICH builds run by MPICH's own
# launcher (mpiexec.mpich, Hydra), which has no treematch to compare with.
# FORTRAN_PROGRAMS (topology_reorder.F90 builds, e.g. `use mpi` and
# `use mpi_f08`, for the same MPI) must get the C program's hop-bytes for
# every constructor through the library, MPI_UNWEIGHTED arriving as such.
# With TMAP_TEST_NODE set, TOPOLOGY is a network of nodes each holding that
# (tm-map --node): the library reads it from TMAP_NODE, as tm-eval from
# --node, and rank 0's line names the nodes.
# Usage: tests/mpi/mpi_plugin.sh BIN_DIR LIBRARY PROGRAM RANKS "TOPOLOGY" [STRATEGY] [openmpi|mpich] [FORTRAN_PROGRAM]...
set -euo pipefail
bin=$1
library=$2
program=$3
ranks=$4
machine=$5
strategy=${6:-}
mpi=${7:-openmpi}
fortran_programs=("${@:8}")
declare -A identity_of tmap_of
node=${TMAP_TEST_NODE:-}
if [ -n "$node" ]; then export TMAP_NODE="$node"; else unset TMAP_NODE; fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# run [-x VAR=VALUE]... [--mca NAME VALUE]... PROGRAM ARGS: under the MPI's own launcher.
run() {
  if [ "$mpi" = openmpi ]; then
    mpirun --oversubscribe -np "$ranks" ${strategy:+-x TMAP_STRATEGY="$strategy"} "$@" > /dev/null
    return
  fi
  local args=(-n "$ranks")
  [ -z "$strategy" ] || args+=(-genv TMAP_STRATEGY "$strategy")
  while [ "${1:-}" = -x ]; do
    args+=(-genv "${2%%=*}" "${2#*=}")
    shift 2
  done
  timeout 300 mpiexec.mpich "${args[@]}" "$@" > /dev/null
}
hop_bytes() {
  "$bin/tm-eval" -t "$machine" ${node:+--node "$node"} -c "$1" -m "$2" 2>&1 | sed -n 's/.*hop_bytes \([0-9]*\).*/\1/p'
}
for mode in cart graph adjacent dist; do
  run "$program" "$mode" "$work/graph.coo" "$work/identity.perm"
  identity=$(hop_bytes "$work/graph.coo" "$work/identity.perm")
  run -x LD_PRELOAD="$library" -x TMAP_TOPOLOGY="$machine" -x TMAP_VERBOSE=1 "$program" "$mode" "$work/graph.coo" \
    "$work/tmap.perm" 2> "$work/verbose.txt"
  # The strategy asked for is the one that ran (its name is in rank 0's line).
  grep -q "(${strategy:-auto}, " "$work/verbose.txt" || { cat "$work/verbose.txt"; exit 1; }
  # The machine is the network of those nodes, not one PE a node.
  [ -z "$node" ] || grep -qF "of nodes '$node'" "$work/verbose.txt" || { cat "$work/verbose.txt"; exit 1; }
  tmap=$(hop_bytes "$work/graph.coo" "$work/tmap.perm")
  cp "$work/graph.coo" "$work/$mode-graph.coo"
  identity_of[$mode]=$identity
  tmap_of[$mode]=$tmap
  # Open MPI's treematch implements the dist-graph constructors; basic does
  # the others. MPICH ignores reorder: its identity is the comparison.
  treematch=$identity
  peer="MPICH's own"
  if [ "$mpi" = openmpi ]; then
    run --mca topo treematch,basic "$program" "$mode" "$work/graph.coo" "$work/treematch.perm"
    treematch=$(hop_bytes "$work/graph.coo" "$work/treematch.perm")
    peer="Open MPI treematch"
  fi
  run -x LD_PRELOAD="$library" "$program" "$mode" "$work/graph.coo" "$work/unset.perm"
  cmp -s "$work/unset.perm" "$work/identity.perm"
  echo "$mode ($mpi), $ranks ranks on '$machine': hop_bytes identity $identity, $peer $treematch, tmap${strategy:+ $strategy} $tmap"
  test "$tmap" -lt "$identity"
  test "$tmap" -le "$treematch"
  # The other reading of a dist graph: new rank k takes vertex k's edges.
  if [ "$mode" = adjacent ] || [ "$mode" = dist ]; then
    run -x LD_PRELOAD="$library" -x TMAP_TOPOLOGY="$machine" -x TMAP_DIST_GRAPH=ranks "$program" "$mode" \
      "$work/graph.coo" "$work/ranks.perm"
    echo "$mode with TMAP_DIST_GRAPH=ranks: hop_bytes $(hop_bytes "$work/graph.coo" "$work/ranks.perm")"
  fi
done
# A dist graph's figure says what it assumes (each process keeps its edges by default).
grep -q "hold when each process does the work of its new rank" "$work/verbose.txt" || { cat "$work/verbose.txt"; exit 1; }
# One settings path: a config saved by tm-map --dump-config (a strategy, a
# seed, a refinement) with an objective over it (TMAP_OBJECTIVE) reorders
# inside MPI exactly as tm-map maps with both: the placement is tm-map's
# mapping of the program's graph, PE for PE.
if [ -z "$strategy" ]; then
  "$bin/tm-map" -s greedy --seed 3 --refine swap --dump-config > "$work/run.json"
  run -x LD_PRELOAD="$library" -x TMAP_TOPOLOGY="$machine" -x TMAP_CONFIG="$work/run.json" -x TMAP_OBJECTIVE=congestion \
    -x TMAP_VERBOSE=1 "$program" graph "$work/graph.coo" "$work/config.perm" 2> "$work/verbose.txt"
  grep -q "(greedy:swap, " "$work/verbose.txt" || { cat "$work/verbose.txt"; exit 1; }
  "$bin/tm-map" -t "$machine" ${node:+--node "$node"} -c "$work/graph.coo" --config "$work/run.json" \
    --objective congestion --format perm -q > "$work/tm-map.perm"
  cmp "$work/config.perm" "$work/tm-map.perm" || { paste "$work/config.perm" "$work/tm-map.perm"; exit 1; }
  echo "TMAP_CONFIG + TMAP_OBJECTIVE: the --dump-config file's mapping, as tm-map's ($(tr '\n' ' ' < "$work/config.perm"))"
  # A config it cannot read: not reordered, and why (the file named).
  echo '{"tmap_config": 1, "options": {"strategy": 5}}' > "$work/bad.json"
  run -x LD_PRELOAD="$library" -x TMAP_TOPOLOGY="$machine" -x TMAP_CONFIG="$work/bad.json" -x TMAP_VERBOSE=1 \
    "$program" cart "$work/graph.coo" "$work/bad-config.perm" 2> "$work/verbose.txt"
  grep -q "not reordered: .*bad.json" "$work/verbose.txt" || { cat "$work/verbose.txt"; exit 1; }
  cmp -s "$work/bad-config.perm" "$work/identity.perm"
fi
# Verbose 1 says why nothing was done: a misspelt strategy, a machine it cannot read, no machine.
if [ -z "$strategy" ]; then
  run -x LD_PRELOAD="$library" -x TMAP_TOPOLOGY="$machine" -x TMAP_STRATEGY=scotch_plus -x TMAP_VERBOSE=1 \
    "$program" cart "$work/graph.coo" "$work/typo.perm" 2> "$work/typo.txt"
  grep -q "not reordered: .*scotch_plus" "$work/typo.txt" || { echo "misspelt strategy:"; cat "$work/typo.txt"; exit 1; }
fi
run -x LD_PRELOAD="$library" -x TMAP_TOPOLOGY="tleaf 2 oops" -x TMAP_VERBOSE=1 "$program" cart "$work/graph.coo" \
  "$work/typo.perm" 2> "$work/typo.txt"
grep -q "not reordered: " "$work/typo.txt" || { echo "no reason for a bad machine:"; cat "$work/typo.txt"; exit 1; }
run -x LD_PRELOAD="$library" -x TMAP_VERBOSE=1 "$program" cart "$work/graph.coo" "$work/typo.perm" 2> "$work/typo.txt"
grep -q "not reordered: no machine is set" "$work/typo.txt" || { echo "no reason without a machine:"; cat "$work/typo.txt"; exit 1; }
echo "verbose 1: why not reordered, said (misspelt strategy, bad machine, none)"
# A machine tmap cannot read: MPI's own behaviour, no abort, no output.
run -x LD_PRELOAD="$library" -x TMAP_TOPOLOGY="no such machine" "$program" cart "$work/graph.coo" "$work/bad.perm"
cmp -s "$work/bad.perm" <(seq 0 $((ranks - 1))) || { run "$program" cart "$work/graph.coo" "$work/plain.perm"; cmp "$work/bad.perm" "$work/plain.perm"; }
# Fortran programs (the same graphs): the C program's decision, every constructor.
for fortran in "${fortran_programs[@]}"; do
  for mode in cart graph adjacent dist; do
    run -x LD_PRELOAD="$library" -x TMAP_TOPOLOGY="$machine" "$fortran" "$mode" "$work/fortran.perm"
    got=$(hop_bytes "$work/$mode-graph.coo" "$work/fortran.perm")
    echo "$(basename "$fortran") $mode: hop_bytes $got (C ${tmap_of[$mode]}, identity ${identity_of[$mode]})"
    test "$got" -eq "${tmap_of[$mode]}"
    if [ "$mode" = adjacent ] || [ "$mode" = dist ]; then
      run -x LD_PRELOAD="$library" -x TMAP_TOPOLOGY="$machine" "$fortran" "$mode" "$work/fortran.perm" processes unweighted
      test "$(hop_bytes "$work/$mode-graph.coo" "$work/fortran.perm")" -lt "${identity_of[$mode]}"
    fi
  done
done
echo "mpi plugin: OK"
