// Routes of a cluster whose nodes have links of their own (a GPU node's
// NVLinks or xGMI links, PCIe links and NICs): a message between two PEs of
// one node crosses its node's links, one between two nodes leaves the first
// through its way out, crosses the network and enters the second. The
// machine (topology/gpu/) says what a node's links are; this layer only
// routes over them, so that link loads, --simulate, --objective time and
// tm-sim see them as they see the network's cables.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "routing/network.hpp"
#include "tmap/routing.hpp"

namespace tmap::routing {

/// The links inside one kind of node, numbered 0.. within the node.
struct NodeFabric {
  /// Bandwidth classes ("nvlink12", "pcie", "nic") and their bandwidths
  /// relative to one network cable.
  std::vector<std::string> kinds;
  std::vector<double> kind_bandwidths;
  /// Per link: its class, the hops it counts (so that a route's hops are the
  /// machine's distance) and its name ("GPU0-GPU1").
  std::vector<int> link_kind;
  std::vector<Distance> link_hops;
  std::vector<std::string> link_names;
  /// The node's PEs; inside[a * pes + b]: the links from PE a to PE b of the
  /// node, in order; out[a]: the links from PE a to the network, in order
  /// (a message into the node takes them backwards).
  PE pes = 0;
  std::vector<std::vector<LinkId>> inside;
  std::vector<std::vector<LinkId>> out;
};

class FabricRouting final : public RoutingModel {
 public:
  /// `network` (null: a machine of one node); `first_pe`: each node's first
  /// PE, then the total; `fabric_of_node`: each node's fabric (an index into
  /// `fabrics`), -1 for a node without one, whose PEs take no link among
  /// themselves and count `pe_depth` hops up to the node (as NetworkRouting).
  FabricRouting(std::shared_ptr<const Network> network, std::vector<std::int64_t> first_pe,
                std::vector<NodeFabric> fabrics, std::vector<std::int32_t> fabric_of_node,
                std::vector<Distance> pe_depth);

  [[nodiscard]] LinkId num_links() const override { return link_base_.back(); }
  void route(PE a, PE b, std::vector<LinkId>& links) const override;
  [[nodiscard]] Distance link_hops(LinkId link) const override;
  [[nodiscard]] Distance source_hops(PE pe) const override { return pe_depth_[static_cast<std::size_t>(pe)]; }
  [[nodiscard]] Distance destination_hops(PE pe) const override { return pe_depth_[static_cast<std::size_t>(pe)]; }
  [[nodiscard]] std::string link_name(LinkId link) const override;
  [[nodiscard]] LinkEnds link_ends(LinkId link) const override;
  [[nodiscard]] int link_kind(LinkId link) const override;

 private:
  [[nodiscard]] std::int64_t node_of(PE pe) const;
  /// The node whose fabric holds `link` (a link past the network's).
  [[nodiscard]] std::int64_t node_of_link(LinkId link) const;
  [[nodiscard]] LinkId network_links() const noexcept { return network_ ? network_->num_links() : 0; }

  std::shared_ptr<const Network> network_;
  std::vector<std::int64_t> first_pe_;
  std::vector<NodeFabric> fabrics_;
  std::vector<std::int32_t> fabric_of_node_;
  std::vector<Distance> pe_depth_;
  /// Each node's first link id (after the network's), then the total.
  std::vector<LinkId> link_base_;
  /// Per fabric: its kinds' indices among the model's kinds.
  std::vector<std::vector<int>> kind_index_;
};

/// The model's kinds: the network's, then each fabric's not named yet.
[[nodiscard]] std::vector<std::string> fabric_kinds(const Network* network, const std::vector<NodeFabric>& fabrics);

}  // namespace tmap::routing
