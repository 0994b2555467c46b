// A cluster: compute nodes on a network, each node a tree of its own (an
// hwloc description: packages, caches, cores, PUs). PEs are numbered node
// by node in host order, inside a node in hwloc's logical order.
//
// The distance of two PEs is the number of edges between them in the whole
// machine's graph: inside a node, hwloc's tree edges through their lowest
// common ancestor; across nodes, each PE's edges up to its node, plus the
// network cables between the two nodes (a fat tree: 2 per switch level
// climbed). So two cores of a socket < two sockets of a node < two nodes
// under one leaf switch < across the spine, as the machine orders them.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "routing/network.hpp"
#include "tmap/topology.hpp"

namespace tmap::topo {

class ClusterTopology final : public Topology {
 public:
  /// `node`: one node's topology (every node alike), or nullptr for nodes of
  /// one PE; `node_text`: how it was given, for the description; `hosts`:
  /// the nodes' host names in node order (empty: cn<node>).
  ClusterTopology(std::shared_ptr<const routing::Network> network, std::unique_ptr<Topology> node,
                  std::string node_text, std::vector<std::string> hosts);

  [[nodiscard]] PE size() const override { return size_; }
  [[nodiscard]] Distance distance(PE a, PE b) const override;
  [[nodiscard]] Distance max_distance() const override { return max_distance_; }
  [[nodiscard]] NodeId num_nodes() const override { return network_->num_nodes(); }
  [[nodiscard]] NodeId node_of(PE pe) const override { return pe / per_node_; }
  [[nodiscard]] std::optional<Distance> node_uniform_distance() const override { return uniform_; }
  [[nodiscard]] std::string host_name(NodeId node) const override;
  [[nodiscard]] std::int64_t slot_in_node(PE pe) const override;
  [[nodiscard]] std::int64_t pu_in_node(PE pe) const override;
  /// Where the network is a tree (fat trees): its branches from the top
  /// down, then the node's own path: the distance is this tree's.
  [[nodiscard]] bool tree_path(PE pe, std::vector<std::int64_t>& path) const override;
  [[nodiscard]] std::unique_ptr<RoutingModel> routing_model() const override;
  [[nodiscard]] std::string kind() const override { return network_->kind(); }
  [[nodiscard]] std::string description() const override;
  /// deco 0 of the exact distances (Scotch has no such network of its own).
  [[nodiscard]] std::string to_tgt() const override;

  [[nodiscard]] const routing::Network& network() const noexcept { return *network_; }

 private:
  /// Edges from a PE up to its node's root.
  [[nodiscard]] Distance depth(PE local) const;

  std::shared_ptr<const routing::Network> network_;
  std::unique_ptr<Topology> node_;
  std::string node_text_;
  std::vector<std::string> hosts_;
  PE per_node_ = 1;
  PE size_ = 0;
  Distance max_distance_ = 0;
  Distance node_depth_ = 0;  ///< depth of every PE in its node (uniform trees), for the routes' base hops
  std::optional<Distance> uniform_;
};

}  // namespace tmap::topo
