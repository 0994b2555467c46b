#include "routing/switch_tree.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <deque>
#include <numeric>

#include "tmap/error.hpp"

namespace tmap::routing {

namespace {

constexpr std::uint8_t kUnreached = 255;
/// Most entries of a switch graph's distance table (switches holding
/// nodes x switches): 64 MiB.
constexpr std::int64_t kMostTableEntries = std::int64_t{1} << 26;

std::int64_t find_root(std::vector<std::int64_t>& up, std::int64_t x) {
  while (up[static_cast<std::size_t>(x)] != x) {
    up[static_cast<std::size_t>(x)] = up[static_cast<std::size_t>(up[static_cast<std::size_t>(x)])];
    x = up[static_cast<std::size_t>(x)];
  }
  return x;
}

}  // namespace

SwitchTreeNetwork::SwitchTreeNetwork(std::vector<std::string> switch_names,
                                     std::vector<std::vector<std::int64_t>> children,
                                     std::vector<std::int64_t> switch_of_node, std::string spec)
    : names_(std::move(switch_names)), switch_of_node_(std::move(switch_of_node)), spec_(std::move(spec)) {
  const auto switches = static_cast<std::int64_t>(names_.size());
  const auto at = [](auto& v, std::int64_t i) -> auto& {
    return v[static_cast<std::size_t>(i)];
  };
  if (switch_of_node_.empty()) throw InputError("no node hangs on a switch");
  adjacent_.resize(names_.size());
  std::vector<std::int64_t> parents(names_.size(), 0);
  for (std::int64_t p = 0; p < switches; ++p) {
    auto& below = at(children, p);
    std::sort(below.begin(), below.end());
    below.erase(std::unique(below.begin(), below.end()), below.end());
    for (const auto c : below) {
      if (c == p) throw InputError("switch " + at(names_, p) + " lists itself below itself");
      const auto e = static_cast<std::int64_t>(edges_.size());
      edges_.emplace_back(c, p);
      at(adjacent_, c).emplace_back(p, e);
      at(adjacent_, p).emplace_back(c, e);
      ++at(parents, c);
    }
  }
  // Slurm's levels (a leaf switch 0, a switch one above its highest
  // child), depth-first without recursion: a cycle or more levels than
  // Slurm reads is refused in time linear in the file.
  {
    std::vector<std::int64_t> level(names_.size(), -1);  // -1 unseen, -2 on the stack
    std::vector<std::pair<std::int64_t, std::size_t>> stack;
    for (std::int64_t s = 0; s < switches; ++s) {
      if (at(level, s) != -1) continue;
      stack.emplace_back(s, 0);
      at(level, s) = -2;
      while (!stack.empty()) {
        auto& [sw, next] = stack.back();
        const auto& below = at(children, sw);
        if (next < below.size()) {
          const auto c = below[next++];
          if (at(level, c) == -2) throw InputError("switch " + at(names_, c) + " is in a cycle of switches");
          if (at(level, c) == -1) {
            at(level, c) = -2;
            stack.emplace_back(c, 0);
          }
          continue;
        }
        std::int64_t mine = 0;
        for (const auto c : below) mine = std::max(mine, at(level, c) + 1);
        if (mine > kMaxLevels) {
          throw InputError(
              fmt::format("switch {} is {} levels above its lowest switches: Slurm reads at most {} "
                          "(it refuses such a file: \"not a tree\")",
                          at(names_, sw), mine, kMaxLevels));
        }
        at(level, sw) = mine;
        stack.pop_back();
      }
    }
  }
  // Parts: switches joined by links.
  std::vector<std::int64_t> up(names_.size());
  std::iota(up.begin(), up.end(), 0);
  for (const auto& [c, p] : edges_) at(up, find_root(up, c)) = find_root(up, p);
  part_.resize(names_.size());
  for (std::int64_t s = 0; s < switches; ++s) at(part_, s) = find_root(up, s);
  std::vector<std::int64_t> node_parts;
  for (const auto s : switch_of_node_) node_parts.push_back(at(part_, s));
  std::sort(node_parts.begin(), node_parts.end());
  parts_ = std::unique(node_parts.begin(), node_parts.end()) - node_parts.begin();

  tree_ = std::all_of(parents.begin(), parents.end(), [](std::int64_t k) { return k <= 1; });
  std::vector<std::int64_t> leaves;  // switches holding nodes
  leaf_of_.assign(names_.size(), -1);
  for (const auto s : switch_of_node_) {
    if (at(leaf_of_, s) < 0) {
      at(leaf_of_, s) = static_cast<std::int64_t>(leaves.size());
      leaves.push_back(s);
    }
  }
  if (tree_) {
    parent_.assign(names_.size(), -1);
    for (const auto& [c, p] : edges_) at(parent_, c) = p;
    // Depths from each root down (at most kMaxLevels each).
    depth_.assign(names_.size(), 0);
    for (std::int64_t s = 0; s < switches; ++s) {
      std::int64_t d = 0;
      for (auto sw = s; at(parent_, sw) >= 0; sw = at(parent_, sw)) ++d;
      at(depth_, s) = d;
    }
    std::int64_t deepest = 0;
    std::int64_t shallowest = switches;
    for (const auto s : switch_of_node_) {
      deepest = std::max(deepest, at(depth_, s));
      shallowest = std::min(shallowest, at(depth_, s));
    }
    even_ = deepest == shallowest;
    max_within_ = 2 + 2 * deepest;
  } else {
    even_ = false;
    if (static_cast<std::int64_t>(leaves.size()) * switches > kMostTableEntries) {
      throw InputError(
          fmt::format("{} switches holding nodes, of {}, with switches under several parents: more "
                      "than tmap's distance table holds ({} entries)",
                      leaves.size(), switches, kMostTableEntries));
    }
    // Breadth-first from each switch holding nodes, over every link.
    distance_from_.assign(leaves.size(), std::vector<std::uint8_t>(names_.size(), kUnreached));
    std::deque<std::int64_t> queue;
    for (std::size_t k = 0; k < leaves.size(); ++k) {
      auto& distance = distance_from_[k];
      at(distance, leaves[k]) = 0;
      queue.assign(1, leaves[k]);
      while (!queue.empty()) {
        const auto s = queue.front();
        queue.pop_front();
        for (const auto& [next, e] : at(adjacent_, s)) {
          if (at(distance, next) != kUnreached) continue;
          // Paths stay far below 255: at most one per switch level, up and down.
          at(distance, next) = static_cast<std::uint8_t>(std::min<int>(at(distance, s) + 1, kUnreached - 1));
          queue.push_back(next);
        }
      }
      for (const auto t : leaves) {
        if (at(distance, t) != kUnreached) max_within_ = std::max<std::int64_t>(max_within_, 2 + at(distance, t));
      }
    }
  }
  if (switch_of_node_.size() < 2) max_within_ = 0;
  max_hops_ = parts_ > 1 ? apart_hops() : max_within_;
}

std::int64_t SwitchTreeNetwork::lowest_common(std::int64_t s, std::int64_t t) const {
  const auto at = [](const auto& v, std::int64_t i) { return v[static_cast<std::size_t>(i)]; };
  while (at(depth_, s) > at(depth_, t)) s = at(parent_, s);
  while (at(depth_, t) > at(depth_, s)) t = at(parent_, t);
  while (s != t) {
    s = at(parent_, s);
    t = at(parent_, t);
  }
  return s;
}

std::int64_t SwitchTreeNetwork::switch_distance(std::int64_t s, std::int64_t t) const {
  if (tree_) {
    const auto top = depth_[static_cast<std::size_t>(lowest_common(s, t))];
    return (depth_[static_cast<std::size_t>(s)] - top) + (depth_[static_cast<std::size_t>(t)] - top);
  }
  return distance_from_[static_cast<std::size_t>(leaf_of_[static_cast<std::size_t>(s)])][static_cast<std::size_t>(t)];
}

std::int64_t SwitchTreeNetwork::hops(std::int64_t a, std::int64_t b) const {
  if (a == b) return 0;
  const auto s = switch_of_node_[static_cast<std::size_t>(a)];
  const auto t = switch_of_node_[static_cast<std::size_t>(b)];
  if (part_[static_cast<std::size_t>(s)] != part_[static_cast<std::size_t>(t)]) return apart_hops();
  return 2 + switch_distance(s, t);
}

void SwitchTreeNetwork::route(std::int64_t a, std::int64_t b, std::vector<LinkId>& links) const {
  if (a == b) return;
  const auto n = num_nodes();
  auto s = switch_of_node_[static_cast<std::size_t>(a)];
  auto t = switch_of_node_[static_cast<std::size_t>(b)];
  links.push_back(a);
  if (part_[static_cast<std::size_t>(s)] == part_[static_cast<std::size_t>(t)] && s != t) {
    if (tree_) {
      // The tree's one route: up to the lowest common switch and down.
      const auto up_edge = [this](std::int64_t sw) {
        for (const auto& [next, e] : adjacent_[static_cast<std::size_t>(sw)]) {
          if (next == parent_[static_cast<std::size_t>(sw)]) return e;
        }
        return std::int64_t{-1};
      };
      const auto top = lowest_common(s, t);
      for (; s != top; s = parent_[static_cast<std::size_t>(s)]) links.push_back(n + up_edge(s));
      const auto down_from = links.size();
      for (; t != top; t = parent_[static_cast<std::size_t>(t)]) links.push_back(n + up_edge(t));
      std::reverse(links.begin() + static_cast<std::ptrdiff_t>(down_from), links.end());
    } else {
      // A shortest path: each step to a neighbour one closer to t, the
      // destination node choosing among equals.
      const auto& to_t = distance_from_[static_cast<std::size_t>(leaf_of_[static_cast<std::size_t>(t)])];
      std::vector<std::pair<std::int64_t, std::int64_t>> closer;
      while (s != t) {
        closer.clear();
        for (const auto& step : adjacent_[static_cast<std::size_t>(s)]) {
          if (to_t[static_cast<std::size_t>(step.first)] + 1 == to_t[static_cast<std::size_t>(s)])
            closer.push_back(step);
        }
        const auto& [next, e] = closer[static_cast<std::size_t>(b) % closer.size()];
        links.push_back(n + e);
        s = next;
      }
    }
  }
  links.push_back(b);
}

std::string SwitchTreeNetwork::link_name(LinkId link) const {
  const auto n = num_nodes();
  if (link < n)
    return fmt::format("node {} - {}", link,
                       names_[static_cast<std::size_t>(switch_of_node_[static_cast<std::size_t>(link)])]);
  const auto& [child, parent] = edges_[static_cast<std::size_t>(link - n)];
  return fmt::format("{} - {}", names_[static_cast<std::size_t>(child)], names_[static_cast<std::size_t>(parent)]);
}

LinkEnds SwitchTreeNetwork::link_ends(LinkId link) const {
  const auto n = num_nodes();
  LinkEnds result;
  if (link < n) {
    result.lower.node = link;
    result.upper.name = names_[static_cast<std::size_t>(switch_of_node_[static_cast<std::size_t>(link)])];
    return result;
  }
  const auto& [child, parent] = edges_[static_cast<std::size_t>(link - n)];
  result.lower.name = names_[static_cast<std::size_t>(child)];
  result.upper.name = names_[static_cast<std::size_t>(parent)];
  return result;
}

bool SwitchTreeNetwork::tree_path(std::int64_t node, std::vector<std::int64_t>& path) const {
  if (!tree_ || !even_ || parts_ > 1) return false;
  path.clear();
  for (auto s = switch_of_node_[static_cast<std::size_t>(node)]; parent_[static_cast<std::size_t>(s)] >= 0;
       s = parent_[static_cast<std::size_t>(s)]) {
    path.push_back(s);
  }
  std::reverse(path.begin(), path.end());
  path.push_back(node);  // the node's own cable: two nodes of one switch are 2 apart
  return true;
}

std::string SwitchTreeNetwork::why_apart(std::int64_t a, std::int64_t b) const {
  if (part_of(a) == part_of(b)) return {};
  return fmt::format(
      "their switches {} and {} are joined by no switch above or between them: Slurm runs no job "
      "across them",
      names_[static_cast<std::size_t>(switch_of_node_[static_cast<std::size_t>(a)])],
      names_[static_cast<std::size_t>(switch_of_node_[static_cast<std::size_t>(b)])]);
}

}  // namespace tmap::routing
