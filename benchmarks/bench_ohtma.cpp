// OHTMA and ohtma+ on Tianhe-3 allocations: 16 ranks per node on contiguous
// nodes of tianhe3:8x8,cores=16 (98,304 PEs), with a 2D 5-point stencil (natural rank
// order) and a random sparse pattern (6 partners per rank). Counters give
// hop-bytes next to in-order and round-robin.
//   build/bin/bench_ohtma --benchmark_counters_tabular=true
#include <benchmark/benchmark.h>
#include <sys/resource.h>

#include <cmath>

#include "tmap/generators.hpp"
#include "tmap/tmap.hpp"

namespace {

constexpr const char* kMachine = "tianhe3:8x8,nodes=96,cores=16";
constexpr std::int64_t kCores = 16;

tmap::CommMatrix pattern(std::int64_t kind, std::int64_t ranks) {
  if (kind == 0) {
    auto side = static_cast<std::int64_t>(std::sqrt(static_cast<double>(ranks)));
    while (ranks % side != 0) --side;
    return tmap::gen::stencil({ranks / side, side}, 5, 4096);
  }
  return tmap::gen::random_sparse(ranks, 3, 1 << 16, 42);  // 3 picks each, ~6 partners
}

double peak_rss_mib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;
}

void run(benchmark::State& state, const char* strategy) {
  const auto ranks = state.range(1);
  const auto topology = tmap::load_topology(kMachine);
  const auto comm = pattern(state.range(0), ranks);
  std::vector<tmap::NodeId> nodes(static_cast<std::size_t>(ranks / kCores));
  for (std::size_t i = 0; i < nodes.size(); ++i) nodes[i] = static_cast<tmap::NodeId>(i);
  const auto constraints = tmap::Constraints::on_nodes(*topology, nodes);
  const tmap::Problem problem{comm, *topology, constraints};
  tmap::Context context;
  context.threads = 2;
  tmap::Mapping mapping;
  for (auto _ : state) {
    mapping = tmap::map_with(strategy, problem, context);
    benchmark::DoNotOptimize(mapping.data());
  }
  const auto score = [&](const char* name) {
    return static_cast<double>(tmap::evaluate(comm, *topology, tmap::map_with(name, problem, context)).hop_bytes);
  };
  const auto hop_bytes = static_cast<double>(tmap::evaluate(comm, *topology, mapping).hop_bytes);
  state.counters["hop_bytes"] = hop_bytes;
  state.counters["vs_inorder"] = hop_bytes / score("inorder");
  state.counters["vs_roundrobin"] = hop_bytes / score("roundrobin");
  state.counters["peak_rss_MiB"] = peak_rss_mib();
}

void BM_Ohtma(benchmark::State& state) {
  run(state, "ohtma");
}
void BM_OhtmaPlus(benchmark::State& state) {
  run(state, "ohtma+");
}
void BM_Scotch(benchmark::State& state) {
  run(state, "scotch");
}
void BM_TreeMatch(benchmark::State& state) {
  run(state, "treematch");
}

/// One iteration per input (a mapping run is long), both patterns, these sizes.
benchmark::internal::Benchmark* per_size(const char* name, void (*run)(benchmark::State&),
                                         std::vector<std::int64_t> ranks) {
  return benchmark::RegisterBenchmark(name, run)
      ->ArgNames({"pattern", "ranks"})
      ->ArgsProduct({{0, 1}, std::move(ranks)})
      ->Unit(benchmark::kMillisecond)
      ->UseRealTime()
      ->Iterations(1);
}

[[maybe_unused]] benchmark::internal::Benchmark* const kRegistered[] = {
    per_size("BM_Ohtma", BM_Ohtma, {256, 512, 1024, 2048, 4096, 8192, 16384}),
    per_size("BM_Scotch", BM_Scotch, {512, 1024, 4096, 16384}),
    per_size("BM_TreeMatch", BM_TreeMatch, {512, 1024, 4096, 16384}),
    per_size("BM_OhtmaPlus", BM_OhtmaPlus, {512, 4096, 16384, 65536}),
};

}  // namespace

namespace {

// The effect of each ohtma+ extension, switched on one after the other:
// ext 0 = faithful ohtma pass, 1 = + repeated passes, 2 = + free-slot moves,
// 3 = + candidate search (= ohtma+). Half the allocation's slots stay free
// (ranks = slots / 2) so moves onto free slots matter.
void BM_OhtmaPlusExtensions(benchmark::State& state) {
  const auto ext = state.range(0);
  const auto ranks = state.range(2);
  const auto topology = tmap::load_topology(kMachine);
  const auto comm = pattern(state.range(1), ranks);
  std::vector<tmap::NodeId> nodes(static_cast<std::size_t>(2 * ranks / kCores));
  for (std::size_t i = 0; i < nodes.size(); ++i) nodes[i] = static_cast<tmap::NodeId>(i);
  const auto constraints = tmap::Constraints::on_nodes(*topology, nodes);
  tmap::Context context;
  context.threads = 2;
  context.ohtma.repeat_passes = ext >= 1;
  context.ohtma.free_slot_moves = ext >= 2;
  context.ohtma.candidate_search = ext >= 3;
  tmap::Mapping mapping;
  for (auto _ : state) {
    mapping = tmap::map_with("ohtma+", tmap::Problem{comm, *topology, constraints}, context);
  }
  state.counters["hop_bytes"] = static_cast<double>(tmap::evaluate(comm, *topology, mapping).hop_bytes);
}
BENCHMARK(BM_OhtmaPlusExtensions)
    ->ArgNames({"ext", "pattern", "ranks"})
    ->ArgsProduct({{0, 1, 2, 3}, {0, 1}, {512, 2048}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(1);

}  // namespace
