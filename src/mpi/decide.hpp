// libtmap-mpi's decision: which process plays each vertex of a topology
// constructor's graph, on the settings' machine with their strategy,
// decided on rank 0 from the gathered graph or, for ptscotch, where the
// graph lives. Every process calls it; all get the same answer.
#pragma once

#include <mpi.h>

#include <functional>
#include <vector>

#include "mpi/settings.hpp"
#include "tmap/comm_matrix.hpp"

namespace tmap::mpi {

/// An edge list gathered on rank 0 (vertex ids are ranks of the new communicator).
struct Graph {
  int vertices = 0;
  std::vector<CommEntry> edges;
};

/// How a constructor gives its graph: `gather` (collective) returns the
/// whole graph on rank 0 (anything elsewhere); `mine` the directed edges
/// this process knows, for the distributed path.
struct GraphSource {
  int vertices = 0;
  std::function<Graph()> gather;
  std::function<std::vector<CommEntry>()> mine;
};

/// Collective over `comm`: the process that plays each vertex, or empty
/// (do not reorder: a machine or strategy tmap cannot use, a refusal): tmap's
/// errors never leave it. Rank 0's settings decide; prints only as their
/// verbosity asks (rank 0).
[[nodiscard]] std::vector<int> decide(const Settings& settings, MPI_Comm comm, const char* routine,
                                      const GraphSource& source);

}  // namespace tmap::mpi
