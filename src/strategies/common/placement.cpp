#include "strategies/common/placement.hpp"

#include <algorithm>
#include <limits>
#include <numeric>

#include "tmap/error.hpp"
#include "util/int128.hpp"

namespace tmap::strategies {

Placement::Placement(const CommMatrix& sym, const SiteSpace& sites)
    : sym_(sym),
      sites_(sites),
      site_of_(static_cast<std::size_t>(sym.num_ranks()), -1),
      load_(static_cast<std::size_t>(sites.num_sites()), 0),
      weight_(static_cast<std::size_t>(sym.num_ranks()), 0),
      conn_(static_cast<std::size_t>(sym.num_ranks()), 0),
      weight_on_(static_cast<std::size_t>(sites.num_sites()), 0) {
  for (Rank r = 0; r < sym.num_ranks(); ++r) {
    for (const auto v : sym.volumes(r)) weight_[static_cast<std::size_t>(r)] += v;
  }
  for (Site s = 0; s < sites.num_sites(); ++s) {
    if (sites.capacity(s) > 0) open_.push_back(s);
  }
}

void Placement::place(Rank r, Site s) {
  if (placed(r) || load_[static_cast<std::size_t>(s)] >= sites_.capacity(s)) {
    throw InternalError("placement: rank placed twice or site full");
  }
  site_of_[static_cast<std::size_t>(r)] = s;
  if (load_[static_cast<std::size_t>(s)]++ == 0) used_.push_back(s);
  if (load_[static_cast<std::size_t>(s)] == sites_.capacity(s)) {
    const auto it = std::find(open_.begin(), open_.end(), s);
    *it = open_.back();
    open_.pop_back();
  }
  ++placed_;
  const auto cols = sym_.targets(r);
  const auto vols = sym_.volumes(r);
  for (std::size_t k = 0; k < cols.size(); ++k) {
    const auto j = static_cast<std::size_t>(cols[k]);
    if (placed(cols[k])) continue;
    conn_[j] += vols[k];
    heap_.emplace(conn_[j], weight_[j], -cols[k]);
  }
}

Rank Placement::pop_most_connected() {
  while (!heap_.empty()) {
    const auto [c, w, neg] = heap_.top();
    heap_.pop();
    if (!placed(-neg) && c == conn_[static_cast<std::size_t>(-neg)]) return -neg;
  }
  return -1;
}

Rank Placement::heaviest_unplaced() {
  if (by_weight_.empty()) {
    by_weight_.resize(weight_.size());
    std::iota(by_weight_.begin(), by_weight_.end(), Rank{0});
    std::stable_sort(by_weight_.begin(), by_weight_.end(), [this](Rank a, Rank b) {
      return weight_[static_cast<std::size_t>(a)] > weight_[static_cast<std::size_t>(b)];
    });
  }
  while (next_heaviest_ < by_weight_.size() && placed(by_weight_[next_heaviest_])) ++next_heaviest_;
  return next_heaviest_ < by_weight_.size() ? by_weight_[next_heaviest_] : -1;
}

bool Placement::has_placed_partner(Rank r) const {
  return std::any_of(sym_.targets(r).begin(), sym_.targets(r).end(), [this](Rank j) { return placed(j); });
}

Site Placement::best_site(Rank r, Rule rule) {
  // Partners grouped by site: a dense matrix has n partners but few sites.
  const auto cols = sym_.targets(r);
  const auto vols = sym_.volumes(r);
  for (std::size_t k = 0; k < cols.size(); ++k) {
    const Site s = site_of(cols[k]);
    if (s < 0) continue;
    if (weight_on_[static_cast<std::size_t>(s)] == 0) touched_.push_back(s);
    weight_on_[static_cast<std::size_t>(s)] += vols[k];
  }
  // Candidates: the partners' sites and their nearest sites when any of
  // them is open (the BFS from the partners stops at its first open sites),
  // else every open site.
  candidates_.clear();
  for (const Site p : touched_) {
    if (is_open(p)) candidates_.push_back(p);
    for (const Site s : sites_.nearest(p)) {
      if (is_open(s)) candidates_.push_back(s);
    }
  }
  if (candidates_.empty()) {
    candidates_ = open_;
  } else {
    std::sort(candidates_.begin(), candidates_.end());
    candidates_.erase(std::unique(candidates_.begin(), candidates_.end()), candidates_.end());
  }
  Site best = -1;
  Distance best_level = 0;
  detail::Int128 best_cost = 0;
  for (const Site s : candidates_) {
    Distance level = std::numeric_limits<Distance>::max();
    detail::Int128 cost = 0;
    for (const Site p : touched_) {
      const Distance d = sites_.distance(s, p);
      level = std::min(level, d);
      cost += static_cast<detail::Int128>(weight_on_[static_cast<std::size_t>(p)]) * d;
    }
    if (rule == Rule::Cost) level = 0;
    const bool better = best < 0 || level < best_level || (level == best_level && cost < best_cost) ||
                        (level == best_level && cost == best_cost && s < best);
    if (better) {
      best = s;
      best_level = level;
      best_cost = cost;
    }
  }
  for (const Site s : touched_) weight_on_[static_cast<std::size_t>(s)] = 0;
  touched_.clear();
  return best;
}

Site Placement::central_site() const {
  // O(open x sites): a single pass over the site matrix; beyond 4096 sites
  // the lowest open site is central enough for a starting point.
  if (sites_.num_sites() > 4096) return *std::min_element(open_.begin(), open_.end());
  Site best = -1;
  detail::Int128 best_sum = 0;
  for (const Site s : open_) {
    detail::Int128 sum = 0;
    for (Site t = 0; t < sites_.num_sites(); ++t) sum += detail::Int128{sites_.distance(s, t)} * sites_.capacity(t);
    if (best < 0 || sum < best_sum || (sum == best_sum && s < best)) {
      best = s;
      best_sum = sum;
    }
  }
  return best;
}

Site Placement::farthest_open_site() const {
  Site best = -1;
  Distance best_gap = -1;
  for (const Site s : open_) {
    Distance gap = std::numeric_limits<Distance>::max();
    for (const Site u : used_) gap = std::min(gap, sites_.distance(s, u));
    if (gap > best_gap || (gap == best_gap && s < best)) {
      best = s;
      best_gap = gap;
    }
  }
  return best;
}

Site Placement::nearest_open_site(Site from) const {
  Site best = -1;
  Distance best_d = 0;
  for (const Site s : open_) {
    const Distance d = sites_.distance(from, s);
    if (best < 0 || d < best_d || (d == best_d && s < best)) {
      best = s;
      best_d = d;
    }
  }
  return best;
}

}  // namespace tmap::strategies
