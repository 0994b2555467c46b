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

  /// These PEs balanced by load (--imbalance EPS): each PE holds ranks
  /// weighing at most (1 + EPS) x (total weight / allowed PEs), rounded
  /// down, and never less than that average rounded up (with unit weights
  /// and EPS 0: -o's count, ceil(n / PEs)).
  /// `count_cap` (-o K when given, else 0) still limits the ranks a PE
  /// holds. Ranks of equal weight become a count (capacity(), every
  /// strategy keeps it); ranks of unequal weight keep the load limit, which
  /// the strategies that balance loads meet. InputError for EPS not in
  /// [0, 1e6], or a rank heavier than a PE may hold.
  [[nodiscard]] Constraints balanced(std::span<const Volume> weights, std::int64_t num_ranks, double imbalance,
                                     std::int64_t count_cap) const;
  /// The most load (sum of its ranks' weights) one PE may hold; 0 when
  /// loads are not limited (the count capacity() alone).
  [[nodiscard]] Volume load_limit() const noexcept { return load_limit_; }
  /// The EPS these constraints were balanced with, or a negative value.
  [[nodiscard]] double imbalance() const noexcept { return imbalance_; }

 private:
  std::vector<PE> allowed_;
  std::int64_t capacity_ = 1;
  PE topology_size_ = 0;
  Volume load_limit_ = 0;
  double imbalance_ = -1.0;
};

/// Whether ranks of unequal weight must be balanced by load here (a load
/// limit and weights that differ): only strategies that balance loads map
/// such a problem, and refinements move ranks within the limit.
[[nodiscard]] bool balances_load(std::span<const Volume> weights, const Constraints& constraints);

/// Each allowed PE's load (the sum of its ranks' weights; 1 a rank without
/// weights), in allowed_pes() order.
[[nodiscard]] std::vector<Volume> pe_loads(std::span<const PE> mapping, std::span<const Volume> weights,
                                           const Constraints& constraints);

/// Checks that a mapping places every one of n ranks on an allowed PE within
/// capacity. Throws InternalError naming the first violation: a strategy
/// returning an invalid mapping is a bug.
void validate_mapping(std::span<const PE> mapping, std::int64_t num_ranks, const Constraints& constraints);
/// validate_mapping, and each PE's load within the load limit when there is one.
void validate_mapping(std::span<const PE> mapping, std::span<const Volume> weights, std::int64_t num_ranks,
                      const Constraints& constraints);

}  // namespace tmap

TMAP_API_END
