// Sites: where the constructive strategies (greedy, rcm, umpa-*) put ranks.
//
// A site is a compute node when the topology's distances are decided by
// nodes and two ranks of one node are always the same distance apart (one
// rank per PE, or PEs of a node 0 apart as on Tianhe-3); otherwise it is one
// PE. A site holds (allowed PEs on it) x K ranks. Working per site is exact:
// the distance of two ranks depends only on their sites. Distances between
// sites come from a compact matrix when it fits, else from the topology.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "tmap/mapping.hpp"
#include "tmap/topology.hpp"
#include "tmap/topology_views.hpp"

namespace tmap::strategies {

using Site = std::int64_t;

/// Most sites the site-by-site constructions (greedy, umpa-*) take: greedy
/// took 12.6 s on 262,144 sites of a torus and 151 s on 1,048,576.
inline constexpr Site kMaxConstructionSites = 262144;

class SiteSpace {
 public:
  /// `per_pe` forces one site per PE (routing-exact work: a site's ranks
  /// then all sit on one PE).
  SiteSpace(const Topology& topology, const Constraints& constraints, bool per_pe = false);

  [[nodiscard]] Site num_sites() const noexcept { return static_cast<Site>(capacity_.size()); }
  /// An InputError naming `strategy` and what to use instead when there
  /// are more than kMaxConstructionSites sites.
  void refuse_if_too_many(std::string_view strategy) const;
  /// Ranks the site holds.
  [[nodiscard]] std::int64_t capacity(Site s) const noexcept { return capacity_[static_cast<std::size_t>(s)]; }
  /// A PE of the site (its lowest allowed one), to ask the topology or a
  /// routing model about the site.
  [[nodiscard]] PE representative(Site s) const noexcept { return slots_[static_cast<std::size_t>(begin_[s])]; }
  /// Distance between two ranks on sites s and t (s == t: two ranks sharing
  /// the site).
  [[nodiscard]] Distance distance(Site s, Site t) const noexcept {
    if (s == t) return intra_;
    if (!dense_.empty()) return dense_[static_cast<std::size_t>(s * num_sites() + t)];
    return topology_.distance(representative(s), representative(t));
  }
  /// The kNearest sites closest to s other than s, by (distance, id),
  /// computed on first use and kept: by a scan of every site (O(S) each)
  /// up to kScanSites sites, beyond by a search outward from s in the
  /// machine's distance graph (a few dozen vertices on a mesh), which gives
  /// the same list.
  static constexpr Site kScanSites = 4096;
  static constexpr std::size_t kNearest = 32;
  [[nodiscard]] std::span<const Site> nearest(Site s) const;
  /// Turns site_of_rank into a mapping: each site's slots are handed out to
  /// its ranks in increasing rank order ("fill a PE, then the next").
  [[nodiscard]] Mapping to_mapping(std::span<const Site> site_of_rank) const;
  /// The site of each rank of a mapping (made on the same constraints).
  [[nodiscard]] std::vector<Site> sites_of(std::span<const PE> mapping) const;

 private:
  const Topology& topology_;
  Distance intra_ = 0;
  std::vector<std::int64_t> capacity_;
  std::vector<std::int64_t> begin_;  ///< site -> first index into slots_
  std::vector<PE> slots_;            ///< every slot's PE, site by site
  std::vector<NodeId> node_key_;     ///< site -> node id (per-node sites) or PE
  bool per_node_ = false;
  std::vector<std::uint32_t> dense_;
  mutable std::vector<std::vector<Site>> nearest_;  ///< cache of nearest()
  /// For nearest() beyond kScanSites: the machine graph and each vertex's
  /// site (-1: none), built on first use.
  mutable std::optional<DistanceGraph> graph_;
  mutable std::vector<Site> vertex_site_;
  mutable bool graph_tried_ = false;
  [[nodiscard]] bool search_graph(Site s, std::vector<Site>& list) const;
};

}  // namespace tmap::strategies
