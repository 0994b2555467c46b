// Simulated communication time (SimGrid): one round of a 1,024-rank
// application pattern on the Fig. 2 machine, for two mappings in one
// engine (SimGrid's engine is one per process, hence one iteration).
// Configuration: CM02 flow model, 12.5 GB/s and 0.5 us per hop on every
// link, 50 GB/s between two cores of a node (tm-map --simulate's defaults).
#include <benchmark/benchmark.h>

#include "sim/simulate.hpp"
#include "tmap/generators.hpp"
#include "tmap/machine.hpp"
#include "tmap/mapper.hpp"
#include "tmap/topology.hpp"

static void BM_Simulate1024Ranks(benchmark::State& state) {
  const auto topology = tmap::load_topology("tianhe3:8x8,nodes=96,cores=16");
  const auto comm = tmap::gen::app_pattern("cg", 1024, 'D');
  std::vector<tmap::NodeId> nodes(64);
  for (tmap::NodeId k = 0; k < 64; ++k) nodes[static_cast<std::size_t>(k)] = k;
  const auto constraints = tmap::Constraints::on_nodes(*topology, nodes, 1);
  const tmap::Problem problem{comm, *topology, constraints};
  const std::vector<tmap::Mapping> mappings{tmap::map_with("inorder", problem, {}),
                                            tmap::map_with("roundrobin", problem, {})};
  for (auto _ : state) {
    const auto results = tmap::sim::simulate(comm, *topology, mappings, {});
    state.counters["inorder_s"] = results[0].seconds;
    state.counters["roundrobin_s"] = results[1].seconds;
    state.counters["messages"] = static_cast<double>(results[0].messages);
  }
}
BENCHMARK(BM_Simulate1024Ranks)->Iterations(1)->Unit(benchmark::kSecond);
