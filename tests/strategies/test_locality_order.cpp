// The locality order of the grouping's huge jobs: the spread measured by
// hand, a breadth-first order that walks a shuffled path end to end,
// every entry kept by the renumbering, a natural grid left as it is, and
// the grouping of a shuffled grid as good as the natural grid's.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "strategies/common/bisection.hpp"
#include "strategies/common/locality_order.hpp"
#include "strategies/treematch/grouping.hpp"
#include "tmap/comm_matrix.hpp"
#include "tmap/generators.hpp"

using tmap::CommMatrix;
using tmap::Rank;

namespace {

std::vector<Rank> inverse(const std::vector<Rank>& order) {
  std::vector<Rank> new_of(order.size());
  for (std::size_t k = 0; k < order.size(); ++k) new_of[static_cast<std::size_t>(order[k])] = static_cast<Rank>(k);
  return new_of;
}

bool is_permutation_of_ids(std::vector<Rank> order, Rank n) {
  std::sort(order.begin(), order.end());
  std::vector<Rank> ids(static_cast<std::size_t>(n));
  std::iota(ids.begin(), ids.end(), Rank{0});
  return order == ids;
}

/// The traffic inside the groups of `size` consecutive positions.
tmap::Volume inside_groups(const CommMatrix& sym, const std::vector<std::int64_t>& position, std::int64_t size) {
  tmap::Volume inside = 0;
  for (Rank r = 0; r < sym.num_ranks(); ++r) {
    for (std::size_t e = 0; e < sym.targets(r).size(); ++e) {
      if (position[static_cast<std::size_t>(r)] / size ==
          position[static_cast<std::size_t>(sym.targets(r)[e])] / size) {
        inside += sym.volumes(r)[e];
      }
    }
  }
  return inside;
}

}  // namespace

TEST(LocalityOrder, SpreadIsTheSumOfTheGapsBitWidths) {
  // Edges 0-1, 1-2 and 0-5, each entry both ways: gaps 1, 1, 5 -> widths 1, 1, 3.
  const auto g = CommMatrix::from_entries(6, {{0, 1, 7}, {1, 0, 7}, {1, 2, 7}, {2, 1, 7}, {0, 5, 9}, {5, 0, 9}});
  EXPECT_EQ(tmap::strategies::id_spread(g), 2 * (1 + 1 + 3));
  // Ranks 0 and 4 swapped: gaps 4 - 1 = 3, 1, |4 - 5| = 1 -> widths 2, 1, 1.
  const std::vector<Rank> swapped{4, 1, 2, 3, 0, 5};
  EXPECT_EQ(tmap::strategies::id_spread(g, swapped), 2 * (2 + 1 + 1));
}

TEST(LocalityOrder, BreadthFirstWalksAShuffledPathEndToEnd) {
  const auto path = tmap::gen::stencil({64, 1}, 5, 100);  // a 64x1 grid: a path
  const auto shuffled = tmap::gen::shuffle_ranks(path, 3);
  const auto order = tmap::strategies::breadth_first_order(shuffled);
  ASSERT_TRUE(is_permutation_of_ids(order, 64));
  // From one end: each next vertex is the previous one's partner.
  for (std::size_t k = 1; k < order.size(); ++k) EXPECT_GT(shuffled.at(order[k - 1], order[k]), 0) << k;
  EXPECT_EQ(tmap::strategies::id_spread(shuffled, inverse(order)), 2 * 63);
  ASSERT_TRUE(tmap::strategies::more_local_order(shuffled).has_value());
  EXPECT_FALSE(tmap::strategies::more_local_order(path).has_value());  // already the least spread
}

TEST(LocalityOrder, RenumberingKeepsEveryEntry) {
  const auto g = tmap::gen::shuffle_ranks(tmap::gen::stencil({6, 5, 4}, 7, 10), 7);
  const auto order = tmap::strategies::breadth_first_order(g);
  const auto new_of = inverse(order);
  const auto r = tmap::strategies::renumbered(g, order);
  ASSERT_EQ(r.num_ranks(), g.num_ranks());
  ASSERT_EQ(r.columns().size(), g.columns().size());
  for (Rank u = 0; u < g.num_ranks(); ++u) {
    for (std::size_t e = 0; e < g.targets(u).size(); ++e) {
      EXPECT_EQ(r.at(new_of[static_cast<std::size_t>(u)], new_of[static_cast<std::size_t>(g.targets(u)[e])]),
                g.volumes(u)[e]);
    }
  }
}

TEST(LocalityOrder, ANaturalGridKeepsItsNumberingAShuffledOneIsRenumbered) {
  const auto natural = tmap::gen::stencil({16, 16, 16}, 7, 10);
  EXPECT_FALSE(tmap::strategies::more_local_order(natural).has_value());
  const auto shuffled = tmap::gen::shuffle_ranks(natural, 11);
  const auto order = tmap::strategies::more_local_order(shuffled);
  ASSERT_TRUE(order.has_value());
  // Bit widths: partners ~log2(4096 / 3) bits apart shuffled, ~7 (a front of
  // a few hundred) breadth-first.
  EXPECT_LT(5 * tmap::strategies::id_spread(shuffled, inverse(*order)), 4 * tmap::strategies::id_spread(shuffled));
}

TEST(TreeMatchGrouping, AShuffledGridIsGroupedAsWellAsTheNaturalOne) {
  // Multilevel bisection (huge jobs' path, forced here) renumbers the
  // shuffled grid; the positions must still be the shuffled ranks' own.
  const auto natural = tmap::gen::stencil({16, 16, 16}, 7, 10);
  const std::vector<std::int64_t> arities{1, 8, 8, 64};
  const auto how = tmap::strategies::Bisection::Multilevel;
  ASSERT_TRUE(tmap::strategies::splits_multilevel(how, 4096));
  const auto base = inside_groups(natural, tmap::treematch::bottom_up(natural, arities, 0, how), 64);
  for (const std::uint64_t seed : {1ULL, 2ULL}) {
    const auto shuffled = tmap::gen::shuffle_ranks(natural, seed);
    const auto position = tmap::treematch::bottom_up(shuffled, arities, 0, how);
    ASSERT_TRUE(is_permutation_of_ids(std::vector<Rank>(position.begin(), position.end()), 4096));
    const auto inside = inside_groups(shuffled, position, 64);
    EXPECT_GE(static_cast<double>(inside), 0.9 * static_cast<double>(base)) << "shuffle " << seed;
    RecordProperty("inside_ratio_" + std::to_string(seed),
                   std::to_string(static_cast<double>(inside) / static_cast<double>(base)));
  }
}
