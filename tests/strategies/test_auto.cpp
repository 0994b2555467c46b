// auto, the default: never worse than in-order, Scotch where in-order is
// poor, TreeMatch where it wins on trees, a provably optimal in-order kept.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "fixtures.hpp"
#include "strategies/auto/auto.hpp"
#include "strategies/common/settle_in_nodes.hpp"
#include "strategies/geometric/geometric.hpp"
#include "tmap/comm_matrix.hpp"
#include "tmap/config.hpp"
#include "tmap/error.hpp"
#include "tmap/generators.hpp"
#include "tmap/machine.hpp"
#include "tmap/mapper.hpp"
#include "tmap/metrics.hpp"
#include "tmap/objective.hpp"
#include "tmap/routing.hpp"
#include "tmap/scotch_export.hpp"
#include "tmap/topology.hpp"
#include "tmap/topology_views.hpp"
#include "util/random.hpp"

using tmap::CommMatrix;
using tmap::Constraints;
using tmap::Context;
using tmap::Problem;

// The default strategy keeps in-order where Scotch's bipartitioning does
// worse (a natural 8x8x8 stencil on torus3D 8 8 8: in-order is the optimum,
// one hop per message, 3,072 messages x 1000 bytes x 2 directions), the
// geometric layout when the same stencil is shuffled (the optimum again,
// below Scotch), and Scotch's mapping where in-order is poor and the
// traffic is no grid (a shuffled 27-point stencil).
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
  EXPECT_EQ(cost(shuffled, "auto"), 3072000);
  EXPECT_LT(cost(shuffled, "auto"), cost(shuffled, "scotch+"));
  EXPECT_EQ(tmap::map_with("auto", on_shuffled, Context{}), tmap::map_with("geometric", on_shuffled, Context{}));
  const auto dense = tmap::gen::shuffle_ranks(tmap::gen::stencil({8, 8, 8}, 27, 1000, true), 7);
  const Problem on_dense{dense, *topology, constraints};
  EXPECT_LT(cost(dense, "scotch+"), cost(dense, "inorder"));
  EXPECT_EQ(tmap::map_with("auto", on_dense, Context{}), tmap::map_with("scotch", on_dense, Context{}));
  // The quality preset's candidate is the portfolio.
  Context portfolio;
  portfolio.auto_strategy.scotch = "scotch+";
  EXPECT_EQ(tmap::map_with("auto", on_dense, portfolio), tmap::map_with("scotch+", on_dense, Context{}));
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
    EXPECT_TRUE(
        tmap::test::places_within(mapping, comm.num_ranks(), tmap::test::every_pe(*topology), constraints.capacity()));
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
  // Shuffled, the geometric layout is (every pair one hop again); a shuffled
  // 27-point stencil has pairs two and three hops apart in any layout.
  EXPECT_TRUE(claims_optimal(tmap::gen::shuffle_ranks(natural, 7), one_per_pe));
  EXPECT_FALSE(claims_optimal(tmap::gen::shuffle_ranks(tmap::gen::stencil({8, 8, 8}, 27, 1000, true), 7), one_per_pe));
  std::vector<tmap::PE> all(static_cast<std::size_t>(topology->size()));
  std::iota(all.begin(), all.end(), tmap::PE{0});
  EXPECT_FALSE(claims_optimal(tmap::gen::stencil({8, 8, 4}, 7, 1000, true), Constraints::allowed(*topology, all, 2)));
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
// in-order (and a grid's blocks) only: scotch lost every such case
// measured, at 10x the time.
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
  // The stencil's blocks (604,704,000 hop-bytes when written) cut a little
  // less than treematch (606,304,000) and are as fast: kept.
  std::string why;
  const auto blocks = tmap::strategies::lay_out_blocks(problem, comm, Context{}, why);
  ASSERT_TRUE(blocks.has_value()) << why;
  EXPECT_EQ(mapping, *blocks);
  const auto kept = notes.find("auto: blocks kept (by time, no objective given and the machine has routes: inorder ");
  ASSERT_NE(kept, std::string::npos) << notes;
  EXPECT_NE(notes.find(", treematch ", kept), std::string::npos) << notes;
  // Scotch not among the candidates scored, and -v says why.
  EXPECT_EQ(notes.find("scotch", kept), std::string::npos) << notes;
  EXPECT_NE(notes.find("auto: left out: scotch (a tree machine above 16384 ranks"), std::string::npos) << notes;
}

// With no objective given, on a machine with routes, auto keeps the
// candidate the flow model predicts fastest. NPB BT's traffic of 64 ranks
// on mesh2D 8 8: scotch+ has 1.8 % fewer hop-bytes than in-order
// (5,859,532,800 against 5,966,069,760) but puts twice the bytes on its
// busiest link (106.5 MB against 53.3 MB), and SimGrid agrees with the
// prediction (tests/sim/simulate.sh: 8.52 ms against 4.45 ms). An explicit
// --objective hop-bytes keeps scotch+ (the quality preset's candidate, set here).
TEST(Auto, ChoosesByPredictedTimeWhenNoObjectiveIsGiven) {
  const auto topology = tmap::load_topology("mesh2D 8 8");
  const auto comm = tmap::gen::app_pattern("bt", 64);
  const Problem problem{comm, *topology, Constraints::all(*topology)};
  Context unset;
  unset.auto_strategy.scotch = "scotch+";  // the quality preset's candidate
  ASSERT_FALSE(unset.objective.has_value());
  Context hop_bytes = unset;
  hop_bytes.objective = tmap::Objective::HopBytes;
  const auto by_time = tmap::map_with("auto", problem, unset);
  const auto by_hop_bytes = tmap::map_with("auto", problem, hop_bytes);
  EXPECT_EQ(by_time, tmap::map_with("inorder", problem, Context{}));
  EXPECT_EQ(by_hop_bytes, tmap::map_with("scotch+", problem, Context{}));
  const tmap::ObjectiveMeter time(comm, *topology, tmap::Objective::Time);
  EXPECT_LT(time(by_time).value * 1.9, time(by_hop_bytes).value);
  EXPECT_EQ(time(by_time).hop_bytes, 5966069760);
  EXPECT_EQ(time(by_hop_bytes).hop_bytes, 5859532800);
}

// Without routes (a Scotch deco target, here a torus of 16 nodes written
// as one; a distance matrix) "no objective" is hop-bytes: the same mapping
// as an explicit --objective hop-bytes.
TEST(Auto, NoObjectiveIsHopBytesOnMachinesWithoutRoutes) {
  const auto topology = tmap::load_topology("torus:4,4");
  const auto deco = tmap::parse_tgt(tmap::scotch_target(*topology), "torus.tgt");
  ASSERT_EQ(tmap::make_routing(*deco), nullptr);
  const auto comm = tmap::gen::shuffle_ranks(tmap::gen::app_pattern("bt", 16), 3);
  const Problem problem{comm, *deco, Constraints::all(*deco)};
  Context hop_bytes;
  hop_bytes.objective = tmap::Objective::HopBytes;
  EXPECT_EQ(tmap::map_with("auto", problem, Context{}), tmap::map_with("auto", problem, hop_bytes));
}

// The choice: the least score, ties to the earlier candidate; with a
// hop-bytes ceiling (in-order's, when choosing by time unasked) a faster
// candidate with more hop-bytes than in-order is passed over.
TEST(Auto, ChoosesTheLeastScoreUnderTheHopBytesCeiling) {
  using tmap::ObjectiveScore;
  const std::vector<ObjectiveScore> scores{{2.0, 100}, {1.0, 130}, {1.5, 120}, {1.0, 125}};
  EXPECT_EQ(tmap::strategies::choose_candidate(scores, std::nullopt), 3U);  // 1.0, then fewer hop-bytes
  EXPECT_EQ(tmap::strategies::choose_candidate(scores, 120), 2U);           // 130 and 125 are above
  EXPECT_EQ(tmap::strategies::choose_candidate(scores, 100), 0U);
  const std::vector<ObjectiveScore> tied{{1.0, 100}, {1.0, 100}};
  EXPECT_EQ(tmap::strategies::choose_candidate(tied, std::nullopt), 0U);
  // Predicted values a rounding apart are the same: in-order (first) keeps
  // its place against a sum in another order (CG at 4,096 ranks).
  const std::vector<ObjectiveScore> rounded{{0.43199228399999967, 100}, {0.4319922839999988, 100}};
  EXPECT_EQ(tmap::strategies::choose_candidate(rounded, std::nullopt), 0U);
  const std::vector<ObjectiveScore> apart{{1.0, 100}, {1.0 - 1e-6, 100}};
  EXPECT_EQ(tmap::strategies::choose_candidate(apart, std::nullopt), 1U);
  // By time, predictions within 1 % are the same: the fewer hop-bytes win
  // (the model does not order closer mappings as SimGrid does).
  const std::vector<ObjectiveScore> close{{1.0, 120}, {0.995, 130}, {0.992, 125}, {1.02, 90}};
  EXPECT_EQ(tmap::strategies::choose_candidate(close, std::nullopt), 2U);
  EXPECT_EQ(tmap::strategies::choose_candidate(close, std::nullopt, 0.01), 0U);
  EXPECT_EQ(tmap::strategies::choose_candidate(close, std::nullopt, 0.03), 3U);
  EXPECT_EQ(tmap::strategies::choose_candidate(close, 119, 0.01), 3U);
  EXPECT_THROW((void)tmap::strategies::choose_candidate(scores, 99), std::logic_error);
}

// SNAP at 4,096 ranks on 256 Tianhe-3 nodes (Fig. 3's case): with its
// phases (octants, then the all-reduces' steps) the default keeps greedy,
// whose rows load each octant's links evenly, the least phased time of its
// candidates; SimGrid runs greedy's mapping 3 % faster than the one the
// default kept by one round of the sum (0.594 s against 0.612 s,
// benchmarks/results/fig3_smpi.md). Without phases it keeps another.
TEST(Auto, ChoosesByThePhasedTimeWhenTheTrafficHasPhases) {
  const auto topology = tmap::load_topology("tianhe3:8x8,nodes=96,cores=16");
  std::vector<tmap::NodeId> nodes(256);
  std::iota(nodes.begin(), nodes.end(), 0);
  const auto constraints = Constraints::on_nodes(*topology, nodes);
  const auto phased = tmap::gen::app_pattern("snap", 4096, 'D', true);
  const auto summed = tmap::gen::app_pattern("snap", 4096, 'D');
  const Problem with_phases{phased, *topology, constraints};
  const Problem without{summed, *topology, constraints};
  const auto greedy = tmap::map_with("greedy", without, Context{});
  const auto kept = tmap::map_with("auto", with_phases, Context{});
  EXPECT_EQ(kept, greedy);
  const tmap::ObjectiveMeter time(phased, *topology, tmap::Objective::Time);
  for (const char* other : {"inorder", "scotch+", "treematch"}) {
    EXPECT_LT(time(kept).value, time(tmap::map_with(other, without, Context{})).value) << other;
  }
  const auto one_round = tmap::map_with("auto", without, Context{});
  EXPECT_NE(one_round, greedy);
  EXPECT_GT(time(one_round).value, time(kept).value * 1.01);
}

// By time with no objective given: never above in-order in either time or
// hop-bytes (a candidate 0.5 % slower with half the hop-bytes is passed
// over, though predictions within 1 % count as the same); a candidate at or
// below both in-order and Scotch is kept where it is as fast as the
// fastest within that 1 %; where the fastest is faster than that, time wins.
TEST(Auto, KeepsOneAtOrBelowInOrderAndScotchWhereItIsAsFast) {
  using tmap::ObjectiveScore;
  using tmap::strategies::choose_no_regret;
  const std::vector<std::size_t> references{0, 1};  // in-order, Scotch
  const std::vector<ObjectiveScore> as_fast{{1.0, 100}, {1.2, 80}, {0.9, 95}, {0.905, 79}, {0.85, 120}};
  EXPECT_EQ(tmap::strategies::at_or_below(as_fast, references), (std::vector<std::size_t>{3}));
  EXPECT_EQ(choose_no_regret(as_fast, references, tmap::strategies::kSameTime), 3U);
  auto slower = as_fast;
  slower[3] = {0.95, 79};  // 5.5 % slower than the fastest at or below in-order
  EXPECT_EQ(choose_no_regret(slower, references, tmap::strategies::kSameTime), 2U);
  const std::vector<ObjectiveScore> just_slower{{1.0, 100}, {1.3, 90}, {1.005, 50}};
  EXPECT_EQ(choose_no_regret(just_slower, references, tmap::strategies::kSameTime), 0U);
  // Scotch itself, as fast as in-order and with fewer hop-bytes.
  const std::vector<ObjectiveScore> scotch_below{{1.0, 100}, {1.0, 90}, {0.999, 95}};
  EXPECT_EQ(choose_no_regret(scotch_below, references, tmap::strategies::kSameTime), 1U);
}

// GPU nodes, where in-order and Scotch trade time for hop-bytes (NPB MG,
// one rank per GPU): on 16 DGX-1 nodes (128 GPUs, examples/gpu) Scotch's
// mapping has fewer hop-bytes but a busier fat-tree link than in-order's;
// the search exchanging whole nodes' ranks makes it as fast as in-order's
// without more hop-bytes, and the default keeps a mapping at or below both.
// On 32 DGX-like nodes rb's cuts are at or below both already.
TEST(Auto, AtOrBelowInOrderAndScotchOnGpuNodesWhereTheyTradeOff) {
  for (const auto& [node, network, ranks] :
       {std::tuple{"dgx1.smi.txt", "fattree:2;4,4;1,2;1,1", 128}, {"dgx-a100.smi.txt", "fattree:2;8,4;1,2;1,1", 256}}) {
    tmap::MachineSpec spec;
    spec.topology = network;
    spec.node = TMAP_EXAMPLES_DIR "/gpu/" + std::string(node);
    const auto topology = tmap::load_machine(spec);
    const auto constraints = Constraints::all(*topology);
    const auto comm = tmap::gen::app_pattern("mg", ranks, 'D', true);
    const Problem problem{comm, *topology, constraints};
    const tmap::ObjectiveMeter time(comm, *topology, tmap::Objective::Time);
    const auto in_order = time(tmap::map_with("inorder", problem, Context{}));
    auto scotch = tmap::map_with("scotch", problem, Context{});
    const auto by_scotch = time(scotch);
    ASSERT_LT(by_scotch.hop_bytes, in_order.hop_bytes) << node;
    ASSERT_GT(by_scotch.value, in_order.value * 1.01) << node;  // a trade-off, beyond the 1 % band
    const auto kept = time(tmap::map_with("auto", problem, Context{}));
    EXPECT_LE(kept.hop_bytes, by_scotch.hop_bytes) << node;
    EXPECT_LE(kept.value, in_order.value * (1 + 1e-9)) << node;
    // The search alone, from Scotch's mapping towards in-order's time.
    const auto search = tmap::strategies::as_fast_within_hop_bytes(problem, time, scotch, by_scotch, in_order.value);
    ASSERT_FALSE(search.skipped) << node;
    const auto& reached = search.score;
    EXPECT_EQ(time(scotch), reached) << node;
    EXPECT_TRUE(tmap::test::places_within(scotch, comm.num_ranks(), tmap::test::every_pe(*topology), 1)) << node;
    EXPECT_LE(reached.hop_bytes, by_scotch.hop_bytes) << node;
    EXPECT_LE(reached.value, by_scotch.value) << node;
    if (std::string(node) == "dgx1.smi.txt") {
      EXPECT_LE(reached.value, in_order.value * (1 + 1e-9));
    }
  }
}

// NPB BT on 256 GPUs of 32 DGX-like nodes on a fat tree whose leaf
// switches have two uplinks for eight nodes: in-order's rows of 8 GPUs are
// fastest of in-order, Scotch and rb, Scotch's 4x2 blocks have 28 % fewer
// hop-bytes. The blocks cut along the network (each node one level) in
// serpentine order put the nodes facing a neighbouring leaf on alternate
// uplinks: faster than in-order with no more hop-bytes than Scotch, and
// the default keeps them (predicted 0.016741 s against 0.017861 s, hop-bytes
// 22,272,000,000 against 22,323,200,000: by hand in session 45, a
// checkerboard of 4x2 nodes in 8x8 leaves gave 0.016869 s).
TEST(Auto, BlocksAlongTheNetworkBeatInOrderAndScotchForBtOnGpuFatTrees) {
  tmap::MachineSpec spec;
  spec.topology = "fattree:2;8,4;1,2;1,1";
  spec.node = TMAP_EXAMPLES_DIR "/gpu/dgx-a100.smi.txt";
  const auto topology = tmap::load_machine(spec);
  const auto constraints = Constraints::all(*topology);
  // The network's branches, then the GPU: node 9 is leaf 1's node 1.
  std::vector<std::int64_t> path;
  ASSERT_FALSE(tmap::tree_path(*topology, 9 * 8 + 3, path));  // GPU nodes are no tree
  ASSERT_TRUE(tmap::group_path(*topology, 9 * 8 + 3, path));
  EXPECT_EQ(path.back(), 3);
  std::vector<std::int64_t> other;
  ASSERT_TRUE(tmap::group_path(*topology, 9 * 8 + 5, other));
  EXPECT_EQ(std::vector(path.begin(), path.end() - 1), std::vector(other.begin(), other.end() - 1));
  const auto comm = tmap::gen::app_pattern("bt", 256, 'D', true);
  const Problem problem{comm, *topology, constraints};
  const tmap::ObjectiveMeter time(comm, *topology, tmap::Objective::Time);
  const auto in_order = time(tmap::map_with("inorder", problem, Context{}));
  const auto scotch = time(tmap::map_with("scotch", problem, Context{}));
  ASSERT_LT(scotch.hop_bytes, in_order.hop_bytes);
  ASSERT_GT(scotch.value, in_order.value);
  const auto pattern = comm.symmetrized();
  std::string why;
  const auto grid = tmap::strategies::grid_for_blocks(problem, pattern, why, tmap::strategies::TreePaths::Groups);
  ASSERT_TRUE(grid) << why;
  EXPECT_EQ(grid->extent, (std::vector<std::int64_t>{16, 16}));
  const auto blocks =
      tmap::strategies::cut_in_blocks(problem, pattern, *grid, Context{}, tmap::strategies::TreePaths::Groups);
  EXPECT_TRUE(tmap::test::places_within(blocks, comm.num_ranks(), tmap::test::every_pe(*topology), 1));
  const auto by_blocks = time(blocks);
  EXPECT_LT(by_blocks.value, in_order.value);
  EXPECT_LE(by_blocks.hop_bytes, scotch.hop_bytes);
  // (The cuts in plain tree order, no half mirrored, give 0.022117 s:
  // this test fails with the serpentine turned off, tried.)
  const auto kept = time(tmap::map_with("auto", problem, Context{}));
  EXPECT_LE(kept.value, by_blocks.value * (1 + 1e-9));
  EXPECT_LE(kept.hop_bytes, scotch.hop_bytes);
}

// A 2x4 halo on one DGX-1 of a cluster (GPUs on NVLink with 4 others, the
// rest across PCIe): settling its ranks in their node (exactly: a node of
// 8 PEs) from each of 20 shuffled placements reaches the least hop-bytes
// of all 8! placements (brute force here: every halo pair on an NVLink)
// and keeps the ranks on the node's PEs.
TEST(Auto, SettlingInNodesReachesTheBestPlacementOfAHaloOnADgx1) {
  tmap::MachineSpec spec;
  spec.topology = "fattree:2;4,4;1,2;1,1";
  spec.node = TMAP_EXAMPLES_DIR "/gpu/dgx1.smi.txt";
  const auto topology = tmap::load_machine(spec);
  const auto halo = tmap::gen::stencil({4, 2}, 5, 1000, false);
  std::vector<tmap::PE> pes(8);
  std::iota(pes.begin(), pes.end(), tmap::PE{0});
  const auto hop_bytes = [&](const tmap::Mapping& m) { return tmap::evaluate(halo, *topology, m).hop_bytes; };
  tmap::Mapping best = pes;
  auto perm = pes;
  do {
    if (hop_bytes(perm) < hop_bytes(best)) best = perm;
  } while (std::next_permutation(perm.begin(), perm.end()));
  const auto least = hop_bytes(best);
  EXPECT_EQ(least, 20000);
  const auto sym = halo.symmetrized();
  tmap::detail::Random random(5);
  for (int trial = 0; trial < 20; ++trial) {
    tmap::Mapping mapping = pes;
    random.shuffle(std::span<tmap::PE>(mapping));
    const auto before = hop_bytes(mapping);
    tmap::strategies::settle_in_nodes(sym, *topology, tmap::test::every_pe(*topology), mapping);
    EXPECT_EQ(hop_bytes(mapping), least) << "trial " << trial << " from " << before;
    EXPECT_TRUE(tmap::test::places_within(mapping, 8, pes, 1));
  }
}

// The other search: from greedy's mapping of NPB BT (121 ranks) on 16
// Frontier-like nodes on a dragonfly (the fastest there, 27 % more
// hop-bytes than Scotch's), exchanges that lower hop-bytes and keep the
// predicted time bring it to within 9 % of Scotch's hop-bytes at the same
// time; what it returns is what the meter says of the mapping it leaves.
TEST(Auto, FewerHopBytesWithinTheTimeOfTheFastest) {
  tmap::MachineSpec spec;
  spec.topology = "dragonfly:2,1;2,1;2,1;2";
  spec.node = TMAP_EXAMPLES_DIR "/gpu/mi250x.xml";
  spec.pe = "gpu";
  const auto topology = tmap::load_machine(spec);
  const auto constraints = Constraints::all(*topology);
  const auto comm = tmap::gen::app_pattern("bt", 121, 'D', true);
  const Problem problem{comm, *topology, constraints};
  const tmap::ObjectiveMeter time(comm, *topology, tmap::Objective::Time);
  const auto scotch = time(tmap::map_with("scotch", problem, Context{}));
  auto greedy = tmap::map_with("greedy", problem, Context{});
  const auto by_greedy = time(greedy);
  ASSERT_GT(by_greedy.hop_bytes, scotch.hop_bytes);
  ASSERT_LT(by_greedy.value, scotch.value);
  const auto search = tmap::strategies::fewer_hop_bytes_within_time(problem, time, greedy, by_greedy, scotch.hop_bytes);
  ASSERT_FALSE(search.skipped);
  EXPECT_EQ(time(greedy), search.score);
  EXPECT_TRUE(tmap::test::places_within(greedy, comm.num_ranks(), tmap::test::every_pe(*topology), 1));
  EXPECT_LE(search.score.value, by_greedy.value);
  EXPECT_LT(static_cast<double>(search.score.hop_bytes), 1.09 * static_cast<double>(scotch.hop_bytes));
}

// Nodes above 8 PEs are settled by exchanges and rotations of three, a
// local search: a 4x4 halo on one node of 16 GPUs in NVLink pairs over two
// packages, from 20 shuffled placements, never ends above where it began,
// and reaches the least hop-bytes there are from some (4 of 20 here; the
// rest end within 5 % of it): each package a 4x2 half (4 pairs cut, the
// fewest a halving of the grid cuts) and each NVLink pair on a halo pair
// (8, a perfect matching of the grid, one inside each half's 4x2).
TEST(Auto, SettlingLargerNodesByExchangesAndRotations) {
  tmap::MachineSpec spec;
  spec.topology = "fattree:2;2,2;1,2;1,1";
  spec.node = "gpu:16 link:pairs package:2";
  const auto topology = tmap::load_machine(spec);
  const auto halo = tmap::gen::stencil({4, 4}, 5, 1000, false);
  const auto linked = topology->distance(0, 1);
  const auto package = topology->distance(0, 2);
  const auto across = topology->distance(0, 15);
  ASSERT_LT(linked, package);
  ASSERT_LT(package, across);
  const auto least = std::int64_t{2000} * (8 * linked + 12 * package + 4 * across);
  std::vector<tmap::PE> pes(16);
  std::iota(pes.begin(), pes.end(), tmap::PE{0});
  const auto sym = halo.symmetrized();
  tmap::detail::Random random(3);
  int at_least = 0;
  for (int trial = 0; trial < 20; ++trial) {
    tmap::Mapping mapping = pes;
    random.shuffle(std::span<tmap::PE>(mapping));
    const auto before = tmap::evaluate(halo, *topology, mapping).hop_bytes;
    tmap::strategies::settle_in_nodes(sym, *topology, tmap::test::every_pe(*topology), mapping);
    const auto after = tmap::evaluate(halo, *topology, mapping).hop_bytes;
    EXPECT_LE(after, before) << "trial " << trial;
    EXPECT_GE(after, least) << "trial " << trial;
    EXPECT_LE(static_cast<double>(after), 1.05 * static_cast<double>(least)) << "trial " << trial;
    at_least += after == least ? 1 : 0;
    EXPECT_TRUE(tmap::test::places_within(mapping, 16, pes, 1));
  }
  EXPECT_GE(at_least, 2);
}

// The quality mode's small jobs refine auto's choice and its runner-up (its
// next candidate by hop-bytes, unlike it) and keep the fewer hop-bytes:
// map_with gives exactly the better of the two refined alone (refine_from),
// at any thread count; a job above 256 slots refines one start.
TEST(Auto, TheQualityModeKeepsTheBetterOfItsChoiceAndRunnerUpRefined) {
  const auto topology = tmap::load_topology("tleaf 3 2 20 4 10 8 1");  // 64 PEs
  const auto constraints = Constraints::all(*topology);
  int runner_up_kept = 0;
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    const auto comm = tmap::gen::random_sparse(64, 6, 10000, seed);
    const Problem problem{comm, *topology, constraints};
    auto quality = tmap::preset("quality");
    quality.objective = tmap::Objective::HopBytes;
    const auto starts = tmap::strategies::AutoMapper{}.map_several(problem, quality, 2);
    ASSERT_EQ(starts.size(), 2U) << seed;
    EXPECT_NE(starts[0], starts[1]);
    EXPECT_EQ(starts[0], tmap::strategies::AutoMapper{}.map(problem, quality));
    std::vector<tmap::Mapping> refined;
    std::vector<std::int64_t> cost;
    for (const auto& start : starts) {
      tmap::StageStats stages;
      refined.push_back(tmap::refine_from(start, problem, quality, stages));
      cost.push_back(tmap::evaluate(comm, *topology, refined.back()).hop_bytes);
    }
    const std::size_t kept = cost[1] < cost[0] ? 1 : 0;
    runner_up_kept += static_cast<int>(kept);
    for (const int threads : {1, 2}) {
      quality.threads = threads;
      tmap::StageStats stages;
      EXPECT_EQ(tmap::map_with("auto", problem, quality, stages), refined[kept]) << seed << " " << threads;
      ASSERT_TRUE(stages.refine.has_value());
      EXPECT_EQ(stages.refine->after, cost[kept]);
    }
  }
  EXPECT_GE(runner_up_kept, 1) << "the runner-up was never better: the test shows nothing";
  // 320 ranks on 320 PEs: one start, refine_from's.
  const auto large = tmap::load_topology("tleaf 3 4 20 8 10 10 1");
  const auto comm = tmap::gen::random_sparse(320, 6, 10000, 1);
  const Problem problem{comm, *large, Constraints::all(*large)};
  auto quality = tmap::preset("quality");
  quality.objective = tmap::Objective::HopBytes;
  tmap::StageStats stages;
  EXPECT_EQ(tmap::map_with("auto", problem, quality),
            tmap::refine_from(tmap::strategies::AutoMapper{}.map(problem, quality), problem, quality, stages));
}
