#!/usr/bin/env bash
# Ctrl-C (SIGINT) and SIGTERM stop a long run at its next step: the best
# mapping so far is written whole, the JSON says "partial": true, stderr
# says so, and the exit code is 3 (a script can tell it from a finished
# run, exit 0). The same for --compare: the table holds what ran.
# Usage: tests/cli/interrupt.sh BIN_DIR
set -euo pipefail
bin=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
"$bin/tm-gen" stencil2d --dims 32x32 --shuffle 1 --output job.mat
machine="tleaf 3 16 100 8 10 8 1"
# A tabu search of a billion moves runs until the signal stops it: the
# whole run takes about a second without it, so a signal 1 s after the
# mapping started could find the process gone (CI, stop 80).
long=(--refine-iters 1000000000)
# Signals once the mapping is under way (-vv prints each stage as it
# starts; reading the input takes longer under the sanitizers or a load).
signal_when_mapping() {  # signal_when_mapping SIGNAL PID
  for _ in $(seq 600); do
    grep -q ": started" err.txt 2> /dev/null && break
    sleep 0.1
  done
  grep -q ": started" err.txt || { echo "the run never started mapping" >&2; cat err.txt >&2; exit 1; }
  sleep 1
  kill -s "$1" "$2"
}

for signal in INT TERM; do
  rm -f err.txt
  "$bin/tm-map" -t "$machine" -c job.mat -s best --refine tabu "${long[@]}" -vv --format json --output out.json 2> err.txt &
  pid=$!
  signal_when_mapping "$signal" "$pid"
  rc=0
  wait "$pid" || rc=$?
  test "$rc" -eq 3 || { echo "SIG$signal: exit $rc, expected 3" >&2; cat err.txt >&2; exit 1; }
  grep -q "partial, exit code 3" err.txt
  grep -q '"partial": true' out.json
  python3 -c "import json; m = json.load(open('out.json'))['mapping']; assert len(m) == 1024 == len(set(m))"
  rm -f out.json
done

rm -f err.txt
"$bin/tm-map" -t "$machine" -c job.mat --compare inorder,best:tabu,scotch "${long[@]}" -vv --format json --output cmp.json \
  2> err.txt &
pid=$!
signal_when_mapping INT "$pid"
rc=0
wait "$pid" || rc=$?
test "$rc" -eq 3 || { echo "--compare: exit $rc, expected 3" >&2; cat err.txt >&2; exit 1; }
grep -q '"partial": true' cmp.json
echo "interrupt: exit 3 with a whole, valid partial result (SIGINT, SIGTERM, --compare)"
