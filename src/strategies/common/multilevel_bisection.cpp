// Multilevel bisection (the scheme of Scotch's and METIS's graph
// bisection): coarsen by heavy-edge matching, split the coarsest graph,
// then project and refine level by level. A flat Fiduccia-Mattheyses pass
// visits every vertex of the set, which made treematch's grouping of a
// million ranks 16 s (fourteen levels of recursive bisection, each over all
// the ranks, with three seeds and up to twelve passes); here a level costs
// one sweep over its edges and its passes move only boundary vertices.
#include <algorithm>
#include <cstdlib>
#include <limits>
#include <utility>

#include "strategies/common/bisection_graph.hpp"
#include "strategies/common/gain_heap.hpp"

namespace tmap::strategies::detail {

namespace {

/// Coarsening stops at this many vertices (where three seeds of growing and
/// FM are cheap), or when a level shrinks by less than 15 %.
constexpr std::int64_t kCoarsest = 256;
/// Moves past a pass's best prefix after which the pass stops: 1 % of the
/// level's vertices within these bounds (METIS's 2-way FM's rule).
constexpr std::int64_t kFruitlessLeast = 15;
constexpr std::int64_t kFruitlessMost = 100;
/// FM passes per level at most (each stops early when it gains nothing).
constexpr int kPasses = 4;
/// The coarsest graph's passes (a few hundred vertices: cheap): up to 12,
/// each free to cross a long plateau, as the flat path's. Greedy growing
/// alone cuts a grid far from its plane (2.2x on a shuffled 32x32x16
/// stencil); bounded passes left the coarsest cut at 2.9x the plane's.
constexpr int kThoroughPasses = 12;
/// ... for sets of at least this many vertices, where the coarsest cut is
/// carried down many levels and the passes cost nothing beside the set:
/// on every set they made a million-rank default 10-30 % slower for 1 %.
constexpr std::int64_t kThoroughFrom = 8192;

/// How far an FM pass may go past its best prefix before it stops: METIS's
/// bound (above), a fifth of the level's vertices, or all of them; the
/// last two with up to kThoroughPasses passes. Thorough multilevel runs
/// (bisection by weight) take a fifth at every finer level: on a shuffled
/// 64x64x32 stencil onto 4:8:2 PEs, 6.52e6 hop-bytes in 1.7 s against 7.34e6
/// bounded and 6.70e6 in 7 s with whole-level passes (random degree-6
/// traffic: 2.671e8 in 3.8 s, 2.670e8 in 22 s); a tenth already fell off
/// on a heavy-cornered one (8.87e6 at a twentieth).
enum class Reach { Bounded, Fifth, Whole };

std::int64_t weight_of_side0(const BisectionGraph& g, const std::vector<char>& side) {
  std::int64_t w0 = 0;
  for (std::int64_t v = 0; v < g.size(); ++v) {
    if (side[v] == 0) w0 += g.weight[v];
  }
  return w0;
}

std::int64_t heaviest_vertex(const BisectionGraph& g) {
  return *std::max_element(g.weight.begin(), g.weight.end());
}

/// One level up: vertices matched with their heaviest-traffic free
/// neighbour (visited in id order, so a stencil pairs along its first
/// axis), pairs at most `cap` heavy; vertices without traffic in the set
/// are paired with each other. parent[v] = v's coarse vertex, numbered in
/// the order of their lower member.
BisectionGraph coarsen(const BisectionGraph& g, std::int64_t cap, std::vector<std::int64_t>& parent,
                       const std::vector<char>* side = nullptr) {
  const auto m = g.size();
  std::vector<std::int64_t> match(static_cast<std::size_t>(m), -1);
  for (std::int64_t v = 0; v < m; ++v) {
    if (match[v] >= 0) continue;
    std::int64_t best = -1;
    Volume best_w = 0;
    for (auto e = g.begin[v]; e < g.begin[v + 1]; ++e) {
      const auto u = g.adj[e];
      if (u == v || match[u] >= 0 || g.weight[v] + g.weight[u] > cap) continue;
      if (side != nullptr && (*side)[u] != (*side)[v]) continue;
      if (best < 0 || g.w[e] > best_w || (g.w[e] == best_w && u < best)) {
        best = u;
        best_w = g.w[e];
      }
    }
    if (best >= 0) {
      match[v] = best;
      match[best] = v;
    }
  }
  std::int64_t pending = -1;
  for (std::int64_t v = 0; v < m; ++v) {
    if (match[v] >= 0 || g.begin[v] != g.begin[v + 1]) continue;
    if (pending >= 0 && g.weight[pending] + g.weight[v] <= cap && (side == nullptr || (*side)[pending] == (*side)[v])) {
      match[pending] = v;
      match[v] = pending;
      pending = -1;
    } else {
      pending = v;
    }
  }
  parent.assign(static_cast<std::size_t>(m), -1);
  std::int64_t count = 0;
  for (std::int64_t v = 0; v < m; ++v) {
    if (match[v] >= 0 && match[v] < v) continue;
    parent[v] = count;
    if (match[v] >= 0) parent[match[v]] = count;
    ++count;
  }
  BisectionGraph c;
  c.weight.resize(static_cast<std::size_t>(count));
  c.total.assign(static_cast<std::size_t>(count), 0);
  c.begin.reserve(static_cast<std::size_t>(count) + 1);
  c.adj.reserve(g.adj.size() / 2);
  c.w.reserve(g.adj.size() / 2);
  // slot[cu]: where the edge to coarse vertex cu sits if it is in the row
  // being built (a slot before the row's start is an older row's).
  std::vector<std::int64_t> slot(static_cast<std::size_t>(count), -1);
  for (std::int64_t v = 0; v < m; ++v) {
    if (match[v] >= 0 && match[v] < v) continue;
    const auto cv = parent[v];
    const auto row = static_cast<std::int64_t>(c.adj.size());
    c.weight[cv] = g.weight[v] + (match[v] >= 0 ? g.weight[match[v]] : 0);
    for (const auto x : {v, match[v]}) {
      if (x < 0) continue;
      for (auto e = g.begin[x]; e < g.begin[x + 1]; ++e) {
        const auto cu = parent[g.adj[e]];
        if (cu == cv) continue;
        if (slot[cu] < row) {
          slot[cu] = static_cast<std::int64_t>(c.adj.size());
          c.adj.push_back(static_cast<LocalVertex>(cu));
          c.w.push_back(g.w[e]);
        } else {
          c.w[slot[cu]] += g.w[e];
        }
        c.total[cv] += g.w[e];
      }
    }
    c.begin.push_back(static_cast<std::int64_t>(c.adj.size()));
  }
  return c;
}

/// The heaviest a coarse vertex may be: a quarter of the smaller side, and
/// 1.5x the average at `coarsest` vertices, so the coarsest split can balance.
std::int64_t coarse_cap(const BisectionGraph& g, std::int64_t first_size, std::int64_t coarsest) {
  std::int64_t total = 0;
  for (const auto w : g.weight) total += w;
  const auto smaller = std::min(first_size, total - first_size);
  return std::max<std::int64_t>(2, std::min(smaller / 4, (3 * total) / (2 * coarsest)));
}

/// The levels above g, finest first, coarsened until `coarsest` vertices
/// or a level shrinks by less than 15 %. With `side`, vertices match only
/// within their side, and `side` is carried up to the coarsest level.
struct Levels {
  std::vector<BisectionGraph> coarse;
  std::vector<std::vector<std::int64_t>> parents;  ///< parents[k]: level k's vertex -> level k + 1's
};
Levels coarsen_levels(const BisectionGraph& g, std::int64_t cap, std::int64_t coarsest,
                      std::vector<char>* side = nullptr) {
  Levels levels;
  const BisectionGraph* current = &g;
  while (current->size() > coarsest) {
    std::vector<std::int64_t> parent;
    auto next = coarsen(*current, cap, parent, side);
    if (next.size() * 20 > current->size() * 17) break;
    if (side != nullptr) {
      std::vector<char> up(static_cast<std::size_t>(next.size()));
      for (std::int64_t v = 0; v < current->size(); ++v) up[static_cast<std::size_t>(parent[v])] = (*side)[v];
      *side = std::move(up);
    }
    levels.parents.push_back(std::move(parent));
    levels.coarse.push_back(std::move(next));
    current = &levels.coarse.back();
  }
  return levels;
}

/// A split of level k + 1 carried down to level k.
std::vector<char> project(const std::vector<std::int64_t>& parent, const std::vector<char>& side) {
  std::vector<char> fine(parent.size());
  for (std::size_t v = 0; v < parent.size(); ++v) fine[v] = side[static_cast<std::size_t>(parent[v])];
  return fine;
}

/// Each vertex's gain (cut traffic it would remove by changing sides).
void compute_gains(const BisectionGraph& g, const std::vector<char>& side, std::vector<Volume>& gain) {
  gain.assign(static_cast<std::size_t>(g.size()), 0);
  for (std::int64_t v = 0; v < g.size(); ++v) {
    for (auto e = g.begin[v]; e < g.begin[v + 1]; ++e) gain[v] += side[g.adj[e]] != side[v] ? g.w[e] : -g.w[e];
  }
}

/// Moves v to the other side, keeping gains and side 0's weight current;
/// `touched(u)` is told of each neighbour whose gain changed.
template <typename Touched>
void move_vertex(const BisectionGraph& g, std::int64_t v, std::vector<char>& side, std::vector<Volume>& gain,
                 std::int64_t& w0, Touched&& touched) {
  w0 += side[v] == 0 ? -g.weight[v] : g.weight[v];
  side[v] = static_cast<char>(1 - side[v]);
  gain[v] = -gain[v];
  for (auto e = g.begin[v]; e < g.begin[v + 1]; ++e) {
    const auto u = g.adj[e];
    gain[u] += side[u] == side[v] ? -2 * g.w[e] : 2 * g.w[e];
    touched(u);
  }
}

/// Moves vertices off the heavier side, highest gain first, each bringing
/// side 0's weight closer to `target`, until it is within `window`.
void rebalance(const BisectionGraph& g, std::vector<char>& side, std::vector<Volume>& gain, std::int64_t& w0,
               std::int64_t target, std::int64_t window, GainHeap& heap) {
  while (std::abs(w0 - target) > window) {
    const char heavy = w0 > target ? 0 : 1;
    // The heavier side's boundary first (a vertex joins when a neighbour
    // moves); its interior only when the boundary has none light enough.
    std::vector<std::int32_t> entries;
    for (std::int64_t v = 0; v < g.size(); ++v) {
      if (side[v] == heavy && gain[v] > -g.total[v]) entries.push_back(static_cast<std::int32_t>(v));
    }
    if (entries.empty()) {
      for (std::int64_t v = 0; v < g.size(); ++v) {
        if (side[v] == heavy) entries.push_back(static_cast<std::int32_t>(v));
      }
    }
    heap.assign(entries);
    bool moved = false;
    while (std::abs(w0 - target) > window && (w0 > target ? 0 : 1) == heavy) {
      const auto excess = std::abs(w0 - target);
      // A vertex too heavy to bring the side nearer leaves (until a
      // neighbour's move changes its gain).
      while (!heap.empty() && g.weight[heap.top()] >= 2 * excess) heap.pop();
      if (heap.empty()) break;
      const auto v = heap.pop();
      move_vertex(g, v, side, gain, w0, [&](std::int64_t u) {
        if (side[u] == heavy) heap.update(u);
      });
      moved = true;
    }
    if (!moved) return;  // no vertex light enough: the window cannot be met
  }
}

/// One Fiduccia-Mattheyses pass of single moves from the boundary, each
/// keeping side 0 within `window` of `target` (or no further than it
/// already is); the best prefix is kept. Returns the traffic it took off
/// the cut.
Volume fm_pass(const BisectionGraph& g, std::vector<char>& side, std::vector<Volume>& gain, std::int64_t& w0,
               std::int64_t target, std::int64_t window, std::vector<char>& locked, Reach reach, GainHeap (&heaps)[2]) {
  // The boundary: a vertex with traffic across (its gain exceeds -total).
  std::vector<std::int32_t> entries[2];
  for (std::int64_t v = 0; v < g.size(); ++v) {
    if (gain[v] > -g.total[v]) entries[side[v] != 0 ? 1 : 0].push_back(static_cast<std::int32_t>(v));
  }
  heaps[0].assign(entries[0]);
  heaps[1].assign(entries[1]);
  const auto allowed = std::max(window, std::abs(w0 - target));
  const auto fruitless =
      reach == Reach::Whole ? static_cast<std::size_t>(g.size())
      : reach == Reach::Fifth
          ? static_cast<std::size_t>(g.size() / 5)
          : static_cast<std::size_t>(std::clamp<std::int64_t>(g.size() / 100, kFruitlessLeast, kFruitlessMost));
  std::vector<std::int64_t> moved;
  Volume running = 0;
  Volume best = 0;
  std::int64_t best_imbalance = std::abs(w0 - target);
  std::size_t best_moves = 0;
  for (;;) {
    std::int64_t pick = -1;
    std::int64_t pick_imbalance = 0;
    for (int s = 0; s < 2; ++s) {
      if (heaps[s].empty()) continue;
      const auto v = heaps[s].top();
      const auto after = std::abs((s == 0 ? w0 - g.weight[v] : w0 + g.weight[v]) - target);
      if (after > allowed) continue;
      if (pick < 0 || gain[v] > gain[pick] || (gain[v] == gain[pick] && after < pick_imbalance)) {
        pick = v;
        pick_imbalance = after;
      }
    }
    if (pick < 0) break;
    heaps[side[pick] != 0 ? 1 : 0].pop();
    running += gain[pick];
    locked[pick] = 1;
    move_vertex(g, pick, side, gain, w0, [&](std::int64_t u) {
      if (locked[u] == 0) heaps[side[u] != 0 ? 1 : 0].update(u);
    });
    moved.push_back(pick);
    const auto imbalance = std::abs(w0 - target);
    if (running > best || (running == best && imbalance < best_imbalance)) {
      best = running;
      best_imbalance = imbalance;
      best_moves = moved.size();
    }
    if (moved.size() - best_moves > fruitless) break;
  }
  for (std::size_t k = moved.size(); k-- > best_moves;) move_vertex(g, moved[k], side, gain, w0, [](std::int64_t) {});
  for (const auto v : moved) locked[v] = 0;
  return best;
}

/// Rebalances into the window, then FM passes while they gain (thorough:
/// the coarsest graph's, unbounded and more of them).
void refine_level(const BisectionGraph& g, std::vector<char>& side, std::int64_t target, std::int64_t window,
                  Reach reach = Reach::Bounded) {
  auto w0 = weight_of_side0(g, side);
  std::vector<Volume> gain;
  compute_gains(g, side, gain);
  // One pair of heaps for the level's passes (allocated once: fewer large
  // blocks freed and taken again).
  GainHeap heaps[2] = {GainHeap(gain), GainHeap(gain)};
  rebalance(g, side, gain, w0, target, window, heaps[0]);
  std::vector<char> locked(static_cast<std::size_t>(g.size()), 0);
  for (int pass = 0; pass < (reach == Reach::Bounded ? kPasses : kThoroughPasses); ++pass) {
    if (fm_pass(g, side, gain, w0, target, window, locked, reach, heaps) <= 0) break;
  }
}

/// The coarsest graph split from three seeds (both ends of a
/// pseudo-diameter and the heaviest talker), the lowest cut kept.
std::vector<char> initial_split(const BisectionGraph& g, std::int64_t target, std::int64_t window, Reach reach) {
  const auto end1 = farthest(g, farthest(g, 0));
  const auto end2 = farthest(g, end1);
  const auto heaviest = static_cast<std::int64_t>(std::max_element(g.total.begin(), g.total.end()) - g.total.begin());
  // Lowest overweight past the window first, then lowest cut.
  std::vector<char> best_side;
  Volume best_cut = 0;
  std::int64_t best_over = 0;
  for (const auto seed : {end1, end2, heaviest}) {
    auto side = grow(g, seed, target);
    refine_level(g, side, target, window, reach);
    const auto cut = cut_of(g, side);
    const auto over = std::max<std::int64_t>(0, std::abs(weight_of_side0(g, side) - target) - window);
    if (best_side.empty() || over < best_over || (over == best_over && cut < best_cut)) {
      best_cut = cut;
      best_over = over;
      best_side = std::move(side);
    }
  }
  return best_side;
}

}  // namespace

std::vector<char> grow(const BisectionGraph& g, std::int64_t seed, std::int64_t target) {
  std::vector<char> side(static_cast<std::size_t>(g.size()), 1);
  // Side 1 by what a move adds to the cut, least first: 2 x the vertex's
  // traffic to side 0 - its traffic (the highest key); the seed above all.
  std::vector<Volume> key(static_cast<std::size_t>(g.size()));
  std::vector<std::int32_t> vertices(static_cast<std::size_t>(g.size()));
  for (std::int64_t v = 0; v < g.size(); ++v) {
    key[v] = v == seed ? std::numeric_limits<Volume>::max() : -g.total[v];
    vertices[v] = static_cast<std::int32_t>(v);
  }
  GainHeap heap(key);
  heap.assign(vertices);
  for (std::int64_t w0 = 0; w0 < target && !heap.empty();) {
    const auto v = heap.pop();
    side[v] = 0;
    w0 += g.weight[v];
    for (auto e = g.begin[v]; e < g.begin[v + 1]; ++e) {
      const auto u = g.adj[e];
      if (side[u] == 0) continue;
      key[u] += 2 * g.w[e];
      heap.update(u);
    }
  }
  return side;
}

std::vector<char> multilevel_bisect(const BisectionGraph& g, std::int64_t first_size, std::int64_t final_window,
                                    Thoroughness effort) {
  const bool thorough = effort != Thoroughness::Coarsest;
  const auto each_level = effort == Thoroughness::WholeLevels ? Reach::Whole : Reach::Fifth;
  const auto m = g.size();
  // Named members, not a structured binding: `level` captures them.
  auto levels = coarsen_levels(g, coarse_cap(g, first_size, kCoarsest), kCoarsest);
  auto& coarse = levels.coarse;
  const auto& parents = levels.parents;
  const auto level = [&](std::size_t k) -> const BisectionGraph& { return k == 0 ? g : coarse[k - 1]; };
  const auto top = coarse.size();
  const auto window = [&](const BisectionGraph& at) { return std::max(heaviest_vertex(at), final_window); };
  // The coarsest graph: whole-level passes in large sets; a fifth in thorough runs, as at every level.
  const auto coarsest = thorough ? each_level : (m >= kThoroughFrom ? Reach::Whole : Reach::Bounded);
  auto side = initial_split(level(top), first_size, window(level(top)), coarsest);
  for (std::size_t k = top; k-- > 0;) {
    const auto& fine = level(k);
    side = project(parents[k], side);
    coarse.resize(k);  // the level above is no longer needed
    refine_level(fine, side, first_size, window(fine), thorough ? each_level : Reach::Bounded);
  }
  // Within the final window (exact sizes for unit weights and window 0),
  // then, when that widened the window, passes within it.
  auto w0 = weight_of_side0(g, side);
  std::vector<Volume> gain;
  compute_gains(g, side, gain);
  GainHeap heaps[2] = {GainHeap(gain), GainHeap(gain)};
  rebalance(g, side, gain, w0, first_size, final_window, heaps[0]);
  if (final_window > 0) {
    std::vector<char> locked(static_cast<std::size_t>(g.size()), 0);
    for (int pass = 0; pass < kPasses; ++pass) {
      if (fm_pass(g, side, gain, w0, first_size, final_window, locked, thorough ? each_level : Reach::Bounded, heaps) <=
          0)
        break;
    }
  }
  return side;
}

void multilevel_refine(const BisectionGraph& g, std::vector<char>& side, std::int64_t coarsest, std::int64_t target,
                       std::int64_t window) {
  // Levels matched within each side: the split is one at every level.
  auto up = side;
  auto levels = coarsen_levels(g, coarse_cap(g, target, coarsest), coarsest, &up);
  auto& coarse = levels.coarse;
  const auto& parents = levels.parents;
  // Down: FM within the level's heaviest vertex (or the window) at the
  // coarse levels, within the window at the finest (of 0, unit weights:
  // the exact weight restored, then no single move fits and the caller's
  // paired passes follow).
  for (std::size_t k = coarse.size() + 1; k-- > 0;) {
    const auto& at = k == 0 ? g : coarse[k - 1];
    if (k < coarse.size()) {
      up = project(parents[k], up);
      coarse.resize(k);  // the level above is no longer needed
    }
    refine_level(at, up, target, k == 0 ? window : std::max(window, heaviest_vertex(at)), Reach::Fifth);
  }
  side = std::move(up);
}

}  // namespace tmap::strategies::detail
