#!/usr/bin/env bash
# Open MPI's topo component mca_topo_tmap under mpirun: loaded from the
# build tree (mca_base_component_path), listed by ompi_info, and selected
# with --mca topo tmap,basic. A C program's four constructors (cart, graph,
# dist graph, adjacent) and a Fortran program's (use mpi) MPI_Cart_create,
# all with reorder = true, are reordered: every
# neighbour MPI answers is right (the programs count errors and fail on
# any), hop-bytes (tm-eval, on the grid's graph) are below the identity's
# and at or below Open MPI's treematch; the Fortran program is NOT
# reordered by the preload library (Open MPI's Fortran bindings bypass
# MPI_Cart_create), which is why the component exists; without
# TMAP_TOPOLOGY the component changes nothing.
# Usage: tests/ompi_component.sh BIN_DIR COMPONENT_DIR C_PROGRAM RANKS "MACHINE" PRELOAD_LIBRARY [FORTRAN_PROGRAM]
set -euo pipefail
bin=$1
component_dir=$2
c_program=$3
ranks=$4
machine=$5
preload=$6
fortran=${7:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fail() { echo "FAIL: $*" >&2; exit 1; }
# Open MPI's own component folder stays on the path beside ours.
default_path=$(ompi_info --param mca base --level 9 --parsable 2>/dev/null |
  sed -n 's/^mca:mca:base:param:mca_base_component_path:value:"\{0,1\}\([^"]*\)"\{0,1\}$/\1/p' | head -n 1)
[ -n "$default_path" ] || fail "ompi_info does not give mca_base_component_path"
path="$component_dir:$default_path"
OMPI_MCA_mca_base_component_path="$path" ompi_info | grep -q "MCA topo: tmap" || fail "ompi_info does not list topo tmap"
component=(--mca mca_base_component_path "$path" --mca topo tmap,basic)
run() { mpirun --oversubscribe -np "$ranks" "$@"; }
hop_bytes() { "$bin/tm-eval" -t "$machine" -c "$work/graph.coo" -m "$1" 2>&1 | sed -n 's/.*hop_bytes \([0-9]*\).*/\1/p'; }

# check NAME PERM: the placement beats the identity and treematch.
check() {
  local got
  got=$(hop_bytes "$2")
  echo "$1, $ranks ranks on '$machine': hop_bytes identity $identity, Open MPI treematch $treematch, tmap $got"
  [ "$got" -lt "$identity" ] || fail "$1: $got hop-bytes, not below the identity's $identity"
  [ "$got" -le "$treematch" ] || fail "$1: $got hop-bytes, above treematch's $treematch"
}

# Each constructor from C: the identity (no component), treematch, then tmap.
for mode in cart graph adjacent dist; do
  run "$c_program" "$mode" "$work/graph.coo" "$work/identity.perm" > /dev/null
  identity=$(hop_bytes "$work/identity.perm")
  run --mca topo treematch,basic "$c_program" "$mode" "$work/graph.coo" "$work/treematch.perm" > /dev/null
  treematch=$(hop_bytes "$work/treematch.perm")
  run "${component[@]}" -x TMAP_TOPOLOGY="$machine" -x TMAP_VERBOSE=1 "$c_program" "$mode" "$work/graph.coo" \
    "$work/c.perm" > "$work/c.out" 2> "$work/c.err"
  grep -q "tmap-mpi: MPI_.*, $ranks ranks" "$work/c.err" || { cat "$work/c.err"; fail "$mode: no decision line"; }
  check "C $mode through the component" "$work/c.perm"
  # Without TMAP_TOPOLOGY the component is MPI's basic behaviour.
  run "${component[@]}" "$c_program" "$mode" "$work/graph.coo" "$work/unset.perm" > /dev/null
  cmp -s "$work/unset.perm" "$work/identity.perm" || fail "$mode: without TMAP_TOPOLOGY the component moved ranks"
done

# The Fortran program builds the same grid as the C program's cart. It is
# part of the check, not optional: tools/setup.sh installs gfortran.
[ -n "$fortran" ] || fail "no Fortran program was built (gfortran and Open MPI's Fortran bindings are needed)"
run "$c_program" cart "$work/graph.coo" "$work/identity.perm" > /dev/null
identity=$(hop_bytes "$work/identity.perm")
run --mca topo treematch,basic "$c_program" cart "$work/graph.coo" "$work/treematch.perm" > /dev/null
treematch=$(hop_bytes "$work/treematch.perm")
run "${component[@]}" -x TMAP_TOPOLOGY="$machine" "$fortran" "$work/f.perm" > "$work/f.out"
grep -q "cart (Fortran): 0 neighbourhood errors" "$work/f.out" || fail "Fortran: $(cat "$work/f.out")"
check "Fortran (use mpi) cart through the component" "$work/f.perm"
# The preload library does not see Fortran's MPI_CART_CREATE under Open MPI.
run -x LD_PRELOAD="$preload" -x TMAP_TOPOLOGY="$machine" "$fortran" "$work/preload.perm" > /dev/null
preloaded=$(hop_bytes "$work/preload.perm")
echo "Fortran through the preload library: hop_bytes $preloaded (not reordered: Open MPI's Fortran bindings bypass it)"
# What docs/mpi.md states as the component's reason: were it to change, say so.
[ "$preloaded" -eq "$identity" ] || fail "the preload library now reorders Fortran ($preloaded): update docs/mpi.md"
echo "ompi component: OK"
