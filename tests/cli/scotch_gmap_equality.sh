#!/usr/bin/env bash
# `-s scotch` is Scotch: on the same graph and target, tm-map -s scotch and
# tm-gmap (gmap's flags) write the .map file scotch_gmap writes, line for
# line. Graphs from tm-gen (natural, shuffled, random), targets of every
# kind a user hands gmap: torus, mesh, hypercube, complete, tleaf, a sub,
# and the deco 0 tm-topo writes for Tianhe-3 (whole and an allocation,
# which tm-map also reaches through -t tianhe3:... --alloc).
# Usage: tests/cli/scotch_gmap_equality.sh BIN_DIR
set -euo pipefail
bin=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

"$bin/tm-gen" stencil3d --dims 8x8x8 --shuffle 7 --output s512.grf
"$bin/tm-gen" stencil2d --dims 8x8 --output s64.grf
"$bin/tm-gen" stencil2d --dims 12x10 --shuffle 3 --output s120.grf
"$bin/tm-gen" stencil2d --dims 8x4 --shuffle 2 --output s32.grf
"$bin/tm-gen" random --ranks 60 --degree 5 --volume 1000 --output r60.grf
"$bin/tm-gen" random --ranks 100 --degree 6 --output r100.grf
"$bin/tm-gen" random --ranks 30 --degree 9 --seed 3 --output r30.grf
"$bin/tm-gen" stencil3d --dims 32x16x16 --shuffle 1 --output s8192.grf
echo "torus3D 8 8 8" > torus.tgt
echo "mesh2D 8 8" > mesh.tgt
echo "mesh3D 4 4 8" > mesh3.tgt
echo "hcub 7" > hcub.tgt
echo "cmplt 64" > cmplt.tgt
echo "tleaf 3 4 100 4 10 4 1" > tleaf.tgt
echo "tleaf 2 4 10 8 1" > tleaf1.tgt
echo "mesh3D 32 16 16" > mesh8192.tgt
echo "sub 32 $(seq -s ' ' 0 2 62) tleaf 2 8 10 8 1" > sub.tgt
# sub targets whose labels have gaps or do not start at 0, on kinds whose
# terminals are single PEs (Scotch numbers a sub's terminals by their place
# in its list).
echo "sub 16 $(seq -s ' ' 0 2 30) mesh2D 8 4" > subgap.tgt
echo "sub 4 1 2 3 4 cmplt 8" > subfrom1.tgt
"$bin/tm-gen" random --ranks 16 --degree 4 --seed 5 --output r16.grf
"$bin/tm-gen" stencil2d --dims 2x2 --output s4.grf
"$bin/tm-topo" tianhe3 --rows 2 --cols 2 --nodes 8 --cores 4 --tgt th.tgt -q
"$bin/tm-topo" tianhe3 --rows 2 --cols 2 --nodes 8 --cores 4 --alloc 'cn[0-3,8-15,20-27]' --tgt tha.tgt -q

checked=0
same() {  # same WHAT A B: the two files are equal, line for line
  if ! cmp -s "$2" "$3"; then
    echo "FAIL: $1: $(diff "$2" "$3" | grep -c '^<') line(s) differ" >&2
    diff "$2" "$3" | head -5 >&2
    exit 1
  fi
  checked=$((checked + 1))
}
for pair in "s512.grf torus.tgt" "s64.grf mesh.tgt" "s120.grf mesh3.tgt" "s120.grf hcub.tgt" "r100.grf hcub.tgt" \
            "r60.grf cmplt.tgt" "s64.grf tleaf.tgt" "r60.grf tleaf.tgt" "s32.grf sub.tgt" "r100.grf th.tgt" \
            "s64.grf th.tgt" "r60.grf tha.tgt" "r30.grf tleaf1.tgt" "s8192.grf mesh8192.tgt" \
            "r16.grf subgap.tgt" "s4.grf subfrom1.tgt"; do
  set -- $pair
  scotch_gmap -Cd -cb "$1" "$2" gmap.map
  "$bin/tm-map" -t "$2" -c "$1" -s scotch --format scotch --output tmap.map -q
  same "tm-map -s scotch $pair" gmap.map tmap.map
  "$bin/tm-gmap" -Cd -cb "$1" "$2" tm-gmap.map
  same "tm-gmap -Cd -cb $pair" gmap.map tm-gmap.map
done
# tm-gmap's -vms log is gmap's, line for line (libscotch's own strategy
# and mapping view); -vt adds gmap's three timing lines.
for pair in "s512.grf torus.tgt" "r60.grf tleaf.tgt" "r100.grf th.tgt" "s32.grf sub.tgt"; do
  set -- $pair
  scotch_gmap -Cd -cb -vms "$1" "$2" /dev/null > gmap.log
  "$bin/tm-gmap" -Cd -cb -vms "$1" "$2" /dev/null > tm-gmap.log
  same "tm-gmap -vms log $pair" gmap.log tm-gmap.log
done
"$bin/tm-gmap" -Cd -cb -vt r100.grf th.tgt /dev/null > tm-gmap.log
test "$(cut -f1,2 tm-gmap.log | tr '\n' ' ')" = "T	Mapping T	I/O T	Total "
# The allocation given to tm-map instead of a pre-cut target file.
scotch_gmap -Cd -cb r60.grf tha.tgt gmap.map
"$bin/tm-map" -t th.tgt --alloc 'cn[0-3,8-15,20-27]' -c r60.grf -s scotch --format scotch --output tmap.map -q
same "tm-map --alloc on tm-topo's deco" gmap.map tmap.map
"$bin/tm-map" -t 'tianhe3:2x2,nodes=8,cores=4' --alloc 'cn[0-3,8-15,20-27]' -c r60.grf -s scotch --format scotch \
  --output tmap.map -q
same "tm-map -t tianhe3:... --alloc" gmap.map tmap.map
# gmap's other flags reach libscotch as gmap hands them over.
for flags in "" "-cq" "-b0.05" "-cs -b0.02" "-mr{job=t,map=t,poli=S,sep=h{pass=10}f{move=120,pass=-1,bal=0.01,type=b}}"; do
  # shellcheck disable=SC2086
  scotch_gmap -Cd $flags r100.grf th.tgt gmap.map
  # shellcheck disable=SC2086
  "$bin/tm-gmap" -Cd $flags r100.grf th.tgt tm-gmap.map
  same "tm-gmap -Cd $flags" gmap.map tm-gmap.map
done
"$bin/tm-map" -t th.tgt -c r100.grf -s scotch --scotch-flags q --scotch-imbalance 0.05 --format scotch \
  --output tmap.map -q
scotch_gmap -Cd -cq -b0.05 r100.grf th.tgt gmap.map
same "tm-map --scotch-flags q --scotch-imbalance 0.05" gmap.map tmap.map
# A matrix, converted as a user would for gmap, maps the same way.
"$bin/tm-gen" stencil2d --dims 8x8 --shuffle 5 --output m.mat
"$bin/tm-gen" convert --from m.mat --output m.grf
scotch_gmap -Cd -cb m.grf th.tgt gmap.map
"$bin/tm-map" -t th.tgt -c m.mat -s scotch --format scotch --output tmap.map -q
same "tm-map -c MATRIX vs gmap on its .grf" gmap.map tmap.map
# Byte volumes whose loads add up past 2^31 (each fits): libscotch gets the
# very graph tm-gen convert writes, undivided, as gmap loads it.
"$bin/tm-gen" stencil2d --dims 8x8 --volume 100000000 --shuffle 3 --output big.mat
"$bin/tm-gen" convert --from big.mat --output big.grf
scotch_gmap -Cd -cb big.grf tleaf.tgt gmap.map
"$bin/tm-map" -t tleaf.tgt -c big.mat -s scotch --format scotch --output tmap.map -v 2> big.err
same "tm-map -c MATRIX with loads past 2^31 vs gmap on its .grf" gmap.map tmap.map
! grep -q "divided" big.err
# Large loads on a large job: libscotch 7.0.3 on several threads segfaults
# or hangs there (scotch_gmap itself on two threads: 3 segfaults in 3 runs).
# Off cmplt targets the mapping does not move with libscotch's thread count,
# and tm-map and tm-gmap run it on one thread: gmap's mapping, no crash.
"$bin/tm-gen" stencil2d --dims 64x64 --volume 10000000 --shuffle 3 --output heavy.grf
echo "tleaf 3 16 20 4 10 64 1" > tleaf4096.tgt
# gmap's mapping puts two ranks on 4 PEs here: tm-map and tm-gmap move 4,
# say so, and write gmap's line everywhere else.
repaired() {  # repaired GRAPH TARGET MOVED WHAT: gmap's .map but MOVED lines, said so, tm-gmap alike
  SCOTCH_PTHREAD_NUMBER=1 scotch_gmap -Cd -cb "$1" "$2" gmap.map
  "$bin/tm-map" -t "$2" -c "$1" -s scotch --format scotch --output tmap.map -v 2> repaired.err
  grep -q "$3 rank(s) moved to free slots" repaired.err
  test "$(diff gmap.map tmap.map | grep -c '^<')" -eq "$3"
  "$bin/tm-gmap" -Cd -cb "$1" "$2" tm-gmap.map 2> repaired.err
  grep -q "^tm-gmap: note: scotch: .*$3 rank(s) moved to free slots" repaired.err
  same "tm-gmap -Cd -cb against tm-map -s scotch, $4" tmap.map tm-gmap.map
}
repaired heavy.grf tleaf4096.tgt 4 "heavy loads on 4,096 PEs"
# Vertex loads (the ranks' weights) reach libscotch as gmap reads them:
# with --imbalance EPS (gmap's -b) on a graph of 16 ranks a PE, the .map
# gmap writes.
"$bin/tm-gen" stencil3d --dims 16x16x8 --shuffle 3 --output s2048.grf
awk 'NR <= 2 { print; next } NR == 3 { print "0 011"; next } { print (NR * 7) % 4 + 1, $0 }' s2048.grf > w2048.grf
awk 'NR <= 2 { print; next } NR == 3 { print "0 011"; next } { print (NR * 5) % 3 + 1, $0 }' r60.grf > w60.grf
echo "tleaf 2 4 100 32 10" > tleaf128.tgt
for eps in 0.03 0.1; do
  scotch_gmap -Cd -cb -b$eps w2048.grf tleaf128.tgt gmap.map
  "$bin/tm-map" -t tleaf128.tgt -c w2048.grf -s scotch --imbalance $eps --format scotch --output tmap.map -q
  same "tm-map -s scotch --imbalance $eps on vertex loads, 16 ranks a PE" gmap.map tmap.map
done
# One rank a PE: Scotch balances the loads and puts two light ranks on some
# PEs; tm-map and tm-gmap move them to free PEs, say so, and agree.
repaired w60.grf tleaf.tgt 6 "vertex loads"
# scotch+ (tmap's portfolio) is never worse than scotch.
for pair in "s512.grf torus.tgt" "s120.grf hcub.tgt" "r60.grf tleaf.tgt" "r100.grf th.tgt" "r60.grf tha.tgt"; do
  set -- $pair
  plain=$("$bin/tm-map" -t "$2" -c "$1" -s scotch --format json -q | sed -n 's/.*"hop_bytes": \([0-9]*\).*/\1/p')
  plus=$("$bin/tm-map" -t "$2" -c "$1" -s scotch+ --format json -q | sed -n 's/.*"hop_bytes": \([0-9]*\).*/\1/p')
  test -n "$plain"
  test -n "$plus"
  if [ "$plus" -gt "$plain" ]; then echo "FAIL: scotch+ $plus > scotch $plain on $pair" >&2; exit 1; fi
done
echo "scotch_gmap equality: $checked .map files and logs equal"
