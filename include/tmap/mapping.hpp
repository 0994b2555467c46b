// Where ranks go (Mapping) and where they may go (Constraints).
#pragma once

#include <span>
#include <vector>

#include "tmap/export.h"
#include "tmap/types.hpp"

TMAP_API_BEGIN

namespace tmap {

class Topology;

/// sigma[rank] = PE.
using Mapping = std::vector<PE>;

/// The PEs a job may use and how many ranks each may hold.
class Constraints {
 public:
  /// Every PE of the topology allowed, one rank each.
  static Constraints all(const Topology& topology, std::int64_t oversubscription = 1);
  /// Only the given PEs (any order, no duplicates, all in range: checked,
  /// InputError otherwise), each with `oversubscription` slots.
  static Constraints allowed(const Topology& topology, std::vector<PE> pes, std::int64_t oversubscription = 1);

  /// Allowed PEs in increasing order.
  [[nodiscard]] std::span<const PE> allowed_pes() const noexcept { return allowed_; }
  /// Every PE of the given nodes (Topology::node_of), each with
  /// `oversubscription` slots. Nodes must be in range and distinct.
  static Constraints on_nodes(const Topology& topology, std::span<const NodeId> nodes,
                              std::int64_t oversubscription = 1);

  /// Ranks one PE may hold (K of `-o K`).
  [[nodiscard]] std::int64_t capacity() const noexcept { return capacity_; }
  /// Total number of slots = allowed PEs x capacity.
  [[nodiscard]] std::int64_t num_slots() const noexcept {
    return static_cast<std::int64_t>(allowed_.size()) * capacity_;
  }
  /// Every slot as its PE, PE by PE in increasing order: each allowed PE
  /// appears capacity() times in a row ("fill a PE, then the next").
  [[nodiscard]] std::vector<PE> slots() const;
  /// Is this PE allowed? O(log N).
  [[nodiscard]] bool is_allowed(PE pe) const noexcept;
  /// Number of PEs of the topology these constraints were made for.
  [[nodiscard]] PE topology_size() const noexcept { return topology_size_; }

 private:
  std::vector<PE> allowed_;
  std::int64_t capacity_ = 1;
  PE topology_size_ = 0;
};

/// Checks that a mapping places every one of n ranks on an allowed PE within
/// capacity. Throws InternalError naming the first violation: a strategy
/// returning an invalid mapping is a bug.
void validate_mapping(std::span<const PE> mapping, std::int64_t num_ranks, const Constraints& constraints);

}  // namespace tmap

TMAP_API_END
