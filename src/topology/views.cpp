// The free functions of tmap/topology_views.hpp: a capability's answer, or
// "none" where the machine lacks it.
#include "routing/models.hpp"
#include "tmap/routing.hpp"
#include "tmap/topology_views.hpp"

namespace tmap {

namespace {

/// Larger graphs are refused before they are built (2^27 edges take
/// gigabytes as compressed rows).
constexpr std::int64_t kMaxGraphEdges = std::int64_t{1} << 27;

}  // namespace

bool tree_path(const Topology& topology, PE pe, std::vector<std::int64_t>& path) {
  const auto* view = topology.find<TreeView>();
  if (view == nullptr) return false;
  view->tree_path(pe, path);
  return true;
}

bool group_path(const Topology& topology, PE pe, std::vector<std::int64_t>& path) {
  if (tree_path(topology, pe, path)) return true;
  const auto* view = topology.find<NodeGroupsView>();
  if (view == nullptr) return false;
  view->group_path(pe, path);
  return true;
}

bool grid_coordinates(const Topology& topology, PE pe, std::vector<std::int64_t>& coordinates) {
  const auto* view = topology.find<GridView>();
  if (view == nullptr) return false;
  view->grid_coordinates(pe, coordinates);
  return true;
}

bool grid_extent(const Topology& topology, std::vector<std::int64_t>& extent, bool& wraps) {
  const auto* view = topology.find<GridView>();
  if (view == nullptr) return false;
  view->grid_extent(extent, wraps);
  return true;
}

std::optional<DistanceGraph> distance_graph(const Topology& topology) {
  const auto* view = topology.find<GraphView>();
  if (view == nullptr || view->graph_edges() > kMaxGraphEdges) return std::nullopt;
  return view->distance_graph();
}

// The default for kinds without links of their own: up-down routes on
// tree-shaped machines (tleaf, ltleaf, hwloc), none otherwise. Kinds with
// links override Topology::routing_model.
std::unique_ptr<RoutingModel> Topology::routing_model() const {
  if (size() > 0 && find<TreeView>() != nullptr) return std::make_unique<routing::TreeRouting>(*this);
  return nullptr;
}

std::int64_t Topology::top_group(PE pe) const {
  std::vector<std::int64_t> path;
  if (tree_path(*this, pe, path) && !path.empty()) return path.front();
  return node_of(pe);
}

}  // namespace tmap
