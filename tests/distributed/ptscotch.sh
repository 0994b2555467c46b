#!/usr/bin/env bash
# tm-pmap (the ptscotch strategy) under mpirun: each process reads its share
# of a .coo; by default a stencil's own order or grid is kept when optimal
# (hop-bytes = total bytes) and other traffic gets the sequential default's
# mapping (gathered; --gather-entries 0: kept where it lives), and
# -s ptscotch (PT-Scotch's mapping refined
# across block borders) never ends above PT-Scotch's own. The mapping rank
# 0 writes must be valid for tm-eval, its
# hop-bytes equal to what tm-pmap printed (an independent evaluator), the
# same on a second run, well below a random placement's, on tori, Tianhe-3
# (several blocks), with oversubscription and within an allocation; bad
# input exits 2 naming the file and line, with no output written.
# Usage: tests/distributed/ptscotch.sh BIN_DIR
set -euo pipefail
bin=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
pmap() { mpirun --oversubscribe -np "$1" "$bin/tm-pmap" "${@:2}"; }
score() { "$bin/tm-eval" "$@" | awk '$1 == "hop_bytes" { print $2 }'; }

strategy=auto  # tm-pmap's -s for check
check() {  # NP TOPOLOGY COMM [extra tm-pmap/tm-eval args]
  local np=$1 topology=$2 comm=$3
  shift 3
  pmap "$np" -t "$topology" -c "$comm" --output "$work/map.perm" -s "$strategy" "$@" 2> "$work/err"
  local printed scored random
  printed=$(sed -n 's/.*hop_bytes \([0-9]*\) .*/\1/p' "$work/err")
  scored=$(score -t "$topology" -c "$comm" -m "$work/map.perm" "$@")
  test -n "$printed"
  test "$printed" = "$scored"
  pmap "$np" -t "$topology" -c "$comm" --output "$work/again.perm" -s "$strategy" -q "$@"
  cmp "$work/map.perm" "$work/again.perm"
  random=$("$bin/tm-map" -t "$topology" -c "$comm" -s random -q --format json "$@" |
           sed -n 's/.*"hop_bytes": *\([0-9]*\).*/\1/p')
  test $((scored * 3)) -lt $((random * 2))
  echo "np $np on $topology: hop_bytes $scored (random $random)"
}

"$bin/tm-gen" stencil3d --dims 12x10x8 --shuffle 5 --output "$work/s960.coo"
for np in 1 2 3; do check "$np" "torus3D 12 10 8" "$work/s960.coo"; done
"$bin/tm-gen" stencil3d --dims 16x12x8 --shuffle 2 --output "$work/s1536.coo"
check 3 "tianhe3:1x4,nodes=96,cores=4" "$work/s1536.coo"
"$bin/tm-gen" stencil3d --dims 16x15x8 --output "$work/s1920.coo"
check 2 "torus3D 12 10 8" "$work/s1920.coo" -o 2
# A scheduler's allocation (nodes 6-8 and 10 busy, 297 of 384 given): tm-eval
# refuses any rank outside it.
check 3 "tianhe3:1x4,nodes=96,cores=4" "$work/s960.coo" --alloc 0-5,9,11-300

# A network of nodes as tm-map reads it (--node, --host-names): 16 nodes of
# 2 x 30 cores on a fat tree; the rankfile names the hosts, 60 ranks each.
cluster=(--node "package:2 core:30" --host-names "cn[01-16]")
check 2 "fattree:2;4,4;1,2;1,2" "$work/s960.coo" "${cluster[@]}"
pmap 2 -t "fattree:2;4,4;1,2;1,2" "${cluster[@]}" -c "$work/s960.coo" --format rankfile -q --output "$work/map.rankfile"
test "$(sed 's/^rank [0-9]*=\(cn[0-9]*\) slot=.*/\1/' "$work/map.rankfile" | sort | uniq -c | awk '$1 == 60' | wc -l)" = 16
echo "a fat tree of named two-socket nodes: 16 hosts x 60 ranks in the rankfile"
# Every format tm-map writes, hydra too: the configfile's runs of ranks add
# up to the rankfile's ranks on each host; without --program it is refused.
pmap 2 -t "fattree:2;4,4;1,2;1,2" "${cluster[@]}" -c "$work/s960.coo" --format hydra --program "./app -v" -q \
  --output "$work/map.hydra"
grep -q '^-n [0-9]* -host cn[0-9]* ./app -v$' "$work/map.hydra"
test "$(awk '{ n[$4] += $2 } END { for (h in n) print h, n[h] }' "$work/map.hydra" | sort)" = \
  "$(sed 's/^rank [0-9]*=\(cn[0-9]*\) slot=.*/\1/' "$work/map.rankfile" | sort | uniq -c | awk '{ print $2, $1 }' | sort)"
if pmap 1 -t "fattree:2;4,4;1,2;1,2" "${cluster[@]}" -c "$work/s960.coo" --format hydra --output "$work/no.hydra" \
  2> "$work/err"; then exit 1; fi
grep -q "needs the program" "$work/err"
test ! -e "$work/no.hydra"
echo "hydra: the configfile's ranks per host are the rankfile's; without --program refused, nothing written"

# A traffic in phases is refused (exit 2, nothing written), naming the conversion to its sum.
"$bin/tm-gen" snap --ranks 64 --output "$work/snap.phases"
rc=0
pmap 2 -t "tianhe3:2x2,nodes=4,cores=4" -c "$work/snap.phases" --output "$work/no.perm" 2> "$work/err" || rc=$?
test "$rc" -eq 2
grep -q "snap.phases: tm-pmap reads .coo: map the phases' sum (tm-gen convert --from" "$work/err"
test ! -e "$work/no.perm"
echo "a .phases traffic refused with the conversion named"

# The default keeps a shuffled stencil's grid where it is optimal: every
# pair one hop, hop-bytes = the total bytes sent.
total=$(awk 'NR > 1 { s += $3 } END { print s }' "$work/s960.coo")
for np in 1 3; do
  pmap "$np" -t "torus3D 12 10 8" -c "$work/s960.coo" --output "$work/map.perm" 2> "$work/err"
  grep -q "kept geometric: the traffic is a [0-9x]* grid; on the 12x10x8 box" "$work/err"
  test "$(score -t "torus3D 12 10 8" -c "$work/s960.coo" -m "$work/map.perm")" = "$total"
done
echo "shuffled stencil laid out at the optimum ($total)"

# PT-Scotch's mapping alone (-s ptscotch), and on traffic that is no grid:
# the refinement across block borders never raises what PT-Scotch gave.
"$bin/tm-gen" random --ranks 1200 --degree 5 --seed 3 --output "$work/r1200.coo"
strategy=ptscotch
for input in s960 r1200; do
  for np in 1 2 3; do
    check "$np" "torus3D 12 10 10" "$work/$input.coo"
    read -r from to < <(sed -n 's/.*refined across blocks: \([0-9]*\) -> \([0-9]*\) .*/\1 \2/p' "$work/err")
    test "$to" -le "$from"
    test "$to" = "$(sed -n 's/.*hop_bytes \([0-9]*\) .*/\1/p' "$work/err")"
  done
done
check 2 "tianhe3:1x4,nodes=96,cores=4" "$work/r1200.coo"
strategy=auto

# Traffic that is no grid, by default: gathered on process 0 and mapped by
# the sequential default, tm-map's hop-bytes on any number of processes
# (the random traffic is symmetric, so the gathered matrix is the file's);
# with --gather-entries 0 it stays where it lives (PT-Scotch's mapping
# refined across blocks, or the own order when lower).
sequential=$("$bin/tm-map" -t "torus3D 12 10 10" -c "$work/r1200.coo" -q --format json |
             sed -n 's/.*"hop_bytes": *\([0-9]*\).*/\1/p')
for np in 1 3; do
  check "$np" "torus3D 12 10 10" "$work/r1200.coo"
  grep -q "kept sequential: .* of the sequential default on the gathered graph ([0-9]* entries)" "$work/err"
  test "$(sed -n 's/.*hop_bytes \([0-9]*\) .*/\1/p' "$work/err")" = "$sequential"
done
pmap 2 -t "torus3D 12 10 10" -c "$work/r1200.coo" --gather-entries 0 --output "$work/map.perm" 2> "$work/err"
grep -q "kept \(ptscotch\|inorder\): the lowest hop-bytes .* of ptscotch" "$work/err"
echo "random traffic: the sequential default's $sequential gathered; PT-Scotch's where it lives with --gather-entries 0"

# Bad input: the process that read the line reports it; nothing is written.
printf '4\n0 1 10\n1 2 x\n2 3 5\n' > "$work/bad.coo"
set +e
pmap 2 -t "mesh2D 2 2" -c "$work/bad.coo" --output "$work/bad.perm" 2> "$work/err"
code=$?
set -e
test "$code" -ne 0
grep -q "tm-pmap: error: $work/bad.coo:3: expected 'i j bytes'" "$work/err"
test ! -e "$work/bad.perm"
echo "bad input refused"
# A .coo opening with a UTF-8 byte-order mark reads as tm-map reads it.
{ printf '\xef\xbb\xbf'; cat "$work/s960.coo"; } > "$work/bom.coo"
pmap 2 -t "torus3D 12 10 8" -c "$work/bom.coo" --output "$work/bom.perm" -q
"$bin/tm-map" -t "torus3D 12 10 8" -c "$work/bom.coo" -s inorder -q > /dev/null
test "$(score -t "torus3D 12 10 8" -c "$work/s960.coo" -m "$work/bom.perm")" -gt 0
echo "a .coo with a byte-order mark: mapped"

# Outputs are checked before any work, on every process, as tm-map checks
# them: never over an input (directly or through a link), never into a
# missing folder or a directory; exit 2 and the input untouched.
refused() {  # refused MESSAGE ARGS...: exit 2, MESSAGE on stderr
  local message=$1
  shift
  set +e
  "$@" 2> "$work/err"
  local rc=$?
  set -e
  test "$rc" -eq 2 || { echo "exit $rc, expected 2: $*" >&2; cat "$work/err" >&2; exit 1; }
  grep -q -- "$message" "$work/err" || { echo "expected '$message':" >&2; cat "$work/err" >&2; exit 1; }
}
cp "$work/s960.coo" "$work/keep.coo"
refused "refusing to write over it" pmap 2 -t "torus3D 12 10 8" -c "$work/keep.coo" --output "$work/keep.coo"
ln -s "$work/keep.coo" "$work/link.perm"
refused "refusing to write over it" pmap 2 -t "torus3D 12 10 8" -c "$work/keep.coo" --output "$work/link.perm"
cmp "$work/keep.coo" "$work/s960.coo"
refused "does not exist" pmap 2 -t "torus3D 12 10 8" -c "$work/keep.coo" --output "$work/no/such/x.perm"
refused "is a directory" pmap 2 -t "torus3D 12 10 8" -c "$work/keep.coo" --output "$work"
# An MPMD launch whose processes got other arguments fails on all of them.
refused "started with different arguments: argument 2 is 'torus3D 12 10 8' here and 'mesh3D 12 10 8'" \
  mpirun --oversubscribe -np 1 "$bin/tm-pmap" -t "mesh3D 12 10 8" -c "$work/keep.coo" -q : \
         -np 1 "$bin/tm-pmap" -t "torus3D 12 10 8" -c "$work/keep.coo" -q
echo "outputs checked and arguments agreed before any work"
