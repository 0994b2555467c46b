#!/usr/bin/env bash
# tmap's networks route as SimGrid's own cluster zones do (independent
# implementations): fat trees cable for cable (several parents, parallel
# cables, three levels), dragonflies with SimGrid's lengths, latencies and
# link classes, for every ordered pair of nodes. Cables shared by both
# directions, as tmap's links are (SimGrid's sharing_policy SHARED).
# Usage: tests/sim/network_oracle.sh ORACLE_PROGRAM
set -euo pipefail
oracle=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
platform() {  # platform TOPOLOGY PARAMS NODES
  cat > "$work/net.xml" <<XML
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <cluster id="net" prefix="node-" suffix="" radical="0-$(($3 - 1))" speed="1Gf" bw="1GBps" lat="1us"
           sharing_policy="SHARED" topology="$1" topo_parameters="$2"/>
</platform>
XML
}
check() {  # check SIMGRID_TOPOLOGY TMAP_KIND PARAMS: every route of that network against SimGrid's zone
  local nodes
  nodes=$(python3 - "$2" "$3" <<'PY'
import math, sys
kind, params = sys.argv[1], sys.argv[2].split(";")
counts = {"fattree": lambda: params[1].split(","), "dragonfly": lambda: [p.split(",")[0] for p in params],
          "torus": lambda: params[0].split(",")}[kind]()
print(math.prod(int(x) for x in counts))
PY
)
  platform "$1" "$3" "$nodes"
  "$oracle" "$work/net.xml" "$2:$3" 1e-6 --log=root.thresh:critical
}
for params in "2;4,4;1,2;1,2" "3;2,2,2;1,2,2;1,1,2" "2;4,2;2,2;2,1" "1;6;1;1" "3;2,3,2;2,2,1;1,2,1"; do
  check FAT_TREE fattree "$params"
done
for params in "3,1;2,1;3,1;2" "2,2;3,2;2,3;1" "4,1;1,1;4,1;1" "1,1;3,1;2,1;2"; do
  check DRAGONFLY dragonfly "$params"
done
for params in "4,4" "3,2,2" "5,3" "2,2,2" "6"; do
  check TORUS torus "$params"
done
