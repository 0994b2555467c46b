#!/usr/bin/env bash
# tm-sim --app replay (the traffic of -c itself under SMPI) against times
# computed by hand, with the model smpi_application_time.sh fixes (a message
# on an idle route of h hops: h L + S / B; both directions of a cable share
# it; SMPI's 16 ns of bookkeeping per message inside the 1e-4 tolerance):
# - two ranks sending each other S bytes, 10 iterations, 3 hops apart:
#   10 (3 L + 2 S / B), every message in flight at once within an iteration;
# - the same bytes from Open MPI monitoring output that recorded 4 and 2
#   messages: an iteration is 4 phases (the most messages of a pair), 0->1
#   sends S/4 in each, 1->0 S/2 in phases 0 and 2. Phases 0 and 2: both
#   flows share the cable until the S/4 one is done, the rest of the S/2
#   then alone: 3 L + 3 S / (4 B); phases 1 and 3: 3 L + S / (4 B); so
#   10 (12 L + 2 S / B) in all, 60 messages sent;
# - the same pair in phases (a .phases file): S from 0 to 1 twice, then S
#   back once, one after another: 3 (3 L + S / B) an iteration, 30 messages
#   in 10 (one round of their sum would share the cable: 3 L + 3 S / B);
# - a proxy whose traffic differs from -c's gets a note naming both totals,
#   the proxy's own traffic none; replay without -c is refused (exit 2).
# Usage: tests/sim/smpi_replay.sh BIN_DIR
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
bin=$(cd "$1" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }
field() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['runs'][0][sys.argv[2]])" "$1" "$2"; }
source "$here/expect_time.sh"
sim() {  # sim OUT COMM APP: ranks 0 and 1 on PEs 0 and 3 of a 4x4 mesh, 1 us a hop, 1 GB/s
  "$bin/tm-sim" -t 'mesh2D 4 4' -m far.perm -c "$2" --app "$3" --sim-latency 1 --sim-link-bw 1 --format json \
    --output "$1"
}
printf '0\n3\n' > far.perm
by_hand=$(python3 -c "print(10 * (3 * 1e-6 + 2 * 1e6 / 1e9))")

printf '2\n0 1 1000000\n1 0 1000000\n' > exchange.coo
sim exchange.json exchange.coo 'replay --iterations 10'
expect "replay, an exchange of 1 MB, 10 iterations" "$(field exchange.json app_time_s)" "$by_hand"
[ "$(field exchange.json messages)" = 20 ] || fail "exchange: $(field exchange.json messages) messages, not 20"
[ "$(field exchange.json bytes)" = 20000000 ] || fail "exchange: $(field exchange.json bytes) bytes, not 2e7"

mkdir mon
printf '# POINT TO POINT\nE\t0\t1\t1000000 bytes\t4 msgs sent\n' > mon/run.0.prof
printf '# POINT TO POINT\nE\t1\t0\t1000000 bytes\t2 msgs sent\n' > mon/run.1.prof
sim recorded.json mon/run 'replay --iterations 10'
expect "replay of monitoring output, 4 + 2 messages in 4 phases" "$(field recorded.json app_time_s)" \
  "$(python3 -c "print(10 * (12 * 1e-6 + 2 * 1e6 / 1e9))")"
[ "$(field recorded.json messages)" = 60 ] || fail "recorded: $(field recorded.json messages) messages, not 60"

# Messages of 0 bytes are sent as recorded (issue 61: 5 + 5 recorded, 0 sent, time 0):
# 5 phases of a 3-hop latency each way at once, and SMPI's 16 ns of bookkeeping
# per message (a send and a receive a phase: with no bytes it is no longer negligible).
mkdir zero
printf '# POINT TO POINT\nE\t0\t1\t0 bytes\t5 msgs sent\n' > zero/run.0.prof
printf '# POINT TO POINT\nE\t1\t0\t0 bytes\t5 msgs sent\n' > zero/run.1.prof
sim zero.json zero/run 'replay --iterations 10'
[ "$(field zero.json messages)" = 100 ] || fail "zero bytes: $(field zero.json messages) messages, not 100"
expect "replay of 0-byte messages, 5 + 5 in 5 phases" "$(field zero.json app_time_s)" \
  "$(python3 -c "print(10 * 5 * (3 * 1e-6 + 2 * 16e-9))")"

printf '2\nphase 2\n0 1 1000000\nphase\n1 0 1000000\n' > phased.phases
sim phased.json phased.phases 'replay --iterations 10'
expect "replay of a traffic in phases, 2 + 1 runs" "$(field phased.json app_time_s)" \
  "$(python3 -c "print(10 * 3 * (3 * 1e-6 + 1e6 / 1e9))")"
[ "$(field phased.json messages)" = 30 ] || fail "phased: $(field phased.json messages) messages, not 30"

# The mappings made for one traffic, the simulation of another: said.
"$bin/tm-gen" bt --ranks 16 --output bt.mat
"$bin/tm-gen" sp --ranks 16 --output sp.mat
"$bin/tm-sim" -t 'mesh2D 4 4' -c bt.mat -s inorder --app sp > other.txt
grep -q "^# note: the proxy sp sent [0-9]* bytes per iteration, -c's matrix holds [0-9]*" other.txt ||
  fail "no note on other traffic: $(cat other.txt)"
sent=$(sed -n "s/.*the proxy sp sent \([0-9]*\) bytes.*/\1/p" other.txt)
held=$(sed -n "s/.*matrix holds \([0-9]*\):.*/\1/p" other.txt)
[ "$sent" -ne "$held" ] || fail "the note's totals are equal"
"$bin/tm-sim" -t 'mesh2D 4 4' -c sp.mat -s inorder --app 'sp --iterations 2' --format json --output own.json
python3 -c "import json,sys; sys.exit('notes' in json.load(open('own.json')))" || fail "a note on the proxy's own traffic"
echo "the proxy/matrix mismatch is noted with both totals ($sent against $held)"

rc=0
"$bin/tm-sim" -t 'mesh2D 4 4' -m far.perm --app replay --output never 2> err.txt || rc=$?
[ "$rc" -eq 2 ] || fail "replay without -c: exit $rc, not 2"
grep -q "app replay runs the traffic of -c" err.txt || fail "$(cat err.txt)"
test ! -e never
echo "replay: OK"
