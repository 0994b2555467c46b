#include "strategies/scotch/terminals.hpp"

#include <algorithm>
#include <map>
#include <numeric>

#include "tmap/topology_views.hpp"

namespace tmap::scotchmap {

Terminals make_terminals(const Topology& topology, const Constraints& constraints) {
  Terminals t;
  const auto allowed = constraints.allowed_pes();
  const auto intra = topology.node_uniform_distance();
  if (intra && *intra == 0 && topology.num_nodes() < topology.size()) {
    std::map<NodeId, std::vector<PE>> by_node;
    for (const PE p : allowed) by_node[topology.node_of(p)].push_back(p);
    for (auto& [node, pes] : by_node) t.pes.push_back(std::move(pes));
  } else {
    for (const PE p : allowed) t.pes.push_back({p});
  }
  for (const auto& pes : t.pes) {
    t.capacity.push_back(static_cast<std::int64_t>(pes.size()) * constraints.capacity());
    t.representative.push_back(pes.front());
  }
  t.identity = static_cast<PE>(allowed.size()) == topology.size() && t.size() == topology.size();
  return t;
}

namespace {

/// Orthogonal recursive bisection of items [lo, hi) by their coordinates.
void orb(std::vector<std::int64_t>& items, std::size_t lo, std::size_t hi,
         const std::vector<std::vector<std::int64_t>>& coords, std::size_t dims) {
  if (hi - lo <= 1) return;
  std::size_t axis = 0;
  std::int64_t widest = -1;
  for (std::size_t d = 0; d < dims; ++d) {
    std::int64_t low = coords[items[lo]][d];
    std::int64_t high = low;
    for (std::size_t k = lo; k < hi; ++k) {
      low = std::min(low, coords[items[k]][d]);
      high = std::max(high, coords[items[k]][d]);
    }
    if (high - low > widest) {
      widest = high - low;
      axis = d;
    }
  }
  std::stable_sort(items.begin() + static_cast<std::ptrdiff_t>(lo), items.begin() + static_cast<std::ptrdiff_t>(hi),
                   [&](std::int64_t a, std::int64_t b) { return coords[a][axis] < coords[b][axis]; });
  const std::size_t mid = lo + (hi - lo + 1) / 2;  // the same split as bisection_domains
  orb(items, lo, mid, coords, dims);
  orb(items, mid, hi, coords, dims);
}

}  // namespace

std::vector<std::int64_t> bisection_order(const Topology& topology, const Terminals& terminals) {
  std::vector<std::int64_t> order(static_cast<std::size_t>(terminals.size()));
  std::iota(order.begin(), order.end(), std::int64_t{0});
  // Recursive coordinate bisection where the machine is a grid.
  std::vector<std::vector<std::int64_t>> coords(order.size());
  for (std::size_t t = 0; t < order.size(); ++t) {
    if (!grid_coordinates(topology, terminals.representative[t], coords[t])) return order;
  }
  const auto dims = coords.empty() ? 0 : coords.front().size();
  orb(order, 0, order.size(), coords, dims);
  return order;
}

Terminals compact_block(const Topology& topology, const Terminals& terminals, std::int64_t n) {
  const auto order = bisection_order(topology, terminals);
  std::vector<std::int64_t> chosen;
  std::int64_t room = 0;
  for (const auto t : order) {
    if (room >= n) break;
    chosen.push_back(t);
    room += terminals.capacity[static_cast<std::size_t>(t)];
  }
  std::sort(chosen.begin(), chosen.end());
  return subset(terminals, chosen);
}

Terminals subset(const Terminals& all, const std::vector<std::int64_t>& which) {
  Terminals t;
  for (const auto k : which) {
    t.pes.push_back(all.pes[static_cast<std::size_t>(k)]);
    t.capacity.push_back(all.capacity[static_cast<std::size_t>(k)]);
    t.representative.push_back(all.representative[static_cast<std::size_t>(k)]);
  }
  return t;
}

Mapping expand(const Terminals& terminals, const std::vector<std::int64_t>& terminal_of, std::int64_t capacity) {
  std::vector<std::int64_t> used(static_cast<std::size_t>(terminals.size()), 0);
  Mapping mapping(terminal_of.size());
  for (std::size_t r = 0; r < terminal_of.size(); ++r) {
    const auto t = terminal_of[r];
    const auto slot = used[t]++;
    mapping[r] = terminals.pes[t][static_cast<std::size_t>(slot / capacity)];
  }
  return mapping;
}

Mapping expand_by_load(const Terminals& terminals, const std::vector<std::int64_t>& terminal_of,
                       std::span<const Volume> weights, std::int64_t capacity) {
  std::vector<std::vector<Rank>> ranks_of(static_cast<std::size_t>(terminals.size()));
  for (std::size_t r = 0; r < terminal_of.size(); ++r)
    ranks_of[static_cast<std::size_t>(terminal_of[r])].push_back(static_cast<Rank>(r));
  Mapping mapping(terminal_of.size());
  for (std::size_t t = 0; t < ranks_of.size(); ++t) {
    auto& ranks = ranks_of[t];
    std::stable_sort(ranks.begin(), ranks.end(), [&](Rank a, Rank b) { return weights[a] > weights[b]; });
    const auto& pes = terminals.pes[t];
    struct Held {
      Volume load = 0;
      std::int64_t count = 0;
    };
    std::vector<Held> held(pes.size());
    for (const Rank r : ranks) {
      std::size_t best = 0;
      bool best_open = false;
      for (std::size_t u = 0; u < held.size(); ++u) {
        const bool open = held[u].count < capacity;
        if ((open && !best_open) || (open == best_open && held[u].load < held[best].load)) {
          best = u;
          best_open = open;
        }
      }
      held[best].load += weights[r];
      ++held[best].count;
      mapping[static_cast<std::size_t>(r)] = pes[best];
    }
  }
  return mapping;
}

}  // namespace tmap::scotchmap
