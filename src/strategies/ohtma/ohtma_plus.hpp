// ohtma+: OHTMA with the extensions the paper invites, kept apart from the
// faithful `ohtma` so that one stays reproducible.
//  1. Repeated passes: pair-exchange passes (fresh marks each time) until a
//     pass keeps no swap or OhtmaOptions::max_passes is reached.
//  2. Moves onto unused slots: when there are more slots than ranks, the free
//     slots join the exchange as ranks without traffic, so a swap with one is
//     a move of a rank onto an unused allowed PE.
//  3. Candidate lists: a swap/move local search restricted to the places near
//     each rank's partners (local_search.hpp), which needs no n x n table and
//     so keeps very large inputs tractable.
// 1 and 2 run while the gain table of ranks + free slots stays within
// kPlusTableRanks; 3 always runs last.
#pragma once

#include "tmap/mapper.hpp"

namespace tmap::strategies {

class OhtmaPlusMapper final : public Mapper {
 public:
  [[nodiscard]] Mapping map(const Problem& problem, const Run& context) const override;
};

/// Its options, for its row of the strategy table.
std::span<const StrategyOption> ohtma_plus_options();

}  // namespace tmap::strategies
