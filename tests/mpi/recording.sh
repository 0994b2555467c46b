#!/usr/bin/env bash
# libtmap-mpi's recorder (TMAP_RECORD=PREFIX) under real launchers: a
# program with a known traffic pattern (monitored_traffic.c, its Fortran
# and mpi4py twins) writes PREFIX.<rank>.prof at MPI_Finalize, and tmap
# reads them as it reads Open MPI's monitoring:
# - MPICH (mpiexec.mpich, the MPICH build of the library): the C program's
#   point-to-point matrix equals what it sent, bytes and message counts;
#   the Fortran program (`use mpi`) too; tm-map maps the recording;
# - Open MPI: the same C program recorded by Open MPI's monitoring and by
#   TMAP_RECORD gives the same point-to-point (E) and collective (C)
#   matrices, bytes and messages; the mpi4py twin is recorded alike;
# - many_calls.c (every send mode on a split communicator, collectives,
#   one-sided, a neighbourhood collective, persistent sends): its E lines
#   (p2p) and C lines (coll) equal Open MPI's monitoring's, bytes and
#   messages; what monitoring cannot count (persistent sends) or counts
#   through another layer (one-sided over osc pt2pt) equals the matrices
#   the program computes by hand, under both MPIs;
# - the program's own results are the same with and without recording;
#   a prefix that cannot be written is said, the program still succeeds.
# Usage: recording.sh BIN_DIR OMPI_LIBRARY OMPI_PROGRAM OMPI_MANY_CALLS PY_PROGRAM
#                     [MPICH_LIBRARY MPICH_PROGRAM MPICH_MANY_CALLS [MPICH_FORTRAN_PROGRAM]]
set -euo pipefail
bin=$1
ompi_library=$2
ompi_program=$3
ompi_many_calls=$4
py_program=$5
mpich_library=${6:-}
mpich_program=${7:-}
mpich_many_calls=${8:-}
mpich_fortran=${9:-}
# shellcheck source=../support/mpi_script.sh
source "$(dirname "$0")/../support/mpi_script.sh"
python_with_mpi4py
# matrix PREFIX KINDS [messages]: the recorded matrix's "i j value" lines, sorted.
matrix() {
  "$bin/tm-gen" convert --from "$1" --monitoring-kinds "$2" --monitoring-count "${3:-bytes}" \
    --output "$work/matrix.coo"
  tail -n +2 "$work/matrix.coo" | sort
}
same() {  # same WHAT FILE_A FILE_B
  diff "$2" "$3" > /dev/null || {
    diff "$2" "$3" >&2 || true
    fail "$1"
  }
}
ompi() { timeout 300 mpirun --oversubscribe -np "$ranks" "$@"; }
mpich() { timeout 300 mpiexec.mpich -n "$ranks" "$@"; }
ranks=6

# Open MPI: monitoring and the recorder on the same program.
ompi --mca pml_monitoring_enable 2 --mca pml_monitoring_enable_output 3 \
  --mca pml_monitoring_filename "$work/monitored" "$ompi_program" "$work/bytes.txt" "$work/messages.txt"
ompi -x LD_PRELOAD="$ompi_library" -x TMAP_RECORD="$work/recorded" "$ompi_program" "$work/bytes2.txt" \
  "$work/messages2.txt"
test "$(ls "$work"/recorded.*.prof | wc -l)" -eq "$ranks" || fail "Open MPI: not one file a rank"
same "recording changed the program's results" "$work/bytes.txt" "$work/bytes2.txt"
sort "$work/bytes.txt" > "$work/expected_bytes"
sort "$work/messages.txt" > "$work/expected_messages"
for count in bytes messages; do
  for kinds in E C; do
    matrix "$work/monitored" "$kinds" "$count" > "$work/monitoring_$kinds"
    matrix "$work/recorded" "$kinds" "$count" > "$work/recorder_$kinds"
    same "Open MPI: monitoring's and the recorder's $kinds $count differ" "$work/monitoring_$kinds" \
      "$work/recorder_$kinds"
  done
  matrix "$work/recorded" E "$count" > "$work/e"
  same "Open MPI: recorded E $count is not what the program sent" "$work/expected_$count" "$work/e"
done
matrix "$work/recorded" C > "$work/recorded_c"
test -s "$work/recorded_c" || fail "the allreduce was not recorded"
# The default reading of a recording is E and C: every E entry plus the collective's.
matrix "$work/recorded" EC > "$work/ec"
"$bin/tm-gen" convert --from "$work/recorded" --output "$work/default.coo"
same "a recording's default reading is not E,C" "$work/ec" <(tail -n +2 "$work/default.coo" | sort)

# Every kind of call: p2p and coll against monitoring, the rest by hand.
# Open MPI's shared-memory one-sided component cannot map its segment in
# some containers: pt2pt carries the windows.
export OMPI_MCA_osc=pt2pt
for mode in p2p coll; do
  kind=E
  [ "$mode" = p2p ] || kind=C
  rm -f "$work"/calls_*
  ompi --mca pml_monitoring_enable 2 --mca pml_monitoring_enable_output 3 \
    --mca pml_monitoring_filename "$work/calls_monitored" "$ompi_many_calls" "$mode"
  ompi -x LD_PRELOAD="$ompi_library" -x TMAP_RECORD="$work/calls_recorded" "$ompi_many_calls" "$mode"
  for count in bytes messages; do
    matrix "$work/calls_monitored" "$kind" "$count" > "$work/monitoring_calls"
    matrix "$work/calls_recorded" "$kind" "$count" > "$work/recorder_calls"
    test -s "$work/recorder_calls" || fail "$mode: nothing recorded"
    same "$mode: monitoring's and the recorder's $kind $count differ" "$work/monitoring_calls" "$work/recorder_calls"
  done
done
# by_hand LAUNCHER LIBRARY_VARIABLE... PROGRAM: the recording equals what the program computed.
by_hand() {
  rm -f "$work"/hand*
  "$@" hand "$work/hand_E" "$work/hand_S" "$work/hand_R" "$work/hand_C"
  for kind in E S R C; do
    matrix "$work/hand" "$kind" > "$work/recorded_hand"
    same "persistent, one-sided and neighbourhood traffic: $kind is not the program's" \
      <(sort "$work/hand_$kind") "$work/recorded_hand"
  done
}
by_hand ompi -x LD_PRELOAD="$ompi_library" -x TMAP_RECORD="$work/hand" "$ompi_many_calls"

# mpi4py under Open MPI.
ompi -x LD_PRELOAD="$ompi_library" -x TMAP_RECORD="$work/python" "$python" "$py_program"
matrix "$work/python" E > "$work/e"
same "mpi4py: recorded E is not what the program sent" "$work/expected_bytes" "$work/e"
matrix "$work/python" C > "$work/c"
same "mpi4py: recorded C differs from the C program's" "$work/recorded_c" "$work/c"

# A prefix in a folder that does not exist: said, nothing recorded, the program succeeds.
ompi -x LD_PRELOAD="$ompi_library" -x TMAP_RECORD="$work/missing/run" "$ompi_program" 2> "$work/err"
grep -q "TMAP_RECORD=$work/missing/run: .*missing/run.0.prof: .*nothing is recorded" "$work/err" || {
  cat "$work/err" >&2
  fail "an unwritable prefix is not said"
}
test ! -e "$work/missing" || fail "the folder was made"

[ -n "$mpich_program" ] || exit 0
# MPICH: the C program and its Fortran twin under Hydra.
mpich -genv LD_PRELOAD "$mpich_library" -genv TMAP_RECORD "$work/mpich" "$mpich_program" "$work/bytes3.txt" \
  "$work/messages3.txt"
same "MPICH: the program's traffic is not the Open MPI run's" "$work/bytes.txt" "$work/bytes3.txt"
for count in bytes messages; do
  matrix "$work/mpich" E "$count" > "$work/e"
  same "MPICH: recorded E $count is not what the program sent" "$work/expected_$count" "$work/e"
done
matrix "$work/mpich" C > "$work/c"
same "MPICH: recorded C differs from Open MPI's" "$work/recorded_c" "$work/c"
"$bin/tm-map" -t "tleaf 2 3 10 4 1" -c "$work/mpich" -q > "$work/mapping"
test "$(wc -l < "$work/mapping")" -eq "$ranks" || fail "tm-map did not map the recording"
by_hand mpich -genv LD_PRELOAD "$mpich_library" -genv TMAP_RECORD "$work/hand" "$mpich_many_calls"
if [ -n "$mpich_fortran" ]; then
  mpich -genv LD_PRELOAD "$mpich_library" -genv TMAP_RECORD "$work/fortran" "$mpich_fortran"
  for count in bytes messages; do
    matrix "$work/fortran" E "$count" > "$work/e"
    same "MPICH Fortran: recorded E $count is not what the program sent" "$work/expected_$count" "$work/e"
  done
  matrix "$work/fortran" C > "$work/c"
  same "MPICH Fortran: recorded C differs" "$work/recorded_c" "$work/c"
fi
echo "recorded: Open MPI (C = monitoring, mpi4py), MPICH (C${mpich_fortran:+, Fortran})"
