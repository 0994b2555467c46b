// libtmap-mpi's distributed path (TMAP_STRATEGY=ptscotch): the graph stays
// where the constructor's arguments put it. Each process hands over the
// edges it knows, they travel to the owners of their vertices (blocks in
// process order), PT-Scotch maps the graph there (dist::map_ptscotch), and
// nothing larger than one label per vertex is ever gathered.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <vector>

#include "mpi/placement.hpp"
#include "tmap/comm_matrix.hpp"
#include "tmap/topology.hpp"

namespace tmap::mpi {

/// Collective over `comm` (every process gets the same answer): maps the
/// n-vertex graph whose directed entries each process knows (`mine`; any
/// vertex, each entry given by one process) onto the processes' PEs with
/// PT-Scotch, and settles it against the identity as assign_vertices does.
/// Throws (on every process alike) what map_ptscotch refuses.
[[nodiscard]] Assignment assign_distributed(MPI_Comm comm, Rank n, const std::vector<CommEntry>& mine,
                                            const Topology& topology, const std::vector<PE>& pe_of_process,
                                            std::uint64_t seed = 0);

}  // namespace tmap::mpi
