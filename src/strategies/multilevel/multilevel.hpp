// The multilevel strategy: a stencil whose grid the geometric strategy
// recognises is laid out by it (then refined like any other start);
// otherwise tmap's own engine (src/multilevel) builds a mapping from
// scratch. V-cycles follow until one gains nothing.
#pragma once

#include "tmap/mapper.hpp"

namespace tmap::strategies {

class MultilevelMapper final : public Mapper {
 public:
  [[nodiscard]] Mapping map(const Problem& problem, const Run& context) const override;
};

}  // namespace tmap::strategies
