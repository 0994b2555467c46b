// The Scotch export adapter (tmap/scotch_export.hpp): a machine's own
// target where it writes one, else a deco 0 of its exact distances.
#include "tmap/scotch_export.hpp"

#include <vector>

#include "tmap/error.hpp"
#include "topology/deco.hpp"

namespace tmap {

std::string scotch_target(const Topology& topology) {
  if (const auto* view = topology.find<ScotchView>()) return view->to_tgt();
  std::vector<std::int64_t> order(static_cast<std::size_t>(topology.size()));
  for (PE p = 0; p < topology.size(); ++p) order[static_cast<std::size_t>(p)] = p;
  return topo::format_deco0(order, std::vector<std::int64_t>(order.size(), 1),
                            [&](std::int64_t a, std::int64_t b) -> Distance {
                              const Distance d = topology.distance(a, b);
                              if (d < 1) {
                                throw InputError("cannot write this " + topology.kind() + " as a Scotch target: PEs " +
                                                 std::to_string(a) + " and " + std::to_string(b) +
                                                 " are 0 apart, and Scotch needs distinct terminals at least 1 apart");
                              }
                              return d;
                            });
}

bool scotch_terminals_are_nodes(const Topology& topology) {
  const auto* view = topology.find<ScotchView>();
  return view != nullptr && view->scotch_terminals_are_nodes();
}

std::string scotch_node_subset_target(const Topology& topology, std::span<const NodeId> nodes) {
  const auto* view = topology.find<ScotchView>();
  return view != nullptr ? view->node_subset_tgt(nodes) : std::string();
}

std::int64_t scotch_uniform_group(const Topology& topology, NodeId node) {
  const auto* view = topology.find<ScotchView>();
  return view != nullptr ? view->uniform_group(node) : -1;
}

const std::string& scotch_source(const Topology& topology) {
  static const std::string none;
  const auto* view = topology.find<ScotchView>();
  return view != nullptr ? view->scotch_source() : none;
}

}  // namespace tmap
