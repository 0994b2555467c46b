// The network between a cluster's compute nodes (a fat tree, a dragonfly):
// how many cables a message crosses between two nodes, which ones, and
// what they are called. A cluster (topology/cluster.hpp) puts a node's PEs
// on each of its nodes; NetworkRouting gives its routes to the link metrics.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "tmap/routing.hpp"

namespace tmap::routing {

class Network {
 public:
  virtual ~Network() = default;
  [[nodiscard]] virtual std::int64_t num_nodes() const = 0;
  /// Cables between two nodes on their route (0 when a == b).
  [[nodiscard]] virtual std::int64_t hops(std::int64_t a, std::int64_t b) const = 0;
  /// The most cables between two nodes.
  [[nodiscard]] virtual std::int64_t max_hops() const = 0;
  /// Appends the cables of the route from node a to node b, in order.
  virtual void route(std::int64_t a, std::int64_t b, std::vector<LinkId>& links) const = 0;
  [[nodiscard]] virtual LinkId num_links() const = 0;
  [[nodiscard]] virtual std::string link_name(LinkId link) const = 0;
  /// The cable's class (its index in link_kinds()): a bandwidth class.
  [[nodiscard]] virtual int link_kind(LinkId link) const = 0;
  [[nodiscard]] virtual std::vector<std::string> link_kinds() const = 0;
  /// Each kind's bandwidth relative to one cable (a link standing for k
  /// parallel cables: k); --link-bw and --sim-bw set them absolutely.
  [[nodiscard]] virtual std::vector<double> kind_bandwidths() const {
    return std::vector<double>(link_kinds().size(), 1.0);
  }
  /// The kind's name ("fattree") and the spec that builds it again.
  [[nodiscard]] virtual std::string kind() const = 0;
  [[nodiscard]] virtual std::string spec() const = 0;
  /// Where hops are a tree's distance (fat trees): the branch taken at each
  /// level from the top down, every level one edge on each side. False
  /// otherwise.
  [[nodiscard]] virtual bool tree_path(std::int64_t /*node*/, std::vector<std::int64_t>& /*path*/) const {
    return false;
  }
  /// A cable's two ends, the lower one first (a node below its switch):
  /// a node by its index, a switch or router by its name. What a picture of
  /// the network draws (tm-topo --describe).
  [[nodiscard]] virtual LinkEnds link_ends(LinkId link) const = 0;
  /// Parts no cable joins (a Slurm switch tree whose leaf switches have no
  /// common parent): the part a node is in; 0 where the network is whole.
  [[nodiscard]] virtual std::int64_t part_of(std::int64_t /*node*/) const { return 0; }
  /// Why nodes a and b of different parts cannot be in one job, naming
  /// what separates them; empty when they are in one part.
  [[nodiscard]] virtual std::string why_apart(std::int64_t /*a*/, std::int64_t /*b*/) const { return {}; }
};

/// Routes of a cluster on a network: a PE's node is pe / pes_per_node (or,
/// for nodes of several sizes, the last node whose first PE is at most pe);
/// PEs of one node take no cable. Every route also counts `node_hops` (the
/// edges from a PE up to its node and back down on the other side; 0 where
/// PEs sit at different depths) so that its hops equal the cluster's
/// distance where they can.
class NetworkRouting final : public RoutingModel {
 public:
  NetworkRouting(std::shared_ptr<const Network> network, std::int64_t pes_per_node, Distance node_hops);
  /// `first_pe`: each node's first PE, then the total (empty: nodes of
  /// `pes_per_node`); `pe_depth`: each PE's edges up to its node, where
  /// they differ (a route then counts its two ends' depths).
  NetworkRouting(std::shared_ptr<const Network> network, std::int64_t pes_per_node, std::vector<std::int64_t> first_pe,
                 std::vector<Distance> pe_depth);
  [[nodiscard]] LinkId num_links() const override { return network_->num_links(); }
  void route(PE a, PE b, std::vector<LinkId>& links) const override { network_->route(node_of(a), node_of(b), links); }
  [[nodiscard]] Distance base_hops() const override { return node_hops_; }
  [[nodiscard]] Distance source_hops(PE pe) const override {
    return pe_depth_.empty() ? node_hops_ : pe_depth_[static_cast<std::size_t>(pe)];
  }
  [[nodiscard]] Distance destination_hops(PE pe) const override {
    return pe_depth_.empty() ? 0 : pe_depth_[static_cast<std::size_t>(pe)];
  }
  [[nodiscard]] std::string link_name(LinkId link) const override { return network_->link_name(link); }
  [[nodiscard]] LinkEnds link_ends(LinkId link) const override { return network_->link_ends(link); }
  [[nodiscard]] int link_kind(LinkId link) const override { return network_->link_kind(link); }
  [[nodiscard]] const Network& network() const noexcept { return *network_; }

 private:
  [[nodiscard]] std::int64_t node_of(PE pe) const {
    if (first_pe_.empty()) return pe / pes_per_node_;
    return std::upper_bound(first_pe_.begin(), first_pe_.end(), pe) - first_pe_.begin() - 1;
  }

  std::shared_ptr<const Network> network_;
  std::int64_t pes_per_node_ = 1;
  std::vector<std::int64_t> first_pe_;
  Distance node_hops_;
  std::vector<Distance> pe_depth_;
};

}  // namespace tmap::routing
