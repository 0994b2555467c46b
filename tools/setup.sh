#!/usr/bin/env bash
# Installs what is missing (Debian packages only), then configures and builds
# tmap in build/ (Release). Safe to run again: it only installs what is absent.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(g++ cmake make pkg-config libscotch-dev scotch libhwloc-dev hwloc libgtest-dev libgmock-dev
          libbenchmark-dev libcli11-dev nlohmann-json3-dev libfmt-dev libxml2-dev libopenmpi-dev openmpi-bin
          mpich libmpich-dev clang-format help2man python3-matplotlib libsimgrid-dev libptscotch-dev gfortran
          python3-mpi4py lammps libslurm-dev slurmctld slurmd slurm-client munge libyaml-cpp-dev
          pybind11-dev python3-dev python3-numpy python3-scipy python3-networkx python3-pytest)
# MPICH for its Hydra launcher only (launcher tests; Open MPI stays the default MPI), clang-format for the CI
# format check, help2man for man pages, matplotlib for tm-report, SimGrid for --simulate, PT-Scotch for tm-pmap,
# gfortran and mpi4py for the Fortran and Python MPI test programs, libmpich-dev for the MPICH build of the
# preload library, LAMMPS for the record -> map -> enforce test on a real application, libslurm-dev for the CPUs a
# Slurm job holds, Slurm's daemons, client and munge for the test suite's own Slurm cluster, yaml-cpp for Slurm's
# topology.yaml.
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  echo "setup: installing ${missing[*]}" >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

cmake -S . -B build -DCMAKE_BUILD_TYPE=Release ${TMAP_CMAKE_ARGS:-} >/dev/null
cmake --build build -j"$(nproc)"
