#!/usr/bin/env bash
# A run repeated from its configuration: tm-map --dump-config's file, and a
# JSON result's "config", fed back with --config, give the same mapping byte
# for byte; presets; the JSON records version, seed, threads and options;
# each error category exits with its code.
# Usage: tests/config/config.sh BIN_DIR
set -euo pipefail
bin=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
"$bin/tm-gen" stencil2d --dims 8x8 --shuffle 3 --output s.mat
"$bin/tm-gen" random --ranks 60 --degree 6 --seed 2 --output r.mat
fail() { echo "FAIL: $*" >&2; exit 1; }
checked=0
# repeat NAME MACHINE MATRIX FLAGS...: the flags' mapping equals --config's.
repeat() {
  local name=$1 machine=$2 matrix=$3
  shift 3
  "$bin/tm-map" -t "$machine" -c "$matrix" "$@" -q > direct.out
  "$bin/tm-map" "$@" --dump-config --output "$name.json"
  "$bin/tm-map" -t "$machine" -c "$matrix" --config "$name.json" -q > replay.out
  cmp -s direct.out replay.out || fail "$name: --config $name.json maps otherwise than $*"
  # The JSON result carries the same configuration.
  "$bin/tm-map" -t "$machine" -c "$matrix" "$@" -q --format json --output result.json
  "$bin/tm-map" -t "$machine" -c "$matrix" --config result.json -q > replay.out
  cmp -s direct.out replay.out || fail "$name: --config result.json maps otherwise than $*"
  checked=$((checked + 1))
}
t3=tianhe3:1x2,nodes=8,cores=4
repeat ohtma "$t3" s.mat -s ohtma --ohtma-loop 5
repeat random-seed 'torus2D 8 8' r.mat -s random --seed 12345678901234567890
repeat scotch-flags 'torus2D 8 8' r.mat -s scotch --scotch-flags q --scotch-imbalance 0.05
repeat greedy-tabu 'torus2D 8 8' r.mat -s greedy --refine tabu --refine-iters 300 --seed 4
repeat rb-passes 'torus2D 8 8' r.mat -s rb --rb-passes 2
repeat quality "$t3" s.mat -P quality
repeat fast 'tleaf 2 4 10 16 1' s.mat -P fast -p 2
# The options differ from the defaults in what they map (the test can fail).
"$bin/tm-map" -t 'torus2D 8 8' -c r.mat -s random -q > a.out
"$bin/tm-map" -t 'torus2D 8 8' -c r.mat -s random --seed 12345678901234567890 -q > b.out
cmp -s a.out b.out && fail "the seed changed nothing"
# Flags given beside --config win over the file.
"$bin/tm-map" -s ohtma --dump-config --output o.json
"$bin/tm-map" -t "$t3" -c s.mat --config o.json -s inorder -q > x.out
"$bin/tm-map" -t "$t3" -c s.mat -s inorder -q > y.out
cmp -s x.out y.out || fail "-s beside --config did not win"
# The JSON result: version, seed, threads and every option.
"$bin/tm-map" -t "$t3" -c s.mat -s ohtma --seed 9 -p 2 --format json -q --output r.json
python3 - "$bin" r.json <<'PY'
import json, subprocess, sys
bin_dir, path = sys.argv[1], sys.argv[2]
r = json.load(open(path))
version = subprocess.run([bin_dir + "/tm-map", "--version"], capture_output=True, text=True).stdout.split()[-1]
assert r["version"] == version, (r["version"], version)
assert r["seed"] == 9 and r["threads"] == 2, (r["seed"], r["threads"])
o = r["config"]["options"]
assert o["strategy"] == "ohtma" and o["seed"] == "9" and o["threads"] == "2", o
assert o["ohtma-loop"] == "default" and o["refine"] == "none", o
assert len(o) >= 19, len(o)
PY
# Exit codes by category: parameter 2, input 2, system 4.
code() { set +e; "$bin/tm-map" "$@" > /dev/null 2> err.txt; echo $?; set -e; }
[ "$(code -t "$t3" -c s.mat -P turbo)" = 2 ] || fail "unknown preset: not exit 2"
[ "$(code -t "$t3" -c s.mat --ohtma-loop x)" = 2 ] || fail "bad option: not exit 2"
grep -q -- "--ohtma-loop: 'x' is not a whole number" err.txt || fail "bad option message: $(cat err.txt)"
echo '{"tmap_config": 1, "options": {"tau": -3}}' > bad.json
[ "$(code -t "$t3" -c s.mat --config bad.json)" = 2 ] || fail "bad config: not exit 2"
grep -q "bad.json: tau: '-3' is not a whole number" err.txt || fail "bad config message: $(cat err.txt)"
if [ -w /dev/full ]; then
  [ "$(code -t "$t3" -c s.mat --output /dev/full)" = 4 ] || fail "/dev/full: not exit 4 (system)"
  grep -q "/dev/full: write error: No space left on device" err.txt || fail "/dev/full message: $(cat err.txt)"
fi
echo "config: $checked runs repeated from their configuration byte for byte"
