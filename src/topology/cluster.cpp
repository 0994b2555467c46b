#include "topology/cluster.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

#include "routing/node_fabric.hpp"
#include "tmap/error.hpp"
#include "tmap/host_layout.hpp"
#include "tmap/topology_views.hpp"
#include "topology/gpu/gpu_node.hpp"

namespace tmap::topo {

namespace {

/// Nodes whose every pair of PEs is checked for a uniform distance: a
/// node of more PEs is taken as not uniform (a tree of that size has levels).
constexpr PE kMostCheckedPerNode = 512;

}  // namespace

ClusterTopology::ClusterTopology(std::shared_ptr<const routing::Network> network, std::vector<NodeModel> models,
                                 std::vector<std::int32_t> kind_of_node, std::vector<std::string> hosts)
    : network_(std::move(network)),
      models_(std::move(models)),
      kind_of_node_(std::move(kind_of_node)),
      hosts_(std::move(hosts)) {
  const auto nodes = network_->num_nodes();
  if (models_.empty()) throw InternalError("a cluster needs a kind of node");
  if (!hosts_.empty() && static_cast<NodeId>(hosts_.size()) != nodes) {
    throw InputError(fmt::format("host-names: {} names for the {} nodes of the machine", hosts_.size(), nodes));
  }
  if (!kind_of_node_.empty() && static_cast<NodeId>(kind_of_node_.size()) != nodes) {
    throw InternalError("a cluster needs one kind per node");
  }
  const auto pes_of = [](const NodeModel& m) { return m.tree ? m.tree->size() : PE{1}; };
  for (const auto& m : models_) {
    if (pes_of(m) < 1) throw InputError("the node has no PE");
  }
  // One kind in use: PEs per node; several: each node's first PE.
  const bool mixed = std::any_of(kind_of_node_.begin(), kind_of_node_.end(),
                                 [&](std::int32_t k) { return k != kind_of_node_.front(); });
  if (!mixed && !kind_of_node_.empty()) {
    std::swap(models_.front(), models_[static_cast<std::size_t>(kind_of_node_.front())]);
    models_.resize(1);
    kind_of_node_.clear();
  }
  if (!mixed) {
    per_node_ = pes_of(models_.front());
    if (nodes > kMaxPEs / per_node_) {
      throw InputError(
          fmt::format("the cluster has {} nodes of {} PEs: more than tmap's {} PEs", nodes, per_node_, kMaxPEs));
    }
    size_ = nodes * per_node_;
  } else {
    first_pe_.reserve(static_cast<std::size_t>(nodes) + 1);
    for (NodeId n = 0; n < nodes; ++n) {
      first_pe_.push_back(size_);
      size_ += pes_of(model_of(n));
      if (size_ > kMaxPEs) throw InputError(fmt::format("the cluster has more than tmap's {} PEs", kMaxPEs));
    }
    first_pe_.push_back(size_);
  }
  // Depths, the largest distance and uniform nodes, kind by kind (of the
  // kinds in use).
  std::vector<bool> used(models_.size(), kind_of_node_.empty());
  for (const auto k : kind_of_node_) used[static_cast<std::size_t>(k)] = true;
  Distance deepest = 0;
  bool same_depth = true;
  bool first = true;
  Distance inside = 0;
  for (std::size_t k = 0; k < models_.size(); ++k) {
    if (!used[k]) continue;
    const auto& m = models_[k];
    const PE pes = pes_of(m);
    for (PE p = 0; p < pes; ++p) {
      const auto d = depth(m, p);
      same_depth = same_depth && (first || d == deepest);
      deepest = std::max(deepest, d);
      first = false;
    }
    inside = std::max(inside, m.tree ? m.tree->max_distance() : Distance{0});
  }
  node_depth_ = same_depth ? deepest : 0;
  std::vector<std::int64_t> path;
  network_is_tree_ = network_->tree_path(0, path);
  network_tree_ = network_is_tree_ && std::all_of(models_.begin(), models_.end(), [](const NodeModel& m) {
                    return !m.tree || m.tree->find<TreeView>() != nullptr;
                  });
  max_distance_ = std::max(inside, nodes > 1 ? 2 * deepest + network_->max_hops() : Distance{0});
  if (mixed) return;  // nodes of different kinds are not alike
  const auto& node = models_.front();
  if (per_node_ == 1) {
    uniform_ = Distance{0};
  } else if (per_node_ <= kMostCheckedPerNode && same_depth) {
    const auto distance_in = node.tree->distance(0, 1);
    bool all = true;
    for (PE a = 0; a < per_node_ && all; ++a) {
      for (PE b = a + 1; b < per_node_ && all; ++b) all = node.tree->distance(a, b) == distance_in;
    }
    if (all) uniform_ = distance_in;
  }
}

NodeId ClusterTopology::node_of(PE pe) const {
  if (first_pe_.empty()) return pe / per_node_;
  return static_cast<NodeId>(std::upper_bound(first_pe_.begin(), first_pe_.end(), pe) - first_pe_.begin()) - 1;
}

// hwloc's paths start at the node's root (the Machine object): the edges
// from a PU up to it are the path's length less one.
Distance ClusterTopology::depth(const NodeModel& model, PE local) const {
  if (!model.tree) return 0;
  if (const auto* gpus = dynamic_cast<const GpuNodeTopology*>(model.tree.get())) return gpus->exit_distance(local);
  std::vector<std::int64_t> path;
  return tmap::tree_path(*model.tree, local, path) && !path.empty() ? static_cast<Distance>(path.size()) - 1 : 0;
}

Distance ClusterTopology::distance(PE a, PE b) const {
  if (a == b) return 0;
  const auto na = node_of(a);
  const auto nb = node_of(b);
  const auto& ma = model_of(na);
  if (na == nb) return ma.tree->distance(local(a, na), local(b, na));
  return depth(ma, local(a, na)) + depth(model_of(nb), local(b, nb)) + network_->hops(na, nb);
}

std::string ClusterTopology::why_apart(PE a, PE b) const {
  const auto why = network_->why_apart(node_of(a), node_of(b));
  if (why.empty()) return {};
  return fmt::format("hosts {} and {} cannot be in one job: {}; map a job inside one part (give --alloc)",
                     host_name(node_of(a)), host_name(node_of(b)), why);
}

std::string ClusterTopology::host_name(NodeId node) const {
  if (!hosts_.empty()) return hosts_[static_cast<std::size_t>(node)];
  return "cn" + std::to_string(node);
}

std::int64_t ClusterTopology::slot_in_node(PE pe) const {
  const auto node = node_of(pe);
  const auto& m = model_of(node);
  return m.tree ? tmap::slot_in_node(*m.tree, local(pe, node)) : 0;
}

std::int64_t ClusterTopology::pu_in_node(PE pe) const {
  const auto node = node_of(pe);
  const auto& m = model_of(node);
  return m.tree ? tmap::pu_in_node(*m.tree, local(pe, node)) : 0;
}

std::optional<DeviceSlot> ClusterTopology::device_slot(PE pe) const {
  const auto node = node_of(pe);
  const auto& m = model_of(node);
  return m.tree ? tmap::device_slot(*m.tree, local(pe, node)) : std::nullopt;
}

bool ClusterTopology::append_path_in_node(PE pe, NodeId node, std::vector<std::int64_t>& path) const {
  const auto& m = model_of(node);
  if (!m.tree) return false;
  std::vector<std::int64_t> inside;
  if (!tmap::tree_path(*m.tree, local(pe, node), inside) || inside.empty()) return false;
  path.insert(path.end(), inside.begin() + 1, inside.end());  // the node's root is the network's leaf here
  return true;
}

// TreeView is found only where the network is a tree and every node has
// a tree view, so both paths exist.
void ClusterTopology::tree_path(PE pe, std::vector<std::int64_t>& path) const {
  const auto node = node_of(pe);
  (void)network_->tree_path(node, path);
  (void)append_path_in_node(pe, node, path);
}

void ClusterTopology::group_path(PE pe, std::vector<std::int64_t>& path) const {
  const auto node = node_of(pe);
  (void)network_->tree_path(node, path);
  // A node with a tree of its own (CPU nodes beside GPU nodes) by its
  // levels; a GPU node one flat level.
  if (!append_path_in_node(pe, node, path)) path.push_back(local(pe, node));
}

std::unique_ptr<RoutingModel> ClusterTopology::routing_model() const {
  // Nodes with links of their own (GPU nodes): their routes cross them.
  std::vector<routing::NodeFabric> fabrics;
  std::vector<std::int32_t> fabric_of_model(models_.size(), -1);
  for (std::size_t k = 0; k < models_.size(); ++k) {
    if (const auto* gpus = dynamic_cast<const GpuNodeTopology*>(models_[k].tree.get())) {
      fabric_of_model[k] = static_cast<std::int32_t>(fabrics.size());
      fabrics.push_back(fabric_of(gpus->model()));
    }
  }
  if (!fabrics.empty()) {
    const auto nodes = num_nodes();
    std::vector<std::int64_t> first(static_cast<std::size_t>(nodes) + 1);
    std::vector<std::int32_t> fabric_of_node(static_cast<std::size_t>(nodes));
    std::vector<Distance> pe_depth(static_cast<std::size_t>(size_));
    for (NodeId node = 0; node < nodes; ++node) {
      first[static_cast<std::size_t>(node)] =
          first_pe_.empty() ? node * per_node_ : first_pe_[static_cast<std::size_t>(node)];
      const auto kind = kind_of_node_.empty() ? 0 : kind_of_node_[static_cast<std::size_t>(node)];
      fabric_of_node[static_cast<std::size_t>(node)] = fabric_of_model[static_cast<std::size_t>(kind)];
    }
    first.back() = size_;
    for (PE pe = 0; pe < size_; ++pe) {
      const auto node = node_of(pe);
      const bool gpu = fabric_of_node[static_cast<std::size_t>(node)] >= 0;
      pe_depth[static_cast<std::size_t>(pe)] = gpu ? 0 : depth(model_of(node), local(pe, node));
    }
    return std::make_unique<routing::FabricRouting>(network_, std::move(first), std::move(fabrics),
                                                    std::move(fabric_of_node), std::move(pe_depth));
  }
  if (node_depth_ > 0 || std::all_of(models_.begin(), models_.end(), [](const NodeModel& m) { return !m.tree; })) {
    if (first_pe_.empty()) return std::make_unique<routing::NetworkRouting>(network_, per_node_, 2 * node_depth_);
    return std::make_unique<routing::NetworkRouting>(
        network_, per_node_, first_pe_, std::vector<Distance>(static_cast<std::size_t>(size_), node_depth_));
  }
  // PEs at different depths (kinds of node, asymmetric trees): each its own.
  std::vector<Distance> pe_depth(static_cast<std::size_t>(size_));
  for (PE pe = 0; pe < size_; ++pe) {
    const auto node = node_of(pe);
    pe_depth[static_cast<std::size_t>(pe)] = depth(model_of(node), local(pe, node));
  }
  return std::make_unique<routing::NetworkRouting>(network_, per_node_, first_pe_, std::move(pe_depth));
}

std::string ClusterTopology::description() const {
  const auto node_text = [](const NodeModel& m) {
    return m.text == "this" ? "like this one (" + std::to_string(m.tree->size()) + " PUs, hwloc)" : "'" + m.text + "'";
  };
  std::string nodes;
  if (kind_of_node_.empty()) {
    if (models_.front().tree) nodes = " of nodes " + node_text(models_.front());
  } else {
    nodes = " of nodes";
    const char* separator = " ";
    for (std::size_t k = 0; k < models_.size(); ++k) {
      const auto count = std::count(kind_of_node_.begin(), kind_of_node_.end(), static_cast<std::int32_t>(k));
      if (count == 0) continue;
      nodes += fmt::format("{}{} x {}", separator, count, models_[k].tree ? node_text(models_[k]) : "1 PE");
      separator = ", ";
    }
  }
  return network_->spec() + nodes +
         (hosts_.empty() ? std::string() : " named " + hosts_.front() + ".." + hosts_.back());
}

}  // namespace tmap::topo
