#include "strategies/geometric/block_layout.hpp"

#include <cmath>
#include <limits>
#include <map>
#include <tuple>
#include <vector>

namespace tmap::strategies {

namespace {

/// A layout must cost this much less than the halves' to replace them.
constexpr double kBetterBy = 0.005;

using Extents = std::array<double, 3>;

class LayoutSearch {
 public:
  LayoutSearch(std::span<const double> shares, const Extents& axis_volumes) : volume_(axis_volumes) {
    prefix_.push_back(0.0);
    for (const double s : shares) prefix_.push_back(prefix_.back() + s);
  }

  [[nodiscard]] std::size_t parts() const { return prefix_.size() - 1; }

  /// The cost of splitting parts [i, j) of a box `e` at `mid` across `axis`,
  /// each side then laid out at its least cost; infinite where the axis is
  /// less than two points long.
  double split_cost(std::size_t i, std::size_t j, const Extents& e, std::size_t mid, std::size_t axis) {
    if (e[axis] < 2.0) return std::numeric_limits<double>::infinity();
    const double f = (prefix_[mid] - prefix_[i]) / (prefix_[j] - prefix_[i]);
    double plane = volume_[axis];
    for (std::size_t k = 0; k < 3; ++k) {
      if (k != axis) plane *= e[k];
    }
    Extents first = e;
    Extents second = e;
    first[axis] *= f;
    second[axis] *= 1.0 - f;
    return plane + least(i, mid, first) + least(mid, j, second);
  }

  /// The least cost of laying out parts [i, j) in a box `e`.
  double least(std::size_t i, std::size_t j, const Extents& e) {
    if (j - i <= 1) return 0.0;
    const auto key =
        std::make_tuple(i, j, std::llround(e[0] * 1024), std::llround(e[1] * 1024), std::llround(e[2] * 1024));
    if (const auto it = memo_.find(key); it != memo_.end()) return it->second;
    double best = std::numeric_limits<double>::infinity();
    for (std::size_t mid = i + 1; mid < j; ++mid) {
      for (std::size_t axis = 0; axis < 3; ++axis) best = std::min(best, split_cost(i, j, e, mid, axis));
    }
    if (!std::isfinite(best)) best = 0.0;  // too small to cut: points, not planes
    memo_.emplace(key, best);
    return best;
  }

 private:
  Extents volume_;
  std::vector<double> prefix_;
  std::map<std::tuple<std::size_t, std::size_t, long long, long long, long long>, double> memo_;
};

}  // namespace

BlockSplit best_block_split(std::span<const double> shares, const std::array<double, 3>& extents,
                            const std::array<double, 3>& axis_volumes, BlockSplit halves) {
  if (shares.size() <= 2 || shares.size() > kLaidOutChildren) return halves;
  LayoutSearch search(shares, axis_volumes);
  const auto n = search.parts();
  const double kept = search.split_cost(0, n, extents, halves.mid, halves.axis);
  BlockSplit best = halves;
  double best_cost = kept;
  for (std::size_t mid = 1; mid < n; ++mid) {
    for (std::size_t axis = 0; axis < 3; ++axis) {
      const double cost = search.split_cost(0, n, extents, mid, axis);
      if (cost < best_cost) {
        best_cost = cost;
        best = {mid, axis};
      }
    }
  }
  return std::isfinite(kept) && best_cost < kept * (1.0 - kBetterBy) ? best : halves;
}

}  // namespace tmap::strategies
