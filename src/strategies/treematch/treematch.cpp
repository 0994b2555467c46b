#include "strategies/treematch/treematch.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <exception>
#include <numeric>
#include <optional>
#include <span>
#include <thread>

#include "strategies/common/bisection.hpp"
#include "strategies/common/tree_order.hpp"
#include "strategies/scotch/scotch.hpp"
#include "strategies/treematch/grouping.hpp"
#include "tmap/comm_matrix.hpp"
#include "tmap/metrics.hpp"
#include "tmap/topology.hpp"
#include "util/parallel.hpp"

namespace tmap::strategies {

namespace {

/// Above this many ranks on a full symmetric tree only the bottom-up
/// grouping runs: it beat the top-down split on Tianhe-3 at 262,144 ranks
/// (782,920,000 hop-bytes against 810,236,000) and at a million (by 20 %:
/// 3.41e9 against 4.27e9), and each takes half of the time (a million
/// ranks: 53 s for both).
constexpr Rank kTopDownRanks = 262144;

/// Up to this many ranks the default runs the top-down split alone: the
/// bottom-up grouping was above it or equal in 11 of 12 jobs of 4,096 and
/// 16,384 ranks (stencils natural and shuffled, random traffic; a tleaf and
/// Tianhe-3), below it once by 0.36 % (random traffic on Tianhe-3), and
/// took as long again.
constexpr Rank kGroupingRanks = 16384;

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

/// The allowed PEs sorted by tree path (every subtree a contiguous range)
/// and the slots each holds.
struct Trie : TreeOrder {
  std::int64_t capacity = 1;
};

class Placer {
 public:
  Placer(const CommMatrix& sym, const Trie& trie, Mapping& mapping, strategies::Bisection how)
      : sym_(sym), trie_(trie), mapping_(mapping), how_(how) {}

  /// `budget`: threads that may place the parts of a split side by side
  /// (they write disjoint ranks; the mapping does not depend on it).
  void place(std::size_t lo, std::size_t hi, std::size_t depth, const std::vector<Rank>& ranks, int budget = 1) {
    if (ranks.empty()) return;
    if (hi - lo == 1) {
      for (const Rank r : ranks) mapping_[r] = trie_.pes[lo];
      return;
    }
    auto children = tree_children(trie_, lo, hi, depth);
    if (children.size() == 1) {
      place(lo, hi, depth + 1, ranks, budget);
      return;
    }
    deal_most_room_first(children, static_cast<std::int64_t>(ranks.size()), trie_.capacity);
    std::vector<TreeChild> used;
    bool singles = true;
    for (const auto& c : children) {
      if (c.size > 0) used.push_back(c);
      singles = singles && c.size <= 1;
    }
    if (singles) {
      // One rank per child: every pair is this node's distance apart
      // whichever goes where (and one rank has no traffic inside its child).
      for (std::size_t k = 0; k < used.size(); ++k) place(used[k].lo, used[k].hi, depth + 1, {ranks[k]});
      return;
    }
    split(used, 0, used.size(), depth, ranks, budget);
  }

 private:
  void split(const std::vector<TreeChild>& children, std::size_t first, std::size_t last, std::size_t depth,
             const std::vector<Rank>& ranks, int budget) {
    if (last - first == 1) {
      place(children[first].lo, children[first].hi, depth + 1, ranks, budget);
      return;
    }
    const std::size_t mid = first + (last - first) / 2;
    std::int64_t left = 0;
    for (std::size_t k = first; k < mid; ++k) left += children[k].size;
    // Named members, not a structured binding: clang captures none in a lambda.
    const auto parts = strategies::bisect(sym_, ranks, left, -1, how_);
    const auto& a = parts.first;
    const auto& b = parts.second;
    detail::run_both(
        budget > 1, [&] { split(children, first, mid, depth, a, budget - budget / 2); },
        [&] { split(children, mid, last, depth, b, std::max(1, budget / 2)); });
  }

  const CommMatrix& sym_;
  const Trie& trie_;
  Mapping& mapping_;
  strategies::Bisection how_;
};

/// The fan-outs of the trie from the root, when every node of a depth has
/// as many children and all leaves are at one depth; empty otherwise.
std::vector<std::int64_t> symmetric_arities(const Trie& trie) {
  std::vector<std::int64_t> arities;
  std::vector<std::pair<std::size_t, std::size_t>> level{{0, trie.pes.size()}};
  for (std::size_t depth = 0; level.front().second - level.front().first > 1; ++depth) {
    std::vector<std::pair<std::size_t, std::size_t>> next;
    std::int64_t arity = -1;
    for (const auto& [lo, hi] : level) {
      std::int64_t count = 0;
      for (std::size_t k = lo; k < hi;) {
        if (depth >= trie.path(k).size()) return {};
        std::size_t end = k + 1;
        while (end < hi && depth < trie.path(end).size() && trie.path(end)[depth] == trie.path(k)[depth]) ++end;
        next.emplace_back(k, end);
        ++count;
        k = end;
      }
      if (arity >= 0 && count != arity) return {};
      arity = count;
    }
    if (arity > 1) arities.push_back(arity);
    level = std::move(next);
  }
  for (const auto& [lo, hi] : level) {
    if (hi - lo != 1) return {};
  }
  return arities;
}

strategies::Bisection bisection_of(std::string_view name) {
  if (name == "flat") return strategies::Bisection::Flat;
  if (name == "multilevel") return strategies::Bisection::Multilevel;
  return strategies::Bisection::Auto;
}

}  // namespace

Mapping TreeMatchMapper::map(const Problem& problem, const Run& context) const {
  const auto bisection = bisection_of(context.treematch.bisection);
  const auto& topology = problem.topology;
  const auto& constraints = problem.constraints;
  Trie trie;
  trie.capacity = constraints.capacity();
  if (auto order = tree_order(topology, constraints.allowed_pes())) {
    static_cast<TreeOrder&>(trie) = std::move(*order);
  } else {
    context.fall_back("treematch", "scotch", topology.kind() + " is not a tree");  // as TopoMatch does
    return ScotchMapper::map_on_one_thread(problem, context);
  }
  // A symmetric traffic is its own symmetrization but for a factor 2 that
  // no cut, gain or grouping below depends on: taken as it is (at a million
  // ranks of a stencil the copy is 100 MB).
  std::optional<CommMatrix> symmetrized;
  if (!problem.comm.is_symmetric()) symmetrized = problem.comm.symmetrized();
  const CommMatrix& sym = symmetrized ? *symmetrized : problem.comm;
  std::vector<Rank> ranks(static_cast<std::size_t>(sym.num_ranks()));
  std::iota(ranks.begin(), ranks.end(), Rank{0});
  Mapping mapping(ranks.size(), -1);
  // On a full symmetric tree TreeMatch's bottom-up grouping runs too (on a
  // second thread when there is one: the two share nothing); the mapping
  // with the lower exact hop-bytes is kept (ties: top-down).
  auto arities = symmetric_arities(trie);
  // Up to kGroupingRanks the grouping runs only when asked (the quality
  // preset): there it lost to the top-down split in 9 of 12 jobs measured
  // and tied in 2, for as much time again.
  const bool grouping = (!arities.empty() || trie.pes.size() == 1) &&
                        (context.treematch.grouping == "always" || sym.num_ranks() > kGroupingRanks);
  // Past kTopDownRanks a full tree gets the grouping alone.
  const bool top_down_runs = !grouping || sym.num_ranks() <= kTopDownRanks;
  if (!top_down_runs) {
    // The grouping needs the PEs in order, not their paths: 38 MB at a
    // million PEs, released before its peak.
    trie.values = {};
    trie.offsets = {};
  }
  std::vector<std::int64_t> position;
  double grouping_s = 0;
  const auto group = [&] {
    const auto start = std::chrono::steady_clock::now();
    if (trie.capacity > 1) arities.push_back(trie.capacity);
    if (arities.empty()) arities.push_back(1);
    arities.insert(arities.begin(), 1);  // the root level itself is not grouped
    // Alone (past kTopDownRanks) it has every thread; beside the top-down
    // split, the helper thread's share.
    const int threads = top_down_runs ? std::max(1, context.threads - 1) : context.threads;
    position = treematch::bottom_up(sym, arities, context.treematch.tau, bisection, threads);
    grouping_s = seconds_since(start);
  };
  const auto start = std::chrono::steady_clock::now();
  std::exception_ptr grouping_error;
  double top_down_s = 0;
  {
    std::jthread helper;
    if (grouping && context.threads > 1) {
      helper = std::jthread([&] {
        try {
          group();
        } catch (...) {
          grouping_error = std::current_exception();
        }
      });
    }
    // Beside the grouping's helper thread, the rest of the budget.
    const int budget = grouping && context.threads > 1 ? context.threads - 1 : context.threads;
    if (top_down_runs) Placer(sym, trie, mapping, bisection).place(0, trie.pes.size(), 0, ranks, std::max(1, budget));
    top_down_s = seconds_since(start);
  }
  if (grouping_error) std::rethrow_exception(grouping_error);
  if (grouping) {
    if (context.threads <= 1) group();
    Mapping grouped(ranks.size());
    for (std::size_t r = 0; r < ranks.size(); ++r) {
      grouped[r] = trie.pes[static_cast<std::size_t>(position[r] / trie.capacity)];
    }
    if (!top_down_runs) {
      context.note(2, fmt::format("treematch: bottom-up grouping only ({:.1f} s)", grouping_s));
      return grouped;
    }
    const auto top_down = evaluate(problem.comm, topology, mapping).hop_bytes;
    const auto bottom_up = evaluate(problem.comm, topology, grouped).hop_bytes;
    context.note(2, fmt::format("treematch: top-down {} hop-bytes ({:.1f} s), bottom-up grouping {} ({:.1f} s)",
                                top_down, top_down_s, bottom_up, grouping_s));
    if (bottom_up < top_down) return grouped;
  }
  return mapping;
}

}  // namespace tmap::strategies
