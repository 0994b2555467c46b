#!/usr/bin/env bash
# Open MPI's monitoring output read as a matrix (-c PREFIX): a program with
# a known point-to-point pattern runs under mpirun with monitoring on; the
# E lines must equal what it sent (bytes and message counts), E+I (the
# default) must add its collective's traffic, and the prefix, a rank file
# and the folder name the same run.
# Usage: tests/mpi/monitoring.sh BIN_DIR PROGRAM RANKS
set -euo pipefail
bin=$1
program=$2
ranks=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpirun --oversubscribe -np "$ranks" --mca pml_monitoring_enable 2 --mca pml_monitoring_enable_output 3 \
  --mca pml_monitoring_filename "$work/run" "$program" "$work/bytes.txt" "$work/messages.txt"
test "$(ls "$work"/run.*.prof | wc -l)" -eq "$ranks"

# Only the diagonal-free, sorted "i j value" lines of a .coo (its first line is n).
entries() { tail -n +2 "$1" | sort; }
"$bin/tm-gen" convert --from "$work/run" --monitoring-kinds E --output "$work/e.coo"
diff <(sort "$work/bytes.txt") <(entries "$work/e.coo")
"$bin/tm-gen" convert --from "$work/run" --monitoring-kinds E --monitoring-count messages --output "$work/m.coo"
diff <(sort "$work/messages.txt") <(entries "$work/m.coo")
test "$(head -1 "$work/e.coo")" = "$ranks"

# E+I: every E entry is there, at least as large, and the allreduce adds bytes.
"$bin/tm-gen" convert --from "$work/run" --output "$work/ei.coo"
e_total=$(awk 'NR > 1 { s += $3 } END { print s }' "$work/e.coo")
ei_total=$(awk 'NR > 1 { s += $3 } END { print s }' "$work/ei.coo")
test "$ei_total" -gt "$e_total"

# The same run named three ways maps the same.
a=$("$bin/tm-map" -t "tleaf 2 4 10 4 1" -c "$work/run" -s scotch -q)
b=$("$bin/tm-map" -t "tleaf 2 4 10 4 1" -c "$work/run.1.prof" -s scotch -q)
c=$("$bin/tm-map" -t "tleaf 2 4 10 4 1" -c "$work" -s scotch -q)
test "$a" = "$b"
test "$a" = "$c"

# A missing rank file is named, exit 2, nothing written.
refused() {  # refused MESSAGE: tm-map on the run exits 2 naming it, nothing written
  set +e
  "$bin/tm-map" -t "tleaf 2 4 10 4 1" -c "$work/run" --output "$work/never" 2> "$work/err"
  local code=$?
  set -e
  test "$code" -eq 2 || { echo "exit $code, expected 2" >&2; cat "$work/err" >&2; exit 1; }
  grep -q -- "$1" "$work/err" || { echo "expected '$1':" >&2; cat "$work/err" >&2; exit 1; }
  test ! -e "$work/never"
}
# A rank file beyond the run's world size (another run's) is named.
cp "$work/run.0.prof" "$work/run.$ranks.prof"
refused "run.$ranks.prof: rank $ranks is beyond this run's $ranks processes"
rm "$work/run.$ranks.prof"
# An empty rank file (the process died before writing) is not a row of zeros.
cp "$work/run.1.prof" "$work/keep.prof"
: > "$work/run.1.prof"
refused "run.1.prof: is empty"
mv "$work/keep.prof" "$work/run.1.prof"

rm "$work/run.1.prof"
set +e
"$bin/tm-map" -t "tleaf 2 4 10 4 1" -c "$work/run" --output "$work/never" 2> "$work/err"
code=$?
set -e
test "$code" -eq 2
grep -q "run.1.prof: missing" "$work/err"
test ! -e "$work/never"
echo "monitoring: OK ($ranks ranks, $(wc -l < "$work/bytes.txt") pairs)"
