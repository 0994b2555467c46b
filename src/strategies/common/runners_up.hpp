// A strategy that can name runners-up worth refining beside its choice
// (auto: its other candidates). map_with asks for them where a refinement is
// cheap (the quality mode's small jobs), refines them all and keeps the
// fewest hop-bytes; the public Mapper interface stays map() alone.
#pragma once

#include <cstddef>
#include <vector>

#include "tmap/mapper.hpp"

namespace tmap::strategies {

class OffersRunnersUp {
 public:
  OffersRunnersUp() = default;
  OffersRunnersUp(const OffersRunnersUp&) = default;
  OffersRunnersUp& operator=(const OffersRunnersUp&) = default;
  OffersRunnersUp(OffersRunnersUp&&) = default;
  OffersRunnersUp& operator=(OffersRunnersUp&&) = default;
  virtual ~OffersRunnersUp() = default;
  /// map()'s mapping first, then at most `most` - 1 runners-up worth
  /// refining too (distinct, in the strategy's order of preference).
  [[nodiscard]] virtual std::vector<Mapping> map_several(const Problem& problem, const Run& run,
                                                         std::size_t most) const = 0;
};

}  // namespace tmap::strategies
