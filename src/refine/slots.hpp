// The allowed slots (OHTMA's "idle processors"), shared by the constructions
// and the searches. Each allowed PE holds K
// slots (K = -o), numbered PE-major, so slot s lies on local PE s / K.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "tmap/mapping.hpp"

namespace tmap::refine {

/// Called by a search every so often with its step count and the best cost
/// so far (hop-bytes); returning false ends the search with that best.
using StepReport = std::function<bool(std::int64_t step, std::int64_t best_cost)>;

struct SlotSpace {
  std::int64_t num_slots = 0;
  std::int64_t capacity = 1;

  static SlotSpace of(const Constraints& constraints) { return {constraints.num_slots(), constraints.capacity()}; }
  [[nodiscard]] std::int64_t pe_of(std::int64_t slot) const noexcept { return slot / capacity; }

  /// sigma (rank -> slot) as a mapping (rank -> PE id of the topology).
  [[nodiscard]] Mapping to_mapping(std::span<const std::int64_t> sigma, std::span<const PE> pes) const {
    Mapping mapping(sigma.size());
    for (std::size_t r = 0; r < sigma.size(); ++r) mapping[r] = pes[pe_of(sigma[r])];
    return mapping;
  }
};

/// sigma (rank -> slot) of a mapping: the ranks of one PE take its slots in
/// rank order.
[[nodiscard]] inline std::vector<std::int64_t> slots_of(const Mapping& mapping, const Constraints& constraints) {
  const auto pes = constraints.allowed_pes();
  std::vector<std::int64_t> used(pes.size(), 0);
  std::vector<std::int64_t> sigma(mapping.size());
  for (std::size_t r = 0; r < mapping.size(); ++r) {
    const auto index = static_cast<std::size_t>(std::lower_bound(pes.begin(), pes.end(), mapping[r]) - pes.begin());
    sigma[r] = static_cast<std::int64_t>(index) * constraints.capacity() + used[index]++;
  }
  return sigma;
}

}  // namespace tmap::refine
