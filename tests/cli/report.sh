#!/usr/bin/env bash
# tm-report turns a --compare JSON into a page: index.html naming every
# strategy (the chosen one marked), PNG figures that are real images, the
# machine picture where the machine has coordinates; bad input gets exit 2,
# a message naming the file, and no folder.
# Usage: tests/cli/report.sh BIN_DIR SOURCE_DIR
set -euo pipefail
bin=$(cd "$1" && pwd)
report="$(cd "$2" && pwd)/tools/tm-report/tm-report"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

"$bin/tm-map" --example --compare all --format json --output cmp.json 2> /dev/null
"$report" cmp.json page > /dev/null
for s in $(python3 -c "import json; print(' '.join(r['strategy'] for r in json.load(open('cmp.json'))['results']))"); do
  grep -q "<td>$s</td>" page/index.html
done
grep -q 'class="chosen"' page/index.html
for png in hop_bytes congestion distance machine; do
  test "$(head -c 8 "page/$png.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a
  grep -q "src=\"$png.png\"" page/index.html
done

# A partial allocation on a 2D mesh: the machine picture is drawn.
"$bin/tm-gen" stencil2d --dims 4x4 --output c.mat
"$bin/tm-map" -t "mesh2D 8 8" -c c.mat -b <(seq 0 2 63) --compare scotch,inorder,greedy --format json --output mesh.json 2> /dev/null
"$report" mesh.json --output mesh > /dev/null
test -s mesh/machine.png
# Tianhe-3, both mappings filling the allocation: the machine picture shows
# the bytes each node exchanges with other nodes (tm-map's node_traffic, which
# sums to twice the bytes between nodes), not two equal occupancy pictures.
"$bin/tm-gen" stencil2d --dims 16x16 --volume 4096 --output halo.mat
"$bin/tm-map" -t tianhe3:2x2,nodes=32,cores=4 -c halo.mat --alloc 'cn[0012-0075]' --compare scotch,inorder \
  --format json --output th.json -q
python3 - th.json <<'PY'
import json, sys
for r in json.load(open(sys.argv[1]))["results"]:
    off = sum(b for d in r["bytes_by_distance"] if d["distance"] > 0 for b in [d["bytes"]])
    assert sum(b for _, b in r["node_traffic"]) == 2 * off, r["strategy"]
PY
"$report" th.json th > /dev/null
test -s th/machine.png
grep -q "Bytes each node exchanges with other nodes" th/index.html
test ! -e th/occupancy.png

# The mapping drawn on its machine (the README's picture): ranks coloured by
# their place in the stencil's grid; a bad --grid is refused, nothing written.
"$bin/tm-map" --example --compare inorder,auto --format json --output example.json -q
"$report" example.json placed --grid 8x8 > /dev/null
test "$(head -c 8 placed/placement.png | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a
grep -q 'src="placement.png"' placed/index.html
rc=0
"$report" example.json badgrid --grid 8 2> badgrid.err > /dev/null || rc=$?
test "$rc" -eq 2 && grep -q -- "--grid '8': expected XxY" badgrid.err && test ! -e badgrid

# The traffic on each link (tm-map --link-loads of one mapping) on Tianhe-3 and a mesh.
"$bin/tm-map" --example --link-loads links.csv -q > /dev/null
"$report" cmp.json withlinks --links links.csv --links-of scotch > /dev/null
test "$(head -c 8 withlinks/links.png | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a
grep -q 'src="links.png"' withlinks/index.html
"$bin/tm-map" -t "mesh2D 8 8" -c c.mat -b <(seq 0 2 63) -s scotch --link-loads mesh.csv -q > /dev/null
"$report" mesh.json meshlinks --links mesh.csv > /dev/null
test -s meshlinks/links.png
printf 'link,name,kind,bandwidth,messages,bytes,congestion\n0,a-b,dim0,1,1,lots,1\n' > badlinks.csv
if "$report" cmp.json never --links badlinks.csv 2> err.txt; then exit 1; fi
grep -q "badlinks.csv:2: bytes 'lots' is not a number" err.txt
test ! -e never

# What the pictures show (drawn on Agg axes and read back):
# a torus's wrap-around links are drawn (a stub at each end), colour bars
# in bytes carry no "1e7" multiplier over the title, one rank per PE shows
# which rank sits where (not one colour everywhere), a tree machine gets its
# picture, and strategies tied at the lowest hop-bytes are named as a tie.
"$bin/tm-gen" random --ranks 16 --degree 6 --volume 10000000 --output big.mat
"$bin/tm-map" -t "torus2D 4 4" -c big.mat -s inorder --link-loads torus.csv -q > /dev/null
"$bin/tm-map" -t "torus2D 4 4" -c big.mat --compare inorder,scotch --format json --output torus.json -q
PYTHONPATH="$(dirname "$report")" /usr/bin/python3 - torus.csv torus.json <<'PY'
import csv, json, sys
import tmap_plots as plots
links = list(csv.DictReader(open(sys.argv[1])))
fig, ax = plots.figure(6, 5)
assert plots.link_picture(ax, "torus2D 4 4", links)
wrap = sum(1 for r in links if abs(int(r["name"].split("-")[0]) % 4 - int(r["name"].split("-")[1]) % 4) == 3
           or abs(int(r["name"].split("-")[0]) // 4 - int(r["name"].split("-")[1]) // 4) == 3)
assert wrap > 0, "the torus has wrap-around links"
assert len(ax.lines) == len(links) + wrap, (len(ax.lines), len(links), wrap)
fig.canvas.draw()
bar = fig.axes[1]
assert bar.yaxis.get_offset_text().get_text() == "", bar.yaxis.get_offset_text().get_text()
assert any("B" in t.get_text() for t in bar.get_yticklabels()), [t.get_text() for t in bar.get_yticklabels()]
mapping = json.load(open(sys.argv[2]))["results"][0]["mapping"]
fig, ax = plots.figure(6, 5)
assert plots.occupancy(ax, "torus2D 4 4", mapping, "one rank per PE")
assert len(set(ax.images[0].get_array().compressed().tolist())) == 16, "one colour per rank"
print(f"pictures: {len(links)} links drawn, {wrap} of them wrap-around; no offset text; 16 ranks, 16 colours")
PY
"$bin/tm-map" -t "tleaf 3 2 100 4 10 4 1" -c c.mat --compare all --format json --output tree.json -q
"$report" tree.json tree > /dev/null
test -s tree/machine.png || test -s tree/occupancy.png
grep -q "strategies tie at the lowest hop-bytes" tree/index.html
"$report" torus.json torus > /dev/null
grep -q "Chosen: <b>" torus/index.html

# Bad input: exit 2, the file named, nothing written.
echo '{"results": 3}' > bad.json
if "$report" bad.json never 2> err.txt; then exit 1; fi
grep -q "bad.json: expected tm-map --compare" err.txt
test ! -e never
echo "not json" > worse.json
if "$report" worse.json never 2> err.txt; then exit 1; fi
grep -q "worse.json: not JSON" err.txt
touch afile
if "$report" cmp.json afile 2> err.txt; then exit 1; fi
grep -q "afile: exists and is not a folder" err.txt
refused() {  # refused MESSAGE ARGS...: exit 2, the message, nothing written
  local message=$1
  shift
  local rc=0
  timeout 20 "$report" "$@" 2> err.txt || rc=$?
  test "$rc" -eq 2 || { echo "exit $rc, expected 2: $*" >&2; cat err.txt >&2; exit 1; }
  grep -q -- "$message" err.txt || { echo "expected '$message':" >&2; cat err.txt >&2; exit 1; }
  test ! -e never
}
refused "/dev/zero: not a regular file and longer than 256 MiB" /dev/zero never
"$bin/tm-map" --example --format json --output one.json -q
refused "one.json: one run's JSON" one.json never
python3 -c "
import json
d = json.load(open('cmp.json'))
d['results'][1]['mapping'] = d['results'][1]['mapping'][:-1]
json.dump(d, open('short.json', 'w'))"
refused "short.json: results\[1\] ('.*'): n is 64 but the mapping has 63 entries" short.json never
printf 'link,name,kind,bandwidth,messages,bytes,congestion\n0,a-b,dim0,1,1,-4,1\n' > negative.csv
refused "negative.csv:2: bytes '-4' must be a finite number >= 0" cmp.json never --links negative.csv
refused "the output folder is given twice: OUTDIR 'never' and --output 'other'" cmp.json never --output other
test ! -e other
"$report" --version | grep -q "^tm-report "
test -z "$(ls -A | grep '^\.tm-report' || true)"
echo "tm-report: OK"
