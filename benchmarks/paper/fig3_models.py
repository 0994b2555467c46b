#!/usr/bin/python3
"""How well each static model orders the mappings of Fig. 3's SMPI runs.

    benchmarks/paper/fig3_models.py [--bin build/bin] [--out benchmarks/results]

For every (application, size) of fig3_smpi.jsonl (the default link model),
each strategy's mapping is made again by `tm-map --compare` on the
application's traffic in phases (`tm-gen APP --output X.phases`), and kept
only where it is the mapping SimGrid ran (its recorded mapping hash, else
its hop-bytes). Each model's value: hop-bytes, the busiest link (MC), the
one-round time (`--simulate`, SimGrid's flow model, from the row) and the
phased time (`predicted_time_s`: each phase one round, one after another).
Reported per application: the correlation of log(time / in-order's) with
log(value / in-order's); and over all cases, for the pairs of mappings whose
simulated times are within 15 % of each other but differ by more than
0.5 %, how often a model orders the pair as SimGrid does, the other way, or
cannot tell (equal values). Writes fig3_models.md.
"""
import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))
import run_fig2 as fig2  # noqa: E402  (the machine and allocations)
from run_fig3_smpi import mapping_hash  # noqa: E402  (as the SMPI rows record it)

APPS = ["bt", "cg", "lu", "sp", "sweep3d", "snap"]
MODELS = ["hop-bytes", "MC", "one round", "phased", "the default's rule"]
SAME_TIME = 0.01    # the default: predicted times within 1 % are the same, then the fewer hop-bytes
CLOSE = 1.15        # pairs within this ratio of simulated time ...
DIFFERENT = 0.005   # ... and at least this far apart


def correlation(x, y):
    if len(x) < 3:
        return float("nan")
    mx, my = statistics.mean(x), statistics.mean(y)
    sx = math.sqrt(sum((a - mx) ** 2 for a in x))
    sy = math.sqrt(sum((b - my) ** 2 for b in y))
    return sum((a - mx) * (b - my) for a, b in zip(x, y)) / (sx * sy) if sx and sy else float("nan")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", default="build/bin")
    ap.add_argument("--out", default="benchmarks/results")
    args = ap.parse_args()
    rows = [json.loads(line) for line in open(os.path.join(args.out, "fig3_smpi.jsonl"))]
    rows = [r for r in rows if r.get("model", "L0.5us_B12.5GBs") == "L0.5us_B12.5GBs"]
    # A run --timeout stopped has a lower bound, not a time: nothing to order by.
    bounds = [f"{r['app']} {r['ranks']} {r['strategy']}" for r in rows if r.get("stopped")]
    rows = [r for r in rows if not r.get("stopped")]
    by_case = {}
    for r in rows:
        by_case.setdefault((r["app"], r["ranks"]), {})[r["strategy"]] = r
    values = {}  # (app, n, strategy) -> {model: value}
    kept = dropped = 0
    stale = []  # the rows whose mapping a strategy no longer makes
    with tempfile.TemporaryDirectory() as tmp:
        for (app, n), by in sorted(by_case.items()):
            if "inorder" not in by:
                continue
            traffic = os.path.join(tmp, f"{app}{n}.phases")
            subprocess.run([os.path.join(args.bin, "tm-gen"), app, "--ranks", str(n), "--output", traffic], check=True)
            done = subprocess.run([os.path.join(args.bin, "tm-map"), "-t", fig2.MACHINE, "--alloc",
                                   fig2.allocation("contiguous", n // fig2.CORES), "-c", traffic, "--compare",
                                   ",".join(by), "--format", "json", "-q"], capture_output=True, text=True, check=True)
            for made in json.loads(done.stdout)["results"]:
                r = by[made["strategy"]]
                sha1 = mapping_hash(made["mapping"])
                same = sha1 == r["mapping_sha1"] if "mapping_sha1" in r else made["hop_bytes"] == r["hop_bytes"]
                if not same:
                    dropped += 1
                    stale.append(f"{app} {n} {made['strategy']}")
                    continue
                kept += 1
                values[(app, n, made["strategy"])] = {"hop-bytes": r["hop_bytes"], "MC": r["mc"],
                                                      "one round": r["round_time_s"],
                                                      "phased": made["predicted_time_s"], "time": r["app_time_s"]}
    lines = ["# Which static model orders Fig. 3's mappings as SimGrid does", "",
             "`benchmarks/paper/fig3_models.py` on `fig3_smpi.jsonl` (default link model): each strategy's mapping made "
             "again on the application's traffic in phases and kept where it is the mapping SimGrid ran "
             f"({kept} kept, {dropped} not the same mapping any more: {', '.join(stale) or 'none'}; "
             f"left out, stopped by the time limit: {', '.join(bounds) or 'none'}). "
             "One round: SimGrid's flow model of the whole "
             "matrix at once (`--simulate`); phased: the predicted time with the traffic's phases one after another "
             "(`predicted_time_s` of a `.phases` traffic).", "",
             "## Correlation of log(time / in-order's) with log(value / in-order's)", "",
             "| application | mappings | " + " | ".join(MODELS[:-1]) + " |", "|---|---:|" + "---:|" * (len(MODELS) - 1)]
    for app in APPS:
        pts = [(k, v) for k, v in values.items() if k[0] == app and k[2] != "inorder" and (app, k[1], "inorder") in values]
        if not pts:
            continue
        t = [math.log(v["time"] / values[(app, k[1], "inorder")]["time"]) for k, v in pts]
        cells = []
        for m in MODELS[:-1]:
            x = [math.log(v[m] / values[(app, k[1], "inorder")][m]) for k, v in pts]
            cells.append(f"{correlation(t, x):.3f}")
        lines.append(f"| {app} | {len(pts)} | " + " | ".join(cells) + " |")
    lines += ["", "## The predicted time against SimGrid's (predicted / simulated)", "",
              "| application | mappings | one round: median | min | max | phased: median | min | max |",
              "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for app in APPS:
        pts = [v for k, v in values.items() if k[0] == app]
        if not pts:
            continue
        cells = []
        for m in ("one round", "phased"):
            q = sorted(v[m] / v["time"] for v in pts)
            cells += [f"{statistics.median(q):.3f}", f"{q[0]:.3f}", f"{q[-1]:.3f}"]
        lines.append(f"| {app} | {len(pts)} | " + " | ".join(cells) + " |")
    tally = {m: [0, 0, 0] for m in MODELS}
    wrong = {m: [] for m in MODELS}
    for (app, n), _ in sorted(by_case.items()):
        items = sorted((k[2], v) for k, v in values.items() if k[0] == app and k[1] == n)
        for i in range(len(items)):
            for j in range(i + 1, len(items)):
                (s1, v1), (s2, v2) = items[i], items[j]
                t1, t2 = v1["time"], v2["time"]
                if max(t1, t2) / min(t1, t2) > CLOSE or abs(t1 - t2) / min(t1, t2) < DIFFERENT:
                    continue
                for m in MODELS:
                    if m == MODELS[-1]:
                        # The phased time, but within 1 % of each other by hop-bytes.
                        near = abs(v1["phased"] - v2["phased"]) <= SAME_TIME * min(v1["phased"], v2["phased"])
                        a, b = (v1["hop-bytes"], v2["hop-bytes"]) if near else (v1["phased"], v2["phased"])
                    else:
                        a, b = v1[m], v2[m]
                    if abs(a - b) <= 1e-9 * max(abs(a), abs(b)):
                        tally[m][2] += 1
                    elif (a - b) * (t1 - t2) > 0:
                        tally[m][0] += 1
                    else:
                        tally[m][1] += 1
                        wrong[m].append(f"{app} {n} {s1}/{s2} {t1 / t2:.3f} ({m} {a / b:.3f})")
    lines += ["", f"## Order of close pairs (simulated times within {CLOSE - 1:.0%}, apart by more than "
              f"{DIFFERENT:.1%})", "", "| model | as SimGrid | the other way | equal values |", "|---|---:|---:|---:|"]
    for m in MODELS:
        lines.append(f"| {m} | {tally[m][0]} | {tally[m][1]} | {tally[m][2]} |")
    lines += ["", "The default's rule: the phased time, but predictions within 1 % of each other go by hop-bytes "
              "(as `auto` chooses).", "",
              "Pairs the phased time orders the other way (time ratio, the model's ratio): " +
              ("; ".join(wrong["phased"]) or "none") + ".", "",
              "Pairs the default's rule orders the other way: " + ("; ".join(wrong[MODELS[-1]]) or "none") + ".", ""]
    with open(os.path.join(args.out, "fig3_models.md"), "w") as f:
        f.write("\n".join(lines))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
