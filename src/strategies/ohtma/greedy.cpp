#include "strategies/ohtma/greedy.hpp"

#include <algorithm>
#include <map>
#include <queue>
#include <utility>

#include "core/distance_oracle.hpp"
#include "tmap/error.hpp"
#include "util/int128.hpp"

namespace tmap::ohtma {

namespace {

using detail::Int128;

/// Picks processes: the largest total_p + k * selected_p (= comm_p (1 + k)),
/// ties to the lowest id. The key moves with k, but within a group of open
/// processes with equal selected_p its order is fixed (total desc, id asc):
/// while there are few distinct selected_p values (stencils and most
/// applications: a handful of volumes) each group is a heap and a pick
/// compares the groups' tops, so a step costs O(groups + log n) instead of
/// a scan of every open process (the scan made a million ranks O(10^12)).
/// Past kMaxGroups values it scans, as the paper does; both pick the same.
template <typename Key>
class ProcessPicker {
 public:
  explicit ProcessPicker(const CommMatrix& sym)
      : sym_(sym),
        selected_(static_cast<std::size_t>(sym.num_ranks()), 0),
        position_(static_cast<std::size_t>(sym.num_ranks())) {
    total_.resize(static_cast<std::size_t>(sym.num_ranks()));
    for (Rank p = 0; p < sym.num_ranks(); ++p) {
      Key sum = 0;
      for (const Volume v : sym.volumes(p)) sum += v;
      total_[p] = sum;
    }
    open_.resize(static_cast<std::size_t>(sym.num_ranks()));
    for (Rank p = 0; p < sym.num_ranks(); ++p) {
      open_[p] = p;
      position_[p] = p;
      groups_[0].push({total_[p], -p});
    }
  }

  Rank pick(Key k, int threads) {
    const Rank p = grouped_ ? pick_from_groups(k) : scan(k, threads);
    // Close p: swap-remove from the open list (its order does not matter:
    // ties compare ids), then raise its partners' selected traffic.
    const auto at = position_[p];
    open_[at] = open_.back();
    position_[open_[at]] = at;
    open_.pop_back();
    position_[p] = -1;
    const auto targets = sym_.targets(p);
    const auto volumes = sym_.volumes(p);
    for (std::size_t e = 0; e < targets.size(); ++e) {
      const Rank q = targets[e];
      selected_[q] += volumes[e];
      if (grouped_ && position_[q] >= 0) groups_[selected_[q]].push({total_[q], -q});
    }
    if (grouped_ && groups_.size() > kMaxGroups) {
      grouped_ = false;  // too many distinct values: scan from now on
      groups_.clear();
    }
    return p;
  }

 private:
  static constexpr std::size_t kMaxGroups = 64;
  /// (total, -id): the heap's top is the group's best.
  using Heap = std::priority_queue<std::pair<Key, Rank>>;

  Rank pick_from_groups(Key k) {
    Rank best = -1;
    Key best_key = 0;
    for (auto it = groups_.begin(); it != groups_.end();) {
      auto& heap = it->second;
      // Entries of closed processes or of a stale selected value are dropped.
      while (!heap.empty() && (position_[-heap.top().second] < 0 || selected_[-heap.top().second] != it->first)) {
        heap.pop();
      }
      if (heap.empty()) {
        it = groups_.erase(it);
        continue;
      }
      const Rank q = -heap.top().second;
      const Key key = heap.top().first + k * it->first;
      if (best < 0 || key > best_key || (key == best_key && q < best)) {
        best = q;
        best_key = key;
      }
      ++it;
    }
    return best;
  }

  Rank scan(Key k, int threads) {
    std::size_t best = 0;
    Key best_key = 0;
    bool found = false;
    const auto count = static_cast<std::int64_t>(open_.size());
#pragma omp parallel num_threads(threads) if (count > 32768)
    {
      std::size_t local = 0;
      Key local_key = 0;
      bool local_found = false;
#pragma omp for schedule(static) nowait
      for (std::int64_t x = 0; x < count; ++x) {
        const Rank q = open_[x];
        const Key key = total_[q] + k * selected_[q];
        if (!local_found || key > local_key || (key == local_key && q < open_[local])) {
          local = static_cast<std::size_t>(x);
          local_key = key;
          local_found = true;
        }
      }
#pragma omp critical(tmap_ohtma_pick_process)
      if (local_found && (!found || local_key > best_key || (local_key == best_key && open_[local] < open_[best]))) {
        best = local;
        best_key = local_key;
        found = true;
      }
    }
    return open_[best];
  }

  const CommMatrix& sym_;
  std::vector<Key> total_;
  std::vector<Key> selected_;
  std::vector<Rank> open_;
  std::vector<std::int64_t> position_;  ///< index in open_, -1 once picked
  std::map<Key, Heap> groups_;          ///< open processes by selected value
  bool grouped_ = true;
};

/// Slot search per node. A free slot s on PE u of node N has
///   selected_s = other[N] + (taken on N - taken on u) * intra,
///   total_s    = K (sum_{M != N} pes[M] d(N, M) + (pes[N] - 1) intra),
/// (slots of one PE are 0 apart), and key = total + k * selected: within a
/// node the best free slot is on the PE with the most taken slots when
/// intra > 0, and the lowest free slot otherwise.
template <typename Key, typename NodeDistances>
class NodeSlotPicker {
 public:
  NodeSlotPicker(const refine::SlotSpace& slots, std::span<const std::int64_t> node_of_pe, std::int64_t nodes,
                 Distance intra, const NodeDistances& d, int threads)
      : slots_(slots), node_of_pe_(node_of_pe), d_(d), intra_(intra), nodes_(nodes) {
    const auto pes = static_cast<std::int64_t>(node_of_pe.size());
    pes_of_node_.resize(static_cast<std::size_t>(nodes));
    for (std::int64_t u = 0; u < pes; ++u) pes_of_node_[node_of_pe[u]].push_back(u);
    total_.assign(static_cast<std::size_t>(nodes), 0);
#pragma omp parallel for schedule(dynamic, 64) num_threads(threads)
    for (std::int64_t n = 0; n < nodes; ++n) {
      Key sum = 0;
      for (std::int64_t m = 0; m < nodes; ++m) {
        if (m != n) sum += static_cast<Key>(pes_of_node_[m].size()) * d_(n, m);
      }
      sum += static_cast<Key>(pes_of_node_[n].size() - 1) * intra_;
      total_[n] = sum * slots_.capacity;
    }
    other_.assign(static_cast<std::size_t>(nodes), 0);
    taken_node_.assign(static_cast<std::size_t>(nodes), 0);
    taken_pe_.assign(static_cast<std::size_t>(pes), 0);
    candidate_.resize(static_cast<std::size_t>(nodes));
    for (std::int64_t n = 0; n < nodes; ++n) refresh(n);
    for (std::int64_t n = 0; n < nodes; ++n) {
      position_.push_back(static_cast<std::int64_t>(open_.size()));
      if (candidate_[n] >= 0) open_.push_back(n);
    }
  }

  std::int64_t pick(Key k, int threads) {
    std::int64_t best_node = -1;
    Key best_key = 0;
    // Only nodes with a free slot (full ones never come back); ties go to
    // the lowest slot, so the list's order does not matter.
    const auto open = static_cast<std::int64_t>(open_.size());
#pragma omp parallel num_threads(threads) if (open > 32768)
    {
      std::int64_t local = -1;
      Key local_key = 0;
#pragma omp for schedule(static) nowait
      for (std::int64_t x = 0; x < open; ++x) {
        const std::int64_t n = open_[x];
        const Key key = total_[n] + k * selected_of(n, candidate_[n]);
        if (local < 0 || key < local_key || (key == local_key && candidate_[n] < candidate_[local])) {
          local = n;
          local_key = key;
        }
      }
#pragma omp critical(tmap_ohtma_pick_slot)
      if (local >= 0 && (best_node < 0 || local_key < best_key ||
                         (local_key == best_key && candidate_[local] < candidate_[best_node]))) {
        best_node = local;
        best_key = local_key;
      }
    }
    const std::int64_t slot = candidate_[best_node];
    const std::int64_t pe = slots_.pe_of(slot);
    ++taken_pe_[pe];
    ++taken_node_[best_node];
    refresh(best_node);
    if (candidate_[best_node] < 0) {  // full: out of the open list
      const auto at = position_[best_node];
      open_[at] = open_.back();
      position_[open_[at]] = at;
      open_.pop_back();
    }
    const auto still_open = static_cast<std::int64_t>(open_.size());
#pragma omp parallel for schedule(static) num_threads(threads) if (still_open > 4096)
    for (std::int64_t x = 0; x < still_open; ++x) {
      const std::int64_t n = open_[x];
      if (n != best_node) other_[n] += d_(best_node, n);
    }
    return slot;
  }

 private:
  [[nodiscard]] Key selected_of(std::int64_t node, std::int64_t slot) const {
    return other_[node] + static_cast<Key>(taken_node_[node] - taken_pe_[slots_.pe_of(slot)]) * intra_;
  }

  /// The node's best free slot (see the class comment), or -1 when full.
  void refresh(std::int64_t node) {
    std::int64_t best = -1;
    for (const std::int64_t u : pes_of_node_[node]) {
      if (taken_pe_[u] == slots_.capacity) continue;
      const std::int64_t slot = u * slots_.capacity + taken_pe_[u];  // a PE's slots fill in order
      if (best < 0 || (intra_ > 0 && taken_pe_[u] > taken_pe_[slots_.pe_of(best)])) best = slot;
    }
    candidate_[node] = best;
  }

  const refine::SlotSpace& slots_;
  std::span<const std::int64_t> node_of_pe_;
  const NodeDistances& d_;
  Key intra_;
  std::int64_t nodes_;
  std::vector<std::vector<std::int64_t>> pes_of_node_;
  std::vector<Key> total_;
  std::vector<Key> other_;
  std::vector<std::int64_t> taken_node_;
  std::vector<std::int64_t> taken_pe_;
  std::vector<std::int64_t> candidate_;
  std::vector<std::int64_t> open_;      ///< nodes with a free slot
  std::vector<std::int64_t> position_;  ///< each open node's index in open_
};

/// Slot search per slot: O(slots) per step, for topologies without nodes.
template <typename Key, typename Distances>
class SlotPicker {
 public:
  SlotPicker(const refine::SlotSpace& slots, const Distances& d, int threads) : slots_(slots), d_(d) {
    const std::int64_t pes = slots.num_slots / slots.capacity;
    total_.assign(static_cast<std::size_t>(pes), 0);
#pragma omp parallel for schedule(dynamic, 64) num_threads(threads)
    for (std::int64_t u = 0; u < pes; ++u) {
      Key sum = 0;
      for (std::int64_t v = 0; v < pes; ++v) sum += d_(u, v);
      total_[u] = sum * slots.capacity;
    }
    selected_.assign(static_cast<std::size_t>(slots.num_slots), 0);
    done_.assign(static_cast<std::size_t>(slots.num_slots), 0);
  }

  std::int64_t pick(Key k, int threads) {
    std::int64_t best = -1;
    Key best_key = 0;
    for (std::int64_t t = 0; t < slots_.num_slots; ++t) {
      if (done_[t] != 0) continue;
      const Key key = total_[slots_.pe_of(t)] + k * selected_[t];
      if (best < 0 || key < best_key) {
        best = t;
        best_key = key;
      }
    }
    done_[best] = 1;
    const std::int64_t pe_s = slots_.pe_of(best);
    const std::int64_t pes = slots_.num_slots / slots_.capacity;
#pragma omp parallel for schedule(static) num_threads(threads) if (pes > 4096)
    for (std::int64_t u = 0; u < pes; ++u) {
      const Key d = d_(pe_s, u);
      for (std::int64_t c = 0; c < slots_.capacity; ++c) selected_[u * slots_.capacity + c] += d;
    }
    return best;
  }

 private:
  const refine::SlotSpace& slots_;
  const Distances& d_;
  std::vector<Key> total_;
  std::vector<Key> selected_;
  std::vector<char> done_;
};

template <typename Key, typename SlotPick>
std::vector<std::int64_t> greedy_loop(const CommMatrix& sym, SlotPick& slot_picker, int threads) {
  ProcessPicker<Key> processes(sym);
  std::vector<std::int64_t> sigma(static_cast<std::size_t>(sym.num_ranks()), -1);
  for (Rank k = 0; k < sym.num_ranks(); ++k) {
    const Rank p = processes.pick(static_cast<Key>(k), threads);
    sigma[p] = slot_picker.pick(static_cast<Key>(k), threads);
  }
  return sigma;
}

template <typename Key>
std::vector<std::int64_t> run(const CommMatrix& sym, const refine::SlotSpace& slots, const Topology& topology,
                              std::span<const PE> pes, int threads, SlotSearch search) {
  const auto intra = topology.node_uniform_distance();
  if (search == SlotSearch::Automatic && intra) {
    // Local node numbers for the allowed PEs, and one PE to stand for each.
    const auto grouped = detail::group_by_node(topology, pes);
    const auto& node_of_pe = grouped.of_pe;
    const auto& representative = grouped.representative;
    // Every step reads a row of the node table: one byte each up to 2^30
    // entries (a million ranks on Tianhe-3 are 24,576 nodes, 0.6 GB),
    // rather than a distance computed per entry.
    return detail::with_distances(
        topology, representative, threads,
        [&](const auto& d) {
          NodeSlotPicker<Key, std::decay_t<decltype(d)>> picker(
              slots, node_of_pe, static_cast<std::int64_t>(representative.size()), *intra, d, threads);
          return greedy_loop<Key>(sym, picker, threads);
        },
        kNodeTableBytes);
  }
  return detail::with_distances(topology, pes, threads, [&](const auto& d) {
    SlotPicker<Key, std::decay_t<decltype(d)>> picker(slots, d, threads);
    return greedy_loop<Key>(sym, picker, threads);
  });
}

}  // namespace

std::vector<std::int64_t> greedy_construction(const CommMatrix& sym, const refine::SlotSpace& slots,
                                              const Topology& topology, std::span<const PE> pes, int threads,
                                              SlotSearch search) {
  // The paper's start sums, for every allowed place, the distance to every
  // other one: quadratic in the places (nodes where distances follow nodes).
  // Above 65,536 places (4.3e9 pairs, seconds) that is refused, not run.
  constexpr std::int64_t kMaxPlaces = std::int64_t{1} << 16;
  auto places = static_cast<std::int64_t>(pes.size());
  if (places > kMaxPlaces && topology.node_uniform_distance()) {
    std::vector<char> seen(static_cast<std::size_t>(topology.num_nodes()), 0);
    places = 0;
    for (const PE p : pes) places += std::exchange(seen[static_cast<std::size_t>(topology.node_of(p))], 1) == 0 ? 1 : 0;
  }
  if (places > kMaxPlaces) {
    throw ResourceError("ohtma: its greedy start sums the distances between all " + std::to_string(places) +
                        " allowed places (nodes or PEs), more than " + std::to_string(kMaxPlaces) +
                        "; give the job's allocation (the allowed PEs) or use the scotch or greedy strategy");
  }
  // Keys are at most (largest total) * (1 + steps): 64-bit when that fits.
  Int128 largest_row = 0;
  for (Rank p = 0; p < sym.num_ranks(); ++p) {
    Int128 row = 0;
    for (const Volume v : sym.volumes(p)) row += v;
    largest_row = std::max(largest_row, row);
  }
  const Int128 largest_hops = static_cast<Int128>(slots.num_slots) * std::max<Distance>(topology.max_distance(), 1);
  const Int128 steps = static_cast<Int128>(std::max(sym.num_ranks(), slots.num_slots)) + 1;
  if (std::max(largest_row, largest_hops) * steps < (Int128{1} << 62)) {
    return run<std::int64_t>(sym, slots, topology, pes, threads, search);
  }
  return run<Int128>(sym, slots, topology, pes, threads, search);
}

}  // namespace tmap::ohtma
