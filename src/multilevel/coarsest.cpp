#include "multilevel/coarsest.hpp"

#include <algorithm>

#include "refine/dense_search.hpp"
#include "util/int128.hpp"

namespace tmap::multilevel {

namespace {

using detail::Int128;

/// The traffic as a dense table (count x count).
std::vector<std::int64_t> dense_traffic(const GraphLevel& graph) {
  const auto n = graph.count();
  std::vector<std::int64_t> w(static_cast<std::size_t>(n * n), 0);
  for (std::int64_t a = 0; a < n; ++a) {
    const auto targets = graph.sym.targets(a);
    const auto volumes = graph.sym.volumes(a);
    for (std::size_t e = 0; e < targets.size(); ++e) w[static_cast<std::size_t>(a * n + targets[e])] = volumes[e];
  }
  return w;
}

/// Best-improvement swaps within shapes until none gains (O(n^3) a sweep).
void swap_descent(const GraphLevel& graph, const std::vector<std::int64_t>& w, const GroupTable& d,
                  std::vector<std::int64_t>& place) {
  const auto n = graph.count();
  const auto at = [&](const std::vector<std::int64_t>& m, std::int64_t i, std::int64_t j) {
    return m[static_cast<std::size_t>(i * n + j)];
  };
  for (;;) {
    Int128 best = 0;
    std::int64_t best_a = -1;
    std::int64_t best_b = -1;
    for (std::int64_t a = 0; a < n; ++a) {
      for (std::int64_t b = a + 1; b < n; ++b) {
        if (graph.shape[static_cast<std::size_t>(a)] != graph.shape[static_cast<std::size_t>(b)]) continue;
        const auto pa = place[static_cast<std::size_t>(a)];
        const auto pb = place[static_cast<std::size_t>(b)];
        Int128 delta = 0;  // decrease of the cost
        for (std::int64_t k = 0; k < n; ++k) {
          if (k == a || k == b) continue;
          const auto pk = place[static_cast<std::size_t>(k)];
          delta += static_cast<Int128>(at(w, a, k) - at(w, b, k)) * (at(d, pa, pk) - at(d, pb, pk));
        }
        if (delta > best) {
          best = delta;
          best_a = a;
          best_b = b;
        }
      }
    }
    if (best_a < 0) return;
    std::swap(place[static_cast<std::size_t>(best_a)], place[static_cast<std::size_t>(best_b)]);
  }
}

}  // namespace

std::vector<std::int64_t> greedy_coarsest(const GraphLevel& graph, const TargetLevel& target, const GroupTable& d) {
  const auto n = graph.count();
  const auto w = dense_traffic(graph);
  std::vector<std::int64_t> place(static_cast<std::size_t>(n), -1);
  std::vector<char> used(static_cast<std::size_t>(n), 0);
  std::vector<Int128> pull(static_cast<std::size_t>(n), 0);  // traffic to the placed clusters
  for (std::int64_t step = 0; step < n; ++step) {
    std::int64_t next = -1;
    for (std::int64_t c = 0; c < n; ++c) {
      if (place[static_cast<std::size_t>(c)] >= 0) continue;
      if (next < 0 || pull[static_cast<std::size_t>(c)] > pull[static_cast<std::size_t>(next)]) next = c;
    }
    if (step == 0) {  // the heaviest cluster first
      Int128 heaviest = -1;
      for (std::int64_t c = 0; c < n; ++c) {
        Int128 total = 0;
        for (std::int64_t k = 0; k < n; ++k) total += w[static_cast<std::size_t>(c * n + k)];
        if (total > heaviest) {
          heaviest = total;
          next = c;
        }
      }
    }
    // The free group of its shape with the least cost to the placed ones
    // (for the first one: the most central group).
    std::int64_t best_group = -1;
    Int128 best_cost = 0;
    for (std::int64_t g = 0; g < n; ++g) {
      if (used[static_cast<std::size_t>(g)] ||
          target.shape[static_cast<std::size_t>(g)] != graph.shape[static_cast<std::size_t>(next)])
        continue;
      Int128 cost = 0;
      for (std::int64_t k = 0; k < n; ++k) {
        const auto pk = place[static_cast<std::size_t>(k)];
        if (step == 0) {
          cost += d[static_cast<std::size_t>(g * n + k)];
        } else if (pk >= 0) {
          cost +=
              static_cast<Int128>(w[static_cast<std::size_t>(next * n + k)]) * d[static_cast<std::size_t>(g * n + pk)];
        }
      }
      if (best_group < 0 || cost < best_cost) {
        best_group = g;
        best_cost = cost;
      }
    }
    place[static_cast<std::size_t>(next)] = best_group;
    used[static_cast<std::size_t>(best_group)] = 1;
    for (std::int64_t c = 0; c < n; ++c) pull[static_cast<std::size_t>(c)] += w[static_cast<std::size_t>(c * n + next)];
  }
  return place;
}

void search_coarsest(const GraphLevel& graph, const TargetLevel& target, const GroupTable& d,
                     std::vector<std::int64_t>& place, std::int64_t iterations, std::uint64_t seed) {
  const auto n = graph.count();
  const auto w = dense_traffic(graph);
  const bool one_shape =
      std::all_of(graph.shape.begin(), graph.shape.end(), [&](std::int64_t s) { return s == graph.shape.front(); });
  if (one_shape && n >= 2) {
    refine::DenseProblem problem;
    problem.n = n;
    problem.w = w;
    problem.d = d;
    problem.pe.resize(static_cast<std::size_t>(n));
    for (std::int64_t g = 0; g < n; ++g) problem.pe[static_cast<std::size_t>(g)] = g;
    problem.silent.assign(static_cast<std::size_t>(n), 0);
    if (refine::dense_fits(problem)) {
      refine::dense_descent(problem, place);
      refine::robust_tabu(problem, place, iterations, 0.0, seed);
      return;
    }
  }
  (void)target;
  swap_descent(graph, w, d, place);
}

}  // namespace tmap::multilevel
