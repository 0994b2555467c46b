#!/usr/bin/env python3
"""The quality mode against scotch_gmap (issue #43): `tm-map -P quality`
beside `scotch_gmap -Cd -cb`, the default and the strategies it is built
from, at 1,024 and 4,096 ranks on a tleaf, a 3D torus and Tianhe-3, with
traffic that no machine shape gives away: a shuffled 2D stencil (a grid that
does not match the 3D machines), a shuffled 3D stencil and random traffic of
degree 6 (irregular, as MapLib's application matrices are).

Each run is one process timed whole (reading included, one thread), all in
one run of this script so that the ratios compare like with like; hop-bytes
of gmap's mapping come from tm-eval. The goal (issue #43): quality at most
10x gmap's time and at or below its hop-bytes.

  benchmarks/quality/quality_mode.py --bin build/bin --out benchmarks/results [--sizes 1024] [--runs 3]
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import tempfile
import time

STENCIL2D = {1024: "32x32", 4096: "64x64"}
STENCIL3D = {1024: "16x8x8", 4096: "16x16x16"}
TORUS = {1024: "torus3D 16 8 8", 4096: "torus3D 16 16 16"}
RUNS = ["gmap", "quality", "default", "multilevel", "best", "best:tabu"]


def machines(n, tm_topo, work):
    """(label, tm-map spec, gmap target file)."""
    out = []
    tleaf = f"tleaf 3 {n // 256} 20 4 10 64 1"  # racks of 4 boards of 64 cores
    torus = TORUS[n]
    for label, spec in (("tleaf", tleaf), ("torus", torus)):
        tgt = os.path.join(work, f"{label}-{n}.tgt")
        open(tgt, "w").write(spec + "\n")
        out.append((label, spec, tgt))
    spec = "tianhe3:1x1,nodes=96,cores=48"
    tgt = os.path.join(work, "tianhe3.tgt")
    if not os.path.exists(tgt):
        subprocess.run([tm_topo, "tianhe3", "--rows", "1", "--cols", "1", "--nodes", "96", "--cores", "48", "--tgt", tgt],
                       check=True)
    out.append(("tianhe3", spec, tgt))
    return out


def report_options(ap):
    """--note and --report-only, as every benchmark script here takes them."""
    ap.add_argument("--note", default="", help="a line on the run's conditions, written under the title")
    ap.add_argument("--report-only", action="store_true", help="rewrite the report from the --out folder's json")


def rewrote_report(args, stem, write_report, *extra):
    """With --report-only: the report STEM.md rewritten from STEM.json in --out; whether it was."""
    if not args.report_only:
        return False
    rows = json.load(open(os.path.join(args.out, f"{stem}.json")))
    write_report(rows, os.path.join(args.out, f"{stem}.md"), *extra, args.note)
    return True


def timed(cmd):
    start = time.monotonic()
    proc = subprocess.run(cmd, capture_output=True, text=True)
    secs = time.monotonic() - start
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)}: exit {proc.returncode}: {proc.stderr}")
    return secs


def hop_bytes(tm_eval, spec, coo, mapping):
    """(hop-bytes, valid): gmap may put two ranks on a PE (Scotch's load
    imbalance); such a mapping is scored as it is and marked invalid."""
    ev = subprocess.run([tm_eval, "-t", spec, "-c", coo, "-m", mapping], capture_output=True, text=True)
    if ev.returncode == 0:
        return int(ev.stdout.split()[1]), True
    ev = subprocess.run([tm_eval, "-t", spec, "-c", coo, "-m", mapping, "-o", "64"], capture_output=True, text=True,
                        check=True)
    return int(ev.stdout.split()[1]), False


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", default="build/bin")
    ap.add_argument("--out", default="benchmarks/results")
    ap.add_argument("--sizes", default="1024,4096")
    ap.add_argument("--runs", type=int, default=3, help="runs of each command; the median time is kept")
    ap.add_argument("--only", default=",".join(RUNS), help="which of " + ",".join(RUNS))
    ap.add_argument("--machines", default="tleaf,torus,tianhe3")
    ap.add_argument("--note", default="", help="a line on the run's conditions, written under the title")
    ap.add_argument("--report-only", action="store_true", help="rewrite the report from the --out folder's json")
    args = ap.parse_args()
    if args.report_only:
        rows = json.load(open(os.path.join(args.out, "quality_mode.json")))
        write_report(rows, os.path.join(args.out, "quality_mode.md"), args.only.split(","), args.note)
        return
    tm_map, tm_gen, tm_eval, tm_topo = (os.path.join(args.bin, t) for t in ("tm-map", "tm-gen", "tm-eval", "tm-topo"))
    gmap = shutil.which("scotch_gmap")
    work = tempfile.mkdtemp(prefix="tmap-quality-")
    rows = []
    for n in map(int, args.sizes.split(",")):
        traffic = {
            "stencil2d shuffled": ["stencil2d", "--dims", STENCIL2D[n], "--shuffle", "1"],
            "stencil3d shuffled": ["stencil3d", "--dims", STENCIL3D[n], "--shuffle", "1"],
            "random degree 6": ["random", "--ranks", str(n), "--degree", "6", "--volume", "10000", "--seed", "1"],
        }
        for tname, gen in traffic.items():
            base = os.path.join(work, f"{n}-{tname.replace(' ', '-')}")
            for ext in ("coo", "grf"):
                subprocess.run([tm_gen] + gen + ["--output", f"{base}.{ext}"], check=True)
            for label, spec, tgt in machines(n, tm_topo, work):
                if label not in args.machines.split(","):
                    continue
                row = {"n": n, "traffic": tname, "machine": label, "spec": spec}
                for run in args.only.split(","):
                    out = os.path.join(work, "out.map")
                    if run == "gmap":
                        if gmap is None:
                            continue
                        cmd = [gmap, "-Cd", "-cb", f"{base}.grf", tgt, out]
                    else:
                        name, _, refine = run.partition(":")
                        pick = ["-P", "quality"] if name == "quality" else [] if name == "default" else ["-s", name]
                        cmd = [tm_map, "-t", spec, "-c", f"{base}.coo", "--output", out, "-q", "-p", "1"] + pick + (
                            ["--refine", refine] if refine else [])
                    secs = statistics.median(timed(cmd) for _ in range(args.runs))
                    value, valid = hop_bytes(tm_eval, spec, f"{base}.coo", out)
                    row[run] = {"time_s": round(secs, 3), "hop_bytes": value, "valid": valid}
                    print(n, tname, label, run, row[run], flush=True)
                rows.append(row)
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "quality_mode.json"), "w") as f:
        json.dump(rows, f, indent=1)
    write_report(rows, os.path.join(args.out, "quality_mode.md"), args.only.split(","), args.note)


def write_report(rows, path, runs, note=""):
    lines = ["# The quality mode against scotch_gmap", ""] + ([note, ""] if note else []) + [
             "`benchmarks/quality/quality_mode.py`: each command timed whole (median of the runs, one thread), "
             "hop-bytes by tm-eval; ratios to `scotch_gmap -Cd -cb` on the same graph and target in the same run "
             "(invalid: gmap put two ranks on a PE, scored as it is).", "",
             "| ranks | traffic | machine | " + " | ".join(f"{r} hop-bytes / gmap | {r} time / gmap" for r in runs[1:]) +
             " | gmap hop-bytes | gmap s |",
             "|---:|---|---|" + "---:|---:|" * (len(runs) - 1) + "---:|---:|"]
    for row in rows:
        g = row.get("gmap")
        cells = []
        for r in runs[1:]:
            v = row.get(r)
            if v is None or g is None:
                cells += ["", ""]
                continue
            cells += [f"{v['hop_bytes'] / g['hop_bytes']:.3f}", f"{v['time_s'] / max(g['time_s'], 1e-3):.1f}"]
        gmap_cells = f" | {g['hop_bytes']:,}{'' if g['valid'] else ' (invalid)'} | {g['time_s']:.2f} |" if g else " | | |"
        lines.append(f"| {row['n']:,} | {row['traffic']} | {row['machine']} | " + " | ".join(cells) + gmap_cells)
    open(path, "w").write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
