#!/usr/bin/env bash
# The docs' worked example (examples/python/record_map_launch.py) as a user
# runs it: record the job's traffic with mpi4py under mpirun, map it with
# the Python module on this host, write a rankfile; launch again with it.
# Checked: the mapped hop-bytes are below the launch order's, and every rank
# of the second launch is bound to the core the rankfile names.
# Usage: tests/python/mpi4py_example.sh SOURCE_DIR PYTHON_DIR PYTHON
set -euo pipefail
example=$1/examples/python/record_map_launch.py
export PYTHONPATH=$2
python=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fail() { echo "FAIL: $*" >&2; exit 1; }

mpirun --oversubscribe -np 8 -x PYTHONPATH "$python" "$example" record job.rankfile > record.txt ||
  fail "record: $(cat record.txt)"
cat record.txt
before=$(sed -n 's/.*launch order \([0-9]*\), mapped.*/\1/p' record.txt)
after=$(sed -n 's/.*, mapped \([0-9]*\);.*/\1/p' record.txt)
[ -n "$before" ] && [ -n "$after" ] && [ "$after" -lt "$before" ] || fail "hop-bytes $after not below $before"
[ "$(grep -c '^rank [0-7]=' job.rankfile)" -eq 8 ] || fail "rankfile: $(cat job.rankfile)"

mpirun --oversubscribe -np 8 --rankfile job.rankfile --report-bindings -x PYTHONPATH "$python" "$example" run \
  2> bindings.txt || fail "the mapped launch failed: $(cat bindings.txt)"
for rank in $(seq 0 7); do
  slot=$(sed -n "s/^rank $rank=.* slot=\([0-9]*\)$/\1/p" job.rankfile)
  grep -q "MCW rank $rank bound to socket 0\[core $slot\[" bindings.txt ||
    fail "rank $rank not on core $slot: $(grep "MCW rank $rank " bindings.txt)"
done
echo "mpi4py example: recorded, mapped ($before -> $after hop-bytes), launched on the rankfile's cores"
