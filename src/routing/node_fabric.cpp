#include "routing/node_fabric.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

#include "tmap/error.hpp"

namespace tmap::routing {

std::vector<std::string> fabric_kinds(const Network* network, const std::vector<NodeFabric>& fabrics) {
  std::vector<std::string> kinds = network != nullptr ? network->link_kinds() : std::vector<std::string>{};
  for (const auto& fabric : fabrics) {
    for (const auto& kind : fabric.kinds) {
      if (std::find(kinds.begin(), kinds.end(), kind) == kinds.end()) kinds.push_back(kind);
    }
  }
  return kinds;
}

FabricRouting::FabricRouting(std::shared_ptr<const Network> network, std::vector<std::int64_t> first_pe,
                             std::vector<NodeFabric> fabrics, std::vector<std::int32_t> fabric_of_node,
                             std::vector<Distance> pe_depth)
    : RoutingModel(fabric_kinds(network.get(), fabrics)),
      network_(std::move(network)),
      first_pe_(std::move(first_pe)),
      fabrics_(std::move(fabrics)),
      fabric_of_node_(std::move(fabric_of_node)),
      pe_depth_(std::move(pe_depth)) {
  const auto nodes = static_cast<std::int64_t>(fabric_of_node_.size());
  if (static_cast<std::int64_t>(first_pe_.size()) != nodes + 1 ||
      static_cast<std::int64_t>(pe_depth_.size()) != first_pe_.back()) {
    throw InternalError("a fabric routing needs each node's first PE and each PE's depth");
  }
  link_base_.reserve(static_cast<std::size_t>(nodes) + 1);
  LinkId next = network_links();
  for (const auto f : fabric_of_node_) {
    link_base_.push_back(next);
    if (f >= 0) next += static_cast<LinkId>(fabrics_[static_cast<std::size_t>(f)].link_kind.size());
  }
  link_base_.push_back(next);
  // Where the kinds are: the network's bandwidths, then each fabric's.
  const auto& kinds = link_kinds();
  std::string spec;
  const auto add = [&](const std::string& kind, double bandwidth) {
    if (bandwidth != 1.0) spec += fmt::format("{}{}={}", spec.empty() ? "" : ",", kind, bandwidth);
  };
  if (network_) {
    const auto names = network_->link_kinds();
    const auto bandwidths = network_->kind_bandwidths();
    for (std::size_t k = 0; k < names.size(); ++k) add(names[k], bandwidths[k]);
  }
  // A kind's bandwidth is the first that names it: the network's, else the first fabric's.
  std::vector<bool> set(kinds.size(), false);
  for (std::size_t k = 0; network_ && k < network_->link_kinds().size(); ++k) set[k] = true;
  for (const auto& fabric : fabrics_) {
    auto& index = kind_index_.emplace_back();
    for (std::size_t k = 0; k < fabric.kinds.size(); ++k) {
      const auto at = static_cast<std::size_t>(std::find(kinds.begin(), kinds.end(), fabric.kinds[k]) - kinds.begin());
      index.push_back(static_cast<int>(at));
      if (!set[at]) add(kinds[at], fabric.kind_bandwidths[k]);
      set[at] = true;
    }
  }
  if (!spec.empty()) set_bandwidths(spec);
}

std::int64_t FabricRouting::node_of(PE pe) const {
  return std::upper_bound(first_pe_.begin(), first_pe_.end(), pe) - first_pe_.begin() - 1;
}

std::int64_t FabricRouting::node_of_link(LinkId link) const {
  return std::upper_bound(link_base_.begin(), link_base_.end(), link) - link_base_.begin() - 1;
}

void FabricRouting::route(PE a, PE b, std::vector<LinkId>& links) const {
  if (a == b) return;
  const auto na = node_of(a);
  const auto nb = node_of(b);
  const auto fa = fabric_of_node_[static_cast<std::size_t>(na)];
  const auto fb = fabric_of_node_[static_cast<std::size_t>(nb)];
  const auto local_a = a - first_pe_[static_cast<std::size_t>(na)];
  const auto local_b = b - first_pe_[static_cast<std::size_t>(nb)];
  if (na == nb) {
    if (fa < 0) return;  // a node without links: its memory
    const auto& fabric = fabrics_[static_cast<std::size_t>(fa)];
    for (const auto l : fabric.inside[static_cast<std::size_t>(local_a * fabric.pes + local_b)]) {
      links.push_back(link_base_[static_cast<std::size_t>(na)] + l);
    }
    return;
  }
  if (fa >= 0) {
    for (const auto l : fabrics_[static_cast<std::size_t>(fa)].out[static_cast<std::size_t>(local_a)]) {
      links.push_back(link_base_[static_cast<std::size_t>(na)] + l);
    }
  }
  if (network_) network_->route(na, nb, links);
  if (fb >= 0) {
    // Into the node: its way out, backwards.
    const auto& way = fabrics_[static_cast<std::size_t>(fb)].out[static_cast<std::size_t>(local_b)];
    for (auto k = way.size(); k-- > 0;) links.push_back(link_base_[static_cast<std::size_t>(nb)] + way[k]);
  }
}

Distance FabricRouting::link_hops(LinkId link) const {
  if (link < network_links()) return 1;
  const auto node = node_of_link(link);
  const auto& fabric = fabrics_[static_cast<std::size_t>(fabric_of_node_[static_cast<std::size_t>(node)])];
  return fabric.link_hops[static_cast<std::size_t>(link - link_base_[static_cast<std::size_t>(node)])];
}

std::string FabricRouting::link_name(LinkId link) const {
  if (link < network_links()) return network_->link_name(link);
  const auto node = node_of_link(link);
  const auto& fabric = fabrics_[static_cast<std::size_t>(fabric_of_node_[static_cast<std::size_t>(node)])];
  return fmt::format("node {} {}", node,
                     fabric.link_names[static_cast<std::size_t>(link - link_base_[static_cast<std::size_t>(node)])]);
}

LinkEnds FabricRouting::link_ends(LinkId link) const {
  if (link < network_links()) return network_->link_ends(link);
  return {};  // inside a node: no cable of the network
}

int FabricRouting::link_kind(LinkId link) const {
  if (link < network_links()) return network_->link_kind(link);
  const auto node = node_of_link(link);
  const auto f = static_cast<std::size_t>(fabric_of_node_[static_cast<std::size_t>(node)]);
  const auto local = static_cast<std::size_t>(link - link_base_[static_cast<std::size_t>(node)]);
  return kind_index_[f][static_cast<std::size_t>(fabrics_[f].link_kind[local])];
}

}  // namespace tmap::routing
