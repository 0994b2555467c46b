#!/usr/bin/env python3
"""Gap of tm-map to QAPLIB's best known values (hop-bytes is the QAP objective).

    benchmarks/quality/qaplib_gaps.py QAPLIB_DIR [--strategy best] [--refine tabu]
                                       [--max-n 64] [--tm-map build/bin/tm-map] [--extra ARGS]

QAPLIB_DIR holds dat/NAME.dat (n, A, B) and BKS.tsv. The instances are never
part of this repository. An instance is used when one of its matrices is a
distance (symmetric, zero diagonal, non-negative): it becomes a .dist target,
the other the communication matrix (its diagonal costs nothing then). Prints
one line per instance and the median and mean gaps, and the time per instance.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time


def read_dat(path):
    with open(path) as f:
        numbers = [int(x) for x in f.read().split()]
    n = numbers[0]
    a = [numbers[1 + i * n:1 + (i + 1) * n] for i in range(n)]
    off = 1 + n * n
    b = [numbers[off + i * n:off + (i + 1) * n] for i in range(n)]
    return n, a, b


def is_distance(m):
    n = len(m)
    return all(m[i][i] == 0 for i in range(n)) and all(
        m[i][j] == m[j][i] and m[i][j] >= 0 for i in range(n) for j in range(n))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("qaplib")
    ap.add_argument("--strategy", default="best")
    ap.add_argument("--refine", default="tabu")
    ap.add_argument("--max-n", type=int, default=64)
    ap.add_argument("--tm-map", default="build/bin/tm-map")
    ap.add_argument("--extra", default="")
    args = ap.parse_args()
    bks = {}
    with open(os.path.join(args.qaplib, "BKS.tsv")) as f:
        next(f)
        for line in f:
            name, n, value, _ = line.split("\t")
            bks[name] = int(value)
    gaps, times, skipped = [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        for name in sorted(bks):
            path = os.path.join(args.qaplib, "dat", name + ".dat")
            if not os.path.exists(path):
                continue
            n, a, b = read_dat(path)
            if n >= args.max_n:
                continue
            if is_distance(b) and all(x >= 0 for row in a for x in row):
                flow, dist = a, b
            elif is_distance(a) and all(x >= 0 for row in b for x in row):
                flow, dist = b, a
            else:
                skipped.append(name)
                continue
            mat = os.path.join(tmp, name + ".mat")
            dst = os.path.join(tmp, name + ".dist")
            with open(mat, "w") as f:
                f.write("\n".join(" ".join(str(x) if i != j else "0" for j, x in enumerate(row))
                                  for i, row in enumerate(flow)) + "\n")
            with open(dst, "w") as f:
                f.write(f"{n}\n" + "\n".join(" ".join(map(str, row)) for row in dist) + "\n")
            cmd = [args.tm_map, "-t", dst, "-c", mat, "-s", args.strategy, "--refine", args.refine,
                   "--format", "json", "-q"] + args.extra.split()
            start = time.time()
            out = subprocess.run(cmd, capture_output=True, text=True)
            elapsed = time.time() - start
            if out.returncode != 0:
                print(f"{name}: tm-map failed: {out.stderr.strip()}", file=sys.stderr)
                continue
            value = json.loads(out.stdout)["hop_bytes"]
            gap = 100.0 * (value - bks[name]) / bks[name] if bks[name] else 0.0
            gaps.append(gap)
            times.append(elapsed)
            print(f"{name:10s} n={n:3d} bks={bks[name]:>12d} got={value:>12d} gap={gap:7.3f}% {elapsed:6.2f}s")
    if gaps:
        print(f"instances {len(gaps)}  median gap {statistics.median(gaps):.3f}%  mean gap "
              f"{statistics.mean(gaps):.3f}%  max {max(gaps):.3f}%  median time {statistics.median(times):.2f}s  "
              f"max time {max(times):.2f}s")
    if skipped:
        print(f"skipped (no distance matrix): {' '.join(skipped)}")


if __name__ == "__main__":
    main()
