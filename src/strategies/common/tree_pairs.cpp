#include "strategies/common/tree_pairs.hpp"

#include <algorithm>
#include <exception>
#include <limits>
#include <numeric>
#include <tuple>
#include <utility>
#include <vector>

#include "strategies/common/bisection.hpp"
#include "strategies/common/tree_order.hpp"

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
  PairRefiner(const CommMatrix& sym, const TreeOrder& order, std::vector<std::int64_t>& position, int threads)
      : sym_(sym), order_(order), position_(position), threads_(threads),
        child_of_(static_cast<std::size_t>(sym.num_ranks()), -1) {
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
    if (trades) refine_pairs(held);
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
  void refine_pairs(std::vector<std::vector<Rank>>& held) {
    const auto c = held.size();
    std::vector<std::int64_t> version(c, 0);
    std::vector<std::pair<std::int64_t, std::int64_t>> ran(c * c, {-1, -1});
    for (int round = 0; round < kRounds; ++round) {
      for (std::size_t i = 0; i < c; ++i) {
        for (const auto r : held[i]) child_of_[static_cast<std::size_t>(r)] = static_cast<std::int64_t>(i);
      }
      std::vector<Volume> between(c * c, 0);
      Volume cut = 0;
      for (std::size_t i = 0; i < c; ++i) {
        for (const auto r : held[i]) {
          const auto targets = sym_.targets(r);
          const auto volumes = sym_.volumes(r);
          for (std::size_t e = 0; e < targets.size(); ++e) {
            const auto j = child_of_[static_cast<std::size_t>(targets[e])];
            if (j < 0 || static_cast<std::size_t>(j) == i) continue;
            between[i * c + static_cast<std::size_t>(j)] += volumes[e];
            if (static_cast<std::size_t>(j) > i) cut += volumes[e];
          }
        }
      }
      for (const auto& h : held) {
        for (const auto r : h) child_of_[static_cast<std::size_t>(r)] = -1;
      }
      // Each child's heaviest partners (ties: the lower child).
      std::vector<char> chosen(c * c, 0);
      std::vector<std::pair<Volume, std::size_t>> row;
      for (std::size_t i = 0; i < c; ++i) {
        row.clear();
        for (std::size_t j = 0; j < c; ++j) {
          if (j != i && between[i * c + j] > 0 && held[i].size() + held[j].size() > 2) row.emplace_back(-between[i * c + j], j);
        }
        const auto keep = std::min(row.size(), kPartners);
        std::partial_sort(row.begin(), row.begin() + static_cast<std::ptrdiff_t>(keep), row.end());
        for (std::size_t k = 0; k < keep; ++k) chosen[std::min(i, row[k].second) * c + std::max(i, row[k].second)] = 1;
      }
      std::vector<std::tuple<Volume, std::size_t, std::size_t>> pairs;
      for (std::size_t i = 0; i < c; ++i) {
        for (std::size_t j = i + 1; j < c; ++j) {
          if (chosen[i * c + j] == 0) continue;
          if (ran[i * c + j] == std::make_pair(version[i], version[j])) continue;
          pairs.emplace_back(-between[i * c + j], i, j);
        }
      }
      std::sort(pairs.begin(), pairs.end());
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
            results[w] = split_pair(held[i], held[j]);
          } catch (...) {
#pragma omp critical(tmap_tree_pairs_error)
            if (!error) error = std::current_exception();
          }
        }
        if (error) std::rethrow_exception(error);
        for (std::size_t w = 0; w < wave.size(); ++w) {
          const auto [minus, i, j] = pairs[wave[w]];
          ++stats_.pairs;
          if (results[w].gain > 0) {
            apply(results[w], held[i], held[j]);
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

  /// FM over the ranks of two children (side 0: a's).
  [[nodiscard]] PairResult split_pair(const std::vector<Rank>& a, const std::vector<Rank>& b) const {
    PairResult result;
    result.ranks.reserve(a.size() + b.size());
    result.ranks.insert(result.ranks.end(), a.begin(), a.end());
    result.ranks.insert(result.ranks.end(), b.begin(), b.end());
    result.side.assign(result.ranks.size(), 0);
    std::fill(result.side.begin() + static_cast<std::ptrdiff_t>(a.size()), result.side.end(), 1);
    const auto [before, after] = refine_split(sym_, result.ranks, result.side, kPasses, true);
    result.gain = before - after;
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
  void apply(const PairResult& result, std::vector<Rank>& a, std::vector<Rank>& b) {
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
    a.clear();
    b.clear();
    for (std::size_t k = 0; k < result.ranks.size(); ++k) (result.side[k] == 0 ? a : b).push_back(result.ranks[k]);
    stats_.moved += static_cast<std::int64_t>(to_a.size() + to_b.size());
    stats_.gain += result.gain;
  }

  const CommMatrix& sym_;
  const TreeOrder& order_;
  std::vector<std::int64_t>& position_;  ///< rank -> index in order_.pes
  int threads_;
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
                                Mapping& mapping, int threads) {
  const auto order = tree_order(topology, constraints.allowed_pes());
  if (!order || sym.num_ranks() < 2 || !distances_follow_tree(topology, *order)) return {};
  std::vector<std::int64_t> index_of(static_cast<std::size_t>(topology.size()), -1);
  for (std::size_t k = 0; k < order->pes.size(); ++k) {
    index_of[static_cast<std::size_t>(order->pes[k])] = static_cast<std::int64_t>(k);
  }
  std::vector<std::int64_t> position(mapping.size());
  for (std::size_t r = 0; r < mapping.size(); ++r) position[r] = index_of[static_cast<std::size_t>(mapping[r])];
  auto stats = PairRefiner(sym, *order, position, threads).run();
  stats.applied = true;
  for (std::size_t r = 0; r < mapping.size(); ++r) mapping[r] = order->pes[static_cast<std::size_t>(position[r])];
  return stats;
}

}  // namespace tmap::strategies
