#!/usr/bin/env python3
"""tm-map against the process mappers of other projects (issue #43): the
quality mode and the default beside Mt-KaHyPar's process mapping (the Steiner
tree metric on a target graph, `-o steiner_tree -g TARGET`), SharedMap's and
KaHIP's hierarchical mapping (`kaffpa --enable_mapping`, VieM's algorithms
in KaHIP) and scotch_gmap, on the same traffic and machine, hop-bytes scored
by tm-eval for every one.

Mt-KaHyPar maps onto at most 64 target nodes (its README: "a strict upper
bound on the number of nodes of the target graph"), so most machines here
have 64 PEs: a tleaf, a 4x4x4 torus and 8 Tianhe-3 nodes of 8 cores on 2
chips, with 64 ranks one per PE and 1,024 ranks 16 per PE (k = 64 blocks,
imbalance 0, so each block holds exactly a PE's ranks). The target graph
given to Mt-KaHyPar is the complete graph on the 64 PEs weighted by tmap's
own distances (checked to be a metric, so its shortest paths are those
distances): both tools then minimise the same sum of bytes x distance.
SharedMap and KaHIP take a hierarchy (a:b:c PEs per level, distances
d1:d2:d3): the tleafs, with tmap's distances (KaHIP's printed objective is
twice tm-eval's hop-bytes, both directions counted). SharedMap also maps
the quality mode's tleafs of 1,024 and 4,096 PEs one rank per PE; KaHIP
does not there (one rank per PE of 1,024 took kaffpa 356 s, for 1.45x the
quality mode's hop-bytes on random traffic). Traffic: shuffled 2D and 3D
stencils, random traffic of degree 6 and the application-like models of
tm-gen (NPB CG, BT, LU; Sweep3D), as MapLib's application matrices are.

Peers are not built by the project: give the paths of the ones you have
(built from their repositories: Mt-KaHyPar with
-DKAHYPAR_ENABLE_GRAPH_PARTITIONING_FEATURES=On
-DKAHYPAR_ENABLE_STEINER_TREE_METRIC=On; KaHIP with -DNOMPI=On; SharedMap
on that KaHIP and Mt-KaHyPar's library); a peer not given is left out.

  benchmarks/quality/peers.py --mtkahypar PATH --sharedmap PATH --kaffpa PATH [--bin build/bin]
                              [--out benchmarks/results] [--runs 3]
"""
import argparse
import glob
import json
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "build", "python"))
from quality_mode import report_options, rewrote_report, timed  # noqa: E402  (one process timed whole)

# label -> (tm-map spec, PEs); the tleafs of 1,024 and 4,096 PEs are the quality mode's (quality_mode.py).
MACHINES = {
    "tleaf": ("tleaf 3 2 20 4 10 8 1", 64),  # 2 racks of 4 boards of 8 cores
    "torus": ("torus3D 4 4 4", 64),
    "tianhe3": ("tianhe3:1x2,nodes=4,cores=8", 64),  # 2 chips of 4 nodes of 8 cores
    "tleaf-1024": ("tleaf 3 4 20 4 10 64 1", 1024),  # racks of 4 boards of 64 cores
    "tleaf-4096": ("tleaf 3 16 20 4 10 64 1", 4096),
}
# (ranks, machine): 64 ranks one per PE and 1,024 ranks 16 per PE on the 64-PE machines; one per PE on the large tleafs.
CASES = [(64, m) for m in ("tleaf", "torus", "tianhe3")] + [(1024, m) for m in ("tleaf", "torus", "tianhe3")] + [
    (1024, "tleaf-1024"), (4096, "tleaf-4096")]
STENCIL2D = {64: "8x8", 1024: "32x32", 4096: "64x64"}
STENCIL3D = {64: "4x4x4", 1024: "16x8x8", 4096: "16x16x16"}
NPB_CLASS = {64: "C", 1024: "D", 4096: "D"}


def traffic(n):
    return {
        "stencil2d shuffled": ["stencil2d", "--dims", STENCIL2D[n], "--shuffle", "1"],
        "stencil3d shuffled": ["stencil3d", "--dims", STENCIL3D[n], "--shuffle", "1"],
        "random degree 6": ["random", "--ranks", str(n), "--degree", "6", "--volume", "10000", "--seed", "1"],
        "cg": ["cg", "--ranks", str(n), "--class", NPB_CLASS[n]],
        "bt": ["bt", "--ranks", str(n), "--class", NPB_CLASS[n]],
        "lu": ["lu", "--ranks", str(n), "--class", NPB_CLASS[n]],
        "sweep3d": ["sweep3d", "--ranks", str(n)],
    }


RUNS = ["quality", "default", "mtkahypar", "sharedmap", "kaffpa", "gmap"]
MTKAHYPAR_MAX_PES = 64  # its limit on a target graph
KAFFPA_MAX_PES = 64  # one rank per PE of 1,024 took kaffpa 356 s


def tleaf_hierarchy(spec):
    """A tleaf as SharedMap's and KaHIP's hierarchy and distance strings
    (lowest level first), with tmap's distances: the sum of the link costs
    from the leaves up to the level where two PEs meet."""
    words = spec.split()
    levels = int(words[1])
    arity = [int(words[2 + 2 * k]) for k in range(levels)]
    cost = [int(words[3 + 2 * k]) for k in range(levels)]
    hierarchy, distance, total = [], [], 0
    for k in reversed(range(levels)):
        total += cost[k]
        hierarchy.append(str(arity[k]))
        distance.append(str(total))
    return ":".join(hierarchy), ":".join(distance)


def distances(spec, pes):
    """tmap's distance between each pair of the machine's PEs, from its own
    evaluator: the hop-bytes of one byte sent between two ranks placed there."""
    import tmap

    d = [[0] * pes for _ in range(pes)]
    for p in range(pes):
        for q in range(p + 1, pes):
            value = tmap.evaluate([[0, 1], [0, 0]], spec, [p, q])["hop_bytes"]
            d[p][q] = d[q][p] = value
    for k in range(pes):  # a metric: no shorter path through a third PE
        for p in range(pes):
            for q in range(pes):
                if d[p][k] + d[k][q] < d[p][q]:
                    raise SystemExit(f"{spec}: d({p},{q}) = {d[p][q]} > d({p},{k}) + d({k},{q}): not a metric")
    return d


def write_target(d, path):
    """The complete graph on the PEs, each edge weighted by the distance (METIS, 1-based)."""
    pes = len(d)
    lines = [f"{pes} {pes * (pes - 1) // 2} 001"]
    for p in range(pes):
        lines.append(" ".join(f"{q + 1} {d[p][q]}" for q in range(pes) if q != p))
    open(path, "w").write("\n".join(lines) + "\n")


def score(tm_eval, spec, coo, mapping, oversub, n):
    """(hop-bytes, valid): a mapping that puts more than a PE's ranks on a PE
    (tm-eval refuses it) is scored as it is and marked invalid."""
    ev = subprocess.run([tm_eval, "-t", spec, "-c", coo, "-m", mapping, "-o", str(oversub)], capture_output=True,
                        text=True)
    if ev.returncode == 0:
        return int(ev.stdout.split()[1]), True
    ev = subprocess.run([tm_eval, "-t", spec, "-c", coo, "-m", mapping, "-o", str(n)], capture_output=True, text=True,
                        check=True)
    return int(ev.stdout.split()[1]), False


PEER_TIMEOUT = 120  # seconds a peer's run may take (SharedMap on 64 ranks of NPB CG ran for minutes, growing)


class PeerTimeout(Exception):
    pass


def partition_run(cmd, out):
    """Runs a partitioner that writes one block (= PE) per vertex to `out`; returns its time."""
    if os.path.exists(out):
        os.remove(out)
    start = time.monotonic()
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=PEER_TIMEOUT)
    except subprocess.TimeoutExpired:
        raise PeerTimeout()
    secs = time.monotonic() - start
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)}: exit {proc.returncode}: {proc.stderr[-2000:]}")
    if not os.path.exists(out):
        raise RuntimeError(f"{' '.join(cmd)} wrote no {out}")
    return secs


def mtkahypar_mapping(binary, graph, target, pes, folder, out, seed=0):
    """Runs Mt-KaHyPar's process mapping; writes its blocks (= PEs) as a mapping."""
    for old in glob.glob(os.path.join(folder, "*.KaHyPar")):
        os.remove(old)
    cmd = [binary, "-h", graph, "--file-format=metis", "-k", str(pes), "-e", "0", "-o", "steiner_tree", "-g", target,
           "--preset-type=quality", "-t", "1", "--seed", str(seed), "-w", f"--partition-output-folder={folder}", "-q"]
    secs = timed(cmd)
    parts = glob.glob(os.path.join(folder, "*.KaHyPar"))
    if len(parts) != 1:
        raise RuntimeError(f"Mt-KaHyPar wrote {len(parts)} partition files in {folder}")
    shutil.copyfile(parts[0], out)
    return secs


PEER_WEIGHT_TOTAL = 2**30  # KaHIP's (and SharedMap's) edge weights and their sums are 32-bit ints


def peer_graph(base):
    """The METIS graph of `base` for SharedMap and kaffpa: every edge weight
    divided by their greatest common divisor (the same problem exactly), so
    that the weights' sum fits KaHIP's 32-bit weights; on the application
    matrices' byte counts (NPB CG at 1,024 ranks: 18.75 MB per edge, 1.1e11
    in all) both ran for minutes on a graph of 1,024 vertices (120 s and
    more; with the weights divided, under 2 s). Where the sum still does
    not fit, the weights are scaled down further and rounded (at least 1):
    returns (path, divisor, whether the division was exact)."""
    lines = open(f"{base}.graph").read().rstrip("\n").split("\n")
    weights = [int(w) for line in lines[1:] for w in line.split()[1::2]]
    divisor = 0
    for w in weights:
        divisor = math.gcd(divisor, w)
    divisor = max(divisor, 1)
    total = sum(weights) // divisor
    scale = divisor * max(1.0, total / PEER_WEIGHT_TOTAL)
    out = [lines[0]]
    for line in lines[1:]:
        words = line.split()
        out.append(" ".join(f"{words[k]} {max(1, round(int(words[k + 1]) / scale))}" for k in range(0, len(words), 2)))
    path = f"{base}-peer.graph"
    open(path, "w").write("\n".join(out) + "\n")
    return path, scale, scale == divisor


def peer_command(run, args, spec, pes, graph, out):
    """The command line of a hierarchical peer (SharedMap, KaHIP's kaffpa
    --enable_mapping) on a tleaf, or None where it does not apply."""
    if not spec.startswith("tleaf"):
        return None
    hierarchy, distance = tleaf_hierarchy(spec)
    if run == "sharedmap" and args.sharedmap:
        return [args.sharedmap, "-g", graph, "-m", out, "-h", hierarchy, "-d", distance, "-e", "0", "-c", "strong",
                "-t", "1", "-s", "naive", "--seed", "0"]
    if run == "kaffpa" and args.kaffpa and pes <= KAFFPA_MAX_PES:
        return [args.kaffpa, graph, f"--k={pes}", "--enable_mapping", f"--hierarchy_parameter_string={hierarchy}",
                f"--distance_parameter_string={distance}", "--imbalance=0", "--preconfiguration=eco", "--seed=0",
                f"--output_filename={out}"]
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", default="build/bin")
    ap.add_argument("--out", default="benchmarks/results")
    ap.add_argument("--mtkahypar", default="", help="Mt-KaHyPar's CLI (mtkahypar)")
    ap.add_argument("--sharedmap", default="", help="SharedMap's CLI")
    ap.add_argument("--kaffpa", default="", help="KaHIP's kaffpa (its --enable_mapping: VieM's process mapping)")
    ap.add_argument("--runs", type=int, default=3, help="runs of each command; the median time is kept")
    ap.add_argument("--peer-runs", type=int, default=1, help="runs of SharedMap and kaffpa (up to minutes each)")
    ap.add_argument("--machines", default=",".join(MACHINES))
    report_options(ap)
    args = ap.parse_args()
    if rewrote_report(args, "peers", write_report):
        return
    tm_map, tm_gen, tm_eval, tm_topo = (os.path.join(args.bin, t) for t in ("tm-map", "tm-gen", "tm-eval", "tm-topo"))
    gmap = shutil.which("scotch_gmap")
    work = tempfile.mkdtemp(prefix="tmap-peers-")
    machines = [m for m in args.machines.split(",")]
    targets = {}
    for label in machines:
        spec, pes = MACHINES[label]
        target_graph = os.path.join(work, f"{label}.graph")
        if pes <= MTKAHYPAR_MAX_PES:
            write_target(distances(spec, pes), target_graph)
        tgt = os.path.join(work, f"{label}.tgt")
        if label == "tianhe3":
            subprocess.run([tm_topo, "tianhe3", "--rows", "1", "--cols", "2", "--nodes", "4", "--cores", "8", "--tgt",
                            tgt, "-q"], check=True)
        else:
            open(tgt, "w").write(spec + "\n")
        targets[label] = (spec, pes, target_graph, tgt)
    rows = []
    for n, label in CASES:
        if label not in machines:
            continue
        spec, pes, target_graph, tgt = targets[label]
        oversub = n // pes
        for tname, gen in traffic(n).items():
            base = os.path.join(work, f"{n}-{tname.replace(' ', '-')}")
            for ext in ("coo", "graph", "grf"):
                if not os.path.exists(f"{base}.{ext}"):
                    subprocess.run([tm_gen] + gen + ["--output", f"{base}.{ext}"], check=True)
            row = {"n": n, "traffic": tname, "machine": label, "spec": spec, "pes": pes}
            for run in RUNS:
                out = os.path.join(work, "out.map")
                if run == "mtkahypar":
                    if not args.mtkahypar or pes > MTKAHYPAR_MAX_PES:
                        continue
                    folder = os.path.join(work, "mtk")
                    os.makedirs(folder, exist_ok=True)
                    times = [mtkahypar_mapping(args.mtkahypar, f"{base}.graph", target_graph, pes, folder, out)
                             for _ in range(args.runs)]
                elif run in ("sharedmap", "kaffpa"):
                    graph, row["peer_weight_divisor"], row["peer_weights_exact"] = peer_graph(base)
                    cmd = peer_command(run, args, spec, pes, graph, out)
                    if cmd is None:
                        continue
                    try:
                        times = [partition_run(cmd, out) for _ in range(args.peer_runs)]
                    except PeerTimeout:
                        row[run] = {"timeout_s": PEER_TIMEOUT}
                        print(n, tname, label, run, row[run], flush=True)
                        continue
                elif run == "gmap":
                    if gmap is None or (oversub > 1 and label == "tianhe3"):
                        continue  # (Tianhe-3's target holds a node's cores, not 16 ranks a core)
                    times = [timed([gmap, "-Cd", "-cb", f"{base}.grf", tgt, out]) for _ in range(args.runs)]
                else:
                    # Judged by hop-bytes, as the table compares (on machines with
                    # routes tm-map's default objective is the predicted time).
                    pick = ["-P", "quality"] if run == "quality" else []
                    cmd = [tm_map, "-t", spec, "-c", f"{base}.coo", "--output", out, "-q", "-p", "1",
                           "--oversub", str(oversub), "--objective", "hop-bytes"] + pick
                    times = [timed(cmd) for _ in range(args.runs)]
                value, valid = score(tm_eval, spec, f"{base}.coo", out, oversub, n)
                row[run] = {"time_s": round(statistics.median(times), 3), "hop_bytes": value, "valid": valid}
                print(n, tname, label, run, row[run], flush=True)
            rows.append(row)
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "peers.json"), "w") as f:
        json.dump(rows, f, indent=1)
    write_report(rows, os.path.join(args.out, "peers.md"), args.note)


def write_report(rows, path, note=""):
    peers = [("default", "default"), ("mtkahypar", "Mt-KaHyPar"), ("sharedmap", "SharedMap"), ("kaffpa", "KaHIP map"),
             ("gmap", "gmap")]
    lines = ["# tm-map against other process mappers", ""] + ([note, ""] if note else []) + [
             "`benchmarks/quality/peers.py`: hop-bytes by tm-eval for every mapping, each peer's as a ratio to the "
             "quality mode's (above 1: the peer's mapping costs more); times are whole processes, median of the runs, "
             "one thread (SharedMap and KaHIP: one run). Mt-KaHyPar maps onto at most 64 PEs; SharedMap and KaHIP's mapping take hierarchies "
             "(the tleafs). On the 64-PE machines 1,024 ranks are 16 per PE (gmap not on Tianhe-3 there: its "
             "target's terminals are nodes holding a rank a core). invalid: more ranks on a PE than it holds. "
             "tm-map runs with `--objective hop-bytes` (the table's measure; on machines with routes its default "
             "objective is the predicted time). SharedMap and KaHIP read the graph with its edge weights divided by "
             "their greatest common divisor (the same problem; their 32-bit weights overflow on the byte counts of "
             "the application matrices, where they ran for minutes): rounded: the weights were scaled further to "
             "fit, the peer solved a rounded problem.", "",
             "| ranks | PEs | traffic | machine | quality hop-bytes | quality s | " +
             " | ".join(f"{name} / quality | {name} s" for _, name in peers) + " |",
             "|---:|---:|---|---|---:|---:|" + "---:|---:|" * len(peers)]
    for row in rows:
        q = row["quality"]
        cells = [f"{q['hop_bytes']:,}", f"{q['time_s']:.2f}"]
        for r, _ in peers:
            v = row.get(r)
            if v is None:
                cells += ["", ""]
                continue
            if "timeout_s" in v:
                cells += ["", f"> {v['timeout_s']} (stopped)"]
                continue
            rounded = r in ("sharedmap", "kaffpa") and not row.get("peer_weights_exact", True)
            cells += [f"{v['hop_bytes'] / q['hop_bytes']:.4f}" + ("" if v["valid"] else " (invalid)") +
                      (" (rounded)" if rounded else ""), f"{v['time_s']:.2f}"]
        lines.append(f"| {row['n']:,} | {row.get('pes', 64):,} | {row['traffic']} | {row['machine']} | " +
                     " | ".join(cells) + " |")
    open(path, "w").write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
