#!/usr/bin/env bash
# Open MPI's topo component mca_topo_tmap under mpirun: loaded from the
# build tree (mca_base_component_path), listed with its MCA parameters by
# ompi_info, and selected with --mca topo tmap,basic. The same program in C,
# Fortran (use mpi), Fortran (use mpi_f08) and Python (mpi4py) creates each
# of the four topologies (cart, graph, dist graph, adjacent) with reorder =
# true. Checked for each: every neighbour MPI answers is as the standard
# says (the programs count errors and fail on any); hop-bytes (tm-eval, on
# the graph) below the identity's and at or below Open MPI's treematch on
# the same program; the machine given as an MCA parameter works as the
# environment does; a dist graph's other reading (dist_graph=ranks) keeps
# its neighbours right; without a machine the component changes nothing.
# The preload library, which catches Open MPI's Fortran entry points
# (mpi_*_ for mpif.h and `use mpi`, pmpi_*_ for `use mpi_f08`), gives both
# Fortran programs the component's decision for every constructor, and
# Fortran's MPI_UNWEIGHTED reaches MPI as unweighted through both.
# Usage: tests/ompi/ompi_component.sh BIN_DIR COMPONENT_DIR C_PROGRAM RANKS "MACHINE" PRELOAD_LIBRARY
#                                FORTRAN_MPI FORTRAN_F08 PYTHON_PROGRAM [all|C]
set -euo pipefail
bin=$1
component_dir=$2
c_program=$3
ranks=$4
machine=$5
preload=$6
fortran=${7:-}
f08=${8:-}
python_program=${9:-}
# "C" checks the C program alone (the decision code is one for every
# binding: a second rank count need not relaunch all four); default all.
languages=${10:-all}
# shellcheck source=../support/mpi_script.sh
source "$(dirname "$0")/../support/mpi_script.sh"
# Every language is part of the check: tools/setup.sh installs gfortran and python3-mpi4py.
[ -n "$fortran" ] && [ -n "$f08" ] || fail "the Fortran programs were not built (gfortran and Open MPI's Fortran bindings)"
python_with_mpi4py
# Open MPI's own component folder stays on the path beside ours.
default_path=$(ompi_info --param mca base --level 9 --parsable 2>/dev/null |
  sed -n 's/^mca:mca:base:param:mca_base_component_path:value:"\{0,1\}\([^"]*\)"\{0,1\}$/\1/p' | head -n 1)
[ -n "$default_path" ] || fail "ompi_info does not give mca_base_component_path"
path="$component_dir:$default_path"
export OMPI_MCA_mca_base_component_path="$path"
ompi_info | grep -q "MCA topo: tmap" || fail "ompi_info does not list topo tmap"
params=$(ompi_info --param topo tmap --parsable)
for p in machine strategy verbose dist_graph; do
  grep -q "^mca:topo:tmap:param:topo_tmap_$p:" <<< "$params" || fail "ompi_info --param topo tmap does not list topo_tmap_$p"
done
unset OMPI_MCA_mca_base_component_path
component=(--mca mca_base_component_path "$path" --mca topo tmap,basic)
run() { mpirun --oversubscribe -np "$ranks" "$@"; }
hop_bytes() { "$bin/tm-eval" -t "$machine" -c "${2:-$work/graph.coo}" -m "$1" 2>&1 | sed -n 's/.*hop_bytes \([0-9]*\).*/\1/p'; }

# program LANGUAGE MODE PLACEMENT [READING]: the command line of one language's program.
program() {
  case $1 in
    C) echo "$c_program $2 $work/graph.coo $3 ${4:-processes}" ;;
    Fortran-mpi) echo "$fortran $2 $3 ${4:-processes} ${5:-}" ;;
    Fortran-f08) echo "$f08 $2 $3 ${4:-processes} ${5:-}" ;;
    mpi4py) echo "$python $python_program $2 $3 ${4:-processes}" ;;
  esac
}

declare -A identity_of component_of
for mode in cart graph adjacent dist; do
  # The graph file and the identity's placement, from the C program without reordering.
  run $(program C "$mode" "$work/identity.perm") > /dev/null
  identity=$(hop_bytes "$work/identity.perm")
  identity_of[$mode]=$identity
  cp "$work/graph.coo" "$work/$mode-graph.coo"
  all_languages=(C Fortran-mpi Fortran-f08 mpi4py)
  [ "$languages" = all ] || all_languages=(C)
  # Open MPI's treematch once per mode, from the C program: every language's
  # program builds the C program's graph, on which all hop-bytes here are
  # taken (12 launches fewer than once per language).
  run --mca topo treematch,basic $(program C "$mode" "$work/treematch.perm") > /dev/null || fail "C $mode under treematch"
  treematch=$(hop_bytes "$work/treematch.perm")
  for language in "${all_languages[@]}"; do
    run "${component[@]}" -x TMAP_TOPOLOGY="$machine" -x TMAP_VERBOSE=1 $(program "$language" "$mode" "$work/tmap.perm") \
      > "$work/out" 2> "$work/err" || fail "$language $mode: $(cat "$work/out" "$work/err")"
    grep -q "tmap-mpi: MPI_.*, $ranks ranks" "$work/err" || fail "$language $mode: no decision line: $(cat "$work/err")"
    got=$(hop_bytes "$work/tmap.perm")
    echo "$language $mode, $ranks ranks on '$machine': hop_bytes identity $identity, Open MPI treematch $treematch, tmap $got"
    [ "$got" -lt "$identity" ] || fail "$language $mode: $got hop-bytes, not below the identity's $identity"
    [ "$got" -le "$treematch" ] || fail "$language $mode: $got hop-bytes, above treematch's $treematch"
    [ "$language" != C ] || component_of[$mode]=$got
  done
  # The machine as an MCA parameter, nothing in the environment: the same decision.
  run "${component[@]}" --mca topo_tmap_machine "$machine" $(program C "$mode" "$work/mca.perm") > /dev/null
  [ "$(hop_bytes "$work/mca.perm")" -eq "$got" ] || fail "$mode: topo_tmap_machine does not act as TMAP_TOPOLOGY"
  # Without a machine the component is MPI's basic behaviour.
  run "${component[@]}" $(program C "$mode" "$work/unset.perm") > /dev/null
  cmp -s "$work/unset.perm" "$work/identity.perm" || fail "$mode: without a machine the component moved ranks"
done

if [ "$languages" != all ]; then
  echo "ompi component (C): OK"
  exit 0
fi

# The other reading of a dist graph, asked by MCA parameter: rank k takes vertex k's edges.
for mode in adjacent dist; do
  run "${component[@]}" --mca topo_tmap_machine "$machine" --mca topo_tmap_dist_graph ranks \
    $(program Fortran-f08 "$mode" "$work/ranks.perm" ranks) > /dev/null || fail "$mode with dist_graph=ranks"
  echo "Fortran-f08 $mode with topo_tmap_dist_graph=ranks: hop_bytes $(hop_bytes "$work/ranks.perm")"
done

# The preload library under Open MPI's Fortran bindings: every constructor
# from both Fortran programs gets the component's decision (same hop-bytes).
for language in Fortran-mpi Fortran-f08; do
  for mode in cart graph adjacent dist; do
    run -x LD_PRELOAD="$preload" -x TMAP_TOPOLOGY="$machine" -x TMAP_VERBOSE=1 \
      $(program "$language" "$mode" "$work/preload.perm") > "$work/out" 2> "$work/err" ||
      fail "$language $mode through the preload library: $(cat "$work/out" "$work/err")"
    grep -q "tmap-mpi: MPI_.*, $ranks ranks" "$work/err" || fail "preload, $language $mode: no decision line: $(cat "$work/err")"
    got=$(hop_bytes "$work/preload.perm" "$work/$mode-graph.coo")
    echo "$language $mode through the preload library: hop_bytes $got (component ${component_of[$mode]}, identity ${identity_of[$mode]})"
    [ "$got" -eq "${component_of[$mode]}" ] || fail "preload, $language $mode: $got hop-bytes, the component's ${component_of[$mode]}"
  done
  # Fortran's MPI_UNWEIGHTED (a common block's address) must reach MPI as
  # MPI_UNWEIGHTED through the preload and through the component.
  for mode in adjacent dist; do
    run -x LD_PRELOAD="$preload" -x TMAP_TOPOLOGY="$machine" \
      $(program "$language" "$mode" "$work/unweighted.perm" processes unweighted) > /dev/null ||
      fail "$language $mode with MPI_UNWEIGHTED through the preload library"
    [ "$(hop_bytes "$work/unweighted.perm" "$work/$mode-graph.coo")" -lt "${identity_of[$mode]}" ] || fail "preload, $language $mode unweighted: not reordered"
    run "${component[@]}" -x TMAP_TOPOLOGY="$machine" \
      $(program "$language" "$mode" "$work/unweighted.perm" processes unweighted) > /dev/null ||
      fail "$language $mode with MPI_UNWEIGHTED through the component"
  done
done
echo "ompi component: OK"
