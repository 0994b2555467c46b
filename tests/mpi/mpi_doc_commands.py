#!/usr/bin/env python3
"""Runs every sh block of docs/mpi.md as a user copies it, each block as one
bash script (so a block's variables carry from line to line), in a scratch
folder beside a build tree; each must exit 0.

What a sandbox cannot be is provided, and said here:
- the installed tools and library: build/bin on PATH, PREFIX the build tree;
- the user's files: tianhe3.tgt (tm-topo's 2 x 2 rows and columns of 8 nodes
  of 4 cores), machine.tgt, comm.mat and graph.grf (a tleaf and a stencil);
  /tmp/run/ is a folder of the sandbox;
- "inside a Slurm allocation": SLURM_JOB_NODELIST names 16 of the machine's
  nodes, 4 CPUs each, as Slurm would for that job;
- `./app`: an MPI program that only calls MPI (tests/mpi/topology_reorder.c),
  built for the MPI of the launcher (Open MPI for mpirun, MPICH for
  mpiexec.mpich and mpiexec.hydra);
- launching on the allocation's hosts, which this machine is not (mpirun
  --rankfile, mpiexec.hydra -f, srun with SLURM_HOSTFILE): instead the file
  is checked to place every rank on a host of the allocation
  (slurm_cluster_places_every_task runs srun with tm-bind for real, and
  tm_bind_keeps_the_placement_under_mpirun_and_hydra tm-bind under both
  launchers).
Usage: mpi_doc_commands.py DOC BUILD_DIR SOURCE_DIR APP APP_MPICH
"""
import os
import re
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # nothing written into the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from doc_commands import run_or_fail, sh_blocks  # noqa: E402

if sys.argv[1] == "--check":
    kind, path, ranks = sys.argv[2], sys.argv[3], int(sys.argv[4])
    entry = {"rankfile": r"rank \d+=(\S+) slot=", "machinefile": r"([^:\s]+):(\d+)$", "hostfile": r"(\S+)$"}[kind]
    count, hosts = 0, set()
    for line in open(path, encoding="utf-8").read().splitlines():
        m = re.match(entry, line)
        if m and not line.startswith("#"):
            hosts.add(m.group(1))
            count += int(m.group(2)) if kind == "machinefile" else 1
    allocation = {f"cn{k}" for k in range(16)}
    assert count == ranks, f"{path}: {count} ranks, expected {ranks}"
    assert hosts <= allocation, f"{path}: hosts outside the allocation: {sorted(hosts - allocation)[:5]}"
    sys.exit(0)

doc, build, source, app, app_mpich = (os.path.abspath(a) for a in sys.argv[1:6])
blocks = sh_blocks(doc)
work = tempfile.mkdtemp(prefix="tmap-mpi-doc-")
bin_dir = os.path.join(build, "bin")
os.symlink(build, os.path.join(work, "build"))
os.symlink(app, os.path.join(work, "app"))
os.symlink(app_mpich, os.path.join(work, "app-mpich"))
os.makedirs(os.path.join(work, "run"))
env = dict(os.environ)
env.update({"PATH": bin_dir + os.pathsep + env["PATH"], "PREFIX": build, "SLURM_JOB_NODELIST": "cn[0-15]",
            "SLURM_JOB_CPUS_PER_NODE": "4(x16)", "OMPI_ALLOW_RUN_AS_ROOT": "1",
            "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1", "OMPI_MCA_rmaps_base_oversubscribe": "1"})


def setup(command):
    subprocess.run(command, shell=True, cwd=work, env=env, check=True, capture_output=True)


setup("tm-topo tianhe3 --rows 2 --cols 2 --nodes 8 --cores 4 --tgt tianhe3.tgt")
setup("cp tianhe3.tgt machine.tgt; tm-gen stencil2d --dims 4x4 --output comm.mat; "
      "tm-gen convert --from comm.mat --output graph.grf")

# A launch on the allocation's hosts, checked instead of run: the file places
# RANKS ranks on its hosts (this script again, with --check, where the
# command stood in the block).
CHECKS = [
    (re.compile(r"^mpirun --rankfile (\S+) -np (\d+) \./app$"), "rankfile"),
    (re.compile(r"^mpiexec\.hydra -f (\S+) -n (\d+) .*$"), "machinefile"),
    (re.compile(r"^SLURM_HOSTFILE=(\S+) srun .* -n (\d+) .*$"), "hostfile"),
]


def checker(line):
    for pattern, kind in CHECKS:
        m = pattern.match(line)
        if m:
            print(f"# checked instead of run (the allocation's hosts): {line}")
            return f"/usr/bin/python3 {os.path.abspath(__file__)} --check {kind} {m.group(1)} {m.group(2)}"
    return None


ran = 0
ran = 0
for block in blocks:
    script = []
    for line in re.sub(r"\\\n\s*", " ", block).splitlines():
        stripped = re.sub(r"\s+#\s.*$", "", line.strip())
        check = checker(stripped) if stripped else None
        if check:
            script.append(check)
            continue
        # ./app is built for the launcher's MPI; /tmp/run/ is the sandbox's.
        if stripped.startswith(("mpiexec.mpich", "mpiexec.hydra")):
            line = line.replace("./app", "./app-mpich")
        script.append(line.replace("/tmp/run/", f"{work}/run/"))
    run_or_fail(["bash", "-e", "-o", "pipefail", "-c", "\n".join(script)], "\n" + block, work, env, 900)
    ran += 1
subprocess.run(["rm", "-rf", work])
print(f"docs/mpi.md: {ran} blocks ran as written")
