#!/usr/bin/env python3
"""GPU machines (issue #65): a rank per GPU (--pe gpu) on clusters of the
example GPU nodes (examples/gpu), the six NPB-like application patterns of
tm-gen (cg, bt, sp, lu, mg, ft; class D bytes, in phases) at 32 to 256 GPUs.
tm-map's default against in-order and -s scotch in one `--compare` run per
case: hop-bytes, and the predicted time of the phases over the machine's
links (NVLink or xGMI widths, PCIe, the host's links, NICs, the network:
routing/node_fabric.hpp), both as tm-map's report gives them. bt and sp
take the largest square of ranks that fits (25 of 32 GPUs, 121 of 128).

  benchmarks/quality/gpu_machines.py [--bin build/bin] [--out benchmarks/results]
"""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from quality_mode import report_options, rewrote_report  # noqa: E402  (the scripts' shared options)

EXAMPLES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples", "gpu")

# label -> (node, --pe, GPUs a node, {GPUs: network})
MACHINES = {
    "DGX-like (NVSwitch) on a fat tree": ("dgx-a100.smi.txt", "", 8, {
        32: "fattree:2;2,2;1,2;1,1", 64: "fattree:2;4,2;1,2;1,1", 128: "fattree:2;4,4;1,2;1,1",
        256: "fattree:2;8,4;1,2;1,1"}),
    "DGX-1 (cube-mesh) on a fat tree": ("dgx1.smi.txt", "", 8, {
        32: "fattree:2;2,2;1,2;1,1", 64: "fattree:2;4,2;1,2;1,1", 128: "fattree:2;4,4;1,2;1,1",
        256: "fattree:2;8,4;1,2;1,1"}),
    "4-GPU NVLink mesh on a torus": ("nvlink4.smi.txt", "", 4, {
        32: "torus:2,4", 64: "torus:4,4", 128: "torus:4,8", 256: "torus:8,8"}),
    "8 xGMI GCDs (hwloc XML) on a dragonfly": ("mi250x.xml", "gpu", 8, {
        32: "dragonfly:2,1;1,1;2,1;1", 64: "dragonfly:2,1;2,1;2,1;1", 128: "dragonfly:2,1;2,1;2,1;2",
        256: "dragonfly:4,1;2,1;2,1;2"}),
}
PATTERNS = ["cg", "bt", "sp", "lu", "mg", "ft"]
SIZES = [32, 64, 128, 256]
STRATEGIES = ["inorder", "scotch", "auto"]


def ranks_of(pattern, gpus):
    if pattern in ("bt", "sp"):
        return int(math.isqrt(gpus)) ** 2
    return gpus


def traffic_of(binary, folder, pattern, ranks):
    """The pattern's traffic in phases for `ranks` ranks (tm-gen), made once per folder."""
    traffic = os.path.join(folder, f"{pattern}{ranks}.phases")
    if not os.path.exists(traffic):
        subprocess.run([os.path.join(binary, "tm-gen"), pattern, "--ranks", str(ranks), "--output", traffic],
                       check=True, capture_output=True)
    return traffic


def machine_args(machine, gpus):
    """The tools' options naming `machine` at `gpus` GPUs."""
    node, pe, _, networks = MACHINES[machine]
    return ["-t", networks[gpus], "--node", os.path.join(EXAMPLES, node)] + (["--pe", pe] if pe else [])


def run_all(description, stem, run_case, progress, write_report, patterns, sizes):
    """The scripts' main: every machine x size x pattern, run_case(bin, folder, machine, pattern, gpus) each
    (progress(row) printed), rows to STEM.json, write_report(rows, STEM.md, note)."""
    ap = argparse.ArgumentParser(description=description, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", default="build/bin")
    ap.add_argument("--out", default="benchmarks/results")
    report_options(ap)
    args = ap.parse_args()
    if rewrote_report(args, stem, write_report):
        return
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for machine in MACHINES:
            for gpus in sizes:
                for pattern in patterns:
                    rows.append(run_case(args.bin, folder, machine, pattern, gpus))
                    print(f"{machine} {pattern} {gpus}: {progress(rows[-1])}", flush=True)
    with open(os.path.join(args.out, f"{stem}.json"), "w") as f:
        json.dump(rows, f, indent=1)
    write_report(rows, os.path.join(args.out, f"{stem}.md"), args.note)


def run_case(binary, folder, machine, pattern, gpus):
    ranks = ranks_of(pattern, gpus)
    traffic = traffic_of(binary, folder, pattern, ranks)
    cmd = [os.path.join(binary, "tm-map"), *machine_args(machine, gpus), "-c", traffic, "--compare",
           ",".join(STRATEGIES), "--format", "json", "-q"]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    rows = {r["strategy"]: r for r in json.loads(out)["results"]}
    return {"machine": machine, "pattern": pattern, "gpus": gpus, "ranks": ranks,
            **{f"{s}_hop_bytes": rows[s]["hop_bytes"] for s in STRATEGIES},
            **{f"{s}_time": rows[s]["predicted_time_s"] for s in STRATEGIES},
            "auto_seconds": rows["auto"]["time_s"]}


def write_report(rows, path, note):
    lines = ["# GPU machines: a rank per GPU, the default against in-order and Scotch", "",
             "Made by `benchmarks/quality/gpu_machines.py` (issue #65). Each case is one `tm-map --compare "
             "inorder,scotch,auto` run on a cluster of example GPU nodes (`examples/gpu`), the NPB-like "
             "patterns of `tm-gen` (class D, in phases); hop-bytes and the predicted time of the phases over the "
             "machine's links (GPU links by width, PCIe, the host's links, NICs, the network), as tm-map reports "
             "them. Ratios below 1: the default is better.", ""]
    if note:
        lines += [note, ""]
    lines += ["| machine | pattern | GPUs (ranks) | hop-bytes vs in-order | vs scotch | time vs in-order | vs scotch "
              "| default's run (s) |", "|---|---|---|---:|---:|---:|---:|---:|"]
    worst = {"hop_inorder": 0.0, "hop_scotch": 0.0, "time_inorder": 0.0, "time_scotch": 0.0}
    above = []
    for r in rows:
        ratios = {"hop_inorder": r["auto_hop_bytes"] / r["inorder_hop_bytes"],
                  "hop_scotch": r["auto_hop_bytes"] / r["scotch_hop_bytes"],
                  "time_inorder": r["auto_time"] / r["inorder_time"],
                  "time_scotch": r["auto_time"] / r["scotch_time"]}
        for k, v in ratios.items():
            worst[k] = max(worst[k], v)
        over = [f"{k.replace('_', ' vs ')} {v:.4f}" for k, v in ratios.items() if v > 1 + 1e-9]
        if over:
            above.append(f"{r['machine']}, {r['pattern']} at {r['gpus']}: " + ", ".join(over))
        lines.append(f"| {r['machine']} | {r['pattern']} | {r['gpus']} ({r['ranks']}) | {ratios['hop_inorder']:.3f} | "
                     f"{ratios['hop_scotch']:.3f} | {ratios['time_inorder']:.3f} | {ratios['time_scotch']:.3f} | "
                     f"{r['auto_seconds']:.3f} |")
    lines += ["", f"{len(rows)} cases. Largest ratios: hop-bytes {worst['hop_inorder']:.3f} of in-order's, "
              f"{worst['hop_scotch']:.3f} of Scotch's; predicted time {worst['time_inorder']:.3f} of in-order's, "
              f"{worst['time_scotch']:.3f} of Scotch's."]
    lines += ["", "Above a reference (hop = hop-bytes, time = predicted time):", ""]
    lines += [f"- {a}" for a in above] if above else ["- none"]
    lines.append("")
    with open(path, "w") as f:
        f.write("\n".join(lines))


def main():
    run_all(__doc__, "gpu_machines", run_case,
            lambda r: (f"hop-bytes {r['auto_hop_bytes']} (in-order {r['inorder_hop_bytes']}, scotch "
                       f"{r['scotch_hop_bytes']}), time {r['auto_time']:.4g} (in-order {r['inorder_time']:.4g}, "
                       f"scotch {r['scotch_time']:.4g})"),
            write_report, PATTERNS, SIZES)


if __name__ == "__main__":
    main()
