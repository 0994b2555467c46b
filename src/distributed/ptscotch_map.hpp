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
// by libscotch with a distance table, on the process part % P.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <vector>

#include "tmap/comm_matrix.hpp"
#include "tmap/mapper.hpp"
#include "tmap/topology.hpp"

namespace tmap::dist {

/// Vertices [first, first + count) of n (the block of this process, blocks
/// in process order) with their symmetrised edges: both directions of every
/// pair appear, each on its source's process; targets are global ids.
struct LocalGraph {
  Rank n = 0;
  Rank first = 0;
  std::vector<std::int64_t> offsets{0};
  std::vector<Rank> targets;
  std::vector<Volume> volumes;

  [[nodiscard]] Rank count() const noexcept { return static_cast<Rank>(offsets.size()) - 1; }
};

/// Collective: sends outgoing[p] to process p; returns what all sent here,
/// in process order.
[[nodiscard]] std::vector<long long> send_to_owners(MPI_Comm comm, const std::vector<std::vector<long long>>& outgoing);

/// The block of n vertices process `rank` of `size` holds.
[[nodiscard]] Rank block_first(Rank n, int rank, int size);

/// Collective: this process's block of the n-vertex graph whose directed
/// entries (from, to, bytes; ids in [0, n), no self-loops) are known
/// anywhere, each given by one process: both directions go to the owners of
/// their sources and repeated pairs add up (CommMatrix::symmetrized).
[[nodiscard]] LocalGraph local_graph_from_entries(MPI_Comm comm, Rank n, const std::vector<CommEntry>& entries);

/// Collective over `comm`: maps the distributed graph onto the allowed PEs
/// and returns the whole mapping (PE of every vertex) on every process.
/// Ranks a block cannot hold move to the free terminal nearest along the
/// machine (bisection order). Deterministic for a seed and a number of
/// processes (a deterministic libscotch context); the result depends on
/// the number of processes.
[[nodiscard]] Mapping map_ptscotch(MPI_Comm comm, const LocalGraph& graph, const Topology& topology,
                                   const Constraints& constraints, const Context& context);

/// Hop-bytes of `mapping` over the distributed graph (sum over the edges
/// of every process), on every process.
[[nodiscard]] std::int64_t distributed_hop_bytes(MPI_Comm comm, const LocalGraph& graph, const Topology& topology,
                                                 const Mapping& mapping);

}  // namespace tmap::dist
