// FM between sibling subtrees (src/strategies/common/tree_pairs.cpp): a
// planted optimum counted by hand, exhaustive optima of small bisections,
// the invariants (each PE's count; the top level's cut never grows), the
// same mapping on any thread count, and the machines it leaves alone.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <vector>

#include "strategies/common/tree_pairs.hpp"
#include "tmap/comm_matrix.hpp"
#include "tmap/generators.hpp"
#include "tmap/machine.hpp"
#include "tmap/mapping.hpp"
#include "tmap/metrics.hpp"
#include "tmap/topology.hpp"
#include "util/random.hpp"

using tmap::CommMatrix;
using tmap::Constraints;
using tmap::Mapping;
using tmap::PE;
using tmap::Rank;
using tmap::strategies::refine_tree_pairs;

namespace {

/// The allowed PEs dealt to ranks in a seeded shuffled order, `capacity` a PE.
Mapping scrambled(Rank n, const Constraints& constraints, std::uint64_t seed) {
  auto slots = constraints.slots();
  tmap::detail::Random rng(seed, 3);
  rng.shuffle(std::span<PE>(slots));
  return {slots.begin(), slots.begin() + n};
}

/// Traffic between ranks placed under different children of the root
/// (`per_child` PEs each, PEs numbered in tree order).
tmap::Volume top_cut(const CommMatrix& comm, const Mapping& mapping, PE per_child) {
  tmap::Volume cut = 0;
  for (Rank r = 0; r < comm.num_ranks(); ++r) {
    const auto targets = comm.targets(r);
    const auto volumes = comm.volumes(r);
    for (std::size_t e = 0; e < targets.size(); ++e) {
      if (mapping[static_cast<std::size_t>(r)] / per_child != mapping[static_cast<std::size_t>(targets[e])] / per_child)
        cut += volumes[e];
    }
  }
  return cut;
}

std::vector<std::int64_t> counts(const Mapping& mapping, PE pes) {
  std::vector<std::int64_t> c(static_cast<std::size_t>(pes), 0);
  for (const auto pe : mapping) ++c[static_cast<std::size_t>(pe)];
  return c;
}

}  // namespace

TEST(TreePairs, FindsPlantedCliquesOnBoardsAndTheirLinksInRacks) {
  // 2 racks x 4 boards x 4 cores; distances 1 on a board, 11 in a rack, 31
  // across. Eight 4-cliques (1,000 bytes each way per pair), clique 2i
  // linked to 2i + 1 by 10 bytes each way. The optimum puts each clique on
  // a board and linked cliques in one rack: 8 x 12 x 1,000 x 1 + 4 x 2 x 10
  // x 11 = 96,880.
  const auto tree = tmap::load_topology("tleaf 3 2 20 4 10 4 1");
  const auto constraints = Constraints::all(*tree);
  std::vector<tmap::CommEntry> entries;
  for (Rank c = 0; c < 8; ++c) {
    for (Rank i = 0; i < 4; ++i) {
      for (Rank j = 0; j < 4; ++j) {
        if (i != j) entries.push_back({4 * c + i, 4 * c + j, 1000});
      }
    }
  }
  for (Rank c = 0; c < 8; c += 2) {
    entries.push_back({4 * c, 4 * c + 4, 10});
    entries.push_back({4 * c + 4, 4 * c, 10});
  }
  const auto comm = CommMatrix::from_entries(32, entries);
  const auto sym = comm.symmetrized();
  for (std::uint64_t seed = 1; seed <= 8; ++seed) {
    auto mapping = scrambled(32, constraints, seed);
    const auto stats = refine_tree_pairs(sym, *tree, constraints, mapping);
    EXPECT_TRUE(stats.applied);
    EXPECT_EQ(tmap::evaluate(comm, *tree, mapping).hop_bytes, 96'880) << "start " << seed;
  }
}

TEST(TreePairs, SplitsSmallRandomJobsAsAnExhaustiveSearch) {
  // 12 ranks on 2 boards of 6 cores (1 apart on a board, 11 across): the
  // hop-bytes are the total plus 10x the cut, so the optimum is the least
  // cut over all 924 ways to fill the first board, counted here.
  const auto tree = tmap::load_topology("tleaf 2 2 10 6 1");
  const auto constraints = Constraints::all(*tree);
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    const auto comm = tmap::gen::random_sparse(12, 3, 100, seed);
    const auto sym = comm.symmetrized();
    tmap::Volume best = -1;
    for (unsigned mask = 0; mask < (1U << 12); ++mask) {
      if (__builtin_popcount(mask) != 6) continue;
      Mapping m(12);
      for (Rank r = 0; r < 12; ++r) m[static_cast<std::size_t>(r)] = ((mask >> r) & 1U) != 0 ? 0 : 6;
      const auto cut = top_cut(comm, m, 6);
      if (best < 0 || cut < best) best = cut;
    }
    auto mapping = scrambled(12, constraints, seed);
    refine_tree_pairs(sym, *tree, constraints, mapping);
    EXPECT_EQ(top_cut(comm, mapping, 6), best) << "seed " << seed;
  }
}

TEST(TreePairs, KeepsCountsLowersTheTopCutAndIsTheSameOnAnyThreadCount) {
  // 4 racks of 4 boards of 8 cores, 2 slots a core, 200 ranks for 256
  // slots: PEs keep their counts (free slots stay free), the traffic
  // across racks only falls, and two threads give one thread's mapping.
  const auto tree = tmap::load_topology("tleaf 3 4 20 4 10 8 1");
  const auto constraints = Constraints::all(*tree, 2);
  const auto comm = tmap::gen::random_sparse(200, 6, 1000, 7);
  const auto sym = comm.symmetrized();
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    const auto start = scrambled(200, constraints, seed);
    auto one = start;
    auto two = start;
    const auto stats = refine_tree_pairs(sym, *tree, constraints, one, {.threads = 1});
    refine_tree_pairs(sym, *tree, constraints, two, {.threads = 2});
    EXPECT_EQ(one, two) << "start " << seed;
    EXPECT_EQ(counts(one, tree->size()), counts(start, tree->size())) << "start " << seed;
    EXPECT_LT(top_cut(comm, one, 32), top_cut(comm, start, 32)) << "start " << seed;
    EXPECT_GT(stats.moved, 0);
  }
}

TEST(TreePairs, LeavesMachinesWhoseDistancesDoNotFollowATree) {
  const auto comm = tmap::gen::random_sparse(64, 4, 100, 1).symmetrized();
  const auto applies = [&](const char* spec) {
    const auto topology = tmap::load_topology(spec);
    const auto constraints = Constraints::all(*topology);
    auto mapping = scrambled(64, constraints, 1);
    const auto before = mapping;
    const auto stats = refine_tree_pairs(comm, *topology, constraints, mapping);
    if (!stats.applied) {
      EXPECT_EQ(mapping, before) << spec;
    }
    return stats.applied;
  };
  EXPECT_TRUE(applies("tleaf 3 2 20 4 10 8 1"));
  // Tianhe-3's chips on a 2x2 mesh: two chips are 1 or 2 hops apart.
  EXPECT_FALSE(applies("tianhe3:2x2,nodes=4,cores=4"));
  EXPECT_FALSE(applies("torus2D 8 8"));
}

TEST(TreePairs, ByLoadKeepsEveryPeWithinItsLimitAndLowersTheTopCut) {
  // 600 ranks weighing 1-4 on 2 racks of 4 boards of 8 cores, balanced
  // by load (--imbalance 0.05): from a greedy start every PE stays within
  // the load limit and the count, the traffic across racks falls, and two
  // threads give one thread's mapping.
  const auto tree = tmap::load_topology("tleaf 3 2 20 4 10 8 1");
  tmap::detail::Random rng(11, 1);
  std::vector<tmap::Volume> weights(600);
  for (auto& w : weights) w = 1 + static_cast<tmap::Volume>(rng.below(4));
  const auto comm = tmap::gen::random_sparse(600, 6, 1000, 5).with_rank_weights(weights);
  const auto sym = comm.symmetrized();
  const auto constraints = Constraints::all(*tree).balanced(comm.rank_weights(), 600, 0.05, 0);
  ASSERT_GT(constraints.load_limit(), 0);
  // Ranks dealt in a seeded order onto the PE with the most room left.
  const auto dealt = [&](std::uint64_t seed) {
    std::vector<Rank> order(600);
    std::iota(order.begin(), order.end(), Rank{0});
    tmap::detail::Random shuffle(seed, 2);
    shuffle.shuffle(std::span<Rank>(order));
    std::vector<tmap::Volume> load(static_cast<std::size_t>(tree->size()), 0);
    Mapping m(600);
    for (const auto r : order) {
      const auto pe = std::min_element(load.begin(), load.end()) - load.begin();
      m[static_cast<std::size_t>(r)] = pe;
      load[static_cast<std::size_t>(pe)] += weights[static_cast<std::size_t>(r)];
    }
    return m;
  };
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    const auto start = dealt(seed);
    auto one = start;
    auto two = start;
    const auto stats = refine_tree_pairs(sym, *tree, constraints, one, {.threads = 1});
    refine_tree_pairs(sym, *tree, constraints, two, {.threads = 2});
    EXPECT_TRUE(stats.applied);
    EXPECT_GT(stats.moved, 0);
    EXPECT_EQ(one, two) << "start " << seed;
    std::vector<tmap::Volume> load(static_cast<std::size_t>(tree->size()), 0);
    for (Rank r = 0; r < 600; ++r)
      load[static_cast<std::size_t>(one[static_cast<std::size_t>(r)])] += weights[static_cast<std::size_t>(r)];
    EXPECT_LE(*std::max_element(load.begin(), load.end()), constraints.load_limit()) << "start " << seed;
    for (const auto c : counts(one, tree->size())) EXPECT_LE(c, constraints.capacity());
    EXPECT_LT(top_cut(comm, one, 32), top_cut(comm, start, 32)) << "start " << seed;
  }
}
