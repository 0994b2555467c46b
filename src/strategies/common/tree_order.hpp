// The allowed PEs of a tree machine in the order of their paths from the
// root, so that every subtree is one contiguous range: what the tree
// constructions (treematch's top-down split, the grid's blocks) walk.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "tmap/topology.hpp"

namespace tmap::strategies {

struct TreeOrder {
  std::vector<PE> pes;
  /// PE k's path is values[offsets[k] .. offsets[k + 1]): one array, not a
  /// vector per PE (a million PEs: 47 MB instead of 85 MB).
  std::vector<std::int64_t> offsets{0};
  std::vector<std::int64_t> values;

  [[nodiscard]] std::span<const std::int64_t> path(std::size_t k) const {
    return {values.data() + offsets[k], static_cast<std::size_t>(offsets[k + 1] - offsets[k])};
  }
};

/// Which paths a tree order follows: the machine's tree, or its groups
/// (group_path: a cluster of GPU nodes on a fat tree, each node one level).
enum class TreePaths { Tree, Groups };

/// `allowed` sorted by tree path (ties: PE order), or nothing when the
/// machine is not a tree (or, by groups, has none). O(PEs x depth); sorted only when out of order
/// (machines number their PEs in path order; the sort took ~1 s of a
/// million-PE job).
[[nodiscard]] std::optional<TreeOrder> tree_order(const Topology& topology, std::span<const PE> allowed,
                                                  TreePaths paths = TreePaths::Tree);

/// For k >= 1, the depth at which PE k's path first differs from PE k-1's
/// (the length of their common prefix; [0] is 0): a subtree at depth d is
/// a run of PEs whose entries after its first are all above d.
[[nodiscard]] std::vector<std::int32_t> branch_depths(const TreeOrder& order);

/// A child of a subtree: the PEs [lo, hi) of a tree order, and how many
/// objects it is dealt.
struct TreeChild {
  std::size_t lo = 0;
  std::size_t hi = 0;
  std::int64_t size = 0;
};

/// The children of the subtree of PEs [lo, hi) of `order` at `depth`: the
/// runs of PEs whose paths take one branch there (sizes 0).
[[nodiscard]] std::vector<TreeChild> tree_children(const TreeOrder& order, std::size_t lo, std::size_t hi,
                                                   std::size_t depth);

/// Deals `count` objects to `children` (each holds its PEs x `capacity`),
/// the children with the most room first (ties: tree order), so that a job
/// smaller than its allocation stays packed.
void deal_most_room_first(std::vector<TreeChild>& children, std::int64_t count, std::int64_t capacity);

}  // namespace tmap::strategies
