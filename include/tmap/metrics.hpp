// Quality of a mapping (contract section 3).
#pragma once

#include <span>
#include <utility>
#include <vector>

#include "tmap/export.h"
#include "tmap/types.hpp"

TMAP_API_BEGIN

namespace tmap {

class CommMatrix;
class Topology;

struct Metrics {
  /// Sum of all off-diagonal volumes.
  Volume total_bytes = 0;
  /// sum_{i,j} A[i][j] * d(sigma(i), sigma(j)) over the stored (directed) entries.
  std::int64_t hop_bytes = 0;
  /// hop_bytes / total_bytes (0 when nothing is sent).
  double avg_hops = 0.0;
  /// max_{i,j} A[i][j] * d(sigma(i), sigma(j)).
  std::int64_t max_com = 0;
  /// Bytes that travel each distance, by increasing distance (distances that
  /// carry no bytes are left out).
  std::vector<std::pair<Distance, Volume>> bytes_by_distance;
};

/// Scores `mapping` (sigma[rank] = PE). Exact integer arithmetic; throws
/// InputError when hop-bytes would exceed 2^63-1.
[[nodiscard]] Metrics evaluate(const CommMatrix& comm, const Topology& topology, std::span<const PE> mapping);

}  // namespace tmap

TMAP_API_END
