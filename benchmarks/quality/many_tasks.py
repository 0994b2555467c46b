#!/usr/bin/env python3
"""Many tasks per PE (issue #63): tm-map with --imbalance 0.03 on graphs of
131,072 weighted vertices against -s scotch (libscotch's static mapping with
the vertex loads and gmap's -b 0.03) and SharedMap's three presets (fast,
eco, strong) built from its repository, on the hierarchies of SharedMap's
paper: 4:8:r PEs (4 cores a processor, 8 processors a node, r nodes) with
distances 1:10:100 (a tleaf whose cumulative costs are exactly those), r = 2
and 4. Every mapping is scored by tm-eval (hop-bytes, and whether each PE's
load is within (1.03) x ceil(total / PEs)); times are whole processes on one
thread, one run each (SharedMap strong takes tens of seconds).

Graphs (generated here; weights 1-4): 3D stencils of 64x64x32 in natural and
shuffled order with random weights and with a heavy corner (weight 4 in a
quarter of the x-y plane, 1 elsewhere: load balance and locality pull
apart), a 2D stencil of 512x256, and random degree-6 traffic.

  benchmarks/quality/many_tasks.py --sharedmap PATH [--bin build/bin] [--out benchmarks/results]
"""
import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from quality_mode import report_options, rewrote_report  # noqa: E402  (the scripts' shared options)

MACHINES = {  # label -> (tm-map spec, PEs, SharedMap hierarchy, distances)
    "4:8:2": ("tleaf 3 2 90 8 9 4 1", 64, "4:8:2", "1:10:100"),
    "4:8:4": ("tleaf 3 4 90 8 9 4 1", 128, "4:8:4", "1:10:100"),
}
GRAPHS = {  # label -> (tm-gen arguments, weights, shuffled)
    "stencil3d 64x64x32 random": (["stencil3d", "--dims", "64x64x32"], "random", False),
    "stencil3d 64x64x32 shuffled random": (["stencil3d", "--dims", "64x64x32"], "random", True),
    "stencil3d 64x64x32 heavy corner": (["stencil3d", "--dims", "64x64x32"], "corner", False),
    "stencil3d 64x64x32 shuffled heavy corner": (["stencil3d", "--dims", "64x64x32"], "corner", True),
    "stencil2d 512x256 random": (["stencil2d", "--dims", "512x256"], "random", False),
    "random degree 6 random": (["random", "--ranks", "131072", "--degree", "6"], "random", False),
}
EPS = "0.03"


def weigh(grf_in, grf_out, how, dims=(64, 64, 32)):
    """The graph with vertex loads: random 1-4, or 4 in a corner of the
    x-y plane (x, y below a quarter), 1 elsewhere (rank = x + X (y + Y z))."""
    lines = open(grf_in).read().rstrip("\n").split("\n")
    n = int(lines[1].split()[0])
    rng = random.Random(7)
    if how == "random":
        weights = [rng.randint(1, 4) for _ in range(n)]
    else:
        x_size, y_size, _ = dims
        weights = [4 if r % x_size < x_size // 4 and (r // x_size) % y_size < y_size // 4 else 1 for r in range(n)]
    out = [lines[0], lines[1], "0 011"] + [f"{weights[v]} {lines[3 + v]}" for v in range(n)]
    open(grf_out, "w").write("\n".join(out) + "\n")


TIMEOUT = 600  # seconds a run may take


def timed(cmd, env=None):
    start = time.monotonic()
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=TIMEOUT)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)}: exit {proc.returncode}: {proc.stderr[-1500:]}")
    return time.monotonic() - start


def score(tm_eval, spec, grf, mapping):
    out = subprocess.run([tm_eval, "-t", spec, "-c", grf, "-m", mapping, "--imbalance", EPS, "--format", "json"],
                         capture_output=True, text=True, check=True).stdout
    j = json.loads(out)
    return j["hop_bytes"], j["loads"]["within_limit"], round(j["loads"]["imbalance"], 4)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", default="build/bin")
    ap.add_argument("--out", default="benchmarks/results")
    ap.add_argument("--sharedmap", default="", help="SharedMap's CLI (its libraries on LD_LIBRARY_PATH)")
    ap.add_argument("--graphs", default=",".join(GRAPHS))
    report_options(ap)
    args = ap.parse_args()
    if rewrote_report(args, "many_tasks", write_report):
        return
    tm_map, tm_gen, tm_eval = (os.path.join(args.bin, t) for t in ("tm-map", "tm-gen", "tm-eval"))
    work = tempfile.mkdtemp(prefix="tmap-many-")
    rows = []
    for glabel in args.graphs.split(","):
        gen, how, shuffled = GRAPHS[glabel]
        base = os.path.join(work, glabel.replace(" ", "-"))
        subprocess.run([tm_gen] + gen + ["--volume", "10", "--output", f"{base}-plain.grf"], check=True)
        weigh(f"{base}-plain.grf", f"{base}.grf", how)
        if shuffled:  # the same job renumbered, weights and all
            os.rename(f"{base}.grf", f"{base}-natural.grf")
            subprocess.run([tm_gen, "convert", "--from", f"{base}-natural.grf", "--shuffle", "1", "--output",
                            f"{base}.grf"], check=True)
        subprocess.run([tm_gen, "convert", "--from", f"{base}.grf", "--output", f"{base}.graph"], check=True)
        for mlabel, (spec, pes, hierarchy, distance) in MACHINES.items():
            row = {"graph": glabel, "machine": mlabel, "pes": pes}
            out = os.path.join(work, "out.map")
            runs = [("default", [tm_map, "-t", spec, "-c", f"{base}.grf", "--imbalance", EPS, "-p", "1", "-q",
                                 "--output", out]),
                    ("scotch", [tm_map, "-t", spec, "-c", f"{base}.grf", "--imbalance", EPS, "-p", "1", "-q", "-s",
                                "scotch", "--output", out])]
            if args.sharedmap:
                for preset in ("fast", "eco", "strong"):
                    runs.append((f"sharedmap-{preset}",
                                 [args.sharedmap, "-g", f"{base}.graph", "-m", out, "-h", hierarchy, "-d", distance,
                                  "-e", EPS, "-c", preset, "-t", "1", "-s", "naive", "--seed", "0"]))
            for name, cmd in runs:
                if os.path.exists(out):
                    os.remove(out)
                try:
                    secs = timed(cmd)
                except subprocess.TimeoutExpired:
                    row[name] = {"timeout_s": TIMEOUT}
                    print(glabel, mlabel, name, row[name], flush=True)
                    continue
                hop_bytes, within, imbalance = score(tm_eval, spec, f"{base}.grf", out)
                row[name] = {"time_s": round(secs, 2), "hop_bytes": hop_bytes, "within": within,
                             "imbalance": imbalance}
                print(glabel, mlabel, name, row[name], flush=True)
            rows.append(row)
            save(rows, args.out, args.note)  # row by row: a long run keeps what it measured


def save(rows, folder, note=""):
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "many_tasks.json"), "w") as f:
        json.dump(rows, f, indent=1)
    write_report(rows, os.path.join(folder, "many_tasks.md"), note)


def write_report(rows, path, note=""):
    names = ["scotch", "sharedmap-fast", "sharedmap-eco", "sharedmap-strong"]
    lines = ["# Many tasks per PE: --imbalance 0.03 on 131,072 weighted vertices", ""] + ([note, ""] if note else []) + [
             "`benchmarks/quality/many_tasks.py`: hop-bytes by tm-eval; each other's as a ratio to tm-map's default "
             "(above 1: it costs more); `over`: a PE above its limit, floor(1.03 x total / PEs) (never below the average rounded up). Whole processes, one thread, "
             "one run.", "",
             "| graph | machine | default hop-bytes | default s | " +
             " | ".join(f"{n} / default | {n} s" for n in names) + " |",
             "|---|---|---:|---:|" + "---:|---:|" * len(names)]
    for row in rows:
        d = row["default"]
        cells = [f"{d['hop_bytes']:,}" + ("" if d["within"] else " over"), f"{d['time_s']:.2f}"]
        for n in names:
            v = row.get(n)
            if v is None:
                cells += ["", ""]
                continue
            if "timeout_s" in v:
                cells += ["", f"> {v['timeout_s']}"]
                continue
            cells += [f"{v['hop_bytes'] / d['hop_bytes']:.4f}" + ("" if v["within"] else " over"),
                      f"{v['time_s']:.2f}"]
        lines.append(f"| {row['graph']} | {row['machine']} | " + " | ".join(cells) + " |")
    open(path, "w").write("\n".join(lines) + "\n")


if __name__ == "__main__":
    sys.exit(main())
