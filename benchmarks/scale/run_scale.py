#!/usr/bin/env python3
"""The scale suite (issue #18): each strategy on natural and shuffled 3D
7-point stencils from 1,024 to 1,048,576 ranks, on each machine kind
(torus3D, mesh3D, a tleaf, Tianhe-3 whole and fragmented), with wall time,
peak RSS and hop-bytes per run, and scotch_gmap -Cd -cb beside tmap's scotch
when the `scotch` package's binary is present (its hop-bytes scored by
tm-eval; an invalid gmap mapping -- two ranks on a PE -- is marked so).

Each run is a separate process under /usr/bin/time (peak RSS = its maxrss),
one thread (-p 1), with a time limit; rows are appended to a JSON-lines file
as they finish, so a long suite can be stopped and resumed (--resume skips
rows already there). scale.md is written from all rows at the end.

  benchmarks/scale/run_scale.py --bin build/bin --out benchmarks/results \
      [--sizes 1024,4096] [--machines torus3d,tianhe3] [--strategies scotch,inorder] [--timeout 600]
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

SIZES = {  # ranks -> stencil dims (X, Y, Z)
    1024: (16, 8, 8), 4096: (16, 16, 16), 16384: (32, 32, 16), 65536: (64, 64, 16),
    262144: (64, 64, 64), 1048576: (128, 128, 64)}
# Tianhe-3 chips (rows x cols) of 96 nodes x 48 cores that hold n ranks.
TIANHE3_CHIPS = {1024: (1, 1), 4096: (1, 1), 16384: (2, 2), 65536: (4, 4), 262144: (8, 8), 1048576: (16, 16)}
# Which strategies run at which sizes by default (the others are known to
# take far longer than the time limit there; see scale.md).
DEFAULT_PLAN = {
    "auto": 1048576, "scotch": 1048576, "inorder": 1048576, "greedy": 1048576, "treematch": 1048576, "ohtma+": 1048576,
    "rcm": 65536, "umpa-wh": 65536, "best:tabu": 16384, "gmap": 1048576, "ptscotch-np2": 1048576,
    "ptscotch-only-np2": 1048576, "scotch+": 262144}


# Above LARGE ranks only these machines run by default (time).
LARGE = 65536
LARGE_MACHINES = ("torus3d", "tianhe3")


def machine(kind, n):
    """(label, topology spec, tm-map extra args, gmap target text or None)."""
    x, y, z = SIZES[n]
    if kind == "torus3d":
        spec = f"torus3D {x} {y} {z}"
        return spec, spec, [], spec + "\n"
    if kind == "mesh3d":
        spec = f"mesh3D {x} {y} {z}"
        return spec, spec, [], spec + "\n"
    if kind == "tleaf":  # racks of 4 boards of 64 cores
        spec = f"tleaf 3 {n // 256} 20 4 10 64 1"
        return spec, spec, [], spec + "\n"
    rows, cols = TIANHE3_CHIPS[n]
    spec = f"tianhe3:{rows}x{cols},nodes=96,cores=48"
    if kind == "tianhe3":
        return spec, spec, [], "tianhe3"
    if kind == "tianhe3-frag":  # every 8th node busy: a fragmented allocation
        nodes = rows * cols * 96
        need = -(-n // 48)
        free = [v for v in range(nodes) if v % 8 != 7]
        if len(free) < need:  # one more row of chips
            rows += 1
            spec = f"tianhe3:{rows}x{cols},nodes=96,cores=48"
            free = [v for v in range(rows * cols * 96) if v % 8 != 7]
        alloc = ",".join(f"{v}-{v + 6}" for v in range(0, rows * cols * 96, 8))
        return spec + " (7 of 8 nodes)", spec, ["--alloc", alloc], None
    raise ValueError(kind)


def timed(cmd, timeout, env=None):
    """(seconds, peak RSS MB, returncode or 'timeout', stderr)."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as tf:
        start = time.monotonic()
        try:
            proc = subprocess.run(["/usr/bin/time", "-f", "%e %M", "-o", tf.name] + cmd, capture_output=True,
                                  text=True, timeout=timeout, env=env)
        except subprocess.TimeoutExpired:
            return time.monotonic() - start, None, "timeout", ""
        fields = open(tf.name).read().split()
        secs, rss = (float(fields[-2]), int(fields[-1]) / 1024.0) if len(fields) >= 2 else (None, None)
        return secs, rss, proc.returncode, proc.stderr


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", default="build/bin")
    ap.add_argument("--out", default="benchmarks/results")
    ap.add_argument("--sizes", default=",".join(map(str, SIZES)))
    ap.add_argument("--machines", default="torus3d,mesh3d,tleaf,tianhe3,tianhe3-frag")
    ap.add_argument("--strategies", default=",".join(DEFAULT_PLAN))
    ap.add_argument("--shuffled", action="store_true", help="also shuffled rank order (scotch and gmap)")
    ap.add_argument("--timeout", type=float, default=600)
    ap.add_argument("--all-sizes", action="store_true", help="ignore the default size limit per strategy")
    ap.add_argument("--resume", action="store_true")
    ap.add_argument("--work", default=None, help="folder for generated inputs (default: a temporary one)")
    ap.add_argument("--report-only", action="store_true", help="rewrite scale.md from scale.jsonl")
    args = ap.parse_args()
    if args.report_only:
        write_report(os.path.join(args.out, "scale.jsonl"), os.path.join(args.out, "scale.md"))
        return 0

    tm_map, tm_gen, tm_eval, tm_topo = (os.path.join(args.bin, t) for t in ("tm-map", "tm-gen", "tm-eval", "tm-topo"))
    gmap = shutil.which("scotch_gmap")
    os.makedirs(args.out, exist_ok=True)
    rows_path = os.path.join(args.out, "scale.jsonl")
    done = set()
    if args.resume and os.path.exists(rows_path):
        for line in open(rows_path):
            r = json.loads(line)
            done.add((r["n"], r["machine_kind"], r["order"], r["strategy"]))
    elif os.path.exists(rows_path):
        os.remove(rows_path)
    work = args.work or tempfile.mkdtemp(prefix="tmap-scale-")
    os.makedirs(work, exist_ok=True)

    def emit(row):
        with open(rows_path, "a") as f:
            f.write(json.dumps(row) + "\n")
        print(json.dumps(row), flush=True)

    for n in map(int, args.sizes.split(",")):
        x, y, z = SIZES[n]
        orders = ["natural"] + (["shuffled"] if args.shuffled else [])
        for order in orders:
            base = os.path.join(work, f"s{n}-{order}")
            shuffle = ["--shuffle", "1"] if order == "shuffled" else []
            for ext in ("coo", "grf"):
                if not os.path.exists(f"{base}.{ext}"):
                    subprocess.run([tm_gen, "stencil3d", "--dims", f"{x}x{y}x{z}", "--output", f"{base}.{ext}"] + shuffle,
                                   check=True)
            for kind in args.machines.split(","):
                if n > LARGE and kind not in LARGE_MACHINES and not args.all_sizes:
                    continue
                label, spec, extra, gmap_target = machine(kind, n)
                for strategy in args.strategies.split(","):
                    if not args.all_sizes and n > DEFAULT_PLAN.get(strategy, 0):
                        continue
                    if order == "shuffled" and strategy not in ("auto", "scotch", "scotch+", "gmap", "ptscotch-np2",
                                                                "ptscotch-only-np2"):
                        continue
                    if (n, kind, order, strategy) in done:
                        continue
                    row = {"n": n, "machine_kind": kind, "machine": label, "order": order, "strategy": strategy}
                    if strategy == "gmap":
                        if gmap is None or gmap_target is None:
                            continue
                        tgt = os.path.join(work, f"{kind}-{n}.tgt")
                        if gmap_target == "tianhe3":
                            rows, cols = TIANHE3_CHIPS[n]
                            if rows * cols * 96 > 6144:
                                continue  # the deco 0 text would hold > 18 M distances
                            subprocess.run([tm_topo, "tianhe3", "--rows", str(rows), "--cols", str(cols), "--nodes",
                                            "96", "--cores", "48", "--tgt", tgt], check=True)
                        else:
                            open(tgt, "w").write(gmap_target)
                        out = os.path.join(work, "gmap.map")
                        secs, rss, rc, err = timed([gmap, "-Cd", "-cb", f"{base}.grf", tgt, out], args.timeout)
                        row.update(time_s=secs, peak_rss_mb=rss, status=rc if rc != 0 else "ok")
                        if rc == 0:
                            ev = subprocess.run([tm_eval, "-t", spec, "-c", f"{base}.coo", "-m", out],
                                                capture_output=True, text=True)
                            row["valid"] = ev.returncode == 0
                            if ev.returncode != 0:
                                ev = subprocess.run([tm_eval, "-t", spec, "-c", f"{base}.coo", "-m", out, "-o", "64"],
                                                    capture_output=True, text=True)
                            row["hop_bytes"] = int(ev.stdout.split()[1]) if ev.returncode == 0 else None
                        emit(row)
                        continue
                    if strategy.startswith("ptscotch-"):
                        if extra:
                            continue  # tm-pmap maps onto whole machines only
                        out = os.path.join(work, "pmap.perm")
                        procs = strategy.rsplit("-np", 1)[1]
                        cmd = ["mpirun", "--oversubscribe", "-np", procs, os.path.join(args.bin, "tm-pmap"), "-t", spec,
                               "-c", f"{base}.coo", "--output", out,
                               "-s", "ptscotch" if strategy.startswith("ptscotch-only") else "auto"]
                        env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
                        secs, rss, rc, err = timed(cmd, args.timeout, env)
                        row.update(time_s=secs, peak_rss_mb=rss, status="ok" if rc == 0 else rc)
                        if rc == 0:
                            ev = subprocess.run([tm_eval, "-t", spec, "-c", f"{base}.coo", "-m", out],
                                                capture_output=True, text=True)
                            row["valid"] = ev.returncode == 0
                            row["hop_bytes"] = int(ev.stdout.split()[1]) if ev.returncode == 0 else None
                            row["peak_rss_per_process_mb"] = float(err.split("peak RSS per process ")[1].split()[0])
                        emit(row)
                        continue
                    name, _, refine = strategy.partition(":")
                    out = os.path.join(work, "out.json")
                    cmd = [tm_map, "-t", spec, "-c", f"{base}.coo", "-s", name, "--format", "json", "--output", out,
                           "-q", "-p", "1"] + extra + (["--refine", refine] if refine else [])
                    secs, rss, rc, err = timed(cmd, args.timeout)
                    row.update(time_s=secs, peak_rss_mb=rss, status="ok" if rc == 0 else rc)
                    if rc == 0:
                        result = json.load(open(out))
                        row.update(hop_bytes=result["hop_bytes"], strategy_time_s=result["time_s"], valid=True)
                    elif rc != "timeout":
                        row["error"] = err.strip().splitlines()[-1] if err.strip() else ""
                    emit(row)
    write_report(rows_path, os.path.join(args.out, "scale.md"))


def summary(by):
    """auto's time, its hop-bytes against in-order and the best measured,
    scotch against gmap and scotch+ against scotch, one row per case."""
    out = ["| ranks | machine | order | auto s | auto / in-order | auto / best | scotch s | scotch / gmap "
           "hop-bytes | scotch / gmap time | scotch+ / scotch | auto peak RSS MB |",
           "|---|---|---|---|---|---|---|---|---|---|---|"]
    for (n, kind, order), d in sorted(by.items()):
        a, s, g, i, p = (d.get(k) for k in ("auto", "scotch", "gmap", "inorder", "scotch+"))
        if not a and not s:
            continue
        valid = [r["hop_bytes"] for r in d.values()
                 if r.get("hop_bytes") and r.get("valid", True) and r["strategy"] != "gmap"]
        best = min(valid) if valid else None

        def t(r):
            return "timeout" if r.get("status") == "timeout" else f"{r['time_s']:.1f}"
        ai = f"{a['hop_bytes'] / i['hop_bytes']:.3f}" if a and i and a.get("hop_bytes") else ""
        ab = f"{a['hop_bytes'] / best:.3f}" if a and best and a.get("hop_bytes") else ""
        sg = (f"{s['hop_bytes'] / g['hop_bytes']:.3f}{'' if g.get('valid') else ' (gmap invalid)'}"
              if s and g and s.get("hop_bytes") and g.get("hop_bytes") else "")
        st = f"{s['time_s'] / g['time_s']:.2f}" if s and g and s.get("status") == "ok" and g.get("status") == "ok" else ""
        ps = f"{p['hop_bytes'] / s['hop_bytes']:.3f}" if p and s and p.get("hop_bytes") and s.get("hop_bytes") else ""
        rss = round(a["peak_rss_mb"]) if a and a.get("peak_rss_mb") else ""
        out.append(f"| {n:,} | {kind} | {order} | {t(a) if a else '-'} | {ai} | {ab} | {t(s) if s else '-'} | {sg} "
                   f"| {st} | {ps} | {rss} |")
    return out


def write_report(rows_path, md_path):
    rows = [json.loads(line) for line in open(rows_path)]
    by = {}
    for r in rows:
        by.setdefault((r["n"], r["machine_kind"], r["order"]), {})[r["strategy"]] = r
    lines = ["# Scale suite", "", "Written by benchmarks/scale/run_scale.py: wall time (s), peak RSS (MB) and",
             "hop-bytes as a ratio to in-order (natural order) or to tmap's scotch (shuffled), per run, one",
             "thread; gmap = scotch_gmap -Cd -cb (* = invalid: two ranks on a PE; its hop-bytes then count",
             "that); ptscotch-np2 = tm-pmap on 2 processes (its default: the own order or the grid when",
             "better, else PT-Scotch refined across blocks), ptscotch-only-np2 = tm-pmap -s ptscotch (peak",
             "RSS: the largest process). Strategies",
             "absent at a size were left out there (see docs/measurements.md); `timeout` = past 300 s.", "",
             "## Summary: the default (auto), scotch beside scotch_gmap, scotch+ beside scotch", ""] + summary(by) + [""]
    for key in sorted(by):
        n, kind, order = key
        runs = by[key]
        ref = runs.get("inorder" if order == "natural" else "scotch", {}).get("hop_bytes")
        lines.append(f"## {n:,} ranks, {next(iter(runs.values()))['machine']}, {order} stencil")
        lines.append("")
        lines.append("| strategy | time s | peak RSS MB | hop-bytes | ratio |")
        lines.append("|---|---|---|---|---|")
        for s, r in sorted(runs.items(), key=lambda kv: kv[0]):
            hb = r.get("hop_bytes")
            ratio = f"{hb / ref:.3f}" if hb and ref else ""
            t = "timeout" if r.get("status") == "timeout" else (f"{r['time_s']:.2f}" if r.get("time_s") else "")
            mark = "*" if r.get("valid") is False else ""
            status = "" if r.get("status") in ("ok", "timeout") else f" (exit {r.get('status')}: {r.get('error', '')})"
            rss = f"{r['peak_rss_mb']:.0f}" if r.get("peak_rss_mb") else ""
            lines.append(f"| {s}{mark} | {t}{status} | {rss} | {hb if hb is not None else ''} | {ratio} |")
        lines.append("")
    open(md_path, "w").write("\n".join(lines) + "\n")


if __name__ == "__main__":
    sys.exit(main())
