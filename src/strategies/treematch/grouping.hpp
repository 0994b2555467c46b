// TreeMatch's bottom-up grouping (Jeannot, Algorithm 1) for a full,
// symmetric tree: level by level from the leaves, the current objects
// (ranks, padded with silent ones to fill the tree) are grouped by the
// level's arity a to keep as much traffic inside groups as possible, and
// the groups' aggregated traffic is the next level's matrix. The method
// depends on the level (TopoMatch's adaptive choice):
//   - fewer than tau candidate groups C(m, a): every group enumerated,
//     heaviest disjoint ones taken, then swap-improvement passes;
//   - a = 2: heavy-edge matching (bucket grouping);
//   - a <= 5: greedy grouping (seed = heaviest talker, add the object that
//     talks most to the group);
//   - a > 5: k-way partition by recursive bisection.
// The groups then fill the tree top-down in order.
#pragma once

#include <cstdint>
#include <vector>

#include "strategies/common/bisection.hpp"
#include "tmap/comm_matrix.hpp"

namespace tmap::treematch {

/// `arities`: fan-outs from the root to the leaves (including an extra
/// level for K slots per PE); their product >= sym.num_ranks(). Returns
/// the leaf position (0..product-1) of each rank.
/// `how`: how the k-way partitions' sets are split; `threads`: how many
/// may split them side by side (the result does not depend on it).
std::vector<std::int64_t> bottom_up(const CommMatrix& sym, const std::vector<std::int64_t>& arities, std::int64_t tau,
                                    strategies::Bisection how = strategies::Bisection::Auto, int threads = 1);

}  // namespace tmap::treematch
