// The default strategy: the best of Scotch's static mapping,
// treematch on tree machines (tleaf, hwloc, Tianhe-3; up to 262,144 ranks,
// where it is fast and often better: 7 % fewer hop-bytes than scotch on a
// 65,536-rank stencil on a tleaf) and the in-order placement. A job
// numbered like the machine (a natural stencil on a torus of its shape) is
// already placed well in order, and Scotch's recursive bipartitioning does
// not find that on large machines: 65,536 ranks of a 7-point stencil on
// torus3D 64 64 16 average 1.00 hop in order and 2.93 with scotch. The
// default never does harm. "Best" is the run's objective; with none given,
// the predicted time where the machine has routes, else hop-bytes. By time
// (predictions within 1 % count as equal and go to the fewer hop-bytes; a
// traffic with phases is timed phase by phase and has greedy among the
// candidates up to 16,384 ranks; rb is one too), with no objective given,
// never above in-order in either, and at or below Scotch's candidate in
// both where that costs less time than the model's margin (choose_no_regret); a
// candidate at or below both is first made faster without more hop-bytes
// while a faster one shows there is time to gain (as_fast_within_hop_bytes).
// In-order is the first candidate: it keeps its place unless another is better.
// Where ranks of unequal weight are balanced by load (--imbalance), the
// candidates are libscotch's weighted mapping and three rb cuts by weight
// instead (map_by_load, by_load.cpp).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "strategies/common/runners_up.hpp"
#include "tmap/mapper.hpp"
#include "tmap/objective.hpp"

namespace tmap::strategies {

class AutoMapper final : public Mapper, public OffersRunnersUp {
 public:
  [[nodiscard]] Mapping map(const Problem& problem, const Run& context) const override;
  /// Judged by hop-bytes, the kept candidate, then the others by hop-bytes
  /// (ties in candidate order), each unlike those before it; else one.
  [[nodiscard]] std::vector<Mapping> map_several(const Problem& problem, const Run& context,
                                                 std::size_t most) const override;
};

/// Predicted times within this fraction of the least are the same: the
/// model does not order mappings closer than that as SimGrid does (Fig. 3:
/// 0.2 % the other way where SimGrid has them 1-2 % apart); among them the
/// fewer hop-bytes win.
inline constexpr double kSameTime = 0.01;

/// The candidate auto keeps among `scores` (in its order of preference):
/// among those whose value is within `same_within` (relative; at least
/// 1e-9, a rounding) of the least, the fewest hop-bytes, ties to the
/// earlier; with `most_hop_bytes`, only among those with at most that many
/// hop-bytes (at least one must be).
[[nodiscard]] std::size_t choose_candidate(std::span<const ObjectiveScore> scores,
                                           std::optional<std::int64_t> most_hop_bytes, double same_within = 0.0);

/// The candidates (indices into `scores`) at or below every one of
/// `references` both in value and in hop-bytes, in order.
[[nodiscard]] std::vector<std::size_t> at_or_below(std::span<const ObjectiveScore> scores,
                                                   std::span<const std::size_t> references);

/// A candidate at or below every reference in both time and hop-bytes is
/// kept over a faster one that is not, unless that one is faster by more
/// than this fraction. The model ranks mappings the way SimGrid does but
/// not by as much: on GPU machines its predicted-to-replayed ratio differs
/// by up to 6 % from one strategy's mappings to another's (medians
/// 1.005-1.066 on BT and SP, benchmarks/results/gpu_replay.md); BT on 121
/// xGMI GCDs of a dragonfly has greedy's rows 5.7 % ahead of rb's cuts by
/// the model (with 8 % more hop-bytes than Scotch's), 1.8 % by SimGrid's
/// replay of the phases. So a gain the model tells within this margin does
/// not buy more hop-bytes than either reference's; beyond it time wins (LU
/// and Sweep3D at 4,096 ranks on Tianhe-3, 10.6-11.8 % faster than Scotch's
/// mapping by the model and by SimGrid).
inline constexpr double kDominanceMargin = 0.10;

/// The candidate auto keeps when judging by time with no objective asked:
/// never one above the first of `references` (in-order) in time or in
/// hop-bytes; among those, where one at or below every reference (Scotch's
/// too: what the user would otherwise run) in both is within `dominance`
/// of the fastest, only those; as choose_candidate(.., same_within)
/// chooses (`same_within`: the model's resolution). Where the fastest is
/// faster than that, time wins: the default is judged by what users feel.
[[nodiscard]] std::size_t choose_no_regret(std::span<const ObjectiveScore> scores,
                                           std::span<const std::size_t> references, double same_within,
                                           double dominance = kDominanceMargin);

/// How far as_fast_within_hop_bytes searches: its scores at most, and the
/// messages they visit at most (a score visits every message of every
/// phase, 0.1-0.2 us each on a route of a few links here: 6e5 visits cost
/// about 0.1 s); not at all when that allows fewer than `least_evaluations`
/// (from about 10,000 messages: 4,096 ranks of LU, where 15 scores found
/// nothing).
struct AsFastLimits {
  std::int64_t most_evaluations = 1000;
  std::int64_t most_message_visits = 600000;
  std::int64_t least_evaluations = 64;
};

/// The scores `limits` allow (most_evaluations, and most_message_visits
/// over the messages of `comm`'s phases: a score visits each once).
[[nodiscard]] std::int64_t scores_allowed(const CommMatrix& comm, const AsFastLimits& limits);

/// What as_fast_within_hop_bytes reached: its score, the scores it took,
/// and whether it did not start (several ranks a PE, or too many messages
/// for its limits).
struct AsFastResult {
  ObjectiveScore score;
  std::int64_t scores = 0;
  bool skipped = false;
};

/// From `mapping` (one rank a PE, scored `score` by `meter`, a time), the
/// ranks of two whole nodes (PE by PE) or of two PEs of one node exchanged
/// where that lowers the predicted time, or keeps it and spreads the job's
/// load more evenly over the resources (plateaus: one of two busiest links
/// unloaded), without raising hop-bytes above `score`'s; first
/// improvement, until the time is at most `target`, a pass finds nothing or
/// the limits. `mapping` is changed to match the score reached.
[[nodiscard]] AsFastResult as_fast_within_hop_bytes(const Problem& problem, const ObjectiveMeter& meter,
                                                    Mapping& mapping, ObjectiveScore score, double target,
                                                    const AsFastLimits& limits = {});

/// The other way: from `mapping` (one rank a PE, scored `score` by
/// `meter`, a time), two ranks exchanged where that lowers hop-bytes
/// without making the predicted time slower than `score`'s; first
/// improvement, until hop-bytes are at most `target`, a pass finds nothing
/// or the limits (each exchange that lowers hop-bytes costs a score).
/// `mapping` is changed to match the score reached.
[[nodiscard]] AsFastResult fewer_hop_bytes_within_time(const Problem& problem, const ObjectiveMeter& meter,
                                                       Mapping& mapping, ObjectiveScore score, std::int64_t target,
                                                       const AsFastLimits& limits = {});

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
