#include "tmap/metrics.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <string>

#include "tmap/comm_matrix.hpp"
#include "tmap/error.hpp"
#include "tmap/topology.hpp"
#include "util/int128.hpp"

namespace tmap {

Metrics evaluate(const CommMatrix& comm, const Topology& topology, std::span<const PE> mapping) {
  if (static_cast<Rank>(mapping.size()) != comm.num_ranks()) {
    throw InputError("the mapping has " + std::to_string(mapping.size()) +
                     " entries but the communication matrix has " + std::to_string(comm.num_ranks()) + " ranks");
  }
  for (std::size_t r = 0; r < mapping.size(); ++r) {
    if (mapping[r] < 0 || mapping[r] >= topology.size()) {
      throw InputError("rank " + std::to_string(r) + " is mapped to PE " + std::to_string(mapping[r]) +
                       ", outside the topology (PEs 0.." + std::to_string(topology.size() - 1) + ")");
    }
  }
  // 128-bit sums: volumes up to 2^63 times distances cannot overflow here.
  detail::Int128 hop_bytes = 0;
  detail::Int128 total = 0;
  detail::Int128 max_com = 0;
  // Bytes per distance: a flat array when distances are small (hops), a
  // map for topologies with large link costs.
  const Distance largest = topology.max_distance();
  const bool flat = largest <= 4096;
  std::vector<detail::Int128> flat_bytes(flat ? static_cast<std::size_t>(largest) + 1 : 0, 0);
  std::map<Distance, detail::Int128> by_distance;
  for (Rank i = 0; i < comm.num_ranks(); ++i) {
    const auto cols = comm.targets(i);
    const auto vols = comm.volumes(i);
    const PE pi = mapping[i];
    for (std::size_t k = 0; k < cols.size(); ++k) {
      const Distance d = topology.distance(pi, mapping[cols[k]]);
      const detail::Int128 cost = static_cast<detail::Int128>(vols[k]) * d;
      hop_bytes += cost;
      total += vols[k];
      max_com = std::max(max_com, cost);
      if (flat) {
        flat_bytes[d] += vols[k];
      } else {
        by_distance[d] += vols[k];
      }
    }
  }
  constexpr auto kMax = static_cast<detail::Int128>(std::numeric_limits<std::int64_t>::max());
  if (hop_bytes > kMax || total > kMax) {
    throw InputError("hop-bytes of this mapping exceed 2^63-1 and cannot be reported exactly");
  }
  for (std::size_t d = 0; d < flat_bytes.size(); ++d) {
    if (flat_bytes[d] != 0) by_distance[static_cast<Distance>(d)] = flat_bytes[d];
  }
  Metrics m;
  m.total_bytes = static_cast<Volume>(total);
  m.hop_bytes = static_cast<std::int64_t>(hop_bytes);
  m.max_com = static_cast<std::int64_t>(max_com);
  m.avg_hops = total == 0 ? 0.0 : static_cast<double>(hop_bytes) / static_cast<double>(total);
  for (const auto& [d, bytes] : by_distance) m.bytes_by_distance.emplace_back(d, static_cast<Volume>(bytes));
  return m;
}

}  // namespace tmap
