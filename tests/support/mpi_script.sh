# What the MPI test scripts share (sourced): a scratch folder removed at
# exit, mpirun allowed as root (CI runs as root), and fail MESSAGE.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fail() {
  echo "FAIL: $*" >&2
  exit 1
}
