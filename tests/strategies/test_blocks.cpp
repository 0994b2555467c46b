// A stencil's grid cut in blocks along a tree machine
// (src/strategies/geometric/tree_blocks.cpp) and the PEs in tree order it
// walks (src/strategies/common/tree_order.hpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <functional>
#include <map>
#include <string>

#include "strategies/common/tree_order.hpp"
#include "strategies/geometric/geometric.hpp"
#include "tmap/generators.hpp"
#include "tmap/machine.hpp"
#include "tmap/mapper.hpp"
#include "tmap/metrics.hpp"

namespace {

using tmap::strategies::lay_out_blocks;

/// The fewest grid edges any split of a 4x4 grid into 4 groups of 4 cuts,
/// by brute force over every such split (2,627,625 of them).
int fewest_cut_edges_4x4() {
  std::vector<std::array<int, 2>> edges;
  for (int y = 0; y < 4; ++y) {
    for (int x = 0; x < 4; ++x) {
      if (x < 3) edges.push_back({x + 4 * y, x + 1 + 4 * y});
      if (y < 3) edges.push_back({x + 4 * y, x + 4 * (y + 1)});
    }
  }
  std::array<int, 16> group{};
  std::array<int, 4> size{};
  int best = 1 << 30;
  // Vertex v joins a group already open or the next one (each split once).
  const auto assign = [&](const auto& self, int v, int open) -> void {
    if (v == 16) {
      int cut = 0;
      for (const auto& e : edges) cut += group[static_cast<std::size_t>(e[0])] != group[static_cast<std::size_t>(e[1])];
      best = std::min(best, cut);
      return;
    }
    for (int g = 0; g < std::min(open + 1, 4); ++g) {
      if (size[static_cast<std::size_t>(g)] == 4) continue;
      group[static_cast<std::size_t>(v)] = g;
      ++size[static_cast<std::size_t>(g)];
      self(self, v + 1, std::max(open, g + 1));
      --size[static_cast<std::size_t>(g)];
    }
  };
  assign(assign, 0, 0);
  return best;
}

/// The bounding box volume of the ranks (natural order of a grid of
/// dims[0] x dims[1] x dims[2]) on each PE group of `size` consecutive PEs.
std::map<tmap::PE, std::int64_t> box_volumes(const tmap::Mapping& mapping, const std::array<std::int64_t, 3>& dims,
                                             tmap::PE size) {
  std::map<tmap::PE, std::array<std::int64_t, 6>> boxes;
  for (std::size_t r = 0; r < mapping.size(); ++r) {
    const auto id = static_cast<std::int64_t>(r);
    const std::array<std::int64_t, 3> at{id % dims[0], id / dims[0] % dims[1], id / (dims[0] * dims[1])};
    auto [it, fresh] =
        boxes.try_emplace(mapping[r] / size, std::array<std::int64_t, 6>{at[0], at[1], at[2], at[0], at[1], at[2]});
    for (std::size_t k = 0; k < 3 && !fresh; ++k) {
      it->second[k] = std::min(it->second[k], at[k]);
      it->second[k + 3] = std::max(it->second[k + 3], at[k]);
    }
  }
  std::map<tmap::PE, std::int64_t> volumes;
  for (const auto& [group, box] : boxes) {
    volumes[group] = (box[3] - box[0] + 1) * (box[4] - box[1] + 1) * (box[5] - box[2] + 1);
  }
  return volumes;
}

TEST(TreeOrder, PesInPathOrderAndWhereTheirPathsBranch) {
  // 2 racks of 2 nodes of 2 cores, PEs numbered along the paths.
  const auto machine = tmap::load_topology("tleaf 3 2 20 2 10 2 1");
  const std::vector<tmap::PE> all{0, 1, 2, 3, 4, 5, 6, 7};
  const auto order = tmap::strategies::tree_order(*machine, all);
  ASSERT_TRUE(order.has_value());
  EXPECT_EQ(order->pes, all);
  EXPECT_EQ(tmap::strategies::branch_depths(*order), (std::vector<std::int32_t>{0, 2, 1, 2, 0, 2, 1, 2}));
  // A subset: PE 1 and 4 branch at the root, 4 and 5 in their node.
  const std::vector<tmap::PE> some{1, 4, 5};
  const auto part = tmap::strategies::tree_order(*machine, some);
  ASSERT_TRUE(part.has_value());
  EXPECT_EQ(tmap::strategies::branch_depths(*part), (std::vector<std::int32_t>{0, 0, 2}));
  // Not a tree: nothing.
  const auto torus = tmap::load_topology("torus2D 4 4");
  EXPECT_FALSE(tmap::strategies::tree_order(*torus, all).has_value());
}

TEST(Blocks, AFourByFourGridOnFourNodesCutsTheFewestEdgesInAnyRankOrder) {
  // 4 nodes of 4 cores (distance 1 inside a node, 10 across): the blocks
  // are the 2x2 squares, whose 8 cut edges brute force finds the fewest.
  const auto machine = tmap::load_topology("tleaf 2 4 10 4 1");
  const auto constraints = tmap::Constraints::all(*machine);
  const int fewest = fewest_cut_edges_4x4();
  ASSERT_EQ(fewest, 8);
  // 24 edges, each 1,000 bytes each way: the cut ones across nodes, the
  // rest inside one.
  const auto inside = machine->distance(0, 1);
  const auto across = machine->distance(0, 4);
  ASSERT_LT(inside, across);
  const std::int64_t optimum = std::int64_t{2000} * ((24 - fewest) * inside + fewest * across);
  const auto grid = tmap::gen::stencil({4, 4}, 5, 1000);
  for (const std::uint64_t seed : {0U, 3U, 11U}) {
    const auto comm = seed == 0 ? grid : tmap::gen::shuffle_ranks(grid, seed);
    std::string why;
    const auto mapping = lay_out_blocks({comm, *machine, constraints}, comm, tmap::Context{}, why);
    ASSERT_TRUE(mapping.has_value()) << why;
    tmap::validate_mapping(*mapping, 16, constraints);
    EXPECT_EQ(tmap::evaluate(comm, *machine, *mapping).hop_bytes, optimum) << seed;
    EXPECT_NE(why.find("4x4 grid, cut in blocks"), std::string::npos) << why;
  }
}

TEST(Blocks, EveryNodeAndRackHoldsABoxOfTheGrid) {
  // An 8x8x4 grid on 4 racks of 4 nodes of 16 cores: each node a box of 16
  // grid points, each rack a box of 64; the same hop-bytes shuffled.
  const auto machine = tmap::load_topology("tleaf 3 4 20 4 10 16 1");
  const auto constraints = tmap::Constraints::all(*machine);
  const auto grid = tmap::gen::stencil({8, 8, 4}, 7, 100);
  std::string why;
  const auto natural = lay_out_blocks({grid, *machine, constraints}, grid, tmap::Context{}, why);
  ASSERT_TRUE(natural.has_value()) << why;
  tmap::validate_mapping(*natural, 256, constraints);
  for (const auto& [node, volume] : box_volumes(*natural, {8, 8, 4}, 16)) EXPECT_EQ(volume, 16) << "node " << node;
  for (const auto& [rack, volume] : box_volumes(*natural, {8, 8, 4}, 64)) EXPECT_EQ(volume, 64) << "rack " << rack;
  const auto hop_bytes = tmap::evaluate(grid, *machine, *natural).hop_bytes;
  const auto shuffled = tmap::gen::shuffle_ranks(grid, 5);
  const auto mapping = lay_out_blocks({shuffled, *machine, constraints}, shuffled, tmap::Context{}, why);
  ASSERT_TRUE(mapping.has_value()) << why;
  EXPECT_EQ(tmap::evaluate(shuffled, *machine, *mapping).hop_bytes, hop_bytes);
}

TEST(Blocks, FewerRanksThanSlotsFillTheNodesWithTheMostRoomFirst) {
  // 36 ranks of a 6x6 grid on 4 nodes of 6 cores, 2 slots a core: three
  // nodes full (12 ranks each), the fourth empty, no core above 2 ranks.
  const auto machine = tmap::load_topology("tleaf 2 4 10 6 1");
  const auto constraints = tmap::Constraints::all(*machine, 2);
  const auto grid = tmap::gen::stencil({6, 6}, 5, 10);
  std::string why;
  const auto mapping = lay_out_blocks({grid, *machine, constraints}, grid, tmap::Context{}, why);
  ASSERT_TRUE(mapping.has_value()) << why;
  tmap::validate_mapping(*mapping, 36, constraints);
  std::map<tmap::PE, int> per_node;
  for (const auto pe : *mapping) ++per_node[pe / 6];
  EXPECT_EQ(per_node, (std::map<tmap::PE, int>{{0, 12}, {1, 12}, {2, 12}}));
}

TEST(Blocks, SaysWhyNotOnOtherTrafficMachinesOrTooManyRanks) {
  const auto tree = tmap::load_topology("tleaf 2 4 10 16 1");
  const auto on_tree = tmap::Constraints::all(*tree);
  std::string why;
  const auto random = tmap::gen::random_sparse(64, 3, 100, 1);
  EXPECT_FALSE(lay_out_blocks({random, *tree, on_tree}, random, tmap::Context{}, why).has_value());
  EXPECT_NE(why.find("not a 1D, 2D or 3D grid"), std::string::npos) << why;
  const auto grid = tmap::gen::stencil({8, 8}, 5, 10);
  const auto torus = tmap::load_topology("torus2D 8 8");
  EXPECT_FALSE(lay_out_blocks({grid, *torus, tmap::Constraints::all(*torus)}, grid, tmap::Context{}, why).has_value());
  EXPECT_NE(why.find("not a tree"), std::string::npos) << why;
  const auto big = tmap::gen::stencil({10, 10}, 5, 10);
  EXPECT_FALSE(lay_out_blocks({big, *tree, on_tree}, big, tmap::Context{}, why).has_value());
  EXPECT_NE(why.find("more ranks than slots"), std::string::npos) << why;
}

TEST(Blocks, SameMappingAtAnyThreadCount) {
  // Large enough that both halves of the first cuts go to threads.
  const auto machine = tmap::load_topology("tleaf 3 512 20 4 10 64 1");
  const auto constraints = tmap::Constraints::all(*machine);
  const auto grid = tmap::gen::shuffle_ranks(tmap::gen::stencil({64, 64, 32}, 7, 10), 2);
  std::string why;
  tmap::Context one;
  const auto first = lay_out_blocks({grid, *machine, constraints}, grid, one, why);
  ASSERT_TRUE(first.has_value()) << why;
  tmap::Context two;
  two.threads = 2;
  EXPECT_EQ(lay_out_blocks({grid, *machine, constraints}, grid, two, why), first);
  // Cut by weight too (--imbalance 0.03, 256 ranks a PE on average):
  // weights 1-4 by z (4,096 points a z plane), so that the first cut,
  // across x, leaves two halves of 65,536 points, each on its thread.
  std::vector<tmap::Volume> weights(static_cast<std::size_t>(grid.num_ranks()));
  const auto renamed = tmap::gen::shuffle_permutation(grid.num_ranks(), 2);
  for (std::size_t i = 0; i < weights.size(); ++i) {
    weights[static_cast<std::size_t>(renamed[i])] = 1 + static_cast<tmap::Volume>(i / 4096 % 4);
  }
  const auto weighed = grid.with_rank_weights(weights);
  const auto racks = tmap::load_topology("tleaf 3 8 20 4 10 16 1");
  const auto by_load = tmap::Constraints::all(*racks).balanced(weighed.rank_weights(), weighed.num_ranks(), 0.03, 0);
  const auto once = lay_out_blocks({weighed, *racks, by_load}, weighed, one, why);
  ASSERT_TRUE(once.has_value()) << why;
  EXPECT_EQ(lay_out_blocks({weighed, *racks, by_load}, weighed, two, why), once);
}

TEST(Blocks, ManyRanksAPeTakeBoxesOfTheGridInAnyRankOrder) {
  // A 16x16x8 grid at 512 ranks a PE on 2 nodes of 2 cores (auto's path
  // for many ranks a PE): each PE an 8x8x8 box, in natural and shuffled
  // order alike, rb left out (-v says so; rb by count stays for grids
  // whose pairs along an axis send unequal volumes).
  const auto machine = tmap::load_topology("tleaf 2 2 10 2 1");
  const auto constraints = tmap::Constraints::all(*machine, 512);
  const auto grid = tmap::gen::stencil({16, 16, 8}, 7, 100);
  tmap::Context config;
  config.objective = tmap::Objective::HopBytes;
  const auto natural = tmap::map_with("auto", {grid, *machine, constraints}, config);
  tmap::validate_mapping(natural, 2048, constraints);
  for (const auto& [pe, volume] : box_volumes(natural, {16, 16, 8}, 1)) EXPECT_EQ(volume, 512) << "PE " << pe;
  const auto hop_bytes = tmap::evaluate(grid, *machine, natural).hop_bytes;
  // Between the nodes a cut of 16x8 edges, inside each node one of 8x8,
  // 100 bytes each way.
  const std::int64_t across = 128;  // 16 x 8
  const std::int64_t inside = 64;   // 8 x 8
  EXPECT_EQ(hop_bytes, 200 * (across * machine->distance(0, 2) + 2 * inside * machine->distance(0, 1)));
  const auto shuffled = tmap::gen::shuffle_ranks(grid, 4);
  std::string notes;
  tmap::Run run;
  run.objective = tmap::Objective::HopBytes;
  run.hooks.verbosity = 2;
  run.hooks.log = [&](std::string_view message) { notes += std::string(message) + "\n"; };
  const auto mapping = tmap::map_with("auto", {shuffled, *machine, constraints}, run);
  EXPECT_EQ(tmap::evaluate(shuffled, *machine, mapping).hop_bytes, hop_bytes);
  EXPECT_NE(notes.find("auto: 512 ranks a PE: blocks "), std::string::npos) << notes;
  EXPECT_NE(notes.find("auto: left out: rb (a grid whose pairs along each axis send the same: its blocks)"),
            std::string::npos)
      << notes;
  // 4x the volume along x: still the blocks alone, now 16x4x8 boxes (the
  // planes across y and z: no pair along x cut).
  const auto along_x = [&](const std::function<tmap::Volume(tmap::Rank, tmap::Rank, tmap::Volume)>& volume) {
    std::vector<tmap::CommEntry> entries;
    for (tmap::Rank r = 0; r < grid.num_ranks(); ++r) {
      const auto targets = grid.targets(r);
      const auto volumes = grid.volumes(r);
      for (std::size_t e = 0; e < targets.size(); ++e)
        entries.push_back({r, targets[e], volume(r, targets[e], volumes[e])});
    }
    return tmap::CommMatrix::from_entries(grid.num_ranks(), entries);
  };
  const auto heavy_x =
      along_x([](tmap::Rank r, tmap::Rank t, tmap::Volume v) { return std::abs(t - r) == 1 ? 4 * v : v; });
  notes.clear();
  const auto elongated = tmap::map_with("auto", {heavy_x, *machine, constraints}, run);
  for (const auto& [pe, volume] : box_volumes(elongated, {16, 16, 8}, 1)) EXPECT_EQ(volume, 512) << "PE " << pe;
  EXPECT_EQ(tmap::evaluate(heavy_x, *machine, elongated).hop_bytes,
            200 * (across * machine->distance(0, 2) + 2 * across * machine->distance(0, 1)));
  EXPECT_NE(notes.find("auto: left out: rb (a grid whose pairs along each axis send the same: its blocks)"),
            std::string::npos)
      << notes;
  // Volumes that differ along an axis: rb is cut too, the lower kept.
  const auto uneven = along_x([](tmap::Rank r, tmap::Rank t, tmap::Volume v) { return v * (1 + (r + t) % 3); });
  notes.clear();
  (void)tmap::map_with("auto", {uneven, *machine, constraints}, run);
  EXPECT_NE(notes.find("auto: 512 ranks a PE: rb by count "), std::string::npos) << notes;
}

TEST(Blocks, ByWeightEachPeTakesItsShareOfTheLoad) {
  // A path of 40 ranks, the first 8 of weight 4 and the rest 1 (64 in
  // all), balanced by load on 2 nodes of 2 cores with no imbalance (16 a
  // PE): the cuts by weight give PEs the runs 0-3, 4-7, 8-23 and 24-39 (by
  // count they would be 10 ranks each, the first PE loaded 40).
  const auto machine = tmap::load_topology("tleaf 2 2 10 2 1");
  std::vector<tmap::Volume> weights(40, 1);
  std::fill(weights.begin(), weights.begin() + 8, 4);
  const auto path = tmap::gen::stencil({40, 1}, 5, 10).with_rank_weights(weights);
  const auto constraints = tmap::Constraints::all(*machine).balanced(path.rank_weights(), 40, 0.0, 0);
  ASSERT_EQ(constraints.load_limit(), 16);
  std::string why;
  const auto mapping = lay_out_blocks({path, *machine, constraints}, path, tmap::Context{}, why);
  ASSERT_TRUE(mapping.has_value()) << why;
  tmap::Mapping expected(40);
  for (std::size_t r = 0; r < 40; ++r) expected[r] = r < 4 ? 0 : r < 8 ? 1 : r < 24 ? 2 : 3;
  EXPECT_EQ(*mapping, expected);
  // Shuffled, the same runs of the path, each on one PE (which PE may
  // differ: the grid found may run the other way), the two heavy runs on
  // one node.
  const auto shuffled = tmap::gen::shuffle_ranks(path, 9);
  const auto renamed = tmap::gen::shuffle_permutation(40, 9);
  const auto again = lay_out_blocks({shuffled, *machine, constraints}, shuffled, tmap::Context{}, why);
  ASSERT_TRUE(again.has_value()) << why;
  std::map<tmap::PE, tmap::PE> pe_of_run;  // expected PE -> PE given
  for (std::size_t r = 0; r < 40; ++r) {
    const auto given = (*again)[static_cast<std::size_t>(renamed[r])];
    EXPECT_EQ(pe_of_run.try_emplace(expected[r], given).first->second, given) << "rank " << r;
  }
  ASSERT_EQ(pe_of_run.size(), 4U);
  EXPECT_EQ(pe_of_run[0] / 2, pe_of_run[1] / 2);
  EXPECT_NE(pe_of_run[0], pe_of_run[1]);
  EXPECT_NE(pe_of_run[2], pe_of_run[3]);
  // auto balancing by load has them among its candidates, and keeps the
  // lowest: here the blocks (the path cut 3 times, once across the nodes).
  std::string notes;
  tmap::Run run;
  run.hooks.verbosity = 2;
  run.hooks.log = [&](std::string_view message) { notes += std::string(message) + "\n"; };
  const auto chosen = tmap::map_with("auto", {shuffled, *machine, constraints}, run);
  EXPECT_NE(notes.find("auto: ranks balanced by load: blocks "), std::string::npos) << notes;
  EXPECT_EQ(tmap::evaluate(shuffled, *machine, chosen).hop_bytes,
            20 * (machine->distance(0, 2) + 2 * machine->distance(0, 1)));
}

TEST(Blocks, AutoKeepsThemWhereTheyCutBelowItsOtherCandidates) {
  // A shuffled 64x64 stencil on a Tianhe-3 of 2x2 boards of 96 nodes of 48
  // cores: the blocks (2,428,000 hop-bytes when written) are below
  // treematch's (2,464,000) and Scotch's; auto, judging by hop-bytes,
  // returns them.
  const auto machine = tmap::load_topology("tianhe3:2x2,nodes=96,cores=48");
  const auto constraints = tmap::Constraints::all(*machine);
  const auto comm = tmap::gen::shuffle_ranks(tmap::gen::stencil({64, 64}, 5, 1000), 1);
  const tmap::Problem problem{comm, *machine, constraints};
  tmap::Context config;
  config.objective = tmap::Objective::HopBytes;
  std::string why;
  const auto blocks = lay_out_blocks(problem, comm, config, why);
  ASSERT_TRUE(blocks.has_value()) << why;
  const auto cost = tmap::evaluate(comm, *machine, *blocks).hop_bytes;
  EXPECT_LT(cost, tmap::evaluate(comm, *machine, tmap::map_with("treematch", problem, config)).hop_bytes);
  EXPECT_EQ(tmap::evaluate(comm, *machine, tmap::map_with("auto", problem, config)).hop_bytes, cost);
  // -s geometric lays a grid on a tree out in the same blocks.
  EXPECT_EQ(tmap::evaluate(comm, *machine, tmap::map_with("geometric", problem, config)).hop_bytes, cost);
}

}  // namespace
