#include "strategies/geometric/grid_recovery.hpp"

#include <algorithm>
#include <limits>

namespace tmap::strategies {

namespace {

constexpr std::int64_t kUnreached = -1;

std::vector<std::int64_t> bfs(const CommMatrix& sym, Rank root) {
  std::vector<std::int64_t> dist(static_cast<std::size_t>(sym.num_ranks()), kUnreached);
  std::vector<Rank> queue{root};
  dist[static_cast<std::size_t>(root)] = 0;
  for (std::size_t head = 0; head < queue.size(); ++head) {
    const auto v = queue[head];
    for (const auto u : sym.targets(v)) {
      if (dist[static_cast<std::size_t>(u)] != kUnreached) continue;
      dist[static_cast<std::size_t>(u)] = dist[static_cast<std::size_t>(v)] + 1;
      queue.push_back(u);
    }
  }
  return dist;
}

}  // namespace

std::optional<RecoveredGrid> recover_grid(const CommMatrix& sym) {
  const Rank n = sym.num_ranks();
  if (n < 2) return std::nullopt;
  std::int64_t least = std::numeric_limits<std::int64_t>::max();
  std::int64_t most = 0;
  for (Rank v = 0; v < n; ++v) {
    least = std::min<std::int64_t>(least, static_cast<std::int64_t>(sym.targets(v).size()));
    most = std::max<std::int64_t>(most, static_cast<std::int64_t>(sym.targets(v).size()));
  }
  // Every rank with 2, 4 or 6 partners: a periodic stencil, perhaps.
  if (least == most && least % 2 == 0) {
    if (auto torus = recover_torus(sym)) return torus;  // else perhaps a 2x2 mesh (every rank 2 partners)
  }
  if (least < 1 || least > 3) return std::nullopt;
  const auto axes = static_cast<std::size_t>(least);
  Rank c0 = 0;
  while (static_cast<std::int64_t>(sym.targets(c0).size()) != least) ++c0;
  const auto from_c0 = bfs(sym, c0);
  if (std::count(from_c0.begin(), from_c0.end(), kUnreached) > 0) return std::nullopt;
  const auto first_steps = sym.targets(c0);
  std::vector<std::vector<std::int64_t>> from_step;
  for (const auto s : first_steps) from_step.push_back(bfs(sym, s));
  RecoveredGrid grid;
  grid.coordinates.assign(static_cast<std::size_t>(n) * axes, 0);
  for (std::size_t k = 0; k < axes; ++k) {
    // The far corner of axis k.
    Rank far = -1;
    for (Rank e = 0; e < n; ++e) {
      if (e == c0 || static_cast<std::int64_t>(sym.targets(e).size()) != least) continue;
      const auto d0 = from_c0[static_cast<std::size_t>(e)];
      bool on_axis = from_step[k][static_cast<std::size_t>(e)] == d0 - 1;
      for (std::size_t j = 0; j < axes && on_axis; ++j) {
        if (j != k && from_step[j][static_cast<std::size_t>(e)] != d0 + 1) on_axis = false;
      }
      if (on_axis && (far < 0 || d0 < from_c0[static_cast<std::size_t>(far)])) far = e;
    }
    if (far < 0) return std::nullopt;
    const auto length = from_c0[static_cast<std::size_t>(far)] + 1;
    grid.extent.push_back(length);
    const auto from_far = bfs(sym, far);
    for (Rank v = 0; v < n; ++v) {
      const auto twice = from_c0[static_cast<std::size_t>(v)] - from_far[static_cast<std::size_t>(v)] + length - 1;
      if (twice < 0 || twice % 2 != 0 || twice / 2 >= length) return std::nullopt;
      grid.coordinates[static_cast<std::size_t>(v) * axes + k] = twice / 2;
    }
  }
  if (!is_exactly_the_grid(sym, grid)) return std::nullopt;
  return grid;
}

bool is_exactly_the_grid(const CommMatrix& sym, const RecoveredGrid& grid) {
  const Rank n = sym.num_ranks();
  const auto axes = grid.axes();
  std::int64_t volume = 1;
  for (const auto l : grid.extent) {
    if (l < 1 || volume > n / l + 1) return false;
    volume *= l;
  }
  if (volume != n || static_cast<Rank>(grid.coordinates.size()) != n * static_cast<Rank>(axes)) return false;
  std::vector<char> used(static_cast<std::size_t>(n), 0);
  std::int64_t pairs = 0;
  const auto at = [&](Rank v, std::size_t k) { return grid.coordinates[static_cast<std::size_t>(v) * axes + k]; };
  for (Rank v = 0; v < n; ++v) {
    std::int64_t cell = 0;
    for (std::size_t k = axes; k-- > 0;) {
      if (at(v, k) < 0 || at(v, k) >= grid.extent[k]) return false;
      cell = cell * grid.extent[k] + at(v, k);
    }
    if (used[static_cast<std::size_t>(cell)]) return false;
    used[static_cast<std::size_t>(cell)] = 1;
    for (const auto u : sym.targets(v)) {
      std::int64_t steps = 0;
      for (std::size_t k = 0; k < axes; ++k) {
        auto step = std::abs(at(v, k) - at(u, k));
        if (grid.periodic) step = std::min(step, grid.extent[k] - step);
        steps += step;
      }
      if (steps != 1) return false;
      ++pairs;
    }
  }
  // Every edge of the grid is there: as many pairs as it has.
  std::int64_t edges = 0;
  for (std::size_t k = 0; k < axes; ++k) edges += (grid.extent[k] - (grid.periodic ? 0 : 1)) * (n / grid.extent[k]);
  return pairs == 2 * edges;
}

}  // namespace tmap::strategies
