#!/usr/bin/env python3
"""Shuffled 2D and 3D stencils (periodic ones too) onto meshes and tori of
their shape (issue #31's first goal): hop-bytes against the optimum (every pair one hop: the traffic's
total) and time, per strategy, in one run.

    benchmarks/quality/structured.py [--tm-map build/bin/tm-map] [--sizes 4096,65536]
                                     [--strategies auto,scotch,multilevel] [--output FILE.md]

Inputs come from tm-gen (.mtx: sparse), shuffled with seed 7. The optimum is
the total volume (tm-map's total_bytes) since every stencil pair can sit one
hop apart on a box of the grid's shape.
"""
import argparse
import json
import os
import subprocess
import tempfile
import time

# (pattern, dims, machine, periodic)
CASES = {
    4096: [("stencil3d", "16x16x16", "torus3D 16 16 16", False), ("stencil3d", "16x16x16", "mesh3D 16 16 16", False),
           ("stencil2d", "64x64", "torus2D 64 64", False), ("stencil3d", "32x16x8", "mesh3D 8 16 32", False),
           ("stencil2d", "128x32", "mesh2D 32 128", False), ("stencil3d", "16x16x16", "torus3D 16 16 16", True),
           ("stencil2d", "64x64", "torus2D 64 64", True)],
    65536: [("stencil3d", "64x32x32", "torus3D 64 32 32", False), ("stencil3d", "64x32x32", "mesh3D 32 32 64", False),
            ("stencil2d", "256x256", "torus2D 256 256", False), ("stencil2d", "512x128", "mesh2D 128 512", False),
            ("stencil3d", "64x32x32", "torus3D 64 32 32", True)],
}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tm-map", default="build/bin/tm-map")
    parser.add_argument("--sizes", default="4096,65536")
    parser.add_argument("--strategies", default="auto,scotch,multilevel")
    parser.add_argument("--output")
    args = parser.parse_args()
    tm_gen = os.path.join(os.path.dirname(args.tm_map), "tm-gen")
    lines = ["| ranks | stencil | machine | strategy | hop-bytes | x optimum | time s |", "|---:|---|---|---|---:|---:|---:|"]
    with tempfile.TemporaryDirectory() as work:
        for size in [int(s) for s in args.sizes.split(",")]:
            for pattern, dims, machine, periodic in CASES[size]:
                name = f"{pattern} {dims}" + (" periodic" if periodic else "")
                comm = os.path.join(work, name.replace(" ", "-") + ".mtx")
                if not os.path.exists(comm):
                    subprocess.run([tm_gen, pattern, "--dims", dims, "--shuffle", "7", "--output", comm]
                                   + (["--periodic"] if periodic else []), check=True)
                for strategy in args.strategies.split(","):
                    start = time.perf_counter()
                    out = subprocess.run([args.tm_map, "-t", machine, "-c", comm, "-s", strategy, "--format", "json", "-q"],
                                         check=True, capture_output=True, text=True).stdout
                    wall = time.perf_counter() - start
                    r = json.loads(out)
                    ratio = r["hop_bytes"] / r["total_bytes"]
                    lines.append(f"| {size} | {name} | `{machine}` | {strategy} | {r['hop_bytes']:,} | "
                                 f"{ratio:.3f} | {wall:.2f} |")
                    print(lines[-1], flush=True)
    if args.output:
        with open(args.output, "w") as f:
            f.write("# Shuffled stencils on meshes and tori of their shape\n\n"
                    "`benchmarks/quality/structured.py`: optimum = the traffic's total (every pair one hop); "
                    "time = tm-map's wall time, reading included, on the 2-core development machine.\n\n")
            f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
