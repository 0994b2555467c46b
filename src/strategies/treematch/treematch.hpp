// TreeMatch-like mapping onto tree-shaped machines (tleaf, hwloc trees,
// Tianhe-3's node tree), in TopoMatch's constrained form (Jeannot,
// Algorithm 3): walking the tree top-down, the ranks of a subtree are split
// among its children with little traffic between the parts, each child
// getting at most what its allowed PEs hold (x -o K), children with the most
// room filled first so the job stays compact. Splits are recursive
// bisections (greedy graph growing from several seeds + exact-size FM).
// Costs grow with the level of the lowest common ancestor in a tree, so
// cutting little high up is what matters. Not a tree: Scotch, as TopoMatch
// does, and -v says so.
#pragma once

#include "tmap/mapper.hpp"

namespace tmap::strategies {

class TreeMatchMapper final : public Mapper {
 public:
  [[nodiscard]] Mapping map(const Problem& problem, const Run& context) const override;
};

/// Its options, for its row of the strategy table.
std::span<const StrategyOption> treematch_options();

}  // namespace tmap::strategies
