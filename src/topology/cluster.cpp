#include "topology/cluster.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

#include "tmap/error.hpp"
#include "topology/deco.hpp"

namespace tmap::topo {

namespace {

/// Nodes whose every pair of PEs is checked for a uniform distance: a
/// node of more PEs is taken as not uniform (a tree of that size has levels).
constexpr PE kMostCheckedPerNode = 512;

}  // namespace

ClusterTopology::ClusterTopology(std::shared_ptr<const routing::Network> network, std::unique_ptr<Topology> node,
                                 std::string node_text, std::vector<std::string> hosts)
    : network_(std::move(network)), node_(std::move(node)), node_text_(std::move(node_text)), hosts_(std::move(hosts)) {
  per_node_ = node_ ? node_->size() : 1;
  if (per_node_ < 1) throw InputError("the node has no PE");
  if (network_->num_nodes() > kMaxPEs / per_node_) {
    throw InputError(fmt::format("the cluster has {} nodes of {} PEs: more than tmap's {} PEs", network_->num_nodes(),
                                 per_node_, kMaxPEs));
  }
  size_ = network_->num_nodes() * per_node_;
  if (!hosts_.empty() && static_cast<NodeId>(hosts_.size()) != network_->num_nodes()) {
    throw InputError(
        fmt::format("host-names: {} names for the {} nodes of the machine", hosts_.size(), network_->num_nodes()));
  }
  Distance deepest = 0;
  bool same_depth = true;
  for (PE p = 0; p < per_node_; ++p) {
    const auto d = depth(p);
    same_depth = same_depth && (p == 0 || d == deepest);
    deepest = std::max(deepest, d);
  }
  node_depth_ = same_depth ? deepest : 0;
  max_distance_ = std::max(node_ ? node_->max_distance() : Distance{0},
                           network_->num_nodes() > 1 ? 2 * deepest + network_->max_hops() : Distance{0});
  if (per_node_ == 1) {
    uniform_ = Distance{0};
  } else if (per_node_ <= kMostCheckedPerNode) {
    const auto first = node_->distance(0, 1);
    bool all = true;
    for (PE a = 0; a < per_node_ && all; ++a) {
      for (PE b = a + 1; b < per_node_ && all; ++b) all = node_->distance(a, b) == first;
    }
    if (all) uniform_ = first;
  }
}

// hwloc's paths start at the node's root (the Machine object): the edges
// from a PU up to it are the path's length less one.
Distance ClusterTopology::depth(PE local) const {
  if (!node_) return 0;
  std::vector<std::int64_t> path;
  return node_->tree_path(local, path) && !path.empty() ? static_cast<Distance>(path.size()) - 1 : 0;
}

Distance ClusterTopology::distance(PE a, PE b) const {
  if (a == b) return 0;
  const auto na = a / per_node_;
  const auto nb = b / per_node_;
  const auto la = a % per_node_;
  const auto lb = b % per_node_;
  if (na == nb) return node_->distance(la, lb);
  return depth(la) + depth(lb) + network_->hops(na, nb);
}

std::string ClusterTopology::host_name(NodeId node) const {
  if (!hosts_.empty()) return hosts_[static_cast<std::size_t>(node)];
  return "cn" + std::to_string(node);
}

std::int64_t ClusterTopology::slot_in_node(PE pe) const {
  return node_ ? node_->slot_in_node(pe % per_node_) : 0;
}

std::int64_t ClusterTopology::pu_in_node(PE pe) const {
  return node_ ? node_->pu_in_node(pe % per_node_) : 0;
}

bool ClusterTopology::tree_path(PE pe, std::vector<std::int64_t>& path) const {
  const auto node = pe / per_node_;
  if (!network_->tree_path(node, path)) return false;
  if (node_) {
    std::vector<std::int64_t> inside;
    if (!node_->tree_path(pe % per_node_, inside) || inside.empty()) return false;
    path.insert(path.end(), inside.begin() + 1, inside.end());  // the node's root is the network's leaf here
  }
  return true;
}

std::unique_ptr<RoutingModel> ClusterTopology::routing_model() const {
  return std::make_unique<routing::NetworkRouting>(network_, per_node_, 2 * node_depth_);
}

std::string ClusterTopology::description() const {
  const auto node = node_text_ == "this" ? " of nodes like this one (" + std::to_string(per_node_) + " PUs, hwloc)"
                                         : " of nodes '" + node_text_ + "'";
  return network_->spec() + (node_ ? node : std::string()) +
         (hosts_.empty() ? std::string() : " named " + hosts_.front() + ".." + hosts_.back());
}

std::string ClusterTopology::to_tgt() const {
  std::vector<std::int64_t> order(static_cast<std::size_t>(size_));
  for (PE p = 0; p < size_; ++p) order[static_cast<std::size_t>(p)] = p;
  return format_deco0(order, std::vector<std::int64_t>(order.size(), 1),
                      [&](std::int64_t a, std::int64_t b) { return distance(a, b); });
}

}  // namespace tmap::topo
