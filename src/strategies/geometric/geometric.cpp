#include "strategies/geometric/geometric.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <numeric>

#include "strategies/geometric/grid_recovery.hpp"
#include "strategies/scotch/scotch.hpp"
#include "tmap/comm_matrix.hpp"
#include "tmap/metrics.hpp"
#include "tmap/topology.hpp"
#include "tmap/topology_views.hpp"

namespace tmap::strategies {

namespace {

/// The allowed PEs as a full box of grid coordinates, or nothing.
struct Box {
  std::vector<std::int64_t> low;
  std::vector<std::int64_t> extent;
  std::map<std::vector<std::int64_t>, PE> pe_at;
};

std::optional<Box> allowed_box(const Topology& topology, std::span<const PE> pes) {
  Box box;
  std::vector<std::int64_t> c;
  for (const PE pe : pes) {
    if (!grid_coordinates(topology, pe, c)) return std::nullopt;
    if (box.low.empty()) {
      box.low = c;
      box.extent = c;
    }
    if (c.size() != box.low.size()) return std::nullopt;
    for (std::size_t k = 0; k < c.size(); ++k) {
      box.low[k] = std::min(box.low[k], c[k]);
      box.extent[k] = std::max(box.extent[k], c[k]);  // the high corner for now
    }
    box.pe_at.emplace(c, pe);
  }
  if (box.low.empty()) return std::nullopt;
  std::int64_t volume = 1;
  for (std::size_t k = 0; k < box.low.size(); ++k) {
    box.extent[k] = box.extent[k] - box.low[k] + 1;
    volume *= box.extent[k];
  }
  if (volume != static_cast<std::int64_t>(box.pe_at.size())) return std::nullopt;
  return box;
}

}  // namespace

std::optional<GridLayout> lay_out(const RecoveredGrid& grid, const Topology& topology, const Constraints& constraints,
                                  const std::function<std::int64_t(const Mapping&)>& cost, std::string& why) {
  const auto box = allowed_box(topology, constraints.allowed_pes());
  if (!box) {
    why = "the allowed PEs are not a box of a mesh or torus";
    return std::nullopt;
  }
  const auto axes = box->extent.size();
  if (grid.axes() > axes) {
    why = "the grid has more axes than the machine";
    return std::nullopt;
  }
  const auto n = static_cast<Rank>(grid.coordinates.size() / grid.axes());
  auto ranks = grid.extent;
  ranks.resize(axes, 1);
  // Every assignment of grid axes to machine axes whose blocks fit the
  // slots; the lowest hop-bytes wins (ties: the first permutation).
  std::vector<std::size_t> perm(axes);
  std::iota(perm.begin(), perm.end(), 0);
  std::optional<GridLayout> best;
  std::vector<std::int64_t> c(axes);
  do {
    std::vector<std::int64_t> block(axes, 1);
    std::int64_t per_pe = 1;
    bool fits = true;
    for (std::size_t i = 0; i < axes && fits; ++i) {
      const auto r = ranks[perm[i]];
      const auto t = box->extent[i];
      if (r > t) {
        fits = r % t == 0;
        block[i] = r / t;
        per_pe *= block[i];
      }
    }
    if (!fits || per_pe > constraints.capacity()) continue;
    Mapping mapping(static_cast<std::size_t>(n));
    for (Rank v = 0; v < n; ++v) {
      for (std::size_t i = 0; i < axes; ++i) {
        const auto k = perm[i];
        const auto x = k < grid.axes() ? grid.coordinates[static_cast<std::size_t>(v) * grid.axes() + k] : 0;
        c[i] = box->low[i] + x / block[i];
      }
      mapping[static_cast<std::size_t>(v)] = box->pe_at.at(c);
    }
    const auto hop_bytes = cost(mapping);
    if (!best || hop_bytes < best->hop_bytes) best = GridLayout{std::move(mapping), hop_bytes};
  } while (std::next_permutation(perm.begin(), perm.end()));
  if (!best) {
    why = fmt::format("a {} grid does not fold onto the {} box of allowed PEs at {} per PE",
                      fmt::join(grid.extent, "x"), fmt::join(box->extent, "x"), constraints.capacity());
  } else {
    why = fmt::format("the traffic is a {} {}grid; on the {} box: {} hop-bytes", fmt::join(grid.extent, "x"),
                      grid.periodic ? "periodic " : "", fmt::join(box->extent, "x"), best->hop_bytes);
  }
  return best;
}

const CommMatrix& traffic_pattern(const CommMatrix& comm, std::optional<CommMatrix>& storage) {
  if (comm.is_symmetric()) return comm;
  storage = comm.symmetrized();
  return *storage;
}

std::string grid_cannot_fit(const Problem& problem) {
  const auto pes = problem.constraints.allowed_pes();
  std::vector<std::int64_t> c;
  if (pes.empty() || !grid_coordinates(problem.topology, pes.front(), c)) {
    return "the allowed PEs are not a box of a mesh or torus";
  }
  return {};
}

std::optional<Mapping> lay_out_grid(const Problem& problem, const CommMatrix& pattern, const Run& context,
                                    std::string& why) {
  // The machine first (O(1)), the traffic (O(pairs)) after.
  why = grid_cannot_fit(problem);
  if (!why.empty()) return std::nullopt;
  const auto grid = recover_grid(pattern);
  if (!grid) {
    why = "the traffic is not a 1D, 2D or 3D grid (a 3-, 5- or 7-point stencil, periodic axes at least 5 long)";
    return std::nullopt;
  }
  auto layout = lay_out(
      *grid, problem.topology, problem.constraints,
      [&](const Mapping& mapping) { return evaluate(problem.comm, problem.topology, mapping).hop_bytes; }, why);
  if (!layout) return std::nullopt;
  context.note(1, "geometric: " + why);
  return std::move(layout->mapping);
}

Mapping GeometricMapper::map(const Problem& problem, const Run& context) const {
  std::string why;
  std::optional<CommMatrix> symmetrized;
  const auto& pattern = traffic_pattern(problem.comm, symmetrized);
  if (auto mapping = lay_out_grid(problem, pattern, context, why)) return std::move(*mapping);
  // On a tree, a periodic 2D lattice in tiles (as auto's `tiles`).
  std::string why_no_tiles;
  if (auto tiles = lay_out_tiles(problem, pattern, context, why_no_tiles)) {
    context.note(1, "geometric: tiles: " + why_no_tiles);
    return std::move(*tiles);
  }
  if (why_no_tiles != "the machine is not a tree") {
    why += "; no tiles: " + why_no_tiles;
    // Any grid on a tree: blocks along its levels.
    std::string why_no_blocks;
    if (auto blocks = lay_out_blocks(problem, pattern, context, why_no_blocks)) {
      context.note(1, "geometric: blocks: " + why_no_blocks);
      return std::move(*blocks);
    }
    why += "; no blocks: " + why_no_blocks;
  }
  context.fall_back("geometric", "scotch", why);
  // The caller's map_with lowers the objective after this.
  Run scotch = context;
  scotch.objective = Objective::HopBytes;
  return ScotchMapper::map_on_one_thread(problem, scotch);
}

}  // namespace tmap::strategies
