#include "strategies/umpa/refine_state.hpp"

#include <algorithm>
#include <limits>

#include "tmap/error.hpp"

namespace tmap::strategies::umpa {

RefineState::RefineState(const CommMatrix& sym, const SiteSpace& sites, std::vector<Site> start)
    : sym_(sym),
      sites_(sites),
      distance_{&sites},
      costs_(sym, std::move(start), distance_),
      ranks_on_(static_cast<std::size_t>(sites.num_sites())),
      level_(static_cast<std::size_t>(sites.num_sites())),
      partner_site_(static_cast<std::size_t>(sites.num_sites()), 0),
      seen_(static_cast<std::size_t>(sites.num_sites()), 0) {
  for (Rank r = 0; r < static_cast<Rank>(costs_.places().size()); ++r) {
    ranks_on_[static_cast<std::size_t>(site_of(r))].push_back(r);
  }
}

detail::Int128 RefineState::delta(Rank t, const Candidate& c) const {
  return c.rank < 0 ? -costs_.move_gain(t, c.site) : -costs_.swap_gain(t, c.rank);
}

void RefineState::apply(Rank t, const Candidate& c) {
  const auto take = [this](Rank r, Site from, Site to) {
    auto& list = ranks_on_[static_cast<std::size_t>(from)];
    list.erase(std::find(list.begin(), list.end(), r));
    ranks_on_[static_cast<std::size_t>(to)].push_back(r);
    costs_.move(r, to);
  };
  const Site a = site_of(t);
  if (c.rank < 0) {
    if (static_cast<std::int64_t>(ranks_on_[static_cast<std::size_t>(c.site)].size()) >= sites_.capacity(c.site)) {
      throw InternalError("refinement: move onto a full site");
    }
    take(t, a, c.site);
    return;
  }
  const Site b = site_of(c.rank);
  take(t, a, b);
  take(c.rank, b, a);
}

std::vector<Candidate> RefineState::candidates(Rank t, std::size_t limit) {
  const Site own = site_of(t);
  for (const Rank j : sym_.targets(t)) {
    const Site s = site_of(j);
    if (!partner_site_[static_cast<std::size_t>(s)]) {
      partner_site_[static_cast<std::size_t>(s)] = 1;
      partner_sites_.push_back(s);
    }
  }
  // The BFS from the partners' sites with its early exit: the sites a BFS
  // reaches first are among each partner site's nearest ones (and the
  // partner sites themselves, level 0). Their exact level is the distance
  // to the closest partner site.
  order_.clear();
  const auto consider = [&](Site s) {
    if (s == own || seen_[static_cast<std::size_t>(s)]) return;
    seen_[static_cast<std::size_t>(s)] = 1;
    order_.push_back(s);
  };
  for (const Site p : partner_sites_) {
    consider(p);
    for (const Site s : sites_.nearest(p)) consider(s);
  }
  if (partner_sites_.empty()) {
    // No partner: the sites nearest to t's own.
    for (const Site s : sites_.nearest(own)) consider(s);
  }
  for (const Site s : order_) {
    seen_[static_cast<std::size_t>(s)] = 0;
    Distance level = partner_sites_.empty() ? sites_.distance(own, s) : std::numeric_limits<Distance>::max();
    for (const Site p : partner_sites_) level = std::min(level, sites_.distance(s, p));
    level_[static_cast<std::size_t>(s)] = level;
  }
  for (const Site s : partner_sites_) partner_site_[static_cast<std::size_t>(s)] = 0;
  partner_sites_.clear();
  // Each site offers at least one candidate, so `limit` sites are enough.
  const auto take = std::min(order_.size(), limit);
  const auto by_level = [this](Site a, Site b) {
    return std::pair(level_[static_cast<std::size_t>(a)], a) < std::pair(level_[static_cast<std::size_t>(b)], b);
  };
  std::partial_sort(order_.begin(), order_.begin() + static_cast<std::ptrdiff_t>(take), order_.end(), by_level);
  std::vector<Candidate> out;
  for (std::size_t i = 0; i < take && out.size() < limit; ++i) {
    const Site s = order_[i];
    auto ranks = ranks_on_[static_cast<std::size_t>(s)];
    std::sort(ranks.begin(), ranks.end());
    for (const Rank r : ranks) {
      if (out.size() < limit) out.push_back({r, s});
    }
    if (out.size() < limit && static_cast<std::int64_t>(ranks.size()) < sites_.capacity(s)) out.push_back({-1, s});
  }
  return out;
}

}  // namespace tmap::strategies::umpa
