// The coarsest level, at most a few dozen clusters: placed by a greedy
// construction (fresh mappings), then searched with every pair of swaps:
// robust tabu search (refine/dense_search) when all clusters have one
// shape, else a swap descent within shapes.
#pragma once

#include <cstdint>
#include <vector>

#include "multilevel/levels.hpp"

namespace tmap::multilevel {

/// Distances between the coarsest groups, row-major (count x count).
using GroupTable = std::vector<std::int64_t>;

/// A placement of the coarsest clusters built greedily: the heaviest first,
/// each next the one that talks most to those placed, on the free group of
/// its shape closest (by traffic) to its placed partners.
std::vector<std::int64_t> greedy_coarsest(const GraphLevel& graph, const TargetLevel& target, const GroupTable& d);

/// Improves `place` (never worse) with `iterations` tabu moves from `seed`.
void search_coarsest(const GraphLevel& graph, const TargetLevel& target, const GroupTable& d,
                     std::vector<std::int64_t>& place, std::int64_t iterations, std::uint64_t seed);

}  // namespace tmap::multilevel
