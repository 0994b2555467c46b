#!/usr/bin/env bash
# tmap's fat trees route as SimGrid's FAT_TREE cluster zone does (an
# independent implementation): for every ordered pair of nodes the two
# routes match cable for cable, on instances with several parents, several
# parallel cables and three levels. Cables shared by both directions, as
# tmap's links are (SimGrid's sharing_policy SHARED).
# Usage: tests/fat_tree_oracle.sh ORACLE_PROGRAM
set -euo pipefail
oracle=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for params in "2;4,4;1,2;1,2" "3;2,2,2;1,2,2;1,1,2" "2;4,2;2,2;2,1" "1;6;1;1" "3;2,3,2;2,2,1;1,2,1"; do
  nodes=$(python3 -c "import math; print(math.prod(int(x) for x in '$params'.split(';')[1].split(',')))")
  cat > "$work/ft.xml" <<XML
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <cluster id="ft" prefix="node-" suffix="" radical="0-$((nodes - 1))" speed="1Gf" bw="1GBps" lat="1us"
           sharing_policy="SHARED" topology="FAT_TREE" topo_parameters="$params"/>
</platform>
XML
  "$oracle" "$work/ft.xml" "fattree:$params" 1e-6 --log=root.thresh:critical
done
