#!/usr/bin/env bash
# tm-sim's inputs and outputs as a careless or hostile user gives them: a
# machine file named relative to the current folder, an hwloc XML (-x), a
# --keep folder with a space, proxy arguments that a shell would expand or
# that SimGrid would take as its own, a proxy --matrix over an input or a
# read-only file or into a missing folder, an -s naming no strategy, a run
# without messages, a run the time limit stops, and SIGTERM in the middle of
# a simulation.
# Usage: tests/sim/smpi_inputs.sh BIN_DIR
set -euo pipefail
bin=$(cd "$1" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

fail() { echo "FAIL: $*" >&2; exit 1; }
refused() {  # refused NAME MESSAGE -- tm-sim args: exit 2, the message, nothing on stdout
  local name=$1 message=$2 rc=0
  shift 3
  "$bin/tm-sim" "$@" > out.txt 2> err.txt || rc=$?
  test "$rc" -eq 2 || fail "$name: exit $rc, expected 2 ($(cat err.txt))"
  grep -qF -- "$message" err.txt || fail "$name: stderr lacks '$message': $(cat err.txt)"
  test ! -s out.txt || fail "$name: wrote to stdout"
  echo "$name: refused: $(head -1 err.txt)"
}
time_of() { python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["runs"][0]["app_time_s"])' "$1"; }

printf 'mesh2D 2 2\n' > m22.tgt
printf '4\n0 1 5\n1 0 5\n2 3 5\n3 2 5\n' > c.coo
printf '0\n1\n2\n3\n' > m.perm

# A machine file in the current folder (smpirun runs elsewhere): the time
# equals the inline description's.
"$bin/tm-sim" -t m22.tgt -m m.perm --app 'pingpong --bytes 1000' --format json > rel.json
"$bin/tm-sim" -t 'mesh2D 2 2' -m m.perm --app 'pingpong --bytes 1000' --format json > inline.json
test "$(time_of rel.json)" = "$(time_of inline.json)" || fail "relative machine file: $(time_of rel.json) s"
test "$(time_of rel.json)" != 0 || fail "relative machine file: no time"
echo "relative -t m22.tgt: $(time_of rel.json) s, as inline"

# The machine from a pipe: read once, copied into the run's folder.
"$bin/tm-sim" -t <(printf 'mesh2D 2 2\n') -m m.perm --app 'pingpong --bytes 1000' --format json > pipe.json
test "$(time_of pipe.json)" = "$(time_of inline.json)" || fail "machine from a pipe: $(time_of pipe.json) s"
echo "-t from a pipe: as inline"

# An hwloc XML with -x (the option --help offers).
if command -v lstopo > /dev/null; then
  lstopo -i 'pack:2 core:2 pu:1' --of xml node.xml 2> /dev/null
  "$bin/tm-sim" -x node.xml -m m.perm --app 'pingpong --bytes 1000' --format json > xml.json
  python3 -c 'import json, sys; t = json.load(open("xml.json"))["runs"][0]["app_time_s"]; sys.exit(0 if t > 0 else 1)' ||
    fail "-x node.xml gave no time"
  echo "-x node.xml: $(time_of xml.json) s"
fi

# A Slurm topology.conf with --node (issue 42): PE 0 (cn01) to PE 8 (cn05)
# crosses 2 edges in each node and 4 cables, so a 1 MB round trip at 1 us a
# hop and 1 GB/s takes 2 (8 us + 1 ms), plus SMPI's 16 ns a message.
printf 'SwitchName=s0 Nodes=cn[01-04]\nSwitchName=s1 Nodes=cn[05-08]\nSwitchName=spine Switches=s[0-1]\n' > topology.conf
printf '0\n8\n' > far.perm
"$bin/tm-sim" -t topology.conf --node 'core:2' -m far.perm --app 'pingpong --bytes 1000000 --iterations 1' \
  --sim-latency 1 --sim-link-bw 1 --format json > conf.json
python3 -c 'import json, sys; t = json.load(open("conf.json"))["runs"][0]["app_time_s"]; sys.exit(0 if abs(t - 2 * (8e-6 + 1e-3) - 32e-9) < 1e-9 else 1)' ||
  fail "topology.conf with --node: $(time_of conf.json) s, expected 0.002016032"
echo "topology.conf with --node: $(time_of conf.json) s, as computed by hand"
# Two kinds of node: cn01-cn04 of 2 packages x 2 cores (a PU 3 edges from
# its node's root), the others of 2 cores (2 edges); cn05's first PE is 16 (no
# PE at all were the kinds lost): 3 + 4 cables + 2 = 9 hops, 2 (9 us + 1 ms)
# + 32 ns; back from cn05's PE the same.
printf '0\n16\n' > kinds.perm
"$bin/tm-sim" -t topology.conf --node 'core:2' --node 'cn[01-04]=package:2 core:2' -m kinds.perm \
  --app 'pingpong --bytes 1000000 --iterations 1' --sim-latency 1 --sim-link-bw 1 --format json > kinds.json
python3 -c 'import json, sys; t = json.load(open("kinds.json"))["runs"][0]["app_time_s"]; sys.exit(0 if abs(t - 2 * (9e-6 + 1e-3) - 32e-9) < 1e-9 else 1)' ||
  fail "two kinds of node: $(time_of kinds.json) s, expected 0.002018032"
echo "two kinds of node: $(time_of kinds.json) s, as computed by hand"

# --keep in a folder whose name has a space: the run happens and is kept.
mkdir -p kept
"$bin/tm-sim" -t m22.tgt -m m.perm --app 'pingpong --bytes 1000' --keep "kept/my run" --format json > kept.json
test "$(time_of kept.json)" = "$(time_of inline.json)" || fail "--keep with a space: $(time_of kept.json) s"
test -s "kept/my run/platform.txt" || fail "--keep with a space: nothing kept"
echo "--keep 'kept/my run': kept, same time"

# Proxy words reach the proxy only: no wildcard expansion (a file would
# match '*' here), no SimGrid option taken from them, no file written.
touch decoy
refused "wildcard" "--app: pingpong: unknown argument '*'" -- -t m22.tgt -m m.perm --app 'pingpong *'
refused "SimGrid's --cfg in --app" "unknown argument '--cfg=network/model:LV08'" -- -t m22.tgt -m m.perm \
  --app 'pingpong --cfg=network/model:LV08'
refused "tracing into a file" "unknown argument '--cfg=tracing:yes'" -- -t m22.tgt -m m.perm \
  --app "pingpong --cfg=tracing:yes --cfg=tracing/filename:$work/trace.out"
test ! -e trace.out || fail "SimGrid wrote a trace named by --app"

# The proxy's --matrix follows the output rules.
cp c.coo c.keep
refused "--matrix over the input" "c.coo: is the input c.coo; refusing to write over it" -- -t m22.tgt -c c.coo \
  --app 'pingpong --matrix c.coo'
cmp -s c.coo c.keep || fail "--matrix overwrote the input"
printf 'keep me\n' > ro.coo
chmod 444 ro.coo
refused "--matrix over a read-only file" "ro.coo: the file is read-only; not replacing it" -- -t m22.tgt \
  -m m.perm --app 'pingpong --matrix ro.coo'
test "$(cat ro.coo)" = "keep me" || fail "--matrix replaced a read-only file"
refused "--matrix in a missing folder" "nowhere/t.coo: cannot write: the folder nowhere does not exist" -- \
  -t m22.tgt -m m.perm --app 'pingpong --matrix nowhere/t.coo'
"$bin/tm-sim" -t m22.tgt -m m.perm --app 'pingpong --bytes 1000 --iterations 2 --matrix sent.coo' > /dev/null
test "$(cat sent.coo)" = "$(printf '4\n0 1 2000\n1 0 2000')" || fail "--matrix wrote: $(cat sent.coo)"
echo "--matrix sent.coo: the traffic sent, written by tm-sim"

refused "-s naming nothing" "-s ',': no strategy named" -- -t m22.tgt -c c.coo -s ',' --app pingpong

# One rank: no message, no time; the ratio is left out rather than 0/0.
printf '1\n' > one.coo
"$bin/tm-sim" -t m22.tgt -c one.coo -s inorder,auto --app pingpong > one.txt
! grep -qi nan one.txt || fail "one rank printed NaN: $(cat one.txt)"
grep -qE '^inorder +0\.000000e\+00 +- ' one.txt || fail "one rank: $(cat one.txt)"
"$bin/tm-sim" -t m22.tgt -c one.coo -s inorder --app pingpong --format json > one.json
python3 -c 'import json; r = json.load(open("one.json"))["runs"][0]; assert r["time_vs_first"] is None, r'
echo "one rank: vs_first '-' (JSON null)"

export TMPDIR="$work/tmp"
mkdir -p "$TMPDIR"

# The time limit keeps how far a run got: exit 3 (a partial result), the
# JSON row "stopped" with app_time_s rank 0's clock (a lower bound: more than
# 0, and within the 1e8 round trips asked) and its unknown figures null,
# the output written whole, the scratch folder removed. Limits of 8 s: under
# a loaded suite smpirun took more than 2 s (session 38) and more than 4 s
# (session 39, beside clang-tidy) to move the application's clock at all
# (then tm-sim says so and exits 4, as designed).
rc=0
"$bin/tm-sim" -t m22.tgt -m m.perm --app 'pingpong --iterations 100000000' --timeout 8 --format json \
  --output limit.json 2> limit.err || rc=$?
test "$rc" -eq 3 || fail "--timeout: exit $rc, expected 3 ($(cat limit.err))"
python3 - limit.json <<'PY' || fail "--timeout: $(cat limit.json)"
import json, sys
j = json.load(open(sys.argv[1]))
r = j["runs"][0]
assert r["stopped"] is True and 0 < r["app_time_s"] < 1e8 * 2 * 1e6 / 12.5e9 * 10, r
assert r["messages"] is None and r["bytes"] is None and r["comm_time_s"] is None, r
assert any("stopped at the time limit (--timeout 8 s)" in n for n in j["notes"]), j["notes"]
PY
test -z "$(ls -A "$TMPDIR")" || fail "--timeout left $(ls "$TMPDIR")"
rc=0
"$bin/tm-sim" -t m22.tgt -m m.perm --app 'pingpong --iterations 100000000' --timeout 8 -v > limit.txt \
  2> progress.txt || rc=$?
test "$rc" -eq 3 || fail "--timeout, text: exit $rc, expected 3"
grep -qE '^m\.perm +>=[0-9.]+e[-+][0-9]+ +- +- +- +- ' limit.txt || fail "--timeout, text: $(cat limit.txt)"
# -v: how far it got as it runs (lines after 1, 3 and 7 s: a slow start
# still leaves one).
grep -qE '^tm-sim: m\.perm: [0-9.e+-]+ s of the application simulated after [0-9]+ s$' progress.txt ||
  fail "-v: $(cat progress.txt)"
rc=0
"$bin/tm-sim" -t m22.tgt -m m.perm --app 'pingpong --iterations 100000000 --matrix half.coo' --timeout 8 \
  > half.txt 2> /dev/null || rc=$?
test "$rc" -eq 3 || fail "--timeout with --matrix: exit $rc, expected 3"
test ! -e half.coo || fail "--timeout: the traffic of half a run was written to --matrix"
grep -q "not written: the run it comes from was stopped" half.txt || fail "--timeout, --matrix: $(cat half.txt)"
echo "--timeout: exit 3, the clock reached kept as a lower bound (no --matrix of half a run)"

# SIGTERM during a simulation: exit 130, smpirun and smpimain gone, no
# scratch folder left, nothing written.
"$bin/tm-sim" -t m22.tgt -m m.perm --app 'pingpong --iterations 100000000' --output never.txt 2> term.err &
sim=$!
for _ in $(seq 100); do
  pgrep -P "$sim" > /dev/null && break
  sleep 0.1
done
smpirun_pid=$(pgrep -P "$sim" | head -1)
test -n "$smpirun_pid" || fail "smpirun did not start"
sleep 1
kill -TERM "$sim"
rc=0
wait "$sim" || rc=$?
test "$rc" -eq 130 || fail "SIGTERM: exit $rc, expected 130 ($(cat term.err))"
# At once, no grace period: tm-sim waits for every process of smpirun's
# group (smpimain ran on for 1-4 s after tm-sim had exited).
left=$(pgrep -g "$smpirun_pid" || true)
test -z "$left" || fail "SIGTERM: tm-sim exited while $(ps -o pid=,comm= -p "${left//$'\n'/,}" | tr '\n' ' ') still ran"
! kill -0 "$smpirun_pid" 2> /dev/null || fail "SIGTERM left smpirun ($smpirun_pid) running"
test -z "$(ls -A "$TMPDIR")" || fail "SIGTERM left $(ls "$TMPDIR")"
test ! -e never.txt || fail "SIGTERM: an output was written"
echo "SIGTERM: exit 130, smpirun stopped, scratch folder removed"
echo "smpi inputs: all checks passed"
