// Where the blocks split a subtree's children (src/strategies/geometric/
// block_layout.cpp): against layouts counted by hand and an exhaustive
// search written here.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <limits>
#include <vector>

#include "strategies/geometric/block_layout.hpp"

namespace {

using tmap::strategies::best_block_split;
using tmap::strategies::BlockSplit;
using Box = std::array<double, 3>;

constexpr Box kEqualVolumes{1, 1, 1};

/// The plane across `axis` of box `e`: the pairs it cuts.
double plane(const Box& e, std::size_t axis) {
  double p = 1;
  for (std::size_t k = 0; k < 3; ++k) {
    if (k != axis) p *= e[k];
  }
  return p;
}

/// The cut of the layout best_block_split makes, applied level by level
/// (each part's box its share of its parent's along the cut axis).
double laid_out(const std::vector<double>& shares, const Box& e) {
  if (shares.size() <= 1) return 0;
  const BlockSplit halves{shares.size() / 2, e[0] >= e[1] ? std::size_t{0} : std::size_t{1}};
  const auto s = best_block_split(shares, e, kEqualVolumes, halves);
  double first = 0;
  double total = 0;
  for (std::size_t k = 0; k < shares.size(); ++k) (k < s.mid ? first : total) += shares[k];
  total += first;
  Box a = e;
  Box b = e;
  a[s.axis] *= first / total;
  b[s.axis] *= 1 - first / total;
  return plane(e, s.axis) + laid_out({shares.begin(), shares.begin() + static_cast<std::ptrdiff_t>(s.mid)}, a) +
         laid_out({shares.begin() + static_cast<std::ptrdiff_t>(s.mid), shares.end()}, b);
}

/// The least cut over every ordered layout of `parts` equal parts (any
/// split point, either axis of a 2D box), by exhaustive search.
double exhaustive(int parts, double w, double h) {
  if (parts == 1) return 0;
  double best = std::numeric_limits<double>::infinity();
  for (int j = 1; j < parts; ++j) {
    const double f = static_cast<double>(j) / parts;
    best = std::min(best, h + exhaustive(j, w * f, h) + exhaustive(parts - j, w * (1 - f), h));
    best = std::min(best, w + exhaustive(j, w, h * f) + exhaustive(parts - j, w, h * (1 - f)));
  }
  return best;
}

// 8 parts of a square: rows of 3, 3 and 2 (960 on 256x256) instead of the
// halves' 2x4 blocks (1,024).
TEST(BlockLayout, EightPartsOfASquareAreRowsOfThreeThreeAndTwo) {
  const std::vector<double> eight(8, 1.0);
  const Box square{256, 256, 1};
  const auto s = best_block_split(eight, square, kEqualVolumes, {4, 0});
  EXPECT_NE(s.mid, 4U);
  EXPECT_DOUBLE_EQ(laid_out(eight, square), 960);
  EXPECT_DOUBLE_EQ(exhaustive(8, 256, 256), 960);
}

// Where halves are already the least (2x2 of a rectangle, 2x2x2 of a
// cube), they are kept, axis and all.
TEST(BlockLayout, HalvesStayWhereTheyAreLeast) {
  const std::vector<double> four(4, 1.0);
  const auto rectangle = best_block_split(four, {128, 64, 1}, kEqualVolumes, {2, 0});
  EXPECT_EQ(rectangle.mid, 2U);
  EXPECT_EQ(rectangle.axis, 0U);
  const std::vector<double> eight(8, 1.0);
  const auto cube = best_block_split(eight, {64, 64, 64}, kEqualVolumes, {4, 2});
  EXPECT_EQ(cube.mid, 4U);
  EXPECT_EQ(cube.axis, 2U);
  // Two children and more than kLaidOutChildren: halves, unsearched.
  EXPECT_EQ(best_block_split(std::vector<double>(2, 1.0), {512, 8, 1}, kEqualVolumes, {1, 1}).axis, 1U);
  EXPECT_EQ(best_block_split(std::vector<double>(9, 1.0), {256, 256, 1}, kEqualVolumes, {4, 0}).mid, 4U);
}

// Level by level, the splits reach the exhaustive search's least cut on
// boxes of every aspect, for 3 to 8 parts.
TEST(BlockLayout, LevelByLevelReachesTheExhaustiveLeast) {
  for (int parts = 3; parts <= 8; ++parts) {
    for (const auto& [w, h] : {std::array<double, 2>{256, 256}, {512, 256}, {300, 100}, {96, 160}}) {
      const std::vector<double> equal(static_cast<std::size_t>(parts), 1.0);
      const double least = exhaustive(parts, w, h);
      const double made = laid_out(equal, {w, h, 1});
      // At most the 0.5 % a layout must gain to replace the halves, per level.
      EXPECT_LE(made, least * 1.02) << parts << " parts of " << w << "x" << h;
      EXPECT_GE(made, least - 1e-9) << parts << " parts of " << w << "x" << h;
    }
  }
}

}  // namespace
