// A GPU node: its GPUs are the PEs (--pe gpu, one rank per GPU), as
// `nvidia-smi topo -m`, `rocm-smi --showtopo`, an hwloc XML or a short spec
// describe them. Two GPUs are as far apart as the path between them is in
// the node's link classes, NVIDIA's words for them:
//
//   NV#/xGMI (a direct or switched GPU link)   1
//   PIX  (at most one PCIe switch)             2
//   PXB  (several PCIe bridges)                3
//   PHB  (through a PCIe host bridge: the CPU) 4
//   NODE (between host bridges of one NUMA)    5
//   SYS  (across the CPUs' SMP link)           6
//
// so GPU links < one PCIe switch < one socket < across sockets, in edges
// of the node as hwloc's tree counts them for PCIe. A GPU leaves its node
// through its nearest NIC: its exit is that NIC's link class plus the NIC
// itself (one edge), so two GPUs of two nodes are each one's exit plus the
// network's cables apart, always farther than two GPUs of one node.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "routing/node_fabric.hpp"
#include "tmap/host_layout.hpp"
#include "tmap/topology.hpp"
#include "topology/interfaces.hpp"

namespace tmap::topo {

/// How two devices of a node are joined, nearest first.
enum class GpuLink : std::uint8_t { Self, Gpu, Pix, Pxb, Phb, Node, Sys };

/// The link's distance (the table above).
[[nodiscard]] constexpr Distance link_distance(GpuLink link) {
  return static_cast<Distance>(link);
}

/// NVIDIA's word for a link ("NV12" is Gpu, "PIX", "SOC" is Sys), nullopt
/// for another word.
[[nodiscard]] std::optional<GpuLink> link_of_word(std::string_view word);
[[nodiscard]] std::string_view word_of_link(GpuLink link);

/// Whose GPUs: which variable names a process's device.
enum class GpuVendor : std::uint8_t { Nvidia, Amd, Intel };
[[nodiscard]] std::string_view visible_devices_variable(GpuVendor vendor);

/// A GPU node as its sources describe it.
struct GpuNodeModel {
  GpuVendor vendor = GpuVendor::Nvidia;
  /// The GPUs in device order (the index the vendor's variable takes).
  std::vector<std::string> gpus;
  std::vector<std::string> nics;
  /// gpus x gpus, row-major; Self on the diagonal.
  std::vector<GpuLink> links;
  /// gpus x gpus: the width of each GPU link (NV#'s #, xGMI links; 1 where
  /// the source says none), 0 where no GPU link joins.
  std::vector<std::int32_t> widths;
  /// The GPU links go through switches (NVSwitch): each GPU has one port of
  /// its width for all its GPU traffic, not a link per pair.
  bool switched = false;
  /// gpus x nics, row-major.
  std::vector<GpuLink> nic_links;
  /// Each GPU's nearest CPUs (OS numbers, as Linux and nvidia-smi's "CPU
  /// Affinity" count them), empty where the source does not say.
  std::vector<std::vector<std::int32_t>> cpus;
  /// What the source was ("nvidia-smi topo -m of dgx.txt").
  std::string source;
  /// The node's host name where the source records one (an hwloc XML's
  /// HostName, "localhost" without: as for an hwloc machine), else empty.
  std::string host;

  [[nodiscard]] GpuLink link(std::size_t a, std::size_t b) const { return links[a * gpus.size() + b]; }
  /// Checks the sizes and that links are symmetric with Self on the
  /// diagonal only; InputError naming `source` otherwise. Fills `widths`
  /// (1 a GPU link) where the source gave none.
  void check();
};

/// The node's links, for the routes (routing/node_fabric.hpp): a link per
/// pair of linked GPUs (an egress and an ingress port per GPU where they
/// are switched), a PCIe link per GPU, the host's links a route crosses by
/// class (pcie-switch for PXB, host-bridge for PHB, numa for NODE, smp for
/// SYS), a link per NIC (or one network port where none is named). Each
/// link counts hops so that a route's hops are the distance, and each kind
/// has a bandwidth relative to a network cable of 100 Gb/s: an NVLink 25 GB/s
/// each way (2), an xGMI link 50 GB/s (4), PCIe 4.0 x16 25 GB/s (2), the
/// host's links 50 GB/s (4), a NIC one cable (1). A GPU leaves the node
/// through its nearest NIC; GPUs with the same nearest NICs take them in turn.
[[nodiscard]] routing::NodeFabric fabric_of(const GpuNodeModel& model);

class GpuNodeTopology final : public Topology, public HostLayout {
 public:
  explicit GpuNodeTopology(GpuNodeModel model);

  [[nodiscard]] PE size() const override { return static_cast<PE>(model_.gpus.size()); }
  [[nodiscard]] Distance distance(PE a, PE b) const override {
    return link_distance(model_.link(static_cast<std::size_t>(a), static_cast<std::size_t>(b)));
  }
  [[nodiscard]] Distance max_distance() const override { return max_distance_; }
  [[nodiscard]] NodeId num_nodes() const override { return 1; }
  [[nodiscard]] NodeId node_of(PE /*pe*/) const override { return 0; }
  [[nodiscard]] std::optional<Distance> node_uniform_distance() const override { return uniform_; }
  [[nodiscard]] std::int64_t slot_in_node(PE pe) const override { return pe; }
  [[nodiscard]] std::string host_name(NodeId node) const override {
    return model_.host.empty() ? HostLayout::host_name(node) : model_.host;
  }
  [[nodiscard]] std::optional<DeviceSlot> device_slot(PE pe) const override;
  [[nodiscard]] const void* find_interface(const std::type_info& type) const override {
    return interface_of<HostLayout>(this, type);
  }
  [[nodiscard]] std::string kind() const override { return "gpu-node"; }
  [[nodiscard]] std::unique_ptr<RoutingModel> routing_model() const override;
  [[nodiscard]] std::string description() const override;

  /// Edges from the GPU out of its node: its nearest NIC's link class plus
  /// the NIC (PHB + 1 for every GPU where the source names no NIC).
  [[nodiscard]] Distance exit_distance(PE pe) const { return exits_[static_cast<std::size_t>(pe)]; }
  [[nodiscard]] const GpuNodeModel& model() const noexcept { return model_; }

 private:
  GpuNodeModel model_;
  std::vector<Distance> exits_;
  std::vector<std::vector<std::int32_t>> shares_;
  Distance max_distance_ = 0;
  std::optional<Distance> uniform_;
};

/// Whether a file's text is `nvidia-smi topo -m` or `rocm-smi --showtopo`
/// output.
[[nodiscard]] bool is_gpu_topology_text(std::string_view text);
/// The node that text describes; InputError naming `origin`, the line and
/// the problem.
[[nodiscard]] GpuNodeModel read_gpu_topology_text(std::string_view text, const std::string& origin);

/// Whether a --node value is a hand spec of a GPU node ("gpu:4 ...").
[[nodiscard]] bool is_gpu_spec(std::string_view spec);
/// "gpu:N [link:all|pairs|switch|none] [width:W] [package:P] [nic:K] [pu:C]
/// [vendor:nvidia|amd|intel]": N GPUs split evenly over P packages (default
/// 1), joined all to all, in pairs (0-1, 2-3, ...), through a switch
/// (NVSwitch) or not by GPU links of W links each (default all, 1); K NICs split evenly over the GPUs in order (each on
/// its GPUs' PCIe switch; default none); C CPUs (OS numbers 0..C-1) split evenly over the packages. InputError naming
/// the spec otherwise.
[[nodiscard]] GpuNodeModel gpu_node_of_spec(std::string_view spec);

}  // namespace tmap::topo
