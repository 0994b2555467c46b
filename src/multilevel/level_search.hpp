// Refinement at one level: clusters swap groups of equal shape when that
// lowers the level's hop-bytes, sum over cluster pairs of traffic x the
// distance of their groups' representatives (exact at level 0, where groups
// are slots). The gain state is refine::RankCosts over clusters and groups.
// A cluster's candidates are the groups of its heaviest partners (at most
// kCandidatePartners: coarse levels of a poor mapping are nearly complete
// graphs) and the groups near those: the places that bring it next to whom
// it talks to most. Best candidate
// first (ties to the lowest group), applied at once; passes until one gains
// less than 0.1 % of the cost. Sequential, so deterministic.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/distance_oracle.hpp"
#include "multilevel/levels.hpp"
#include "refine/rank_costs.hpp"

namespace tmap::multilevel {

/// A row of PE distances: a pointer into a dense table, else the PE itself.
template <typename PeDistances>
struct PeRow {
  using type = std::int64_t;
};
template <typename PeDistances>
requires requires(const PeDistances& d) {
  d.row(0);
}
struct PeRow<PeDistances> {
  using type = decltype(std::declval<const PeDistances&>().row(0));
};

/// Distance of two groups: of their representatives' PEs.
///
/// Also by rows, for loops over many distances with one end fixed:
/// `at(row(g), column(h)) == (*this)(g, h)`, with the row's lookups done once
/// (a pointer into a dense table, else the representative's PE).
template <typename PeDistances>
struct GroupDistances {
  const PeDistances& pe;
  std::span<const std::int64_t> rep;

  using Row = typename PeRow<PeDistances>::type;
  static constexpr bool kDense = std::is_pointer_v<Row>;

  [[nodiscard]] Distance operator()(std::int64_t g, std::int64_t h) const {
    return pe(rep[static_cast<std::size_t>(g)], rep[static_cast<std::size_t>(h)]);
  }
  [[nodiscard]] Row row(std::int64_t g) const {
    if constexpr (kDense) {
      return pe.row(rep[static_cast<std::size_t>(g)]);
    } else {
      return rep[static_cast<std::size_t>(g)];
    }
  }
  [[nodiscard]] std::int64_t column(std::int64_t h) const { return rep[static_cast<std::size_t>(h)]; }
  [[nodiscard]] Distance at(Row r, std::int64_t column) const {
    if constexpr (kDense) {
      return r[column];
    } else {
      return pe(r, column);
    }
  }
};

/// The same as a table, for levels of few groups (one load per distance
/// instead of the machine's computation).
class GroupTableDistances {
 public:
  template <typename PeDistances>
  GroupTableDistances(const PeDistances& pe, std::span<const std::int64_t> rep)
      : n_(static_cast<std::int64_t>(rep.size())), d_(static_cast<std::size_t>(n_ * n_)) {
    for (std::int64_t g = 0; g < n_; ++g) {
      for (std::int64_t h = 0; h < n_; ++h) {
        d_[static_cast<std::size_t>(g * n_ + h)] =
            pe(rep[static_cast<std::size_t>(g)], rep[static_cast<std::size_t>(h)]);
      }
    }
  }
  [[nodiscard]] Distance operator()(std::int64_t g, std::int64_t h) const {
    return d_[static_cast<std::size_t>(g * n_ + h)];
  }
  /// By rows, as GroupDistances.
  using Row = const Distance*;
  [[nodiscard]] Row row(std::int64_t g) const { return d_.data() + g * n_; }
  [[nodiscard]] static std::int64_t column(std::int64_t h) { return h; }
  [[nodiscard]] static Distance at(Row r, std::int64_t column) { return r[column]; }
  /// Row-major (groups x groups), as the coarsest level's search takes it.
  [[nodiscard]] const std::vector<Distance>& table() const noexcept { return d_; }

 private:
  std::int64_t n_;
  std::vector<Distance> d_;
};

/// Most groups a level tabulates (512 KiB, within the L2 cache): 2,048
/// groups' 32 MiB table, built for every level and V-cycle, was a third of
/// the V-cycles' time on 4,096 random ranks of a torus (3.7 s -> 2.4 s, the
/// same mapping).
inline constexpr std::int64_t kTabulatedGroups = 256;

/// Partners whose groups a cluster tries, the heaviest first (16: a random
/// 1,024-rank job on a torus 1.1 % lower than with 8; all partners cost 3x
/// the time of 8 on 65,536 ranks mapped at random).
inline constexpr std::size_t kCandidatePartners = 16;

/// Group distances over distances that depend on the PEs' nodes alone
/// (detail::NodeDistances): there a cluster's cost at any group of a node
/// follows from one sum per node (groups are disjoint, so the only cluster
/// at a candidate group's own PE is its occupant).
template <typename Distances>
struct NodeSums : std::false_type {};
template <typename T>
struct NodeSums<GroupDistances<detail::NodeDistances<T>>> : std::true_type {};

template <typename Distances>
class LevelSearch {
 public:
  using Int128 = detail::Int128;
  static constexpr bool kNodeSums = NodeSums<Distances>::value;

  /// `place[c]`: cluster c's group, a bijection between equal shapes; updated in place.
  LevelSearch(const GraphLevel& graph, const TargetLevel& target, const Distances& d, std::vector<std::int64_t>& place)
      : graph_(graph),
        target_(target),
        d_(d),
        place_(place),
        costs_(graph.sym, place, d),
        occupant_(place.size(), -1),
        seen_(place.size(), 0),
        volume_to_a_(place.size(), 0) {
    for (std::size_t c = 0; c < place.size(); ++c)
      occupant_[static_cast<std::size_t>(place[c])] = static_cast<std::int64_t>(c);
    if constexpr (kNodeSums) {
      // Only where no two groups share a PE (several slots a PE at level 0
      // do: a partner on t's PE in another slot is then 0 away too).
      std::vector<char> taken(static_cast<std::size_t>(d.pe.size()), 0);
      node_sums_ = true;
      for (const auto pe : d.rep) {
        auto& mark = taken[static_cast<std::size_t>(pe)];
        node_sums_ = node_sums_ && mark == 0;
        mark = 1;
      }
      node_cost_.assign(static_cast<std::size_t>(d.pe.nodes()), 0);
      node_stamp_.assign(static_cast<std::size_t>(d.pe.nodes()), 0);
    }
    // The heaviest partners of each cluster (ties to the lowest id).
    std::vector<std::pair<Volume, std::int64_t>> row;
    for (std::int64_t a = 0; a < graph.count(); ++a) {
      const auto targets = graph.sym.targets(a);
      const auto volumes = graph.sym.volumes(a);
      row.clear();
      for (std::size_t e = 0; e < targets.size(); ++e) row.emplace_back(-volumes[e], targets[e]);
      const auto keep = std::min(row.size(), kCandidatePartners);
      std::partial_sort(row.begin(), row.begin() + static_cast<std::ptrdiff_t>(keep), row.end());
      for (std::size_t k = 0; k < keep; ++k) heavy_.targets.push_back(row[k].second);
      heavy_.offsets.push_back(static_cast<std::int64_t>(heavy_.targets.size()));
    }
  }

  [[nodiscard]] Int128 cost() const { return costs_.total(); }

  /// Swap passes; returns the total gain.
  Int128 run(int max_passes) {
    Int128 gained = 0;
    const Int128 start = costs_.total();
    for (int pass = 0; pass < max_passes; ++pass) {
      Int128 pass_gain = 0;
      for (std::int64_t a = 0; a < graph_.count(); ++a) pass_gain += improve(a);
      gained += pass_gain;
      if (pass_gain <= 0 || pass_gain * 1000 < start - gained) break;
    }
    return gained;
  }

 private:
  Int128 improve(std::int64_t a) {
    const auto first = heavy_.offsets[static_cast<std::size_t>(a)];
    const auto last = heavy_.offsets[static_cast<std::size_t>(a) + 1];
    if (first == last) return 0;
    ++stamp_;
    const auto own = place_[static_cast<std::size_t>(a)];
    const auto shape = graph_.shape[static_cast<std::size_t>(a)];
    std::int64_t best_group = -1;
    Int128 best_gain = 0;
    // a's partners' groups and volumes, gathered once for all its candidates.
    const auto targets = graph_.sym.targets(a);
    const auto volumes = graph_.sym.volumes(a);
    partner_row_.clear();
    partner_node_.clear();
    for (std::size_t e = 0; e < targets.size(); ++e) {
      const auto group = place_[static_cast<std::size_t>(targets[e])];
      if (node_sums_) {
        if constexpr (kNodeSums) partner_node_.push_back(node_of_group(group));
      } else {
        partner_row_.push_back(d_.row(group));
      }
      volume_to_a_[static_cast<std::size_t>(targets[e])] += volumes[e];
    }
    const Int128 a_here = costs_.current(a);
    const auto consider = [&](std::int64_t t) {
      if (t == own || seen_[static_cast<std::size_t>(t)] == stamp_) return;
      seen_[static_cast<std::size_t>(t)] = stamp_;
      const auto b = occupant_[static_cast<std::size_t>(t)];
      if (graph_.shape[static_cast<std::size_t>(b)] != shape) return;
      const Int128 g = a_here - a_there(t, b, volumes) + b_gain(b, own, t);
      if (g > best_gain || (g == best_gain && g > 0 && t < best_group)) {
        best_gain = g;
        best_group = t;
      }
    };
    for (auto k = first; k < last; ++k) {
      const auto h = place_[static_cast<std::size_t>(heavy_.targets[static_cast<std::size_t>(k)])];
      consider(h);
      const auto& near = target_.near;
      for (auto e = near.offsets[static_cast<std::size_t>(h)]; e < near.offsets[static_cast<std::size_t>(h) + 1]; ++e) {
        consider(near.targets[static_cast<std::size_t>(e)]);
      }
    }
    for (const auto p : targets) volume_to_a_[static_cast<std::size_t>(p)] = 0;
    if (best_group < 0) return 0;
    const auto b = occupant_[static_cast<std::size_t>(best_group)];
    costs_.swap(a, b);
    place_[static_cast<std::size_t>(a)] = best_group;
    place_[static_cast<std::size_t>(b)] = own;
    occupant_[static_cast<std::size_t>(best_group)] = a;
    occupant_[static_cast<std::size_t>(own)] = b;
    return best_gain;
  }

  /// The node of group g's PE.
  [[nodiscard]] std::int64_t node_of_group(std::int64_t g) const requires kNodeSums {
    return d_.pe.node_of(d_.rep[static_cast<std::size_t>(g)]);
  }

  /// RankCosts::swap_gain of a (at `own`, cost `a_here`) and b (at t) is
  /// a_here - a_there(t) + b_gain(b, own, t), the same integer, from a's
  /// partners gathered once: a's partner b counts nothing at t (d(t, t) =
  /// 0), nor a at own in b's sum, so both sums run over whole rows and the
  /// a-b pair is taken out once, 2 S_ab d(own, t), in b_gain.
  ///
  /// a's cost at t. By rows: d(g, t), not d(t, g), the same distance (the
  /// engine's distances are symmetric), read from the rows of a's few
  /// partners' groups, which stay in the cache across a's candidates,
  /// instead of a new row per candidate (0.88x the quality mode's time on
  /// 4,096 random ranks of a torus). By nodes: C_a(N), a's partners' bytes
  /// times their nodes' distances to t's node N, summed once per node and
  /// call, less what it counts for b, the one cluster at t's PE (intra-node
  /// distance instead of 0).
  Int128 a_there(std::int64_t t, std::int64_t b, std::span<const Volume> volumes) {
    if constexpr (kNodeSums) {
      if (node_sums_) return a_there_by_nodes(t, b, volumes);
    }
    const auto column_t = d_.column(t);
    Int128 sum = 0;
    for (std::size_t e = 0; e < partner_row_.size(); ++e) {
      sum += static_cast<Int128>(volumes[e]) * d_.at(partner_row_[e], column_t);
    }
    return sum;
  }

  /// a_there where node sums apply (node_sums_).
  Int128 a_there_by_nodes(std::int64_t t, std::int64_t b, std::span<const Volume> volumes) requires kNodeSums {
    const auto node = node_of_group(t);
    const auto n = static_cast<std::size_t>(node);
    if (node_stamp_[n] != stamp_) {
      node_stamp_[n] = stamp_;
      Int128 sum = 0;
      for (std::size_t e = 0; e < partner_node_.size(); ++e) {
        sum += static_cast<Int128>(volumes[e]) * d_.pe.between_nodes(partner_node_[e], node);
      }
      node_cost_[n] = sum;
    }
    return node_cost_[n] -
           static_cast<Int128>(volume_to_a_[static_cast<std::size_t>(b)]) * d_.pe.between_nodes(node, node);
  }

  /// b's gain from t to own, less the a-b pair counted in both costs.
  Int128 b_gain(std::int64_t b, std::int64_t own, std::int64_t t) const {
    Int128 b_there = 0;
    const auto targets = graph_.sym.targets(b);
    const auto b_volumes = graph_.sym.volumes(b);
    const auto own_row = d_.row(own);
    for (std::size_t e = 0; e < targets.size(); ++e) {
      b_there +=
          static_cast<Int128>(b_volumes[e]) * d_.at(own_row, d_.column(place_[static_cast<std::size_t>(targets[e])]));
    }
    const Int128 pair = 2 * static_cast<Int128>(volume_to_a_[static_cast<std::size_t>(b)]) * d_(own, t);
    return costs_.current(b) - pair - b_there;
  }

  const GraphLevel& graph_;
  const TargetLevel& target_;
  const Distances& d_;
  std::vector<std::int64_t>& place_;
  refine::RankCosts<Distances> costs_;
  std::vector<std::int64_t> occupant_;
  Candidates heavy_;  ///< each cluster's heaviest partners (scores unused)
  std::uint64_t stamp_ = 0;
  std::vector<std::uint64_t> seen_;
  std::vector<typename Distances::Row> partner_row_;  ///< the rows of the groups of the partners of improve()'s cluster
  std::vector<std::int64_t> partner_node_;            ///< by nodes: those groups' nodes instead
  std::vector<Volume> volume_to_a_;                   ///< S_a,b of that cluster a, zero elsewhere
  bool node_sums_ = false;                            ///< kNodeSums, and no two groups on one PE
  std::vector<Int128> node_cost_;                     ///< by nodes: C_a(N) of improve()'s cluster
  std::vector<std::uint64_t> node_stamp_;             ///< the stamp node_cost_[N] was summed at
};

}  // namespace tmap::multilevel
