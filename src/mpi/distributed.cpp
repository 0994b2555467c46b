#include "mpi/distributed.hpp"

#include "distributed/map_distributed.hpp"
#include "tmap/mapper.hpp"

namespace tmap::mpi {

Assignment assign_distributed(MPI_Comm comm, Rank n, const std::vector<CommEntry>& mine, const Topology& topology,
                              const std::vector<PE>& pe_of_process, std::uint64_t seed) {
  const auto graph = dist::local_graph_from_entries(comm, n, mine);
  const auto constraints = process_constraints(topology, pe_of_process);
  Context context;
  context.seed = seed;
  const auto mapping = dist::map_distributed(comm, graph, topology, constraints, context);
  const Mapping identity(pe_of_process.begin(), pe_of_process.begin() + static_cast<std::ptrdiff_t>(n));
  return settle(mapping, dist::distributed_hop_bytes(comm, graph, topology, mapping),
                dist::distributed_hop_bytes(comm, graph, topology, identity), pe_of_process);
}

}  // namespace tmap::mpi
