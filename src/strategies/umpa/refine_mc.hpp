// Deveci et al., Algorithm 3 (maximum-congestion refinement) under a static
// routing model, on per-PE sites so that every route is exact. The loads
// are a bottleneck objective's (tmap/objective.hpp): the links' volume
// congestion (umpa-mc, --objective congestion) or seconds on links and
// nodes' memory (--objective time).
#pragma once

#include <vector>

#include "strategies/common/sites.hpp"
#include "tmap/comm_matrix.hpp"
#include "tmap/objective.hpp"

namespace tmap::strategies::umpa {

struct McResult {
  double mc_before = 0.0, mc_after = 0.0;
  double ac_before = 0.0, ac_after = 0.0;
  std::int64_t swaps = 0;
};

/// What breaks a tie of the busiest load: the paper's average congestion
/// (AC, umpa-mc), or hop-bytes (the objectives: hop-bytes breaks their ties).
enum class Tiebreak { AverageCongestion, HopBytes };

struct McOptions {
  Tiebreak tiebreak = Tiebreak::AverageCongestion;
  /// Most accepted swaps; negative: the paper's bound, ranks + 16.
  std::int64_t max_swaps = -1;
  /// Also try swapping a task of the busiest link with the link's other
  /// heaviest tasks (an exchange across it), beyond the paper's candidates.
  bool cross_swaps = false;
};

/// Refines site_of (per-PE sites) in place: a swap or move is kept when it
/// lowers the busiest load, or keeps it and lowers the tiebreak. `comm` is
/// the directed matrix (messages are its entries), `sym` its symmetrised
/// form (candidates). The before/after figures are in the model's units.
McResult refine_congestion(const CommMatrix& comm, const CommMatrix& sym, const SiteSpace& sites,
                           const BottleneckModel& model, std::vector<Site>& site_of, const McOptions& options = {});

}  // namespace tmap::strategies::umpa
