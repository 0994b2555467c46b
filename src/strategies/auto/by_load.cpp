// auto where ranks of unequal weight are balanced by load (--imbalance):
// libscotch's static mapping with the weights as vertex loads and EPS as
// its balance ratio (what gmap computes on the weighted graph), brought
// within the load limits, then moves within them that lower hop-bytes
// (strategies/common/balanced_moves.hpp).
#include <fmt/format.h>

#include <exception>
#include <optional>
#include <string_view>

#include "strategies/auto/auto.hpp"
#include "strategies/common/balanced_moves.hpp"
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

}  // namespace

Mapping map_by_load(const Problem& problem, const Run& context) {
  Run construct = context;
  construct.refine.kind = RefineKind::None;
  const auto sym = problem.comm.symmetrized();
  // Each candidate brought within the limits and refined by moves; the
  // fewer hop-bytes kept (ties to scotch, gmap's own mapping).
  std::optional<Mapping> best;
  std::int64_t best_cost = 0;
  std::exception_ptr refused;
  const auto candidate = [&](std::string_view name, const auto& make) {
    if (best && context.stopped()) return;  // stopped: the mapping so far
    auto mapping = make();
    const auto built = evaluate(problem.comm, problem.topology, mapping).hop_bytes;
    BalancedMoveStats stats;
    try {
      stats = balance_and_refine(sym, problem.topology, problem.constraints, mapping, kPasses);
    } catch (const InputError& e) {  // this one's loads cannot be brought within the limit by moves
      context.note(2, fmt::format("auto: {} left out: {}", name, e.what()));
      if (!refused) refused = std::current_exception();
      return;
    }
    const auto cost = evaluate(problem.comm, problem.topology, mapping).hop_bytes;
    context.note(2, fmt::format("auto: ranks balanced by load: {} {} hop-bytes; {} rank(s) moved within the limit of "
                                "{}, then refined to {} ({} moves, {} of them swaps, {} passes{})",
                                name, built, stats.repaired, problem.constraints.load_limit(), cost, stats.moves,
                                stats.swaps, stats.passes, stats.searched ? ", a tabu search first" : ""));
    if (!best || cost < best_cost) {
      best = std::move(mapping);
      best_cost = cost;
    }
  };
  candidate("scotch", [&] { return ScotchMapper().map(problem, construct); });
  // rb's cut moves with the order its graphs are coarsened in and with how
  // far its passes reach (on 131,072 weighted vertices onto 4:8:2 and 4:8:4
  // PEs, each of the three below was the lowest somewhere, by up to 1.45x:
  // a shuffled stencil with a heavy corner onto 4:8:4 PEs gave 16.2e6,
  // 11.0e6 and 12.6e6 hop-bytes).
  candidate("rb", [&] { return map_rb_by_load(problem, construct, {.order_seed = context.seed}); });
  candidate("rb (another order)", [&] { return map_rb_by_load(problem, construct, {.order_seed = context.seed + 1}); });
  candidate("rb (whole-level passes)", [&] {
    return map_rb_by_load(problem, construct, {.order_seed = context.seed, .whole_level_passes = true});
  });
  if (!best) std::rethrow_exception(refused);  // none could be brought within the limits
  return std::move(*best);
}

Mapping map_many_per_pe(const Problem& problem, const Run& context) {
  // Measured on 131,072 ranks of a 64x64x32 stencil onto tleaf 2 4 100 32
  // 10 at 1,024 a PE: natural 1.4746e9 hop-bytes in 0.79 s (treematch's
  // slot path: the same in 2.5 s; scotch 1.6927e9 in 1.0 s), shuffled
  // 1.5389e9 in 2.5 s (slot path 1.5891e9 in 4.6 s; scotch 1.7981e9 in 2.4 s).
  Run construct = context;
  construct.refine.kind = RefineKind::None;
  auto mapping = map_rb_by_load(problem, construct, {.order_seed = context.seed}, problem.constraints.capacity());
  const auto built = evaluate(problem.comm, problem.topology, mapping).hop_bytes;
  const auto stats =
      balance_and_refine(problem.comm.symmetrized(), problem.topology, problem.constraints, mapping, kPasses);
  const auto cost = evaluate(problem.comm, problem.topology, mapping).hop_bytes;
  context.note(2, fmt::format("auto: {} ranks a PE: rb by count {} hop-bytes, {} rank(s) moved within the count, "
                              "refined to {} ({} moves)",
                              problem.constraints.capacity(), built, stats.repaired, cost, stats.moves));
  // Never above in-order (auto's rule).
  auto in_order = InOrderMapper().map(problem, construct);
  if (evaluate(problem.comm, problem.topology, in_order).hop_bytes < cost) {
    context.note(2, "auto: inorder kept (fewer hop-bytes)");
    return in_order;
  }
  return mapping;
}

}  // namespace tmap::strategies
