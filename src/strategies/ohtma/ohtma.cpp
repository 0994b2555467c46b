#include "strategies/ohtma/ohtma.hpp"

#include <chrono>
#include <string>

#include "core/distance_oracle.hpp"
#include "strategies/ohtma/greedy.hpp"
#include "strategies/ohtma/pair_exchange.hpp"
#include "tmap/comm_matrix.hpp"
#include "tmap/topology.hpp"

namespace tmap::strategies {

namespace {
double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}
}  // namespace

Mapping OhtmaMapper::map(const Problem& problem, const Run& context) const {
  const auto sym = problem.comm.symmetrized();
  const auto& constraints = problem.constraints;
  const auto slots = refine::SlotSpace::of(constraints);
  const Rank n = sym.num_ranks();
  const std::int64_t loop = context.ohtma.loop < 0 ? n / 2 : context.ohtma.loop;
  // Refuse before any work when the gain table cannot fit.
  ohtma::check_gain_table(sym, problem.topology.max_distance());

  auto start = std::chrono::steady_clock::now();
  auto sigma = ohtma::greedy_construction(sym, slots, problem.topology, constraints.allowed_pes(), context.threads);
  context.note(2, "ohtma: greedy construction " + std::to_string(seconds_since(start)) + " s");
  detail::with_distances(problem.topology, constraints.allowed_pes(), context.threads, [&](const auto& distances) {
    start = std::chrono::steady_clock::now();
    const auto pass =
        ohtma::exchange_pass(sym, slots, distances, problem.topology.max_distance(), sigma, loop, context.threads);
    context.note(2, "ohtma: " + std::to_string(pass.swaps.size()) + " swaps, kept " + std::to_string(pass.kept) +
                        " (hop-bytes -" + std::to_string(static_cast<std::int64_t>(pass.gain)) + ") in " +
                        std::to_string(seconds_since(start)) + " s");
  });
  return slots.to_mapping(sigma, constraints.allowed_pes());
}

}  // namespace tmap::strategies
