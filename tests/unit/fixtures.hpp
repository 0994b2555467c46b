// Shared test inputs.
#pragma once

#include <algorithm>
#include <numeric>
#include <vector>

#include "tmap/comm_matrix.hpp"
#include "tmap/mapping.hpp"
#include "tmap/metrics.hpp"
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

/// The least hop-bytes of any placement of comm's ranks on distinct PEs,
/// by trying every permutation of the PEs (small machines only).
inline std::int64_t brute_force_optimum(const CommMatrix& comm, const Topology& topology) {
  std::vector<PE> perm(static_cast<std::size_t>(topology.size()));
  std::iota(perm.begin(), perm.end(), 0);
  std::int64_t best = -1;
  do {
    const Mapping m(perm.begin(), perm.begin() + comm.num_ranks());
    const auto cost = evaluate(comm, topology, m).hop_bytes;
    if (best < 0 || cost < best) best = cost;
  } while (std::next_permutation(perm.begin(), perm.end()));
  return best;
}

}  // namespace tmap::test
