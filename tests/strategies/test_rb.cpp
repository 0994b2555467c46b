// rb (Hoefler-Snir recursive bisection): brute-forced optima where the
// traffic has the machine's shape, a compact box for a small job, a
// shuffled path cut along itself, and its option set by key.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <numeric>

#include "fixtures.hpp"
#include "strategies/rb/rb.hpp"
#include "tmap/comm_matrix.hpp"
#include "tmap/config.hpp"
#include "tmap/error.hpp"
#include "tmap/generators.hpp"
#include "tmap/machine.hpp"
#include "tmap/mapper.hpp"
#include "tmap/metrics.hpp"
#include "tmap/topology.hpp"

using tmap::CommMatrix;
using tmap::Constraints;
using tmap::Context;
using tmap::Problem;

namespace {

tmap::Mapping rb(const CommMatrix& comm, const tmap::Topology& topology, const Constraints& constraints,
                 const Context& context = {}) {
  return tmap::map_with("rb", Problem{comm, topology, constraints}, context);
}

}  // namespace

// Eight ranks in a shuffled hierarchy (pairs 100 B, pairs of pairs 10 B,
// halves 1 B) on a tree of 2 x 2 x 2 PEs: each cut of the machine meets a
// cut of the traffic with the lightest crossing, which is the optimum (the
// brute force over all 8! placements agrees).
TEST(Rb, ReachesTheOptimumOfHierarchicalTrafficOnATree) {
  const auto topology = tmap::load_topology("tleaf 3 2 10 2 5 2 1");
  const tmap::Rank label[8] = {5, 2, 7, 0, 3, 6, 1, 4};  // position -> rank
  std::vector<tmap::CommEntry> entries;
  for (int a = 0; a < 8; ++a) {
    for (int b = 0; b < 8; ++b) {
      if (a == b) continue;
      const tmap::Volume v = a / 2 == b / 2 ? 100 : (a / 4 == b / 4 ? 10 : 1);
      entries.push_back({label[a], label[b], v});
    }
  }
  const auto comm = CommMatrix::from_entries(8, entries);
  const auto optimum = tmap::test::brute_force_optimum(comm, *topology);
  // By hand: the 8 ordered pairs of 100 B on sibling PEs, the 16 of 10 B
  // one level up, the 32 of 1 B across the root.
  EXPECT_EQ(optimum, 800 * topology->distance(0, 1) + 160 * topology->distance(0, 2) + 32 * topology->distance(0, 4));
  EXPECT_EQ(tmap::evaluate(comm, *topology, rb(comm, *topology, Constraints::all(*topology))).hop_bytes, optimum);
}

// A shuffled path onto a line of 16: every cut of the line meets a cut of
// the path with one edge crossing, so the path lands in order (or mirrored):
// each edge one hop.
TEST(Rb, MapsAShuffledPathOntoALineEdgeByEdge) {
  const auto topology = tmap::load_topology("meshXD 1 16");
  const auto perm = tmap::gen::shuffle_permutation(16, 4);
  std::vector<tmap::CommEntry> entries;
  for (tmap::Rank i = 0; i + 1 < 16; ++i) entries.push_back({perm[i], perm[i + 1], 7});
  const auto comm = CommMatrix::from_entries(16, entries);
  const auto mapping = rb(comm, *topology, Constraints::all(*topology));
  EXPECT_EQ(tmap::evaluate(comm, *topology, mapping).hop_bytes, 15 * 7);
}

// Sixteen ranks on a whole 16 x 16 mesh: they take a 4 x 4 box (the first
// box of the coordinate bisection), so no two are more than 6 hops apart.
TEST(Rb, SmallJobTakesACompactBox) {
  const auto topology = tmap::load_topology("mesh2D 16 16");
  const auto comm = tmap::gen::shuffle_ranks(tmap::gen::stencil({4, 4}, 5, 10), 2);
  const auto mapping = rb(comm, *topology, Constraints::all(*topology));
  tmap::Distance widest = 0;
  for (const auto a : mapping) {
    for (const auto b : mapping) widest = std::max(widest, topology->distance(a, b));
  }
  EXPECT_LE(widest, 6);
}

// Allocations with holes and oversubscription: every rank on an allowed PE,
// at most K per PE (checked here from the nodes' PEs), and the same result at
// 1 and 2 threads.
TEST(Rb, HoldsConstraintsAndIsDeterministic) {
  const auto topology = tmap::load_topology("tianhe3:1x2,nodes=4,cores=4");
  const auto comm = tmap::gen::shuffle_ranks(tmap::gen::stencil({5, 5}, 9, 100), 8);
  const std::vector<tmap::NodeId> nodes{0, 2, 3, 5, 6};
  const auto constraints = Constraints::on_nodes(*topology, nodes, 2);
  Context two;
  two.threads = 2;
  const auto mapping = rb(comm, *topology, constraints);
  std::vector<tmap::PE> allowed;
  for (tmap::PE p = 0; p < topology->size(); ++p) {
    if (std::find(nodes.begin(), nodes.end(), topology->node_of(p)) != nodes.end()) allowed.push_back(p);
  }
  EXPECT_EQ(allowed.size(), 20U);  // 5 nodes of 4 cores
  EXPECT_TRUE(tmap::test::places_within(mapping, 25, allowed, 2));
  EXPECT_EQ(mapping, rb(comm, *topology, constraints, two));
}

// --rb-passes lives in the strategy's folder (Context::rb), is set by key
// like every option, and refuses bad values naming itself.
// Without Fiduccia-Mattheyses passes the cuts are only grown, never better.
TEST(Rb, PassesOptionIsSetByKey) {
  Context none;
  tmap::set_option(none, "rb-passes", "0");
  EXPECT_EQ(none.rb.passes, 0);
  EXPECT_EQ(Context{}.rb.passes, -1);
  try {
    tmap::set_option(none, "rb-passes", "-1");
    FAIL() << "a negative pass count was accepted";
  } catch (const tmap::ParameterError& e) {
    EXPECT_NE(std::string(e.what()).find("rb-passes:"), std::string::npos) << e.what();
  }
  const auto topology = tmap::load_topology("torus2D 16 16");
  const auto comm = tmap::gen::shuffle_ranks(tmap::gen::stencil({16, 16}, 5, 10), 5);
  const auto constraints = Constraints::all(*topology);
  const auto grown = tmap::evaluate(comm, *topology, rb(comm, *topology, constraints, none)).hop_bytes;
  const auto refined = tmap::evaluate(comm, *topology, rb(comm, *topology, constraints)).hop_bytes;
  EXPECT_LT(refined, grown);
}

// Ranks of unequal weight: a cut by weight lands within its window; a grid
// of weights 1-4 cut in two along its plane, in any vertex order.
TEST(Rb, BisectsByWeightWithinTheWindow) {
  const auto grid = tmap::gen::stencil({32, 16}, 5, 10);  // 512 ranks, rank = x + 32 y
  std::vector<tmap::Volume> weights(512);
  tmap::Volume total = 0;
  for (std::size_t r = 0; r < weights.size(); ++r) total += weights[r] = 1 + static_cast<tmap::Volume>(r % 4);
  const auto sym = grid.with_rank_weights(weights).symmetrized();
  std::vector<tmap::Rank> all(512);
  std::iota(all.begin(), all.end(), tmap::Rank{0});
  for (const tmap::strategies::WeightedCut how :
       {tmap::strategies::WeightedCut{}, tmap::strategies::WeightedCut{.order_seed = 7},
        tmap::strategies::WeightedCut{.order_seed = 0, .whole_level_passes = true}}) {
    const auto [first, second] = tmap::strategies::bisect_by_weight(sym, all, total / 2, 8, how);
    tmap::Volume w0 = 0;
    for (const auto r : first) w0 += weights[static_cast<std::size_t>(r)];
    EXPECT_LE(std::abs(w0 - total / 2), 8) << how.order_seed;
    EXPECT_EQ(first.size() + second.size(), 512U);
    EXPECT_TRUE(std::is_sorted(first.begin(), first.end()));
    // The cut: 16 edges of 20 bytes (both directions) for the plane x = 16.
    tmap::Volume cut = 0;
    std::vector<char> side(512, 1);
    for (const auto r : first) side[static_cast<std::size_t>(r)] = 0;
    for (tmap::Rank i = 0; i < 512; ++i) {
      for (std::size_t k = 0; k < sym.targets(i).size(); ++k) {
        if (side[static_cast<std::size_t>(i)] != side[static_cast<std::size_t>(sym.targets(i)[k])])
          cut += sym.volumes(i)[k];
      }
    }
    EXPECT_LE(cut / 2, 2 * 16 * 20) << how.order_seed;  // within 2x the plane's
    // Deterministic.
    EXPECT_EQ(tmap::strategies::bisect_by_weight(sym, all, total / 2, 8, how).first, first);
  }
}
