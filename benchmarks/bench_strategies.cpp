// Mapping time of every strategy at several sizes (issue #7's time suite):
// 256, 1024 and 4096 ranks, 16 per node on contiguous nodes of
// tianhe3:8x8,cores=16, with NPB class D LU traffic (a 2D grid plus an
// all-reduce). One iteration each; counters give hop-bytes against in-order.
//   build/bin/bench_strategies --benchmark_format=json   (or benchmarks/run_all.sh)
#include <benchmark/benchmark.h>

#include "tmap/generators.hpp"
#include "tmap/tmap.hpp"

namespace {

void run(benchmark::State& state, const std::string& strategy) {
  const auto ranks = state.range(0);
  const auto topology = tmap::load_topology("tianhe3:8x8,nodes=96,cores=16");
  const auto comm = tmap::gen::app_pattern("lu", ranks, 'D');
  std::vector<tmap::NodeId> nodes(static_cast<std::size_t>(ranks / 16));
  for (std::size_t i = 0; i < nodes.size(); ++i) nodes[i] = static_cast<tmap::NodeId>(i);
  const auto constraints = tmap::Constraints::on_nodes(*topology, nodes);
  const tmap::Problem problem{comm, *topology, constraints};
  tmap::Context context;
  tmap::Mapping mapping;
  for (auto _ : state) {
    mapping = tmap::map_with(strategy, problem, context);
    benchmark::DoNotOptimize(mapping.data());
  }
  const auto inorder = tmap::map_with("inorder", problem, context);
  state.counters["hop_bytes"] = static_cast<double>(tmap::evaluate(comm, *topology, mapping).hop_bytes);
  state.counters["vs_inorder"] =
      state.counters["hop_bytes"] / static_cast<double>(tmap::evaluate(comm, *topology, inorder).hop_bytes);
}

const int registered = [] {
  for (const auto& s : tmap::strategy_table()) {
    const std::string name(s.name);
    benchmark::RegisterBenchmark(("BM_MappingTime/" + name).c_str(),
                                 [name](benchmark::State& state) { run(state, name); })
        ->ArgName("ranks")
        ->Arg(256)
        ->Arg(1024)
        ->Arg(4096)
        ->Unit(benchmark::kMillisecond)
        ->Iterations(1);
  }
  return 0;
}();

}  // namespace
