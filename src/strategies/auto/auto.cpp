#include "strategies/auto/auto.hpp"

#include <fmt/format.h>

#include <optional>
#include <string>
#include <vector>

#include "strategies/geometric/geometric.hpp"
#include "tmap/comm_matrix.hpp"
#include "tmap/error.hpp"
#include "tmap/metrics.hpp"
#include "tmap/objective.hpp"
#include "tmap/topology.hpp"
#include "tmap/topology_views.hpp"

namespace tmap::strategies {

namespace {

/// Above this many ranks, tree machines run treematch without scotch: it
/// found fewer hop-bytes than scotch in 9 of the 10 stencils measured from
/// 16,384 ranks up (Tianhe-3 whole and fragmented, a tleaf; natural and
/// shuffled; by 3-15 %) in a fraction of scotch's time on trees (65,536
/// ranks on a tleaf: 2.9 s against 25.7 s); the tenth, a million ranks on
/// Tianhe-3, went to scotch by 0.6 % (12.5 s against 24 s).
constexpr Rank kScotchOnTreesRanks = 16384;

/// True when `mapping` puts ranks on distinct PEs and every communicating
/// pair at the topology's least distance between distinct PEs: no mapping
/// with one rank per PE does better (a stencil in its machine's order).
bool provably_optimal(const Problem& problem, const Mapping& mapping) {
  const Distance least = problem.topology.least_distance();
  if (least <= 0 || problem.constraints.capacity() != 1) return false;
  const auto& comm = problem.comm;
  for (Rank i = 0; i < comm.num_ranks(); ++i) {
    const PE pe = mapping[static_cast<std::size_t>(i)];
    for (const Rank j : comm.targets(i)) {
      if (problem.topology.distance(pe, mapping[static_cast<std::size_t>(j)]) != least) return false;
    }
  }
  return true;
}

constexpr StrategyOption kAutoOptions[] = {
    {"auto-scotch",
     "auto: its Scotch candidate, scotch+ (the portfolio, default) or scotch (one libscotch run, as gmap: faster)",
     [](Context& c, std::string_view v) {
       if (v != "scotch+" && v != "scotch") {
         throw ParameterError("auto-scotch: '" + std::string(v) + "' is not scotch+ or scotch");
       }
       c.auto_strategy.scotch = std::string(v);
     },
     [](const Context& c) { return c.auto_strategy.scotch; }},
};

}  // namespace

std::span<const StrategyOption> auto_options() {
  return kAutoOptions;
}

Mapping AutoMapper::map(const Problem& problem, const Run& context) const {
  // The constructions alone: map_with refines what this returns.
  Run construct = context;
  construct.refine.kind = RefineKind::None;
  // Candidates are judged here by the run's objective; map_with refines
  // the one kept for it.
  construct.objective = Objective::HopBytes;
  const ObjectiveMeter meter(problem.comm, problem.topology, context.objective, context.link_bandwidths);
  // In-order first when it can be proved optimal: then nothing can beat it
  // (and libscotch would spend seconds finding out at 65,536 ranks).
  const bool may_prove = problem.topology.least_distance() > 0 && problem.constraints.capacity() == 1;
  if (may_prove) {
    auto in_order = map_with("inorder", problem, construct);
    if (provably_optimal(problem, in_order)) {
      context.note(2, "auto: inorder kept (every communicating pair at the least distance: optimal)");
      return in_order;
    }
  }
  // A stencil in any rank order, on a mesh or torus box: its grid laid out
  // (O(ranks)); kept at once when optimal, else one more candidate.
  std::string why;
  auto geometric = lay_out_grid(problem, construct, why);
  if (!geometric) context.note(2, "auto: geometric does not apply: " + why);
  if (geometric && may_prove && provably_optimal(problem, *geometric)) {
    context.note(2, "auto: geometric kept (every communicating pair at the least distance: optimal)");
    return std::move(*geometric);
  }
  std::vector<std::int64_t> path;
  const auto allowed = problem.constraints.allowed_pes();
  const bool tree = !allowed.empty() && tree_path(problem.topology, allowed.front(), path);
  std::vector<std::string> names;
  if (!tree || problem.comm.num_ranks() <= kScotchOnTreesRanks) names.push_back(context.auto_strategy.scotch);
  if (tree) names.emplace_back("treematch");
  names.emplace_back("inorder");
  Mapping best;
  ObjectiveScore best_score;
  std::string chosen;
  std::string costs;
  if (geometric) names.emplace_back("geometric");
  for (const auto& name : names) {
    auto mapping = name == "geometric" ? std::move(*geometric) : map_with(name, problem, construct);
    const auto score = meter(mapping);
    costs +=
        (costs.empty() ? "" : ", ") + name + " " +
        (context.objective == Objective::HopBytes ? std::to_string(score.hop_bytes) : fmt::format("{:g}", score.value));
    // Ties keep the earlier: scotch, then treematch, then in-order, then geometric.
    if (best.empty() || score < best_score) {
      best = std::move(mapping);
      best_score = score;
      chosen = name;
    }
  }
  context.note(2, "auto: " + chosen + " kept (" + std::string(objective_name(context.objective)) + " " + costs + ")");
  return best;
}

}  // namespace tmap::strategies
