// Ranks of unequal weight balanced by load (--imbalance): the repair and
// the moves keep every PE within its limits, never raise hop-bytes, and the
// mappers that balance loads reach brute-forced optima on small jobs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "strategies/common/balanced_moves.hpp"
#include "tmap/comm_matrix.hpp"
#include "tmap/error.hpp"
#include "tmap/generators.hpp"
#include "tmap/machine.hpp"
#include "tmap/mapper.hpp"
#include "tmap/metrics.hpp"
#include "tmap/topology.hpp"

using tmap::CommEntry;
using tmap::CommMatrix;
using tmap::Constraints;
using tmap::Mapping;
using tmap::PE;
using tmap::Rank;
using tmap::Volume;

namespace {

tmap::Context strategy(const std::string& name) {
  tmap::Context context;
  context.strategy = name;
  return context;
}

/// Hop-bytes from the definition: sum over i < j of (A_ij + A_ji) d.
std::int64_t cost_of(const CommMatrix& comm, const tmap::Topology& t, const Mapping& m) {
  const auto sym = comm.symmetrized();
  std::int64_t total = 0;
  for (Rank i = 0; i < sym.num_ranks(); ++i) {
    for (Rank j = i + 1; j < sym.num_ranks(); ++j) total += sym.at(i, j) * t.distance(m[i], m[j]);
  }
  return total;
}

bool within(const Mapping& m, const CommMatrix& comm, const Constraints& c) {
  const auto loads = tmap::pe_loads(m, comm.rank_weights(), c);
  return std::ranges::all_of(loads, [&](Volume l) { return l <= c.load_limit(); });
}

/// The least hop-bytes of any mapping within the limits (every PE for every rank).
std::int64_t brute_force(const CommMatrix& comm, const tmap::Topology& t, const Constraints& c) {
  const auto n = static_cast<std::size_t>(comm.num_ranks());
  const auto pes = c.allowed_pes();
  std::vector<std::size_t> digit(n, 0);
  std::int64_t best = std::numeric_limits<std::int64_t>::max();
  Mapping m(n);
  while (true) {
    for (std::size_t r = 0; r < n; ++r) m[r] = pes[digit[r]];
    if (within(m, comm, c)) best = std::min(best, cost_of(comm, t, m));
    std::size_t k = 0;
    while (k < n && ++digit[k] == pes.size()) digit[k++] = 0;
    if (k == n) break;
  }
  return best;
}

/// Two groups of four ranks that talk a lot inside, a little across; rank 0
/// and rank 4 weigh 3, the others 1.
CommMatrix two_groups() {
  std::vector<CommEntry> e;
  for (Rank g : {0, 4}) {
    for (Rank i = g; i < g + 4; ++i) {
      for (Rank j = i + 1; j < g + 4; ++j) e.push_back({i, j, 100});
    }
  }
  e.push_back({0, 4, 1});
  return CommMatrix::from_entries(8, e).with_rank_weights({3, 1, 1, 1, 3, 1, 1, 1});
}

}  // namespace

TEST(BalancedMoves, HandComputedOptimumOnTwoNodes) {
  // Two nodes of two PEs (1 apart inside a node, 11 across): at EPS 0 a PE
  // holds weight 3, so each group fills a node: its heavy rank alone on one
  // PE, its three light ranks together on the other. Optimum: per group
  // 3 pairs x 100 x 1 (heavy rank to the others), plus the cross pair 1 x 11.
  const auto t = tmap::load_topology("tleaf 2 2 10 2 1");
  const auto comm = two_groups();
  const auto c = Constraints::all(*t).balanced(comm.rank_weights(), 8, 0.0, 0);
  ASSERT_EQ(c.load_limit(), 3);
  ASSERT_EQ(brute_force(comm, *t, c), 2 * 300 + 11);
  for (const char* name : {"auto", "scotch", "rb"}) {
    const auto m = tmap::map({comm, *t, c}, strategy(name));
    EXPECT_TRUE(within(m, comm, c)) << name;
    EXPECT_EQ(cost_of(comm, *t, m), 611) << name;
    EXPECT_EQ(tmap::evaluate(comm, *t, m).hop_bytes, 611) << name;  // graph traffic: each pair once
  }
}

TEST(BalancedMoves, RepairBringsEveryPeWithinItsLimitAndMovesNeverRaiseCost) {
  const auto t = tmap::load_topology("tleaf 2 2 10 2 1");
  const auto comm = two_groups();
  const auto c = Constraints::all(*t).balanced(comm.rank_weights(), 8, 0.0, 0);
  const auto sym = comm.symmetrized();
  // Everything on PE 0 (weight 12 against a limit of 3).
  Mapping m(8, 0);
  auto stats = tmap::strategies::balance_and_refine(sym, *t, c, m, 0);
  EXPECT_GT(stats.repaired, 0);
  EXPECT_TRUE(within(m, comm, c));
  tmap::validate_mapping(m, comm.rank_weights(), 8, c);
  // Moves from there: never worse, still within.
  const auto repaired = cost_of(comm, *t, m);
  stats = tmap::strategies::balance_and_refine(sym, *t, c, m, 16);
  EXPECT_EQ(stats.repaired, 0);
  EXPECT_LE(cost_of(comm, *t, m), repaired);
  EXPECT_TRUE(within(m, comm, c));
}

TEST(BalancedMoves, RandomSmallJobsWithinLimitsAndNearTheOptimum) {
  // Ten ranks of weight 1-3 on four PEs, random traffic: every mapper that
  // balances loads stays within the limit, at or above the brute-forced
  // optimum (a check of the evaluator too), and auto at or below scotch.
  const auto t = tmap::load_topology("tleaf 2 2 10 2 1");
  std::mt19937_64 random(5);
  for (int trial = 0; trial < 6; ++trial) {
    std::vector<CommEntry> e;
    for (Rank i = 0; i < 10; ++i) {
      for (Rank j = i + 1; j < 10; ++j) {
        if (random() % 3 == 0) e.push_back({i, j, static_cast<Volume>(1 + random() % 50)});
      }
    }
    std::vector<Volume> w(10);
    for (auto& x : w) x = static_cast<Volume>(1 + random() % 3);
    const auto comm = CommMatrix::from_entries(10, e).with_rank_weights(w);
    const auto c = Constraints::all(*t).balanced(w, 10, 0.2, 0);
    const auto best = brute_force(comm, *t, c);
    const auto by_auto = tmap::map({comm, *t, c}, strategy("auto"));
    const auto by_scotch = tmap::map({comm, *t, c}, strategy("scotch"));
    for (const auto* m : {&by_auto, &by_scotch}) {
      EXPECT_TRUE(within(*m, comm, c)) << trial;
      EXPECT_GE(cost_of(comm, *t, *m), best) << trial;
    }
    EXPECT_LE(cost_of(comm, *t, by_auto), cost_of(comm, *t, by_scotch)) << trial;
    // Small jobs get a tabu search after the moves: the optimum on each.
    EXPECT_EQ(cost_of(comm, *t, by_auto), best) << trial;
  }
}

TEST(BalancedMoves, OtherStrategiesHandWeightedJobsToAutoAndSaySo) {
  const auto t = tmap::load_topology("tleaf 2 2 10 2 1");
  const auto comm = two_groups();
  const auto c = Constraints::all(*t).balanced(comm.rank_weights(), 8, 0.0, 0);
  std::string instead;
  tmap::RunHooks hooks;
  hooks.fallback = [&](std::string_view, std::string_view to, std::string_view) { instead = std::string(to); };
  const auto m = tmap::map({comm, *t, c}, strategy("greedy"), hooks);
  EXPECT_EQ(instead, "auto");
  EXPECT_EQ(cost_of(comm, *t, m), 611);
  // A refinement asked for runs as moves within the limit.
  auto tabu = strategy("scotch");
  tabu.refine.kind = tmap::RefineKind::Tabu;
  tmap::StageStats stages;
  const auto refined = tmap::map_with("scotch", {comm, *t, c}, tabu, stages);
  ASSERT_TRUE(stages.refine.has_value());
  EXPECT_EQ(stages.refine->method, "moves within the load limit");
  EXPECT_TRUE(within(refined, comm, c));
}

TEST(BalancedMoves, SameMappingAtAnyThreadCount) {
  const auto t = tmap::load_topology("tleaf 3 2 10 4 5 4 1");
  std::vector<CommEntry> e;
  std::vector<Volume> w(200);
  for (Rank i = 0; i < 200; ++i) {
    w[static_cast<std::size_t>(i)] = 1 + (i * 7) % 5;
    e.push_back({i, (i + 1) % 200, 10});
    e.push_back({i, (i + 17) % 200, 3});
  }
  const auto comm = CommMatrix::from_entries(200, e).with_rank_weights(w);
  const auto c = Constraints::all(*t).balanced(w, 200, 0.05, 0);
  const auto one = strategy("auto");
  tmap::Context three = one;
  three.threads = 3;
  const auto a = tmap::map({comm, *t, c}, one);
  EXPECT_EQ(a, tmap::map({comm, *t, c}, three));
  EXPECT_TRUE(within(a, comm, c));
}

TEST(BalancedMoves, ManyRanksAPeTakeRbsCutByCount) {
  // 4,096 ranks of a shuffled 16x16x16 stencil at 512 a PE on 8 PEs (2
  // nodes of 4): auto cuts them by count (rb by weight, each rank weighing
  // 1), every PE within its count, at or below scotch and in-order.
  const auto t = tmap::load_topology("tleaf 2 2 10 4 1");
  const auto comm = tmap::gen::shuffle_ranks(tmap::gen::stencil({16, 16, 16}, 7, 10), 3);
  const auto c = Constraints::all(*t, 512);
  const tmap::Problem problem{comm, *t, c};
  const auto by_auto = tmap::map(problem, strategy("auto"));
  tmap::validate_mapping(by_auto, 4096, c);
  const auto cost = tmap::evaluate(comm, *t, by_auto).hop_bytes;
  EXPECT_LE(cost, tmap::evaluate(comm, *t, tmap::map(problem, strategy("scotch"))).hop_bytes);
  EXPECT_LE(cost, tmap::evaluate(comm, *t, tmap::map(problem, strategy("inorder"))).hop_bytes);
  auto two = strategy("auto");
  two.threads = 2;
  EXPECT_EQ(tmap::map(problem, two), by_auto);
}
