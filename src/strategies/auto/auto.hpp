// The default strategy: the lowest hop-bytes of Scotch's static mapping,
// treematch on tree machines (tleaf, hwloc, Tianhe-3; up to 262,144 ranks,
// where it is fast and often better: 7 % fewer hop-bytes than scotch on a
// 65,536-rank stencil on a tleaf) and the in-order placement. A job
// numbered like the machine (a natural stencil on a torus of its shape) is
// already placed well in order, and Scotch's recursive bipartitioning does
// not find that on large machines: 65,536 ranks of a 7-point stencil on
// torus3D 64 64 16 average 1.00 hop in order and 2.93 with scotch. The
// default never does harm.
#pragma once

#include "tmap/mapper.hpp"

namespace tmap::strategies {

class AutoMapper final : public Mapper {
 public:
  [[nodiscard]] Mapping map(const Problem& problem, const Run& context) const override;
};

/// Its options, for its row of the strategy table.
std::span<const StrategyOption> auto_options();

}  // namespace tmap::strategies
