#include "strategies/rb/rb.hpp"

#include <algorithm>
#include <numeric>

#include "strategies/common/bisection.hpp"
#include "tmap/comm_matrix.hpp"
#include "tmap/error.hpp"
#include "tmap/topology.hpp"
#include "tmap/topology_views.hpp"
#include "util/int128.hpp"

namespace tmap::strategies {

namespace {

/// Recursive coordinate bisection of items [lo, hi) along their widest
/// axis, halves split at lo + (hi - lo + 1) / 2: afterwards every range the
/// same recursion visits is a box of the grid.
void coordinate_bisection(std::vector<PE>& items, std::size_t lo, std::size_t hi,
                          const std::vector<std::vector<std::int64_t>>& coords, std::vector<std::size_t>& index_of) {
  if (hi - lo < 2) return;
  std::size_t axis = 0;
  std::int64_t widest = -1;
  for (std::size_t d = 0; d < coords[index_of[items[lo]]].size(); ++d) {
    std::int64_t low = coords[index_of[items[lo]]][d];
    std::int64_t high = low;
    for (std::size_t k = lo; k < hi; ++k) {
      low = std::min(low, coords[index_of[items[k]]][d]);
      high = std::max(high, coords[index_of[items[k]]][d]);
    }
    if (high - low > widest) {
      widest = high - low;
      axis = d;
    }
  }
  std::stable_sort(items.begin() + static_cast<std::ptrdiff_t>(lo), items.begin() + static_cast<std::ptrdiff_t>(hi),
                   [&](PE a, PE b) { return coords[index_of[a]][axis] < coords[index_of[b]][axis]; });
  const std::size_t mid = lo + (hi - lo + 1) / 2;
  coordinate_bisection(items, lo, mid, coords, index_of);
  coordinate_bisection(items, mid, hi, coords, index_of);
}

/// The allowed PEs in the order the machine is cut: coordinate bisection on
/// grids, else the topology's numbering.
std::vector<PE> machine_order(const Topology& topology, std::span<const PE> allowed, bool& on_grid) {
  std::vector<PE> order(allowed.begin(), allowed.end());
  std::vector<std::vector<std::int64_t>> coords(order.size());
  on_grid = true;
  for (std::size_t k = 0; k < order.size() && on_grid; ++k) on_grid = grid_coordinates(topology, order[k], coords[k]);
  if (!on_grid) return order;
  // coords[k] belongs to the k-th given PE.
  std::vector<std::size_t> index_of(static_cast<std::size_t>(topology.size()), 0);
  for (std::size_t k = 0; k < order.size(); ++k) index_of[static_cast<std::size_t>(order[k])] = k;
  coordinate_bisection(order, 0, order.size(), coords, index_of);
  return order;
}

class Bisector {
 public:
  /// `load_limit` > 0: ranks split by weight, each PE holding at most that
  /// much (ranks of unequal weight balanced by load); else by count.
  Bisector(const CommMatrix& sym, const Topology& topology, std::vector<PE> order, bool on_grid, std::int64_t capacity,
           int passes, Mapping& mapping, Volume load_limit = 0, WeightedCut cut = {})
      : sym_(sym),
        topology_(topology),
        order_(std::move(order)),
        on_grid_(on_grid),
        capacity_(capacity),
        passes_(passes),
        mapping_(mapping),
        region_lo_(mapping.size(), 0),
        region_hi_(mapping.size(), order_.size()),
        load_limit_(load_limit),
        cut_(cut) {}

  /// Places `ranks` (at most (hi - lo) x capacity of them) on order_[lo, hi).
  void place(std::size_t lo, std::size_t hi, const std::vector<Rank>& ranks) {
    if (ranks.empty()) return;
    if (hi - lo == 1) {
      for (const Rank r : ranks) mapping_[r] = order_[lo];
      return;
    }
    const auto mid = split_point(lo, hi);
    if (load_limit_ > 0) {
      place_by_load(lo, mid, hi, ranks);
      return;
    }
    const auto n = static_cast<std::int64_t>(ranks.size());
    const auto room_left = static_cast<std::int64_t>(mid - lo) * capacity_;
    const auto room_right = static_cast<std::int64_t>(hi - mid) * capacity_;
    // Ranks in proportion to the slots, within what each half holds (a
    // region of two or more PEs, each of capacity >= 1, has room).
    const auto room = room_left + room_right;
    if (room <= 0) throw InternalError("rb: a region of PEs without slots");
    auto first = (n * room_left + room / 2) / room;
    first = std::clamp(first, std::max<std::int64_t>(0, n - room_right), std::min(n, room_left));
    auto [left, right] = bisect(sym_, ranks, first, passes_);
    // Which part goes to which half: the one that talks more with ranks
    // already sent to the far side goes nearer to them (plain recursive
    // bisection leaves this to chance, and a path cut in four then folds).
    if (static_cast<std::int64_t>(left.size()) <= room_right && static_cast<std::int64_t>(right.size()) <= room_left &&
        outside_cost(right, lo, mid) + outside_cost(left, mid, hi) <
            outside_cost(left, lo, mid) + outside_cost(right, mid, hi)) {
      std::swap(left, right);
    }
    descend(lo, mid, hi, left, right);
  }

 private:
  void descend(std::size_t lo, std::size_t mid, std::size_t hi, const std::vector<Rank>& left,
               const std::vector<Rank>& right) {
    for (const Rank r : left) region_hi_[static_cast<std::size_t>(r)] = mid;
    for (const Rank r : right) region_lo_[static_cast<std::size_t>(r)] = mid;
    place(lo, mid, left);
    place(mid, hi, right);
  }

  [[nodiscard]] Volume weight_of(const std::vector<Rank>& ranks) const {
    Volume total = 0;
    for (const Rank r : ranks) total += sym_.rank_weight(r);
    return total;
  }

  /// place() by weight: the halves get weight in proportion to their PEs,
  /// each within what its PEs may hold; the slack between is spread over
  /// the cuts still to come (a cut of k PEs has ceil(log2 k) below it), so
  /// the last cuts keep some.
  void place_by_load(std::size_t lo, std::size_t mid, std::size_t hi, const std::vector<Rank>& ranks) {
    const auto k_left = static_cast<Volume>(mid - lo);
    const auto k = std::max<Volume>(2, static_cast<Volume>(hi - lo));  // place() cuts regions of 2+ PEs
    const Volume total = weight_of(ranks);
    const auto target = static_cast<Volume>((static_cast<detail::Int128>(total) * k_left + k / 2) / k);
    const Volume room_left = k_left * load_limit_;
    const Volume room_right = (k - k_left) * load_limit_;
    const Volume slack = std::max<Volume>(0, std::min(room_left - target, target - (total - room_right)));
    int cuts = 0;
    while ((Volume{1} << cuts) < k) ++cuts;
    auto [left, right] = bisect_by_weight(sym_, ranks, target, slack / std::max(1, cuts), cut_);
    if (weight_of(left) <= room_right && weight_of(right) <= room_left &&
        outside_cost(right, lo, mid) + outside_cost(left, mid, hi) <
            outside_cost(left, lo, mid) + outside_cost(right, mid, hi)) {
      std::swap(left, right);
    }
    descend(lo, mid, hi, left, right);
  }

  /// The traffic of `part` with ranks outside the current set, times the
  /// distance from the middle of order_[lo, hi) to the middle of where
  /// each partner is bound (its current region).
  [[nodiscard]] detail::Int128 outside_cost(const std::vector<Rank>& part, std::size_t lo, std::size_t hi) const {
    const PE here = order_[lo + (hi - lo) / 2];
    detail::Int128 sum = 0;
    for (const Rank r : part) {
      const auto targets = sym_.targets(r);
      const auto volumes = sym_.volumes(r);
      for (std::size_t e = 0; e < targets.size(); ++e) {
        const auto t = static_cast<std::size_t>(targets[e]);
        const auto rlo = region_lo_[t];
        const auto rhi = region_hi_[t];
        if (rlo <= lo && hi <= rhi) continue;  // inside the set being cut
        sum += static_cast<detail::Int128>(volumes[e]) * topology_.distance(here, order_[rlo + (rhi - rlo) / 2]);
      }
    }
    return sum;
  }

  /// Where [lo, hi) is cut: the coordinate bisection's middle on grids,
  /// else the node boundary nearest the middle (the middle within a node).
  [[nodiscard]] std::size_t split_point(std::size_t lo, std::size_t hi) const {
    const std::size_t mid = lo + (hi - lo + 1) / 2;
    if (on_grid_) return mid;
    std::size_t best = mid;
    std::size_t best_offset = hi;  // none found yet
    for (std::size_t k = lo + 1; k < hi; ++k) {
      if (topology_.node_of(order_[k]) == topology_.node_of(order_[k - 1])) continue;
      const auto offset = k > mid ? k - mid : mid - k;
      if (offset < best_offset) {
        best = k;
        best_offset = offset;
      }
    }
    return best;
  }

  const CommMatrix& sym_;
  const Topology& topology_;
  std::vector<PE> order_;
  bool on_grid_;
  std::int64_t capacity_;
  int passes_;
  Mapping& mapping_;
  /// Each rank's current range of order_: [0, size) at the start, one PE at the end.
  std::vector<std::size_t> region_lo_;
  std::vector<std::size_t> region_hi_;
  Volume load_limit_;
  WeightedCut cut_;  ///< how bisect_by_weight cuts
};

}  // namespace

Mapping map_rb_by_load(const Problem& problem, const Run& context, WeightedCut cut, Volume load_limit) {
  bool on_grid = false;
  auto order = machine_order(problem.topology, problem.constraints.allowed_pes(), on_grid);
  const auto n = problem.comm.num_ranks();
  Mapping mapping(static_cast<std::size_t>(n), 0);
  std::vector<Rank> ranks(static_cast<std::size_t>(n));
  std::iota(ranks.begin(), ranks.end(), Rank{0});
  const auto used = order.size();
  Bisector(problem.comm.symmetrized(), problem.topology, std::move(order), on_grid, problem.constraints.capacity(),
           static_cast<int>(context.rb.passes), mapping, load_limit > 0 ? load_limit : problem.constraints.load_limit(),
           cut)
      .place(0, used, ranks);
  return mapping;
}

Mapping RecursiveBisectionMapper::map(const Problem& problem, const Run& context) const {
  const auto& constraints = problem.constraints;
  const auto n = problem.comm.num_ranks();
  const auto capacity = constraints.capacity();
  bool on_grid = false;
  auto order = machine_order(problem.topology, constraints.allowed_pes(), on_grid);
  // Ranks of unequal weight: split by weight over every allowed PE (the
  // load limit is the allocation's average; map_with brings PEs within it).
  const bool by_load = balances_load(problem.comm.rank_weights(), constraints);
  if (by_load) return map_rb_by_load(problem, context, {.order_seed = context.seed});
  // A job smaller than its allocation: the shortest prefix of the cut order
  // that holds it (whole subtrees or boxes as far as sizes allow), cut again.
  const auto needed = static_cast<std::size_t>(std::max<Rank>(1, (n + capacity - 1) / capacity));
  if (order.size() > needed) {
    order.resize(needed);
    if (on_grid) order = machine_order(problem.topology, order, on_grid);
  }
  const auto used = order.size();
  Mapping mapping(static_cast<std::size_t>(n), 0);
  std::vector<Rank> ranks(static_cast<std::size_t>(n));
  std::iota(ranks.begin(), ranks.end(), Rank{0});
  const auto sym = problem.comm.symmetrized();
  Bisector(sym, problem.topology, std::move(order), on_grid, capacity, static_cast<int>(context.rb.passes), mapping)
      .place(0, used, ranks);
  return mapping;
}

}  // namespace tmap::strategies
