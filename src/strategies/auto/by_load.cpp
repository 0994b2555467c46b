// auto where ranks of unequal weight are balanced by load (--imbalance):
// libscotch's static mapping with the weights as vertex loads and EPS as
// its balance ratio (what gmap computes on the weighted graph), brought
// within the load limits, then moves within them that lower hop-bytes
// (strategies/common/balanced_moves.hpp); on trees whose distances follow
// their levels, FM between sibling subtrees by load after
// (strategies/common/tree_pairs.hpp), more V-cycles of it with
// --refine multilevel (the quality preset).
#include <fmt/format.h>

#include <chrono>
#include <exception>
#include <functional>
#include <optional>
#include <string_view>
#include <vector>

#include "strategies/auto/auto.hpp"
#include "strategies/common/balanced_moves.hpp"
#include "strategies/common/task_pool.hpp"
#include "strategies/common/tree_pairs.hpp"
#include "strategies/geometric/geometric.hpp"
#include "strategies/inorder/inorder.hpp"
#include "strategies/rb/rb.hpp"
#include "strategies/scotch/scotch.hpp"
#include "tmap/comm_matrix.hpp"
#include "tmap/error.hpp"
#include "tmap/metrics.hpp"

namespace tmap::strategies {

namespace {

/// Most passes of moves over the ranks (each pass stops early when it
/// moves nothing).
constexpr std::int64_t kPasses = 32;

/// The quality mode's V-cycles per pair of subtrees (another matching
/// each, until kThoroughPatience in a row gain nothing): on 131,072 random
/// degree-6 ranks of weights 1-4 onto 4:8:2 PEs, one cycle took 0.33 % off
/// the default's hop-bytes in 5.6 s, up to 40 took 1.27 % in 134 s.
constexpr int kThoroughCycles = 40;
constexpr int kThoroughPatience = 4;

/// On trees whose distances follow their levels, FM between sibling
/// subtrees by load (strategies/common/tree_pairs.hpp) after the moves:
/// on the 11 weighted jobs of many_tasks.py (131,072 ranks onto 4:8:2 and
/// 4:8:4 PEs) lower on 10, by up to 1.9 %, for up to 3.6 s more. Kept
/// where it lowers hop-bytes.
void refine_between_subtrees(const Problem& problem, const CommMatrix& sym, Mapping& mapping, std::int64_t cost,
                             const Run& context) {
  if (context.stopped()) return;
  const auto began = std::chrono::steady_clock::now();
  TreePairOptions options{.threads = context.threads};
  if (context.refine.kind == RefineKind::Multilevel) {
    options.cycles = kThoroughCycles;
    options.patience = kThoroughPatience;
  }
  auto refined = mapping;
  const auto pairs = refine_tree_pairs(sym, problem.topology, problem.constraints, refined, options);
  if (!pairs.applied) return;
  const auto after = evaluate(problem.comm, problem.topology, refined).hop_bytes;
  context.note(1, fmt::format("auto: ranks balanced by load: FM between subtrees {} -> {} hop-bytes ({} pairs, {} "
                              "ranks moved, {} V-cycle(s) a pair at most) in {:.2f} s",
                              cost, after, pairs.pairs, pairs.moved, options.cycles,
                              std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count()));
  if (after < cost) mapping = std::move(refined);
}

}  // namespace

Mapping map_by_load(const Problem& problem, const Run& context) {
  Run construct = context;
  construct.refine.kind = RefineKind::None;
  const auto sym = problem.comm.symmetrized();
  // The candidates: scotch (gmap's own mapping, first: it wins a tie), then
  // rb's cut, which moves with the order its graphs are coarsened in and
  // with how far its passes reach (on 131,072 weighted vertices onto 4:8:2
  // and 4:8:4 PEs, each of the three below was the lowest somewhere, by up
  // to 1.45x: a shuffled stencil with a heavy corner onto 4:8:4 PEs gave
  // 16.2e6, 11.0e6 and 12.6e6 hop-bytes).
  struct Candidate {
    std::string_view name;
    std::function<Mapping(const Run&)> make;
  };
  std::vector<Candidate> candidates{
      {"scotch", [&](const Run& run) { return ScotchMapper().map(problem, run); }},
      {"rb", [&](const Run& run) { return map_rb_by_load(problem, run, {.order_seed = context.seed}); }},
      {"rb (another order)",
       [&](const Run& run) { return map_rb_by_load(problem, run, {.order_seed = context.seed + 1}); }},
      {"rb (whole-level passes)",
       [&](const Run& run) {
         return map_rb_by_load(problem, run, {.order_seed = context.seed, .whole_level_passes = true});
       }},
  };
  // A grid on a tree: its blocks cut by weight too (O(ranks x log PEs)).
  std::string why;
  const auto grid = grid_for_blocks(problem, sym, why);
  if (grid) {
    candidates.push_back({"blocks", [&](const Run& run) { return cut_in_blocks(problem, sym, *grid, run); }});
  }
  context.note(2, fmt::format("auto: {}", grid ? why : "no blocks: " + why));
  // Each built, brought within the limits and refined by moves, side by
  // side on the run's threads (each on its share); the fewest hop-bytes
  // kept, ties to the earlier.
  std::vector<std::optional<Mapping>> mappings(candidates.size());
  std::vector<std::int64_t> costs(candidates.size(), 0);
  std::vector<std::exception_ptr> refused(candidates.size());
  run_tasks(
      candidates.size(), construct, thread_share(construct.threads, candidates.size()),
      [&](std::size_t k, const Run& run) {
        if (k > 0 && context.stopped()) return;  // stopped: scotch's mapping at least
        const auto& candidate = candidates[k];
        auto mapping = candidate.make(run);
        const auto built = evaluate(problem.comm, problem.topology, mapping).hop_bytes;
        BalancedMoveStats stats;
        try {
          stats = balance_and_refine(sym, problem.topology, problem.constraints, mapping, kPasses);
        } catch (const InputError& e) {  // its loads cannot be brought within the limit by moves
          run.note(2, fmt::format("auto: {} left out: {}", candidate.name, e.what()));
          refused[k] = std::current_exception();
          return;
        }
        costs[k] = evaluate(problem.comm, problem.topology, mapping).hop_bytes;
        run.note(2, fmt::format("auto: ranks balanced by load: {} {} hop-bytes; {} rank(s) moved within the "
                                "limit of {}, then refined to {} ({} moves, {} of them swaps, {} passes{})",
                                candidate.name, built, stats.repaired, problem.constraints.load_limit(), costs[k],
                                stats.moves, stats.swaps, stats.passes, stats.searched ? ", a tabu search first" : ""));
        mappings[k] = std::move(mapping);
      });
  std::optional<std::size_t> kept;
  for (std::size_t k = 0; k < candidates.size(); ++k) {
    if (mappings[k] && (!kept || costs[k] < costs[*kept])) kept = k;
  }
  if (!kept) {  // none could be brought within the limits
    for (const auto& error : refused) {
      if (error) std::rethrow_exception(error);
    }
  }
  auto& mapping = *mappings[*kept];
  refine_between_subtrees(problem, sym, mapping, costs[*kept], context);
  return std::move(mapping);
}

Mapping map_many_per_pe(const Problem& problem, const Run& context) {
  // Measured on 131,072 ranks of a 64x64x32 stencil onto tleaf 2 4 100 32
  // 10 at 1,024 a PE: rb natural 1.4746e9 hop-bytes in 0.79 s (treematch's
  // slot path: the same in 2.5 s; scotch 1.6927e9 in 1.0 s), shuffled
  // 1.5389e9 in 2.5 s (slot path 1.5891e9 in 4.6 s; scotch 1.7981e9 in 2.4
  // s). A grid's blocks: 1.4746e9 in either order, in 0.1-0.3 s.
  Run construct = context;
  construct.refine.kind = RefineKind::None;
  const auto sym = problem.comm.symmetrized();
  const auto capacity = problem.constraints.capacity();
  std::optional<Mapping> kept;
  std::int64_t kept_cost = 0;
  // Each brought within the count and refined by moves; the fewest
  // hop-bytes kept, ties to the earlier.
  const auto consider = [&](std::string_view name, Mapping mapping) {
    const auto built = evaluate(problem.comm, problem.topology, mapping).hop_bytes;
    const auto stats = balance_and_refine(sym, problem.topology, problem.constraints, mapping, kPasses);
    const auto cost = evaluate(problem.comm, problem.topology, mapping).hop_bytes;
    context.note(2, fmt::format("auto: {} ranks a PE: {} {} hop-bytes, {} rank(s) moved within the count, "
                                "refined to {} ({} moves)",
                                capacity, name, built, stats.repaired, cost, stats.moves));
    if (!kept || cost < kept_cost) {
      kept = std::move(mapping);
      kept_cost = cost;
    }
  };
  std::string why;
  const auto grid = grid_for_blocks(problem, sym, why);
  context.note(2, fmt::format("auto: {}", grid ? why : "no blocks: " + why));
  if (grid) consider("blocks", cut_in_blocks(problem, sym, *grid, construct));
  // rb's cut weighs every pair, the blocks' planes each axis by its mean
  // volume: where the pairs along each axis all send the same, rb is left
  // out (on 3D and 2D stencils of 110,592-131,072 ranks at 1,024-1,728 a PE
  // onto five trees, natural and shuffled, equal volumes and 4x heavier
  // along one axis, the blocks were at or below rb's cut all 12 times, by
  // up to 33 %, in a tenth of its time or less).
  if (grid && sends_alike_along_each_axis(sym, *grid)) {
    context.note(2, "auto: left out: rb (a grid whose pairs along each axis send the same: its blocks)");
  } else {
    consider("rb by count", map_rb_by_load(problem, construct, {.order_seed = context.seed}, capacity));
  }
  // Never above in-order (auto's rule).
  auto in_order = InOrderMapper().map(problem, construct);
  if (evaluate(problem.comm, problem.topology, in_order).hop_bytes < kept_cost) {
    context.note(2, "auto: inorder kept (fewer hop-bytes)");
    return in_order;
  }
  return std::move(*kept);
}

}  // namespace tmap::strategies
