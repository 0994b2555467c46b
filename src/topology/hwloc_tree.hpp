// A node's hardware tree from hwloc (an lstopo XML file or a synthetic
// description such as "pack:1 numa:8 l2:2 core:4 pu:1"), always through
// libhwloc. PEs are the PUs in logical order. The distance of two PUs is
// the number of tree edges between them through their lowest common
// ancestor, counting every hwloc level (package, groups, caches, core):
// hyper-threads of a core are 2 apart, cores under one L2 4 apart, and so
// on. Asymmetric trees (PUs at different depths) are handled the same way.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "tmap/host_layout.hpp"
#include "tmap/topology.hpp"
#include "tmap/topology_views.hpp"
#include "topology/interfaces.hpp"

namespace tmap::topo {

/// A synthetic description as users write it, as hwloc reads it: hwloc
/// wants PUs last ("package:2 core:8 pu:1"); a description that stops at
/// cores means one PU each. One reading for --node, TMAP_NODE and
/// HWLOC_SYNTHETIC.
[[nodiscard]] std::string synthetic_with_pus(const std::string& description);

class HwlocTreeTopology final : public Topology, public TreeView, public HostLayout {
 public:
  /// `source` is a file path (xml = true) or a synthetic description.
  HwlocTreeTopology(const std::string& source, bool xml);
  /// From XML text in memory; `origin` names it in messages.
  static std::unique_ptr<HwlocTreeTopology> from_xml_text(const std::string& text, const std::string& origin);
  /// The machine tmap runs on, as hwloc discovers it (HWLOC_XMLFILE and
  /// HWLOC_SYNTHETIC, hwloc's own variables, stand in for it when set).
  static std::unique_ptr<HwlocTreeTopology> this_system();

  [[nodiscard]] PE size() const override { return static_cast<PE>(ancestors_.size()); }
  [[nodiscard]] Distance distance(PE a, PE b) const override;
  [[nodiscard]] Distance max_distance() const override { return max_distance_; }
  /// One machine: a single node.
  [[nodiscard]] NodeId num_nodes() const override { return 1; }
  [[nodiscard]] NodeId node_of(PE /*pe*/) const override { return 0; }
  [[nodiscard]] std::optional<Distance> node_uniform_distance() const override { return std::nullopt; }
  /// The logical index of the PU's core: what an Open MPI rankfile's slot=
  /// names (a logical core, not a PU). Hyper-threads of one core share it;
  /// `--rankfile-slots pu` writes PU indices for mpirun --use-hwthread-cpus.
  [[nodiscard]] std::int64_t slot_in_node(PE pe) const override { return core_of_[pe] >= 0 ? core_of_[pe] : pe; }
  [[nodiscard]] std::int64_t pu_in_node(PE pe) const override { return pe; }
  /// The host the XML was taken on (its HostName), else "localhost": an
  /// hwloc topology describes one machine, usually the one tmap runs on.
  [[nodiscard]] std::string host_name(NodeId /*node*/) const override {
    return host_name_.empty() ? "localhost" : host_name_;
  }
  void tree_path(PE pe, std::vector<std::int64_t>& path) const override {
    path.assign(ancestors_[pe].begin(), ancestors_[pe].end());
  }
  [[nodiscard]] const void* find_interface(const std::type_info& type) const override {
    return interface_of<HostLayout, TreeView>(this, type);
  }
  [[nodiscard]] std::string kind() const override { return "hwloc"; }
  [[nodiscard]] std::string description() const override { return "hwloc tree of " + source_; }

  /// The fan-out of each level from the root to the PUs, levels of fan-out 1
  /// left out; empty when the tree is not symmetric.
  [[nodiscard]] const std::vector<std::int64_t>& symmetric_arities() const noexcept { return arities_; }
  /// The topology as hwloc XML (hwloc's own export).
  [[nodiscard]] const std::string& xml() const noexcept { return xml_; }

 private:
  HwlocTreeTopology() = default;
  /// Loads through libhwloc, in-process, after checking what it reads.
  void load(const std::string& source, int kind, const std::string& origin);
  std::string source_;
  std::vector<std::vector<std::uint64_t>> ancestors_;  ///< per PU: object ids from the root down
  std::vector<std::int64_t> arities_;
  std::string xml_;
  std::vector<std::int64_t> core_of_;  ///< per PU: its core's logical index, -1 without one
  std::string host_name_;
  Distance max_distance_ = 0;
};

}  // namespace tmap::topo
