// The allowed PEs of each node, for the searches that move ranks within a
// node or whole nodes' ranks (settle_in_nodes, place_nodes, auto's search
// for a faster mapping within its hop-bytes).
#pragma once

#include <span>
#include <vector>

#include "core/distance_oracle.hpp"
#include "tmap/mapping.hpp"
#include "tmap/topology.hpp"

namespace tmap::strategies {

/// Each node's allowed PEs in their order, the nodes numbered as
/// detail::group_by_node numbers them (by increasing node id).
[[nodiscard]] inline std::vector<std::vector<PE>> pes_by_node(const Topology& topology, std::span<const PE> allowed) {
  const auto nodes = detail::group_by_node(topology, allowed);
  std::vector<std::vector<PE>> out(nodes.representative.size());
  for (std::size_t u = 0; u < allowed.size(); ++u) {
    out[static_cast<std::size_t>(nodes.of_pe[u])].push_back(allowed[u]);
  }
  return out;
}

}  // namespace tmap::strategies
