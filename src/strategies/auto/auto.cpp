#include "strategies/auto/auto.hpp"

#include <string>

#include "tmap/metrics.hpp"

namespace tmap::strategies {

Mapping AutoMapper::map(const Problem& problem, const Context& context) const {
  // The constructions alone: map_with refines what this returns.
  Context construct = context;
  construct.refine.kind = RefineKind::None;
  auto scotch = map_with("scotch", problem, construct);
  auto inorder = map_with("inorder", problem, construct);
  const auto scotch_cost = evaluate(problem.comm, problem.topology, scotch).hop_bytes;
  const auto inorder_cost = evaluate(problem.comm, problem.topology, inorder).hop_bytes;
  const bool keep_order = inorder_cost < scotch_cost;
  context.note(2, "auto: " + std::string(keep_order ? "in-order" : "scotch") + " kept (hop-bytes scotch " +
                      std::to_string(scotch_cost) + ", in-order " + std::to_string(inorder_cost) + ")");
  return keep_order ? std::move(inorder) : std::move(scotch);
}

}  // namespace tmap::strategies
