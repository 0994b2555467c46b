#!/usr/bin/env python3
"""The recorder's overhead (TMAP_RECORD): a halo exchange timed without the
library, with it preloaded but not recording, and recording, runs of the
three interleaved so that the machine's drift hits them alike; medians of
the halo's own per-iteration time (halo_overhead.c prints it), as a table.

    recorder_overhead.py BUILD_DIR [--pairs K] [--ranks P] [--output FILE]

BUILD_DIR holds bin/tmap-halo-overhead(-mpich) and lib/libtmap-mpi(-mpich).so.
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile

SIZES = [(1024, 20000, "1 KB"), (1 << 20, 300, "1 MB")]


def run(launcher, program, size, iterations, env):
    out = subprocess.run(launcher + [program, str(size), str(iterations), "9"], env=env, check=True,
                         capture_output=True, text=True).stdout
    for line in out.splitlines():
        if line.startswith("seconds_per_iteration"):
            return float(line.split()[1])
    raise RuntimeError(f"no timing in {out!r}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("build")
    parser.add_argument("--pairs", type=int, default=15)
    parser.add_argument("--ranks", type=int, default=2)
    parser.add_argument("--output")
    args = parser.parse_args()
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    mpis = [("Open MPI 4.1 (mpirun)", ["mpirun", "-np", str(args.ranks)], "", "-x")]
    if os.path.exists(os.path.join(args.build, "bin", "tmap-halo-overhead-mpich")):
        mpis.append(("MPICH 4.0 (Hydra)", ["mpiexec.mpich", "-n", str(args.ranks)], "-mpich", "-genv"))
    rows = []
    with tempfile.TemporaryDirectory() as work:
        for name, launcher, suffix, flag in mpis:
            program = os.path.join(args.build, "bin", "tmap-halo-overhead" + suffix)
            library = os.path.join(args.build, "lib", f"libtmap-mpi{suffix}.so")

            def setting(pairs):
                extra = []
                for key, value in pairs:
                    extra += [flag, f"{key}={value}"] if flag == "-x" else [flag, key, value]
                return launcher + extra

            modes = {
                "without": launcher,
                "preloaded": setting([("LD_PRELOAD", library)]),
                "recording": setting([("LD_PRELOAD", library), ("TMAP_RECORD", os.path.join(work, "halo"))]),
            }
            for size, iterations, label in SIZES:
                times = {mode: [] for mode in modes}
                for _ in range(args.pairs):
                    for mode, command in modes.items():
                        times[mode].append(run(command, program, size, iterations, env))
                median = {mode: statistics.median(values) for mode, values in times.items()}
                rows.append((name, label, median["without"], median["preloaded"] / median["without"],
                             median["recording"] / median["without"]))
                print(f"{name} {label}: {median}", file=sys.stderr)
    lines = ["| MPI | message | without the library (s per iteration) | preloaded, not recording | recording |",
             "|---|---|---:|---:|---:|"]
    for name, label, base, preloaded, recording in rows:
        lines.append(f"| {name} | {label} | {base:.3g} | {preloaded:.3f} | {recording:.3f} |")
    text = "\n".join(lines) + "\n"
    if args.output:
        with open(args.output, "w") as f:
            f.write(text)
    print(text, end="")


if __name__ == "__main__":
    main()
