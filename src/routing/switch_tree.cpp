#include "routing/switch_tree.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "tmap/error.hpp"

namespace tmap::routing {

SwitchTreeNetwork::SwitchTreeNetwork(std::vector<std::string> switch_names, std::vector<std::int64_t> parent,
                                     std::vector<std::int64_t> switch_of_node, std::string spec)
    : names_(std::move(switch_names)),
      parent_(std::move(parent)),
      switch_of_node_(std::move(switch_of_node)),
      spec_(std::move(spec)) {
  const auto switches = static_cast<std::int64_t>(parent_.size());
  if (switch_of_node_.empty()) throw InputError("no node hangs on a switch");
  std::vector<std::int64_t> roots;
  for (std::int64_t s = 0; s < switches; ++s) {
    if (parent_[static_cast<std::size_t>(s)] < 0) roots.push_back(s);
  }
  if (roots.size() != 1) {
    throw InputError(roots.empty() ? "the switches form a cycle: no switch is the root"
                                   : fmt::format("switches {} and {} have no common parent: Slurm runs no job across "
                                                 "them (add a switch above both)",
                                                 names_[static_cast<std::size_t>(roots[0])],
                                                 names_[static_cast<std::size_t>(roots[1])]));
  }
  // Depths by walking up, bounded by the switch count (a longer walk is a cycle).
  depth_.assign(parent_.size(), -1);
  for (std::int64_t s = 0; s < switches; ++s) {
    std::int64_t d = 0;
    for (auto at = s; parent_[static_cast<std::size_t>(at)] >= 0; at = parent_[static_cast<std::size_t>(at)]) {
      if (++d > switches) throw InputError("switch " + names_[static_cast<std::size_t>(s)] + " is in a cycle");
    }
    depth_[static_cast<std::size_t>(s)] = d;
  }
  std::int64_t deepest = 0;
  std::int64_t shallowest = switches;
  for (const auto s : switch_of_node_) {
    deepest = std::max(deepest, depth_[static_cast<std::size_t>(s)]);
    shallowest = std::min(shallowest, depth_[static_cast<std::size_t>(s)]);
  }
  even_ = deepest == shallowest;
  max_hops_ = switch_of_node_.size() > 1 ? 2 + 2 * deepest : 0;
}

std::int64_t SwitchTreeNetwork::lowest_common(std::int64_t s, std::int64_t t) const {
  while (depth_[static_cast<std::size_t>(s)] > depth_[static_cast<std::size_t>(t)])
    s = parent_[static_cast<std::size_t>(s)];
  while (depth_[static_cast<std::size_t>(t)] > depth_[static_cast<std::size_t>(s)])
    t = parent_[static_cast<std::size_t>(t)];
  while (s != t) {
    s = parent_[static_cast<std::size_t>(s)];
    t = parent_[static_cast<std::size_t>(t)];
  }
  return s;
}

std::int64_t SwitchTreeNetwork::hops(std::int64_t a, std::int64_t b) const {
  if (a == b) return 0;
  const auto s = switch_of_node_[static_cast<std::size_t>(a)];
  const auto t = switch_of_node_[static_cast<std::size_t>(b)];
  const auto top = depth_[static_cast<std::size_t>(lowest_common(s, t))];
  return 2 + (depth_[static_cast<std::size_t>(s)] - top) + (depth_[static_cast<std::size_t>(t)] - top);
}

void SwitchTreeNetwork::route(std::int64_t a, std::int64_t b, std::vector<LinkId>& links) const {
  if (a == b) return;
  const auto n = num_nodes();
  auto s = switch_of_node_[static_cast<std::size_t>(a)];
  auto t = switch_of_node_[static_cast<std::size_t>(b)];
  const auto top = lowest_common(s, t);
  links.push_back(a);
  for (; s != top; s = parent_[static_cast<std::size_t>(s)]) links.push_back(n + s);
  const auto down_from = links.size();
  for (; t != top; t = parent_[static_cast<std::size_t>(t)]) links.push_back(n + t);
  std::reverse(links.begin() + static_cast<std::ptrdiff_t>(down_from), links.end());
  links.push_back(b);
}

std::string SwitchTreeNetwork::link_name(LinkId link) const {
  const auto n = num_nodes();
  if (link < n)
    return fmt::format("node {} - {}", link,
                       names_[static_cast<std::size_t>(switch_of_node_[static_cast<std::size_t>(link)])]);
  const auto s = static_cast<std::size_t>(link - n);
  return fmt::format("{} - {}", names_[s], parent_[s] >= 0 ? names_[static_cast<std::size_t>(parent_[s])] : "(root)");
}

bool SwitchTreeNetwork::tree_path(std::int64_t node, std::vector<std::int64_t>& path) const {
  if (!even_) return false;
  path.clear();
  for (auto s = switch_of_node_[static_cast<std::size_t>(node)]; parent_[static_cast<std::size_t>(s)] >= 0;
       s = parent_[static_cast<std::size_t>(s)]) {
    path.push_back(s);
  }
  std::reverse(path.begin(), path.end());
  path.push_back(node);  // the node's own cable: two nodes of one switch are 2 apart
  return true;
}

}  // namespace tmap::routing
