#include "strategies/common/tree_pairs.hpp"

#include <algorithm>
#include <cstdlib>
#include <exception>
#include <limits>
#include <numeric>
#include <queue>
#include <span>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

#include "strategies/common/bisection.hpp"
#include "strategies/common/tree_order.hpp"
#include "util/random.hpp"

namespace tmap::strategies {

namespace {

/// FM passes per pair after its V-cycle (each keeps its best prefix; a
/// pass that gains nothing ends them). Twelve random jobs of 1,024 and
/// 4,096 ranks on tleafs, from Scotch's mapping, end within 4; a poor start
/// takes more (12 ranks dealt at random: 1,120 after 4 passes where 916 is
/// optimal), and a pair is run again only when its children change.
constexpr int kPasses = 12;

/// Rounds over a node's pairs: another round while the last one gained at
/// least kRoundGain of the node's cut. The 16 racks of 4,096 random ranks
/// gain 1.6 %, 0.43 %, 0.25 %, 0.14 % and 0.06 % of their cut in five.
constexpr int kRounds = 8;
constexpr double kRoundGain = 0.001;

/// Each child is paired with its heaviest partners only (all of them in
/// nodes of up to 17 children): the 64 racks of 16,384 random ranks with
/// all 63 partners took 3x the quality mode's time.
constexpr std::size_t kPartners = 16;

/// Pairs of at most this many ranks are also split afresh (bisect: growing
/// from three seeds, then FM), the lower cut kept: FM from a poor start
/// ends in a local optimum (12 ranks dealt at random: a cut of 1,120 where
/// 916 is optimal, which the fresh split finds). Larger pairs start from
/// good mappings here: 128 ranks gave 0.1 % fewer hop-bytes on random
/// tleaf jobs for 12 % more time.
constexpr std::size_t kFreshSplits = 64;

/// One pair's FM, kept apart until its wave ends.
struct PairResult {
  std::vector<Rank> ranks;
  std::vector<char> side;
  Volume gain = 0;
};

class PairRefiner {
 public:
  /// `limits`: with a load limit (ranks balanced by weight) each PE's load
  /// and count are kept within it and the count capacity; else the counts
  /// stay as they are.
  PairRefiner(const CommMatrix& sym, const TreeOrder& order, std::vector<std::int64_t>& position,
              const Constraints& limits, const TreePairOptions& options)
      : sym_(sym),
        order_(order),
        position_(position),
        load_limit_(limits.load_limit()),
        count_limit_(limits.capacity()),
        threads_(options.threads),
        cycles_(options.cycles),
        patience_(options.patience),
        child_of_(static_cast<std::size_t>(sym.num_ranks()), -1) {
    if (load_limit_ > 0) {
      load_.assign(order.pes.size(), 0);
      count_.assign(order.pes.size(), 0);
      for (Rank r = 0; r < static_cast<Rank>(position.size()); ++r) {
        load_[static_cast<std::size_t>(position[static_cast<std::size_t>(r)])] += sym.rank_weight(r);
        ++count_[static_cast<std::size_t>(position[static_cast<std::size_t>(r)])];
      }
    }
    // Ranks by tree position: a subtree's ranks are one run.
    by_position_.resize(position.size());
    std::iota(by_position_.begin(), by_position_.end(), Rank{0});
    std::stable_sort(by_position_.begin(), by_position_.end(), [&](Rank a, Rank b) { return before(a, b); });
  }

  TreePairStats run() {
    refine(0, order_.pes.size(), 0, 0, by_position_.size());
    return stats_;
  }

 private:
  [[nodiscard]] bool before(Rank a, Rank b) const {
    return position_[static_cast<std::size_t>(a)] < position_[static_cast<std::size_t>(b)];
  }

  /// The subtree of PEs [lo, hi) at `depth`, whose ranks are by_position_[first, last).
  void refine(std::size_t lo, std::size_t hi, std::size_t depth, std::size_t first, std::size_t last) {
    if (hi - lo <= 1 || last - first <= 1) return;
    const auto children = tree_children(order_, lo, hi, depth);
    if (children.size() == 1) {
      refine(lo, hi, depth + 1, first, last);
      return;
    }
    const auto c = children.size();
    std::vector<std::vector<Rank>> held(c);
    {
      std::size_t child = 0;
      for (auto k = first; k < last; ++k) {
        const auto r = by_position_[k];
        while (static_cast<std::size_t>(position_[static_cast<std::size_t>(r)]) >= children[child].hi) ++child;
        held[child].push_back(r);
      }
    }
    bool trades = false;
    for (const auto& h : held) trades = trades || h.size() > 1;
    if (trades) refine_pairs(held, children);
    auto k = first;
    for (std::size_t child = 0; child < c; ++child) {
      const auto begin = k;
      for (const auto r : held[child]) by_position_[k++] = r;
      std::sort(by_position_.begin() + static_cast<std::ptrdiff_t>(begin),
                by_position_.begin() + static_cast<std::ptrdiff_t>(k), [&](Rank a, Rank b) { return before(a, b); });
      refine(children[child].lo, children[child].hi, depth + 1, begin, k);
    }
  }

  /// Rounds of FM over pairs of children, each child with its heaviest
  /// partners; a pair neither of whose children changed since it last ran
  /// is left (its FM would find the same split).
  void refine_pairs(std::vector<std::vector<Rank>>& held, const std::vector<TreeChild>& children) {
    const auto c = held.size();
    std::vector<std::int64_t> version(c, 0);
    // Each pair's children's versions when it last ran (key i * c + j):
    // sparse, as a node may have thousands of children.
    std::unordered_map<std::size_t, std::pair<std::int64_t, std::int64_t>> ran;
    std::vector<Volume> to(c, 0);
    std::vector<std::size_t> touched;
    for (int round = 0; round < kRounds; ++round) {
      for (std::size_t i = 0; i < c; ++i) {
        for (const auto r : held[i]) child_of_[static_cast<std::size_t>(r)] = static_cast<std::int64_t>(i);
      }
      // The traffic between children: each child's partners (both ways).
      std::vector<std::vector<std::pair<Volume, std::size_t>>> partners(c);
      Volume cut = 0;
      for (std::size_t i = 0; i < c; ++i) {
        for (const auto r : held[i]) {
          const auto targets = sym_.targets(r);
          const auto volumes = sym_.volumes(r);
          for (std::size_t e = 0; e < targets.size(); ++e) {
            const auto j = child_of_[static_cast<std::size_t>(targets[e])];
            if (j < 0 || static_cast<std::size_t>(j) <= i) continue;
            if (to[static_cast<std::size_t>(j)] == 0) touched.push_back(static_cast<std::size_t>(j));
            to[static_cast<std::size_t>(j)] += volumes[e];
            cut += volumes[e];
          }
        }
        for (const auto j : touched) {
          partners[i].emplace_back(-to[j], j);
          partners[j].emplace_back(-to[j], i);
          to[j] = 0;
        }
        touched.clear();
      }
      for (const auto& h : held) {
        for (const auto r : h) child_of_[static_cast<std::size_t>(r)] = -1;
      }
      // Each child's heaviest partners (ties: the lower child), each pair
      // once, with its traffic.
      std::vector<std::tuple<Volume, std::size_t, std::size_t>> pairs;
      for (std::size_t i = 0; i < c; ++i) {
        auto& row = partners[i];
        std::erase_if(row, [&](const auto& p) { return held[i].size() + held[p.second].size() <= 2; });
        const auto keep = std::min(row.size(), kPartners);
        std::partial_sort(row.begin(), row.begin() + static_cast<std::ptrdiff_t>(keep), row.end());
        for (std::size_t k = 0; k < keep; ++k) {
          pairs.emplace_back(row[k].first, std::min(i, row[k].second), std::max(i, row[k].second));
        }
      }
      std::sort(pairs.begin(), pairs.end());
      pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
      std::erase_if(pairs, [&](const auto& p) {
        const auto [minus, i, j] = p;
        const auto at = ran.find(i * c + j);
        return at != ran.end() && at->second == std::make_pair(version[i], version[j]);
      });
      Volume gained = 0;
      // Waves of disjoint pairs, the heaviest first; a wave's pairs run side
      // by side (they touch different ranks), their results applied in order.
      std::vector<char> done(pairs.size(), 0);
      std::vector<char> busy(c, 0);
      for (std::size_t start = 0; start < pairs.size();) {
        std::vector<std::size_t> wave;
        std::fill(busy.begin(), busy.end(), 0);
        for (std::size_t p = start; p < pairs.size(); ++p) {
          const auto [minus, i, j] = pairs[p];
          if (done[p] || busy[i] || busy[j]) continue;
          busy[i] = busy[j] = 1;
          done[p] = 1;
          wave.push_back(p);
        }
        while (start < pairs.size() && done[start]) ++start;
        std::vector<PairResult> results(wave.size());
        std::exception_ptr error;
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads_) if (threads_ > 1 && wave.size() > 1)
        for (std::size_t w = 0; w < wave.size(); ++w) {
          try {
            const auto [minus, i, j] = pairs[wave[w]];
            results[w] = load_limit_ > 0 ? split_pair_by_load(held[i], held[j], children[i], children[j])
                                         : split_pair(held[i], held[j]);
          } catch (...) {
#pragma omp critical(tmap_tree_pairs_error)
            if (!error) error = std::current_exception();
          }
        }
        if (error) std::rethrow_exception(error);
        for (std::size_t w = 0; w < wave.size(); ++w) {
          const auto [minus, i, j] = pairs[wave[w]];
          ++stats_.pairs;
          if (results[w].gain > 0 &&
              (load_limit_ > 0 ? place_by_load(results[w], held[i], held[j], children[i], children[j])
                               : trade_places(results[w], held[i], held[j]))) {
            gained += results[w].gain;
            ++version[i];
            ++version[j];
          }
          ran[i * c + j] = {version[i], version[j]};
        }
      }
      if (gained <= 0 || static_cast<double>(gained) < kRoundGain * static_cast<double>(cut)) break;
    }
  }

  /// The ranks of two children, side 0 a's.
  [[nodiscard]] static PairResult joined(const std::vector<Rank>& a, const std::vector<Rank>& b) {
    PairResult result;
    result.ranks.reserve(a.size() + b.size());
    result.ranks.insert(result.ranks.end(), a.begin(), a.end());
    result.ranks.insert(result.ranks.end(), b.begin(), b.end());
    result.side.assign(result.ranks.size(), 0);
    std::fill(result.side.begin() + static_cast<std::ptrdiff_t>(a.size()), result.side.end(), 1);
    return result;
  }

  /// FM over the ranks of two children (side 0: a's).
  [[nodiscard]] PairResult split_pair(const std::vector<Rank>& a, const std::vector<Rank>& b) const {
    auto result = joined(a, b);
    const auto [before, after] = refine_split(sym_, result.ranks, result.side, kPasses, true);
    result.gain = before - cycle_again(result, after, [&](const std::vector<Rank>& ranks, std::vector<char>& side) {
                    return refine_split(sym_, ranks, side, kPasses, true);
                  });
    if (result.ranks.size() <= kFreshSplits) {
      // bisect's parts come sorted; its cut is taken from refine_split
      // with no passes (the same count as `before`).
      const auto parts = bisect(sym_, result.ranks, static_cast<std::int64_t>(a.size()));
      std::vector<char> fresh(result.ranks.size(), 1);
      for (std::size_t k = 0; k < result.ranks.size(); ++k) {
        if (std::binary_search(parts.first.begin(), parts.first.end(), result.ranks[k])) fresh[k] = 0;
      }
      const auto fresh_cut = refine_split(sym_, result.ranks, fresh, 0).second;
      if (before - fresh_cut > result.gain) {
        result.gain = before - fresh_cut;
        result.side = std::move(fresh);
      }
    }
    return result;
  }

  /// Ranks that changed child trade positions pairwise (as many each way).
  bool trade_places(const PairResult& result, std::vector<Rank>& a, std::vector<Rank>& b) {
    const auto from_a = a.size();
    std::vector<Rank> to_b;
    std::vector<Rank> to_a;
    for (std::size_t k = 0; k < result.ranks.size(); ++k) {
      if (k < from_a && result.side[k] == 1) to_b.push_back(result.ranks[k]);
      if (k >= from_a && result.side[k] == 0) to_a.push_back(result.ranks[k]);
    }
    for (std::size_t k = 0; k < to_b.size(); ++k) {
      std::swap(position_[static_cast<std::size_t>(to_b[k])], position_[static_cast<std::size_t>(to_a[k])]);
    }
    settle(result, a, b, to_a.size() + to_b.size());
    return true;
  }

  /// The two children's ranks after a kept split, and the stats.
  void settle(const PairResult& result, std::vector<Rank>& a, std::vector<Rank>& b, std::size_t moved) {
    a.clear();
    b.clear();
    for (std::size_t k = 0; k < result.ranks.size(); ++k) (result.side[k] == 0 ? a : b).push_back(result.ranks[k]);
    stats_.moved += static_cast<std::int64_t>(moved);
    stats_.gain += result.gain;
  }

  /// By load: a V-cycle whose moves keep each child within its PEs' load
  /// limits (the counts are checked after).
  [[nodiscard]] PairResult split_pair_by_load(const std::vector<Rank>& a, const std::vector<Rank>& b,
                                              const TreeChild& child_a, const TreeChild& child_b) const {
    auto result = joined(a, b);
    Volume total = 0;
    for (const auto r : result.ranks) total += sym_.rank_weight(r);
    const auto room_a = load_limit_ * static_cast<Volume>(child_a.hi - child_a.lo);
    const auto room_b = load_limit_ * static_cast<Volume>(child_b.hi - child_b.lo);
    const auto least = std::max<Volume>(0, total - room_b);
    const auto most = std::min(room_a, total);
    const auto [before, after] = refine_split_by_weight(sym_, result.ranks, result.side, least, most);
    const auto cut = cycle_again(result, after, [&](const std::vector<Rank>& ranks, std::vector<char>& side) {
      return refine_split_by_weight(sym_, ranks, side, least, most);
    });
    const auto first = std::count(result.side.begin(), result.side.end(), char{0});
    const bool counts_fit = first <= count_limit_ * static_cast<std::int64_t>(child_a.hi - child_a.lo) &&
                            static_cast<std::int64_t>(result.ranks.size()) - first <=
                                count_limit_ * static_cast<std::int64_t>(child_b.hi - child_b.lo);
    result.gain = counts_fit ? before - cut : 0;
    return result;
  }

  /// Further V-cycles of a pair after its first (cycles_ in all), each with
  /// the ranks in another seeded order (another matching), until patience_
  /// in a row gain nothing; `refine(ranks, side)` returns the cut before
  /// and after. Returns the cut reached.
  template <typename Refine>
  Volume cycle_again(PairResult& result, Volume cut, Refine&& refine) const {
    std::vector<std::size_t> order(result.ranks.size());
    std::vector<Rank> ranks(result.ranks.size());
    std::vector<char> side(result.ranks.size());
    int idle = 0;
    for (int k = 1; k < cycles_ && idle < patience_; ++k) {
      std::iota(order.begin(), order.end(), std::size_t{0});
      detail::Random rng(static_cast<std::uint64_t>(k), result.ranks.size());
      rng.shuffle(std::span<std::size_t>(order));
      for (std::size_t x = 0; x < order.size(); ++x) {
        ranks[x] = result.ranks[order[x]];
        side[x] = result.side[order[x]];
      }
      const auto [from, to] = refine(ranks, side);
      if (to >= from) {
        ++idle;
        continue;
      }
      idle = 0;
      cut = to;
      for (std::size_t x = 0; x < order.size(); ++x) result.side[order[x]] = side[x];
    }
    return cut;
  }

  /// By load: the ranks that changed child leave their PEs, then each,
  /// heaviest first, takes the PE of its new child with the most room
  /// (ties: the first in tree order). Where one does not fit, nothing
  /// changes (false).
  bool place_by_load(const PairResult& result, std::vector<Rank>& a, std::vector<Rank>& b, const TreeChild& child_a,
                     const TreeChild& child_b) {
    const auto from_a = a.size();
    std::vector<Rank> movers[2];  // [0]: into a, [1]: into b
    for (std::size_t k = 0; k < result.ranks.size(); ++k) {
      const bool was_a = k < from_a;
      if (was_a != (result.side[k] == 0)) movers[result.side[k] == 0 ? 0 : 1].push_back(result.ranks[k]);
    }
    // Each mover's PE before, to put it back if another does not fit.
    std::vector<std::pair<Rank, std::int64_t>> was;
    for (const auto& into : movers) {
      for (const auto r : into) {
        const auto pe = position_[static_cast<std::size_t>(r)];
        load_[static_cast<std::size_t>(pe)] -= sym_.rank_weight(r);
        --count_[static_cast<std::size_t>(pe)];
        was.emplace_back(r, pe);
      }
    }
    std::vector<Rank> placed;
    bool fits = true;
    for (int s = 0; s < 2 && fits; ++s) {
      const auto& child = s == 0 ? child_a : child_b;
      auto& into = movers[s];
      std::stable_sort(into.begin(), into.end(),
                       [&](Rank x, Rank y) { return sym_.rank_weight(x) > sym_.rank_weight(y); });
      // The child's PEs by room, most first (ties: the first in tree order).
      std::priority_queue<std::pair<Volume, std::int64_t>> rooms;
      for (auto pe = child.lo; pe < child.hi; ++pe) {
        if (count_[pe] < count_limit_) rooms.emplace(load_limit_ - load_[pe], -static_cast<std::int64_t>(pe));
      }
      for (const auto r : into) {
        const auto w = sym_.rank_weight(r);
        if (rooms.empty() || rooms.top().first < w) {
          fits = false;
          break;
        }
        const auto pe = static_cast<std::size_t>(-rooms.top().second);
        rooms.pop();
        position_[static_cast<std::size_t>(r)] = static_cast<std::int64_t>(pe);
        load_[pe] += w;
        ++count_[pe];
        placed.push_back(r);
        if (count_[pe] < count_limit_) rooms.emplace(load_limit_ - load_[pe], -static_cast<std::int64_t>(pe));
      }
    }
    if (!fits) {
      for (const auto r : placed) {
        const auto pe = static_cast<std::size_t>(position_[static_cast<std::size_t>(r)]);
        load_[pe] -= sym_.rank_weight(r);
        --count_[pe];
      }
      for (const auto& [r, pe] : was) {
        position_[static_cast<std::size_t>(r)] = pe;
        load_[static_cast<std::size_t>(pe)] += sym_.rank_weight(r);
        ++count_[static_cast<std::size_t>(pe)];
      }
      return false;
    }
    settle(result, a, b, movers[0].size() + movers[1].size());
    return true;
  }

  const CommMatrix& sym_;
  const TreeOrder& order_;
  std::vector<std::int64_t>& position_;  ///< rank -> index in order_.pes
  Volume load_limit_;                    ///< each PE's, or 0: counts only
  std::int64_t count_limit_;             ///< ranks a PE may hold
  std::vector<Volume> load_;             ///< by load: each PE's (index in order_.pes)
  std::vector<std::int64_t> count_;      ///< by load: each PE's ranks
  int threads_;
  int cycles_;
  int patience_;
  std::vector<Rank> by_position_;
  std::vector<std::int64_t> child_of_;  ///< during refine_pairs: rank -> child of the node, else -1
  TreePairStats stats_;
};

/// Whether the distance of two distinct PEs of `order` depends only on how
/// deep their paths agree (a tleaf, a fat tree's levels; not Tianhe-3,
/// whose chips sit on a mesh): checked for each PE and the next in the
/// order, and from four anchors to every PE.
bool distances_follow_tree(const Topology& topology, const TreeOrder& order) {
  const auto n = order.pes.size();
  const auto depths = branch_depths(order);
  std::size_t deepest = 0;
  for (std::size_t k = 0; k + 1 < order.offsets.size(); ++k) deepest = std::max(deepest, order.path(k).size());
  std::vector<Distance> at_depth(deepest + 1, -1);
  const auto agrees = [&](std::int32_t depth, Distance d) {
    auto& known = at_depth[static_cast<std::size_t>(depth)];
    if (known < 0) known = d;
    return known == d;
  };
  for (std::size_t k = 1; k < n; ++k) {
    if (!agrees(depths[k], topology.distance(order.pes[k - 1], order.pes[k]))) return false;
  }
  std::vector<Distance> row(n);
  for (const auto anchor : {std::size_t{0}, n / 3, 2 * n / 3, n - 1}) {
    topology.distances_from(order.pes[anchor], order.pes, row);
    auto depth = std::numeric_limits<std::int32_t>::max();
    for (auto k = anchor + 1; k < n; ++k) {
      depth = std::min(depth, depths[k]);
      if (!agrees(depth, row[k])) return false;
    }
    depth = std::numeric_limits<std::int32_t>::max();
    for (auto k = anchor; k-- > 0;) {
      depth = std::min(depth, depths[k + 1]);
      if (!agrees(depth, row[k])) return false;
    }
  }
  return true;
}

}  // namespace

TreePairStats refine_tree_pairs(const CommMatrix& sym, const Topology& topology, const Constraints& constraints,
                                Mapping& mapping, const TreePairOptions& options) {
  const auto order = tree_order(topology, constraints.allowed_pes());
  if (!order || sym.num_ranks() < 2 || !distances_follow_tree(topology, *order)) return {};
  std::vector<std::int64_t> index_of(static_cast<std::size_t>(topology.size()), -1);
  for (std::size_t k = 0; k < order->pes.size(); ++k) {
    index_of[static_cast<std::size_t>(order->pes[k])] = static_cast<std::int64_t>(k);
  }
  std::vector<std::int64_t> position(mapping.size());
  for (std::size_t r = 0; r < mapping.size(); ++r) position[r] = index_of[static_cast<std::size_t>(mapping[r])];
  auto stats = PairRefiner(sym, *order, position, constraints, options).run();
  stats.applied = true;
  for (std::size_t r = 0; r < mapping.size(); ++r) mapping[r] = order->pes[static_cast<std::size_t>(position[r])];
  return stats;
}

}  // namespace tmap::strategies
