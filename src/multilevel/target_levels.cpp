// The machine's hierarchy: slots paired with their nearest free slot of the
// same group size, level after level. On a mesh or torus in x-first order
// this grows blocks one axis at a time (2x1, 2x2, 2x2x2, 4x2x2, ...); on
// trees it follows the branches.
#include <algorithm>
#include <numeric>
#include <unordered_map>

#include "core/distance_oracle.hpp"
#include "multilevel/levels.hpp"
#include "tmap/topology_views.hpp"

namespace tmap::multilevel {

namespace {

/// PEs tried by a full scan for their nearest (O(m^2) distances).
constexpr std::int64_t kScanPes = 4096;
constexpr std::int64_t kNearest = 8;
/// Neighbours on each side in the tree (or node) order.
constexpr std::int64_t kOrderReach = 4;

/// Grid neighbours (one step along an axis, wrapping) when every PE has coordinates.
bool grid_neighbours(const Topology& topology, std::span<const PE> pes, std::vector<std::vector<std::int64_t>>& out) {
  const auto m = static_cast<std::int64_t>(pes.size());
  std::vector<std::vector<std::int64_t>> coords(static_cast<std::size_t>(m));
  std::vector<std::int64_t> extent;
  for (std::int64_t u = 0; u < m; ++u) {
    auto& c = coords[static_cast<std::size_t>(u)];
    if (!grid_coordinates(topology, pes[static_cast<std::size_t>(u)], c) || c.empty()) return false;
    if (extent.empty()) extent.assign(c.size(), 1);
    if (c.size() != extent.size()) return false;
    for (std::size_t k = 0; k < c.size(); ++k) extent[k] = std::max(extent[k], c[k] + 1);
  }
  const auto key = [&](const std::vector<std::int64_t>& c) {
    std::int64_t id = 0;
    for (std::size_t k = c.size(); k-- > 0;) id = id * extent[k] + c[k];
    return id;
  };
  std::unordered_map<std::int64_t, std::int64_t> local;
  local.reserve(static_cast<std::size_t>(m));
  for (std::int64_t u = 0; u < m; ++u) local.emplace(key(coords[static_cast<std::size_t>(u)]), u);
  out.assign(static_cast<std::size_t>(m), {});
  for (std::int64_t u = 0; u < m; ++u) {
    auto c = coords[static_cast<std::size_t>(u)];
    for (std::size_t k = 0; k < c.size(); ++k) {
      const auto own = c[k];
      for (const auto step : {std::int64_t{-1}, std::int64_t{1}}) {
        c[k] = (own + step + extent[k]) % extent[k];
        if (const auto it = local.find(key(c)); it != local.end() && it->second != u) {
          out[static_cast<std::size_t>(u)].push_back(it->second);
        }
      }
      c[k] = own;
    }
  }
  return true;
}

}  // namespace

template <typename Distances>
Candidates nearby_pes(const Topology& topology, std::span<const PE> pes, const Distances& d) {
  const auto m = static_cast<std::int64_t>(pes.size());
  std::vector<std::vector<std::int64_t>> near;
  if (!grid_neighbours(topology, pes, near)) {
    near.assign(static_cast<std::size_t>(m), {});
    if (m <= kScanPes) {
      std::vector<std::pair<Distance, std::int64_t>> row;
      for (std::int64_t u = 0; u < m; ++u) {
        row.clear();
        for (std::int64_t v = 0; v < m; ++v) {
          if (v != u) row.emplace_back(d(u, v), v);
        }
        const auto keep = std::min<std::int64_t>(kNearest, static_cast<std::int64_t>(row.size()));
        std::partial_sort(row.begin(), row.begin() + keep, row.end());
        for (std::int64_t k = 0; k < keep; ++k)
          near[static_cast<std::size_t>(u)].push_back(row[static_cast<std::size_t>(k)].second);
      }
    } else {
      // The machine's own order: tree branches, else nodes, then PE ids.
      std::vector<std::pair<std::vector<std::int64_t>, std::int64_t>> order(static_cast<std::size_t>(m));
      for (std::int64_t u = 0; u < m; ++u) {
        auto& [path, id] = order[static_cast<std::size_t>(u)];
        const PE pe = pes[static_cast<std::size_t>(u)];
        if (!tree_path(topology, pe, path)) path = {topology.node_of(pe)};
        path.push_back(pe);
        id = u;
      }
      std::sort(order.begin(), order.end());
      for (std::int64_t k = 0; k < m; ++k) {
        for (std::int64_t j = std::max<std::int64_t>(0, k - kOrderReach); j <= std::min(m - 1, k + kOrderReach); ++j) {
          if (j != k)
            near[static_cast<std::size_t>(order[static_cast<std::size_t>(k)].second)].push_back(
                order[static_cast<std::size_t>(j)].second);
        }
      }
    }
  }
  Candidates c;
  for (std::int64_t u = 0; u < m; ++u) {
    for (const auto v : near[static_cast<std::size_t>(u)]) {
      c.targets.push_back(v);
      c.scores.push_back(-d(u, v));
    }
    c.offsets.push_back(static_cast<std::int64_t>(c.targets.size()));
  }
  return c;
}

template <typename Distances>
std::vector<TargetLevel> target_levels(const Topology& topology, std::span<const PE> pes, std::int64_t capacity,
                                       const Distances& d, std::int64_t coarsest) {
  const auto m = static_cast<std::int64_t>(pes.size());
  const auto pe_near = nearby_pes(topology, pes, d);
  // Level 0: slots. A slot's neighbours: the next and previous slots of its
  // PE (0 apart), and the slot of the same number on each nearby PE.
  TargetLevel base;
  const auto slots = m * capacity;
  base.rep.resize(static_cast<std::size_t>(slots));
  base.shape.assign(static_cast<std::size_t>(slots), 0);
  for (std::int64_t s = 0; s < slots; ++s) {
    const auto u = s / capacity;
    const auto k = s % capacity;
    base.rep[static_cast<std::size_t>(s)] = u;
    const auto add = [&](std::int64_t t, std::int64_t score) {
      base.near.targets.push_back(t);
      base.near.scores.push_back(score);
    };
    if (k > 0) add(s - 1, 0);
    if (k + 1 < capacity) add(s + 1, 0);
    for (auto e = pe_near.offsets[static_cast<std::size_t>(u)]; e < pe_near.offsets[static_cast<std::size_t>(u) + 1];
         ++e) {
      add(pe_near.targets[static_cast<std::size_t>(e)] * capacity + k, pe_near.scores[static_cast<std::size_t>(e)]);
    }
    base.near.offsets.push_back(static_cast<std::int64_t>(base.near.targets.size()));
  }
  std::vector<TargetLevel> levels;
  levels.push_back(std::move(base));
  std::vector<std::int64_t> marker;
  while (levels.back().count() > coarsest) {
    auto& fine = levels.back();
    const auto n = fine.count();
    std::vector<std::int64_t> order(static_cast<std::size_t>(n));
    std::iota(order.begin(), order.end(), 0);
    const auto partner = pair_within_shapes(fine.near, fine.shape, order);
    const auto coarse_count = number_pairs(partner, fine.parent);
    if (coarse_count == n) {
      fine.parent.clear();
      break;
    }
    TargetLevel coarse;
    coarse.rep.assign(static_cast<std::size_t>(coarse_count), -1);
    coarse.shape.assign(static_cast<std::size_t>(coarse_count), 0);
    std::vector<std::vector<std::int64_t>> members(static_cast<std::size_t>(coarse_count));
    for (std::int64_t v = 0; v < n; ++v) {
      const auto c = fine.parent[static_cast<std::size_t>(v)];
      if (coarse.rep[static_cast<std::size_t>(c)] < 0)
        coarse.rep[static_cast<std::size_t>(c)] = fine.rep[static_cast<std::size_t>(v)];
      members[static_cast<std::size_t>(c)].push_back(v);
    }
    for (std::int64_t c = 0; c < coarse_count; ++c) {
      const auto& pair = members[static_cast<std::size_t>(c)];
      const auto a = fine.shape[static_cast<std::size_t>(pair.front())];
      coarse.shape[static_cast<std::size_t>(c)] = pair.size() == 2 ? shape_of_pair(a) : shape_of_lone(a);
    }
    marker.assign(static_cast<std::size_t>(coarse_count), -1);
    std::vector<std::int64_t> row;
    for (std::int64_t c = 0; c < coarse_count; ++c) {
      row.clear();
      for (const auto v : members[static_cast<std::size_t>(c)]) {
        for (auto e = fine.near.offsets[static_cast<std::size_t>(v)];
             e < fine.near.offsets[static_cast<std::size_t>(v) + 1]; ++e) {
          const auto t = fine.parent[static_cast<std::size_t>(fine.near.targets[static_cast<std::size_t>(e)])];
          if (t == c || marker[static_cast<std::size_t>(t)] == c) continue;
          marker[static_cast<std::size_t>(t)] = c;
          row.push_back(t);
        }
      }
      std::sort(row.begin(), row.end());
      for (const auto t : row) {
        coarse.near.targets.push_back(t);
        coarse.near.scores.push_back(
            -d(coarse.rep[static_cast<std::size_t>(c)], coarse.rep[static_cast<std::size_t>(t)]));
      }
      coarse.near.offsets.push_back(static_cast<std::int64_t>(coarse.near.targets.size()));
    }
    levels.push_back(std::move(coarse));
  }
  return levels;
}

#define TMAP_INSTANTIATE(Oracle)                                                                              \
  template Candidates nearby_pes<Oracle>(const Topology&, std::span<const PE>, const Oracle&);                \
  template std::vector<TargetLevel> target_levels<Oracle>(const Topology&, std::span<const PE>, std::int64_t, \
                                                          const Oracle&, std::int64_t);
TMAP_FOR_EACH_DISTANCE_ORACLE(TMAP_INSTANTIATE)
#undef TMAP_INSTANTIATE

}  // namespace tmap::multilevel
