// A cluster: compute nodes on a network, each node a tree of its own (an
// hwloc description: packages, caches, cores, PUs). PEs are numbered node
// by node in host order, inside a node in hwloc's logical order. Nodes may
// be of several kinds (a partition of two-socket nodes beside one of
// one-socket nodes): each node holds its kind's tree.
//
// The distance of two PEs is the number of edges between them in the whole
// machine's graph: inside a node, hwloc's tree edges through their lowest
// common ancestor; across nodes, each PE's edges up to its node, plus the
// network cables between the two nodes (a fat tree: 2 per switch level
// climbed). A GPU node's PEs are its GPUs (topology/gpu/gpu_node.hpp):
// their distance inside the node is their link class, their way out their
// nearest NIC's. So two cores of a socket < two sockets of a node < two nodes
// under one leaf switch < across the spine, as the machine orders them.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "routing/network.hpp"
#include "tmap/host_layout.hpp"
#include "tmap/topology.hpp"
#include "tmap/topology_views.hpp"
#include "topology/interfaces.hpp"

namespace tmap::topo {

/// What one kind of node holds: its tree (nullptr: a node of one PE) and
/// how the user gave it, for the description.
struct NodeModel {
  std::unique_ptr<Topology> tree;
  std::string text;
};

class ClusterTopology final : public Topology, public TreeView, public NodeGroupsView, public HostLayout {
 public:
  /// `models`: the kinds of node (at least one); `kind_of_node`: each
  /// node's kind, an index into `models` (empty: every node the first);
  /// `hosts`: the nodes' host names in node order (empty: cn<node>).
  ClusterTopology(std::shared_ptr<const routing::Network> network, std::vector<NodeModel> models,
                  std::vector<std::int32_t> kind_of_node, std::vector<std::string> hosts);

  [[nodiscard]] PE size() const override { return size_; }
  [[nodiscard]] Distance distance(PE a, PE b) const override;
  [[nodiscard]] Distance max_distance() const override { return max_distance_; }
  [[nodiscard]] NodeId num_nodes() const override { return network_->num_nodes(); }
  [[nodiscard]] NodeId node_of(PE pe) const override;
  [[nodiscard]] std::optional<Distance> node_uniform_distance() const override { return uniform_; }
  [[nodiscard]] std::string host_name(NodeId node) const override;
  [[nodiscard]] std::int64_t slot_in_node(PE pe) const override;
  [[nodiscard]] std::int64_t pu_in_node(PE pe) const override;
  /// A GPU node's PE: its GPU and CPUs.
  [[nodiscard]] std::optional<DeviceSlot> device_slot(PE pe) const override;
  /// Where the network is a tree (fat trees): its branches from the top
  /// down, then the node's own path: the distance is this tree's.
  void tree_path(PE pe, std::vector<std::int64_t>& path) const override;
  /// Where the network is a tree: its branches, then the PE's path in its
  /// node where the node is a tree, else its index there (GPU nodes, whose
  /// links are no tree, as one level).
  void group_path(PE pe, std::vector<std::int64_t>& path) const override;
  /// A tree only where the network is one and every node is
  /// (network_tree_); groups wherever the network is a tree.
  [[nodiscard]] const void* find_interface(const std::type_info& type) const override {
    if (type == typeid(TreeView) && !network_tree_) return nullptr;
    if (type == typeid(NodeGroupsView) && !network_is_tree_) return nullptr;
    return interface_of<HostLayout, TreeView, NodeGroupsView>(this, type);
  }
  [[nodiscard]] std::unique_ptr<RoutingModel> routing_model() const override;
  [[nodiscard]] std::int64_t part_of(PE pe) const override { return network_->part_of(node_of(pe)); }
  [[nodiscard]] std::string why_apart(PE a, PE b) const override;
  [[nodiscard]] std::string kind() const override { return network_->kind(); }
  [[nodiscard]] std::string description() const override;

  [[nodiscard]] const routing::Network& network() const noexcept { return *network_; }

 private:
  /// The node's kind of node.
  [[nodiscard]] const NodeModel& model_of(NodeId node) const {
    return models_[kind_of_node_.empty() ? 0 : static_cast<std::size_t>(kind_of_node_[static_cast<std::size_t>(node)])];
  }
  /// Appends the PE's path inside its node's tree (below the node's root);
  /// false, appending nothing, where the node has no tree path.
  bool append_path_in_node(PE pe, NodeId node, std::vector<std::int64_t>& path) const;
  /// The PE's index inside its node.
  [[nodiscard]] PE local(PE pe, NodeId node) const {
    return first_pe_.empty() ? pe - node * per_node_ : pe - first_pe_[static_cast<std::size_t>(node)];
  }
  /// Edges from a PE up to its node's root (a GPU's: out through its NIC).
  [[nodiscard]] Distance depth(const NodeModel& model, PE local) const;

  std::shared_ptr<const routing::Network> network_;
  std::vector<NodeModel> models_;
  std::vector<std::int32_t> kind_of_node_;
  std::vector<std::string> hosts_;
  /// Nodes of one kind: PEs per node; of several: each node's first PE
  /// (and the total last).
  PE per_node_ = 1;
  std::vector<PE> first_pe_;
  PE size_ = 0;
  Distance max_distance_ = 0;
  Distance node_depth_ = 0;  ///< depth of every PE in its node (uniform trees), for the routes' base hops
  std::optional<Distance> uniform_;
  bool network_is_tree_ = false;  ///< the network gives tree paths (fat trees, switch trees)
  bool network_tree_ = false;     ///< that, and every kind of node has a tree view
};

}  // namespace tmap::topo
