// The portfolio: every construction that suits the input, each polished by
// the swap search, the best few then searched further by robust tabu search
// (with --refine tabu) within one shared move budget; the best mapping wins.
// Never worse than the best construction alone; deterministic for a seed and
// a budget (without --time-limit).
#pragma once

#include "tmap/mapper.hpp"

namespace tmap::strategies {

/// Constructions best tries, in order (ties keep the earlier one).
inline constexpr const char* kPortfolio[] = {"inorder", "roundrobin", "rcm",   "greedy", "umpa-wh",
                                             "scotch",  "treematch",  "ohtma", "grid2d"};
/// Tabu searches that share the budget (the best refined candidates).
inline constexpr int kTabuFinalists = 3;

class BestMapper final : public Mapper {
 public:
  [[nodiscard]] Mapping map(const Problem& problem, const Context& context) const override;
};

}  // namespace tmap::strategies
