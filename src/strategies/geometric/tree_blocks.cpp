// A stencil's grid cut into blocks along a tree machine: recursive
// coordinate bisection whose cuts follow the tree. At each subtree the
// ranks are dealt to its children as treematch's top-down split deals them
// (the children with the most room filled first), the children are halved
// (in tree order) and the grid points cut in two of those sizes by a plane
// across the longest side of their bounding box, whose staircase (a size
// that is no multiple of a plane) FM passes mend in small sets; down to
// single PEs. On a 128x128x64 grid and a tleaf of 4,096 racks of 4 nodes
// of 64 cores, each node gets a 4x4x4 block and each rack 8x8x4: the
// hop-bytes of treematch's grouping (4.096e10) in O(ranks x log PEs)
// instead of its multilevel partitions. The grid comes from recover_grid,
// so any rank order. Ranks of unequal weight balanced by load (--imbalance)
// are cut by weight instead: each half of the children gets the points'
// weight in proportion to its PEs (auto's by-load path then brings every
// PE within its limit and moves ranks).
#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "strategies/common/bisection.hpp"
#include "strategies/common/settle_in_nodes.hpp"
#include "strategies/common/tree_order.hpp"
#include "strategies/geometric/block_layout.hpp"
#include "strategies/geometric/geometric.hpp"
#include "strategies/geometric/lattice.hpp"
#include "tmap/comm_matrix.hpp"
#include "tmap/error.hpp"
#include "tmap/mapping.hpp"
#include "tmap/topology_views.hpp"
#include "util/int128.hpp"
#include "util/parallel.hpp"

namespace tmap::strategies {

namespace {

/// A rank at its grid point (missing axes 0): the cuts reorder these in
/// place, so each part's points stay contiguous in memory.
struct Point {
  std::array<std::int32_t, 3> at;
  Rank rank;
};

/// The mean volume a pair one step apart along each axis sends.
using AxisVolumes = std::array<double, 3>;

/// Parts below this many points are cut on the thread that made them.
constexpr std::size_t kSmallestParallelPart = 65536;

/// Sets of at most this many points have their plane refined by
/// Fiduccia-Mattheyses passes on the traffic: where a part's size is no
/// multiple of a plane (nodes of 24 or 48 cores) the plane's staircase
/// costs; most of the cuts are made in small sets.
constexpr std::size_t kRefinedSet = 1024;

/// FM passes on each refined cut.
constexpr int kRefinePasses = 8;

/// Fewest points of a child that its subtree's layout is searched for
/// (block_layout.hpp); below, halves across the longest side.
constexpr double kLaidOutPoints = 1024;

/// Axes whose points a part orders from the highest coordinate down (bit k:
/// axis k), so that a part's first child lies on that side.
using Flips = std::uint8_t;
constexpr Flips kEveryAxis = 0b111;

class BlockPlacer {
 public:
  /// `weights`: each rank's, when the cuts go by weight; empty: by count.
  /// `serpentine`: each cut's second half laid out mirrored (see split).
  BlockPlacer(const CommMatrix& pattern, const TreeOrder& order, std::vector<std::int32_t> depths,
              std::int64_t capacity, std::span<const Volume> weights, const AxisVolumes& axis_volumes, bool serpentine,
              Mapping& mapping)
      : pattern_(pattern),
        order_(order),
        depths_(std::move(depths)),
        capacity_(capacity),
        weights_(weights),
        axis_volumes_(axis_volumes),
        serpentine_(serpentine),
        mapping_(mapping) {}

  /// The points onto the PEs order_.pes[lo, hi), a subtree (or the whole
  /// allowed set), `budget` threads, the axes `flips` ordered downwards.
  void place(std::size_t lo, std::size_t hi, std::span<Point> points, int budget, Flips flips) {
    if (points.empty()) return;
    if (hi - lo == 1) {
      for (const auto& p : points) mapping_[static_cast<std::size_t>(p.rank)] = order_.pes[lo];
      return;
    }
    // The range's children: runs between its shallowest branch points.
    const auto depth = *std::min_element(depths_.begin() + static_cast<std::ptrdiff_t>(lo) + 1,
                                         depths_.begin() + static_cast<std::ptrdiff_t>(hi));
    std::vector<TreeChild> children;
    for (std::size_t k = lo; k < hi;) {
      std::size_t end = k + 1;
      while (end < hi && depths_[end] != depth) ++end;
      children.push_back({k, end, 0});
      k = end;
    }
    if (!weights_.empty()) {  // by weight: every PE takes its share (sizes unused)
      split(children, 0, children.size(), points, budget, flips);
      return;
    }
    deal_most_room_first(children, static_cast<std::int64_t>(points.size()), capacity_);
    std::erase_if(children, [](const TreeChild& c) { return c.size == 0; });
    if (std::ranges::all_of(children, [](const TreeChild& c) { return c.hi - c.lo == 1 && c.size == 1; })) {
      // One point per PE of one parent: every pair is the parent's distance
      // apart whichever goes where (treematch's shortcut too). Most of the
      // cuts were these, and no cut of them can cost less.
      for (std::size_t k = 0; k < children.size(); ++k) {
        mapping_[static_cast<std::size_t>(points[k].rank)] = order_.pes[children[k].lo];
      }
      return;
    }
    split(children, 0, children.size(), points, budget, flips);
  }

 private:
  /// children[first, last) get the points, in two halves of children.
  void split(const std::vector<TreeChild>& children, std::size_t first, std::size_t last, std::span<Point> points,
             int budget, Flips flips) {
    if (last - first == 1) {
      place(children[first].lo, children[first].hi, points, budget, flips);
      return;
    }
    Across across(points, axis_volumes_, flips);
    const std::size_t mid = first + lay_out(children, first, last, points, across);
    std::size_t size = 0;
    if (weights_.empty()) {
      for (std::size_t k = first; k < mid; ++k) size += static_cast<std::size_t>(children[k].size);
      const bool planes = cut(points, size, across);
      if (!planes && points.size() <= kRefinedSet) refine(points, size);
    } else {
      size = cut_by_weight(points, children[first].lo, children[mid].lo, children[last - 1].hi, across);
    }
    const auto a = points.first(size);
    const auto b = points.subspan(size);
    // Serpentine: the second half runs back along the other axes, so that
    // the children that follow one another in tree order lie side by side
    // across every cut (on a fat tree, the nodes facing a neighbouring
    // switch alternate, and so do the uplinks routes to them take).
    const Flips second = serpentine_ ? static_cast<Flips>(flips ^ (kEveryAxis & ~(1U << across.axis))) : flips;
    detail::run_both(
        budget > 1 && std::min(a.size(), b.size()) >= kSmallestParallelPart,
        [&] { split(children, first, mid, a, budget - budget / 2, flips); },
        [&] { split(children, mid, last, b, std::max(1, budget / 2), second); });
  }

  /// The points' bounding box and the order across the side a plane cuts
  /// the least traffic across: a plane across axis k of a box of extents
  /// e cuts (e_0 e_1 e_2 / e_k) pairs of the axis, each sending its mean
  /// volume w_k, so the axis of the largest e_k / w_k (equal volumes: the
  /// longest side; ties to the lower axis).
  struct Across {
    std::array<std::int32_t, 3> low;
    std::array<std::int32_t, 3> high;
    std::size_t axis = 0;
    Flips flips = 0;

    Across(std::span<const Point> points, const AxisVolumes& volume, Flips flipped)
        : low(points.front().at), high(low), flips(flipped) {
      for (const auto& p : points) {
        for (std::size_t k = 0; k < 3; ++k) {
          low[k] = std::min(low[k], p.at[k]);
          high[k] = std::max(high[k], p.at[k]);
        }
      }
      const auto extent = [&](std::size_t k) { return static_cast<double>(high[k] - low[k] + 1); };
      for (std::size_t k = 1; k < 3; ++k) {
        if (high[k] == low[k]) continue;  // one plane: nothing to cut across
        if (high[axis] == low[axis] || extent(k) * volume[axis] > extent(axis) * volume[k]) axis = k;
      }
    }
    /// Along the axis, ties by the next axes (a staircase); downwards
    /// along the flipped axes.
    bool operator()(const Point& x, const Point& y) const {
      for (std::size_t k = 0; k < 3; ++k) {
        const auto a = (axis + k) % 3;
        if (x.at[a] != y.at[a]) return ((flips >> a) & 1U) != 0 ? x.at[a] > y.at[a] : x.at[a] < y.at[a];
      }
      return false;
    }
  };

  /// Where children[first, last) split (the first run's length) and the
  /// axis `across` cuts: halves across its side, unless another split and
  /// axis lay the children out with less cut (block_layout.hpp).
  [[nodiscard]] std::size_t lay_out(const std::vector<TreeChild>& children, std::size_t first, std::size_t last,
                                    std::span<const Point> points, Across& across) const {
    const std::size_t count = last - first;
    // Ranks of unequal weight balanced by load only, where auto keeps the
    // least of its by-load candidates. By count the blocks are kept alone,
    // and there a 512x256 grid at 2,048 ranks a PE onto 4:8:2 had 2.6 %
    // fewer hop-bytes but 13.8 % more predicted time (a row of 2 parts
    // sends more across its longest side than any 2x4 block).
    if (weights_.empty() || count <= 2 || count > kLaidOutChildren) return count / 2;
    // By weight each child's share is its PEs' (as cut_by_weight gives it).
    std::vector<double> shares;
    for (std::size_t k = first; k < last; ++k) shares.push_back(static_cast<double>(children[k].hi - children[k].lo));
    std::array<double, 3> extents{};
    std::size_t axes = 0;
    for (std::size_t k = 0; k < 3; ++k) {
      extents[k] = static_cast<double>(across.high[k] - across.low[k] + 1);
      axes += extents[k] > 1.0 ? 1 : 0;
    }
    // Planar grids only: on 3D stencils the search's layouts changed the
    // blocks of 16,384-rank stencils on a tleaf for the worse (the same
    // hop-bytes or 1.1 % more, 9-13 % more predicted time), where halves
    // make cubes already. And large parts only: the search's boxes are
    // continuous, parts of a few dozen points are staircases (2D grids on
    // racks of 96 cores: up to 2.4 % more hop-bytes).
    if (axes != 2) return count / 2;
    double total = 0;
    for (const double share : shares) total += share;
    const double smallest = *std::min_element(shares.begin(), shares.end());
    if (static_cast<double>(points.size()) * smallest < kLaidOutPoints * total) return count / 2;
    const auto chosen = best_block_split(shares, extents, axis_volumes_, {count / 2, across.axis});
    across.axis = chosen.axis;
    return chosen.mid;
  }

  /// The `size` points first in `across`'s order: lowest (highest where
  /// flipped) along the side of the points' bounding box it cuts (ties: by
  /// the next axes, a staircase when the cut is not a whole plane). The
  /// points' coordinates are distinct, so the first part is one set
  /// whatever the algorithm does with ties. True when the points fill
  /// their box and the cut is whole planes of it: no staircase for the
  /// refinement to mend, which is then skipped.
  [[nodiscard]] static bool cut(std::span<Point> points, std::size_t size, const Across& across) {
    std::nth_element(points.begin(), points.begin() + static_cast<std::ptrdiff_t>(size), points.end(), across);
    std::size_t volume = 1;
    for (std::size_t k = 0; k < 3; ++k) volume *= static_cast<std::size_t>(across.high[k] - across.low[k] + 1);
    const auto plane = volume / static_cast<std::size_t>(across.high[across.axis] - across.low[across.axis] + 1);
    return volume == points.size() && size % plane == 0;
  }

  /// The same cut by weight for the PEs order_.pes[lo, hi), the first
  /// half [lo, mid): the points in order across the longest side, the
  /// first part the prefix whose weight is nearest the first half's share
  /// (its PEs' part of the whole; ties: the shorter prefix, points of no
  /// weight before it included). Returns its size.
  [[nodiscard]] std::size_t cut_by_weight(std::span<Point> points, std::size_t lo, std::size_t mid, std::size_t hi,
                                          const Across& across) const {
    std::sort(points.begin(), points.end(), across);
    detail::Int128 total = 0;
    for (const auto& p : points) total += weights_[static_cast<std::size_t>(p.rank)];
    const auto share = total * static_cast<detail::Int128>(mid - lo);  // the target, times the PEs (hi - lo)
    const auto pes = static_cast<detail::Int128>(hi - lo);
    const auto off = [&](detail::Int128 prefix) {
      const auto d = prefix * pes - share;
      return d < 0 ? -d : d;
    };
    const auto weight = [&](std::size_t k) { return weights_[static_cast<std::size_t>(points[k].rank)]; };
    // The longest prefix not above the share, then one more point if that
    // comes nearer.
    detail::Int128 prefix = 0;
    std::size_t size = 0;
    while (size < points.size() && (prefix + weight(size)) * pes <= share) prefix += weight(size++);
    if (size < points.size() && off(prefix + weight(size)) < off(prefix)) ++size;
    return size;
  }

  /// The plane cut of `points` (the first `size` one side) moved by FM
  /// passes (the sizes kept), the first side first again.
  void refine(std::span<Point> points, std::size_t size) const {
    std::vector<Rank> ranks(points.size());
    std::vector<char> side(points.size());
    for (std::size_t k = 0; k < points.size(); ++k) {
      ranks[k] = points[k].rank;
      side[k] = k < size ? 0 : 1;
    }
    const auto [before, after] = refine_split(pattern_, ranks, side, kRefinePasses);
    if (after >= before) return;
    std::vector<Point> sorted(points.begin(), points.end());
    std::size_t first = 0;
    std::size_t second = size;
    for (std::size_t k = 0; k < sorted.size(); ++k) points[side[k] == 0 ? first++ : second++] = sorted[k];
  }

  const CommMatrix& pattern_;
  const TreeOrder& order_;
  std::vector<std::int32_t> depths_;
  std::int64_t capacity_;
  std::span<const Volume> weights_;
  AxisVolumes axis_volumes_;
  bool serpentine_;
  Mapping& mapping_;
};

/// Every pair of the traffic sends the same volume.
bool all_alike(const CommMatrix& pattern) {
  const auto all = pattern.all_volumes();
  return std::ranges::all_of(all, [&](Volume v) { return v == all.front(); });
}

/// What the pairs one step apart along each axis of the grid send: from
/// each rank's row, the axis its partner is on (the one coordinate that
/// differs).
struct AxisTraffic {
  std::array<double, 3> sum{};
  std::array<double, 3> pairs{};
  std::array<Volume, 3> lowest{-1, -1, -1};
  std::array<Volume, 3> highest{-1, -1, -1};
};

AxisTraffic axis_traffic(const CommMatrix& pattern, const RecoveredGrid& grid) {
  const auto axes = grid.axes();
  AxisTraffic traffic;
  for (Rank r = 0; r < pattern.num_ranks(); ++r) {
    const auto targets = pattern.targets(r);
    const auto volumes = pattern.volumes(r);
    const auto* here = grid.coordinates.data() + static_cast<std::size_t>(r) * axes;
    for (std::size_t e = 0; e < targets.size(); ++e) {
      const auto* there = grid.coordinates.data() + static_cast<std::size_t>(targets[e]) * axes;
      for (std::size_t k = 0; k < axes; ++k) {
        if (there[k] == here[k]) continue;
        traffic.sum[k] += static_cast<double>(volumes[e]);
        traffic.pairs[k] += 1;
        traffic.lowest[k] = traffic.lowest[k] < 0 ? volumes[e] : std::min(traffic.lowest[k], volumes[e]);
        traffic.highest[k] = std::max(traffic.highest[k], volumes[e]);
        break;
      }
    }
  }
  return traffic;
}

/// The mean volume the pairs along each axis send (1 on an axis without
/// pairs). All 1 when every pair sends the same (the longest side exactly,
/// with no rounding between axes, and no walk of the traffic).
AxisVolumes mean_axis_volumes(const CommMatrix& pattern, const RecoveredGrid& grid) {
  if (all_alike(pattern)) return {1, 1, 1};
  const auto traffic = axis_traffic(pattern, grid);
  AxisVolumes mean{1, 1, 1};
  for (std::size_t k = 0; k < 3; ++k) {
    if (traffic.pairs[k] > 0) mean[k] = traffic.sum[k] / traffic.pairs[k];
  }
  return mean;
}

/// A periodic 2D lattice whose periods are the sides of a box (NPB BT's
/// and SP's triangular lattice of x, y and one diagonal, a periodic 5-point
/// stencil): its coordinates in the box, as a periodic grid whose pairs
/// one step apart along the diagonal count as along x. Nothing for another
/// traffic or a sheared lattice.
std::optional<RecoveredGrid> lattice_box(const CommMatrix& pattern) {
  const auto lattice = recover_lattice(pattern);
  if (!lattice) return std::nullopt;
  const auto& periods = lattice->periods;
  if (periods.b != 0) return std::nullopt;
  RecoveredGrid grid;
  grid.extent = {periods.a, periods.d};
  grid.periodic = true;
  grid.coordinates.reserve(lattice->x.size() * 2);
  for (std::size_t r = 0; r < lattice->x.size(); ++r) {
    grid.coordinates.push_back(((lattice->x[r] % periods.a) + periods.a) % periods.a);
    grid.coordinates.push_back(((lattice->y[r] % periods.d) + periods.d) % periods.d);
  }
  return grid;
}

}  // namespace

std::optional<RecoveredGrid> grid_for_blocks(const Problem& problem, const CommMatrix& pattern, std::string& why,
                                             TreePaths paths) {
  const auto& constraints = problem.constraints;
  if (problem.comm.num_ranks() > constraints.num_slots()) {
    why = "more ranks than slots";
    return std::nullopt;
  }
  // The machine at its first PE (O(1)), then the traffic (O(pairs)).
  const auto allowed = constraints.allowed_pes();
  std::vector<std::int64_t> path;
  const bool has_paths =
      !allowed.empty() && (paths == TreePaths::Tree ? tree_path(problem.topology, allowed.front(), path)
                                                    : group_path(problem.topology, allowed.front(), path));
  if (!has_paths) {
    why = paths == TreePaths::Tree ? "the machine is not a tree" : "the machine's network is not a tree";
    return std::nullopt;
  }
  auto grid = recover_grid(pattern);
  if (!grid && paths == TreePaths::Groups) grid = lattice_box(pattern);
  if (!grid) {
    why = "the traffic is not a 1D, 2D or 3D grid (a 3-, 5- or 7-point stencil, periodic axes at least 5 long)";
    return std::nullopt;
  }
  why = fmt::format("the traffic is a {} {}grid, cut in blocks along the {}", fmt::join(grid->extent, "x"),
                    grid->periodic ? "periodic " : "",
                    paths == TreePaths::Tree ? "tree" : "network's tree and nodes, serpentine");
  return grid;
}

Mapping cut_in_blocks(const Problem& problem, const CommMatrix& pattern, const RecoveredGrid& grid, const Run& context,
                      TreePaths paths) {
  const auto& constraints = problem.constraints;
  auto order = tree_order(problem.topology, constraints.allowed_pes(), paths);
  if (!order) throw InternalError("cut_in_blocks: the machine is not a tree (grid_for_blocks checks its first PE)");
  const auto n = problem.comm.num_ranks();
  std::vector<Point> points(static_cast<std::size_t>(n));
  const auto axes = grid.axes();
  for (std::size_t r = 0; r < points.size(); ++r) {
    points[r].rank = static_cast<Rank>(r);
    points[r].at = {0, 0, 0};
    for (std::size_t k = 0; k < axes; ++k) points[r].at[k] = static_cast<std::int32_t>(grid.coordinates[r * axes + k]);
  }
  // The cuts need the PEs and where their paths branch, not the paths
  // (47 MB at a million PEs).
  auto depths = branch_depths(*order);
  order->values = {};
  order->offsets = {};
  Mapping mapping(static_cast<std::size_t>(n), -1);
  const auto weights =
      balances_load(problem.comm.rank_weights(), constraints) ? problem.comm.rank_weights() : std::span<const Volume>{};
  const auto axis_volumes = mean_axis_volumes(pattern, grid);
  BlockPlacer(pattern, *order, std::move(depths), constraints.capacity(), weights, axis_volumes,
              paths == TreePaths::Groups, mapping)
      .place(0, order->pes.size(), points, std::max(1, context.threads), 0);
  // By groups a GPU node is one flat level, its GPUs' links are not.
  if (paths == TreePaths::Groups && constraints.capacity() == 1) {
    settle_in_nodes(pattern, problem.topology, constraints.allowed_pes(), mapping);
  }
  return mapping;
}

bool sends_alike_along_each_axis(const CommMatrix& pattern, const RecoveredGrid& grid) {
  if (all_alike(pattern)) return true;
  const auto traffic = axis_traffic(pattern, grid);
  for (std::size_t k = 0; k < 3; ++k) {
    if (traffic.lowest[k] != traffic.highest[k]) return false;
  }
  return true;
}

std::optional<Mapping> lay_out_blocks(const Problem& problem, const CommMatrix& pattern, const Run& context,
                                      std::string& why) {
  const auto grid = grid_for_blocks(problem, pattern, why);
  if (!grid) return std::nullopt;
  return cut_in_blocks(problem, pattern, *grid, context);
}

}  // namespace tmap::strategies
