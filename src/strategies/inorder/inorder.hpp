// In-order placement, the paper's first baseline: rank i on the i-th allowed
// slot, filling each PE (all its -o K slots) before the next.
#pragma once

#include "tmap/mapper.hpp"

namespace tmap::strategies {

class InOrderMapper final : public Mapper {
 public:
  [[nodiscard]] Mapping map(const Problem& problem, const Run& context) const override;
};

}  // namespace tmap::strategies
