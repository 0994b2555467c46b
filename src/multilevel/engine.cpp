// The engine's driver: hierarchies, the coarsest placement, and the way down.
#include <algorithm>
#include <limits>
#include <numeric>

#include "core/distance_oracle.hpp"
#include "multilevel/coarsest.hpp"
#include "multilevel/level_search.hpp"
#include "multilevel/levels.hpp"
#include "multilevel/multilevel.hpp"
#include "tmap/error.hpp"

namespace tmap::multilevel {

namespace {

using detail::Int128;

/// Meshes and tori whose distance table would pass this many entries (128
/// MiB) give the V-cycles their distances from the PEs' coordinates: on
/// 16,384 random ranks of a 16,384-PE torus `-P quality` took 0.96-1.08x the
/// time of the 256 MiB table in 90 MiB of peak memory against 324 (at 8,192
/// PEs the 64 MiB table is 1.29x faster, at 4,096 1.8x: it stays in the cache).
constexpr std::int64_t kGridTableEntries = std::int64_t{1} << 27;

/// Levels of more clusters than this get kPassesWhenMany passes (4,096
/// random ranks on a torus: 0.5 s less for the same hop-bytes, 0.01 % lower).
constexpr std::int64_t kManyClusters = 2048;
constexpr int kPassesWhenMany = 4;

std::int64_t saturated(Int128 v) {
  return v > std::numeric_limits<std::int64_t>::max() ? std::numeric_limits<std::int64_t>::max()
                                                      : static_cast<std::int64_t>(v);
}

/// place (at level l + 1) -> place at level l: each cluster's children go
/// to its group's children, in order (their shapes agree, levels.hpp).
std::vector<std::int64_t> project(const GraphLevel& fine_graph, const TargetLevel& fine_target,
                                  const std::vector<std::int64_t>& coarse_place) {
  const auto coarse = static_cast<std::int64_t>(coarse_place.size());
  std::vector<std::int64_t> cluster_children(static_cast<std::size_t>(coarse * 2), -1);
  std::vector<std::int64_t> group_children(static_cast<std::size_t>(coarse * 2), -1);
  for (std::int64_t c = 0; c < fine_graph.count(); ++c) {
    const auto k = fine_graph.child[static_cast<std::size_t>(c)];
    cluster_children[static_cast<std::size_t>(fine_graph.parent[static_cast<std::size_t>(c)] * 2 + k)] = c;
  }
  for (std::int64_t g = 0; g < fine_target.count(); ++g) {  // in id order: child 0, then 1
    const auto p = fine_target.parent[static_cast<std::size_t>(g)];
    auto& first = group_children[static_cast<std::size_t>(p * 2)];
    (first < 0 ? first : group_children[static_cast<std::size_t>(p * 2 + 1)]) = g;
  }
  std::vector<std::int64_t> place(static_cast<std::size_t>(fine_graph.count()), -1);
  for (std::int64_t c = 0; c < coarse; ++c) {
    const auto g = coarse_place[static_cast<std::size_t>(c)];
    for (int k = 0; k < 2; ++k) {
      const auto child = cluster_children[static_cast<std::size_t>(c * 2 + k)];
      if (child < 0) continue;
      const auto group = group_children[static_cast<std::size_t>(g * 2 + k)];
      if (group < 0) throw InternalError("multilevel: a cluster and its group have different shapes");
      place[static_cast<std::size_t>(child)] = group;
    }
  }
  return place;
}

/// Carries `place` at the top of `graphs` down to level 0, refining each level.
template <typename Distances>
std::vector<std::int64_t> uncoarsen(const std::vector<GraphLevel>& graphs, const std::vector<TargetLevel>& targets,
                                    const Distances& d, std::vector<std::int64_t> place, const Options& options) {
  for (auto level = static_cast<std::int64_t>(graphs.size()) - 1; level >= 0; --level) {
    const auto l = static_cast<std::size_t>(level);
    if (level + 1 < static_cast<std::int64_t>(graphs.size())) place = project(graphs[l], targets[l], place);
    // Levels of many clusters cost the most and gain the least after the
    // coarser ones: fewer passes there.
    const int passes = graphs[l].count() > kManyClusters ? std::min(options.passes, kPassesWhenMany) : options.passes;
    if (targets[l].count() <= kTabulatedGroups) {
      const GroupTableDistances table(d, targets[l].rep);
      LevelSearch<GroupTableDistances>(graphs[l], targets[l], table, place).run(passes);
    } else {
      const GroupDistances<Distances> group_d{d, targets[l].rep};
      LevelSearch<GroupDistances<Distances>>(graphs[l], targets[l], group_d, place).run(passes);
    }
  }
  return place;
}

/// Hop-bytes of a level-0 placement (groups are slots there).
template <typename Distances>
Int128 level0_cost(const GraphLevel& graph, const TargetLevel& target, const Distances& d,
                   const std::vector<std::int64_t>& place) {
  const GroupDistances<Distances> group_d{d, target.rep};
  return refine::RankCosts<GroupDistances<Distances>>(graph.sym, place, group_d).total();
}

void check_steps(const std::vector<GraphLevel>& graphs, const std::vector<TargetLevel>& targets) {
  for (std::size_t l = 0; l < graphs.size(); ++l) {
    if (graphs[l].count() != targets[l].count()) throw InternalError("multilevel: hierarchies out of step");
  }
}

}  // namespace

std::vector<std::int64_t> map_slots(const CommMatrix& sym, const Topology& topology, const Constraints& constraints,
                                    const Options& options, Stats* stats) {
  const auto pes = constraints.allowed_pes();
  const auto n = sym.num_ranks();
  return detail::with_distances(
      topology, pes, options.threads,
      [&](const auto& d) {
        const auto targets = target_levels(topology, pes, constraints.capacity(), d, options.coarsest);
        std::vector<GraphLevel> graphs;
        graphs.push_back(padded_graph(sym, constraints.num_slots()));
        while (graphs.size() < targets.size()) coarsen_by_traffic(graphs, options.seed);
        check_steps(graphs, targets);
        const GroupTableDistances top(d, targets.back().rep);
        auto place = greedy_coarsest(graphs.back(), targets.back(), top.table());
        const auto iterations = graphs.size() == 1 ? options.whole_iterations : options.coarsest_iterations;
        search_coarsest(graphs.back(), targets.back(), top.table(), place, iterations, options.seed);
        place = uncoarsen(graphs, targets, d, std::move(place), options);
        if (stats) {
          stats->levels = static_cast<std::int64_t>(graphs.size());
          stats->coarsest = targets.back().count();
          stats->after = saturated(level0_cost(graphs.front(), targets.front(), d, place));
        }
        place.resize(static_cast<std::size_t>(n));
        return place;
      },
      detail::kDenseDistanceBudget, kGridTableEntries);
}

template <typename Distances>
void refine_slots_on(const CommMatrix& sym, const Topology& topology, const Constraints& constraints,
                     const Distances& d, std::vector<std::int64_t>& sigma, int cycles, const Options& options,
                     Stats* stats) {
  const auto pes = constraints.allowed_pes();
  const auto slots = constraints.num_slots();
  const auto targets = target_levels(topology, pes, constraints.capacity(), d, options.coarsest);
  // Level 0: the ranks where sigma puts them, a silent vertex on each free slot.
  std::vector<std::int64_t> start(sigma.begin(), sigma.end());
  std::vector<char> taken(static_cast<std::size_t>(slots), 0);
  for (const auto s : sigma) taken[static_cast<std::size_t>(s)] = 1;
  for (std::int64_t s = 0; s < slots; ++s) {
    if (!taken[static_cast<std::size_t>(s)]) start.push_back(s);
  }
  const auto base = padded_graph(sym, slots);
  auto best = start;
  auto best_cost = level0_cost(base, targets.front(), d, best);
  if (stats) stats->before = saturated(best_cost);
  for (int cycle = 0; cycle < cycles; ++cycle) {
    std::vector<GraphLevel> graphs;
    graphs.push_back(base);
    std::vector<std::int64_t> place = best;
    for (std::size_t l = 0; l + 1 < targets.size(); ++l) {
      coarsen_along(graphs, place, targets[l].parent, targets[l + 1].count());
      place.resize(static_cast<std::size_t>(targets[l + 1].count()));
      std::iota(place.begin(), place.end(), 0);
    }
    check_steps(graphs, targets);
    const GroupTableDistances top(d, targets.back().rep);
    search_coarsest(graphs.back(), targets.back(), top.table(), place, options.cycle_iterations,
                    options.seed + static_cast<std::uint64_t>(cycle));
    place = uncoarsen(graphs, targets, d, std::move(place), options);
    const auto cost = level0_cost(base, targets.front(), d, place);
    if (cost >= best_cost) break;
    const bool last = static_cast<double>(best_cost - cost) < kLastCycleGain * static_cast<double>(best_cost);
    best_cost = cost;
    best = std::move(place);
    if (last) break;
  }
  if (stats) {
    stats->levels = static_cast<std::int64_t>(targets.size());
    stats->coarsest = targets.back().count();
    stats->after = saturated(best_cost);
  }
  std::copy(best.begin(), best.begin() + static_cast<std::ptrdiff_t>(sigma.size()), sigma.begin());
}

void refine_slots(const CommMatrix& sym, const Topology& topology, const Constraints& constraints,
                  std::vector<std::int64_t>& sigma, int cycles, const Options& options, Stats* stats) {
  detail::with_distances(
      topology, constraints.allowed_pes(), options.threads,
      [&](const auto& d) { refine_slots_on(sym, topology, constraints, d, sigma, cycles, options, stats); },
      detail::kDenseDistanceBudget, kGridTableEntries);
}

#define TMAP_INSTANTIATE(Oracle)                                                                               \
  template void refine_slots_on<Oracle>(const CommMatrix&, const Topology&, const Constraints&, const Oracle&, \
                                        std::vector<std::int64_t>&, int, const Options&, Stats*);
TMAP_FOR_EACH_DISTANCE_ORACLE(TMAP_INSTANTIATE)
#undef TMAP_INSTANTIATE

}  // namespace tmap::multilevel
