// Up-down routing on trees given by the machine's tree view (a virtual
// call: routing needs nothing of the topology module's code).
#include <map>
#include <string>
#include <unordered_map>

#include "routing/models.hpp"
#include "tmap/error.hpp"
#include "tmap/topology_views.hpp"

namespace tmap::routing {

namespace {

/// The tree path of `pe`, false where the machine is no tree.
bool path_in_tree(const Topology& topology, PE pe, std::vector<std::int64_t>& path) {
  const auto* view = topology.find<TreeView>();
  if (view == nullptr) return false;
  view->tree_path(pe, path);
  return true;
}

std::vector<std::string> level_kinds(const Topology& topology) {
  std::vector<std::int64_t> path;
  if (topology.size() == 0 || !path_in_tree(topology, 0, path)) {
    throw InternalError("tree routing needs a tree-shaped topology");
  }
  std::vector<std::string> kinds;
  for (std::size_t k = 1; k <= path.size(); ++k) kinds.push_back("level" + std::to_string(k));
  return kinds;
}

struct KeyHash {
  std::size_t operator()(const std::pair<std::int64_t, std::int64_t>& key) const noexcept {
    return std::hash<std::int64_t>{}(key.first * 1000003 + key.second);
  }
};

}  // namespace

TreeRouting::TreeRouting(const Topology& topology) : RoutingModel(level_kinds(topology)) {
  std::vector<std::int64_t> path;
  (void)path_in_tree(topology, 0, path);
  depth_ = static_cast<std::int64_t>(path.size());
  depth_of_ = {0};
  parent_ = {-1};
  // Vertex ids in order of first appearance; a vertex is (parent, branch).
  std::unordered_map<std::pair<std::int64_t, std::int64_t>, std::int64_t, KeyHash> ids;
  path_.reserve(static_cast<std::size_t>(topology.size() * depth_));
  for (PE pe = 0; pe < topology.size(); ++pe) {
    if (!path_in_tree(topology, pe, path) || static_cast<std::int64_t>(path.size()) != depth_) {
      throw InputError("routing: the tree's leaves are not all at one depth");
    }
    std::int64_t parent = 0;
    for (std::int64_t k = 0; k < depth_; ++k) {
      auto [it, fresh] =
          ids.try_emplace({parent, path[static_cast<std::size_t>(k)]}, static_cast<std::int64_t>(depth_of_.size()));
      if (fresh) {
        depth_of_.push_back(k + 1);
        parent_.push_back(parent);
      }
      parent = it->second;
      path_.push_back(parent);
    }
  }
}

void TreeRouting::route(PE a, PE b, std::vector<LinkId>& links) const {
  if (a == b) return;
  const auto* pa = path_.data() + a * depth_;
  const auto* pb = path_.data() + b * depth_;
  std::int64_t split = 0;  // first depth (0-based into the paths) where they differ
  while (split < depth_ && pa[split] == pb[split]) ++split;
  for (std::int64_t k = depth_ - 1; k >= split; --k) links.push_back(pa[k] - 1);
  for (std::int64_t k = split; k < depth_; ++k) links.push_back(pb[k] - 1);
}

std::string TreeRouting::link_name(LinkId link) const {
  const auto vertex = link + 1;
  return "v" + std::to_string(vertex) + "-v" + std::to_string(parent_[static_cast<std::size_t>(vertex)]);
}

}  // namespace tmap::routing
