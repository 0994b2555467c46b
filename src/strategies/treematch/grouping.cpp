#include "strategies/treematch/grouping.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <optional>

#include "strategies/common/bisection.hpp"
#include "strategies/common/locality_order.hpp"
#include "util/parallel.hpp"

namespace tmap::treematch {

namespace {

using Groups = std::vector<std::vector<std::int64_t>>;

/// How a level's objects are grouped (the header's list).
enum class Method { Singletons, Exhaustive, Matching, Greedy, Partition };

/// C(m, a), saturating at `cap`.
std::int64_t choose(std::int64_t m, std::int64_t a, std::int64_t cap) {
  double c = 1;
  for (std::int64_t k = 0; k < a; ++k) {
    c = c * static_cast<double>(m - k) / static_cast<double>(k + 1);
    if (c > static_cast<double>(cap)) return cap + 1;
  }
  return std::llround(c);
}

Volume weight(const CommMatrix& g, std::int64_t a, std::int64_t b) {
  return g.at(a, b);
}

/// Internal traffic of a set of objects.
Volume inside(const CommMatrix& g, const std::vector<std::int64_t>& set) {
  Volume sum = 0;
  for (std::size_t i = 0; i < set.size(); ++i) {
    for (std::size_t j = i + 1; j < set.size(); ++j) sum += weight(g, set[i], set[j]);
  }
  return sum;
}

/// Swaps objects between groups while that keeps more traffic inside.
constexpr Rank kImproveLargest = 256;  // O(m^2 a) per pass

/// `objects` as partition's: past kImproveLargest nothing is done, so only
/// a padded matrix (every object a row) gets here.
void improve(const CommMatrix& g, std::int64_t objects, Groups& groups) {
  if (objects > kImproveLargest) return;
  std::vector<std::int64_t> group_of(static_cast<std::size_t>(g.num_ranks()));
  for (std::size_t k = 0; k < groups.size(); ++k) {
    for (const auto o : groups[k]) group_of[o] = static_cast<std::int64_t>(k);
  }
  auto to_group = [&](std::int64_t o, std::size_t k) {
    Volume sum = 0;
    for (const auto x : groups[k]) {
      if (x != o) sum += weight(g, o, x);
    }
    return sum;
  };
  for (int pass = 0; pass < 8; ++pass) {
    bool changed = false;
    for (std::int64_t u = 0; u < g.num_ranks(); ++u) {
      for (std::int64_t v = u + 1; v < g.num_ranks(); ++v) {
        const auto gu = static_cast<std::size_t>(group_of[u]);
        const auto gv = static_cast<std::size_t>(group_of[v]);
        if (gu == gv) continue;
        const Volume gain =
            to_group(u, gv) - weight(g, u, v) - to_group(u, gu) + to_group(v, gu) - weight(g, u, v) - to_group(v, gv);
        if (gain <= 0) continue;
        std::replace(groups[gu].begin(), groups[gu].end(), u, v);
        std::replace(groups[gv].begin(), groups[gv].end(), v, u);
        std::swap(group_of[u], group_of[v]);
        changed = true;
      }
    }
    if (!changed) break;
  }
}

Groups exhaustive(const CommMatrix& g, std::int64_t a) {
  const auto m = g.num_ranks();
  std::vector<std::pair<Volume, std::vector<std::int64_t>>> all;
  std::vector<std::int64_t> pick(static_cast<std::size_t>(a));
  std::iota(pick.begin(), pick.end(), std::int64_t{0});
  for (;;) {
    all.emplace_back(inside(g, pick), pick);
    std::int64_t k = a - 1;
    while (k >= 0 && pick[k] == m - a + k) --k;
    if (k < 0) break;
    ++pick[k];
    for (auto j = k + 1; j < a; ++j) pick[j] = pick[j - 1] + 1;
  }
  std::stable_sort(all.begin(), all.end(), [](const auto& x, const auto& y) { return x.first > y.first; });
  std::vector<char> used(static_cast<std::size_t>(m), 0);
  Groups groups;
  for (const auto& [w, set] : all) {
    if (std::any_of(set.begin(), set.end(), [&](std::int64_t o) { return used[o] != 0; })) continue;
    for (const auto o : set) used[o] = 1;
    groups.push_back(set);
  }
  return groups;
}

Groups matching(const CommMatrix& g) {
  std::vector<std::tuple<Volume, std::int64_t, std::int64_t>> edges;
  for (Rank u = 0; u < g.num_ranks(); ++u) {
    for (std::size_t e = 0; e < g.targets(u).size(); ++e) {
      if (g.targets(u)[e] > u) edges.emplace_back(-g.volumes(u)[e], u, g.targets(u)[e]);
    }
  }
  std::sort(edges.begin(), edges.end());
  std::vector<char> used(static_cast<std::size_t>(g.num_ranks()), 0);
  Groups groups;
  for (const auto& [w, u, v] : edges) {
    if (used[u] != 0 || used[v] != 0) continue;
    used[u] = used[v] = 1;
    groups.push_back({u, v});
  }
  std::int64_t pending = -1;
  for (Rank u = 0; u < g.num_ranks(); ++u) {
    if (used[u] != 0) continue;
    if (pending < 0) {
      pending = u;
    } else {
      groups.push_back({pending, u});
      pending = -1;
    }
  }
  return groups;
}

Groups greedy(const CommMatrix& g, std::int64_t a) {
  const auto m = g.num_ranks();
  std::vector<char> used(static_cast<std::size_t>(m), 0);
  std::vector<Volume> total(static_cast<std::size_t>(m), 0);
  for (Rank u = 0; u < m; ++u) {
    for (const auto v : g.volumes(u)) total[u] += v;
  }
  Groups groups;
  std::vector<Volume> to_group(static_cast<std::size_t>(m), 0);
  for (std::int64_t made = 0; made < m / a; ++made) {
    std::int64_t seed = -1;
    for (Rank u = 0; u < m; ++u) {
      if (used[u] == 0 && (seed < 0 || total[u] > total[seed])) seed = u;
    }
    std::vector<std::int64_t> group{seed};
    used[seed] = 1;
    std::fill(to_group.begin(), to_group.end(), 0);
    auto add = [&](std::int64_t o) {
      for (std::size_t e = 0; e < g.targets(o).size(); ++e) to_group[g.targets(o)[e]] += g.volumes(o)[e];
    };
    add(seed);
    while (static_cast<std::int64_t>(group.size()) < a) {
      std::int64_t best = -1;
      for (Rank u = 0; u < m; ++u) {
        if (used[u] == 0 && (best < 0 || to_group[u] > to_group[best])) best = u;
      }
      used[best] = 1;
      group.push_back(best);
      add(best);
    }
    groups.push_back(group);
  }
  return groups;
}

/// Recursive bisection into parts whose sizes are multiples of a; with a
/// thread budget the two halves of a split are partitioned side by side
/// (they share nothing; the groups come out in the same order).
/// `objects`: g's ranks and, past them, silent objects (no traffic).
Groups partition(const CommMatrix& g, std::int64_t objects, std::int64_t a, strategies::Bisection how, int threads) {
  std::vector<Rank> all(static_cast<std::size_t>(objects));
  std::iota(all.begin(), all.end(), Rank{0});
  auto split = [&](auto&& self, const std::vector<Rank>& set, int budget) -> Groups {
    const auto parts = static_cast<std::int64_t>(set.size()) / a;
    if (parts <= 1) return {set};
    // Named members, not a structured binding: clang captures none in a lambda.
    const auto halves = strategies::bisect(g, set, (parts / 2) * a, -1, how);
    const auto& left = halves.first;
    const auto& right = halves.second;
    Groups first;
    Groups second;
    detail::run_both(
        budget > 1, [&] { first = self(self, left, budget - budget / 2); },
        [&] { second = self(self, right, std::max(1, budget / 2)); });
    first.insert(first.end(), std::make_move_iterator(second.begin()), std::make_move_iterator(second.end()));
    return first;
  };
  return split(split, all, std::max(1, threads));
}

/// The groups' aggregated traffic, built row by row straight into CSR (a
/// list of every edge's entry first would take 24 bytes an edge: 150 MB at
/// a million ranks, the peak of the whole run). No sum can overflow: each
/// is at most the matrix's total, which the matrix was checked to hold.
/// `objects` as partition's.
CommMatrix aggregate(const CommMatrix& g, std::int64_t objects, const Groups& groups) {
  const auto n = static_cast<Rank>(groups.size());
  std::vector<Rank> group_of(static_cast<std::size_t>(objects));
  for (std::size_t k = 0; k < groups.size(); ++k) {
    for (const auto o : groups[k]) group_of[o] = static_cast<Rank>(k);
  }
  std::vector<std::int64_t> row_begin{0};
  row_begin.reserve(groups.size() + 1);
  std::vector<Rank> column;
  std::vector<Volume> volume;
  // at[h]: where group h sits in the row being built, -1 when absent.
  std::vector<std::int64_t> at(groups.size(), -1);
  std::vector<std::pair<Rank, Volume>> row;
  for (Rank k = 0; k < n; ++k) {
    row.clear();
    for (const auto o : groups[static_cast<std::size_t>(k)]) {
      if (o >= g.num_ranks()) continue;  // silent
      const auto targets = g.targets(o);
      const auto volumes = g.volumes(o);
      for (std::size_t e = 0; e < targets.size(); ++e) {
        const Rank h = group_of[static_cast<std::size_t>(targets[e])];
        if (h == k) continue;
        auto& where = at[static_cast<std::size_t>(h)];
        if (where < 0) {
          where = static_cast<std::int64_t>(row.size());
          row.emplace_back(h, volumes[e]);
        } else {
          row[static_cast<std::size_t>(where)].second += volumes[e];
        }
      }
    }
    std::sort(row.begin(), row.end());
    for (const auto& [h, bytes] : row) {
      at[static_cast<std::size_t>(h)] = -1;
      column.push_back(h);
      volume.push_back(bytes);
    }
    row_begin.push_back(static_cast<std::int64_t>(column.size()));
  }
  return CommMatrix::from_csr(n, std::move(row_begin), std::move(column), std::move(volume));
}

}  // namespace

std::vector<std::int64_t> bottom_up(const CommMatrix& sym, const std::vector<std::int64_t>& arities, std::int64_t tau,
                                    strategies::Bisection how, int threads) {
  std::int64_t leaves = 1;
  for (const auto a : arities) leaves *= a;
  // The tree is full: objects past the ranks are silent. The bottom level
  // groups sym itself (or its more local renumbering, below): no padded
  // copy of the traffic (100 MB at a million ranks), where its method is
  // the k-way partition, which sees ids past the matrix as silent.
  const CommMatrix* current = &sym;
  std::optional<CommMatrix> owned;
  std::int64_t objects = leaves;
  // Where the sets are split by multilevel bisection (huge jobs), in a
  // more local numbering when there is one: a shuffled million-rank
  // stencil grouped in a third of the time, with 6-18 % fewer hop-bytes
  // (a tleaf, Tianhe-3); natural orders are kept (locality_order.hpp).
  // Silent objects are isolated: they keep their ids, after every rank.
  std::vector<Rank> old_of;
  if (strategies::splits_multilevel(how, leaves)) {
    if (auto order = strategies::more_local_order(sym)) {
      old_of = std::move(*order);
      owned = strategies::renumbered(sym, old_of);
      current = &*owned;
    }
  }
  const auto method = [&](std::int64_t a, std::int64_t m) {
    if (a == 1) return Method::Singletons;
    if (choose(m, a, tau) <= tau) return Method::Exhaustive;
    if (a == 2) return Method::Matching;
    if (a <= 5) return Method::Greedy;
    return Method::Partition;
  };
  if (arities.size() > 1 && objects > current->num_ranks()) {
    const auto first = method(arities.back(), objects);
    if ((first != Method::Singletons && first != Method::Partition) || objects <= kImproveLargest) {
      // The other methods (and the swap passes) read every object's row:
      // pad with empty ones.
      std::vector<std::int64_t> row_begin(current->row_begin().begin(), current->row_begin().end());
      row_begin.insert(row_begin.end(), static_cast<std::size_t>(objects - current->num_ranks()), row_begin.back());
      owned = CommMatrix::from_csr(objects, std::move(row_begin),
                                   std::vector<Rank>(current->columns().begin(), current->columns().end()),
                                   std::vector<Volume>(current->all_volumes().begin(), current->all_volumes().end()));
      current = &*owned;
    }
  }
  std::vector<Groups> levels;  // bottom level first
  for (auto level = arities.size(); level-- > 1;) {
    const auto a = arities[level];
    Groups groups;
    switch (method(a, objects)) {
      case Method::Singletons:
        for (Rank u = 0; u < objects; ++u) groups.push_back({u});
        break;
      case Method::Exhaustive:
        groups = exhaustive(*current, a);
        break;
      case Method::Matching:
        groups = matching(*current);
        break;
      case Method::Greedy:
        groups = greedy(*current, a);
        break;
      case Method::Partition:
        // Auto resolved by this level's size, as bisect would by the matrix's.
        groups = partition(*current, objects, a,
                           strategies::splits_multilevel(how, objects) ? strategies::Bisection::Multilevel
                                                                       : strategies::Bisection::Flat,
                           threads);
        break;
    }
    if (a > 1) improve(*current, objects, groups);
    owned = aggregate(*current, objects, groups);
    current = &*owned;
    objects = current->num_ranks();
    levels.push_back(std::move(groups));
  }
  // Top-down: expand the root's children (the remaining objects, in order).
  std::vector<std::int64_t> order(static_cast<std::size_t>(objects));
  std::iota(order.begin(), order.end(), std::int64_t{0});
  for (auto level = levels.size(); level-- > 0;) {
    std::vector<std::int64_t> next;
    for (const auto g : order) next.insert(next.end(), levels[level][g].begin(), levels[level][g].end());
    order = std::move(next);
  }
  std::vector<std::int64_t> position(static_cast<std::size_t>(sym.num_ranks()));
  for (std::size_t p = 0; p < order.size(); ++p) {
    const bool renamed = order[p] < static_cast<std::int64_t>(old_of.size());
    const auto object = renamed ? old_of[static_cast<std::size_t>(order[p])] : order[p];
    if (object < sym.num_ranks()) position[object] = static_cast<std::int64_t>(p);
  }
  return position;
}

}  // namespace tmap::treematch
