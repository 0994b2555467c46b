// The portfolio: every construction that suits the input, each polished by
// the swap search, the best two by multilevel V-cycles, the best few then
// searched further by robust tabu search
// (with --refine tabu) within one shared move budget; the best mapping wins.
// Never worse than the best construction alone; deterministic for a seed and
// a budget (without --time-limit).
#pragma once

#include <vector>

#include "tmap/mapper.hpp"

namespace tmap::strategies {

/// Constructions best tries, in order (ties keep the earlier one): the
/// strategy table's rows with a portfolio_order, by that order.
[[nodiscard]] std::vector<const StrategyInfo*> portfolio();
/// Tabu searches that share the budget (the best refined candidates).
inline constexpr int kTabuFinalists = 3;
/// Candidates that get multilevel V-cycles after the swap search (the best).
inline constexpr int kVcycleFinalists = 2;

class BestMapper final : public Mapper {
 public:
  [[nodiscard]] Mapping map(const Problem& problem, const Run& context) const override;
};

}  // namespace tmap::strategies
