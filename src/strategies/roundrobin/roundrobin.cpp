#include "strategies/roundrobin/roundrobin.hpp"

#include <map>

#include "tmap/comm_matrix.hpp"
#include "tmap/topology.hpp"

namespace tmap::strategies {

Mapping RoundRobinMapper::map(const Problem& problem, const Run& /*context*/) const {
  // Slots grouped by node, nodes in increasing order, slots in PE order.
  std::map<NodeId, std::vector<PE>> by_node;
  for (const PE pe : problem.constraints.slots()) by_node[problem.topology.node_of(pe)].push_back(pe);
  std::vector<std::vector<PE>> nodes;
  nodes.reserve(by_node.size());
  for (auto& [node, slots] : by_node) nodes.push_back(std::move(slots));

  const auto n = static_cast<std::size_t>(problem.comm.num_ranks());
  Mapping mapping;
  mapping.reserve(n);
  std::vector<std::size_t> used(nodes.size(), 0);
  std::vector<std::size_t> open(nodes.size());  // nodes with free slots, cyclic order kept
  for (std::size_t k = 0; k < nodes.size(); ++k) open[k] = k;
  while (mapping.size() < n) {
    std::vector<std::size_t> still_open;
    for (const auto k : open) {
      if (mapping.size() == n) break;
      mapping.push_back(nodes[k][used[k]++]);
      if (used[k] < nodes[k].size()) still_open.push_back(k);
    }
    open = std::move(still_open);
  }
  return mapping;
}

}  // namespace tmap::strategies
