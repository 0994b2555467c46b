#!/usr/bin/env python3
"""Speed at every size (issue #63): tm-map's default and `-P quality`
beside `scotch_gmap -Cd -cb` (one thread: SCOTCH_PTHREAD_NUMBER=1) and
`-s inorder` (the cost of reading the job and writing a mapping), at 64,
1,024, 4,096, 16,384 and 1,048,576 ranks, with wall time and peak memory
of each process and the hop-bytes of its mapping (tm-eval's, gmap's too).

Traffic: a natural and a shuffled 3D 7-point stencil, and random traffic
of degree 6 up to 16,384 ranks. Machines: a tleaf of racks, a 3D torus
and Tianhe-3, each sized to the job. The quality mode runs up to 16,384
ranks, gmap up to --gmap-up-to ranks (16,384: at a million ranks on the
tleaf gmap ran more than 7 minutes, and #63's goal there is against
in-order). All in one run, so the ratios compare like with like; the median
of --runs runs is kept (one run at a million ranks). Rows are written to
speed.json as they finish.

  benchmarks/speed/run_speed.py --bin build/bin --out benchmarks/results [--sizes 64,1024] [--runs 3]
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "quality"))
from quality_mode import hop_bytes, report_options, rewrote_report  # noqa: E402  (gmap's invalid mappings scored as they are)

STENCIL3D = {64: "4x4x4", 1024: "16x8x8", 4096: "16x16x16", 16384: "32x32x16", 1048576: "128x128x64"}
TORUS = {64: "torus3D 4 4 4", 1024: "torus3D 16 8 8", 4096: "torus3D 16 16 16", 16384: "torus3D 32 32 16",
         1048576: "torus3D 128 128 64"}
# Tianhe-3 holding n ranks: (rows, cols, nodes per chip, cores per node).
TIANHE3 = {64: (1, 1, 2, 32), 1024: (1, 1, 96, 48), 4096: (1, 1, 96, 48), 16384: (2, 2, 96, 48),
           1048576: (16, 16, 96, 48)}
RUNS = ["gmap", "default", "quality", "inorder"]
LARGEST_QUALITY = 16384
LARGEST_RANDOM = 16384
LARGEST_TABLE_TARGET = 16384  # gmap on Tianhe-3 needs a deco of every node pair


def machines(n, tm_topo, work):
    """(label, tm-map spec, gmap target file or None)."""
    out = []
    racks = max(n // 256, 1)
    tleaf = f"tleaf 3 {racks} 20 4 10 64 1" if n >= 256 else "tleaf 2 2 10 32 1"
    for label, spec in (("tleaf", tleaf), ("torus", TORUS[n])):
        tgt = os.path.join(work, f"{label}-{n}.tgt")
        open(tgt, "w").write(spec + "\n")
        out.append((label, spec, tgt))
    rows, cols, nodes, cores = TIANHE3[n]
    spec = f"tianhe3:{rows}x{cols},nodes={nodes},cores={cores}"
    tgt = None
    if n <= LARGEST_TABLE_TARGET:
        tgt = os.path.join(work, f"tianhe3-{n}.tgt")
        subprocess.run([tm_topo, "tianhe3", "--rows", str(rows), "--cols", str(cols), "--nodes", str(nodes),
                        "--cores", str(cores), "--tgt", tgt], check=True, capture_output=True)
    out.append(("tianhe3", spec, tgt))
    return out


def measured(cmd, env=None):
    """(wall seconds, peak resident MiB) of one process, from its own rusage."""
    start = time.monotonic()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    _, status, usage = os.wait4(proc.pid, 0)
    secs = time.monotonic() - start
    err = proc.stderr.read().decode(errors="replace")
    proc.stderr.close()
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)}: exit {proc.returncode}: {err[-500:]}")
    return secs, usage.ru_maxrss / 1024.0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", default="build/bin")
    ap.add_argument("--out", default="benchmarks/results")
    ap.add_argument("--sizes", default="64,1024,4096,16384,1048576")
    ap.add_argument("--runs", type=int, default=3, help="runs of each command below a million ranks; the median")
    ap.add_argument("--machines", default="tleaf,torus,tianhe3")
    ap.add_argument("--gmap-up-to", type=int, default=16384, help="largest job scotch_gmap is run on")
    ap.add_argument("--threads", default="1",
                    help="tm-map's -p: a count (1: one thread, as gmap) or 'machine' (tm-map's default: the "
                         "machine's cores, what users run)")
    report_options(ap)
    args = ap.parse_args()
    if rewrote_report(args, "speed", write_report):
        return
    tm_map, tm_gen, tm_eval, tm_topo = (os.path.join(args.bin, t) for t in ("tm-map", "tm-gen", "tm-eval", "tm-topo"))
    gmap = shutil.which("scotch_gmap")
    gmap_env = dict(os.environ, SCOTCH_PTHREAD_NUMBER="1")
    work = tempfile.mkdtemp(prefix="tmap-speed-")
    os.makedirs(args.out, exist_ok=True)
    rows = []
    for n in map(int, args.sizes.split(",")):
        traffic = {
            "stencil3d": ["stencil3d", "--dims", STENCIL3D[n]],
            "stencil3d shuffled": ["stencil3d", "--dims", STENCIL3D[n], "--shuffle", "1"],
        }
        if n <= LARGEST_RANDOM:
            traffic["random degree 6"] = ["random", "--ranks", str(n), "--degree", "6", "--volume", "10000",
                                          "--seed", "1"]
        runs = 1 if n > LARGEST_QUALITY else args.runs
        for tname, gen in traffic.items():
            base = os.path.join(work, f"{n}-{tname.replace(' ', '-')}")
            for ext in ("coo", "grf"):
                subprocess.run([tm_gen] + gen + ["--output", f"{base}.{ext}"], check=True, capture_output=True)
            for label, spec, tgt in machines(n, tm_topo, work):
                if label not in args.machines.split(","):
                    continue
                row = {"n": n, "traffic": tname, "machine": label, "spec": spec}
                for run in RUNS:
                    out = os.path.join(work, "out.map")
                    env = None
                    if run == "gmap":
                        if gmap is None or tgt is None or n > args.gmap_up_to:
                            continue
                        cmd, env = [gmap, "-Cd", "-cb", f"{base}.grf", tgt, out], gmap_env
                    elif run == "quality" and n > LARGEST_QUALITY:
                        continue
                    else:
                        pick = {"default": [], "quality": ["-P", "quality"], "inorder": ["-s", "inorder"]}[run]
                        threads = [] if args.threads == "machine" else ["-p", args.threads]
                        cmd = [tm_map, "-t", spec, "-c", f"{base}.coo", "--output", out, "-q"] + threads + pick
                    results = [measured(cmd, env) for _ in range(runs)]
                    secs = statistics.median(r[0] for r in results)
                    peak = max(r[1] for r in results)
                    value, valid = hop_bytes(tm_eval, spec, f"{base}.coo", out)
                    row[run] = {"time_s": round(secs, 3), "peak_mib": round(peak, 1), "hop_bytes": value,
                                "valid": valid}
                    print(n, tname, label, run, row[run], flush=True)
                rows.append(row)
                with open(os.path.join(args.out, "speed.json"), "w") as f:
                    json.dump(rows, f, indent=1)
    shutil.rmtree(work, ignore_errors=True)
    write_report(rows, os.path.join(args.out, "speed.md"), args.note)


def ratio(a, b, key, digits):
    if a is None or b is None:
        return ""
    return f"{a[key] / max(b[key], 1e-3):.{digits}f}"


def write_report(rows, path, note=""):
    lines = ["# Speed at every size: tmap against scotch_gmap and in-order", ""] + ([note, ""] if note else []) + [
        "`benchmarks/speed/run_speed.py`: each command one process timed whole (reading included; tm-map on "
        "one thread unless the note says `--threads`; "
        "median of the runs, one run at a million ranks), peak resident memory from its rusage, hop-bytes by "
        "tm-eval. gmap is `scotch_gmap -Cd -cb` with `SCOTCH_PTHREAD_NUMBER=1` (invalid: it put two ranks on a "
        "PE, scored as it is). #63's goals: the default at most gmap's time + 0.05 s; `-P quality` at most 2x "
        "gmap's + 0.05 s, at or below its hop-bytes; at a million ranks the default at most 2.5x in-order's "
        "time and 1.6x its memory.", "",
        "| ranks | traffic | machine | gmap s | default s | quality s | in-order s | default / gmap hop-bytes | "
        "quality / gmap hop-bytes | default / in-order time | default / in-order memory | default MiB |",
        "|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for row in rows:
        g, d, q, i = (row.get(r) for r in RUNS)

        def secs(v):
            return f"{v['time_s']:.2f}" if v else ""

        gmap_cell = secs(g) + ("" if not g or g["valid"] else " (invalid)")
        lines.append(f"| {row['n']:,} | {row['traffic']} | {row['machine']} | {gmap_cell} | {secs(d)} | {secs(q)} | "
                     f"{secs(i)} | {ratio(d, g, 'hop_bytes', 3)} | {ratio(q, g, 'hop_bytes', 3)} | "
                     f"{ratio(d, i, 'time_s', 1)} | {ratio(d, i, 'peak_mib', 2)} | "
                     f"{d['peak_mib'] if d else ''} |")
    open(path, "w").write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
