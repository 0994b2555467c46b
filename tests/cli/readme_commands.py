#!/usr/bin/env python3
"""Runs every command of the README's sh blocks as written, in a scratch
folder beside a build tree, and checks each exits 0.

What a sandbox cannot be is provided, and said here:
- `tools/setup.sh && X`: setup.sh is what built this tree; X runs (a `ctest`
  of the whole suite is the suite running this test, so it is not re-run);
- "inside a Slurm allocation": SLURM_JOB_NODELIST names 64 nodes, as Slurm
  would for that job;
- `./app`: an MPI program that only calls MPI (tests/mpi/topology_reorder.c);
- `mpirun --rankfile FILE ... ./app` starts processes on the allocation's
  hosts, which this machine is not: instead the rankfile is checked to
  place every rank on a host of the allocation.
Usage: readme_commands.py README BUILD_DIR SOURCE_DIR APP
"""
import os
import re
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # nothing written into the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from doc_commands import run_or_fail, sh_blocks  # noqa: E402

readme, build, source, app = sys.argv[1:5]
blocks = sh_blocks(readme)
commands = []
for block in blocks:
    joined = re.sub(r"\\\n\s*", " ", block)
    for line in joined.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        commands.append(re.sub(r"\s+#\s.*$", "", line))

work = tempfile.mkdtemp(prefix="tmap-readme-")
os.symlink(build, os.path.join(work, "build"))
for name in ("tools", "examples", "arch"):
    os.symlink(os.path.join(source, name), os.path.join(work, name))
os.symlink(app, os.path.join(work, "app"))
env = dict(os.environ)
env.update({"SLURM_JOB_NODELIST": "cn[0012-0075]", "OMPI_ALLOW_RUN_AS_ROOT": "1",
            "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1", "OMPI_MCA_rmaps_base_oversubscribe": "1"})

ran = 0
for command in commands:
    if command.startswith("tools/setup.sh && "):
        command = command[len("tools/setup.sh && "):]
        if command.startswith("ctest"):
            print(f"skipped (the suite running this test): {command}")
            continue
    rankfile = re.match(r"mpirun --rankfile (\S+) -np (\d+) \./app$", command)
    if rankfile:
        path, ranks = os.path.join(work, rankfile.group(1)), int(rankfile.group(2))
        lines = [l for l in open(path, encoding="utf-8").read().splitlines() if l.startswith("rank ")]
        hosts = {re.match(r"rank \d+=(\S+) slot=", l).group(1) for l in lines}
        allowed = {f"cn{k:04d}" for k in range(12, 76)}
        assert len(lines) == ranks, f"{path}: {len(lines)} ranks, expected {ranks}"
        assert hosts <= allowed, f"{path}: hosts outside the allocation: {sorted(hosts - allowed)[:5]}"
        print(f"checked instead of run (the allocation's hosts): {command}")
        ran += 1
        continue
    run_or_fail(["bash", "-c", command], command, work, env, 600)
    ran += 1
subprocess.run(["rm", "-rf", work])
print(f"README: {ran} commands ran as written")
