#!/usr/bin/python3
"""The OHTMA paper's Fig. 3 (communication time), simulated with SimGrid.

    benchmarks/paper/run_fig3.py [--bin build/bin] [--out benchmarks/results] [--quick]

The Fig. 2 settings (run_fig2.py: NPB class D patterns from tm-gen, 16 ranks
per node on tianhe3:8x8, a contiguous allocation) at 256, 1024 and 4096
ranks; for each application and strategy, `tm-map --compare ... --simulate`
gives the simulated time of one communication round (every rank sends all
its messages at once; SimGrid CM02 flow model, 12.5 GB/s and 0.5 us per hop
on every link, 50 GB/s inside a node: tm-map's defaults), beside hop-bytes.
Writes fig3.csv, fig3.png (time normalised to in-order, per application)
and fig3.md (tables beside the paper's numbers, and where simulated time
and hop-bytes rank the strategies differently).
"""
import argparse
import csv
import json
import math
import os
import statistics
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.realpath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "tools", "tm-report"))
import run_fig2 as fig2  # noqa: E402  (the same applications, machine and allocations)
import tmap_plots as plots  # noqa: E402

STRATEGIES = fig2.PAPER + ["scotch", "treematch", "ohtma+"]
SIZES = [256, 1024, 4096]
# The paper's communication-time savings (text of section 5.3), against in-order unless said.
PAPER_TIME = {"bt": "13.5 % vs in-order", "sp": "up to 20 %", "cg": "\"significant\" (no figure)",
              "lu": "(no figure)", "snap": "16.7 % vs greedy", "sweep3d": "5.9 % vs greedy"}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default="build/bin")
    ap.add_argument("--out", default="benchmarks/results")
    ap.add_argument("--quick", action="store_true", help="256 and 1024 ranks only")
    args = ap.parse_args()
    sizes = SIZES[:2] if args.quick else SIZES
    rows = []
    start = time.time()
    with tempfile.TemporaryDirectory() as tmp:
        for app in fig2.APPS:
            for n in sizes:
                matrix = os.path.join(tmp, f"{app}{n}.coo")
                fig2.run([os.path.join(args.bin, "tm-gen"), app, "--ranks", str(n), "--output", matrix])
                t0 = time.time()
                out = fig2.run([os.path.join(args.bin, "tm-map"), "-t", fig2.MACHINE, "-c", matrix, "--alloc",
                                fig2.allocation("contiguous", n // fig2.CORES), "--compare", ",".join(STRATEGIES),
                                "--simulate", "--format", "json", "-q"])
                results = json.loads(out)["results"]
                base = next(r for r in results if r["strategy"] == "inorder")
                for r in results:
                    rows.append({"app": app, "ranks": n, "strategy": r["strategy"], "hop_bytes": r["hop_bytes"],
                                 "hop_vs_inorder": r["hop_bytes"] / base["hop_bytes"],
                                 "sim_time_s": r["sim_time_s"], "sim_vs_inorder": r["sim_time_s"] / base["sim_time_s"],
                                 "mc": r.get("mc")})
                print(f"{app} {n} ranks: {time.time() - t0:.1f} s (total {time.time() - start:.0f} s)",
                      file=sys.stderr, flush=True)
    with open(os.path.join(args.out, "fig3.csv"), "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        writer.writeheader()
        writer.writerows(rows)
    plot(rows, args.out, sizes)
    summary(rows, args.out, sizes)


def plot(rows, out_dir, sizes):
    plt = plots.plt
    fig, axes = plt.subplots(2, 3, figsize=(16, 9))
    for ax, app in zip(axes.flat, fig2.APPS):
        width = 0.8 / len(STRATEGIES)
        every = []
        for k, s in enumerate(STRATEGIES):
            values = [next(float(r["sim_vs_inorder"]) for r in rows if r["app"] == app and int(r["ranks"]) == n
                           and r["strategy"] == s) for n in sizes]
            every += values
            colour, hatch = plots.style(s)
            ax.bar([i + k * width for i in range(len(sizes))], values, width, label=s, color=colour, hatch=hatch,
                   edgecolor="white", linewidth=0.3)
        plots.ratio_log_axis(ax, every)  # ratios from 0.5 to 15
        label_panel(ax, f"({'abcdef'[fig2.APPS.index(app)]}) {app.upper() if len(app) == 2 else app}", sizes, width,
                    "simulated time / in-order")
    finish_figure(plt, fig, axes, len(STRATEGIES),
                  "Simulated communication time on Tianhe-3 (SimGrid), contiguous allocation, normalised to in-order",
                  os.path.join(out_dir, "fig3.png"))


def finish_figure(plt, fig, axes, columns, title, path):
    """The strategies' legend under the panels, the title, the PNG."""
    handles, labels = axes.flat[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=columns, fontsize=8, frameon=False)
    fig.suptitle(title)
    fig.tight_layout(rect=(0, 0.05, 1, 1))
    fig.savefig(path, dpi=80)
    plt.close(fig)


def label_panel(ax, title, sizes, width, ylabel):
    """One application's panel: process counts under the bar groups, in-order's line at 1."""
    ax.set_xticks([i + 0.4 - width / 2 for i in range(len(sizes))])
    ax.set_xticklabels([str(n) for n in sizes])
    ax.axhline(1.0, color="black", linewidth=0.6)
    ax.set_title(title)
    ax.set_xlabel("processes")
    ax.set_ylabel(ylabel)
    ax.grid(True, axis="y", linewidth=0.3)


def summary(rows, out_dir, sizes):
    def mean(app, s, key):
        v = [float(r[key]) for r in rows if r["app"] == app and r["strategy"] == s]
        return statistics.mean(v) if v else float("nan")

    lines = ["# The OHTMA paper's Fig. 3, simulated with SimGrid", "",
             f"Machine `{fig2.MACHINE}`, 16 ranks per node, contiguous allocation, NPB class D patterns from "
             f"`tm-gen` at {', '.join(map(str, sizes))} ranks. Simulated time of one round (all messages at once; "
             "SimGrid 3.32 CM02, 12.5 GB/s and 0.5 us per hop on every link, 50 GB/s inside a node), normalised "
             "to in-order and averaged over the process counts. Regenerate with `benchmarks/paper/run_fig3.py`.", "",
             "| strategy | " + " | ".join(fig2.APPS) + " |", "|---|" + "---:|" * len(fig2.APPS)]
    for s in STRATEGIES:
        lines.append(f"| {s} | " + " | ".join(f"{mean(a, s, 'sim_vs_inorder'):.3f}" for a in fig2.APPS) + " |")
    lines += ["", "## Reductions of simulated time against in-order, beside the paper's", "",
              "| application | paper (communication time) | ohtma | greedy | scotch | best of all |", "|---|---|---:|---:|---:|---:|"]
    for app in fig2.APPS:
        best = []
        for n in sizes:
            case = [float(r["sim_vs_inorder"]) for r in rows if r["app"] == app and int(r["ranks"]) == n]
            best.append(1 - min(case))
        lines.append(f"| {app} | {PAPER_TIME[app]} | {100 * (1 - mean(app, 'ohtma', 'sim_vs_inorder')):.1f} % | "
                     f"{100 * (1 - mean(app, 'greedy', 'sim_vs_inorder')):.1f} % | "
                     f"{100 * (1 - mean(app, 'scotch', 'sim_vs_inorder')):.1f} % | {100 * statistics.mean(best):.1f} % |")
    lines += ["", "## Where simulated time and hop-bytes disagree", "",
              "Cases where the strategy with the fewest hop-bytes is not the one with the shortest simulated time:", ""]
    disagreements = 0
    for app in fig2.APPS:
        for n in sizes:
            case = [r for r in rows if r["app"] == app and int(r["ranks"]) == n]
            by_hops = min(case, key=lambda r: (int(r["hop_bytes"]), r["strategy"]))
            by_time = min(case, key=lambda r: (float(r["sim_time_s"]), r["strategy"]))
            if float(by_hops["sim_time_s"]) > float(by_time["sim_time_s"]) * 1.001:
                disagreements += 1
                lines.append(f"- {app} {n}: fewest hop-bytes {by_hops['strategy']} "
                             f"({float(by_hops['sim_vs_inorder']):.3f} of in-order's time, MC {by_hops['mc']}), "
                             f"shortest time {by_time['strategy']} ({float(by_time['sim_vs_inorder']):.3f}, MC {by_time['mc']})")
    if disagreements == 0:
        lines.append("- none: on these cases the fewest hop-bytes also gave the shortest simulated time.")
    # Per strategy: time follows the busiest link (MC) more than hop-bytes.
    base = {(r["app"], int(r["ranks"])): r for r in rows if r["strategy"] == "inorder"}
    logs = []
    table = []
    for r in rows:
        b = base[(r["app"], int(r["ranks"]))]
        h, t = float(r["hop_vs_inorder"]), float(r["sim_vs_inorder"])
        m = float(r["mc"]) / float(b["mc"]) if b["mc"] and float(b["mc"]) > 0 else float("nan")
        if r["strategy"] != "inorder":
            logs.append((math.log(h), math.log(t), math.log(m)))
        if abs(t - h) > 0.2 * max(h, t):
            table.append(f"| {r['app']} | {r['ranks']} | {r['strategy']} | {h:.3f} | {t:.3f} | {m:.3f} |")
    hop_corr = statistics.correlation([x[0] for x in logs], [x[1] for x in logs])
    mc_corr = statistics.correlation([x[2] for x in logs], [x[1] for x in logs])
    lines += ["", "Per strategy, the simulated time follows the busiest link's load (MC) more than hop-bytes: over all "
              f"cases, the correlation of log(time ratio) with log(MC ratio) is {mc_corr:.2f}, with log(hop-bytes "
              f"ratio) {hop_corr:.2f}. Cases where the time ratio and the hop-bytes ratio differ by more than 20 %:",
              "", "| app | ranks | strategy | hop-bytes / in-order | time / in-order | MC / in-order |",
              "|---|---:|---|---:|---:|---:|"] + table
    lines += ["", "![simulated time](fig3.png)", ""]
    with open(os.path.join(out_dir, "fig3.md"), "w") as f:
        f.write("\n".join(lines))


if __name__ == "__main__":
    main()
