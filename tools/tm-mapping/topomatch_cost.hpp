// TopoMatch's printed costs (its -m metrics), computed as TopoMatch counts
// them: over unordered pairs i < j of the matrix as given (its upper
// triangle; tmap's hop-bytes count both directions of A), times
//   1 SUM_COM   the target's distance (Scotch's, which tmap's equals),
//   2 MAX_COM   the largest such product,
//   3 HOP_BYTE  2 x the levels up to the common ancestor on tree machines
//               (on other machines TopoMatch prints SUM_COM, and so do we).
#pragma once

#include <span>

#include "tmap/comm_matrix.hpp"
#include "tmap/topology.hpp"

namespace tmap::cli {

enum class TopoMatchMetric { SumCom = 1, MaxCom = 2, HopByte = 3 };

/// The cost TopoMatch prints after a mapping (sigma[rank] = PE).
[[nodiscard]] double topomatch_cost(const CommMatrix& comm, const Topology& topology, std::span<const PE> sigma,
                                    TopoMatchMetric metric);

}  // namespace tmap::cli
