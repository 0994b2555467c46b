// Scotch "sub N t0 .. tN-1 <target>": the listed PEs of another target,
// renumbered 0..N-1, with the whole target's distances (Scotch's own domain
// distances on sub targets can lose gaps; ours are the true ones).
#pragma once

#include <memory>
#include <vector>

#include "tmap/host_layout.hpp"
#include "tmap/scotch_export.hpp"
#include "tmap/topology.hpp"
#include "tmap/topology_views.hpp"
#include "topology/interfaces.hpp"

namespace tmap::topo {

class SubTopology final : public Topology, public TreeView, public ScotchView, public HostLayout {
 public:
  /// `whole_nodes`: the terminals are every PE of some of the base's nodes
  /// (a recognised Tianhe-3 allocation); the target then writes itself as
  /// the base's target of those nodes.
  SubTopology(std::unique_ptr<Topology> base, std::vector<PE> terminals, bool whole_nodes = false);
  [[nodiscard]] PE size() const override { return static_cast<PE>(terminals_.size()); }
  [[nodiscard]] Distance distance(PE a, PE b) const override { return base_->distance(terminals_[a], terminals_[b]); }
  [[nodiscard]] Distance max_distance() const override { return max_distance_; }
  [[nodiscard]] NodeId num_nodes() const override { return nodes_; }
  [[nodiscard]] NodeId node_of(PE pe) const override { return node_of_[pe]; }
  [[nodiscard]] std::optional<Distance> node_uniform_distance() const override {
    return base_->node_uniform_distance();
  }
  // Capabilities are the base's, for the listed PEs: a tree where the base
  // is one; hosts, slots and labels the base's; the Scotch target a sub of
  // the base's (or, for whole nodes of Tianhe-3, its target of those nodes).
  // A grid's subset is no grid, nor is its graph the subset's.
  /// A tree where its base is one (its PEs keep their base's paths).
  [[nodiscard]] const void* find_interface(const std::type_info& type) const override {
    if (type == typeid(TreeView) && base_->find<TreeView>() == nullptr) return nullptr;
    return interface_of<ScotchView, HostLayout, TreeView>(this, type);
  }
  [[nodiscard]] std::string host_name(NodeId node) const override { return tmap::host_name(*base_, base_node_[node]); }
  [[nodiscard]] NodeId node_label(NodeId node) const override { return tmap::node_label(*base_, base_node_[node]); }
  [[nodiscard]] std::optional<NodeId> node_with_label(NodeId label) const override;
  [[nodiscard]] bool scotch_terminals_are_nodes() const override {
    return whole_nodes_ && tmap::scotch_terminals_are_nodes(*base_);
  }
  [[nodiscard]] std::int64_t slot_in_node(PE pe) const override { return tmap::slot_in_node(*base_, terminals_[pe]); }
  [[nodiscard]] std::int64_t pu_in_node(PE pe) const override { return tmap::pu_in_node(*base_, terminals_[pe]); }
  void tree_path(PE pe, std::vector<std::int64_t>& path) const override {
    (void)tmap::tree_path(*base_, terminals_[pe], path);
  }
  [[nodiscard]] std::string kind() const override { return "sub"; }
  /// The base's routes between the listed PEs.
  [[nodiscard]] std::unique_ptr<RoutingModel> routing_model() const override;
  [[nodiscard]] std::string description() const override;
  [[nodiscard]] std::string to_tgt() const override;

  [[nodiscard]] const Topology& base() const noexcept { return *base_; }
  [[nodiscard]] const std::vector<PE>& terminals() const noexcept { return terminals_; }

 private:
  std::unique_ptr<Topology> base_;
  std::vector<PE> terminals_;
  std::vector<NodeId> node_of_;
  std::vector<NodeId> base_node_;  ///< local node -> the base's node id
  NodeId nodes_ = 0;
  Distance max_distance_ = 0;
  bool whole_nodes_ = false;
};

}  // namespace tmap::topo
