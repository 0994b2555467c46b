// Each node's ranks exchanged among its PEs to lower hop-bytes: for the
// constructions that see a node as one flat level (the blocks along a
// cluster's network, whose GPU nodes link their GPUs in a mesh: on a
// DGX-1 a rank's halo partners belong on its NVLinks).
#pragma once

#include <span>

#include "tmap/comm_matrix.hpp"
#include "tmap/mapping.hpp"
#include "tmap/topology.hpp"

namespace tmap::strategies {

/// The hop-bytes of r's pairs in `sym` were r on `pe` (its partners where
/// `mapping` puts them), its pairs with the ranks `skip` left out (those
/// that move with r count apart).
[[nodiscard]] Volume pairs_cost(const CommMatrix& sym, const Topology& topology, std::span<const PE> mapping, Rank r,
                                PE pe, std::span<const Rank> skip);

/// Exchanges two ranks of one node (or moves a rank to a free allowed PE
/// of its node), and rotates three, wherever that lowers the hop-bytes of
/// `sym` (symmetric traffic), first improvement, in passes over the nodes
/// until one finds nothing (at most `passes`); rotations in nodes of up to
/// 16 PEs. One rank a PE. O(passes x nodes x PEs a node^3 x partners)
/// time; the same result on any thread count.
void settle_in_nodes(const CommMatrix& sym, const Topology& topology, std::span<const PE> allowed, Mapping& mapping,
                     int passes = 8);

}  // namespace tmap::strategies
