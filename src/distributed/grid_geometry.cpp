#include "distributed/grid_geometry.hpp"

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <vector>

namespace tmap::dist {

namespace {

constexpr long long kUnreached = -1;

class Owners {
 public:
  Owners(MPI_Comm comm, Rank n) {
    MPI_Comm_size(comm, &size_);
    for (int p = 0; p <= size_; ++p) firsts_.push_back(block_first(n, p, size_));
  }
  [[nodiscard]] int of(long long v) const {
    return static_cast<int>(std::upper_bound(firsts_.begin(), firsts_.end(), v) - firsts_.begin()) - 1;
  }
  [[nodiscard]] int size() const noexcept { return size_; }

 private:
  int size_ = 1;
  std::vector<Rank> firsts_;
};

bool all(MPI_Comm comm, bool mine) {
  int local = mine ? 1 : 0;
  int every = 0;
  MPI_Allreduce(&local, &every, 1, MPI_INT, MPI_MIN, comm);
  return every == 1;
}

long long global_min(MPI_Comm comm, long long mine) {
  long long least = 0;
  MPI_Allreduce(&mine, &least, 1, MPI_LONG_LONG, MPI_MIN, comm);
  return least;
}

/// Breadth-first distances from `root` of this process's vertices, level
/// by level: the frontier's partners go to their owners in one all-to-all.
std::vector<long long> bfs(MPI_Comm comm, const LocalGraph& graph, const Owners& owners, long long root) {
  std::vector<long long> dist(static_cast<std::size_t>(graph.count()), kUnreached);
  std::vector<long long> frontier;
  if (root >= graph.first && root < graph.first + graph.count()) {
    dist[static_cast<std::size_t>(root - graph.first)] = 0;
    frontier.push_back(root);
  }
  for (long long level = 0;; ++level) {
    auto size = static_cast<long long>(frontier.size());
    long long total = 0;
    MPI_Allreduce(&size, &total, 1, MPI_LONG_LONG, MPI_SUM, comm);
    if (total == 0) break;
    std::vector<std::vector<long long>> outgoing(static_cast<std::size_t>(owners.size()));
    for (const auto v : frontier) {
      const auto local = static_cast<std::size_t>(v - graph.first);
      for (auto e = graph.offsets[local]; e < graph.offsets[local + 1]; ++e) {
        const auto u = graph.targets[static_cast<std::size_t>(e)];
        outgoing[static_cast<std::size_t>(owners.of(u))].push_back(u);
      }
    }
    frontier.clear();
    for (const auto u : send_to_owners(comm, outgoing)) {
      auto& d = dist[static_cast<std::size_t>(u - graph.first)];
      if (d != kUnreached) continue;
      d = level + 1;
      frontier.push_back(u);
    }
  }
  return dist;
}

}  // namespace

std::optional<strategies::RecoveredGrid> recover_grid(MPI_Comm comm, const LocalGraph& graph) {
  const Rank n = graph.n;
  if (n < 2) return std::nullopt;
  const Owners owners(comm, n);
  const auto degree = [&](Rank v) { return graph.offsets[static_cast<std::size_t>(v) + 1] - graph.offsets[v]; };
  long long least = std::numeric_limits<long long>::max();
  long long most = 0;
  for (Rank v = 0; v < graph.count(); ++v) {
    least = std::min<long long>(least, degree(v));
    most = std::max<long long>(most, degree(v));
  }
  least = global_min(comm, least);
  most = -global_min(comm, -most);
  // Periodic stencils (no corner) are recovered by the sequential path only.
  if (least < 1 || least > 3 || (least == most && least % 2 == 0)) return std::nullopt;
  const auto axes = static_cast<std::size_t>(least);

  // The corner: the lowest rank of least degree; its partners, everywhere.
  long long mine = std::numeric_limits<long long>::max();
  for (Rank v = 0; v < graph.count() && mine == std::numeric_limits<long long>::max(); ++v) {
    if (degree(v) == least) mine = graph.first + v;
  }
  const auto c0 = global_min(comm, mine);
  std::vector<long long> first_steps(axes, 0);
  if (c0 >= graph.first && c0 < graph.first + graph.count()) {
    const auto local = static_cast<std::size_t>(c0 - graph.first);
    for (std::size_t k = 0; k < axes; ++k) {
      first_steps[k] = graph.targets[static_cast<std::size_t>(graph.offsets[local]) + k];
    }
  }
  MPI_Bcast(first_steps.data(), static_cast<int>(axes), MPI_LONG_LONG, owners.of(c0), comm);

  const auto from_c0 = bfs(comm, graph, owners, c0);
  if (!all(comm, std::find(from_c0.begin(), from_c0.end(), kUnreached) == from_c0.end())) return std::nullopt;
  std::vector<std::vector<long long>> from_step;
  from_step.reserve(axes);
  for (const auto s : first_steps) from_step.push_back(bfs(comm, graph, owners, s));

  // Coordinate k of this process's vertices from c0 and axis k's far corner.
  std::vector<long long> local_coordinates(static_cast<std::size_t>(graph.count()) * axes, 0);
  strategies::RecoveredGrid grid;
  for (std::size_t k = 0; k < axes; ++k) {
    // The nearest corner one step closer to the k-th first step and one
    // farther from the others (ties: the lowest rank), as (distance, rank).
    long long best = std::numeric_limits<long long>::max();
    for (Rank v = 0; v < graph.count(); ++v) {
      const auto e = graph.first + v;
      if (e == c0 || degree(v) != least) continue;
      const auto d0 = from_c0[static_cast<std::size_t>(v)];
      bool on_axis = from_step[k][static_cast<std::size_t>(v)] == d0 - 1;
      for (std::size_t j = 0; j < axes && on_axis; ++j) {
        if (j != k && from_step[j][static_cast<std::size_t>(v)] != d0 + 1) on_axis = false;
      }
      if (on_axis) best = std::min(best, d0 * n + e);
    }
    best = global_min(comm, best);
    if (best == std::numeric_limits<long long>::max()) return std::nullopt;
    const auto far = best % n;
    const auto length = best / n + 1;
    grid.extent.push_back(length);
    const auto from_far = bfs(comm, graph, owners, far);
    bool fine = true;
    for (Rank v = 0; v < graph.count(); ++v) {
      const auto twice = from_c0[static_cast<std::size_t>(v)] - from_far[static_cast<std::size_t>(v)] + length - 1;
      if (twice < 0 || twice % 2 != 0 || twice / 2 >= length) fine = false;
      local_coordinates[static_cast<std::size_t>(v) * axes + k] = twice / 2;
    }
    if (!all(comm, fine)) return std::nullopt;
  }

  // Every coordinate everywhere (block order is rank order).
  const auto gathered = all_gather(comm, local_coordinates);
  grid.coordinates.assign(gathered.begin(), gathered.end());

  // Exactly the grid: a bijection onto the box (every process checks the
  // whole, O(n)), and every pair of this process one step apart, counted.
  std::int64_t volume = 1;
  for (const auto l : grid.extent) {
    if (l < 1 || volume > n / l + 1) return std::nullopt;
    volume *= l;
  }
  if (volume != n) return std::nullopt;
  std::vector<char> used(static_cast<std::size_t>(n), 0);
  for (Rank v = 0; v < n; ++v) {
    std::int64_t cell = 0;
    for (std::size_t k = axes; k-- > 0;)
      cell = cell * grid.extent[k] + grid.coordinates[static_cast<std::size_t>(v) * axes + k];
    if (used[static_cast<std::size_t>(cell)] != 0) return std::nullopt;  // the same on every process
    used[static_cast<std::size_t>(cell)] = 1;
  }
  bool steps_fine = true;
  long long pairs = 0;
  for (Rank v = 0; v < graph.count() && steps_fine; ++v) {
    const auto a = static_cast<std::size_t>(graph.first + v) * axes;
    for (auto e = graph.offsets[static_cast<std::size_t>(v)]; e < graph.offsets[static_cast<std::size_t>(v) + 1]; ++e) {
      const auto b = static_cast<std::size_t>(graph.targets[static_cast<std::size_t>(e)]) * axes;
      std::int64_t steps = 0;
      for (std::size_t k = 0; k < axes; ++k) steps += std::abs(grid.coordinates[a + k] - grid.coordinates[b + k]);
      if (steps != 1) steps_fine = false;
      ++pairs;
    }
  }
  if (!all(comm, steps_fine)) return std::nullopt;
  long long all_pairs = 0;
  MPI_Allreduce(&pairs, &all_pairs, 1, MPI_LONG_LONG, MPI_SUM, comm);
  std::int64_t edges = 0;
  for (std::size_t k = 0; k < axes; ++k) edges += (grid.extent[k] - 1) * (n / grid.extent[k]);
  if (all_pairs != 2 * edges) return std::nullopt;
  return grid;
}

}  // namespace tmap::dist
