#include "tmap/mapping.hpp"

#include <algorithm>
#include <string>

#include "tmap/error.hpp"
#include "tmap/topology.hpp"

namespace tmap {

namespace {

void check_oversubscription(std::int64_t oversubscription) {
  if (oversubscription < 1 || oversubscription > kMaxRanks) {
    throw InputError("-o: ranks per PE must be between 1 and " + std::to_string(kMaxRanks) + ", found " +
                     std::to_string(oversubscription));
  }
}

}  // namespace

Constraints Constraints::all(const Topology& topology, std::int64_t oversubscription) {
  check_oversubscription(oversubscription);
  if (topology.size() > kMaxPEs) {
    throw InputError("the topology has " + std::to_string(topology.size()) + " PEs; tmap maps onto at most " +
                     std::to_string(kMaxPEs));
  }
  std::vector<PE> pes(static_cast<std::size_t>(topology.size()));
  for (PE p = 0; p < topology.size(); ++p) pes[p] = p;
  return allowed(topology, std::move(pes), oversubscription);
}

Constraints Constraints::allowed(const Topology& topology, std::vector<PE> pes, std::int64_t oversubscription) {
  check_oversubscription(oversubscription);
  for (const PE p : pes) {
    if (p < 0 || p >= topology.size()) {
      throw InputError("PE " + std::to_string(p) + " is outside the topology (PEs 0.." +
                       std::to_string(topology.size() - 1) + ")");
    }
  }
  std::sort(pes.begin(), pes.end());
  if (const auto dup = std::adjacent_find(pes.begin(), pes.end()); dup != pes.end()) {
    throw InputError("PE " + std::to_string(*dup) + " is listed twice");
  }
  // A machine of parts no job spans (a Slurm switch tree Slurm accepts):
  // refused only when this job spans two.
  if (!pes.empty()) {
    const auto part = topology.part_of(pes.front());
    for (const PE p : pes) {
      if (topology.part_of(p) != part) throw InputError(topology.why_apart(pes.front(), p));
    }
  }
  Constraints c;
  c.allowed_ = std::move(pes);
  c.capacity_ = oversubscription;
  c.topology_size_ = topology.size();
  return c;
}

Constraints Constraints::on_nodes(const Topology& topology, std::span<const NodeId> nodes,
                                  std::int64_t oversubscription) {
  std::vector<char> wanted(static_cast<std::size_t>(topology.num_nodes()), 0);
  for (const NodeId node : nodes) {
    if (node < 0 || node >= topology.num_nodes()) {
      throw InputError("node " + std::to_string(node) + " is outside the topology (nodes 0.." +
                       std::to_string(topology.num_nodes() - 1) + ")");
    }
    if (wanted[node] != 0) throw InputError("node " + std::to_string(node) + " is listed twice");
    wanted[node] = 1;
  }
  std::vector<PE> pes;
  for (PE p = 0; p < topology.size(); ++p) {
    if (wanted[topology.node_of(p)] != 0) pes.push_back(p);
  }
  return allowed(topology, std::move(pes), oversubscription);
}

std::vector<PE> Constraints::slots() const {
  std::vector<PE> result;
  result.reserve(static_cast<std::size_t>(num_slots()));
  for (const PE p : allowed_) result.insert(result.end(), static_cast<std::size_t>(capacity_), p);
  return result;
}

bool Constraints::is_allowed(PE pe) const noexcept {
  return std::binary_search(allowed_.begin(), allowed_.end(), pe);
}

void validate_mapping(std::span<const PE> mapping, std::int64_t num_ranks, const Constraints& constraints) {
  if (static_cast<std::int64_t>(mapping.size()) != num_ranks) {
    throw InternalError("mapping has " + std::to_string(mapping.size()) + " entries for " + std::to_string(num_ranks) +
                        " ranks");
  }
  const auto allowed = constraints.allowed_pes();
  std::vector<std::int64_t> load(allowed.size(), 0);
  for (std::size_t r = 0; r < mapping.size(); ++r) {
    const auto it = std::lower_bound(allowed.begin(), allowed.end(), mapping[r]);
    if (it == allowed.end() || *it != mapping[r]) {
      throw InternalError("rank " + std::to_string(r) + " is mapped to PE " + std::to_string(mapping[r]) +
                          ", which is not allowed");
    }
    if (++load[static_cast<std::size_t>(it - allowed.begin())] > constraints.capacity()) {
      throw InternalError("PE " + std::to_string(mapping[r]) + " holds more than " +
                          std::to_string(constraints.capacity()) + " ranks");
    }
  }
}

}  // namespace tmap
