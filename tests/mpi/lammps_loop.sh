#!/usr/bin/env bash
# A real application through the record -> map -> enforce loop: LAMMPS
# (Debian's lmp, Open MPI) runs the project's LJ melt (examples/lammps/in.melt)
# on 12 ranks with Open MPI's monitoring on; tm-map maps the recorded traffic
# onto this host's two cores, six ranks each (-o 6: what a 2-core machine
# can hold), as a rankfile; LAMMPS runs again under mpirun --rankfile. Checked: the rankfile
# binds every rank where tm-map put it, hop-bytes of the recorded traffic
# drop below in-order's, and the mapped run's thermo table equals the
# unmapped run's line for line (a placement never changes the physics).
# Usage: tests/mpi/lammps_loop.sh BIN_DIR INPUT
set -euo pipefail
bin=$(realpath "$1")
input=$(realpath "$2")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fail() { echo "FAIL: $*" >&2; exit 1; }
machine="tleaf 1 2 1"
cd "$work"
# The thermo table: from the "Step" header to "Loop time".
thermo() { sed -n '/^ *Step /,/^Loop time/p' "$1" | grep -v '^Loop time'; }

# 1. Record.
mpirun --oversubscribe -np 12 --mca pml_monitoring_enable 2 --mca pml_monitoring_enable_output 3 \
  --mca pml_monitoring_filename "$work/run" lmp -in "$input" -log plain.log -screen none
[ "$(ls run.*.prof | wc -l)" -eq 12 ] || fail "monitoring wrote $(ls run.*.prof | wc -l) files, not 12"
[ "$(thermo plain.log | wc -l)" -eq 7 ] || fail "no thermo table in the plain run: $(cat plain.log)"

# 2. Map: this host's two cores, six ranks each.
hostname > hosts.txt
"$bin/tm-map" -t "$machine" -o 6 -c run --hosts hosts.txt --format rankfile --output lammps.rankfile -q
"$bin/tm-map" -t "$machine" -o 6 -c run --output lammps.perm -q
"$bin/tm-map" -t "$machine" -o 6 -c run -s inorder --output inorder.perm -q
hop_bytes() { "$bin/tm-eval" -t "$machine" -o 6 -c run -m "$1" 2>&1 | sed -n 's/.*hop_bytes \([0-9]*\).*/\1/p'; }
before=$(hop_bytes inorder.perm)
after=$(hop_bytes lammps.perm)
echo "LAMMPS in.melt, 12 ranks on '$machine': hop_bytes in-order $before, tmap $after"
[ "$after" -lt "$before" ] || fail "hop-bytes $after not below in-order's $before"

# 3. Enforce: every rank bound to the core the rankfile names.
mpirun --oversubscribe -np 12 --rankfile lammps.rankfile --report-bindings lmp -in "$input" -log mapped.log \
  -screen none 2> bindings.txt || fail "the mapped run failed: $(cat bindings.txt)"
for rank in $(seq 0 11); do
  slot=$(sed -n "s/^rank $rank=.* slot=\([0-9]*\)$/\1/p" lammps.rankfile)
  grep -q "MCW rank $rank bound to socket 0\[core $slot\[" bindings.txt ||
    fail "rank $rank not on core $slot: $(grep "MCW rank $rank " bindings.txt)"
done
diff <(thermo plain.log) <(thermo mapped.log) || fail "the mapped run's thermo table differs"

# 4. How much faster would it run on a cluster: the recorded traffic itself
# replayed under SMPI (tm-sim --app replay) on six nodes of two cores, in
# order and as the default maps it. Each run sends exactly what monitoring
# recorded: its bytes and its message count.
if [ -x "$bin/tm-sim" ]; then
  cluster=(-t 'fattree:2;3,2;1,1;1,1' --node core:2)
  "$bin/tm-sim" "${cluster[@]}" -c run -s inorder,auto --app replay --format json --output replay.json
  recorded=$("$bin/tm-eval" "${cluster[@]}" -c run -m <(seq 0 11) 2>&1 | sed -n 's/.*total_bytes \([0-9]*\).*/\1/p')
  messages=$(cat run.*.prof | awk '$1 == "E" || $1 == "I" { n += $6 } END { print n }')
  python3 - replay.json "$recorded" "$messages" <<'PY' || fail "the replay did not send what was recorded"
import json, sys
runs = json.load(open(sys.argv[1]))["runs"]
bytes_, messages = int(sys.argv[2]), int(sys.argv[3])
for r in runs:
    assert r["bytes"] == bytes_ and r["messages"] == messages and r["app_time_s"] > 0, (r, bytes_, messages)
    print(f"replay of the recorded LAMMPS traffic, {r['mapping']}: {r['app_time_s']:.6e} s, "
          f"{r['messages']} messages, {r['bytes']} bytes")
PY
fi
echo "lammps loop: OK (thermo identical over $(thermo mapped.log | wc -l) lines)"
