// The shared gain state (refine/rank_costs.hpp) against a direct evaluation
// of sum_ij A_ij d(p_i, p_j): every predicted gain must equal the measured
// change, and the cached costs must stay exact through long random runs of
// moves and swaps (with several ranks on one place, as umpa's sites have).
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "core/distance_oracle.hpp"
#include "refine/candidate_search.hpp"
#include "refine/rank_costs.hpp"
#include "tmap/comm_matrix.hpp"
#include "tmap/generators.hpp"
#include "tmap/machine.hpp"
#include "tmap/topology.hpp"

namespace {

using tmap::detail::Int128;

/// Hop-bytes counted from the raw (unsymmetrised) matrix, no cache.
Int128 hop_bytes(const tmap::CommMatrix& comm, const tmap::Topology& topology, const std::vector<std::int64_t>& place) {
  Int128 sum = 0;
  for (tmap::Rank i = 0; i < comm.num_ranks(); ++i) {
    const auto cols = comm.targets(i);
    const auto vols = comm.volumes(i);
    for (std::size_t e = 0; e < cols.size(); ++e) {
      sum += static_cast<Int128>(vols[e]) *
             topology.distance(place[static_cast<std::size_t>(i)], place[static_cast<std::size_t>(cols[e])]);
    }
  }
  return sum;
}

TEST(RankCosts, PredictedGainsEqualMeasuredChangesThroughRandomMoves) {
  const auto topology = tmap::load_topology("mesh2D 5 4");
  // Asymmetric traffic: the state works on A + A^T, the check on A itself.
  auto comm = tmap::gen::random_sparse(40, 5, 1000, 7);
  std::vector<tmap::CommEntry> entries;
  for (tmap::Rank i = 0; i < comm.num_ranks(); ++i) {
    const auto cols = comm.targets(i);
    const auto vols = comm.volumes(i);
    for (std::size_t e = 0; e < cols.size(); ++e) entries.push_back({i, cols[e], vols[e] * (1 + (i % 3))});
  }
  comm = tmap::CommMatrix::from_entries(40, entries);
  const auto sym = comm.symmetrized();
  std::mt19937_64 rng(11);
  std::vector<std::int64_t> place(40);
  for (auto& p : place) p = static_cast<std::int64_t>(rng() % 20);  // two ranks per PE on average
  const auto d = [&](std::int64_t a, std::int64_t b) { return topology->distance(a, b); };
  tmap::refine::RankCosts costs(sym, place, d);
  ASSERT_EQ(costs.total(), hop_bytes(comm, *topology, place));
  int improving = 0;
  for (int step = 0; step < 2000; ++step) {
    const auto a = static_cast<tmap::Rank>(rng() % 40);
    const Int128 before = hop_bytes(comm, *topology, costs.places());
    Int128 predicted = 0;
    if (step % 2 == 0) {
      const auto p = static_cast<std::int64_t>(rng() % 20);
      predicted = costs.move_gain(a, p);
      costs.move(a, p);
    } else {
      const auto b = static_cast<tmap::Rank>(rng() % 40);
      predicted = costs.swap_gain(a, b);
      costs.swap(a, b);
    }
    const Int128 after = hop_bytes(comm, *topology, costs.places());
    ASSERT_EQ(predicted, before - after) << "step " << step;
    ASSERT_EQ(costs.total(), after) << "step " << step;
    if (predicted > 0) ++improving;
  }
  // Both signs were exercised, so a gain with the wrong sign would have failed.
  EXPECT_GT(improving, 100);
  EXPECT_LT(improving, 1900);
  // Each cached cost equals a fresh sum.
  for (tmap::Rank a = 0; a < 40; ++a) EXPECT_EQ(costs.current(a), costs.cost_at(a, costs.place(a)));
}

}  // namespace

// The candidate search scores a node's PEs from one sum per node where the
// distances depend on nodes alone (NodeDistances); on the same distances
// from a full table (DenseDistances: RankCosts' gains slot by slot) it must
// make the same moves: the same placement, passes, swaps and moves, for
// the descent and the tabu search, with one and two slots a PE (free slots:
// moves too).
TEST(CandidateSearch, NodeSumsMakeTheSameMovesAsSlotBySlotGains) {
  const auto topology = tmap::load_topology("tleaf 3 4 20 4 10 8 1");
  const auto intra = topology->node_uniform_distance();
  ASSERT_TRUE(intra.has_value());
  std::vector<tmap::PE> pes(128);
  for (std::size_t u = 0; u < pes.size(); ++u) pes[u] = static_cast<tmap::PE>(u);
  const tmap::detail::NodeDistances<std::uint8_t> by_node(*topology, pes, *intra, 1);
  const tmap::detail::DenseDistances<std::uint8_t> by_table(*topology, pes, 1);
  const auto nodes = tmap::refine::local_nodes(*topology, pes);
  for (const std::int64_t capacity : {1, 2}) {
    const tmap::refine::SlotSpace slots{128 * capacity, capacity};
    const tmap::Rank n = capacity == 1 ? 128 : 200;
    const auto sym = tmap::gen::random_sparse(n, 6, 1000, 3).symmetrized();
    std::vector<std::int64_t> start(static_cast<std::size_t>(slots.num_slots));
    for (std::size_t s = 0; s < start.size(); ++s) start[s] = static_cast<std::int64_t>(s);
    std::shuffle(start.begin(), start.end(), std::mt19937(static_cast<std::uint32_t>(capacity)));
    start.resize(static_cast<std::size_t>(n));
    auto fast = start;
    auto plain = start;
    const auto a = tmap::refine::candidate_search(sym, slots, by_node, nodes, fast, 50);
    const auto b = tmap::refine::candidate_search(sym, slots, by_table, nodes, plain, 50);
    EXPECT_EQ(fast, plain) << capacity;
    EXPECT_EQ(a.passes, b.passes);
    EXPECT_EQ(a.swaps, b.swaps);
    EXPECT_EQ(a.moves, b.moves);
    EXPECT_GT(a.swaps + a.moves, 0);
    fast = start;
    plain = start;
    (void)tmap::refine::candidate_tabu(sym, slots, by_node, nodes, fast, 2000, 5);
    (void)tmap::refine::candidate_tabu(sym, slots, by_table, nodes, plain, 2000, 5);
    EXPECT_EQ(fast, plain) << capacity;
    // Candidates grouped otherwise than the distances' nodes (two nodes a
    // group, as a caller may): slot by slot again, the same moves.
    auto pairs = nodes;
    for (auto& node : pairs) node /= 2;
    fast = start;
    plain = start;
    (void)tmap::refine::candidate_search(sym, slots, by_node, pairs, fast, 50);
    (void)tmap::refine::candidate_search(sym, slots, by_table, pairs, plain, 50);
    EXPECT_EQ(fast, plain) << capacity;
  }
}
