// The ptscotch row of the strategy table: PT-Scotch's mapping where the
// graph lives, run by the distributed front ends (tm-pmap under mpirun, the
// MPI layer with TMAP_STRATEGY=ptscotch; src/distributed). In one process
// there is no distributed graph: it maps as scotch, its one-process
// counterpart, and says so through the fallback hook.
#pragma once

#include "tmap/mapper.hpp"

namespace tmap::strategies {

class PtScotchMapper final : public Mapper {
 public:
  [[nodiscard]] Mapping map(const Problem& problem, const Run& context) const override;
};

}  // namespace tmap::strategies
