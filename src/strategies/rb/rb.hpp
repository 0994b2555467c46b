// Recursive bisection mapping (Hoefler and Snir 2011, the third of their
// algorithms beside greedy and RCM, cited by the OHTMA paper): cut the
// machine in two halves, cut the ranks in two parts sized to the halves'
// slots with the least traffic between them, and recurse into each pair.
//
// The machine is cut by recursive coordinate bisection where its PEs have
// grid coordinates (meshes, tori), along its numbering elsewhere (trees,
// Tianhe-3, hwloc: the numbering follows the hierarchy), at the node
// boundary nearest the middle. The ranks are cut by exact-size graph
// bisection (greedy growing + Fiduccia-Mattheyses, strategies/common).
// Beyond the published algorithm, each cut's two parts are oriented: the
// part that talks more with ranks already bound to the far side goes to
// the half nearer them (plain recursive bisection folds a path cut in four).
// A job smaller than its allocation takes a compact prefix of that order.
#pragma once

#include <span>

#include "strategies/common/bisection.hpp"
#include "tmap/mapper.hpp"

namespace tmap::strategies {

class RecursiveBisectionMapper final : public Mapper {
 public:
  [[nodiscard]] Mapping map(const Problem& problem, const Run& context) const override;
};

/// rb where ranks of unequal weight are balanced by load (balances_load):
/// machine and ranks cut together, the ranks by weight, every allowed PE
/// used; `cut` says how each cut is made (the default rb's: the rank order,
/// a fifth-level reach); `load_limit` other than 0 replaces the
/// constraints' (a count cap cut as the load of ranks weighing 1). PEs may
/// end a little above the limit: balance_and_refine brings them within.
[[nodiscard]] Mapping map_rb_by_load(const Problem& problem, const Run& context, WeightedCut cut,
                                     Volume load_limit = 0);

/// Its options, for its row of the strategy table.
std::span<const StrategyOption> rb_options();

}  // namespace tmap::strategies
