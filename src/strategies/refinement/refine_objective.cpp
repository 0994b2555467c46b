// refine_for_objective: a bottleneck objective (congestion, time) lowered
// by Deveci et al.'s Algorithm 3 (src/strategies/umpa/refine_mc) on per-PE
// sites, under the objective's loads, hop-bytes breaking ties.
#include <chrono>

#include "strategies/common/sites.hpp"
#include "strategies/umpa/refine_mc.hpp"
#include "tmap/comm_matrix.hpp"
#include "tmap/mapper.hpp"
#include "tmap/objective.hpp"
#include "tmap/topology.hpp"

namespace tmap {

namespace {

/// Accepted swaps at most: the paper's bound (ranks + 16) up to here. Each
/// swap rescans the busiest link's messages; beyond this many the gains
/// measured were below 0.1 % of the bottleneck.
constexpr std::int64_t kMostSwaps = 20000;

}  // namespace

ObjectiveRefineStats refine_for_objective(const Problem& problem, Mapping& mapping, const Run& run) {
  const auto start = std::chrono::steady_clock::now();
  const ObjectiveMeter meter(problem.comm, problem.topology, run.measured_objective(), run.link_bandwidths);
  ObjectiveRefineStats stats;
  stats.before = meter(mapping);
  stats.after = stats.before;
  const auto* model = meter.bottleneck();
  if (model == nullptr || problem.comm.num_ranks() < 2) return stats;
  run.report({.stage = "refine objective", .detail = "started", .fraction = 0.0});
  const auto sym = problem.comm.symmetrized();
  // Per-PE sites: a route is exact between two PEs, and a site's ranks all
  // sit on its PE.
  const strategies::SiteSpace pes(problem.topology, problem.constraints, true);
  auto site_of = pes.sites_of(mapping);
  strategies::umpa::McOptions options;
  options.tiebreak = strategies::umpa::Tiebreak::HopBytes;
  options.cross_swaps = true;
  options.max_swaps = std::min<std::int64_t>(problem.comm.num_ranks() + 16, kMostSwaps);
  const auto result = strategies::umpa::refine_congestion(problem.comm, sym, pes, *model, site_of, options);
  auto refined = pes.to_mapping(site_of);
  const auto after = meter(refined);
  // The search's loads leave out the latency term: kept only when the whole
  // score drops.
  if (after < stats.before) {
    mapping = std::move(refined);
    stats.after = after;
    stats.swaps = result.swaps;
  }
  stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  run.report({.stage = "refine objective", .detail = "done", .fraction = 1.0, .done = true});
  return stats;
}

}  // namespace tmap
