#include "strategies/inorder/inorder.hpp"

#include "tmap/comm_matrix.hpp"

namespace tmap::strategies {

Mapping InOrderMapper::map(const Problem& problem, const Run& /*context*/) const {
  auto slots = problem.constraints.slots();
  slots.resize(static_cast<std::size_t>(problem.comm.num_ranks()));
  return slots;
}

}  // namespace tmap::strategies
