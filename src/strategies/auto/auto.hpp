// The default strategy: the best of Scotch's static mapping,
// treematch on tree machines (tleaf, hwloc, Tianhe-3; up to 262,144 ranks,
// where it is fast and often better: 7 % fewer hop-bytes than scotch on a
// 65,536-rank stencil on a tleaf) and the in-order placement. A job
// numbered like the machine (a natural stencil on a torus of its shape) is
// already placed well in order, and Scotch's recursive bipartitioning does
// not find that on large machines: 65,536 ranks of a 7-point stencil on
// torus3D 64 64 16 average 1.00 hop in order and 2.93 with scotch. The
// default never does harm. "Best" is the run's objective; with none given,
// the predicted time where the machine has routes (among the candidates at
// most in-order's hop-bytes; predictions within 1 % count as equal and go
// to the fewer hop-bytes; a traffic with phases is timed phase by phase and
// has greedy among the candidates up to 16,384 ranks), else hop-bytes.
// In-order is the first candidate: it keeps its place unless another is better.
// Where ranks of unequal weight are balanced by load (--imbalance), the
// candidates are libscotch's weighted mapping and three rb cuts by weight
// instead (map_by_load, by_load.cpp).
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "tmap/mapper.hpp"
#include "tmap/objective.hpp"

namespace tmap::strategies {

class AutoMapper final : public Mapper {
 public:
  [[nodiscard]] Mapping map(const Problem& problem, const Run& context) const override;
};

/// The candidate auto keeps among `scores` (in its order of preference):
/// among those whose value is within `same_within` (relative; at least
/// 1e-9, a rounding) of the least, the fewest hop-bytes, ties to the
/// earlier; with `most_hop_bytes`, only among those with at most that many
/// hop-bytes (at least one must be).
[[nodiscard]] std::size_t choose_candidate(std::span<const ObjectiveScore> scores,
                                           std::optional<std::int64_t> most_hop_bytes, double same_within = 0.0);

/// auto where ranks of unequal weight are balanced by load (balances_load):
/// Scotch's weighted mapping, then moves within the load limits.
[[nodiscard]] Mapping map_by_load(const Problem& problem, const Run& context);

/// auto for jobs of many ranks a PE (capacity from kManyPerPe up): rb's cut
/// by weight, each rank weighing 1 and each PE holding its count, brought
/// within the count and refined by moves; in-order where that is lower.
inline constexpr std::int64_t kManyPerPe = 256;
[[nodiscard]] Mapping map_many_per_pe(const Problem& problem, const Run& context);

/// Its options, for its row of the strategy table.
std::span<const StrategyOption> auto_options();

}  // namespace tmap::strategies
