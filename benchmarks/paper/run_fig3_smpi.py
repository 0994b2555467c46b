#!/usr/bin/python3
"""The OHTMA paper's Fig. 3 (communication time) from application runs under
SimGrid's SMPI (issue 32).

    benchmarks/paper/run_fig3_smpi.py [--bin build/bin] [--out benchmarks/results]
        [--sizes 256,1024,4096] [--apps bt,cg,...] [--strategies inorder,...] [--jobs 2] [--fresh]
        [--latency-us 0.5 --link-gbs 12.5] [--sim-bw side=200]   (other values: sensitivity rows, reported apart)
        [--rerun]   (run the asked cells again, replacing their rows: after a strategy changed)
        [--timeout s]   (per simulation; a run it stops is kept as how far its clock got, a lower bound marked
                         ≥ in the table, an arrow in the figure; --rerun with a longer one replaces it)

For each application (the proxies of tools/tm-sim/proxies, whose traffic is
tm-gen's pattern: a ctest checks it), process count and strategy, `tm-sim`
runs the proxy under smpirun on the Fig. 2 machine and allocation
(run_fig2.py: tianhe3:8x8, 16 ranks per node, contiguous nodes) and reports
the simulated application time; `tm-map --compare --simulate` gives the
same mappings' hop-bytes, busiest link (MC) and one-round time beside it.
Rows go to fig3_smpi.jsonl as they finish (a rerun continues where the last
stopped; --fresh starts over); fig3_smpi.md, .csv and .png are written from
all rows: time against in-order beside the paper's reductions, the
direction of OHTMA's effect, and which metric predicts the application time
best per application.
"""
import argparse
import concurrent.futures
import csv
import hashlib
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.realpath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "tools", "tm-report"))
import run_fig2 as fig2  # noqa: E402  (the applications, machine and allocations)
import run_fig3 as fig3  # noqa: E402  (the paper's communication-time numbers)

STRATEGIES = ["inorder", "roundrobin", "greedy", "rcm", "ohtma", "ohtma+", "scotch", "auto", "best"]
SIZES = [256, 1024, 4096]
# The direction of OHTMA's effect on communication time the paper reports
# (section 5.3): lower than in-order (BT, SP, CG, LU) or than greedy (SNAP, Sweep3D).
PAPER_OHTMA = {"bt": ("inorder", "lower"), "sp": ("inorder", "lower"), "cg": ("inorder", "lower"),
               "lu": ("inorder", "lower"), "snap": ("greedy", "lower"), "sweep3d": ("greedy", "lower")}


def run(cmd, timeout=None, ok=(0,)):
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    if done.returncode not in ok:
        raise RuntimeError(f"{' '.join(cmd)}: exit {done.returncode}: {done.stderr.strip()[-400:]}")
    return done.stdout


# The link model: tm-sim's defaults (the OHTMA paper and its interconnect
# reference give no figures for the prototype's links: assumptions), and
# the sensitivity runs at twice and half the latency and the bandwidth.
DEFAULT_MODEL = "L0.5us_B12.5GBs"


def mapping_hash(mapping):
    """What names a mapping in the rows: SMPI runs the same mapping in the same time."""
    return hashlib.sha1(json.dumps(mapping).encode()).hexdigest()


def model_name(latency_us, link_gbs, kind_gbs=""):
    name = f"L{latency_us:g}us_B{link_gbs:g}GBs"
    return name + (f"_{kind_gbs.replace(',', '_')}" if kind_gbs else "")


def link_options(args):
    """The link model's options, as tm-sim and tm-map take them."""
    options = ["--sim-latency", f"{args.latency_us:g}", "--sim-link-bw", f"{args.link_gbs:g}"]
    return options + (["--sim-bw", args.sim_bw] if args.sim_bw else [])


def simulate(args, app, n, strategy, matrix):
    start = time.time()
    out = run([os.path.join(args.bin, "tm-sim"), "-t", fig2.MACHINE, "--alloc",
               fig2.allocation("contiguous", n // fig2.CORES), "-c", matrix, "-s", strategy, "--app", app,
               *link_options(args), "--timeout", str(args.timeout), "--format", "json"], timeout=args.timeout + 600,
              ok=(0, 3))  # 3: the time limit stopped the run; its app_time_s is how far it got (a lower bound)
    result = json.loads(out)["runs"][0]
    result["wall_s"] = time.time() - start
    return result


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", default="build/bin")
    ap.add_argument("--out", default="benchmarks/results")
    ap.add_argument("--sizes", default=",".join(map(str, SIZES)))
    ap.add_argument("--apps", default=",".join(fig2.APPS))
    ap.add_argument("--strategies", default=",".join(STRATEGIES))
    ap.add_argument("--jobs", type=int, default=2, help="simulations at once")
    ap.add_argument("--timeout", type=float, default=3600, help="seconds per simulation")
    ap.add_argument("--fresh", action="store_true", help="forget the rows of earlier runs")
    ap.add_argument("--latency-us", type=float, default=0.5, help="latency per hop (sensitivity runs)")
    ap.add_argument("--link-gbs", type=float, default=12.5, help="link bandwidth, GB/s (sensitivity runs)")
    ap.add_argument("--sim-bw", default="", help="bandwidth of some link kinds, GB/s, as tm-sim's (e.g. side=200)")
    ap.add_argument("--report-only", action="store_true")
    ap.add_argument("--rerun", action="store_true",
                    help="run the asked (application, size, strategy) cells again; their new rows replace the old")
    args = ap.parse_args()
    model = model_name(args.latency_us, args.link_gbs, args.sim_bw)
    rows_path = os.path.join(args.out, "fig3_smpi.jsonl")
    if args.fresh and os.path.exists(rows_path):
        os.remove(rows_path)
    rows = [json.loads(line) for line in open(rows_path)] if os.path.exists(rows_path) else []
    for r in rows:
        r.setdefault("model", DEFAULT_MODEL)
    if args.rerun and not args.report_only:
        asked = {(a, int(n), s) for a in args.apps.split(",") for n in args.sizes.split(",")
                 for s in args.strategies.split(",")}
        stale = [r for r in rows if r["model"] == model and (r["app"], r["ranks"], r["strategy"]) in asked]
        if stale:
            # Kept aside until each cell's new row is written, so an interrupted rerun loses nothing.
            for r in stale:
                print(f"rerun: {r['app']} {r['ranks']} {r['strategy']} (was {r['app_time_s']} s)", file=sys.stderr)
    else:
        stale = []
    done = {(r["app"], r["ranks"], r["strategy"]) for r in rows if r["model"] == model and r not in stale}
    failures = 0
    if not args.report_only:
        strategies = args.strategies.split(",")
        with tempfile.TemporaryDirectory() as tmp:
            for n in map(int, args.sizes.split(",")):
                for app in args.apps.split(","):
                    todo = [s for s in strategies if (app, n, s) not in done]
                    if not todo:
                        continue
                    # With its phases (the order the proxy runs them): the default
                    # judges mappings by the phased time; every strategy maps their sum.
                    matrix = os.path.join(tmp, f"{app}{n}.phases")
                    run([os.path.join(args.bin, "tm-gen"), app, "--ranks", str(n), "--output", matrix])
                    # SMPI is deterministic: a mapping simulated once (in this batch, or
                    # in a row that recorded its mapping) is not simulated again; its
                    # row says whose run it is.
                    recorded = {r["strategy"]: r for r in rows if (r["app"], r["ranks"], r["model"]) == (app, n, model)
                                and r.get("mapping_sha1") and r not in stale}
                    compared = json.loads(run([os.path.join(args.bin, "tm-map"), "-t", fig2.MACHINE, "-c", matrix,
                                               "--alloc", fig2.allocation("contiguous", n // fig2.CORES), "--compare",
                                               ",".join(todo + [s for s in recorded if s not in todo]), "--simulate",
                                               *link_options(args), "--format", "json", "-q"]))
                    metrics = {r["strategy"]: r for r in compared["results"]}
                    sha1 = {s: mapping_hash(m["mapping"]) for s, m in metrics.items()}
                    runs = {}  # mapping -> the strategy whose simulation gives its time
                    for s, r in recorded.items():
                        if sha1.get(s) == r["mapping_sha1"]:
                            runs.setdefault(r["mapping_sha1"], s)
                    simulated = [s for s in todo if runs.setdefault(sha1[s], s) == s]

                    def add_row(s, sim, wall_s, same_as=None):
                        nonlocal rows
                        m = metrics[s]
                        row = {"app": app, "ranks": n, "strategy": s, "model": model, "app_time_s": sim["app_time_s"],
                               "comm_time_s": sim["comm_time_s"], "messages": sim["messages"],
                               "bytes": sim["bytes"], "hop_bytes": m["hop_bytes"], "mc": m.get("mc"),
                               "round_time_s": m.get("sim_time_s"), "phased_time_s": m.get("predicted_time_s"),
                               "mapping_sha1": sha1[s], "wall_s": wall_s}
                        if same_as:
                            row["same_mapping_as"] = same_as
                        if sim.get("stopped"):
                            row["stopped"] = True  # --timeout stopped it: app_time_s is a lower bound
                        if sim.get("maxmin_precision", 1e-5) != 1e-5:
                            row["maxmin_precision"] = sim["maxmin_precision"]  # SimGrid needed a coarser one
                        replaced = [r for r in rows if r in stale and (r["app"], r["ranks"], r["strategy"]) ==
                                    (app, n, s)]
                        rows = [r for r in rows if not any(r is old for old in replaced)] + [row]
                        for old in replaced:
                            detach_dependents(rows, old, row)
                        write_rows(rows_path, rows)
                        print(json.dumps(row), flush=True)

                    for s in todo:
                        first = runs[sha1[s]]
                        if first != s and first in recorded:
                            add_row(s, recorded[first], 0.0, same_as=first)
                    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
                        futures = {pool.submit(simulate, args, app, n, s, matrix): s for s in simulated}
                        for future in concurrent.futures.as_completed(futures):
                            s = futures[future]
                            try:
                                sim = future.result()
                            except (RuntimeError, subprocess.TimeoutExpired, ValueError, KeyError) as e:
                                # Said at once; the other runs go on (a rerun retries this one).
                                print(f"{app} {n} {s}: {e}", file=sys.stderr, flush=True)
                                failures += 1
                                continue
                            add_row(s, sim, round(sim["wall_s"], 1))
                            for other in todo:
                                if other != s and runs[sha1[other]] == s:
                                    add_row(other, sim, 0.0, same_as=s)
    report(rows, args.out)
    if failures:
        sys.exit(f"{failures} simulation(s) failed (see above)")


def detach_dependents(rows, old, new):
    """Rows that took their time from `old`'s run (same mapping) keep its
    figures when a rerun replaces it with another mapping (`new`): they then
    say whose earlier run it was, not a row that no longer holds it."""
    if old.get("mapping_sha1") == new.get("mapping_sha1"):
        return
    for r in rows:
        if (r["app"], r["ranks"], r.get("model")) == (old["app"], old["ranks"], old.get("model")) and \
                r.get("same_mapping_as") == old["strategy"] and r.get("mapping_sha1") == old.get("mapping_sha1"):
            r["same_mapping_as"] = f"{old['strategy']}'s earlier mapping"


def write_rows(path, rows):
    """All rows, written whole (a new file renamed over the old)."""
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        for r in rows:
            f.write(json.dumps(r) + "\n")
    os.replace(tmp, path)


def complete_cases(rows):
    """(app, ranks) -> {strategy: row} for the cases in-order ran in (to its end: every ratio is over
    its time)."""
    cases = {}
    for r in rows:
        cases.setdefault((r["app"], r["ranks"]), {})[r["strategy"]] = r
    return {k: v for k, v in cases.items() if "inorder" in v and not v["inorder"].get("stopped")}


def report(rows, out_dir):
    sensitivity = [r for r in rows if r.get("model", DEFAULT_MODEL) != DEFAULT_MODEL]
    rows = [r for r in rows if r.get("model", DEFAULT_MODEL) == DEFAULT_MODEL]
    cases = complete_cases(rows)
    if not cases:
        return
    sizes = sorted({n for _, n in cases})
    apps = [a for a in fig2.APPS if any(a == k[0] for k in cases)]
    strategies = [s for s in STRATEGIES if any(s in v for v in cases.values())]
    ratio = {}  # (app, n, strategy) -> app time / in-order's
    bound = set()  # the cells of runs --timeout stopped: their ratio is a lower bound
    for (app, n), by in cases.items():
        for s, r in by.items():
            ratio[(app, n, s)] = r["app_time_s"] / by["inorder"]["app_time_s"]
            if r.get("stopped"):
                bound.add((app, n, s))
    with open(os.path.join(out_dir, "fig3_smpi.csv"), "w", newline="") as f:
        fields = ["app", "ranks", "strategy", "model", "app_time_s", "comm_time_s", "messages", "bytes", "hop_bytes", "mc",
                  "round_time_s", "phased_time_s", "wall_s", "maxmin_precision", "same_mapping_as", "stopped"]
        writer = csv.DictWriter(f, fieldnames=fields)
        writer.writeheader()
        for r in sorted(rows + sensitivity, key=lambda r: (r.get("model", DEFAULT_MODEL), r["app"], r["ranks"],
                                                           STRATEGIES.index(r["strategy"]))):
            writer.writerow({k: r.get(k) for k in fields})
    lines = ["# The OHTMA paper's Fig. 3 from application runs under SMPI", "",
             f"Machine `{fig2.MACHINE}`, 16 ranks per node, contiguous allocation; each application is its proxy "
             "(`tools/tm-sim/proxies`, whose traffic equals `tm-gen`'s NPB class D pattern) run under SimGrid 3.32's "
             "SMPI by `tm-sim`: CM02 model, 12.5 GB/s and 0.5 us per hop on every link, 50 GB/s and 0.2 us inside "
             "a node, no computation, one iteration. Application time (the latest rank's end) against in-order "
             "(lower is better). Regenerate with `benchmarks/paper/run_fig3_smpi.py` (rows in fig3_smpi.jsonl).", ""]
    for n in sizes:
        lines += [f"## {n} ranks", "", "| strategy | " + " | ".join(apps) + " |", "|---|" + "---:|" * len(apps)]
        for s in strategies:
            cells = [("≥ " if (a, n, s) in bound else "") + f"{ratio[(a, n, s)]:.3f}" if (a, n, s) in ratio else ""
                     for a in apps]
            lines.append(f"| {s} | " + " | ".join(cells) + " |")
        lines.append("")
    shared = sorted((r["ranks"], r["app"], r["strategy"], r["same_mapping_as"]) for r in rows if r.get("same_mapping_as"))
    if shared:
        lines += ["The same mapping as another strategy's, whose run gives the cell (SMPI is deterministic): " +
                  ", ".join(f"{a} {n} {s} = {o}" for n, a, s, o in shared) + ".", ""]
    if bound:
        lines += ["A cell marked ≥ (a bar with an arrow on top in the figure) is a run `--timeout` stopped: its time is how far "
                  "rank 0's simulated clock had got, a lower bound of the application's (" + ", ".join(
                      f"{a} {n} {s}: {next(r for r in rows if (r['app'], r['ranks'], r['strategy']) == (a, n, s))['wall_s']:.0f} s"
                      for a, n, s in sorted(bound)) + " of simulation).", ""]
    if any((a, n, s) not in ratio for a in apps for n in sizes for s in strategies):
        lines += ["A blank cell (a missing bar in the figure) is a run not made yet, not a zero: at 4,096 ranks one "
                  "LU or SNAP run takes 30-90 minutes on this machine; a rerun of this script continues them.", ""]
    lines += ohtma_section("## OHTMA against the paper", rows, apps)
    for model in sorted({r["model"] for r in sensitivity if "side=" in r["model"]}):
        side = model.split("side=")[1].split("_")[0]
        lines += [""] + ohtma_section(
            f"## OHTMA against the paper with a {side} GB/s link between a chip's two halves ({model})",
            [r for r in sensitivity if r["model"] == model], apps)
    lines += ["", "## Which metric predicts the application time", "",
              "Per application, over every size and strategy but in-order: the correlation of log(application "
              "time / in-order's) with log(metric / in-order's), for hop-bytes, the busiest link (MC) and the "
              "one-round time of `--simulate`.", "", "| application | hop-bytes | MC | one round | best |",
              "|---|---:|---:|---:|---|"]
    for app in apps:
        xs = {"hop-bytes": [], "MC": [], "one round": []}
        ys = []
        for (a, n), by in cases.items():
            if a != app:
                continue
            base = by["inorder"]
            for s, r in by.items():
                if s == "inorder" or r.get("stopped"):  # a lower bound is not a time
                    continue
                ys.append(math.log(r["app_time_s"] / base["app_time_s"]))
                xs["hop-bytes"].append(math.log(r["hop_bytes"] / base["hop_bytes"]))
                xs["MC"].append(math.log(r["mc"] / base["mc"]) if r.get("mc") and base.get("mc") else 0.0)
                xs["one round"].append(math.log(r["round_time_s"] / base["round_time_s"])
                                       if r.get("round_time_s") and base.get("round_time_s") else 0.0)
        corr = {}
        for k, x in xs.items():
            try:
                corr[k] = statistics.correlation(x, ys)
            except (statistics.StatisticsError, ValueError):
                corr[k] = float("nan")
        best = max((k for k in corr if not math.isnan(corr[k])), key=lambda k: corr[k], default="")
        lines.append(f"| {app} | {corr['hop-bytes']:.2f} | {corr['MC']:.2f} | {corr['one round']:.2f} | {best} |")
    lines += sensitivity_section(rows, sensitivity, apps)
    lines += ["", "Simulation wall time per run (this 2-core machine): " + ", ".join(
        f"{n} ranks {statistics.median([r['wall_s'] for r in rows if r['ranks'] == n]):.0f} s (median)"
        for n in sizes), ""]
    plot(ratio, bound, apps, sizes, strategies, out_dir)
    lines += ["![application time](fig3_smpi.png)", ""]
    with open(os.path.join(out_dir, "fig3_smpi.md"), "w") as f:
        f.write("\n".join(lines))


def ohtma_section(title, rows, apps):
    """OHTMA's time against the reference the paper compares it with, per size, and whether the
    direction is the paper's (rows of one link model)."""
    cases = complete_cases(rows)
    lines = [title, "", "| application | paper | OHTMA vs its reference, per size (time change) | same direction |",
             "|---|---|---|---|"]
    for app in apps:
        reference, direction = PAPER_OHTMA[app]
        changes = []
        for (a, n), by in sorted(cases.items()):
            if a == app and "ohtma" in by and reference in by and not any(
                    by[s].get("stopped") for s in ("ohtma", reference)):  # a lower bound gives no change
                changes.append((n, by["ohtma"]["app_time_s"] / by[reference]["app_time_s"] - 1))
        if not changes:
            continue
        # Changes under 0.05 % count as the same time.
        lower = sum(1 for _, c in changes if c < -5e-4)
        higher = sum(1 for _, c in changes if c > 5e-4)
        if lower == 0 and higher == 0:
            verdict = "no: the same time"
        elif (higher if direction == "lower" else lower) == 0:
            verdict = "yes" if lower + higher == len(changes) else "yes where it differs, equal elsewhere"
        else:
            verdict = "no"
        lines.append(f"| {app} | {fig3.PAPER_TIME[app]} | "
                     + ", ".join(f"{n}: {100 * c:+.1f} % vs {reference}" for n, c in changes) + f" | {verdict} |")
    return lines


def sensitivity_section(rows, sensitivity, apps):
    """OHTMA's, greedy's and the default's time against in-order under each link model (the assumptions x2,
    x0.5; a faster link between a chip's two halves)."""
    if not sensitivity:
        return []
    every = rows + sensitivity
    models = [DEFAULT_MODEL] + sorted({r["model"] for r in sensitivity})
    lines = ["", "## Sensitivity to the assumed latency and bandwidth", "",
             "Application time against in-order's under each link model (L: latency per hop, B: link bandwidth, "
             "side=: the link between a chip's two halves; the default first), for OHTMA, greedy and the default "
             "(`auto`):", "",
             "| application | ranks | " + " | ".join(f"{m}: ohtma, greedy, auto" for m in models) + " |",
             "|---|---:|" + "---|" * len(models)]
    cases = sorted({(r["app"], r["ranks"]) for r in sensitivity})
    for app, n in cases:
        cells = []
        for m in models:
            by = {r["strategy"]: r for r in every if r["app"] == app and r["ranks"] == n
                  and r.get("model", DEFAULT_MODEL) == m}
            if all(s in by and not by[s].get("stopped") for s in ("inorder", "ohtma", "greedy", "auto")):
                base = by["inorder"]["app_time_s"]
                cells.append(", ".join(f"{by[s]['app_time_s'] / base:.3f}" for s in ("ohtma", "greedy", "auto")))
            else:
                cells.append("")
        lines.append(f"| {app} | {n} | " + " | ".join(cells) + " |")
    return lines


def plot(ratio, bound, apps, sizes, strategies, out_dir):
    import tmap_plots as plots  # noqa: E402  (matplotlib only when drawing)
    plt = plots.plt
    fig, axes = plt.subplots(2, 3, figsize=(16, 9))
    for ax, app in zip(axes.flat, apps):
        width = 0.8 / len(strategies)
        every = []
        for k, s in enumerate(strategies):
            values = [ratio.get((app, n, s), float("nan")) for n in sizes]
            every += [v for v in values if not math.isnan(v)]
            colour, hatch = plots.style(s)
            xs = [i + k * width for i in range(len(sizes))]
            ax.bar(xs, values, width, label=s, color=colour, hatch=hatch, edgecolor="white", linewidth=0.3)
            for x, n, v in zip(xs, sizes, values):
                if (app, n, s) in bound:  # a lower bound: an arrow on, where the bar would go on
                    ax.annotate("", xy=(x, v * 1.4), xytext=(x, v),
                                arrowprops={"arrowstyle": "-|>", "color": "black", "linewidth": 0.8})
        plots.ratio_log_axis(ax, every)  # round-robin at 13x beside the default at 0.5
        fig3.label_panel(ax, f"({'abcdef'[apps.index(app)]}) {app.upper() if len(app) == 2 else app}", sizes, width,
                         "application time / in-order")
    for ax in list(axes.flat)[len(apps):]:
        ax.set_visible(False)
    fig3.finish_figure(plt, fig, axes, len(strategies),
                       "Application time under SMPI on Tianhe-3, contiguous allocation, normalised to in-order",
                       os.path.join(out_dir, "fig3_smpi.png"))


if __name__ == "__main__":
    main()
