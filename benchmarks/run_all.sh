#!/bin/sh
# Refreshes benchmarks/results/: the mapping-time suite (every strategy at
# 256, 1024, 4096 ranks), the congestion suite (issue #8's table) and the
# dense searches' moves per second as JSON,
# and the OHTMA paper's Fig. 2 experiment (CSV, PNG plots, fig2.md).
# Needs a Release build in build/ and python3-matplotlib (tools/setup.sh
# installs neither the plots' library nor runs this: it takes ~15 minutes).
set -eu
cd "$(dirname "$0")/.."
out=benchmarks/results
mkdir -p "$out"
build/bin/bench_strategies --benchmark_format=json --benchmark_out="$out/mapping_time.json" \
  --benchmark_out_format=json --benchmark_counters_tabular=true
build/bin/bench_congestion --benchmark_out="$out/congestion.json" --benchmark_out_format=json \
  --benchmark_counters_tabular=true
build/bin/bench_refine --benchmark_out="$out/dense_search.json" --benchmark_out_format=json \
  --benchmark_counters_tabular=true
/usr/bin/python3 benchmarks/paper/run_fig2.py --bin build/bin --out "$out"
echo "results in $out (fig2.md is the report)"
