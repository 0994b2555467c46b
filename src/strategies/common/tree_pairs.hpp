// Pairwise refinement between sibling subtrees of a tree machine, the
// k-way refinement of hierarchical partitioners (KaFFPa's refinement on the
// quotient graph, as SharedMap runs it level by level): from the root down,
// for each node of the machine's tree, every pair of its children that
// exchange traffic gets Fiduccia-Mattheyses passes of paired moves over the
// ranks the two hold (bisection.hpp's refine_split: the counts stay exact,
// and moves that lose are taken when a later prefix wins). The swap
// searches move one rank or one block at a time to a better place; FM
// crosses the plateaus and small hills between a partition and a better one
// (random traffic on a tleaf: the V-cycles' local optimum is 2-3 % above
// SharedMap's strong preset).
//
// In a tree whose distances depend only on the deepest common node (a
// tleaf), moving ranks between two children of a node changes only the
// traffic between those two children at that node: the pair's cut is the
// exact objective of the level. Only such trees are refined (checked on
// the allowed PEs).
#pragma once

#include <cstdint>

#include "tmap/comm_matrix.hpp"
#include "tmap/mapping.hpp"
#include "tmap/topology.hpp"

namespace tmap::strategies {

struct TreePairStats {
  bool applied = false;    ///< the machine is a tree whose distances follow its levels
  std::int64_t pairs = 0;  ///< pairs of subtrees refined
  std::int64_t moved = 0;  ///< ranks that changed subtree
  Volume gain = 0;         ///< cut the pairs' passes removed, summed over levels (not hop-bytes)
};

struct TreePairOptions {
  int threads = 1;
  /// V-cycles per pair and round: after the first, each with the pair's
  /// ranks in another order (another matching), until `patience` in a row
  /// gain nothing.
  int cycles = 1;
  int patience = 1;
};

/// Refines `mapping` (every rank on an allowed PE, within the capacity) of
/// `sym` (the symmetrised traffic) on a tree machine whose distances follow
/// its levels; does nothing on other machines (applied = false). Ranks
/// trade places pairwise, so each PE keeps its count; where constraints
/// balance ranks by load (a load limit), each PE stays within its load
/// limit and count instead, moved ranks taking the PEs with the most room.
/// Pairs of a node run side by side on the threads; the result does not
/// depend on them.
TreePairStats refine_tree_pairs(const CommMatrix& sym, const Topology& topology, const Constraints& constraints,
                                Mapping& mapping, const TreePairOptions& options = {});

}  // namespace tmap::strategies
