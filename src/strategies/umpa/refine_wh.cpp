// Deveci et al., Algorithm 2 (weighted-hop refinement).
#include <algorithm>
#include <numeric>

#include "strategies/umpa/refine_state.hpp"
#include "strategies/umpa/umpa.hpp"

namespace tmap::strategies::umpa {

int refine_weighted_hops(const CommMatrix& sym, const SiteSpace& sites, std::vector<Site>& site_of) {
  RefineState state(sym, sites, site_of);
  const Rank n = sym.num_ranks();
  detail::Int128 wh = 0;
  for (Rank t = 0; t < n; ++t) wh += state.incurred(t);
  int passes = 0;
  // A pass can only lower WH, so the loop ends; the cap bounds slow tails.
  while (passes < 100 && wh > 0) {
    ++passes;
    // whHeap: tasks by the weighted hops they cause, largest first.
    std::vector<std::pair<detail::Int128, Rank>> order;
    order.reserve(static_cast<std::size_t>(n));
    for (Rank t = 0; t < n; ++t) order.emplace_back(-state.incurred(t), t);
    std::sort(order.begin(), order.end());
    detail::Int128 gained = 0;
    for (const auto& [neg, t] : order) {
      for (const auto& c : state.candidates(t, kDelta)) {
        const auto d = state.delta(t, c);
        if (d < 0) {
          state.apply(t, c);
          gained -= d;
          break;
        }
      }
    }
    // delta() counts each pair from both ends, as wh does.
    const auto before = wh;
    wh -= 2 * gained;
    if (static_cast<double>(2 * gained) <= kMinPassGain * static_cast<double>(before)) break;
  }
  site_of = state.site_of_rank();
  return passes;
}

}  // namespace tmap::strategies::umpa
