#include "strategies/best/best.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>

#include "refine/dense_search.hpp"
#include "strategies/common/task_pool.hpp"
#include "tmap/comm_matrix.hpp"
#include "tmap/error.hpp"
#include "tmap/metrics.hpp"
#include "tmap/objective.hpp"
#include "tmap/topology.hpp"
#include "tmap/topology_views.hpp"

namespace tmap::strategies {

namespace {

/// Strategies with an n x n table are left out above this many ranks.
constexpr Rank kMaxQuadraticRanks = 4096;

struct Candidate {
  std::string name;
  Mapping mapping;
  std::int64_t built = 0;    ///< hop-bytes of the construction
  std::int64_t refined = 0;  ///< after the swap search (and tabu, for finalists)
  double seconds = 0.0;
};

}  // namespace

std::vector<const StrategyInfo*> portfolio() {
  std::vector<const StrategyInfo*> rows;
  for (const auto& row : strategy_table()) {
    if (row.portfolio_order > 0) rows.push_back(&row);
  }
  std::sort(rows.begin(), rows.end(),
            [](const StrategyInfo* a, const StrategyInfo* b) { return a->portfolio_order < b->portfolio_order; });
  return rows;
}

Mapping BestMapper::map(const Problem& problem, const Run& context) const {
  const auto start = std::chrono::steady_clock::now();
  Run construct = context;
  construct.refine.kind = RefineKind::None;
  // The candidates are chosen between by the run's objective; map_with
  // refines the one kept for it.
  construct.objective = Objective::HopBytes;
  // The constructions' own notes are best's details: -v shows them once
  // more (with --compare all they would repeat the constructions' rows).
  construct.hooks.verbosity = context.hooks.verbosity - 1;
  Run swap = context;
  swap.refine.kind = RefineKind::Swap;
  std::vector<Candidate> candidates;
  const auto rows = portfolio();
  std::int64_t best_so_far = -1;
  std::vector<std::int64_t> path;
  const auto allowed = problem.constraints.allowed_pes();
  const bool tree_machine = !allowed.empty() && tree_path(problem.topology, allowed.front(), path);
  for (std::size_t k = 0; k < rows.size() && !context.stopped(); ++k) {
    const auto* row = rows[k];
    if (row->has(kQuadraticInRanks) && problem.comm.num_ranks() > kMaxQuadraticRanks) continue;
    // Off trees such a strategy is scotch again (27 s of 83 at 65,536 ranks on a torus).
    if (row->has(kTreesOnly) && !tree_machine) continue;
    const auto name = row->name;
    const auto t0 = std::chrono::steady_clock::now();
    Candidate c;
    c.name = name;
    try {
      c.mapping = map_with(name, problem, construct);
    } catch (const ResourceError& e) {  // e.g. a construction's table does not fit
      context.note(1, fmt::format("best: {} skipped: {}", name, e.what()));
      continue;
    } catch (const UnsupportedError& e) {  // e.g. a construction for other machines
      context.note(1, fmt::format("best: {} skipped: {}", name, e.what()));
      continue;
    }
    const auto stats = refine_mapping(problem, c.mapping, swap);
    c.built = stats.before;
    c.refined = stats.after;
    c.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    best_so_far = best_so_far < 0 ? c.refined : std::min(best_so_far, c.refined);
    const auto detail = fmt::format("{} built {} refined {} ({:.3f} s)", c.name, c.built, c.refined, c.seconds);
    context.report({.stage = "best",
                    .detail = detail,
                    .fraction = static_cast<double>(k + 1) / static_cast<double>(rows.size() + 1),
                    .hop_bytes = best_so_far});
    candidates.push_back(std::move(c));
  }
  if (candidates.empty() && context.stopped()) {
    // Stopped before its first construction: a stop still gives a valid
    // mapping (the launcher's order), marked partial by the caller.
    Candidate c;
    c.name = "inorder";
    c.mapping = map_with("inorder", problem, construct);
    candidates.push_back(std::move(c));
  }
  if (candidates.empty()) throw UnsupportedError("best: no construction could map this input");
  const auto by_cost = [&] {
    std::vector<std::size_t> order(candidates.size());
    for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return candidates[a].refined < candidates[b].refined; });
    return order;
  };
  // The best few distinct candidates (by `order`, none with another's mapping).
  const auto distinct_best = [&](const std::vector<std::size_t>& order, int few) {
    std::vector<std::size_t> chosen;
    for (const auto k : order) {
      if (static_cast<int>(chosen.size()) >= few) break;
      const bool duplicate = std::any_of(chosen.begin(), chosen.end(),
                                         [&](std::size_t f) { return candidates[f].mapping == candidates[k].mapping; });
      if (!duplicate) chosen.push_back(k);
    }
    return chosen;
  };
  // Polishes `chosen` side by side on the run's threads (each from its own
  // start, so the results do not depend on the split), `settings(f)` the
  // f-th's run.
  const auto polish = [&](const std::vector<std::size_t>& chosen, const auto& settings) {
    const int task_threads = thread_share(context.threads, chosen.size());
    run_tasks(chosen.size(), context, task_threads, [&](std::size_t f, const Run& run) {
      if (run.stopped()) return;
      auto& c = candidates[chosen[f]];
      Run polish_run = settings(f, run);
      const auto t0 = std::chrono::steady_clock::now();
      c.refined = refine_mapping(problem, c.mapping, polish_run).after;
      c.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    });
  };
  // V-cycles of the multilevel engine for the best few distinct candidates:
  // blocks of ranks moved where swaps stop (never worse).
  if (!context.stopped()) {
    polish(distinct_best(by_cost(), kVcycleFinalists), [](std::size_t, const Run& run) {
      Run cycles = run;
      cycles.refine.kind = RefineKind::Multilevel;
      return cycles;
    });
  }
  // Tabu for the best few distinct refined candidates, the budget shared.
  if (context.refine.kind == RefineKind::Tabu && !context.stopped()) {
    const auto finalists = distinct_best(by_cost(), kTabuFinalists);
    const auto slots = problem.constraints.num_slots();
    // The dense search shares refine's portfolio budget; above the table's
    // size each finalist gets the candidate-list tabu's default.
    const bool dense = slots <= refine::kMaxDensePositions;
    const auto budget = context.refine.iterations >= 0 ? context.refine.iterations
                        : dense                        ? refine::portfolio_tabu_iterations(slots)
                                                       : -1;
    const auto share = static_cast<std::int64_t>(std::max<std::size_t>(1, finalists.size()));
    polish(finalists, [&](std::size_t f, const Run& run) {
      Run tabu = run;
      tabu.seed = context.seed + f;
      tabu.refine.iterations = budget < 0 ? -1 : budget / share;
      tabu.refine.time_limit_s = context.refine.time_limit_s / static_cast<double>(share);
      return tabu;
    });
  }
  // The lowest score (hop-bytes, or the objective with hop-bytes breaking ties).
  const Objective objective = context.measured_objective();
  const ObjectiveMeter meter(problem.comm, problem.topology, objective, context.link_bandwidths);
  std::vector<ObjectiveScore> scores;
  scores.reserve(candidates.size());
  for (const auto& c : candidates) scores.push_back(meter(c.mapping));
  std::size_t best = 0;
  for (std::size_t k = 1; k < candidates.size(); ++k) {
    if (scores[k] < scores[best]) best = k;
  }
  const bool hop_bytes = objective == Objective::HopBytes;
  for (std::size_t k = 0; k < candidates.size(); ++k) {
    const auto& c = candidates[k];
    context.note(
        1, fmt::format("best: {:<11} built {:>14}  refined {:>14}  {:.3f} s{}{}", c.name, c.built, c.refined, c.seconds,
                       hop_bytes ? "" : "  " + describe_score(objective, scores[k]), k == best ? "  <- chosen" : ""));
  }
  context.note(2, fmt::format("best: {:.3f} s in all",
                              std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()));
  return std::move(candidates[best].mapping);
}

}  // namespace tmap::strategies
