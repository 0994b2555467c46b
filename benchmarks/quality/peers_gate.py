#!/usr/bin/env python3
"""The peers' rows as a gate for changes to the engine (issue #63): runs
tm-map on every row of peers.json (the same traffic and machine as
peers.py made them) and compares its hop-bytes with the best valid peer's
recorded there (Mt-KaHyPar, SharedMap, KaHIP's mapping, scotch_gmap), so a
change that trades quality for speed is checked against the peers without
building them again. Prints one line a row and a summary; exits 1 when a
row is above its best peer.

  benchmarks/quality/peers_gate.py [--bin build/bin] [--peers benchmarks/results/peers.json]
                                   [--preset quality] [-- EXTRA tm-map ARGS]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from peers import MACHINES, score, traffic  # noqa: E402
from quality_mode import timed  # noqa: E402

PEERS = ("mtkahypar", "sharedmap", "kaffpa", "gmap")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", default="build/bin")
    ap.add_argument("--peers", default="benchmarks/results/peers.json")
    ap.add_argument("--preset", default="quality")
    ap.add_argument("--runs", type=int, default=1, help="runs of each command; the median time is kept")
    ap.add_argument("--rows", default="", help="only rows whose 'n traffic machine' contains this text")
    ap.add_argument("extra", nargs="*", help="further tm-map arguments (after --)")
    args = ap.parse_args()
    tm_map, tm_gen, tm_eval = (os.path.join(args.bin, t) for t in ("tm-map", "tm-gen", "tm-eval"))
    work = tempfile.mkdtemp(prefix="tmap-gate-")
    above, total_time, rows = [], 0.0, 0
    for row in json.load(open(args.peers)):
        n, tname, label = row["n"], row["traffic"], row["machine"]
        if args.rows and args.rows not in f"{n} {tname} {label}":
            continue
        peers = [row[p]["hop_bytes"] for p in PEERS if p in row and row[p].get("valid")]
        if not peers:
            continue
        spec, pes = MACHINES[label]
        base = os.path.join(work, f"{n}-{tname.replace(' ', '-')}")
        if not os.path.exists(f"{base}.coo"):
            subprocess.run([tm_gen] + traffic(n)[tname] + ["--output", f"{base}.coo"], check=True)
        out = os.path.join(work, "out.map")
        cmd = [tm_map, "-t", spec, "-c", f"{base}.coo", "--output", out, "-q", "-p", "1", "--oversub", str(n // pes),
               "--objective", "hop-bytes", "-P", args.preset] + args.extra
        secs = statistics.median(timed(cmd) for _ in range(args.runs))
        value, valid = score(tm_eval, spec, f"{base}.coo", out, n // pes, n)
        best = min(peers)
        old = row["quality"]["hop_bytes"]
        flag = "ok" if valid and value <= best else "ABOVE"
        if flag != "ok":
            above.append(f"{n} {tname} {label}")
        total_time += secs
        rows += 1
        print(f"{n:>5} {tname:<20} {label:<11} {secs:6.3f} s  new/best peer {value / best:.4f}  "
              f"new/recorded quality {value / old:.4f}  {flag}", flush=True)
    print(f"{rows} rows, {len(above)} above the best peer, {total_time:.2f} s of tm-map in all")
    for r in above:
        print("  above:", r)
    return 1 if above else 0


if __name__ == "__main__":
    sys.exit(main())
