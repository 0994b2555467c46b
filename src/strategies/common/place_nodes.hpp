// A mapping's nodes moved whole: the ranks each node holds stay together
// and go to the node where their traffic with the other nodes' ranks
// crosses the least network (the node-level quadratic assignment). For
// machines whose constructions see no levels (GPU nodes on a torus or a
// dragonfly): in-order fills each node with neighbours, and where its
// nodes sit is all that is left (CG on 64 GPUs of 4-GPU nodes on a torus:
// in-order's groups placed so are faster than in-order and Scotch's
// mapping, with Scotch's hop-bytes).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "tmap/comm_matrix.hpp"
#include "tmap/mapping.hpp"
#include "tmap/topology.hpp"

namespace tmap::strategies {

/// Nodes this function places at most (its move table has nodes^2 entries).
inline constexpr std::int64_t kMostNodesPlaced = 256;

/// Each allowed node's ranks, as `mapping` puts them, moved whole onto
/// another allowed node (PE k of one onto PE k of the other) to lower the
/// hop-bytes of `comm` between nodes: from up to `starts` starts (the
/// mapping as it is, then shuffles seeded from `seed`; fewer above 128
/// nodes, where each costs about n^3), the dense descent and a short
/// robust tabu search each. Returns the distinct placements found, unlike
/// `mapping` and with no more hop-bytes between nodes, fewest first (the caller tells them apart by what
/// hop-bytes do not see: placements of equal hop-bytes load a torus's links
/// differently). The distance between two nodes is that of their first
/// allowed PEs: on nodes of one kind the rest of each pair's path is the
/// same wherever the two nodes are. None where it does not apply: fewer
/// than 3 or more than kMostNodesPlaced nodes, nodes with different numbers
/// of allowed PEs or a single one, a rank off the allowed PEs, or loads too
/// large for 64-bit sums. The same result on any thread count.
[[nodiscard]] std::vector<Mapping> place_nodes(const CommMatrix& comm, const Topology& topology,
                                               std::span<const PE> allowed, const Mapping& mapping, std::uint64_t seed,
                                               int starts);

}  // namespace tmap::strategies
