// The dense searches' speed (src/refine/dense_search.*): moves per second of
// Taillard's robust tabu search and of the swap descent on the move table,
// at 64 and 256 slots (the quality mode's short search after the V-cycles
// runs up to 256) and 1,024 (`best --refine tabu`'s largest), random
// degree-6 traffic on a tleaf of the same size. Inputs generated here from
// fixed seeds.
//   build/bin/bench_refine   (or benchmarks/run_all.sh)
#include <benchmark/benchmark.h>

#include <numeric>
#include <string>
#include <vector>

#include "refine/dense_search.hpp"
#include "tmap/generators.hpp"
#include "tmap/tmap.hpp"

namespace {

/// n ranks on n PEs (one slot a PE), the traffic times volume_scale.
tmap::refine::DenseProblem dense_problem(std::int64_t n, std::uint64_t volume_scale) {
  const auto topology = tmap::load_topology("tleaf 3 " + std::to_string(n / 16) + " 20 4 10 4 1");
  auto p = tmap::refine::dense_problem(tmap::gen::random_sparse(n, 6, 10000, 1).symmetrized(), *topology,
                                       tmap::Constraints::all(*topology));
  for (auto& w : p.w) w *= static_cast<std::int64_t>(volume_scale);
  return p;
}

/// range(0) slots, range(1) = 1: traffic below 2^30 (the 32-bit rows), else
/// the same times 2^32 (64-bit).
void BM_RobustTabu(benchmark::State& state) {
  const auto n = state.range(0);
  const auto p = dense_problem(n, state.range(1) == 1 ? 1 : std::uint64_t{1} << 32);
  constexpr std::int64_t kMoves = 1000;
  for (auto _ : state) {
    std::vector<std::int64_t> pos(static_cast<std::size_t>(n));
    std::iota(pos.begin(), pos.end(), 0);
    const auto stats = tmap::refine::robust_tabu(p, pos, kMoves, 0.0, 1, {}, 1);
    benchmark::DoNotOptimize(stats.best_cost);
  }
  state.counters["moves_per_s"] =
      benchmark::Counter(static_cast<double>(kMoves), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_RobustTabu)
    ->ArgNames({"slots", "narrow"})
    ->ArgsProduct({{64, 256, 1024}, {1, 0}})
    ->Unit(benchmark::kMillisecond);

void BM_DenseDescent(benchmark::State& state) {
  const auto n = state.range(0);
  const auto p = dense_problem(n, 1);
  std::int64_t swaps = 0;
  for (auto _ : state) {
    std::vector<std::int64_t> pos(static_cast<std::size_t>(n));
    std::iota(pos.begin(), pos.end(), 0);
    swaps = tmap::refine::dense_descent(p, pos).swaps;
    benchmark::DoNotOptimize(pos.data());
  }
  state.counters["swaps"] = static_cast<double>(swaps);
}
BENCHMARK(BM_DenseDescent)->ArgName("slots")->Arg(64)->Arg(256)->Unit(benchmark::kMillisecond);

}  // namespace
