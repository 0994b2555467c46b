// The two hierarchies of the multilevel engine, coarsened in step (see
// pairing.hpp): the traffic's clusters and the machine's groups of slots.
// Level 0 is the finest: vertices are the ranks plus one silent vertex per
// free slot, groups are the slots (PE-major, slot s on local PE s / K).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "multilevel/pairing.hpp"
#include "tmap/comm_matrix.hpp"
#include "tmap/topology.hpp"

namespace tmap::multilevel {

/// One level of the traffic: clusters and the symmetric traffic between them.
struct GraphLevel {
  CommMatrix sym;                    ///< traffic between clusters (both rows), no self traffic
  std::vector<std::int64_t> shape;   ///< how the cluster was paired (shape_of_pair/shape_of_lone)
  std::vector<std::int64_t> parent;  ///< cluster -> its cluster one level up (empty at the top)
  /// Which child of its parent the cluster is (0 or 1): the projection puts
  /// child k on the k-th child (in id order) of the parent's group.
  std::vector<std::int8_t> child;

  [[nodiscard]] std::int64_t count() const noexcept { return static_cast<std::int64_t>(shape.size()); }
};

/// One level of the machine: groups of slots, close together.
struct TargetLevel {
  std::vector<std::int64_t> rep;     ///< group -> local PE index of its representative (its first slot's PE)
  std::vector<std::int64_t> shape;   ///< how the group was paired (shape_of_pair/shape_of_lone)
  Candidates near;                   ///< nearby groups, scores = -distance of the representatives
  std::vector<std::int64_t> parent;  ///< group -> its group one level up (empty at the top)

  [[nodiscard]] std::int64_t count() const noexcept { return static_cast<std::int64_t>(shape.size()); }
};

/// Shapes: level-0 items have shape 0; a pair of two items of shape a has
/// shape 2a + 1, a lone item of shape a 2a + 2 one level up. Different
/// pairing trees give different shapes (odd and even images never meet), so
/// clusters and groups of one shape split into children of the same shapes:
/// a level's bijection projects onto the level below it, child by child.
[[nodiscard]] constexpr std::int64_t shape_of_pair(std::int64_t a) noexcept {
  return 2 * a + 1;
}
[[nodiscard]] constexpr std::int64_t shape_of_lone(std::int64_t a) noexcept {
  return 2 * a + 2;
}

/// Nearby PEs of each allowed PE (local indices; scores = -distance): grid
/// neighbours on meshes and tori, the 8 nearest on up to 4096 PEs, else
/// neighbours in the machine's tree (or node) order.
template <typename Distances>
Candidates nearby_pes(const Topology& topology, std::span<const PE> pes, const Distances& d);

/// The machine's levels, finest first, until at most `coarsest` groups
/// remain or a level no longer shrinks.
template <typename Distances>
std::vector<TargetLevel> target_levels(const Topology& topology, std::span<const PE> pes, std::int64_t capacity,
                                       const Distances& d, std::int64_t coarsest);

/// Level 0 of the traffic: `sym` plus silent vertices up to `slots`.
GraphLevel padded_graph(const CommMatrix& sym, std::int64_t slots);

/// Coarsens `levels.back()` once by heavy-edge pairing (visit order drawn
/// from `seed`), as the machine's level of the same height was coarsened.
void coarsen_by_traffic(std::vector<GraphLevel>& levels, std::uint64_t seed);

/// Coarsens `levels.back()` once along the machine: clusters whose groups
/// the machine paired are paired. `place[c]` = group of cluster c, a
/// bijection; the coarse clusters are numbered as the coarse groups.
void coarsen_along(std::vector<GraphLevel>& levels, std::span<const std::int64_t> place,
                   std::span<const std::int64_t> group_parent, std::int64_t coarse_groups);

}  // namespace tmap::multilevel
