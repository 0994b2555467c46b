#!/usr/bin/env python3
"""How well the predicted time orders mappings on GPU machines (issue #65):
the phased time tm-map predicts (`predicted_time_s`) against SimGrid's SMPI
replay of the same phases (`tm-sim --app replay`: each rank posts a phase's
receives and sends, waits for them, and goes on to the next; links shared
max-min), for in-order, scotch, greedy and rb on the machines of
gpu_machines.py at 64, 128 and 256 GPUs, NPB BT, SP, CG and MG (class D).

LU is left out: the replay posts a sweep's sends in the same round as the
receives they would forward, so its sweeps are rounds of exchanges, where
LU waits for a plane before passing it on (the pipelined sweep the model
times, checked against SimGrid's wavefront proxy on Tianhe-3 in
docs/measurements.md).

Reported: predicted / replayed per strategy (median, range), and the pairs
of mappings of one case more than 0.5 % apart in the replay that the
prediction orders the other way, with both ratios.

  benchmarks/quality/gpu_replay.py [--bin build/bin] [--out benchmarks/results]
"""
import json
import os
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gpu_machines import machine_args, ranks_of, run_all, traffic_of  # noqa: E402  (the same machines)

PATTERNS = ["bt", "sp", "cg", "mg"]
SIZES = [64, 128, 256]
STRATEGIES = ["inorder", "scotch", "greedy", "rb"]
APART = 0.005  # replayed times closer than this are not ordered


def run_case(binary, folder, machine, pattern, gpus):
    ranks = ranks_of(pattern, gpus)
    traffic = traffic_of(binary, folder, pattern, ranks)
    args = machine_args(machine, gpus)
    predicted = subprocess.run([os.path.join(binary, "tm-map"), *args, "-c", traffic, "--compare",
                                ",".join(STRATEGIES), "--format", "json", "-q"],
                               check=True, capture_output=True, text=True).stdout
    replayed = subprocess.run([os.path.join(binary, "tm-sim"), *args, "-c", traffic, "-s",
                               ",".join(STRATEGIES), "--app", "replay", "--format", "json"],
                              check=True, capture_output=True, text=True).stdout
    pred = {r["strategy"]: r["predicted_time_s"] for r in json.loads(predicted)["results"]}
    sim = {r["mapping"]: r["app_time_s"] for r in json.loads(replayed)["runs"]}
    return {"machine": machine, "pattern": pattern, "gpus": gpus, "ranks": ranks,
            **{f"{s}_predicted": pred[s] for s in STRATEGIES}, **{f"{s}_replayed": sim[s] for s in STRATEGIES}}


def write_report(rows, path, note):
    lines = ["# GPU machines: the predicted time against SMPI's replay", "",
             "Made by `benchmarks/quality/gpu_replay.py` (issue #65): for each case, the predicted time of each "
             "strategy's mapping (tm-map, the phases rank by rank) and SimGrid's replay of the same phases "
             "(`tm-sim --app replay`). LU is left out (the replay does not wait for a plane before passing it on: "
             "see the script).", ""]
    if note:
        lines += [note, ""]
    lines += ["| strategy | patterns | cases | predicted / replayed: median | min | max |", "|---|---|---:|---:|---:|---:|"]
    for s in STRATEGIES:
        for group in (("bt", "sp"), ("cg", "mg")):
            q = sorted(r[f"{s}_predicted"] / r[f"{s}_replayed"] for r in rows if r["pattern"] in group)
            if q:
                lines.append(f"| {s} | {', '.join(group)} | {len(q)} | {statistics.median(q):.3f} | {q[0]:.3f} | "
                             f"{q[-1]:.3f} |")
    agree, wrong = 0, []
    for r in rows:
        for i, a in enumerate(STRATEGIES):
            for b in STRATEGIES[i + 1:]:
                sim = r[f"{a}_replayed"] / r[f"{b}_replayed"]
                model = r[f"{a}_predicted"] / r[f"{b}_predicted"]
                if abs(sim - 1) < APART:
                    continue
                if (model < 1) == (sim < 1) and model != 1:
                    agree += 1
                else:
                    wrong.append((max(model, 1 / model), f"{r['machine']}, {r['pattern']} at {r['gpus']}: {a}/{b} "
                                  f"replayed {sim:.3f}, predicted {model:.3f}"))
    lines += ["", f"Pairs of mappings more than {APART:.1%} apart in the replay: {agree} ordered as the replay, "
              f"{len(wrong)} the other way or equal.", ""]
    lines += [f"- {text}" for _, text in sorted(wrong)]
    lines.append("")
    with open(path, "w") as f:
        f.write("\n".join(lines))


def main():
    run_all(__doc__, "gpu_replay", run_case,
            lambda r: " ".join(f"{s} {r[f'{s}_predicted'] / r[f'{s}_replayed']:.3f}" for s in STRATEGIES),
            write_report, PATTERNS, SIZES)


if __name__ == "__main__":
    main()
