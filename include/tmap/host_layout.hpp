// How launchers name a machine's nodes and slots: host names, the number a
// user knows a node by (--alloc), and a PE's core and hardware thread on its
// node. Machines that know their hosts say so (HostLayout); any other
// machine's node k is host "cn<k>" (contract section 2) with its PEs in
// slots 0, 1, ... in PE order.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tmap/export.h"
#include "tmap/topology.hpp"
#include "tmap/types.hpp"

TMAP_API_BEGIN

namespace tmap {

/// A PE that is a device (--pe gpu): the variable that hands a process its
/// device (CUDA_VISIBLE_DEVICES, ROCR_VISIBLE_DEVICES, ZE_AFFINITY_MASK),
/// the device's index on its node, and the CPUs its rank binds to (OS
/// numbers, the device's share of its nearest CPUs; empty: not known).
struct DeviceSlot {
  std::string variable;
  std::int32_t index = 0;
  std::vector<std::int32_t> cpus;
};

class HostLayout {
 public:
  virtual ~HostLayout() = default;
  /// The number users know a node by (--alloc, host names): its index,
  /// except where the machine numbers its nodes itself (a deco target's
  /// terminal labels, a sub target's nodes in the whole machine).
  [[nodiscard]] virtual NodeId node_label(NodeId node) const { return node; }
  /// The node a label names; nullopt when no node has it (the adapter
  /// also refuses nodes outside the machine).
  [[nodiscard]] virtual std::optional<NodeId> node_with_label(NodeId label) const { return label; }
  /// Host name of a node for launcher files when no allocation spelled it:
  /// "cn<label>" unless the machine names its hosts (an hwloc machine's
  /// recorded host name, a cluster's --host-names).
  [[nodiscard]] virtual std::string host_name(NodeId node) const { return "cn" + std::to_string(node_label(node)); }
  /// Index of a PE among its node's PEs (the core for a rankfile's slot=).
  [[nodiscard]] virtual std::int64_t slot_in_node(PE pe) const = 0;
  /// The PE's hardware thread on its node, for launchers that bind to PUs
  /// (mpirun --use-hwthread-cpus); differs from slot_in_node only where
  /// cores hold several PUs (hwloc trees with hyper-threads).
  [[nodiscard]] virtual std::int64_t pu_in_node(PE pe) const { return slot_in_node(pe); }
  /// Where PEs are devices (GPUs), the PE's device; nullopt for CPUs.
  [[nodiscard]] virtual std::optional<DeviceSlot> device_slot(PE /*pe*/) const { return std::nullopt; }
};

/// HostLayout's answers, or the defaults above where the machine has none.
[[nodiscard]] NodeId node_label(const Topology& topology, NodeId node);
[[nodiscard]] std::optional<NodeId> node_with_label(const Topology& topology, NodeId label);
[[nodiscard]] std::string host_name(const Topology& topology, NodeId node);
[[nodiscard]] std::int64_t slot_in_node(const Topology& topology, PE pe);
[[nodiscard]] std::int64_t pu_in_node(const Topology& topology, PE pe);
[[nodiscard]] std::optional<DeviceSlot> device_slot(const Topology& topology, PE pe);

}  // namespace tmap

TMAP_API_END
