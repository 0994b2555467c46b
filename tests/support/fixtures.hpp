// Shared test inputs.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <set>
#include <vector>

#include "tmap/comm_matrix.hpp"
#include "tmap/mapper.hpp"
#include "tmap/mapping.hpp"
#include "tmap/metrics.hpp"
#include "tmap/topology.hpp"
#include "util/random.hpp"

#ifndef TMAP_TEST_SANITIZED
#define TMAP_TEST_SANITIZED 0
#endif

namespace tmap::test {

/// True in the sanitizer build (CI's clang step): the checks whose point
/// is a property at Release scale (determinism, many seeds) run a smaller
/// share there, the code paths the same; the Release suite runs them whole.
inline constexpr bool kSanitized = TMAP_TEST_SANITIZED != 0;

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

/// A strategy's mapping under the default configuration.
inline Mapping map_default(const char* strategy, const CommMatrix& comm, const Topology& topology,
                           const Constraints& constraints) {
  return map_with(strategy, Problem{comm, topology, constraints}, Context{});
}

/// A placement checked against what the test itself allowed, without
/// tmap's validate_mapping (which map_with has already run): one PE per
/// rank, each among `allowed`, none holding more than `capacity` ranks.
inline ::testing::AssertionResult places_within(const std::vector<PE>& mapping, Rank ranks,
                                                const std::vector<PE>& allowed, std::int64_t capacity) {
  if (static_cast<Rank>(mapping.size()) != ranks) {
    return ::testing::AssertionFailure() << mapping.size() << " PEs for " << ranks << " ranks";
  }
  const std::set<PE> allowed_set(allowed.begin(), allowed.end());
  std::map<PE, std::int64_t> load;
  for (std::size_t rank = 0; rank < mapping.size(); ++rank) {
    const PE pe = mapping[rank];
    if (allowed_set.count(pe) == 0) return ::testing::AssertionFailure() << "rank " << rank << " on PE " << pe;
    if (++load[pe] > capacity) {
      return ::testing::AssertionFailure() << "PE " << pe << " holds more than " << capacity << " ranks";
    }
  }
  return ::testing::AssertionSuccess();
}

/// Every PE of a machine, for places_within on whole machines.
inline std::vector<PE> every_pe(const Topology& topology) {
  std::vector<PE> pes(static_cast<std::size_t>(topology.size()));
  std::iota(pes.begin(), pes.end(), 0);
  return pes;
}

}  // namespace tmap::test
