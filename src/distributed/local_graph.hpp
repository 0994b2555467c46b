// A traffic graph spread over the processes of a communicator: each holds
// a block of vertices (blocks in process order) with their symmetrised
// edges, and the few collectives the distributed path is built from.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <vector>

#include "tmap/comm_matrix.hpp"
#include "tmap/mapping.hpp"

namespace tmap {
class Topology;
}

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

/// Collective: what every process gave, everywhere, in process order.
[[nodiscard]] std::vector<long long> all_gather(MPI_Comm comm, const std::vector<long long>& mine);

/// The block of n vertices process `rank` of `size` holds.
[[nodiscard]] Rank block_first(Rank n, int rank, int size);

/// Collective: this process's block of the n-vertex graph whose directed
/// entries (from, to, bytes; ids in [0, n), no self-loops) are known
/// anywhere, each given by one process: both directions go to the owners of
/// their sources and repeated pairs add up (CommMatrix::symmetrized).
[[nodiscard]] LocalGraph local_graph_from_entries(MPI_Comm comm, Rank n, const std::vector<CommEntry>& entries);

/// Hop-bytes of `mapping` over the distributed graph (sum over the edges
/// of every process), on every process.
[[nodiscard]] std::int64_t distributed_hop_bytes(MPI_Comm comm, const LocalGraph& graph, const Topology& topology,
                                                 const Mapping& mapping);

}  // namespace tmap::dist
