// Deveci et al., Algorithm 1 (greedy mapping), on sites with capacities.
#include <algorithm>
#include <limits>

#include "strategies/common/placement.hpp"
#include "strategies/umpa/umpa.hpp"

namespace tmap::strategies::umpa {

namespace {

/// The unmapped task farthest (BFS on the task graph) from every mapped one;
/// ties go to more volume, then the lower id. A task no mapped task reaches
/// (another component) counts as farthest.
Rank farthest_task(const CommMatrix& sym, const Placement& placement, const std::vector<Volume>& weight) {
  const Rank n = sym.num_ranks();
  std::vector<std::int64_t> level(static_cast<std::size_t>(n), -1);
  std::vector<Rank> queue;
  for (Rank r = 0; r < n; ++r) {
    if (placement.placed(r)) {
      level[static_cast<std::size_t>(r)] = 0;
      queue.push_back(r);
    }
  }
  for (std::size_t head = 0; head < queue.size(); ++head) {
    const Rank v = queue[head];
    for (const Rank w : sym.targets(v)) {
      if (level[static_cast<std::size_t>(w)] >= 0) continue;
      level[static_cast<std::size_t>(w)] = level[static_cast<std::size_t>(v)] + 1;
      queue.push_back(w);
    }
  }
  Rank best = -1;
  const auto key = [&](Rank r) {
    const auto l = level[static_cast<std::size_t>(r)];
    return std::pair(l < 0 ? std::numeric_limits<std::int64_t>::max() : l, weight[static_cast<std::size_t>(r)]);
  };
  for (Rank r = 0; r < n; ++r) {
    if (placement.placed(r)) continue;
    if (best < 0 || key(r) > key(best)) best = r;
  }
  return best;
}

}  // namespace

std::vector<Site> greedy_mapping(const CommMatrix& sym, const SiteSpace& sites, int seeds) {
  const Rank n = sym.num_ranks();
  if (n == 0) return {};
  Placement placement(sym, sites);
  // t_MSRV: the most send+receive volume, on a central site.
  placement.place(placement.heaviest_unplaced(), placement.central_site());
  for (Rank mapped = 1; mapped < n; ++mapped) {
    Rank t = -1;
    if (mapped < 1 + seeds) {
      t = farthest_task(sym, placement, placement.weights());
    } else {
      t = placement.pop_most_connected();
      if (t < 0) t = placement.heaviest_unplaced();  // a new component
    }
    // GETBESTNODE: near the partners' sites, or far from everything used.
    const Site s = placement.has_placed_partner(t) ? placement.best_site(t, Placement::Rule::LevelThenCost)
                                                   : placement.farthest_open_site();
    placement.place(t, s);
  }
  return placement.site_of_rank();
}

}  // namespace tmap::strategies::umpa
