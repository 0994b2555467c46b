// Issue #8's comparison: 4096 ranks onto a torus3D 16 16 16 (one rank per
// router, the Deveci et al. setting) and onto a Tianhe-3 allocation (256
// scattered nodes of tianhe3:4x4 with 16 cores: every other node), for every
// strategy: time per mapping, WH and MC (Deveci's metrics, unit bandwidth),
// and hop-bytes next to in-order. Two patterns: a 3D 7-point stencil with
// shuffled ranks, and a random sparse pattern (~6 partners per rank).
//   build/bin/bench_congestion --benchmark_counters_tabular=true
#include <benchmark/benchmark.h>

#include "tmap/generators.hpp"
#include "tmap/tmap.hpp"

namespace {

struct Setup {
  std::unique_ptr<tmap::Topology> topology;
  tmap::Constraints constraints;
};

Setup machine(std::int64_t which) {
  if (which == 0) {
    auto topology = tmap::load_topology("torus3D 16 16 16");
    auto constraints = tmap::Constraints::all(*topology);
    return {std::move(topology), std::move(constraints)};
  }
  auto topology = tmap::load_topology("tianhe3:4x4,nodes=96,cores=16");
  std::vector<tmap::NodeId> nodes;
  for (tmap::NodeId node = 0; nodes.size() < 256; node += 2) nodes.push_back(node);
  auto constraints = tmap::Constraints::on_nodes(*topology, nodes);
  return {std::move(topology), std::move(constraints)};
}

tmap::CommMatrix pattern(std::int64_t kind) {
  if (kind == 0) return tmap::gen::shuffle_ranks(tmap::gen::stencil({16, 16, 16}, 7, 4096), 11);
  return tmap::gen::random_sparse(4096, 3, 1 << 16, 42);
}

void run(benchmark::State& state, const char* strategy) {
  const auto setup = machine(state.range(0));
  const auto comm = pattern(state.range(1));
  const tmap::Problem problem{comm, *setup.topology, setup.constraints};
  tmap::Context context;
  tmap::Mapping mapping;
  for (auto _ : state) {
    mapping = tmap::map_with(strategy, problem, context);
    benchmark::DoNotOptimize(mapping.data());
  }
  const auto routing = tmap::make_routing(*setup.topology);
  const auto links = tmap::evaluate_routes(comm, *routing, mapping);
  const auto hop_bytes = static_cast<double>(tmap::evaluate(comm, *setup.topology, mapping).hop_bytes);
  const auto inorder = tmap::map_with("inorder", problem, context);
  state.counters["WH"] = static_cast<double>(links.wh);
  state.counters["MC"] = links.mc;
  state.counters["AC"] = links.ac;
  state.counters["vs_inorder"] =
      hop_bytes / static_cast<double>(tmap::evaluate(comm, *setup.topology, inorder).hop_bytes);
}

void register_all() {
  for (const auto& s : tmap::strategy_table()) {
    const std::string name(s.name);
    if (name == "random" || name == "roundrobin" || name == "ohtma+") continue;
    benchmark::RegisterBenchmark(("BM_Congestion/" + name).c_str(),
                                 [name](benchmark::State& state) { run(state, name.c_str()); })
        ->ArgNames({"machine", "pattern"})
        ->ArgsProduct({{0, 1}, {0, 1}})
        ->Unit(benchmark::kMillisecond)
        ->Iterations(1);
  }
}

const int registered = (register_all(), 0);

}  // namespace
