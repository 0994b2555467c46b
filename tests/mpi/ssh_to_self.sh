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
# Several daemons on one real host would share Open MPI's session folder
# (/tmp/ompi.<host>.<uid>/jf.<job>) and race to create it ("File exists"):
# each stand-in host gets a folder of its own under the test's.
if [ -n "$TMAP_LAUNCH_TMPDIR" ]; then
  mkdir -p "$TMAP_LAUNCH_TMPDIR/$host" && export OMPI_MCA_orte_tmpdir_base="$TMAP_LAUNCH_TMPDIR/$host"
fi
TMAP_LAUNCH_HOST=$host exec sh -c "$*"
