#!/usr/bin/env bash
# A build with -DTMAP_WITH_HWLOC=OFF (tests off: the suites test hwloc
# machines): libtmap links neither libhwloc nor libxml2, the main job runs
# as in the full build, and hwloc inputs are refused with exit 2 and a
# message that says why, writing nothing.
# Usage: tests/no_hwloc_smoke.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$1
src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if ldd "$build/lib/libtmap.so" | grep -E "hwloc|xml2"; then
  echo "libtmap still links hwloc or libxml2" >&2
  exit 1
fi
"$build/bin/tm-map" --example > "$work/example.out" 2> "$work/example.err"
test "$(wc -l < "$work/example.out")" -eq 64
grep -q "hop_bytes 144000" "$work/example.err"

set +e
"$build/bin/tm-gen" stencil2d --dims 2x2 --output "$work/four.mat"
"$build/bin/tm-map" -x "$src/arch/ft2000plus-node.xml" -c "$work/four.mat" --output "$work/never" 2> "$work/xml.err"
code=$?
"$build/bin/tm-topo" tianhe3 --rows 1 --cols 1 --xml "$work/never.xml" 2> "$work/topo.err"
topo_code=$?
set -e
test "$code" -eq 2
grep -q "built without hwloc" "$work/xml.err"
test "$topo_code" -eq 2
grep -q "built without hwloc" "$work/topo.err"
test ! -e "$work/never"
test ! -e "$work/never.xml"

# Scotch targets still work, tm-topo's deco target included.
"$build/bin/tm-topo" tianhe3 --rows 1 --cols 2 --nodes 4 --cores 4 --tgt "$work/t.tgt" -q
"$build/bin/tm-gen" stencil2d --dims 4x8 --output "$work/c.mat"
"$build/bin/tm-map" -t "$work/t.tgt" -c "$work/c.mat" -s scotch -q > "$work/map.perm"
test "$(sort -u "$work/map.perm" | wc -l)" -eq 32
echo "no-hwloc build: OK"
