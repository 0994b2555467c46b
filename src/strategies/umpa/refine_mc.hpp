// Deveci et al., Algorithm 3 (maximum-congestion refinement) under a static
// routing model, on per-PE sites so that every route is exact.
#pragma once

#include <vector>

#include "strategies/common/sites.hpp"
#include "tmap/comm_matrix.hpp"
#include "tmap/routing.hpp"

namespace tmap::strategies::umpa {

struct McResult {
  double mc_before = 0.0, mc_after = 0.0;
  double ac_before = 0.0, ac_after = 0.0;
  std::int64_t swaps = 0;
};

/// Refines site_of (per-PE sites) in place. `comm` is the directed matrix
/// (messages are its entries), `sym` its symmetrised form (candidates).
McResult refine_congestion(const CommMatrix& comm, const CommMatrix& sym, const SiteSpace& sites,
                           const RoutingModel& routing, std::vector<Site>& site_of);

}  // namespace tmap::strategies::umpa
