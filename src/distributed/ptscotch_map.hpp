// Mapping a traffic graph where it lives: each MPI process holds its block
// of vertices and their edges, and nothing but labels (one per vertex) and
// the parts' traffic (one entry per pair of parts) is ever gathered. For
// jobs whose graph is already spread over processes, or too large for one.
//
// PT-Scotch 7.0.3 partitions distributed graphs but does not map them onto
// other targets (SCOTCH_dgraphMap stops with "kdgraphMapRbMap: not
// implemented yet" on meshes, tori and trees), so the mapping has three
// levels: (1) PT-Scotch cuts the graph into k parts sized as k blocks of
// the machine (runs of about 256 terminals in bisection order: compact
// regions); (2) the parts' traffic, k vertices, is mapped onto the blocks by
// libscotch with exact distances between blocks (every process computes the
// same answer); (3) each part's ranks are mapped onto its block's terminals
// by libscotch with a distance table, on the process part % P; (4) each
// block's ranks are refined with their neighbours in other blocks fixed
// (halo_refine.hpp). map_distributed.hpp chooses between this and the job's
// own order or grid.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <vector>

#include "distributed/halo_refine.hpp"
#include "distributed/local_graph.hpp"
#include "tmap/mapper.hpp"
#include "tmap/topology.hpp"

namespace tmap::dist {

/// Collective over `comm`: maps the distributed graph onto the allowed PEs
/// and returns the whole mapping (PE of every vertex) on every process.
/// Ranks a block cannot hold move to the free terminal nearest along the
/// machine (bisection order). Deterministic for a seed and a number of
/// processes (a deterministic libscotch context); the result depends on
/// the number of processes.
[[nodiscard]] Mapping map_ptscotch(MPI_Comm comm, const LocalGraph& graph, const Topology& topology,
                                   const Constraints& constraints, const Context& context, HaloStats* stats = nullptr);

}  // namespace tmap::dist
