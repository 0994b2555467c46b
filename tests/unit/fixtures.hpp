// Shared test inputs.
#pragma once

#include <vector>

#include "tmap/topology.hpp"
#include "util/random.hpp"

namespace tmap::test {

/// A random allocation: each PE of the topology kept unless rng.below(one_in)
/// draws 0 (so about (one_in - 1) / one_in of the PEs).
inline std::vector<PE> random_allowed_pes(const Topology& topology, detail::Random& rng, std::uint64_t one_in) {
  std::vector<PE> allowed;
  for (PE p = 0; p < topology.size(); ++p) {
    if (rng.below(one_in) != 0) allowed.push_back(p);
  }
  return allowed;
}

}  // namespace tmap::test
