#include "refine/candidate_search.hpp"

#include <algorithm>
#include <limits>

#include "core/distance_oracle.hpp"
#include "refine/rank_costs.hpp"
#include "util/random.hpp"

namespace tmap::refine {

namespace {

using detail::Int128;

/// PEs of one node tried as candidates (bounds the work on fat nodes).
constexpr std::int64_t kNodeCandidates = 128;

template <typename Distances>
class CandidateSearch {
 public:
  CandidateSearch(const CommMatrix& sym, const SlotSpace& slots, const Distances& d,
                  std::span<const std::int64_t> node_of_pe, std::vector<std::int64_t>& sigma, Movable movable)
      : s_(sym),
        slots_(slots),
        node_of_pe_(node_of_pe),
        sigma_(sigma),
        costs_(sym, pes_of(slots, sigma), d),
        occupant_(static_cast<std::size_t>(slots.num_slots), -1),
        slot_seen_(static_cast<std::size_t>(slots.num_slots), 0),
        movable_ranks_(movable.ranks < 0 ? sym.num_ranks() : movable.ranks),
        movable_slots_(movable.slots < 0 ? slots.num_slots : movable.slots) {
    for (Rank r = 0; r < sym.num_ranks(); ++r) occupant_[sigma_[r]] = r;
    std::int64_t nodes = 0;
    for (const auto node : node_of_pe) nodes = std::max(nodes, node + 1);
    pes_of_node_.resize(static_cast<std::size_t>(nodes));
    node_seen_.assign(static_cast<std::size_t>(nodes), 0);
    for (std::size_t u = 0; u < node_of_pe.size(); ++u) {
      auto& list = pes_of_node_[node_of_pe[u]];
      if (static_cast<std::int64_t>(list.size()) < kNodeCandidates) list.push_back(static_cast<std::int64_t>(u));
    }
  }

  SearchResult run(std::int64_t max_passes, const StepReport& on_step) {
    SearchResult result;
    const Int128 cost = costs_.total();  // hop-bytes of the start, to judge a pass's gain
    for (std::int64_t pass = 0; pass < max_passes; ++pass) {
      ++result.passes;
      const Int128 before = result.gain;
      for (Rank a = 0; a < movable_ranks_; ++a) improve(a, result);
      if (on_step && !on_step(result.passes, saturated(cost - result.gain))) break;
      // A pass that gains less than 0.1 % of what is left ends the search.
      const Int128 gained = result.gain - before;
      if (gained == 0 || gained * 1000 < cost - result.gain) break;
    }
    return result;
  }

  static std::int64_t saturated(Int128 v) {
    return v > std::numeric_limits<std::int64_t>::max() ? std::numeric_limits<std::int64_t>::max()
                                                        : static_cast<std::int64_t>(v);
  }

 private:
  static std::vector<std::int64_t> pes_of(const SlotSpace& slots, std::span<const std::int64_t> sigma) {
    std::vector<std::int64_t> pes(sigma.size());
    for (std::size_t r = 0; r < sigma.size(); ++r) pes[r] = slots.pe_of(sigma[r]);
    return pes;
  }

  [[nodiscard]] std::int64_t pe_of_rank(Rank r) const { return costs_.place(r); }

  /// Exact decrease of hop-bytes when a goes to slot t (swapping with its occupant).
  [[nodiscard]] Int128 gain(Rank a, std::int64_t t) const {
    const Rank b = occupant_[t];
    return b < 0 ? costs_.move_gain(a, slots_.pe_of(t)) : costs_.swap_gain(a, b);
  }

  /// a goes to slot t; its occupant, if any, to a's slot.
  void apply(Rank a, std::int64_t t) {
    const Rank b = occupant_[t];
    const std::int64_t from = sigma_[a];
    occupant_[t] = a;
    occupant_[from] = b;
    sigma_[a] = t;
    if (b >= 0) {
      sigma_[b] = from;
      costs_.swap(a, b);
    } else {
      costs_.move(a, slots_.pe_of(t));
    }
  }

 public:
  /// Tabu search over the same candidates (the best admissible move each
  /// step, even a worsening one); returns with sigma = the best seen.
  SearchResult run_tabu(std::int64_t iterations, std::uint64_t seed, const StepReport& on_step) {
    SearchResult result = run(1000, on_step);  // start from the local optimum
    Int128 cost = costs_.total();
    Int128 best_cost = cost;
    auto best_sigma = sigma_;
    const Rank n = movable_ranks_;
    // Tabu memory: the PE a rank left last, and until when it may not return.
    std::vector<std::int64_t> left_pe(static_cast<std::size_t>(n), -1);
    std::vector<std::int64_t> until(static_cast<std::size_t>(n), -1);
    detail::Random rng(seed, 91);
    Rank a = 0;
    for (std::int64_t it = 0; it < iterations && n > 1; ++it) {
      if (on_step && (it & 4095) == 4095 && !on_step(result.passes + it, saturated(best_cost))) break;
      a = (a + 1) % n;
      if (s_.targets(a).empty()) continue;
      const auto tabu = [&](Rank r, std::int64_t pe) {
        return r >= 0 && left_pe[static_cast<std::size_t>(r)] == pe && until[static_cast<std::size_t>(r)] > it;
      };
      std::int64_t best_slot = -1;
      Int128 best_gain = 0;
      const auto look = [&](std::int64_t t) {
        if (t == sigma_[a] || slots_.pe_of(t) == pe_of_rank(a)) return;
        const Int128 g = gain(a, t);
        const bool forbidden = tabu(a, slots_.pe_of(t)) || tabu(occupant_[t], pe_of_rank(a));
        if (forbidden && cost - g >= best_cost) return;  // aspiration: a new best
        if (best_slot < 0 || g > best_gain || (g == best_gain && t < best_slot)) {
          best_slot = t;
          best_gain = g;
        }
      };
      for_candidates(a, look);
      if (best_slot < 0) continue;
      const Rank b = occupant_[best_slot];
      const std::int64_t from = sigma_[a];
      const auto tenure = 7 + static_cast<std::int64_t>(rng.below(8));
      left_pe[static_cast<std::size_t>(a)] = slots_.pe_of(from);
      until[static_cast<std::size_t>(a)] = it + tenure;
      if (b >= 0) {
        left_pe[static_cast<std::size_t>(b)] = slots_.pe_of(best_slot);
        until[static_cast<std::size_t>(b)] = it + tenure;
      }
      apply(a, best_slot);
      b >= 0 ? ++result.swaps : ++result.moves;
      cost -= best_gain;
      if (cost < best_cost) {
        best_cost = cost;
        best_sigma = sigma_;
      }
    }
    sigma_ = best_sigma;
    return result;
  }

 private:
  void consider(Rank a, std::int64_t t, std::int64_t& best_slot, Int128& best_gain) const {
    if (t == sigma_[a]) return;
    const Int128 g = gain(a, t);
    if (g > best_gain || (g == best_gain && g > 0 && t < best_slot)) {
      best_slot = t;
      best_gain = g;
    }
  }

  /// Calls visit(t) once for each candidate slot t of rank a: every slot on
  /// the nodes of a's partners (free ones are moves), and the slots of the
  /// partners' partners. Partners sharing a node, and slots reached twice,
  /// are visited once (stamps per call): the choice (largest gain, ties to
  /// the lowest slot) does not depend on repeats, only the time does.
  template <typename Visit>
  void for_candidates(Rank a, Visit&& visit) {
    ++stamp_;
    const auto once = [&](std::int64_t t) {
      if (t >= movable_slots_ || occupant_[t] >= movable_ranks_) return;  // the fixed halo
      if (slot_seen_[static_cast<std::size_t>(t)] == stamp_) return;
      slot_seen_[static_cast<std::size_t>(t)] = stamp_;
      visit(t);
    };
    for (const Rank l : s_.targets(a)) {
      const auto node = node_of_pe_[pe_of_rank(l)];
      if (node_seen_[static_cast<std::size_t>(node)] != stamp_) {
        node_seen_[static_cast<std::size_t>(node)] = stamp_;
        for (const std::int64_t u : pes_of_node_[node]) {
          for (std::int64_t c = 0; c < slots_.capacity; ++c) once(u * slots_.capacity + c);
        }
      }
      for (const Rank m : s_.targets(l)) {
        if (m != a) once(sigma_[m]);
      }
    }
  }

  void improve(Rank a, SearchResult& result) {
    std::int64_t best_slot = -1;
    Int128 best_gain = 0;
    for_candidates(a, [&](std::int64_t t) { consider(a, t, best_slot, best_gain); });
    if (best_slot < 0 || best_gain <= 0) return;
    occupant_[best_slot] >= 0 ? ++result.swaps : ++result.moves;
    apply(a, best_slot);
    result.gain += best_gain;
  }

  const CommMatrix& s_;
  const SlotSpace& slots_;
  std::span<const std::int64_t> node_of_pe_;
  std::vector<std::int64_t>& sigma_;
  RankCosts<Distances> costs_;  ///< each rank's PE and cached traffic cost
  std::vector<Rank> occupant_;
  std::vector<std::vector<std::int64_t>> pes_of_node_;
  std::uint64_t stamp_ = 0;               ///< one per for_candidates call
  std::vector<std::uint64_t> slot_seen_;  ///< stamp of the last visit, per slot
  std::vector<std::uint64_t> node_seen_;  ///< stamp of the last visit, per node
  Rank movable_ranks_;
  std::int64_t movable_slots_;
};

}  // namespace

template <typename Distances>
SearchResult candidate_tabu(const CommMatrix& sym, const SlotSpace& slots, const Distances& distances,
                            std::span<const std::int64_t> node_of_pe, std::vector<std::int64_t>& sigma,
                            std::int64_t iterations, std::uint64_t seed, const StepReport& on_step, Movable movable) {
  return CandidateSearch<Distances>(sym, slots, distances, node_of_pe, sigma, movable)
      .run_tabu(iterations, seed, on_step);
}

template <typename Distances>
SearchResult candidate_search(const CommMatrix& sym, const SlotSpace& slots, const Distances& distances,
                              std::span<const std::int64_t> node_of_pe, std::vector<std::int64_t>& sigma,
                              std::int64_t max_passes, const StepReport& on_step, Movable movable) {
  return CandidateSearch<Distances>(sym, slots, distances, node_of_pe, sigma, movable).run(max_passes, on_step);
}

std::vector<std::int64_t> local_nodes(const Topology& topology, std::span<const PE> pes) {
  return detail::group_by_node(topology, pes).of_pe;
}

#define TMAP_INSTANTIATE(Oracle)                                                                            \
  template SearchResult candidate_search<Oracle>(const CommMatrix&, const SlotSpace&, const Oracle&,        \
                                                 std::span<const std::int64_t>, std::vector<std::int64_t>&, \
                                                 std::int64_t, const StepReport&, Movable);                 \
  template SearchResult candidate_tabu<Oracle>(const CommMatrix&, const SlotSpace&, const Oracle&,          \
                                               std::span<const std::int64_t>, std::vector<std::int64_t>&,   \
                                               std::int64_t, std::uint64_t, const StepReport&, Movable);
TMAP_FOR_EACH_DISTANCE_ORACLE(TMAP_INSTANTIATE)
#undef TMAP_INSTANTIATE

}  // namespace tmap::refine
