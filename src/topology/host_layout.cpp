// The host naming adapter (tmap/host_layout.hpp): a machine's own host
// layout where it has one, else node k is "cn<k>" with its PEs in slots
// 0, 1, ... in PE order.
#include "tmap/host_layout.hpp"

namespace tmap {

NodeId node_label(const Topology& topology, NodeId node) {
  const auto* layout = topology.find<HostLayout>();
  return layout != nullptr ? layout->node_label(node) : node;
}

std::optional<NodeId> node_with_label(const Topology& topology, NodeId label) {
  const auto* layout = topology.find<HostLayout>();
  const auto node = layout != nullptr ? layout->node_with_label(label) : std::optional<NodeId>(label);
  if (!node || *node < 0 || *node >= topology.num_nodes()) return std::nullopt;
  return node;
}

std::string host_name(const Topology& topology, NodeId node) {
  if (const auto* layout = topology.find<HostLayout>()) return layout->host_name(node);
  return "cn" + std::to_string(node);
}

std::int64_t slot_in_node(const Topology& topology, PE pe) {
  if (const auto* layout = topology.find<HostLayout>()) return layout->slot_in_node(pe);
  if (topology.num_nodes() == topology.size()) return 0;
  // Machines with nodes of several PEs say their slots; a count in PE
  // order keeps any other correct.
  const NodeId node = topology.node_of(pe);
  std::int64_t slot = 0;
  for (PE p = 0; p < pe; ++p) slot += topology.node_of(p) == node ? 1 : 0;
  return slot;
}

std::int64_t pu_in_node(const Topology& topology, PE pe) {
  if (const auto* layout = topology.find<HostLayout>()) return layout->pu_in_node(pe);
  return slot_in_node(topology, pe);
}

std::optional<DeviceSlot> device_slot(const Topology& topology, PE pe) {
  if (const auto* layout = topology.find<HostLayout>()) return layout->device_slot(pe);
  return std::nullopt;
}

}  // namespace tmap
