// The foundation's hot paths: scoring a mapping, reading matrices,
// symmetrising. Run: build/bin/bench_core --benchmark_counters_tabular=true
#include <benchmark/benchmark.h>

#include <cmath>

#include "tmap/generators.hpp"
#include "tmap/tmap.hpp"

namespace {

/// A square-ish 2D stencil of about `ranks` ranks.
tmap::CommMatrix stencil_of(std::int64_t ranks) {
  const auto side = static_cast<std::int64_t>(std::sqrt(static_cast<double>(ranks)));
  return tmap::gen::stencil({side, ranks / side}, 5, 4096);
}

void BM_Evaluate(benchmark::State& state) {
  const auto ranks = state.range(0);
  const auto comm = stencil_of(ranks);
  const auto topology = tmap::load_topology("tianhe3:16x16,nodes=96,cores=4");
  const auto mapping = tmap::gen::shuffle_permutation(comm.num_ranks(), 1);
  std::int64_t hop_bytes = 0;
  for (auto _ : state) {
    hop_bytes = tmap::evaluate(comm, *topology, mapping).hop_bytes;
    benchmark::DoNotOptimize(hop_bytes);
  }
  state.counters["hop_bytes"] = static_cast<double>(hop_bytes);
  state.counters["entries/s"] =
      benchmark::Counter(static_cast<double>(comm.num_entries() * state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_Evaluate)->ArgName("ranks")->RangeMultiplier(4)->Range(256, 65536)->Unit(benchmark::kMillisecond);

void BM_ReadDense(benchmark::State& state) {
  const auto comm = tmap::gen::random_sparse(state.range(0), 8, 1 << 20, 2);
  const auto text = tmap::format_comm(comm, tmap::CommFormat::Dense);
  for (auto _ : state) {
    auto read = tmap::parse_comm(text, tmap::CommFormat::Dense, "bench.mat");
    benchmark::DoNotOptimize(read);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(text.size()) * state.iterations());
}
BENCHMARK(BM_ReadDense)->ArgName("ranks")->Arg(1024)->Arg(4096)->Unit(benchmark::kMillisecond);

void BM_ReadCoo(benchmark::State& state) {
  const auto comm = tmap::gen::random_sparse(state.range(0), 6, 1 << 20, 3);
  const auto text = tmap::format_comm(comm, tmap::CommFormat::Coo);
  for (auto _ : state) {
    auto read = tmap::parse_comm(text, tmap::CommFormat::Coo, "bench.coo");
    benchmark::DoNotOptimize(read);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(text.size()) * state.iterations());
}
BENCHMARK(BM_ReadCoo)->ArgName("ranks")->Arg(16384)->Arg(131072)->Unit(benchmark::kMillisecond);

void BM_Symmetrize(benchmark::State& state) {
  const auto comm = tmap::gen::random_sparse(state.range(0), 6, 1000, 4);
  for (auto _ : state) {
    auto s = comm.symmetrized();
    benchmark::DoNotOptimize(s);
  }
}
BENCHMARK(BM_Symmetrize)->ArgName("ranks")->Arg(65536)->Arg(1 << 20)->Unit(benchmark::kMillisecond);

}  // namespace
