// Up-down routing on trees given by the machine's tree view (a virtual
// call: routing needs nothing of the topology module's code).
#include <algorithm>
#include <limits>
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
  // Machines list their PEs in path order, where a vertex is new exactly
  // when the path differs from the previous PE's at or above it: no table
  // (a hash table of every vertex took 0.25 s per model at a million PEs).
  // The table is built only from the first PE out of order.
  std::unordered_map<std::pair<std::int64_t, std::int64_t>, std::int64_t, KeyHash> ids;
  bool in_order = true;
  std::vector<std::int64_t> previous;
  if (topology.size() * (depth_ + 1) > std::numeric_limits<std::int32_t>::max()) {
    throw InputError("routing: a tree of more than 2^31 - 1 vertices");
  }
  path_.reserve(static_cast<std::size_t>(topology.size() * depth_));
  for (PE pe = 0; pe < topology.size(); ++pe) {
    if (!path_in_tree(topology, pe, path) || static_cast<std::int64_t>(path.size()) != depth_) {
      throw InputError("routing: the tree's leaves are not all at one depth");
    }
    if (in_order && pe > 0 &&
        !std::lexicographical_compare(previous.begin(), previous.end(), path.begin(), path.end())) {
      in_order = false;
      // Every vertex so far into the table, as the loop below puts them.
      std::vector<std::int64_t> earlier;
      for (PE q = 0; q < pe; ++q) {
        std::int64_t parent = 0;
        (void)path_in_tree(topology, q, earlier);
        for (std::int64_t k = 0; k < depth_; ++k) {
          const auto vertex = path_[static_cast<std::size_t>(q * depth_ + k)];
          ids.try_emplace({parent, earlier[static_cast<std::size_t>(k)]}, vertex);
          parent = vertex;
        }
      }
    }
    std::int64_t parent = 0;
    bool same_so_far = pe > 0;
    for (std::int64_t k = 0; k < depth_; ++k) {
      const auto branch = path[static_cast<std::size_t>(k)];
      std::int64_t vertex = 0;
      if (in_order) {
        same_so_far = same_so_far && previous[static_cast<std::size_t>(k)] == branch;
        vertex = same_so_far ? path_[static_cast<std::size_t>((pe - 1) * depth_ + k)]
                             : static_cast<std::int64_t>(depth_of_.size());
      } else {
        vertex = ids.try_emplace({parent, branch}, static_cast<std::int64_t>(depth_of_.size())).first->second;
      }
      if (vertex == static_cast<std::int64_t>(depth_of_.size())) {
        depth_of_.push_back(static_cast<std::int32_t>(k + 1));
        parent_.push_back(static_cast<std::int32_t>(parent));
      }
      parent = vertex;
      path_.push_back(static_cast<std::int32_t>(parent));
    }
    previous = path;
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
