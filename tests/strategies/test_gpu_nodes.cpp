// auto on GPU nodes (one rank a GPU), where in-order and Scotch trade
// time for hop-bytes: the searches within one of the two, the blocks along
// a cluster's network, the placement of ranks in their nodes and of nodes
// in the network.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <numeric>
#include <string>
#include <tuple>
#include <vector>

#include "fixtures.hpp"
#include "strategies/auto/auto.hpp"
#include "strategies/common/place_nodes.hpp"
#include "strategies/common/settle_in_nodes.hpp"
#include "strategies/geometric/geometric.hpp"
#include "tmap/comm_matrix.hpp"
#include "tmap/config.hpp"
#include "tmap/generators.hpp"
#include "tmap/machine.hpp"
#include "tmap/mapper.hpp"
#include "tmap/metrics.hpp"
#include "tmap/objective.hpp"
#include "tmap/topology.hpp"
#include "tmap/topology_views.hpp"
#include "util/random.hpp"

using tmap::Constraints;
using tmap::Context;
using tmap::Problem;

namespace {

/// 16 nodes of 8 xGMI GCDs (examples/gpu's hwloc XML, a rank a GCD) on a
/// dragonfly: 128 PEs.
std::unique_ptr<tmap::Topology> xgmi_dragonfly() {
  tmap::MachineSpec spec;
  spec.topology = "dragonfly:2,1;2,1;2,1;2";
  spec.node = TMAP_EXAMPLES_DIR "/gpu/mi250x.xml";
  spec.pe = "gpu";
  return tmap::load_machine(spec);
}

}  // namespace

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
  const auto topology = xgmi_dragonfly();
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

// Placing nodes whole: 24 ranks of random traffic in order on 6 nodes of 4
// GPUs on a 3x2 torus; every one of the 6! placements of in-order's nodes
// is scored (brute force), and the first placement place_nodes returns has
// their least hop-bytes; each placement keeps every node's ranks together,
// PE k of one node on PE k of another, and the same seed gives the same.
TEST(PlaceNodes, ReachesTheLeastHopBytesOfEveryPlacementOfWholeNodes) {
  tmap::MachineSpec spec;
  spec.topology = "torus:3,2";
  spec.node = TMAP_EXAMPLES_DIR "/gpu/nvlink4.smi.txt";
  const auto topology = tmap::load_machine(spec);
  const auto pes = tmap::test::every_pe(*topology);
  ASSERT_EQ(pes.size(), 24U);
  const auto comm = tmap::gen::random_sparse(24, 5, 1000, 7);
  tmap::Mapping in_order(24);
  std::iota(in_order.begin(), in_order.end(), tmap::PE{0});
  for (tmap::PE pe = 0; pe < 24; ++pe) ASSERT_EQ(topology->node_of(pe), pe / 4);
  std::vector<tmap::PE> order(6);
  std::iota(order.begin(), order.end(), tmap::PE{0});
  const std::int64_t by_in_order = tmap::evaluate(comm, *topology, in_order).hop_bytes;
  std::int64_t least = by_in_order;
  do {
    tmap::Mapping placed(24);
    for (tmap::PE pe = 0; pe < 24; ++pe) placed[static_cast<std::size_t>(pe)] = order[pe / 4] * 4 + pe % 4;
    least = std::min(least, tmap::evaluate(comm, *topology, placed).hop_bytes);
  } while (std::ranges::next_permutation(order).found);
  ASSERT_LT(least, by_in_order);
  const auto placements = tmap::strategies::place_nodes(comm, *topology, pes, in_order, 0, 16);
  ASSERT_FALSE(placements.empty());
  EXPECT_EQ(tmap::evaluate(comm, *topology, placements.front()).hop_bytes, least);
  for (const auto& placed : placements) {
    EXPECT_TRUE(tmap::test::places_within(placed, 24, pes, 1));
    for (tmap::PE pe = 0; pe < 24; ++pe) {
      const auto on = placed[static_cast<std::size_t>(pe)];
      EXPECT_EQ(on % 4, pe % 4);
      EXPECT_EQ(on / 4, placed[static_cast<std::size_t>(pe / 4 * 4)] / 4);  // the node's ranks together
    }
  }
  EXPECT_EQ(tmap::strategies::place_nodes(comm, *topology, pes, in_order, 0, 16), placements);
  // Where it does not apply: nodes of one PE (a plain torus), two nodes.
  const auto torus = tmap::load_topology("torus2D 4 4");
  EXPECT_TRUE(tmap::strategies::place_nodes(tmap::gen::random_sparse(16, 3, 10, 1), *torus,
                                            tmap::test::every_pe(*torus), in_order, 0, 4)
                  .empty());
}

// NPB CG on 64 GPUs of 16 4-GPU nodes on a 4x4 torus: in-order is faster
// than Scotch's mapping, which has 3 % fewer hop-bytes, and no other
// construction is at or below both. In-order's nodes (each half a row of
// CG's 8x8 grid) placed whole with the fewest hop-bytes between them reach
// Scotch's hop-bytes at in-order's predicted time (SimGrid's replay of the
// phases: 40.88 ms against in-order's 44.07 and Scotch's 49.63): the
// default keeps one at or below both in both, below in-order's hop-bytes.
TEST(PlaceNodes, TheDefaultBeatsInOrderAndScotchForCgOnATorusOfGpuNodes) {
  tmap::MachineSpec spec;
  spec.topology = "torus:4,4";
  spec.node = TMAP_EXAMPLES_DIR "/gpu/nvlink4.smi.txt";
  const auto topology = tmap::load_machine(spec);
  const auto comm = tmap::gen::app_pattern("cg", 64, 'D', true);
  const Problem problem{comm, *topology, Constraints::all(*topology)};
  const tmap::ObjectiveMeter time(comm, *topology, tmap::Objective::Time);
  const auto in_order = time(tmap::map_with("inorder", problem, Context{}));
  const auto scotch = time(tmap::map_with("scotch", problem, Context{}));
  ASSERT_LT(scotch.hop_bytes, in_order.hop_bytes);
  ASSERT_GT(scotch.value, in_order.value);
  const auto kept = tmap::map_with("auto", problem, Context{});
  const auto by_kept = time(kept);
  EXPECT_LE(by_kept.hop_bytes, scotch.hop_bytes);
  EXPECT_LT(by_kept.hop_bytes, in_order.hop_bytes);
  EXPECT_LE(by_kept.value, in_order.value * (1 + 1e-9));
  EXPECT_TRUE(tmap::test::places_within(kept, 64, tmap::test::every_pe(*topology), 1));
}

// NPB BT on 121 of 128 xGMI GCDs on a dragonfly: greedy's rows are the
// fastest by the model, 5.7 % ahead of rb's cuts, which are at or below
// in-order and Scotch in both (SimGrid's replay of the phases has the three
// within 1.9 %: greedy 36.71 ms, Scotch 36.81, rb 37.39). Within the model's
// 10 % margin the default keeps one at or below both (fails with no margin:
// greedy's rows).
TEST(Auto, KeepsOneAtOrBelowBothWithinTheModelsMargin) {
  const auto topology = xgmi_dragonfly();
  const auto comm = tmap::gen::app_pattern("bt", 121, 'D', true);
  const Problem problem{comm, *topology, Constraints::all(*topology)};
  const tmap::ObjectiveMeter time(comm, *topology, tmap::Objective::Time);
  const auto in_order = time(tmap::map_with("inorder", problem, Context{}));
  const auto scotch = time(tmap::map_with("scotch", problem, Context{}));
  const auto greedy = time(tmap::map_with("greedy", problem, Context{}));
  ASSERT_GT(greedy.hop_bytes, scotch.hop_bytes);
  ASSERT_LT(greedy.value, scotch.value * (1 - tmap::strategies::kSameTime));
  const auto kept = time(tmap::map_with("auto", problem, Context{}));
  EXPECT_LE(kept.hop_bytes, std::min(in_order.hop_bytes, scotch.hop_bytes));
  EXPECT_LE(kept.value, std::min(in_order.value, scotch.value) * (1 + 1e-9));
}
