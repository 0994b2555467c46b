#include "strategies/common/balanced_moves.hpp"

#include <algorithm>
#include <numeric>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "core/distance_oracle.hpp"
#include "tmap/error.hpp"

namespace tmap::strategies {

namespace {

using detail::Int128;

/// Jobs of at most this many ranks x PEs search every PE for a move and
/// every rank for a swap (the partners' PEs alone left random 10-rank jobs
/// 1.2x their optimum).
constexpr std::int64_t kEverywhere = 1 << 14;
/// Their tabu search: at most this many steps, and about this many move
/// and swap evaluations in all (each step weighs ranks x (PEs + ranks);
/// at most ~0.1 s). With 2,000 steps it found the optimum of six random
/// 10-rank jobs on 4 PEs where the moves alone left two at 1.5-1.65x.
constexpr std::int64_t kTabuSteps = 2000;
constexpr std::int64_t kTabuWork = 5'000'000;

/// The mapping as local PE indices (allowed_pes order), with each PE's
/// load, count and ranks, and the moves that keep them within the limits.
template <typename D>
class Balancer {
 public:
  Balancer(const CommMatrix& sym, const Constraints& constraints, const D& distances,
           std::optional<detail::LocalNodes> nodes, const Mapping& mapping)
      : sym_(sym),
        d_(distances),
        pes_(constraints.allowed_pes()),
        limit_(constraints.load_limit()),
        cap_(constraints.capacity()),
        at_(mapping.size()),
        load_(pes_.size(), 0),
        count_(pes_.size(), 0),
        members_(pes_.size()),
        stamp_(pes_.size(), -1),
        nodes_(std::move(nodes)),
        everywhere_(static_cast<std::int64_t>(mapping.size()) * static_cast<std::int64_t>(pes_.size()) <= kEverywhere) {
    for (std::size_t r = 0; r < mapping.size(); ++r) {
      const auto q = static_cast<std::int64_t>(std::lower_bound(pes_.begin(), pes_.end(), mapping[r]) - pes_.begin());
      at_[r] = q;
      load_[static_cast<std::size_t>(q)] += sym_.rank_weight(static_cast<Rank>(r));
      ++count_[static_cast<std::size_t>(q)];
      members_[static_cast<std::size_t>(q)].push_back(static_cast<Rank>(r));
    }
    if (nodes_) {
      node_pes_.resize(nodes_->representative.size());
      for (std::size_t u = 0; u < pes_.size(); ++u)
        node_pes_[static_cast<std::size_t>(nodes_->of_pe[u])].push_back(static_cast<std::int64_t>(u));
    }
  }

  [[nodiscard]] Mapping mapping() const {
    Mapping m(at_.size());
    for (std::size_t r = 0; r < at_.size(); ++r) m[r] = pes_[static_cast<std::size_t>(at_[r])];
    return m;
  }

  /// Brings every PE within its limits; returns the ranks moved and what they cost.
  std::int64_t repair(Int128& cost_added) {
    std::int64_t moved = 0;
    for (std::size_t p = 0; p < pes_.size(); ++p) {
      std::vector<std::int64_t> nearest;  // PEs by distance from p, made when first needed
      while (over(static_cast<std::int64_t>(p))) {
        std::optional<Int128> best_loss;
        Rank best_rank = -1;
        std::int64_t best_pe = -1;
        for (const Rank r : members_[p]) {
          const auto w = sym_.rank_weight(r);
          // Only a rank that lowers the excess: any under a count excess, one of weight above 0 under a load excess.
          if (count_[p] <= cap_ && w == 0) continue;
          const Int128 here = cost(r, static_cast<std::int64_t>(p));
          auto consider = [&](std::int64_t q) {
            if (q == static_cast<std::int64_t>(p) || !fits(q, w)) return;
            const Int128 loss = cost(r, q) - here;
            if (!best_loss || loss < *best_loss) {  // the first of equal losses: ranks, then candidates, in order
              best_loss = loss;
              best_rank = r;
              best_pe = q;
            }
          };
          for_candidates(r, consider);
          if (nearest.empty()) nearest = by_distance(static_cast<std::int64_t>(p));
          for (const auto q : nearest) {
            if (q != static_cast<std::int64_t>(p) && fits(q, w)) {
              consider(q);
              break;
            }
          }
        }
        if (best_rank < 0) {
          throw InputError("--imbalance: the ranks' weights do not pack within the limit of " + std::to_string(limit_) +
                           " a PE: PE " + std::to_string(pes_[p]) + " holds " + std::to_string(load_[p]) +
                           " and none of its ranks fits on another PE (raise EPS)");
        }
        cost_added += *best_loss;
        move(best_rank, best_pe);
        ++moved;
      }
    }
    return moved;
  }

  /// One pass of improving moves over the ranks in id order.
  std::int64_t improve(Int128& gain) {
    std::int64_t moves = 0;
    for (Rank r = 0; r < sym_.num_ranks(); ++r) {
      const auto p = at_[static_cast<std::size_t>(r)];
      const auto w = sym_.rank_weight(r);
      const Int128 here = cost(r, p);
      Int128 best_gain = 0;
      std::int64_t best_pe = -1;
      for_candidates(r, [&](std::int64_t q) {
        if (q == p || !fits(q, w)) return;
        const Int128 g = here - cost(r, q);
        if (g > best_gain || (g == best_gain && g > 0 && q < best_pe)) {
          best_gain = g;
          best_pe = q;
        }
      });
      // Swaps with a partner elsewhere, where the loads allow (counts stay):
      // what a move cannot do when PEs are full.
      Rank swap_with = -1;
      const auto consider_swap = [&](Rank j, Volume between) {
        const auto q = at_[static_cast<std::size_t>(j)];
        const auto wj = sym_.rank_weight(j);
        if (q == p || !swap_fits(p, q, w, wj)) return;
        // Each one's cost counts the pair at distance 0 where the other is: the pair's own distance stays.
        const Int128 g = here - cost(r, q) + cost(j, q) - cost(j, p) - 2 * static_cast<Int128>(between) * d_(p, q);
        if (g > best_gain) {
          best_gain = g;
          best_pe = q;
          swap_with = j;
        }
      };
      if (everywhere_) {
        for (Rank j = 0; j < sym_.num_ranks(); ++j) consider_swap(j, sym_.at(r, j));
      } else {
        const auto partners = sym_.targets(r);
        const auto volumes = sym_.volumes(r);
        for (std::size_t k = 0; k < partners.size(); ++k) consider_swap(partners[k], volumes[k]);
      }
      if (best_pe < 0) continue;
      if (swap_with >= 0) {
        move(swap_with, p);
        ++swaps_;
      }
      move(r, best_pe);
      gain += best_gain;
      ++moves;
    }
    return moves;
  }

  [[nodiscard]] std::int64_t swaps() const noexcept { return swaps_; }

  /// Tabu search for small jobs (everywhere_): each step applies the best
  /// admissible move or swap of any rank even when it raises hop-bytes; a
  /// rank may not return to a PE it left for 7-14 steps (Taillard's rule;
  /// random, from `seed`; fewer where ranks x PEs are few) unless that
  /// gives a new best. Ends at the best mapping seen; returns what it saved.
  Int128 tabu(std::int64_t steps, std::uint64_t seed) {
    const auto n = static_cast<std::size_t>(sym_.num_ranks());
    const auto m = pes_.size();
    std::vector<std::int64_t> free_from(n * m, 0);  // (rank, PE) -> first step it may go back
    std::mt19937_64 random(seed);
    const auto eighth = static_cast<std::int64_t>(n * m) / 8;
    const auto shortest = std::min<std::int64_t>(7, eighth + 1);
    const auto spread = static_cast<std::uint64_t>(std::min<std::int64_t>(8, eighth + 1));
    const auto tenure = [&] { return shortest + static_cast<std::int64_t>(random() % spread); };
    const auto allowed = [&](Rank r, std::int64_t q, std::int64_t step) {
      return free_from[static_cast<std::size_t>(r) * m + static_cast<std::size_t>(q)] <= step;
    };
    Int128 current = 0;
    Int128 best = 0;  // relative to the start
    auto best_at = at_;
    for (std::int64_t step = 0; step < steps; ++step) {
      std::optional<Int128> pick_gain;
      Rank pick = -1;
      Rank pick_swap = -1;
      std::int64_t pick_pe = -1;
      const auto take = [&](Int128 g, Rank r, std::int64_t q, Rank j, bool free) {
        if (!free && current - g >= best) return;  // tabu, and no new best
        if (!pick_gain || g > *pick_gain) {
          pick_gain = g;
          pick = r;
          pick_pe = q;
          pick_swap = j;
        }
      };
      for (Rank r = 0; r < sym_.num_ranks(); ++r) {
        const auto p = at_[static_cast<std::size_t>(r)];
        const auto w = sym_.rank_weight(r);
        const Int128 here = cost(r, p);
        for (std::size_t u = 0; u < m; ++u) {
          const auto q = static_cast<std::int64_t>(u);
          if (q != p && fits(q, w)) take(here - cost(r, q), r, q, -1, allowed(r, q, step));
        }
        for (Rank j = r + 1; j < sym_.num_ranks(); ++j) {
          const auto q = at_[static_cast<std::size_t>(j)];
          if (q == p || !swap_fits(p, q, w, sym_.rank_weight(j))) continue;
          const Int128 g =
              here - cost(r, q) + cost(j, q) - cost(j, p) - 2 * static_cast<Int128>(sym_.at(r, j)) * d_(p, q);
          take(g, r, q, j, allowed(r, q, step) && allowed(j, p, step));
        }
      }
      if (!pick_gain) break;  // nothing admissible
      const auto from = at_[static_cast<std::size_t>(pick)];
      if (pick_swap >= 0) {
        free_from[static_cast<std::size_t>(pick_swap) * m + static_cast<std::size_t>(pick_pe)] = step + tenure();
        move(pick_swap, from);
      }
      free_from[static_cast<std::size_t>(pick) * m + static_cast<std::size_t>(from)] = step + tenure();
      move(pick, pick_pe);
      current -= *pick_gain;
      if (current < best) {
        best = current;
        best_at = at_;
      }
    }
    // Back to the best seen.
    for (Rank r = 0; r < sym_.num_ranks(); ++r) {
      const auto q = best_at[static_cast<std::size_t>(r)];
      if (at_[static_cast<std::size_t>(r)] != q) move(r, q);
    }
    return -best;
  }

  [[nodiscard]] bool small() const noexcept { return everywhere_; }

 private:
  [[nodiscard]] bool fits(std::int64_t q, Volume w) const {
    const auto u = static_cast<std::size_t>(q);
    return (limit_ == 0 || load_[u] + w <= limit_) && count_[u] < cap_;
  }
  /// Would ranks of weights wp (on p) and wq (on q) trade places within the limit?
  [[nodiscard]] bool swap_fits(std::int64_t p, std::int64_t q, Volume wp, Volume wq) const {
    const auto u = static_cast<std::size_t>(p);
    const auto v = static_cast<std::size_t>(q);
    return limit_ == 0 || (load_[u] - wp + wq <= limit_ && load_[v] - wq + wp <= limit_);
  }
  [[nodiscard]] bool over(std::int64_t p) const {
    const auto u = static_cast<std::size_t>(p);
    return (limit_ > 0 && load_[u] > limit_) || count_[u] > cap_;
  }
  /// What r's traffic costs with r on q: sum_j s_rj d(q, pe_j).
  [[nodiscard]] Int128 cost(Rank r, std::int64_t q) const {
    const auto partners = sym_.targets(r);
    const auto volumes = sym_.volumes(r);
    Int128 total = 0;
    for (std::size_t k = 0; k < partners.size(); ++k)
      total += static_cast<Int128>(volumes[k]) * d_(q, at_[static_cast<std::size_t>(partners[k])]);
    return total;
  }
  /// Calls f(q) once for each of r's candidate PEs: its partners' PEs and,
  /// where a node's PEs are interchangeable and that PE is full, the PE of
  /// the same node with the most room.
  template <typename F>
  void for_candidates(Rank r, F&& f) {
    if (everywhere_) {  // a small job: every PE
      for (std::size_t q = 0; q < pes_.size(); ++q) f(static_cast<std::int64_t>(q));
      return;
    }
    ++epoch_;
    const auto w = sym_.rank_weight(r);
    auto once = [&](std::int64_t q) {
      if (stamp_[static_cast<std::size_t>(q)] == epoch_) return;
      stamp_[static_cast<std::size_t>(q)] = epoch_;
      f(q);
    };
    for (const Rank j : sym_.targets(r)) {
      const auto q = at_[static_cast<std::size_t>(j)];
      once(q);
      if (!nodes_ || fits(q, w)) continue;
      std::int64_t roomiest = -1;
      for (const auto u : node_pes_[static_cast<std::size_t>(nodes_->of_pe[static_cast<std::size_t>(q)])]) {
        if (fits(u, w) &&
            (roomiest < 0 || load_[static_cast<std::size_t>(u)] < load_[static_cast<std::size_t>(roomiest)]))
          roomiest = u;
      }
      if (roomiest >= 0) once(roomiest);
    }
  }
  /// Every PE, nearest to p first (ties to the lowest index).
  [[nodiscard]] std::vector<std::int64_t> by_distance(std::int64_t p) const {
    std::vector<std::int64_t> order(pes_.size());
    std::iota(order.begin(), order.end(), std::int64_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::int64_t a, std::int64_t b) { return d_(p, a) < d_(p, b); });
    return order;
  }
  void move(Rank r, std::int64_t q) {
    const auto p = static_cast<std::size_t>(at_[static_cast<std::size_t>(r)]);
    const auto w = sym_.rank_weight(r);
    auto& from = members_[p];
    from.erase(std::find(from.begin(), from.end(), r));
    load_[p] -= w;
    --count_[p];
    const auto u = static_cast<std::size_t>(q);
    members_[u].insert(std::lower_bound(members_[u].begin(), members_[u].end(), r), r);
    load_[u] += w;
    ++count_[u];
    at_[static_cast<std::size_t>(r)] = q;
  }

  const CommMatrix& sym_;
  const D& d_;
  std::span<const PE> pes_;
  Volume limit_;
  std::int64_t cap_;
  std::vector<std::int64_t> at_;
  std::vector<Volume> load_;
  std::vector<std::int64_t> count_;
  std::vector<std::vector<Rank>> members_;  ///< per PE, in rank order
  std::vector<std::int64_t> stamp_;
  std::int64_t epoch_ = 0;
  std::int64_t swaps_ = 0;
  std::optional<detail::LocalNodes> nodes_;
  std::vector<std::vector<std::int64_t>> node_pes_;
  /// Every PE a candidate, every rank a swap partner (small jobs).
  bool everywhere_;
};

}  // namespace

BalancedMoveStats balance_and_refine(const CommMatrix& sym, const Topology& topology, const Constraints& constraints,
                                     Mapping& mapping, std::int64_t max_passes) {
  BalancedMoveStats stats;
  const auto pes = constraints.allowed_pes();
  std::optional<detail::LocalNodes> nodes;
  if (topology.node_uniform_distance() && topology.num_nodes() < topology.size())
    nodes = detail::group_by_node(topology, pes);
  detail::with_distances(topology, pes, 1, [&](const auto& distances) {
    Balancer balancer(sym, constraints, distances, nodes, mapping);
    Int128 added = 0;
    stats.repaired = balancer.repair(added);
    // Small jobs: a tabu search from the repaired mapping (the moves alone
    // left random 10-rank jobs up to 1.65x their optimum), then the moves.
    if (max_passes > 0 && balancer.small()) {
      const auto n = std::max<std::int64_t>(1, sym.num_ranks());
      stats.searched = true;
      stats.gain += balancer.tabu(
          std::min<std::int64_t>(kTabuSteps, kTabuWork / (n * (n + static_cast<std::int64_t>(pes.size())))), 0);
    }
    for (; stats.passes < max_passes; ++stats.passes) {
      Int128 gain = 0;
      const auto moves = balancer.improve(gain);
      stats.moves += moves;
      stats.gain += gain;
      if (moves == 0) {
        ++stats.passes;
        break;
      }
    }
    stats.swaps = balancer.swaps();
    mapping = balancer.mapping();
    return 0;
  });
  return stats;
}

}  // namespace tmap::strategies
