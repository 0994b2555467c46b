#include "strategies/common/locality_order.hpp"

#include <algorithm>
#include <bit>
#include <utility>

namespace tmap::strategies {

namespace {

/// Appends to `order` the vertices reached from `root` breadth-first (root
/// unseen); returns the last one reached.
Rank sweep(const CommMatrix& g, Rank root, std::vector<char>& seen, std::vector<Rank>& order) {
  seen[static_cast<std::size_t>(root)] = 1;
  order.push_back(root);
  for (auto head = order.size() - 1; head < order.size(); ++head) {
    for (const Rank u : g.targets(order[head])) {
      if (seen[static_cast<std::size_t>(u)] != 0) continue;
      seen[static_cast<std::size_t>(u)] = 1;
      order.push_back(u);
    }
  }
  return order.back();
}

}  // namespace

std::int64_t id_spread(const CommMatrix& g, std::span<const Rank> new_of) {
  const auto id = [&](Rank r) { return new_of.empty() ? r : new_of[static_cast<std::size_t>(r)]; };
  std::int64_t spread = 0;
  for (Rank r = 0; r < g.num_ranks(); ++r) {
    const auto at = id(r);
    for (const Rank u : g.targets(r)) {
      const auto gap = static_cast<std::uint64_t>(at > id(u) ? at - id(u) : id(u) - at);
      spread += static_cast<std::int64_t>(std::bit_width(gap));
    }
  }
  return spread;
}

std::vector<Rank> breadth_first_order(const CommMatrix& g) {
  const auto n = g.num_ranks();
  std::vector<Rank> order;
  order.reserve(static_cast<std::size_t>(n));
  std::vector<char> seen(static_cast<std::size_t>(n), 0);
  if (n == 0) return order;
  // A far end of rank 0's component: the last vertex its sweep reaches.
  const auto far = sweep(g, 0, seen, order);
  order.clear();
  std::fill(seen.begin(), seen.end(), 0);
  sweep(g, far, seen, order);
  for (Rank root = 0; root < n; ++root) {
    if (seen[static_cast<std::size_t>(root)] == 0) sweep(g, root, seen, order);
  }
  return order;
}

CommMatrix renumbered(const CommMatrix& g, std::span<const Rank> old_of) {
  const auto n = g.num_ranks();
  std::vector<Rank> new_of(static_cast<std::size_t>(n));
  for (Rank k = 0; k < n; ++k) new_of[static_cast<std::size_t>(old_of[static_cast<std::size_t>(k)])] = k;
  std::vector<std::int64_t> row_begin{0};
  row_begin.reserve(static_cast<std::size_t>(n) + 1);
  std::vector<Rank> column;
  std::vector<Volume> volume;
  column.reserve(g.columns().size());
  volume.reserve(g.columns().size());
  std::vector<std::pair<Rank, Volume>> row;
  for (Rank k = 0; k < n; ++k) {
    const auto old = old_of[static_cast<std::size_t>(k)];
    const auto targets = g.targets(old);
    const auto volumes = g.volumes(old);
    row.clear();
    for (std::size_t e = 0; e < targets.size(); ++e) {
      row.emplace_back(new_of[static_cast<std::size_t>(targets[e])], volumes[e]);
    }
    std::sort(row.begin(), row.end());
    for (const auto& [v, bytes] : row) {
      column.push_back(v);
      volume.push_back(bytes);
    }
    row_begin.push_back(static_cast<std::int64_t>(column.size()));
  }
  return CommMatrix::from_csr(n, std::move(row_begin), std::move(column), std::move(volume));
}

std::optional<std::vector<Rank>> more_local_order(const CommMatrix& g) {
  auto order = breadth_first_order(g);
  std::vector<Rank> new_of(order.size());
  for (std::size_t k = 0; k < order.size(); ++k) new_of[static_cast<std::size_t>(order[k])] = static_cast<Rank>(k);
  if (id_spread(g, new_of) < id_spread(g)) return order;
  return std::nullopt;
}

}  // namespace tmap::strategies
