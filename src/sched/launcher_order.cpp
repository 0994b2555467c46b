// What a launcher does with a file that names only hosts: it binds each
// node's ranks, in rank order, to the node's CPUs in its own order,
// whatever core tmap chose for them (a job's output says what that costs).
#include <map>

#include "tmap/launch.hpp"
#include "tmap/topology.hpp"

namespace tmap {

Mapping launcher_order_mapping(std::span<const PE> mapping, const Topology& topology, const Constraints& constraints) {
  // Each node's slots in CPU order (an oversubscribed PE's ranks wrap).
  std::map<NodeId, std::vector<PE>> slots_on;
  for (const PE pe : constraints.allowed_pes()) slots_on[topology.node_of(pe)].push_back(pe);
  std::map<NodeId, std::size_t> next;
  Mapping placed(mapping.begin(), mapping.end());
  for (auto& pe : placed) {
    const auto node = topology.node_of(pe);
    const auto& slots = slots_on[node];
    if (slots.empty()) continue;  // outside the constraints: left where it is
    pe = slots[next[node]++ % slots.size()];
  }
  return placed;
}

}  // namespace tmap
