#!/usr/bin/env bash
# The Debian package as a user gets it: `cpack -G DEB` in the build folder,
# `apt-get install ./tmap_*.deb`, then, from an empty folder with a bare
# environment (no build tree on any path), the README's main job, the man
# page, pkg-config (a C program compiled and run against the installed
# library), `import tmap` in Debian's python3, and a Cartesian MPI program
# reordered by Open MPI's topo component with `--mca topo tmap,basic` and
# no component path. CI runs it after the suite (it installs into the
# system); a developer can run it the same way on a scratch machine.
# Usage: tests/package/deb_install.sh [BUILD_DIR]
set -euo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$src/build}" && pwd)
fail() { echo "FAIL: $*" >&2; exit 1; }
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi

# cpack's DEB generator computes the library dependencies with dpkg-shlibdeps.
if ! command -v dpkg-shlibdeps > /dev/null; then
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends dpkg-dev > /dev/null
fi
rm -f "$build"/tmap_*.deb
(cd "$build" && cpack -G DEB > /dev/null)
deb=$(ls "$build"/tmap_*.deb)
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "$deb" man-db > /dev/null
echo "installed $(basename "$deb")"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$src/tests/mpi/topology_reorder.c" "$work/"
cd "$work"
bare() { env -i PATH=/usr/bin:/bin HOME="$work" OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 "$@"; }

# The README's main job.
bare tm-map --example > example.out 2> example.err || fail "tm-map --example: $(cat example.err)"
[ "$(wc -l < example.out)" -eq 64 ] || fail "tm-map --example wrote $(wc -l < example.out) lines"
grep -q "hop_bytes 144000" example.err || fail "tm-map --example: $(cat example.err)"
[ "$(command -v tm-map)" = /usr/bin/tm-map ] || fail "tm-map is $(command -v tm-map)"
# The man page.
bare man -P cat tm-map 2> /dev/null | grep -q -- "--objective" || fail "man tm-map"
# pkg-config: a C program against the installed library.
cat > version.c <<'C'
#include <stdio.h>
#include <tmap/tmap.h>
int main(void) { printf("%s\n", tmap_version()); return 0; }
C
bare sh -c 'cc version.c $(pkg-config --cflags tmap) $(pkg-config --libs tmap) -o version' ||
  fail "pkg-config --libs tmap: $(bare pkg-config --libs tmap)"
[ "$(bare ./version)" = "$(bare tm-map --version | awk '{print $2}')" ] || fail "the installed library's version"
# Python.
bare python3 -c 'import tmap; r = tmap.map([[0, 5], [5, 0]], "mesh2D 2 1"); assert r.mapping == [0, 1], r' ||
  fail "python3 -c 'import tmap'"
# Open MPI finds the component by itself.
bare mpicc topology_reorder.c -o topology_reorder
bare mpirun --oversubscribe -np 8 --mca topo tmap,basic -x TMAP_TOPOLOGY="tleaf 2 2 10 4 1" -x TMAP_VERBOSE=1 \
  ./topology_reorder cart graph.coo placement.txt > mpi.out 2> mpi.err || fail "mpirun: $(cat mpi.out mpi.err)"
grep -q "tmap-mpi: MPI_Cart_create" mpi.err || fail "no reordering by the installed component: $(cat mpi.err)"
bare ompi_info | grep -q "MCA topo: tmap" || fail "ompi_info does not list topo tmap"
echo "deb: tm-map, man, pkg-config, python3 and Open MPI's topo tmap work from /usr"
