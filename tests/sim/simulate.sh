#!/usr/bin/env bash
# tm-map --simulate (SimGrid) against hand-computed times:
# - one message alone: latency + bytes / bandwidth;
# - two messages sharing a link: twice the transfer time;
# - every ordered pair of PEs of a small machine of each kind (Tianhe-3,
#   mesh, torus, tree): a 1-byte message takes hops x latency, the hops
#   being tm-map's own route hops (TH) for that pair, so SimGrid's routes
#   are tmap's routes; ranks of one node use the node link;
# - machines without links are refused (exit 2);
# - the one-round flow model's predicted time (--objective time, JSON
#   predicted_time_s) equals SimGrid's on these cases, where one link
#   (or a node's memory) is the bottleneck of every message;
# - the default without an objective chooses the mapping SimGrid runs faster.
# Usage: tests/sim/simulate.sh BIN_DIR
set -euo pipefail
bin=$1
# tm-map under a preload the build asks for (TMAP_TEST_PRELOAD, sanitizer
# builds: tests/CMakeLists.txt), and only tm-map: python3 started under it
# took 2 s each.
tm_map() { LD_PRELOAD=${TMAP_TEST_PRELOAD:-${LD_PRELOAD:-}} "$bin/tm-map" "$@"; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
sim() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(d['sim_time_s'])" "$1"; }
predicted() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(d['predicted_time_s'])" "$1"; }
close() { python3 -c "import sys; a,b=float(sys.argv[1]),float(sys.argv[2]); sys.exit(0 if abs(a-b) <= 1e-9*max(1,abs(b))+1e-12 else 1)" "$1" "$2" ||
  { echo "simulated $1, expected $2"; exit 1; }; }

# One message of 1e6 bytes over one link of 12.5 GB/s, 0.5 us per hop: 0.5e-6 + 8e-5.
printf '2\n0 1 1000000\n' > one.coo
tm_map -t "mesh2D 2 1" -c one.coo -s inorder --simulate --format json --output one.json -q
close "$(sim one.json)" 8.05e-5
close "$(predicted one.json)" 8.05e-5
# Two messages from rank 0, to 1 and to 2 on a line of 3: both cross link 0-1,
# which then carries 2e6 bytes, twice the transfer time of one (the link is
# busy from the first flow's start, 0.5 us, until all bytes passed): 0.5e-6 + 1.6e-4.
printf '3\n0 1 1000000\n0 2 1000000\n' > two.coo
tm_map -t "mesh2D 3 1" -c two.coo -s inorder --simulate --format json --output two.json -q
close "$(sim two.json)" 1.605e-4
close "$(predicted two.json)" 1.605e-4

# A dragonfly link of 2 parallel cables (green, between the 2 routers of a
# chassis) has twice one cable's bandwidth: two messages crossing it, each
# from its own node's cable, take one message's time, 3 hops x 0.5 us + 8e-5;
# with one cable they share it: 1.5e-6 + 1.6e-4.
printf '4\n0 2 1000000\n1 3 1000000\n' > df.coo
tm_map -t 'dragonfly:1,1;1,1;2,2;2' -c df.coo -s inorder --simulate --format json --output df2.json -q
close "$(sim df2.json)" 8.15e-5
close "$(predicted df2.json)" 8.15e-5
tm_map -t 'dragonfly:1,1;1,1;2,1;2' -c df.coo -s inorder --simulate --format json --output df1.json -q
close "$(sim df1.json)" 1.615e-4
close "$(predicted df1.json)" 1.615e-4
# Two cores of one Tianhe-3 node: the node's memory, 50 GB/s and 0.2 us: 2e-5 + 0.2e-6.
tm_map -t 'tianhe3:1x1,nodes=2,cores=2' -c one.coo -s inorder --simulate --format json --output mem.json -q
close "$(sim mem.json)" 2.02e-5
close "$(predicted mem.json)" 2.02e-5

# Routes: each ordered pair (a, b) of PEs as its own 2-rank mapping, one engine.
printf '2\n0 1 1\n' > tiny.coo
for machine in "tianhe3:2x2,nodes=4" "tianhe3:1x2,nodes=2,cores=2" "mesh2D 3 3" "torus2D 3 4" "tleaf 2 2 1 3 1"; do
  pes=$(python3 -c "import sys; print(sys.argv[1])" "$(tm_map -t "$machine" -c tiny.coo -s inorder --format json -q | python3 -c "import json,sys; print(json.load(sys.stdin)['pes'])")")
  files=()
  for ((a = 0; a < pes; a++)); do
    for ((b = 0; b < pes; b++)); do
      if ((a != b)); then
        printf '%d\n%d\n' "$a" "$b" > "p_${a}_${b}.perm"
        files+=(--compare-file "p_${a}_${b}=p_${a}_${b}.perm")
      fi
    done
  done
  tm_map -t "$machine" -c tiny.coo --compare inorder "${files[@]}" --simulate --sim-latency 1 \
    --sim-link-bw 1e6 --sim-node-bw 1e6 --format json --output routes.json -q
  python3 - "$machine" routes.json <<'PY'
import json, sys
machine, path = sys.argv[1], sys.argv[2]
results = json.load(open(path))["results"]
checked = 0
for r in results:
    if not r["strategy"].startswith("p_"):
        continue
    # 1 byte: latency only. tm-map's TH counts the route's hops; a pair on one node uses the node link (0.2 us).
    expected = r["th"] * 1e-6 if r["th"] > 0 else 0.2e-6
    got = r["sim_time_s"]
    if abs(got - expected) > 1e-11:
        sys.exit(f"{machine} {r['strategy']}: simulated {got}, expected {expected} (TH {r['th']})")
    checked += 1
print(f"{machine}: {checked} ordered pairs, simulated latency = TH x latency")
PY
done

# The default with no objective given chooses by the predicted time, and
# SimGrid agrees: NPB BT's 64 ranks on mesh2D 8 8 by default (in-order,
# predicted 4.26 ms) simulate at least 1.8x faster than under --objective
# hop-bytes with the quality preset's portfolio (scotch+, 1.8 % fewer
# hop-bytes, predicted 8.52 ms).
"$bin/tm-gen" bt --ranks 64 --output bt.mat
tm_map -t "mesh2D 8 8" -c bt.mat --simulate --format json --output by_time.json -q
tm_map -t "mesh2D 8 8" -c bt.mat --objective hop-bytes --auto-scotch scotch+ --simulate --format json --output by_hop_bytes.json -q
python3 -c "import sys; a,b=float(sys.argv[1]),float(sys.argv[2]); sys.exit(0 if a*1.8 < b else 1)" \
  "$(sim by_time.json)" "$(sim by_hop_bytes.json)" ||
  { echo "default simulated $(sim by_time.json) s, hop-bytes objective $(sim by_hop_bytes.json) s"; exit 1; }

# No links to simulate on: refused, nothing written.
printf "2\n0 1\n1 0\n" > m.dist
if tm_map -t m.dist -c tiny.coo --simulate --output never 2> err.txt; then exit 1; fi
grep -q "distances only, no links to simulate" err.txt
test ! -e never
echo "simulate: OK"
