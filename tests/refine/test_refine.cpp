// Refinement after any strategy (--refine swap|tabu):
// exact move values (checked against the evaluator), local optimality,
// brute-forced optima, constraints, determinism, never worse.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <limits>
#include <numeric>
#include <string>

#include "fixtures.hpp"
#include "multilevel/multilevel.hpp"
#include "refine/dense_search.hpp"
#include "refine/slots.hpp"
#include "strategies/common/tree_pairs.hpp"
#include "tmap/comm_matrix.hpp"
#include "tmap/error.hpp"
#include "tmap/generators.hpp"
#include "tmap/machine.hpp"
#include "tmap/mapper.hpp"
#include "tmap/metrics.hpp"
#include "tmap/topology.hpp"
#include "util/random.hpp"

using tmap::CommMatrix;
using tmap::Constraints;
using tmap::Context;
using tmap::Problem;
using tmap::RefineKind;

namespace {

/// A dense problem straight from the definitions (positions = PEs, K = 1,
/// `n_ranks` real items, the rest silent).
tmap::refine::DenseProblem dense(const CommMatrix& sym, const tmap::Topology& t, std::int64_t positions) {
  tmap::refine::DenseProblem p;
  p.n = positions;
  p.w.assign(static_cast<std::size_t>(positions * positions), 0);
  p.d.assign(p.w.size(), 0);
  for (tmap::Rank i = 0; i < sym.num_ranks(); ++i) {
    for (tmap::Rank j = 0; j < sym.num_ranks(); ++j) p.w[static_cast<std::size_t>(i * positions + j)] = sym.at(i, j);
  }
  for (std::int64_t a = 0; a < positions; ++a) {
    for (std::int64_t b = 0; b < positions; ++b) p.d[static_cast<std::size_t>(a * positions + b)] = t.distance(a, b);
    p.pe.push_back(a);
    p.silent.push_back(a >= sym.num_ranks() ? 1 : 0);
  }
  return p;
}

std::int64_t hop_bytes(const CommMatrix& comm, const tmap::Topology& t, const std::vector<std::int64_t>& pos) {
  return tmap::evaluate(comm, t, tmap::Mapping(pos.begin(), pos.begin() + comm.num_ranks())).hop_bytes;
}

}  // namespace

// The descent's incremental move table must agree with the evaluator: its
// end is a true 2-opt local optimum (no swap of two items, silent or not,
// lowers hop-bytes) and its reported cost is the evaluator's.
TEST(Refine, DescentEndsAtAVerifiedLocalOptimum) {
  for (std::uint64_t seed = 0; seed < 12; ++seed) {
    const auto topology = tmap::load_topology(seed % 2 ? "tleaf 3 2 100 3 10 2 1" : "torus2D 4 3");
    const auto comm = tmap::gen::random_sparse(9, 3, 1000, seed);  // 3 free places of 12
    const auto sym = comm.symmetrized();
    const auto p = dense(sym, *topology, topology->size());
    std::vector<std::int64_t> pos(static_cast<std::size_t>(p.n));
    std::iota(pos.begin(), pos.end(), 0);
    std::reverse(pos.begin(), pos.end());
    const auto stats = tmap::refine::dense_descent(p, pos);
    const auto cost = hop_bytes(comm, *topology, pos);
    EXPECT_EQ(stats.best_cost, cost) << seed;  // sum_{i<j} (A+A^T)_ij d = hop-bytes
    for (std::size_t a = 0; a < pos.size(); ++a) {
      for (std::size_t b = a + 1; b < pos.size(); ++b) {
        auto trial = pos;
        std::swap(trial[a], trial[b]);
        EXPECT_GE(hop_bytes(comm, *topology, trial), cost) << seed << " " << a << " " << b;
      }
    }
  }
}

// Robust tabu search returns its best solution, whose cost the evaluator
// confirms, and on 8 ranks x 8 PEs it finds the brute-forced optimum.
TEST(Refine, TabuReachesBruteForcedOptima) {
  for (std::uint64_t seed = 0; seed < 6; ++seed) {
    const auto topology = tmap::load_topology(seed % 2 ? "mesh2D 4 2" : "tleaf 2 2 10 4 1");
    const auto comm = tmap::gen::random_sparse(8, 3, 1000, 40 + seed);
    const auto p = dense(comm.symmetrized(), *topology, 8);
    std::vector<std::int64_t> pos(8);
    std::iota(pos.begin(), pos.end(), 0);
    const auto stats = tmap::refine::robust_tabu(p, pos, 2000, 0.0, seed);
    EXPECT_EQ(stats.best_cost, hop_bytes(comm, *topology, pos));
    EXPECT_EQ(hop_bytes(comm, *topology, pos), tmap::test::brute_force_optimum(comm, *topology)) << seed;
  }
}

namespace {

/// Robust tabu search as dense_search.hpp states it, every move's value
/// summed from the definition (O(N^3) a move): the reference the move
/// table, its 32- and 64-bit kernels and its scan shortcuts must follow
/// move for move.
std::vector<std::int64_t> reference_tabu(const tmap::refine::DenseProblem& p, std::vector<std::int64_t> pos,
                                         std::int64_t iterations, std::uint64_t seed, std::int64_t aspiration_squares) {
  const auto n = p.n;
  const auto at = [n](const std::vector<std::int64_t>& m, std::int64_t a, std::int64_t b) {
    return m[static_cast<std::size_t>(a * n + b)];
  };
  const auto cost_of = [&](const std::vector<std::int64_t>& where) {
    std::int64_t c = 0;
    for (std::int64_t i = 0; i < n; ++i) {
      for (std::int64_t j = i + 1; j < n; ++j) c += at(p.w, i, j) * at(p.d, where[i], where[j]);
    }
    return c;
  };
  std::vector<std::int64_t> left(static_cast<std::size_t>(n * n));
  for (std::int64_t k = 0; k < n * n; ++k) left[static_cast<std::size_t>(k)] = -(k + 1);
  const auto t_min = std::max<std::int64_t>(2, (9 * n) / 10);
  const auto t_max = std::max<std::int64_t>(t_min + 1, (11 * n + 9) / 10);
  tmap::detail::Random rng(seed, 77);
  std::int64_t tenure = t_min;
  std::int64_t cost = cost_of(pos);
  std::int64_t best_cost = cost;
  auto best_pos = pos;
  for (std::int64_t it = 0; it < iterations; ++it) {
    if (it % (2 * t_max) == 0)
      tenure = t_min + static_cast<std::int64_t>(rng.below(static_cast<std::uint64_t>(t_max - t_min + 1)));
    std::int64_t br = -1;
    std::int64_t bs = -1;
    std::int64_t best = std::numeric_limits<std::int64_t>::max();
    bool forced = false;
    for (std::int64_t r = 0; r < n && !forced; ++r) {
      for (std::int64_t s = r + 1; s < n && !forced; ++s) {
        if (p.pe[static_cast<std::size_t>(pos[r])] == p.pe[static_cast<std::size_t>(pos[s])] ||
            (p.silent[static_cast<std::size_t>(r)] && p.silent[static_cast<std::size_t>(s)]))
          continue;
        const auto back_r = at(left, r, pos[s]);
        const auto back_s = at(left, s, pos[r]);
        if (back_r < it - aspiration_squares * n * n && back_s < it - aspiration_squares * n * n) {
          br = r;
          bs = s;
          forced = true;
          break;
        }
        auto trial = pos;
        std::swap(trial[r], trial[s]);
        const auto delta = cost_of(trial) - cost;
        const bool tabu = back_r >= it - tenure && back_s >= it - tenure;
        if (delta >= best || (tabu && cost + delta >= best_cost)) continue;
        best = delta;
        br = r;
        bs = s;
      }
    }
    if (br < 0) break;
    left[static_cast<std::size_t>(br * n + pos[br])] = it;
    left[static_cast<std::size_t>(bs * n + pos[bs])] = it;
    std::swap(pos[br], pos[bs]);
    cost = cost_of(pos);
    if (cost < best_cost) {
      best_cost = cost;
      best_pos = pos;
    }
  }
  return best_pos;
}

}  // namespace

// The move table's search follows the reference move for move: slots two
// to a PE (swaps within one change nothing), free slots, forced moves
// (aspiration after N^2 and 5 N^2 moves: both occur in 3 N^2 moves), with
// 32-bit traffic and with the same traffic times 2^32 (64-bit kernels: the
// same moves, every value scaled).
TEST(Refine, TabuFollowsTheReferenceMoveForMove) {
  for (std::uint64_t seed = 0; seed < 4; ++seed) {
    const auto topology = tmap::load_topology("tleaf 2 4 10 2 1");  // 8 PEs
    const auto comm = tmap::gen::random_sparse(13, 3, 1000, 70 + seed);
    const auto sym = comm.symmetrized();
    tmap::refine::DenseProblem p;
    p.n = 16;  // 16 slots on 8 PEs: 13 ranks, 3 free slots
    p.w.assign(256, 0);
    p.d.assign(256, 0);
    for (std::int64_t a = 0; a < p.n; ++a) {
      for (std::int64_t b = 0; b < p.n; ++b) {
        if (a < 13 && b < 13) p.w[static_cast<std::size_t>(a * 16 + b)] = sym.at(a, b);
        p.d[static_cast<std::size_t>(a * 16 + b)] = topology->distance(a / 2, b / 2);
      }
      p.pe.push_back(a / 2);
      p.silent.push_back(a >= 13 ? 1 : 0);
    }
    auto wide = p;
    for (auto& v : wide.w) v <<= 32;
    ASSERT_TRUE(tmap::refine::dense_fits(wide));
    constexpr std::int64_t kMoves = std::int64_t{3} * 256;  // 3 N^2
    for (const std::int64_t squares : {1, 5}) {
      std::vector<std::int64_t> start(16);
      std::iota(start.begin(), start.end(), 0);
      tmap::detail::Random shuffle(seed, 5);
      for (std::size_t k = start.size() - 1; k > 0; --k) std::swap(start[k], start[shuffle.below(k + 1)]);
      const auto expected = reference_tabu(p, start, kMoves, seed, squares);
      auto narrow_pos = start;
      const auto narrow = tmap::refine::robust_tabu(p, narrow_pos, kMoves, 0.0, seed, {}, squares);
      EXPECT_EQ(narrow_pos, expected) << seed << " " << squares;
      auto wide_pos = start;
      const auto scaled = tmap::refine::robust_tabu(wide, wide_pos, kMoves, 0.0, seed, {}, squares);
      EXPECT_EQ(wide_pos, expected) << seed << " " << squares;
      EXPECT_EQ(scaled.best_cost, narrow.best_cost << 32);
      EXPECT_EQ(narrow.swaps, kMoves) << "every move found a swap";
    }
  }
}

// Every strategy, refined by swap and by tabu, under an allocation with
// oversubscription: valid, never worse than the construction, deterministic.
TEST(Refine, AfterEveryStrategyUnderConstraintsNeverWorse) {
  const auto topology = tmap::load_topology("tianhe3:1x2,nodes=4,cores=4");
  const std::vector<tmap::PE> allowed{0, 1, 2, 5, 6, 9, 12, 13, 17, 20, 22, 27, 30};
  const auto constraints = Constraints::allowed(*topology, allowed, 2);
  const auto comm = tmap::gen::random_sparse(20, 3, 1000, 9);
  const Problem problem{comm, *topology, constraints};
  for (const auto& s : tmap::strategy_table()) {
    if (std::string(s.name) == "best") continue;
    Context plain;
    const auto built = tmap::evaluate(comm, *topology, tmap::map_with(s.name, problem, plain)).hop_bytes;
    for (const auto kind : {RefineKind::Swap, RefineKind::Tabu}) {
      Context context;
      context.refine.kind = kind;
      const auto mapping = tmap::map_with(s.name, problem, context);
      ASSERT_TRUE(tmap::test::places_within(mapping, 20, allowed, 2)) << s.name;
      EXPECT_LE(tmap::evaluate(comm, *topology, mapping).hop_bytes, built) << s.name;
      EXPECT_EQ(mapping, tmap::map_with(s.name, problem, context)) << s.name;
    }
  }
}

/// Refines `start` by swap, then by tabu, each from `start`: both results
/// are valid and scored as reported. [0] = swap, [1] = tabu.
static std::array<tmap::RefineStats, 2> refine_both(const Problem& problem, const tmap::Mapping& start) {
  std::array<tmap::RefineStats, 2> stats;
  for (const auto kind : {RefineKind::Swap, RefineKind::Tabu}) {
    auto mapping = start;
    Context context;
    context.refine.kind = kind;
    auto& s = stats[kind == RefineKind::Tabu ? 1 : 0];
    s = tmap::refine_mapping(problem, mapping, context);
    EXPECT_EQ(tmap::evaluate(problem.comm, problem.topology, mapping).hop_bytes, s.after) << s.method;
    EXPECT_NO_THROW(tmap::validate_mapping(mapping, problem.comm.num_ranks(), problem.constraints)) << s.method;
  }
  return stats;
}

// The search itself improves (not only the never-worse guard): from a random
// placement of a shuffled stencil every method finds strictly fewer
// hop-bytes, and tabu at least as few as swap.
TEST(Refine, TheSearchItselfImproves) {
  for (const char* machine : {"tianhe3:1x2,nodes=4,cores=4", "mesh2D 8 8"}) {
    const auto topology = tmap::load_topology(machine);
    const auto constraints = Constraints::all(*topology);
    const auto comm = tmap::gen::shuffle_ranks(tmap::gen::stencil({8, 4}, 5, 100), 3);
    const Problem problem{comm, *topology, constraints};
    const auto stats = refine_both(problem, tmap::map_with("random", problem, Context{}));
    for (const auto& s : stats) {
      EXPECT_LT(s.after, s.before * 3 / 4) << machine << " " << s.method;
      EXPECT_GT(s.swaps, 0) << machine;
    }
    EXPECT_LE(stats[1].after, stats[0].after) << machine;
  }
}

// A mapping with every byte at the machine's least distance (a stencil in
// its torus's order) is optimal: every refinement leaves it as it is and
// says so, without a search; one pair moved apart is searched again.
TEST(Refine, LeavesAProvablyOptimalMappingWithoutASearch) {
  const auto topology = tmap::load_topology("torus2D 8 8");
  const auto constraints = Constraints::all(*topology);
  const auto comm = tmap::gen::stencil({8, 8}, 5, 100);
  const Problem problem{comm, *topology, constraints};
  tmap::Mapping in_order(64);
  std::iota(in_order.begin(), in_order.end(), 0);
  for (const auto kind : {RefineKind::Swap, RefineKind::Tabu, RefineKind::Multilevel}) {
    auto mapping = in_order;
    Context context;
    context.refine.kind = kind;
    const auto stats = tmap::refine_mapping(problem, mapping, context);
    EXPECT_EQ(stats.method, "none (optimal)");
    EXPECT_EQ(stats.after, comm.total_volume());
    EXPECT_EQ(mapping, in_order);
  }
  auto swapped = in_order;
  std::swap(swapped[0], swapped[27]);
  Context context;
  context.refine.kind = RefineKind::Multilevel;
  const auto stats = tmap::refine_mapping(problem, swapped, context);
  EXPECT_NE(stats.method, "none (optimal)");
  EXPECT_EQ(stats.after, comm.total_volume());
}

// Above the move table's size the candidate lists carry both searches; tabu
// (which may worsen to escape) ends no worse than the swap descent it starts
// from, and on a greedy-built stencil it escapes the swap local optimum.
TEST(Refine, LargeInputsUseCandidateLists) {
  const auto topology = tmap::load_topology("tianhe3:2x2,nodes=32,cores=16");  // 2048 slots
  const auto constraints = Constraints::all(*topology);
  for (const bool stencil : {false, true}) {
    const auto comm = stencil ? tmap::gen::stencil({40, 50}, 5, 100) : tmap::gen::random_sparse(2000, 3, 1000, 2);
    const Problem problem{comm, *topology, constraints};
    const auto stats = refine_both(problem, tmap::map_with("greedy", problem, Context{}));
    EXPECT_EQ(stats[0].method, "swap (candidate lists)");
    EXPECT_EQ(stats[1].method, "tabu (candidate lists)");
    for (const auto& s : stats) EXPECT_LE(s.after, s.before);
    const std::int64_t after[2] = {stats[0].after, stats[1].after};
    EXPECT_LE(after[1], after[0]);
    if (stencil) {
      EXPECT_LT(after[1], after[0] * 9 / 10);  // 557,800 -> 418,600
    }
  }
}

// refine_from runs the stages that follow a strategy: started from a
// strategy's own construction it gives that strategy's refined mapping (the
// refinement, and the objective's where the machine has routes), and a start
// that breaks the problem is the caller's error, not ours.
TEST(Refine, FromAGivenMappingAsAfterAStrategy) {
  const auto comm = tmap::gen::random_sparse(48, 4, 1000, 5);
  for (const char* machine : {"tleaf 3 2 20 3 10 8 1", "torus2D 6 8"}) {
    const auto topology = tmap::load_topology(machine);
    const auto constraints = Constraints::all(*topology);
    const Problem problem{comm, *topology, constraints};
    for (const char* strategy : {"greedy", "inorder"}) {
      for (const auto kind : {RefineKind::Swap, RefineKind::Multilevel}) {
        for (const auto objective : {tmap::Objective::HopBytes, tmap::Objective::Congestion}) {
          if (objective != tmap::Objective::HopBytes && std::string(machine).starts_with("tleaf")) continue;
          Context plain;
          plain.objective = tmap::Objective::HopBytes;
          const auto built = tmap::map_with(strategy, problem, plain);
          Context context;
          context.refine.kind = kind;
          context.objective = objective;
          tmap::StageStats from_stages;
          const auto from = tmap::refine_from(built, problem, context, from_stages);
          tmap::StageStats stages;
          EXPECT_EQ(from, tmap::map_with(strategy, problem, context, stages)) << machine << strategy;
          ASSERT_TRUE(from_stages.refine.has_value());
          EXPECT_EQ(from_stages.refine->before, tmap::evaluate(comm, *topology, built).hop_bytes);
          EXPECT_EQ(from_stages.refine->after, stages.refine->after);
          EXPECT_LE(from_stages.refine->after, from_stages.refine->before);
          EXPECT_EQ(from_stages.objective.has_value(), objective != tmap::Objective::HopBytes);
        }
      }
    }
    tmap::StageStats stages;
    auto two_on_one = tmap::Mapping(48, 0);
    EXPECT_THROW((void)tmap::refine_from(two_on_one, problem, Context{}, stages), tmap::InputError);
    EXPECT_THROW((void)tmap::refine_from(tmap::Mapping(47, 0), problem, Context{}, stages), tmap::InputError);
  }
}

// Above 256 slots the V-cycles end --refine multilevel (the candidate
// search that followed them gained 0.04-0.38 % at 1,024-4,096 ranks for
// 2-4x their time): its mapping is the V-cycles' own from the same start,
// and its method names no search after them. Up to 256 slots the tabu
// search and the descent follow them.
TEST(Refine, MultilevelAboveTheDenseSizeEndsAtTheVCycles) {
  // Above 256 slots the V-cycles end the refinement (a torus: not a tree);
  // on a tleaf, FM between subtrees replaces them and ends below them here;
  // up to 256 slots the tabu search and the descent follow the V-cycles.
  const struct {
    tmap::Rank n;
    const char* machine;
  } cases[] = {{512, "torus3D 8 8 8"}, {512, "tleaf 3 4 20 4 10 32 1"}, {128, "tleaf 3 4 20 4 10 8 1"}};
  for (const auto& [n, machine] : cases) {
    const auto topology = tmap::load_topology(machine);
    const auto constraints = Constraints::all(*topology);
    const auto comm = tmap::gen::random_sparse(n, 6, 1000, 3);
    const Problem problem{comm, *topology, constraints};
    tmap::Mapping in_order(static_cast<std::size_t>(n));
    std::iota(in_order.begin(), in_order.end(), tmap::PE{0});
    auto mapping = in_order;
    Context context;
    context.refine.kind = RefineKind::Multilevel;
    const auto stats = tmap::refine_mapping(problem, mapping, context);
    EXPECT_LT(stats.after, stats.before) << machine;
    EXPECT_EQ(stats.after, tmap::evaluate(comm, *topology, mapping).hop_bytes) << machine;
    auto sigma = tmap::refine::slots_of(in_order, constraints);
    tmap::multilevel::Options options;
    tmap::multilevel::refine_slots(comm.symmetrized(), *topology, constraints, sigma, tmap::multilevel::kDefaultCycles,
                                   options);
    const auto cycles = tmap::refine::SlotSpace::of(constraints).to_mapping(sigma, constraints.allowed_pes());
    const bool tree = topology->kind() == "tleaf";
    if (n > tmap::refine::kMaxDenseDescent && !tree) {
      EXPECT_EQ(stats.method.find('+'), std::string::npos) << stats.method;
      EXPECT_EQ(mapping, cycles);
    } else if (n > tmap::refine::kMaxDenseDescent) {
      EXPECT_EQ(stats.method, "multilevel (FM between subtrees)");
      auto pairs = in_order;
      EXPECT_TRUE(tmap::strategies::refine_tree_pairs(comm.symmetrized(), *topology, constraints, pairs).applied);
      EXPECT_EQ(mapping, pairs);
      EXPECT_LT(stats.after, tmap::evaluate(comm, *topology, cycles).hop_bytes);
    } else {
      EXPECT_NE(stats.method.find("tabu + swap"), std::string::npos) << stats.method;
      EXPECT_LE(stats.after, tmap::evaluate(comm, *topology, cycles).hop_bytes);
    }
  }
}
