#include "strategies/common/bisection.hpp"

#include <algorithm>
#include <limits>
#include <random>

#include "strategies/common/bisection_graph.hpp"
#include "strategies/common/gain_heap.hpp"
#include "tmap/error.hpp"

namespace tmap::strategies {

namespace {

/// Bisection::Auto splits by multilevel bisection in jobs above this many
/// ranks. On a million-rank stencil on Tianhe-3 the default took 19.9 s
/// flat and 8.6-8.8 s multilevel, for 3 % more hop-bytes (13 % on a
/// shuffled one, 35 s against 24-30 s): the flat path's greedy growing from
/// a peripheral vertex cuts grids along a plane whatever their numbering,
/// which multilevel bisection does only when the numbering follows the
/// grid (benchmarks/results/speed.md). At 131,072 tasks on 128 PEs (a
/// 64x64x32 stencil, `-o 1024` on `tleaf 2 4 100 32 10`) it found the
/// flat path's hop-bytes in a quarter of its time in natural order, but 37 %
/// more shuffled: only jobs where the grouping runs alone take it.
constexpr std::int64_t kMultilevelJobs = 262144;

/// Multilevel bisection splits sets above this many ranks; smaller ones
/// are split flat (greedy growing and FM over the whole set, three seeds).
constexpr std::int64_t kFlatLargest = 256;

/// refine_split's V-cycles coarsen to this many vertices: on random degree-6
/// traffic onto tleafs (tree_pairs.cpp) 16 gave 0.25 % fewer hop-bytes than
/// 256 (one level on the pairs of 512 ranks there), 64 0.22 %.
constexpr std::int64_t kRefineCoarsest = 16;

/// refine_split's passes after a V-cycle go at least this many moves past
/// their best prefix.
constexpr std::size_t kFruitlessLeast = 16;

/// Moves past a pass's best prefix after which later passes stop.
constexpr std::size_t kFruitlessMoves = 1000;

/// The traffic among `ranks`, renumbered 0..m-1 in their order, each
/// vertex of weight 1 (or, `weighted`, the rank's weight).
detail::BisectionGraph subgraph(const CommMatrix& sym, const std::vector<Rank>& ranks, bool weighted = false) {
  if (ranks.size() > static_cast<std::size_t>(std::numeric_limits<detail::LocalVertex>::max())) {
    throw ParameterError("bisection: more than 2^31 - 1 ranks in one set");
  }
  // Each rank's index in the set, from a per-thread table over all ranks
  // (-1 outside the set, restored on every way out): a lookup per edge
  // instead of a binary search (a fifth of treematch's time). The table
  // stays with the thread: 4 bytes per rank of the largest job it saw.
  thread_local std::vector<detail::LocalVertex> index_of;
  // Ids past the matrix are silent objects (treematch's padding): no row.
  const auto n = sym.num_ranks();
  Rank objects = n;
  for (const Rank r : ranks) objects = std::max(objects, r + 1);
  if (index_of.size() < static_cast<std::size_t>(objects)) index_of.resize(static_cast<std::size_t>(objects), -1);
  struct Restore {
    const std::vector<Rank>& ranks;
    ~Restore() {
      for (const Rank r : ranks) index_of[static_cast<std::size_t>(r)] = -1;
    }
  } const restore{ranks};
  for (std::size_t k = 0; k < ranks.size(); ++k) {
    index_of[static_cast<std::size_t>(ranks[k])] = static_cast<detail::LocalVertex>(k);
  }
  detail::BisectionGraph g;
  g.begin.reserve(ranks.size() + 1);
  g.total.reserve(ranks.size());
  g.weight.assign(ranks.size(), 1);
  // At most every entry of the ranks' rows: reserved once, not regrown
  // (regrowing a million-rank set's edges was a tenth of the grouping).
  std::size_t entries = 0;
  for (const Rank r : ranks) entries += r < n ? sym.targets(r).size() : 0;
  g.adj.reserve(entries);
  g.w.reserve(entries);
  if (weighted) {
    for (std::size_t k = 0; k < ranks.size(); ++k) g.weight[k] = ranks[k] < n ? sym.rank_weight(ranks[k]) : 0;
  }
  for (const Rank r : ranks) {
    Volume sum = 0;
    if (r >= n) {
      g.begin.push_back(static_cast<std::int64_t>(g.adj.size()));
      g.total.push_back(0);
      continue;
    }
    const auto targets = sym.targets(r);
    const auto volumes = sym.volumes(r);
    for (std::size_t e = 0; e < targets.size(); ++e) {
      const auto at = index_of[static_cast<std::size_t>(targets[e])];
      if (at < 0) continue;
      g.adj.push_back(static_cast<detail::LocalVertex>(at));
      g.w.push_back(volumes[e]);
      sum += volumes[e];
    }
    g.begin.push_back(static_cast<std::int64_t>(g.adj.size()));
    g.total.push_back(sum);
  }
  return g;
}

using Subgraph = detail::BisectionGraph;

/// Fiduccia-Mattheyses passes of paired moves (one each way), so sizes stay
/// exact; each pass keeps its best prefix. Returns the final cut.
Volume refine(const Subgraph& g, std::vector<char>& side, Volume cut, int passes,
              std::size_t fruitless = std::numeric_limits<std::size_t>::max()) {
  const auto m = g.size();
  std::vector<Volume> gain(static_cast<std::size_t>(m));
  // Each side's unlocked vertices by gain (ties to the lowest vertex).
  detail::GainHeap heaps[2] = {detail::GainHeap(gain), detail::GainHeap(gain)};
  std::vector<std::int32_t> entries[2];
  std::vector<std::int64_t> moved;
  for (int pass = 0; pass < passes; ++pass) {
    entries[0].clear();
    entries[1].clear();
    for (std::int64_t v = 0; v < m; ++v) {
      Volume sum = 0;
      for (auto e = g.begin[v]; e < g.begin[v + 1]; ++e) sum += side[g.adj[e]] != side[v] ? g.w[e] : -g.w[e];
      gain[v] = sum;
      entries[side[v] != 0 ? 1 : 0].push_back(static_cast<std::int32_t>(v));
    }
    heaps[0].assign(entries[0]);
    heaps[1].assign(entries[1]);
    // A moved vertex leaves its heap for good (locked for the pass).
    auto move = [&](std::int64_t v) {
      side[v] = static_cast<char>(1 - side[v]);
      gain[v] = -gain[v];
      for (auto e = g.begin[v]; e < g.begin[v + 1]; ++e) {
        const auto u = g.adj[e];
        gain[u] += side[u] == side[v] ? -2 * g.w[e] : 2 * g.w[e];
        auto& heap = heaps[side[u] != 0 ? 1 : 0];
        if (heap.contains(u)) heap.update(u);
      }
    };
    moved.clear();
    Volume running = 0;
    Volume best = 0;
    std::size_t best_moves = 0;
    for (;;) {
      bool ok = true;
      for (int s = 0; s < 2 && ok; ++s) {
        if (heaps[s].empty()) {
          ok = false;
          break;
        }
        const auto v = heaps[s].pop();
        running += gain[v];
        move(v);
        moved.push_back(v);
      }
      if (!ok) break;
      if (running > best) {
        best = running;
        best_moves = moved.size();
      }
      // Moves past the best prefix are undone: after the first pass (which
      // may have to cross a long plateau), a pass stops once that tail grows
      // long. On 65,536-rank stencils this cut treematch's time by 25-35 %
      // at equal or lower hop-bytes.
      if (pass > 0 && moved.size() - best_moves > kFruitlessMoves) break;
      if (moved.size() - best_moves > fruitless) break;
    }
    // Undo everything after the best prefix (a whole number of pairs).
    if (moved.size() % 2 == 1) {
      side[moved.back()] = static_cast<char>(1 - side[moved.back()]);
      moved.pop_back();
    }
    for (std::size_t k = moved.size(); k-- > best_moves;) side[moved[k]] = static_cast<char>(1 - side[moved[k]]);
    if (best <= 0) break;
    cut -= best;
  }
  return cut;
}

}  // namespace

namespace detail {

Volume cut_of(const BisectionGraph& g, const std::vector<char>& side) {
  Volume cut = 0;
  for (std::int64_t v = 0; v < g.size(); ++v) {
    for (auto e = g.begin[v]; e < g.begin[v + 1]; ++e) {
      if (side[v] != side[g.adj[e]]) cut += g.w[e];
    }
  }
  return cut / 2;
}

std::int64_t farthest(const BisectionGraph& g, std::int64_t start) {
  std::vector<std::int64_t> level(static_cast<std::size_t>(g.size()), -1);
  std::vector<std::int64_t> queue{start};
  level[start] = 0;
  std::int64_t last = start;
  for (std::size_t head = 0; head < queue.size(); ++head) {
    const auto v = queue[head];
    if (level[v] > level[last] || (level[v] == level[last] && v < last)) last = v;
    for (auto e = g.begin[v]; e < g.begin[v + 1]; ++e) {
      if (level[g.adj[e]] < 0) {
        level[g.adj[e]] = level[v] + 1;
        queue.push_back(g.adj[e]);
      }
    }
  }
  return last;
}

}  // namespace detail

bool splits_multilevel(Bisection how, std::int64_t ranks) {
  return how == Bisection::Multilevel || (how == Bisection::Auto && ranks > kMultilevelJobs);
}

std::pair<std::vector<Rank>, std::vector<Rank>> bisect(const CommMatrix& sym, const std::vector<Rank>& ranks,
                                                       std::int64_t first_size, int fm_passes, Bisection how) {
  // Recursive splits pass their parts on in order: sorted only if not.
  std::vector<Rank> sorted = ranks;
  if (!std::is_sorted(sorted.begin(), sorted.end())) std::sort(sorted.begin(), sorted.end());
  const auto m = static_cast<std::int64_t>(sorted.size());
  if (first_size <= 0) return {{}, sorted};
  if (first_size >= m) return {sorted, {}};
  const auto g = subgraph(sym, sorted);
  std::pair<std::vector<Rank>, std::vector<Rank>> parts;
  const auto split = [&](const std::vector<char>& side) {
    parts.first.reserve(static_cast<std::size_t>(first_size));
    parts.second.reserve(static_cast<std::size_t>(m - first_size));
    for (std::int64_t v = 0; v < m; ++v) (side[v] == 0 ? parts.first : parts.second).push_back(sorted[v]);
    return parts;
  };
  if (splits_multilevel(how, sym.num_ranks()) && m > kFlatLargest && fm_passes != 0)
    return split(detail::multilevel_bisect(g, first_size));
  // Seeds: both ends of a pseudo-diameter and the heaviest talker.
  const auto end1 = detail::farthest(g, detail::farthest(g, 0));
  const auto end2 = detail::farthest(g, end1);
  const auto heaviest = static_cast<std::int64_t>(std::max_element(g.total.begin(), g.total.end()) - g.total.begin());
  std::vector<char> best_side;
  Volume best_cut = std::numeric_limits<Volume>::max();
  // Large sets (the top levels of a huge job): one seed and fewer passes,
  // which keeps a million ranks tractable; smaller sets get the full effort.
  const bool large = m > 50'000;
  std::vector<std::int64_t> seeds{end1};
  if (!large) {
    for (const auto seed : {end2, heaviest}) {
      if (std::ranges::find(seeds, seed) == seeds.end()) seeds.push_back(seed);
    }
  }
  std::vector<std::vector<char>> grown;
  for (const auto seed : seeds) {
    auto side = detail::grow(g, seed, first_size);
    // Two seeds often grow the same part (a stencil's heaviest talker is
    // one end of its diameter): refining it again finds the same cut.
    if (std::ranges::find(grown, side) != grown.end()) continue;
    grown.push_back(side);
    const auto cut = refine(g, side, detail::cut_of(g, side), fm_passes >= 0 ? fm_passes : (large ? 4 : 12));
    if (cut < best_cut) {
      best_cut = cut;
      best_side = std::move(side);
    }
  }
  return split(best_side);
}

std::pair<Volume, Volume> refine_split(const CommMatrix& sym, const std::vector<Rank>& ranks, std::vector<char>& side,
                                       int passes, bool multilevel) {
  const auto g = subgraph(sym, ranks);
  const auto before = detail::cut_of(g, side);
  if (multilevel && g.size() > kRefineCoarsest) {
    // The V-cycle's split, refined by the paired passes, where it cuts
    // less. After the V-cycle a pass ends a twentieth of the set past its
    // best prefix: 7 % less of the quality mode's time on random tleaf jobs
    // for 0.03 % more hop-bytes.
    auto cycled = side;
    detail::multilevel_refine(g, cycled, kRefineCoarsest, std::count(side.begin(), side.end(), char{0}), 0);
    const auto cut = refine(g, cycled, detail::cut_of(g, cycled), passes,
                            std::max<std::size_t>(kFruitlessLeast, static_cast<std::size_t>(g.size()) / 20));
    if (cut >= before) return {before, before};
    side = std::move(cycled);
    return {before, cut};
  }
  return {before, refine(g, side, before, passes)};
}

std::pair<Volume, Volume> refine_split_by_weight(const CommMatrix& sym, const std::vector<Rank>& ranks,
                                                 std::vector<char>& side, Volume least, Volume most) {
  const auto g = subgraph(sym, ranks, true);
  const auto before = detail::cut_of(g, side);
  if (g.size() <= 1 || least > most) return {before, before};
  auto cycled = side;
  detail::multilevel_refine(g, cycled, kRefineCoarsest, least + (most - least) / 2, (most - least) / 2);
  Volume weight = 0;
  for (std::int64_t v = 0; v < g.size(); ++v) weight += cycled[static_cast<std::size_t>(v)] == 0 ? g.weight[v] : 0;
  const auto cut = detail::cut_of(g, cycled);
  if (cut >= before || weight < least || weight > most) return {before, before};
  side = std::move(cycled);
  return {before, cut};
}

std::pair<std::vector<Rank>, std::vector<Rank>> bisect_by_weight(const CommMatrix& sym, const std::vector<Rank>& ranks,
                                                                 Volume first_weight, Volume window, WeightedCut how) {
  std::vector<Rank> sorted = ranks;
  std::sort(sorted.begin(), sorted.end());
  Volume total = 0;
  for (const Rank r : sorted) total += sym.rank_weight(r);
  if (first_weight <= 0) return {{}, sorted};
  if (first_weight >= total) return {sorted, {}};
  // The graph's vertices in rank order, or shuffled by the seed (matching
  // and ties then go another way: another cut of the same quality class).
  std::vector<Rank> order = sorted;
  if (how.order_seed != 0) {
    std::mt19937_64 random(how.order_seed ^ (static_cast<std::uint64_t>(order.size()) * 0x9E3779B97F4A7C15ULL));
    std::shuffle(order.begin(), order.end(), random);
  }
  const auto side = detail::multilevel_bisect(
      subgraph(sym, order, true), first_weight, std::max<Volume>(0, window),
      how.whole_level_passes ? detail::Thoroughness::WholeLevels : detail::Thoroughness::Levels);
  std::pair<std::vector<Rank>, std::vector<Rank>> parts;
  for (std::size_t v = 0; v < order.size(); ++v) (side[v] == 0 ? parts.first : parts.second).push_back(order[v]);
  std::sort(parts.first.begin(), parts.first.end());
  std::sort(parts.second.begin(), parts.second.end());
  return parts;
}

}  // namespace tmap::strategies
