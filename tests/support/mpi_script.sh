# What the MPI test scripts share (sourced): a scratch folder removed at
# exit, mpirun allowed as root (CI runs as root), fail MESSAGE, refused
# MESSAGE COMMAND, and python_with_mpi4py.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fail() {
  echo "FAIL: $*" >&2
  exit 1
}
# Sets `python` to a python3 with mpi4py (Debian's python3-mpi4py, which
# tools/setup.sh installs): every language is part of the checks.
python_with_mpi4py() {
  python=""
  for candidate in /usr/bin/python3 python3; do
    if "$candidate" -c "import mpi4py" 2> /dev/null; then python=$candidate; return; fi
  done
  fail "no python3 with mpi4py (Debian's python3-mpi4py: tools/setup.sh installs it)"
}
# refused MESSAGE COMMAND...: exit 2, the message, the program not run.
refused() {
  local message=$1 code=0
  shift
  "$@" > "$work/out" 2> "$work/err" || code=$?
  [ "$code" -eq 2 ] || fail "exit $code, expected 2: $*: $(cat "$work/err")"
  grep -qF -- "$message" "$work/err" || fail "expected '$message': $(cat "$work/err")"
  [ ! -s "$work/out" ] || fail "the program ran: $(cat "$work/out")"
}
