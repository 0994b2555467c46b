// OHTMA (Li et al. 2020, Algorithm 1): greedy construction, one pair-exchange
// pass of `loop` swaps (default n/2) with status marks, backtracking to the
// best prefix. `ohtma` is the faithful algorithm; `ohtma+` adds extensions
// (see ohtma_plus.hpp), so the paper's results stay reproducible.
#pragma once

#include "tmap/mapper.hpp"

namespace tmap::strategies {

class OhtmaMapper final : public Mapper {
 public:
  [[nodiscard]] Mapping map(const Problem& problem, const Run& context) const override;
};

/// Its options, for its row of the strategy table.
std::span<const StrategyOption> ohtma_options();

}  // namespace tmap::strategies
