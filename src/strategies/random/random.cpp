#include "strategies/random/random.hpp"

#include "tmap/comm_matrix.hpp"
#include "util/random.hpp"

namespace tmap::strategies {

Mapping RandomMapper::map(const Problem& problem, const Run& context) const {
  auto slots = problem.constraints.slots();
  detail::Random rng(context.seed);
  rng.shuffle(std::span<PE>(slots));
  slots.resize(static_cast<std::size_t>(problem.comm.num_ranks()));
  return slots;
}

}  // namespace tmap::strategies
