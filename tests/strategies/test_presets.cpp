// The presets as mappings: quality is the default followed by multilevel
// V-cycles, so it is never above the default and moves whole blocks where
// the default's construction left them apart.
#include <gtest/gtest.h>

#include <string>

#include "tmap/comm_matrix.hpp"
#include "tmap/config.hpp"
#include "tmap/generators.hpp"
#include "tmap/machine.hpp"
#include "tmap/mapper.hpp"
#include "tmap/metrics.hpp"
#include "tmap/topology.hpp"

namespace {

using tmap::CommMatrix;
using tmap::Constraints;
using tmap::Problem;

std::int64_t hop_bytes_under(const std::string& preset, const CommMatrix& comm, const tmap::Topology& machine) {
  const Problem problem{comm, machine, Constraints::all(machine)};
  return tmap::evaluate(comm, machine, tmap::map(problem, tmap::preset(preset))).hop_bytes;
}

TEST(QualityPreset, NeverAboveTheDefaultAndLowerWhereBlocksMove) {
  const auto torus = tmap::load_topology("torus3D 4 4 4");
  const auto tree = tmap::load_topology("tleaf 3 2 20 4 10 8 1");
  const auto random = tmap::gen::random_sparse(64, 6, 1000, 2);
  const auto stencil = tmap::gen::shuffle_ranks(tmap::gen::stencil({8, 8}, 5, 1000), 3);
  for (const auto* machine : {torus.get(), tree.get()}) {
    for (const auto* comm : {&random, &stencil}) {
      EXPECT_LE(hop_bytes_under("quality", *comm, *machine), hop_bytes_under("default", *comm, *machine))
          << machine->description();
    }
  }
  // Random traffic on a torus: the default's Scotch mapping has blocks
  // of ranks a V-cycle moves as one (measured 798,216 -> 732,176).
  EXPECT_LT(hop_bytes_under("quality", random, *torus), hop_bytes_under("default", random, *torus) * 95 / 100);
}

// Up to 256 slots a tabu search follows the V-cycles: never above them and
// their descent alone (the same preset with no tabu moves), and below them on
// random traffic, whose V-cycle result is a swap-local optimum.
TEST(QualityPreset, SmallJobsGoOnFromTheVcyclesOptimumByTabu) {
  const auto torus = tmap::load_topology("torus3D 4 4 4");
  const auto tree = tmap::load_topology("tleaf 3 2 20 4 10 8 1");
  const auto mesh = tmap::load_topology("mesh2D 16 8");
  auto vcycles_only = tmap::preset("quality");
  vcycles_only.refine.iterations = 0;
  const auto hop_bytes = [](const tmap::Context& context, const CommMatrix& comm, const tmap::Topology& machine) {
    const Problem problem{comm, machine, Constraints::all(machine)};
    return tmap::evaluate(comm, machine, tmap::map(problem, context)).hop_bytes;
  };
  std::int64_t lower = 0;
  for (const auto* machine : {torus.get(), tree.get(), mesh.get()}) {
    const auto ranks = machine->size();
    const auto random = tmap::gen::random_sparse(ranks, 6, 10000, 1);
    const auto with_tabu = hop_bytes(tmap::preset("quality"), random, *machine);
    const auto without = hop_bytes(vcycles_only, random, *machine);
    EXPECT_LE(with_tabu, without) << machine->description();
    if (with_tabu < without) ++lower;
  }
  EXPECT_GE(lower, 2);
}

TEST(QualityPreset, SameMappingAtOneAndTwoThreads) {
  const auto torus = tmap::load_topology("torus3D 4 4 4");
  const auto random = tmap::gen::random_sparse(64, 6, 1000, 2);
  auto one = tmap::preset("quality");
  auto two = one;
  two.threads = 2;
  const Problem problem{random, *torus, Constraints::all(*torus)};
  EXPECT_EQ(tmap::map(problem, one), tmap::map(problem, two));
}

}  // namespace
