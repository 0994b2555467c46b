#include "refine/candidate_search.hpp"

#include <algorithm>
#include <limits>
#include <type_traits>

#include "core/distance_oracle.hpp"
#include "refine/rank_costs.hpp"
#include "util/random.hpp"

namespace tmap::refine {

namespace {

using detail::Int128;

/// PEs of one node tried as candidates (bounds the work on fat nodes).
constexpr std::int64_t kNodeCandidates = 128;

/// Distances that depend only on the two PEs' nodes (and 0 on one PE):
/// there a rank's cost at any PE of a node follows from one sum per node.
template <typename Distances>
struct NodeUniform : std::false_type {};
template <typename T>
struct NodeUniform<detail::NodeDistances<T>> : std::true_type {};

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
    if constexpr (NodeUniform<Distances>::value) {
      // Only where the candidates' nodes are the distances' own (a caller
      // may group PEs otherwise: halo_refine puts a halo PE with its
      // nearest region PE).
      node_sums_ = true;
      for (std::size_t u = 0; u < node_of_pe.size() && node_sums_; ++u) {
        node_sums_ = node_of_pe[u] == d.node_of(static_cast<std::int64_t>(u));
      }
    }
    if (node_sums_) {
      intra_.assign(static_cast<std::size_t>(nodes), 0);
      for (std::int64_t node = 0; node < nodes; ++node) {
        const auto& list = pes_of_node_[static_cast<std::size_t>(node)];
        if (list.size() > 1) intra_[static_cast<std::size_t>(node)] = d(list[0], list[1]);
      }
      node_cost_.assign(static_cast<std::size_t>(nodes), 0);
      node_cost_stamp_.assign(static_cast<std::size_t>(nodes), 0);
      on_pe_.assign(node_of_pe.size(), 0);
      on_pe_stamp_.assign(node_of_pe.size(), 0);
      volume_to_.assign(static_cast<std::size_t>(sym.num_ranks()), 0);
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
  [[nodiscard]] Int128 gain(Rank a, std::int64_t t) {
    const Rank b = occupant_[t];
    if (prepared_ == a && slots_.pe_of(t) != pe_of_rank(a)) return node_gain(a, t, b);
    return b < 0 ? costs_.move_gain(a, slots_.pe_of(t)) : costs_.swap_gain(a, b);
  }

  /// Where distances depend on nodes alone, a's cost at PE u of node N is
  /// the same sum for every u but for a's partners on u itself (distance 0
  /// instead of N's own): C_N - intra_N x (a's volume to the ranks on u),
  /// with C_N summed once per node and a's call. The same integers as
  /// RankCosts' move and swap gains, so the same moves (a node's PEs are
  /// most of a rank's candidates: 48-128 of them a partner's node).
  void prepare(Rank a) {
    if (node_sums_) {
      ++prepare_stamp_;
      prepared_ = a;
      const auto targets = s_.targets(a);
      const auto volumes = s_.volumes(a);
      for (std::size_t e = 0; e < targets.size(); ++e) {
        const auto u = static_cast<std::size_t>(pe_of_rank(targets[e]));
        if (on_pe_stamp_[u] != prepare_stamp_) {
          on_pe_stamp_[u] = prepare_stamp_;
          on_pe_[u] = 0;
        }
        on_pe_[u] += volumes[e];
        volume_to_[static_cast<std::size_t>(targets[e])] += volumes[e];
      }
    }
  }
  void unprepare(Rank a) {
    if (node_sums_) {
      for (const Rank l : s_.targets(a)) volume_to_[static_cast<std::size_t>(l)] = 0;
      prepared_ = -1;
    }
  }

  [[nodiscard]] Int128 node_gain(Rank a, std::int64_t t, Rank b) {
    const std::int64_t u = slots_.pe_of(t);
    const auto node = static_cast<std::size_t>(node_of_pe_[static_cast<std::size_t>(u)]);
    if (node_cost_stamp_[node] != prepare_stamp_) {
      node_cost_stamp_[node] = prepare_stamp_;
      const auto targets = s_.targets(a);
      const auto volumes = s_.volumes(a);
      Int128 sum = 0;
      for (std::size_t e = 0; e < targets.size(); ++e) {
        const auto pl = pe_of_rank(targets[e]);
        const Distance d = static_cast<std::size_t>(node_of_pe_[static_cast<std::size_t>(pl)]) == node
                               ? intra_[node]
                               : costs_.distance(u, pl);
        sum += static_cast<Int128>(volumes[e]) * d;
      }
      node_cost_[node] = sum;
    }
    const Volume here =
        on_pe_stamp_[static_cast<std::size_t>(u)] == prepare_stamp_ ? on_pe_[static_cast<std::size_t>(u)] : 0;
    // a's cost at u with a's partners on u at distance 0 (b among them
    // when it is a partner: its term is left out of a swap's sum anyway).
    const Int128 a_there = node_cost_[node] - static_cast<Int128>(intra_[node]) * here;
    if (b < 0) return costs_.current(a) - a_there;
    const std::int64_t pa = pe_of_rank(a);
    const auto [b_there, ba] = costs_.cost_at_without(b, pa, a);
    const Volume ab = volume_to_[static_cast<std::size_t>(b)];
    const Int128 pair =
        static_cast<Int128>(ab) * costs_.distance(pa, u) + static_cast<Int128>(ba) * costs_.distance(u, pa);
    return costs_.current(a) + costs_.current(b) - pair - a_there - b_there;
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
      prepare(a);
      for_candidates(a, look);
      unprepare(a);
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
  void consider(Rank a, std::int64_t t, std::int64_t& best_slot, Int128& best_gain) {
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
    prepare(a);
    for_candidates(a, [&](std::int64_t t) { consider(a, t, best_slot, best_gain); });
    unprepare(a);
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
  // Node-uniform distances on their own nodes only (prepare/node_gain):
  bool node_sums_ = false;                      ///< gains from one sum per node
  Rank prepared_ = -1;                          ///< the rank the per-call sums are for
  std::uint64_t prepare_stamp_ = 0;             ///< one per prepare()
  std::vector<Distance> intra_;                 ///< per node: between two of its PEs
  std::vector<Int128> node_cost_;               ///< per node: C_N of the prepared rank
  std::vector<std::uint64_t> node_cost_stamp_;  ///< stamp of node_cost_'s sum
  std::vector<Volume> on_pe_;                   ///< per PE: the prepared rank's volume to ranks there
  std::vector<std::uint64_t> on_pe_stamp_;      ///< stamp of on_pe_'s sum
  std::vector<Volume> volume_to_;               ///< per rank: the prepared rank's volume to it, else 0
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
