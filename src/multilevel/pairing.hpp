// One coarsening step of both hierarchies: items (vertices of the traffic
// graph, or groups of slots of the machine) are paired, only with items of
// the same shape (how they were paired so far, levels.hpp), and in each
// shape class exactly floor(count / 2) pairs are formed. Coarsening the
// traffic and the machine by this one rule keeps the two hierarchies in
// step: at every level the clusters' shapes and the groups' shapes are the
// same multiset, so a level's mapping is a bijection of clusters onto groups
// of the same shape, a swap of two clusters of one shape keeps it one, and
// it projects onto the level below (no balance to repair at the end).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace tmap::multilevel {

/// Who each item would like to join, best first by `score` (higher is
/// better): compressed rows, item v's candidates in [offsets[v], offsets[v+1]).
struct Candidates {
  std::vector<std::int64_t> offsets{0};
  std::vector<std::int64_t> targets;
  std::vector<std::int64_t> scores;

  [[nodiscard]] std::int64_t num_items() const noexcept { return static_cast<std::int64_t>(offsets.size()) - 1; }
};

/// partner[v] (-1: v stays alone). Items are visited in `order`; each takes
/// its best free candidate of its shape (ties to the lowest id), then a free
/// item of its shape two candidates away, and the items still alone are
/// paired in visit order within their shape class. Deterministic.
std::vector<std::int64_t> pair_within_shapes(const Candidates& candidates, std::span<const std::int64_t> shape,
                                             std::span<const std::int64_t> order);

/// Numbers the pairs (and lone items) 0.. in increasing order of their lower
/// item: parent[v] = the coarse item of v. Returns the number of coarse items.
std::int64_t number_pairs(std::span<const std::int64_t> partner, std::vector<std::int64_t>& parent);

}  // namespace tmap::multilevel
