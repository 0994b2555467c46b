#!/bin/sh
# An ssh stand-in for mpirun (--mca plm_rsh_agent): every host is this
# machine. The daemon Open MPI starts "on" a host runs here, with
# TMAP_LAUNCH_HOST naming the host it stands for, so a test can launch on
# a cluster's host names and see which host each rank was sent to. Only
# for tests: it runs what it is given.
while [ $# -gt 0 ]; do
  case $1 in
    -o | -l | -p) shift 2 ;;
    -*) shift ;;
    *) break ;;
  esac
done
host=$1
shift
TMAP_LAUNCH_HOST=$host exec sh -c "$*"
