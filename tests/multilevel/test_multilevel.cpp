// The multilevel engine (src/multilevel) and the geometric strategy: the two
// hierarchies stay in step, V-cycles never increase hop-bytes (and are the
// same on any distance oracle), brute-forced
// optima on small machines, exact grid recovery of shuffled stencils (and
// refusals of what is not a grid), determinism at 1 and 2 threads.
#include <gtest/gtest.h>

#include <map>

#include "core/distance_oracle.hpp"
#include "fixtures.hpp"
#include "multilevel/levels.hpp"
#include "multilevel/multilevel.hpp"
#include "refine/slots.hpp"
#include "strategies/geometric/grid_recovery.hpp"
#include "tmap/generators.hpp"
#include "tmap/machine.hpp"
#include "tmap/topology_views.hpp"

namespace {

using tmap::CommMatrix;
using tmap::Constraints;
using tmap::Context;
using tmap::Problem;

std::int64_t hop_bytes(const CommMatrix& comm, const tmap::Topology& t, const tmap::Mapping& m) {
  return tmap::evaluate(comm, t, m).hop_bytes;
}

/// sigma (rank -> slot) as a mapping.
tmap::Mapping to_mapping(const std::vector<std::int64_t>& sigma, const Constraints& c) {
  tmap::Mapping m;
  for (const auto s : sigma) m.push_back(c.allowed_pes()[static_cast<std::size_t>(s / c.capacity())]);
  return m;
}

std::map<std::int64_t, std::int64_t> shape_counts(const std::vector<std::int64_t>& shapes) {
  std::map<std::int64_t, std::int64_t> counts;
  for (const auto s : shapes) ++counts[s];
  return counts;
}

TEST(Multilevel, HierarchiesStayInStepOnOddSizes) {
  // 100 slots (odd counts appear at 25): at every level the traffic's
  // clusters and the machine's groups have the same shapes, and the shapes
  // of each level's items are the shapes their children make.
  const auto topology = tmap::load_topology("tleaf 2 10 10 10 3");
  const auto constraints = Constraints::all(*topology);
  const auto sym = tmap::gen::random_sparse(90, 4, 1000, 5).symmetrized();
  tmap::detail::TopologyDistances d(*topology, constraints.allowed_pes());
  const auto targets = tmap::multilevel::target_levels(*topology, constraints.allowed_pes(), 1, d, 4);
  std::vector<tmap::multilevel::GraphLevel> graphs{tmap::multilevel::padded_graph(sym, 100)};
  while (graphs.size() < targets.size()) tmap::multilevel::coarsen_by_traffic(graphs, 3);
  ASSERT_GE(targets.size(), 4U);
  for (std::size_t l = 0; l < targets.size(); ++l) {
    EXPECT_EQ(shape_counts(graphs[l].shape), shape_counts(targets[l].shape)) << "level " << l;
  }
  EXPECT_LE(targets.back().count(), 4 * 2);
}

TEST(Multilevel, VcyclesNeverIncreaseHopBytes) {
  // From random mappings, on machines of several kinds, with free slots and
  // two ranks per PE: hop-bytes after V-cycles <= before, the mapping valid.
  const char* machines[] = {"torus3D 4 4 4", "tleaf 3 4 4 4 10 3 1", "tianhe3:2x2,nodes=8,cores=4", "mesh2D 6 10"};
  for (const char* spec : machines) {
    const auto topology = tmap::load_topology(spec);
    for (const std::int64_t per_pe : {1, 2}) {
      const auto constraints = Constraints::all(*topology, per_pe);
      const auto n = constraints.num_slots() - 5;
      const auto comm = tmap::gen::random_sparse(n, 5, 1000, 11);
      const auto sym = comm.symmetrized();
      // (Under the sanitizers one seed per machine and load: the same paths.)
      for (std::uint64_t seed = 1; seed <= (tmap::test::kSanitized ? 1U : 3U); ++seed) {
        Context c;
        c.strategy = "random";
        c.seed = seed;
        const auto start = tmap::map_with("random", Problem{comm, *topology, constraints}, c);
        auto sigma = tmap::refine::slots_of(start, constraints);
        const auto pes = constraints.allowed_pes();
        tmap::multilevel::Stats stats;
        tmap::multilevel::refine_slots(sym, *topology, constraints, sigma, 3, {}, &stats);
        const auto after = to_mapping(sigma, constraints);
        EXPECT_TRUE(tmap::test::places_within(after, n, {pes.begin(), pes.end()}, per_pe)) << spec;
        EXPECT_EQ(stats.before, hop_bytes(comm, *topology, start)) << spec;
        EXPECT_EQ(stats.after, hop_bytes(comm, *topology, after)) << spec;
        EXPECT_LE(stats.after, stats.before) << spec << " seed " << seed;
        EXPECT_LT(stats.after, stats.before) << spec << ": a random start is improved";
        // On distances the caller built (here computed pair by pair): the
        // same cycles.
        auto shared = tmap::refine::slots_of(start, constraints);
        const tmap::detail::TopologyDistances pairwise(*topology, pes);
        tmap::multilevel::refine_slots_on(sym, *topology, constraints, pairwise, shared, 3, {});
        EXPECT_EQ(shared, sigma) << spec << " seed " << seed;
      }
    }
  }
}

// Levels of more than 256 groups on distances that depend on nodes alone
// (tleafs, Tianhe-3) score a cluster's candidates from one sum per node:
// the same cycles as on distances computed pair by pair, with one rank a PE
// and with two (where two slots of a PE make the level fall back to rows:
// a partner on t's PE in the other slot is 0 away, not the node's distance).
TEST(Multilevel, NodeSumsMakeTheSameCyclesAsPairwiseDistances) {
  for (const char* spec : {"tleaf 3 4 8 4 10 32 1", "tianhe3:1x1,nodes=24,cores=24"}) {
    const auto topology = tmap::load_topology(spec);
    for (const std::int64_t per_pe : {1, 2}) {
      const auto constraints = Constraints::all(*topology, per_pe);
      const auto n = constraints.num_slots() - 37;
      const auto comm = tmap::gen::random_sparse(n, 5, 1000, 17);
      const auto sym = comm.symmetrized();
      Context c;
      c.seed = 5;
      const auto start = tmap::map_with("random", Problem{comm, *topology, constraints}, c);
      auto by_nodes = tmap::refine::slots_of(start, constraints);
      tmap::multilevel::Stats stats;
      tmap::multilevel::refine_slots(sym, *topology, constraints, by_nodes, 3, {}, &stats);
      EXPECT_LT(stats.after, stats.before) << spec;
      auto pairwise_sigma = tmap::refine::slots_of(start, constraints);
      const tmap::detail::TopologyDistances pairwise(*topology, constraints.allowed_pes());
      tmap::multilevel::refine_slots_on(sym, *topology, constraints, pairwise, pairwise_sigma, 3, {});
      EXPECT_EQ(by_nodes, pairwise_sigma) << spec << " per PE " << per_pe;
    }
  }
}

TEST(Multilevel, FindsBruteForcedOptimaOnSmallMachines) {
  // 8 ranks on 8 PEs: the coarsest level is the whole problem (tabu over
  // every swap): the brute-forced optimum. With a coarsest of 2 groups the
  // engine goes through three levels of local swaps: never below the
  // optimum (its costs are real), within 10 % of it on these.
  const char* machines[] = {"tleaf 2 2 10 4 1", "mesh2D 2 4", "torus2D 2 4", "hcub 3"};
  for (const char* spec : machines) {
    const auto topology = tmap::load_topology(spec);
    const auto constraints = Constraints::all(*topology);
    for (const std::uint64_t seed : {4, 9}) {
      const auto comm = tmap::gen::random_sparse(8, 3, 100, seed);
      const auto optimum = tmap::test::brute_force_optimum(comm, *topology);
      for (const std::int64_t coarsest : {64, 2}) {
        tmap::multilevel::Options options;
        options.coarsest = coarsest;
        tmap::multilevel::Stats stats;
        auto sigma = tmap::multilevel::map_slots(comm.symmetrized(), *topology, constraints, options, &stats);
        EXPECT_EQ(stats.levels, coarsest == 2 ? 3 : 1) << spec;
        tmap::multilevel::refine_slots(comm.symmetrized(), *topology, constraints, sigma, 3, options);
        const auto found = hop_bytes(comm, *topology, to_mapping(sigma, constraints));
        if (coarsest == 64) {
          EXPECT_EQ(found, optimum) << spec << " seed " << seed;
        } else {
          EXPECT_GE(found, optimum) << spec << " seed " << seed;
          EXPECT_LE(found * 10, optimum * 11) << spec << " seed " << seed;
        }
      }
      EXPECT_EQ(hop_bytes(comm, *topology, tmap::test::map_default("multilevel", comm, *topology, constraints)),
                optimum)
          << spec;
    }
  }
}

TEST(Multilevel, DeterministicAtOneAndTwoThreads) {
  const auto topology = tmap::load_topology("torus3D 8 8 8");
  const auto constraints = Constraints::all(*topology);
  const auto comm = tmap::gen::random_sparse(500, 6, 1000, 2);
  Context one;
  one.seed = 7;
  Context two = one;
  two.threads = 2;
  const Problem problem{comm, *topology, constraints};
  const auto first = tmap::map_with("multilevel", problem, one);
  // (Under the sanitizers, 1 thread against 2 only: the same code paths.)
  if (!tmap::test::kSanitized) {
    EXPECT_EQ(first, tmap::map_with("multilevel", problem, one));
  }
  EXPECT_EQ(first, tmap::map_with("multilevel", problem, two));
  Context refine = one;
  refine.refine.kind = tmap::RefineKind::Multilevel;
  Context refine_two = refine;
  refine_two.threads = 2;
  EXPECT_EQ(tmap::map_with("greedy", problem, refine), tmap::map_with("greedy", problem, refine_two));
}

TEST(GridRecovery, ShuffledStencilsAreRecoveredExactly) {
  // A line (built here: the generator makes 2D and 3D stencils).
  std::vector<tmap::CommEntry> line;
  for (tmap::Rank v = 0; v + 1 < 17; ++v) {
    line.push_back({v, v + 1, 1000});
    line.push_back({v + 1, v, 1000});
  }
  const auto line_comm = CommMatrix::from_entries(17, line);
  for (const std::vector<std::int64_t>& dims :
       std::vector<std::vector<std::int64_t>>{{17}, {5, 9}, {12, 7}, {6, 5, 4}, {16, 16, 16}, {2, 2}, {2, 3, 2}}) {
    const auto n = std::accumulate(dims.begin(), dims.end(), std::int64_t{1}, std::multiplies<>());
    const auto points = dims.size() == 2 ? 5 : 7;
    const auto comm =
        tmap::gen::shuffle_ranks(dims.size() == 1 ? line_comm : tmap::gen::stencil(dims, points, 1000), 13);
    const auto grid = tmap::strategies::recover_grid(comm.symmetrized());
    ASSERT_TRUE(grid.has_value()) << n;
    auto extent = grid->extent;
    auto expected = dims;
    std::sort(extent.begin(), extent.end());
    std::sort(expected.begin(), expected.end());
    EXPECT_EQ(extent, expected);
    // Every pair of the traffic is one step apart in the recovered grid.
    for (tmap::Rank v = 0; v < n; ++v) {
      for (const auto u : comm.targets(v)) {
        std::int64_t steps = 0;
        for (std::size_t k = 0; k < grid->axes(); ++k) {
          steps += std::abs(grid->coordinates[static_cast<std::size_t>(v) * grid->axes() + k] -
                            grid->coordinates[static_cast<std::size_t>(u) * grid->axes() + k]);
        }
        EXPECT_EQ(steps, 1);
      }
    }
  }
}

TEST(GridRecovery, ShuffledPeriodicStencilsAreRecoveredExactly) {
  // Rings and tori in any rank order: coordinates whose pairs are one step
  // apart around the wrap (is_exactly_the_grid, checked here again by hand).
  std::vector<tmap::CommEntry> ring;
  for (tmap::Rank v = 0; v < 11; ++v) {
    ring.push_back({v, (v + 1) % 11, 7});
    ring.push_back({(v + 1) % 11, v, 7});
  }
  const auto ring_comm = CommMatrix::from_entries(11, ring);
  for (const std::vector<std::int64_t>& dims :
       std::vector<std::vector<std::int64_t>>{{11}, {5, 9}, {40, 25}, {6, 5, 7}, {16, 16, 16}}) {
    const auto comm = tmap::gen::shuffle_ranks(
        dims.size() == 1 ? ring_comm : tmap::gen::stencil(dims, dims.size() == 2 ? 5 : 7, 1000, true), 3);
    const auto grid = tmap::strategies::recover_grid(comm.symmetrized());
    ASSERT_TRUE(grid.has_value()) << dims.size() << "D, " << dims.front();
    EXPECT_TRUE(grid->periodic);
    auto extent = grid->extent;
    auto expected = dims;
    std::sort(extent.begin(), extent.end());
    std::sort(expected.begin(), expected.end());
    EXPECT_EQ(extent, expected);
    for (tmap::Rank v = 0; v < comm.num_ranks(); ++v) {
      for (const auto u : comm.targets(v)) {
        std::int64_t steps = 0;
        for (std::size_t k = 0; k < grid->axes(); ++k) {
          const auto d = std::abs(grid->coordinates[static_cast<std::size_t>(v) * grid->axes() + k] -
                                  grid->coordinates[static_cast<std::size_t>(u) * grid->axes() + k]);
          steps += std::min(d, grid->extent[k] - d);
        }
        EXPECT_EQ(steps, 1);
      }
    }
  }
  // A torus with one pair rewired (same degrees): refused.
  auto torus = tmap::gen::stencil({6, 6}, 5, 1000, true);
  std::vector<tmap::CommEntry> entries;
  for (tmap::Rank v = 0; v < 36; ++v) {
    for (const auto u : torus.targets(v)) entries.push_back({v, u, 1000});
  }
  // Swap the partners of two pairs: 0-1 and 14-15 become 0-14 and 1-15.
  std::erase_if(entries, [](const tmap::CommEntry& e) {
    return (e.from == 0 && e.to == 1) || (e.from == 1 && e.to == 0) || (e.from == 14 && e.to == 15) ||
           (e.from == 15 && e.to == 14);
  });
  for (const auto& [a, b] : {std::pair<tmap::Rank, tmap::Rank>{0, 14}, {1, 15}}) {
    entries.push_back({a, b, 1000});
    entries.push_back({b, a, 1000});
  }
  EXPECT_FALSE(tmap::strategies::recover_grid(CommMatrix::from_entries(36, entries).symmetrized()));
}

TEST(GridRecovery, RefusesWhatIsNotAGrid) {
  using tmap::strategies::recover_grid;
  EXPECT_FALSE(recover_grid(tmap::gen::stencil({4, 8}, 5, 1000, true).symmetrized()));  // a periodic axis of 4
  EXPECT_FALSE(recover_grid(tmap::gen::stencil({8, 8}, 9, 1000).symmetrized()));        // diagonals
  EXPECT_FALSE(recover_grid(tmap::gen::random_sparse(64, 3, 1000, 1).symmetrized()));
  // A grid with one edge missing, and one with an extra edge.
  auto entries = std::vector<tmap::CommEntry>{};
  const auto grid = tmap::gen::stencil({6, 6}, 5, 1000);
  for (tmap::Rank v = 0; v < grid.num_ranks(); ++v) {
    for (const auto u : grid.targets(v)) {
      if (!((v == 14 && u == 15) || (v == 15 && u == 14))) entries.push_back({v, u, 1000});
    }
  }
  EXPECT_FALSE(recover_grid(CommMatrix::from_entries(36, entries).symmetrized()));
  entries.push_back({0, 35, 5});
  entries.push_back({14, 15, 1000});
  EXPECT_FALSE(recover_grid(CommMatrix::from_entries(36, entries).symmetrized()));
  // Two separate grids.
  std::vector<tmap::CommEntry> two;
  for (tmap::Rank v = 0; v < 9; ++v) {
    for (const auto u : grid.targets(v)) {
      if (u < 9) {
        two.push_back({v, u, 1});
        two.push_back({v + 9, u + 9, 1});
      }
    }
  }
  EXPECT_FALSE(recover_grid(CommMatrix::from_entries(18, two).symmetrized()));
}

TEST(Geometric, ShuffledStencilsReachTheOptimum) {
  // On a box of the grid's shape (any axis order) every pair is one hop:
  // hop-bytes = the traffic's total, the least any mapping has.
  struct Case {
    std::vector<std::int64_t> dims;
    const char* machine;
    std::int64_t per_pe;
    bool periodic = false;
  };
  const Case cases[] = {{{16, 16, 16}, "torus3D 16 16 16", 1}, {{16, 16, 16}, "torus3D 16 16 16", 1, true},
                        {{25, 40}, "torus2D 40 25", 1, true},  {{8, 4, 6}, "mesh3D 6 8 4", 1},
                        {{32, 16}, "mesh2D 16 32", 1},         {{16, 8, 8}, "torus3D 8 8 8", 2}};
  for (const auto& c : cases) {
    const auto topology = tmap::load_topology(c.machine);
    const auto constraints = Constraints::all(*topology, c.per_pe);
    const auto points = c.dims.size() == 2 ? 5 : 7;
    const auto comm = tmap::gen::shuffle_ranks(tmap::gen::stencil(c.dims, points, 1000, c.periodic), 7);
    const auto mapping = tmap::test::map_default("geometric", comm, *topology, constraints);
    EXPECT_TRUE(tmap::test::places_within(mapping, comm.num_ranks(), tmap::test::every_pe(*topology), c.per_pe));
    const auto hb = hop_bytes(comm, *topology, mapping);
    if (c.per_pe == 1) {
      EXPECT_EQ(hb, comm.total_volume()) << c.machine;
    } else {
      // Pairs along the folded axis share a PE (0 hops), the rest 1 hop.
      EXPECT_EQ(hb, comm.total_volume() - std::int64_t{8} * 8 * 8 * 2 * 1000) << c.machine;
    }
    // The default (auto) keeps it: provably optimal.
    if (c.per_pe == 1) {
      EXPECT_EQ(hop_bytes(comm, *topology, tmap::test::map_default("auto", comm, *topology, constraints)), hb);
    }
  }
}

}  // namespace

namespace {

TEST(DistanceOracle, GridDistancesAreTheTopologys) {
  // The coordinate oracle (meshes and tori whose table would be large) gives
  // the topology's own distance for every pair of a scattered set of PEs:
  // axes of 1 and 2, four axes, long axes with and without a wrap.
  for (const char* spec : {"torus3D 7 4 5", "mesh3D 6 5 4", "torus2D 9 12", "mesh2D 3 17", "torus2D 2 7",
                           "torus3D 6 1 4", "meshXD 4 3 2 4 2", "mesh2D 700 3", "torus2D 3 700"}) {
    const auto topology = tmap::load_topology(spec);
    std::vector<tmap::PE> pes;
    for (tmap::PE p = 0; p < topology->size(); p += 2) pes.push_back(p);
    std::vector<std::int64_t> extent;
    bool wraps = false;
    ASSERT_TRUE(grid_extent(*topology, extent, wraps)) << spec;
    EXPECT_EQ(wraps, std::string(spec).starts_with("torus")) << spec;
    const tmap::detail::GridDistances d(*topology, pes, extent, wraps);
    for (std::size_t u = 0; u < pes.size(); ++u) {
      for (std::size_t v = 0; v < pes.size(); ++v) {
        ASSERT_EQ(d(static_cast<std::int64_t>(u), static_cast<std::int64_t>(v)), topology->distance(pes[u], pes[v]))
            << spec << " " << pes[u] << " " << pes[v];
      }
    }
  }
  std::vector<std::int64_t> extent;
  bool wraps = false;
  EXPECT_FALSE(tmap::grid_extent(*tmap::load_topology("tleaf 2 4 10 4 1"), extent, wraps));
}

}  // namespace
