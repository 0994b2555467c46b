// Recognises a Scotch deco target that describes Tianhe-3 nodes (what
// tm-topo --tgt writes, with or without --alloc), so that a user's
// `-t tianhe3.tgt` gets the machine itself: its routing model (link
// metrics), its tree (treematch), its host names and per-core slots.
#pragma once

#include <memory>

#include "tmap/topology.hpp"
#include "topology/kinds/distance_matrix.hpp"

namespace tmap::topo {

/// The Tianhe-3 machine (or the sub target of its listed nodes) whose hop
/// table equals the deco's distances exactly, with node id = terminal label
/// and cores = the terminals' common weight; nullptr when there is none.
/// Cost: O(T) per candidate shape, O(T^2) once to confirm.
[[nodiscard]] std::unique_ptr<Topology> recognise_tianhe3(const DistanceMatrixTopology& deco);

}  // namespace tmap::topo
