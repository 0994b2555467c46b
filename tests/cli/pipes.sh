#!/usr/bin/env bash
# Every input of tm-map reads from a pipe or FIFO as from a file: machines
# (-t <(tm-topo ...), a Scotch target, a .dist, an hwloc XML), matrices,
# constraint and host files. The result equals the one from regular files.
# Usage: tests/cli/pipes.sh BIN_DIR
set -euo pipefail
bin=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
"$bin/tm-gen" stencil2d --dims 4x4 --shuffle 3 --output s.mat
"$bin/tm-topo" tianhe3 --rows 1 --cols 2 --nodes 4 --cores 2 --tgt th.tgt -q
same() {  # same WHAT ARGS...: tm-map's mapping with the pipe equals the file's (reference in ref.out)
  local what=$1
  shift
  "$bin/tm-map" "$@" -q > got.out
  cmp -s ref.out got.out || { echo "FAIL: $what" >&2; diff ref.out got.out | head >&2; exit 1; }
}
"$bin/tm-map" -t th.tgt -c s.mat -q > ref.out
same "-t <(tm-topo --tgt -)" -t <("$bin/tm-topo" tianhe3 --rows 1 --cols 2 --nodes 4 --cores 2 --tgt - -q) -c s.mat
same "-c <(cat)" -t th.tgt -c <(cat s.mat) --comm-format mat
mkfifo machine.fifo
cat th.tgt > machine.fifo &
same "-t FIFO" -t machine.fifo -c s.mat
wait
# A Scotch description, a distance matrix and constraints through pipes.
"$bin/tm-map" -t "mesh2D 4 4" -c s.mat -b <(seq 0 15) > ref.out 2> /dev/null
same "-t <(echo mesh2D) -b <(seq)" -t <(echo "mesh2D 4 4") -c s.mat -b <(seq 0 15)
python3 - > m.dist <<'PY'
n = 16
print(n)
for i in range(n):
    print(" ".join(str(abs(i % 4 - j % 4) + abs(i // 4 - j // 4)) for j in range(n)))
PY
"$bin/tm-map" -t m.dist -c s.mat -q > ref.out
same "-t <(.dist)" -t <(cat m.dist) -c s.mat
# Host names from a pipe reach the rankfile.
printf 'alpha\nbeta\ngamma\ndelta\nepsilon\nzeta\neta\ntheta\n' > hosts.txt
"$bin/tm-map" -t th.tgt -c s.mat --hosts hosts.txt --format rankfile > ref.out 2> /dev/null
same "--hosts <(cat)" -t th.tgt -c s.mat --hosts <(cat hosts.txt) --format rankfile
grep -q "=alpha slot=" got.out
# An hwloc XML machine through a pipe (the node tm-topo writes).
"$bin/tm-topo" tianhe3 --rows 1 --cols 1 --nodes 2 --cores 1 --node "pack:2 core:8 pu:1" --xml node.xml -q
"$bin/tm-map" -t node.xml -c s.mat -q > ref.out
same "-t <(hwloc XML)" -t <(cat node.xml) -c s.mat
same "-x <(hwloc XML)" -x <(cat node.xml) -c s.mat
echo "pipes: every input read from a pipe or FIFO as from a file"
