// Round-robin placement, the paper's second baseline: rank i goes to the
// (i mod m)-th allowed node (skipping nodes that are full), on that node's
// next free slot. Spreads neighbouring ranks over nodes.
#pragma once

#include "tmap/mapper.hpp"

namespace tmap::strategies {

class RoundRobinMapper final : public Mapper {
 public:
  [[nodiscard]] Mapping map(const Problem& problem, const Run& context) const override;
};

}  // namespace tmap::strategies
