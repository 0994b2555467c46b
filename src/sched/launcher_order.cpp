// What a launcher does with a file that names only hosts (tmap/launch.hpp:
// launcher_order_note): it binds each node's ranks, in rank order, to the
// node's CPUs in its own order, whatever core tmap chose for them.
#include <fmt/format.h>

#include <map>

#include "tmap/comm_matrix.hpp"
#include "tmap/launch.hpp"
#include "tmap/metrics.hpp"
#include "tmap/topology.hpp"

namespace tmap {

Mapping launcher_order_mapping(std::span<const PE> mapping, const Topology& topology, const Constraints& constraints) {
  // Each node's slots in CPU order (an oversubscribed PE's ranks wrap).
  std::map<NodeId, std::vector<PE>> slots_on;
  for (const PE pe : constraints.allowed_pes()) slots_on[topology.node_of(pe)].push_back(pe);
  std::map<NodeId, std::size_t> next;
  Mapping placed(mapping.begin(), mapping.end());
  for (auto& pe : placed) {
    const auto node = topology.node_of(pe);
    const auto& slots = slots_on[node];
    if (slots.empty()) continue;  // outside the constraints: left where it is
    pe = slots[next[node]++ % slots.size()];
  }
  return placed;
}

std::string launcher_order_note(MappingFormat format, std::span<const PE> mapping, const CommMatrix& comm,
                                const Topology& topology, const Constraints& constraints) {
  if (format != MappingFormat::Hostfile && format != MappingFormat::Machinefile && format != MappingFormat::Hydra) {
    return {};
  }
  const auto launched = launcher_order_mapping(mapping, topology, constraints);
  std::int64_t moved = 0;
  for (std::size_t r = 0; r < mapping.size(); ++r) moved += launched[r] != mapping[r] ? 1 : 0;
  if (moved == 0) return {};
  const auto ours = evaluate(comm, topology, mapping).hop_bytes;
  const auto theirs = evaluate(comm, topology, launched).hop_bytes;
  if (theirs <= ours) return {};  // the launcher's order costs nothing more
  const auto name = mapping_format_name(format);
  const auto more =
      ours > 0 ? fmt::format(" (+{:.1f} %)", 100.0 * static_cast<double>(theirs - ours) / static_cast<double>(ours))
               : std::string();
  return fmt::format(
      "--format {} names only each rank's host: the launcher binds a node's ranks, in rank order, to the node's "
      "CPUs in its own order (mpirun --bind-to core, srun's block binding), not on the cores tmap chose: {} of {} "
      "ranks land on another core, {} hop-bytes instead of {}{}; --format rankfile (Open MPI) keeps every rank "
      "on its core",
      name, moved, mapping.size(), theirs, ours, more);
}

}  // namespace tmap
