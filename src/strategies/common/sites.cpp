#include "strategies/common/sites.hpp"

#include <algorithm>
#include <functional>
#include <limits>
#include <queue>
#include <string>
#include <unordered_map>
#include <utility>

#include "tmap/error.hpp"
#include "tmap/topology_views.hpp"

namespace tmap::strategies {

namespace {
/// Largest site-distance matrix kept (entries; 128 MiB of uint32).
constexpr std::int64_t kDenseSiteBudget = std::int64_t{1} << 25;
}  // namespace

SiteSpace::SiteSpace(const Topology& topology, const Constraints& constraints, bool per_pe) : topology_(topology) {
  const auto k = constraints.capacity();
  const auto intra = topology.node_uniform_distance();
  // Per node only when it is exact: every pair of ranks on a node is `intra`
  // apart (one rank per PE), or PEs of a node are all 0 apart.
  const auto build = [&](bool per_node) {
    per_node_ = per_node;
    intra_ = per_node ? *intra : 0;
    node_key_.clear();
    begin_.clear();
    capacity_.clear();
    slots_.clear();
    for (const PE pe : constraints.allowed_pes()) {
      const NodeId key = per_node ? topology.node_of(pe) : pe;
      if (node_key_.empty() || node_key_.back() != key) {
        // sites_of() searches the keys: they must increase (a numbering
        // whose nodes are not contiguous falls back to per-PE sites).
        if (!node_key_.empty() && key < node_key_.back()) return false;
        node_key_.push_back(key);
        begin_.push_back(static_cast<std::int64_t>(slots_.size()));
        capacity_.push_back(0);
      }
      for (std::int64_t c = 0; c < k; ++c) slots_.push_back(pe);
      capacity_.back() += k;
    }
    return true;
  };
  const bool per_node = !per_pe && intra && topology.num_nodes() < topology.size() && (k == 1 || *intra == 0);
  if (!per_node || !build(true)) (void)build(false);
  begin_.push_back(static_cast<std::int64_t>(slots_.size()));
  const Site s = num_sites();
  if (s * s <= kDenseSiteBudget && topology.max_distance() <= Distance{0xFFFFFFFF}) {
    dense_.resize(static_cast<std::size_t>(s * s));
    for (Site a = 0; a < s; ++a) {
      for (Site b = 0; b < s; ++b) {
        dense_[static_cast<std::size_t>(a * s + b)] =
            static_cast<std::uint32_t>(a == b ? intra_ : topology.distance(representative(a), representative(b)));
      }
    }
  }
}

bool SiteSpace::search_graph(Site s, std::vector<Site>& list) const {
  if (!graph_tried_) {
    graph_tried_ = true;
    graph_ = tmap::distance_graph(topology_);
    if (graph_) {
      vertex_site_.assign(static_cast<std::size_t>(graph_->num_vertices()), -1);
      for (Site t = 0; t < num_sites(); ++t) {
        for (auto k = begin_[static_cast<std::size_t>(t)]; k < begin_[static_cast<std::size_t>(t) + 1]; ++k) {
          vertex_site_[static_cast<std::size_t>(
              graph_->pe_vertex[static_cast<std::size_t>(slots_[static_cast<std::size_t>(k)])])] = t;
        }
      }
    }
  }
  if (!graph_) return false;
  // Dijkstra outward from s's representative; a site is found at the first
  // of its vertices reached (all of its PEs are equally far from the others,
  // as sites are exact). Stop once kNearest are found and the search has
  // passed the last one's distance (ties included), then order by (distance,
  // id) as the scan does.
  const auto& g = *graph_;
  using Item = std::pair<std::int64_t, std::int64_t>;
  std::priority_queue<Item, std::vector<Item>, std::greater<>> queue;
  std::unordered_map<std::int64_t, std::int64_t> dist;
  std::unordered_map<Site, std::int64_t> found;
  std::vector<std::pair<std::int64_t, Site>> hits;
  const auto start = g.pe_vertex[static_cast<std::size_t>(representative(s))];
  dist[start] = 0;
  queue.push({0, start});
  std::int64_t horizon = std::numeric_limits<std::int64_t>::max();
  while (!queue.empty()) {
    const auto [d, v] = queue.top();
    queue.pop();
    if (d > horizon) break;
    if (dist[v] < d) continue;
    const auto t = vertex_site_[static_cast<std::size_t>(v)];
    if (t >= 0 && t != s && found.emplace(t, d).second) {
      hits.emplace_back(d, t);
      if (hits.size() == kNearest) horizon = d;
    }
    for (auto e = g.offsets[static_cast<std::size_t>(v)]; e < g.offsets[static_cast<std::size_t>(v) + 1]; ++e) {
      const auto to = g.targets[static_cast<std::size_t>(e)];
      const auto nd = d + g.weights[static_cast<std::size_t>(e)];
      const auto it = dist.find(to);
      if (it == dist.end() || nd < it->second) {
        dist[to] = nd;
        queue.push({nd, to});
      }
    }
  }
  std::sort(hits.begin(), hits.end());
  for (std::size_t k = 0; k < hits.size() && k < kNearest; ++k) list.push_back(hits[k].second);
  return true;
}

void SiteSpace::refuse_if_too_many(std::string_view strategy) const {
  if (num_sites() <= kMaxConstructionSites) return;
  throw ResourceError(std::string(strategy) + ": " + std::to_string(num_sites()) + " sites exceed the " +
                      std::to_string(kMaxConstructionSites) +
                      " it maps in bounded time (greedy took 151 s on a million); use auto (the default), "
                      "inorder for a job numbered like the machine, or the distributed mapper (ptscotch)");
}

std::span<const Site> SiteSpace::nearest(Site s) const {
  if (nearest_.empty()) nearest_.resize(static_cast<std::size_t>(num_sites()));
  auto& list = nearest_[static_cast<std::size_t>(s)];
  if (list.empty() && num_sites() > kScanSites && search_graph(s, list)) return list;
  if (list.empty() && num_sites() > 1) {
    std::vector<std::pair<Distance, Site>> all;
    all.reserve(static_cast<std::size_t>(num_sites() - 1));
    for (Site t = 0; t < num_sites(); ++t) {
      if (t != s) all.emplace_back(distance(s, t), t);
    }
    const auto keep = std::min(all.size(), kNearest);
    std::partial_sort(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(keep), all.end());
    for (std::size_t k = 0; k < keep; ++k) list.push_back(all[k].second);
  }
  return list;
}

Mapping SiteSpace::to_mapping(std::span<const Site> site_of_rank) const {
  std::vector<std::int64_t> used(capacity_.size(), 0);
  Mapping mapping(site_of_rank.size());
  for (std::size_t r = 0; r < site_of_rank.size(); ++r) {
    const auto s = static_cast<std::size_t>(site_of_rank[r]);
    if (used[s] >= capacity_[s]) throw InternalError("site over capacity");
    mapping[r] = slots_[static_cast<std::size_t>(begin_[s] + used[s]++)];
  }
  return mapping;
}

std::vector<Site> SiteSpace::sites_of(std::span<const PE> mapping) const {
  std::vector<Site> sites(mapping.size());
  for (std::size_t r = 0; r < mapping.size(); ++r) {
    const NodeId key = per_node_ ? topology_.node_of(mapping[r]) : mapping[r];
    const auto it = std::lower_bound(node_key_.begin(), node_key_.end(), key);
    if (it == node_key_.end() || *it != key) throw InternalError("mapping outside the allowed sites");
    sites[r] = it - node_key_.begin();
  }
  return sites;
}

}  // namespace tmap::strategies
