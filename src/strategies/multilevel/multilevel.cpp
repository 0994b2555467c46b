#include "strategies/multilevel/multilevel.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "multilevel/multilevel.hpp"
#include "refine/slots.hpp"
#include "strategies/common/task_pool.hpp"
#include "strategies/geometric/geometric.hpp"
#include "strategies/scotch/scotch.hpp"
#include "tmap/comm_matrix.hpp"
#include "tmap/topology.hpp"

namespace tmap::strategies {

namespace {

/// Most ranks the engine maps from scratch (above, Scotch's start alone).
constexpr Rank kFreshRanks = 16384;

}  // namespace

Mapping MultilevelMapper::map(const Problem& problem, const Run& context) const {
  const auto sym = problem.comm.symmetrized();
  const auto& constraints = problem.constraints;
  multilevel::Options options;
  options.seed = context.seed;
  options.threads = context.threads;
  Run construct = context;
  construct.refine.kind = RefineKind::None;
  construct.objective = Objective::HopBytes;
  construct.hooks.verbosity = context.hooks.verbosity - 1;
  // Starts: the grid layout when the traffic is a grid; else the engine's
  // own mapping and Scotch's (the engine wins on irregular traffic, Scotch's
  // recursive bisection on uniform stencils it cannot lay out), each
  // V-cycled; the lower wins (ties: the first).
  std::vector<std::pair<std::string, std::vector<std::int64_t>>> starts;
  std::string why;
  if (const auto grid = lay_out_grid(problem, sym, construct, why)) {
    starts.emplace_back("geometric", refine::slots_of(*grid, constraints));
  } else {
    context.note(2, "multilevel: geometric does not apply: " + why);
    // A periodic 2D lattice on a tree: its congruent tiles, one a group.
    if (auto tiles = lay_out_tiles(problem, sym, construct, why)) {
      context.note(1, "multilevel: tiles: " + why);
      starts.emplace_back("tiles", refine::slots_of(*tiles, constraints));
    } else {
      context.note(2, "multilevel: no tiles: " + why);
    }
    // Above kFreshRanks the engine's own build costs more than it wins
    // (9 s at 65,536 ranks on a torus, 33 % above Scotch's start there).
    if (problem.comm.num_ranks() <= kFreshRanks) {
      starts.emplace_back("built", multilevel::map_slots(sym, problem.topology, constraints, options));
    }
    if (!context.stopped())
      starts.emplace_back("scotch", refine::slots_of(ScotchMapper::map_on_one_thread(problem, construct), constraints));
  }
  // Each start V-cycled on its own share of the threads (the results do
  // not depend on the split), reported in order.
  std::vector<multilevel::Stats> cycled(starts.size());
  std::vector<char> done(starts.size(), 0);  // not vector<bool>: set from several threads
  const int task_threads = thread_share(context.threads, starts.size());
  run_tasks(starts.size(), context, task_threads, [&](std::size_t k, const Run& run) {
    if (run.stopped()) return;
    auto own = options;
    own.threads = run.threads;
    multilevel::refine_slots(sym, problem.topology, constraints, starts[k].second, multilevel::kDefaultCycles, own,
                             &cycled[k]);
    done[k] = 1;
  });
  std::size_t best = 0;
  std::int64_t best_cost = -1;
  for (std::size_t k = 0; k < starts.size(); ++k) {
    if (done[k] == 0) continue;
    context.note(
        1, fmt::format("multilevel: {} {} -> {} after V-cycles ({} levels, {} groups at the coarsest)", starts[k].first,
                       cycled[k].before, cycled[k].after, cycled[k].levels, cycled[k].coarsest));
    if (best_cost < 0 || cycled[k].after < best_cost) {
      best = k;
      best_cost = cycled[k].after;
    }
  }
  return refine::SlotSpace::of(constraints).to_mapping(starts[best].second, constraints.allowed_pes());
}

}  // namespace tmap::strategies
