// The paper's baselines (greedy, rcm) and Deveci et al.'s strategies: hand-
// worked traces, brute-forced optima, refinements that never worsen their
// own metric, and invariance to the direction of messages.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "fixtures.hpp"
#include "strategies/rcm/rcm.hpp"
#include "tmap/comm_matrix.hpp"
#include "tmap/error.hpp"
#include "tmap/generators.hpp"
#include "tmap/mapper.hpp"
#include "tmap/metrics.hpp"
#include "tmap/routing.hpp"
#include "tmap/topology.hpp"
#include "util/random.hpp"

using tmap::CommMatrix;
using tmap::Constraints;
using tmap::Context;
using tmap::Problem;

namespace {

tmap::Mapping run(const char* strategy, const CommMatrix& comm, const tmap::Topology& topology,
                  const Constraints& constraints) {
  return tmap::map_with(strategy, Problem{comm, topology, constraints}, Context{});
}

/// A path 0-1-...-(n-1) with the ranks renumbered by `perm`.
CommMatrix shuffled_path(tmap::Rank n, const std::vector<tmap::Rank>& perm, tmap::Volume volume) {
  std::vector<tmap::CommEntry> entries;
  for (tmap::Rank i = 0; i + 1 < n; ++i) {
    entries.push_back({perm[i], perm[i + 1], volume});
    entries.push_back({perm[i + 1], perm[i], volume});
  }
  return CommMatrix::from_entries(n, std::move(entries));
}

}  // namespace

// A path 0-1 (10 B), 1-2 (5 B), 2-3 (1 B) on a 2x2 mesh (a 4-cycle). Rank 1
// is heaviest (15 B) and starts on PE 0 (every PE is equally central). Rank 0
// (10 B to rank 1) is cheapest on PE 1 or PE 2 (1 hop): PE 1, the lower.
// Rank 2 then costs 5 on PE 2 and 10 on PE 3: PE 2; rank 3 takes PE 3. Every
// edge is 1 hop: hop-bytes 2 x 16 = 32, the optimum.
TEST(Greedy, HandTracedOnATwoByTwoMesh) {
  const auto topology = tmap::load_topology("mesh2D 2 2");
  const auto comm = CommMatrix::from_entries(4, {{0, 1, 10}, {1, 0, 10}, {1, 2, 5}, {2, 1, 5}, {2, 3, 1}, {3, 2, 1}});
  const auto mapping = run("greedy", comm, *topology, Constraints::all(*topology));
  EXPECT_EQ(mapping, (tmap::Mapping{1, 0, 2, 3}));
  EXPECT_EQ(tmap::evaluate(comm, *topology, mapping).hop_bytes, 32);
}

// Four heavy pairs and light traffic between them on a tree of four nodes
// with two cores: the optimum keeps each pair on a node, as greedy does.
TEST(Greedy, ReachesTheOptimumOfPairedRanksOnATree) {
  const auto topology = tmap::load_topology("tleaf 2 4 10 2 1");
  std::vector<tmap::CommEntry> entries;
  const tmap::Rank pairs[4][2] = {{0, 5}, {1, 6}, {2, 7}, {3, 4}};
  for (const auto& p : pairs) {
    entries.push_back({p[0], p[1], 100});
    entries.push_back({p[1], p[0], 100});
  }
  for (tmap::Rank i = 0; i < 8; ++i) entries.push_back({i, (i + 1) % 8, 1});
  const auto comm = CommMatrix::from_entries(8, entries);
  const auto optimum = tmap::test::brute_force_optimum(comm, *topology);
  for (const char* s : {"greedy", "umpa-greedy", "umpa-wh"}) {
    EXPECT_EQ(tmap::evaluate(comm, *topology, run(s, comm, *topology, Constraints::all(*topology))).hop_bytes, optimum)
        << s;
  }
}

TEST(Rcm, OrdersAShuffledPathAlongThePath) {
  const auto perm = tmap::gen::shuffle_permutation(40, 5);
  const auto sym = shuffled_path(40, perm, 1);
  const auto order = tmap::strategies::rcm_order(sym);
  ASSERT_EQ(order.size(), 40U);
  for (std::size_t k = 0; k + 1 < order.size(); ++k) EXPECT_GT(sym.at(order[k], order[k + 1]), 0) << k;
}

// A shuffled path onto a line: RCM finds the bandwidth-1 orders of both, so
// every path edge is one hop (the optimum). (On a ring RCM's order leaves
// the ring's vertices alternating around it: bandwidth 2 as an order, far
// from 1 hop as a placement. That is the baseline as published.)
TEST(Rcm, MapsAShuffledPathOntoALineOptimally) {
  const auto perm = tmap::gen::shuffle_permutation(12, 9);
  const auto comm = shuffled_path(12, perm, 7);
  for (const char* spec : {"mesh2D 12 1", "mesh2D 3 4"}) {
    const auto topology = tmap::load_topology(spec);
    const auto mapping = run("rcm", comm, *topology, Constraints::all(*topology));
    if (std::string(spec) == "mesh2D 3 4") {
      // A 3x4 grid's RCM order snakes diagonally: not every step is one hop.
      EXPECT_LT(tmap::evaluate(comm, *topology, mapping).hop_bytes, 2 * 11 * 7 * 3);
    } else {
      EXPECT_EQ(tmap::evaluate(comm, *topology, mapping).hop_bytes, 2 * 11 * 7) << spec;
    }
  }
}

// Random instances on every routed kind, with allocations and oversubscription:
// umpa-wh never has more hop-bytes than umpa-greedy (its start), umpa-mc
// never more maximum congestion than umpa-wh (its start); and MC does drop.
TEST(Umpa, RefinementsNeverWorsenTheirOwnMetric) {
  const char* specs[] = {"torus2D 4 4",         "mesh3D 3 3 2",         "tianhe3:1x3,nodes=4,cores=2",
                         "tianhe3:2x2,nodes=4", "tleaf 3 2 50 4 5 4 1", "hcub 4"};
  int mc_dropped = 0;
  for (std::uint64_t seed = 0; seed < 24; ++seed) {
    const auto topology = tmap::load_topology(specs[seed % std::size(specs)]);
    tmap::detail::Random rng(seed, 33);
    const auto allowed = tmap::test::random_allowed_pes(*topology, rng, 4);
    const auto constraints = Constraints::allowed(*topology, allowed, 1 + static_cast<std::int64_t>(seed % 3 == 2));
    const auto n = static_cast<tmap::Rank>(constraints.num_slots() - static_cast<std::int64_t>(rng.below(3)));
    const auto comm = tmap::gen::random_sparse(n, 3, 1000, seed);
    const auto greedy = run("umpa-greedy", comm, *topology, constraints);
    const auto wh = run("umpa-wh", comm, *topology, constraints);
    const auto mc = run("umpa-mc", comm, *topology, constraints);
    EXPECT_LE(tmap::evaluate(comm, *topology, wh).hop_bytes, tmap::evaluate(comm, *topology, greedy).hop_bytes)
        << topology->description() << " seed " << seed;
    const auto routing = tmap::make_routing(*topology);
    const auto mc_wh = tmap::evaluate_routes(comm, *routing, wh).mc;
    const auto mc_mc = tmap::evaluate_routes(comm, *routing, mc).mc;
    EXPECT_LE(mc_mc, mc_wh) << topology->description() << " seed " << seed;
    mc_dropped += mc_mc < mc_wh ? 1 : 0;
  }
  EXPECT_GT(mc_dropped, 6);
}

// The paper's WH is undirected: the strategies read A + A^T, so A and its
// transpose get the same mapping, and TH and WH do not change either.
TEST(Umpa, MessageDirectionDoesNotMatter) {
  const auto topology = tmap::load_topology("tianhe3:2x2,nodes=4,cores=2");
  const auto comm = tmap::gen::random_sparse(30, 3, 1000, 4);
  std::vector<tmap::CommEntry> flipped;
  for (tmap::Rank i = 0; i < comm.num_ranks(); ++i) {
    for (std::size_t k = 0; k < comm.targets(i).size(); ++k) {
      flipped.push_back({comm.targets(i)[k], i, comm.volumes(i)[k]});
    }
  }
  const auto transposed = CommMatrix::from_entries(comm.num_ranks(), flipped);
  const auto constraints = Constraints::all(*topology);
  const auto routing = tmap::make_routing(*topology);
  for (const char* s : {"greedy", "rcm", "umpa-greedy", "umpa-wh"}) {
    const auto a = run(s, comm, *topology, constraints);
    EXPECT_EQ(a, run(s, transposed, *topology, constraints)) << s;
    const auto ra = tmap::evaluate_routes(comm, *routing, a);
    const auto rt = tmap::evaluate_routes(transposed, *routing, a);
    EXPECT_EQ(ra.th, rt.th);
    EXPECT_EQ(ra.wh, rt.wh);
  }
}

// On a distance-only target umpa-mc has no routes: it returns umpa-wh's mapping.
TEST(Umpa, CongestionRefinementNeedsARoutingModel) {
  const auto topology = tmap::load_topology("cmpltw 4 1 1 1 1");
  const auto comm = tmap::gen::random_sparse(4, 2, 100, 1);
  const auto constraints = Constraints::all(*topology);
  EXPECT_EQ(run("umpa-mc", comm, *topology, constraints), run("umpa-wh", comm, *topology, constraints));
}

// A small job on a whole large machine (6144 nodes): rcm orders only the
// first nodes holding 4x the ranks, so it stays in that corner and quick.
TEST(Rcm, SmallJobOnALargeMachineStaysInACompactCorner) {
  const auto topology = tmap::load_topology("tianhe3:8x8");
  const auto comm = tmap::gen::shuffle_ranks(tmap::gen::stencil({8, 8}, 5, 100), 3);
  const auto mapping = run("rcm", comm, *topology, Constraints::all(*topology));
  for (const auto pe : mapping) EXPECT_LT(pe, 4 * 64);
  tmap::validate_mapping(mapping, 64, Constraints::all(*topology));
}

// The default strategy keeps in-order where Scotch's bipartitioning does
// worse (a natural 8x8x8 stencil on torus3D 8 8 8: in-order is the optimum,
// one hop per message, 3,072 messages x 1000 bytes x 2 directions) and
// Scotch's mapping where in-order is poor (the same stencil shuffled).
TEST(Auto, NeverWorseThanInOrderAndScotchWhereInOrderIsPoor) {
  const auto topology = tmap::load_topology("torus3D 8 8 8");
  const auto constraints = Constraints::all(*topology);
  const auto natural = tmap::gen::stencil({8, 8, 8}, 7, 1000, true);
  const Problem on_natural{natural, *topology, constraints};
  const auto cost = [&](const CommMatrix& comm, const char* strategy) {
    return tmap::evaluate(comm, *topology, tmap::map_with(strategy, Problem{comm, *topology, constraints}, Context{}))
        .hop_bytes;
  };
  EXPECT_EQ(cost(natural, "auto"), 3072000);
  EXPECT_EQ(tmap::map_with("auto", on_natural, Context{}), tmap::map_with("inorder", on_natural, Context{}));
  const auto shuffled = tmap::gen::shuffle_ranks(natural, 7);
  const Problem on_shuffled{shuffled, *topology, constraints};
  EXPECT_LT(cost(shuffled, "scotch+"), cost(shuffled, "inorder"));
  EXPECT_EQ(tmap::map_with("auto", on_shuffled, Context{}), tmap::map_with("scotch+", on_shuffled, Context{}));
}

// Where in-order puts every communicating pair at the machine's least
// distance (one hop on a torus) it is provably optimal and auto stops there,
// without running Scotch; one pair farther, or two ranks per PE (where 0 is
// the least), and it does not claim so.
TEST(Auto, StopsAtAProvablyOptimalInOrderAndOnlyThere) {
  const auto topology = tmap::load_topology("torus3D 8 8 8");
  std::string notes;
  tmap::Run context;
  context.hooks.verbosity = 2;
  context.hooks.log = [&](std::string_view message) { notes += std::string(message) + "\n"; };
  const auto claims_optimal = [&](const CommMatrix& comm, const Constraints& constraints) {
    notes.clear();
    const Problem problem{comm, *topology, constraints};
    const auto mapping = tmap::map_with("auto", problem, context);
    tmap::validate_mapping(mapping, comm.num_ranks(), constraints);
    return notes.find("optimal") != std::string::npos;
  };
  const auto one_per_pe = Constraints::all(*topology);
  const auto natural = tmap::gen::stencil({8, 8, 8}, 7, 1000, true);
  EXPECT_TRUE(claims_optimal(natural, one_per_pe));
  EXPECT_EQ(tmap::evaluate(natural, *topology, tmap::map_with("auto", Problem{natural, *topology, one_per_pe}, context))
                .hop_bytes,
            3072000);
  // An 8x8x8 stencil without wrap-around: still one hop everywhere.
  EXPECT_TRUE(claims_optimal(tmap::gen::stencil({8, 8, 8}, 7, 1000), one_per_pe));
  // A 4x4 torus stencil laid in order over an 8-wide row: some pairs 3 hops apart.
  EXPECT_FALSE(claims_optimal(tmap::gen::stencil({4, 4}, 5, 1000, true), one_per_pe));
  EXPECT_FALSE(claims_optimal(tmap::gen::shuffle_ranks(natural, 7), one_per_pe));
  std::vector<tmap::PE> all(static_cast<std::size_t>(topology->size()));
  std::iota(all.begin(), all.end(), tmap::PE{0});
  EXPECT_FALSE(claims_optimal(tmap::gen::stencil({8, 8, 4}, 7, 1000, true), Constraints::allowed(*topology, all, 2)));
}

#include "strategies/common/sites.hpp"

// Beyond kScanSites, nearest() searches the machine graph instead of
// scanning every site: the lists must be the scan's, tie order included
// (greedy and umpa decide by them), on each kind with a graph and with a
// fragmented allocation.
TEST(Sites, GraphSearchGivesTheScansNearestSites) {
  using tmap::strategies::Site;
  using tmap::strategies::SiteSpace;
  for (const char* spec :
       {"torus3D 20 16 16", "mesh3D 20 18 16", "tianhe3:8x8,nodes=96,cores=2", "tleaf 3 400 10 16 5 2 1", "hcub 13"}) {
    SCOPED_TRACE(spec);
    const auto topology = tmap::load_topology(spec);
    std::vector<tmap::PE> allowed;
    for (tmap::PE p = 0; p < topology->size(); ++p) {
      if (p % 7 != 3) allowed.push_back(p);
    }
    const SiteSpace sites(*topology, Constraints::allowed(*topology, allowed, 1));
    ASSERT_GT(sites.num_sites(), SiteSpace::kScanSites);
    for (Site s = 0; s < sites.num_sites(); s += sites.num_sites() / 97) {
      std::vector<std::pair<tmap::Distance, Site>> all;
      for (Site t = 0; t < sites.num_sites(); ++t) {
        if (t != s) all.emplace_back(sites.distance(s, t), t);
      }
      std::sort(all.begin(), all.end());
      std::vector<Site> expected;
      for (std::size_t k = 0; k < SiteSpace::kNearest; ++k) expected.push_back(all[k].second);
      const auto got = sites.nearest(s);
      ASSERT_EQ(std::vector<Site>(got.begin(), got.end()), expected) << "site " << s;
    }
  }
}

// On a tree machine auto also tries treematch and keeps the lowest: a
// 16x16x16 stencil on racks of 4 boards of 64 cores, where treematch's
// grouping beats Scotch's bipartitioning (120,320,000 against 127,680,000
// hop-bytes when written).
TEST(Auto, KeepsTreematchWhereItBeatsScotchOnATree) {
  const auto topology = tmap::load_topology("tleaf 3 16 20 4 10 64 1");
  const auto comm = tmap::gen::stencil({16, 16, 16}, 7, 1000);
  const Problem problem{comm, *topology, Constraints::all(*topology)};
  const auto cost = [&](const char* strategy) {
    return tmap::evaluate(comm, *topology, tmap::map_with(strategy, problem, Context{})).hop_bytes;
  };
  const auto treematch = cost("treematch");
  EXPECT_LT(treematch, cost("scotch+"));
  EXPECT_EQ(cost("auto"), treematch);
  EXPECT_EQ(tmap::map_with("auto", problem, Context{}), tmap::map_with("treematch", problem, Context{}));
}

// Above 16,384 ranks on a tree machine auto compares treematch with
// in-order only (scotch lost every such case measured, at 10x the time).
TEST(Auto, LeavesScotchOutOnLargeTrees) {
  const auto topology = tmap::load_topology("tleaf 3 68 20 4 10 64 1");
  const auto comm = tmap::gen::stencil({32, 32, 17}, 7, 1000);
  ASSERT_GT(comm.num_ranks(), 16384);
  const Problem problem{comm, *topology, Constraints::all(*topology)};
  std::string notes;
  tmap::Run context;
  context.hooks.verbosity = 2;
  context.hooks.log = [&](std::string_view message) { notes += std::string(message) + "\n"; };
  const auto mapping = tmap::map_with("auto", problem, context);
  EXPECT_EQ(mapping, tmap::map_with("treematch", problem, Context{}));
  EXPECT_NE(notes.find("auto: treematch kept (hop-bytes treematch "), std::string::npos) << notes;
  EXPECT_EQ(notes.find("scotch"), std::string::npos) << notes;
}

// Beyond 262,144 sites the site-by-site constructions refuse with a clear
// message naming what to use (greedy took 151 s on a million-PE torus).
TEST(Sites, ConstructionsRefuseAMillionSitesNamingTheAlternative) {
  const auto topology = tmap::load_topology("torus3D 64 64 65");
  const auto comm = tmap::gen::stencil({4, 4}, 5, 10);
  const Problem problem{comm, *topology, Constraints::all(*topology)};
  for (const char* strategy : {"greedy", "umpa-greedy", "umpa-wh", "umpa-mc"}) {
    try {
      (void)tmap::map_with(strategy, problem, Context{});
      ADD_FAILURE() << strategy << " did not refuse";
    } catch (const tmap::ResourceError& e) {
      EXPECT_NE(std::string(e.what()).find("266240 sites exceed the 262144"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("use auto"), std::string::npos) << e.what();
    }
  }
}
