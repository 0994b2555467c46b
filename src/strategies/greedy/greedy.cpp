#include "strategies/greedy/greedy.hpp"

#include "strategies/common/placement.hpp"
#include "tmap/comm_matrix.hpp"

namespace tmap::strategies {

Mapping GreedyMapper::map(const Problem& problem, const Run& /*context*/) const {
  const auto sym = problem.comm.symmetrized();
  const SiteSpace sites(problem.topology, problem.constraints);
  sites.refuse_if_too_many("greedy");
  Placement placement(sym, sites);
  Site last = -1;
  for (Rank step = 0; step < sym.num_ranks(); ++step) {
    Rank r = placement.pop_most_connected();
    Site site = -1;
    if (r >= 0) {
      site = placement.best_site(r, Placement::Rule::Cost);
    } else {
      // The first rank, or the start of a new component.
      r = placement.heaviest_unplaced();
      site = placement.empty() ? placement.central_site() : placement.nearest_open_site(last);
    }
    placement.place(r, site);
    last = site;
  }
  return sites.to_mapping(placement.site_of_rank());
}

}  // namespace tmap::strategies
