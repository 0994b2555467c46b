// Random placement from the context's seed: a uniform shuffle of the allowed
// slots, the first n taken. A floor any real strategy must beat.
#pragma once

#include "tmap/mapper.hpp"

namespace tmap::strategies {

class RandomMapper final : public Mapper {
 public:
  [[nodiscard]] Mapping map(const Problem& problem, const Run& context) const override;
};

}  // namespace tmap::strategies
