#!/usr/bin/env bash
# The drop-in front ends against the tools they replace.
# tm-gmap: its mapping files are read by Scotch's own gmtst, whose
# communication cost (CommExpan, load x distance over edges) equals
# tm-eval's hop-bytes; standard streams work as in gmap; gmap's options are
# accepted or refused by name. tm-mapping: TopoMatch's output line, its
# costs (TopoMatch counts each pair once: half of tm-eval's hop-bytes for a
# symmetric matrix; -m 3 hand-computed), and flags without meaning noted.
# Usage: tests/cli/front_ends.sh BIN_DIR
set -euo pipefail
bin=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

"$bin/tm-gen" stencil2d --dims 4x4 --output s.grf
"$bin/tm-gen" stencil2d --dims 4x4 --output s.mat
echo "tleaf 2 4 10 4 1" > t.tgt
hop_bytes() { "$bin/tm-eval" -t "$1" -c "$2" -m "$3" 2>&1 | sed -n 's/.*hop_bytes \([0-9]*\).*/\1/p'; }
scotch_cost() { gmtst "$1" "$2" "$3" | sed -n 's/.*CommExpan=.*(\([0-9]*\)).*/\1/p'; }

# tm-gmap on a tree and on a torus, with two strategies. (Not on deco
# targets: Scotch's SCOTCH_archDomTerm is off by one there, so gmtst's
# costs are wrong on them; see docs/mpi.md.)
"$bin/tm-gmap" s.grf t.tgt a.map
test "$(scotch_cost s.grf t.tgt a.map)" = "$(hop_bytes t.tgt s.grf a.map)"
echo "torus2D 4 4" > torus.tgt
"$bin/tm-gmap" s.grf torus.tgt d.map --strategy ohtma
test "$(scotch_cost s.grf torus.tgt d.map)" = "$(hop_bytes torus.tgt s.grf d.map)"
# A file tm-topo wrote (deco, terminals = nodes): tm-gmap's map is read back.
"$bin/tm-topo" tianhe3 --rows 1 --cols 2 --nodes 4 --cores 2 --tgt deco.tgt -q
"$bin/tm-gmap" s.grf deco.tgt e.map
"$bin/tm-eval" -t deco.tgt -c s.grf -m e.map > /dev/null 2>&1
# Standard streams, gmap's spelling of options, and a log file.
"$bin/tm-gmap" - t.tgt < s.grf > b.map
cmp a.map b.map
"$bin/tm-gmap" s.grf t.tgt c.map c.log -vmt -Cd -cbq -b0.05 -se
grep -q "^M	CommExpan=" c.log
test "$(head -1 c.map)" = 16
for bad in -Cr -ro/dev/null -fx.txt -q; do
  if "$bin/tm-gmap" s.grf t.tgt never.map "$bad" 2> err.txt; then exit 1; fi
  test ! -e never.map
done

# tm-mapping: the TopoMatch line, SUM_COM = hop-bytes / 2, the same
# placement as tm-map -s treematch.
out=$("$bin/tm-mapping" -t t.tgt -c s.mat)
echo "$out" | head -1 | grep -Eq '^TopoMatch: ([0-9]+,){15}[0-9]+ : [0-9]+$'
echo "$out" | sed -n 2p | grep -q '^Packed: 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15 : '
echo "$out" | sed -n 3p | grep -q '^RR: '
perm=$(echo "$out" | head -1 | sed 's/^TopoMatch: \([0-9,]*\) : .*/\1/')
test "$perm" = "$("$bin/tm-map" -t t.tgt -c s.mat -s treematch -q | paste -sd,)"
tr ',' '\n' <<< "$perm" > tm.perm
cost=$(echo "$out" | head -1 | sed 's/.* : //')
test $((cost * 2)) -eq "$(hop_bytes t.tgt s.mat tm.perm)"
# -m 3: 2 x levels to the common ancestor per pair; 2 x 2 blocks on the 4
# nodes: 16 edges inside a node (2 hops) and 8 between (4 hops), 1000 B each.
test "$("$bin/tm-mapping" -t t.tgt -c s.mat -m 3 | head -1 | sed 's/.* : //')" = 64000
# Flags TopoMatch has and tmap does not need: accepted, noted under -v 3.
notes=$("$bin/tm-mapping" -t t.tgt -c s.mat -d -k -n -g 5 -v 3 -s)
test "$(echo "$notes" | grep -c 'has no effect')" -eq 4
test -z "$("$bin/tm-mapping" -t t.tgt -c s.mat -s)"
if "$bin/tm-mapping" -t t.tgt 2> err.txt; then exit 1; fi
echo "front ends: OK"
