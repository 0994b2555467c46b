// Where the blocks cut a subtree's children apart: the split of an ordered
// run of children into two runs, and the axis the plane cuts across.
// Halves across the longest side (the blocks' rule) lay 8 parts of a square
// out as 2x4 blocks, whose cuts are 4 sides long; rows of 3, 3 and 2 cut
// 3.75 sides (2 | 6 and 3 | 3 across the height, then each row across its
// length). This search finds such layouts: every split point and axis,
// each part's box its share of the parent's along the cut axis
// (continuous), the cost a plane's pairs times the axis's mean volume.
#pragma once

#include <array>
#include <cstddef>
#include <span>

namespace tmap::strategies {

/// Most children a search lays out; more keep halves across the longest
/// side (the search grows with the layouts of that many parts).
inline constexpr std::size_t kLaidOutChildren = 8;

struct BlockSplit {
  std::size_t mid = 0;   ///< the first run is [0, mid)
  std::size_t axis = 0;  ///< the plane is across this axis
};

/// The split of children with these shares (sizes or PEs, in order) of a
/// box of these extents, the planes across axis k costing the pairs they
/// cut times axis_volumes[k]: the halves' split (`halves`, its axis) unless
/// a layout costs at least 0.5 % less by this model (ties and rounding keep
/// the blocks as they were). More than kLaidOutChildren children: `halves`.
BlockSplit best_block_split(std::span<const double> shares, const std::array<double, 3>& extents,
                            const std::array<double, 3>& axis_volumes, BlockSplit halves);

}  // namespace tmap::strategies
