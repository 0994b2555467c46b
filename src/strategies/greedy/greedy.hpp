// Hoefler and Snir's greedy mapping (ICS 2011), the OHTMA paper's "greedy"
// baseline: the heaviest rank first, on a central site; then, repeatedly, the
// unplaced rank with the most traffic to the placed ones goes to the free
// site closest to its placed partners (least added hop-bytes). A rank with no
// placed partner (a new component) is the heaviest unplaced one, placed next
// to the last placed rank.
#pragma once

#include "tmap/mapper.hpp"

namespace tmap::strategies {

class GreedyMapper final : public Mapper {
 public:
  [[nodiscard]] Mapping map(const Problem& problem, const Run& context) const override;
};

}  // namespace tmap::strategies
