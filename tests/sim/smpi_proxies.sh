#!/usr/bin/env bash
# The proxy applications tm-sim runs send what tm-gen's patterns model: the
# traffic each proxy really sent in one iteration (--matrix, counted at
# every send) equals `tm-gen APP --ranks N` pair by pair, so the matrix a
# mapping is computed from and the program the simulation runs agree.
# Usage: tests/sim/smpi_proxies.sh BIN_DIR
set -euo pipefail
bin=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

same_traffic() {  # same_traffic MODEL.coo SENT.coo
  python3 - "$1" "$2" <<'PY'
import sys
def load(path):
    rows = [line.split() for line in open(path) if line.strip()]
    pairs = {}
    for i, j, b in (r for r in rows[1:]):
        pairs[(int(i), int(j))] = pairs.get((int(i), int(j)), 0) + int(b)
    return int(rows[0][0]), pairs
(n, model), (m, sent) = load(sys.argv[1]), load(sys.argv[2])
if n != m or model != sent:
    diff = [(k, model.get(k), sent.get(k)) for k in sorted(set(model) | set(sent)) if model.get(k) != sent.get(k)]
    sys.exit(f"ranks {n} vs {m}; pairs that differ (pair, tm-gen, proxy): {diff[:8]}")
print(f"{len(model)} pairs, {sum(model.values())} bytes: the same")
PY
}

check() {  # check APP RANKS [tm-gen args] -- [proxy args]
  local app=$1 ranks=$2
  shift 2
  local gen=() proxy=()
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do gen+=("$1"); shift; done
  [ $# -gt 0 ] && shift
  proxy=("$@")
  "$bin/tm-gen" "$app" --ranks "$ranks" "${gen[@]}" --output "$work/model.coo"
  rm -f "$work/sent.coo"
  "$bin/tm-sim" -t 'torus2D 8 4' -c "$work/model.coo" -s inorder \
    --app "$app ${proxy[*]} --matrix $work/sent.coo" > /dev/null
  echo -n "$app on $ranks ranks ${gen[*]}: "
  same_traffic "$work/model.coo" "$work/sent.coo"
}

check lu 16 --class S -- --class S
check lu 32 --class W -- --class W
check lu 8 --class D -- --class D
check sweep3d 12
check sweep3d 16
check sweep3d 30
check snap 12
check snap 16
check bt 16 --class S -- --class S
check bt 4 --class W -- --class W
check sp 9 --class A -- --class A
check sp 16 --class S -- --class S
check cg 8 --class S -- --class S
check cg 16 --class W -- --class W
check cg 32 --class S -- --class S
