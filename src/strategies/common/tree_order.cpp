#include "strategies/common/tree_order.hpp"

#include <algorithm>
#include <numeric>

#include "tmap/topology_views.hpp"

namespace tmap::strategies {

std::optional<TreeOrder> tree_order(const Topology& topology, std::span<const PE> allowed, TreePaths paths) {
  TreeOrder unsorted;
  unsorted.offsets.reserve(allowed.size() + 1);
  std::vector<std::int64_t> path;
  for (const PE p : allowed) {
    if (!(paths == TreePaths::Tree ? tree_path(topology, p, path) : group_path(topology, p, path))) return std::nullopt;
    unsorted.values.insert(unsorted.values.end(), path.begin(), path.end());
    unsorted.offsets.push_back(static_cast<std::int64_t>(unsorted.values.size()));
  }
  const auto before = [&](std::size_t a, std::size_t b) {
    const auto pa = unsorted.path(a);
    const auto pb = unsorted.path(b);
    if (std::lexicographical_compare(pa.begin(), pa.end(), pb.begin(), pb.end())) return true;
    if (std::lexicographical_compare(pb.begin(), pb.end(), pa.begin(), pa.end())) return false;
    return allowed[a] < allowed[b];
  };
  std::vector<std::size_t> order(allowed.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  if (std::is_sorted(order.begin(), order.end(), before)) {
    unsorted.pes.assign(allowed.begin(), allowed.end());
    return unsorted;
  }
  std::sort(order.begin(), order.end(), before);
  TreeOrder sorted;
  sorted.values.reserve(unsorted.values.size());
  sorted.offsets.reserve(order.size() + 1);
  sorted.pes.reserve(order.size());
  for (const auto k : order) {
    const auto p = unsorted.path(k);
    sorted.values.insert(sorted.values.end(), p.begin(), p.end());
    sorted.offsets.push_back(static_cast<std::int64_t>(sorted.values.size()));
    sorted.pes.push_back(allowed[k]);
  }
  return sorted;
}

std::vector<std::int32_t> branch_depths(const TreeOrder& order) {
  std::vector<std::int32_t> depths(order.pes.size(), 0);
  for (std::size_t k = 1; k < order.pes.size(); ++k) {
    const auto a = order.path(k - 1);
    const auto b = order.path(k);
    const auto common = std::mismatch(a.begin(), a.end(), b.begin(), b.end()).first - a.begin();
    depths[k] = static_cast<std::int32_t>(common);
  }
  return depths;
}

std::vector<TreeChild> tree_children(const TreeOrder& order, std::size_t lo, std::size_t hi, std::size_t depth) {
  std::vector<TreeChild> children;
  for (std::size_t k = lo; k < hi;) {
    std::size_t end = k + 1;
    const auto path = order.path(k);
    while (end < hi && depth < path.size() && depth < order.path(end).size() && order.path(end)[depth] == path[depth]) {
      ++end;
    }
    children.push_back({k, end});
    k = end;
  }
  return children;
}

void deal_most_room_first(std::vector<TreeChild>& children, std::int64_t count, std::int64_t capacity) {
  std::vector<std::size_t> by_room(children.size());
  std::iota(by_room.begin(), by_room.end(), std::size_t{0});
  std::stable_sort(by_room.begin(), by_room.end(), [&](std::size_t a, std::size_t b) {
    return children[a].hi - children[a].lo > children[b].hi - children[b].lo;
  });
  for (const auto c : by_room) {
    children[c].size =
        std::min<std::int64_t>(count, static_cast<std::int64_t>(children[c].hi - children[c].lo) * capacity);
    count -= children[c].size;
  }
}

}  // namespace tmap::strategies
