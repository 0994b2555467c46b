#include "topology/subset.hpp"

#include <algorithm>
#include <map>

#include "routing/models.hpp"
#include "tmap/error.hpp"
#include "tmap/host_layout.hpp"
#include "tmap/scotch_export.hpp"

namespace tmap::topo {

SubTopology::SubTopology(std::unique_ptr<Topology> base, std::vector<PE> terminals, bool whole_nodes)
    : base_(std::move(base)), terminals_(std::move(terminals)), whole_nodes_(whole_nodes) {
  if (terminals_.empty()) throw InputError("sub: at least one terminal is needed");
  std::vector<PE> sorted = terminals_;
  std::sort(sorted.begin(), sorted.end());
  for (std::size_t k = 0; k < sorted.size(); ++k) {
    if (sorted[k] < 0 || sorted[k] >= base_->size()) {
      throw InputError("sub: terminal " + std::to_string(sorted[k]) + " is outside the target (0.." +
                       std::to_string(base_->size() - 1) + ")");
    }
    if (k > 0 && sorted[k] == sorted[k - 1])
      throw InputError("sub: terminal " + std::to_string(sorted[k]) + " is listed twice");
  }
  // Nodes renumbered in order of the base's node ids.
  std::map<NodeId, NodeId> local;
  for (const PE p : sorted) local.emplace(base_->node_of(p), 0);
  for (auto& [node, id] : local) {
    id = nodes_++;
    base_node_.push_back(node);
  }
  for (const PE p : terminals_) node_of_.push_back(local[base_->node_of(p)]);
  // The exact largest distance among the terminals (O(N^2), N is a list given by hand).
  if (terminals_.size() <= 4096) {
    for (const PE a : terminals_) {
      for (const PE b : terminals_) max_distance_ = std::max(max_distance_, base_->distance(a, b));
    }
  } else {
    max_distance_ = base_->max_distance();  // an upper bound: keeps compact storage choices safe
  }
}

std::string SubTopology::description() const {
  return "sub of " + std::to_string(terminals_.size()) + " PEs of " + base_->description();
}

std::optional<NodeId> SubTopology::node_with_label(NodeId label) const {
  const auto base_node = tmap::node_with_label(*base_, label);
  if (!base_node) return std::nullopt;
  const auto at = std::lower_bound(base_node_.begin(), base_node_.end(), *base_node);  // increasing
  if (at == base_node_.end() || *at != *base_node) return std::nullopt;
  return static_cast<NodeId>(at - base_node_.begin());
}

std::string SubTopology::to_tgt() const {
  if (whole_nodes_) {
    if (auto text = scotch_node_subset_target(*base_, base_node_); !text.empty()) return text;
  }
  std::string text = "sub\n" + std::to_string(terminals_.size());
  for (const PE p : terminals_) text += " " + std::to_string(p);
  return text + "\n" + scotch_target(*base_);
}

std::unique_ptr<RoutingModel> SubTopology::routing_model() const {
  auto base = base_->routing_model();
  if (!base) return nullptr;
  return std::make_unique<routing::SubRouting>(std::move(base), terminals_);
}

}  // namespace tmap::topo
